/* eval_tree.c - the tree evaluator: an expression tree evaluated node by
 * node with HTCondor's semantics, and where names resolve (ca_resolve). */
#include <stdint.h>
#include <string.h>

#include "builtins.h"
#include "eval_int.h"

/* ---- names ---- */

int
ca_resolve(ca_ctx *cx, int scope, const ca_name *name, const ca_frame *f, int flags,
    ca_where *w)
{
	return resolve(cx, scope, name, f, flags, w, &w->side_frame);
}

/* The top of one side of a match (MY with target the other, or TARGET
 * with my and target swapped) as a value. */
static ca_value
side_value(ca_ctx *cx, const ca_ad *side, const ca_ad *other)
{
	ca_frame top = { side, NULL, side, other };

	return ca_frame_adval(cx, &top);
}

ca_value
ca_special_value(ca_ctx *cx, int sp, const ca_frame *f)
{
	switch (sp) {
	case CA_SP_SELF:
		return ca_frame_adval(cx, f);
	case CA_SP_PARENT:
		if (f->up)
			return ca_frame_adval(cx, f->up);
		/* in a match HTCondor puts MY and TARGET each in a record of
		 * its own; outside one, the top has no parent */
		return f->target && f->ad == f->my ? ca_frame_adval(cx, &cx->around) : ca_undef();
	case CA_SP_TOPLEVEL:
	case CA_SP_ROOT:
		return ca_frame_adval(cx, f->target ? &cx->around : root_frame(f));
	case CA_SP_MY:
		/* the daemons' rules: the current record, as self; the new
		 * rules (in a match only): the top of this side */
		return cx->strict ? side_value(cx, f->my, f->target) : ca_frame_adval(cx, f);
	case CA_SP_TARGET:
	case CA_SP_OTHER:
		return f->target ? side_value(cx, f->target, f->my) : ca_undef();
	default:	/* CurrentTime */
		return ca_int(cx->now);
	}
}

ca_value
ca_eval_name(ca_ctx *cx, const ca_name *name, const ca_frame *f)
{
	return eval_ref(cx, CA_SC_NONE, name, f, -1);
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
		/* the search from that record, without the daemons' fallback
		 * to TARGET (HTCondor falls back for plain names only) */
		ca_frame af;
		ca_where w;
		ca_adval_frame(base.u.ad, &af);
		return where_value(cx, lookup(cx, name, &af, CA_SIDE_NESTED, &w), &w, -1);
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
		ca_adval_frame(a.u.ad, &af);
		return eval_attr(cx, at, &af);
	}
	return ca_error("subscript of a value that is not a list or record");
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

/* Why an evaluation is ERROR when over its budgets, or when it reaches an
 * attribute that used one up before (the same words: the same failure). */
static const char over_bytes[] = "evaluation built more text and lists than its budget";
static const char over_steps[] = "evaluation took too many steps";

static __attribute__((noinline)) ca_value
call(ca_ctx *cx, const ca_expr *e, const ca_frame *f)
{
	const ca_builtin *fn = e->u.call.fn;
	int n = (int)e->u.call.n;

	if (fn == NULL)
		return ca_error("unknown function");
	if (n < fn->min || (fn->max >= 0 && n > fn->max))
		return ca_error("wrong number of arguments");
	ca_value v;
	if (fn->lazy)
		v = fn->lazy(cx, f, fn->op, e->u.call.args, n);
	else {
		ca_value small[8];
		ca_value *argv = n <= 8 ? small :
		    ca_arena_array(&cx->scratch, (size_t)n, sizeof *argv);
		for (int i = 0; i < n; i++)
			argv[i] = ca_eval(cx, e->u.call.args[i], f);
		v = fn->fn(cx, f, fn->op, argv, n);
	}
	/* what the functions built, all told, within the budget */
	if (__builtin_expect(cx->scratch.total > cx->bytes_cap, 0))
		return ca_eval_fail(cx, over_bytes);
	return v;
}

/* A list is evaluated element by element. HTCondor keeps the elements
 * unevaluated until one is used, so an element whose evaluation fails
 * (ca_eval_fail) fails nothing unless used: here it is an ERROR element,
 * and the evaluation as a whole goes on. */
static __attribute__((noinline)) ca_value
eval_list(ca_ctx *cx, const ca_expr *e, const ca_frame *f)
{
	uint32_t n = e->u.list.n;
	ca_value *items = ca_arena_array(&cx->scratch, n, sizeof *items);

	for (uint32_t i = 0; i < n; i++)
		items[i] = ca_eval_apart(cx, e->u.list.items[i], f);
	return ca_list(items, n);
}

