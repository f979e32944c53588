/* pool.c - a whole pool in one process: the seven steps of a cycle, with the
 * accountant, the startds, the schedd, cron and the negotiator passing ads. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <unistd.h>

#include "classad.h"
#include "accountant.h"
#include "config.h"
#include "negotiator.h"
#include "pool.h"
#include "pool_int.h"
#include "schedd.h"
#include "startd.h"

ca_pool *
ca_pool_new(void)
{
	ca_pool *p = ca_xcalloc(1, sizeof *p);

	ca_ctx_init(&p->cx);
	ca_acct_init(&p->acct);
	p->n_status = ca_intern("JobStatus", 9);
	p->n_crondue = ca_intern("CronDue", 7);
	p->n_matched = ca_intern("MatchedSlot", 11);
	p->lim = (ca_pool_limits){ 1 << 20, 1000, 20000, 7 * 86400 };
	return p;
}

void
ca_pool_free(ca_pool *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->classes.n; i++) {
		struct pclass *c = &p->classes.at[i];
		for (size_t k = 0; k < c->machines.n; k++)
			ca_smachine_free(c->machines.at[k]);
		ca_vec_free(&c->machines);
		ca_startd_free(c->sd);
		ca_config_free(c->cfg);
		free(c->name);
	}
	ca_vec_free(&p->classes);
	for (size_t i = 0; i < p->jobs.n; i++)
		ca_ad_free(p->jobs.at[i]);
	ca_vec_free(&p->jobs);
	ca_vec_free(&p->memo);
	ca_vec_free(&p->live);
	free(p->slot_memo);
	ca_vec_free(&p->hosts);
	ca_dict_free(&p->hostidx);
	ca_config_free(p->cfg);
	ca_config_free(p->scfg);
	ca_pool_intake_free(p);
	ca_acct_free(&p->acct);
	ca_arena_free(&p->text);
	strbuf_release(&p->tmp);
	strbuf_release(&p->warnings);
	ca_ctx_free(&p->cx);
	free(p);
}

void
ca_pool_set_warn(ca_pool *p, ca_pool_warn_fn fn, void *arg)
{
	p->warn = fn;
	p->warn_arg = arg;
}

void
ca_pool_set_tap(ca_pool *p, ca_pool_tap_fn fn, void *arg)
{
	p->tap = fn;
	p->tap_arg = arg;
}

void
ca_pool_warn(ca_pool *p, const char *file, const char *fmt, ...)
{
	ca_diag d;
	va_list ap;

	va_start(ap, fmt);
	ca_diag_vset(&d, CA_EX_INPUT, file, 0, 0, fmt, ap);
	va_end(ap);
	if (p->warn != NULL)
		p->warn(p->warn_arg, &d);
}

/* ---- the configuration ---- */

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The slot transitions, to the cycle's startd log. */
static void
slog(void *arg, const ca_slog *rec)
{
	ca_pool *p = arg;

	if (p->out == NULL || p->out->startd_log == NULL)
		return;
	strbuf_reset(&p->tmp);
	ca_slog_format(rec, &p->tmp);
	if (fwrite(p->tmp.buf, 1, p->tmp.len, p->out->startd_log) != p->tmp.len)
		p->out_failed = true;
}

static void
sdiag(void *arg, const ca_diag *err)
{
	ca_pool *p = arg;

	if (p->warn != NULL)
		p->warn(p->warn_arg, err);
}

/* Class name: the file name before ".config"; one that names a path or
 * holds bytes a log line cannot carry is refused. */
static bool
class_name_ok(const char *s, size_t n)
{
	if (n == 0 || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == '/' || s[i] == 0x7f)
			return false;
	return true;
}

/* Class name with its startd configuration cfg (taken, prepared and loaded). */
int
ca_pool_add_class(ca_pool *p, const char *name, ca_config *cfg, ca_diag *err)
{
	struct pclass c = { 0 };

	if ((c.sd = ca_startd_new(cfg, err)) == NULL) {
		ca_config_free(cfg);
		return -1;
	}
	c.name = ca_xstrndup(name, strlen(name));
	c.cfg = cfg;
	ca_startd_set_log(c.sd, slog, p);
	ca_startd_set_diag(c.sd, sdiag, p);
	ca_startd_set_auto_claim(c.sd, true);
	ca_startd_set_resident(c.sd, true);
	*ca_vec_push(&p->classes) = c;
	return 0;
}

static int
add_class(ca_pool *p, const char *pooldir, const char *name, ca_diag *err)
{
	ca_config *cfg = ca_config_new();

	strbuf_reset(&p->tmp);
	strbuf_addf(&p->tmp, "%s/startd/%s.config", pooldir, name);
	ca_config_set_subsys(cfg, "STARTD");
	ca_startd_config_prepare(cfg);
	if (ca_config_load(cfg, p->tmp.buf, err) < 0) {
		ca_config_free(cfg);
		return -1;
	}
	return ca_pool_add_class(p, name, cfg, err);
}

