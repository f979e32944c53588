/* explain.c - the report behind --explain and the REPL's :explain: every
 * sub-expression with its value, and where UNDEFINED and ERROR arose. */

/*
 * An origin names which attribute is missing from which ad, which operand
 * had the wrong kind, which function rejected its arguments.
 */
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "explain.h"
#include "lexer.h"
#include "print.h"

#define TEXT_MAX 72	/* longest expression text on a line */
#define MAX_LINES 10000	/* a report longer than this is cut */
#define MAX_INDENT 500	/* and so is a branch nested deeper (the C stack) */

struct explainer {
	ca_ctx *cx;
	strbuf *sb;
	strbuf why;		/* the summary of origins */
	int norigins;
	const ca_attr *expanding[CA_EXPLAIN_MAX_EXPAND];
	int nexpanding;
	size_t start;		/* where the report starts in sb */
	int nlines;
	bool cut;		/* the report hit MAX_LINES or the work bound */
	bool counts;		/* the node at hand gives the reported value its kind */
	const ca_expr *const *watch;	/* a lazy call's arguments being traced */
	bool *seen;		/* which of them the evaluator evaluated */
	uint32_t nwatch;
};

/* Append the text in t to sb, cut at TEXT_MAX bytes; t is released. */
static void
clipped(strbuf *sb, strbuf *t)
{
	if (t->len > TEXT_MAX) {
		strbuf_add(sb, t->buf, TEXT_MAX - 3);
		strbuf_adds(sb, "...");
	} else
		strbuf_add(sb, t->buf, t->len);
	strbuf_release(t);
}

static void
expr_text(strbuf *sb, const ca_expr *e)
{
	strbuf t = STRBUF_INIT;

	ca_print_expr(&t, e, 0);
	clipped(sb, &t);
}

static void
value_text(strbuf *sb, ca_value v)
{
	strbuf t = STRBUF_INIT;

	ca_print_value(&t, v, 0);
	clipped(sb, &t);
}

static void
indent(strbuf *sb, int depth)
{
	for (int i = 0; i < depth; i++)
		strbuf_adds(sb, "  ");
}

static int
bad(ca_value v)
{
	return v.kind == CA_UNDEFINED || v.kind == CA_ERROR;
}

/* Record an origin: mark the line and add to the summary. An UNDEFINED or
 * ERROR that an operator or function absorbs (MemoryUsage in
 * "MemoryUsage isnt undefined", the left side of a false &&) is no origin
 * of the value reported: x->counts is false below such a node. */
static void
origin(struct explainer *x, const ca_expr *e, ca_value v, const char *reason)
{
	const char *kind = v.kind == CA_ERROR ? "error" : "undefined";

	if (!x->counts)
		return;
	strbuf_addf(x->sb, "   <-- %s here: %s", kind, reason);
	if (x->norigins++ < 8) {
		strbuf_adds(&x->why, "\n  ");
		expr_text(&x->why, e);
		strbuf_addf(&x->why, " is %s: %s", kind, reason);
	}
}

static void node(struct explainer *x, const ca_expr *e, const ca_frame *f, int depth);

/* Report child e of a node whose value is v: its bad value counts only
 * when it is the parent's (an absorbed UNDEFINED is no origin). */
static void
child(struct explainer *x, const ca_expr *e, const ca_frame *f, int depth, ca_value v,
    ca_value cv)
{
	bool saved = x->counts;

	x->counts = saved && bad(v) && cv.kind == v.kind;
	node(x, e, f, depth);
	x->counts = saved;
}

static void
not_evaluated(struct explainer *x, const ca_expr *e, int depth)
{
	strbuf_addc(x->sb, '\n');
	indent(x->sb, depth);
	expr_text(x->sb, e);
	strbuf_adds(x->sb, "  (not evaluated)");
	x->nlines++;
}
static ca_value value_of(struct explainer *x, const ca_expr *e, const ca_frame *f);

/* The operand kinds of a failed operator, for its reason. */
static void
operand_reason(strbuf *r, const char *why, ca_value a, const ca_value *b)
{
	strbuf_adds(r, why ? why : "invalid operands");
	strbuf_addf(r, " (%s", ca_kind_name[a.kind]);
	if (b)
		strbuf_addf(r, " and %s", ca_kind_name[b->kind]);
	strbuf_addc(r, ')');
}

