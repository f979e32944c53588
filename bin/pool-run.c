/* pool-run - a pool under a simulated clock, in one process: its cycles, the
 * users' submissions and the desktop owners' typing, then its tables and a picture.
 *
 * The cycles are those of pool-cycle (lib/condor/pool.h), run one after the
 * other with the pool in memory; the state directory is written once, at
 * the end, as one generation (or after every cycle with --commit-each), so
 * pool-cycle and pool-run -n 0 go on from it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "condor.h"
#include "classad.h"
#include "plot.h"

enum { OPT_EVERY = CLI_LONG, OPT_START, OPT_EACH, OPT_NOREPORT, OPT_SVG, OPT_COMMIT };

static const cli_opt options[] = {
	{ 'n', 0, "cycles", CLI_ARG, "CYCLES", "how many cycles (default: a day's worth)" },
	{ OPT_EVERY, 0, "every", CLI_ARG, "SECONDS", "simulated time between cycles (300)" },
	{ OPT_START, 0, "start", CLI_ARG, "EPOCH",
	    "when a new state directory starts (1700006400)" },
	{ OPT_EACH, 0, "each", CLI_NOARG, NULL, "the tables after every cycle" },
	{ 'q', 0, "quiet", CLI_NOARG, NULL, "no hourly lines" },
	{ OPT_NOREPORT, 0, "no-report", CLI_NOARG, NULL, "no report after the tables" },
	{ OPT_SVG, 0, "svg", CLI_ARG, "FILE",
	    "a picture of the run: jobs running per user and per\n"
	    "group, effective priorities, each slot's state" },
	{ OPT_COMMIT, 0, "commit-each", CLI_NOARG, NULL,
	    "commit a generation after every cycle (as pool-cycle)" },
	CLI_OPT_HELP,
	CLI_END
};

static const cli_spec spec = {
	"usage: pool-run [-n CYCLES] [--every SECONDS] [--start EPOCH] [--each] [-q]\n"
	"                [--no-report] [--svg FILE] [--commit-each] POOLDIR STATEDIR\n"
	"       pool-run -n 0 [--no-report] STATEDIR\n",
	"Run a pool for a simulated time: before each cycle the job ads of\n"
	"POOLDIR/jobs.ads whose SimSubmitTime has come are submitted, and the owners of\n"
	"POOLDIR/owners.ads type at their desktops; then the pool's tables.\n",
	options,
	NULL,
	false
};

static struct {
	int64_t cycles, every, start;
	bool cycles_set, each, quiet, noreport, commit_each;
	const char *svg;
} opt = { 0, 300, 1700006400, false, false, false, false, false, NULL };

static void
option(void *arg, int key, char *val)
{
	switch (key) {
	case 'n':
		opt.cycles = cli_int("-n", val, 0, INT32_MAX);
		opt.cycles_set = true;
		break;
	case OPT_EVERY: opt.every = cli_int("--every", val, 1, 365 * 86400); break;
	case OPT_START: opt.start = cli_int("--start", val, 0, (int64_t)1 << 40); break;
	case OPT_EACH: opt.each = true; break;
	case 'q': opt.quiet = cli_common.quiet = true; break;
	case OPT_NOREPORT: opt.noreport = true; break;
	case OPT_SVG: opt.svg = val; break;
	case OPT_COMMIT: opt.commit_each = true; break;
	default: break;
	}
}

static void
warn(void *arg, const ca_diag *d)
{
	cli_note(d);
}

static const char *statedir;
static ca_ctx *cx;

/* ---- values as classad-eval -p prints them ---- */

static ca_expr *
expr(ca_arena *a, const char *text)
{
	ca_diag err;
	ca_expr *e = ca_parse_expr(a, text, strlen(text), 0, &err);

	if (e == NULL)
		cli_die(EX_SYSTEM, "internal expression %s: %s", text, err.msg);
	return e;
}

static void
pval(strbuf *sb, ca_value v)
{
	if (v.kind == CA_STRING)
		strbuf_add(sb, v.u.s, v.x.len);
	else
		ca_print_value(sb, v, CA_PR_OLD);
}

static void
pattr(strbuf *sb, const ca_ad *ad, const char *name)
{
	pval(sb, ca_eval_attr(cx, ad, NULL, name));
}

static const char *
str_or(const ca_ad *ad, const char *name, const char *def)
{
	const char *s = NULL;

	return ca_get_str(cx, ad, name, &s, NULL) == 1 ? s : def;
}

static int64_t
int_or(const ca_ad *ad, const char *name, int64_t def)
{
	int64_t v = def;

	(void)ca_get_int(cx, ad, name, &v);
	return v;
}

static void
fmt_time(char *buf, size_t len, int64_t t, const char *fmt)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm) == NULL || strftime(buf, len, fmt, &tm) == 0)
		snprintf(buf, len, "?");
}

/* Every ad of a file of the pool's own (none when it is missing). */
static void
each_ad(const char *path, void (*fn)(void *, const ca_ad *), void *arg)
{
	ca_diag err;
	ca_reader *r = ca_reader_open(path, CA_FMT_AUTO, &err);
	ca_ad *ad;
	int rc;

	if (r == NULL)
		return;
	while ((rc = ca_reader_next(r, &ad, &err)) == 1) {
		fn(arg, ad);
		ca_ad_free(ad);
		ca_arena_reset(&cx->scratch);
	}
	if (rc < 0)
		cli_note(&err);
	ca_reader_close(r);
}

