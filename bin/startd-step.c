/* startd-step - the condor_startd's slot state machine as a filter and a
 * policy simulator: slot ads in, slot ads advanced to now (or a timeline) out.
 *
 * It follows the condor_startd of HTCondor's manual: its states and
 * activities, transitions 1-37, the policy expressions, partitionable and
 * dynamic slots and the example policies (lib/condor/startd.h).
 * Where it differs from HTCondor (each in the man page): the transitions are
 * numbered as the manual's prose numbers them where its diagram differs;
 * START locally FALSE ends a match or an idle claim, as the manual says;
 * the vacate time running out moves Vacating to Killing, as the manual says;
 * benchmarks take a set time, are off by default and are averaged; no
 * Cleaning activity; the policy is evaluated at events, timers, hooks and
 * at the very seconds the clocks change what it decides, instead of every
 * POLLING_INTERVAL, so one step far ahead makes the history of many small
 * ones; startd cron hooks take no simulated time; the starter's death after
 * a hard kill is modelled by KILLING_TIMEOUT; LoadAvg moves with
 * CondorLoadAvg; bookkeeping attributes (Job, PreemptingJob, Eviction,
 * StartdCronRuns, ...) carry the state from one run to the next.
 * Custom machine resources (GPUs) are laid out, carved and given back; no
 * discovery program runs. Not simulated: COD claims, the negotiator's
 * consumption policies, hibernation, resource monitors.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "condor.h"
#include "classad.h"
#include "par.h"

enum {
	OPT_INIT = CLI_LONG, OPT_UNTIL, OPT_EVERY, OPT_CHART, OPT_WHY, OPT_STATE, OPT_PARALLEL
};

static const cli_opt options[] = {
	{ CLI_K_CONFIG, 'c', "config", CLI_ARG, "FILE",
	    "HTCondor-style policy configuration (repeatable;\n"
	    "later files override earlier ones)" },
	{ 'e', 0, "events", CLI_ARG, "FILE",
	    "events: ads with Name, Event and Time (repeatable);\n"
	    "negotiate's match records are Match events" },
	{ 'a', 0, "auto-claim", CLI_NOARG, NULL,
	    "play the schedd: claim every match, start its job,\n"
	    "release the claim when the job exits" },
	{ CLI_K_NOW, 0, "now", CLI_ARG, "EPOCH", "the time to advance to (default: the clock)" },
	{ 'l', 0, "log", CLI_ARG, "FILE", "append the transition log to FILE" },
	{ 'v', 0, "verbose", CLI_NOARG, NULL, "write the transition log to standard error" },
	{ OPT_INIT, 0, "init", CLI_NOARG, NULL,
	    "create the slots of the machines described (or of a condor_status dump)" },
	{ OPT_UNTIL, 0, "until", CLI_ARG, "EPOCH", "timeline: step from --now to EPOCH ..." },
	{ OPT_EVERY, 0, "every", CLI_ARG, "SECONDS",
	    "... every SECONDS, printing each slot at each step" },
	{ OPT_CHART, 0, "chart", CLI_NOARG, NULL,
	    "timeline as a strip chart: a row per slot, a letter\n"
	    "per step for its state, instead of the lines" },
	{ OPT_WHY, 0, "why", CLI_ARG, "SLOT",
	    "explain SLOT's state after the step (instead of ads)" },
	{ OPT_STATE, 0, "state", CLI_ARG, "FILE",
	    "read the slots from FILE and write them back to it\n"
	    "(atomically, under FILE.lock)" },
	{ CLI_K_IN, 'i', "input-format", CLI_ARG, "FORMAT",
	    "auto|long|new|json|xml (slots, machines and events)" },
	{ OPT_PARALLEL, 0, "parallel", CLI_ARG, "N",
	    "step the slots of one long-format file in N processes\n"
	    "(default: one per processor, up to 8, for a file of\n"
	    "4 MB or more); the output is the same" },
	CLI_OPT_OUT,
	CLI_OPT_GZIP,
	CLI_OPT_QUIET,
	CLI_OPT_HELP,
	CLI_END
};

static const cli_spec spec = {
	"usage: startd-step [-c CONFIG]... [--now EPOCH] [-e EVENTS]... [-a] [-l LOG | -v]\n"
	"                   [-i FORMAT] [-o FORMAT] [-z] [--state FILE | SLOTS...]\n"
	"       startd-step --init [-c CONFIG]... [--now EPOCH] [-o FORMAT] [-z]\n"
	"                   [--state FILE | MACHINES...]\n"
	"       startd-step --until EPOCH --every SECONDS [-c CONFIG]... [--now EPOCH]\n"
	"                   [-e EVENTS]... [-a] [-l LOG | -v] [--state FILE | SLOTS...]\n"
	"       startd-step --why SLOT [-c CONFIG]... [--now EPOCH] [-e EVENTS]... [SLOTS...]\n",
	"Advance slot ads through the condor_startd's states and activities under a\n"
	"policy: first the events (in time order), then every transition whose\n"
	"expression holds, until each slot is stable at --now.\n",
	options,
	NULL,
	false
};

static struct {
	ca_vec(const char *) events;
	bool auto_claim, verbose, init, timeline, until_set, every_set, chart;
	const char *log, *why, *state;
	int64_t now, until, every;
	int parallel;		/* 0: by the file's size and the processors */
	char **files;		/* the slots (or machines) */
	int nfiles;
} opt;

