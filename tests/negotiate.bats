# negotiate.bats - one negotiation cycle: the seeds' worked examples (pie
# slices 4:2:1, RANK preemption on the quartet's machines, the 20% priority
# rule, nice users, job priorities, the four group quota cases, partitionable
# slots and consumption policies), the match records, --summary, --explain,
# formats, determinism and errors.

load helpers

D=$BATS_TEST_DIRNAME/data/negotiate
T0=1700000000

# neg ARGS...: negotiate at T0
neg() { negotiate --now "$T0" "$@"; }

# matches ARGS...: the cycle's matches, one line each:
# JobId, slot Name, MatchReason, Submitter (and PreemptedJobId when preempting)
matches() {
	negotiate --now "$T0" "$@" >"$TMP/records" || return $?
	classad-eval -p JobId -p Name -p MatchReason -p Submitter -p PreemptedJobId \
	    "$TMP/records" | sed 's/\tundefined$//'
}

# count_by_submitter: how many matches each submitter got, from $TMP/records
count_by_submitter() {
	classad-eval -p Submitter "$TMP/records" | sort | uniq -c | awk '{ print $2, $1 }'
}

# shares ARGS...: a cycle (its records in $TMP/records), then count_by_submitter
shares() {
	neg "$@" >"$TMP/records" || return $?
	count_by_submitter
}

