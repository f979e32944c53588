# classad-eval.bats - the classad-eval program: expression mode (HTCondor's
# classad_eval rules), stream mode (-w -p -s -o -z), and bad input.

load helpers

slots() {
	cat >"$TMP/slots.ads" <<'ADS'
# two slots in condor_status -long format
Name = "slot1@a.example.org"
Memory = 4096
Cpus = 2
Arch = "X86_64"
LoadAvg = 0.25

Name = "slot2@b.example.org"
Memory = 512
Cpus = 1
Arch = "X86_64"
LoadAvg = 1.5
ADS
}

@test "the issue's example: '[ a = 2 ]' 'a * 3' prints 6" {
	run -0 classad-eval --now 1700000000 '[ a = 2 ]' 'a * 3'
	[ "$output" = 6 ]
}

@test "arguments are processed left to right" {
	run -0 classad-eval 'x = 1' 'x + 1' 'x = 10; y = x * 2' 'y' '[ y = "s" ]' 'y'
	[ "$output" = $'2\n20\n"s"' ]
}

@test "arguments that end with an assignment print the context ad; -q does not" {
	run -0 classad-eval 'a = 1' 'b = a + 1'
	[ "$output" = '[ a = 1; b = a + 1 ]' ]
	run -0 classad-eval -q 'a = 1'
	[ -z "$output" ]
}

@test "an ad literal followed by a selection is an expression" {
	run -0 classad-eval '[a = 1; b = a + 1].b'
	[ "$output" = 2 ]
}

@test "-f and -t give MY and TARGET; unqualified names fall back to the target" {
	slots
	echo '[ RequestMemory = 1024; Requirements = TARGET.Memory >= RequestMemory && Cpus >= 1 ]' >"$TMP/job.ad"
	run -0 classad-eval -f "$TMP/job.ad" -t "$TMP/slots.ads" 'Requirements' 'MY.RequestMemory' 'TARGET.Name' 'Cpus'
	[ "$output" = $'true\n1024\n"slot1@a.example.org"\n2' ]
	run -0 classad-eval --strict -f "$TMP/job.ad" -t "$TMP/slots.ads" 'Cpus'
	[ "$output" = undefined ]
}

@test "--now fixes time() and CurrentTime" {
	run -0 classad-eval --now 1234 'time()' 'CurrentTime'
	[ "$output" = $'1234\n1234' ]
}

@test "a syntax error names the argument, line and column, and exits 3" {
	run -3 --separate-stderr classad-eval '1 +'
	[ "$stderr" = "classad-eval: <argument 1>:1:4: expected an expression, found the end of input" ]
	run -3 --separate-stderr classad-eval 'x = 1' '"unterminated'
	[ "$stderr" = "classad-eval: <argument 2>:1:1: unterminated string" ]
}

@test "an unknown function is an ERROR value, not a failure" {
	run -0 classad-eval 'nosuchfunction(1, 2)' 'isError(nosuchfunction())'
	[ "$output" = $'error\ntrue' ]
}

@test "100,000 nested parentheses are a clear error, not a crash" {
	expr=$(printf '%*s' 100000 '' | tr ' ' '(')1$(printf '%*s' 100000 '' | tr ' ' ')')
	printf '%s\n' "$expr" >"$TMP/deep.txt"
	run -3 --separate-stderr classad-eval <"$TMP/deep.txt"
	[[ $stderr == *"nested more than 400 levels deep"* ]]
}

@test "circular references evaluate to error" {
	run -0 classad-eval 'a = b' 'b = a' 'a' 'isError(b)'
	[ "$output" = $'error\ntrue' ]
}

@test "stream mode: -w filters, -p projects, like -constraint and -af" {
	slots
	run -0 classad-eval -w 'Memory > 1024' -p Name -p Memory -p 'LoadAvg * 2' "$TMP/slots.ads"
	[ "$output" = $'slot1@a.example.org\t4096\t0.5' ]
}

@test "stream mode: -w selecting nothing is not an error" {
	slots
	run -0 classad-eval -w 'Memory > 100000' "$TMP/slots.ads"
	[ -z "$output" ]
}

