/* replay.h - a real pool's workload replayed under a policy: the jobs of its
 * history and queue, the machines of its status, its priorities, simulated. */
#ifndef CA_REPLAY_H
#define CA_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "config.h"
#include "pool.h"

/*
 * A workload is read once and replayed under each policy in a fresh pool
 * (ca_pool_configure_with), every run from the same inputs:
 *   - jobs: each job ad of condor_history or condor_q -long is submitted
 *     at its QDate, with what it asks for (Owner, AccountingGroup,
 *     Requirements, Rank, Request*, ConcurrencyLimits, ...) and runs for
 *     the time it was measured to need: CommittedTime less
 *     CommittedSuspensionTime, else RemoteWallClockTime less
 *     CumulativeSuspensionTime. A job whose need is not known (one still
 *     idle or running in the queue) runs for the median need of its
 *     owner's measured jobs (at least what it ran already), else for the
 *     default run time; such jobs are counted as modelled.
 *   - machines: the slot ads of condor_status -long, one machine per
 *     Machine; its totals (TotalCpus, TotalMemory, TotalDisk) and its
 *     constant attributes describe it; the policy's slot layout makes its
 *     slots. Its class (for each class's configuration and figures) is the
 *     class expression's value on its first slot ad.
 *   - the accountant: condor_userprio -long records, taken as they are at
 *     the start.
 *   - owners at their desktops: sessions from an event file, or the
 *     seeded model (ca_replay_opts.desktops).
 * The result is a list of flat ads, one per row of the report, each with
 * Kind and Policy (ca_replay_run says which).
 */

typedef struct ca_replay ca_replay;

typedef struct ca_replay_opts {
	int64_t start;		/* the window: 0 = the first QDate */
	int64_t end;		/* 0 = the last submission */
	int64_t until;		/* when a run stops at the latest: 0 = end + 7 days */
	int64_t every;		/* seconds between cycles (300) */
	int64_t default_runtime;	/* a job with no measure and no owner's (3600) */
	uint64_t seed;		/* the owner model's draws */
	const char *class_by;	/* expression naming a machine's class; NULL: "all" */
	const char *desktops;	/* expression: machines whose owner the model
				 * simulates; NULL: none */
} ca_replay_opts;

ca_replay *ca_replay_new(void);
void ca_replay_free(ca_replay *r);

/* A job ad of condor_history (queued false) or condor_q -long (true).
 * Returns 1 when it is part of the workload, 0 when it is not (why says
 * why, e.g. "removed before it ran"; counted in the report), -1 with err
 * for an ad that is no job (no Owner or QDate). */
int ca_replay_add_job(ca_replay *r, const ca_ad *ad, bool queued, const char **why,
    ca_diag *err);
/* Keep attribute name of the job ads too (one its Requirements read). */
void ca_replay_keep(ca_replay *r, const char *name);
/* A slot ad of condor_status -long. Returns 0, or -1 with err (no Machine
 * or Name). */
int ca_replay_add_slot(ca_replay *r, const ca_ad *ad, ca_diag *err);
/* A record of condor_userprio -long (or its single numbered ad). */
void ca_replay_add_acct(ca_replay *r, const ca_ad *ad);
/* The owner of machine at the keyboard from `from` to `to` (an event
 * file's line). Returns 0, or -1 with err when to <= from. */
int ca_replay_add_session(ca_replay *r, const char *machine, int64_t from, int64_t to,
    ca_diag *err);

/* Once everything is added: the window, the classes, the modelled run
 * times and the owner model's sessions. Returns 0, or -1 with err (no job,
 * no machine, a bad expression). */
int ca_replay_prepare(ca_replay *r, const ca_replay_opts *o, ca_diag *err);
size_t ca_replay_nclasses(const ca_replay *r);
const char *ca_replay_class(const ca_replay *r, size_t i);
int64_t ca_replay_start(const ca_replay *r);
int64_t ca_replay_end(const ca_replay *r);

/* A policy's configuration for subsys ("NEGOTIATOR", "SCHEDD", or
 * "STARTD" for machine class cls, which the configuration sees as its
 * local name: cls.KNOB wins over KNOB). Returns a loaded configuration
 * (the caller sets the subsystem, and for STARTD calls
 * ca_startd_config_prepare before loading), or NULL with err set. */
typedef ca_config *(*ca_replay_config_fn)(void *arg, const char *subsys, const char *cls,
    ca_diag *err);

/* Simulate the workload under a policy from the start until every job has
 * left the queue or until o->until. rows (malloc'ed, each ad the caller's)
 * get the report's rows. Returns 0, or -1 with err (its file lives in r
 * until r's next call). */
/* Called after each cycle of ca_replay_run, for a program's progress line:
 * the policy, the simulated time, the window's end and the jobs submitted
 * so far and in all. */
typedef void ca_replay_progress_fn(void *arg, const char *policy, int64_t now, int64_t end,
    size_t submitted, size_t jobs);
void ca_replay_on_progress(ca_replay *r, ca_replay_progress_fn *fn, void *arg);

int ca_replay_run(ca_replay *r, const char *policy, ca_replay_config_fn cfg, void *cfg_arg,
    ca_pool_warn_fn warn, void *warn_arg, ca_ad ***rows, size_t *nrows, ca_diag *err);

/* The q-quantile (0..1) of v[0..n) by nearest rank (v is sorted); 0 when n is 0. */
int64_t ca_replay_quantile(int64_t *v, size_t n, double q);
/* The seeded draw of the owner model: uniform in [0, 1) from (seed, a, b). */
double ca_replay_draw(uint64_t seed, uint64_t a, uint64_t b);

#endif
