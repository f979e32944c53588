/* crontab.c - HTCondor CronTab schedules: fields parsed into bit sets, and the
 * next run found by jumping field by field through civil time. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "crontab.h"

#define DAY		86400
/* Offset changes are taken to be more than TZ_GAP apart; probes TZ_PROBE
 * either side of a wall-clock time see every instant that can show it
 * (UTC offsets stay within +-15 hours, a change within one day). */
#define TZ_GAP		(4 * DAY)
#define TZ_PROBE	(2 * DAY)
#define YEAR_MAX	9999
/* Numbers above this are too large for any field; parsing stops there. */
#define NUM_CAP		1000000

/* ORDER FIELDS */
static const char *const field_names[CA_CRON_NFIELDS] = {
	"cron_minute", "cron_hour", "cron_day_of_month", "cron_month", "cron_day_of_week"
};
static const char *const attr_names[CA_CRON_NFIELDS] = {
	"CronMinute", "CronHour", "CronDayOfMonth", "CronMonth", "CronDayOfWeek"
};
static const int field_min[CA_CRON_NFIELDS] = { 0, 0, 1, 1, 0 };
static const int field_max[CA_CRON_NFIELDS] = { 59, 23, 31, 12, 7 };

/* Days before each month in a common year. */
static const int month_start[12] = {
	0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334
};

#define MDAY_ALL	0xfffffffeu	/* days 1-31 */
#define WDAY_ALL	0x7fu		/* Sunday-Saturday */

const char *
ca_cron_field_name(int field)
{
	return field >= 0 && field < CA_CRON_NFIELDS ? field_names[field] : "schedule";
}

const char *
ca_cron_attr_name(int field)
{
	return field >= 0 && field < CA_CRON_NFIELDS ? attr_names[field] : "schedule";
}

int
ca_cron_field_min(int field)
{
	return field >= 0 && field < CA_CRON_NFIELDS ? field_min[field] : 0;
}

int
ca_cron_field_max(int field)
{
	return field >= 0 && field < CA_CRON_NFIELDS ? field_max[field] : 0;
}

/* ---- civil calendar (proleptic Gregorian), days counted from 1970-01-01 ---- */

