/* schedd.c - the condor_schedd's job queue in a simulated pool: submissions,
 * job states, matches, slot updates, exits and the job event log. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classad.h"
#include "match.h"
#include "schedd.h"
#include "startd.h"

/* Strings numbered: the n-th distinct string added is number n. The
 * strings are not copied. */
struct keys {
	ca_vec(const char *) at;
	ca_dict index;
};

/* What the step knows about a job id: the slot running it, the slot holding
 * a match or a preempting claim for it, its JobExit, a match of this cycle,
 * a match of this cycle that preempts it; and whether the queue has it. */
struct jobref {
	int64_t cluster, proc;	/* its id, as HTCondor writes it: "cluster.proc" */
	const char *text;	/* or an id written otherwise (no job has it) */
	const ca_ad *run, *wait, *exit, *match, *preempt;
	const ca_ad *held;	/* the slot whose startd put it on hold (WANT_HOLD) */
	const ca_ad *job;	/* the job in the queue, or NULL */
	bool queued;
};

/* A slot by its Name (any case): the first slot of that name, and the time
 * of the first StarterExit for it (-1: none). */
struct slotref {
	const ca_ad *slot;
	int64_t starter;
};

/* A system periodic policy: SYSTEM_PERIODIC_HOLD (or one of its _NAMES),
 * with its _REASON and _SUBCODE expressions. */
struct syspol {
	const char *knob;	/* the policy's name in reasons: SYSTEM_PERIODIC_HOLD */
	const char *text;	/* its expression as written */
	ca_expr *e, *reason, *subcode;
};
enum { P_HOLD, P_RELEASE, P_REMOVE, P_N };
typedef ca_vec(struct syspol) syspols;

/* An ad read and where. */
struct input {
	ca_ad *ad;
	const char *file;
	int line;
	uint32_t ref;		/* a queued job's record (refs), CA_DICT_NONE
				 * when it has no id: taken as it is queued,
				 * which its step does not change */
	ca_slot_ids *ids;	/* a lent slot's memo of its job ids, or NULL */
};
typedef ca_vec(struct input) inputs;

/* The names of slot_reads (ORDER SLOT_READS). */
enum {
	SR_NAME, SR_JOBID, SR_JOBSTART, SR_HELDJOBID, SR_PREEMPTINGJOBID, SR_STATE,
	SR_ACTIVITY, SR_ECA, SR_ECS, SR_EVICTION, SR_HOLDREASON, SR_HOLDCODE, SR_HOLDSUBCODE,
	SR_JOB, SR_N
};

struct ca_schedd {
	ca_ctx cx;
	int64_t now, first_cluster, max_cluster;
	bool history, indexed, names_indexed;
	ca_jlog_fn log;
	void *log_arg;
	ca_qdiag_fn diag;
	void *diag_arg;
	inputs jobs, slots, exits, matches;
	ca_dict ids;			/* job ids, numbering refs */
	ca_vec(struct jobref) refs;
	struct keys names;		/* slot names in lower case, numbering slots */
	ca_vec(struct slotref) slotrefs;
	ca_arena text;			/* the ids of the jobs queued, the names */
	strbuf tmp;
	/* the configuration */
	ca_arena conf;			/* its expressions and texts */
	syspols pol[P_N];		/* SYSTEM_PERIODIC_HOLD, _RELEASE, _REMOVE */
	ca_expr *request[3];		/* JOB_DEFAULT_REQUESTCPUS, _MEMORY, _DISK */
	int64_t lease, interval, max_releases;
	ca_vec(struct lent { int what; size_t i; }) lent;	/* ads not owned (ca_schedd_lend) */
	const ca_name *sr[SR_N];	/* slot_reads, interned */
};

/* Every slot attribute a job's step reads, through the slots that name the
 * job (index_all) or a slot of that name (job_evicted), and that the exit
 * check reads but the slot's clock: watched names, so that a slot's stamp
 * tells it is as a step saw it (ca_schedd_step_memo, ca_schedd_slot_exit_memo).
 * A step that read another would be skipped wrongly. (ORDER SLOT_READS:
 * the enum before struct ca_schedd follows.) */
static const char *const slot_reads[SR_N] = {
	"Name", "JobId", "JobStart", "HeldJobId", "PreemptingJobId", "State", "Activity",
	"EnteredCurrentActivity", "EnteredCurrentState", "Eviction", "JobHoldReason",
	"JobHoldReasonCode", "JobHoldReasonSubCode",
	"Job",		/* and the exit check's (slot_exit) */
};

ca_schedd *
ca_schedd_new(int64_t now)
{
	ca_schedd *q = ca_xcalloc(1, sizeof *q);
	ca_config *cfg = ca_config_new();
	ca_diag err;

	for (size_t i = 0; i < SR_N; i++)
		ca_name_watch(q->sr[i] = ca_intern(slot_reads[i], strlen(slot_reads[i])));
	ca_name_watch(ca_intern("ClusterId", 9));
	ca_name_watch(ca_intern("ProcId", 6));

	ca_ctx_init(&q->cx);
	q->tmp = (strbuf)STRBUF_INIT;
	q->cx.now = now;
	q->now = now;
	/* HTCondor's defaults: they cannot fail */
	(void)ca_schedd_configure(q, cfg, &err);
	ca_config_free(cfg);
	return q;
}

/* ---- the configuration ---- */

/* A knob's value as an expression into q->conf: 1 and *e, 0 when it is not
 * defined, -1 with err set. */
static int
knob_expr(ca_schedd *q, ca_config *cfg, const char *name, ca_expr **e, ca_diag *err)
{
	*e = NULL;
	return ca_config_expr(cfg, name, &q->conf, 0, e, err);
}

/* A resource request knob (JOB_DEFAULT_REQUESTMEMORY = 2G): a number, with
 * one of condor_submit's unit letters (K, M, G or T, and an optional B) in
 * what the request counts (mib: MiB, else KiB), else an expression. */
static int
request_knob(ca_schedd *q, ca_config *cfg, const char *name, bool mib, ca_expr **e,
    ca_diag *err)
{
	static const char units[] = "KMGT";
	strbuf v = STRBUF_INIT;
	int rc = ca_config_string(cfg, name, &v, err);
	char *end;

	*e = NULL;
	if (rc <= 0 || strcasecmp(v.buf, "undefined") == 0) {
		strbuf_release(&v);
		return rc < 0 ? -1 : 0;
	}
	long long n = strtoll(v.buf, &end, 10);
	const char *u = NULL;
	if (end != v.buf && *end != '\0' && end[1 + ((end[1] | 0x20) == 'b')] == '\0')
		u = strchr(units, *end & ~0x20);
	if (end != v.buf && n >= 0 && n < (1LL << 40) && (*end == '\0' || u != NULL)) {
		int64_t kib = u != NULL ? (int64_t)n << (10 * (u - units)) : 0;
		int64_t val = u == NULL ? n : mib ? (kib + 1023) / 1024 : kib;
		*e = ca_expr_lit(&q->conf, ca_int(val));
		strbuf_release(&v);
		return 1;
	}
	strbuf_release(&v);
	return knob_expr(q, cfg, name, e, err);
}

/* The system policies of base (SYSTEM_PERIODIC_HOLD): those of its _NAMES,
 * then base itself, as HTCondor's schedd evaluates them. */
static int
read_policies(ca_schedd *q, ca_config *cfg, const char *base, syspols *out, ca_diag *err)
{
	strbuf names = STRBUF_INIT, knob = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0;

	strbuf_addf(&knob, "%s_NAMES", base);
	if (ca_config_string(cfg, knob.buf, &names, err) < 0) {
		rc = -1;
		goto out;
	}
	for (const char *p = names.buf;; ) {
		while (*p == ' ' || *p == ',' || *p == '\t')
			p++;
		const char *w = p;
		while (*p && *p != ' ' && *p != ',' && *p != '\t')
			p++;
		bool last = w == p;
		strbuf_reset(&knob);
		if (last)
			strbuf_adds(&knob, base);	/* the knob without a tag comes last */
		else
			strbuf_addf(&knob, "%s_%.*s", base, (int)(p - w), w);
		struct syspol sp = { base, NULL, NULL, NULL, NULL };
		if ((rc = knob_expr(q, cfg, knob.buf, &sp.e, err)) < 0)
			goto out;
		strbuf_reset(&text);
		if (rc == 1 && ca_config_string(cfg, knob.buf, &text, err) < 0) {
			rc = -1;
			goto out;
		}
		/* a policy that can never fire is left out */
		if (rc == 1 && !(sp.e->node == CA_N_LIT && ca_value_truth(sp.e->u.lit) != 1)) {
			sp.text = ca_arena_strndup(&q->conf, text.buf, text.len);
			size_t l = knob.len;
			strbuf_adds(&knob, "_REASON");
			if (knob_expr(q, cfg, knob.buf, &sp.reason, err) < 0) {
				rc = -1;
				goto out;
			}
			knob.len = l;
			strbuf_adds(&knob, "_SUBCODE");
			if (knob_expr(q, cfg, knob.buf, &sp.subcode, err) < 0) {
				rc = -1;
				goto out;
			}
			*ca_vec_push(out) = sp;
		}
		rc = 0;
		if (last)
			break;
	}
out:
	strbuf_release(&names);
	strbuf_release(&knob);
	strbuf_release(&text);
	return rc;
}

