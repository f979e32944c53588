/* config_read.c - reading configuration files: statements, if/elif/else,
 * include (files and commands), use, LOCAL_CONFIG_DIR and LOCAL_CONFIG_FILE. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "config.h"
#include "config_priv.h"
#include "classad.h"

/*
 * A file is read a logical line at a time (continuations joined, comment
 * lines dropped), each line a statement: NAME = value, NAME += value,
 * NAME @=TAG, if/elif/else/endif, include, use, error, warning. Nested
 * sources (include, use, commands) are read by the same code, at most
 * CFG_MAX_NEST deep. Each line keeps a map from its offsets to the file's
 * lines and columns, so that every error names the place it was written.
 */

#define MAX_LOCAL_SOURCES	1000

struct ifstate {
	int line, col;
	bool parent_on;		/* the enclosing region is active */
	bool taken;		/* a branch of this if was (or may not be) taken */
	bool on;		/* the current branch is active */
	bool seen_else;
};

struct src {
	ca_config *cfg;
	const char *file;	/* in cfg->arena */
	const char *dir;	/* for relative includes; NULL: the working directory */
	const char *text;
	size_t len, pos;
	int line;		/* of the next physical line */
	int depth;		/* include and use nesting */
	ca_diag *err;
	const char *tmpl;	/* "CATEGORY:NAME" while reading a template */
	const char *ufile;	/* the use line of the outermost template */
	int uline;
	struct ifstate ifs[CFG_MAX_IF_DEPTH];
	int nifs;
};

/* A logical line: physical lines joined by continuations. */
struct logical {
	strbuf text;
	struct cfg_seg *segs;
	size_t nsegs, cap;
	int line;		/* of its first physical line */
	bool comment;
};

static int load_text(ca_config *cfg, const char *file, const char *dir, const char *text,
    size_t len, int depth, ca_diag *err, const struct src *parent, const char *tmpl);
static int load_path(ca_config *cfg, const char *path, int depth, bool ifexist, ca_diag *err,
    const char *efile, int eline, int ecol);

static void
seg_add(struct logical *lg, size_t off, int line, int col)
{
	if (lg->nsegs == lg->cap) {
		lg->cap = lg->cap ? lg->cap * 2 : 8;
		lg->segs = ca_xreallocarray(lg->segs, lg->cap, sizeof *lg->segs);
	}
	lg->segs[lg->nsegs++] = (struct cfg_seg){ off, line, col };
}

static bool
phys_line(struct src *s, const char **p, size_t *n, int *lineno)
{
	if (s->pos >= s->len)
		return false;
	const char *b = s->text + s->pos;
	const char *nl = memchr(b, '\n', s->len - s->pos);
	size_t l = nl ? (size_t)(nl - b) : s->len - s->pos;

	s->pos += l + (nl != NULL);
	*lineno = s->line++;
	if (l > 0 && b[l - 1] == '\r')
		l--;
	*p = b;
	*n = l;
	return true;
}

/* The next logical line; false at the end of the input. Leading and
 * trailing blanks go, as HTCondor's reader drops them; a comment line
 * inside a continued value is skipped, and a '\' ending a comment line
 * continues nothing. */
static bool
logical_line(struct src *s, struct logical *lg)
{
	const char *p;
	size_t n;
	int ln;
	bool cont = false;

	strbuf_reset(&lg->text);
	lg->nsegs = 0;
	lg->comment = false;
	for (;;) {
		if (!phys_line(s, &p, &n, &ln))
			return cont;
		size_t lead = 0;
		while (lead < n && cfg_is_blank((unsigned char)p[lead]))
			lead++;
		while (n > lead && cfg_is_blank((unsigned char)p[n - 1]))
			n--;
		bool comment = lead < n && p[lead] == '#';
		if (cont && comment)
			continue;
		if (!cont) {
			lg->line = ln;
			seg_add(lg, 0, ln, (int)lead + 1);
			strbuf_add(&lg->text, p + lead, n - lead);
			if (comment) {
				lg->comment = true;
				return true;
			}
		} else {
			seg_add(lg, lg->text.len, ln, (int)lead + 1);
			strbuf_add(&lg->text, p + lead, n - lead);
		}
		if (lg->text.len > 0 && lg->text.buf[lg->text.len - 1] == '\\') {
			lg->text.buf[--lg->text.len] = '\0';
			cont = true;
			continue;
		}
		return true;
	}
}

/* Line and column of offset off of the logical line. */
static void
lg_where(const struct logical *lg, size_t off, int *line, int *col)
{
	struct cfg_entry e;

	memset(&e, 0, sizeof e);
	e.line = lg->line;
	e.col = 1;
	e.segs = lg->segs;
	e.nsegs = lg->nsegs;
	cfg_locate(&e, off, line, col);
}

static int
lg_err(struct src *s, const struct logical *lg, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
lg_err(struct src *s, const struct logical *lg, size_t off, const char *fmt, ...)
{
	va_list ap;
	int line, col;

	lg_where(lg, off, &line, &col);
	va_start(ap, fmt);
	ca_diag_vset(s->err, CA_EX_INPUT, s->file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

static bool
active(const struct src *s)
{
	return s->nifs == 0 || s->ifs[s->nifs - 1].on;
}

/* A stand-in entry for the logical line, so that expansion errors in it
 * point into the file. */
static void
line_entry(const struct src *s, const struct logical *lg, struct cfg_entry *e)
{
	memset(e, 0, sizeof *e);
	e->spell = (char *)"<line>";
	e->file = s->file;
	e->line = lg->line;
	e->col = 1;
	e->segs = lg->segs;
	e->nsegs = lg->nsegs;
}

/* Expand text that is part of a logical line (a condition, a file name). */
static int
expand_part(struct src *s, const struct logical *lg, size_t off, size_t len, strbuf *out)
{
	struct cfg_entry e;

	line_entry(s, lg, &e);
	return cfg_expand_text(s->cfg, &e, lg->text.buf + off, len, off, out, s->err);
}

static bool
word_is(const char *t, size_t len, const char *w)
{
	size_t n = strlen(w);

	return len >= n && cfg_ci_equal(t, n, w) && (len == n || cfg_is_blank((unsigned char)t[n]));
}

/* ---- conditions ---- */

/* Compare the version v[0..n) ("9.0", "8.2.3", "v10.0.1") with the one
 * imitated: -1, 0 or 1 in *cmp; false when it is not a version. */
static bool
version_cmp(const char *v, size_t n, int *cmp)
{
	int want[3] = { 0, 0, 0 }, have[3] = { 0, 0, 0 }, k = 0;
	const char *p = CA_CONFIG_VERSION;

	while (*p && k < 3) {
		have[k] = have[k] * 10 + (*p - '0');
		if (*++p == '.') {
			p++;
			k++;
		}
	}
	if (n > 0 && (*v == 'v' || *v == 'V')) {
		v++;
		n--;
	}
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] == '.' && k < 2 && i > 0 && v[i - 1] != '.') {
			k++;
			continue;
		}
		if (!cfg_is_digit((unsigned char)v[i]) || want[k] > 100000)
			return false;
		want[k] = want[k] * 10 + (v[i] - '0');
	}
	if (k < 1 || n == 0 || v[n - 1] == '.' || want[0] < 6)
		return false;
	if (k < 2)
		want[2] = have[2];	/* x.y means x.y in whatever release */
	*cmp = 0;
	for (int j = 0; j < 3 && *cmp == 0; j++)
		*cmp = have[j] < want[j] ? -1 : have[j] > want[j];
	return true;
}