@test "stream mode: -s sets attributes after -w, added at the end" {
	slots
	run -0 classad-eval -w 'Cpus == 1' -s 'Big = Memory > 1024' -s 'Cpus = 8' -o new "$TMP/slots.ads"
	[ "$output" = $'{\n[ Name = "slot2@b.example.org"; Memory = 512; Cpus = 8; Arch = "X86_64"; LoadAvg = 1.5; Big = Memory > 1024 ]\n}' ]
}

@test "stream mode: long -> json -> new -> long round trip keeps every attribute" {
	slots
	classad-eval -o json "$TMP/slots.ads" >"$TMP/s.json"
	classad-eval -o new "$TMP/s.json" >"$TMP/s.new"
	run -0 classad-eval -o long "$TMP/s.new"
	[ "$output" = "$(grep -v '^#' "$TMP/slots.ads")" ]
}

@test "stream mode reads standard input and gzip transparently" {
	slots
	gzip -c "$TMP/slots.ads" >"$TMP/slots.ads.gz"
	run -0 classad-eval -w 'Memory > 1024' -p Name <"$TMP/slots.ads.gz"
	[ "$output" = slot1@a.example.org ]
	run -0 classad-eval -w 'Memory > 1024' -o json "$TMP/slots.ads.gz"
	[[ $output == *'"Name": "slot1@a.example.org"'* ]]
}

@test "-z writes gzip that reads back" {
	slots
	classad-eval -z -o new "$TMP/slots.ads" >"$TMP/out.gz"
	run -0 gzip -dc "$TMP/out.gz"
	[[ $output == *'slot2@b.example.org'* ]]
}

@test "a corrupt gzip file is reported with exit 3" {
	slots
	gzip -c "$TMP/slots.ads" | head -c 40 >"$TMP/bad.gz"
	run -3 --separate-stderr classad-eval -p Name "$TMP/bad.gz"
	[[ $stderr == "classad-eval: $TMP/bad.gz"*gzip* ]]
}

@test "a malformed ad is reported with its location; the other ads still come out" {
	printf 'A = 1\n\nB = (2\n\nC = 3\n' >"$TMP/bad.ads"
	run -3 --separate-stderr classad-eval -p 'A ?: C' "$TMP/bad.ads"
	[ "$output" = $'1\n3' ]
	[[ $stderr == "classad-eval: $TMP/bad.ads:3:"* ]]
}

@test "a truncated new-syntax ad is an error with a location" {
	printf '[ a = 1; b = "x" ]\n[ a = 2; b = ' >"$TMP/trunc.ad"
	run -3 --separate-stderr classad-eval -p a "$TMP/trunc.ad"
	[ "$output" = 1 ]
	[[ $stderr == "classad-eval: $TMP/trunc.ad:2:"* ]]
}

@test "a binary file is rejected with a message, not a crash" {
	head -c 4096 /dev/urandom >"$TMP/binary"
	printf '\0\1\2' >>"$TMP/binary"
	run --separate-stderr classad-eval -p Name "$TMP/binary"
	[ "$status" -eq 3 ]
	[[ $stderr == "classad-eval: $TMP/binary:"* ]]
}

@test "a 10 MB string goes through" {
	{ printf 'S = "'; head -c 10485760 /dev/zero | tr '\0' x; printf '"\n'; } >"$TMP/big.ads"
	run -0 classad-eval -p 'size(S)' -p 'substr(S, 10485758)' "$TMP/big.ads"
	[ "$output" = $'10485760\txx' ]
}

@test "output does not depend on the locale" {
	locale -a 2>/dev/null | grep -qi '^de_DE.utf8$' || skip "no de_DE.UTF-8 locale on this machine"
	slots
	a=$(classad-eval '1.5 * 2' 'string(2.5)' '0.1 + 0.2'; classad-eval -o json "$TMP/slots.ads")
	b=$(LC_ALL=de_DE.UTF-8 classad-eval '1.5 * 2' 'string(2.5)' '0.1 + 0.2'; LC_ALL=de_DE.UTF-8 classad-eval -o json "$TMP/slots.ads")
	[ "$a" = "$b" ]
	[[ $a == *'0.30000000000000004'* ]]
}

