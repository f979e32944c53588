/* value.h - ClassAd values: the small tagged union passed by value everywhere.
 * UNDEFINED and ERROR are values like any other, never C error codes. */

/*
 * OWNERSHIP RULE (the one rule of the library's memory):
 *   A value never owns memory. Strings, lists and ads it points to live in an
 *   arena: the arena of the ad whose expression produced them (literals), or
 *   the scratch arena of the evaluation context (computed results). Such a
 *   value is valid until that arena is reset or freed. To keep a value longer,
 *   copy it with ca_value_copy_into(arena, v) (expr.h). (Short literal strings
 *   may instead be shared, process-wide, until ca_intern_cleanup(): see
 *   ca_str_shared.) Expression trees and nested ads belong to the arena of
 *   the ad that contains them; ca_ad_free() frees all of it.
 */
#ifndef CA_VALUE_H
#define CA_VALUE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "strbuf.h"

/* ORDER KINDS: ca_kind_name[] in value.c follows this order. */
typedef enum ca_kind {
	CA_ERROR,
	CA_UNDEFINED,
	CA_BOOL,
	CA_INT,
	CA_REAL,
	CA_STRING,
	CA_LIST,
	CA_AD,
	CA_ABSTIME,
	CA_RELTIME
} ca_kind;

struct ca_adval;

typedef struct ca_value {
	uint8_t kind;		/* a ca_kind */
	union {
		uint32_t len;	/* STRING: bytes (no NUL inside); LIST: items */
		int32_t off;	/* ABSTIME: offset from UTC in seconds */
	} x;
	union ca_payload {
		bool b;				/* BOOL */
		int64_t i;			/* INT; ABSTIME: seconds since the epoch */
		double r;			/* REAL; RELTIME: seconds */
		const char *s;			/* STRING: NUL-terminated */
		const struct ca_value *items;	/* LIST */
		const struct ca_adval *ad;	/* AD */
		const char *why;		/* ERROR: reason or NULL */
	} u;
} ca_value;

/* An ad as a value: the ad and where it was found (the scope around it
 * and the two ads of the match), so that names inside it resolve as they
 * do there (see eval.h, ca_frame). */
struct ca_ad;
struct ca_frame;
typedef struct ca_adval {
	const struct ca_ad *ad;
	const struct ca_frame *scope;	/* enclosing scope, or NULL */
	const struct ca_ad *my;		/* MY where it was found; NULL: a record
					 * on its own, its own MY */
	const struct ca_ad *target;	/* TARGET where it was found, or NULL */
} ca_adval;

extern const char *const ca_kind_name[];

static inline ca_value ca_undef(void) { ca_value v = { CA_UNDEFINED, {0}, {0} }; return v; }
static inline ca_value ca_error(const char *why) { ca_value v = { CA_ERROR, {0}, {0} }; v.u.why = why; return v; }
static inline ca_value ca_bool(bool b) { ca_value v = { CA_BOOL, {0}, {0} }; v.u.b = b; return v; }
static inline ca_value ca_int(int64_t i) { ca_value v = { CA_INT, {0}, {0} }; v.u.i = i; return v; }
static inline ca_value ca_real(double r) { ca_value v = { CA_REAL, {0}, {0} }; v.u.r = r; return v; }
static inline ca_value ca_str(const char *s, uint32_t len) { ca_value v = { CA_STRING, {0}, {0} }; v.x.len = len; v.u.s = s; return v; }
static inline ca_value ca_list(const ca_value *items, uint32_t n) { ca_value v = { CA_LIST, {0}, {0} }; v.x.len = n; v.u.items = items; return v; }
static inline ca_value ca_adv(const ca_adval *ad) { ca_value v = { CA_AD, {0}, {0} }; v.u.ad = ad; return v; }
static inline ca_value ca_abstime(int64_t secs, int32_t off) { ca_value v = { CA_ABSTIME, {0}, {0} }; v.x.off = off; v.u.i = secs; return v; }
static inline ca_value ca_reltime(double secs) { ca_value v = { CA_RELTIME, {0}, {0} }; v.u.r = secs; return v; }

static inline bool ca_is_num(ca_value v) { return v.kind == CA_INT || v.kind == CA_REAL; }

/* A string value copied into arena a (NUL-terminated). Strings longer than
 * UINT32_MAX bytes give ERROR. */
ca_value ca_str_new(ca_arena *a, const char *s, size_t len);

/* The shared copy of the string s[0..len) (no NUL inside), for literals:
 * NULL when longer than CA_SHARED_STR bytes or when the table is full. */
#define CA_SHARED_STR 31
const char *ca_str_shared(const char *s, size_t len);
bool ca_str_shared_full(void);		/* no string enters any more */
void ca_str_shared_cleanup(void);	/* ca_intern_cleanup() calls it */