int
ca_schedd_configure(ca_schedd *q, ca_config *cfg, ca_diag *err)
{
	static const char *const bases[P_N] = {
		"SYSTEM_PERIODIC_HOLD", "SYSTEM_PERIODIC_RELEASE", "SYSTEM_PERIODIC_REMOVE"
	};
	static const char *const requests[3] = {
		"JOB_DEFAULT_REQUESTCPUS", "JOB_DEFAULT_REQUESTMEMORY", "JOB_DEFAULT_REQUESTDISK"
	};

	for (int k = 0; k < P_N; k++)
		q->pol[k].n = 0;
	q->lease = 2400;		/* 40 minutes, condor_submit's default */
	q->interval = 300;		/* HTCondor's SCHEDD_INTERVAL */
	q->max_releases = -1;
	for (int k = 0; k < 3; k++)
		if (request_knob(q, cfg, requests[k], k == 1, &q->request[k], err) < 0)
			return -1;
	if (ca_config_int(cfg, "JOB_DEFAULT_LEASE_DURATION", &q->lease, err) < 0 ||
	    ca_config_int(cfg, "SCHEDD_INTERVAL", &q->interval, err) < 0 ||
	    ca_config_int(cfg, "SYSTEM_MAX_RELEASES", &q->max_releases, err) < 0)
		return -1;
	for (int k = 0; k < P_N; k++)
		if (read_policies(q, cfg, bases[k], &q->pol[k], err) < 0)
			return -1;
	return 0;
}

static void
inputs_free(inputs *v)
{
	for (size_t i = 0; i < v->n; i++)
		ca_ad_free(v->at[i].ad);
	ca_vec_free(v);
}

void
ca_schedd_free(ca_schedd *q)
{
	if (q == NULL)
		return;
	inputs_free(&q->jobs);
	inputs_free(&q->slots);
	inputs_free(&q->exits);
	inputs_free(&q->matches);
	ca_dict_free(&q->ids);
	ca_vec_free(&q->refs);
	ca_vec_free(&q->names.at);
	ca_dict_free(&q->names.index);
	ca_vec_free(&q->slotrefs);
	ca_arena_free(&q->text);
	for (int k = 0; k < P_N; k++)
		ca_vec_free(&q->pol[k]);
	ca_arena_free(&q->conf);
	strbuf_release(&q->tmp);
	ca_ctx_free(&q->cx);
	free(q);
}

void
ca_schedd_set_log(ca_schedd *q, ca_jlog_fn fn, void *arg)
{
	q->log = fn;
	q->log_arg = arg;
}

void
ca_schedd_set_diag(ca_schedd *q, ca_qdiag_fn fn, void *arg)
{
	q->diag = fn;
	q->diag_arg = arg;
}

void
ca_schedd_set_history(ca_schedd *q, bool on)
{
	q->history = on;
}

void
ca_schedd_set_first_cluster(ca_schedd *q, int64_t first)
{
	q->first_cluster = first;
}

int64_t
ca_schedd_max_cluster(const ca_schedd *q)
{
	return q->max_cluster;
}

