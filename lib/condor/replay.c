/* replay.c - a real pool's workload (history, queue, status, priorities)
 * replayed under a policy in a fresh pool, and the figures of the run as rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "classad.h"
#include "accountant.h"
#include "config.h"
#include "match.h"
#include "pool.h"
#include "replay.h"
#include "startd.h"

/* A job of the workload: when it came, what it needs, who it is. */
struct rjob {
	int64_t qdate, need;	/* need: seconds of running, -1 not known yet */
	int64_t ran;		/* what a queued job ran already */
	uint32_t tmpl, user, group;
	bool modelled;
};

/* A machine: the ad that describes it, its class, its cores. */
struct rmach {
	char *name;
	ca_ad *desc;
	ca_ad *first;		/* its first slot ad, for the class expression */
	uint32_t cls;
	int64_t cores;
	bool desktop;
};

struct session {
	uint32_t mach;
	int64_t from, to;
};

typedef ca_vec(uint32_t) u32vec;
typedef ca_vec(ca_ad *) advec;

struct skip {
	char *why;
	int64_t n;
};

struct ca_replay {
	ca_ctx cx;
	ca_replay_progress_fn *progress;	/* ca_replay_on_progress */
	void *progress_arg;
	ca_vec(struct rjob) jobs;
	ca_vec(ca_ad *) tmpls;		/* the submit-side ads, each once */
	ca_vec(uint64_t) tmplh;
	ca_dict tmplidx;
	ca_vec(char *) names;		/* users and groups */
	ca_dict nameidx;
	ca_vec(struct rmach) machs;
	ca_dict machidx;
	ca_vec(ca_ad *) acct;
	ca_vec(struct session) sessions;
	ca_vec(char *) classes;
	ca_vec(char *) keep;
	ca_vec(struct skip) skips;
	ca_vec(uint64_t) seen;		/* GlobalJobIds, as hashes */
	ca_dict seenidx;
	ca_replay_opts o;
	int64_t modelled;
	strbuf tmp;
};

ca_replay *
ca_replay_new(void)
{
	ca_replay *r = ca_xcalloc(1, sizeof *r);

	ca_ctx_init(&r->cx);
	return r;
}

void
ca_replay_free(ca_replay *r)
{
	if (r == NULL)
		return;
	ca_vec_free(&r->jobs);
	for (size_t i = 0; i < r->tmpls.n; i++)
		ca_ad_free(r->tmpls.at[i]);
	ca_vec_free(&r->tmpls);
	ca_vec_free(&r->tmplh);
	ca_dict_free(&r->tmplidx);
	for (size_t i = 0; i < r->names.n; i++)
		free(r->names.at[i]);
	ca_vec_free(&r->names);
	ca_dict_free(&r->nameidx);
	for (size_t i = 0; i < r->machs.n; i++) {
		free(r->machs.at[i].name);
		ca_ad_free(r->machs.at[i].desc);
		ca_ad_free(r->machs.at[i].first);
	}
	ca_vec_free(&r->machs);
	ca_dict_free(&r->machidx);
	for (size_t i = 0; i < r->acct.n; i++)
		ca_ad_free(r->acct.at[i]);
	ca_vec_free(&r->acct);
	ca_vec_free(&r->sessions);
	for (size_t i = 0; i < r->classes.n; i++)
		free(r->classes.at[i]);
	ca_vec_free(&r->classes);
	for (size_t i = 0; i < r->keep.n; i++)
		free(r->keep.at[i]);
	ca_vec_free(&r->keep);
	for (size_t i = 0; i < r->skips.n; i++)
		free(r->skips.at[i].why);
	ca_vec_free(&r->skips);
	ca_vec_free(&r->seen);
	ca_dict_free(&r->seenidx);
	strbuf_release(&r->tmp);
	ca_ctx_free(&r->cx);
	free(r);
}

/* ---- small tables ---- */

static char *
xstrdup(const char *s)
{
	return ca_xstrndup(s, strlen(s));
}

/* The number of name in the table of users and groups (added when new). */
static uint32_t
name_id(ca_replay *r, const char *s, size_t len)
{
	uint64_t h = ca_hash_bytes(0, s, len);
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&r->nameidx, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&r->nameidx, &it))
		if (strlen(r->names.at[i]) == len && memcmp(r->names.at[i], s, len) == 0)
			return i;
	ca_dict_add(&r->nameidx, h, (uint32_t)r->names.n);
	*ca_vec_push(&r->names) = ca_xstrndup(s, len);
	return (uint32_t)(r->names.n - 1);
}

static void
skipped(ca_replay *r, const char *why)
{
	for (size_t i = 0; i < r->skips.n; i++)
		if (strcmp(r->skips.at[i].why, why) == 0) {
			r->skips.at[i].n++;
			return;
		}
	*ca_vec_push(&r->skips) = (struct skip){ xstrdup(why), 1 };
}

static int64_t
int_of(ca_replay *r, const ca_ad *ad, const char *name, int64_t def)
{
	int64_t v = def;
	double d;

	if (ca_get_int(&r->cx, ad, name, &v) != 1 && ca_get_num(&r->cx, ad, name, &d) == 1)
		v = (int64_t)d;
	return v;
}

/* ---- the jobs ---- */

/* What a job asks for, as submit files say it: replayed as they were. */
static const char *const job_keep[] = {
	"Owner", "User", "AccountingGroup", "AcctGroup", "AcctGroupUser", "NiceUser",
	"Requirements", "Rank", "ConcurrencyLimits", "JobUniverse", "JobPrio",
	"MaxJobRetirementTime", "DiskUsage", "ImageSize", "ExecutableSize", "WantCheckpoint",
	"CronMinute", "CronHour", "CronDayOfMonth", "CronMonth", "CronDayOfWeek", NULL
};

static bool
kept(ca_replay *r, const char *name)
{
	if (strncasecmp(name, "Request", 7) == 0)
		return true;
	for (int i = 0; job_keep[i] != NULL; i++)
		if (strcasecmp(name, job_keep[i]) == 0)
			return true;
	for (size_t i = 0; i < r->keep.n; i++)
		if (strcasecmp(name, r->keep.at[i]) == 0)
			return true;
	return false;
}

void
ca_replay_keep(ca_replay *r, const char *name)
{
	*ca_vec_push(&r->keep) = xstrdup(name);
}

