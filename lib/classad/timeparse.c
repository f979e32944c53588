/* timeparse.c - HTCondor's absTime and relTime string syntaxes, read as
 * HTCondor reads time literals but without the locale or time_t limits. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "ascii.h"
#include "timeparse.h"
#include "value.h"

int
ca_local_offset(int64_t secs, int32_t *off)
{
	time_t t = (time_t)secs;
	struct tm tm;

	if ((int64_t)t != secs || localtime_r(&t, &tm) == NULL)
		return -1;
	*off = (int32_t)tm.tm_gmtoff;
	return 0;
}

/* Days from 1970-01-01 to the proleptic Gregorian date y-m-d (m 1..12),
 * counting in 400-year eras of 146097 days whose years start in March. */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	if (m <= 2)
		y--;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;			/* 0..399 */
	int64_t mp = m > 2 ? m - 3 : m + 9;		/* March is 0 */
	int64_t doy = (153 * mp + 2) / 5 + d - 1;	/* 0..365 */
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Seconds for broken-down fields read as UTC, carrying out-of-range fields
 * over as timegm() does (month 12 is next January, day 0 the last day of
 * the month before). */
static int64_t
fields_secs(int64_t year, int64_t mon0, int64_t mday, int64_t h, int64_t mi, int64_t s)
{
	year += mon0 >= 0 ? mon0 / 12 : -((11 - mon0) / 12);
	mon0 -= (mon0 >= 0 ? mon0 / 12 : -((11 - mon0) / 12)) * 12;
	int64_t days = days_from_civil(year, (int)mon0 + 1, 1) + mday - 1;
	return days * 86400 + h * 3600 + mi * 60 + s;
}

/* The value of up to n digits at s[0..avail), as atoi() of the n-character
 * window would give it (it stops at the first non-digit). */
