/* startd_deadline.c - when a slot's policy can next decide otherwise: the
 * expressions it evaluated, followed to the clocks they read. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "classad.h"
#include "startd.h"
#include "startd_int.h"

/*
 * Between two events nothing in a slot ad changes but its clocks: the
 * time (time(), CurrentTime, MyCurrentTime), KeyboardIdle and ConsoleIdle,
 * the TotalTime of the current state and activity, the run and suspension
 * times of the job and the claim, CpuBusyTime while the CPU is busy (each
 * one second a second), ClockMin (one a minute) and ClockDay (at
 * midnight). So every value an expression computes is, until something
 * else happens, a step function of time: a value now and a change per step
 * (a slope), or a constant. A comparison of two such values changes its
 * truth at a time that can be solved for; && || ! ?: and ifThenElse change
 * only when their operands do. The earliest such time over the expressions
 * a slot evaluated for its last decision is when that decision must be
 * made again: advancing a machine stops there, so one step far ahead
 * makes the transitions many small steps make, at the same seconds.
 *
 * What the analysis cannot follow (a product of two clocks, an integer
 * division of one, a builtin that is not one of the few below) makes the
 * expression be evaluated again at the clock's next step: never a change
 * missed, only more evaluations.
 */

/* A value as a function of time: v now, and v + slope * k after the k-th
 * step; steps come first seconds from now, then every step seconds. next:
 * the value may change in another way then (an absolute time). */
struct lin {
	ca_value v;
	double slope;
	int32_t step, first;
	int64_t next;
};

struct an {
	ca_startd *sd;
	struct slot *s;
	int64_t now;
	int depth;
};

static struct lin lin_of(struct an *a, const ca_expr *e, const ca_frame *f);

static struct lin
constant(ca_value v, int64_t next)
{
	return (struct lin){ v, 0.0, 1, 1, next };
}

static bool
varies(const struct lin *l)
{
	return l->slope != 0.0;
}

static int64_t
min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* The time of the next step of l (INT64_MAX: it does not vary). */
static int64_t
next_step(const struct an *a, const struct lin *l)
{
	return varies(l) ? a->now + l->first : INT64_MAX;
}

/* A value that changes in a way the analysis does not follow: look again
 * at the next step of whichever of l and r varies. */
static struct lin
opaque(const struct an *a, ca_value v, const struct lin *l, const struct lin *r)
{
	int64_t next = l != NULL ? min64(l->next, next_step(a, l)) : INT64_MAX;

	if (r != NULL)
		next = min64(next, min64(r->next, next_step(a, r)));
	return constant(v, next);
}

/* The next local midnight after t. */
static int64_t
next_midnight(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm) == NULL)
		return t + 86400;
	tm.tm_mday++;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	time_t m = mktime(&tm);
	return m > tt ? (int64_t)m : t + 86400;
}

/* How slot attribute n of s, a literal, moves with the clock (tick()). */
static struct lin
clock_attr(struct an *a, const struct slot *s, const ca_name *n, ca_value v)
{
	ca_startd *sd = a->sd;
	struct lin l = constant(v, INT64_MAX);
	bool ticks = false;

	if (!ca_is_num(v))
		return l;
	if (n == sd->n[A_KBDIDLE] || n == sd->n[A_CONSIDLE] || n == sd->n[A_MYCURRENTTIME] ||
	    n == sd->tt[s->st][s->ac])
		ticks = true;
	else if (n == sd->n[A_CPUBUSYTIME])
		ticks = !sd->latch_cpubusy && lit_true(s->ad, sd->n[A_CPUISBUSY]);
	else if (s->st == CA_S_CLAIMED && job_active(sd, s) &&
	    (n == sd->n[A_TJOBRUN] || n == sd->n[A_TCLAIMRUN]))
		ticks = s->ac == CA_A_BUSY || s->ac == CA_A_RETIRING;
	else if (s->st == CA_S_CLAIMED && job_active(sd, s) &&
	    (n == sd->n[A_TJOBSUSP] || n == sd->n[A_TCLAIMSUSP]))
		ticks = s->ac == CA_A_SUSPENDED;
	else if (n == sd->n[A_CLOCKMIN]) {
		int64_t into = s->clock - (next_midnight(s->clock) - 86400);
		l.slope = 1.0;
		l.step = 60;
		l.first = (int32_t)(60 - ((into % 60) + 60) % 60);
		l.next = next_midnight(s->clock);
		return l;
	} else if (n == sd->n[A_CLOCKDAY]) {
		l.next = next_midnight(s->clock);
		return l;
	}
	if (ticks)
		l.slope = 1.0;
	return l;
}