/* The submit-side ad of job ad: its number among those seen (each once). */
static uint32_t
template_of(ca_replay *r, const ca_ad *ad)
{
	ca_ad *t = ca_ad_new();

	for (uint32_t i = 0; i < ad->n; i++)
		if (kept(r, ca_attr_spell(&ad->attrs[i])))
			ca_ad_copy_attr(t, ad, &ad->attrs[i]);
	strbuf_reset(&r->tmp);
	ca_format_ad(&r->tmp, t, CA_FMT_NEW);
	uint64_t h = ca_hash_bytes(0, r->tmp.buf ? r->tmp.buf : "", r->tmp.len);
	ca_dict_it it;
	for (uint32_t i = ca_dict_first(&r->tmplidx, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&r->tmplidx, &it))
		if (r->tmplh.at[i] == h) {
			ca_ad_free(t);
			return i;
		}
	ca_ad_trim(t);
	ca_dict_add(&r->tmplidx, h, (uint32_t)r->tmpls.n);
	*ca_vec_push(&r->tmpls) = t;
	*ca_vec_push(&r->tmplh) = h;
	return (uint32_t)(r->tmpls.n - 1);
}

/* The group of an accounting group "group.sub.user": all but the user; a
 * name without a dot is a group by itself. */
static uint32_t
group_id(ca_replay *r, const char *ag)
{
	const char *dot;

	if (ag == NULL)
		return name_id(r, "<none>", 6);
	dot = strrchr(ag, '.');
	return name_id(r, ag, dot ? (size_t)(dot - ag) : strlen(ag));
}

/* Whether the job was seen already (the same GlobalJobId in the history
 * and in the queue, or in two files). */
static bool
seen_before(ca_replay *r, const ca_ad *ad)
{
	const char *g = NULL;
	size_t len = 0;

	if (ca_get_str(&r->cx, ad, "GlobalJobId", &g, &len) != 1)
		return false;
	uint64_t h = ca_hash_bytes(1, g, len);
	ca_dict_it it;
	for (uint32_t i = ca_dict_first(&r->seenidx, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&r->seenidx, &it))
		if (r->seen.at[i] == h)
			return true;
	ca_dict_add(&r->seenidx, h, (uint32_t)r->seen.n);
	*ca_vec_push(&r->seen) = h;
	return false;
}

int
ca_replay_add_job(ca_replay *r, const ca_ad *ad, bool queued, const char **why,
    ca_diag *err)
{
	const char *owner = NULL, *ag = NULL;
	size_t olen = 0;
	int64_t qdate, st, need = -1, ran = 0;

	*why = NULL;
	if (ca_get_str(&r->cx, ad, "Owner", &owner, &olen) != 1 ||
	    (qdate = int_of(r, ad, "QDate", -1)) < 0) {
		ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, "a job ad without %s",
		    owner == NULL ? "Owner" : "QDate");
		ca_arena_reset(&r->cx.scratch);
		return -1;
	}
	if (seen_before(r, ad)) {
		*why = "seen before (the same GlobalJobId)";
		goto skip;
	}
	st = int_of(r, ad, "JobStatus", queued ? 1 : 4);
	int64_t committed = int_of(r, ad, "CommittedTime", 0);
	int64_t wall = int_of(r, ad, "RemoteWallClockTime", 0) -
	    int_of(r, ad, "CumulativeSuspensionTime", 0);
	if (!queued && committed > 0)
		need = committed - int_of(r, ad, "CommittedSuspensionTime", 0);
	else if (!queued && st == 4)
		need = wall > 0 ? wall : int_of(r, ad, "JobDuration", 0);
	else if (!queued && st == 3) {
		if (wall <= 0) {
			*why = "removed before it ran";
			goto skip;
		}
		need = wall;	/* the work done before the user removed it */
	} else if (!queued) {
		*why = "in the history neither completed nor removed";
		goto skip;
	} else if (st == 3 || st == 4) {
		*why = "in the queue completed or removed";
		goto skip;
	} else {
		ran = wall > 0 ? wall : 0;
		if (ca_has(ad, "JobDuration"))
			need = int_of(r, ad, "JobDuration", -1);
	}
	if (!queued && need < 0)
		need = 0;
	ca_get_str(&r->cx, ad, "AccountingGroup", &ag, NULL);
	struct rjob j = { qdate, need, ran, template_of(r, ad), name_id(r, owner, olen),
	    group_id(r, ag), false };
	*ca_vec_push(&r->jobs) = j;
	ca_arena_reset(&r->cx.scratch);
	return 1;
skip:
	skipped(r, *why);
	ca_arena_reset(&r->cx.scratch);
	return 0;
}

/* ---- the machines ---- */

/* What a slot ad says of its claim, its moment or its daemon, not of the
 * machine: left out of the machine's description. */
static const char *const slot_only[] = {
	"Name", "Machine", "SlotID", "SlotType", "SlotTypeID", "State", "Activity", "Entered",
	"Remote", "Job", "Client", "Cpus", "Memory", "Disk", "Total", "Child", "Dynamic",
	"Partitionable", "MyCurrentTime", "LastHeard", "Daemon", "Start", "Requirements",
	"Rank", "CurrentRank", "MyAddress", "AccountingGroup", "GlobalJobId", "Load",
	"CondorLoadAvg", "KeyboardIdle", "ConsoleIdle", "Activation", "Update", "MyType",
	"TargetType", "Preempting", "Claim", "PublicClaimId", "Recent", "Monitor", "Last",
	"Num", "Number", "Expected", "Retirement", "Avail", "IsValidCheckpointPlatform",
	"IsWakeAble", "IsWakeOnLanEnabled", "IsWakeOnLanSupported", "Within", "Slot",
	"CpuBusy", "CpuIsBusy", "Draining", "AuthenticatedIdentity", "Has_Sshd", NULL
};

static bool
machine_attr(const char *name)
{
	for (int i = 0; slot_only[i] != NULL; i++)
		if (strncasecmp(name, slot_only[i], strlen(slot_only[i])) == 0)
			return false;
	return true;
}

