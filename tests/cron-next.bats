# cron-next.bats - the cron-next program: every example of the seed's CronTab
# and job deferral sections, the day rule, calendar and DST edges, job mode.

load helpers

# ep TIME: epoch seconds of a date (GNU date; TIME carries its zone or is UTC).
ep() { date -u -d "$1" +%s; }

# runs ISO...: the lines cron-next prints for these run times.
runs() {
	local iso out=
	for iso in "$@"; do
		out+=$(printf '%s\t%s' "$(date -d "$iso" +%s)" "$iso")$'\n'
	done
	printf '%s' "${out%$'\n'}"
}

# The value of attribute NAME in long-format $output (first ad that has it).
attr() {
	printf '%s\n' "$output" | sed -n "s/^$1 = //p" | head -n 1
}

# ---- the command line ----

@test "--help prints the usage on stdout and exits 0; -V the version" {
	run -0 --separate-stderr cron-next --help
	[[ $output == usage:\ cron-next* ]]
	[ -z "$stderr" ]
	run -0 cron-next -V
	[ "$output" = "cron-next (classad-tools) 0.1.0" ]
	run -0 cron-next --version
	[ "$output" = "cron-next (classad-tools) 0.1.0" ]
}

@test "usage errors exit 2" {
	run -2 --separate-stderr cron-next --bogus '* * * * *'
	[[ $stderr == *"Try 'cron-next --help'."* ]]
	run -2 --separate-stderr cron-next
	[[ $stderr == *"no schedule"* ]]
	run -2 --separate-stderr cron-next --minute 5 '* * * * *'
	[[ $stderr == *"not both"* ]]
	run -2 --separate-stderr cron-next -o json '* * * * *'
	[ "${stderr%%$'\n'*}" = "cron-next: -o is for --jobs" ]
	run -2 --separate-stderr cron-next --jobs -n 3 /dev/null
	[ "${stderr%%$'\n'*}" = "cron-next: -n is for schedules, not for --jobs" ]
	run -2 cron-next -n x '* * * * *'
	run -2 cron-next --now soon '* * * * *'
}

# ---- the seed's CronTab examples ----

@test "seed: 23 minutes after every two hours, every day of the week" {
	run -0 cron-next --now "$(ep '2025-01-28 01:00')" -n 3 '23 0-23/2 * * *'
	[ "$output" = "$(runs 2025-01-28T02:23:00+00:00 2025-01-28T04:23:00+00:00 \
	    2025-01-28T06:23:00+00:00)" ]
	run -0 cron-next --now "$(ep '2025-01-28 22:23')" '23 0-23/2 * * *'
	[ "$output" = "$(runs 2025-01-29T00:23:00+00:00)" ]
}

@test "seed: the same schedule given field by field, the seed's five lines" {
	run -0 cron-next --now "$(ep '2025-01-28 01:00')" -n 3 '23 0-23/2 * * *'
	local whole=$output
	run -0 cron-next --now "$(ep '2025-01-28 01:00')" -n 3 --minute 23 --hour 0-23/2 \
	    --day-of-month '*' --month '*' --day-of-week '*'
	[ "$output" = "$whole" ]
	# a field left out is *
	run -0 cron-next --now "$(ep '2025-01-28 01:00')" -n 3 --minute 23 --hour 0-23/2
	[ "$output" = "$whole" ]
}

@test "seed: 20:30 on May 10-20 and on every Tuesday in May (the seed says 10:30pm and Monday)" {
	# May 2025: Tuesdays are the 6th, 13th, 20th and 27th
	run -0 cron-next --now "$(ep '2025-01-01 00:00')" -n 7 '30 20 10-20 5 2'
	[ "$output" = "$(runs 2025-05-06T20:30:00+00:00 2025-05-10T20:30:00+00:00 \
	    2025-05-11T20:30:00+00:00 2025-05-12T20:30:00+00:00 2025-05-13T20:30:00+00:00 \
	    2025-05-14T20:30:00+00:00 2025-05-15T20:30:00+00:00)" ]
	run -0 cron-next --now "$(ep '2025-05-20 20:30')" -n 2 '30 20 10-20 5 2'
	[ "$output" = "$(runs 2025-05-27T20:30:00+00:00 2026-05-05T20:30:00+00:00)" ]
	run -0 cron-next --now "$(ep '2025-01-01 00:00')" --minute 30 --hour 20 \
	    --day-of-month 10-20 --month 5 --day-of-week 2
	[ "$output" = "$(runs 2025-05-06T20:30:00+00:00)" ]
}

