/* startd_int.h - what the startd's files share and nobody else sees: the
 * simulator, its slots and machines, and the fast slot attribute accessors. */
#ifndef CA_STARTD_INT_H
#define CA_STARTD_INT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "classad.h"

/*
 * Include it after startd.h (the interface), whose types it uses.
 *
 * The files of the startd:
 *   startd.c         the simulator object, its configuration (HTCondor's
 *                    defaults and templates) and the policy, compiled and
 *                    evaluated
 *   startd_state.c   the state machine: what a slot publishes, the policy
 *                    state by state (transitions 1-37), claims, retirement,
 *                    the timers and advancing a machine in time
 *   startd_slots.c   machines and their slots: slot ads from a stream, the
 *                    slot layout of --init, partitionable and dynamic slots
 *   startd_events.c  events: checking them, filing them by machine and
 *                    applying them to slots
 *   startd_report.c  the transition log, --why and the timeline's status line
 *   startd_deadline.c  when the policy may decide otherwise as the clocks move
 *   startd_hooks.c   startd cron hooks and benchmark jobs: running them and
 *                    merging the ads they print
 *   startd_res.c     custom machine resources (GPUs ...): what a machine has,
 *                    what its slots publish, ids given out and taken back
 * Functions shared between them are named ca_sd_*.
 */

/* ---- attribute names, interned once (ORDER ATTRS: aname[] follows) ---- */

enum {
	A_STATE, A_ACTIVITY, A_ECS, A_ECA, A_MYCURRENTTIME, A_CLOCKMIN, A_CLOCKDAY,
	A_KBDIDLE, A_CONSIDLE, A_LOADAVG, A_CONDORLOAD, A_CPUISBUSY, A_CPUBUSYTIME,
	A_REQUIREMENTS, A_WRL, A_CURRENTRANK, A_LASTBENCH, A_MIPS, A_KFLOPS,
	A_NAME, A_MACHINE, A_MYTYPE, A_SLOTID, A_SLOTTYPE, A_SLOTTYPEID, A_PSLOT, A_DSLOT,
	A_DSLOTID, A_CPUS, A_MEMORY, A_DISK, A_TSCPUS, A_TSMEMORY, A_TSDISK, A_TCPUS,
	A_TMEMORY, A_TDISK, A_DETCPUS, A_DETMEMORY, A_TOTALSLOTS, A_SLOTWEIGHT,
	A_JOB, A_REMOTEUSER, A_REMOTEOWNER, A_ACCTGROUP, A_JOBID, A_GLOBALJOBID, A_JOBSTART,
	A_REMOTEUSERPRIO, A_CLAIMSTART, A_CLAIMJOBSTARTS, A_TJOBRUN, A_TJOBSUSP,
	A_TCLAIMRUN, A_TCLAIMSUSP, A_RETLEFT, A_EVICTION,
	A_PJOB, A_PJOBID, A_PRANK, A_PUSER, A_POWNER, A_PGROUP, A_PUSERPRIO, A_PMATCHTIME,
	A_PCLAIMTIME,
	A_DRAINING, A_DRAINHOW, A_DRAINRESUME, A_SHUTDOWN, A_BFDEST,
	A_USER, A_OWNER, A_CLUSTERID, A_PROCID, A_JOBUNIVERSE, A_MJRT, A_JMVT,
	A_REQCPUS, A_REQMEM, A_REQDISK,
	A_EVENT, A_TIME, A_SUBMITTER, A_MATCHREASON, A_MODE, A_FAST, A_HOW, A_RESUME,
	A_CPUBUSY, A_CRONRUNS, A_GONE, A_LEASE, A_HOLDREASON, A_HOLDCODE, A_HOLDSUB, A_HELDJOB,
	A_N
};
extern const char *const ca_sd_aname[A_N];

/* ---- the policy expressions ---- */

enum {
	PX_START, PX_IS_OWNER, PX_WANT_SUSPEND, PX_WANT_VACATE, PX_SUSPEND, PX_CONTINUE,
	PX_PREEMPT, PX_KILL, PX_RANK, PX_MJRT, PX_MMVT, PX_START_BACKFILL, PX_EVICT_BACKFILL,
	PX_RUNBENCH, PX_CPUBUSY, PX_WORKLIFE, PX_MODCPUS, PX_MODMEM, PX_MODDISK, PX_WANT_HOLD,
	PX_WANT_HOLD_REASON, PX_WANT_HOLD_SUBCODE, PX_N
};
#define PX_FIRST_VANILLA PX_WANT_SUSPEND	/* WANT_SUSPEND..KILL have _VANILLA forms */
#define PX_NVANILLA	(PX_KILL - PX_WANT_SUSPEND + 1)

