/* cli.h - what every program shares: its name, diagnostics in the
 * "prog: file:line:col: message" form, exit statuses and option helpers. */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "classad.h"

#define CA_VERSION "0.1.0"

/* Exit statuses shared by every program (each man page lists them). */
enum {
	EX_OK = 0,
	EX_NO = 1,		/* a negative answer: no match, nothing selected */
	EX_USAGE = 2,
	EX_INPUT = 3,		/* malformed input */
	EX_SYSTEM = 4		/* I/O error, out of memory */
};

extern const char *progname;
extern int cli_status;		/* worst status so far (keeps the maximum) */

void cli_init(int argc, char **argv, const char *name);
/* "prog: message" on stderr. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "prog: file:line:col: message"; line/col 0 are left out. */
void cli_errat(const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Report a reader error and raise cli_status to 3 or 4. */
void cli_rerr(const ca_diag *e);
/* Reading every ad of a file the same way in every program: cli_open opens
 * path ("-": standard input) or reports why not (NULL); cli_next_ad gives
 * the next ad (1) or says the input is over (0). A bad ad is reported with
 * its file, line and column and skipped, raising the exit status, and *bad
 * (when not NULL) set; reading stops after an I/O error. */
ca_reader *cli_open(const char *path, ca_format fmt);
int cli_next_ad(ca_reader *r, ca_ad **ad, bool *bad);
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