/* ---- the tables ---- */

static void
status_table(ca_pool *p)
{
	ca_arena a = { 0 };
	ca_expr *ivl = expr(&a, "interval(MyCurrentTime - EnteredCurrentActivity)");
	strbuf f[8];
	const char *states[] = { "Owner", "Claimed", "Unclaimed", "Matched", "Preempting" };
	int64_t n[5] = { 0 }, c[5] = { 0 }, tot = 0, ctot = 0;
	char when[32];

	fmt_time(when, sizeof when, ca_pool_clock(p), "%Y-%m-%d %H:%M");
	printf("-- Slots at %s\n", when);
	printf("%-34s %-10s %-9s %4s %6s %10s  %-36s %s\n", "Name", "State", "Activity", "Cpus",
	    "Mem", "ActvtyTime", "RemoteUser", "JobId");
	for (int i = 0; i < 8; i++)
		f[i] = (strbuf)STRBUF_INIT;
	for (size_t k = 0; k < ca_pool_nclasses(p); k++)
		for (size_t i = 0, ns = ca_pool_nslots(p, k); i < ns; i++) {
			const ca_ad *s = ca_pool_slot(p, k, i);
			if (s == NULL)
				continue;
			for (int j = 0; j < 8; j++)
				strbuf_reset(&f[j]);
			pattr(&f[0], s, "Name");
			pattr(&f[1], s, "State");
			pattr(&f[2], s, "Activity");
			pattr(&f[3], s, "Cpus");
			pattr(&f[4], s, "Memory");
			pval(&f[5], ca_eval_expr(cx, ivl, s, NULL));
			strbuf_adds(&f[6], str_or(s, "RemoteUser", ""));
			strbuf_adds(&f[7], str_or(s, "JobId", ""));
			printf("%-34s %-10s %-9s %4s %6s %10s  %-36s %s\n", f[0].buf, f[1].buf,
			    f[2].buf, f[3].buf, f[4].buf, f[5].buf, f[6].buf, f[7].buf);
			int64_t cpus = int_or(s, "Cpus", 0);
			tot++;
			ctot += cpus;
			for (int j = 0; j < 5; j++)
				if (strcmp(f[1].buf, states[j]) == 0) {
					n[j]++;
					c[j] += cpus;
				}
			ca_arena_reset(&cx->scratch);
		}
	printf("\n%14s %6s %6s %8s %10s %8s %11s\n", "", "Total", "Owner", "Claimed",
	    "Unclaimed", "Matched", "Preempting");
	printf("%14s %6lld %6lld %8lld %10lld %8lld %11lld\n", "slots", (long long)tot,
	    (long long)n[0], (long long)n[1], (long long)n[2], (long long)n[3], (long long)n[4]);
	printf("%14s %6lld %6lld %8lld %10lld %8lld %11lld\n", "cores", (long long)ctot,
	    (long long)c[0], (long long)c[1], (long long)c[2], (long long)c[3], (long long)c[4]);
	for (int i = 0; i < 8; i++)
		strbuf_release(&f[i]);
	ca_arena_free(&a);
}

/* The program beside this one (or in CA_BIN, or on PATH). */
static void
find_prog(const char *name, char *out, size_t len)
{
	const char *bin = getenv("CA_BIN");
	char self[PATH_MAX / 2];
	ssize_t n;

	if (bin != NULL && *bin) {
		snprintf(out, len, "%s/%s", bin, name);
		return;
	}
	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash != NULL) {
			*slash = '\0';
			snprintf(out, len, "%s/%s", self, name);
			if (access(out, X_OK) == 0)
				return;
		}
	}
	snprintf(out, len, "%s", name);
}

/* condor_userprio's table: userprio-calc on the accountant as it is. */
static void
userprio_table(ca_pool *p)
{
	char tmpl[] = "/tmp/pool-run-acct.XXXXXX", prog[PATH_MAX], now[32];
	int fd = mkstemp(tmpl);
	FILE *fp;

	printf("-- User priorities\n");
	fflush(stdout);
	if (fd < 0 || (fp = fdopen(fd, "w")) == NULL) {
		cli_err("cannot write a temporary file: %s", strerror(errno));
		return;
	}
	ca_writer *w = ca_writer_open(fp, CA_FMT_LONG, false);
	ca_acct *acct = ca_pool_acct(p);
	for (size_t i = 0; i < acct->recs.n; i++)
		if (!acct->recs.at[i]->deleted)
			ca_writer_put(w, ca_acct_rec_ad(acct, acct->recs.at[i]));
	ca_writer_close(w);
	fclose(fp);
	find_prog("userprio-calc", prog, sizeof prog);
	snprintf(now, sizeof now, "%lld", (long long)ca_pool_clock(p));
	pid_t pid = fork();
	if (pid == 0) {
		execlp(prog, "userprio-calc", "--state", tmpl, "--now", now, "-allusers",
		    (char *)NULL);
		_exit(127);
	}
	int status;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	unlink(tmpl);
}

