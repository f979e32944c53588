#!/usr/bin/env bats
# schedd-step.bats - the schedd's side of a simulated pool: submissions, the
# jobs' exits (--exits), the queue brought up to date from slots, matches and
# exits, the job event log, the history, --state and the errors.

load helpers

T0=1700000000		# Tue 2023-11-14 22:13:20 UTC

# slot NAME STATE ACTIVITY [LINE...]: a slot ad (appended to $TMP/slots.ads)
slot() {
	local n=$1 st=$2 act=$3
	shift 3
	{
		printf 'Name = "%s"\nState = "%s"\nActivity = "%s"\n' "$n" "$st" "$act"
		local a
		for a in "$@"; do printf '%s\n' "$a"; done
		echo
	} >>"$TMP/slots.ads"
}

# running NAME JOBID START [ACTIVITY [LINE...]]: a slot running job JOBID
# since START, its clock at T0+600
running() {
	local n=$1 id=$2 start=$3 act=${4:-Busy}
	shift 3
	(($# > 0)) && shift
	slot "$n" Claimed "$act" "JobId = \"$id\"" "JobStart = $start" \
	    "MyCurrentTime = $((T0 + 600))" "EnteredCurrentActivity = $start" \
	    "EnteredCurrentState = $start" \
	    "Job = [ ClusterId = ${id%.*}; ProcId = ${id#*.}; Owner = \"alice\"; JobDuration = 3600 ]" "$@"
}

# job ID STATUS [LINE...]: a job ad of alice (appended to $TMP/q.ads)
job() {
	local id=$1 st=$2
	shift 2
	{
		printf 'ClusterId = %s\nProcId = %s\nOwner = "alice"\nUser = "alice@example.org"\nJobStatus = %s\n' \
		    "${id%.*}" "${id#*.}" "$st"
		local a
		for a in "$@"; do printf '%s\n' "$a"; done
		echo
	} >>"$TMP/q.ads"
}

# attr FILE JOBID EXPR: EXPR of job JOBID in FILE
attr() {
	classad-eval -w "strcat(ClusterId, \".\", ProcId) == \"$2\"" -p "$3" "$1"
}

@test "-h, -V and usage errors" {
	run schedd-step -h
	((status == 0))
	[[ $output == usage:* ]]
	run schedd-step -V
	[[ $output == "schedd-step (classad-tools) "* ]]
	run schedd-step
	((status == 2))
	[[ $output == *"--jobs QUEUE or --state QUEUE"* ]]
	run schedd-step --jobs a --state b
	((status == 2))
	run schedd-step --exits --state a
	((status == 2))
	run schedd-step --state -
	((status == 2))
	run schedd-step --bogus
	((status == 2))
}

@test "the man page's example, as written" {
	cd "$TMP"
	printf 'Name = "node01.example.org"\nCpus = 1\nMemory = 2048\nDisk = 100000\n' >node01.ad
	printf 'Owner = "alice"\nUser = "alice@example.org"\nRequestMemory = 1024\nJobDuration = 600\n' >job.ad
	startd-step --init --now 1699999000 node01.ad >s0.ads
	schedd-step --now 1700000000 --jobs /dev/null --submit job.ad -l log.ads >q0.ads
	negotiate --now 1700000060 --slots s0.ads --jobs q0.ads >m.ads
	startd-step -a --now 1700000060 -e m.ads s0.ads >s1.ads
	schedd-step --now 1700000060 --jobs q0.ads -m m.ads -l log.ads s1.ads >q1.ads
	run grep -E '^(JobStatus|RemoteHost) ' q1.ads
	[[ $output == $'JobStatus = 2\nRemoteHost = "slot1_1@node01.example.org"' ]]
	schedd-step --exits --now 1700000700 s1.ads >exits.ads
	run grep -E '^(Event|Time) ' exits.ads
	[[ $output == $'Event = "JobExit"\nTime = 1700000660' ]]
	startd-step -a --now 1700000700 -e exits.ads s1.ads >s2.ads
	schedd-step --now 1700000700 --jobs q1.ads -e exits.ads -l log.ads --history done.ads \
	    s2.ads >q2.ads
	run classad-eval -p MyType -p EventTime -p JobId log.ads
	[[ $output == $'SubmitEvent\t1700000000\t1.0\nExecuteEvent\t1700000060\t1.0\nJobTerminatedEvent\t1700000660\t1.0' ]]
	run grep -E '^(JobStatus|CompletionDate) ' done.ads
	[[ $output == $'JobStatus = 4\nCompletionDate = 1700000660' ]]
	[[ ! -s q2.ads ]]
}

@test "--submit: Queue makes ProcIds, new clusters follow the queue and --first-cluster" {
	job 7.0 1
	printf 'Owner = "bob"\nQueue = 3\n\nOwner = "carol"\nRequestCpus = 4\n' >"$TMP/sub.ads"
	run --separate-stderr schedd-step --now $T0 --jobs "$TMP/q.ads" --submit "$TMP/sub.ads" -l "$TMP/log.ads"
	((status == 0))
	printf '%s\n' "$output" >"$TMP/out.ads"
	run classad-eval -p 'strcat(ClusterId, ".", ProcId)' -p Owner -p JobStatus -p QDate -p RequestCpus -p 'isUndefined(Queue)' "$TMP/out.ads"
	[[ $output == $'7.0\talice\t1\tundefined\tundefined\ttrue\n8.0\tbob\t1\t1700000000\t1\ttrue\n8.1\tbob\t1\t1700000000\t1\ttrue\n8.2\tbob\t1\t1700000000\t1\ttrue\n9.0\tcarol\t1\t1700000000\t4\ttrue' ]]
	run attr "$TMP/out.ads" 8.1 'strcat(unparse(Requirements), " ", RequestMemory, " ", RequestDisk, " ", JobUniverse)'
	[[ $output == 'TARGET.Cpus >= RequestCpus && TARGET.Memory >= RequestMemory && TARGET.Disk >= RequestDisk 1 1 5' ]]
	# the manual's defaults: JOB_DEFAULT_REQUESTMEMORY and _REQUESTDISK
	run attr "$TMP/out.ads" 8.1 'strcat(unparse(RequestMemory), " ", unparse(RequestDisk), " ", DiskUsage, " ", JobLeaseDuration)'
	[[ $output == 'ifThenElse(MemoryUsage =!= undefined,MemoryUsage,1) DiskUsage 1 2400' ]]
	run classad-eval -p MyType -p JobId "$TMP/log.ads"
	((${#lines[@]} == 4))
	[[ ${lines[0]} == $'SubmitEvent\t8.0' ]]
	run schedd-step --now $T0 --first-cluster 100 --jobs "$TMP/q.ads" --submit "$TMP/sub.ads"
	[[ $output == *"ClusterId = 100"* && $output == *"ClusterId = 101"* ]]
}

@test "--submit: request_<name> and require_<name> of custom resources, as condor_submit writes them" {
	job 7.0 1
	printf 'Owner = "gus"\nrequest_GPUs = 2\nrequire_GPUs = Capability >= 8\nrequest_cogs = 1\n' >"$TMP/sub.ads"
	run -0 schedd-step --now $T0 --jobs "$TMP/q.ads" --submit "$TMP/sub.ads"
	printf '%s\n' "$output" >"$TMP/out.ads"
	run attr "$TMP/out.ads" 8.0 'strcat(RequestGPUs, " ", unparse(RequireGPUs), " ", RequestCogs)'
	[[ $output == '2 Capability >= 8 1' ]]
	run attr "$TMP/out.ads" 8.0 'unparse(Requirements)'
	[[ $output == *' && (TARGET.GPUs >= RequestGPUs) && (countMatches(MY.RequireGPUs,TARGET.AvailableGPUs) >= RequestGPUs)'* ]]
	[[ $output == *'(TARGET.cogs >= Requestcogs)'* ]]
}

@test "--submit: a job already queued, one without Owner, a bad Queue are refused" {
	job 7.0 1
	printf 'ClusterId = 7\nProcId = 0\nOwner = "bob"\n\nRequestCpus = 1\n\nOwner = "x"\nQueue = 0\n\nOwner = "y"\nClusterId = 20\n' >"$TMP/sub.ads"
	run --separate-stderr schedd-step --now $T0 --jobs "$TMP/q.ads" --submit "$TMP/sub.ads"
	((status == 3))
	[[ $stderr == *"sub.ads:1: job 7.0 is already in the queue"* ]]
	[[ $stderr == *"sub.ads:5: job 8.0 has no Owner"* ]]
	[[ $stderr == *"sub.ads:7: Queue must be an integer from 1 to 100000"* ]]
	printf '%s\n' "$output" >"$TMP/out.ads"
	run classad-eval -p 'strcat(ClusterId, ".", ProcId)' -p Owner "$TMP/out.ads"
	[[ $output == $'7.0\talice\n20.0\ty' ]]
}

@test "--exits: JobDuration less the time run, from the slot's clock" {
	running slot1@a 1.0 $((T0 - 3000))	# ran 3000 of 3600 s: exits at T0+600+600
	slot slot2@a Claimed Busy 'JobId = "2.0"' "JobStart = $T0" "MyCurrentTime = $((T0 + 600))" \
	    'TotalJobRunTime = 100' 'Job = [ ClusterId = 2; ProcId = 0; JobDuration = 20 * 60 ]'
	running slot3@a 3.0 $((T0 - 3000)) Suspended 'TotalJobRunTime = 3500'
	slot slot4@a Claimed Busy 'JobId = "4.0"' "JobStart = $T0" "MyCurrentTime = $((T0 + 600))" \
	    'Job = [ ClusterId = 4; ProcId = 0 ]'
	slot slot5@a Unclaimed Idle "MyCurrentTime = $((T0 + 600))"
	sed -i "/^JobId = \"1.0\"/a TotalJobRunTime = 3000" "$TMP/slots.ads"
	run schedd-step --exits --now $((T0 + 1200)) "$TMP/slots.ads"
	((status == 0))
	printf '%s\n' "$output" >"$TMP/ex.ads"
	run classad-eval -p Name -p Event -p 'Time - 1700000000' -p JobId "$TMP/ex.ads"
	[[ $output == $'slot1@a\tJobExit\t1200\t1.0' ]]
	run schedd-step --exits --now $((T0 + 2000)) "$TMP/slots.ads"
	printf '%s\n' "$output" >"$TMP/ex.ads"
	run classad-eval -p Name -p 'Time - 1700000000' "$TMP/ex.ads"
	# slot2: 1100 s left at +600; the suspended and the endless jobs never exit
	[[ $output == $'slot1@a\t1200\nslot2@a\t1700' ]]
}

@test "--exits: time waiting for DeferralTime does not count; a vacating job leaves at once" {
	slot slot1@a Claimed Busy 'JobId = "1.0"' "JobStart = $T0" "MyCurrentTime = $((T0 + 60))" \
	    'TotalJobRunTime = 60' "Job = [ ClusterId = 1; ProcId = 0; JobDuration = 300; DeferralTime = $((T0 + 240)) ]"
	slot slot2@a Preempting Vacating 'JobId = "2.0"' "JobStart = $T0" "MyCurrentTime = $((T0 + 60))"
	slot slot3@a Preempting Killing 'JobId = "3.0"' "MyCurrentTime = $((T0 + 60))"
	run schedd-step --exits --now $((T0 + 540)) "$TMP/slots.ads"
	printf '%s\n' "$output" >"$TMP/ex.ads"
	run classad-eval -p Name -p Event -p 'Time - 1700000000' "$TMP/ex.ads"
	[[ $output == $'slot1@a\tJobExit\t540\nslot2@a\tStarterExit\t60' ]]
	run schedd-step --exits --now $((T0 + 539)) "$TMP/slots.ads"
	[[ $output != *JobExit* ]]
}

@test "a matched job runs; suspended and continued with events and counters" {
	job 1.0 1
	running slot1@a 1.0 $((T0 + 60))
	run schedd-step --now $((T0 + 600)) --jobs "$TMP/q.ads" -l "$TMP/log.ads" "$TMP/slots.ads"
	((status == 0))
	printf '%s\n' "$output" >"$TMP/q1.ads"
	run attr "$TMP/q1.ads" 1.0 'strcat(JobStatus, " ", RemoteHost, " ", JobCurrentStartDate - 1700000000, " ", NumJobStarts)'
	[[ $output == '2 slot1@a 60 1' ]]
	: >"$TMP/slots.ads"
	running slot1@a 1.0 $((T0 + 60)) Suspended
	sed -i "s/^EnteredCurrentActivity = .*/EnteredCurrentActivity = $((T0 + 900))/" "$TMP/slots.ads"
	schedd-step --now $((T0 + 1000)) --jobs "$TMP/q1.ads" -l "$TMP/log.ads" "$TMP/slots.ads" >"$TMP/q2.ads"
	run attr "$TMP/q2.ads" 1.0 'strcat(JobStatus, " ", TotalSuspensions, " ", LastSuspensionTime - 1700000000)'
	[[ $output == '7 1 900' ]]
	: >"$TMP/slots.ads"
	running slot1@a 1.0 $((T0 + 60))
	sed -i "s/^EnteredCurrentActivity = .*/EnteredCurrentActivity = $((T0 + 1200))/" "$TMP/slots.ads"
	schedd-step --now $((T0 + 1300)) --jobs "$TMP/q2.ads" -l "$TMP/log.ads" "$TMP/slots.ads" >"$TMP/q3.ads"
	run attr "$TMP/q3.ads" 1.0 'strcat(JobStatus, " ", CumulativeSuspensionTime)'
	[[ $output == '2 300' ]]
	run classad-eval -p MyType -p 'EventTime - 1700000000' -p Slot "$TMP/log.ads"
	[[ $output == $'ExecuteEvent\t60\tslot1@a\nJobSuspendedEvent\t900\tslot1@a\nJobUnsuspendedEvent\t1200\tslot1@a' ]]
}

@test "a slot names its job by the id as HTCondor writes it: 12.3, not 012.3 or 12.03" {
	job 12.3 1
	local k
	for k in 012.3 12.03 ' 12.3'; do
		slot "slot$((++n))@a" Claimed Busy "JobId = \"$k\"" "JobStart = $((T0 + 60))" \
		    "MyCurrentTime = $((T0 + 600))" \
		    'Job = [ ClusterId = 12; ProcId = 3; Owner = "alice"; JobDuration = 3600 ]'
	done
	run schedd-step --now $((T0 + 600)) --jobs "$TMP/q.ads" "$TMP/slots.ads"
	((status == 0))
	printf '%s\n' "$output" >"$TMP/q1.ads"
	run attr "$TMP/q1.ads" 12.3 JobStatus
	[[ $output == 1 ]]
	: >"$TMP/slots.ads"
	running slot3@a 12.3 $((T0 + 60))
	run schedd-step --now $((T0 + 600)) --jobs "$TMP/q.ads" "$TMP/slots.ads"
	((status == 0))
	printf '%s\n' "$output" >"$TMP/q2.ads"
	run attr "$TMP/q2.ads" 12.3 'strcat(JobStatus, " ", RemoteHost)'
	[[ $output == '2 slot3@a' ]]
}

@test "a job preempted by a match goes back to idle with the match's reason" {
	job 1.0 2 'RemoteHost = "slot1@a"' "JobCurrentStartDate = $T0"
	job 2.0 1 'Owner = "bob"'
	# the match: bob's 2.0 preempts 1.0 by RANK; the slot waits for 1.0 to leave
	printf 'Event = "Match"\nName = "slot1@a"\nJobId = "2.0"\nSubmitter = "bob@example.org"\nMatchReason = "Rank"\nPreemptedJobId = "1.0"\nPreemptedUser = "alice@example.org"\nTime = %s\n' \
	    $((T0 + 600)) >"$TMP/m.ads"
	slot slot1@a Preempting Vacating 'JobId = "1.0"' "JobStart = $T0" 'PreemptingJobId = "2.0"'
	schedd-step --now $((T0 + 600)) --jobs "$TMP/q.ads" -m "$TMP/m.ads" -l "$TMP/log.ads" "$TMP/slots.ads" >"$TMP/q1.ads"
	run attr "$TMP/q1.ads" 1.0 'strcat(JobStatus, " ", VacateReason, " ", PreemptingJobId)'
	[[ $output == '2 Rank 2.0' ]]
	run attr "$TMP/q1.ads" 2.0 'strcat(JobStatus, " ", MatchedSlot, " ", LastMatchTime - 1700000000)'
	[[ $output == '1 slot1@a 600' ]]
	# next cycle: 1.0 left at its StarterExit, 2.0 runs
	printf 'Name = "slot1@a"\nEvent = "StarterExit"\nTime = %s\nJobId = "1.0"\n' $((T0 + 600)) >"$TMP/ex.ads"
	: >"$TMP/slots.ads"
	slot slot1@a Claimed Busy 'JobId = "2.0"' "JobStart = $((T0 + 600))" "EnteredCurrentState = $((T0 + 600))"
	schedd-step --now $((T0 + 660)) --jobs "$TMP/q1.ads" -e "$TMP/ex.ads" -l "$TMP/log.ads" "$TMP/slots.ads" >"$TMP/q2.ads"
	run attr "$TMP/q2.ads" 1.0 'strcat(JobStatus, " ", LastVacateTime - 1700000000, " ", RemoteWallClockTime, " ", LastRemoteHost, " ", isUndefined(RemoteHost))'
	[[ $output == '1 600 600 slot1@a true' ]]
	run attr "$TMP/q2.ads" 2.0 'strcat(JobStatus, " ", isUndefined(MatchedSlot))'
	[[ $output == '2 true' ]]
	run classad-eval -w 'MyType == "JobEvictedEvent"' -p JobId -p Reason -p PreemptingJobId -p PreemptingUser -p RunTime "$TMP/log.ads"
	[[ $output == $'1.0\tRank\t2.0\tbob@example.org\t600' ]]
}

@test "the startd's eviction reason is kept; an eviction nobody explained is unknown" {
	job 1.0 2 'RemoteHost = "slot1@a"' "JobCurrentStartDate = $T0"
	job 2.0 2 'RemoteHost = "slot2@a"' "JobCurrentStartDate = $T0"
	slot slot1@a Claimed Retiring 'JobId = "1.0"' "JobStart = $T0" 'Eviction = "PREEMPT"'
	slot slot2@a Claimed Busy 'JobId = "2.0"' "JobStart = $T0"
	schedd-step --now $((T0 + 300)) --jobs "$TMP/q.ads" "$TMP/slots.ads" >"$TMP/q1.ads"
	run attr "$TMP/q1.ads" 1.0 VacateReason
	[[ $output == PREEMPT ]]
	: >"$TMP/slots.ads"
	slot slot1@a Owner Idle "EnteredCurrentState = $((T0 + 400))"
	slot slot2@a Owner Idle "EnteredCurrentState = $((T0 + 450))"
	schedd-step --now $((T0 + 600)) --jobs "$TMP/q1.ads" -l "$TMP/log.ads" "$TMP/slots.ads" >"$TMP/q2.ads"
	run classad-eval -p JobId -p Reason -p 'EventTime - 1700000000' "$TMP/log.ads"
	[[ $output == $'1.0\tPREEMPT\t400\n2.0\tunknown\t450' ]]
}

@test "a cron job goes back to idle after its run, without its DeferralTime; OnExitRemove" {
	job 1.0 2 'CronMinute = "*/10"' "DeferralTime = $((T0 + 60))" 'CronDue = true' \
	    'RemoteHost = "slot1@a"' "JobCurrentStartDate = $T0" "JobCurrentStartExecutingDate = $((T0 + 60))"
	job 2.0 2 'OnExitRemove = ExitCode =!= 0' 'RemoteHost = "slot2@a"' "JobCurrentStartDate = $T0"
	job 3.0 2 'RemoteHost = "slot3@a"' "JobCurrentStartDate = $T0"
	printf 'Name = "slot%s@a"\nEvent = "JobExit"\nTime = %s\nJobId = "%s.0"\n\n' \
	    1 $((T0 + 360)) 1 2 $((T0 + 400)) 2 3 $((T0 + 500)) 3 >"$TMP/ex.ads"
	for i in 1 2 3; do slot slot$i@a Unclaimed Idle; done
	schedd-step --now $((T0 + 600)) --jobs "$TMP/q.ads" -e "$TMP/ex.ads" -l "$TMP/log.ads" \
	    --history "$TMP/h.ads" "$TMP/slots.ads" >"$TMP/q1.ads"
	run classad-eval -p 'strcat(ClusterId, ".", ProcId)' -p JobStatus -p 'isUndefined(DeferralTime) && isUndefined(CronDue)' -p NumJobCompletions -p 'EnteredCurrentStatus - 1700000000' "$TMP/q1.ads"
	[[ $output == $'1.0\t1\ttrue\t1\t360\n2.0\t1\ttrue\t1\t400' ]]
	run classad-eval -p 'strcat(ClusterId, ".", ProcId)' -p JobStatus -p 'CompletionDate - 1700000000' -p ExitCode "$TMP/h.ads"
	[[ $output == $'3.0\t4\t500\t0' ]]
	run classad-eval -p JobId -p Requeued -p RunTime "$TMP/log.ads"
	[[ $output == $'1.0\ttrue\t300\n2.0\ttrue\t400\n3.0\tfalse\t500' ]]
}

@test "OnExitHold: a job whose OnExitHold is true at its exit is held (3), its reason and subcode its own" {
	job 1.0 2 'OnExitHold = ExitCode == 0 && NumJobCompletions < 2' 'RemoteHost = "slot1@a"' \
	    "JobCurrentStartDate = $T0"
	job 2.0 2 'OnExitHold = true' 'OnExitHoldReason = "check the output"' 'OnExitHoldSubCode = 5' \
	    'RemoteHost = "slot2@a"' "JobCurrentStartDate = $T0"
	job 3.0 2 'OnExitHold = ExitCode != 0' 'RemoteHost = "slot3@a"' "JobCurrentStartDate = $T0"
	printf 'Name = "slot%s@a"\nEvent = "JobExit"\nTime = %s\nJobId = "%s.0"\n\n' \
	    1 $((T0 + 360)) 1 2 $((T0 + 400)) 2 3 $((T0 + 500)) 3 >"$TMP/ex.ads"
	for i in 1 2 3; do slot slot$i@a Unclaimed Idle; done
	schedd-step --now $((T0 + 600)) --jobs "$TMP/q.ads" -e "$TMP/ex.ads" -l "$TMP/log.ads" \
	    --history "$TMP/h.ads" "$TMP/slots.ads" >"$TMP/q1.ads"
	run classad-eval -p 'strcat(ClusterId, ".", ProcId)' -p JobStatus -p HoldReasonCode \
	    -p HoldReasonSubCode -p HoldReason -p 'EnteredCurrentStatus - 1700000000' \
	    -p 'isUndefined(RemoteHost)' "$TMP/q1.ads"
	[[ ${lines[0]} == $'1.0\t5\t3\t0\tThe job attribute OnExitHold expression \'ExitCode == 0 && NumJobCompletions < 2\' evaluated to TRUE\t360\ttrue' ]]
	[[ ${lines[1]} == $'2.0\t5\t3\t5\tcheck the output\t400\ttrue' ]]
	[ "${#lines[@]}" -eq 2 ]
	# the third completes; the held ones have a held event and no terminated one
	run classad-eval -p 'strcat(ClusterId, ".", ProcId)' -p JobStatus "$TMP/h.ads"
	[[ $output == $'3.0\t4' ]]
	run classad-eval -p JobId -p MyType "$TMP/log.ads"
	[[ $output == $'1.0\tJobHeldEvent\n2.0\tJobHeldEvent\n3.0\tJobTerminatedEvent' ]]
}

@test "job attributes not simulated (JobUniverse 7, 9, 11, 12; NextJobStartDelay): a warning once each" {
	job 1.0 1 'JobUniverse = 5' 'NextJobStartDelay = 0'
	job 2.0 1 'JobUniverse = 11'
	job 3.0 1 'JobUniverse = 7' 'NextJobStartDelay = 30'
	slot slot1@a Unclaimed Idle
	run -0 --separate-stderr schedd-step --now $T0 --jobs "$TMP/q.ads" "$TMP/slots.ads"
	[ "${#stderr_lines[@]}" -eq 2 ]
	[[ ${stderr_lines[0]} == "schedd-step: $TMP/q.ads:9: warning: JobUniverse = 11 is not simulated (the scheduler, grid, parallel and local universes: such a job is matched here as a vanilla job); later jobs with it are not reported" ]]
	[[ ${stderr_lines[1]} == "schedd-step: $TMP/q.ads:16: warning: NextJobStartDelay = 30 is not simulated"* ]]
	[ "$(printf '%s\n' "$output" | grep -c '^ClusterId')" -eq 3 ]
}

@test "a deferred job executes at its DeferralTime: ExecuteEvent then" {
	job 1.0 1 "DeferralTime = $((T0 + 300))"
	slot slot1@a Claimed Busy 'JobId = "1.0"' "JobStart = $((T0 + 60))"
	schedd-step --now $((T0 + 120)) --jobs "$TMP/q.ads" -l "$TMP/log.ads" "$TMP/slots.ads" >"$TMP/q1.ads"
	run attr "$TMP/q1.ads" 1.0 'strcat(JobStatus, " ", isUndefined(JobCurrentStartExecutingDate))'
	[[ $output == '2 true' ]]
	[[ ! -s $TMP/log.ads ]]
	schedd-step --now $((T0 + 360)) --jobs "$TMP/q1.ads" -l "$TMP/log.ads" "$TMP/slots.ads" >"$TMP/q2.ads"
	run attr "$TMP/q2.ads" 1.0 'JobCurrentStartExecutingDate - 1700000000'
	[[ $output == 300 ]]
	run classad-eval -p MyType -p 'EventTime - 1700000000' -p 'ActivationTime - 1700000000' -p 'DeferralTime - 1700000000' "$TMP/log.ads"
	[[ $output == $'ExecuteEvent\t300\t60\t300' ]]
}

@test "a match that is held, then lost: MatchedSlot comes and goes" {
	job 1.0 1
	slot slot1@a Matched Idle 'JobId = "1.0"'
	schedd-step --now $T0 --jobs "$TMP/q.ads" "$TMP/slots.ads" >"$TMP/q1.ads"
	run attr "$TMP/q1.ads" 1.0 MatchedSlot
	[[ $output == slot1@a ]]
	: >"$TMP/slots.ads"
	slot slot1@a Owner Idle
	schedd-step --now $((T0 + 60)) --jobs "$TMP/q1.ads" "$TMP/slots.ads" >"$TMP/q2.ads"
	run attr "$TMP/q2.ads" 1.0 'strcat(JobStatus, " ", isUndefined(MatchedSlot))'
	[[ $output == '1 true' ]]
}

@test "--state: rewritten atomically under a lock, kept when an input is bad" {
	job 1.0 1
	cp "$TMP/q.ads" "$TMP/state.ads"
	chmod 640 "$TMP/state.ads"
	printf 'Owner = "bob"\n' >"$TMP/sub.ads"
	run schedd-step --now $T0 --state "$TMP/state.ads" --submit "$TMP/sub.ads"
	((status == 0))
	[[ -z $output ]]
	run classad-eval -p Owner "$TMP/state.ads"
	[[ $output == $'alice\nbob' ]]
	[[ -e $TMP/state.ads.lock ]]
	[[ $(stat -c %a "$TMP/state.ads") == 640 ]]
	[[ -z $(find "$TMP" -name '.state.ads.*') ]]
	cp "$TMP/state.ads" "$TMP/before.ads"
	printf 'Name = "slot1@a"\nState = \n' >"$TMP/bad.ads"
	run schedd-step --now $T0 --state "$TMP/state.ads" "$TMP/bad.ads"
	((status == 3))
	[[ $output == *"not rewritten"* ]]
	cmp "$TMP/state.ads" "$TMP/before.ads"
	# a state that does not exist yet is an empty queue
	run schedd-step --now $T0 --state "$TMP/new.ads" --submit "$TMP/sub.ads"
	((status == 0))
	run classad-eval -p Owner "$TMP/new.ads"
	[[ $output == bob ]]
}

@test "a job without ClusterId in the queue is reported and kept" {
	printf 'Owner = "x"\nJobStatus = 1\n' >"$TMP/q.ads"
	run --separate-stderr schedd-step --now $T0 --jobs "$TMP/q.ads"
	((status == 3))
	[[ $stderr == *"q.ads:1: a job without integer ClusterId and ProcId"* ]]
	[[ $output == *'Owner = "x"'* ]]
	run schedd-step --now $T0 --jobs "$TMP/nonexistent.ads"
	((status == 4))
}

# ---- submit defaults, deferral, holds, releases and removals ----

# cfg LINE...: $TMP/c.config holds these lines
cfg() { printf '%s\n' "$@" >"$TMP/c.config"; }

@test "--submit: JOB_DEFAULT_REQUEST* from -c (with units, or expressions); a nice user's MaxJobRetirementTime is 0" {
	cfg 'JOB_DEFAULT_REQUESTCPUS = 2' 'JOB_DEFAULT_REQUESTMEMORY = 2G' \
	    'JOB_DEFAULT_REQUESTDISK = 4096' 'JOB_DEFAULT_LEASE_DURATION = 600'
	printf 'Owner = "bob"\n\nOwner = "frank"\nNiceUser = true\n\nOwner = "erin"\nNiceUser = true\nMaxJobRetirementTime = 100\n' >"$TMP/sub.ads"
	run -0 schedd-step -c "$TMP/c.config" --now $T0 --jobs /dev/null --submit "$TMP/sub.ads"
	printf '%s\n' "$output" >"$TMP/out.ads"
	run classad-eval -p Owner -p RequestCpus -p RequestMemory -p RequestDisk -p JobLeaseDuration \
	    -p MaxJobRetirementTime "$TMP/out.ads"
	[[ $output == $'bob\t2\t2048\t4096\t600\tundefined\nfrank\t2\t2048\t4096\t600\t0\nerin\t2\t2048\t4096\t600\t100' ]]
	# the manual's defaults follow MemoryUsage and DiskUsage when a job has them
	printf 'Owner = "bob"\nMemoryUsage = 300\nDiskUsage = 5000\n\nOwner = "carol"\nExecutableSize = 77\n' >"$TMP/sub.ads"
	run -0 schedd-step --now $T0 --jobs /dev/null --submit "$TMP/sub.ads"
	printf '%s\n' "$output" >"$TMP/out.ads"
	run classad-eval -p Owner -p RequestMemory -p RequestDisk -p DiskUsage "$TMP/out.ads"
	[[ $output == $'bob\t300\t5000\t5000\ncarol\t1\t77\t77' ]]
	cfg 'JOB_DEFAULT_REQUESTMEMORY = 2 *'
	run -3 --separate-stderr schedd-step -c "$TMP/c.config" --now $T0 --jobs /dev/null
	[[ $stderr == *"c.config:1:"* ]]
}

@test "deferral: a job is not matched before DeferralTime - DeferralPrepTime, nor after its window (the seed's examples)" {
	local dt=1262368800		# deferral_time = 1262368800, deferral_prep_time = 60
	printf 'Owner = "alice"\nDeferralTime = %s\nDeferralPrepTime = 60\n' $dt >"$TMP/sub.ads"
	cfg 'SCHEDD_INTERVAL = 60'
	run -0 schedd-step -c "$TMP/c.config" --now $((dt - 86400)) --jobs /dev/null --submit "$TMP/sub.ads"
	printf '%s\n' "$output" >"$TMP/job.ad"
	run classad-eval -p DeferralWindow -p DeferralPrepTime -p ScheddInterval "$TMP/job.ad"
	[[ $output == $'0\t60\t60' ]]
	printf 'Cpus = 1\nMemory = 1024\nDisk = 100000\n' >"$TMP/slot.ad"
	local t want
	for t in $((dt - 86400)):false $((dt - 121)):false $((dt - 120)):true $((dt - 1)):true \
	    $dt:false; do
		run -0 classad-eval --now ${t%:*} -f "$TMP/job.ad" -t "$TMP/slot.ad" Requirements
		want=${t#*:}
		[[ $output == "$want" ]] || { echo "at ${t%:*}: $output"; return 1; }
	done
	# a cron job's DeferralTime comes from cron-next, which sees to its window
	printf 'Owner = "ops"\nCronMinute = "0"\n' >"$TMP/sub.ads"
	run -0 schedd-step --now $T0 --jobs /dev/null --submit "$TMP/sub.ads"
	[[ $output != *DeferralPrepTime* ]]
}

@test "deferral: a job that starts after DeferralTime + DeferralWindow is held (20); the window's last second is in it" {
	# the seed: 45 s late with a window of 120 s, the job runs
	local late status
	for late in 45:2 120:2 121:5; do
		rm -f "$TMP/q.ads" "$TMP/slots.ads"
		job 1.0 1 "DeferralTime = $T0" 'DeferralWindow = 120'
		running slot1@a 1.0 $((T0 + ${late%:*}))
		schedd-step --now $((T0 + 600)) --jobs "$TMP/q.ads" -l "$TMP/log.ads" \
		    "$TMP/slots.ads" >"$TMP/q1.ads"
		status=$(attr "$TMP/q1.ads" 1.0 JobStatus)
		[[ $status == "${late#*:}" ]] || { echo "${late%:*} s late: JobStatus $status"; return 1; }
	done
	run attr "$TMP/q1.ads" 1.0 'strcat(HoldReasonCode, " ", HoldReasonSubCode, " ", HoldReason, " ", LastRemoteHost, " ", NumHolds)'
	[[ $output == '20 0 Job missed deferred execution time slot1@a 1' ]]
	run classad-eval -w 'Cluster == 1' -p MyType -p 'EventTime - JobStart' -p HoldReasonCode \
	    -p 'ifThenElse(isUndefined(DeferralTime), "", "deferred")' "$TMP/log.ads"
	[[ $output == *$'ExecuteEvent\tundefined\tundefined\tdeferred'* ]]
	[[ ${lines[-1]} == $'JobHeldEvent\tundefined\t20\t' ]]
	# its starter does not run it: --exits stops it on the slot
	run -0 schedd-step --exits --now $((T0 + 600)) --jobs "$TMP/q1.ads" "$TMP/slots.ads"
	[[ $output == *'Event = "StarterExit"'* ]]
}

@test "holds: PeriodicHold and SYSTEM_PERIODIC_HOLD (with _NAMES, _REASON, _SUBCODE), HTCondor's reasons and codes" {
	job 1.0 1 "QDate = $T0" 'PeriodicHold = (time() - QDate) > 600'
	job 2.0 1 "QDate = $T0" 'PeriodicHold = (time() - QDate) > 600' 'PeriodicHoldReason = "too old"' \
	    'PeriodicHoldSubCode = 7'
	job 3.0 1 'NumJobStarts = 3'
	job 4.0 1 'RequestMemory = 8192'
	job 5.0 2 'RemoteHost = "slot1@a"' "JobCurrentStartDate = $((T0 + 100))" 'NumJobStarts = 3'
	running slot1@a 5.0 $((T0 + 100))
	cfg 'SYSTEM_PERIODIC_HOLD = NumJobStarts > 2' \
	    'SYSTEM_PERIODIC_HOLD_REASON = strcat("started ", NumJobStarts, " times")' \
	    'SYSTEM_PERIODIC_HOLD_SUBCODE = 42' \
	    'SYSTEM_PERIODIC_HOLD_NAMES = big' 'SYSTEM_PERIODIC_HOLD_big = RequestMemory > 4096'
	run -0 schedd-step -c "$TMP/c.config" --now $((T0 + 300)) --jobs "$TMP/q.ads" \
	    -l "$TMP/log.ads" "$TMP/slots.ads"
	printf '%s\n' "$output" >"$TMP/q1.ads"
	run classad-eval -p 'strcat(ClusterId, ".", ProcId)' -p JobStatus -p HoldReasonCode \
	    -p HoldReasonSubCode -p HoldReason "$TMP/q1.ads"
	[[ ${lines[0]} == $'1.0\t1\tundefined\tundefined\tundefined' ]]
	[[ ${lines[2]} == $'3.0\t5\t26\t42\tstarted 3 times' ]]
	[[ ${lines[3]} == $'4.0\t5\t26\t0\tThe system macro SYSTEM_PERIODIC_HOLD expression \'RequestMemory > 4096\' evaluated to TRUE' ]]
	[[ ${lines[4]} == $'5.0\t5\t26\t42\tstarted 3 times' ]]
	run -0 schedd-step -c "$TMP/c.config" --now $((T0 + 601)) --jobs "$TMP/q1.ads" \
	    -l "$TMP/log.ads" "$TMP/slots.ads"
	printf '%s\n' "$output" >"$TMP/q2.ads"
	run classad-eval -p JobStatus -p HoldReasonCode -p HoldReasonSubCode -p HoldReason \
	    -p EnteredCurrentStatus "$TMP/q2.ads"
	[[ ${lines[0]} == $'5\t3\t0\tThe job attribute PeriodicHold expression \'(time() - QDate) > 600\' evaluated to TRUE\t1700000601' ]]
	[[ ${lines[1]} == $'5\t3\t7\ttoo old\t1700000601' ]]
	# the running job left its slot, which the schedd stops (--exits --jobs)
	run attr "$TMP/q2.ads" 5.0 'strcat(LastRemoteHost, " ", isUndefined(RemoteHost), " ", RemoteWallClockTime)'
	[[ $output == 'slot1@a true 200' ]]
	run -0 schedd-step --exits --now $((T0 + 600)) --jobs "$TMP/q2.ads" "$TMP/slots.ads"
	[[ $output == *'Name = "slot1@a"'* && $output == *'Event = "StarterExit"'* ]]
	run -0 schedd-step --exits --now $((T0 + 600)) "$TMP/slots.ads"
	[[ $output != *StarterExit* ]]
	run classad-eval -w 'MyType == "JobHeldEvent"' -p JobId -p EventTypeNumber -p HoldReasonCode \
	    -p EventTime "$TMP/log.ads"
	[[ $output == $'3.0\t12\t26\t1700000300\n4.0\t12\t26\t1700000300\n5.0\t12\t26\t1700000300\n1.0\t12\t3\t1700000601\n2.0\t12\t3\t1700000601' ]]
}

@test "releases and removals: SYSTEM_PERIODIC_RELEASE, SYSTEM_MAX_RELEASES, PeriodicRemove; user holds stay" {
	job 1.0 5 'HoldReasonCode = 26' 'HoldReason = "started 3 times"' 'HoldReasonSubCode = 42' \
	    "EnteredCurrentStatus = $T0" 'NumHolds = 1'
	job 2.0 5 'HoldReasonCode = 1' 'HoldReason = "via condor_hold (by user alice)"' \
	    "EnteredCurrentStatus = $T0" 'NumHolds = 1'
	job 3.0 5 'HoldReasonCode = 26' "EnteredCurrentStatus = $T0" 'NumHolds = 2'
	job 4.0 5 'HoldReasonCode = 3' "EnteredCurrentStatus = $T0" 'NumHolds = 1' \
	    'PeriodicRemove = JobStatus == 5 && (time() - EnteredCurrentStatus) > 3600'
	cfg 'SYSTEM_PERIODIC_RELEASE = HoldReasonCode =!= 3 && (time() - EnteredCurrentStatus) > 300' \
	    'SYSTEM_MAX_RELEASES = 2'
	run -0 schedd-step -c "$TMP/c.config" --now $((T0 + 301)) --jobs "$TMP/q.ads" \
	    -l "$TMP/log.ads" --history "$TMP/hist.ads"
	printf '%s\n' "$output" >"$TMP/q1.ads"
	run classad-eval -p 'strcat(ClusterId, ".", ProcId)' -p JobStatus -p LastHoldReasonCode \
	    -p LastHoldReason -p 'isUndefined(HoldReason)' "$TMP/q1.ads"
	[[ ${lines[0]} == $'1.0\t1\t26\tstarted 3 times\ttrue' ]]
	[[ ${lines[1]} == $'2.0\t5\tundefined\tundefined\tfalse' ]]	# held by its user
	[[ ${lines[2]} == $'3.0\t5\tundefined\tundefined\ttrue' ]]	# held twice already
	run attr "$TMP/q1.ads" 1.0 ReleaseReason
	[[ $output == "The system macro SYSTEM_PERIODIC_RELEASE expression 'HoldReasonCode =!= 3 && (time() - EnteredCurrentStatus) > 300' evaluated to TRUE" ]]
	run -0 schedd-step -c "$TMP/c.config" --now $((T0 + 3601)) --jobs "$TMP/q1.ads" \
	    -l "$TMP/log.ads" --history "$TMP/hist.ads"
	[[ $output != *"ClusterId = 4"* ]]
	run classad-eval -p JobStatus -p RemoveReason "$TMP/hist.ads"
	[[ $output == $'3\tThe job attribute PeriodicRemove expression \'JobStatus == 5 && (time() - EnteredCurrentStatus) > 3600\' evaluated to TRUE' ]]
	run classad-eval -p MyType -p EventTypeNumber -p JobId -p Reason "$TMP/log.ads"
	[[ ${lines[0]} == $'JobReleasedEvent\t13\t1.0\tThe system macro SYSTEM_PERIODIC_RELEASE expression \'HoldReasonCode =!= 3 && (time() - EnteredCurrentStatus) > 300\' evaluated to TRUE' ]]
	[[ ${lines[1]} == JobAbortedEvent$'\t9\t4.0\t'* ]]
}

@test "WANT_HOLD: use POLICY : Hold_If_Memory_Exceeded holds the job (21, 102), the startd telling the schedd" {
	cfg 'NUM_SLOTS = 1' 'use POLICY : Hold_If_Memory_Exceeded'
	printf 'Name = "desk.example.org"\nCpus = 1\nMemory = 1024\nDisk = 100000\n' >"$TMP/desk.ad"
	startd-step --init --now $T0 -c "$TMP/c.config" "$TMP/desk.ad" >"$TMP/s0.ads"
	job 1.0 1 'RequestMemory = 512' 'MemoryUsage = 200' 'JobUniverse = 5' 'RequestCpus = 1' \
	    'RequestDisk = 10'
	printf 'Name = "slot1@desk.example.org"\nEvent = "Claim"\nTime = %s\nJob = [ ClusterId = 1; ProcId = 0; Owner = "alice"; JobUniverse = 5; RequestCpus = 1; RequestMemory = 512; RequestDisk = 10; MemoryUsage = 200 ]\n' \
	    $((T0 + 10)) >"$TMP/ev1.ads"
	# the machine's memory shrinks below what the job uses
	printf 'Name = "desk.example.org"\nEvent = "MachineUpdate"\nTime = %s\nMemory = 100\n' \
	    $((T0 + 100)) >"$TMP/ev2.ads"
	startd-step -a -c "$TMP/c.config" --now $((T0 + 60)) -e "$TMP/ev1.ads" "$TMP/s0.ads" >"$TMP/s1.ads"
	schedd-step --now $((T0 + 60)) --jobs "$TMP/q.ads" "$TMP/s1.ads" >"$TMP/q1.ads"
	startd-step -a -v -c "$TMP/c.config" --now $((T0 + 300)) -e "$TMP/ev2.ads" "$TMP/s1.ads" \
	    >"$TMP/s2.ads" 2>"$TMP/log"
	grep -q 'WANT_HOLD = true: the job is put on hold (memory usage exceeded request_memory)' "$TMP/log"
	run -0 schedd-step --now $((T0 + 300)) --jobs "$TMP/q1.ads" -l "$TMP/jlog.ads" "$TMP/s2.ads"
	printf '%s\n' "$output" >"$TMP/q2.ads"
	run attr "$TMP/q2.ads" 1.0 'strcat(JobStatus, " ", HoldReasonCode, " ", HoldReasonSubCode, " ", HoldReason)'
	[[ $output == '5 21 102 memory usage exceeded request_memory' ]]
	run classad-eval -p MyType -p HoldReasonCode -p HoldReasonSubCode "$TMP/jlog.ads"
	[[ $output == $'JobHeldEvent\t21\t102' ]]
}
