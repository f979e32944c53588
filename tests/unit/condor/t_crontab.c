/* t_crontab.c - unit tests of lib/condor/crontab.c: field syntax and errors,
 * the manual's examples, calendar edges, daylight saving, a brute-force check. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit.h"
#include "condor.h"

/* ---- helpers ---- */

/* Switch the time zone for a suite; restore with tz_restore. */
static char saved_tz[128];
static bool had_tz;

static void
tz_set(const char *zone)
{
	const char *old = getenv("TZ");

	had_tz = old != NULL;
	if (had_tz)
		snprintf(saved_tz, sizeof saved_tz, "%s", old);
	setenv("TZ", zone, 1);
	tzset();
}

static void
tz_restore(void)
{
	if (had_tz)
		setenv("TZ", saved_tz, 1);
	else
		unsetenv("TZ");
	tzset();
}

/* Epoch seconds of a UTC date and time, through libc (not the library). */
static int64_t
utc(int y, int mo, int d, int h, int mi)
{
	struct tm tm = { 0 };

	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	return (int64_t)timegm(&tm);
}

/* Epoch seconds of a local time whose UTC offset is off_h hours. */
static int64_t
at(int y, int mo, int d, int h, int mi, int off_h)
{
	return utc(y, mo, d, h, mi) - (int64_t)off_h * 3600;
}

/* The next run of a schedule line after now, or -2 if it does not parse, -1
 * if there is none. */
static int64_t
next_of(const char *line, int64_t now)
{
	ca_cron c;
	ca_diag err;
	int64_t t;

	if (ca_cron_parse(&c, line, &err) < 0)
		return -2;
	return ca_cron_next(&c, now, &t) < 0 ? -1 : t;
}

/* Does parsing `text` as field f fail with exactly this message? */
static bool
field_err(int f, const char *text, const char *msg)
{
	ca_cron c;
	ca_diag err;

	ca_cron_init(&c);
	if (ca_cron_field(&c, f, text, &err) == 0) {
		fprintf(stderr, "  %s = %s: accepted\n", ca_cron_field_name(f), text);
		return false;
	}
	if (ca_cron_err_field(&err) != f || strcmp(err.msg, msg) != 0) {
		fprintf(stderr, "  %s = %s: got \"%s\"\n", ca_cron_field_name(f), text, err.msg);
		return false;
	}
	return true;
}

/* The set a field text gives, as a formatted list ("" when it fails). */
static const char *
field_set(int f, const char *text)
{
	static char buf[256];
	ca_cron c;
	ca_diag err;

	ca_cron_init(&c);
	if (ca_cron_field(&c, f, text, &err) < 0)
		return "";
	ca_cron_format_set(f, ca_cron_set(&c, f), buf, sizeof buf);
	return buf;
}

/* ---- syntax ---- */

