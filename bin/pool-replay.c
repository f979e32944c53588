/* pool-replay - a real pool's week (condor_history, condor_q -long,
 * condor_status -long, condor_userprio -long) replayed under policies, side by side.
 *
 * Each policy is the pool's configuration (-c before any --policy) plus its
 * own files and knobs; each is simulated in a fresh pool (lib/condor/replay.h),
 * one process per policy up to -j at a time, and the rows of the runs make
 * the report: text, JSON (which --merge reads back), or a picture. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "condor.h"
#include "classad.h"
#include "plot.h"

enum {
	OPT_POLICY = CLI_LONG, OPT_SET, OPT_HISTORY, OPT_QUEUE, OPT_STATUS, OPT_USERPRIO,
	OPT_OWNERS, OPT_DESKTOPS, OPT_CLASSBY, OPT_SEED, OPT_EVERY, OPT_START, OPT_END,
	OPT_UNTIL, OPT_DEFRUN, OPT_KEEP, OPT_ONLY, OPT_JSON, OPT_SVG, OPT_MERGE
};

static const cli_opt options[] = {
	CLI_HEADING("The pool's week:"),
	{ OPT_HISTORY, 0, "history", CLI_ARG, "FILE", "condor_history output (repeatable)" },
	{ OPT_QUEUE, 0, "queue", CLI_ARG, "FILE",
	    "condor_q -long output: jobs still queued (repeatable)" },
	{ OPT_STATUS, 0, "status", CLI_ARG, "FILE", "condor_status -long output (repeatable)" },
	{ OPT_USERPRIO, 0, "userprio", CLI_ARG, "FILE", "condor_userprio -long output" },
	{ OPT_OWNERS, 0, "owners", CLI_ARG, "FILE",
	    "owners at their keyboards: ads of Machine, From, To" },
	{ OPT_DESKTOPS, 0, "desktops", CLI_ARG, "EXPR",
	    "machines whose owners the seeded model simulates" },
	{ OPT_CLASSBY, 0, "class-by", CLI_ARG, "EXPR",
	    "a machine's class, from its slot ad (default \"all\")" },
	{ OPT_KEEP, 0, "keep", CLI_ARG, "ATTR", "replay this job attribute too (repeatable)" },
	{ OPT_START, 0, "start", CLI_ARG, "EPOCH", "the window's start (the first QDate)" },
	{ OPT_END, 0, "end", CLI_ARG, "EPOCH", "the window's end (the last QDate)" },
	{ OPT_UNTIL, 0, "until", CLI_ARG, "EPOCH",
	    "stop a run at the latest then (end + 7 days)" },
	{ OPT_EVERY, 0, "every", CLI_ARG, "SECONDS", "simulated time between cycles (300)" },
	{ OPT_DEFRUN, 0, "default-runtime", CLI_ARG, "SECONDS",
	    "a job of no known run time and no owner's (3600)" },
	{ OPT_SEED, 0, "seed", CLI_ARG, "N", "the owner model's and $RANDOM's seed (1)" },
	CLI_HEADING("Policies (-c and --set before any --policy are every policy's):"),
	CLI_OPT_CONFIG,
	{ OPT_SET, 0, "set", CLI_ARG, "KNOB=VALUE", "a knob of the policy (repeatable)" },
	{ OPT_POLICY, 0, "policy", CLI_ARG, "NAME", "start a policy: the -c and --set after it" },
	{ OPT_ONLY, 0, "only", CLI_ARG, "NAME", "run only this policy (one of a batch's jobs)" },
	{ 'j', 0, "jobs", CLI_ARG, "N", "simulate N policies at a time (1)" },
	CLI_HEADING("The report:"),
	{ OPT_JSON, 0, "json", CLI_NOARG, NULL, "the rows as JSON (what --merge reads)" },
	{ OPT_SVG, 0, "svg", CLI_ARG, "FILE", "the runs' pictures, overlaid" },
	{ OPT_MERGE, 0, "merge", CLI_NOARG, NULL, "report from JSON results given as arguments" },
	CLI_OPT_IN('i'),
	CLI_OPT_QUIET,
	CLI_OPT_HELP,
	CLI_END
};

static const cli_spec spec = {
	"usage: pool-replay --history FILE... [--queue FILE]... --status FILE... [--userprio FILE]\n"
	"                   [-c FILE]... [--set KNOB=VALUE]... [--policy NAME [-c FILE]...\n"
	"                   [--set KNOB=VALUE]...]... [-j N] [--only NAME] [--json] [--svg FILE]\n"
	"       pool-replay --merge [--json] [--svg FILE] RESULT...\n",
	"Replay a pool's jobs on its machines under one or more policies and compare\n"
	"them side by side.\n",
	options,
	"Exit status: 0 done, 2 usage, 3 bad input, 4 system error.\n",
	false
};

typedef ca_vec(const char *) strs;

struct policy {
	const char *name;
	strs files, sets;
};

static struct {
	strs history, queue, status, keep;
	const char *userprio, *owners, *desktops, *class_by, *only, *svg;
	int64_t start, end, until, every, defrun, jobs;
	uint64_t seed;
	bool json, merge;
	struct policy base;
	ca_vec(struct policy) pol;
} opt = { .every = 300, .defrun = 3600, .jobs = 1, .seed = 1, .base = { "base" } };

static void
option(void *arg, int key, char *val)
{
	struct policy *cur = opt.pol.n ? &opt.pol.at[opt.pol.n - 1] : &opt.base;

	switch (key) {
	case OPT_HISTORY: *ca_vec_push(&opt.history) = val; break;
	case OPT_QUEUE: *ca_vec_push(&opt.queue) = val; break;
	case OPT_STATUS: *ca_vec_push(&opt.status) = val; break;
	case OPT_KEEP: *ca_vec_push(&opt.keep) = val; break;
	case OPT_USERPRIO: opt.userprio = val; break;
	case OPT_OWNERS: opt.owners = val; break;
	case OPT_DESKTOPS: opt.desktops = val; break;
	case OPT_CLASSBY: opt.class_by = val; break;
	case OPT_ONLY: opt.only = val; break;
	case OPT_SVG: opt.svg = val; break;
	case OPT_JSON: opt.json = true; break;
	case OPT_MERGE: opt.merge = true; break;
	case OPT_START: opt.start = cli_int("--start", val, 1, (int64_t)1 << 40); break;
	case OPT_END: opt.end = cli_int("--end", val, 1, (int64_t)1 << 40); break;
	case OPT_UNTIL: opt.until = cli_int("--until", val, 1, (int64_t)1 << 40); break;
	case OPT_EVERY: opt.every = cli_int("--every", val, 1, 86400); break;
	case OPT_DEFRUN: opt.defrun = cli_int("--default-runtime", val, 1, 365 * 86400); break;
	case OPT_SEED: opt.seed = (uint64_t)cli_int("--seed", val, 0, INT64_MAX); break;
	case 'j': opt.jobs = cli_int("-j", val, 1, 1024); break;
	case CLI_K_CONFIG: *ca_vec_push(&cur->files) = val; break;
	case OPT_SET:
		if (strchr(val, '=') == NULL || val[0] == '=')
			cli_usage_error("--set %s: give KNOB=VALUE", val);
		*ca_vec_push(&cur->sets) = val;
		break;
	case OPT_POLICY:
		for (size_t i = 0; i < opt.pol.n; i++)
			if (strcmp(opt.pol.at[i].name, val) == 0)
				cli_usage_error("--policy %s: given twice", val);
		if (*val == '\0' || strpbrk(val, " \t\n\"\\") != NULL)
			cli_usage_error("--policy '%s': a name without blanks or quotes", val);
		*ca_vec_push(&opt.pol) = (struct policy){ val, CA_VEC_INIT, CA_VEC_INIT };
		break;
	default: break;
	}
}

static void
warn(void *arg, const ca_diag *d)
{
	cli_note(d);
}

/* A refusal of the replay's: about a file, or about the whole. */
static void
say(const ca_diag *d)
{
	if (d->file != NULL)
		cli_diag(d);
	else {
		cli_err("%s", d->msg);
		cli_raise(d->status ? d->status : EX_INPUT);
	}
}