/* An expression the startd publishes: its shared copy (ca_expr_share),
 * which every slot holds as it is and a writer prints once, made when first
 * published, NULL until then or when the store is full; and the last
 * shared tree a slot had that is the same (a reader shares a tree by its
 * text, which gives another pointer), so that the next slot's is told the
 * same by comparing pointers. */
struct pub {
	const ca_expr *shared, *same;
};

/* An attribute published from STARTD_ATTRS. */
struct sattr {
	const ca_name *name;
	const char *spell;
	ca_expr *e;
	struct pub pub;		/* e published */
};

/* What publishing a policy added to a slot of a shape: the entries of the
 * names it lacked, the places in the pass that added them, and the shape
 * the slot then had. The next slots of that shape take the entries at
 * once (ca_ad_append_run); the pass goes on for the names they have. */
#define PUB_RUN_MAX	48
#define PUB_RUNS	8
#define PUB_POS		256	/* places in a pass that a run can tell */
struct pub_run {
	uint32_t from, to;	/* shapes; from 0: none kept */
	uint32_t n;
	uint64_t added[PUB_POS / 64];
	ca_attr at[PUB_RUN_MAX];
};

struct sattrs {
	int64_t id;			/* the SlotID it is for */
	ca_vec(struct sattr) a;
	struct pub_run *runs;		/* PUB_RUNS of them, made when needed */
	uint32_t runs_next;		/* the one to give up for a new one */
};

/* The policy compiled for machines with given detected cores and memory
 * (the configuration may use $(DETECTED_CORES) and $(DETECTED_MEMORY)). */
struct policy {
	int64_t cores, memory;
	ca_arena arena;
	ca_expr *x[PX_N];		/* NULL: not defined */
	ca_expr *vx[PX_NVANILLA];	/* the _VANILLA forms, NULL if not defined */
	struct pub xpub[PX_N], vxpub[PX_NVANILLA];	/* as slots publish them */
	const ca_name *xname[PX_N];	/* published names */
	const ca_name *vname[PX_NVANILLA];
	ca_vec(struct sattrs) sa;	/* STARTD_ATTRS per SlotID, built when needed */
	struct esum *sum[PX_N + PX_NVANILLA];	/* built when first needed */
};

/* ---- reasons a claim is given up (ORDER REASONS: ca_sd_reason_name[]) ---- */

enum reason {
	R_NONE, R_PREEMPT, R_VACATE, R_VACATE_FAST, R_RELEASE, R_SHUTDOWN,
	R_SHUTDOWN_FAST, R_SHUTDOWN_PEACEFUL, R_DRAIN_QUICK, R_DRAIN_FAST,
	R_IS_OWNER, R_WORKLIFE, R_AUTO_RELEASE, R_START, R_LEASE, R_N
};
extern const char *const ca_sd_reason_name[R_N];

/* Times and durations stay within this many seconds of the epoch. */
#define TIME_LIMIT ((int64_t)1 << 40)

/* ---- slots and machines ---- */

enum { K_STATIC, K_PARTITIONABLE, K_DYNAMIC };

struct slot {
	ca_ad *ad;
	int st, ac;
	int64_t clock;
	int kind;
	int64_t id, sub;	/* SlotID; DSlotId of a dynamic slot */
	bool deleted;
	bool bad;		/* not a slot we can run: written back unchanged */
	struct policy *pol;
	int64_t eval_at;	/* its policy may decide otherwise then (INT64_MAX: not
				 * before an event) */
	bool gone;		/* it has ScheddGoneTime: its claim's lease may end */
	bool settled;		/* settled at version `settled_at` of its ad */
	bool ticked;		/* and only its clocks moved since (tick()) */
	uint32_t settled_at;
	bool hashed;		/* nhash is the hash of its Name (a slot is named
				 * once: nothing sets Name after) */
	uint64_t nhash;
};

/* A list of names, each malloc'ed. */
typedef ca_vec(char *) ca_sd_names;

/* ---- custom machine resources ---- */

