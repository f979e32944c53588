/* analyze.c - the better-analyze clone: clause decomposition of a
 * Requirements tree, per-clause match counts, and what to relax.
 *
 * The clauses are kept in preorder, so a pass from the last to the first
 * sees every clause's operands before the clause: leaves are evaluated, the
 * value of an && or || chain is folded from its operands with the language's
 * three-valued tables (the same result as evaluating the chain). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "classad.h"
#include "match.h"

#define MAX_EXPAND	64	/* attribute references looked through, in all */
#define MAX_SHOWN	8	/* distinct values of the other side listed */
#define WRAP_WIDTH	76	/* the Requirements text is wrapped to this */

enum { CL_LEAF, CL_AND, CL_OR };
#define MAX_REFS	3	/* attributes of the other side followed in a test */

/* The distinct values something of the other side had (the first
 * MAX_SHOWN of them), for advice worded on values. */
struct valset {
	const char *vals[MAX_SHOWN];
	uint32_t nvals;
	bool more;
	uint64_t undef;		/* weight of the ads where it is undefined */
};

struct clause {
	const ca_expr *e;	/* parentheses stripped */
	int kind;
	int parent;		/* -1 for the root */
	int depth;		/* 0 for the root */
	uint32_t *child, nchild;
	char label[48];

	bool fixed;		/* reaches nothing of the other side */
	ca_value fval;		/* fixed: the value, in the analysis arena */
	uint64_t matched;	/* weight of the other ads it is true for */
	ca_value cur;		/* during ca_analysis_add */

	/* a comparison of something of the other side (oside) with something
	 * fixed (fside), turned so that oside is on the left of op */
	const ca_expr *oside, *fside;
	int op;
	ca_value fv;
	bool any_num, all_int;
	double min, max;
	struct valset seen;	/* oside's values where the clause fails */
	/* a test that is no comparison and no plain attribute (a function
	 * call, ifThenElse(...)): the attributes of the other side it reads,
	 * and their values where it fails */
	const ca_name *ref[MAX_REFS];
	struct valset refseen[MAX_REFS];
	uint32_t nref;
};

struct ca_analysis {
	ca_ctx *cx;
	const ca_ad *self;
	const ca_expr *req;
	int rflags;
	bool slots;		/* CA_AN_SLOTS */
	const char *user;	/* self's User, for telling its slots apart */
	ca_arena arena;
	ca_vec(struct clause) cl;	/* in preorder */
	int nexpand;
	uint64_t *without;	/* root &&: weight where only operand k fails */
	ca_analysis_counts n;
	strbuf tmp;
};

/* ---- building the clause tree ---- */

/* e without its parentheses, and through references to attributes of self
 * whose definition is an && or || chain. */
static const ca_expr *
strip(ca_analysis *an, const ca_expr *e)
{
	for (;;) {
		if (e->node == CA_N_PAREN) {
			e = e->u.k.a;
			continue;
		}
		if (e->node == CA_N_ATTR && (e->op == CA_SC_NONE || e->op == CA_SC_MY) &&
		    an->nexpand < MAX_EXPAND) {
			ca_attr *at = ca_ad_find(an->self, e->u.attr.name);
			const ca_expr *d = at ? ca_attr_expr(an->self, at) : NULL;
			while (d && d->node == CA_N_PAREN)
				d = d->u.k.a;
			if (d && d->node == CA_N_BINARY && (d->op == CA_T_AND || d->op == CA_T_OR)) {
				an->nexpand++;
				e = d;
				continue;
			}
		}
		return e;
	}
}

typedef ca_vec(const ca_expr *) oplist;

static void
flatten(ca_analysis *an, const ca_expr *e, int op, oplist *l)
{
	e = strip(an, e);
	if (e->node == CA_N_BINARY && e->op == op) {
		flatten(an, e->u.k.a, op, l);
		flatten(an, e->u.k.b, op, l);
		return;
	}
	*ca_vec_push(l) = e;
}

static uint32_t
build(ca_analysis *an, const ca_expr *e, int parent, int depth)
{
	uint32_t idx;
	struct clause *c;

	e = strip(an, e);
	idx = (uint32_t)an->cl.n;
	c = ca_vec_push(&an->cl);
	memset(c, 0, sizeof *c);
	c->e = e;
	c->parent = parent;
	c->depth = depth;
	c->kind = CL_LEAF;
	if (e->node != CA_N_BINARY || (e->op != CA_T_AND && e->op != CA_T_OR))
		return idx;

	oplist ops = CA_VEC_INIT;
	int op = e->op;
	flatten(an, e->u.k.a, op, &ops);
	flatten(an, e->u.k.b, op, &ops);
	uint32_t *child = ca_arena_array(&an->arena, ops.n, sizeof *child);
	for (uint32_t i = 0; i < ops.n; i++)
		child[i] = build(an, ops.at[i], (int)idx, depth + 1);
	c = &an->cl.at[idx];	/* the array may have moved */
	c->kind = op == CA_T_AND ? CL_AND : CL_OR;
	c->child = child;
	c->nchild = (uint32_t)ops.n;
	ca_vec_free(&ops);
	return idx;
}

