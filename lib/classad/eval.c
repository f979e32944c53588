/* eval.c - what evaluation works with: contexts, ad values with their scope,
 * and the operators on values (ca_eval_binop) with HTCondor's rules. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ascii.h"
#include "eval.h"

/* ORDER: enum ca_special */
static const char *const special_names[CA_SP_N] = {
	"self", "parent", "toplevel", "root", "my", "target", "other", "CurrentTime"
};

void
ca_ctx_init(ca_ctx *cx)
{
	memset(cx, 0, sizeof *cx);
	cx->now = (int64_t)time(NULL);
	cx->rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)cx->now;
	cx->max_steps = CA_EVAL_MAX_STEPS;
	cx->max_bytes = CA_EVAL_MAX_BYTES;
	cx->empty = ca_ad_new();
	cx->around = (ca_frame){ cx->empty, NULL, cx->empty, NULL };
	for (int i = 0; i < CA_SP_N; i++) {
		cx->special[i] = ca_intern(special_names[i], strlen(special_names[i]));
		cx->special_hashes |= UINT64_C(1) << (cx->special[i]->hash & 63);
	}
}

void
ca_ctx_free(ca_ctx *cx)
{
	ca_arena_free(&cx->scratch);
	ca_ad_free(cx->empty);
	cx->empty = NULL;
}

/* ---- ad values and frames ---- */

static const ca_frame *
copy_chain(ca_ctx *cx, const ca_frame *f)
{
	if (f == NULL)
		return NULL;
	ca_frame *c = ca_arena_alloc(&cx->scratch, sizeof *c);
	*c = *f;
	c->up = copy_chain(cx, f->up);
	return c;
}

static ca_value
adval(ca_ctx *cx, const ca_ad *ad, const ca_frame *scope, const ca_ad *my, const ca_ad *target)
{
	ca_adval *av = ca_arena_alloc(&cx->scratch, sizeof *av);

	av->ad = ad;
	av->scope = copy_chain(cx, scope);
	av->my = my;
	av->target = target;
	return ca_adv(av);
}

ca_value
ca_make_adval(ca_ctx *cx, const ca_ad *ad, const ca_frame *f)
{
	return adval(cx, ad, f, f ? f->my : NULL, f ? f->target : NULL);
}

ca_value
ca_frame_adval(ca_ctx *cx, const ca_frame *f)
{
	return adval(cx, f->ad, f->up, f->my, f->target);
}

void
ca_adval_frame(const ca_adval *av, ca_frame *out)
{
	out->ad = av->ad;
	out->up = av->scope;
	out->my = av->my ? av->my : av->ad;
	out->target = av->my ? av->target : NULL;
}

/* ---- operators ---- */

/* Number view of a value for arithmetic and comparison: 1 int, 2 real, 0 no. */
static int
numeric(ca_value v, int64_t *i, double *r)
{
	switch (v.kind) {
	case CA_BOOL: *i = v.u.b; *r = v.u.b; return 1;
	case CA_INT: *i = v.u.i; *r = (double)v.u.i; return 1;
	case CA_REAL: *r = v.u.r; return 2;
	default: return 0;
	}
}

static ca_value
real_result(double r)
{
	if (r == HUGE_VAL)
		return ca_error("real overflow");
	return ca_real(r);
}

/* abstime + seconds, ERROR when the result leaves the representable range. */
static ca_value
abs_plus(int64_t secs, int32_t off, double d)
{
	if (!(d > -9.2e18 && d < 9.2e18))
		return ca_error("time out of range");
	int64_t r;
	if (__builtin_add_overflow(secs, (int64_t)d, &r) ||
	    r > INT64_MAX / 2 || r < INT64_MIN / 2)
		return ca_error("time out of range");
	return ca_abstime(r, off);
}

static double
num_of(ca_value v)
{
	return v.kind == CA_REAL ? v.u.r : (double)(v.kind == CA_BOOL ? v.u.b : v.u.i);
}

static __attribute__((noinline)) ca_value
time_arith(int op, ca_value a, ca_value b)
{
	int64_t ii;
	double rr;
	int an = numeric(a, &ii, &rr), bn = numeric(b, &ii, &rr);

	if (a.kind == CA_ABSTIME && b.kind == CA_RELTIME && (op == CA_T_PLUS || op == CA_T_MINUS))
		return abs_plus(a.u.i, a.x.off, op == CA_T_PLUS ? b.u.r : -b.u.r);
	if (a.kind == CA_RELTIME && b.kind == CA_ABSTIME && op == CA_T_PLUS)
		return abs_plus(b.u.i, b.x.off, a.u.r);
	if (a.kind == CA_ABSTIME && b.kind == CA_ABSTIME && op == CA_T_MINUS)
		return ca_reltime((double)a.u.i - (double)b.u.i);
	if (a.kind == CA_RELTIME && b.kind == CA_RELTIME && (op == CA_T_PLUS || op == CA_T_MINUS))
		return ca_reltime(op == CA_T_PLUS ? a.u.r + b.u.r : a.u.r - b.u.r);
	/* a relative time scales by a number, not by a boolean */
	if (a.kind == CA_RELTIME && bn && b.kind != CA_BOOL &&
	    (op == CA_T_STAR || op == CA_T_SLASH)) {
		double x = num_of(b);
		if (op == CA_T_SLASH && x == 0)
			return ca_error("division of a relative time by zero");
		return ca_reltime(op == CA_T_STAR ? a.u.r * x : a.u.r / x);
	}
	if (b.kind == CA_RELTIME && an && a.kind != CA_BOOL && op == CA_T_STAR)
		return ca_reltime(b.u.r * num_of(a));
	return ca_error("arithmetic on times of the wrong kinds");
}

