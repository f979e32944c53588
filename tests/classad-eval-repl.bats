# classad-eval-repl.bats - the REPL of classad-eval: driven through a pipe,
# and once through a real terminal (tmux) for line editing, continuation
# lines, completion and history.

load helpers

setup() {
	cat >"$TMP/job.ad" <<'AD'
MyType = "Job"
RequestMemory = 2048
Requirements = (TARGET.Arch == "X86_64") && (TARGET.Memory >= RequestMemory) && TARGET.HasFileTransfer
Rank = TARGET.Memory / 1024
AD
	cat >"$TMP/slots.ads" <<'AD'
Name = "slot1@a"
Arch = "X86_64"
Memory = 4096
Requirements = TARGET.RequestMemory <= Memory
Rank = 1

Name = "slot2@b"
Arch = "X86_64"
Memory = 8192
HasFileTransfer = true
Requirements = true
AD
}

@test "piped REPL: expressions, assignments, merges, comments" {
	run -0 classad-eval -i <<'IN'
# set things up
x = 20
[ y = x + 1; z = "s" ]
x + y
strcat(z, "t")
IN
	[ "$output" = $'41\n"st"' ]
}

@test "piped REPL: unfinished input continues on the next line" {
	run -0 classad-eval -i <<'IN'
(1 +
 2) * 3
"two
lines"
[ a = 1;
  b = a + 1 ]
b
IN
	[ "$output" = $'9\n"two\\nlines"\n2' ]
}

@test "piped REPL: an empty line discards unfinished input" {
	run -0 --separate-stderr classad-eval -i <<'IN'
(1 +

42
IN
	[ "$output" = 42 ]
	[ "$stderr" = "(unfinished input discarded)" ]
}

@test "piped REPL: errors are printed without the program name and do not end the session" {
	run -3 --separate-stderr classad-eval -i <<'IN'
1 +* 2
:bogus
3
IN
	[ "$output" = 3 ]
	[ "$stderr" = $'<input 1>:1:4: expected an expression, found \'*\'\n:bogus: unknown command (:help lists them)' ]
}

@test ":load, :target, :show, :unset, :clear" {
	run -0 classad-eval -i <<IN
:load $TMP/job.ad
RequestMemory
:target $TMP/slots.ads 2
TARGET.Name
:target $TMP/slots.ads where Memory < 5000
TARGET.Name
:unset Rank
:show
:format long
:show target
:clear
RequestMemory
IN
	[ "${lines[0]}" = "context: 4 attributes from $TMP/job.ad" ]
	[ "${lines[1]}" = 2048 ]
	[ "${lines[3]}" = '"slot2@b"' ]
	[ "${lines[5]}" = '"slot1@a"' ]
	[ "${lines[6]}" = '[ MyType = "Job"; RequestMemory = 2048; Requirements = (TARGET.Arch == "X86_64") && (TARGET.Memory >= RequestMemory) && TARGET.HasFileTransfer ]' ]
	[ "${lines[7]}" = 'Name = "slot1@a"' ]
	[ "${lines[-1]}" = undefined ]
}

@test ":now and :strict" {
	run -0 classad-eval -i <<IN
:now 1700000000
time()
:target $TMP/slots.ads
Arch
:strict on
Arch
:strict off
Arch
IN
	[ "${lines[0]}" = 1700000000 ]
	[ "${lines[2]}" = '"X86_64"' ]
	[ "${lines[3]}" = undefined ]
	[ "${lines[4]}" = '"X86_64"' ]
}

@test ":match shows both directions and both ranks" {
	run -0 classad-eval -i -f "$TMP/job.ad" <<IN
:target $TMP/slots.ads 2
:match
:target $TMP/slots.ads 1
:match
IN
	[ "${lines[1]}" = "MY.Requirements with TARGET:  true" ]
	[ "${lines[2]}" = "TARGET.Requirements with MY:  true" ]
	[ "${lines[3]}" = "match: yes" ]
	[ "${lines[4]}" = "MY.Rank of TARGET: 8.0   TARGET.Rank of MY: 0.0" ]
	[ "${lines[6]}" = "MY.Requirements with TARGET:  undefined" ]
	[ "${lines[8]}" = "match: no (MY rejects TARGET)" ]
}

@test "--explain points at the undefined leaf of a job's Requirements" {
	run -0 classad-eval -f "$TMP/job.ad" -t "$TMP/slots.ads" --explain Requirements
	check_golden classad-eval/explain-requirements
	[[ ${lines[-1]} == "  TARGET.HasFileTransfer is undefined: no attribute HasFileTransfer in TARGET" ]]
}

@test "--explain names wrong operand kinds and bad function arguments" {
	run -0 classad-eval --explain '1 + "a"' --explain 'substr("abc", 1.0)' --explain 'nosuch(1)'
	[[ $output == *'1 + "a"  =>  error   <-- error here: arithmetic on a value that is not a number (integer and string)'* ]]
	[[ $output == *'substr("abc",1.0)  =>  error   <-- error here: substr(string, real)'* ]]
	[[ $output == *'nosuch(1)  =>  error   <-- error here: unknown function nosuch()'* ]]
}

@test ":explain in the REPL matches --explain" {
	a=$(classad-eval -f "$TMP/job.ad" -t "$TMP/slots.ads" --explain Requirements)
	run -0 classad-eval -i -f "$TMP/job.ad" -t "$TMP/slots.ads" <<<':explain Requirements'
	[ "$output" = "$a" ]
}

@test ":help lists every command" {
	run -0 classad-eval -i <<<':help'
	for c in load target show unset clear now strict format explain match help quit; do
		[[ $output == *":$c"* ]]
	done
}

# The terminal test: a real tty through tmux. The server is always killed,
# so a failing test cannot leave it holding bats's output open.
teardown() {
	if [ -n "${SOCK:-}" ]; then
		tmux -L "$SOCK" kill-server 2>/dev/null || true
	fi
}

tmux_wait() {	# tmux_wait TEXT: until the screen shows TEXT (5 s at most)
	for _ in $(seq 50); do
		tmux -L "$SOCK" capture-pane -p -t ca | grep -qF -- "$1" && return 0
		sleep 0.1
	done
	echo "screen never showed: $1"; tmux -L "$SOCK" capture-pane -p -t ca
	return 1
}

@test "a real terminal: line editing, completion, continuation, history" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	mkdir -p "$TMP/home"
	SOCK=ca-$$-$RANDOM
	TERM=xterm tmux -L "$SOCK" new-session 3>&- -d -s ca -x 120 -y 40 \
	    "env HOME=$TMP/home XDG_STATE_HOME= TERM=xterm $CA_BIN/classad-eval -i -f $TMP/job.ad; sleep 5"
	tmux_wait 'classad>'
	if tmux -L "$SOCK" capture-pane -p -t ca | grep -qF '(plain input)'; then
		tmux -L "$SOCK" kill-server
		skip "built without a line editor (READLINE=none)"
	fi
	# completion of an attribute name of the loaded ad, then editing
	tmux -L "$SOCK" send-keys -t ca 'RequestMem' Tab ' * 3' BSpace '2' Enter
	tmux_wait '4096'
	# completion of a function name
	tmux -L "$SOCK" send-keys -t ca 'strca' Tab '("a", "b")' Enter
	tmux_wait '"ab"'
	# continuation line
	tmux -L "$SOCK" send-keys -t ca '(40 +' Enter
	tmux_wait '...>'
	tmux -L "$SOCK" send-keys -t ca '2)' Enter
	tmux_wait '42'
	# history: up arrow recalls the last input, Home edits its start
	tmux -L "$SOCK" send-keys -t ca Up Home '-' Enter
	tmux_wait '-42'
	tmux -L "$SOCK" send-keys -t ca ':quit' Enter
	sleep 0.5
	tmux -L "$SOCK" kill-server 2>/dev/null || true
	# readline writes lines as typed; libedit escapes the blanks
	grep -qE 'strcat\("a",( |\\040)"b"\)' "$TMP/home/.classad_eval_history"
}

