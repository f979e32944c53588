/* number.c - numbers as text without the locale: the shortest text of a real
 * that reads back exactly, and an exact reader of decimal reals, both fast. */

/*
 * A real prints as the first of %.15g, %.16g and %.17g whose text reads
 * back to the same double. printf and strtod work on big numbers to be
 * exact; here the digits come from 128-bit integer arithmetic instead,
 * which is exact too for every double from about 1e-7 to 1e38 (the
 * values ads hold): the value m * 2^e scaled by 10^S is the quotient of
 * two integers A / B that fit in 128 bits, rounded half to even as printf
 * rounds, and the text reads back when the rounded digits lie within half
 * a unit in the last place of the double (ties to an even significand, as
 * strtod rounds). Values outside that range go through printf and strtod
 * as before. Decimal text with at most 19 significant digits is read by
 * one exact multiplication or division of doubles when its significand is
 * at most 2^53 and its power of ten is exact; other text goes to strtod.
 */
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "ascii.h"
#include "value.h"

__extension__ typedef unsigned __int128 u128;

#define P19	UINT64_C(10000000000000000000)
static const u128 pow10_128[39] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
	UINT64_C(10000000000), UINT64_C(100000000000), UINT64_C(1000000000000),
	UINT64_C(10000000000000), UINT64_C(100000000000000), UINT64_C(1000000000000000),
	UINT64_C(10000000000000000), UINT64_C(100000000000000000),
	UINT64_C(1000000000000000000), P19, (u128)P19 * 10, (u128)P19 * 100,
	(u128)P19 * 1000, (u128)P19 * 10000, (u128)P19 * 100000, (u128)P19 * 1000000,
	(u128)P19 * 10000000, (u128)P19 * 100000000, (u128)P19 * 1000000000,
	(u128)P19 * UINT64_C(10000000000), (u128)P19 * UINT64_C(100000000000),
	(u128)P19 * UINT64_C(1000000000000), (u128)P19 * UINT64_C(10000000000000),
	(u128)P19 * UINT64_C(100000000000000), (u128)P19 * UINT64_C(1000000000000000),
	(u128)P19 * UINT64_C(10000000000000000), (u128)P19 * UINT64_C(100000000000000000),
	(u128)P19 * UINT64_C(1000000000000000000), (u128)P19 * P19
};