static void
other_ref(void *arg, const ca_name *nm, int side)
{
	bool *found = arg;

	(void)nm;
	if (side == CA_REF_OTHER)
		*found = true;
}

/* e reaches nothing of the other side (and nothing unknowable). */
static bool
is_fixed(const ca_analysis *an, const ca_expr *e)
{
	bool other = false;

	if (ca_expr_refs(e, an->self, CA_REFS_DEEP | an->rflags, other_ref, &other))
		return false;
	return !other;
}

/* The value of a fixed expression: against self alone (an empty TARGET, so
 * that MY works under either rule), kept in the analysis arena. */
static ca_value
fixed_value(ca_analysis *an, const ca_expr *e)
{
	ca_value v = ca_eval_expr(an->cx, e, an->self, an->cx->empty);

	v = ca_value_copy_into(&an->arena, v);
	ca_arena_reset(&an->cx->scratch);
	return v;
}

/* An attribute of the other side that a test reads. */
static void
test_ref(void *arg, const ca_name *nm, int side)
{
	struct clause *c = arg;

	if (side != CA_REF_OTHER || c->nref == MAX_REFS)
		return;
	for (uint32_t k = 0; k < c->nref; k++)
		if (c->ref[k] == nm)
			return;
	c->ref[c->nref++] = nm;
}

static bool
is_comparison(int op)
{
	switch (op) {
	case CA_T_LT: case CA_T_LE: case CA_T_GT: case CA_T_GE:
	case CA_T_EQ: case CA_T_NE: case CA_T_META_EQ: case CA_T_META_NE:
	case CA_T_IS: case CA_T_ISNT:
		return true;
	default:
		return false;
	}
}

/* x op y as y op' x. */
static int
mirror(int op)
{
	switch (op) {
	case CA_T_LT: return CA_T_GT;
	case CA_T_LE: return CA_T_GE;
	case CA_T_GT: return CA_T_LT;
	case CA_T_GE: return CA_T_LE;
	default: return op;
	}
}

static void
classify(ca_analysis *an, struct clause *c)
{
	const ca_expr *e = c->e, *a, *b;

	c->fixed = is_fixed(an, e);
	if (c->fixed) {
		c->fval = fixed_value(an, e);
		return;
	}
	if (c->kind != CL_LEAF)
		return;
	if (e->node != CA_N_BINARY || !is_comparison(e->op)) {
		/* a test of its own: the values of the attribute it is
		 * (TARGET.HasFileTransfer), or of those it reads */
		c->oside = e;
		c->op = 0;
		c->all_int = true;
		if (e->node != CA_N_ATTR || e->op == CA_SC_MY ||
		    (e->op == CA_SC_NONE && ca_ad_find(an->self, e->u.attr.name) != NULL))
			ca_expr_refs(e, an->self, CA_REFS_DEEP | an->rflags, test_ref, c);
		return;
	}
	a = e->u.k.a;
	b = e->u.k.b;
	bool fa = is_fixed(an, a), fb = is_fixed(an, b);
	if (fa == fb)
		return;
	c->oside = fa ? b : a;
	c->fside = fa ? a : b;
	c->op = fa ? mirror(e->op) : e->op;
	c->fv = fixed_value(an, c->fside);
	c->all_int = true;
}

static void
label(ca_analysis *an)
{
	struct clause *root = &an->cl.at[0];

	if (root->kind == CL_LEAF) {
		strcpy(root->label, "1");
		return;
	}
	/* preorder: a parent is labelled before its operands */
	for (uint32_t i = 0; i < an->cl.n; i++) {
		struct clause *c = &an->cl.at[i];
		for (uint32_t k = 0; k < c->nchild; k++) {
			struct clause *d = &an->cl.at[c->child[k]];
			if (i == 0)
				snprintf(d->label, sizeof d->label, "%u", k + 1);
			else
				snprintf(d->label, sizeof d->label, "%.36s.%u", c->label, k + 1);
		}
	}
}