@test "seed: every 10 and every 6 minutes before noon on January 18th" {
	run -0 cron-next --now "$(ep '2025-06-01 00:00')" -n 6 '*/10,*/6 0-11 18 1 *'
	[ "$output" = "$(runs 2026-01-18T00:00:00+00:00 2026-01-18T00:06:00+00:00 \
	    2026-01-18T00:10:00+00:00 2026-01-18T00:12:00+00:00 2026-01-18T00:18:00+00:00 \
	    2026-01-18T00:20:00+00:00)" ]
	run -0 cron-next --now "$(ep '2026-01-18 11:50')" -n 2 '*/10,*/6 0-11 18 1 *'
	[ "$output" = "$(runs 2026-01-18T11:54:00+00:00 2027-01-18T00:00:00+00:00)" ]
}

@test "seed: the syntax examples expand as the seed says (--explain)" {
	run -0 cron-next --explain -n 0 --month '*' --hour 0-4 --minute 15,20,25,30
	[[ $output == *"cron_minute        15,20,25,30 -> 15,20,25,30"* ]]
	[[ $output == *"cron_hour          0-4         -> 0-4"$'\n'* ]]
	[[ $output == *"cron_month         *           -> 1-12 (every month)"* ]]
	run -0 cron-next --explain -n 0 --minute 10-30/5 --hour 0-3,9-12,15
	[[ $output == *"-> 10,15,20,25,30"$'\n'* ]]
	[[ $output == *"-> 0-3,9-12,15"$'\n'* ]]
	run -0 cron-next --explain -n 0 --hour '*/3'
	[[ $output == *"-> 0,3,6,9,12,15,18,21"$'\n'* ]]
	# "Multiple entries of the same value are ignored."
	run -0 cron-next --explain -n 0 --minute 5,5,1-6
	[[ $output == *"5,5,1-6 -> 1-6"$'\n'* ]]
}

@test "seed: submitted at 9:30, top of every hour: the next deferral time is 10:00" {
	run -0 cron-next --now "$(ep '2025-04-01 09:30')" '0 * * * *'
	[ "$output" = "$(runs 2025-04-01T10:00:00+00:00)" ]
	run -0 cron-next --now "$(ep '2025-04-01 09:30')" --minute 0
	[ "$output" = "$(runs 2025-04-01T10:00:00+00:00)" ]
}

@test "seed: now is rounded later to the next minute, never the current one" {
	run -0 cron-next --now "$(ep '2025-04-01 12:00:00')" '* * * * *'
	[ "$output" = "$(runs 2025-04-01T12:01:00+00:00)" ]
	run -0 cron-next --now "$(ep '2025-04-01 12:00:59')" '* * * * *'
	[ "$output" = "$(runs 2025-04-01T12:01:00+00:00)" ]
	run -0 cron-next --now "$(ep '2025-04-01 11:59:59')" '0 12 * * *'
	[ "$output" = "$(runs 2025-04-01T12:00:00+00:00)" ]
	run -0 cron-next --now "$(ep '2025-04-01 12:00:00')" '0 12 * * *'
	[ "$output" = "$(runs 2025-04-02T12:00:00+00:00)" ]
}

@test "seed: Sunday is 0 or 7" {
	run -0 cron-next --now "$(ep '2025-03-31 12:00')" -n 2 '0 0 * * 0'
	[ "$output" = "$(runs 2025-04-06T00:00:00+00:00 2025-04-13T00:00:00+00:00)" ]
	run -0 cron-next --now "$(ep '2025-03-31 12:00')" -n 2 '0 0 * * 7'
	[ "$output" = "$(runs 2025-04-06T00:00:00+00:00 2025-04-13T00:00:00+00:00)" ]
}

@test "steps count from 0: 5-20/10 is minutes 10 and 20" {
	run -0 cron-next --now "$(ep '2025-04-01 12:00')" -n 3 '5-20/10 * * * *'
	[ "$output" = "$(runs 2025-04-01T12:10:00+00:00 2025-04-01T12:20:00+00:00 \
	    2025-04-01T13:10:00+00:00)" ]
}

# ---- the seed's job deferral examples ----

