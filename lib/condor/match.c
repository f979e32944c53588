/* match.c - matchmaking of jobs and slots: both Requirements, both Ranks,
 * and the autoclusters that let equal jobs be matched once per slot.
 *
 * Autoclusters. A job's match with a slot can only depend on the job
 * attributes that some evaluation reaches: the names the jobs' Requirements
 * and Rank reach in the job itself, and the names the slots' expressions
 * reach in the job (TARGET.x, or an unscoped x the slot does not define).
 * Those names are found by walking the trees (ca_expr_refs), closed over
 * both sides: a job name's definition may point back at the slot, whose
 * definition may point at the job again. Jobs whose definitions of all these
 * names are equal trees form one cluster, evaluated once through its first
 * job. Slots stream: when a slot reaches a job name no earlier ad reached,
 * the clusters split on it, and every part keeps the hits its parent had,
 * which stay right because no earlier evaluation could reach that name.
 *
 * Prepared expressions. A cluster's Requirements is cut into its && operands
 * (true exactly when all of them are), and in each operand and in the Rank
 * every subtree that reaches nothing of the slot is replaced by its value,
 * once. What is left of an operand often no longer refers to the job at all
 * (TARGET.Memory >= 2048): such trees are shared by all clusters and
 * evaluated at most once per slot. A slot whose own attributes reach back
 * into the job, and references that cannot be known, take the plain path:
 * the whole Requirements and Rank of the cluster's first job. The slots'
 * Requirements are prepared the same way over the slot, once it meets many
 * clusters (its START put in place): what is left reads only the job, and
 * is evaluated at most once per cluster.
 *
 * Two orders. Slot by slot (ca_matcher_slot), as slots stream through
 * classad-match; the hits recorded beyond a limit wait in sorted runs of a
 * temporary file. Cluster by cluster (ca_matcher_set_slots, then
 * ca_matcher_cluster_hits), as the negotiator asks for one autocluster's
 * slots when its turn comes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "classad.h"
#include "match.h"

/* ---- single pairs ---- */

void
ca_mad_prepare(ca_mad *m, const ca_ad *ad)
{
	static const char req[] = "Requirements", rank[] = "Rank";
	ca_attr *at;

	m->ad = ad;
	at = ca_ad_findn(ad, req, sizeof req - 1);
	m->req = at ? ca_attr_expr(ad, at) : NULL;
	at = ca_ad_findn(ad, rank, sizeof rank - 1);
	m->rank = at ? ca_attr_expr(ad, at) : NULL;
}

bool
ca_match_req(ca_ctx *cx, const ca_expr *req, const ca_ad *my, const ca_ad *target)
{
	if (req == NULL)
		return false;
	return ca_value_truth(ca_eval_expr(cx, req, my, target)) == 1;
}

double
ca_rank_number(ca_value v)
{
	switch (v.kind) {
	case CA_BOOL:
		return v.u.b ? 1.0 : 0.0;
	case CA_INT:
		return (double)v.u.i;
	case CA_REAL:
		/* NaN orders nothing; it counts as "not a number" */
		return isnan(v.u.r) ? 0.0 : v.u.r;
	default:
		return 0.0;
	}
}

double
ca_match_rank(ca_ctx *cx, const ca_expr *rank, const ca_ad *my, const ca_ad *target)
{
	if (rank == NULL)
		return 0.0;
	return ca_rank_number(ca_eval_expr(cx, rank, my, target));
}

bool
ca_match_symmetric(ca_ctx *cx, const ca_mad *job, const ca_mad *slot)
{
	return ca_match_req(cx, job->req, job->ad, slot->ad) &&
	    ca_match_req(cx, slot->req, slot->ad, job->ad);
}

/* ---- the matcher ---- */

struct cluster {
	uint32_t rep;		/* first job */
	uint32_t parent;	/* while splitting: the cluster it came from */
	ca_vec(ca_hit) hits;
	bool sorted;

	/* the prepared Requirements and Rank of the rep (see prepare_cluster) */
	bool prepared;
	bool fast;		/* the shared form below can be used */
	bool dead;		/* an operand that needs no slot is not true */
	uint32_t *conj, nconj;	/* shared operands, by id */
	ca_prog **own;		/* operands evaluated with the rep as MY */
	uint32_t nown;
	int32_t rank_id;	/* shared Rank, or -1 */
	const ca_expr *rank;	/* else the folded Rank (NULL: 0.0) */
	ca_prog *rankp;		/* its flat form (when not a literal) */

	/* whether the rep's definitions of the names the slots' shared
	 * operands read reach back into the slot (see cluster_pure) */
	uint32_t pure_upto;	/* of those names, checked so far */
	bool impure;
};

/* Expressions shared by clusters: folded operands of job Requirements, or
 * folded job Ranks, that refer to nothing of the job; each is evaluated at
 * most once per slot. */
struct shared_expr {
	const ca_expr *tree;
	ca_prog *prog;		/* its flat form, in the matcher's prep arena */
	uint64_t hash;
	double val;		/* operand: 1 true, 0 not; Rank: its number */
	uint32_t stamp;		/* the slot the value is for */
	uint8_t *memo;		/* cluster by cluster: an operand's value for
				 * each slot, 2 bits (known, true), or NULL */
	uint64_t bits;		/* a slot's operand: its value for each cluster
				 * of the batch, 2 bits (known, true) ... */
	uint32_t batch;		/* ... of this batch */
	uint8_t *cmemo;		/* slot by slot: its value for every cluster,
				 * 2 bits, or NULL ... */
	uint32_t cgen;		/* ... of this generation of clusters */
	size_t cgen_len;	/* its bytes */
};

struct shared {
	ca_vec(struct shared_expr) v;
	ca_dict index;
	size_t max;		/* the most it takes (0: no limit) */
};

struct ca_matcher {
	ca_ctx *cx;
	unsigned flags;
	uint32_t limit;
	int rflags;		/* ca_expr_refs flags for the context's rules */

	ca_vec(ca_mad) jobs;
	uint32_t *job_cl;

	ca_nameset J;		/* job-side names that matter, in discovery order */
	ca_nameset M;		/* slot-side names the jobs reach */
	uint32_t jwalked;	/* J[0, jwalked) walked in every job */
	uint32_t jsplit;	/* J[0, jsplit) decide the current clusters */
	bool dynamic;		/* references unknowable: one cluster per job */
	bool nocluster;		/* CA_M_NOCLUSTER: one cluster per job */
	bool prepared;
	uint32_t generation;	/* splits so far */

	struct cluster *cl;
	uint32_t ncl;

	uint32_t *mem_start, *mem;	/* members of each cluster, built on demand */
	bool mem_dirty;

	ca_vec(ca_slot_hit) shits;	/* hits of the last slot */

	ca_nameset follow;	/* per slot: its own names to walk */
	bool slot_other;	/* per walk: an OTHER reference was seen */
	bool slot_pure;		/* the slot's definitions the jobs reach do not
				 * reach back into the job */
	bool policy_seen;	/* some job refers to the slot's Requirements/Rank */

	ca_arena prep;		/* folded trees of the clusters */
	ca_arena fold;		/* a slot's folded trees, until what is kept is copied */
	ca_arena *fa;		/* where fold() makes nodes: prep or fold */
	struct shared sconj, srank;
	uint32_t stamp;		/* slots matched so far, for the shared values */

	uint32_t inlining;	/* fold: definitions being inlined ... */
	uint32_t in_call;	/* ... not inside calls and lists, whose
				 * arguments some builtins evaluate in other
				 * scopes (countMatches over records) */

	/* matching cluster by cluster (ca_matcher_set_slots) */
	ca_mad *sl;		/* the slots, Requirements and Rank looked up */
	struct sprep *sp;	/* per slot: its Requirements prepared */
	struct shared sslot;	/* the slots' shared operands */
	ca_nameset snames;	/* the job names they read */
	const ca_nameset *vol;	/* slot names whose values change meanwhile */
	ca_nameset *trace;	/* while set: the names the slot walks look up */
	uint32_t batch;		/* ca_matcher_cluster_hits calls so far */

