/* schedd-step - the condor_schedd's side of a simulated pool: the job queue
 * brought up to date from match records, slot ads and job exits.
 *
 * startd-step plays the startd; this program plays the schedd and, with
 * --exits, the jobs themselves. The default mode takes the queue, the slots
 * as startd-step left them, the cycle's match records (negotiate) and the
 * cycle's exit events (--exits) and moves each job through HTCondor's job
 * states: matched jobs run, suspended jobs are Suspended, finished jobs
 * complete (or go back to idle when OnExitRemove is false, as cron jobs do),
 * evicted jobs go back to idle with the reason of the eviction. Every change
 * is written to a job event log of ads named after HTCondor's user-log events.
 * --exits reads the slots at the start of a cycle and writes the JobExit
 * events of the jobs that finish their JobDuration by --now, and StarterExit
 * events for the jobs being vacated (a vacated job leaves at once). */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"
#include "condor.h"
#include "classad.h"

static const char usage_text[] =
"usage: schedd-step [--now EPOCH] [-m MATCHES]... [-e EXITS]... [--submit JOBS]...\n"
"                   [--first-cluster N] [-l LOG] [--history FILE] [-i FORMAT]\n"
"                   [-o FORMAT] [-z] (--state QUEUE | --jobs QUEUE) [SLOTS...]\n"
"       schedd-step --exits [--now EPOCH] [-i FORMAT] [-o FORMAT] [SLOTS...]\n"
"\n"
"Bring a job queue up to date from what happened in the pool: the match\n"
"records of negotiate, the slots as startd-step left them and the job exits.\n"
"      --jobs QUEUE        the job queue (job ads); the new queue goes to stdout\n"
"      --state QUEUE       the same, rewritten in place (atomically, under\n"
"                          QUEUE.lock)\n"
"  -m, --matches FILE      negotiate's match records of this cycle (repeatable)\n"
"  -e, --exits FILE        this cycle's JobExit and StarterExit events\n"
"                          (repeatable): a job whose JobExit is there finished\n"
"      --submit FILE       add the job ads of FILE to the queue (repeatable):\n"
"                          each ad a cluster of Queue jobs (default 1)\n"
"      --first-cluster N   new clusters are numbered from N at least\n"
"  -l, --log FILE          append the job events (ads) to FILE\n"
"      --history FILE      move completed and removed jobs to FILE (appended)\n"
"      --exits             instead: write the JobExit events of the jobs that\n"
"                          finish their JobDuration by --now, and StarterExit\n"
"                          events for the jobs being vacated, from the SLOTS\n"
"      --now EPOCH         the time of the step (default: the clock)\n"
"  -i, --input-format F    auto|long|new|json|xml (every input)\n"
"  -o, --output-format F   long|new|json|xml (default: long)\n"
"  -z, --gzip              compress the output\n"
"  -h, --help              this text;  -V, --version  the version\n";

enum { OPT_NOW = 256, OPT_JOBS, OPT_STATE, OPT_SUBMIT, OPT_HISTORY, OPT_EXITS, OPT_FIRST };

static const struct option longopts[] = {
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "state", required_argument, NULL, OPT_STATE },
	{ "matches", required_argument, NULL, 'm' },
	{ "exits", no_argument, NULL, OPT_EXITS },
	{ "events", required_argument, NULL, 'e' },
	{ "submit", required_argument, NULL, OPT_SUBMIT },
	{ "first-cluster", required_argument, NULL, OPT_FIRST },
	{ "log", required_argument, NULL, 'l' },
	{ "history", required_argument, NULL, OPT_HISTORY },
	{ "now", required_argument, NULL, OPT_NOW },
	{ "input-format", required_argument, NULL, 'i' },
	{ "output-format", required_argument, NULL, 'o' },
	{ "gzip", no_argument, NULL, 'z' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* HTCondor's job states (JobStatus). */
enum { J_IDLE = 1, J_RUNNING = 2, J_REMOVED = 3, J_COMPLETED = 4, J_HELD = 5,
	J_TRANSFERRING = 6, J_SUSPENDED = 7 };

/* HTCondor's user-log event numbers for the events written. */
enum { EV_SUBMIT = 0, EV_EXECUTE = 1, EV_EVICTED = 4, EV_TERMINATED = 5,
	EV_SUSPENDED = 10, EV_UNSUSPENDED = 11 };

/* The ads of one input, and where each was read. */
struct adv {
	ca_ad **ad;
	const char **file;
	int *line;
	size_t n, cap;
};

static struct {
	const char *jobs, *state, *log, *history;
	const char **matches, **exits, **submits;
	size_t nmatches, nexits, nsubmits;
	bool exits_mode, gzip;
	int64_t now, first_cluster;
	ca_format in, out;
} opt = { .in = CA_FMT_AUTO, .out = CA_FMT_LONG };

static ca_ctx cx;

/* ---- reading ---- */

static void
adv_push(struct adv *v, ca_ad *ad, const char *file, int line)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 16;
		v->ad = ca_xreallocarray(v->ad, v->cap, sizeof *v->ad);
		v->file = ca_xreallocarray(v->file, v->cap, sizeof *v->file);
		v->line = ca_xreallocarray(v->line, v->cap, sizeof *v->line);
	}
	v->ad[v->n] = ad;
	v->file[v->n] = file;
	v->line[v->n] = line;
	v->n++;
}