struct qrow {
	char *owner, *sub;
	int64_t cluster, proc, status;
	bool cron;
};
typedef ca_vec(struct qrow) qrows;

static void
add_row(qrows *v, const ca_ad *job, bool hist)
{
	struct qrow r;
	char when[32];

	r.owner = ca_xstrndup(str_or(job, "Owner", "undefined"), strlen(str_or(job, "Owner",
	    "undefined")));
	r.cluster = int_or(job, "ClusterId", 0);
	r.proc = int_or(job, "ProcId", 0);
	r.status = int_or(job, "JobStatus", 0);
	fmt_time(when, sizeof when, int_or(job, "QDate", 0), "%m/%d %H:%M");
	r.sub = ca_xstrndup(when, strlen(when));
	if (hist)
		r.cron = false;
	else {
		ca_value cm = ca_eval_attr(cx, job, NULL, "CronMinute");
		r.cron = cm.kind == CA_STRING || cm.kind == CA_INT;
	}
	*ca_vec_push(v) = r;
}

static void
hist_row(void *arg, const ca_ad *ad)
{
	add_row(arg, ad, true);
}

static int
row_cmp(const void *a, const void *b)
{
	const struct qrow *x = a, *y = b;

	if (x->cluster != y->cluster)
		return x->cluster < y->cluster ? -1 : 1;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	return 0;
}

static const char *
dash(char *buf, int64_t n)
{
	if (n == 0)
		return "_";
	snprintf(buf, 24, "%lld", (long long)n);
	return buf;
}

static void
queue_table(ca_pool *p, const char *extra_history)
{
	qrows rows = CA_VEC_INIT;
	char path[PATH_MAX + 32], when[32];
	int64_t t[8] = { 0 }, tq = 0;

	fmt_time(when, sizeof when, ca_pool_clock(p), "%m/%d/%y %H:%M");
	printf("-- Schedd: %s @ %s\n", statedir, when);
	for (size_t i = 0; i < ca_pool_njobs(p); i++) {
		add_row(&rows, ca_pool_job(p, i), false);
		ca_arena_reset(&cx->scratch);
	}
	snprintf(path, sizeof path, "%s/log/history.ads", statedir);
	each_ad(path, hist_row, &rows);
	if (extra_history != NULL)
		each_ad(extra_history, hist_row, &rows);
	if (rows.n > 0)
		qsort(rows.at, rows.n, sizeof *rows.at, row_cmp);
	printf("%-9s %-12s %-12s %5s %5s %5s %5s %6s %s\n", "OWNER", "BATCH_NAME",
	    "SUBMITTED", "DONE", "RUN", "IDLE", "HOLD", "TOTAL", "JOB_IDS");
	for (size_t i = 0; i < rows.n;) {
		size_t j = i;
		int64_t done = 0, run = 0, idle = 0, hold = 0, inq = 0, lo = 0, hi = 0;
		bool cron = false;
		/* one batch: the rows of this owner and cluster (sorted together) */
		for (; j < rows.n && rows.at[j].cluster == rows.at[i].cluster &&
		    strcmp(rows.at[j].owner, rows.at[i].owner) == 0; j++) {
			struct qrow *r = &rows.at[j];
			if (r->status == 4)
				done++;
			else {
				if (inq == 0 || r->proc < lo)
					lo = r->proc;
				if (inq == 0 || r->proc > hi)
					hi = r->proc;
				inq++;
				tq++;
			}
			idle += r->status == 1;
			run += r->status == 2 || r->status == 7;
			hold += r->status == 5;
			if (r->status >= 1 && r->status <= 7)
				t[r->status]++;
			cron |= r->cron;
		}
		char ids[64] = "", b1[24], b2[24], b3[24], b4[24], batch[40];
		if (inq > 0) {
			if (lo == hi)
				snprintf(ids, sizeof ids, "%lld.%lld", (long long)rows.at[i].cluster,
				    (long long)lo);
			else
				snprintf(ids, sizeof ids, "%lld.%lld-%lld",
				    (long long)rows.at[i].cluster, (long long)lo, (long long)hi);
		}
		snprintf(batch, sizeof batch, "ID: %lld", (long long)rows.at[i].cluster);
		printf("%-9s %-12s %-12s %5s %5s %5s %5s %6lld %s%s\n", rows.at[i].owner, batch,
		    rows.at[i].sub, dash(b1, done), dash(b2, run), dash(b3, idle), dash(b4, hold),
		    (long long)(j - i), ids, cron ? "  (cron)" : "");
		i = j;
	}
	printf("\nTotal for all users: %lld jobs; %lld completed, %lld removed, %lld idle, "
	    "%lld running, %lld held, %lld suspended\n", (long long)tq, (long long)t[4],
	    (long long)t[3], (long long)t[1], (long long)t[2], (long long)t[5], (long long)t[7]);
	printf("History: %lld jobs completed and left the queue\n", (long long)t[4]);
	for (size_t i = 0; i < rows.n; i++) {
		free(rows.at[i].owner);
		free(rows.at[i].sub);
	}
	ca_vec_free(&rows);
}

static void
tables(ca_pool *p, const char *extra_history)
{
	status_table(p);
	printf("\n");
	userprio_table(p);
	printf("\n");
	queue_table(p, extra_history);
}

/* ---- the report, from the logs ---- */