	uint8_t *sf;		/* per slot: SF_* */
	double *sr;		/* per slot: its Rank when it does not read the job */
	uint32_t nsl;
	size_t memo_bytes;	/* memos of the shared operands so far */
	/* recorded hits beyond spill_max go to sorted runs in a temporary
	 * file (ca_matcher_spill) */
	size_t spill_max, held;	/* hits in memory: the most, and now */
	int fd;			/* the file, or -1 */
	uint64_t fsize;		/* its hits so far */
	ca_vec(struct spill_run) runs;
	ca_vec(uint32_t *) gparent;	/* after the first run: for each split, the
					 * parent of each new cluster */
	uint32_t gen0;		/* the generation of gparent.at[0] */
	ca_vec(ca_hit) merged;	/* ca_matcher_hits of a cluster with runs */
	uint32_t merged_cl;	/* the cluster merged there (+ 1), of ... */
	uint32_t merged_gen;	/* ... this generation */
	char err[160];		/* the first failure of the file, or "" */
};

/* A run of spilled hits: every cluster's hits of generation gen, sorted as
 * ca_matcher_hits gives them, cluster after cluster from hit `base` of the
 * file; start[c] .. start[c + 1] are cluster c's. */
struct spill_run {
	uint32_t gen, ncl;
	uint64_t base;
	uint64_t *start;
};

/* A slot's Requirements folded over the slot (see prepare_slot). */
struct sprep {
	uint32_t *conj;		/* shared operands, by id in sslot */
	ca_prog **own;		/* operands evaluated with the slot as MY */
	uint16_t nconj, nown;
	uint8_t state;		/* SP_* */
	uint8_t uses;		/* evaluations whole so far */
};

enum {
	SP_NEW,		/* not prepared yet: evaluated whole */
	SP_READY,
	SP_WHOLE,	/* cannot be prepared: evaluated whole */
	SP_DEAD		/* an operand that needs no job is not true */
};

/* A slot's Requirements is evaluated whole this many times before it is
 * folded: folding costs a few evaluations, and pays with many clusters. */
#define SP_USES		3

/* The clusters of a batch whose slot operands' values are kept. */
#define SP_BATCH	32

/* Slot by slot, a slot's Requirements is folded when there are this many
 * clusters to match it with; the slots' shared operands kept are at most
 * SSLOT_MAX (a slot's own values, such as its Disk, make new ones). */
#define SP_CLUSTERS	64
#define SSLOT_MAX	16384

/* What a slot is, whatever the cluster (ca_matcher_set_slots). */
#define SF_USE		0x1	/* it may match: Requirements there, and not false
				 * without the job */
#define SF_REQ_OTHER	0x2	/* its Requirements read the job */
#define SF_RANK_OTHER	0x4	/* its Rank reads the job */
#define SF_FAST		0x8	/* the clusters' shared operands may be used */
#define SF_GONE		0x10	/* dropped (ca_matcher_drop_slot) */

/* The memos of the shared operands stop growing here: beyond, an operand
 * is evaluated for each cluster again. */
#define MEMO_MAX	((size_t)64 << 20)

/* ---- prepared Requirements and Rank ---- */

static void
shared_free(struct shared *t)
{
	for (size_t i = 0; i < t->v.n; i++) {
		free(t->v.at[i].memo);
		free(t->v.at[i].cmemo);
	}
	ca_vec_free(&t->v);
	ca_dict_free(&t->index);
}

/* The id of tree e in t, added when new (a copy in prep with copy). */
static uint32_t
shared_id(struct shared *t, ca_arena *prep, const ca_expr *e, bool copy)
{
	uint64_t h = ca_expr_hash(0, e, 0);
	ca_dict_it it;

	for (uint32_t id = ca_dict_first(&t->index, h, &it); id != CA_DICT_NONE;
	    id = ca_dict_next(&t->index, &it))
		if (t->v.at[id].hash == h && ca_expr_same(t->v.at[id].tree, e, 0))
			return id;
	if (t->max && t->v.n >= t->max)
		return UINT32_MAX;	/* full: the caller evaluates e itself */
	ca_dict_add(&t->index, h, (uint32_t)t->v.n);
	if (copy)
		e = ca_expr_copy(prep, e);
	*ca_vec_push(&t->v) = (struct shared_expr){ e, ca_prog_new(prep, e), h, 0, 0, NULL, 0, 0, NULL,
	    0, 0 };
	return (uint32_t)t->v.n - 1;
}

struct reach {
	bool self, other;
};

static void
reach_ref(void *arg, const ca_name *nm, int side)
{
	struct reach *r = arg;

	(void)nm;
	if (side == CA_REF_SELF)
		r->self = true;
	else
		r->other = true;
}

/* Whether e calls random(): such a value is not the same twice. */
static bool
calls_random(const ca_expr *e)
{
	if (e == NULL)
		return false;
	switch (e->node) {
	case CA_N_LIT:
	case CA_N_ATTR:
		return false;
	case CA_N_SELECT:
		return calls_random(e->u.sel.base);
	case CA_N_CALL:
		if (e->u.call.fn && strcasecmp(e->u.call.fn->name, "random") == 0)
			return true;
		for (uint32_t i = 0; i < e->u.call.n; i++)
			if (calls_random(e->u.call.args[i]))
				return true;
		return false;
	case CA_N_LIST:
		for (uint32_t i = 0; i < e->u.list.n; i++)
			if (calls_random(e->u.list.items[i]))
				return true;
		return false;
	case CA_N_AD:
		for (uint32_t i = 0; i < e->u.ad->n; i++)
			if (calls_random(ca_attr_expr(e->u.ad, &e->u.ad->attrs[i])))
				return true;
		return false;
	default:
		return calls_random(e->u.k.a) || calls_random(e->u.k.b) || calls_random(e->u.k.c);
	}
}

static const ca_expr *fold(ca_matcher *m, const ca_expr *e, const ca_ad *job,
    bool *self_left);

/* The n expressions of v folded (the arguments of a call, the items of a
 * list), as a new array. */
static ca_expr **
fold_all(ca_matcher *m, ca_expr *const *v, uint32_t n, const ca_ad *job, bool *self_left)
{
	ca_expr **out = ca_arena_array(m->fa, n, sizeof *out);

	for (uint32_t i = 0; i < n; i++)
		out[i] = (ca_expr *)fold(m, v[i], job, self_left);
	return out;
}

/* A copy of node e (its children those of e) to change: never marked as
 * a shared tree's root, as e may be. */
static ca_expr *
node_copy(ca_matcher *m, const ca_expr *e)
{
	ca_expr *c = ca_arena_alloc(m->fa, sizeof *c);

	*c = *e;
	c->flags &= (uint16_t)~CA_EXPR_SHARED;
	return c;
}

/* e, an expression of job, with every subtree that reaches nothing of the
 * slot replaced by its value (partial evaluation: the result evaluates like
 * e for this job against any slot), and the job's own names that reach the
 * slot replaced by their definitions folded. *self_left is set when the
 * copy still refers to the job. The same serves a slot's expression, with
 * the roles swapped. New nodes go to the prep arena; untouched subtrees are
 * shared with the job's ad, which outlives the matcher's use of them. */
