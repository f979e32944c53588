/* neg_submitters.c - the submitters of a cycle: who they are, their jobs in
 * job order, their pie slices in each spin, and group quotas in the cycle.
 *
 * HTCondor's negotiator spins the pie: each spin gives every submitter, in
 * order of effective priority, a slice of the pool by the inverse ratio of
 * effective priorities, less what it already uses; in its turn it matches
 * jobs in job order until the slice is used. Spins repeat while they make
 * matches. With group quotas each group is negotiated as a pool of its own
 * in rounds; nice users come after everybody else. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "neg_int.h"

/* ---- customers ---- */

uint32_t
ca_neg_cust_find(const ca_neg *n, const char *name, size_t len)
{
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&n->cust_index, ca_neg_name_hash(name, len), &it);
	    i != CA_DICT_NONE; i = ca_dict_next(&n->cust_index, &it)) {
		const struct cust *c = &n->custs.at[i];
		if (c->len == len && memcmp(c->name, name, len) == 0)
			return i;
	}
	return NONE;
}

/* The effective priority of a customer at the start of the cycle: the
 * accountant's, or what a new record of that name would get. */
static double
new_eup(ca_neg *n, const char *name, size_t len)
{
	const ca_acct_rec *r = ca_acct_find(n->acct, name, len);
	double prio, factor;

	if (r != NULL && !r->deleted) {
		prio = r->prio < CA_ACCT_MIN_PRIO ? CA_ACCT_MIN_PRIO : r->prio;
		factor = r->factor >= CA_ACCT_MIN_FACTOR ? r->factor : CA_ACCT_MIN_FACTOR;
	} else {
		prio = CA_ACCT_MIN_PRIO;
		factor = ca_acct_new_factor(n->acct, name, len);
	}
	return prio * factor;
}

uint32_t
ca_neg_cust_get(ca_neg *n, const char *name, size_t len)
{
	uint32_t i = ca_neg_cust_find(n, name, len);

	if (i != NONE)
		return i;
	i = (uint32_t)n->custs.n;
	struct cust *c = ca_vec_push(&n->custs);
	memset(c, 0, sizeof *c);
	c->name = ca_arena_strndup(&n->arena, name, len);
	c->len = len;
	c->eup = new_eup(n, name, len);
	c->group = ca_groups_of(&n->groups, name, len);
	const char *np = n->acct->pol.nice_prefix ? n->acct->pol.nice_prefix : "nice-user";
	size_t nl = strlen(np);
	c->nice = len > nl && strncasecmp(name, np, nl) == 0 && (name[nl] == '.' || name[nl] == '@');
	ca_dict_add(&n->cust_index, ca_neg_name_hash(name, len), i);
	return i;
}

/* The first non-empty string of attributes names[] in ad, or of the
 * travelling job's attributes jnames[] (job may be NULL). */
static bool
first_str(ca_neg *n, const ca_ad *ad, const char *const *names, const ca_ad *job,
    const char *const *jnames, const char **s, size_t *len)
{
	for (; *names; names++)
		if (ca_neg_str(n, ad, *names, s, len))
			return true;
	for (; job && *jnames; jnames++)
		if (ca_neg_str(n, job, *jnames, s, len))
			return true;
	*s = NULL;
	*len = 0;
	return false;
}

/* The user charged for a claim: the first of PreemptingAccountingGroup,
 * PreemptingUser, AccountingGroup, RemoteUser (then the travelling job's
 * AccountingGroup, User), as the accountant names customers. */
uint32_t
ca_neg_remote_of(ca_neg *n, const ca_ad *ad, const ca_ad *job)
{
	static const char *const users[] = { "PreemptingUser", "RemoteUser", NULL };
	static const char *const groups[] = {
		"PreemptingAccountingGroup", "AccountingGroup", NULL
	};
	static const char *const juser[] = { "User", NULL };
	static const char *const jgroup[] = { "AccountingGroup", NULL };
	const char *user, *group;
	size_t ulen, glen;
	strbuf sb = STRBUF_INIT;
	uint32_t c = NONE;

	first_str(n, ad, users, job, juser, &user, &ulen);
	first_str(n, ad, groups, job, jgroup, &group, &glen);
	if (ca_acct_customer(n->acct, group, glen, user, ulen, &sb))
		c = ca_neg_cust_get(n, sb.buf, sb.len);
	strbuf_release(&sb);
	ca_arena_reset(&n->cx->scratch);
	return c;
}