int
ca_pool_configure_with(ca_pool *p, ca_config *cfg, ca_config *scfg, ca_diag *err)
{
	p->cfg = cfg;
	p->scfg = scfg;
	if (ca_acct_policy_config(&p->acct.pol, p->cfg, &p->acct.arena, err) < 0 ||
	    ca_pool_intake_config(p, err) < 0)
		return -1;
	/* the negotiator's knobs, checked once (and their warnings kept) */
	ca_neg *neg = ca_neg_new(&p->cx, &p->acct);
	if (ca_neg_configure(neg, p->cfg, err) < 0) {
		ca_neg_free(neg);
		return -1;
	}
	strbuf_adds(&p->warnings, ca_neg_warnings(neg));
	ca_neg_free(neg);
	/* and the schedd's: its periodic policies, its defaults */
	if (p->scfg == NULL)
		return 0;
	ca_schedd *q = ca_schedd_new(0);
	int rc = ca_schedd_configure(q, p->scfg, err);
	ca_schedd_free(q);
	return rc;
}

int
ca_pool_configure(ca_pool *p, const char *pooldir, ca_diag *err)
{
	strbuf path = STRBUF_INIT;
	ca_vec(char *) names = CA_VEC_INIT;
	int rc = -1;

	strbuf_addf(&path, "%s/pool.config", pooldir);
	ca_config *cfg = ca_config_new(), *scfg = ca_config_new();
	ca_config_set_subsys(cfg, "NEGOTIATOR");
	ca_config_set_subsys(scfg, "SCHEDD");
	if (ca_config_load(cfg, path.buf, err) < 0 || ca_config_load(scfg, path.buf, err) < 0) {
		ca_config_free(cfg);
		ca_config_free(scfg);
		goto out;
	}
	if (ca_pool_configure_with(p, cfg, scfg, err) < 0)
		goto out;

	strbuf_reset(&path);
	strbuf_addf(&path, "%s/startd", pooldir);
	DIR *d = opendir(path.buf);
	if (d == NULL) {
		ca_diag_errno(err, pooldir, errno, "cannot read its startd/ directory");
		goto out;
	}
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		if (n > 7 && strcmp(de->d_name + n - 7, ".config") == 0 &&
		    class_name_ok(de->d_name, n - 7))
			*ca_vec_push(&names) = ca_xstrndup(de->d_name, n - 7);
	}
	closedir(d);
	if (names.n == 0) {
		ca_diag_set(err, CA_EX_SYSTEM, pooldir, 0, 0, "no startd/CLASS.config files");
		goto out;
	}
	qsort(names.at, names.n, sizeof *names.at, by_name);
	for (size_t i = 0; i < names.n; i++)
		if (add_class(p, pooldir, names.at[i], err) < 0)
			goto out;
	rc = 0;
out:
	for (size_t i = 0; i < names.n; i++)
		free(names.at[i]);
	ca_vec_free(&names);
	strbuf_release(&path);
	return rc;
}

ca_config *
ca_pool_config(ca_pool *p)
{
	return p->cfg;
}

size_t
ca_pool_nclasses(const ca_pool *p)
{
	return p->classes.n;
}

const char *
ca_pool_class_name(const ca_pool *p, size_t i)
{
	return p->classes.at[i].name;
}

ca_config *
ca_pool_class_config(ca_pool *p, size_t i)
{
	return p->classes.at[i].cfg;
}

const char *
ca_pool_warnings(ca_pool *p)
{
	return p->warnings.len ? p->warnings.buf : "";
}

const ca_pool_limits *
ca_pool_get_limits(const ca_pool *p)
{
	return &p->lim;
}

/* ---- the machines and their names ---- */

/* The host part of a name: after '@', else the name. */
static const char *
host_of(const char *name)
{
	const char *at = strchr(name, '@');

	return at ? at + 1 : name;
}

static uint64_t
host_hash(const char *s)
{
	uint64_t h = 0;

	for (; *s; s++) {
		char c = *s >= 'A' && *s <= 'Z' ? (char)(*s + ('a' - 'A')) : *s;
		h = ca_hash_bytes(h, &c, 1);
	}
	return h;
}

/* The machine a host name (any case) is, or NULL. */
static struct host *
find_host(ca_pool *p, const char *name)
{
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&p->hostidx, host_hash(name), &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&p->hostidx, &it))
		if (strcasecmp(p->hosts.at[i].name, name) == 0)
			return &p->hosts.at[i];
	return NULL;
}