static int64_t
floordiv(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static bool
is_leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
month_len(int64_t y, int m)
{
	static const int len[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return len[m - 1] + (m == 2 && is_leap(y));
}

/* 1970-01-01 is day 0; 0001-01-01 is day -719162. */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t before = y - 1;		/* whole years since 0001-01-01 */
	int64_t days = 365 * before + floordiv(before, 4) - floordiv(before, 100) +
	    floordiv(before, 400);

	days += month_start[m - 1] + (m > 2 && is_leap(y)) + d - 1;
	return days - 719162;
}

/* The inverse: split a day number into year, month and day, going through
 * 400-, 100-, 4- and 1-year cycles counted from 0001-01-01. */
static void
civil_from_days(int64_t days, int64_t *y, int *m, int *d)
{
	int64_t n = days + 719162;
	int64_t q400 = floordiv(n, 146097);
	int64_t c100, q4, y1, yday;
	int mo;

	n -= q400 * 146097;
	c100 = n / 36524;
	if (c100 == 4)			/* the last day of a 400-year cycle */
		c100 = 3;
	n -= c100 * 36524;
	q4 = n / 1461;
	n -= q4 * 1461;
	y1 = n / 365;
	if (y1 == 4)			/* the leap day closing a 4-year cycle */
		y1 = 3;
	yday = n - y1 * 365;
	*y = q400 * 400 + c100 * 100 + q4 * 4 + y1 + 1;
	for (mo = 12; mo > 1; mo--)
		if (yday >= month_start[mo - 1] + (mo > 2 && is_leap(*y)))
			break;
	*m = mo;
	*d = (int)(yday - month_start[mo - 1] - (mo > 2 && is_leap(*y))) + 1;
}

/* 0 Sunday ... 6 Saturday; day 0 was a Thursday. */
static int
weekday(int64_t days)
{
	return (int)(days + 4 - floordiv(days + 4, 7) * 7);
}

/* ---- parsing ---- */

static int
fail(ca_diag *err, int field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Refuse: the message, and the field's place in a crontab line. */
static int
fail(ca_diag *err, int field, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL) {
		va_start(ap, fmt);
		ca_diag_vset(err, CA_EX_INPUT, NULL, 0, field + 1, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A run of ASCII digits, whole: its value (capped past NUM_CAP), or -1. */
static long
number(const char *s, size_t len)
{
	long v = 0;

	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v <= NUM_CAP)
			v = v * 10 + (s[i] - '0');
	}
	return v;
}

static bool
in_range(int field, long v)
{
	return v >= field_min[field] && v <= field_max[field];
}

/* One list element: "*", "v", "a-b", "*\/n" or "a-b/n". Sets *bits. */
static int
parse_token(int field, const char *tok, size_t len, uint64_t *bits, ca_diag *err)
{
	const char *slash = memchr(tok, '/', len);
	size_t blen = slash != NULL ? (size_t)(slash - tok) : len;
	const char *dash = memchr(tok, '-', blen);
	int lo = field_min[field], hi = field_max[field];
	int n = (int)len;
	long step = 1, a, b;

	if (slash != NULL) {
		step = number(slash + 1, len - blen - 1);
		if (step < 0)
			goto malformed;
		if (step == 0)
			return fail(err, field, "%.*s has a zero step", n, tok);
	}
	if (blen == 1 && tok[0] == '*') {
		/* the whole range */
	} else if (dash != NULL) {
		a = number(tok, (size_t)(dash - tok));
		b = number(dash + 1, blen - (size_t)(dash - tok) - 1);
		if (a < 0 || b < 0)
			goto malformed;
		if (!in_range(field, a))
			return fail(err, field, "%.*s in %.*s is out of range %d-%d",
			    (int)(dash - tok), tok, n, tok, lo, hi);
		if (!in_range(field, b))
			return fail(err, field, "%.*s in %.*s is out of range %d-%d",
			    (int)(blen - (size_t)(dash - tok) - 1), dash + 1, n, tok, lo, hi);
		if (a > b)
			return fail(err, field, "%.*s is a reversed range", n, tok);
		lo = (int)a;
		hi = (int)b;
	} else {
		a = number(tok, blen);
		if (a < 0)
			goto malformed;
		if (slash != NULL)
			return fail(err, field, "%.*s has a step on a single value "
			    "(a step needs * or a range)", n, tok);
		if (!in_range(field, a))
			return fail(err, field, "%.*s is out of range %d-%d", n, tok, lo, hi);
		lo = hi = (int)a;
	}
	*bits = 0;
	for (int v = lo; v <= hi; v++) {
		/* Sunday written 7 is Sunday 0 before the step applies, as in HTCondor. */
		int w = field == CA_CRON_WDAY && v == 7 ? 0 : v;

		if (w % step == 0)
			*bits |= (uint64_t)1 << w;
	}
	if (*bits == 0)
		return fail(err, field, "%.*s selects no value", n, tok);
	return 0;

malformed:
	return fail(err, field, "%.*s is not a value, a range or a step", n, tok);
}

/* Text for a message: printable ASCII as is, other bytes as \xNN, cut short. */
static void
show(char *out, size_t outlen, const char *s)
{
	size_t o = 0;

	for (; *s != '\0' && o + 8 < outlen; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch >= 0x20 && ch < 0x7f)
			out[o++] = (char)ch;
		else
			o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", ch);
	}
	if (*s != '\0' && outlen >= 4)
		memcpy(out + (o < outlen - 4 ? o : outlen - 4), "...", 4);
	else
		out[o] = '\0';
}

static void
set_flags(ca_cron *c)
{
	c->flags = 0;
	if (c->mday != MDAY_ALL)
		c->flags |= CA_CRON_MDAY_RESTRICTS;
	if (c->wday != WDAY_ALL)
		c->flags |= CA_CRON_WDAY_RESTRICTS;
}

void
ca_cron_init(ca_cron *c)
{
	c->minute = ((uint64_t)1 << 60) - 1;
	c->hour = (1u << 24) - 1;
	c->mday = MDAY_ALL;
	c->month = 0x1ffe;
	c->wday = WDAY_ALL;
	c->flags = 0;
}

/* Parse the len bytes at text as field `field` and store the set in c. */
static int
parse_field(ca_cron *c, int field, const char *text, size_t len, ca_diag *err)
{
	char tok[64], shown[64], whole[200];
	uint64_t set = 0, bits = 0;
	size_t i, n = 0, wn = 0;
	bool empty_elem = false;

	if (field < 0 || field >= CA_CRON_NFIELDS)
		return fail(err, -1, "no such field");
	/* Check the characters first, so that messages show only good ones. */
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)text[i];

		if ((ch >= '0' && ch <= '9') || ch == ',' || ch == '-' || ch == '/' ||
		    ch == '*' || ch == ' ' || ch == '\t')
			continue;
		/* Show the list element with the bad character. */
		size_t a = i, b = i;

		while (a > 0 && text[a - 1] != ',')
			a--;
		while (b < len && text[b] != ',')
			b++;
		snprintf(whole, sizeof whole, "%.*s", (int)(b - a < 150 ? b - a : 150), text + a);
		show(shown, sizeof shown, whole);
		if (ch >= 0x20 && ch < 0x7f)
			return fail(err, field, "bad character '%c' in %s "
			    "(only digits and , - / * are allowed)", ch, shown);
		return fail(err, field, "bad character \\x%02x in %s "
		    "(only digits and , - / * are allowed)", ch, shown);
	}
	/* The field without its spaces, for messages (cut short if long). */
	for (i = 0; i < len; i++)
		if (text[i] != ' ' && text[i] != '\t' && wn + 1 < sizeof whole)
			whole[wn++] = text[i];
	whole[wn] = '\0';
	if (wn + 1 >= sizeof whole)
		memcpy(whole + sizeof whole - 4, "...", 4);
	if (wn == 0)
		return fail(err, field, "the value is empty");
	for (i = 0; i <= len; i++) {
		if (i < len && text[i] != ',') {
			if (text[i] == ' ' || text[i] == '\t')
				continue;
			if (n + 1 >= sizeof tok) {
				show(shown, sizeof shown, whole);
				return fail(err, field, "%s has an element that is too long", shown);
			}
			tok[n++] = text[i];
			continue;
		}
		if (n == 0) {
			empty_elem = true;
			continue;
		}
		tok[n] = '\0';
		if (parse_token(field, tok, n, &bits, err) < 0)
			return -1;
		set |= bits;
		n = 0;
	}
	if (empty_elem) {
		show(shown, sizeof shown, whole);
		return fail(err, field, "%s has an empty list element", shown);
	}
	switch (field) {
	case CA_CRON_MINUTE:
		c->minute = set;
		break;
	case CA_CRON_HOUR:
		c->hour = (uint32_t)set;
		break;
	case CA_CRON_MDAY:
		c->mday = (uint32_t)set;
		break;
	case CA_CRON_MONTH:
		c->month = (uint16_t)set;
		break;
	default:
		c->wday = (uint8_t)set;
		break;
	}
	set_flags(c);
	return 0;
}