static void
line(struct explainer *x, const ca_expr *e, ca_value v, int depth)
{
	if (x->sb->len > x->start)
		strbuf_addc(x->sb, '\n');
	indent(x->sb, depth);
	expr_text(x->sb, e);
	strbuf_adds(x->sb, "  =>  ");
	value_text(x->sb, v);
	x->nlines++;
}

/*
 * Every node is evaluated again for its line, so the steps are counted for
 * the whole report, not per node: expanding "a0 = a1 + a1; a1 = a2 + a2 ..."
 * would otherwise take CA_EVAL_MAX_STEPS for each of thousands of lines. A
 * node whose evaluation fails (absTime(0, -1)) shows ERROR; the report goes
 * on.
 */
static ca_value
value_of(struct explainer *x, const ca_expr *e, const ca_frame *f)
{
	x->cx->depth = 0;
	return ca_eval_apart(x->cx, e, f);
}

static const ca_expr *
unparen(const ca_expr *e)
{
	while (e->node == CA_N_PAREN)
		e = e->u.k.a;
	return e;
}

/* How the report names where a reference was found, or looked for. */
static const char *
side_text(const ca_where *w, const ca_expr *e, const ca_frame *f)
{
	switch (w->side) {
	case CA_SIDE_MY:
		return f->target == NULL && e->op == CA_SC_NONE && w->kind == CA_WHERE_NONE ?
		    "MY (there is no target ad)" : "MY";
	case CA_SIDE_TARGET:
		return f->target == NULL ? "TARGET (there is no target ad)" : "TARGET";
	case CA_SIDE_NESTED:
		return "this ad";
	case CA_SIDE_ENCLOSING:
		return "an enclosing ad";
	case CA_SIDE_ROOT:
		return "the outermost ad";
	default:
		return "MY or TARGET";
	}
}

static void
attr_node(struct explainer *x, const ca_expr *e, const ca_frame *f, ca_value v, int depth)
{
	ca_where w;
	int r = ca_resolve(x->cx, e->op, e->u.attr.name, f, 0, &w);

	line(x, e, v, depth);
	if (r == CA_WHERE_NONE) {
		strbuf reason = STRBUF_INIT;
		strbuf_addf(&reason, "no attribute %s in %s", e->u.attr.spell,
		    side_text(&w, e, f));
		origin(x, e, v, reason.buf);
		strbuf_release(&reason);
		return;
	}
	if (r == CA_WHERE_SPECIAL)
		return;
	const ca_attr *at = w.at;
	strbuf_addf(x->sb, "   (%s.%s)", side_text(&w, e, f), ca_attr_spell(at));
	const ca_expr *def = unparen(ca_attr_expr(w.frame->ad, at));
	if (def->node == CA_N_LIT) {
		if (bad(v))
			origin(x, e, v, v.kind == CA_ERROR ? "the attribute is the literal error" :
			    "the attribute is the literal undefined");
		return;
	}
	for (int i = 0; i < x->nexpanding; i++)
		if (x->expanding[i] == at) {
			if (v.kind == CA_ERROR)
				origin(x, e, v, "circular reference");
			return;
		}
	if (x->nexpanding == CA_EXPLAIN_MAX_EXPAND)
		return;
	x->expanding[x->nexpanding++] = at;
	node(x, def, w.frame, depth + 1);
	x->nexpanding--;
}

/* The operands of a chain a && b && c (or ||), parentheses looked through. */
static void
chain(const ca_expr *e, int op, const ca_expr **ops, int *n, int max)
{
	e = unparen(e);
	if (e->node == CA_N_BINARY && e->op == op && *n < max - 1) {
		chain(e->u.k.a, op, ops, n, max);
		chain(e->u.k.b, op, ops, n, max);
	} else if (*n < max)
		ops[(*n)++] = e;
}

#define MAX_CHAIN 64

static void
logic_node(struct explainer *x, const ca_expr *e, const ca_frame *f, ca_value v, int depth)
{
	const ca_expr *ops[MAX_CHAIN];
	bool evaluated[MAX_CHAIN];
	int n = 0, from_child = 0;
	bool and = e->op == CA_T_AND;

	chain(e, e->op, ops, &n, MAX_CHAIN);
	ca_value acc = value_of(x, ops[0], f);
	evaluated[0] = true;
	from_child = acc.kind == v.kind;
	for (int i = 1; i < n; i++) {
		bool right;
		ca_value r = value_of(x, ops[i], f);
		acc = ca_logic(and, acc, r, &right);
		evaluated[i] = right && evaluated[i - 1];
		if (evaluated[i] && r.kind == v.kind)
			from_child = 1;
	}
	line(x, e, v, depth);
	if (bad(v) && !from_child)
		origin(x, e, v, and ? "'&&' of a value that is not a boolean" :
		    "'||' of a value that is not a boolean");
	for (int i = 0; i < n; i++) {
		if (evaluated[i])
			child(x, ops[i], f, depth + 1, v, value_of(x, ops[i], f));
		else
			not_evaluated(x, ops[i], depth + 1);
	}
}