ca_analysis *
ca_analysis_new(ca_ctx *cx, const ca_ad *self, int flags)
{
	ca_analysis *an = ca_xcalloc(1, sizeof *an);
	ca_mad m;

	an->cx = cx;
	an->self = self;
	an->rflags = (flags & CA_AN_STRICT) ? CA_REFS_STRICT : 0;
	an->slots = (flags & CA_AN_SLOTS) != 0;
	const char *user;
	size_t ulen;
	if (ca_get_str(cx, self, "User", &user, &ulen) == 1)
		an->user = ca_arena_strndup(&an->arena, user, ulen);
	ca_arena_reset(&cx->scratch);
	an->tmp = (strbuf)STRBUF_INIT;
	ca_mad_prepare(&m, self);
	an->req = m.req;
	if (an->req == NULL)
		return an;
	build(an, an->req, -1, 0);
	for (uint32_t i = 0; i < an->cl.n; i++)
		classify(an, &an->cl.at[i]);
	label(an);
	if (an->cl.at[0].kind == CL_AND)
		an->without = ca_xcalloc(an->cl.at[0].nchild, sizeof *an->without);
	return an;
}

void
ca_analysis_free(ca_analysis *an)
{
	if (an == NULL)
		return;
	ca_vec_free(&an->cl);
	free(an->without);
	strbuf_release(&an->tmp);
	ca_arena_free(&an->arena);
	free(an);
}

/* ---- counting ---- */

/* Remember v among the values of vs. */
static void
remember(ca_analysis *an, struct valset *vs, ca_value v, uint64_t w)
{
	if (v.kind == CA_UNDEFINED) {
		vs->undef += w;
		return;
	}
	if (vs->more)
		return;
	strbuf_reset(&an->tmp);
	ca_print_value(&an->tmp, v, 0);
	for (uint32_t i = 0; i < vs->nvals; i++)
		if (strcmp(vs->vals[i], an->tmp.buf) == 0)
			return;
	if (vs->nvals == MAX_SHOWN) {
		vs->more = true;
		return;
	}
	vs->vals[vs->nvals++] = ca_arena_strndup(&an->arena, an->tmp.buf, an->tmp.len);
}

static void
track(ca_analysis *an, struct clause *c, ca_value v, uint64_t w)
{
	if (v.kind == CA_UNDEFINED) {
		c->seen.undef += w;
		return;
	}
	if (v.kind == CA_INT || v.kind == CA_REAL) {
		double x = v.kind == CA_INT ? (double)v.u.i : v.u.r;
		if (!c->any_num || x < c->min)
			c->min = x;
		if (!c->any_num || x > c->max)
			c->max = x;
		c->any_num = true;
		if (v.kind != CA_INT)
			c->all_int = false;
	}
	if (c->op != 0 && c->op != CA_T_EQ && c->op != CA_T_NE && c->op != CA_T_META_EQ &&
	    c->op != CA_T_META_NE && c->op != CA_T_IS && c->op != CA_T_ISNT)
		return;
	remember(an, &c->seen, v, w);
}

/* A partitionable slot as it would be with its dynamic slots gone: each
 * resource of MachineResources (default Cpus Memory Disk) at its
 * TotalSlot<resource>, as condor_q's drain simulation has it. NULL when the
 * slot is no partitionable slot or publishes no such totals. */
static ca_ad *
drained(ca_analysis *an, const ca_ad *slot)
{
	ca_ctx *cx = an->cx;
	bool pslot = false;
	const char *res = "Cpus Memory Disk";
	size_t rlen = strlen(res);
	ca_ad *d = NULL;

	if (ca_get_bool(cx, slot, "PartitionableSlot", &pslot) != 1 || !pslot)
		return NULL;
	(void)ca_get_str(cx, slot, "MachineResources", &res, &rlen);
	char *list = ca_xstrndup(res, rlen), *save = NULL;
	for (char *t = strtok_r(list, " ,\t", &save); t; t = strtok_r(NULL, " ,\t", &save)) {
		char tot[96];
		snprintf(tot, sizeof tot, "TotalSlot%s", t);
		ca_attr *at = ca_ad_findn(slot, tot, strlen(tot));
		if (at == NULL)
			continue;
		if (d == NULL)
			d = ca_ad_copy(slot);
		ca_ad_set_copy(d, t, strlen(t), ca_attr_expr(slot, at));
	}
	free(list);
	return d;
}

/* Whether self and the slot would match with its dynamic slots gone. */
static bool
fits_drained(ca_analysis *an, const ca_ad *slot)
{
	ca_ad *d = drained(an, slot);
	ca_mad od;
	bool fits;

	if (d == NULL)
		return false;
	ca_mad_prepare(&od, d);
	fits = ca_match_req(an->cx, an->req, an->self, d) &&
	    ca_match_req(an->cx, od.req, d, an->self);
	ca_ad_free(d);
	return fits;
}