/* A slot<N>_X (vm<N>_X) copy of STARTD_SLOT_ATTRS: the slot it comes from
 * and X, or NULL. */
static struct slot *
copied_from(struct an *a, const ca_name *n, const ca_name **attr)
{
	ca_startd *sd = a->sd;
	const char *p = n->spell, *pre = sd->xslot_vm ? "vm" : "slot";
	size_t pl = strlen(pre);
	char *end;

	if (sd->xslot.n == 0 || a->sd->machine == NULL || strncasecmp(p, pre, pl) != 0)
		return NULL;
	long long id = strtoll(p + pl, &end, 10);
	if (end == p + pl || *end != '_')
		return NULL;
	for (size_t i = 0; i < sd->xslot.n; i++)
		if (strcasecmp(end + 1, sd->xslot.at[i]) == 0) {
			ca_smachine *m = sd->machine;
			for (size_t k = 0; k < m->slots.n; k++) {
				struct slot *x = m->slots.at[k];
				if (live(x) && x->kind != K_DYNAMIC && x->id == id) {
					*attr = ca_intern(sd->xslot.at[i], strlen(sd->xslot.at[i]));
					return x;
				}
			}
		}
	return NULL;
}

static struct lin
lin_attr(struct an *a, int scope, const ca_name *name, const ca_frame *f)
{
	ca_ctx *cx = &a->sd->cx;
	ca_where w;

	switch (ca_resolve(cx, scope, name, f, 0, &w)) {
	case CA_WHERE_NONE:
		return constant(ca_undef(), INT64_MAX);
	case CA_WHERE_SPECIAL:
		if (w.special == CA_SP_CURRENTTIME) {
			struct lin l = constant(ca_int(cx->now), INT64_MAX);
			l.slope = 1.0;
			return l;
		}
		return constant(ca_special_value(cx, w.special, f), INT64_MAX);
	default:
		break;
	}
	ca_attr *at = w.at;
	const ca_ad *in = w.frame->ad;
	ca_value lit;
	if (ca_attr_lit_in(in, at, &lit)) {
		if (ca_ad_find(a->s->ad, name) == at) {
			const ca_name *src;
			struct slot *x = copied_from(a, name, &src);
			if (x != NULL && x != a->s && a->depth < 32) {
				/* the copy is made again before every decision */
				ca_frame xf = { x->ad, NULL, x->ad, NULL };
				struct an b = { a->sd, x, a->now, a->depth + 1 };
				struct lin l = lin_attr(&b, CA_SC_NONE, src, &xf);
				l.v = lit;
				return l;
			}
			return clock_attr(a, a->s, name, lit);
		}
		return constant(lit, INT64_MAX);
	}
	if (a->depth >= 64)		/* a cycle: ERROR whenever it is evaluated */
		return constant(ca_eval(cx, ca_attr_expr(in, at), w.frame), INT64_MAX);
	a->depth++;
	struct lin l = lin_of(a, ca_attr_expr(in, at), w.frame);
	a->depth--;
	return l;
}

