/* userprio-calc - the accountant: real and effective user priorities with
 * half-life decay, priority factors and usage, condor_userprio's edits and
 * its report, and the fair share of a pool by the inverse-ratio rule.
 *
 * HTCondor's accountant lives in the negotiator and keeps its records in
 * the negotiator's log; here they are a state file of accountant ads that
 * cron runs update (under a lock, rewritten atomically). Deviations from
 * HTCondor (each in the man page): Priority in the state (and in -long) is
 * the real priority; BeginUsageTime is the start of the first interval
 * with usage; UID_DOMAIN stands in for ACCOUNTANT_LOCAL_DOMAIN; a clock
 * that went backwards is an error, not a silent reset; -long selects rows
 * like the table does; groups are listed flat. The state may also be what
 * condor_userprio -long printed (numbered or per record). Not done: the
 * group quota columns (negotiate owns quotas).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"
#include "condor.h"
#include "classad.h"

enum {
	OPT_STATE = CLI_LONG + 's', OPT_UPDATE = CLI_LONG + 'u', OPT_ALL = CLI_LONG + 'a',
	OPT_USAGE = CLI_LONG + 'U', OPT_PRIORITY = CLI_LONG + 'p', OPT_LONG = CLI_LONG + 'l',
	OPT_ALLUSERS = CLI_LONG + 'A', OPT_SHARES = CLI_LONG + 'S',
	OPT_STATE_FORMAT = CLI_LONG + 'f', OPT_STATE_GZIP = CLI_LONG + 'g',
	OPT_DURATION = CLI_LONG + 'd', OPT_LEGACY = CLI_LONG + 'L', OPT_MODULAR = CLI_LONG + 'M'
};

/* The names are condor_userprio's (with one dash or two): their set
 * decides which abbreviations are unambiguous, so it stays as it is. */
static const cli_opt options[] = {
	CLI_HEADING("Update (from cron; under the lock, atomically):"),
	{ OPT_UPDATE, 0, "update", CLI_NOARG, NULL,
	    "advance every priority to now and charge the Claimed\n"
	    "slots of SLOTS... (condor_status -long ads, or stdin)" },
	CLI_HEADING("Actions (condor_userprio's; applied in order, after --update):\n"
	    "  -setprio NAME P         set the real priority (P >= 0)\n"
	    "  -setfactor NAME F       set the priority factor (F >= 1)\n"
	    "  -setaccum NAME U        set the weighted accumulated usage (seconds >= 0)\n"
	    "  -setbegin NAME T        set the usage start time (epoch seconds)\n"
	    "  -setlast NAME T         set the last usage time (epoch seconds)\n"
	    "  -resetusage NAME|-all   zero the accumulated usage of NAME (or of everyone)\n"
	    "  -resetall               the same as -resetusage -all\n"
	    "  -delete NAME            remove the record of NAME\n"
	    "  -setceiling NAME N      the most NAME may use (slot weights; -1: no limit)\n"
	    "  -setfloor NAME N        what NAME gets before the others (0: none)\n"
	    "  -cancelceilinglease NAME, -cancelfloorlease NAME, -cancelfactorlease NAME\n"
	    "                          end a lease: the value before it comes back"),
	{ OPT_DURATION, 0, "duration", CLI_ARG, "SECONDS",
	    "-setceiling, -setfloor and -setfactor set a lease\n"
	    "for SECONDS; the value before it comes back after" },
	CLI_HEADING(
	    "Report (the default when there is no update or action): the records\n"
	    "used in the last day, or NAME...; effective priority, factor, usage and\n"
	    "the time since the last use, unless:"),
	{ OPT_ALL, 0, "all", CLI_NOARG, NULL,
	    "every column: also real priority and usage times" },
	{ OPT_USAGE, 0, "usage", CLI_NOARG, NULL, "usage columns only, sorted by usage" },
	{ OPT_PRIORITY, 0, "priority", CLI_NOARG, NULL, "priority columns only" },
	{ OPT_LONG, 0, "long", CLI_NOARG, NULL, "the records as ads (-o FORMAT, -z)" },
	{ OPT_MODULAR, 0, "modular", CLI_NOARG, NULL,
	    "with -long: as condor_userprio -long -modular shows\n"
	    "them (Priority the effective priority)",
	    "modular", 3 },
	{ OPT_LEGACY, 0, "single-ad", CLI_NOARG, NULL,
	    "-legacy with -long: one ad of numbered attributes\n"
	    "(Name1, Priority1, ...) and the concurrency limits\n"
	    "in use (ConcurrencyLimit_NAME), as condor_userprio\n"
	    "-long -legacy shows them",
	    "legacy", 3 },
	{ OPT_ALLUSERS, 0, "allusers", CLI_NOARG, NULL,
	    "every record, not only those used in the last day" },
	{ OPT_SHARES, 0, "shares", CLI_ARG, "N", "each user's fair share of a pool of N slots" },
	CLI_HEADING("Files and formats:"),
	{ CLI_K_NOW, 0, "now", CLI_ARG, "EPOCH", "the time of this run (default: the clock)" },
	{ OPT_STATE, 0, "state", CLI_ARG, "FILE",
	    "the accountant ads (created by the first update)" },
	{ OPT_STATE_FORMAT, 0, "state-format", CLI_ARG, "F",
	    "write the state as long|new|json|xml (default: as read)" },
	{ OPT_STATE_GZIP, 0, "state-gzip", CLI_NOARG, NULL,
	    "compress the state (default: as read, or FILE.gz)" },
	{ CLI_K_CONFIG, 'c', "config", CLI_ARG, "FILE",
	    "HTCondor configuration (PRIORITY_HALFLIFE, ...;\n"
	    "repeatable: read in order, later wins)" },
	{ CLI_K_IN, 'i', "input-format", CLI_ARG, "F",
	    "format of the slot ads (auto|long|new|json|xml)" },
	{ CLI_K_OUT, 'o', "output-format", CLI_ARG, "F",
	    "format of -long (long|new|json|xml)" },
	{ CLI_K_GZIP, 'z', "gzip", CLI_NOARG, NULL, "compress -long output" },
	CLI_OPT_QUIET,
	CLI_OPT_HELP,
	CLI_END
};

