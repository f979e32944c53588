/* negotiator.c - one negotiation cycle: submitters, pie spins, job order,
 * candidate slots and their sort, preemption, group quotas and p-slots.
 *
 * How it is built. The jobs are stored compactly (equal expression trees
 * shared) and handed to the matcher of match.c, which groups them into
 * autoclusters and records, once per cycle, every slot whose Requirements
 * and the cluster's hold together, with both Ranks. A "key" is a
 * submitter's autocluster (refined by the job attributes the negotiator's
 * own expressions reach): the candidates of a key are built from its
 * cluster's slots the first time a job of the key is negotiated in a
 * submitter's turn, kept in a heap ordered by the sort keys, and popped for
 * the following jobs of the key (slots taken in between are skipped), which
 * is HTCondor's match-list cache. Partitionable slots with a consumption
 * policy change as they are consumed; their candidates carry the version of
 * the slot they were computed for and are computed again when it changed.
 *
 * Ephemeral attributes are literal nodes of our own set into the ads with
 * ca_ad_set and updated in place; the job copy in a match record has them
 * taken out again. Temporary values (a job's requests replaced by the
 * consumption policy's amounts, a p-slot's resources summed with those of
 * the dynamic slots it would preempt) use a stack of such nodes and put the
 * ad's own expression back afterwards. */
#include <float.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "match.h"
#include "negotiator.h"
#include "classad.h"

const char *const ca_neg_reason_name[3] = { "Priority", "Rank", "NoPreemption" };
const char *const ca_neg_why_name[CA_WHY_N] = {
	"", "no slot matches", "pie slice used up", "quota reached",
	"preemption not allowed", "outranked"
};

/* HTCondor's defaults of the negotiator's expressions (param_info). */
static const char def_pre_job_rank[] =
    "(10000000 * My.Rank) + (1000000 * (RemoteOwner =?= UNDEFINED)) - (100000 * Cpus) - Memory";
static const char def_post_job_rank[] =
    "(RemoteOwner =?= UNDEFINED) * (ifthenElse(isUndefined(KFlops), 1000, Kflops) - SlotID - "
    "1.0e10*(Offline=?=True))";
static const char def_preemption_rank[] =
    "(RemoteUserPrio * 1000000) - ifThenElse(isUndefined(TotalJobRuntime), 0, TotalJobRuntime)";
static const char *const def_consumption[3] = {
	"quantize(target.RequestCpus,{1})",
	"quantize(target.RequestMemory,{128})",
	"quantize(target.RequestDisk,{1024})"
};

#define NONE		UINT32_MAX
#define LIMIT_EPS	1e-6	/* slack when a limit is compared with a cost */
#define NEG_LOW		(-DBL_MAX)

/* Why a slot is not a candidate for a job (explain texts below). */
enum skip {
	K_OK,
	K_NOMATCH,		/* Requirements */
	K_TAKEN,		/* matched earlier this cycle */
	K_CLAIMED_IDLE,		/* Claimed but not running a job */
	K_PREEMPTING,		/* being preempted already */
	K_MATCHED,		/* matched, waiting for its claim */
	K_DRAINED,
	K_RETIRING,		/* retirement time remaining */
	K_NOCONSIDER,		/* NEGOTIATOR_CONSIDER_PREEMPTION is false */
	K_DSLOT,		/* pslot preemption: dynamic slots only through their pslot */
	K_RANKMODE,		/* slice used up: only RANK preemption now */
	K_SAMEUSER,		/* runs this submitter's job and RANK is not better */
	K_RANKWORSE,		/* RANK of this job is worse than the running job's */
	K_EUP,			/* the running user's effective priority is as good */
	K_NOPR,			/* PREEMPTION_REQUIREMENTS false */
	K_LIMIT,		/* the submitter's slice (or its group's quota) */
	K_QUOTA,
	K_CPFULL,		/* not enough left in the p-slot */
	K_NEGREQ,		/* a p-slot, and the job asks for less than nothing */
	K_NSKIP
};

static const char *const skip_text[K_NSKIP] = {
	[K_OK] = "candidate",
	[K_NOMATCH] = "Requirements do not match",
	[K_TAKEN] = "already taken this cycle",
	[K_CLAIMED_IDLE] = "slot claimed but idle",
	[K_PREEMPTING] = "slot is being preempted",
	[K_MATCHED] = "slot is matched to another job already",
	[K_DRAINED] = "slot is drained",
	[K_RETIRING] = "running job has retirement time left",
	[K_NOCONSIDER] = "NEGOTIATOR_CONSIDER_PREEMPTION is false",
	[K_DSLOT] = "dynamic slot: preempted only through its partitionable slot",
	[K_RANKMODE] = "pie slice used up: only RANK preemption now",
	[K_SAMEUSER] = "runs a job of the same submitter and RANK is not better",
	[K_RANKWORSE] = "RANK worse than the running job's",
	[K_EUP] = "running user's effective priority is not worse",
	[K_NOPR] = "PREEMPTION_REQUIREMENTS false",
	[K_LIMIT] = "pie slice used up",
	[K_QUOTA] = "group quota reached",
	[K_CPFULL] = "not enough left in the partitionable slot",
	[K_NEGREQ] = "partitionable slot, and the job asks for a negative amount",
};

/* What each skip means for the job's summary reason. */
static const uint8_t skip_why[K_NSKIP] = {
	[K_OK] = CA_WHY_OUTRANKED,
	[K_NOMATCH] = CA_WHY_NOMATCH,
	[K_TAKEN] = CA_WHY_OUTRANKED,
	[K_CLAIMED_IDLE] = CA_WHY_OUTRANKED,
	[K_PREEMPTING] = CA_WHY_OUTRANKED,
	[K_MATCHED] = CA_WHY_OUTRANKED,
	[K_DRAINED] = CA_WHY_OUTRANKED,
	[K_RETIRING] = CA_WHY_NOPREEMPT,
	[K_NOCONSIDER] = CA_WHY_NOPREEMPT,
	[K_DSLOT] = CA_WHY_NOPREEMPT,
	[K_RANKMODE] = CA_WHY_LIMIT,
	[K_SAMEUSER] = CA_WHY_OUTRANKED,
	[K_RANKWORSE] = CA_WHY_OUTRANKED,
	[K_EUP] = CA_WHY_NOPREEMPT,
	[K_NOPR] = CA_WHY_NOPREEMPT,
	[K_LIMIT] = CA_WHY_LIMIT,
	[K_QUOTA] = CA_WHY_QUOTA,
	[K_CPFULL] = CA_WHY_OUTRANKED,
	[K_NEGREQ] = CA_WHY_NOMATCH,
};

/* Which reason wins when a job's candidates were refused for several:
 * the one closest to letting it run. */
static const int why_rank[CA_WHY_N] = {
	[CA_WHY_NONE] = 0, [CA_WHY_NOMATCH] = 1, [CA_WHY_OUTRANKED] = 2,
	[CA_WHY_NOPREEMPT] = 3, [CA_WHY_LIMIT] = 4, [CA_WHY_QUOTA] = 5
};

enum slot_state {
	ST_UNCLAIMED, ST_OWNER, ST_BACKFILL, ST_CLAIMED, ST_PREEMPTING, ST_MATCHED,
	ST_DRAINED, ST_OTHER
};

/* ---- small containers ---- */

/* A map from strings to indexes (open addressing, grows at half full). */
typedef struct smap {
	uint32_t *slot;		/* index + 1 */
	uint32_t cap, n;
} smap;

static uint32_t
str_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* A set of pointers (interned names). */
typedef struct pset {
	const void **v;
	uint32_t cap, n;
} pset;

static uint32_t
ptr_hash(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	x ^= x >> 31;
	x *= UINT64_C(0x9e3779b97f4a7c15);
	return (uint32_t)(x >> 32);
}

static bool
pset_has(const pset *s, const void *p)
{
	if (s->cap == 0)
		return false;
	for (uint32_t j = ptr_hash(p) & (s->cap - 1); s->v[j]; j = (j + 1) & (s->cap - 1))
		if (s->v[j] == p)
			return true;
	return false;
}

static bool
pset_add(pset *s, const void *p)
{
	if (pset_has(s, p))
		return false;
	if ((s->n + 1) * 2 > s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 64;
		const void **v = ca_xcalloc(cap, sizeof *v);
		for (uint32_t i = 0; i < s->cap; i++) {
			if (s->v[i] == NULL)
				continue;
			uint32_t j = ptr_hash(s->v[i]) & (cap - 1);
			while (v[j])
				j = (j + 1) & (cap - 1);
			v[j] = s->v[i];
		}
		free(s->v);
		s->v = v;
		s->cap = cap;
	}
	uint32_t j = ptr_hash(p) & (s->cap - 1);
	while (s->v[j])
		j = (j + 1) & (s->cap - 1);
	s->v[j] = p;
	s->n++;
	return true;
}

/* ---- the expression store: equal trees stored once ---- */

typedef struct estore {
	ca_arena arena;
	const ca_expr **e;
	uint64_t *h;
	uint32_t n, cap;
	uint32_t *index;	/* id + 1 */
	uint32_t icap;
} estore;

/* The stored tree equal to e (a copy in the store's arena when new). */
static ca_expr *
estore_get(estore *st, const ca_expr *e)
{
	uint64_t h = ca_expr_hash(0, e, CA_SAME_SPELLING);

	if ((st->n + 1) * 2 > st->icap) {
		uint32_t icap = st->icap ? st->icap * 2 : 1024;
		uint32_t *index = ca_xcalloc(icap, sizeof *index);
		for (uint32_t i = 0; i < st->n; i++) {
			uint32_t k = (uint32_t)st->h[i] & (icap - 1);
			while (index[k])
				k = (k + 1) & (icap - 1);
			index[k] = i + 1;
		}
		free(st->index);
		st->index = index;
		st->icap = icap;
	}
	uint32_t k = (uint32_t)h & (st->icap - 1);
	for (; st->index[k]; k = (k + 1) & (st->icap - 1)) {
		uint32_t id = st->index[k] - 1;
		if (st->h[id] == h && ca_expr_same(st->e[id], e, CA_SAME_SPELLING))
			return (ca_expr *)st->e[id];
	}
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 1024;
		st->e = ca_xreallocarray(st->e, st->cap, sizeof *st->e);
		st->h = ca_xreallocarray(st->h, st->cap, sizeof *st->h);
	}
	ca_expr *c = ca_expr_copy(&st->arena, e);
	st->e[st->n] = c;
	st->h[st->n] = h;
	st->index[k] = ++st->n;
	return c;
}

static void
estore_free(estore *st)
{
	free(st->e);
	free(st->h);
	free(st->index);
	ca_arena_free(&st->arena);
	memset(st, 0, sizeof *st);
}

/* ---- attribute overrides ---- */

/* One attribute of an ad set to a literal node of ours. */
typedef struct ovr {
	ca_ad *ad;
	const ca_name *name;
	ca_expr *node;		/* our literal */
	ca_expr *orig;		/* the ad's own expression, or NULL */
	bool on;
} ovr;

static void
ovr_put(ovr *o, ca_value v)
{
	o->node->u.lit = v;
	/* setting the same node again refreshes the ad's cached literal */
	ca_ad_set(o->ad, o->name, NULL, o->node);
	o->on = true;
}

static void
ovr_undo(ovr *o)
{
	if (!o->on)
		return;
	if (o->orig != NULL)
		ca_ad_set(o->ad, o->name, NULL, o->orig);
	else
		ca_ad_delete(o->ad, o->name);
	o->on = false;
}

/* Bind o to attribute name of ad, remembering the ad's own value. */
static void
ovr_bind(ovr *o, ca_arena *a, ca_ad *ad, const ca_name *name)
{
	ca_attr *at = ca_ad_find(ad, name);

	if (o->node == NULL)
		o->node = ca_expr_lit(a, ca_int(0));
	o->ad = ad;
	o->name = name;
	o->orig = at ? at->expr : NULL;
	o->on = false;
}

/* ---- the state of a cycle ---- */

/* Resources of a consumption policy. */
struct cpres {
	const ca_name *res;	/* Cpus, Memory, Disk, GPUs ... */
	const ca_name *req;	/* RequestCpus ... */
	const ca_expr *cons;	/* its Consumption expression */
};

enum { EPH_R_PRIO, EPH_R_INUSE, EPH_R_GROUP, EPH_R_GINUSE, EPH_R_GQUOTA, EPH_R_N };
enum {
	EPH_S_PRIO, EPH_S_INUSE, EPH_S_NEGGROUP, EPH_S_GROUP, EPH_S_GINUSE, EPH_S_GQUOTA,
	EPH_S_N
};
static const char *const eph_r_names[EPH_R_N] = {
	"RemoteUserPrio", "RemoteUserResourcesInUse", "RemoteGroup",
	"RemoteGroupResourcesInUse", "RemoteGroupQuota"
};
static const char *const eph_s_names[EPH_S_N] = {
	"SubmitterUserPrio", "SubmitterUserResourcesInUse", "SubmitterNegotiatingGroup",
	"SubmitterGroup", "SubmitterGroupResourcesInUse", "SubmitterGroupQuota"
};

struct slot {
	ca_ad *ad;
	const char *name;
	const ca_ad *job;	/* the running job travelling with the slot, or NULL */
	const char *remote_job;	/* its "C.P", or NULL */
	double weight;
	double cur_rank;	/* CurrentRank (PreemptingRank when there is one) */
	double pre, post;	/* NEGOTIATOR_PRE/POST_JOB_RANK when no job changes them */
	uint32_t remote;	/* customer running there, or NONE */
	uint32_t parent;	/* a dynamic slot's partitionable slot, or NONE */
	uint32_t *kids;		/* a partitionable slot's dynamic slots */
	uint32_t nkids;
	uint32_t version;	/* consumption-policy deductions so far */
	uint32_t taken_by;	/* the match that took it, or NONE */
	uint8_t state;
	uint8_t skip;		/* a K_* that keeps it from every job, or K_OK */
	bool running;		/* a job runs there (Claimed, not Idle) */
	bool pslot, dslot, cp;
	bool pre_fixed, post_fixed;
	bool taken;
	bool eph;		/* Remote* attributes set */
	struct cpres *res;	/* cp: its resources */
	uint32_t nres;
	ovr reph[EPH_R_N];
};

