/* neg_int.h - the negotiator's private parts: the state of a cycle and the
 * decision log, shared by the neg_*.c files that implement negotiator.h. */
#ifndef CA_NEG_INT_H
#define CA_NEG_INT_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "accountant.h"
#include "classad.h"
#include "groups.h"
#include "match.h"
#include "negotiator.h"

#define NONE		UINT32_MAX
#define LIMIT_EPS	1e-6	/* slack when a limit is compared with a cost */
#define NEG_LOW		(-DBL_MAX)	/* a negotiator rank that failed */

/* Why a slot is not a candidate for a job (ca_neg_skip_text says it). */
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
	K_CLIMIT,		/* a concurrency limit the job names with this slot */
	K_NSKIP
};
extern const char *const ca_neg_skip_text[K_NSKIP];

enum slot_state {
	ST_UNCLAIMED, ST_OWNER, ST_BACKFILL, ST_CLAIMED, ST_PREEMPTING, ST_MATCHED,
	ST_DRAINED, ST_OTHER
};

/* One attribute of an ad set to a literal node of ours, the ad's own
 * expression remembered (ephemeral and temporary values). */
typedef struct ovr {
	ca_ad *ad;
	const ca_name *name;
	ca_expr *node;		/* our literal */
	ca_attr orig;		/* the ad's own attribute, if had */
	bool had;
	bool on;
} ovr;

/* Resources of a consumption policy. */
struct cpres {
	const ca_name *res;	/* Cpus, Memory, Disk, GPUs ... */
	const char *spell;	/* its name as the slot spells it */
	const ca_name *req;	/* RequestCpus ... */
	const ca_expr *cons;	/* its Consumption expression */
	double have;		/* what is left, when a literal says so ... */
	int kind;		/* ... its kind ... */
	uint32_t have_ver;	/* ... as of the slot's version + 1 (0: not known) */
};

/* The Remote* attributes of a claimed slot and the Submitter* attributes
 * of a job, while the negotiator's own expressions are evaluated. */
enum {
	EPH_R_PRIO, EPH_R_INUSE, EPH_R_FLOOR, EPH_R_GROUP, EPH_R_GINUSE, EPH_R_GQUOTA, EPH_R_N
};
enum {
	EPH_S_PRIO, EPH_S_INUSE, EPH_S_NEGGROUP, EPH_S_AUTOREGROUP, EPH_S_GROUP, EPH_S_GINUSE,
	EPH_S_GQUOTA, EPH_S_N
};
extern const char *const ca_neg_eph_s_names[EPH_S_N];
extern const char *const ca_neg_eph_r_names[EPH_R_N];

/* The names every slot is read for in preparing a cycle (ORDER NS:
 * slot_names[] in neg_cycle.c follows). */
enum {
	NS_NAME, NS_STATE, NS_ACTIVITY, NS_PSLOT, NS_SLOTTYPE, NS_DSLOT, NS_JOB, NS_TOTALSLOTS,
	NS_N
};

/* A Slot<N>_Remote* attribute of a slot (NEGOTIATOR_CROSS_SLOT_PRIOS): the
 * value of EPH_R_* kind for the user of the machine's slot N. */
struct xslot {
	ovr o;
	uint32_t of;		/* that slot, or NONE: its user from the slot's own
				 * slot<N>_RemoteUser ... */
	uint32_t remote;	/* the user, or NONE */
	uint8_t kind;
};

struct slot {
	/* what choosing among the candidates reads, in one cache line */
	ca_ad *ad;
	double weight;
	double cur_rank;	/* CurrentRank (PreemptingRank when there is one) */
	uint32_t remote;	/* customer running there, or NONE */
	uint32_t version;	/* consumption-policy deductions so far */
	uint32_t taken_by;	/* the match that took it, or NONE */
	uint8_t state;
	uint8_t skip;		/* a K_* that keeps it from every job, or K_OK */
	bool running;		/* a job runs there (Claimed, not Idle) */
	bool pslot, dslot, cp;
	bool pre_fixed, post_fixed;
	bool pre_known, post_known;
	bool taken;
	bool mad_set;		/* mad looked up */
	double pre, post;	/* NEGOTIATOR_PRE/POST_JOB_RANK when no job changes
				 * them (pre_fixed, post_fixed), once asked for */

	const char *name;
	const ca_ad *job;	/* the running job travelling with the slot, or NULL */
	const char *remote_job;	/* its "C.P", or NULL */
	uint32_t parent;	/* a dynamic slot's partitionable slot, or NONE */
	struct xslot *xs;	/* its Slot<N>_Remote* attributes */
	uint32_t nxs;
	ca_vec(uint32_t) kids;	/* a partitionable slot's dynamic slots */
	struct cpres *res;	/* cp: its resources */
	uint32_t nres;
	uint32_t cpi;		/* cp: its place in ca_neg.cpslots */
	ca_mad mad;
};

