# classad-match.bats - the classad-match program: the seeds' job and machine
# ads, the RANK examples, Requirements that are missing, UNDEFINED or ERROR,
# the output formats and options, --analyze, and bad input.

load helpers

M=$BATS_TEST_DIRNAME/data/match

# The seed 003 machine with its keyboard idle for an hour, so that its
# START holds (as printed, KeyboardIdle = 15 and the machine says no).
idle_machine() {
	sed 's/^KeyboardIdle = 15$/KeyboardIdle = 3600/' "$M/seed003-machine.ads" >"$TMP/idle.ads"
}

# ---- seed 003: the job and machine ads of Figure 15.1 ----

@test "seed 003: the figure's job and machine do not match: KeyboardIdle 15 fails START" {
	run -1 --separate-stderr classad-match "$M/seed003-job.ads" "$M/seed003-machine.ads"
	[ -z "$output" ]
	[ -z "$stderr" ]
}

@test "seed 003: the analysis says the machine rejects the job by its own Requirements" {
	run -1 classad-match --analyze "$M/seed003-job.ads" "$M/seed003-machine.ads"
	check_golden classad-match/seed003-analyze
}

@test "seed 003: --analyze --reverse shows START's clauses and that KeyboardIdle is 15" {
	run -1 classad-match --analyze --reverse "$M/seed003-job.ads" "$M/seed003-machine.ads"
	check_golden classad-match/seed003-reverse
}

@test "seed 003: with the keyboard idle they match; job Rank (Memory * 10000) + KFlops, machine Rank Department" {
	idle_machine
	run -0 classad-match "$M/seed003-job.ads" "$TMP/idle.ads"
	# 511 * 10000 + 145811; TARGET.Department == MY.Department is true: 1.0
	[ "$output" = $'680.64\t0\t5255811.0\t1.0' ]
}

@test "seed 003: the text's Rank (Memory * 100000) + KFlops ranks higher" {
	idle_machine
	sed 's/^Rank = (Memory \* 10000) + KFlops$/Rank = (Memory * 100000) + KFlops/' \
	    "$M/seed003-job.ads" >"$TMP/job.ads"
	run -0 classad-match "$TMP/job.ads" "$TMP/idle.ads"
	[ "$output" = $'680.64\t0\t51245811.0\t1.0' ]
}

@test "seed 003: the figure's misprint Op-Sys parses as Op - Sys: UNDEFINED, no match" {
	idle_machine
	sed 's/OpSys==/Op-Sys==/' "$M/seed003-job.ads" >"$TMP/job.ads"
	run -1 classad-match "$TMP/job.ads" "$TMP/idle.ads"
	[ -z "$output" ]
	run -1 classad-match --analyze "$TMP/job.ads" "$TMP/idle.ads"
	[[ $output == *'[2]           0  Op - Sys == "LINUX"'* ]]
	[[ $output == *'[2] Op - Sys == "LINUX": Op - Sys is undefined in every slot'* ]]
}

# ---- seed 004: turunmaa and the condor_status table ----

@test "seed 004: turunmaa (Requirements = START, START = true) takes a job wanting 128 MB" {
	echo '[ ClusterId = 1; ProcId = 0; Requirements = Memory >= 128; Rank = KFlops ]' >"$TMP/job.ad"
	# unscoped Memory and KFlops fall back to the slot; turunmaa has no
	# KFlops, so the Rank is UNDEFINED and counts as 0.0
	run -0 classad-match "$TMP/job.ad" "$M/seed004-turunmaa.ads"
	[ "$output" = $'1.0\tturunmaa.cs.wisc.edu\t0.0\t0.0' ]
}

@test "seed 004: the seed 003 job matches turunmaa (big disk, INTEL, LINUX)" {
	run -0 classad-match "$M/seed003-job.ads" "$M/seed004-turunmaa.ads"
	[ "$output" = $'680.64\tturunmaa.cs.wisc.edu\t0.0\t0.0' ]
}