UNIT_SUITE(crontab_syntax)
{
	ca_cron c;
	ca_diag err;

	/* The syntax examples of HTCondor's manual. */
	CHECK(strcmp(field_set(CA_CRON_MONTH, "*"), "1-12") == 0);
	CHECK(strcmp(field_set(CA_CRON_HOUR, "0-4"), "0-4") == 0);
	CHECK(strcmp(field_set(CA_CRON_MINUTE, "15,20,25,30"), "15,20,25,30") == 0);
	CHECK(strcmp(field_set(CA_CRON_HOUR, "0-3,9-12,15"), "0-3,9-12,15") == 0);
	CHECK(strcmp(field_set(CA_CRON_MINUTE, "10-30/5"), "10,15,20,25,30") == 0);
	CHECK(strcmp(field_set(CA_CRON_HOUR, "*/3"), "0,3,6,9,12,15,18,21") == 0);
	CHECK(strcmp(field_set(CA_CRON_HOUR, "0-23/2"),
	    "0,2,4,6,8,10,12,14,16,18,20,22") == 0);
	CHECK(strcmp(field_set(CA_CRON_MINUTE, "*/10,*/6"),
	    "0,6,10,12,18,20,24,30,36,40,42,48,50,54") == 0);
	/* Duplicates are ignored; spaces are ignored. */
	CHECK(strcmp(field_set(CA_CRON_MINUTE, "5,5,1-6"), "1-6") == 0);
	CHECK(strcmp(field_set(CA_CRON_MINUTE, " 0, 30 "), "0,30") == 0);
	/* Steps count from 0, as HTCondor's. */
	CHECK(strcmp(field_set(CA_CRON_MINUTE, "5-20/10"), "10,20") == 0);
	CHECK(strcmp(field_set(CA_CRON_MONTH, "*/2"), "2,4,6,8,10,12") == 0);
	CHECK(strcmp(field_set(CA_CRON_MDAY, "*/5"), "5,10,15,20,25,30") == 0);
	CHECK(strcmp(field_set(CA_CRON_MINUTE, "*/60"), "0") == 0);
	/* Sunday is 0 or 7; 7 counts as 0 before a step. */
	CHECK(strcmp(field_set(CA_CRON_WDAY, "7"), "0") == 0);
	CHECK(strcmp(field_set(CA_CRON_WDAY, "0,7"), "0") == 0);
	CHECK(strcmp(field_set(CA_CRON_WDAY, "5-7"), "0,5,6") == 0);
	CHECK(strcmp(field_set(CA_CRON_WDAY, "1-7"), "0-6") == 0);
	CHECK(strcmp(field_set(CA_CRON_WDAY, "*/2"), "0,2,4,6") == 0);
	CHECK(strcmp(field_set(CA_CRON_WDAY, "5-7/2"), "0,6") == 0);
	CHECK(strcmp(field_set(CA_CRON_MINUTE, "007"), "7") == 0);

	/* Which fields restrict the days. */
	ca_cron_init(&c);
	CHECK(c.flags == 0);
	CHECK(ca_cron_parse(&c, "* * 1-31 * 0-7", &err) == 0 && c.flags == 0);
	CHECK(ca_cron_parse(&c, "* * */1 * 0-6", &err) == 0 && c.flags == 0);
	CHECK(ca_cron_parse(&c, "* * */2 * *", &err) == 0 &&
	    c.flags == CA_CRON_MDAY_RESTRICTS);
	CHECK(ca_cron_parse(&c, "* * * * */2", &err) == 0 &&
	    c.flags == CA_CRON_WDAY_RESTRICTS);
	CHECK(ca_cron_parse(&c, "* * 1 * 1", &err) == 0 &&
	    c.flags == (CA_CRON_MDAY_RESTRICTS | CA_CRON_WDAY_RESTRICTS));
	CHECK(ca_cron_parse(&c, "\t0  12\t*  * 1-5 ", &err) == 0);

	/* Errors name the value; the caller names the field. */
	CHECK(field_err(CA_CRON_HOUR, "24", "24 is out of range 0-23"));
	CHECK(field_err(CA_CRON_MINUTE, "60", "60 is out of range 0-59"));
	CHECK(field_err(CA_CRON_MINUTE, "75", "75 is out of range 0-59"));
	CHECK(field_err(CA_CRON_MDAY, "0", "0 is out of range 1-31"));
	CHECK(field_err(CA_CRON_MDAY, "32", "32 is out of range 1-31"));
	CHECK(field_err(CA_CRON_MONTH, "13", "13 is out of range 1-12"));
	CHECK(field_err(CA_CRON_WDAY, "8", "8 is out of range 0-7"));
	CHECK(field_err(CA_CRON_MINUTE, "50-70", "70 in 50-70 is out of range 0-59"));
	CHECK(field_err(CA_CRON_HOUR, "1,99999999999999999999",
	    "99999999999999999999 is out of range 0-23"));
	CHECK(field_err(CA_CRON_MINUTE, "30-10", "30-10 is a reversed range"));
	CHECK(field_err(CA_CRON_MINUTE, "*/0", "*/0 has a zero step"));
	CHECK(field_err(CA_CRON_MINUTE, "10-20/0", "10-20/0 has a zero step"));
	CHECK(field_err(CA_CRON_MINUTE, "5/2",
	    "5/2 has a step on a single value (a step needs * or a range)"));
	CHECK(field_err(CA_CRON_MINUTE, "", "the value is empty"));
	CHECK(field_err(CA_CRON_MINUTE, "  ", "the value is empty"));
	CHECK(field_err(CA_CRON_MINUTE, "1,,2", "1,,2 has an empty list element"));
	CHECK(field_err(CA_CRON_MINUTE, "1,", "1, has an empty list element"));
	CHECK(field_err(CA_CRON_MINUTE, "a",
	    "bad character 'a' in a (only digits and , - / * are allowed)"));
	CHECK(field_err(CA_CRON_MINUTE, "1.5",
	    "bad character '.' in 1.5 (only digits and , - / * are allowed)"));
	CHECK(field_err(CA_CRON_WDAY, "MON",
	    "bad character 'M' in MON (only digits and , - / * are allowed)"));
	CHECK(field_err(CA_CRON_MINUTE, "1\n",
	    "bad character \\x0a in 1\\x0a (only digits and , - / * are allowed)"));
	CHECK(field_err(CA_CRON_MINUTE, "-5", "-5 is not a value, a range or a step"));
	CHECK(field_err(CA_CRON_MINUTE, "5-", "5- is not a value, a range or a step"));
	CHECK(field_err(CA_CRON_MINUTE, "1-2-3", "1-2-3 is not a value, a range or a step"));
	CHECK(field_err(CA_CRON_MINUTE, "**", "** is not a value, a range or a step"));
	CHECK(field_err(CA_CRON_MINUTE, "*/", "*/ is not a value, a range or a step"));
	CHECK(field_err(CA_CRON_MINUTE, "/5", "/5 is not a value, a range or a step"));
	CHECK(field_err(CA_CRON_MINUTE, "*/5/2", "*/5/2 is not a value, a range or a step"));
	CHECK(field_err(CA_CRON_MINUTE, "*-5", "*-5 is not a value, a range or a step"));
	CHECK(field_err(CA_CRON_MDAY, "*/40", "*/40 selects no value"));
	CHECK(field_err(CA_CRON_MINUTE, "1,2,3x,4",
	    "bad character 'x' in 3x (only digits and , - / * are allowed)"));
	CHECK(field_err(CA_CRON_MINUTE, "1,000000000000000000000000000000000000000000000000000000000000000001",
	    "1,000000000000000000000000000000000000000000000000000000... has an element "
	    "that is too long"));
	/* Long lists are fine: every minute written out. */
	{
		char all[256];
		int o = 0;

		for (int m = 0; m < 60; m++)
			o += snprintf(all + o, sizeof all - (size_t)o, "%s%d", m ? ", " : "", m);
		CHECK(strcmp(field_set(CA_CRON_MINUTE, all), "0-59") == 0);
	}
	CHECK(field_err(CA_CRON_MDAY, "1-5/7", "1-5/7 selects no value"));

	/* A failed field leaves the schedule as it was. */
	ca_cron_init(&c);
	CHECK(ca_cron_field(&c, CA_CRON_HOUR, "3", &err) == 0);
	CHECK(ca_cron_field(&c, CA_CRON_HOUR, "3,99", &err) < 0);
	CHECK(c.hour == 1u << 3);

	/* Whole lines. */
	CHECK(ca_cron_parse(&c, "0 12 * *", &err) < 0 && ca_cron_err_field(&err) == -1 &&
	    strcmp(err.msg, "a schedule has 5 fields (MIN HOUR DOM MONTH DOW), not 4") == 0);
	CHECK(ca_cron_parse(&c, "0 12 * * * *", &err) < 0 && ca_cron_err_field(&err) == -1);
	CHECK(ca_cron_parse(&c, "", &err) < 0 && ca_cron_err_field(&err) == -1);
	CHECK(ca_cron_parse(&c, "0 24 * * *", &err) < 0 &&
	    ca_cron_err_field(&err) == CA_CRON_HOUR && err.status == CA_EX_INPUT &&
	    strcmp(err.msg, "24 is out of range 0-23") == 0);

	/* Schedules that never run. */
	CHECK(ca_cron_parse(&c, "0 0 30 2 *", &err) < 0 &&
	    ca_cron_err_field(&err) == CA_CRON_MDAY && strcmp(err.msg, "day 30 never occurs in month 2") == 0);
	CHECK(ca_cron_parse(&c, "0 0 31 4,6,9,11 *", &err) < 0 &&
	    strcmp(err.msg, "day 31 never occurs in months 4,6,9,11") == 0);
	CHECK(ca_cron_parse(&c, "0 0 30,31 2 *", &err) < 0 &&
	    strcmp(err.msg, "days 30,31 never occur in month 2") == 0);
	/* ... but a day of the week makes them run ("or"), and 29 February does. */
	CHECK(ca_cron_parse(&c, "0 0 30 2 1", &err) == 0);
	CHECK(ca_cron_parse(&c, "0 0 29 2 *", &err) == 0);
	CHECK(ca_cron_parse(&c, "0 0 31 1-12 *", &err) == 0);

	/* Names and formatting. */
	CHECK(strcmp(ca_cron_field_name(CA_CRON_HOUR), "cron_hour") == 0);
	CHECK(strcmp(ca_cron_attr_name(CA_CRON_MDAY), "CronDayOfMonth") == 0);
	CHECK(ca_cron_field_min(CA_CRON_MDAY) == 1 && ca_cron_field_max(CA_CRON_WDAY) == 7);
	{
		char small[6];

		CHECK(ca_cron_format_set(CA_CRON_MINUTE, 0x15, small, sizeof small) == 5);
		CHECK(strcmp(small, "0,2,4") == 0);
		CHECK(ca_cron_format_set(CA_CRON_MINUTE, 0x55, small, sizeof small) == 7);
		CHECK(strcmp(small, "0,2,4") == 0);
		CHECK(ca_cron_format_set(CA_CRON_MINUTE, 0x3, small, sizeof small) == 3);
		CHECK(strcmp(small, "0,1") == 0);
	}
}