/* A customer: a submitter of idle jobs, a user running jobs, or both. */
struct cust {
	const char *name;
	size_t len;
	double eup;
	double usage0;		/* weighted usage at the start */
	double usage;		/* now */
	ca_group *group;
	bool nice;
	double ceiling;		/* its Ceiling, or -1 */
	double floor;		/* its Floor, or 0 */
	uint32_t running;	/* slots it runs on at the start */
	/* a submitter */
	ca_vec(uint32_t) jobs;	/* idle jobs, in job order */
	double share, limit, limit_un, pie;
	bool pie_set, done;
	size_t matches;
	size_t left;		/* jobs left to the schedd (depth first) */
};

struct job {
	ca_ad *ad;
	const char *id;
	double prio[5];
	double qdate;		/* QDate: the older first among equal priorities */
	int64_t cluster, proc;
	const char *climits;	/* its ConcurrencyLimits when a string, or NULL */
	uint32_t climits_len;
	bool climits_dyn;	/* they depend on the slot: evaluated against each */
	uint32_t grp;		/* its cluster in the sense of cluster skipping */
	double weight;		/* its demand in slot weights */
	uint32_t sub;		/* customer */
	uint32_t key;
	uint32_t mjob;		/* number in the matcher */
	uint32_t match;		/* its match, or NONE */
	uint32_t left;		/* left to the schedd with match `left` (depth
				 * first), or NONE */
	uint32_t last;		/* its latest decision in the log, or NONE */
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

/* A consumption-policy slot's candidate for twin keys (struct key). */
struct cpmemo {
	uint32_t version;	/* the slot's version + 1 it is of (0: none) */
	bool fits;
	struct cand c;
};

#define CPMEMO_MAX	((size_t)64 << 20)	/* bytes of them in a cycle */

/* A key's candidates in a submitter's turn: HTCondor's match list. */
struct cache {
	ca_vec(struct cand) heap;
	bool built, only_rank;
	bool fresh;		/* built and not popped from since */
	uint32_t count[K_NSKIP];	/* candidates refused, by reason */
	uint32_t climit;	/* the last concurrency limit refused (NONE) ... */
	double cl[3];		/* ... its use, maximum and the units asked */
};

/* A submitter's autocluster, refined by the job attributes the
 * negotiator's own expressions reach. */
struct key {
	uint32_t rep;		/* the job evaluated for all */
	uint32_t sub;
	uint32_t mcl;		/* matcher cluster */
	uint32_t sig;		/* start of its signature in ca_neg.sigs */
	uint64_t hash;
	struct cache cache;
	/* keys of other submitters whose representatives agree on all the
	 * names above and on those the consumption policies read are twins:
	 * a consumption-policy slot gives them the same candidate. The first
	 * of them keeps it, slot by slot, as of the slot's version. */
	uint32_t twin;		/* that first key (itself when it has no twin) */
	struct cpmemo *memo;	/* the first key's, indexed by ca_neg.cpslots */
	bool twinned;		/* some other key is its twin */
	bool rejected;		/* in this turn of the submitter */
	uint32_t turn_jobs;	/* its jobs left in this turn */
	uint8_t rej_why;
	uint32_t rej_job;	/* the job that got nothing */
	uint32_t rej_x;		/* its R_NOTHING's x and f */
	double rej_f[3];
};

/* The slots matching an autocluster (both Requirements true), in slot
 * order, with both ranks: made when first needed (ca_neg_hits), and let go
 * again, oldest first, while the lists kept take more than HITS_MAX. */
struct hitlist {
	ca_hits hits;
	bool made;
	bool taken_match;	/* a slot taken before matches it */
};

#define HITS_MAX	((size_t)64 << 20)
#define HITS_BATCH	32

#define NEG_PROGS	4	/* NEGOTIATOR_PRE/POST_JOB_RANK, PREEMPTION_RANK */

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
	double *xcons;		/* cp: what it took of the custom resources ... */
	const char **xres;	/* ... named so (Consumed<name>) */
	uint32_t nx;
	uint32_t lead;		/* CLAIM_PARTITIONABLE_LEFTOVERS: the match whose
				 * partitionable slot's leftovers it took, or NONE */
	const char *climits;	/* the concurrency limits it holds (lower case), or NULL */
	bool cp;
	int spin;
};

/* Jobs that cluster skipping takes as one: a submitter's jobs of one
 * ClusterId, or with SIGNIFICANT_ATTRIBUTES of equal values of those. */
