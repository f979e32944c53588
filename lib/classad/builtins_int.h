/* builtins_int.h - what the families of builtin functions (bi_*.c) share:
 * their entry points for the table in builtins.c, and argument helpers. */
#ifndef CA_BUILTINS_INT_H
#define CA_BUILTINS_INT_H

#define PCRE2_CODE_UNIT_WIDTH 8

#include <pcre2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ascii.h"
#include "node.h"
#include "strbuf.h"
#include "value.h"
#include "vec.h"

struct ca_ctx;
struct ca_frame;

/* The entry points: a strict builtin gets values, a lazy one expressions
 * (see ca_fn and ca_lazy_fn in builtins.h). */
#define CA_BI(name) ca_value name(struct ca_ctx *cx, const struct ca_frame *f, int op, \
    const ca_value *argv, int argc)
#define CA_BI_LAZY(name) ca_value name(struct ca_ctx *cx, const struct ca_frame *f, int op, \
    ca_expr *const *args, int argc)

/* bi_type.c: type predicates (op: the kind) and conversions */
CA_BI(ca_bi_is);
CA_BI(ca_bi_number);
CA_BI(ca_bi_string);
CA_BI(ca_bi_bool);
/* bi_math.c: rounding (op: floor, ceiling, round), powers, quanta, chance */
CA_BI(ca_bi_round);
CA_BI(ca_bi_pow);
CA_BI(ca_bi_quantize);
CA_BI(ca_bi_random);
/* bi_string.c: strings, comparisons and version numbers */
CA_BI(ca_bi_strcat);
CA_BI(ca_bi_join);
CA_BI(ca_bi_case);
CA_BI(ca_bi_substr);
CA_BI(ca_bi_strcmp);
CA_BI(ca_bi_version);
CA_BI(ca_bi_version_in_range);
/* bi_list.c: lists, and HTCondor's string lists ("a, b, c") */
CA_BI(ca_bi_summary);
CA_BI(ca_bi_member);
CA_BI(ca_bi_compare);
CA_BI(ca_bi_size);
CA_BI(ca_bi_split);
CA_BI(ca_bi_split_at);
CA_BI(ca_bi_sl_size);
CA_BI(ca_bi_sl_summary);
CA_BI(ca_bi_sl_member);
CA_BI(ca_bi_sl_subset);
CA_BI(ca_bi_sl_intersect);
/* bi_regex.c: PCRE2 regular expressions */
CA_BI(ca_bi_regexp);
CA_BI(ca_bi_regexp_member);
CA_BI(ca_bi_substitute);
CA_BI(ca_bi_sl_regexp_member);
/* bi_time.c: the clock, absolute and relative times */
CA_BI(ca_bi_time);
CA_BI(ca_bi_current_time);
CA_BI(ca_bi_tz_offset);
CA_BI(ca_bi_day_time);
CA_BI(ca_bi_abstime);
CA_BI(ca_bi_reltime);
CA_BI(ca_bi_time_field);
CA_BI(ca_bi_split_time);
CA_BI(ca_bi_format_time);
CA_BI(ca_bi_interval);
/* bi_args.c: the argument and environment strings of job ads */
CA_BI(ca_bi_args_to_list);
CA_BI(ca_bi_list_to_args);
CA_BI(ca_bi_env_v1_to_v2);
CA_BI(ca_bi_merge_env);
/* bi_eval.c: builtins that look at expressions, not only values */
CA_BI_LAZY(ca_bi_if);
CA_BI(ca_bi_eval);
CA_BI_LAZY(ca_bi_unparse);
CA_BI_LAZY(ca_bi_unresolved);
CA_BI_LAZY(ca_bi_each_context);
CA_BI(ca_bi_debug);

/* What op tells the functions that serve several builtins. */
enum { R_FLOOR, R_CEILING, R_ROUND };				/* ca_bi_round */
enum { V_CMP, V_LT, V_LE, V_GT, V_GE, V_EQ };			/* ca_bi_version */
enum { SUM, AVG, MIN, MAX };	/* ca_bi_summary, ca_bi_sl_summary */
enum { SUB_REGEXPS, SUB_REPLACE, SUB_REPLACE_ALL };		/* ca_bi_substitute */
enum {								/* ca_bi_time_field */
	F_YEAR, F_MONTH, F_DAYOFYEAR, F_DAYOFMONTH, F_DAYOFWEEK,
	F_DAYS, F_HOURS, F_MINUTES, F_SECONDS
};

/* ---- helpers ---- */

/* v itself when it is an ERROR (keeping its reason), else an ERROR why. */
static inline ca_value
error_or(ca_value v, const char *why)
{
	return v.kind == CA_ERROR ? v : ca_error(why);
}

static inline ca_value
empty_str(void)
{
	return ca_str("", 0);
}

static inline int
sign(int c)
{
	return c < 0 ? -1 : c > 0;
}

/* Byte-wise comparison of two counted strings: <0, 0 or >0. */
static inline int
byte_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	if (c)
		return c;
	return an < bn ? -1 : an > bn;
}

/* The first argument that is ERROR (or with undef_first, the first that is
 * UNDEFINED, then ERROR), else the first UNDEFINED: 1 with *res set to the
 * result to give back, or 0 when every argument is defined. */
int ca_bi_bad_arg(const ca_value *argv, int argc, bool undef_first, ca_value *res);
/* Every argument a string: 0, else 1 with *res the first that is not when
 * it is an ERROR, or ERROR why. */
int ca_bi_strings(const ca_value *argv, int argc, const char *why, ca_value *res);

/* A string of the scratch arena holding the text of sb; sb is released. */
ca_value ca_bi_sb_value(struct ca_ctx *cx, strbuf *sb);

/* Outcome of converting a value with string() and of numeric conversions. */
enum { T_OK, T_UNDEF, T_ERROR };
enum { N_OK, N_UNDEF, N_BAD };

/* Append the text string() gives for v to sb: T_OK, T_UNDEF or T_ERROR. */
int ca_bi_add_text(strbuf *sb, ca_value v);
/* The text string() gives for v (NUL-terminated, in scratch or v's own). */
int ca_bi_text(struct ca_ctx *cx, ca_value v, const char **s, size_t *len);
/* Double to int64 when it is a number in range (not NaN or infinite). */
bool ca_bi_real_to_int(double r, int64_t *out);
/* HTCondor's real() and int() of a value: N_OK, N_UNDEF or N_BAD. */
int ca_bi_conv_real(ca_value v, double *out);
int ca_bi_conv_int(ca_value v, int64_t *out);

/* A list value of n items copied into scratch. */
ca_value ca_bi_list(struct ca_ctx *cx, const ca_value *items, size_t n);
/* A list being built; ca_bi_list_done makes it a value and frees it. */
typedef ca_vec(ca_value) ca_bi_items;
ca_value ca_bi_list_done(struct ca_ctx *cx, ca_bi_items *l);

/* The next token of the string list s[0..n) from *pos, HTCondor's way:
 * delimiters are a set and empty tokens are skipped; with trim, white
 * space is skipped too and trimmed from around tokens (the compat string
 * list functions), without it a token is every run of other bytes. */
bool ca_bi_token(const char *s, size_t n, size_t *pos, const char *delims, size_t dn,
    bool trim, const char **t, size_t *tl);

/* PCRE2: a compiled pattern, or NULL when it is not valid; whether it
 * matches somewhere in s (1, 0, or -1 when matching failed). */
pcre2_code *ca_bi_re_compile(const char *pat, size_t len, uint32_t opts);
int ca_bi_re_search(const pcre2_code *re, const char *s, size_t len, uint32_t opts);

#endif
