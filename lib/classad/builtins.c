/* builtins.c - the ClassAd builtin functions: HTCondor's core library and its
 * compat additions (string lists, environments, arguments), one static function each. */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <math.h>
#include <pcre2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtins.h"
#include "eval.h"
#include "lexer.h"
#include "parser.h"
#include "print.h"
#include "timeparse.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                            */
/* ------------------------------------------------------------------ */

static inline bool
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static inline bool
is_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static inline int
upper(int c)
{
	return c >= 'a' && c <= 'z' ? c - 32 : c;
}

/* ASCII case-insensitive comparison of two counted byte strings. */
static int
fold_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	size_t n = an < bn ? an : bn;

	for (size_t i = 0; i < n; i++) {
		int d = lower((unsigned char)a[i]) - lower((unsigned char)b[i]);
		if (d)
			return d;
	}
	return an < bn ? -1 : an > bn;
}

static int
byte_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	if (c)
		return c;
	return an < bn ? -1 : an > bn;
}

static inline int
sign(int c)
{
	return c < 0 ? -1 : c > 0;
}

/* v itself when it is an ERROR (keeping its reason), else an ERROR why. */
static ca_value
error_or(ca_value v, const char *why)
{
	return v.kind == CA_ERROR ? v : ca_error(why);
}

/* A string of the scratch arena holding the text of sb; sb is released. */
static ca_value
sb_value(ca_ctx *cx, strbuf *sb)
{
	ca_value v = ca_str_new(&cx->scratch, sb->buf, sb->len);

	strbuf_release(sb);
	return v;
}

static ca_value
empty_str(void)
{
	return ca_str("", 0);
}

/* Outcome of converting a value with string(). */
enum { T_OK, T_UNDEF, T_ERROR };

/* Append the text string() gives for v to sb. */
static int
add_text(strbuf *sb, ca_value v)
{
	switch (v.kind) {
	case CA_UNDEFINED:
		return T_UNDEF;
	case CA_ERROR:
		return T_ERROR;
	case CA_STRING:
		strbuf_add(sb, v.u.s, v.x.len);
		return T_OK;
	default:
		ca_value_to_string(sb, v);
		return T_OK;
	}
}

/* The text string() gives for v (NUL-terminated, in scratch or v's own). */
static int
text_of(ca_ctx *cx, ca_value v, const char **s, size_t *len)
{
	if (v.kind == CA_STRING) {
		*s = v.u.s;
		*len = v.x.len;
		return T_OK;
	}
	strbuf sb = STRBUF_INIT;
	int k = add_text(&sb, v);
	if (k != T_OK) {
		strbuf_release(&sb);
		return k;
	}
	ca_value t = sb_value(cx, &sb);
	if (t.kind != CA_STRING)
		return T_ERROR;
	*s = t.u.s;
	*len = t.x.len;
	return T_OK;
}

/* Double to int64 when it is a number in range (not NaN or infinite). */
static bool
real_to_int(double r, int64_t *out)
{
	if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
		return false;
	*out = (int64_t)r;
	return true;
}

/* Outcome of a numeric conversion. */
enum { N_OK, N_UNDEF, N_BAD };

/* HTCondor's real(): numbers, booleans, times, and strings through strtod
 * (a prefix is enough: "12abc" is 12). */
static int
conv_real(ca_value v, double *out)
{
	char *end;

	switch (v.kind) {
	case CA_UNDEFINED:
		return N_UNDEF;
	case CA_BOOL:
		*out = v.u.b;
		return N_OK;
	case CA_INT:
		*out = (double)v.u.i;
		return N_OK;
	case CA_REAL:
	case CA_RELTIME:
		*out = v.u.r;
		return N_OK;
	case CA_ABSTIME:
		*out = (double)v.u.i;
		return N_OK;
	case CA_STRING:
		*out = ca_strtod(v.u.s, &end);
		return end == v.u.s ? N_BAD : N_OK;
	default:
		return N_BAD;
	}
}

/* HTCondor's int(): as real() then truncated toward zero. NaN, infinities
 * and reals out of the int64 range are not integers (N_BAD). */
static int
conv_int(ca_value v, int64_t *out)
{
	double r;
	int k;

	switch (v.kind) {
	case CA_INT:
	case CA_ABSTIME:
		*out = v.u.i;
		return N_OK;
	case CA_BOOL:
		*out = v.u.b;
		return N_OK;
	default:
		if ((k = conv_real(v, &r)) != N_OK)
			return k;
		return real_to_int(r, out) ? N_OK : N_BAD;
	}
}

/* A list value for n items copied into scratch. */
static ca_value
list_of(ca_ctx *cx, const ca_value *items, size_t n)
{
	if (n > UINT32_MAX)
		return ca_error("list too long");
	ca_value *v = ca_arena_array(&cx->scratch, n, sizeof *v);
	if (n)
		memcpy(v, items, n * sizeof *v);
	return ca_list(v, (uint32_t)n);
}

/* A growable array of values while a list of unknown length is built. */
typedef struct vlist {
	ca_value *v;
	size_t n, cap;
} vlist;

static void
vl_push(vlist *l, ca_value v)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->v = ca_xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = v;
}

static ca_value
vl_done(ca_ctx *cx, vlist *l)
{
	ca_value v = list_of(cx, l->v, l->n);

	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
	return v;
}

static void
vl_free(vlist *l)
{
	free(l->v);
	l->v = NULL;
}

/* An ad value for an ad built in scratch (no enclosing scope). */
static ca_value
ad_value(ca_ctx *cx, const ca_ad *ad)
{
	ca_adval *av = ca_arena_alloc(&cx->scratch, sizeof *av);

	av->ad = ad;
	av->scope = NULL;
	return ca_adv(av);
}

static void
ad_put(ca_ctx *cx, ca_ad *ad, const char *name, ca_value v)
{
	size_t n = strlen(name);

	ca_ad_set(ad, ca_intern(name, n), ca_arena_strndup(&cx->scratch, name, n),
	    ca_expr_lit(&cx->scratch, v));
}

/* The root frame of the chain f belongs to. */
static const ca_frame *
root_of(const ca_frame *f)
{
	while (f->up)
		f = f->up;
	return f;
}

/* Look name up in f and its enclosing scopes; *where is the frame found. */
static ca_attr *
find_in_chain(const ca_frame *f, const ca_name *name, const ca_frame **where)
{
	for (const ca_frame *g = f; g; g = g->up) {
		ca_attr *at = ca_ad_find(g->ad, name);
		if (at) {
			*where = g;
			return at;
		}
	}
	return NULL;
}

/* The attribute an attribute reference (x, MY.x, TARGET.x, .x, e.x)
 * designates, found the way evaluating it would find it, and the frame its
 * expression belongs in (*where; tmp may be used for it). NULL if none. */
static ca_attr *
deref(ca_ctx *cx, const ca_expr *e, const ca_frame *f, ca_frame *tmp, const ca_frame **where)
{
	ca_attr *at;

	if (e->node == CA_N_SELECT) {
		ca_value b = ca_eval(cx, e->u.sel.base, f);
		if (b.kind != CA_AD)
			return NULL;
		ca_adval_frame(b.u.ad, f, tmp);
		return find_in_chain(tmp, e->u.sel.name, where);
	}
	if (e->node != CA_N_ATTR)
		return NULL;
	const ca_name *name = e->u.attr.name;
	const ca_ad *side = NULL, *other = NULL;
	switch (e->op) {
	case CA_SC_NONE:
		if ((at = find_in_chain(f, name, where)) != NULL)
			return at;
		if (cx->strict || f->target == NULL)
			return NULL;
		side = f->target;	/* daemon rule: the other side of the match */
		other = f->my;
		break;
	case CA_SC_ROOT:
		if ((at = ca_ad_find(root_of(f)->ad, name)) != NULL)
			*where = root_of(f);
		return at;
	case CA_SC_MY:
		if (cx->strict && f->target == NULL)
			return NULL;
		side = f->my;
		other = f->target;
		break;
	default:
		if (f->target == NULL)
			return NULL;
		side = f->target;
		other = f->my;
		break;
	}
	if ((at = ca_ad_find(side, name)) == NULL)
		return NULL;
	tmp->ad = side;
	tmp->up = NULL;
	tmp->my = side;
	tmp->target = other;
	*where = tmp;
	return at;
}

/* ------------------------------------------------------------------ */
/* PCRE2                                                              */
/* ------------------------------------------------------------------ */

static pcre2_code *
re_compile(const char *pat, size_t len, uint32_t opts)
{
	int code;
	PCRE2_SIZE where;

	return pcre2_compile((PCRE2_SPTR)pat, len, opts, &code, &where, NULL);
}

/* 1 when re matches somewhere in s, 0 when not, -1 when matching failed
 * (a resource limit). */
static int
re_search(const pcre2_code *re, const char *s, size_t len, uint32_t opts)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);

	if (md == NULL)
		return -1;
	int rc = pcre2_match(re, (PCRE2_SPTR)s, len, 0, opts, md, NULL);
	pcre2_match_data_free(md);
	if (rc >= 0)
		return 1;
	return rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

/* Options of the core functions: i m s x, and f g for substitutions.
 * Only lowercase letters count (HTCondor ignores "I"); others are ignored. */
static uint32_t
core_re_opts(const char *s, size_t n, bool *full, bool *global)
{
	uint32_t o = 0;

	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case 'i': o |= PCRE2_CASELESS; break;
		case 'm': o |= PCRE2_MULTILINE; break;
		case 's': o |= PCRE2_DOTALL; break;
		case 'x': o |= PCRE2_EXTENDED; break;
		case 'f': if (full) *full = true; break;
		case 'g': if (global) *global = true; break;
		default: break;
		}
	}
	return o;
}

/* Options of the compat stringList_regexpMember: letters in either case. */
static uint32_t
compat_re_opts(const char *s, size_t n)
{
	uint32_t o = 0;

	for (size_t i = 0; i < n; i++) {
		switch (lower((unsigned char)s[i])) {
		case 'i': o |= PCRE2_CASELESS; break;
		case 'm': o |= PCRE2_MULTILINE; break;
		case 's': o |= PCRE2_DOTALL; break;
		case 'x': o |= PCRE2_EXTENDED; break;
		default: break;
		}
	}
	return o;
}

/* ------------------------------------------------------------------ */
/* 6.1 Type predicates, control, meta                                 */
/* ------------------------------------------------------------------ */

static ca_value
fn_isundefined(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return ca_bool(argv[0].kind == CA_UNDEFINED);
}

static ca_value
fn_iserror(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return ca_bool(argv[0].kind == CA_ERROR);
}

static ca_value
fn_isstring(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return ca_bool(argv[0].kind == CA_STRING);
}

static ca_value
fn_isinteger(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return ca_bool(argv[0].kind == CA_INT);
}

static ca_value
fn_isreal(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return ca_bool(argv[0].kind == CA_REAL);
}

static ca_value
fn_isboolean(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return ca_bool(argv[0].kind == CA_BOOL);
}

static ca_value
fn_islist(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return ca_bool(argv[0].kind == CA_LIST);
}

static ca_value
fn_isclassad(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return ca_bool(argv[0].kind == CA_AD);
}

static ca_value
fn_isabstime(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return ca_bool(argv[0].kind == CA_ABSTIME);
}

static ca_value
fn_isreltime(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return ca_bool(argv[0].kind == CA_RELTIME);
}

/* ifThenElse(c, a, b): only the chosen branch is evaluated; c UNDEFINED
 * gives UNDEFINED, c not a boolean or number gives ERROR. */
static ca_value
fn_ifthenelse(ca_ctx *cx, const ca_frame *f, ca_expr *const *args, int argc)
{
	ca_value c = ca_eval(cx, args[0], f);

	if (c.kind == CA_UNDEFINED || c.kind == CA_ERROR)
		return c;
	int t = ca_value_truth(c);
	if (t < 0)
		return ca_error("ifThenElse: condition is not a boolean or number");
	return ca_eval(cx, args[t ? 1 : 2], f);
}

/* eval(x): the text string() gives for x, parsed as an expression and
 * evaluated where eval() is. */
static ca_value
fn_eval(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	const char *s;
	size_t n;
	ca_diag pe;

	switch (text_of(cx, argv[0], &s, &n)) {
	case T_UNDEF:
		return ca_error("eval: argument is undefined");
	case T_ERROR:
		return error_or(argv[0], "eval: argument too long");
	default:
		break;
	}
	ca_expr *e = ca_parse_expr(&cx->scratch, s, n, cx->strict ? CA_P_STRICT : 0, &pe);
	if (e == NULL)
		return ca_error("eval: argument is not a valid expression");
	return ca_eval(cx, e, f);
}