struct tally {
	char *key;
	int64_t n, c;
	double h;
	strbuf text;
};
typedef ca_vec(struct tally) tallies;

static struct tally *
tally_of(tallies *v, const char *key)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->at[i].key, key) == 0)
			return &v->at[i];
	*ca_vec_push(v) = (struct tally){ ca_xstrndup(key, strlen(key)), 0, 0, 0, STRBUF_INIT };
	return &v->at[v->n - 1];
}

static void
tallies_free(tallies *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free(v->at[i].key);
		strbuf_release(&v->at[i].text);
	}
	ca_vec_free(v);
}

struct report {
	tallies done, reasons, cron;
	strbuf evictions;
	int64_t npriority;
};

static void
report_event(void *arg, const ca_ad *ev)
{
	struct report *r = arg;
	const char *type = str_or(ev, "MyType", "");
	char hm[16];

	if (strcmp(type, "JobTerminatedEvent") == 0) {
		const char *who = str_or(ev, "AccountingGroup", NULL);
		struct tally *t = tally_of(&r->done, who ? who : str_or(ev, "User", "undefined"));
		bool requeued = false;
		t->n++;
		if (ca_get_bool(cx, ev, "Requeued", &requeued) == 1 && requeued)
			t->c++;
		double rt = 0;
		(void)ca_get_num(cx, ev, "RunTime", &rt);
		t->h += rt;
	} else if (strcmp(type, "JobEvictedEvent") == 0) {
		const char *reason = str_or(ev, "Reason", "undefined");
		size_t w = strcspn(reason, " \t");
		char first[128];
		snprintf(first, sizeof first, "%.*s", (int)(w < 127 ? w : 127), reason);
		tally_of(&r->reasons, first)->n++;
		if (strcmp(reason, "Priority") == 0 && r->npriority++ >= 6)
			return;
		fmt_time(hm, sizeof hm, int_or(ev, "EventTime", 0), "%H:%M");
		const char *user = str_or(ev, "User", NULL);
		strbuf by = STRBUF_INIT;
		if (str_or(ev, "PreemptingJobId", NULL) != NULL)
			strbuf_addf(&by, "by %s of %s", str_or(ev, "PreemptingJobId", ""),
			    str_or(ev, "PreemptingUser", "undefined"));
		strbuf_addf(&r->evictions, "  %s  %-6s %-22s %-34s %-9s %s\n", hm,
		    str_or(ev, "JobId", "undefined"), user ? user : str_or(ev, "Owner", "undefined"),
		    str_or(ev, "Slot", "undefined"), reason, by.len ? by.buf : "");
		strbuf_release(&by);
	} else if (strcmp(type, "ExecuteEvent") == 0) {
		int64_t dt, et = int_or(ev, "EventTime", 0);
		ca_value dv = ca_eval_attr(cx, ev, NULL, "DeferralTime");
		if (dv.kind != CA_INT)
			return;
		dt = dv.u.i;
		struct tally *t = tally_of(&r->cron, str_or(ev, "JobId", "undefined"));
		t->n++;
		if (et != dt)
			t->c++;
		if (t->n % 8 == 1 && t->n > 1)
			strbuf_addf(&t->text, "\n  %-6s", "");
		fmt_time(hm, sizeof hm, dt, "%H:%M");
		strbuf_addf(&t->text, " %s", hm);
	}
}

static int
reason_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tally *)a)->key, ((const struct tally *)b)->key);
}