static void
adv_free(struct adv *v)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->ad[i] != NULL)
			ca_ad_free(v->ad[i]);
	free(v->ad);
	free(v->file);
	free(v->line);
}

/* Read every ad of path into v. false when something could not be read
 * (reported; the status is raised). */
static bool
read_all(const char *path, struct adv *v)
{
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	ca_reader *r = cli_open(path, opt.in);
	bool bad = false;
	ca_ad *ad;

	if (r == NULL)
		return false;
	while (cli_next_ad(r, &ad, &bad))
		adv_push(v, ad, name, ca_reader_ad_line(r));
	ca_reader_close(r);
	return !bad;
}

/* ---- attributes ---- */

static bool
has(const ca_ad *ad, const char *name)
{
	return ca_ad_findn(ad, name, strlen(name)) != NULL;
}

static ca_value
val(const ca_ad *ad, const char *name)
{
	return ca_eval_attr(&cx, ad, NULL, name);
}

/* An integer attribute (a real is truncated): true and *v set. */
static bool
get_int(const ca_ad *ad, const char *name, int64_t *v)
{
	ca_value x = val(ad, name);

	if (x.kind == CA_INT) {
		*v = x.u.i;
		return true;
	}
	if (x.kind == CA_REAL && x.u.r > -9e18 && x.u.r < 9e18) {
		*v = (int64_t)x.u.r;
		return true;
	}
	return false;
}

static int64_t
int_or(const ca_ad *ad, const char *name, int64_t def)
{
	int64_t v;

	return get_int(ad, name, &v) ? v : def;
}

/* A string attribute, or NULL. The text lives in the ad (a literal) or in the
 * scratch arena, which is reset only between whole steps. */
static const char *
get_str(const ca_ad *ad, const char *name)
{
	ca_value x = val(ad, name);

	return x.kind == CA_STRING ? x.u.s : NULL;
}

static bool
str_is(const ca_ad *ad, const char *name, const char *want)
{
	const char *s = get_str(ad, name);

	return s != NULL && strcmp(s, want) == 0;
}

static void
set_lit(ca_ad *ad, const char *name, ca_value v)
{
	ca_ad_set(ad, ca_intern(name, strlen(name)), NULL, ca_expr_lit(ad->arena, v));
}

static void
set_int(ca_ad *ad, const char *name, int64_t v)
{
	set_lit(ad, name, ca_int(v));
}

static void
set_bool(ca_ad *ad, const char *name, bool v)
{
	set_lit(ad, name, ca_bool(v));
}

/* A string attribute; nothing when s is NULL (a slot without Name...). */
static void
set_str(ca_ad *ad, const char *name, const char *s)
{
	if (s != NULL)
		set_lit(ad, name, ca_str(s, (uint32_t)strlen(s)));
}

static void
del(ca_ad *ad, const char *name)
{
	const ca_name *n = ca_intern_find(name, strlen(name));

	if (n != NULL)
		ca_ad_delete(ad, n);
}

static void
add_int(ca_ad *ad, const char *name, int64_t d)
{
	set_int(ad, name, int_or(ad, name, 0) + d);
}

/* The nested job ad of a slot (Job = [ ... ]), or NULL. */
static const ca_ad *
slot_job(const ca_ad *slot)
{
	ca_value v = val(slot, "Job");

	return v.kind == CA_AD ? v.u.ad->ad : NULL;
}

/* "ClusterId.ProcId" of a job ad; false when either is missing. */
static bool
job_id(const ca_ad *job, char *buf, size_t len)
{
	int64_t c, p;

	if (!get_int(job, "ClusterId", &c) || !get_int(job, "ProcId", &p))
		return false;
	snprintf(buf, len, "%lld.%lld", (long long)c, (long long)p);
	return true;
}

