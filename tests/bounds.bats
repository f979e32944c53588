#!/usr/bin/env bats
# bounds.bats - memory on long streams: each program that streams keeps to a
# small address space (ulimit -v) on 1,000,000 ads made up as they are read,
# far less than holding them would take; the programs that must hold their
# input (negotiate, schedd-step's queue) stay within a bound proportional
# to it. classad-eval -w has its own test in hostile.bats.

load helpers

T0=1700000000
FLAT=16384		# KB of address space for a streaming filter (they need about 6 MB)

# The programs were built with AddressSanitizer, which reserves terabytes of
# address space: no ulimit -v is possible, and the test is skipped.
no_limit_possible() {
	[[ -n ${CA_ASAN:-} ]] || grep -q __asan_init "$CA_BIN/cron-next" 2>/dev/null
}

setup() {
	if no_limit_possible; then
		skip "AddressSanitizer build: address space cannot be limited"
	fi
}

# slots N: N slot ads as condor_status -long prints them, two in three
# claimed by one of 100 users
slots() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
	    printf "Name = \"slot%d@node%d.example.org\"\nMachine = \"node%d.example.org\"\nCpus = %d\nMemory = %d\nState = \"%s\"\nActivity = \"%s\"\nRemoteOwner = \"u%d@example.org\"\nRemoteUser = \"u%d@example.org\"\nSlotWeight = Cpus\nRequirements = TARGET.RequestCpus <= Cpus && TARGET.RequestMemory <= Memory\n\n",
	        i % 8 + 1, int(i / 8), int(i / 8), i % 64 + 1, (i * 7) % 65536,
	        i % 3 ? "Claimed" : "Unclaimed", i % 3 ? "Busy" : "Idle", i % 100, i % 100 }'
}

# jobs N: N idle cron jobs of 100 users
jobs() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
	    printf "ClusterId = %d\nProcId = 0\nOwner = \"u%d\"\nUser = \"u%d@example.org\"\nJobStatus = 1\nRequestCpus = 1\nRequestMemory = 1024\nCronMinute = \"*/%d\"\nRequirements = TARGET.Memory >= RequestMemory\n\n",
	        i + 1, i % 100, i % 100, i % 30 + 1 }'
}

# busy N: N slots as they were 600 s ago, each running a job for 400 s by
# then; half of the jobs last 500 s (they are done by now), half 5000 s
busy() {
	awk -v n="$1" -v t="$T0" 'BEGIN { for (i = 0; i < n; i++)
	    printf "Name = \"slot1@n%d\"\nState = \"Claimed\"\nActivity = \"Busy\"\nJobStart = %d\nMyCurrentTime = %d\nTotalJobRunTime = 400\nJobId = \"%d.0\"\nJob = [ ClusterId = %d; ProcId = 0; JobDuration = %d ]\n\n",
	        i, t - 1000, t - 600, i, i, i % 2 ? 500 : 5000 }'
}

# machines N: N machines of 1 or 3 cores (as many slots as cores)
machines() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
	    printf "Name = \"node%d.example.org\"\nCpus = %d\nMemory = %d\nDisk = 1000000\nKeyboardIdle = 36000\nConsoleIdle = 36000\nLoadAvg = 0.0\n\n",
	        i, i % 2 ? 3 : 1, 1024 * (i % 5 + 3) }'
}

# limited KB CMD...: CMD under ulimit -v KB, standard input and output as given
limited() {
	local kb=$1
	shift
	ulimit -v "$kb" && exec "$@"
}

# bounded NAME: the status of every command of the last pipeline run by
# `run bash -c` was 0 (set -o pipefail), and the program answered in time
bounded() {
	((status == 0)) || { echo "$1: status $status: ${output:0:2000}"; return 1; }
}

export -f slots jobs busy machines limited
export T0 FLAT

