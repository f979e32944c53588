/* cli.c - the helpers every program shares: diagnostics in the
 * "prog: file:line:col: message" form, exit statuses, option values. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>

#include "cli.h"
#include "classad.h"
#include "condor.h"

const char *progname = "classad-tools";
int cli_status;
struct cli_common cli_common;

static void progress_begin(void);
static bool terminal(FILE *fp);

void
cli_init(int argc, char **argv, const char *name)
{
	(void)argc;
	(void)argv;
	progname = name;
	cli_status = EX_OK;
	/* ads written to a file or a pipe go in large writes: stdio's 4 KB
	 * made a system call for every ad or two (glibc sizes a buffer it
	 * allocates itself by the file's block, whatever it is asked) */
	static char outbuf[1 << 18];
	if (!terminal(stdout))
		(void)setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
	progress_begin();
}

void
cli_raise(int status)
{
	if (status > cli_status)
		cli_status = status;
}

/* Length of the well-formed UTF-8 sequence at s (n bytes left) that is not
 * a C1 control (U+0080-U+009F, which terminals may obey), or 0. */
static size_t
utf8_ok(const unsigned char *s, size_t n)
{
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;

	if (len == 0 || len > n || s[0] > 0xf4)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (len == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 0;
	if ((len == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (len == 4 && s[0] == 0xf0 && s[1] < 0x90) ||
	    (len == 4 && s[0] == 0xf4 && s[1] >= 0x90) || (len == 3 && s[0] == 0xed && s[1] >= 0xa0))
		return 0;	/* overlong, beyond U+10FFFF, surrogates */
	return len;
}

void
cli_write_safe(FILE *fp, const char *text, size_t n)
{
	const unsigned char *s = (const unsigned char *)text;

	for (size_t i = 0; i < n;) {
		size_t k;
		if (s[i] >= 0x20 && s[i] < 0x7f) {
			for (k = i; k < n && s[k] >= 0x20 && s[k] < 0x7f; k++)
				;
			fwrite(s + i, 1, k - i, fp);
			i = k;
		} else if (s[i] == '\t' || s[i] == '\n') {
			fputc(s[i++], fp);
		} else if (s[i] >= 0x80 && (k = utf8_ok(s + i, n - i)) > 0) {
			fwrite(s + i, 1, k, fp);
			i += k;
		} else
			fprintf(fp, "\\x%02x", s[i++]);
	}
}

/*
 * Progress while ads are read, on standard error: from two seconds after
 * the program began, twice a second, how many ads and how fast, on one
 * line written over in place and erased when the input ends or a message
 * comes. Long work after the reading (a negotiation cycle, a replay) says
 * how far it is the same way. Only at a terminal (standard error one,
 * standard output not: output to the terminal would run into the line)
 * and never with -q.
 */
#define PROGRESS_AFTER	2.0	/* seconds before the first line */
#define PROGRESS_EVERY	0.5
#define PROGRESS_CHECK	1024	/* ads between looks at the clock */

static struct {
	int on;			/* 0 not known yet, 1 yes, -1 no */
	uint64_t ads;
	double start, next;
	bool shown;		/* a line is on the terminal */
} progress;

static double
mono_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
progress_erase(void)
{
	if (progress.shown) {
		fputs("\r\033[K", stderr);
		progress.shown = false;
	}
}

/* Is fp a terminal? (tcgetattr rather than isatty: unistd.h would
 * declare names the programs use, such as acct, where one file includes
 * another.) */
static bool
terminal(FILE *fp)
{
	struct termios t;

	return tcgetattr(fileno(fp), &t) == 0;
}

/* The clock of the progress starts with the program. */
static void
progress_begin(void)
{
	progress.start = mono_seconds();
	progress.next = progress.start + PROGRESS_AFTER;
}

static bool
progress_on(void)
{
	if (progress.on == 0)
		progress.on = !cli_common.quiet && terminal(stderr) && !terminal(stdout) ? 1 : -1;
	return progress.on > 0;
}

bool
cli_progress_due(void)
{
	if (!progress_on())
		return false;
	double now = mono_seconds();
	if (now < progress.next)
		return false;
	progress.next = now + PROGRESS_EVERY;
	return true;
}

void
cli_progress_line(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "\r%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\033[K", stderr);
	fflush(stderr);
	progress.shown = true;
}

void
cli_progress_end(void)
{
	progress_erase();
}

void
cli_progress_ads(uint64_t n)
{
	uint64_t before = progress.ads;

	progress.ads += n;
	if (before / PROGRESS_CHECK == progress.ads / PROGRESS_CHECK || !cli_progress_due())
		return;
	cli_progress_line("%" PRIu64 " ads read, %.0f a second", progress.ads,
	    (double)progress.ads / (mono_seconds() - progress.start));
}

void
cli_progress_off(void)
{
	progress.on = -1;
	progress.shown = false;
}

static void
progress_ad(void)
{
	cli_progress_ads(1);
}

/* The file whose lines a worker numbers from its part's start, or NULL. */
static const char *relative_file;

/* A worker's mark for its parent: the line, between bytes that no message
 * written safely holds. */
#define LINE_MARK	'\001'
#define LINE_MARK_END	'\002'

void
cli_lines_relative(const char *file)
{
	relative_file = file;
}

/* A newline inside a message is escaped too: a message is one line. */
static void
one_line(strbuf *sb)
{
	for (size_t i = 0; i < sb->len; i++)
		if (sb->buf[i] == '\n') {
			strbuf t = STRBUF_INIT;
			strbuf_add(&t, sb->buf, i);
			strbuf_adds(&t, "\\n");
			strbuf_add(&t, sb->buf + i + 1, sb->len - i - 1);
			strbuf_release(sb);
			*sb = t;
		}
}

/* The one place messages reach the terminal: "prog: " (unless NULL), the
 * place, the message, with every control byte and stray byte escaped as
 * \xHH, so nothing a file name or an ad holds can drive the terminal. */
static void
vemit(const char *prog, const char *file, int line, int col, const char *fmt, va_list ap)
{
	strbuf head = STRBUF_INIT, tail = STRBUF_INIT;

	if (prog)
		strbuf_addf(&head, "%s: ", prog);
	if (file || line > 0) {
		strbuf_addf(&head, "%s:", file ? file : "<stdin>");
		if (line > 0) {
			strbuf_addc(&tail, ':');
			if (col > 0)
				strbuf_addf(&tail, "%d:", col);
		}
		strbuf_addc(&tail, ' ');
	}
	strbuf_vaddf(&tail, fmt, ap);
	one_line(&head);
	one_line(&tail);
	strbuf_addc(&tail, '\n');
	progress_erase();
	cli_write_safe(stderr, head.buf, head.len);
	if (line > 0 && file != NULL && file == relative_file)
		fprintf(stderr, "%c%d%c", LINE_MARK, line, LINE_MARK_END);
	else if (line > 0)
		fprintf(stderr, "%d", line);
	cli_write_safe(stderr, tail.buf, tail.len);
	strbuf_release(&head);
	strbuf_release(&tail);
}

void
cli_relay(const char *text, size_t n, int64_t base)
{
	const char *end = text + n;

	progress_erase();
	while (text < end) {
		const char *m = memchr(text, LINE_MARK, (size_t)(end - text));
		fwrite(text, 1, (size_t)((m ? m : end) - text), stderr);
		if (m == NULL)
			break;
		int64_t line = 0;
		for (text = m + 1; text < end && *text >= '0' && *text <= '9'; text++)
			line = line < INT64_MAX / 10 ? line * 10 + (*text - '0') : INT64_MAX;
		if (text < end && *text == LINE_MARK_END)
			text++;
		fprintf(stderr, "%" PRId64, line > INT64_MAX - base ? INT64_MAX : line + base - 1);
	}
}

const char *
cli_display(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

void
cli_msg(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vemit(NULL, file, line, col, fmt, ap);
	va_end(ap);
}

void
cli_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vemit(progname, NULL, 0, 0, fmt, ap);
	va_end(ap);
}

void
cli_errat(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vemit(progname, file ? file : "<stdin>", line, col, fmt, ap);
	va_end(ap);
}

void
cli_diag(const ca_diag *e)
{
	cli_errat(e->file, e->line, e->col, "%s", e->msg);
	cli_raise(e->status == CA_EX_SYSTEM ? EX_SYSTEM : EX_INPUT);
}

void
cli_note(const ca_diag *e)
{
	if (e->file != NULL)
		cli_errat(e->file, e->line, e->col, "%s", e->msg);
	else
		cli_err("%s", e->msg);
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
		if (err.status == CA_EX_SYSTEM)
			return 0;
	}
	if (rc == 1)
		progress_ad();
	else
		progress_erase();
	if (rc == 0 && ca_reader_warning(r, &err))
		cli_errat(err.file, err.line, err.col, "warning: %s", err.msg);
	return rc;
}

