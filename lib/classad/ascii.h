/* ascii.h - character classes and case folding of ASCII, never the locale's:
 * names and string comparisons of the language ignore the case of A-Z only. */
#ifndef CA_ASCII_H
#define CA_ASCII_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