/* ---- the manual's examples ---- */

UNIT_SUITE(crontab_manual)
{
	int64_t t;

	tz_set("UTC");
	/* Run 23 minutes after every two hours, every day of the week. */
	t = utc(2025, 1, 28, 1, 0);
	CHECK(next_of("23 0-23/2 * * *", t) == utc(2025, 1, 28, 2, 23));
	CHECK(next_of("23 0-23/2 * * *", utc(2025, 1, 28, 22, 23)) == utc(2025, 1, 29, 0, 23));
	/* The same with the fields given one by one, the others "*". */
	{
		ca_cron c;
		ca_diag err;
		int64_t n;

		ca_cron_init(&c);
		CHECK(ca_cron_field(&c, CA_CRON_MINUTE, "23", &err) == 0);
		CHECK(ca_cron_field(&c, CA_CRON_HOUR, "0-23/2", &err) == 0);
		CHECK(ca_cron_next(&c, t, &n) == 0 && n == utc(2025, 1, 28, 2, 23));
	}

	/* 20:30 (the manual's "10:30pm" is 20:30) on May 10-20 and on every
	 * Tuesday in May (day 2 is Tuesday, not Monday). May 2025: Tuesdays are
	 * the 6th, 13th, 20th and 27th. */
	t = utc(2025, 1, 1, 0, 0);
	CHECK(next_of("30 20 10-20 5 2", t) == utc(2025, 5, 6, 20, 30));
	t = utc(2025, 5, 6, 20, 30);
	CHECK(next_of("30 20 10-20 5 2", t) == utc(2025, 5, 10, 20, 30));
	CHECK(next_of("30 20 10-20 5 2", utc(2025, 5, 20, 20, 30)) == utc(2025, 5, 27, 20, 30));
	CHECK(next_of("30 20 10-20 5 2", utc(2025, 5, 27, 20, 30)) == utc(2026, 5, 5, 20, 30));

	/* Every 10 and every 6 minutes before noon on 18 January. */
	t = utc(2025, 6, 1, 0, 0);
	CHECK(next_of("*/10,*/6 0-11 18 1 *", t) == utc(2026, 1, 18, 0, 0));
	CHECK(next_of("*/10,*/6 0-11 18 1 *", utc(2026, 1, 18, 0, 0)) == utc(2026, 1, 18, 0, 6));
	CHECK(next_of("*/10,*/6 0-11 18 1 *", utc(2026, 1, 18, 0, 6)) == utc(2026, 1, 18, 0, 10));
	CHECK(next_of("*/10,*/6 0-11 18 1 *", utc(2026, 1, 18, 11, 54)) == utc(2027, 1, 18, 0, 0));

	/* Top of every hour: submitted at 9:30, the next deferral time is 10:00. */
	CHECK(next_of("0 * * * *", utc(2025, 4, 1, 9, 30)) == utc(2025, 4, 1, 10, 0));
	/* "the current time rounded later in time to the next minute" */
	CHECK(next_of("* * * * *", utc(2025, 4, 1, 12, 0)) == utc(2025, 4, 1, 12, 1));
	CHECK(next_of("* * * * *", utc(2025, 4, 1, 12, 0) + 59) == utc(2025, 4, 1, 12, 1));
	CHECK(next_of("* * * * *", utc(2025, 4, 1, 12, 0) - 1) == utc(2025, 4, 1, 12, 0));
	CHECK(next_of("0 12 * * *", utc(2025, 4, 1, 12, 0)) == utc(2025, 4, 2, 12, 0));
	tz_restore();

	/* The deferral examples' epochs are noon in Chicago. */
	tz_set("America/Chicago");
	CHECK(next_of("0 12 1 1 *", 1136138400 - 1) == 1136138400);
	CHECK(next_of("0 12 1 1 *", 1262368800 - 3600) == 1262368800);
	tz_restore();
}