static void
option(void *arg, int key, char *val)
{
	switch (key) {
	case 'e': *ca_vec_push(&opt.events) = val; break;
	case 'a': opt.auto_claim = true; break;
	case 'l': opt.log = val; break;
	case 'v': opt.verbose = true; break;
	case OPT_INIT: opt.init = true; break;
	case OPT_UNTIL: opt.until = cli_now(val); opt.until_set = true; break;
	case OPT_EVERY:
		opt.every = cli_int("--every", val, 1, (int64_t)1 << 32);
		opt.every_set = true;
		break;
	case OPT_CHART: opt.chart = true; break;
	case OPT_WHY: opt.why = val; break;
	case OPT_STATE: opt.state = val; break;
	case OPT_PARALLEL: opt.parallel = (int)cli_int("--parallel", val, 1, 64); break;
	default: break;
	}
}

/* The combinations of options that make no sense. */
static void
check_usage(void)
{
	opt.timeline = opt.until_set || opt.every_set;
	if (opt.timeline && !(opt.until_set && opt.every_set))
		cli_usage_error("a timeline needs both --until EPOCH and --every SECONDS");
	if (opt.chart && !opt.timeline)
		cli_usage_error("--chart draws a timeline: give --until EPOCH and --every SECONDS");
	if (opt.timeline && opt.until < opt.now)
		cli_usage_error("--until %lld is before --now %lld", (long long)opt.until,
		    (long long)opt.now);
	if (opt.parallel > 1 && (opt.init || opt.timeline || opt.why))
		cli_usage_error("--parallel steps a stream of slots: not with --init, --until or --why");
	if (opt.init && (opt.timeline || opt.why || opt.events.n))
		cli_usage_error("--init only creates slots (no --until, --why or -e)");
	if (opt.why && opt.timeline)
		cli_usage_error("--why explains one step: not with --until");
	if (opt.log && opt.verbose)
		cli_usage_error("choose one of -l FILE and -v");
	if (opt.state && opt.nfiles > 0 && !opt.init)
		cli_usage_error("--state FILE holds the slots: no SLOTS arguments with it");
	if (opt.state && (strcmp(opt.state, "-") == 0 || opt.state[0] == '\0'))
		cli_usage_error("--state must name a file (it is rewritten in place)");
	int stdin_users = opt.nfiles == 0 && opt.state == NULL;
	for (size_t i = 0; i < opt.events.n; i++)
		stdin_users += strcmp(opt.events.at[i], "-") == 0;
	for (int i = 0; i < opt.nfiles; i++)
		stdin_users += strcmp(opt.files[i], "-") == 0;
	if (stdin_users > 1)
		cli_usage_error("standard input can feed only one of the slots and the events");
}

static ca_config *cfg;
static ca_startd *sd;
static ca_sevents *events;
static FILE *logfp;

/* ---- the log ---- */

/* Timeline mode collects the log lines of one step and prints them in time
 * order before the step's status lines. */
struct line {
	int64_t time;
	size_t seq;
	char *text;
};
static ca_vec(struct line) lines;

static void
log_rec(void *arg, const ca_slog *r)
{
	strbuf sb = STRBUF_INIT;

	ca_slog_format(r, &sb);
	if (logfp != NULL)
		fputs(sb.buf, logfp);
	if (opt.timeline && !opt.chart)
		*ca_vec_push(&lines) = (struct line){ r->time, lines.n,
		    strbuf_detach(&sb, NULL) };
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
	if (lines.n > 0)
		qsort(lines.at, lines.n, sizeof *lines.at, line_cmp);
	for (size_t i = 0; i < lines.n; i++) {
		fputs(lines.at[i].text, stdout);
		free(lines.at[i].text);
	}
	lines.n = 0;
}

/* A problem of the configuration; status 0: a warning (a hook that failed
 * or printed something wrong), which leaves the exit status alone. */
