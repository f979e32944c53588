/* schedd.h - the condor_schedd's side of a simulated pool: the job queue
 * brought up to date from submissions, matches, slots and job exits. */
#ifndef CA_SCHEDD_H
#define CA_SCHEDD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "config.h"

/*
 * A step of the schedd takes the queue (job ads), the slots as startd-step
 * left them, the cycle's match records (negotiate) and its JobExit and
 * StarterExit events, and moves each job through HTCondor's job states:
 * matched jobs run, suspended jobs are Suspended, finished jobs complete (or
 * go back to idle when OnExitRemove is false, as cron jobs do), evicted jobs
 * go back to idle with the reason of the eviction; jobs are put on hold
 * (by the startd's WANT_HOLD, a missed deferral time, PeriodicHold or
 * SYSTEM_PERIODIC_HOLD), released (PeriodicRelease, SYSTEM_PERIODIC_RELEASE)
 * and removed (PeriodicRemove, SYSTEM_PERIODIC_REMOVE) with HTCondor's hold
 * reasons and codes. Every change is told as an event ad named after
 * HTCondor's user-log events (SubmitEvent, ExecuteEvent, JobEvictedEvent,
 * JobTerminatedEvent, JobAbortedEvent, JobSuspendedEvent,
 * JobUnsuspendedEvent, JobHeldEvent, JobReleasedEvent) for the job event log.
 */

/* HTCondor's job states (JobStatus). */
enum ca_jstatus {
	CA_J_IDLE = 1, CA_J_RUNNING = 2, CA_J_REMOVED = 3, CA_J_COMPLETED = 4, CA_J_HELD = 5,
	CA_J_TRANSFERRING = 6, CA_J_SUSPENDED = 7
};

/* HTCondor's user-log event numbers (EventTypeNumber) of the events told. */
enum ca_jevent {
	CA_JEV_SUBMIT = 0, CA_JEV_EXECUTE = 1, CA_JEV_EVICTED = 4, CA_JEV_TERMINATED = 5,
	CA_JEV_ABORTED = 9, CA_JEV_SUSPENDED = 10, CA_JEV_UNSUSPENDED = 11, CA_JEV_HELD = 12,
	CA_JEV_RELEASED = 13
};

/* HTCondor's hold reason codes (HoldReasonCode) of the holds simulated. */
enum ca_holdcode {
	CA_HOLD_USER = 1, CA_HOLD_JOB_POLICY = 3, CA_HOLD_MISSED_DEFERRAL = 20,
	CA_HOLD_STARTD = 21, CA_HOLD_SYSTEM_POLICY = 26
};

/* What a step reads (ca_schedd_add). */
enum ca_sinput {
	CA_Q_JOB,	/* a job of the queue */
	CA_Q_SUBMIT,	/* a submission: a cluster of Queue jobs (default 1) */
	CA_Q_SLOT,	/* a slot ad as startd-step left it */
	CA_Q_EXIT,	/* a JobExit or StarterExit event */
	CA_Q_MATCH	/* a match record of negotiate */
};

typedef struct ca_schedd ca_schedd;

/* A job event for the job event log (the ad is the library's, for the call). */
typedef void (*ca_jlog_fn)(void *arg, const ca_ad *ev);
/* A problem with an input ad, at the place it was read: the ad is skipped
 * (a submission) or left as it is (a job of the queue). */
typedef void (*ca_qdiag_fn)(void *arg, const ca_diag *err);

/* A queue for a step at time now, with HTCondor's default configuration. */
ca_schedd *ca_schedd_new(int64_t now);
/* The schedd's configuration, read from cfg (which need not outlive q):
 * the submit defaults JOB_DEFAULT_REQUESTCPUS, _REQUESTMEMORY, _REQUESTDISK
 * and JOB_DEFAULT_LEASE_DURATION, SCHEDD_INTERVAL, and the periodic
 * policies SYSTEM_PERIODIC_HOLD, _RELEASE, _REMOVE (each with its _NAMES,
 * _REASON and _SUBCODE) and SYSTEM_MAX_RELEASES. Returns 0, or -1 with err
 * set at the knob that does not parse. Call it before adding ads. */
