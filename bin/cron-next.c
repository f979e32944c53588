/* cron-next - next run times of HTCondor CronTab schedules, and DeferralTime
 * for the cron jobs of a job-ad stream.
 *
 * Follows the HTCondor manual's "Time Scheduling for Job Execution" (CronTab
 * scheduling and job deferral) and, where it is silent, the schedd: the next
 * run is the first minute strictly after now; a job is (re)scheduled only
 * when idle with no DeferralTime or with its window passed; an invalid
 * schedule holds the job with HoldReasonCode 25. Deviations, all in the man
 * page: invalid fields are errors instead of being widened to "every", a
 * weekday-only schedule runs on those weekdays (HTCondor's month-end bug is
 * not copied), a wall-clock minute in the spring-forward gap does not run
 * (HTCondor runs it an hour later), and the seed's "10:30pm"/"Monday" example
 * is taken for what its fields mean (20:30, Tuesday). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "classad.h"
#include "condor.h"

enum {
	OPT_EXPLAIN = CLI_LONG, OPT_DUE, OPT_INTERVAL,
	OPT_MINUTE, OPT_HOUR, OPT_MDAY, OPT_MONTH, OPT_WDAY	/* ORDER FIELDS */
};

static const char *const field_opts[CA_CRON_NFIELDS] = {	/* ORDER FIELDS */
	"--minute", "--hour", "--day-of-month", "--month", "--day-of-week"
};

static const cli_opt options[] = {
	CLI_HEADING("Schedules (HTCondor's cron_minute ... cron_day_of_week; a field left out is *):"),
	{ 'n', 0, "count", CLI_ARG, "COUNT", "print the next COUNT run times (default 1)" },
	{ OPT_EXPLAIN, 0, "explain", CLI_NOARG, NULL,
	    "print each field's values and when the schedule runs" },
	{ OPT_MINUTE, 0, "minute", CLI_ARG, "M", "cron_minute, 0-59" },
	{ OPT_HOUR, 0, "hour", CLI_ARG, "H", "cron_hour, 0-23" },
	{ OPT_MDAY, 0, "day-of-month", CLI_ARG, "D", "cron_day_of_month, 1-31" },
	{ OPT_MONTH, 0, "month", CLI_ARG, "M", "cron_month, 1-12" },
	{ OPT_WDAY, 0, "day-of-week", CLI_ARG, "W", "cron_day_of_week, 0-7 (Sunday is 0 or 7)" },
	CLI_HEADING("Job ads (FILEs or standard input):"),
	{ 'j', 0, "jobs", CLI_NOARG, NULL, "set DeferralTime, DeferralPrepTime, DeferralWindow of\n"
	    "idle jobs with CronMinute ... CronDayOfWeek" },
	{ OPT_DUE, 0, "due", CLI_NOARG, NULL, "add CronDue: whether the job may be matched now" },
	{ OPT_INTERVAL, 0, "schedd-interval", CLI_ARG, "SECS",
	    "SCHEDD_INTERVAL for jobs without ScheddInterval\n(default 300)" },
	CLI_OPT_IN('i'),
	{ CLI_K_IN, 'I', NULL, CLI_ARG, "FORMAT", NULL },
	CLI_OPT_OUT,
	CLI_OPT_GZIP,
	CLI_HEADING("Both:"),
	CLI_OPT_NOW,
	CLI_OPT_QUIET,
	CLI_OPT_HELP,
	CLI_END
};

static const cli_spec spec = {
	"usage: cron-next [--now EPOCH] [-n COUNT] [--explain] 'MIN HOUR DOM MONTH DOW'\n"
	"       cron-next [--now EPOCH] [-n COUNT] [--explain] [--minute M] [--hour H]\n"
	"                 [--day-of-month D] [--month M] [--day-of-week W]\n"
	"       cron-next --jobs [--due] [--schedd-interval SECS] [--now EPOCH]\n"
	"                 [-i FORMAT] [-o FORMAT] [-z] [FILE...]\n",
	NULL, options, NULL, false
};

#define DEFAULT_SCHEDD_INTERVAL	300

static const char *const month_names[13] = {
	"", "January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"
};
static const char *const wday_names[7] = {
	"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"
};

static int64_t now;
static bool due;
static int64_t schedd_interval = DEFAULT_SCHEDD_INTERVAL;
static ca_ctx cx;