struct cust {
	const char *name;
	size_t len;
	double eup;
	double usage0;		/* weighted usage at the start */
	double usage;		/* now */
	ca_group *group;
	bool nice;
	/* a submitter */
	uint32_t *jobs;		/* idle jobs, in job order */
	uint32_t njobs, capjobs;
	double share, limit, limit_un, pie;
	bool pie_set, done;
	size_t matches;
};

struct job {
	ca_ad *ad;
	const char *id;
	double prio[5];
	int64_t cluster, proc;
	double weight;		/* its demand in slot weights */
	uint32_t sub;		/* customer */
	uint32_t key;
	uint32_t mjob;		/* number in the matcher */
	uint32_t match;		/* its match, or NONE */
	uint8_t why;		/* CA_WHY_* while it is idle */
	const ca_name *negreq;	/* a Request* attribute below 0, or NULL */
	ovr *eph;		/* Submitter* attributes (keys' representatives) */
};

/* A candidate slot for a key. */
struct cand {
	double pre, jrank, post, prank;
	double srank;
	double cost;
	uint32_t slot;
	uint32_t version;
	uint32_t multi;		/* pslot preemption: index in ca_neg.multi, or NONE */
	uint8_t reason;
	bool pr_done;		/* PREEMPTION_REQUIREMENTS already true */
};

struct cache {
	struct cand *heap;
	uint32_t n, cap;
	bool built, only_rank;
	uint32_t count[K_NSKIP];	/* candidates refused, by reason */
};

struct key {
	uint32_t rep;		/* the job evaluated for all */
	uint32_t sub;
	uint32_t mcl;		/* matcher cluster */
	uint32_t sig;		/* start of its signature in ca_neg.sigs */
	uint64_t hash;
	struct cache cache;
	bool rejected;		/* in this turn of the submitter */
	uint8_t rej_why;
	uint32_t rej_job;	/* the job that got nothing */
};

/* Dynamic slots a pslot-preemption candidate would preempt. */
struct multi {
	uint32_t *dslots;
	uint32_t n;
};

struct match {
	uint32_t job, slot, sub;
	uint8_t reason;
	double jrank, srank, eup, cost;
	uint32_t multi;		/* NONE, or the preempted dynamic slots */
	uint32_t remote;	/* preempted customer, or NONE */
	const char *remote_job;
	double consumed[3];	/* cp: Cpus, Memory, Disk taken */
	bool cp;
	int spin;
};

struct ca_neg {
	ca_ctx *cx;
	ca_acct *acct;
	ca_neg_policy pol;
	ca_arena arena;		/* names, ids, expressions of the policy */
	bool pr_always;		/* PREEMPTION_REQUIREMENTS defined but empty */
	const ca_expr *cons_default[3];
	/* CONSUMPTION_<R> and SLOT_TYPE_<N>_CONSUMPTION_<R>/_POLICY knobs */
	struct cpknob {
		int type;	/* N, or -1 for the machine-wide knob */
		const char *res;	/* NULL: the _POLICY knob */
		const ca_expr *e;
		bool on;
	} *cpk;
	size_t ncpk;
	ca_groups groups;
	strbuf warn;

	struct slot *slots;
	uint32_t nslots, capslots;
	struct job *jobs;
	uint32_t njobs, capjobs;
	size_t seen_jobs;	/* idle or not */
	struct cust *custs;
	uint32_t ncusts, capcusts;
	smap cmap;		/* customer names */
	struct key *keys;
	uint32_t nkeys, capkeys;
	const ca_expr **sigs;	/* keys' signatures: nsig expressions each */
	uint32_t nsig;
	const ca_name **signames;
	struct multi *multi;
	uint32_t nmulti, capmulti;
	struct match *matches;
	uint32_t nmatches, capmatches;

	struct hitlist {	/* per autocluster: the slots matching it, in slot order */
		ca_hit *v;
		uint32_t n, cap;
	} *hits;
	uint32_t nclusters;
	estore store;		/* the jobs' expressions */
	pset jobnames;		/* every attribute name some job defines */
	ca_matcher *matcher;
	const ca_name *n_cpus, *n_mem, *n_disk;
	ovr *stack;		/* temporary overrides */
	uint32_t nstack, capstack;

	double pool;
	bool has_cp;		/* some slot has a consumption policy */
	uint32_t *cpslots, ncp;	/* the consumption-policy slots */
	uint32_t *pslots, npk;	/* partitionable slots with dynamic slots */
	int spins;
	bool ran;

	const char *explain_id;
	uint32_t explain_job;	/* NONE until found */
	strbuf trace;
};

/* ---- customers ---- */

static uint32_t
cust_find(const ca_neg *n, const char *name, size_t len)
{
	const smap *m = &n->cmap;

	if (m->cap == 0)
		return NONE;
	for (uint32_t j = str_hash(name, len) & (m->cap - 1); m->slot[j]; j = (j + 1) & (m->cap - 1)) {
		const struct cust *c = &n->custs[m->slot[j] - 1];
		if (c->len == len && memcmp(c->name, name, len) == 0)
			return m->slot[j] - 1;
	}
	return NONE;
}

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

static uint32_t
cust_get(ca_neg *n, const char *name, size_t len)
{
	uint32_t i = cust_find(n, name, len);

	if (i != NONE)
		return i;
	if (n->ncusts == n->capcusts) {
		n->capcusts = n->capcusts ? n->capcusts * 2 : 64;
		n->custs = ca_xreallocarray(n->custs, n->capcusts, sizeof *n->custs);
	}
	i = n->ncusts++;
	struct cust *c = &n->custs[i];
	memset(c, 0, sizeof *c);
	c->name = ca_arena_strndup(&n->arena, name, len);
	c->len = len;
	c->eup = new_eup(n, name, len);
	c->group = ca_groups_of(&n->groups, name, len);
	const char *np = n->acct->pol.nice_prefix ? n->acct->pol.nice_prefix : "nice-user";
	size_t nl = strlen(np);
	c->nice = len > nl && strncasecmp(name, np, nl) == 0 && (name[nl] == '.' || name[nl] == '@');

	smap *m = &n->cmap;
	if ((m->n + 1) * 2 > m->cap) {
		uint32_t cap = m->cap ? m->cap * 2 : 64;
		uint32_t *slot = ca_xcalloc(cap, sizeof *slot);
		for (uint32_t k = 0; k < m->cap; k++) {
			if (!m->slot[k])
				continue;
			const struct cust *o = &n->custs[m->slot[k] - 1];
			uint32_t j = str_hash(o->name, o->len) & (cap - 1);
			while (slot[j])
				j = (j + 1) & (cap - 1);
			slot[j] = m->slot[k];
		}
		free(m->slot);
		m->slot = slot;
		m->cap = cap;
	}
	uint32_t j = str_hash(name, len) & (m->cap - 1);
	while (m->slot[j])
		j = (j + 1) & (m->cap - 1);
	m->slot[j] = i + 1;
	m->n++;
	return i;
}

/* ---- evaluation helpers ---- */

/* A string attribute of ad (evaluated; empty counts as missing) copied to
 * sb. */
static bool
attr_str(ca_neg *n, const ca_ad *ad, const char *name, strbuf *sb)
{
	ca_value v = ca_eval_attr(n->cx, ad, NULL, name);

	strbuf_reset(sb);
	if (v.kind != CA_STRING || v.x.len == 0)
		return false;
	strbuf_add(sb, v.u.s, v.x.len);
	return true;
}

/* A number attribute (bool, int, real); def when it is anything else. */
static double
attr_num(ca_neg *n, const ca_ad *ad, const char *name, double def)
{
	ca_value v = ca_eval_attr(n->cx, ad, NULL, name);

	switch (v.kind) {
	case CA_BOOL:
		return v.u.b;
	case CA_INT:
		return (double)v.u.i;
	case CA_REAL:
		return isnan(v.u.r) ? def : v.u.r;
	default:
		return def;
	}
}

static bool
attr_true(ca_neg *n, const ca_ad *ad, const char *name)
{
	return ca_value_truth(ca_eval_attr(n->cx, ad, NULL, name)) == 1;
}

/* A negotiator rank: a number, or the lowest value when it fails. */
static double
neg_rank(ca_neg *n, const ca_expr *e, const ca_ad *slot, const ca_ad *job)
{
	if (e == NULL)
		return 0.0;
	ca_value v = ca_eval_expr(n->cx, e, slot, job);
	switch (v.kind) {
	case CA_BOOL:
		return v.u.b;
	case CA_INT:
		return (double)v.u.i;
	case CA_REAL:
		return isnan(v.u.r) ? NEG_LOW : v.u.r;
	default:
		return NEG_LOW;
	}
}

/* The slot weight of ad as it is now (SLOT_WEIGHT, else SlotWeight, else
 * Cpus; 1 without slot weights, or when it is no number >= 0). */
static double
slot_weight(ca_neg *n, const ca_ad *ad)
{
	ca_value v;

	if (!n->acct->pol.use_slot_weights)
		return 1.0;
	if (n->acct->pol.slot_weight != NULL)
		v = ca_eval_expr(n->cx, n->acct->pol.slot_weight, ad, NULL);
	else {
		v = ca_eval_attr(n->cx, ad, NULL, "SlotWeight");
		if (v.kind == CA_UNDEFINED)
			v = ca_eval_attr(n->cx, ad, NULL, "Cpus");
	}
	if (v.kind == CA_INT && v.u.i >= 0)
		return (double)v.u.i;
	if (v.kind == CA_REAL && v.u.r >= 0 && isfinite(v.u.r))
		return v.u.r;
	return 1.0;
}

/* "C.P" of a job ad, in our arena; NULL without ClusterId and ProcId. */
static const char *
job_id_of(ca_neg *n, const ca_ad *ad, strbuf *sb)
{
	ca_value c = ca_eval_attr(n->cx, ad, NULL, "ClusterId");
	ca_value p = ca_eval_attr(n->cx, ad, NULL, "ProcId");

	if (c.kind == CA_UNDEFINED || p.kind == CA_UNDEFINED)
		return NULL;
	strbuf_reset(sb);
	if (c.kind == CA_STRING)
		strbuf_add(sb, c.u.s, c.x.len);
	else
		ca_print_value(sb, c, 0);
	strbuf_addc(sb, '.');
	if (p.kind == CA_STRING)
		strbuf_add(sb, p.u.s, p.x.len);
	else
		ca_print_value(sb, p, 0);
	return ca_arena_strndup(&n->arena, sb->buf, sb->len);
}

/* Push a temporary value for attribute name of ad. */
static void
tmp_set(ca_neg *n, ca_ad *ad, const ca_name *name, ca_value v)
{
	if (n->nstack == n->capstack) {
		uint32_t cap = n->capstack ? n->capstack * 2 : 16;
		n->stack = ca_xreallocarray(n->stack, cap, sizeof *n->stack);
		memset(n->stack + n->capstack, 0, (cap - n->capstack) * sizeof *n->stack);
		n->capstack = cap;
	}
	ovr *o = &n->stack[n->nstack++];
	ovr_bind(o, &n->arena, ad, name);
	ovr_put(o, v);
}

/* Undo the temporary values down to mark, newest first. */
static void
tmp_undo(ca_neg *n, uint32_t mark)
{
	while (n->nstack > mark)
		ovr_undo(&n->stack[--n->nstack]);
}

static ca_value
num_value(double x, bool as_int)
{
	if (as_int && x >= -9e15 && x <= 9e15 && x == floor(x))
		return ca_int((int64_t)x);
	return ca_real(x);
}

/* ---- configuration ---- */

ca_neg *
ca_neg_new(ca_ctx *cx, ca_acct *acct)
{
	ca_neg *n = ca_xcalloc(1, sizeof *n);
	ca_diag perr;

	n->cx = cx;
	n->acct = acct;
	n->pol.consider_preemption = true;
	n->pol.pre_job_rank = ca_parse_expr(&n->arena, def_pre_job_rank,
	    sizeof def_pre_job_rank - 1, 0, &perr);
	n->pol.post_job_rank = ca_parse_expr(&n->arena, def_post_job_rank,
	    sizeof def_post_job_rank - 1, 0, &perr);
	n->pol.preemption_rank = ca_parse_expr(&n->arena, def_preemption_rank,
	    sizeof def_preemption_rank - 1, 0, &perr);
	for (int i = 0; i < 3; i++)
		n->cons_default[i] = ca_parse_expr(&n->arena, def_consumption[i],
		    strlen(def_consumption[i]), 0, &perr);
	ca_groups_init(&n->groups);
	n->warn = (strbuf)STRBUF_INIT;
	n->trace = (strbuf)STRBUF_INIT;
	n->explain_job = NONE;
	n->n_cpus = ca_intern("Cpus", 4);
	n->n_mem = ca_intern("Memory", 6);
	n->n_disk = ca_intern("Disk", 4);
	return n;
}

const ca_neg_policy *
ca_neg_get_policy(const ca_neg *n)
{
	return &n->pol;
}

/* An expression knob: defined and non-empty replaces *out; defined but
 * empty sets *empty (when not NULL) and *out = NULL. */
static int
expr_knob(ca_neg *n, ca_config *cfg, const char *name, const ca_expr **out, bool *empty,
    ca_diag *err)
{
	ca_expr *e = NULL;
	int rc = ca_config_expr(cfg, name, &n->arena, 0, &e, err);

	if (rc < 0)
		return -1;
	if (rc > 0)
		*out = e;
	else if (ca_config_defined(cfg, name)) {
		*out = NULL;
		if (empty)
			*empty = true;
	}
	return 0;
}

static bool
prefix_ci(const char *s, const char *p)
{
	return strncasecmp(s, p, strlen(p)) == 0;
}

