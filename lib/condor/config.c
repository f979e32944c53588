/* config.c - the HTCondor configuration behind every -c FILE: a table of
 * names over HTCondor's built-in defaults, its lookups and typed lookups. */
#include <errno.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
#include "config_priv.h"
#include "classad.h"

/*
 * Values are kept raw, as written, with a map from offsets in the value to
 * the file's lines and columns (a continued value spans several lines), so
 * that a problem found later, while expanding or parsing the value, is still
 * reported where it was written. Expansion is lazy as in HTCondor: $(B) in
 * A's value means B's last definition, whichever file it came from. Only a
 * self-reference ($(A) inside A's definition) is replaced at once, by A's
 * previous value, which is how "START = ($(START)) || ..." extends a policy.
 *
 * Two tables: what the files (and ca_config_set) define, and below it the
 * built-ins: HTCondor's defaults and the values it finds at run time. A
 * built-in entry is made the first time a lookup needs it, so that it has a
 * place like any other (the expansion marks it busy, errors point at it).
 */

/* ---- characters ---- */

/* Characters of a configuration name. HTCondor is lenient here (the manual
 * writes SLOT_TYPE_<N>_PARTITIONABLE), so only what the syntax needs is out. */
int
cfg_is_name_char(int c)
{
	return c > ' ' && c < 127 && strchr("=:@$()#\"'\\,+", c) == NULL;
}

bool
cfg_ci_equal(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);

	if (alen != blen)
		return false;
	for (size_t i = 0; i < alen; i++)
		if (cfg_lower((unsigned char)a[i]) != cfg_lower((unsigned char)b[i]))
			return false;
	return true;
}

bool
cfg_ci_prefix(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && cfg_ci_equal(s, n, prefix);
}