@test "seed 004: the status table's slots, best Memory first, ties in input order" {
	echo '[ ClusterId = 2; ProcId = 0; Requirements = TARGET.Memory >= 1500; Rank = TARGET.Memory ]' \
	    >"$TMP/job.ad"
	run -0 classad-match "$TMP/job.ad" "$M/seed004-status.ads"
	check_golden classad-match/seed004-status
}

@test "seed 004: --best, -n and --constraint" {
	echo '[ ClusterId = 2; ProcId = 0; Requirements = TARGET.Memory >= 1500; Rank = TARGET.Memory ]' \
	    >"$TMP/job.ad"
	run -0 classad-match --best "$TMP/job.ad" "$M/seed004-status.ads"
	[ "$output" = $'2.0\tapollo.cs.wisc.edu\t3032.0\t0.0' ]
	run -0 classad-match -n 3 "$TMP/job.ad" "$M/seed004-status.ads"
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[2]}" = $'2.0\tamul.cs.wisc.edu\t1896.0\t0.0' ]
	run -0 classad-match --constraint 'State == "Owner"' "$TMP/job.ad" "$M/seed004-status.ads"
	[ "$output" = $'2.0\tbamba.cs.wisc.edu\t3032.0\t0.0' ]
	run -1 classad-match --constraint 'Memory > 4000' "$TMP/job.ad" "$M/seed004-status.ads"
	[ -z "$output" ]
}

@test "seed 004: the seed 003 job analysed on the status table: Disk is undefined in every slot" {
	run -1 classad-match --analyze "$M/seed003-job.ads" "$M/seed004-status.ads"
	check_golden classad-match/seed004-analyze
}

# ---- seed 000: the RANK examples ----

@test "seed 000: RANK from each machine's side (--reverse), best first, ties in job order" {
	run -0 classad-match --reverse "$M/rank-jobs.ads" "$M/rank-slots.ads"
	check_golden classad-match/rank-reverse
}

@test "seed 000: bass ranks Jimmy Garrison 10, the quartet 1, others 0" {
	run -0 classad-match --reverse --constraint 'Name == "bass"' "$M/rank-jobs.ads" "$M/rank-slots.ads"
	[ "${lines[0]}" = $'bass\t3.0\t10.0\t0.0' ]
	[ "${lines[4]}" = $'bass\t5.0\t0.0\t0.0' ]
}

@test "seed 000: the printed RANK (Owner == \"coltrane\" * 10^12) + Imagesize is ERROR: 0.0 for all" {
	run -0 classad-match -r -b --constraint 'Name == "tenorsax"' "$M/rank-jobs.ads" "$M/rank-slots.ads"
	[ "$output" = $'tenorsax\t1.0\t0.0\t0.0' ]
}

@test "seed 000: the slot Rank shows in the jobs' view too" {
	run -0 classad-match "$M/rank-jobs.ads" "$M/rank-slots.ads"
	[ "${lines[14]}" = $'4.0\tdrums\t0.0\t100000.0' ]
	[ "${#lines[@]}" -eq 20 ]
}

# ---- Requirements: missing, UNDEFINED, ERROR ----

@test "a missing, UNDEFINED or ERROR Requirements never matches, on either side" {
	cat >"$TMP/jobs.ads" <<'ADS'
[ ClusterId = 1; ProcId = 0 ]
[ ClusterId = 2; ProcId = 0; Requirements = undefined ]
[ ClusterId = 3; ProcId = 0; Requirements = TARGET.NoSuchAttribute > 1 ]
[ ClusterId = 4; ProcId = 0; Requirements = "yes" ]
[ ClusterId = 5; ProcId = 0; Requirements = 1 / 0 == 1 ]
[ ClusterId = 6; ProcId = 0; Requirements = true ]
ADS
	cat >"$TMP/slots.ads" <<'ADS'
[ Name = "none" ]
[ Name = "undef"; Requirements = TARGET.NoSuchAttribute ]
[ Name = "error"; Requirements = "x" + 1 ]
[ Name = "yes"; Requirements = 2 ]
ADS
	run -0 classad-match "$TMP/jobs.ads" "$TMP/slots.ads"
	[ "$output" = $'6.0\tyes\t0.0\t0.0' ]
	run -1 classad-match --constraint 'Name != "yes"' "$TMP/jobs.ads" "$TMP/slots.ads"
	[ -z "$output" ]
}