/* A job with a CronTab schedule (cron-next's rule). */
static bool
is_cron(const ca_ad *job)
{
	static const char *const names[] = {
		"CronMinute", "CronHour", "CronDayOfMonth", "CronMonth", "CronDayOfWeek"
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (has(job, names[i]))
			return true;
	return false;
}

/* ---- output ---- */

static ca_writer *
open_writer(FILE *fp, bool gz)
{
	ca_writer *w = ca_writer_open(fp, opt.out, gz);

	if (w == NULL)
		cli_die(EX_SYSTEM, "cannot start the output");
	return w;
}

/* Set when an ad could not be written as it is (the queue is then not
 * rewritten: a job would be lost). */
static bool unwritable;

static void
put(ca_writer *w, const ca_ad *ad, const char *what)
{
	if (ca_writer_put(w, ad) == 0)
		return;
	if (errno == EILSEQ) {
		char id[64] = "an ad";
		if (job_id(ad, id + 4, sizeof id - 4))
			memcpy(id, "job ", 4);
		cli_err("%s: %s: %s", what, id, ca_writer_refusal(w));
		cli_raise(EX_INPUT);
		unwritable = true;
		return;
	}
	cli_err("writing %s failed", what);
	cli_raise(EX_SYSTEM);
}

/* An append-only file of ads (the event log, the history). */
struct appender {
	const char *path;
	FILE *fp;
	ca_writer *w;
};

static void
app_put(struct appender *a, const ca_ad *ad)
{
	if (a->path == NULL)
		return;
	if (a->fp == NULL) {
		if ((a->fp = fopen(a->path, "a")) == NULL)
			cli_die(EX_SYSTEM, "%s: cannot open: %s", a->path, strerror(errno));
		/* the long format appends cleanly: ads are blank-line separated */
		a->w = ca_writer_open(a->fp, CA_FMT_LONG, false);
		if (a->w == NULL)
			cli_die(EX_SYSTEM, "%s: cannot write", a->path);
	}
	put(a->w, ad, a->path);
}

static void
app_close(struct appender *a)
{
	if (a->fp == NULL)
		return;
	if (ca_writer_close(a->w) < 0 || fflush(a->fp) != 0 || ferror(a->fp) ||
	    fclose(a->fp) != 0) {
		cli_err("writing %s failed", a->path);
		cli_raise(EX_SYSTEM);
	}
	a->fp = NULL;
}

static struct appender evlog, history;

/* ---- the job event log ---- */

static const char *
event_type(int num)
{
	switch (num) {
	case EV_SUBMIT: return "SubmitEvent";
	case EV_EXECUTE: return "ExecuteEvent";
	case EV_EVICTED: return "JobEvictedEvent";
	case EV_TERMINATED: return "JobTerminatedEvent";
	case EV_SUSPENDED: return "JobSuspendedEvent";
	case EV_UNSUSPENDED: return "JobUnsuspendedEvent";
	}
	return "GenericEvent";
}

/* A new event ad for job: MyType, EventTypeNumber, EventTime and who. */
static ca_ad *
event(const ca_ad *job, int num, int64_t t)
{
	ca_ad *ev = ca_ad_new();
	char id[64] = "?";
	int64_t c = -1, p = -1;
	const char *s;

	set_str(ev, "MyType", event_type(num));
	set_int(ev, "EventTypeNumber", num);
	set_int(ev, "EventTime", t);
	get_int(job, "ClusterId", &c);
	get_int(job, "ProcId", &p);
	set_int(ev, "Cluster", c);
	set_int(ev, "Proc", p);
	set_int(ev, "Subproc", 0);
	job_id(job, id, sizeof id);
	set_str(ev, "JobId", id);
	if ((s = get_str(job, "Owner")) != NULL)
		set_str(ev, "Owner", s);
	if ((s = get_str(job, "User")) != NULL)
		set_str(ev, "User", s);
	if ((s = get_str(job, "AccountingGroup")) != NULL)
		set_str(ev, "AccountingGroup", s);
	if (ca_value_truth(val(job, "NiceUser")) == 1)
		set_bool(ev, "NiceUser", true);
	return ev;
}

static void
log_event(ca_ad *ev)
{
	app_put(&evlog, ev);
	ca_ad_free(ev);
}

/* ---- --exits: what the jobs on the slots do by --now ---- */

static void
exit_event(ca_writer *w, const ca_ad *slot, const char *kind, int64_t t)
{
	ca_ad *ev = ca_ad_new();
	const char *s;

	set_str(ev, "Name", get_str(slot, "Name"));
	set_str(ev, "Event", kind);
	set_int(ev, "Time", t);
	if ((s = get_str(slot, "JobId")) != NULL)
		set_str(ev, "JobId", s);
	put(w, ev, "output");
	ca_ad_free(ev);
}

/* One slot: a job being vacated leaves at once (StarterExit at the slot's
 * time); a running job exits when it has run for its JobDuration (time
 * waiting for its DeferralTime and time suspended do not count). */
static void
exits_of(ca_writer *w, const ca_ad *slot, const char *file, int line)
{
	int64_t t0, start, ran = 0, dur, defer;
	const ca_ad *job;
	ca_value d;

	if (get_str(slot, "Name") == NULL) {
		cli_errat(file, line, 0, "a slot without Name");
		cli_raise(EX_INPUT);
		return;
	}
	if (!get_int(slot, "JobStart", &start))
		return;		/* no job on the slot */
	if (!get_int(slot, "MyCurrentTime", &t0))
		t0 = opt.now;
	if (t0 > opt.now)
		return;
	if (str_is(slot, "State", "Preempting")) {
		exit_event(w, slot, "StarterExit", t0);
		return;
	}
	if (!str_is(slot, "State", "Claimed") ||
	    !(str_is(slot, "Activity", "Busy") || str_is(slot, "Activity", "Retiring")))
		return;
	if ((job = slot_job(slot)) == NULL)
		return;
	d = ca_eval_attr(&cx, job, slot, "JobDuration");
	if (d.kind == CA_INT)
		dur = d.u.i;
	else if (d.kind == CA_REAL && d.u.r >= 0 && d.u.r < 9e18)
		dur = (int64_t)d.u.r;
	else
		return;		/* runs until it is evicted */
	get_int(slot, "TotalJobRunTime", &ran);
	int64_t wait = 0;
	if (get_int(job, "DeferralTime", &defer) && defer > start)
		wait = defer - start;
	int64_t left = dur + wait - ran, t = t0 + (left > 0 ? left : 0);
	if (t <= opt.now)
		exit_event(w, slot, "JobExit", t);
}

static int
exits_mode(char **files, int nfiles)
{
	ca_writer *w = open_writer(stdout, opt.gzip);

	/* one slot at a time: memory does not grow with the pool */
	for (int i = 0; i < (nfiles > 0 ? nfiles : 1); i++) {
		const char *path = nfiles > 0 ? files[i] : "-";
		const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
		ca_diag err;
		ca_reader *r = ca_reader_open(path, opt.in, &err);
		ca_ad *ad;
		int rc;

		if (r == NULL) {
			cli_diag(&err);
			continue;
		}
		while ((rc = ca_reader_next(r, &ad, &err)) != 0) {
			if (rc < 0) {
				cli_diag(&err);
				if ((err.status == CA_EX_SYSTEM))
					break;
				continue;
			}
			exits_of(w, ad, name, ca_reader_ad_line(r));
			ca_arena_reset(&cx.scratch);
			ca_ad_free(ad);
		}
		ca_reader_close(r);
	}
	if (ca_writer_close(w) < 0) {
		cli_err("writing output failed");
		cli_raise(EX_SYSTEM);
	}
	return cli_finish();
}

/* ---- the queue ---- */

/* What the step knows about a job id: the slot running it, the slot holding
 * a match or a preempting claim for it, its JobExit, a match of this cycle,
 * and a match of this cycle that preempts it. */
struct seen {
	const char *id;
	const ca_ad *run, *wait, *exit, *match, *preempt;
};

/* An open-addressing table of job ids; the ids are not copied (they live in
 * the ads read). */
static struct seen *seen;
static size_t capseen, nseen;

static struct seen *
seen_slot(const char *id)
{
	size_t mask = capseen - 1, i = (size_t)ca_hash_bytes(0, id, strlen(id)) & mask;

	while (seen[i].id != NULL && strcmp(seen[i].id, id) != 0)
		i = (i + 1) & mask;
	return &seen[i];
}

static struct seen *
seen_find(const char *id)
{
	if (capseen == 0)
		return NULL;
	struct seen *sn = seen_slot(id);
	return sn->id != NULL ? sn : NULL;
}

static struct seen *
seen_of(const char *id)
{
	if (2 * (nseen + 1) > capseen) {
		struct seen *old = seen;
		size_t oldcap = capseen;
		capseen = capseen ? 2 * capseen : 64;
		seen = ca_xcalloc(capseen, sizeof *seen);
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].id != NULL)
				*seen_slot(old[i].id) = old[i];
		free(old);
	}
	struct seen *sn = seen_slot(id);
	if (sn->id == NULL) {
		sn->id = id;
		nseen++;
	}
	return sn;
}