/* ---- calendar edges ---- */

UNIT_SUITE(crontab_calendar)
{
	tz_set("UTC");
	/* Month ends. */
	CHECK(next_of("0 0 31 * *", utc(2025, 4, 1, 0, 0)) == utc(2025, 5, 31, 0, 0));
	CHECK(next_of("0 0 31 * *", utc(2025, 1, 31, 0, 0)) == utc(2025, 3, 31, 0, 0));
	CHECK(next_of("59 23 30 * *", utc(2025, 1, 30, 23, 59)) == utc(2025, 3, 30, 23, 59));
	CHECK(next_of("0 0 1 * *", utc(2025, 1, 31, 23, 59)) == utc(2025, 2, 1, 0, 0));
	/* Year ends. */
	CHECK(next_of("* * * * *", utc(2025, 12, 31, 23, 59)) == utc(2026, 1, 1, 0, 0));
	CHECK(next_of("0 0 1 1 *", utc(2025, 1, 1, 0, 0)) == utc(2026, 1, 1, 0, 0));
	CHECK(next_of("59 23 31 12 *", utc(2025, 12, 31, 23, 59)) == utc(2026, 12, 31, 23, 59));
	/* Leap years: 29 February only. 2100 is not a leap year. */
	CHECK(next_of("0 0 29 2 *", utc(2025, 3, 1, 0, 0)) == utc(2028, 2, 29, 0, 0));
	CHECK(next_of("0 0 29 2 *", utc(2024, 2, 29, 0, 0)) == utc(2028, 2, 29, 0, 0));
	CHECK(next_of("0 0 29 2 *", utc(2096, 3, 1, 0, 0)) == utc(2104, 2, 29, 0, 0));
	CHECK(next_of("0 0 29 2 *", utc(1999, 3, 1, 0, 0)) == utc(2000, 2, 29, 0, 0));
	/* A Monday-only schedule in February runs on 29 February when it is a
	 * Monday (2044), and skips it when it is not (2024: a Thursday). */
	CHECK(next_of("0 12 * 2 1", utc(2044, 2, 23, 0, 0)) == utc(2044, 2, 29, 12, 0));
	CHECK(next_of("0 0 * 2 1", utc(2024, 2, 27, 0, 0)) == utc(2025, 2, 3, 0, 0));
	/* 29 February or a Monday in February ("or"): the first Monday comes first. */
	CHECK(next_of("0 0 29 2 1", utc(2025, 3, 1, 0, 0)) == utc(2026, 2, 2, 0, 0));
	CHECK(next_of("0 0 29 2 1", utc(2028, 2, 28, 0, 0)) == utc(2028, 2, 29, 0, 0));

	/* The day rule. Neither field restricts: every day. */
	CHECK(next_of("0 0 * * *", utc(2025, 1, 28, 12, 0)) == utc(2025, 1, 29, 0, 0));
	CHECK(next_of("0 0 1-31 * 0-7", utc(2025, 1, 28, 12, 0)) == utc(2025, 1, 29, 0, 0));
	/* Only the day of the week: Mondays, across a month end (HTCondor gives
	 * Friday 31 January here). */
	CHECK(next_of("0 0 * * 1", utc(2025, 1, 28, 12, 0)) == utc(2025, 2, 3, 0, 0));
	CHECK(next_of("* * * * 1", utc(2025, 1, 29, 0, 0)) == utc(2025, 2, 3, 0, 0));
	CHECK(next_of("0 0 * * 0", utc(2025, 3, 31, 12, 0)) == utc(2025, 4, 6, 0, 0));
	CHECK(next_of("0 0 * * 7", utc(2025, 3, 31, 12, 0)) == utc(2025, 4, 6, 0, 0));
	/* Only the day of the month: "*" for the weekday does not widen it. */
	CHECK(next_of("0 0 15 * *", utc(2025, 1, 16, 0, 0)) == utc(2025, 2, 15, 0, 0));
	/* Both: either one. 2025-01-28 is a Tuesday; the next Friday is the 31st. */
	CHECK(next_of("0 0 1 * 5", utc(2025, 1, 28, 12, 0)) == utc(2025, 1, 31, 0, 0));
	CHECK(next_of("0 0 1 * 5", utc(2025, 1, 31, 0, 0)) == utc(2025, 2, 1, 0, 0));
	/* A weekday step restricts: Sunday, Tuesday, Thursday, Saturday. */
	CHECK(next_of("0 0 * * */2", utc(2025, 1, 28, 12, 0)) == utc(2025, 1, 30, 0, 0));
	/* A day-of-month step restricts: 2, 4, ..., 30 (2025-01-31 is odd). */
	CHECK(next_of("0 0 */2 * *", utc(2025, 1, 30, 12, 0)) == utc(2025, 2, 2, 0, 0));

	/* Before 1970 and near the end of the supported range. */
	CHECK(next_of("30 6 * * *", utc(1969, 12, 31, 12, 0)) == utc(1970, 1, 1, 6, 30));
	CHECK(next_of("0 0 1 1 *", utc(1900, 6, 1, 0, 0)) == utc(1901, 1, 1, 0, 0));
	CHECK(next_of("59 23 31 12 *", utc(9999, 12, 31, 0, 0)) == utc(9999, 12, 31, 23, 59));
	CHECK(next_of("0 0 1 1 *", utc(9999, 6, 1, 0, 0)) == -1);
	{
		ca_cron c;
		int64_t n;

		ca_cron_init(&c);
		CHECK(ca_cron_next(&c, INT64_MAX, &n) == -1);
		CHECK(ca_cron_next(&c, INT64_MIN, &n) == -1);
		c.hour = 0;	/* not from the parser: an empty set never runs */
		CHECK(ca_cron_next(&c, 0, &n) == -1);
	}
	tz_restore();
}