static void
diag_cb(void *arg, const ca_diag *err)
{
	if (err->status == 0)
		cli_errat(err->file, err->line, err->col, "warning: %s", err->msg);
	else
		cli_diag(err);
}

/* ---- events ---- */

static void
read_events(void)
{
	events = ca_sevents_new();
	for (size_t f = 0; f < opt.events.n; f++) {
		ca_reader *r = cli_open(opt.events.at[f], cli_common.in);
		ca_ad *ad;
		ca_diag err;

		if (r == NULL)
			continue;
		while (cli_next_ad(r, &ad, NULL))
			if (ca_sevents_add(events, ad, opt.now, cli_display(opt.events.at[f]),
			    ca_reader_ad_line(r), &err) < 0) {
				cli_diag(&err);
				ca_ad_free(ad);
			}
		ca_reader_close(r);
	}
}

/* Events that found no slot: an event after the step's time is reported
 * when the step leaves it out. */
static void
report_unused(void)
{
	for (size_t i = 0; i < ca_sevents_count(events); i++) {
		const ca_sevent *ev = ca_sevents_at(events, i);
		if (ev->used)
			continue;
		if (ev->taken && ev->time > (opt.timeline ? opt.until : opt.now))
			continue;
		cli_errat(ev->file, ev->line, 1, "no slot named %s (event %s)", ev->name,
		    ca_sevent_name[ev->kind]);
		cli_raise(EX_INPUT);
	}
}

/* ---- output, to standard output or atomically to the state file ---- */

static ca_statefile state;	/* with --state: the new state file */
static ca_writer *writer;
static bool write_failed;
static bool slot_unwritable;	/* a slot could not be written as it is */

static void
out_open(ca_format fmt)
{
	FILE *fp = stdout;
	ca_diag err;

	if (opt.state != NULL) {
		if (ca_statefile_begin(&state, opt.state, &err) < 0) {
			cli_diag(&err);
			exit(cli_finish());
		}
		fp = state.fp;
	}
	size_t l = opt.state ? strlen(opt.state) : 0;
	bool gz = cli_common.gzip || (l > 3 && strcmp(opt.state + l - 3, ".gz") == 0);
	if ((writer = ca_writer_open(fp, fmt, gz)) == NULL)
		cli_die(EX_SYSTEM, "cannot start the output");
}

static void
write_failure(void)
{
	write_failed = true;
	cli_err("writing %s failed: %s", opt.state ? state.tmp : "output", strerror(errno));
	cli_raise(EX_SYSTEM);
}

static void
out_put(const ca_ad *ad)
{
	if (write_failed || ca_writer_put(writer, ad) == 0)
		return;
	if (errno == EILSEQ) {
		/* a slot the format cannot hold: an input problem; the state
		 * file is then not rewritten */
		cli_err("a slot: %s", ca_writer_refusal(writer));
		cli_raise(EX_INPUT);
		slot_unwritable = true;
	} else
		write_failure();
}

/* Every slot of machine m. */
static void
out_machine(const ca_smachine *m)
{
	for (size_t i = 0; i < ca_smachine_count(m); i++)
		if (ca_smachine_slot(m, i) != NULL)
			out_put(ca_smachine_slot(m, i));
}

/* Finish the output; the state file is replaced only when commit is set
 * (nothing read was lost) and everything was written. */
static void
out_close(bool commit)
{
	ca_diag err;

	if (writer == NULL)
		return;
	if (ca_writer_close(writer) < 0 && !write_failed)
		write_failure();
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
	ca_sevent **v = ca_sevents_take(events, m, &n);

	ca_startd_advance(sd, m, v, n, &next, opt.now);
	for (size_t i = next; i < n; i++)
		cli_errat(v[i]->file, v[i]->line, 1, "event %s for %s at %lld is after --now "
		    "(%lld): not applied", ca_sevent_name[v[i]->kind], v[i]->name,
		    (long long)v[i]->time, (long long)opt.now);
	free(v);
	if (opt.why == NULL)
		out_machine(m);
	else if (ca_startd_why(sd, m, opt.why, &whyout) == 0)
		why_found = true;
	return false;
}

/* Names a slot stepped gets room for as it is read: the policy the startd
 * publishes into it and a claim's attributes, added to every slot of a
 * dump; so its table need not move to take them. */
#define SLOT_ROOM	32

/* Called with each machine read; true when it keeps the machine. */
typedef bool (*machine_fn)(ca_smachine *m);

/* The slot ads, or machine descriptions, of every input: files, else
 * standard input. fn(ad, path, line) gets each ad read. */