/* One node; ca_eval wraps it with the work and depth bounds. */
static inline __attribute__((always_inline)) ca_value
eval_node(ca_ctx *cx, const ca_expr *e, const ca_frame *f)
{
	switch (e->node) {
	case CA_N_LIT:
		return e->u.lit;
	case CA_N_ATTR:
		return eval_ref(cx, e->op, e->u.attr.name, f, -1);
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
		return ca_error(over_steps);
	if (cx->depth >= CA_EVAL_MAX_DEPTH)
		return ca_error("expression nested too deeply");
	cx->depth++;
	ca_value v = eval_node(cx, e, f);
	cx->depth--;
	if (cx->trace)
		cx->trace(cx->trace_arg, e, f, v, cx->depth);
	return v;
}

ca_value
ca_eval_expr(ca_ctx *cx, const ca_expr *e, const ca_ad *my, const ca_ad *target)
{
	if (my == NULL)
		my = cx->empty;
	ca_frame f = { my, NULL, my, target };
	ca_eval_begin(cx);
	return top_value(cx, ca_eval(cx, e, &f));
}

/* The value of attribute at of my. */
static ca_value
eval_entry(ca_ctx *cx, const ca_ad *my, const ca_ad *target, ca_attr *at)
{
	if (at == NULL)
		return ca_undef();
	ca_frame f = { my, NULL, my, target };
	ca_eval_begin(cx);
	return top_value(cx, eval_attr(cx, at, &f));
}

ca_value
ca_eval_attr(ca_ctx *cx, const ca_ad *my, const ca_ad *target, const char *name)
{
	return eval_entry(cx, my, target, ca_ad_findn(my, name, strlen(name)));
}

ca_value
ca_eval_attr_nm(ca_ctx *cx, const ca_ad *my, const ca_ad *target, const ca_name *name)
{
	return eval_entry(cx, my, target, ca_ad_find(my, name));
}

void
ca_eval_begin(ca_ctx *cx)
{
	eval_start(cx);
	cx->depth = 0;
	cx->failed = NULL;
}

ca_value
ca_eval_end(ca_ctx *cx, ca_value v)
{
	return top_value(cx, v);
}

ca_value
ca_eval_apart(ca_ctx *cx, const ca_expr *e, const ca_frame *f)
{
	const char *failed = cx->failed;
	uint32_t steps = cx->steps;
	ca_value v = ca_eval(cx, e, f);

	if (cx->failed != failed) {
		v = ca_error(cx->failed);
		cx->failed = failed;
		cx->steps = steps + 1;
	}
	return v;
}

bool
ca_eval_room(ca_ctx *cx, size_t n)
{
	if (cx->scratch.total <= cx->bytes_cap && n <= cx->bytes_cap - cx->scratch.total)
		return true;
	ca_eval_fail(cx, over_bytes);
	return false;
}

void
ca_eval_over(ca_ctx *cx, ca_attr *at, const ca_frame *f, uint32_t before)
{
	uint32_t budget = cx->max_steps < CA_EVAL_MAX_STEPS ? cx->max_steps : CA_EVAL_MAX_STEPS;

	if (cx->failed != NULL && cx->failed != over_bytes)
		return;		/* a failure, not a budget */
	if (cx->failed == NULL && CA_EVAL_MAX_STEPS - before < budget / 2)
		return;		/* little of it spent here: at only waited */
	if (cx->culprit == NULL)
		cx->culprit = f->ad;
	if (f->ad == cx->culprit)
		at->busy = cx->failed == NULL ? ATTR_SPENT_STEPS : ATTR_SPENT_BYTES;
}

ca_value
ca_eval_spent(ca_ctx *cx, const ca_attr *at)
{
	if (at->busy == ATTR_SPENT_BYTES)
		return ca_eval_fail(cx, over_bytes);
	/* as when the steps run out: no reason of a builtin's */
	cx->steps = CA_EVAL_MAX_STEPS + 1;
	return ca_error(over_steps);
}

ca_value
ca_eval_fail(ca_ctx *cx, const char *why)
{
	if (cx->failed == NULL)
		cx->failed = why;
	cx->steps = CA_EVAL_MAX_STEPS + 1;
	return ca_error(why);
}