static void
add_host(ca_pool *p, const char *name, uint32_t cls, uint32_t mach)
{
	if (*name == '\0' || find_host(p, name) != NULL)
		return;
	ca_dict_add(&p->hostidx, host_hash(name), (uint32_t)p->hosts.n);
	*ca_vec_push(&p->hosts) = (struct host){
		ca_arena_strndup(&p->text, name, strlen(name)), cls, mach };
}

/* Index the names machine m of class cls answers to. */
static void
index_machine(ca_pool *p, uint32_t cls, uint32_t mach)
{
	ca_smachine *m = p->classes.at[cls].machines.at[mach];

	for (size_t i = 0; i < ca_smachine_count(m); i++) {
		const ca_ad *s = ca_smachine_slot(m, i);
		const char *name = NULL;
		if (s == NULL)
			continue;
		add_host(p, ca_startd_machine_key(s), cls, mach);
		if (ca_get_str(&p->cx, s, "Name", &name, NULL) == 1)
			add_host(p, host_of(name), cls, mach);
	}
	ca_arena_reset(&p->cx.scratch);
}

int
ca_pool_add_machines(ca_pool *p, size_t cls, ca_ad **ads, size_t n, int64_t now,
    ca_diag *err)
{
	struct pclass *c = &p->classes.at[cls];

	p->live_ok = false;
	for (size_t i = 0; i < n; i++) {
		ca_smachine *m = ca_smachine_new(c->sd);
		if (ca_smachine_create(m, ads[i], now, err) < 0) {
			ca_smachine_free(m);
			for (; i < n; i++)
				ca_ad_free(ads[i]);
			return -1;
		}
		ca_ad_free(ads[i]);
		*ca_vec_push(&c->machines) = m;
		index_machine(p, (uint32_t)cls, (uint32_t)(c->machines.n - 1));
	}
	return 0;
}

void
ca_pool_add_slot(ca_pool *p, size_t cls, ca_ad *ad, int64_t now, ca_diag *err)
{
	struct pclass *c = &p->classes.at[cls];
	const char *k = ca_startd_machine_key(ad);
	ca_smachine *m = c->machines.n ? c->machines.at[c->machines.n - 1] : NULL;

	p->live_ok = false;
	/* adjacent slots of one machine are one machine, as startd-step reads them */
	if (m == NULL || c->lastkey == NULL || strcasecmp(k, c->lastkey) != 0) {
		m = ca_smachine_new(c->sd);
		*ca_vec_push(&c->machines) = m;
		c->lastkey = ca_arena_strndup(&p->text, k, strlen(k));
	}
	err->msg[0] = '\0';
	if (ca_smachine_add(m, ad, now, err) < 0 && p->warn != NULL)
		p->warn(p->warn_arg, err);
}

/* After the slots are read: the names of every machine. */
void
ca_pool_index(ca_pool *p)
{
	ca_vec_free(&p->hosts);
	ca_dict_free(&p->hostidx);
	for (size_t c = 0; c < p->classes.n; c++)
		for (size_t m = 0; m < p->classes.at[c].machines.n; m++)
			index_machine(p, (uint32_t)c, (uint32_t)m);
}

void
ca_pool_add_job(ca_pool *p, ca_ad *job)
{
	*ca_vec_push(&p->jobs) = job;
}

int
ca_pool_add_acct(ca_pool *p, ca_ad *rec, ca_diag *err)
{
	return ca_acct_add_ad(&p->acct, rec, &p->cx, p->clock, err);
}

void
ca_pool_set_clock(ca_pool *p, int64_t clock, int64_t cluster)
{
	p->clock = clock;
	p->cluster = cluster;
}

int64_t
ca_pool_clock(const ca_pool *p)
{
	return p->clock;
}

int64_t
ca_pool_cluster(const ca_pool *p)
{
	return p->cluster;
}

size_t
ca_pool_nslots(const ca_pool *p, size_t cls)
{
	const struct pclass *c = &p->classes.at[cls];
	size_t n = 0;

	for (size_t m = 0; m < c->machines.n; m++)
		n += ca_smachine_count(c->machines.at[m]);
	return n;
}

const ca_ad *
ca_pool_slot(const ca_pool *p, size_t cls, size_t i)
{
	const struct pclass *c = &p->classes.at[cls];

	for (size_t m = 0; m < c->machines.n; m++) {
		size_t n = ca_smachine_count(c->machines.at[m]);
		if (i < n)
			return ca_smachine_slot(c->machines.at[m], i);
		i -= n;
	}
	return NULL;
}

size_t
ca_pool_njobs(const ca_pool *p)
{
	return p->jobs.n;
}

const ca_ad *
ca_pool_job(const ca_pool *p, size_t i)
{
	return p->jobs.at[i];
}