@test "--analyze of a job without Requirements, and of one whose Requirements is ERROR" {
	echo '[ ClusterId = 1; ProcId = 0 ]' >"$TMP/j1.ad"
	echo '[ Name = "s"; Requirements = true ]' >"$TMP/s.ad"
	run -1 classad-match --analyze "$TMP/j1.ad" "$TMP/s.ad"
	[ "${lines[0]}" = 'Job 1.000 has no Requirements expression, so it matches no slot.' ]
	[[ $output == *'      1 slots are rejected by your job'\''s requirements'* ]]
	echo '[ ClusterId = 1; ProcId = 0; Requirements = "yes" && MY.x; x = true ]' >"$TMP/j2.ad"
	run -1 classad-match --analyze "$TMP/j2.ad" "$TMP/s.ad"
	[[ $output == *'[1]       never  "yes"'* ]]
	[[ $output == *'[2]      always  MY.x'* ]]
	[[ $output == *'[1] "yes": it is "yes" for the job itself'* ]]
}

# ---- identities, formats, options ----

@test "without ClusterId/ProcId and Name, jobs and slots are named by their index" {
	printf '[ Requirements = TARGET.n > 1 ]\n[ Requirements = true; Rank = TARGET.n ]\n' >"$TMP/jobs.ads"
	printf '[ n = 1; Requirements = true ]\n[ n = 2; Requirements = true ]\n' >"$TMP/slots.ads"
	run -0 classad-match "$TMP/jobs.ads" "$TMP/slots.ads"
	[ "$output" = $'0\t1\t0.0\t0.0\n1\t1\t2.0\t0.0\n1\t0\t1.0\t0.0' ]
}

@test "-o long, new and json write match ads with the identifying attributes" {
	run -0 classad-match -o long "$M/rank-jobs.ads" "$M/rank-slots.ads"
	[ "${lines[0]}" = 'JobId = "1.0"' ]
	run -0 classad-match -o new -b "$M/rank-jobs.ads" "$M/rank-slots.ads"
	check_golden classad-match/rank-best-new
	run -0 classad-match -o json -b --constraint 'Name == "drums"' "$M/rank-jobs.ads" "$M/rank-slots.ads"
	check_golden classad-match/rank-drums-json
}

@test "-o json -z: gzip output that reads back" {
	run -0 bash -c "classad-match -o json -z '$M/rank-jobs.ads' '$M/rank-slots.ads' | gzip -dc"
	[ "${lines[0]}" = '[' ]
	[[ $output == *'"SlotName": "tenorsax"'* ]]
}

@test "inputs in any format: new syntax, JSON, gzip, and standard input" {
	classad-match "$M/rank-jobs.ads" "$M/rank-slots.ads" >"$TMP/want"
	classad-eval -o json "$M/rank-slots.ads" | gzip >"$TMP/slots.json.gz"
	classad-eval -o new "$M/rank-jobs.ads" >"$TMP/jobs.new"
	run -0 classad-match "$TMP/jobs.new" "$TMP/slots.json.gz"
	[ "$output" = "$(cat "$TMP/want")" ]
	run -0 classad-match - "$TMP/slots.json.gz" <"$TMP/jobs.new"
	[ "$output" = "$(cat "$TMP/want")" ]
	classad-eval -o new "$M/rank-slots.ads" >"$TMP/slots.new"
	run -0 classad-match -i new "$TMP/jobs.new" - <"$TMP/slots.new"
	[ "$output" = "$(cat "$TMP/want")" ]
}

@test "autoclusters give the same answer as matching every job by itself" {
	for f in "" -r; do
		classad-match $f "$POOL/jobs.ads" "$POOL/slots.ads" >"$TMP/a"
		classad-match $f --no-autocluster "$POOL/jobs.ads" "$POOL/slots.ads" >"$TMP/b"
		cmp "$TMP/a" "$TMP/b"
	done
}

@test "slots stream: 300,000 slot ads through --constraint and the matcher in bounded memory" {
	[[ -z ${ASAN_OPTIONS:-} ]] || skip "address space limits do not work under ASan"
	printf '[ ClusterId = 1; ProcId = 0; Requirements = TARGET.Memory >= 2048; Rank = TARGET.Memory ]\n' \
	    >"$TMP/job.ad"
	gen() {
		awk 'BEGIN { for (i = 0; i < 300000; i++)
		    printf "Name = \"slot%d\"\nMemory = %d\nState = \"%s\"\nRequirements = true\n\n",
		        i, 1024 * (1 + i % 8), i % 3 ? "Claimed" : "Unclaimed" }'
	}
	# about 20 MB of ads; 64 MB of address space is far less than keeping them
	run -0 bash -c "ulimit -v 65536; gen() { $(declare -f gen | tail -n +2); }; gen |
	    classad-match --best --constraint 'State == \"Unclaimed\"' '$TMP/job.ad' -"
	[ "$output" = $'1.0\tslot15\t8192.0\t0.0' ]
	run -0 bash -c "ulimit -v 65536; gen() { $(declare -f gen | tail -n +2); }; gen |
	    classad-match --analyze '$TMP/job.ad' - | grep 'willing'"
	[ "$output" = ' 262500 slots match and are willing to run your job' ]
}

@test "--hold: matches beyond it wait sorted in a temporary file; the output is the same" {
	for o in "" "-o json"; do
		classad-match $o "$POOL/jobs.ads" "$POOL/slots.ads" >"$TMP/a"
		for n in 1 2 5; do
			classad-match $o --hold $n "$POOL/jobs.ads" "$POOL/slots.ads" >"$TMP/b"
			cmp "$TMP/a" "$TMP/b"
		done
	done
	# the file is gone when the program is
	mkdir "$TMP/tmp"
	TMPDIR=$TMP/tmp classad-match --hold 1 "$POOL/jobs.ads" "$POOL/slots.ads" >/dev/null
	[ -z "$(ls -A "$TMP/tmp")" ]
	# no place for it: a system error, and no line printed in part
	TMPDIR=$TMP/none run -4 classad-match --hold 1 "$POOL/jobs.ads" "$POOL/slots.ads"
	[[ $output == *'cannot make the temporary file of matches: No such file or directory'* ]]
	[[ $output != *$'\t'* ]]
	run -2 classad-match --hold 0 "$POOL/jobs.ads" "$POOL/slots.ads"
}

@test "--hold: 3,000,000 matches in bounded memory" {
	[[ -z ${ASAN_OPTIONS:-} ]] || skip "address space limits do not work under ASan"
	# 30 autoclusters, each matching every one of 100,000 slots
	awk 'BEGIN { for (j = 0; j < 30; j++)
	    printf "ClusterId = %d\nProcId = 0\nRequirements = TARGET.Memory >= %d\nRank = TARGET.Memory\n\n",
	        j + 1, j }' >"$TMP/jobs.ads"
	awk 'BEGIN { for (i = 0; i < 100000; i++)
	    printf "Name = \"s%d\"\nMemory = %d\nRequirements = true\n\n", i, 1024 + i % 97 }' \
	    >"$TMP/slots.ads"
	# 72 MB of matches; 64 MB of address space is far less than keeping them
	run -0 bash -c "ulimit -v 65536; classad-match --hold 200000 '$TMP/jobs.ads' '$TMP/slots.ads' |
	    awk 'NR == 1 || NR == 3000000 { print } END { print NR }'"
	[ "$output" = $'1.0\ts96\t1120.0\t0.0\n30.0\ts99910\t1024.0\t0.0\n3000000' ]
}