static const ca_expr *
fold(ca_matcher *m, const ca_expr *e, const ca_ad *job, bool *self_left)
{
	struct reach r = { false, false };
	ca_expr *c;

	if (e == NULL || e->node == CA_N_LIT)
		return e;
	if (ca_expr_refs(e, job, CA_REFS_DEEP | m->rflags, reach_ref, &r)) {
		*self_left = true;	/* cannot be known: keep it whole */
		return e;
	}
	if (!r.other) {
		ca_value v = ca_eval_expr(m->cx, e, job, m->cx->empty);
		if (v.kind != CA_LIST && v.kind != CA_AD && v.kind != CA_ERROR) {
			c = ca_expr_lit(m->fa, v);
			c->pos = e->pos;
			ca_arena_reset(&m->cx->scratch);
			return c;
		}
		ca_arena_reset(&m->cx->scratch);
		*self_left |= r.self;
		return e;
	}
	if (!r.self)
		return e;	/* only the slot: nothing to fold */
	if (ca_node_has_kids(e->node)) {
		c = node_copy(m, e);
		c->u.k.a = (ca_expr *)fold(m, e->u.k.a, job, self_left);
		c->u.k.b = (ca_expr *)fold(m, e->u.k.b, job, self_left);
		c->u.k.c = (ca_expr *)fold(m, e->u.k.c, job, self_left);
		return c;
	}
	switch (e->node) {
	case CA_N_CALL:
		c = node_copy(m, e);
		m->in_call++;
		c->u.call.args = fold_all(m, e->u.call.args, e->u.call.n, job, self_left);
		m->in_call--;
		return c;
	case CA_N_LIST:
		c = node_copy(m, e);
		m->in_call++;
		c->u.list.items = fold_all(m, e->u.list.items, e->u.list.n, job, self_left);
		m->in_call--;
		return c;
	case CA_N_ATTR:
		/* a name of the ad whose definition reaches the other side
		 * (a slot's START): its definition folded in its place, which
		 * evaluates in the same scopes (outside calls and lists) */
		if (m->inlining < 8 && m->in_call == 0 && (e->op == CA_SC_MY || e->op == CA_SC_NONE ||
		    e->op == CA_SC_ROOT)) {
			ca_attr *at = ca_ad_find(job, e->u.attr.name);
			if (at != NULL) {
				m->inlining++;
				const ca_expr *f = fold(m, ca_attr_expr(job, at), job, self_left);
				m->inlining--;
				return f;
			}
		}
		*self_left = true;
		return e;
	default:
		/* a selection, an ad literal */
		*self_left = true;
		return e;
	}
}

static void
add_own(ca_matcher *m, struct cluster *c, const ca_expr *e, uint32_t max)
{
	if (c->own == NULL)
		c->own = ca_arena_array(&m->prep, max, sizeof *c->own);
	c->own[c->nown++] = ca_prog_new(&m->prep, e);
}

/* Operands of a top-level && chain (parentheses are transparent). A
 * Requirements is true exactly when every operand is true, whatever the
 * order, so the operands can be taken one by one. */
typedef ca_vec(const ca_expr *) exprs;

static void
operands(const ca_expr *e, exprs *v)
{
	while (e->node == CA_N_PAREN)
		e = e->u.k.a;
	if (e->node == CA_N_BINARY && e->op == CA_T_AND) {
		operands(e->u.k.a, v);
		operands(e->u.k.b, v);
		return;
	}
	*ca_vec_push(v) = e;
}

/* Prepare cluster c: its rep's Requirements as shared and own operands,
 * its Rank as a shared or own folded tree. Without it (dynamic references,
 * random()), the cluster evaluates the rep's expressions whole. */
static void
prepare_cluster(ca_matcher *m, struct cluster *c)
{
	const ca_mad *job = &m->jobs.at[c->rep];
	exprs ops = CA_VEC_INIT;

	c->prepared = true;
	c->fast = false;
	c->rank_id = -1;
	if (m->dynamic || job->req == NULL || calls_random(job->req) ||
	    (job->rank && calls_random(job->rank)))
		return;
	operands(job->req, &ops);
	uint32_t nops = (uint32_t)ops.n;
	c->conj = ca_arena_array(&m->prep, nops, sizeof *c->conj);
	for (uint32_t i = 0; i < nops && !c->dead; i++) {
		bool self_left = false;
		const ca_expr *f = fold(m, ops.at[i], job->ad, &self_left);
		if (f->node == CA_N_LIT) {
			if (ca_value_truth(f->u.lit) != 1)
				c->dead = true;
		} else if (self_left)
			add_own(m, c, f, nops);
		else
			c->conj[c->nconj++] = shared_id(&m->sconj, &m->prep, f, false);
	}
	ca_vec_free(&ops);
	if (job->rank) {
		bool self_left = false;
		c->rank = fold(m, job->rank, job->ad, &self_left);
		if (!self_left && c->rank->node != CA_N_LIT)
			c->rank_id = (int32_t)shared_id(&m->srank, &m->prep, c->rank, false);
		else if (c->rank->node != CA_N_LIT)
			c->rankp = ca_prog_new(&m->prep, c->rank);
	}
	c->fast = true;
}

static inline bool
prog_true(ca_ctx *cx, const ca_prog *p, const ca_ad *my, const ca_ad *target)
{
	return ca_value_truth(ca_prog_eval(cx, p, my, target)) == 1;
}

/* Make *memo of len bytes, unless the memos would take more than
 * MEMO_MAX: false then. */
static bool
memo_make(ca_matcher *m, uint8_t **memo, size_t len)
{
	if (m->memo_bytes + len > MEMO_MAX)
		return false;
	*memo = ca_xcalloc(len, 1);
	m->memo_bytes += len;
	return true;
}

/* p (an operand that reads only one side: MY is an empty ad) with target,
 * its value kept as entry i of *memo, 2 bits (known, true), made of len
 * bytes when first needed (memo_make). Inline: it is asked for every pair. */
static inline bool
memo_eval(ca_matcher *m, uint8_t **memo, size_t len, uint32_t i, const ca_prog *p,
    const ca_ad *target)
{
	ca_ctx *cx = m->cx;

	if (*memo == NULL && !memo_make(m, memo, len))
		return prog_true(cx, p, cx->empty, target);
	uint8_t *b = &(*memo)[i >> 2];
	unsigned sh = (i & 3) * 2, v = (*b >> sh) & 3;
	if (v == 0) {
		v = prog_true(cx, p, cx->empty, target) ? 3 : 1;
		*b |= (uint8_t)(v << sh);
	}
	return v == 3;
}

/* Shared operand x for the slot: slot by slot (si NO_SLOT) its value is
 * kept for the slot matched now, cluster by cluster in a memo per slot
 * number si. No reference to the job is left: MY is an empty ad, so that
 * unscoped names fall back to the slot as they did. */
#define NO_SLOT UINT32_MAX

static bool
conj_true(ca_matcher *m, struct shared_expr *x, const ca_ad *slot, uint32_t si)
{
	ca_ctx *cx = m->cx;

	if (si == NO_SLOT) {
		if (x->stamp != m->stamp) {
			x->val = prog_true(cx, x->prog, cx->empty, slot);
			x->stamp = m->stamp;
		}
		return x->val != 0;
	}
	return memo_eval(m, &x->memo, m->nsl / 4 + 1, si, x->prog, slot);
}

/* The job side of the match for the cluster c and the slot (slot number
 * si, or NO_SLOT: see conj_true): Requirements true, and then the job's
 * Rank in *jr. */
static bool
job_side(ca_matcher *m, struct cluster *c, const ca_ad *slot, uint32_t si, bool fast,
    double *jr)
{
	ca_ctx *cx = m->cx;
	const ca_mad *job = &m->jobs.at[c->rep];

	if (!c->prepared)
		prepare_cluster(m, c);
	if (!fast || !c->fast) {
		if (!ca_match_req(cx, job->req, job->ad, slot))
			return false;
		*jr = ca_match_rank(cx, job->rank, job->ad, slot);
		return true;
	}
	if (c->dead)
		return false;
	struct shared_expr *conj = m->sconj.v.at;
	for (uint32_t k = 0; k < c->nconj; k++)
		if (!conj_true(m, &conj[c->conj[k]], slot, si))
			return false;
	for (uint32_t k = 0; k < c->nown; k++)
		if (!prog_true(cx, c->own[k], job->ad, slot))
			return false;
	if (c->rank_id >= 0) {
		struct shared_expr *x = &m->srank.v.at[c->rank_id];
		if (si != NO_SLOT)
			*jr = ca_rank_number(ca_prog_eval(cx, x->prog, cx->empty, slot));
		else {
			if (x->stamp != m->stamp) {
				x->val = ca_rank_number(ca_prog_eval(cx, x->prog, cx->empty,
				    slot));
				x->stamp = m->stamp;
			}
			*jr = x->val;
		}
	} else if (c->rank && c->rank->node == CA_N_LIT)
		*jr = ca_rank_number(c->rank->u.lit);
	else if (c->rankp)
		*jr = ca_rank_number(ca_prog_eval(cx, c->rankp, job->ad, slot));
	else
		*jr = 0.0;	/* no Rank */
	return true;
}

