/* neg_submitters.c - the submitters of a cycle: who they are, their jobs in
 * job order, their pie slices in each spin, and group quotas in the cycle.
 *
 * HTCondor's negotiator spins the pie: each spin gives every submitter, in
 * order of effective priority, a slice of the pool by the inverse ratio of
 * effective priorities, less what it already uses; in its turn it matches
 * jobs in job order until the slice is used. Spins repeat while they make
 * matches. With group quotas each group is negotiated as a pool of its own
 * in rounds; nice users come after everybody else. */
#include <float.h>
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
	/* condor_userprio -setceiling and -setfloor */
	const ca_acct_rec *r = ca_acct_find(n->acct, name, len);
	c->ceiling = r != NULL && !r->deleted && r->ceiling >= 0 ? (double)r->ceiling : -1;
	c->floor = r != NULL && !r->deleted && r->floor > 0 ? (double)r->floor : 0;
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
 * first), then the submission time (the manual: "if priorities are the
 * same, job submission time is used; older jobs go first"), then ClusterId,
 * ProcId (what HTCondor's schedd uses, which agrees within one schedd). */
static int
job_order(const ca_neg *n, uint32_t a, uint32_t b)
{
	const struct job *x = &n->jobs.at[a], *y = &n->jobs.at[b];

	for (int i = 0; i < 5; i++)
		if (x->prio[i] != y->prio[i])
			return x->prio[i] > y->prio[i] ? -1 : 1;
	if (x->qdate != y->qdate)
		return x->qdate < y->qdate ? -1 : 1;
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

/* Is job j out of its submitter's negotiation: matched, or left to the
 * schedd? */
static bool
placed(const struct job *j)
{
	return j->match != NONE || j->left != NONE;
}

/* The slice (why CA_WHY_LIMIT or _QUOTA) or the ceiling is used: the jobs
 * of u from position q on wait. */
static void
jobs_wait(ca_neg *n, const struct cust *u, uint32_t q, uint8_t why)
{
	for (uint32_t r = q; r < u->jobs.n; r++)
		if (!placed(&n->jobs.at[u->jobs.at[r]]))
			ca_neg_decide(n, R_WAIT, u->jobs.at[r], why);
}

/* How many jobs like rep the schedd will start in partitionable slot s
 * (HTCondor's estimate for NEGOTIATOR_DEPTH_FIRST): as many as its Cpus
 * and Memory hold, in whole numbers. */
static int64_t
jobs_in_slot(ca_neg *n, const struct job *rep, const struct slot *s)
{
	int64_t cpus = 1, mem = 1, rc = 1, rm = 1;
	ca_value v;

	ca_get_int(n->cx, s->ad, "Cpus", &cpus);
	ca_get_int(n->cx, s->ad, "Memory", &mem);
	v = ca_eval_attr(n->cx, rep->ad, s->ad, "RequestCpus");
	ca_value_int(v, &rc);
	v = ca_eval_attr(n->cx, rep->ad, s->ad, "RequestMemory");
	ca_value_int(v, &rm);
	ca_arena_reset(&n->cx->scratch);
	if (rc < 1)
		rc = 1;
	if (rm < 1)
		rm = 1;
	return cpus / rc < mem / rm ? cpus / rc : mem / rm;
}

/* NEGOTIATOR_DEPTH_FIRST: job q of u was matched to a partitionable slot;
 * the negotiator takes it that the schedd fills the slot with the jobs of
 * the same request (the jobs alike that follow in job order), and skips as
 * many of them as it will hold besides this one. */
static void
leave_to_schedd(ca_neg *n, struct cust *u, uint32_t q)
{
	struct job *jb = &n->jobs.at[u->jobs.at[q]];
	const struct match *m = &n->matches.at[jb->match];
	const struct slot *s = &n->slots.at[m->slot];

	if (!s->pslot || s->cp || m->multi != NONE)
		return;
	int64_t more = jobs_in_slot(n, &n->jobs.at[n->keys.at[jb->key].rep], s) - 1;
	for (uint32_t r = q + 1; r < u->jobs.n && more > 0; r++) {
		struct job *o = &n->jobs.at[u->jobs.at[r]];
		if (o->key != jb->key)
			break;
		if (placed(o))
			continue;
		o->left = jb->match;
		u->left++;
		more--;
		ca_neg_decide(n, R_DEPTH, u->jobs.at[r], CA_WHY_DEPTH)->x = jb->match;
	}
}

/* Job ji got nothing (why; x and f of the record): its key and its cluster
 * (as cluster skipping has it) are done for this turn. */
static struct rec *
nothing(ca_neg *n, uint32_t ji, uint8_t why, uint32_t x, const double *f)
{
	struct job *jb = &n->jobs.at[ji];
	struct key *k = &n->keys.at[jb->key];
	struct rec *r = ca_neg_decide(n, R_NOTHING, ji, why);

	r->x = x;
	memcpy(r->f, f, 3 * sizeof *f);
	k->rejected = true;
	k->rej_job = ji;
	k->rej_why = why;
	k->rej_x = x;
	memcpy(k->rej_f, f, 3 * sizeof *f);
	if (jb->grp != NONE) {
		struct skipgrp *g = &n->grps.at[jb->grp];
		g->rejected = true;
		g->rej_job = ji;
		g->rej_why = why;
		g->rej_x = x;
	}
	return r;
}

/* A job's static concurrency limits: the one that refuses it, as
 * (index, use, maximum, units asked), or false when they all allow it. */
static bool
limits_refuse(ca_neg *n, const struct job *jb, uint32_t *x, double *f)
{
	const char *list;
	size_t len;
	double inc;

	if (!ca_neg_job_limits(n, jb, NULL, &list, &len))
		return false;
	ca_climit *l = ca_climits_refuse(&n->limits, &n->acct->pol, list, len, &inc);
	if (l == NULL)
		return false;
	*x = (uint32_t)(l - n->limits.v.at);
	f[0] = l->count;
	f[1] = l->max;
	f[2] = inc;
	return true;
}

/* One submitter's turn in a spin: its jobs in job order until its slice
 * (or its ceiling) is used. A job that gets nothing takes the rest of its
 * cluster with it for this turn (cluster skipping); jobs alike (one key)
 * fail alike. */
static int
take_turn(ca_neg *n, uint32_t si, struct turn *t, bool rank_mode_ok)
{
	struct cust *u = &n->custs.at[si];
	static const double zero[3];

	uint32_t done = NONE;

	for (uint32_t q = 0; q < u->jobs.n; q++) {
		struct job *jb = &n->jobs.at[u->jobs.at[q]];
		struct key *k = &n->keys.at[jb->key];
		k->rejected = false;
		k->turn_jobs = 0;
		ca_neg_cache_clear(&k->cache);
		if (jb->grp != NONE)
			n->grps.at[jb->grp].rejected = false;
	}
	for (uint32_t q = 0; q < u->jobs.n; q++)
		n->keys.at[n->jobs.at[u->jobs.at[q]].key].turn_jobs++;
	n->turn_sub = si;
	for (uint32_t q = 0; q < u->jobs.n; q++) {
		uint32_t ji = u->jobs.at[q], x = NONE;
		struct job *jb = &n->jobs.at[ji];
		struct key *k = &n->keys.at[jb->key];
		bool follow = ji == n->explain_job;
		uint8_t why;
		double f[3] = { 0, 0, 0 };

		/* a key's candidates go once its last job of the turn is done */
		if (done != NONE)
			ca_neg_cache_clear(&n->keys.at[done].cache);
		done = --k->turn_jobs == 0 ? jb->key : NONE;
		n->turn_pos = q;
		n->jobs_seen++;
		if (n->progress)
			n->progress(n->progress_arg, n->spin, n->jobs_seen, n->matches.n);
		if (placed(jb))
			continue;
		if (jb->grp != NONE && n->grps.at[jb->grp].rejected) {
			const struct skipgrp *g = &n->grps.at[jb->grp];
			struct rec *r = ca_neg_decide(n, R_ALIKE, ji, g->rej_why);
			r->x = g->rej_job;
			r->y = g->rej_x;
			continue;
		}
		if (t->used >= t->limit - LIMIT_EPS && !(t->used <= 0 && t->limit > 0)) {
			if (rank_mode_ok && !t->only_rank)
				t->only_rank = true;
			else if (!rank_mode_ok) {
				jobs_wait(n, u, q, ca_neg_quota_binds(t) ? CA_WHY_QUOTA : CA_WHY_LIMIT);
				t->limited = true;
				break;
			}
		}
		if (t->used >= t->ceiling - LIMIT_EPS) {
			jobs_wait(n, u, q, CA_WHY_CEILING);
			t->limited = false;
			break;
		}
		if (k->rejected && !follow) {
			/* its key failed in this turn: so does it, for the same reason */
			nothing(n, ji, k->rej_why, k->rej_x, k->rej_f);
			continue;
		}
		if (follow) {
			struct rec *r = ca_neg_log(n, R_CONSIDER, ji);
			r->f[0] = t->used;
			r->reason = t->only_rank;
		}
		if (limits_refuse(n, jb, &x, f)) {
			nothing(n, ji, CA_WHY_CLIMIT, x, f);
			continue;
		}
		if (follow)
			ca_neg_survey(n, ji, k, t->only_rank);
		if (ca_neg_find(n, jb, k, t, follow, &why)) {
			/* the schedd fills a partitionable slot's leftovers with
			 * the jobs that follow; else the negotiator may leave them
			 * to it (depth first) */
			if (n->pol.claim_leftovers)
				ca_neg_claim_leftovers(n, si, q);
			else if (n->pol.depth_first)
				leave_to_schedd(n, u, q);
			continue;
		}
		/* past its slice only RANK preemption was open to it: what the
		 * others took does not matter then */
		if (t->only_rank && why == CA_WHY_OUTRANKED)
			why = CA_WHY_LIMIT;
		if (why == CA_WHY_LIMIT && ca_neg_quota_binds(t))
			why = CA_WHY_QUOTA;
		if (why == CA_WHY_CLIMIT)
			nothing(n, ji, why, k->cache.climit, k->cache.cl);
		else
			nothing(n, ji, why, NONE, zero);
		if (why == CA_WHY_LIMIT || why == CA_WHY_QUOTA)
			t->limited = true;
	}
	for (uint32_t q = 0; q < u->jobs.n; q++)
		ca_neg_cache_clear(&n->keys.at[n->jobs.at[u->jobs.at[q]].key].cache);
	n->turn_sub = NONE;
	/* anything left that could still run another spin? */
	return t->limited ? TURN_RESUME : TURN_DONE;
}

/* ---- pie spins ---- */

static bool
has_idle(const struct cust *u)
{
	return u->matches + u->left < u->jobs.n;
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
 * as well). With NEGOTIATOR_IGNORE_USER_PRIORITIES there is no slice. */
static double
limit_of(ca_neg *n, const struct cust *u, double share, double total, double quota,
    const ca_group *g, double *lu)
{
	double limit = n->pol.ignore_user_prio ? INFINITY : share * total - u->usage;

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
slice(ca_neg *n, uint32_t *list, uint32_t cnt, double quota, ca_group *g, double inv,
    bool floor_round)
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
		if (!u->pie_set && !floor_round) {
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
			if (!placed(&n->jobs.at[u->jobs.at[q]]))
				ca_neg_decide(n, R_IDLE, u->jobs.at[q], why);
	}
}

/* How a set of submitters is negotiated: group g's limits apply (NULL:
 * none), with quota; in a floor round up to each one's floor, in one spin. */
struct phase {
	ca_group *g;
	double quota;
	bool floor_round;
};

/* One submitter's turn in a spin with the limits as they are now (usage
 * may have changed by preemption); true when it made progress (or left
 * the negotiation). */
static bool
turn(ca_neg *n, uint32_t c, const struct phase *ph, double *pie_left, int spin,
    bool rank_ok, bool *counted)
{
	struct cust *u = &n->custs.at[c];
	double total = n->pool < ph->quota ? n->pool : ph->quota, lu;
	double limit = limit_of(n, u, u->share, total, ph->quota, ph->g, &lu);
	struct turn t;

	if (ph->floor_round) {
		/* up to its floor (HTCondor gives up to the floor more) */
		double room = u->floor - u->usage > 0 ? u->floor - u->usage : 0;
		if (limit > room)
			limit = room;
	}
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
	t.grouped = ph->g != NULL;
	t.room = ph->g != NULL ? ph->quota - ph->g->usage : INFINITY;
	t.spin = spin;
	/* what its ceiling leaves, in whole slots as HTCondor counts it */
	t.ceiling = INFINITY;
	if (u->ceiling >= 0)
		t.ceiling = u->ceiling - floor(u->usage) > 0 ? u->ceiling - floor(u->usage) : 0;
	struct rec *r = ca_neg_log(n, R_TURN, c);
	r->f[0] = u->share;
	r->f[1] = limit;
	r->f[2] = u->usage;
	r->f[3] = t.ceiling;
	if (t.ceiling <= 0 || t.ceiling < n->min_weight) {
		/* at its ceiling: done for the cycle */
		jobs_wait(n, u, 0, CA_WHY_CEILING);
		u->done = true;
		return true;
	}
	size_t before = u->matches;
	int rc = take_turn(n, c, &t, rank_ok);
	if (rc == TURN_DONE)
		u->done = true;
	return rc == TURN_DONE || u->matches > before;
}

/* Spins over the submitters of list until nothing changes (a floor round
 * has one). Users who only run jobs share the first spin's pie (runners:
 * the sum of their 1/EUP): their slices are what their running jobs hold. */
static void
spin_loop(ca_neg *n, uint32_t *list, uint32_t cnt, const struct phase *ph, double runners)
{
	ca_group *g = ph->g;

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
		if (g != NULL && g->usage >= ph->quota - LIMIT_EPS && !rank_ok) {
			mark_idle(n, g, CA_WHY_QUOTA);
			break;
		}
		bool counted = false;
		double pie_left = slice(n, list, cnt, ph->quota, g, spin == 1 ? runners : 0,
		    ph->floor_round);
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
			progress |= turn(n, list[i], ph, &pie_left, spin, rank_ok, &counted);
		}
		if (!progress || ph->floor_round)
			break;
	}
	n->spin = 0;
}

/* Is u negotiated with group g (NULL: every submitter)? With regroup, g is
 * the root and the submitters of groups with GROUP_AUTOREGROUP come too. */
static bool
member(const ca_neg *n, const struct cust *u, const ca_group *g, bool regroup)
{
	if (g == NULL || u->group == g)
		return true;
	return regroup && u->group->autoregroup;
}

/* Negotiate the submitters of one group (or all of them): a floor round
 * first for those below their floor, then the others, nice users on what
 * they leave. With regroup the root group takes the submitters of groups
 * with GROUP_AUTOREGROUP too, without any group's quota. */
static void
negotiate_group(ca_neg *n, ca_group *g, double quota, bool regroup)
{
	uint32_t *list = ca_xcalloc(n->custs.n + 1, sizeof *list);
	struct phase ph = { regroup ? NULL : g, quota, false };
	uint8_t flags = regroup ? PH_REGROUP : 0;

	n->regroup_phase = regroup;
	for (int round = 0; round < 3; round++) {
		uint32_t cnt = 0;
		double runners = 0;
		int nice = round == 2;
		ph.floor_round = round == 0;
		for (uint32_t c = 0; c < n->custs.n; c++) {
			struct cust *u = &n->custs.at[c];
			if (!member(n, u, g, regroup))
				continue;
			if (ph.floor_round ? !(u->floor > 0 && u->usage < u->floor) :
			    u->nice != (nice == 1))
				continue;
			if (u->jobs.n == 0 && u->usage > 0 && n->pol.consider_preemption &&
			    !ph.floor_round)
				runners += 1.0 / u->eup;
			if (u->jobs.n == 0 || !has_idle(u))
				continue;
			u->done = false;
			list[cnt++] = c;
		}
		if (cnt == 0)
			continue;
		struct rec *r = ca_neg_log(n, R_PHASE, g ? (uint32_t)g->index : NONE);
		r->reason = flags | (nice ? PH_NICE : 0) | (ph.floor_round ? PH_FLOOR : 0);
		r->f[0] = quota;
		if (g != NULL) {
			r->f[1] = g->usage;
			r->f[2] = g->quota;
		}
		spin_loop(n, list, cnt, &ph, runners);
	}
	n->regroup_phase = false;
	free(list);
}

/* GROUP_SORT_EXPR of group x with its figures now (AccountingGroup,
 * GroupQuota, GroupResourcesAllocated, GroupResourcesInUse); a value that
 * is not a number sorts as FLT_MAX, as HTCondor has it. */
static double
sort_key(ca_neg *n, const ca_group *x)
{
	ca_ad *ad = ca_ad_new();
	double v = FLT_MAX;

	ca_set_str(ad, "AccountingGroup", x->name);
	ca_set_real(ad, "GroupQuota", x->quota);
	ca_set_real(ad, "GroupResourcesAllocated", x->alloc);
	ca_set_real(ad, "GroupResourcesInUse", x->usage);
	ca_value r = ca_eval_expr(n->cx, n->pol.group_sort, ad, NULL);
	if (ca_is_num(r) && !isnan(ca_rank_number(r)))
		v = ca_rank_number(r);
	ca_arena_reset(&n->cx->scratch);
	ca_ad_free(ad);
	return v;
}

struct gorder {
	ca_group *g;
	double key;
	double usage;		/* at the start of the round */
};

static int
group_order(const void *pa, const void *pb)
{
	const struct gorder *x = pa, *y = pb;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return strcasecmp(x->g->name, y->g->name);
}

/* Hierarchical group quotas: each group negotiated as a pool of its own,
 * in the order of GROUP_SORT_EXPR (the root last when some group has
 * GROUP_AUTOREGROUP), up to GROUP_QUOTA_MAX_ALLOCATION_ROUNDS rounds, in
 * which groups that could not use their allocation leave it to the
 * others. Within a round, GROUP_QUOTA_ROUND_ROBIN_RATE lets the groups
 * reach their allocations in steps, all groups a step at a time. */
static void
run_groups(ca_neg *n)
{
	ca_groups *G = &n->groups;
	size_t ng = G->v.n;
	struct gorder *order = ca_xcalloc(ng, sizeof *order);
	double *old = ca_xcalloc(ng, sizeof *old);

	for (int round = 1; round <= G->rounds; round++) {
		double maxdelta = 0;
		for (size_t i = 0; i < ng; i++) {
			ca_group *g = G->v.at[i];
			order[i].g = g;
			order[i].key = G->autoregroup && g == G->root ? INFINITY : sort_key(n, g);
			order[i].usage = g->usage;
			if (g->alloc - g->usage > maxdelta)
				maxdelta = g->alloc - g->usage;
		}
		qsort(order, ng, sizeof *order, group_order);
		size_t before = n->matches.n;
		for (double step = 0;;) {
			step = step + n->pol.rr_rate < maxdelta ? step + n->pol.rr_rate : maxdelta;
			for (size_t i = 0; i < ng; i++) {
				ca_group *g = order[i].g;
				if (G->autoregroup && g == G->root) {
					negotiate_group(n, g, n->pool, true);
					continue;
				}
				if (g->alloc <= 0 && !n->pol.consider_preemption) {
					mark_idle(n, g, CA_WHY_QUOTA);
					continue;
				}
				/* this step's part of the way from the round's usage
				 * to the allocation */
				double u0 = order[i].usage, slots = g->alloc;
				if (g->alloc > u0 && maxdelta > 0)
					slots = u0 + (g->alloc - u0) * (step / maxdelta);
				negotiate_group(n, g, slots, false);
			}
			if (step >= maxdelta)
				break;
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
		negotiate_group(n, NULL, INFINITY, false);
}