/* The ad of slots whose Name is name, or NULL. */
static const ca_ad *
slot_named(const struct adv *slots, const char *name)
{
	for (size_t i = 0; i < slots->n; i++) {
		const char *s = get_str(slots->ad[i], "Name");
		if (s != NULL && strcasecmp(s, name) == 0)
			return slots->ad[i];
	}
	return NULL;
}

/* The StarterExit of exits for the slot name: its time, or -1. */
static int64_t
starter_exit(const struct adv *exits, const char *name)
{
	for (size_t i = 0; i < exits->n; i++) {
		const ca_ad *e = exits->ad[i];
		const char *s = get_str(e, "Name");
		int64_t t;
		if (str_is(e, "Event", "StarterExit") && s != NULL && strcasecmp(s, name) == 0 &&
		    get_int(e, "Time", &t))
			return t;
	}
	return -1;
}

static void
set_status(ca_ad *job, int status, int64_t t)
{
	int64_t old = int_or(job, "JobStatus", J_IDLE);

	if (old == status)
		return;
	set_int(job, "LastJobStatus", old);
	set_int(job, "JobStatus", status);
	set_int(job, "EnteredCurrentStatus", t);
}

/* The end of a stretch of suspension at t. */
static void
end_suspension(ca_ad *job, int64_t t)
{
	int64_t since;

	if (int_or(job, "JobStatus", J_IDLE) == J_SUSPENDED &&
	    get_int(job, "LastSuspensionTime", &since) && t > since)
		add_int(job, "CumulativeSuspensionTime", t - since);
}

/* The job starts on slot s (its JobStart is the activation). */
static void
job_start(ca_ad *job, const ca_ad *s)
{
	int64_t start = int_or(s, "JobStart", opt.now);

	set_status(job, J_RUNNING, start);
	set_str(job, "RemoteHost", get_str(s, "Name"));
	set_int(job, "JobCurrentStartDate", start);
	if (!has(job, "JobStartDate"))
		set_int(job, "JobStartDate", start);
	add_int(job, "NumJobStarts", 1);
	del(job, "JobCurrentStartExecutingDate");
	del(job, "MatchedSlot");
	del(job, "VacateReason");
	del(job, "PreemptingJobId");
	del(job, "PreemptingUser");
}