/* ---- the inputs ---- */

static void
read_all(const char *path, void (*fn)(ca_replay *, const char *, ca_ad *), ca_replay *r)
{
	ca_reader *rd = cli_open(path, cli_common.in);
	ca_ad *ad;

	if (rd == NULL)
		return;
	while (cli_next_ad(rd, &ad, NULL) == 1) {
		fn(r, path, ad);
		ca_ad_free(ad);
	}
	ca_reader_close(rd);
}

static bool queued;	/* the files being read are condor_q's, not the history */

static void
job_ad(ca_replay *r, const char *path, ca_ad *ad)
{
	const char *why;
	ca_diag err;

	if (ca_replay_add_job(r, ad, queued, &why, &err) < 0) {
		err.file = path;
		cli_note(&err);
	}
}

static void
status_ad(ca_replay *r, const char *path, ca_ad *ad)
{
	ca_diag err;

	if (ca_replay_add_slot(r, ad, &err) < 0) {
		err.file = path;
		cli_diag(&err);
	}
}

static void
userprio_ad(ca_replay *r, const char *path, ca_ad *ad)
{
	ca_replay_add_acct(r, ad);
}

static void
owner_ad(ca_replay *r, const char *path, ca_ad *ad)
{
	ca_ctx cx;
	const char *m = NULL;
	int64_t from = 0, to = 0;
	ca_diag err;

	ca_ctx_init(&cx);
	if ((ca_get_str(&cx, ad, "Machine", &m, NULL) != 1 &&
	    ca_get_str(&cx, ad, "Name", &m, NULL) != 1) ||
	    ca_get_int(&cx, ad, "From", &from) != 1 || ca_get_int(&cx, ad, "To", &to) != 1) {
		ca_diag_set(&err, CA_EX_INPUT, path, 0, 0, "an owner's session needs Machine, "
		    "From and To");
		cli_diag(&err);
	} else if (ca_replay_add_session(r, m, from, to, &err) < 0) {
		err.file = path;
		cli_diag(&err);
	}
	ca_ctx_free(&cx);
}