ca_matcher *
ca_matcher_new(ca_ctx *cx, unsigned flags, uint32_t limit)
{
	ca_matcher *m = ca_xcalloc(1, sizeof *m);

	m->cx = cx;
	m->flags = flags;
	m->limit = limit;
	m->rflags = (flags & CA_M_STRICT) ? CA_REFS_STRICT : 0;
	m->nocluster = (flags & CA_M_NOCLUSTER) != 0;
	m->fd = -1;
	m->fa = &m->prep;
	return m;
}

void
ca_matcher_free(ca_matcher *m)
{
	if (m == NULL)
		return;
	for (uint32_t c = 0; c < m->ncl; c++)
		ca_vec_free(&m->cl[c].hits);
	free(m->cl);
	ca_vec_free(&m->jobs);
	free(m->job_cl);
	free(m->mem_start);
	free(m->mem);
	ca_vec_free(&m->shits);
	ca_nameset_free(&m->J);
	ca_nameset_free(&m->M);
	ca_nameset_free(&m->follow);
	shared_free(&m->sconj);
	shared_free(&m->srank);
	ca_arena_free(&m->prep);
	ca_arena_free(&m->fold);
	free(m->sl);
	free(m->sf);
	free(m->sr);
	free(m->sp);
	shared_free(&m->sslot);
	ca_nameset_free(&m->snames);
	if (m->fd >= 0)
		close(m->fd);
	for (size_t i = 0; i < m->runs.n; i++)
		free(m->runs.at[i].start);
	ca_vec_free(&m->runs);
	for (size_t i = 0; i < m->gparent.n; i++)
		free(m->gparent.at[i]);
	ca_vec_free(&m->gparent);
	ca_vec_free(&m->merged);
	free(m);
}

uint32_t
ca_matcher_add_job(ca_matcher *m, const ca_ad *job)
{
	if (m->prepared)
		return UINT32_MAX;	/* too late: the clusters are made */
	ca_mad_prepare(ca_vec_push(&m->jobs), job);
	return (uint32_t)m->jobs.n - 1;
}

uint32_t
ca_matcher_njobs(const ca_matcher *m)
{
	return (uint32_t)m->jobs.n;
}

const ca_ad *
ca_matcher_job(const ca_matcher *m, uint32_t job)
{
	return m->jobs.at[job].ad;
}

static void
job_ref(void *arg, const ca_name *nm, int side)
{
	ca_matcher *m = arg;

	ca_nameset_add(side == CA_REF_SELF ? &m->J : &m->M, nm);
	if (side == CA_REF_OTHER && (nm == m->M.v.at[0] || nm == m->M.v.at[1]))
		m->policy_seen = true;
}

/* Walk the definitions of the job names not yet walked, in every job,
 * until no new name appears. */
static void
walk_jobs(ca_matcher *m)
{
	for (; m->jwalked < m->J.v.n; m->jwalked++) {
		const ca_name *nm = m->J.v.at[m->jwalked];
		for (uint32_t j = 0; j < (uint32_t)m->jobs.n; j++) {
			ca_attr *at = ca_ad_find(m->jobs.at[j].ad, nm);
			if (at && ca_expr_refs(ca_attr_expr(m->jobs.at[j].ad, at), m->jobs.at[j].ad, m->rflags, job_ref, m))
				m->dynamic = true;
		}
	}
}

/* Hash of job j's definitions of J[from, J.n) and of its parent cluster. */
static uint64_t
sig_hash(const ca_matcher *m, uint32_t j, uint32_t from)
{
	uint64_t h = ca_hash_mix(0, m->job_cl ? m->job_cl[j] : 0);

	for (uint32_t i = from; i < m->J.v.n; i++) {
		ca_attr *at = ca_ad_find(m->jobs.at[j].ad, m->J.v.at[i]);
		h = at ? ca_expr_hash(ca_hash_mix(h, 1), ca_attr_expr(m->jobs.at[j].ad, at), 0) : ca_hash_mix(h, 2);
	}
	return h;
}

static bool
sig_same(const ca_matcher *m, uint32_t a, uint32_t b, uint32_t from)
{
	for (uint32_t i = from; i < m->J.v.n; i++) {
		ca_attr *x = ca_ad_find(m->jobs.at[a].ad, m->J.v.at[i]);
		ca_attr *y = ca_ad_find(m->jobs.at[b].ad, m->J.v.at[i]);
		if ((x == NULL) != (y == NULL))
			return false;
		if (x && !ca_expr_same(ca_attr_expr(m->jobs.at[a].ad, x), ca_attr_expr(m->jobs.at[b].ad, y), 0))
			return false;
	}
	return true;
}

/* Split every cluster by the job names J[jsplit, J.n) (or into single jobs
 * once references are dynamic). New clusters are numbered in the order of
 * their first job and start with their parent's hits. */
static void
split(ca_matcher *m)
{
	uint32_t from = m->jsplit, n = (uint32_t)m->jobs.n;
	ca_dict table = CA_DICT_INIT;
	uint64_t *sig;		/* each new cluster's signature hash */
	struct cluster *ncl;
	uint32_t nn = 0;

	bool single = m->dynamic || m->nocluster;

	if (m->prepared && !single && from == m->J.v.n)
		return;
	if (m->prepared && single && m->ncl == n)
		return;		/* already one job per cluster */
	sig = ca_xcalloc(n ? n : 1, sizeof *sig);
	ncl = ca_xcalloc(n ? n : 1, sizeof *ncl);
	for (uint32_t j = 0; j < n; j++) {
		uint32_t parent = m->prepared ? m->job_cl[j] : UINT32_MAX;
		uint32_t c = UINT32_MAX;
		if (!single) {
			uint64_t h = sig_hash(m, j, from);
			ca_dict_it it;
			/* the low bits of the mix are weak: the table takes higher ones */
			for (uint32_t t = ca_dict_first(&table, h >> 7, &it); t != CA_DICT_NONE;
			    t = ca_dict_next(&table, &it))
				if (sig[t] == h && ncl[t].parent == parent &&
				    sig_same(m, ncl[t].rep, j, from)) {
					c = t;
					break;
				}
			if (c == UINT32_MAX) {
				sig[nn] = h;
				ca_dict_add(&table, h >> 7, nn);
			}
		}
		if (c == UINT32_MAX) {
			c = nn++;
			ncl[c].rep = j;
			ncl[c].parent = parent;
			if (parent != UINT32_MAX) {
				const struct cluster *p = &m->cl[parent];
				ca_vec_reserve(&ncl[c].hits, p->hits.n);
				if (p->hits.n)
					memcpy(ncl[c].hits.at, p->hits.at, p->hits.n * sizeof *p->hits.at);
				ncl[c].hits.n = p->hits.n;
				ncl[c].sorted = p->sorted;
			}
		}
		if (m->job_cl)
			m->job_cl[j] = c;
	}
	ca_dict_free(&table);
	free(sig);
	for (uint32_t c = 0; c < m->ncl; c++)
		ca_vec_free(&m->cl[c].hits);
	free(m->cl);
	m->held = 0;
	for (uint32_t c = 0; c < nn; c++)
		m->held += ncl[c].hits.n;
	if (m->runs.n > 0) {
		/* the runs name the clusters of their generation */
		uint32_t *pm = ca_xcalloc(nn ? nn : 1, sizeof *pm);
		for (uint32_t c = 0; c < nn; c++)
			pm[c] = ncl[c].parent;
		*ca_vec_push(&m->gparent) = pm;
	}
	m->cl = ncl;
	m->ncl = nn;
	m->jsplit = m->J.v.n;
	m->mem_dirty = true;
	m->generation++;
}

void
ca_matcher_prepare(ca_matcher *m)
{
	if (m->prepared)
		return;
	ca_nameset_add(&m->J, ca_intern("Requirements", 12));
	ca_nameset_add(&m->J, ca_intern("Rank", 4));
	ca_nameset_add(&m->M, ca_intern("Requirements", 12));
	ca_nameset_add(&m->M, ca_intern("Rank", 4));
	walk_jobs(m);
	m->job_cl = ca_xcalloc((uint32_t)m->jobs.n ? (uint32_t)m->jobs.n : 1, sizeof *m->job_cl);
	/* the first split of "all jobs": job_cl is all zero, parent unset */
	split(m);
	m->prepared = true;
}