# knob_shares [ARGS...]: shares with $TMP/config, $TMP/slots and $TMP/jobs
knob_shares() { shares -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" "$@"; }

# gen_slots PREFIX N [LINE...]: N idle one-core slots slot1@PREFIX001...
gen_slots() {
	local p=$1 n=$2 i
	shift 2
	for ((i = 1; i <= n; i++)); do
		printf 'Name = "slot1@%s%03d.example.org"\nMachine = "%s%03d.example.org"\n' \
		    "$p" "$i" "$p" "$i"
		printf 'SlotID = 1\nState = "Unclaimed"\nActivity = "Idle"\nCpus = 1\n'
		printf 'Memory = 4096\nDisk = 1000000\nRank = 0.0\nCurrentRank = 0.0\n'
		printf 'Requirements = START\nSTART = True\n'
		if (($#)); then printf '%s\n' "$@"; fi
		printf '\n'
	done
}

# gen_jobs USER CLUSTER N [LINE...]: N idle jobs CLUSTER.0 ... of USER
gen_jobs() {
	local u=$1 c=$2 n=$3 i
	shift 3
	for ((i = 0; i < n; i++)); do
		printf 'ClusterId = %d\nProcId = %d\nOwner = "%s"\nUser = "%s@example.org"\n' \
		    "$c" "$i" "$u" "$u"
		printf 'JobStatus = 1\nRequestCpus = 1\nRequestMemory = 1024\n'
		printf 'Requirements = TARGET.Memory >= RequestMemory\nRank = 0.0\n'
		if (($#)); then printf '%s\n' "$@"; fi
		printf '\n'
	done
}

# accounting NAME=PRIO...: an accountant state with these real priorities
accounting() {
	local a
	for a in "$@"; do
		printf 'Name = "%s"\nPriority = %s\nPriorityFactor = 1.0\nLastUpdate = %s\n\n' \
		    "${a%%=*}" "${a#*=}" "$T0"
	done
}

# ---- conventions ----

@test "negotiate: --help on stdout, -V, exit 0" {
	run -0 --separate-stderr negotiate --help
	[[ $output == usage:* ]]
	[[ $output == *"--explain JOBID"* ]]
	[ -z "$stderr" ]
	run -0 negotiate -V
	[ "$output" = "negotiate (classad-tools) 0.1.0" ]
	run -0 negotiate --version
}

@test "negotiate: usage errors exit 2" {
	run -2 --separate-stderr negotiate --slots "$D/prio-slots.ads"
	[[ $stderr == *"--slots FILE and --jobs FILE are both required"* ]]
	run -2 --separate-stderr negotiate --slots - --jobs -
	[[ $stderr == *"cannot both be standard input"* ]]
	run -2 --separate-stderr negotiate --bogus
	[[ $stderr == "negotiate: unknown or ambiguous option '--bogus'"* ]]
	run -2 --separate-stderr negotiate --slots a --jobs b extra
	[[ $stderr == *"unexpected argument 'extra'"* ]]
	run -2 --separate-stderr negotiate --now
	run -2 --separate-stderr negotiate --slots a --jobs b -o yaml
	run -2 --separate-stderr negotiate --slots a --jobs b --explain ''
}

@test "negotiate: a malformed ad is reported with its place, exit 3, no records" {
	gen_slots n 2 >"$TMP/slots"
	printf 'ClusterId = 1\nProcId = 0\nRequirements = (TARGET.Memory >\n\n' >"$TMP/jobs"
	run -3 --separate-stderr neg --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ -z "$output" ]
	[[ $stderr == "negotiate: $TMP/jobs:3:"* ]]
}

@test "negotiate: missing files exit 4; a bad configuration exits 3" {
	gen_slots n 1 >"$TMP/slots"
	gen_jobs alice 1 1 >"$TMP/jobs"
	run -4 --separate-stderr neg --slots "$TMP/nope" --jobs "$TMP/jobs"
	[[ $stderr == *"$TMP/nope"* ]]
	run -4 --separate-stderr neg --slots "$TMP/slots" --jobs "$TMP/jobs" --accounting "$TMP/nope"
	[[ $stderr == *"no such accountant file"* ]]
	printf 'PREEMPTION_REQUIREMENTS = (RemoteUserPrio >\n' >"$TMP/bad.config"
	run -3 --separate-stderr neg -c "$TMP/bad.config" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[[ $stderr == "negotiate: $TMP/bad.config:1:"* ]]
	printf 'GROUP_QUOTA_DYNAMIC_group_a = 1.5\n' >"$TMP/bad.config"
	run -3 --separate-stderr neg -c "$TMP/bad.config" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[[ $stderr == *"must be a fraction from 0.0 to 1.0"* ]]
	if [[ -w /dev/full ]]; then
		run -4 --separate-stderr sh -c 'negotiate --slots "$1" --jobs "$2" >/dev/full' _ \
		    "$TMP/slots" "$TMP/jobs"
		[ "$stderr" = "negotiate: writing output failed: No space left on device" ]
	fi
	run -4 --separate-stderr neg --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    --summary="$TMP/no/such/dir"
	[[ $stderr == *"cannot write the summary"* ]]
}

@test "negotiate: no match is a negative answer: exit 1, no records" {
	gen_slots n 1 'START = False' >"$TMP/slots"
	gen_jobs alice 1 1 >"$TMP/jobs"
	run -1 --separate-stderr neg --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ -z "$output" ]
	[ -z "$stderr" ]
}

# ---- the example pool ----

@test "example pool: match records as startd-step takes them (golden)" {
	run -0 neg --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads"
	check_golden negotiate/pool-records
}

@test "example pool: --summary says who got what and why the rest wait (golden)" {
	run -0 --separate-stderr neg --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" --summary
	output=$stderr
	check_golden negotiate/pool-summary
}

@test "example pool: --explain follows a job to its slot (golden)" {
	run -0 --separate-stderr neg --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" \
	    --explain 101.1
	output=$stderr
	check_golden negotiate/pool-explain-101.1
}

@test "example pool: --explain says why erin's desktop job waits (golden)" {
	run -0 --separate-stderr neg --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" \
	    --explain 105.0
	output=$stderr
	check_golden negotiate/pool-explain-105.0
	[[ $output == *"slot1@ws01.cs.example.org: no match: neither Requirements holds"* ]]
	[[ $output == *"slot1@node01.hpc.example.org: no match: the job's Requirements are false"* ]]
	[[ $output == *"result: job 105.0 left idle: outranked"* ]]
}

@test "example pool: --explain of a job that is not idle, or not there" {
	run -0 --separate-stderr neg --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" \
	    --explain 102.0
	[[ $stderr == "job 102.0: not idle (JobStatus 2): the negotiator does not look at it" ]]
	run -0 --separate-stderr neg --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" \
	    --explain 999.9
	[[ $stderr == "job 999.9: not among the jobs" ]]
}

@test "output: -o new, -o json and -z; the same inputs give the same bytes" {
	run -0 neg --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" -o new
	[[ ${lines[1]} == '[ Event = "Match"; Time = 1700000000; Name = "slot1@ws02.cs.example.org";'* ]]
	run -0 neg --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" -o json
	[[ $output == *'"MatchReason": "NoPreemption"'* ]]
	neg --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" -z >"$TMP/a.gz"
	neg --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" >"$TMP/b"
	gzip -dc "$TMP/a.gz" | cmp - "$TMP/b"
	neg --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" --summary=$TMP/s1 >"$TMP/c"
	neg --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" --summary=$TMP/s2 >"$TMP/d"
	cmp "$TMP/b" "$TMP/c"
	cmp "$TMP/c" "$TMP/d"
	cmp "$TMP/s1" "$TMP/s2"
	grep -q '^alice@example.org .* 2 ' "$TMP/s1"
}

@test "input: slots and jobs may come in any format, or from standard input" {
	classad-eval -o json "$POOL/slots.ads" >"$TMP/slots.json"
	run -0 matches --slots "$TMP/slots.json" --jobs - <"$POOL/jobs.ads"
	[ "${lines[0]}" = $'101.0\tslot1@ws02.cs.example.org\tNoPreemption\talice@example.org' ]
	[ "${#lines[@]}" -eq 3 ]
}

# ---- 3.4.2 / 3.4.6: pie slices by the inverse ratio of effective priorities ----

@test "seed 002 3.4.2: effective priorities 5, 10 and 20 share 70 slots 40:20:10 (4:2:1)" {
	gen_slots n 70 >"$TMP/slots"
	{ gen_jobs alice 1 100; gen_jobs bob 2 100; gen_jobs carol 3 100; } >"$TMP/jobs"
	accounting alice@example.org=5.0 bob@example.org=10.0 carol@example.org=20.0 >"$TMP/acct"
	neg --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    --summary="$TMP/summary" >"$TMP/records"
	run count_by_submitter
	[ "$output" = $'alice@example.org 40\nbob@example.org 20\ncarol@example.org 10' ]
	run cat "$TMP/summary"
	check_golden negotiate/pie-421
}

@test "seed 002 3.4.6: the pie spins again until the machines run out (71 slots)" {
	gen_slots n 71 >"$TMP/slots"
	{ gen_jobs alice 1 100; gen_jobs bob 2 100; gen_jobs carol 3 100; } >"$TMP/jobs"
	accounting alice@example.org=5.0 bob@example.org=10.0 carol@example.org=20.0 >"$TMP/acct"
	neg --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	run count_by_submitter
	[ "$output" = $'alice@example.org 41\nbob@example.org 20\ncarol@example.org 10' ]
}

@test "seed 002 3.4.6: what a user does not want is shared among the others" {
	gen_slots n 70 >"$TMP/slots"
	{ gen_jobs alice 1 5; gen_jobs bob 2 100; gen_jobs carol 3 100; } >"$TMP/jobs"
	accounting alice@example.org=5.0 bob@example.org=10.0 carol@example.org=20.0 >"$TMP/acct"
	neg --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	run count_by_submitter
	# alice takes 5 and is done; the next spin shares the pool 2:1 between
	# bob and carol: bob's 2/3 of 70 is 46.7 (he takes 26 more), carol's
	# 23.3 less her 10 is cut to the 9 slots left
	[ "$output" = $'alice@example.org 5\nbob@example.org 46\ncarol@example.org 19' ]
}

@test "seed 004: priority 10 gets twice the machines of priority 20; factors count (EUP)" {
	gen_slots n 30 >"$TMP/slots"
	{ gen_jobs alice 1 50; gen_jobs bob 2 50; } >"$TMP/jobs"
	printf 'Name = "alice@example.org"\nPriority = 5.0\nPriorityFactor = 2.0\n\n' >"$TMP/acct"
	printf 'Name = "bob@example.org"\nPriority = 10.0\nPriorityFactor = 2.0\n\n' >>"$TMP/acct"
	neg --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	run count_by_submitter
	[ "$output" = $'alice@example.org 20\nbob@example.org 10' ]
	run -0 classad-eval -p RemoteUserPrio "$TMP/records"
	[ "${lines[0]}" = "10.0" ]
}

@test "seed 004: a user at priority 5 gets 10 times the slots of one at 50" {
	untraced gen_slots n 55 >"$TMP/slots"
	{ gen_jobs alice 1 60; gen_jobs bob 2 60; } >"$TMP/jobs"
	accounting alice@example.org=5.0 bob@example.org=50.0 >"$TMP/acct"
	neg --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	run count_by_submitter
	[ "$output" = $'alice@example.org 50\nbob@example.org 5' ]
}

@test "a submitter is Owner@UID_DOMAIN without User, or its AccountingGroup" {
	gen_slots n 3 >"$TMP/slots"
	printf 'ClusterId = 1\nProcId = 0\nOwner = "zoe"\nRequirements = True\n\n' >"$TMP/jobs"
	printf 'ClusterId = 2\nProcId = 0\nOwner = "yan"\nUser = "yan@b.org"\nAccountingGroup = "group_x.yan"\nRequirements = True\n\n' >>"$TMP/jobs"
	printf 'UID_DOMAIN = a.org\n' >"$TMP/config"
	run -0 matches -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[[ $output == *$'\tzoe@a.org'* ]]
	[[ $output == *$'\tgroup_x.yan@b.org'* ]]
}

# ---- 3.4.5: job order within a submitter ----

@test "seed 004: an unmatchable priority-10 job does not block the priority-9 one" {
	gen_slots n 1 >"$TMP/slots"
	{ gen_jobs alice 10 1 'JobPrio = 10' 'RequestMemory = 999999'
	  gen_jobs alice 11 1 'JobPrio = 9'; } >"$TMP/jobs"
	run -0 matches --slots "$TMP/slots" --jobs "$TMP/jobs" --summary="$TMP/summary"
	[ "$output" = $'11.0\tslot1@n001.example.org\tNoPreemption\talice@example.org' ]
	grep -q '1 no slot matches' "$TMP/summary"
}

@test "seed 004: a priority-10 job runs before a priority-9 job; JobPrio before ClusterId" {
	gen_slots n 1 >"$TMP/slots"
	{ gen_jobs alice 11 1 'JobPrio = 9'; gen_jobs alice 12 1 'JobPrio = 10'; } >"$TMP/jobs"
	run -0 matches --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = $'12.0\tslot1@n001.example.org\tNoPreemption\talice@example.org' ]
}

@test "job order: PreJobPrio1, PreJobPrio2, JobPrio, PostJobPrio1, PostJobPrio2, ClusterId, ProcId" {
	gen_slots n 6 >"$TMP/slots"
	{ gen_jobs a 5 1 'PostJobPrio2 = 1'; gen_jobs a 6 1 'PostJobPrio1 = 1'
	  gen_jobs a 7 1 'JobPrio = 1'; gen_jobs a 8 1 'PreJobPrio2 = 1'
	  gen_jobs a 9 1 'PreJobPrio1 = 1' 'JobPrio = -5'; gen_jobs a 4 2; } >"$TMP/jobs"
	run -0 matches --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$(printf '%s\n' "$output" | cut -f1 | paste -s -d ' ')" = "9.0 8.0 7.0 6.0 5.0 4.0" ]
	run -0 classad-eval -p Name "$TMP/records"
	[ "${lines[0]}" = "slot1@n001.example.org" ]
}

@test "job order: users' job priorities do not affect each other" {
	gen_slots n 2 >"$TMP/slots"
	{ gen_jobs alice 1 2 'JobPrio = 100'; gen_jobs bob 2 2 'JobPrio = -100'; } >"$TMP/jobs"
	neg --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	run count_by_submitter
	[ "$output" = $'alice@example.org 1\nbob@example.org 1' ]
}

@test "cluster skipping: after one job gets nothing, the rest of its cluster is skipped" {
	gen_slots n 1 >"$TMP/slots"
	gen_jobs alice 1 3 'RequestMemory = 999999' >"$TMP/jobs"
	run -1 --separate-stderr neg --slots "$TMP/slots" --jobs "$TMP/jobs" --explain 1.2 --summary
	[[ $stderr == *"skipped: job 1.0 of the same cluster (ClusterId) got nothing (no slot matches)"* ]]
	[[ $stderr == *"3 no slot matches"* ]]
	[[ $stderr == *"autocluster: 3 idle jobs alike; 0 slots match both Requirements"* ]]
}

# ---- 3.4.5 / RANK: preemption on the quartet's machines ----

@test "seed 001 RANK: Elvin Jones's job preempts the outsider on bass (RANK 1 > 0)" {
	run -0 matches --slots "$D/quartet-slots.ads" --jobs "$D/quartet-jones.ads"
	[ "$output" = $'20.0\tslot1@bass.example.org\tRank\tjones@example.org\t7.0' ]
	run -0 classad-eval -p PreemptedUser -p SlotRank -p JobRank -p RemoteUserPrio "$TMP/records"
	[ "$output" = $'miles@example.org\t1.0\t0.0\t0.5' ]
}

@test "seed 001 RANK: then Jimmy Garrison's job preempts Elvin Jones's (10 > 1) (golden)" {
	run -0 neg --slots "$D/quartet-slots-jones.ads" --jobs "$D/quartet-garrison.ads"
	check_golden negotiate/quartet-garrison
	run -0 matches --slots "$D/quartet-slots-jones.ads" --jobs "$D/quartet-garrison.ads"
	[ "$output" = $'30.0\tslot1@bass.example.org\tRank\tgarrison@example.org\t20.0' ]
}

@test "seed 001 RANK: a job the machine ranks no higher does not preempt (tyner on bass)" {
	sed 's/jones/tyner/g; s/ClusterId = 20/ClusterId = 21/' "$D/quartet-jones.ads" >"$TMP/tyner.ads"
	run -1 --separate-stderr neg --slots "$D/quartet-slots-jones.ads" --jobs "$TMP/tyner.ads" \
	    --explain 21.0
	[[ $stderr == *"slot1@bass.example.org: skipped: running user's effective priority is not worse"* ]]
	[[ $stderr == *"result: job 21.0 left idle: preemption not allowed"* ]]
}

@test "RANK preemption needs no PREEMPTION_REQUIREMENTS and ignores a bad user priority" {
	accounting jones@example.org=500.0 >"$TMP/acct"
	run -0 matches --accounting "$TMP/acct" --slots "$D/quartet-slots.ads" \
	    --jobs "$D/quartet-jones.ads"
	[ "$output" = $'20.0\tslot1@bass.example.org\tRank\tjones@example.org\t7.0' ]
}

@test "NEGOTIATOR_CONSIDER_PREEMPTION = False leaves claimed slots alone" {
	printf 'NEGOTIATOR_CONSIDER_PREEMPTION = False\n' >"$TMP/config"
	run -1 --separate-stderr neg -c "$TMP/config" --slots "$D/quartet-slots.ads" \
	    --jobs "$D/quartet-jones.ads" --explain 20.0 --summary
	[ -z "$output" ]
	[[ $stderr == *"slot1@bass.example.org: skipped: NEGOTIATOR_CONSIDER_PREEMPTION is false"* ]]
	[[ $stderr == *"1 preemption not allowed"* ]]
}

@test "a running job that travels with its slot (Job = [...]) gives user, id and CurrentRank" {
	awk '/^Name = "slot1@bass/ { bass = 1 } bass && /^(CurrentRank|RemoteUser|RemoteOwner|JobId) =/ { next }
	    { print } /^$/ { bass = 0 }' "$D/quartet-slots.ads" |
	    sed '/^Name = "slot1@bass/a Job = [ ClusterId = 7; ProcId = 3; Owner = "jones"; User = "jones@example.org" ]' \
	    >"$TMP/slots"
	grep -q 'Job = \[' "$TMP/slots"
	# the slot's RANK of the running jones job is 1: garrison's 10 beats it
	run -0 matches --slots "$TMP/slots" --jobs "$D/quartet-garrison.ads"
	[ "$output" = $'30.0\tslot1@bass.example.org\tRank\tgarrison@example.org\t7.3' ]
	run -0 classad-eval -p PreemptedUser "$TMP/records"
	[ "$output" = "jones@example.org" ]
	# and jones's second job does not beat its own first one
	sed 's/ClusterId = 20/ClusterId = 22/' "$D/quartet-jones.ads" >"$TMP/jones2"
	run -1 neg --slots "$TMP/slots" --jobs "$TMP/jones2"
}

@test "slots claimed but idle, preempting, matched or drained are skipped" {
	gen_slots c 1 'State = "Claimed"' 'Activity = "Idle"' 'RemoteUser = "x@example.org"' >"$TMP/slots"
	gen_slots p 1 'State = "Preempting"' 'Activity = "Vacating"' >>"$TMP/slots"
	gen_slots m 1 'State = "Matched"' >>"$TMP/slots"
	gen_slots d 1 'State = "Drained"' 'Activity = "Retiring"' >>"$TMP/slots"
	gen_jobs alice 1 1 >"$TMP/jobs"
	run -1 --separate-stderr neg --slots "$TMP/slots" --jobs "$TMP/jobs" --explain 1.0
	[[ $stderr == *"slot1@c001.example.org: skipped: slot claimed but idle"* ]]
	[[ $stderr == *"slot1@p001.example.org: skipped: slot is being preempted"* ]]
	[[ $stderr == *"slot1@m001.example.org: skipped: slot is matched to another job already"* ]]
	[[ $stderr == *"slot1@d001.example.org: skipped: slot is drained"* ]]
	gen_slots o 1 'State = "Owner"' >>"$TMP/slots"
	run -0 matches --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = $'1.0\tslot1@o001.example.org\tNoPreemption\talice@example.org' ]
}

@test "a running job with retirement time left is not preempted (unless early preemption)" {
	sed 's/^JobId = "7.0"$/JobId = "7.0"\nRetirementTimeRemaining = 300/' \
	    "$D/quartet-slots.ads" >"$TMP/slots"
	run -1 --separate-stderr neg --slots "$TMP/slots" --jobs "$D/quartet-jones.ads" --explain 20.0
	[[ $stderr == *"slot1@bass.example.org: skipped: running job has retirement time left"* ]]
	printf 'NEGOTIATOR_CONSIDER_EARLY_PREEMPTION = True\n' >"$TMP/config"
	run -0 matches -c "$TMP/config" --slots "$TMP/slots" --jobs "$D/quartet-jones.ads"
	[ "$output" = $'20.0\tslot1@bass.example.org\tRank\tjones@example.org\t7.0' ]
}

# ---- 3.4.3 / 3.4.6: priority preemption ----

@test "seed 002 3.4.3: PREEMPTION_REQUIREMENTS defaults to False: no priority preemption" {
	run -1 --separate-stderr neg --accounting "$D/prio-accounting.ads" \
	    --slots "$D/prio-slots.ads" --jobs "$D/prio-jobs.ads" --summary
	[ -z "$output" ]
	[[ $stderr == *"2 idle jobs from 2 submitters"* ]]
	[[ $(grep -c '1 preemption not allowed' <<<"$stderr") -eq 2 ]]
}

@test "seed 002 3.4.6: the 20% rule: alice (8) preempts, carol (9) not bob (10) (golden)" {
	run -0 matches -c "$D/prio20.config" --accounting "$D/prio-accounting.ads" \
	    --slots "$D/prio-slots.ads" --jobs "$D/prio-jobs.ads"
	# PREEMPTION_RANK prefers the worst user, dave (20), for alice: 20 > 8 x 1.2;
	# carol is left bob's slot: 10 > 9 x 1.2 is false
	[ "$output" = $'40.0\tslot1@node2.example.org\tPriority\talice@example.org\t6.0' ]
	run -0 --separate-stderr neg -c "$D/prio20.config" --accounting "$D/prio-accounting.ads" \
	    --slots "$D/prio-slots.ads" --jobs "$D/prio-jobs.ads" --explain 41.0
	output=$stderr
	check_golden negotiate/prio20-explain-41.0
}

@test "seed 002 3.4.6: 20% rule with bob alone: EUP 8 preempts 10, EUP 9 does not" {
	awk 'BEGIN { RS = ""; ORS = "\n\n" } /node1/' "$D/prio-slots.ads" >"$TMP/bob.ads"
	awk 'BEGIN { RS = ""; ORS = "\n\n" } /alice/' "$D/prio-jobs.ads" >"$TMP/alice.ads"
	awk 'BEGIN { RS = ""; ORS = "\n\n" } /carol/' "$D/prio-jobs.ads" >"$TMP/carol.ads"
	run -0 matches -c "$D/prio20.config" --accounting "$D/prio-accounting.ads" \
	    --slots "$TMP/bob.ads" --jobs "$TMP/alice.ads"
	[ "$output" = $'40.0\tslot1@node1.example.org\tPriority\talice@example.org\t5.0' ]
	run -0 classad-eval -p PreemptedUser -p RemoteUserPrio "$TMP/records"
	[ "$output" = $'bob@example.org\t8.0' ]
	run -1 --separate-stderr neg -c "$D/prio20.config" --accounting "$D/prio-accounting.ads" \
	    --slots "$TMP/bob.ads" --jobs "$TMP/carol.ads" --explain 41.0
	[[ $stderr == *"slot1@node1.example.org: skipped: PREEMPTION_REQUIREMENTS false (running bob@example.org)"* ]]
}

@test "priority preemption also needs a better effective priority and a RANK not worse" {
	printf 'PREEMPTION_REQUIREMENTS = True\n' >"$TMP/config"
	accounting alice@example.org=30.0 bob@example.org=10.0 dave@example.org=20.0 >"$TMP/acct"
	run -0 matches -c "$TMP/config" --accounting "$TMP/acct" \
	    --slots "$D/prio-slots.ads" --jobs "$D/prio-jobs.ads"
	# alice (30) is worse than both; carol (new: 0.5) takes dave's, the worst
	[ "$output" = $'41.0\tslot1@node2.example.org\tPriority\tcarol@example.org\t6.0' ]
	sed 's/^Rank = 0.0$/Rank = (TARGET.Owner == "carol") * -1/' "$D/prio-slots.ads" >"$TMP/slots"
	run -1 --separate-stderr neg -c "$TMP/config" --accounting "$TMP/acct" \
	    --slots "$TMP/slots" --jobs "$D/prio-jobs.ads" --explain 41.0
	[[ $stderr == *"skipped: RANK worse than the running job's (RANK -1.0, CurrentRank 0.0)"* ]]
}

@test "the ephemeral attributes: Submitter*/Remote* are defined for PREEMPTION_REQUIREMENTS" {
	cat >"$TMP/config" <<-'EOF'
	PREEMPTION_REQUIREMENTS = SubmitterUserResourcesInUse == 0 && RemoteUserResourcesInUse == 1 \
	    && TARGET.SubmitterUserPrio == 8.0 && MY.RemoteUserPrio == 10.0 \
	    && SubmitterNegotiatingGroup == "<none>"
	EOF
	awk 'BEGIN { RS = ""; ORS = "\n\n" } /node1/' "$D/prio-slots.ads" >"$TMP/bob.ads"
	awk 'BEGIN { RS = ""; ORS = "\n\n" } /alice/' "$D/prio-jobs.ads" >"$TMP/alice.ads"
	run -0 matches -c "$TMP/config" --accounting "$D/prio-accounting.ads" \
	    --slots "$TMP/bob.ads" --jobs "$TMP/alice.ads"
	[ "$output" = $'40.0\tslot1@node1.example.org\tPriority\talice@example.org\t5.0' ]
	# and they are not left in the job ad of the record
	run -0 classad-eval -p 'isUndefined(Job.SubmitterUserPrio) && isUndefined(Job.SubmitterNegotiatingGroup)' "$TMP/records"
	[ "$output" = "true" ]
}

@test "PREEMPTION_RANK and NEGOTIATOR_PRE_JOB_RANK from the configuration order candidates" {
	printf 'PREEMPTION_REQUIREMENTS = True\nPREEMPTION_RANK = -RemoteUserPrio\n' >"$TMP/config"
	run -0 matches -c "$TMP/config" --accounting "$D/prio-accounting.ads" \
	    --slots "$D/prio-slots.ads" --jobs "$D/prio-jobs.ads"
	# now the better of the two running users (bob) is preempted first
	[ "${lines[0]}" = $'40.0\tslot1@node1.example.org\tPriority\talice@example.org\t5.0' ]
	gen_slots n 3 >"$TMP/slots"
	gen_jobs alice 1 1 'Rank = TARGET.Name == "slot1@n002.example.org"' >"$TMP/jobs"
	run -0 matches --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = $'1.0\tslot1@n002.example.org\tNoPreemption\talice@example.org' ]
	printf 'NEGOTIATOR_PRE_JOB_RANK = Name == "slot1@n003.example.org"\n' >"$TMP/config"
	run -0 matches -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = $'1.0\tslot1@n003.example.org\tNoPreemption\talice@example.org' ]
	printf 'NEGOTIATOR_POST_JOB_RANK = Name == "slot1@n001.example.org"\n' >"$TMP/config"
	gen_jobs alice 1 1 >"$TMP/jobs"
	run -0 matches -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = $'1.0\tslot1@n001.example.org\tNoPreemption\talice@example.org' ]
}