ca_acct *
ca_pool_acct(ca_pool *p)
{
	return &p->acct;
}

ca_ctx *
ca_pool_ctx(ca_pool *p)
{
	return &p->cx;
}

/* The list of the live slots, made again when they changed. A cycle walks
 * them six times; each walk through the machines' own records would fetch
 * each slot's record before its ad. */
static void
relist(ca_pool *p)
{
	if (p->live_ok)
		return;
	p->live.n = 0;
	for (size_t c = 0; c < p->classes.n; c++)
		for (size_t k = 0; k < p->classes.at[c].machines.n; k++) {
			ca_smachine *m = p->classes.at[c].machines.at[k];
			for (size_t i = 0, n = ca_smachine_count(m); i < n; i++) {
				const ca_ad *ad = ca_smachine_slot(m, i);
				if (ad != NULL)
					*ca_vec_push(&p->live) = (struct live){ ad, c };
			}
		}
	p->live_ok = true;
}

/* How many slots ahead a walk fetches the ad it will read. */
#define LIVE_AHEAD 4

/* The cycle's passes walk the slots with it too. */
void
ca_pool_slots(ca_pool *p, void (*fn)(void *arg, size_t cls, const ca_ad *slot), void *arg)
{
	relist(p);
	for (size_t i = 0; i < p->live.n; i++) {
		if (i + LIVE_AHEAD < p->live.n)
			__builtin_prefetch(p->live.at[i + LIVE_AHEAD].ad);
		fn(arg, p->live.at[i].cls, p->live.at[i].ad);
	}
}

/* ---- the cycle's records ---- */

static void
put_ad(ca_pool *p, ca_writer *w, const ca_ad *ad)
{
	if (w == NULL || ca_writer_put(w, ad) == 0)
		return;
	if (errno == EILSEQ) {
		char id[CA_JOBID_LEN];
		ca_pool_warn(p, NULL, "%s: left out of a log (%s)",
		    ca_jobid(&p->cx, ad, id, sizeof id) ? id : "an ad", ca_writer_refusal(w));
	} else
		p->out_failed = true;
}

static ca_writer *
writer_on(FILE *fp)
{
	return fp == NULL ? NULL : ca_writer_open(fp, CA_FMT_LONG, false);
}

static void
writer_close(ca_pool *p, ca_writer **w)
{
	if (*w != NULL && ca_writer_close(*w) < 0)
		p->out_failed = true;
	*w = NULL;
}

static void
jlog(void *arg, const ca_ad *ev)
{
	ca_pool *p = arg;

	put_ad(p, p->w_jobs, ev);
	if (p->tap != NULL)
		p->tap(p->tap_arg, ev, false);
}

/* A problem the schedd found with a job of the queue or a submission. */
static void
qdiag(void *arg, const ca_diag *err)
{
	ca_pool *p = arg;

	if (p->sub != NULL && p->sub->state != CA_PF_REJECTED) {
		p->sub->why = *err;
		p->sub->why.file = NULL;
		p->sub_failed = true;
	} else if (p->warn != NULL)
		p->warn(p->warn_arg, err);
}

/* ---- the steps ---- */

typedef ca_vec(ca_ad *) advec;

struct exits {
	ca_pool *p;
	ca_schedd *q;
	advec evs;
	bool bad;
	ca_diag err;
};

/* The memo of slot: made anew when it was another slot's. */
static struct slot_memo *
slot_memo(ca_pool *p, const ca_ad *slot)
{
	uint64_t h = (uint64_t)(uintptr_t)slot * UINT64_C(0x9e3779b97f4a7c15);
	struct slot_memo *e = &p->slot_memo[(h >> 32) & (p->slot_memo_cap - 1)];

	if (e->slot != slot)
		*e = (struct slot_memo){ .slot = slot };
	return e;
}

/* A slot as the last cycle left it: charged to its user, and checked for
 * a job that finished or was vacated (one walk, while its ad is at hand;
 * neither changes the slot). */
static void
charge_and_exit(void *arg, size_t cls, const ca_ad *slot)
{
	struct exits *x = arg;
	ca_pool *p = x->p;
	ca_ad *ev;
	ca_diag err;
	struct slot_memo *e = slot_memo(p, slot);

	(void)cls;
	ca_acct_charge_slot(&p->acct, &p->cx, slot, p->cx.now);
	int rc = ca_schedd_slot_exit_memo(x->q, slot, &ev, &err, &e->m);

	if (rc > 0)
		*ca_vec_push(&x->evs) = ev;
	else if (rc < 0 && !x->bad) {
		x->bad = true;
		x->err = err;
	}
}

