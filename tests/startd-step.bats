#!/usr/bin/env bats
# startd-step.bats - the startd's state machine: every numbered transition of
# the seed (1-37), the seeds' worked examples, each shipped policy over a
# timeline, partitionable slots, the options, the streams and the errors.

load helpers

D=$BATS_TEST_DIRNAME/data/startd
P=$BATS_TEST_DIRNAME/../share/policy
TL=$BATS_TEST_DIRNAME/../share/timeline	# the shipped timeline example
T0=1700000000		# Tue 2023-11-14 22:13:20 UTC
DESK=slot1@desk.example.org
BASS=slot1@bass.example.org

# cfg LINE...: $TMP/c.config holds these lines
cfg() { printf '%s\n' "$@" >"$TMP/c.config"; }

# slots MACHINES [OPTIONS...]: $TMP/slots.ads = the slots of MACHINES at T0
slots() {
	local m=$1
	shift
	startd-step --init --now $T0 "$@" "$m" >"$TMP/slots.ads"
}

# desk [OPTIONS...]: $TMP/slots.ads = the one static slot of desk.ad at T0
desk() { slots "$TL/desk.ad" -c "$D/static.config" "$@"; }

# ev NAME EVENT TIME [LINE...]: append an event to $TMP/ev.ads
ev() {
	local n=$1 e=$2 t=$3
	shift 3
	{
		printf 'Name = "%s"\nEvent = "%s"\nTime = %s\n' "$n" "$e" "$t"
		local a
		for a in "$@"; do printf '%s\n' "$a"; done
		echo
	} >>"$TMP/ev.ads"
}

# job ID OWNER [MORE]: a vanilla job of OWNER as an event's Job attribute
job() {
	printf 'Job = [ ClusterId = %s; ProcId = %s; Owner = "%s"; User = "%s@example.org"; JobUniverse = 5; RequestCpus = 1; RequestMemory = 1024; RequestDisk = 1000%s ]' \
	    "${1%.*}" "${1#*.}" "$2" "$2" "${3:+; $3}"
}

# step NOW [OPTIONS...]: step $TMP/slots.ads to NOW with the events of
# $TMP/ev.ads (consumed); the log is in $stderr, the slots in $output and
# (on success) in $TMP/slots.ads for the next step
step() {
	local now=$1
	shift
	local e=()
	[[ -f $TMP/ev.ads ]] && e=(-e "$TMP/ev.ads")
	run --separate-stderr startd-step -v --now "$now" "${e[@]}" "$@" "$TMP/slots.ads"
	rm -f "$TMP/ev.ads"
	if ((status == 0)); then printf '%s\n' "$output" >"$TMP/slots.ads"; fi
}

# logged TEXT...: every TEXT is in the log of the last step
logged() {
	local t
	for t in "$@"; do
		if [[ $stderr != *"$t"* ]]; then
			printf 'not in the log: %s\nthe log:\n%s\n' "$t" "$stderr"
			return 1
		fi
	done
}

# val ATTR [SLOT]: ATTR of SLOT (default: the first) in $TMP/slots.ads
val() {
	awk -v a="$1" -v s="${2:-}" -v RS= '{
		n = split($0, L, "\n"); name = ""; v = ""; has = 0
		for (i = 1; i <= n; i++) {
			k = L[i]; sub(/ = .*/, "", k); x = L[i]; sub(/^[^=]* = /, "", x)
			if (k == "Name") name = x
			if (k == a) { v = x; has = 1 }
		}
		if (s == "" || name == "\"" s "\"") { if (has) print v; exit }
	}' "$TMP/slots.ads"
}

# is SLOT STATE/ACTIVITY: the slot is there
is() {
	local got
	got="$(val State "$1" | tr -d '"')/$(val Activity "$1" | tr -d '"')"
	[[ $got == "$2" ]] || { echo "$1 is $got, not $2"; return 1; }
}

# claimed SLOT TIME ID OWNER [MORE]: events that match, claim and start a job
claimed() {
	ev "$1" Match "$2" "$(job "$3" "$4" "${5:-}")" "Submitter = \"$4@example.org\"" \
	    'MatchReason = "NoPreemption"'
	ev "$1" Claim "$2"
	ev "$1" Activate "$2"
}

# ---- conventions ----

@test "startd-step: --help on stdout, -V, exit 0" {
	run -0 --separate-stderr startd-step --help
	[[ $output == usage:* ]]
	[[ $output == *"--until EPOCH"* && $output == *"--why SLOT"* ]]
	[[ -z $stderr ]]
	run -0 startd-step -h
	run -0 startd-step -V
	[[ $output == "startd-step (classad-tools) 0.1.0" ]]
	run -0 startd-step --version
}

@test "startd-step: usage errors exit 2" {
	run -2 startd-step --parallel 0 "$TL/desk.ad"
	run -2 startd-step --parallel 2 --init "$TL/desk.ad"
	run -2 startd-step --parallel 2 --why x --now $T0 "$TL/desk.ad"
	run -2 --separate-stderr startd-step --bogus
	[[ $stderr == "startd-step: unknown or ambiguous option '--bogus'"* ]]
	[[ $stderr == *"Try 'startd-step --help'."* ]]
	run -2 --separate-stderr startd-step --until 5
	[[ $stderr == *"needs both --until EPOCH and --every SECONDS"* ]]
	run -2 --separate-stderr startd-step --now 100 --until 50 --every 10
	[[ $stderr == *"--until 50 is before --now 100"* ]]
	run -2 --separate-stderr startd-step --every 0 --until 5
	run -2 --separate-stderr startd-step --now yesterday
	run -2 --separate-stderr startd-step -o yaml
	run -2 --separate-stderr startd-step -l "$TMP/log" -v
	run -2 --separate-stderr startd-step --init -e x
	run -2 --separate-stderr startd-step -e - -
	[[ $stderr == *"standard input can feed only one"* ]]
	run -2 --separate-stderr startd-step --state -
	run -2 --separate-stderr startd-step -c
	[[ $stderr == *"'-c' needs a value"* ]]
}

@test "startd-step: a malformed configuration is reported where it is (exit 3)" {
	cfg 'NUM_SLOTS = 1' 'START = (KeyboardIdle > 5'
	run -3 --separate-stderr startd-step --init -c "$TMP/c.config" "$TL/desk.ad"
	[[ $stderr == "startd-step: $TMP/c.config:2:"*"START"* ]]
	[[ -z $output ]]
	run -4 --separate-stderr startd-step -c "$TMP/nonesuch.config" "$TL/desk.ad"
	[[ $stderr == *"nonesuch.config"* ]]
}

# ---- --init ----

@test "startd-step --init: one partitionable slot by default, as HTCondor 23" {
	run -0 startd-step --init --now $T0 "$D/node.ad"
	printf '%s\n' "$output" >"$TMP/slots.ads"
	[[ $(val Name) == '"slot1@node1.example.org"' ]]
	[[ $(val SlotType) == '"Partitionable"' && $(val PartitionableSlot) == true ]]
	[[ $(val Cpus) == 8 && $(val Memory) == 16384 && $(val TotalSlotCpus) == 8 ]]
	is slot1@node1.example.org Owner/Idle
	[[ $(val EnteredCurrentState) == $T0 && $(val MyCurrentTime) == $T0 ]]
	[[ $(val ClockMin) == 1333 && $(val ClockDay) == 2 ]]	# 22:13 on a Tuesday
	[[ $(val Requirements) == "START && WithinResourceLimits" ]]
	[[ $(val Start) == true && $(val IS_OWNER) == false && $(val Rank) == 0.0 ]]
	[[ $(val CurrentRank) == 0.0 && $(val LastBenchmark) == 0 ]]
	[[ $(val Arch) == '"X86_64"' ]]		# the description passes through
	# the description's attributes first, in their order; added ones after
	[[ $(printf '%s\n' "$output" | head -3 | cut -d' ' -f1 | tr '\n' ' ') == "Name Cpus Memory " ]]
}

@test "startd-step --init: NUM_SLOTS, slot types, fractions, auto and errors" {
	cfg 'NUM_SLOTS = 3'
	slots "$D/node.ad" -c "$TMP/c.config"
	[[ $(val Cpus slot1@node1.example.org) == 3 && $(val Cpus slot3@node1.example.org) == 2 ]]
	[[ $(val Memory slot2@node1.example.org) == 5461 && $(val SlotType) == '"Static"' ]]
	cfg 'SLOT_TYPE_1 = cpus=2, ram=1/4, swap=25%, disk=25%' 'NUM_SLOTS_TYPE_1 = 2' \
	    'SLOT_TYPE_2 = 1/4' 'SLOT_TYPE_2_PARTITIONABLE = TRUE' 'NUM_SLOTS_TYPE_2 = 1'
	slots "$D/node.ad" -c "$TMP/c.config"
	[[ $(val Cpus slot2@node1.example.org) == 2 && $(val Memory slot2@node1.example.org) == 4096 ]]
	[[ $(val Disk slot1@node1.example.org) == 25000000 ]]
	[[ $(val SlotType slot3@node1.example.org) == '"Partitionable"' ]]
	[[ $(val Cpus slot3@node1.example.org) == 2 && $(val SlotTypeID slot3@node1.example.org) == 2 ]]
	[[ $(val TotalSlots) == 3 ]]
	cfg 'use FEATURE : StaticSlots'
	slots "$D/node.ad" -c "$TMP/c.config"
	[[ $(grep -c '^Name = ' "$TMP/slots.ads") == 8 ]]
	cfg 'SLOT_TYPE_1 = cpus=6' 'NUM_SLOTS_TYPE_1 = 2'
	run -3 --separate-stderr startd-step --init -c "$TMP/c.config" "$D/node.ad"
	[[ $stderr == *"c.config:1:"*"ask for 12 cpus of a machine that has 8"* ]]
	cfg 'SLOT_TYPE_1 = cogs=2' 'NUM_SLOTS_TYPE_1 = 1'
	run -3 --separate-stderr startd-step --init -c "$TMP/c.config" "$D/node.ad"
	[[ $stderr == *"unknown resource 'cogs'"* ]]
	cfg 'NUM_SLOTS = 9'
	run -3 --separate-stderr startd-step --init -c "$TMP/c.config" "$D/node.ad"
	[[ $stderr == *"NUM_SLOTS = 9: a machine of 8 cpus"* ]]
	printf 'Name = "x"\nCpus = 2\n' >"$TMP/bad.ad"
	run -3 --separate-stderr startd-step --init "$TMP/bad.ad"
	[[ $stderr == "startd-step: $TMP/bad.ad:1:1: machine x: Cpus, Memory (MB) and Disk (KB)"* ]]
}

@test "startd-step --init: STARTD_ATTRS, SLOT<N>_ overrides, NUM_CPUS and DETECTED_CORES" {
	cfg 'NUM_SLOTS = 2' 'STARTD_ATTRS = favorite_color, favorite_season' \
	    'SLOT1_STARTD_ATTRS = favorite_movie' 'favorite_color = "blue"' \
	    'favorite_season = "spring"' 'SLOT2_favorite_color = "green"' 'favorite_movie = "Up"' \
	    'NUM_CPUS = $(DETECTED_CORES) * 2'
	run -0 startd-step --init -c "$TMP/c.config" "$TL/desk.ad"
	printf '%s\n' "$output" >"$TMP/slots.ads"
	[[ $(val favorite_color slot1@desk.example.org) == '"blue"' ]]
	[[ $(val favorite_color slot2@desk.example.org) == '"green"' ]]
	[[ $(val favorite_season slot2@desk.example.org) == '"spring"' ]]
	[[ $(val favorite_movie slot1@desk.example.org) == '"Up"' ]]
	[[ -z $(val favorite_movie slot2@desk.example.org) ]]
	[[ $(val TotalCpus) == 2 && $(val DetectedCpus) == 1 ]]
}

# ---- the numbered transitions of the seed ----

@test "transition 1: Owner -> Unclaimed when IS_OWNER is false (the default)" {
	desk
	step $T0
	[[ $status == 0 ]]
	logged "2023-11-14 22:13:20 $DESK Owner/Idle -> Unclaimed/Idle [1] IS_OWNER = false"
	is $DESK Unclaimed/Idle
	[[ $(val EnteredCurrentState) == $T0 && $(val Requirements) == "START && WithinResourceLimits" ]]
}

@test "transition 2: Unclaimed -> Owner when IS_OWNER becomes true (POLICY : Desktop)" {
	cfg 'use POLICY : Desktop' 'NUM_SLOTS = 1'
	desk -c "$TMP/c.config"
	step $T0 -c "$TMP/c.config"
	logged "[1] IS_OWNER = false"
	ev $DESK MachineUpdate $((T0 + 60)) 'KeyboardIdle = 0'
	step $((T0 + 120)) -c "$TMP/c.config"
	logged "event MachineUpdate: KeyboardIdle = 0" \
	    "22:14:20 $DESK Unclaimed/Idle -> Owner/Idle [2] IS_OWNER = true"
	is $DESK Owner/Idle
	[[ $(val KeyboardIdle) == 60 ]]		# it grows with the clock
	[[ $(val TotalTimeUnclaimedIdle) == 60 && $(val TotalTimeOwnerIdle) == 60 ]]
}

@test "transitions 3 and 4: benchmarks when RunBenchmarks is true, done by event or in time" {
	# RunBenchmarks = False (the default): no benchmarks at all
	slots "$D/node.ad"
	[[ $(val LastBenchmark) == 0 ]]
	# defined and not FALSE: one set as the startd starts (the seed's note),
	# then whenever it holds in Unclaimed/Idle: four hours later, exactly
	cfg 'RunBenchmarks = (time() - LastBenchmark) >= (4 * $(HOUR))'
	slots "$D/node.ad" -c "$TMP/c.config"
	[[ $(val LastBenchmark) == $T0 ]]
	step $((T0 + 4 * 3600)) -c "$TMP/c.config"
	logged "02:13:20 slot1@node1.example.org Unclaimed/Idle -> Unclaimed/Benchmarking [3] RunBenchmarks = true"
	[[ $(val CondorLoadAvg) == 1.0 ]]
	cp "$TMP/slots.ads" "$TMP/bench.ads"
	ev slot1@node1.example.org BenchmarkDone $((T0 + 4 * 3600 + 4)) 'Mips = 21000' 'KFlops = 1500000'
	step $((T0 + 4 * 3600 + 6)) -c "$TMP/c.config"
	logged "02:13:24 slot1@node1.example.org Unclaimed/Benchmarking -> Unclaimed/Idle [4] event BenchmarkDone"
	[[ $(val LastBenchmark) == $((T0 + 4 * 3600 + 4)) && $(val Mips) == 21000 && $(val KFlops) == 1500000 ]]
	is slot1@node1.example.org Unclaimed/Idle
	# the next result goes into a weighted average: (3 old + new) / 4
	step $((T0 + 8 * 3600 + 10)) -c "$TMP/c.config"
	logged "06:13:24 slot1@node1.example.org Unclaimed/Idle -> Unclaimed/Benchmarking [3]"
	ev slot1@node1.example.org BenchmarkDone $((T0 + 8 * 3600 + 8)) 'Mips = 25000' 'KFlops = 1000000'
	step $((T0 + 8 * 3600 + 10)) -c "$TMP/c.config"
	[[ $(val Mips) == 22000 && $(val KFlops) == 1375000 ]]
	# without the event, they take STARTD_STEP_BENCHMARK_TIME (10 s)
	cp "$TMP/bench.ads" "$TMP/slots.ads"
	step $((T0 + 4 * 3600 + 60)) -c "$TMP/c.config"
	logged "02:13:30 slot1@node1.example.org Unclaimed/Benchmarking -> Unclaimed/Idle [4] benchmarks finished"
	[[ $(val LastBenchmark) == $((T0 + 4 * 3600 + 10)) ]]
}

@test "transition 5: Unclaimed -> Claimed/Idle when the schedd claims before the match" {
	desk
	ev $DESK Claim $((T0 + 10)) "$(job 1.0 alice)"
	step $((T0 + 20))
	logged "$DESK Unclaimed/Idle -> Claimed/Idle [5] event Claim: job 1.0 of alice@example.org (before the negotiator's match)"
	is $DESK Claimed/Idle
	[[ $(val RemoteUser) == '"alice@example.org"' && $(val JobId) == '"1.0"' ]]
	[[ $(val ClaimStartTime) == $((T0 + 10)) ]]
}

@test "transition 6: Unclaimed -> Matched on the negotiator's match record" {
	desk
	ev $DESK Match $((T0 + 10)) "$(job 1.0 alice)" 'Submitter = "alice@example.org"' \
	    'JobId = "1.0"' 'MatchReason = "NoPreemption"' 'JobRank = 0.0' 'SlotRank = 0.0' \
	    'RemoteUserPrio = 0.5'
	step $((T0 + 20))
	logged "$DESK Unclaimed/Idle -> Matched/Idle [6] event Match: job 1.0 of alice@example.org (NoPreemption)"
	is $DESK Matched/Idle
	[[ $(val Requirements) == false ]]	# no further matches
	[[ $(val RemoteUserPrio) == 0.5 ]]
	[[ $(val Job) == '[ ClusterId = 1; ProcId = 0;'* ]]
}