/* unparse(attr): the text of the expression of attribute attr of the
 * current ad, not evaluated; "" when it has none. As in HTCondor only a
 * plain name is looked up (MY.x, TARGET.x and a.b give ""). */
static ca_value
fn_unparse(ca_ctx *cx, const ca_frame *f, ca_expr *const *args, int argc)
{
	const ca_expr *a = args[0];

	if (a->node != CA_N_ATTR && a->node != CA_N_SELECT)
		return ca_error("unparse: argument is not an attribute reference");
	if (a->node == CA_N_ATTR && a->op == CA_SC_NONE) {
		ca_attr *at = ca_ad_find(f->ad, a->u.attr.name);
		if (at) {
			strbuf sb = STRBUF_INIT;
			ca_print_expr(&sb, at->expr, 0);
			return sb_value(cx, &sb);
		}
	}
	return empty_str();
}

/* The external references unresolved() collects: full names ("y",
 * "TARGET.Memory") in the order found, and the attributes already walked. */
typedef struct refs {
	struct ref { const char *s; size_t len, seq; } *v;
	size_t n, cap;
	const ca_attr **seen;
	size_t nseen, capseen;
} refs;

static void
refs_add(ca_ctx *cx, refs *r, const char *prefix, size_t plen, const char *name)
{
	size_t nlen = strlen(name);
	char *s = ca_arena_alloc(&cx->scratch, plen + 1 + nlen + 1);
	size_t len = 0;

	if (prefix) {
		memcpy(s, prefix, plen);
		s[plen] = '.';
		len = plen + 1;
	}
	memcpy(s + len, name, nlen + 1);
	len += nlen;
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->v = ca_xreallocarray(r->v, r->cap, sizeof *r->v);
	}
	r->v[r->n].s = s;
	r->v[r->n].len = len;
	r->v[r->n].seq = r->n;
	r->n++;
}

/* Names that resolve without an attribute: self, parent, toplevel, root,
 * and under daemon rules my and CurrentTime (target/other in a match). */
static bool
is_special(const ca_ctx *cx, const ca_frame *f, const ca_name *name)
{
	static const char *const always[] = { "self", "parent", "toplevel", "root" };

	for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
		if (strcmp(name->key, always[i]) == 0)
			return true;
	if ((strcmp(name->key, "target") == 0 || strcmp(name->key, "other") == 0) && f->target)
		return true;
	if (!cx->strict && (strcmp(name->key, "my") == 0 || strcmp(name->key, "currenttime") == 0))
		return true;
	return false;
}

static int collect(ca_ctx *, refs *, const ca_expr *, const ca_frame *, int);

/* Walk the expression of attribute at (in frame g) once. */
static int
visit(ca_ctx *cx, refs *r, const ca_attr *at, const ca_frame *g, int depth)
{
	for (size_t i = 0; i < r->nseen; i++)
		if (r->seen[i] == at)
			return 0;
	if (r->nseen == r->capseen) {
		r->capseen = r->capseen ? r->capseen * 2 : 16;
		r->seen = ca_xreallocarray(r->seen, r->capseen, sizeof *r->seen);
	}
	r->seen[r->nseen++] = at;
	return collect(cx, r, at->expr, g, depth + 1);
}

static const char *
ref_spell(const ca_expr *e)
{
	return e->u.attr.spell ? e->u.attr.spell : e->u.attr.name->spell;
}

static int
collect_ref(ca_ctx *cx, refs *r, const ca_expr *e, const ca_frame *f, int depth)
{
	const ca_name *name = e->u.attr.name;
	const char *spell = ref_spell(e);
	const ca_frame *g;
	ca_attr *at;
	const ca_ad *side, *other;

	switch (e->op) {
	case CA_SC_NONE:
		if ((at = find_in_chain(f, name, &g)) != NULL)
			return visit(cx, r, at, g, depth);
		if (!is_special(cx, f, name))
			refs_add(cx, r, NULL, 0, spell);
		return 0;
	case CA_SC_ROOT:
		g = root_of(f);
		if ((at = ca_ad_find(g->ad, name)) != NULL)
			return visit(cx, r, at, g, depth);
		refs_add(cx, r, NULL, 0, spell);
		return 0;
	case CA_SC_MY:
		side = cx->strict && f->target == NULL ? NULL : f->my;
		other = f->target;
		break;
	default:
		side = f->target;
		other = f->my;
		break;
	}
	if (side == NULL) {
		/* the scope is undefined: the whole reference is external */
		const char *sc = e->u.attr.scope ? e->u.attr.scope :
		    e->op == CA_SC_MY ? "MY" : e->op == CA_SC_OTHER ? "OTHER" : "TARGET";
		refs_add(cx, r, sc, strlen(sc), spell);
		return 0;
	}
	ca_frame sf = { side, NULL, side, other };
	if ((at = ca_ad_find(side, name)) != NULL)
		return visit(cx, r, at, &sf, depth);
	refs_add(cx, r, NULL, 0, spell);
	return 0;
}

/* Collect the external references of e in frame f, HTCondor's way: names
 * found are followed into their expressions, names not found are recorded,
 * a selection from an undefined base is recorded whole. -1: e cannot be
 * analysed (a selection from a value that is not a record, or too deep). */
static int
collect(ca_ctx *cx, refs *r, const ca_expr *e, const ca_frame *f, int depth)
{
	if (e == NULL)
		return 0;
	if (depth + cx->depth > CA_EVAL_MAX_DEPTH)
		return -1;
	switch (e->node) {
	case CA_N_LIT:
		return 0;
	case CA_N_ATTR:
		return collect_ref(cx, r, e, f, depth);
	case CA_N_SELECT: {
		/* the walk so far counts toward the evaluator's depth limit */
		cx->depth += depth;
		ca_value b = ca_eval(cx, e->u.sel.base, f);
		cx->depth -= depth;
		const char *spell = e->u.sel.spell ? e->u.sel.spell : e->u.sel.name->spell;
		if (b.kind == CA_UNDEFINED) {
			strbuf sb = STRBUF_INIT;
			ca_print_expr(&sb, e->u.sel.base, 0);
			refs_add(cx, r, sb.buf, sb.len, spell);
			strbuf_release(&sb);
			return 0;
		}
		if (b.kind != CA_AD)
			return -1;
		ca_frame af;
		const ca_frame *g;
		ca_adval_frame(b.u.ad, f, &af);
		ca_attr *at = find_in_chain(&af, e->u.sel.name, &g);
		if (at)
			return visit(cx, r, at, g, depth);
		refs_add(cx, r, NULL, 0, spell);
		return 0;
	}
	case CA_N_INDEX:
	case CA_N_UNARY:
	case CA_N_BINARY:
	case CA_N_COND:
	case CA_N_ELVIS:
	case CA_N_PAREN:
		if (collect(cx, r, e->u.k.a, f, depth + 1) < 0 ||
		    collect(cx, r, e->u.k.b, f, depth + 1) < 0)
			return -1;
		return collect(cx, r, e->u.k.c, f, depth + 1);
	case CA_N_CALL:
		for (uint32_t i = 0; i < e->u.call.n; i++)
			if (collect(cx, r, e->u.call.args[i], f, depth + 1) < 0)
				return -1;
		return 0;
	case CA_N_LIST:
		for (uint32_t i = 0; i < e->u.list.n; i++)
			if (collect(cx, r, e->u.list.items[i], f, depth + 1) < 0)
				return -1;
		return 0;
	case CA_N_AD:
		/* as HTCondor: names inside a nested record are looked up from
		 * the current ad, not from the record */
		for (uint32_t i = 0; i < e->u.ad->n; i++)
			if (collect(cx, r, e->u.ad->attrs[i].expr, f, depth + 1) < 0)
				return -1;
		return 0;
	}
	return -1;
}