/* The value of l after k steps. */
static ca_value
at_step(const struct lin *l, double k)
{
	if (!varies(l))
		return l->v;
	if (l->v.kind == CA_INT && l->slope == floor(l->slope) &&
	    fabs((double)l->v.u.i + l->slope * k) < 9e18)
		return ca_int(l->v.u.i + (int64_t)(l->slope * k));
	if (l->v.kind == CA_REAL)
		return ca_real(l->v.u.r + l->slope * k);
	if (l->v.kind == CA_INT)
		return ca_real((double)l->v.u.i + l->slope * k);
	return l->v;
}

static double
num(ca_value v)
{
	return v.kind == CA_INT ? (double)v.u.i : v.kind == CA_REAL ? v.u.r : 0.0;
}

/* Comparison op of l and r, and when its truth changes. */
static struct lin
compare(struct an *a, int op, const struct lin *l, const struct lin *r)
{
	ca_ctx *cx = &a->sd->cx;
	ca_value v = ca_eval_binop(cx, op, l->v, r->v);
	int64_t next = min64(l->next, r->next);

	if (!varies(l) && !varies(r))
		return constant(v, next);
	if (varies(l) && varies(r) && (l->step != r->step || l->first != r->first))
		return opaque(a, v, l, r);
	if (!ca_is_num(l->v) || !ca_is_num(r->v))
		return constant(v, next);	/* a number against anything else */
	const struct lin *w = varies(l) ? l : r;
	double ds = (varies(l) ? l->slope : 0.0) - (varies(r) ? r->slope : 0.0);
	if (ds == 0.0)
		return constant(v, next);
	int now = ca_value_truth(v);
	double k0 = (num(r->v) - num(l->v)) / ds;
	double cand[4] = { 1.0, floor(k0), floor(k0) + 1.0, floor(k0) + 2.0 };
	for (int i = 0; i < 4; i++) {
		double k = cand[i];
		if (k < 1.0 || (i > 0 && k <= cand[0]) || k > 1e12)
			continue;
		ca_value x = ca_eval_binop(cx, op, at_step(l, k), at_step(r, k));
		if (ca_value_truth(x) != now) {
			double t = (double)a->now + w->first + (k - 1.0) * w->step;
			if (t < (double)next)
				next = (int64_t)t;
			break;
		}
	}
	return constant(v, next);
}

/* Arithmetic op of l and r. */
static struct lin
arith(struct an *a, int op, const struct lin *l, const struct lin *r)
{
	ca_value v = ca_eval_binop(&a->sd->cx, op, l->v, r->v);
	struct lin out = constant(v, min64(l->next, r->next));

	if (!varies(l) && !varies(r))
		return out;
	if (!ca_is_num(v))
		return out;		/* UNDEFINED or ERROR while the types hold */
	if (varies(l) && varies(r) && (l->step != r->step || l->first != r->first))
		return opaque(a, v, l, r);
	const struct lin *w = varies(l) ? l : r;
	out.step = w->step;
	out.first = w->first;
	switch (op) {
	case CA_T_PLUS:
		out.slope = l->slope + r->slope;
		break;
	case CA_T_MINUS:
		out.slope = l->slope - r->slope;
		break;
	case CA_T_STAR:
		if (varies(l) && varies(r))
			return opaque(a, v, l, r);
		out.slope = varies(l) ? l->slope * num(r->v) : r->slope * num(l->v);
		break;
	case CA_T_SLASH:
		/* a clock divided by a constant, in reals; an integer division
		 * loses the phase */
		if (varies(r) || num(r->v) == 0.0 || v.kind == CA_INT)
			return opaque(a, v, l, r);
		out.slope = l->slope / num(r->v);
		break;
	default:
		return opaque(a, v, l, r);
	}
	if (!isfinite(out.slope))
		return opaque(a, v, l, r);
	return out;
}

/* isUndefined(x) and the other tests of a type. */
static bool
is_type_test(const char *name)
{
	static const char *const tests[] = {
		"isAbsTime", "isBoolean", "isClassad", "isError", "isInteger", "isList",
		"isReal", "isRelTime", "isString", "isUndefined"
	};

	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
		if (strcasecmp(name, tests[i]) == 0)
			return true;
	return false;
}

