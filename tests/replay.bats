#!/usr/bin/env bats
# replay.bats - pool-replay: a pool's history, queue, status and priorities
# replayed under policies; the run times it measures, the jobs it leaves out,
# the report side by side, determinism, parallel runs and their merge.

load helpers

S=$BATS_TEST_DIRNAME/../share/replay
T0=1767571200		# Mon 2026-01-05 00:00 UTC

# The example week under its configuration and without priority preemption.
example() {
	pool-replay --history "$S/history" --queue "$S/queue.ads" --status "$S/status.ads" \
	    --userprio "$S/userprio.ads" \
	    --class-by 'ifThenElse(IsDesktop =?= true, "desktops", "nodes")' \
	    --desktops 'IsDesktop =?= true' -c "$S/condor_config" \
	    --policy now --policy no-preemption -c "$S/no-preemption.config" "$@"
}

# slot NAME CPUS [LINE...]: a slot ad of condor_status -long in $TMP/status
slot() {
	local name=$1 cpus=$2
	shift 2
	printf 'Name = "slot1@%s"\nMachine = "%s"\nState = "Claimed"\nActivity = "Busy"\n' "$name" "$name"
	printf 'TotalCpus = %d\nTotalMemory = %d\nTotalDisk = 10000000\nCpus = 1\nArch = "X86_64"\n' \
	    "$cpus" $((cpus * 2048))
	printf 'RemoteUser = "someone@example.org"\nKeyboardIdle = 5\n'
	local a
	for a in "$@"; do printf '%s\n' "$a"; done
	echo
} 

# hist OWNER QDATE [LINE...]: a job ad of condor_history in $TMP/history
hist() {
	local owner=$1 at=$2
	shift 2
	printf 'Owner = "%s"\nUser = "%s@example.org"\nQDate = %d\nJobStatus = 4\n' \
	    "$owner" "$owner" $((T0 + at))
	printf 'RequestCpus = 1\nRequestMemory = 512\nRequirements = TARGET.Memory >= RequestMemory\n'
	local a
	for a in "$@"; do printf '%s\n' "$a"; done
	printf '*** Offset = 0 ClusterId = 1 ProcId = 0 Owner = "%s" CompletionDate = 0\n' "$owner"
}

# row KIND NAME ATTR: ATTR of the row of KIND named NAME (Name or Reason)
# of every policy in $TMP/out.json, one line per policy
row() {
	classad-eval -w "Kind == \"$1\" && (Name =?= \"$2\" || Reason =?= \"$2\")" -p "$3" \
	    "$TMP/out.json"
}

@test "pool-replay: the example week side by side; without priority preemption nothing is lost to it" {
	run --separate-stderr example -j 2 --svg "$TMP/week.svg"
	((status == 0))
	[[ -z $stderr ]]
	[[ ${lines[0]} == 'Replay of 819 jobs submitted from 2026-01-05 00:07 to 2026-01-11 23:30 on 14 machines (128 cores)' ]]
	[[ $output == *'run times modelled (the owner'"'"'s median): 5 jobs'* ]]
	[[ $output == *$'\n-- The pool '*' now no-preemption'* ]]
	[[ $output == *$'\n-- Utilization per machine class'* ]]
	[[ $output == *'desktops (8, 32 cores)'* && $output == *'nodes (6, 96 cores)'* ]]
	# priority preemption is a cause under the first policy only
	local prio
	prio=$(grep -E '^  Priority +[0-9]+ +-$' <<<"$output")
	[[ -n $prio ]]
	# the desktops' owners evict under both
	grep -qE '^  PREEMPT +[0-9]+ +[0-9]+$' <<<"$output"
	grep -qE '^  no machine matches its Requirements and requests +2 +2$' <<<"$output"
	for who in alice bob carol dave erin group_physics group_chem '<none>'; do
		[[ $output == *$'\n  '"$who "* ]]
	done
	# the picture: every group under both policies, the second dashed
	[[ $(grep -c 'data-name="group_physics"' "$TMP/week.svg") -eq 2 ]]
	grep -q 'stroke-dasharray="6 3"' "$TMP/week.svg"
	grep -q 'data-name="no-preemption"' "$TMP/week.svg"
	tail -n 1 "$TMP/week.svg" | grep -q '</svg>'
}

