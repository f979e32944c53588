/* eval.c - evaluates expression trees with HTCondor's semantics: scoping
 * (MY, TARGET, enclosing ads), three-valued logic, strict operators, numeric
 * promotion and wrapping, with bounded depth and work. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "builtins.h"
#include "eval.h"
#include "lexer.h"
#include "print.h"

enum { SP_SELF, SP_PARENT, SP_TOPLEVEL, SP_ROOT, SP_MY, SP_TARGET, SP_OTHER, SP_CURRENTTIME };
static const char *const special_names[8] = {
	"self", "parent", "toplevel", "root", "my", "target", "other", "CurrentTime"
};

void
ca_ctx_init(ca_ctx *cx)
{
	memset(cx, 0, sizeof *cx);
	cx->now = (int64_t)time(NULL);
	cx->rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)cx->now;
	cx->empty = ca_ad_new();
	for (int i = 0; i < 8; i++)
		cx->special[i] = ca_intern(special_names[i], strlen(special_names[i]));
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

ca_value
ca_make_adval(ca_ctx *cx, const ca_ad *ad, const ca_frame *f)
{
	ca_adval *av = ca_arena_alloc(&cx->scratch, sizeof *av);

	av->ad = ad;
	av->scope = copy_chain(cx, f);
	return ca_adv(av);
}

void
ca_adval_frame(const ca_adval *av, const ca_frame *from, ca_frame *out)
{
	out->ad = av->ad;
	out->up = av->scope;
	out->my = av->scope ? av->scope->my : from->my;
	out->target = av->scope ? av->scope->target : from->target;
}

/* ---- attribute lookup ---- */

static inline __attribute__((always_inline)) ca_value
eval_attr(ca_ctx *cx, ca_attr *at, const ca_frame *f)
{
	if (at->is_lit && cx->trace == NULL) {
		cx->steps++;
		return at->lit;
	}
	if (at->busy)
		return ca_error("circular reference");
	at->busy = 1;
	ca_value v = ca_eval(cx, at->expr, f);
	at->busy = 0;
	return v;
}

/* name in the ad `side` as the root of its own side of the match. */
static inline __attribute__((always_inline)) ca_value
in_side(ca_ctx *cx, const ca_name *name, const ca_ad *side, const ca_ad *other)
{
	ca_attr *at = ca_ad_find(side, name);

	if (at == NULL)
		return ca_undef();
	ca_frame f = { side, NULL, side, other };
	return eval_attr(cx, at, &f);
}

static const ca_frame *
root_frame(const ca_frame *f)
{
	while (f->up)
		f = f->up;
	return f;
}

ca_value
ca_eval_name(ca_ctx *cx, const ca_name *name, const ca_frame *f)
{
	for (const ca_frame *s = f; s; s = s->up) {
		ca_attr *at = ca_ad_find(s->ad, name);
		if (at)
			return eval_attr(cx, at, s);
	}
	const ca_name *const *sp = cx->special;
	if (name == sp[SP_SELF])
		return ca_make_adval(cx, f->ad, f->up);
	if (name == sp[SP_PARENT])
		return f->up ? ca_make_adval(cx, f->up->ad, f->up->up) : ca_undef();
	if (name == sp[SP_TOPLEVEL] || name == sp[SP_ROOT])
		return ca_make_adval(cx, root_frame(f)->ad, NULL);
	bool match = f->target != NULL;
	if (name == sp[SP_MY] && (match || !cx->strict))
		return ca_make_adval(cx, f->my, NULL);
	if ((name == sp[SP_TARGET] || name == sp[SP_OTHER]) && match)
		return ca_make_adval(cx, f->target, NULL);
	if (cx->strict)
		return ca_undef();
	if (name == sp[SP_CURRENTTIME])
		return ca_int(cx->now);
	/* HTCondor daemon rule: a name not found on this side is looked up in
	 * the other ad of the match. */
	if (match)
		return in_side(cx, name, f->target, f->my);
	return ca_undef();
}