@test "transition 7: Unclaimed -> Backfill when START_BACKFILL is true" {
	cfg 'NUM_SLOTS = 1' 'ENABLE_BACKFILL = True' 'START_BACKFILL = $(StateTimer) > 300'
	desk -c "$TMP/c.config"
	step $((T0 + 200)) -c "$TMP/c.config"
	is $DESK Unclaimed/Idle
	step $((T0 + 400)) -c "$TMP/c.config"
	logged "$DESK Unclaimed/Idle -> Backfill/Idle [7] START_BACKFILL = true"
	is $DESK Backfill/Busy
}

@test "transition 8: Matched -> Owner when MATCH_TIMEOUT expires, then straight to Unclaimed" {
	desk
	ev $DESK Match $((T0 + 10)) "$(job 1.0 alice)"
	step $((T0 + 300))
	logged "22:15:30 $DESK Matched/Idle -> Owner/Idle [8] MATCH_TIMEOUT (120 s) expired" \
	    "22:15:30 $DESK Owner/Idle -> Unclaimed/Idle [1] IS_OWNER = false"
	is $DESK Unclaimed/Idle
	[[ -z $(val Job) && -z $(val RemoteUser) ]]
}

@test "transition 8: Matched -> Owner when IS_OWNER turns true (START =?= False), or on a Release" {
	cfg 'use POLICY : Desktop' 'NUM_SLOTS = 1' 'MATCH_TIMEOUT = 600'
	desk -c "$TMP/c.config"
	ev $DESK Match $((T0 + 10)) "$(job 1.0 alice)"
	ev $DESK MachineUpdate $((T0 + 20)) 'KeyboardIdle = 0'
	step $((T0 + 30)) -c "$TMP/c.config"
	logged "$DESK Matched/Idle -> Owner/Idle [8] IS_OWNER = true"
	is $DESK Owner/Idle
	desk
	ev $DESK Match $((T0 + 10)) "$(job 1.0 alice)"
	ev $DESK Release $((T0 + 20))
	step $((T0 + 30))
	logged "$DESK Matched/Idle -> Owner/Idle [8] event Release: the schedd gives up the match"
}

@test "transition 9: Matched -> Claimed/Idle when the schedd claims; a failed claim is 8" {
	desk
	ev $DESK Match $((T0 + 10)) "$(job 1.0 alice)"
	ev $DESK Claim $((T0 + 12))
	step $((T0 + 20))
	logged "$DESK Matched/Idle -> Claimed/Idle [9] event Claim"
	is $DESK Claimed/Idle
	[[ $(val CurrentRank) == 0.0 && $(val Requirements) == "START && WithinResourceLimits" ]]
	desk
	ev $DESK Match $((T0 + 10)) "$(job 1.0 alice 'RequestMemory = 99999')"
	ev $DESK Claim $((T0 + 12))
	step $((T0 + 20))
	logged "[8] event Claim: the claim fails (WithinResourceLimits = false for this job)"
}

@test "transition 10: Claimed/Idle -> Preempting on condor_vacate, or when IS_OWNER is true" {
	desk
	ev $DESK Claim $((T0 + 10)) "$(job 1.0 alice)"
	ev $DESK Vacate $((T0 + 20))
	step $((T0 + 30))
	logged "$DESK Claimed/Idle -> Preempting/Vacating [10] event Vacate" \
	    "$DESK Preempting/Vacating -> Owner/Idle [22] no job to evict"
	is $DESK Unclaimed/Idle
	cfg 'use POLICY : Desktop' 'NUM_SLOTS = 1'
	desk -c "$TMP/c.config"
	ev $DESK Claim $((T0 + 10)) "$(job 1.0 alice)"
	ev $DESK MachineUpdate $((T0 + 20)) 'KeyboardIdle = 0'
	step $((T0 + 30)) -c "$TMP/c.config"
	logged "$DESK Claimed/Idle -> Preempting/Vacating [10] IS_OWNER = true"
	is $DESK Owner/Idle
	# START locally FALSE (the seed's rule, IS_OWNER False): the owner is back
	cfg 'NUM_SLOTS = 1' 'START = KeyboardIdle > 60 && TARGET.Owner =?= "alice"'
	desk -c "$TMP/c.config"
	ev $DESK Claim $((T0 + 10)) "$(job 1.0 alice)"
	ev $DESK MachineUpdate $((T0 + 20)) 'KeyboardIdle = 0'
	step $((T0 + 30)) -c "$TMP/c.config"
	logged "22:13:40 $DESK Claimed/Idle -> Preempting/Vacating [10] START = false locally (without a job)" \
	    "$DESK Preempting/Vacating -> Owner/Idle [22] no job to evict"
	is $DESK Unclaimed/Idle
	[[ $(val Eviction) == '' ]]
	# a START false without a job but true for the claim's job (a meta-
	# operator, seed 000's VM1_START) keeps the claim
	cfg 'NUM_SLOTS = 1' 'START = TARGET.Owner =?= "alice"'
	desk -c "$TMP/c.config"
	ev $DESK Claim $((T0 + 10)) "$(job 1.0 alice)"
	step $((T0 + 30)) -c "$TMP/c.config"
	is $DESK Claimed/Idle
}

@test "transition 10: CLAIM_WORKLIFE ends an idle claim that has run a job" {
	cfg 'NUM_SLOTS = 1' 'CLAIM_WORKLIFE = 600'
	desk -c "$TMP/c.config"
	ev $DESK Claim $((T0 + 10)) "$(job 1.0 alice)"
	step $((T0 + 1000)) -c "$TMP/c.config"
	is $DESK Claimed/Idle			# never activated: the worklife does not count
	ev $DESK Activate $((T0 + 1010))
	ev $DESK JobExit $((T0 + 1020))
	step $((T0 + 1030)) -c "$TMP/c.config"
	logged "[10] CLAIM_WORKLIFE (600 s) expired: the claim is 1010 s old"
}

@test "transition 11: Claimed/Idle -> Busy when the shadow activates the claim" {
	desk
	claimed $DESK $((T0 + 10)) 1.0 alice
	step $((T0 + 100))
	logged "$DESK Claimed/Idle -> Claimed/Busy [11] event Activate: job 1.0 of alice@example.org"
	is $DESK Claimed/Busy
	[[ $(val JobStart) == $((T0 + 10)) && $(val TotalJobRunTime) == 90 ]]
	[[ $(val CondorLoadAvg) == 1.0 && $(val LoadAvg) == 1.0 ]]
	[[ $(val ClaimJobStarts) == 1 ]]
}

@test "transition 12: Busy -> Idle when the job exits" {
	desk
	claimed $DESK $((T0 + 10)) 1.0 alice
	ev $DESK JobExit $((T0 + 100)) 'JobId = "1.0"'
	step $((T0 + 200))
	logged "22:15:00 $DESK Claimed/Busy -> Claimed/Idle [12] event JobExit"
	is $DESK Claimed/Idle
	[[ -z $(val JobStart) && $(val LoadAvg) == 0.0 && $(val TotalTimeClaimedBusy) == 90 ]]
	[[ $(val TotalClaimRunTime) == 90 ]]
}

@test "transitions 13 and 18: PREEMPT starts retirement, retirement ends in Preempting" {
	cfg 'NUM_SLOTS = 1' 'PREEMPT = KeyboardIdle < 60' 'MAXJOBRETIREMENTTIME = 300' \
	    'MachineMaxVacateTime = 60' 'WANT_VACATE = True'
	desk -c "$TMP/c.config"
	claimed $DESK $((T0 + 10)) 1.0 alice
	ev $DESK MachineUpdate $((T0 + 100)) 'KeyboardIdle = 0'
	step $((T0 + 110)) -c "$TMP/c.config"
	logged "$DESK Claimed/Busy -> Claimed/Retiring [13] PREEMPT = true"
	is $DESK Claimed/Retiring
	[[ $(val Eviction) == '"PREEMPT"' && $(val RetirementTimeRemaining) == 200 ]]
	step $((T0 + 200)) -c "$TMP/c.config"
	is $DESK Claimed/Retiring			# 110 s left: more than the vacate time
	step $((T0 + 260)) -c "$TMP/c.config"
	# exactly when no more is left than the vacate time, between the steps
	logged "22:17:30 $DESK Claimed/Retiring -> Preempting/Vacating [18] retirement (PREEMPT) is over: 60 s of MaxJobRetirementTime left"
	[[ $(val Requirements) == false ]]
}

@test "retirement: the job's own MaxJobRetirementTime only shortens it; JobMaxVacateTime" {
	cfg 'NUM_SLOTS = 1' 'PREEMPT = KeyboardIdle < 60' 'MAXJOBRETIREMENTTIME = 3600' \
	    'MachineMaxVacateTime = 10' 'WANT_VACATE = True'
	for mine in 100 99999; do
		desk -c "$TMP/c.config"
		claimed $DESK $((T0 + 10)) 1.0 alice "MaxJobRetirementTime = $mine; JobMaxVacateTime = 5"
		ev desk.example.org MachineUpdate $((T0 + 50)) 'KeyboardIdle = 0'
		step $((T0 + 60)) -c "$TMP/c.config"
		is $DESK Claimed/Retiring
		step $((T0 + 120)) -c "$TMP/c.config"
		if ((mine == 100)); then
			# 100 s from the start, less the 5 s the job gets to vacate
			logged "22:15:05 $DESK Claimed/Retiring -> Preempting/Vacating [18] retirement (PREEMPT) is over: 5 s of MaxJobRetirementTime left" \
			    "22:15:10 $DESK Preempting/Vacating -> Preempting/Killing [21] the vacate time (5 s) is over"
		else
			is $DESK Claimed/Retiring
			[[ $(val RetirementTimeRemaining) == 3490 ]]
		fi
	done
}

@test "transition 18: the job exits during retirement" {
	cfg 'NUM_SLOTS = 1' 'PREEMPT = KeyboardIdle < 60' 'MAXJOBRETIREMENTTIME = 3600'
	desk -c "$TMP/c.config"
	claimed $DESK $((T0 + 10)) 1.0 alice
	ev $DESK MachineUpdate $((T0 + 100)) 'KeyboardIdle = 0'
	ev $DESK JobExit $((T0 + 200))
	step $((T0 + 300)) -c "$TMP/c.config"
	logged "[13] PREEMPT = true" "22:16:40 $DESK Claimed/Retiring -> Preempting/Vacating [18] event JobExit" \
	    "$DESK Preempting/Vacating -> Owner/Idle [22] no job to evict"
	is $DESK Unclaimed/Idle
}

@test "transitions 14 and 15: suspend on SUSPEND (with WANT_SUSPEND), continue on CONTINUE" {
	cfg 'NUM_SLOTS = 1' 'WANT_SUSPEND = True' 'SUSPEND = KeyboardIdle < 60' \
	    'CONTINUE = KeyboardIdle > 300'
	desk -c "$TMP/c.config"
	claimed $DESK $((T0 + 10)) 1.0 alice
	ev $DESK MachineUpdate $((T0 + 100)) 'KeyboardIdle = 0'
	step $((T0 + 200)) -c "$TMP/c.config"
	logged "22:15:00 $DESK Claimed/Busy -> Claimed/Suspended [14] SUSPEND = true"
	[[ $(val LoadAvg) == 0.0 && $(val TotalJobSuspendTime) == 100 ]]
	step $((T0 + 500)) -c "$TMP/c.config"
	# the second KeyboardIdle passes 300, not at the step
	logged "22:20:01 $DESK Claimed/Suspended -> Claimed/Busy [15] CONTINUE = true"
	is $DESK Claimed/Busy
	[[ $(val TotalJobSuspendTime) == 301 && $(val TotalJobRunTime) == 189 ]]
}

@test "transition 16: PREEMPT while suspended moves to Retiring" {
	cfg 'NUM_SLOTS = 1' 'WANT_SUSPEND = True' 'SUSPEND = KeyboardIdle < 60' 'CONTINUE = False' \
	    'PREEMPT = Activity == "Suspended" && $(ActivityTimer) > 600' \
	    'MAXJOBRETIREMENTTIME = 3600'
	desk -c "$TMP/c.config"
	claimed $DESK $((T0 + 10)) 1.0 alice
	ev $DESK MachineUpdate $((T0 + 100)) 'KeyboardIdle = 0'
	step $((T0 + 800)) -c "$TMP/c.config"
	logged "[14] SUSPEND = true" "$DESK Claimed/Suspended -> Claimed/Retiring [16] PREEMPT = true"
	is $DESK Claimed/Retiring
}

@test "transition 16: CONTINUE in suspended retirement goes back to Retiring" {
	cfg "$(cat "$D/bass.config")" 'WANT_SUSPEND = True' 'SUSPEND = KeyboardIdle < 60' \
	    'CONTINUE = KeyboardIdle > 300' 'MAXJOBRETIREMENTTIME = 3600'
	slots "$D/quartet.ads" -c "$TMP/c.config"
	ev bass.example.org MachineUpdate $((T0 + 5)) 'KeyboardIdle = 1000'
	claimed $BASS $((T0 + 10)) 1.0 alice
	ev $BASS MachineUpdate $((T0 + 100)) 'KeyboardIdle = 0'
	ev $BASS Match $((T0 + 110)) "$(job 2.0 jones)" 'MatchReason = "Rank"'
	ev $BASS Claim $((T0 + 111))
	step $((T0 + 500)) -c "$TMP/c.config"
	logged "[14] SUSPEND = true" "the preempting claim of jones@example.org is accepted" \
	    "$BASS Claimed/Suspended -> Claimed/Retiring [16] CONTINUE = true"
	is $BASS Claimed/Retiring
}

@test "transitions 17 and 20: suspended in retirement, MaxJobRetirementTime shrinks to 0" {
	cfg 'NUM_SLOTS = 1' 'WANT_SUSPEND = True' 'SUSPEND = KeyboardIdle < 60' 'CONTINUE = False' \
	    'MAXJOBRETIREMENTTIME = RetireBudget'
	desk -c "$TMP/c.config"
	ev desk.example.org MachineUpdate $((T0 + 5)) 'RetireBudget = 3600'
	claimed $DESK $((T0 + 10)) 1.0 alice
	ev $DESK Vacate $((T0 + 100))
	ev $DESK MachineUpdate $((T0 + 200)) 'KeyboardIdle = 0'
	ev $DESK MachineUpdate $((T0 + 300)) 'RetireBudget = 0'
	step $((T0 + 310)) -c "$TMP/c.config"
	logged "22:15:00 $DESK Claimed/Busy -> Claimed/Retiring [13] event Vacate" \
	    "22:16:40 $DESK Claimed/Retiring -> Claimed/Suspended [20] SUSPEND = true" \
	    "22:18:20 $DESK Claimed/Suspended -> Preempting/Vacating [17] retirement (vacate) is over"
	is $DESK Preempting/Vacating
}

@test "transition 19: retirement for a preempting claim is undone when that claim goes away" {
	cfg "$(cat "$D/bass.config")" 'MAXJOBRETIREMENTTIME = 3600'
	slots "$D/quartet.ads" -c "$TMP/c.config"
	claimed $BASS $((T0 + 10)) 1.0 alice
	ev $BASS Match $((T0 + 100)) "$(job 2.0 jones)" 'MatchReason = "Rank"'
	ev $BASS Claim $((T0 + 101))
	ev $BASS Release $((T0 + 200)) 'JobId = "2.0"'
	step $((T0 + 300)) -c "$TMP/c.config"
	logged "$BASS Claimed/Busy -> Claimed/Retiring [13] retiring: preempting claim" \
	    "event Release: the preempting claim of job 2.0 is released" \
	    "22:16:40 $BASS Claimed/Retiring -> Claimed/Busy [19] nothing to retire for"
	is $BASS Claimed/Busy
	[[ $(val RemoteUser $BASS) == '"alice@example.org"' && -z $(val PreemptingJob $BASS) ]]
}

@test "transition 19: an unclaimed preempting match times out and is forgotten" {
	cfg "$(cat "$D/bass.config")"
	slots "$D/quartet.ads" -c "$TMP/c.config"
	claimed $BASS $((T0 + 10)) 1.0 alice
	ev $BASS Match $((T0 + 100)) "$(job 2.0 jones)" 'MatchReason = "Rank"'
	step $((T0 + 150)) -c "$TMP/c.config"
	logged "a preempting match (RANK 1, CurrentRank 0); Requirements = False"
	[[ $(val Requirements $BASS) == false && $(val PreemptingRank $BASS) == 1.0 ]]
	step $((T0 + 300)) -c "$TMP/c.config"
	logged "22:17:00 $BASS Claimed/Busy: MATCH_TIMEOUT (120 s) expired: the preempting match of jones@example.org was not claimed"
	[[ $(val Requirements $BASS) == "START && WithinResourceLimits" ]]
}