static void
report(ca_schedd *q, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
report(ca_schedd *q, const char *file, int line, const char *fmt, ...)
{
	ca_diag err;
	va_list ap;

	va_start(ap, fmt);
	ca_diag_vset(&err, CA_EX_INPUT, file, line, 0, fmt, ap);
	va_end(ap);
	if (q->diag != NULL)
		q->diag(q->diag_arg, &err);
}

/* ---- attributes (attr.h's, with a default or NULL for "not there") ---- */

static int64_t
int_or(ca_schedd *q, const ca_ad *ad, const char *name, int64_t def)
{
	int64_t v = def;

	(void)ca_get_int(&q->cx, ad, name, &v);
	return v;
}

static bool
get_int(ca_schedd *q, const ca_ad *ad, const char *name, int64_t *v)
{
	return ca_get_int(&q->cx, ad, name, v) == 1;
}

/* A string attribute, or NULL. The text lives in the ad (a literal) or in
 * the scratch arena, which is reset only between slots in --exits. */
static const char *
str(ca_schedd *q, const ca_ad *ad, const char *name)
{
	const char *s = NULL;

	return ca_get_str(&q->cx, ad, name, &s, NULL) == 1 ? s : NULL;
}

/* str of a slot_reads name (SR_*), and its length */
static const char *
slot_str(ca_schedd *q, const ca_ad *slot, int sr, size_t *len)
{
	const char *s = NULL;

	return ca_get_str_nm(&q->cx, slot, q->sr[sr], &s, len) == 1 ? s : NULL;
}

static bool
str_is(ca_schedd *q, const ca_ad *ad, const char *name, const char *want)
{
	const char *s = str(q, ad, name);

	return s != NULL && strcmp(s, want) == 0;
}

static void
add_int(ca_schedd *q, ca_ad *ad, const char *name, int64_t d)
{
	int64_t v;

	if (__builtin_add_overflow(int_or(q, ad, name, 0), d, &v))
		v = d < 0 ? INT64_MIN : INT64_MAX;	/* a counter from the input: saturate */
	ca_set_int(ad, name, v);
}

/* Copy string attribute from of src to name of dst, when src has it. */
static void
copy_str(ca_schedd *q, ca_ad *dst, const char *name, const ca_ad *src, const char *from)
{
	ca_set_str(dst, name, str(q, src, from));
}

/* The job ad of a slot (Job = [ ... ]), or NULL. */
static const ca_ad *
slot_job(ca_schedd *q, const ca_ad *slot)
{
	ca_value v = ca_eval_attr(&q->cx, slot, NULL, "Job");

	return v.kind == CA_AD ? v.u.ad->ad : NULL;
}

/* A slot in state st (and, when ac is not negative, activity ac). */
static bool
slot_is(ca_schedd *q, const ca_ad *slot, int st, int ac)
{
	return str_is(q, slot, "State", ca_sstate_name[st]) &&
	    (ac < 0 || str_is(q, slot, "Activity", ca_sact_name[ac]));
}

/* A job with a CronTab schedule (cron-next's rule). */
static bool
is_cron(const ca_ad *job)
{
	static const char *const names[] = {
		"CronMinute", "CronHour", "CronDayOfMonth", "CronMonth", "CronDayOfWeek"
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (ca_has(job, names[i]))
			return true;
	return false;
}

/* ---- the job event log ---- */

static const char *
event_type(int num)
{
	switch (num) {
	case CA_JEV_SUBMIT: return "SubmitEvent";
	case CA_JEV_EXECUTE: return "ExecuteEvent";
	case CA_JEV_EVICTED: return "JobEvictedEvent";
	case CA_JEV_TERMINATED: return "JobTerminatedEvent";
	case CA_JEV_ABORTED: return "JobAbortedEvent";
	case CA_JEV_SUSPENDED: return "JobSuspendedEvent";
	case CA_JEV_UNSUSPENDED: return "JobUnsuspendedEvent";
	case CA_JEV_HELD: return "JobHeldEvent";
	case CA_JEV_RELEASED: return "JobReleasedEvent";
	}
	return "GenericEvent";
}

/* A new event ad for job: MyType, EventTypeNumber, EventTime and whose. */
static ca_ad *
event(ca_schedd *q, const ca_ad *job, int num, int64_t t)
{
	ca_ad *ev = ca_ad_new();
	char id[CA_JOBID_LEN] = "?";
	int64_t c = -1, p = -1;
	bool nice;

	ca_ad_reserve(ev, 16, 512);	/* room for what an event says */
	ca_set_str(ev, "MyType", event_type(num));
	ca_set_int(ev, "EventTypeNumber", num);
	ca_set_int(ev, "EventTime", t);
	get_int(q, job, "ClusterId", &c);
	get_int(q, job, "ProcId", &p);
	ca_set_int(ev, "Cluster", c);
	ca_set_int(ev, "Proc", p);
	ca_set_int(ev, "Subproc", 0);
	if (!ca_jobid(&q->cx, job, id, sizeof id))
		strcpy(id, "?");
	ca_set_str(ev, "JobId", id);
	copy_str(q, ev, "Owner", job, "Owner");
	copy_str(q, ev, "User", job, "User");
	copy_str(q, ev, "AccountingGroup", job, "AccountingGroup");
	if (ca_get_bool(&q->cx, job, "NiceUser", &nice) == 1 && nice)
		ca_set_bool(ev, "NiceUser", true);
	return ev;
}

/* An event on slot (Slot = its Name, or the job's RemoteHost). */
static ca_ad *
slot_event(ca_schedd *q, const ca_ad *job, int num, int64_t t, const char *slot)
{
	ca_ad *ev = event(q, job, num, t);

	ca_set_str(ev, "Slot", slot);
	return ev;
}

static void
log_event(ca_schedd *q, ca_ad *ev)
{
	if (q->log != NULL)
		q->log(q->log_arg, ev);
	ca_ad_free(ev);
}

/* ---- --exits: what the jobs on the slots do by now ---- */

static ca_ad *
exit_event(ca_schedd *q, const ca_ad *slot, const char *kind, int64_t t)
{
	ca_ad *ev = ca_ad_new();

	copy_str(q, ev, "Name", slot, "Name");
	ca_set_str(ev, "Event", kind);
	ca_set_int(ev, "Time", t);
	copy_str(q, ev, "JobId", slot, "JobId");
	return ev;
}

/* When the job of slot (started at start, on the slot's clock at t0)
 * finishes its JobDuration; false when it has none (it runs until it is
 * evicted). */
static bool
finish_time(ca_schedd *q, const ca_ad *slot, int64_t t0, int64_t start, int64_t *t)
{
	const ca_ad *job = slot_job(q, slot);
	int64_t ran = 0, dur, defer, wait = 0;
	ca_value d;

	if (job == NULL)
		return false;
	d = ca_eval_attr(&q->cx, job, slot, "JobDuration");
	if (d.kind == CA_INT)
		dur = d.u.i;
	else if (d.kind == CA_REAL && d.u.r >= 0 && d.u.r < 9e18)
		dur = (int64_t)d.u.r;
	else
		return false;
	get_int(q, slot, "TotalJobRunTime", &ran);
	if (get_int(q, job, "DeferralTime", &defer) && defer > start)
		wait = defer - start;
	/* saturating: a JobDuration near INT64_MAX means "never" */
	int64_t left;
	if (__builtin_add_overflow(dur, wait, &left) || __builtin_sub_overflow(left, ran, &left))
		left = dur < 0 ? 0 : INT64_MAX;
	if (left < 0)
		left = 0;
	if (__builtin_add_overflow(t0, left, t))
		*t = INT64_MAX;
	return true;
}

static bool missed_deferral(ca_schedd *q, const ca_ad *job, int64_t start);
static struct jobref *ref_of(ca_schedd *q, const char *id, bool make);

/* The job on slot (started at start) does not go on: its starter did not
 * run it (too late for its deferral window), or the queue holds or removed
 * it (the schedd stopped it). */
static bool
stopped(ca_schedd *q, const ca_ad *slot, int64_t start)
{
	const ca_ad *job = slot_job(q, slot);
	const char *id = str(q, slot, "JobId");
	const struct jobref *r;

	if (job != NULL && missed_deferral(q, job, start))
		return true;
	if (id == NULL || (r = ref_of(q, id, false)) == NULL || r->job == NULL)
		return false;
	int64_t st = int_or(q, r->job, "JobStatus", CA_J_IDLE);
	return st == CA_J_HELD || st == CA_J_REMOVED;
}

/* The literal attribute name of ad holds, without evaluating it: 1 with
 * *v, 0 when ad has no name, -1 when it holds an expression. */
static int
lit_of(const ca_ad *ad, const char *name, ca_value *v)
{
	ca_attr *at = ca_ad_findn(ad, name, strlen(name));

	return at == NULL ? 0 : ca_attr_lit_in(ad, at, v) ? 1 : -1;
}

/* Whether attribute name of ad is absent or a literal. */
static bool
lit_or_absent(const ca_ad *ad, const char *name)
{
	ca_value v;

	return lit_of(ad, name, &v) >= 0;
}

/* ca_schedd_slot_exit; *until is then the time before which the slot, while
 * its stamp holds, has no exit either (INT64_MIN: not known). That holds
 * for a queue without jobs (nothing of them is read), a job whose slot
 * attributes read are watched or the slot's clock (MyCurrentTime and
 * TotalJobRunTime, which go up together while the job runs), and whose
 * JobDuration and deferral are literals. */
static int
slot_exit(ca_schedd *q, const ca_ad *slot, ca_ad **ev, ca_diag *err, int64_t *until)
{
	int64_t t0, start, t;
	int rc = 0;
	const ca_ad *job;

	*ev = NULL;
	*until = INT64_MIN;
	if (str(q, slot, "Name") == NULL) {
		ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, "a slot without Name");
		rc = -1;
	} else if (!get_int(q, slot, "JobStart", &start))
		*until = INT64_MAX;	/* no job on the slot */
	else if ((t0 = int_or(q, slot, "MyCurrentTime", q->now)) > q->now)
		;
	else if (slot_is(q, slot, CA_S_PREEMPTING, -1) || stopped(q, slot, start))
		*ev = exit_event(q, slot, "StarterExit", t0);
	else if (!slot_is(q, slot, CA_S_CLAIMED, CA_A_BUSY) &&
	    !slot_is(q, slot, CA_S_CLAIMED, CA_A_RETIRING))
		*until = INT64_MAX;	/* not running: until its activity changes */
	else if (finish_time(q, slot, t0, start, &t)) {
		if (t <= q->now)
			*ev = exit_event(q, slot, "JobExit", t);
		else
			*until = t;
	} else
		*until = INT64_MAX;	/* no JobDuration: it runs until evicted */
	if (*until != INT64_MIN && (q->jobs.n > 0 || ((job = slot_job(q, slot)) != NULL &&
	    (!lit_or_absent(job, "JobDuration") || !lit_or_absent(job, "DeferralTime") ||
	    !lit_or_absent(job, "DeferralWindow")))))
		*until = INT64_MIN;
	ca_arena_reset(&q->cx.scratch);
	return *ev != NULL ? 1 : rc;
}

int
ca_schedd_slot_exit(ca_schedd *q, const ca_ad *slot, ca_ad **ev, ca_diag *err)
{
	int64_t until;

	return slot_exit(q, slot, ev, err, &until);
}

int
ca_schedd_slot_exit_memo(ca_schedd *q, const ca_ad *slot, ca_ad **ev, ca_diag *err,
    ca_slot_memo *m)
{
	if (m->stamp != 0 && m->stamp == ca_ad_stamp(slot) && m->until > q->now) {
#ifdef CA_SELFCHECK
		/* the check is made anyway, and must find nothing */
		int64_t until;
		if (slot_exit(q, slot, ev, err, &until) != 0)
			abort();
#endif
		*ev = NULL;
		return 0;
	}
	int64_t until;
	int rc = slot_exit(q, slot, ev, err, &until);
	m->stamp = until != INT64_MIN ? ca_ad_stamp(slot) : 0;
	m->until = until;
	return rc;
}

/* ---- reading ---- */

/* The number of s (len bytes) in k (added when add is set), or
 * CA_DICT_NONE. */
static uint32_t
key(struct keys *k, const char *s, size_t len, bool add)
{
	uint64_t h = ca_hash_bytes(0, s, len);
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&k->index, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&k->index, &it))
		if (strcmp(k->at.at[i], s) == 0)
			return i;
	if (!add)
		return CA_DICT_NONE;
	ca_dict_add(&k->index, h, (uint32_t)k->at.n);
	*ca_vec_push(&k->at) = s;
	return (uint32_t)(k->at.n - 1);
}

/*
 * The records of job ids. An id as HTCondor writes it ("cluster.proc", as
 * ca_jobid_format does) is filed under its two numbers, so that a job of
 * the queue, or a slot's id its memo holds, is found without its text.
 * Any other text (" 1.0", "01.0", "x") names no job of the queue; it is
 * filed under itself, kept as it is.
 */
static uint64_t
id_hash(int64_t cluster, int64_t proc)
{
	return ca_hash_mix(ca_hash_mix(0x6a6f6269, (uint64_t)cluster), (uint64_t)proc);
}

/* The record filed under hash h of id cluster.proc (text NULL), or of
 * the id text[0..len) written otherwise (a new one when make is set, the
 * text then kept as it is); NULL when there is none. */
static struct jobref *
ref_find(ca_schedd *q, uint64_t h, int64_t cluster, int64_t proc, const char *text,
    size_t len, bool make)
{
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&q->ids, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&q->ids, &it)) {
		struct jobref *r = &q->refs.at[i];
		if (text == NULL ? r->text == NULL && r->cluster == cluster && r->proc == proc :
		    r->text != NULL && strncmp(r->text, text, len) == 0 && r->text[len] == '\0')
			return r;
	}
	if (!make)
		return NULL;
	ca_dict_add(&q->ids, h, (uint32_t)q->refs.n);
	*ca_vec_push(&q->refs) = (struct jobref){ .cluster = cluster, .proc = proc,
	    .text = text };
	return &q->refs.at[q->refs.n - 1];
}

static struct jobref *
ref_id(ca_schedd *q, int64_t cluster, int64_t proc, bool make)
{
	return ref_find(q, id_hash(cluster, proc), cluster, proc, NULL, 0, make);
}

/* Whether id (len bytes) is "cluster.proc" as ca_jobid_format writes it. */
static bool
id_numbers(const char *id, size_t len, int64_t *cluster, int64_t *proc)
{
	int64_t v[2] = { 0, 0 };
	size_t i = 0;
	char again[CA_JOBID_LEN];

	for (int k = 0; k < 2; k++) {
		bool neg = i < len && id[i] == '-';
		size_t from = i += neg;
		for (; i < len && id[i] >= '0' && id[i] <= '9'; i++)
			if (__builtin_mul_overflow(v[k], 10, &v[k]) ||
			    __builtin_sub_overflow(v[k], id[i] - '0', &v[k]))
				return false;	/* summed negative: INT64_MIN fits */
		if (i == from || (!neg && v[k] == INT64_MIN))
			return false;
		if (!neg)
			v[k] = -v[k];
		if (k == 0 && (i >= len || id[i++] != '.'))
			return false;
	}
	if (i != len || len >= sizeof again)
		return false;
	/* no leading zeros, no "-0": the text is the numbers' own */
	ca_jobid_format(again, sizeof again, v[0], v[1]);
	if (memcmp(again, id, len) != 0 || again[len] != '\0')
		return false;
	*cluster = v[0];
	*proc = v[1];
	return true;
}