static ca_value
eval_ref(ca_ctx *cx, const ca_expr *e, const ca_frame *f)
{
	const ca_name *name = e->u.attr.name;

	switch (e->op) {
	case CA_SC_NONE:
		return ca_eval_name(cx, name, f);
	case CA_SC_ROOT: {
		const ca_frame *r = root_frame(f);
		ca_attr *at = ca_ad_find(r->ad, name);
		return at ? eval_attr(cx, at, r) : ca_undef();
	}
	case CA_SC_MY:
		if (cx->strict && f->target == NULL)
			return ca_undef();
		return in_side(cx, name, f->my, f->target);
	default:	/* TARGET, OTHER */
		if (f->target == NULL)
			return ca_undef();
		return in_side(cx, name, f->target, f->my);
	}
}

int
ca_resolve_ref(ca_ctx *cx, const ca_expr *e, const ca_frame *f,
    ca_attr **at, ca_frame *out, const char **side)
{
	const ca_name *name = e->u.attr.name;
	const ca_name *const *sp = cx->special;

	*at = NULL;
	switch (e->op) {
	case CA_SC_NONE:
		for (const ca_frame *s = f; s; s = s->up) {
			if ((*at = ca_ad_find(s->ad, name)) != NULL) {
				*out = *s;
				*side = s == f ? (f->ad == f->my ? "MY" : f->ad == f->target ?
				    "TARGET" : "this ad") : "an enclosing ad";
				return 1;
			}
		}
		for (int i = 0; i < 8; i++)
			if (name == sp[i] && (!cx->strict || i < SP_MY || (i != SP_CURRENTTIME && f->target))) {
				*side = "a special name";
				return 2;
			}
		if (!cx->strict && f->target) {
			if ((*at = ca_ad_find(f->target, name)) != NULL) {
				*out = (ca_frame){ f->target, NULL, f->target, f->my };
				*side = "TARGET";
				return 1;
			}
			*side = cx->strict ? "MY" : "MY or TARGET";
			return 0;
		}
		*side = f->target ? "MY" : "MY (there is no target ad)";
		return 0;
	case CA_SC_ROOT: {
		const ca_frame *r = root_frame(f);
		*side = "the outermost ad";
		if ((*at = ca_ad_find(r->ad, name)) == NULL)
			return 0;
		*out = *r;
		return 1;
	}
	case CA_SC_MY:
		*side = "MY";
		if (cx->strict && f->target == NULL)
			return 0;
		if ((*at = ca_ad_find(f->my, name)) == NULL)
			return 0;
		*out = (ca_frame){ f->my, NULL, f->my, f->target };
		return 1;
	default:
		*side = f->target ? "TARGET" : "TARGET (there is no target ad)";
		if (f->target == NULL || (*at = ca_ad_find(f->target, name)) == NULL)
			return 0;
		*out = (ca_frame){ f->target, NULL, f->target, f->my };
		return 1;
	}
}

/* base.name where base is an ad (the ad's enclosing scopes are searched
 * too) or a list (the selection is applied to every element). */
static __attribute__((noinline)) ca_value
select_in(ca_ctx *cx, ca_value base, const ca_name *name, const ca_frame *f)
{
	switch (base.kind) {
	case CA_UNDEFINED:
	case CA_ERROR:
		return base;
	case CA_AD: {
		ca_frame af;
		ca_adval_frame(base.u.ad, f, &af);
		return ca_eval_name(cx, name, &af);
	}
	case CA_LIST: {
		ca_value *items = ca_arena_array(&cx->scratch, base.x.len, sizeof *items);
		for (uint32_t i = 0; i < base.x.len; i++) {
			ca_value it = base.u.items[i];
			items[i] = it.kind == CA_LIST ? ca_error("selection from a nested list") :
			    select_in(cx, it, name, f);
		}
		return ca_list(items, base.x.len);
	}
	default:
		return ca_error("selection ('.') from a value that is not a record");
	}
}