/* ---- daylight saving (America/Chicago: 2025-03-09 02:00 CST -> 03:00 CDT,
 * 2025-11-02 02:00 CDT -> 01:00 CST) ---- */

UNIT_SUITE(crontab_dst)
{
	char iso[CA_CRON_ISOLEN];

	tz_set("America/Chicago");
	/* Spring: 02:30 does not exist on 9 March, so that day does not run. */
	CHECK(next_of("30 2 * * *", at(2025, 3, 8, 12, 0, -6)) == at(2025, 3, 10, 2, 30, -5));
	CHECK(next_of("30 2 * * *", at(2025, 3, 9, 1, 59, -6)) == at(2025, 3, 10, 2, 30, -5));
	CHECK(next_of("*/30 * * * *", at(2025, 3, 9, 1, 30, -6)) == at(2025, 3, 9, 3, 0, -5));
	CHECK(next_of("* * * * *", at(2025, 3, 9, 1, 59, -6)) == at(2025, 3, 9, 3, 0, -5));
	CHECK(next_of("0 3 * * *", at(2025, 3, 9, 1, 0, -6)) == at(2025, 3, 9, 3, 0, -5));
	CHECK(next_of("0 1 * * *", at(2025, 3, 8, 12, 0, -6)) == at(2025, 3, 9, 1, 0, -6));
	/* Autumn: 01:30 happens twice on 2 November and runs once, the first time. */
	CHECK(next_of("30 1 * * *", at(2025, 11, 2, 0, 0, -5)) == at(2025, 11, 2, 1, 30, -5));
	CHECK(next_of("30 1 * * *", at(2025, 11, 2, 1, 30, -5)) == at(2025, 11, 3, 1, 30, -6));
	CHECK(next_of("*/30 * * * *", at(2025, 11, 2, 1, 30, -5)) == at(2025, 11, 2, 2, 0, -6));
	CHECK(next_of("*/30 * * * *", at(2025, 11, 2, 1, 45, -5)) == at(2025, 11, 2, 2, 0, -6));
	CHECK(next_of("* * * * *", at(2025, 11, 2, 1, 59, -5)) == at(2025, 11, 2, 2, 0, -6));
	/* Starting inside the repeated hour (01:10 CST, the second pass). */
	CHECK(next_of("* * * * *", at(2025, 11, 2, 1, 10, -6)) == at(2025, 11, 2, 2, 0, -6));
	CHECK(next_of("15 2 * * *", at(2025, 11, 2, 1, 10, -6)) == at(2025, 11, 2, 2, 15, -6));
	CHECK(next_of("0 0 * * *", at(2025, 11, 1, 12, 0, -5)) == at(2025, 11, 2, 0, 0, -5));
	CHECK(next_of("0 0 * * *", at(2025, 11, 2, 0, 0, -5)) == at(2025, 11, 3, 0, 0, -6));
	/* Yearly schedules seen from months away: the repeated 01:30 still runs
	 * at its first occurrence, the missing 02:30 still does not run. */
	CHECK(next_of("30 1 2 11 *", at(2025, 2, 1, 0, 0, -6)) == at(2025, 11, 2, 1, 30, -5));
	CHECK(next_of("30 1 2 11 *", at(2025, 11, 2, 1, 30, -5)) == at(2026, 11, 2, 1, 30, -6));
	CHECK(next_of("30 2 9 3 *", at(2024, 11, 10, 0, 0, -6)) == at(2026, 3, 9, 2, 30, -5));
	/* A monthly schedule across the change. */
	CHECK(next_of("0 12 15 * *", at(2025, 10, 20, 0, 0, -5)) == at(2025, 11, 15, 12, 0, -6));
	CHECK(next_of("0 12 15 * *", at(2025, 2, 20, 0, 0, -6)) == at(2025, 3, 15, 12, 0, -5));

	ca_cron_isotime(at(2025, 11, 2, 1, 30, -5), iso);
	CHECK(strcmp(iso, "2025-11-02T01:30:00-05:00") == 0);
	ca_cron_isotime(at(2025, 11, 2, 1, 30, -6), iso);
	CHECK(strcmp(iso, "2025-11-02T01:30:00-06:00") == 0);
	tz_restore();

	/* A zone whose day begins with the gap: 00:00 does not exist. */
	tz_set("America/Sao_Paulo");
	CHECK(next_of("0 0 * * *", at(2018, 11, 3, 12, 0, -3)) == at(2018, 11, 5, 0, 0, -2));
	CHECK(next_of("30 0 * * *", at(2018, 11, 3, 12, 0, -3)) == at(2018, 11, 5, 0, 30, -2));
	CHECK(next_of("0 1 * * *", at(2018, 11, 3, 12, 0, -3)) == at(2018, 11, 4, 1, 0, -2));
	tz_restore();

	tz_set("UTC");
	ca_cron_isotime(utc(2025, 5, 6, 20, 30), iso);
	CHECK(strcmp(iso, "2025-05-06T20:30:00+00:00") == 0);
	tz_restore();
	tz_set("Asia/Kolkata");
	CHECK(next_of("0 9 * * *", utc(2025, 1, 1, 0, 0)) == utc(2025, 1, 1, 3, 30));
	ca_cron_isotime(utc(2025, 1, 1, 3, 30), iso);
	CHECK(strcmp(iso, "2025-01-01T09:00:00+05:30") == 0);
	tz_restore();
}