@test "a real terminal: Ctrl-C cancels the line and keeps the session, ':' completes commands, ads show in long format" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	mkdir -p "$TMP/home"
	SOCK=ca-$$-$RANDOM
	TERM=xterm tmux -L "$SOCK" new-session 3>&- -d -s ca -x 120 -y 40 \
	    "env HOME=$TMP/home XDG_STATE_HOME= TERM=xterm $CA_BIN/classad-eval -i -f $TMP/job.ad; echo status=\$?; sleep 5"
	tmux_wait 'classad>'
	# Ctrl-C on a half-typed line and on unfinished input: both are
	# dropped, the session and the loaded ad stay
	tmux -L "$SOCK" send-keys -t ca 'RequestMemory + 1000' C-c
	tmux_wait '^C'
	tmux -L "$SOCK" send-keys -t ca '(1 +' Enter
	tmux_wait '...>'
	tmux -L "$SOCK" send-keys -t ca C-c
	tmux -L "$SOCK" send-keys -t ca 'RequestMemory * 2' Enter
	tmux_wait '4096'
	! tmux -L "$SOCK" capture-pane -p -t ca | grep -q '^3048'
	# ':' then a prefix completes to the command, not to an attribute
	# (the loaded ad has an attribute spelled like the command's prefix)
	if ! tmux -L "$SOCK" capture-pane -p -t ca | grep -qF '(plain input)'; then
		tmux -L "$SOCK" send-keys -t ca 'Exp = 1' Enter
		tmux -L "$SOCK" send-keys -t ca ':expl' Tab 'RequestMemory > 1' Enter
		tmux_wait 'RequestMemory > 1  =>  true'
	fi
	# :show prints the ad one attribute per line at a terminal
	tmux -L "$SOCK" send-keys -t ca ':show' Enter
	tmux_wait 'RequestMemory = 2048'
	tmux -L "$SOCK" capture-pane -p -t ca | grep -qx 'MyType = "Job"'
	tmux -L "$SOCK" send-keys -t ca C-d
	tmux_wait 'status=0'
}

@test ":load N says how many ads the file holds; messages name what is there" {
	run -3 --separate-stderr classad-eval -i <<IN
:load $TMP/slots.ads 9
:load $TMP/slots.ads where Memory > 100000
:unset NoSuchThing
:show target
IN
	[[ ${lines[0]:-} == "" ]]
	[[ $stderr == *"slots.ads: it holds 2 ads: there is no ad 9"* ]]
	[[ $stderr == *"slots.ads: none of its 2 ads matches the expression"* ]]
	[[ $stderr == *":unset: the context ad has no attribute NoSuchThing (it has 0)"* ]]
	[[ $stderr == *":show: no target ad (:target FILE loads one)"* ]]
}