/* condor_q's counts of the slots that are willing: whose they serve. */
static void
tell_willing(ca_analysis *an, const ca_ad *slot, uint64_t weight)
{
	const char *ru;
	size_t rlen;
	bool pslot = false;

	if (ca_get_str(an->cx, slot, "RemoteUser", &ru, &rlen) == 1 && rlen > 0) {
		if (an->user && strlen(an->user) == rlen && strncmp(an->user, ru, rlen) == 0)
			an->n.yours += weight;
		else
			an->n.others += weight;
		return;
	}
	an->n.available += weight;
	if (ca_get_bool(an->cx, slot, "PartitionableSlot", &pslot) == 1 && pslot)
		an->n.leftovers += weight;
}

void
ca_analysis_add(ca_analysis *an, const ca_ad *other, uint64_t weight)
{
	ca_ctx *cx = an->cx;
	ca_mad o;

	ca_mad_prepare(&o, other);
	an->n.total += weight;
	bool mine = ca_match_req(cx, an->req, an->self, other);
	bool theirs = mine && ca_match_req(cx, o.req, other, an->self);
	if (!theirs && an->slots && fits_drained(an, other))
		an->n.if_drained += weight;
	else if (!mine)
		an->n.rejected += weight;
	else if (!theirs)
		an->n.rejecting += weight;
	else {
		an->n.willing += weight;
		if (an->slots)
			tell_willing(an, other, weight);
	}
	for (uint32_t i = an->cl.n; i-- > 0;) {
		struct clause *c = &an->cl.at[i];
		if (c->fixed)
			c->cur = c->fval;
		else if (c->kind == CL_LEAF)
			c->cur = ca_eval_expr(cx, c->e, an->self, other);
		else {
			ca_value v = an->cl.at[c->child[0]].cur;
			for (uint32_t k = 1; k < c->nchild; k++)
				v = ca_logic(c->kind == CL_AND, v, an->cl.at[c->child[k]].cur, NULL);
			c->cur = v;
		}
		if (ca_value_truth(c->cur) == 1)
			c->matched += weight;
		else if (c->nref > 0 && c->matched == 0)
			for (uint32_t k = 0; k < c->nref; k++)
				remember(an, &c->refseen[k], ca_eval_attr(cx, other, an->self,
				    c->ref[k]->spell), weight);
		else if (c->oside && c->matched == 0)
			track(an, c, ca_eval_expr(cx, c->oside, an->self, other), weight);
	}
	if (an->without) {
		const struct clause *root = &an->cl.at[0];
		uint32_t fails = 0, which = 0;
		for (uint32_t k = 0; k < root->nchild; k++)
			if (ca_value_truth(an->cl.at[root->child[k]].cur) != 1) {
				fails++;
				which = k;
			}
		if (fails == 1)
			an->without[which] += weight;
	}
	ca_arena_reset(&cx->scratch);
}

static void
copy_valset(ca_analysis *dst, struct valset *d, const struct valset *s)
{
	*d = *s;
	for (uint32_t k = 0; k < s->nvals; k++)
		d->vals[k] = ca_arena_strndup(&dst->arena, s->vals[k], strlen(s->vals[k]));
}

void
ca_analysis_inherit(ca_analysis *dst, const ca_analysis *src)
{
	dst->n = src->n;
	if (dst->cl.n != src->cl.n)
		return;		/* cannot happen for ads of one autocluster */
	for (uint32_t i = 0; i < src->cl.n; i++) {
		struct clause *d = &dst->cl.at[i];
		const struct clause *s = &src->cl.at[i];
		d->matched = s->matched;
		d->any_num = s->any_num;
		d->all_int = s->all_int;
		d->min = s->min;
		d->max = s->max;
		copy_valset(dst, &d->seen, &s->seen);
		for (uint32_t k = 0; k < s->nref && k < d->nref; k++)
			copy_valset(dst, &d->refseen[k], &s->refseen[k]);
	}
	if (dst->without && src->without)
		memcpy(dst->without, src->without, dst->cl.at[0].nchild * sizeof *dst->without);
}

void
ca_analysis_counts_get(const ca_analysis *an, ca_analysis_counts *c)
{
	*c = an->n;
}

/* ---- the report ---- */

/* text, indented, broken after "&& " and "|| " (outside string literals)
 * where a line would pass the width. */