static __attribute__((noinline)) ca_value
eval_index(ca_ctx *cx, ca_value a, ca_value i, const ca_frame *f)
{
	if (a.kind == CA_ERROR || i.kind == CA_ERROR)
		return a.kind == CA_ERROR ? a : i;
	if (a.kind == CA_UNDEFINED || i.kind == CA_UNDEFINED)
		return ca_undef();
	if (a.kind == CA_LIST) {
		if (i.kind != CA_INT)
			return ca_error("list subscript is not an integer");
		if (i.u.i < 0 || i.u.i >= (int64_t)a.x.len)
			return ca_error("list subscript out of range");
		return a.u.items[i.u.i];
	}
	if (a.kind == CA_AD) {
		if (i.kind != CA_STRING)
			return ca_error("record subscript is not a string");
		const ca_name *nm = ca_intern_find(i.u.s, i.x.len);
		ca_attr *at = nm ? ca_ad_find(a.u.ad->ad, nm) : NULL;
		if (at == NULL)
			return ca_undef();
		ca_frame af;
		ca_adval_frame(a.u.ad, f, &af);
		return eval_attr(cx, at, &af);
	}
	return ca_error("subscript of a value that is not a list or record");
}

/* ---- operators ---- */

static ca_value
unop(int op, ca_value a)
{
	if (a.kind == CA_ERROR)
		return a;
	switch (op) {
	case CA_T_MINUS:
		switch (a.kind) {
		case CA_UNDEFINED: return a;
		case CA_INT: return ca_int((int64_t)(0 - (uint64_t)a.u.i));
		case CA_REAL: return ca_real(-a.u.r);
		case CA_RELTIME: return ca_reltime(-a.u.r);
		default: return ca_error("unary '-' of a value that is not a number");
		}
	case CA_T_PLUS:
		switch (a.kind) {
		case CA_UNDEFINED: case CA_INT: case CA_REAL: case CA_RELTIME: return a;
		default: return ca_error("unary '+' of a value that is not a number");
		}
	case CA_T_NOT:
		switch (a.kind) {
		case CA_UNDEFINED: return a;
		case CA_BOOL: return ca_bool(!a.u.b);
		case CA_INT: return ca_bool(a.u.i == 0);
		case CA_REAL: return ca_bool(a.u.r == 0.0);
		default: return ca_error("'!' of a value that is not a boolean or number");
		}
	default:	/* ~ */
		switch (a.kind) {
		case CA_UNDEFINED: return a;
		case CA_INT: return ca_int(~a.u.i);
		default: return ca_error("'~' of a value that is not an integer");
		}
	}
}

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
	if (a.kind == CA_RELTIME && bn && (op == CA_T_STAR || op == CA_T_SLASH)) {
		double x = num_of(b);
		if (op == CA_T_SLASH && x == 0)
			return ca_error("division of a relative time by zero");
		return ca_reltime(op == CA_T_STAR ? a.u.r * x : a.u.r / x);
	}
	if (b.kind == CA_RELTIME && an && op == CA_T_STAR)
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