@test "transition 21: Vacating -> Killing when KILL is true, or when the vacate time is over" {
	cfg 'NUM_SLOTS = 1' 'PREEMPT = KeyboardIdle < 60' 'KILL = $(ActivityTimer) > 30' \
	    'WANT_VACATE = True'
	desk -c "$TMP/c.config"
	claimed $DESK $((T0 + 10)) 1.0 alice
	ev $DESK MachineUpdate $((T0 + 100)) 'KeyboardIdle = 0'
	step $((T0 + 110)) -c "$TMP/c.config"
	logged "[13] PREEMPT = true" "$DESK Claimed/Retiring -> Preempting/Vacating [18]"
	step $((T0 + 125)) -c "$TMP/c.config"
	is $DESK Preempting/Vacating
	step $((T0 + 150)) -c "$TMP/c.config"
	logged "22:15:31 $DESK Preempting/Vacating -> Preempting/Killing [21] KILL = true"
	cfg 'NUM_SLOTS = 1' 'PREEMPT = KeyboardIdle < 60' 'MachineMaxVacateTime = 45' \
	    'WANT_VACATE = True'
	desk -c "$TMP/c.config"
	claimed $DESK $((T0 + 10)) 1.0 alice
	ev $DESK MachineUpdate $((T0 + 100)) 'KeyboardIdle = 0'
	step $((T0 + 200)) -c "$TMP/c.config"
	logged "22:15:45 $DESK Preempting/Vacating -> Preempting/Killing [21] the vacate time (45 s) is over" \
	    "22:16:15 $DESK Preempting/Killing -> Owner/Idle [25] KILLING_TIMEOUT (30 s) expired"
}

@test "transitions 22 and 25: the evicted job is gone, back to Owner" {
	cfg 'NUM_SLOTS = 1' 'PREEMPT = KeyboardIdle < 60' 'WANT_VACATE = True'
	desk -c "$TMP/c.config"
	claimed $DESK $((T0 + 10)) 1.0 alice
	ev $DESK MachineUpdate $((T0 + 100)) 'KeyboardIdle = 0'
	ev $DESK StarterExit $((T0 + 105))
	step $((T0 + 110)) -c "$TMP/c.config"
	logged "22:15:05 $DESK Preempting/Vacating -> Owner/Idle [22] event StarterExit"
	is $DESK Unclaimed/Idle
	[[ -z $(val Job) && -z $(val Eviction) && -z $(val JobStart) && $(val CurrentRank) == 0.0 ]]
	# WANT_VACATE is False by default (the manual's default policy): Killing
	cfg 'NUM_SLOTS = 1' 'PREEMPT = KeyboardIdle < 60'
	desk -c "$TMP/c.config"
	claimed $DESK $((T0 + 10)) 1.0 alice
	ev $DESK MachineUpdate $((T0 + 100)) 'KeyboardIdle = 0'
	step $((T0 + 200)) -c "$TMP/c.config"
	logged "$DESK Claimed/Retiring -> Preempting/Killing [18]" \
	    "22:15:30 $DESK Preempting/Killing -> Owner/Idle [25] KILLING_TIMEOUT (30 s) expired"
}

@test "transitions 23 and 24: after preemption for a better match, Claimed/Idle for it" {
	cfg "$(cat "$D/bass.config")"
	slots "$D/quartet.ads" -c "$TMP/c.config"
	claimed $BASS $((T0 + 10)) 1.0 alice
	ev $BASS Match $((T0 + 100)) "$(job 2.0 jones)" 'MatchReason = "Rank"'
	ev $BASS Claim $((T0 + 101))
	ev $BASS StarterExit $((T0 + 110))
	step $((T0 + 120)) -c "$TMP/c.config"
	logged "$BASS Preempting/Vacating -> Claimed/Idle [23] event StarterExit; the preempting claim of jones@example.org takes the slot"
	is $BASS Claimed/Idle
	[[ $(val RemoteUser $BASS) == '"jones@example.org"' && $(val CurrentRank $BASS) == 1.0 ]]
	cfg "$(cat "$D/bass.config")" 'KILL = $(ActivityTimer) > 10'
	slots "$D/quartet.ads" -c "$TMP/c.config"
	claimed $BASS $((T0 + 10)) 1.0 alice
	ev $BASS Match $((T0 + 100)) "$(job 2.0 jones)" 'MatchReason = "Rank"'
	ev $BASS Claim $((T0 + 101))
	step $((T0 + 115)) -c "$TMP/c.config"
	logged "22:15:12 $BASS Preempting/Vacating -> Preempting/Killing [21] KILL = true"
	step $((T0 + 200)) -c "$TMP/c.config"
	logged "22:15:42 $BASS Preempting/Killing -> Claimed/Idle [24] KILLING_TIMEOUT (30 s) expired"
}

@test "transitions 26 to 30: the backfill client starts, exits, is evicted and killed" {
	cfg 'NUM_SLOTS = 1' 'ENABLE_BACKFILL = True' 'START_BACKFILL = $(StateTimer) > 300' \
	    'EVICT_BACKFILL = $(MachineBusy)'
	desk -c "$TMP/c.config"
	step $((T0 + 400)) -c "$TMP/c.config"
	logged "$DESK Unclaimed/Idle -> Backfill/Idle [7]" \
	    "$DESK Backfill/Idle -> Backfill/Busy [26] the backfill client starts"
	ev $DESK StarterExit $((T0 + 500))
	ev $DESK MachineUpdate $((T0 + 600)) 'KeyboardIdle = 0'
	step $((T0 + 700)) -c "$TMP/c.config"
	logged "22:21:40 $DESK Backfill/Busy -> Backfill/Idle [27] event StarterExit" \
	    "22:21:40 $DESK Backfill/Idle -> Backfill/Busy [26]" \
	    "22:23:20 $DESK Backfill/Busy -> Backfill/Killing [28] EVICT_BACKFILL = true" \
	    "22:23:50 $DESK Backfill/Killing -> Backfill/Idle [29] KILLING_TIMEOUT (30 s) expired" \
	    "22:23:50 $DESK Backfill/Idle -> Owner/Idle [30] the backfill client is gone: back to the owner"
}

@test "transitions 28 to 30: condor_vacate ends backfill, back to Owner" {
	cfg 'NUM_SLOTS = 1' 'ENABLE_BACKFILL = True' 'START_BACKFILL = KeyboardIdle > 600'
	desk -c "$TMP/c.config"
	step $T0 -c "$TMP/c.config"
	is $DESK Backfill/Busy
	ev $DESK Vacate $((T0 + 10))
	ev $DESK MachineUpdate $((T0 + 20)) 'KeyboardIdle = 0'
	step $((T0 + 60)) -c "$TMP/c.config"
	logged "$DESK Backfill/Busy -> Backfill/Killing [28] event Vacate" \
	    "22:14:00 $DESK Backfill/Killing -> Backfill/Idle [29] KILLING_TIMEOUT" \
	    "22:14:00 $DESK Backfill/Idle -> Owner/Idle [30] the backfill client is gone: back to the owner"
	is $DESK Unclaimed/Idle
}

@test "transitions 31 and 32: a claim or a match ends backfill" {
	cfg 'NUM_SLOTS = 1' 'ENABLE_BACKFILL = True' 'START_BACKFILL = True'
	desk -c "$TMP/c.config"
	ev $DESK Claim $((T0 + 10)) "$(job 1.0 alice)"
	ev $DESK StarterExit $((T0 + 15))
	step $((T0 + 20)) -c "$TMP/c.config"
	logged "$DESK Backfill/Busy -> Backfill/Killing [28] event Claim: job 1.0 of alice@example.org" \
	    "$DESK Backfill/Killing -> Backfill/Idle [29] event StarterExit" \
	    "$DESK Backfill/Idle -> Claimed/Idle [31] the backfill client is gone: the claim takes the slot"
	is $DESK Claimed/Idle
	desk -c "$TMP/c.config"
	ev $DESK Match $((T0 + 10)) "$(job 1.0 alice)"
	step $((T0 + 60)) -c "$TMP/c.config"
	logged "[28] event Match: job 1.0 of alice@example.org" "22:14:00 $DESK Backfill/Killing -> Backfill/Idle [29]" \
	    "$DESK Backfill/Idle -> Matched/Idle [32] the backfill client is gone: the match takes the slot"
	is $DESK Matched/Idle
}

@test "transitions 33 and 37: an Unclaimed slot drains, and is drained when all are" {
	desk
	ev desk.example.org Drain $((T0 + 10))
	step $((T0 + 20))
	logged "$DESK Unclaimed/Idle -> Drained/Retiring [37] draining" \
	    "$DESK Drained/Retiring -> Drained/Idle [33] every slot of the machine is drained"
	is $DESK Drained/Idle
	[[ $(val Requirements) == false && $(val Draining) == true ]]
	ev $DESK Match $((T0 + 30)) "$(job 1.0 alice)"
	step $((T0 + 40))
	logged "event Match ignored in Drained/Idle: a drained slot takes no match"
}

@test "transitions 34 and 36: an Owner slot drains; cancelled or finished, back to Owner" {
	cfg 'use POLICY : Desktop' 'NUM_SLOTS = 1'
	printf 'Name = "desk.example.org"\nCpus = 1\nMemory = 1024\nDisk = 1000\nKeyboardIdle = 0\n' >"$TMP/busy.ad"
	slots "$TMP/busy.ad" -c "$TMP/c.config"
	ev desk.example.org Drain $((T0 + 10))
	ev desk.example.org CancelDrain $((T0 + 20))
	step $((T0 + 30)) -c "$TMP/c.config"
	logged "$DESK Owner/Idle -> Drained/Retiring [36] draining" "[33]" \
	    "22:13:40 $DESK Drained/Idle -> Owner/Idle [34] draining cancelled"
	is $DESK Owner/Idle
	[[ -z $(val Draining) ]]
	desk
	ev desk.example.org Drain $((T0 + 10)) 'ResumeOnCompletion = true'
	step $((T0 + 30))
	logged "[37] draining" "[33]" "$DESK Drained/Idle -> Owner/Idle [34] draining finished (resume on completion)" \
	    "$DESK Owner/Idle -> Unclaimed/Idle [1]"
}

@test "transition 35: drain cancelled while other slots still retire; their jobs unretire (19)" {
	cfg 'NUM_SLOTS = 2' 'MAXJOBRETIREMENTTIME = 3600'
	slots "$D/node.ad" -c "$TMP/c.config"
	claimed slot1@node1.example.org $((T0 + 10)) 1.0 alice
	ev node1.example.org Drain $((T0 + 100))
	step $((T0 + 200)) -c "$TMP/c.config"
	logged "slot1@node1.example.org Claimed/Busy -> Claimed/Retiring [13] retiring: draining" \
	    "slot2@node1.example.org Unclaimed/Idle -> Drained/Retiring [37] draining"
	is slot2@node1.example.org Drained/Retiring
	ev node1.example.org CancelDrain $((T0 + 300))
	step $((T0 + 400)) -c "$TMP/c.config"
	logged "slot2@node1.example.org Drained/Retiring -> Owner/Idle [35] draining cancelled" \
	    "slot1@node1.example.org Claimed/Retiring -> Claimed/Busy [19]"
	is slot1@node1.example.org Claimed/Busy
	is slot2@node1.example.org Unclaimed/Idle
}

@test "draining with resume on completion, two slots: every slot comes back, the one done first too" {
	cfg 'NUM_SLOTS = 2' 'MAXJOBRETIREMENTTIME = 3600'
	slots "$D/node.ad" -c "$TMP/c.config"
	claimed slot1@node1.example.org $((T0 + 10)) 1.0 alice
	ev node1.example.org Drain $((T0 + 100)) 'ResumeOnCompletion = true'
	ev slot1@node1.example.org JobExit $((T0 + 500))
	step $((T0 + 1000)) -c "$TMP/c.config"
	logged "22:15:00 slot2@node1.example.org Unclaimed/Idle -> Drained/Retiring [37] draining" \
	    "22:21:40 slot1@node1.example.org Claimed/Retiring -> Preempting/Vacating [18] event JobExit" \
	    "22:21:40 slot1@node1.example.org Owner/Idle -> Drained/Retiring [36] draining" \
	    "22:21:40 slot2@node1.example.org Drained/Retiring -> Drained/Idle [33]" \
	    "22:21:40 slot2@node1.example.org Drained/Idle -> Owner/Idle [34] draining finished (resume on completion)" \
	    "22:21:40 slot1@node1.example.org Drained/Idle -> Owner/Idle [34] draining finished (resume on completion)"
	is slot1@node1.example.org Unclaimed/Idle
	is slot2@node1.example.org Unclaimed/Idle
	[[ -z $(val Draining slot1@node1.example.org) && -z $(val Draining slot2@node1.example.org) ]]
}

@test "claim leases: the schedd gone, the claim ends when its lease runs out (JobLeaseDuration, ALIVE_INTERVAL)" {
	# no JobLeaseDuration: MAX_CLAIM_ALIVES_MISSED (6) x ALIVE_INTERVAL (300);
	# keep-alives every third of it from the claim's start
	desk
	claimed $DESK $((T0 + 10)) 1.0 alice
	ev desk.example.org ScheddGone $((T0 + 1000))
	step $((T0 + 5000))
	logged "22:30:00 $DESK Claimed/Busy: event ScheddGone: no more keep-alives; the claim lease (1800 s) runs out at 2023-11-14 22:53:30" \
	    "22:53:30 $DESK Claimed/Busy -> Preempting/Killing [10] the claim lease (1800 s) ran out" \
	    "22:54:00 $DESK Preempting/Killing -> Owner/Idle [25] KILLING_TIMEOUT"
	# the job's JobLeaseDuration (40 minutes, condor_submit's default); an
	# idle claim; a schedd that comes back in time keeps its claim
	cfg 'NUM_SLOTS = 1' 'ALIVE_INTERVAL = 60'
	desk -c "$TMP/c.config"
	ev $DESK Claim $((T0 + 10)) "$(job 1.0 alice 'JobLeaseDuration = 2400')"
	ev desk.example.org ScheddGone $((T0 + 1000))
	step $((T0 + 3200)) -c "$TMP/c.config"
	is $DESK Claimed/Idle
	step $((T0 + 4000)) -c "$TMP/c.config"
	# keep-alives every 800 s: the last at 22:26:50, the lease ends 2400 s on
	logged "23:06:50 $DESK Claimed/Idle -> Preempting/Vacating [10] the claim lease (2400 s) ran out"
	is $DESK Unclaimed/Idle
	desk
	ev $DESK Claim $((T0 + 10)) "$(job 1.0 alice)"
	ev desk.example.org ScheddGone $((T0 + 1000))
	ev desk.example.org KeepAlive $((T0 + 2000))
	step $((T0 + 9000))
	logged "event KeepAlive: the schedd of the claim is back"
	is $DESK Claimed/Idle
}

@test "STARTD_LATCH_EXPRS: the value of each name and the time it last changed" {
	cfg 'NUM_SLOTS = 1' 'STARTD_LATCH_EXPRS = CpuBusy Hot' 'Hot = LoadAvg > 2.0' \
	    'STARTD_ATTRS = Hot'
	desk -c "$TMP/c.config"
	[[ $(val CpuBusyValue) == 0 && $(val CpuBusyTime) == $T0 && $(val HotValue) == 0 ]]
	ev desk.example.org MachineUpdate $((T0 + 100)) 'LoadAvg = 1.0'
	ev desk.example.org MachineUpdate $((T0 + 200)) 'LoadAvg = 3.0'
	step $((T0 + 300)) -c "$TMP/c.config"
	[[ $(val CpuBusyValue) == 1 && $(val CpuBusyTime) == $((T0 + 100)) ]]
	[[ $(val HotValue) == 1 && $(val HotTime) == $((T0 + 200)) ]]
	# HTCondor's Desktop policy latches CpuBusy: its CpuBusyTimer suspends a
	# job whose CPU has been busy 2 minutes (and that has run 90 s)
	cfg 'use POLICY : Desktop' 'NUM_SLOTS = 1'
	desk -c "$TMP/c.config"
	claimed $DESK $((T0 + 10)) 1.0 alice
	ev desk.example.org MachineUpdate $((T0 + 200)) 'LoadAvg = 2.0'
	step $((T0 + 1000)) -c "$TMP/c.config"
	logged "22:18:41 $DESK Claimed/Busy -> Claimed/Suspended [14] SUSPEND = true"
	[[ $(val CpuBusyTime) == $((T0 + 200)) ]]
}