@test "lines on standard input are processed like arguments" {
	run -0 classad-eval <<'IN'
# a comment
x = 6
x * 7
IN
	[ "$output" = 42 ]
}

@test "usage: --help, --version, bad options" {
	run -0 classad-eval --help
	[[ $output == usage:* ]]
	run -0 classad-eval --version
	[ "$output" = "classad-eval (classad-tools) 0.1.0" ]
	run -2 --separate-stderr classad-eval --bogus
	[[ $stderr == *"Try 'classad-eval --help'."* ]]
	run -2 classad-eval -o yaml x
}

@test "a write error is reported with exit 4" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -4 --separate-stderr sh -c 'classad-eval 1 >/dev/full'
	[[ $stderr == *"writing output failed"* ]]
}

# condor_status's spellings, on the example pool

@test "condor_status spellings: -ads, -constraint, -af, -long, -json, -attributes" {
	run -0 classad-eval -ads "$POOL/slots.ads" -constraint 'Memory > 8192' -af Name Memory
	[ "${lines[0]}" = "slot1@ws02.cs.example.org 16384" ]
	a=$output
	# -const is an abbreviation condor_status takes too; -w and --where mean the same
	run -0 classad-eval -const 'Memory > 8192' -af Name Memory -ads "$POOL/slots.ads"
	[ "$output" = "$a" ]
	run -0 classad-eval -w 'Memory > 8192' -af Name Memory -- "$POOL/slots.ads"
	[ "$output" = "$a" ]
	run -0 classad-eval -ads "$POOL/slots.ads" -constraint 'Memory > 8192' -long
	[ "${lines[0]}" = 'Activity = "Idle"' ]
	run -0 classad-eval -ads "$POOL/slots.ads" -json -attributes Name,Memory
	[ "${lines[0]}" = "[" ]
	[ "${lines[2]}" = '  "Memory": 8192,' ]
	[ "${lines[3]}" = '  "Name": "slot1@ws01.cs.example.org"' ]
	run -0 classad-eval -ads "$POOL/slots.ads" -xml -attributes Name
	[[ $output == *'<a n="Name"><s>slot1@ws01.cs.example.org</s></a>'* ]]
}

@test "-af qualifiers: h (headings, columns as wide as their values), l, t, comma, n, g, V, r, j" {
	cat >"$TMP/jobs.ads" <<'AD'
ClusterId = 12
ProcId = 0
Owner = "alice"
RequestMemory = 2048
Cmd = "/bin/sleep"
Req = RequestMemory * 2

ClusterId = 12
ProcId = 1
Owner = "bob"
RequestMemory = 512
Cmd = "/bin/true"
Req = RequestMemory * 2
AD
	run -0 classad-eval -ads "$TMP/jobs.ads" -af:h Owner RequestMemory Cmd
	[ "$output" = $'Owner RequestMemory Cmd\nalice 2048          /bin/sleep\nbob   512           /bin/true' ]
	run -0 classad-eval -ads "$TMP/jobs.ads" -af:l Owner RequestMemory
	[ "${lines[0]}" = "Owner = alice RequestMemory = 2048" ]
	run -0 classad-eval -ads "$TMP/jobs.ads" -af:t Owner RequestMemory
	[ "${lines[1]}" = $'bob\t512' ]
	run -0 classad-eval -ads "$TMP/jobs.ads" -af:, Owner RequestMemory
	[ "${lines[0]}" = "alice, 2048," ]
	run -0 classad-eval -ads "$TMP/jobs.ads" -af:n Owner RequestMemory
	[ "$output" = $'alice\n 2048\n\nbob\n 512' ]
	run -0 classad-eval -ads "$TMP/jobs.ads" -af:lrng Owner Req
	# lrng: the long format, as condor_status's manual says
	[ "$output" = $'\nOwner = "alice"\nReq = RequestMemory * 2\n\n\nOwner = "bob"\nReq = RequestMemory * 2' ]
	run -0 classad-eval -ads "$TMP/jobs.ads" -af:jV Owner Req
	[ "$output" = $'12.0 "alice" 4096\n12.1 "bob" 1024' ]
	# -autoformat is the long spelling; a list ends at the next option
	run -0 classad-eval -autoformat Owner -ads "$TMP/jobs.ads" -af:T RequestMemory
	[ "${lines[0]}" = "alice 0+00:34:08" ]
	run -2 --separate-stderr classad-eval -ads "$TMP/jobs.ads" -af:q Owner
	[[ $stderr == *"-af: unknown qualifier 'q'"* ]]
	run -2 --separate-stderr classad-eval -ads "$TMP/jobs.ads" -af
	[[ $stderr == *"-af needs the attributes or expressions to print after it"* ]]
}

