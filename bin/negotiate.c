/* negotiate - run one negotiation cycle of an HTCondor pool: fair share by
 * effective user priority, job priorities, preemption, group quotas and
 * partitionable slots; write one match record per match.
 *
 * HTCondor's negotiator as its manual describes it (priorities in
 * negotiation and preemption, pie spins and slices, group accounting and
 * hierarchical group quotas, partitionable slots, consumption policies and
 * pslot preemption), its matchmaker where the manual is silent.
 * Deviations from HTCondor (each in the man page): priority preemption also
 * needs a better effective priority; Claimed/Idle slots are skipped;
 * leftover slots go to whoever has a positive remainder of a slice (the
 * manual's "until it runs out of machines"); subgroup quotas are scaled
 * when they oversubscribe their parent; nice users are negotiated after
 * everyone else; ranks compare as doubles; Submitter* attributes are
 * defined while the negotiator's own expressions are evaluated, not while
 * Requirements are; equal job priorities go by QDate, and cluster skipping
 * is by ClusterId, as the manual has them; a floor round gives up to the
 * floor. Not done: USE_GLOBAL_JOB_PRIOS, NEGOTIATOR_SUBMITTER_CONSTRAINT,
 * the time limits of a cycle.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "condor.h"
#include "classad.h"

static const cli_opt options[] = {
	{ CLI_LONG + 's', 0, "slots", CLI_ARG, "FILE",
	    "slot ads, as condor_status -long prints them (- stdin)" },
	{ CLI_LONG + 'j', 0, "jobs", CLI_ARG, "FILE",
	    "job ads, as condor_q -long prints them (- stdin);\n"
	    "only idle jobs (JobStatus 1) are negotiated" },
	{ CLI_LONG + 'a', 0, "accounting", CLI_ARG, "FILE",
	    "userprio-calc's accountant ads (priorities, factors)" },
	{ CLI_K_CONFIG, 'c', "config", CLI_ARG, "FILE",
	    "HTCondor configuration: PREEMPTION_REQUIREMENTS,\n"
	    "NEGOTIATOR_*, GROUP_QUOTA_*, SLOT_WEIGHT... (repeatable:\n"
	    "read in order, later wins)" },
	{ CLI_LONG + 'S', 0, "summary", CLI_OPTARG, "FILE",
	    "per submitter: priority, pie slice, matches, jobs left\n"
	    "idle and why; per group its quota (stderr, or FILE)" },
	{ CLI_LONG + 'x', 0, "explain", CLI_ARG, "JOBID",
	    "follow one job (ClusterId.ProcId) through the cycle,\n"
	    "on standard error" },
	CLI_OPT_IN('i'),
	CLI_OPT_OUT,
	CLI_OPT_GZIP,
	{ CLI_K_NOW, 0, "now", CLI_ARG, "EPOCH", "the time of the cycle (default: the clock)" },
	CLI_OPT_QUIET,
	CLI_OPT_HELP,
	CLI_END
};

static const cli_spec spec = {
	.synopsis =
	"usage: negotiate [-c CONFIG]... [--now EPOCH] --slots FILE --jobs FILE\n"
	"                 [--accounting FILE] [-i FORMAT] [-o FORMAT] [-z]\n"
	"                 [--summary[=FILE]] [--explain JOBID]\n",
	.about =
	"Run one negotiation cycle and write one match record per match (a Match\n"
	"event for startd-step): slot Name, JobId, Submitter, MatchReason\n"
	"(NoPreemption, Rank or Priority), JobRank, SlotRank, the preempted job and\n"
	"user, RemoteUserPrio and the job ad.\n",
	.opts = options,
	.footer =
	"Exit status: 0 a match was made, 1 none, 2 usage, 3 malformed input,\n"
	"4 system error.\n"
};

static struct {
	const char *slots, *jobs, *accounting;
	const char *summary_file;
	bool summary;
	const char *explain;
} opt;

static void
option(void *arg, int key, char *val)
{
	switch (key) {
	case CLI_LONG + 's': opt.slots = val; break;
	case CLI_LONG + 'j': opt.jobs = val; break;
	case CLI_LONG + 'a': opt.accounting = val; break;
	case CLI_LONG + 'S': opt.summary = true; opt.summary_file = val; break;
	case CLI_LONG + 'x': opt.explain = val; break;
	default: break;
	}
}

/* Read every ad of path into the negotiator; a bad ad is reported and the
 * rest read. Returns 0, or -1 when anything was wrong. */
static int
read_ads(ca_neg *neg, const char *path, bool slots)
{
	ca_reader *r = cli_open(path, cli_common.in);
	ca_ad *ad;
	bool bad = false;

	if (r == NULL)
		return -1;
	ca_reader_pack(r);	/* the whole pool is held */
	while (cli_next_ad(r, &ad, &bad))
		if (slots)
			ca_neg_add_slot(neg, ad);
		else {
			cli_job_warnings(ad, cli_display(path), ca_reader_ad_line(r));
			ca_neg_add_job(neg, ad);
		}
	ca_reader_close(r);
	return bad ? -1 : 0;
}

static int
configure(ca_neg *neg, ca_acct *acct)
{
	ca_config *cfg = ca_config_new();
	ca_diag err;
	int rc = 0;

	ca_config_set_subsys(cfg, "NEGOTIATOR");
	if (cli_load_configs(cfg) < 0) {
		ca_config_free(cfg);
		return -1;
	}
	cli_config_warnings(cfg, "NEGOTIATOR");
	if (ca_acct_policy_config(&acct->pol, cfg, &acct->arena, &err) < 0 ||
	    ca_neg_configure(neg, cfg, &err) < 0) {
		cli_diag(&err);
		rc = -1;
	} else
		cli_err_lines("", ca_neg_warnings(neg));
	ca_config_free(cfg);
	return rc;
}