int
ca_neg_configure(ca_neg *n, ca_config *cfg, ca_diag *err)
{
	bool pr_empty = false;

	ca_config_set_subsys(cfg, "NEGOTIATOR");
	if (expr_knob(n, cfg, "PREEMPTION_REQUIREMENTS", &n->pol.preemption_req, &pr_empty,
	    err) < 0 ||
	    expr_knob(n, cfg, "PREEMPTION_RANK", &n->pol.preemption_rank, NULL, err) < 0 ||
	    expr_knob(n, cfg, "NEGOTIATOR_PRE_JOB_RANK", &n->pol.pre_job_rank, NULL, err) < 0 ||
	    expr_knob(n, cfg, "NEGOTIATOR_POST_JOB_RANK", &n->pol.post_job_rank, NULL, err) < 0)
		return -1;
	n->pr_always = pr_empty;
	if (ca_config_bool(cfg, "NEGOTIATOR_CONSIDER_PREEMPTION", &n->pol.consider_preemption,
	    err) < 0 ||
	    ca_config_bool(cfg, "NEGOTIATOR_CONSIDER_EARLY_PREEMPTION",
	    &n->pol.early_preemption, err) < 0 ||
	    ca_config_bool(cfg, "ALLOW_PSLOT_PREEMPTION", &n->pol.pslot_preemption, err) < 0 ||
	    ca_config_bool(cfg, "NEGOTIATE_ALL_JOBS_IN_CLUSTER", &n->pol.all_jobs_in_cluster,
	    err) < 0 ||
	    ca_config_bool(cfg, "CONSUMPTION_POLICY", &n->pol.consumption_policy, err) < 0)
		return -1;

	/* CONSUMPTION_<R>, SLOT_TYPE_<N>_CONSUMPTION_POLICY and _<R> */
	size_t cnt = ca_config_count(cfg);
	n->cpk = ca_arena_array(&n->arena, cnt + 1, sizeof *n->cpk);
	for (size_t i = 0; i < cnt; i++) {
		const char *name = ca_config_name_at(cfg, i), *p = name;
		int type = -1;
		if (prefix_ci(p, "NEGOTIATOR."))
			p += strlen("NEGOTIATOR.");
		if (prefix_ci(p, "SLOT_TYPE_")) {
			char *end;
			long t = strtol(p + 10, &end, 10);
			if (end == p + 10 || t < 0 || t > 100000 || !prefix_ci(end, "_CONSUMPTION_"))
				continue;
			type = (int)t;
			p = end + 1;
		}
		if (!prefix_ci(p, "CONSUMPTION_") || p[12] == '\0')
			continue;
		struct cpknob *k = &n->cpk[n->ncpk];
		k->type = type;
		if (strcasecmp(p + 12, "POLICY") == 0) {
			k->res = NULL;
			if (ca_config_bool(cfg, name, &k->on, err) < 0)
				return -1;
			if (ca_config_defined(cfg, name))
				n->ncpk++;
			continue;
		}
		ca_expr *e = NULL;
		int rc = ca_config_expr(cfg, name, &n->arena, 0, &e, err);
		if (rc < 0)
			return -1;
		if (rc == 0)
			continue;
		k->res = ca_arena_strndup(&n->arena, p + 12, strlen(p + 12));
		k->e = e;
		n->ncpk++;
	}
	if (ca_groups_config(&n->groups, cfg, err) < 0)
		return -1;
	strbuf_adds(&n->warn, n->groups.warnings.buf);
	return 0;
}

const char *
ca_neg_warnings(const ca_neg *n)
{
	return n->warn.buf;
}

const ca_groups *
ca_neg_groups(const ca_neg *n)
{
	return &n->groups;
}

void
ca_neg_explain(ca_neg *n, const char *jobid)
{
	n->explain_id = ca_arena_strndup(&n->arena, jobid, strlen(jobid));
}

const char *
ca_neg_trace(const ca_neg *n)
{
	return n->trace.buf;
}

/* ---- adding ads ---- */

void
ca_neg_add_slot(ca_neg *n, ca_ad *ad)
{
	if (n->nslots == n->capslots) {
		n->capslots = n->capslots ? n->capslots * 2 : 64;
		n->slots = ca_xreallocarray(n->slots, n->capslots, sizeof *n->slots);
	}
	struct slot *s = &n->slots[n->nslots++];
	memset(s, 0, sizeof *s);
	s->ad = ad;
}

/* The job ad rebuilt with every expression taken from the store. */
static ca_ad *
compact(ca_neg *n, const ca_ad *ad)
{
	ca_ad *c = ca_ad_new();

	for (uint32_t i = 0; i < ad->n; i++) {
		const ca_attr *at = &ad->attrs[i];
		const char *spell = NULL;
		if (strcmp(at->spell, at->name->spell) != 0)
			spell = ca_arena_strndup(&n->store.arena, at->spell, strlen(at->spell));
		ca_ad_set(c, at->name, spell, estore_get(&n->store, at->expr));
		pset_add(&n->jobnames, at->name);
	}
	ca_ad_trim(c);
	return c;
}

void
ca_neg_add_job(ca_neg *n, ca_ad *ad)
{
	strbuf sb = STRBUF_INIT;
	size_t index = n->seen_jobs++;
	ca_value st = ca_eval_attr(n->cx, ad, NULL, "JobStatus");
	const char *id = job_id_of(n, ad, &sb);

	if (id == NULL) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "#%zu", index);
		id = ca_arena_strndup(&n->arena, sb.buf, sb.len);
	}
	bool idle = st.kind == CA_UNDEFINED || (st.kind == CA_INT && st.u.i == 1);
	ca_arena_reset(&n->cx->scratch);
	if (n->explain_id != NULL && strcmp(id, n->explain_id) == 0 && !idle) {
		strbuf_addf(&n->trace, "job %s: not idle (JobStatus ", id);
		ca_print_value(&n->trace, st, 0);
		strbuf_adds(&n->trace, "): the negotiator does not look at it\n");
	}
	if (!idle) {
		ca_ad_free(ad);
		strbuf_release(&sb);
		return;
	}
	if (n->njobs == n->capjobs) {
		n->capjobs = n->capjobs ? n->capjobs * 2 : 64;
		n->jobs = ca_xreallocarray(n->jobs, n->capjobs, sizeof *n->jobs);
	}
	struct job *j = &n->jobs[n->njobs];
	memset(j, 0, sizeof *j);
	j->ad = compact(n, ad);
	j->id = id;
	j->match = NONE;
	if (n->explain_id != NULL && strcmp(id, n->explain_id) == 0 && n->explain_job == NONE)
		n->explain_job = n->njobs;
	n->njobs++;
	ca_ad_free(ad);
	strbuf_release(&sb);
}

/* ---- preparing the cycle ---- */

static int
state_of(const char *s)
{
	static const struct { const char *name; int st; } t[] = {
		{ "Unclaimed", ST_UNCLAIMED }, { "Owner", ST_OWNER }, { "Backfill", ST_BACKFILL },
		{ "Claimed", ST_CLAIMED }, { "Preempting", ST_PREEMPTING },
		{ "Matched", ST_MATCHED }, { "Drained", ST_DRAINED }
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(s, t[i].name) == 0)
			return t[i].st;
	return ST_OTHER;
}

/* The user charged for a claim: the first of PreemptingAccountingGroup,
 * PreemptingUser, AccountingGroup, RemoteUser (then the travelling job's
 * AccountingGroup, User), a group without "@domain" taking the user's
 * domain (or UID_DOMAIN). */
static uint32_t
remote_of(ca_neg *n, const ca_ad *ad, const ca_ad *job, strbuf *sb)
{
	strbuf user = STRBUF_INIT;
	uint32_t c = NONE;
	bool have_user = attr_str(n, ad, "PreemptingUser", &user) ||
	    attr_str(n, ad, "RemoteUser", &user) ||
	    (job && attr_str(n, job, "User", &user));

	if (attr_str(n, ad, "PreemptingAccountingGroup", sb) ||
	    attr_str(n, ad, "AccountingGroup", sb) ||
	    (job && attr_str(n, job, "AccountingGroup", sb))) {
		if (memchr(sb->buf, '@', sb->len) == NULL) {
			const char *at = have_user ? strrchr(user.buf, '@') : NULL;
			if (at != NULL)
				strbuf_adds(sb, at);
			else if (n->acct->pol.uid_domain != NULL) {
				strbuf_addc(sb, '@');
				strbuf_adds(sb, n->acct->pol.uid_domain);
			}
		}
		c = cust_get(n, sb->buf, sb->len);
	} else if (have_user)
		c = cust_get(n, user.buf, user.len);
	strbuf_release(&user);
	ca_arena_reset(&n->cx->scratch);
	return c;
}

/* The slot of a dynamic slot's name "slotN_M@host": "slotN@host". */
static void
parent_name(const char *name, strbuf *sb)
{
	const char *at = strrchr(name, '@');
	size_t end = at ? (size_t)(at - name) : strlen(name), us = end;

	strbuf_reset(sb);
	while (us > 0 && name[us - 1] != '_')
		us--;
	if (us == 0)
		return;
	strbuf_add(sb, name, us - 1);
	if (at)
		strbuf_adds(sb, at);
}

static const struct cpknob *
cp_knob(const ca_neg *n, int type, const char *res)
{
	for (size_t pass = 0; pass < 2; pass++) {
		int want = pass == 0 ? type : -1;
		if (want < 0 && pass == 0)
			continue;
		for (size_t i = 0; i < n->ncpk; i++) {
			const struct cpknob *k = &n->cpk[i];
			if (k->type != want)
				continue;
			if (res == NULL ? k->res == NULL : (k->res && strcasecmp(k->res, res) == 0))
				return k;
		}
	}
	return NULL;
}

static void
add_res(ca_neg *n, struct slot *s, const char *res, size_t len, int type, uint32_t cap)
{
	strbuf sb = STRBUF_INIT;

	for (uint32_t i = 0; i < s->nres; i++)
		if (s->res[i].res->len == len && strncasecmp(s->res[i].res->key, res, len) == 0)
			return;
	if (s->nres >= cap)
		return;
	struct cpres *r = &s->res[s->nres++];
	r->res = ca_intern(res, len);
	strbuf_addf(&sb, "Request%.*s", (int)len, res);
	r->req = ca_intern(sb.buf, sb.len);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "Consumption%.*s", (int)len, res);
	ca_attr *at = ca_ad_findn(s->ad, sb.buf, sb.len);
	char rname[64];
	snprintf(rname, sizeof rname, "%.*s", (int)(len < 60 ? len : 60), res);
	const struct cpknob *k = cp_knob(n, type, rname);
	if (at != NULL)
		r->cons = at->expr;
	else if (k != NULL)
		r->cons = k->e;
	else if (strcasecmp(rname, "Cpus") == 0)
		r->cons = n->cons_default[0];
	else if (strcasecmp(rname, "Memory") == 0)
		r->cons = n->cons_default[1];
	else if (strcasecmp(rname, "Disk") == 0)
		r->cons = n->cons_default[2];
	else {
		/* a custom resource: what the job asks for */
		ca_diag perr;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "TARGET.Request%.*s", (int)len, res);
		r->cons = ca_parse_expr(&n->arena, sb.buf, sb.len, 0, &perr);
	}
	strbuf_release(&sb);
}

/* Does a partitionable slot use a consumption policy, and with which
 * resources? */
static void
setup_cp(ca_neg *n, struct slot *s, strbuf *sb)
{
	int type = (int)attr_num(n, s->ad, "SlotTypeID", -1);
	ca_value v = ca_eval_attr(n->cx, s->ad, NULL, "ConsumptionPolicy");
	const struct cpknob *k = cp_knob(n, type, NULL);
	bool on = n->pol.consumption_policy;

	if (k != NULL)
		on = k->on;
	if (ca_ad_findn(s->ad, "ConsumptionCpus", 15) || ca_ad_findn(s->ad, "ConsumptionMemory",
	    17) || ca_ad_findn(s->ad, "ConsumptionDisk", 15))
		on = true;
	if (v.kind == CA_BOOL)
		on = v.u.b;
	ca_arena_reset(&n->cx->scratch);
	if (!on)
		return;
	s->cp = true;
	uint32_t cap = 3 + 16;
	s->res = ca_arena_array(&n->arena, cap, sizeof *s->res);
	add_res(n, s, "Cpus", 4, type, cap);
	add_res(n, s, "Memory", 6, type, cap);
	add_res(n, s, "Disk", 4, type, cap);
	if (attr_str(n, s->ad, "MachineResources", sb)) {
		char *list = ca_arena_strndup(&n->arena, sb->buf, sb->len);
		for (char *p = list; *p;) {
			while (*p == ' ' || *p == ',' || *p == '\t')
				p++;
			size_t l = strcspn(p, " ,\t");
			if (l > 0 && !(l == 4 && strncasecmp(p, "Swap", 4) == 0))
				add_res(n, s, p, l, type, cap);
			p += l;
		}
	}
	for (size_t i = 0; i < n->ncpk; i++)
		if (n->cpk[i].res && (n->cpk[i].type == -1 || n->cpk[i].type == type))
			add_res(n, s, n->cpk[i].res, strlen(n->cpk[i].res), type, cap);
	ca_arena_reset(&n->cx->scratch);
}

