#!/bin/sh
# run-bats.sh LABEL FILE... - runs bats suites and ends with one line
# "LABEL: N passed, N failed" (skipped tests counted apart); exit as bats.
label=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
bats "$@" | tee "$log"
pass=$(grep -c '^ok ' "$log")
skip=$(grep -c '^ok .* # skip' "$log")
fail=$(grep -c '^not ok ' "$log")
pass=$((pass - skip))
if [ "$skip" -gt 0 ]; then
	echo "$label: $pass passed, $fail failed, $skip skipped"
else
	echo "$label: $pass passed, $fail failed"
fi
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