static void
read_ads(void (*fn)(ca_ad *ad, const char *path, int line), ca_format *fmt, uint32_t room)
{
	for (int f = 0; f < (opt.nfiles ? opt.nfiles : 1); f++) {
		const char *path = opt.nfiles ? opt.files[f] : "-";
		ca_reader *r = cli_open(path, cli_common.in);
		ca_ad *ad;

		if (r == NULL) {
			slots_lost = true;
			continue;
		}
		ca_reader_room(r, room);
		while (cli_next_ad(r, &ad, &slots_lost))
			fn(ad, path, ca_reader_ad_line(r));
		if (fmt != NULL && f == 0)
			*fmt = ca_reader_format(r);
		ca_reader_close(r);
	}
}

/* Slot ads go to machines: adjacent ads of one machine are stepped together. */
static ca_smachine *machine;
static strbuf machine_key = STRBUF_INIT;
static machine_fn machine_done;

static void
add_slot(ca_ad *ad, const char *path, int line)
{
	const char *k = ca_startd_machine_key(ad);
	ca_diag err;

	if (machine != NULL && strcasecmp(k, machine_key.buf) != 0) {
		if (!machine_done(machine))
			ca_smachine_free(machine);
		machine = NULL;
	}
	if (machine == NULL) {
		machine = ca_smachine_new(sd);
		strbuf_reset(&machine_key);
		strbuf_adds(&machine_key, k);
	}
	if (ca_smachine_add(machine, ad, opt.now, &err) < 0) {
		err.file = cli_display(path);
		err.line = line;
		err.col = 1;
		cli_diag(&err);
	}
}

/* The input ended: its last machine is handed over too. */
static void
slots_end(void)
{
	if (machine != NULL && !machine_done(machine))
		ca_smachine_free(machine);
	machine = NULL;
	strbuf_release(&machine_key);
}

/* Read the slots, handing each machine to fn; the format read in *fmt. */
static void
read_slots(machine_fn fn, ca_format *fmt)
{
	machine_done = fn;
	read_ads(add_slot, fmt, fn == step_machine ? SLOT_ROOM : 0);
	slots_end();
}

/* --init: the slots of a machine description. */
static void
init_machine(ca_ad *ad, const char *path, int line)
{
	ca_smachine *m = ca_smachine_new(sd);
	ca_diag err;

	if (ca_smachine_create(m, ad, opt.now, &err) < 0) {
		if (err.file == NULL) {
			err.file = cli_display(path);
			err.line = line;
			err.col = 1;
		}
		cli_diag(&err);
		slots_lost = true;
	} else
		out_machine(m);
	ca_smachine_free(m);
	ca_ad_free(ad);
}

/* --init reads machine descriptions and slot ads of a condor_status -long
 * dump, in any mix: a description makes its machine at once (memory does
 * not grow with them); the slot ads of one Machine (wherever they are in
 * the input) are held, and make one machine after the described ones. */
struct init_item {
	ca_vec(ca_ad *) slots;		/* the slots of a machine of the dump */
	const char *path;
	int line;
};
static ca_vec(struct init_item) init_items;
static ca_dict init_index;		/* the machines of the dump by host, any case */

static uint64_t
host_hash(const char *k)
{
	uint64_t h = 0;

	for (; *k; k++)
		h = ca_hash_mix(h, (unsigned char)tolower((unsigned char)*k));
	return h;
}

static void
init_add(ca_ad *ad, const char *path, int line)
{
	struct init_item *it;

	if (ca_startd_is_slot_ad(ad)) {
		const char *k = ca_startd_machine_key(ad);
		uint64_t h = host_hash(k);
		ca_dict_it di;
		for (uint32_t i = ca_dict_first(&init_index, h, &di); i != CA_DICT_NONE;
		    i = ca_dict_next(&init_index, &di)) {
			it = &init_items.at[i];
			if (strcasecmp(ca_startd_machine_key(it->slots.at[0]), k) == 0) {
				*ca_vec_push(&it->slots) = ad;
				return;
			}
		}
		ca_dict_add(&init_index, h, (uint32_t)init_items.n);
		it = ca_vec_push(&init_items);
		memset(it, 0, sizeof *it);
		it->path = path;
		it->line = line;
		*ca_vec_push(&it->slots) = ad;
	} else
		init_machine(ad, path, line);
}

