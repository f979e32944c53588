#!/usr/bin/env bats
# pool.bats - the whole scheduler: small pools run by pool-run and
# pool-cycle under a simulated clock, checked
# against the seeds' promises (fair shares, priority factors, nice users,
# the desktop policy, cron jobs, group quotas), and the state directory's
# atomic commits, crash recovery and lock.

load helpers

SHARE=$BATS_TEST_DIRNAME/../share
P=$SHARE/policy
T0=1700006400		# Wed 2023-11-15 00:00 UTC: the simulated day starts here
export POOL_SYNC=0

# pool LINE...: a pool in $TMP/pool whose pool.config has these lines
pool() {
	mkdir -p "$TMP/pool/startd"
	printf '%s\n' 'UID_DOMAIN = example.org' "$@" >"$TMP/pool/pool.config"
	: >"$TMP/pool/jobs.ads"
}

# machines CLASS COUNT CPUS CONFIG-LINE...: COUNT machines CLASSn of CPUS
# cores in startd/CLASS.ads, with the seed's pool policy and these lines
machines() {
	local class=$1 n=$2 cpus=$3 i
	shift 3
	printf '%s\n' "include : $P/desktop.config" "$@" >"$TMP/pool/startd/$class.config"
	for ((i = 1; i <= n; i++)); do
		printf 'Name = "%s%d.example.org"\nCpus = %d\nMemory = %d\nDisk = 10000000\nKeyboardIdle = 36000\nConsoleIdle = 36000\nLoadAvg = 0.0\n\n' \
		    "$class" "$i" "$cpus" $((cpus * 2048))
	done >"$TMP/pool/startd/$class.ads"
}

# jobs USER COUNT DURATION SUBMIT [LINE...]: a cluster of COUNT one-core jobs
# of USER, DURATION seconds each, submitted SUBMIT seconds after the start
jobs() {
	local user=$1 n=$2 dur=$3 at=$4
	shift 4
	{
		printf 'Owner = "%s"\nUser = "%s@example.org"\nRequestCpus = 1\nRequestMemory = 512\n' "$user" "$user"
		printf 'RequestDisk = 1000\nRequirements = TARGET.Memory >= RequestMemory\n'
		printf 'JobDuration = %s\nSimSubmitTime = %s\nQueue = %s\n' "$dur" "$at" "$n"
		local a
		for a in "$@"; do printf '%s\n' "$a"; done
		echo
	} >>"$TMP/pool/jobs.ads"
}

# sim EVERY CYCLES: run the pool (state in $TMP/st) for CYCLES cycles
sim() {
	run --separate-stderr pool-run -q --no-report --every "$1" -n "$2" \
	    "$TMP/pool" "$TMP/st"
	[[ -z $stderr ]] || { echo "$stderr"; return 1; }
	((status == 0))
}

# running_at T KEY: per value of the job expression KEY, the jobs running
# at T seconds after the start, from the job event log ("value count" lines)
running_at() {
	classad-eval -p MyType -p EventTime -p JobId -p "$2" "$TMP/st/log/jobs.log" |
	awk -F '\t' -v t=$((T0 + $1)) '
	$2 > t { next }
	$1 == "ExecuteEvent" { run[$3] = $4 }
	$1 == "JobTerminatedEvent" || $1 == "JobEvictedEvent" { delete run[$3] }
	END { for (j in run) n[run[j]]++; for (k in n) print k, n[k] }' | sort
}

# count_at T KEY VALUE: the number of jobs of KEY == VALUE running at T
count_at() {
	running_at "$1" "$2" | awk -v v="$3" '$1 == v { n = $2 } END { print n + 0 }'
}

@test "the example pool: an hour of share/pool/sim, then the tables" {
	run --separate-stderr pool-run -q -n 12 "$SHARE/pool/sim" "$TMP/st"
	((status == 0))
	[[ -z $stderr ]]
	[[ $output == *"-- Slots at 2023-11-15 01:00"* ]]
	[[ $output == *"slot1@bigmem01.hpc.example.org"* ]]
	[[ $output == *"nice-user.frank@example.org"* ]]
	[[ $output == *"-- Jobs completed per user"* ]]
	# alice's group_physics.hep holds its quota of 12 cores; frank fills the rest
	[[ $(count_at 3600 'ifThenElse(isString(AccountingGroup), AccountingGroup, Owner)' group_physics.hep.alice) == 12 ]]
	(($(cat "$TMP/st/current") == 12))
	# the tables of the pool as it is
	run pool-run -n 0 --no-report "$TMP/st"
	((status == 0))
	[[ $output == *"Total for all users:"* ]]
}