/* condor_userprio's options come with one dash too */

static const cli_spec spec = {
	.synopsis =
	"usage: userprio-calc --state FILE [-c CONFIG] [--now EPOCH] [-i FORMAT] --update [SLOTS...]\n"
	"       userprio-calc --state FILE [-c CONFIG] [--now EPOCH] [-duration SECONDS] ACTION...\n"
	"       userprio-calc --state FILE [-c CONFIG] [--now EPOCH]\n"
	"                     [-all | -usage | -priority | -long [-modular | -legacy]]\n"
	"                     [-allusers] [--shares N] [-o FORMAT] [-z] [NAME...]\n",
	.opts = options,
	.footer = "Single-dash long options (-all, -setfactor) are accepted as condor_userprio's.\n"
	"Exit status: 0 success, 1 no such record, 2 usage, 3 malformed input,\n"
	"4 system error.\n",
	.long_only = true
};

/* ---- actions: taken out of argv before getopt (two take two values) ---- */

enum act_kind {
	ACT_SETPRIO, ACT_SETFACTOR, ACT_SETACCUM, ACT_SETBEGIN, ACT_SETLAST,
	ACT_RESETUSAGE, ACT_RESETALL, ACT_DELETE, ACT_SETCEILING, ACT_SETFLOOR,
	ACT_CANCELCEILING, ACT_CANCELFLOOR, ACT_CANCELFACTOR
};

static const struct {
	const char *name;
	int nargs;
	const char *what;	/* of a lease */
} act_spec[] = {
	[ACT_SETPRIO] = { "setprio", 2, NULL },
	[ACT_SETFACTOR] = { "setfactor", 2, "priority-factor" },
	[ACT_SETACCUM] = { "setaccum", 2, NULL },
	[ACT_SETBEGIN] = { "setbegin", 2, NULL },
	[ACT_SETLAST] = { "setlast", 2, NULL },
	[ACT_RESETUSAGE] = { "resetusage", 1, NULL },
	[ACT_RESETALL] = { "resetall", 0, NULL },
	[ACT_DELETE] = { "delete", 1, NULL },
	[ACT_SETCEILING] = { "setceiling", 2, "ceiling" },
	[ACT_SETFLOOR] = { "setfloor", 2, "floor" },
	[ACT_CANCELCEILING] = { "cancelceilinglease", 1, "ceiling" },
	[ACT_CANCELFLOOR] = { "cancelfloorlease", 1, "floor" },
	[ACT_CANCELFACTOR] = { "cancelfactorlease", 1, "priority-factor" },
};

struct action {
	enum act_kind kind;
	const char *name;	/* NULL: every record */
	double num;
	int64_t t;
};

/* Options whose value is the next argument, so that it is not mistaken
 * for an action ("-c -delete" names a file): a row of the table with a
 * value, by its letter or by its whole name with one dash or two. */
static bool
takes_value(const char *a)
{
	if (a[0] != '-')
		return false;
	for (const cli_opt *o = options; o->key || o->name || o->help; o++) {
		int letter = o->key > 0 && o->key < 128 ? o->key : o->letter;
		if (o->arg != CLI_ARG)
			continue;
		if (letter && a[1] == letter && a[2] == '\0')
			return true;
		if (o->name && strcmp(a + 1 + (a[1] == '-'), o->name) == 0)
			return true;
	}
	return false;
}

static int
action_of(const char *a)
{
	if (a[0] != '-')
		return -1;
	a += a[1] == '-' ? 2 : 1;
	for (size_t i = 0; i < sizeof act_spec / sizeof act_spec[0]; i++)
		if (strcmp(a, act_spec[i].name) == 0)
			return (int)i;
	return -1;
}

static bool
full_name(const char *name)
{
	return strchr(name, '@') != NULL && name[0] != '@';
}

/* "-setceiling" ... for messages. */
static const char *
opt_name(enum act_kind k)
{
	static char buf[32];

	snprintf(buf, sizeof buf, "-%s", act_spec[k].name);
	return buf;
}

/* Check one action's values; usage errors exit 2 with condor_userprio's
 * wording where it has one. */
static void
check_action(struct action *a, char **v)
{
	const char *opt = act_spec[a->kind].name;
	char *end;

	if (act_spec[a->kind].nargs >= 1) {
		a->name = v[0];
		if (a->kind == ACT_RESETUSAGE && strcmp(v[0], "-all") == 0)
			a->name = NULL;
		else if (v[0][0] == '\0')
			cli_usage_error("-%s: empty name", opt);
	}
	if (act_spec[a->kind].nargs < 2)
		return;
	switch (a->kind) {
	case ACT_SETPRIO:
		a->num = ca_strtod(v[1], &end);
		if (end == v[1] || *end || !isfinite(a->num))
			cli_usage_error("-setprio: '%s' is not a number", v[1]);
		if (a->num < 0)
			cli_usage_error("-setprio: a priority cannot be negative (%s)", v[1]);
		break;
	case ACT_SETFACTOR:
		a->num = ca_strtod(v[1], &end);
		if (end == v[1] || *end || !isfinite(a->num))
			cli_usage_error("-setfactor: '%s' is not a number", v[1]);
		if (a->num < CA_ACCT_MIN_FACTOR)
			cli_usage_error("-setfactor: Priority factors must be greater than or "
			    "equal to 1 (%s).", v[1]);
		break;
	case ACT_SETACCUM:
		a->num = ca_strtod(v[1], &end);
		if (end == v[1] || *end || !isfinite(a->num))
			cli_usage_error("-setaccum: '%s' is not a number", v[1]);
		if (a->num < 0)
			cli_usage_error("-setaccum: usage cannot be negative (%s)", v[1]);
		break;
	case ACT_SETCEILING:
	case ACT_SETFLOOR: {
		/* a whole number: -1 (no ceiling) or 0 (no floor) at least */
		int64_t min = a->kind == ACT_SETCEILING ? -1 : 0;
		a->t = cli_int(opt_name(a->kind), v[1], INT64_MIN / 2, (int64_t)1 << 40);
		if (a->t < min)
			cli_usage_error("%s: %s must be greater than or equal to %lld (%s).",
			    opt_name(a->kind), act_spec[a->kind].what, (long long)min, v[1]);
		break;
	}
	default:	/* setbegin, setlast */
		a->t = cli_int(a->kind == ACT_SETBEGIN ? "-setbegin" : "-setlast", v[1], 0,
		    (int64_t)1 << 40);
		break;
	}
}