/* ---- brute force ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t
rnd(void)
{
	return unit_rand(&rng_state);
}

static int
rndin(int lo, int hi)
{
	return lo + (int)(rnd() % (uint64_t)(hi - lo + 1));
}

/* A random field text and, computed here from the same choices, the set it
 * must give: density says how likely "*" is (percent). */
static void
gen_field(int f, int star, char *text, size_t len, uint64_t *set)
{
	int lo = ca_cron_field_min(f), hi = ca_cron_field_max(f);
	int n, o = 0;

	*set = 0;
	if (rndin(1, 100) <= star) {
		snprintf(text, len, "*");
		for (int v = lo; v <= hi; v++)
			*set |= (uint64_t)1 << (f == CA_CRON_WDAY && v == 7 ? 0 : v);
		return;
	}
	n = rndin(1, 3);
	for (int i = 0; i < n; i++) {
		int kind, a, b, step;
		uint64_t bits;

		do {	/* a token must select something ("10-11/7" is an error) */
			kind = rndin(0, 3);
			a = rndin(lo, hi);
			b = rndin(lo, hi);
			step = kind == 2 ? rndin(1, 12) : kind == 3 ? rndin(1, 8) : 1;
			if (a > b) {
				int tmp = a;

				a = b;
				b = tmp;
			}
			if (kind == 0)
				b = a;
			if (kind == 2) {
				a = lo;
				b = hi;
			}
			bits = 0;
			for (int v = a; v <= b; v++) {
				int w = f == CA_CRON_WDAY && v == 7 ? 0 : v;

				if (w % step == 0)
					bits |= (uint64_t)1 << w;
			}
		} while (bits == 0);
		*set |= bits;
		if (kind == 0)
			o += snprintf(text + o, len - (size_t)o, "%s%d", i ? "," : "", a);
		else if (kind == 1)
			o += snprintf(text + o, len - (size_t)o, "%s%d-%d", i ? "," : "", a, b);
		else if (kind == 2)
			o += snprintf(text + o, len - (size_t)o, "%s*/%d", i ? "," : "", step);
		else
			o += snprintf(text + o, len - (size_t)o, "%s%d-%d/%d", i ? "," : "", a, b,
			    step);
	}
}

