#!/bin/sh
# demo.sh - `make demo`: classad-eval on the example pool in share/pool: a slot
# table, a filter, each job against one slot, and the slots matching each job.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
ce=${CA_BIN:-$here/../bin}/classad-eval
pool=$here/pool
now=1700000000		# 2023-11-14 22:13:20 UTC: the pool's snapshot time
slot=slot1@gpu01.hpc.example.org

if [ ! -x "$ce" ]; then
	echo "demo: $ce not found: run make first (or set CA_BIN)" >&2
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/classad-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
cd "$pool"
tab=$(printf '\t')

echo "== 1. the slots as a table: classad-eval -p Name -p State -p Cpus -p Memory slots.ads"
"$ce" --now $now -p Name -p State -p Cpus -p Memory slots.ads | expand -t 32,44,50

echo
echo "== 2. slots with more than 8 GB: classad-eval -w 'Memory > 8192' -p Name -p Memory slots.ads"
"$ce" --now $now -w 'Memory > 8192' -p Name -p Memory slots.ads | expand -t 32

echo
echo "== 3. each job against $slot:"
echo "==    classad-eval -f JOB -t SLOT Requirements, and -f SLOT -t JOB Requirements (its START)"
"$ce" --now $now -w "Name == \"$slot\"" slots.ads >"$tmp/slot"
"$ce" --now $now -p ClusterId -p ProcId -p Owner -p RequestMemory jobs.ads >"$tmp/jobs"
while IFS=$tab read -r cluster proc owner mem; do
	job=$tmp/job.$cluster.$proc
	"$ce" --now $now -w "ClusterId == $cluster && ProcId == $proc" jobs.ads </dev/null >"$job"
	want=$("$ce" --now $now -f "$job" -t "$tmp/slot" Requirements </dev/null)
	take=$("$ce" --now $now -f "$tmp/slot" -t "$job" Requirements </dev/null)
	printf '  %-6s %-6s %6s MB   job wants slot: %-9s  slot takes job: %s\n' \
	    "$cluster.$proc" "$owner" "$mem" "$want" "$take"
done <"$tmp/jobs"

echo
echo "== 4. the slots that match each job both ways:"
echo "==    classad-eval -t JOB -w 'Requirements && TARGET.Requirements' -p Name slots.ads"
while IFS=$tab read -r cluster proc owner mem; do
	slots=$("$ce" --now $now -t "$tmp/job.$cluster.$proc" \
	    -w 'Requirements && TARGET.Requirements' -p Name slots.ads </dev/null |
	    sed 's/\.[a-z]*\.example\.org$//' | paste -s -d ' ' -)
	printf '  %-6s %-6s %s\n' "$cluster.$proc" "$owner" "${slots:-(none)}"
done <"$tmp/jobs"