/* Take the actions out of argv (keeping the other arguments in order) into
 * acts; returns how many. */
static int
take_actions(int *argcp, char **argv, struct action *acts)
{
	int argc = *argcp, out = 1, n = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		if (takes_value(argv[i]) && i + 1 < argc) {
			argv[out++] = argv[i++];
			argv[out++] = argv[i];
			continue;
		}
		int k = action_of(argv[i]);
		if (k < 0) {
			argv[out++] = argv[i];
			continue;
		}
		int na = act_spec[k].nargs;
		if (i + na >= argc)
			cli_usage_error("-%s needs %s", act_spec[k].name,
			    na == 2 ? "a name and a value" : "a name");
		acts[n].kind = (enum act_kind)k;
		acts[n].name = NULL;
		check_action(&acts[n], argv + i + 1);
		n++;
		i += na;
	}
	argv[out] = NULL;
	*argcp = out;
	return n;
}

/* ---- options ---- */

enum detail { D_DEFAULT, D_ALL, D_USAGE, D_PRIORITY };
enum layout { L_STATE, L_MODULAR, L_LEGACY };

static struct {
	const char *state;
	bool update;
	enum detail detail;
	bool detail_set;
	bool longfmt, allusers, state_gzip;
	enum layout layout;
	int64_t duration;	/* -duration: leases; 0 none */
	double shares;		/* pool size; < 0: no --shares */
	ca_format state_fmt;
	bool state_fmt_set;
	char **args;		/* slots (--update) or names */
	int nargs;
} opt = { .shares = -1 };

static ca_ctx cx;
static ca_acct acct;
static strbuf done_msgs = STRBUF_INIT;	/* printed once the state is written */

static void
set_detail(enum detail d)
{
	if (opt.detail_set && opt.detail != d)
		cli_usage_error("choose one of -all, -usage and -priority");
	opt.detail = d;
	opt.detail_set = true;
}

static void
option(void *arg, int key, char *val)
{
	(void)arg;
	switch (key) {
	case OPT_STATE: opt.state = val; break;
	case OPT_UPDATE: opt.update = true; break;
	case OPT_ALL: set_detail(D_ALL); break;
	case OPT_USAGE: set_detail(D_USAGE); break;
	case OPT_PRIORITY: set_detail(D_PRIORITY); break;
	case OPT_LONG: opt.longfmt = true; break;
	case OPT_ALLUSERS: opt.allusers = true; break;
	case OPT_SHARES:
		opt.shares = cli_real("--shares", val);
		if (!(opt.shares >= 0 && opt.shares < 1e15))
			cli_usage_error("--shares: the pool size must be a number >= 0");
		break;
	case OPT_STATE_FORMAT:
		opt.state_fmt = cli_format("--state-format", val, false);
		opt.state_fmt_set = true;
		break;
	case OPT_STATE_GZIP: opt.state_gzip = true; break;
	case OPT_DURATION:
		opt.duration = cli_int("-duration", val, 1, INT32_MAX - 1);
		break;
	case OPT_MODULAR: opt.layout = L_MODULAR; break;
	case OPT_LEGACY: opt.layout = L_LEGACY; break;
	default: break;
	}
}

/* The arguments left: the state must be a file, and (without --update)
 * the names to show are not options. */
static void
check_args(char **args, int nargs)
{
	opt.args = args;
	opt.nargs = nargs;
	if (opt.state == NULL)
		cli_usage_error("--state FILE is required");
	if (strcmp(opt.state, "-") == 0 || opt.state[0] == '\0')
		cli_usage_error("--state must name a file (it is rewritten in place)");
	if (!opt.update)
		for (int i = 0; i < nargs; i++)
			if (args[i][0] == '-' && args[i][1] != '\0')
				cli_usage_error("unknown option '%s'", args[i]);
}

/* ---- the update ---- */

/* Charge every slot of the files (standard input when none). Returns 0, or
 * -1 after reporting a bad ad or file: the state must not be written then,
 * and reading stops at the first bad ad. */
static int
read_slots(void)
{
	int nfiles = opt.nargs;
	bool bad = false;

	for (int i = 0; i < (nfiles ? nfiles : 1) && !bad; i++) {
		ca_reader *r = cli_open(nfiles ? opt.args[i] : "-", cli_common.in);
		ca_ad *ad;
		if (r == NULL)
			return -1;
		while (!bad && cli_next_ad(r, &ad, &bad)) {
			if (!bad)
				ca_acct_charge_slot(&acct, &cx, ad, cli_common.now);
			ca_ad_free(ad);
		}
		ca_reader_close(r);
	}
	return bad ? -1 : 0;
}