int ca_schedd_configure(ca_schedd *q, ca_config *cfg, ca_diag *err);
void ca_schedd_free(ca_schedd *q);
void ca_schedd_set_log(ca_schedd *q, ca_jlog_fn fn, void *arg);
void ca_schedd_set_diag(ca_schedd *q, ca_qdiag_fn fn, void *arg);
/* With a history, completed and removed jobs leave the queue. */
void ca_schedd_set_history(ca_schedd *q, bool on);
/* New clusters are numbered from first at least. */
void ca_schedd_set_first_cluster(ca_schedd *q, int64_t first);
/* The highest ClusterId of the jobs q was given or numbered, those that
 * left the queue included (0: none). */
int64_t ca_schedd_max_cluster(const ca_schedd *q);

/* Hand q an ad read at file:line (file must outlive q); q frees it. A
 * submission joins the queue at once, as condor_submit would put it there:
 * each ad a cluster (its ClusterId, else the next free one) of Queue jobs
 * with ProcId 0, 1, ..., idle, vanilla, queued now (a SubmitEvent each),
 * with the resource requests, lease and deferral attributes condor_submit
 * adds. Add everything before the first ca_schedd_step. */
void ca_schedd_add(ca_schedd *q, int what, ca_ad *ad, const char *file, int line);

/* The jobs of the queue, in order. */
size_t ca_schedd_count(const ca_schedd *q);
ca_ad *ca_schedd_job(const ca_schedd *q, size_t i);
/* The step of job i (each once, in order): brought up to date from the
 * slots, exits and matches, then its periodic policies at now. True when it
 * leaves the queue: completed or removed, with a history. */
bool ca_schedd_step(ca_schedd *q, size_t i);

/* What a job's step read, kept by a program whose queue lives on from one
 * step to the next (a pool), so that a step that would change nothing is
 * not taken. A zeroed memo knows nothing. */
typedef struct ca_job_memo {
	uint64_t job;		/* the job's stamp (ca_ad_stamp) and version as the
				 * step left it */
	uint32_t version;
	bool timeless;		/* a step at another time does the same */
	int64_t at;		/* the step's time */
	uint64_t slot[3];	/* the stamps of the slots it read (0: none):
				 * the one running it, the one it waits for,
				 * the one holding it */
	int64_t cluster, proc;	/* its id */
} ca_job_memo;

/* ca_schedd_add of a job of a queue kept across steps, with its memo:
 * while the job is as the memo saw it, its id is the memo's. */
void ca_schedd_add_job(ca_schedd *q, ca_ad *job, const char *file, int line,
    const ca_job_memo *memo);

/* ca_schedd_step, unless *memo shows that the step would change nothing:
 * the job is as that step left it, and so is each slot it read (the slot
 * attributes a step reads are watched names, ca_name_watch); no exit or
 * match names it; and it is the same time, or nothing the step reads
 * changes with time (a job already executing, no periodic policy). *memo
 * becomes the step's. */
bool ca_schedd_step_memo(ca_schedd *q, size_t i, ca_job_memo *memo);

/* --exits: what the job on a slot does by now. A job being vacated leaves
 * at once (a StarterExit at the slot's time), and so does a job that came
 * later than its DeferralTime and DeferralWindow allow (its starter does not
 * run it), or, when the queue was added, one that is held or removed there
 * (the schedd stops it); a running job exits when it has run for its
 * JobDuration (the wait for its DeferralTime and its time suspended do not
 * count): a JobExit. Returns 1 with *ev (a new ad with Name, Event, Time
 * and JobId), 0 when nothing happens, -1 with err set (a slot without Name;
 * no file or line). */
int ca_schedd_slot_exit(ca_schedd *q, const ca_ad *slot, ca_ad **ev, ca_diag *err);
/* What an exit check of a slot found, kept by a program whose slots live
 * on (a pool); a zeroed memo knows nothing. */