/* The value of a builtin call, and how it moves. */
static struct lin
lin_call(struct an *a, const ca_expr *e, const ca_frame *f)
{
	ca_startd *sd = a->sd;
	ca_ctx *cx = &sd->cx;
	const ca_builtin *fn = e->u.call.fn;
	uint32_t n = e->u.call.n;

	if (fn == sd->bi_time && n == 0) {
		struct lin l = constant(ca_int(cx->now), INT64_MAX);
		l.slope = 1.0;
		return l;
	}
	if (fn == sd->bi_if && n == 3) {
		struct lin c = lin_of(a, e->u.call.args[0], f);
		int t = ca_value_truth(c.v);
		if (c.v.kind == CA_BOOL || ca_is_num(c.v)) {
			struct lin b = lin_of(a, e->u.call.args[t == 1 ? 1 : 2], f);
			if (!varies(&c)) {
				b.next = min64(b.next, c.next);
				return b;
			}
		}
		return opaque(a, ca_eval(cx, e, f), &c, NULL);
	}
	if (fn != NULL && n == 1 && is_type_test(fn->name)) {
		/* a type test: a clock does not change the type */
		struct lin x = lin_of(a, e->u.call.args[0], f);
		return constant(ca_eval(cx, e, f), x.next);
	}
	if (fn != NULL && n == 1 && (fn == sd->bi_int || fn == sd->bi_floor ||
	    fn == sd->bi_ceiling || fn == sd->bi_ceil || fn == sd->bi_round)) {
		struct lin x = lin_of(a, e->u.call.args[0], f);
		ca_value v = ca_eval(cx, e, f);
		if (varies(&x) && x.v.kind == CA_INT && x.slope == floor(x.slope) &&
		    v.kind == CA_INT) {
			x.v = v;
			return x;
		}
		return varies(&x) ? opaque(a, v, &x, NULL) : constant(v, x.next);
	}
	/* anything else: a constant if its arguments are */
	int64_t next = INT64_MAX;
	for (uint32_t i = 0; i < n; i++) {
		struct lin x = lin_of(a, e->u.call.args[i], f);
		next = min64(next, min64(x.next, next_step(a, &x)));
	}
	return constant(ca_eval(cx, e, f), next);
}

