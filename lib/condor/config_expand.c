/* config_expand.c - macro expansion of configuration values: $(NAME),
 * $(NAME:default), HTCondor's macro functions and template arguments. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "config_priv.h"
#include "classad.h"

/*
 * A value is expanded when it is looked up: each reference is replaced by
 * what it stands for, and that text is expanded in turn (HTCondor rescans
 * what it substitutes; here the substituted text is expanded where it came
 * from, so that an error points into the definition that has it). Macro
 * functions take their arguments as HTCondor does: a name is looked up, and
 * text that names nothing is used as it is. Their bodies may hold
 * parentheses and macros (HTCondor's end at the first ')').
 *
 * Every walk is bounded: macros inside macros (CFG_MAX_EXPAND_DEPTH), the
 * size of one value (CFG_MAX_EXPANSION) and the bytes made while looking up
 * one value (CFG_MAX_WORK), so that no configuration expands without end.
 */

enum ref_kind {
	REF_LITERAL,		/* a '$' that starts nothing */
	REF_VERBATIM,		/* $$ or $$(...): kept for match time */
	REF_MACRO,		/* $(NAME) or $(NAME:default) */
	REF_FUNC,		/* $WORD(...), a macro function */
	REF_UNBALANCED,		/* $( or $WORD( without its ')' */
	REF_BADNAME		/* $( ) or $(a b) */
};

enum fn {
	FN_NONE, FN_ENV, FN_RANDOM_CHOICE, FN_RANDOM_INTEGER, FN_CHOICE, FN_SUBSTR, FN_INT,
	FN_REAL, FN_STRING, FN_EVAL, FN_BASENAME, FN_DIRNAME, FN_FILE
};

static const struct {
	const char *name;
	enum fn fn;
} functions[] = {
	{ "ENV", FN_ENV }, { "RANDOM_CHOICE", FN_RANDOM_CHOICE },
	{ "RANDOM_INTEGER", FN_RANDOM_INTEGER }, { "CHOICE", FN_CHOICE },
	{ "SUBSTR", FN_SUBSTR }, { "INT", FN_INT }, { "REAL", FN_REAL },
	{ "STRING", FN_STRING }, { "EVAL", FN_EVAL }, { "BASENAME", FN_BASENAME },
	{ "DIRNAME", FN_DIRNAME },
};

typedef ca_vec(size_t) offsets;

struct mref {
	enum ref_kind kind;
	enum fn fn;
	size_t end;		/* offset just past the reference */
	size_t name, nlen;	/* NAME, $ENV's variable, or a function's body */
	size_t dflt, dlen;	/* the default after ':' */
	bool has_dflt;
	size_t word, wlen;	/* the function's name, after the '$' */
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

/* The function named w (case matters, as in HTCondor), or FN_NONE. */
static enum fn
function_of(const char *w, size_t n)
{
	for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
		if (strlen(functions[i].name) == n && memcmp(functions[i].name, w, n) == 0)
			return functions[i].fn;
	/* $F followed by any of the letters of the file name parts */
	if (n >= 1 && w[0] == 'F') {
		for (size_t i = 1; i < n; i++)
			if (strchr("pnxdqabfwu", cfg_lower((unsigned char)w[i])) == NULL)
				return FN_NONE;
		return FN_FILE;
	}
	return FN_NONE;
}

/* Split t[from..to) at its first ':' into name and default. */
static void
split_default(const char *t, size_t from, size_t to, struct mref *m)
{
	size_t j = from;

	m->name = from;
	while (j < to && t[j] != ':')
		j++;
	m->nlen = j - from;
	if (j < to) {
		m->has_dflt = true;
		m->dflt = j + 1;
		m->dlen = to - j - 1;
	}
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
		split_default(t, k + 2, c, m);
		m->kind = m->nlen == 0 ? REF_BADNAME : REF_MACRO;
		for (size_t i = m->name; i < m->name + m->nlen; i++)
			if (!cfg_is_name_char((unsigned char)t[i]))
				m->kind = REF_BADNAME;
		return;
	}
	size_t j = k + 1;
	while (j < len && cfg_is_alnum((unsigned char)t[j]))
		j++;
	if (j == k + 1 || j >= len || t[j] != '(')
		return;
	enum fn f = function_of(t + k + 1, j - k - 1);
	if (f == FN_NONE)
		return;		/* $word(...) that is no function: text, as in HTCondor */
	size_t c = closing(t, len, j);
	if (c == 0) {
		m->kind = REF_UNBALANCED;
		return;
	}
	m->kind = REF_FUNC;
	m->fn = f;
	m->end = c + 1;
	m->word = k + 1;
	m->wlen = j - k - 1;
	if (f == FN_ENV)
		split_default(t, j + 1, c, m);
	else {
		m->name = j + 1;
		m->nlen = c - j - 1;
	}
}

/* Syntax check of a value as it is defined: every $( closed, names valid.
 * Defaults and function bodies are checked too, and nested at most
 * CFG_MAX_EXPAND_DEPTH deep (so that expanding them cannot recurse without
 * end). Returns 0 or -1 with err set. */