@test "an idle slot beats preemption (NoPreemption before Rank before Priority)" {
	cat "$D/quartet-slots.ads" >"$TMP/slots"
	gen_slots free 1 'Rank = (Owner == "jones")' >>"$TMP/slots"
	run -0 matches --slots "$TMP/slots" --jobs "$D/quartet-jones.ads"
	[ "$output" = $'20.0\tslot1@free001.example.org\tNoPreemption\tjones@example.org' ]
}

# ---- nice users ----

@test "seed 002 3.4.2: nice users only get what nobody else wants" {
	gen_slots n 3 >"$TMP/slots"
	{ gen_jobs alice 1 2; gen_jobs bob 2 5 'NiceUser = true'; } >"$TMP/jobs"
	neg --slots "$TMP/slots" --jobs "$TMP/jobs" --summary="$TMP/summary" >"$TMP/records"
	run count_by_submitter
	[ "$output" = $'alice@example.org 2\nnice-user.bob@example.org 1' ]
	grep -q '^nice-user.bob@example.org  5000000.00 ' "$TMP/summary"
	{ gen_jobs alice 1 5; gen_jobs bob 2 5 'AccountingGroup = "nice-user.bob"'; } >"$TMP/jobs"
	neg --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	run count_by_submitter
	[ "$output" = "alice@example.org 3" ]
}