static void
slot_ref(void *arg, const ca_name *nm, int side)
{
	ca_matcher *m = arg;

	if (side == CA_REF_OTHER) {
		ca_nameset_add(&m->J, nm);
		m->slot_other = true;
	} else
		ca_nameset_add(&m->follow, nm);
}

/* Whether a slot is pure: the definitions of the slot names the jobs
 * reach do not reach back into the job (slot_other), nor does a job read
 * a Requirements or Rank of the slot that reads the job. */
static bool
slot_pure(const ca_matcher *m, bool req_other, bool rank_other)
{
	return !m->slot_other && !(m->policy_seen && (req_other || rank_other));
}

/* The tree of name nm in slot ad, NULL when it has none to walk (missing,
 * or a literal); the name is noted in m->trace when the walks are traced. */
static const ca_expr *
slot_tree(ca_matcher *m, const ca_ad *ad, const ca_name *nm)
{
	if (m->trace != NULL)
		ca_nameset_add(m->trace, nm);
	ca_attr *at = ca_ad_find(ad, nm);
	return at != NULL ? ca_attr_tree(at) : NULL;
}

/* Walk what the slot's Requirements and Rank reach, and the slot's
 * definitions of the names the jobs reach; the job names found join J.
 * Sets *req_other / *rank_other when Requirements / Rank reach the job. */
static void
walk_slot(ca_matcher *m, const ca_mad *s, bool *req_other, bool *rank_other)
{
	const ca_expr *roots[2] = { s->req, s->rank };
	bool *flag[2] = { req_other, rank_other };

	for (int r = 0; r < 2; r++) {
		ca_nameset_clear(&m->follow);
		m->slot_other = false;
		if (ca_expr_refs_looked(roots[r], s->ad, m->rflags, slot_ref, m, m->trace))
			m->dynamic = true;
		for (uint32_t i = 0; i < m->follow.v.n; i++) {
			const ca_expr *t = slot_tree(m, s->ad, m->follow.v.at[i]);
			if (t && ca_expr_refs_looked(t, s->ad, m->rflags, slot_ref, m, m->trace))
				m->dynamic = true;
		}
		*flag[r] = m->slot_other;
	}
	/* M[0] and M[1] are Requirements and Rank, walked above */
	ca_nameset_clear(&m->follow);
	m->slot_other = false;
	for (uint32_t i = 2; i < m->M.v.n; i++)
		ca_nameset_add(&m->follow, m->M.v.at[i]);
	for (uint32_t i = 0; i < m->follow.v.n; i++) {
		const ca_expr *t = slot_tree(m, s->ad, m->follow.v.at[i]);
		if (t && ca_expr_refs_looked(t, s->ad, m->rflags, slot_ref, m, m->trace))
			m->dynamic = true;
	}
	m->slot_pure = slot_pure(m, *req_other, *rank_other);
}

static int
hit_cmp(const void *pa, const void *pb)
{
	const ca_hit *a = pa, *b = pb;

	if (a->jrank != b->jrank)
		return a->jrank > b->jrank ? -1 : 1;
	return a->slot < b->slot ? -1 : a->slot > b->slot;
}

static void
sort_hits(struct cluster *c, uint32_t limit)
{
	if (!c->sorted && c->hits.n > 1)
		qsort(c->hits.at, c->hits.n, sizeof *c->hits.at, hit_cmp);
	c->sorted = true;
	if (limit && c->hits.n > limit)
		c->hits.n = limit;
}

static void spill(ca_matcher *m);

static void
add_hit(ca_matcher *m, struct cluster *c, uint32_t slot, double jr, double sr)
{
	/* with a limit, only the best `limit` can ever be shown: the order is
	 * total and later slots lose ties */
	if (c->hits.n == c->hits.cap && m->limit && c->hits.n >= 2 * m->limit) {
		m->held -= c->hits.n;
		sort_hits(c, m->limit);
		m->held += c->hits.n;
	}
	*ca_vec_push(&c->hits) = (ca_hit){ jr, sr, slot };
	c->sorted = false;
	m->merged_cl = 0;
	if (++m->held > m->spill_max && m->spill_max && m->limit == 0 && m->err[0] == 0)
		spill(m);
}

/* Close the names over the slot and the jobs; split if needed. */
static void
close_over(ca_matcher *m, const ca_mad *s, bool *req_other, bool *rank_other)
{
	for (;;) {
		uint32_t mn = m->M.v.n;
		walk_slot(m, s, req_other, rank_other);
		walk_jobs(m);
		if (m->M.v.n == mn)
			break;
	}
	split(m);
}

/* What walking the slots of a kind found (ca_walkkinds): the slot names
 * the jobs reach (M) as they were then, what close_over said (slot_pure
 * is made again from slot_other, for a job may since have been seen to
 * read the slots' Requirements or Rank), and whether the slots read a
 * volatile name (-1: not asked yet). */
struct walked {
	uint32_t mn;
	bool req_other, rank_other, slot_other;
	int8_t vol;
};

struct slotkinds {
	ca_walkkinds kinds;
	struct walked w[CA_WALKKINDS];
	ca_nameset looked;
};

/* Note in sk->looked what the next walks of a slot look up in it, from
 * its Requirements and Rank (M's first names), the roots of the walks. */
static void
trace_slot(ca_matcher *m, struct slotkinds *sk)
{
	ca_nameset_clear(&sk->looked);
	ca_nameset_add(&sk->looked, m->M.v.at[0]);
	ca_nameset_add(&sk->looked, m->M.v.at[1]);
	m->trace = &sk->looked;
}

/* close_over for slot s, or what it found for a slot of its kind while M
 * is as it was then. k is s's kind when known (-1: found here). Returns
 * the kind, or -1. */
static int
close_over_kind(ca_matcher *m, const ca_mad *s, struct slotkinds *sk, int k, bool *req_other,
    bool *rank_other)
{
	if (k < 0)
		k = ca_walkkinds_find(&sk->kinds, s->ad);

	if (k >= 0 && sk->w[k].mn == m->M.v.n) {
		*req_other = sk->w[k].req_other;
		*rank_other = sk->w[k].rank_other;
		m->slot_other = sk->w[k].slot_other;
		m->slot_pure = slot_pure(m, *req_other, *rank_other);
		return k;
	}
	trace_slot(m, sk);
	close_over(m, s, req_other, rank_other);
	m->trace = NULL;
	int8_t vol = k >= 0 ? sk->w[k].vol : -1;
	if ((k = ca_walkkinds_note(&sk->kinds, k, s->ad, &sk->looked)) >= 0)
		sk->w[k] = (struct walked){ m->M.v.n, *req_other, *rank_other, m->slot_other, vol };
	return k;
}

static bool reaches_volatile(ca_matcher *m, const ca_mad *s);

/* reaches_volatile for slot s of kind k (-1: none), asked once a kind. */
static bool
volatile_kind(ca_matcher *m, const ca_mad *s, struct slotkinds *sk, int k)
{
	if (k >= 0 && sk->w[k].vol >= 0)
		return sk->w[k].vol;
	trace_slot(m, sk);
	bool vol = reaches_volatile(m, s);
	m->trace = NULL;
	if (k >= 0) {
		(void)ca_walkkinds_note(&sk->kinds, k, s->ad, &sk->looked);
		sk->w[k].vol = vol;
	}
	return vol;
}

void
ca_matcher_observe(ca_matcher *m, const ca_ad *slot)
{
	ca_mad s;
	bool req_other, rank_other;

	if (!m->prepared)
		ca_matcher_prepare(m);
	ca_mad_prepare(&s, slot);
	close_over(m, &s, &req_other, &rank_other);
}

uint32_t
ca_matcher_generation(const ca_matcher *m)
{
	return m->generation;
}