static void
init_all(void)
{
	strbuf warn = STRBUF_INIT;

	for (size_t i = 0; i < init_items.n; i++) {
		struct init_item *it = &init_items.at[i];
		strbuf_reset(&warn);
		ca_ad *desc = ca_startd_dump_machine(sd, it->slots.at, it->slots.n, &warn);
		for (char *p = warn.buf, *e; p != NULL && *p; p = e + 1) {
			e = strchr(p, '\n');
			*e = '\0';
			ca_diag w;
			ca_diag_set(&w, CA_EX_INPUT, cli_display(it->path), it->line, 0, "warning: %s", p);
			cli_note(&w);
		}
		for (size_t k = 0; k < it->slots.n; k++)
			ca_ad_free(it->slots.at[k]);
		ca_vec_free(&it->slots);
		init_machine(desc, it->path, it->line);
	}
	ca_vec_free(&init_items);
	ca_dict_free(&init_index);
	strbuf_release(&warn);
}

/* ---- the slots of a large file on several cores ----
 *
 * The machines of a file are stepped apart from each other, but for what
 * they share: an event goes to the first machine that takes it, and a
 * problem of the configuration is told once. A part (par.c) stepped by a
 * worker tells the parent which events it took or used and which problems
 * it told; a part that took an event or told a problem that a part before
 * it already had cannot stand, and is stepped again by the parent. */

enum { EV_TAKEN = 1, EV_USED = 2 };
enum { PART_LOST = 1, PART_UNWRITABLE = 2, PART_WRITE_FAILED = 4 };
static unsigned char *ev_known;	/* a worker's events as its last part left them */

static size_t
part_run(void *arg, ca_reader *r, const char *path, strbuf *out, strbuf *st)
{
	ca_writer *own = writer;
	size_t told = ca_startd_reported_count(sd), ads = 0;
	ca_ad *ad;

	if (out != NULL)
		writer = ca_writer_open_buf(out, CA_FMT_LONG);
	machine_done = step_machine;
	ca_reader_room(r, SLOT_ROOM);
	while (cli_next_ad(r, &ad, &slots_lost)) {
		add_slot(ad, path, ca_reader_ad_line(r));
		ads++;
	}
	slots_end();	/* a part ends between machines */
	if (out != NULL) {
		if (ca_writer_close(writer) < 0 && !write_failed)
			write_failure();
		writer = own;
	}
	if (st == NULL)
		return ads;
	strbuf_addc(st, (char)((slots_lost ? PART_LOST : 0) |
	    (slot_unwritable ? PART_UNWRITABLE : 0) | (write_failed ? PART_WRITE_FAILED : 0)));
	uint32_t n = 0;
	size_t at = st->len;
	strbuf_add(st, (const char *)&n, sizeof n);
	for (size_t i = 0; i < ca_sevents_count(events); i++) {
		const ca_sevent *ev = ca_sevents_at(events, i);
		unsigned char now = (ev->taken ? EV_TAKEN : 0) | (ev->used ? EV_USED : 0);
		if (now == ev_known[i])
			continue;
		ev_known[i] = now;
		uint32_t k = (uint32_t)i;
		strbuf_add(st, (const char *)&k, sizeof k);
		strbuf_addc(st, (char)now);
		n++;
	}
	memcpy(st->buf + at, &n, sizeof n);
	for (size_t i = told; i < ca_startd_reported_count(sd); i++) {
		const char *knob = ca_startd_reported_at(sd, i);
		strbuf_add(st, knob, strlen(knob) + 1);
	}
	return ads;
}

static bool
told_already(const char *knob)
{
	for (size_t i = 0; i < ca_startd_reported_count(sd); i++)
		if (strcasecmp(ca_startd_reported_at(sd, i), knob) == 0)
			return true;
	return false;
}

/* A worker's part: it stands unless it took an event or told a problem
 * that a part before it had; then its effects become this process's. */
static bool
part_merge(void *arg, const char *st, size_t len)
{
	uint32_t n;
	const size_t rec = sizeof(uint32_t) + 1;

	if (len < 1 + sizeof n)
		return false;
	memcpy(&n, st + 1, sizeof n);
	const char *evs = st + 1 + sizeof n, *knobs = evs + (size_t)n * rec, *end = st + len;
	if ((size_t)(end - evs) / rec < n)
		return false;
	for (int apply = 0; apply < 2; apply++) {
		for (uint32_t j = 0; j < n; j++) {
			uint32_t i;
			memcpy(&i, evs + j * rec, sizeof i);
			unsigned char f = (unsigned char)evs[j * rec + sizeof i];
			if (i >= ca_sevents_count(events))
				return false;
			if (!apply && (f & EV_TAKEN) && ca_sevents_at(events, i)->taken)
				return false;
			if (apply)
				ca_sevents_mark(events, i, f & EV_TAKEN, f & EV_USED);
		}
		for (const char *k = knobs; k < end; k += strlen(k) + 1) {
			if (memchr(k, '\0', (size_t)(end - k)) == NULL)
				return false;
			if (!apply && told_already(k))
				return false;
			if (apply)
				ca_startd_mark_reported(sd, k);
		}
	}
	slots_lost |= (st[0] & PART_LOST) != 0;
	slot_unwritable |= (st[0] & PART_UNWRITABLE) != 0;
	write_failed |= (st[0] & PART_WRITE_FAILED) != 0;
	return true;
}