@test "a nice user does not preempt others by priority" {
	printf 'PREEMPTION_REQUIREMENTS = True\n' >"$TMP/config"
	awk 'BEGIN { RS = ""; ORS = "\n\n" } /node1/' "$D/prio-slots.ads" >"$TMP/bob.ads"
	gen_jobs carl 3 1 'NiceUser = true' >"$TMP/jobs"
	run -1 --separate-stderr neg -c "$TMP/config" --accounting "$D/prio-accounting.ads" \
	    --slots "$TMP/bob.ads" --jobs "$TMP/jobs" --summary
	[[ $stderr == *"1 preemption not allowed"* ]]
}

# ---- 3.4.8: hierarchical group quotas ----

@test "seed 002 3.4.8 static: 100/20/70 leaves 10 to group_physics; 100/40/80 scales to 33 and 66" {
	gen_slots n 250 >"$TMP/slots"
	gen_jobs alice 1 1 >"$TMP/jobs"
	neg -c "$D/quota-static.config" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    --summary="$TMP/summary" >/dev/null
	run sed -n '/^Group/,$p' "$TMP/summary"
	check_golden negotiate/quota-static
	row() { awk -v g="$1" '$1 == g { print $2, $3 }' "$TMP/summary"; }
	[ "$(row group_physics)" = "100 10" ]
	[ "$(row group_physics.experiment1)" = "20 20" ]
	[ "$(row group_physics.experiment2)" = "70 70" ]
	[ "$(row group_chemistry)" = "100 1" ]
	[ "$(row group_chemistry.lab1)" = "33 33" ]
	[ "$(row group_chemistry.lab2)" = "66 66" ]
	[ "$(row '<none>')" = "250 50" ]
}

# econ_jobs GROUP: 100 jobs each of a user in each project, of one in the
# group itself and of alice (no group), in $TMP/jobs
quota_jobs() {
	local g=$1
	{ gen_jobs u1 1 100 "AccountingGroup = \"$g.project1.u1\""
	  gen_jobs u2 2 100 "AccountingGroup = \"$g.project2.u2\""
	  gen_jobs u3 3 100 "AccountingGroup = \"$g.project3.u3\""
	  gen_jobs u4 4 100 "AccountingGroup = \"$g.u4\""
	  gen_jobs alice 5 100; } >"$TMP/jobs"
}

@test "seed 002 3.4.8 dynamic: econ .6 with .2/.15/.2 of 100 slots gives 12, 9, 12 and 27" {
	untraced gen_slots n 100 >"$TMP/slots"
	untraced quota_jobs group_econ
	neg -c "$D/quota-econ.config" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    --summary="$TMP/summary" >"$TMP/records"
	run count_by_submitter
	[ "$output" = $'alice@example.org 40\ngroup_econ.project1.u1@example.org 12\ngroup_econ.project2.u2@example.org 9\ngroup_econ.project3.u3@example.org 12\ngroup_econ.u4@example.org 27' ]
	run cat "$TMP/summary"
	check_golden negotiate/quota-econ
	run -0 --separate-stderr neg -c "$D/quota-econ.config" --slots "$TMP/slots" \
	    --jobs "$TMP/jobs" --explain 2.50
	[[ $stderr == *"group group_econ.project2: quota 9, allocation 9, 0 in use"* ]]
	[[ $stderr == *"job 2.50 skipped: job 2.9 of the same cluster (ClusterId) got nothing (quota reached)"* ]]
}

@test "seed 002 3.4.8 dynamic: stat .5 with .4/.3/.4 gives 18, 13, 18 and one to the parent" {
	untraced gen_slots n 100 >"$TMP/slots"
	untraced quota_jobs group_stat
	neg -c "$D/quota-stat.config" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    --summary="$TMP/summary" >"$TMP/records"
	run count_by_submitter
	[ "$output" = $'alice@example.org 50\ngroup_stat.project1.u1@example.org 18\ngroup_stat.project2.u2@example.org 13\ngroup_stat.project3.u3@example.org 18\ngroup_stat.u4@example.org 1' ]
	grep -q '^group_stat.u4@example.org .* 99 quota reached$' "$TMP/summary"
}

@test "seed 002 3.4.8: group names are case-insensitive; group.subgroup.user naming" {
	untraced gen_slots n 100 >"$TMP/slots"
	{ gen_jobs u1 1 100 'AccountingGroup = "GROUP_ECON.Project1.u1"'
	  gen_jobs u2 2 100 'AccountingGroup = "group_econ.nosuch.u2"'
	  gen_jobs u3 3 100 'AccountingGroup = "group_econ"'; } >"$TMP/jobs"
	neg -c "$D/quota-econ.config" --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	run count_by_submitter
	# project1 by any case: 12; "group_econ.nosuch.u2" is group_econ's (27);
	# "group_econ" has no '.': no group, the root's 40 and the 21 that the
	# idle project2 and project3 leave (the root always accepts surplus)
	[ "$output" = $'GROUP_ECON.Project1.u1@example.org 12\ngroup_econ.nosuch.u2@example.org 27\ngroup_econ@example.org 61' ]
}

@test "GROUP_ACCEPT_SURPLUS: a group may use what another leaves" {
	untraced gen_slots n 100 >"$TMP/slots"
	{ gen_jobs u2 2 100 'AccountingGroup = "group_econ.project2.u2"'; } >"$TMP/jobs"
	neg -c "$D/quota-econ.config" --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	run count_by_submitter
	[ "$output" = "group_econ.project2.u2@example.org 9" ]
	cp "$D/quota-econ.config" "$TMP/config"
	printf 'GROUP_ACCEPT_SURPLUS_group_econ.project2 = True\n' >>"$TMP/config"
	neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	run count_by_submitter
	# project2's parent does not accept surplus, so project2 gets what its
	# own subtree leaves: 9 + 12 + 12 + 27
	[ "$output" = "group_econ.project2.u2@example.org 60" ]
	printf 'GROUP_ACCEPT_SURPLUS = True\n' >>"$TMP/config"
	neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	run count_by_submitter
	[ "$output" = "group_econ.project2.u2@example.org 100" ]
}

@test "group quotas: a group whose parent is not defined is ignored with a warning" {
	gen_slots n 2 >"$TMP/slots"
	gen_jobs alice 1 1 >"$TMP/jobs"
	printf 'GROUP_QUOTA_a.b = 3\n' >"$TMP/config"
	run -0 --separate-stderr neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$stderr" = "negotiate: $TMP/config:1: group a.b ignored: its parent group is not defined" ]
}

# ---- partitionable slots ----

@test "seed 001: a partitionable slot takes one job per cycle without a consumption policy" {
	run -0 matches --slots "$D/pslot-slots.ads" --jobs "$D/pslot-jobs.ads"
	[ "$output" = $'50.0\tslot1@big.example.org\tNoPreemption\talice@example.org' ]
}

@test "seed 001: with the consumption policy the p-slot takes 4 jobs of 2 cores (golden)" {
	run -0 neg -c "$D/consumption.config" --slots "$D/pslot-slots.ads" --jobs "$D/pslot-jobs.ads"
	check_golden negotiate/consumption-records
	run -0 classad-eval -p JobId -p Name -p ConsumedCpus -p ConsumedMemory <<<"$output"
	[ "$output" = $'50.0\tslot1@big.example.org\t2\t2048\n50.1\tslot1@big.example.org\t2\t2048\n50.2\tslot1@big.example.org\t2\t2048\n50.3\tslot1@big.example.org\t2\t2048' ]
}

@test "consumption policy: CONSUMPTION_POLICY for every p-slot, CONSUMPTION_CPUS, or the slot's own" {
	printf 'CONSUMPTION_POLICY = True\nCONSUMPTION_CPUS = 4\n' >"$TMP/config"
	run -0 matches -c "$TMP/config" --slots "$D/pslot-slots.ads" --jobs "$D/pslot-jobs.ads"
	[ "${#lines[@]}" -eq 2 ]
	sed 's/^CurrentRank = 0.0$/CurrentRank = 0.0\nConsumptionCpus = 1\nConsumptionMemory = 1024/' \
	    "$D/pslot-slots.ads" >"$TMP/slots"
	run -0 matches --slots "$TMP/slots" --jobs "$D/pslot-jobs.ads"
	[ "${#lines[@]}" -eq 5 ]
}

@test "a negative request matches no partitionable slot, and gives nothing back" {
	# RequestCpus = -1 would pass TARGET.RequestCpus <= MY.Cpus of any p-slot
	sed -e 's/^ClusterId = 50$/ClusterId = 70/' -e 's/^RequestCpus = .*/RequestCpus = -1\nJobPrio = 10/' \
	    "$D/pslot-jobs.ads" >"$TMP/neg"
	grep -q '^RequestCpus = -1$' "$TMP/neg"
	run -1 neg --slots "$D/pslot-slots.ads" --jobs "$TMP/neg"
	[ -z "$output" ]
	# nor with a consumption policy that consumes a fixed amount
	sed 's/^CurrentRank = 0.0$/CurrentRank = 0.0\nConsumptionCpus = 1\nConsumptionMemory = 1024/' \
	    "$D/pslot-slots.ads" >"$TMP/cp"
	run -1 neg --slots "$TMP/cp" --jobs "$TMP/neg"
	[ -z "$output" ]
	# nor a full p-slot (it has 0 cores left), a negative RequestMemory or
	# a custom resource, nor by preempting its dynamic slots
	for a in RequestMemory RequestGPUs; do
		sed -e 's/^RequestCpus = .*/RequestCpus = 0/' -e 's/^RequestMemory = .*/RequestMemory = 0/' \
		    -e "s/^Rank = 0.0$/&\\n$a = -2/" "$D/pslot-bigjob.ads" >"$TMP/neg2"
		grep -q "^$a = -2\$" "$TMP/neg2"
		run -1 neg --slots "$D/pslot-busy.ads" --jobs "$TMP/neg2"
		[ -z "$output" ]
		run -1 --separate-stderr neg -c "$D/pslot-preempt.config" --accounting \
		    "$D/prio-accounting.ads" --slots "$D/pslot-busy.ads" --jobs "$TMP/neg2" --explain 60.0
		[[ $stderr == *"slot1@pp.example.org: skipped: partitionable slot, and the job asks for a negative amount ($a is negative)"* ]]
	done
	# the jobs alike but for the sign are told apart: those first in line
	# get nothing, the others still match
	cat "$D/pslot-jobs.ads" "$TMP/neg" >"$TMP/both"
	run -0 --separate-stderr neg --slots "$D/pslot-slots.ads" --jobs "$TMP/both" --summary
	[ "$(grep -c '^Event = "Match"' <<<"$output")" = 1 ]
	[[ $output == *'JobId = "50.0"'* && $output != *'JobId = "70'* ]]
	# a static slot is matched whole: the request carves nothing there
	gen_slots s 1 >"$TMP/static"
	run -0 neg --slots "$TMP/static" --jobs "$TMP/neg"
}