static void
prepare_slots(ca_neg *n)
{
	strbuf sb = STRBUF_INIT, act = STRBUF_INIT;
	smap names = { NULL, 0, 0 };
	uint32_t namecap = 16;

	while (namecap < 2 * n->nslots + 2)
		namecap *= 2;
	names.slot = ca_xcalloc(namecap, sizeof *names.slot);
	names.cap = namecap;
	for (uint32_t i = 0; i < n->nslots; i++) {
		struct slot *s = &n->slots[i];
		ca_ad *ad = s->ad;

		s->parent = NONE;
		s->remote = NONE;
		s->taken_by = NONE;
		if (attr_str(n, ad, "Name", &sb))
			s->name = ca_arena_strndup(&n->arena, sb.buf, sb.len);
		else {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "<slot %u>", i);
			s->name = ca_arena_strndup(&n->arena, sb.buf, sb.len);
		}
		s->state = attr_str(n, ad, "State", &sb) ? (uint8_t)state_of(sb.buf) : ST_UNCLAIMED;
		bool idle_act = !attr_str(n, ad, "Activity", &act) ||
		    strcmp(act.buf, "Idle") == 0 || strcmp(act.buf, "Cleaning") == 0;
		s->pslot = attr_true(n, ad, "PartitionableSlot") ||
		    (attr_str(n, ad, "SlotType", &sb) && strcmp(sb.buf, "Partitionable") == 0);
		s->dslot = !s->pslot && (attr_true(n, ad, "DynamicSlot") ||
		    (attr_str(n, ad, "SlotType", &sb) && strcmp(sb.buf, "Dynamic") == 0));
		ca_value jv = ca_eval_attr(n->cx, ad, NULL, "Job");
		if (jv.kind == CA_AD)
			s->job = jv.u.ad->ad;
		s->running = s->state == ST_CLAIMED && !idle_act && !s->pslot;
		s->weight = slot_weight(n, ad);
		n->pool += s->weight;
		ca_arena_reset(&n->cx->scratch);

		if (s->state == ST_CLAIMED || s->state == ST_PREEMPTING || s->state == ST_MATCHED) {
			s->remote = remote_of(n, ad, s->job, &sb);
			if (attr_str(n, ad, "JobId", &sb))
				s->remote_job = ca_arena_strndup(&n->arena, sb.buf, sb.len);
			else if (s->job != NULL)
				s->remote_job = job_id_of(n, s->job, &sb);
			ca_value pr = ca_eval_attr(n->cx, ad, NULL, "PreemptingRank");
			ca_value cr = ca_eval_attr(n->cx, ad, NULL, "CurrentRank");
			if (ca_is_num(pr))
				s->cur_rank = ca_rank_number(pr);
			else if (cr.kind != CA_UNDEFINED)
				s->cur_rank = ca_rank_number(cr);
			else if (s->job != NULL)
				s->cur_rank = ca_match_rank(n->cx, ca_ad_lookup(ad, "Rank"), ad, s->job);
			ca_arena_reset(&n->cx->scratch);
		}
		if (s->remote != NONE && (s->state == ST_CLAIMED || s->state == ST_PREEMPTING))
			n->custs[s->remote].usage0 += s->weight;

		if (s->state == ST_CLAIMED && !s->running)
			s->skip = K_CLAIMED_IDLE;
		else if (s->state == ST_PREEMPTING)
			s->skip = K_PREEMPTING;
		else if (s->state == ST_MATCHED)
			s->skip = K_MATCHED;
		else if (s->state == ST_DRAINED)
			s->skip = K_DRAINED;
		else if (s->running && !n->pol.consider_preemption)
			s->skip = K_NOCONSIDER;
		else if (s->running && !n->pol.early_preemption &&
		    attr_num(n, ad, "RetirementTimeRemaining", 0) > 0)
			s->skip = K_RETIRING;
		else if (s->dslot && n->pol.pslot_preemption)
			s->skip = K_DSLOT;
		if (s->pslot)
			setup_cp(n, s, &sb);
		n->has_cp |= s->cp;

		uint32_t h = str_hash(s->name, strlen(s->name)) & (names.cap - 1);
		while (names.slot[h])
			h = (h + 1) & (names.cap - 1);
		names.slot[h] = i + 1;
		ca_arena_reset(&n->cx->scratch);
	}
	/* dynamic slots under their partitionable slot */
	for (uint32_t i = 0; i < n->nslots; i++) {
		struct slot *s = &n->slots[i];
		if (!s->dslot)
			continue;
		parent_name(s->name, &sb);
		if (sb.len == 0)
			continue;
		for (uint32_t h = str_hash(sb.buf, sb.len) & (names.cap - 1); names.slot[h];
		    h = (h + 1) & (names.cap - 1)) {
			struct slot *p = &n->slots[names.slot[h] - 1];
			if (p->pslot && strcmp(p->name, sb.buf) == 0) {
				s->parent = names.slot[h] - 1;
				p->kids = ca_xreallocarray(p->kids, p->nkids + 1, sizeof *p->kids);
				p->kids[p->nkids++] = i;
				break;
			}
		}
	}
	free(names.slot);
	strbuf_release(&sb);
	strbuf_release(&act);
	n->cpslots = ca_xcalloc(n->nslots + 1, sizeof *n->cpslots);
	n->pslots = ca_xcalloc(n->nslots + 1, sizeof *n->pslots);
	for (uint32_t i = 0; i < n->nslots; i++) {
		if (n->slots[i].cp)
			n->cpslots[n->ncp++] = i;
		else if (n->slots[i].pslot && n->slots[i].nkids > 0)
			n->pslots[n->npk++] = i;
	}
}

/* The accounting name of a job: AccountingGroup (with the user's domain
 * when it has none), else User, else Owner@UID_DOMAIN; a nice_user job
 * without a group submits as nice-user.<user>. */
static uint32_t
submitter_of(ca_neg *n, const ca_ad *ad, strbuf *sb)
{
	strbuf user = STRBUF_INIT;
	bool have_user = attr_str(n, ad, "User", &user);
	uint32_t c;

	if (!have_user && attr_str(n, ad, "Owner", &user)) {
		have_user = true;
		if (n->acct->pol.uid_domain != NULL) {
			strbuf_addc(&user, '@');
			strbuf_adds(&user, n->acct->pol.uid_domain);
		}
	}
	if (attr_str(n, ad, "AccountingGroup", sb)) {
		if (memchr(sb->buf, '@', sb->len) == NULL) {
			const char *at = have_user ? strrchr(user.buf, '@') : NULL;
			if (at != NULL)
				strbuf_adds(sb, at);
			else if (n->acct->pol.uid_domain != NULL) {
				strbuf_addc(sb, '@');
				strbuf_adds(sb, n->acct->pol.uid_domain);
			}
		}
	} else {
		strbuf_reset(sb);
		if (have_user && attr_true(n, ad, "NiceUser")) {
			strbuf_adds(sb, n->acct->pol.nice_prefix ? n->acct->pol.nice_prefix :
			    "nice-user");
			strbuf_addc(sb, '.');
		}
		strbuf_add(sb, have_user ? user.buf : "unknown", have_user ? user.len : 7);
	}
	c = cust_get(n, sb->buf, sb->len);
	strbuf_release(&user);
	ca_arena_reset(&n->cx->scratch);
	return c;
}

static const struct ca_neg *sort_n;	/* for the qsort comparators below */

static int
job_order(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct job *x = &sort_n->jobs[a], *y = &sort_n->jobs[b];

	for (int i = 0; i < 5; i++)
		if (x->prio[i] != y->prio[i])
			return x->prio[i] > y->prio[i] ? -1 : 1;
	if (x->cluster != y->cluster)
		return x->cluster < y->cluster ? -1 : 1;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	return a < b ? -1 : a > b;
}

static double
job_weight(ca_neg *n, struct job *j, ca_ad *req)
{
	double cpus = attr_num(n, j->ad, "RequestCpus", 1);

	if (!n->acct->pol.use_slot_weights)
		return 1.0;
	if (n->acct->pol.slot_weight == NULL)
		return cpus > 0 ? cpus : 1.0;
	/* SLOT_WEIGHT of a slot the size of the request */
	ca_ad_set(req, n->n_cpus, NULL, ca_expr_lit(req->arena, ca_real(cpus)));
	ca_ad_set(req, n->n_mem, NULL, ca_expr_lit(req->arena,
	    ca_real(attr_num(n, j->ad, "RequestMemory", 0))));
	ca_ad_set(req, n->n_disk, NULL, ca_expr_lit(req->arena,
	    ca_real(attr_num(n, j->ad, "RequestDisk", 0))));
	double w = slot_weight(n, req);
	return w > 0 ? w : 1.0;
}

/* The first Request* attribute of the job (RequestCpus, RequestMemory,
 * RequestDisk, RequestGPUs, ...) that evaluates to a negative number: a
 * request no partitionable slot can carve, or NULL. */
static const ca_name *
negative_request(ca_neg *n, const ca_ad *ad)
{
	const ca_name *found = NULL;

	for (uint32_t i = 0; i < ad->n && found == NULL; i++) {
		const ca_attr *at = &ad->attrs[i];
		if (at->name->len <= 7 || strncasecmp(at->name->key, "Request", 7) != 0)
			continue;
		ca_value v = ca_eval_expr(n->cx, at->expr, ad, NULL);
		if ((v.kind == CA_INT && v.u.i < 0) || (v.kind == CA_REAL && v.u.r < 0))
			found = at->name;
	}
	ca_arena_reset(&n->cx->scratch);
	return found;
}

static void
prepare_jobs(ca_neg *n)
{
	static const char *const prio_names[5] = {
		"PreJobPrio1", "PreJobPrio2", "JobPrio", "PostJobPrio1", "PostJobPrio2"
	};
	strbuf sb = STRBUF_INIT;
	ca_ad *req = ca_ad_new();

	for (uint32_t i = 0; i < n->njobs; i++) {
		struct job *j = &n->jobs[i];
		j->sub = submitter_of(n, j->ad, &sb);
		for (int k = 0; k < 5; k++)
			j->prio[k] = attr_num(n, j->ad, prio_names[k], 0);
		j->cluster = (int64_t)attr_num(n, j->ad, "ClusterId", 0);
		j->proc = (int64_t)attr_num(n, j->ad, "ProcId", 0);
		j->weight = job_weight(n, j, req);
		j->negreq = negative_request(n, j->ad);
		ca_arena_reset(&n->cx->scratch);
		struct cust *c = &n->custs[j->sub];
		if (c->njobs == c->capjobs) {
			c->capjobs = c->capjobs ? c->capjobs * 2 : 16;
			c->jobs = ca_xreallocarray(c->jobs, c->capjobs, sizeof *c->jobs);
		}
		c->jobs[c->njobs++] = i;
	}
	ca_ad_free(req);
	sort_n = n;
	for (uint32_t c = 0; c < n->ncusts; c++)
		if (n->custs[c].njobs > 1)
			qsort(n->custs[c].jobs, n->custs[c].njobs, sizeof(uint32_t), job_order);
	sort_n = NULL;
	strbuf_release(&sb);
}

/* Names of the job side that the negotiator's expressions reach. */
struct refs {
	pset *set;
	const ca_name ***v;
	uint32_t *n, *cap;
	int side;
	bool other;
};

static void
ref_collect(void *arg, const ca_name *nm, int side)
{
	struct refs *r = arg;

	if (side != r->side)
		return;
	r->other = true;
	if (r->set && pset_add(r->set, nm)) {
		if (*r->n == *r->cap) {
			*r->cap = *r->cap ? *r->cap * 2 : 16;
			*r->v = ca_xreallocarray(*r->v, *r->cap, sizeof **r->v);
		}
		(*r->v)[(*r->n)++] = nm;
	}
}

static bool
sig_equal(const ca_neg *n, uint32_t a, uint32_t b)
{
	return memcmp(n->sigs + a, n->sigs + b, n->nsig * sizeof *n->sigs) == 0;
}

/* The matcher's autoclusters, refined by submitter and by the job
 * attributes the negotiator's expressions reach, make the keys. */
static void
prepare_keys(ca_neg *n)
{
	const ca_expr *exprs[4] = {
		n->pol.pre_job_rank, n->pol.post_job_rank, n->pol.preemption_req,
		n->pol.preemption_rank
	};
	pset set = { NULL, 0, 0 };
	const ca_name **names = NULL;
	uint32_t nnames = 0, capnames = 0;
	struct refs r = { &set, &names, &nnames, &capnames, CA_REF_OTHER, false };
	bool dynamic = false;

	for (uint32_t i = 0; i < n->nslots; i++)
		for (int k = 0; k < 4; k++)
			if (exprs[k] && ca_expr_refs(exprs[k], n->slots[i].ad, CA_REFS_DEEP,
			    ref_collect, &r))
				dynamic = true;
	/* and what the jobs' definitions of those names reach in the job */
	r.side = CA_REF_SELF;
	for (uint32_t done = 0; done < nnames; done++) {
		const ca_name *nm = names[done];
		const ca_expr *last = NULL;
		for (uint32_t j = 0; j < n->njobs; j++) {
			ca_attr *at = ca_ad_find(n->jobs[j].ad, nm);
			if (at == NULL || at->expr == last)
				continue;	/* shared trees: walked once */
			last = at->expr;
			if (ca_expr_refs(at->expr, n->jobs[j].ad, 0, ref_collect, &r))
				dynamic = true;
		}
	}
	n->signames = names;
	n->nsig = nnames;
	free(set.v);

	uint32_t cap = 16;
	while (cap < 2 * n->njobs + 2)
		cap *= 2;
	uint32_t *table = ca_xcalloc(cap, sizeof *table);
	n->sigs = ca_xreallocarray(NULL, (size_t)n->njobs * (n->nsig ? n->nsig : 1) + 1,
	    sizeof *n->sigs);
	for (uint32_t j = 0; j < n->njobs; j++) {
		struct job *jb = &n->jobs[j];
		uint32_t base = j * n->nsig;
		uint64_t h = ca_hash_mix(ca_hash_mix(0, jb->sub), ca_matcher_cluster_of(n->matcher, jb->mjob));
		for (uint32_t k = 0; k < n->nsig; k++) {
			ca_attr *at = ca_ad_find(jb->ad, n->signames[k]);
			n->sigs[base + k] = at ? at->expr : NULL;
			h = ca_hash_mix(h, (uint64_t)(uintptr_t)n->sigs[base + k]);
		}
		h = ca_hash_mix(h, jb->negreq != NULL);
		if (dynamic || n->pol.all_jobs_in_cluster)
			h = ca_hash_mix(h, j);
		uint32_t mcl = ca_matcher_cluster_of(n->matcher, jb->mjob), key = NONE;
		uint32_t t = (uint32_t)(h >> 11) & (cap - 1);
		for (; table[t]; t = (t + 1) & (cap - 1)) {
			struct key *k = &n->keys[table[t] - 1];
			if (k->hash == h && k->sub == jb->sub && k->mcl == mcl &&
			    (n->jobs[k->rep].negreq != NULL) == (jb->negreq != NULL) && !dynamic && !n->pol.all_jobs_in_cluster && sig_equal(n, k->sig, base)) {
				key = table[t] - 1;
				break;
			}
		}
		if (key == NONE) {
			if (n->nkeys == n->capkeys) {
				n->capkeys = n->capkeys ? n->capkeys * 2 : 64;
				n->keys = ca_xreallocarray(n->keys, n->capkeys, sizeof *n->keys);
			}
			key = n->nkeys++;
			struct key *k = &n->keys[key];
			memset(k, 0, sizeof *k);
			k->rep = j;
			k->sub = jb->sub;
			k->mcl = mcl;
			k->sig = base;
			k->hash = h;
			table[t] = key + 1;
		}
		jb->key = key;
	}
	free(table);
}

/* NEGOTIATOR_PRE/POST_JOB_RANK of a slot that no job attribute can change
 * are evaluated once. */
