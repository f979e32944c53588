/* bi_time.c - builtins of time: the clock, absTime() and relTime(), their
 * fields (getYear(), ...), splitTime(), formatTime() and interval(). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtins_int.h"
#include "eval.h"
#include "expr.h"
#include "timeparse.h"

static bool
local_tm(int64_t secs, struct tm *tm)
{
	time_t t = (time_t)secs;

	return (int64_t)t == secs && localtime_r(&t, tm) != NULL;
}

/* The fields of an absolute time in its own offset. */
static bool
own_tm(int64_t secs, int32_t off, struct tm *tm)
{
	int64_t s;
	time_t t;

	if (__builtin_add_overflow(secs, (int64_t)off, &s))
		return false;
	t = (time_t)s;
	if ((int64_t)t != s || gmtime_r(&t, tm) == NULL)
		return false;
	tm->tm_gmtoff = off;
	if (off != 0)
		tm->tm_zone = "";
	return true;
}

/* An absolute time at secs with the local offset then in force. */
static ca_value
local_abstime(int64_t secs)
{
	int32_t off;

	if (ca_local_offset(secs, &off) < 0)
		return ca_error("time outside the range of the C library");
	return ca_abstime(secs, off);
}

/* time(): the evaluation's clock, seconds since the epoch. */
ca_value
ca_bi_time(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	return ca_int(cx->now);
}

/* currentTime(): now as an absolute time in the local offset. */
ca_value
ca_bi_current_time(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	return local_abstime(cx->now);
}

/* timeZoneOffset(): the local offset from UTC now, a relative time. */
ca_value
ca_bi_tz_offset(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	int32_t off;

	if (ca_local_offset(cx->now, &off) < 0)
		return ca_error("timeZoneOffset: clock outside the range of the C library");
	return ca_reltime(off);
}

/* dayTime(): seconds since local midnight now, a relative time. */
ca_value
ca_bi_day_time(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	struct tm tm;

	if (!local_tm(cx->now, &tm))
		return ca_error("dayTime: clock outside the range of the C library");
	return ca_reltime(tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec);
}

/* absTime() is now; absTime(t [, z]): seconds since the epoch (int, real,
 * relative time) with offset z (int, real or relative time, whole seconds)
 * or the local one; an absolute time unchanged. A string that was not a
 * literal (folded by the parser) comes back unchanged, as in HTCondor. As
 * HTCondor's, the offset must be a number even where it is not used, and
 * an integer time with an offset of -1 second fails the evaluation
 * (HTCondor takes -1 for "no offset" there). */
ca_value
ca_bi_abstime(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	int64_t secs, z = 0;
	bool zok = true;

	if (argc == 0)
		return local_abstime(cx->now);
	if (argc == 2) {
		ca_value o = argv[1];
		if (o.kind == CA_INT)
			z = o.u.i;
		else if (o.kind == CA_REAL || o.kind == CA_RELTIME)
			zok = ca_bi_real_to_int(o.u.r, &z);
		else
			return error_or(o, "absTime: offset is not a number");
	}
	ca_value t = argv[0];
	switch (t.kind) {
	case CA_UNDEFINED:
	case CA_ERROR:
	case CA_STRING:
	case CA_ABSTIME:
		return t;
	case CA_INT:
		if (argc == 2 && zok && z == -1)
			return ca_eval_fail(cx, "absTime: an offset of -1 s with an integer time");
		secs = t.u.i;
		break;
	case CA_REAL:
	case CA_RELTIME:
		if (!ca_bi_real_to_int(t.u.r, &secs))
			return ca_error("absTime: time out of range");
		break;
	default:
		return ca_error("absTime: argument is not a number or time");
	}
	if (!zok || z < -INT32_MAX || z > INT32_MAX)
		return ca_error("absTime: offset out of range");
	int64_t local;
	if (__builtin_add_overflow(secs, z, &local))
		return ca_error("absTime: time out of range");
	return argc == 2 ? ca_abstime(secs, (int32_t)z) : local_abstime(secs);
}