@test "STARTD_LATCH_EXPRS of a clock: its value follows the clock in every step" {
	# a slot whose decisions cannot change before the step's end is not
	# evaluated again, but a latch of a clock moves with every second
	cfg 'NUM_SLOTS = 1' 'STARTD_LATCH_EXPRS = KeyboardIdle'
	desk -c "$TMP/c.config"
	claimed $DESK $((T0 + 10)) 1.0 alice
	step $((T0 + 1000)) -c "$TMP/c.config"
	[[ $(val KeyboardIdleValue) == $(val KeyboardIdle) ]]
	[[ $(val KeyboardIdleTime) == $((T0 + 1000)) ]]
	step $((T0 + 2000)) -c "$TMP/c.config"
	[[ $(val KeyboardIdleValue) == $(val KeyboardIdle) ]]
	[[ $(val KeyboardIdleTime) == $((T0 + 2000)) ]]
}

@test "startd cron hooks: run at their PERIOD in simulated time, ads merged by SlotId, the seed's example" {
	write_file hook >/dev/null <<-'EOF'
	#!/bin/sh
	echo "Value=1"
	echo "SlotId=1"
	echo "-s1"
	echo "Value=2"
	echo "SlotId=2"
	echo "-s2"
	echo "Value=10"
	echo "Runs = \"$STARTD_STEP_TIME $*\""
	echo "Env = \"$GREETING $WHO\""
	echo "- update:true"
	EOF
	chmod +x "$TMP/hook"
	cfg 'NUM_SLOTS = 3' 'STARTD_CRON_JOBLIST = test' "STARTD_CRON_TEST_EXECUTABLE = $TMP/hook" \
	    'STARTD_CRON_TEST_PERIOD = 10m' 'STARTD_CRON_TEST_ARGS = abc 123' \
	    'STARTD_CRON_TEST_ENV = GREETING=hello;WHO=world'
	slots "$D/node.ad" -c "$TMP/c.config"
	# no shell: the arguments as written, the environment of _ENV
	[[ $(val Env slot3@node1.example.org) == '"hello world"' ]]
	# the seed: Value=10 in every slot but slot1 and slot2
	[[ $(val Value slot1@node1.example.org) == 1 && $(val Value slot2@node1.example.org) == 2 ]]
	[[ $(val Value slot3@node1.example.org) == 10 ]]
	[[ $(val Runs slot3@node1.example.org) == "\"$T0 abc 123\"" ]]
	step $((T0 + 1500)) -c "$TMP/c.config"
	[[ $(val Runs slot3@node1.example.org) == "\"$((T0 + 1200)) abc 123\"" ]]
	[[ $(val StartdCronRuns slot1@node1.example.org) == "[ test = $((T0 + 1200)) ]" ]]
	# PREFIX (LastUpdate too), SLOTS, OneShot
	cfg 'NUM_SLOTS = 3' 'STARTD_CRON_JOBLIST = test' "STARTD_CRON_TEST_EXECUTABLE = $TMP/hook" \
	    'STARTD_CRON_TEST_MODE = OneShot' 'STARTD_CRON_TEST_PREFIX = t_' 'STARTD_CRON_TEST_SLOTS = 2, 3'
	slots "$D/node.ad" -c "$TMP/c.config"
	# the prefix goes on every line, SlotId too (t_SlotId selects nothing):
	# every ad goes to slots 2 and 3, the tagged ones last
	[[ -z $(val t_Value slot1@node1.example.org) && $(val t_Value slot2@node1.example.org) == 2 ]]
	[[ $(val t_SlotId slot3@node1.example.org) == 2 ]]
	[[ $(val t_LastUpdate slot3@node1.example.org) == $T0 ]]
	step $((T0 + 7200)) -c "$TMP/c.config"
	[[ $(val t_LastUpdate slot3@node1.example.org) == $T0 ]]	# once
}

@test "startd cron hooks: bad output, a failure and a timeout are reported, never a crash; Reconfig reruns" {
	write_file bad >/dev/null <<-'EOF'
	#!/bin/sh
	echo "Good = 1"
	echo "Bad = = 2"
	echo "also bad"
	printf 'Tail = "no newline"'
	EOF
	write_file fail >/dev/null <<-'EOF'
	#!/bin/sh
	echo "it broke" >&2
	exit 3
	EOF
	write_file slow >/dev/null <<-'EOF'
	#!/bin/sh
	exec sleep 5
	EOF
	chmod +x "$TMP/bad" "$TMP/fail" "$TMP/slow"
	cfg 'NUM_SLOTS = 1' 'STARTD_CRON_JOBLIST = bad fail slow nosuch' \
	    "STARTD_CRON_BAD_EXECUTABLE = $TMP/bad" 'STARTD_CRON_BAD_MODE = OneShot' \
	    'STARTD_CRON_BAD_RECONFIG_RERUN = true' \
	    "STARTD_CRON_FAIL_EXECUTABLE = $TMP/fail" 'STARTD_CRON_FAIL_PERIOD = 1h' \
	    "STARTD_CRON_SLOW_EXECUTABLE = $TMP/slow" 'STARTD_CRON_SLOW_PERIOD = 1h' \
	    "STARTD_CRON_NOSUCH_EXECUTABLE = $TMP/nosuch" 'STARTD_CRON_NOSUCH_PERIOD = 1h' \
	    'STARTD_STEP_HOOK_TIMEOUT = 1'
	run -0 --separate-stderr startd-step --init --now $T0 -c "$TMP/c.config" "$TL/desk.ad"
	printf '%s\n' "$output" >"$TMP/slots.ads"
	[[ $stderr == *"$TMP/bad:2:1: warning: "*"(the line is left out)"* ]]
	[[ $stderr == *"$TMP/bad:3:1: warning: "* ]]
	[[ $stderr == *"$TMP/fail: warning: exited with status 3: it broke"* ]]
	[[ $stderr == *"$TMP/slow: warning: did not finish in 1 s (STARTD_STEP_HOOK_TIMEOUT): killed"* ]]
	[[ $stderr == *"$TMP/nosuch: warning: exited with status 127: cannot run $TMP/nosuch"* ]]
	[[ $(val Good) == 1 && $(val Tail) == '"no newline"' && -z $(val Bad) ]]
	# a Reconfig event: OneShot hooks with RECONFIG_RERUN run again
	ev desk.example.org Reconfig $((T0 + 60))
	step $((T0 + 120)) -c "$TMP/c.config"
	logged "22:14:20 $DESK Unclaimed/Idle: event Reconfig"
	[[ $(val StartdCronRuns) == *"bad = $((T0 + 60))"* ]]
	# configuration mistakes are errors
	cfg 'STARTD_CRON_JOBLIST = x' 'STARTD_CRON_X_EXECUTABLE = /bin/true' 'STARTD_CRON_X_MODE = Often'
	run -3 --separate-stderr startd-step --init --now $T0 -c "$TMP/c.config" "$TL/desk.ad"
	[[ $stderr == *"c.config:3:"*"unknown mode 'Often'"* ]]
	cfg 'STARTD_CRON_JOBLIST = x' 'STARTD_CRON_X_EXECUTABLE = /bin/true'
	run -3 --separate-stderr startd-step --init --now $T0 -c "$TMP/c.config" "$TL/desk.ad"
	[[ $stderr == *"a Periodic hook needs a PERIOD"* ]]
}

@test "share/hooks/maintenance: the example hook keeps jobs off a machine in its window" {
	local H=$BATS_TEST_DIRNAME/../share/hooks/maintenance
	cfg 'NUM_SLOTS = 1' 'STARTD_CRON_JOBLIST = maint' "STARTD_CRON_MAINT_EXECUTABLE = $H" \
	    'STARTD_CRON_MAINT_ARGS = 0 02:00 04:00' 'STARTD_CRON_MAINT_PERIOD = 5m' \
	    'START = InMaintenance =!= True'
	local sun=1700352000		# Sunday 2023-11-19 00:00 UTC
	cp "$TL/desk.ad" "$TMP/desk.ad"
	startd-step --init --now $sun -c "$TMP/c.config" "$TMP/desk.ad" >"$TMP/slots.ads"
	[[ $(val InMaintenance) == false ]]
	ev $DESK Claim $((sun + 3600)) "$(job 1.0 alice)"
	step $((sun + 6 * 3600)) -c "$TMP/c.config"
	# at 02:00 the hook says so and the idle claim goes (10); at 04:00 not
	logged "02:00:00 $DESK Claimed/Idle -> Preempting/Vacating [10] START = false locally"
	[[ $(val InMaintenance) == false && $(val StartdCronRuns) == "[ maint = $((sun + 6 * 3600)) ]" ]]
	run -2 sh "$H" 8 02:00 04:00
	run -0 env STARTD_STEP_TIME=$((sun + 7200)) sh "$H" '*' 02:00 04:00
	[[ $output == $'InMaintenance = true\nMaintenanceEnd = '$((sun + 4 * 3600)) ]]
	# one step or many: the same history, the hook running every 5 minutes
	startd-step --init --now $sun -c "$TMP/c.config" "$TMP/desk.ad" >"$TMP/slots.ads"
	printf 'Name = "slot1@desk.example.org"\nEvent = "Claim"\nTime = %s\n%s\n' $((sun + 3600)) \
	    "$(job 1.0 alice)" >"$TMP/m.ads"
	untraced same_history $sun $((sun + 5 * 3600)) "$TMP/m.ads" "$TMP/c.config" random
}

@test "benchmarks: BENCHMARKS_JOBLIST programs give Mips and KFlops, averaged, at startup and in Benchmarking" {
	write_file mips >/dev/null <<-'EOF'
	#!/bin/sh
	echo "Mips = $((STARTD_STEP_TIME % 1000 + 1000))"
	echo "KFlops = 2000"
	EOF
	chmod +x "$TMP/mips"
	cfg 'NUM_SLOTS = 2' 'BENCHMARKS_JOBLIST = mips' "BENCHMARKS_MIPS_EXECUTABLE = $TMP/mips" \
	    'RunBenchmarks = (time() - LastBenchmark) >= $(HOUR)'
	slots "$D/node.ad" -c "$TMP/c.config"
	# 1700000000 % 1000 = 0: Mips 1000 in both slots, once
	[[ $(val Mips slot1@node1.example.org) == 1000 && $(val Mips slot2@node1.example.org) == 1000 ]]
	[[ $(val LastBenchmark slot2@node1.example.org) == $T0 ]]
	step $((T0 + 3700)) -c "$TMP/c.config"
	logged "23:13:20 slot1@node1.example.org Unclaimed/Idle -> Unclaimed/Benchmarking [3]" \
	    "23:13:30 slot1@node1.example.org Unclaimed/Benchmarking -> Unclaimed/Idle [4] benchmarks finished (STARTD_STEP_BENCHMARK_TIME 10 s, BENCHMARKS_JOBLIST)"
	# run at T0 + 3610: 1610, averaged with 1000: (3 x 1000 + 1610) / 4
	[[ $(val Mips slot1@node1.example.org) == 1152 && $(val KFlops slot2@node1.example.org) == 2000 ]]
}

@test "the _VANILLA forms of the policy apply to vanilla jobs only" {
	cfg 'NUM_SLOTS = 2' 'WANT_SUSPEND = True' 'SUSPEND = False' \
	    'SUSPEND_VANILLA = KeyboardIdle < 60' 'CONTINUE_VANILLA = KeyboardIdle > 300'
	slots "$D/node.ad" -c "$TMP/c.config"
	claimed slot1@node1.example.org $((T0 + 10)) 1.0 alice
	ev slot2@node1.example.org Claim $((T0 + 10)) 'Job = [ ClusterId = 2; ProcId = 0; Owner = "bob"; JobUniverse = 7; RequestCpus = 1; RequestMemory = 1; RequestDisk = 1 ]'
	ev slot2@node1.example.org Activate $((T0 + 10))
	ev node1.example.org MachineUpdate $((T0 + 100)) 'KeyboardIdle = 0'
	step $((T0 + 200)) -c "$TMP/c.config"
	logged "slot1@node1.example.org Claimed/Busy -> Claimed/Suspended [14] SUSPEND_VANILLA = true"
	is slot2@node1.example.org Claimed/Busy
	[[ $(val SUSPEND_VANILLA) == "KeyboardIdle < 60" ]]
	step $((T0 + 500)) -c "$TMP/c.config"
	logged "slot1@node1.example.org Claimed/Suspended -> Claimed/Busy [15] CONTINUE_VANILLA = true"
}

# ---- the seeds' worked examples ----

@test "seed: coltrane's START && Owner == \"coltrane\" keeps tenorsax in Owner (Owner is undefined)" {
	slots "$D/quartet.ads" -c "$D/coltrane-and.config"
	step $T0 -c "$D/coltrane-and.config"
	[[ $stderr != *"[1]"* ]]
	is slot1@tenorsax.example.org Owner/Idle
	run -0 startd-step -c "$D/coltrane-and.config" --now $T0 --why slot1@tenorsax.example.org \
	    "$TMP/slots.ads"
	[[ $output == *"In Owner/Idle the startd evaluates:"* ]]
	[[ $output == *"  START = false"* && $output == *"  IS_OWNER = true"* ]]
	[[ $output == *"Owner == \"coltrane\"  (not evaluated)"* ]]
	[[ $output == *"KeyboardIdle  =>  34"* ]]
}

@test "seed: FALSE || UNDEFINED is UNDEFINED, so tenorsax becomes Unclaimed for coltrane" {
	run -0 classad-eval 'false || undefined'
	[[ $output == undefined ]]
	slots "$D/quartet.ads" -c "$D/coltrane-or.config"
	step $T0 -c "$D/coltrane-or.config"
	logged "slot1@tenorsax.example.org Owner/Idle -> Unclaimed/Idle [1] IS_OWNER = false"
	run -0 startd-step -c "$D/coltrane-or.config" --now $T0 --why slot1@tenorsax.example.org \
	    "$TMP/slots.ads"
	[[ $output == *"  START = undefined"* && $output == *"  IS_OWNER = false"* ]]
	# not available to just anybody: coltrane's claim holds, another user's is refused
	ev slot1@tenorsax.example.org Claim $((T0 + 10)) "$(job 1.0 tyner)"
	ev slot1@piano.example.org Claim $((T0 + 10)) "$(job 2.0 coltrane)"
	step $((T0 + 20)) -c "$D/coltrane-or.config"
	logged "slot1@tenorsax.example.org Unclaimed/Idle: event Claim: job 1.0 of tyner@example.org: the claim is refused (START = false for this job)" \
	    "slot1@piano.example.org Unclaimed/Idle -> Claimed/Idle [5] event Claim: job 2.0 of coltrane@example.org"
	is slot1@tenorsax.example.org Unclaimed/Idle
}

@test "seed: Jimmy Garrison's RANK on bass: Elvin Jones preempts a stranger, Jimmy preempts Elvin" {
	slots "$D/quartet.ads" -c "$D/bass.config"
	claimed $BASS $((T0 + 10)) 1.0 alice
	ev $BASS Match $((T0 + 100)) "$(job 2.0 jones)" 'MatchReason = "Rank"' 'PreemptedJobId = "1.0"' \
	    'PreemptedUser = "alice@example.org"'
	ev $BASS Claim $((T0 + 101))
	ev $BASS StarterExit $((T0 + 105))
	ev $BASS Activate $((T0 + 106))
	step $((T0 + 200)) -c "$D/bass.config"
	logged "event Match: job 2.0 of jones@example.org (Rank): a preempting match (RANK 1, CurrentRank 0)" \
	    "the preempting claim of jones@example.org is accepted (RANK preemption: RANK 1 > CurrentRank 0)" \
	    "$BASS Claimed/Busy -> Claimed/Retiring [13] retiring: preempting claim" \
	    "$BASS Claimed/Retiring -> Preempting/Vacating [18]" \
	    "$BASS Preempting/Vacating -> Claimed/Idle [23]" \
	    "$BASS Claimed/Idle -> Claimed/Busy [11] event Activate: job 2.0 of jones@example.org"
	[[ $(val CurrentRank $BASS) == 1.0 && $(val RemoteOwner $BASS) == '"jones"' ]]
	ev $BASS Match $((T0 + 300)) "$(job 3.0 garrison)" 'MatchReason = "Rank"'
	ev $BASS Claim $((T0 + 301))
	ev $BASS StarterExit $((T0 + 305))
	ev $BASS Activate $((T0 + 306))
	ev $BASS Match $((T0 + 400)) "$(job 4.0 coltrane)" 'MatchReason = "Rank"'
	ev $BASS Claim $((T0 + 401))
	step $((T0 + 500)) -c "$D/bass.config"
	logged "accepted (RANK preemption: RANK 10 > CurrentRank 1)" \
	    "$BASS Preempting/Vacating -> Claimed/Idle [23] event StarterExit; the preempting claim of garrison@example.org takes the slot" \
	    "the preempting claim of coltrane@example.org is refused (RANK 1 < CurrentRank 10)"
	is $BASS Claimed/Busy
	[[ $(val CurrentRank $BASS) == 10.0 && $(val RemoteUser $BASS) == '"garrison@example.org"' ]]
	[[ $(val JobId $BASS) == '"3.0"' && -z $(val PreemptingJob $BASS) ]]
}

