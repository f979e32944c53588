/* schedd-step - the condor_schedd's side of a simulated pool: the job queue
 * brought up to date from match records, slot ads and job exits.
 *
 * startd-step plays the startd; this program plays the schedd
 * (lib/condor/schedd.h) and, with --exits, the jobs themselves. The default
 * mode takes the queue, the slots as startd-step left them, the cycle's
 * match records (negotiate) and the cycle's exit events (--exits), writes
 * the queue brought up to date (holds, releases and removals by the
 * periodic policies of the jobs and of the -c configuration included) and
 * appends every change to a job event log of ads named after HTCondor's
 * user-log events. --exits reads the slots at the start of a cycle and
 * writes the JobExit events of the jobs that finish their JobDuration by
 * --now, and StarterExit events for the jobs being vacated (a vacated job
 * leaves at once), that missed their deferral window, or that the --jobs
 * queue holds or removed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "condor.h"
#include "classad.h"

enum {
	OPT_JOBS = CLI_LONG, OPT_STATE, OPT_SUBMIT, OPT_HISTORY, OPT_EXITS, OPT_FIRST
};

static const cli_opt options[] = {
	{ CLI_K_CONFIG, 'c', "config", CLI_ARG, "FILE",
	    "HTCondor configuration: submit defaults, periodic\n"
	    "policies (repeatable; later files override)" },
	{ OPT_JOBS, 0, "jobs", CLI_ARG, "QUEUE",
	    "the job queue (job ads); the new queue goes to stdout;\n"
	    "with --exits, the queue its holds and removals come from" },
	{ OPT_STATE, 0, "state", CLI_ARG, "QUEUE",
	    "the same, rewritten in place (atomically, under\n"
	    "QUEUE.lock)" },
	{ 'm', 0, "matches", CLI_ARG, "FILE",
	    "negotiate's match records of this cycle (repeatable)" },
	{ 'e', 0, "events", CLI_ARG, "FILE",
	    "this cycle's JobExit and StarterExit events\n"
	    "(repeatable): a job whose JobExit is there finished" },
	{ OPT_SUBMIT, 0, "submit", CLI_ARG, "FILE",
	    "add the job ads of FILE to the queue (repeatable):\n"
	    "each ad a cluster of Queue jobs (default 1)" },
	{ OPT_FIRST, 0, "first-cluster", CLI_ARG, "N",
	    "new clusters are numbered from N at least" },
	{ 'l', 0, "log", CLI_ARG, "FILE", "append the job events (ads) to FILE" },
	{ OPT_HISTORY, 0, "history", CLI_ARG, "FILE",
	    "move completed and removed jobs to FILE (appended)" },
	{ OPT_EXITS, 0, "exits", CLI_NOARG, NULL,
	    "instead: write the JobExit events of the jobs that\n"
	    "finish their JobDuration by --now, and StarterExit\n"
	    "events for the jobs being vacated (or that missed\n"
	    "their deferral window, or are held or removed in\n"
	    "the --jobs queue), from the SLOTS" },
	{ CLI_K_NOW, 0, "now", CLI_ARG, "EPOCH", "the time of the step (default: the clock)" },
	CLI_OPT_IN('i'),
	CLI_OPT_OUT,
	CLI_OPT_GZIP,
	CLI_OPT_QUIET,
	CLI_OPT_HELP,
	CLI_END
};

static const cli_spec spec = {
	"usage: schedd-step [-c CONFIG]... [--now EPOCH] [-m MATCHES]... [-e EXITS]...\n"
	"                   [--submit JOBS]... [--first-cluster N] [-l LOG] [--history FILE]\n"
	"                   [-i FORMAT] [-o FORMAT] [-z] (--state QUEUE | --jobs QUEUE)\n"
	"                   [SLOTS...]\n"
	"       schedd-step --exits [--now EPOCH] [--jobs QUEUE] [-i FORMAT] [-o FORMAT]\n"
	"                   [SLOTS...]\n",
	"Bring a job queue up to date from what happened in the pool: the match\n"
	"records of negotiate, the slots as startd-step left them and the job exits.\n",
	options,
	NULL,
	false
};

static struct {
	const char *jobs, *state, *log, *history;
	ca_vec(const char *) matches, exits, submits;
	bool exits_mode;
	int64_t first_cluster;
	char **slots;
	int nslots;
} opt;

static void
option(void *arg, int key, char *val)
{
	switch (key) {
	case OPT_JOBS: opt.jobs = val; break;
	case OPT_STATE: opt.state = val; break;
	case 'm': *ca_vec_push(&opt.matches) = val; break;
	case 'e': *ca_vec_push(&opt.exits) = val; break;
	case OPT_SUBMIT: *ca_vec_push(&opt.submits) = val; break;
	case 'l': opt.log = val; break;
	case OPT_HISTORY: opt.history = val; break;
	case OPT_FIRST: opt.first_cluster = cli_int("--first-cluster", val, 1, INT32_MAX); break;
	case OPT_EXITS: opt.exits_mode = true; break;
	default: break;
	}
}

static void
check_usage(void)
{
	if (opt.exits_mode) {
		if (opt.state || opt.matches.n || opt.exits.n || opt.submits.n || opt.log ||
		    opt.history)
			cli_usage_error("--exits reads slots and a queue: no --state, -m, -e, "
			    "--submit, -l or --history with it");
		return;
	}
	if ((opt.jobs == NULL) == (opt.state == NULL))
		cli_usage_error("give the queue with --jobs QUEUE or --state QUEUE (one)");
	if (opt.state && (strcmp(opt.state, "-") == 0 || opt.state[0] == '\0'))
		cli_usage_error("--state must name a file (it is rewritten in place)");
	if (opt.log && opt.history && strcmp(opt.log, opt.history) == 0)
		cli_usage_error("-l and --history must be different files");
}

static ca_ctx cx;
static ca_schedd *queue;

struct read {
	ca_ad *ad;
	int line;
};

/* Every ad of path to the queue as what, once the whole file is read (its
 * errors first). false when something could not be read (reported). */