static int64_t
digits_at(const char *s, size_t avail, size_t n)
{
	int64_t v = 0;

	for (size_t i = 0; i < n && i < avail && ca_is_digit(s[i]); i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* A "+hhmm" or "-hhmm" zone in the last 5 bytes of buf[0..*n): cut it off. */
static bool
cut_zone(char *buf, size_t *n, int *tzh, int *tzm)
{
	const char *z = buf + *n - 5;

	if ((z[0] != '+' && z[0] != '-') || !ca_is_digit(z[1]) || !ca_is_digit(z[2]) ||
	    !ca_is_digit(z[3]) || !ca_is_digit(z[4]))
		return false;
	int h = (z[1] - '0') * 10 + (z[2] - '0');
	int m = (z[3] - '0') * 10 + (z[4] - '0');
	*tzh = z[0] == '-' ? -h : h;
	*tzm = z[0] == '-' ? -m : m;
	*n -= 5;
	return true;
}

static void
skip_nondigits(const char *buf, size_t n, size_t *p)
{
	while (*p < n && !ca_is_digit(buf[*p]))
		(*p)++;
}

int
ca_parse_abstime(const char *s, size_t len, int64_t *secs, int32_t *off, int64_t now)
{
	(void)now;	/* the offset is the one in force at the time parsed */
	if (len > 4096)
		return -1;	/* no time is written that long */
	char buf[4097];
	size_t n = len;
	bool zone = false;
	int tzh = 0, tzm = 0;

	memcpy(buf, s, len);
	buf[n] = '\0';

	/* The zone, at the very end: "Z" (after trailing blanks), "+hhmm"
	 * or "+hh:mm" (no trailing blanks allowed, as in HTCondor). */
	size_t i = n;
	while (i > 0 && ca_is_space(buf[i - 1]))
		i--;
	if (i > 1 && (buf[i - 1] == 'z' || buf[i - 1] == 'Z')) {
		memmove(buf + i - 1, buf + i, n - i + 1);
		n--;
		zone = true;
	} else if (n > 5 && (buf[n - 5] == '+' || buf[n - 5] == '-')) {
		zone = cut_zone(buf, &n, &tzh, &tzm);
	} else if (n > 6 && (buf[n - 6] == '+' || buf[n - 6] == '-') && buf[n - 3] == ':') {
		memmove(buf + n - 3, buf + n - 2, 3);
		n--;
		zone = cut_zone(buf, &n, &tzh, &tzm);
	}

	/* year (4 digits, required), then up to five 2-digit fields, each
	 * after any run of non-digits; no digit may follow. */
	int64_t f[6] = { 0, 1, 0, 0, 0, 0 };	/* month 1 = January by default */
	static const size_t width[6] = { 4, 2, 2, 2, 2, 2 };
	size_t p = 0;
	skip_nondigits(buf, n, &p);
	if (p + 4 > n)
		return -1;
	for (int k = 0; k < 6; k++) {
		if (k > 0)
			skip_nondigits(buf, n, &p);
		if (p + width[k] > n)
			break;
		f[k] = digits_at(buf + p, n - p, width[k]);
		p += width[k];
	}
	skip_nondigits(buf, n, &p);
	if (p < n)
		return -1;	/* a digit is left over */

	int64_t t = fields_secs(f[0], f[1] - 1, f[2], f[3], f[4], f[5]);
	int32_t o;
	if (zone)
		o = tzh * 3600 + tzm * 60;
	else {
		/* local time: the offset at the instant those fields name */
		int32_t o1;
		if (ca_local_offset(t, &o1) < 0 || ca_local_offset(t - o1, &o) < 0)
			return -1;
	}
	/* Only what the printer can write back as it was read: years 0-9999
	 * on the time's own clock, offsets under 100 hours. */
	if (t < fields_secs(0, 0, 1, 0, 0, 0) || t >= fields_secs(10000, 0, 1, 0, 0, 0) ||
	    o <= -100 * 3600 || o >= 100 * 3600)
		return -1;
	*secs = t - o;
	*off = o;
	return 0;
}

/* Skip white space backwards: *i is the index of the next byte to look at,
 * -1 when the start is reached. */
static void
back_space(const char *s, ptrdiff_t *i)
{
	while (*i >= 0 && ca_is_space(s[*i]))
		(*i)--;
}

/* The digits just before *i (moving *i past them), as an int; a number too
 * big for an int counts as 0, as HTCondor's from_chars leaves it. */
static int64_t
back_int(const char *s, ptrdiff_t *i)
{
	ptrdiff_t end = *i + 1;

	while (*i >= 0 && ca_is_digit(s[*i]))
		(*i)--;
	int64_t v = 0;
	for (ptrdiff_t k = *i + 1; k < end; k++) {
		v = v * 10 + (s[k] - '0');
		if (v > INT32_MAX)
			return 0;
	}
	return v;
}

int
ca_parse_reltime(const char *s, size_t len, double *secs)
{
	ptrdiff_t i = (ptrdiff_t)len - 1;
	double sec = 0;
	int64_t mins = 0, hrs = 0, days = 0;
	bool neg = false;

	back_space(s, &i);
	if (i >= 0 && (s[i] == 's' || s[i] == 'S' || ca_is_digit(s[i]))) {
		if (s[i] == 's' || s[i] == 'S')
			i--;
		back_space(s, &i);
		ptrdiff_t end = i + 1;
		while (i >= 0 && ca_is_digit(s[i]))
			i--;
		if (i >= 0 && s[i] == '.') {
			i--;
			while (i >= 0 && ca_is_digit(s[i]))
				i--;
		}
		size_t n = (size_t)(end - (i + 1));
		if (n > 0) {
			char num[64];
			if (n >= sizeof num)
				return -1;	/* not a number anyone writes */
			memcpy(num, s + i + 1, n);
			num[n] = '\0';
			sec = ca_strtod(num, NULL);
		}
	}
	back_space(s, &i);
	if (i >= 0 && (s[i] == 'm' || s[i] == 'M' || s[i] == ':')) {
		i--;
		back_space(s, &i);
		mins = back_int(s, &i);
	}
	back_space(s, &i);
	if (i >= 0 && (s[i] == 'h' || s[i] == 'H' || s[i] == ':')) {
		i--;
		back_space(s, &i);
		hrs = back_int(s, &i);
	}
	back_space(s, &i);
	if (i >= 0 && (s[i] == 'd' || s[i] == 'D' || s[i] == '+')) {
		i--;
		back_space(s, &i);
		days = back_int(s, &i);
	}
	back_space(s, &i);
	if (i >= 0 && s[i] == '-') {
		neg = true;
		i--;
	}
	back_space(s, &i);
	if (i >= 0)
		return -1;
	double t = (double)days * 86400 + (double)hrs * 3600 + (double)mins * 60 + sec;
	/* the printer writes whole days, which read back only up to INT32_MAX
	 * (a bigger field counts as 0, above) */
	if (!(t < 2147483648.0 * 86400))
		return -1;
	*secs = neg ? -t : t;
	return 0;
}
