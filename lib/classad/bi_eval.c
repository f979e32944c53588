/* bi_eval.c - builtins that look at expressions rather than values: ifThenElse(),
 * eval(), unparse(), unresolved(), evalInEachContext(), countMatches(), debug(). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builtins_int.h"
#include "eval.h"
#include "expr.h"
#include "parser.h"
#include "print.h"

/* ifThenElse(c, a, b): only the chosen branch is evaluated; c UNDEFINED
 * gives UNDEFINED, c not a boolean or number gives ERROR. */
ca_value
ca_bi_if(ca_ctx *cx, const ca_frame *f, int op, ca_expr *const *args, int argc)
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
ca_value
ca_bi_eval(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	const char *s;
	size_t n;
	ca_diag pe;

	switch (ca_bi_text(cx, argv[0], &s, &n)) {
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
 * current ad, not evaluated, as HTCondor's unparse() gives it: reals in
 * "%1.15E" form, records and lists laid out on lines of their own; ""
 * when it has none. As in HTCondor only a name written plain is looked up
 * (MY.x, TARGET.x, a.b and 'a b' give ""). */
ca_value
ca_bi_unparse(ca_ctx *cx, const ca_frame *f, int op, ca_expr *const *args, int argc)
{
	const ca_expr *a = args[0];

	if (a->node != CA_N_ATTR && a->node != CA_N_SELECT)
		return ca_error("unparse: argument is not an attribute reference");
	if (a->node == CA_N_ATTR && a->op == CA_SC_NONE) {
		ca_attr *at = ca_ad_find(f->ad, a->u.attr.name);
		strbuf sb = STRBUF_INIT;
		ca_print_name(&sb, a->u.attr.spell, a->u.attr.name->len);
		bool plain = at && sb.len == a->u.attr.name->len;
		strbuf_reset(&sb);
		if (plain) {
			ca_print_expr(&sb, ca_attr_expr(f->ad, at), CA_PR_HTREAL | CA_PR_PRETTY);
			return ca_bi_sb_value(cx, &sb);
		}
		strbuf_release(&sb);
	}
	return empty_str();
}

/* The external references unresolved() collects: full names ("y",
 * "TARGET.Memory") in the order found, and the attributes already walked. */
struct ref {
	const char *s;
	size_t len, seq;
};

typedef struct refs {
	ca_vec(struct ref) v;
	ca_vec(const ca_attr *) seen;
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
	size_t seq = r->v.n;
	*ca_vec_push(&r->v) = (struct ref){ s, len, seq };
}

static int collect(ca_ctx *, refs *, const ca_expr *, const ca_frame *, int);

/* Walk the expression of attribute at (in frame g) once. */
static int
visit(ca_ctx *cx, refs *r, const ca_attr *at, const ca_frame *g, int depth)
{
	for (size_t i = 0; i < r->seen.n; i++)
		if (r->seen.at[i] == at)
			return 0;
	*ca_vec_push(&r->seen) = at;
	return collect(cx, r, ca_attr_expr(g->ad, at), g, depth + 1);
}

static const char *
ref_spell(const ca_expr *e)
{
	return e->u.attr.spell ? e->u.attr.spell : e->u.attr.name->spell;
}

static int
collect_ref(ca_ctx *cx, refs *r, const ca_expr *e, const ca_frame *f, int depth)
{
	const char *spell = ref_spell(e);
	ca_where w;

	switch (ca_resolve(cx, e->op, e->u.attr.name, f, CA_RESOLVE_AD_ONLY, &w)) {
	case CA_WHERE_ATTR:
		return visit(cx, r, w.at, w.frame, depth);
	case CA_WHERE_SPECIAL:
		/* an ad or the clock; but target names nothing without one */
		if (f->target != NULL || (w.special != CA_SP_TARGET && w.special != CA_SP_OTHER))
			return 0;
		break;
	default:
		break;
	}
	if (f->target == NULL && (e->op == CA_SC_TARGET || e->op == CA_SC_OTHER ||
	    (e->op == CA_SC_MY && cx->strict))) {
		/* the scope is undefined: the whole reference is external */
		const char *sc = e->u.attr.scope ? e->u.attr.scope :
		    e->op == CA_SC_MY ? "MY" : e->op == CA_SC_OTHER ? "OTHER" : "TARGET";
		refs_add(cx, r, sc, strlen(sc), spell);
	} else
		refs_add(cx, r, NULL, 0, spell);
	return 0;
}

/* Where the name of r.x resolves in the record b (in the ad and the ads
 * around it only, as HTCondor looks): the kind, with *w and *tmp set. */
static int
in_record(ca_ctx *cx, ca_value b, const ca_name *name, ca_frame *tmp, ca_where *w)
{
	ca_adval_frame(b.u.ad, tmp);
	return ca_resolve(cx, CA_SC_NONE, name, tmp, CA_RESOLVE_AD_ONLY, w);
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
		ca_where w;
		if (in_record(cx, b, e->u.sel.name, &af, &w) == CA_WHERE_ATTR)
			return visit(cx, r, w.at, w.frame, depth);
		refs_add(cx, r, NULL, 0, spell);
		return 0;
	}
	default:
		/* names inside a nested record too are looked up from the
		 * current ad, as HTCondor does, not from the record */
		for (uint32_t i = 0; i < ca_expr_nkids(e); i++)
			if (collect(cx, r, ca_expr_kid(e, i), f, depth + 1) < 0)
				return -1;
		return 0;
	}
}

