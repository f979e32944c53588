#!/bin/sh
# run.sh SECONDS [NAME...] - builds the libFuzzer harnesses tests/fuzz/fuzz_*.c
# with clang (ASan + UBSan) into build/fuzz/ and runs each (or the NAMEs) for
# SECONDS, starting from tests/fuzz/corpus/NAME (new memory filled with 0xbe,
# so that a read of memory never written shows). Fails on any crash, leak,
# sanitizer report, hang (> 10 s on one input) or out-of-memory; a crash
# input is left in build/fuzz/crash-NAME-*. Without clang's libFuzzer, each
# harness is linked with tests/fuzz/driver.c instead (CC, ASan + UBSan, the
# library of make check-sanitize) and replays its seed corpus once; without
# sanitizers either it says so and exits 0. CLANG=... picks the compiler.
set -u
secs=${1:-}
case $secs in
''|*[!0-9]*) echo "usage: tests/fuzz/run.sh SECONDS [NAME...]" >&2; exit 2 ;;
esac
shift
cd "$(dirname "$0")/../.." || exit 4
root=$(pwd)
out=$root/build/fuzz
CLANG=${CLANG:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

mkdir -p "$out" || exit 4
probe=$out/probe
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$probe.c"
libs="$(pkg-config --libs zlib 2>/dev/null || echo -lz) $(pkg-config --libs libpcre2-8 2>/dev/null || echo -lpcre2-8) -lm"
warn="-std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
if [ $# -eq 0 ]; then
	set -- $(cd tests/fuzz && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')
fi
for name in "$@"; do
	[ -f "tests/fuzz/fuzz_$name.c" ] || { echo "fuzz: no harness tests/fuzz/fuzz_$name.c" >&2; exit 2; }
done

if ! command -v "$CLANG" >/dev/null 2>&1 ||
    ! "$CLANG" $SAN -fsanitize=fuzzer -o "$probe" "$probe.c" >/dev/null 2>&1; then
	# no libFuzzer: every seed once, through the standalone driver
	CC=${CC:-cc}
	if ! "$CC" $SAN -o "$probe" "$probe.c" tests/fuzz/driver.c >/dev/null 2>&1; then
		echo "fuzz: neither $CLANG with libFuzzer nor $CC with sanitizers is available: skipped"
		exit 0
	fi
	echo "fuzz: no libFuzzer ($CLANG -fsanitize=fuzzer): replaying the seed corpora with $CC"
	${MAKE:-make} --no-print-directory VARIANT=asan CC="$CC" CFLAGS="-O1 -g $SAN" \
	    build/asan/libcondor.a build/asan/libclassad.a || exit 4
	status=0
	for name in "$@"; do
		printf 'fuzz: %-10s seeds ... ' "$name"
		log=$out/replay_$name.log
		"$CC" $warn -O1 -g $SAN -D_GNU_SOURCE -Ilib/classad -Ilib/condor \
		    -o "$out/replay_$name" "tests/fuzz/fuzz_$name.c" tests/fuzz/driver.c \
		    build/asan/libcondor.a build/asan/libclassad.a $libs >"$log" 2>&1 &&
		ASAN_OPTIONS=detect_leaks=1:max_malloc_fill_size=1048576 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		    "$out/replay_$name" "tests/fuzz/corpus/$name" >>"$log" 2>&1
		rc=$?
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		if [ $rc -eq 0 ]; then
			echo "ok (${runs:-?} inputs)"
		else
			echo "FAILED (status $rc)"
			grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*error:)' "$log" | head -20
			echo "fuzz: the whole log is $log"
			status=1
		fi
	done
	exit $status
fi

# The library, instrumented for coverage, through the Makefile's own rules.
echo "fuzz: building the library (clang, ASan + UBSan, coverage)"
${MAKE:-make} --no-print-directory VARIANT=fuzz CC="$CLANG" \
    CFLAGS="-O1 -g $SAN -fsanitize=fuzzer-no-link" build/fuzz/libcondor.a build/fuzz/libclassad.a || exit 4
for name in "$@"; do
	"$CLANG" $warn -O1 -g $SAN -fsanitize=fuzzer -D_GNU_SOURCE -Ilib/classad -Ilib/condor \
	    -o "$out/fuzz_$name" "tests/fuzz/fuzz_$name.c" "$out/libcondor.a" "$out/libclassad.a" \
	    $libs || exit 4
done

status=0
for name in "$@"; do
	# new inputs go to build/fuzz/corpus/NAME; the seeds stay as they are
	work=$out/corpus/$name
	mkdir -p "$work"
	case $name in
	reader|parse|eval) dict=-dict=tests/fuzz/classad.dict ;;
	config) dict=-dict=tests/fuzz/config.dict ;;
	startd|negotiator|accountant|match) dict=-dict=tests/fuzz/daemons.dict ;;
	cli) dict=-dict=tests/fuzz/cli.dict ;;
	*) dict= ;;
	esac
	log=$out/fuzz_$name.log
	printf 'fuzz: %-10s %ss ... ' "$name" "$secs"
	ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:max_malloc_fill_size=1048576 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$out/fuzz_$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	    -max_len=65536 -print_final_stats=1 $dict \
	    -artifact_prefix="$out/crash-$name-" "$work" "tests/fuzz/corpus/$name" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ $rc -eq 0 ]; then
		echo "ok (${runs:-?} runs)"
	else
		echo "FAILED (status $rc)"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|ALARM|MS:|artifact_prefix|Test unit written)' "$log" | head -20
		echo "fuzz: the whole log is $log"
		status=1
	fi
done
exit $status