static void
prepare_fixed_ranks(ca_neg *n)
{
	const ca_ad *any = n->njobs ? n->jobs[0].ad : NULL;

	for (uint32_t i = 0; i < n->nslots; i++) {
		struct slot *s = &n->slots[i];
		for (int k = 0; k < 2; k++) {
			const ca_expr *e = k ? n->pol.post_job_rank : n->pol.pre_job_rank;
			pset names = { NULL, 0, 0 };
			const ca_name **v = NULL;
			uint32_t nv = 0, cap = 0;
			struct refs r = { &names, &v, &nv, &cap, CA_REF_OTHER, false };
			bool fixed = e == NULL || !ca_expr_refs(e, s->ad, CA_REFS_DEEP, ref_collect, &r);
			for (uint32_t q = 0; fixed && q < nv; q++)
				if (pset_has(&n->jobnames, v[q]))
					fixed = false;
			free(names.v);
			free(v);
			if (!fixed || any == NULL)
				continue;
			double x = neg_rank(n, e, s->ad, any);
			if (k) {
				s->post_fixed = true;
				s->post = x;
			} else {
				s->pre_fixed = true;
				s->pre = x;
			}
		}
		ca_arena_reset(&n->cx->scratch);
	}
}

/* Remote* attributes of a claimed slot, as they are now. */
static void
remote_eph(ca_neg *n, struct slot *s)
{
	if (s->remote == NONE || !n->pol.consider_preemption)
		return;
	const struct cust *c = &n->custs[s->remote];
	int cnt = c->group != n->groups.root ? EPH_R_N : EPH_R_GROUP;

	if (!s->eph) {
		for (int k = 0; k < cnt; k++)
			ovr_bind(&s->reph[k], &n->arena, s->ad,
			    ca_intern(eph_r_names[k], strlen(eph_r_names[k])));
		s->eph = true;
	}
	ovr_put(&s->reph[EPH_R_PRIO], ca_real(c->eup));
	ovr_put(&s->reph[EPH_R_INUSE], num_value(c->usage, true));
	if (cnt == EPH_R_N) {
		ovr_put(&s->reph[EPH_R_GROUP], ca_str(c->group->name,
		    (uint32_t)strlen(c->group->name)));
		ovr_put(&s->reph[EPH_R_GINUSE], num_value(c->group->usage, true));
		ovr_put(&s->reph[EPH_R_GQUOTA], num_value(c->group->quota, true));
	}
}

/* Give a key's representative job its Submitter* attributes as they are
 * now, for one evaluation of PREEMPTION_REQUIREMENTS or PREEMPTION_RANK;
 * eph_off takes them away again (the ad is then as it was read). */
static void
eph_on(ca_neg *n, struct job *j)
{
	const struct cust *c = &n->custs[j->sub];
	bool grouped = c->group != n->groups.root;

	if (j->eph == NULL) {
		j->eph = ca_arena_array(&n->arena, EPH_S_N, sizeof *j->eph);
		memset(j->eph, 0, EPH_S_N * sizeof *j->eph);
		for (int k = 0; k < EPH_S_N; k++)
			ovr_bind(&j->eph[k], &n->arena, j->ad,
			    ca_intern(eph_s_names[k], strlen(eph_s_names[k])));
	}
	ovr_put(&j->eph[EPH_S_PRIO], ca_real(c->eup));
	ovr_put(&j->eph[EPH_S_INUSE], num_value(c->usage, true));
	ovr_put(&j->eph[EPH_S_NEGGROUP], ca_str(c->group->name,
	    (uint32_t)strlen(c->group->name)));
	if (grouped) {
		ovr_put(&j->eph[EPH_S_GROUP], ca_str(c->group->name,
		    (uint32_t)strlen(c->group->name)));
		ovr_put(&j->eph[EPH_S_GINUSE], num_value(c->group->usage, true));
		ovr_put(&j->eph[EPH_S_GQUOTA], num_value(c->group->quota, true));
	}
}

static void
eph_off(struct job *j)
{
	for (int k = EPH_S_N; k-- > 0;)
		ovr_undo(&j->eph[k]);
}

static void
prepare(ca_neg *n)
{
	/* the names ephemeral attributes may take count as job names */
	for (int k = 0; k < EPH_S_N; k++)
		pset_add(&n->jobnames, ca_intern(eph_s_names[k], strlen(eph_s_names[k])));
	prepare_slots(n);
	prepare_jobs(n);

	/* groups: quotas of the pool, then demand and usage of each */
	ca_groups_quotas(&n->groups, n->pool);
	for (uint32_t c = 0; c < n->ncusts; c++) {
		struct cust *u = &n->custs[c];
		u->usage = u->usage0;
		u->group->usage += u->usage0;
		u->group->demand += u->usage0;
	}
	for (uint32_t j = 0; j < n->njobs; j++)
		n->custs[n->jobs[j].sub].group->demand += n->jobs[j].weight;
	ca_groups_allocate(&n->groups);

	for (uint32_t i = 0; i < n->nslots; i++)
		remote_eph(n, &n->slots[i]);

	/* every job into the matcher, then every slot but the consumption
	 * policy ones (their matches change as they are consumed) */
	n->matcher = ca_matcher_new(n->cx, n->cx->strict ? CA_M_STRICT : 0, 0);
	for (uint32_t j = 0; j < n->njobs; j++)
		n->jobs[j].mjob = ca_matcher_add_job(n->matcher, n->jobs[j].ad);
	ca_matcher_prepare(n->matcher);
	/* every slot seen first, so that the clusters are final; then each
	 * slot's matching clusters are kept (in slot order: no sort needed) */
	for (uint32_t i = 0; i < n->nslots; i++)
		if (!n->slots[i].cp)
			ca_matcher_observe(n->matcher, n->slots[i].ad);
	n->nclusters = ca_matcher_nclusters(n->matcher);
	n->hits = ca_xcalloc(n->nclusters + 1, sizeof *n->hits);
	for (uint32_t i = 0; i < n->nslots; i++) {
		const ca_slot_hit *sh;
		if (n->slots[i].cp)
			continue;
		uint32_t nh = ca_matcher_slot(n->matcher, n->slots[i].ad, i, false, &sh);
		for (uint32_t k = 0; k < nh; k++) {
			struct hitlist *l = &n->hits[sh[k].cluster];
			if (l->n == l->cap) {
				l->cap = l->cap ? l->cap * 2 : 8;
				l->v = ca_xreallocarray(l->v, l->cap, sizeof *l->v);
			}
			l->v[l->n].slot = i;
			l->v[l->n].jrank = sh[k].jrank;
			l->v[l->n].srank = sh[k].srank;
			l->n++;
		}
	}
	prepare_keys(n);
	prepare_fixed_ranks(n);
}

/* ---- candidates ---- */

static bool
better(const struct cand *a, const struct cand *b)
{
	if (a->pre != b->pre)
		return a->pre > b->pre;
	if (a->jrank != b->jrank)
		return a->jrank > b->jrank;
	if (a->post != b->post)
		return a->post > b->post;
	if (a->reason != b->reason)
		return a->reason > b->reason;
	if (a->prank != b->prank)
		return a->prank > b->prank;
	return a->slot < b->slot;
}

static void
sift_down(struct cand *h, uint32_t n, uint32_t i)
{
	struct cand x = h[i];

	for (;;) {
		uint32_t l = 2 * i + 1, best = i;
		const struct cand *bc = &x;
		if (l < n && better(&h[l], bc)) {
			best = l;
			bc = &h[l];
		}
		if (l + 1 < n && better(&h[l + 1], bc))
			best = l + 1;
		if (best == i)
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = x;
}

static void
heap_pop(struct cache *c)
{
	c->heap[0] = c->heap[--c->n];
	if (c->n > 1)
		sift_down(c->heap, c->n, 0);
}

static void
cache_push(struct cache *c, const struct cand *x)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->heap = ca_xreallocarray(c->heap, c->cap, sizeof *c->heap);
	}
	c->heap[c->n++] = *x;
}

static void
cache_clear(struct cache *c)
{
	free(c->heap);
	memset(c, 0, sizeof *c);
}

/* Is the effective priority of submitter a better than that of b? */
static bool
eup_better(const ca_neg *n, uint32_t a, uint32_t b)
{
	return n->custs[a].eup < n->custs[b].eup;
}

/* PREEMPTION_REQUIREMENTS for job (Submitter* set) on slot (Remote* set). */
static bool
preemption_ok(ca_neg *n, struct slot *s, struct job *rep)
{
	if (n->pr_always)
		return true;
	if (n->pol.preemption_req == NULL)
		return false;
	eph_on(n, rep);
	remote_eph(n, s);
	bool ok = ca_match_req(n->cx, n->pol.preemption_req, s->ad, rep->ad);
	eph_off(rep);
	ca_arena_reset(&n->cx->scratch);
	return ok;
}

/* The rules of 3.4.5 for a slot whose Requirements match: K_OK with
 * *reason set, or why it is skipped. PREEMPTION_REQUIREMENTS is left to
 * the caller (K_OK with reason Priority). */
static int
classify(ca_neg *n, const struct slot *s, uint32_t sub, double srank, bool only_rank,
    uint8_t *reason)
{
	if (s->taken)
		return K_TAKEN;
	if (s->skip != K_OK)
		return s->skip;
	if (!s->running) {
		if (only_rank)
			return K_RANKMODE;
		*reason = CA_NEG_NOPREEMPTION;
		return K_OK;
	}
	if (srank > s->cur_rank) {
		*reason = CA_NEG_RANK;
		return K_OK;
	}
	if (only_rank)
		return K_RANKMODE;
	if (s->remote == sub || s->remote == NONE)
		return K_SAMEUSER;
	if (srank < s->cur_rank)
		return K_RANKWORSE;
	if (!eup_better(n, sub, s->remote))
		return K_EUP;
	if (n->pol.preemption_req == NULL && !n->pr_always)
		return K_NOPR;
	*reason = CA_NEG_PRIORITY;
	return K_OK;
}

/* The sort keys of a candidate (jrank and srank already set). */
static void
cand_keys(ca_neg *n, struct cand *c, struct slot *s, struct job *rep, bool fresh)
{
	c->pre = s->pre_fixed && !fresh ? s->pre :
	    neg_rank(n, n->pol.pre_job_rank, s->ad, rep->ad);
	c->post = s->post_fixed && !fresh ? s->post :
	    neg_rank(n, n->pol.post_job_rank, s->ad, rep->ad);
	if (c->reason != CA_NEG_NOPREEMPTION) {
		eph_on(n, rep);
		remote_eph(n, s);
		c->prank = neg_rank(n, n->pol.preemption_rank, s->ad, rep->ad);
		eph_off(rep);
	} else
		c->prank = NEG_LOW;
	ca_arena_reset(&n->cx->scratch);
}

/* Consumption policy: can slot s give job rep what its policy consumes
 * now? Sets the amounts (cons[] for s->res) and the match cost. */
static bool
cp_fits(ca_neg *n, struct slot *s, struct job *rep, double *cons, double *cost,
    double *jrank, double *srank)
{
	uint32_t mark = n->nstack;
	bool any = false, ok = true;

	/* a request the job does not make counts as 0 */
	for (uint32_t r = 0; r < s->nres; r++)
		if (ca_ad_find(rep->ad, s->res[r].req) == NULL)
			tmp_set(n, rep->ad, s->res[r].req, ca_int(0));
	for (uint32_t r = 0; r < s->nres && ok; r++) {
		ca_value v = ca_eval_expr(n->cx, s->res[r].cons, s->ad, rep->ad);
		double need, have;
		if (v.kind == CA_INT)
			need = (double)v.u.i;
		else if (v.kind == CA_REAL && isfinite(v.u.r))
			need = v.u.r;
		else if (v.kind == CA_BOOL)
			need = v.u.b;
		else {
			ok = false;
			break;
		}
		ca_attr *at = ca_ad_find(s->ad, s->res[r].res);
		ca_value hv = at ? ca_eval_expr(n->cx, at->expr, s->ad, NULL) : ca_int(0);
		have = ca_is_num(hv) ? ca_rank_number(hv) : 0;
		if (need < 0 || need > have)
			ok = false;
		if (need > 0)
			any = true;
		cons[r] = need;
	}
	ca_arena_reset(&n->cx->scratch);
	if (!ok || !any) {
		tmp_undo(n, mark);
		return false;
	}
	/* the match with the job asking for exactly what it would consume */
	uint32_t mark2 = n->nstack;
	for (uint32_t r = 0; r < s->nres; r++)
		tmp_set(n, rep->ad, s->res[r].req, num_value(cons[r], true));
	ca_mad jm, sm;
	ca_mad_prepare(&jm, rep->ad);
	ca_mad_prepare(&sm, s->ad);
	ok = ca_match_symmetric(n->cx, &jm, &sm);
	if (ok) {
		*jrank = ca_match_rank(n->cx, jm.rank, rep->ad, s->ad);
		*srank = ca_match_rank(n->cx, sm.rank, s->ad, rep->ad);
	}
	ca_arena_reset(&n->cx->scratch);
	tmp_undo(n, mark2);
	if (ok) {
		/* the cost: the slot weight it loses */
		double before = slot_weight(n, s->ad);
		uint32_t mark3 = n->nstack;
		for (uint32_t r = 0; r < s->nres; r++) {
			ca_attr *at = ca_ad_find(s->ad, s->res[r].res);
			ca_value hv = at ? ca_eval_expr(n->cx, at->expr, s->ad, NULL) : ca_int(0);
			double have = ca_is_num(hv) ? ca_rank_number(hv) : 0;
			tmp_set(n, s->ad, s->res[r].res, num_value(have - cons[r],
			    hv.kind == CA_INT));
		}
		double after = slot_weight(n, s->ad);
		tmp_undo(n, mark3);
		*cost = before - after > 0 ? before - after : 0;
		ca_arena_reset(&n->cx->scratch);
	}
	tmp_undo(n, mark);
	return ok;
}

/* A consumption-policy candidate as the slot is now: 1 fits, 0 not. */
static int
cp_cand(ca_neg *n, struct slot *s, struct job *rep, struct cand *c)
{
	double cons[32];

	if (s->nres > 32 || rep->negreq != NULL)
		return 0;
	memset(c, 0, sizeof *c);
	if (!cp_fits(n, s, rep, cons, &c->cost, &c->jrank, &c->srank))
		return 0;
	c->slot = (uint32_t)(s - n->slots);
	c->version = s->version;
	c->multi = NONE;
	c->reason = CA_NEG_NOPREEMPTION;
	cand_keys(n, c, s, rep, true);
	return 1;
}

