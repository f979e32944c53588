# helpers.bash - the setup every tests/*.bats file loads (`load helpers`):
# C locale, UTC, the programs under test first on PATH, golden-file checks.

bats_require_minimum_version 1.5.0	# run -N, run --separate-stderr

export LC_ALL=C TZ=UTC

# The programs: $CA_BIN (make bats passes it), else bin/ beside tests/.
CA_BIN=${CA_BIN:-$BATS_TEST_DIRNAME/../bin}
CA_BIN=$(cd "$CA_BIN" 2>/dev/null && pwd || printf '%s' "$CA_BIN")
export CA_BIN
PATH=$CA_BIN:$PATH

DATA=$BATS_TEST_DIRNAME/data
GOLDEN=$BATS_TEST_DIRNAME/golden
POOL=$BATS_TEST_DIRNAME/../share/pool
# A fresh, empty directory per test (removed by bats afterwards).
TMP=${BATS_TEST_TMPDIR:-}

# check_golden NAME: $output (of the last `run`) must equal tests/golden/NAME.out.
# check_golden_err NAME: the same for $stderr (run --separate-stderr) and NAME.err.
# With CA_UPDATE_GOLDEN=1 they write the file instead (review the diff!).
check_golden() { _golden "$1.out" "$output"; }
check_golden_err() { _golden "$1.err" "${stderr-}"; }

_golden() {
	local file=$GOLDEN/$1 text=$2
	if [[ ${CA_UPDATE_GOLDEN:-0} == 1 ]]; then
		mkdir -p "${file%/*}"
		if [[ -n $text ]]; then printf '%s\n' "$text"; fi >"$file"
		return 0
	fi
	[[ -f $file ]] || { echo "missing golden file $file (CA_UPDATE_GOLDEN=1 creates it)"; return 1; }
	if [[ -n $text ]]; then printf '%s\n' "$text"; fi >"$TMP/golden.got"
	diff -u --label "expected $1" --label "got" "$file" "$TMP/golden.got"
}

# gpu_pool N: N machines of eleven condor_status -long slot ads each (those
# of tests/data/startd/status-gpu2315.ads, hosts gpu0001, gpu0002, ...), on
# standard output.
gpu_pool() {
	awk -v n="$1" '{ l[NR] = $0 } END { for (i = 1; i <= n; i++) { h = sprintf("gpu%04d", i)
	    for (k = 1; k <= NR; k++) { s = l[k]; gsub(/gpu2315/, h, s); print s } } }' \
	    "$DATA/startd/status-gpu2315.ads"
}

# same_as_one PROG ARGS...: PROG ARGS in one process (--parallel 1), then in
# 2, 3 and 8: the same output, messages and exit status each time; then
# $output, $stderr and $status are one process's.
same_as_one() {
	local prog=$1 n
	shift
	run --separate-stderr "$prog" --parallel 1 "$@"
	local out=$output err=$stderr st=$status
	for n in 2 3 8; do
		run --separate-stderr "$prog" --parallel $n "$@"
		[[ $status == "$st" ]] || { echo "--parallel $n: status $status, not $st"; return 1; }
		[[ $output == "$out" ]] || { echo "--parallel $n: other output"; return 1; }
		[[ $stderr == "$err" ]] || { printf -- '--parallel %s: other messages:\n%s\n--\n%s\n' \
		    $n "$stderr" "$err"; return 1; }
	done
	stderr=$err
}

# untraced CMD...: run a shell function in a subshell without bats's per-command
# DEBUG trap (and without set -e), which makes long loops many times faster.
untraced() {
	(
		trap - DEBUG ERR
		set +eET
		"$@"
	)
}

# write_file NAME: standard input into $TMP/NAME; prints the path.
write_file() {
	cat >"$TMP/$1" && printf '%s\n' "$TMP/$1"
}

# at_terminal CMD: run the shell command CMD with standard error (and, unless
# CMD sends it elsewhere, standard output) at a terminal, as run does;
# skips the test where script(1) is missing
at_terminal() {
	command -v script >/dev/null || skip "no script(1) to run it at a terminal"
	run script -qec "$1" /dev/null
}