static int
check(const struct cfg_entry *e, const char *t, size_t len, size_t base, int depth,
    ca_diag *err)
{
	struct mref m;

	if (depth >= CFG_MAX_EXPAND_DEPTH) {
		cfg_entry_err(err, e, base, "macro defaults nested more than %d deep",
		    CFG_MAX_EXPAND_DEPTH);
		return -1;
	}
	for (size_t i = 0; i < len;) {
		const char *d = memchr(t + i, '$', len - i);
		if (d == NULL)
			break;
		size_t k = (size_t)(d - t);
		scan_ref(t, len, k, &m);
		if (m.kind == REF_UNBALANCED) {
			cfg_entry_err(err, e, base + k, "unbalanced '$(': no ')' closes it");
			return -1;
		}
		if (m.kind == REF_BADNAME) {
			cfg_entry_err(err, e, base + k, "bad macro name '%.*s'", (int)m.nlen,
			    t + m.name);
			return -1;
		}
		if (m.has_dflt &&
		    check(e, t + m.dflt, m.dlen, base + m.dflt, depth + 1, err) < 0)
			return -1;
		if (m.kind == REF_FUNC && m.fn != FN_ENV &&
		    check(e, t + m.name, m.nlen, base + m.name, depth + 1, err) < 0)
			return -1;
		i = m.end;
	}
	return 0;
}

int
cfg_check_refs(const struct cfg_entry *e, const char *t, size_t len, ca_diag *err)
{
	return check(e, t, len, 0, 0, err);
}

/* ---- self-reference ---- */

/* Is t[0..n) the name being defined, or that name without the SUBSYS. or
 * LOCALNAME. prefix it was given (HTCondor's "self" and "selfless")? */
static bool
is_self(ca_config *cfg, const char *name, size_t nlen, const char *t, size_t n)
{
	const char *prefixes[2] = { cfg->localname, cfg->subsys };

	if (n == nlen && strncasecmp(t, name, n) == 0)
		return true;
	for (int k = 0; k < 2; k++) {
		size_t pl = prefixes[k] ? strlen(prefixes[k]) : 0;
		if (pl == 0 || nlen <= pl + 1 || name[pl] != '.' ||
		    strncasecmp(name, prefixes[k], pl) != 0)
			continue;
		return n == nlen - pl - 1 && strncasecmp(t, name + pl + 1, n) == 0;
	}
	return false;
}

/* value with every $(NAME) / $(NAME:default) of the name being defined
 * replaced by what NAME looks up now (its previous raw value, or the
 * built-in default), or by the default when that is empty, as HTCondor does
 * when it reads the line. Returns 1 when something was replaced, 0 when
 * not, -1 when the result would be longer than CFG_MAX_EXPANSION ("A =
 * $(A)$(A)" doubles each time). */
int
cfg_subst_self(ca_config *cfg, const char *name, size_t nlen, const char *t, size_t len,
    strbuf *out)
{
	struct mref m;
	int any = 0;
	size_t i = 0;

	while (i < len) {
		const char *d = memchr(t + i, '$', len - i);
		if (d == NULL)
			break;
		size_t k = (size_t)(d - t);
		scan_ref(t, len, k, &m);
		if (m.kind == REF_MACRO && is_self(cfg, name, nlen, t + m.name, m.nlen)) {
			const struct cfg_entry *prev = cfg_lookup(cfg, t + m.name, m.nlen);
			const char *pv = prev && prev->len ? prev->value : NULL;
			size_t plen = pv ? prev->len : m.has_dflt ? m.dlen : 0;
			if (out->len + (k - i) + plen > CFG_MAX_EXPANSION)
				return -1;
			strbuf_add(out, t + i, k - i);
			if (pv != NULL)
				strbuf_add(out, pv, plen);
			else if (m.has_dflt)
				strbuf_add(out, t + m.dflt, m.dlen);
			any = 1;
			i = m.end;
			continue;
		}
		strbuf_add(out, t + i, m.end - i);
		i = m.end;
	}
	strbuf_add(out, t + i, len - i);
	return any;
}

/* ---- expansion ---- */

#define X_PIN		0x1	/* every error at the reference (substituted text) */
#define X_LENIENT	0x2	/* a broken '$(' is text, as HTCondor leaves it */

struct xp {
	ca_config *cfg;
	ca_diag *err;
	const struct cfg_entry *stack[CFG_MAX_EXPAND_DEPTH];
	int depth;		/* entries being expanded */
	int nest;		/* defaults, arguments and results inside each other */
	size_t work;		/* bytes made so far */
};

static int expand(struct xp *x, strbuf *out, const struct cfg_entry *e, const char *t,
    size_t len, size_t base, int mode);

static int
xerr(struct xp *x, const struct cfg_entry *e, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
xerr(struct xp *x, const struct cfg_entry *e, size_t off, const char *fmt, ...)
{
	char msg[sizeof x->err->msg];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	cfg_entry_err(x->err, e, off, "%s", msg);
	return -1;
}

static int
recursion_err(struct xp *x, const struct cfg_entry *e, size_t off,
    const struct cfg_entry *r)
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
	return xerr(x, e, off, "macro recursion: %s", chain);
}

/* Count bytes copied; false (err set) past the limits. */
static bool
account(struct xp *x, const strbuf *out, size_t made, const struct cfg_entry *e, size_t off)
{
	x->work += made;
	if (out->len > CFG_MAX_EXPANSION) {
		xerr(x, e, off, "macro expansion longer than %zu bytes", CFG_MAX_EXPANSION);
		return false;
	}
	if (x->work > CFG_MAX_WORK) {
		xerr(x, e, off, "macro expansion does more than %zu MiB of work",
		    CFG_MAX_WORK >> 20);
		return false;
	}
	return true;
}