/* Is c[0..n) a number (HTCondor's "if 1", "if 0.5")? *v gets it. */
static bool
plain_number(const char *c, size_t n, double *v)
{
	size_t i = (n > 0 && c[0] == '-');
	bool digit = false;

	for (; i < n; i++) {
		if (cfg_is_digit((unsigned char)c[i]))
			digit = true;
		else if (c[i] != '.' && c[i] != 'e' && c[i] != 'E' && c[i] != '+' && c[i] != '-')
			return false;
	}
	if (!digit)
		return false;
	char *end;
	char buf[64];
	if (n >= sizeof buf)
		return false;
	memcpy(buf, c, n);
	buf[n] = '\0';
	*v = ca_strtod(buf, &end);
	return *end == '\0';
}

/* "defined NAME", "defined true", "defined use CATEGORY[:NAME]". */
static int
cond_defined(struct src *s, const struct logical *lg, size_t off, const char *c, size_t n)
{
	double num;

	cfg_trim(&c, &n);
	if (n == 0)
		return 0;
	if (plain_number(c, n, &num) || cfg_ci_equal(c, n, "true") || cfg_ci_equal(c, n, "false"))
		return 1;
	if (word_is(c, n, "use")) {
		c += 3;
		n -= 3;
		cfg_trim(&c, &n);
		const char *colon = memchr(c, ':', n);
		size_t cl = colon ? (size_t)(colon - c) : n;
		for (size_t i = 0; i < n; i++)
			if (cfg_is_blank((unsigned char)c[i]))
				return lg_err(s, lg, off, "'defined use' with blanks in '%.*s' "
				    "never holds", (int)n, c);
		ca_config_template t;
		char cat[64], name[128];
		if (cl >= sizeof cat || (colon && n - cl - 1 >= sizeof name))
			return 0;
		memcpy(cat, c, cl);
		cat[cl] = '\0';
		if (colon == NULL || cl + 1 == n) {
			/* any template of that category */
			for (size_t i = 0; i < ca_config_template_count(s->cfg); i++) {
				ca_config_template_at(s->cfg, i, &t);
				if (cfg_ci_equal(cat, cl, t.category))
					return 1;
			}
			return 0;
		}
		memcpy(name, colon + 1, n - cl - 1);
		name[n - cl - 1] = '\0';
		return ca_config_template_find(s->cfg, cat, name, &t);
	}
	for (size_t i = 0; i < n; i++)
		if (!cfg_is_name_char((unsigned char)c[i]))
			return lg_err(s, lg, off, "'defined' needs a name, a boolean or a number, "
			    "not '%.*s'", (int)(n > 60 ? 60 : n), c);
	const struct cfg_entry *e = cfg_lookup(s->cfg, c, n);
	/* defined as empty is not defined, as in HTCondor */
	return e != NULL && e->len > 0;
}

/* "version >= 9.0": the operators ==, !=, <, <=, >, >= (and none: ==). */
static int
cond_version(struct src *s, const struct logical *lg, size_t off, const char *c, size_t n)
{
	size_t i = 0;
	bool neg = false, le = false, eq = false, ge = false;

	while (i < n && cfg_is_blank((unsigned char)c[i]))
		i++;
	if (i < n && c[i] == '!') {
		neg = true;
		i++;
	}
	if (i < n && (c[i] == '<' || c[i] == '>' || c[i] == '=')) {
		le = c[i] == '<';
		ge = c[i] == '>';
		eq = c[i] == '=';
		i++;
	}
	if (i < n && c[i] == '=') {
		eq = true;
		i++;
	}
	if (!le && !ge)
		eq = true;
	const char *v = c + i;
	size_t vl = n - i;
	int cmp;
	cfg_trim(&v, &vl);
	if (!version_cmp(v, vl, &cmp))
		return lg_err(s, lg, off, "'%.*s' is not a version (x.y or x.y.z)",
		    (int)(vl > 40 ? 40 : vl), v);
	bool r = (eq && cmp == 0) || (le && cmp < 0) || (ge && cmp > 0);
	return neg ? !r : r;
}

/* Evaluate the condition of if/elif at lg->text[off..off+len): HTCondor's
 * simple conditions, and (more than HTCondor, which refuses them) any
 * ClassAd expression without attribute references. 1 true, 0 false, -1
 * error. */
static int
condition(struct src *s, const struct logical *lg, size_t off, size_t len)
{
	strbuf sb = STRBUF_INIT;
	const char *c = lg->text.buf + off;
	size_t n = len;
	bool expanded = memchr(c, '$', n) != NULL, neg = false;
	int rc = -1;
	double num;

	if (expanded) {
		if (expand_part(s, lg, off, len, &sb) < 0)
			goto out;
		c = sb.buf;
		n = sb.len;
	}
	cfg_trim(&c, &n);
	if (n > 0 && *c == '!') {
		neg = true;
		c++;
		n--;
		cfg_trim(&c, &n);
	}
	size_t w = 0;
	while (w < n && !cfg_is_blank((unsigned char)c[w]) && c[w] != '<' && c[w] != '>' &&
	    c[w] != '=' && c[w] != '!')
		w++;
	if (n == 0 && expanded)
		rc = 0;		/* $(X) with X undefined or empty is false */
	else if (n == 0) {
		lg_err(s, lg, off, "missing condition");
		goto out;
	} else if (cfg_ci_equal(c, w, "defined"))
		rc = cond_defined(s, lg, off, c + w, n - w);
	else if (cfg_ci_equal(c, w, "version"))
		rc = cond_version(s, lg, off, c + w, n - w);
	else if (cfg_ci_equal(c, n, "true") || cfg_ci_equal(c, n, "yes") ||
	    cfg_ci_equal(c, n, "t"))
		rc = 1;
	else if (cfg_ci_equal(c, n, "false") || cfg_ci_equal(c, n, "no") ||
	    cfg_ci_equal(c, n, "f"))
		rc = 0;
	else if (plain_number(c, n, &num))
		rc = num != 0;
	else {
		ca_value v;
		int t = cfg_eval(s->cfg, c, n, &v, NULL) ? ca_value_truth(v) : -1;
		if (t < 0) {
			lg_err(s, lg, off, "condition '%.*s' is neither true nor false",
			    (int)(n > 60 ? 60 : n), c);
			goto out;
		}
		rc = t;
	}
	if (rc >= 0 && neg)
		rc = !rc;
out:
	strbuf_release(&sb);
	return rc;
}

/* if / elif / else / endif: the keyword at woff (wlen bytes), what follows
 * it at rest. */