/* The accounting name of a job: AccountingGroup (with the user's domain
 * when it has none), else User, else Owner@UID_DOMAIN; a nice_user job
 * without a group submits as nice-user.<user>. */
uint32_t
ca_neg_submitter_of(ca_neg *n, const ca_ad *ad)
{
	const ca_acct_policy *pol = &n->acct->pol;
	strbuf sb = STRBUF_INIT, owner = STRBUF_INIT;
	const char *user = NULL, *group;
	size_t ulen = 0, glen;
	bool have_user = ca_neg_str(n, ad, "User", &user, &ulen), nice = false;
	uint32_t c;

	if (!have_user && ca_neg_str(n, ad, "Owner", &user, &ulen)) {
		have_user = true;
		strbuf_add(&owner, user, ulen);
		if (pol->uid_domain != NULL) {
			strbuf_addc(&owner, '@');
			strbuf_adds(&owner, pol->uid_domain);
		}
		user = owner.buf;
		ulen = owner.len;
	}
	if (ca_neg_str(n, ad, "AccountingGroup", &group, &glen))
		ca_acct_customer(n->acct, group, glen, user, ulen, &sb);
	else {
		if (have_user && ca_get_bool(n->cx, ad, "NiceUser", &nice) == 1 && nice) {
			strbuf_adds(&sb, pol->nice_prefix ? pol->nice_prefix : "nice-user");
			strbuf_addc(&sb, '.');
		}
		strbuf_add(&sb, have_user ? user : "unknown", have_user ? ulen : 7);
	}
	c = ca_neg_cust_get(n, sb.buf, sb.len);
	strbuf_release(&sb);
	strbuf_release(&owner);
	ca_arena_reset(&n->cx->scratch);
	return c;
}

/* ---- job order ---- */

/* PreJobPrio1, PreJobPrio2, JobPrio, PostJobPrio1, PostJobPrio2 (higher
 * first), then ClusterId, ProcId. */
static int
job_order(const ca_neg *n, uint32_t a, uint32_t b)
{
	const struct job *x = &n->jobs.at[a], *y = &n->jobs.at[b];

	for (int i = 0; i < 5; i++)
		if (x->prio[i] != y->prio[i])
			return x->prio[i] > y->prio[i] ? -1 : 1;
	if (x->cluster != y->cluster)
		return x->cluster < y->cluster ? -1 : 1;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	return a < b ? -1 : a > b;
}

void
ca_neg_order_jobs(ca_neg *n)
{
	for (uint32_t c = 0; c < n->custs.n; c++)
		ca_neg_sort(n, n->custs.at[c].jobs.at, n->custs.at[c].jobs.n, job_order);
}

/* ---- a submitter's turn ---- */

enum { TURN_DONE, TURN_RESUME };

/* The slice is used: the jobs of u from position q on wait. */
static void
slice_used(ca_neg *n, const struct cust *u, uint32_t q, const struct turn *t)
{
	uint8_t w = ca_neg_quota_binds(t) ? CA_WHY_QUOTA : CA_WHY_LIMIT;

	for (uint32_t r = q; r < u->jobs.n; r++)
		if (n->jobs.at[u->jobs.at[r]].match == NONE)
			ca_neg_decide(n, R_WAIT, u->jobs.at[r], w);
}

/* One submitter's turn in a spin: its jobs in job order until its slice
 * is used. Jobs of an autocluster that got nothing wait for the next spin. */