static void
wrap(strbuf *sb, const char *s, size_t len, int indent, size_t width)
{
	size_t ls = 0, last = 0;
	bool instr = false;

	for (size_t i = 0; i < len; i++) {
		if (instr) {
			if (s[i] == '\\' && i + 1 < len)
				i++;
			else if (s[i] == '"')
				instr = false;
			continue;
		}
		if (s[i] == '"') {
			instr = true;
			continue;
		}
		if (i + 2 < len && s[i + 2] == ' ' &&
		    ((s[i] == '&' && s[i + 1] == '&') || (s[i] == '|' && s[i + 1] == '|'))) {
			size_t cand = i + 3;
			if (cand - ls > width && last > ls) {
				strbuf_addf(sb, "%*s", indent, "");
				strbuf_add(sb, s + ls, last - 1 - ls);
				strbuf_addc(sb, '\n');
				ls = last;
			}
			last = cand;
		}
	}
	if (len - ls > width && last > ls) {
		strbuf_addf(sb, "%*s", indent, "");
		strbuf_add(sb, s + ls, last - 1 - ls);
		strbuf_addc(sb, '\n');
		ls = last;
	}
	strbuf_addf(sb, "%*s", indent, "");
	strbuf_add(sb, s + ls, len - ls);
	strbuf_addc(sb, '\n');
}

/* A paragraph p, broken at spaces before WRAP_WIDTH columns. */
static void
fill(strbuf *sb, const strbuf *p)
{
	size_t ls = 0, sp = 0;

	for (size_t i = 0; i <= p->len; i++) {
		if (i < p->len && p->buf[i] != ' ')
			continue;
		if (i - ls > WRAP_WIDTH && sp > ls) {
			strbuf_add(sb, p->buf + ls, sp - ls);
			strbuf_addc(sb, '\n');
			ls = sp + 1;
		}
		sp = i;
	}
	strbuf_add(sb, p->buf + ls, p->len - ls);
	strbuf_addc(sb, '\n');
}

/* Whether e refers to an attribute at all (a value worth showing). */
static bool
has_ref(const ca_expr *e)
{
	if (e == NULL)
		return false;
	switch (e->node) {
	case CA_N_LIT:
		return false;
	case CA_N_ATTR:
	case CA_N_SELECT:
	case CA_N_AD:
		return true;
	case CA_N_CALL:
		for (uint32_t i = 0; i < e->u.call.n; i++)
			if (has_ref(e->u.call.args[i]))
				return true;
		return false;
	case CA_N_LIST:
		for (uint32_t i = 0; i < e->u.list.n; i++)
			if (has_ref(e->u.list.items[i]))
				return true;
		return false;
	default:
		return has_ref(e->u.k.a) || has_ref(e->u.k.b) || has_ref(e->u.k.c);
	}
}

/* " (x is 15)" for the operands of a fixed comparison that are not
 * literals: what the ad itself says. */
static void
fixed_operands(const ca_analysis *an, strbuf *sb, const ca_expr *e)
{
	const ca_expr *side[2];
	bool open = false;

	if (e->node != CA_N_BINARY || !is_comparison(e->op))
		return;
	side[0] = e->u.k.a;
	side[1] = e->u.k.b;
	for (int i = 0; i < 2; i++) {
		const ca_expr *x = side[i];
		while (x->node == CA_N_PAREN)
			x = x->u.k.a;
		if (!has_ref(x))
			continue;
		strbuf_adds(sb, open ? ", " : " (");
		open = true;
		ca_print_expr(sb, x, 0);
		strbuf_adds(sb, " is ");
		ca_print_value(sb, ca_eval_expr(an->cx, x, an->self, an->cx->empty), 0);
		ca_arena_reset(&an->cx->scratch);
	}
	if (open)
		strbuf_addc(sb, ')');
}

#define MAX_DEFINED	256	/* attributes of self listed, at most */

struct defined {
	ca_nameset set;
	const ca_ad *self;
};

static void
self_ref(void *arg, const ca_name *nm, int side)
{
	struct defined *l = arg;

	if (side == CA_REF_SELF && l->set.v.n < MAX_DEFINED && ca_ad_find(l->self, nm) != NULL)
		ca_nameset_add(&l->set, nm);
}

static void
print_number(strbuf *sb, double x, bool integral)
{
	if (integral && x >= -9.2e18 && x <= 9.2e18)
		strbuf_addf(sb, "%lld", (long long)x);
	else
		ca_print_real(sb, x);
}

static bool
number_of(ca_value v, double *x)
{
	switch (v.kind) {
	case CA_INT: *x = (double)v.u.i; return true;
	case CA_REAL: *x = v.u.r; return true;
	case CA_BOOL: *x = v.u.b; return true;
	default: return false;
	}
}

/* The values the other side has (at most MAX_SHOWN), as a list. */
static void
put_vals(strbuf *sb, const struct valset *vs)
{
	for (uint32_t i = 0; i < vs->nvals; i++) {
		if (i)
			strbuf_adds(sb, ", ");
		strbuf_adds(sb, vs->vals[i]);
	}
	if (vs->more)
		strbuf_adds(sb, ", ...");
	if (vs->undef)
		strbuf_adds(sb, vs->nvals ? " or none" : "none");
}

