/* config.c - the HTCondor-style configuration reader behind every -c FILE:
 * condor_config syntax into a table of names; $(NAME) expanded on lookup. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "classad.h"

/*
 * Values are kept raw, as written, with a map from offsets in the value to
 * the file's lines and columns (a continued value spans several lines), so
 * that a problem found later, while expanding or parsing the value, is still
 * reported where it was written. Expansion is lazy as in HTCondor: $(B) in
 * A's value means B's last definition, whichever file it came from. Only a
 * self-reference ($(A) inside A's definition) is replaced at once, by A's
 * previous value, which is how "START = ($(START)) || ..." extends a policy.
 */

#define MAX_INCLUDE_DEPTH	16
#define MAX_EXPAND_DEPTH	64
#define MAX_EXPANSION		((size_t)16 << 20)
#define MAX_IF_DEPTH		64
#define MAX_FILE		((size_t)64 << 20)	/* include : /dev/zero must end */

struct seg {
	size_t off;		/* offset in the value */
	int line, col;		/* where that byte was in the file */
};

struct entry {
	char *key;		/* lower-cased name */
	char *spell;		/* first spelling */
	char *value;		/* raw text, NUL-terminated */
	size_t len;
	size_t cap;		/* bytes value has room for, less the NUL */
	const char *file;
	int line, col;		/* of the value's first byte */
	struct seg *segs;	/* NULL: rewritten by a self-reference */
	size_t nsegs;
	uint32_t hash;
	bool busy;		/* being expanded: recursion check */
};

struct tmpl {
	char *category, *name, *text;
};

struct ca_config {
	ca_arena arena;		/* names, values, segment maps, file names */
	struct entry *ents;
	size_t n, cap;
	uint32_t *index;	/* open addressing: entry index + 1 */
	size_t icap;		/* power of two */
	struct tmpl *tmpls;
	size_t ntmpl, tcap;
	char *subsys;
	ca_ctx cx;		/* for typed lookups and conditions */
	bool have_cx;
};

/* ---- errors ---- */