static int
fold_cmp(const char *a, uint32_t an, const char *b, uint32_t bn)
{
	uint32_t n = an < bn ? an : bn;

	for (uint32_t i = 0; i < n; i++) {
		int x = (unsigned char)a[i], y = (unsigned char)b[i];
		if (x >= 'A' && x <= 'Z')
			x += 32;
		if (y >= 'A' && y <= 'Z')
			y += 32;
		if (x != y)
			return x - y;
	}
	return an < bn ? -1 : an > bn;
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
		c = fold_cmp(a.u.s, a.x.len, b.u.s, b.x.len);
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

/* && and || (value.h's tables); the right side only when needed. */
static ca_value
logical(ca_ctx *cx, const ca_expr *e, const ca_frame *f)
{
	bool and = e->op == CA_T_AND;
	ca_value l = ca_eval(cx, e->u.k.a, f), v;

	if (ca_logic_left(and, l, &v))
		return v;
	return ca_logic_right(and, l, ca_eval(cx, e->u.k.b, f));
}

static __attribute__((noinline)) ca_value
call(ca_ctx *cx, const ca_expr *e, const ca_frame *f)
{
	const ca_builtin *fn = e->u.call.fn;
	int n = (int)e->u.call.n;

	if (fn == NULL)
		return ca_error("unknown function");
	if (n < fn->min || (fn->max >= 0 && n > fn->max))
		return ca_error("wrong number of arguments");
	if (fn->lazy)
		return fn->lazy(cx, f, e->u.call.args, n);
	ca_value small[8];
	ca_value *argv = n <= 8 ? small : ca_arena_array(&cx->scratch, (size_t)n, sizeof *argv);
	for (int i = 0; i < n; i++)
		argv[i] = ca_eval(cx, e->u.call.args[i], f);
	return fn->fn(cx, f, argv, n);
}

static __attribute__((noinline)) ca_value
eval_list(ca_ctx *cx, const ca_expr *e, const ca_frame *f)
{
	uint32_t n = e->u.list.n;
	ca_value *items = ca_arena_array(&cx->scratch, n, sizeof *items);

	for (uint32_t i = 0; i < n; i++)
		items[i] = ca_eval(cx, e->u.list.items[i], f);
	return ca_list(items, n);
}

/* The common case of a comparison: two integers, or two strings with
 * == or != (what Requirements and START are made of). -1: not handled. */
static inline int
fast_compare(int op, ca_value a, ca_value b)
{
	if (a.kind == CA_INT && b.kind == CA_INT) {
		int64_t x = a.u.i, y = b.u.i;
		switch (op) {
		case CA_T_LT: return x < y;
		case CA_T_LE: return x <= y;
		case CA_T_GT: return x > y;
		case CA_T_GE: return x >= y;
		case CA_T_EQ: return x == y;
		case CA_T_NE: return x != y;
		default: return -1;
		}
	}
	if (a.kind == CA_STRING && b.kind == CA_STRING && (op == CA_T_EQ || op == CA_T_NE)) {
		if (a.x.len != b.x.len)
			return op == CA_T_NE;
		if (a.u.s == b.u.s || memcmp(a.u.s, b.u.s, a.x.len) == 0)
			return op == CA_T_EQ;
		return (fold_cmp(a.u.s, a.x.len, b.u.s, b.x.len) == 0) == (op == CA_T_EQ);
	}
	return -1;
}

/* One node; ca_eval wraps it with the work and depth bounds. */
static inline __attribute__((always_inline)) ca_value
eval_node(ca_ctx *cx, const ca_expr *e, const ca_frame *f)
{
	switch (e->node) {
	case CA_N_LIT:
		return e->u.lit;
	case CA_N_ATTR:
		return eval_ref(cx, e, f);
	case CA_N_SELECT:
		return select_in(cx, ca_eval(cx, e->u.sel.base, f), e->u.sel.name, f);
	case CA_N_INDEX: {
		ca_value a = ca_eval(cx, e->u.k.a, f);
		return eval_index(cx, a, ca_eval(cx, e->u.k.b, f), f);
	}
	case CA_N_UNARY:
		return unop(e->op, ca_eval(cx, e->u.k.a, f));
	case CA_N_BINARY:
		if (e->op == CA_T_AND || e->op == CA_T_OR)
			return logical(cx, e, f);
		else {
			ca_value a = ca_eval(cx, e->u.k.a, f);
			ca_value b = ca_eval(cx, e->u.k.b, f);
			int r = fast_compare(e->op, a, b);
			return r >= 0 ? ca_bool(r) : ca_eval_binop(cx, e->op, a, b);
		}
	case CA_N_COND: {
		ca_value c = ca_eval(cx, e->u.k.a, f);
		if (c.kind == CA_ERROR || c.kind == CA_UNDEFINED)
			return c;
		int t = ca_value_truth(c);
		if (t < 0)
			return ca_error("condition of '?:' is not a boolean");
		return ca_eval(cx, t ? e->u.k.b : e->u.k.c, f);
	}
	case CA_N_ELVIS: {
		ca_value a = ca_eval(cx, e->u.k.a, f);
		return a.kind != CA_UNDEFINED ? a : ca_eval(cx, e->u.k.b, f);
	}
	case CA_N_PAREN:
		return ca_eval(cx, e->u.k.a, f);
	case CA_N_CALL:
		return call(cx, e, f);
	case CA_N_LIST:
		return eval_list(cx, e, f);
	case CA_N_AD:
		return ca_make_adval(cx, e->u.ad, f);
	}
	return ca_error("bad expression node");
}

ca_value
ca_eval(ca_ctx *cx, const ca_expr *e, const ca_frame *f)
{
	/* parentheses are kept only for printing */
	if (cx->trace == NULL)
		while (e->node == CA_N_PAREN)
			e = e->u.k.a;
	if (++cx->steps > CA_EVAL_MAX_STEPS)
		return ca_error("evaluation took too many steps");
	if (cx->depth >= CA_EVAL_MAX_DEPTH)
		return ca_error("expression nested too deeply");
	cx->depth++;
	ca_value v = eval_node(cx, e, f);
	cx->depth--;
	if (cx->trace)
		cx->trace(cx->trace_arg, e, f, v, cx->depth);
	return v;
}

/* A top-level evaluation that ran out of steps is ERROR as a whole, even
 * where an operator such as =?= or isError() made something else of the
 * node that ran out: so the flat form (below) and the tree agree. */
static inline ca_value
over_budget(ca_ctx *cx, ca_value v)
{
	return cx->steps > CA_EVAL_MAX_STEPS ? ca_error("evaluation took too many steps") : v;
}

ca_value
ca_eval_expr(ca_ctx *cx, const ca_expr *e, const ca_ad *my, const ca_ad *target)
{
	if (my == NULL)
		my = cx->empty;
	ca_frame f = { my, NULL, my, target };
	cx->steps = 0;
	cx->depth = 0;
	return over_budget(cx, ca_eval(cx, e, &f));
}

ca_value
ca_eval_attr(ca_ctx *cx, const ca_ad *my, const ca_ad *target, const char *name)
{
	ca_attr *at = ca_ad_findn(my, name, strlen(name));

	if (at == NULL)
		return ca_undef();
	ca_frame f = { my, NULL, my, target };
	cx->steps = 0;
	cx->depth = 0;
	return over_budget(cx, eval_attr(cx, at, &f));
}

/* ---- the flat form ----
 *
 * An expression compiled once into a sequence of instructions over a small
 * value stack, for loops that evaluate it against many ads. Operators,
 * literals, attribute references, ?:, ?: (Elvis), && and || run in one loop
 * without recursion; every other node (calls, selections, subscripts, lists,
 * nested ads) and every attribute whose definition is not a literal is
 * evaluated by ca_eval. Nesting depth and steps are counted exactly as the
 * tree evaluator counts them, so both give the same values, errors included. */

enum {
	P_LIT,		/* push u.lit */
	P_REF,		/* push the value of the reference u.node */
	P_REF_TARGET,	/* push TARGET.name (u.node's name) */
	P_REF_SELF,	/* push the unscoped name (u.node's name) */
	P_NODE,		/* push ca_eval(u.node) */
	P_UNARY,	/* top = op top */
	P_BINARY,	/* pop b; top = top op b */
	P_BINARY_LIT,	/* top = top op u.lit (the literal counts a step) */
	P_LOGIC,	/* && or || after its left side: decide and jump, or go on */
	P_LOGIC_END,	/* pop right; top = left op right (left undefined or neutral) */
	P_COND,		/* ?: after its condition: error/undefined jump to `end`,
			 * false to `to`, true goes on (the condition popped) */
	P_JUMP,		/* to `to` */
	P_ELVIS,	/* ?: after its left side: defined jumps to `to`, else pop */
	P_END		/* the value is on top */
};

#define PROG_STACK 48	/* deeper expressions keep to the tree evaluator */

struct ca_pins {
	uint8_t code;
	uint8_t op;		/* operator token; for P_LOGIC 1 for && */
	uint16_t depth;		/* non-parenthesis nodes above this one */
	uint32_t to, end;	/* jump targets */
	union {
		ca_value lit;
		const ca_expr *node;
	} u;
};

struct ca_prog {
	const ca_expr *tree;
	uint32_t n;		/* 0: evaluate the tree instead */
	struct ca_pins ins[];
};

struct code {			/* a program being compiled */
	struct ca_pins *ins;
	uint32_t n, cap;
};

static uint32_t
emit(struct code *p, int code, int op, int depth)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 32;
		p->ins = ca_xreallocarray(p->ins, p->cap, sizeof *p->ins);
	}
	struct ca_pins *i = &p->ins[p->n];
	memset(i, 0, sizeof *i);
	i->code = (uint8_t)code;
	i->op = (uint8_t)op;
	i->depth = (uint16_t)depth;
	return p->n++;
}