static bool
read_all(const char *path, int what)
{
	ca_vec(struct read) ads = CA_VEC_INIT;
	ca_reader *r = cli_open(path, cli_common.in);
	bool bad = false;
	ca_ad *ad;

	if (r == NULL)
		return false;
	ca_reader_pack(r);	/* the queue is held */
	while (cli_next_ad(r, &ad, &bad))
		*ca_vec_push(&ads) = (struct read){ ad, ca_reader_ad_line(r) };
	ca_reader_close(r);
	for (size_t i = 0; i < ads.n; i++) {
		if (what == CA_Q_JOB || what == CA_Q_SUBMIT)
			cli_job_warnings(ads.at[i].ad, cli_display(path), ads.at[i].line);
		ca_schedd_add(queue, what, ads.at[i].ad, cli_display(path), ads.at[i].line);
	}
	ca_vec_free(&ads);
	return !bad;
}

/* ---- output ---- */

static ca_writer *
open_writer(FILE *fp, bool gz)
{
	ca_writer *w = ca_writer_open(fp, cli_common.out, gz);

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
		char id[CA_JOBID_LEN + 4] = "job ";
		cli_err("%s: %s: %s", what,
		    ca_jobid(&cx, ad, id + 4, sizeof id - 4) ? id : "an ad", ca_writer_refusal(w));
		cli_raise(EX_INPUT);
		unwritable = true;
		return;
	}
	cli_err("writing %s failed", what);
	cli_raise(EX_SYSTEM);
}

/* An append-only file of ads (the event log, the history), opened when
 * the first ad comes. */
struct appender {
	const char *path;
	FILE *fp;
	ca_writer *w;
};
static struct appender evlog, history;

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

static void
log_cb(void *arg, const ca_ad *ev)
{
	app_put(&evlog, ev);
}

static void
diag_cb(void *arg, const ca_diag *err)
{
	cli_diag(err);
}

/* ---- --exits ---- */

static void
exits_mode(void)
{
	ca_writer *w = open_writer(stdout, cli_common.gzip);

	if (opt.jobs != NULL)
		read_all(opt.jobs, CA_Q_JOB);	/* whom the schedd holds or removed */
	/* one slot at a time: memory does not grow with the pool */
	for (int i = 0; i < (opt.nslots > 0 ? opt.nslots : 1); i++) {
		const char *path = opt.nslots > 0 ? opt.slots[i] : "-";
		ca_reader *r = cli_open(path, cli_common.in);
		ca_ad *ad, *ev;
		ca_diag err;

		if (r == NULL)
			continue;
		while (cli_next_ad(r, &ad, NULL)) {
			int rc = ca_schedd_slot_exit(queue, ad, &ev, &err);
			if (rc < 0) {
				err.file = cli_display(path);
				err.line = ca_reader_ad_line(r);
				cli_diag(&err);
			} else if (rc > 0) {
				put(w, ev, "output");
				ca_ad_free(ev);
			}
			ca_ad_free(ad);
		}
		ca_reader_close(r);
	}
	if (ca_writer_close(w) < 0) {
		cli_err("writing output failed");
		cli_raise(EX_SYSTEM);
	}
}