typedef struct ca_slot_memo {
	uint64_t stamp;		/* the slot's, when the check found the time below */
	int64_t until;		/* no exit before this time */
} ca_slot_memo;
/* ca_schedd_slot_exit of q without jobs, unless *memo shows the check
 * finds nothing: the slot is as it was (its watched attributes, its job's
 * JobDuration and deferral literals), and it is not yet the time its job
 * finishes. *memo becomes this check's. */
int ca_schedd_slot_exit_memo(ca_schedd *q, const ca_ad *slot, ca_ad **ev, ca_diag *err,
    ca_slot_memo *memo);

/* ---- a queue kept across steps (a pool in one process) ---- */

/* Hand q a slot, exit or match ad it reads but does not free (the caller
 * keeps it until q is freed with ca_schedd_free_lent). */
void ca_schedd_lend(ca_schedd *q, int what, const ca_ad *ad);
/* The job ids a slot names (JobId, HeldJobId, PreemptingJobId), as a step
 * indexes them, kept by a program whose slots live on (a pool) for the
 * next steps while the slot's stamp holds; a zeroed memo knows nothing. */
typedef struct ca_slot_ids {
	const ca_ad *slot;	/* the slot it is of */
	uint64_t stamp;		/* the slot's then; 0: nothing kept */
	int64_t id[3][2];	/* cluster and proc of each */
	uint8_t have;		/* CA_SLOT_* */
} ca_slot_ids;
enum {
	CA_SLOT_JOBID = 1, CA_SLOT_HELDJOBID = 2, CA_SLOT_PREEMPTINGJOBID = 4,
	CA_SLOT_JOBSTART = 8, CA_SLOT_HOLDCODE = 16
};
/* ca_schedd_lend of a slot with its memo, which q reads and renews until
 * it is freed. */
void ca_schedd_lend_slot(ca_schedd *q, const ca_ad *slot, ca_slot_ids *ids);
/* Take job i out of q after its step: the caller owns it from now on. */
ca_ad *ca_schedd_take(ca_schedd *q, size_t i);
/* Whether the queue holds job cluster.proc (submissions included). */
bool ca_schedd_has_job(ca_schedd *q, int64_t cluster, int64_t proc);
/* ca_schedd_free, leaving the lent ads alone. */
void ca_schedd_free_lent(ca_schedd *q);

/* The schedd's rule for a cron job (CronMinute ... CronDayOfWeek) of the
 * queue at now, as cron-next --jobs applies it: an idle job with no
 * DeferralTime, or whose window has passed, gets the next run as its
 * DeferralTime (with DeferralPrepTime and DeferralWindow from CronPrepTime
 * and CronWindow); with due, CronDue says whether it may be matched now
 * (interval: SCHEDD_INTERVAL for a job without ScheddInterval). A job
 * whose schedule is invalid is put on hold as HTCondor holds it (code 25):
 * returns 1 with held's message ("job 1.0: ...; the job is put on hold",
 * no place). Returns 0 otherwise. Other jobs pass untouched. */
int ca_schedd_cron_job(ca_ctx *cx, ca_ad *job, int64_t now, int64_t interval, bool due,
    ca_diag *held);

/* ---- job attributes not simulated ----
 *
 * Attributes a job may carry that would change what HTCondor's schedd or
 * negotiator does with it, but that no program here simulates (a scheduler
 * universe job, which the schedd runs itself; a delay between a cluster's
 * starts). For each one job has with a value that matters and whose bit in
 * *seen is clear, fn is told and the bit set, so that a program warns once
 * per attribute, not once per job. Only literal values are looked at (as
 * condor_submit writes them). */
typedef struct ca_job_unsim {
	const char *name;	/* the attribute */
	const char *why;	/* what it does that is not simulated */
} ca_job_unsim;
typedef void (*ca_job_unsim_fn)(void *arg, const ca_ad *job, const ca_job_unsim *u);
void ca_job_unsimulated(const ca_ad *job, uint32_t *seen, ca_job_unsim_fn fn, void *arg);

#endif