static int
conditional(struct src *s, const struct logical *lg, size_t woff, size_t wlen, size_t rest,
    size_t rlen)
{
	struct ifstate *top = s->nifs ? &s->ifs[s->nifs - 1] : NULL;
	const char *word = lg->text.buf + woff;

	if (cfg_ci_equal(word, wlen, "if")) {
		if (s->nifs == CFG_MAX_IF_DEPTH)
			return lg_err(s, lg, woff, "'if' nested more than %d deep",
			    CFG_MAX_IF_DEPTH);
		struct ifstate *f = &s->ifs[s->nifs];
		memset(f, 0, sizeof *f);
		lg_where(lg, woff, &f->line, &f->col);
		f->parent_on = active(s);
		f->taken = true;
		if (f->parent_on) {
			int c = condition(s, lg, rest, rlen);
			if (c < 0)
				return -1;
			f->on = c;
			f->taken = c;
		}
		s->nifs++;
		return 0;
	}
	if (top == NULL)
		return lg_err(s, lg, woff, "'%.*s' without 'if'", (int)wlen, word);
	if (cfg_ci_equal(word, wlen, "elif")) {
		if (top->seen_else)
			return lg_err(s, lg, woff, "'elif' after 'else'");
		top->on = false;
		if (top->parent_on && !top->taken) {
			int c = condition(s, lg, rest, rlen);
			if (c < 0)
				return -1;
			top->on = c;
			top->taken = c;
		}
		return 0;
	}
	/* HTCondor ignores what follows else and endif; a comment is fine here,
	 * anything else ("else if ...") is a mistake worth naming */
	if (rlen > 0 && lg->text.buf[rest] != '#')
		return lg_err(s, lg, rest, "unexpected text after '%.*s'", (int)wlen, word);
	if (cfg_ci_equal(word, wlen, "else")) {
		if (top->seen_else)
			return lg_err(s, lg, woff, "second 'else'");
		top->seen_else = true;
		top->on = top->parent_on && !top->taken;
		top->taken = true;
		return 0;
	}
	s->nifs--;	/* endif */
	return 0;
}

/* ---- reading files and commands ---- */

/* The whole of fd; NULL on a read error, or with *len = SIZE_MAX when it is
 * longer than max. */