/* ---- actions ---- */

/* A lease of that kind is in effect until `until`: refused (exit 1). */
static void
lease_in_effect(const struct action *a, const ca_acct_rec *r, int64_t until)
{
	cli_err("%s: a %s lease for %s is already in effect (expires at %lld)",
	    opt_name(a->kind), act_spec[a->kind].what, r->name, (long long)until);
	cli_raise(EX_NO);
}

static void
apply(const struct action *a)
{
	ca_acct_rec *r = NULL;
	int64_t until = opt.duration > 0 ? cli_common.now + opt.duration : 0;

	if (a->name != NULL) {
		size_t len = strlen(a->name);
		r = ca_acct_find(&acct, a->name, len);
		if (r != NULL && r->deleted)
			r = NULL;
		bool cancel = a->kind == ACT_CANCELCEILING || a->kind == ACT_CANCELFLOOR ||
		    a->kind == ACT_CANCELFACTOR;
		if (r == NULL && a->kind != ACT_RESETUSAGE && a->kind != ACT_DELETE && !cancel) {
			if (!full_name(a->name)) {
				cli_err("-%s: '%s' is not a full user@domain name",
				    act_spec[a->kind].name, a->name);
				cli_raise(EX_USAGE);
				return;
			}
			r = ca_acct_get(&acct, a->name, len, cli_common.now);
		}
		if (r == NULL) {
			cli_err("-%s: no accountant record named %s", act_spec[a->kind].name,
			    a->name);
			cli_raise(EX_NO);
			return;
		}
	}
	switch (a->kind) {
	case ACT_SETPRIO:
		r->prio = a->num;
		strbuf_addf(&done_msgs, "The priority of %s was set to %f\n", r->name, r->prio);
		break;
	case ACT_SETFACTOR:
		if (opt.duration > 0) {
			if (!ca_acct_lease_factor(r, a->num, until, cli_common.now))
				lease_in_effect(a, r, r->factor_lease);
			else
				strbuf_addf(&done_msgs, "Set priority-factor lease on %s to %f for "
				    "%lld seconds\n", r->name, r->factor, (long long)opt.duration);
			break;
		}
		ca_acct_set_factor(r, a->num);
		strbuf_addf(&done_msgs, "The priority factor of %s was set to %f\n", r->name,
		    r->factor);
		break;
	case ACT_SETCEILING:
	case ACT_SETFLOOR: {
		bool ceil = a->kind == ACT_SETCEILING;
		if (!(ceil ? ca_acct_set_ceiling(r, a->t, until, cli_common.now) :
		    ca_acct_set_floor(r, a->t, until, cli_common.now)))
			lease_in_effect(a, r, ceil ? r->ceiling_lease : r->floor_lease);
		else if (until > 0)
			strbuf_addf(&done_msgs, "Set %s lease on %s to %lld for %lld seconds\n",
			    act_spec[a->kind].what, r->name, (long long)a->t,
			    (long long)opt.duration);
		else
			strbuf_addf(&done_msgs, "The %s of %s was set to %lld\n",
			    act_spec[a->kind].what, r->name, (long long)a->t);
		break;
	}
	case ACT_CANCELCEILING:
	case ACT_CANCELFLOOR:
	case ACT_CANCELFACTOR:
		if (!ca_acct_cancel_lease(r, a->kind == ACT_CANCELCEILING ? CA_LEASE_CEILING :
		    a->kind == ACT_CANCELFLOOR ? CA_LEASE_FLOOR : CA_LEASE_FACTOR)) {
			cli_err("%s: no %s lease in effect for %s", opt_name(a->kind),
			    act_spec[a->kind].what, r->name);
			cli_raise(EX_NO);
		} else
			strbuf_addf(&done_msgs, "Cancelled %s lease for %s\n",
			    act_spec[a->kind].what, r->name);
		break;
	case ACT_SETACCUM:
		r->waccum = a->num;
		strbuf_addf(&done_msgs, "The accumulated usage of %s was set to %f\n", r->name,
		    r->waccum);
		break;
	case ACT_SETBEGIN:
		r->begin = a->t;
		strbuf_addf(&done_msgs, "The usage start time of %s was set to %lld\n", r->name,
		    (long long)r->begin);
		break;
	case ACT_SETLAST:
		r->last = a->t;
		strbuf_addf(&done_msgs, "The last usage time of %s was set to %lld\n", r->name,
		    (long long)r->last);
		break;
	case ACT_RESETUSAGE:
	case ACT_RESETALL:
		if (r != NULL) {
			ca_acct_reset_usage(r, cli_common.now);
			strbuf_addf(&done_msgs, "The accumulated usage of %s was reset\n",
			    r->name);
			break;
		}
		for (size_t i = 0; i < acct.recs.n; i++)
			if (!acct.recs.at[i]->deleted)
				ca_acct_reset_usage(acct.recs.at[i], cli_common.now);
		strbuf_addf(&done_msgs, "The accumulated usage was reset for all users\n");
		break;
	case ACT_DELETE:
		r->deleted = true;
		strbuf_addf(&done_msgs, "The accountant record named %s was deleted\n", r->name);
		break;
	}
}

/* ---- the report ---- */

enum col {
	C_EUP, C_RUP, C_FACTOR, C_INUSE, C_TOTAL, C_START, C_LAST, C_SINCE, C_FLOOR, C_CEILING,
	C_SHARE, C_SLOTS
};
#define NCOLS	12

