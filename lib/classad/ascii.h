/* ascii.h - character classes and case folding of ASCII, never the locale's:
 * names and string comparisons of the language ignore the case of A-Z only;
 * and the byte comparison of short texts (names). */
#ifndef CA_ASCII_H
#define CA_ASCII_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline bool
ca_is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* ' ', '\t', '\n', '\v', '\f' and '\r' */
static inline bool
ca_is_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline int
ca_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static inline int
ca_upper(int c)
{
	return c >= 'a' && c <= 'z' ? c - 32 : c;
}

/* The radix character printf wrote into the NUL-terminated p made '.',
 * whatever LC_NUMERIC a program using the library set. */
static inline void
ca_radix_dot(char *p)
{
	for (; *p; p++)
		if (*p == ',')
			*p = '.';
}

/* Comparison of two counted byte strings ignoring the case of A-Z, the way
 * HTCondor compares strings with == and <: <0, 0 or >0. */
static inline int
ca_fold_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	size_t n = an < bn ? an : bn;

	for (size_t i = 0; i < n; i++) {
		int d = ca_lower((unsigned char)a[i]) - ca_lower((unsigned char)b[i]);
		if (d)
			return d;
	}
	return an < bn ? -1 : an > bn;
}

/* Are a[0..n) and b[0..n) the same bytes? For names, mostly short: words
 * that overlap, all inside both texts, rather than a call. */
static inline bool
ca_same_bytes(const char *a, const char *b, size_t n)
{
	if (n >= 8) {
		uint64_t x, y;
		for (size_t i = 0; i + 8 < n; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y)
				return false;
		}
		memcpy(&x, a + n - 8, 8);
		memcpy(&y, b + n - 8, 8);
		return x == y;
	}
	if (n >= 4) {
		uint32_t x, y, u, v;
		memcpy(&x, a, 4);
		memcpy(&y, b, 4);
		memcpy(&u, a + n - 4, 4);
		memcpy(&v, b + n - 4, 4);
		return x == y && u == v;
	}
	return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

/* s[0..n) copied to d, where the two do not overlap: for names and short
 * texts, words that overlap inside both rather than a call. */
static inline void
ca_copy_bytes(char *d, const char *s, size_t n)
{
	if (n > 16)
		memcpy(d, s, n);
	else if (n >= 8) {
		uint64_t x, y;
		memcpy(&x, s, 8);
		memcpy(&y, s + n - 8, 8);
		memcpy(d, &x, 8);
		memcpy(d + n - 8, &y, 8);
	} else if (n >= 4) {
		uint32_t x, y;
		memcpy(&x, s, 4);
		memcpy(&y, s + n - 4, 4);
		memcpy(d, &x, 4);
		memcpy(d + n - 4, &y, 4);
	} else if (n > 0) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

#endif
