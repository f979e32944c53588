# conformance.bats - runs every case of the two corpora of HTCondor's results
# through classad-eval: tests/data/eval.tsv (one test per category) and
# tests/data/peer-htcondor.tsv, HTCondor's own tests (one test per file).

# Each case runs as `classad-eval --now NOW [-t TARGETFILE] [AD] EXPR` under
# TZ=UTC LC_ALL=C with a 5 s limit. PARSE_ERROR cases must exit non-zero
# without being killed; the others must exit 0 and print exactly one line
# equal to the expected value under tests/valcmp's normalisation. A failing
# test lists every failing case with its id, input, expected and got.
# A corpus line "#accepted<TAB>ID<TAB>reason" lists a case where classad-tools
# deliberately differs (classad(7)): it may fail, with its reason shown, and
# must fail (a listed case that passes is an error, so the list stays true).
# CA_CONFORMANCE_IDS=REGEX runs only the matching case ids.

load helpers

CORPUS=$DATA/eval.tsv
PEER=$DATA/peer-htcondor.tsv
CA_VALCMP=${CA_VALCMP:-$BATS_TEST_DIRNAME/../build/release/tests/valcmp}
CATEGORIES=(lit arith cmp logic meta cond bit prec attr policy fn-type fn-conv
	fn-math fn-list fn-str fn-regex fn-time fn-misc)
# The files of HTCondor's sources the peer cases come from (the id's prefix).
PEER_FILES=(OTEST_Old_Classads.cpp classad_unit_tester.cpp extra_tests.cpp
	functional_tests.txt test_classad_eval.py test_classad_funcs.cpp
	test_classad_version_comparison.py test_classads.py
	test_python_bindings_classad.py tests.txt)

conform() { untraced conform_cases "$CORPUS" "$1" -; }
peer() { untraced conform_cases "$PEER" "$1" :; }

