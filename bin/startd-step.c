/* startd-step - the condor_startd's slot state machine as a filter and a
 * policy simulator: slot ads in, slot ads advanced to now (or a timeline) out.
 *
 * Spec: the seeds 000 (Condor manual 3.5.3-3.5.10) and 001 (condor_startd
 * Policy Configuration: states, activities, transitions 1-37, the expression
 * summary, partitionable and dynamic slots, the policy examples), the
 * reference notes on HTCondor's startd, and semantics.md.
 * Deviations from HTCondor (each in the man page): the seed's numbering
 * (its prose where its diagram differs); the vacate time running out moves
 * Vacating to Killing, as the seed says; benchmarks take a set time and are
 * off by default, as the seed says; no Cleaning activity; the policy is
 * evaluated at events, timers and steps instead of every POLLING_INTERVAL;
 * the starter's death after a hard kill is modelled by KILLING_TIMEOUT;
 * LoadAvg moves with CondorLoadAvg; the bookkeeping attributes of
 * lib/startd.h (Job, PreemptingJob, Eviction, ...) carry the state.
 * TODO: custom machine resources in slot types, COD claims, WANT_HOLD,
 * consumption policies, hibernation.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "condor.h"
#include "classad.h"

static const char usage_text[] =
"usage: startd-step [-c CONFIG]... [--now EPOCH] [-e EVENTS]... [-a] [-l LOG | -v]\n"
"                   [-i FORMAT] [-o FORMAT] [-z] [--state FILE | SLOTS...]\n"
"       startd-step --init [-c CONFIG]... [--now EPOCH] [-o FORMAT] [-z]\n"
"                   [--state FILE | MACHINES...]\n"
"       startd-step --until EPOCH --every SECONDS [-c CONFIG]... [--now EPOCH]\n"
"                   [-e EVENTS]... [-a] [-l LOG | -v] [--state FILE | SLOTS...]\n"
"       startd-step --why SLOT [-c CONFIG]... [--now EPOCH] [-e EVENTS]... [SLOTS...]\n"
"\n"
"Advance slot ads through the condor_startd's states and activities under a\n"
"policy: first the events (in time order), then every transition whose\n"
"expression holds, until each slot is stable at --now.\n"
"  -c, --config FILE       HTCondor-style policy configuration (repeatable;\n"
"                          later files override earlier ones)\n"
"  -e, --events FILE       events: ads with Name, Event and Time (repeatable);\n"
"                          negotiate's match records are Match events\n"
"  -a, --auto-claim        play the schedd: claim every match, start its job,\n"
"                          release the claim when the job exits\n"
"      --now EPOCH         the time to advance to (default: the clock)\n"
"  -l, --log FILE          append the transition log to FILE\n"
"  -v, --verbose           write the transition log to standard error\n"
"      --init              create the slots of the machines described\n"
"      --until EPOCH       timeline: step from --now to EPOCH ...\n"
"      --every SECONDS     ... every SECONDS, printing each slot at each step\n"
"      --why SLOT          explain SLOT's state after the step (instead of ads)\n"
"      --state FILE        read the slots from FILE and write them back to it\n"
"                          (atomically, under FILE.lock)\n"
"  -i, --input-format F    auto|long|new|json|xml (slots, machines and events)\n"
"  -o, --output-format F   long|new|json|xml (default: long)\n"
"  -z, --gzip              compress the output\n"
"  -h, --help              this text;  -V, --version  the version\n";

enum { OPT_NOW = 256, OPT_INIT, OPT_UNTIL, OPT_EVERY, OPT_WHY, OPT_STATE };

static const struct option longopts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "events", required_argument, NULL, 'e' },
	{ "auto-claim", no_argument, NULL, 'a' },
	{ "now", required_argument, NULL, OPT_NOW },
	{ "log", required_argument, NULL, 'l' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "init", no_argument, NULL, OPT_INIT },
	{ "until", required_argument, NULL, OPT_UNTIL },
	{ "every", required_argument, NULL, OPT_EVERY },
	{ "why", required_argument, NULL, OPT_WHY },
	{ "state", required_argument, NULL, OPT_STATE },
	{ "input-format", required_argument, NULL, 'i' },
	{ "output-format", required_argument, NULL, 'o' },
	{ "gzip", no_argument, NULL, 'z' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static struct {
	const char **configs;
	size_t nconfigs;
	const char **events;
	size_t nevents;
	bool auto_claim, verbose, init, timeline, gzip;
	const char *log, *why, *state;
	int64_t now, until, every;
	ca_format in, out;
	bool out_set;
	char **args;
	int nargs;
} opt = { .in = CA_FMT_AUTO, .out = CA_FMT_LONG };

static ca_config *cfg;
static ca_startd *sd;
static FILE *logfp;

/* ---- the log ---- */