@test "seed: deferral_time 1136138400 is noon on 1 January 2006 (America/Chicago)" {
	TZ=America/Chicago run -0 cron-next --now 1136138399 '0 12 1 1 *'
	[ "$output" = $'1136138400\t2006-01-01T12:00:00-06:00' ]
	TZ=America/Chicago run -0 cron-next --now 1262368700 '0 12 1 1 *'
	[ "$output" = $'1262368800\t2010-01-01T12:00:00-06:00' ]
}

@test "seed: jobs with deferral_time and no cron schedule pass through untouched" {
	cat >"$TMP/deferred.ads" <<'ADS'
ClusterId = 7
ProcId = 0
JobStatus = 1
DeferralTime = 1136138400

ClusterId = 8
ProcId = 0
JobStatus = 1
QDate = 1700000000
DeferralTime = (QDate + 60)
DeferralWindow = 120

ClusterId = 9
ProcId = 0
JobStatus = 1
DeferralTime = 1262368800
DeferralPrepTime = 60
ADS
	run -0 --separate-stderr cron-next --jobs --due --now 1700000000 "$TMP/deferred.ads"
	[ "$output" = "$(cat "$TMP/deferred.ads")" ]
	[ -z "$stderr" ]
}

@test "seed: deferral window: 45 seconds late with a 120-second window still runs" {
	local dt=$(ep '2025-04-01 10:00')
	printf 'ClusterId = 1\nProcId = 0\nJobStatus = 1\nCronMinute = "0"\nCronWindow = 120\nDeferralTime = %s\n' \
	    "$dt" >"$TMP/job.ad"
	run -0 cron-next --jobs --due --now $((dt + 45)) "$TMP/job.ad"
	[ "$(attr DeferralTime)" = "$dt" ]
	[ "$(attr DeferralWindow)" = 120 ]
	[ "$(attr CronDue)" = true ]
	# past the window: the next hour
	run -0 cron-next --jobs --due --now $((dt + 121)) "$TMP/job.ad"
	[ "$(attr DeferralTime)" = $((dt + 3600)) ]
	[ "$(attr CronDue)" = false ]
}

@test "seed: deferral prep time: matched 60 seconds before the deferral time" {
	local dt=1262368800
	printf 'ClusterId = 1\nProcId = 0\nJobStatus = 1\nCronMinute = "0"\nCronHour = "12"\nCronPrepTime = 60\nDeferralTime = %s\n' \
	    "$dt" >"$TMP/job.ad"
	TZ=America/Chicago run -0 cron-next --jobs --due --schedd-interval 0 --now $((dt - 61)) "$TMP/job.ad"
	[ "$(attr DeferralTime)" = "$dt" ]
	[ "$(attr DeferralPrepTime)" = 60 ]
	[ "$(attr CronDue)" = false ]
	TZ=America/Chicago run -0 cron-next --jobs --due --schedd-interval 0 --now $((dt - 60)) "$TMP/job.ad"
	[ "$(attr CronDue)" = true ]
}

# ---- job mode with the seed's cron_prep_time and cron_window examples ----

@test "seed: cron_prep_time = 300, submitted at 9:30: DeferralTime 10:00, matchable from 9:55" {
	cat >"$TMP/job.ad" <<'ADS'
ClusterId = 12
ProcId = 0
JobStatus = 1
Cmd = "/usr/local/bin/backup"
OnExitRemove = false
CronMinute = "0"
CronHour = "*"
CronPrepTime = 300
ADS
	run -0 --separate-stderr cron-next --jobs --due --schedd-interval 0 \
	    --now "$(ep '2025-04-01 09:30')" "$TMP/job.ad"
	[ "$output" = "$(cat "$TMP/job.ad"; printf 'DeferralPrepTime = 300\nDeferralWindow = 0\nDeferralTime = %s\nCronDue = false' \
	    "$(ep '2025-04-01 10:00')")" ]
	[ -z "$stderr" ]
	# the scheduled job, seen again at 9:54:59 and at 9:55
	printf '%s\n' "$output" | grep -v CronDue >"$TMP/sched.ad"
	run -0 cron-next --jobs --due --schedd-interval 0 --now "$(ep '2025-04-01 09:54:59')" "$TMP/sched.ad"
	[ "$(attr CronDue)" = false ]
	run -0 cron-next --jobs --due --schedd-interval 0 --now "$(ep '2025-04-01 09:55')" "$TMP/sched.ad"
	[ "$(attr CronDue)" = true ]
	[ "$(attr DeferralTime)" = "$(ep '2025-04-01 10:00')" ]
	# (time() + SCHEDD_INTERVAL) >= (DeferralTime - CronPrepTime): the default
	# interval of 300 seconds makes it matchable from 9:50
	run -0 cron-next --jobs --due --now "$(ep '2025-04-01 09:50')" "$TMP/sched.ad"
	[ "$(attr CronDue)" = true ]
	run -0 cron-next --jobs --due --now "$(ep '2025-04-01 09:49:59')" "$TMP/sched.ad"
	[ "$(attr CronDue)" = false ]
	# the job's own ScheddInterval wins over the option
	{ cat "$TMP/sched.ad"; echo 'ScheddInterval = 60'; } >"$TMP/sched2.ad"
	run -0 cron-next --jobs --due --now "$(ep '2025-04-01 09:53:59')" "$TMP/sched2.ad"
	[ "$(attr CronDue)" = false ]
	run -0 cron-next --jobs --due --now "$(ep '2025-04-01 09:54')" "$TMP/sched2.ad"
	[ "$(attr CronDue)" = true ]
}

