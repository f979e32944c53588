/* eval_int.h - what the tree evaluator (eval_tree.c) and the flat form
 * (prog.c) share: evaluating an attribute, the scope resolver, operators. */
#ifndef CA_EVAL_INT_H
#define CA_EVAL_INT_H

#include <string.h>

#include "ascii.h"
#include "eval.h"

/* These run once or more per node of every evaluation: each evaluator gets
 * its own inlined copy, which is what makes the flat form fast. */
#define CA_HOT static inline __attribute__((always_inline))

/* The value of attribute at, whose expression belongs in frame f. A literal
 * costs one step, as the node it is would. */
CA_HOT ca_value
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

static inline const ca_frame *
root_frame(const ca_frame *f)
{
	while (f->up)
		f = f->up;
	return f;
}

/* Which special name name is where it means one, or -1: self, parent,
 * toplevel and root always; my, target and other in a match, and also
 * outside one under the daemons' rules (where CurrentTime is one too). */
static inline int
special_of(const ca_ctx *cx, const ca_name *name, const ca_frame *f)
{
	for (int i = 0; i < CA_SP_N; i++)
		if (name == cx->special[i])
			return !cx->strict || i < CA_SP_MY ||
			    (i != CA_SP_CURRENTTIME && f->target != NULL) ? i : -1;
	return -1;
}

/* ca_resolve, inlined where evaluation runs. The frame of an attribute
 * found at the root of MY or TARGET is built in *sf, apart from *w, so
 * that what the caller does not read of *w costs nothing. */
CA_HOT int
resolve(ca_ctx *cx, int scope, const ca_name *name, const ca_frame *f, int flags,
    ca_where *w, ca_frame *sf)
{
	const ca_ad *side, *other;
	int found;

	switch (scope) {
	case CA_SC_NONE:
		for (const ca_frame *s = f; s != NULL; s = s->up)
			if ((w->at = ca_ad_find(s->ad, name)) != NULL) {
				w->frame = s;
				w->side = s != f ? CA_SIDE_ENCLOSING : f->ad == f->my ? CA_SIDE_MY :
				    f->ad == f->target ? CA_SIDE_TARGET : CA_SIDE_NESTED;
				return w->kind = CA_WHERE_ATTR;
			}
		if ((w->special = special_of(cx, name, f)) >= 0)
			return w->kind = CA_WHERE_SPECIAL;
		w->side = CA_SIDE_MY;
		if (cx->strict || f->target == NULL || (flags & CA_RESOLVE_AD_ONLY))
			return w->kind = CA_WHERE_NONE;
		/* the daemons' rule: a name this side does not define is looked
		 * up on the other side of the match */
		w->side = CA_SIDE_MY_TARGET;
		found = CA_SIDE_TARGET;
		side = f->target;
		other = f->my;
		break;
	case CA_SC_ROOT:
		w->side = CA_SIDE_ROOT;
		w->frame = root_frame(f);
		if ((w->at = ca_ad_find(w->frame->ad, name)) == NULL)
			return w->kind = CA_WHERE_NONE;
		return w->kind = CA_WHERE_ATTR;
	case CA_SC_MY:
		w->side = CA_SIDE_MY;
		if (cx->strict && f->target == NULL)
			return w->kind = CA_WHERE_NONE;
		found = CA_SIDE_MY;
		side = f->my;
		other = f->target;
		break;
	default:	/* TARGET, OTHER */
		w->side = found = CA_SIDE_TARGET;
		if (f->target == NULL)
			return w->kind = CA_WHERE_NONE;
		side = f->target;
		other = f->my;
		break;
	}
	/* in one ad of the match, as the root of its own side */
	if ((w->at = ca_ad_find(side, name)) == NULL)
		return w->kind = CA_WHERE_NONE;
	w->side = found;
	*sf = (ca_frame){ side, NULL, side, other };
	w->frame = sf;
	return w->kind = CA_WHERE_ATTR;
}

/* The value of a reference to name with scope in frame f. */
CA_HOT ca_value
eval_ref(ca_ctx *cx, int scope, const ca_name *name, const ca_frame *f)
{
	ca_where w;
	ca_frame sf;

	switch (resolve(cx, scope, name, f, 0, &w, &sf)) {
	case CA_WHERE_ATTR:
		return eval_attr(cx, w.at, w.frame);
	case CA_WHERE_SPECIAL:
		return ca_special_value(cx, w.special, f);
	default:
		return ca_undef();
	}
}

static inline ca_value
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
		return (ca_fold_cmp(a.u.s, a.x.len, b.u.s, b.x.len) == 0) == (op == CA_T_EQ);
	}
	return -1;
}

/* A top-level evaluation that ran out of steps is ERROR as a whole, even
 * where an operator such as =?= or isError() made something else of the
 * node that ran out: so the flat form and the tree agree. */
static inline ca_value
over_budget(ca_ctx *cx, ca_value v)
{
	return cx->steps > CA_EVAL_MAX_STEPS ? ca_error("evaluation took too many steps") : v;
}

#endif