/* ": why" after a clause that no ad of the other side satisfies. */
static void
suggest(const ca_analysis *an, strbuf *sb, const struct clause *c, const char *self,
    const char *other)
{
	double f = 0;

	if (c->fixed) {
		strbuf_adds(sb, ": it is ");
		ca_print_value(sb, c->fval, 0);
		strbuf_addf(sb, " for the %s itself", self);
		fixed_operands(an, sb, c->e);
		return;
	}
	if (c->nref > 0) {
		/* worded on what the other side has, not on the test */
		strbuf_addf(sb, ": it is true for no %s; where it fails, %ss have ", other, other);
		for (uint32_t k = 0; k < c->nref; k++) {
			if (k)
				strbuf_adds(sb, k + 1 == c->nref ? " and " : ", ");
			strbuf_addf(sb, "%s ", c->ref[k]->spell);
			put_vals(sb, &c->refseen[k]);
		}
		return;
	}
	if (c->oside == NULL) {
		strbuf_addf(sb, ": no %s satisfies it", other);
		return;
	}
	bool said = true;
	bool num = c->fside && number_of(c->fv, &f);
	if (c->seen.undef == an->n.total) {
		strbuf_adds(sb, ": ");
		ca_print_expr(sb, c->oside, 0);
		strbuf_addf(sb, " is undefined in every %s", other);
	} else if ((c->op == CA_T_GT || c->op == CA_T_GE) && c->any_num && num &&
	    (c->op == CA_T_GE ? c->max < f : c->max <= f)) {
		strbuf_addf(sb, ": no %s has more than ", other);
		print_number(sb, c->max, c->all_int);
	} else if ((c->op == CA_T_LT || c->op == CA_T_LE) && c->any_num && num &&
	    (c->op == CA_T_LE ? c->min > f : c->min >= f)) {
		strbuf_addf(sb, ": no %s has less than ", other);
		print_number(sb, c->min, c->all_int);
	} else if ((c->op == CA_T_EQ || c->op == CA_T_META_EQ || c->op == CA_T_IS) &&
	    c->seen.nvals > 0) {
		strbuf_addf(sb, ": no %s has ", other);
		ca_print_value(sb, c->fv, 0);
		strbuf_addf(sb, "; %ss have ", other);
		put_vals(sb, &c->seen);
	} else if ((c->op == CA_T_NE || c->op == CA_T_META_NE || c->op == CA_T_ISNT) &&
	    c->seen.nvals == 1 && !c->seen.more && c->seen.undef == 0) {
		strbuf_addf(sb, ": every %s has %s", other, c->seen.vals[0]);
	} else if (c->op == 0 && c->seen.nvals > 0) {
		strbuf_addf(sb, ": %ss have ", other);
		put_vals(sb, &c->seen);
	} else {
		strbuf_addf(sb, ": no %s satisfies it", other);
		said = false;
	}
	if (said && c->fside && c->fside->node != CA_N_LIT) {
		strbuf_adds(sb, " (");
		ca_print_expr(sb, c->fside, 0);
		strbuf_adds(sb, " is ");
		ca_print_value(sb, c->fv, 0);
		strbuf_addc(sb, ')');
	}
}

/* A clause that must change for a match: nothing satisfies it, nor any
 * chain it belongs to below the root. */
static bool
blocking(const ca_analysis *an, uint32_t i)
{
	const struct clause *c = &an->cl.at[i];

	if (c->kind != CL_LEAF)
		return false;
	for (int k = (int)i; k > 0; k = an->cl.at[k].parent)
		if (an->cl.at[k].fixed ? ca_value_truth(an->cl.at[k].fval) == 1 : an->cl.at[k].matched > 0)
			return false;
	if (i == 0)
		return c->fixed ? ca_value_truth(c->fval) != 1 : c->matched == 0;
	return true;
}

static void
clause_text(strbuf *sb, const struct clause *c)
{
	ca_print_expr(sb, c->e, 0);
}

/* "    [k] clause: why", with why on a line of its own when the whole
 * would pass 79 columns. */
static void
item(strbuf *sb, const struct clause *c, const char *why)
{
	size_t start = sb->len;

	strbuf_addf(sb, "    [%s] ", c->label);
	clause_text(sb, c);
	if (sb->len - start + 2 + strlen(why) <= 79)
		strbuf_addf(sb, ": %s\n", why);
	else
		strbuf_addf(sb, ":\n        %s\n", why);
}