/* What is known of job id (a new record when make is set, the id then kept
 * as it is); NULL when nothing is. */
static struct jobref *
ref_ofn(ca_schedd *q, const char *id, size_t len, bool make)
{
	int64_t c, p;

	if (id_numbers(id, len, &c, &p))
		return ref_id(q, c, p, make);
	return ref_find(q, ca_hash_bytes(0, id, len), 0, 0, id, len, make);
}

static struct jobref *
ref_of(ca_schedd *q, const char *id, bool make)
{
	return ref_ofn(q, id, strlen(id), make);
}

static void
push(inputs *v, ca_ad *ad, const char *file, int line)
{
	*ca_vec_push(v) = (struct input){ ad, file, line, CA_DICT_NONE, NULL };
}

/* A job joins the queue: its id is taken, its cluster counts. A job as its
 * memo saw it has the id it had then (ClusterId and ProcId are watched). */
static void
queue_job(ca_schedd *q, ca_ad *job, const char *file, int line, const ca_job_memo *m)
{
	int64_t c, p;
	uint32_t ref = CA_DICT_NONE;
	bool known = m != NULL && m->job != 0 && m->job == ca_ad_stamp(job);
	bool cid = known || get_int(q, job, "ClusterId", &c);

	if (known) {
		c = m->cluster;
		p = m->proc;
	}
	if (cid && (known || get_int(q, job, "ProcId", &p))) {
		struct jobref *r = ref_id(q, c, p, true);
		ref = (uint32_t)(r - q->refs.at);
		r->queued = true;
		r->job = job;
	}
	if (cid && c > q->max_cluster)
		q->max_cluster = c;
	push(&q->jobs, job, file, line);
	q->jobs.at[q->jobs.n - 1].ref = ref;
}

/* The Requirements of a job submitted without any: what condor_submit adds. */
static const char default_requirements[] =
    "TARGET.Cpus >= RequestCpus && TARGET.Memory >= RequestMemory && "
    "TARGET.Disk >= RequestDisk";

static void
set_default(ca_ad *job, const char *name, int64_t v)
{
	if (!ca_has(job, name))
		ca_set_int(job, name, v);
}

/* What condor_submit adds to a job that does not say: its resource requests
 * (JOB_DEFAULT_REQUEST*), DiskUsage (the size of its executable, which a
 * job of the simulation does not have: ExecutableSize, else 1 KiB), a
 * nice user's MaxJobRetirementTime of 0, and the lease of a job that can
 * reconnect (JOB_DEFAULT_LEASE_DURATION). */
static void
submit_defaults(ca_schedd *q, ca_ad *job)
{
	static const char *const names[3] = { "RequestCpus", "RequestMemory", "RequestDisk" };
	int64_t u = 5, size = 1;
	bool nice = false;

	for (int k = 0; k < 3; k++)
		if (!ca_has(job, names[k]) && q->request[k] != NULL)
			ca_ad_set_copy(job, names[k], strlen(names[k]), q->request[k]);
	if (!ca_has(job, "DiskUsage")) {
		if (get_int(q, job, "ExecutableSize", &size) && size < 1)
			size = 1;
		ca_set_int(job, "DiskUsage", size);
	}
	if (ca_get_bool(&q->cx, job, "NiceUser", &nice) == 1 && nice)
		set_default(job, "MaxJobRetirementTime", 0);
	get_int(q, job, "JobUniverse", &u);
	if ((u == 5 || u == 10 || u == 13) && q->lease > 0)	/* vanilla, java, vm */
		set_default(job, "JobLeaseDuration", q->lease);
}

/* condor_submit's request_<name> and require_<name> of a custom machine
 * resource (GPUs ...) become Request<name> and Require<name>; for each
 * such request (and RequestGPUs, however it is given) the Requirements
 * condor_submit writes hold (TARGET.<name> >= Request<name>), and with a
 * Require<name> its count of matching resources,
 * countMatches(MY.Require<name>, TARGET.Available<name>) >= Request<name>. */
static void
custom_requests(ca_ad *job, strbuf *req)
{
	static const char *const std[] = { "Cpus", "Memory", "Disk", "VirtualMemory" };
	strbuf name = STRBUF_INIT;
	ca_nameset asked;

	memset(&asked, 0, sizeof asked);
	ca_nameset_add(&asked, ca_intern("RequestGPUs", 11));
	for (uint32_t i = 0; i < job->n; i++) {
		const char *sp = ca_attr_spell(&job->attrs[i]);
		bool submit = strncasecmp(sp, "request_", 8) == 0 || strncasecmp(sp, "require_", 8) == 0;
		if (!submit || sp[8] == '\0')
			continue;
		strbuf_reset(&name);
		strbuf_addf(&name, "%s%s", tolower((unsigned char)sp[4]) == 'e' ? "Request" :
		    "Require", sp + 8);
		if (!ca_has(job, name.buf))
			ca_ad_set_copy(job, name.buf, name.len, ca_attr_expr(job, &job->attrs[i]));
		ca_nameset_add(&asked, ca_intern(name.buf, name.len));
	}
	for (uint32_t i = 0; i < job->n; i++) {
		const char *sp = ca_attr_spell(&job->attrs[i]);
		if (strncasecmp(sp, "Request", 7) != 0)
			continue;
		const char *res = sp + 7;
		bool skip = *res == '\0' || *res == '_' ||
		    !ca_nameset_has(&asked, ca_attr_name(&job->attrs[i]));
		for (size_t k = 0; k < sizeof std / sizeof std[0] && !skip; k++)
			skip = strcasecmp(res, std[k]) == 0;
		for (const char *c = res; !skip && *c; c++)
			skip = !isalnum((unsigned char)*c) && *c != '_';
		if (skip)
			continue;
		strbuf_addf(req, " && (TARGET.%s >= Request%s)", res, res);
		strbuf_reset(&name);
		strbuf_addf(&name, "Require%s", res);
		if (ca_has(job, name.buf))
			strbuf_addf(req, " && (countMatches(MY.Require%s, TARGET.Available%s) >= "
			    "Request%s)", res, res, res);
	}
	ca_nameset_free(&asked);
	strbuf_release(&name);
}

/* A job deferred to its DeferralTime (cron jobs have theirs from cron-next):
 * condor_submit's DeferralWindow (0) and DeferralPrepTime (300) unless the
 * job says, ScheddInterval, and the clause it adds to the Requirements so
 * that the job is not matched before DeferralTime - DeferralPrepTime nor
 * after its window. */
static void
deferral(ca_schedd *q, ca_ad *job)
{
	static const char clause[] = "((time() + ScheddInterval) >= (DeferralTime - "
	    "DeferralPrepTime)) && (time() < (DeferralTime + DeferralWindow))";
	const ca_name *req = ca_intern("Requirements", 12);
	ca_diag err;

	if (!ca_has(job, "DeferralTime") || is_cron(job))
		return;
	set_default(job, "DeferralWindow", 0);
	set_default(job, "DeferralPrepTime", 300);
	set_default(job, "ScheddInterval", q->interval);
	strbuf_reset(&q->tmp);
	strbuf_addc(&q->tmp, '(');
	ca_print_expr(&q->tmp, ca_attr_expr(job, ca_ad_find(job, req)), 0);
	strbuf_addf(&q->tmp, ") && (%s)", clause);
	ca_expr *e = ca_parse_expr(job->arena, q->tmp.buf, q->tmp.len, 0, &err);
	if (e != NULL)
		ca_ad_set(job, req, NULL, e);
}

/* One job of a submission joins the queue, as condor_submit would put it
 * there: idle, vanilla, queued now. */
static void
enqueue(ca_schedd *q, ca_ad *job, const char *file, int line)
{
	char id[CA_JOBID_LEN];
	struct jobref *r;

	if (!ca_jobid(&q->cx, job, id, sizeof id))
		report(q, file, line, "ClusterId and ProcId must be integers");
	else if ((r = ref_of(q, id, false)) != NULL && r->queued)
		report(q, file, line, "job %s is already in the queue", id);
	else if (!ca_has(job, "Owner") && !ca_has(job, "User"))
		report(q, file, line, "job %s has no Owner", id);
	else {
		set_default(job, "JobStatus", CA_J_IDLE);
		set_default(job, "JobUniverse", 5);
		submit_defaults(q, job);
		strbuf req = STRBUF_INIT;
		strbuf_adds(&req, default_requirements);
		custom_requests(job, &req);
		if (!ca_has(job, "Requirements")) {
			ca_diag err;
			ca_expr *e = ca_parse_expr(job->arena, req.buf, req.len, 0, &err);
			if (e != NULL)
				ca_ad_set(job, ca_intern("Requirements", 12), NULL, e);
		}
		strbuf_release(&req);
		deferral(q, job);
		set_default(job, "QDate", q->now);
		set_default(job, "EnteredCurrentStatus", q->now);
		log_event(q, event(q, job, CA_JEV_SUBMIT, int_or(q, job, "QDate", q->now)));
		queue_job(q, job, file, line, NULL);
		return;
	}
	ca_ad_free(job);
}