/* A running job on slot s: suspended or not, executing yet (after its
 * DeferralTime), and whether its eviction has been decided. */
static void
job_running(ca_ad *job, const ca_ad *s)
{
	int64_t st = int_or(job, "JobStatus", J_IDLE), since, start, exec, defer = 0;
	bool deferred = get_int(job, "DeferralTime", &defer);
	const char *act = get_str(s, "Activity"), *ev;
	bool susp = act != NULL && strcmp(act, "Suspended") == 0;
	bool preempting = str_is(s, "State", "Preempting");

	since = int_or(s, "EnteredCurrentActivity", opt.now);
	if (susp && st != J_SUSPENDED) {
		set_status(job, J_SUSPENDED, since);
		set_int(job, "LastSuspensionTime", since);
		add_int(job, "TotalSuspensions", 1);
		ca_ad *e = event(job, EV_SUSPENDED, since);
		set_str(e, "Slot", get_str(s, "Name"));
		log_event(e);
	} else if (!susp && st == J_SUSPENDED) {
		end_suspension(job, since);
		set_status(job, J_RUNNING, since);
		if (!preempting) {
			ca_ad *e = event(job, EV_UNSUSPENDED, since);
			set_str(e, "Slot", get_str(s, "Name"));
			log_event(e);
		}
	}
	start = int_or(job, "JobCurrentStartDate", int_or(s, "JobStart", opt.now));
	exec = start;
	if (deferred && defer > exec)
		exec = defer;
	if (exec <= opt.now && !has(job, "JobCurrentStartExecutingDate")) {
		set_int(job, "JobCurrentStartExecutingDate", exec);
		ca_ad *e = event(job, EV_EXECUTE, exec);
		set_str(e, "Slot", get_str(s, "Name"));
		set_int(e, "ActivationTime", start);
		if (deferred)
			set_int(e, "DeferralTime", defer);
		log_event(e);
	}
	/* the startd decided the eviction (PREEMPT, IS_OWNER, vacate, ...); a
	 * preempting claim keeps the negotiator's reason; else none is pending */
	if ((ev = get_str(s, "Eviction")) != NULL && *ev != '\0') {
		if (!str_is(job, "VacateReason", ev))
			set_str(job, "VacateReason", ev);
	} else if (!has(s, "PreemptingJobId") && !preempting &&
	    (susp || (act != NULL && strcmp(act, "Busy") == 0))) {
		del(job, "VacateReason");
		del(job, "PreemptingJobId");
		del(job, "PreemptingUser");
	}
}

/* Wall-clock time of the current run, to t. */
static int64_t
run_time(const ca_ad *job, int64_t t)
{
	int64_t start;

	if (!get_int(job, "JobCurrentStartDate", &start) || t < start)
		return 0;
	return t - start;
}

/* Leaving the slot: the run's clocks, RemoteHost becomes LastRemoteHost. */
static void
job_leaves(ca_ad *job, int64_t t)
{
	const char *host = get_str(job, "RemoteHost");

	end_suspension(job, t);
	add_int(job, "RemoteWallClockTime", run_time(job, t));
	if (host != NULL)
		set_str(job, "LastRemoteHost", host);
	del(job, "RemoteHost");
}

/* The job finished its run at t. Returns true when it leaves the queue. */
static bool
job_exits(ca_ad *job, int64_t t)
{
	ca_ad *e = event(job, EV_TERMINATED, t);
	const char *host = get_str(job, "RemoteHost");
	int64_t exec;

	if (host != NULL)
		set_str(e, "Slot", host);
	if (!get_int(job, "JobCurrentStartExecutingDate", &exec))
		exec = int_or(job, "JobCurrentStartDate", t);
	set_int(e, "RunTime", t >= exec ? t - exec : 0);
	set_int(e, "ReturnValue", 0);
	set_bool(e, "TerminatedNormally", true);
	job_leaves(job, t);
	set_int(job, "ExitCode", 0);
	set_bool(job, "ExitBySignal", false);
	add_int(job, "NumJobCompletions", 1);
	/* OnExitRemove (cron jobs: false unless they say otherwise) */
	ca_value r = val(job, "OnExitRemove");
	bool requeue = ca_value_truth(r) == 0 || (r.kind == CA_UNDEFINED && is_cron(job));
	set_bool(e, "Requeued", requeue);
	log_event(e);
	if (requeue) {
		set_status(job, J_IDLE, t);
		del(job, "DeferralTime");	/* the next run is computed afresh */
		del(job, "CronDue");
		del(job, "JobCurrentStartExecutingDate");
		return false;
	}
	set_status(job, J_COMPLETED, t);
	set_int(job, "CompletionDate", t);
	return true;
}