static void
report(void)
{
	char path[PATH_MAX + 32];
	struct report r = { CA_VEC_INIT, CA_VEC_INIT, CA_VEC_INIT, STRBUF_INIT, 0 };
	struct stat st;

	snprintf(path, sizeof path, "%s/log/jobs.log", statedir);
	if (stat(path, &st) < 0 || st.st_size == 0) {
		printf("-- No job events yet\n");
		return;
	}
	each_ad(path, report_event, &r);
	printf("-- Jobs completed per user\n");
	printf("  %-28s %9s %9s %10s\n", "User", "Completed", "Cron runs", "Run hours");
	for (size_t i = 0; i < r.done.n; i++) {
		char c[24];
		struct tally *t = &r.done.at[i];
		snprintf(c, sizeof c, "%lld", (long long)t->c);
		printf("  %-28s %9lld %9s %10.1f\n", t->key, (long long)(t->n - t->c),
		    t->c ? c : "-", t->h / 3600);
	}
	printf("\n-- Preemptions and their reasons\n");
	if (r.reasons.n > 0)
		qsort(r.reasons.at, r.reasons.n, sizeof *r.reasons.at, reason_cmp);
	for (size_t i = 0; i < r.reasons.n; i++)
		printf("  %5lld  %s\n", (long long)r.reasons.at[i].n, r.reasons.at[i].key);
	fputs(r.evictions.buf ? r.evictions.buf : "", stdout);
	if (r.npriority > 6)
		printf("  ... and %lld more priority preemptions\n", (long long)(r.npriority - 6));
	printf("\n-- Suspensions, continues and PREEMPT (the startd's log: desktop owners at "
	    "the keyboard)\n");
	snprintf(path, sizeof path, "%s/log/startd.log", statedir);
	FILE *fp = fopen(path, "r");
	char line[4096];
	while (fp != NULL && fgets(line, sizeof line, fp) != NULL) {
		size_t l = strcspn(line, "\n");
		line[l] = '\0';
		static const char *const ends[] = { "] SUSPEND = true", "] CONTINUE = true",
		    "] PREEMPT = true" };
		bool hit = false;
		for (int k = 0; k < 3; k++) {
			size_t el = strlen(ends[k]);
			hit |= l >= el && strcmp(line + l - el, ends[k]) == 0;
		}
		if (!hit || (strstr(line, "[14]") == NULL && strstr(line, "[15]") == NULL &&
		    strstr(line, "[16]") == NULL))
			continue;
		/* the fields after the date, the time without its seconds when :00 */
		strbuf out = STRBUF_INIT;
		int field = 0;
		for (char *tok = strtok(line, " \t"); tok != NULL; tok = strtok(NULL, " \t")) {
			if (field++ == 0)
				continue;
			size_t tl = strlen(tok);
			if (field == 2 && tl >= 3 && strcmp(tok + tl - 3, ":00") == 0)
				tok[tl - 3] = '\0';
			strbuf_addf(&out, " %s", tok);
		}
		printf(" %s\n", out.buf ? out.buf : "");
		strbuf_release(&out);
	}
	if (fp != NULL)
		fclose(fp);
	printf("\n-- Cron jobs: each run's scheduled minute (DeferralTime) and start\n");
	for (size_t i = 0; i < r.cron.n; i++) {
		struct tally *t = &r.cron.at[i];
		char late[64];
		snprintf(late, sizeof late, "%lld not at the scheduled minute", (long long)t->c);
		printf("  %-6s %lld runs, %s:%s\n", t->key, (long long)t->n,
		    t->c ? late : "all at the scheduled minute", t->text.buf ? t->text.buf : "");
	}
	tallies_free(&r.done);
	tallies_free(&r.reasons);
	tallies_free(&r.cron);
	strbuf_release(&r.evictions);
}

/* ---- the hourly line ---- */

static void
hourly(ca_pool *p, int64_t gen)
{
	tallies run = CA_VEC_INIT;
	int64_t busy = 0, idle = 0;
	char hm[16] = "--:--";

	for (size_t k = 0; k < ca_pool_nclasses(p); k++)
		for (size_t i = 0, n = ca_pool_nslots(p, k); i < n; i++) {
			const ca_ad *s = ca_pool_slot(p, k, i);
			if (s != NULL && strcmp(str_or(s, "State", ""), "Claimed") == 0)
				busy += int_or(s, "Cpus", 0);
			ca_arena_reset(&cx->scratch);
		}
	if (ca_pool_njobs(p) > 0)
		fmt_time(hm, sizeof hm, ca_pool_clock(p), "%H:%M");
	for (size_t i = 0; i < ca_pool_njobs(p); i++) {
		const ca_ad *j = ca_pool_job(p, i);
		int64_t st = int_or(j, "JobStatus", 0);
		if (st == 1)
			idle++;
		else if (st == 2 || st == 7)
			tally_of(&run, str_or(j, "Owner", "undefined"))->n++;
		ca_arena_reset(&cx->scratch);
	}
	strbuf line = STRBUF_INIT;
	for (size_t i = 0; i < run.n; i++)
		strbuf_addf(&line, " %s %lld", run.at[i].key, (long long)run.at[i].n);
	printf("%s  cycle %lld: %lld cores claimed; running:%s; %lld idle\n", hm, (long long)gen,
	    (long long)busy, line.len ? line.buf : " none", (long long)idle);
	strbuf_release(&line);
	tallies_free(&run);
}

/* ---- the picture ---- */

struct series {
	char *name;
	int panel;
	ca_vec(int64_t) t;
	ca_vec(double) y;
	bool seen;
};

struct strip {
	char *name, *state;
	int64_t since;
	bool seen;
};

static struct {
	ca_vec(struct series) s;
	ca_vec(struct strip) strips;
	ca_dict stripidx;
	int64_t samples;
	int panel[4];		/* jobs per user, per group, priorities, slot states */
} pic;

enum { P_USERS, P_GROUPS, P_PRIOS };

static struct series *
series_of(int panel, const char *name)
{
	for (size_t i = 0; i < pic.s.n; i++)
		if (pic.s.at[i].panel == panel && strcmp(pic.s.at[i].name, name) == 0)
			return &pic.s.at[i];
	*ca_vec_push(&pic.s) = (struct series){ ca_xstrndup(name, strlen(name)), panel,
	    CA_VEC_INIT, CA_VEC_INIT, false };
	return &pic.s.at[pic.s.n - 1];
}

static void
point(int panel, const char *name, int64_t t, double y)
{
	struct series *s = series_of(panel, name);

	if (s->seen && s->t.n > 0) {
		s->y.at[s->y.n - 1] += y;	/* one more job of this user at t */
		return;
	}
	*ca_vec_push(&s->t) = t;
	*ca_vec_push(&s->y) = y;
	s->seen = true;
}