int
ca_replay_add_slot(ca_replay *r, const ca_ad *ad, ca_diag *err)
{
	const char *key = ca_startd_machine_key(ad);

	if (*key == '\0') {
		ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, "a slot ad without Machine or Name");
		return -1;
	}
	uint64_t h = ca_hash_bytes(0, key, strlen(key));
	ca_dict_it it;
	for (uint32_t i = ca_dict_first(&r->machidx, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&r->machidx, &it))
		if (strcmp(r->machs.at[i].name, key) == 0)
			return 0;	/* its other slots add nothing to the machine */
	ca_ad *d = ca_ad_new();
	ca_set_str(d, "Name", key);
	for (uint32_t i = 0; i < ad->n; i++) {
		ca_attr *a = &ad->attrs[i];
		const char *nm = ca_attr_spell(a);
		ca_value v;
		if (!machine_attr(nm) || !ca_attr_lit_in(ad, a, &v))
			continue;
		if (v.kind == CA_INT || v.kind == CA_REAL || v.kind == CA_BOOL || v.kind == CA_STRING)
			(void)ca_ad_set_lit(d, ca_attr_name(a), nm, v);
	}
	int64_t cpus = int_of(r, ad, "TotalCpus", int_of(r, ad, "Cpus", 1));
	ca_set_int(d, "Cpus", cpus);
	ca_set_int(d, "Memory", int_of(r, ad, "TotalMemory", int_of(r, ad, "Memory", 1024)));
	ca_set_int(d, "Disk", int_of(r, ad, "TotalDisk", int_of(r, ad, "Disk", 1000000)));
	ca_set_int(d, "KeyboardIdle", 864000);
	ca_set_int(d, "ConsoleIdle", 864000);
	ca_set_real(d, "LoadAvg", 0.0);
	ca_ad_trim(d);
	ca_dict_add(&r->machidx, h, (uint32_t)r->machs.n);
	*ca_vec_push(&r->machs) = (struct rmach){ xstrdup(key), d, ca_ad_copy(ad), 0, cpus,
	    false };
	ca_arena_reset(&r->cx.scratch);
	return 0;
}

void
ca_replay_add_acct(ca_replay *r, const ca_ad *ad)
{
	*ca_vec_push(&r->acct) = ca_ad_copy(ad);
}

static int
mach_of(ca_replay *r, const char *name)
{
	uint64_t h = ca_hash_bytes(0, name, strlen(name));
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&r->machidx, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&r->machidx, &it))
		if (strcmp(r->machs.at[i].name, name) == 0)
			return (int)i;
	return -1;
}

int
ca_replay_add_session(ca_replay *r, const char *machine, int64_t from, int64_t to,
    ca_diag *err)
{
	int m = mach_of(r, machine);

	if (m < 0) {
		ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, "%s is not among the machines", machine);
		return -1;
	}
	if (to <= from) {
		ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, "%s: To must be after From", machine);
		return -1;
	}
	*ca_vec_push(&r->sessions) = (struct session){ (uint32_t)m, from, to };
	return 0;
}

/* ---- prepare ---- */