@test "-format: printf-style columns with %s %d %f %v %V %r, and --header for -p" {
	run -0 classad-eval -ads "$POOL/slots.ads" -format '%s ' Name -format '%d\n' Memory
	[ "${lines[0]}" = "slot1@ws01.cs.example.org 8192" ]
	run -0 classad-eval -ads "$POOL/slots.ads" -format '%-30s|' Name -format '%8.2f\n' 'Memory / 3.0'
	[ "${lines[0]}" = "slot1@ws01.cs.example.org     | 2730.67" ]
	run -0 classad-eval -ads "$POOL/slots.ads" -format '%V\n' Name
	[ "${lines[0]}" = '"slot1@ws01.cs.example.org"' ]
	run -0 classad-eval -ads "$POOL/slots.ads" -format '%r\n' 'Memory * 2'
	[ "${lines[0]}" = 'Memory * 2' ]
	run -0 classad-eval -p Name -p Memory --header "$POOL/slots.ads"
	[ "${lines[0]}" = $'Name\tMemory' ]
	[ "${lines[1]}" = $'slot1@ws01.cs.example.org\t8192' ]
	run -2 --separate-stderr classad-eval -ads "$POOL/slots.ads" -format '%d'
	[[ $stderr == *"-format %d needs an expression after it"* ]]
}

@test "a near miss of an option gets a hint" {
	run -2 --separate-stderr classad-eval --wehre x
	[[ $stderr == *"unknown or ambiguous option '--wehre'; did you mean '--where'?"* ]]
	run -2 --separate-stderr classad-eval -constriant x
	[[ $stderr == *"did you mean '-constraint'?"* ]]
}

@test "--explain follows only the branches the evaluator took, and blames only what reaches the value" {
	run -0 classad-eval -x 'ifThenElse(false, Y, 5)'
	[ "$output" = $'ifThenElse(false,Y,5)  =>  5\n  false  =>  false\n  Y  (not evaluated)\n  5  =>  5' ]
	# condor_submit's RequestMemory: the undefined MemoryUsage that "isnt"
	# tests is no origin; only the missing HasFileTransfer is
	cat >"$TMP/job.ad" <<'AD'
ImageSize = 1000
RequestMemory = ifthenelse(MemoryUsage isnt undefined, MemoryUsage, (ImageSize + 1023) / 1024)
Requirements = TARGET.Memory >= RequestMemory && TARGET.HasFileTransfer
AD
	printf 'Memory = 4096\n' >"$TMP/slot.ad"
	run -0 classad-eval -f "$TMP/job.ad" -t "$TMP/slot.ad" -x Requirements
	[[ $output == *$'          MemoryUsage  (not evaluated)\n'* ]]
	[[ $output != *"MemoryUsage is undefined"* ]]
	[ "$(grep -c 'undefined here' <<<"$output")" = 1 ]
	[[ $output == *$'why:\n  TARGET.HasFileTransfer is undefined: no attribute HasFileTransfer in TARGET' ]]
	# an undefined left side of a false && is no origin either
	run -0 classad-eval -x 'nosuch && false'
	[[ $output != *"undefined here"* ]]
}