static int
ref_order(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c = fold_cmp(x->s, x->len, y->s, y->len);

	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* unresolved(attr [, regex]): the references of attr's expression that do
 * not resolve in the ad ("target." dropped), sorted case-insensitively and
 * comma-joined; with regex, whether any of them matches it (caseless).
 * UNDEFINED when attr does not exist. */
static ca_value
fn_unresolved(ca_ctx *cx, const ca_frame *f, ca_expr *const *args, int argc)
{
	const ca_expr *a = args[0];
	ca_frame tmp;
	const ca_frame *where = f;

	if (a->node != CA_N_ATTR && a->node != CA_N_SELECT)
		return ca_error("unresolved: argument is not an attribute reference");
	ca_attr *at = deref(cx, a, f, &tmp, &where);
	if (at == NULL)
		return ca_undef();

	pcre2_code *re = NULL;
	if (argc == 2) {
		ca_value p = ca_eval(cx, args[1], f);
		if (p.kind != CA_STRING)
			return error_or(p, "unresolved: pattern is not a string");
		if ((re = re_compile(p.u.s, p.x.len, PCRE2_CASELESS)) == NULL)
			return ca_error("unresolved: invalid regular expression");
	}

	refs r = { 0 };
	/* the attribute itself counts as walked: a self-reference is internal */
	r.seen = ca_xreallocarray(NULL, 16, sizeof *r.seen);
	r.capseen = 16;
	r.seen[r.nseen++] = at;
	int ok = collect(cx, &r, at->expr, where, 0);
	free(r.seen);

	strbuf sb = STRBUF_INIT;
	bool any = false;
	if (ok == 0 && r.n > 0) {
		qsort(r.v, r.n, sizeof *r.v, ref_order);
		for (size_t i = 0; i < r.n; i++) {
			if (i > 0 && fold_cmp(r.v[i].s, r.v[i].len, r.v[i - 1].s, r.v[i - 1].len) == 0)
				continue;
			const char *s = r.v[i].s;
			size_t len = r.v[i].len;
			if (len >= 7 && fold_cmp(s, 7, "target.", 7) == 0) {
				s += 7;
				len -= 7;
			}
			if (re) {
				int m = re_search(re, s, len, PCRE2_NOTEMPTY);
				if (m != 0) {
					any = m > 0;
					if (m < 0)
						ok = -2;
					break;
				}
			} else {
				if (sb.len)
					strbuf_addc(&sb, ',');
				strbuf_add(&sb, s, len);
			}
		}
	}
	free(r.v);
	if (re) {
		pcre2_code_free(re);
		strbuf_release(&sb);
		if (ok == -2)
			return ca_error("unresolved: regular expression matching failed");
		return ca_bool(any);
	}
	return sb_value(cx, &sb);
}

/* debug(x): x (HTCondor also logs the evaluation; the library never prints). */
static ca_value
fn_debug(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return argv[0];
}

/* ------------------------------------------------------------------ */
/* 6.2 Conversion and math                                            */
/* ------------------------------------------------------------------ */

static ca_value
fn_int(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value v = argv[0];
	int64_t i;

	switch (v.kind) {
	case CA_UNDEFINED:
	case CA_ERROR:
	case CA_INT:
		return v;
	case CA_LIST:
	case CA_AD:
		return ca_error("int: argument is a list or record");
	default:
		if (conv_int(v, &i) != N_OK)
			return ca_error(v.kind == CA_STRING ? "int: string is not a number" :
			    "int: not a number or out of the integer range");
		return ca_int(i);
	}
}

static ca_value
fn_real(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value v = argv[0];
	double r;

	switch (v.kind) {
	case CA_UNDEFINED:
	case CA_ERROR:
	case CA_REAL:
		return v;
	case CA_LIST:
	case CA_AD:
		return ca_error("real: argument is a list or record");
	default:
		if (conv_real(v, &r) != N_OK)
			return ca_error("real: string is not a number");
		return ca_real(r);
	}
}

static ca_value
fn_string(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	const char *s;
	size_t n;

	if (argv[0].kind == CA_UNDEFINED || argv[0].kind == CA_ERROR || argv[0].kind == CA_STRING)
		return argv[0];
	if (text_of(cx, argv[0], &s, &n) != T_OK)
		return ca_error("string: text too long");
	return ca_str(s, (uint32_t)n);
}

/* bool(x): numbers and relative times are true when nonzero; strings
 * "true"/"false" in any case, other strings UNDEFINED. */
static ca_value
fn_bool(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value v = argv[0];

	switch (v.kind) {
	case CA_UNDEFINED:
	case CA_ERROR:
	case CA_BOOL:
		return v;
	case CA_INT:
		return ca_bool(v.u.i != 0);
	case CA_REAL:
		return ca_bool(v.u.r != 0.0);
	case CA_RELTIME:
		return ca_bool(fabs(v.u.r) >= 1.0);	/* whole seconds, as HTCondor */
	case CA_STRING:
		if (fold_cmp(v.u.s, v.x.len, "true", 4) == 0)
			return ca_bool(true);
		if (fold_cmp(v.u.s, v.x.len, "false", 5) == 0)
			return ca_bool(false);
		return ca_undef();
	default:
		return ca_error("bool: argument is a time, list or record");
	}
}

/* floor/ceiling/round: integers unchanged, anything else through real()
 * (UNDEFINED is an ERROR), then rounded to an integer. */
static ca_value
round_with(ca_value v, double (*how)(double), const char *why_undef, const char *why_bad,
    const char *why_range)
{
	double r;
	int64_t i;

	if (v.kind == CA_INT)
		return v;
	if (v.kind == CA_ERROR)
		return v;
	switch (conv_real(v, &r)) {
	case N_UNDEF:
		return ca_error(why_undef);
	case N_BAD:
		return ca_error(why_bad);
	default:
		break;
	}
	if (!real_to_int(how(r), &i))
		return ca_error(why_range);
	return ca_int(i);
}

static ca_value
fn_floor(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return round_with(argv[0], floor, "floor: argument is undefined",
	    "floor: argument is not a number", "floor: not a finite number in the integer range");
}

static ca_value
fn_ceiling(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return round_with(argv[0], ceil, "ceiling: argument is undefined",
	    "ceiling: argument is not a number", "ceiling: not a finite number in the integer range");
}

/* round: to nearest, halves to even (HTCondor uses rint: 2.5 is 2). */
static ca_value
fn_round(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return round_with(argv[0], rint, "round: argument is undefined",
	    "round: argument is not a number", "round: not a finite number in the integer range");
}

/* pow(b, e): integers with e >= 0 give the exact integer (ERROR on
 * overflow; HTCondor rounds a double); otherwise the real power. */
static ca_value
fn_pow(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value b = argv[0], e = argv[1];
	double x, y;

	if (b.kind == CA_INT && e.kind == CA_INT && e.u.i >= 0) {
		int64_t r = 1, base = b.u.i;
		uint64_t n = (uint64_t)e.u.i;
		while (n) {
			if ((n & 1) && __builtin_mul_overflow(r, base, &r))
				return ca_error("pow: integer overflow");
			n >>= 1;
			if (n && __builtin_mul_overflow(base, base, &base))
				return ca_error("pow: integer overflow");
		}
		return ca_int(r);
	}
	if (b.kind == CA_ERROR)
		return b;
	if (e.kind == CA_ERROR)
		return e;
	int kb = conv_real(b, &x), ke = conv_real(e, &y);
	if (kb == N_UNDEF || ke == N_UNDEF)
		return ca_error("pow: argument is undefined");
	if (kb != N_OK || ke != N_OK)
		return ca_error("pow: argument is not a number");
	return ca_real(pow(x, y));
}

/* quantize(a, b): the smallest multiple of b not below a (int if a and b
 * are; b == 0 gives a). b a list: the first element >= a, as it is, else
 * a quantized by the last element. */
static ca_value
fn_quantize(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value a = argv[0], b = argv[1], base;
	double ra, rb;

	if (a.kind == CA_ERROR)
		return a;
	switch (conv_real(a, &ra)) {
	case N_UNDEF:
		return ca_error("quantize: value is undefined");
	case N_BAD:
		return ca_error("quantize: value is not a number");
	default:
		break;
	}
	if (b.kind == CA_LIST) {
		base = ca_real(0.0);	/* an empty list: do not quantize */
		rb = 0.0;
		for (uint32_t i = 0; i < b.x.len; i++) {
			base = b.u.items[i];
			if (conv_real(base, &rb) != N_OK)
				return ca_error("quantize: list element is not a number");
			if (rb >= ra)
				return base;
		}
	} else {
		if (b.kind == CA_ERROR)
			return b;
		if (conv_real(b, &rb) != N_OK)
			return ca_error("quantize: quantum is not a number");
		base = b;
	}
	if (base.kind == CA_INT) {
		int64_t q = base.u.i, r, q1;
		if (q == 0)
			return a;
		if (a.kind == CA_INT) {
			if (__builtin_sub_overflow(q, 1, &q1) || __builtin_add_overflow(a.u.i, q1, &r) ||
			    (r == INT64_MIN && q == -1) ||
			    __builtin_mul_overflow(r / q, q, &r))
				return ca_error("quantize: integer overflow");
			return ca_int(r);
		}
		return ca_real(ceil(ra / (double)q) * (double)q);
	}
	if (rb >= -1e-8 && rb <= 1e-8)
		return a;
	return ca_real(ceil(ra / rb) * rb);
}

/* splitmix64 over cx->rng: seeded by the context, so runs can repeat. */
static uint64_t
rng_next(ca_ctx *cx)
{
	uint64_t z = (cx->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* random(): real in [0,1); random(n) int in [0,n); random(r) real in [0,r). */
static ca_value
fn_random(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	if (argc == 0)
		return ca_real((double)(rng_next(cx) >> 11) * 0x1p-53);
	ca_value v = argv[0];
	if (v.kind == CA_INT) {
		if (v.u.i <= 0)
			return ca_error("random: bound is not positive");
		uint64_t n = (uint64_t)v.u.i, lim = UINT64_MAX - UINT64_MAX % n, x;
		do
			x = rng_next(cx);
		while (x >= lim);
		return ca_int((int64_t)(x % n));
	}
	if (v.kind == CA_REAL) {
		if (!(v.u.r > 0) || isinf(v.u.r))
			return ca_error("random: bound is not a positive finite number");
		return ca_real(v.u.r * (double)(rng_next(cx) >> 11) * 0x1p-53);
	}
	if (v.kind == CA_ERROR)
		return v;
	return ca_error("random: bound is not a number");
}

/* ------------------------------------------------------------------ */
/* 6.2 Lists                                                          */
/* ------------------------------------------------------------------ */

static bool
is_number(ca_value v)
{
	return v.kind == CA_INT || v.kind == CA_REAL || v.kind == CA_BOOL;
}

/* sum and avg: UNDEFINED elements skipped; the first number is taken as
 * it is (sum({true}) is true), the others added; the empty sum is 0. */
static ca_value
sum_avg(ca_ctx *cx, ca_value l, bool avg)
{
	if (l.kind == CA_UNDEFINED || l.kind == CA_ERROR)
		return l;
	if (l.kind != CA_LIST)
		return ca_error(avg ? "avg: argument is not a list" : "sum: argument is not a list");
	ca_value r = ca_int(0);
	size_t n = 0;
	for (uint32_t i = 0; i < l.x.len; i++) {
		ca_value v = l.u.items[i];
		if (v.kind == CA_UNDEFINED)
			continue;
		if (!is_number(v))
			return error_or(v, avg ? "avg: list element is not a number" :
			    "sum: list element is not a number");
		r = n++ == 0 ? v : ca_eval_binop(cx, CA_T_PLUS, r, v);
	}
	if (avg && n > 0)
		r = ca_eval_binop(cx, CA_T_SLASH, r, ca_real((double)n));
	return r;
}

static ca_value
fn_sum(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return sum_avg(cx, argv[0], false);
}

static ca_value
fn_avg(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return sum_avg(cx, argv[0], true);
}

/* Promote a and b to the wider of their number kinds (bool < int < real),
 * as HTCondor's comparison does to its operands in place. */
static void
promote(ca_value *a, ca_value *b)
{
	int ka = a->kind == CA_REAL ? 2 : a->kind == CA_INT;
	int kb = b->kind == CA_REAL ? 2 : b->kind == CA_INT;
	int k = ka > kb ? ka : kb;
	ca_value *v[2] = { a, b };

	for (int i = 0; i < 2; i++) {
		if (k == 2 && v[i]->kind == CA_INT)
			*v[i] = ca_real((double)v[i]->u.i);
		else if (k == 2 && v[i]->kind == CA_BOOL)
			*v[i] = ca_real(v[i]->u.b);
		else if (k == 1 && v[i]->kind == CA_BOOL)
			*v[i] = ca_int(v[i]->u.b);
	}
}

/* min and max: UNDEFINED elements skipped, UNDEFINED when nothing is left;
 * compared numbers are promoted, so max({3, 1.5}) is 3.0 as in HTCondor. */
static ca_value
min_max(ca_ctx *cx, ca_value l, bool max)
{
	if (l.kind == CA_UNDEFINED || l.kind == CA_ERROR)
		return l;
	if (l.kind != CA_LIST)
		return ca_error(max ? "max: argument is not a list" : "min: argument is not a list");
	ca_value r = ca_undef();
	bool first = true;
	for (uint32_t i = 0; i < l.x.len; i++) {
		ca_value v = l.u.items[i];
		if (v.kind == CA_UNDEFINED)
			continue;
		if (!is_number(v))
			return error_or(v, max ? "max: list element is not a number" :
			    "min: list element is not a number");
		if (first) {
			r = v;
			first = false;
			continue;
		}
		promote(&v, &r);
		ca_value c = ca_eval_binop(cx, max ? CA_T_GT : CA_T_LT, v, r);
		if (c.kind == CA_BOOL && c.u.b)
			r = v;
	}
	return r;
}

static ca_value
fn_min(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return min_max(cx, argv[0], false);
}

static ca_value
fn_max(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return min_max(cx, argv[0], true);
}

/* member(x, l) with ==, identicalMember(x, l) with =?=: true when some
 * element compares true; elements that give UNDEFINED or ERROR are skipped. */
static ca_value
member_with(ca_ctx *cx, ca_value x, ca_value l, bool identical)
{
	if (l.kind == CA_UNDEFINED || (!identical && x.kind == CA_UNDEFINED))
		return ca_undef();
	if (l.kind != CA_LIST || x.kind == CA_LIST || x.kind == CA_AD) {
		if (l.kind == CA_ERROR)
			return l;
		return ca_error(l.kind != CA_LIST ? "member: second argument is not a list" :
		    "member: first argument is a list or record");
	}
	if (!identical && x.kind == CA_ERROR)
		return x;
	for (uint32_t i = 0; i < l.x.len; i++) {
		ca_value c = ca_eval_binop(cx, identical ? CA_T_META_EQ : CA_T_EQ, l.u.items[i], x);
		if (c.kind == CA_BOOL && c.u.b)
			return ca_bool(true);
	}
	return ca_bool(false);
}

static ca_value
fn_member(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return member_with(cx, argv[0], argv[1], false);
}

static ca_value
fn_identicalmember(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return member_with(cx, argv[0], argv[1], true);
}

/* anyCompare/allCompare(op, l, x): op one of < <= != == > >= is isnt
 * (exactly). Each element is compared as `element op x`; the first
 * comparison giving UNDEFINED ends the scan with false (both functions),
 * ERROR gives ERROR. */
static ca_value
list_compare(ca_ctx *cx, const ca_value *argv, bool all)
{
	static const struct { const char *s; int op; } ops[] = {
		{ "<", CA_T_LT }, { "<=", CA_T_LE }, { "!=", CA_T_NE }, { "==", CA_T_EQ },
		{ ">", CA_T_GT }, { ">=", CA_T_GE }, { "is", CA_T_META_EQ }, { "isnt", CA_T_META_NE },
	};
	ca_value o = argv[0], l = argv[1], x = argv[2];
	int op = -1;

	if (o.kind == CA_UNDEFINED || o.kind == CA_ERROR)
		return o;
	if (o.kind != CA_STRING)
		return ca_error(all ? "allCompare: operator is not a string" :
		    "anyCompare: operator is not a string");
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strcmp(o.u.s, ops[i].s) == 0)
			op = ops[i].op;
	if (op < 0)
		return ca_error(all ? "allCompare: unknown operator" : "anyCompare: unknown operator");
	if (l.kind == CA_UNDEFINED || l.kind == CA_ERROR)
		return l;
	if (l.kind != CA_LIST)
		return ca_error(all ? "allCompare: second argument is not a list" :
		    "anyCompare: second argument is not a list");
	for (uint32_t i = 0; i < l.x.len; i++) {
		ca_value c = ca_eval_binop(cx, op, l.u.items[i], x);
		if (c.kind == CA_UNDEFINED)
			return ca_bool(false);
		if (c.kind != CA_BOOL)
			return error_or(c, "list comparison failed");
		if (c.u.b && !all)
			return ca_bool(true);
		if (!c.u.b && all)
			return ca_bool(false);
	}
	return ca_bool(all);
}

static ca_value
fn_anycompare(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return list_compare(cx, argv, false);
}

static ca_value
fn_allcompare(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return list_compare(cx, argv, true);
}

/* size(x): bytes of a string, elements of a list, attributes of a record. */
static ca_value
fn_size(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value v = argv[0];

	switch (v.kind) {
	case CA_UNDEFINED:
	case CA_ERROR:
		return v;
	case CA_STRING:
	case CA_LIST:
		return ca_int(v.x.len);
	case CA_AD:
		return ca_int(v.u.ad->ad->n);
	default:
		return ca_error("size: argument is not a string, list or record");
	}
}

/* ------------------------------------------------------------------ */
/* 6.3 Strings                                                        */
/* ------------------------------------------------------------------ */

/* strcat(...): string() of each argument, concatenated; the first
 * UNDEFINED or ERROR argument (left to right) is the result. */
static ca_value
fn_strcat(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	strbuf sb = STRBUF_INIT;

	for (int i = 0; i < argc; i++) {
		int k = add_text(&sb, argv[i]);
		if (k != T_OK) {
			strbuf_release(&sb);
			return argv[i];
		}
	}
	return sb_value(cx, &sb);
}

/* join(sep, a, b, ...), join(sep, list), join(list): string() of the items
 * separated by sep; UNDEFINED items are skipped (UNDEFINED only when no
 * item is defined and one was UNDEFINED), an ERROR item gives ERROR. */
static ca_value
fn_join(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	const ca_value *items = argv;
	size_t n = (size_t)argc;
	ca_value *tmp = NULL;

	if (argc >= 1 && argc <= 2 && argv[argc - 1].kind == CA_LIST) {
		ca_value l = argv[argc - 1];
		tmp = ca_arena_array(&cx->scratch, (size_t)l.x.len + 1, sizeof *tmp);
		tmp[0] = argc == 2 ? argv[0] : empty_str();
		if (l.x.len)
			memcpy(tmp + 1, l.u.items, l.x.len * sizeof *tmp);
		items = tmp;
		n = (size_t)l.x.len + 1;
	}

	strbuf sb = STRBUF_INIT;
	const char *sep = "";
	size_t seplen = 0;
	bool undef = false, def = false;
	for (size_t i = 0; i < n; i++) {
		const char *s;
		size_t len;
		int k = text_of(cx, items[i], &s, &len);
		if (k == T_UNDEF) {
			undef = true;
			continue;
		}
		if (k == T_ERROR) {
			strbuf_release(&sb);
			return error_or(items[i], "join: text too long");
		}
		if (i == 0) {
			sep = s;
			seplen = len;
			continue;
		}
		if (sb.len)
			strbuf_add(&sb, sep, seplen);
		strbuf_add(&sb, s, len);
		def = true;
	}
	if (undef && !def) {
		strbuf_release(&sb);
		return ca_undef();
	}
	return sb_value(cx, &sb);
}

static ca_value
change_case(ca_ctx *cx, ca_value v, int (*conv)(int))
{
	const char *s;
	size_t n;

	switch (text_of(cx, v, &s, &n)) {
	case T_UNDEF:
		return ca_undef();
	case T_ERROR:
		return error_or(v, "toUpper/toLower: text too long");
	default:
		break;
	}
	char *d = ca_arena_alloc(&cx->scratch, n + 1);
	for (size_t i = 0; i < n; i++)
		d[i] = (char)conv((unsigned char)s[i]);
	d[n] = '\0';
	return ca_str(d, (uint32_t)n);
}

/* toUpper/toLower: of string() of the argument, ASCII letters only. */
static ca_value
fn_toupper(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return change_case(cx, argv[0], upper);
}

static ca_value
fn_tolower(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return change_case(cx, argv[0], lower);
}

/* substr(s, off [, len]), Perl-like: a negative off counts from the end,
 * a negative len leaves that many bytes off the end, len 0 is "". Any
 * UNDEFINED argument gives UNDEFINED; off and len must be integers. */
static ca_value
fn_substr(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	for (int i = 0; i < argc; i++)
		if (argv[i].kind == CA_UNDEFINED)
			return ca_undef();
	for (int i = 0; i < argc; i++)
		if (argv[i].kind == CA_ERROR)
			return argv[i];
	if (argv[0].kind != CA_STRING)
		return ca_error("substr: first argument is not a string");
	if (argv[1].kind != CA_INT || (argc == 3 && argv[2].kind != CA_INT))
		return ca_error("substr: offset or length is not an integer");
	int64_t alen = argv[0].x.len, off = argv[1].u.i, len = argc == 3 ? argv[2].u.i : 0;
	if (off < 0) {
		off += alen;
		if (off < 0)
			off = 0;
	} else if (off > alen)
		off = alen;
	if (len <= 0) {
		len = alen - off + len;
		if (len < 0)
			len = 0;
	} else if (len > alen - off)
		len = alen - off;
	if (argc == 3 && argv[2].u.i == 0)
		len = 0;
	return ca_str_new(&cx->scratch, argv[0].u.s + off, (size_t)len);
}

/* Both arguments as text for the two-string functions; UNDEFINED if
 * either is. Returns 0, or 1 with *res the value to give back. */
static int
two_texts(ca_ctx *cx, const ca_value *argv, const char *why, const char **a, size_t *an,
    const char **b, size_t *bn, ca_value *res)
{
	if (argv[0].kind == CA_UNDEFINED || argv[1].kind == CA_UNDEFINED) {
		*res = ca_undef();
		return 1;
	}
	for (int i = 0; i < 2; i++)
		if (argv[i].kind == CA_ERROR) {
			*res = argv[i];
			return 1;
		}
	if (text_of(cx, argv[0], a, an) != T_OK || text_of(cx, argv[1], b, bn) != T_OK) {
		*res = ca_error(why);
		return 1;
	}
	return 0;
}

/* strcmp(a, b): -1, 0 or 1 comparing the bytes of string() of a and b. */
static ca_value
fn_strcmp(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	const char *a, *b;
	size_t an, bn;
	ca_value res;

	if (two_texts(cx, argv, "strcmp: text too long", &a, &an, &b, &bn, &res))
		return res;
	return ca_int(sign(byte_cmp(a, an, b, bn)));
}

/* stricmp(a, b): as strcmp ignoring ASCII case. */
static ca_value
fn_stricmp(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	const char *a, *b;
	size_t an, bn;
	ca_value res;

	if (two_texts(cx, argv, "stricmp: text too long", &a, &an, &b, &bn, &res))
		return res;
	return ca_int(sign(fold_cmp(a, an, b, bn)));
}

/* The "natural" order of HTCondor's version functions (that of strverscmp):
 * bytes compare as in strcmp, except where the first difference lies in
 * a run of digits in both strings: then a run with more leading zeros
 * sorts first ("000" < "00" < "01" < "0" < "1"), equal counts of leading
 * zeros compare digit by digit, and without leading zeros the longer
 * number is the bigger. The result is a raw difference, as HTCondor's. */
static int
natural_cmp(const char *a, const char *b)
{
	size_t p = 0;

	while (a[p] && a[p] == b[p])
		p++;
	if (a[p] == b[p])
		return 0;
	size_t start = p;	/* first digit of the run holding the difference */
	while (start > 0 && is_digit(a[start - 1]))
		start--;
	int da = (unsigned char)a[p], db = (unsigned char)b[p];
	if (start == p && (!is_digit(da) || !is_digit(db)))
		return da - db;

	size_t za = 0, zb = 0;	/* leading zeros, a lone final zero excluded */
	while (a[start + za] == '0')
		za++;
	while (b[start + zb] == '0')
		zb++;
	if (za > 0 && !is_digit(a[start + za]))
		za--;
	if (zb > 0 && !is_digit(b[start + zb]))
		zb--;
	if (za != zb)
		return (int)zb - (int)za;
	if (za > 0)
		return da - db;

	size_t la = start, lb = start;
	while (is_digit(a[la]))
		la++;
	while (is_digit(b[lb]))
		lb++;
	if (la != lb)
		return la < lb ? -1 : 1;
	return da - db;
}

/* The natural comparison of string() of argv[0] and argv[1]. */
static int
version_args(ca_ctx *cx, const ca_value *argv, int *r, ca_value *res)
{
	const char *a, *b;
	size_t an, bn;

	if (two_texts(cx, argv, "version comparison: text too long", &a, &an, &b, &bn, res))
		return 1;
	*r = natural_cmp(a, b);
	return 0;
}

/* versioncmp(a, b): the raw natural-order difference (e.g. 31 for "a","B"). */
static ca_value
fn_versioncmp(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value res;
	int r;

	return version_args(cx, argv, &r, &res) ? res : ca_int(r);
}

static ca_value
fn_versionlt(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value res;
	int r;

	return version_args(cx, argv, &r, &res) ? res : ca_bool(r < 0);
}

static ca_value
fn_versionle(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value res;
	int r;

	return version_args(cx, argv, &r, &res) ? res : ca_bool(r <= 0);
}

static ca_value
fn_versiongt(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value res;
	int r;

	return version_args(cx, argv, &r, &res) ? res : ca_bool(r > 0);
}

static ca_value
fn_versionge(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value res;
	int r;

	return version_args(cx, argv, &r, &res) ? res : ca_bool(r >= 0);
}

static ca_value
fn_versioneq(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value res;
	int r;

	return version_args(cx, argv, &r, &res) ? res : ca_bool(r == 0);
}

/* version_in_range(v, lo, hi): lo <= v <= hi in natural order; UNDEFINED
 * when lo or hi is (an UNDEFINED v is an ERROR, as in HTCondor). */
static ca_value
fn_version_in_range(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	const char *s[3];
	size_t n[3];

	if (argv[1].kind == CA_UNDEFINED || argv[2].kind == CA_UNDEFINED)
		return ca_undef();
	for (int i = 0; i < 3; i++) {
		if (argv[i].kind == CA_ERROR)
			return argv[i];
		if (text_of(cx, argv[i], &s[i], &n[i]) != T_OK)
			return ca_error("version_in_range: version is undefined");
	}
	return ca_bool(natural_cmp(s[1], s[0]) <= 0 && natural_cmp(s[0], s[2]) <= 0);
}

/* The argument checks shared by regexp, regexps, replace and replaceAll:
 * any ERROR gives ERROR, then any UNDEFINED UNDEFINED, then options that
 * are not a string, then other arguments that are not strings, ERROR. */
static int
regex_args(const ca_value *argv, int argc, int nstr, const char *why_opts, const char *why_str,
    ca_value *res)
{
	for (int i = 0; i < argc; i++)
		if (argv[i].kind == CA_ERROR) {
			*res = argv[i];
			return 1;
		}
	for (int i = 0; i < argc; i++)
		if (argv[i].kind == CA_UNDEFINED) {
			*res = ca_undef();
			return 1;
		}
	if (argc > nstr && argv[nstr].kind != CA_STRING) {
		*res = ca_error(why_opts);
		return 1;
	}
	for (int i = 0; i < nstr; i++)
		if (argv[i].kind != CA_STRING) {
			*res = ca_error(why_str);
			return 1;
		}
	return 0;
}

/* regexp(pattern, s [, options]): whether the PCRE2 pattern matches
 * somewhere in s. */
static ca_value
fn_regexp(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value res;

	if (regex_args(argv, argc, 2, "regexp: options are not a string",
	    "regexp: pattern or subject is not a string", &res))
		return res;
	uint32_t o = argc == 3 ? core_re_opts(argv[2].u.s, argv[2].x.len, NULL, NULL) : 0;
	pcre2_code *re = re_compile(argv[0].u.s, argv[0].x.len, o);
	if (re == NULL)
		return ca_error("regexp: invalid regular expression");
	int m = re_search(re, argv[1].u.s, argv[1].x.len, 0);
	pcre2_code_free(re);
	if (m < 0)
		return ca_error("regexp: matching failed (resource limit)");
	return ca_bool(m > 0);
}

/* regexpMember(pattern, list [, options]): whether some string element
 * matches; an element neither string nor UNDEFINED (met before a match)
 * is an ERROR; no match but an UNDEFINED element gives UNDEFINED. */
static ca_value
fn_regexpmember(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	for (int i = 0; i < argc; i++)
		if (argv[i].kind == CA_ERROR)
			return argv[i];
	for (int i = 0; i < argc; i++)
		if (argv[i].kind == CA_UNDEFINED)
			return ca_undef();
	if (argc == 3 && argv[2].kind != CA_STRING)
		return ca_error("regexpMember: options are not a string");
	if (argv[0].kind != CA_STRING || argv[1].kind != CA_LIST)
		return ca_error("regexpMember: arguments are not a pattern and a list");
	uint32_t o = argc == 3 ? core_re_opts(argv[2].u.s, argv[2].x.len, NULL, NULL) : 0;
	ca_value l = argv[1], res = ca_bool(false);
	pcre2_code *re = NULL;
	bool undef = false;
	for (uint32_t i = 0; i < l.x.len; i++) {
		ca_value v = l.u.items[i];
		if (v.kind == CA_UNDEFINED) {
			undef = true;
			continue;
		}
		if (v.kind != CA_STRING) {
			res = ca_error("regexpMember: list element is not a string");
			break;
		}
		if (re == NULL && (re = re_compile(argv[0].u.s, argv[0].x.len, o)) == NULL) {
			res = ca_error("regexpMember: invalid regular expression");
			break;
		}
		int m = re_search(re, v.u.s, v.x.len, 0);
		if (m != 0) {
			res = m > 0 ? ca_bool(true) :
			    ca_error("regexpMember: matching failed (resource limit)");
			break;
		}
	}
	if (re)
		pcre2_code_free(re);
	if (res.kind == CA_BOOL && !res.u.b && undef)
		return ca_undef();
	return res;
}

/* Reasons for the ERRORs of one substitution function. */
struct subst_why {
	const char *opts, *str, *pattern, *group, *match;
};

/* Append the replacement text repl for a match (\0..\9 are the groups).
 * Returns -1 when a group number is not below the match's count. */
static int
expand(strbuf *sb, const char *repl, size_t rlen, const char *s, const PCRE2_SIZE *ov, int count)
{
	for (size_t i = 0; i < rlen; i++) {
		if (repl[i] == '\\' && i + 1 < rlen && is_digit(repl[i + 1])) {
			int g = repl[++i] - '0';
			if (g >= count)
				return -1;
			if (ov[2 * g] != PCRE2_UNSET)
				strbuf_add(sb, s + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
		} else
			strbuf_addc(sb, repl[i]);
	}
	return 0;
}

/* regexps and its variants. Without 'f' the result is the replacement
 * text(s) only ("" when nothing matches); with 'f' the subject with the
 * match(es) replaced; 'g' replaces every non-overlapping match. An empty
 * match is followed by a search that does not accept another empty match
 * at the same place (Perl's rule). */
static ca_value
substitute(ca_ctx *cx, const ca_value *argv, int argc, const char *extra,
    const struct subst_why *why)
{
	ca_value res;
	bool full = false, global = false;

	if (regex_args(argv, argc, 3, why->opts, why->str, &res))
		return res;
	uint32_t o = argc == 4 ? core_re_opts(argv[3].u.s, argv[3].x.len, &full, &global) : 0;
	core_re_opts(extra, strlen(extra), &full, &global);
	pcre2_code *re = re_compile(argv[0].u.s, argv[0].x.len, o);
	if (re == NULL)
		return ca_error(why->pattern);
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	if (md == NULL) {
		pcre2_code_free(re);
		return ca_error(why->match);
	}

	const char *s = argv[1].u.s, *repl = argv[2].u.s;
	size_t n = argv[1].x.len, rlen = argv[2].x.len, start = 0, copied = 0;
	uint32_t mo = 0;
	strbuf sb = STRBUF_INIT;
	const char *fail = NULL;
	for (;;) {
		int rc = pcre2_match(re, (PCRE2_SPTR)s, n, start, mo, md, NULL);
		if (rc == PCRE2_ERROR_NOMATCH) {
			if (mo == 0 || start >= n)
				break;
			start++;	/* no non-empty match here after an empty one */
			mo = 0;
			continue;
		}
		if (rc < 0) {
			fail = why->match;
			break;
		}
		const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		if (full)
			strbuf_add(&sb, s + copied, ov[0] - copied);
		if (expand(&sb, repl, rlen, s, ov, rc) < 0) {
			fail = why->group;
			break;
		}
		copied = ov[1];
		if (!global)
			break;
		start = ov[1];
		mo = ov[0] == ov[1] ? PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED : 0;
	}
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	if (fail) {
		strbuf_release(&sb);
		return ca_error(fail);
	}
	if (full)
		strbuf_add(&sb, s + copied, n - copied);
	return sb_value(cx, &sb);
}

static ca_value
fn_regexps(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	static const struct subst_why why = {
		"regexps: options are not a string",
		"regexps: pattern, subject or replacement is not a string",
		"regexps: invalid regular expression",
		"regexps: replacement names a group the match does not have",
		"regexps: matching failed (resource limit)",
	};
	return substitute(cx, argv, argc, "", &why);
}

static ca_value
fn_replace(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	static const struct subst_why why = {
		"replace: options are not a string",
		"replace: pattern, subject or replacement is not a string",
		"replace: invalid regular expression",
		"replace: replacement names a group the match does not have",
		"replace: matching failed (resource limit)",
	};
	return substitute(cx, argv, argc, "f", &why);
}

static ca_value
fn_replaceall(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	static const struct subst_why why = {
		"replaceAll: options are not a string",
		"replaceAll: pattern, subject or replacement is not a string",
		"replaceAll: invalid regular expression",
		"replaceAll: replacement names a group the match does not have",
		"replaceAll: matching failed (resource limit)",
	};
	return substitute(cx, argv, argc, "fg", &why);
}

/* Next token of s[0..n) from *pos: a maximal run of bytes not in delims
 * (the core functions' splitting: no trimming, empty tokens skipped). */
static bool
raw_token(const char *s, size_t n, size_t *pos, const char *delims, size_t dn,
    const char **t, size_t *tl)
{
	size_t p = *pos;

	while (p < n && memchr(delims, s[p], dn))
		p++;
	if (p >= n) {
		*pos = p;
		return false;
	}
	size_t b = p;
	while (p < n && !memchr(delims, s[p], dn))
		p++;
	*t = s + b;
	*tl = p - b;
	*pos = p;
	return true;
}

/* stringListsIntersect(l1, l2 [, delims]): whether a token of l1 is also
 * a token of l2 (case-sensitive; default delimiters " ,"). */
static ca_value
fn_stringlistsintersect(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	for (int i = 0; i < argc; i++)
		if (argv[i].kind == CA_ERROR)
			return argv[i];
	for (int i = 0; i < argc; i++)
		if (argv[i].kind == CA_UNDEFINED)
			return ca_undef();
	for (int i = 0; i < argc; i++)
		if (argv[i].kind != CA_STRING)
			return ca_error("stringListsIntersect: argument is not a string");
	const char *d = " ,";
	size_t dn = 2;
	if (argc == 3 && argv[2].x.len > 0) {
		d = argv[2].u.s;
		dn = argv[2].x.len;
	}
	const char *t1, *t2;
	size_t l1, l2, p1 = 0;
	while (raw_token(argv[0].u.s, argv[0].x.len, &p1, d, dn, &t1, &l1)) {
		size_t p2 = 0;
		while (raw_token(argv[1].u.s, argv[1].x.len, &p2, d, dn, &t2, &l2))
			if (l1 == l2 && memcmp(t1, t2, l1) == 0)
				return ca_bool(true);
	}
	return ca_bool(false);
}

/* ------------------------------------------------------------------ */
/* 6.4 Time                                                           */
/* ------------------------------------------------------------------ */

static bool
local_tm(int64_t secs, struct tm *tm)
{
	time_t t = (time_t)secs;

	return (int64_t)t == secs && localtime_r(&t, tm) != NULL;
}

/* The fields of an absolute time in its own offset. */
static bool
own_tm(int64_t secs, int32_t off, struct tm *tm)
{
	int64_t s;
	time_t t;

	if (__builtin_add_overflow(secs, (int64_t)off, &s))
		return false;
	t = (time_t)s;
	if ((int64_t)t != s || gmtime_r(&t, tm) == NULL)
		return false;
	tm->tm_gmtoff = off;
	if (off != 0)
		tm->tm_zone = "";
	return true;
}

/* An absolute time at secs with the local offset then in force. */
static ca_value
local_abstime(int64_t secs)
{
	int32_t off;

	if (ca_local_offset(secs, &off) < 0)
		return ca_error("time outside the range of the C library");
	return ca_abstime(secs, off);
}

/* time(): the evaluation's clock, seconds since the epoch. */
static ca_value
fn_time(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return ca_int(cx->now);
}

/* currentTime(): now as an absolute time in the local offset. */
static ca_value
fn_currenttime(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return local_abstime(cx->now);
}

/* timeZoneOffset(): the local offset from UTC now, a relative time. */
static ca_value
fn_timezoneoffset(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	int32_t off;

	if (ca_local_offset(cx->now, &off) < 0)
		return ca_error("timeZoneOffset: clock outside the range of the C library");
	return ca_reltime(off);
}

/* dayTime(): seconds since local midnight now, a relative time. */
static ca_value
fn_daytime(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	struct tm tm;

	if (!local_tm(cx->now, &tm))
		return ca_error("dayTime: clock outside the range of the C library");
	return ca_reltime(tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec);
}

/* absTime() is now; absTime(t [, z]): seconds since the epoch (int, real,
 * relative time) with offset z (int, real or relative time) or the local
 * one; an absolute time unchanged. A string that was not a literal (folded
 * by the parser) comes back unchanged, as in HTCondor. */
static ca_value
fn_abstime(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	int64_t secs, z = 0;

	if (argc == 0)
		return local_abstime(cx->now);
	if (argc == 2) {
		ca_value o = argv[1];
		if (o.kind == CA_INT)
			z = o.u.i;
		else if ((o.kind == CA_REAL || o.kind == CA_RELTIME) && real_to_int(o.u.r, &z))
			;
		else
			return error_or(o, "absTime: offset is not a number");
		if (z < -INT32_MAX || z > INT32_MAX)
			return ca_error("absTime: offset out of range");
	}
	ca_value t = argv[0];
	switch (t.kind) {
	case CA_UNDEFINED:
	case CA_ERROR:
	case CA_STRING:
	case CA_ABSTIME:
		return t;
	case CA_INT:
		secs = t.u.i;
		break;
	case CA_REAL:
	case CA_RELTIME:
		if (!real_to_int(t.u.r, &secs))
			return ca_error("absTime: time out of range");
		break;
	default:
		return ca_error("absTime: argument is not a number or time");
	}
	int64_t local;
	if (__builtin_add_overflow(secs, z, &local))
		return ca_error("absTime: time out of range");
	return argc == 2 ? ca_abstime(secs, (int32_t)z) : local_abstime(secs);
}

/* relTime(t): seconds as a relative time (an absolute time gives its
 * seconds since the epoch). A string that was not a literal gives 0, as
 * in HTCondor. */
static ca_value
fn_reltime(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value t = argv[0];

	switch (t.kind) {
	case CA_UNDEFINED:
	case CA_ERROR:
	case CA_RELTIME:
		return t;
	case CA_INT:
		return ca_reltime((double)t.u.i);
	case CA_REAL:
		return ca_reltime(t.u.r);
	case CA_ABSTIME:
		return ca_reltime((double)t.u.i);
	case CA_STRING:
		return ca_reltime(0);
	default:
		return ca_error("relTime: argument is not a number or time");
	}
}

/* The relative-time split: days, hours, minutes and seconds with the sign
 * on the most significant nonzero field. false when r is not a number of
 * seconds in the int64 range. */
static bool
split_rel(double r, int64_t *d, int64_t *h, int64_t *m, double *s)
{
	bool neg = r < 0;
	double a = neg ? -r : r;
	int64_t whole;

	if (!real_to_int(a, &whole))
		return false;
	*d = whole / 86400;
	*h = whole % 86400 / 3600;
	*m = whole % 3600 / 60;
	*s = (double)(whole % 60) + (a - floor(a));
	if (neg) {
		if (*d > 0)
			*d = -*d;
		else if (*h > 0)
			*h = -*h;
		else if (*m > 0)
			*m = -*m;
		else
			*s = -*s;
	}
	return true;
}

enum {
	F_YEAR, F_MONTH, F_DAYOFYEAR, F_DAYOFMONTH, F_DAYOFWEEK,
	F_DAYS, F_HOURS, F_MINUTES, F_SECONDS
};

/* getX(t): a field of an absolute time in local time (its own offset is
 * ignored, as in HTCondor), or of a relative time (C division, so -90
 * seconds is -1 minute and -30 seconds). */
static ca_value
time_field(ca_value t, int which, const char *why)
{
	if (t.kind == CA_ABSTIME) {
		struct tm tm;
		if (!local_tm(t.u.i, &tm))
			return ca_error("time outside the range of the C library");
		switch (which) {
		case F_YEAR: return ca_int((int64_t)tm.tm_year + 1900);
		case F_MONTH: return ca_int(tm.tm_mon + 1);
		case F_DAYOFYEAR: return ca_int(tm.tm_yday);
		case F_DAYOFMONTH: return ca_int(tm.tm_mday);
		case F_DAYOFWEEK: return ca_int(tm.tm_wday);
		case F_HOURS: return ca_int(tm.tm_hour);
		case F_MINUTES: return ca_int(tm.tm_min);
		case F_SECONDS: return ca_int(tm.tm_sec);
		default: return ca_error(why);
		}
	}
	if (t.kind == CA_RELTIME) {
		int64_t s;
		if (!real_to_int(t.u.r, &s))
			return ca_error("relative time out of the integer range");
		switch (which) {
		case F_DAYS: return ca_int(s / 86400);
		case F_HOURS: return ca_int(s % 86400 / 3600);
		case F_MINUTES: return ca_int(s % 3600 / 60);
		case F_SECONDS: return ca_int(s % 60);
		default: return ca_error(why);
		}
	}
	if (t.kind == CA_ERROR)
		return t;
	return ca_error(why);
}

static ca_value
fn_getyear(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return time_field(argv[0], F_YEAR, "getYear: argument is not an absolute time");
}

static ca_value
fn_getmonth(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return time_field(argv[0], F_MONTH, "getMonth: argument is not an absolute time");
}

/* getDayOfYear: 0 for January 1st, as in HTCondor (tm_yday). */
static ca_value
fn_getdayofyear(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return time_field(argv[0], F_DAYOFYEAR, "getDayOfYear: argument is not an absolute time");
}

static ca_value
fn_getdayofmonth(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return time_field(argv[0], F_DAYOFMONTH, "getDayOfMonth: argument is not an absolute time");
}

/* getDayOfWeek: 0 is Sunday. */
static ca_value
fn_getdayofweek(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return time_field(argv[0], F_DAYOFWEEK, "getDayOfWeek: argument is not an absolute time");
}

static ca_value
fn_getdays(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return time_field(argv[0], F_DAYS, "getDays: argument is not a relative time");
}

static ca_value
fn_gethours(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return time_field(argv[0], F_HOURS, "getHours: argument is not a time");
}

static ca_value
fn_getminutes(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return time_field(argv[0], F_MINUTES, "getMinutes: argument is not a time");
}

static ca_value
fn_getseconds(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return time_field(argv[0], F_SECONDS, "getSeconds: argument is not a time");
}

/* The absolute time a number stands for in splitTime/formatTime: its
 * seconds in the local offset. */
static bool
number_time(ca_value t, int64_t *secs)
{
	if (t.kind == CA_INT) {
		*secs = t.u.i;
		return true;
	}
	return t.kind == CA_REAL && real_to_int(t.u.r, secs);
}

/* splitTime(t): a record of the fields of an absolute time (a number is
 * one in local time) or of a relative time; a record is returned as it is. */
static ca_value
fn_splittime(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value t = argv[0];
	int64_t secs;
	int32_t off;
	struct tm tm;

	switch (t.kind) {
	case CA_UNDEFINED:
	case CA_ERROR:
	case CA_AD:
		return t;
	case CA_RELTIME: {
		int64_t d, h, m;
		double s;
		if (!split_rel(t.u.r, &d, &h, &m, &s))
			return ca_error("splitTime: relative time out of the integer range");
		ca_ad *ad = ca_ad_new_in(&cx->scratch);
		ad_put(cx, ad, "Type", ca_str("RelativeTime", 12));
		ad_put(cx, ad, "Days", ca_int(d));
		ad_put(cx, ad, "Hours", ca_int(h));
		ad_put(cx, ad, "Minutes", ca_int(m));
		ad_put(cx, ad, "Seconds", ca_real(s));
		return ad_value(cx, ad);
	}
	case CA_ABSTIME:
		secs = t.u.i;
		off = t.x.off;
		break;
	default:
		if (!number_time(t, &secs))
			return ca_error("splitTime: argument is not a time or number");
		if (ca_local_offset(secs, &off) < 0)
			return ca_error("splitTime: time outside the range of the C library");
		break;
	}
	if (!own_tm(secs, off, &tm))
		return ca_error("splitTime: time outside the range of the C library");
	ca_ad *ad = ca_ad_new_in(&cx->scratch);
	ad_put(cx, ad, "Type", ca_str("AbsoluteTime", 12));
	ad_put(cx, ad, "Year", ca_int((int64_t)tm.tm_year + 1900));
	ad_put(cx, ad, "Month", ca_int(tm.tm_mon + 1));
	ad_put(cx, ad, "Day", ca_int(tm.tm_mday));
	ad_put(cx, ad, "Hours", ca_int(tm.tm_hour));
	ad_put(cx, ad, "Minutes", ca_int(tm.tm_min));
	ad_put(cx, ad, "Seconds", ca_int(tm.tm_sec));
	ad_put(cx, ad, "Offset", ca_int(off));
	return ad_value(cx, ad);
}

/* An integer field of a split-time record (0 when absent or not a number;
 * kept within +-1e9 so that struct tm arithmetic cannot overflow). */
static int
record_field(ca_ctx *cx, const ca_frame *f, const ca_adval *av, const char *name)
{
	const ca_name *nm = ca_intern_find(name, strlen(name));
	ca_attr *at = nm ? ca_ad_find(av->ad, nm) : NULL;
	int64_t i;

	if (at == NULL)
		return 0;
	ca_frame af;
	ca_adval_frame(av, f, &af);
	ca_value v = ca_eval(cx, at->expr, &af);
	if (v.kind == CA_INT)
		i = v.u.i;
	else if (v.kind != CA_REAL || !real_to_int(v.u.r, &i))
		return 0;
	return i < -1000000000 ? -1000000000 : i > 1000000000 ? 1000000000 : (int)i;
}

/* strftime into a string value. No conversion writes more than 128 bytes
 * per byte of its specification, so the buffer is sized from the format
 * and a result of 0 bytes is an empty one. */
static ca_value
format_tm(ca_ctx *cx, const struct tm *tm, const char *fmt)
{
	size_t len = strlen(fmt);

	if (len > (1u << 17))
		return ca_error("formatTime: format too long");
	size_t cap = 256 + 128 * len;
	char *buf = ca_xmalloc(cap);
	size_t n = strftime(buf, cap, fmt, tm);
	ca_value v = ca_str_new(&cx->scratch, buf, n);
	free(buf);
	return v;
}

/* formatTime([t [, fmt]]): strftime of the fields of t (an absolute time
 * in its own offset, a number in local time, or a splitTime record) with
 * fmt, "%c" by default; no arguments: now in local time. */
static ca_value
fn_formattime(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	struct tm tm;
	int64_t secs;

	if (argc == 0) {
		if (!local_tm(cx->now, &tm))
			return ca_error("formatTime: clock outside the range of the C library");
		return format_tm(cx, &tm, "%c");
	}
	ca_value t = argv[0];
	switch (t.kind) {
	case CA_ABSTIME:
		if (!own_tm(t.u.i, t.x.off, &tm))
			return ca_error("formatTime: time outside the range of the C library");
		break;
	case CA_AD: {
		/* a splitTime record: its fields as they are, the weekday and
		 * day of the year computed for that date */
		const ca_adval *av = t.u.ad;
		memset(&tm, 0, sizeof tm);
		tm.tm_year = record_field(cx, f, av, "Year") - 1900;
		tm.tm_mon = record_field(cx, f, av, "Month") - 1;
		tm.tm_mday = record_field(cx, f, av, "Day");
		tm.tm_hour = record_field(cx, f, av, "Hours");
		tm.tm_min = record_field(cx, f, av, "Minutes");
		tm.tm_sec = record_field(cx, f, av, "Seconds");
		struct tm norm = tm;
		norm.tm_hour = norm.tm_min = norm.tm_sec = 0;
		(void)timegm(&norm);
		tm.tm_wday = norm.tm_wday;
		tm.tm_yday = norm.tm_yday;
		tm.tm_zone = "";
		break;
	}
	case CA_RELTIME:
		return ca_error("formatTime: argument is a relative time");
	case CA_ERROR:
		return t;
	default:
		if (!number_time(t, &secs))
			return ca_error("formatTime: argument is not a time or number");
		if (!local_tm(secs, &tm))
			return ca_error("formatTime: time outside the range of the C library");
		break;
	}
	if (argc == 2) {
		if (argv[1].kind != CA_STRING)
			return error_or(argv[1], "formatTime: format is not a string");
		return format_tm(cx, &tm, argv[1].u.s);
	}
	return format_tm(cx, &tm, "%c");
}

/* interval(secs): "[-]d+hh:mm:ss" with the zero leading fields dropped:
 * 67 is "1:07", 1472523 "17+01:02:03", -67 "-1:07". */
static ca_value
fn_interval(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	int64_t t = 0;
	char buf[80];

	if (argv[0].kind == CA_ERROR)
		return argv[0];
	switch (conv_int(argv[0], &t)) {
	case N_UNDEF:
		return ca_error("interval: argument is undefined");
	case N_BAD:
		return ca_error("interval: argument is not a number");
	default:
		break;
	}
	long long days = t / 86400, rest = t % 86400;
	long long h = rest / 3600, m = rest % 3600 / 60, s = rest % 60;
	if (days != 0)
		snprintf(buf, sizeof buf, "%lld+%02lld:%02lld:%02lld", days, llabs(h), llabs(m),
		    llabs(s));
	else if (h != 0)
		snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", h, llabs(m), llabs(s));
	else if (m != 0)
		snprintf(buf, sizeof buf, "%lld:%02lld", m, llabs(s));
	else
		snprintf(buf, sizeof buf, "%lld", s);
	return ca_str_new(&cx->scratch, buf, strlen(buf));
}

/* ------------------------------------------------------------------ */
/* 6.5 Compat: string lists                                           */
/* ------------------------------------------------------------------ */

/* Next token of a string list from *pos (HTCondor's StringTokenIterator):
 * delimiters are a set, white space around tokens is trimmed, empty tokens
 * are skipped. */
static bool
list_token(const char *s, size_t n, size_t *pos, const char *delims, size_t dn,
    const char **t, size_t *tl)
{
	size_t p = *pos;

	while (p < n && (memchr(delims, s[p], dn) || is_space((unsigned char)s[p])))
		p++;
	if (p >= n) {
		*pos = p;
		return false;
	}
	size_t b = p, last = p;
	while (p < n && !memchr(delims, s[p], dn)) {
		if (!is_space((unsigned char)s[p]))
			last = p;
		p++;
	}
	*t = s + b;
	*tl = last + 1 - b;
	*pos = p;
	return true;
}

/* stringListSize(l [, delims]): the number of tokens (default ", "). */
static ca_value
fn_stringlistsize(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	for (int i = 0; i < argc; i++)
		if (argv[i].kind != CA_STRING)
			return argv[i].kind == CA_ERROR ? argv[i] :
			    ca_error("stringListSize: argument is not a string");
	const char *d = argc == 2 ? argv[1].u.s : ", ", *t;
	size_t dn = argc == 2 ? argv[1].x.len : 2, tl, pos = 0;
	int64_t n = 0;
	while (list_token(argv[0].u.s, argv[0].x.len, &pos, d, dn, &t, &tl))
		n++;
	return ca_int(n);
}

enum { SL_SUM, SL_AVG, SL_MIN, SL_MAX };

/* stringListSum/Avg/Min/Max(l [, delims]): each token read as a number
 * (a prefix as sscanf %lf reads it; none is an ERROR). The result is an
 * integer unless a token has a character outside "+-0123456789". Empty:
 * Sum and Avg 0.0, Min and Max UNDEFINED. Min and Max are the true ones
 * (HTCondor starts them from FLT_MAX and FLT_MIN). */
static ca_value
string_list_summary(ca_ctx *cx, const ca_value *argv, int argc, int what, const char *why)
{
	for (int i = 0; i < argc; i++)
		if (argv[i].kind != CA_STRING)
			return error_or(argv[i], why);
	const char *d = argc == 2 ? argv[1].u.s : ", ", *t;
	size_t dn = argc == 2 ? argv[1].x.len : 2, tl, pos = 0;
	double acc = 0;
	int64_t n = 0;
	bool real = false;
	while (list_token(argv[0].u.s, argv[0].x.len, &pos, d, dn, &t, &tl)) {
		char *tok = ca_arena_strndup(&cx->scratch, t, tl), *end;
		double x = ca_strtod(tok, &end);
		if (end == tok)
			return ca_error("string list element is not a number");
		if (strspn(tok, "+-0123456789") != tl)
			real = true;
		if (n++ == 0 || what == SL_SUM || what == SL_AVG)
			acc = n == 1 ? x : acc + x;
		else if (what == SL_MIN ? x < acc : x > acc)
			acc = x;
	}
	if (n == 0)
		return what == SL_SUM || what == SL_AVG ? ca_real(0.0) : ca_undef();
	if (what == SL_AVG)
		acc /= (double)n;
	if (real)
		return ca_real(acc);
	int64_t i;
	if (!real_to_int(acc, &i))
		return ca_error("string list result out of the integer range");
	return ca_int(i);
}

static ca_value
fn_stringlistsum(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return string_list_summary(cx, argv, argc, SL_SUM, "stringListSum: argument is not a string");
}

static ca_value
fn_stringlistavg(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return string_list_summary(cx, argv, argc, SL_AVG, "stringListAvg: argument is not a string");
}

static ca_value
fn_stringlistmin(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return string_list_summary(cx, argv, argc, SL_MIN, "stringListMin: argument is not a string");
}

static ca_value
fn_stringlistmax(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return string_list_summary(cx, argv, argc, SL_MAX, "stringListMax: argument is not a string");
}

/* The arguments of the member and subset functions: strings or
 * UNDEFINED (which reads as ""); UNDEFINED when both lists are. Default
 * delimiters ", \t\r\n". Returns 0, or 1 with *res the result. */
static int
member_args(const ca_value *argv, int argc, const char *why, const char **x, size_t *xn,
    const char **l, size_t *ln, const char **d, size_t *dn, ca_value *res)
{
	for (int i = 0; i < argc; i++)
		if (argv[i].kind != CA_STRING && argv[i].kind != CA_UNDEFINED) {
			*res = error_or(argv[i], why);
			return 1;
		}
	if (argv[0].kind == CA_UNDEFINED && argv[1].kind == CA_UNDEFINED) {
		*res = ca_undef();
		return 1;
	}
	*x = argv[0].kind == CA_STRING ? argv[0].u.s : "";
	*xn = argv[0].kind == CA_STRING ? argv[0].x.len : 0;
	*l = argv[1].kind == CA_STRING ? argv[1].u.s : "";
	*ln = argv[1].kind == CA_STRING ? argv[1].x.len : 0;
	*d = ", \t\r\n";
	*dn = 5;
	if (argc == 3 && argv[2].kind == CA_STRING) {
		*d = argv[2].u.s;
		*dn = argv[2].x.len;
	}
	return 0;
}

typedef int (*cmp_fn)(const char *, size_t, const char *, size_t);

/* Whether x is a token of the list. */
static bool
list_has(const char *l, size_t ln, const char *d, size_t dn, const char *x, size_t xn, cmp_fn cmp)
{
	const char *t;
	size_t tl, pos = 0;

	while (list_token(l, ln, &pos, d, dn, &t, &tl))
		if (cmp(t, tl, x, xn) == 0)
			return true;
	return false;
}

static ca_value
string_list_member(const ca_value *argv, int argc, cmp_fn cmp, const char *why)
{
	const char *x, *l, *d;
	size_t xn, ln, dn;
	ca_value res;

	if (member_args(argv, argc, why, &x, &xn, &l, &ln, &d, &dn, &res))
		return res;
	return ca_bool(list_has(l, ln, d, dn, x, xn, cmp));
}

/* stringListMember(x, l [, delims]): whether x is a token of l. */
static ca_value
fn_stringlistmember(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return string_list_member(argv, argc, byte_cmp, "stringListMember: argument is not a string");
}

/* stringListIMember: the same ignoring ASCII case. */
static ca_value
fn_stringlistimember(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return string_list_member(argv, argc, fold_cmp, "stringListIMember: argument is not a string");
}

/* Every token of the first list in the second; "" is a subset of
 * anything, a first list of only delimiters of nothing (HTCondor). */
static ca_value
string_list_subset(const ca_value *argv, int argc, cmp_fn cmp, const char *why)
{
	const char *x, *l, *d, *t;
	size_t xn, ln, dn, tl, pos = 0;
	ca_value res;
	bool any = false;

	if (member_args(argv, argc, why, &x, &xn, &l, &ln, &d, &dn, &res))
		return res;
	if (xn == 0)
		return ca_bool(true);
	while (list_token(x, xn, &pos, d, dn, &t, &tl)) {
		if (!list_has(l, ln, d, dn, t, tl, cmp))
			return ca_bool(false);
		any = true;
	}
	return ca_bool(any);
}

static ca_value
fn_stringlistsubsetmatch(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return string_list_subset(argv, argc, byte_cmp,
	    "stringListSubsetMatch: argument is not a string");
}

static ca_value
fn_stringlistisubsetmatch(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return string_list_subset(argv, argc, fold_cmp,
	    "stringListISubsetMatch: argument is not a string");
}

/* stringList_regexpMember(pattern, l [, delims [, options]]): whether a
 * token matches (options iImMsSxX); UNDEFINED for a list without tokens. */
static ca_value
fn_stringlist_regexpmember(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	for (int i = 0; i < argc; i++)
		if (argv[i].kind != CA_STRING)
			return argv[i].kind == CA_ERROR ? argv[i] :
			    ca_error("stringList_regexpMember: argument is not a string");
	const char *d = argc >= 3 ? argv[2].u.s : ", ", *t;
	size_t dn = argc >= 3 ? argv[2].x.len : 2, tl, pos = 0;
	uint32_t o = argc == 4 ? compat_re_opts(argv[3].u.s, argv[3].x.len) : 0;
	pcre2_code *re = re_compile(argv[0].u.s, argv[0].x.len, o);
	if (re == NULL)
		return ca_error("stringList_regexpMember: invalid regular expression");
	ca_value res = ca_undef();
	while (list_token(argv[1].u.s, argv[1].x.len, &pos, d, dn, &t, &tl)) {
		int m = re_search(re, t, tl, 0);
		if (m < 0) {
			res = ca_error("stringList_regexpMember: matching failed (resource limit)");
			break;
		}
		res = ca_bool(m > 0);
		if (m > 0)
			break;
	}
	pcre2_code_free(re);
	return res;
}

/* split(s [, seps]): the items of s between separators (default ", \t").
 * Leading and trailing separators are ignored; a run of white space, or
 * of white space and one other separator, separates once; two of the same
 * non-space separator in a row enclose an empty item ("a,,b" has 3). */
static ca_value
fn_split(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	for (int i = 0; i < argc; i++)
		if (argv[i].kind != CA_STRING)
			return error_or(argv[i], "split: argument is not a string");
	const char *s = argv[0].u.s, *seps = argc == 2 ? argv[1].u.s : ", \t";
	size_t n = argv[0].x.len, sn = argc == 2 ? argv[1].x.len : 3, last = 0;
	int prev = -1;	/* the last non-space separator since the last item */
	vlist l = { 0 };

	if (sn > 0) {
		for (size_t i = 0; i < n; i++) {
			if (!memchr(seps, s[i], sn))
				continue;
			if (i > last) {
				vl_push(&l, ca_str_new(&cx->scratch, s + last, i - last));
				prev = -1;
			} else if (!is_space((unsigned char)s[i]) && prev == (unsigned char)s[i])
				vl_push(&l, empty_str());
			if (!is_space((unsigned char)s[i]))
				prev = (unsigned char)s[i];
			last = i + 1;
		}
	}
	if (n > last)
		vl_push(&l, ca_str_new(&cx->scratch, s + last, n - last));
	return vl_done(cx, &l);
}

/* splitUserName("user@domain") and splitSlotName("slot1@host"): the two
 * sides of the first '@'; without one the name is the user (or the host). */
static ca_value
split_at(ca_ctx *cx, ca_value v, bool slot)
{
	ca_value two[2];

	if (v.kind != CA_STRING)
		return error_or(v, slot ? "splitSlotName: argument is not a string" :
		    "splitUserName: argument is not a string");
	const char *at = memchr(v.u.s, '@', v.x.len);
	if (at == NULL) {
		two[0] = slot ? empty_str() : v;
		two[1] = slot ? v : empty_str();
	} else {
		size_t k = (size_t)(at - v.u.s);
		two[0] = ca_str_new(&cx->scratch, v.u.s, k);
		two[1] = ca_str(at + 1, v.x.len - (uint32_t)k - 1);
	}
	return list_of(cx, two, 2);
}

static ca_value
fn_splitusername(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return split_at(cx, argv[0], false);
}

static ca_value
fn_splitslotname(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	return split_at(cx, argv[0], true);
}

/* ------------------------------------------------------------------ */
/* 6.5 Compat: environments and arguments                             */
/* ------------------------------------------------------------------ */

/* Split a V2 ("raw") argument string: white space separates, single quotes
 * quote, '' inside quotes is a quote. false on an unbalanced quote. */
static bool
split_v2(ca_ctx *cx, const char *s, size_t n, vlist *out)
{
	strbuf sb = STRBUF_INIT;
	bool tok = false;

	for (size_t i = 0; i < n;) {
		char c = s[i];
		if (c == '\'') {
			tok = true;
			for (i++;; i++) {
				if (i >= n) {
					strbuf_release(&sb);
					return false;
				}
				if (s[i] == '\'') {
					if (i + 1 < n && s[i + 1] == '\'') {
						strbuf_addc(&sb, '\'');
						i++;
						continue;
					}
					break;
				}
				strbuf_addc(&sb, s[i]);
			}
			i++;	/* the closing quote */
		} else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			i++;
			if (tok) {
				vl_push(out, ca_str_new(&cx->scratch, sb.buf, sb.len));
				strbuf_reset(&sb);
				tok = false;
			}
		} else {
			tok = true;
			strbuf_addc(&sb, c);
			i++;
		}
	}
	if (tok)
		vl_push(out, ca_str_new(&cx->scratch, sb.buf, sb.len));
	strbuf_release(&sb);
	return true;
}

/* Append one argument in V2 syntax: white space and quotes go inside
 * single quotes (a quote doubled), "" is ''. */
static void
join_v2(strbuf *sb, const char *a, size_t n)
{
	if (sb->len)
		strbuf_addc(sb, ' ');
	if (n == 0)
		strbuf_adds(sb, "''");
	for (size_t i = 0; i < n; i++) {
		char c = a[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\'') {
			/* continue the quoted section just closed, if any */
			if (sb->len && sb->buf[sb->len - 1] == '\'')
				sb->buf[--sb->len] = '\0';
			else
				strbuf_addc(sb, '\'');
			if (c == '\'')
				strbuf_addc(sb, '\'');
			strbuf_addc(sb, c);
			strbuf_addc(sb, '\'');
		} else
			strbuf_addc(sb, c);
	}
}

/* The version argument of argsToList/listToArgs: 1 or 2. */
static int
args_version(const ca_value *argv, int argc)
{
	if (argc < 2)
		return 2;
	if (argv[1].kind != CA_INT || (argv[1].u.i != 1 && argv[1].u.i != 2))
		return -1;
	return (int)argv[1].u.i;
}

/* argsToList(s [, version]): the arguments of an HTCondor argument string,
 * V2 (quoted, the default) or V1 (split at white space). */
static ca_value
fn_argstolist(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	int ver = args_version(argv, argc);

	if (ver < 0)
		return argc == 2 && argv[1].kind == CA_ERROR ? argv[1] :
		    ca_error("argsToList: version is not 1 or 2");
	if (argv[0].kind != CA_STRING)
		return error_or(argv[0], "argsToList: argument is not a string");
	const char *s = argv[0].u.s;
	size_t n = argv[0].x.len;
	vlist l = { 0 };
	if (ver == 2) {
		if (!split_v2(cx, s, n, &l)) {
			vl_free(&l);
			return ca_error("argsToList: unbalanced quote");
		}
	} else {
		for (size_t i = 0; i < n;) {
			while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
				i++;
			size_t b = i;
			while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
				i++;
			if (i > b)
				vl_push(&l, ca_str_new(&cx->scratch, s + b, i - b));
		}
	}
	return vl_done(cx, &l);
}

/* listToArgs(l [, version]): an argument string from a list of strings; V1
 * cannot hold an argument with white space (ERROR). */
static ca_value
fn_listtoargs(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	int ver = args_version(argv, argc);

	if (ver < 0)
		return argc == 2 && argv[1].kind == CA_ERROR ? argv[1] :
		    ca_error("listToArgs: version is not 1 or 2");
	if (argv[0].kind != CA_LIST)
		return error_or(argv[0], "listToArgs: argument is not a list");
	ca_value l = argv[0];
	strbuf sb = STRBUF_INIT;
	for (uint32_t i = 0; i < l.x.len; i++) {
		ca_value a = l.u.items[i];
		if (a.kind != CA_STRING) {
			strbuf_release(&sb);
			return ca_error("listToArgs: list element is not a string");
		}
		if (ver == 2) {
			join_v2(&sb, a.u.s, a.x.len);
			continue;
		}
		if (strcspn(a.u.s, " \t\r\n") != a.x.len) {
			strbuf_release(&sb);
			return ca_error("listToArgs: argument with white space in V1 syntax");
		}
		if (sb.len)
			strbuf_addc(&sb, ' ');
		strbuf_add(&sb, a.u.s, a.x.len);
	}
	return sb_value(cx, &sb);
}

/* An environment: NAME=value entries, one per name (later wins). */
typedef struct envvar {
	const char *name, *val;
	size_t nlen, vlen;
	bool noval;	/* an unexpanded $$() entry kept without '=' */
} envvar;

typedef struct env {
	envvar *v;
	size_t n, cap;
} env;

/* Set one "NAME=value" entry; false when it has no name or no '='
 * (except an entry with "$$", kept as it is). */
static bool
env_set(env *e, const char *s, size_t n)
{
	const char *eq = memchr(s, '=', n);
	envvar nv = { 0 };

	if (eq == NULL) {
		bool macro = false;
		for (size_t i = 0; i + 1 < n; i++)
			if (s[i] == '$' && s[i + 1] == '$')
				macro = true;
		if (!macro)
			return false;
		nv.name = s;
		nv.nlen = n;
		nv.noval = true;
	} else {
		if (eq == s)
			return false;
		nv.name = s;
		nv.nlen = (size_t)(eq - s);
		nv.val = eq + 1;
		nv.vlen = n - nv.nlen - 1;
	}
	for (size_t i = 0; i < e->n; i++)
		if (e->v[i].nlen == nv.nlen && memcmp(e->v[i].name, nv.name, nv.nlen) == 0) {
			e->v[i] = nv;
			return true;
		}
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 8;
		e->v = ca_xreallocarray(e->v, e->cap, sizeof *e->v);
	}
	e->v[e->n++] = nv;
	return true;
}

static int
env_order(const void *a, const void *b)
{
	const envvar *x = a, *y = b;

	return byte_cmp(x->name, x->nlen, y->name, y->nlen);
}

/* The environment in V2 syntax, sorted by name; e is freed. */
static ca_value
env_v2(ca_ctx *cx, env *e)
{
	strbuf sb = STRBUF_INIT, one = STRBUF_INIT;

	if (e->n)
		qsort(e->v, e->n, sizeof *e->v, env_order);
	for (size_t i = 0; i < e->n; i++) {
		strbuf_reset(&one);
		strbuf_add(&one, e->v[i].name, e->v[i].nlen);
		if (!e->v[i].noval) {
			strbuf_addc(&one, '=');
			strbuf_add(&one, e->v[i].val, e->v[i].vlen);
		}
		join_v2(&sb, one.buf, one.len);
	}
	strbuf_release(&one);
	free(e->v);
	return sb_value(cx, &sb);
}

/* Merge a V2 environment string into e; false when it does not parse. */
static bool
env_merge_v2(ca_ctx *cx, env *e, const char *s, size_t n)
{
	vlist l = { 0 };

	if (!split_v2(cx, s, n, &l)) {
		vl_free(&l);
		return false;
	}
	for (size_t i = 0; i < l.n; i++)
		if (!env_set(e, l.v[i].u.s, l.v[i].x.len)) {
			vl_free(&l);
			return false;
		}
	vl_free(&l);
	return true;
}

/* envV1ToV2(s): a V1 environment ("A=1;B=2", or another delimiter given
 * as the first character) in V2 syntax; UNDEFINED stays UNDEFINED. */
static ca_value
fn_envv1tov2(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	ca_value v = argv[0];

	if (v.kind == CA_UNDEFINED || v.kind == CA_ERROR)
		return v;
	if (v.kind != CA_STRING)
		return ca_error("envV1ToV2: argument is not a string");
	const char *s = v.u.s;
	size_t n = v.x.len, i = 0;
	char delim = ';';
	if (n > 0 && s[0] == delim)
		i = 1;
	else if (n > 0 && strchr("!#$%&*+,-/:;<>?@^`|~\x1f", s[0])) {
		delim = s[0];
		i = 1;
	}
	env e = { 0 };
	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
			i++;
		size_t b = i;
		while (i < n && s[i] != '\n' && s[i] != delim)
			i++;
		size_t len = i - b;
		if (i < n)
			i++;	/* the delimiter */
		if (len > 0 && !env_set(&e, s + b, len)) {
			free(e.v);
			return ca_error("envV1ToV2: entry without NAME=");
		}
	}
	return env_v2(cx, &e);
}