static struct strip *
strip_of(const char *name)
{
	uint64_t h = ca_hash_bytes(0, name, strlen(name));
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&pic.stripidx, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&pic.stripidx, &it))
		if (strcmp(pic.strips.at[i].name, name) == 0)
			return &pic.strips.at[i];
	ca_dict_add(&pic.stripidx, h, (uint32_t)pic.strips.n);
	*ca_vec_push(&pic.strips) = (struct strip){ ca_xstrndup(name, strlen(name)), NULL, 0,
	    false };
	return &pic.strips.at[pic.strips.n - 1];
}

/* The group of an accounting group "group.sub.user": all but the user. */
static void
group_of(const char *ag, char *buf, size_t len)
{
	const char *dot = strrchr(ag, '.');

	snprintf(buf, len, "%.*s", dot ? (int)(dot - ag) : (int)strlen(ag), ag);
}

static void
sample(ca_pool *p, plot *pl, int64_t t)
{
	for (size_t i = 0; i < pic.s.n; i++)
		pic.s.at[i].seen = false;
	for (size_t i = 0; i < ca_pool_njobs(p); i++) {
		const ca_ad *j = ca_pool_job(p, i);
		int64_t st = int_or(j, "JobStatus", 0);
		if (st == 2 || st == 7) {
			char g[256];
			const char *ag = str_or(j, "AccountingGroup", NULL);
			point(P_USERS, str_or(j, "Owner", "undefined"), t, 1);
			if (ag != NULL)
				group_of(ag, g, sizeof g);
			else
				snprintf(g, sizeof g, "(none)");
			point(P_GROUPS, g, t, 1);
		}
		ca_arena_reset(&cx->scratch);
	}
	/* users with nothing running now */
	for (size_t i = 0; i < pic.s.n; i++)
		if (pic.s.at[i].panel != P_PRIOS && !pic.s.at[i].seen) {
			*ca_vec_push(&pic.s.at[i].t) = t;
			*ca_vec_push(&pic.s.at[i].y) = 0;
		}
	ca_acct *a = ca_pool_acct(p);
	for (size_t i = 0; i < a->recs.n; i++)
		if (!a->recs.at[i]->deleted) {
			struct series *s = series_of(P_PRIOS, a->recs.at[i]->name);
			*ca_vec_push(&s->t) = t;
			*ca_vec_push(&s->y) = ca_acct_eup(a->recs.at[i]);
		}
	for (size_t i = 0; i < pic.strips.n; i++)
		pic.strips.at[i].seen = false;
	for (size_t k = 0; k < ca_pool_nclasses(p); k++)
		for (size_t i = 0, n = ca_pool_nslots(p, k); i < n; i++) {
			const ca_ad *s = ca_pool_slot(p, k, i);
			if (s == NULL)
				continue;
			const char *name = str_or(s, "Name", "?"), *state = str_or(s, "State", "?");
			struct strip *x = strip_of(name);
			x->seen = true;
			if (x->state == NULL || strcmp(x->state, state) != 0) {
				if (x->state != NULL)
					plot_strip(pl, pic.panel[3], x->name, x->since, t, x->state);
				free(x->state);
				x->state = ca_xstrndup(state, strlen(state));
				x->since = t;
			}
			ca_arena_reset(&cx->scratch);
		}
	for (size_t i = 0; i < pic.strips.n; i++) {
		struct strip *x = &pic.strips.at[i];
		if (!x->seen && x->state != NULL) {
			plot_strip(pl, pic.panel[3], x->name, x->since, t, x->state);
			free(x->state);
			x->state = NULL;
		}
	}
	pic.samples++;
}

static int
write_svg(plot *pl, int64_t t)
{
	for (size_t i = 0; i < pic.strips.n; i++) {
		struct strip *x = &pic.strips.at[i];
		if (x->state != NULL && t > x->since)
			plot_strip(pl, pic.panel[3], x->name, x->since, t, x->state);
	}
	for (size_t i = 0; i < pic.s.n; i++) {
		struct series *s = &pic.s.at[i];
		plot_series(pl, pic.panel[s->panel], s->name, 0, s->t.at, s->y.at, s->t.n);
	}
	FILE *fp = fopen(opt.svg, "w");
	if (fp == NULL) {
		cli_err("%s: cannot write: %s", opt.svg, strerror(errno));
		return -1;
	}
	int rc = plot_write(pl, fp);
	if (fclose(fp) != 0 || rc < 0) {
		cli_err("%s: cannot write: %s", opt.svg, strerror(errno));
		return -1;
	}
	return 0;
}

static void
pic_free(void)
{
	for (size_t i = 0; i < pic.s.n; i++) {
		free(pic.s.at[i].name);
		ca_vec_free(&pic.s.at[i].t);
		ca_vec_free(&pic.s.at[i].y);
	}
	ca_vec_free(&pic.s);
	for (size_t i = 0; i < pic.strips.n; i++) {
		free(pic.strips.at[i].name);
		free(pic.strips.at[i].state);
	}
	ca_vec_free(&pic.strips);
	ca_dict_free(&pic.stripidx);
}

/* ---- the simulation's inputs ---- */

struct session {
	char *machine;
	int64_t from, to;
};

struct sim {
	ca_vec(ca_ad *) jobs;		/* with SimSubmitTime */
	ca_vec(struct session) sessions;
};