uint32_t
ca_matcher_parent(const ca_matcher *m, uint32_t cluster)
{
	return m->cl[cluster].parent;
}

static void prepare_slot(ca_matcher *m, struct sprep *p, const ca_mad *s, bool keep);
static bool cluster_pure(ca_matcher *m, struct cluster *c);

/* Slot operand x with the rep of cluster c. Cluster by cluster its value
 * is kept for the q-th cluster of the batch (2 bits of x->bits, for the
 * first SP_BATCH of them): no cluster meets the slots twice. Slot by slot
 * (q SLOT_BY_SLOT) it is kept for every cluster of this generation, in
 * x->cmemo, while the memos stay under MEMO_MAX. */
#define SLOT_BY_SLOT	UINT32_MAX

static bool
slot_conj(ca_matcher *m, struct shared_expr *x, uint32_t c, uint32_t q, const ca_ad *job)
{
	ca_ctx *cx = m->cx;

	if (q == SLOT_BY_SLOT) {
		if (x->cmemo != NULL && x->cgen != m->generation) {
			/* the clusters split since: numbered anew */
			free(x->cmemo);
			m->memo_bytes -= x->cgen_len;
			x->cmemo = NULL;
		}
		if (x->cmemo == NULL) {
			x->cgen = m->generation;
			x->cgen_len = m->ncl / 4 + 1;
		}
		return memo_eval(m, &x->cmemo, x->cgen_len, c, x->prog, job);
	}
	if (q >= SP_BATCH)
		return prog_true(cx, x->prog, cx->empty, job);
	if (x->batch != m->batch) {
		x->bits = 0;
		x->batch = m->batch;
	}
	unsigned sh = q * 2, v = (unsigned)(x->bits >> sh) & 3;
	if (v == 0) {
		v = prog_true(cx, x->prog, cx->empty, job) ? 3 : 1;
		x->bits |= (uint64_t)v << sh;
	}
	return v == 3;
}

/* The slot side of a match: slot s's Requirements (prepared in p, or
 * evaluated whole) true with cluster c, the q-th of the batch or
 * SLOT_BY_SLOT (see slot_conj). */
static bool
slot_side(ca_matcher *m, const struct sprep *p, const ca_mad *s, uint32_t c, uint32_t q)
{
	ca_ctx *cx = m->cx;
	const ca_ad *job = m->jobs.at[m->cl[c].rep].ad;

	if (p->state == SP_DEAD)
		return false;
	if (p->state != SP_READY || !cluster_pure(m, &m->cl[c]))
		return ca_match_req(cx, s->req, s->ad, job);
	for (uint32_t k = 0; k < p->nconj; k++)
		if (!slot_conj(m, &m->sslot.v.at[p->conj[k]], c, q, job))
			return false;
	for (uint32_t k = 0; k < p->nown; k++)
		if (!prog_true(cx, p->own[k], s->ad, job))
			return false;
	return true;
}

uint32_t
ca_matcher_slot(ca_matcher *m, const ca_ad *slot, uint32_t slot_no, bool record,
    const ca_slot_hit **hits)
{
	ca_ctx *cx = m->cx;
	ca_mad s;
	bool req_other, rank_other;
	uint32_t nh = 0;

	if (!m->prepared)
		ca_matcher_prepare(m);
	if (hits)
		*hits = m->shits.at;
	ca_mad_prepare(&s, slot);
	if (s.req == NULL || m->ncl == 0)
		return 0;
	close_over(m, &s, &req_other, &rank_other);
	if (m->dynamic)
		req_other = rank_other = true;

	const ca_ad *any = m->jobs.at[m->cl[0].rep].ad;
	bool req_fixed = !req_other;
	double srank = 0.0;
	if (req_fixed && !ca_match_req(cx, s.req, slot, any))
		goto out;
	if (!rank_other)
		srank = ca_match_rank(cx, s.rank, slot, any);
	ca_vec_reserve(&m->shits, m->ncl);
	bool fast = m->slot_pure && !m->dynamic;
	if (++m->stamp == 0) {
		/* after 2^32 slots: forget every shared value */
		for (size_t i = 0; i < m->sconj.v.n; i++)
			m->sconj.v.at[i].stamp = 0;
		for (size_t i = 0; i < m->srank.v.n; i++)
			m->srank.v.at[i].stamp = 0;
		m->stamp = 1;
	}
	/* with many clusters, the slot's Requirements folded over the slot
	 * first, as cluster by cluster (prepare_slot); nothing of it is kept
	 * but its operands many slots share, and not more than SSLOT_MAX */
	struct sprep now = { 0 };
	now.state = SP_WHOLE;
	if (!req_fixed && m->ncl >= SP_CLUSTERS) {
		ca_arena_reset(&m->fold);
		m->sslot.max = SSLOT_MAX;
		prepare_slot(m, &now, &s, false);
	}
	const ca_mad *jobs = m->jobs.at;
	for (uint32_t c = 0; c < m->ncl; c++) {
		const ca_mad *job = &jobs[m->cl[c].rep];
		double jr;
		if ((c & 255) == 255)
			ca_arena_reset(&cx->scratch);
		if (!job_side(m, &m->cl[c], slot, NO_SLOT, fast, &jr))
			continue;
		if (!req_fixed && !slot_side(m, &now, &s, c, SLOT_BY_SLOT))
			continue;
		double sr = rank_other ? ca_match_rank(cx, s.rank, slot, job->ad) : srank;
		m->shits.at[nh] = (ca_slot_hit){ jr, sr, c };
		nh++;
		if (record)
			add_hit(m, &m->cl[c], slot_no, jr, sr);
	}
out:
	ca_arena_reset(&cx->scratch);
	if (hits)
		*hits = m->shits.at;
	return nh;
}

/* ---- cluster by cluster ---- */

static void
sname_ref(void *arg, const ca_name *nm, int side)
{
	ca_matcher *m = arg;

	if (side == CA_REF_OTHER)
		ca_nameset_add(&m->snames, nm);
}

/* Prepare slot i's Requirements: folded over the slot, then its operands
 * as shared (reading only the job: evaluated once per cluster of a batch,
 * whatever the slot) and own ones. */
static void
prepare_slot(ca_matcher *m, struct sprep *p, const ca_mad *s, bool keep)
{
	exprs ops = CA_VEC_INIT;
	ca_arena *a = keep ? &m->prep : &m->fold;

	p->state = SP_WHOLE;
	if (m->dynamic || calls_random(s->req))
		return;
	/* folded in a scratch arena: only what is kept is copied */
	m->fa = &m->fold;
	operands(fold(m, s->req, s->ad, &(bool){ false }), &ops);
	if (ops.n > UINT16_MAX)
		goto out;
	p->state = SP_READY;
	p->conj = ca_arena_array(a, ops.n, sizeof *p->conj);
	for (size_t k = 0; k < ops.n && p->state == SP_READY; k++) {
		bool self_left = false;
		uint32_t id = UINT32_MAX;
		const ca_expr *f = fold(m, ops.at[k], s->ad, &self_left);
		if (f->node == CA_N_LIT) {
			if (ca_value_truth(f->u.lit) != 1)
				p->state = SP_DEAD;
			continue;
		}
		if (!self_left) {
			if (ca_expr_refs(f, NULL, m->rflags, sname_ref, m))
				p->state = SP_WHOLE;
			id = shared_id(&m->sslot, &m->prep, f, true);
		}
		if (id != UINT32_MAX) {
			p->conj[p->nconj++] = id;
			continue;
		}
		if (p->own == NULL)
			p->own = ca_arena_array(a, ops.n, sizeof *p->own);
		p->own[p->nown++] = ca_prog_new(a, keep ? ca_expr_copy(a, f) : f);
	}
out:
	ca_vec_free(&ops);
	m->fa = &m->prep;
	if (keep)
		ca_arena_reset(&m->fold);
}

/* Whether the slots' shared operands may be evaluated once for cluster c:
 * the rep's definitions of the names they read do not reach the slot
 * (else their values depend on it). */