int
ca_cron_field(ca_cron *c, int field, const char *text, ca_diag *err)
{
	return parse_field(c, field, text, strlen(text), err);
}

int
ca_cron_check(const ca_cron *c, ca_diag *err)
{
	char days[100], months[100];
	int first;

	if (c->minute == 0 || c->hour == 0 || c->mday == 0 || c->month == 0 ||
	    c->wday == 0)
		return fail(err, -1, "a field has no values");
	if ((c->flags & (CA_CRON_MDAY_RESTRICTS | CA_CRON_WDAY_RESTRICTS)) !=
	    CA_CRON_MDAY_RESTRICTS)
		return 0;
	/* Only the day of the month counts: is any of its days in a month? */
	first = __builtin_ctz(c->mday);
	for (int m = 1; m <= 12; m++)
		if ((c->month >> m & 1) && first <= month_len(2000, m))
			return 0;
	ca_cron_format_set(CA_CRON_MDAY, c->mday, days, sizeof days);
	ca_cron_format_set(CA_CRON_MONTH, c->month, months, sizeof months);
	return fail(err, CA_CRON_MDAY, "%s %s never %s in %s %s",
	    c->mday & (c->mday - 1) ? "days" : "day", days,
	    c->mday & (c->mday - 1) ? "occur" : "occurs",
	    c->month & (c->month - 1) ? "months" : "month", months);
}