/* ---- a policy's configuration ---- */

struct pcfg {
	const struct policy *p;
};

static int
load_into(ca_config *cfg, const struct policy *p, ca_diag *err)
{
	for (size_t i = 0; i < p->files.n; i++)
		if (ca_config_load(cfg, p->files.at[i], err) < 0)
			return -1;
	for (size_t i = 0; i < p->sets.n; i++) {
		const char *s = p->sets.at[i], *eq = strchr(s, '=');
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)(eq - s), s);
		for (char *e = name + strlen(name); e > name && (e[-1] == ' ' || e[-1] == '\t');)
			*--e = '\0';
		if (ca_config_set(cfg, name, eq + 1, "--set", err) < 0)
			return -1;
	}
	return 0;
}

static ca_config *
policy_config(void *arg, const char *subsys, const char *cls, ca_diag *err)
{
	const struct policy *p = ((struct pcfg *)arg)->p;
	ca_config *cfg = ca_config_new();

	ca_config_set_subsys(cfg, subsys);
	ca_config_set_seed(cfg, opt.seed);
	if (cls != NULL) {
		ca_config_set_localname(cfg, cls);
		ca_startd_config_prepare(cfg);
	}
	if (load_into(cfg, &opt.base, err) < 0 || load_into(cfg, p, err) < 0) {
		/* the file name in err lives in cfg: said before cfg goes */
		cli_diag(err);
		ca_diag_set(err, err->status, NULL, 0, 0, "policy %s: its configuration does "
		    "not load", p->name);
		ca_config_free(cfg);
		return NULL;
	}
	cli_config_warnings(cfg, cls != NULL ? "STARTD" : subsys);
	return cfg;
}

/* ---- the rows ---- */

typedef ca_vec(ca_ad *) rowvec;

static ca_ctx *cx;

static const char *
sget(const ca_ad *ad, const char *name)
{
	const char *s = NULL;

	return ca_get_str(cx, ad, name, &s, NULL) == 1 ? s : "";
}

static double
nget(const ca_ad *ad, const char *name)
{
	double d = 0;

	(void)ca_get_num(cx, ad, name, &d);
	return d;
}

static bool
is(const ca_ad *ad, const char *kind)
{
	return strcmp(sget(ad, "Kind"), kind) == 0;
}

