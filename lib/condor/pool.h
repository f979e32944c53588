/* pool.h - a whole pool in one process: the accountant, the startds of its
 * machine classes, the schedd's queue, cron and the negotiator, cycle by cycle. */
#ifndef CA_POOL_H
#define CA_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "classad.h"
#include "config.h"

/*
 * A cycle at time T brings the pool from its clock P to T in seven steps,
 * each a daemon's part, passing ads from one to the next:
 *   1. the accountant brings the priorities to T, charging the slots as the
 *      last cycle left them;
 *   2. the jobs on those slots that finish their JobDuration by T, and those
 *      being vacated, leave (JobExit and StarterExit events);
 *   3. the startd of each machine class applies those exits and the events
 *      handed to the cycle (MachineUpdate, Vacate, Drain, ...) and advances
 *      its slots to T;
 *   4. the schedd brings the queue up to date with the exits (finished jobs
 *      complete, or, cron jobs, go back to idle; evicted jobs go back to
 *      idle), and the idle cron jobs get their DeferralTime and CronDue;
 *   5. the negotiator matches the idle jobs (cron jobs only when due, none
 *      that holds a match) to the slots as they are at T;
 *   6. the startds claim the matched slots and start the jobs, preempting
 *      what ran there when the match says so;
 *   7. the schedd brings the queue up to date with the matches and adds the
 *      submissions, which are negotiated from the next cycle on.
 * A cycle changes only the pool in memory; ca_pool_save writes it as the
 * state directory's generation (gen.N/) holds it.
 */

typedef struct ca_pool ca_pool;

/* One file of submissions or events handed to a cycle: its ads, and what
 * the cycle made of it. */
enum ca_pool_fstate {
	CA_PF_TAKEN,		/* applied (or queued) */
	CA_PF_WAIT,		/* an event after the cycle's time: it waits, whole */
	CA_PF_REJECTED		/* refused: why says why */
};

typedef struct ca_pool_file {
	const char *name;	/* for messages: a name without control bytes */
	const char *fname;	/* its name in its directory, as it is */
	ca_ad **ads;		/* the pool takes them for a taken file */
	size_t n;
	bool super;		/* submitted by a queue super user (ca_pool_intake) */
	int state;		/* a ca_pool_fstate, set by the cycle */
	ca_diag why;		/* when rejected */
	/* for the caller: where the file was, to remove it once consumed */
	dev_t dev;
	ino_t ino;
	int64_t ctime_ns;	/* its inode's change time: an inode reused is another file */
} ca_pool_file;

/* Where the cycle's records go (each may be NULL): the job event log and
 * the history as ads, the startds' transition log and the negotiator's
 * summary as text, the match records and exit events as ads. Ads are
 * written in the long format, a blank line after each. */
typedef struct ca_pool_sinks {
	FILE *jobs_log, *history, *startd_log, *negotiator, *matches, *exits;
} ca_pool_sinks;

/* What a cycle did. */
typedef struct ca_pool_stats {
	size_t matches, exits, submitted, rejected;
} ca_pool_stats;

ca_pool *ca_pool_new(void);
void ca_pool_free(ca_pool *p);
/* Problems that do not stop a cycle (a cron job put on hold, a record left
 * out of a log, a configuration problem found while running) go to fn. */
typedef void (*ca_pool_warn_fn)(void *arg, const ca_diag *d);
void ca_pool_set_warn(ca_pool *p, ca_pool_warn_fn fn, void *arg);
/* Every job event the schedd logs (history false) and every job ad leaving
 * the queue (history true) also go to fn, as they are made: for a caller
 * that keeps its own figures without reading the logs back. */
typedef void (*ca_pool_tap_fn)(void *arg, const ca_ad *ad, bool history);
void ca_pool_set_tap(ca_pool *p, ca_pool_tap_fn fn, void *arg);

/* The pool's configuration from pooldir: pool.config (the negotiator and
 * the accountant; the knobs of the schedd's intake) and, for every class
 * of classes (NULL: every startd/CLASS.config there, in name order),
 * startd/CLASS.config. Returns 0, or -1 with err set. */
int ca_pool_configure(ca_pool *p, const char *pooldir, ca_diag *err);
/* The same from configurations the caller made: cfg for the negotiator and
 * the accountant (subsystem NEGOTIATOR), scfg for the schedd's intake
 * (SCHEDD), both taken even on failure; then each machine class with
 * ca_pool_add_class: cfg (subsystem STARTD, ca_startd_config_prepare'd
 * before it was loaded) is taken. Each returns 0, or -1 with err set. */