@test "seed: equal RANK is the negotiator's priority preemption, accepted too" {
	slots "$D/quartet.ads" -c "$D/bass.config"
	claimed $BASS $((T0 + 10)) 1.0 alice
	ev $BASS Match $((T0 + 100)) "$(job 2.0 bob)" 'MatchReason = "Priority"' 'RemoteUserPrio = 0.5'
	ev $BASS Claim $((T0 + 101))
	step $((T0 + 110)) -c "$D/bass.config"
	logged "accepted (priority preemption: RANK 0 = CurrentRank 0)"
	[[ $(val PreemptingUser $BASS) == '"bob@example.org"' && $(val PreemptingUserPrio $BASS) == 0.5 ]]
}

@test "seed: the test-job policy runs coltrane's jobs whatever the keyboard does" {
	cfg 'IS_OWNER = (START =?= False)' 'NUM_SLOTS = 1'
	slots "$D/quartet.ads" -c "$P/default-v6.config" -c "$P/test-job.config" -c "$TMP/c.config"
	ev slot1@tenorsax.example.org Claim $((T0 + 10)) "$(job 1.0 coltrane)"
	ev slot1@tenorsax.example.org Activate $((T0 + 11))
	ev slot1@piano.example.org Claim $((T0 + 10)) "$(job 2.0 alice)"
	step $((T0 + 60)) -c "$P/default-v6.config" -c "$P/test-job.config" -c "$TMP/c.config"
	logged "slot1@tenorsax.example.org Unclaimed/Idle -> Claimed/Idle [5]" \
	    "slot1@piano.example.org Unclaimed/Idle: event Claim: job 2.0 of alice@example.org: the claim is refused (START = false for this job)"
	is slot1@tenorsax.example.org Claimed/Busy
	[[ $(val KeyboardIdle slot1@tenorsax.example.org) == 94 ]]
	run -0 startd-step -c "$P/default-v6.config" -c "$P/test-job.config" -c "$TMP/c.config" \
	    --now $((T0 + 60)) --why slot1@tenorsax.example.org "$TMP/slots.ads"
	[[ $output == *"SUSPEND = false   (job as TARGET)"* ]]
}

@test "seed: a partitionable slot of 10 cpus carves Slot1_1 for JobA, and gets it back" {
	printf 'Name = "big.example.org"\nCpus = 10\nMemory = 10240\nDisk = 1000000000\n' >"$TMP/big.ad"
	slots "$TMP/big.ad"
	P1=slot1@big.example.org
	ev $P1 Match $((T0 + 10)) "$(job 1.0 alice 'RequestCpus = 3; RequestMemory = 1024; RequestDisk = 10240')"
	ev $P1 Claim $((T0 + 11)) 'JobId = "1.0"'
	ev $P1 Activate $((T0 + 12)) 'JobId = "1.0"'
	ev $P1 Match $((T0 + 20)) "$(job 2.0 bob 'RequestCpus = 1; RequestMemory = 1000; RequestDisk = 100')"
	step $((T0 + 30))
	logged "slot1_1@big.example.org Unclaimed/Idle: dynamic slot created from $P1 for job 1.0: Cpus 3, Memory 1024, Disk 10240" \
	    "slot1_1@big.example.org Unclaimed/Idle -> Matched/Idle [6]" \
	    "slot1_1@big.example.org Matched/Idle -> Claimed/Idle [9]" \
	    "slot1_1@big.example.org Claimed/Idle -> Claimed/Busy [11]" \
	    "slot1_2@big.example.org Unclaimed/Idle: dynamic slot created from $P1 for job 2.0: Cpus 1, Memory 1024, Disk 1024"
	[[ $(val Cpus $P1) == 6 && $(val Memory $P1) == 8192 && $(val Disk $P1) == 999988736 ]]
	is $P1 Unclaimed/Idle
	[[ $(val SlotType slot1_1@big.example.org) == '"Dynamic"' && $(val DynamicSlot slot1_1@big.example.org) == true ]]
	[[ $(val TotalSlotCpus slot1_1@big.example.org) == 3 && $(val SlotID slot1_1@big.example.org) == 1 ]]
	[[ -z $(val PartitionableSlot slot1_1@big.example.org) ]]
	# the job exits, the schedd releases the claim: the resources go back
	ev $P1 JobExit $((T0 + 100)) 'JobId = "1.0"'
	ev slot1_1@big.example.org Release $((T0 + 101))
	step $((T0 + 300))
	logged "slot1_1@big.example.org Claimed/Busy -> Claimed/Idle [12] event JobExit" \
	    "slot1_1@big.example.org Preempting/Vacating -> Owner/Idle [22]" \
	    "slot1_1@big.example.org Owner/Idle: dynamic slot deleted: Cpus 3, Memory 1024, Disk 10240 go back to $P1" \
	    "slot1_2@big.example.org Matched/Idle -> Owner/Idle [8] MATCH_TIMEOUT"
	[[ $(val Cpus $P1) == 10 && $(val Memory $P1) == 10240 && $(val Disk $P1) == 1000000000 ]]
	[[ $(grep -c '^Name = ' "$TMP/slots.ads") == 1 ]]
	# the lowest free id again
	ev $P1 Claim $((T0 + 310)) "$(job 3.0 carol)"
	step $((T0 + 320))
	logged "slot1_1@big.example.org Unclaimed/Idle -> Claimed/Idle [5]"
}

@test "p-slots: MODIFY_REQUEST_EXPR_*, requests that do not fit, events routed by JobId" {
	cfg 'MODIFY_REQUEST_EXPR_REQUESTMEMORY = quantize(RequestMemory, {4096})'
	slots "$D/node.ad" -c "$TMP/c.config"
	N=slot1@node1.example.org
	ev $N Match $((T0 + 10)) "$(job 1.0 alice 'RequestMemory = 100')"
	ev $N Match $((T0 + 10)) "$(job 2.0 alice 'RequestCpus = 16')"
	ev $N Match $((T0 + 10)) "$(job 3.0 alice 'RequestMemory = undefined')"
	ev $N Match $((T0 + 10)) "$(job 4.0 alice 'RequestDisk = -5000')"
	ev $N Activate $((T0 + 20)) 'JobId = "9.9"'
	disk=$(val Disk $N)
	step $((T0 + 30)) -c "$TMP/c.config"
	logged "for job 1.0: Cpus 1, Memory 4096, Disk 1024" \
	    "$N Unclaimed/Idle: event Match ignored in Unclaimed/Idle: no dynamic slot: WithinResourceLimits = false for this job" \
	    "no dynamic slot: WithinResourceLimits = undefined for this job" \
	    "no dynamic slot: the job asks for a negative RequestDisk (-5000)" \
	    "$N Unclaimed/Idle: event Activate ignored in Unclaimed/Idle: no dynamic slot of this partitionable slot runs the job it names (JobId)"
	[[ $(val Memory $N) == 12288 ]]
	# a negative request gives nothing back to the partitionable slot
	[[ -n $disk && $(val Disk $N) -le $disk ]]
}

@test "p-slots: draining a machine waits for its dynamic slots, then the p-slot is drained" {
	cfg 'MAXJOBRETIREMENTTIME = 3600'
	slots "$D/node.ad" -c "$TMP/c.config"
	N=slot1@node1.example.org
	claimed $N $((T0 + 10)) 1.0 alice
	ev node1.example.org Drain $((T0 + 100))
	step $((T0 + 200)) -c "$TMP/c.config"
	logged "$N Unclaimed/Idle -> Drained/Retiring [37] draining" \
	    "slot1_1@node1.example.org Claimed/Busy -> Claimed/Retiring [13] retiring: draining"
	is $N Drained/Retiring
	ev $N JobExit $((T0 + 300)) 'JobId = "1.0"'
	step $((T0 + 400)) -c "$TMP/c.config"
	logged "slot1_1@node1.example.org Claimed/Retiring -> Preempting/Vacating [18] event JobExit" \
	    "dynamic slot deleted: Cpus 1, Memory 1024, Disk 1024 go back to $N" \
	    "22:18:20 $N Drained/Retiring -> Drained/Idle [33] every slot of the machine is drained"
	[[ $(val Cpus $N) == 8 ]]
}

# ---- each shipped policy over a timeline ----

# tl GOLDEN EVENTS MACHINE START SECONDS EVERY CONFIG...: the timeline of a
# policy from START for SECONDS, a step every EVERY seconds, against
# tests/golden/startd-step/GOLDEN.out
tl() {
	local name=$1 evf=$2 mach=$3 start=$4 len=$5 every=$6
	shift 6
	local c=() f
	for f; do c+=(-c "$f"); done
	startd-step --init --now "$start" "${c[@]}" "$mach" >"$TMP/slots.ads" 2>/dev/null || true
	run --separate-stderr startd-step "${c[@]}" --now "$start" --until $((start + len)) \
	    --every "$every" -e "$evf" "$TMP/slots.ads"
	check_golden "startd-step/$name"
}

@test "policy default.config (seed 001): preemption off, the typing owner is ignored" {
	tl default "$TL/typing.ads" "$TL/desk.ad" $T0 1500 60 "$P/default.config" "$D/static.config"
	[[ $status == 0 ]]
	[[ $output != *Suspended* ]]
}

@test "policy default-v6.config (seed 000): suspend on the keyboard, continue when idle" {
	tl default-v6 "$TL/typing.ads" "$TL/desk.ad" $T0 1500 60 "$P/default-v6.config" "$D/static.config"
	[[ $status == 0 ]]
	[[ $output == *"[14] SUSPEND = true"* && $output == *"[15] CONTINUE = true"* ]]
}

@test "policy default-v6.config: twelve minutes of typing preempt, vacate, kill" {
	tl default-v6-long "$TL/typing-long.ads" "$TL/desk.ad" $T0 2400 60 "$P/default-v6.config" \
	    "$D/static.config"
	[[ $output == *"[16] PREEMPT = true"* && $output == *"[18]"* && $output == *"[21]"* ]]
	[[ $output == *"[25] KILLING_TIMEOUT"* ]]
}

@test "policy test-job.config (seed 001): coltrane's job is never suspended" {
	sed 's/Owner = "alice"; User = "alice@example.org"/Owner = "coltrane"; User = "coltrane@example.org"/; s/alice@example.org/coltrane@example.org/' \
	    "$TL/typing.ads" >"$TMP/coltrane.ads"
	tl test-job "$TMP/coltrane.ads" "$TL/desk.ad" $T0 1500 60 "$P/default-v6.config" \
	    "$P/test-job.config" "$D/static.config"
	[[ $status == 0 && $output != *Suspended* ]]
	[[ $output == *"SUSPEND = false"* ]]
}

@test "policy time-of-day.config (seed 001): no new job in work hours" {
	tl time-of-day "$D/workday.ads" "$TL/desk.ad" 1700034000 2400 300 "$P/default.config" \
	    "$P/time-of-day.config" "$D/static.config"
	# the seed: an idle claim goes (10), a match goes back to Owner (8),
	# when START locally evaluates to FALSE
	[[ $output == *"08:05:00 slot1@desk.example.org Claimed/Idle -> Preempting/Vacating [10] START = false locally (without a job)"* ]]
	[[ $output == *"08:10:00 slot1@desk.example.org Matched/Idle -> Owner/Idle [8] START = false locally (without a job)"* ]]
}

@test "transition 10 at 08:00 sharp: an idle claim in work hours, one step from 07:50 to noon" {
	desk -c "$P/default.config" -c "$P/time-of-day.config"
	ev $DESK Claim 1700034600 "$(job 1.0 alice)"	# Wednesday 07:50
	step 1700049600 -c "$P/default.config" -c "$P/time-of-day.config"	# 12:00
	logged "07:50:00 $DESK Unclaimed/Idle -> Claimed/Idle [5]" \
	    "08:00:00 $DESK Claimed/Idle -> Preempting/Vacating [10] START = false locally (without a job)" \
	    "08:00:00 $DESK Preempting/Vacating -> Owner/Idle [22] no job to evict"
	is $DESK Unclaimed/Idle
}

@test "policy time-of-day-v6.config (seed 000): the same on top of the old default" {
	tl time-of-day-v6 "$D/workday.ads" "$TL/desk.ad" 1700034000 2400 300 "$P/default-v6.config" \
	    "$P/time-of-day-v6.config" "$D/static.config"
	[[ $status == 0 ]]
}

@test "policy desktop.config (seed 001): on a desktop, suspend and continue; elsewhere nothing" {
	tl desktop "$TL/typing.ads" "$TL/desk.ad" $T0 1500 60 "$P/desktop.config" \
	    "$P/desktop-local.config" "$D/static.config"
	[[ $output == *"[14] SUSPEND = true"* && $output == *"[15] CONTINUE = true"* ]]
	tl desktop-node "$TL/typing.ads" "$TL/desk.ad" $T0 1500 60 "$P/desktop.config" \
	    "$D/static.config"
	[[ $output != *Suspended* ]]
}

@test "policy desktop-v6.config (seed 000): the desktop policy with STARTD_EXPRS" {
	tl desktop-v6 "$TL/typing-long.ads" "$TL/desk.ad" $T0 2400 60 "$P/desktop-v6.config" \
	    "$P/desktop-local.config" "$D/static.config"
	[[ $output == *"[14] SUSPEND = true"* && $output == *"[16] PREEMPT = true"* ]]
}

@test "policy max-retirement.config (seed 000): a preempted job retires for up to two days" {
	tl max-retirement "$TL/typing-long.ads" "$TL/desk.ad" $T0 2400 120 "$P/default-v6.config" \
	    "$P/max-retirement.config" "$D/static.config"
	[[ $output == *"[16] PREEMPT = true"* ]]
	[[ $output != *"[18]"* ]]
}

@test "policy disable-preemption.config (seed 000): suspended, never preempted" {
	tl disable-preemption "$TL/typing-long.ads" "$TL/desk.ad" $T0 2400 120 "$P/default-v6.config" \
	    "$P/disable-preemption.config" "$D/static.config"
	[[ $output == *"[14] SUSPEND = true"* && $output != *"[16]"* && $output != *Preempting* ]]
}

@test "policy job-suspension.config (seed 001): the seed's missing ')' is reported, the rest runs" {
	tl job-suspension "$D/suspension.ads" "$TL/desk.ad" $T0 1200 60 "$P/job-suspension.config" \
	    "$P/static-slots.config"
	[[ $status == 3 ]]
	[[ $stderr == *"job-suspension.config:17:"*"NonSuspendableSlotState"*"not published"* ]]
	[[ $output != *Suspended* ]]
	# with the parenthesis added, slot2 makes way for slot1's job
	printf '%s\n' 'NonSuspendableSlotState = eval(strcat("slot",SlotID-$(DETECTED_CORES),"_State"))' \
	    >"$TMP/fix.config"
	tl job-suspension-fixed "$D/suspension.ads" "$TL/desk.ad" $T0 1200 60 \
	    "$P/job-suspension.config" "$P/static-slots.config" "$TMP/fix.config"
	[[ $status == 0 ]]
	[[ $output == *"slot2@desk.example.org Claimed/Busy -> Claimed/Suspended [14] SUSPEND = true"* ]]
	[[ $output == *"slot2@desk.example.org Claimed/Suspended -> Claimed/Busy [15] CONTINUE = true"* ]]
}

@test "policy job-suspension-v6.config (seed 000): VM2 suspends while VM1 is busy" {
	tl job-suspension-v6 "$D/suspension.ads" "$TL/desk.ad" $T0 1200 60 "$P/default-v6.config" \
	    "$P/job-suspension-v6.config" "$P/job-suspension-v6-local.config" "$P/static-slots.config"
	[[ $status == 0 ]]
	[[ $output == *"slot2@desk.example.org Claimed/Busy -> Claimed/Suspended [14] SUSPEND = true"* ]]
	[[ $output == *"slot2@desk.example.org Claimed/Suspended -> Claimed/Busy [15] CONTINUE = true"* ]]
}

@test "policy backfill.config (seed 001): backfill after five idle minutes, evicted by the owner" {
	tl backfill "$D/idle-typing.ads" "$TL/desk.ad" $T0 1500 60 "$P/backfill.config" \
	    "$D/static.config"
	[[ $output == *"[7] START_BACKFILL = true"* && $output == *"[28] EVICT_BACKFILL = true"* ]]
	[[ $output == *"[30]"* ]]
}

@test "share/timeline: the desktop policy and an owner typing for two minutes" {
	local tdir=$BATS_TEST_DIRNAME/../share/timeline
	run -0 sh -c "cd '$tdir' && PATH='$CA_BIN':\$PATH sh ./run.sh"
	check_golden startd-step/share-timeline
	[[ $output == *"[14] SUSPEND = true"* && $output == *"[15] CONTINUE = true"* ]]
}