static int
rank_cmp_dslots(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct slot *x = &sort_n->slots[a], *y = &sort_n->slots[b];

	if (x->cur_rank != y->cur_rank)
		return x->cur_rank < y->cur_rank ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Partitionable slot preemption (ALLOW_PSLOT_PREEMPTION): the p-slot p
 * does not fit the job; add the resources of its dynamic slots the job may
 * preempt, lowest CurrentRank first, until it does. 1 and c set when it
 * does; *why the reason when not. */
static int
multi_cand(ca_neg *n, struct slot *p, struct job *rep, bool only_rank, struct cand *c,
    int *why)
{
	uint32_t *use = NULL, nuse = 0;
	bool all_rank = true;
	int rc = 0;

	*why = K_NOMATCH;
	if (p->nkids == 0 || p->taken || p->skip != K_OK)
		return 0;
	if (rep->negreq != NULL) {
		*why = K_NEGREQ;
		return 0;
	}
	use = ca_xcalloc(p->nkids, sizeof *use);
	for (uint32_t k = 0; k < p->nkids; k++) {
		struct slot *d = &n->slots[p->kids[k]];
		uint8_t reason;
		if (d->taken || !d->running)
			continue;
		if (!n->pol.early_preemption && attr_num(n, d->ad, "RetirementTimeRemaining", 0) > 0)
			continue;
		double sr = ca_match_rank(n->cx, ca_ad_lookup(d->ad, "Rank"), d->ad, rep->ad);
		struct slot tmp = *d;
		tmp.skip = K_OK;
		int k2 = classify(n, &tmp, rep->sub, sr, only_rank, &reason);
		if (k2 != K_OK) {
			*why = k2;
			continue;
		}
		if (reason == CA_NEG_PRIORITY && !preemption_ok(n, d, rep)) {
			*why = K_NOPR;
			continue;
		}
		if (reason != CA_NEG_RANK)
			all_rank = false;
		use[nuse++] = p->kids[k];
	}
	ca_arena_reset(&n->cx->scratch);
	if (nuse == 0)
		goto out;
	sort_n = n;
	qsort(use, nuse, sizeof *use, rank_cmp_dslots);
	sort_n = NULL;

	const ca_name *res[3] = { n->n_cpus, n->n_mem, n->n_disk };
	double sum[3];
	bool isint[3];
	for (int r = 0; r < 3; r++) {
		ca_attr *at = ca_ad_find(p->ad, res[r]);
		ca_value v = at ? ca_eval_expr(n->cx, at->expr, p->ad, NULL) : ca_int(0);
		sum[r] = ca_is_num(v) ? ca_rank_number(v) : 0;
		isint[r] = v.kind != CA_REAL;
	}
	ca_mad jm, sm;
	ca_mad_prepare(&jm, rep->ad);
	ca_mad_prepare(&sm, p->ad);
	for (uint32_t k = 0; k < nuse; k++) {
		struct slot *d = &n->slots[use[k]];
		for (int r = 0; r < 3; r++) {
			ca_attr *at = ca_ad_find(d->ad, res[r]);
			ca_value v = at ? ca_eval_expr(n->cx, at->expr, d->ad, NULL) : ca_int(0);
			sum[r] += ca_is_num(v) ? ca_rank_number(v) : 0;
		}
		uint32_t mark = n->nstack;
		for (int r = 0; r < 3; r++)
			tmp_set(n, p->ad, res[r], num_value(sum[r], isint[r]));
		if (ca_match_symmetric(n->cx, &jm, &sm)) {
			memset(c, 0, sizeof *c);
			c->slot = (uint32_t)(p - n->slots);
			c->jrank = ca_match_rank(n->cx, jm.rank, rep->ad, p->ad);
			c->srank = ca_match_rank(n->cx, sm.rank, p->ad, rep->ad);
			c->reason = all_rank ? CA_NEG_RANK : CA_NEG_PRIORITY;
			c->pr_done = true;
			c->cost = slot_weight(n, p->ad);
			cand_keys(n, c, p, rep, true);
			/* PREEMPTION_RANK of the p-slot has no running user: use the
			 * first preempted slot's */
			eph_on(n, rep);
			c->prank = neg_rank(n, n->pol.preemption_rank, n->slots[use[0]].ad, rep->ad);
			eph_off(rep);
			tmp_undo(n, mark);
			if (n->nmulti == n->capmulti) {
				n->capmulti = n->capmulti ? n->capmulti * 2 : 8;
				n->multi = ca_xreallocarray(n->multi, n->capmulti, sizeof *n->multi);
			}
			n->multi[n->nmulti].dslots = ca_xreallocarray(NULL, k + 1, sizeof(uint32_t));
			memcpy(n->multi[n->nmulti].dslots, use, (k + 1) * sizeof(uint32_t));
			n->multi[n->nmulti].n = k + 1;
			c->multi = n->nmulti++;
			rc = 1;
			break;
		}
		tmp_undo(n, mark);
		ca_arena_reset(&n->cx->scratch);
	}
	ca_arena_reset(&n->cx->scratch);
	if (rc == 0)
		*why = K_NOMATCH;
out:
	free(use);
	return rc;
}

/* Build the candidates of key k for the submitter's turn. */
static void
build(ca_neg *n, struct key *k, bool only_rank)
{
	struct cache *c = &k->cache;
	struct job *rep = &n->jobs[k->rep];
	uint32_t nh = n->hits[k->mcl].n;
	const ca_hit *hits = n->hits[k->mcl].v;
	bool *seen = NULL;

	cache_clear(c);
	c->built = true;
	c->only_rank = only_rank;
	if (n->pol.pslot_preemption)
		seen = ca_xcalloc(n->nslots ? n->nslots : 1, sizeof *seen);
	for (uint32_t i = 0; i < nh; i++) {
		struct slot *s = &n->slots[hits[i].slot];
		struct cand x;
		uint8_t reason = 0;
		if (seen)
			seen[hits[i].slot] = true;
		if (s->pslot && rep->negreq != NULL) {
			c->count[K_NEGREQ]++;
			continue;
		}
		int why = classify(n, s, k->sub, hits[i].srank, only_rank, &reason);
		if (why != K_OK) {
			c->count[why]++;
			continue;
		}
		memset(&x, 0, sizeof x);
		x.slot = hits[i].slot;
		x.jrank = hits[i].jrank;
		x.srank = hits[i].srank;
		x.reason = reason;
		x.cost = s->weight;
		x.multi = NONE;
		cand_keys(n, &x, s, rep, false);
		cache_push(c, &x);
	}
	for (uint32_t q = 0; q < n->ncp; q++) {
		struct slot *s = &n->slots[n->cpslots[q]];
		struct cand x;
		if (s->taken || s->skip != K_OK) {
			c->count[s->taken ? K_TAKEN : s->skip]++;
			continue;
		}
		if (only_rank) {
			c->count[K_RANKMODE]++;
			continue;
		}
		if (rep->negreq != NULL) {
			c->count[K_NEGREQ]++;
			continue;
		}
		if (cp_cand(n, s, rep, &x))
			cache_push(c, &x);
		else
			c->count[s->version ? K_CPFULL : K_NOMATCH]++;
	}
	if (seen) {
		for (uint32_t q = 0; q < n->npk; q++) {
			uint32_t i = n->pslots[q];
			struct slot *p = &n->slots[i];
			struct cand x;
			int why;
			if (seen[i])
				continue;
			if (multi_cand(n, p, rep, only_rank, &x, &why))
				cache_push(c, &x);
			else if (why != K_NOMATCH)
				c->count[why]++;
		}
		free(seen);
	}
	/* heapify */
	for (uint32_t i = c->n / 2; i-- > 0;)
		sift_down(c->heap, c->n, i);
}

/* ---- explain ---- */

static void
tr(ca_neg *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
tr(ca_neg *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&n->trace, fmt, ap);
	va_end(ap);
}

static void
tr_num(ca_neg *n, double x)
{
	if (x == NEG_LOW)
		strbuf_adds(&n->trace, "-");
	else
		ca_print_real(&n->trace, x);
}

static void
tr_keys(ca_neg *n, const struct cand *c)
{
	tr(n, "%s; PRE_JOB_RANK ", ca_neg_reason_name[c->reason]);
	tr_num(n, c->pre);
	tr(n, ", Rank ");
	tr_num(n, c->jrank);
	tr(n, ", POST_JOB_RANK ");
	tr_num(n, c->post);
	if (c->reason != CA_NEG_NOPREEMPTION) {
		tr(n, ", PREEMPTION_RANK ");
		tr_num(n, c->prank);
	}
}

/* Every slot, and what the rules make of it for the job being explained. */
static void
explain_slots(ca_neg *n, struct key *k, bool only_rank)
{
	struct job *rep = &n->jobs[k->rep];
	ca_mad jm;

	ca_mad_prepare(&jm, rep->ad);
	for (uint32_t i = 0; i < n->nslots; i++) {
		struct slot *s = &n->slots[i];
		ca_mad sm;
		struct cand x;
		uint8_t reason = 0;

		ca_mad_prepare(&sm, s->ad);
		tr(n, "    %s: ", s->name);
		if (s->pslot && rep->negreq != NULL) {
			tr(n, "skipped: %s (%s is negative)\n", skip_text[K_NEGREQ],
			    rep->negreq->spell);
			continue;
		}
		if (s->cp) {
			if (s->taken || s->skip) {
				tr(n, "skipped: %s\n", skip_text[s->taken ? K_TAKEN : s->skip]);
				continue;
			}
			if (only_rank) {
				tr(n, "skipped: %s\n", skip_text[K_RANKMODE]);
				continue;
			}
			if (cp_cand(n, s, rep, &x)) {
				tr(n, "candidate (consumption policy), ");
				tr_keys(n, &x);
				tr(n, "\n");
			} else
				tr(n, "%s\n", s->version ? skip_text[K_CPFULL] :
				    "Requirements or consumption policy do not fit");
			continue;
		}
		bool jr = ca_match_req(n->cx, jm.req, rep->ad, s->ad);
		bool sr = ca_match_req(n->cx, sm.req, s->ad, rep->ad);
		ca_arena_reset(&n->cx->scratch);
		if (!jr || !sr) {
			if (n->pol.pslot_preemption && s->pslot && s->nkids > 0) {
				int why;
				if (multi_cand(n, s, rep, only_rank, &x, &why)) {
					struct multi *m = &n->multi[x.multi];
					tr(n, "candidate by preempting");
					for (uint32_t q = 0; q < m->n; q++)
						tr(n, " %s", n->slots[m->dslots[q]].name);
					tr(n, ", ");
					tr_keys(n, &x);
					tr(n, "\n");
					continue;
				}
			}
			tr(n, "no match: %s\n", !jr && !sr ? "neither Requirements holds" :
			    !jr ? "the job's Requirements are false" :
			    "the slot's Requirements are false");
			continue;
		}
		double srank = ca_match_rank(n->cx, sm.rank, s->ad, rep->ad);
		int why = classify(n, s, k->sub, srank, only_rank, &reason);
		if (why == K_TAKEN) {
			const struct match *m = &n->matches[s->taken_by];
			tr(n, "skipped: already taken this cycle by %s (%s)\n",
			    n->jobs[m->job].id, n->custs[m->sub].name);
			continue;
		}
		if (why != K_OK) {
			tr(n, "skipped: %s", skip_text[why]);
			if (why == K_RANKWORSE || why == K_SAMEUSER) {
				tr(n, " (RANK ");
				tr_num(n, srank);
				tr(n, ", CurrentRank ");
				tr_num(n, s->cur_rank);
				tr(n, ")");
			} else if (why == K_EUP && s->remote != NONE) {
				tr(n, " (%s at ", n->custs[s->remote].name);
				tr_num(n, n->custs[s->remote].eup);
				tr(n, ")");
			}
			tr(n, "\n");
			continue;
		}
		memset(&x, 0, sizeof x);
		x.slot = i;
		x.reason = reason;
		x.jrank = ca_match_rank(n->cx, jm.rank, rep->ad, s->ad);
		cand_keys(n, &x, s, rep, false);
		if (reason == CA_NEG_PRIORITY && !preemption_ok(n, s, rep)) {
			tr(n, "skipped: %s (running %s)\n", skip_text[K_NOPR],
			    n->custs[s->remote].name);
			continue;
		}
		tr(n, "candidate, ");
		tr_keys(n, &x);
		if (s->running && s->remote != NONE)
			tr(n, "; would preempt %s of %s", s->remote_job ? s->remote_job : "a job",
			    n->custs[s->remote].name);
		tr(n, "\n");
	}
}

/* ---- matching ---- */

static bool
permits(double used, double cost, double allowed)
{
	return used + cost <= allowed + LIMIT_EPS || (used <= 0 && allowed > 0);
}

struct turn {
	double limit, limit_un;
	double used, used_un;
	double room;		/* what the group's quota leaves */
	double *pie_left;
	bool only_rank, limited;
	bool grouped;
	int spin;
};

/* Is the group's room, rather than the submitter's slice, what stops it? */
static bool
quota_binds(const struct turn *t)
{
	return t->grouped && t->room <= t->limit + LIMIT_EPS;
}

static int
limit_kind(const struct turn *t)
{
	return quota_binds(t) ? K_QUOTA : K_LIMIT;
}

static void
add_usage(ca_neg *n, uint32_t c, double w)
{
	n->custs[c].usage += w;
	n->custs[c].group->usage += w;
}

/* Slot s leaves the cycle. */
static void
take(ca_neg *n, struct slot *s, uint32_t match)
{
	(void)n;
	s->taken = true;
	s->taken_by = match;
}

static void
record_match(ca_neg *n, struct job *jb, struct key *k, struct cand *c, struct turn *t)
{
	struct slot *s = &n->slots[c->slot];
	uint32_t mi;

	if (n->nmatches == n->capmatches) {
		n->capmatches = n->capmatches ? n->capmatches * 2 : 64;
		n->matches = ca_xreallocarray(n->matches, n->capmatches, sizeof *n->matches);
	}
	mi = n->nmatches++;
	struct match *m = &n->matches[mi];
	memset(m, 0, sizeof *m);
	m->job = (uint32_t)(jb - n->jobs);
	m->slot = c->slot;
	m->sub = k->sub;
	m->reason = c->reason;
	m->jrank = c->jrank;
	m->srank = c->srank;
	m->eup = n->custs[k->sub].eup;
	m->cost = c->cost;
	m->multi = c->multi;
	m->remote = NONE;
	m->spin = t->spin;
	if (c->multi != NONE) {
		struct multi *mu = &n->multi[c->multi];
		for (uint32_t q = 0; q < mu->n; q++) {
			struct slot *d = &n->slots[mu->dslots[q]];
			take(n, d, mi);
			if (d->remote != NONE)
				add_usage(n, d->remote, -d->weight);
		}
		if (mu->n > 0) {
			m->remote = n->slots[mu->dslots[0]].remote;
			m->remote_job = n->slots[mu->dslots[0]].remote_job;
		}
		take(n, s, mi);
	} else if (s->cp) {
		double cons[32];
		double cost, jr, sr;
		/* deduct what the policy consumes; the p-slot stays for more */
		if (s->nres <= 32 && cp_fits(n, s, &n->jobs[k->rep], cons, &cost, &jr, &sr)) {
			for (uint32_t r = 0; r < s->nres; r++) {
				ca_attr *at = ca_ad_find(s->ad, s->res[r].res);
				ca_value hv = at ? ca_eval_expr(n->cx, at->expr, s->ad, NULL) : ca_int(0);
				double have = ca_is_num(hv) ? ca_rank_number(hv) : 0;
				ca_ad_set(s->ad, s->res[r].res, NULL, ca_expr_lit(s->ad->arena,
				    num_value(have - cons[r], hv.kind == CA_INT)));
				if (r < 3)
					m->consumed[r] = cons[r];
			}
			ca_arena_reset(&n->cx->scratch);
		}
		m->cp = true;
		s->version++;
		s->taken_by = mi;
		if (s->pre_fixed || s->post_fixed) {
			const ca_ad *any = n->jobs[0].ad;
			if (s->pre_fixed)
				s->pre = neg_rank(n, n->pol.pre_job_rank, s->ad, any);
			if (s->post_fixed)
				s->post = neg_rank(n, n->pol.post_job_rank, s->ad, any);
			ca_arena_reset(&n->cx->scratch);
		}
	} else {
		if (s->running && s->remote != NONE) {
			m->remote = s->remote;
			m->remote_job = s->remote_job;
			add_usage(n, s->remote, -s->weight);
		}
		take(n, s, mi);
	}
	add_usage(n, k->sub, c->cost);
	jb->match = mi;
	jb->why = CA_WHY_NONE;
	n->custs[k->sub].matches++;
	t->used += c->cost;
	if (c->reason == CA_NEG_NOPREEMPTION)
		t->used_un += c->cost;
	*t->pie_left -= c->cost;
}

/* The best candidate of key k the turn allows, taken; false when none. */
static bool
find(ca_neg *n, struct job *jb, struct key *k, struct turn *t, bool explain)
{
	struct cache *c = &k->cache;
	struct job *rep = &n->jobs[k->rep];

	if (!c->built || c->only_rank != t->only_rank)
		build(n, k, t->only_rank);
	while (c->n > 0) {
		struct cand *top = &c->heap[0];
		struct slot *s = &n->slots[top->slot];
		if (s->taken) {
			if (explain)
				tr(n, "    %s: taken since by %s\n", s->name,
				    n->jobs[n->matches[s->taken_by].job].id);
			c->count[K_TAKEN]++;
			heap_pop(c);
			continue;
		}
		if (top->multi != NONE) {
			/* the dynamic slots it would preempt must all be there */
			const struct multi *mu = &n->multi[top->multi];
			bool gone = false;
			for (uint32_t q = 0; q < mu->n; q++)
				gone |= n->slots[mu->dslots[q]].taken;
			if (gone) {
				c->count[K_TAKEN]++;
				heap_pop(c);
				continue;
			}
		}
		if (s->cp && top->version != s->version) {
			struct cand x;
			if (cp_cand(n, s, rep, &x)) {
				*top = x;
				sift_down(c->heap, c->n, 0);
			} else {
				c->count[K_CPFULL]++;
				heap_pop(c);
			}
			continue;
		}
		if (top->reason == CA_NEG_PRIORITY && !top->pr_done) {
			if (!preemption_ok(n, s, rep)) {
				c->count[K_NOPR]++;
				heap_pop(c);
				continue;
			}
			top->pr_done = true;
		}
		bool ok = true, un = top->reason == CA_NEG_NOPREEMPTION;
		int lk = K_LIMIT;
		if (un) {
			ok = permits(t->used_un, top->cost, t->limit_un);
			if (!ok)
				lk = limit_kind(t);
		} else if (top->reason == CA_NEG_PRIORITY) {
			ok = permits(t->used, top->cost, t->limit);
		}
		if (!ok) {
			if (explain)
				tr(n, "    %s: %s (it would cost %g; %g of %g used)\n", s->name,
				    skip_text[lk], top->cost, un ? t->used_un : t->used,
				    un ? t->limit_un : t->limit);
			c->count[lk]++;
			t->limited = true;
			heap_pop(c);
			continue;
		}
		struct cand x = *top;
		if (!s->cp)
			heap_pop(c);
		record_match(n, jb, k, &x, t);
		if (explain) {
			tr(n, "  -> matched to %s: ", s->name);
			tr_keys(n, &x);
			if (n->matches[jb->match].remote != NONE)
				tr(n, "; preempts %s of %s", n->matches[jb->match].remote_job ?
				    n->matches[jb->match].remote_job : "a job",
				    n->custs[n->matches[jb->match].remote].name);
			tr(n, "\n");
		}
		return true;
	}
	return false;
}

/* The summary reason of a job that found nothing. */
static uint8_t
why_of(const struct cache *c)
{
	uint8_t best = CA_WHY_NOMATCH;

	for (int s = 0; s < K_NSKIP; s++)
		if (c->count[s] && s != K_NOMATCH && why_rank[skip_why[s]] > why_rank[best])
			best = skip_why[s];
	return best;
}

enum { TURN_DONE, TURN_RESUME };

/* One submitter's turn in a spin: its jobs in job order until its slice
 * is used. */
static int
negotiate(ca_neg *n, uint32_t si, struct turn *t, bool rank_mode_ok)
{
	struct cust *u = &n->custs[si];
	uint32_t ex = n->explain_job;

	for (uint32_t q = 0; q < u->njobs; q++) {
		struct key *k = &n->keys[n->jobs[u->jobs[q]].key];
		k->rejected = false;
		cache_clear(&k->cache);
	}
	for (uint32_t q = 0; q < u->njobs; q++) {
		uint32_t ji = u->jobs[q];
		struct job *jb = &n->jobs[ji];
		struct key *k = &n->keys[jb->key];
		bool explain = ji == ex;

		if (jb->match != NONE)
			continue;
		if (k->rejected) {
			jb->why = k->rej_why;
			if (explain)
				tr(n, "  job %s skipped: job %s of the same autocluster got "
				    "nothing (%s)\n", jb->id, n->jobs[k->rej_job].id,
				    ca_neg_why_name[k->rej_why]);
			continue;
		}
		if (t->used >= t->limit - LIMIT_EPS && !(t->used <= 0 && t->limit > 0)) {
			if (rank_mode_ok && !t->only_rank)
				t->only_rank = true;
			else if (!rank_mode_ok) {
				/* the slice is used: this job and the rest wait */
				uint8_t w = quota_binds(t) ? CA_WHY_QUOTA : CA_WHY_LIMIT;
				for (uint32_t r = q; r < u->njobs; r++) {
					struct job *x = &n->jobs[u->jobs[r]];
					if (x->match == NONE)
						x->why = w;
					if (u->jobs[r] == ex)
						tr(n, "  job %s not reached: %s\n", x->id,
						    w == CA_WHY_QUOTA ? "the group's quota is reached" :
						    "the pie slice is used up");
				}
				t->limited = true;
				break;
			}
		}
		if (explain) {
			tr(n, "  job %s (%g of the slice used%s):\n", jb->id, t->used,
			    t->only_rank ? "; only RANK preemption now" : "");
			explain_slots(n, k, t->only_rank);
			/* the explanation evaluated with the ads as they are now;
			 * the cache below is the negotiator's own */
		}
		if (find(n, jb, k, t, explain))
			continue;
		k->rejected = true;
		k->rej_job = ji;
		k->rej_why = why_of(&k->cache);
		/* past its slice only RANK preemption was open to it: what the
		 * others took does not matter then */
		if (t->only_rank && k->rej_why == CA_WHY_OUTRANKED)
			k->rej_why = CA_WHY_LIMIT;
		if (k->rej_why == CA_WHY_LIMIT && quota_binds(t))
			k->rej_why = CA_WHY_QUOTA;
		jb->why = k->rej_why;
		if (k->rej_why == CA_WHY_LIMIT || k->rej_why == CA_WHY_QUOTA)
			t->limited = true;
		if (explain)
			tr(n, "  -> nothing this spin: %s\n", ca_neg_why_name[jb->why]);
	}
	for (uint32_t q = 0; q < u->njobs; q++)
		cache_clear(&n->keys[n->jobs[u->jobs[q]].key].cache);
	/* anything left that could still run another spin? */
	return t->limited ? TURN_RESUME : TURN_DONE;
}

static bool
has_idle(const ca_neg *n, const struct cust *u)
{
	(void)n;
	return u->matches < u->njobs;
}


static int
sub_order(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct cust *x = &sort_n->custs[a], *y = &sort_n->custs[b];

	if (x->eup != y->eup)
		return x->eup < y->eup ? -1 : 1;
	double sx = x->usage + x->limit > 0 ? x->usage / (x->usage + x->limit) : DBL_MAX;
	double sy = y->usage + y->limit > 0 ? y->usage / (y->usage + y->limit) : DBL_MAX;
	if (sx != sy)
		return sx < sy ? -1 : 1;
	int c = strcmp(x->name, y->name);
	return c ? c : (a < b ? -1 : a > b);
}

/* Shares by the inverse ratio of effective priorities over the submitters
 * still in the list, and each one's limits. */
static double
slice(ca_neg *n, uint32_t *list, uint32_t cnt, double quota, ca_group *g, double inv)
{
	double left = 0;
	double total = n->pool < quota ? n->pool : quota;

	for (uint32_t i = 0; i < cnt; i++)
		if (!n->custs[list[i]].done)
			inv += 1.0 / n->custs[list[i]].eup;
	for (uint32_t i = 0; i < cnt; i++) {
		struct cust *u = &n->custs[list[i]];
		if (u->done)
			continue;
		u->share = inv > 0 ? (1.0 / u->eup) / inv : 0;
		u->limit = u->share * total - u->usage;
		if (u->limit < 0)
			u->limit = 0;
		u->limit_un = u->limit;
		if (g != NULL) {
			double room = quota - g->usage;
			if (room < 0)
				room = 0;
			if (u->limit_un > room)
				u->limit_un = room;
		}
		if (!n->pol.consider_preemption)
			u->limit = u->limit_un;
		if (!u->pie_set) {
			u->pie = u->share * total;
			u->pie_set = true;
		}
		left += u->limit;
	}
	return left;
}

/* Mark the idle jobs of group g's submitters (all when g is NULL). */
static void
mark_idle(ca_neg *n, const ca_group *g, uint8_t why)
{
	for (uint32_t c = 0; c < n->ncusts; c++) {
		struct cust *u = &n->custs[c];
		if (g != NULL && u->group != g)
			continue;
		for (uint32_t q = 0; q < u->njobs; q++)
			if (n->jobs[u->jobs[q]].match == NONE)
				n->jobs[u->jobs[q]].why = why;
	}
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

		for (uint32_t i = 0; i < cnt; i++)
			if (!n->custs[list[i]].done && has_idle(n, &n->custs[list[i]]))
				active++;
			else
				n->custs[list[i]].done = true;
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
		if (spin == 1) {
			sort_n = n;
			qsort(list, cnt, sizeof *list, sub_order);
			sort_n = NULL;
		}
		for (uint32_t i = 0; i < cnt; i++) {
			struct cust *u = &n->custs[list[i]];
			if (u->done)
				continue;
			if (!has_idle(n, u)) {
				u->done = true;
				progress = true;
				continue;
			}
			/* the limit again: usage may have changed by preemption */
			double inv_share = u->share;
			double total = n->pool < quota ? n->pool : quota;
			double limit = inv_share * total - u->usage;
			if (limit < 0)
				limit = 0;
			double lu = limit;
			if (g != NULL) {
				double room = quota - g->usage;
				if (room < 0)
					room = 0;
				if (lu > room)
					lu = room;
			}
			if (!n->pol.consider_preemption)
				limit = lu;
			if (limit > pie_left)
				limit = pie_left > 0 ? pie_left : 0;
			if (lu > limit)
				lu = limit;
			if (spin > 1 && limit <= 0)
				continue;
			if (!counted) {
				n->spins++;
				counted = true;
			}
			struct turn t;
			memset(&t, 0, sizeof t);
			t.limit = limit;
			t.limit_un = lu;
			t.pie_left = &pie_left;
			t.grouped = g != NULL;
			t.room = g != NULL ? quota - g->usage : INFINITY;
			t.spin = spin;
			size_t before = u->matches;
			if (n->explain_job != NONE && n->jobs[n->explain_job].sub == list[i] &&
			    n->jobs[n->explain_job].match == NONE)
				tr(n, "spin %d: %s's turn: effective priority %g, share %.4g, "
				    "slice %g (%g in use)\n", spin, u->name, u->eup, u->share, limit,
				    u->usage);
			int r = negotiate(n, list[i], &t, rank_ok);
			if (u->matches > before)
				progress = true;
			if (r == TURN_DONE) {
				u->done = true;
				progress = true;
			}
		}
		if (!progress)
			break;
	}
}