/* splitmix64 of the seed and two numbers: the same draw every run. */
double
ca_replay_draw(uint64_t seed, uint64_t a, uint64_t b)
{
	uint64_t z = seed ^ ca_hash_mix(a * 0x9e3779b97f4a7c15u, b + 0x632be59bd9b4e019u);

	z += 0x9e3779b97f4a7c15u;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int64_t
ca_replay_quantile(int64_t *v, size_t n, double q)
{
	if (n == 0)
		return 0;
	size_t k = (size_t)ceil(q * (double)n);
	return v[k == 0 ? 0 : k - 1];
}

static int
cmp_job(const void *a, const void *b)
{
	const struct rjob *x = a, *y = b;

	return x->qdate < y->qdate ? -1 : x->qdate > y->qdate;
}

static int
cmp_session(const void *a, const void *b)
{
	const struct session *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->mach < y->mach ? -1 : x->mach > y->mach;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The owner model: on each weekday an owner comes with probability 0.85,
 * between 08:00 and 09:30 local time, and stays eight to nine hours. */
static void
model_owners(ca_replay *r, size_t m, int64_t from, int64_t to)
{
	time_t t0 = (time_t)from;
	struct tm tm;

	if (localtime_r(&t0, &tm) == NULL)
		return;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	uint64_t mh = ca_hash_bytes(0, r->machs.at[m].name, strlen(r->machs.at[m].name));
	for (int day = 0;; day++) {
		struct tm d = tm;
		d.tm_mday += day;
		d.tm_isdst = -1;
		time_t mid = mktime(&d);
		if (mid == (time_t)-1 || (int64_t)mid >= to)
			break;
		if (d.tm_wday == 0 || d.tm_wday == 6)
			continue;
		uint64_t k = (uint64_t)mid;
		if (ca_replay_draw(r->o.seed, mh, k * 4) >= 0.85)
			continue;
		int64_t arrive = (int64_t)mid + 8 * 3600 +
		    (int64_t)(ca_replay_draw(r->o.seed, mh, k * 4 + 1) * 5400);
		int64_t leave = arrive + 8 * 3600 +
		    (int64_t)(ca_replay_draw(r->o.seed, mh, k * 4 + 2) * 3600);
		*ca_vec_push(&r->sessions) = (struct session){ (uint32_t)m, arrive, leave };
	}
}

int
ca_replay_prepare(ca_replay *r, const ca_replay_opts *o, ca_diag *err)
{
	ca_arena a = { 0 };
	int rc = -1;

	r->o = *o;
	if (r->o.every <= 0)
		r->o.every = 300;
	if (r->o.default_runtime <= 0)
		r->o.default_runtime = 3600;
	if (r->jobs.n == 0 || r->machs.n == 0) {
		ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, "nothing to replay: no %s",
		    r->jobs.n == 0 ? "job" : "machine");
		return -1;
	}
	qsort(r->jobs.at, r->jobs.n, sizeof *r->jobs.at, cmp_job);
	if (r->o.start == 0)
		r->o.start = r->jobs.at[0].qdate;
	if (r->o.end == 0)
		r->o.end = r->jobs.at[r->jobs.n - 1].qdate;
	if (r->o.end < r->o.start)
		r->o.end = r->o.start;
	if (r->o.until == 0)
		r->o.until = r->o.end + 7 * 86400;
	/* jobs submitted outside the window are not part of it */
	size_t k = 0;
	for (size_t i = 0; i < r->jobs.n; i++) {
		if (r->jobs.at[i].qdate > r->o.end) {
			skipped(r, "submitted after the window");
			continue;
		}
		r->jobs.at[k++] = r->jobs.at[i];
	}
	r->jobs.n = k;

	/* the unknown run times: the median of the owner's measured ones */
	ca_vec(int64_t) *per = ca_xcalloc(r->names.n + 1, sizeof *per);
	for (size_t i = 0; i < r->jobs.n; i++)
		if (r->jobs.at[i].need >= 0 && r->jobs.at[i].ran == 0)
			*ca_vec_push(&per[r->jobs.at[i].user]) = r->jobs.at[i].need;
	for (size_t i = 0; i < r->names.n; i++)
		if (per[i].n > 0)
			qsort(per[i].at, per[i].n, sizeof *per[i].at, cmp_i64);
	for (size_t i = 0; i < r->jobs.n; i++) {
		struct rjob *j = &r->jobs.at[i];
		if (j->need >= 0)
			continue;
		j->need = per[j->user].n > 0 ? ca_replay_quantile(per[j->user].at,
		    per[j->user].n, 0.5) : r->o.default_runtime;
		if (j->need < j->ran)
			j->need = j->ran;
		j->modelled = true;
		r->modelled++;
	}
	for (size_t i = 0; i < r->names.n; i++)
		ca_vec_free(&per[i]);
	free(per);

	/* the classes, and which machines have owners */
	ca_expr *cls = NULL, *desk = NULL;
	if (r->o.class_by != NULL && (cls = ca_parse_expr(&a, r->o.class_by,
	    strlen(r->o.class_by), 0, err)) == NULL) {
		err->file = "the class expression";
		goto out;
	}
	if (r->o.desktops != NULL && (desk = ca_parse_expr(&a, r->o.desktops,
	    strlen(r->o.desktops), 0, err)) == NULL) {
		err->file = "the desktops expression";
		goto out;
	}
	ca_vec(char *) names = CA_VEC_INIT;
	for (size_t m = 0; m < r->machs.n; m++) {
		struct rmach *mc = &r->machs.at[m];
		const char *cn = "all";
		char buf[128];
		if (cls != NULL) {
			ca_value v = ca_eval_expr(&r->cx, cls, mc->first, NULL);
			if (v.kind == CA_STRING)
				snprintf(buf, sizeof buf, "%.*s", (int)v.x.len, v.u.s);
			else
				snprintf(buf, sizeof buf, "undefined");
			/* a class name becomes a configuration prefix: a word */
			for (char *c = buf; *c; c++)
				if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
				    (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'))
					*c = '_';
			cn = buf;
		}
		size_t c;
		for (c = 0; c < names.n && strcmp(names.at[c], cn) != 0; c++)
			;
		if (c == names.n)
			*ca_vec_push(&names) = xstrdup(cn);
		mc->cls = (uint32_t)c;
		if (desk != NULL) {
			ca_value v = ca_eval_expr(&r->cx, desk, mc->first, NULL);
			mc->desktop = v.kind == CA_BOOL && v.u.b;
		}
		ca_arena_reset(&r->cx.scratch);
	}
	/* classes in name order; machines renumbered to them */
	ca_vec(char *) sorted = CA_VEC_INIT;
	for (size_t i = 0; i < names.n; i++)
		*ca_vec_push(&sorted) = names.at[i];
	qsort(sorted.at, sorted.n, sizeof *sorted.at, cmp_str);
	for (size_t m = 0; m < r->machs.n; m++) {
		const char *cn = names.at[r->machs.at[m].cls];
		for (size_t c = 0; c < sorted.n; c++)
			if (sorted.at[c] == cn)
				r->machs.at[m].cls = (uint32_t)c;
	}
	r->classes.at = sorted.at;
	r->classes.n = sorted.n;
	r->classes.cap = sorted.cap;
	ca_vec_free(&names);
	for (size_t m = 0; m < r->machs.n; m++)
		if (r->machs.at[m].desktop)
			model_owners(r, m, r->o.start, r->o.until);
	if (r->sessions.n > 0)
		qsort(r->sessions.at, r->sessions.n, sizeof *r->sessions.at, cmp_session);
	rc = 0;
out:
	ca_arena_free(&a);
	return rc;
}

size_t
ca_replay_nclasses(const ca_replay *r)
{
	return r->classes.n;
}

const char *
ca_replay_class(const ca_replay *r, size_t i)
{
	return r->classes.at[i];
}

int64_t
ca_replay_start(const ca_replay *r)
{
	return r->o.start;
}

int64_t
ca_replay_end(const ca_replay *r)
{
	return r->o.end;
}

/* ---- a run ---- */

/* What became of a job in this run. */
struct jstat {
	int64_t first;		/* its first start, -1 none */
	double good, bad;	/* core-seconds that finished, that were lost */
	uint32_t evicted;
	uint8_t done, held, left;
};

/* The figures of a user or group. */
struct agg {
	int64_t submitted, started, completed, preempted;
	double good, bad, fair;
	double fair_busy;	/* fair as it was at the pool's last busy cycle */
	ca_vec(int64_t) waits;
};

struct cause {
	char *reason;
	int64_t n;
	double bad;
};

struct run {
	ca_replay *r;
	ca_pool *p;
	struct jstat *js;
	double *cores;		/* per template: RequestCpus */
	size_t submitted;	/* jobs[0, submitted) are in */
	ca_vec(struct cause) causes;
	double *cls_busy;	/* core-seconds claimed, per class */
	int64_t *cls_cores;
	int64_t *cls_machs;
	int64_t claimed_now, idle_now;
	ca_vec(ca_ad *) rows;
	const char *policy;
	ca_ctx cx;
	/* the names read of every job and slot after each cycle, interned */
	const ca_name *n_cluster, *n_status, *n_state, *n_cpus;
};

/* The job a JobId "C.P" names (C is its number in the workload plus one). */
static struct jstat *
job_of(struct run *u, const ca_ad *ad, size_t *idx)
{
	int64_t c = -1;

	if (ca_get_int_nm(&u->cx, ad, u->n_cluster, &c) != 1) {
		const char *id = NULL;
		if (ca_get_str(&u->cx, ad, "JobId", &id, NULL) == 1)
			c = strtoll(id, NULL, 10);
		else if (ca_get_int(&u->cx, ad, "Cluster", &c) != 1)
			c = -1;
	}
	if (c < 1 || (size_t)c > u->submitted)
		return NULL;
	*idx = (size_t)c - 1;
	return &u->js[c - 1];
}

static void
tap(void *arg, const ca_ad *ad, bool history)
{
	struct run *u = arg;
	size_t i;
	struct jstat *j = job_of(u, ad, &i);
	const char *type = NULL;
	double rt = 0;

	if (j == NULL)
		goto out;
	if (history) {
		j->left = 1;
		goto out;
	}
	if (ca_get_str(&u->cx, ad, "MyType", &type, NULL) != 1)
		goto out;
	double cores = u->cores[u->r->jobs.at[i].tmpl];
	(void)ca_get_num(&u->cx, ad, "RunTime", &rt);
	if (strcmp(type, "ExecuteEvent") == 0) {
		if (j->first < 0)
			j->first = int_of(u->r, ad, "EventTime", 0);
	} else if (strcmp(type, "JobEvictedEvent") == 0) {
		const char *why = "unknown";
		char reason[80];
		(void)ca_get_str(&u->cx, ad, "Reason", &why, NULL);
		snprintf(reason, sizeof reason, "%s", why);
		j->bad += rt * cores;
		j->evicted++;
		size_t k;
		for (k = 0; k < u->causes.n && strcmp(u->causes.at[k].reason, reason) != 0; k++)
			;
		if (k == u->causes.n)
			*ca_vec_push(&u->causes) = (struct cause){ xstrdup(reason), 0, 0 };
		u->causes.at[k].n++;
		u->causes.at[k].bad += rt * cores;
	} else if (strcmp(type, "JobTerminatedEvent") == 0) {
		j->good += rt * cores;
		j->done = 1;
	} else if (strcmp(type, "JobHeldEvent") == 0)
		j->held = 1;
	else if (strcmp(type, "JobReleasedEvent") == 0)
		j->held = 0;
out:
	ca_arena_reset(&u->cx.scratch);
}

/* The jobs submitted in (a, b] (the first cycle: everything up to b), as
 * one file of the pool's own. */
static void
submissions(struct run *u, int64_t b, ca_pool_file *f)
{
	ca_replay *r = u->r;
	ca_vec(ca_ad *) v = CA_VEC_INIT;

	for (; u->submitted < r->jobs.n && r->jobs.at[u->submitted].qdate <= b; u->submitted++) {
		const struct rjob *j = &r->jobs.at[u->submitted];
		ca_ad *ad = ca_ad_copy(r->tmpls.at[j->tmpl]);
		ca_set_int(ad, "ClusterId", (int64_t)u->submitted + 1);
		ca_set_int(ad, "ProcId", 0);
		ca_set_int(ad, "JobDuration", j->need);
		*ca_vec_push(&v) = ad;
	}
	*f = (ca_pool_file){ 0 };
	f->name = "replay";
	f->ads = v.at;
	f->n = v.n;
	f->super = true;
	f->state = CA_PF_TAKEN;
}

/* The owners at their keyboards in (a, b]: a MachineUpdate where a
 * session starts within it, and at its end (or at b). */
static void
typing(struct run *u, size_t *next, u32vec *active, int64_t a, int64_t b,
    ca_pool_file *f)
{
	ca_replay *r = u->r;
	ca_vec(ca_ad *) v = CA_VEC_INIT;

	for (; *next < r->sessions.n && r->sessions.at[*next].from <= b; (*next)++)
		*ca_vec_push(active) = (uint32_t)*next;
	size_t k = 0;
	for (size_t i = 0; i < active->n; i++) {
		const struct session *s = &r->sessions.at[active->at[i]];
		if (s->to <= a)
			continue;
		int64_t t1 = s->from > a ? s->from : a + 1, t2 = s->to < b ? s->to : b;
		for (int e = 0; e < 2; e++) {
			int64_t t = e == 0 ? t1 : t2;
			if (e == 1 && t2 <= t1)
				break;
			ca_ad *ev = ca_ad_new();
			ca_set_str(ev, "Name", r->machs.at[s->mach].name);
			ca_set_str(ev, "Event", "MachineUpdate");
			ca_set_int(ev, "Time", t);
			ca_set_int(ev, "KeyboardIdle", 0);
			ca_set_int(ev, "ConsoleIdle", 0);
			*ca_vec_push(&v) = ev;
		}
		if (s->to > b)
			active->at[k++] = active->at[i];
	}
	active->n = k;
	*f = (ca_pool_file){ 0 };
	f->name = "owners";
	f->ads = v.at;
	f->n = v.n;
	f->state = CA_PF_TAKEN;
}

static void
count_slot(void *arg, size_t cls, const ca_ad *slot)
{
	struct run *u = arg;
	const char *st = NULL;

	if (ca_get_str_nm(&u->cx, slot, u->n_state, &st, NULL) == 1 && strcmp(st, "Claimed") == 0) {
		int64_t c = 0;
		(void)ca_get_int_nm(&u->cx, slot, u->n_cpus, &c);
		u->cls_busy[cls] += (double)c;
		u->claimed_now += c;
	}
	ca_arena_reset(&u->cx.scratch);
}

static ca_ad *
row(struct run *u, const char *kind)
{
	ca_ad *ad = ca_ad_new();

	ca_set_str(ad, "Kind", kind);
	ca_set_str(ad, "Policy", u->policy);
	*ca_vec_push(&u->rows) = ad;
	return ad;
}

static double
hours(double s)
{
	return round(s / 3600.0 * 100.0) / 100.0;
}

static double
frac(double x)
{
	return round(x * 10000.0) / 10000.0;
}

/* After each cycle: claimed cores per class, what runs per group, the
 * fair shares of the users with jobs in the queue. */
static void
sample(struct run *u, int64_t t, int64_t dt, struct agg *ag, bool hourly)
{
	ca_replay *r = u->r;
	ca_pool *p = u->p;
	size_t nn = r->names.n;
	double *run = ca_xcalloc(nn + 1, sizeof *run);
	ca_vec(const ca_acct_rec *) recs = CA_VEC_INIT;
	ca_vec(uint32_t) who = CA_VEC_INIT;
	uint8_t *in = ca_xcalloc(nn + 1, 1);

	double *before = ca_xcalloc(r->classes.n, sizeof *before);
	memcpy(before, u->cls_busy, r->classes.n * sizeof *before);
	u->claimed_now = 0;
	ca_pool_slots(p, count_slot, u);
	for (size_t c = 0; c < r->classes.n; c++)
		u->cls_busy[c] = before[c] + (u->cls_busy[c] - before[c]) * (double)dt;
	free(before);
	u->idle_now = 0;
	for (size_t i = 0, n = ca_pool_njobs(p); i < n; i++) {
		const ca_ad *job = ca_pool_job(p, i);
		size_t k;
		if (job_of(u, job, &k) == NULL)
			continue;
		int64_t st = 0;
		(void)ca_get_int_nm(&u->cx, job, u->n_status, &st);
		const struct rjob *rj = &r->jobs.at[k];
		if (st == 2)
			run[rj->group] += 1;
		else if (st == 1)
			u->idle_now++;
		if ((st == 1 || st == 2) && !in[rj->user]) {
			const char *grp = NULL, *usr = NULL;
			size_t glen = 0, ulen = 0;
			in[rj->user] = 1;
			(void)ca_get_str(&u->cx, job, "AccountingGroup", &grp, &glen);
			(void)ca_get_str(&u->cx, job, "User", &usr, &ulen);
			const ca_acct_rec *rec = NULL;
			strbuf_reset(&r->tmp);
			if (ca_acct_customer(ca_pool_acct(p), grp, glen, usr, ulen, &r->tmp))
				rec = ca_acct_find(ca_pool_acct(p), r->tmp.buf, r->tmp.len);
			if (rec != NULL) {
				*ca_vec_push(&recs) = rec;
				*ca_vec_push(&who) = (uint32_t)k;
			}
		}
		ca_arena_reset(&u->cx.scratch);
	}
	if (recs.n > 0) {
		double *share = ca_xcalloc(recs.n, sizeof *share);
		ca_acct_shares((ca_acct_rec *const *)recs.at, recs.n, 1.0, share);
		for (size_t i = 0; i < recs.n; i++) {
			const struct rjob *rj = &r->jobs.at[who.at[i]];
			ag[rj->user].fair += share[i] * (double)dt;
			ag[nn + rj->group].fair += share[i] * (double)dt;
		}
		free(share);
	}
	if (hourly) {
		ca_ad *s = row(u, "sample");
		ca_set_int(s, "Time", t);
		ca_set_int(s, "Claimed", u->claimed_now);
		ca_set_int(s, "Idle", u->idle_now);
		for (size_t g = 0; g < nn; g++)
			if (ag[nn + g].submitted > 0) {
				ca_ad *x = row(u, "running");
				ca_set_int(x, "Time", t);
				ca_set_str(x, "Group", r->names.at[g]);
				ca_set_int(x, "Jobs", (int64_t)run[g]);
			}
	}
	free(run);
	free(in);
	ca_vec_free(&recs);
	ca_vec_free(&who);
}

/* Why a job that never started did not: held, matched by no machine, or
 * still waiting when the run stopped. */
static const char *
never_why(struct run *u, size_t i, int8_t *fits, advec *fresh)
{
	ca_replay *r = u->r;
	const struct rjob *j = &r->jobs.at[i];

	if (i >= u->submitted)
		return "not submitted before the run stopped";
	if (u->js[i].held)
		return "held";
	if (fits[j->tmpl] == 0) {
		ca_mad jm, sm;
		ca_ad *job = r->tmpls.at[j->tmpl];
		ca_mad_prepare(&jm, job);
		fits[j->tmpl] = -1;
		for (size_t s = 0; s < fresh->n && fits[j->tmpl] < 0; s++) {
			ca_mad_prepare(&sm, fresh->at[s]);
			bool ok = ca_match_symmetric(&u->cx, &jm, &sm);
			for (const char *const *res = (const char *const[]){ "Cpus", "Memory", "Disk",
			    NULL }; ok && *res != NULL; res++) {
				char req[32];
				snprintf(req, sizeof req, "Request%s", *res);
				double want = 0, have = 0;
				if (ca_get_num(&u->cx, job, req, &want) == 1 &&
				    ca_get_num(&u->cx, fresh->at[s], *res, &have) == 1 && want > have)
					ok = false;
			}
			if (ok)
				fits[j->tmpl] = 1;
			ca_arena_reset(&u->cx.scratch);
		}
	}
	if (fits[j->tmpl] < 0)
		return "no machine matches its Requirements and requests";
	return "still waiting when the run stopped";
}

static void
add_fresh(void *arg, size_t cls, const ca_ad *slot)
{
	*ca_vec_push((advec *)arg) = ca_ad_copy(slot);
}

static void
agg_rows(struct run *u, const char *kind, struct agg *ag, size_t n, double pool)
{
	ca_replay *r = u->r;
	ca_vec(char *) order = CA_VEC_INIT;

	for (size_t i = 0; i < n; i++)
		if (ag[i].submitted > 0)
			*ca_vec_push(&order) = r->names.at[i];
	if (order.n > 0)
		qsort(order.at, order.n, sizeof *order.at, cmp_str);
	for (size_t k = 0; k < order.n; k++) {
		size_t i;
		for (i = 0; i < n && !(ag[i].submitted > 0 && r->names.at[i] == order.at[k]); i++)
			;
		struct agg *a = &ag[i];
		ca_ad *x = row(u, kind);
		if (a->waits.n > 0)
			qsort(a->waits.at, a->waits.n, sizeof *a->waits.at, cmp_i64);
		ca_set_str(x, "Name", r->names.at[i]);
		ca_set_int(x, "Submitted", a->submitted);
		ca_set_int(x, "Started", a->started);
		ca_set_int(x, "Completed", a->completed);
		ca_set_int(x, "NeverRun", a->submitted - a->started);
		ca_set_int(x, "WaitMedian", ca_replay_quantile(a->waits.at, a->waits.n, 0.5));
		ca_set_int(x, "Wait90", ca_replay_quantile(a->waits.at, a->waits.n, 0.9));
		ca_set_real(x, "GoodputHours", hours(a->good));
		ca_set_real(x, "BadputHours", hours(a->bad));
		ca_set_int(x, "Preemptions", a->preempted);
		ca_set_real(x, "PoolShare", pool > 0 ? frac((a->good + a->bad) / pool) : 0);
		ca_set_real(x, "FairShare", frac(a->fair));
	}
	ca_vec_free(&order);
}

void
ca_replay_on_progress(ca_replay *r, ca_replay_progress_fn *fn, void *arg)
{
	r->progress = fn;
	r->progress_arg = arg;
}

int
ca_replay_run(ca_replay *r, const char *policy, ca_replay_config_fn cfgfn, void *cfg_arg,
    ca_pool_warn_fn warn, void *warn_arg, ca_ad ***rows, size_t *nrows, ca_diag *err)
{
	struct run u = { 0 };
	ca_pool *p = ca_pool_new();
	size_t nn = r->names.n, nc = r->classes.n;
	struct agg *ag = ca_xcalloc(2 * nn + 1, sizeof *ag);
	advec fresh = CA_VEC_INIT;
	u32vec active = CA_VEC_INIT;
	int rc = -1;

	u.r = r;
	u.p = p;
	u.policy = policy;
	ca_ctx_init(&u.cx);
	u.n_cluster = ca_intern("ClusterId", 9);
	u.n_status = ca_intern("JobStatus", 9);
	u.n_state = ca_intern("State", 5);
	u.n_cpus = ca_intern("Cpus", 4);
	u.js = ca_xcalloc(r->jobs.n + 1, sizeof *u.js);
	for (size_t i = 0; i < r->jobs.n; i++)
		u.js[i].first = -1;
	u.cores = ca_xcalloc(r->tmpls.n + 1, sizeof *u.cores);
	for (size_t i = 0; i < r->tmpls.n; i++) {
		double c = 1;
		if (ca_get_num(&u.cx, r->tmpls.at[i], "RequestCpus", &c) != 1 || c < 1)
			c = 1;
		u.cores[i] = c;
		ca_arena_reset(&u.cx.scratch);
	}
	u.cls_busy = ca_xcalloc(nc + 1, sizeof *u.cls_busy);
	u.cls_cores = ca_xcalloc(nc + 1, sizeof *u.cls_cores);
	u.cls_machs = ca_xcalloc(nc + 1, sizeof *u.cls_machs);
	ca_pool_set_warn(p, warn, warn_arg);
	ca_pool_set_tap(p, tap, &u);

	/* the policy */
	ca_config *ncfg = cfgfn(cfg_arg, "NEGOTIATOR", NULL, err), *scfg;
	if (ncfg == NULL)
		goto out;
	if ((scfg = cfgfn(cfg_arg, "SCHEDD", NULL, err)) == NULL) {
		ca_config_free(ncfg);
		goto out;
	}
	if (ca_pool_configure_with(p, ncfg, scfg, err) < 0)
		goto out;
	for (size_t c = 0; c < nc; c++) {
		ca_config *sc = cfgfn(cfg_arg, "STARTD", r->classes.at[c], err);
		if (sc == NULL || ca_pool_add_class(p, r->classes.at[c], sc, err) < 0)
			goto out;
	}
	/* the machines, the accountant, the clock */
	int64_t start = r->o.start, every = r->o.every;
	for (size_t c = 0; c < nc; c++) {
		ca_vec(ca_ad *) ads = CA_VEC_INIT;
		for (size_t m = 0; m < r->machs.n; m++)
			if (r->machs.at[m].cls == c) {
				*ca_vec_push(&ads) = ca_ad_copy(r->machs.at[m].desc);
				u.cls_cores[c] += r->machs.at[m].cores;
				u.cls_machs[c]++;
			}
		rc = ca_pool_add_machines(p, c, ads.at, ads.n, start, err);
		ca_vec_free(&ads);
		if (rc < 0)
			goto out;
		rc = -1;
	}
	ca_pool_slots(p, add_fresh, &fresh);
	ca_pool_set_clock(p, start, 0);
	for (size_t i = 0; i < r->acct.n; i++) {
		ca_ad *ad = ca_ad_copy(r->acct.at[i]);
		ca_diag e2;
		/* the priorities of the dump, taken as they are at the start */
		if (ca_has(ad, "LastUpdate"))
			ca_set_int(ad, "LastUpdate", start);
		if (ca_pool_add_acct(p, ad, &e2) < 0 && warn != NULL)
			warn(warn_arg, &e2);
	}
	for (size_t i = 0; i < r->jobs.n; i++) {
		ag[r->jobs.at[i].user].submitted++;
		ag[nn + r->jobs.at[i].group].submitted++;
	}

	/* the cycles */
	int64_t t = start, busy_at = start;
	size_t next = 0;
	int64_t cycles = 0;
	while (t < r->o.until) {
		int64_t b = t + every;
		ca_pool_file f[2];
		ca_pool_stats st;
		submissions(&u, b, &f[1]);
		typing(&u, &next, &active, t, b, &f[0]);
		int crc = ca_pool_cycle(p, b, &f[0], f[0].n ? 1 : 0, &f[1], f[1].n ? 1 : 0, NULL,
		    &st, err);
		ca_pool_file_clear(&f[0]);
		ca_pool_file_clear(&f[1]);
		if (crc < 0)
			goto out;
		for (int i = 0; i < 2; i++)
			if (f[i].state == CA_PF_REJECTED && warn != NULL)
				warn(warn_arg, &f[i].why);
		cycles++;
		sample(&u, b, every, ag, (b - start) % 3600 < every);
		t = b;
		if (r->progress)
			r->progress(r->progress_arg, policy, t, r->o.end, u.submitted, r->jobs.n);
		if (u.claimed_now > 0 || u.submitted < r->jobs.n || t <= r->o.end) {
			busy_at = t;
			for (size_t i = 0; i < 2 * nn; i++)
				ag[i].fair_busy = ag[i].fair;
		}
		/* the end: every job gone, or what is left has not run for a day */
		if (u.submitted == r->jobs.n && (ca_pool_njobs(p) == 0 || t - busy_at >= 86400))
			break;
	}
	int64_t last = busy_at > r->o.end ? busy_at : r->o.end, span = last - start;

	/* the figures */
	double pool = 0;
	for (size_t c = 0; c < nc; c++)
		pool += (double)u.cls_cores[c];
	pool *= (double)span;
	ca_vec(int64_t) waits = CA_VEC_INIT;
	double good = 0, bad = 0;
	int64_t started = 0, completed = 0, preempted = 0;
	int8_t *fits = ca_xcalloc(r->tmpls.n + 1, 1);
	struct skip *why = NULL;
	ca_vec(struct skip) never = CA_VEC_INIT;
	for (size_t i = 0; i < r->jobs.n; i++) {
		const struct rjob *j = &r->jobs.at[i];
		struct jstat *s = &u.js[i];
		struct agg *a[2] = { &ag[j->user], &ag[nn + j->group] };
		for (int k = 0; k < 2; k++) {
			a[k]->good += s->good;
			a[k]->bad += s->bad;
			a[k]->preempted += s->evicted;
			a[k]->completed += s->done;
			if (s->first >= 0) {
				a[k]->started++;
				*ca_vec_push(&a[k]->waits) = s->first - j->qdate;
			}
		}
		good += s->good;
		bad += s->bad;
		preempted += s->evicted;
		completed += s->done;
		if (s->first >= 0) {
			started++;
			*ca_vec_push(&waits) = s->first - j->qdate;
			continue;
		}
		const char *w = never_why(&u, i, fits, &fresh);
		why = NULL;
		for (size_t k = 0; k < never.n; k++)
			if (strcmp(never.at[k].why, w) == 0)
				why = &never.at[k];
		if (why == NULL) {
			*ca_vec_push(&never) = (struct skip){ (char *)w, 0 };
			why = &never.at[never.n - 1];
		}
		why->n++;
	}
	free(fits);
	if (waits.n > 0)
		qsort(waits.at, waits.n, sizeof *waits.at, cmp_i64);
	ca_ad *x = row(&u, "policy");
	ca_set_int(x, "Start", start);
	ca_set_int(x, "End", r->o.end);
	ca_set_int(x, "Stopped", t);
	ca_set_int(x, "LastBusy", last);
	ca_set_int(x, "Cycles", cycles);
	ca_set_int(x, "Machines", (int64_t)r->machs.n);
	int64_t ncores = 0;
	for (size_t c = 0; c < nc; c++)
		ncores += u.cls_cores[c];
	ca_set_int(x, "Cores", ncores);
	ca_set_int(x, "Jobs", (int64_t)r->jobs.n);
	ca_set_int(x, "Modelled", r->modelled);
	ca_set_int(x, "Started", started);
	ca_set_int(x, "Completed", completed);
	ca_set_int(x, "NeverRun", (int64_t)r->jobs.n - started);
	ca_set_int(x, "WaitMedian", ca_replay_quantile(waits.at, waits.n, 0.5));
	ca_set_int(x, "Wait90", ca_replay_quantile(waits.at, waits.n, 0.9));
	ca_set_real(x, "GoodputHours", hours(good));
	ca_set_real(x, "BadputHours", hours(bad));
	ca_set_int(x, "Preemptions", preempted);
	double busy = 0;
	for (size_t c = 0; c < nc; c++)
		busy += u.cls_busy[c];
	ca_set_real(x, "Utilization", pool > 0 ? frac(busy / pool) : 0);
	ca_vec_free(&waits);
	for (size_t k = 0; k < r->skips.n; k++) {
		ca_ad *s = row(&u, "skipped");
		ca_set_str(s, "Reason", r->skips.at[k].why);
		ca_set_int(s, "Jobs", r->skips.at[k].n);
	}
	for (size_t c = 0; c < nc; c++) {
		ca_ad *s = row(&u, "class");
		double cs = (double)u.cls_cores[c] * (double)span;
		ca_set_str(s, "Name", r->classes.at[c]);
		ca_set_int(s, "Machines", u.cls_machs[c]);
		ca_set_int(s, "Cores", u.cls_cores[c]);
		ca_set_real(s, "Utilization", cs > 0 ? frac(u.cls_busy[c] / cs) : 0);
	}
	for (size_t k = 0; k < u.causes.n; k++) {
		ca_ad *s = row(&u, "cause");
		ca_set_str(s, "Reason", u.causes.at[k].reason);
		ca_set_int(s, "Preemptions", u.causes.at[k].n);
		ca_set_real(s, "BadputHours", hours(u.causes.at[k].bad));
	}
	for (size_t k = 0; k < never.n; k++) {
		ca_ad *s = row(&u, "neverrun");
		ca_set_str(s, "Reason", never.at[k].why);
		ca_set_int(s, "Jobs", never.at[k].n);
	}
	ca_vec_free(&never);
	for (size_t i = 0; i < 2 * nn; i++)
		ag[i].fair = span > 0 ? ag[i].fair_busy / (double)span : 0;
	agg_rows(&u, "user", ag, nn, pool);
	/* the groups: the same table, numbered after the users */
	for (size_t i = 0; i < nn; i++) {
		struct agg tmp = ag[i];
		ag[i] = ag[nn + i];
		ag[nn + i] = tmp;
	}
	agg_rows(&u, "group", ag, nn, pool);
	rc = 0;
out:
	for (size_t i = 0; i < 2 * nn + 1; i++)
		ca_vec_free(&ag[i].waits);
	free(ag);
	for (size_t i = 0; i < fresh.n; i++)
		ca_ad_free(fresh.at[i]);
	ca_vec_free(&fresh);
	ca_vec_free(&active);
	for (size_t k = 0; k < u.causes.n; k++)
		free(u.causes.at[k].reason);
	ca_vec_free(&u.causes);
	free(u.js);
	free(u.cores);
	free(u.cls_busy);
	free(u.cls_cores);
	free(u.cls_machs);
	ca_ctx_free(&u.cx);
	if (rc < 0 && err->file != NULL) {
		/* the file may be one of the pool's configuration, which goes */
		strbuf_reset(&r->tmp);
		strbuf_adds(&r->tmp, err->file);
		err->file = r->tmp.buf;
	}
	ca_pool_free(p);
	if (rc < 0) {
		for (size_t i = 0; i < u.rows.n; i++)
			ca_ad_free(u.rows.at[i]);
		ca_vec_free(&u.rows);
		*rows = NULL;
		*nrows = 0;
		return -1;
	}
	*rows = u.rows.at;
	*nrows = u.rows.n;
	return 0;
}