/* Append the code of e at nesting depth; sp is the stack height before it.
 * Returns 0 when e is too deep for the flat form. */
static int
compile(struct code *p, const ca_expr *e, int depth, int sp)
{
	while (e->node == CA_N_PAREN)
		e = e->u.k.a;
	if (depth >= CA_EVAL_MAX_DEPTH || sp >= PROG_STACK)
		return 0;
	const ca_expr *b;
	uint32_t at, mid;
	switch (e->node) {
	case CA_N_LIT:
		at = emit(p, P_LIT, 0, depth);
		p->ins[at].u.lit = e->u.lit;
		return 1;
	case CA_N_ATTR:
		at = emit(p, e->op == CA_SC_TARGET || e->op == CA_SC_OTHER ? P_REF_TARGET :
		    e->op == CA_SC_NONE ? P_REF_SELF : P_REF, 0, depth);
		p->ins[at].u.node = e;
		return 1;
	case CA_N_UNARY:
		if (!compile(p, e->u.k.a, depth + 1, sp))
			return 0;
		emit(p, P_UNARY, e->op, depth);
		return 1;
	case CA_N_BINARY:
		if (!compile(p, e->u.k.a, depth + 1, sp))
			return 0;
		if (e->op == CA_T_AND || e->op == CA_T_OR) {
			at = emit(p, P_LOGIC, e->op == CA_T_AND, depth);
			if (!compile(p, e->u.k.b, depth + 1, sp + 1))
				return 0;
			emit(p, P_LOGIC_END, e->op == CA_T_AND, depth);
			p->ins[at].to = p->n;
			return 1;
		}
		b = e->u.k.b;
		while (b->node == CA_N_PAREN)
			b = b->u.k.a;
		if (b->node == CA_N_LIT) {	/* the common x op constant */
			at = emit(p, P_BINARY_LIT, e->op, depth);
			p->ins[at].u.lit = b->u.lit;
			return 1;
		}
		if (!compile(p, b, depth + 1, sp + 1))
			return 0;
		emit(p, P_BINARY, e->op, depth);
		return 1;
	case CA_N_COND:
		if (!compile(p, e->u.k.a, depth + 1, sp))
			return 0;
		at = emit(p, P_COND, 0, depth);
		if (!compile(p, e->u.k.b, depth + 1, sp))
			return 0;
		mid = emit(p, P_JUMP, 0, depth);
		p->ins[at].to = p->n;
		if (!compile(p, e->u.k.c, depth + 1, sp))
			return 0;
		p->ins[mid].to = p->ins[at].end = p->n;
		return 1;
	case CA_N_ELVIS:
		if (!compile(p, e->u.k.a, depth + 1, sp))
			return 0;
		at = emit(p, P_ELVIS, 0, depth);
		if (!compile(p, e->u.k.b, depth + 1, sp))
			return 0;
		p->ins[at].to = p->n;
		return 1;
	default:
		at = emit(p, P_NODE, 0, depth);
		p->ins[at].u.node = e;
		return 1;
	}
}