@test "equal demand and equal factors converge to equal shares" {
	pool 'PRIORITY_HALFLIFE = 900'
	machines node 2 4 'use FEATURE : StaticSlots'
	jobs u1 80 600 0		# u1 has the pool to itself for half an hour
	jobs u2 80 600 1800
	sim 300 30
	[[ $(count_at 1500 Owner u1) == 8 ]]
	# u2 catches up; in the last ninety minutes they take turns over the
	# slots that free up together (5 and 3, then 3 and 5): never more than
	# one slot apart from even, and equal on average
	local t out s1=0 s2=0
	for ((t = 3600; t <= 9000; t += 300)); do
		out=$(running_at $t Owner | awk '{ printf "%s ", $2 }')
		case $out in "4 4 "|"5 3 "|"3 5 ") ;; *) echo "at $t: $out"; return 1 ;; esac
		set -- $out
		s1=$((s1 + $1)) s2=$((s2 + $2))
	done
	((s1 - s2 <= 2 && s2 - s1 <= 2)) || { echo "u1 $s1, u2 $s2 slot-cycles"; return 1; }
}

@test "twice the priority factor, half the share (inverse ratio of effective priorities)" {
	pool
	machines node 3 4 'use FEATURE : StaticSlots'
	printf 'Name = "u2@example.org"\nPriorityFactor = 2.0\n' >"$TMP/pool/accountant.ads"
	jobs u1 30 3600 0
	jobs u2 30 3600 0
	sim 300 3
	run running_at 900 Owner
	[[ $output == $'u1 8\nu2 4' ]]
	grep -Eq '^u1@example.org +0.50 +8.00 ' "$TMP/st/log/negotiator.log"
	grep -Eq '^u2@example.org +1.00 +4.00 ' "$TMP/st/log/negotiator.log"
}

@test "nice-user jobs only run on slots nobody else wants" {
	pool 'PREEMPTION_REQUIREMENTS = RemoteUserPrio > SubmitterUserPrio * 1.2'
	machines node 2 4 'use FEATURE : StaticSlots'
	jobs frank 20 7200 0 'NiceUser = true'
	jobs u1 3 3600 0
	jobs u1 4 3600 1200
	sim 300 8
	# together in the first cycle: u1 first, the nice user gets what is left
	run running_at 600 'NiceUser =?= true'
	[[ $output == $'false 3\ntrue 5' ]]
	# u1's later jobs take the nice user's slots by priority preemption, and
	# run within two cycles of their submission
	run classad-eval -w 'MyType == "JobEvictedEvent"' -p Owner -p Reason -p PreemptingUser \
	    "$TMP/st/log/jobs.log"
	[[ $output == $'frank\tPriority\tu1@example.org\nfrank\tPriority\tu1@example.org\nfrank\tPriority\tu1@example.org\nfrank\tPriority\tu1@example.org' ]]
	run classad-eval -w 'MyType == "ExecuteEvent" && Owner == "u1"' -p "EventTime - $T0" \
	    "$TMP/st/log/jobs.log"
	[[ $output == $'600\n600\n600\n1500\n1500\n1500\n1500' ]]
	run running_at 2400 'NiceUser =?= true'
	[[ $output == $'false 7\ntrue 1' ]]
}

@test "a desktop owner typing suspends the job; after MaxSuspendTime it is vacated" {
	pool
	machines desk 1 1 "include : $P/desktop-local.config" 'NUM_SLOTS = 1'
	jobs u1 1 10800 0 'JobUniverse = 5'
	printf 'Machine = "desk1.example.org"\nFrom = 1800\nTo = 1800 + 25 * 60\n' >"$TMP/pool/owners.ads"
	sim 300 17
	run classad-eval -p MyType -p "EventTime - $T0" -p 'ifThenElse(isString(Reason), Reason, "")' \
	    "$TMP/st/log/jobs.log"
	local -a ev=("${lines[@]}")
	[[ ${ev[0]} == $'SubmitEvent\t300\t' ]]
	[[ ${ev[1]} == $'ExecuteEvent\t600\t' ]]
	[[ ${ev[2]} == $'JobSuspendedEvent\t1800\t' ]]		# the first keystroke
	[[ ${ev[3]} == $'JobEvictedEvent\t2700\tPREEMPT' ]]	# vacated in the next cycle
	# PREEMPT fired once the job had been suspended MaxSuspendTime (600 s)
	# (at the second it does, between two cycles)
	grep -q '00:40:01 slot1@desk1.example.org Claimed/Suspended -> Claimed/Retiring \[16\] PREEMPT' \
	    "$TMP/st/log/startd.log"
	# no job starts while the owner is there, nor until the keyboard has
	# been idle StartIdleTime (15 minutes): the job runs again at 4200
	[[ ${ev[4]} == $'ExecuteEvent\t4200\t' ]]
	((${#ev[@]} == 5))
}

@test "cron jobs start on their minute, within their window, never two at once" {
	pool 'PREEMPTION_REQUIREMENTS = RemoteUserPrio > SubmitterUserPrio * 1.2'
	machines node 1 4 'use FEATURE : StaticSlots'
	jobs frank 10 7200 0 'NiceUser = true'		# the slots are busy
	jobs ops 1 180 0 'CronMinute = "*/10"'
	jobs ops 1 420 0 'CronMinute = "*/5"'		# runs longer than its period
	jobs ops 1 60 0 'CronMinute = "*/15"' 'CronWindow = 120' 'CronPrepTime = 0'
	sim 300 18
	run classad-eval -w 'MyType == "ExecuteEvent" && Owner == "ops"' -p JobId \
	    -p "EventTime - $T0" -p 'EventTime - DeferralTime' -p "(DeferralTime - $T0) % 60" \
	    "$TMP/st/log/jobs.log"
	local line n1=0 n2=0 n3=0
	for line in "${lines[@]}"; do
		IFS=$'\t' read -r id t late sec <<<"$line"
		((sec == 0)) || { echo "not on a minute: $line"; return 1; }
		case $id in
		2.0) ((late == 0 && t % 600 == 0)) && n1=$((n1 + 1)) ;;
		3.0) ((late == 0 && t % 300 == 0)) && n2=$((n2 + 1)) ;;
		4.0) ((late >= 0 && late <= 120 && (t - late) % 900 == 0)) && n3=$((n3 + 1)) ;;
		esac || { echo "off schedule: $line"; return 1; }
	done
	((n1 >= 7 && n2 >= 6 && n3 >= 4)) || { echo "runs: $n1 $n2 $n3"; return 1; }
	# each run starts after the last one ended
	classad-eval -w 'Owner == "ops" && (MyType == "ExecuteEvent" || MyType == "JobTerminatedEvent" || MyType == "JobEvictedEvent")' \
	    -p JobId -p MyType -p EventTime "$TMP/st/log/jobs.log" |
	awk -F '\t' '$2 == "ExecuteEvent" { if (on[$1]) { print "two at once:", $0; bad = 1 } on[$1] = 1; next }
	    { on[$1] = 0 } END { exit bad }'
}