/* Negotiate the submitters of one group (or all of them): the others
 * first, nice users on what they leave. */
static void
negotiate_group(ca_neg *n, ca_group *g, double quota)
{
	uint32_t *list = ca_xcalloc(n->ncusts + 1, sizeof *list);

	for (int nice = 0; nice < 2; nice++) {
		uint32_t cnt = 0;
		double runners = 0;
		for (uint32_t c = 0; c < n->ncusts; c++) {
			struct cust *u = &n->custs[c];
			if (u->nice != (nice == 1) || (g && u->group != g))
				continue;
			if (u->njobs == 0 && u->usage > 0 && n->pol.consider_preemption)
				runners += 1.0 / u->eup;
			if (u->njobs == 0 || !has_idle(n, u))
				continue;
			u->done = false;
			list[cnt++] = c;
		}
		if (cnt == 0)
			continue;
		uint32_t ex = n->explain_job;
		if (ex != NONE && n->jobs[ex].match == NONE &&
		    n->custs[n->jobs[ex].sub].nice == (nice == 1) &&
		    (g == NULL || n->custs[n->jobs[ex].sub].group == g)) {
			if (g != NULL)
				tr(n, "group %s: quota %g, allocation %g, %g in use\n", g->name,
				    g->quota, quota, g->usage);
			if (nice)
				tr(n, "nice users, after everybody else:\n");
		}
		spin_loop(n, list, cnt, quota, g, runners);
	}
	free(list);
}

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
	ca_group **order = ca_xcalloc(G->n, sizeof *order);
	double *old = ca_xcalloc(G->n, sizeof *old);

	for (int round = 1; round <= G->rounds; round++) {
		for (size_t i = 0; i < G->n; i++)
			order[i] = G->v[i];
		qsort(order, G->n, sizeof *order, group_order);
		size_t before = n->nmatches;
		for (size_t i = 0; i < G->n; i++) {
			ca_group *g = order[i];
			if (g->alloc <= 0 && !n->pol.consider_preemption) {
				mark_idle(n, g, CA_WHY_QUOTA);
				continue;
			}
			negotiate_group(n, g, g->alloc);
		}
		if (round == G->rounds || n->nmatches == before)
			break;
		/* groups that could not use their allocation give it back */
		for (size_t i = 0; i < G->n; i++) {
			ca_group *g = G->v[i];
			old[i] = g->alloc;
			if (g->usage < g->alloc - LIMIT_EPS)
				g->demand = g->usage;
		}
		ca_groups_allocate(G);
		bool more = false;
		for (size_t i = 0; i < G->n; i++)
			if (G->v[i]->alloc > old[i] + LIMIT_EPS)
				more = true;
		if (!more)
			break;
	}
	free(old);
	free(order);
}

