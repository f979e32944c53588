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

/* ca_attr.busy: 1 while at is being evaluated; once an evaluation of it
 * used up a budget (eval.h), which one. */
enum { ATTR_SPENT_STEPS = 2, ATTR_SPENT_BYTES };

/* The start of a top-level evaluation: its budgets. */
static inline void
eval_start(ca_ctx *cx)
{
	uint32_t n = cx->max_steps < CA_EVAL_MAX_STEPS ? cx->max_steps : CA_EVAL_MAX_STEPS;
	size_t total = cx->scratch.total;

	cx->steps = CA_EVAL_MAX_STEPS - n;
	cx->bytes_cap = total + cx->max_bytes < total ? SIZE_MAX : total + cx->max_bytes;
	cx->culprit = NULL;
}

/* A budget ran out while at was being evaluated (begun at step before):
 * mark at when it is the ad's that spent it (eval.h). */
void ca_eval_over(ca_ctx *cx, ca_attr *at, const ca_frame *f, uint32_t before);
/* The evaluation reached an attribute marked spent: it fails as the
 * evaluation that spent the budget did. */
ca_value ca_eval_spent(ca_ctx *cx, const ca_attr *at);

/* The value of attribute at, whose expression belongs in frame f. flat >= 0
 * is the flat form's call: no trace is on, and an expression (not a
 * literal) is evaluated at nesting depth flat. A literal costs one step,
 * as the node it is would. */
CA_HOT ca_value
eval_attr_in(ca_ctx *cx, ca_attr *at, const ca_frame *f, int flat)
{
	/* a literal, held in the entry, as its node (a shared one, say) or
	 * as its text: its value, with no evaluation around it */
	ca_value lit;
	if ((flat >= 0 || cx->trace == NULL) && ca_attr_lit_in(f->ad, at, &lit)) {
		cx->steps++;
		return lit;
	}
	if (flat >= 0)
		cx->depth = flat;
	if (at->busy)
		return at->busy == 1 ? ca_error("circular reference") : ca_eval_spent(cx, at);
	at->busy = 1;
	uint32_t before = cx->steps;
	ca_value v = ca_eval(cx, ca_attr_expr(f->ad, at), f);
	at->busy = 0;
	if (__builtin_expect(cx->steps > CA_EVAL_MAX_STEPS, 0))
		ca_eval_over(cx, at, f, before);
	return v;
}

CA_HOT ca_value
eval_attr(ca_ctx *cx, ca_attr *at, const ca_frame *f)
{
	return eval_attr_in(cx, at, f, -1);
}

static inline const ca_frame *
root_frame(const ca_frame *f)
{
	while (f->up)
		f = f->up;
	return f;
}

/* Which special name name is (enum ca_special), or -1. Every name not
 * found in an ad is asked, so a bit of its hash turns most away first. */
static inline int
special_of(const ca_ctx *cx, const ca_name *name)
{
	if (!(cx->special_hashes >> (name->hash & 63) & 1))
		return -1;
	for (int i = 0; i < CA_SP_N; i++)
		if (name == cx->special[i])
			return i;
	return -1;
}

/* Whether special name sp means itself where a search starts, before the
 * ads around: self, parent, toplevel and root, and under the daemons'
 * rules my and CurrentTime (HTCondor's special names, which its lookup
 * does not carry outwards). Otherwise target and other, and my under the
 * new rules, are names of the match: HTCondor defines them in the record
 * it puts around each of the two ads, so they are found once the ads of
 * the scope define nothing of that name, and only in a match. */
static inline bool
special_first(const ca_ctx *cx, int sp)
{
	return sp < CA_SP_MY || (!cx->strict && (sp == CA_SP_MY || sp == CA_SP_CURRENTTIME));
}

/* The search HTCondor makes from one ad (in frame from), once the ad
 * itself has no attribute name: the special names that mean themselves
 * there, then the ads around it outwards, then the names of the match.
 * side says where the search was (in from's own ad). */
CA_HOT int
lookup_around(ca_ctx *cx, const ca_name *name, const ca_frame *from, int side, ca_where *w)
{
	int sp = special_of(cx, name);

	if (sp >= 0 && special_first(cx, sp)) {
		w->frame = from;
		w->special = sp;
		return w->kind = CA_WHERE_SPECIAL;
	}
	for (const ca_frame *s = from->up; s != NULL; s = s->up)
		if ((w->at = ca_ad_find(s->ad, name)) != NULL) {
			w->frame = s;
			w->side = CA_SIDE_ENCLOSING;
			return w->kind = CA_WHERE_ATTR;
		}
	w->frame = from;
	w->side = side;
	if (sp >= 0 && from->target != NULL && sp != CA_SP_CURRENTTIME) {
		w->special = sp;
		return w->kind = CA_WHERE_SPECIAL;
	}
	return w->kind = CA_WHERE_NONE;
}