/* relTime(t): seconds as a relative time (an absolute time gives its
 * seconds since the epoch). A string that was not a literal gives 0, as
 * in HTCondor. */
ca_value
ca_bi_reltime(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value t = argv[0];

	switch (t.kind) {
	case CA_UNDEFINED:
	case CA_ERROR:
	case CA_RELTIME:
		return t;
	case CA_INT:
		return ca_reltime((double)t.u.i);
	case CA_REAL:
		return ca_reltime(t.u.r);
	case CA_ABSTIME:
		return ca_reltime((double)t.u.i);
	case CA_STRING:
		return ca_reltime(0);
	default:
		return ca_error("relTime: argument is not a number or time");
	}
}

/* The relative-time split: days, hours, minutes and seconds with the sign
 * on the most significant nonzero field. false when r is not a number of
 * seconds in the int64 range. */
static bool
split_rel(double r, int64_t *d, int64_t *h, int64_t *m, double *s)
{
	bool neg = r < 0;
	double a = neg ? -r : r;
	int64_t whole;

	if (!ca_bi_real_to_int(a, &whole))
		return false;
	*d = whole / 86400;
	*h = whole % 86400 / 3600;
	*m = whole % 3600 / 60;
	*s = (double)(whole % 60) + (a - floor(a));
	if (neg) {
		if (*d > 0)
			*d = -*d;
		else if (*h > 0)
			*h = -*h;
		else if (*m > 0)
			*m = -*m;
		else
			*s = -*s;
	}
	return true;
}

/* getYear(t), getMonth(t), ..., getSeconds(t) (op: the field): a field of
 * an absolute time in local time (its own offset is ignored, as in
 * HTCondor), or of a relative time (C division, so -90 seconds is -1 minute
 * and -30 seconds). getDayOfYear is 0 for January 1st (tm_yday, as in
 * HTCondor), getDayOfWeek 0 for Sunday. */
ca_value
ca_bi_time_field(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	static const char *const whys[] = {
		[F_YEAR] = "getYear: argument is not an absolute time",
		[F_MONTH] = "getMonth: argument is not an absolute time",
		[F_DAYOFYEAR] = "getDayOfYear: argument is not an absolute time",
		[F_DAYOFMONTH] = "getDayOfMonth: argument is not an absolute time",
		[F_DAYOFWEEK] = "getDayOfWeek: argument is not an absolute time",
		[F_DAYS] = "getDays: argument is not a relative time",
		[F_HOURS] = "getHours: argument is not a time",
		[F_MINUTES] = "getMinutes: argument is not a time",
		[F_SECONDS] = "getSeconds: argument is not a time",
	};
	ca_value t = argv[0];
	const char *why = whys[op];

	if (t.kind == CA_ABSTIME) {
		struct tm tm;
		if (!local_tm(t.u.i, &tm))
			return ca_error("time outside the range of the C library");
		switch (op) {
		case F_YEAR: return ca_int((int64_t)tm.tm_year + 1900);
		case F_MONTH: return ca_int(tm.tm_mon + 1);
		case F_DAYOFYEAR: return ca_int(tm.tm_yday);
		case F_DAYOFMONTH: return ca_int(tm.tm_mday);
		case F_DAYOFWEEK: return ca_int(tm.tm_wday);
		case F_HOURS: return ca_int(tm.tm_hour);
		case F_MINUTES: return ca_int(tm.tm_min);
		case F_SECONDS: return ca_int(tm.tm_sec);
		default: return ca_error(why);
		}
	}
	if (t.kind == CA_RELTIME) {
		int64_t s;
		if (!ca_bi_real_to_int(t.u.r, &s))
			return ca_error("relative time out of the integer range");
		switch (op) {
		case F_DAYS: return ca_int(s / 86400);
		case F_HOURS: return ca_int(s % 86400 / 3600);
		case F_MINUTES: return ca_int(s % 3600 / 60);
		case F_SECONDS: return ca_int(s % 60);
		default: return ca_error(why);
		}
	}
	if (t.kind == CA_ERROR)
		return t;
	return ca_error(why);
}