@test "pool-replay: the same inputs give the same report, byte for byte, whatever -j" {
	example --json -j 2 >"$TMP/a.json"
	example --json >"$TMP/b.json"
	cmp "$TMP/a.json" "$TMP/b.json"
	cp "$TMP/a.json" "$TMP/out.json"
	# badput from priority preemption, none without it
	[[ $(row policy '' Preemptions | wc -l) -eq 0 ]]
	run classad-eval -w 'Kind == "policy"' -p Policy -p 'BadputHours > 100' "$TMP/out.json"
	[[ $output == $'now\ttrue\nno-preemption\tfalse' ]]
}

@test "pool-replay: one policy per batch job (--only --json), then --merge makes the one report" {
	example --json >"$TMP/all.json"
	example --only now --json >"$TMP/now.json"
	example --only no-preemption --json >"$TMP/np.json"
	pool-replay --merge --json "$TMP/now.json" "$TMP/np.json" >"$TMP/merged.json"
	cmp "$TMP/all.json" "$TMP/merged.json"
	diff <(example) <(pool-replay --merge "$TMP/now.json" "$TMP/np.json")
}

@test "pool-replay: run times as measured: committed time less its suspension, else wall time less suspension" {
	slot m1.example.org 4 >"$TMP/status"
	{
		hist alice 0 'CommittedTime = 7200' 'CommittedSuspensionTime = 3600' \
		    'RemoteWallClockTime = 20000.0' 'GlobalJobId = "s#1.0#1"'
		hist bob 0 'RemoteWallClockTime = 9000.0' 'CumulativeSuspensionTime = 1800' \
		    'GlobalJobId = "s#2.0#1"'
		# the same job in a second file of the history: replayed once
		hist bob 0 'RemoteWallClockTime = 9000.0' 'GlobalJobId = "s#2.0#1"'
		hist carol 0 'JobStatus = 3' 'RemoteWallClockTime = 0.0'
		hist carol 0 'JobStatus = 3' 'RemoteWallClockTime = 1800.0'
	} >"$TMP/history"
	run --separate-stderr pool-replay --history "$TMP/history" --status "$TMP/status" --json
	((status == 0))
	printf '%s\n' "$output" >"$TMP/out.json"
	[[ $(row user alice GoodputHours) == 1.0 ]]
	[[ $(row user bob GoodputHours) == 2.0 ]]
	[[ $(row user carol GoodputHours) == 0.5 ]]
	[[ $(row skipped 'seen before (the same GlobalJobId)' Jobs) == 1 ]]
	[[ $(row skipped 'removed before it ran' Jobs) == 1 ]]
	# the machine starts empty whatever its slot was doing at the dump
	[[ $(row policy '' 'Machines') == '' ]]
	run classad-eval -w 'Kind == "policy"' -p Machines -p Cores -p Jobs -p Completed "$TMP/out.json"
	[[ $output == $'1\t4\t3\t3' ]]
}

@test "pool-replay: a queued job runs for its owner's median; one no machine can run is never run, and why" {
	slot m1.example.org 2 >"$TMP/status"
	{
		hist alice 0 'CommittedTime = 600'
		hist alice 0 'CommittedTime = 1200'
		hist alice 0 'CommittedTime = 6000'
	} >"$TMP/history"
	printf 'Owner = "alice"\nQDate = %d\nJobStatus = 1\nRequestCpus = 1\nRequestMemory = 512\nRequirements = true\n\n' \
	    $((T0 + 60)) >"$TMP/queue"
	printf 'Owner = "zed"\nQDate = %d\nJobStatus = 1\nRequestCpus = 1\nRequestMemory = 999999\nRequirements = true\n\n' \
	    $((T0 + 60)) >>"$TMP/queue"
	run --separate-stderr pool-replay --history "$TMP/history" --queue "$TMP/queue" \
	    --status "$TMP/status" --json
	((status == 0))
	printf '%s\n' "$output" >"$TMP/out.json"
	# 600 + 1200 + 6000 + the median 1200 seconds
	[[ $(row user alice GoodputHours) == 2.5 ]]
	[[ $(row neverrun 'no machine matches its Requirements and requests' Jobs) == 1 ]]
	[[ $(row user zed NeverRun) == 1 ]]
	run classad-eval -w 'Kind == "policy"' -p Modelled "$TMP/out.json"
	[[ $output == 2 ]]
}