void
cli_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vemit(progname, NULL, 0, 0, fmt, ap);
	va_end(ap);
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

/* The options of the table being parsed, for "did you mean" hints. */
static const cli_opt *hint_rows;

/* Edit distance of a and b, counting a swap of neighbours as one edit,
 * or 99 when the two are far apart in length. */
static int
distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	int d[40][40];

	if (n >= 40 || m >= 40 || (n > m ? n - m : m - n) > 2)
		return 99;
	for (size_t i = 0; i <= n; i++)
		for (size_t j = 0; j <= m; j++) {
			if (i == 0 || j == 0) {
				d[i][j] = (int)(i + j);
				continue;
			}
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	return d[n][m];
}

/* The nearest spelling of an option to what was given (without its
 * dashes and value), or NULL when none is near. */
static const char *
near_miss(const char *given, bool one_dash, char *buf, size_t len)
{
	char word[40];
	size_t n = strcspn(given, "=");
	int best = 3;

	if (hint_rows == NULL || n == 0 || n >= sizeof word)
		return NULL;
	memcpy(word, given, n);
	word[n] = '\0';
	buf[0] = '\0';
	/* the spellings with as many dashes as were typed come first, so
	 * they win a tie */
	for (int pass = 0; pass < 2; pass++)
		for (const cli_opt *o = hint_rows; o->key || o->name || o->help; o++) {
			bool condor = (pass == 0) == one_dash;
			const char *w = condor ? o->condor : o->name;
			int d;
			if (w && (d = distance(word, w)) < best && d < (int)n) {
				best = d;
				snprintf(buf, len, "%s%s", condor ? "-" : "--", w);
			}
		}
	return buf[0] ? buf : NULL;
}