static int
take_turn(ca_neg *n, uint32_t si, struct turn *t, bool rank_mode_ok)
{
	struct cust *u = &n->custs.at[si];

	for (uint32_t q = 0; q < u->jobs.n; q++) {
		struct key *k = &n->keys.at[n->jobs.at[u->jobs.at[q]].key];
		k->rejected = false;
		ca_neg_cache_clear(&k->cache);
	}
	for (uint32_t q = 0; q < u->jobs.n; q++) {
		uint32_t ji = u->jobs.at[q];
		struct job *jb = &n->jobs.at[ji];
		struct key *k = &n->keys.at[jb->key];
		bool follow = ji == n->explain_job;
		uint8_t why;

		if (jb->match != NONE)
			continue;
		if (k->rejected) {
			ca_neg_decide(n, R_ALIKE, ji, k->rej_why)->x = k->rej_job;
			continue;
		}
		if (t->used >= t->limit - LIMIT_EPS && !(t->used <= 0 && t->limit > 0)) {
			if (rank_mode_ok && !t->only_rank)
				t->only_rank = true;
			else if (!rank_mode_ok) {
				slice_used(n, u, q, t);
				t->limited = true;
				break;
			}
		}
		if (follow) {
			struct rec *r = ca_neg_log(n, R_CONSIDER, ji);
			r->f[0] = t->used;
			r->reason = t->only_rank;
			ca_neg_survey(n, ji, k, t->only_rank);
		}
		if (ca_neg_find(n, jb, k, t, follow, &why))
			continue;
		/* past its slice only RANK preemption was open to it: what the
		 * others took does not matter then */
		if (t->only_rank && why == CA_WHY_OUTRANKED)
			why = CA_WHY_LIMIT;
		if (why == CA_WHY_LIMIT && ca_neg_quota_binds(t))
			why = CA_WHY_QUOTA;
		k->rejected = true;
		k->rej_job = ji;
		k->rej_why = why;
		ca_neg_decide(n, R_NOTHING, ji, why);
		if (why == CA_WHY_LIMIT || why == CA_WHY_QUOTA)
			t->limited = true;
	}
	for (uint32_t q = 0; q < u->jobs.n; q++)
		ca_neg_cache_clear(&n->keys.at[n->jobs.at[u->jobs.at[q]].key].cache);
	/* anything left that could still run another spin? */
	return t->limited ? TURN_RESUME : TURN_DONE;
}

/* ---- pie spins ---- */

static bool
has_idle(const struct cust *u)
{
	return u->matches < u->jobs.n;
}

/* Effective priority, then the share of the pool already used, then name. */
static int
sub_order(const ca_neg *n, uint32_t a, uint32_t b)
{
	const struct cust *x = &n->custs.at[a], *y = &n->custs.at[b];

	if (x->eup != y->eup)
		return x->eup < y->eup ? -1 : 1;
	double sx = x->usage + x->limit > 0 ? x->usage / (x->usage + x->limit) : DBL_MAX;
	double sy = y->usage + y->limit > 0 ? y->usage / (y->usage + y->limit) : DBL_MAX;
	if (sx != sy)
		return sx < sy ? -1 : 1;
	int c = strcmp(x->name, y->name);
	return c ? c : (a < b ? -1 : a > b);
}

/* What a submitter with share `share` may use of a pool of `total` (less
 * its usage), and of it without preempting (*lu: within its group's room
 * as well). */
static double
limit_of(ca_neg *n, const struct cust *u, double share, double total, double quota,
    const ca_group *g, double *lu)
{
	double limit = share * total - u->usage;

	if (limit < 0)
		limit = 0;
	*lu = limit;
	if (g != NULL) {
		double room = quota - g->usage;
		if (room < 0)
			room = 0;
		if (*lu > room)
			*lu = room;
	}
	if (!n->pol.consider_preemption)
		limit = *lu;
	return limit;
}

/* Shares by the inverse ratio of effective priorities over the submitters
 * still in the list, and each one's limits. */