/* The job left its slot without finishing: back to idle. */
static void
job_evicted(ca_ad *job, const struct adv *slots, const struct adv *exits,
    const struct seen *sn)
{
	const char *host = get_str(job, "RemoteHost"), *reason, *s;
	int64_t t = -1, start = int_or(job, "JobCurrentStartDate", opt.now);

	if (sn != NULL && sn->preempt != NULL) {
		const ca_ad *m = sn->preempt;
		if ((s = get_str(m, "MatchReason")) != NULL)
			set_str(job, "VacateReason", s);
		if ((s = get_str(m, "JobId")) != NULL)
			set_str(job, "PreemptingJobId", s);
		if ((s = get_str(m, "Submitter")) != NULL)
			set_str(job, "PreemptingUser", s);
	}
	if (host != NULL) {
		const ca_ad *slot = slot_named(slots, host);
		t = starter_exit(exits, host);
		if (t < 0 && slot != NULL)
			t = int_or(slot, "EnteredCurrentState", -1);
	}
	if (t < start || t > opt.now)
		t = t < start ? (start <= opt.now ? start : opt.now) : opt.now;
	ca_ad *e = event(job, EV_EVICTED, t);
	if (host != NULL)
		set_str(e, "Slot", host);
	reason = get_str(job, "VacateReason");
	set_str(e, "Reason", reason != NULL ? reason : "unknown");
	if ((s = get_str(job, "PreemptingJobId")) != NULL)
		set_str(e, "PreemptingJobId", s);
	if ((s = get_str(job, "PreemptingUser")) != NULL)
		set_str(e, "PreemptingUser", s);
	set_int(e, "RunTime", run_time(job, t));
	set_bool(e, "Checkpointed", false);
	log_event(e);
	if (reason == NULL)
		set_str(job, "VacateReason", "unknown");
	job_leaves(job, t);
	set_int(job, "LastVacateTime", t);
	del(job, "JobCurrentStartExecutingDate");
	set_status(job, J_IDLE, t);
}

/* One job of the queue. Returns true when it leaves the queue (history). */
static bool
step_job(ca_ad *job, const char *file, int line, const struct adv *slots,
    const struct adv *exits)
{
	char id[64];
	int64_t st = int_or(job, "JobStatus", J_IDLE), t;
	struct seen *sn;

	if (!job_id(job, id, sizeof id)) {
		cli_errat(file, line, 0, "a job without integer ClusterId and ProcId "
		    "(left as it is)");
		cli_raise(EX_INPUT);
		return false;
	}
	sn = seen_find(id);
	if (st == J_COMPLETED || st == J_REMOVED)
		return history.path != NULL;
	if (sn != NULL && sn->match != NULL && get_int(sn->match, "Time", &t)) {
		set_int(job, "LastMatchTime", t);
		add_int(job, "NumJobMatches", 1);
	}
	if (st == J_RUNNING || st == J_SUSPENDED) {
		if (sn != NULL && sn->preempt != NULL && sn->run != NULL) {
			const char *s;
			if ((s = get_str(sn->preempt, "MatchReason")) != NULL)
				set_str(job, "VacateReason", s);
			if ((s = get_str(sn->preempt, "JobId")) != NULL)
				set_str(job, "PreemptingJobId", s);
			if ((s = get_str(sn->preempt, "Submitter")) != NULL)
				set_str(job, "PreemptingUser", s);
		}
		if (sn != NULL && sn->run != NULL)
			job_running(job, sn->run);
		else if (sn != NULL && sn->exit != NULL) {
			if (!get_int(sn->exit, "Time", &t))
				t = opt.now;
			return job_exits(job, t) && history.path != NULL;
		} else
			job_evicted(job, slots, exits, sn);
		return false;
	}
	if (st != J_IDLE)
		return false;
	if (sn != NULL && sn->run != NULL) {
		job_start(job, sn->run);
		job_running(job, sn->run);
	} else if (sn != NULL && sn->wait != NULL) {
		const char *name = get_str(sn->wait, "Name");
		if (name != NULL && !str_is(job, "MatchedSlot", name))
			set_str(job, "MatchedSlot", name);
	} else
		del(job, "MatchedSlot");	/* the match was lost, if there was one */
	return false;
}

/* The highest ClusterId in the queue. */
static int64_t
max_cluster(const struct adv *q)
{
	int64_t m = 0, c;

	for (size_t i = 0; i < q->n; i++)
		if (get_int(q->ad[i], "ClusterId", &c) && c > m)
			m = c;
	return m;
}

static bool
id_taken(const struct adv *q, const char *id)
{
	char other[64];

	for (size_t i = 0; i < q->n; i++)
		if (job_id(q->ad[i], other, sizeof other) && strcmp(other, id) == 0)
			return true;
	return false;
}

/* The Requirements of a job submitted without any: what condor_submit adds. */
static const char default_requirements[] =
    "TARGET.Cpus >= RequestCpus && TARGET.Memory >= RequestMemory && "
    "TARGET.Disk >= RequestDisk";

static void
set_expr(ca_ad *ad, const char *name, const char *text)
{
	ca_diag err;
	ca_expr *e = ca_parse_expr(ad->arena, text, strlen(text), 0, &err);

	if (e != NULL)
		ca_ad_set(ad, ca_intern(name, strlen(name)), NULL, e);
}

/* One job of a submission joins the queue, as condor_submit would put it
 * there: idle, vanilla, queued now. */