/* The absolute time a number stands for in splitTime/formatTime: its
 * seconds in the local offset. */
static bool
number_time(ca_value t, int64_t *secs)
{
	if (t.kind == CA_INT) {
		*secs = t.u.i;
		return true;
	}
	return t.kind == CA_REAL && ca_bi_real_to_int(t.u.r, secs);
}

/* Set name in ad (of the scratch arena) to the literal v, spelled so. */
static void
ad_put(ca_ad *ad, const char *name, ca_value v)
{
	size_t n = strlen(name);
	const ca_name *nm = ca_intern(name, n);

	ca_ad_set(ad, nm, ca_name_spelling(ad->arena, nm, name, n), ca_expr_lit(ad->arena, v));
}

/* splitTime(t): a record of the fields of an absolute time (a number is
 * one in local time) or of a relative time; a record is an ERROR, as in
 * HTCondor (formatTime() takes one). */
ca_value
ca_bi_split_time(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value t = argv[0];
	int64_t secs;
	int32_t off;
	struct tm tm;

	switch (t.kind) {
	case CA_UNDEFINED:
	case CA_ERROR:
		return t;
	case CA_AD:
		return ca_error("splitTime: argument is a record");
	case CA_RELTIME: {
		int64_t d, h, m;
		double s;
		if (!split_rel(t.u.r, &d, &h, &m, &s))
			return ca_error("splitTime: relative time out of the integer range");
		ca_ad *ad = ca_ad_new_in(&cx->scratch);
		ad_put(ad, "Type", ca_str("RelativeTime", 12));
		ad_put(ad, "Days", ca_int(d));
		ad_put(ad, "Hours", ca_int(h));
		ad_put(ad, "Minutes", ca_int(m));
		ad_put(ad, "Seconds", ca_real(s));
		return ca_make_adval(cx, ad, NULL);
	}
	case CA_ABSTIME:
		secs = t.u.i;
		off = t.x.off;
		break;
	default:
		if (!number_time(t, &secs))
			return ca_error("splitTime: argument is not a time or number");
		if (ca_local_offset(secs, &off) < 0)
			return ca_error("splitTime: time outside the range of the C library");
		break;
	}
	if (!own_tm(secs, off, &tm))
		return ca_error("splitTime: time outside the range of the C library");
	ca_ad *ad = ca_ad_new_in(&cx->scratch);
	ad_put(ad, "Type", ca_str("AbsoluteTime", 12));
	ad_put(ad, "Year", ca_int((int64_t)tm.tm_year + 1900));
	ad_put(ad, "Month", ca_int(tm.tm_mon + 1));
	ad_put(ad, "Day", ca_int(tm.tm_mday));
	ad_put(ad, "Hours", ca_int(tm.tm_hour));
	ad_put(ad, "Minutes", ca_int(tm.tm_min));
	ad_put(ad, "Seconds", ca_int(tm.tm_sec));
	ad_put(ad, "Offset", ca_int(off));
	return ca_make_adval(cx, ad, NULL);
}

/* An integer field of a split-time record (dflt when absent, 0 when not a
 * number; kept within +-1e9 so that struct tm arithmetic cannot overflow). */
static int
record_field(ca_ctx *cx, const ca_adval *av, const char *name, int dflt)
{
	const ca_name *nm = ca_intern_find(name, strlen(name));
	ca_attr *at = nm ? ca_ad_find(av->ad, nm) : NULL;
	int64_t i;

	if (at == NULL)
		return dflt;
	ca_frame af;
	ca_adval_frame(av, &af);
	ca_value v = ca_eval(cx, ca_attr_expr(av->ad, at), &af);
	if (v.kind == CA_INT)
		i = v.u.i;
	else if (v.kind != CA_REAL || !ca_bi_real_to_int(v.u.r, &i))
		return 0;
	return i < -1000000000 ? -1000000000 : i > 1000000000 ? 1000000000 : (int)i;
}

/* strftime into a string value. No conversion writes more than 128 bytes
 * per byte of its specification, so the buffer is sized from the format
 * and a result of 0 bytes is an empty one. */
