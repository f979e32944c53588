/* cli.c - the helpers every program shares: diagnostics in the
 * "prog: file:line:col: message" form, exit statuses, option values. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "classad.h"

const char *progname = "classad-tools";
int cli_status;

void
cli_init(int argc, char **argv, const char *name)
{
	(void)argc;
	(void)argv;
	progname = name;
	cli_status = EX_OK;
}

void
cli_raise(int status)
{
	if (status > cli_status)
		cli_status = status;
}

void
cli_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
cli_errat(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s:", progname, file ? file : "<stdin>");
	if (line > 0) {
		fprintf(stderr, "%d:", line);
		if (col > 0)
			fprintf(stderr, "%d:", col);
	}
	fputc(' ', stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
cli_rerr(const ca_diag *e)
{
	cli_errat(e->file, e->line, e->col, "%s", e->msg);
	cli_raise((e->status == CA_EX_SYSTEM) ? EX_SYSTEM : EX_INPUT);
}

ca_reader *
cli_open(const char *path, ca_format fmt)
{
	ca_diag err;
	ca_reader *r = ca_reader_open(path, fmt, &err);

	if (r == NULL)
		cli_rerr(&err);
	return r;
}

int
cli_next_ad(ca_reader *r, ca_ad **ad, bool *bad)
{
	ca_diag err;
	int rc;

	while ((rc = ca_reader_next(r, ad, &err)) < 0) {
		cli_rerr(&err);
		if (bad != NULL)
			*bad = true;
		if ((err.status == CA_EX_SYSTEM))
			return 0;
	}
	return rc;
}

void
cli_die(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

void
cli_version(void)
{
	printf("%s (classad-tools) %s\n", progname, CA_VERSION);
	exit(cli_finish());
}

void
cli_help(const char *usage)
{
	fputs(usage, stdout);
	exit(cli_finish());
}

void
cli_bad_option(int ch, char *const *argv)
{
	const char *arg = argv[optind - 1];
	char letter[3] = { '-', (char)optopt, '\0' };
	/* a short option by its letter (it may sit in a cluster like -zq);
	 * a long one (or an unknown getopt_long_only word) as written */
	const char *name = optopt > 0 && optopt < 128 && !(arg[0] == '-' && arg[1] == '-') ?
	    letter : arg;

	if (ch == ':')
		cli_usage_error("option '%s' needs a value", name);
	cli_usage_error("unknown or ambiguous option '%s'", name);
}

ca_expr *
cli_expr(ca_arena *a, const char *opt, const char *text, int pflags)
{
	ca_diag err;
	ca_expr *e = ca_parse_expr(a, text, strlen(text), pflags, &err);

	if (e == NULL) {
		char where[64];
		snprintf(where, sizeof where, "<%s>", opt);
		cli_errat(where, err.line, err.col, "%s", err.msg);
		exit(EX_INPUT);
	}
	return e;
}

void
cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", progname);
	exit(EX_USAGE);
}

int64_t
cli_int(const char *opt, const char *s, int64_t min, int64_t max)
{
	char *end;

	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (end == s || *end != '\0' || errno == ERANGE)
		cli_usage_error("%s: '%s' is not an integer", opt, s);
	if (v < min || v > max)
		cli_usage_error("%s: %s is out of range %lld-%lld", opt, s, (long long)min,
		    (long long)max);
	return v;
}

double
cli_real(const char *opt, const char *s)
{
	char *end;
	double v = ca_strtod(s, &end);

	if (end == s || *end != '\0')
		cli_usage_error("%s: '%s' is not a number", opt, s);
	return v;
}

int64_t
cli_now(const char *s)
{
	return cli_int("--now", s, -((int64_t)1 << 40), (int64_t)1 << 40);
}

ca_format
cli_format(const char *opt, const char *s, bool allow_auto)
{
	int f = ca_format_parse(s);

	if (f < 0 || (f == CA_FMT_AUTO && !allow_auto))
		cli_usage_error("%s: unknown format '%s' (long, new, json, xml%s)", opt, s,
		    allow_auto ? ", auto" : "");
	return (ca_format)f;
}

int
cli_finish(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_err("writing output failed: %s", strerror(errno ? errno : EIO));
		cli_raise(EX_SYSTEM);
	}
	return cli_status;
}