static const double pow10_dbl[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
	1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

static int
bits128(u128 x)
{
	uint64_t hi = (uint64_t)(x >> 64);

	if (hi)
		return 128 - __builtin_clzll(hi);
	return x ? 64 - __builtin_clzll((uint64_t)x) : 0;
}

/* v * 10^s as A / B, with A and B below 2^126 (so that 4 times a
 * difference of them still fits); false when they would not fit. */
static bool
scaled(uint64_t m, int e, int s, u128 *a, u128 *b)
{
	u128 x = m, y = 1;

	if (s > 38 || s < -38)
		return false;
	if (e > 0) {
		if (bits128(x) + e > 125)
			return false;
		x <<= e;
	} else if (e < 0) {
		if (-e > 125)
			return false;
		y <<= -e;
	}
	if (s > 0) {
		if (bits128(x) + bits128(pow10_128[s]) > 126)
			return false;
		x *= pow10_128[s];
	} else if (s < 0) {
		if (bits128(y) + bits128(pow10_128[-s]) > 126)
			return false;
		y *= pow10_128[-s];
	}
	*a = x;
	*b = y;
	return true;
}

/*
 * The shortest of 15, 16 and 17 significant digits of m * 2^e (m > 0),
 * each correctly rounded half to even, that reads back as the same double
 * (else 17): the digits as *digits, their number *p, the decimal exponent
 * of the first *x. One division, for 17 digits, whose quotient and
 * remainder give the others (v * 10^s is a / bb, so for one digit fewer it
 * is a / (10 bb): the quotient a tenth, the remainder the digit dropped
 * times bb, plus the remainder). The text reads back when twice its
 * distance from v is below the unit in the last place of v (a / m at every
 * scale, as a is the same; the gap below a power of two is half). False
 * when the numbers would not fit (magnitudes below about 1e-20 or above 1e52).
 */
static bool
shortest_digits(uint64_t m, int e, uint64_t *digits, int *p, int *x)
{
	int b = 63 - __builtin_clzll(m) + e;
	int xx = (int)floor(b * 0.30102999566398120), s;
	u128 a, bb, q;

	for (int tries = 0;; tries++) {
		/* 100 bb, and four times a difference below it, fit */
		s = 16 - xx;
		if (tries == 4 || !scaled(m, e, s, &a, &bb) || bits128(bb) > 119)
			return false;
		/* bb is a power of two (2^-e) for most reals: a shift */
		q = s >= 0 && e < 0 ? a >> -e : a / bb;
		if (q >= pow10_128[17])
			xx++;
		else if (q < pow10_128[16])
			xx--;
		else
			break;
	}
	/* a is m times what scaled multiplied it by */
	u128 rem = a - q * bb, ulp = (e > 0 ? (u128)1 << e : 1) * (s > 0 ? pow10_128[s] : 1);
	uint64_t n17 = (uint64_t)q;
	bool even = !(m & 1);
	for (int k = 2; k >= 0; k--) {	/* digits dropped: 15, 16, 17 digits */
		uint64_t div = k == 2 ? 100 : k == 1 ? 10 : 1, n = n17 / div;
		u128 den = bb * div, r = (u128)(n17 % div) * bb + rem;
		bool up = 2 * r > den || (2 * r == den && (n & 1));
		u128 diff = up ? den - r : r;
		bool lower_gap_half = !up && m == (UINT64_C(1) << 52) && e > -1074;
		u128 lhs = (lower_gap_half ? 4 : 2) * diff;
		if (k > 0 && !(lhs < ulp || (lhs == ulp && even)))
			continue;
		n += up;
		*x = xx;
		if (n == (uint64_t)pow10_128[17 - k]) {	/* 9.99... rounded up to 10.0 */
			n /= 10;
			++*x;
		}
		*digits = n;
		*p = 17 - k;
		return true;
	}
	return false;
}

static double strtod_c(const char *s, char **end);

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* The decimal digits of v (no sign) into buf, which needs 20 bytes;
 * returns their number. */
size_t
ca_fmt_u64(char *buf, uint64_t v)
{
	char tmp[20];
	size_t n = sizeof tmp;

	while (v >= 100) {
		unsigned d = (unsigned)(v % 100);
		v /= 100;
		n -= 2;
		memcpy(tmp + n, digit_pairs + 2 * d, 2);
	}
	if (v >= 10) {
		n -= 2;
		memcpy(tmp + n, digit_pairs + 2 * v, 2);
	} else
		tmp[--n] = (char)('0' + v);
	memcpy(buf, tmp + n, sizeof tmp - n);
	return sizeof tmp - n;
}

size_t
ca_fmt_i64(char *buf, int64_t v)
{
	if (v < 0) {
		buf[0] = '-';
		return 1 + ca_fmt_u64(buf + 1, (uint64_t)0 - (uint64_t)v);
	}
	return ca_fmt_u64(buf, (uint64_t)v);
}

/* %.Pg of the digits d (p of them, exponent x) with the sign: trailing
 * zeros dropped, fixed notation when -4 <= x < p, else d.ddde+XX. */
static size_t
g_text(char *out, bool neg, uint64_t d, int p, int x)
{
	char dig[20], *o = out;
	size_t n = ca_fmt_u64(dig, d);

	while (n > 1 && dig[n - 1] == '0')
		n--;
	if (neg)
		*o++ = '-';
	if (x >= -4 && x < p) {
		if (x < 0) {
			*o++ = '0';
			*o++ = '.';
			for (int i = 0; i < -x - 1; i++)
				*o++ = '0';
			memcpy(o, dig, n);
			o += n;
		} else {
			size_t ip = (size_t)x + 1;	/* digits before the point */
			if (n <= ip) {
				memcpy(o, dig, n);
				o += n;
				for (size_t i = n; i < ip; i++)
					*o++ = '0';
			} else {
				memcpy(o, dig, ip);
				o += ip;
				*o++ = '.';
				memcpy(o, dig + ip, n - ip);
				o += n - ip;
			}
		}
	} else {
		*o++ = dig[0];
		if (n > 1) {
			*o++ = '.';
			memcpy(o, dig + 1, n - 1);
			o += n - 1;
		}
		*o++ = 'e';
		*o++ = x < 0 ? '-' : '+';
		unsigned ax = (unsigned)(x < 0 ? -x : x);
		if (ax < 10)
			*o++ = '0';
		o += ca_fmt_u64(o, ax);
	}
	*o = '\0';
	return (size_t)(o - out);
}

size_t
ca_real_shortest(char *buf, double r)
{
	uint64_t bits;

	memcpy(&bits, &r, sizeof bits);
	int be = (int)(bits >> 52 & 0x7ff);
	uint64_t frac = bits & ((UINT64_C(1) << 52) - 1);
	if (be != 0 && be != 0x7ff) {
		uint64_t m = frac | UINT64_C(1) << 52, d;
		int e = be - 1075, x, p;
		if (shortest_digits(m, e, &d, &p, &x))
			return g_text(buf, bits >> 63, d, p, x);
	}
	/* zeros, subnormals, the special values, and the magnitudes the
	 * integers above cannot hold: printf and strtod */
	for (int p = 15; p <= 17; p++) {
		snprintf(buf, 32, "%.*g", p, r);
		ca_radix_dot(buf);
		if (p == 17 || strtod_c(buf, NULL) == r)
			break;
	}
	return strlen(buf);
}

/* ---- reading ---- */

static double
strtod_c(const char *s, char **end)
{
	static locale_t c_locale;

	if (c_locale == (locale_t)0)
		c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (c_locale == (locale_t)0)
		return strtod(s, end);
	return strtod_l(s, end, c_locale);
}

/* m * 2^e, m below 2^54: exact, the result a normal double. */
static double
times_pow2(uint64_t m, int e)
{
	if (e < -1022 || e > 1023)
		return ldexp((double)m, e);
	uint64_t bits = (uint64_t)(e + 1023) << 52;
	double p;
	memcpy(&p, &bits, sizeof p);
	return (double)m * p;
}

/* x rounded half to even to 53 bits, times 2^e2 (x > 0, the result a
 * normal double). */
static double
round_to_double(u128 x, bool sticky, int e2)
{
	int n = bits128(x), shift = n - 53;

	if (shift <= 0)
		return times_pow2((uint64_t)x, e2);
	u128 g = x & (((u128)1 << shift) - 1), half = (u128)1 << (shift - 1);
	uint64_t m = (uint64_t)(x >> shift);
	if (g > half || (g == half && (sticky || (m & 1))))
		m++;
	return times_pow2(m, e2 + shift);	/* m == 2^53 is still exact */
}

bool
ca_dec_to_real(uint64_t mant, int exp10, bool neg, double *out)
{
	double v;

	if (mant == 0) {
		*out = neg ? -0.0 : 0.0;
		return true;
	}
#if FLT_EVAL_METHOD == 0
	/* one exact operation of two exact doubles, correctly rounded */
	if (mant <= (UINT64_C(1) << 53) && exp10 >= -22 && exp10 <= 22) {
		v = exp10 < 0 ? (double)mant / pow10_dbl[-exp10] : (double)mant * pow10_dbl[exp10];
		*out = neg ? -v : v;
		return true;
	}
#endif
	if (exp10 >= 0) {
		/* an integer: exact in 128 bits, then rounded */
		if (exp10 > 38 || 64 - __builtin_clzll(mant) + bits128(pow10_128[exp10]) > 128)
			return false;
		v = round_to_double((u128)mant * pow10_128[exp10], false, 0);
	} else {
		/* mant / 10^k: a quotient of 54 or 55 bits and whether a
		 * remainder is left, then rounded */
		if (exp10 < -22)
			return false;
		u128 d = pow10_128[-exp10];
		int s = 54 + bits128(d) - (64 - __builtin_clzll(mant));
		u128 q, r;
		if (s >= 0) {
			u128 a = (u128)mant << s;
			q = a / d;
			r = a - q * d;
		} else {
			u128 dd = d << -s;
			q = mant / dd;
			r = mant - q * dd;
		}
		v = round_to_double(q, r != 0, -s);
	}
	*out = neg ? -v : v;
	return true;
}

double
ca_strtod(const char *s, char **end)
{
	const char *p = s;
	bool neg = false;
	uint64_t mant = 0;
	int nd = 0, exp10 = 0;
	double v;

	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (!(ca_is_digit((unsigned char)*p) || (*p == '.' && ca_is_digit((unsigned char)p[1]))) ||
	    (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')))
		return strtod_c(s, end);
	for (; ca_is_digit((unsigned char)*p); p++) {
		if (nd >= 19)
			return strtod_c(s, end);
		mant = mant * 10 + (unsigned)(*p - '0');
		nd += mant != 0;
	}
	if (*p == '.')
		for (p++; ca_is_digit((unsigned char)*p); p++) {
			if (nd >= 19)
				return strtod_c(s, end);
			mant = mant * 10 + (unsigned)(*p - '0');
			nd += mant != 0;
			exp10--;
		}
	if (*p == 'e' || *p == 'E') {
		const char *q = p + 1;
		bool eneg = false;
		int ev = 0, ed = 0;
		if (*q == '-' || *q == '+')
			eneg = *q++ == '-';
		for (; ca_is_digit((unsigned char)*q); q++, ed++) {
			if (ed >= 5)
				return strtod_c(s, end);
			ev = ev * 10 + (*q - '0');
		}
		if (ed > 0) {
			exp10 += eneg ? -ev : ev;
			p = q;
		}
	}
	if (!ca_dec_to_real(mant, exp10, neg, &v))
		return strtod_c(s, end);
	if (end)
		*end = (char *)(uintptr_t)p;
	return v;
}

/*
 * The digits at *pp (before e) into *mant, eight at a time where they
 * are, *nd counting those from the first that is not 0; *pp moves past
 * them. False at a twentieth such digit (the caller reads the text the
 * slow way). Eight bytes that are all digits are one number: each byte
 * less '0', then pairs, fours and the eight combined in place (the first
 * digit is the lowest byte).
 */
static inline bool
take_digits(const char **pp, const char *e, uint64_t *mant, int *nd)
{
	const char *p = *pp;
	const uint64_t highs = UINT64_C(0xf0f0f0f0f0f0f0f0);

	while (e - p >= 8 && *nd <= 11) {
		uint64_t w;
		memcpy(&w, p, 8);
		if (((w & highs) | ((w + UINT64_C(0x0606060606060606)) & highs) >> 4) !=
		    UINT64_C(0x3333333333333333))
			break;
		uint64_t d = w - UINT64_C(0x3030303030303030);
		d = (d * 10 + (d >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
		d = (d * 100 + (d >> 16)) & UINT64_C(0x0000ffff0000ffff);
		d = (d * 10000 + (d >> 32)) & UINT64_C(0xffffffff);
		if (*mant != 0)
			*nd += 8;
		else
			for (uint64_t x = d; x != 0; x /= 10)
				(*nd)++;
		*mant = *mant * 100000000 + d;
		p += 8;
	}
	for (; p < e && ca_is_digit((unsigned char)*p); p++) {
		if (*nd >= 19)
			return false;
		*mant = *mant * 10 + (unsigned)(*p - '0');
		*nd += *mant != 0;
	}
	*pp = p;
	return true;
}

double
ca_real_of_text(const char *s, size_t n)
{
	const char *p = s, *e = s + n;
	uint64_t mant = 0;
	int nd = 0, exp10 = 0;
	double v;

	if (!take_digits(&p, e, &mant, &nd))
		goto slow;
	if (p < e && *p == '.') {
		const char *f = ++p;
		if (!take_digits(&p, e, &mant, &nd))
			goto slow;
		exp10 -= (int)(p - f);
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		bool eneg = false;
		int ev = 0, ed = 0;
		if (++p < e && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		for (; p < e && ca_is_digit((unsigned char)*p); p++, ed++) {
			if (ed >= 5)
				goto slow;
			ev = ev * 10 + (*p - '0');
		}
		exp10 += eneg ? -ev : ev;
	}
	if (p == e && ca_dec_to_real(mant, exp10, false, &v))
		return v;
slow:;
	char buf[128], *copy = n < sizeof buf ? buf : ca_xmalloc(n + 1);
	memcpy(copy, s, n);
	copy[n] = '\0';
	v = strtod_c(copy, NULL);
	if (copy != buf)
		free(copy);
	return v;
}