# A condor_history file as the schedd writes it: each ad followed by a
# "*** Offset = ..." line, no blank lines; an older file's "*** ProcId" form.
history_file() {
	cat >"$TMP/history" <<'H'
ClusterId = 4242
ProcId = 0
Owner = "alice"
RemoteWallClockTime = 7200.0
*** Offset = 0 ClusterId = 4242 ProcId = 0 Owner = "alice" CompletionDate = 1699999000 CurrentTime = 1699999001
ClusterId = 4242
ProcId = 1
Owner = "alice"
RemoteWallClockTime = 60.0
*** Offset = 104 ClusterId = 4242 ProcId = 1 Owner = "alice" CompletionDate = 1699999100 CurrentTime = 1699999101
ClusterId = 17
ProcId = 3
Owner = "bob"
RemoteWallClockTime = 4000.0
*** ProcId = 3 ClusterId = 17 Owner = "bob" CompletionDate = 1699999200
H
}

@test "stream mode reads condor_history files: '***' lines end the ads, none is lost" {
	history_file
	run -0 --separate-stderr classad-eval -p ClusterId -p ProcId "$TMP/history"
	[ "$output" = $'4242\t0\n4242\t1\n17\t3' ]
	[ -z "$stderr" ]
	run -0 classad-eval --input-format long -w 'RemoteWallClockTime > 3600' -p Owner "$TMP/history"
	[ "$output" = $'alice\nbob' ]
	# converted, the banners are gone and every attribute is kept
	run -0 classad-eval -o new "$TMP/history"
	[[ $output == *'[ ClusterId = 17; ProcId = 3; Owner = "bob"; RemoteWallClockTime = 4000.0 ]'* ]]
	[[ $output != *Offset* ]]
}

@test "stream mode reads condor_q -global -long: '-- Schedd:' and '-- Submitter:' banners" {
	cat >"$TMP/global" <<'Q'


-- Schedd: submit01.example.org : <10.0.0.1:9618?addrs=10.0.0.1-9618&alias=submit01.example.org>
ClusterId = 1
GlobalJobId = "submit01.example.org#1.0#1699990000"
JobStatus = 5

ClusterId = 2
GlobalJobId = "submit01.example.org#2.0#1699990001"
JobStatus = 1



-- Schedd: submit02.example.org : <10.0.0.2:9618?addrs=10.0.0.2-9618>
ClusterId = 7
GlobalJobId = "submit02.example.org#7.0#1699990002"
JobStatus = 5

-- Submitter: carol@example.org : <10.0.0.3:9618> : submit03.example.org
ClusterId = 9
GlobalJobId = "submit03.example.org#9.0#1699990003"
JobStatus = 2

Q
	run -0 --separate-stderr classad-eval -w 'JobStatus == 5' -p GlobalJobId "$TMP/global"
	[ "$output" = $'submit01.example.org#1.0#1699990000\nsubmit02.example.org#7.0#1699990002' ]
	[ -z "$stderr" ]
	run -0 classad-eval -p ClusterId <"$TMP/global"
	[ "$output" = $'1\n2\n7\n9' ]
}

@test "stream mode reads condor_status -long with its banners" {
	cat >"$TMP/status" <<'S'
-- Failed to fetch ads from: <10.0.0.9:9618> : node09.example.org
Name = "slot1@node01.example.org"
Memory = 8192

Name = "slot1@node02.example.org"
Memory = 4096
...
Name = "slot1@node03.example.org"
Memory = 2048

S
	run -0 --separate-stderr classad-eval -p Name -p Memory "$TMP/status"
	[ "$output" = $'slot1@node01.example.org\t8192\nslot1@node02.example.org\t4096\nslot1@node03.example.org\t2048' ]
	[ -z "$stderr" ]
}