/* Simulate policy p; its rows into out. Returns 0, or -1 after reporting. */
static int
simulate(ca_replay *r, const struct policy *p, rowvec *out)
{
	struct pcfg pc = { p };
	ca_ad **rows;
	size_t n;
	ca_diag err;

	if (ca_replay_run(r, p->name, policy_config, &pc, warn, NULL, &rows, &n, &err) < 0) {
		say(&err);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		*ca_vec_push(out) = rows[i];
	free(rows);
	return 0;
}

static int
write_rows(FILE *fp, ca_ad *const *rows, size_t n)
{
	ca_writer *w = ca_writer_open(fp, CA_FMT_JSON, false);

	for (size_t i = 0; i < n; i++)
		if (ca_writer_put(w, rows[i]) != 0)
			return -1;
	return ca_writer_close(w);
}

static void
read_rows(const char *path, rowvec *out)
{
	ca_reader *rd = cli_open(path, CA_FMT_AUTO);
	ca_ad *ad;

	if (rd == NULL)
		return;
	while (cli_next_ad(rd, &ad, NULL) == 1)
		*ca_vec_push(out) = ad;
	ca_reader_close(rd);
}

/* A long replay at a terminal says how far it is. */
static void
progress(void *arg, const char *policy, int64_t now, int64_t end, size_t submitted,
    size_t jobs)
{
	char at[32], to[32];
	time_t a = (time_t)now, b = (time_t)end;
	struct tm tm;

	(void)arg;
	if (!cli_progress_due())
		return;
	strftime(at, sizeof at, "%Y-%m-%d %H:%M", gmtime_r(&a, &tm));
	strftime(to, sizeof to, "%Y-%m-%d %H:%M", gmtime_r(&b, &tm));
	cli_progress_line("policy %s: at %s UTC (the window ends %s), %zu of %zu jobs "
	    "submitted", policy, at, to, submitted, jobs);
}

/* Every policy, -j at a time: each in a child writing its rows to a
 * temporary file, read back in the policies' order. One at a time, the
 * replay shows its progress; in parallel, how many policies are done. */
static void
simulate_all(ca_replay *r, const struct policy *const *pols, size_t np, rowvec *out)
{
	if (opt.jobs == 1 || np == 1) {
		ca_replay_on_progress(r, progress, NULL);
		for (size_t i = 0; i < np; i++)
			if (simulate(r, pols[i], out) < 0)
				cli_raise(EX_INPUT);
		cli_progress_end();
		return;
	}
	char (*tmp)[64] = ca_xcalloc(np, sizeof *tmp);
	pid_t *pid = ca_xcalloc(np, sizeof *pid);
	const char *dir = getenv("TMPDIR");
	size_t next = 0, running = 0, done = 0;

	fflush(stdout);
	fflush(stderr);
	while (done < np) {
		while (running < (size_t)opt.jobs && next < np) {
			snprintf(tmp[next], sizeof tmp[next], "%s/pool-replay.XXXXXX",
			    dir != NULL && *dir && strlen(dir) < 40 ? dir : "/tmp");
			int fd = mkstemp(tmp[next]);
			if (fd < 0)
				cli_die(EX_SYSTEM, "cannot make a temporary file: %s", strerror(errno));
			pid[next] = fork();
			if (pid[next] < 0)
				cli_die(EX_SYSTEM, "cannot fork: %s", strerror(errno));
			if (pid[next] == 0) {
				rowvec mine = CA_VEC_INIT;
				FILE *fp = fdopen(fd, "w");
				int rc = simulate(r, pols[next], &mine);
				if (rc == 0 && (fp == NULL || write_rows(fp, mine.at, mine.n) < 0 ||
				    fclose(fp) != 0))
					_exit(EX_SYSTEM);
				fflush(stderr);
				_exit(rc == 0 ? cli_status : EX_INPUT);
			}
			close(fd);
			next++;
			running++;
		}
		int status;
		pid_t w = wait(&status);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			cli_die(EX_SYSTEM, "wait: %s", strerror(errno));
		}
		for (size_t i = 0; i < next; i++)
			if (pid[i] == w) {
				pid[i] = 0;
				if (!WIFEXITED(status))
					cli_raise(EX_SYSTEM);
				else if (WEXITSTATUS(status) != 0)
					cli_raise(WEXITSTATUS(status));
			}
		running--;
		done++;
		if (done < np && cli_progress_due())
			cli_progress_line("%zu of %zu policies simulated", done, np);
	}
	cli_progress_end();
	for (size_t i = 0; i < np; i++) {
		read_rows(tmp[i], out);
		unlink(tmp[i]);
	}
	free(tmp);
	free(pid);
}