/* A submission: a cluster (its ClusterId, else the next free one) of Queue
 * jobs (default 1), ProcId 0, 1, ... as condor_submit's "queue N" makes
 * them. */
static void
submit(ca_schedd *q, ca_ad *ad, const char *file, int line)
{
	int64_t n = 1, cluster;

	if (ca_has(ad, "Queue")) {
		if (!get_int(q, ad, "Queue", &n) || n < 1 || n > 100000) {
			report(q, file, line, "Queue must be an integer from 1 to 100000");
			ca_ad_free(ad);
			return;
		}
		ca_unset(ad, "Queue");
		if (ca_has(ad, "ProcId") && n > 1) {
			report(q, file, line, "an ad with ProcId is one job: Queue must be 1");
			ca_ad_free(ad);
			return;
		}
	}
	if (!get_int(q, ad, "ClusterId", &cluster)) {
		if (ca_has(ad, "ClusterId")) {
			report(q, file, line, "ClusterId must be an integer");
			ca_ad_free(ad);
			return;
		}
		cluster = q->max_cluster + 1;
		if (cluster < q->first_cluster)
			cluster = q->first_cluster;
		ca_set_int(ad, "ClusterId", cluster);
	}
	for (int64_t p = 0; p < n; p++) {
		ca_ad *job = p + 1 < n ? ca_ad_copy(ad) : ad;
		if (n > 1 || !ca_has(job, "ProcId"))
			ca_set_int(job, "ProcId", p);
		enqueue(q, job, file, line);
	}
}

void
ca_schedd_add(ca_schedd *q, int what, ca_ad *ad, const char *file, int line)
{
	switch (what) {
	case CA_Q_JOB: queue_job(q, ad, file, line, NULL); break;
	case CA_Q_SUBMIT: submit(q, ad, file, line); break;
	case CA_Q_SLOT: push(&q->slots, ad, file, line); break;
	case CA_Q_EXIT: push(&q->exits, ad, file, line); break;
	case CA_Q_MATCH: push(&q->matches, ad, file, line); break;
	default: ca_ad_free(ad); break;
	}
}

void
ca_schedd_add_job(ca_schedd *q, ca_ad *job, const char *file, int line, const ca_job_memo *m)
{
	queue_job(q, job, file, line, m);
}

size_t
ca_schedd_count(const ca_schedd *q)
{
	return q->jobs.n;
}

ca_ad *
ca_schedd_job(const ca_schedd *q, size_t i)
{
	return q->jobs.at[i].ad;
}

/* ---- the index of what the step reads ---- */

/* What is known of the slot named name (in any case; a new record when
 * make is set); NULL when nothing is. */
static struct slotref *
slot_named(ca_schedd *q, const char *name, bool make)
{
	strbuf_reset(&q->tmp);
	for (const char *c = name; *c; c++)
		strbuf_addc(&q->tmp, *c >= 'A' && *c <= 'Z' ? (char)(*c + ('a' - 'A')) : *c);
	uint32_t i = key(&q->names, q->tmp.buf, q->tmp.len, false);
	if (i == CA_DICT_NONE && make)
		i = key(&q->names, ca_arena_strndup(&q->text, q->tmp.buf, q->tmp.len), q->tmp.len,
		    true);
	if (i == CA_DICT_NONE)
		return NULL;
	if (i == q->slotrefs.n)
		*ca_vec_push(&q->slotrefs) = (struct slotref){ NULL, -1 };
	return &q->slotrefs.at[i];
}

/* Index the slots and StarterExit events by slot name, when a job's step
 * first needs to: only an eviction does. */
static void
index_names(ca_schedd *q)
{
	const char *name;
	int64_t t;

	q->names_indexed = true;
	for (size_t i = 0; i < q->slots.n; i++) {
		const ca_ad *s = q->slots.at[i].ad;
		if ((name = str(q, s, "Name")) != NULL) {
			struct slotref *r = slot_named(q, name, true);
			if (r->slot == NULL)
				r->slot = s;
		}
	}
	for (size_t i = 0; i < q->exits.n; i++) {
		const ca_ad *e = q->exits.at[i].ad;
		if (str_is(q, e, "Event", "StarterExit") && (name = str(q, e, "Name")) != NULL &&
		    get_int(q, e, "Time", &t)) {
			struct slotref *r = slot_named(q, name, true);
			if (r->starter < 0)
				r->starter = t;
		}
	}
}

/* The ids slot s names, and whether it runs its job and holds one: from
 * its memo while the slot's stamp holds, else read (and the memo renewed
 * when every id is a literal written as HTCondor writes it). texts: the
 * ids read that are written otherwise, NULL for the others. */
static uint8_t
slot_ids(ca_schedd *q, const ca_ad *s, ca_slot_ids *m, int64_t id[3][2],
    const char *texts[3], size_t lens[3])
{
	static const int sr[3] = { SR_JOBID, SR_HELDJOBID, SR_PREEMPTINGJOBID };
	uint64_t stamp = ca_ad_stamp(s);
	bool plain = true, kept = m != NULL && m->slot == s && m->stamp != 0 &&
	    m->stamp == stamp;
	uint8_t got = 0;

	texts[0] = texts[1] = texts[2] = NULL;
#ifndef CA_SELFCHECK
	if (kept) {
		memcpy(id, m->id, sizeof m->id);
		return m->have;
	}
#endif
	memset(id, 0, 3 * sizeof id[0]);
	for (int k = 0; k < 3; k++) {
		ca_attr *at = ca_ad_find(s, q->sr[sr[k]]);
		ca_value v;
		const char *t = NULL;
		if (at == NULL)
			continue;
		if (ca_attr_lit_in(s, at, &v)) {
			if (v.kind == CA_STRING)
				t = v.u.s, lens[k] = v.x.len;
		} else {
			t = slot_str(q, s, sr[k], &lens[k]);
			plain = false;	/* an expression: what it reads may change */
		}
		if (t == NULL)
			continue;
		got |= (uint8_t)(1 << k);
		if (!id_numbers(t, lens[k], &id[k][0], &id[k][1])) {
			texts[k] = t;
			plain = false;
		}
	}
	if (ca_ad_find(s, q->sr[SR_JOBSTART]) != NULL)
		got |= CA_SLOT_JOBSTART;
	if (ca_ad_find(s, q->sr[SR_HOLDCODE]) != NULL)
		got |= CA_SLOT_HOLDCODE;
#ifdef CA_SELFCHECK
	/* the kept memo must say what the slot says */
	if (kept && (m->have != got || !plain || memcmp(m->id, id, sizeof m->id) != 0))
		abort();
#endif
	if (m != NULL && !kept) {
		*m = (ca_slot_ids){ 0 };
		if (plain && stamp != 0) {
			*m = (ca_slot_ids){ s, stamp, { { 0 } }, got };
			memcpy(m->id, id, sizeof m->id);
		}
	}
	return got;
}

/* The record of id k of a slot (slot_ids), made. */
static struct jobref *
slot_ref(ca_schedd *q, int64_t id[3][2], const char *texts[3], size_t lens[3], int k)
{
	if (texts[k] != NULL)
		return ref_ofn(q, texts[k], lens[k], true);
	return ref_id(q, id[k][0], id[k][1], true);
}

/* Index the slots and exits by job id, the matches by job id (the slot
 * attributes read here are among slot_reads). */
static void
index_all(ca_schedd *q)
{
	const char *id, *texts[3];
	size_t lens[3];
	int64_t ids[3][2];

	for (size_t i = 0; i < q->slots.n; i++) {
		const ca_ad *s = q->slots.at[i].ad;
		uint8_t have = slot_ids(q, s, q->slots.at[i].ids, ids, texts, lens);
		if (have & CA_SLOT_JOBID) {
			struct jobref *r = slot_ref(q, ids, texts, lens, 0);
			if (have & CA_SLOT_JOBSTART)
				r->run = s;
			else if (r->wait == NULL)
				r->wait = s;
		}
		if ((have & CA_SLOT_HELDJOBID) && (have & CA_SLOT_HOLDCODE))
			slot_ref(q, ids, texts, lens, 1)->held = s;
		if (have & CA_SLOT_PREEMPTINGJOBID) {
			struct jobref *r = slot_ref(q, ids, texts, lens, 2);
			if (r->wait == NULL)
				r->wait = s;
		}
	}
	for (size_t i = 0; i < q->exits.n; i++) {
		const ca_ad *e = q->exits.at[i].ad;
		if (str_is(q, e, "Event", "JobExit") && (id = str(q, e, "JobId")) != NULL)
			ref_of(q, id, true)->exit = e;
	}
	for (size_t i = 0; i < q->matches.n; i++) {
		const ca_ad *m = q->matches.at[i].ad;
		if ((id = str(q, m, "JobId")) != NULL)
			ref_of(q, id, true)->match = m;
		if ((id = str(q, m, "PreemptedJobId")) != NULL)
			ref_of(q, id, true)->preempt = m;
	}
	q->indexed = true;
}