/* Whether event ev (checked) names a slot or the machine h. */
static bool
names_slot(ca_pool *p, const struct host *h, const char *name)
{
	ca_smachine *m = p->classes.at[h->cls].machines.at[h->mach];

	if (strchr(name, '@') == NULL)
		return true;	/* the machine itself */
	for (size_t i = 0; i < ca_smachine_count(m); i++) {
		const ca_ad *s = ca_smachine_slot(m, i);
		const char *sn = NULL;
		if (s != NULL && ca_get_str(&p->cx, s, "Name", &sn, NULL) == 1 &&
		    strcasecmp(sn, name) == 0)
			return true;
	}
	return false;
}

/* Check the events of file f for the startds at now: it waits when one is
 * after now, is refused when one is for no machine or slot of the pool. */
static void
check_events(ca_pool *p, ca_pool_file *f, int64_t now)
{
	for (size_t i = 0; i < f->n; i++) {
		ca_sevent ev;
		ca_diag err;
		if (ca_sevent_init(&ev, f->ads[i], now, &err) < 0) {
			ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "event %zu: %s", i + 1, err.msg);
			f->state = CA_PF_REJECTED;
			return;
		}
		if (ev.time > now) {
			f->state = CA_PF_WAIT;
			return;
		}
	}
	for (size_t i = 0; i < f->n; i++) {
		ca_sevent ev;
		ca_diag err;
		(void)ca_sevent_init(&ev, f->ads[i], now, &err);
		const struct host *h = find_host(p, host_of(ev.name));
		if (h == NULL) {
			ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "an event for %s, which is "
			    "not in the pool", host_of(ev.name));
			f->state = CA_PF_REJECTED;
			return;
		}
		if (!names_slot(p, h, ev.name)) {
			ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "no slot named %s (event %s)",
			    ev.name, ca_sevent_name[ev.kind]);
			f->state = CA_PF_REJECTED;
			return;
		}
	}
	f->state = CA_PF_TAKEN;
}

/* Advance every machine that has events in q (every machine when all) to
 * now. */
static void
advance(ca_pool *p, ca_sevents *q, int64_t now, bool all)
{
	p->live_ok = false;	/* slots come and go */
	for (size_t c = 0; c < p->classes.n; c++) {
		struct pclass *pc = &p->classes.at[c];
		for (size_t k = 0; k < pc->machines.n; k++) {
			size_t n, next = 0;
			ca_smachine *m = pc->machines.at[k];
			ca_sevent **v = ca_sevents_take(q, m, &n);
			if (n > 0 || all)
				ca_startd_advance(pc->sd, m, v, n, &next, now);
			free(v);
			ca_smachine_compact(m);
		}
	}
}

struct lend {
	ca_pool *p;
	ca_schedd *q;
};

/* Lend a slot to a step, with the memo of the job ids it names. */
static void
lend_slot(void *arg, size_t cls, const ca_ad *slot)
{
	const struct lend *l = arg;

	(void)cls;
	ca_schedd_lend_slot(l->q, slot, &slot_memo(l->p, slot)->ids);
}

/* Step every job of q: each goes back to the queue or to the history. A
 * job of the queue whose memo shows its step would change nothing is not
 * stepped again (ca_schedd_step_memo); the memos follow the queue. */
static void
step_jobs(ca_pool *p, ca_schedd *q)
{
	size_t queued = p->jobs.n, n = ca_schedd_count(q);

	if (p->memo.n < queued)
		queued = p->memo.n;	/* memos of the jobs added since: none */
	ca_vec_reserve(&p->memo, n);
	p->jobs.n = 0;
	p->memo.n = 0;
	for (size_t i = 0; i < n; i++) {
		ca_job_memo m = i < queued ? p->memo.at[i] : (ca_job_memo){ 0 };
		bool leaves = ca_schedd_step_memo(q, i, &m);
		ca_ad *job = ca_schedd_take(q, i);
		if (job == NULL)
			continue;
		if (leaves) {
			put_ad(p, p->w_hist, job);
			if (p->tap != NULL)
				p->tap(p->tap_arg, job, true);
			ca_ad_free(job);
			continue;
		}
		/* at most i kept: the memos not read yet stay where they are */
		ca_ad_reshape(job);
		*ca_vec_push(&p->jobs) = job;
		*ca_vec_push(&p->memo) = m;
	}
}

/* A new schedd step at now holding the queue. */
static ca_schedd *
schedd_with_queue(ca_pool *p, int64_t now)
{
	ca_schedd *q = ca_schedd_new(now);
	ca_diag err;

	if (p->scfg != NULL)
		(void)ca_schedd_configure(q, p->scfg, &err);	/* checked already */
	ca_schedd_set_log(q, jlog, p);
	ca_schedd_set_diag(q, qdiag, p);
	ca_schedd_set_history(q, true);
	for (size_t i = 0; i < p->jobs.n; i++)
		ca_schedd_add_job(q, p->jobs.at[i], "jobs.ads", (int)(i + 1),
		    i < p->memo.n ? &p->memo.at[i] : NULL);
	return q;
}