@test "a long-format input cut short in its last ad gives one warning; a clean end gives none" {
	printf 'A = 1\n\nA = 2\nB = 3' >"$TMP/cut.ads"
	run -0 --separate-stderr classad-eval -p A "$TMP/cut.ads"
	[ "$output" = $'1\n2' ]
	[ "$stderr" = "classad-eval: $TMP/cut.ads:4: warning: the last line of the input has no newline: the input looks truncated (its last ad is read as it is)" ]
	# a history file whose last ad has no "***" line after it
	history_file
	head -n 13 "$TMP/history" >"$TMP/cut.history"
	run -0 --separate-stderr classad-eval -p ProcId "$TMP/cut.history"
	[ "$output" = $'0\n1\n3' ]
	[[ $stderr == "classad-eval: $TMP/cut.history:11: warning: the last ad has no \"***\" line after it"* ]]
	[ "$(grep -c warning <<<"$stderr")" = 1 ]
	# -f warns too, when the ad it takes is the one cut short
	printf 'A = 1\nB = 2' >"$TMP/cut1.ad"
	run -0 --separate-stderr classad-eval -f "$TMP/cut1.ad" 'A'
	[ "$output" = 1 ]
	[[ $stderr == *"cut1.ad:2: warning: the last line"* ]]
	# an expression the end cuts short is an error that says so
	printf 'A = 1\nB = (2 +' >"$TMP/cutexpr.ads"
	run -3 --separate-stderr classad-eval -p A "$TMP/cutexpr.ads"
	[[ $stderr == *"cutexpr.ads:2:"*"it looks truncated"* ]]
	# written whole, without the last blank line: no warning
	printf 'A = 1\n\nA = 2\nB = 3\n' >"$TMP/whole.ads"
	run -0 --separate-stderr classad-eval -p A "$TMP/whole.ads"
	[ "$output" = $'1\n2' ]
	[ -z "$stderr" ]
}

@test "'[ ]' is an empty ad for -f and -t; an empty JSON array holds no ads" {
	printf '[ ]\n' >"$TMP/empty.ad"
	run -0 classad-eval -f "$TMP/empty.ad" -t "$TMP/empty.ad" 'isUndefined(x) && isClassAd(TARGET)'
	[ "$output" = true ]
	run -0 classad-eval -o json </dev/null
	[ "$output" = $'[\n]' ]
	run -0 classad-eval -p x <<<"$output"
	[ -z "$output" ]
}

@test "long format details as HTCondor reads them: a tab before '=', \"C:\\\" only at the end of a line" {
	printf 'a\t = 1\nb  = 2\nDir = "C:\\"\n' >"$TMP/x.ads"
	run -0 classad-eval -o new "$TMP/x.ads"
	[ "$output" = $'{\n[ \'a\\t\' = 1; b = 2; Dir = "C:\\\\" ]\n}' ]
	printf 'Dir = "C:\\"  \nb = 2\n' >"$TMP/y.ads"
	run -3 --separate-stderr classad-eval -o new "$TMP/y.ads"
	[[ $stderr == *"y.ads:1:"*unterminated* ]]
}

@test "HTCondor's values: string() of reals, relative times in whole seconds, the match's scopes" {
	run -0 classad-eval 'string(-0.0)' 'strcat(real("INF"), "!")' 'string(relTime(90.5))' \
	    'real(relTime(1.5))' 'versioncmp("1000", "2")' 'isError(absTime(0, -1))'
	[ "$output" = $'"-0.0"\n"real(\\"INF\\")!"\n"01:30"\n1.0\n3\nerror' ]
	printf '[ x = 1; n = [ a = y; d = .x ] ]\n' >"$TMP/my.ad"
	printf '[ y = 7 ]\n' >"$TMP/tg.ad"
	run -0 classad-eval -f "$TMP/my.ad" -t "$TMP/tg.ad" 'y' 'n.a' 'n.d' '.x' 'toplevel.x'
	[ "$output" = $'7\nundefined\nundefined\nundefined\nundefined' ]
	run -0 classad-eval -f "$TMP/my.ad" 'n.d' '.x'
	[ "$output" = $'1\n1' ]
}

@test "a generated condor_history file of 100 jobs: every ad, and the warning when cut" {
	local gen=$BATS_TEST_DIRNAME/../build/release/tests/poolgen
	if [[ ! -x $gen ]]; then
		gen=$TMP/poolgen
		cc -O1 -o "$gen" "$BATS_TEST_DIRNAME/poolgen.c" || skip "no C compiler for tests/poolgen.c"
	fi
	"$gen" history 100 >"$TMP/history"
	[ "$(grep -c '^\*\*\* Offset = ' "$TMP/history")" = 100 ]
	run -0 --separate-stderr classad-eval -p 'strcat(ClusterId, ".", ProcId)' "$TMP/history"
	[ "$(wc -l <<<"$output")" = 100 ]
	[ "$(sort -u <<<"$output" | wc -l)" = 100 ]
	[ -z "$stderr" ]
	# cut in the middle of the last job, at a line boundary
	head -n -20 "$TMP/history" >"$TMP/cut"
	run -0 --separate-stderr classad-eval -p ProcId "$TMP/cut"
	[ "$(wc -l <<<"$output")" = 100 ]
	[[ $stderr == *"warning: the last ad has no \"***\" line"* ]]
}