static void
sim_job(void *arg, const ca_ad *ad)
{
	struct sim *s = arg;
	int64_t t;

	if (ca_eval_attr(cx, ad, NULL, "SimSubmitTime").kind == CA_INT &&
	    ca_get_int(cx, ad, "SimSubmitTime", &t) == 1)
		*ca_vec_push(&s->jobs) = ca_ad_copy(ad);
}

static void
sim_owner(void *arg, const ca_ad *ad)
{
	struct sim *s = arg;
	const char *m = str_or(ad, "Machine", NULL);

	if (m == NULL)
		return;
	*ca_vec_push(&s->sessions) = (struct session){ ca_xstrndup(m, strlen(m)),
	    int_or(ad, "From", 0), int_or(ad, "To", 0) };
}

/* The submissions with SimSubmitTime in (lo, hi], as one file. */
static void
submissions(struct sim *s, int64_t lo, int64_t hi, ca_pool_file *f, char *name)
{
	ca_vec(ca_ad *) v = CA_VEC_INIT;

	for (size_t i = 0; i < s->jobs.n; i++) {
		int64_t t = int_or(s->jobs.at[i], "SimSubmitTime", -1);
		if (t > lo && t <= hi)
			*ca_vec_push(&v) = ca_ad_copy(s->jobs.at[i]);
	}
	*f = (ca_pool_file){ 0 };
	f->name = name;
	f->ads = v.at;
	f->n = v.n;
	f->super = true;
	f->state = CA_PF_TAKEN;
}

/* The owners at their keyboards in (a, b]: a MachineUpdate each minute. */
static void
typing(struct sim *s, int64_t a, int64_t b, ca_pool_file *f, char *name)
{
	ca_vec(ca_ad *) v = CA_VEC_INIT;

	for (int64_t m = (a / 60 + 1) * 60; m <= b; m += 60) {
		int64_t tod = m % 86400;
		for (size_t i = 0; i < s->sessions.n; i++)
			if (s->sessions.at[i].from <= tod && tod < s->sessions.at[i].to) {
				ca_ad *ev = ca_ad_new();
				ca_set_str(ev, "Name", s->sessions.at[i].machine);
				ca_set_str(ev, "Event", "MachineUpdate");
				ca_set_int(ev, "Time", opt.start + m);
				ca_set_int(ev, "KeyboardIdle", 0);
				ca_set_int(ev, "ConsoleIdle", 0);
				*ca_vec_push(&v) = ev;
			}
	}
	*f = (ca_pool_file){ 0 };
	f->name = name;
	f->ads = v.at;
	f->n = v.n;
	f->state = CA_PF_TAKEN;
}

static void
sim_free(struct sim *s)
{
	for (size_t i = 0; i < s->jobs.n; i++)
		ca_ad_free(s->jobs.at[i]);
	ca_vec_free(&s->jobs);
	for (size_t i = 0; i < s->sessions.n; i++)
		free(s->sessions.at[i].machine);
	ca_vec_free(&s->sessions);
}

/* ---- the run ---- */

static int
fail(const ca_diag *d)
{
	cli_note(d);
	cli_raise(EX_SYSTEM);
	return cli_finish();
}

/* sim-start: the start of the simulation, kept in the state directory. */
static void
sim_start(bool created)
{
	char path[PATH_MAX + 32];
	FILE *fp;
	long long v;

	snprintf(path, sizeof path, "%s/sim-start", statedir);
	if (!created && (fp = fopen(path, "r")) != NULL) {
		if (fscanf(fp, "%lld", &v) == 1)
			opt.start = v;
		fclose(fp);
		return;
	}
	if ((fp = fopen(path, "w")) != NULL) {
		fprintf(fp, "%lld\n", (long long)opt.start);
		fclose(fp);
	}
}