# conform_cases CORPUS GROUP SEP: run the cases whose id is GROUP, then SEP,
# then more; print the failures, fail if any (accepted differences aside).
conform_cases() {
	local corpus=$1 group=$2 sep=$3 id now ad target expr expected rc got why err
	local n=0 nfail=0 nacc=0 out=$TMP/out errf=$TMP/err tfile=$TMP/target.ad
	local -a args lines
	local -A accepted=()

	[[ -x $CA_BIN/classad-eval ]] || { echo "no $CA_BIN/classad-eval (set CA_BIN)"; return 1; }
	[[ -x $CA_VALCMP ]] || { echo "no $CA_VALCMP (make builds it; or set CA_VALCMP)"; return 1; }
	while IFS=$'\t' read -r id now ad _; do
		[[ $id == '#accepted' ]] && accepted[$now]=$ad
	done <"$corpus"
	while IFS=$'\t' read -r id now ad target expr expected; do
		[[ $id == "$group$sep"* ]] || continue
		[[ -z ${CA_CONFORMANCE_IDS:-} || $id =~ $CA_CONFORMANCE_IDS ]] || continue
		n=$((n + 1))
		args=(--now "$now")
		if [[ $target != - ]]; then
			printf '%s\n' "$target" >"$tfile"
			args+=(-t "$tfile")
		fi
		[[ $ad == - ]] || args+=("$ad")
		args+=("$expr")
		rc=0
		timeout -k 1 5 "$CA_BIN/classad-eval" "${args[@]}" </dev/null >"$out" 2>"$errf" ||
			rc=$?
		mapfile -t lines <"$out"
		got=${lines[*]:-<no output>}
		why=
		if ((rc == 124)); then
			why="timed out after 5 s"
		elif ((rc > 124)); then
			why="killed by a signal or not run (status $rc)"
		elif [[ $expected == PARSE_ERROR ]]; then
			((rc != 0)) || why="exit 0 instead of a parse error"
		elif ((rc != 0)); then
			why="exit $rc"
		elif ((${#lines[@]} != 1)); then
			why="${#lines[@]} lines instead of 1"
		else
			got=${lines[0]%$'\r'}
			[[ $got == "$expected" ]] || "$CA_VALCMP" "$expected" "$got" ||
				why="different value"
		fi
		if [[ -n ${accepted[$id]+set} ]]; then
			if [[ -n $why ]]; then
				nacc=$((nacc + 1))
				printf 'accepted difference %s: %s\n' "$id" "${accepted[$id]}"
				continue
			fi
			why="listed as an accepted difference, but it passes"
		fi
		[[ -n $why ]] || continue
		nfail=$((nfail + 1))
		printf 'FAIL %s: %s\n' "$id" "$why"
		printf '  expr:     %s\n' "$expr"
		[[ $ad == - ]] || printf '  ad:       %s\n' "$ad"
		[[ $target == - ]] || printf '  target:   %s\n' "$target"
		[[ $now == 1700000000 ]] || printf '  now:      %s\n' "$now"
		printf '  expected: %s\n  got:      %s\n' "$expected" "$got"
		IFS= read -r err <"$errf" && printf '  stderr:   %s\n' "$err"
	done <"$corpus"
	echo "$group: $((n - nfail - nacc))/$n passed, $nacc accepted differences"
	((nfail == 0))
}

# count_cases CORPUS N PATTERN GROUP...: the corpus holds N cases, each id
# matching PATTERN with its group (the pattern's first group) among GROUPs,
# and every #accepted line names one of them.
count_cases() {
	local corpus=$1 want=$2 pat=$3 id acc n=0
	shift 3
	local known=" $* "
	local -A ids=()
	local -a listed=()
	while IFS=$'\t' read -r id acc _; do
		if [[ $id == '#accepted' ]]; then
			listed+=("$acc")
			continue
		fi
		[[ $id == \#* || $id == id || -z $id ]] && continue
		[[ $id =~ $pat && $known == *" ${BASH_REMATCH[1]} "* ]] ||
			{ echo "unexpected case id '$id'"; return 1; }
		[[ -z ${ids[$id]+set} ]] || { echo "case id '$id' twice"; return 1; }
		ids[$id]=1
		n=$((n + 1))
	done <"$corpus"
	for acc in "${listed[@]}"; do
		[[ -n ${ids[$acc]+set} ]] || { echo "#accepted names no case: '$acc'"; return 1; }
	done
	echo "$n cases, ${#listed[@]} accepted differences"
	((n == want))
}

# The README's table says 537 (fn-math 24), but the corpus holds 536 cases
# (fn-math 23); the count guards the copy against truncation.
@test "conformance: the corpus has 536 cases, all in known categories" {
	untraced count_cases "$CORPUS" 536 '^([a-z-]+)-[0-9]{3}$' "${CATEGORIES[@]}"
}

@test "conformance: lit (literals)" { conform lit; }
@test "conformance: arith (arithmetic)" { conform arith; }
@test "conformance: cmp (comparison)" { conform cmp; }
@test "conformance: logic (&& || !)" { conform logic; }
@test "conformance: meta (=?= =!= is isnt)" { conform meta; }
@test "conformance: cond (?: and Elvis)" { conform cond; }
@test "conformance: bit (bitwise and shifts)" { conform bit; }
@test "conformance: prec (precedence)" { conform prec; }
@test "conformance: attr (attribute references)" { conform attr; }
@test "conformance: policy (START, Requirements, Rank)" { conform policy; }
@test "conformance: fn-type (type predicates)" { conform fn-type; }
@test "conformance: fn-conv (int real string bool)" { conform fn-conv; }
@test "conformance: fn-math (floor ceiling round pow quantize)" { conform fn-math; }
@test "conformance: fn-list (list functions)" { conform fn-list; }
@test "conformance: fn-str (string functions)" { conform fn-str; }
@test "conformance: fn-regex (regexp family)" { conform fn-regex; }
@test "conformance: fn-time (time functions)" { conform fn-time; }
@test "conformance: fn-misc (ifThenElse eval unparse ...)" { conform fn-misc; }

# HTCondor's own tests, converted: 997 cases, FILE:LINE:test ids.
@test "conformance: HTCondor's tests: 997 cases from known files" {
	untraced count_cases "$PEER" 997 '^([A-Za-z_.]+):[0-9]+:' "${PEER_FILES[@]}"
}

@test "conformance: HTCondor's tests: OTEST_Old_Classads.cpp (old ClassAds)" { peer OTEST_Old_Classads.cpp; }
@test "conformance: HTCondor's tests: classad_unit_tester.cpp" { peer classad_unit_tester.cpp; }
@test "conformance: HTCondor's tests: extra_tests.cpp" { peer extra_tests.cpp; }
@test "conformance: HTCondor's tests: functional_tests.txt" { peer functional_tests.txt; }
@test "conformance: HTCondor's tests: test_classad_eval.py (classad_eval)" { peer test_classad_eval.py; }
@test "conformance: HTCondor's tests: test_classad_funcs.cpp (builtins)" { peer test_classad_funcs.cpp; }
@test "conformance: HTCondor's tests: test_classad_version_comparison.py" { peer test_classad_version_comparison.py; }
@test "conformance: HTCondor's tests: test_classads.py" { peer test_classads.py; }
@test "conformance: HTCondor's tests: test_python_bindings_classad.py" { peer test_python_bindings_classad.py; }
@test "conformance: HTCondor's tests: tests.txt" { peer tests.txt; }