/* ---- the queue ---- */

/* Read the queue and what happened to it; false when an input could not
 * be read. */
static bool
read_inputs(void)
{
	bool ok = true;

	if (opt.state == NULL)
		ok &= read_all(opt.jobs, CA_Q_JOB);
	else {
		FILE *probe = fopen(opt.state, "r");
		if (probe != NULL) {
			fclose(probe);
			ok &= read_all(opt.state, CA_Q_JOB);
		}
	}
	for (int i = 0; i < opt.nslots; i++)
		ok &= read_all(opt.slots[i], CA_Q_SLOT);
	for (size_t i = 0; i < opt.exits.n; i++)
		ok &= read_all(opt.exits.at[i], CA_Q_EXIT);
	for (size_t i = 0; i < opt.matches.n; i++)
		ok &= read_all(opt.matches.at[i], CA_Q_MATCH);
	return ok;
}

/* Step every job: each goes to the new queue or to the history. */
static void
write_queue(void)
{
	const char *what = opt.state ? opt.state : "output";
	ca_statefile sf = { 0 };
	FILE *outfp = stdout;
	ca_diag err;

	if (opt.state != NULL) {
		if (ca_statefile_begin(&sf, opt.state, &err) < 0) {
			cli_diag(&err);
			return;
		}
		outfp = sf.fp;
	}
	size_t l = opt.state ? strlen(opt.state) : 0;
	ca_writer *w = open_writer(outfp, cli_common.gzip ||
	    (l > 3 && strcmp(opt.state + l - 3, ".gz") == 0));
	for (size_t i = 0; i < ca_schedd_count(queue); i++) {
		if (ca_schedd_step(queue, i))
			app_put(&history, ca_schedd_job(queue, i));
		else
			put(w, ca_schedd_job(queue, i), what);
	}
	if (ca_writer_close(w) < 0) {
		cli_err("writing %s failed", what);
		cli_raise(EX_SYSTEM);
	}
	app_close(&evlog);
	app_close(&history);
	if (opt.state != NULL) {
		if (cli_status >= EX_SYSTEM || unwritable) {
			if (unwritable)
				cli_err("%s: not rewritten (a job could not be written)",
				    opt.state);
			ca_statefile_abort(&sf);
		} else if (ca_statefile_commit(&sf, &err) < 0)
			cli_diag(&err);
	}
}

static void
queue_mode(void)
{
	int lockfd = -1;
	ca_diag err;

	if (opt.state != NULL && (lockfd = ca_statefile_lock(opt.state, &err)) < 0) {
		cli_diag(&err);
		return;
	}
	if (!read_inputs() && opt.state != NULL)
		cli_err("%s: not rewritten (an input could not be read)", opt.state);
	else {
		evlog.path = opt.log;
		history.path = opt.history;
		ca_schedd_set_history(queue, opt.history != NULL);
		for (size_t i = 0; i < opt.submits.n; i++)
			read_all(opt.submits.at[i], CA_Q_SUBMIT);
		write_queue();
	}
	ca_statefile_unlock(lockfd);
}

/* The schedd's configuration: HTCondor's defaults, then every -c file. */
static void
configure(void)
{
	ca_config *cfg = ca_config_new();
	ca_diag err;

	ca_config_set_subsys(cfg, "SCHEDD");
	ca_config_set_now(cfg, cli_common.now);
	if (cli_load_configs(cfg) < 0) {
		ca_config_free(cfg);
		exit(cli_finish());
	}
	cli_config_warnings(cfg, "SCHEDD");
	if (ca_schedd_configure(queue, cfg, &err) < 0) {
		cli_diag(&err);
		ca_config_free(cfg);
		exit(cli_finish());
	}
	ca_config_free(cfg);
}

int
main(int argc, char **argv)
{
	cli_init(argc, argv, "schedd-step");
	int first = cli_parse(&spec, argc, argv, option, NULL);
	opt.slots = argv + first;
	opt.nslots = argc - first;
	check_usage();
	ca_ctx_init(&cx);
	queue = ca_schedd_new(cli_common.now);
	configure();
	ca_schedd_set_log(queue, log_cb, NULL);
	ca_schedd_set_diag(queue, diag_cb, NULL);
	ca_schedd_set_first_cluster(queue, opt.first_cluster);
	if (opt.exits_mode)
		exits_mode();
	else
		queue_mode();
	ca_schedd_free(queue);
	ca_ctx_free(&cx);
	ca_vec_free(&opt.matches);
	ca_vec_free(&opt.exits);
	ca_vec_free(&opt.submits);
	ca_intern_cleanup();
	return cli_finish();
}