#define CA_SD_NCUSTOM 16	/* custom resources a startd knows at most */
#define CA_SD_MAXIDS 1024	/* ids of one custom resource a machine has at most */

/* The attributes of a custom resource <name> (ORDER: mr_fmt[]). */
enum { MR_AMT, MR_TOTAL, MR_TSLOT, MR_DETECTED, MR_ASSIGNED, MR_AVAIL, MR_REQ, MR_REQUIRE,
	MR_N };

struct mres {
	const char *name;	/* as first spelled (in sd->arena) */
	const char *conf;	/* MACHINE_RESOURCE_<name>: a count or ids, or NULL */
	bool inventory;		/* MACHINE_RESOURCE_INVENTORY_<name> */
	bool configured;	/* by one of those (else only seen in slot ads) */
	const ca_name *n[MR_N];
	const char *spell[MR_N];
};

/* What a machine has of a custom resource. */
struct mhave {
	int64_t total;
	bool with_ids;
	ca_sd_names ids;
};

/* What a dynamic slot is to get of a custom resource. */
struct rplan {
	int k;			/* the resource */
	int64_t amt;
	bool with_ids;
	ca_sd_names ids;
};

struct ca_smachine {
	ca_startd *sd;
	ca_vec(struct slot *) slots;
	ca_dict byname;		/* slots by Name, any case (filled when looked up) */
	uint32_t nindexed;	/* how many slots byname holds */
	ca_sd_names keys;	/* the names the machine answers to */
	bool settled;		/* evaluated at the slots' own clocks once */
};

/* A latch of STARTD_LATCH_EXPRS: the value of attribute name as a number,
 * published as <name>Value, and the time it last changed as <name>Time. */
struct latch {
	const ca_name *name, *value, *time;
	const char *value_spell, *time_spell;	/* in sd->arena */
};

/* A policy expression a decision evaluated, with the claim's job or not. */
struct tracked {
	const ca_expr *e;
	int ix;			/* its index in policy.sum: px, or PX_N + a _VANILLA form */
	bool job;
};

/* What a policy expression reads, for a quick look at whether a slot's
 * clocks can change its value: the names it refers to, and whether it
 * reads a clock itself (time(), KeyboardIdle, ...). */
struct eref {
	uint8_t scope;		/* a ca_scope */
	const ca_name *name;
};
struct esum {
	bool clock;
	uint32_t n;
	struct eref *refs;	/* in policy.arena */
};

/* What the evaluation records for --why and the timeline. */
struct rec {
	const char *name;
	const ca_expr *e;
	bool job;
	char *text;		/* "NAME = value" */
};

struct ca_startd {
	ca_config *cfg;
	ca_ctx cx;
	ca_arena arena;			/* expressions built once */
	ca_vec(struct policy *) pols;
	int64_t match_timeout, killing_timeout, bench_time;
	int64_t alive_interval, alives_missed;	/* ALIVE_INTERVAL, MAX_CLAIM_ALIVES_MISSED */
	bool backfill, auto_claim;
	bool resident;		/* ca_startd_set_resident */
	bool bench_at_start;		/* RunBenchmarks is defined and not FALSE */
	ca_sd_names xslot;		/* STARTD_SLOT_ATTRS / STARTD_VM_EXPRS names */
	ca_vec(struct latch) latches;	/* STARTD_LATCH_EXPRS, SYSTEM_STARTD_LATCH_EXPRS */
	ca_vec(struct hook) hooks;	/* STARTD_CRON_JOBLIST, BENCHMARKS_JOBLIST */
	ca_vec(struct mres) mres;	/* custom machine resources */
	int64_t hook_timeout;		/* STARTD_STEP_HOOK_TIMEOUT */
	bool latch_cpubusy;		/* CpuBusy is latched: CpuBusyTime is its time */
	bool latch_clock;		/* a latch names a clock: its value moves
					 * with every tick, with no deadline */
	bool xslot_vm;			/* vmN_X names (STARTD_VM_EXPRS) */
	ca_slog_fn log;
	void *log_arg;
	ca_sdiag_fn diag;
	void *diag_arg;
	const ca_name *n[A_N];
	const ca_name *tt[CA_S_NSTATES][CA_A_NACTS];	/* TotalTime<State><Activity> */
	char tt_spell[CA_S_NSTATES][CA_A_NACTS][40];
	ca_expr *req_normal, *req_false, *wrl;
	ca_expr *slot_weight;		/* SLOT_WEIGHT's default: Cpus */
	struct pub req_normal_pub, req_false_pub, wrl_pub, weight_pub;	/* published */
	strbuf cause, tmp;
	int64_t clock_t;		/* ClockMin/ClockDay cache */
	int clock_min, clock_day;
	/* recording for --why and the timeline */
	ca_vec(struct rec) recs;
	bool recording;
	bool dry;			/* --why: decide, do not act */
	strbuf would;			/* what a dry run would have done */
	ca_sd_names reported;		/* STARTD_ATTRS problems already reported */
	const char *lastname;		/* the knob evaluated last, for causes */
	/* what a slot's decision evaluated, for when it may change */
	bool track;
	ca_vec(struct tracked) tracked;
	ca_smachine *machine;		/* the machine being settled */
	const ca_builtin *bi_time, *bi_if, *bi_int, *bi_floor, *bi_ceiling, *bi_ceil, *bi_round;
	uint64_t clock_bloom;		/* a bit of the hash of every clock's name */
};