static ca_value
arith(int op, ca_value a, ca_value b)
{
	int64_t ai = 0, bi = 0;
	double ar = 0, br = 0;

	if (a.kind == CA_ABSTIME || a.kind == CA_RELTIME || b.kind == CA_ABSTIME || b.kind == CA_RELTIME)
		return time_arith(op, a, b);
	int an = numeric(a, &ai, &ar), bn = numeric(b, &bi, &br);
	if (!an || !bn)
		return ca_error("arithmetic on a value that is not a number");
	if (an == 1 && bn == 1) {
		uint64_t x = (uint64_t)ai, y = (uint64_t)bi;
		switch (op) {
		case CA_T_PLUS: return ca_int((int64_t)(x + y));
		case CA_T_MINUS: return ca_int((int64_t)(x - y));
		case CA_T_STAR: return ca_int((int64_t)(x * y));
		case CA_T_SLASH:
			if (bi == 0)
				return ca_error("integer division by zero");
			if (ai == INT64_MIN && bi == -1)
				return ca_int(INT64_MAX);
			return ca_int(ai / bi);
		default:
			if (bi == 0)
				return ca_error("integer modulo by zero");
			if (bi == -1)
				return ca_int(0);
			return ca_int(ai % bi);
		}
	}
	switch (op) {
	case CA_T_PLUS: return real_result(ar + br);
	case CA_T_MINUS: return real_result(ar - br);
	case CA_T_STAR: return real_result(ar * br);
	case CA_T_SLASH: return real_result(ar / br);
	default: return ca_error("'%' of a real number");
	}
}

static ca_value
compare(int op, ca_value a, ca_value b)
{
	int c;
	int64_t ai = 0, bi = 0;
	double ar = 0, br = 0;
	int an = numeric(a, &ai, &ar), bn = numeric(b, &bi, &br);

	if (an && bn) {
		if (an == 1 && bn == 1)
			c = ai < bi ? -1 : ai > bi;
		else if (ar < br)
			c = -1;
		else if (ar > br)
			c = 1;
		else if (ar == br)
			c = 0;
		else	/* NaN: only != holds */
			return ca_bool(op == CA_T_NE);
	} else if (a.kind == CA_STRING && b.kind == CA_STRING)
		c = ca_fold_cmp(a.u.s, a.x.len, b.u.s, b.x.len);
	else if (a.kind == CA_ABSTIME && b.kind == CA_ABSTIME)
		c = a.u.i < b.u.i ? -1 : a.u.i > b.u.i;
	else if (a.kind == CA_RELTIME && b.kind == CA_RELTIME)
		c = a.u.r < b.u.r ? -1 : a.u.r > b.u.r;
	else
		return ca_error("comparison of values of different kinds");
	switch (op) {
	case CA_T_LT: return ca_bool(c < 0);
	case CA_T_LE: return ca_bool(c <= 0);
	case CA_T_GT: return ca_bool(c > 0);
	case CA_T_GE: return ca_bool(c >= 0);
	case CA_T_EQ: return ca_bool(c == 0);
	default: return ca_bool(c != 0);
	}
}

static ca_value
bitwise(int op, ca_value a, ca_value b)
{
	if (a.kind != CA_INT || b.kind != CA_INT)
		return ca_error("bitwise operator on a value that is not an integer");
	int64_t x = a.u.i, y = b.u.i;
	switch (op) {
	case CA_T_AMP: return ca_int(x & y);
	case CA_T_BAR: return ca_int(x | y);
	case CA_T_CARET: return ca_int(x ^ y);
	default:
		break;
	}
	if (y < 0 || y >= 64)
		return ca_error("shift count outside 0-63");
	switch (op) {
	case CA_T_SHL: return ca_int((int64_t)((uint64_t)x << y));
	case CA_T_SHR: return ca_int(x < 0 ? ~(~x >> y) : x >> y);
	default: return ca_int((int64_t)((uint64_t)x >> y));
	}
}

ca_value
ca_eval_binop(ca_ctx *cx, int op, ca_value a, ca_value b)
{
	switch (op) {
	case CA_T_META_EQ: case CA_T_IS:
		return ca_value_identical(a, b);
	case CA_T_META_NE: case CA_T_ISNT: {
		ca_value v = ca_value_identical(a, b);
		return v.kind == CA_BOOL ? ca_bool(!v.u.b) : v;
	}
	default:
		break;
	}
	/* strict operators: ERROR wins over UNDEFINED */
	if (a.kind == CA_ERROR)
		return a;
	if (b.kind == CA_ERROR)
		return b;
	if (a.kind == CA_UNDEFINED || b.kind == CA_UNDEFINED)
		return ca_undef();
	switch (op) {
	case CA_T_PLUS: case CA_T_MINUS: case CA_T_STAR: case CA_T_SLASH: case CA_T_PERCENT:
		return arith(op, a, b);
	case CA_T_LT: case CA_T_LE: case CA_T_GT: case CA_T_GE: case CA_T_EQ: case CA_T_NE:
		return compare(op, a, b);
	default:
		return bitwise(op, a, b);
	}
}