/* The attribute a reference (x, MY.x, TARGET.x, .x, or r.x for a record r)
 * designates, as evaluating it finds it (r.x: in r and the ads around it)
 * and in w->frame the frame its expression belongs in; NULL if none. */
static ca_attr *
deref(ca_ctx *cx, const ca_expr *e, const ca_frame *f, ca_frame *tmp, ca_where *w)
{
	if (e->node == CA_N_SELECT) {
		ca_value b = ca_eval(cx, e->u.sel.base, f);
		if (b.kind != CA_AD)
			return NULL;
		return in_record(cx, b, e->u.sel.name, tmp, w) == CA_WHERE_ATTR ? w->at : NULL;
	}
	if (e->node != CA_N_ATTR)
		return NULL;
	return ca_resolve(cx, e->op, e->u.attr.name, f, 0, w) == CA_WHERE_ATTR ? w->at : NULL;
}

static int
ref_order(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c = ca_fold_cmp(x->s, x->len, y->s, y->len);

	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* unresolved(attr [, regex]): the references of attr's expression that do
 * not resolve in the ad ("target." dropped), sorted case-insensitively and
 * comma-joined; with regex, whether any of them matches it (caseless).
 * UNDEFINED when attr does not exist. */
ca_value
ca_bi_unresolved(ca_ctx *cx, const ca_frame *f, int op, ca_expr *const *args, int argc)
{
	const ca_expr *a = args[0];
	ca_frame tmp;
	ca_where w;

	if (a->node != CA_N_ATTR && a->node != CA_N_SELECT)
		return ca_error("unresolved: argument is not an attribute reference");
	ca_attr *at = deref(cx, a, f, &tmp, &w);
	if (at == NULL)
		return ca_undef();

	pcre2_code *re = NULL;
	if (argc == 2) {
		ca_value p = ca_eval(cx, args[1], f);
		if (p.kind != CA_STRING)
			return error_or(p, "unresolved: pattern is not a string");
		if ((re = ca_bi_re_compile(p.u.s, p.x.len, PCRE2_CASELESS)) == NULL)
			return ca_error("unresolved: invalid regular expression");
	}

	refs r = { CA_VEC_INIT, CA_VEC_INIT };
	/* the attribute itself counts as walked: a self-reference is internal */
	*ca_vec_push(&r.seen) = at;
	int ok = collect(cx, &r, ca_attr_expr(w.frame->ad, at), w.frame, 0);
	ca_vec_free(&r.seen);

	strbuf sb = STRBUF_INIT;
	bool any = false;
	const struct ref *v = r.v.at;
	if (ok == 0 && r.v.n > 0) {
		qsort(r.v.at, r.v.n, sizeof *v, ref_order);
		for (size_t i = 0; i < r.v.n; i++) {
			if (i > 0 && ca_fold_cmp(v[i].s, v[i].len, v[i - 1].s, v[i - 1].len) == 0)
				continue;
			const char *s = v[i].s;
			size_t len = v[i].len;
			if (len >= 7 && ca_fold_cmp(s, 7, "target.", 7) == 0) {
				s += 7;
				len -= 7;
			}
			if (re) {
				int m = ca_bi_re_search(re, s, len, PCRE2_NOTEMPTY);
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
	ca_vec_free(&r.v);
	if (re) {
		pcre2_code_free(re);
		strbuf_release(&sb);
		if (ok == -2)
			return ca_error("unresolved: regular expression matching failed");
		return ca_bool(any);
	}
	return ca_bi_sb_value(cx, &sb);
}

/* evalInEachContext(expr, ads) and countMatches(expr, ads) (op: 1 count):
 * expr (when an
 * attribute reference, the expression of that attribute) evaluated with
 * each record of the list as its scope: the list of results / how many
 * are true. UNDEFINED ads give UNDEFINED / 0. */
ca_value
ca_bi_each_context(ca_ctx *cx, const ca_frame *f, int op, ca_expr *const *args, int argc)
{
	bool count = op;
	const ca_expr *e = args[0];
	ca_frame tmp;
	ca_where w;

	if (e->node == CA_N_ATTR || e->node == CA_N_SELECT) {
		ca_attr *at = deref(cx, e, f, &tmp, &w);
		if (at)
			e = ca_attr_expr(w.frame->ad, at);
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
			ca_adval_frame(it.u.ad, &af);
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

/* debug(x): x (HTCondor also logs the evaluation; the library never prints). */
ca_value
ca_bi_debug(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	return argv[0];
}