/* ---- slot attributes: the fast path, by attribute index ---- */

/* The slots of a machine keep their state in literals; these read a literal
 * without evaluating and update one in place. */

static inline ca_expr *
get_expr(const ca_ad *ad, const ca_name *n)
{
	ca_attr *at = ca_ad_find(ad, n);

	return at ? ca_attr_expr(ad, at) : NULL;
}

/* The literal value of attribute n, or UNDEFINED when it is missing or not
 * a literal. */
static inline ca_value
lit(const ca_ad *ad, const ca_name *n)
{
	ca_attr *at = ca_ad_find(ad, n);
	ca_value v;

	return at != NULL && ca_attr_lit_in(ad, at, &v) ? v : ca_undef();
}

static inline bool
lit_int(const ca_ad *ad, const ca_name *n, int64_t *out)
{
	ca_value v = lit(ad, n);

	if (v.kind == CA_INT) {
		*out = v.u.i;
		return true;
	}
	if (v.kind == CA_REAL && isfinite(v.u.r) && fabs(v.u.r) < 9e15) {
		*out = (int64_t)v.u.r;
		return true;
	}
	if (v.kind == CA_BOOL) {
		*out = v.u.b;
		return true;
	}
	return false;
}

/* A time (or a duration) within +-TIME_LIMIT seconds, so that sums of two
 * of them cannot overflow; false for anything else. */
static inline bool
lit_time(const ca_ad *ad, const ca_name *n, int64_t *out)
{
	int64_t v;

	if (!lit_int(ad, n, &v) || v < -TIME_LIMIT || v > TIME_LIMIT)
		return false;
	*out = v;
	return true;
}

static inline bool
lit_true(const ca_ad *ad, const ca_name *n)
{
	return ca_value_truth(lit(ad, n)) == 1;
}

/* The text of a string literal attribute, or NULL. */
static inline const char *
lit_str(const ca_ad *ad, const ca_name *n)
{
	ca_value v = lit(ad, n);

	return v.kind == CA_STRING ? v.u.s : NULL;
}

/* A number from a value: integers, reals (not NaN), relative times, bools. */
static inline bool
num_of(ca_value v, double *out)
{
	switch (v.kind) {
	case CA_INT:
		*out = (double)v.u.i;
		return true;
	case CA_REAL:
	case CA_RELTIME:
		if (isnan(v.u.r))
			return false;
		*out = v.u.r;
		return true;
	case CA_BOOL:
		*out = v.u.b;
		return true;
	default:
		return false;
	}
}

/* The nested ad held by attribute n (Job = [ ... ], PreemptingJob): its
 * expression, or the ad; NULL when n holds no ad. */
static inline const ca_expr *
nested_expr(const ca_ad *ad, const ca_name *n)
{
	const ca_expr *e = get_expr(ad, n);

	while (e != NULL && e->node == CA_N_PAREN)
		e = e->u.k.a;
	return e != NULL && e->node == CA_N_AD ? e : NULL;
}

static inline ca_ad *
nested(const ca_ad *ad, const ca_name *n)
{
	const ca_expr *e = nested_expr(ad, n);

	return e != NULL ? e->u.ad : NULL;
}

/* Set attribute n of ad to the literal v; a literal already there is
 * updated in place (no memory is used for a number). spell: a static
 * string or NULL. Returns whether the value changed. */