int ca_pool_configure_with(ca_pool *p, ca_config *cfg, ca_config *scfg, ca_diag *err);
int ca_pool_add_class(ca_pool *p, const char *name, ca_config *cfg, ca_diag *err);
/* The configuration of the central manager, and of class i (for its
 * warnings and knobs). */
ca_config *ca_pool_config(ca_pool *p);
size_t ca_pool_nclasses(const ca_pool *p);
const char *ca_pool_class_name(const ca_pool *p, size_t i);
ca_config *ca_pool_class_config(ca_pool *p, size_t i);
/* Lines about definitions the negotiator ignores ("FILE:LINE: text\n"). */
const char *ca_pool_warnings(ca_pool *p);

/* --init: the slots of the machines described by ads (taken) for class i
 * at now. Returns 0, or -1 with err set (a machine the class cannot make). */
int ca_pool_add_machines(ca_pool *p, size_t cls, ca_ad **ads, size_t n, int64_t now,
    ca_diag *err);
/* The state read back: slot ads of class i, the queue, accountant records
 * (each taken; err set with -1 for a bad record), the clock and the highest
 * cluster number given. */
void ca_pool_add_slot(ca_pool *p, size_t cls, ca_ad *ad, int64_t now, ca_diag *err);
void ca_pool_add_job(ca_pool *p, ca_ad *job);
int ca_pool_add_acct(ca_pool *p, ca_ad *rec, ca_diag *err);
void ca_pool_set_clock(ca_pool *p, int64_t clock, int64_t cluster);
int64_t ca_pool_clock(const ca_pool *p);
int64_t ca_pool_cluster(const ca_pool *p);

/* Run a cycle to now (> the clock). events and subs are the files of
 * events/ and incoming/ in the order they are taken; each gets its state.
 * Returns 0, or -1 with err set (a fault of the pool itself: the pool in
 * memory is then not to be used). */
int ca_pool_cycle(ca_pool *p, int64_t now, ca_pool_file *events, size_t nev,
    ca_pool_file *subs, size_t nsub, const ca_pool_sinks *out, ca_pool_stats *st,
    ca_diag *err);

/* The pool as it is, for tables and pictures: its slots (class by class,
 * machine by machine), its queue and its accountant. */
size_t ca_pool_nslots(const ca_pool *p, size_t cls);
const ca_ad *ca_pool_slot(const ca_pool *p, size_t cls, size_t i);
/* Every slot of every class in that order, without the cost of
 * ca_pool_slot's count: fn(arg, class, slot). */
void ca_pool_slots(ca_pool *p, void (*fn)(void *arg, size_t cls, const ca_ad *slot),
    void *arg);
size_t ca_pool_njobs(const ca_pool *p);
const ca_ad *ca_pool_job(const ca_pool *p, size_t i);
struct ca_acct *ca_pool_acct(ca_pool *p);
ca_ctx *ca_pool_ctx(ca_pool *p);

/* Write the state into the directory dirfd (a generation being made):
 * clock, cluster, acct.ads, jobs.ads and slots/CLASS.ads, each synced when
 * sync is set. Returns 0, or -1 with err set (a system error). */
int ca_pool_save(ca_pool *p, int dirfd, bool sync, ca_diag *err);

/* ---- the intake: a file of submissions or events as its owner wrote it ---- */

/* Who may submit what (the schedd's knobs, read by ca_pool_configure). */
typedef struct ca_pool_limits {
	int64_t max_file_bytes;		/* POOL_MAX_FILE_SIZE: 1 MiB */
	int64_t max_ads;		/* POOL_MAX_ADS_PER_FILE: 1000 */
	int64_t max_jobs;		/* MAX_JOBS_PER_SUBMISSION: 20000 */
	int64_t max_clock_jump;		/* POOL_MAX_CLOCK_JUMP: 604800 s */
} ca_pool_limits;
const ca_pool_limits *ca_pool_get_limits(const ca_pool *p);

/* Whether user may act for every user (QUEUE_SUPER_USERS, default "root,
 * condor", and the account that runs the pool, self). */
bool ca_pool_super_user(const ca_pool *p, const char *user, const char *self);

