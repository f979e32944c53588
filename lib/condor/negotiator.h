/* negotiator.h - one negotiation cycle of HTCondor's negotiator: fair share by
 * effective user priority, job order, preemption, group quotas, p-slots. */
#ifndef CA_NEGOTIATOR_H
#define CA_NEGOTIATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accountant.h"
#include "classad.h"
#include "config.h"
#include "groups.h"

/*
 * The cycle, as HTCondor's manual describes negotiation, pie spins and pie
 * slices (HTCondor's matchmaker where the manual is silent):
 *   1. Slots: every slot ad NEGOTIATOR_SLOT_CONSTRAINT allows, whatever
 *      its state. The pool's size is the sum of their SLOT_WEIGHTs. Claimed
 *      and Preempting slots charge their slot weight to the user running
 *      there (AccountingGroup, else RemoteUser), and the concurrency limits
 *      their claims hold are counted.
 *   2. Submitters: the idle jobs' AccountingGroup, else User (else
 *      Owner@UID_DOMAIN); nice-user jobs submit as nice-user.<user>.
 *   3. Submitters in order of effective priority (the accountant's Priority
 *      x PriorityFactor; 0.5 x the default factor for a new one), best first.
 *   4. Pie spins: each submitter's slice is its share, by the inverse ratio
 *      of effective priorities, of the pool (or of its group's allocation),
 *      less what it already uses; the spin gives every submitter its slice
 *      (one slot more when its slice is not whole and it got nothing this
 *      spin), and spins repeat with new slices while they make matches and
 *      slots and demand remain. Nice users only get what the others leave.
 *      Submitters below their Floor first get up to it in a spin of their
 *      own; a submitter's Ceiling bounds what it uses.
 *   5. A submitter's jobs in job order: PreJobPrio1, PreJobPrio2, JobPrio,
 *      PostJobPrio1, PostJobPrio2 (higher first), then QDate (older first),
 *      ClusterId, ProcId. Jobs whose match-relevant attributes are equal
 *      (autoclusters) are matched as one; once a job gets nothing, the rest
 *      of its cluster (ClusterId, or SIGNIFICANT_ATTRIBUTES alike) is
 *      skipped for that turn; other jobs go on. A job whose concurrency
 *      limits are full gets nothing.
 *   6. A job's candidates: slots where both Requirements hold, less Claimed
 *      slots not running a job; an idle slot is NoPreemption; a running one
 *      is Rank when its RANK of the job beats CurrentRank, else Priority when
 *      the running user is another one with a worse effective priority,
 *      the RANK is not worse and PREEMPTION_REQUIREMENTS (default False)
 *      holds. Sorted by NEGOTIATOR_PRE_JOB_RANK, the job's Rank,
 *      NEGOTIATOR_POST_JOB_RANK, the reason (NoPreemption, Rank, Priority),
 *      PREEMPTION_RANK, highest first (then slot input order); the best
 *      one the submitter's slice allows is taken and leaves the cycle.
 * See negotiate(1) for everything else.
 */

/* Match reasons, in the order the candidate sort prefers them (higher). */
enum ca_neg_reason {
	CA_NEG_PRIORITY = 0,
	CA_NEG_RANK = 1,
	CA_NEG_NOPREEMPTION = 2
};
extern const char *const ca_neg_reason_name[3];	/* "Priority", "Rank", "NoPreemption" */

/* Why an idle job got nothing, for the summary. */
enum ca_neg_why {
	CA_WHY_NONE,		/* matched, or never looked at */
	CA_WHY_NOMATCH,		/* no slot's Requirements and its own hold together */
	CA_WHY_LIMIT,		/* the submitter's pie slice was used up */
	CA_WHY_QUOTA,		/* its group's quota was reached */
	CA_WHY_NOPREEMPT,	/* only busy slots match, and preemption is not allowed */
	CA_WHY_OUTRANKED,	/* the slots it matches went to others or prefer their job */
	CA_WHY_CLIMIT,		/* one of its concurrency limits is reached */
	CA_WHY_CEILING,		/* its submitter's ceiling is reached */
	CA_WHY_DEPTH,		/* left to the schedd in a partitionable slot matched
				 * for a job like it (NEGOTIATOR_DEPTH_FIRST) */
	CA_WHY_N
};
extern const char *const ca_neg_why_name[CA_WHY_N];