# ---- the example pool ----

@test "the example pool: every job's slots, best first" {
	run -0 classad-match "$POOL/jobs.ads" "$POOL/slots.ads"
	check_golden classad-match/pool
}

@test "the example pool: --reverse" {
	run -0 classad-match --reverse "$POOL/jobs.ads" "$POOL/slots.ads"
	check_golden classad-match/pool-reverse
}

@test "the example pool: --analyze 103.0 (the man page's example) names the memory" {
	run -1 classad-match --analyze 103.0 "$POOL/jobs.ads" "$POOL/slots.ads"
	check_golden classad-match/pool-analyze-103
	[[ $output == *$'[4] TARGET.Memory >= RequestMemory:\n        no slot has more than 65536 (RequestMemory is 262144)'* ]]
}

@test "the man page's worked example is what the program prints" {
	man=$BATS_TEST_DIRNAME/../man/classad-match.1
	# the literal block after the command line, up to .Ed
	sed -n '/^\$ classad-match --analyze 103.0/,/^\.Ed/p' "$man" | sed '1d;$d' >"$TMP/man.out"
	[ -s "$TMP/man.out" ]
	(cd "$BATS_TEST_DIRNAME/../share/pool" && classad-match --analyze 103.0 jobs.ads slots.ads) >"$TMP/got" || true
	diff -u "$TMP/man.out" "$TMP/got"
}