/* ---- the step of a job ---- */

static void
set_status(ca_schedd *q, ca_ad *job, int status, int64_t t)
{
	int64_t old = int_or(q, job, "JobStatus", CA_J_IDLE);

	if (old == status)
		return;
	ca_set_int(job, "LastJobStatus", old);
	ca_set_int(job, "JobStatus", status);
	ca_set_int(job, "EnteredCurrentStatus", t);
}

/* The end of a stretch of suspension at t. */
static void
end_suspension(ca_schedd *q, ca_ad *job, int64_t t)
{
	int64_t since;

	if (int_or(q, job, "JobStatus", CA_J_IDLE) == CA_J_SUSPENDED &&
	    get_int(q, job, "LastSuspensionTime", &since) && t > since)
		add_int(q, job, "CumulativeSuspensionTime", t - since);
}

/* Forget the eviction of the last run, or of a run that was going to be. */
static void
forget_eviction(ca_ad *job)
{
	ca_unset(job, "VacateReason");
	ca_unset(job, "PreemptingJobId");
	ca_unset(job, "PreemptingUser");
}

/* A match of this cycle preempts the job: why, and for whom. */
static void
preempted_by(ca_schedd *q, ca_ad *job, const ca_ad *m)
{
	copy_str(q, job, "VacateReason", m, "MatchReason");
	copy_str(q, job, "PreemptingJobId", m, "JobId");
	copy_str(q, job, "PreemptingUser", m, "Submitter");
}

/* The job starts on slot s (its JobStart is the activation). */
static void
job_start(ca_schedd *q, ca_ad *job, const ca_ad *s)
{
	int64_t start = int_or(q, s, "JobStart", q->now);

	set_status(q, job, CA_J_RUNNING, start);
	copy_str(q, job, "RemoteHost", s, "Name");
	ca_set_int(job, "JobCurrentStartDate", start);
	if (!ca_has(job, "JobStartDate"))
		ca_set_int(job, "JobStartDate", start);
	add_int(q, job, "NumJobStarts", 1);
	ca_unset(job, "JobCurrentStartExecutingDate");
	ca_unset(job, "MatchedSlot");
	forget_eviction(job);
}

static void job_held(ca_schedd *q, ca_ad *job, int64_t t, const char *reason, int64_t code,
    int64_t subcode);

/* The time a job deferred to DeferralTime came too late to run, its window
 * (DeferralWindow) past: the starter does not run it. The window's last
 * second is in it, as HTCondor's starter counts. */
static bool
missed_deferral(ca_schedd *q, const ca_ad *job, int64_t start)
{
	int64_t defer, window = 0;

	if (!get_int(q, job, "DeferralTime", &defer))
		return false;
	get_int(q, job, "DeferralWindow", &window);
	return start > defer && start - defer > window;
}

/* A running job on slot s: suspended or not, executing yet (after its
 * DeferralTime), and whether its eviction (or a hold by the startd, its
 * WANT_HOLD) has been decided. A job that came after its deferral window is
 * put on hold: true. */
static bool
job_running(ca_schedd *q, ca_ad *job, const ca_ad *s)
{
	int64_t st = int_or(q, job, "JobStatus", CA_J_IDLE), since, start, exec, defer = 0;
	bool deferred = get_int(q, job, "DeferralTime", &defer);
	const char *name = str(q, s, "Name"), *ev;
	bool susp = str_is(q, s, "Activity", ca_sact_name[CA_A_SUSPENDED]);
	bool busy = str_is(q, s, "Activity", ca_sact_name[CA_A_BUSY]);
	bool preempting = slot_is(q, s, CA_S_PREEMPTING, -1);

	since = int_or(q, s, "EnteredCurrentActivity", q->now);
	if (susp && st != CA_J_SUSPENDED) {
		set_status(q, job, CA_J_SUSPENDED, since);
		ca_set_int(job, "LastSuspensionTime", since);
		add_int(q, job, "TotalSuspensions", 1);
		log_event(q, slot_event(q, job, CA_JEV_SUSPENDED, since, name));
	} else if (!susp && st == CA_J_SUSPENDED) {
		end_suspension(q, job, since);
		set_status(q, job, CA_J_RUNNING, since);
		if (!preempting)
			log_event(q, slot_event(q, job, CA_JEV_UNSUSPENDED, since, name));
	}
	start = int_or(q, job, "JobCurrentStartDate", int_or(q, s, "JobStart", q->now));
	if (!ca_has(job, "JobCurrentStartExecutingDate") && missed_deferral(q, job, start)) {
		job_held(q, job, start, "Job missed deferred execution time",
		    CA_HOLD_MISSED_DEFERRAL, 0);
		return true;
	}
	exec = start;
	if (deferred && defer > exec)
		exec = defer;
	if (exec <= q->now && !ca_has(job, "JobCurrentStartExecutingDate")) {
		ca_set_int(job, "JobCurrentStartExecutingDate", exec);
		ca_ad *e = slot_event(q, job, CA_JEV_EXECUTE, exec, name);
		ca_set_int(e, "ActivationTime", start);
		if (deferred)
			ca_set_int(e, "DeferralTime", defer);
		log_event(q, e);
	}
	/* the startd decided the eviction (PREEMPT, IS_OWNER, vacate, ...); a
	 * preempting claim keeps the negotiator's reason; else none is pending */
	if ((ev = str(q, s, "Eviction")) != NULL && *ev != '\0') {
		if (!str_is(q, job, "VacateReason", ev))
			ca_set_str(job, "VacateReason", ev);
	} else if (!ca_has(s, "PreemptingJobId") && !preempting && (susp || busy))
		forget_eviction(job);
	/* the startd will put the job on hold when it leaves (WANT_HOLD): the
	 * hold is pending in HoldReason while the job still runs */
	int64_t code;
	char id[CA_JOBID_LEN];
	if (get_int(q, s, "JobHoldReasonCode", &code) && !ca_has(job, "HoldReasonCode") &&
	    ca_jobid(&q->cx, job, id, sizeof id) && str_is(q, s, "HeldJobId", id)) {
		copy_str(q, job, "HoldReason", s, "JobHoldReason");
		ca_set_int(job, "HoldReasonCode", code);
		ca_set_int(job, "HoldReasonSubCode", int_or(q, s, "JobHoldReasonSubCode", 0));
	}
	return false;
}

/* Wall-clock time of the current run, to t. */
static int64_t
run_time(ca_schedd *q, const ca_ad *job, int64_t t)
{
	int64_t start;

	if (!get_int(q, job, "JobCurrentStartDate", &start) || t < start)
		return 0;
	return t - start;
}

/* Leaving the slot: the run's clocks, RemoteHost becomes LastRemoteHost. */
static void
job_leaves(ca_schedd *q, ca_ad *job, int64_t t)
{
	end_suspension(q, job, t);
	add_int(q, job, "RemoteWallClockTime", run_time(q, job, t));
	copy_str(q, job, "LastRemoteHost", job, "RemoteHost");
	ca_unset(job, "RemoteHost");
}

/* The job is put on hold at t (leaving its slot if it ran): JobStatus 5,
 * HoldReason, HoldReasonCode and HoldReasonSubCode as HTCondor's schedd
 * sets them, NumHolds, and a JobHeldEvent. */
static void
job_held(ca_schedd *q, ca_ad *job, int64_t t, const char *reason, int64_t code,
    int64_t subcode)
{
	int64_t st = int_or(q, job, "JobStatus", CA_J_IDLE);
	ca_ad *e = slot_event(q, job, CA_JEV_HELD, t, str(q, job, "RemoteHost"));

	strbuf_reset(&q->tmp);
	if (reason != NULL)
		strbuf_adds(&q->tmp, reason);	/* it may live in the job */
	if (st == CA_J_RUNNING || st == CA_J_SUSPENDED) {
		job_leaves(q, job, t);
		ca_unset(job, "JobCurrentStartExecutingDate");
		ca_unset(job, "MatchedSlot");
	}
	set_status(q, job, CA_J_HELD, t);
	ca_set_str(job, "HoldReason", q->tmp.buf);
	ca_set_int(job, "HoldReasonCode", code);
	ca_set_int(job, "HoldReasonSubCode", subcode);
	add_int(q, job, "NumHolds", 1);
	ca_set_str(e, "HoldReason", q->tmp.buf);
	ca_set_int(e, "HoldReasonCode", code);
	ca_set_int(e, "HoldReasonSubCode", subcode);
	log_event(q, e);
}

/* The job left its slot without finishing: back to idle, or on hold when
 * the startd said so (a pending HoldReason). */