static double
slice(ca_neg *n, uint32_t *list, uint32_t cnt, double quota, ca_group *g, double inv)
{
	double left = 0;
	double total = n->pool < quota ? n->pool : quota;

	for (uint32_t i = 0; i < cnt; i++)
		if (!n->custs.at[list[i]].done)
			inv += 1.0 / n->custs.at[list[i]].eup;
	for (uint32_t i = 0; i < cnt; i++) {
		struct cust *u = &n->custs.at[list[i]];
		if (u->done)
			continue;
		u->share = inv > 0 ? (1.0 / u->eup) / inv : 0;
		u->limit = limit_of(n, u, u->share, total, quota, g, &u->limit_un);
		if (!u->pie_set) {
			u->pie = u->share * total;
			u->pie_set = true;
		}
		left += u->limit;
	}
	return left;
}

/* The idle jobs of group g's submitters (all when g is NULL) wait: why. */
static void
mark_idle(ca_neg *n, const ca_group *g, uint8_t why)
{
	for (uint32_t c = 0; c < n->custs.n; c++) {
		struct cust *u = &n->custs.at[c];
		if (g != NULL && u->group != g)
			continue;
		for (uint32_t q = 0; q < u->jobs.n; q++)
			if (n->jobs.at[u->jobs.at[q]].match == NONE)
				ca_neg_decide(n, R_IDLE, u->jobs.at[q], why);
	}
}

/* One submitter's turn in a spin with the limits as they are now (usage
 * may have changed by preemption); true when it made progress. */
static bool
turn(ca_neg *n, uint32_t c, double quota, ca_group *g, double *pie_left, int spin,
    bool rank_ok, bool *counted)
{
	struct cust *u = &n->custs.at[c];
	double total = n->pool < quota ? n->pool : quota, lu;
	double limit = limit_of(n, u, u->share, total, quota, g, &lu);
	struct turn t;

	if (limit > *pie_left)
		limit = *pie_left > 0 ? *pie_left : 0;
	if (lu > limit)
		lu = limit;
	if (spin > 1 && limit <= 0)
		return false;
	if (!*counted) {
		n->spins++;
		*counted = true;
	}
	memset(&t, 0, sizeof t);
	t.limit = limit;
	t.limit_un = lu;
	t.pie_left = pie_left;
	t.grouped = g != NULL;
	t.room = g != NULL ? quota - g->usage : INFINITY;
	t.spin = spin;
	struct rec *r = ca_neg_log(n, R_TURN, c);
	r->f[0] = u->share;
	r->f[1] = limit;
	r->f[2] = u->usage;
	size_t before = u->matches;
	int rc = take_turn(n, c, &t, rank_ok);
	if (rc == TURN_DONE)
		u->done = true;
	return rc == TURN_DONE || u->matches > before;
}

/* Spins over the submitters of list until nothing changes. Users who only
 * run jobs share the first spin's pie (runners: the sum of their 1/EUP):
 * their slices are what their running jobs hold. */
static void
spin_loop(ca_neg *n, uint32_t *list, uint32_t cnt, double quota, ca_group *g,
    double runners)
{
	for (int spin = 1;; spin++) {
		bool progress = false;
		bool rank_ok = spin == 1 && n->pol.consider_preemption;
		uint32_t active = 0;

		n->spin = spin;
		for (uint32_t i = 0; i < cnt; i++)
			if (!n->custs.at[list[i]].done && has_idle(&n->custs.at[list[i]]))
				active++;
			else
				n->custs.at[list[i]].done = true;
		/* even with no slot left a turn is taken: it says why jobs wait */
		if (active == 0)
			break;
		if (g != NULL && g->usage >= quota - LIMIT_EPS && !rank_ok) {
			mark_idle(n, g, CA_WHY_QUOTA);
			break;
		}
		bool counted = false;
		double pie_left = slice(n, list, cnt, quota, g, spin == 1 ? runners : 0);
		if (!n->pol.consider_preemption && pie_left <= 0)
			break;
		if (spin == 1)
			ca_neg_sort(n, list, cnt, sub_order);
		for (uint32_t i = 0; i < cnt; i++) {
			struct cust *u = &n->custs.at[list[i]];
			if (u->done)
				continue;
			if (!has_idle(u)) {
				u->done = true;
				progress = true;
				continue;
			}
			progress |= turn(n, list[i], quota, g, &pie_left, spin, rank_ok, &counted);
		}
		if (!progress)
			break;
	}
	n->spin = 0;
}