@test "seed: cron_window = 360: DeferralTime kept for six minutes, then the next hour" {
	printf 'ClusterId = 1\nProcId = 0\nJobStatus = 1\nCronMinute = "0"\nCronHour = "*"\nCronWindow = 360\n' >"$TMP/job.ad"
	run -0 cron-next --jobs --now "$(ep '2025-04-01 09:30')" "$TMP/job.ad"
	[ "$(attr DeferralTime)" = "$(ep '2025-04-01 10:00')" ]
	[ "$(attr DeferralWindow)" = 360 ]
	[ "$(attr DeferralPrepTime)" = 300 ]
	printf '%s\n' "$output" >"$TMP/sched.ad"
	run -0 cron-next --jobs --due --now "$(ep '2025-04-01 10:05:59')" "$TMP/sched.ad"
	[ "$(attr DeferralTime)" = "$(ep '2025-04-01 10:00')" ]
	[ "$(attr CronDue)" = true ]
	# time() < DeferralTime + DeferralWindow, as the Requirements submit adds
	run -0 cron-next --jobs --due --now "$(ep '2025-04-01 10:06')" "$TMP/sched.ad"
	[ "$(attr DeferralTime)" = "$(ep '2025-04-01 10:00')" ]
	[ "$(attr CronDue)" = false ]
	run -0 cron-next --jobs --due --now "$(ep '2025-04-01 10:06:01')" "$TMP/sched.ad"
	[ "$(attr DeferralTime)" = "$(ep '2025-04-01 11:00')" ]
	[ "$(attr CronDue)" = false ]
}

@test "seed: cron_prep_time = 120 of the January 18th example becomes DeferralPrepTime" {
	cat >"$TMP/job.ad" <<'ADS'
OnExitRemove = false
CronMinute = "*/10,*/6"
CronHour = "0-11"
CronDayOfMonth = "18"
CronMonth = "1"
CronDayOfWeek = "*"
CronPrepTime = 120
ADS
	run -0 cron-next --jobs --now "$(ep '2025-06-01')" "$TMP/job.ad"
	[ "$(attr DeferralPrepTime)" = 120 ]
	[ "$(attr DeferralTime)" = "$(ep '2026-01-18 00:00')" ]
}

# ---- errors ----