void
cli_bad_option(int ch, char *const *argv)
{
	const char *arg = argv[optind - 1];
	/* getopt gives a byte above 127 as a negative optopt */
	int oc = optopt >= -128 && optopt < 0 ? optopt + 256 : optopt;
	char letter[3] = { '-', (char)oc, '\0' }, hint[64];

	/* inside a cluster (-reverze), getopt has not moved past it yet */
	if (oc > 0 && oc < 256 && argv[optind] != NULL && argv[optind][0] == '-' &&
	    argv[optind][1] != '-' && strchr(argv[optind] + 1, oc) != NULL)
		arg = argv[optind];
	/* a short option by its letter (it may sit in a cluster like -zq);
	 * a long one (or an unknown getopt_long_only word) as written */
	bool is_short = oc > 0 && oc < 256 && !(arg[0] == '-' && arg[1] == '-');
	const char *name = is_short ? letter : arg;

	if (ch == ':')
		cli_usage_error("option '%s' needs a value", name);
	const char *near = is_short ? (arg[0] == '-' && strlen(arg) > 3 ?
	    near_miss(arg + 1, true, hint, sizeof hint) : NULL) :
	    strlen(arg) >= 2 ? near_miss(arg + 2, false, hint, sizeof hint) : NULL;
	if (near && is_short)
		cli_usage_error("unknown or ambiguous option '%s' (in '%s'); did you mean '%s'?",
		    name, arg, near);
	if (near)
		cli_usage_error("unknown or ambiguous option '%s'; did you mean '%s'?", name, near);
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
	strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	cli_err("%s", sb.buf);
	strbuf_release(&sb);
	fprintf(stderr, "Try '%s --help'.\n", progname);
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
	case CLI_K_QUIET:
		cli_common.quiet = true;
		break;
	default:
		break;
	}
}