static void
write_matches(ca_neg *neg)
{
	ca_writer *w = ca_writer_open(stdout, cli_common.out, cli_common.gzip);
	size_t n = ca_neg_nmatches(neg);
	bool failed = false;

	if (w == NULL)
		cli_die(EX_SYSTEM, "cannot start the output");
	for (size_t i = 0; i < n && !failed; i++) {
		ca_ad *ad = ca_neg_match_ad(neg, i);
		if (ca_writer_put(w, ad) < 0) {
			if (errno == EILSEQ) {
				/* a job the format cannot hold: that record is
				 * left out, the others still go */
				cli_err("match %zu: %s", i + 1, ca_writer_refusal(w));
				cli_raise(EX_INPUT);
			} else
				failed = true;
		}
		ca_ad_free(ad);
	}
	failed |= ca_writer_close(w) < 0;
	/* an error of stdout itself is reported once, by cli_finish */
	if (failed && !ferror(stdout)) {
		cli_err("writing output failed");
		cli_raise(EX_SYSTEM);
	}
}

static void
write_summary(ca_neg *neg)
{
	strbuf sb = STRBUF_INIT;
	FILE *fp = stderr;

	ca_neg_summary(neg, &sb);
	if (opt.summary_file != NULL && strcmp(opt.summary_file, "-") != 0) {
		fp = fopen(opt.summary_file, "w");
		if (fp == NULL) {
			cli_errat(opt.summary_file, 0, 0, "cannot write the summary: %s",
			    strerror(errno));
			cli_raise(EX_SYSTEM);
			strbuf_release(&sb);
			return;
		}
	} else if (opt.summary_file != NULL)
		fp = stdout;
	if (fp == stderr)	/* submitter names are the users' text */
		cli_write_safe(fp, sb.buf, sb.len);
	else
		fwrite(sb.buf, 1, sb.len, fp);
	if (fp != stderr && fp != stdout && fclose(fp) != 0) {
		cli_errat(opt.summary_file, 0, 0, "cannot write the summary: %s",
		    strerror(errno));
		cli_raise(EX_SYSTEM);
	}
	strbuf_release(&sb);
}

static void
write_account(ca_neg *neg)
{
	strbuf sb = STRBUF_INIT;

	ca_neg_account(neg, &sb);
	cli_write_safe(stderr, sb.buf, sb.len);
	strbuf_release(&sb);
}

/* A long cycle at a terminal says how far it is. */
static void
progress(void *arg, int spin, size_t jobs, size_t matches)
{
	(void)arg;
	if (cli_progress_due())
		cli_progress_line("pie spin %d: %zu jobs negotiated, %zu matches", spin, jobs,
		    matches);
}

int
main(int argc, char **argv)
{
	cli_init(argc, argv, "negotiate");
	int first = cli_parse(&spec, argc, argv, option, NULL);
	if (first < argc)
		cli_usage_error("unexpected argument '%s' (slots and jobs come with --slots "
		    "and --jobs)", argv[first]);
	if (opt.slots == NULL || opt.jobs == NULL)
		cli_usage_error("--slots FILE and --jobs FILE are both required");
	if (strcmp(opt.slots, "-") == 0 && strcmp(opt.jobs, "-") == 0)
		cli_usage_error("--slots and --jobs cannot both be standard input");
	if (opt.accounting != NULL && strcmp(opt.accounting, "-") == 0 &&
	    (strcmp(opt.slots, "-") == 0 || strcmp(opt.jobs, "-") == 0))
		cli_usage_error("only one input can be standard input");
	if (opt.explain != NULL && opt.explain[0] == '\0')
		cli_usage_error("--explain needs a job id (ClusterId.ProcId)");

	ca_ctx cx;
	ca_acct acct;
	ca_ctx_init(&cx);
	cx.now = cli_common.now;
	ca_acct_init(&acct);
	ca_neg *neg = ca_neg_new(&cx, &acct);
	if (opt.explain != NULL)
		ca_neg_explain(neg, opt.explain);

	if (configure(neg, &acct) < 0)
		goto done;
	if (opt.accounting != NULL) {
		ca_diag err;
		int rc = ca_acct_read(&acct, opt.accounting, &cx, cli_common.now, NULL, NULL, &err);
		if (rc < 0) {
			cli_diag(&err);
			goto done;
		}
		if (rc == 0) {
			cli_errat(opt.accounting, 0, 0, "no such accountant file");
			cli_raise(EX_SYSTEM);
			goto done;
		}
		/* leases of ceilings, floors and factors that ended by now */
		ca_acct_expire_leases(&acct, cli_common.now);
	}
	/* a partial pool would give wrong shares: any bad ad stops the cycle */
	int bad_slots = read_ads(neg, opt.slots, true);
	int bad_jobs = read_ads(neg, opt.jobs, false);
	if (bad_slots < 0 || bad_jobs < 0)
		goto done;

	ca_neg_on_progress(neg, progress, NULL);
	size_t matches = ca_neg_run(neg);
	cli_progress_end();
	write_matches(neg);
	if (opt.summary)
		write_summary(neg);
	if (opt.explain != NULL)
		write_account(neg);
	if (matches == 0)
		cli_raise(EX_NO);
done:
	ca_neg_free(neg);
	ca_acct_free(&acct);
	ca_ctx_free(&cx);
	ca_intern_cleanup();
	return cli_finish();
}