/* Whether a job is negotiated: idle, a cron job only when due, holding no match. */
static bool
negotiable(ca_pool *p, const ca_ad *job)
{
	int64_t st = 0;
	ca_value v;

	if (ca_get_int_nm(&p->cx, job, p->n_status, &st) != 1 || st != CA_J_IDLE)
		return false;
	v = ca_eval_attr_nm(&p->cx, job, NULL, p->n_crondue);
	if (v.kind == CA_BOOL && !v.u.b)
		return false;
	v = ca_eval_attr_nm(&p->cx, job, NULL, p->n_matched);
	return v.kind == CA_UNDEFINED;
}

/* The negotiator's copy of a slot (it sets attributes of its copies as it
 * matches): a table of its own over the slot's expressions, which stay as
 * they are until the negotiator is freed, before the startds step. */
static void
neg_slot(void *arg, size_t cls, const ca_ad *slot)
{
	(void)cls;
	ca_neg_add_slot(arg, ca_ad_pack_borrowed(slot));
}

/* Step 5: the matches (new ads) of the idle jobs on the slots as they are. */
static int
negotiate(ca_pool *p, int64_t now, advec *matches, ca_diag *err)
{
	size_t idle = 0;
	bool *offer = ca_xcalloc(p->jobs.n + 1, sizeof *offer);

	for (size_t i = 0; i < p->jobs.n; i++) {
		offer[i] = negotiable(p, p->jobs.at[i]);
		idle += offer[i];
		ca_arena_reset(&p->cx.scratch);
	}
	if (idle == 0) {
		free(offer);
		return 0;
	}
	ca_neg *neg = ca_neg_new(&p->cx, &p->acct);
	if (ca_neg_configure(neg, p->cfg, err) < 0) {
		ca_neg_free(neg);
		free(offer);
		return -1;
	}
	ca_pool_slots(p, neg_slot, neg);
	for (size_t i = 0; i < p->jobs.n; i++)
		if (offer[i])
			ca_neg_offer_job(neg, p->jobs.at[i]);
	free(offer);
	ca_neg_run(neg);
	if (p->out != NULL && p->out->negotiator != NULL) {
		strbuf sb = STRBUF_INIT;
		ca_neg_summary(neg, &sb);
		if (fwrite(sb.buf, 1, sb.len, p->out->negotiator) != sb.len)
			p->out_failed = true;
		strbuf_release(&sb);
	}
	for (size_t i = 0; i < ca_neg_nmatches(neg); i++) {
		ca_ad *m = ca_neg_match_ad(neg, i);
		put_ad(p, p->w_match, m);
		*ca_vec_push(matches) = m;
	}
	ca_neg_free(neg);
	return 0;
}

/* Step 7's check of a submission file against the queue q: what the schedd
 * would refuse, found before any of its jobs goes in (a file goes in whole
 * or not at all). */
static bool
check_submission(ca_pool *p, ca_schedd *q, ca_pool_file *f, int64_t *next_cluster)
{
	ca_vec(int64_t) ids = CA_VEC_INIT;	/* cluster << 32 | proc, of this file */
	bool ok = true;

	for (size_t i = 0; i < f->n && ok; i++) {
		const ca_ad *ad = f->ads[i];
		int64_t n = 1, c = -1, pr = -1;
		if (ca_has(ad, "Queue") && (ca_get_int(&p->cx, ad, "Queue", &n) != 1 || n < 1 ||
		    n > p->lim.max_jobs)) {
			ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "ad %zu: Queue must be an "
			    "integer from 1 to %lld (MAX_JOBS_PER_SUBMISSION)", i + 1,
			    (long long)p->lim.max_jobs);
			ok = false;
			break;
		}
		bool hasc = ca_has(ad, "ClusterId"), hasp = ca_has(ad, "ProcId");
		if ((hasc && (ca_get_int(&p->cx, ad, "ClusterId", &c) != 1 || c < 1 ||
		    c >= INT32_MAX)) || (hasp && (ca_get_int(&p->cx, ad, "ProcId", &pr) != 1 ||
		    pr < 0 || pr >= INT32_MAX))) {
			ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "ad %zu: ClusterId and ProcId "
			    "must be integers from 1 and 0 to %d", i + 1, INT32_MAX - 1);
			ok = false;
			break;
		}
		if (hasp && n > 1) {
			ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "ad %zu: an ad with ProcId is "
			    "one job: Queue must be 1", i + 1);
			ok = false;
			break;
		}
		if (!hasc) {
			if (*next_cluster >= INT32_MAX) {
				ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "the pool has given "
				    "every cluster number up to %d", INT32_MAX - 1);
				ok = false;
			}
			(*next_cluster)++;
			continue;
		}
		if (c >= *next_cluster)
			*next_cluster = c + 1;
		for (int64_t k = 0; k < n && ok; k++) {
			int64_t proc = hasp ? pr : k, id = c << 32 | proc;
			bool dup = ca_schedd_has_job(q, c, proc);
			for (size_t j = 0; j < ids.n && !dup; j++)
				dup = ids.at[j] == id;
			if (dup) {
				char jid[CA_JOBID_LEN];
				ca_jobid_format(jid, sizeof jid, c, proc);
				ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "ad %zu: job %s is "
				    "already in the queue", i + 1, jid);
				ok = false;
			}
			*ca_vec_push(&ids) = id;
		}
	}
	ca_arena_reset(&p->cx.scratch);
	ca_vec_free(&ids);
	return ok;
}