struct skipgrp {
	bool rejected;		/* in this turn of the submitter */
	uint32_t turn_jobs;	/* its jobs left in this turn */
	uint8_t rej_why;
	uint32_t rej_job;	/* the job that got nothing */
	uint32_t rej_x;		/* the concurrency limit that stopped it, or NONE */
};

/* A submitter's turn in a spin: its slice and what it has used of it. */
struct turn {
	double limit, limit_un;
	double used, used_un;
	double room;		/* what the group's quota leaves */
	double ceiling;		/* what the submitter's ceiling leaves */
	double *pie_left;
	bool only_rank, limited;
	bool grouped;
	int spin;
};

/* Is the group's room, rather than the submitter's slice, what stops it? */
static inline bool
ca_neg_quota_binds(const struct turn *t)
{
	return t->grouped && t->room <= t->limit + LIMIT_EPS;
}

/* ---- the decision log ----
 *
 * What the negotiator decided, in the order it decided it: for every job a
 * record each time a turn decides about it (matched, nothing this spin,
 * skipped with its autocluster, not reached) and when the cycle leaves it
 * idle without a turn; the context of those decisions (a group's or the
 * pool's submitters negotiated, a submitter's turn); and, for the job
 * followed by ca_neg_explain, what the rules made of every slot when it
 * was considered and why candidates were given up. The summary and the
 * account of the followed job are printed from these records. */
enum rec_kind {
	R_PHASE,	/* who: group index or NONE; reason: nice users;
			 * f: allocation, usage, quota of the group */
	R_TURN,		/* who: the customer; f: share, slice, usage */
	R_CONSIDER,	/* followed job: f[0] the slice used; reason: only RANK */
	R_SLOT,		/* followed job: slot x, why K_*, how SL_*, y, f (below) */
	R_POP,		/* followed job: slot x given up at the top: why K_TAKEN
			 * (y the match that took it), K_LIMIT/K_QUOTA (f: cost,
			 * used, limit) or K_CLIMIT (y the limit; f: its use,
			 * maximum, the units asked) */
	R_MATCH,	/* job matched: x the match; f: the candidate's sort keys */
	R_NOTHING,	/* job got nothing in its turn: why; for a concurrency
			 * limit x the limit (index in ca_neg.limits, or NONE)
			 * and f: its use, maximum and the units asked */
	R_ALIKE,	/* job skipped: x the job of its cluster that got nothing
			 * (y: the concurrency limit that stopped it, or NONE) */
	R_WAIT,		/* job not reached in its turn: the slice (or quota, or
			 * ceiling) is used */
	R_IDLE,		/* job left idle without being considered: why */
	R_DEPTH		/* job left to the schedd: x the match of a job like it
			 * to a partitionable slot (NEGOTIATOR_DEPTH_FIRST) */
};

/* R_PHASE flags (in reason). */
enum { PH_NICE = 1, PH_FLOOR = 2, PH_REGROUP = 4 };

/* How an R_SLOT is told. */
enum {
	SL_RULES,	/* the rules (why, with f: RANK, CurrentRank; y: the match
			 * that took it, the job with a negative request, or 1 when
			 * PREEMPTION_REQUIREMENTS was evaluated) or a candidate
			 * (f: sort keys, reason) */
	SL_CP,		/* a consumption-policy slot */
	SL_MULTI,	/* a candidate by preempting dynamic slots (y: the multi) */
	SL_NOMATCH	/* Requirements: y 0 neither holds, 1 the job's, 2 the slot's false */
};

struct rec {
	uint8_t kind;
	uint8_t why;		/* CA_WHY_* for decisions, K_* for R_SLOT and R_POP */
	uint8_t how;		/* R_SLOT: SL_* */
	uint8_t reason;		/* a candidate's CA_NEG_*; R_PHASE, R_CONSIDER: a flag */
	int32_t spin;
	uint32_t who;		/* the job; the customer or group for R_TURN, R_PHASE */
	uint32_t x, y;
	double f[4];
};

/* ---- the store of the jobs' expressions: equal trees stored once ---- */

struct stored {
	const ca_expr *e;
	uint64_t h;
};

typedef struct estore {
	ca_arena arena;
	ca_vec(struct stored) v;
	ca_dict index;
} estore;

/* An attribute of a job ad on its way into the store. */
struct staged {
	const ca_name *name;
	const char *spell;
	ca_expr *e;
};

/* CONSUMPTION_<R> and SLOT_TYPE_<N>_CONSUMPTION_<R>/_POLICY knobs */
struct cpknob {
	int type;		/* N, or -1 for the machine-wide knob */
	const char *res;	/* NULL: the _POLICY knob */
	const ca_expr *e;
	bool on;
};