bool ca_sd_setv(ca_ad *ad, const ca_name *n, const char *spell, ca_value v);
/* Add d to a numeric literal attribute (creating it when create is set). */
void ca_sd_add_num(ca_ad *ad, const ca_name *n, const char *spell, int64_t d, bool create);

static inline void
set_int(ca_startd *sd, struct slot *s, int a, int64_t i)
{
	ca_sd_setv(s->ad, sd->n[a], ca_sd_aname[a], ca_int(i));
}

static inline void
set_real(ca_startd *sd, struct slot *s, int a, double r)
{
	ca_sd_setv(s->ad, sd->n[a], ca_sd_aname[a], ca_real(r));
}

static inline void
set_bool(ca_startd *sd, struct slot *s, int a, bool b)
{
	ca_sd_setv(s->ad, sd->n[a], ca_sd_aname[a], ca_bool(b));
}

static inline void
set_str(ca_startd *sd, struct slot *s, int a, const char *str)
{
	ca_sd_setv(s->ad, sd->n[a], ca_sd_aname[a], ca_str(str, (uint32_t)strlen(str)));
}

static inline void
add_num(ca_startd *sd, struct slot *s, int a, int64_t d, bool create)
{
	ca_sd_add_num(s->ad, sd->n[a], ca_sd_aname[a], d, create);
}

/* A copy of expression e (a job ad) under attribute a. */
static inline void
store_job(ca_startd *sd, struct slot *s, int a, const ca_expr *e)
{
	ca_ad_set(s->ad, sd->n[a], ca_sd_aname[a], ca_expr_copy(s->ad->arena, e));
}

static inline void
del(ca_startd *sd, struct slot *s, int a)
{
	ca_ad_delete(s->ad, sd->n[a]);
}

/* del of attributes a[0..n), 32 at once. */
static inline void
del_all(ca_startd *sd, struct slot *s, const int *a, size_t n)
{
	const ca_name *nm[32];

	for (size_t i = 0; i < n; i += 32) {
		size_t k = n - i < 32 ? n - i : 32;
		for (size_t j = 0; j < k; j++)
			nm[j] = sd->n[a[i + j]];
		ca_ad_delete_all(s->ad, nm, k);
	}
}

static inline bool
has(ca_startd *sd, const struct slot *s, int a)
{
	return ca_ad_find(s->ad, sd->n[a]) != NULL;
}

/* ---- what a slot is doing ---- */

static inline bool
live(const struct slot *s)
{
	return !s->deleted && !s->bad;
}

static inline ca_ad *
job_of(ca_startd *sd, const struct slot *s)
{
	return nested(s->ad, sd->n[A_JOB]);
}

/* A job (a starter) is on the slot. */
static inline bool
job_active(ca_startd *sd, const struct slot *s)
{
	return has(sd, s, A_JOBSTART);
}

static inline const char *
slot_name(ca_startd *sd, const struct slot *s)
{
	const char *n = lit_str(s->ad, sd->n[A_NAME]);

	return n ? n : "(no name)";
}

static inline enum reason
eviction(ca_startd *sd, const struct slot *s)
{
	const char *r = lit_str(s->ad, sd->n[A_EVICTION]);

	if (r != NULL)
		for (int i = 1; i < R_N; i++)
			if (strcmp(r, ca_sd_reason_name[i]) == 0)
				return (enum reason)i;
	return R_NONE;
}

static inline void
set_eviction(ca_startd *sd, struct slot *s, enum reason r)
{
	set_str(sd, s, A_EVICTION, ca_sd_reason_name[r]);
}

static inline bool
draining(ca_startd *sd, const struct slot *s)
{
	return lit_true(s->ad, sd->n[A_DRAINING]);
}

static inline const char *
shutdown_mode(ca_startd *sd, const struct slot *s)
{
	return lit_str(s->ad, sd->n[A_SHUTDOWN]);
}

/* A preempting match is waiting (claimed or not). */
static inline bool
pmatch(ca_startd *sd, const struct slot *s)
{
	return has(sd, s, A_PMATCHTIME) || has(sd, s, A_PCLAIMTIME);
}

/* The preempting claim has been accepted. */
static inline bool
pclaim(ca_startd *sd, const struct slot *s)
{
	return has(sd, s, A_PCLAIMTIME);
}