int
ca_cron_parse(ca_cron *c, const char *line, ca_diag *err)
{
	const char *start[CA_CRON_NFIELDS];
	size_t len[CA_CRON_NFIELDS];
	ca_cron tmp;
	int n = 0;
	const char *s = line;

	for (;;) {
		const char *p;

		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		if (*s == '\0')
			break;
		p = s;
		while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
			s++;
		if (n < CA_CRON_NFIELDS) {
			start[n] = p;
			len[n] = (size_t)(s - p);
		}
		n++;
	}
	if (n != CA_CRON_NFIELDS)
		return fail(err, -1, "a schedule has 5 fields (MIN HOUR DOM MONTH DOW), "
		    "not %d", n);
	ca_cron_init(&tmp);
	for (int f = 0; f < CA_CRON_NFIELDS; f++)
		if (parse_field(&tmp, f, start[f], len[f], err) < 0)
			return -1;
	if (ca_cron_check(&tmp, err) < 0)
		return -1;
	*c = tmp;
	return 0;
}

uint64_t
ca_cron_set(const ca_cron *c, int field)
{
	switch (field) {
	case CA_CRON_MINUTE:
		return c->minute;
	case CA_CRON_HOUR:
		return c->hour;
	case CA_CRON_MDAY:
		return c->mday;
	case CA_CRON_MONTH:
		return c->month;
	case CA_CRON_WDAY:
		return c->wday;
	}
	return 0;
}

/* Append the text of values lo..hi (a run) to buf as format_set does. */
static size_t
add_run(char *buf, size_t len, size_t need, const char *const *names, int lo, int hi)
{
	const char *sep = need == 0 ? "" : names ? ", " : ",";
	char *at = buf + (need < len ? need : len);
	size_t room = need < len ? len - need : 0;
	int n;

	if (names)
		n = snprintf(at, room, "%s%s%s%s", sep, names[lo], hi > lo ?
		    hi - lo >= 2 ? "-" : ", " : "", hi > lo ? names[hi] : "");
	else if (hi > lo)
		n = snprintf(at, room, "%s%d%s%d", sep, lo, hi - lo >= 2 ? "-" : ",", hi);
	else
		n = snprintf(at, room, "%s%d", sep, lo);
	return need + (size_t)n;
}

/* The one writer of a set: numbers, or names[v] when names is not NULL. */
static size_t
format_set(int field, uint64_t set, const char *const *names, char *buf, size_t len)
{
	int hi = field == CA_CRON_WDAY ? 6 : ca_cron_field_max(field);
	size_t need = 0;

	if (len > 0)
		buf[0] = '\0';
	for (int v = ca_cron_field_min(field); v <= hi; v++) {
		int end = v;

		if (!(set >> v & 1))
			continue;
		while (end < hi && (set >> (end + 1) & 1))
			end++;
		need = add_run(buf, len, need, names, v, end);
		v = end;
	}
	return need;
}

