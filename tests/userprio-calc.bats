#!/usr/bin/env bats
# userprio-calc.bats - the accountant: the seeds' numbers (3.4.1, 3.4.2,
# 3.4.4, 3.4.7, "User priority"), condor_userprio's edits and report, the
# state file (formats, atomic and locked writes), configuration, errors.

load helpers

D=$BATS_TEST_DIRNAME/data/userprio
T0=1700000000		# Tue Nov 14 22:13:20 UTC 2023
DAY=86400

# up ARGS...: userprio-calc on $TMP/state, output checked by the caller
up() { userprio-calc --state "$TMP/state" "$@"; }

# row NAME: the table row of NAME in $output, blanks squeezed
row() { printf '%s\n' "$output" | awk -v n="$1" '$1 == n { $1 = $1; print }'; }

# ---- conventions ----

@test "userprio-calc: --help on stdout, -V, exit 0" {
	run -0 --separate-stderr userprio-calc --help
	[[ $output == usage:* ]]
	[[ $output == *"-setfactor NAME F"* ]]
	[[ -z $stderr ]]
	run -0 userprio-calc -h
	run -0 userprio-calc -V
	[[ $output == "userprio-calc (classad-tools) 0.1.0" ]]
	run -0 userprio-calc --version
}

@test "userprio-calc: usage errors exit 2 and write nothing" {
	run -2 --separate-stderr userprio-calc -allusers
	[[ $stderr == *"--state FILE is required"* ]]
	run -2 --separate-stderr up --bogus
	[[ $stderr == "userprio-calc: unknown or ambiguous option '--bogus'"* ]]
	run -2 --separate-stderr up -al
	run -2 --separate-stderr up --now
	[[ $stderr == *"'--now' needs a value"* ]]
	run -2 --separate-stderr up -setfactor alice@example.com 0.5
	[[ $stderr == *"Priority factors must be greater than or equal to 1"* ]]
	run -2 --separate-stderr up -setprio alice@example.com -1
	[[ $stderr == *"a priority cannot be negative"* ]]
	run -2 --separate-stderr up -setprio alice@example.com lots
	[[ $stderr == *"'lots' is not a number"* ]]
	run -2 --separate-stderr up -setprio alice@example.com
	[[ $stderr == *"-setprio needs a name and a value"* ]]
	run -2 --separate-stderr up -setaccum alice@example.com -5
	run -2 --separate-stderr up -setbegin alice@example.com yesterday
	run -2 --separate-stderr up --shares -3
	run -2 --separate-stderr up -all -usage
	run -2 --separate-stderr up -o yaml -long
	run -2 --separate-stderr up --now 1000 -setprio alice 3
	[[ $stderr == *"'alice' is not a full user@domain name"* ]]
	[[ ! -e $TMP/state ]]
}

@test "userprio-calc: an empty argument is a name like any other, not an option" {
	run -4 --separate-stderr up ""
	[[ $stderr == "userprio-calc: $TMP/state: no such state file"* ]]
	run -0 up --now $T0 --update "$D/idle.ad"
	run -1 --separate-stderr up --now $T0 ""
}

@test "userprio-calc: a missing state is an error for a report, created by an update" {
	run -4 --separate-stderr up
	[[ $stderr == "userprio-calc: $TMP/state: no such state file"* ]]
	run -0 up --now $T0 --update "$D/idle.ad"
	[[ -z $output ]]
	[[ -f $TMP/state && ! -s $TMP/state ]]
	run -0 up --now $T0
	[[ ${lines[0]} == "Last Priority Update: never" ]]
	[[ ${lines[-1]} == "Number of users: 0 "*"0         0.00" ]]
}

# ---- the seeds' numbers ----

@test "3.4.1: a user steadily using ten resources converges to a real priority of 10" {
	run -0 up --now $T0 --update "$D/steady.ad"
	run -0 up --now $T0 -priority alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 0.50 0.50 1.00" ]]
	for d in 1 2 3 4 5 6 7 8 9 10; do
		up --now $((T0 + d * DAY)) --update "$D/steady.ad"
	done
	# 10 - 9.5 x 2^-10
	run -0 up --now $((T0 + 10 * DAY)) -priority alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 9.99 9.99 1.00" ]]
	for d in $(seq 11 30); do
		up --now $((T0 + d * DAY)) --update "$D/steady.ad"
	done
	run -0 up --now $((T0 + 30 * DAY)) -priority alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 10.00 10.00 1.00" ]]
	# and it stays there
	up --now $((T0 + 31 * DAY)) --update "$D/steady.ad"
	run -0 up --now $((T0 + 31 * DAY)) -priority alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 10.00 10.00 1.00" ]]
}