# events T0: the job events of the run, but submissions, as "Owner MyType
# seconds-after-T0" lines
events() {
	classad-eval -w 'MyType != "SubmitEvent"' -p Owner -p MyType -p "EventTime - $T0" \
	    "$TMP/st/log/jobs.log"
}

@test "pool-run: a running job's periodic policies and deferral are checked every cycle, though nothing else changes" {
	pool
	machines node 1 4 'use FEATURE : StaticSlots'
	jobs u1 1 7200 0 'PeriodicHold = time() - JobCurrentStartDate > 1000'
	jobs u2 1 7200 0 'PeriodicRemove = time() - QDate > 1500'
	jobs u4 1 600 0 "DeferralTime = $((T0 + 1700))" 'DeferralPrepTime = 1500'
	sim 300 12
	run events
	# queued at 300, started at 600; each policy fires in the first cycle it
	# is true
	[[ $output == *$'u1\tJobHeldEvent\t1800'* ]] || { echo "$output"; false; }
	[[ $output == *$'u2\tJobAbortedEvent\t2100'* ]] || { echo "$output"; false; }
	# claimed before its DeferralTime, executing from it on (logged by the
	# cycle after)
	[[ $output == *$'u4\tExecuteEvent\t1700'* ]] || { echo "$output"; false; }
	[[ $output == *$'u4\tJobTerminatedEvent\t2300'* ]] || { echo "$output"; false; }
}

@test "pool-run: the schedd's SYSTEM_PERIODIC_HOLD of pool.config holds a running job when it comes true" {
	pool 'SYSTEM_PERIODIC_HOLD = Owner == "u3" && time() - JobCurrentStartDate > 1200' \
	    'SYSTEM_PERIODIC_HOLD_REASON = "ran too long"'
	machines node 1 4 'use FEATURE : StaticSlots'
	jobs u3 2 7200 0
	jobs u5 1 7200 0
	sim 300 12
	run classad-eval -w 'MyType == "JobHeldEvent"' -p Owner -p "EventTime - $T0" \
	    -p HoldReason -p HoldReasonCode "$TMP/st/log/jobs.log"
	[[ $output == $'u3\t2100\tran too long\t26\nu3\t2100\tran too long\t26' ]] ||
	    { echo "$output"; false; }
	# a policy that does not evaluate stops the pool before it runs
	pool 'SYSTEM_PERIODIC_HOLD = (('
	machines node 1 4 'use FEATURE : StaticSlots'
	rm -rf "$TMP/st"
	run pool-run -q --no-report -n 1 "$TMP/pool" "$TMP/st"
	((status != 0))
	[[ $output == *pool.config*SYSTEM_PERIODIC_HOLD* ]] || { echo "$output"; false; }
}