struct ca_neg {
	ca_ctx *cx;
	ca_acct *acct;
	ca_neg_policy pol;
	ca_arena arena;		/* names, ids, expressions of the policy */
	bool pr_always;		/* PREEMPTION_REQUIREMENTS defined but empty */
	const ca_expr *cons_default[3];
	struct cpknob *cpk;
	size_t ncpk;
	ca_groups groups;
	strbuf warn;

	ca_vec(struct slot) slots;
	ca_vec(struct job) jobs;
	size_t seen_jobs;	/* idle or not */
	ca_vec(struct cust) custs;
	ca_dict cust_index;	/* customer names */
	ca_vec(struct key) keys;
	const ca_expr **sigs;	/* keys' signatures: nsig expressions each */
	uint32_t nsig;
	ca_nameset signames;
	ca_vec(struct multi) multi;
	ca_vec(struct match) matches;

	struct hitlist *hits;	/* per autocluster */
	uint32_t nclusters;
	size_t hit_bytes;	/* of the lists kept */
	ca_vec(uint32_t) made;	/* autoclusters with a list, oldest first ... */
	size_t made_head;	/* ... from here */
	ca_neg_progress_fn *progress;	/* ca_neg_on_progress */
	void *progress_arg;
	size_t jobs_seen;	/* jobs the turns came to */
	uint32_t turn_sub;	/* the submitter whose turn it is, or NONE ... */
	size_t turn_pos;	/* ... and its job negotiated now */
	estore store;		/* the jobs' expressions */
	ca_vec(struct staged) staging;	/* a job ad being compacted */
	ca_nameset jobnames;	/* every attribute name some job defines */
	ca_matcher *matcher;
	ca_nameset volnames;	/* slot attributes that change during the cycle */
	uint32_t mad_job;	/* the job whose Requirements and Rank mad holds */
	ca_mad mad;
	struct {
		const ca_expr *e;
		ca_prog *p;
	} progs[NEG_PROGS];	/* the flat forms of ca_neg_rank's expressions */
	const ca_name *n_cpus, *n_mem, *n_disk;
	ca_vec(ovr) stack;	/* temporary overrides */
	uint32_t stack_made;	/* entries of stack with their node made */

	double pool;
	bool has_cp;		/* some slot has a consumption policy */
	uint32_t *cpslots, ncp;	/* the consumption-policy slots */
	size_t memo_bytes;	/* of the twins' struct cpmemo */
	uint32_t *pslots, npk;	/* partitionable slots with dynamic slots */
	int spins;
	int spin;		/* the spin going on, for the log */
	bool ran;

	ca_vec(struct rec) log;
	const char *explain_id;
	uint32_t explain_job;	/* NONE until found */
	uint32_t explain_nh;	/* the slots matching its autocluster */
	ca_vec(ca_value) not_idle;	/* JobStatus of non-idle jobs with that id */
	bool followed_excluded;	/* the followed job: NEGOTIATOR_JOB_CONSTRAINT false */

	/* concurrency limits: in use now, and at the start of the cycle */
	ca_climits limits;
	double *limits0;
	size_t nlimits0;
	double min_weight;	/* the smallest slot weight of the pool */
	int64_t most_slots;	/* the largest TotalSlots of a slot (at most 4096) */
	uint32_t sized;		/* slots NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT admits */
	ca_vec(struct skipgrp) grps;
	bool regroup_phase;	/* negotiating the root group with autoregroup */
	const ca_name *n_climits, *n_qdate;
	const ca_name *n_eph_r[EPH_R_N];	/* ca_neg_eph_r_names, interned */
	const ca_name *ns[NS_N];	/* the names every slot is read for */
};

/* ---- neg_cycle.c: evaluation helpers ---- */

/* A string attribute of ad, evaluated; false when it is no string or empty.
 * The text lives in the ad or in the scratch arena. */
bool ca_neg_str(ca_neg *n, const ca_ad *ad, const char *name, const char **s, size_t *len);
/* A number attribute (bool, int, real); def when it is anything else. */
double ca_neg_num(ca_neg *n, const ca_ad *ad, const char *name, double def);
/* A negotiator rank: a number, or NEG_LOW when it fails. */
double ca_neg_rank(ca_neg *n, const ca_expr *e, const ca_ad *slot, const ca_ad *job);
/* The slot weight of ad as it is now (the accountant's rule). */
double ca_neg_slot_weight(ca_neg *n, const ca_ad *ad);
/* Push a temporary value for attribute name of ad; undo down to a mark. */
void ca_neg_tmp_set(ca_neg *n, ca_ad *ad, const ca_name *name, ca_value v);
void ca_neg_tmp_undo(ca_neg *n, uint32_t mark);
void ca_neg_ovr_bind(ovr *o, ca_arena *a, ca_ad *ad, const ca_name *name);
void ca_neg_ovr_put(ovr *o, ca_value v);
void ca_neg_ovr_undo(ovr *o);