@test "a bad schedule names the field and the value and exits 3" {
	run -3 --separate-stderr cron-next '0 24 * * *'
	[ "$stderr" = "cron-next: cron_hour: 24 is out of range 0-23" ]
	[ -z "$output" ]
	run -3 --separate-stderr cron-next --hour 24
	[ "$stderr" = "cron-next: cron_hour: 24 is out of range 0-23" ]
	run -3 --separate-stderr cron-next '75 * * * *'
	[ "$stderr" = "cron-next: cron_minute: 75 is out of range 0-59" ]
	run -3 --separate-stderr cron-next '50-70 * * * *'
	[ "$stderr" = "cron-next: cron_minute: 70 in 50-70 is out of range 0-59" ]
	run -3 --separate-stderr cron-next '30-10 * * * *'
	[ "$stderr" = "cron-next: cron_minute: 30-10 is a reversed range" ]
	run -3 --separate-stderr cron-next '*/0 * * * *'
	[ "$stderr" = "cron-next: cron_minute: */0 has a zero step" ]
	run -3 --separate-stderr cron-next '5/2 * * * *'
	[ "$stderr" = "cron-next: cron_minute: 5/2 has a step on a single value (a step needs * or a range)" ]
	run -3 --separate-stderr cron-next '* * 0 * *'
	[ "$stderr" = "cron-next: cron_day_of_month: 0 is out of range 1-31" ]
	run -3 --separate-stderr cron-next '* * * 13 *'
	[ "$stderr" = "cron-next: cron_month: 13 is out of range 1-12" ]
	run -3 --separate-stderr cron-next '* * * * 8'
	[ "$stderr" = "cron-next: cron_day_of_week: 8 is out of range 0-7" ]
	run -3 --separate-stderr cron-next '* * * * MON'
	[ "$stderr" = "cron-next: cron_day_of_week: bad character 'M' in MON (only digits and , - / * are allowed)" ]
	run -3 --separate-stderr cron-next --minute ''
	[ "$stderr" = "cron-next: cron_minute: the value is empty" ]
	run -3 --separate-stderr cron-next '1,,2 * * * *'
	[ "$stderr" = "cron-next: cron_minute: 1,,2 has an empty list element" ]
	run -3 --separate-stderr cron-next '* * */40 * *'
	[ "$stderr" = "cron-next: cron_day_of_month: */40 selects no value" ]
}

@test "a schedule needs five fields; one that never runs is refused" {
	run -3 --separate-stderr cron-next '0 12 * *'
	[ "$stderr" = "cron-next: a schedule has 5 fields (MIN HOUR DOM MONTH DOW), not 4" ]
	run -3 --separate-stderr cron-next '0 0 30 2 *'
	[ "$stderr" = "cron-next: cron_day_of_month: day 30 never occurs in month 2" ]
	run -3 --separate-stderr cron-next --day-of-month 31 --month 4,6,9,11
	[ "$stderr" = "cron-next: cron_day_of_month: day 31 never occurs in months 4,6,9,11" ]
	# the fields may also come as separate arguments
	run -0 cron-next --now "$(ep '2025-04-01 09:30')" 0 '*' '*' '*' '*'
	[ "$output" = "$(runs 2025-04-01T10:00:00+00:00)" ]
}

# ---- --explain and the day rule ----

