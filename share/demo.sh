#!/bin/sh
# demo.sh - `make demo`: classad-eval on the example pool in share/pool: a slot
# table, a filter, and each job's Requirements against one slot (both ways).
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
"$ce" --now $now -p Name -p State -p Cpus -p Memory slots.ads

echo
echo "== 2. slots with more than 8 GB: classad-eval -w 'Memory > 8192' -p Name -p Memory slots.ads"
"$ce" --now $now -w 'Memory > 8192' -p Name -p Memory slots.ads

echo
echo "== 3. each job against $slot:"
echo "==    classad-eval -f JOB -t SLOT Requirements, and -f SLOT -t JOB Requirements (its START)"
"$ce" --now $now -w "Name == \"$slot\"" slots.ads >"$tmp/slot.ad"
"$ce" --now $now -p ClusterId -p ProcId -p Owner -p RequestMemory jobs.ads >"$tmp/jobs"
while IFS=$tab read -r cluster proc owner mem; do
	owner=${owner#\"}
	owner=${owner%\"}
	"$ce" --now $now -w "ClusterId == $cluster && ProcId == $proc" jobs.ads </dev/null >"$tmp/job.ad"
	job=$("$ce" --now $now -f "$tmp/job.ad" -t "$tmp/slot.ad" Requirements </dev/null)
	start=$("$ce" --now $now -f "$tmp/slot.ad" -t "$tmp/job.ad" Requirements </dev/null)
	printf '  %-6s %-6s %6s MB   job wants slot: %-9s  slot takes job: %s\n' \
	    "$cluster.$proc" "$owner" "$mem" "$job" "$start"
done <"$tmp/jobs"
