# conformance.bats - runs every case of tests/data/eval.tsv (HTCondor's results)
# through classad-eval, one test per corpus category, as its README prescribes.

# Each case runs as `classad-eval --now NOW [-t TARGETFILE] [AD] EXPR` under
# TZ=UTC LC_ALL=C with a 5 s limit. PARSE_ERROR cases must exit non-zero
# without being killed; the others must exit 0 and print exactly one line
# equal to the expected value under tests/valcmp's normalisation. A failing
# test lists every failing case with its id, input, expected and got.
# CA_CONFORMANCE_IDS=REGEX runs only the matching case ids.

load helpers

CORPUS=$DATA/eval.tsv
CA_VALCMP=${CA_VALCMP:-$BATS_TEST_DIRNAME/../build/release/tests/valcmp}
CATEGORIES=(lit arith cmp logic meta cond bit prec attr policy fn-type fn-conv
	fn-math fn-list fn-str fn-regex fn-time fn-misc)

conform() { untraced conform_cases "$1"; }

# conform_cases CATEGORY: run the category's cases, print the failures, fail
# if any.
conform_cases() {
	local cat=$1 id now ad target expr expected rc got why err
	local n=0 nfail=0 out=$TMP/out errf=$TMP/err tfile=$TMP/target.ad
	local -a args lines

	[[ -x $CA_BIN/classad-eval ]] || { echo "no $CA_BIN/classad-eval (set CA_BIN)"; return 1; }
	[[ -x $CA_VALCMP ]] || { echo "no $CA_VALCMP (make builds it; or set CA_VALCMP)"; return 1; }
	while IFS=$'\t' read -r id now ad target expr expected; do
		[[ ${id%-*} == "$cat" ]] || continue
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
		[[ -n $why ]] || continue
		nfail=$((nfail + 1))
		printf 'FAIL %s: %s\n' "$id" "$why"
		printf '  expr:     %s\n' "$expr"
		[[ $ad == - ]] || printf '  ad:       %s\n' "$ad"
		[[ $target == - ]] || printf '  target:   %s\n' "$target"
		[[ $now == 1700000000 ]] || printf '  now:      %s\n' "$now"
		printf '  expected: %s\n  got:      %s\n' "$expected" "$got"
		IFS= read -r err <"$errf" && printf '  stderr:   %s\n' "$err"
	done <"$CORPUS"
	echo "$cat: $((n - nfail))/$n passed"
	((nfail == 0))
}

# The README's table says 537 (fn-math 24), but the corpus holds 536 cases
# (fn-math 23); the count guards the copy against truncation.
count_cases() {
	local id n=0 known=" ${CATEGORIES[*]} "
	while IFS=$'\t' read -r id _; do
		[[ $id == \#* || $id == id ]] && continue
		[[ $id =~ ^[a-z-]+-[0-9]{3}$ && $known == *" ${id%-*} "* ]] ||
			{ echo "unexpected case id '$id'"; return 1; }
		n=$((n + 1))
	done <"$CORPUS"
	echo "$n cases"
	((n == 536))
}

@test "conformance: the corpus has 536 cases, all in known categories" {
	untraced count_cases
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