static const struct {
	const char *h1, *h2;
	int w, dp;
} colspec[] = {
	[C_EUP] = { "Effective", "Priority", 12, 2 },
	[C_RUP] = { "Real", "Priority", 8, 2 },
	[C_FACTOR] = { "Priority", "Factor", 9, 2 },
	[C_INUSE] = { "Wghted", "In Use", 6, 0 },
	[C_TOTAL] = { "Total Usage", "(wghted-hrs)", 12, 2 },
	[C_START] = { "Usage", "Start Time", 16, 0 },
	[C_LAST] = { "Last", "Usage Time", 16, 0 },
	[C_SINCE] = { "Time Since", "Last Usage", 10, 0 },
	[C_FLOOR] = { "Submitter", "Floor", 9, 2 },
	[C_CEILING] = { "Submitter", "Ceiling", 9, 2 },
	[C_SHARE] = { "Share", "(%)", 7, 2 },
	[C_SLOTS] = { "Fair", "Slots", 9, 2 },
};

static void
pad(strbuf *sb, int n)
{
	while (n-- > 0)
		strbuf_addc(sb, ' ');
}

/* A number right-justified in w columns with dp decimals, or in %g form
 * with w - 6 digits when it does not fit (condor_userprio's rule). */
static void
put_num(strbuf *sb, double v, int w, int dp)
{
	char buf[400];
	int n = snprintf(buf, sizeof buf, "%*.*f", w & 31, dp & 7, v);

	if (n > w)
		snprintf(buf, sizeof buf, "%*.*g", w & 31, w - 6 > 1 ? (w - 6) & 31 : 1, v);
	strbuf_addc(sb, ' ');
	strbuf_adds(sb, buf);
}

static void
put_text(strbuf *sb, const char *s, int w)
{
	int n = (int)strlen(s);

	strbuf_addc(sb, ' ');
	pad(sb, w - n);
	strbuf_adds(sb, s);
}

static void
put_time(strbuf *sb, int64_t t, int w)
{
	char buf[40] = "";
	struct tm tm;
	time_t tt = (time_t)t;

	/* condor_userprio's month/day/year hours:minutes */
	if (t > 0 && localtime_r(&tt, &tm) != NULL)
		snprintf(buf, sizeof buf, "%2d/%02d/%-4d %02d:%02d", tm.tm_mon + 1, tm.tm_mday,
		    tm.tm_year + 1900, tm.tm_hour, tm.tm_min);
	put_text(sb, buf, w);
}

/* D+HH:MM of s seconds; "<now>" when s <= 0. */
static void
put_since(strbuf *sb, int64_t s, int w)
{
	char buf[40];

	if (s <= 0)
		snprintf(buf, sizeof buf, "<now>");
	else
		snprintf(buf, sizeof buf, "%lld+%02d:%02d", (long long)(s / 86400),
		    (int)(s % 86400 / 3600), (int)(s % 3600 / 60));
	put_text(sb, buf, w);
}

static void
put_centered(strbuf *sb, const char *s, int w)
{
	int n = (int)strlen(s), left = (w - n) / 2;

	strbuf_addc(sb, ' ');
	pad(sb, left);
	strbuf_adds(sb, s);
	pad(sb, w - n - left);
}

/* Print sb without trailing blanks, then a newline; sb is reset. */
static void
emit(strbuf *sb)
{
	while (sb->len > 0 && sb->buf[sb->len - 1] == ' ')
		sb->len--;
	fwrite(sb->buf, 1, sb->len, stdout);
	fputc('\n', stdout);
	strbuf_reset(sb);
}

