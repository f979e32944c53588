/* cli.h - what every program shares: its name, diagnostics in the
 * "prog: file:line:col: message" form, exit statuses and option helpers. */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "classad.h"

/* ---- options: each program declares its options once, in a table ----
 *
 * A row gives the short letter (or a number >= CLI_LONG for an option with
 * only a long name), the long name, whether it takes a value, the value's
 * name and the usage text. cli_parse builds getopt's option string and long
 * options from the table, and cli_usage the --help text, so the three can
 * never disagree. A row with neither letter nor name is a heading of the
 * usage; a row without help is not listed. The options every program
 * shares (CLI_OPT_NOW, CLI_OPT_CONFIG, ...) are rows too, and cli_parse
 * keeps their values in cli_common. */
enum { CLI_NOARG, CLI_ARG, CLI_OPTARG };
enum { CLI_LONG = 256, CLI_POS = 1, CLI_DASHDASH = 2 };
/* the shared options' keys */
enum {
	CLI_K_NOW = 200, CLI_K_CONFIG, CLI_K_IN, CLI_K_OUT, CLI_K_GZIP, CLI_K_HELP, CLI_K_VERSION,
	CLI_K_QUIET
};

typedef struct cli_opt {
	int key;		/* letter, CLI_LONG + n, or a CLI_K_* (shared) */
	int letter;		/* for shared rows: their letter (0: long only) */
	const char *name;	/* long name, or NULL */
	int arg;		/* CLI_NOARG, CLI_ARG or CLI_OPTARG */
	const char *meta;	/* the value in the usage: "FILE" */
	const char *help;	/* the usage text; '\n' starts a continued line */
	/* The spelling of HTCondor's tool for the same meaning, with one
	 * dash ("constraint" for -constraint), and how short an abbreviation
	 * of it may be (0: only the whole word), as condor_q and
	 * condor_status accept -const for -constraint. */
	const char *condor;
	int condor_min;
} cli_opt;

#define CLI_HEADING(text)	{ 0, 0, NULL, 0, NULL, text }
#define CLI_OPT_NOW		{ CLI_K_NOW, 0, "now", CLI_ARG, "EPOCH", \
	"the current time (default: the clock)" }
#define CLI_OPT_CONFIG		{ CLI_K_CONFIG, 'c', "config", CLI_ARG, "FILE", \
	"HTCondor configuration (repeatable: read in order, later wins)" }
#define CLI_OPT_IN(letter)	{ CLI_K_IN, letter, "input-format", CLI_ARG, "FORMAT", \
	"auto|long|new|json|xml (every input)" }
#define CLI_OPT_OUT		{ CLI_K_OUT, 'o', "output-format", CLI_ARG, "FORMAT", \
	"long|new|json|xml (default long)" }
#define CLI_OPT_GZIP		{ CLI_K_GZIP, 'z', "gzip", CLI_NOARG, NULL, \
	"compress the output with gzip" }
#define CLI_OPT_QUIET		{ CLI_K_QUIET, 'q', "quiet", CLI_NOARG, NULL, \
	"no progress line on standard error" }
#define CLI_OPT_HELP		{ CLI_K_HELP, 'h', "help", CLI_NOARG, NULL, \
	"this text;  -V, --version  the version" }, \
				{ CLI_K_VERSION, 'V', "version", CLI_NOARG, NULL, NULL }
/* A row that lets long options be given with one dash too (-dump, -config
 * FILE), as HTCondor's tools spell them; -x stays the letter x. */
#define CLI_END			{ 0, 0, NULL, 0, NULL, NULL }

typedef struct cli_spec {
	const char *synopsis;	/* "usage: prog ..." lines */
	const char *about;	/* text before the options, or NULL */
	const cli_opt *opts;	/* ends with CLI_END */
	const char *footer;	/* text after the options (exit statuses), or NULL */
	bool in_order;		/* positional arguments come to fn as CLI_POS, in order */
	bool long_only;		/* long names may be written with one dash too
				 * (-all, -config F), as HTCondor's tools take
				 * them: getopt_long_only, where "-c" is still the
				 * letter c and "-co" an abbreviation of config */
} cli_spec;

/* The shared options' values after cli_parse. */
struct cli_common {
	int64_t now;		/* --now, else the clock */
	bool now_set;
	ca_vec(const char *) configs;	/* -c FILEs in order */
	ca_format in, out;	/* CA_FMT_AUTO, CA_FMT_LONG unless given */
	bool gzip;
	bool in_set, out_set, gzip_set;
	bool quiet;		/* -q: no progress line on standard error */
};
extern struct cli_common cli_common;

/* The option handler: key is the row's key (shared rows reach it too, after
 * cli_common is set, so a program may note that one was given), val its
 * value or NULL. While it runs, argv[optind - 1] is the argument at hand.
 * With in_order, "--" comes as CLI_DASHDASH before the arguments after it. */
typedef void (*cli_fn)(void *arg, int key, char *val);

/* Parse argv by the table. -h prints the usage (cli_usage) and -V the
 * version, both exiting 0; an unknown option or a missing value is a usage
 * error (exit 2). Returns the index in argv of the first argument left
 * (all of them, after "--", when in_order). */