static void
part_write(void *arg, const char *text, size_t n)
{
	if (!write_failed && ca_writer_put_text(writer, text, n) < 0)
		write_failure();
}

/* Step the slots of one long-format file on several cores, when it is
 * large enough and nothing shared forbids it: true when done. When
 * --parallel asked for it and it cannot be, a warning says why. */
static bool
step_parallel(ca_format fmt)
{
	static const par_ops ops = { ca_startd_machine_key, part_run, part_merge, part_write };
	const char *why = NULL;
	int rc = 0;

	if (opt.nfiles > 1)
		why = "the slots are in more than one file";
	else if (logfp != NULL)
		why = "the transition log is written in order (-l, -v)";
	else if (fmt != CA_FMT_LONG && fmt != CA_FMT_AUTO)
		why = "the output is not the long format";
	else if (ca_startd_runs_programs(sd))
		why = "the policy runs programs (startd cron hooks, benchmarks)";
	else {
		ev_known = ca_xcalloc(ca_sevents_count(events) + 1, 1);
		rc = par_run(opt.nfiles ? opt.files[0] : "-", opt.parallel, &ops, NULL, &why);
		free(ev_known);
		ev_known = NULL;
	}
	if (rc == 0 && opt.parallel > 1)
		cli_err("warning: --parallel %d: the slots are stepped in one process: %s",
		    opt.parallel, why);
	if (rc < 0)
		slots_lost = true;
	return rc != 0;
}

/* ---- the timeline ---- */

static ca_vec(ca_smachine *) machines;

static bool
keep_machine(ca_smachine *m)
{
	*ca_vec_push(&machines) = m;
	return true;
}

/*
 * The strip chart: a row per slot (dynamic slots get theirs when they
 * appear, blank before and after), a column per step, the letter of the
 * slot's state and activity at the end of the step. What happened between
 * two steps does not show: the transition log (-l, -v) has it.
 */
static const struct {
	const char *state, *act;
	char c;
	const char *what;
} letters[] = {
	{ "Owner", NULL, 'O', "Owner" },
	{ "Unclaimed", "Benchmarking", 'b', "Unclaimed/Benchmarking" },
	{ "Unclaimed", NULL, '.', "Unclaimed" },
	{ "Matched", NULL, 'M', "Matched" },
	{ "Claimed", "Idle", 'i', "Claimed/Idle" },
	{ "Claimed", "Busy", '#', "Claimed/Busy" },
	{ "Claimed", "Suspended", 's', "Claimed/Suspended" },
	{ "Claimed", "Retiring", 'r', "Claimed/Retiring" },
	{ "Preempting", "Vacating", 'v', "Preempting/Vacating" },
	{ "Preempting", "Killing", 'k', "Preempting/Killing" },
	{ "Backfill", NULL, 'f', "Backfill" },
	{ "Drained", NULL, 'D', "Drained" },
};
#define NLETTERS (sizeof letters / sizeof letters[0])

struct row {
	char *name;
	ca_vec(char) cells;
};
static ca_vec(struct row) rows;
static ca_dict row_index;
static bool letter_used[NLETTERS];

static struct row *
chart_row(const char *name)
{
	uint64_t h = ca_hash_bytes(0, name, strlen(name));
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&row_index, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&row_index, &it))
		if (strcmp(rows.at[i].name, name) == 0)
			return &rows.at[i];
	ca_dict_add(&row_index, h, (uint32_t)rows.n);
	struct row *r = ca_vec_push(&rows);
	*r = (struct row){ ca_xstrndup(name, strlen(name)), CA_VEC_INIT };
	return r;
}

static char
chart_letter(ca_ctx *cx, const ca_ad *slot)
{
	const char *st = NULL, *act = NULL;

	ca_get_str(cx, slot, "State", &st, NULL);
	ca_get_str(cx, slot, "Activity", &act, NULL);
	for (size_t k = 0; st != NULL && k < NLETTERS; k++)
		if (strcmp(st, letters[k].state) == 0 && (letters[k].act == NULL ||
		    (act != NULL && strcmp(act, letters[k].act) == 0))) {
			letter_used[k] = true;
			return letters[k].c;
		}
	return '?';
}