/* The truth of v where the logic operators need to tell values apart: 1
 * true, 0 false (a nonzero number is true, NaN too), -1 a value that is not
 * boolean-equivalent, -2 UNDEFINED, -3 ERROR. */
static inline int
ca_logic_truth(ca_value v)
{
	switch (v.kind) {
	case CA_BOOL: return v.u.b;
	case CA_INT: return v.u.i != 0;
	case CA_REAL: return v.u.r != 0.0;
	case CA_UNDEFINED: return -2;
	case CA_ERROR: return -3;
	default: return -1;
	}
}

/* "Boolean-equivalent" test of HTCondor: bool, or a number (nonzero is true;
 * NaN too). Returns 1 true, 0 false, -1 when v is not boolean-equivalent. */
static inline int
ca_value_truth(ca_value v)
{
	int t = ca_logic_truth(v);

	return t < 0 ? -1 : t;
}

/* The ERROR of && or || of a value that is not boolean-equivalent. */
static inline ca_value
ca_logic_error(bool and)
{
	return ca_error(and ? "'&&' of a value that is not a boolean" :
	    "'||' of a value that is not a boolean");
}

/* Three-valued logic: && and || with HTCondor's tables, for every place
 * that combines truth values (the evaluators, --explain, the analysis).
 * ca_logic_left looks at the left operand alone and returns true, with *out
 * the result, when it decides (false && x, true || x, ERROR, a value that is
 * not boolean-equivalent); otherwise the right operand is needed and
 * ca_logic_right gives the result. UNDEFINED on the left decides nothing:
 * UNDEFINED && false is false, UNDEFINED || true is true. */
static inline bool
ca_logic_left(bool and, ca_value l, ca_value *out)
{
	int t = ca_logic_truth(l);

	if (t == (int)and || t == -2)	/* true && x, false || x, UNDEFINED */
		return false;		/* the right side decides */
	if (t == -3)
		*out = l;
	else
		*out = t < 0 ? ca_logic_error(and) : ca_bool(t);
	return true;
}

static inline ca_value
ca_logic_right(bool and, ca_value l, ca_value r)
{
	int t = ca_logic_truth(r);

	if (t == -3)
		return r;
	if (t == -2 || (t == (int)and && l.kind == CA_UNDEFINED))
		return ca_undef();
	return t < 0 ? ca_logic_error(and) : ca_bool(t);
}

/* Both steps on two values already at hand; *right (may be NULL) says
 * whether r counted. */
static inline ca_value
ca_logic(bool and, ca_value l, ca_value r, bool *right)
{
	ca_value v;
	bool decided = ca_logic_left(and, l, &v);

	if (right != NULL)
		*right = !decided;
	return decided ? v : ca_logic_right(and, l, r);
}

/* =?= : identical type and value; strings case-sensitive. Lists and ads on
 * both sides give ERROR (as HTCondor). */
ca_value ca_value_identical(ca_value a, ca_value b);

/* Hashing and identity of values for tables (not the language's =?=):
 * reals by their bits, strings case-sensitively, ads by identity. */
static inline uint64_t
ca_hash_mix(uint64_t h, uint64_t x)
{
	return (h ^ (x + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2))) *
	    UINT64_C(0xff51afd7ed558ccd);
}
uint64_t ca_hash_bytes(uint64_t h, const char *s, size_t n);
uint64_t ca_value_hash(uint64_t h, ca_value v);
bool ca_value_same(ca_value a, ca_value b);

/* Number <-> text without the locale (number.c). ca_strtod parses as
 * strtod does, with '.' whatever LC_NUMERIC says, exactly. */
double ca_strtod(const char *s, char **end);
/* The real of s[0..n), decimal text the lexer took for one
 * (DIGITS[.DIGITS][e[+-]DIGITS]). */
double ca_real_of_text(const char *s, size_t n);
/* The real mant * 10^exp10 (negated with neg) when one exact operation of
 * doubles gives it correctly rounded (at most 2^53 and a power of ten
 * that doubles hold); false otherwise (then strtod it). */
bool ca_dec_to_real(uint64_t mant, int exp10, bool neg, double *out);
/* The first of %.15g, %.16g and %.17g of r that reads back as r, into buf
 * (32 bytes); returns its length. */
size_t ca_real_shortest(char *buf, double r);
/* Integers as decimal text into buf (20 and 21 bytes); returns the length
 * (no NUL is written). */
size_t ca_fmt_u64(char *buf, uint64_t v);
size_t ca_fmt_i64(char *buf, int64_t v);

/* The whole seconds of a relative time, as HTCondor converts one to a
 * number or to text: truncated toward zero (NaN and infinities as they
 * are). */
static inline double
ca_reltime_secs(double r)
{
	return trunc(r);
}

#endif