@test "--chart: the timeline as a strip chart, a letter per step, the legend of the letters used" {
	local c=(-c "$P/desktop.config" -c "$P/desktop-local.config" -c "$TL/desk.config")
	startd-step --init "${c[@]}" --now $T0 "$TL/desk.ad" >"$TMP/slots.ads"
	run -0 --separate-stderr startd-step "${c[@]}" --now $T0 --until $((T0 + 2400)) --every 60 \
	    -e "$TL/typing-long.ads" --chart "$TMP/slots.ads"
	check_golden startd-step/chart-desktop
	# the same letters as the lines say, step by step
	run -0 --separate-stderr startd-step "${c[@]}" --now $T0 --until $((T0 + 2400)) --every 60 \
	    -e "$TL/typing-long.ads" "$TMP/slots.ads"
	local want
	want=$(printf '%s\n' "$output" | sed -n 's/^.*  slot1@desk.example.org is \([A-Za-z]*\/[A-Za-z]*\).*/\1/p' |
	    sed 's,^Unclaimed/Idle$,.,; s,^Claimed/Busy$,#,; s,^Claimed/Suspended$,s,; s,^Preempting/Vacating$,v,' |
	    tr -d '\n')
	run -0 startd-step "${c[@]}" --now $T0 --until $((T0 + 2400)) --every 60 \
	    -e "$TL/typing-long.ads" --chart "$TMP/slots.ads"
	[[ ${#want} -eq 41 && ${lines[2]} == "slot1@desk.example.org $want" ]]
	run -2 --separate-stderr startd-step --chart "$TMP/slots.ads"
	[[ $stderr == *"--chart draws a timeline"* ]]
}

@test "--chart: a dynamic slot gets its row when it is carved, blank before and after" {
	printf 'Name = "big.example.org"\nCpus = 10\nMemory = 10240\nDisk = 1000000000\n' >"$TMP/big.ad"
	slots "$TMP/big.ad"
	P1=slot1@big.example.org
	ev $P1 Match $((T0 + 130)) "$(job 1.0 alice 'RequestCpus = 3')"
	ev $P1 Claim $((T0 + 131)) 'JobId = "1.0"'
	ev $P1 Activate $((T0 + 132)) 'JobId = "1.0"'
	ev $P1 JobExit $((T0 + 400)) 'JobId = "1.0"'
	ev slot1_1@big.example.org Release $((T0 + 401))
	run -0 --separate-stderr startd-step --now $T0 --until $((T0 + 600)) --every 60 \
	    -e "$TMP/ev.ads" --chart "$TMP/slots.ads"
	[ "${lines[1]}" = "time                    |22:13    |22:23" ]
	[ "${lines[2]}" = "slot1@big.example.org   ..........." ]
	[ "${lines[3]}" = "slot1_1@big.example.org    ####" ]
	[ "${lines[4]}" = "                        . Unclaimed, # Claimed/Busy" ]
}

# ---- streams, options and errors ----

@test "startd-step: an event for an unknown slot is reported where it is, exit 3, nothing lost" {
	desk
	ev slot9@desk.example.org Match $((T0 + 10)) "$(job 1.0 alice)"
	ev slot1@nowhere.example.org Vacate $((T0 + 10))
	ev desk.example.org Match $((T0 + 10)) "$(job 2.0 alice)"
	cp "$TMP/ev.ads" "$TMP/events"
	run -3 --separate-stderr startd-step --now $((T0 + 20)) -e "$TMP/events" "$TMP/slots.ads"
	[[ $stderr == *"startd-step: $TMP/events:1:1: no slot named slot9@desk.example.org (event Match)"* ]]
	[[ $stderr == *"$TMP/events:6:1: no slot named slot1@nowhere.example.org (event Vacate)"* ]]
	[[ $stderr == *"$TMP/events:10:1: no slot named desk.example.org (event Match)"* ]]
	[[ $(printf '%s\n' "$output" | grep -c '^Name = ') == 1 ]]
}

@test "startd-step: malformed events are reported and skipped (exit 3)" {
	desk
	printf 'Name = "%s"\nTime = 5\n\nName = "%s"\nEvent = "Explode"\n\nEvent = "Vacate"\n\nName = "%s"\nEvent = "Vacate"\nTime = "soon"\n\nName = "%s"\nEvent = "Match"\nJob = "1.0"\n\n' \
	    $DESK $DESK $DESK $DESK >"$TMP/events"
	run -3 --separate-stderr startd-step --now $T0 -e "$TMP/events" "$TMP/slots.ads"
	[[ $stderr == *"events:1:1: an event needs an Event attribute"* ]]
	[[ $stderr == *"events:4:1: unknown event \"Explode\""* ]]
	[[ $stderr == *"events:7:1: a Vacate event needs the Name of a slot"* ]]
	[[ $stderr == *"events:9:1: Time must be a number"* ]]
	[[ $stderr == *"events:13:1: a Match event (a match record) carries the job as Job = [ ... ]"* ]]
	[[ $output == *'State = "Unclaimed"'* ]]
}

@test "startd-step: events after --now wait, events without Time happen at --now" {
	desk
	ev $DESK Match $((T0 + 100)) "$(job 1.0 alice)"
	printf 'Name = "%s"\nEvent = "MachineUpdate"\nKeyboardIdle = 7\n' $DESK >>"$TMP/ev.ads"
	step $((T0 + 50))
	[[ $status == 0 ]]
	[[ $stderr == *"event Match for $DESK at $((T0 + 100)) is after --now ($((T0 + 50))): not applied"* ]]
	logged "22:14:10 $DESK Unclaimed/Idle: event MachineUpdate: KeyboardIdle = 7"
	is $DESK Unclaimed/Idle
}

@test "startd-step: a slot ad the state machine cannot run passes through unchanged" {
	desk
	sed -i 's/^State = .*/State = "Confused"/' "$TMP/slots.ads"
	cp "$TMP/slots.ads" "$TMP/before"
	run -3 --separate-stderr startd-step --now $T0 "$TMP/slots.ads"
	[[ $stderr == *"slots.ads:1:1: $DESK: unknown State \"Confused\" (the ad is passed through unchanged)"* ]]
	[[ $output == "$(cat "$TMP/before")" ]]
	sed -i 's/^State = .*/State = "Owner"/; s/^Activity = .*/Activity = "Busy"/' "$TMP/slots.ads"
	run -3 --separate-stderr startd-step --now $T0 "$TMP/slots.ads"
	[[ $stderr == *"Owner/Busy is not a state and activity of a startd"* ]]
	# the timeline and --why show such a slot as its ad has it
	sed -i 's/^State = .*/State = "Confused"/; /^Activity = /d' "$TMP/slots.ads"
	run -3 --separate-stderr startd-step --now $T0 --until $((T0 + 60)) --every 60 "$TMP/slots.ads"
	[[ $(printf '%s\n' "$output" | head -1) == *"  $DESK is Confused/?" ]]
	run -3 --separate-stderr startd-step --now $T0 --why $DESK "$TMP/slots.ads"
	[[ $output == "$DESK is Confused/?: not a slot startd-step can run"* ]]
}

@test "startd-step: unknown attributes and the attribute order survive a step" {
	desk
	sed -i '1a Zebra = "stripes"\nAardvark = 42' "$TMP/slots.ads"
	step $((T0 + 60))
	[[ $(printf '%s\n' "$output" | sed -n 2,3p | tr '\n' ' ') == 'Zebra = "stripes" Aardvark = 42 ' ]]
	[[ $(printf '%s\n' "$output" | head -1) == "Name = \"$DESK\"" ]]
}

@test "startd-step: formats in and out (new, json, xml, gzip) give the same slots" {
	desk
	claimed $DESK $((T0 + 10)) 1.0 alice
	cp "$TMP/ev.ads" "$TMP/events"
	run -0 startd-step --now $((T0 + 60)) -e "$TMP/events" "$TMP/slots.ads"
	printf '%s\n' "$output" >"$TMP/long.out"
	for f in new json xml; do
		run -0 startd-step --now $T0 -o $f "$TMP/slots.ads"
		printf '%s\n' "$output" >"$TMP/slots.$f"
		run -0 startd-step --now $((T0 + 60)) -e "$TMP/events" "$TMP/slots.$f"
		diff <(printf '%s\n' "$output") "$TMP/long.out"
	done
	startd-step --now $T0 -z "$TMP/slots.ads" >"$TMP/slots.gz"
	[[ $(head -c 2 "$TMP/slots.gz" | od -An -tx1 | tr -d ' ') == 1f8b ]]
	gzip -c "$TMP/events" >"$TMP/events.gz"
	run -0 startd-step --now $((T0 + 60)) -e "$TMP/events.gz" "$TMP/slots.gz"
	diff <(printf '%s\n' "$output") "$TMP/long.out"
	# the job travels inside the slot ad, in every format
	run -0 startd-step --now $((T0 + 60)) -e "$TMP/events" -o json "$TMP/slots.ads"
	[[ $output == *'"Job": {'* ]]
}

@test "startd-step: a pipeline is the same as one run (the state is all in the ads)" {
	desk
	claimed $DESK $((T0 + 10)) 1.0 alice
	mv "$TMP/ev.ads" "$TMP/first"
	ev $DESK JobExit $((T0 + 500))
	mv "$TMP/ev.ads" "$TMP/second"
	run -0 startd-step --now $((T0 + 1000)) -e "$TMP/first" -e "$TMP/second" "$TMP/slots.ads"
	local once=$output
	run -0 sh -c "startd-step --now $((T0 + 100)) -e '$TMP/first' '$TMP/slots.ads' |
	    startd-step --now $((T0 + 700)) -e '$TMP/second' - | startd-step --now $((T0 + 1000))"
	[[ $output == "$once" ]]
	# a late event happens at the slot's own time, and says so
	ev $DESK Vacate $((T0 + 50))
	printf '%s\n' "$once" >"$TMP/slots.ads"
	step $((T0 + 1100))
	logged "22:30:00 $DESK Claimed/Idle: event Vacate at 2023-11-14 22:14:10 comes after the slot's time: applied now"
}

@test "startd-step: -l appends the log to a file; -v writes it to stderr" {
	desk
	run -0 --separate-stderr startd-step --now $T0 -l "$TMP/log" "$TMP/slots.ads"
	[[ -z $stderr ]]
	run -0 startd-step --now $T0 -l "$TMP/log" "$TMP/slots.ads"
	[[ $(grep -c '\[1\] IS_OWNER = false' "$TMP/log") == 2 ]]
	run -4 --separate-stderr startd-step --now $T0 -l "$TMP/no/such/log" "$TMP/slots.ads"
	[[ $stderr == *"cannot open the log"* ]]
}

@test "startd-step --state: the slots file is rewritten atomically, a bad file is left alone" {
	run -4 --separate-stderr startd-step --state "$TMP/pool.ads" --now $T0
	[[ $stderr == *"no such state file (--init creates one)"* ]]
	run -0 startd-step --init --state "$TMP/pool.ads" -c "$D/static.config" --now $T0 "$TL/desk.ad"
	[[ -z $output ]]
	grep -q 'State = "Owner"' "$TMP/pool.ads"
	ev $DESK Match $((T0 + 10)) "$(job 1.0 alice)"
	run -0 startd-step --state "$TMP/pool.ads" --now $((T0 + 20)) -e "$TMP/ev.ads" -o json
	[[ -z $output ]]
	grep -q '"State": "Matched"' "$TMP/pool.ads"
	run -0 startd-step --state "$TMP/pool.ads" --now $((T0 + 300))
	grep -q '"State": "Unclaimed"' "$TMP/pool.ads"	# keeps its format
	[[ -e $TMP/pool.ads.lock && ! -e $TMP/.pool.ads.* ]]
	printf '[ Name = "broken"; State = ]\n' >>"$TMP/pool.ads"
	cp "$TMP/pool.ads" "$TMP/before"
	run -3 --separate-stderr startd-step --state "$TMP/pool.ads" --now $((T0 + 400))
	[[ $stderr == *"not rewritten"* ]]
	cmp "$TMP/pool.ads" "$TMP/before"
	run -2 --separate-stderr startd-step --state "$TMP/pool.ads" "$TMP/other"
}

@test "startd-step --why: the state, what is evaluated there, the timers; exit 1 for no such slot" {
	cfg 'use POLICY : Desktop' 'NUM_SLOTS = 1'
	desk -c "$TMP/c.config"
	ev $DESK Match $((T0 + 10)) "$(job 1.0 alice)"
	cp "$TMP/ev.ads" "$TMP/events"
	run -0 startd-step -c "$TMP/c.config" --now $((T0 + 30)) -e "$TMP/events" --why $DESK \
	    "$TMP/slots.ads"
	[[ $output == "$DESK is Matched/Idle at 2023-11-14 22:13:50"* ]]
	[[ $output == *"in Matched since 2023-11-14 22:13:30 (20 s)"* ]]
	[[ $output == *"claim: job 1.0 of alice@example.org (TARGET of the policy)"* ]]
	[[ $output == *"  IS_OWNER = false"* && $output == *"none of them changes the state"* ]]
	[[ $output == *"Timer: MATCH_TIMEOUT: back to Owner [8] at 2023-11-14 22:15:30 (in 100 s)"* ]]
	[[ $output == *"START =?= false  =>  true"* || $output == *"START =?= false  =>  false"* ]]
	run -1 --separate-stderr startd-step --now $T0 --why slot7@desk.example.org "$TMP/slots.ads"
	[[ $stderr == "startd-step: no slot named slot7@desk.example.org" ]]
}

@test "startd-step: --auto-claim plays the schedd: claim, activate, release after the job" {
	slots "$D/node.ad"
	N=slot1@node1.example.org
	ev $N Match $((T0 + 10)) "$(job 1.0 alice)" 'Submitter = "alice@example.org"' 'RemoteUserPrio = 1.5'
	ev $N JobExit $((T0 + 100)) 'JobId = "1.0"'
	step $((T0 + 200)) -a
	logged "slot1_1@node1.example.org Matched/Idle -> Claimed/Idle [9] auto-claim: the schedd claims the match" \
	    "slot1_1@node1.example.org Claimed/Idle -> Claimed/Busy [11] auto-claim: the schedd starts the claim's job" \
	    "slot1_1@node1.example.org Claimed/Idle -> Preempting/Vacating [10] auto-claim: the job is done, the schedd releases the claim"
	[[ $(grep -c '^Name = ' "$TMP/slots.ads") == 1 && $(val Cpus) == 8 ]]
}

@test "startd-step: negotiate's match records are Match events as they are" {
	desk
	cat >"$TMP/matches" <<-EOM
	Event = "Match"
	Time = $((T0 + 5))
	Name = "$DESK"
	JobId = "17.3"
	Submitter = "alice@example.org"
	MatchReason = "NoPreemption"
	JobRank = 3.0
	SlotRank = 0.0
	RemoteUserPrio = 0.75
	Job = [ ClusterId = 17; ProcId = 3; Owner = "alice"; User = "alice@example.org"; RequestCpus = 1; RequestMemory = 512; RequestDisk = 100; Requirements = TARGET.Cpus > 0 ]
	EOM
	run -0 --separate-stderr startd-step -v -a --now $((T0 + 10)) -e "$TMP/matches" "$TMP/slots.ads"
	[[ $stderr == *"[6] event Match: job 17.3 of alice@example.org (NoPreemption)"* ]]
	[[ $stderr == *"[11] auto-claim"* ]]
	printf '%s\n' "$output" >"$TMP/slots.ads"
	[[ $(val JobId) == '"17.3"' && $(val RemoteUserPrio) == 0.75 && $(val RemoteUser) == '"alice@example.org"' ]]
}

@test "startd-step: shutdown graceful retires jobs, fast kills them, peaceful waits for them" {
	cfg 'NUM_SLOTS = 1' 'MAXJOBRETIREMENTTIME = 100'
	for mode in graceful fast peaceful; do
		desk -c "$TMP/c.config"
		claimed $DESK $((T0 + 10)) 1.0 alice
		ev desk.example.org Shutdown $((T0 + 20)) "Mode = \"$mode\""
		step $((T0 + 1000)) -c "$TMP/c.config"
		[[ $(val ShutdownMode) == "\"$mode\"" && $(val Requirements) == false ]]
		case $mode in
		graceful) logged "[13] retiring: shutdown" "[18] retirement (shutdown) is over"
			is $DESK Owner/Idle ;;
		fast) logged "$DESK Claimed/Busy -> Preempting/Killing [10] event Shutdown (fast)" \
			"[25] KILLING_TIMEOUT"
			is $DESK Owner/Idle ;;
		peaceful) logged "[13] retiring: shutdown -peaceful"
			is $DESK Claimed/Retiring ;;
		esac
	done
}

@test "startd-step: the output does not depend on the locale" {
	desk
	claimed $DESK $((T0 + 10)) 1.0 alice
	cp "$TMP/ev.ads" "$TMP/events"
	run -0 startd-step --now $((T0 + 60)) -e "$TMP/events" "$TMP/slots.ads"
	local c=$output loc
	for loc in de_DE.UTF-8 fr_FR.UTF-8 C.UTF-8; do
		run -0 env LC_ALL=$loc startd-step --now $((T0 + 60)) -e "$TMP/events" "$TMP/slots.ads"
		[[ $output == "$c" ]]
	done
	[[ $c == *"LoadAvg = 1.0"* ]]
}

