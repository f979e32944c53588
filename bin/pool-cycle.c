/* pool-cycle - one cycle of a pool that many users share, from its state
 * directory: submissions taken from their owners, a new generation committed.
 *
 * The pool itself is lib/condor/pool.h: the accountant, the startds, the
 * schedd, cron and the negotiator run as one cycle in memory; this program
 * adds the state directory, its lock and its spool (incoming/, events/),
 * under the trust model of pool-cycle(1): the submitter is the owner of the
 * submitted file, nothing in the spool is followed through a link, and a
 * file that is refused is set aside with its reason while the cycle goes on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "condor.h"
#include "classad.h"

enum { OPT_INIT = CLI_LONG };

static const cli_opt options[] = {
	{ OPT_INIT, 0, "init", CLI_NOARG, NULL,
	    "create STATEDIR for the pool described by POOLDIR" },
	CLI_OPT_NOW,
	{ 'v', 0, "verbose", CLI_NOARG, NULL, "say what the cycle did" },
	CLI_OPT_HELP,
	CLI_END
};

static const cli_spec spec = {
	"usage: pool-cycle --init [--now EPOCH] [-v] POOLDIR STATEDIR\n"
	"       pool-cycle [--now EPOCH] [-v] STATEDIR\n",
	"Run one scheduling cycle of a whole pool from its state directory: the\n"
	"accountant, the startds, the schedd, cron and the negotiator, then a new\n"
	"generation committed with one rename. See pool-cycle(1) for the trust model.\n",
	options,
	"Exit status: 0 done (or nothing to do), 2 usage, 4 a fault of the pool's own\n"
	"state or of the system (the committed state is as it was).\n",
	false
};

static struct {
	bool init, verbose;
} opt;

static void
option(void *arg, int key, char *val)
{
	switch (key) {
	case OPT_INIT: opt.init = true; break;
	case 'v': opt.verbose = true; break;
	default: break;
	}
}

static void
warn(void *arg, const ca_diag *d)
{
	cli_note(d);
}

static int
fail(const ca_diag *d, const char *what)
{
	cli_note(d);
	cli_err("%s; the committed state is left as it was", what);
	cli_raise(EX_SYSTEM);
	return cli_finish();
}

/* The configuration's warnings, as the programs of the pool print them. */
static void
config_warnings(ca_pool *p)
{
	const char *w = ca_pool_warnings(p);

	while (*w) {
		size_t l = strcspn(w, "\n");
		cli_err("%.*s", (int)l, w);
		w += l + (w[l] == '\n');
	}
	for (size_t i = 0; i < ca_pool_nclasses(p); i++)
		cli_config_warnings(ca_pool_class_config(p, i), "STARTD");
}

static int
init(const char *pooldir, const char *statedir)
{
	ca_pool *p = ca_pool_new();
	ca_diag err;

	ca_pool_set_warn(p, warn, NULL);
	if (ca_pool_dir_init(pooldir, statedir, cli_common.now, p, &err) < 0) {
		cli_note(&err);
		cli_raise(EX_SYSTEM);
	} else {
		config_warnings(p);
		if (opt.verbose)
			printf("pool-cycle: %s: %zu machine classes from %s at %lld\n", statedir,
			    ca_pool_nclasses(p), pooldir, (long long)cli_common.now);
	}
	ca_pool_free(p);
	return cli_finish();
}

static int
cycle(const char *statedir)
{
	ca_pool_dir d;
	ca_pool *p = ca_pool_new();
	ca_pool_file *ev = NULL, *subs = NULL;
	size_t nev = 0, nsub = 0;
	ca_pool_stats st;
	ca_diag err;
	int rc;
	const char *sync = getenv("POOL_SYNC");

	ca_pool_set_warn(p, warn, NULL);
	if (ca_pool_dir_open(&d, statedir, &err) < 0 || ca_pool_dir_load(&d, p, &err) < 0) {
		rc = fail(&err, "the cycle did not run");
		goto out;
	}
	d.sync = sync == NULL || strcmp(sync, "0") != 0;
	config_warnings(p);
	int64_t now = cli_common.now_set ? cli_common.now : (int64_t)time(NULL);
	int64_t prev = ca_pool_clock(p), jump = ca_pool_get_limits(p)->max_clock_jump;
	if (now <= prev) {
		if (opt.verbose)
			printf("pool-cycle: the pool is at %lld already: nothing to do\n",
			    (long long)prev);
		rc = cli_finish();
		goto out;
	}
	if (now - prev > jump) {
		cli_err("the clock (%lld) is %lld s past the pool's clock (%lld), more than "
		    "POOL_MAX_CLOCK_JUMP (%lld s): if the clock is right, catch up in steps "
		    "(pool-cycle --now %lld %s, again until the clock), or raise "
		    "POOL_MAX_CLOCK_JUMP in pool.config", (long long)now, (long long)(now - prev),
		    (long long)prev, (long long)jump, (long long)(prev + jump), statedir);
		cli_raise(EX_SYSTEM);
		rc = cli_finish();
		goto out;
	}
	if (ca_pool_dir_scan(&d, p, false, &ev, &nev, &err) < 0 ||
	    ca_pool_dir_scan(&d, p, true, &subs, &nsub, &err) < 0) {
		rc = fail(&err, "the spool could not be read");
		goto out;
	}
	/* the files the cycle refuses are set aside after it: remember the others */
	bool *was = ca_xcalloc(nev + nsub + 1, sizeof *was);
	for (size_t i = 0; i < nev; i++)
		was[i] = ev[i].state == CA_PF_REJECTED;
	for (size_t i = 0; i < nsub; i++)
		was[nev + i] = subs[i].state == CA_PF_REJECTED;
	if (ca_pool_dir_begin(&d, &err) < 0 ||
	    ca_pool_cycle(p, now, ev, nev, subs, nsub, &d.sinks, &st, &err) < 0) {
		free(was);
		rc = fail(&err, "the cycle failed");
		goto out;
	}
	for (size_t i = 0; i < nev + nsub; i++) {
		bool submit = i >= nev;
		ca_pool_file *f = submit ? &subs[i - nev] : &ev[i];
		if (f->state == CA_PF_REJECTED && !was[i] &&
		    ca_pool_dir_reject(&d, p, submit, f, &err) < 0) {
			free(was);
			rc = fail(&err, "a refused file could not be set aside");
			goto out;
		}
	}
	free(was);
	if (ca_pool_dir_commit(&d, p, d.gen + 1, ev, nev, subs, nsub, &err) < 0) {
		rc = fail(&err, "the commit failed");
		goto out;
	}
	if (opt.verbose)
		printf("pool-cycle: cycle %lld at %lld: %zu match%s, %zu job%s finished\n",
		    (long long)d.gen, (long long)now, st.matches, st.matches == 1 ? "" : "es",
		    st.exits, st.exits == 1 ? "" : "s");
	rc = cli_finish();
out:
	ca_pool_files_free(ev, nev);
	ca_pool_files_free(subs, nsub);
	ca_pool_dir_close(&d);
	ca_pool_free(p);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc;

	umask(022);
	cli_init(argc, argv, "pool-cycle");
	int first = cli_parse(&spec, argc, argv, option, NULL);
	int nargs = argc - first;
	if (opt.init && nargs != 2)
		cli_usage_error("--init needs POOLDIR and STATEDIR");
	if (!opt.init && nargs != 1)
		cli_usage_error("give one STATEDIR (or --init POOLDIR STATEDIR)");
	if (opt.init)
		rc = init(argv[first], argv[first + 1]);
	else
		rc = cycle(argv[first]);
	ca_intern_cleanup();
	return rc;
}