static bool
cluster_pure(ca_matcher *m, struct cluster *c)
{
	const ca_ad *job = m->jobs.at[c->rep].ad;

	for (; c->pure_upto < m->snames.v.n && !c->impure; c->pure_upto++) {
		ca_attr *at = ca_ad_find(job, m->snames.v.at[c->pure_upto]);
		struct reach r = { false, false };
		if (at && (ca_expr_refs(ca_attr_expr(job, at), job, CA_REFS_DEEP | m->rflags,
		    reach_ref, &r) || r.other))
			c->impure = true;
	}
	return !c->impure;
}

struct vol_walk {
	const ca_nameset *vol;
	bool hit;
};

static void
vol_ref(void *arg, const ca_name *nm, int side)
{
	struct vol_walk *w = arg;

	if (side == CA_REF_SELF && ca_nameset_has(w->vol, nm))
		w->hit = true;
}

/* Whether the slot's Requirements or Rank read a name of the slot whose
 * value changes while the matcher is used (ca_matcher_volatile). */
static bool
reaches_volatile(ca_matcher *m, const ca_mad *s)
{
	struct vol_walk w = { m->vol, false };

	if (m->vol == NULL || m->vol->v.n == 0)
		return false;
	(void)ca_expr_refs_looked(s->req, s->ad, CA_REFS_DEEP | m->rflags, vol_ref, &w, m->trace);
	if (s->rank)
		(void)ca_expr_refs_looked(s->rank, s->ad, CA_REFS_DEEP | m->rflags, vol_ref, &w,
		    m->trace);
	return w.hit;
}

void
ca_matcher_volatile(ca_matcher *m, const ca_nameset *names)
{
	m->vol = names;
}

void
ca_matcher_set_slots(ca_matcher *m, const ca_ad *const *slots, uint32_t n)
{
	ca_ctx *cx = m->cx;
	struct slotkinds *sk = ca_xcalloc(1, sizeof *sk);
	/* each slot's kind as the first pass left it, and how many names
	 * the kind had then: kinds only ever gain names, so while it has as
	 * many, the slot is of that kind still (and of no kind before it) */
	struct { int k; uint32_t n; } *kind = ca_xcalloc(n ? n : 1, sizeof *kind);

	if (!m->prepared)
		ca_matcher_prepare(m);
	free(m->sl);
	free(m->sf);
	free(m->sr);
	free(m->sp);
	m->nsl = n;
	m->sp = ca_xcalloc(n ? n : 1, sizeof *m->sp);
	m->sl = ca_xcalloc(n ? n : 1, sizeof *m->sl);
	m->sf = ca_xcalloc(n ? n : 1, sizeof *m->sf);
	m->sr = ca_xcalloc(n ? n : 1, sizeof *m->sr);
	/* every slot seen first, so that the clusters are final; the slots of
	 * a kind are walked once */
	for (uint32_t i = 0; i < n; i++)
		if (slots[i] != NULL) {
			bool req_other, rank_other;
			ca_mad_prepare(&m->sl[i], slots[i]);
			int k = close_over_kind(m, &m->sl[i], sk, -1, &req_other, &rank_other);
			kind[i].k = k;
			kind[i].n = k >= 0 ? (uint32_t)sk->kinds.k[k].names.v.n : 0;
		}
	/* what ca_matcher_slot finds out before its loop over the clusters */
	const ca_ad *any = m->ncl ? m->jobs.at[m->cl[0].rep].ad : NULL;
	for (uint32_t i = 0; i < n && m->ncl; i++) {
		ca_mad *s = &m->sl[i];
		bool req_other, rank_other;
		if (slots[i] == NULL || s->req == NULL)
			continue;
		int k = kind[i].k >= 0 && sk->kinds.k[kind[i].k].names.v.n == kind[i].n ? kind[i].k :
		    -1;
		k = close_over_kind(m, s, sk, k, &req_other, &rank_other);
		if (m->dynamic)
			req_other = rank_other = true;
		if (volatile_kind(m, s, sk, k)) {
			/* evaluated whole with every cluster, as it is then */
			req_other = rank_other = true;
			m->sp[i].state = SP_WHOLE;
		}
		if (!req_other && !ca_match_req(cx, s->req, s->ad, any)) {
			ca_arena_reset(&cx->scratch);
			continue;
		}
		m->sf[i] = (uint8_t)(SF_USE | (req_other ? SF_REQ_OTHER : 0) |
		    (rank_other ? SF_RANK_OTHER : 0) |
		    (m->slot_pure && !m->dynamic ? SF_FAST : 0));
		if (!rank_other)
			m->sr[i] = ca_match_rank(cx, s->rank, s->ad, any);
		ca_arena_reset(&cx->scratch);
	}
	free(kind);
	ca_walkkinds_free(&sk->kinds);
	ca_nameset_free(&sk->looked);
	free(sk);
}

void
ca_matcher_drop_slot(ca_matcher *m, uint32_t slot)
{
	if (slot < m->nsl)
		m->sf[slot] |= SF_GONE;
}

size_t
ca_hits_bytes(const ca_hits *h)
{
	return h->n * (sizeof *h->slot + (h->rank ? 2 * sizeof *h->rank : 0));
}

void
ca_hits_free(ca_hits *h)
{
	free(h->slot);
	free(h->rank);
	*h = (ca_hits){ 0 };
}

/* The same double, bit for bit (0.0 and -0.0 apart). */
static bool
same_double(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* Slot i, ranked jr and sr, onto h: its ranks kept apart only once one
 * differs from the first slot's. */
static void
hits_push(ca_hits *h, double jr, double sr, uint32_t i)
{
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 16;
		h->slot = ca_xreallocarray(h->slot, h->cap, sizeof *h->slot);
		if (h->rank != NULL)
			h->rank = ca_xreallocarray(h->rank, 2 * (size_t)h->cap, sizeof *h->rank);
	}
	if (h->n == 0) {
		h->rank0[0] = jr;
		h->rank0[1] = sr;
	} else if (h->rank == NULL && (!same_double(jr, h->rank0[0]) || !same_double(sr, h->rank0[1]))) {
		h->rank = ca_xreallocarray(NULL, 2 * (size_t)h->cap, sizeof *h->rank);
		for (uint32_t k = 0; k < h->n; k++) {
			h->rank[2 * (size_t)k] = h->rank0[0];
			h->rank[2 * (size_t)k + 1] = h->rank0[1];
		}
	}
	if (h->rank != NULL) {
		h->rank[2 * (size_t)h->n] = jr;
		h->rank[2 * (size_t)h->n + 1] = sr;
	}
	h->slot[h->n++] = i;
}

void
ca_matcher_cluster_hits(ca_matcher *m, const uint32_t *clusters, uint32_t nc, int which,
    uint32_t max, ca_hits *hits)
{
	ca_ctx *cx = m->cx;
	uint32_t tried = 0;
	bool *done = ca_xcalloc(nc ? nc : 1, sizeof *done);

	for (uint32_t q = 0; q < nc; q++) {
		hits[q] = (ca_hits){ 0 };
		done[q] = clusters[q] >= m->ncl;
	}
	if (++m->batch == 0) {
		/* after 2^32 batches: forget every kept value */
		for (size_t k = 0; k < m->sslot.v.n; k++)
			m->sslot.v.at[k].batch = 0;
		m->batch = 1;
	}
	/* slot by slot within the clusters asked for: the slot ad is read
	 * while it is in the cache */
	for (uint32_t i = 0; i < m->nsl; i++) {
		unsigned f = m->sf[i];
		const ca_mad *s = &m->sl[i];
		if (!(f & SF_USE) || (which == CA_MH_LIVE && (f & SF_GONE)) ||
		    (which == CA_MH_GONE && !(f & SF_GONE)))
			continue;
		for (uint32_t q = 0; q < nc; q++) {
			struct cluster *c = &m->cl[clusters[q]];
			double jr;
			if (done[q])
				continue;
			if ((++tried & 255) == 0)
				ca_arena_reset(&cx->scratch);
			if (!job_side(m, c, s->ad, i, (f & SF_FAST) != 0, &jr))
				continue;
			const ca_ad *job = m->jobs.at[c->rep].ad;
			struct sprep *p = &m->sp[i];
			if ((f & SF_REQ_OTHER) && p->state == SP_NEW && ++p->uses >= SP_USES)
				prepare_slot(m, p, s, true);
			if ((f & SF_REQ_OTHER) && !slot_side(m, p, s, clusters[q], q))
				continue;
			double sr = (f & SF_RANK_OTHER) ?
			    ca_match_rank(cx, s->rank, s->ad, job) : m->sr[i];
			hits_push(&hits[q], jr, sr, i);
			done[q] = max && hits[q].n == max;
		}
	}
	ca_arena_reset(&cx->scratch);
	/* the room not used given back: the lists may be kept */
	for (uint32_t q = 0; q < nc; q++) {
		ca_hits *h = &hits[q];
		if (h->n == 0 || h->n == h->cap)
			continue;
		h->slot = ca_xreallocarray(h->slot, h->n, sizeof *h->slot);
		if (h->rank != NULL)
			h->rank = ca_xreallocarray(h->rank, 2 * (size_t)h->n, sizeof *h->rank);
		h->cap = h->n;
	}
	free(done);
}