void
cfg_trim(const char **s, size_t *len)
{
	while (*len > 0 && cfg_is_blank((unsigned char)**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && cfg_is_blank((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

/* ---- errors ---- */

/* Line and column of byte off of e's value. */
void
cfg_locate(const struct cfg_entry *e, size_t off, int *line, int *col)
{
	*line = e->line;
	*col = e->col;
	if (e->segs == NULL || e->nsegs == 0)
		return;
	size_t i = 0;
	while (i + 1 < e->nsegs && e->segs[i + 1].off <= off)
		i++;
	*line = e->segs[i].line;
	*col = e->segs[i].col + (int)(off - e->segs[i].off);
}

void
cfg_entry_err(ca_diag *err, const struct cfg_entry *e, size_t off, const char *fmt, ...)
{
	va_list ap;
	int line, col;

	if (err == NULL)
		return;
	cfg_locate(e, off, &line, &col);
	va_start(ap, fmt);
	ca_diag_vset(err, CA_EX_INPUT, e->file, line, col, fmt, ap);
	va_end(ap);
}

/* ---- the tables ---- */

static uint64_t
hash_name(const char *s, size_t len)
{
	uint64_t h = 0x636f6e666967ULL;

	for (size_t i = 0; i < len; i++)
		h = ca_hash_mix(h, (uint64_t)cfg_lower((unsigned char)s[i]));
	return h;
}

static struct cfg_entry *
table_find(const struct cfg_table *t, const char *s, size_t len, uint64_t h)
{
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&t->index, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&t->index, &it)) {
		struct cfg_entry *e = t->v.at[i];
		if (e->hash == h && cfg_ci_equal(s, len, e->key))
			return e;
	}
	return NULL;
}

/* A new empty entry for name (not there yet) at the end of t. */
static struct cfg_entry *
table_add(ca_config *cfg, struct cfg_table *t, const char *s, size_t len, uint64_t h)
{
	struct cfg_entry *e = ca_arena_zalloc(&cfg->arena, sizeof *e);

	e->spell = ca_arena_strndup(&cfg->arena, s, len);
	e->key = ca_arena_strndup(&cfg->arena, s, len);
	for (size_t i = 0; i < len; i++)
		e->key[i] = (char)cfg_lower((unsigned char)e->key[i]);
	e->hash = h;
	ca_dict_add(&t->index, h, (uint32_t)t->v.n);
	*ca_vec_push(&t->v) = e;
	return e;
}

static void
table_free(struct cfg_table *t)
{
	ca_vec_free(&t->v);
	ca_dict_free(&t->index);
}

/* The value HTCondor finds at run time for name, into sb; false when name
 * is none of those. Only what a configuration uses to pick files and
 * branches: the machine's details come from the slots a program reads. */
static bool
detected(const ca_config *cfg, const char *s, size_t len, strbuf *sb)
{
	struct utsname u;
	char host[256];

	if (cfg_ci_equal(s, len, "SUBSYSTEM")) {
		if (cfg->subsys == NULL)
			return false;
		strbuf_adds(sb, cfg->subsys);
	} else if (cfg_ci_equal(s, len, "LOCALNAME")) {
		const char *n = cfg->localname ? cfg->localname : cfg->subsys;
		if (n == NULL)
			return false;
		strbuf_adds(sb, n);
	} else if (cfg_ci_equal(s, len, "HOSTNAME") || cfg_ci_equal(s, len, "FULL_HOSTNAME")) {
		if (gethostname(host, sizeof host) != 0)
			return false;
		host[sizeof host - 1] = '\0';
		size_t n = strlen(host);
		if (cfg_ci_equal(s, len, "HOSTNAME"))
			n = strcspn(host, ".");
		strbuf_add(sb, host, n);
	} else if (cfg_ci_equal(s, len, "TILDE")) {
		struct passwd *pw = getpwnam("condor");
		if (pw == NULL)
			return false;
		strbuf_adds(sb, pw->pw_dir);
	} else if (cfg_ci_equal(s, len, "USERNAME")) {
		struct passwd *pw = getpwuid(geteuid());
		if (pw == NULL)
			return false;
		strbuf_adds(sb, pw->pw_name);
	} else if (cfg_ci_equal(s, len, "OPSYS") || cfg_ci_equal(s, len, "UNAME_OPSYS")) {
		if (uname(&u) != 0)
			return false;
		if (cfg_ci_equal(s, len, "UNAME_OPSYS"))
			strbuf_adds(sb, u.sysname);
		else if (strcmp(u.sysname, "Darwin") == 0)
			strbuf_adds(sb, "OSX");
		else
			for (const char *p = u.sysname; *p; p++)
				strbuf_addc(sb, (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p));
	} else if (cfg_ci_equal(s, len, "ARCH") || cfg_ci_equal(s, len, "UNAME_ARCH")) {
		if (uname(&u) != 0)
			return false;
		if (cfg_ci_equal(s, len, "ARCH") && strcmp(u.machine, "x86_64") == 0)
			strbuf_adds(sb, "X86_64");
		else if (cfg_ci_equal(s, len, "ARCH") && u.machine[0] == 'i' &&
		    strcmp(u.machine + 2, "86") == 0)
			strbuf_adds(sb, "INTEL");
		else
			strbuf_adds(sb, u.machine);
	} else
		return false;
	return true;
}

static const char *const detected_names[] = {
	"ARCH", "FULL_HOSTNAME", "HOSTNAME", "LOCALNAME", "OPSYS", "SUBSYSTEM", "TILDE",
	"UNAME_ARCH", "UNAME_OPSYS", "USERNAME"
};
#define NDETECTED (sizeof detected_names / sizeof detected_names[0])

/* The built-in entry for name exactly, made on first use, or NULL. */
static struct cfg_entry *
builtin(ca_config *cfg, const char *s, size_t len)
{
	uint64_t h = hash_name(s, len);
	struct cfg_entry *e = table_find(&cfg->builtin, s, len, h);
	strbuf sb = STRBUF_INIT;
	const char *v = cfg_default(s, len);
	int kind = CFG_K_DEFAULT;

	if (e != NULL)
		return e;
	if (v == NULL) {
		if (!detected(cfg, s, len, &sb)) {
			strbuf_release(&sb);
			return NULL;
		}
		v = sb.buf;
		kind = CFG_K_DETECTED;
	}
	e = table_add(cfg, &cfg->builtin, s, len, h);
	e->len = e->cap = strlen(v);
	e->value = ca_arena_strndup(&cfg->arena, v, e->len);
	e->kind = (unsigned char)kind;
	e->file = kind == CFG_K_DEFAULT ? "<built-in default>" : "<detected>";
	e->ufile = e->file;
	strbuf_release(&sb);
	return e;
}

struct cfg_entry *
cfg_find(ca_config *cfg, const char *s, size_t len)
{
	struct cfg_entry *e = table_find(&cfg->files, s, len, hash_name(s, len));

	return e ? e : builtin(cfg, s, len);
}

/* prefix "." name, in buf (of size cap) when it fits, else in sb. */
static const char *
join(char *buf, size_t cap, strbuf *sb, const char *prefix, const char *s, size_t len,
    size_t *out)
{
	size_t pl = strlen(prefix);

	*out = pl + 1 + len;
	if (*out < cap) {
		memcpy(buf, prefix, pl);
		buf[pl] = '.';
		memcpy(buf + pl + 1, s, len);
		return buf;
	}
	strbuf_reset(sb);
	strbuf_adds(sb, prefix);
	strbuf_addc(sb, '.');
	strbuf_add(sb, s, len);
	return sb->buf;
}

struct cfg_entry *
cfg_lookup(ca_config *cfg, const char *s, size_t len)
{
	const char *prefixes[2] = { cfg->localname, cfg->subsys };
	struct cfg_entry *e;
	char buf[128];
	strbuf sb = STRBUF_INIT;

	for (int k = 0; k < 2; k++) {
		if (prefixes[k] == NULL)
			continue;
		size_t n;
		const char *p = join(buf, sizeof buf, &sb, prefixes[k], s, len, &n);
		if ((e = cfg_find(cfg, p, n)) != NULL) {
			strbuf_release(&sb);
			return e;
		}
	}
	strbuf_release(&sb);
	return cfg_find(cfg, s, len);
}

ca_config *
ca_config_new(void)
{
	ca_config *cfg = ca_xcalloc(1, sizeof(ca_config));

	cfg->cmd_seconds = CFG_COMMAND_SECONDS;
	cfg->warnings = (strbuf)STRBUF_INIT;
	return cfg;
}

void
ca_config_free(ca_config *cfg)
{
	if (cfg == NULL)
		return;
	if (cfg->have_cx)
		ca_ctx_free(&cfg->cx);
	table_free(&cfg->files);
	table_free(&cfg->builtin);
	ca_vec_free(&cfg->tmpls);
	ca_vec_free(&cfg->uses);
	ca_vec_free(&cfg->sources);
	ca_vec_free(&cfg->locals);
	strbuf_release(&cfg->warnings);
	ca_arena_free(&cfg->arena);
	free(cfg);
}

/* The built-ins depend on the subsystem and the local name (SUBSYSTEM,
 * LOCALNAME): forget the ones made so far. */
static void
builtins_changed(ca_config *cfg)
{
	cfg->builtin.v.n = 0;
	ca_dict_clear(&cfg->builtin.index);
}

static char *
dup_name(ca_config *cfg, const char *s)
{
	return s && *s ? ca_arena_strndup(&cfg->arena, s, strlen(s)) : NULL;
}

void
ca_config_set_subsys(ca_config *cfg, const char *subsys)
{
	cfg->subsys = dup_name(cfg, subsys);
	builtins_changed(cfg);
}

void
ca_config_set_localname(ca_config *cfg, const char *name)
{
	cfg->localname = dup_name(cfg, name);
	builtins_changed(cfg);
}

void
ca_config_set_seed(ca_config *cfg, uint64_t seed)
{
	cfg->seed = seed;
}

void
ca_config_set_now(ca_config *cfg, int64_t now)
{
	cfg->now = now;
	cfg->now_set = true;
	if (cfg->have_cx)
		cfg->cx.now = now;
}

void
ca_config_set_command_timeout(ca_config *cfg, int seconds)
{
	cfg->cmd_seconds = seconds < 0 ? 0 : seconds;
}

void
ca_config_add_template(ca_config *cfg, const char *category, const char *name,
    const char *text)
{
	struct cfg_tmpl *t = ca_vec_push(&cfg->tmpls);

	t->category = ca_arena_strndup(&cfg->arena, category, strlen(category));
	t->name = ca_arena_strndup(&cfg->arena, name, strlen(name));
	t->text = ca_arena_strndup(&cfg->arena, text, strlen(text));
}

ca_ctx *
cfg_ctx(ca_config *cfg)
{
	if (!cfg->have_cx) {
		ca_ctx_init(&cfg->cx);
		if (cfg->now_set)
			cfg->cx.now = cfg->now;
		cfg->have_cx = true;
	}
	return &cfg->cx;
}

/* ---- definitions ---- */

int
cfg_define(ca_config *cfg, const char *name, size_t nlen, const char *value, size_t len,
    const struct cfg_where *w, const struct cfg_seg *segs, size_t nsegs, ca_diag *err)
{
	struct cfg_entry tmp;

	memset(&tmp, 0, sizeof tmp);
	tmp.file = w->file;
	tmp.line = w->line;
	tmp.col = w->col;
	tmp.segs = (struct cfg_seg *)segs;
	tmp.nsegs = nsegs;
	if (cfg_check_refs(&tmp, value, len, err) < 0)
		return -1;

	strbuf sb = STRBUF_INIT;
	int rewritten = cfg_subst_self(cfg, name, nlen, value, len, &sb);
	if (rewritten < 0) {
		strbuf_release(&sb);
		cfg_entry_err(err, &tmp, 0, "%.*s with its previous value is longer than %zu bytes",
		    (int)nlen, name, CFG_MAX_EXPANSION);
		return -1;
	}
	uint64_t h = hash_name(name, nlen);
	struct cfg_entry *e = table_find(&cfg->files, name, nlen, h);
	if (e == NULL)
		e = table_add(cfg, &cfg->files, name, nlen, h);
	e->value = ca_arena_strndup(&cfg->arena, sb.buf, sb.len);
	e->len = e->cap = sb.len;
	strbuf_release(&sb);
	e->file = w->file;
	e->line = w->line;
	e->col = w->col;
	e->tmpl = w->tmpl;
	e->ufile = w->ufile ? w->ufile : w->file;
	e->uline = w->ufile ? w->uline : w->line;
	e->kind = CFG_K_FILE;
	e->segs = NULL;
	e->nsegs = 0;
	if (!rewritten && segs != NULL && nsegs > 0) {
		e->segs = ca_arena_array(&cfg->arena, nsegs, sizeof *e->segs);
		memcpy(e->segs, segs, nsegs * sizeof *segs);
		e->nsegs = nsegs;
	}
	return 0;
}

int
ca_config_set(ca_config *cfg, const char *name, const char *value, const char *origin,
    ca_diag *err)
{
	size_t nlen = strlen(name), vlen = strlen(value);
	strbuf sb = STRBUF_INIT;
	const char *file;

	strbuf_addf(&sb, "<%s>", origin ? origin : "default");
	/* Set again from the same origin (startd-step sets DETECTED_CPUS for
	 * every machine it reads): a value without macros is written over the
	 * last one when it fits, so memory does not grow with the sets. */
	struct cfg_entry *old = nlen > 0 ? table_find(&cfg->files, name, nlen,
	    hash_name(name, nlen)) : NULL;
	if (old != NULL && old->file != NULL && strcmp(old->file, sb.buf) == 0 &&
	    vlen <= old->cap && strchr(value, '$') == NULL) {
		strbuf_release(&sb);
		memcpy(old->value, value, vlen + 1);
		old->len = vlen;
		return 0;
	}
	file = ca_arena_strndup(&cfg->arena, sb.buf, sb.len);
	strbuf_release(&sb);
	if (nlen == 0) {
		ca_diag_set(err, CA_EX_INPUT, file, 0, 0, "empty configuration name");
		return -1;
	}
	for (size_t i = 0; i < nlen; i++)
		if (!cfg_is_name_char((unsigned char)name[i])) {
			ca_diag_set(err, CA_EX_INPUT, file, 0, 0, "bad configuration name '%s'",
			    name);
			return -1;
		}
	struct cfg_seg sg = { 0, 1, 1 };
	struct cfg_where w = { file, 1, 1, NULL, NULL, 0 };
	return cfg_define(cfg, name, nlen, value, vlen, &w, &sg, 1, err);
}

/* ---- lookups ---- */

bool
ca_config_defined(const ca_config *cfg, const char *name)
{
	return cfg_lookup((ca_config *)cfg, name, strlen(name)) != NULL;
}

const char *
ca_config_raw(const ca_config *cfg, const char *name)
{
	const struct cfg_entry *e = cfg_lookup((ca_config *)cfg, name, strlen(name));

	return e ? e->value : NULL;
}

bool
ca_config_locate(const ca_config *cfg, const char *name, ca_diag *err)
{
	const struct cfg_entry *e = cfg_lookup((ca_config *)cfg, name, strlen(name));

	if (e == NULL)
		return false;
	err->file = e->file;
	err->line = e->line;
	err->col = e->col;
	err->status = CA_EX_INPUT;
	err->msg[0] = '\0';
	return true;
}

size_t
ca_config_count(const ca_config *cfg)
{
	return cfg->files.v.n;
}

const char *
ca_config_name_at(const ca_config *cfg, size_t i)
{
	return i < cfg->files.v.n ? cfg->files.v.at[i]->spell : NULL;
}

int
ca_config_string(ca_config *cfg, const char *name, strbuf *out, ca_diag *err)
{
	struct cfg_entry *e = cfg_lookup(cfg, name, strlen(name));

	if (e == NULL)
		return 0;
	return cfg_expand_entry(cfg, e, out, err) < 0 ? -1 : 1;
}

int
ca_config_expand(ca_config *cfg, const char *text, size_t len, strbuf *out, ca_diag *err)
{
	struct cfg_entry e;
	struct cfg_seg s = { 0, 1, 1 };

	memset(&e, 0, sizeof e);
	e.spell = (char *)"<text>";
	e.file = "<text>";
	e.line = 1;
	e.col = 1;
	e.segs = &s;
	e.nsegs = 1;
	return cfg_expand_text(cfg, &e, text, len, 0, out, err);
}

/* The expanded, trimmed value of name in sb; *vp and *np point into it.
 * 1 defined and not empty, 0 otherwise, -1 error. */
static int
get_text(ca_config *cfg, const char *name, strbuf *sb, struct cfg_entry **ep,
    const char **vp, size_t *np, ca_diag *err)
{
	struct cfg_entry *e = cfg_lookup(cfg, name, strlen(name));

	if (e == NULL)
		return 0;
	if (cfg_expand_entry(cfg, e, sb, err) < 0)
		return -1;
	*vp = sb->buf;
	*np = sb->len;
	cfg_trim(vp, np);
	*ep = e;
	return *np > 0;
}

/* Report a syntax error of the expression parsed from e's expansion text. */
static void
parse_err(const struct cfg_entry *e, const char *text, size_t len, const ca_diag *perr,
    ca_diag *err)
{
	if (len == e->len && memcmp(text, e->value, len) == 0) {
		cfg_entry_err(err, e, perr->pos, "%s: %s", e->spell, perr->msg);
		return;
	}
	cfg_entry_err(err, e, 0, "%s: %s in its expansion \"%.*s%s\"", e->spell, perr->msg,
	    (int)(len > 60 ? 60 : len), text, len > 60 ? "..." : "");
}

/* Evaluate text without an ad, keeping only numbers and booleans (other
 * kinds become ERROR, strings too unless sb is given); with sb, the value's
 * text is added to it as $EVAL shows it (a string without its quotes). 1,
 * or 0 when the text does not parse (perr set when not NULL). */
static int
eval_text(ca_config *cfg, const char *text, size_t len, ca_value *v, strbuf *sb,
    ca_diag *perr)
{
	ca_arena a = { 0 };
	ca_diag d;
	ca_expr *x = ca_parse_expr(&a, text, len, 0, perr ? perr : &d);

	if (x == NULL) {
		ca_arena_free(&a);
		return 0;
	}
	ca_ctx *cx = cfg_ctx(cfg);
	*v = ca_eval_expr(cx, x, NULL, NULL);
	if (sb != NULL) {
		if (v->kind == CA_STRING)
			strbuf_add(sb, v->u.s, v->x.len);
		else
			ca_print_value(sb, *v, 0);
	}
	if (v->kind != CA_INT && v->kind != CA_REAL && v->kind != CA_BOOL && v->kind != CA_STRING)
		v->kind = CA_ERROR;
	if (v->kind == CA_STRING && sb == NULL)
		v->kind = CA_ERROR;
	ca_arena_reset(&cx->scratch);
	ca_arena_free(&a);
	return 1;
}

int
cfg_eval(ca_config *cfg, const char *text, size_t len, ca_value *v, strbuf *sb)
{
	return eval_text(cfg, text, len, v, sb, NULL);
}

/* The value of name evaluated with no ad. */
static int
get_value(ca_config *cfg, const char *name, ca_value *out, strbuf *sb,
    struct cfg_entry **ep, ca_diag *err)
{
	const char *v;
	size_t n;
	int rc = get_text(cfg, name, sb, ep, &v, &n, err);
	ca_diag perr;

	if (rc <= 0)
		return rc;
	if (!eval_text(cfg, sb->buf, sb->len, out, NULL, &perr)) {
		parse_err(*ep, sb->buf, sb->len, &perr, err);
		return -1;
	}
	return 1;
}

static int
type_err(const struct cfg_entry *e, const char *text, size_t len, const char *what,
    ca_diag *err)
{
	cfg_entry_err(err, e, 0, "%s: '%.*s%s' is not %s", e->spell, (int)(len > 60 ? 60 : len),
	    text, len > 60 ? "..." : "", what);
	return -1;
}

/* name's value as a number: 1 with *i set (a REAL only when it is a whole
 * number an int64_t holds) or, when i is NULL, *d; 0 when not defined, -1
 * with err when it is something else. */
static int
get_number(ca_config *cfg, const char *name, int64_t *i, double *d, ca_diag *err)
{
	strbuf sb = STRBUF_INIT;
	struct cfg_entry *e = NULL;
	ca_value v;
	int rc = get_value(cfg, name, &v, &sb, &e, err);

	if (rc == 1 && v.kind != CA_INT && !(v.kind == CA_REAL && (i == NULL ||
	    (v.u.r >= -9.2e18 && v.u.r <= 9.2e18 && v.u.r == (double)(int64_t)v.u.r))))
		rc = type_err(e, sb.buf, sb.len, i ? "an integer" : "a number", err);
	else if (rc == 1 && i != NULL)
		*i = v.kind == CA_INT ? v.u.i : (int64_t)v.u.r;
	else if (rc == 1)
		*d = v.kind == CA_INT ? (double)v.u.i : v.u.r;
	strbuf_release(&sb);
	return rc;
}

int
ca_config_int(ca_config *cfg, const char *name, int64_t *out, ca_diag *err)
{
	return get_number(cfg, name, out, NULL, err);
}

int
ca_config_real(ca_config *cfg, const char *name, double *out, ca_diag *err)
{
	return get_number(cfg, name, NULL, out, err);
}

int
ca_config_bool(ca_config *cfg, const char *name, bool *out, ca_diag *err)
{
	strbuf sb = STRBUF_INIT;
	struct cfg_entry *e = NULL;
	const char *t;
	size_t n;
	int rc = get_text(cfg, name, &sb, &e, &t, &n, err);

	if (rc == 1) {
		if (cfg_ci_equal(t, n, "true") || cfg_ci_equal(t, n, "yes"))
			*out = true;
		else if (cfg_ci_equal(t, n, "false") || cfg_ci_equal(t, n, "no"))
			*out = false;
		else {
			ca_value v;
			strbuf_release(&sb);
			rc = get_value(cfg, name, &v, &sb, &e, err);
			if (rc == 1) {
				int truth = ca_value_truth(v);
				if (truth < 0)
					rc = type_err(e, sb.buf, sb.len, "true or false", err);
				else
					*out = truth;
			}
		}
	}
	strbuf_release(&sb);
	return rc;
}

int
ca_config_expr(ca_config *cfg, const char *name, ca_arena *a, int pflags, ca_expr **out,
    ca_diag *err)
{
	strbuf sb = STRBUF_INIT;
	struct cfg_entry *e = NULL;
	const char *t;
	size_t n;
	int rc = get_text(cfg, name, &sb, &e, &t, &n, err);

	if (rc == 1) {
		ca_diag perr;
		ca_expr *x = ca_parse_expr(a, sb.buf, sb.len, pflags, &perr);
		if (x == NULL) {
			parse_err(e, sb.buf, sb.len, &perr, err);
			rc = -1;
		} else
			*out = x;
	}
	strbuf_release(&sb);
	return rc;
}

/* ---- what condor_config_val shows ---- */

const char *
ca_config_default(const ca_config *cfg, const char *name)
{
	size_t len = strlen(name);
	const char *v = NULL;

	if (cfg->subsys != NULL) {
		strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s.%s", cfg->subsys, name);
		v = cfg_default(sb.buf, sb.len);
		strbuf_release(&sb);
	}
	return v ? v : cfg_default(name, len);
}

bool
ca_config_info_of(ca_config *cfg, const char *name, bool exact, ca_config_info *out)
{
	size_t len = strlen(name);
	struct cfg_entry *e = exact ? cfg_find(cfg, name, len) : cfg_lookup(cfg, name, len);

	memset(out, 0, sizeof *out);
	out->dflt = ca_config_default(cfg, name);
	if (e == NULL)
		return false;
	out->name = e->spell;
	out->raw = e->value;
	out->origin = e->kind == CFG_K_FILE ? CA_CONFIG_FROM_FILE :
	    e->kind == CFG_K_DEFAULT ? CA_CONFIG_FROM_DEFAULT : CA_CONFIG_FROM_DETECTED;
	out->file = e->ufile;
	out->line = e->uline;
	out->tmpl = e->tmpl;
	out->tmpl_line = e->tmpl ? e->line : 0;
	return true;
}

size_t
ca_config_builtin_count(void)
{
	return cfg_default_count() + NDETECTED;
}

const char *
ca_config_builtin_name_at(size_t i)
{
	size_t n = cfg_default_count();

	if (i < n)
		return cfg_default_name_at(i);
	return i - n < NDETECTED ? detected_names[i - n] : NULL;
}

size_t
ca_config_template_count(const ca_config *cfg)
{
	return cfg_template_builtin_count() + cfg->tmpls.n;
}

void
ca_config_template_at(const ca_config *cfg, size_t i, ca_config_template *out)
{
	size_t n = cfg_template_builtin_count();

	memset(out, 0, sizeof *out);
	if (i < n) {
		const struct cfg_builtin_tmpl *t = cfg_template_builtin_at(i);
		out->category = t->category;
		out->name = t->name;
		out->text = t->text;
		out->simulated = t->simulated;
		out->about = t->about;
	} else if (i - n < cfg->tmpls.n) {
		const struct cfg_tmpl *t = &cfg->tmpls.at[i - n];
		out->category = t->category;
		out->name = t->name;
		out->text = t->text;
		out->simulated = true;
	}
}

bool
ca_config_template_find(const ca_config *cfg, const char *category, const char *name,
    ca_config_template *out)
{
	size_t clen = strlen(category), nlen = strlen(name);

	for (size_t k = cfg->tmpls.n; k-- > 0;)
		if (cfg_ci_equal(category, clen, cfg->tmpls.at[k].category) &&
		    cfg_ci_equal(name, nlen, cfg->tmpls.at[k].name)) {
			ca_config_template_at(cfg, cfg_template_builtin_count() + k, out);
			return true;
		}
	const struct cfg_builtin_tmpl *t = cfg_template_builtin(category, clen, name, nlen);
	if (t == NULL)
		return false;
	memset(out, 0, sizeof *out);
	out->category = t->category;
	out->name = t->name;
	out->text = t->text;
	out->simulated = t->simulated;
	out->about = t->about;
	return true;
}

size_t
ca_config_use_count(const ca_config *cfg)
{
	return cfg->uses.n;
}

void
ca_config_use_at(const ca_config *cfg, size_t i, ca_config_use *out)
{
	const struct cfg_use *u = &cfg->uses.at[i];

	out->category = u->category;
	out->name = u->name;
	out->args = u->args;
	out->file = u->file;
	out->line = u->line;
	out->simulated = u->simulated;
}

size_t
ca_config_source_count(const ca_config *cfg)
{
	return cfg->sources.n;
}

const char *
ca_config_source_at(const ca_config *cfg, size_t i)
{
	return i < cfg->sources.n ? cfg->sources.at[i] : NULL;
}

const char *
ca_config_warnings(const ca_config *cfg)
{
	return cfg->warnings.buf;
}

/* ---- knobs not simulated ---- */

/* name without a SUBSYS. or LOCALNAME. prefix; *prefix gets the prefix
 * (length in *plen) or NULL. */
static const char *
bare_name(const char *name, const char **prefix, size_t *plen)
{
	const char *dot = strchr(name, '.');

	*prefix = NULL;
	*plen = 0;
	if (dot == NULL || dot == name || dot[1] == '\0')
		return name;
	*prefix = name;
	*plen = (size_t)(dot - name);
	return dot + 1;
}

size_t
ca_config_unsimulated(ca_config *cfg, const char *subsys, ca_config_unsim_fn fn, void *arg)
{
	strbuf sb = STRBUF_INIT;
	size_t n = 0;

	for (size_t i = 0; i < cfg->files.v.n; i++) {
		struct cfg_entry *e = cfg->files.v.at[i];
		const char *prefix;
		size_t plen;
		const char *bare = bare_name(e->spell, &prefix, &plen);
		const struct cfg_unsim *u = cfg_unsim_match(bare);

		if (u == NULL)
			continue;
		if (subsys != NULL && !cfg_ci_equal(subsys, strlen(subsys), u->subsys))
			continue;
		/* SCHEDD.X matters to the schedd, not to the negotiator */
		if (prefix != NULL && !cfg_ci_equal(prefix, plen, u->subsys) &&
		    (cfg->localname == NULL || !cfg_ci_equal(prefix, plen, cfg->localname)))
			continue;
		ca_diag err;
		int rc = cfg_expand_entry(cfg, e, &sb, &err);
		const char *v = sb.buf;
		size_t vl = sb.len;
		cfg_trim(&v, &vl);
		if (rc == 0 && (vl == 0 || (u->harmless && cfg_ci_equal(v, vl, u->harmless))))
			continue;
		ca_config_unsim x = { e->spell, u->subsys, u->why, e->ufile, e->uline, e->tmpl };
		n++;
		if (fn != NULL)
			fn(arg, &x);
	}
	strbuf_release(&sb);
	return n;
}

void
ca_config_unsim_format(const ca_config_unsim *u, strbuf *sb)
{
	if (u->file != NULL && u->line > 0)
		strbuf_addf(sb, "%s:%d: ", u->file, u->line);
	else if (u->file != NULL)
		strbuf_addf(sb, "%s: ", u->file);
	strbuf_addf(sb, "%s is not simulated (%s: %s)", u->name, u->subsys, u->why);
	if (u->tmpl != NULL)
		strbuf_addf(sb, ", from use %s", u->tmpl);
}