static void
enqueue(struct adv *q, ca_ad *job, const char *file, int line)
{
	char id[64];

	if (!job_id(job, id, sizeof id)) {
		cli_errat(file, line, 0, "ClusterId and ProcId must be integers");
		cli_raise(EX_INPUT);
	} else if (id_taken(q, id)) {
		cli_errat(file, line, 0, "job %s is already in the queue", id);
		cli_raise(EX_INPUT);
	} else if (!has(job, "Owner") && !has(job, "User")) {
		cli_errat(file, line, 0, "job %s has no Owner", id);
		cli_raise(EX_INPUT);
	} else {
		if (!has(job, "JobStatus"))
			set_int(job, "JobStatus", J_IDLE);
		if (!has(job, "JobUniverse"))
			set_int(job, "JobUniverse", 5);
		if (!has(job, "RequestCpus"))
			set_int(job, "RequestCpus", 1);
		if (!has(job, "RequestMemory"))
			set_int(job, "RequestMemory", 128);
		if (!has(job, "RequestDisk"))
			set_int(job, "RequestDisk", 1024);
		if (!has(job, "Requirements"))
			set_expr(job, "Requirements", default_requirements);
		if (!has(job, "QDate"))
			set_int(job, "QDate", opt.now);
		if (!has(job, "EnteredCurrentStatus"))
			set_int(job, "EnteredCurrentStatus", opt.now);
		log_event(event(job, EV_SUBMIT, int_or(job, "QDate", opt.now)));
		adv_push(q, job, file, line);
		return;
	}
	ca_ad_free(job);
}

/* --submit: each ad of path is a cluster (its ClusterId, else the next free
 * one) of Queue jobs (default 1), ProcId 0, 1, ... as condor_submit's
 * "queue N" makes them. */
static void
submit(struct adv *q, const char *path)
{
	struct adv in = { 0 };

	read_all(path, &in);
	for (size_t i = 0; i < in.n; i++) {
		ca_ad *ad = in.ad[i];
		int64_t n = 1, cluster;
		in.ad[i] = NULL;
		if (has(ad, "Queue")) {
			if (!get_int(ad, "Queue", &n) || n < 1 || n > 100000) {
				cli_errat(in.file[i], in.line[i], 0,
				    "Queue must be an integer from 1 to 100000");
				cli_raise(EX_INPUT);
				ca_ad_free(ad);
				continue;
			}
			del(ad, "Queue");
			if (has(ad, "ProcId") && n > 1) {
				cli_errat(in.file[i], in.line[i], 0,
				    "an ad with ProcId is one job: Queue must be 1");
				cli_raise(EX_INPUT);
				ca_ad_free(ad);
				continue;
			}
		}
		if (!get_int(ad, "ClusterId", &cluster)) {
			if (has(ad, "ClusterId")) {
				cli_errat(in.file[i], in.line[i], 0, "ClusterId must be an integer");
				cli_raise(EX_INPUT);
				ca_ad_free(ad);
				continue;
			}
			cluster = max_cluster(q) + 1;
			if (cluster < opt.first_cluster)
				cluster = opt.first_cluster;
			set_int(ad, "ClusterId", cluster);
		}
		for (int64_t p = 0; p < n; p++) {
			ca_ad *job = p + 1 < n ? ca_ad_copy(ad) : ad;
			if (n > 1 || !has(job, "ProcId"))
				set_int(job, "ProcId", p);
			enqueue(q, job, in.file[i], in.line[i]);
		}
	}
	adv_free(&in);
}

/* Index the slots, the exits and the matches by job id. */
static void
index_all(const struct adv *slots, const struct adv *exits, const struct adv *matches)
{
	const char *id;

	for (size_t i = 0; i < slots->n; i++) {
		const ca_ad *s = slots->ad[i];
		if ((id = get_str(s, "JobId")) != NULL) {
			struct seen *sn = seen_of(id);
			if (has(s, "JobStart"))
				sn->run = s;
			else if (sn->wait == NULL)
				sn->wait = s;
		}
		if ((id = get_str(s, "PreemptingJobId")) != NULL) {
			struct seen *sn = seen_of(id);
			if (sn->wait == NULL)
				sn->wait = s;
		}
	}
	for (size_t i = 0; i < exits->n; i++)
		if (str_is(exits->ad[i], "Event", "JobExit") &&
		    (id = get_str(exits->ad[i], "JobId")) != NULL)
			seen_of(id)->exit = exits->ad[i];
	for (size_t i = 0; i < matches->n; i++) {
		const ca_ad *m = matches->ad[i];
		if ((id = get_str(m, "JobId")) != NULL)
			seen_of(id)->match = m;
		if ((id = get_str(m, "PreemptedJobId")) != NULL)
			seen_of(id)->preempt = m;
	}
}