@test "--explain: both day fields restrict, so either one matching is enough" {
	run -0 cron-next --now "$(ep '2025-01-01')" --explain -n 2 '30 20 10-20 5 2'
	[ "$output" = "cron_minute        30    -> 30
cron_hour          20    -> 20
cron_day_of_month  10-20 -> 10-20
cron_month         5     -> 5 (May)
cron_day_of_week   2     -> 2 (Tuesday)
Runs at 20:30, on days 10-20 of the month and also on every Tuesday, in May.
Day rule: cron_day_of_month and cron_day_of_week both restrict the days,
so a day runs when EITHER matches (logical or), not only when both do.
Next runs after 2025-01-01T00:00:00+00:00:
$(runs 2025-05-06T20:30:00+00:00 2025-05-10T20:30:00+00:00)" ]
}

@test "--explain: only one day field, or neither, restricts" {
	run -0 cron-next --explain -n 0 '0 9 * * 1-5'
	[[ $output == *"-> 1-5 (Monday-Friday)"$'\n'* ]]
	[[ $output == *"Runs at 09:00, on every Monday-Friday."* ]]
	[[ $output == *"Day rule: only cron_day_of_week restricts the days"* ]]
	run -0 cron-next --explain -n 0 '0 0 1,15 * *'
	[[ $output == *"Runs at 00:00, on days 1,15 of the month."* ]]
	[[ $output == *"Day rule: only cron_day_of_month restricts the days"* ]]
	run -0 cron-next --explain -n 0 '*/15 * 1-31 * 0-7'
	[[ $output == *"Runs at minutes 0,15,30,45 of every hour, every day."* ]]
	[[ $output == *"Day rule: neither day field restricts the days, so every day runs."* ]]
	[[ $output != *"Next run"* ]]
}

@test "a weekday-only schedule runs on that weekday across a month end" {
	# HTCondor's CronTab gives Friday 31 January 00:00 here.
	run -0 cron-next --now "$(ep '2025-01-28 12:00')" -n 2 '0 0 * * 1'
	[ "$output" = "$(runs 2025-02-03T00:00:00+00:00 2025-02-10T00:00:00+00:00)" ]
	# ... and a day of the month with "*" for the weekday is not widened
	run -0 cron-next --now "$(ep '2025-01-16')" '0 0 15 * *'
	[ "$output" = "$(runs 2025-02-15T00:00:00+00:00)" ]
	# both: the 1st or a Friday
	run -0 cron-next --now "$(ep '2025-01-28 12:00')" -n 3 '0 0 1 * 5'
	[ "$output" = "$(runs 2025-01-31T00:00:00+00:00 2025-02-01T00:00:00+00:00 \
	    2025-02-07T00:00:00+00:00)" ]
}

# ---- calendar ----

@test "month ends, year ends" {
	run -0 cron-next --now "$(ep '2025-01-31')" -n 3 '0 0 31 * *'
	[ "$output" = "$(runs 2025-03-31T00:00:00+00:00 2025-05-31T00:00:00+00:00 \
	    2025-07-31T00:00:00+00:00)" ]
	run -0 cron-next --now "$(ep '2025-12-31 23:59')" -n 2 '* * * * *'
	[ "$output" = "$(runs 2026-01-01T00:00:00+00:00 2026-01-01T00:01:00+00:00)" ]
	run -0 cron-next --now "$(ep '2025-12-31 23:59')" '59 23 31 12 *'
	[ "$output" = "$(runs 2026-12-31T23:59:00+00:00)" ]
}

@test "29 February: leap years only, years away, and on a Monday-only schedule" {
	run -0 cron-next --now "$(ep '2025-03-01')" -n 3 '0 0 29 2 *'
	[ "$output" = "$(runs 2028-02-29T00:00:00+00:00 2032-02-29T00:00:00+00:00 \
	    2036-02-29T00:00:00+00:00)" ]
	# 2100 is not a leap year
	run -0 cron-next --now "$(ep '2096-03-01')" '0 0 29 2 *'
	[ "$output" = "$(runs 2104-02-29T00:00:00+00:00)" ]
	# Mondays of February: 29 February 2044 is one, 29 February 2024 is not
	run -0 cron-next --now "$(ep '2044-02-23')" -n 2 '0 12 * 2 1'
	[ "$output" = "$(runs 2044-02-29T12:00:00+00:00 2045-02-06T12:00:00+00:00)" ]
	run -0 cron-next --now "$(ep '2024-02-27')" '0 0 * 2 1'
	[ "$output" = "$(runs 2025-02-03T00:00:00+00:00)" ]
	# 29 February or any Monday of February
	run -0 cron-next --now "$(ep '2025-03-01')" '0 0 29 2 1'
	[ "$output" = "$(runs 2026-02-02T00:00:00+00:00)" ]
}

@test "a thousand far-away runs take well under a second" {
	local start=$SECONDS
	run -0 cron-next --now "$(ep '2025-03-01')" -n 1000 '0 0 29 2 *'
	[ "${#lines[@]}" = 1000 ]
	[ "${lines[999]#*$'\t'}" = 6148-02-29T00:00:00+00:00 ]
	[ $((SECONDS - start)) -le 2 ]
}

@test "-n 0 prints nothing; the end of year 9999 is the end (exit 1)" {
	run -0 cron-next -n 0 '* * * * *'
	[ -z "$output" ]
	run -1 --separate-stderr cron-next --now "$(ep '9999-06-01')" -n 2 '0 0 1 1,7 *'
	[ "$output" = "$(runs 9999-07-01T00:00:00+00:00)" ]
	[[ $stderr == "cron-next: no run after"*"before the end of year 9999" ]]
}

# ---- daylight saving (America/Chicago) ----

@test "DST spring gap: 02:30 does not exist on 9 March 2025 and does not run" {
	TZ=America/Chicago run -0 cron-next --now "$(ep '2025-03-08 12:00 CST')" -n 2 '30 2 * * *'
	[ "$output" = "$(runs 2025-03-10T02:30:00-05:00 2025-03-11T02:30:00-05:00)" ]
	TZ=America/Chicago run -0 cron-next --now "$(ep '2025-03-09 01:00 CST')" -n 4 '*/30 * * * *'
	[ "$output" = "$(runs 2025-03-09T01:30:00-06:00 2025-03-09T03:00:00-05:00 \
	    2025-03-09T03:30:00-05:00 2025-03-09T04:00:00-05:00)" ]
	TZ=America/Chicago run -0 cron-next --now "$(ep '2025-03-08 12:00 CST')" -n 2 '0 3 * * *'
	[ "$output" = "$(runs 2025-03-09T03:00:00-05:00 2025-03-10T03:00:00-05:00)" ]
}

@test "DST autumn overlap: 01:30 on 2 November 2025 runs once, the first time" {
	TZ=America/Chicago run -0 cron-next --now "$(ep '2025-11-02 00:00 CDT')" -n 2 '30 1 * * *'
	[ "$output" = "$(runs 2025-11-02T01:30:00-05:00 2025-11-03T01:30:00-06:00)" ]
	TZ=America/Chicago run -0 cron-next --now "$(ep '2025-11-02 00:45 CDT')" -n 4 '*/30 * * * *'
	[ "$output" = "$(runs 2025-11-02T01:00:00-05:00 2025-11-02T01:30:00-05:00 \
	    2025-11-02T02:00:00-06:00 2025-11-02T02:30:00-06:00)" ]
	# from inside the repeated hour
	TZ=America/Chicago run -0 cron-next --now "$(ep '2025-11-02 01:10 CST')" '* * * * *'
	[ "$output" = "$(runs 2025-11-02T02:00:00-06:00)" ]
	TZ=America/Chicago run -0 cron-next --now "$(ep '2025-11-01 12:00 CDT')" -n 2 '0 0 * * *'
	[ "$output" = "$(runs 2025-11-02T00:00:00-05:00 2025-11-03T00:00:00-06:00)" ]
}

# ---- job mode ----

@test "--jobs: jobs keep their order and attributes; added ones go at the end" {
	# a cron job, a plain job, a cron job whose schedule is an integer
	cat >"$TMP/jobs.ads" <<'ADS'
ClusterId = 1
ProcId = 0
JobStatus = 1
CronMinute = "0"
CronHour = "*/6"
Cmd = "/bin/report"

ClusterId = 2
ProcId = 0
JobStatus = 1
Cmd = "/bin/true"

ClusterId = 3
ProcId = 0
JobStatus = 1
CronMinute = 15
ADS
	run -0 --separate-stderr cron-next --jobs --now "$(ep '2025-04-01 09:30')" "$TMP/jobs.ads"
	[ "$output" = "ClusterId = 1
ProcId = 0
JobStatus = 1
CronMinute = \"0\"
CronHour = \"*/6\"
Cmd = \"/bin/report\"
DeferralPrepTime = 300
DeferralWindow = 0
DeferralTime = $(ep '2025-04-01 12:00')

ClusterId = 2
ProcId = 0
JobStatus = 1
Cmd = \"/bin/true\"

ClusterId = 3
ProcId = 0
JobStatus = 1
CronMinute = 15
DeferralPrepTime = 300
DeferralWindow = 0
DeferralTime = $(ep '2025-04-01 10:15')" ]
	[ -z "$stderr" ]
	# standard input, and the other formats
	run -0 cron-next --jobs -o json --now "$(ep '2025-04-01 09:30')" <"$TMP/jobs.ads"
	[[ $output == *'"DeferralTime": '"$(ep '2025-04-01 12:00')"* ]]
	run -0 cron-next --jobs -o new --now "$(ep '2025-04-01 09:30')" - <"$TMP/jobs.ads"
	[[ $output == *"DeferralTime = $(ep '2025-04-01 10:15')"* ]]
}

@test "--jobs: -i forces the input format, -z compresses the output" {
	echo '[ ClusterId = 4; ProcId = 0; JobStatus = 1; CronMinute = "30"; CronHour = "2" ]' >"$TMP/job.new"
	run -0 cron-next --jobs -i new --now "$(ep '2025-04-01 09:30')" "$TMP/job.new"
	[ "$(attr DeferralTime)" = "$(ep '2025-04-02 02:30')" ]
	cron-next --jobs -z --now "$(ep '2025-04-01 09:30')" "$TMP/job.new" >"$TMP/out.gz"
	run -0 sh -c "gzip -dc '$TMP/out.gz'"
	[ "$(attr DeferralTime)" = "$(ep '2025-04-02 02:30')" ]
	# and compressed input is read as well
	run -0 cron-next --jobs --now "$(ep '2025-04-01 09:30')" "$TMP/out.gz"
	[ "$(attr DeferralTime)" = "$(ep '2025-04-02 02:30')" ]
}

@test "--jobs: an invalid schedule holds the job (code 25) and the stream goes on" {
	cat >"$TMP/jobs.ads" <<'ADS'
ClusterId = 5
ProcId = 0
JobStatus = 1
CronHour = "24"

ClusterId = 6
ProcId = 1
JobStatus = 1
CronMinute = "0"
ADS
	run -0 --separate-stderr cron-next --jobs --due --now "$(ep '2025-04-01 09:30')" "$TMP/jobs.ads"
	[ "$stderr" = "cron-next: $TMP/jobs.ads:1: job 5.0: CronHour: 24 is out of range 0-23; the job is put on hold" ]
	[ "$output" = "ClusterId = 5
ProcId = 0
JobStatus = 5
CronHour = \"24\"
LastJobStatus = 1
HoldReason = \"Invalid cron schedule parameters: CronHour: 24 is out of range 0-23\"
HoldReasonCode = 25
HoldReasonSubCode = 0
EnteredCurrentStatus = $(ep '2025-04-01 09:30')
CronDue = false

ClusterId = 6
ProcId = 1
JobStatus = 1
CronMinute = \"0\"
DeferralPrepTime = 300
DeferralWindow = 0
DeferralTime = $(ep '2025-04-01 10:00')
CronDue = false" ]
}

@test "--jobs: other invalid cron settings hold the job too" {
	printf 'ClusterId = 1\nProcId = 0\nCronDayOfMonth = "31"\nCronMonth = "2"\n\nClusterId = 2\nProcId = 0\nCronMinute = "0"\nCronPrepTime = "soon"\n\nClusterId = 3\nProcId = 0\nCronMinute = 1.5\n' >"$TMP/jobs.ads"
	run -0 --separate-stderr cron-next --jobs --now 0 "$TMP/jobs.ads"
	[ "${#stderr_lines[@]}" = 3 ]
	[[ ${stderr_lines[0]} == *":1: job 1.0: CronDayOfMonth: day 31 never occurs in month 2; the job is put on hold" ]]
	[[ ${stderr_lines[1]} == *":6: job 2.0: CronPrepTime must be a non-negative integer; the job is put on hold" ]]
	[[ ${stderr_lines[2]} == *":11: job 3.0: CronMinute is a real, not a string or an integer; the job is put on hold" ]]
	[ "$(printf '%s\n' "$output" | grep -c '^JobStatus = 5$')" = 3 ]
	[ "$(printf '%s\n' "$output" | grep -c '^HoldReasonCode = 25$')" = 3 ]
	[ "$(printf '%s\n' "$output" | grep -c '^DeferralTime')" = 0 ]
}

@test "--jobs: only idle jobs are (re)scheduled" {
	cat >"$TMP/jobs.ads" <<'ADS'
ClusterId = 1
ProcId = 0
JobStatus = 2
CronMinute = "0"
DeferralTime = 1000

ClusterId = 2
ProcId = 0
JobStatus = 5
CronMinute = "99"
ADS
	run -0 --separate-stderr cron-next --jobs --now "$(ep '2025-04-01 09:30')" "$TMP/jobs.ads"
	[ "$output" = "$(cat "$TMP/jobs.ads")" ]
	[ -z "$stderr" ]
	run -0 cron-next --jobs --due --now "$(ep '2025-04-01 09:30')" "$TMP/jobs.ads"
	[ "$(printf '%s\n' "$output" | grep -c '^CronDue = false$')" = 2 ]
}

@test "--jobs: a malformed ad is reported (exit 3), the others are written" {
	printf 'ClusterId = 1\nCronMinute = "0"\n\nClusterId = = 2\n\nClusterId = 3\nCronMinute = "5"\n' >"$TMP/jobs.ads"
	run -3 --separate-stderr cron-next --jobs --now "$(ep '2025-04-01 09:30')" "$TMP/jobs.ads"
	[[ $stderr == "cron-next: $TMP/jobs.ads:4:"* ]]
	[ "$(printf '%s\n' "$output" | grep -c '^DeferralTime')" = 2 ]
	run -4 --separate-stderr cron-next --jobs "$TMP/missing.ads"
	[[ $stderr == *missing.ads* ]]
}