/* Column col of the chart: every slot's letter now. */
static void
chart_step(ca_ctx *cx, size_t col)
{
	for (size_t k = 0; k < machines.n; k++)
		for (size_t i = 0; i < ca_smachine_count(machines.at[k]); i++) {
			const ca_ad *slot = ca_smachine_slot(machines.at[k], i);
			const char *name = NULL;
			if (slot == NULL || ca_get_str(cx, slot, "Name", &name, NULL) != 1)
				continue;
			struct row *r = chart_row(name);
			while (r->cells.n < col)
				*ca_vec_push(&r->cells) = ' ';
			*ca_vec_push(&r->cells) = chart_letter(cx, slot);
			ca_arena_reset(&cx->scratch);
		}
}

/* The chart: the span, a time axis (a mark every ten columns, with the
 * clock time there in the log's time zone), the rows, the legend. */
static void
chart_print(size_t ncols)
{
	int width = 4;
	strbuf sb = STRBUF_INIT, axis = STRBUF_INIT;
	/* from the log's "YYYY-MM-DD HH:MM:SS": seconds, minutes or days */
	size_t from = opt.every < 86400 ? 11 : 5;
	size_t len = opt.every < 60 ? 8 : 5;

	for (size_t i = 0; i < rows.n; i++)
		if ((int)strlen(rows.at[i].name) > width)
			width = (int)strlen(rows.at[i].name);
	ca_startd_time(&sb, opt.now);
	strbuf_adds(&sb, " to ");
	ca_startd_time(&sb, opt.until);
	printf("%-*s %s, a column every %lld s\n", width, "", sb.buf, (long long)opt.every);
	for (size_t c = 0; c < ncols; c += 10) {
		strbuf_reset(&sb);
		ca_startd_time(&sb, opt.now + (int64_t)c * opt.every);
		while (axis.len < c)
			strbuf_addc(&axis, ' ');
		strbuf_addc(&axis, '|');
		if (sb.len >= from + len)
			strbuf_add(&axis, sb.buf + from, len);
	}
	printf("%-*s %s\n", width, "time", axis.buf);
	for (size_t i = 0; i < rows.n; i++) {
		struct row *r = &rows.at[i];
		printf("%-*s %.*s\n", width, r->name, (int)r->cells.n, r->cells.at);
		free(r->name);
		ca_vec_free(&r->cells);
	}
	printf("%-*s ", width, "");
	for (size_t k = 0, n = 0; k < NLETTERS; k++)
		if (letter_used[k])
			printf("%s%c %s", n++ ? ", " : "", letters[k].c, letters[k].what);
	putchar('\n');
	strbuf_release(&sb);
	strbuf_release(&axis);
	ca_vec_free(&rows);
	ca_dict_free(&row_index);
}

static void
timeline(void)
{
	size_t nm = machines.n;
	ca_sevent ***mev = ca_xcalloc(nm + 1, sizeof *mev);
	size_t *mn = ca_xcalloc(nm + 1, sizeof *mn), *next = ca_xcalloc(nm + 1, sizeof *next);
	strbuf sb = STRBUF_INIT;
	size_t ncols = 0;
	ca_ctx cx;

	ca_ctx_init(&cx);

	for (size_t k = 0; k < nm; k++)
		mev[k] = ca_sevents_take(events, machines.at[k], &mn[k]);
	for (int64_t t = opt.now;; t += opt.every) {
		if (t > opt.until)
			t = opt.until;
		for (size_t k = 0; k < nm; k++)
			ca_startd_advance(sd, machines.at[k], mev[k], mn[k], &next[k], t);
		if (opt.chart) {
			chart_step(&cx, ncols++);
			if (t >= opt.until)
				break;
			continue;
		}
		flush_lines();
		for (size_t k = 0; k < nm; k++)
			for (size_t i = 0; i < ca_smachine_count(machines.at[k]); i++) {
				if (ca_smachine_slot(machines.at[k], i) == NULL)
					continue;
				strbuf_reset(&sb);
				ca_startd_time(&sb, t);
				strbuf_adds(&sb, "  ");
				ca_startd_status(sd, machines.at[k], i, &sb);
				strbuf_addc(&sb, '\n');
				fputs(sb.buf, stdout);
			}
		if (t >= opt.until)
			break;
	}
	if (opt.chart)
		chart_print(ncols);
	ca_ctx_free(&cx);
	strbuf_release(&sb);
	for (size_t k = 0; k < nm; k++)
		free(mev[k]);
	free(mev);
	free(mn);
	free(next);
}

/* ---- the modes ---- */