/* The slow answer: does the wall-clock time tm match (the day rule written
 * out from its definition)? */
static bool
matches(const uint64_t set[CA_CRON_NFIELDS], const struct tm *tm)
{
	bool dom_r = set[CA_CRON_MDAY] != 0xfffffffeull;
	bool dow_r = set[CA_CRON_WDAY] != 0x7full;
	bool dom = set[CA_CRON_MDAY] >> tm->tm_mday & 1;
	bool dow = set[CA_CRON_WDAY] >> tm->tm_wday & 1;
	bool day;

	if (dom_r && dow_r)
		day = dom || dow;
	else if (dom_r)
		day = dom;
	else if (dow_r)
		day = dow;
	else
		day = true;
	return day && (set[CA_CRON_MINUTE] >> tm->tm_min & 1) &&
	    (set[CA_CRON_HOUR] >> tm->tm_hour & 1) &&
	    (set[CA_CRON_MONTH] >> (tm->tm_mon + 1) & 1);
}

/* Minute by minute in UTC with a calendar kept here, checked against
 * gmtime_r at every day change: the first matching minute after now, or -1
 * when there is none within `limit` minutes. */
static int64_t
slow_utc(const uint64_t set[CA_CRON_NFIELDS], int64_t now, int64_t limit)
{
	static const int mlen[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int64_t t = (now / 60) * 60 + 60;	/* now >= 0 here */
	time_t tt = (time_t)t;
	struct tm tm, chk;

	gmtime_r(&tt, &tm);
	for (int64_t i = 0; i < limit; i++, t += 60) {
		if (matches(set, &tm))
			return t;
		if (++tm.tm_min < 60)
			continue;
		tm.tm_min = 0;
		if (++tm.tm_hour < 24)
			continue;
		tm.tm_hour = 0;
		tm.tm_wday = (tm.tm_wday + 1) % 7;
		{
			int y = tm.tm_year + 1900;
			int len = mlen[tm.tm_mon] + (tm.tm_mon == 1 &&
			    ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));

			if (++tm.tm_mday > len) {
				tm.tm_mday = 1;
				if (++tm.tm_mon == 12) {
					tm.tm_mon = 0;
					tm.tm_year++;
				}
			}
		}
		tt = (time_t)(t + 60);
		gmtime_r(&tt, &chk);
		if (chk.tm_mday != tm.tm_mday || chk.tm_mon != tm.tm_mon ||
		    chk.tm_year != tm.tm_year || chk.tm_wday != tm.tm_wday) {
			fprintf(stderr, "  slow_utc: calendar went wrong at %lld\n", (long long)t);
			return -2;
		}
	}
	return -1;
}

/* Minute by minute with localtime_r: the first instant after now whose
 * wall-clock minute matches and was never shown before (the wall clock
 * reading is above every earlier reading, tracked from a day before now). */
static int64_t
slow_local(const uint64_t set[CA_CRON_NFIELDS], int64_t now, int64_t limit)
{
	int64_t t = (now / 60) * 60 - 86400, seen = INT64_MIN;
	struct tm tm, w;

	for (int64_t i = 0; i < limit + 1440; i++, t += 60) {
		time_t tt = (time_t)t;
		int64_t wall;

		localtime_r(&tt, &tm);
		w = tm;
		wall = (int64_t)timegm(&w);	/* the reading, counted as if UTC */
		if (t > now && wall > seen && matches(set, &tm))
			return t;
		if (wall > seen)
			seen = wall;
	}
	return -1;
}

/* A random schedule: texts, the sets they must give, and the parsed form. */
static bool
gen_schedule(const int star[CA_CRON_NFIELDS], uint64_t set[CA_CRON_NFIELDS],
    ca_cron *c, char *line, size_t len)
{
	char text[CA_CRON_NFIELDS][64];
	ca_diag err;

	for (int f = 0; f < CA_CRON_NFIELDS; f++)
		gen_field(f, star[f], text[f], sizeof text[f], &set[f]);
	snprintf(line, len, "%s %s %s %s %s", text[0], text[1], text[2], text[3], text[4]);
	if (ca_cron_parse(c, line, &err) < 0) {
		/* Only an impossible day (31 in February alone...) may fail. */
		if (ca_cron_err_field(&err) != CA_CRON_MDAY || strstr(err.msg, "never occur") == NULL) {
			fprintf(stderr, "  %s: %s\n", line, err.msg);
			CHECK(0);
		}
		return false;
	}
	for (int f = 0; f < CA_CRON_NFIELDS; f++)
		if (ca_cron_set(c, f) != set[f]) {
			fprintf(stderr, "  %s: field %d set differs\n", line, f);
			CHECK(0);
			return false;
		}
	return true;
}