@test "ALLOW_PSLOT_PREEMPTION: a big job preempts dynamic slots of a full p-slot (golden)" {
	run -1 neg -c "$D/prio20.config" --accounting "$D/prio-accounting.ads" \
	    --slots "$D/pslot-busy.ads" --jobs "$D/pslot-bigjob.ads"
	[ -z "$output" ]
	run -0 neg -c "$D/pslot-preempt.config" --accounting "$D/prio-accounting.ads" \
	    --slots "$D/pslot-busy.ads" --jobs "$D/pslot-bigjob.ads"
	check_golden negotiate/pslot-preempt
	run -0 classad-eval -p Name -p MatchReason -p PreemptedSlots <<<"$output"
	[ "$output" = $'slot1@pp.example.org\tPriority\t{ "slot1_1@pp.example.org","slot1_2@pp.example.org" }' ]
}

@test "ALLOW_PSLOT_PREEMPTION: dynamic slots are not preempted one by one" {
	cat >"$TMP/job" <<-'EOF'
	ClusterId = 61
	ProcId = 0
	User = "alice@example.org"
	RequestCpus = 1
	RequestMemory = 1000
	Requirements = TARGET.Memory >= RequestMemory
	EOF
	run -0 matches -c "$D/prio20.config" --accounting "$D/prio-accounting.ads" \
	    --slots "$D/pslot-busy.ads" --jobs "$TMP/job"
	[ "$output" = $'61.0\tslot1_1@pp.example.org\tPriority\talice@example.org\t8.1' ]
	cat "$D/pslot-preempt.config" >"$TMP/config"
	run -0 --separate-stderr neg -c "$TMP/config" --accounting "$D/prio-accounting.ads" \
	    --slots "$D/pslot-busy.ads" --jobs "$TMP/job" --explain 61.0
	[[ $stderr == *"slot1_1@pp.example.org: skipped: dynamic slot: preempted only through its partitionable slot"* ]]
	[[ $stderr == *"-> matched to slot1@pp.example.org"* ]]
}

@test "SLOT_WEIGHT: the pool and the slices are weighted (Cpus by default)" {
	gen_slots big 2 'Cpus = 8' >"$TMP/slots"
	gen_slots small 8 >>"$TMP/slots"
	{ gen_jobs alice 1 20; gen_jobs bob 2 20; } >"$TMP/jobs"
	run -0 --separate-stderr neg --slots "$TMP/slots" --jobs "$TMP/jobs" --summary
	[[ $stderr == *"10 slots (pool weight 24)"* ]]
	[[ $stderr == *"alice@example.org        0.50     12.00 "* ]]
	printf 'SLOT_WEIGHT = 1\n' >"$TMP/config"
	run -0 --separate-stderr neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" --summary
	[[ $stderr == *"10 slots (pool weight 10)"* ]]
	[[ $stderr == *"alice@example.org        0.50      5.00 "* ]]
}

@test "usage: the slots a user already runs count against its slice" {
	gen_slots busy 4 'State = "Claimed"' 'Activity = "Busy"' 'RemoteUser = "alice@example.org"' \
	    'CurrentRank = 1.0' >"$TMP/slots"
	gen_slots n 4 >>"$TMP/slots"
	{ gen_jobs alice 1 10; gen_jobs bob 2 10; } >"$TMP/jobs"
	neg --slots "$TMP/slots" --jobs "$TMP/jobs" --summary="$TMP/summary" >"$TMP/records"
	run count_by_submitter
	# the pool is 8; each is owed 4; alice already has 4
	[ "$output" = "bob@example.org 4" ]
	grep -q '^alice@example.org .* 4 .* 0 .* 10 pie slice used up$' "$TMP/summary"
}

# ---- concurrency limits ----

@test "concurrency limits: XSW_LIMIT = 3 lets three of six XSW jobs run, as the manual's example" {
	gen_slots n 10 >"$TMP/slots"
	{ gen_jobs alice 1 6 'ConcurrencyLimits = "XSW"'; gen_jobs bob 2 2; } >"$TMP/jobs"
	run -0 --separate-stderr matches --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "${#lines[@]}" -eq 8 ]
	printf 'XSW_LIMIT = 3\n' >"$TMP/config"
	run shares -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" --summary="$TMP/summary"
	[ "$output" = $'alice@example.org 3\nbob@example.org 2' ]
	grep -q '^alice@example.org .* 3 *3  3 concurrency limit reached$' "$TMP/summary"
	run tail -2 "$TMP/summary"
	[ "$output" = $'Concurrency limit      InUse  Matched     Max  Refused\nConcurrencyLimit_xsw       0        3       3        3' ]
	# the match records say what each match holds
	run classad-eval -p MatchedConcurrencyLimits "$TMP/records"
	[ "$output" = $'xsw\nxsw\nxsw\nundefined\nundefined' ]
	# --explain names the limit that stopped a job (a decision of the cycle)
	run -0 --separate-stderr neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    --explain 1.3
	[[ $stderr == *"  concurrency limits: xsw"* ]]
	[[ $stderr == *"  -> nothing this spin: concurrency limit xsw reached (ConcurrencyLimit_xsw 3 of 3; it asks 1)"* ]]
	[[ $stderr == *"result: job 1.3 left idle: concurrency limit reached"* ]]
}

@test "concurrency limits: names ignore case, NAME:N takes N units, several per job" {
	gen_slots n 10 >"$TMP/slots"
	{ gen_jobs alice 1 3 'ConcurrencyLimits = "Db:2, license"'
	  gen_jobs bob 2 3 'ConcurrencyLimits = "LICENSE"'; } >"$TMP/jobs"
	printf 'DB_LIMIT = 5\nlicense_LIMIT = 4\n' >"$TMP/config"
	neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" --summary="$TMP/summary" \
	    >"$TMP/records"
	# alice: db 2 + 2 (a third would make 6 > 5); the licences: 2 hers, 2 bob's
	run count_by_submitter
	[ "$output" = $'alice@example.org 2\nbob@example.org 2' ]
	grep -q '^ConcurrencyLimit_db  *0  *4  *5  *1$' "$TMP/summary"
	grep -q '^ConcurrencyLimit_license  *0  *4  *4  *1$' "$TMP/summary"
}

@test "concurrency limits: dotted names, CONCURRENCY_LIMIT_DEFAULT and CONCURRENCY_LIMIT_DEFAULT_<SCOPE>" {
	gen_slots n 20 >"$TMP/slots"
	{ gen_jobs a 1 5 'ConcurrencyLimits = "large.swlicense"'
	  gen_jobs b 2 5 'ConcurrencyLimits = "large.dbsession"'
	  gen_jobs c 3 5 'ConcurrencyLimits = "other.license"'
	  gen_jobs d 4 5 'ConcurrencyLimits = "small.x"'; } >"$TMP/jobs"
	printf 'CONCURRENCY_LIMIT_DEFAULT = 1\nCONCURRENCY_LIMIT_DEFAULT_LARGE = 3\nSMALL.X_LIMIT = 2\n' \
	    >"$TMP/config"
	run knob_shares
	[ "$output" = $'a@example.org 3\nb@example.org 3\nc@example.org 1\nd@example.org 2' ]
	# the default default is HTCondor's 2308032
	neg --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	[ "$(grep -c '^Event' "$TMP/records")" = 20 ]
}

@test "concurrency limits: the use is counted from the claimed slots' jobs" {
	gen_slots busy 2 'State = "Claimed"' 'Activity = "Busy"' 'RemoteUser = "carol@example.org"' \
	    'Job = [ ClusterId = 9; ProcId = 0; ConcurrencyLimits = "xsw" ]' >"$TMP/slots"
	gen_slots owner 1 'State = "Claimed"' 'Activity = "Busy"' 'RemoteUser = "dave@example.org"' \
	    'ConcurrencyLimits = "XSW"' >>"$TMP/slots"
	gen_slots idle 1 'State = "Unclaimed"' 'Job = [ ConcurrencyLimits = "xsw" ]' >>"$TMP/slots"
	gen_slots n 5 >>"$TMP/slots"
	gen_jobs alice 1 4 'ConcurrencyLimits = "xsw"' >"$TMP/jobs"
	printf 'XSW_LIMIT = 4\n' >"$TMP/config"
	# three in use (the slots' own ConcurrencyLimits, else their running
	# job's; a stale Job on an unclaimed slot holds nothing): one more
	neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" --summary="$TMP/summary" \
	    >"$TMP/records"
	[ "$(grep -c '^Event' "$TMP/records")" = 1 ]
	grep -q '^ConcurrencyLimit_xsw  *3  *1  *4  *3$' "$TMP/summary"
}

@test "concurrency limits: an expression is evaluated against each slot (concurrency_limits_expr)" {
	gen_slots a 3 'NETWORK = "NETWORK_A"' >"$TMP/slots"
	gen_slots b 3 'NETWORK = "NETWORK_B"' >>"$TMP/slots"
	gen_jobs alice 1 6 'ConcurrencyLimits = TARGET.NETWORK' >"$TMP/jobs"
	printf 'NETWORK_A_LIMIT = 2\nNETWORK_B_LIMIT = 1\n' >"$TMP/config"
	neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	run classad-eval -p MatchedConcurrencyLimits "$TMP/records"
	[ "$output" = $'network_a\nnetwork_a\nnetwork_b' ]
	run -0 --separate-stderr neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    --explain 1.3
	[[ $stderr == *"concurrency limits: ConcurrencyLimits, evaluated with each slot"* ]]
	[[ $stderr == *"slot1@b002.example.org: concurrency limit network_b reached (ConcurrencyLimit_network_b 1 of 1; it asks 1)"* ]]
}