/* x as an integer when as_int and it is whole, else as a real. */
static inline ca_value
ca_neg_num_value(double x, bool as_int)
{
	if (as_int && x >= -9e15 && x <= 9e15 && x == floor(x))
		return ca_int((int64_t)x);
	return ca_real(x);
}

/* Sort v (indexes of slots, jobs or customers) by cmp, which compares
 * two of them. */
typedef int ca_neg_cmp(const ca_neg *n, uint32_t a, uint32_t b);
void ca_neg_sort(const ca_neg *n, uint32_t *v, size_t cnt, ca_neg_cmp *cmp);

/* The hash of a name for the customer and slot tables. */
static inline uint64_t
ca_neg_name_hash(const char *s, size_t len)
{
	uint64_t h = ca_hash_bytes(0, s, len);

	return h ^ h >> 32;
}

/* The slots not taken matching autocluster mcl (some may have been taken
 * since), made now if needed: valid until the next call. */
const ca_hits *ca_neg_hits(ca_neg *n, uint32_t mcl);
/* Some slot matches autocluster mcl, taken or not. */
bool ca_neg_hits_some(ca_neg *n, uint32_t mcl);
/* Every slot matching autocluster mcl, taken or not, in *all (which the
 * caller frees). */
void ca_neg_hits_all(ca_neg *n, uint32_t mcl, ca_hits *all);

/* The concurrency limits of job j with slot s (NULL: its static ones):
 * true with the lower-cased text in *list when it names some. */
bool ca_neg_job_limits(ca_neg *n, const struct job *j, const struct slot *s,
    const char **list, size_t *len);

/* ---- neg_submitters.c: customers, job order, pie spins, group quotas ---- */

uint32_t ca_neg_cust_find(const ca_neg *n, const char *name, size_t len);
uint32_t ca_neg_cust_get(ca_neg *n, const char *name, size_t len);
/* The submitter of a job ad; the customer charged for a claimed slot
 * (with the running job travelling with it, or NULL), or NONE. */
uint32_t ca_neg_submitter_of(ca_neg *n, const ca_ad *job);
uint32_t ca_neg_remote_of(ca_neg *n, const ca_ad *slot, const ca_ad *job);
/* Sort each submitter's idle jobs into job order. */
void ca_neg_order_jobs(ca_neg *n);
/* Negotiate every submitter: by group when groups are defined. */
void ca_neg_spins(ca_neg *n);

/* ---- neg_candidates.c: a job's candidate slots and the match ---- */

/* Consumption policy of a partitionable slot: whether it has one and with
 * which resources. */
void ca_neg_setup_cp(ca_neg *n, struct slot *s);
/* Remote* attributes of a claimed slot, as they are now. */
void ca_neg_remote_eph(ca_neg *n, struct slot *s);
/* Slot<N>_Remote* of every slot whose machine has slots (TotalSlots), for
 * the names some ad or expression spells. */
void ca_neg_setup_cross(ca_neg *n);
/* Take the best candidate of key k for job jb that the turn allows; false
 * when there is none, with the reason it got nothing in *why. */
bool ca_neg_find(ca_neg *n, struct job *jb, struct key *k, struct turn *t, bool follow,
    uint8_t *why);
/* CLAIM_PARTITIONABLE_LEFTOVERS: job q of submitter si was just matched to
 * a partitionable slot; the schedd starts the next jobs of the submitter
 * that fit in what is left of it (matches of their own). */
void ca_neg_claim_leftovers(ca_neg *n, uint32_t si, uint32_t q);
/* Forget a key's candidates. */
void ca_neg_cache_clear(struct cache *c);
/* For the followed job: what the rules make of every slot now (R_SLOT). */
void ca_neg_survey(ca_neg *n, uint32_t job, struct key *k, bool only_rank);

/* ---- neg_report.c: the decision log, match records, summary, account ---- */

extern const char *const ca_neg_record_names[];	/* NULL-terminated */
struct rec *ca_neg_log(ca_neg *n, int kind, uint32_t who);
/* A decision about job j (R_MATCH ... R_IDLE), with its reason. */
struct rec *ca_neg_decide(ca_neg *n, int kind, uint32_t j, uint8_t why);

#endif