/* The evaluator's trace while a lazy call is evaluated: mark the
 * arguments it reaches. */
static void
watch_args(void *arg, const ca_expr *e, const ca_frame *f, ca_value v, int depth)
{
	struct explainer *x = arg;

	(void)f;
	(void)v;
	(void)depth;
	for (uint32_t i = 0; i < x->nwatch; i++)
		if (x->watch[i] == e)
			x->seen[i] = true;
}

static void
call_node(struct explainer *x, const ca_expr *e, const ca_frame *f, ca_value v, int depth)
{
	const ca_builtin *fn = e->u.call.fn;
	uint32_t n = e->u.call.n;
	int from_child = 0;
	strbuf r = STRBUF_INIT;

	line(x, e, v, depth);
	if (bad(v)) {
		if (fn == NULL)
			strbuf_addf(&r, "unknown function %s()", e->u.call.spell);
		else if ((int)n < fn->min || (fn->max >= 0 && (int)n > fn->max)) {
			if (fn->max == fn->min)
				strbuf_addf(&r, "%s() takes %d argument%s, not %u", fn->name,
				    fn->min, fn->min == 1 ? "" : "s", n);
			else if (fn->max < 0)
				strbuf_addf(&r, "%s() takes at least %d arguments, not %u",
				    fn->name, fn->min, n);
			else
				strbuf_addf(&r, "%s() takes %d to %d arguments, not %u", fn->name,
				    fn->min, fn->max, n);
		} else {
			strbuf_addf(&r, "%s(", fn->name);
			for (uint32_t i = 0; i < n; i++) {
				ca_value a = value_of(x, e->u.call.args[i], f);
				if (a.kind == v.kind && fn->lazy == NULL)
					from_child = 1;
				strbuf_addf(&r, "%s%s", i ? ", " : "", ca_kind_name[a.kind]);
			}
			strbuf_addc(&r, ')');
			if (v.kind == CA_ERROR && v.u.why)
				strbuf_addf(&r, ": %s", v.u.why);
		}
		if (!from_child)
			origin(x, e, v, r.buf);
	}
	strbuf_release(&r);
	/* a lazy function (ifThenElse, eval, ...) evaluates only some of its
	 * arguments: ask the evaluator which, and follow only those */
	bool seen_small[16], *seen = n <= 16 ? seen_small : ca_xcalloc(n, sizeof *seen);
	for (uint32_t i = 0; i < n; i++)
		seen[i] = fn == NULL || fn->lazy == NULL;
	if (fn != NULL && fn->lazy != NULL && n > 0) {
		x->watch = (const ca_expr *const *)e->u.call.args;
		x->seen = seen;
		x->nwatch = n;
		x->cx->trace = watch_args;
		x->cx->trace_arg = x;
		(void)value_of(x, e, f);
		x->cx->trace = NULL;
		x->watch = NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		if (seen[i])
			child(x, e->u.call.args[i], f, depth + 1, v, value_of(x, e->u.call.args[i], f));
		else
			not_evaluated(x, e->u.call.args[i], depth + 1);
	if (seen != seen_small)
		free(seen);
}

/* Evaluate and report e, then its children as the evaluator visits them;
 * the node where an UNDEFINED or ERROR arises is marked on its own line. */
static void
node(struct explainer *x, const ca_expr *e, const ca_frame *f, int depth)
{
	if (x->nlines >= MAX_LINES || depth >= MAX_INDENT ||
	    x->cx->steps >= CA_EVAL_MAX_STEPS) {
		x->cut = true;
		return;
	}
	e = unparen(e);
	ca_value v = value_of(x, e, f);

	switch (e->node) {
	case CA_N_LIT:
		line(x, e, v, depth);
		return;
	case CA_N_ATTR:
		attr_node(x, e, f, v, depth);
		return;
	case CA_N_CALL:
		call_node(x, e, f, v, depth);
		return;
	case CA_N_BINARY:
		if (e->op == CA_T_AND || e->op == CA_T_OR) {
			logic_node(x, e, f, v, depth);
			return;
		}
		break;
	default:
		break;
	}

	/* the children the evaluator visits, and their values */
	const ca_expr *kids[MAX_CHAIN];
	ca_value kv[MAX_CHAIN];
	int nk = 0;
	switch (e->node) {
	case CA_N_SELECT:
		kids[nk++] = e->u.sel.base;
		break;
	case CA_N_INDEX:
	case CA_N_BINARY:
		kids[nk++] = e->u.k.a;
		kids[nk++] = e->u.k.b;
		break;
	case CA_N_UNARY:
		kids[nk++] = e->u.k.a;
		break;
	case CA_N_COND: {
		kids[nk++] = e->u.k.a;
		ca_value c = value_of(x, e->u.k.a, f);
		int t = ca_value_truth(c);
		if (!bad(c) && t >= 0)
			kids[nk++] = t ? e->u.k.b : e->u.k.c;
		break;
	}
	case CA_N_ELVIS:
		kids[nk++] = e->u.k.a;
		if (value_of(x, e->u.k.a, f).kind == CA_UNDEFINED)
			kids[nk++] = e->u.k.b;
		break;
	case CA_N_LIST:
		for (uint32_t i = 0; i < e->u.list.n && nk < MAX_CHAIN; i++)
			kids[nk++] = e->u.list.items[i];
		break;
	default:
		break;
	}
	int from_child = 0;
	for (int i = 0; i < nk; i++) {
		kv[i] = value_of(x, kids[i], f);
		if (kv[i].kind == v.kind)
			from_child = 1;
	}
	line(x, e, v, depth);
	if (bad(v) && !from_child && e->node != CA_N_LIST && e->node != CA_N_AD) {
		strbuf r = STRBUF_INIT;
		switch (e->node) {
		case CA_N_BINARY:
			operand_reason(&r, v.kind == CA_ERROR ? v.u.why : NULL, kv[0], &kv[1]);
			break;
		case CA_N_SELECT:
			if (v.kind == CA_UNDEFINED)
				strbuf_addf(&r, "the record has no attribute %s", e->u.sel.spell);
			else
				operand_reason(&r, v.u.why, kv[0], NULL);
			break;
		case CA_N_INDEX:
			if (v.kind == CA_UNDEFINED)
				strbuf_adds(&r, "the record has no such attribute");
			else
				operand_reason(&r, v.u.why, kv[0], &kv[1]);
			break;
		case CA_N_UNARY:
		case CA_N_COND:
			operand_reason(&r, v.kind == CA_ERROR ? v.u.why : NULL, kv[0], NULL);
			break;
		default:
			strbuf_adds(&r, v.kind == CA_ERROR && v.u.why ? v.u.why : "no reason recorded");
			break;
		}
		origin(x, e, v, r.buf);
		strbuf_release(&r);
	}
	for (int i = 0; i < nk; i++)
		if (unparen(kids[i])->node != CA_N_LIT)	/* literals show in the parent */
			child(x, kids[i], f, depth + 1, v, kv[i]);
}

ca_value
ca_explain(ca_ctx *cx, const ca_expr *e, const ca_ad *my, const ca_ad *target, strbuf *sb)
{
	struct explainer x = { .cx = cx, .sb = sb, .why = STRBUF_INIT, .start = sb->len,
	    .counts = true };

	if (my == NULL)
		my = cx->empty;
	ca_frame f = { my, NULL, my, target };
	ca_eval_begin(cx);
	ca_value v = ca_eval_end(cx, ca_eval(cx, e, &f));
	cx->steps = 0;		/* the report's own budget */
	node(&x, e, &f, 0);
	strbuf_addc(sb, '\n');
	if (x.cut)
		strbuf_addf(sb, "(parts are left out: the report is limited to %d lines, %d levels "
		    "and %u evaluation steps)\n", MAX_LINES, MAX_INDENT, CA_EVAL_MAX_STEPS);
	if (x.norigins) {
		strbuf_adds(sb, "why:");
		strbuf_add(sb, x.why.buf, x.why.len);
		if (x.norigins > 8)
			strbuf_addf(sb, "\n  (and %d more)", x.norigins - 8);
		strbuf_addc(sb, '\n');
	}
	strbuf_release(&x.why);
	return v;
}