/* ---- the text report ---- */

typedef ca_vec(const char *) names;

static void
add_name(names *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->at[i], s) == 0)
			return;
	*ca_vec_push(v) = s;
}

static const ca_ad *
find_row(const rowvec *rows, const char *policy, const char *kind, const char *key,
    const char *val)
{
	for (size_t i = 0; i < rows->n; i++) {
		const ca_ad *ad = rows->at[i];
		if (is(ad, kind) && strcmp(sget(ad, "Policy"), policy) == 0 &&
		    (key == NULL || strcmp(sget(ad, key), val) == 0))
			return ad;
	}
	return NULL;
}

static void
fmt_dur(char *buf, size_t len, double s)
{
	int64_t v = (int64_t)s;

	if (v < 60)
		snprintf(buf, len, "%llds", (long long)v);
	else if (v < 3600)
		snprintf(buf, len, "%lldm", (long long)(v / 60));
	else if (v < 86400)
		snprintf(buf, len, "%lldh%02lldm", (long long)(v / 3600), (long long)(v % 3600 / 60));
	else
		snprintf(buf, len, "%lldd%02lldh", (long long)(v / 86400),
		    (long long)(v % 86400 / 3600));
}

static void
fmt_time(char *buf, size_t len, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm) == NULL || strftime(buf, len, "%Y-%m-%d %H:%M", &tm) == 0)
		snprintf(buf, len, "?");
}

enum { F_INT, F_REAL, F_PCT, F_DUR, F_TIME };

static int colw, labw;

/* The figures of the pool (M_POOL) and of each group and user (M_PER). */
enum { M_POOL = 1, M_PER = 2 };
static const struct {
	const char *label, *attr;
	int how;
	unsigned where;
} metrics[] = {
	{ "jobs started", "Started", F_INT, M_POOL | M_PER },
	{ "jobs completed", "Completed", F_INT, M_POOL },
	{ "jobs never run", "NeverRun", F_INT, M_POOL | M_PER },
	{ "wait, median", "WaitMedian", F_DUR, M_POOL | M_PER },
	{ "wait, 90th percentile", "Wait90", F_DUR, M_POOL | M_PER },
	{ "goodput (core-hours)", "GoodputHours", F_REAL, M_POOL | M_PER },
	{ "badput (core-hours)", "BadputHours", F_REAL, M_POOL | M_PER },
	{ "preemptions", "Preemptions", F_INT, M_POOL | M_PER },
	{ "utilization", "Utilization", F_PCT, M_POOL },
	{ "share of the pool", "PoolShare", F_PCT, M_PER },
	{ "fair share (by priority)", "FairShare", F_PCT, M_PER },
	{ "last busy (the pool's last job)", "LastBusy", F_TIME, M_POOL },
};

static void
cell(const ca_ad *ad, const char *attr, int how)
{
	char buf[64];
	double v = ad != NULL ? nget(ad, attr) : 0;

	if (ad == NULL)
		snprintf(buf, sizeof buf, "-");
	else if (how == F_INT)
		snprintf(buf, sizeof buf, "%lld", (long long)v);
	else if (how == F_REAL)
		snprintf(buf, sizeof buf, "%.1f", v);
	else if (how == F_PCT)
		snprintf(buf, sizeof buf, "%.1f%%", v * 100.0);
	else if (how == F_DUR)
		fmt_dur(buf, sizeof buf, v);
	else {
		fmt_time(buf, sizeof buf, (int64_t)v);
		memmove(buf, buf + 5, strlen(buf + 5) + 1);	/* MM-DD HH:MM */
	}
	printf(" %*s", colw, buf);
}