static struct lin
lin_of(struct an *a, const ca_expr *e, const ca_frame *f)
{
	ca_ctx *cx = &a->sd->cx;
	struct lin l, r;

	while (e->node == CA_N_PAREN)
		e = e->u.k.a;
	switch (e->node) {
	case CA_N_LIT:
		return constant(e->u.lit, INT64_MAX);
	case CA_N_ATTR:
		return lin_attr(a, e->op, e->u.attr.name, f);
	case CA_N_UNARY:
		l = lin_of(a, e->u.k.a, f);
		if (e->op == CA_T_MINUS && ca_is_num(l.v)) {
			l.v = ca_eval(cx, e, f);
			l.slope = -l.slope;
			return l;
		}
		if (e->op == CA_T_PLUS && ca_is_num(l.v))
			return l;
		if (e->op == CA_T_NOT && !varies(&l))
			return constant(ca_eval(cx, e, f), l.next);
		return opaque(a, ca_eval(cx, e, f), &l, NULL);
	case CA_N_BINARY:
		l = lin_of(a, e->u.k.a, f);
		if (e->op == CA_T_AND || e->op == CA_T_OR) {
			bool and = e->op == CA_T_AND;
			ca_value v;
			if (ca_logic_left(and, l.v, &v))
				return constant(v, l.next);	/* until the left side changes */
			r = lin_of(a, e->u.k.b, f);
			return constant(ca_logic_right(and, l.v, r.v), min64(l.next, r.next));
		}
		r = lin_of(a, e->u.k.b, f);
		switch (e->op) {
		case CA_T_LT: case CA_T_LE: case CA_T_GT: case CA_T_GE: case CA_T_EQ:
		case CA_T_NE: case CA_T_META_EQ: case CA_T_META_NE: case CA_T_IS:
		case CA_T_ISNT:
			return compare(a, e->op, &l, &r);
		default:
			return arith(a, e->op, &l, &r);
		}
	case CA_N_COND:
	case CA_N_ELVIS: {
		struct lin c = lin_of(a, e->u.k.a, f);
		if (varies(&c) && e->node == CA_N_COND)
			return opaque(a, ca_eval(cx, e, f), &c, NULL);
		const ca_expr *pick;
		if (e->node == CA_N_ELVIS)
			pick = c.v.kind == CA_UNDEFINED ? e->u.k.b : NULL;
		else if (c.v.kind != CA_BOOL && !ca_is_num(c.v))
			return constant(ca_eval(cx, e, f), c.next);
		else
			pick = ca_value_truth(c.v) == 1 ? e->u.k.b : e->u.k.c;
		if (pick == NULL)
			return c;
		struct lin b = lin_of(a, pick, f);
		b.next = min64(b.next, c.next);
		return b;
	}
	case CA_N_CALL:
		return lin_call(a, e, f);
	default: {
		/* selections, indexes, lists, nested ads: constant if what they
		 * are made of is */
		int64_t next = INT64_MAX;
		for (uint32_t i = 0; i < ca_expr_nkids(e); i++) {
			struct lin x = lin_of(a, ca_expr_kid(e, i), f);
			next = min64(next, min64(x.next, next_step(a, &x)));
		}
		if (e->node == CA_N_SELECT)
			next = min64(next, a->now + 1);	/* what it selects may be a clock */
		return constant(ca_eval(cx, e, f), next);
	}
	}
}

/* Is n one of the slot's clocks (or a copy of another slot's attribute,
 * which may be one)? */
static const int clock_attrs[] = {
	A_KBDIDLE, A_CONSIDLE, A_MYCURRENTTIME, A_CLOCKMIN, A_CLOCKDAY, A_CPUBUSYTIME,
	A_TJOBRUN, A_TJOBSUSP, A_TCLAIMRUN, A_TCLAIMSUSP
};

static uint64_t
bloom_bit(const ca_name *n)
{
	return UINT64_C(1) << (n->hash & 63);
}

void
ca_sd_clock_names_init(ca_startd *sd)
{
	for (size_t i = 0; i < sizeof clock_attrs / sizeof clock_attrs[0]; i++)
		sd->clock_bloom |= bloom_bit(sd->n[clock_attrs[i]]);
	sd->clock_bloom |= bloom_bit(sd->cx.special[CA_SP_CURRENTTIME]);
	for (int st = 0; st < CA_S_NSTATES; st++)
		for (int ac = 0; ac < CA_A_NACTS; ac++)
			sd->clock_bloom |= bloom_bit(sd->tt[st][ac]);
}

/* Most names are told apart by a bit of their hash. */
bool
ca_sd_clock_name(ca_startd *sd, const ca_name *n)
{
	if (sd->xslot.n > 0 && (strncasecmp(n->spell, "slot", 4) == 0 ||
	    strncasecmp(n->spell, "vm", 2) == 0))
		return true;
	if (!(sd->clock_bloom & bloom_bit(n)))
		return false;
	for (size_t i = 0; i < sizeof clock_attrs / sizeof clock_attrs[0]; i++)
		if (n == sd->n[clock_attrs[i]])
			return true;
	if (n == sd->cx.special[CA_SP_CURRENTTIME])
		return true;
	return n->len > 9 && strncasecmp(n->spell, "TotalTime", 9) == 0;
}

/* Can e (of slot ad my, with job) read a clock at all? A quick look at the
 * names it reads and the expressions they hold, before the analysis. */