/* The format of the state file, to write it back the same way. */
static ca_format
state_format(void)
{
	ca_format fmt = cli_common.out;

	if (opt.state != NULL && !cli_common.out_set) {
		/* a peek at its first ad; reading it for real reports any error */
		ca_diag err;
		ca_reader *r = ca_reader_open(opt.state, cli_common.in, &err);
		ca_ad *ad;
		if (r != NULL && ca_reader_next(r, &ad, &err) == 1) {
			ca_ad_free(ad);
			fmt = ca_reader_format(r);
		}
		if (r != NULL)
			ca_reader_close(r);
	}
	return fmt;
}

static void
run(void)
{
	if (opt.init) {
		out_open(cli_common.out);
		read_ads(init_add, NULL, 0);
		init_all();
		out_close(!slots_lost);
	} else if (opt.timeline) {
		ca_format fmt = CA_FMT_LONG;
		read_slots(keep_machine, &fmt);
		timeline();
		if (opt.state != NULL) {
			out_open(cli_common.out_set ? cli_common.out :
			    (fmt == CA_FMT_AUTO ? CA_FMT_LONG : fmt));
			for (size_t k = 0; k < machines.n; k++)
				out_machine(machines.at[k]);
			out_close(!slots_lost);
		}
		report_unused();
	} else if (opt.why != NULL) {
		read_slots(step_machine, NULL);
		report_unused();
		if (why_found)
			fputs(whyout.buf, stdout);
		else {
			cli_err("no slot named %s", opt.why);
			cli_raise(EX_NO);
		}
	} else {
		ca_format fmt = state_format();
		out_open(fmt);
		if (!step_parallel(fmt))
			read_slots(step_machine, NULL);
		out_close(!slots_lost);
		report_unused();
	}
}

/* The policy: HTCondor's defaults, then every -c file in order. */
static void
load_config(void)
{
	ca_diag err;

	cfg = ca_config_new();
	ca_config_set_subsys(cfg, "STARTD");
	ca_startd_config_prepare(cfg);
	if (cli_load_configs(cfg) < 0) {
		ca_config_free(cfg);
		exit(cli_finish());
	}
	cli_config_warnings(cfg, "STARTD");
	if ((sd = ca_startd_new(cfg, &err)) == NULL) {
		cli_diag(&err);
		ca_config_free(cfg);
		exit(cli_finish());
	}
	if (opt.log != NULL || opt.verbose || (opt.timeline && !opt.chart))
		ca_startd_set_log(sd, log_rec, NULL);
	ca_startd_set_diag(sd, diag_cb, NULL);
	ca_startd_set_auto_claim(sd, opt.auto_claim);
	if (opt.log != NULL && (logfp = fopen(opt.log, "a")) == NULL)
		cli_die(EX_SYSTEM, "cannot open the log %s: %s", opt.log, strerror(errno));
	if (opt.verbose)
		logfp = stderr;
}

/* With --state: lock it, and read the slots from it. */
static int
lock_state(void)
{
	static char *state_arg[1];
	ca_diag err;
	int lock;

	if ((lock = ca_statefile_lock(opt.state, &err)) < 0) {
		cli_diag(&err);
		return -1;
	}
	if (!opt.init) {
		if (access(opt.state, F_OK) != 0) {
			cli_errat(opt.state, 0, 0, "no such state file (--init creates one)");
			cli_raise(EX_SYSTEM);
			ca_statefile_unlock(lock);
			return -1;
		}
		state_arg[0] = (char *)opt.state;
		opt.files = state_arg;
		opt.nfiles = 1;
	}
	return lock;
}

static void
cleanup(void)
{
	for (size_t k = 0; k < machines.n; k++)
		ca_smachine_free(machines.at[k]);
	ca_vec_free(&machines);
	flush_lines();
	ca_vec_free(&lines);
	ca_sevents_free(events);
	if (logfp != NULL && logfp != stderr && fclose(logfp) != 0) {
		cli_err("writing the log %s failed: %s", opt.log, strerror(errno));
		cli_raise(EX_SYSTEM);
	}
	ca_startd_free(sd);
	ca_config_free(cfg);
	ca_intern_cleanup();
	strbuf_release(&whyout);
	ca_vec_free(&opt.events);
}

int
main(int argc, char **argv)
{
	int lock = -1;

	cli_init(argc, argv, "startd-step");
	int first = cli_parse(&spec, argc, argv, option, NULL);
	opt.files = argv + first;
	opt.nfiles = argc - first;
	opt.now = cli_common.now;
	check_usage();
	load_config();
	if (opt.state == NULL || (lock = lock_state()) >= 0) {
		read_events();
		run();
	}
	if (lock >= 0)
		ca_statefile_unlock(lock);
	cleanup();
	return cli_finish();
}