/* A submission's attribute that is not simulated, told once a run. */
static void
job_unsim(void *arg, const ca_ad *job, const ca_job_unsim *u)
{
	ca_pool *p = arg;

	(void)job;
	ca_pool_warn(p, p->sub != NULL ? p->sub->name : NULL, "%s is not simulated (%s); "
	    "later jobs with it are not reported", u->name, u->why);
}

int
ca_pool_cycle(ca_pool *p, int64_t now, ca_pool_file *events, size_t nev,
    ca_pool_file *subs, size_t nsub, const ca_pool_sinks *out, ca_pool_stats *st,
    ca_diag *err)
{
	int64_t prev = p->clock;
	struct exits x = { 0 };
	advec matches = CA_VEC_INIT;
	ca_sevents *sev = NULL, *mev = NULL;
	ca_schedd *q = NULL;
	int rc = -1;

	*st = (ca_pool_stats){ 0 };
	p->out = out;
	p->out_failed = false;
	p->w_jobs = writer_on(out ? out->jobs_log : NULL);
	p->w_hist = writer_on(out ? out->history : NULL);
	p->w_match = writer_on(out ? out->matches : NULL);
	p->w_exit = writer_on(out ? out->exits : NULL);
	p->cx.now = now;
	ca_heap_huge();	/* what the last cycle grew */

	/* 1. the accountant, charging the slots as the last cycle left them;
	 * 2. the jobs that finish or are vacated leave their slots (a slot
	 * whose check would find nothing, as its memo shows, is not read) */
	relist(p);
	if (p->slot_memo_cap < 4 * p->live.n || p->slot_memo_cap == 0) {
		size_t cap = 1024;
		while (cap < 4 * p->live.n)
			cap *= 2;
		free(p->slot_memo);
		p->slot_memo = ca_xcalloc(cap, sizeof *p->slot_memo);
		p->slot_memo_cap = cap;
	}
	x.p = p;
	x.q = ca_schedd_new(now);
	ca_pool_slots(p, charge_and_exit, &x);
	ca_schedd_free(x.q);
	ca_arena_reset(&p->cx.scratch);
	if (ca_acct_update(&p->acct, now, err) < 0) {
		err->file = "acct.ads";
		err->status = CA_EX_SYSTEM;
		goto out;
	}
	if (x.bad) {
		*err = x.err;
		err->status = CA_EX_SYSTEM;
		goto out;
	}
	st->exits = 0;
	for (size_t i = 0; i < x.evs.n; i++) {
		put_ad(p, p->w_exit, x.evs.at[i]);
		const char *kind = NULL;
		st->exits += ca_get_str(&p->cx, x.evs.at[i], "Event", &kind, NULL) == 1 &&
		    strcmp(kind, "JobExit") == 0;
	}

	/* 3. the startds: the exits, then the events of the files in order */
	sev = ca_sevents_new();
	for (size_t i = 0; i < x.evs.n; i++)
		if (ca_sevents_add(sev, x.evs.at[i], now, "exits", (int)(i + 1), err) < 0) {
			err->status = CA_EX_SYSTEM;
			goto out;
		}
	for (size_t f = 0; f < nev; f++) {
		ca_pool_file *ef = &events[f];
		if (ef->state == CA_PF_REJECTED)
			continue;
		check_events(p, ef, now);
		if (ef->state != CA_PF_TAKEN)
			continue;
		for (size_t i = 0; i < ef->n; i++) {
			ca_diag e2;
			if (ca_sevents_add(sev, ef->ads[i], now, ef->name, (int)(i + 1), &e2) < 0)
				ca_ad_free(ef->ads[i]);	/* checked already: cannot happen */
		}
		free(ef->ads);
		ef->ads = NULL;
		ef->n = 0;
	}
	advance(p, sev, now, true);
	ca_arena_reset(&p->cx.scratch);

	/* 4. the queue after the exits; the idle cron jobs' next runs */
	q = schedd_with_queue(p, now);
	ca_pool_slots(p, lend_slot, &(struct lend){ p, q });
	for (size_t i = 0; i < x.evs.n; i++)
		ca_schedd_lend(q, CA_Q_EXIT, x.evs.at[i]);
	step_jobs(p, q);
	ca_schedd_free_lent(q);
	q = NULL;
	for (size_t i = 0; i < p->jobs.n; i++) {
		ca_diag held;
		if (ca_schedd_cron_job(&p->cx, p->jobs.at[i], now, now - prev, true, &held) > 0)
			ca_pool_warn(p, NULL, "%s", held.msg);
		ca_arena_reset(&p->cx.scratch);
	}

	/* 5. negotiation */
	if (negotiate(p, now, &matches, err) < 0)
		goto out;
	st->matches = matches.n;

	/* 6. the matches claimed and started, on the machines they are for */
	mev = ca_sevents_new();
	for (size_t i = 0; i < matches.n; i++) {
		const char *name = NULL;
		ca_diag e2;
		if (ca_get_str(&p->cx, matches.at[i], "Name", &name, NULL) != 1 ||
		    find_host(p, host_of(name)) == NULL) {
			ca_diag_set(err, CA_EX_SYSTEM, NULL, 0, 0, "match %zu is for no machine "
			    "of the pool", i + 1);
			goto out;
		}
		if (ca_sevents_add(mev, matches.at[i], now, "matches", (int)(i + 1), &e2) < 0) {
			*err = e2;
			err->status = CA_EX_SYSTEM;
			for (; i < matches.n; i++)
				ca_ad_free(matches.at[i]);
			goto out;
		}
	}
	advance(p, mev, now, false);
	ca_arena_reset(&p->cx.scratch);

	/* 7. the queue after the matches, and the submissions (numbered as the
	 * schedd numbers them: after the highest cluster of the queue, and
	 * after every cluster number given before) */
	q = schedd_with_queue(p, now);
	ca_schedd_set_first_cluster(q, p->cluster + 1);
	int64_t next = ca_schedd_max_cluster(q) + 1;
	if (next <= p->cluster)
		next = p->cluster + 1;
	ca_pool_slots(p, lend_slot, &(struct lend){ p, q });
	for (size_t i = 0; i < matches.n; i++)
		ca_schedd_lend(q, CA_Q_MATCH, matches.at[i]);
	for (size_t f = 0; f < nsub; f++) {
		ca_pool_file *sf = &subs[f];
		if (sf->state == CA_PF_REJECTED)
			continue;
		if (!check_submission(p, q, sf, &next)) {
			sf->state = CA_PF_REJECTED;
			st->rejected++;
			continue;
		}
		sf->state = CA_PF_TAKEN;
		p->sub = sf;
		p->sub_failed = false;
		for (size_t i = 0; i < sf->n; i++) {
			ca_job_unsimulated(sf->ads[i], &p->unsim_seen, job_unsim, p);
			ca_schedd_add(q, CA_Q_SUBMIT, sf->ads[i], sf->name, (int)(i + 1));
		}
		p->sub = NULL;
		if (p->sub_failed)
			ca_pool_warn(p, sf->name, "partly queued: %s", sf->why.msg);
		free(sf->ads);
		sf->ads = NULL;
		sf->n = 0;
		st->submitted++;
	}
	step_jobs(p, q);
	/* a cluster the step numbered counts as given, even when all its jobs
	 * have left the queue already */
	if (st->submitted > 0 && ca_schedd_max_cluster(q) > p->cluster)
		p->cluster = ca_schedd_max_cluster(q);
	ca_schedd_free_lent(q);
	q = NULL;
	p->clock = now;
	rc = 0;
out:
	ca_schedd_free_lent(q);
	ca_sevents_free(mev);	/* the matches with it */
	ca_vec_free(&matches);
	if (sev != NULL)
		ca_sevents_free(sev);	/* the exits and the events with it */
	else
		for (size_t i = 0; i < x.evs.n; i++)
			ca_ad_free(x.evs.at[i]);
	ca_vec_free(&x.evs);
	writer_close(p, &p->w_jobs);
	writer_close(p, &p->w_hist);
	writer_close(p, &p->w_match);
	writer_close(p, &p->w_exit);
	p->out = NULL;
	if (rc == 0 && p->out_failed) {
		ca_diag_errno(err, NULL, errno ? errno : EIO, "writing the cycle's records");
		rc = -1;
	}
	return rc;
}
