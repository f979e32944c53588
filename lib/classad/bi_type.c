/* bi_type.c - builtins of types: isString() and the other predicates, int(),
 * real(), string() and bool(), whose rules the other families use too. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "builtins_int.h"
#include "eval.h"
#include "print.h"

/* ---- argument helpers ---- */

static int
find_kind(const ca_value *argv, int argc, int kind)
{
	for (int i = 0; i < argc; i++)
		if (argv[i].kind == kind)
			return i;
	return -1;
}

int
ca_bi_bad_arg(const ca_value *argv, int argc, bool undef_first, ca_value *res)
{
	int e = find_kind(argv, argc, CA_ERROR), u = find_kind(argv, argc, CA_UNDEFINED);

	if (e >= 0 && (u < 0 || !undef_first)) {
		*res = argv[e];
		return 1;
	}
	if (u >= 0) {
		*res = ca_undef();
		return 1;
	}
	return 0;
}

int
ca_bi_strings(const ca_value *argv, int argc, const char *why, ca_value *res)
{
	for (int i = 0; i < argc; i++)
		if (argv[i].kind != CA_STRING) {
			*res = error_or(argv[i], why);
			return 1;
		}
	return 0;
}

/* A string of the scratch arena holding the text of sb; sb is released. */
ca_value
ca_bi_sb_value(ca_ctx *cx, strbuf *sb)
{
	ca_value v = ca_str_new(&cx->scratch, sb->buf, sb->len);

	strbuf_release(sb);
	return v;
}

/* Append the text string() gives for v to sb. */
int
ca_bi_add_text(strbuf *sb, ca_value v)
{
	switch (v.kind) {
	case CA_UNDEFINED:
		return T_UNDEF;
	case CA_ERROR:
		return T_ERROR;
	case CA_STRING:
		strbuf_add(sb, v.u.s, v.x.len);
		return T_OK;
	default:
		ca_value_to_string(sb, v);
		return T_OK;
	}
}

/* The text string() gives for v (NUL-terminated, in scratch or v's own). */
int
ca_bi_text(ca_ctx *cx, ca_value v, const char **s, size_t *len)
{
	if (v.kind == CA_STRING) {
		*s = v.u.s;
		*len = v.x.len;
		return T_OK;
	}
	strbuf sb = STRBUF_INIT;
	int k = ca_bi_add_text(&sb, v);
	if (k != T_OK) {
		strbuf_release(&sb);
		return k;
	}
	ca_value t = ca_bi_sb_value(cx, &sb);
	if (t.kind != CA_STRING)
		return T_ERROR;
	*s = t.u.s;
	*len = t.x.len;
	return T_OK;
}

/* Double to int64 when it is a number in range (not NaN or infinite). */
bool
ca_bi_real_to_int(double r, int64_t *out)
{
	if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
		return false;
	*out = (int64_t)r;
	return true;
}

/* HTCondor's real(): numbers, booleans, times (relative times in whole
 * seconds), and strings through strtod (a prefix is enough: "12abc" is
 * 12). */
int
ca_bi_conv_real(ca_value v, double *out)
{
	char *end;

	switch (v.kind) {
	case CA_UNDEFINED:
		return N_UNDEF;
	case CA_BOOL:
		*out = v.u.b;
		return N_OK;
	case CA_INT:
		*out = (double)v.u.i;
		return N_OK;
	case CA_REAL:
		*out = v.u.r;
		return N_OK;
	case CA_RELTIME:
		*out = ca_reltime_secs(v.u.r);
		return N_OK;
	case CA_ABSTIME:
		*out = (double)v.u.i;
		return N_OK;
	case CA_STRING:
		*out = ca_strtod(v.u.s, &end);
		return end == v.u.s ? N_BAD : N_OK;
	default:
		return N_BAD;
	}
}

/* HTCondor's int(): as real() then truncated toward zero. NaN, infinities
 * and reals out of the int64 range are not integers (N_BAD). */
int
ca_bi_conv_int(ca_value v, int64_t *out)
{
	double r;
	int k;

	switch (v.kind) {
	case CA_INT:
	case CA_ABSTIME:
		*out = v.u.i;
		return N_OK;
	case CA_BOOL:
		*out = v.u.b;
		return N_OK;
	default:
		if ((k = ca_bi_conv_real(v, &r)) != N_OK)
			return k;
		return ca_bi_real_to_int(r, out) ? N_OK : N_BAD;
	}
}

/* ---- the functions ---- */

/* isUndefined(x), isError(x), ..., isRelTime(x): whether x is of kind op. */
ca_value
ca_bi_is(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	return ca_bool(argv[0].kind == op);
}

/* int(x) and real(x) (op: the kind): x converted with HTCondor's rules
 * (ca_bi_conv_int, ca_bi_conv_real); lists and records are not numbers. */
ca_value
ca_bi_number(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value v = argv[0];
	int64_t i;
	double r;

	if (v.kind == CA_UNDEFINED || v.kind == CA_ERROR || v.kind == op)
		return v;
	if (v.kind == CA_LIST || v.kind == CA_AD)
		return ca_error(op == CA_INT ? "int: argument is a list or record" :
		    "real: argument is a list or record");
	if (op == CA_REAL)
		return ca_bi_conv_real(v, &r) == N_OK ? ca_real(r) :
		    ca_error("real: string is not a number");
	if (ca_bi_conv_int(v, &i) != N_OK)
		return ca_error(v.kind == CA_STRING ? "int: string is not a number" :
		    "int: not a number or out of the integer range");
	return ca_int(i);
}

ca_value
ca_bi_string(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	const char *s;
	size_t n;

	if (argv[0].kind == CA_UNDEFINED || argv[0].kind == CA_ERROR || argv[0].kind == CA_STRING)
		return argv[0];
	if (ca_bi_text(cx, argv[0], &s, &n) != T_OK)
		return ca_error("string: text too long");
	return ca_str(s, (uint32_t)n);
}

/* bool(x): numbers and relative times are true when nonzero; strings
 * "true"/"false" in any case, other strings UNDEFINED. */
ca_value
ca_bi_bool(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value v = argv[0];

	switch (v.kind) {
	case CA_UNDEFINED:
	case CA_ERROR:
	case CA_BOOL:
		return v;
	case CA_INT:
		return ca_bool(v.u.i != 0);
	case CA_REAL:
		return ca_bool(v.u.r != 0.0);
	case CA_RELTIME:
		return ca_bool(fabs(v.u.r) >= 1.0);	/* whole seconds, as HTCondor */
	case CA_STRING:
		if (ca_fold_cmp(v.u.s, v.x.len, "true", 4) == 0)
			return ca_bool(true);
		if (ca_fold_cmp(v.u.s, v.x.len, "false", 5) == 0)
			return ca_bool(false);
		return ca_undef();
	default:
		return ca_error("bool: argument is a time, list or record");
	}
}