static void
set_err(ca_diag *err, const char *file, int line, int col, int sys, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void
set_err(ca_diag *err, const char *file, int line, int col, int sys, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	va_start(ap, fmt);
	ca_diag_vset(err, sys ? CA_EX_SYSTEM : CA_EX_INPUT, file, line, col, fmt, ap);
	va_end(ap);
}

/* File, line and column of byte off of e's value. */
static void
locate(const struct entry *e, size_t off, int *line, int *col)
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

static void
entry_err(ca_diag *err, const struct entry *e, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
entry_err(ca_diag *err, const struct entry *e, size_t off, const char *fmt, ...)
{
	va_list ap;
	int line, col;

	if (err == NULL)
		return;
	locate(e, off, &line, &col);
	err->file = e->file;
	err->line = line;
	err->col = col;
	err->status = CA_EX_INPUT;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
}

/* ---- characters ---- */

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int
is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
is_alnum(int c)
{
	return is_alpha(c) || (c >= '0' && c <= '9');
}

/* Characters of a configuration name. HTCondor is lenient here (the manual
 * writes SLOT_TYPE_<N>_PARTITIONABLE), so only what the syntax needs is out. */
static int
is_name_char(int c)
{
	return c > ' ' && c < 127 && strchr("=:@$()#\"'\\,", c) == NULL;
}

static bool
ci_equal(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);

	if (alen != blen)
		return false;
	for (size_t i = 0; i < alen; i++)
		if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
			return false;
	return true;
}

static void
trim(const char **s, size_t *len)
{
	while (*len > 0 && is_blank((unsigned char)**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && is_blank((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

/* ---- the table ---- */

static uint32_t
hash_name(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint32_t)lower((unsigned char)s[i])) * 16777619u;
	return h;
}

static struct entry *
find(const ca_config *cfg, const char *s, size_t len)
{
	if (cfg->icap == 0)
		return NULL;
	uint32_t h = hash_name(s, len);
	size_t mask = cfg->icap - 1;
	for (size_t j = h & mask;; j = (j + 1) & mask) {
		uint32_t k = cfg->index[j];
		if (k == 0)
			return NULL;
		struct entry *e = &cfg->ents[k - 1];
		if (e->hash == h && ci_equal(s, len, e->key))
			return e;
	}
}

/* NAME, or SUBSYS.NAME first when a subsystem is set. */
static struct entry *
lookup(const ca_config *cfg, const char *s, size_t len)
{
	if (cfg->subsys != NULL) {
		strbuf sb = STRBUF_INIT;
		strbuf_adds(&sb, cfg->subsys);
		strbuf_addc(&sb, '.');
		strbuf_add(&sb, s, len);
		struct entry *e = find(cfg, sb.buf, sb.len);
		strbuf_release(&sb);
		if (e != NULL)
			return e;
	}
	return find(cfg, s, len);
}

static void
index_grow(ca_config *cfg)
{
	size_t cap = cfg->icap ? cfg->icap * 2 : 64;
	uint32_t *ix = ca_xcalloc(cap, sizeof *ix);

	for (size_t i = 0; i < cfg->n; i++) {
		size_t j = cfg->ents[i].hash & (cap - 1);
		while (ix[j] != 0)
			j = (j + 1) & (cap - 1);
		ix[j] = (uint32_t)(i + 1);
	}
	free(cfg->index);
	cfg->index = ix;
	cfg->icap = cap;
}

/* The entry for name, created (empty) if new. */
static struct entry *
intern_entry(ca_config *cfg, const char *s, size_t len)
{
	struct entry *e = find(cfg, s, len);

	if (e != NULL)
		return e;
	if (cfg->n == cfg->cap) {
		cfg->cap = cfg->cap ? cfg->cap * 2 : 64;
		cfg->ents = ca_xreallocarray(cfg->ents, cfg->cap, sizeof *cfg->ents);
	}
	e = &cfg->ents[cfg->n];
	memset(e, 0, sizeof *e);
	e->spell = ca_arena_strndup(&cfg->arena, s, len);
	e->key = ca_arena_strndup(&cfg->arena, s, len);
	for (size_t i = 0; i < len; i++)
		e->key[i] = (char)lower((unsigned char)e->key[i]);
	e->hash = hash_name(s, len);
	cfg->n++;
	if (cfg->n * 2 > cfg->icap)
		index_grow(cfg);
	else {
		size_t j = e->hash & (cfg->icap - 1);
		while (cfg->index[j] != 0)
			j = (j + 1) & (cfg->icap - 1);
		cfg->index[j] = (uint32_t)cfg->n;
	}
	return e;
}

ca_config *
ca_config_new(void)
{
	return ca_xcalloc(1, sizeof(ca_config));
}

void
ca_config_free(ca_config *cfg)
{
	if (cfg == NULL)
		return;
	if (cfg->have_cx)
		ca_ctx_free(&cfg->cx);
	ca_arena_free(&cfg->arena);
	free(cfg->ents);
	free(cfg->index);
	free(cfg->tmpls);
	free(cfg);
}

void
ca_config_set_subsys(ca_config *cfg, const char *subsys)
{
	cfg->subsys = subsys ? ca_arena_strndup(&cfg->arena, subsys, strlen(subsys)) : NULL;
}

void
ca_config_add_template(ca_config *cfg, const char *category, const char *name,
    const char *text)
{
	if (cfg->ntmpl == cfg->tcap) {
		cfg->tcap = cfg->tcap ? cfg->tcap * 2 : 8;
		cfg->tmpls = ca_xreallocarray(cfg->tmpls, cfg->tcap, sizeof *cfg->tmpls);
	}
	struct tmpl *t = &cfg->tmpls[cfg->ntmpl++];
	t->category = ca_arena_strndup(&cfg->arena, category, strlen(category));
	t->name = ca_arena_strndup(&cfg->arena, name, strlen(name));
	t->text = ca_arena_strndup(&cfg->arena, text, strlen(text));
}

static ca_ctx *
ctx(ca_config *cfg)
{
	if (!cfg->have_cx) {
		ca_ctx_init(&cfg->cx);
		cfg->have_cx = true;
	}
	return &cfg->cx;
}

/* ---- macro references ---- */

enum ref_kind {
	REF_LITERAL,		/* a '$' that starts nothing */
	REF_VERBATIM,		/* $$ or $$(...): kept for match time */
	REF_MACRO,		/* $(NAME) or $(NAME:default) */
	REF_ENV,		/* $ENV(VAR) */
	REF_FUNC,		/* $WORD(...): not supported */
	REF_UNBALANCED,		/* $( or $WORD( without its ')' */
	REF_BADNAME		/* $( ) or $(a b) */
};

struct mref {
	enum ref_kind kind;
	size_t end;		/* offset just past the reference */
	size_t name, nlen;	/* NAME (or VAR, or WORD for REF_FUNC) */
	size_t dflt, dlen;	/* the default after ':' */
	bool has_dflt;
};

/* Offset of the ')' closing the '(' at open, or 0 when there is none. */
static size_t
closing(const char *t, size_t len, size_t open)
{
	int depth = 0;

	for (size_t j = open; j < len; j++) {
		if (t[j] == '(')
			depth++;
		else if (t[j] == ')' && --depth == 0)
			return j;
	}
	return 0;
}

/* Classify the reference starting with the '$' at t[k]. */
static void
scan_ref(const char *t, size_t len, size_t k, struct mref *m)
{
	memset(m, 0, sizeof *m);
	m->kind = REF_LITERAL;
	m->end = k + 1;
	if (k + 1 >= len)
		return;
	if (t[k + 1] == '$') {
		m->kind = REF_VERBATIM;
		m->end = k + 2;
		if (k + 2 < len && t[k + 2] == '(') {
			size_t c = closing(t, len, k + 2);
			if (c)
				m->end = c + 1;
		}
		return;
	}
	if (t[k + 1] == '(') {
		size_t c = closing(t, len, k + 1);
		if (c == 0) {
			m->kind = REF_UNBALANCED;
			return;
		}
		m->end = c + 1;
		m->name = k + 2;
		size_t j = m->name;
		while (j < c && t[j] != ':')
			j++;
		m->nlen = j - m->name;
		if (j < c) {
			m->has_dflt = true;
			m->dflt = j + 1;
			m->dlen = c - j - 1;
		}
		m->kind = REF_MACRO;
		if (m->nlen == 0)
			m->kind = REF_BADNAME;
		for (size_t i = m->name; i < m->name + m->nlen; i++)
			if (!is_name_char((unsigned char)t[i]))
				m->kind = REF_BADNAME;
		return;
	}
	if (is_alpha((unsigned char)t[k + 1])) {
		size_t j = k + 1;
		while (j < len && is_alnum((unsigned char)t[j]))
			j++;
		if (j >= len || t[j] != '(')
			return;
		size_t c = closing(t, len, j);
		if (c == 0) {
			m->kind = REF_UNBALANCED;
			return;
		}
		m->end = c + 1;
		if (ci_equal(t + k + 1, j - k - 1, "ENV")) {
			m->kind = REF_ENV;
			m->name = j + 1;
			size_t i = m->name;
			while (i < c && t[i] != ':')
				i++;
			m->nlen = i - m->name;
			if (i < c) {
				m->has_dflt = true;
				m->dflt = i + 1;
				m->dlen = c - i - 1;
			}
		} else {
			m->kind = REF_FUNC;
			m->name = k + 1;
			m->nlen = j - k - 1;
		}
	}
}

/* Syntax check of a value as it is defined: every $( closed, names valid.
 * Defaults are checked too, and nested at most MAX_EXPAND_DEPTH deep (so
 * that expanding them cannot recurse without end). depth: 0 at the top.
 * Returns 0 or -1 with err set. */
static int
check_refs(const struct entry *e, const char *t, size_t len, size_t base, int depth,
    ca_diag *err)
{
	struct mref m;

	if (depth >= MAX_EXPAND_DEPTH) {
		entry_err(err, e, base, "macro defaults nested more than %d deep",
		    MAX_EXPAND_DEPTH);
		return -1;
	}

	for (size_t i = 0; i < len;) {
		const char *d = memchr(t + i, '$', len - i);
		if (d == NULL)
			break;
		size_t k = (size_t)(d - t);
		scan_ref(t, len, k, &m);
		if (m.kind == REF_UNBALANCED) {
			entry_err(err, e, base + k, "unbalanced '$(': no ')' closes it");
			return -1;
		}
		if (m.kind == REF_BADNAME) {
			entry_err(err, e, base + k, "bad macro name '%.*s'", (int)m.nlen,
			    t + m.name);
			return -1;
		}
		if ((m.kind == REF_MACRO || m.kind == REF_ENV) && m.has_dflt &&
		    check_refs(e, t + m.dflt, m.dlen, base + m.dflt, depth + 1, err) < 0)
			return -1;
		i = m.end;
	}
	return 0;
}

/* value with every $(NAME) / $(NAME:default) of the name being defined
 * replaced by prev (its previous raw value; NULL: the default, or nothing).
 * Returns 1 when something was replaced, 0 when not, -1 when the result
 * would be longer than MAX_EXPANSION ("A = $(A)$(A)" doubles each time). */
static int
subst_self(const char *name, size_t nlen, const char *t, size_t len, const char *prev,
    strbuf *out)
{
	struct mref m;
	int any = 0;
	size_t i = 0, plen = prev ? strlen(prev) : 0;

	while (i < len) {
		const char *d = memchr(t + i, '$', len - i);
		if (d == NULL)
			break;
		size_t k = (size_t)(d - t);
		scan_ref(t, len, k, &m);
		if (m.kind == REF_MACRO && m.nlen == nlen) {
			/* compare the two names without regard to case */
			size_t j = 0;
			while (j < nlen && lower((unsigned char)t[m.name + j]) ==
			    lower((unsigned char)name[j]))
				j++;
			if (j == nlen) {
				if (out->len + (k - i) + plen > MAX_EXPANSION)
					return -1;
				strbuf_add(out, t + i, k - i);
				if (prev != NULL)
					strbuf_add(out, prev, plen);
				else if (m.has_dflt)
					strbuf_add(out, t + m.dflt, m.dlen);
				any = 1;
				i = m.end;
				continue;
			}
		}
		strbuf_add(out, t + i, m.end - i);
		i = m.end;
	}
	strbuf_add(out, t + i, len - i);
	return any;
}

/* Define name = value (value[0..len)), written at file:line:col with the
 * segment map segs (NULL: a single segment at line:col). */
static int
define(ca_config *cfg, const char *name, size_t nlen, const char *value, size_t len,
    const char *file, int line, int col, const struct seg *segs, size_t nsegs, ca_diag *err)
{
	struct entry tmp;

	memset(&tmp, 0, sizeof tmp);
	tmp.file = file;
	tmp.line = line;
	tmp.col = col;
	tmp.segs = (struct seg *)segs;
	tmp.nsegs = nsegs;
	if (check_refs(&tmp, value, len, 0, 0, err) < 0)
		return -1;

	struct entry *old = find(cfg, name, nlen);
	strbuf sb = STRBUF_INIT;
	int rewritten = subst_self(name, nlen, value, len, old ? old->value : NULL, &sb);
	if (rewritten < 0) {
		strbuf_release(&sb);
		entry_err(err, &tmp, 0, "%.*s with its previous value is longer than %zu bytes",
		    (int)nlen, name, MAX_EXPANSION);
		return -1;
	}
	struct entry *e = intern_entry(cfg, name, nlen);
	e->value = ca_arena_strndup(&cfg->arena, sb.buf, sb.len);
	e->len = e->cap = sb.len;
	strbuf_release(&sb);
	e->file = file;
	e->line = line;
	e->col = col;
	e->segs = NULL;
	e->nsegs = 0;
	if (!rewritten && segs != NULL && nsegs > 0) {
		e->segs = ca_arena_array(&cfg->arena, nsegs, sizeof *e->segs);
		memcpy(e->segs, segs, nsegs * sizeof *segs);
		e->nsegs = nsegs;
	}
	return 0;
}

/* ---- expansion ---- */

struct xp {
	ca_config *cfg;
	strbuf *out;
	ca_diag *err;
	const struct entry *stack[MAX_EXPAND_DEPTH];
	int depth;
	int ddepth;		/* defaults being expanded, nested */
};

static int expand(struct xp *x, const struct entry *e, const char *t, size_t len, size_t base);

static int
recursion_err(struct xp *x, const struct entry *e, size_t off, const struct entry *r)
{
	char chain[160];
	size_t n = 0;
	int i = 0;

	/* from the first appearance of r on the stack */
	while (i < x->depth && x->stack[i] != r)
		i++;
	chain[0] = '\0';
	for (; i < x->depth && n < sizeof chain; i++)
		n += (size_t)snprintf(chain + n, sizeof chain - n, "%s -> ", x->stack[i]->spell);
	if (n < sizeof chain)
		snprintf(chain + n, sizeof chain - n, "%s", r->spell);
	entry_err(x->err, e, off, "macro recursion: %s", chain);
	return -1;
}

static int
expand_entry(struct xp *x, const struct entry *e, size_t off, struct entry *r)
{
	if (r->busy)
		return recursion_err(x, e, off, r);
	if (x->depth >= MAX_EXPAND_DEPTH) {
		entry_err(x->err, e, off, "macros nested more than %d deep", MAX_EXPAND_DEPTH);
		return -1;
	}
	r->busy = true;
	x->stack[x->depth++] = r;
	int rc = expand(x, r, r->value, r->len, 0);
	x->depth--;
	r->busy = false;
	return rc;
}

/* The default of reference m in t, expanded; defaults nest at most
 * MAX_EXPAND_DEPTH deep ("$(A:$(B:$(C:...)))" in an if or include line is
 * not checked when it is read). */
static int
expand_default(struct xp *x, const struct entry *e, const char *t, const struct mref *m,
    size_t base)
{
	if (x->ddepth >= MAX_EXPAND_DEPTH) {
		entry_err(x->err, e, base + m->dflt, "macro defaults nested more than %d deep",
		    MAX_EXPAND_DEPTH);
		return -1;
	}
	x->ddepth++;
	int rc = expand(x, e, t + m->dflt, m->dlen, base + m->dflt);
	x->ddepth--;
	return rc;
}

/* Append the expansion of t[0..len) to x->out; t is e's value from offset
 * base on (for locating errors). */
static int
expand(struct xp *x, const struct entry *e, const char *t, size_t len, size_t base)
{
	struct mref m;
	size_t i = 0;

	while (i < len) {
		const char *d = memchr(t + i, '$', len - i);
		if (d == NULL)
			break;
		size_t k = (size_t)(d - t);
		strbuf_add(x->out, t + i, k - i);
		scan_ref(t, len, k, &m);
		switch (m.kind) {
		case REF_LITERAL:
		case REF_VERBATIM:
			strbuf_add(x->out, t + k, m.end - k);
			break;
		case REF_UNBALANCED:
			entry_err(x->err, e, base + k, "unbalanced '$(': no ')' closes it");
			return -1;
		case REF_BADNAME:
			entry_err(x->err, e, base + k, "bad macro name '%.*s'", (int)m.nlen,
			    t + m.name);
			return -1;
		case REF_FUNC:
			entry_err(x->err, e, base + k, "macro function $%.*s() is not supported",
			    (int)m.nlen, t + m.name);
			return -1;
		case REF_ENV: {
			char var[256];
			const char *v = NULL;
			if (m.nlen < sizeof var) {
				memcpy(var, t + m.name, m.nlen);
				var[m.nlen] = '\0';
				v = getenv(var);
			}
			if (v != NULL)
				strbuf_adds(x->out, v);
			else if (m.has_dflt && expand_default(x, e, t, &m, base) < 0)
				return -1;
			break;
		}
		case REF_MACRO: {
			struct entry *r = lookup(x->cfg, t + m.name, m.nlen);
			if (r != NULL) {
				if (expand_entry(x, e, base + k, r) < 0)
					return -1;
			} else if (m.has_dflt) {
				if (expand_default(x, e, t, &m, base) < 0)
					return -1;
			} else if (ci_equal(t + m.name, m.nlen, "DOLLAR"))
				strbuf_addc(x->out, '$');
			/* an undefined macro expands to nothing, as in HTCondor */
			break;
		}
		}
		if (x->out->len > MAX_EXPANSION) {
			entry_err(x->err, e, base + k, "macro expansion longer than %zu bytes",
			    MAX_EXPANSION);
			return -1;
		}
		i = m.end;
	}
	strbuf_add(x->out, t + i, len - i);
	return 0;
}

/* The expansion of e's whole value into out (reset first). */
static int
expand_value(ca_config *cfg, struct entry *e, strbuf *out, ca_diag *err)
{
	struct xp x;

	strbuf_reset(out);
	memset(&x, 0, sizeof x);
	x.cfg = cfg;
	x.out = out;
	x.err = err;
	x.stack[x.depth++] = e;
	e->busy = true;
	int rc = expand(&x, e, e->value, e->len, 0);
	e->busy = false;
	return rc;
}

int
ca_config_expand(ca_config *cfg, const char *text, size_t len, strbuf *out, ca_diag *err)
{
	struct entry e;
	struct seg s = { 0, 1, 1 };
	struct xp x;

	memset(&e, 0, sizeof e);
	e.spell = (char *)"<text>";
	e.file = "<text>";
	e.line = 1;
	e.col = 1;
	e.segs = &s;
	e.nsegs = 1;
	memset(&x, 0, sizeof x);
	x.cfg = cfg;
	x.out = out;
	x.err = err;
	strbuf_reset(out);
	return expand(&x, &e, text, len, 0);
}

/* ---- reading files ---- */

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
	struct ifstate ifs[MAX_IF_DEPTH];
	int nifs;
};

/* A logical line: physical lines joined by continuations. */
struct logical {
	strbuf text;
	struct seg *segs;
	size_t nsegs, cap;
	int line;		/* of its first physical line */
	bool comment;
};

static void
seg_add(struct logical *lg, size_t off, int line, int col)
{
	if (lg->nsegs == lg->cap) {
		lg->cap = lg->cap ? lg->cap * 2 : 8;
		lg->segs = ca_xreallocarray(lg->segs, lg->cap, sizeof *lg->segs);
	}
	lg->segs[lg->nsegs++] = (struct seg){ off, line, col };
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

/* The next logical line; false at the end of the input. */
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
		while (lead < n && is_blank((unsigned char)p[lead]))
			lead++;
		while (n > lead && is_blank((unsigned char)p[n - 1]))
			n--;
		bool comment = lead < n && p[lead] == '#';
		if (cont && comment)
			continue;	/* a comment inside a continued value is skipped */
		if (!cont) {
			lg->line = ln;
			seg_add(lg, 0, ln, 1);
			strbuf_add(&lg->text, p, n);
			if (comment) {
				lg->comment = true;
				return true;	/* a '\' ending a comment continues nothing */
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
	struct entry e;

	memset(&e, 0, sizeof e);
	e.line = lg->line;
	e.col = 1;
	e.segs = lg->segs;
	e.nsegs = lg->nsegs;
	locate(&e, off, line, col);
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
	if (s->err != NULL) {
		s->err->file = s->file;
		s->err->line = line;
		s->err->col = col;
		s->err->status = CA_EX_INPUT;
		va_start(ap, fmt);
		vsnprintf(s->err->msg, sizeof s->err->msg, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static bool
active(const struct src *s)
{
	return s->nifs == 0 || s->ifs[s->nifs - 1].on;
}

static int load_src(struct src *s);

/* Expand text that is part of a logical line (a condition, a file name). */
static int
expand_part(struct src *s, const struct logical *lg, size_t off, size_t len, strbuf *out)
{
	struct entry e;
	struct xp x;

	memset(&e, 0, sizeof e);
	e.spell = (char *)"<line>";
	e.file = s->file;
	e.line = lg->line;
	e.col = 1;
	e.segs = lg->segs;
	e.nsegs = lg->nsegs;
	memset(&x, 0, sizeof x);
	x.cfg = s->cfg;
	x.out = out;
	x.err = s->err;
	strbuf_reset(out);
	return expand(&x, &e, lg->text.buf + off, len, off);
}

/* Evaluate the condition of if/elif at lg->text[off..off+len).
 * 1 true, 0 false, -1 error. */
static int
condition(struct src *s, const struct logical *lg, size_t off, size_t len)
{
	strbuf sb = STRBUF_INIT;
	int rc = -1;

	if (expand_part(s, lg, off, len, &sb) < 0)
		goto out;
	const char *c = sb.buf;
	size_t n = sb.len;
	bool neg = false;
	trim(&c, &n);
	while (n > 0 && *c == '!') {
		neg = !neg;
		c++;
		n--;
		trim(&c, &n);
	}
	size_t w = 0;
	while (w < n && !is_blank((unsigned char)c[w]))
		w++;
	if (n == 0) {
		lg_err(s, lg, off, "missing condition");
		goto out;
	}
	if (ci_equal(c, w, "defined")) {
		const char *name = c + w;
		size_t nl = n - w;
		trim(&name, &nl);
		rc = nl > 0 && lookup(s->cfg, name, nl) != NULL;
	} else if (ci_equal(c, w, "version")) {
		lg_err(s, lg, off, "'if version' is not supported");
		goto out;
	} else if (ci_equal(c, n, "true") || ci_equal(c, n, "yes")) {
		rc = 1;
	} else if (ci_equal(c, n, "false") || ci_equal(c, n, "no")) {
		rc = 0;
	} else {
		ca_arena a = { 0 };
		ca_diag perr;
		ca_expr *e = ca_parse_expr(&a, c, n, 0, &perr);
		ca_value v = e ? ca_eval_expr(ctx(s->cfg), e, NULL, NULL) : ca_error(NULL);
		int t = ca_value_truth(v);
		ca_arena_reset(&ctx(s->cfg)->scratch);
		ca_arena_free(&a);
		if (t < 0) {
			lg_err(s, lg, off, "condition '%.*s' is neither true nor false",
			    (int)(n > 60 ? 60 : n), c);
			goto out;
		}
		rc = t;
	}
	if (neg)
		rc = !rc;
out:
	strbuf_release(&sb);
	return rc;
}

/* if / elif / else / endif: word is the keyword, rest what follows it. */
static int
conditional(struct src *s, const struct logical *lg, const char *word, size_t wlen,
    size_t rest, size_t rlen)
{
	struct ifstate *top = s->nifs ? &s->ifs[s->nifs - 1] : NULL;
	size_t woff = (size_t)(word - lg->text.buf);

	if (ci_equal(word, wlen, "if")) {
		if (s->nifs == MAX_IF_DEPTH)
			return lg_err(s, lg, woff, "'if' nested more than %d deep", MAX_IF_DEPTH);
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
	if (ci_equal(word, wlen, "elif")) {
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
	if (rlen > 0)
		return lg_err(s, lg, rest, "unexpected text after '%.*s'", (int)wlen, word);
	if (ci_equal(word, wlen, "else")) {
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

/* The whole of fp; NULL on a read error, or with *len = SIZE_MAX when it
 * is longer than MAX_FILE. */
static char *
read_all(FILE *fp, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf = ca_xmalloc(cap);

	for (;;) {
		if (n == cap) {
			if (cap >= MAX_FILE) {
				free(buf);
				*len = SIZE_MAX;
				return NULL;
			}
			buf = ca_xreallocarray(buf, cap *= 2, 1);
		}
		size_t got = fread(buf + n, 1, cap - n, fp);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* Load text as a nested source of s (include, use) or as the top one. */
static int
load_text(ca_config *cfg, const char *file, const char *dir, const char *text, size_t len,
    int depth, ca_diag *err)
{
	struct src *s = ca_xcalloc(1, sizeof *s);
	const char *nul = memchr(text, '\0', len);
	int rc;

	s->cfg = cfg;
	s->file = file;
	s->dir = dir;
	s->text = text;
	s->len = len;
	s->line = 1;
	s->depth = depth;
	s->err = err;
	if (nul != NULL) {
		int line = 1, col = 1;
		for (const char *p = text; p < nul; p++, col++)
			if (*p == '\n') {
				line++;
				col = 0;
			}
		set_err(err, file, line, col, 0, "NUL byte in the configuration");
		free(s);
		return -1;
	}
	rc = load_src(s);
	free(s);
	return rc;
}

static const char *
dir_of(ca_config *cfg, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return NULL;
	return ca_arena_strndup(&cfg->arena, path, (size_t)(slash - path) + (slash == path));
}

static int
load_path(ca_config *cfg, const char *path, int depth, bool ifexist, ca_diag *err,
    const char *efile, int eline, int ecol)
{
	const char *file = ca_arena_strndup(&cfg->arena, path, strlen(path));
	bool std = strcmp(path, "-") == 0;
	FILE *fp = std ? stdin : fopen(path, "rb");
	size_t len = 0;

	if (std)
		file = "<stdin>";
	if (fp == NULL) {
		if (ifexist && errno == ENOENT)
			return 0;
		if (efile != NULL)
			set_err(err, efile, eline, ecol, 1, "cannot open %s: %s", path,
			    strerror(errno));
		else
			set_err(err, file, 0, 0, 1, "cannot open: %s", strerror(errno));
		return -1;
	}
	char *text = read_all(fp, &len);
	int e = errno;
	if (!std)
		fclose(fp);
	if (text == NULL && len == SIZE_MAX) {
		if (efile != NULL)
			set_err(err, efile, eline, ecol, 0, "%s is longer than %zu MiB: not a "
			    "configuration file", path, MAX_FILE >> 20);
		else
			set_err(err, file, 0, 0, 0, "longer than %zu MiB: not a configuration file",
			    MAX_FILE >> 20);
		return -1;
	}
	if (text == NULL) {
		set_err(err, file, 0, 0, 1, "read error: %s", strerror(e));
		return -1;
	}
	int rc = load_text(cfg, file, std ? NULL : dir_of(cfg, path), text, len, depth, err);
	free(text);
	return rc;
}

/* include [ifexist] : FILE */
static int
include(struct src *s, const struct logical *lg, size_t rest)
{
	const char *t = lg->text.buf;
	size_t len = lg->text.len, i = rest;
	bool ifexist = false;

	while (i < len && is_blank((unsigned char)t[i]))
		i++;
	if (i < len && t[i] != ':') {
		size_t w = i;
		while (i < len && is_alpha((unsigned char)t[i]))
			i++;
		if (ci_equal(t + w, i - w, "ifexist"))
			ifexist = true;
		else if (ci_equal(t + w, i - w, "command"))
			return lg_err(s, lg, w, "'include command' is not supported");
		else
			return lg_err(s, lg, w, "expected ':' or 'ifexist' after 'include'");
		while (i < len && is_blank((unsigned char)t[i]))
			i++;
	}
	if (i >= len || t[i] != ':')
		return lg_err(s, lg, i, "expected ':' in 'include : FILE'");
	i++;
	strbuf name = STRBUF_INIT;
	if (expand_part(s, lg, i, len - i, &name) < 0) {
		strbuf_release(&name);
		return -1;
	}
	const char *p = name.buf;
	size_t n = name.len;
	trim(&p, &n);
	if (n == 0) {
		strbuf_release(&name);
		return lg_err(s, lg, i, "no file name after 'include :'");
	}
	if (s->depth >= MAX_INCLUDE_DEPTH) {
		strbuf_release(&name);
		return lg_err(s, lg, rest, "includes nested more than %d deep (a loop?)",
		    MAX_INCLUDE_DEPTH);
	}
	strbuf path = STRBUF_INIT;
	if (p[0] != '/' && s->dir != NULL) {
		strbuf_adds(&path, s->dir);
		if (path.len > 0 && path.buf[path.len - 1] != '/')
			strbuf_addc(&path, '/');
	}
	strbuf_add(&path, p, n);
	int line, col;
	lg_where(lg, i, &line, &col);
	int rc = load_path(s->cfg, path.buf, s->depth + 1, ifexist, s->err, s->file, line, col);
	strbuf_release(&path);
	strbuf_release(&name);
	return rc;
}

/* use CATEGORY : NAME[, NAME...] */
static int
use(struct src *s, const struct logical *lg, size_t rest)
{
	const char *t = lg->text.buf;
	size_t len = lg->text.len, i = rest;

	while (i < len && is_blank((unsigned char)t[i]))
		i++;
	size_t cat = i;
	while (i < len && is_name_char((unsigned char)t[i]))
		i++;
	size_t clen = i - cat;
	while (i < len && is_blank((unsigned char)t[i]))
		i++;
	if (clen == 0 || i >= len || t[i] != ':')
		return lg_err(s, lg, cat, "expected 'use CATEGORY : NAME'");
	i++;
	while (i < len) {
		while (i < len && (is_blank((unsigned char)t[i]) || t[i] == ','))
			i++;
		if (i >= len)
			break;
		size_t nm = i;
		while (i < len && t[i] != ',' && !is_blank((unsigned char)t[i]) && t[i] != '(')
			i++;
		size_t nlen = i - nm;
		if (i < len && t[i] == '(')
			return lg_err(s, lg, i, "template arguments are not supported");
		const struct tmpl *tp = NULL;
		for (size_t k = 0; k < s->cfg->ntmpl; k++)
			if (ci_equal(t + cat, clen, s->cfg->tmpls[k].category) &&
			    ci_equal(t + nm, nlen, s->cfg->tmpls[k].name))
				tp = &s->cfg->tmpls[k];
		if (tp == NULL)
			return lg_err(s, lg, nm, "unknown template %.*s:%.*s", (int)clen, t + cat,
			    (int)nlen, t + nm);
		if (s->depth >= MAX_INCLUDE_DEPTH)
			return lg_err(s, lg, nm, "templates nested more than %d deep",
			    MAX_INCLUDE_DEPTH);
		strbuf fname = STRBUF_INIT;
		strbuf_addf(&fname, "<use %s:%s>", tp->category, tp->name);
		const char *file = ca_arena_strndup(&s->cfg->arena, fname.buf, fname.len);
		strbuf_release(&fname);
		if (load_text(s->cfg, file, s->dir, tp->text, strlen(tp->text), s->depth + 1,
		    s->err) < 0)
			return -1;
	}
	return 0;
}

/* NAME @=TAG: the lines up to "@TAG" are the value, verbatim. */
static int
block(struct src *s, const struct logical *lg, size_t name, size_t nlen, size_t tag,
    size_t tlen)
{
	struct logical val = { STRBUF_INIT, NULL, 0, 0, 0, false };
	const char *p;
	size_t n;
	int ln, rc = -1;
	char *tagz = ca_xstrndup(lg->text.buf + tag, tlen);

	for (;;) {
		if (!phys_line(s, &p, &n, &ln)) {
			lg_err(s, lg, tag - 2, "no '@%s' line ends this value", tagz);
			goto out;
		}
		size_t lead = 0;
		while (lead < n && is_blank((unsigned char)p[lead]))
			lead++;
		size_t e = n;
		while (e > lead && is_blank((unsigned char)p[e - 1]))
			e--;
		if (e - lead == tlen + 1 && p[lead] == '@' &&
		    memcmp(p + lead + 1, tagz, tlen) == 0)
			break;
		if (val.nsegs > 0)
			strbuf_addc(&val.text, '\n');
		seg_add(&val, val.text.len, ln, 1);
		strbuf_add(&val.text, p, n);
	}
	if (!active(s)) {
		rc = 0;
		goto out;
	}
	int line, col;
	lg_where(lg, name, &line, &col);
	rc = define(s->cfg, lg->text.buf + name, nlen, val.text.buf, val.text.len, s->file,
	    val.nsegs ? val.segs[0].line : line, 1, val.segs, val.nsegs, s->err);
out:
	free(tagz);
	strbuf_release(&val.text);
	free(val.segs);
	return rc;
}

/* One logical line that is not a comment. */
static int
statement(struct src *s, struct logical *lg)
{
	const char *t = lg->text.buf;
	size_t len = lg->text.len, i = 0;

	while (i < len && is_blank((unsigned char)t[i]))
		i++;
	if (i == len)
		return 0;
	size_t w = i;
	while (i < len && is_name_char((unsigned char)t[i]))
		i++;
	size_t wlen = i - w;
	while (i < len && is_blank((unsigned char)t[i]))
		i++;
	if (wlen == 0)
		return active(s) ? lg_err(s, lg, w, "expected a name at '%c'", t[w]) : 0;

	/* NAME = value */
	if (i < len && t[i] == '=') {
		if (!active(s))
			return 0;
		size_t v = i + 1;
		while (v < len && is_blank((unsigned char)t[v]))
			v++;
		size_t vlen = len - v;
		while (vlen > 0 && is_blank((unsigned char)t[v + vlen - 1]))
			vlen--;
		/* the segment map shifted to offsets within the value */
		struct seg *segs = ca_xreallocarray(NULL, lg->nsegs, sizeof *segs);
		size_t ns = 0;
		for (size_t k = 0; k < lg->nsegs; k++) {
			size_t end = k + 1 < lg->nsegs ? lg->segs[k + 1].off : len;
			if (end <= v && k + 1 < lg->nsegs)
				continue;
			struct seg sg = lg->segs[k];
			if (sg.off < v) {
				sg.col += (int)(v - sg.off);
				sg.off = v;
			}
			sg.off -= v;
			segs[ns++] = sg;
		}
		int line, col;
		lg_where(lg, v, &line, &col);
		int rc = define(s->cfg, t + w, wlen, t + v, vlen, s->file, line, col, segs, ns,
		    s->err);
		free(segs);
		return rc;
	}
	/* NAME @=TAG */
	if (i + 1 < len && t[i] == '@' && t[i + 1] == '=') {
		size_t g = i + 2;
		while (g < len && is_blank((unsigned char)t[g]))
			g++;
		size_t glen = 0;
		while (g + glen < len && is_alnum((unsigned char)t[g + glen]))
			glen++;
		if (glen == 0 || g + glen != len)
			return active(s) ? lg_err(s, lg, i,
			    "expected '@=TAG' with a tag of letters and digits") : 0;
		return block(s, lg, w, wlen, g, glen);
	}
	const char *word = t + w;
	if (ci_equal(word, wlen, "if") || ci_equal(word, wlen, "elif") ||
	    ci_equal(word, wlen, "else") || ci_equal(word, wlen, "endif"))
		return conditional(s, lg, word, wlen, i, len - i);
	if (!active(s))
		return 0;
	if (ci_equal(word, wlen, "include"))
		return include(s, lg, w + wlen);
	if (ci_equal(word, wlen, "use"))
		return use(s, lg, w + wlen);
	return lg_err(s, lg, i, "expected '=' after '%.*s'", (int)wlen, word);
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
		set_err(s->err, s->file, f->line, f->col, 0, "'if' without 'endif'");
		rc = -1;
	}
	strbuf_release(&lg.text);
	free(lg.segs);
	return rc;
}

int
ca_config_load(ca_config *cfg, const char *path, ca_diag *err)
{
	return load_path(cfg, path, 0, false, err, NULL, 0, 0);
}

int
ca_config_load_mem(ca_config *cfg, const char *name, const char *text, size_t len,
    ca_diag *err)
{
	const char *file = ca_arena_strndup(&cfg->arena, name, strlen(name));

	return load_text(cfg, file, NULL, text, len, 0, err);
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
	struct entry *old = nlen > 0 ? find(cfg, name, nlen) : NULL;
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
		set_err(err, file, 0, 0, 0, "empty configuration name");
		return -1;
	}
	for (size_t i = 0; i < nlen; i++)
		if (!is_name_char((unsigned char)name[i])) {
			set_err(err, file, 0, 0, 0, "bad configuration name '%s'", name);
			return -1;
		}
	struct seg sg = { 0, 1, 1 };
	return define(cfg, name, nlen, value, vlen, file, 1, 1, &sg, 1, err);
}

/* ---- lookups ---- */

bool
ca_config_defined(const ca_config *cfg, const char *name)
{
	return lookup(cfg, name, strlen(name)) != NULL;
}

const char *
ca_config_raw(const ca_config *cfg, const char *name)
{
	const struct entry *e = lookup(cfg, name, strlen(name));

	return e ? e->value : NULL;
}

bool
ca_config_locate(const ca_config *cfg, const char *name, ca_diag *err)
{
	const struct entry *e = lookup(cfg, name, strlen(name));

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
	return cfg->n;
}

const char *
ca_config_name_at(const ca_config *cfg, size_t i)
{
	return i < cfg->n ? cfg->ents[i].spell : NULL;
}

int
ca_config_string(ca_config *cfg, const char *name, strbuf *out, ca_diag *err)
{
	struct entry *e = lookup(cfg, name, strlen(name));

	if (e == NULL)
		return 0;
	return expand_value(cfg, e, out, err) < 0 ? -1 : 1;
}

/* The expanded, trimmed value of name in sb; *vp and *np point into it.
 * 1 defined and not empty, 0 otherwise, -1 error. */
static int
get_text(ca_config *cfg, const char *name, strbuf *sb, struct entry **ep, const char **vp,
    size_t *np, ca_diag *err)
{
	struct entry *e = lookup(cfg, name, strlen(name));

	if (e == NULL)
		return 0;
	if (expand_value(cfg, e, sb, err) < 0)
		return -1;
	*vp = sb->buf;
	*np = sb->len;
	trim(vp, np);
	*ep = e;
	return *np > 0;
}

/* Report a syntax error of the expression parsed from e's expansion text. */
static void
parse_err(const struct entry *e, const char *text, size_t len, const ca_diag *perr,
    ca_diag *err)
{
	if (len == e->len && memcmp(text, e->value, len) == 0) {
		entry_err(err, e, perr->pos, "%s: %s", e->spell, perr->msg);
		return;
	}
	entry_err(err, e, 0, "%s: %s in its expansion \"%.*s%s\"", e->spell, perr->msg,
	    (int)(len > 60 ? 60 : len), text, len > 60 ? "..." : "");
}

/* The value of name evaluated with no ad. */
static int
get_value(ca_config *cfg, const char *name, ca_value *out, strbuf *sb, struct entry **ep,
    ca_diag *err)
{
	const char *v;
	size_t n;
	int rc = get_text(cfg, name, sb, ep, &v, &n, err);

	if (rc <= 0)
		return rc;
	ca_arena a = { 0 };
	ca_diag perr;
	ca_expr *x = ca_parse_expr(&a, sb->buf, sb->len, 0, &perr);
	if (x == NULL) {
		parse_err(*ep, sb->buf, sb->len, &perr, err);
		ca_arena_free(&a);
		return -1;
	}
	ca_ctx *cx = ctx(cfg);
	*out = ca_eval_expr(cx, x, NULL, NULL);
	/* keep only what the callers read: numbers and booleans */
	ca_arena_free(&a);
	if (out->kind != CA_INT && out->kind != CA_REAL && out->kind != CA_BOOL)
		out->kind = CA_ERROR;
	ca_arena_reset(&cx->scratch);
	return 1;
}

static int
type_err(const struct entry *e, const char *text, size_t len, const char *what,
    ca_diag *err)
{
	entry_err(err, e, 0, "%s: '%.*s%s' is not %s", e->spell, (int)(len > 60 ? 60 : len), text,
	    len > 60 ? "..." : "", what);
	return -1;
}

int
ca_config_int(ca_config *cfg, const char *name, int64_t *out, ca_diag *err)
{
	strbuf sb = STRBUF_INIT;
	struct entry *e = NULL;
	ca_value v;
	int rc = get_value(cfg, name, &v, &sb, &e, err);

	if (rc == 1) {
		if (v.kind == CA_INT)
			*out = v.u.i;
		else if (v.kind == CA_REAL && v.u.r >= -9.2e18 && v.u.r <= 9.2e18 &&
		    v.u.r == (double)(int64_t)v.u.r)
			*out = (int64_t)v.u.r;
		else
			rc = type_err(e, sb.buf, sb.len, "an integer", err);
	}
	strbuf_release(&sb);
	return rc;
}

int
ca_config_real(ca_config *cfg, const char *name, double *out, ca_diag *err)
{
	strbuf sb = STRBUF_INIT;
	struct entry *e = NULL;
	ca_value v;
	int rc = get_value(cfg, name, &v, &sb, &e, err);

	if (rc == 1) {
		if (v.kind == CA_INT)
			*out = (double)v.u.i;
		else if (v.kind == CA_REAL)
			*out = v.u.r;
		else
			rc = type_err(e, sb.buf, sb.len, "a number", err);
	}
	strbuf_release(&sb);
	return rc;
}

int
ca_config_bool(ca_config *cfg, const char *name, bool *out, ca_diag *err)
{
	strbuf sb = STRBUF_INIT;
	struct entry *e = NULL;
	const char *t;
	size_t n;
	int rc = get_text(cfg, name, &sb, &e, &t, &n, err);

	if (rc == 1) {
		if (ci_equal(t, n, "true") || ci_equal(t, n, "yes"))
			*out = true;
		else if (ci_equal(t, n, "false") || ci_equal(t, n, "no"))
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
	struct entry *e = NULL;
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