static int
expand_entry(struct xp *x, strbuf *out, const struct cfg_entry *e, size_t off,
    struct cfg_entry *r)
{
	if (r->busy)
		return recursion_err(x, e, off, r);
	if (x->depth >= CFG_MAX_EXPAND_DEPTH)
		return xerr(x, e, off, "macros nested more than %d deep", CFG_MAX_EXPAND_DEPTH);
	r->busy = true;
	x->stack[x->depth++] = r;
	int rc = expand(x, out, r, r->value, r->len, 0, 0);
	x->depth--;
	r->busy = false;
	return rc;
}

/* Expand t[0..len), text inside e's value from base on (a default, a
 * function's argument) or text a reference stands for (mode X_PIN). */
static int
expand_nested(struct xp *x, strbuf *out, const struct cfg_entry *e, const char *t,
    size_t len, size_t base, int mode, const char *what)
{
	if (x->nest >= CFG_MAX_EXPAND_DEPTH)
		return xerr(x, e, base, "%s nested more than %d deep", what,
		    CFG_MAX_EXPAND_DEPTH);
	x->nest++;
	int rc = expand(x, out, e, t, len, base, mode);
	x->nest--;
	return rc;
}

/* ---- the macro functions ---- */

/* One call: where it is, for errors and for the random draws. */
struct call {
	const struct cfg_entry *e;
	const char *t;		/* e's text the call is in */
	size_t base;		/* offset of t in e's value */
	size_t at;		/* offset of the '$' in t */
	int mode;
	const struct mref *m;
};

static size_t
call_off(const struct call *c, size_t off)
{
	return (c->mode & X_PIN) ? c->base : c->base + off;
}