static char **condor_argv;	/* argv with HTCondor's spellings rewritten */
/* What cli_parse builds for getopt, and the order of the rewritten copy of
 * argv: kept here so that an exit during the parse (a usage error, --help)
 * leaves nothing allocated behind. */
static ca_vec(struct option) longopts;
static strbuf shortopts = STRBUF_INIT;
static char **copy_order;

static void
free_parse(void)
{
	ca_vec_free(&longopts);
	strbuf_release(&shortopts);
	free(copy_order);
	copy_order = NULL;
}

static void
free_common(void)
{
	free_parse();
	ca_vec_free(&cli_common.configs);
	if (condor_argv != NULL)
		for (char **a = condor_argv; *a; a++)
			free(*a);
	free(condor_argv);
	condor_argv = NULL;
}

/* The row whose HTCondor spelling arg ("-constraint=...", "-const",
 * "-af:h") is, or NULL: the whole word, or an abbreviation of at least
 * condor_min letters that names one row only. */
static const cli_opt *
condor_row(const cli_opt *rows, const char *arg)
{
	const cli_opt *found = NULL;

	if (arg[0] != '-' || arg[1] == '-')
		return NULL;	/* and "" has no arg + 1 */
	size_t n = strcspn(arg + 1, "=:");
	if (n < 2)
		return NULL;
	for (const cli_opt *o = rows; o->key || o->name || o->help; o++) {
		if (o->condor == NULL || o->name == NULL)
			continue;
		if (strlen(o->condor) == n && strncmp(o->condor, arg + 1, n) == 0)
			return o;
		if (o->condor_min > 0 && n >= (size_t)o->condor_min && n < strlen(o->condor) &&
		    strncmp(o->condor, arg + 1, n) == 0) {
			if (found != NULL && found != o)
				return NULL;	/* ambiguous */
			found = o;
		}
	}
	return found;
}

/* A copy of argv with every HTCondor spelling replaced by the long option
 * it stands for ("-constraint X" becomes "--constraint X"), up to "--". */
static char **
rewrite_condor(const cli_opt *rows, int argc, char **argv)
{
	char **a = ca_xcalloc((size_t)argc + 1, sizeof *a);
	bool done = false;

	for (int i = 0; i < argc; i++) {
		const cli_opt *o = done || i == 0 ? NULL : condor_row(rows, argv[i]);
		if (o != NULL) {
			/* "-af:h" (qualifiers after a colon) is "--af=:h" */
			const char *rest = argv[i] + 1 + strcspn(argv[i] + 1, "=:");
			size_t len = strlen(o->name) + strlen(rest) + 4;
			a[i] = ca_xmalloc(len);
			snprintf(a[i], len, "--%s%s%s", o->name, *rest == ':' ? "=" : "", rest);
		} else
			a[i] = ca_xstrndup(argv[i], strlen(argv[i]));
		if (strcmp(argv[i], "--") == 0)
			done = true;
	}
	return a;
}