static char *
read_fd(int fd, size_t max, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf = ca_xmalloc(cap);

	for (;;) {
		if (n == cap) {
			if (cap >= max) {
				free(buf);
				*len = SIZE_MAX;
				return NULL;
			}
			buf = ca_xreallocarray(buf, cap *= 2, 1);
		}
		ssize_t got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			*len = 0;
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	*len = n;
	return buf;
}

static const char *
dir_of(ca_config *cfg, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return NULL;
	return ca_arena_strndup(&cfg->arena, path, (size_t)(slash - path) + (slash == path));
}

/* path relative to dir (NULL: as it is), in the arena. */
static const char *
relative(ca_config *cfg, const char *dir, const char *p, size_t n)
{
	strbuf sb = STRBUF_INIT;

	if (n > 0 && p[0] != '/' && dir != NULL) {
		strbuf_adds(&sb, dir);
		if (sb.len > 0 && sb.buf[sb.len - 1] != '/')
			strbuf_addc(&sb, '/');
	}
	strbuf_add(&sb, p, n);
	const char *r = ca_arena_strndup(&cfg->arena, sb.buf, sb.len);
	strbuf_release(&sb);
	return r;
}

static int
load_path(ca_config *cfg, const char *path, int depth, bool ifexist, ca_diag *err,
    const char *efile, int eline, int ecol)
{
	const char *file = ca_arena_strndup(&cfg->arena, path, strlen(path));
	bool std = strcmp(path, "-") == 0;
	int fd = std ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;

	if (std)
		file = "<stdin>";
	if (fd < 0) {
		int e = errno;
		if (ifexist && e == ENOENT)
			return 0;
		if (efile != NULL)
			ca_diag_set(err, CA_EX_SYSTEM, efile, eline, ecol, "cannot open %s: %s",
			    path, strerror(e));
		else
			ca_diag_set(err, CA_EX_SYSTEM, file, 0, 0, "cannot open: %s", strerror(e));
		return -1;
	}
	char *text = read_fd(fd, CFG_MAX_FILE, &len);
	int e = errno;
	if (!std)
		close(fd);
	if (text == NULL && len == SIZE_MAX) {
		if (efile != NULL)
			ca_diag_set(err, CA_EX_INPUT, efile, eline, ecol, "%s is longer than %zu MiB: "
			    "not a configuration file", path, CFG_MAX_FILE >> 20);
		else
			ca_diag_set(err, CA_EX_INPUT, file, 0, 0, "longer than %zu MiB: not a "
			    "configuration file", CFG_MAX_FILE >> 20);
		return -1;
	}
	if (text == NULL) {
		ca_diag_set(err, CA_EX_SYSTEM, file, 0, 0, "read error: %s", strerror(e));
		return -1;
	}
	*ca_vec_push(&cfg->sources) = file;
	int rc = load_text(cfg, file, std ? NULL : dir_of(cfg, path), text, len, depth, err,
	    NULL, NULL);
	free(text);
	return rc;
}

/* Split a command line at blanks; "..." and '...' keep blanks in a word. */
static char **
command_words(const char *cmd, size_t *nw)
{
	ca_vec(char *) v = CA_VEC_INIT;
	strbuf w = STRBUF_INIT;

	for (const char *p = cmd; *p;) {
		while (cfg_is_blank((unsigned char)*p) || *p == '\n')
			p++;
		if (*p == '\0')
			break;
		strbuf_reset(&w);
		char q = 0;
		for (; *p && (q || !(cfg_is_blank((unsigned char)*p) || *p == '\n')); p++) {
			if (q == 0 && (*p == '"' || *p == '\''))
				q = *p;
			else if (q != 0 && *p == q)
				q = 0;
			else
				strbuf_addc(&w, *p);
		}
		*ca_vec_push(&v) = ca_xstrndup(w.buf, w.len);
	}
	strbuf_release(&w);
	*ca_vec_push(&v) = NULL;
	*nw = v.n - 1;
	return v.at;
}

static void
free_words(char **w)
{
	for (char **p = w; *p; p++)
		free(*p);
	free(w);
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Run cmd (no shell: words split at blanks) with at most cfg->cmd_seconds
 * and CFG_MAX_OUTPUT bytes of output. 0: it ran, *status is its exit
 * status and *out (malloc'ed) its standard output; -1: why says why not. */
static int
run_command(ca_config *cfg, const char *cmd, char **out, size_t *outlen, int *status,
    strbuf *why)
{
	size_t nw;
	char **argv;
	int pfd[2];

	if (cfg->cmd_seconds <= 0) {
		strbuf_adds(why, "running commands is turned off");
		return -1;
	}
	argv = command_words(cmd, &nw);
	if (nw == 0) {
		free_words(argv);
		strbuf_adds(why, "no command");
		return -1;
	}
	if (pipe(pfd) < 0) {
		free_words(argv);
		strbuf_addf(why, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		strbuf_addf(why, "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		free_words(argv);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0 && null != 0) {
			dup2(null, 0);
			close(null);
		}
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free_words(argv);
	close(pfd[1]);

	size_t cap = 8192, n = 0;
	char *buf = ca_xmalloc(cap);
	int64_t deadline = now_ms() + (int64_t)cfg->cmd_seconds * 1000;
	const char *fail = NULL;
	for (;;) {
		int64_t left = deadline - now_ms();
		if (left <= 0) {
			fail = "did not finish in time";
			break;
		}
		struct pollfd pf = { pfd[0], POLLIN, 0 };
		int r = poll(&pf, 1, (int)(left > 1000 ? 1000 : left));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		if (n == cap) {
			if (cap >= CFG_MAX_OUTPUT) {
				fail = "wrote more than the output allowed";
				break;
			}
			buf = ca_xreallocarray(buf, cap *= 2, 1);
		}
		ssize_t got = read(pfd[0], buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	close(pfd[0]);
	/* a command that closed its output may still run: it gets the time
	 * that is left, then it is killed */
	int st = 0;
	for (;;) {
		if (fail != NULL)
			kill(pid, SIGKILL);
		pid_t w = waitpid(pid, &st, fail != NULL ? 0 : WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (w == 0 && now_ms() >= deadline)
			fail = "did not finish in time";
		else if (w == 0) {
			struct timespec ts = { 0, 20 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	if (fail != NULL) {
		free(buf);
		if (strcmp(fail, "did not finish in time") == 0)
			strbuf_addf(why, "did not finish in %d seconds", cfg->cmd_seconds);
		else
			strbuf_addf(why, "wrote more than %zu MiB", CFG_MAX_OUTPUT >> 20);
		return -1;
	}
	if (WIFSIGNALED(st)) {
		free(buf);
		strbuf_addf(why, "killed by signal %d", WTERMSIG(st));
		return -1;
	}
	*status = WEXITSTATUS(st);
	*out = buf;
	*outlen = n;
	return 0;
}

/* Read what command cmd writes as configuration. With into, the output is
 * kept in that file, and a later read takes the file instead of running
 * the command again. */
static int
load_command(struct src *s, const struct logical *lg, size_t at, const char *cmd,
    const char *into, bool ifexist)
{
	ca_config *cfg = s->cfg;
	strbuf why = STRBUF_INIT;
	char *text = NULL;
	size_t len = 0;
	int status = 0, rc = -1;

	if (into != NULL && access(into, F_OK) == 0) {
		int line, col;
		lg_where(lg, at, &line, &col);
		return load_path(cfg, into, s->depth + 1, false, s->err, s->file, line, col);
	}
	if (run_command(cfg, cmd, &text, &len, &status, &why) < 0) {
		rc = ifexist && cfg->cmd_seconds > 0 ? 0 : lg_err(s, lg, at, "command '%s' %s",
		    cmd, why.buf);
		goto out;
	}
	if (status != 0) {
		rc = ifexist ? 0 : lg_err(s, lg, at, "command '%s' exited with status %d", cmd,
		    status);
		goto out;
	}
	const char *name = ca_arena_strndup(&cfg->arena, cmd, strlen(cmd));
	if (into != NULL) {
		FILE *fp = fopen(into, "wb");
		if (fp == NULL || fwrite(text, 1, len, fp) != len || fclose(fp) != 0) {
			int line, col;
			lg_where(lg, at, &line, &col);
			ca_diag_set(s->err, CA_EX_SYSTEM, s->file, line, col, "cannot write %s: %s",
			    into, strerror(errno));
			goto out;
		}
		name = into;
	}
	*ca_vec_push(&cfg->sources) = name;
	rc = load_text(cfg, name, s->dir, text, len, s->depth + 1, s->err, NULL, NULL);
out:
	free(text);
	strbuf_release(&why);
	return rc;
}

/* include [ifexist] [command [into FILE]] : FILE-or-COMMAND[|] */
static int
include(struct src *s, const struct logical *lg, size_t kwend, size_t opts, size_t olen,
    size_t rest)
{
	const char *t = lg->text.buf;
	size_t len = lg->text.len;
	bool ifexist = false, command = false;
	strbuf name = STRBUF_INIT, into = STRBUF_INIT;
	int rc = -1;

	while (rest < len && cfg_is_blank((unsigned char)t[rest]))
		rest++;

	for (size_t i = opts; i < opts + olen;) {
		while (i < opts + olen && cfg_is_blank((unsigned char)t[i]))
			i++;
		size_t w = i;
		while (i < opts + olen && !cfg_is_blank((unsigned char)t[i]))
			i++;
		if (i == w)
			break;
		if (!command && into.len == 0 && (cfg_ci_equal(t + w, i - w, "ifexist") ||
		    cfg_ci_equal(t + w, i - w, "ifexists")) && !ifexist)
			ifexist = true;
		else if (!command && (cfg_ci_equal(t + w, i - w, "command") ||
		    cfg_ci_equal(t + w, i - w, "output")))
			command = true;
		else if (command && into.len == 0 && cfg_ci_equal(t + w, i - w, "into")) {
			while (i < opts + olen && cfg_is_blank((unsigned char)t[i]))
				i++;
			size_t f = i;
			while (i < opts + olen && !cfg_is_blank((unsigned char)t[i]))
				i++;
			if (i == f) {
				lg_err(s, lg, w, "expected a file name after 'into'");
				goto out;
			}
			if (expand_part(s, lg, f, i - f, &into) < 0)
				goto out;
			if (into.len == 0 || into.buf[into.len - 1] == '|') {
				lg_err(s, lg, f, "'include into' needs a file, not '%s'", into.buf);
				goto out;
			}
		} else {
			lg_err(s, lg, w, "unexpected '%.*s' after 'include'", (int)(i - w), t + w);
			goto out;
		}
	}
	if (expand_part(s, lg, rest, len - rest, &name) < 0)
		goto out;
	const char *p = name.buf;
	size_t n = name.len;
	cfg_trim(&p, &n);
	if (n > 0 && p[n - 1] == '|') {
		command = true;
		n--;
		while (n > 0 && cfg_is_blank((unsigned char)p[n - 1]))
			n--;
	}
	if (n == 0) {
		lg_err(s, lg, rest, "no %s after 'include :'", command ? "command" : "file name");
		goto out;
	}
	if (s->depth >= CFG_MAX_NEST) {
		lg_err(s, lg, kwend, "includes nested more than %d deep (a loop?)", CFG_MAX_NEST);
		goto out;
	}
	if (command) {
		char *cmd = ca_xstrndup(p, n);
		const char *dest = into.len ? relative(s->cfg, s->dir, into.buf, into.len) : NULL;
		rc = load_command(s, lg, rest, cmd, dest, ifexist);
		free(cmd);
		goto out;
	}
	int line, col;
	lg_where(lg, rest, &line, &col);
	rc = load_path(s->cfg, relative(s->cfg, s->dir, p, n), s->depth + 1, ifexist, s->err,
	    s->file, line, col);
out:
	strbuf_release(&name);
	strbuf_release(&into);
	return rc;
}

/* ---- use ---- */

/* The ')' closing the '(' at t[open], counting ( and [ inside, or 0. */
static size_t
close_args(const char *t, size_t len, size_t open)
{
	char stack[32];
	int depth = 0;

	for (size_t j = open; j < len; j++) {
		char c = t[j];
		if (c == '(' || c == '[') {
			if (depth == (int)sizeof stack)
				return 0;
			stack[depth++] = c == '(' ? ')' : ']';
		} else if ((c == ')' || c == ']') && depth > 0 && c == stack[depth - 1]) {
			if (--depth == 0)
				return c == ')' ? j : 0;
		}
	}
	return 0;
}

/* use CATEGORY : NAME[(args)] [NAME[(args)] ...] (names apart by blanks or
 * commas): the category at cat (clen bytes), the names at rest. */
static int
use(struct src *s, const struct logical *lg, size_t cat, size_t clen, size_t rest)
{
	const char *t = lg->text.buf;
	size_t len = lg->text.len, i = rest;
	ca_config *cfg = s->cfg;
	strbuf catb = STRBUF_INIT, text = STRBUF_INIT;
	int rc = -1;

	if (expand_part(s, lg, cat, clen, &catb) < 0)
		goto out;
	const char *c = catb.buf;
	size_t cl = catb.len;
	cfg_trim(&c, &cl);
	if (cl == 0) {
		lg_err(s, lg, cat, "expected 'use CATEGORY : NAME'");
		goto out;
	}
	for (;;) {
		while (i < len && (cfg_is_blank((unsigned char)t[i]) || t[i] == ','))
			i++;
		if (i >= len)
			break;
		size_t nm = i;
		while (i < len && t[i] != ',' && !cfg_is_blank((unsigned char)t[i]) && t[i] != '(')
			i++;
		size_t nlen = i - nm, args = 0, alen = 0;
		while (i < len && cfg_is_blank((unsigned char)t[i]))
			i++;
		bool has_args = false;
		if (i < len && t[i] == '(') {
			size_t e = close_args(t, len, i);
			if (e == 0) {
				lg_err(s, lg, i, "no ')' ends the arguments of %.*s", (int)nlen, t + nm);
				goto out;
			}
			has_args = true;
			args = i + 1;
			alen = e - i - 1;
			i = e + 1;
		}
		if (nlen == 0) {
			lg_err(s, lg, nm, "expected a template name after 'use %.*s :'", (int)cl, c);
			goto out;
		}
		char *catz = ca_xstrndup(c, cl), *namez = ca_xstrndup(t + nm, nlen);
		ca_config_template tp;
		bool found = ca_config_template_find(cfg, catz, namez, &tp);
		free(catz);
		free(namez);
		if (!found) {
			lg_err(s, lg, nm, "unknown template %.*s:%.*s", (int)cl, c, (int)nlen, t + nm);
			goto out;
		}
		if (s->depth >= CFG_MAX_NEST) {
			lg_err(s, lg, nm, "templates nested more than %d deep", CFG_MAX_NEST);
			goto out;
		}
		struct cfg_use *u = ca_vec_push(&cfg->uses);
		u->category = tp.category;
		u->name = tp.name;
		u->args = has_args ? ca_arena_strndup(&cfg->arena, t + args, alen) : NULL;
		u->file = s->tmpl ? s->ufile : s->file;
		u->line = s->tmpl ? s->uline : lg->line;
		u->simulated = tp.simulated;

		strbuf_reset(&text);
		cfg_meta_args(tp.text, strlen(tp.text), t + args, alen, &text);
		strbuf fname = STRBUF_INIT;
		strbuf_addf(&fname, "%s:%s", tp.category, tp.name);
		const char *tmpl = ca_arena_strndup(&cfg->arena, fname.buf, fname.len);
		strbuf_reset(&fname);
		strbuf_addf(&fname, "<use %s>", tmpl);
		const char *file = ca_arena_strndup(&cfg->arena, fname.buf, fname.len);
		strbuf_release(&fname);
		struct src outer = *s;
		outer.uline = s->tmpl ? s->uline : lg->line;
		outer.ufile = s->tmpl ? s->ufile : s->file;
		if (load_text(cfg, file, s->dir, text.buf, text.len, s->depth + 1, s->err, &outer,
		    tmpl) < 0) {
			/* an error the template itself found (a missing argument) is
			 * the use line's */
			if (s->err != NULL && s->err->file == file) {
				char msg[sizeof s->err->msg];
				snprintf(msg, sizeof msg, "%s", s->err->msg);
				if (strncmp(msg, "use ", 4) == 0)
					lg_err(s, lg, nm, "%s", msg);	/* a nested one's */
				else
					lg_err(s, lg, nm, "use %s: %s", tmpl, msg);
			}
			goto out;
		}
	}
	rc = 0;
out:
	strbuf_release(&catb);
	strbuf_release(&text);
	return rc;
}

/* ---- statements ---- */

/* NAME @=TAG: the lines up to "@TAG" are the value, each trimmed, comment
 * and empty lines left out, as HTCondor reads them. */
static int
block(struct src *s, const struct logical *lg, const char *name, size_t nlen, size_t at,
    size_t tag, size_t tlen)
{
	struct logical ln = { STRBUF_INIT, NULL, 0, 0, 0, false };
	strbuf val = STRBUF_INIT;
	ca_vec(struct cfg_seg) segs = CA_VEC_INIT;
	char *tagz = ca_xstrndup(lg->text.buf + tag, tlen);
	int rc = -1;

	for (;;) {
		if (!logical_line(s, &ln)) {
			lg_err(s, lg, at, "no '@%s' line ends this value", tagz);
			goto out;
		}
		if (ln.comment || ln.text.len == 0)
			continue;
		if (ln.text.len == tlen + 1 && ln.text.buf[0] == '@' &&
		    memcmp(ln.text.buf + 1, tagz, tlen) == 0)
			break;
		if (val.len > 0 || segs.n > 0)
			strbuf_addc(&val, '\n');
		for (size_t k = 0; k < ln.nsegs; k++)
			*ca_vec_push(&segs) = (struct cfg_seg){ val.len + ln.segs[k].off,
			    ln.segs[k].line, ln.segs[k].col };
		strbuf_add(&val, ln.text.buf, ln.text.len);
	}
	if (!active(s)) {
		rc = 0;
		goto out;
	}
	int line = segs.n ? segs.at[0].line : lg->line, col = segs.n ? segs.at[0].col : 1;
	struct cfg_where w = { s->file, line, col, s->tmpl, s->ufile, s->uline };
	rc = cfg_define(s->cfg, name, nlen, val.buf, val.len, &w, segs.at, segs.n, s->err);
out:
	free(tagz);
	strbuf_release(&val);
	strbuf_release(&ln.text);
	free(ln.segs);
	ca_vec_free(&segs);
	return rc;
}

/* The '+' operator at t[i]: "+=", "+,=", "+&&=" ...; its length in *olen
 * and its separator (0: a blank) and whether doubled. */
static bool
plus_op(const char *t, size_t len, size_t i, size_t *olen, char *sep, bool *dbl)
{
	size_t j = i + 1;

	*sep = 0;
	*dbl = false;
	if (i >= len || t[i] != '+')
		return false;
	if (j < len && strchr(",;|&*", t[j]) && t[j] != '\0') {
		*sep = t[j++];
		if (j < len && t[j] == *sep) {
			*dbl = true;
			j++;
		}
	}
	if (j >= len || t[j] != '=')
		return false;
	*olen = j + 1 - i;
	return true;
}

enum { OP_NONE, OP_SET, OP_COLON, OP_HERE, OP_PLUS };

/* The operator at t[i] (its length in *olen). */
static int
op_at(const char *t, size_t len, size_t i, size_t *olen, char *sep, bool *dbl)
{
	*olen = 1;
	if (i >= len)
		return OP_NONE;
	if (t[i] == '=')
		return OP_SET;
	if (t[i] == ':')
		return OP_COLON;
	if (t[i] == '@' && i + 1 < len && t[i + 1] == '=') {
		*olen = 2;
		return OP_HERE;
	}
	if (plus_op(t, len, i, olen, sep, dbl))
		return OP_PLUS;
	return OP_NONE;
}

/* The segment map of the logical line from offset v on, shifted to offsets
 * within the value (malloc'ed; *ns entries). */
static struct cfg_seg *
value_segs(const struct logical *lg, size_t v, size_t len, size_t *ns)
{
	struct cfg_seg *segs = ca_xreallocarray(NULL, lg->nsegs ? lg->nsegs : 1, sizeof *segs);

	*ns = 0;
	for (size_t k = 0; k < lg->nsegs; k++) {
		size_t end = k + 1 < lg->nsegs ? lg->segs[k + 1].off : len;
		if (end <= v && k + 1 < lg->nsegs)
			continue;
		struct cfg_seg sg = lg->segs[k];
		if (sg.off < v) {
			sg.col += (int)(v - sg.off);
			sg.off = v;
		}
		sg.off -= v;
		segs[(*ns)++] = sg;
	}
	return segs;
}

/* NAME = value, NAME : value, NAME += value. */
static int
assign(struct src *s, const struct logical *lg, const char *name, size_t nlen, int op,
    size_t v, char sep, bool dbl)
{
	const char *t = lg->text.buf;
	size_t len = lg->text.len;
	int line, col;

	while (v < len && cfg_is_blank((unsigned char)t[v]))
		v++;
	size_t vlen = len - v;
	while (vlen > 0 && cfg_is_blank((unsigned char)t[v + vlen - 1]))
		vlen--;
	lg_where(lg, v, &line, &col);
	struct cfg_where w = { s->file, line, col, s->tmpl, s->ufile, s->uline };
	if (op == OP_COLON && !cfg_ci_equal(name, nlen, "RunBenchmarks"))
		strbuf_addf(&s->cfg->warnings, "%s:%d: obsolete ':' assignment of %.*s (use '=')\n",
		    s->tmpl ? s->ufile : s->file, s->tmpl ? s->uline : lg->line, (int)nlen, name);
	if (op == OP_PLUS) {
		/* NAME += x is NAME = <its value now> x (a separator between) */
		const struct cfg_entry *cur = cfg_lookup(s->cfg, name, nlen);
		if (cur != NULL && cur->len > 0) {
			strbuf sb = STRBUF_INIT;
			strbuf_add(&sb, cur->value, cur->len);
			if (sep == 0)
				strbuf_addc(&sb, ' ');
			else if (dbl)
				strbuf_addf(&sb, " %c%c ", sep, sep);
			else
				strbuf_addc(&sb, sep);
			strbuf_add(&sb, t + v, vlen);
			int rc = cfg_define(s->cfg, name, nlen, sb.buf, sb.len, &w, NULL, 0, s->err);
			strbuf_release(&sb);
			return rc;
		}
	}
	size_t ns;
	struct cfg_seg *segs = value_segs(lg, v, len, &ns);
	int rc = cfg_define(s->cfg, name, nlen, t + v, vlen, &w, segs, ns, s->err);
	free(segs);
	return rc;
}

/* error [code] : message, warning : message */
static int
message(struct src *s, const struct logical *lg, bool error, size_t rest)
{
	strbuf msg = STRBUF_INIT;
	int rc = -1;

	if (expand_part(s, lg, rest, lg->text.len - rest, &msg) < 0)
		goto out;
	const char *m = msg.buf;
	size_t n = msg.len;
	cfg_trim(&m, &n);
	if (error) {
		lg_err(s, lg, 0, "error: %.*s", (int)n, m);
		goto out;
	}
	strbuf_addf(&s->cfg->warnings, "%s:%d: warning: %.*s", s->tmpl ? s->ufile : s->file,
	    s->tmpl ? s->uline : lg->line, (int)n, m);
	if (s->tmpl)
		strbuf_addf(&s->cfg->warnings, " (use %s)", s->tmpl);
	strbuf_addc(&s->cfg->warnings, '\n');
	rc = 0;
out:
	strbuf_release(&msg);
	return rc;
}

/* One logical line that is not a comment. */
static int
statement(struct src *s, struct logical *lg)
{
	const char *t = lg->text.buf;
	size_t len = lg->text.len, i = 0, olen;
	char sep;
	bool dbl;

	while (i < len && cfg_is_blank((unsigned char)t[i]))
		i++;
	if (i == len)
		return 0;
	/* a ':' ahead of an if-body line, which readers before 8.1.5 skipped */
	if (t[i] == ':' && (s->nifs > 0 || word_is(t + i + 1, len - i - 1, "if")))
		i++;

	/* if / elif / else / endif */
	size_t w = i;
	while (i < len && cfg_is_alpha((unsigned char)t[i]))
		i++;
	if ((i == len || cfg_is_blank((unsigned char)t[i])) &&
	    (cfg_ci_equal(t + w, i - w, "if") || cfg_ci_equal(t + w, i - w, "elif") ||
	    cfg_ci_equal(t + w, i - w, "else") || cfg_ci_equal(t + w, i - w, "endif"))) {
		size_t r = i;
		while (r < len && cfg_is_blank((unsigned char)t[r]))
			r++;
		return conditional(s, lg, w, i - w, r, len - r);
	}

	/* the name: up to a blank or an operator; $(...) in it is expanded */
	i = w;
	while (i < len && !cfg_is_blank((unsigned char)t[i]) &&
	    op_at(t, len, i, &olen, &sep, &dbl) == OP_NONE) {
		if (t[i] == '$' && i + 1 < len && t[i + 1] == '(') {
			int d = 0;
			size_t j = i + 1;
			for (; j < len; j++)
				if (t[j] == '(')
					d++;
				else if (t[j] == ')' && --d == 0)
					break;
			i = j < len ? j + 1 : len;
			continue;
		}
		i++;
	}
	size_t nlen = i - w;
	while (i < len && cfg_is_blank((unsigned char)t[i]))
		i++;
	/* words between the name and the operator (include and use have them) */
	size_t wb = i;
	while (i < len && op_at(t, len, i, &olen, &sep, &dbl) == OP_NONE)
		i++;
	size_t wbl = i - wb;
	while (wbl > 0 && cfg_is_blank((unsigned char)t[wb + wbl - 1]))
		wbl--;
	int op = op_at(t, len, i, &olen, &sep, &dbl);

	if (op == OP_HERE && nlen > 0 && wbl == 0) {
		size_t g = i + 2;
		while (g < len && cfg_is_blank((unsigned char)t[g]))
			g++;
		if (g == len || memchr(t + g, ' ', len - g) || memchr(t + g, '\t', len - g))
			return active(s) ? lg_err(s, lg, i, "expected '@=TAG' with a tag of one word")
			    : 0;
		if (memchr(t + w, '$', nlen) != NULL)
			return active(s) ? lg_err(s, lg, w, "a macro in the name of an '@=' value")
			    : 0;
		for (size_t k = w; k < w + nlen; k++)
			if (!cfg_is_name_char((unsigned char)t[k]))
				return active(s) ? lg_err(s, lg, w, "bad configuration name '%.*s'",
				    (int)nlen, t + w) : 0;
		return block(s, lg, t + w, nlen, i, g, len - g);
	}
	if (!active(s))
		return 0;
	if (nlen == 0)
		return lg_err(s, lg, w, "expected a name at '%c'", t[w]);

	const char *kw = t + w;
	size_t kl = nlen;
	if (kl > 1 && *kw == '@') {
		kw++;
		kl--;
	}
	bool is_use = cfg_ci_equal(kw, kl, "use"), is_include = cfg_ci_equal(kw, kl, "include");
	if (op == OP_COLON && is_include)
		return include(s, lg, w + nlen, wb, wbl, i + 1);
	if (op == OP_COLON && is_use)
		return use(s, lg, wb, wbl, i + 1);
	if (op == OP_COLON && (cfg_ci_equal(kw, kl, "error") || cfg_ci_equal(kw, kl, "warning")))
		return message(s, lg, cfg_ci_equal(kw, kl, "error"), i + 1);
	if (op == OP_NONE) {
		if (t[w] == '[')
			return 0;	/* [Section] of a .ini-style file: ignored, as HTCondor */
		if (is_use)
			return lg_err(s, lg, wb, "expected 'use CATEGORY : NAME'");
		if (is_include)
			return lg_err(s, lg, wb, "expected ':' in 'include : FILE'");
		return lg_err(s, lg, wbl ? wb : i, "expected '=' after '%.*s'", (int)nlen, t + w);
	}
	if (wbl > 0)
		return lg_err(s, lg, wb, "unexpected '%.*s' after '%.*s'", (int)wbl, t + wb,
		    (int)nlen, t + w);
	if (op == OP_HERE)
		return lg_err(s, lg, i, "expected '@=TAG' with a tag of one word");

	/* the name, with its macros expanded */
	strbuf nb = STRBUF_INIT;
	const char *name = t + w;
	if (memchr(name, '$', nlen) != NULL) {
		if (expand_part(s, lg, w, nlen, &nb) < 0) {
			strbuf_release(&nb);
			return -1;
		}
		name = nb.buf;
		nlen = nb.len;
	}
	int rc = 0;
	for (size_t k = 0; k < nlen && rc == 0; k++)
		if (!cfg_is_name_char((unsigned char)name[k]))
			rc = lg_err(s, lg, w, "bad configuration name '%.*s'", (int)nlen, name);
	if (nlen == 0)
		rc = lg_err(s, lg, w, "the name expands to nothing");
	if (rc == 0)
		rc = assign(s, lg, name, nlen, op, i + olen, sep, dbl);
	strbuf_release(&nb);
	return rc;
}

static int
load_src(struct src *s)
{
	struct logical lg = { STRBUF_INIT, NULL, 0, 0, 0, false };
	int rc = 0;

	while (logical_line(s, &lg)) {
		if (lg.comment)
			continue;
		if ((rc = statement(s, &lg)) < 0)
			break;
	}
	if (rc == 0 && s->nifs > 0) {
		struct ifstate *f = &s->ifs[s->nifs - 1];
		ca_diag_set(s->err, CA_EX_INPUT, s->file, f->line, f->col, "'if' without 'endif'");
		rc = -1;
	}
	strbuf_release(&lg.text);
	free(lg.segs);
	return rc;
}

/* Read text as a source of its own: the top one, or nested in parent (a
 * template tmpl, or an include when tmpl is NULL). */
static int
load_text(ca_config *cfg, const char *file, const char *dir, const char *text, size_t len,
    int depth, ca_diag *err, const struct src *parent, const char *tmpl)
{
	const char *nul = memchr(text, '\0', len);

	if (nul != NULL) {
		int line = 1, col = 1;
		for (const char *p = text; p < nul; p++, col++)
			if (*p == '\n') {
				line++;
				col = 0;
			}
		ca_diag_set(err, CA_EX_INPUT, file, line, col, "NUL byte in the configuration");
		return -1;
	}
	struct src *s = ca_xcalloc(1, sizeof *s);
	s->cfg = cfg;
	s->file = file;
	s->dir = dir;
	s->text = text;
	s->len = len;
	s->line = 1;
	s->depth = depth;
	s->err = err;
	if (tmpl != NULL && parent != NULL) {
		s->tmpl = tmpl;
		s->ufile = parent->ufile;
		s->uline = parent->uline;
	}
	int rc = load_src(s);
	free(s);
	return rc;
}

/* ---- LOCAL_CONFIG_DIR and LOCAL_CONFIG_FILE ---- */

static bool
local_done(ca_config *cfg, const char *src)
{
	for (size_t i = 0; i < cfg->locals.n; i++)
		if (strcmp(cfg->locals.at[i], src) == 0)
			return true;
	return false;
}

/* The expansion of knob (empty when not defined); -1 on an error. */
static int
knob_text(ca_config *cfg, const char *knob, strbuf *sb, ca_diag *err)
{
	strbuf_reset(sb);
	return ca_config_string(cfg, knob, sb, err) < 0 ? -1 : 0;
}

/* One local source: a file, or a command when it ends with '|'. */
static int
local_source(ca_config *cfg, const char *dir, const char *src, bool required, ca_diag *err)
{
	size_t n = strlen(src);

	if (cfg->locals.n >= MAX_LOCAL_SOURCES) {
		ca_diag_set(err, CA_EX_INPUT, src, 0, 0, "more than %d local configuration sources",
		    MAX_LOCAL_SOURCES);
		return -1;
	}
	*ca_vec_push(&cfg->locals) = ca_arena_strndup(&cfg->arena, src, n);
	if (n > 0 && src[n - 1] == '|') {
		/* errors about the command point where LOCAL_CONFIG_FILE is */
		struct src s;
		struct logical lg = { STRBUF_INIT, NULL, 0, 0, 0, false };
		ca_diag where;
		memset(&s, 0, sizeof s);
		memset(&where, 0, sizeof where);
		if (!ca_config_locate(cfg, "LOCAL_CONFIG_FILE", &where))
			where.file = "<LOCAL_CONFIG_FILE>";
		s.cfg = cfg;
		s.file = where.file;
		s.dir = dir;
		s.depth = 1;
		s.err = err;
		lg.line = where.line;
		seg_add(&lg, 0, where.line, where.col);
		strbuf_add(&lg.text, src, n - 1);
		char *cmd = ca_xstrndup(src, n - 1);
		int rc = load_command(&s, &lg, 0, cmd, NULL, !required);
		free(cmd);
		strbuf_release(&lg.text);
		free(lg.segs);
		return rc;
	}
	return load_path(cfg, relative(cfg, dir, src, n), 1, !required, err, NULL, 0, 0);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file of the directories in list, in lexical order, but those whose
 * name LOCAL_CONFIG_DIR_EXCLUDE_REGEXP matches. */
static int
local_dirs(ca_config *cfg, const char *dir, const char *list, bool required, ca_diag *err)
{
	strbuf re = STRBUF_INIT;
	pcre2_code *code = NULL;
	pcre2_match_data *md = NULL;
	int rc = -1;

	if (knob_text(cfg, "LOCAL_CONFIG_DIR_EXCLUDE_REGEXP", &re, err) < 0)
		goto out;
	if (re.len > 0) {
		int ec;
		PCRE2_SIZE eo;
		code = pcre2_compile((PCRE2_SPTR)re.buf, re.len, 0, &ec, &eo, NULL);
		if (code == NULL) {
			PCRE2_UCHAR msg[120];
			pcre2_get_error_message(ec, msg, sizeof msg);
			if (!ca_config_locate(cfg, "LOCAL_CONFIG_DIR_EXCLUDE_REGEXP", err))
				err->file = "<config>";
			snprintf(err->msg, sizeof err->msg, "LOCAL_CONFIG_DIR_EXCLUDE_REGEXP is not a "
			    "valid regular expression: %s", (const char *)msg);
			goto out;
		}
		md = pcre2_match_data_create_from_pattern(code, NULL);
	}
	for (const char *p = list; *p;) {
		p += strspn(p, ", \t\r\n");
		size_t n = strcspn(p, ", \t\r\n");
		if (n == 0)
			break;
		const char *d = relative(cfg, dir, p, n);
		p += n;
		DIR *dp = opendir(d);
		if (dp == NULL)
			continue;	/* a directory that is not there: nothing to read */
		ca_vec(char *) files = CA_VEC_INIT;
		struct dirent *de;
		while ((de = readdir(dp)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			if (code != NULL && pcre2_match(code, (PCRE2_SPTR)de->d_name,
			    strlen(de->d_name), 0, 0, md, NULL) >= 0)
				continue;
			strbuf path = STRBUF_INIT;
			strbuf_addf(&path, "%s%s%s", d, d[strlen(d) - 1] == '/' ? "" : "/",
			    de->d_name);
			struct stat st;
			if (stat(path.buf, &st) == 0 && !S_ISDIR(st.st_mode))
				*ca_vec_push(&files) = strbuf_detach(&path, NULL);
			else
				strbuf_release(&path);
		}
		closedir(dp);
		if (files.n > 1)
			qsort(files.at, files.n, sizeof *files.at, cmp_str);
		int frc = 0;
		for (size_t k = 0; k < files.n; k++) {
			if (frc == 0 && !local_done(cfg, files.at[k]))
				frc = local_source(cfg, NULL, files.at[k], required, err);
			free(files.at[k]);
		}
		ca_vec_free(&files);
		if (frc < 0)
			goto out;
	}
	rc = 0;
out:
	pcre2_match_data_free(md);
	pcre2_code_free(code);
	strbuf_release(&re);
	return rc;
}

/* After a top-level file: the directories of LOCAL_CONFIG_DIR, the files of
 * LOCAL_CONFIG_FILE (the list read again after each, as it may change), and
 * LOCAL_CONFIG_DIR again when those changed it, as HTCondor does. */
static int
local_config(ca_config *cfg, const char *dir, ca_diag *err)
{
	strbuf d1 = STRBUF_INIT, d2 = STRBUF_INIT, files = STRBUF_INIT;
	bool required = true;
	int rc = -1;

	if (ca_config_bool(cfg, "REQUIRE_LOCAL_CONFIG_FILE", &required, err) < 0 ||
	    knob_text(cfg, "LOCAL_CONFIG_DIR", &d1, err) < 0)
		goto out;
	if (d1.len > 0 && local_dirs(cfg, dir, d1.buf, required, err) < 0)
		goto out;
	for (bool again = true; again;) {
		again = false;
		if (knob_text(cfg, "LOCAL_CONFIG_FILE", &files, err) < 0)
			goto out;
		char *list = ca_xstrndup(files.buf, files.len);
		bool command = strchr(list, '|') != NULL;
		for (char *p = list; *p && !again;) {
			size_t n = command ? strlen(p) : strcspn(p, ", \t\r\n");
			if (command) {
				while (cfg_is_blank((unsigned char)*p))
					p++, n--;
				while (n > 0 && cfg_is_blank((unsigned char)p[n - 1]))
					n--;
			}
			char save = p[n];
			p[n] = '\0';
			if (n > 0 && !local_done(cfg, p)) {
				if (local_source(cfg, dir, p, required, err) < 0) {
					free(list);
					goto out;
				}
				strbuf now = STRBUF_INIT;
				if (knob_text(cfg, "LOCAL_CONFIG_FILE", &now, err) < 0) {
					strbuf_release(&now);
					free(list);
					goto out;
				}
				again = now.len != files.len || memcmp(now.buf, files.buf, now.len);
				strbuf_release(&now);
			}
			p[n] = save;
			p += n;
			p += strspn(p, ", \t\r\n");
			if (command)
				break;
		}
		free(list);
	}
	if (ca_config_bool(cfg, "REQUIRE_LOCAL_CONFIG_FILE", &required, err) < 0 ||
	    knob_text(cfg, "LOCAL_CONFIG_DIR", &d2, err) < 0)
		goto out;
	if (d2.len > 0 && strcmp(d1.buf, d2.buf) != 0 &&
	    local_dirs(cfg, dir, d2.buf, required, err) < 0)
		goto out;
	rc = 0;
out:
	strbuf_release(&d1);
	strbuf_release(&d2);
	strbuf_release(&files);
	return rc;
}

int
ca_config_load(ca_config *cfg, const char *path, ca_diag *err)
{
	if (load_path(cfg, path, 0, false, err, NULL, 0, 0) < 0)
		return -1;
	return local_config(cfg, strcmp(path, "-") == 0 ? NULL : dir_of(cfg, path), err);
}

int
ca_config_load_mem(ca_config *cfg, const char *name, const char *text, size_t len,
    ca_diag *err)
{
	const char *file = ca_arena_strndup(&cfg->arena, name, strlen(name));

	if (load_text(cfg, file, NULL, text, len, 0, err, NULL, NULL) < 0)
		return -1;
	return local_config(cfg, NULL, err);
}