/* Negotiate the submitters of one group (or all of them): the others
 * first, nice users on what they leave. */
static void
negotiate_group(ca_neg *n, ca_group *g, double quota)
{
	uint32_t *list = ca_xcalloc(n->custs.n + 1, sizeof *list);

	for (int nice = 0; nice < 2; nice++) {
		uint32_t cnt = 0;
		double runners = 0;
		for (uint32_t c = 0; c < n->custs.n; c++) {
			struct cust *u = &n->custs.at[c];
			if (u->nice != (nice == 1) || (g && u->group != g))
				continue;
			if (u->jobs.n == 0 && u->usage > 0 && n->pol.consider_preemption)
				runners += 1.0 / u->eup;
			if (u->jobs.n == 0 || !has_idle(u))
				continue;
			u->done = false;
			list[cnt++] = c;
		}
		if (cnt == 0)
			continue;
		struct rec *r = ca_neg_log(n, R_PHASE, g ? (uint32_t)g->index : NONE);
		r->reason = (uint8_t)nice;
		r->f[0] = quota;
		if (g != NULL) {
			r->f[1] = g->usage;
			r->f[2] = g->quota;
		}
		spin_loop(n, list, cnt, quota, g, runners);
	}
	free(list);
}

/* Groups furthest below their quota first; the root last. */
static int
group_order(const void *pa, const void *pb)
{
	const ca_group *x = *(ca_group *const *)pa, *y = *(ca_group *const *)pb;
	double kx = x->parent == NULL ? 3.4e38 : x->quota > 0 ? x->usage / x->quota : 3.3e38;
	double ky = y->parent == NULL ? 3.4e38 : y->quota > 0 ? y->usage / y->quota : 3.3e38;

	if (kx != ky)
		return kx < ky ? -1 : 1;
	return strcasecmp(x->name, y->name);
}

/* Hierarchical group quotas: each group negotiated as a pool of its own,
 * up to GROUP_QUOTA_MAX_ALLOCATION_ROUNDS rounds, in which groups that
 * could not use their allocation leave it to the others. */
static void
run_groups(ca_neg *n)
{
	ca_groups *G = &n->groups;
	size_t ng = G->v.n;
	ca_group **order = ca_xcalloc(ng, sizeof *order);
	double *old = ca_xcalloc(ng, sizeof *old);

	for (int round = 1; round <= G->rounds; round++) {
		memcpy(order, G->v.at, ng * sizeof *order);
		qsort(order, ng, sizeof *order, group_order);
		size_t before = n->matches.n;
		for (size_t i = 0; i < ng; i++) {
			ca_group *g = order[i];
			if (g->alloc <= 0 && !n->pol.consider_preemption) {
				mark_idle(n, g, CA_WHY_QUOTA);
				continue;
			}
			negotiate_group(n, g, g->alloc);
		}
		if (round == G->rounds || n->matches.n == before)
			break;
		/* groups that could not use their allocation give it back */
		for (size_t i = 0; i < ng; i++) {
			ca_group *g = G->v.at[i];
			old[i] = g->alloc;
			if (g->usage < g->alloc - LIMIT_EPS)
				g->demand = g->usage;
		}
		ca_groups_allocate(G);
		bool more = false;
		for (size_t i = 0; i < ng; i++)
			if (G->v.at[i]->alloc > old[i] + LIMIT_EPS)
				more = true;
		if (!more)
			break;
	}
	free(old);
	free(order);
}

void
ca_neg_spins(ca_neg *n)
{
	if (ca_groups_active(&n->groups))
		run_groups(n);
	else
		negotiate_group(n, NULL, INFINITY);
}