size_t
ca_cron_format_set(int field, uint64_t set, char *buf, size_t len)
{
	return format_set(field, set, NULL, buf, len);
}

size_t
ca_cron_format_names(int field, uint64_t set, const char *const *names, char *buf,
    size_t len)
{
	return format_set(field, set, names, buf, len);
}

/* ---- next run ---- */

/* The days of month m of year y that run, as bits 1-31 (the day rule). */
static uint64_t
day_set(const ca_cron *c, int64_t y, int m)
{
	uint64_t all = (((uint64_t)1 << month_len(y, m)) - 1) << 1;
	uint64_t r, week;
	int w1;

	switch (c->flags & (CA_CRON_MDAY_RESTRICTS | CA_CRON_WDAY_RESTRICTS)) {
	case 0:
		return all;
	case CA_CRON_MDAY_RESTRICTS:
		return c->mday & all;
	}
	/* Rotate the weekday set so that bit i is the weekday of day i+1, then
	 * repeat it over five weeks and shift it to day numbering. */
	w1 = weekday(days_from_civil(y, m, 1));
	r = ((uint64_t)(c->wday >> w1) | (uint64_t)c->wday << (7 - w1)) & WDAY_ALL;
	week = (r | r << 7 | r << 14 | r << 21 | r << 28) << 1;
	if (!(c->flags & CA_CRON_MDAY_RESTRICTS))
		return week & all;
	return (week | c->mday) & all;
}

/* The first wall-clock minute at or after cs (civil seconds: a local date
 * and time counted like epoch seconds) that the schedule matches. At each
 * level the next allowed value comes from the bit set; when a level runs
 * out, the level above moves on and the levels below start from their
 * first values. -1 past the end of year 9999. */
static int
civil_next(const ca_cron *c, int64_t cs, int64_t *out)
{
	int64_t days = floordiv(cs, DAY);
	int sod = (int)(cs - days * DAY);
	int h = sod / 3600, mi = sod / 60 % 60, mo, d;
	int64_t y;
	uint64_t s;

	civil_from_days(days, &y, &mo, &d);
	while (y <= YEAR_MAX) {
		s = (uint64_t)c->month >> mo << mo;
		if (s == 0) {
			y++;
			mo = d = 1;
			h = mi = 0;
			continue;
		}
		if (__builtin_ctzll(s) != mo) {
			mo = __builtin_ctzll(s);
			d = 1;
			h = mi = 0;
		}
		s = day_set(c, y, mo) >> d << d;
		if (s == 0) {
			if (++mo > 12) {
				y++;
				mo = 1;
			}
			d = 1;
			h = mi = 0;
			continue;
		}
		if (__builtin_ctzll(s) != d) {
			d = __builtin_ctzll(s);
			h = mi = 0;
		}
		s = (uint64_t)c->hour >> h << h;
		if (s == 0) {
			d++;		/* day 32 is in no set: the month moves on */
			h = mi = 0;
			continue;
		}
		if (__builtin_ctzll(s) != h) {
			h = __builtin_ctzll(s);
			mi = 0;
		}
		s = c->minute >> mi << mi;
		if (s == 0) {
			h++;		/* hour 24 is in no set: the day moves on */
			mi = 0;
			continue;
		}
		mi = __builtin_ctzll(s);
		*out = days_from_civil(y, mo, d) * DAY + h * 3600 + mi * 60;
		return 0;
	}
	return -1;
}

/* The UTC offset in seconds of local time at instant t. */
static int
utc_offset(int64_t t, int64_t *off)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if ((int64_t)tt != t || localtime_r(&tt, &tm) == NULL)
		return -1;
	*off = days_from_civil(tm.tm_year + (int64_t)1900, tm.tm_mon + 1, tm.tm_mday) * DAY +
	    tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec - t;
	return 0;
}