/* mergeEnvironment(s...): V2 environments merged left to right (later
 * values win), UNDEFINED arguments skipped; the result is V2. */
static ca_value
fn_mergeenvironment(ca_ctx *cx, const ca_frame *f, const ca_value *argv, int argc)
{
	env e = { 0 };

	for (int i = 0; i < argc; i++) {
		ca_value v = argv[i];
		if (v.kind == CA_UNDEFINED)
			continue;
		if (v.kind != CA_STRING || !env_merge_v2(cx, &e, v.u.s, v.x.len)) {
			free(e.v);
			if (v.kind == CA_ERROR)
				return v;
			return ca_error(v.kind != CA_STRING ? "mergeEnvironment: argument is not a string" :
			    "mergeEnvironment: argument is not a V2 environment");
		}
	}
	return env_v2(cx, &e);
}

/* evalInEachContext(expr, ads) / countMatches(expr, ads): expr (when an
 * attribute reference, the expression of that attribute) evaluated with
 * each record of the list as its scope: the list of results / how many
 * are true. UNDEFINED ads give UNDEFINED / 0. */
static ca_value
each_context(ca_ctx *cx, const ca_frame *f, ca_expr *const *args, bool count)
{
	const ca_expr *e = args[0];
	ca_frame tmp;
	const ca_frame *where;

	if (e->node == CA_N_ATTR || e->node == CA_N_SELECT) {
		ca_attr *at = deref(cx, e, f, &tmp, &where);
		if (at)
			e = at->expr;
	}
	ca_value l = ca_eval(cx, args[1], f);
	if (l.kind == CA_UNDEFINED)
		return count ? ca_int(0) : l;
	if (l.kind != CA_LIST)
		return error_or(l, count ? "countMatches: second argument is not a list" :
		    "evalInEachContext: second argument is not a list");
	ca_value *out = count ? NULL : ca_arena_array(&cx->scratch, l.x.len, sizeof *out);
	int64_t n = 0;
	for (uint32_t i = 0; i < l.x.len; i++) {
		ca_value it = l.u.items[i], r;
		if (it.kind == CA_AD) {
			/* the record is the current ad: MY too, as in HTCondor's
			 * daemon rules where MY is the ad being evaluated */
			ca_frame af;
			ca_adval_frame(it.u.ad, f, &af);
			af.my = it.u.ad->ad;
			r = ca_eval(cx, e, &af);
		} else if (it.kind == CA_UNDEFINED)
			r = it;
		else
			r = ca_error("evalInEachContext: list element is not a record");
		if (count)
			n += ca_value_truth(r) == 1;
		else
			out[i] = r;
	}
	return count ? ca_int(n) : ca_list(out, l.x.len);
}