ca_prog *
ca_prog_new(ca_arena *a, const ca_expr *e)
{
	struct code c = { NULL, 0, 0 };
	ca_prog *p;

	if (compile(&c, e, 0, 0)) {
		emit(&c, P_END, 0, 0);
		p = ca_arena_alloc(a, sizeof *p + c.n * sizeof *c.ins);
		memcpy(p->ins, c.ins, c.n * sizeof *c.ins);
		p->n = c.n;
	} else {
		p = ca_arena_alloc(a, sizeof *p);
		p->n = 0;
	}
	p->tree = e;
	free(c.ins);
	return p;
}

ca_value
ca_prog_eval(ca_ctx *cx, const ca_prog *p, const ca_ad *my, const ca_ad *target)
{
	if (p->n == 0 || cx->trace != NULL)
		return ca_eval_expr(cx, p->tree, my, target);
	if (my == NULL)
		my = cx->empty;
	ca_frame f = { my, NULL, my, target };
	ca_value st[PROG_STACK + 1], *sp = st;	/* sp[-1] is the top */
	const struct ca_pins *ins = p->ins, *i = ins;
	int t;

	cx->steps = 0;
	for (;;) {
		switch (i->code) {
		case P_LIT:
			cx->steps++;
			*sp++ = i->u.lit;
			break;
		case P_REF_TARGET:
			cx->steps++;
			cx->depth = i->depth + 1;
			*sp++ = target ? in_side(cx, i->u.node->u.attr.name, target, my) : ca_undef();
			break;
		case P_REF_SELF: {
			/* MY's own attributes first, as ca_eval_name looks */
			cx->steps++;
			cx->depth = i->depth + 1;
			ca_attr *at = ca_ad_find(my, i->u.node->u.attr.name);
			*sp++ = at ? eval_attr(cx, at, &f) : ca_eval_name(cx, i->u.node->u.attr.name, &f);
			break;
		}
		case P_REF:
			cx->steps++;
			cx->depth = i->depth + 1;
			*sp++ = eval_ref(cx, i->u.node, &f);
			break;
		case P_NODE:
			cx->depth = i->depth;
			*sp++ = ca_eval(cx, i->u.node, &f);
			break;
		case P_UNARY:
			cx->steps++;
			sp[-1] = unop(i->op, sp[-1]);
			break;
		case P_BINARY: {
			cx->steps++;
			ca_value b = *--sp;
			int r = fast_compare(i->op, sp[-1], b);
			sp[-1] = r >= 0 ? ca_bool(r) : ca_eval_binop(cx, i->op, sp[-1], b);
			break;
		}
		case P_BINARY_LIT: {
			cx->steps += 2;
			int r = fast_compare(i->op, sp[-1], i->u.lit);
			sp[-1] = r >= 0 ? ca_bool(r) : ca_eval_binop(cx, i->op, sp[-1], i->u.lit);
			break;
		}
		case P_LOGIC:
			cx->steps++;
			if (!ca_logic_left(i->op, sp[-1], &sp[-1]))
				break;
			i = ins + i->to;
			continue;
		case P_LOGIC_END: {
			ca_value r = *--sp;
			sp[-1] = ca_logic_right(i->op, sp[-1], r);
			break;
		}
		case P_COND:
			cx->steps++;
			if (sp[-1].kind == CA_ERROR || sp[-1].kind == CA_UNDEFINED) {
				i = ins + i->end;
				continue;
			}
			if ((t = ca_value_truth(sp[-1])) < 0) {
				sp[-1] = ca_error("condition of '?:' is not a boolean");
				i = ins + i->end;
				continue;
			}
			sp--;
			if (!t) {
				i = ins + i->to;
				continue;
			}
			break;
		case P_JUMP:
			i = ins + i->to;
			continue;
		case P_ELVIS:
			cx->steps++;
			if (sp[-1].kind != CA_UNDEFINED) {
				i = ins + i->to;
				continue;
			}
			sp--;
			break;
		case P_END:
			cx->depth = 0;
			return over_budget(cx, sp[-1]);
		default:
			__builtin_unreachable();
		}
		i++;
	}
}