/* The first instant whose local time reads w (civil seconds): 1 and *e set,
 * 0 if no instant reads w (a spring-forward gap), -1 if libc cannot tell.
 * At most one offset change lies between the probes, so an instant reading
 * w has either the offset before it or the one after. */
static int
first_instant(int64_t w, int64_t *e)
{
	int64_t oa, ob, o;

	if (utc_offset(w - TZ_PROBE, &oa) < 0 || utc_offset(w + TZ_PROBE, &ob) < 0)
		return -1;
	if (oa == ob) {
		*e = w - oa;
		return 1;
	}
	if (utc_offset(w - oa, &o) < 0)
		return -1;
	if (o == oa) {			/* before the change: the first reading */
		*e = w - oa;
		return 1;
	}
	if (utc_offset(w - ob, &o) < 0)
		return -1;
	if (o == ob) {
		*e = w - ob;
		return 1;
	}
	return 0;
}

/* Earliest and latest instants handled: years 1 to 9999 with a margin for
 * the probes. */
#define T_MIN	(-62135596800LL + 3 * DAY)
#define T_MAX	253402300799LL

/* The general search: take the next matching wall-clock minute, skip it if
 * no instant shows it or if it was first shown before now (now is in the
 * repeated part of an autumn overlap), and go on from the minute after. */
static int
next_slow(const ca_cron *c, int64_t now, int64_t *next)
{
	int64_t o0, cs, w, e;
	int r;

	if (utc_offset(now, &o0) < 0)
		return -1;
	cs = floordiv(now + o0, 60) * 60 + 60;
	for (int i = 0; i < 100000; i++) {
		if (civil_next(c, cs, &w) < 0)
			return -1;
		if ((r = first_instant(w, &e)) < 0)
			return -1;
		if (r > 0 && e > now) {
			*next = e;
			return 0;
		}
		cs = w + 60;
	}
	return -1;
}

int
ca_cron_next(const ca_cron *c, int64_t now, int64_t *next)
{
	int64_t p, op, oq, w, e;

	if (now < T_MIN || now > T_MAX || c->minute == 0 || c->hour == 0 ||
	    c->mday == 0 || c->month == 0 || c->wday == 0)
		return -1;
	/*
	 * The common case costs two offset look-ups: one a day before now and
	 * one a day after the candidate. If they agree and are at most TZ_GAP
	 * apart, no offset change lies between them, so the offset is the same
	 * at now and at the candidate and no instant in the day before the
	 * candidate showed the same time.
	 */
	p = now - DAY;
	if (utc_offset(p, &op) < 0)
		return -1;
	if (civil_next(c, floordiv(now + op, 60) * 60 + 60, &w) < 0)
		return -1;
	e = w - op;
	if (e + DAY - p <= TZ_GAP && utc_offset(e + DAY, &oq) == 0 && oq == op) {
		*next = e;
		return 0;
	}
	return next_slow(c, now, next);
}

void
ca_cron_isotime(int64_t t, char *buf)
{
	time_t tt = (time_t)t;
	struct tm tm;
	int64_t off;
	char sign;

	if ((int64_t)tt != t || localtime_r(&tt, &tm) == NULL ||
	    utc_offset(t, &off) < 0 || tm.tm_year + 1900 > 9999 || tm.tm_year + 1900 < 0) {
		snprintf(buf, CA_CRON_ISOLEN, "?");
		return;
	}
	sign = off < 0 ? '-' : '+';
	if (off < 0)
		off = -off;
	if (off % 60 != 0)
		snprintf(buf, CA_CRON_ISOLEN, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d:%02d",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
		    tm.tm_sec, sign, (int)(off / 3600), (int)(off / 60 % 60), (int)(off % 60));
	else
		snprintf(buf, CA_CRON_ISOLEN, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
		    tm.tm_sec, sign, (int)(off / 3600), (int)(off / 60 % 60));
}