# ---- ceilings and floors (condor_userprio -setceiling, -setfloor) ----

@test "ceiling: a submitter gets no more than its ceiling, whatever its share" {
	gen_slots n 10 >"$TMP/slots"
	{ gen_jobs alice 1 10; gen_jobs bob 2 10; } >"$TMP/jobs"
	userprio-calc --state "$TMP/acct" --now $T0 -setceiling alice@example.org 2 >/dev/null
	neg --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    --summary="$TMP/summary" >"$TMP/records"
	run count_by_submitter
	[ "$output" = $'alice@example.org 2\nbob@example.org 8' ]
	grep -q '^alice@example.org .* 8 ceiling reached$' "$TMP/summary"
	# the ceiling counts what the submitter already runs
	gen_slots busy 1 'State = "Claimed"' 'Activity = "Busy"' 'RemoteUser = "alice@example.org"' \
	    >>"$TMP/slots"
	run -0 --separate-stderr neg --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    --explain 1.1
	[[ $stderr == *"alice@example.org's ceiling 2 (1 in use)"* ]]
	[[ $stderr == *"its ceiling leaves 1"* ]]
	[[ $stderr == *"job 1.1 not reached: the submitter's ceiling is reached"* ]]
	# an accounting group is a submitter too
	gen_jobs g 3 10 'AccountingGroup = "group_cms"' >"$TMP/gjobs"
	userprio-calc --state "$TMP/acct" --now $T0 -setceiling group_cms@example.org 3 >/dev/null
	run -0 matches --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/gjobs"
	[ "${#lines[@]}" -eq 3 ]
}

@test "floor: a submitter below its floor gets up to it first" {
	gen_slots n 10 >"$TMP/slots"
	{ gen_jobs alice 1 10; gen_jobs bob 2 10; } >"$TMP/jobs"
	accounting alice@example.org=0.5 bob@example.org=5 >"$TMP/acct"
	run -0 matches --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs"
	run shares --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = $'alice@example.org 9\nbob@example.org 1' ]
	userprio-calc --state "$TMP/acct" --now $T0 -setfloor bob@example.org 6 >/dev/null
	run shares --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = $'alice@example.org 4\nbob@example.org 6' ]
	run -0 --separate-stderr neg --accounting "$TMP/acct" --slots "$TMP/slots" \
	    --jobs "$TMP/jobs" --explain 2.0
	[[ $stderr == *"floor round: submitters below their floor get up to it first (bob@example.org's floor is 6):"* ]]
}

@test "ceiling and floor leases (-duration) end at their time" {
	gen_slots n 10 >"$TMP/slots"
	{ gen_jobs alice 1 10; gen_jobs bob 2 10; } >"$TMP/jobs"
	userprio-calc --state "$TMP/acct" --now $T0 -duration 3600 \
	    -setceiling alice@example.org 1 >/dev/null
	run shares --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = $'alice@example.org 1\nbob@example.org 9' ]
	negotiate --now $((T0 + 3600)) --accounting "$TMP/acct" --slots "$TMP/slots" \
	    --jobs "$TMP/jobs" >"$TMP/records"
	run count_by_submitter
	[ "$output" = $'alice@example.org 5\nbob@example.org 5' ]
}

# ---- knobs of the loop ----

@test "job order: equal priorities go by QDate, the older submission first" {
	gen_slots n 1 >"$TMP/slots"
	{ gen_jobs alice 1 1 'QDate = 1700000500'; gen_jobs alice 2 1 'QDate = 1700000100'; } >"$TMP/jobs"
	run -0 matches --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = $'2.0\tslot1@n001.example.org\tNoPreemption\talice@example.org' ]
	# JobPrio still comes first
	{ gen_jobs alice 1 1 'QDate = 1700000500' 'JobPrio = 1'; gen_jobs alice 2 1 'QDate = 1700000100'; } >"$TMP/jobs"
	run -0 matches --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = $'1.0\tslot1@n001.example.org\tNoPreemption\talice@example.org' ]
}

@test "cluster skipping is by ClusterId; NEGOTIATE_ALL_JOBS_IN_CLUSTER and SIGNIFICANT_ATTRIBUTES" {
	gen_slots n 4 >"$TMP/slots"
	# 1.0 asks for too much: 1.1 is skipped with it; cluster 2, alike, is tried
	{ gen_jobs alice 1 1 'RequestMemory = 999999'; gen_jobs alice 1 1 'ProcId = 1'
	  gen_jobs alice 2 1; } >"$TMP/jobs"
	run -0 --separate-stderr matches --slots "$TMP/slots" --jobs "$TMP/jobs" --explain 1.1
	[ "$output" = $'2.0\tslot1@n001.example.org\tNoPreemption\talice@example.org' ]
	[[ $stderr == *"job 1.1 skipped: job 1.0 of the same cluster (ClusterId) got nothing (no slot matches)"* ]]
	printf 'NEGOTIATE_ALL_JOBS_IN_CLUSTER = True\n' >"$TMP/all"
	run -0 matches -c "$TMP/all" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "${#lines[@]}" -eq 2 ]
	# with SIGNIFICANT_ATTRIBUTES the jobs of equal values skip together
	printf 'SIGNIFICANT_ATTRIBUTES = Owner\n' >"$TMP/sig"
	run -1 --separate-stderr matches -c "$TMP/sig" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    --explain 2.0
	[[ $stderr == *"job 2.0 skipped: job 1.0 of the same cluster (its SIGNIFICANT_ATTRIBUTES are alike) got nothing"* ]]
}

@test "NEGOTIATOR_DEPTH_FIRST: the jobs a partitionable slot holds are left to the schedd" {
	printf '%s\n' 'Name = "slot1@big.example.org"' 'Machine = "big.example.org"' 'SlotID = 1' \
	    'State = "Unclaimed"' 'Activity = "Idle"' 'PartitionableSlot = true' 'Cpus = 4' \
	    'Memory = 16384' 'Disk = 1000000' 'Rank = 1.0' 'CurrentRank = 0.0' \
	    'Requirements = START' 'START = True' '' >"$TMP/slots"
	gen_slots n 2 >>"$TMP/slots"
	{ gen_jobs alice 1 3; gen_jobs bob 2 2; } >"$TMP/jobs"
	printf 'NEGOTIATOR_USE_SLOT_WEIGHTS = False\n' >"$TMP/config"
	run knob_shares
	[ "$output" = $'alice@example.org 2\nbob@example.org 1' ]
	printf 'NEGOTIATOR_DEPTH_FIRST = True\n' >>"$TMP/config"
	run shares -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" --summary="$TMP/summary"
	[ "$output" = $'alice@example.org 1\nbob@example.org 2' ]
	grep -q '^alice@example.org .* 2 left to the schedd (depth first)$' "$TMP/summary"
	run -0 --separate-stderr neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    --explain 1.2
	[[ $stderr == *"result: job 1.2 left to the schedd, to start in slot1@big.example.org with job 1.0"* ]]
}

@test "NEGOTIATOR_IGNORE_USER_PRIORITIES: no slices, the best priority takes all it can" {
	gen_slots n 10 >"$TMP/slots"
	{ gen_jobs alice 1 10; gen_jobs bob 2 10; } >"$TMP/jobs"
	accounting alice@example.org=5 bob@example.org=0.5 >"$TMP/acct"
	run shares --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = $'alice@example.org 1\nbob@example.org 9' ]
	printf 'NEGOTIATOR_IGNORE_USER_PRIORITIES = True\n' >"$TMP/config"
	run shares -c "$TMP/config" --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = "bob@example.org 10" ]
}

@test "NEGOTIATOR_SLOT_CONSTRAINT, NEGOTIATOR_JOB_CONSTRAINT and NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT" {
	gen_slots n 6 >"$TMP/slots"
	gen_slots gpu 4 'HasGPU = true' >>"$TMP/slots"
	{ gen_jobs alice 1 10; gen_jobs bob 2 10 'Secret = true'; } >"$TMP/jobs"
	printf 'NEGOTIATOR_SLOT_CONSTRAINT = HasGPU =!= true\n' >"$TMP/c1"
	run -0 --separate-stderr neg -c "$TMP/c1" --slots "$TMP/slots" --jobs "$TMP/jobs" --summary
	[[ $stderr == *"6 slots (pool weight 6)"* ]]
	printf 'NEGOTIATOR_JOB_CONSTRAINT = Secret =!= true\n' >"$TMP/c2"
	run shares -c "$TMP/c2" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = "alice@example.org 10" ]
	run -0 --separate-stderr neg -c "$TMP/c2" --slots "$TMP/slots" --jobs "$TMP/jobs" --explain 2.0
	[[ $stderr == "job 2.0: NEGOTIATOR_JOB_CONSTRAINT is false for it: the schedd does not offer it to the negotiator" ]]
	# the pie is made of the GPU slots only: 2 each, and no more spins
	printf 'NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT = HasGPU =?= true\n' >"$TMP/c3"
	run shares -c "$TMP/c3" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$output" = $'alice@example.org 2\nbob@example.org 2' ]
}

@test "PREEMPTION_REQUIREMENTS_STABLE = False: the usage a match adds counts for the next one" {
	gen_slots busy 4 'State = "Claimed"' 'Activity = "Busy"' 'RemoteUser = "bob@example.org"' \
	    >"$TMP/slots"
	gen_jobs alice 1 4 >"$TMP/jobs"
	accounting alice@example.org=0.5 bob@example.org=10 >"$TMP/acct"
	printf 'PREEMPTION_REQUIREMENTS = SubmitterUserResourcesInUse < 2\n' >"$TMP/config"
	# evaluated once, when the candidates are gathered: alice takes her
	# slice (3.8 of the 4 slots)
	run -0 matches -c "$TMP/config" --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "${#lines[@]}" -eq 3 ]
	printf 'PREEMPTION_REQUIREMENTS_STABLE = False\n' >>"$TMP/config"
	run -0 matches -c "$TMP/config" --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "${#lines[@]}" -eq 2 ]
}