static void
line(const rowvec *rows, const names *pols, const char *label, const char *kind,
    const char *key, const char *val, const char *attr, int how)
{
	printf("  %-*.*s", labw, labw, label);
	for (size_t i = 0; i < pols->n; i++)
		cell(find_row(rows, pols->at[i], kind, key, val), attr, how);
	printf("\n");
}

static void
header(const names *pols, const char *title)
{
	printf("\n-- %-*s", labw - 1, title);
	for (size_t i = 0; i < pols->n; i++)
		printf(" %*.*s", colw, colw, pols->at[i]);
	printf("\n");
}

/* The names of rows of kind (key attr), in the order they first come. */
static void
keys(const rowvec *rows, const char *kind, const char *attr, names *out)
{
	for (size_t i = 0; i < rows->n; i++)
		if (is(rows->at[i], kind))
			add_name(out, sget(rows->at[i], attr));
}

static void
per(const rowvec *rows, const names *pols, const char *kind, const char *what)
{
	names ks = CA_VEC_INIT;
	char title[96];

	keys(rows, kind, "Name", &ks);
	for (size_t k = 0; k < sizeof metrics / sizeof metrics[0]; k++) {
		if (!(metrics[k].where & M_PER))
			continue;
		snprintf(title, sizeof title, "%s: %s", what, metrics[k].label);
		header(pols, title);
		for (size_t i = 0; i < ks.n; i++)
			line(rows, pols, ks.at[i], kind, "Name", ks.at[i], metrics[k].attr,
			    metrics[k].how);
	}
	ca_vec_free(&ks);
}

static void
report(const rowvec *rows, const names *pols)
{
	const ca_ad *first = find_row(rows, pols->at[0], "policy", NULL, NULL);
	char a[32], b[32];

	colw = 12;
	labw = 32;
	for (size_t i = 0; i < rows->n; i++) {
		const char *k = is(rows->at[i], "neverrun") || is(rows->at[i], "cause") ?
		    sget(rows->at[i], "Reason") : is(rows->at[i], "user") ||
		    is(rows->at[i], "group") ? sget(rows->at[i], "Name") : "";
		if ((int)strlen(k) > labw)
			labw = strlen(k) > 60 ? 60 : (int)strlen(k);
	}
	for (size_t i = 0; i < pols->n; i++)
		if ((int)strlen(pols->at[i]) > colw)
			colw = (int)strlen(pols->at[i]);
	fmt_time(a, sizeof a, (int64_t)nget(first, "Start"));
	fmt_time(b, sizeof b, (int64_t)nget(first, "End"));
	printf("Replay of %lld jobs submitted from %s to %s on %lld machines (%lld cores)\n",
	    (long long)nget(first, "Jobs"), a, b, (long long)nget(first, "Machines"),
	    (long long)nget(first, "Cores"));
	for (size_t i = 0; i < rows->n; i++)
		if (is(rows->at[i], "skipped") && strcmp(sget(rows->at[i], "Policy"),
		    pols->at[0]) == 0)
			printf("  not replayed: %lld jobs %s\n", (long long)nget(rows->at[i], "Jobs"),
			    sget(rows->at[i], "Reason"));
	if (nget(first, "Modelled") > 0)
		printf("  run times modelled (the owner's median): %lld jobs\n",
		    (long long)nget(first, "Modelled"));

	header(pols, "The pool");
	for (size_t k = 0; k < sizeof metrics / sizeof metrics[0]; k++)
		if (metrics[k].where & M_POOL)
			line(rows, pols, metrics[k].label, "policy", NULL, NULL, metrics[k].attr,
			    metrics[k].how);

	names ks = CA_VEC_INIT;
	keys(rows, "class", "Name", &ks);
	header(pols, "Utilization per machine class");
	for (size_t i = 0; i < ks.n; i++) {
		const ca_ad *c = find_row(rows, pols->at[0], "class", "Name", ks.at[i]);
		char label[96];
		snprintf(label, sizeof label, "%s (%lld, %lld cores)", ks.at[i],
		    (long long)nget(c, "Machines"), (long long)nget(c, "Cores"));
		line(rows, pols, label, "class", "Name", ks.at[i], "Utilization", F_PCT);
	}
	ks.n = 0;
	keys(rows, "cause", "Reason", &ks);
	if (ks.n > 0) {
		header(pols, "Preemptions by cause");
		for (size_t i = 0; i < ks.n; i++)
			line(rows, pols, ks.at[i], "cause", "Reason", ks.at[i], "Preemptions", F_INT);
		header(pols, "Badput by cause (core-hours)");
		for (size_t i = 0; i < ks.n; i++)
			line(rows, pols, ks.at[i], "cause", "Reason", ks.at[i], "BadputHours", F_REAL);
	}
	ks.n = 0;
	keys(rows, "neverrun", "Reason", &ks);
	if (ks.n > 0) {
		header(pols, "Jobs never run, why");
		for (size_t i = 0; i < ks.n; i++)
			line(rows, pols, ks.at[i], "neverrun", "Reason", ks.at[i], "Jobs", F_INT);
	}
	ca_vec_free(&ks);
	per(rows, pols, "group", "Groups");
	per(rows, pols, "user", "Users");
}