static ca_value
format_tm(ca_ctx *cx, const struct tm *tm, const char *fmt)
{
	size_t len = strlen(fmt);

	if (len > (1u << 17))
		return ca_error("formatTime: format too long");
	size_t cap = 256 + 128 * len;
	char *buf = ca_xmalloc(cap);
	size_t n = strftime(buf, cap, fmt, tm);
	ca_value v = ca_str_new(&cx->scratch, buf, n);
	free(buf);
	return v;
}

/* formatTime([t [, fmt]]): strftime of the fields of t (an absolute time
 * in its own offset, a number in local time, or a splitTime record) with
 * fmt, "%c" by default; no arguments: now in local time. */
ca_value
ca_bi_format_time(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	struct tm tm;
	int64_t secs;

	if (argc == 0) {
		if (!local_tm(cx->now, &tm))
			return ca_error("formatTime: clock outside the range of the C library");
		return format_tm(cx, &tm, "%c");
	}
	ca_value t = argv[0];
	switch (t.kind) {
	case CA_ABSTIME:
		if (!own_tm(t.u.i, t.x.off, &tm))
			return ca_error("formatTime: time outside the range of the C library");
		break;
	case CA_AD: {
		/* a splitTime record: its fields as they are (a missing one
		 * is 0 in struct tm, as in HTCondor: year 1900, January, day
		 * 0), the weekday and day of the year computed for that date */
		const ca_adval *av = t.u.ad;
		memset(&tm, 0, sizeof tm);
		tm.tm_year = record_field(cx, av, "Year", 1900) - 1900;
		tm.tm_mon = record_field(cx, av, "Month", 1) - 1;
		tm.tm_mday = record_field(cx, av, "Day", 0);
		tm.tm_hour = record_field(cx, av, "Hours", 0);
		tm.tm_min = record_field(cx, av, "Minutes", 0);
		tm.tm_sec = record_field(cx, av, "Seconds", 0);
		struct tm norm = tm;
		norm.tm_hour = norm.tm_min = norm.tm_sec = 0;
		(void)timegm(&norm);
		tm.tm_wday = norm.tm_wday;
		tm.tm_yday = norm.tm_yday;
		tm.tm_zone = "";
		break;
	}
	case CA_RELTIME:
		return ca_error("formatTime: argument is a relative time");
	case CA_ERROR:
		return t;
	default:
		if (!number_time(t, &secs))
			return ca_error("formatTime: argument is not a time or number");
		if (!local_tm(secs, &tm))
			return ca_error("formatTime: time outside the range of the C library");
		break;
	}
	if (argc == 2) {
		if (argv[1].kind != CA_STRING)
			return error_or(argv[1], "formatTime: format is not a string");
		return format_tm(cx, &tm, argv[1].u.s);
	}
	return format_tm(cx, &tm, "%c");
}

/* interval(secs): "[-]d+hh:mm:ss" with the zero leading fields dropped:
 * 67 is "1:07", 1472523 "17+01:02:03", -67 "-1:07". */
ca_value
ca_bi_interval(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	int64_t t = 0;
	char buf[80];

	if (argv[0].kind == CA_ERROR)
		return argv[0];
	switch (ca_bi_conv_int(argv[0], &t)) {
	case N_UNDEF:
		return ca_error("interval: argument is undefined");
	case N_BAD:
		return ca_error("interval: argument is not a number");
	default:
		break;
	}
	long long days = t / 86400, rest = t % 86400;
	long long h = rest / 3600, m = rest % 3600 / 60, s = rest % 60;
	if (days != 0)
		snprintf(buf, sizeof buf, "%lld+%02lld:%02lld:%02lld", days, llabs(h), llabs(m),
		    llabs(s));
	else if (h != 0)
		snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", h, llabs(m), llabs(s));
	else if (m != 0)
		snprintf(buf, sizeof buf, "%lld:%02lld", m, llabs(s));
	else
		snprintf(buf, sizeof buf, "%lld", s);
	return ca_str_new(&cx->scratch, buf, strlen(buf));
}