/* ---- startd.c: configuration and the policy ---- */

/* Split a list of names ("a, b c"); free with ca_sd_names_free. */
void ca_sd_names_split(ca_sd_names *v, const char *s);
void ca_sd_names_free(ca_sd_names *v);
/* err about knob (at its place in the configuration, else "<config>"):
 * returns -1. */
int ca_sd_config_err(ca_startd *sd, const char *knob, ca_diag *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A problem of the configuration, to the diagnostic callback. */
void ca_sd_diag(ca_startd *sd, const ca_diag *err);
/* Define DETECTED_CORES, DETECTED_MEMORY... for a machine. */
void ca_sd_set_detected(ca_startd *sd, int64_t cores, int64_t memory);
/* The policy for a machine of cores and memory, compiled once; NULL (and
 * reported) when it does not compile. */
struct policy *ca_sd_policy_for(ca_startd *sd, int64_t cores, int64_t memory);
/* Publish the policy expressions and STARTD_ATTRS in the slot. */
void ca_sd_publish_policy(ca_startd *sd, struct slot *s);
/* Put expression e under name n (spelled spell) in slot s unless the same
 * is there: its shared copy pub->shared (made the first time), which every
 * slot holds as it is, or else a copy of its own. What it did: nothing,
 * added the name with the shared copy, replaced the slot's, or added the
 * name with a copy of the slot's own. */
enum { PUB_KEPT, PUB_ADDED, PUB_SET, PUB_OWN };
int ca_sd_publish_expr(struct slot *s, const ca_name *n, const char *spell, const ca_expr *e,
    struct pub *pub);
/* Policy knob px for slot s (the job of its claim as TARGET when with_job):
 * its value, its truth (1, 0, -1), or a number (def when not a number). */
ca_value ca_sd_eval(ca_startd *sd, struct slot *s, int px, bool with_job);
int ca_sd_truth(ca_startd *sd, struct slot *s, int px, bool with_job);
double ca_sd_num(ca_startd *sd, struct slot *s, int px, bool with_job, double def);
/* The slot's RANK of job, as a number (failure: 0.0). */
double ca_sd_slot_rank(ca_startd *sd, struct slot *s, const ca_ad *job);
/* Is the slot willing to run job (START && WithinResourceLimits against
 * it)? When not, *why says what failed. */
bool ca_sd_willing(ca_startd *sd, struct slot *s, const ca_ad *job, const char **why);
void ca_sd_clear_records(ca_startd *sd);

/* ---- startd_state.c: the state machine ---- */

/* The transition num of s to st/ac, for cause. */
void ca_sd_go(ca_startd *sd, struct slot *s, int st, int ac, int num, const char *cause);
void ca_sd_publish_clock(ca_startd *sd, struct slot *s);
void ca_sd_publish_load(ca_startd *sd, struct slot *s);
void ca_sd_publish_requirements(ca_startd *sd, struct slot *s);
void ca_sd_publish_end(ca_startd *sd, struct slot *s);
bool ca_sd_cross_publish(ca_startd *sd, ca_smachine *m);
/* One decision for slot s; true when something changed. */
bool ca_sd_eval_slot(ca_startd *sd, ca_smachine *m, struct slot *s);
/* Evaluate every slot of m until none changes, and find when each may
 * decide otherwise (slot.eval_at). */
void ca_sd_settle(ca_startd *sd, ca_smachine *m);
/* Find slot.eval_at of s again when it is unknown (INT64_MIN). */
void ca_sd_refresh_deadline(ca_startd *sd, ca_smachine *m, struct slot *s);
/* Timers: when the next one of s expires (INT64_MAX: none) and which. */
enum { T_NONE, T_MATCH, T_PMATCH, T_VACATE, T_KILL, T_BFKILL, T_BENCH, T_EVAL, T_N };
int64_t ca_sd_deadline(ca_startd *sd, struct slot *s, int *which);
/* The startd's own timers of s only (not T_EVAL). */
int64_t ca_sd_timer(ca_startd *sd, struct slot *s, int *which);
double ca_sd_retirement_left(ca_startd *sd, struct slot *s);
/* When the claim of s ends because its schedd is gone (ScheddGone) and no
 * keep-alive renewed its lease (INT64_MAX: never); its lease in *dur. */
int64_t ca_sd_lease_end(ca_startd *sd, struct slot *s, int64_t *dur);
const char *ca_sd_retire_cause(ca_startd *sd, const struct slot *s);
/* Claims: their beginning, the preempting claim, a job starting, the
 * eviction of the job. */
void ca_sd_begin_claim(ca_startd *sd, struct slot *s);
void ca_sd_drop_preempting(ca_startd *sd, struct slot *s);
void ca_sd_unmatch(ca_startd *sd, struct slot *s, const char *cause);
void ca_sd_claim_matched(ca_startd *sd, struct slot *s, const char *how);
void ca_sd_claim_preempting(ca_startd *sd, struct slot *s, const char *how);
void ca_sd_activate(ca_startd *sd, struct slot *s, const ca_expr *e, const ca_ad *ev,
    const char *cause);
void ca_sd_to_preempting(ca_startd *sd, struct slot *s, int num, bool kill, const char *cause);
void ca_sd_leave_preempting(ca_startd *sd, struct slot *s, const char *why);
/* Draining is over (cancelled, or done): its attributes go. */
void ca_sd_stop_draining(ca_startd *sd, struct slot *s);
/* A benchmark measured result for a (A_MIPS or A_KFLOPS): the first one
 * is taken, later ones go into a weighted average, (3 * old + new) / 4, as
 * HTCondor's startd kept them; a MIPS result that is not positive is not
 * averaged in. */
void ca_sd_bench_result(ca_startd *sd, struct slot *s, int a, double result);
/* LastBenchmark, Mips and KFlops are the machine's: s's go to every slot. */
void ca_sd_share_bench(ca_startd *sd, ca_smachine *m, const struct slot *s);

/* ---- startd_deadline.c ---- */

/* When expression e of slot s (with job as TARGET, or NULL) may next change
 * its value, as the clocks of the slot move on: a time after s's clock, or
 * INT64_MAX. */
int64_t ca_sd_expr_deadline(ca_startd *sd, struct slot *s, const ca_expr *e, const ca_ad *job);
/* The same for the policy expression of a decision: INT64_MAX at once when
 * it reads no clock in slot s. */
int64_t ca_sd_tracked_deadline(ca_startd *sd, struct slot *s, const struct tracked *t,
    const ca_ad *job);
/* Once, when sd is made: what tells the clocks' names apart quickly. */
void ca_sd_clock_names_init(ca_startd *sd);
/* Is n one of the slot's clocks (or a copy of another slot's attribute,
 * which may be one)? */
bool ca_sd_clock_name(ca_startd *sd, const ca_name *n);

/* ---- startd_slots.c: machines ---- */

/* Slot and machine names compare in any case: a hash that agrees with
 * strcasecmp, for their tables. */
uint64_t ca_sd_hash_name(const char *s);
/* The live slot of m named name (any case), or NULL. */
struct slot *ca_sd_find_slot(ca_smachine *m, const char *name);
bool ca_sd_machine_named(const ca_smachine *m, const char *name);
/* A dynamic slot back in Owner or Unclaimed goes away. */
void ca_sd_delete_dslot(ca_startd *sd, ca_smachine *m, struct slot *s);
/* A dynamic slot for the job je of event ev carved out of partitionable
 * slot p; NULL (with *why) when p cannot run it. */
struct slot *ca_sd_carve(ca_startd *sd, ca_smachine *m, struct slot *p, const ca_expr *je,
    const ca_sevent *ev, const char **why);

/* ---- startd_res.c: custom machine resources ---- */

/* Read MACHINE_RESOURCE_<name>, MACHINE_RESOURCE_INVENTORY_<name> and
 * MACHINE_RESOURCE_NAMES: 0, or -1 with err set. */
int ca_sd_res_init(ca_startd *sd, ca_diag *err);
/* The index of custom resource name (known from now on), or -1 when it
 * cannot be one (Cpus, Memory, Disk, Swap, not a name, too many). */
int ca_sd_res_find(ca_startd *sd, const char *name, size_t len);
/* Split a list of ids ("CUDA0, CUDA1") into v, at most CA_SD_MAXIDS. */
void ca_sd_ids_split(ca_sd_names *v, const char *text);
/* Sort ids as a startd hands them out: digits by their number (CUDA2 before
 * CUDA10). */
void ca_sd_ids_sort(ca_sd_names *v);
/* The clauses WithinResourceLimits has for the configured resources. */
void ca_sd_res_wrl(ca_startd *sd, strbuf *out);
/* What the machine of description desc has of resource k (free h->ids
 * with ca_sd_names_free). */
void ca_sd_res_have(ca_startd *sd, const ca_ad *desc, int k, struct mhave *h);
/* Publish resource k in slot s: amt of it, with ids (when the machine's
 * has them) out of what the machine has. */
void ca_sd_res_publish(ca_startd *sd, struct slot *s, int k, const struct mhave *machine,
    int64_t amt, const ca_sd_names *ids);
/* What partitionable slot p gives of its custom resources to job (plan,
 * *n entries; free with ca_sd_res_plan_free): what it asks for, or what
 * the match event evad (or NULL) says a consumption policy consumed
 * (Consumed<name>). NULL, or why it cannot. */
const char *ca_sd_res_plan(ca_startd *sd, struct slot *p, const ca_ad *job, const ca_ad *evad,
    struct rplan *plan, int *n);
void ca_sd_res_plan_free(struct rplan *plan, int n);
/* Give dynamic slot d what the plan says, out of p; ", GPUs 1 (CUDA0)" to
 * note for each resource it gets. */
void ca_sd_res_give(ca_startd *sd, struct slot *p, struct slot *d, const struct rplan *plan,
    int n, strbuf *note);
/* Dynamic slot d goes: its custom resources back to p (when not NULL). */
void ca_sd_res_return(ca_startd *sd, struct slot *d, struct slot *p, strbuf *note);

/* ---- startd_hooks.c: startd cron hooks and benchmark jobs ---- */

struct hook;
/* Read STARTD_CRON_JOBLIST and BENCHMARKS_JOBLIST and their knobs: 0, or
 * -1 with err set. */
int ca_sd_hooks_init(ca_startd *sd, ca_diag *err);
void ca_sd_hooks_free(ca_startd *sd);
/* When the next startd cron hook of m is due, its clock at now (INT64_MAX:
 * none). */
int64_t ca_sd_hooks_deadline(ca_startd *sd, const ca_smachine *m, int64_t now);
/* Run the hooks of m due at t; their ads go into the slots. */
void ca_sd_hooks_run(ca_startd *sd, ca_smachine *m, int64_t t);
/* A Reconfig event: the OneShot hooks with RECONFIG_RERUN, and the others
 * with RECONFIG, run again at t. */
void ca_sd_hooks_reconfig(ca_startd *sd, ca_smachine *m, int64_t t);
/* Run the benchmark jobs for slot s of m (their Mips and KFlops averaged in);
 * false when there are none. */
bool ca_sd_run_benchmarks(ca_startd *sd, ca_smachine *m, struct slot *s);

/* ---- startd_events.c ---- */

/* Attributes nothing from outside may set: the state machine's own. */
bool ca_sd_machine_owned(ca_startd *sd, const ca_name *n);

/* "C.P" of a job: the event's JobId, else the job's ClusterId.ProcId. */
const char *ca_sd_job_id(ca_startd *sd, const ca_ad *job, const ca_ad *ev, char *buf,
    size_t len);
/* "job 12.0 of alice@example.org" */
const char *ca_sd_describe_job(ca_startd *sd, const ca_ad *job, const ca_ad *ev, strbuf *out);
void ca_sd_apply_event(ca_startd *sd, ca_smachine *m, ca_sevent *ev);
/* A match of partitionable slot p that waits for the dynamic slots it
 * preempts (PendingMatch) is applied once none of them is left vacating. */
void ca_sd_pending_match(ca_startd *sd, ca_smachine *m, struct slot *p);

/* ---- startd_report.c: causes and the log ---- */

const char *ca_sd_causef(ca_startd *sd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "NAME = value" for the knob evaluated last. */
const char *ca_sd_cause_val(ca_startd *sd, ca_value v);
/* The same for a knob evaluated without the job: "START = false locally
 * (without a job)". */
const char *ca_sd_cause_local(ca_startd *sd, ca_value v);
/* A log record of s: the transition num from fst/fac, or a note (num 0). */
void ca_sd_emit(ca_startd *sd, struct slot *s, int fst, int fac, int num, const char *cause);
void ca_sd_note(ca_startd *sd, struct slot *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* In a dry run (--why), say what would happen and do nothing: false. */
bool ca_sd_act(ca_startd *sd, int st, int ac, int num, const char *cause);

#endif