static int
call_err(struct xp *x, const struct call *c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
call_err(struct xp *x, const struct call *c, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return xerr(x, c->e, call_off(c, c->at), "$%.*s(): %s", (int)c->m->wlen,
	    c->t + c->m->word, msg);
}

/* The items of t[0..len) between separators seps, trimmed, the empty ones
 * left out (HTCondor's split): item i is t[at[2i]..at[2i]+at[2i+1]). */
static size_t
split_items(const char *t, size_t len, const char *seps, offsets *at)
{
	size_t n = 0;

	at->n = 0;
	for (size_t i = 0; i < len;) {
		while (i < len && (strchr(seps, t[i]) || cfg_is_blank((unsigned char)t[i]) ||
		    t[i] == '\n'))
			i++;
		size_t s = i, last = i;
		while (i < len && !strchr(seps, t[i])) {
			if (!cfg_is_blank((unsigned char)t[i]) && t[i] != '\n')
				last = i + 1;
			i++;
		}
		if (last > s) {
			*ca_vec_push(at) = s;
			*ca_vec_push(at) = last - s;
			n++;
		}
	}
	return n;
}

/* Item i of t[0..len) separated by ',' (empty ones count, as in HTCondor's
 * $CHOICE), trimmed; false when there is no item i. */
static bool
nth_item(const char *t, size_t len, size_t i, size_t *s, size_t *n)
{
	size_t k = 0, start = 0;

	for (size_t j = 0; j <= len; j++) {
		if (j < len && t[j] != ',')
			continue;
		if (k == i) {
			const char *p = t + start;
			size_t l = j - start;
			cfg_trim(&p, &l);
			*s = (size_t)(p - t);
			*n = l;
			return true;
		}
		k++;
		start = j + 1;
	}
	return false;
}

/* An argument that may name a macro (HTCondor looks it up first, and uses
 * the text itself when nothing has that name), expanded into out. The text
 * is t[s..s+n) of the call. */
static int
arg_value(struct xp *x, const struct call *c, size_t s, size_t n, strbuf *out)
{
	const char *p = c->t + s;
	size_t l = n;

	cfg_trim(&p, &l);
	s = (size_t)(p - c->t);
	struct cfg_entry *r = l ? cfg_lookup(x->cfg, p, l) : NULL;
	if (r != NULL)
		return expand_entry(x, out, c->e, call_off(c, c->at), r);
	return expand_nested(x, out, c->e, p, l, call_off(c, s), c->mode & X_PIN,
	    "macro arguments");
}

/* text as an integer: digits, or an expression that evaluates to a number
 * (a real is cut toward zero, as HTCondor's EvalInteger does) or boolean. */
static bool
to_int(struct xp *x, const char *text, size_t len, int64_t *out)
{
	const char *p = text;
	size_t n = len;
	char buf[32];

	cfg_trim(&p, &n);
	if (n > 0 && n < sizeof buf) {
		char *end;
		memcpy(buf, p, n);
		buf[n] = '\0';
		errno = 0;
		long long v = strtoll(buf, &end, 10);
		if (*end == '\0' && errno == 0) {
			*out = v;
			return true;
		}
	}
	ca_value v;
	if (n == 0 || !cfg_eval(x->cfg, p, n, &v, NULL))
		return false;
	if (v.kind == CA_INT)
		*out = v.u.i;
	else if (v.kind == CA_BOOL)
		*out = v.u.b;
	else if (v.kind == CA_REAL && v.u.r > -9.2e18 && v.u.r < 9.2e18)
		*out = (int64_t)v.u.r;
	else
		return false;
	return true;
}

static bool
to_real(struct xp *x, const char *text, size_t len, double *out)
{
	const char *p = text;
	size_t n = len;
	ca_value v;

	cfg_trim(&p, &n);
	if (n == 0 || !cfg_eval(x->cfg, p, n, &v, NULL))
		return false;
	if (v.kind == CA_INT)
		*out = (double)v.u.i;
	else if (v.kind == CA_BOOL)
		*out = v.u.b;
	else if (v.kind == CA_REAL)
		*out = v.u.r;
	else
		return false;
	return true;
}

/* A printf format with one conversion of kind 'd' (integers), 'f' (reals)
 * or 's', rebuilt into fmt (with the length modifier the value needs), or
 * false when it is not one. Width and precision are kept below 1000, so
 * that the text stays small. */
static bool
safe_format(const char *f, size_t n, int kind, char *fmt, size_t cap)
{
	static const char *const convs[] = { ['d'] = "diouxX", ['f'] = "eEfFgGaA", ['s'] = "s" };
	size_t o = 0;
	int nconv = 0;

	for (size_t i = 0; i < n; i++) {
		if (o + 16 >= cap)
			return false;
		if (f[i] != '%') {
			fmt[o++] = f[i];
			continue;
		}
		if (i + 1 < n && f[i + 1] == '%') {
			fmt[o++] = '%';
			fmt[o++] = '%';
			i++;
			continue;
		}
		if (nconv++ > 0)
			return false;
		fmt[o++] = f[i++];
		while (i < n && strchr("-+ #0", f[i]))
			fmt[o++] = f[i++];
		for (int part = 0; part < 2; part++) {
			if (part == 1) {
				if (i >= n || f[i] != '.')
					break;
				fmt[o++] = f[i++];
			}
			int digits = 0;
			while (i < n && cfg_is_digit((unsigned char)f[i])) {
				if (++digits > 3)
					return false;
				fmt[o++] = f[i++];
			}
		}
		while (i < n && strchr("hlLqjzt", f[i]))
			i++;	/* the length is ours to give */
		if (i >= n || strchr(convs[kind], f[i]) == NULL)
			return false;
		if (kind == 'd') {
			fmt[o++] = 'l';
			fmt[o++] = 'l';
		}
		fmt[o++] = f[i];
	}
	fmt[o] = '\0';
	return nconv == 1;
}

/* A draw for the random functions: the same seed, knob and place give the
 * same number at every lookup. */
static uint64_t
draw(struct xp *x, const struct call *c)
{
	const struct cfg_entry *e = c->e;
	uint64_t z = x->cfg->seed ^ (e->hash ? e->hash :
	    ca_hash_bytes(0, e->spell ? e->spell : "", e->spell ? strlen(e->spell) : 0));

	z ^= (uint64_t)(c->base + c->at + 1) * UINT64_C(0x9e3779b97f4a7c15);
	z += UINT64_C(0x9e3779b97f4a7c15);
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* $RANDOM_CHOICE(a, b, c) or $RANDOM_CHOICE(LIST): one item, chosen. */
static int
fn_random_choice(struct xp *x, const struct call *c, const char *b, size_t bl, strbuf *res)
{
	offsets at = CA_VEC_INIT;
	strbuf list = STRBUF_INIT;
	const char *items = b;
	size_t n = split_items(b, bl, ",", &at);
	int rc = -1;

	if (n == 1) {
		struct cfg_entry *r = cfg_lookup(x->cfg, b + at.at[0], at.at[1]);
		if (r != NULL) {
			if (expand_entry(x, &list, c->e, call_off(c, c->at), r) < 0)
				goto out;
			items = list.buf;
			n = split_items(list.buf, list.len, ", \t\r\n", &at);
		}
	}
	if (n == 0) {
		call_err(x, c, "no list to choose from");
		goto out;
	}
	size_t i = (size_t)(draw(x, c) % n);
	strbuf_add(res, items + at.at[2 * i], at.at[2 * i + 1]);
	rc = 0;
out:
	ca_vec_free(&at);
	strbuf_release(&list);
	return rc;
}

/* $RANDOM_INTEGER(min, max[, step]) */
static int
fn_random_integer(struct xp *x, const struct call *c, const char *b, size_t bl, strbuf *res)
{
	static const char *const what[] = { "min", "max", "step" };
	int64_t v[3] = { 0, 0, 1 };

	for (int k = 0; k < 3; k++) {
		size_t s, n;
		if (!nth_item(b, bl, (size_t)k, &s, &n) || (k == 2 && n == 0)) {
			if (k == 2)
				break;
			return call_err(x, c, "no %s", what[k]);
		}
		strbuf arg = STRBUF_INIT;
		int rc = expand_nested(x, &arg, c->e, b + s, n, call_off(c, c->m->name + s),
		    c->mode & X_PIN, "macro arguments");
		bool ok = rc == 0 && to_int(x, arg.buf, arg.len, &v[k]);
		if (rc == 0 && !ok)
			call_err(x, c, "%s '%s' is not an integer", what[k], arg.buf);
		strbuf_release(&arg);
		if (!ok)
			return -1;
	}
	if (v[2] < 1)
		return call_err(x, c, "step %" PRId64 " is not positive", v[2]);
	if (v[0] > v[1])
		return call_err(x, c, "min %" PRId64 " is greater than max %" PRId64, v[0], v[1]);
	if (v[0] < -((int64_t)1 << 60) || v[1] > ((int64_t)1 << 60))
		return call_err(x, c, "the range is too wide");
	uint64_t count = (uint64_t)(v[1] - v[0]) / (uint64_t)v[2] + 1;
	strbuf_addf(res, "%" PRId64, v[0] + (int64_t)(draw(x, c) % count) * v[2]);
	return 0;
}

/* $CHOICE(index, a, b, c) or $CHOICE(index, LIST) */
static int
fn_choice(struct xp *x, const struct call *c, const char *b, size_t bl, strbuf *res)
{
	strbuf arg = STRBUF_INIT, list = STRBUF_INIT;
	size_t s, n;
	int64_t index = -1;
	int rc = -1;

	size_t comma = 0;
	while (comma < bl && b[comma] != ',')
		comma++;
	if (comma >= bl) {
		call_err(x, c, "no list to choose from");
		goto out;
	}
	if (arg_value(x, c, c->m->name, comma, &arg) < 0)
		goto out;
	if (!to_int(x, arg.buf, arg.len, &index) || index < 0 || index >= INT_MAX) {
		call_err(x, c, "'%s' is not a valid index", arg.buf);
		goto out;
	}
	const char *items = b + comma + 1;
	size_t il = bl - comma - 1;
	if (memchr(items, ',', il) == NULL) {
		const char *p = items;
		size_t l = il;
		cfg_trim(&p, &l);
		struct cfg_entry *r = l ? cfg_lookup(x->cfg, p, l) : NULL;
		if (r == NULL) {
			call_err(x, c, "no list named '%.*s'", (int)l, p);
			goto out;
		}
		if (expand_entry(x, &list, c->e, call_off(c, c->at), r) < 0)
			goto out;
		items = list.buf;
		il = list.len;
	}
	if (!nth_item(items, il, (size_t)index, &s, &n)) {
		call_err(x, c, "index %" PRId64 " is out of range", index);
		goto out;
	}
	strbuf_add(res, items + s, n);
	rc = 0;
out:
	strbuf_release(&arg);
	strbuf_release(&list);
	return rc;
}

/* $SUBSTR(NAME, start[, length]): negative numbers count from the end. */
static int
fn_substr(struct xp *x, const struct call *c, const char *b, size_t bl, strbuf *res)
{
	strbuf arg = STRBUF_INIT, val = STRBUF_INIT;
	int64_t num[2] = { 0, INT_MAX / 2 };
	size_t s, n;
	int rc = -1;

	if (!nth_item(b, bl, 1, &s, &n)) {
		call_err(x, c, "no start index");
		goto out;
	}
	for (int k = 0; k < 2; k++) {
		if (k == 1 && !nth_item(b, bl, 2, &s, &n))
			break;
		strbuf_reset(&arg);
		if (arg_value(x, c, c->m->name + s, n, &arg) < 0)
			goto out;
		if (!to_int(x, arg.buf, arg.len, &num[k]) || num[k] < INT_MIN ||
		    num[k] > INT_MAX) {
			call_err(x, c, "'%s' is not a valid %s", arg.buf, k ? "length" : "start");
			goto out;
		}
	}
	nth_item(b, bl, 0, &s, &n);
	struct cfg_entry *r = n ? cfg_lookup(x->cfg, b + s, n) : NULL;
	if (r != NULL && expand_entry(x, &val, c->e, call_off(c, c->at), r) < 0)
		goto out;
	int64_t cch = (int64_t)val.len, start = num[0], sub = num[1];
	if (start < 0)
		start += cch;
	start = start < 0 ? 0 : start > cch ? cch : start;
	cch -= start;
	if (sub < 0)
		sub += cch;
	sub = sub < 0 ? 0 : sub > cch ? cch : sub;
	strbuf_add(res, val.buf + start, (size_t)sub);
	rc = 0;
out:
	strbuf_release(&arg);
	strbuf_release(&val);
	return rc;
}

/* $INT(NAME[, format]), $REAL(NAME[, format]), $STRING(NAME[, format]):
 * the format is all that follows the first comma. */
static int
fn_format(struct xp *x, const struct call *c, const char *b, size_t bl, strbuf *res)
{
	static const char kinds[] = { [FN_INT] = 'd', [FN_REAL] = 'f', [FN_STRING] = 's' };
	int kind = kinds[c->m->fn];
	size_t comma = 0;
	char fmt[256];
	strbuf arg = STRBUF_INIT, str = STRBUF_INIT;
	int rc = -1;

	while (comma < bl && b[comma] != ',')
		comma++;
	bool has_fmt = comma < bl;
	if (has_fmt && !safe_format(b + comma + 1, bl - comma - 1, kind, fmt, sizeof fmt)) {
		call_err(x, c, "'%.*s' is not a valid format", (int)(bl - comma - 1), b + comma + 1);
		goto out;
	}
	if (arg_value(x, c, c->m->name, comma, &arg) < 0)
		goto out;
	if (kind == 'd') {
		int64_t v;
		if (!to_int(x, arg.buf, arg.len, &v)) {
			call_err(x, c, "'%s' does not evaluate to an integer", arg.buf);
			goto out;
		}
		strbuf_addf(res, has_fmt ? fmt : "%lld", (long long)v);
	} else if (kind == 'f') {
		double v;
		if (!to_real(x, arg.buf, arg.len, &v)) {
			call_err(x, c, "'%s' does not evaluate to a real", arg.buf);
			goto out;
		}
		size_t before = res->len;
		strbuf_addf(res, has_fmt ? fmt : "%.16G", v);
		if (has_fmt && memchr(res->buf + before, '.', res->len - before) == NULL)
			strbuf_adds(res, ".0");
	} else {
		ca_value v;
		const char *text = arg.buf;
		if (arg.len > 0 && cfg_eval(x->cfg, arg.buf, arg.len, &v, &str) &&
		    v.kind == CA_STRING)
			text = str.buf;
		strbuf_addf(res, has_fmt ? fmt : "%s", text);
	}
	rc = 0;
out:
	strbuf_release(&arg);
	strbuf_release(&str);
	return rc;
}

/* $EVAL(NAME or expression): the value, a string without its quotes. */
static int
fn_eval(struct xp *x, const struct call *c, const char *b, size_t bl, strbuf *res)
{
	strbuf arg = STRBUF_INIT;
	ca_value v;

	if (arg_value(x, c, c->m->name, bl, &arg) < 0) {
		strbuf_release(&arg);
		return -1;
	}
	size_t before = res->len;
	if (arg.len == 0 || !cfg_eval(x->cfg, arg.buf, arg.len, &v, res)) {
		res->len = before;
		strbuf_add(res, arg.buf, arg.len);
	}
	strbuf_release(&arg);
	return 0;
}

/* Where the file name starts in p[0..n): after the last '/'. */
static size_t
base_start(const char *p, size_t n)
{
	size_t s = 0;

	for (size_t i = 0; i < n; i++)
		if (p[i] == '/')
			s = i + 1;
	return s;
}

/* $Fpdnxbqauwf(NAME), $BASENAME(NAME[, suffix]), $DIRNAME(NAME): parts of
 * a path, as HTCondor cuts them (p: the directory with its '/', d: the last
 * directory (dd: the last two), n: the file name without its extension,
 * x: the extension with its '.', b: without the '/' or the '.', q: in
 * double quotes, qa: in single quotes, u/w: '/' or '\' throughout; f,
 * the full path, is for submit files and changes nothing here). */
static int
fn_file(struct xp *x, const struct call *c, const char *b, size_t bl, strbuf *res)
{
	int parts = 0, dirs = 0;
	bool quoted = false, bare = false, aquote = false;
	char slash = 0;
	const char *suffix = NULL;
	size_t slen = 0;

	if (c->m->fn == FN_BASENAME) {
		parts = 3;
		const char *comma = memchr(b, ',', bl);
		if (comma != NULL) {
			suffix = comma + 1;
			slen = bl - (size_t)(suffix - b);
			cfg_trim(&suffix, &slen);
			bl = (size_t)(comma - b);
		}
	} else if (c->m->fn == FN_DIRNAME)
		parts = 4;
	else
		for (size_t i = 1; i < c->m->wlen; i++)
			switch (cfg_lower((unsigned char)c->t[c->m->word + i])) {
			case 'x': parts |= 1; break;
			case 'n': parts |= 2; break;
			case 'p': parts |= 4; break;
			case 'd': parts |= 8; dirs++; break;
			case 'a': aquote = true; break;
			case 'b': bare = true; break;
			case 'w': slash = '\\'; break;
			case 'u': slash = '/'; break;
			case 'q': quoted = true; break;
			default: break;
			}

	strbuf val = STRBUF_INIT;
	if (arg_value(x, c, c->m->name, bl, &val) < 0) {
		strbuf_release(&val);
		return -1;
	}
	/* the value without surrounding quotes, then quoted as asked */
	char q = quoted ? (aquote ? '\'' : '"') : 0;
	const char *p = val.buf;
	size_t n = val.len;
	if (n > 1 && p[0] == p[n - 1] && (p[0] == '"' || p[0] == '\'')) {
		p++;
		n -= 2;
	}
	char lead = 0;
	if (n > 0 && (p[0] == '"' || (q && p[0] == q))) {
		lead = p[0];
		p++;
		n--;
	}
	if (n > 0 && lead && p[n - 1] == lead)
		n--;
	char *buf = ca_xmalloc(n + 4);
	size_t o = 0;
	if (q)
		buf[o++] = q;
	memcpy(buf + o, p, n);
	o += n;
	if (q)
		buf[o++] = q;
	buf[o] = '\0';
	if (slash)
		for (size_t i = 0; i < o; i++)
			if (buf[i] == (slash == '/' ? '\\' : '/'))
				buf[i] = slash;

	size_t end = o, nstart = base_start(buf, o), xstart = end;
	for (size_t i = end; i > nstart; i--)
		if (buf[i] == '.') {
			xstart = i;
			break;
		}
	if (suffix != NULL && slen > 0 && end >= nstart + slen &&
	    strncasecmp(suffix, buf + end - slen, slen) == 0) {
		xstart = end - slen;
		parts &= ~1;
	}
	if (nstart == 0 && (parts & 3))
		parts &= ~(4 | 8);
	size_t from = 0;
	switch (parts & 0xF) {
	case 1:
		from = xstart;
		if (bare && xstart < end)
			from++;
		break;
	case 3:
		from = nstart;
		break;
	case 2:
		from = nstart;
		end = xstart;
		break;
	case 0: case 7: case 5:
		break;
	case 4:
		end = nstart;
		if (bare && nstart > 0)
			end = nstart - 1;
		break;
	case 6:
		end = xstart;
		break;
	default:
		if (nstart > 0) {
			/* the last dirs directories and what follows them */
			size_t seps[64], ns = 0;
			for (size_t i = 0; i < o && ns < 64; i++)
				if (buf[i] == '/' || buf[i] == '\\')
					seps[ns++] = i + 1;
			ns = (size_t)dirs < ns ? ns - (size_t)dirs : 0;
			from = ns ? seps[ns - 1] : 0;
			if ((parts & 3) == 2)
				end = xstart;
			else if ((parts & 3) == 0) {
				end = nstart;
				if (bare && nstart > 0)
					end = nstart - 1;
			}
		} else
			from = end = 1;
		break;
	}
	if (from > end)
		from = end;
	if (q) {
		if (buf[from] != q && from > 0)
			buf[--from] = q;
		if (end > 1 && buf[end - 1] == q)
			end--;
		buf[end++] = q;
	}
	strbuf_add(res, buf + from, end - from);
	free(buf);
	strbuf_release(&val);
	return 0;
}

/* $ENV(VAR) or $ENV(VAR:default): an environment variable, else the
 * default, else "UNDEFINED" (as HTCondor). */
static int
fn_env(struct xp *x, const struct call *c, strbuf *res, bool *dflt)
{
	char var[256];
	const char *v = NULL;
	const struct mref *m = c->m;

	*dflt = false;
	if (m->nlen < sizeof var) {
		memcpy(var, c->t + m->name, m->nlen);
		var[m->nlen] = '\0';
		v = getenv(var);
	}
	if (v != NULL)
		strbuf_adds(res, v);
	else if (m->has_dflt)
		*dflt = true;
	else
		strbuf_adds(res, "UNDEFINED");
	(void)x;
	return 0;
}

/* A macro function: its text into out. */
static int
function(struct xp *x, strbuf *out, const struct call *c)
{
	const struct mref *m = c->m;
	const char *b = c->t + m->name;
	size_t bl = m->nlen;
	strbuf res = STRBUF_INIT;
	bool dflt = false;
	int rc;

	switch (m->fn) {
	case FN_ENV: rc = fn_env(x, c, &res, &dflt); break;
	case FN_RANDOM_CHOICE: rc = fn_random_choice(x, c, b, bl, &res); break;
	case FN_RANDOM_INTEGER: rc = fn_random_integer(x, c, b, bl, &res); break;
	case FN_CHOICE: rc = fn_choice(x, c, b, bl, &res); break;
	case FN_SUBSTR: rc = fn_substr(x, c, b, bl, &res); break;
	case FN_INT: case FN_REAL: case FN_STRING: rc = fn_format(x, c, b, bl, &res); break;
	case FN_EVAL: rc = fn_eval(x, c, b, bl, &res); break;
	default: rc = fn_file(x, c, b, bl, &res); break;
	}
	if (rc == 0 && dflt)
		rc = expand_nested(x, out, c->e, c->t + m->dflt, m->dlen, call_off(c, m->dflt),
		    c->mode & X_PIN, "macro defaults");
	else if (rc == 0) {
		/* what a function gives is expanded again, as HTCondor rescans it */
		if (memchr(res.buf, '$', res.len) == NULL) {
			strbuf_add(out, res.buf, res.len);
			x->work += res.len;
		} else
			rc = expand_nested(x, out, c->e, res.buf, res.len, call_off(c, c->at),
			    X_PIN | X_LENIENT, "macro results");
	}
	strbuf_release(&res);
	return rc;
}

/* Append the expansion of t[0..len) to out; t is e's value from offset base
 * on (for locating errors). */
static int
expand(struct xp *x, strbuf *out, const struct cfg_entry *e, const char *t, size_t len,
    size_t base, int mode)
{
	struct mref m;
	size_t i = 0;

	while (i < len) {
		const char *d = memchr(t + i, '$', len - i);
		if (d == NULL)
			break;
		size_t k = (size_t)(d - t);
		size_t off = (mode & X_PIN) ? base : base + k;
		size_t made = k - i;
		strbuf_add(out, t + i, k - i);
		scan_ref(t, len, k, &m);
		if ((mode & X_LENIENT) && (m.kind == REF_UNBALANCED || m.kind == REF_BADNAME))
			m.kind = REF_LITERAL;
		switch (m.kind) {
		case REF_LITERAL:
		case REF_VERBATIM:
			strbuf_add(out, t + k, m.end - k);
			made += m.end - k;
			break;
		case REF_UNBALANCED:
			return xerr(x, e, off, "unbalanced '$(': no ')' closes it");
		case REF_BADNAME:
			return xerr(x, e, off, "bad macro name '%.*s'", (int)m.nlen, t + m.name);
		case REF_FUNC: {
			struct call c = { e, t, base, k, mode, &m };
			if (function(x, out, &c) < 0)
				return -1;
			break;
		}
		case REF_MACRO: {
			/* $(DOLLAR) is always a '$', and one that starts nothing */
			if (!m.has_dflt && cfg_ci_equal(t + m.name, m.nlen, "DOLLAR")) {
				strbuf_addc(out, '$');
				made++;
				break;
			}
			struct cfg_entry *r = cfg_lookup(x->cfg, t + m.name, m.nlen);
			if (r != NULL && r->len > 0) {
				if (expand_entry(x, out, e, off, r) < 0)
					return -1;
			} else if (m.has_dflt) {
				/* HTCondor uses the default for an empty value too */
				if (expand_nested(x, out, e, t + m.dflt, m.dlen,
				    (mode & X_PIN) ? base : base + m.dflt, mode,
				    "macro defaults") < 0)
					return -1;
			}
			/* an undefined macro expands to nothing, as in HTCondor */
			break;
		}
		}
		if (!account(x, out, made, e, off))
			return -1;
		i = m.end;
	}
	strbuf_add(out, t + i, len - i);
	x->work += len - i;
	return 0;
}

int
cfg_expand_entry(ca_config *cfg, struct cfg_entry *e, strbuf *out, ca_diag *err)
{
	struct xp x;

	strbuf_reset(out);
	memset(&x, 0, sizeof x);
	x.cfg = cfg;
	x.err = err;
	x.stack[x.depth++] = e;
	e->busy = true;
	int rc = expand(&x, out, e, e->value, e->len, 0, 0);
	e->busy = false;
	return rc;
}

int
cfg_expand_text(ca_config *cfg, const struct cfg_entry *e, const char *t, size_t len,
    size_t base, strbuf *out, ca_diag *err)
{
	struct xp x;

	strbuf_reset(out);
	memset(&x, 0, sizeof x);
	x.cfg = cfg;
	x.err = err;
	return expand(&x, out, e, t, len, base, 0);
}

/* ---- template arguments ---- */

/* The arguments of `use CATEGORY : NAME(args)`, as HTCondor splits them:
 * at commas, trimmed, the empty ones left out. */
struct margs {
	const char *t;
	size_t len;
	offsets at;		/* start and length of each */
	offsets after;		/* where the scan stood after each (at its ',') */
};

static void
margs_split(struct margs *a, const char *t, size_t len)
{
	a->t = t;
	a->len = len;
	for (size_t i = 0; i < len;) {
		while (i < len && (t[i] == ',' || cfg_is_blank((unsigned char)t[i]) ||
		    t[i] == '\n'))
			i++;
		size_t s = i, last = i;
		while (i < len && t[i] != ',') {
			if (!cfg_is_blank((unsigned char)t[i]) && t[i] != '\n')
				last = i + 1;
			i++;
		}
		if (last > s) {
			*ca_vec_push(&a->at) = s;
			*ca_vec_push(&a->at) = last - s;
			*ca_vec_push(&a->after) = i;
		}
	}
}

static void meta_expand(const char *text, size_t len, const struct margs *a, int depth,
    strbuf *out);

/* One $(N...) reference: text[k..) with the digits at d; end past ')' on
 * success. */
static bool
meta_ref(const char *text, size_t len, size_t k, const struct margs *a, int depth,
    strbuf *out, size_t *endp)
{
	size_t j = k + 2;
	long idx = 0;
	char kind = 0;

	while (j < len && cfg_is_digit((unsigned char)text[j]) && idx < 100)
		idx = idx * 10 + (text[j++] - '0');
	if (j < len && strchr("?#+", text[j]))
		kind = text[j++];
	size_t dflt = 0, dlen = 0;
	bool has_dflt = false;
	if (j < len && text[j] == ':') {
		size_t c = closing(text, len, k + 1);
		if (c == 0)
			return false;
		has_dflt = true;
		dflt = j + 1;
		dlen = c - dflt;
		j = c;
	}
	if (j >= len || text[j] != ')')
		return false;
	*endp = j + 1;

	size_t nargs = a->at.n / 2;
	strbuf v = STRBUF_INIT;
	if (idx <= 0) {
		if (kind == '#' || kind == '+')
			strbuf_addf(&v, "%zu", nargs);
		else
			strbuf_add(&v, a->t, a->len);
	} else if (kind == '#' || kind == '+') {
		/* from argument idx to the end */
		size_t from = 0;
		bool have = true;
		if (idx > 1) {
			have = (size_t)idx - 1 <= nargs;
			if (have)
				from = a->after.at[idx - 2];
		}
		if (have) {
			if (from < a->len && a->t[from] == ',')
				from++;
			strbuf_add(&v, a->t + from, a->len - from);
		}
	} else if ((size_t)idx <= nargs)
		strbuf_add(&v, a->t + a->at.at[2 * (idx - 1)], a->at.at[2 * (idx - 1) + 1]);
	const char *p = v.buf;
	size_t pl = v.len;
	cfg_trim(&p, &pl);
	bool empty = pl == 0;
	if (empty && has_dflt && idx > 0) {
		strbuf d = STRBUF_INIT;
		meta_expand(text + dflt, dlen, a, depth + 1, &d);
		p = d.buf;
		pl = d.len;
		empty = false;
		if (kind == '?')
			strbuf_addc(out, '1');
		else
			strbuf_add(out, p, pl);
		strbuf_release(&d);
	} else if (kind == '?')
		strbuf_addc(out, empty ? '0' : '1');
	else
		strbuf_add(out, p, pl);
	strbuf_release(&v);
	return true;
}

static void
meta_expand(const char *text, size_t len, const struct margs *a, int depth, strbuf *out)
{
	size_t i = 0;

	while (i < len) {
		const char *d = memchr(text + i, '$', len - i);
		if (d == NULL)
			break;
		size_t k = (size_t)(d - text), end;
		strbuf_add(out, text + i, k - i);
		if (k + 1 < len && text[k + 1] == '$') {
			strbuf_add(out, "$$", 2);
			i = k + 2;
			continue;
		}
		if (depth < CFG_MAX_NEST && k + 2 < len && text[k + 1] == '(' &&
		    cfg_is_digit((unsigned char)text[k + 2]) &&
		    meta_ref(text, len, k, a, depth, out, &end)) {
			i = end;
			continue;
		}
		strbuf_addc(out, '$');
		i = k + 1;
	}
	strbuf_add(out, text + i, len - i);
}

void
cfg_meta_args(const char *text, size_t len, const char *args, size_t alen, strbuf *out)
{
	struct margs a = { args ? args : "", args ? alen : 0, CA_VEC_INIT, CA_VEC_INIT };

	margs_split(&a, a.t, a.len);
	meta_expand(text, len, &a, 0, out);
	ca_vec_free(&a.at);
	ca_vec_free(&a.after);
}