@test "3.4.1: RUP 10, all jobs removed: 5 one day later, 2.5 two days later" {
	run -0 up --now $T0 -setprio alice@example.com 10
	[[ $output == "The priority of alice@example.com was set to 10.000000" ]]
	up --now $((T0 + DAY)) --update "$D/idle.ad"
	run -0 up --now $((T0 + DAY)) -priority alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 5.00 5.00 1.00" ]]
	up --now $((T0 + 2 * DAY)) --update "$D/idle.ad"
	run -0 up --now $((T0 + 2 * DAY)) -priority alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 2.50 2.50 1.00" ]]
	up --now $((T0 + 3 * DAY)) --update "$D/idle.ad"
	run -0 up --now $((T0 + 3 * DAY)) -priority alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 1.25 1.25 1.00" ]]
	# 004: 100 cores, then nothing: 50 a day later, 25 two days later
	up --now $((T0 + 3 * DAY)) -setprio bob@example.com 100 >/dev/null
	up --now $((T0 + 4 * DAY)) --update "$D/idle.ad"
	up --now $((T0 + 5 * DAY)) --update "$D/idle.ad"
	run -0 up --now $((T0 + 5 * DAY)) -priority bob@example.com
	[[ $(row bob@example.com) == "bob@example.com 25.00 25.00 1.00" ]]
}

@test "3.4.1: after convergence, removing the jobs halves the priority each day" {
	for d in $(seq 0 40); do
		up --now $((T0 + d * DAY)) --update "$D/steady.ad"
	done
	# the update that sees the jobs gone still charges the day they ran
	up --now $((T0 + 41 * DAY)) --update "$D/idle.ad"
	run -0 up --now $((T0 + 41 * DAY)) -priority alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 10.00 10.00 1.00" ]]
	up --now $((T0 + 42 * DAY)) --update "$D/idle.ad"
	run -0 up --now $((T0 + 42 * DAY)) -priority alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 5.00 5.00 1.00" ]]
	up --now $((T0 + 43 * DAY)) --update "$D/idle.ad"
	run -0 up --now $((T0 + 43 * DAY)) -priority alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 2.50 2.50 1.00" ]]
}

