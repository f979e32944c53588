#!/bin/sh
# run.sh - the seed's desktop policy over 25 minutes: a job runs, its owner
# types for two minutes; "sh run.sh long": twelve minutes, 40 minutes shown;
# "chart" (after it or alone): the timeline as a strip chart.
cd "$(dirname "$0")" || exit 4
P=../policy
C="-c $P/desktop.config -c $P/desktop-local.config -c desk.config"
EVENTS=typing.ads UNTIL=1700001500
CHART=
for a in "$@"; do
	case $a in
	long) EVENTS=typing-long.ads UNTIL=1700002400 ;;
	chart) CHART=--chart ;;
	*) echo "usage: sh run.sh [long] [chart]" >&2; exit 2 ;;
	esac
done
startd-step --init $C --now 1700000000 desk.ad |
startd-step $C --now 1700000000 --until $UNTIL --every 60 -e $EVENTS $CHART