/* The knobs (ca_neg_configure), with HTCondor's defaults. */
typedef struct ca_neg_policy {
	const ca_expr *preemption_req;	/* PREEMPTION_REQUIREMENTS; NULL: False */
	const ca_expr *preemption_rank;	/* PREEMPTION_RANK */
	const ca_expr *pre_job_rank;	/* NEGOTIATOR_PRE_JOB_RANK */
	const ca_expr *post_job_rank;	/* NEGOTIATOR_POST_JOB_RANK */
	bool consider_preemption;	/* NEGOTIATOR_CONSIDER_PREEMPTION: true */
	bool early_preemption;		/* NEGOTIATOR_CONSIDER_EARLY_PREEMPTION: false */
	bool pslot_preemption;		/* ALLOW_PSLOT_PREEMPTION: false */
	bool all_jobs_in_cluster;	/* NEGOTIATE_ALL_JOBS_IN_CLUSTER: false */
	bool consumption_policy;	/* CONSUMPTION_POLICY: false */
	bool depth_first;		/* NEGOTIATOR_DEPTH_FIRST: false */
	bool claim_leftovers;		/* CLAIM_PARTITIONABLE_LEFTOVERS: true */
	bool pr_stable;			/* PREEMPTION_REQUIREMENTS_STABLE: true */
	bool prank_stable;		/* PREEMPTION_RANK_STABLE: true */
	bool ignore_user_prio;		/* NEGOTIATOR_IGNORE_USER_PRIORITIES: false */
	bool cross_slot_prios;		/* NEGOTIATOR_CROSS_SLOT_PRIOS: true here (the
					 * manual lists Slot<N>_RemoteUserPrio; HTCondor:
					 * false) */
	bool weighted_demand;		/* NEGOTIATOR_USE_WEIGHTED_DEMAND: true */
	double rr_rate;			/* GROUP_QUOTA_ROUND_ROBIN_RATE: 1e100 */
	const ca_expr *group_sort;	/* GROUP_SORT_EXPR */
	const ca_expr *slot_constraint;	/* NEGOTIATOR_SLOT_CONSTRAINT; NULL: all */
	const ca_expr *job_constraint;	/* NEGOTIATOR_JOB_CONSTRAINT; NULL: all */
	const ca_expr *poolsize_constraint; /* NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT */
	const ca_name **sigattrs;	/* SIGNIFICANT_ATTRIBUTES; NULL: by ClusterId */
	size_t nsigattrs;
	const char *slot_prefix;	/* STARTD_RESOURCE_PREFIX: "slot" */
} ca_neg_policy;

typedef struct ca_neg ca_neg;

/* A negotiator evaluating with cx (cx->now is the cycle's time) and taking
 * priorities, factors for new submitters, SLOT_WEIGHT and UID_DOMAIN from
 * acct (borrowed, may hold no records). */
ca_neg *ca_neg_new(ca_ctx *cx, ca_acct *acct);
void ca_neg_free(ca_neg *n);

/* Read the knobs above, the consumption policy knobs and the groups from
 * cfg (cfg may be freed afterwards). Returns 0, or -1 with err set. */
int ca_neg_configure(ca_neg *n, ca_config *cfg, ca_diag *err);
/* Lines about ignored definitions ("FILE:LINE: text\n"), or "". */
const char *ca_neg_warnings(const ca_neg *n);
const ca_neg_policy *ca_neg_get_policy(const ca_neg *n);

/* Add a slot ad or a job ad; the negotiator owns it from now on. Jobs are
 * stored compactly (equal expressions shared), so the ad pointer passed is
 * freed at once. Jobs that are not idle (JobStatus other than 1) are kept
 * out of the cycle. */
void ca_neg_add_slot(ca_neg *n, ca_ad *slot);
void ca_neg_add_job(ca_neg *n, ca_ad *job);
/* A job ad the caller keeps: the negotiator stores its own compact copy
 * (as ca_neg_add_job of a copy, without making the copy). */
void ca_neg_offer_job(ca_neg *n, const ca_ad *job);

/* Follow job id ("ClusterId.ProcId") through the cycle: the negotiator
 * records, as it decides, what it makes of every slot for that job.
 * Call before ca_neg_run. */
void ca_neg_explain(ca_neg *n, const char *jobid);
/* The followed job's account after the run, from the decisions recorded:
 * its submitter and place in job order, every turn of its submitter while
 * it waited, every slot and why it was or was not a candidate, what the
 * turn took, and the result. */
void ca_neg_account(const ca_neg *n, strbuf *out);

/* Called as the cycle goes, for a program's progress line: after each
 * job a submitter's turn comes to, with the pie spin, the jobs come to so
 * far (in every spin) and the matches made. */
typedef void ca_neg_progress_fn(void *arg, int spin, size_t jobs, size_t matches);
void ca_neg_on_progress(ca_neg *n, ca_neg_progress_fn *fn, void *arg);

/* Run the cycle. Returns the number of matches. */
size_t ca_neg_run(ca_neg *n);

/* The matches in the order they were made. */
size_t ca_neg_nmatches(const ca_neg *n);
/* Match i as a match record (Event = "Match", ...; see negotiate(1)): a new
 * ad the caller frees. */
ca_ad *ca_neg_match_ad(ca_neg *n, size_t i);

/* Per submitter (and group) figures of the cycle as a text table, with
 * the reason each idle job waits: its last decision. */
void ca_neg_summary(ca_neg *n, strbuf *out);

/* Figures for tests and benchmarks. */
typedef struct ca_neg_stats {
	size_t slots, jobs, idle, submitters, autoclusters, keys, matches;
	int spins;		/* pie spins, over all groups and phases */
	double pool;		/* weighted size of the pool */
} ca_neg_stats;
void ca_neg_get_stats(const ca_neg *n, ca_neg_stats *st);

/* A submitter's figures after the run (NULL when it had no idle job). */
typedef struct ca_neg_subinfo {
	const char *name;
	double eup;		/* effective priority */
	double pie;		/* its first pie slice */
	double usage;		/* weighted usage at the start of the cycle */
	size_t matches, idle_left;
	size_t why[CA_WHY_N];	/* idle jobs left, by reason */
	const ca_group *group;
} ca_neg_subinfo;
bool ca_neg_submitter(const ca_neg *n, const char *name, ca_neg_subinfo *out);
const ca_groups *ca_neg_groups(const ca_neg *n);

#endif