@test "PREEMPTION_RANK_STABLE = False: candidates ranked by usage are ranked again" {
	gen_slots c 2 'State = "Claimed"' 'Activity = "Busy"' 'RemoteUser = "carol@example.org"' \
	    >"$TMP/slots"
	gen_slots b 3 'State = "Claimed"' 'Activity = "Busy"' 'RemoteUser = "bob@example.org"' \
	    >>"$TMP/slots"
	gen_jobs alice 1 2 >"$TMP/jobs"
	accounting alice@example.org=0.5 bob@example.org=10 carol@example.org=10 >"$TMP/acct"
	printf 'PREEMPTION_REQUIREMENTS = True\nPREEMPTION_RANK = RemoteUserResourcesInUse\n' \
	    >"$TMP/config"
	# bob, who uses three slots, loses two
	neg -c "$TMP/config" --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    >"$TMP/records"
	run classad-eval -p PreemptedUser "$TMP/records"
	[ "$output" = $'bob@example.org\nbob@example.org' ]
	# ranked again after the first: bob then uses two, as carol does
	printf 'PREEMPTION_RANK_STABLE = False\n' >>"$TMP/config"
	neg -c "$TMP/config" --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    >"$TMP/records"
	run classad-eval -p PreemptedUser "$TMP/records"
	[ "$output" = $'bob@example.org\ncarol@example.org' ]
}

@test "Slot<N>_RemoteUserPrio: a slot sees the users of its machine's other slots" {
	for i in 1 2; do
		u=$([[ $i == 1 ]] && echo bob || echo carol)
		printf 'Name = "slot%d@m.example.org"\nMachine = "m.example.org"\nSlotID = %d\n' $i $i
		printf 'TotalSlots = 2\nState = "Claimed"\nActivity = "Busy"\nRemoteUser = "%s@example.org"\n' $u
		printf 'Cpus = 1\nMemory = 4096\nRank = 0.0\nCurrentRank = 0.0\nRequirements = START\nSTART = True\n\n'
	done >"$TMP/slots"
	gen_jobs alice 1 1 >"$TMP/jobs"
	accounting alice@example.org=0.5 bob@example.org=20 carol@example.org=4 >"$TMP/acct"
	# preempt only on machines whose first slot runs a user worse than 10
	printf 'PREEMPTION_REQUIREMENTS = Slot1_RemoteUserPrio > 10\n' >"$TMP/config"
	run -0 matches -c "$TMP/config" --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "${#lines[@]}" -eq 1 ]
	printf 'PREEMPTION_REQUIREMENTS = Slot1_RemoteUserPrio > 30\n' >"$TMP/config"
	run -1 matches -c "$TMP/config" --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs"
	# HTCondor's knob turns them off
	printf 'PREEMPTION_REQUIREMENTS = Slot1_RemoteUserPrio > 10\nNEGOTIATOR_CROSS_SLOT_PRIOS = False\n' \
	    >"$TMP/config"
	run -1 matches -c "$TMP/config" --accounting "$TMP/acct" --slots "$TMP/slots" --jobs "$TMP/jobs"
}

# ---- group knobs ----

@test "GROUP_AUTOREGROUP: a group past its quota negotiates again for what is left" {
	gen_slots n 10 >"$TMP/slots"
	{ gen_jobs a 1 10 'AccountingGroup = "g1.a"'; gen_jobs u 2 3; } >"$TMP/jobs"
	printf 'GROUP_NAMES = g1\nGROUP_QUOTA_g1 = 2\n' >"$TMP/config"
	run knob_shares
	[ "$output" = $'g1.a@example.org 2\nu@example.org 3' ]
	for knob in GROUP_AUTOREGROUP GROUP_AUTOREGROUP_g1; do
		printf 'GROUP_NAMES = g1\nGROUP_QUOTA_g1 = 2\n%s = True\n' $knob >"$TMP/config"
		neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" --summary="$TMP/summary" \
		    >"$TMP/records"
		run count_by_submitter
		[ "$output" = $'g1.a@example.org 7\nu@example.org 3' ]
		grep -q '^g1  *2  *2  *10  *2  *7  regroup$' "$TMP/summary"
	done
	run -0 --separate-stderr neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs" \
	    --explain 1.4
	[[ $stderr == *"group <none> with GROUP_AUTOREGROUP: the autoregroup groups' submitters negotiate again, for what the groups leave"* ]]
}

@test "GROUP_SORT_EXPR: the order groups are negotiated in" {
	gen_slots n 2 >"$TMP/slots"
	{ gen_jobs a 1 2 'AccountingGroup = "g1.a"'; gen_jobs b 2 2 'AccountingGroup = "g2.b"'; } >"$TMP/jobs"
	printf 'GROUP_NAMES = g1, g2\nGROUP_QUOTA_g1 = 2\nGROUP_QUOTA_g2 = 2\n' >"$TMP/config"
	run knob_shares
	[ "$output" = "g1.a@example.org 2" ]
	printf 'GROUP_SORT_EXPR = ifThenElse(AccountingGroup == "g2", 0, 1)\n' >>"$TMP/config"
	run knob_shares
	[ "$output" = "g2.b@example.org 2" ]
}

@test "GROUP_QUOTA_ROUND_ROBIN_RATE: groups that want the same slots take turns" {
	gen_slots n 4 >"$TMP/slots"
	{ gen_jobs a 1 4 'AccountingGroup = "g1.a"'; gen_jobs b 2 4 'AccountingGroup = "g2.b"'; } >"$TMP/jobs"
	printf 'GROUP_NAMES = g1, g2\nGROUP_QUOTA_g1 = 4\nGROUP_QUOTA_g2 = 4\n' >"$TMP/config"
	run knob_shares
	[ "$output" = "g1.a@example.org 4" ]
	printf 'GROUP_QUOTA_ROUND_ROBIN_RATE = 1\n' >>"$TMP/config"
	run knob_shares
	[ "$output" = $'g1.a@example.org 2\ng2.b@example.org 2' ]
	printf 'GROUP_QUOTA_ROUND_ROBIN_RATE = 0.5\n' >"$TMP/bad"
	run -3 --separate-stderr neg -c "$TMP/bad" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[[ $stderr == *"GROUP_QUOTA_ROUND_ROBIN_RATE must be a number of at least 1"* ]]
}

@test "NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION: static subgroups keep their quotas" {
	untraced gen_slots n 120 >"$TMP/slots"
	untraced gen_jobs l2 1 100 'AccountingGroup = "group_chemistry.lab2.l2"' >"$TMP/jobs"
	printf 'GROUP_QUOTA_group_chemistry = 100\nGROUP_QUOTA_group_chemistry.lab1 = 40\nGROUP_QUOTA_group_chemistry.lab2 = 80\n' \
	    >"$TMP/config"
	run knob_shares
	[ "$output" = "group_chemistry.lab2.l2@example.org 66" ]
	printf 'NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION = True\n' >>"$TMP/config"
	run knob_shares
	[ "$output" = "group_chemistry.lab2.l2@example.org 80" ]
}

@test "NEGOTIATOR_USE_WEIGHTED_DEMAND: a group's demand in slot weights or in jobs" {
	gen_slots n 4 'Cpus = 2' >"$TMP/slots"
	{ gen_jobs a 1 2 'AccountingGroup = "a.u"' 'RequestCpus = 2'
	  gen_jobs b 2 8 'AccountingGroup = "b.u"'; } >"$TMP/jobs"
	printf '%s\n' 'GROUP_NAMES = a, b' 'GROUP_QUOTA_DYNAMIC_a = .5' 'GROUP_QUOTA_DYNAMIC_b = .5' \
	    'GROUP_ACCEPT_SURPLUS = True' >"$TMP/config"
	run knob_shares
	[ "$output" = $'a.u@example.org 2\nb.u@example.org 2' ]
	printf 'NEGOTIATOR_USE_WEIGHTED_DEMAND = False\n' >>"$TMP/config"
	run knob_shares
	[ "$output" = $'a.u@example.org 1\nb.u@example.org 3' ]
}

@test "GROUP_PRIO_FACTOR_<group>: a group's submitters start with its factor" {
	gen_slots n 11 >"$TMP/slots"
	{ gen_jobs a 1 11 'AccountingGroup = "g1.a"'; gen_jobs b 2 11; } >"$TMP/jobs"
	printf 'GROUP_NAMES = g1\nGROUP_QUOTA_g1 = 0\nGROUP_AUTOREGROUP_g1 = True\n' >"$TMP/config"
	run knob_shares
	[ "$output" = $'b@example.org 6\ng1.a@example.org 5' ]
	printf 'GROUP_PRIO_FACTOR_g1 = 10\n' >>"$TMP/config"
	run knob_shares
	[ "$output" = $'b@example.org 10\ng1.a@example.org 1' ]
}

@test "a job of the grid universe is negotiated as a vanilla job, with a warning once" {
	gen_slots n 2 >"$TMP/slots"
	gen_jobs alice 1 2 'JobUniverse = 9' >"$TMP/jobs"
	run -0 --separate-stderr neg --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$stderr" = "negotiate: $TMP/jobs:1: warning: JobUniverse = 9 is not simulated (the scheduler, grid, parallel and local universes: such a job is matched here as a vanilla job); later jobs with it are not reported" ]
	[ "$(printf '%s\n' "$output" | grep -c '^JobId')" -eq 2 ]
}

@test "the knobs simulated now are not reported as not simulated" {
	gen_slots n 1 >"$TMP/slots"
	gen_jobs alice 1 1 >"$TMP/jobs"
	printf '%s\n' 'XSW_LIMIT = 3' 'CONCURRENCY_LIMIT_DEFAULT = 5' 'GROUP_AUTOREGROUP = True' \
	    'GROUP_SORT_EXPR = 1' 'NEGOTIATOR_DEPTH_FIRST = True' 'PREEMPTION_RANK_STABLE = False' \
	    'USE_GLOBAL_JOB_PRIOS = True' >"$TMP/config"
	run -0 --separate-stderr neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$stderr" = "negotiate: warning: $TMP/config:7: USE_GLOBAL_JOB_PRIOS is not simulated (NEGOTIATOR: job priorities across submitters)" ]
}