static void
job_evicted(ca_schedd *q, ca_ad *job, const struct jobref *r)
{
	const char *host = str(q, job, "RemoteHost"), *reason;
	int64_t t = -1, start = int_or(q, job, "JobCurrentStartDate", q->now);

	if (r != NULL && r->preempt != NULL)
		preempted_by(q, job, r->preempt);
	if (host != NULL) {
		if (!q->names_indexed)
			index_names(q);
		const struct slotref *sr = slot_named(q, host, false);
		if (sr != NULL)
			t = sr->starter;
		if (t < 0 && sr != NULL && sr->slot != NULL)
			t = int_or(q, sr->slot, "EnteredCurrentState", -1);
	}
	if (t < start || t > q->now)
		t = t < start ? (start <= q->now ? start : q->now) : q->now;
	int64_t code;
	if (get_int(q, job, "HoldReasonCode", &code)) {
		job_held(q, job, t, str(q, job, "HoldReason"), code,
		    int_or(q, job, "HoldReasonSubCode", 0));
		return;
	}
	if (r != NULL && r->held != NULL && get_int(q, r->held, "JobHoldReasonCode", &code)) {
		job_held(q, job, t, str(q, r->held, "JobHoldReason"), code,
		    int_or(q, r->held, "JobHoldReasonSubCode", 0));
		return;
	}
	ca_ad *e = slot_event(q, job, CA_JEV_EVICTED, t, host);
	reason = str(q, job, "VacateReason");
	ca_set_str(e, "Reason", reason != NULL ? reason : "unknown");
	copy_str(q, e, "PreemptingJobId", job, "PreemptingJobId");
	copy_str(q, e, "PreemptingUser", job, "PreemptingUser");
	ca_set_int(e, "RunTime", run_time(q, job, t));
	ca_set_bool(e, "Checkpointed", false);
	log_event(q, e);
	if (reason == NULL)
		ca_set_str(job, "VacateReason", "unknown");
	job_leaves(q, job, t);
	ca_set_int(job, "LastVacateTime", t);
	ca_unset(job, "JobCurrentStartExecutingDate");
	set_status(q, job, CA_J_IDLE, t);
}

/* ---- holds, releases, removals: the periodic policies ---- */

/* The job is released from hold at t: idle again, with a JobReleasedEvent;
 * its hold becomes its last one. A cron job gets its next DeferralTime
 * afresh. */
static void
job_released(ca_schedd *q, ca_ad *job, int64_t t, const char *reason)
{
	ca_ad *e = event(q, job, CA_JEV_RELEASED, t);

	ca_set_str(e, "Reason", reason);
	log_event(q, e);
	copy_str(q, job, "LastHoldReason", job, "HoldReason");
	ca_set_int(job, "LastHoldReasonCode", int_or(q, job, "HoldReasonCode", 0));
	ca_set_int(job, "LastHoldReasonSubCode", int_or(q, job, "HoldReasonSubCode", 0));
	ca_unset(job, "HoldReason");
	ca_unset(job, "HoldReasonCode");
	ca_unset(job, "HoldReasonSubCode");
	ca_set_str(job, "ReleaseReason", reason);
	if (is_cron(job)) {
		ca_unset(job, "DeferralTime");
		ca_unset(job, "CronDue");
	}
	set_status(q, job, CA_J_IDLE, t);
}

/* The job is removed at t (leaving its slot if it ran): JobStatus 3,
 * RemoveReason and a JobAbortedEvent. True when it leaves the queue. */
static bool
job_removed(ca_schedd *q, ca_ad *job, int64_t t, const char *reason)
{
	int64_t st = int_or(q, job, "JobStatus", CA_J_IDLE);
	ca_ad *e = event(q, job, CA_JEV_ABORTED, t);

	ca_set_str(e, "Reason", reason);
	log_event(q, e);
	if (st == CA_J_RUNNING || st == CA_J_SUSPENDED) {
		job_leaves(q, job, t);
		ca_unset(job, "JobCurrentStartExecutingDate");
	}
	ca_unset(job, "MatchedSlot");
	ca_set_str(job, "RemoveReason", reason);
	set_status(q, job, CA_J_REMOVED, t);
	return q->history;
}

/* A policy is true when it evaluates to a nonzero number (true counts as
 * 1), as HTCondor's schedd reads it; UNDEFINED does nothing. */
static bool
fires(ca_schedd *q, const ca_ad *job, const ca_expr *e)
{
	ca_value v = ca_eval_expr(&q->cx, e, job, NULL);

	switch (v.kind) {
	case CA_BOOL:
		return v.u.b;
	case CA_INT:
		return v.u.i != 0;
	case CA_REAL:
		return v.u.r != 0.0 && !isnan(v.u.r);
	default:
		return false;
	}
}

/* Policy k of the job (attr: PeriodicHold) or of the system (the
 * SYSTEM_PERIODIC_ knobs; k -1: none): true with the reason, its code (job:
 * 3, system: 26, for a hold) and subcode when one fires. */
static bool
policy_fires(ca_schedd *q, ca_ad *job, int k, const char *attr, strbuf *reason,
    int64_t *code, int64_t *subcode)
{
	ca_attr *at = ca_ad_findn(job, attr, strlen(attr));
	const char *r = NULL;

	*subcode = 0;
	strbuf_reset(reason);
	if (at != NULL && fires(q, job, ca_attr_expr(job, at))) {
		*code = CA_HOLD_JOB_POLICY;
		strbuf_reset(&q->tmp);
		strbuf_addf(&q->tmp, "%sReason", attr);
		if (ca_get_str(&q->cx, job, q->tmp.buf, &r, NULL) == 1 && *r != '\0')
			strbuf_adds(reason, r);
		else {
			strbuf_addf(reason, "The job attribute %s expression '", attr);
			ca_print_expr(reason, ca_attr_expr(job, at), 0);
			strbuf_adds(reason, "' evaluated to TRUE");
		}
		strbuf_reset(&q->tmp);
		strbuf_addf(&q->tmp, "%sSubCode", attr);
		get_int(q, job, q->tmp.buf, subcode);
		strbuf_reset(&q->tmp);
		return true;
	}
	for (size_t i = 0; k >= 0 && i < q->pol[k].n; i++) {
		const struct syspol *sp = &q->pol[k].at[i];
		if (!fires(q, job, sp->e))
			continue;
		*code = CA_HOLD_SYSTEM_POLICY;
		ca_value v;
		if (sp->subcode != NULL && ca_value_int(ca_eval_expr(&q->cx, sp->subcode, job,
		    NULL), subcode) != 1)
			*subcode = 0;
		if (sp->reason != NULL &&
		    (v = ca_eval_expr(&q->cx, sp->reason, job, NULL)).kind == CA_STRING &&
		    v.x.len > 0)
			strbuf_add(reason, v.u.s, v.x.len);
		else
			strbuf_addf(reason, "The system macro %s expression '%s' evaluated to TRUE",
			    sp->knob, sp->text);
		return true;
	}
	return false;
}

/* The periodic policies of the job at now, in HTCondor's order: a hold
 * (not of a held or completed job), a release (of a held job not held by
 * its user, SYSTEM_MAX_RELEASES permitting), a removal. True when the job
 * leaves the queue. */
static bool
periodic(ca_schedd *q, ca_ad *job)
{
	int64_t st = int_or(q, job, "JobStatus", CA_J_IDLE), code = 0, sub = 0;
	strbuf reason = STRBUF_INIT;
	bool gone = false;

	q->cx.now = q->now;
	if (st == CA_J_REMOVED || st == CA_J_COMPLETED) {
		strbuf_release(&reason);
		return false;
	}
	if (st != CA_J_HELD && policy_fires(q, job, P_HOLD, "PeriodicHold", &reason, &code,
	    &sub))
		job_held(q, job, q->now, reason.buf, code, sub);
	else if (st == CA_J_HELD && int_or(q, job, "HoldReasonCode", 0) != CA_HOLD_USER &&
	    (q->max_releases < 0 || int_or(q, job, "NumHolds", 0) < q->max_releases) &&
	    policy_fires(q, job, P_RELEASE, "PeriodicRelease", &reason, &code, &sub))
		job_released(q, job, q->now, reason.buf);
	else if (policy_fires(q, job, P_REMOVE, "PeriodicRemove", &reason, &code, &sub))
		gone = job_removed(q, job, q->now, reason.buf);
	strbuf_release(&reason);
	ca_arena_reset(&q->cx.scratch);
	return gone;
}

/* The job finished its run at t. Returns true when it leaves the queue. */
static bool
job_exits(ca_schedd *q, ca_ad *job, int64_t t)
{
	int64_t exec, code, sub;
	bool remove;
	strbuf why = STRBUF_INIT;

	if (!get_int(q, job, "JobCurrentStartExecutingDate", &exec))
		exec = int_or(q, job, "JobCurrentStartDate", t);
	ca_set_int(job, "ExitCode", 0);
	ca_set_bool(job, "ExitBySignal", false);
	add_int(q, job, "NumJobCompletions", 1);
	/* OnExitHold, with the exit known, before OnExitRemove: the job stays
	 * in the queue, held (code 3, or the OnExitHoldReason and
	 * OnExitHoldSubCode it gives) */
	q->cx.now = t;
	bool hold = policy_fires(q, job, -1, "OnExitHold", &why, &code, &sub);
	if (hold)
		job_held(q, job, t, why.buf, code, sub);
	strbuf_release(&why);
	if (hold)
		return false;
	ca_ad *e = slot_event(q, job, CA_JEV_TERMINATED, t, str(q, job, "RemoteHost"));
	ca_set_int(e, "RunTime", t >= exec ? t - exec : 0);
	ca_set_int(e, "ReturnValue", 0);
	ca_set_bool(e, "TerminatedNormally", true);
	job_leaves(q, job, t);
	/* OnExitRemove (cron jobs: false unless they say otherwise) */
	int r = ca_get_bool(&q->cx, job, "OnExitRemove", &remove);
	bool requeue = (r == 1 && !remove) || (r == 0 && is_cron(job));
	ca_set_bool(e, "Requeued", requeue);
	log_event(q, e);
	if (requeue) {
		set_status(q, job, CA_J_IDLE, t);
		ca_unset(job, "DeferralTime");	/* the next run is computed afresh */
		ca_unset(job, "CronDue");
		ca_unset(job, "JobCurrentStartExecutingDate");
		return false;
	}
	set_status(q, job, CA_J_COMPLETED, t);
	ca_set_int(job, "CompletionDate", t);
	return true;
}

