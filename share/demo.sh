#!/bin/sh
# demo.sh - `make demo`: a simulated day of the example pool in share/pool/sim,
# run cycle by cycle by pool-run, then its tables and what happened, and a
# picture of the day (SVG=FILE, default demo.svg in the state's parent).
#
# The pool: four desktops with the seed's desktop policy, four dedicated
# nodes, a big-memory node with a partitionable slot, two GPU nodes (two
# A100s, two T4s) whose dynamic slots get GPUs of their own, and the
# Coltrane quartet's four machines with their RANK; twelve users, among
# them a nice user, three in hierarchical accounting groups with quotas, a
# user with priority factor 2, two cron jobs and a user of GPUs. A cycle every five simulated
# minutes: cron-next, userprio-calc, schedd-step, startd-step, negotiate.
# KEEP=DIR keeps the pool's state directory in DIR (it must not exist).
set -eu

case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
here=$(cd "$here" && pwd)
CA_BIN=${CA_BIN:-$here/../bin}
export CA_BIN
for p in pool-run pool-cycle userprio-calc pool-replay; do
	if [ ! -x "$CA_BIN/$p" ]; then
		echo "demo: $CA_BIN/$p not found: run make first (or set CA_BIN)" >&2
		exit 1
	fi
done
export TZ=UTC LC_ALL=C

if [ -n "${KEEP:-}" ]; then
	state=$KEEP
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/classad-demo.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM
	state=$tmp/pool
fi

t0=$(date +%s)
cat <<'EOF'
== A day of the example pool (share/pool/sim), Wednesday 2023-11-15 UTC,
== one cycle every five simulated minutes (pool-run share/pool/sim DIR)
==   machines  4 desktops (seed desktop policy), 4 dedicated nodes, bigmem01
==             (a partitionable slot), gpu01 and gpu02 (two GPUs each, for
==             GPU jobs only), tenorsax, piano, drums, bass (RANK)
==   users     alice, bob (group_physics.hep, .astro), carol (group_chem),
==             dave, erin (priority factor 2), frank (nice user), ops (cron
==             jobs), jones and garrison (the quartet), grace (GPU jobs);
==             see share/pool/sim/jobs.ads
==   owners    at the keyboard of ws01 09:00-09:25, ws02 10:30-10:33,
==             ws03 13:00-17:30 (share/pool/sim/owners.ads)

Every simulated hour: the cores claimed, the jobs running per user, the jobs idle.
EOF
svg=${SVG:-${state%/*}/demo.svg}
"$CA_BIN/pool-run" --svg "$svg" "$here/pool/sim" "$state"
t1=$(date +%s)
echo
echo "== The simulated day took $((t1 - t0)) s: $(cat "$state/current") cycles."
echo "== Its picture (jobs running per user and per group, effective priorities,"
echo "== each slot's state): $svg"
if [ -n "${KEEP:-}" ]; then
	echo "== The pool's state is in $state: its log/ holds every job event"
	echo "== (jobs.log), match (matches.ads), slot transition (startd.log) and"
	echo "== negotiation cycle (negotiator.log) of the day."
fi

echo
cat <<'EOF'
== What if: a made-up week of another pool (share/replay: condor_history,
== condor_q -long, condor_status -long and condor_userprio -long files)
== replayed under its configuration and without priority preemption
== (pool-replay ... --policy now --policy no-preemption), the pool's figures:
EOF
r=$here/replay
"$CA_BIN/pool-replay" --history "$r/history" --queue "$r/queue.ads" \
    --status "$r/status.ads" --userprio "$r/userprio.ads" \
    --class-by 'ifThenElse(IsDesktop =?= true, "desktops", "nodes")' \
    --desktops 'IsDesktop =?= true' -c "$r/condor_config" \
    --policy now --policy no-preemption -c "$r/no-preemption.config" -j 2 \
    --svg "${svg%.svg}-replay.svg" | sed '/^-- Jobs never run/,$d'
echo "== Its picture (both runs overlaid): ${svg%.svg}-replay.svg"