size_t
ca_neg_run(ca_neg *n)
{
	if (n->ran)
		return n->nmatches;
	n->ran = true;
	prepare(n);
	if (n->explain_id != NULL && n->explain_job != NONE) {
		struct job *jb = &n->jobs[n->explain_job];
		struct cust *u = &n->custs[jb->sub];
		uint32_t nh = n->hits[n->keys[jb->key].mcl].n, pos = 0, alike = 0;
		for (uint32_t q = 0; q < u->njobs; q++)
			if (u->jobs[q] == n->explain_job)
				pos = q + 1;
		for (uint32_t j = 0; j < n->njobs; j++)
			alike += n->jobs[j].key == jb->key;
		tr(n, "job %s: submitter %s (effective priority %g%s%s%s)\n", jb->id, u->name,
		    u->eup, u->nice ? ", nice user" : "", u->group != n->groups.root ?
		    ", group " : "", u->group != n->groups.root ? u->group->name : "");
		tr(n, "  job order: %u of %u idle jobs of %s (JobPrio %g, ClusterId %lld, "
		    "ProcId %lld)\n", pos, u->njobs, u->name, jb->prio[2], (long long)jb->cluster,
		    (long long)jb->proc);
		tr(n, "  autocluster: %u idle job%s alike; %u slot%s match both Requirements\n",
		    alike, alike == 1 ? "" : "s", nh, nh == 1 ? "" : "s");
	} else if (n->explain_id != NULL && n->trace.len == 0)
		tr(n, "job %s: not among the jobs\n", n->explain_id);

	if (ca_groups_active(&n->groups))
		run_groups(n);
	else
		negotiate_group(n, NULL, INFINITY);

	/* jobs no turn reached: the slots were gone, or their group had none */
	for (uint32_t j = 0; j < n->njobs; j++) {
		struct job *jb = &n->jobs[j];
		if (jb->match != NONE || jb->why != CA_WHY_NONE)
			continue;
		uint32_t nh = n->hits[n->keys[jb->key].mcl].n;
		jb->why = nh > 0 || n->has_cp ? CA_WHY_OUTRANKED : CA_WHY_NOMATCH;
	}

	if (n->explain_id != NULL && n->explain_job != NONE) {
		struct job *jb = &n->jobs[n->explain_job];
		if (jb->match != NONE) {
			const struct match *m = &n->matches[jb->match];
			tr(n, "result: job %s matched to %s (%s) in spin %d\n", jb->id,
			    n->slots[m->slot].name, ca_neg_reason_name[m->reason], m->spin);
		} else
			tr(n, "result: job %s left idle: %s\n", jb->id,
			    jb->why ? ca_neg_why_name[jb->why] : "never reached");
	}
	return n->nmatches;
}

/* ---- results ---- */

size_t
ca_neg_nmatches(const ca_neg *n)
{
	return n->nmatches;
}

static void
set_lit(ca_ad *ad, const char *name, ca_value v)
{
	ca_ad_set(ad, ca_intern(name, strlen(name)), name, ca_expr_lit(ad->arena, v));
}

static void
set_str(ca_ad *ad, const char *name, const char *s)
{
	set_lit(ad, name, ca_str(s, (uint32_t)strlen(s)));
}

ca_ad *
ca_neg_match_ad(ca_neg *n, size_t i)
{
	const struct match *m = &n->matches[i];
	const struct job *jb = &n->jobs[m->job];
	ca_ad *ad = ca_ad_new();

	set_str(ad, "Event", "Match");
	set_lit(ad, "Time", ca_int(n->cx->now));
	set_str(ad, "Name", n->slots[m->slot].name);
	set_str(ad, "JobId", jb->id);
	set_str(ad, "Submitter", n->custs[m->sub].name);
	set_str(ad, "MatchReason", ca_neg_reason_name[m->reason]);
	set_lit(ad, "JobRank", ca_real(m->jrank));
	set_lit(ad, "SlotRank", ca_real(m->srank));
	if (m->reason != CA_NEG_NOPREEMPTION) {
		if (m->remote_job != NULL)
			set_str(ad, "PreemptedJobId", m->remote_job);
		if (m->remote != NONE)
			set_str(ad, "PreemptedUser", n->custs[m->remote].name);
	}
	if (m->multi != NONE) {
		const struct multi *mu = &n->multi[m->multi];
		ca_value *names = ca_arena_array(ad->arena, mu->n, sizeof *names);
		ca_value *ids = ca_arena_array(ad->arena, mu->n, sizeof *ids);
		ca_value *users = ca_arena_array(ad->arena, mu->n, sizeof *users);
		for (uint32_t q = 0; q < mu->n; q++) {
			const struct slot *d = &n->slots[mu->dslots[q]];
			names[q] = ca_str(d->name, (uint32_t)strlen(d->name));
			ids[q] = d->remote_job ? ca_str(d->remote_job, (uint32_t)strlen(d->remote_job)) :
			    ca_undef();
			users[q] = d->remote != NONE ? ca_str(n->custs[d->remote].name,
			    (uint32_t)n->custs[d->remote].len) : ca_undef();
		}
		set_lit(ad, "PreemptedSlots", ca_list(names, mu->n));
		set_lit(ad, "PreemptedJobIds", ca_list(ids, mu->n));
		set_lit(ad, "PreemptedUsers", ca_list(users, mu->n));
	}
	set_lit(ad, "RemoteUserPrio", ca_real(m->eup));
	if (m->cp) {
		set_lit(ad, "ConsumedCpus", num_value(m->consumed[0], true));
		set_lit(ad, "ConsumedMemory", num_value(m->consumed[1], true));
		set_lit(ad, "ConsumedDisk", num_value(m->consumed[2], true));
	}
	/* the job as it was read (the ephemeral attributes are gone) */
	ca_ad *copy = ca_ad_copy_in(ad->arena, jb->ad);
	ca_expr *e = ca_arena_zalloc(ad->arena, sizeof *e);
	e->node = CA_N_AD;
	e->u.ad = copy;
	ca_ad_set(ad, ca_intern("Job", 3), "Job", e);
	return ad;
}

void
ca_neg_get_stats(const ca_neg *n, ca_neg_stats *st)
{
	memset(st, 0, sizeof *st);
	st->slots = n->nslots;
	st->jobs = n->seen_jobs;
	st->idle = n->njobs;
	for (uint32_t c = 0; c < n->ncusts; c++)
		st->submitters += n->custs[c].njobs > 0;
	st->autoclusters = n->matcher ? ca_matcher_nclusters(n->matcher) : 0;
	st->keys = n->nkeys;
	st->matches = n->nmatches;
	st->spins = n->spins;
	st->pool = n->pool;
}

bool
ca_neg_submitter(const ca_neg *n, const char *name, ca_neg_subinfo *out)
{
	uint32_t c = cust_find(n, name, strlen(name));

	if (c == NONE || n->custs[c].njobs == 0)
		return false;
	const struct cust *u = &n->custs[c];
	memset(out, 0, sizeof *out);
	out->name = u->name;
	out->eup = u->eup;
	out->pie = u->pie;
	out->usage = u->usage0;
	out->matches = u->matches;
	out->group = u->group;
	for (uint32_t q = 0; q < u->njobs; q++) {
		const struct job *jb = &n->jobs[u->jobs[q]];
		if (jb->match != NONE)
			continue;
		out->idle_left++;
		out->why[jb->why ? jb->why : CA_WHY_LIMIT]++;
	}
	return true;
}

static int
cust_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct cust *x = &sort_n->custs[a], *y = &sort_n->custs[b];

	if (x->nice != y->nice)
		return x->nice ? 1 : -1;
	if (x->eup != y->eup)
		return x->eup < y->eup ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void
pad(strbuf *sb, size_t n)
{
	while (n-- > 0)
		strbuf_addc(sb, ' ');
}

/* %.2f, or %g when that is too wide */
static void
fmt_num(strbuf *sb, double x, int w)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%.2f", x);
	if ((int)strlen(buf) > w)
		snprintf(buf, sizeof buf, "%.3g", x);
	pad(sb, w > (int)strlen(buf) ? (size_t)(w - (int)strlen(buf)) : 0);
	strbuf_adds(sb, buf);
}

void
ca_neg_summary(ca_neg *n, strbuf *out)
{
	ca_neg_stats st;
	uint32_t *list = ca_xcalloc(n->ncusts + 1, sizeof *list), cnt = 0;
	size_t w = strlen("Submitter");

	ca_neg_get_stats(n, &st);
	strbuf_addf(out, "Cycle at %lld: %zu slot%s (pool weight %g), %zu idle job%s from %zu "
	    "submitter%s in %zu autocluster%s, %zu match%s in %d pie spin%s\n",
	    (long long)n->cx->now, st.slots, st.slots == 1 ? "" : "s", st.pool, st.idle,
	    st.idle == 1 ? "" : "s", st.submitters, st.submitters == 1 ? "" : "s",
	    st.autoclusters, st.autoclusters == 1 ? "" : "s", st.matches,
	    st.matches == 1 ? "" : "es", st.spins, st.spins == 1 ? "" : "s");
	for (uint32_t c = 0; c < n->ncusts; c++)
		if (n->custs[c].njobs > 0) {
			list[cnt++] = c;
			if (n->custs[c].len > w)
				w = n->custs[c].len;
		}
	sort_n = n;
	qsort(list, cnt, sizeof *list, cust_cmp);
	sort_n = NULL;
	strbuf_adds(out, "Submitter");
	pad(out, w - 9);
	strbuf_adds(out, "     EffPrio  PieSlice  InUse  Matches  Idle  Why idle\n");
	for (uint32_t i = 0; i < cnt; i++) {
		ca_neg_subinfo si;
		ca_neg_submitter(n, n->custs[list[i]].name, &si);
		strbuf_adds(out, si.name);
		pad(out, w - strlen(si.name));
		strbuf_addc(out, ' ');
		fmt_num(out, si.eup, 11);
		strbuf_addc(out, ' ');
		fmt_num(out, si.pie, 9);
		strbuf_addf(out, " %6g %8zu %5zu ", si.usage, si.matches, si.idle_left);
		bool first = true;
		for (int k = 1; k < CA_WHY_N; k++) {
			if (si.why[k] == 0)
				continue;
			strbuf_addf(out, "%s %zu %s", first ? "" : ",", si.why[k], ca_neg_why_name[k]);
			first = false;
		}
		while (out->len > 0 && out->buf[out->len - 1] == ' ')
			out->len--;
		out->buf[out->len] = '\0';
		strbuf_addc(out, '\n');
	}
	if (ca_groups_active(&n->groups)) {
		size_t gw = strlen("Group");
		for (size_t i = 0; i < n->groups.n; i++)
			if (strlen(n->groups.v[i]->name) > gw)
				gw = strlen(n->groups.v[i]->name);
		strbuf_adds(out, "Group");
		pad(out, gw - 5);
		strbuf_adds(out, "    Quota      Own   Demand  Allocated   InUse  Surplus\n");
		for (size_t i = 0; i < n->groups.n; i++) {
			const ca_group *g = n->groups.v[i];
			strbuf_adds(out, g->name);
			pad(out, gw - strlen(g->name));
			strbuf_addf(out, " %8g %8g %8g %10g %7g  %s\n", g->incoming, g->quota,
			    g->demand, g->alloc, g->usage, g->accept_surplus ? "yes" : "no");
		}
	}
	free(list);
}

void
ca_neg_free(ca_neg *n)
{
	if (n == NULL)
		return;
	ca_matcher_free(n->matcher);
	for (uint32_t i = 0; i < n->nslots; i++) {
		free(n->slots[i].kids);
		ca_ad_free(n->slots[i].ad);
	}
	for (uint32_t j = 0; j < n->njobs; j++)
		ca_ad_free(n->jobs[j].ad);
	for (uint32_t c = 0; c < n->ncusts; c++)
		free(n->custs[c].jobs);
	for (uint32_t k = 0; k < n->nkeys; k++)
		cache_clear(&n->keys[k].cache);
	for (uint32_t i = 0; i < n->nmulti; i++)
		free(n->multi[i].dslots);
	free(n->multi);
	free(n->cpslots);
	free(n->pslots);
	free(n->slots);
	free(n->jobs);
	free(n->custs);
	free(n->cmap.slot);
	for (uint32_t c = 0; n->hits && c < n->nclusters; c++)
		free(n->hits[c].v);
	free(n->hits);
	free(n->keys);
	free(n->sigs);
	free(n->signames);
	free(n->matches);
	free(n->stack);
	free(n->jobnames.v);
	estore_free(&n->store);
	ca_groups_free(&n->groups);
	strbuf_release(&n->warn);
	strbuf_release(&n->trace);
	ca_arena_free(&n->arena);
	free(n);
}
