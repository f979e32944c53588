/* groups.c - hierarchical group quotas as HTCondor's negotiator has them:
 * the tree, its static and dynamic quotas, and the sharing of surplus. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "groups.h"

#define ROOT_NAME	"<none>"
#define EPS		1e-9

void
ca_groups_init(ca_groups *g)
{
	memset(g, 0, sizeof *g);
	g->rounds = 3;
	g->warnings = (strbuf)STRBUF_INIT;
	g->root = ca_arena_zalloc(&g->arena, sizeof *g->root);
	g->root->name = ROOT_NAME;
	g->root->accept_surplus = true;
	*ca_vec_push(&g->v) = g->root;
}

void
ca_groups_free(ca_groups *g)
{
	for (size_t i = 0; i < g->v.n; i++)
		ca_vec_free(&g->v.at[i]->kids);
	ca_vec_free(&g->v);
	ca_dict_free(&g->index);
	strbuf_release(&g->warnings);
	ca_arena_free(&g->arena);
	memset(g, 0, sizeof *g);
}

/* The hash of a group name without regard to case. */
static uint64_t
name_hash(const char *s, size_t len)
{
	uint64_t h = 0;

	for (size_t i = 0; i < len; i++)
		h = ca_hash_mix(h, (unsigned char)tolower((unsigned char)s[i]));
	return h ^ h >> 32;
}

ca_group *
ca_groups_find(const ca_groups *g, const char *name, size_t len)
{
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&g->index, name_hash(name, len), &it);
	    i != CA_DICT_NONE; i = ca_dict_next(&g->index, &it)) {
		const char *s = g->v.at[i]->name;
		if (strlen(s) == len && strncasecmp(s, name, len) == 0)
			return g->v.at[i];
	}
	return NULL;
}

ca_group *
ca_groups_of(const ca_groups *g, const char *submitter, size_t len)
{
	size_t user = len, path;
	ca_group *best = g->root;

	/* drop "@domain", then the user part after the last '.' */
	for (size_t i = len; i > 0; i--)
		if (submitter[i - 1] == '@') {
			user = i - 1;
			break;
		}
	for (path = user; path > 0 && submitter[path - 1] != '.'; path--)
		;
	if (path == 0 || g->v.n == 1)
		return g->root;
	path--;		/* the '.' itself */
	/* as deep as the defined groups go, one level at a time */
	for (size_t k = 0; k <= path; k++) {
		if (k < path && submitter[k] != '.')
			continue;
		ca_group *x = ca_groups_find(g, submitter, k);
		if (x == NULL)
			break;
		best = x;
	}
	return best;
}

static void
warn(ca_groups *g, ca_config *cfg, const char *knob, const char *fmt, const char *arg)
{
	ca_diag where;

	if (cfg != NULL && knob != NULL && ca_config_locate(cfg, knob, &where))
		strbuf_addf(&g->warnings, "%s:%d: ", where.file, where.line);
	strbuf_addf(&g->warnings, fmt, arg);
	strbuf_addc(&g->warnings, '\n');
}

ca_group *
ca_groups_add(ca_groups *g, const char *name, bool is_static, double quota, double dyn,
    bool accept_surplus)
{
	size_t len = strlen(name), dot = len;
	ca_group *parent = g->root;

	if (len == 0 || ca_groups_find(g, name, len) != NULL || strcmp(name, ROOT_NAME) == 0)
		return NULL;
	while (dot > 0 && name[dot - 1] != '.')
		dot--;
	if (dot > 0) {
		parent = ca_groups_find(g, name, dot - 1);
		if (parent == NULL) {
			warn(g, NULL, NULL, "group %s ignored: its parent group is not defined",
			    name);
			return NULL;
		}
	}
	ca_group *x = ca_arena_zalloc(&g->arena, sizeof *x);
	x->name = ca_arena_strndup(&g->arena, name, len);
	x->parent = parent;
	x->depth = parent->depth + 1;
	x->is_static = is_static;
	x->static_quota = is_static ? quota : 0;
	x->dyn_quota = is_static ? 0 : dyn;
	x->accept_surplus = accept_surplus;
	x->index = g->v.n;
	*ca_vec_push(&parent->kids) = x;
	ca_dict_add(&g->index, name_hash(name, len), (uint32_t)g->v.n);
	*ca_vec_push(&g->v) = x;
	return x;
}