static int
run(const char *pooldir)
{
	ca_pool *p = ca_pool_new();
	ca_pool_dir d = { .fd = -1, .lock = -1, .newfd = -1 };
	struct sim s = { CA_VEC_INIT, CA_VEC_INIT };
	plot *pl = NULL;
	ca_diag err;
	char path[PATH_MAX + 32], gen[PATH_MAX + 64];
	struct stat st;
	int rc;
	const char *sync = getenv("POOL_SYNC");

	ca_pool_set_warn(p, warn, NULL);
	snprintf(path, sizeof path, "%s/current", statedir);
	bool created = false;
	if (stat(path, &st) < 0) {
		ca_pool *q = ca_pool_new();
		ca_pool_set_warn(q, warn, NULL);
		if (ca_pool_dir_init(pooldir, statedir, opt.start, q, &err) < 0) {
			/* told before q goes: err may name a file of its configuration */
			rc = fail(&err);
			ca_pool_free(q);
			ca_pool_free(p);
			return rc;
		}
		ca_pool_free(q);
		created = true;
	}
	sim_start(created);
	if (ca_pool_dir_open(&d, statedir, &err) < 0 || ca_pool_dir_load(&d, p, &err) < 0) {
		rc = fail(&err);
		goto out;
	}
	cx = ca_pool_ctx(p);
	d.sync = sync != NULL && strcmp(sync, "0") != 0;
	snprintf(path, sizeof path, "%s/jobs.ads", pooldir);
	each_ad(path, sim_job, &s);
	snprintf(path, sizeof path, "%s/owners.ads", pooldir);
	each_ad(path, sim_owner, &s);
	if (!opt.cycles_set)
		opt.cycles = 86400 / opt.every;
	int64_t t = ca_pool_clock(p), g0 = d.gen;
	if (opt.svg != NULL) {
		pl = plot_new("The pool, simulated", t, t + opt.cycles * opt.every);
		pic.panel[P_USERS] = plot_lines(pl, "Jobs running per user", "jobs", false);
		pic.panel[P_GROUPS] = plot_lines(pl, "Jobs running per accounting group", "jobs",
		    false);
		pic.panel[P_PRIOS] = plot_lines(pl, "Effective user priorities (lower is better)",
		    "priority", true);
		pic.panel[3] = plot_strips(pl, "Slot states");
	}
	if (ca_pool_dir_begin(&d, &err) < 0) {
		rc = fail(&err);
		goto out;
	}
	if (pl != NULL)
		sample(p, pl, t);
	for (int64_t k = 0; k < opt.cycles; k++) {
		int64_t a = t - opt.start, b = a + opt.every;
		char sname[64], ename[64];
		ca_pool_file f[2];
		ca_pool_stats cst;
		snprintf(sname, sizeof sname, "sim-%lld.ads", (long long)b);
		snprintf(ename, sizeof ename, "typing-%lld.ads", (long long)b);
		submissions(&s, a == 0 ? -1 : a, b, &f[1], sname);
		typing(&s, a, b, &f[0], ename);
		t += opt.every;
		rc = ca_pool_cycle(p, t, &f[0], f[0].n ? 1 : 0, &f[1], f[1].n ? 1 : 0, &d.sinks,
		    &cst, &err);
		ca_pool_file_clear(&f[0]);
		ca_pool_file_clear(&f[1]);
		if (rc < 0) {
			rc = fail(&err);
			goto out;
		}
		for (int i = 0; i < 2; i++)
			if (f[i].state == CA_PF_REJECTED)
				cli_err("%s: refused (%s)", f[i].name, f[i].why.msg);
		if (pl != NULL)
			sample(p, pl, t);
		if (cli_progress_due())
			cli_progress_line("%lld of %lld cycles, %zu jobs in the queue",
			    (long long)k + 1, (long long)opt.cycles, ca_pool_njobs(p));
		if (opt.commit_each && k + 1 < opt.cycles) {
			if (ca_pool_dir_commit(&d, p, d.gen + 1, NULL, 0, NULL, 0, &err) < 0 ||
			    ca_pool_dir_begin(&d, &err) < 0) {
				rc = fail(&err);
				goto out;
			}
		}
		int64_t shown = opt.commit_each ? d.gen + 1 : g0 + k + 1;
		if (opt.each) {
			fflush(d.sinks.history);
			snprintf(gen, sizeof gen, "%s/gen.%lld/history.ads", statedir,
			    (long long)d.newgen);
			tables(p, gen);
			printf("\n");
		} else if (!opt.quiet && (t - opt.start) % 3600 < opt.every)
			hourly(p, shown);
		fflush(stdout);
	}
	if (ca_pool_dir_commit(&d, p, opt.commit_each ? d.gen + 1 : g0 + opt.cycles, NULL, 0,
	    NULL, 0, &err) < 0) {
		rc = fail(&err);
		goto out;
	}
	if (!opt.each) {
		printf("\n");
		tables(p, NULL);
	}
	if (!opt.noreport) {
		printf("\n");
		report();
	}
	if (pl != NULL && write_svg(pl, t) < 0)
		cli_raise(EX_SYSTEM);
	rc = cli_finish();
out:
	plot_free(pl);
	pic_free();
	sim_free(&s);
	ca_pool_dir_close(&d);
	ca_pool_free(p);
	return rc;
}

/* -n 0 STATEDIR: the tables of a pool as it is. */
static int
show(void)
{
	ca_pool *p = ca_pool_new();
	ca_pool_dir d;
	ca_diag err;
	int rc;

	ca_pool_set_warn(p, warn, NULL);
	if (ca_pool_dir_open(&d, statedir, &err) < 0 || ca_pool_dir_load(&d, p, &err) < 0) {
		cli_err("%s: not a pool state directory (%s)", statedir, err.msg);
		cli_raise(EX_USAGE);
		rc = cli_finish();
	} else {
		cx = ca_pool_ctx(p);
		tables(p, NULL);
		if (!opt.noreport) {
			printf("\n");
			report();
		}
		rc = cli_finish();
	}
	ca_pool_dir_close(&d);
	ca_pool_free(p);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc;

	umask(022);
	cli_init(argc, argv, "pool-run");
	int first = cli_parse(&spec, argc, argv, option, NULL);
	int nargs = argc - first;
	if (opt.cycles_set && opt.cycles == 0 && nargs == 1) {
		statedir = argv[first];
		rc = show();
	} else {
		if (nargs != 2)
			cli_usage_error("give POOLDIR and STATEDIR (or -n 0 STATEDIR)");
		char path[PATH_MAX + 32];
		snprintf(path, sizeof path, "%s/pool.config", argv[first]);
		if (access(path, F_OK) < 0)
			cli_usage_error("%s: no pool.config", argv[first]);
		statedir = argv[first + 1];
		rc = run(argv[first]);
	}
	ca_intern_cleanup();
	return rc;
}
