#!/bin/sh
# layers.sh - checks the layering of lib/: nothing in the ClassAd core
# (lib/classad/) includes the HTCondor layer; the HTCondor layer and the
# programs reach the core only through classad.h; and no two source files
# of lib/ include each other's headers, directly or around a circle.
cd "$(dirname "$0")/.." || exit 4
status=0
core_h=$(cd lib/classad && ls *.h)
condor_h=$(cd lib/condor && ls *.h)

for f in lib/classad/*.[ch]; do
	for h in $(sed -n 's/^#include "\(.*\)"/\1/p' "$f"); do
		case " $(echo $condor_h) " in *" $h "*)
			echo "layers: $f includes $h of the HTCondor layer" >&2; status=1 ;;
		esac
	done
done
for f in lib/condor/*.[ch] bin/*.[ch]; do
	for h in $(sed -n 's/^#include "\(.*\)"/\1/p' "$f"); do
		[ "$h" = classad.h ] && continue
		case " $(echo $core_h) " in *" $h "*)
			echo "layers: $f includes $h: outside the core only classad.h" >&2; status=1 ;;
		esac
	done
done

# Module graph: module X (X.c, X.h and its private X_int.h) depends on Y
# when one of them includes Y.h or Y_int.h (umbrella headers stand for what
# they include). Report every cycle.
awk '
FNR == 1 {
	n = split(FILENAME, p, "/"); m = p[n]; sub(/\.[ch]$/, "", m); sub(/_int$/, "", m); mod = m
}
/^#include "/ {
	h = $2; gsub(/"/, "", h); sub(/\.h$/, "", h); sub(/_int$/, "", h)
	if (h != mod) dep[mod] = dep[mod] " " h
}
function visit(x,   i, k, d) {
	state[x] = 1; stack[++sp] = x
	k = split(dep[x], d, " ")
	for (i = 1; i <= k; i++) {
		if (state[d[i]] == 1) {
			cyc = d[i]
			for (j = sp; j >= 1 && stack[j] != d[i]; j--) cyc = stack[j] " <- " cyc
			print "layers: include cycle: " d[i] " <- " cyc > "/dev/stderr"
			bad = 1
		} else if (state[d[i]] == 0)
			visit(d[i])
	}
	sp--; state[x] = 2
}
END {
	for (x in dep) if (state[x] == 0) visit(x)
	exit bad
}' lib/classad/*.[ch] lib/condor/*.[ch] || status=1
[ $status -eq 0 ] && echo "  layers: core apart, condor through classad.h, no include cycles"
exit $status