# ---- deadline-exact stepping: one step far ahead makes the history of many ----

# history START END EVENTS CONFIG... -- CUT...: the transition log of the
# slots of $TMP/slots.ads (at START) stepped to END in steps ending at each
# CUT and then END, each step given the events of its interval
history() {
	local start=$1 end=$2 ev=$3 prev=$1 t c=()
	shift 3
	while [[ $1 != -- ]]; do c+=(-c "$1"); shift; done
	shift
	cp "$TMP/slots.ads" "$TMP/h.ads"
	: >"$TMP/h.log"
	for t in "$@" "$end"; do
		classad-eval -w "Time > $prev && Time <= $t" "$ev" >"$TMP/h.ev" || return 1
		startd-step "${c[@]}" --now "$t" -e "$TMP/h.ev" -l "$TMP/h.log" "$TMP/h.ads" \
		    >"$TMP/h.new" || return 1
		mv "$TMP/h.new" "$TMP/h.ads"
		prev=$t
	done
	cat "$TMP/h.log"
}

# cuts SEED START END N: N distinct random times in (START, END), sorted
cuts() {
	awk -v seed="$1" -v a="$2" -v b="$3" -v n="$4" 'BEGIN {
		srand(seed)
		while (k < n) { t = a + 1 + int(rand() * (b - a - 1)); if (!(t in s)) { s[t]; k++ } }
		for (t in s) print t
	}' | sort -n
}