int
cli_parse(const cli_spec *spec, int argc, char **argv, cli_fn fn, void *arg)
{
	const cli_opt *rows = spec->opts;
	char **given = argv;
	size_t nrows = 0;
	int ch;

	cli_common.now = (int64_t)time(NULL);
	cli_common.in = CA_FMT_AUTO;
	cli_common.out = CA_FMT_LONG;
	atexit(free_common);
	hint_rows = rows;
	for (const cli_opt *o = rows; o->key || o->name || o->help; o++)
		if (o->condor != NULL) {
			argv = condor_argv = rewrite_condor(rows, argc, argv);
			copy_order = ca_xcalloc((size_t)argc + 1, sizeof *copy_order);
			memcpy(copy_order, argv, (size_t)argc * sizeof *copy_order);
			break;
		}
	strbuf_adds(&shortopts, spec->in_order ? "-:" : ":");
	for (const cli_opt *o = rows; o->key || o->name || o->help; o++, nrows++) {
		int l = letter_of(o);
		if (l) {
			strbuf_addc(&shortopts, (char)l);
			if (o->arg != CLI_NOARG)
				strbuf_adds(&shortopts, o->arg == CLI_OPTARG ? "::" : ":");
		}
		if (o->name)
			*ca_vec_push(&longopts) = (struct option){ o->name,
			    o->arg == CLI_ARG ? required_argument :
			    o->arg == CLI_OPTARG ? optional_argument : no_argument,
			    NULL, 1000 + (int)nrows };
	}
	*ca_vec_push(&longopts) = (struct option){ NULL, 0, NULL, 0 };

	opterr = 0;
	while ((ch = (spec->long_only ? getopt_long_only : getopt_long)(argc, argv,
	    shortopts.buf, longopts.at, NULL)) != -1) {
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
		if (o == NULL)
			cli_bad_option(ch, argv);
		if (o->key == CLI_K_HELP) {
			cli_usage(spec, stdout);
			exit(cli_finish());
		}
		if (o->key == CLI_K_VERSION)
			cli_version();
		shared(o, optarg);
		fn(arg, o->key, optarg);
	}
	/* after "--"; optind - 1 is the argument's index, as for the others */
	if (spec->in_order && optind < argc)
		fn(arg, CLI_DASHDASH, NULL);
	if (spec->in_order)
		while (optind < argc) {
			optind++;
			fn(arg, CLI_POS, argv[optind - 1]);
		}
	/* getopt moved the arguments of the rewritten copy: move the caller's
	 * the same way, so argv[optind...] are the arguments left */
	if (argv != given) {
		char **orig = ca_xcalloc((size_t)argc + 1, sizeof *orig);
		memcpy(orig, given, (size_t)argc * sizeof *orig);
		for (int i = 0; i < argc; i++)
			for (int k = 0; k < argc; k++)
				if (copy_order[k] == argv[i])	/* the copy of given[k] */
					given[i] = orig[k];
		free(orig);
	}
	free_parse();
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

static void
unsimulated(void *arg, const ca_config_unsim *u)
{
	strbuf sb = STRBUF_INIT;

	(void)arg;
	ca_config_unsim_format(u, &sb);
	cli_err("warning: %s", sb.buf);
	strbuf_release(&sb);
}

void
cli_err_lines(const char *prefix, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");
		cli_err("%s%.*s", prefix, (int)n, text);
		text += n + (text[n] == '\n');
	}
}

void
cli_unsimulated(ca_config *cfg, const char *subsys)
{
	ca_config_unsimulated(cfg, subsys, unsimulated, NULL);
}

void
cli_config_warnings(ca_config *cfg, const char *subsys)
{
	cli_err_lines("warning: ", ca_config_warnings(cfg));
	cli_unsimulated(cfg, subsys);
}

/* ---- job attributes not simulated ---- */

struct job_place {
	const char *file;
	int line;
};

static void
job_unsim(void *arg, const ca_ad *job, const ca_job_unsim *u)
{
	const struct job_place *at = arg;
	const ca_attr *a = ca_ad_findn(job, u->name, strlen(u->name));
	strbuf sb = STRBUF_INIT;

	ca_print_expr(&sb, ca_attr_expr(job, a), 0);
	cli_errat(at->file, at->line, 0, "warning: %s = %s is not simulated (%s); later "
	    "jobs with it are not reported", u->name, sb.buf, u->why);
	strbuf_release(&sb);
}

void
cli_job_warnings(const ca_ad *job, const char *file, int line)
{
	static uint32_t seen;
	struct job_place at = { file, line };

	ca_job_unsimulated(job, &seen, job_unsim, &at);
}