static int
queue_mode(char **files, int nfiles)
{
	const char *qpath = opt.state ? opt.state : opt.jobs;
	struct adv queue = { 0 }, slots = { 0 }, exits = { 0 }, matches = { 0 };
	bool ok = true;
	int lockfd = -1;
	ca_diag err;

	if (opt.state != NULL) {
		if ((lockfd = ca_statefile_lock(opt.state, &err)) < 0) {
			cli_diag(&err);
			return cli_finish();
		}
		FILE *probe = fopen(opt.state, "r");
		if (probe != NULL) {
			fclose(probe);
			ok &= read_all(opt.state, &queue);
		}
	} else
		ok &= read_all(qpath, &queue);
	for (int i = 0; i < nfiles; i++)
		ok &= read_all(files[i], &slots);
	for (size_t i = 0; i < opt.nexits; i++)
		ok &= read_all(opt.exits[i], &exits);
	for (size_t i = 0; i < opt.nmatches; i++)
		ok &= read_all(opt.matches[i], &matches);
	if (!ok && opt.state != NULL) {
		cli_err("%s: not rewritten (an input could not be read)", opt.state);
		goto out;
	}
	evlog.path = opt.log;
	history.path = opt.history;
	for (size_t i = 0; i < opt.nsubmits; i++)
		submit(&queue, opt.submits[i]);
	index_all(&slots, &exits, &matches);

	ca_statefile sf = { 0 };
	FILE *outfp = stdout;
	if (opt.state != NULL) {
		if (ca_statefile_begin(&sf, opt.state, &err) < 0) {
			cli_diag(&err);
			goto out;
		}
		outfp = sf.fp;
	}
	size_t l = opt.state ? strlen(opt.state) : 0;
	ca_writer *w = open_writer(outfp, opt.gzip ||
	    (l > 3 && strcmp(opt.state + l - 3, ".gz") == 0));
	for (size_t i = 0; i < queue.n; i++) {
		if (step_job(queue.ad[i], queue.file[i], queue.line[i], &slots, &exits))
			app_put(&history, queue.ad[i]);
		else
			put(w, queue.ad[i], opt.state ? opt.state : "output");
	}
	if (ca_writer_close(w) < 0) {
		cli_err("writing %s failed", opt.state ? opt.state : "output");
		cli_raise(EX_SYSTEM);
	}
	app_close(&evlog);
	app_close(&history);
	if (opt.state != NULL) {
		if (cli_status >= EX_SYSTEM || unwritable) {
			if (unwritable)
				cli_err("%s: not rewritten (a job could not be written)", opt.state);
			ca_statefile_abort(&sf);
		}
		else if (ca_statefile_commit(&sf, &err) < 0)
			cli_diag(&err);
	}
out:
	ca_statefile_unlock(lockfd);
	adv_free(&queue);
	adv_free(&slots);
	adv_free(&exits);
	adv_free(&matches);
	free(seen);
	return cli_finish();
}

/* ---- main ---- */

static void
push_name(const char ***v, size_t *n, const char *s)
{
	*v = ca_xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = s;
}

int
main(int argc, char **argv)
{
	bool have_now = false, out_set = false;
	int ch, rc;

	cli_init(argc, argv, "schedd-step");
	tzset();
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":m:e:l:i:o:zhV", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_JOBS:
			opt.jobs = optarg;
			break;
		case OPT_STATE:
			opt.state = optarg;
			break;
		case 'm':
			push_name(&opt.matches, &opt.nmatches, optarg);
			break;
		case 'e':
			push_name(&opt.exits, &opt.nexits, optarg);
			break;
		case OPT_SUBMIT:
			push_name(&opt.submits, &opt.nsubmits, optarg);
			break;
		case 'l':
			opt.log = optarg;
			break;
		case OPT_HISTORY:
			opt.history = optarg;
			break;
		case OPT_FIRST:
			opt.first_cluster = cli_int("--first-cluster", optarg, 1, INT32_MAX);
			break;
		case OPT_EXITS:
			opt.exits_mode = true;
			break;
		case OPT_NOW:
			opt.now = cli_now(optarg);
			have_now = true;
			break;
		case 'i':
			opt.in = cli_format("-i", optarg, true);
			break;
		case 'o':
			opt.out = cli_format("-o", optarg, false);
			out_set = true;
			break;
		case 'z':
			opt.gzip = true;
			break;
		case 'h':
			cli_help(usage_text);
		case 'V':
			cli_version();
		default:
			cli_bad_option(ch, argv);
		}
	}
	(void)out_set;
	if (!have_now)
		opt.now = (int64_t)time(NULL);
	if (opt.exits_mode) {
		if (opt.jobs || opt.state || opt.nmatches || opt.nexits || opt.nsubmits ||
		    opt.log || opt.history)
			cli_usage_error("--exits reads only slots: no --jobs, --state, -m, -e, "
			    "--submit, -l or --history with it");
	} else {
		if ((opt.jobs == NULL) == (opt.state == NULL))
			cli_usage_error("give the queue with --jobs QUEUE or --state QUEUE (one)");
		if (opt.state && (strcmp(opt.state, "-") == 0 || opt.state[0] == '\0'))
			cli_usage_error("--state must name a file (it is rewritten in place)");
		if (opt.log && opt.history && strcmp(opt.log, opt.history) == 0)
			cli_usage_error("-l and --history must be different files");
	}
	ca_ctx_init(&cx);
	cx.now = opt.now;
	if (opt.exits_mode)
		rc = exits_mode(argv + optind, argc - optind);
	else
		rc = queue_mode(argv + optind, argc - optind);
	ca_ctx_free(&cx);
	free(opt.matches);
	free(opt.exits);
	free(opt.submits);
	ca_intern_cleanup();
	return rc;
}
