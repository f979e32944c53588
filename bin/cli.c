/* cli.c - the helpers every program shares: diagnostics in the
 * "prog: file:line:col: message" form, exit statuses, option values. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "classad.h"
#include "condor.h"

const char *progname = "classad-tools";
int cli_status;
struct cli_common cli_common;

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
cli_diag(const ca_diag *e)
{
	cli_errat(e->file, e->line, e->col, "%s", e->msg);
	cli_raise(e->status);
}

ca_reader *
cli_open(const char *path, ca_format fmt)
{
	ca_diag err;
	ca_reader *r = ca_reader_open(path, fmt, &err);

	if (r == NULL)
		cli_diag(&err);
	return r;
}

int
cli_next_ad(ca_reader *r, ca_ad **ad, bool *bad)
{
	ca_diag err;
	int rc;

	while ((rc = ca_reader_next(r, ad, &err)) < 0) {
		cli_diag(&err);
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

/* ---- the option tables ---- */

/* A row's short letter, or 0. */
static int
letter_of(const cli_opt *o)
{
	if (o->key > 0 && o->key < 128)
		return o->key;
	return o->letter;
}

static bool
is_heading(const cli_opt *o)
{
	return letter_of(o) == 0 && o->name == NULL;
}

/* The left column of a row: "  -c, --config FILE". */
static void
row_left(const cli_opt *o, strbuf *sb)
{
	int l = letter_of(o);

	strbuf_adds(sb, l ? "  -" : "    ");
	if (l)
		strbuf_addc(sb, (char)l);
	if (o->name)
		strbuf_addf(sb, "%s--%s", l ? ", " : "  ", o->name);
	if (o->meta)
		strbuf_addf(sb, o->arg == CLI_OPTARG ? "[=%s]" : " %s", o->meta);
}

void
cli_usage(const cli_spec *spec, FILE *fp)
{
	strbuf sb = STRBUF_INIT;
	size_t col = 0;

	for (const cli_opt *o = spec->opts; o->key || o->name || o->help; o++) {
		if (is_heading(o) || o->help == NULL)
			continue;
		strbuf_reset(&sb);
		row_left(o, &sb);
		if (sb.len + 2 > col && sb.len + 2 <= 26)
			col = sb.len + 2;
	}
	fputs(spec->synopsis, fp);
	if (spec->about)
		fprintf(fp, "\n%s", spec->about);
	else
		fputc('\n', fp);
	for (const cli_opt *o = spec->opts; o->key || o->name || o->help; o++) {
		if (o->help == NULL)
			continue;
		if (is_heading(o)) {
			fprintf(fp, "%s\n", o->help);
			continue;
		}
		strbuf_reset(&sb);
		row_left(o, &sb);
		fputs(sb.buf, fp);
		for (const char *h = o->help; *h;) {
			size_t n = strcspn(h, "\n");
			size_t at = h == o->help ? sb.len : 0;
			fprintf(fp, "%*s%.*s\n", at + 2 > col ? 2 : (int)(col - at), "", (int)n, h);
			h += n + (h[n] == '\n');
		}
	}
	if (spec->footer)
		fputs(spec->footer, fp);
	strbuf_release(&sb);
}

/* Keep a shared option's value in cli_common. */
static void
shared(const cli_opt *o, char *val)
{
	char opt[3] = { '-', (char)letter_of(o), '\0' };
	const char *name = letter_of(o) ? opt : o->key == CLI_K_NOW ? "--now" : o->name;

	switch (o->key) {
	case CLI_K_NOW:
		cli_common.now = cli_now(val);
		cli_common.now_set = true;
		break;
	case CLI_K_CONFIG:
		*ca_vec_push(&cli_common.configs) = val;
		break;
	case CLI_K_IN:
		cli_common.in = cli_format(name, val, true);
		cli_common.in_set = true;
		break;
	case CLI_K_OUT:
		cli_common.out = cli_format(name, val, false);
		cli_common.out_set = true;
		break;
	case CLI_K_GZIP:
		cli_common.gzip = cli_common.gzip_set = true;
		break;
	default:
		break;
	}
}

static void
free_common(void)
{
	ca_vec_free(&cli_common.configs);
}

int
cli_parse(const cli_spec *spec, int argc, char **argv, cli_fn fn, void *arg)
{
	ca_vec(struct option) lo = CA_VEC_INIT;
	strbuf shortopts = STRBUF_INIT;
	const cli_opt *rows = spec->opts;
	size_t nrows = 0;
	int ch;

	cli_common.now = (int64_t)time(NULL);
	cli_common.in = CA_FMT_AUTO;
	cli_common.out = CA_FMT_LONG;
	atexit(free_common);
	strbuf_adds(&shortopts, spec->in_order ? "-:" : ":");
	for (const cli_opt *o = rows; o->key || o->name || o->help; o++, nrows++) {
		int l = letter_of(o);
		if (l) {
			strbuf_addc(&shortopts, (char)l);
			if (o->arg != CLI_NOARG)
				strbuf_adds(&shortopts, o->arg == CLI_OPTARG ? "::" : ":");
		}
		if (o->name)
			*ca_vec_push(&lo) = (struct option){ o->name,
			    o->arg == CLI_ARG ? required_argument :
			    o->arg == CLI_OPTARG ? optional_argument : no_argument,
			    NULL, 1000 + (int)nrows };
	}
	*ca_vec_push(&lo) = (struct option){ NULL, 0, NULL, 0 };

	opterr = 0;
	while ((ch = (spec->long_only ? getopt_long_only : getopt_long)(argc, argv,
	    shortopts.buf, lo.at, NULL)) != -1) {
		const cli_opt *o = NULL;

		if (ch == 1 && spec->in_order) {
			fn(arg, CLI_POS, optarg);
			continue;
		}
		if (ch >= 1000 && ch < 1000 + (int)nrows)
			o = &rows[ch - 1000];
		else
			for (size_t i = 0; i < nrows && o == NULL; i++)
				if (ch != ':' && ch != '?' && letter_of(&rows[i]) == ch)
					o = &rows[i];
		if (o == NULL) {
			strbuf_release(&shortopts);
			ca_vec_free(&lo);
			cli_bad_option(ch, argv);
		}
		if (o->key == CLI_K_HELP) {
			cli_usage(spec, stdout);
			exit(cli_finish());
		}
		if (o->key == CLI_K_VERSION)
			cli_version();
		shared(o, optarg);
		fn(arg, o->key, optarg);
	}
	if (spec->in_order)
		for (; optind < argc; optind++)		/* after "--" */
			fn(arg, CLI_POS, argv[optind]);
	strbuf_release(&shortopts);
	ca_vec_free(&lo);
	return optind;
}

int
cli_load_configs(ca_config *cfg)
{
	for (size_t i = 0; i < cli_common.configs.n; i++) {
		ca_diag err;
		if (ca_config_load(cfg, cli_common.configs.at[i], &err) < 0) {
			cli_diag(&err);
			return -1;
		}
	}
	return 0;
}