# same_history START END EVENTS CONFIG... [random]: one step from START to
# END, and steps cut at random times (and, unless the last word is random,
# at every minute), give the same log
same_history() {
	local start=$1 end=$2 ev=$3 one many seed minutes=1
	shift 3
	if [[ ${!#} == random ]]; then minutes=0; set -- "${@:1:$#-1}"; fi
	one=$(history "$start" "$end" "$ev" "$@" --) || return 1
	[[ -n $one ]] || { echo "no history at all"; return 1; }
	for seed in 1 2 3; do
		# shellcheck disable=SC2046
		many=$(history "$start" "$end" "$ev" "$@" -- $(cuts $seed "$start" "$end" 12)) || return 1
		if [[ $many != "$one" ]]; then
			diff <(printf '%s\n' "$one") <(printf '%s\n' "$many")
			return 1
		fi
	done
	((minutes)) || return 0
	# shellcheck disable=SC2046
	many=$(history "$start" "$end" "$ev" "$@" -- $(seq $((start + 60)) 60 $((end - 1)))) ||
	    return 1
	[[ $many == "$one" ]] || { diff <(printf '%s\n' "$one") <(printf '%s\n' "$many"); return 1; }
}

@test "one step = many steps: the seed's desktop policy, the owner typing two and twelve minutes" {
	local C=("$P/desktop.config" "$P/desktop-local.config" "$TL/desk.config")
	for ev in "$TL/typing.ads" "$TL/typing-long.ads"; do
		slots "$TL/desk.ad" -c "${C[0]}" -c "${C[1]}" -c "${C[2]}"
		untraced same_history $T0 $((T0 + 2400)) "$ev" "${C[@]}"
	done
}

@test "one step = many steps: default-v6, max-retirement, disable-preemption, job-suspension" {
	local p ev
	for p in default-v6 max-retirement disable-preemption; do
		for ev in "$TL/typing.ads" "$TL/typing-long.ads"; do
			desk -c "$P/$p.config"
			untraced same_history $T0 $((T0 + 2400)) "$ev" "$P/$p.config" \
			    "$D/static.config"
		done
	done
	local C=("$P/default-v6.config" "$P/job-suspension-v6.config" \
	    "$P/job-suspension-v6-local.config" "$P/static-slots.config")
	slots "$TL/desk.ad" -c "${C[0]}" -c "${C[1]}" -c "${C[2]}" -c "${C[3]}"
	untraced same_history $T0 $((T0 + 1200)) "$D/suspension.ads" "${C[@]}"
}

@test "one step = many steps: time of day (08:00 on a Wednesday) and backfill" {
	cp "$TL/desk.ad" "$TMP/desk.ad"
	startd-step --init --now 1700034000 -c "$P/default.config" -c "$P/time-of-day.config" \
	    -c "$D/static.config" "$TMP/desk.ad" >"$TMP/slots.ads"
	untraced same_history 1700034000 1700036400 "$D/workday.ads" "$P/default.config" \
	    "$P/time-of-day.config" "$D/static.config"
	desk -c "$P/backfill.config"
	untraced same_history $T0 $((T0 + 2400)) "$D/idle-typing.ads" "$P/backfill.config" \
	    "$D/static.config"
}

@test "one step = many steps: HTCondor's use POLICY : Desktop, its CpuBusy latched" {
	cfg 'use POLICY : Desktop' 'NUM_SLOTS = 1'
	desk -c "$TMP/c.config"
	# a CPU busy from other work for a while: CpuBusyTime latches, SUSPEND
	# follows CpuBusyTimer
	{
		cat "$TL/typing.ads"
		printf '\nName = "desk.example.org"\nEvent = "MachineUpdate"\nTime = %s\nLoadAvg = 2.5\n' \
		    $((T0 + 900))
		printf '\nName = "desk.example.org"\nEvent = "MachineUpdate"\nTime = %s\nLoadAvg = 1.0\n' \
		    $((T0 + 1300))
	} >"$TMP/busy.ads"
	untraced same_history $T0 $((T0 + 2400)) "$TMP/busy.ads" "$TMP/c.config"
	run untraced history $T0 $((T0 + 2400)) "$TMP/busy.ads" "$TMP/c.config" --
	[[ $output == *"[14] SUSPEND = true"* ]]
}

# random_events SEED START END: a random life of the desk: jobs matched,
# claimed, started, exiting and released; its owner typing for a while; the
# CPU loaded by other work
random_events() {
	awk -v seed="$1" -v a="$2" -v b="$3" 'function ev(t, what) {
		printf "Name = \"slot1@desk.example.org\"\nEvent = \"%s\nTime = %d\n\n", what, t
	}
	BEGIN {
		srand(seed)
		for (t = a + 10; t < b; t += 300 + int(rand() * 3000)) {
			r = rand()
			if (r < 0.4) {
				n++
				ev(t, "Match\"\nJob = [ ClusterId = " n "; ProcId = 0; Owner = \"u" n "\"; JobUniverse = " (rand() < 0.7 ? 5 : 1) "; ImageSize = 1000; RequestCpus = 1; RequestMemory = 100; RequestDisk = 100 ]")
				ev(t + 1, "Claim\"")
				ev(t + 2, "Activate\"")
				d = 600 + int(rand() * 4000)
				ev(t + d, "JobExit\"")
				ev(t + d + 1, "Release\"")
			} else if (r < 0.8) {
				d = int(rand() * 900)
				for (k = 0; k <= d; k += 30)
					ev(t + k, "MachineUpdate\"\nKeyboardIdle = 0\nConsoleIdle = 0")
			} else
				ev(t, "MachineUpdate\"\nLoadAvg = " (rand() < 0.5 ? "0.0" : "1.5"))
		}
	}'	# (startd-step puts the events in time order)
}

@test "one step = many steps: random lives of a desktop under the seed's policies" {
	local seed p t0=1700031600	# Wednesday 07:00: work hours begin at 08:00
	for seed in 11 12 13; do
		random_events $seed $t0 $((t0 + 14400)) >"$TMP/rand.ads"
		for p in desktop default-v6 time-of-day; do
			cp "$TL/desk.ad" "$TMP/desk.ad"
			startd-step --init --now $t0 -c "$P/default.config" -c "$P/$p.config" \
			    -c "$P/desktop-local.config" -c "$D/static.config" "$TMP/desk.ad" \
			    >"$TMP/slots.ads"
			untraced same_history $t0 $((t0 + 14400)) "$TMP/rand.ads" "$P/default.config" \
			    "$P/$p.config" "$P/desktop-local.config" "$D/static.config" random ||
			    { echo "seed $seed, policy $p"; return 1; }
		done
	done
}

# ---- custom machine resources and GPUs ----

@test "custom resources: MACHINE_RESOURCE_<name> as a count or ids, in static and partitionable slots" {
	cfg 'MACHINE_RESOURCE_Cogs = 16' 'MACHINE_RESOURCE_GPUs = CUDA0, CUDA1, CUDA2, CUDA3' \
	    'SLOT_TYPE_1 = cogs=50%, gpus=2, 50%' 'SLOT_TYPE_1_PARTITIONABLE = TRUE' \
	    'NUM_SLOTS_TYPE_1 = 1' 'SLOT_TYPE_2 = cogs=25%, gpus=auto, 25%' 'NUM_SLOTS_TYPE_2 = 2'
	run -0 --separate-stderr startd-step --init --now $T0 -c "$TMP/c.config" "$D/node.ad"
	[[ -z $stderr ]]		# simulated: no "not simulated" warning
	printf '%s\n' "$output" >"$TMP/slots.ads"
	S1=slot1@node1.example.org S2=slot2@node1.example.org S3=slot3@node1.example.org
	[[ $(val Cogs $S1) == 8 && $(val TotalSlotCogs $S1) == 8 && $(val Cogs $S2) == 4 ]]
	[[ $(val TotalCogs $S3) == 16 && $(val DetectedCogs $S3) == 16 ]]
	[[ -z $(val AssignedCogs $S1) ]]	# a count has no ids
	[[ $(val GPUs $S1) == 2 && $(val AssignedGPUs $S1) == '"CUDA0,CUDA1"' ]]
	[[ $(val AssignedGPUs $S2) == '"CUDA2"' && $(val AssignedGPUs $S3) == '"CUDA3"' ]]
	[[ $(val TotalGPUs $S2) == 4 && $(val TotalSlotGPUs $S2) == 1 ]]
	[[ $(val MachineResources) == '"Cpus Memory Disk Swap Cogs GPUs"' ]]
	[[ $(val Cpus $S1) == 4 && $(val Cpus $S2) == 2 ]]
	[[ $(val WithinResourceLimits) == *'(TARGET.RequestGPUs is undefined || MY.GPUs >= TARGET.RequestGPUs)'* ]]
	# MACHINE_RESOURCE_NAMES leaves the others out; too much asked is an error
	cfg 'MACHINE_RESOURCE_NAMES = Cogs' 'MACHINE_RESOURCE_Cogs = 4' 'MACHINE_RESOURCE_Bogs = 2'
	slots "$D/node.ad" -c "$TMP/c.config"
	[[ $(val Cogs) == 4 && -z $(val Bogs) ]]
	cfg 'MACHINE_RESOURCE_Cogs = 4' 'SLOT_TYPE_1 = cogs=3' 'NUM_SLOTS_TYPE_1 = 2'
	run -3 --separate-stderr startd-step --init -c "$TMP/c.config" "$D/node.ad"
	[[ $stderr == *"ask for 6 Cogs of a machine that has 4"* ]]
}

@test "custom resources: slot types pick GPUs by a constraint on their properties, or by id" {
	printf '%s\n' 'use FEATURE : GPUs' 'STARTD_CRON_JOBLIST =' 'SLOT_TYPE_1 @=slot' \
	    '   GPUs = 2 : Capability >= 8.0' '   50%' '@slot' 'SLOT_TYPE_1_PARTITIONABLE = TRUE' \
	    'NUM_SLOTS_TYPE_1 = 1' 'SLOT_TYPE_2 @=slot' '   GPUs = 1 : "GPU-cc33"' '   cpus = 1' \
	    '@slot' 'NUM_SLOTS_TYPE_2 = 1' >"$TMP/c.config"
	slots "$D/gpu.ad" -c "$TMP/c.config"
	[[ $(val AssignedGPUs slot1@gpu1.example.org) == '"GPU-aa11,GPU-bb22"' ]]
	[[ $(val AvailableGPUs slot1@gpu1.example.org) == '{ GPUs_GPU_aa11,GPUs_GPU_bb22 }' ]]
	[[ $(val AssignedGPUs slot2@gpu1.example.org) == '"GPU-cc33"' ]]
	[[ $(val DetectedGPUs) == 3 && $(val Cpus slot1@gpu1.example.org) == 8 ]]
	# the properties its GPUs agree on, for matchmaking
	[[ $(val GPUs_Capability slot1@gpu1.example.org) == 8.0 ]]
	[[ $(val GPUs_DeviceName slot2@gpu1.example.org) == '"T4"' ]]
	# the property ads come with the machine
	[[ $(val GPUs_GPU_cc33 slot1@gpu1.example.org) == *'DeviceName = "T4"'* ]]
	printf '%s\n' 'MACHINE_RESOURCE_GPUs = CUDA0' 'SLOT_TYPE_1 = GPUs = 1 : "CUDA7"' \
	    'NUM_SLOTS_TYPE_1 = 1' >"$TMP/c.config"
	run -3 --separate-stderr startd-step --init -c "$TMP/c.config" "$D/node.ad"
	[[ $stderr == *'slot type 1 wants 1 GPUs with "CUDA7", only 0 are left'* ]]
}

@test "custom resources: dynamic slots get distinct GPUs, RequireGPUs picks them, they come back" {
	printf '%s\n' 'use FEATURE : GPUs' 'STARTD_CRON_JOBLIST =' >"$TMP/g.config"
	slots "$D/gpu.ad" -c "$TMP/g.config"
	P=slot1@gpu1.example.org
	ev $P Match $((T0 + 10)) "$(job 1.0 alice 'RequestGPUs = 1; RequireGPUs = Capability < 8')"
	ev $P Match $((T0 + 10)) "$(job 2.0 alice 'RequestGPUs = 1')"
	ev $P Match $((T0 + 10)) "$(job 3.0 alice 'RequestGPUs = 1; RequireGPUs = Capability < 8')"
	ev $P Match $((T0 + 10)) "$(job 4.0 alice 'RequestGPUs = 1')"
	ev $P Match $((T0 + 10)) "$(job 5.0 alice 'RequestGPUs = 1')"
	ev $P Match $((T0 + 10)) "$(job 6.0 alice)"
	step $((T0 + 20)) -c "$TMP/g.config"
	logged "for job 1.0: Cpus 1, Memory 1024, Disk 1024, GPUs 1 (GPU-cc33)" \
	    "for job 2.0: Cpus 1, Memory 1024, Disk 1024, GPUs 1 (GPU-aa11)" \
	    "no dynamic slot: RequireGPUs: 0 of the 1 free GPUs satisfy it, the job asks for 1" \
	    "for job 4.0: Cpus 1, Memory 1024, Disk 1024, GPUs 1 (GPU-bb22)" \
	    "no dynamic slot: WithinResourceLimits = false for this job" \
	    "for job 6.0: Cpus 1, Memory 1024, Disk 1024"
	[[ $(val GPUs $P) == 0 && $(val AssignedGPUs $P) == '""' && $(val AvailableGPUs $P) == '{  }' ]]
	[[ -z $(val GPUs_Capability $P) && $(val GPUs_Capability slot1_1@gpu1.example.org) == 7.5 ]]
	[[ $(val TotalSlotGPUs $P) == 3 ]]
	[[ $(val AssignedGPUs slot1_2@gpu1.example.org) == '"GPU-aa11"' ]]
	[[ $(val GPUs slot1_2@gpu1.example.org) == 1 && $(val TotalSlotGPUs slot1_2@gpu1.example.org) == 1 ]]
	[[ $(val GPUs slot1_4@gpu1.example.org) == 0 && $(val AssignedGPUs slot1_4@gpu1.example.org) == '""' ]]
	# the matches time out: the GPUs go back, in their order
	step $((T0 + 200)) -c "$TMP/g.config"
	logged "slot1_1@gpu1.example.org Owner/Idle: dynamic slot deleted: Cpus 1, Memory 1024, Disk 1024, GPUs 1 (GPU-cc33) go back to $P"
	[[ $(val GPUs $P) == 3 && $(val AssignedGPUs $P) == '"GPU-aa11,GPU-bb22,GPU-cc33"' ]]
	[[ $(grep -c '^Name = ' "$TMP/slots.ads") == 1 ]]
}

@test "custom resources: a match that preempts dynamic slots frees their GPUs for the new job" {
	cfg 'MACHINE_RESOURCE_GPUs = CUDA0, CUDA1'
	printf 'Name = "pp.example.org"\nCpus = 4\nMemory = 8192\nDisk = 1000000\n' >"$TMP/pp.ad"
	slots "$TMP/pp.ad" -c "$TMP/c.config"
	P=slot1@pp.example.org
	for i in 0 1; do
		ev $P Claim $((T0 + 10)) "$(job 1.$i bob 'RequestGPUs = 1')"
		ev $P Activate $((T0 + 11)) "JobId = \"1.$i\""
	done
	step $((T0 + 20)) -c "$TMP/c.config"
	[[ $(val AssignedGPUs slot1_2@pp.example.org) == '"CUDA1"' && $(val GPUs $P) == 0 ]]
	ev $P Match $((T0 + 30)) "$(job 2.0 alice 'RequestGPUs = 2')" \
	    'PreemptedSlots = { "slot1_1@pp.example.org", "slot1_2@pp.example.org" }'
	ev $P Claim $((T0 + 31)) "$(job 2.0 alice 'RequestGPUs = 2')"
	ev slot1_1@pp.example.org StarterExit $((T0 + 40))
	ev slot1_2@pp.example.org StarterExit $((T0 + 45))
	step $((T0 + 60)) -c "$TMP/c.config"
	logged "slot1_1@pp.example.org Claimed/Busy -> Preempting/Vacating [10] event Match: job 2.0 of alice@example.org preempts it" \
	    "$P Unclaimed/Idle: event Match waits until its 2 preempted dynamic slots are gone" \
	    "$P Unclaimed/Idle: event Claim: the match that waits is claimed" \
	    "dynamic slot deleted: Cpus 1, Memory 1024, Disk 1024, GPUs 1 (CUDA1) go back to $P" \
	    "for job 2.0: Cpus 1, Memory 1024, Disk 1024, GPUs 2 (CUDA0,CUDA1)"
	is slot1_1@pp.example.org Claimed/Idle
	[[ $(val AssignedGPUs slot1_1@pp.example.org) == '"CUDA0,CUDA1"' && $(val GPUs $P) == 0 ]]
}

@test "startd-step --init from a condor_status -long dump: one machine, laid out afresh" {
	printf '%s\n' 'use FEATURE : GPUs' 'STARTD_CRON_JOBLIST =' >"$TMP/g.config"
	slots "$D/gpu.ad" -c "$TMP/g.config"
	P=slot1@gpu1.example.org
	for i in 0 1 2 3; do
		ev $P Claim $((T0 + 10)) "$(job 1.$i bob 'RequestCpus = 2; RequestGPUs = 0')"
	done
	ev $P Claim $((T0 + 10)) "$(job 1.4 bob 'RequestGPUs = 2')"
	step $((T0 + 20)) -c "$TMP/g.config"
	cp "$TMP/slots.ads" "$TMP/dump.ads"
	[[ $(grep -c '^Name = ' "$TMP/dump.ads") == 6 ]]
	# without --init the dump is the current state, as it was
	run -0 startd-step --now $((T0 + 30)) -c "$TMP/g.config" "$TMP/dump.ads"
	[[ $(grep -c '^Name = ' <<<"$output") == 6 ]]
	# with it: one machine of 16 cores and three GPUs, the config's slots
	cfg 'NUM_SLOTS = 4' 'use FEATURE : GPUs' 'STARTD_CRON_JOBLIST ='
	run -0 --separate-stderr startd-step --init --now $((T0 + 30)) -c "$TMP/c.config" "$TMP/dump.ads"
	[[ -z $stderr ]]
	printf '%s\n' "$output" >"$TMP/slots.ads"
	[[ $(grep -c '^Name = ' "$TMP/slots.ads") == 4 ]]
	[[ $(val Name) == '"slot1@gpu1.example.org"' && $(val SlotType) == '"Static"' ]]
	[[ $(val Cpus) == 4 && $(val TotalCpus) == 16 && $(val Memory) == 16384 ]]
	[[ $(val AssignedGPUs slot1@gpu1.example.org) == '"GPU-aa11"' ]]
	[[ $(val AssignedGPUs slot3@gpu1.example.org) == '"GPU-cc33"' ]]
	[[ $(val GPUs slot4@gpu1.example.org) == 0 ]]
	is slot2@gpu1.example.org Owner/Idle
	[[ -z $(val RemoteUser slot1@gpu1.example.org) && -z $(val Job slot1@gpu1.example.org) ]]
	[[ $(val Arch) == '"X86_64"' ]]		# the machine's attributes stay
	# inconsistencies are told: a slot twice, shares that do not add up
	{ cat "$TMP/dump.ads"; echo; awk -v RS= 'NR == 2' "$TMP/dump.ads"; } |
	    sed 's/^Cpus = 7$/Cpus = 6/' >"$TMP/bad.ads"
	run -0 --separate-stderr startd-step --init --now $((T0 + 30)) -c "$TMP/g.config" "$TMP/bad.ads"
	[[ $stderr == *"warning: machine gpu1.example.org: two slots are named slot1_1@gpu1.example.org (the second is left out)"* ]]
	[[ $stderr == *"warning: $P: 6 Cpus left and 9 in its dynamic slots, but TotalSlotCpus = 16"* ]]
	[[ $(grep -c '^Name = ' <<<"$output") == 1 ]]
}

@test "custom resources: a consumption policy's match gives the dynamic slot what it consumed" {
	cfg 'MACHINE_RESOURCE_GPUs = CUDA0, CUDA1, CUDA2'
	slots "$D/node.ad" -c "$TMP/c.config"
	P=slot1@node1.example.org
	ev $P Match $((T0 + 10)) "$(job 1.0 alice 'RequestGPUs = 1')" 'ConsumedCpus = 4' \
	    'ConsumedMemory = 2048' 'ConsumedDisk = 1024' 'ConsumedGPUs = 2'
	step $((T0 + 20)) -c "$TMP/c.config"
	logged "for job 1.0: Cpus 4, Memory 2048, Disk 1024, GPUs 2 (CUDA0,CUDA1)"
	[[ $(val Cpus $P) == 4 && $(val GPUs $P) == 1 && $(val AssignedGPUs $P) == '"CUDA2"' ]]
}

@test "condor_status -long ads: a machine as a real pool prints it takes its match" {
	# eleven slots of a GPU machine in the shape of tests/poolgen's
	# corpus (91 attributes each), and the negotiator's match for it
	run -0 --separate-stderr startd-step --now $((T0 + 100)) -e "$D/match-gpu2315.ads" \
	    "$D/status-gpu2315.ads"
	[[ $(grep -c '^Name = ' <<<"$output") == 12 ]]
	awk -v RS= '/JobId = "10003.11"/' <<<"$output" >"$TMP/claimed.ad"
	grep -qx 'Name = "slot1_11@gpu2315.hpc.example.org"' "$TMP/claimed.ad"
	grep -qx 'State = "Matched"' "$TMP/claimed.ad"
	grep -qx 'Cpus = 8' "$TMP/claimed.ad"
}

# pool N: $TMP/pool.ads = N machines of eleven slots each, condor_status
# -long ads of 91 attributes (hosts gpu0001, gpu0002, ...), and
# $TMP/pev.ads a match for the first slot of every third machine
pool() {
	local i h
	for ((i = 1; i <= $1; i++)); do
		h=$(printf 'gpu%04d' "$i")
		sed "s/gpu2315/$h/g" "$D/status-gpu2315.ads"
		if ((i % 3 == 0)); then
			sed "s/gpu2315/$h/g; s/JobId = \"10003.11\"/JobId = \"10003.$i\"/" \
			    "$D/match-gpu2315.ads" >>"$TMP/pev.ads"
			echo >>"$TMP/pev.ads"
		fi
	done >"$TMP/pool.ads"
}


@test "a machine's slots stepped after others of their shapes, as stepped alone" {
	pool 12
	# slots of other shapes: a published name there already, a value of
	# one that is not the policy's, a published name not configured
	awk -v RS= -v ORS='\n\n' 'NR % 5 == 1 { $0 = $0 "\nIS_OWNER = true" }
	    NR % 7 == 3 { sub(/\nStart = [^\n]*/, "\nStart = false") }
	    NR % 11 == 4 { $0 = $0 "\nSUSPEND_VANILLA = true" } 1' "$TMP/pool.ads" >"$TMP/mixed.ads"
	grep -q '^IS_OWNER = true' "$TMP/mixed.ads"
	grep -q '^Start = false' "$TMP/mixed.ads"
	startd-step --parallel 1 --now $((T0 + 100)) "$TMP/mixed.ads" >"$TMP/all.ads"
	: >"$TMP/alone.ads"
	for ((i = 1; i <= 12; i++)); do
		awk -v RS= -v ORS='\n\n' -v m="$(printf 'gpu%04d.' "$i")" 'index($0, "Machine = \"" m)' \
		    "$TMP/mixed.ads" >"$TMP/one.ads"
		startd-step --parallel 1 --now $((T0 + 100)) "$TMP/one.ads" >>"$TMP/alone.ads"
	done
	[[ $(grep -c '^Name = ' "$TMP/all.ads") == $(grep -c '^Name = ' "$TMP/mixed.ads") ]]
	cmp "$TMP/all.ads" "$TMP/alone.ads"
}

@test "--parallel: the slots of a file stepped in several processes, as one process steps them" {
	pool 40
	same_as_one startd-step --now $((T0 + 100)) -e "$TMP/pev.ads" "$TMP/pool.ads"
	[[ -z $stderr ]]
	# the matches were taken: 13 machines' slots are Matched
	startd-step --parallel 3 --now $((T0 + 100)) -e "$TMP/pev.ads" "$TMP/pool.ads" >"$TMP/out.ads"
	[[ $(grep -c '^State = "Matched"' "$TMP/out.ads") == 13 ]]
	# standard input redirected from the file is the file
	run --separate-stderr startd-step --parallel 3 --now $((T0 + 100)) -e "$TMP/pev.ads" \
	    <"$TMP/pool.ads"
	[[ -z $stderr && $output == "$(cat "$TMP/out.ads")" ]]
	# compressed output: the same ads
	startd-step --parallel 3 -z --now $((T0 + 100)) -e "$TMP/pev.ads" "$TMP/pool.ads" |
	    gzip -dc | cmp - "$TMP/out.ads"
}

@test "--parallel: a worker held back gets fewer parts, and the output is in the file's order" {
	[[ -e /proc/$$/task/$$/children ]] || skip "no list of a process's children in /proc"
	gpu_pool 600 >"$TMP/pool.ads"	# 20 MB
	# one process, reading a stream
	startd-step --now $((T0 + 100)) <(cat "$TMP/pool.ads") >"$TMP/one.ads"
	# a worker stopped as soon as it is there: its parts are answered
	# after those the other takes meanwhile (tried again if the run ended
	# before a worker was seen)
	local try=0 pid kid=""
	while [[ -z $kid ]] && ((try++ < 5)); do
		startd-step --parallel 2 --now $((T0 + 100)) "$TMP/pool.ads" >"$TMP/out.ads" \
		    2>"$TMP/err" &
		pid=$!
		while [[ -z $kid && -e /proc/$pid/task/$pid/children ]]; do
			read -r kid _ <"/proc/$pid/task/$pid/children" || :
		done
		if [[ -n $kid ]]; then
			kill -STOP "$kid" 2>/dev/null || :
			sleep 0.5
			kill -CONT "$kid" 2>/dev/null || :
		fi
		wait "$pid"
		[[ ! -s $TMP/err ]]
		[[ $(grep -c '^Name = ' "$TMP/out.ads") == 6600 ]]
		cmp "$TMP/out.ads" "$TMP/one.ads"
	done
	[[ -n $kid ]] || skip "each run ended before a worker could be stopped"
}

@test "--parallel 1: a large file read part by part in one process, as a stream of it is read" {
	pool 300	# 10 MB: read in two parts
	awk -v RS= -v ORS='\n\n' 'NR == 100 || NR == 3000 { sub(/\nState = /, "\nBad = (1 +\nState = ") } 1' \
	    "$TMP/pool.ads" >"$TMP/bad.ads"
	run --separate-stderr startd-step --parallel 1 --now $((T0 + 100)) -e "$TMP/pev.ads" \
	    <(cat "$TMP/bad.ads")
	local out=$output err=$stderr st=$status
	[[ $st == 3 && $(grep -c 'bad.ads\|/dev/fd' <<<"$err") == 2 ]]
	run --separate-stderr startd-step --parallel 1 --now $((T0 + 100)) -e "$TMP/pev.ads" \
	    "$TMP/bad.ads"
	[[ $status == "$st" && $output == "$out" ]]
	# the same lines named, of the file
	[[ $(grep -o ':[0-9]*:[0-9]*: ' <<<"$stderr") == "$(grep -o ':[0-9]*:[0-9]*: ' <<<"$err")" ]]
	[[ $(grep -c '^State = "Matched"' <<<"$output") == 100 ]]
}

@test "--parallel: what the parts share is as one process leaves it: events, problems told once, bad lines" {
	pool 12
	# gpu0003's slots once more at the end, apart from the others: the
	# match goes to the first of them only
	sed 's/gpu2315/gpu0003/g' "$D/status-gpu2315.ads" >>"$TMP/pool.ads"
	# a line that does not parse, in gpu0007's third slot
	awk -v RS= -v ORS='\n\n' 'NR == 69 { sub(/\nState = /, "\nBad = (1 +\nState = ") } 1' \
	    "$TMP/pool.ads" >"$TMP/bad.ads"
	grep -q '^Bad = (1 +$' "$TMP/bad.ads"
	ev slot1@nowhere.example.org Vacate $T0
	cat "$TMP/pev.ads" >>"$TMP/ev.ads"
	# a STARTD_ATTRS knob that does not parse: told once, for the first slot
	cfg 'STARTD_ATTRS = $(STARTD_ATTRS) Broken' 'Broken = (1 +'
	same_as_one startd-step -c "$TMP/c.config" --now $((T0 + 100)) -e "$TMP/ev.ads" "$TMP/bad.ads"
	[[ $status == 3 ]]
	[[ $(grep -c 'Broken' <<<"$stderr") == 1 ]]
	grep -q "bad.ads:[0-9]*:.*" <<<"$stderr"
	grep -q 'no slot named slot1@nowhere.example.org' <<<"$stderr"
	run --separate-stderr startd-step --parallel 4 --now $((T0 + 100)) -e "$TMP/ev.ads" \
	    "$TMP/bad.ads"
	[[ $(awk -v RS= '/Machine = "gpu0003/ && /State = "Matched"/' <<<"$output" | grep -c '^Name') == 1 ]]
}

@test "--parallel: a message names the line of the file, whichever part and process read it" {
	pool 30
	# lines that do not parse, in the slots of machines far apart
	awk -v RS= -v ORS='\n\n' 'NR == 40 || NR == 200 || NR == 320 {
	    sub(/\nState = /, "\nBad = (1 +\nState = ") } 1' "$TMP/pool.ads" >"$TMP/bad.ads"
	same_as_one startd-step --now $((T0 + 100)) "$TMP/bad.ads"
	[[ $status == 3 ]]
	# each message names the line of its Bad
	want=$(grep -n '^Bad = ' "$TMP/bad.ads" | cut -d: -f1 | tr '\n' ' ')
	got=$(grep -o 'bad.ads:[0-9]*' <<<"$stderr" | cut -d: -f2 | tr '\n' ' ')
	[[ -n $want && $got == "$want" ]] || { echo "lines $got, not $want"; return 1; }
}

@test "--parallel: the state file, and when the slots are stepped in one process after all" {
	pool 6
	cp "$TMP/pool.ads" "$TMP/state.ads"
	cp "$TMP/pool.ads" "$TMP/state1.ads"
	run -0 --separate-stderr startd-step --parallel 3 --now $((T0 + 100)) -e "$TMP/pev.ads" \
	    --state "$TMP/state.ads"
	[[ -z $output && -z $stderr ]]
	startd-step --parallel 1 --now $((T0 + 100)) -e "$TMP/pev.ads" --state "$TMP/state1.ads"
	cmp "$TMP/state.ads" "$TMP/state1.ads"
	# what cannot be split is stepped in one process, and said
	run -0 --separate-stderr startd-step --parallel 2 --now $T0 < <(cat "$TMP/pool.ads")
	[[ $stderr == *"--parallel 2: the slots are stepped in one process: it is not a regular file"* ]]
	run -0 --separate-stderr startd-step --parallel 2 -o new --now $T0 "$TMP/pool.ads"
	[[ $stderr == *"stepped in one process: the output is not the long format"* ]]
	run -0 --separate-stderr startd-step --parallel 2 -l "$TMP/log" --now $T0 "$TMP/pool.ads"
	[[ $stderr == *"stepped in one process: the transition log is written in order"* ]]
	startd-step -o new --now $T0 "$TMP/pool.ads" >"$TMP/new.ads"
	run -0 --separate-stderr startd-step --parallel 2 --now $T0 "$TMP/new.ads"
	[[ $stderr == *"stepped in one process: it is not the long format, uncompressed"* ]]
	sed -n '/^$/q;p' "$TMP/pool.ads" >"$TMP/one.ads"
	run -0 --separate-stderr startd-step --parallel 2 --now $T0 "$TMP/one.ads"
	[[ $stderr == *"stepped in one process: it does not cut into parts"* ]]
	: >"$TMP/empty.ads"
	run -0 --separate-stderr startd-step --parallel 2 --now $T0 "$TMP/empty.ads"
	[[ -z $output && $stderr == *"stepped in one process: it is small"* ]]
	# the default is quiet about it
	run -0 --separate-stderr startd-step --now $T0 "$TMP/one.ads"
	[[ -z $stderr ]]
}