@test "pool-replay: the accountant starts from condor_userprio -long (either layout)" {
	slot m1.example.org 1 >"$TMP/status"
	{
		hist alice 0 'CommittedTime = 3600'
		hist bob 0 'CommittedTime = 3600'
	} >"$TMP/history"
	printf 'LastUpdate = %d\nName1 = "alice@example.org"\nPriority1 = 500.0\nPriorityFactor1 = 1.0\nName2 = "bob@example.org"\nPriority2 = 0.5\nPriorityFactor2 = 1.0\nNumSubmittors = 2\n' \
	    $((T0 + 86400)) >"$TMP/legacy"
	printf 'Name = "bob@example.org"\nAccountingGroup = "<none>"\nPriority = 500.0\nPriorityFactor = 1.0\n\n' \
	    >"$TMP/modular"
	pool-replay --history "$TMP/history" --status "$TMP/status" --userprio "$TMP/legacy" \
	    --json >"$TMP/out.json"
	[[ $(row user bob WaitMedian) -lt $(row user alice WaitMedian) ]]
	pool-replay --history "$TMP/history" --status "$TMP/status" --userprio "$TMP/modular" \
	    --json >"$TMP/out.json"
	[[ $(row user alice WaitMedian) -lt $(row user bob WaitMedian) ]]
}

@test "pool-replay: --set and -c per policy; the pool's knobs apply to every policy" {
	slot m1.example.org 2 >"$TMP/status"
	hist alice 0 'CommittedTime = 3600' >"$TMP/history"
	printf 'START = False\n' >"$TMP/closed.config"
	run --separate-stderr pool-replay --history "$TMP/history" --status "$TMP/status" \
	    --set 'UID_DOMAIN = example.org' --policy open --policy closed -c "$TMP/closed.config" \
	    --policy reopened -c "$TMP/closed.config" --set START=True --until $((T0 + 86400)) --json
	((status == 0))
	printf '%s\n' "$output" >"$TMP/out.json"
	run classad-eval -w 'Kind == "policy"' -p Policy -p Started "$TMP/out.json"
	[[ $output == $'open\t1\nclosed\t0\nreopened\t1' ]]
	[[ $(row neverrun 'no machine matches its Requirements and requests' Jobs) == 1 ]]
}

@test "pool-replay: owners from an event file, or from the seeded model; the class is the configuration's local name" {
	{
		slot ws1.example.org 1 'IsDesktop = true'
		slot n1.example.org 1
	} >"$TMP/status"
	hist alice 0 'CommittedTime = 7200' 'Requirements = TARGET.IsDesktop =?= true' >"$TMP/history"
	cat >"$TMP/pool.config" <<-'EOF'
	desktops.START = KeyboardIdle > 15 * 60
	desktops.PREEMPT = KeyboardIdle < 60
	desktops.WANT_SUSPEND = False
	desktops.WANT_VACATE = True
	EOF
	printf 'Machine = "ws1.example.org"\nFrom = %d\nTo = %d\n' $((T0 + 3600)) $((T0 + 5400)) \
	    >"$TMP/owners"
	local args=(--history "$TMP/history" --status "$TMP/status" -c "$TMP/pool.config"
	    --class-by 'ifThenElse(IsDesktop =?= true, "desktops", "nodes")' --json)
	pool-replay "${args[@]}" --owners "$TMP/owners" >"$TMP/out.json"
	# the job is evicted when the owner comes at 01:00 and restarts after 01:30 + 15 min
	[[ $(row cause PREEMPT Preemptions) == 1 ]]
	[[ $(row class desktops Machines) == 1 ]]
	[[ $(row user alice Completed) == 1 ]]
	# no owner: nothing evicts it
	pool-replay "${args[@]}" >"$TMP/out.json"
	[[ -z $(row cause PREEMPT Preemptions) ]]
	# the model: the same seed, the same week
	pool-replay "${args[@]}" --desktops 'IsDesktop =?= true' --seed 7 >"$TMP/m1.json"
	pool-replay "${args[@]}" --desktops 'IsDesktop =?= true' --seed 7 >"$TMP/m2.json"
	cmp "$TMP/m1.json" "$TMP/m2.json"
	# a short desktop job on Monday at 11:00 waits for its owner to leave
	# (most days), one on Saturday at 11:00 does not
	{
		hist alice $((11 * 3600)) 'CommittedTime = 600' 'Requirements = TARGET.IsDesktop =?= true'
		hist bob $((5 * 86400 + 11 * 3600)) 'CommittedTime = 600' \
		    'Requirements = TARGET.IsDesktop =?= true'
	} >"$TMP/history"
	local seed long=0
	for seed in 1 2 3 4; do
		pool-replay "${args[@]}" --desktops 'IsDesktop =?= true' --seed $seed >"$TMP/out.json"
		(($(row user bob WaitMedian) < 3600))
		(($(row user alice WaitMedian) > 4 * 3600)) && long=$((long + 1))
	done
	((long >= 2))
}