static int
cmp_eup(const void *x, const void *y)
{
	const ca_acct_rec *a = *(ca_acct_rec *const *)x, *b = *(ca_acct_rec *const *)y;
	double ea = ca_acct_eup(a), eb = ca_acct_eup(b);

	if (ea != eb)
		return ea < eb ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int
cmp_usage(const void *x, const void *y)
{
	const ca_acct_rec *a = *(ca_acct_rec *const *)x, *b = *(ca_acct_rec *const *)y;

	if (a->waccum != b->waccum)
		return a->waccum < b->waccum ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The records to show: those named, or those used in the last day (all
 * with -allusers), in state order. Returns how many (rows malloc'ed). */
static size_t
select_rows(ca_acct_rec ***rowsp)
{
	ca_acct_rec **rows = ca_xcalloc(acct.recs.n + 1, sizeof *rows);
	size_t n = 0;

	if (opt.nargs > 0 && !opt.update) {
		for (int i = 0; i < opt.nargs; i++) {
			ca_acct_rec *r = ca_acct_find(&acct, opt.args[i], strlen(opt.args[i]));
			if (r == NULL || r->deleted) {
				cli_err("no accountant record named %s", opt.args[i]);
				cli_raise(EX_NO);
				continue;
			}
			bool dup = false;
			for (size_t k = 0; k < n; k++)
				dup |= rows[k] == r;
			if (!dup)
				rows[n++] = r;
		}
	} else {
		int64_t min_last = cli_common.now - 86400;
		for (size_t i = 0; i < acct.recs.n; i++) {
			ca_acct_rec *r = acct.recs.at[i];
			if (!r->deleted && (opt.allusers || (r->last > 0 && r->last >= min_last)))
				rows[n++] = r;
		}
	}
	*rowsp = rows;
	return n;
}

/* The columns of each report (-1 ends a list), as condor_userprio has
 * them; with --shares the priorities (real ones with -all or -priority)
 * and the shares. */
static int
columns(enum col *cols)
{
	static const signed char by_detail[][NCOLS] = {
		[D_DEFAULT] = { C_EUP, C_FACTOR, C_INUSE, C_TOTAL, C_SINCE, C_FLOOR, C_CEILING, -1 },
		[D_ALL] = { C_EUP, C_RUP, C_FACTOR, C_INUSE, C_TOTAL, C_START, C_LAST, C_SINCE,
		    C_FLOOR, C_CEILING, -1 },
		[D_USAGE] = { C_INUSE, C_TOTAL, C_START, C_LAST, -1 },
		[D_PRIORITY] = { C_EUP, C_RUP, C_FACTOR, -1 },
	};
	int n = 0;

	if (opt.shares >= 0) {
		cols[n++] = C_EUP;
		if (opt.detail == D_ALL || opt.detail == D_PRIORITY) {
			cols[n++] = C_RUP;
			cols[n++] = C_FACTOR;
		}
		cols[n++] = C_SHARE;
		cols[n++] = C_SLOTS;
		return n;
	}
	for (int i = 0; by_detail[opt.detail][i] >= 0; i++)
		cols[n++] = (enum col)by_detail[opt.detail][i];
	return n;
}

static void
report_table(ca_acct_rec **rows, size_t n)
{
	enum col cols[NCOLS];
	int ncols = columns(cols);
	double *share = NULL;
	strbuf sb = STRBUF_INIT;

	qsort(rows, n, sizeof *rows,
	    opt.detail == D_USAGE && opt.shares < 0 ? cmp_usage : cmp_eup);
	if (opt.shares >= 0) {
		share = ca_xcalloc(n + 1, sizeof *share);
		ca_acct_shares(rows, n, opt.shares, share);
	}

	size_t users = 0;
	double inuse = 0, total = 0;
	for (size_t i = 0; i < n; i++)
		if (!rows[i]->group) {
			users++;
			inuse += rows[i]->wres;
			total += rows[i]->waccum;
		}
	/* condor_userprio's name column: the longest name shown (at least 10,
	 * at most 99 wide), and room for "Number of users: N" with N the
	 * number of records it was given */
	char footer[64];
	size_t namew = 10, nrec = 0;
	for (size_t i = 0; i < acct.recs.n; i++)
		nrec += !acct.recs.at[i]->deleted;
	snprintf(footer, sizeof footer, "Number of users: %zu", nrec);
	for (size_t i = 0; i < n; i++)
		if (strlen(rows[i]->name) > namew)
			namew = strlen(rows[i]->name);
	if (namew > 99)
		namew = 99;
	if (namew < strlen(footer))
		namew = strlen(footer);
	snprintf(footer, sizeof footer, "Number of users: %zu", users);

	if (acct.last_update > 0) {
		struct tm tm;
		time_t t = (time_t)acct.last_update;
		localtime_r(&t, &tm);
		printf("Last Priority Update: %2d/%-2d %02d:%02d\n", tm.tm_mon + 1, tm.tm_mday,
		    tm.tm_hour, tm.tm_min);
	} else
		printf("Last Priority Update: never\n");
	if (opt.shares >= 0)
		printf("Fair shares of a pool of %.10g slots "
		    "(inverse ratio of effective priorities)\n", opt.shares);

	/* the two heading rows and the rule */
	for (int row = 0; row < 2; row++) {
		strbuf_adds(&sb, row ? "User Name" : "");
		pad(&sb, (int)namew - (row ? 9 : 0));
		for (int c = 0; c < ncols; c++)
			put_centered(&sb, row ? colspec[cols[c]].h2 : colspec[cols[c]].h1,
			    colspec[cols[c]].w);
		emit(&sb);
	}
	strbuf rule = STRBUF_INIT;
	for (size_t i = 0; i < namew; i++)
		strbuf_addc(&rule, '-');
	for (int c = 0; c < ncols; c++) {
		strbuf_addc(&rule, ' ');
		for (int k = 0; k < colspec[cols[c]].w; k++)
			strbuf_addc(&rule, '-');
	}
	printf("%s\n", rule.buf);

	for (size_t i = 0; i < n; i++) {
		const ca_acct_rec *r = rows[i];
		strbuf_adds(&sb, r->name);
		pad(&sb, (int)namew - (int)strlen(r->name));
		for (int c = 0; c < ncols; c++) {
			int w = colspec[cols[c]].w, dp = colspec[cols[c]].dp;
			switch (cols[c]) {
			case C_EUP:
				put_num(&sb, ca_acct_eup(r), w, dp);
				break;
			case C_RUP:
				put_num(&sb, r->prio, w, dp);
				break;
			case C_FACTOR:
				put_num(&sb, r->factor, w, dp);
				break;
			case C_INUSE:
				put_num(&sb, r->wres, w, dp);
				break;
			case C_TOTAL:
				put_num(&sb, r->waccum / 3600.0, w, dp);
				break;
			case C_START:
				put_time(&sb, r->begin, w);
				break;
			case C_LAST:
				put_time(&sb, r->last, w);
				break;
			case C_SINCE:
				if (r->last > 0)
					put_since(&sb, acct.last_update - r->last, w);
				else
					put_text(&sb, "", w);
				break;
			case C_FLOOR:
				if (r->floor > 0)
					put_num(&sb, (double)r->floor, w, dp);
				else
					put_text(&sb, "", w);
				break;
			case C_CEILING:
				if (r->ceiling > -1)
					put_num(&sb, (double)r->ceiling, w, dp);
				else
					put_text(&sb, "", w);
				break;
			case C_SHARE:
				put_num(&sb, opt.shares > 0 ? 100.0 * share[i] / opt.shares : 0,
				    w, dp);
				break;
			case C_SLOTS:
				put_num(&sb, share[i], w, dp);
				break;
			}
		}
		emit(&sb);
	}
	printf("%s\n", rule.buf);

	/* condor_userprio's MinLastUsageTime: none for -allusers or names */
	bool named = opt.nargs > 0 && !opt.update;
	int64_t min_last = !opt.allusers && !named ? cli_common.now - 86400 : -1;
	strbuf_adds(&sb, footer);
	pad(&sb, (int)namew - (int)strlen(footer));
	for (int c = 0; c < ncols; c++) {
		int w = colspec[cols[c]].w, dp = colspec[cols[c]].dp;
		switch (cols[c]) {
		case C_INUSE:
			put_num(&sb, inuse, w, dp);
			break;
		case C_TOTAL:
			put_num(&sb, total / 3600.0, w, dp);
			break;
		case C_SINCE:
			if (min_last > 0 && acct.last_update > 0)
				put_since(&sb, acct.last_update - min_last, w);
			else
				put_text(&sb, "", w);
			break;
		case C_LAST:
			/* the earliest last usage a row shown by default may have */
			if (min_last > 0)
				put_time(&sb, min_last, w);
			else
				put_text(&sb, "", w);
			break;
		case C_SHARE:
			put_num(&sb, n > 0 ? 100.0 : 0, w, dp);
			break;
		case C_SLOTS:
			put_num(&sb, n > 0 ? opt.shares : 0, w, dp);
			break;
		default:
			put_text(&sb, "", w);
		}
	}
	emit(&sb);
	strbuf_release(&rule);
	strbuf_release(&sb);
	free(share);
}

/* The group a record belongs to as condor_userprio shows it (its
 * AccountingGroup): a member's GROUP_NAMES group (the deepest one the part
 * of its name before the last '.' begins with), a group's parent group,
 * else "<none>". */
static const char *
group_shown(const ca_acct_rec *r)
{
	const char *name = r->name, *g = "<none>";
	size_t len = strcspn(name, "@"), best = 0;

	while (len > 0 && name[len - 1] != '.')
		len--;
	if (len == 0)
		return g;
	len--;		/* the part before the last '.' */
	for (size_t i = 0; i < acct.pol.ngroups; i++) {
		size_t gl = strlen(acct.pol.groups[i]);
		if (gl > best && gl <= len && strncasecmp(name, acct.pol.groups[i], gl) == 0 &&
		    (gl == len || name[gl] == '.')) {
			g = acct.pol.groups[i];
			best = gl;
		}
	}
	return g;
}

/* A record as condor_userprio -long shows it, in the order of HTCondor's
 * accountant: its name, whether it is a group and its group, Priority the
 * effective priority, the ceiling and floor, the factor and usage, then
 * what else the record holds, and the time of the last update (a new ad
 * the caller frees). */
static ca_ad *
view_ad(ca_acct_rec *r)
{
	static const char *const usage[] = {
		"PriorityFactor", "ResourcesUsed", "WeightedResourcesUsed", "AccumulatedUsage",
		"WeightedAccumulatedUsage", "BeginUsageTime", "LastUsageTime", NULL
	};
	const ca_ad *rec = ca_acct_rec_ad(&acct, r);
	ca_ad *ad = ca_ad_new();

	ca_set_str(ad, "Name", r->name);
	ca_set_bool(ad, "IsAccountingGroup", r->group);
	ca_set_str(ad, "AccountingGroup", group_shown(r));
	ca_set_real(ad, "Priority", ca_acct_eup(r));
	ca_set_int(ad, "Ceiling", r->ceiling);
	ca_set_int(ad, "Floor", r->floor);
	for (const char *const *u = usage; *u; u++)
		if (ca_ad_lookup(rec, *u) != NULL)
			ca_ad_set_copy(ad, *u, strlen(*u), ca_ad_lookup(rec, *u));
	for (uint32_t i = 0; i < rec->n; i++)
		if (ca_ad_find(ad, ca_attr_name(&rec->attrs[i])) == NULL &&
		    strcasecmp(ca_attr_name(&rec->attrs[i])->key, "lastupdate") != 0)
			ca_ad_copy_attr(ad, rec, &rec->attrs[i]);
	ca_set_int(ad, "LastUpdate", acct.last_update);
	return ad;
}

/* condor_userprio -long -legacy: one ad, record i's attributes numbered i,
 * then NumSubmittors, and the concurrency limits in use as
 * ConcurrencyLimit_NAME (a '.' of the name as '_'). */
static ca_ad *
legacy_ad(ca_acct_rec **rows, size_t n, const double *share)
{
	ca_ad *ad = ca_ad_new();
	strbuf nm = STRBUF_INIT;

	ca_set_int(ad, "LastUpdate", acct.last_update);
	for (size_t i = 0; i < n; i++) {
		ca_ad *v = view_ad(rows[i]);
		if (share != NULL) {
			ca_set_real(v, "SubmitterShare", opt.shares > 0 ? share[i] / opt.shares : 0);
			ca_set_real(v, "SubmitterLimit", share[i]);
		}
		for (uint32_t k = 0; k < v->n; k++) {
			const ca_attr *at = &v->attrs[k];
			if (strcasecmp(ca_attr_name(at)->key, "lastupdate") == 0)
				continue;
			strbuf_reset(&nm);
			strbuf_addf(&nm, "%s%zu", ca_attr_spell(at), i + 1);
			const ca_name *in = ca_intern(nm.buf, nm.len);
			ca_ad_set(ad, in, ca_name_spelling(ad->arena, in, nm.buf, nm.len),
			    ca_expr_copy(ad->arena, ca_attr_expr(v, at)));
		}
		ca_ad_free(v);
	}
	ca_set_int(ad, "NumSubmittors", (int64_t)n);
	for (size_t i = 0; i < acct.limits.v.n; i++) {
		const ca_climit *l = &acct.limits.v.at[i];
		strbuf_reset(&nm);
		strbuf_addf(&nm, "ConcurrencyLimit_%s", l->name);
		for (size_t k = 0; k < nm.len; k++)
			if (nm.buf[k] == '.')
				nm.buf[k] = '_';
		ca_set_real(ad, nm.buf, l->count);
	}
	strbuf_release(&nm);
	return ad;
}

/* Write ad; false when the output failed (the rest is not written). */
static bool
put_long(ca_writer *w, ca_ad *ad, const char *name)
{
	if (ca_writer_put(w, ad) == 0)
		return true;
	if (errno == EILSEQ) {
		strbuf q = STRBUF_INIT;
		ca_print_string(&q, name, strlen(name), 0);
		cli_err("%s: %s", q.buf, ca_writer_refusal(w));
		strbuf_release(&q);
		cli_raise(EX_INPUT);
		return true;
	}
	cli_err("writing output failed");
	cli_raise(EX_SYSTEM);
	return false;
}

static void
report_long(ca_acct_rec **rows, size_t n)
{
	double *share = NULL;
	ca_writer *w = ca_writer_open(stdout, cli_common.out, cli_common.gzip);

	if (w == NULL)
		cli_die(EX_SYSTEM, "cannot start the output");
	if (opt.shares >= 0) {
		share = ca_xcalloc(n + 1, sizeof *share);
		ca_acct_shares(rows, n, opt.shares, share);
	}
	if (opt.layout == L_LEGACY) {
		ca_ad *ad = legacy_ad(rows, n, share);
		put_long(w, ad, "the accountant's ad");
		ca_ad_free(ad);
	}
	for (size_t i = 0; i < n && opt.layout != L_LEGACY; i++) {
		ca_ad *ad = opt.layout == L_MODULAR ? view_ad(rows[i]) :
		    ca_acct_rec_ad(&acct, rows[i]);
		if (share != NULL) {
			/* HTCondor's names for a submitter's share of the pool */
			double frac = opt.shares > 0 ? share[i] / opt.shares : 0;
			ca_set_real(ad, "SubmitterShare", frac);
			ca_set_real(ad, "SubmitterLimit", share[i]);
		}
		bool ok = put_long(w, ad, rows[i]->name);
		if (opt.layout == L_MODULAR)
			ca_ad_free(ad);
		if (!ok)
			break;
	}
	if (ca_writer_close(w) < 0) {
		cli_err("writing output failed");
		cli_raise(EX_SYSTEM);
	}
	free(share);
}

/* ---- main ---- */

/* Every -c file, in order: the accountant's knobs. */
static void
load_config(void)
{
	ca_config *cfg = ca_config_new();
	ca_diag err;

	/* the accountant lives in the negotiator: NEGOTIATOR.X overrides X */
	ca_config_set_subsys(cfg, "NEGOTIATOR");
	if (cli_load_configs(cfg) < 0) {
		ca_config_free(cfg);
		exit(cli_finish());
	}
	cli_config_warnings(cfg, "NEGOTIATOR");
	if (ca_acct_policy_config(&acct.pol, cfg, &acct.arena, &err) < 0) {
		cli_diag(&err);
		ca_config_free(cfg);
		exit(cli_finish());
	}
	/* the policy copied what it keeps into acct.arena */
	ca_config_free(cfg);
}

/* Read the state (under the lock when it is changed), update it, apply the
 * actions, write it, then report. */
static void
run(const struct action *acts, int nacts)
{
	bool modify = opt.update || nacts > 0;
	bool report = !modify || opt.detail_set || opt.longfmt || opt.allusers ||
	    opt.shares >= 0 || (!opt.update && opt.nargs > 0);
	ca_format fmt = CA_FMT_LONG;
	bool gz = false;
	ca_diag err;
	int lock = -1, rc;

	if (modify && (lock = ca_statefile_lock(opt.state, &err)) < 0) {
		cli_diag(&err);
		return;
	}
	if ((rc = ca_acct_read(&acct, opt.state, &cx, cli_common.now, &fmt, &gz, &err)) < 0) {
		cli_diag(&err);
		goto done;
	}
	if (rc == 0 && !modify) {
		cli_errat(opt.state, 0, 0,
		    "no such state file (an update or an action creates it)");
		cli_raise(EX_SYSTEM);
		goto done;
	}
	if (rc == 0) {
		size_t l = strlen(opt.state);
		gz = l > 3 && strcmp(opt.state + l - 3, ".gz") == 0;
	}
	if (opt.update) {
		if (read_slots() < 0)
			goto done;	/* a partial usage picture must not be charged */
		if (ca_acct_update(&acct, cli_common.now, &err) < 0) {
			err.file = opt.state;
			cli_diag(&err);
			goto done;
		}
	}
	for (int i = 0; i < nacts; i++)
		apply(&acts[i]);
	if (cli_status >= EX_USAGE)
		goto done;	/* a bad action: write nothing */
	if (modify) {
		if (ca_acct_write(&acct, opt.state, opt.state_fmt_set ? opt.state_fmt : fmt,
		    gz || opt.state_gzip, &err) < 0) {
			cli_diag(&err);
			goto done;
		}
		ca_statefile_unlock(lock);
		lock = -1;
		fputs(done_msgs.buf, stdout);
	}
	if (report) {
		ca_acct_rec **rows;
		size_t n = select_rows(&rows);
		if (opt.longfmt)
			report_long(rows, n);
		else
			report_table(rows, n);
		free(rows);
	}
done:
	ca_statefile_unlock(lock);
}

int
main(int argc, char **argv)
{
	struct action *acts = ca_xcalloc((size_t)argc + 1, sizeof *acts);

	cli_init(argc, argv, "userprio-calc");
	int nacts = take_actions(&argc, argv, acts);
	int first = cli_parse(&spec, argc, argv, option, NULL);
	check_args(argv + first, argc - first);
	ca_acct_init(&acct);
	ca_ctx_init(&cx);
	cx.now = cli_common.now;
	if (cli_common.configs.n > 0)
		load_config();
	run(acts, nacts);
	ca_acct_free(&acct);
	ca_ctx_free(&cx);
	ca_intern_cleanup();
	strbuf_release(&done_msgs);
	free(acts);
	return cli_finish();
}