int cli_parse(const cli_spec *spec, int argc, char **argv, cli_fn fn, void *arg);
void cli_usage(const cli_spec *spec, FILE *fp);
/* Load every -c file into cfg in order; 0, or -1 after reporting. */
struct ca_config;
int cli_load_configs(struct ca_config *cfg);
/* Then, on standard error, what the files' `warning :` lines said and each
 * knob that would change a decision of subsys's daemon ("NEGOTIATOR",
 * "STARTD", "SCHEDD") but is not simulated; the exit status is unchanged. */
void cli_config_warnings(struct ca_config *cfg, const char *subsys);
/* Only the knobs and templates of cfg no program simulates (for subsys's
 * daemon, or every daemon when subsys is NULL), as warnings. */
void cli_unsimulated(struct ca_config *cfg, const char *subsys);
/* A warning for each attribute of job (read at file:line) that would change
 * what the schedd or the negotiator does but is not simulated, once per
 * attribute in a run. */
void cli_job_warnings(const struct ca_ad *job, const char *file, int line);

#define CA_VERSION "0.1.0"

/* Exit statuses shared by every program (each man page lists them): the
 * library's, diag.h. */
enum {
	EX_OK = CA_EX_OK,
	EX_NO = CA_EX_NO,
	EX_USAGE = CA_EX_USAGE,
	EX_INPUT = CA_EX_INPUT,
	EX_SYSTEM = CA_EX_SYSTEM
};

extern const char *progname;
extern int cli_status;		/* worst status so far (keeps the maximum) */

void cli_init(int argc, char **argv, const char *name);
/* Every message goes to stderr through one function, which escapes control
 * bytes and bytes that are not UTF-8 as \xHH (a file name or an ad cannot
 * drive the terminal) and keeps each message on one line. */
/* "prog: message" on stderr. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Each line of text as "prog: PREFIXline". */
void cli_err_lines(const char *prefix, const char *text);
/* The name of an input in messages: "<stdin>" for "-". */
const char *cli_display(const char *path);
/* "file:line:col: message" without the program's name (the REPL's). */
void cli_msg(const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* text as it is, but its control and stray bytes escaped (\t and \n kept). */
void cli_write_safe(FILE *fp, const char *text, size_t n);
/* "prog: file:line:col: message"; line/col 0 are left out. */
void cli_errat(const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The one place a diagnostic is printed: "prog: file:line:col: message",
 * raising cli_status to its status (3 or 4). */
void cli_diag(const ca_diag *e);
/* A diagnostic that does not change the exit status (a warning, a file
 * set aside): "prog: file:line:col: message", or "prog: message" when it
 * is about no file. */
void cli_note(const ca_diag *e);
/* Reading every ad of a file the same way in every program: cli_open opens
 * path ("-": standard input) or reports why not (NULL); cli_next_ad gives
 * the next ad (1) or says the input is over (0). A bad ad is reported with
 * its file, line and column and skipped, raising the exit status, and *bad
 * (when not NULL) set; reading stops after an I/O error. A long read shows
 * its progress on standard error at a terminal (unless cli_common.quiet). */
ca_reader *cli_open(const char *path, ca_format fmt);
int cli_next_ad(ca_reader *r, ca_ad **ad, bool *bad);
/* Progress of long work other than reading, on the same terms: whether a
 * line is due now (at a terminal, not -q, two seconds after the program
 * began, twice a second; it reads the clock: call it every so often),
 * the line (over the last one), and its end (erased). */
bool cli_progress_due(void);
void cli_progress_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_progress_end(void);
/* n ads read by another process of the program (the line, when due) */
void cli_progress_ads(uint64_t n);
/* A worker process of the program: its parent shows the progress. */
void cli_progress_off(void);
/* A worker process that reads part of file (the name its messages give,
 * compared by address), numbering its lines from 1: the line of a message
 * placed in that file is written as a mark its parent puts the file's own
 * line in place of (cli_relay). NULL: lines as they are. */
void cli_lines_relative(const char *file);
/* Messages another process of the program wrote, already in their form;
 * a line marked by cli_lines_relative becomes line + base - 1. */
void cli_relay(const char *text, size_t n, int64_t base);
void cli_raise(int status);
/* "prog: message", then exit(status). */
void cli_die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void cli_version(void) __attribute__((noreturn));	/* "prog (classad-tools) VERSION", exit 0 */
/* -h/--help: the usage text on standard output, exit 0. */
void cli_help(const char *usage) __attribute__((noreturn));
/* The default: of every program's getopt loop, run with opterr = 0 and
 * ':' leading the option letters: an unknown option, or one without its
 * value (ch ':'), is a usage error naming it as it was given. */
void cli_bad_option(int ch, char *const *argv) __attribute__((noreturn));
/* The expression an option gives (-w, --constraint, ...), parsed into a with
 * parser flags pflags; one that does not parse is reported as
 * "prog: <OPT>:line:col: message" and the program exits 3. */
ca_expr *cli_expr(ca_arena *a, const char *opt, const char *text, int pflags);
/* Usage error: message, "Try 'prog --help'.", exit 2. */
void cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Parse an integer option value within [min,max] or die with a usage error. */
int64_t cli_int(const char *opt, const char *s, int64_t min, int64_t max);
double cli_real(const char *opt, const char *s);
/* --now EPOCH */
int64_t cli_now(const char *s);
/* -o / -i format names */
ca_format cli_format(const char *opt, const char *s, bool allow_auto);
/* Flush stdout; report and raise status 4 on a write error. Returns cli_status. */
int cli_finish(void);

#endif