@test "pool-replay: usage errors, and inputs that are not what they claim" {
	run pool-replay --history /dev/null
	((status == 2))
	[[ $output == *'give the machines: --status FILE'* ]]
	run pool-replay --status /dev/null
	((status == 2))
	run pool-replay --history /dev/null --status /dev/null --set NOEQUALS
	((status == 2))
	run pool-replay --history /dev/null --status /dev/null --policy a --policy a
	((status == 2))
	run pool-replay --merge
	((status == 2))
	slot m1.example.org 1 >"$TMP/status"
	hist alice 0 'CommittedTime = 60' >"$TMP/history"
	run pool-replay --history "$TMP/history" --status "$TMP/status" --only nosuch --policy x
	((status == 2))
	# nothing to replay
	run --separate-stderr pool-replay --history /dev/null --status "$TMP/status"
	((status == 3))
	[[ $stderr == *'nothing to replay: no job'* ]]
	# a policy whose configuration does not load
	printf 'if\n' >"$TMP/bad.config"
	run --separate-stderr pool-replay --history "$TMP/history" --status "$TMP/status" \
	    --policy bad -c "$TMP/bad.config"
	((status == 3))
	[[ $stderr == *bad.config* ]]
	# a schedd policy that does not parse: its place (a file of the pool
	# that is gone by the time it is told)
	printf 'SYSTEM_PERIODIC_HOLD = ((\n' >"$TMP/bad.config"
	run --separate-stderr pool-replay --history "$TMP/history" --status "$TMP/status" \
	    --policy bad -c "$TMP/bad.config"
	((status == 3))
	[[ $stderr == *'bad.config:1:26: SYSTEM_PERIODIC_HOLD: expected an expression'* ]] ||
	    { echo "$stderr"; false; }
	# an ad that is no job is said and left out
	printf 'Foo = 1\n*** Offset = 0\n' >>"$TMP/history"
	run --separate-stderr pool-replay --history "$TMP/history" --status "$TMP/status" --json
	((status == 0))
	[[ $stderr == *'a job ad without Owner'* ]]
}

@test "pool-replay: progress on a terminal's standard error, never with -q or off a terminal" {
	# the history comes slowly: the replay starts more than two seconds in
	feed="cat $S/history; sleep 2.5"
	args="--queue $S/queue.ads --status $S/status.ads --userprio $S/userprio.ads -c $S/condor_config --policy now"
	at_terminal "($feed) | pool-replay --history - $args >$TMP/out"
	[[ $output == *"pool-replay: policy now: at 2026-"*" UTC (the window ends 2026-"*" jobs submitted"* ]]
	[[ $output == *$'\e[K' ]]
	grep -q '^Replay of 819 jobs' "$TMP/out"
	at_terminal "($feed) | pool-replay -q --history - $args >/dev/null"
	[[ -z $output ]]
	run bash -c "($feed) | pool-replay --history - $args 2>&1 >/dev/null"
	[[ -z $output ]]
}