@test "group quotas hold: each group gets its quota, none more" {
	pool 'GROUP_NAMES = g1, g1.a, g2' 'GROUP_QUOTA_g1 = 6' 'GROUP_QUOTA_g1.a = 4' \
	    'GROUP_QUOTA_g2 = 3'
	machines node 3 4 'use FEATURE : StaticSlots'
	jobs a1 30 900 0 'AccountingGroup = "g1.a.a1"'
	jobs b1 30 900 0 'AccountingGroup = "g1.b1"'
	jobs c1 30 900 0 'AccountingGroup = "g2.c1"'
	jobs d1 30 900 0
	sim 300 10
	local t key='ifThenElse(isString(AccountingGroup), AccountingGroup, Owner)'
	for ((t = 600; t <= 3000; t += 300)); do
		run running_at $t "$key"
		[[ $output == $'d1 3\ng1.a.a1 4\ng1.b1 2\ng2.c1 3' ]] || { echo "at $t: $output"; return 1; }
	done
}

@test "the example pool's GPU nodes: each GPU job its own GPUs, the A100 jobs on gpu01 only" {
	run --separate-stderr pool-run -q --no-report -n 200 "$SHARE/pool/sim" "$TMP/st"
	((status == 0))
	[[ -z $stderr ]]
	# the four one-GPU jobs of 09:05 hold the four GPUs, one each
	run grep -o '09:05:00 slot1_[0-9]@gpu0[12].hpc.example.org .* for job 120\.[0-9]*: .*GPUs 1 (GPU-[0-9a-f]*)' \
	    "$TMP/st/log/startd.log"
	((${#lines[@]} == 4))
	[[ $(sed 's/.*(\(GPU-[0-9a-f]*\))$/\1/' <<<"$output" | sort -u | wc -l) == 4 ]]
	# no job but GPU jobs on the GPU nodes, none of them elsewhere
	run classad-eval -w 'MyType == "ExecuteEvent"' -p 'Cluster >= 120' -p \
	    'regexp("gpu0", Slot)' "$TMP/st/log/jobs.log"
	[[ $(sort -u <<<"$output" | tr '\t\n' ' ') == 'false false true true ' ]]
	# the two-GPU jobs that need an A100 go to gpu01 (its two A100s at once)
	run grep -c 'gpu01.hpc.example.org for job 121\.[0-9]*: Cpus 4, Memory 32768, Disk 1000448, GPUs 2 (GPU-1a2b3c4d,GPU-5e6f7a8b)' \
	    "$TMP/st/log/startd.log"
	((output >= 1))
	! grep -q 'gpu02.hpc.example.org for job 121' "$TMP/st/log/startd.log"
	# the negotiator's consumption policy takes a GPU a match
	[[ $(grep -c '^ConsumedGPUs = 1$' "$TMP/st/log/matches.ads") == 12 ]]
}

# ---- the state directory ----

# a pool with work to do, initialised in $TMP/st, one cycle run
small_pool() {
	pool
	machines node 1 2 'use FEATURE : StaticSlots'
	pool-cycle --init --now $T0 "$TMP/pool" "$TMP/st"
	printf 'Owner = "u1"\nUser = "u1@example.org"\nJobDuration = 600\nQueue = 3\n' >"$TMP/st/incoming/a.ads"
	pool-cycle --now $((T0 + 60)) "$TMP/st"
}

@test "pool-cycle: a cluster whose jobs all left the queue in the cycle that numbered it is not numbered again" {
	small_pool
	printf 'Owner = "u2"\nPeriodicRemove = true\n' >"$TMP/st/incoming/b.ads"
	pool-cycle --now $((T0 + 120)) "$TMP/st"
	printf 'Owner = "u3"\n' >"$TMP/st/incoming/c.ads"
	pool-cycle --now $((T0 + 180)) "$TMP/st"
	run classad-eval -p Owner -p ClusterId -p JobStatus -w 'Owner != "u1"' \
	    "$TMP/st/log/history.ads" "$TMP/st/gen.3/jobs.ads"
	[[ $output == $'u2\t2\t3\nu3\t3\t1' ]] || { echo "$output"; false; }
}

@test "pool-cycle: a submission of the scheduler universe is queued with a warning, once a run" {
	pool
	machines node 1 2 'use FEATURE : StaticSlots'
	pool-cycle --init --now $T0 "$TMP/pool" "$TMP/st"
	printf 'JobUniverse = 7\nJobDuration = 600\nQueue = 2\n' >"$TMP/st/incoming/a.ads"
	printf 'JobUniverse = 12\nJobDuration = 600\n' >"$TMP/st/incoming/b.ads"
	run -0 --separate-stderr pool-cycle --now $((T0 + 60)) "$TMP/st"
	[ "$stderr" = "pool-cycle: a.ads: JobUniverse is not simulated (the scheduler, grid, parallel and local universes: such a job is matched here as a vanilla job); later jobs with it are not reported" ]
	run classad-eval -p 'strcat(ClusterId, ".", ProcId)' -p JobUniverse "$TMP/st/gen.1/jobs.ads"
	[[ $output == $'1.0\t7\n1.1\t7\n2.0\t12' ]]
}

@test "pool-cycle: --init, a cycle, the generations and the usage errors" {
	small_pool
	[[ $(cat "$TMP/st/current") == 1 ]]
	[[ -d $TMP/st/gen.0 && -d $TMP/st/gen.1 && ! -e $TMP/st/incoming/a.ads ]]
	run classad-eval -p 'strcat(ClusterId, ".", ProcId)' -p JobStatus "$TMP/st/gen.1/jobs.ads"
	[[ $output == $'1.0\t1\n1.1\t1\n1.2\t1' ]]
	pool-cycle --now $((T0 + 120)) "$TMP/st"
	[[ ! -e $TMP/st/gen.0 ]]
	run classad-eval -p JobStatus "$TMP/st/gen.2/jobs.ads"
	[[ $output == $'2\n2\n1' ]]
	# the same time again is nothing to do
	run pool-cycle -v --now $((T0 + 120)) "$TMP/st"
	((status == 0))
	[[ $output == *"nothing to do"* && $(cat "$TMP/st/current") == 2 ]]
	run pool-cycle --init "$TMP/pool" "$TMP/st"
	((status == 4))
	[[ $output == *"already a pool state directory"* ]]
	run pool-cycle "$TMP/nowhere"
	((status == 4))
	run pool-cycle --now soon "$TMP/st"
	((status == 2))
	run pool-cycle
	((status == 2))
}

@test "pool-cycle: a crash mid-cycle loses nothing and the next cycle runs" {
	small_pool
	cp -R "$TMP/st/gen.1" "$TMP/before"
	printf 'Owner = "u2"\nQueue = 2\n' >"$TMP/st/incoming/b.ads"
	# a cycle killed in the middle: a half-written generation and commit
	# (the random SIGKILLs below hit every other point)
	mkdir -p "$TMP/st/gen.2/slots"
	printf 'Owner = "half"\n' >"$TMP/st/gen.2/jobs.ads"
	echo 2 >"$TMP/st/current.tmp"
	[[ $(cat "$TMP/st/current") == 1 && -e $TMP/st/incoming/b.ads && -d $TMP/st/gen.2 ]]
	diff -r "$TMP/before" "$TMP/st/gen.1"
	# the next cycle throws the half-written generation away and runs
	pool-cycle --now $((T0 + 120)) "$TMP/st"
	[[ $(cat "$TMP/st/current") == 2 && ! -e $TMP/st/incoming/b.ads ]]
	run classad-eval -p Owner "$TMP/st/gen.2/jobs.ads"
	[[ $output == $'u1\nu1\nu1\nu2\nu2' ]]
	# a crash after the commit, before the submissions were removed: they
	# are removed by the next cycle, not submitted twice
	# (the file taken still there: the inode gen.2/.inodes records)
	printf 'Owner = "u2"\nQueue = 2\n' >"$TMP/st/incoming/b.ads"
	printf 'incoming %s b.ads\n' "$(stat -c '%d %i %.9Z' "$TMP/st/incoming/b.ads")" \
	    >"$TMP/st/gen.2/.inodes"
	rm "$TMP/st/gen.2/.done"
	pool-cycle --now $((T0 + 180)) "$TMP/st"
	[[ ! -e $TMP/st/incoming/b.ads ]]
	run classad-eval -w 'Owner == "u2"' -p Owner "$TMP/st/gen.3/jobs.ads"
	((${#lines[@]} == 2))
}

# state_parses DIR: the committed generation of the state directory DIR is
# whole: its number, its clock and cluster counter, and every ad file parses
state_parses() {
	local g f
	[[ $(cat "$1/current") =~ ^[0-9]+$ ]] || { echo "$1/current: $(cat "$1/current")"; return 1; }
	g=$1/gen.$(cat "$1/current")
	[[ $(cat "$g/clock") =~ ^[0-9]+$ && $(cat "$g/cluster") =~ ^[0-9]+$ ]] ||
	    { echo "$g: clock or cluster torn"; return 1; }
	for f in "$g/acct.ads" "$g/jobs.ads" "$g"/slots/*.ads; do
		classad-eval -w false "$f" || { echo "$f: does not parse"; return 1; }
	done
}

@test "pool-cycle: SIGKILL at random points, over and over: the old state or the new, and recovery as if never killed" {
	command -v setsid >/dev/null || skip "no setsid(1): cannot kill a cycle's process group"
	pool 'PREEMPTION_REQUIREMENTS = RemoteUserPrio > SubmitterUserPrio * 1.2'
	machines node 3 4 'use FEATURE : StaticSlots'
	pool-cycle --init --now $T0 "$TMP/pool" "$TMP/st"
	local i t n c us pid old=0 new=0 runs=${CA_KILL_RUNS:-15}
	for ((i = 1; i <= runs; i++)); do
		t=$((T0 + i * 300))
		printf 'Owner = "u%d"\nUser = "u%d@example.org"\nJobDuration = 900\nQueue = 3\n' \
		    $((i % 3)) $((i % 3)) >"$TMP/st/incoming/s$i.ads"
		printf 'Name = "slot%d@node%d.example.org"\nEvent = "Vacate"\n' $((i % 4 + 1)) \
		    $((i % 3 + 1)) >"$TMP/st/events/v$i.ads"
		n=$(cat "$TMP/st/current")
		rm -rf "$TMP/old" "$TMP/ref"
		cp -a "$TMP/st" "$TMP/old"
		# the cycle uninterrupted (kept as ref), and how long that takes:
		# the kill comes at a random point of it, to the whole process
		# group, as a power cut would
		us=${EPOCHREALTIME/./}
		pool-cycle --now $t "$TMP/st"
		us=$(((${EPOCHREALTIME/./} - us) * RANDOM / 32768))
		mv "$TMP/st" "$TMP/ref"
		cp -a "$TMP/old" "$TMP/st"
		setsid "$CA_BIN/pool-cycle" --now $t "$TMP/st" &
		pid=$!
		sleep "$(printf '%d.%06d' $((us / 1000000)) $((us % 1000000)))"
		kill -KILL -- -$pid 2>/dev/null || true
		wait $pid 2>/dev/null || true
		state_parses "$TMP/st"
		c=$(cat "$TMP/st/current")
		if ((c == n)); then
			# the old state: nothing of it changed, nothing consumed (the
			# next run removes the uncommitted gen.N+1 and current.tmp)
			old=$((old + 1))
			diff -r -x "gen.$((n + 1))" -x current.tmp -x lock -x .inodes "$TMP/old" "$TMP/st"
		else
			# the new state, whole
			((c == n + 1)) || { echo "run $i: current $c after $n"; return 1; }
			new=$((new + 1))
			for f in clock cluster acct.ads jobs.ads slots; do
				diff -r "$TMP/ref/gen.$c/$f" "$TMP/st/gen.$c/$f"
			done
		fi
		# the next run recovers: the directory is as if never killed
		# (logs appended once, submissions and events consumed once)
		pool-cycle --now $t "$TMP/st"
		# (but for where the files taken were: copies have other inodes)
		diff -r -x .inodes "$TMP/ref" "$TMP/st" || { echo "run $i: recovery differs (killed after $us us)"; return 1; }
	done
	echo "# old state kept $old times, new state $new times" >&3
	pool-cycle --now $((t + 300)) "$TMP/st"
	state_parses "$TMP/st"
	(($(cat "$TMP/st/current") == runs + 1))
	[[ -z $(find "$TMP/st" -name '.*.??????') ]]
}

@test "pool-cycle: two --init at once make one state directory (flock)" {
	pool
	machines node 3 2
	local a b sa sb
	pool-cycle --init --now $T0 "$TMP/pool" "$TMP/st" 2>"$TMP/a.err" &
	a=$!
	pool-cycle --init --now $T0 "$TMP/pool" "$TMP/st" 2>"$TMP/b.err" &
	b=$!
	sa=0 sb=0
	wait $a || sa=$?
	wait $b || sb=$?
	# one made it, the other found it made
	[[ $((sa + sb)) == 4 ]] || { echo "$sa $sb"; cat "$TMP/a.err" "$TMP/b.err"; false; }
	grep -q 'already a pool state directory' "$TMP/a.err" "$TMP/b.err"
	[[ $(cat "$TMP/st/current") == 0 && $(wc -l <"$TMP/st/hosts.map") == 3 ]]
	[[ ! -e $TMP/st/lock.d ]]
	pool-cycle --now $((T0 + 60)) "$TMP/st"
	[[ $(cat "$TMP/st/current") == 1 ]]
}

@test "pool-cycle: overlapping runs wait for each other (flock)" {
	small_pool
	local t=$T0 i
	# a cycle holds the lock (flock(1) on the same file stands in for a
	# slow one): the next waits for it, then runs on its result
	flock "$TMP/st/lock" sleep 1 &
	for ((i = 0; i < 400; i++)); do	# until it holds the lock
		flock -n "$TMP/st/lock" true || break
		sleep 0.01
	done
	SECONDS=0
	pool-cycle --now $((t + 120)) "$TMP/st"
	((SECONDS >= 1 || i == 400))
	wait
	[[ $(cat "$TMP/st/gen.$(cat "$TMP/st/current")/clock") == $((t + 120)) ]]
	# two at once, each for its own time: one after the other
	pool-cycle --now $((t + 180)) "$TMP/st" &
	pool-cycle --now $((t + 240)) "$TMP/st"
	wait
	[[ $(cat "$TMP/st/current") == 4 || $(cat "$TMP/st/current") == 3 ]]
	[[ $(cat "$TMP/st/gen.$(cat "$TMP/st/current")/clock") == $((t + 240)) ]]
	# the cycles in the negotiator's log, in the order of their times
	run awk '/^Cycle at/ { sub(":", "", $3); if ($3 <= last) bad = 1; last = $3; n++ }
	    END { print bad + 0 }' "$TMP/st/log/negotiator.log"
	[[ $output == "0" ]] || { echo "$output"; false; }
	# a lock whose holder died is free: flock's lock goes with the process
	flock "$TMP/st/lock" sh -c 'kill -KILL $$' || true
	timeout 20 pool-cycle --now $((t + 300)) "$TMP/st"
	[[ $(cat "$TMP/st/gen.$(cat "$TMP/st/current")/clock") == $((t + 300)) && ! -e $TMP/st/lock.d ]]
}

@test "pool-cycle: submissions and events that are refused are set aside; the pool goes on" {
	small_pool
	printf 'ClusterId = 1\nProcId = 0\nOwner = "u3"\n' >"$TMP/st/incoming/dup.ads"
	printf 'Owner = "u4"\n' >"$TMP/st/incoming/ok.ads"
	printf 'Name = "slot9@node1.example.org"\nEvent = "Vacate"\n' >"$TMP/st/events/bad.ads"
	printf 'Name = "elsewhere.example.org"\nEvent = "Drain"\n' >"$TMP/st/events/other.ads"
	run --separate-stderr pool-cycle --now $((T0 + 120)) "$TMP/st"
	((status == 0))
	[[ $stderr == *"dup.ads: refused (ad 1: job 1.0 is already in the queue), moved to $TMP/st/incoming/rejected/dup.ads"* ]]
	[[ $stderr == *"bad.ads: refused (no slot named slot9@node1.example.org (event Vacate)), moved to $TMP/st/events/rejected/bad.ads"* ]]
	[[ $stderr == *"other.ads: refused (an event for elsewhere.example.org, which is not in the pool), moved to"* ]]
	[[ -e $TMP/st/incoming/rejected/dup.ads && ! -e $TMP/st/incoming/ok.ads ]]
	[[ -e $TMP/st/events/rejected/bad.ads && -e $TMP/st/events/rejected/other.ads ]]
	run classad-eval -p Owner "$TMP/st/gen.2/jobs.ads"
	[[ $output == $'u1\nu1\nu1\nu4' ]]
	# a good event: condor_vacate of one of u1's running jobs
	printf 'Name = "slot1@node1.example.org"\nEvent = "Vacate"\nFast = true\n' \
	    >"$TMP/st/events/vacate.ads"
	pool-cycle --now $((T0 + 180)) "$TMP/st"
	[[ ! -e $TMP/st/events/vacate.ads ]]
	grep -q 'slot1@node1.example.org .*event Vacate' "$TMP/st/log/startd.log"
}

@test "pool-cycle: one bad file sets aside only itself; clashing submissions keep the first; later events wait" {
	small_pool
	# two submissions fine alone that clash with each other, between two
	# good ones: the first of the pair goes in, in the order of the files
	printf 'ClusterId = 500\nOwner = "u2"\n' >"$TMP/st/incoming/b1.ads"
	printf 'ClusterId = 500\nOwner = "u3"\n' >"$TMP/st/incoming/b2.ads"
	printf 'Owner = "u4"\n' >"$TMP/st/incoming/b3.ads"
	printf 'Owner = "u5"\n' >"$TMP/st/incoming/a0.ads"
	# a good event, a bad one and one not due yet, in three files
	printf 'Name = "slot1@node1.example.org"\nEvent = "Vacate"\nFast = true\n' >"$TMP/st/events/e1.ads"
	printf 'Name = "slot7@node1.example.org"\nEvent = "Vacate"\n' >"$TMP/st/events/e2.ads"
	printf 'Name = "slot2@node1.example.org"\nEvent = "Vacate"\nTime = %d\n' $((T0 + 250)) \
	    >"$TMP/st/events/e3.ads"
	printf 'this is not an ad\n' >"$TMP/st/events/e4.ads"
	run --separate-stderr pool-cycle --now $((T0 + 120)) "$TMP/st"
	((status == 0)) || { echo "$stderr"; false; }
	[[ $stderr == *"b2.ads: refused (ad 1: job 500.0 is already in the queue)"* ]]
	[[ $stderr == *"e2.ads: refused (no slot named "* && $stderr == *"e4.ads: refused ("* ]]
	[[ $stderr != *"b1.ads"* && $stderr != *"b3.ads"* && $stderr != *"e1.ads"* && $stderr != *"e3.ads"* ]]
	[[ $(ls "$TMP/st/incoming/rejected") == $'b2.ads\nb2.ads.why' ]]
	[[ $(ls "$TMP/st/events/rejected") == $'e2.ads\ne2.ads.why\ne4.ads\ne4.ads.why' ]]
	# the reason beside the file
	[[ $(cat "$TMP/st/incoming/rejected/b2.ads.why") == "ad 1: job 500.0 is already in the queue" ]]
	run classad-eval -p Owner -p ClusterId -w 'Owner != "u1"' "$TMP/st/gen.2/jobs.ads"
	[[ $output == $'u5\t2\nu2\t500\nu4\t501' ]] || { echo "$output"; false; }
	grep -q 'slot1@node1.example.org .*event Vacate' "$TMP/st/log/startd.log"
	! grep -q 'slot2@node1.example.org .*event Vacate' "$TMP/st/log/startd.log"
	[[ -e $TMP/st/events/e3.ads && ! -e $TMP/st/events/e1.ads ]]
	# the next cycles go on; the event that waited is applied once due
	pool-cycle --now $((T0 + 180)) "$TMP/st"
	[[ -e $TMP/st/events/e3.ads ]]
	pool-cycle --now $((T0 + 300)) "$TMP/st"
	[[ ! -e $TMP/st/events/e3.ads ]]
	grep -q 'slot2@node1.example.org .*event Vacate' "$TMP/st/log/startd.log"
}

# man_examples PAGE: run every "$ command" of the literal blocks of PAGE's
# EXAMPLES in the current directory, each compared with the output shown
# under it; prints nothing and fails at the first difference, else sets
# $examples to the number of commands run
man_examples() {
	awk '/^\.Sh EXAMPLES/ { ex = 1; next } ex && /^\.Sh / { ex = 0 }
	    ex && /^\.Bd -literal/ { blk = 1; next }
	    ex && /^\.Ed/ { blk = 0; print "@@end"; next }
	    ex && blk { gsub(/\\e/, "\\"); gsub(/\\&/, ""); print }' \
	    "$BATS_TEST_DIRNAME/../man/$1" >blocks
	local cmd="" want="" line incmd=0
	examples=0
	flush() {
		if [[ -n $cmd ]]; then
			run -0 bash -c "$cmd"
			[[ $output == "${want%$'\n'}" ]] || {
				printf 'command: %s\nwant:\n%s\ngot:\n%s\n' "$cmd" "$want" "$output"
				return 1
			}
			examples=$((examples + 1))
		fi
		cmd="" want=""
	}
	while IFS= read -r line; do
		if [[ $line == "@@end" ]]; then
			flush
		elif [[ $line == '$ '* ]]; then
			flush
			cmd=${line#'$ '}
			incmd=0
			[[ $cmd == *'\' ]] && incmd=1
		elif ((incmd)); then
			cmd+=$'\n'$line
			[[ $line == *'\' ]] || incmd=0
		elif [[ -n $cmd ]]; then
			want+=$line$'\n'
		fi
	done <blocks
	flush
}

@test "pool-cycle and pool-run: the man pages' EXAMPLES run as written" {
	# as the pages say: from the top of the source tree, the programs on PATH
	unset POOL_SYNC
	mkdir "$TMP/cycle" "$TMP/run"
	ln -s "$SHARE" "$TMP/cycle/share"
	ln -s "$SHARE" "$TMP/run/share"
	cd "$TMP/cycle"
	man_examples pool-cycle.1
	[[ $examples == 11 ]]
	cd "$TMP/run"
	man_examples pool-run.1
	[[ $examples == 6 ]]
}

@test "pool-run --svg: a well-formed picture holding every user, group and slot of the run" {
	run --separate-stderr pool-run -q --no-report -n 24 --svg "$TMP/day.svg" "$SHARE/pool/sim" "$TMP/st"
	((status == 0))
	[[ -z $stderr ]]
	if command -v python3 >/dev/null; then
		run python3 -c '
import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1])
print(d.documentElement.tagName)
print("\n".join(sorted(set(t.firstChild.data for t in d.getElementsByTagName("text") if t.firstChild))))
' "$TMP/day.svg"
	elif command -v xmllint >/dev/null; then
		xmllint --noout "$TMP/day.svg"
		run sh -c "echo svg; sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' '$TMP/day.svg' | sort -u"
	else
		skip "neither python3 nor xmllint to parse the SVG"
	fi
	((status == 0))
	[[ ${lines[0]} == svg ]]
	local want
	for want in "Jobs running per user" "Jobs running per accounting group" \
	    "Effective user priorities (lower is better)" "Slot states" frank alice ops \
	    group_physics.hep nice-user.frank@example.org slot1@bigmem01.hpc.example.org \
	    slot4@node04.hpc.example.org Claimed Unclaimed; do
		printf '%s\n' "${lines[@]}" | grep -qxF "$want" || { echo "no $want"; return 1; }
	done
}

@test "pool-run: a long run counts its cycles on a terminal's standard error, never with -q" {
	[[ -z ${ASAN_OPTIONS:-} ]] || skip "a long run: the release build times it"
	# more cycles than a few seconds allow: stopped after them
	at_terminal "timeout 4 pool-run --no-report -n 10000000 $SHARE/pool/sim $TMP/st1 >/dev/null"
	[[ $output == *"pool-run: "*" of 10000000 cycles, "*" jobs in the queue"* ]]
	at_terminal "timeout 3 pool-run -q --no-report -n 10000000 $SHARE/pool/sim $TMP/st2 >/dev/null"
	[[ -z $output ]]
}