/* The whole search from one ad: the ad, then lookup_around. */
CA_HOT int
lookup(ca_ctx *cx, const ca_name *name, const ca_frame *from, int side, ca_where *w)
{
	if (__builtin_expect((w->at = ca_ad_find(from->ad, name)) != NULL, 1)) {
		w->frame = from;
		w->side = side;
		return w->kind = CA_WHERE_ATTR;
	}
	return lookup_around(cx, name, from, side, w);
}

/* The search from the top of one side of a match (MY, or TARGET with my and
 * target swapped), whose frame is built in *sf when it is needed. */
CA_HOT int
lookup_side(ca_ctx *cx, const ca_name *name, const ca_ad *side, const ca_ad *other, int where,
    ca_where *w, ca_frame *sf)
{
	w->side = where;
	if (__builtin_expect((w->at = ca_ad_find(side, name)) != NULL, 1)) {
		*sf = (ca_frame){ side, NULL, side, other };
		w->frame = sf;
		return w->kind = CA_WHERE_ATTR;
	}
	/* nothing is around the top of a side: only a special name is left */
	if (special_of(cx, name) < 0)
		return w->kind = CA_WHERE_NONE;
	*sf = (ca_frame){ side, NULL, side, other };
	return lookup_around(cx, name, sf, where, w);
}

/* ca_resolve, inlined where evaluation runs. The frame of MY or TARGET
 * as the top of its side is built in *sf, apart from *w, so that what
 * the caller does not read of *w costs nothing. */
CA_HOT int
resolve(ca_ctx *cx, int scope, const ca_name *name, const ca_frame *f, int flags,
    ca_where *w, ca_frame *sf)
{
	int k;

	switch (scope) {
	case CA_SC_NONE:
		k = lookup(cx, name, f, f->up ? CA_SIDE_NESTED : f->ad == f->my ? CA_SIDE_MY :
		    f->ad == f->target ? CA_SIDE_TARGET : CA_SIDE_NESTED, w);
		if (k != CA_WHERE_NONE || cx->strict || f->target == NULL || f->up != NULL ||
		    f->ad != f->my || (flags & CA_RESOLVE_AD_ONLY))
			return k;
		/* the daemons' rule: a name that MY or TARGET itself (not a
		 * record in it) does not define is looked up on the other side
		 * of the match, as the top of that side */
		if ((k = lookup_side(cx, name, f->target, f->my, CA_SIDE_TARGET, w, sf)) ==
		    CA_WHERE_NONE)
			w->side = CA_SIDE_MY_TARGET;
		return k;
	case CA_SC_ROOT:
		/* in a match the outermost record is the one HTCondor puts
		 * around the two ads, which holds none of their attributes */
		return lookup(cx, name, f->target ? &cx->around : root_frame(f), CA_SIDE_ROOT, w);
	case CA_SC_MY:
		/* under the daemons' rules MY is the current record (HTCondor's
		 * special name, as self); under the new rules the my of the
		 * match: MY as the top of its side, nothing outside a match */
		if (!cx->strict)
			return lookup(cx, name, f, f->up ? CA_SIDE_NESTED : CA_SIDE_MY, w);
		w->side = CA_SIDE_MY;
		if (f->target == NULL)
			return w->kind = CA_WHERE_NONE;
		return lookup_side(cx, name, f->my, f->target, CA_SIDE_MY, w, sf);
	default:	/* TARGET, OTHER: the other side, as the top of it */
		w->side = CA_SIDE_TARGET;
		if (f->target == NULL)
			return w->kind = CA_WHERE_NONE;
		return lookup_side(cx, name, f->target, f->my, CA_SIDE_TARGET, w, sf);
	}
}

/* The value of what a search found (kind, *w; flat as for eval_attr_in). */
CA_HOT ca_value
where_value(ca_ctx *cx, int kind, const ca_where *w, int flat)
{
	if (__builtin_expect(kind == CA_WHERE_ATTR, 1))
		return eval_attr_in(cx, w->at, w->frame, flat);
	return kind == CA_WHERE_SPECIAL ? ca_special_value(cx, w->special, w->frame) : ca_undef();
}

/* The value of a reference to name with scope in frame f (flat: as for
 * eval_attr_in). */
CA_HOT ca_value
eval_ref(ca_ctx *cx, int scope, const ca_name *name, const ca_frame *f, int flat)
{
	ca_where w;
	ca_frame sf;

	return where_value(cx, resolve(cx, scope, name, f, 0, &w, &sf), &w, flat);
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

/*
 * The value of a top-level evaluation: ERROR as a whole when it ran out of
 * steps, even where an operator such as =?= or isError() made something
 * else of the node that did, so the flat form and the tree agree. A
 * builtin fails an evaluation (ca_eval_fail) the same way: it spends the
 * budget, so what is left of the evaluation stops short, and says why.
 */
static __attribute__((noinline, cold)) ca_value
top_error(ca_ctx *cx)
{
	const char *why = cx->failed ? cx->failed : "evaluation took too many steps";

	cx->failed = NULL;
	return ca_error(why);
}

static inline ca_value
top_value(ca_ctx *cx, ca_value v)
{
	return __builtin_expect(cx->steps > CA_EVAL_MAX_STEPS, 0) ? top_error(cx) : v;
}

#endif