uint32_t
ca_matcher_nclusters(const ca_matcher *m)
{
	return m->ncl;
}

uint32_t
ca_matcher_cluster_of(const ca_matcher *m, uint32_t job)
{
	return m->job_cl ? m->job_cl[job] : 0;
}

const uint32_t *
ca_matcher_members(ca_matcher *m, uint32_t cluster, uint32_t *n)
{
	if (!m->prepared)
		ca_matcher_prepare(m);
	if (m->mem_dirty || m->mem_start == NULL) {
		free(m->mem_start);
		free(m->mem);
		m->mem_start = ca_xcalloc((size_t)m->ncl + 1, sizeof *m->mem_start);
		m->mem = ca_xcalloc((uint32_t)m->jobs.n ? (uint32_t)m->jobs.n : 1, sizeof *m->mem);
		for (uint32_t j = 0; j < (uint32_t)m->jobs.n; j++)
			m->mem_start[m->job_cl[j] + 1]++;
		for (uint32_t c = 0; c < m->ncl; c++)
			m->mem_start[c + 1] += m->mem_start[c];
		uint32_t *fill = ca_xcalloc(m->ncl ? m->ncl : 1, sizeof *fill);
		for (uint32_t j = 0; j < (uint32_t)m->jobs.n; j++) {
			uint32_t c = m->job_cl[j];
			m->mem[m->mem_start[c] + fill[c]++] = j;
		}
		free(fill);
		m->mem_dirty = false;
	}
	*n = m->mem_start[cluster + 1] - m->mem_start[cluster];
	return m->mem + m->mem_start[cluster];
}

const ca_name *const *
ca_matcher_sigattrs(const ca_matcher *m, uint32_t *n, bool *dynamic)
{
	*n = m->J.v.n;
	if (dynamic)
		*dynamic = m->dynamic;
	return m->J.v.at;
}

static uint32_t ancestor(const ca_matcher *m, uint32_t c, uint32_t gen);
static void read_run(ca_matcher *m, const struct spill_run *r, uint32_t c);

const ca_hit *
ca_matcher_hits(ca_matcher *m, uint32_t cluster, uint32_t *n)
{
	if (!m->prepared)
		ca_matcher_prepare(m);
	if (cluster >= m->ncl) {
		*n = 0;
		return NULL;
	}
	struct cluster *c = &m->cl[cluster];
	sort_hits(c, m->limit);
	if (m->runs.n == 0) {
		*n = (uint32_t)c->hits.n;
		return c->hits.at;
	}
	if (m->merged_cl != cluster + 1 || m->merged_gen != m->generation) {
		m->merged.n = 0;
		m->merged_cl = cluster + 1;
		m->merged_gen = m->generation;
		for (size_t i = 0; i < m->runs.n; i++)
			read_run(m, &m->runs.at[i], ancestor(m, cluster, m->runs.at[i].gen));
		ca_vec_reserve(&m->merged, m->merged.n + c->hits.n);
		if (c->hits.n)
			memcpy(m->merged.at + m->merged.n, c->hits.at, c->hits.n * sizeof *c->hits.at);
		m->merged.n += c->hits.n;
		if (m->merged.n > 1)
			qsort(m->merged.at, m->merged.n, sizeof *m->merged.at, hit_cmp);
	}
	*n = (uint32_t)m->merged.n;
	return m->merged.at;
}

/* ---- hits beyond memory ---- */

void
ca_matcher_spill(ca_matcher *m, size_t max)
{
	m->spill_max = max;
}

const char *
ca_matcher_error(const ca_matcher *m)
{
	return m->err[0] ? m->err : NULL;
}

static void
file_error(ca_matcher *m, const char *what)
{
	if (m->err[0] == 0)
		snprintf(m->err, sizeof m->err, "%s the temporary file of matches: %s", what,
		    strerror(errno));
}

/* A file of our own, unlinked at once: in $TMPDIR, else /tmp. */
static bool
open_spill(ca_matcher *m)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];

	if (dir == NULL || *dir == 0)
		dir = "/tmp";
	if ((size_t)snprintf(path, sizeof path, "%s/classad-match-XXXXXX", dir) >= sizeof path) {
		errno = ENAMETOOLONG;
		file_error(m, "cannot make");
		return false;
	}
	m->fd = mkstemp(path);
	if (m->fd < 0) {
		file_error(m, "cannot make");
		return false;
	}
	unlink(path);
	return true;
}

static bool
write_all(int fd, const void *p, size_t len, uint64_t off)
{
	const char *b = p;

	while (len > 0) {
		ssize_t w = pwrite(fd, b, len, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return false;
		}
		b += w;
		len -= (size_t)w;
		off += (uint64_t)w;
	}
	return true;
}

/* Every cluster's hits, sorted, to the end of the file as one run. A
 * failure stops the spilling; the hits not written stay in memory. */
static void
spill(ca_matcher *m)
{
	struct spill_run r = { m->generation, m->ncl, m->fsize, NULL };
	uint64_t at = 0;

	if (m->fd < 0 && !open_spill(m))
		return;
	r.start = ca_xcalloc((size_t)m->ncl + 1, sizeof *r.start);
	for (uint32_t c = 0; c < m->ncl; c++) {
		struct cluster *cl = &m->cl[c];
		r.start[c] = at;
		sort_hits(cl, 0);
		if (cl->hits.n && !write_all(m->fd, cl->hits.at, cl->hits.n * sizeof *cl->hits.at,
		    (m->fsize + at) * sizeof *cl->hits.at)) {
			file_error(m, "cannot write");
			/* what was written stays a run of the clusters before c */
			for (uint32_t k = c; k <= m->ncl; k++)
				r.start[k] = at;
			break;
		}
		at += cl->hits.n;
		m->held -= cl->hits.n;
		ca_vec_free(&cl->hits);
		cl->sorted = false;
	}
	r.start[m->ncl] = at;
	m->fsize += at;
	if (m->runs.n == 0)
		m->gen0 = m->generation;
	*ca_vec_push(&m->runs) = r;
}

/* The cluster of generation gen that cluster c (of now) comes from. */
static uint32_t
ancestor(const ca_matcher *m, uint32_t c, uint32_t gen)
{
	for (uint32_t g = m->generation; g > gen; g--)
		c = m->gparent.at[g - m->gen0 - 1][c];
	return c;
}

/* Run r's hits of cluster c onto m->merged. */
static void
read_run(ca_matcher *m, const struct spill_run *r, uint32_t c)
{
	uint64_t cnt = r->start[c + 1] - r->start[c];
	size_t len = (size_t)cnt * sizeof *m->merged.at;
	char *b;

	if (cnt == 0)
		return;
	ca_vec_reserve(&m->merged, m->merged.n + cnt);
	b = (char *)(m->merged.at + m->merged.n);
	off_t off = (off_t)((r->base + r->start[c]) * sizeof *m->merged.at);
	while (len > 0) {
		ssize_t got = pread(m->fd, b, len, off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0)
				errno = EIO;
			file_error(m, "cannot read");
			return;
		}
		b += got;
		len -= (size_t)got;
		off += got;
	}
	m->merged.n += cnt;
}