/* Read text (len bytes, the whole file) as the submissions of user (the
 * owner of the file; super as ca_pool_super_user says) into f: every ad
 * parsed, its identity set (Owner, User = Owner@UID_DOMAIN), the
 * attributes the schedd owns taken out unless super, AccountingGroup
 * checked. Returns 0, or -1 with f->why set (f->state CA_PF_REJECTED; no
 * ad kept). */
int ca_pool_intake_submit(ca_pool *p, ca_pool_file *f, const char *text, size_t len,
    const char *user, bool super);
/* The same for a file of events: every ad parsed and checked as an event. */
int ca_pool_intake_events(ca_pool *p, ca_pool_file *f, const char *text, size_t len);
/* Free the ads f still holds. */
void ca_pool_file_clear(ca_pool_file *f);

/* ---- the state directory (see pool-cycle(1)) ---- */

/*
 *   conf -> POOLDIR   current   gen.N/   log/   incoming/   events/
 *   hosts.map   lock
 * Every file is opened relative to the directory's descriptor, and none
 * through a symbolic link (O_NOFOLLOW), except conf, which the pool's own
 * account made.
 */
typedef struct ca_pool_dir {
	const char *path;	/* STATEDIR as given, for messages */
	int fd;			/* STATEDIR */
	int lock;		/* STATEDIR/lock, held with flock(2) */
	int64_t gen;		/* the committed generation */
	int newfd;		/* the generation being made, or -1 */
	int64_t newgen;
	bool sync;		/* fsync what a commit writes (default) */
	ca_pool_sinks sinks;	/* the records of the generation being made */
	uid_t self;		/* the account the pool runs as */
	char *selfname;
} ca_pool_dir;

/* --init: create statedir (and its parents) for pooldir at now: the spool
 * directories with their modes, generation 0 with the slots of every
 * machine and the first accountant records, hosts.map, conf, current.
 * Returns 0, or -1 with err (status 4; an existing state directory too). */
int ca_pool_dir_init(const char *pooldir, const char *statedir, int64_t now, ca_pool *p,
    ca_diag *err);
/* Open statedir and take its lock (waiting for it), then finish what a
 * cycle killed before or after its commit left (the next cycle is the
 * recovery). Returns 0, or -1 with err. */
int ca_pool_dir_open(ca_pool_dir *d, const char *statedir, ca_diag *err);
void ca_pool_dir_close(ca_pool_dir *d);
/* The pool of the committed generation: its configuration from conf/, its
 * state from gen.N/. Returns 0, or -1 with err. */
int ca_pool_dir_load(ca_pool_dir *d, ca_pool *p, ca_diag *err);

/* The files of incoming/ (submit) or events/ waiting to be taken, in the
 * order of their names: each read safely (no link followed, a regular file
 * of one link, owned by someone with a name, within the size limit) and
 * checked by the intake; one that is refused is set aside in
 * DIR/rejected/ at once, with the reason beside it (NAME.why), and said
 * through the pool's warnings. *files is malloc'ed. Returns 0, or -1 with
 * err for a fault of the pool's own directory. */
int ca_pool_dir_scan(ca_pool_dir *d, ca_pool *p, bool submit, ca_pool_file **files,
    size_t *n, ca_diag *err);
/* Set file f of incoming/ (submit) or events/, refused by a cycle, aside. */
int ca_pool_dir_reject(ca_pool_dir *d, ca_pool *p, bool submit, ca_pool_file *f,
    ca_diag *err);
void ca_pool_files_free(ca_pool_file *files, size_t n);

/* Start generation N+1: its directory and its record files (d->sinks). */
int ca_pool_dir_begin(ca_pool_dir *d, ca_diag *err);
/* Commit p as the generation begun (renamed to gen.NEWGEN when newgen is
 * more than N+1: several cycles in one), with the files taken: the state
 * saved, synced, current renamed; then the logs appended and the files
 * taken removed (ca_pool_dir_open does this again after a crash). */
int ca_pool_dir_commit(ca_pool_dir *d, ca_pool *p, int64_t newgen, const ca_pool_file *ev,
    size_t nev, const ca_pool_file *subs, size_t nsub, ca_diag *err);
/* Give up the generation begun (its directory is removed by the next open). */
void ca_pool_dir_abort(ca_pool_dir *d);

#endif