UNIT_SUITE(crontab_brute_utc)
{
	static const int star[CA_CRON_NFIELDS] = { 30, 40, 60, 50, 60 };
	int compared = 0, agree = 0;

	tz_set("UTC");
	for (int i = 0; i < 4000; i++) {
		uint64_t set[CA_CRON_NFIELDS];
		ca_cron c;
		char line[400];
		int64_t now, fast, slow;

		if (!gen_schedule(star, set, &c, line, sizeof line))
			continue;
		/* 1970-2100, at any second. */
		now = (int64_t)(rnd() % (uint64_t)4102444800);
		if (ca_cron_next(&c, now, &fast) < 0)
			fast = -1;
		slow = slow_utc(set, now, 9LL * 366 * 1440);
		compared++;
		if (fast == slow)
			agree++;
		else if (compared - agree <= 5)
			fprintf(stderr, "  '%s' after %lld: %lld, slow search %lld\n", line,
			    (long long)now, (long long)fast, (long long)slow);
	}
	CHECK(compared > 3000);
	CHECK(agree == compared);
	tz_restore();
}

/* Offset changes of the zone in force during year y (at most 8). */
static int
transitions(int y, int64_t *out)
{
	int n = 0;
	int64_t t = utc(y, 1, 1, 0, 0), end = utc(y + 1, 1, 1, 0, 0);
	long prev = -999999;

	for (; t < end && n < 8; t += 1800) {
		time_t tt = (time_t)t;
		struct tm tm;
		long off;

		localtime_r(&tt, &tm);
		off = (long)(timegm(&tm) - t);
		if (prev != -999999 && off != prev)
			out[n++] = t;
		prev = off;
	}
	return n;
}

UNIT_SUITE(crontab_brute_dst)
{
	static const char *const zones[] = {
		"America/Chicago", "Europe/London", "Australia/Lord_Howe", "America/Sao_Paulo"
	};
	/* Dense days (answers within days), any minutes and hours. */
	static const int star[CA_CRON_NFIELDS] = { 20, 30, 85, 95, 80 };
	int compared = 0, agree = 0;

	for (size_t z = 0; z < sizeof zones / sizeof zones[0]; z++) {
		int64_t tr[8 * 8];
		int ntr = 0;

		tz_set(zones[z]);
		for (int y = 2010; y < 2018; y++)
			ntr += transitions(y, tr + ntr);
		CHECK(ntr >= 8);
		for (int i = 0; i < 250 && ntr > 0; i++) {
			uint64_t set[CA_CRON_NFIELDS];
			ca_cron c;
			char line[400];
			int64_t now, fast, slow;

			if (!gen_schedule(star, set, &c, line, sizeof line))
				continue;
			/* Within a day and a half of an offset change. */
			now = tr[rnd() % (uint64_t)ntr] + (int64_t)(rnd() % 129600) - 64800;
			if (ca_cron_next(&c, now, &fast) < 0)
				fast = -1;
			slow = slow_local(set, now, 6 * 1440);
			if (slow < 0)
				continue;	/* too far for the slow search */
			compared++;
			if (fast == slow)
				agree++;
			else if (compared - agree <= 5)
				fprintf(stderr, "  %s: '%s' after %lld: %lld, slow search %lld\n",
				    zones[z], line, (long long)now, (long long)fast, (long long)slow);
		}
		tz_restore();
	}
	CHECK(compared > 600);
	CHECK(agree == compared);
}

/* Sparser days seen from up to a month before a change, so that the run
 * found lies on the other side of it. */
UNIT_SUITE(crontab_brute_dst_far)
{
	static const int star[CA_CRON_NFIELDS] = { 30, 40, 40, 95, 50 };
	int64_t tr[8 * 8];
	int ntr = 0, compared = 0, agree = 0;

	tz_set("America/Chicago");
	for (int y = 2020; y < 2024; y++)
		ntr += transitions(y, tr + ntr);
	CHECK(ntr == 8);
	for (int i = 0; i < 150 && ntr > 0; i++) {
		uint64_t set[CA_CRON_NFIELDS];
		ca_cron c;
		char line[400];
		int64_t now, fast, slow;

		if (!gen_schedule(star, set, &c, line, sizeof line))
			continue;
		now = tr[rnd() % (uint64_t)ntr] - (int64_t)(rnd() % (30 * 86400));
		if (ca_cron_next(&c, now, &fast) < 0)
			fast = -1;
		slow = slow_local(set, now, 40 * 1440);
		if (slow < 0)
			continue;
		compared++;
		if (fast == slow)
			agree++;
		else if (compared - agree <= 5)
			fprintf(stderr, "  '%s' after %lld: %lld, slow search %lld\n", line,
			    (long long)now, (long long)fast, (long long)slow);
	}
	CHECK(compared > 100);
	CHECK(agree == compared);
	tz_restore();
}

/* Far-away runs take microseconds, not a scan. */
UNIT_SUITE(crontab_far)
{
	ca_cron c;
	ca_diag err;
	struct timespec a, b;
	int64_t n = 0;
	double us;

	tz_set("America/Chicago");
	CHECK(ca_cron_parse(&c, "0 0 29 2 *", &err) == 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < 1000; i++)
		CHECK(ca_cron_next(&c, at(2096, 3, 1, 0, 0, -6) + i, &n) == 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	us = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / 1e3 / 1000;
	CHECK(n == at(2104, 2, 29, 0, 0, -6));
	CHECK(us < 100);
	tz_restore();
}