/* ---- schedules on the command line ---- */

static void
print_run(int64_t t)
{
	char iso[CA_CRON_ISOLEN];

	ca_cron_isotime(t, iso);
	printf("%lld\t%s\n", (long long)t, iso);
}

static int
count_bits(uint64_t set)
{
	int n = 0;

	for (; set != 0; set &= set - 1)
		n++;
	return n;
}

/* The values of a month or weekday set as names: "Monday-Friday", "May". */
static void
name_set(int field, uint64_t set, char *buf, size_t len)
{
	ca_cron_format_names(field, set, field == CA_CRON_MONTH ? month_names : wday_names,
	    buf, len);
}

/* Append to buf (of size len, *o bytes used), cutting short when full. */
static void
cat(char *buf, size_t len, size_t *o, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
cat(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o + 1 >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	if (n > 0)
		*o = *o + (size_t)n < len ? *o + (size_t)n : len - 1;
}

static bool
is_full(const ca_cron *c, int f)
{
	uint64_t set = ca_cron_set(c, f);
	int lo = ca_cron_field_min(f), hi = f == CA_CRON_WDAY ? 6 : ca_cron_field_max(f);

	return set == ((((uint64_t)1 << (hi - lo + 1)) - 1) << lo);
}

/* --explain: each field's set, then the schedule in words with the day rule. */
static void
explain(const ca_cron *c, char texts[CA_CRON_NFIELDS][128])
{
	static const char *const every[CA_CRON_NFIELDS] = {
		"every minute", "every hour", "every day of the month", "every month",
		"every day of the week"
	};
	char sets[CA_CRON_NFIELDS][256], names[256], when[1024] = "";
	size_t o = 0;
	int width = 1;

	for (int f = 0; f < CA_CRON_NFIELDS; f++) {
		int n = (int)strlen(texts[f]);

		if (n > width)
			width = n;
		ca_cron_format_set(f, ca_cron_set(c, f), sets[f], sizeof sets[f]);
	}
	for (int f = 0; f < CA_CRON_NFIELDS; f++) {
		printf("%-18s %-*s -> %s", ca_cron_field_name(f), width, texts[f], sets[f]);
		if (is_full(c, f))
			printf(" (%s)", every[f]);
		else if (f == CA_CRON_MONTH || f == CA_CRON_WDAY) {
			name_set(f, ca_cron_set(c, f), names, sizeof names);
			printf(" (%s)", names);
		}
		putchar('\n');
	}

	/* The time of day. */
	if (count_bits(c->minute) == 1 && count_bits(c->hour) == 1)
		cat(when, sizeof when, &o, "at %02d:%02d", __builtin_ctz(c->hour),
		    __builtin_ctzll(c->minute));
	else if (is_full(c, CA_CRON_MINUTE) && is_full(c, CA_CRON_HOUR))
		cat(when, sizeof when, &o, "every minute");
	else if (is_full(c, CA_CRON_MINUTE))
		cat(when, sizeof when, &o, "every minute of hour%s %s",
		    count_bits(c->hour) > 1 ? "s" : "", sets[CA_CRON_HOUR]);
	else
		cat(when, sizeof when, &o, "at minute%s %s of %s%s",
		    count_bits(c->minute) > 1 ? "s" : "", sets[CA_CRON_MINUTE],
		    is_full(c, CA_CRON_HOUR) ? "every hour" :
		    count_bits(c->hour) > 1 ? "hours " : "hour ",
		    is_full(c, CA_CRON_HOUR) ? "" : sets[CA_CRON_HOUR]);

	/* The days. */
	name_set(CA_CRON_WDAY, c->wday, names, sizeof names);
	switch (c->flags & (CA_CRON_MDAY_RESTRICTS | CA_CRON_WDAY_RESTRICTS)) {
	case 0:
		cat(when, sizeof when, &o, ", every day");
		break;
	case CA_CRON_MDAY_RESTRICTS:
		cat(when, sizeof when, &o, ", on day%s %s of the month",
		    count_bits(c->mday) > 1 ? "s" : "", sets[CA_CRON_MDAY]);
		break;
	case CA_CRON_WDAY_RESTRICTS:
		cat(when, sizeof when, &o, ", on every %s", names);
		break;
	default:
		cat(when, sizeof when, &o,
		    ", on day%s %s of the month and also on every %s",
		    count_bits(c->mday) > 1 ? "s" : "", sets[CA_CRON_MDAY], names);
		break;
	}
	if (!is_full(c, CA_CRON_MONTH)) {
		name_set(CA_CRON_MONTH, c->month, names, sizeof names);
		cat(when, sizeof when, &o, ", in %s", names);
	}
	printf("Runs %s.\n", when);

	switch (c->flags & (CA_CRON_MDAY_RESTRICTS | CA_CRON_WDAY_RESTRICTS)) {
	case 0:
		puts("Day rule: neither day field restricts the days, so every day runs.");
		break;
	case CA_CRON_MDAY_RESTRICTS:
		puts("Day rule: only cron_day_of_month restricts the days (cron_day_of_week\n"
		    "is every day), so the day of the week does not matter.");
		break;
	case CA_CRON_WDAY_RESTRICTS:
		puts("Day rule: only cron_day_of_week restricts the days (cron_day_of_month\n"
		    "is every day), so the day of the month does not matter.");
		break;
	default:
		puts("Day rule: cron_day_of_month and cron_day_of_week both restrict the days,\n"
		    "so a day runs when EITHER matches (logical or), not only when both do.");
		break;
	}
}

static void
schedule_error(const ca_diag *err)
{
	if (ca_cron_err_field(err) >= 0)
		cli_err("%s: %s", ca_cron_field_name(ca_cron_err_field(err)), err->msg);
	else
		cli_err("%s", err->msg);
	exit(EX_INPUT);
}

/* Split a "MIN HOUR DOM MONTH DOW" line into the field texts (for --explain;
 * ca_cron_parse has already checked it). */
static void
split_fields(const char *line, char texts[CA_CRON_NFIELDS][128])
{
	int n = 0;

	while (*line != '\0' && n < CA_CRON_NFIELDS) {
		size_t len;

		while (*line == ' ' || *line == '\t' || *line == '\n' || *line == '\r')
			line++;
		len = strcspn(line, " \t\n\r");
		if (len == 0)
			break;
		snprintf(texts[n++], 128, "%.*s", (int)len, line);
		line += len;
	}
}

static int
schedule_mode(char **args, int nargs, const char *fields[CA_CRON_NFIELDS], int64_t count,
    bool want_explain)
{
	char texts[CA_CRON_NFIELDS][128];
	ca_cron c;
	ca_diag err;
	int64_t t = now, next;

	if (nargs > 0) {
		strbuf line = STRBUF_INIT;

		for (int i = 0; i < nargs; i++) {
			if (i > 0)
				strbuf_addc(&line, ' ');
			strbuf_adds(&line, args[i]);
		}
		if (ca_cron_parse(&c, line.buf, &err) < 0) {
			strbuf_release(&line);
			schedule_error(&err);
		}
		split_fields(line.buf, texts);
		strbuf_release(&line);
	} else {
		ca_cron_init(&c);
		for (int f = 0; f < CA_CRON_NFIELDS; f++) {
			snprintf(texts[f], sizeof texts[f], "%s", fields[f] ? fields[f] : "*");
			if (fields[f] != NULL && ca_cron_field(&c, f, fields[f], &err) < 0)
				schedule_error(&err);
		}
		if (ca_cron_check(&c, &err) < 0)
			schedule_error(&err);
	}
	if (want_explain) {
		char iso[CA_CRON_ISOLEN];

		explain(&c, texts);
		ca_cron_isotime(now, iso);
		if (count > 0)
			printf("Next run%s after %s:\n", count > 1 ? "s" : "", iso);
	}
	for (int64_t i = 0; i < count; i++) {
		if (ca_cron_next(&c, t, &next) < 0) {
			cli_err("no run after %lld before the end of year 9999", (long long)t);
			cli_raise(EX_NO);
			break;
		}
		print_run(next);
		t = next;
	}
	return cli_finish();
}

/* ---- job ads ---- */

/* One job: the schedd's rule (schedd.h); a hold is said on stderr. */
static void
cron_job(ca_ad *ad, const char *file, int line)
{
	ca_diag held;

	if (ca_schedd_cron_job(&cx, ad, now, schedd_interval, due, &held) > 0)
		cli_errat(file, line, 0, "%s", held.msg);
}

static int
jobs_mode(char **files, int nfiles, ca_format out, bool gzip)
{
	ca_writer *w = ca_writer_open(stdout, out, gzip);

	if (w == NULL)
		cli_die(EX_SYSTEM, "cannot start the output");
	for (int i = 0; i < (nfiles > 0 ? nfiles : 1); i++) {
		const char *path = nfiles > 0 ? files[i] : "-";
		const char *name = cli_display(path);
		ca_reader *r = cli_open(path, cli_common.in);
		ca_ad *ad;

		if (r == NULL)
			continue;
		while (cli_next_ad(r, &ad, NULL)) {
			cron_job(ad, name, ca_reader_ad_line(r));
			if (ca_writer_put(w, ad) < 0) {
				if (errno == EILSEQ) {
					cli_errat(name, ca_reader_ad_line(r), 0, "%s",
					    ca_writer_refusal(w));
					cli_raise(EX_INPUT);
				} else {
					cli_err("writing output failed");
					cli_raise(EX_SYSTEM);
				}
			}
			ca_ad_free(ad);
			ca_arena_reset(&cx.scratch);
			if (cli_status >= EX_SYSTEM)
				break;
		}
		ca_reader_close(r);
		if (cli_status >= EX_SYSTEM)
			break;
	}
	if (ca_writer_close(w) < 0) {
		cli_err("writing output failed");
		cli_raise(EX_SYSTEM);
	}
	return cli_finish();
}

/* What the command line asks for. */
static struct {
	const char *fields[CA_CRON_NFIELDS];
	const char *only_jobs, *only_sched;	/* an option of one mode, for messages */
	int64_t count;
	bool jobs, explain;
} opt = { .count = 1 };

static void
option(void *arg, int key, char *val)
{
	switch (key) {
	case 'n':
		opt.count = cli_int("-n", val, 0, 1000000);
		opt.only_sched = "-n";
		break;
	case OPT_EXPLAIN:
		opt.explain = true;
		opt.only_sched = "--explain";
		break;
	case OPT_MINUTE: case OPT_HOUR: case OPT_MDAY: case OPT_MONTH: case OPT_WDAY:
		opt.fields[key - OPT_MINUTE] = val;
		opt.only_sched = field_opts[key - OPT_MINUTE];
		break;
	case 'j':
		opt.jobs = true;
		break;
	case OPT_DUE:
		due = true;
		opt.only_jobs = "--due";
		break;
	case OPT_INTERVAL:
		schedd_interval = cli_int("--schedd-interval", val, 0, INT32_MAX);
		opt.only_jobs = "--schedd-interval";
		break;
	case CLI_K_IN:
		opt.only_jobs = "-i";
		break;
	case CLI_K_OUT:
		opt.only_jobs = "-o";
		break;
	case CLI_K_GZIP:
		opt.only_jobs = "-z";
		break;
	default:
		break;
	}
}

int
main(int argc, char **argv)
{
	int rc;

	cli_init(argc, argv, "cron-next");
	tzset();
	int first = cli_parse(&spec, argc, argv, option, NULL);
	now = cli_common.now;
	bool jobs = opt.jobs;
	const char *only_jobs = opt.only_jobs, *only_sched = opt.only_sched;
	const char **fields = opt.fields;
	if (jobs && only_sched != NULL)
		cli_usage_error("%s is for schedules, not for --jobs", only_sched);
	if (!jobs && only_jobs != NULL)
		cli_usage_error("%s is for --jobs", only_jobs);
	if (jobs) {
		ca_ctx_init(&cx);
		cx.now = now;
		rc = jobs_mode(argv + first, argc - first, cli_common.out, cli_common.gzip);
		ca_ctx_free(&cx);
		ca_intern_cleanup();
		return rc;
	}
	{
		bool by_field = false;

		for (int f = 0; f < CA_CRON_NFIELDS; f++)
			by_field |= fields[f] != NULL;
		if (first == argc && !by_field)
			cli_usage_error("no schedule: give 'MIN HOUR DOM MONTH DOW' or --minute etc.");
		if (first < argc && by_field)
			cli_usage_error("give the schedule either as 'MIN HOUR DOM MONTH DOW' "
			    "or with --minute etc., not both");
	}
	return schedule_mode(argv + first, argc - first, fields, opt.count, opt.explain);
}