/* ---- configuration ---- */

struct gname {
	const char *name;
	size_t len;
	const char *knob;	/* the definition that named it, for messages */
};

static int
gname_cmp(const void *a, const void *b)
{
	const struct gname *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = strncasecmp(x->name, y->name, n);

	if (c != 0)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

typedef ca_vec(struct gname) gnames;

static void
add_name(gnames *v, const char *s, size_t len, const char *knob)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->at[i].len == len && strncasecmp(v->at[i].name, s, len) == 0)
			return;
	*ca_vec_push(v) = (struct gname){ s, len, knob };
}

static bool
has_prefix(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

static int
bad(ca_config *cfg, const char *knob, ca_diag *err, const char *what)
{
	if (!ca_config_locate(cfg, knob, err)) {
		err->file = "<config>";
		err->line = err->col = 0;
		err->status = CA_EX_INPUT;
	}
	snprintf(err->msg, sizeof err->msg, "%s %s", knob, what);
	return -1;
}

int
ca_groups_config(ca_groups *g, ca_config *cfg, ca_diag *err)
{
	static const char *const knobs[] = {
		"GROUP_QUOTA_MAX_ALLOCATION_ROUNDS", "GROUP_QUOTA_ROUND_ROBIN_RATE", NULL
	};
	gnames names = CA_VEC_INIT;
	strbuf list = STRBUF_INIT, knob = STRBUF_INIT;
	bool accept_all = false, regroup_all = false;
	int64_t rounds = 3;
	int rc = -1;

	if (ca_config_bool(cfg, "NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION", &g->oversubscribe,
	    err) < 0 || ca_config_bool(cfg, "GROUP_ACCEPT_SURPLUS", &accept_all, err) < 0 ||
	    ca_config_bool(cfg, "GROUP_AUTOREGROUP", &regroup_all, err) < 0 ||
	    ca_config_int(cfg, "GROUP_QUOTA_MAX_ALLOCATION_ROUNDS", &rounds, err) < 0)
		goto out;
	if (rounds < 1 || rounds > 1000) {
		bad(cfg, "GROUP_QUOTA_MAX_ALLOCATION_ROUNDS", err, "must be from 1 to 1000");
		goto out;
	}
	g->rounds = (int)rounds;

	/* GROUP_NAMES first, so that its spelling is the one kept */
	if (ca_config_string(cfg, "GROUP_NAMES", &list, err) < 0)
		goto out;
	char *copy = ca_arena_strndup(&g->arena, list.buf, list.len);
	for (char *q = copy; *q;) {
		while (*q == ',' || *q == ' ' || *q == '\t' || *q == '\n')
			q++;
		size_t len = strcspn(q, ", \t\n");
		if (len > 0)
			add_name(&names, q, len, "GROUP_NAMES");
		q += len;
	}
	for (size_t i = 0; i < ca_config_count(cfg); i++) {
		const char *nm = ca_config_name_at(cfg, i), *rest;
		if (has_prefix(nm, "NEGOTIATOR."))
			nm += strlen("NEGOTIATOR.");
		bool known = false;
		for (int k = 0; knobs[k]; k++)
			known |= strcasecmp(nm, knobs[k]) == 0;
		if (known)
			continue;
		if (has_prefix(nm, "GROUP_QUOTA_DYNAMIC_"))
			rest = nm + strlen("GROUP_QUOTA_DYNAMIC_");
		else if (has_prefix(nm, "GROUP_QUOTA_"))
			rest = nm + strlen("GROUP_QUOTA_");
		else
			continue;
		if (*rest != '\0')
			add_name(&names, rest, strlen(rest), ca_config_name_at(cfg, i));
	}
	/* a parent sorts before its children: it is a prefix of theirs */
	if (names.n > 1)
		qsort(names.at, names.n, sizeof *names.at, gname_cmp);

	for (size_t i = 0; i < names.n; i++) {
		char *name = ca_arena_strndup(&g->arena, names.at[i].name, names.at[i].len);
		double sq = -1, dq = 0;
		bool acc = accept_all, regroup = regroup_all;
		int have_s, have_d;

		if (strcasecmp(name, ROOT_NAME) == 0) {
			warn(g, cfg, names.at[i].knob, "group name %s is reserved: ignored", name);
			continue;
		}
		strbuf_reset(&knob);
		strbuf_addf(&knob, "GROUP_QUOTA_%s", name);
		if ((have_s = ca_config_real(cfg, knob.buf, &sq, err)) < 0)
			goto out;
		if (have_s && !(sq >= 0 && isfinite(sq))) {
			bad(cfg, knob.buf, err, "must be a number of slots >= 0");
			goto out;
		}
		strbuf_reset(&knob);
		strbuf_addf(&knob, "GROUP_QUOTA_DYNAMIC_%s", name);
		if ((have_d = ca_config_real(cfg, knob.buf, &dq, err)) < 0)
			goto out;
		if (have_d && !(dq >= 0 && dq <= 1)) {
			bad(cfg, knob.buf, err, "must be a fraction from 0.0 to 1.0");
			goto out;
		}
		if (have_s && have_d)
			warn(g, cfg, knob.buf, "%s ignored: the group has a static quota",
			    knob.buf);
		strbuf_reset(&knob);
		strbuf_addf(&knob, "GROUP_ACCEPT_SURPLUS_%s", name);
		if (ca_config_bool(cfg, knob.buf, &acc, err) < 0)
			goto out;
		strbuf_reset(&knob);
		strbuf_addf(&knob, "GROUP_AUTOREGROUP_%s", name);
		if (ca_config_bool(cfg, knob.buf, &regroup, err) < 0)
			goto out;

		size_t before = g->warnings.len;
		ca_group *x = ca_groups_add(g, name, have_s > 0, sq, have_d > 0 ? dq : 0, acc);
		if (x != NULL && regroup) {
			x->autoregroup = true;
			g->autoregroup = true;
		}
		if (x == NULL && g->warnings.len > before) {
			/* say where the orphan was defined */
			g->warnings.len = before;
			g->warnings.buf[before] = '\0';
			warn(g, cfg, names.at[i].knob,
			    "group %s ignored: its parent group is not defined", name);
		}
	}
	rc = 0;
out:
	ca_vec_free(&names);
	strbuf_release(&list);
	strbuf_release(&knob);
	return rc;
}

/* ---- quotas ---- */

/* Whole slots of x, forgiving the last bits of a product like 100 x .6 x .15. */
static double
whole(double x)
{
	if (x <= 0)
		return 0;
	return floor(x + EPS * (x > 1 ? x : 1));
}

static void
split_quota(ca_groups *g, ca_group *n, double avail, bool top)
{
	double ssum = 0, dsum = 0, sscale = 1, dscale = 1, used = 0, given = 0;

	n->incoming = avail;
	for (size_t i = 0; i < n->kids.n; i++) {
		if (n->kids.at[i]->is_static)
			ssum += n->kids.at[i]->static_quota;
		else
			dsum += n->kids.at[i]->dyn_quota;
	}
	/* subgroups asking for more than the parent has are scaled down; a
	 * top-level static quota does not depend on the pool */
	if (!top && !g->oversubscribe && ssum > avail && ssum > 0)
		sscale = avail / ssum;
	if (dsum > 1)
		dscale = 1 / dsum;
	for (size_t i = 0; i < n->kids.n; i++)
		if (n->kids.at[i]->is_static) {
			n->kids.at[i]->scaled = n->kids.at[i]->static_quota * sscale;
			used += n->kids.at[i]->scaled;
		}
	double rest = avail - used > 0 ? avail - used : 0;
	for (size_t i = 0; i < n->kids.n; i++)
		if (!n->kids.at[i]->is_static)
			n->kids.at[i]->scaled = n->kids.at[i]->dyn_quota * dscale * rest;
	for (size_t i = 0; i < n->kids.n; i++) {
		ca_group *k = n->kids.at[i];
		double q = whole(k->scaled);
		given += q;
		split_quota(g, k, q, false);
	}
	/* what the subgroups leave, fractions included, is the parent's own;
	 * with oversubscription the parent keeps it all (the root never: its
	 * quota is what the pool has beyond the groups) */
	if (g->oversubscribe && n->parent != NULL)
		n->quota = avail;
	else
		n->quota = avail - given > 0 ? avail - given : 0;
}

void
ca_groups_quotas(ca_groups *g, double pool)
{
	g->root->scaled = pool;
	split_quota(g, g->root, pool, true);
}

/* ---- allocation ---- */

/* What a subtree entered by surplus can still use: the group's own unmet
 * demand and that of its subgroups that accept surplus. */
static double
reach_want(const ca_group *x)
{
	double w = x->demand - x->alloc;

	if (w < 0)
		w = 0;
	for (size_t i = 0; i < x->kids.n; i++)
		if (x->kids.at[i]->accept_surplus)
			w += reach_want(x->kids.at[i]);
	return w;
}

struct taker {
	ca_group *g;	/* the group */
	bool self;	/* its own submitters (else its subtree) */
	double weight;
	double want;
	double got;
};

/* Share spare among the takers by weight, refilling until it is gone or
 * nobody wants more; those with zero weight share what the others leave,
 * equally. Returns what is left. */
static double
fill(struct taker *t, size_t n, double spare)
{
	for (size_t round = 0; round <= n + 1 && spare > EPS; round++) {
		double W = 0;
		size_t active = 0;
		for (size_t i = 0; i < n; i++)
			if (t[i].want - t[i].got > EPS) {
				active++;
				W += t[i].weight;
			}
		if (active == 0)
			break;
		double given = 0;
		for (size_t i = 0; i < n; i++) {
			double need = t[i].want - t[i].got;
			if (need <= EPS)
				continue;
			double share;
			if (W > 0)
				share = t[i].weight > 0 ? spare * t[i].weight / W : 0;
			else
				share = spare / (double)active;
			if (share > need)
				share = need;
			t[i].got += share;
			given += share;
		}
		spare -= given;
		if (given <= EPS)
			break;
	}
	return spare > 0 ? spare : 0;
}

static void push_down(ca_group *x, double amount);

/* Give spare to x's own submitters (when may_self) and to its subgroups
 * that accept surplus; returns what nobody there could use. */
static double
give(ca_group *x, double spare, bool may_self)
{
	struct taker *t = ca_xcalloc(x->kids.n + 1, sizeof *t);
	size_t n = 0;

	if (may_self) {
		t[n].g = x;
		t[n].self = true;
		t[n].weight = x->quota;
		t[n].want = x->demand - x->alloc > 0 ? x->demand - x->alloc : 0;
		n++;
	}
	for (size_t i = 0; i < x->kids.n; i++) {
		ca_group *k = x->kids.at[i];
		if (!k->accept_surplus)
			continue;
		t[n].g = k;
		t[n].weight = k->incoming;
		t[n].want = reach_want(k);
		n++;
	}
	spare = fill(t, n, spare);
	for (size_t i = 0; i < n; i++) {
		if (t[i].got <= 0)
			continue;
		if (t[i].self)
			t[i].g->alloc += t[i].got;
		else
			push_down(t[i].g, t[i].got);
	}
	free(t);
	return spare;
}

/* Surplus that entered x (which accepts it) spreads over its subtree. */
static void
push_down(ca_group *x, double amount)
{
	double left = give(x, amount, true);

	x->alloc += left;	/* rounding dust stays with the group */
}

/* Post-order: the unused quota of a subtree, after its own takers had it. */
static double
surplus(ca_group *x)
{
	double spare = 0;

	for (size_t i = 0; i < x->kids.n; i++)
		spare += surplus(x->kids.at[i]);
	spare += x->quota - x->alloc > 0 ? x->quota - x->alloc : 0;
	return give(x, spare, x->accept_surplus);
}

void
ca_groups_allocate(ca_groups *g)
{
	for (size_t i = 0; i < g->v.n; i++) {
		ca_group *x = g->v.at[i];
		x->alloc = x->demand < x->quota ? x->demand : x->quota;
		if (x->alloc < 0)
			x->alloc = 0;
	}
	(void)surplus(g->root);
}