static bool
may_vary(ca_startd *sd, const ca_expr *e, const ca_ad *my, const ca_ad *job, int depth)
{
	if (depth > 32)
		return true;
	switch (e->node) {
	case CA_N_LIT:
		return false;
	case CA_N_ATTR: {
		const ca_name *n = e->u.attr.name;
		if (ca_sd_clock_name(sd, n))
			return true;
		ca_attr *at = e->op != CA_SC_TARGET && e->op != CA_SC_OTHER ?
		    ca_ad_find(my, n) : NULL;
		if (at == NULL && job != NULL && e->op != CA_SC_MY)
			at = ca_ad_find(job, n);
		const ca_expr *t = at != NULL ? ca_attr_tree(at) : NULL;	/* NULL: a literal */
		return t != NULL && may_vary(sd, t, my, job, depth + 1);
	}
	case CA_N_SELECT:
		return true;
	case CA_N_CALL:
		if (e->u.call.fn == sd->bi_time)
			return true;
		break;
	default:
		break;
	}
	for (uint32_t i = 0; i < ca_expr_nkids(e); i++)
		if (may_vary(sd, ca_expr_kid(e, i), my, job, depth + 1))
			return true;
	return false;
}

/* The names e refers to, into refs, and whether it reads a clock itself. */
static bool
summarize(ca_startd *sd, const ca_expr *e, strbuf *refs)
{
	bool clock = false;

	switch (e->node) {
	case CA_N_ATTR: {
		struct eref r = { e->op, e->u.attr.name };
		strbuf_add(refs, (const char *)&r, sizeof r);
		return ca_sd_clock_name(sd, e->u.attr.name);
	}
	case CA_N_SELECT:
		clock = true;
		break;
	case CA_N_CALL:
		clock = e->u.call.fn == sd->bi_time;
		break;
	default:
		break;
	}
	for (uint32_t i = 0; i < ca_expr_nkids(e); i++)
		clock |= summarize(sd, ca_expr_kid(e, i), refs);
	return clock;
}

int64_t
ca_sd_tracked_deadline(ca_startd *sd, struct slot *s, const struct tracked *t, const ca_ad *job)
{
	struct policy *p = s->pol;
	struct esum *sum = p->sum[t->ix];

	if (sum == NULL) {
		strbuf refs = STRBUF_INIT;
		sum = ca_arena_alloc(&p->arena, sizeof *sum);
		sum->clock = summarize(sd, t->e, &refs);
		sum->n = (uint32_t)(refs.len / sizeof *sum->refs);
		sum->refs = ca_arena_alloc(&p->arena, refs.len + 1);
		memcpy(sum->refs, refs.buf, refs.len);
		strbuf_release(&refs);
		p->sum[t->ix] = sum;
	}
	if (!sum->clock) {
		bool quiet = true;
		for (uint32_t i = 0; i < sum->n && quiet; i++) {
			int sc = sum->refs[i].scope;
			const ca_name *n = sum->refs[i].name;
			ca_attr *at = sc != CA_SC_TARGET && sc != CA_SC_OTHER ?
			    ca_ad_find(s->ad, n) : NULL;
			if (at == NULL && job != NULL && sc != CA_SC_MY)
				at = ca_ad_find(job, n);
			quiet = at == NULL || ca_attr_tree(at) == NULL;	/* a literal */
		}
		if (quiet)
			return INT64_MAX;	/* literals only: nothing moves */
	}
	return ca_sd_expr_deadline(sd, s, t->e, job);
}

int64_t
ca_sd_expr_deadline(ca_startd *sd, struct slot *s, const ca_expr *e, const ca_ad *job)
{
	if (!may_vary(sd, e, s->ad, job, 0))
		return INT64_MAX;
	struct an a = { sd, s, s->clock, 0 };
	ca_frame f = { s->ad, NULL, s->ad, job };
	sd->cx.now = s->clock;
	sd->cx.steps = 0;
	sd->cx.depth = 0;
	struct lin l = lin_of(&a, e, &f);
	return l.next > s->clock ? l.next : s->clock + 1;
}