/* The step of a job from what happened in the pool; *id_ok when it has
 * its id. */
static bool
step_job(ca_schedd *q, size_t i, bool *id_ok)
{
	ca_ad *job = q->jobs.at[i].ad;
	int64_t st = int_or(q, job, "JobStatus", CA_J_IDLE), t;
	const struct jobref *r;

	if (!q->indexed)
		index_all(q);
	if (!(*id_ok = q->jobs.at[i].ref != CA_DICT_NONE)) {
		report(q, q->jobs.at[i].file, q->jobs.at[i].line, "a job without integer "
		    "ClusterId and ProcId (left as it is)");
		return false;
	}
	r = &q->refs.at[q->jobs.at[i].ref];	/* queue_job made it */
	if (st == CA_J_COMPLETED || st == CA_J_REMOVED)
		return q->history;
	if (r->match != NULL && get_int(q, r->match, "Time", &t)) {
		ca_set_int(job, "LastMatchTime", t);
		add_int(q, job, "NumJobMatches", 1);
	}
	if (st == CA_J_RUNNING || st == CA_J_SUSPENDED) {
		if (r->preempt != NULL && r->run != NULL)
			preempted_by(q, job, r->preempt);
		if (r->run != NULL)
			(void)job_running(q, job, r->run);
		else if (r->exit != NULL) {
			if (!get_int(q, r->exit, "Time", &t))
				t = q->now;
			return job_exits(q, job, t) && q->history;
		} else
			job_evicted(q, job, r);
		return false;
	}
	if (st != CA_J_IDLE)
		return false;
	if (r->run != NULL) {
		job_start(q, job, r->run);
		(void)job_running(q, job, r->run);
	} else if (r->wait != NULL) {
		const char *name = str(q, r->wait, "Name");
		if (name != NULL && !str_is(q, job, "MatchedSlot", name))
			ca_set_str(job, "MatchedSlot", name);
	} else
		ca_unset(job, "MatchedSlot");	/* the match was lost, if there was one */
	return false;
}

bool
ca_schedd_step(ca_schedd *q, size_t i)
{
	bool id_ok;

	if (step_job(q, i, &id_ok))
		return true;
	/* the step does not change the id */
	return id_ok && periodic(q, q->jobs.at[i].ad);
}

/* The integer name of ad holds as a literal. */
static bool
lit_int(const ca_ad *ad, const char *name, int64_t *v)
{
	ca_value lit;

	if (lit_of(ad, name, &lit) != 1 || lit.kind != CA_INT)
		return false;
	*v = lit.u.i;
	return true;
}

static uint64_t
stamp_of(const ca_ad *ad)
{
	return ad != NULL ? ca_ad_stamp(ad) : 0;
}

/* Whether a step of job at another time would do what one now does:
 * nothing the step reads of it changes with time. A job running but not
 * executing yet waits for its DeferralTime; a periodic policy is an
 * expression that may read the time. */
static bool
timeless(ca_schedd *q, const ca_ad *job)
{
	int64_t st = int_or(q, job, "JobStatus", CA_J_IDLE);

	for (int k = 0; k < P_N; k++)
		if (q->pol[k].n > 0)
			return false;
	if ((st == CA_J_RUNNING || st == CA_J_SUSPENDED) &&
	    !ca_has(job, "JobCurrentStartExecutingDate"))
		return false;
	return !ca_has(job, "PeriodicHold") && !ca_has(job, "PeriodicRelease") &&
	    !ca_has(job, "PeriodicRemove");
}

bool
ca_schedd_step_memo(ca_schedd *q, size_t i, ca_job_memo *m)
{
	ca_ad *job = q->jobs.at[i].ad;

	if (!q->indexed)
		index_all(q);
	uint32_t ref = q->jobs.at[i].ref;
	const struct jobref *r = ref != CA_DICT_NONE ? &q->refs.at[ref] : NULL;
	uint64_t slot[3] = { 0, 0, 0 };
	if (r != NULL) {
		slot[0] = stamp_of(r->run);
		slot[1] = stamp_of(r->wait);
		slot[2] = stamp_of(r->held);
	}
	bool same = r != NULL && m->job != 0 && m->job == ca_ad_stamp(job) &&
	    m->version == job->version && (m->timeless || m->at == q->now) &&
	    r->exit == NULL && r->match == NULL && r->preempt == NULL &&
	    memcmp(slot, m->slot, sizeof slot) == 0;
#ifdef CA_SELFCHECK
	/* the step is taken anyway, and must change nothing */
	if (same && (ca_schedd_step(q, i) || job->version != m->version))
		abort();
#endif
	if (same)
		return false;
	*m = (ca_job_memo){ 0 };
	if (ca_schedd_step(q, i))
		return true;
	if (r != NULL) {	/* a job with its id: the step does not change it */
		m->job = ca_ad_stamp(job);
		m->version = job->version;
		m->timeless = timeless(q, job);
		ca_arena_reset(&q->cx.scratch);
		m->at = q->now;
		memcpy(m->slot, slot, sizeof slot);
		/* its id, while it is literal (ClusterId and ProcId are
		 * watched: a job whose stamp holds has them still) */
		if (!lit_int(job, "ClusterId", &m->cluster) || !lit_int(job, "ProcId", &m->proc))
			*m = (ca_job_memo){ 0 };
	}
	return false;
}

/* ---- a queue kept across steps (a pool in one process) ---- */

/* The inputs of kind what (a slot, an exit or a match), or NULL. */
static inputs *
inputs_of(ca_schedd *q, int what)
{
	switch (what) {
	case CA_Q_SLOT: return &q->slots;
	case CA_Q_EXIT: return &q->exits;
	case CA_Q_MATCH: return &q->matches;
	}
	return NULL;
}

void
ca_schedd_lend(ca_schedd *q, int what, const ca_ad *ad)
{
	inputs *v = inputs_of(q, what);

	if (v == NULL)
		return;
	ca_schedd_add(q, what, (ca_ad *)ad, "<lent>", 0);
	*ca_vec_push(&q->lent) = (struct lent){ what, v->n - 1 };
}

void
ca_schedd_lend_slot(ca_schedd *q, const ca_ad *slot, ca_slot_ids *ids)
{
	ca_schedd_lend(q, CA_Q_SLOT, slot);
	q->slots.at[q->slots.n - 1].ids = ids;
}

ca_ad *
ca_schedd_take(ca_schedd *q, size_t i)
{
	ca_ad *ad = q->jobs.at[i].ad;

	q->jobs.at[i].ad = NULL;
	return ad;
}

bool
ca_schedd_has_job(ca_schedd *q, int64_t cluster, int64_t proc)
{
	const struct jobref *r = ref_id(q, cluster, proc, false);

	return r != NULL && r->queued;
}

void
ca_schedd_free_lent(ca_schedd *q)
{
	if (q == NULL)
		return;
	for (size_t i = 0; i < q->lent.n; i++)
		inputs_of(q, q->lent.at[i].what)->at[q->lent.at[i].i].ad = NULL;
	ca_vec_free(&q->lent);
	ca_schedd_free(q);
}

/* ---- job attributes not simulated ---- */

/* Whether a universe's jobs go to slots through the negotiator: not the
 * scheduler (7), grid (9), parallel (11) or local (12) universes. */
static bool
universe_matters(int64_t u)
{
	return u == 7 || u == 9 || u == 11 || u == 12;
}

static bool
positive(int64_t v)
{
	return v > 0;
}

static const struct {
	ca_job_unsim u;
	bool (*matters)(int64_t v);
} job_unsim[] = {
	{ { "JobUniverse", "the scheduler, grid, parallel and local universes: such a "
	    "job is matched here as a vanilla job" }, universe_matters },
	{ { "NextJobStartDelay", "the schedd's delay between the starts of a cluster's "
	    "jobs" }, positive },
};

void
ca_job_unsimulated(const ca_ad *job, uint32_t *seen, ca_job_unsim_fn fn, void *arg)
{
	for (size_t i = 0; i < sizeof job_unsim / sizeof job_unsim[0]; i++) {
		if (*seen >> i & 1)
			continue;	/* warned about once */
		ca_value lit;
		int64_t v;
		if (lit_of(job, job_unsim[i].u.name, &lit) != 1 || ca_value_int(lit, &v) != 1 ||
		    !job_unsim[i].matters(v))
			continue;
		*seen |= UINT32_C(1) << i;
		fn(arg, job, &job_unsim[i].u);
	}
}