static ca_value
fn_evalineachcontext(ca_ctx *cx, const ca_frame *f, ca_expr *const *args, int argc)
{
	return each_context(cx, f, args, false);
}

static ca_value
fn_countmatches(ca_ctx *cx, const ca_frame *f, ca_expr *const *args, int argc)
{
	return each_context(cx, f, args, true);
}

/* ------------------------------------------------------------------ */
/* The table                                                          */
/* ------------------------------------------------------------------ */

#define ANY	(-1)
#define S(name, min, max, fn)	{ name, min, max, fn, NULL }
#define L(name, min, max, fn)	{ name, min, max, NULL, fn }

/* Sorted by name, ignoring ASCII case ('_' sorts before letters). */
static const ca_builtin table[] = {
	S("absTime", 0, 2, fn_abstime),
	S("allCompare", 3, 3, fn_allcompare),
	S("anyCompare", 3, 3, fn_anycompare),
	S("argsToList", 1, 2, fn_argstolist),
	S("avg", 1, 1, fn_avg),
	S("bool", 1, 1, fn_bool),
	S("ceil", 1, 1, fn_ceiling),
	S("ceiling", 1, 1, fn_ceiling),
	L("countMatches", 2, 2, fn_countmatches),
	S("currentTime", 0, 0, fn_currenttime),
	S("dayTime", 0, 0, fn_daytime),
	S("debug", 1, 1, fn_debug),
	S("envV1ToV2", 1, 1, fn_envv1tov2),
	S("eval", 1, 1, fn_eval),
	L("evalInEachContext", 2, 2, fn_evalineachcontext),
	S("floor", 1, 1, fn_floor),
	S("formatTime", 0, 2, fn_formattime),
	S("getDayOfMonth", 1, 1, fn_getdayofmonth),
	S("getDayOfWeek", 1, 1, fn_getdayofweek),
	S("getDayOfYear", 1, 1, fn_getdayofyear),
	S("getDays", 1, 1, fn_getdays),
	S("getHours", 1, 1, fn_gethours),
	S("getMinutes", 1, 1, fn_getminutes),
	S("getMonth", 1, 1, fn_getmonth),
	S("getSeconds", 1, 1, fn_getseconds),
	S("getYear", 1, 1, fn_getyear),
	S("identicalMember", 2, 2, fn_identicalmember),
	L("ifThenElse", 3, 3, fn_ifthenelse),
	S("int", 1, 1, fn_int),
	S("interval", 1, 1, fn_interval),
	S("isAbsTime", 1, 1, fn_isabstime),
	S("isBoolean", 1, 1, fn_isboolean),
	S("isClassAd", 1, 1, fn_isclassad),
	S("isError", 1, 1, fn_iserror),
	S("isInteger", 1, 1, fn_isinteger),
	S("isList", 1, 1, fn_islist),
	S("isReal", 1, 1, fn_isreal),
	S("isRelTime", 1, 1, fn_isreltime),
	S("isString", 1, 1, fn_isstring),
	S("isUndefined", 1, 1, fn_isundefined),
	S("join", 0, ANY, fn_join),
	S("listToArgs", 1, 2, fn_listtoargs),
	S("max", 1, 1, fn_max),
	S("member", 2, 2, fn_member),
	S("mergeEnvironment", 0, ANY, fn_mergeenvironment),
	S("min", 1, 1, fn_min),
	S("pow", 2, 2, fn_pow),
	S("quantize", 2, 2, fn_quantize),
	S("random", 0, 1, fn_random),
	S("real", 1, 1, fn_real),
	S("regexp", 2, 3, fn_regexp),
	S("regexpMember", 2, 3, fn_regexpmember),
	S("regexps", 3, 4, fn_regexps),
	S("relTime", 1, 1, fn_reltime),
	S("replace", 3, 4, fn_replace),
	S("replaceAll", 3, 4, fn_replaceall),
	S("round", 1, 1, fn_round),
	S("size", 1, 1, fn_size),
	S("split", 1, 2, fn_split),
	S("splitSlotName", 1, 1, fn_splitslotname),
	S("splitTime", 1, 1, fn_splittime),
	S("splitUserName", 1, 1, fn_splitusername),
	S("strcat", 0, ANY, fn_strcat),
	S("strcmp", 2, 2, fn_strcmp),
	S("stricmp", 2, 2, fn_stricmp),
	S("string", 1, 1, fn_string),
	S("stringList_regexpMember", 2, 4, fn_stringlist_regexpmember),
	S("stringListAvg", 1, 2, fn_stringlistavg),
	S("stringListIMember", 2, 3, fn_stringlistimember),
	S("stringListISubsetMatch", 2, 3, fn_stringlistisubsetmatch),
	S("stringListMax", 1, 2, fn_stringlistmax),
	S("stringListMember", 2, 3, fn_stringlistmember),
	S("stringListMin", 1, 2, fn_stringlistmin),
	S("stringListsIntersect", 2, 3, fn_stringlistsintersect),
	S("stringListSize", 1, 2, fn_stringlistsize),
	S("stringListSubsetMatch", 2, 3, fn_stringlistsubsetmatch),
	S("stringListSum", 1, 2, fn_stringlistsum),
	S("substr", 2, 3, fn_substr),
	S("sum", 1, 1, fn_sum),
	S("time", 0, 0, fn_time),
	S("timeZoneOffset", 0, 0, fn_timezoneoffset),
	S("toLower", 1, 1, fn_tolower),
	S("toUpper", 1, 1, fn_toupper),
	L("unparse", 1, 1, fn_unparse),
	L("unresolved", 1, 2, fn_unresolved),
	S("version_in_range", 3, 3, fn_version_in_range),
	S("versioncmp", 2, 2, fn_versioncmp),
	S("versionEQ", 2, 2, fn_versioneq),
	S("versionGE", 2, 2, fn_versionge),
	S("versionGT", 2, 2, fn_versiongt),
	S("versionLE", 2, 2, fn_versionle),
	S("versionLT", 2, 2, fn_versionlt),
};

#define NTABLE	(sizeof table / sizeof table[0])

/* name[0..len) against a table name, ignoring ASCII case. */
static int
name_cmp(const char *name, size_t len, const char *entry)
{
	size_t i;

	for (i = 0; i < len && entry[i]; i++) {
		int d = lower((unsigned char)name[i]) - lower((unsigned char)entry[i]);
		if (d)
			return d;
	}
	if (i < len)
		return 1;
	return entry[i] ? -1 : 0;
}

const ca_builtin *
ca_builtin_find(const char *name, size_t len)
{
	size_t lo = 0, hi = NTABLE;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = name_cmp(name, len, table[mid].name);
		if (c == 0)
			return &table[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const ca_builtin *
ca_builtin_table(size_t *n)
{
	*n = NTABLE;
	return table;
}