@test "the example pool: --analyze of every job, and of a slot with -r" {
	run -0 classad-match --analyze "$POOL/jobs.ads" "$POOL/slots.ads"
	check_golden classad-match/pool-analyze-all
	run -1 classad-match --analyze --reverse slot1@ws01.cs.example.org "$POOL/jobs.ads" "$POOL/slots.ads"
	check_golden classad-match/pool-analyze-ws01
}

@test "--analyze=ID and a positional ID are the same; a number alone is a cluster, as for condor_q" {
	run -1 classad-match --analyze=103.0 "$POOL/jobs.ads" "$POOL/slots.ads"
	a=$output
	run -1 classad-match --analyze 103 "$POOL/jobs.ads" "$POOL/slots.ads"
	[ "$output" = "$a" ]
	run -1 classad-match -better-analyze 103 "$POOL/jobs.ads" "$POOL/slots.ads"
	[ "$output" = "$a" ]
	run -1 classad-match -better 103.0 "$POOL/jobs.ads" "$POOL/slots.ads"
	[ "$output" = "$a" ]
	# 3 is cluster 3, which the queue does not have (not the fourth job)
	run -1 --separate-stderr classad-match --analyze 3 "$POOL/jobs.ads" "$POOL/slots.ads"
	[ "$output" = "" ]
	[ "$stderr" = "classad-match: no job 3 in the jobs" ]
}

@test "condor_q's and condor_status's spellings: -constraint, -reverse, -analyze; near misses get a hint" {
	run -0 classad-match -constraint 'Memory > 8000' "$POOL/jobs.ads" "$POOL/slots.ads"
	a=$output
	run -0 classad-match -w 'Memory > 8000' "$POOL/jobs.ads" "$POOL/slots.ads"
	[ "$output" = "$a" ]
	run -0 classad-match --where 'Memory > 8000' "$POOL/jobs.ads" "$POOL/slots.ads"
	[ "$output" = "$a" ]
	run -0 classad-match -const 'Memory > 8000' -reverse "$POOL/jobs.ads" "$POOL/slots.ads"
	[ -n "$output" ]
	run -2 --separate-stderr classad-match --constrant true "$POOL/jobs.ads" "$POOL/slots.ads"
	[[ $stderr == *"unknown or ambiguous option '--constrant'; did you mean '--constraint'?"* ]]
	run -2 --separate-stderr classad-match -reverze "$POOL/jobs.ads" "$POOL/slots.ads"
	[[ $stderr == *"unknown or ambiguous option '-e' (in '-reverze'); did you mean '-reverse'?"* ]]
}

@test "--analyze counts only the slots --constraint keeps" {
	run -0 classad-match --analyze 101.0 --constraint 'State == "Unclaimed"' "$POOL/jobs.ads" "$POOL/slots.ads"
	[[ $output == *'Of 5 slots on 3 machines,'* ]]
}