@test "bounds: 1,000,000 slot ads through classad-match --constraint in constant memory" {
	printf '[ ClusterId = 1; ProcId = 0; RequestCpus = 1; RequestMemory = 1; Requirements = TARGET.Memory >= 60000; Rank = TARGET.Memory ]\n' \
	    >"$TMP/job.ad"
	run bash -c 'set -o pipefail; slots 1000000 |
	    limited $FLAT classad-match --best --constraint "State == \"Unclaimed\"" "'"$TMP"'/job.ad" -'
	bounded classad-match
	# Memory 65535 first comes at i = 37449 (7i mod 65536), an unclaimed one
	[[ $output == $'1.0\tslot2@node4681.example.org\t65535.0\t0.0' ]]
}

@test "bounds: 1,000,000 job ads through cron-next --jobs --due in constant memory" {
	run bash -c 'set -o pipefail; jobs 1000000 | limited $FLAT cron-next --jobs --due --now $T0 |
	    grep -c "^DeferralTime = "'
	bounded cron-next
	[[ $output == 1000000 ]]
}

@test "bounds: userprio-calc --update over 1,000,000 slot ads: memory by users, not slots" {
	run bash -c 'set -o pipefail; slots 1000000 |
	    limited $FLAT userprio-calc --state "'"$TMP"'/state" --now $T0 --update'
	bounded userprio-calc
	[[ $(grep -c '^Name = ' "$TMP/state") == 100 ]]
	# every claimed slot charged to its user once: the sum of their Cpus
	want=$(awk 'BEGIN { for (i = 0; i < 1000000; i++) if (i % 3) n += i % 64 + 1; print n }')
	run awk '$1 == "WeightedResourcesUsed" { n += $3 } END { print n }' "$TMP/state"
	[[ $output == "$want" ]]
}

@test "bounds: 1,000,000 busy slot ads through schedd-step --exits in constant memory" {
	run bash -c 'set -o pipefail; busy 1000000 | limited $FLAT schedd-step --exits --now $T0 |
	    grep -c "^Event = \"JobExit\""'
	bounded schedd-step
	[[ $output == 500000 ]]
}

@test "bounds: startd-step --init then a step, 250,000 slots in constant memory (1,000,000 take ~30 s)" {
	printf 'include : %s\nuse FEATURE : StaticSlots\n' "$BATS_TEST_DIRNAME/../share/policy/desktop.config" \
	    >"$TMP/st.config"
	run bash -c 'set -o pipefail; machines 125000 |
	    limited $FLAT startd-step --init -c "'"$TMP"'/st.config" --now $T0 |
	    limited $FLAT startd-step -c "'"$TMP"'/st.config" --now $((T0 + 600)) |
	    grep -c "^Name = "'
	bounded startd-step
	[[ $output == 250000 ]]
}

# A pool held whole: at most 16 MB and 3 KB an ad (the ads here are about
# 250 bytes; negotiate(1) says about 1.2 KB an ad), at 10,000 and 40,000 ads.
@test "bounds: negotiate holds the pool: memory proportional to the ads (10,000 and 40,000)" {
	local n
	for n in 5000 20000; do
		slots $n >"$TMP/slots"
		jobs $n >"$TMP/jobs"
		run bash -c "limited $((16384 + 3 * 2 * n)) negotiate --now $T0 \
		    --slots '$TMP/slots' --jobs '$TMP/jobs' | grep -c '^Event = \"Match\"'"
		bounded "negotiate ($((2 * n)) ads)"
		((output > 0))
	done
}

@test "bounds: schedd-step holds the queue and the slots: memory proportional (10,000 and 40,000)" {
	local n
	for n in 5000 20000; do
		slots $n >"$TMP/slots"
		jobs $n >"$TMP/jobs"
		run bash -c "limited $((16384 + 3 * 2 * n)) schedd-step --now $T0 \
		    --jobs '$TMP/jobs' '$TMP/slots' | grep -c '^ClusterId = '"
		bounded "schedd-step ($((2 * n)) ads)"
		[[ $output == "$n" ]]
	done
}