# ---- partitionable slots: leftovers and custom resources ----

# pslot NAME CPUS [LINE...]: an unclaimed partitionable slot of CPUS cores
pslot() {
	local n=$1 c=$2
	shift 2
	printf 'Name = "slot1@%s"\nMachine = "%s"\nSlotID = 1\nSlotType = "Partitionable"\n' "$n" "$n"
	printf 'PartitionableSlot = true\nState = "Unclaimed"\nActivity = "Idle"\nCpus = %s\n' "$c"
	printf 'Memory = 16384\nDisk = 1000000\nRank = 0.0\nCurrentRank = 0.0\nSTART = True\n'
	printf 'Requirements = START && TARGET.RequestCpus <= MY.Cpus && TARGET.RequestMemory <= MY.Memory\n'
	if (($#)); then printf '%s\n' "$@"; fi
	printf '\n'
}

@test "CLAIM_PARTITIONABLE_LEFTOVERS: six 1-cpu jobs and 4 free cpus make 4 matches in one cycle" {
	pslot p4.example.org 4 >"$TMP/slots"
	gen_jobs alice 5 6 'RequestDisk = 1000' >"$TMP/jobs"
	gen_jobs bob 6 2 'RequestDisk = 1000' >>"$TMP/jobs"
	run -0 matches --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "${#lines[@]}" = 4 ]
	[[ $output == *$'5.3\tslot1@p4.example.org\tNoPreemption\talice@example.org'* ]]
	[[ $output != *5.4* && $output != *bob* ]]
	# the one that claimed it, then the schedd's: --explain tells them apart
	run -0 --separate-stderr neg --slots "$TMP/slots" --jobs "$TMP/jobs" --explain 5.2
	[[ $stderr == *"job 5.2 -> matched to the leftovers of partitionable slot slot1@p4.example.org: the schedd claimed it for job 5.0 and starts this job in what it leaves (CLAIM_PARTITIONABLE_LEFTOVERS)"* ]]
	# what is left is what the startd would carve: a 3-cpu job still fits
	# after a 1-cpu one, a 4-cpu job no longer
	gen_jobs carol 7 1 'RequestDisk = 1000' >"$TMP/jobs2"
	gen_jobs carol 8 1 'RequestDisk = 1000' 'RequestCpus = 4' | sed '/^RequestCpus = 1$/d' >>"$TMP/jobs2"
	gen_jobs carol 9 1 'RequestDisk = 1000' 'RequestCpus = 3' | sed '/^RequestCpus = 1$/d' >>"$TMP/jobs2"
	run -0 matches --slots "$TMP/slots" --jobs "$TMP/jobs2"
	[ "$(cut -f1 <<<"$output" | tr '\n' ' ')" = "7.0 9.0 " ]
	# off: one match per partitionable slot and cycle
	printf 'CLAIM_PARTITIONABLE_LEFTOVERS = False\n' >"$TMP/config"
	run -0 matches -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "${#lines[@]}" = 1 ]
	# the match records feed startd-step: four dynamic slots
	neg --slots "$TMP/slots" --jobs "$TMP/jobs" >"$TMP/records"
	printf 'Name = "p4.example.org"\nCpus = 4\nMemory = 16384\nDisk = 1000000\n' >"$TMP/p4.ad"
	startd-step --init --now $T0 "$TMP/p4.ad" | startd-step --now $((T0 + 1)) >"$TMP/p4.ads"
	run -0 startd-step --now $((T0 + 2)) -e "$TMP/records" "$TMP/p4.ads"
	[ "$(grep -c '^Name = "slot1_' <<<"$output")" = 4 ]
}

@test "custom resources: GPU requests match what is left, ConsumedGPUs in the records" {
	pslot g.example.org 8 'GPUs = 2' 'MachineResources = "Cpus Memory Disk Swap GPUs"' \
	    'AvailableGPUs = { GPUs_CUDA0, GPUs_CUDA1 }' 'GPUs_CUDA0 = [ Id = "CUDA0"; Capability = 8.0 ]' \
	    'GPUs_CUDA1 = [ Id = "CUDA1"; Capability = 7.0 ]' >"$TMP/slots"
	gen_jobs alice 5 3 'RequestDisk = 1000' 'RequestGPUs = 1' |
	    sed 's/^Requirements = .*/Requirements = TARGET.Memory >= RequestMemory \&\& TARGET.GPUs >= RequestGPUs/' >"$TMP/jobs"
	# leftovers: the third job finds no GPU left
	run -0 matches --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$(cut -f1 <<<"$output" | tr '\n' ' ')" = "5.0 5.1 " ]
	# a consumption policy over GPUs: ConsumedGPUs
	printf 'CONSUMPTION_POLICY = True\n' >"$TMP/config"
	run -0 neg -c "$TMP/config" --slots "$TMP/slots" --jobs "$TMP/jobs"
	[ "$(grep -c '^ConsumedGPUs = 1$' <<<"$output")" = 2 ]
	[ "$(grep -c '^Event = ' <<<"$output")" = 2 ]
	# RequireGPUs as condor_submit writes it: countMatches over AvailableGPUs
	gen_jobs bob 6 1 'RequestDisk = 1000' 'RequestGPUs = 1' 'RequireGPUs = Capability >= 9' |
	    sed 's/^Requirements = .*/Requirements = countMatches(MY.RequireGPUs, TARGET.AvailableGPUs) >= RequestGPUs/' >"$TMP/jobs2"
	run -1 neg --slots "$TMP/slots" --jobs "$TMP/jobs2"
	sed -i 's/Capability >= 9/Capability >= 8/' "$TMP/jobs2"
	run -0 matches --slots "$TMP/slots" --jobs "$TMP/jobs2"
	[[ $output == 6.0* ]]
}

@test "ALLOW_PSLOT_PREEMPTION: the dynamic slots' GPUs count, as MachineResources lists them" {
	# pslot-busy.ads with two GPUs, one in each dynamic slot, none left
	awk -v RS= -v ORS='\n\n' '{
		if ($0 ~ /Name = "slot1@/) g = 0; else g = 1
		print $0 "\nGPUs = " g "\nMachineResources = \"Cpus Memory Disk Swap GPUs\"" }' \
	    "$D/pslot-busy.ads" >"$TMP/slots"
	sed -e 's/^RequestCpus = 4$/RequestCpus = 1/' -e 's/^RequestMemory = 6000$/RequestMemory = 1024\nRequestGPUs = 2/' \
	    -e 's/^Requirements = .*/Requirements = TARGET.GPUs >= RequestGPUs/' \
	    "$D/pslot-bigjob.ads" >"$TMP/jobs"
	run -0 neg -c "$D/pslot-preempt.config" --accounting "$D/prio-accounting.ads" \
	    --slots "$TMP/slots" --jobs "$TMP/jobs"
	run -0 classad-eval -p Name -p PreemptedSlots <<<"$output"
	[ "$output" = $'slot1@pp.example.org\t{ "slot1_1@pp.example.org","slot1_2@pp.example.org" }' ]
	# one GPU is enough: one dynamic slot
	sed -i 's/^RequestGPUs = 2$/RequestGPUs = 1/' "$TMP/jobs"
	run -0 neg -c "$D/pslot-preempt.config" --accounting "$D/prio-accounting.ads" \
	    --slots "$TMP/slots" --jobs "$TMP/jobs"
	run -0 classad-eval -p 'size(PreemptedSlots)' <<<"$output"
	[ "$output" = 1 ]
}

@test "progress: a long cycle says how far it is on a terminal's standard error, never with -q or off a terminal" {
	gen_slots a 20 >"$TMP/slots"
	gen_jobs alice 1 30 >"$TMP/jobs"
	# the slots come slowly: the cycle starts more than two seconds in
	feed="cat $TMP/slots; sleep 2.5"
	at_terminal "($feed) | negotiate --now $T0 --slots - --jobs $TMP/jobs >$TMP/out"
	[[ $output == *"negotiate: pie spin 1: "*" jobs negotiated, "*" matches"* ]]
	[[ $output == *$'\e[K' ]]	# the line is erased at the end
	[[ $(grep -c '^JobId = ' "$TMP/out") == 20 ]]
	at_terminal "($feed) | negotiate -q --now $T0 --slots - --jobs $TMP/jobs >/dev/null"
	[[ -z $output ]]
	run bash -c "($feed) | negotiate --now $T0 --slots - --jobs $TMP/jobs 2>&1 >/dev/null"
	[[ -z $output ]]
}

@test "partitionable slots: twenty jobs share one slot, every match names it" {
	# the jobs after the first take what the slot has left (more matches
	# than the list of matches had room for when the first was made)
	printf '%s\n' 'Name = "slot1@big.example.org"' 'Machine = "big.example.org"' \
	    'MyType = "Machine"' 'State = "Unclaimed"' 'Activity = "Idle"' \
	    'PartitionableSlot = true' 'SlotType = "Partitionable"' 'Cpus = 32' \
	    'Memory = 65536' 'Disk = 1000000' 'TotalSlotCpus = 32' 'TotalSlotMemory = 65536' \
	    'TotalSlotDisk = 1000000' 'Requirements = true' 'Rank = 0' >"$TMP/big.ads"
	for i in $(seq 0 19); do
		printf 'MyType = "Job"\nClusterId = 7\nProcId = %d\nOwner = "alice"\nUser = "alice@example.org"\nJobStatus = 1\nQDate = 1699990000\nRequestCpus = 1\nRequestMemory = 1024\nRequestDisk = 1000\nRequirements = true\nRank = 0\n\n' "$i"
	done >"$TMP/jobs.ads"
	run -0 negotiate --now $T0 --slots "$TMP/big.ads" --jobs "$TMP/jobs.ads"
	[[ $(grep -c '^Event = "Match"' <<<"$output") == 20 ]]
	[[ $(grep -c '^Name = "slot1@big.example.org"' <<<"$output") == 20 ]]
	[[ $(grep -c '^JobId = "7\.' <<<"$output") == 20 ]]
}