@test "3.4.4: two half-hour updates equal one one-hour update" {
	for s in a b; do
		userprio-calc --state "$TMP/$s" --now $T0 --update "$D/pool.ad"
	done
	userprio-calc --state "$TMP/a" --now $((T0 + 1800)) --update "$D/pool.ad"
	userprio-calc --state "$TMP/a" --now $((T0 + 3600)) --update "$D/pool.ad"
	userprio-calc --state "$TMP/b" --now $((T0 + 3600)) --update "$D/pool.ad"
	run -0 userprio-calc --state "$TMP/a" --now $((T0 + 3600)) -all -allusers
	local one=$output
	run -0 userprio-calc --state "$TMP/b" --now $((T0 + 3600)) -all -allusers
	[[ $output == "$one" ]]
	# and in the state, to 14 significant digits (the last bit may differ)
	local f='/^Name = / { print } /^(Priority|WeightedAccumulatedUsage|LastUpdate) = / { printf "%s %.14g\n", $1, $3 }'
	run -0 awk "$f" "$TMP/a"
	local exact=$output
	run -0 awk "$f" "$TMP/b"
	[[ $output == "$exact" ]]
	[[ ${#lines[@]} == 24 && ${lines[0]} == 'Name = "alice@example.com"' ]]
}

@test "3.4.2: EUP = RUP x factor; the factor defaults to 1.0" {
	run -0 up --now $T0 -setprio user@example.com 23.11 -setfactor user@example.com 10
	[[ ${lines[0]} == "The priority of user@example.com was set to 23.110000" ]]
	[[ ${lines[1]} == "The priority factor of user@example.com was set to 10.000000" ]]
	run -0 up --now $T0 -priority user@example.com
	[[ $(row user@example.com) == "user@example.com 231.10 23.11 10.00" ]]
	run -0 up --now $T0 -setprio new@example.com 2
	run -0 up --now $T0 -priority new@example.com
	[[ $(row new@example.com) == "new@example.com 2.00 2.00 1.00" ]]
}

@test "3.4.2: nice users and remote users get a factor of 10,000,000" {
	run -0 up --now $T0 -c "$D/userprio.config" --update "$D/pool.ad"
	run -0 up --now $T0 -priority nice-user.carol@example.com dave@cs.wisc.edu alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 0.50 0.50 1.00" ]]
	[[ $(row dave@cs.wisc.edu) == "dave@cs.wisc.edu 5000000.00 0.50 1e+07" ]]
	[[ $(row nice-user.carol@example.com) == "nice-user.carol@example.com 5000000.00 0.50 1e+07" ]]
	# without UID_DOMAIN every user is local
	run -0 userprio-calc --state "$TMP/s2" --now $T0 --update "$D/pool.ad"
	run -0 userprio-calc --state "$TMP/s2" --now $T0 -priority dave@cs.wisc.edu
	[[ $(row dave@cs.wisc.edu) == "dave@cs.wisc.edu 0.50 0.50 1.00" ]]
	# the factor is chosen once and kept: a later config does not change it
	printf 'NICE_USER_PRIO_FACTOR = 1000\n' >"$TMP/c"
	run -0 up --now $((T0 + 60)) -c "$TMP/c" --update "$D/pool.ad"
	run -0 up --now $((T0 + 60)) -priority nice-user.carol@example.com
	[[ $(row nice-user.carol@example.com) == *" 1e+07" ]]
}

@test "3.4.2: --shares: A at 5, B at 10, C at 20 get 4:2:1" {
	up --now $T0 -setprio a@example.com 5 -setprio b@example.com 10 \
	    -setprio c@example.com 20 >/dev/null
	run -0 up --now $T0 --shares 70 a@example.com b@example.com c@example.com
	check_golden userprio-calc/shares
	[[ ${lines[5]} == *"57.14     40.00" ]]
	[[ ${lines[6]} == *"28.57     20.00" ]]
	[[ ${lines[7]} == *"14.29     10.00" ]]
	# 004: priority 5 gets ten times what priority 50 gets
	up --now $T0 -setprio d@example.com 50 >/dev/null
	run -0 up --now $T0 --shares 11 a@example.com d@example.com
	[[ $(row a@example.com) == "a@example.com 5.00 90.91 10.00" ]]
	[[ $(row d@example.com) == "d@example.com 50.00 9.09 1.00" ]]
	# -long gives HTCondor's SubmitterShare and SubmitterLimit
	run -0 up --now $T0 -long --shares 70 a@example.com b@example.com c@example.com
	[[ $output == *"SubmitterLimit = 40.0"* ]]
	[[ $output == *"SubmitterLimit = 20.0"* ]]
	[[ $output == *"SubmitterLimit = 10.0"* ]]
	[[ $output == *"SubmitterShare = 0.5714285714285714"* ]]
}

@test "3.4.7: group accounting by AccountingGroup, shown with the domain" {
	cp "$D/state-seed.ad" "$TMP/state"
	run -0 up --now $T0 -allusers
	check_golden userprio-calc/group-seed
	# the group is charged for its job, with @UID_DOMAIN of the user
	run -0 up --now $T0 -c "$D/userprio.config" --update "$D/pool.ad"
	run -0 up --now $T0 -all group_physics@example.com
	[[ $(row group_physics@example.com) == "group_physics@example.com 0.50 0.50 1.00 8 0.00 11/14/2023 22:13 11/14/2023 22:13 <now>" ]]
	run -1 --separate-stderr up --now $T0 -all user@example.com2
	[[ $stderr == *"no accountant record named user@example.com2"* ]]
	# condor_userprio -delete group_physics@example.com
	run -0 up --now $T0 -delete group_physics@example.com
	[[ $output == "The accountant record named group_physics@example.com was deleted" ]]
	run -1 up --now $T0 -allusers group_physics@example.com
	run -0 grep -c 'Name = ' "$TMP/state"
	[[ $output == 6 ]]
	run -1 --separate-stderr up --now $T0 -delete group_physics@example.com
	[[ $stderr == *"no accountant record named group_physics@example.com"* ]]
	# unknown attributes are copied through
	run -0 grep -c 'Comment = "kept as it is"' "$TMP/state"
}

# ---- the report ----

@test "userprio-calc: the default table, -all, -usage, -priority" {
	up --now $T0 -c "$D/userprio.config" --update "$D/pool.ad"
	up --now $((T0 + 43200)) -c "$D/userprio.config" --update "$D/pool.ad"
	run -0 up --now $((T0 + 43200))
	check_golden userprio-calc/default
	run -0 up --now $((T0 + 43200)) -all
	check_golden userprio-calc/all
	run -0 up --now $((T0 + 43200)) -usage
	check_golden userprio-calc/usage
	run -0 up --now $((T0 + 43200)) -priority
	check_golden userprio-calc/priority
}

@test "userprio-calc: rows not used in the last day are shown only with -allusers" {
	up --now $T0 --update "$D/steady.ad"
	up --now $T0 -setprio old@example.com 3 >/dev/null
	run -0 up --now $T0
	[[ $output != *old@example.com* ]]
	[[ ${lines[-1]} == "Number of users: 1 "*"10         0.00    1+00:00" ]]
	run -0 up --now $T0 -allusers
	[[ $output == *old@example.com* ]]
	run -0 up --now $T0 old@example.com
	[[ $output == *old@example.com* ]]
	# the update that sees the jobs gone still charges the interval before
	up --now $((T0 + DAY)) --update "$D/idle.ad"
	up --now $((T0 + 2 * DAY)) --update "$D/idle.ad"
	run -0 up --now $((T0 + 2 * DAY))
	[[ $(row alice@example.com) == *" 1+00:00" ]]
	run -0 up --now $((T0 + 2 * DAY + 1))
	[[ ${lines[-1]} == "Number of users: 0"* ]]
	run -0 up --now $((T0 + 2 * DAY)) -all alice@example.com
	[[ $(row alice@example.com) == *" 11/14/2023 22:13 11/15/2023 22:13 1+00:00" ]]
}

@test "userprio-calc: -long prints the records, -o json, -z" {
	up --now $T0 --update "$D/steady.ad"
	run -0 up --now $T0 -long
	check_golden userprio-calc/long
	run -0 up --now $T0 -long -o json
	[[ ${lines[0]} == "[" && ${lines[2]} == '  "Name": "alice@example.com",' ]]
	up --now $T0 -long -z >"$TMP/long.gz"
	run -0 gzip -dc "$TMP/long.gz"
	[[ ${lines[0]} == 'Name = "alice@example.com"' ]]
}

# ---- condor_userprio's edits ----

@test "userprio-calc: -setaccum, -setbegin, -setlast, -resetusage, -resetall" {
	up --now $T0 --update "$D/steady.ad"
	up --now $((T0 + 3600)) --update "$D/steady.ad"
	run -0 up --now $((T0 + 3600)) -usage
	[[ $(row alice@example.com) == "alice@example.com 10 10.00 11/14/2023 22:13 11/14/2023 23:13" ]]
	run -0 up --now $((T0 + 3600)) -setaccum alice@example.com 7200 \
	    -setbegin alice@example.com $((T0 - DAY)) -setlast alice@example.com $((T0 + 60))
	[[ ${lines[0]} == "The accumulated usage of alice@example.com was set to 7200.000000" ]]
	[[ ${lines[1]} == "The usage start time of alice@example.com was set to $((T0 - DAY))" ]]
	[[ ${lines[2]} == "The last usage time of alice@example.com was set to $((T0 + 60))" ]]
	run -0 up --now $((T0 + 3600)) -usage
	[[ $(row alice@example.com) == "alice@example.com 10 2.00 11/13/2023 22:13 11/14/2023 22:14" ]]
	run -0 up --now $((T0 + 7200)) -resetusage alice@example.com
	[[ $output == "The accumulated usage of alice@example.com was reset" ]]
	run -0 up --now $((T0 + 7200)) -usage
	[[ $(row alice@example.com) == "alice@example.com 10 0.00 11/15/2023 00:13 11/14/2023 22:14" ]]
	up --now $((T0 + 7200)) -setaccum bob@example.com 3600 >/dev/null
	run -0 up --now $((T0 + 7200)) -resetusage -all
	[[ $output == "The accumulated usage was reset for all users" ]]
	run -0 up --now $((T0 + 7200)) -resetall
	run -0 grep -c 'WeightedAccumulatedUsage = 0.0' "$TMP/state"
	[[ $output == 2 ]]
	run -1 up --now $T0 -resetusage nobody@example.com
}

@test "userprio-calc: actions apply in order after --update, under one lock" {
	run -0 up --now $T0 --update "$D/steady.ad" -setprio alice@example.com 40 \
	    -setfactor alice@example.com 2 -delete alice@example.com -setprio alice@example.com 7
	[[ ${#lines[@]} == 4 ]]
	run -0 up --now $T0 -priority -allusers
	[[ $(row alice@example.com) == "alice@example.com 7.00 7.00 1.00" ]]
}

# ---- the state file ----

@test "userprio-calc: the state in every format, gzip kept or chosen" {
	up --now $T0 --update "$D/pool.ad"
	run -0 up --now $T0 -all -allusers
	local want=$output
	for f in new json xml long; do
		up --now $T0 --update "$D/pool.ad" --state-format $f
		run -0 up --now $T0 -all -allusers
		[[ $output == "$want" ]]
	done
	run -0 head -c 1 "$TMP/state"
	[[ $output == N ]]
	up --now $T0 --update "$D/pool.ad" --state-format json --state-gzip
	run -0 gzip -dc "$TMP/state"
	[[ ${lines[0]} == "[" ]]
	up --now $((T0 + 60)) --update "$D/pool.ad"	# kept gzip and json
	run -0 gzip -dc "$TMP/state"
	[[ ${lines[0]} == "[" ]]
	# a new state named .gz is compressed
	userprio-calc --state "$TMP/s.gz" --now $T0 --update "$D/pool.ad"
	run -0 gzip -t "$TMP/s.gz"
	# reading slots from standard input, in any format
	classad-eval -o json <"$D/steady.ad" >"$TMP/steady.json"
	userprio-calc --state "$TMP/s3" --now $T0 --update <"$TMP/steady.json"
	run -0 userprio-calc --state "$TMP/s3" --now $T0 -usage
	[[ $(row alice@example.com) == "alice@example.com 10 0.00 11/14/2023 22:13 11/14/2023 22:13" ]]
}

@test "userprio-calc: bad slot ads leave the state untouched (exit 3)" {
	up --now $T0 --update "$D/steady.ad"
	cp "$TMP/state" "$TMP/before"
	{ cat "$D/steady.ad"; printf 'State = "Claimed"\nRemoteUser = "x@y"\nCpus = (4\n'; } >"$TMP/bad.ad"
	run -3 --separate-stderr up --now $((T0 + DAY)) --update "$TMP/bad.ad"
	[[ $stderr == "userprio-calc: $TMP/bad.ad:"*":"*": "* ]]
	cmp "$TMP/state" "$TMP/before"
	run -4 --separate-stderr up --now $((T0 + DAY)) --update "$TMP/missing.ad"
	cmp "$TMP/state" "$TMP/before"
	# the clock going backwards is refused, not silently reset
	run -3 --separate-stderr up --now $((T0 - 60)) --update "$D/steady.ad"
	[[ $stderr == *"is before the last update of alice@example.com"* ]]
	cmp "$TMP/state" "$TMP/before"
	# no temporary file is left behind
	run -0 ls -A "$TMP"
	[[ $output != *.state.* ]]
}

@test "userprio-calc: a malformed state is reported with its line (exit 3)" {
	printf 'Name = "a@example.com"\nPriority = 2\n\nName = "b@example.com"\nPriority = "high"\n' >"$TMP/state"
	run -3 --separate-stderr up --now $T0
	[[ $stderr == "userprio-calc: $TMP/state:4: record \"b@example.com\": Priority must be a number >= 0" ]]
	printf 'Name = "a@example.com"\n\nName = "a@example.com"\n' >"$TMP/state"
	run -3 --separate-stderr up --now $T0 --update "$D/idle.ad"
	[[ $stderr == *":3: a second record named \"a@example.com\"" ]]
	printf 'Priority = 2\n' >"$TMP/state"
	run -3 --separate-stderr up --now $T0
	[[ $stderr == *"needs a Name string"* ]]
}

@test "userprio-calc: eight concurrent runs serialize and lose nothing" {
	for i in 1 2 3 4 5 6 7 8; do
		up --now $T0 -setfactor "u$i@example.com" $((i + 1)) >/dev/null &
	done
	wait
	run -0 grep -c 'Name = ' "$TMP/state"
	[[ $output == 8 ]]
	for i in 1 2 3 4 5 6 7 8; do
		up --now $((T0 + 3600)) --update "$D/steady.ad" -setprio "v$i@example.com" $i >/dev/null &
	done
	wait
	run -0 grep -c 'Name = ' "$TMP/state"
	[[ $output == 17 ]]
	run -0 up --now $((T0 + 3600)) -priority v8@example.com u8@example.com
	[[ $(row v8@example.com) == "v8@example.com 8.00 8.00 1.00" ]]
	[[ $(row u8@example.com) == "u8@example.com 4.50 0.50 9.00" ]]
	[[ -e $TMP/state.lock ]]
}

@test "userprio-calc: a write killed before its rename leaves a temporary file; the next locked write removes it" {
	up --now $T0 -setprio u@example.com 5 >/dev/null
	cp "$TMP/state" "$TMP/before"
	# what a SIGKILL between mkstemp and rename leaves, and look-alikes that
	# are not the temporary files of this state
	printf 'Name = "half' >"$TMP/.state.Ab3xYz"
	printf 'x' >"$TMP/.state.0a1B2c"
	for f in .state.keep .state.Ab3xYz1 .state.Ab3-Yz .other.Ab3xYz state.Ab3xYz \
	    .state.lock.Ab3xYz; do
		printf 'x' >"$TMP/$f"
	done
	# a report takes no lock and removes nothing
	run -0 up --now $T0 -priority
	[[ -e $TMP/.state.Ab3xYz && -e $TMP/.state.0a1B2c ]]
	run -0 up --now $((T0 + 60)) -setfactor u@example.com 2
	[[ ! -e $TMP/.state.Ab3xYz && ! -e $TMP/.state.0a1B2c ]]
	for f in .state.keep .state.Ab3xYz1 .state.Ab3-Yz .other.Ab3xYz state.Ab3xYz \
	    .state.lock.Ab3xYz; do
		[[ -e $TMP/$f ]] || { echo "$f removed"; false; }
	done
	run -0 up --now $((T0 + 60)) -priority u@example.com
	[[ $(row u@example.com) == "u@example.com 10.00 5.00 2.00" ]]
	# the same for the other programs that rewrite a state in place
	printf 'x' >"$TMP/.q.Zz9Zz9"
	run -0 --separate-stderr schedd-step --now $T0 --state "$TMP/q"
	[[ ! -e $TMP/.q.Zz9Zz9 && -e $TMP/q ]]
}

# ---- configuration ----

@test "userprio-calc: -c reads PRIORITY_HALFLIFE through macros" {
	printf 'HOUR = 3600\nPRIORITY_HALFLIFE = 6 * $(HOUR)\n' >"$TMP/c"
	up --now $T0 -setprio alice@example.com 8 >/dev/null
	up --now $((T0 + 21600)) -c "$TMP/c" --update "$D/idle.ad"
	run -0 up --now $((T0 + 21600)) -priority alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 4.00 4.00 1.00" ]]
	# NEGOTIATOR.X wins over X, as in the negotiator
	printf 'PRIORITY_HALFLIFE = 1\nNEGOTIATOR.PRIORITY_HALFLIFE = 43200\n' >"$TMP/c"
	up --now $((T0 + 21600 + 43200)) -c "$TMP/c" --update "$D/idle.ad"
	run -0 up --now $((T0 + 64800)) -priority alice@example.com
	[[ $(row alice@example.com) == "alice@example.com 2.00 2.00 1.00" ]]
}

@test "userprio-calc: configuration errors name file, line and column (exit 3)" {
	printf 'A = 1\nPRIORITY_HALFLIFE = 24 * $(HOUR\n' >"$TMP/c"
	run -3 --separate-stderr up --now $T0 -c "$TMP/c"
	[[ $stderr == "userprio-calc: $TMP/c:2:26: unbalanced '\$(': no ')' closes it" ]]
	printf 'X = $(Y)\nY = $(X)\nPRIORITY_HALFLIFE = \\\n   $(X)\n' >"$TMP/c"
	run -3 --separate-stderr up --now $T0 -c "$TMP/c"
	[[ $stderr == "userprio-calc: $TMP/c:2:5: macro recursion: X -> Y -> X" ]]
	printf 'PRIORITY_HALFLIFE = 0\n' >"$TMP/c"
	run -3 --separate-stderr up --now $T0 -c "$TMP/c"
	[[ $stderr == "userprio-calc: $TMP/c:1:21: PRIORITY_HALFLIFE must be a positive number of seconds" ]]
	printf 'DEFAULT_PRIO_FACTOR = lots\n' >"$TMP/c"
	run -3 --separate-stderr up --now $T0 -c "$TMP/c"
	[[ $stderr == *":1:23: DEFAULT_PRIO_FACTOR: 'lots' is not a number" ]]
	printf 'NOTANASSIGNMENT\n' >"$TMP/c"
	run -3 --separate-stderr up --now $T0 -c "$TMP/c"
	[[ $stderr == *"c:1:16: expected '=' after 'NOTANASSIGNMENT'" ]]
	run -4 --separate-stderr up --now $T0 -c "$TMP/nothere"
	[[ $stderr == *"nothere: cannot open: No such file or directory" ]]
}

@test "userprio-calc: the seeds' policy examples load verbatim as -c files" {
	up --now $T0 --update "$D/steady.ad"
	for f in "$D"/seed-*.config; do
		run -0 --separate-stderr up --now $T0 -c "$f" -priority
		[[ -z $stderr ]]
	done
}

@test "userprio-calc: output does not depend on the locale" {
	up --now $T0 -c "$D/userprio.config" --update "$D/pool.ad"
	run -0 up --now $T0 -all
	local c=$output
	local loc
	for loc in de_DE.UTF-8 fr_FR.UTF-8 de_DE.utf8 fr_FR.utf8; do
		if LC_ALL=$loc locale >/dev/null 2>&1 &&
		    [[ $(LC_ALL=$loc locale -k decimal_point 2>/dev/null) == *'","'* ]]; then
			run -0 env LC_ALL=$loc userprio-calc --state "$TMP/state" --now $T0 -all
			[[ $output == "$c" ]]
			return 0
		fi
	done
	skip "no comma-decimal locale installed"
}

@test "userprio-calc: the man page's EXAMPLES run as written" {
	# every "$ command" of a literal block in EXAMPLES, with the output shown
	cd "$TMP"
	cp "$D/steady.ad" slots.ad
	awk '/^\.Sh EXAMPLES/ { ex = 1 } /^\.Sh DIAGNOSTICS/ { ex = 0 }
	    ex && /^\.Bd -literal/ { blk = 1; next }
	    ex && /^\.Ed/ { blk = 0; print "@@end"; next }
	    ex && blk { gsub(/\\e/, "\\"); gsub(/\\&/, ""); print }' \
	    "$BATS_TEST_DIRNAME/../man/userprio-calc.1" >blocks
	local cmd="" want="" line n=0 incmd=0
	flush() {
		if [[ -n $cmd ]]; then
			run -0 bash -c "$cmd"
			[[ $output == "${want%$'\n'}" ]] || {
				printf 'command: %s\nwant:\n%s\ngot:\n%s\n' "$cmd" "$want" "$output"
				return 1
			}
			n=$((n + 1))
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
	[[ $n == 8 ]]
}

# ---- ceilings and floors (condor_userprio -setceiling, -setfloor) ----

@test "userprio-calc: -setceiling and -setfloor, in the state and the report" {
	run -0 up --now $T0 -setceiling alice@example.com 8 -setfloor bob@example.com 2 \
	    -setceiling bob@example.com -1
	[ "$output" = $'The ceiling of alice@example.com was set to 8\nThe floor of bob@example.com was set to 2\nThe ceiling of bob@example.com was set to -1' ]
	run -0 up --now $T0 -allusers
	[[ ${lines[1]} == *"Time Since Submitter Submitter" ]]
	[[ ${lines[2]} == *"Last Usage   Floor    Ceiling" ]]
	[ "$(row alice@example.com)" = "alice@example.com 0.50 1.00 0 0.00 8.00" ]
	[ "$(row bob@example.com)" = "bob@example.com 0.50 1.00 0 0.00 2.00" ]
	run -0 up -long alice@example.com
	[[ $output == *$'\nCeiling = 8'* && $output != *Floor* ]]
	# -usage and -priority have no such columns
	run -0 up --now $T0 -allusers -priority
	[[ $output != *Ceiling* ]]
	# condor_userprio's bounds: a ceiling of -1 (none) or more, a floor of 0 or more
	run -2 --separate-stderr up --now $T0 -setceiling alice@example.com -2
	[[ $stderr == *"-setceiling: ceiling must be greater than or equal to -1 (-2)."* ]]
	run -2 --separate-stderr up --now $T0 -setfloor alice@example.com -1
	[[ $stderr == *"-setfloor: floor must be greater than or equal to 0 (-1)."* ]]
	run -2 --separate-stderr up --now $T0 -setfloor alice 3
	[[ $stderr == *"'alice' is not a full user@domain name"* ]]
	run -2 --separate-stderr up --now $T0 -setceiling alice@example.com 2.5
}

@test "userprio-calc: ceiling, floor and factor leases (-duration) end at their time" {
	up --now $T0 -setceiling alice@example.com 4 >/dev/null
	run -0 up --now $T0 -duration 3600 -setceiling alice@example.com 1 \
	    -setfactor alice@example.com 3 -setfloor alice@example.com 2
	[ "$output" = $'Set ceiling lease on alice@example.com to 1 for 3600 seconds\nSet priority-factor lease on alice@example.com to 3.000000 for 3600 seconds\nSet floor lease on alice@example.com to 2 for 3600 seconds' ]
	run -0 up -long alice@example.com
	[[ $output == *$'Ceiling = 1\n'* && $output == *"CeilingLeaseExpiration = $((T0 + 3600))"* ]]
	[[ $output == *"CeilingPreLeaseValue = 4"* && $output == *"PriorityFactorPreLeaseValue = 1.0"* ]]
	# one lease of a kind at a time
	run -1 --separate-stderr up --now $((T0 + 60)) -duration 60 -setceiling alice@example.com 2
	[[ $stderr == *"-setceiling: a ceiling lease for alice@example.com is already in effect (expires at $((T0 + 3600)))"* ]]
	# an update after the expiration brings back what was before
	up --now $((T0 + 3600)) --update "$D/idle.ad"
	run -0 up --now $((T0 + 3600)) -priority alice@example.com
	[ "$(row alice@example.com)" = "alice@example.com 0.50 0.50 1.00" ]
	run -0 up -long alice@example.com
	[[ $output == *$'Ceiling = 4\n'* && $output != *Lease* ]]
	# cancelling: the value before comes back; nothing to cancel is exit 1
	up --now $((T0 + 3600)) -duration 600 -setfloor alice@example.com 5 >/dev/null
	run -0 up --now $((T0 + 3600)) -cancelfloorlease alice@example.com
	[ "$output" = "Cancelled floor lease for alice@example.com" ]
	run -1 --separate-stderr up --now $((T0 + 3600)) -cancelfloorlease alice@example.com
	[[ $stderr == *"-cancelfloorlease: no floor lease in effect for alice@example.com"* ]]
	run -1 --separate-stderr up --now $((T0 + 3600)) -cancelceilinglease nobody@example.com
	[[ $stderr == *"no accountant record named nobody@example.com"* ]]
}

# ---- condor_userprio -long's layouts ----

@test "userprio-calc: the state may be condor_userprio -long -legacy's numbered ad" {
	cp "$D/condor-legacy.ad" "$TMP/state"
	run -0 up --now 1700086400 -allusers -all
	# Priority there is the effective priority: the real one is it / factor
	[ "$(row group_physics.alice@example.org)" = "group_physics.alice@example.org 60.00 6.00 10.00 6 6.00 11/14/2023 22:13 11/15/2023 22:13 <now> 8.00" ]
	[ "$(row bob@example.org)" = "bob@example.org 4.00 4.00 1.00 4 4.00 11/14/2023 22:13 11/15/2023 22:13 <now> 2.00" ]
	[ "$(row group_physics)" = "group_physics 6.00 6.00 1.00 6 6.00 11/14/2023 22:13 11/15/2023 22:13 <now>" ]
	[[ ${lines[-1]} == "Number of users: 2 "* ]]
	# an update makes it a state of records; what only the view has is gone
	up --now 1700086400 --update "$D/idle.ad"
	run grep -c '^Name = ' "$TMP/state"
	[ "$output" = 4 ]
	run grep -E 'SubmitterShare|ConcurrencyLimit|EffectiveQuota|^AccountingGroup' "$TMP/state"
	[ -z "$output" ]
	run -0 up -long group_physics.alice@example.org
	[[ $output == *$'\nPriority = 6.0\n'* && $output == *$'\nCeiling = 8\n'* ]]
}

@test "userprio-calc: the state may be condor_userprio -long -modular's ads" {
	cp "$D/condor-modular.ad" "$TMP/state"
	run -0 up --now 1700086400 -priority
	[ "$(row carol@example.org)" = "carol@example.org 20.00 10.00 2.00" ]
	[ "$(row dave@example.org)" = "dave@example.org 1.50 1.50 1.00" ]
	run -0 up --now 1700086400 carol@example.org
	[ "$(row carol@example.org)" = "carol@example.org 20.00 2.00 10 10.00 <now> 16.00" ]
}

@test "userprio-calc: -long -modular and -long -legacy print condor_userprio's layouts, which read back" {
	up --now $T0 -c "$D/userprio.config" --update "$D/pool.ad"
	up --now $T0 -setceiling alice@example.com 20 >/dev/null
	run -0 up --now $T0 -all
	local table=$output
	run -0 up --now $T0 -long -legacy
	[[ ${lines[0]} == "LastUpdate = $T0" ]]
	[[ $output == *$'\nName1 = '* && $output == *$'\nNumSubmittors = '* ]]
	printf '%s\n' "$output" >"$TMP/legacy"
	run -0 userprio-calc --state "$TMP/legacy" --now $T0 -all
	[ "$output" = "$table" ]
	run -0 up --now $T0 -long -modular alice@example.com
	[ "${lines[0]}" = 'Name = "alice@example.com"' ]
	[ "${lines[1]}" = 'IsAccountingGroup = false' ]
	[ "${lines[2]}" = 'AccountingGroup = "<none>"' ]
	[ "${lines[4]}" = 'Ceiling = 20' ]
	up --now $T0 -long -modular >"$TMP/modular"
	run -0 userprio-calc --state "$TMP/modular" --now $T0 -all
	[ "$output" = "$table" ]
}

@test "userprio-calc: an update counts the concurrency limits in use (ConcurrencyLimit_NAME)" {
	cat >"$TMP/slots" <<-'EOF'
	Name = "slot1@a"
	State = "Claimed"
	Activity = "Busy"
	RemoteUser = "alice@example.com"
	Job = [ ConcurrencyLimits = "XSW, large.db:2" ]

	Name = "slot2@a"
	State = "Claimed"
	Activity = "Busy"
	RemoteUser = "bob@example.com"
	ConcurrencyLimits = "xsw"

	Name = "slot3@a"
	State = "Unclaimed"
	ConcurrencyLimits = "xsw"
	EOF
	run -0 up --now $T0 --update "$TMP/slots" -long -legacy
	[[ $output == *$'\nConcurrencyLimit_xsw = 2.0\nConcurrencyLimit_large_db = 2.0' ]]
}

@test "userprio-calc: dates and numbers as condor_userprio prints them" {
	# January: the month padded with a blank ( 1/05/2024)
	up --now 1704456000 --update "$D/steady.ad"
	run -0 up --now 1704459600 --update "$D/steady.ad" -all
	[[ $output == *" 1/05/2024 12:00  1/05/2024 13:00"* ]]
	# the footer: under Last Usage Time the earliest one shown by default
	[[ ${lines[-1]} == *" 1/04/2024 13:00    1+00:00" ]]
}