static void
report_table(const ca_analysis *an, strbuf *sb, const char *others)
{
	int w = 5;
	uint32_t first = an->cl.at[0].kind == CL_LEAF ? 0 : 1;

	for (uint32_t i = first; i < an->cl.n; i++) {
		int l = (int)strlen(an->cl.at[i].label) + 2;
		if (l > w)
			w = l;
	}
	strbuf_addf(sb, "%*s\n", w + 10, others);
	strbuf_addf(sb, "%-*s  %8s  %s\n", w, "Step", "Matched", "Condition");
	strbuf_addf(sb, "%-*s  %8s  %s\n", w, "-----", "--------", "---------");
	for (uint32_t i = first; i < an->cl.n; i++) {
		const struct clause *c = &an->cl.at[i];
		char step[64], count[32];
		snprintf(step, sizeof step, "[%s]", c->label);
		if (c->fixed)
			snprintf(count, sizeof count, "%s",
			    ca_value_truth(c->fval) == 1 ? "always" : "never");
		else
			snprintf(count, sizeof count, "%llu", (unsigned long long)c->matched);
		int indent = c->depth > 1 ? 2 * (c->depth - 1) : 0;
		strbuf_addf(sb, "%-*s  %8s  %*s", w, step, count, indent, "");
		clause_text(sb, c);
		strbuf_addc(sb, '\n');
	}
}

static void
report_relax(const ca_analysis *an, strbuf *sb, const ca_analysis_words *w,
    const char *self, const char *other)
{
	uint32_t nblock = 0;

	if (an->n.total == 0) {
		strbuf_addf(sb, "There are no %ss to match %s %s with.\n", other, self, w->id);
		return;
	}
	if (an->n.if_drained > 0) {
		strbuf p = STRBUF_INIT;
		strbuf_addf(&p, "Draining would do: %llu partitionable slot%s would match %s %s "
		    "once %s dynamic slots are gone (their jobs finish, or condor_drain).",
		    (unsigned long long)an->n.if_drained, an->n.if_drained == 1 ? "" : "s", self,
		    w->id, an->n.if_drained == 1 ? "its" : "their");
		fill(sb, &p);
		strbuf_release(&p);
		strbuf_adds(sb, "Otherwise:\n");
	}
	for (uint32_t i = 0; i < an->cl.n; i++)
		if (blocking(an, i))
			nblock++;
	if (nblock > 0) {
		strbuf_addf(sb, "No %s matches %s %s. %s to relax:\n", other, self, w->id,
		    nblock > 1 ? "Conditions" : "Condition");
		strbuf why = STRBUF_INIT;
		for (uint32_t i = 0; i < an->cl.n; i++) {
			if (!blocking(an, i))
				continue;
			strbuf_reset(&why);
			suggest(an, &why, &an->cl.at[i], self, other);
			item(sb, &an->cl.at[i], why.buf + 2);
		}
		strbuf_release(&why);
		return;
	}
	if (an->n.rejected == an->n.total) {
		uint64_t best = 0;
		strbuf p = STRBUF_INIT;
		strbuf_addf(&p, "No %s matches %s %s: each condition holds on some %s, "
		    "but no %s meets all of them.", other, self, w->id, other, other);
		fill(sb, &p);
		strbuf_release(&p);
		if (an->without == NULL)
			return;
		for (uint32_t k = 0; k < an->cl.at[0].nchild; k++)
			if (an->without[k] > best)
				best = an->without[k];
		if (best == 0)
			return;
		strbuf_addf(sb, "Relaxing one condition would make these %ss match it:\n", other);
		for (uint32_t k = 0; k < an->cl.at[0].nchild; k++) {
			if (an->without[k] != best)
				continue;
			const struct clause *c = &an->cl.at[an->cl.at[0].child[k]];
			char why[128];
			snprintf(why, sizeof why, "%llu %s%s meet%s all the other conditions",
			    (unsigned long long)best, other, best == 1 ? "" : "s",
			    best == 1 ? "s" : "");
			item(sb, c, why);
		}
		return;
	}
	strbuf p = STRBUF_INIT;
	if (an->n.rejecting == 1)
		strbuf_addf(&p, "No %s matches %s %s: its Requirements accept 1 %s, but that "
		    "%s rejects the %s by its own Requirements (see %s).", other, self, w->id,
		    other, other, self, w->reverse ? "--analyze" : "--analyze --reverse");
	else
		strbuf_addf(&p, "No %s matches %s %s: its Requirements accept %llu %ss, but they "
		    "all reject the %s by their own Requirements (see %s).", other, self, w->id,
		    (unsigned long long)an->n.rejecting, other, self,
		    w->reverse ? "--analyze" : "--analyze --reverse");
	fill(sb, &p);
	strbuf_release(&p);
}