@test "progress: a long read shows ads read and their rate on a terminal's standard error, never with -q or off a terminal" {
	for ((i = 0; i < 3000; i++)); do printf 'A = %d\n\n' "$i"; done > "$BATS_TEST_TMPDIR/a"
	feed="cat $BATS_TEST_TMPDIR/a; sleep 2.5; cat $BATS_TEST_TMPDIR/a"
	at_terminal "($feed) | classad-eval -w 'A >= 0' > $BATS_TEST_TMPDIR/out"
	[[ $output == *"classad-eval: "*" ads read, "*" a second"* ]]
	[[ $output == *$'\e[K' ]]	# the line is erased at the end
	[[ $(grep -c '^A = ' "$BATS_TEST_TMPDIR/out") == 6000 ]]
	at_terminal "($feed) | classad-eval -q -w 'A >= 0' > /dev/null"
	[[ -z $output ]]
	run bash -c "($feed) | classad-eval -w 'A >= 0' 2>&1 > /dev/null"
	[[ -z $output ]]
}

@test "-w passes literals on as the input wrote them; where a line reads otherwise, the ones it reads print from their values" {
	cat >"$TMP/lits.ads" <<'ADS'
Name = "slot1@a.example.org"
Memory = 4096
LoadAvg = 0.10000000000000000555
Exact = 2.50
Busy = TRUE
Dir = "C:\"
Quote = "a\"b"
Start = (Memory > 1024)

Name = "slot2@b.example.org"
Memory = 512
LoadAvg = 1.5E+00
Exact = 2.50
Busy = False
Dir = "x"
Quote = "y"
Start = (Memory > 1024)
ADS
	run -0 classad-eval -w 'Memory > 1024' "$TMP/lits.ads"
	[ "$output" = "$(sed -n 1,8p "$TMP/lits.ads")" ]
	# every line reads as the writer writes one: the ad keeps its lines,
	# and the literals the filter reads stay as written too (the first
	# ad of the stream as any other)
	run -0 classad-eval -w 'LoadAvg < 1 && Busy' "$TMP/lits.ads"
	[ "$output" = "$(sed -n 1,8p "$TMP/lits.ads")" ]
	# a line that reads otherwise (Start without its spaces): the ad is
	# written attribute by attribute, a literal it read from its value
	sed 's/^Start = (Memory > 1024)$/Start = (Memory>1024)/' "$TMP/lits.ads" >"$TMP/lits2.ads"
	run -0 classad-eval -w 'LoadAvg < 1 && Busy' "$TMP/lits2.ads"
	[ "$(grep -c . <<<"$output")" = 8 ]
	grep -qx 'LoadAvg = 0.1' <<<"$output"
	grep -qx 'Busy = true' <<<"$output"
	grep -qx 'Exact = 2.50' <<<"$output"
	grep -qxF 'Dir = "C:\"' <<<"$output"
	grep -qx 'Start = (Memory > 1024)' <<<"$output"
	# -attributes keeps the unread ones as they were written too
	run -0 classad-eval -w true -attributes Name,LoadAvg "$TMP/lits.ads"
	grep -qx 'LoadAvg = 0.10000000000000000555' <<<"$output"
	grep -qx 'LoadAvg = 1.5E+00' <<<"$output"
	# read back, every value is the one written
	classad-eval -w true "$TMP/lits.ads" >"$TMP/again.ads"
	run -0 classad-eval -o json -w true "$TMP/again.ads"
	[ "$output" = "$(classad-eval -o json -w true "$TMP/lits.ads")" ]
}

# pool N: $TMP/pool.ads = N machines of eleven condor_status -long slot ads
pool() { gpu_pool "$1" >"$TMP/pool.ads"; }