/* ---- the picture ---- */

static int
svg(const rowvec *rows, const names *pols)
{
	int64_t t0 = INT64_MAX, t1 = 0;
	strbuf title = STRBUF_INIT;
	static const char *const how[] = { "solid", "dashed", "dotted" };

	for (size_t i = 0; i < rows->n; i++)
		if (is(rows->at[i], "policy")) {
			int64_t s = (int64_t)nget(rows->at[i], "Start"),
			    e = (int64_t)nget(rows->at[i], "Stopped");
			t0 = s < t0 ? s : t0;
			t1 = e > t1 ? e : t1;
		}
	if (t1 <= t0)
		t1 = t0 + 1;
	strbuf_adds(&title, "Replay:");
	for (size_t i = 0; i < pols->n; i++)
		strbuf_addf(&title, "%s %s %s", i ? "," : "", how[i % 3], pols->at[i]);
	plot *pl = plot_new(title.buf, t0, t1);
	int pg = plot_lines(pl, "Jobs running per accounting group", "jobs", false);
	int pc = plot_lines(pl, "Cores claimed", "cores", false);
	int pi = plot_lines(pl, "Idle jobs", "jobs", false);
	names groups = CA_VEC_INIT;
	keys(rows, "running", "Group", &groups);
	for (size_t k = 0; k < pols->n; k++) {
		ca_vec(int64_t) t = CA_VEC_INIT;
		ca_vec(double) c = CA_VEC_INIT, id = CA_VEC_INIT;
		for (size_t i = 0; i < rows->n; i++)
			if (is(rows->at[i], "sample") && strcmp(sget(rows->at[i], "Policy"),
			    pols->at[k]) == 0) {
				*ca_vec_push(&t) = (int64_t)nget(rows->at[i], "Time");
				*ca_vec_push(&c) = nget(rows->at[i], "Claimed");
				*ca_vec_push(&id) = nget(rows->at[i], "Idle");
			}
		plot_series(pl, pc, pols->at[k], (int)(k % 3), t.at, c.at, t.n);
		plot_series(pl, pi, pols->at[k], (int)(k % 3), t.at, id.at, t.n);
		for (size_t g = 0; g < groups.n; g++) {
			t.n = c.n = 0;
			for (size_t i = 0; i < rows->n; i++)
				if (is(rows->at[i], "running") && strcmp(sget(rows->at[i], "Policy"),
				    pols->at[k]) == 0 && strcmp(sget(rows->at[i], "Group"),
				    groups.at[g]) == 0) {
					*ca_vec_push(&t) = (int64_t)nget(rows->at[i], "Time");
					*ca_vec_push(&c) = nget(rows->at[i], "Jobs");
				}
			plot_series(pl, pg, groups.at[g], (int)(k % 3), t.at, c.at, t.n);
		}
		ca_vec_free(&t);
		ca_vec_free(&c);
		ca_vec_free(&id);
	}
	ca_vec_free(&groups);
	strbuf_release(&title);
	int rc = 0;
	FILE *fp = fopen(opt.svg, "w");
	if (fp == NULL || plot_write(pl, fp) < 0 || fclose(fp) != 0) {
		cli_err("%s: cannot write: %s", opt.svg, strerror(errno));
		rc = -1;
	}
	plot_free(pl);
	return rc;
}

