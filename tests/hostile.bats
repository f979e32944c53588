#!/usr/bin/env bats
# hostile.bats - hostile input against every program: empty input, binary
# garbage, truncated ads, invalid UTF-8, NUL bytes, huge names, deep nesting,
# long lists, recursion, huge numbers, bad gzip, bad configs and schedules;
# then crash-safety of the accountant's state and memory on a long stream.
# Every run must end within its time bound with the documented exit status
# and a "prog: " message: never a signal, a hang, a sanitizer report, or a
# partial result passed off as success.

load helpers

LIMIT=${CA_HOSTILE_LIMIT:-30}	# seconds for one run (ASan builds are slower)
REAL=$DATA/match/seed003-machine.ads	# a real ad, as condor_status printed it
SLOTS=$DATA/userprio/steady.ad
T0=1700000000

# try STATUS CMD...: CMD must end within $LIMIT s with exit STATUS; with
# STATUS 2 or more it must say why on stderr as "prog: ..." (or as $PREFIX
# when set: the REPL leaves out the program's name). Leaves $output and
# $stderr as `run --separate-stderr` does.
try() {
	local want=$1 prog=${2##*/}
	local pre=${PREFIX-${2##*/}: }
	shift
	run --separate-stderr timeout -k 5 "$LIMIT" "$@"
	if ((status == 124 || status == 137)); then
		echo "$prog: no answer within $LIMIT s: $*"
		return 1
	fi
	if ((status >= 128)); then
		echo "$prog: killed by signal $((status - 128)): ${stderr:0:3000}"
		return 1
	fi
	if [[ $stderr == *Sanitizer* || $stderr == *"runtime error:"* ]]; then
		echo "$prog: sanitizer report: ${stderr:0:3000}"
		return 1
	fi
	if ((status != want)); then
		echo "$prog: exit $status, expected $want: ${stderr:0:2000}"
		return 1
	fi
	if ((want >= 2)) && [[ $stderr != *"$pre"* ]]; then
		echo "$prog: exit $status without a diagnostic"
		return 1
	fi
	return 0
}

# has TEXT: $stderr (or, with -o, $output) contains TEXT
has() {
	if [[ $1 == -o ]]; then
		[[ $output == *"$2"* ]] || { echo "output lacks '$2': ${output:0:2000}"; return 1; }
	else
		[[ $stderr == *"$1"* ]] || { echo "stderr lacks '$1': ${stderr:0:2000}"; return 1; }
	fi
}

# rep N TEXT: TEXT N times
rep() { awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'; }

# garbage N SEED: N pseudo-random bytes, the same each time
garbage() {
	awk -v n="$1" -v seed="$2" 'BEGIN { srand(seed); for (i = 0; i < n; i++) printf "%c", int(rand() * 255) + 1 }'
}

# same FILE COPY: the state file is byte for byte what it was
same() { cmp -s "$1" "$2" || { echo "$1 changed"; return 1; }; }

setup_file() {
	export FIX=$BATS_FILE_TMPDIR
	{ garbage 6000 7; printf '\0'; garbage 2000 8; } >"$FIX/garbage"
	gzip -9nc "$FIX/garbage" >"$FIX/garbage.gz"
	gzip -9nc "$REAL" >"$FIX/real.gz"
	printf 'ClusterId = 7\nProcId = 0\nJobStatus = 1\nCronMinute = "*/5"\nCronHour = "9-17"\n' \
	    >"$FIX/cronjob.ad"
}

# ---- empty input ----

@test "hostile: empty input is no ads, and says so only where an ad is needed" {
	try 0 classad-eval -w true </dev/null
	[[ -z $output ]]
	try 0 classad-eval -o json -w true /dev/null
	[[ $output == $'[\n]' ]]
	try 0 classad-eval -o xml -w true /dev/null
	has -o '</classads>'
	try 3 classad-eval ''
	has 'expected an expression'
	try 3 classad-eval -f /dev/null 'x'
	has 'no ad in the input'
	try 0 cron-next --jobs --now $T0 /dev/null
	[[ -z $output ]]
	try 3 cron-next --now $T0 ''
	has 'a schedule has 5 fields'
	try 1 classad-match /dev/null /dev/null
	try 1 classad-match /dev/null "$POOL/slots.ads"
	: >"$TMP/state"
	try 0 userprio-calc --state "$TMP/state" --now $T0 -allusers
	try 0 userprio-calc --state "$TMP/state" --now $T0 -c /dev/null --update /dev/null
	try 0 userprio-calc --state "$TMP/state" --now $T0 -allusers
	has -o 'Number of users: 0'
}

# ---- binary garbage ----

@test "hostile: binary garbage in every format, plain and gzipped, is refused with a place" {
	for f in "$FIX/garbage" "$FIX/garbage.gz"; do
		for fmt in auto long new json xml; do
			try 3 classad-eval -I $fmt -w true "$f"
			[[ -z $output ]]
			has "classad-eval: $f:1:"
		done
		try 3 classad-eval -w true <"$f"
		has 'classad-eval: <stdin>:'
		try 3 cron-next --jobs --now $T0 "$f"
		try 3 classad-match "$f" "$POOL/slots.ads"
		try 3 classad-match "$POOL/jobs.ads" "$f"
		try 3 classad-match --analyze 101.0 "$POOL/jobs.ads" "$f"
		cp "$SLOTS" "$TMP/slots" && cp "$DATA/userprio/state-seed.ad" "$TMP/state"
		try 3 userprio-calc --state "$TMP/state" --now 1800000000 --update "$f"
		same "$TMP/state" "$DATA/userprio/state-seed.ad"
		cp "$f" "$TMP/state"
		try 3 userprio-calc --state "$TMP/state" --now 1800000000 --update "$SLOTS"
		same "$TMP/state" "$f"
		try 3 userprio-calc --state "$TMP/state" -allusers
	done
	try 3 userprio-calc --state "$TMP/new" --now $T0 -c "$FIX/garbage" --update "$SLOTS"
	[[ ! -e $TMP/new ]]
	# a script of garbage to the REPL
	PREFIX='<input 1>:1:' try 3 classad-eval <"$FIX/garbage"
}

# ---- truncation ----

# prefixes FILE DIR: DIR/pNNNNN holds the first NNNNN bytes of FILE, for every
# length from 1 up to the last byte that is not white space (excluded).
prefixes() {
	mkdir -p "$2"
	awk -v dir="$2" 'BEGIN { RS = "\001" } { t = t $0 }
	    END { sub(/[ \t\r\n]+$/, "", t); for (i = 1; i < length(t); i++) {
	        f = sprintf("%s/p%05d", dir, i); printf "%s", substr(t, 1, i) > f; close(f) } }' "$1"
}

# named FILE...: every FILE has a diagnostic "prog: FILE:..." in $stderr
named() {
	local missing
	missing=$(printf '%s\n' "$@" | grep -vxF -f <(printf '%s\n' "$stderr" |
	    sed -n 's/^[a-z-]*: \([^:]*\):.*/\1/p') | head -5) || true
	[[ -z $missing ]] && return 0
	for f in $missing; do
		echo "no diagnostic for ${f##*/}: $(head -c 300 "$f")"
	done
	return 1
}

# broken_long FILE...: those long-format prefixes whose last line is
# certainly broken: no '=', nothing after it, or an open string
broken_long() {
	awk 'BEGIN { RS = "\001" } {
	    n = split($0, l, "\n"); s = l[n]; if (s ~ /^[ \t]*(#.*)?$/) next
	    i = index(s, "="); if (i == 0 || substr(s, i + 1) ~ /^[ \t]*$/) { print FILENAME; next }
	    if (gsub(/"/, "\"", s) % 2) print FILENAME }' "$@"
}

@test "hostile: a real ad cut at every byte, in every format, is never taken whole" {
	for fmt in new json xml; do
		classad-eval -o $fmt -w true "$REAL" >"$TMP/full.$fmt"
		prefixes "$TMP/full.$fmt" "$TMP/$fmt"
		full=$(classad-eval -o new -I $fmt -w true "$TMP/full.$fmt" | grep '^\[')
		[[ -n $full ]]
		for how in "-I $fmt" ""; do
			# shellcheck disable=SC2086
			try 3 classad-eval $how -o new -w true "$TMP/$fmt"/p*
			named "$TMP/$fmt"/p*
			# an ad that comes out is the whole ad, never a part of it
			bad=$(printf '%s\n' "$output" | grep '^\[' | sed 's/,$//' |
			    grep -vxF "$full" | head -3) || true
			[[ -z $bad ]] || { echo "partial ad from a $fmt prefix: $bad"; false; }
		done
		try 3 cron-next --jobs --now $T0 "$TMP/$fmt"/p*
		named "$TMP/$fmt"/p*
	done

	# long: an ad may end at any line, but a broken last line is an error
	prefixes "$REAL" "$TMP/long"
	try 3 classad-eval -I long -w true "$TMP/long"/p*
	mapfile -t broken < <(broken_long "$TMP/long"/p*)
	((${#broken[@]} > 100))
	named "${broken[@]}"
	try 3 classad-eval -w true "$TMP/long"/p*
	named "${broken[@]}"
	cp "$DATA/userprio/state-seed.ad" "$TMP/state"
	try 3 userprio-calc --state "$TMP/state" --now 1800000000 --update "$TMP/long"/p*
	same "$TMP/state" "$DATA/userprio/state-seed.ad"

	# gzip: every cut loses the trailer, so every one is an error
	n=$(wc -c <"$FIX/real.gz")
	mkdir "$TMP/gz"
	cuts() { for ((k = 1; k < n; k++)); do head -c $k "$FIX/real.gz" >"$TMP/gz/p$k"; done; }
	untraced cuts
	try 3 classad-eval -w true "$TMP/gz"/p*
	named "$TMP/gz"/p*
	[[ -z $output ]]
}

@test "hostile: a truncated accountant state is refused and left as it is" {
	state=$DATA/userprio/state-seed.ad
	n=$(wc -c <"$state")
	# (not $i: bats 1.8's run sets a global i)
	for ((cut = 7; cut < n; cut += 13)); do
		head -c $cut "$state" >"$TMP/state"
		cp "$TMP/state" "$TMP/before"
		[[ -n $(broken_long "$TMP/state") ]] || continue
		try 3 userprio-calc --state "$TMP/state" --now 1800000000 --update "$SLOTS"
		same "$TMP/state" "$TMP/before"
	done
	head -c $(($(wc -c <"$FIX/real.gz") - 6)) "$FIX/real.gz" >"$TMP/state"
	try 3 userprio-calc --state "$TMP/state" -allusers
	has 'corrupt gzip data'
}

# ---- invalid UTF-8 and NUL bytes ----

@test "hostile: invalid UTF-8 goes through strings byte for byte; schedules and names refuse it" {
	printf 'A = "\xff\xfe bad \xc3"\nB = 1\n' >"$TMP/u.long"
	try 0 classad-eval -w true "$TMP/u.long"
	[[ $output == "$(cat "$TMP/u.long")" ]]
	# through every format and back
	for fmt in new json xml; do
		classad-eval -o $fmt -w true "$TMP/u.long" >"$TMP/u.$fmt"
		try 0 classad-eval -w true "$TMP/u.$fmt"
		[[ $output == "$(cat "$TMP/u.long")" ]]
	done
	# JSON text is UTF-8: such a string goes as an expression with octal
	# escapes (HTCondor's way for values JSON cannot express), whole
	printf 'A = "caf\xe9"\nB = { "\xed\xa0\x80", "\xc0\xaf" }\nC = strcat("\xf4\x90\x80\x80", A)\nD = "caf\xc3\xa9 \xf0\x9f\x98\x80"\n' \
	    >"$TMP/u2.long"
	try 0 classad-eval -o json -w true "$TMP/u2.long"
	iconv -f UTF-8 -t UTF-8 <<<"$output" >/dev/null
	has -o '"A": "\/Expr(\"caf\\351\")\/"'
	has -o '"\/Expr(\"\\355\\240\\200\")\/",'
	has -o $'"D": "caf\xc3\xa9 \xf0\x9f\x98\x80"'
	classad-eval -o json -w true "$TMP/u2.long" >"$TMP/u2.json"
	try 0 classad-eval -w true "$TMP/u2.json"
	[[ $output == "$(classad-eval -w true "$TMP/u2.long")" ]]
	printf '[{"\xff": 1, "b": "\xc3("}]' >"$TMP/u.json"
	try 0 classad-eval -o new -w true "$TMP/u.json"
	has -o "'\\377' = 1"
	try 0 classad-eval $'size("\xff\xc3")'
	[[ $output == 2 ]]
	try 3 classad-eval $'\xff = 1'
	try 3 cron-next --now $T0 $'\xff * * * *'
	has 'cron_minute: bad character \xff'
	printf 'ClusterId = 1\nProcId = 0\nJobStatus = 1\nCronHour = "\xe2\x80\x8b9"\n' >"$TMP/j.ad"
	try 0 cron-next --jobs --now $T0 "$TMP/j.ad"
	has 'the job is put on hold'
	has -o 'HoldReasonCode = 25'
	printf '\xff\xfe = 1\n' >"$TMP/c.cfg"
	try 3 userprio-calc --state "$TMP/s" --now $T0 -c "$TMP/c.cfg" --update "$SLOTS"
	has 'c.cfg:1:1:'
}

@test "hostile: the long format refuses strings it cannot hold (newline, final backslash)" {
	# written raw, the line would split: the stream would not read back, and
	# a name like 'x\"' + newline + 'Priority = 0' would forge attributes
	printf '[{"a": 1}, {"b": "x\\"\\nPriority = 0"}, {"c": 3}]' >"$TMP/nl.json"
	try 3 classad-eval -w true "$TMP/nl.json"
	has 'nl.json:1: the long format cannot hold a string with a newline'
	[[ $output == $'a = 1\n\nc = 3' ]]
	try 0 classad-eval -o new -w true "$TMP/nl.json"
	has -o '[ b = "x\"\nPriority = 0" ]'
	# the same when many ads hold the string, and share it
	printf '[{"b": "x\\nP = 0", "n": 1}, {"b": "x\\nP = 0", "n": 2}, {"b": "x\\nP = 0", "n": 3}, {"n": 4}]' \
	    >"$TMP/nl3.json"
	try 3 classad-eval -w true "$TMP/nl3.json"
	[[ $output == 'n = 4' ]]
	[[ $(grep -c 'cannot hold a string with a newline' <<<"$stderr") == 3 ]]
	# nor a backslash that ends a string anywhere but at the end of the line
	printf '[ a = "C:\\\\" ]\n[ b = { "C:\\\\", "D:\\\\" } ]\n' >"$TMP/bs.new"
	try 3 classad-eval -w true "$TMP/bs.new"
	[[ $output == 'a = "C:\"' ]]
	printf '[{"ClusterId": 1, "ProcId": 0, "JobStatus": 1, "CronMinute": "5", "Note": "a\\nb"}]' \
	    >"$TMP/job.json"
	try 3 cron-next --jobs --now $T0 "$TMP/job.json"
	try 0 cron-next --jobs --now $T0 -o json "$TMP/job.json"
	printf '[{"Name": "slot1@x", "State": "Claimed", "Cpus": 1, "AccountingGroup": "x\\"\\nPriority = 0\\n\\nName = \\"root@x\\""}]' \
	    >"$TMP/slot.json"
	try 3 userprio-calc --state "$TMP/s" --now $T0 --update "$TMP/slot.json"
	has 'the long format cannot hold a string with a newline'
	[[ ! -e $TMP/s ]]
	# a state that can hold it takes it
	try 0 userprio-calc --state "$TMP/s" --state-format json --now $T0 --update "$TMP/slot.json"
	try 0 userprio-calc --state "$TMP/s" -allusers -o json -long
}

@test "hostile: every program names a bad option and a missing value the same way (exit 2)" {
	local p
	for p in classad-eval classad-match cron-next schedd-step negotiate startd-step userprio-calc; do
		try 2 $p --bogus
		[[ $stderr == "$p: unknown or ambiguous option '--bogus'"$'\n'"Try '$p --help'." ]] ||
		    { echo "$p: $stderr"; false; }
		try 2 $p -o
		[[ $stderr == "$p: option '-o' needs a value"* ]] || { echo "$p: $stderr"; false; }
	done
	try 2 classad-eval -zQ
	has "classad-eval: unknown or ambiguous option '-Q'"
	try 2 userprio-calc --now
	has "userprio-calc: option '--now' needs a value"
}

@test "hostile: an ad a format cannot hold is refused with why, never dropped in silence" {
	# the long format has no text for an ad without attributes
	printf '[]\n[ a = 1 ]\n' >"$TMP/empty.new"
	try 3 classad-eval -I new -w true "$TMP/empty.new"
	has 'empty.new:1: the long format cannot hold an ad without attributes (-o new, json or xml can)'
	[[ $output == 'a = 1' ]]
	try 0 classad-eval -I new -w true -o json "$TMP/empty.new"
	# JSON and XML cannot hold a name that is not UTF-8 (nor XML a control byte)
	printf "[ 'caf\\351' = 1 ]\n[ b = 2 ]\n" >"$TMP/name.new"
	try 3 classad-eval -I new -w true -o json "$TMP/name.new"
	has 'name.new:1: JSON cannot hold an attribute name that is not UTF-8 (-o new can)'
	has -o '"b": 2'
	printf "[ 'x\\001' = 1 ]\n" >"$TMP/ctl.new"
	try 3 classad-eval -I new -w true -o xml "$TMP/ctl.new"
	has 'XML cannot hold an attribute name that is not UTF-8 or holds a control character'
	try 0 classad-eval -I new -w true -o new "$TMP/name.new"
	has -o "'caf\\351' = 1"
	# classad-match leaves that match out and goes on with the others
	printf '[ ClusterId = 1; ProcId = 0; Owner = "a\\nb"; Requirements = true ]\n' >"$TMP/j.new"
	printf '[ ClusterId = 1; ProcId = 1; Owner = "c"; Requirements = true ]\n' >>"$TMP/j.new"
	printf '[ Name = "slot1@x"; Requirements = true ]\n' >"$TMP/s.new"
	try 3 classad-match -o long "$TMP/j.new" "$TMP/s.new"
	has 'match of 1.0 and slot1@x: the long format cannot hold a string with a newline'
	has -o 'JobId = "1.1"'
}

@test "hostile: a NUL byte is an error with its place, in every format and file" {
	printf 'A = 1\nB = "x\0y"\n' >"$TMP/n.long"
	printf '[ a = 1; b = "\0" ]' >"$TMP/n.new"
	printf '[{"a": "x\0y"}]' >"$TMP/n.json"
	printf '<?xml version="1.0"?>\n<classads><c><a n="x"><s>a\0b</s></a></c></classads>\n' \
	    >"$TMP/n.xml"
	for f in "$TMP"/n.*; do
		try 3 classad-eval -w true "$f"
		has 'NUL byte'
		[[ -z $output ]]
		gzip -c "$f" >"$f.gz"
		try 3 classad-eval -w true "$f.gz"
		has 'NUL byte'
	done
	has "n.xml.gz:2:27:"
	try 3 cron-next --jobs --now $T0 "$TMP/n.long"
	has 'n.long:2:7: NUL byte'
	try 3 classad-match "$TMP/n.json" "$POOL/slots.ads"
	printf 'Name = "a@b.c"\nPriority = 1\0\n' >"$TMP/state"
	cp "$TMP/state" "$TMP/before"
	try 3 userprio-calc --state "$TMP/state" --now $T0 --update "$SLOTS"
	same "$TMP/state" "$TMP/before"
	printf 'A = 1\nB = \0\n' >"$TMP/c.cfg"
	try 3 userprio-calc --state "$TMP/s" --now $T0 -c "$TMP/c.cfg" --update "$SLOTS"
	has 'c.cfg:2:5: NUL byte in the configuration'
	# the REPL reads lines: what follows a NUL must not vanish
	printf 'a = 1\0 + junk\na\n' >"$TMP/script"
	PREFIX='<input 1>:1:6: ' try 3 classad-eval <"$TMP/script"
	has '<input 1>:1:6: NUL byte in the input'
	[[ $output == undefined ]]
}

# ---- size ----

@test "hostile: a 1 MB attribute name is refused in every format; the other ads still come" {
	name=$(rep 1048576 A)
	printf '%s = 1\n' "$name" >"$TMP/b.long"
	printf '[ a = 1 ]\n[ %s = 1 ]\n[ b = 2 ]\n' "$name" >"$TMP/b.new"
	printf '[{"a": 1}, {"%s": 1}, {"b": 2}]\n' "$name" >"$TMP/b.json"
	printf '<?xml version="1.0"?>\n<classads><c><a n="%s"><i>1</i></a></c></classads>\n' \
	    "$name" >"$TMP/b.xml"
	for f in "$TMP"/b.*; do
		try 3 classad-eval -w true "$f"
		has "classad-eval: $f:"
	done
	try 3 classad-eval -o new -w true "$TMP/b.new"
	[[ $output == $'{\n[ a = 1 ],\n[ b = 2 ]\n}' ]]
	has 'longer than 65534 bytes'
	try 3 classad-match "$TMP/b.json" "$POOL/slots.ads"
	try 3 cron-next --jobs --now $T0 "$TMP/b.new"
	try 3 userprio-calc --state "$TMP/s" --now $T0 --update "$TMP/b.json"
	[[ ! -e $TMP/s ]]
	# a 1 MB macro name, a 1 MB value, a 1 MB schedule list
	printf '%s = 1\nB = %s\n' "$name" "$name" >"$TMP/c.cfg"
	try 0 userprio-calc --state "$TMP/s" --now $T0 -c "$TMP/c.cfg" --update "$SLOTS"
	printf 'ClusterId = 1\nProcId = 0\nJobStatus = 1\nCronMinute = "%s1"\n' \
	    "$(rep 300000 '7,')" >"$TMP/j.ad"
	try 0 cron-next --jobs --due --now $T0 "$TMP/j.ad"
	has -o 'DeferralTime = 1700002860'
}

@test "hostile: 100,000-deep nesting in expressions and nested ads is a clear error" {
	n=100000
	{
		printf 'A = %s1%s\n' "$(rep $n '(')" "$(rep $n ')')"
		printf 'B = %s1\n' "$(rep $n '- ')"
		printf 'C = %s1\n' "$(rep $n '!')"
		printf 'D = %s%s\n' "$(rep $n '{')" "$(rep $n '}')"
		printf 'E = %s1%s\n' "$(rep $n '[ a = ')" "$(rep $n ' ]')"
		printf 'F = %s1%s\n' "$(rep $n 'size(')" "$(rep $n ')')"
		printf 'G = a%s\n' "$(rep $n '.b')"
		printf 'H = x%s\n' "$(rep $n '[0]')"
		printf 'I = 1%s\n' "$(rep $n ' + 1')"
		printf 'J = true%s\n' "$(rep $n ' ? 1 : 1')"
		printf 'K = a%s\n' "$(rep $n ' ?: b')"
	} >"$TMP/deep.all"
	for v in A B C D E F G H I J K; do
		grep "^$v = " "$TMP/deep.all" >"$TMP/deep"
		try 3 classad-eval -w true "$TMP/deep"
		has 'nested more than 400 levels deep'
		[[ -z $output ]]
	done
	try 3 classad-eval -- "$(rep $n '-')1"
	has '<argument 2>:1:'
	printf '[{"a": %s1%s}]' "$(rep $n '[')" "$(rep $n ']')" >"$TMP/deep.json"
	printf '[{"a": %s1%s}]' "$(rep $n '{"b": ')" "$(rep $n '}')" >"$TMP/deep2.json"
	printf '<classads><c><a n="x">%s%s</a></c></classads>' "$(rep $n '<l>')" "$(rep $n '</l>')" \
	    >"$TMP/deep.xml"
	printf '[ a = %s ]' "$(rep $n '[ a = ')1$(rep $n ']')" >"$TMP/deep.new"
	for f in "$TMP"/deep.json "$TMP"/deep2.json "$TMP"/deep.xml "$TMP"/deep.new; do
		try 3 classad-eval -w true "$f"
		has 'nested more than 400'
		try 3 classad-match "$f" "$POOL/slots.ads"
		try 3 cron-next --jobs --now $T0 "$f"
		try 3 userprio-calc --state "$TMP/s" --now $T0 --update "$f"
	done
	# and in configuration files: macros, defaults, conditionals, expressions
	printf 'A = %sB%s\n' "$(rep $n '$(')" "$(rep $n ')')" >"$TMP/c1.cfg"
	printf 'A = %s1%s\nPRIORITY_HALFLIFE = $(A)\n' "$(rep $n '$(X:')" "$(rep $n ')')" >"$TMP/c2.cfg"
	printf 'if %s1%s\nA = 1\nendif\n' "$(rep $n '$(X:')" "$(rep $n ')')" >"$TMP/c3.cfg"
	printf 'include : %s1%s\n' "$(rep $n '$ENV(X:')" "$(rep $n ')')" >"$TMP/c4.cfg"
	awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) print "if true"; print "A = 1"
	    for (i = 0; i < n; i++) print "endif" }' >"$TMP/c5.cfg"
	printf 'PRIORITY_HALFLIFE = %s1%s\n' "$(rep $n '(')" "$(rep $n ')')" >"$TMP/c6.cfg"
	awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "A%d = $(A%d)\n", i, i + 1
	    print "PRIORITY_HALFLIFE = $(A0)" }' >"$TMP/c7.cfg"
	for c in "$TMP"/c*.cfg; do
		try 3 userprio-calc --state "$TMP/s" --now $T0 -c "$c" --update "$SLOTS"
		has "${c##*/}:"
		[[ ! -e $TMP/s ]]
	done
}

@test "hostile: 10,000-element lists are read, evaluated and written in full" {
	list=$(awk 'BEGIN { for (i = 1; i <= 10000; i++) printf "%s%d", (i > 1 ? ", " : ""), i }')
	printf 'X = { %s }\nS = "%s"\n' "$list" "${list//, /,}" >"$TMP/l.long"
	try 0 classad-eval -p 'size(X)' -p 'sum(X)' -p 'member(9999, X)' -p 'X[9999]' \
	    -p 'stringListSize(S)' -p 'stringListMember("10000", S)' -p 'size(split(S, ","))' \
	    "$TMP/l.long"
	[[ $output == $'10000\t50005000\ttrue\t10000\t10000\ttrue\t10000' ]]
	for fmt in new json xml long; do
		classad-eval -o $fmt -w true "$TMP/l.long" >"$TMP/out.$fmt"
		try 0 classad-eval -p 'size(X)' -p 'X[0] + X[9999]' "$TMP/out.$fmt"
		[[ $output == $'10000\t10001' ]]
	done
	printf 'Requirements = member(TARGET.Cpus, { %s })\nClusterId = 1\nProcId = 0\n' "$list" \
	    >"$TMP/job.ad"
	try 0 classad-match "$TMP/job.ad" "$POOL/slots.ads"
}

# ---- recursion ----

@test "hostile: self-referencing and mutually recursive attributes are ERROR, not hangs" {
	try 0 classad-eval 'a = a + 1' 'a' 'b = c' 'c = b' 'b' 'd = eval("d")' 'd' \
	    'e = [ f = parent.e ].f' 'e'
	[[ $output == $'error\nerror\nerror\nerror' ]]
	try 0 classad-eval 'a = b' 'b = a' --explain 'a'
	has -o 'circular reference'
	printf 'a = a + 1\nb = c\nc = b\n' >"$TMP/r.ad"
	try 0 classad-eval -w 'a || b' -p 'a' "$TMP/r.ad"
	[[ -z $output ]]
	try 0 classad-eval -p 'a' -p 'b' "$TMP/r.ad"
	[[ $output == $'error\terror' ]]
	# a chain 100,000 long, and one that doubles at each step
	awk 'BEGIN { for (i = 0; i < 100000; i++) printf "a%d = a%d + 1\n", i, i + 1; print "a100000 = 0" }' \
	    >"$TMP/chain.ad"
	awk 'BEGIN { for (i = 0; i < 60; i++) printf "a%d = a%d + a%d\n", i, i + 1, i + 1; print "a60 = 1" }' \
	    >"$TMP/expo.ad"
	for f in "$TMP/chain.ad" "$TMP/expo.ad"; do
		try 0 classad-eval -p 'a0' "$f"
		[[ $output == error ]]
		try 0 classad-eval -f "$f" --explain 'a0'
		has -o 'a0  =>  error'
	done
	has -o 'parts are left out'
	awk 'BEGIN { for (i = 0; i < 13; i++) { printf "a%d = ", i
	    for (j = 0; j < 390; j++) printf "-"; printf "a%d\n", i + 1 }; print "a13 = 1" }' >"$TMP/x.ad"
	try 0 classad-eval -f "$TMP/x.ad" --explain 'a0'
	has -o 'parts are left out'
	# in the other programs
	printf 'ClusterId = 1\nProcId = 0\nJobStatus = 1\nCronMinute = CronHour\nCronHour = CronMinute\n' \
	    >"$TMP/j.ad"
	try 0 cron-next --jobs --now $T0 "$TMP/j.ad"
	has 'CronMinute is an error'
	printf 'ClusterId = 1\nProcId = 0\nRequirements = Requirements\nRank = Rank\n' >"$TMP/j.ad"
	try 1 classad-match "$TMP/j.ad" "$POOL/slots.ads"
	try 1 classad-match --analyze 1.0 "$TMP/j.ad" "$POOL/slots.ads"
	printf 'Name = "a@b.c"\nPriority = Priority\n' >"$TMP/state"
	try 3 userprio-calc --state "$TMP/state" -allusers
	printf 'A = $(B)\nB = $(C)\nC = $(A)\nPRIORITY_HALFLIFE = $(A)\n' >"$TMP/c.cfg"
	try 3 userprio-calc --state "$TMP/s" --now $T0 -c "$TMP/c.cfg" --update "$SLOTS"
	has 'macro recursion: A -> B -> C -> A'
}

# ---- numbers ----

@test "hostile: huge integers and exponents are errors or infinities, never wrong numbers" {
	try 3 classad-eval '9223372036854775808'
	has 'out of the 64-bit range'
	try 0 classad-eval -- '-9223372036854775808' '1e999999' '-1e999999' '1e-999999' \
	    '-9223372036854775808 / -1' '-9223372036854775808 % -1' '1 << 64' 'int(1e300)' \
	    'pow(2, 1000000)' 'absTime(9223372036854775807)'
	[[ $output == $'-9223372036854775808\nreal("INF")\nreal("-INF")\n0.0\n9223372036854775807\n0\nerror\nerror\nerror\nerror' ]]
	printf 'X = %s\n' "$(rep 100000 9)" >"$TMP/n.long"
	try 3 classad-eval -w true "$TMP/n.long"
	printf 'X = 1e%s\nY = 0.%s1\n' "$(rep 100000 9)" "$(rep 100000 0)" >"$TMP/n.long"
	try 0 classad-eval -p X -p Y "$TMP/n.long"
	[[ $output == $'real("INF")\t0.0' ]]
	printf '[{"a": 99999999999999999999999}, {"b": 1}]' >"$TMP/n.json"
	try 3 classad-eval -w true "$TMP/n.json"
	[[ $output == 'b = 1' ]]
	printf '<classads><c><a n="a"><i>99999999999999999999</i></a></c></classads>' >"$TMP/n.xml"
	try 3 classad-eval -w true "$TMP/n.xml"
	try 3 classad-eval 'absTime("9999-12-32T00:00:00Z")'
	for p in classad-eval cron-next userprio-calc classad-match; do
		try 2 $p --now 99999999999999999999
	done
	try 2 cron-next -n 99999999999999999999 '* * * * *'
	printf 'Name = "a@b.c"\nPriority = 1e999\n' >"$TMP/state"
	try 3 userprio-calc --state "$TMP/state" -allusers
	printf 'PRIORITY_HALFLIFE = 1e999\n' >"$TMP/c.cfg"
	try 3 userprio-calc --state "$TMP/s" --now $T0 -c "$TMP/c.cfg" --update "$SLOTS"
	# a weight whose usage would reach real("INF"): the state could not be read
	printf 'Name = "slot1@x"\nState = "Claimed"\nRemoteUser = "u@x"\nSlotWeight = 1e308\n' \
	    >"$TMP/slot.ad"
	try 3 userprio-calc --state "$TMP/s" --now $T0 --update "$TMP/slot.ad"
	has 'the usage of u@x is too large to record'
	[[ ! -e $TMP/s ]]
	try 3 userprio-calc --state "$TMP/s" --now $T0 --update "$TMP/slot.ad" "$TMP/slot.ad"
	[[ ! -e $TMP/s ]]
}

# ---- gzip ----

@test "hostile: malformed gzip is an error, never read as text or as half an ad" {
	gz=$FIX/real.gz
	n=$(wc -c <"$gz")
	printf '\x1f\x8b' >"$TMP/magic.gz"
	head -c 10 "$gz" >"$TMP/header.gz"
	head -c $((n / 2)) "$gz" >"$TMP/half.gz"
	head -c $((n - 4)) "$gz" >"$TMP/nosize.gz"
	cp "$gz" "$TMP/crc.gz"
	printf '\0\0\0\0' | dd of="$TMP/crc.gz" bs=1 seek=$((n - 8)) conv=notrunc 2>/dev/null
	cp "$gz" "$TMP/flip.gz"
	printf '\377' | dd of="$TMP/flip.gz" bs=1 seek=$((n / 2)) conv=notrunc 2>/dev/null
	{ cat "$gz"; printf 'trailing text'; } >"$TMP/trail.gz"
	{ cat "$gz"; printf '\x1f\x8b'; } >"$TMP/trailmagic.gz"
	{ printf '\x1f\x8b'; garbage 500 3; } >"$TMP/magicgarbage.gz"
	for f in magic header half nosize crc flip trail trailmagic magicgarbage; do
		try 3 classad-eval -w true "$TMP/$f.gz"
		has 'corrupt gzip data'
		[[ -z $output ]]
		try 3 classad-eval -w true <"$TMP/$f.gz"
		has 'classad-eval: <stdin>: corrupt gzip data'
	done
	# gzip inside gzip is not looked into: the inner one is binary data
	gzip -c "$gz" >"$TMP/double.gz"
	try 3 classad-eval -w true "$TMP/double.gz"
	has 'unexpected control byte 0x1f'
	# a compressed stream of zeros ends at the first one
	head -c 1000000 /dev/zero | gzip -c >"$TMP/zeros.gz"
	try 3 classad-eval -w true "$TMP/zeros.gz"
	has 'NUL byte in the input'
	try 3 cron-next --jobs --now $T0 "$TMP/half.gz"
	try 3 classad-match "$TMP/crc.gz" "$POOL/slots.ads"
	gzip -c "$SLOTS" | head -c 150 >"$TMP/slots.gz"
	cp "$DATA/userprio/state-seed.ad" "$TMP/state"
	try 3 userprio-calc --state "$TMP/state" --now 1800000000 --update "$TMP/slots.gz"
	same "$TMP/state" "$DATA/userprio/state-seed.ad"
}

# ---- configuration files ----

@test "hostile: configuration files with unbalanced \$( and recursive macros" {
	t=0
	while IFS='|' read -r text msg; do
		t=$((t + 1))
		printf '%b\n' "$text" >"$TMP/c$t.cfg"
		try 3 userprio-calc --state "$TMP/s" --now $T0 -c "$TMP/c$t.cfg" --update "$SLOTS"
		has "c$t.cfg:"
		has "$msg"
		[[ ! -e $TMP/s ]]
	done <<-'EOF'
	A = $(B|unbalanced '$(': no ')' closes it
	A = $(|unbalanced '$('
	A = $(B:$(C)|unbalanced '$('
	A = $ENV(HOME|unbalanced '$('
	A = $( )|bad macro name
	PRIORITY_HALFLIFE = $(X)\nX = $(Y)\nY = $(X)|macro recursion: X -> Y -> X
	PRIORITY_HALFLIFE = $(A)\nA = $(A)x$(B)\nB = $(A)|macro recursion
	A = xxxxxxxxxx\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)\nA = $(A)$(A)|A with its previous value is longer than
	A0 = xxxxxxxxxxxxxxxx\nA1 = $(A0)$(A0)$(A0)$(A0)\nA2 = $(A1)$(A1)$(A1)$(A1)\nA3 = $(A2)$(A2)$(A2)$(A2)\nA4 = $(A3)$(A3)$(A3)$(A3)\nA5 = $(A4)$(A4)$(A4)$(A4)\nA6 = $(A5)$(A5)$(A5)$(A5)\nA7 = $(A6)$(A6)$(A6)$(A6)\nA8 = $(A7)$(A7)$(A7)$(A7)\nA9 = $(A8)$(A8)$(A8)$(A8)\nA10 = $(A9)$(A9)$(A9)$(A9)\nA11 = $(A10)$(A10)$(A10)$(A10)\nA12 = $(A11)$(A11)$(A11)$(A11)\nA13 = $(A12)$(A12)$(A12)$(A12)\nA14 = $(A13)$(A13)$(A13)$(A13)\nA15 = $(A14)$(A14)$(A14)$(A14)\nA16 = $(A15)$(A15)$(A15)$(A15)\nPRIORITY_HALFLIFE = $(A16)|macro expansion longer than
	if\nA = 1\nendif|missing condition
	if true\nA = 1|'if' without 'endif'
	endif|'endif' without 'if'
	A @=END\nno end|no '@END' line ends this value
	include : /dev/zero|/dev/zero is longer than 64 MiB
	use POLICY : nope|unknown template POLICY:nope
	= 1|expected a name
	A|expected '=' after 'A'
	PRIORITY_HALFLIFE = foo(|expected an expression
	PRIORITY_HALFLIFE = -1|must be a positive number
	PRIORITY_HALFLIFE = real("NaN")|must be a positive number
	EOF
	printf 'A = 1\ninclude : loop.cfg\n' >"$TMP/loop.cfg"
	try 3 userprio-calc --state "$TMP/s" --now $T0 -c "$TMP/loop.cfg" --update "$SLOTS"
	has 'loop.cfg:2:8: includes nested more than 16 deep'
	# the harmless ones load
	printf 'A = $(A)\nB = $$(NOT)\nC = x \\\n  y\nD = $(UNDEFINED:default)\n' >"$TMP/ok.cfg"
	try 0 userprio-calc --state "$TMP/s" --now $T0 -c "$TMP/ok.cfg" --update "$SLOTS"
}

# ---- schedules ----

@test "hostile: every invalid form of a schedule names the field and exits 3" {
	while IFS='|' read -r sched msg; do
		try 3 cron-next --now $T0 -- "$sched"
		has "$msg"
		[[ -z $output ]]
	done <<-'EOF'
	|a schedule has 5 fields (MIN HOUR DOM MONTH DOW), not 0
	* * * *|not 4
	* * * * * *|not 6
	@daily|not 1
	60 * * * *|cron_minute: 60 is out of range 0-59
	* 24 * * *|cron_hour: 24 is out of range 0-23
	* * 0 * *|cron_day_of_month: 0 is out of range 1-31
	* * 32 * *|cron_day_of_month: 32 is out of range 1-31
	* * * 0 *|cron_month: 0 is out of range 1-12
	* * * 13 *|cron_month: 13 is out of range 1-12
	* * * * 8|cron_day_of_week: 8 is out of range 0-7
	99999999999999999999 * * * *|cron_minute: 99999999999999999999 is out of range
	1-99999999999999999999 * * * *|cron_minute: 99999999999999999999 in 1-99999999999999999999 is out of range
	-1 * * * *|cron_minute: -1 is not a value, a range or a step
	5-1 * * * *|cron_minute: 5-1 is a reversed range
	*/0 * * * *|cron_minute: */0 has a zero step
	5/2 * * * *|cron_minute: 5/2 has a step on a single value
	*/ * * * *|cron_minute: */ is not a value
	1- * * * *|cron_minute: 1- is not a value
	1--2 * * * *|cron_minute: 1--2 is not a value
	1//2 * * * *|cron_minute: 1//2 is not a value
	** * * * *|cron_minute: ** is not a value
	, * * * *|cron_minute: , has an empty list element
	1,,2 * * * *|cron_minute: 1,,2 has an empty list element
	1, * * * *|cron_minute: 1, has an empty list element
	a * * * *|cron_minute: bad character 'a'
	1.5 * * * *|cron_minute: bad character '.'
	+1 * * * *|cron_minute: bad character '+'
	* * * JAN *|cron_month: bad character 'J'
	* * * * MON|cron_day_of_week: bad character 'M'
	0 0 31 2 *|cron_day_of_month: day 31 never occurs in month 2
	0 0 30 2 *|day 30 never occurs in month 2
	0 0 31 4,6,9,11 *|day 31 never occurs in months 4,6,9,11
	EOF
	for opt in minute hour day-of-month month day-of-week; do
		try 3 cron-next --now $T0 --$opt 99
		has 'is out of range'
		try 3 cron-next --now $T0 --$opt ''
		has 'the value is empty'
	done
	# a leading '-' without "--" is an unknown option
	try 2 cron-next --now $T0 '-1 * * * *'
	try 2 cron-next -n -1 '* * * * *'
	try 1 cron-next --now 253370764800 -n 3 '0 0 29 2 *'
	has 'before the end of year 9999'
}

@test "hostile: invalid schedules in job ads hold the job; the stream goes on" {
	: >"$TMP/jobs.ad"
	i=0
	while IFS='|' read -r attrs msg; do
		i=$((i + 1))
		printf 'ClusterId = %d\nProcId = 0\nJobStatus = 1\n%b\n\n' $i "$attrs" >>"$TMP/jobs.ad"
	done <<-'EOF'
	CronMinute = "60"|CronMinute: 60 is out of range
	CronHour = "*/0"|zero step
	CronMinute = 5 + "x"|CronMinute is an error
	CronMinute = { 1, 2 }|not a string or an integer
	CronMinute = 1e99|CronMinute is a real
	CronMinute = -5|CronMinute: -5 is not a value
	CronMinute = "0"\nCronPrepTime = -5|CronPrepTime must be a non-negative integer
	CronMinute = "0"\nCronWindow = -9223372036854775808|CronWindow must be a non-negative integer
	CronDayOfMonth = "31"\nCronMonth = "2"|day 31 never occurs in month 2
	EOF
	cat "$FIX/cronjob.ad" >>"$TMP/jobs.ad"
	try 0 cron-next --jobs --now $T0 "$TMP/jobs.ad"
	[[ $(grep -c 'HoldReasonCode = 25' <<<"$output") == 9 ]]
	[[ $(grep -c 'the job is put on hold' <<<"$stderr") == 9 ]]
	has -o 'DeferralTime = 1700038800'
	[[ $(grep -c '^ClusterId = ' <<<"$output") == 10 ]]
}

# ---- startd-step and negotiate ----

@test "hostile: startd-step: bad slots, events for unknown slots, bad policies" {
	S=$DATA/startd
	startd-step --init --now $T0 -c "$S/static.config" "$BATS_TEST_DIRNAME/../share/timeline/desk.ad" >"$TMP/slots.ads"
	try 0 startd-step --now $T0 /dev/null
	[[ -z $output ]]
	for f in "$FIX/garbage" "$FIX/garbage.gz"; do
		try 3 startd-step --now $T0 "$f"
		try 3 startd-step --init --now $T0 "$f"
		try 3 startd-step --now $T0 -e "$f" "$TMP/slots.ads"
		try 3 startd-step --now $T0 -c "$f" "$TMP/slots.ads"
	done
	for ev in Vacate Shutdown Release Drain JobExit MachineUpdate; do
		printf 'Name = "nosuch@x"\nEvent = "%s"\nTime = %d\n' $ev $((T0 + 10)) >"$TMP/ev.ads"
		try 3 startd-step --now $((T0 + 60)) -e "$TMP/ev.ads" "$TMP/slots.ads"
		has "no slot named nosuch@x (event $ev)"
		# the slots that could be stepped are still written
		has -o 'Name = "slot1@desk.example.org"'
	done
	printf 'Name = "slot1@desk.example.org"\nEvent = "Bogus"\nTime = %d\n' $T0 >"$TMP/ev.ads"
	try 3 startd-step --now $((T0 + 60)) -e "$TMP/ev.ads" "$TMP/slots.ads"
	has 'unknown event "Bogus"'
	printf 'Name = "slot1@desk.example.org"\nEvent = "Vacate"\nTime = 99999999999999999\n' \
	    >"$TMP/ev.ads"
	try 3 startd-step --now $((T0 + 60)) -e "$TMP/ev.ads" "$TMP/slots.ads"
	has 'Time must be a number of seconds since the epoch'
	sed 's/^State = .*/State = "Bogus"/' "$TMP/slots.ads" >"$TMP/bad.ads"
	try 3 startd-step --now $((T0 + 60)) "$TMP/bad.ads"
	has 'unknown State "Bogus" (the ad is passed through unchanged)'
	printf 'Name = "m"\nCpus = 99999999999999\nMemory = 1\n' >"$TMP/m.ad"
	try 3 startd-step --init --now $T0 "$TMP/m.ad"
	printf 'START = $(X\n' >"$TMP/p.cfg"
	try 3 startd-step --now $T0 -c "$TMP/p.cfg" "$TMP/slots.ads"
	printf 'START = START\nWANT_SUSPEND = SUSPEND\nSUSPEND = WANT_SUSPEND\n' >"$TMP/p.cfg"
	try 0 startd-step --now $((T0 + 3600)) -c "$TMP/p.cfg" -a "$TMP/slots.ads"
	# a state file that cannot be read is left as it is
	cp "$FIX/garbage" "$TMP/state"
	try 3 startd-step --now $T0 --state "$TMP/state"
	has 'not rewritten'
	same "$TMP/state" "$FIX/garbage"
	# cut at every byte: never a partial slot passed off as whole
	classad-eval -o json -w true "$TMP/slots.ads" >"$TMP/full.json"
	prefixes "$TMP/full.json" "$TMP/cut"
	try 3 startd-step --now $((T0 + 60)) "$TMP/cut"/p*
	named "$TMP/cut"/p*
}

@test "hostile: negotiate: a bad slot, job, accountant ad or configuration runs no cycle" {
	N=$DATA/negotiate
	try 1 negotiate --now $T0 --slots /dev/null --jobs /dev/null
	for f in "$FIX/garbage" "$FIX/garbage.gz"; do
		try 3 negotiate --now $T0 --slots "$f" --jobs "$POOL/jobs.ads"
		[[ -z $output ]]
		try 3 negotiate --now $T0 --slots "$POOL/slots.ads" --jobs "$f"
		[[ -z $output ]]
		try 3 negotiate --now $T0 --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" --accounting "$f"
		[[ -z $output ]]
		try 3 negotiate --now $T0 --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" -c "$f"
	done
	# the last ad of the jobs cut short: no cycle on a partial pool
	head -c $(($(wc -c <"$POOL/jobs.ads") - 40)) "$POOL/jobs.ads" >"$TMP/jobs.ads"
	printf 'Owner = "x\n' >>"$TMP/jobs.ads"
	try 3 negotiate --now $T0 --slots "$POOL/slots.ads" --jobs "$TMP/jobs.ads"
	[[ -z $output ]]
	printf 'Name = "a@b"\nPriority = real("NaN")\n' >"$TMP/acct.ads"
	try 3 negotiate --now $T0 --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" --accounting "$TMP/acct.ads"
	printf 'A = $(X:%s1%s\n' "$(rep 1000 '$(X:')" "$(rep 1001 ')')" >"$TMP/c.cfg"
	try 3 negotiate --now $T0 --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" -c "$TMP/c.cfg"
	has 'macro defaults nested more than 64 deep'
	printf 'PREEMPTION_REQUIREMENTS = PREEMPTION_REQUIREMENTS\nPREEMPTION_RANK = 1e308 * 10\n' \
	    >"$TMP/c.cfg"
	try 0 negotiate --now $T0 --slots "$POOL/slots.ads" --jobs "$POOL/jobs.ads" -c "$TMP/c.cfg"
	printf 'ClusterId = 1\nProcId = 0\nJobStatus = 1\nOwner = "u"\nUser = "u@x"\nRequirements = Requirements\nRank = Rank\n' \
	    >"$TMP/j.ads"
	try 1 negotiate --now $T0 --slots "$POOL/slots.ads" --jobs "$TMP/j.ads"
}

# ---- crash-safety of the accountant's state ----

# A state of 3000 users, so that writing it takes a while.
big_state() {
	awk -v t=$T0 'BEGIN { for (i = 0; i < 3000; i++) printf "Name = \"user%d@example.com\"\nPriority = %d.5\nPriorityFactor = 1.0\nResourcesUsed = 0\nWeightedResourcesUsed = 0.0\nAccumulatedUsage = 0.0\nWeightedAccumulatedUsage = 0.0\nBeginUsageTime = 0\nLastUsageTime = 0\nLastUpdate = %d\n\n", i, i % 97, t }'
}

@test "crash-safety: SIGKILL at random points leaves the old state or the new one, whole" {
	big_state >"$TMP/state"
	mkdir "$TMP/ref"
	seen_old=0 strays=0
	for ((i = 1; i <= 25; i++)); do
		now=$((T0 + i * 600))
		# the state this update makes, computed on a copy, and how long
		# that takes: the kill comes at a random point of it
		cp "$TMP/state" "$TMP/ref/state"
		t=${EPOCHREALTIME/./}
		userprio-calc --state "$TMP/ref/state" --now $now --update "$SLOTS"
		us=$(((${EPOCHREALTIME/./} - t) * RANDOM / 32768))
		cp "$TMP/state" "$TMP/old"
		userprio-calc --state "$TMP/state" --now $now --update "$SLOTS" &
		pid=$!
		sleep "$(printf '%d.%06d' $((us / 1000000)) $((us % 1000000)))"
		kill -KILL $pid 2>/dev/null || true
		wait $pid 2>/dev/null || true
		if cmp -s "$TMP/state" "$TMP/old"; then
			seen_old=$((seen_old + 1))
			[[ -z $(find "$TMP" -maxdepth 1 -name '.state.??????') ]] ||
			    strays=$((strays + 1))
			# a killed run leaves the state usable: the next one goes on,
			# and removes the temporary file the killed one left
			userprio-calc --state "$TMP/state" --now $now --update "$SLOTS"
		fi
		cmp -s "$TMP/state" "$TMP/ref/state" || { echo "run $i: torn state"; false; }
		[[ -z $(find "$TMP" -maxdepth 1 -name '.state.*') ]] || { echo "run $i: stray file"; false; }
	done
	echo "old kept $seen_old times, $strays of them with a temporary file left"
	try 0 userprio-calc --state "$TMP/state" -allusers
	has -o 'Number of users: 3'
}

@test "crash-safety: eight concurrent updates of the same records lose none" {
	# tests/userprio-calc.bats runs eight concurrent edits of different users;
	# here all eight change the same record, and each one's change must last
	big_state >"$TMP/state"
	for i in 1 2 3 4 5 6 7 8; do
		userprio-calc --state "$TMP/state" --now $T0 -setfactor "user$i@example.com" $((i + 1)) \
		    -setaccum "user0@example.com" $i -setprio "n$i@example.com" $i >/dev/null &
	done
	wait
	try 0 userprio-calc --state "$TMP/state" -long user1@example.com user8@example.com \
	    n1@example.com n8@example.com
	has -o 'Name = "n1@example.com"'
	has -o 'Name = "n8@example.com"'
	[[ $(grep -c '^PriorityFactor = 2.0$' <<<"$output") == 1 ]]
	[[ $(grep -c '^PriorityFactor = 9.0$' <<<"$output") == 1 ]]
	[[ $(grep -c '^Name = ' "$TMP/state") == 3008 ]]
	accum=$(awk '/^Name = "user0@/ { f = 1 } f && /^WeightedAccumulatedUsage/ { print $3; exit }' \
	    "$TMP/state")
	[[ $accum =~ ^[1-8]\.0$ ]]
	[[ -z $(find "$TMP" -name '.state.*') ]]
}

# ---- memory ----

# gen N: N slot ads on standard output, made up as they are read
gen() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
	    printf "Name = \"slot%d@node%d.example.org\"\nCpus = %d\nMemory = %d\nState = \"%s\"\nRequirements = TARGET.RequestCpus <= Cpus && TARGET.RequestMemory <= Memory\n\n",
	        i % 8, i, i % 64, (i * 7) % 65536, i % 3 ? "Claimed" : "Unclaimed" }'
}

# asan: the programs under test were built with AddressSanitizer, which
# reserves terabytes of address space (no ulimit -v with it)
asan() {
	[[ -n ${CA_ASAN:-} ]] && return 0
	grep -q __asan_init "$CA_BIN/classad-eval" 2>/dev/null
}

@test "resources: 1,000,000 ads through classad-eval -w in constant memory" {
	# Cpus > 32 && State == "Unclaimed": i % 64 > 32 and i % 3 == 0
	want=$(awk 'BEGIN { for (i = 0; i < 1000000; i++) n += i % 64 > 32 && i % 3 == 0; print n }')
	lim=65536
	asan && lim=
	export -f gen
	run env LIM="$lim" LIMIT="$LIMIT" bash -c 'set -o pipefail; gen 1000000 |
	    ( [ -z "$LIM" ] || ulimit -v "$LIM"
	      exec timeout "$LIMIT" classad-eval -w "Cpus > 32 && State == \"Unclaimed\"" ) |
	    grep -c "^Name = "'
	((status == 0)) || { echo "status $status: $output"; false; }
	[[ $output == "$want" ]]
	[[ -n $lim ]] || skip "AddressSanitizer build: streamed without the memory limit"
}

@test "hostile: control bytes in file names and values are escaped in diagnostics" {
	bad=$'evil\e]0;pwned\a\e[2J'
	printf 'A = 1\n' >"$TMP/$bad"
	printf 'Name = "x\001y"\nBroken = (\n' >>"$TMP/$bad"
	run -3 --separate-stderr classad-eval -w true "$TMP/$bad"
	[[ $stderr != *$'\e'* ]]
	[[ $stderr != *$'\a'* ]]
	[[ $stderr == *'evil\x1b]0;pwned\x07\x1b[2J'* ]]
	# a stray byte that is not UTF-8, and a C1 control in UTF-8, too
	run -2 --separate-stderr classad-eval $'--wher\x9bx' x
	[[ $stderr == *'\x9b'* ]]
	run -2 --separate-stderr classad-eval $'--wh\xc2\x9bx' x
	[[ $stderr == *'\xc2\x9b'* ]]
	# UTF-8 text itself is left as it is
	run -2 --separate-stderr classad-eval $'--w\xc3\xa9' x
	[[ $stderr == *$'\xc3\xa9'* ]]
}

# An ad whose a0 costs 2^60 steps (a0 = a1 + a1 ... a60 = 1) and whose s12
# is ten-fold replaceAll()s of a 10-byte string (10^13 bytes), then $1.
costly_ad() {
	local i
	for ((i = 0; i < 60; i++)); do echo "a$i = a$((i + 1)) + a$((i + 1))"; done
	echo 'a60 = 1'
	echo 's0 = "xxxxxxxxxx"'
	for ((i = 0; i < 12; i++)); do echo "s$((i + 1)) = replaceAll(\"x\", s$i, \"xxxxxxxxxx\")"; done
	echo "$1"
}

@test "budgets: an ad's costly attribute costs one evaluation's budget, not one per pair" {
	costly_ad 'Requirements = a0 > 0' > "$BATS_TEST_TMPDIR/job.ads"
	printf 'ClusterId = 1\nProcId = 0\nOwner = "u"\nRequestMemory = 1\n' >> "$BATS_TEST_TMPDIR/job.ads"
	for ((i = 0; i < 2000; i++)); do
		printf 'Name = "slot%d@h"\nMemory = 100\nRequirements = TARGET.RequestMemory <= Memory\n\n' "$i"
	done > "$BATS_TEST_TMPDIR/slots.ads"
	# 0.1 s and more a pair when every pair spent the whole budget
	try 1 classad-match --now $T0 "$BATS_TEST_TMPDIR/job.ads" "$BATS_TEST_TMPDIR/slots.ads"
	[[ -z $output ]]
}

@test "budgets: text that grows ten-fold a step is ERROR in bounded memory" {
	costly_ad 'n = size(s12)' > "$BATS_TEST_TMPDIR/ad"
	lim=1000000
	asan && lim=
	run --separate-stderr bash -c '[ -z "$1" ] || ulimit -v "$1"; exec timeout "$2" classad-eval -f "$3" n "size(s5)" "isError(s12)"' \
	    sh "$lim" "$LIMIT" "$BATS_TEST_TMPDIR/ad"
	((status == 0)) || { echo "status $status: $stderr"; false; }
	[[ $output == $'error\n1000000\nerror' ]]
}