@test "--parallel: one file filtered in several processes, as one process filters it" {
	pool 40
	same_as_one classad-eval -w 'Cpus > 1 && Name != "slot1@gpu0007.hpc.example.org"' "$TMP/pool.ads"
	[[ -z $stderr && -n $output ]]
	[[ $(grep -c '^Name = ' <<<"$output") -lt $(grep -c '^Name = ' "$TMP/pool.ads") ]]
	# the ads changed and cut to some attributes, from standard input
	same_as_one classad-eval -w 'Cpus > 1' -s 'Kept = Cpus * 2' -attributes Name,Kept <"$TMP/pool.ads"
	[[ $(grep -c '^Kept = ' <<<"$output") -gt 0 && $(grep -vc '^Name = \|^Kept = \|^$' <<<"$output") == 0 ]]
	# compressed: the same ads
	classad-eval --parallel 1 -w 'Cpus > 1' "$TMP/pool.ads" >"$TMP/one.ads"
	classad-eval --parallel 3 -z -w 'Cpus > 1' "$TMP/pool.ads" | gzip -dc | cmp - "$TMP/one.ads"
}

@test "--parallel: a bad line is told with the file's line, whichever part and process read it" {
	pool 30
	awk -v RS= -v ORS='\n\n' 'NR == 40 || NR == 200 || NR == 320 {
	    sub(/\nState = /, "\nBad = (1 +\nState = ") } 1' "$TMP/pool.ads" >"$TMP/bad.ads"
	same_as_one classad-eval -w true "$TMP/bad.ads"
	[[ $status == 3 ]]
	want=$(grep -n '^Bad = ' "$TMP/bad.ads" | cut -d: -f1 | tr '\n' ' ')
	got=$(grep -o 'bad.ads:[0-9]*' <<<"$stderr" | cut -d: -f2 | tr '\n' ' ')
	[[ -n $want && $got == "$want" ]] || { echo "lines $got, not $want"; return 1; }
}

@test "--parallel 1: a large file read part by part in one process, as a stream of it is read" {
	pool 300	# 10 MB: read in two parts
	awk -v RS= -v ORS='\n\n' 'NR == 100 || NR == 3000 { sub(/\nState = /, "\nBad = (1 +\nState = ") } 1' \
	    "$TMP/pool.ads" >"$TMP/bad.ads"
	run --separate-stderr classad-eval --parallel 1 -w 'Cpus > 1' < <(cat "$TMP/bad.ads")
	local out=$output err=$stderr st=$status
	[[ $st == 3 && $(grep -c 'expected' <<<"$err") == 2 ]]
	run --separate-stderr classad-eval --parallel 1 -w 'Cpus > 1' "$TMP/bad.ads"
	[[ $status == "$st" && $output == "$out" ]]
	[[ $(grep -o ':[0-9]*:[0-9]*: ' <<<"$stderr") == "$(grep -o ':[0-9]*:[0-9]*: ' <<<"$err")" ]]
}

@test "--parallel: what cannot be split is filtered in one process, and said" {
	pool 6
	run -0 --separate-stderr classad-eval --parallel 2 -p Name "$TMP/pool.ads"
	[[ $stderr == *"--parallel 2: the ads are filtered in one process: the output is columns"* ]]
	run -0 --separate-stderr classad-eval --parallel 2 -o json -w true "$TMP/pool.ads"
	[[ $stderr == *"filtered in one process: the output is not the long format"* ]]
	run -0 --separate-stderr classad-eval --parallel 2 -w true "$TMP/pool.ads" "$TMP/pool.ads"
	[[ $stderr == *"filtered in one process: they are in more than one file"* ]]
	[[ $(grep -c '^Name = ' <<<"$output") == 132 ]]
	run -0 --separate-stderr classad-eval --parallel 2 -w true < <(cat "$TMP/pool.ads")
	[[ $stderr == *"filtered in one process: it is not a regular file"* ]]
	# the default is quiet about it, and so is a file too small to cut
	run -0 --separate-stderr classad-eval -w true < <(cat "$TMP/pool.ads")
	[[ -z $stderr && $(grep -c '^Name = ' <<<"$output") == 66 ]]
	run -0 --separate-stderr classad-eval -w true "$TMP/pool.ads"
	[[ -z $stderr ]]
}