/* ---- main ---- */

static void
output(const rowvec *rows)
{
	names pols = CA_VEC_INIT;

	for (size_t i = 0; i < rows->n; i++)
		if (is(rows->at[i], "policy"))
			add_name(&pols, sget(rows->at[i], "Policy"));
	if (pols.n == 0) {
		cli_err("no results to report");
		cli_raise(EX_INPUT);
		return;
	}
	if (opt.json) {
		if (write_rows(stdout, rows->at, rows->n) < 0)
			cli_raise(EX_SYSTEM);
	} else
		report(rows, &pols);
	if (opt.svg != NULL && svg(rows, &pols) < 0)
		cli_raise(EX_SYSTEM);
	ca_vec_free(&pols);
}

static int
replay(void)
{
	ca_replay *r = ca_replay_new();
	rowvec rows = CA_VEC_INIT;
	ca_diag err;

	for (size_t i = 0; i < opt.keep.n; i++)
		ca_replay_keep(r, opt.keep.at[i]);
	for (size_t i = 0; i < opt.history.n; i++)
		read_all(opt.history.at[i], job_ad, r);
	queued = true;
	for (size_t i = 0; i < opt.queue.n; i++)
		read_all(opt.queue.at[i], job_ad, r);
	for (size_t i = 0; i < opt.status.n; i++)
		read_all(opt.status.at[i], status_ad, r);
	if (opt.userprio != NULL)
		read_all(opt.userprio, userprio_ad, r);
	if (opt.owners != NULL)
		read_all(opt.owners, owner_ad, r);
	ca_replay_opts o = { opt.start, opt.end, opt.until, opt.every, opt.defrun, opt.seed,
	    opt.class_by, opt.desktops };
	if (cli_status == EX_OK && ca_replay_prepare(r, &o, &err) < 0)
		say(&err);
	if (cli_status != EX_OK) {
		ca_replay_free(r);
		return cli_finish();
	}
	ca_vec(const struct policy *) pols = CA_VEC_INIT;
	if (opt.pol.n == 0)
		*ca_vec_push(&pols) = &opt.base;
	for (size_t i = 0; i < opt.pol.n; i++)
		if (opt.only == NULL || strcmp(opt.only, opt.pol.at[i].name) == 0)
			*ca_vec_push(&pols) = &opt.pol.at[i];
	if (opt.only != NULL && pols.n == 0)
		cli_usage_error("--only %s: no such --policy", opt.only);
	simulate_all(r, pols.at, pols.n, &rows);
	if (cli_status == EX_OK || rows.n > 0)
		output(&rows);
	for (size_t i = 0; i < rows.n; i++)
		ca_ad_free(rows.at[i]);
	ca_vec_free(&rows);
	ca_vec_free(&pols);
	ca_replay_free(r);
	return cli_finish();
}

int
main(int argc, char **argv)
{
	ca_ctx ctx;
	int rc;

	cli_init(argc, argv, "pool-replay");
	int first = cli_parse(&spec, argc, argv, option, NULL);
	ca_ctx_init(&ctx);
	cx = &ctx;
	if (opt.merge) {
		rowvec rows = CA_VEC_INIT;
		if (first >= argc)
			cli_usage_error("--merge: give the JSON results to merge");
		for (int i = first; i < argc; i++)
			read_rows(argv[i], &rows);
		if (rows.n > 0)
			output(&rows);
		for (size_t i = 0; i < rows.n; i++)
			ca_ad_free(rows.at[i]);
		ca_vec_free(&rows);
		rc = cli_finish();
	} else {
		if (first < argc)
			cli_usage_error("unexpected argument %s", argv[first]);
		if (opt.history.n == 0 && opt.queue.n == 0)
			cli_usage_error("give the jobs: --history FILE or --queue FILE");
		if (opt.status.n == 0)
			cli_usage_error("give the machines: --status FILE");
		rc = replay();
	}
	for (size_t i = 0; i < opt.pol.n; i++) {
		ca_vec_free(&opt.pol.at[i].files);
		ca_vec_free(&opt.pol.at[i].sets);
	}
	ca_vec_free(&opt.pol);
	ca_ctx_free(&ctx);
	ca_intern_cleanup();
	return rc;
}