/* Timeline mode collects the log lines of one step and prints them in time
 * order before the step's status lines. */
struct line {
	int64_t time;
	size_t seq;
	char *text;
};
static struct line *tl;
static size_t ntl, captl;

static void
put_time(strbuf *sb, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm) == NULL)
		strbuf_addf(sb, "%lld", (long long)t);
	else
		strbuf_addf(sb, "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
		    tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static void
log_rec(void *arg, const ca_slog *r)
{
	strbuf sb = STRBUF_INIT;

	(void)arg;
	put_time(&sb, r->time);
	if (r->num > 0)
		strbuf_addf(&sb, " %s %s/%s -> %s/%s [%d] %s\n", r->slot,
		    ca_sstate_name[r->from_state], ca_sact_name[r->from_act],
		    ca_sstate_name[r->to_state], ca_sact_name[r->to_act], r->num, r->cause);
	else
		strbuf_addf(&sb, " %s %s/%s: %s\n", r->slot, ca_sstate_name[r->from_state],
		    ca_sact_name[r->from_act], r->cause);
	if (logfp != NULL)
		fputs(sb.buf, logfp);
	if (opt.timeline) {
		if (ntl == captl) {
			captl = captl ? captl * 2 : 64;
			tl = ca_xreallocarray(tl, captl, sizeof *tl);
		}
		tl[ntl].time = r->time;
		tl[ntl].seq = ntl;
		tl[ntl].text = strbuf_detach(&sb, NULL);
		ntl++;
	}
	strbuf_release(&sb);
}

static int
line_cmp(const void *x, const void *y)
{
	const struct line *a = x, *b = y;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void
flush_lines(void)
{
	if (ntl == 0)
		return;
	qsort(tl, ntl, sizeof *tl, line_cmp);
	for (size_t i = 0; i < ntl; i++) {
		fputs(tl[i].text, stdout);
		free(tl[i].text);
	}
	ntl = 0;
}

static void
diag_cb(void *arg, const ca_diag *err)
{
	(void)arg;
	cli_diag(err);
}

/* The name of an input in messages. */
static const char *
display(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* ---- events ---- */

static ca_sevent *evs;		/* all events, in input order */
static ca_ad **evads;
static size_t nev;

/* Events by machine: an open hash of lower-cased machine names. */
struct bucket {
	char *key;
	size_t *idx;		/* into evs, in time order */
	size_t n, cap;
};
static struct bucket *bk;
static size_t nbk;

static uint32_t
hash_ci(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		h = (h ^ c) * 16777619u;
	}
	return h;
}

static struct bucket *
bucket_find(const char *key, bool create)
{
	if (nbk == 0)
		return NULL;
	for (size_t j = hash_ci(key) & (nbk - 1);; j = (j + 1) & (nbk - 1)) {
		if (bk[j].key == NULL) {
			if (!create)
				return NULL;
			bk[j].key = ca_xstrndup(key, strlen(key));
			return &bk[j];
		}
		if (strcasecmp(bk[j].key, key) == 0)
			return &bk[j];
	}
}

static void
read_events(void)
{
	size_t cap = 0;

	for (size_t f = 0; f < opt.nevents; f++) {
		ca_diag err;
		ca_reader *r = ca_reader_open(opt.events[f], opt.in, &err);
		if (r == NULL) {
			cli_diag(&err);
			continue;
		}
		ca_ad *ad;
		int rc;
		while ((rc = ca_reader_next(r, &ad, &err)) != 0) {
			if (rc < 0) {
				cli_diag(&err);
				continue;
			}
			if (nev == cap) {
				cap = cap ? cap * 2 : 64;
				evs = ca_xreallocarray(evs, cap, sizeof *evs);
				evads = ca_xreallocarray(evads, cap, sizeof *evads);
			}
			char why[300];
			int line = ca_reader_ad_line(r);
			if (ca_sevent_init(&evs[nev], ad, opt.now, why, sizeof why) < 0) {
				cli_errat(display(opt.events[f]), line, 1, "%s", why);
				cli_raise(EX_INPUT);
				ca_ad_free(ad);
				continue;
			}
			evs[nev].file = display(opt.events[f]);
			evs[nev].line = line;
			evs[nev].seq = (uint32_t)nev;
			evads[nev] = ad;
			nev++;
		}
		ca_reader_close(r);
	}
	/* index them by machine, each list in time order */
	nbk = 16;
	while (nbk < nev * 2 + 2)
		nbk *= 2;
	bk = ca_xcalloc(nbk, sizeof *bk);
	ca_sevent **order = ca_xcalloc(nev + 1, sizeof *order);
	for (size_t i = 0; i < nev; i++)
		order[i] = &evs[i];
	ca_sevent_sort(order, nev);
	strbuf tmp = STRBUF_INIT;
	for (size_t i = 0; i < nev; i++) {
		struct bucket *b = bucket_find(ca_sevent_machine(order[i], &tmp), true);
		if (b->n == b->cap) {
			b->cap = b->cap ? b->cap * 2 : 4;
			b->idx = ca_xreallocarray(b->idx, b->cap, sizeof *b->idx);
		}
		b->idx[b->n++] = (size_t)(order[i] - evs);
	}
	strbuf_release(&tmp);
	free(order);
}

/* The events for machine m, in time order (malloc'ed; *n set). */
static ca_sevent **
events_for(ca_smachine *m, size_t *n)
{
	ca_sevent **v = NULL;
	size_t k = 0, cap = 0;

	for (size_t i = 0; i < ca_smachine_nkeys(m); i++) {
		struct bucket *b = bucket_find(ca_smachine_key(m, i), false);
		if (b == NULL)
			continue;
		for (size_t j = 0; j < b->n; j++) {
			ca_sevent *ev = &evs[b->idx[j]];
			if (ev->taken)
				continue;
			ev->taken = true;
			if (k == cap) {
				cap = cap ? cap * 2 : 8;
				v = ca_xreallocarray(v, cap, sizeof *v);
			}
			v[k++] = ev;
		}
	}
	if (k > 1)
		ca_sevent_sort(v, k);
	*n = k;
	return v;
}

static void
report_unused(void)
{
	for (size_t i = 0; i < nev; i++) {
		ca_sevent *ev = &evs[i];
		if (ev->used)
			continue;
		if (ev->taken && ev->time > opt.now && !opt.timeline)
			continue;	/* reported as being in the future */
		if (ev->taken && opt.timeline && ev->time > opt.until)
			continue;
		cli_errat(ev->file, ev->line, 1, "no slot named %s (event %s)", ev->name,
		    ca_sevent_name[ev->kind]);
		cli_raise(EX_INPUT);
	}
}

static void
free_events(void)
{
	for (size_t i = 0; i < nev; i++)
		ca_ad_free(evads[i]);
	for (size_t i = 0; i < nbk; i++) {
		free(bk[i].key);
		free(bk[i].idx);
	}
	free(bk);
	free(evs);
	free(evads);
}

/* ---- output, to standard output or atomically to the state file ---- */

static FILE *outfp;
static ca_statefile state;	/* with --state: the new state file */
static ca_writer *writer;
static bool write_failed;
static bool slot_unwritable;	/* a slot could not be written as it is */

static void
out_open(ca_format fmt)
{
	ca_diag err;

	if (opt.state == NULL)
		outfp = stdout;
	else if (ca_statefile_begin(&state, opt.state, &err) < 0) {
		cli_diag(&err);
		exit(cli_finish());
	} else
		outfp = state.fp;
	size_t l = opt.state ? strlen(opt.state) : 0;
	bool gz = opt.gzip || (l > 3 && strcmp(opt.state + l - 3, ".gz") == 0);
	if ((writer = ca_writer_open(outfp, fmt, gz)) == NULL)
		cli_die(EX_SYSTEM, "cannot start the output");
}

static void
out_put(const ca_ad *ad)
{
	if (!write_failed && ca_writer_put(writer, ad) < 0) {
		if (errno == EILSEQ) {
			/* a slot the format cannot hold: an input problem;
			 * the state file is then not rewritten */
			cli_err("a slot: %s", ca_writer_refusal(writer));
			cli_raise(EX_INPUT);
			slot_unwritable = true;
			return;
		}
		write_failed = true;
		cli_err("writing %s failed: %s", opt.state ? state.tmp : "output",
		    strerror(errno));
		cli_raise(EX_SYSTEM);
	}
}

/* Finish the output; the state file is replaced only when commit is set
 * (nothing read was lost) and everything was written. */
static void
out_close(bool commit)
{
	ca_diag err;

	if (writer == NULL)
		return;
	if (ca_writer_close(writer) < 0 && !write_failed) {
		write_failed = true;
		cli_err("writing %s failed: %s", opt.state ? state.tmp : "output",
		    strerror(errno));
		cli_raise(EX_SYSTEM);
	}
	writer = NULL;
	if (opt.state == NULL)
		return;
	if (!commit || write_failed || slot_unwritable) {
		ca_statefile_abort(&state);
		if (!write_failed)
			cli_err("%s: not rewritten (a slot could not be read)", opt.state);
		return;
	}
	if (ca_statefile_commit(&state, &err) < 0)
		cli_diag(&err);
}

/* ---- the slots ---- */

static bool slots_lost;		/* a slot ad could not be read */
static bool why_found;
static strbuf whyout = STRBUF_INIT;

/* Step one machine and write (or explain) it. */
static bool
step_machine(ca_smachine *m)
{
	size_t n, next = 0;
	ca_sevent **v = events_for(m, &n);

	ca_startd_advance(sd, m, v, n, &next, opt.now);
	for (size_t i = next; i < n; i++) {
		cli_errat(v[i]->file, v[i]->line, 1, "event %s for %s at %lld is after --now "
		    "(%lld): not applied", ca_sevent_name[v[i]->kind], v[i]->name,
		    (long long)v[i]->time, (long long)opt.now);
	}
	free(v);
	if (opt.why != NULL) {
		if (ca_startd_why(sd, m, opt.why, &whyout) == 0)
			why_found = true;
		return false;
	}
	for (size_t i = 0; i < ca_smachine_count(m); i++) {
		const ca_ad *ad = ca_smachine_slot(m, i);
		if (ad != NULL)
			out_put(ad);
	}
	return false;
}

/* Called with each machine read; true when it keeps the machine. */
typedef bool (*machine_fn)(ca_smachine *m);

/* Read the slot ads of every input, handing each machine (its adjacent
 * ads) to fn. The format read is returned in *fmt. */
static void
read_slots(char **files, int nfiles, machine_fn fn, ca_format *fmt)
{
	ca_smachine *m = NULL;
	strbuf key = STRBUF_INIT, tmp = STRBUF_INIT;

	for (int f = 0; f < (nfiles ? nfiles : 1); f++) {
		const char *path = nfiles ? files[f] : "-";
		ca_diag err;
		ca_reader *r = ca_reader_open(path, opt.in, &err);
		if (r == NULL) {
			cli_diag(&err);
			slots_lost = true;
			continue;
		}
		ca_ad *ad;
		int rc;
		while ((rc = ca_reader_next(r, &ad, &err)) != 0) {
			if (rc < 0) {
				cli_diag(&err);
				slots_lost = true;
				continue;
			}
			const char *k = ca_startd_machine_key(ad, &tmp);
			if (m != NULL && strcasecmp(k, key.buf) != 0) {
				if (!fn(m))
					ca_smachine_free(m);
				m = NULL;
			}
			if (m == NULL) {
				m = ca_smachine_new(sd);
				strbuf_reset(&key);
				strbuf_adds(&key, k);
			}
			char why[300];
			if (ca_smachine_add(m, ad, opt.now, why, sizeof why) < 0) {
				cli_errat(display(path), ca_reader_ad_line(r), 1, "%s", why);
				cli_raise(EX_INPUT);
			}
		}
		if (fmt != NULL && f == 0)
			*fmt = ca_reader_format(r);
		ca_reader_close(r);
	}
	if (m != NULL && !fn(m))
		ca_smachine_free(m);
	strbuf_release(&key);
	strbuf_release(&tmp);
}

/* --init: the slots of each machine description. */
static void
init_machines(char **files, int nfiles)
{
	for (int f = 0; f < (nfiles ? nfiles : 1); f++) {
		const char *path = nfiles ? files[f] : "-";
		ca_diag err;
		ca_reader *r = ca_reader_open(path, opt.in, &err);
		if (r == NULL) {
			cli_diag(&err);
			slots_lost = true;
			continue;
		}
		ca_ad *ad;
		int rc;
		while ((rc = ca_reader_next(r, &ad, &err)) != 0) {
			if (rc < 0) {
				cli_diag(&err);
				slots_lost = true;
				continue;
			}
			ca_smachine *m = ca_smachine_new(sd);
			ca_diag cerr;
			int line = ca_reader_ad_line(r);
			if (ca_smachine_create(m, ad, opt.now, &cerr) < 0) {
				if (strcmp(cerr.file, "<machine>") == 0) {
					cerr.file = display(path);
					cerr.line = line;
					cerr.col = 1;
				}
				cli_diag(&cerr);
				slots_lost = true;
			} else
				for (size_t i = 0; i < ca_smachine_count(m); i++)
					out_put(ca_smachine_slot(m, i));
			ca_smachine_free(m);
			ca_ad_free(ad);
		}
		ca_reader_close(r);
	}
}

/* ---- the timeline ---- */

static ca_smachine **machines;
static size_t nmachines;

static bool
keep_machine(ca_smachine *m)
{
	machines = ca_xreallocarray(machines, nmachines + 1, sizeof *machines);
	machines[nmachines++] = m;
	return true;
}

static void
timeline(void)
{
	ca_sevent ***mev = ca_xcalloc(nmachines + 1, sizeof *mev);
	size_t *mn = ca_xcalloc(nmachines + 1, sizeof *mn), *next = ca_xcalloc(nmachines + 1,
	    sizeof *next);
	strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < nmachines; k++)
		mev[k] = events_for(machines[k], &mn[k]);
	for (int64_t t = opt.now;; t += opt.every) {
		if (t > opt.until)
			t = opt.until;
		for (size_t k = 0; k < nmachines; k++)
			ca_startd_advance(sd, machines[k], mev[k], mn[k], &next[k], t);
		flush_lines();
		for (size_t k = 0; k < nmachines; k++)
			for (size_t i = 0; i < ca_smachine_count(machines[k]); i++) {
				if (ca_smachine_slot(machines[k], i) == NULL)
					continue;
				strbuf_reset(&sb);
				put_time(&sb, t);
				strbuf_adds(&sb, "  ");
				ca_startd_status(sd, machines[k], i, &sb);
				strbuf_addc(&sb, '\n');
				fputs(sb.buf, stdout);
			}
		if (t >= opt.until)
			break;
	}
	strbuf_release(&sb);
	for (size_t k = 0; k < nmachines; k++)
		free(mev[k]);
	free(mev);
	free(mn);
	free(next);
}

/* ---- main ---- */

static void
load_config(void)
{
	ca_diag err;

	cfg = ca_config_new();
	ca_config_set_subsys(cfg, "STARTD");
	ca_startd_config_prepare(cfg);
	for (size_t i = 0; i < opt.nconfigs; i++)
		if (ca_config_load(cfg, opt.configs[i], &err) < 0) {
			cli_diag(&err);
			ca_config_free(cfg);
			exit(cli_finish());
		}
	if ((sd = ca_startd_new(cfg, &err)) == NULL) {
		cli_diag(&err);
		ca_config_free(cfg);
		exit(cli_finish());
	}
	ca_startd_set_log(sd, log_rec, NULL);
	ca_startd_set_diag(sd, diag_cb, NULL);
	ca_startd_set_auto_claim(sd, opt.auto_claim);
}

int
main(int argc, char **argv)
{
	int ch;
	bool now_set = false, until_set = false, every_set = false;

	cli_init(argc, argv, "startd-step");
	opt.configs = ca_xcalloc((size_t)argc + 1, sizeof *opt.configs);
	opt.events = ca_xcalloc((size_t)argc + 1, sizeof *opt.events);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":c:e:al:vi:o:zhV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			opt.configs[opt.nconfigs++] = optarg;
			break;
		case 'e':
			opt.events[opt.nevents++] = optarg;
			break;
		case 'a':
			opt.auto_claim = true;
			break;
		case OPT_NOW:
			opt.now = cli_now(optarg);
			now_set = true;
			break;
		case 'l':
			opt.log = optarg;
			break;
		case 'v':
			opt.verbose = true;
			break;
		case OPT_INIT:
			opt.init = true;
			break;
		case OPT_UNTIL:
			opt.until = cli_now(optarg);
			until_set = true;
			break;
		case OPT_EVERY:
			opt.every = cli_int("--every", optarg, 1, (int64_t)1 << 32);
			every_set = true;
			break;
		case OPT_WHY:
			opt.why = optarg;
			break;
		case OPT_STATE:
			opt.state = optarg;
			break;
		case 'i':
			opt.in = cli_format("-i", optarg, true);
			break;
		case 'o':
			opt.out = cli_format("-o", optarg, false);
			opt.out_set = true;
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
	opt.args = argv + optind;
	opt.nargs = argc - optind;
	opt.timeline = until_set || every_set;
	if (opt.timeline && !(until_set && every_set))
		cli_usage_error("a timeline needs both --until EPOCH and --every SECONDS");
	if (!now_set)
		opt.now = (int64_t)time(NULL);
	if (opt.timeline && opt.until < opt.now)
		cli_usage_error("--until %lld is before --now %lld", (long long)opt.until,
		    (long long)opt.now);
	if (opt.init && (opt.timeline || opt.why || opt.nevents))
		cli_usage_error("--init only creates slots (no --until, --why or -e)");
	if (opt.why && opt.timeline)
		cli_usage_error("--why explains one step: not with --until");
	if (opt.log && opt.verbose)
		cli_usage_error("choose one of -l FILE and -v");
	if (opt.state && opt.nargs > 0 && !opt.init)
		cli_usage_error("--state FILE holds the slots: no SLOTS arguments with it");
	if (opt.state && (strcmp(opt.state, "-") == 0 || opt.state[0] == '\0'))
		cli_usage_error("--state must name a file (it is rewritten in place)");
	int stdin_users = 0;
	for (size_t i = 0; i < opt.nevents; i++)
		stdin_users += strcmp(opt.events[i], "-") == 0;
	for (int i = 0; i < opt.nargs; i++)
		stdin_users += strcmp(opt.args[i], "-") == 0;
	if (opt.nargs == 0 && opt.state == NULL)
		stdin_users++;
	if (stdin_users > 1)
		cli_usage_error("standard input can feed only one of the slots and the events");

	load_config();
	if (opt.log != NULL && (logfp = fopen(opt.log, "a")) == NULL)
		cli_die(EX_SYSTEM, "cannot open the log %s: %s", opt.log, strerror(errno));
	if (opt.verbose)
		logfp = stderr;

	int lock = -1;
	char *state_arg[1];
	char **files = opt.args;
	int nfiles = opt.nargs;
	if (opt.state != NULL) {
		ca_diag err;
		if ((lock = ca_statefile_lock(opt.state, &err)) < 0) {
			cli_diag(&err);
			goto done;
		}
		if (!opt.init) {
			if (access(opt.state, F_OK) != 0) {
				cli_errat(opt.state, 0, 0,
				    "no such state file (--init creates one)");
				cli_raise(EX_SYSTEM);
				goto done;
			}
			state_arg[0] = (char *)opt.state;
			files = state_arg;
			nfiles = 1;
		}
	}
	read_events();
	if (opt.init) {
		out_open(opt.out);
		init_machines(files, nfiles);
		out_close(!slots_lost);
	} else if (opt.timeline) {
		ca_format fmt = CA_FMT_LONG;
		read_slots(files, nfiles, keep_machine, &fmt);
		timeline();
		if (opt.state != NULL) {
			out_open(opt.out_set ? opt.out : (fmt == CA_FMT_AUTO ? CA_FMT_LONG : fmt));
			for (size_t k = 0; k < nmachines; k++)
				for (size_t i = 0; i < ca_smachine_count(machines[k]); i++)
					if (ca_smachine_slot(machines[k], i) != NULL)
						out_put(ca_smachine_slot(machines[k], i));
			out_close(!slots_lost);
		}
		report_unused();
	} else if (opt.why != NULL) {
		read_slots(files, nfiles, step_machine, NULL);
		report_unused();
		if (why_found)
			fputs(whyout.buf, stdout);
		else {
			cli_err("no slot named %s", opt.why);
			cli_raise(EX_NO);
		}
	} else {
		ca_format fmt = opt.out;
		if (opt.state != NULL && !opt.out_set) {
			/* keep the state file's format: peek at it */
			ca_diag err;
			ca_reader *r = ca_reader_open(opt.state, opt.in, &err);
			ca_ad *ad;
			if (r != NULL && ca_reader_next(r, &ad, &err) == 1) {
				ca_ad_free(ad);
				fmt = ca_reader_format(r);
			}
			if (r != NULL)
				ca_reader_close(r);
		}
		out_open(fmt);
		read_slots(files, nfiles, step_machine, NULL);
		out_close(!slots_lost);
		report_unused();
	}
done:
	if (lock >= 0)
		ca_statefile_unlock(lock);
	for (size_t k = 0; k < nmachines; k++)
		ca_smachine_free(machines[k]);
	free(machines);
	flush_lines();
	free(tl);
	free_events();
	if (logfp != NULL && logfp != stderr && fclose(logfp) != 0) {
		cli_err("writing the log %s failed: %s", opt.log, strerror(errno));
		cli_raise(EX_SYSTEM);
	}
	ca_startd_free(sd);
	ca_config_free(cfg);
	ca_intern_cleanup();
	strbuf_release(&whyout);
	free(opt.configs);
	free(opt.events);
	return cli_finish();
}