@test "--analyze: a job matching nothing because no slot has everything at once" {
	echo '[ ClusterId = 9; ProcId = 0; Requirements = TARGET.Memory >= 32768 && TARGET.OpSysAndVer == "Ubuntu22" && TARGET.Cpus >= 2 ]' >"$TMP/job.ad"
	run -1 classad-match --analyze "$TMP/job.ad" "$POOL/slots.ads"
	[[ $output == *'No slot matches job 9.000: each condition holds on some slot, but no slot'* ]]
	[[ $output == *'[1] TARGET.Memory >= 32768: 4 slots meet all the other conditions'* ]]
	[[ $output != *'[3] TARGET.Cpus'*'meet'* ]]
	# the job's Requirements accept a slot that rejects it
	echo '[ ClusterId = 9; ProcId = 1; Requirements = TARGET.Memory >= 65536 && TARGET.GPUs >= 1 ]' >"$TMP/job.ad"
	run -1 classad-match --analyze "$TMP/job.ad" "$POOL/slots.ads"
	[[ $output == *$'its Requirements accept 1 slot, but that slot\nrejects the job by its own Requirements (see --analyze --reverse).'* ]]
}

@test "--analyze: a string comparison lists what the slots have" {
	echo '[ ClusterId = 9; ProcId = 0; Requirements = TARGET.Arch == "SPARC" ]' >"$TMP/job.ad"
	run -1 classad-match --analyze "$TMP/job.ad" "$POOL/slots.ads"
	[[ $output == *'[1] TARGET.Arch == "SPARC": no slot has "SPARC"; slots have "X86_64"'* ]]
}

# ---- errors ----

@test "an unknown job or slot for --analyze is reported, exit 1" {
	run -1 --separate-stderr classad-match --analyze 999.0 "$POOL/jobs.ads" "$POOL/slots.ads"
	[ "$stderr" = 'classad-match: no job 999.0 in the jobs' ]
	run -1 --separate-stderr classad-match --analyze=nosuch -r "$POOL/jobs.ads" "$POOL/slots.ads"
	[ "$stderr" = 'classad-match: no slot nosuch in the slots' ]
}

@test "an empty argument is a file name like any other, not an option" {
	run -4 --separate-stderr classad-match "" "$M/seed003-machine.ads"
	[[ $stderr == "classad-match: : cannot open: "* ]]
	run -4 --separate-stderr classad-match --analyze "$M/seed003-job.ads" ""
	[[ $stderr == "classad-match: : cannot open: "* ]]
}

@test "an unknown byte above 127 in a cluster of letters is the option named" {
	run -2 --separate-stderr classad-match x -b$'\xc3\xa9' y
	[[ $stderr == "classad-match: unknown or ambiguous option '-\xc3'"* ]]
}

@test "usage errors exit 2; -h and -V exit 0 on standard output" {
	run -2 classad-match "$POOL/jobs.ads"
	run -2 classad-match a b c
	run -2 classad-match - -
	run -2 classad-match --analyze -o json "$POOL/jobs.ads" "$POOL/slots.ads"
	run -2 classad-match -z "$POOL/jobs.ads" "$POOL/slots.ads"
	run -2 classad-match -n 0 "$POOL/jobs.ads" "$POOL/slots.ads"
	run -2 classad-match -o yaml "$POOL/jobs.ads" "$POOL/slots.ads"
	run -2 classad-match --bogus "$POOL/jobs.ads" "$POOL/slots.ads"
	run -0 --separate-stderr classad-match -h
	[[ ${lines[0]} == 'usage: classad-match '* ]]
	[ -z "$stderr" ]
	run -0 classad-match -V
	[ "$output" = 'classad-match (classad-tools) 0.1.0' ]
}

@test "a malformed slot ad is reported with its place, exit 3; the others still match" {
	printf 'Name = "a"\nRequirements = true\n\nName = "b"\nRequirements = (\n\nName = "c"\nRequirements = true\n' \
	    >"$TMP/slots.ads"
	echo '[ Requirements = true ]' >"$TMP/job.ad"
	run -3 --separate-stderr classad-match "$TMP/job.ad" "$TMP/slots.ads"
	[ "$output" = $'0\ta\t0.0\t0.0\n0\tc\t0.0\t0.0' ]
	[[ $stderr == "classad-match: $TMP/slots.ads:5:"* ]]
}