void
ca_analysis_report(const ca_analysis *an, strbuf *sb, const ca_analysis_words *given)
{
	ca_analysis_words words = *given, *w = &words;
	char id[64], sumid[64];

	/* condor_q names jobs "C.PPP", and "CCC.PPP" at the head of its summary */
	if (!w->reverse && w->cluster >= 0 && w->proc >= 0) {
		snprintf(id, sizeof id, "%lld.%03lld", (long long)w->cluster, (long long)w->proc);
		snprintf(sumid, sizeof sumid, "%03lld.%03lld", (long long)w->cluster,
		    (long long)w->proc);
		w->id = id;
	} else
		snprintf(sumid, sizeof sumid, "%s", w->id);
	const char *self = w->reverse ? "slot" : "job";
	const char *Self = w->reverse ? "Slot" : "Job";
	const char *other = w->reverse ? "job" : "slot";
	const char *others = w->reverse ? "Jobs" : "Slots";

	if (an->req == NULL) {
		strbuf_addf(sb, "%s %s has no Requirements expression, so it matches no %s.\n\n",
		    Self, w->id, other);
	} else {
		strbuf b = STRBUF_INIT;
		struct defined names = { { CA_VEC_INIT, CA_DICT_INIT }, an->self };

		strbuf_addf(sb, "The Requirements expression for %s %s is\n\n", self, w->id);
		ca_print_expr(&b, an->req, 0);
		wrap(sb, b.buf, b.len, 4, WRAP_WIDTH);
		strbuf_release(&b);
		strbuf_addc(sb, '\n');

		ca_expr_refs(an->req, an->self, CA_REFS_DEEP | an->rflags, self_ref, &names);
		if (names.set.v.n > 0) {
			strbuf_addf(sb, "%s %s defines the following attributes:\n\n", Self, w->id);
			for (uint32_t i = 0; i < names.set.v.n; i++) {
				ca_attr *at = ca_ad_find(an->self, names.set.v.at[i]);
				strbuf_addf(sb, "    ");
				ca_print_name(sb, ca_attr_spell(at), strlen(ca_attr_spell(at)));
				strbuf_adds(sb, " = ");
				ca_print_expr(sb, ca_attr_expr(an->self, at), 0);
				strbuf_addc(sb, '\n');
			}
			strbuf_addc(sb, '\n');
		}
		ca_nameset_free(&names.set);
		strbuf_addf(sb, "The Requirements expression for %s %s reduces to these "
		    "conditions:\n\n", self, w->id);
		report_table(an, sb, others);
		strbuf_addc(sb, '\n');
	}
	if (w->reverse)
		strbuf_addf(sb, "%s:  Run analysis summary.  Of %llu jobs,\n", sumid,
		    (unsigned long long)an->n.total);
	else if (w->machines >= 0)
		strbuf_addf(sb, "%s:  Run analysis summary ignoring user priority.  "
		    "Of %llu slots on %ld machines,\n", sumid, (unsigned long long)an->n.total,
		    w->machines);
	else
		strbuf_addf(sb, "%s:  Run analysis summary ignoring user priority.  "
		    "Of %llu slots,\n", sumid, (unsigned long long)an->n.total);
	if (w->reverse) {
		strbuf_addf(sb, "%7llu jobs are rejected by the slot's requirements\n",
		    (unsigned long long)an->n.rejected);
		strbuf_addf(sb, "%7llu jobs reject the slot because of their own requirements\n",
		    (unsigned long long)an->n.rejecting);
		strbuf_addf(sb, "%7llu jobs are willing to run on the slot\n",
		    (unsigned long long)an->n.willing);
	} else {
		strbuf_addf(sb, "%7llu slots are rejected by your job's requirements\n",
		    (unsigned long long)an->n.rejected);
		strbuf_addf(sb, "%7llu slots reject your job because of their own requirements\n",
		    (unsigned long long)an->n.rejecting);
		if (!an->slots)
			strbuf_addf(sb, "%7llu slots are willing to run your job\n",
			    (unsigned long long)an->n.willing);
		else {
			if (an->n.yours)
				strbuf_addf(sb, "%7llu slots match and are already running your jobs\n",
				    (unsigned long long)an->n.yours);
			if (an->n.others)
				strbuf_addf(sb, "%7llu slots match but are serving other users\n",
				    (unsigned long long)an->n.others);
			strbuf_addf(sb, "%7llu slots match and are willing to run your job",
			    (unsigned long long)an->n.available);
			if (an->n.leftovers)
				strbuf_addf(sb, " (%llu of them with what partitionable slots "
				    "have left)", (unsigned long long)an->n.leftovers);
			strbuf_addc(sb, '\n');
			if (an->n.if_drained)
				strbuf_addf(sb, "%7llu slots would match if drained\n",
				    (unsigned long long)an->n.if_drained);
		}
	}
	if (an->n.willing == 0 && an->req != NULL) {
		strbuf_addc(sb, '\n');
		report_relax(an, sb, w, self, other);
	}
}