@test "a bad --constraint exits 3 with the column; a missing file exits 4" {
	run -3 --separate-stderr classad-match --constraint 'Memory >' "$POOL/jobs.ads" "$POOL/slots.ads"
	[[ $stderr == 'classad-match: <--constraint>:1:'* ]]
	run -4 --separate-stderr classad-match "$TMP/nonexistent" "$POOL/slots.ads"
	[[ $stderr == "classad-match: $TMP/nonexistent"* ]]
}

@test "no jobs or no slots: nothing matches, exit 1" {
	: >"$TMP/empty"
	run -1 classad-match "$TMP/empty" "$POOL/slots.ads"
	[ -z "$output" ]
	run -1 classad-match "$POOL/jobs.ads" "$TMP/empty"
	[ -z "$output" ]
}

# ---- condor_q's words on a partitionable machine ----

pmachine() {
	{
		printf 'Name = "slot1@node1"\nMachine = "node1"\nPartitionableSlot = true\nState = "Unclaimed"\n'
		printf 'Cpus = 4\nMemory = 8192\nTotalSlotCpus = 8\nTotalSlotMemory = 16384\nStart = true\n'
		printf 'WithinResourceLimits = (TARGET.RequestCpus <= MY.Cpus && TARGET.RequestMemory <= MY.Memory)\n'
		printf 'Requirements = START && WithinResourceLimits\nArch = "X86_64"\n\n'
		for i in 1 2 3 4; do
			printf 'Name = "slot1_%d@node1"\nMachine = "node1"\nDynamicSlot = true\nState = "Claimed"\n' $i
			printf 'Cpus = 1\nMemory = 2048\nRemoteUser = "user%d@example.org"\nStart = true\n' $i
			printf 'Requirements = START\nArch = "X86_64"\n\n'
		done
	} >"$TMP/slots.ads"
	printf 'ClusterId = %s\nProcId = 0\nUser = "%s"\nRequestCpus = %s\nRequestMemory = 1024\nRequirements = TARGET.Arch == "X86_64" && TARGET.Cpus >= RequestCpus\n' \
	    "$1" "$2" "$3" >"$TMP/job.ads"
}

@test "--analyze on a partitionable machine: serving other users, your jobs, leftovers, and what draining gives" {
	pmachine 8 user1@example.org 1
	run -0 classad-match --analyze "$TMP/job.ads" "$TMP/slots.ads"
	[[ $output == *$'008.000:  Run analysis summary ignoring user priority.  Of 5 slots on 1 machines,\n      0 slots are rejected by your job\'s requirements\n      0 slots reject your job because of their own requirements\n      1 slots match and are already running your jobs\n      3 slots match but are serving other users\n      1 slots match and are willing to run your job (1 of them with what partitionable slots have left)'* ]]
	# a 6-cpu job on the 8-core machine with 4 free: draining would do
	pmachine 7 alice@example.org 6
	run -1 classad-match --analyze "$TMP/job.ads" "$TMP/slots.ads"
	[[ $output == *$'      4 slots are rejected by your job\'s requirements\n'* ]]
	[[ $output == *$'      0 slots match and are willing to run your job\n      1 slots would match if drained\n'* ]]
	[[ $output == *'Draining would do: 1 partitionable slot would match job 7.000 once its'* ]]
	[[ $output == *'no slot has more than 4 (RequestCpus is 6)'* ]]
}

@test "--analyze --reverse: a test that is no comparison is worded on the jobs' values, never as a test to relax" {
	printf 'Name = "slot1@g"\nGPUs = 0\nStart = ifThenElse(TARGET.WantGPU =?= true, MY.GPUs > 0, TARGET.RequestMemory < 100)\nRequirements = Start && TARGET.Owner =!= "mallory"\n' >"$TMP/g.ads"
	printf 'ClusterId = 1\nProcId = 0\nOwner = "alice"\nRequestMemory = 1024\nRequirements = true\n' >"$TMP/j.ads"
	run -1 classad-match --analyze -r "$TMP/j.ads" "$TMP/g.ads"
	[[ $output == *'it is true for no job; where it fails, jobs have WantGPU none and RequestMemory 1024'* ]]
	[[ $output != *'jobs have false'* ]]
}
