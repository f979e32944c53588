/* bi_list.c - builtins of lists (sum(), member(), anyCompare(), split(), ...)
 * and of HTCondor's string lists, "a, b, c" (stringListMember(), ...). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "builtins_int.h"
#include "eval.h"

/* ---- lists ---- */

ca_value
ca_bi_list(ca_ctx *cx, const ca_value *items, size_t n)
{
	if (n > UINT32_MAX)
		return ca_error("list too long");
	ca_value *v = ca_arena_array(&cx->scratch, n, sizeof *v);
	if (n)
		memcpy(v, items, n * sizeof *v);
	return ca_list(v, (uint32_t)n);
}

ca_value
ca_bi_list_done(ca_ctx *cx, ca_bi_items *l)
{
	ca_value v = ca_bi_list(cx, l->at, l->n);

	ca_vec_free(l);
	return v;
}

static bool
is_number(ca_value v)
{
	return v.kind == CA_INT || v.kind == CA_REAL || v.kind == CA_BOOL;
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

/* sum(l), avg(l), min(l) and max(l) (op): UNDEFINED elements are skipped,
 * the others must be numbers. The first is taken as it is (sum({true}) is
 * true), the others added with + or compared; the empty sum and average
 * are 0, the empty min and max UNDEFINED. Compared numbers are promoted,
 * so max({3, 1.5}) is 3.0 as in HTCondor. */
ca_value
ca_bi_summary(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	static const char *const why[][2] = {
		[SUM] = { "sum: argument is not a list", "sum: list element is not a number" },
		[AVG] = { "avg: argument is not a list", "avg: list element is not a number" },
		[MIN] = { "min: argument is not a list", "min: list element is not a number" },
		[MAX] = { "max: argument is not a list", "max: list element is not a number" },
	};
	ca_value l = argv[0], r = op == SUM || op == AVG ? ca_int(0) : ca_undef();
	size_t n = 0;

	if (l.kind == CA_UNDEFINED || l.kind == CA_ERROR)
		return l;
	if (l.kind != CA_LIST)
		return ca_error(why[op][0]);
	for (uint32_t i = 0; i < l.x.len; i++) {
		ca_value v = l.u.items[i];
		if (v.kind == CA_UNDEFINED)
			continue;
		if (!is_number(v))
			return error_or(v, why[op][1]);
		if (n++ == 0)
			r = v;
		else if (op == SUM || op == AVG)
			r = ca_eval_binop(cx, CA_T_PLUS, r, v);
		else {
			promote(&v, &r);
			ca_value c = ca_eval_binop(cx, op == MAX ? CA_T_GT : CA_T_LT, v, r);
			if (c.kind == CA_BOOL && c.u.b)
				r = v;
		}
	}
	if (op == AVG && n > 0)
		r = ca_eval_binop(cx, CA_T_SLASH, r, ca_real((double)n));
	return r;
}

/* member(x, l) with ==, identicalMember(x, l) with =?=: true when some
 * element compares true; elements that give UNDEFINED or ERROR are skipped. */
ca_value
ca_bi_member(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value x = argv[0], l = argv[1];
	bool identical = op;

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

/* anyCompare(o, l, x) and allCompare(o, l, x) (op: 1 all): o one of < <=
 * != == > >= is isnt (exactly). Each element is compared as `element o x`;
 * the first
 * comparison giving UNDEFINED ends the scan with false (both functions),
 * ERROR gives ERROR. */
ca_value
ca_bi_compare(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	static const struct { const char *s; int tok; } ops[] = {
		{ "<", CA_T_LT }, { "<=", CA_T_LE }, { "!=", CA_T_NE }, { "==", CA_T_EQ },
		{ ">", CA_T_GT }, { ">=", CA_T_GE }, { "is", CA_T_META_EQ }, { "isnt", CA_T_META_NE },
	};
	ca_value o = argv[0], l = argv[1], x = argv[2];
	bool all = op;
	int tok = -1;

	if (o.kind == CA_UNDEFINED || o.kind == CA_ERROR)
		return o;
	if (o.kind != CA_STRING)
		return ca_error(all ? "allCompare: operator is not a string" :
		    "anyCompare: operator is not a string");
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strcmp(o.u.s, ops[i].s) == 0)
			tok = ops[i].tok;
	if (tok < 0)
		return ca_error(all ? "allCompare: unknown operator" : "anyCompare: unknown operator");
	if (l.kind == CA_UNDEFINED || l.kind == CA_ERROR)
		return l;
	if (l.kind != CA_LIST)
		return ca_error(all ? "allCompare: second argument is not a list" :
		    "anyCompare: second argument is not a list");
	for (uint32_t i = 0; i < l.x.len; i++) {
		ca_value c = ca_eval_binop(cx, tok, l.u.items[i], x);
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

/* size(x): bytes of a string, elements of a list, attributes of a record. */
ca_value
ca_bi_size(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
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

/* split(s [, seps]): the items of s between separators (default ", \t").
 * Leading and trailing separators are ignored; a run of white space, or
 * of white space and one other separator, separates once; two of the same
 * non-space separator in a row enclose an empty item ("a,,b" has 3). */
ca_value
ca_bi_split(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value res;

	if (ca_bi_strings(argv, argc, "split: argument is not a string", &res))
		return res;
	const char *s = argv[0].u.s, *seps = argc == 2 ? argv[1].u.s : ", \t";
	size_t n = argv[0].x.len, sn = argc == 2 ? argv[1].x.len : 3, last = 0;
	int prev = -1;	/* the last non-space separator since the last item */
	ca_bi_items l = CA_VEC_INIT;

	if (sn > 0) {
		for (size_t i = 0; i < n; i++) {
			if (!memchr(seps, s[i], sn))
				continue;
			if (i > last) {
				*ca_vec_push(&l) = ca_str_new(&cx->scratch, s + last, i - last);
				prev = -1;
			} else if (!ca_is_space((unsigned char)s[i]) && prev == (unsigned char)s[i])
				*ca_vec_push(&l) = empty_str();
			if (!ca_is_space((unsigned char)s[i]))
				prev = (unsigned char)s[i];
			last = i + 1;
		}
	}
	if (n > last)
		*ca_vec_push(&l) = ca_str_new(&cx->scratch, s + last, n - last);
	return ca_bi_list_done(cx, &l);
}

/* splitUserName("user@domain") and splitSlotName("slot1@host") (op: 1
 * slot): the two sides of the first '@'; without one the name is the user
 * (or the host). */
ca_value
ca_bi_split_at(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value v = argv[0];
	bool slot = op;
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
	return ca_bi_list(cx, two, 2);
}

/* ---- string lists ---- */

bool
ca_bi_token(const char *s, size_t n, size_t *pos, const char *delims, size_t dn,
    bool trim, const char **t, size_t *tl)
{
	size_t p = *pos;

	while (p < n && (memchr(delims, s[p], dn) || (trim && ca_is_space((unsigned char)s[p]))))
		p++;
	if (p >= n) {
		*pos = p;
		return false;
	}
	size_t b = p, last = p;
	while (p < n && !memchr(delims, s[p], dn)) {
		if (!trim || !ca_is_space((unsigned char)s[p]))
			last = p;
		p++;
	}
	*t = s + b;
	*tl = last + 1 - b;
	*pos = p;
	return true;
}

/* stringListSize(l [, delims]): the number of tokens (default ", "). */
ca_value
ca_bi_sl_size(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value res;

	if (ca_bi_strings(argv, argc, "stringListSize: argument is not a string", &res))
		return res;
	const char *d = argc == 2 ? argv[1].u.s : ", ", *t;
	size_t dn = argc == 2 ? argv[1].x.len : 2, tl, pos = 0;
	int64_t n = 0;
	while (ca_bi_token(argv[0].u.s, argv[0].x.len, &pos, d, dn, true, &t, &tl))
		n++;
	return ca_int(n);
}

/* stringListSum/Avg/Min/Max(l [, delims]) (op): each token read as a number
 * (a prefix as sscanf %lf reads it; none is an ERROR). The result is an
 * integer unless a token has a character outside "+-0123456789". Empty:
 * Sum and Avg 0.0, Min and Max UNDEFINED. Min and Max are the true ones
 * (HTCondor starts them from FLT_MAX and FLT_MIN). */
ca_value
ca_bi_sl_summary(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	static const char *const why[] = {
		[SUM] = "stringListSum: argument is not a string",
		[AVG] = "stringListAvg: argument is not a string",
		[MIN] = "stringListMin: argument is not a string",
		[MAX] = "stringListMax: argument is not a string",
	};
	ca_value res;

	if (ca_bi_strings(argv, argc, why[op], &res))
		return res;
	const char *d = argc == 2 ? argv[1].u.s : ", ", *t;
	size_t dn = argc == 2 ? argv[1].x.len : 2, tl, pos = 0;
	double acc = 0;
	int64_t n = 0;
	bool real = false;
	while (ca_bi_token(argv[0].u.s, argv[0].x.len, &pos, d, dn, true, &t, &tl)) {
		char *tok = ca_arena_strndup(&cx->scratch, t, tl), *end;
		double x = ca_strtod(tok, &end);
		if (end == tok)
			return ca_error("string list element is not a number");
		if (strspn(tok, "+-0123456789") != tl)
			real = true;
		if (n++ == 0 || op == SUM || op == AVG)
			acc = n == 1 ? x : acc + x;
		else if (op == MIN ? x < acc : x > acc)
			acc = x;
	}
	if (n == 0)
		return op == SUM || op == AVG ? ca_real(0.0) : ca_undef();
	if (op == AVG)
		acc /= (double)n;
	if (real)
		return ca_real(acc);
	int64_t i;
	if (!ca_bi_real_to_int(acc, &i))
		return ca_error("string list result out of the integer range");
	return ca_int(i);
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

	while (ca_bi_token(l, ln, &pos, d, dn, true, &t, &tl))
		if (cmp(t, tl, x, xn) == 0)
			return true;
	return false;
}

/* stringListMember(x, l [, delims]) and stringListIMember (op: 1 ignoring
 * ASCII case): whether x is a token of l. */
ca_value
ca_bi_sl_member(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	const char *x, *l, *d;
	size_t xn, ln, dn;
	ca_value res;

	if (member_args(argv, argc, op ? "stringListIMember: argument is not a string" :
	    "stringListMember: argument is not a string", &x, &xn, &l, &ln, &d, &dn, &res))
		return res;
	return ca_bool(list_has(l, ln, d, dn, x, xn, op ? ca_fold_cmp : byte_cmp));
}

/* stringListSubsetMatch(l1, l2 [, delims]) and stringListISubsetMatch (op:
 * 1 ignoring ASCII case): every token of l1 in l2; "" is a subset of
 * anything, a first list of only delimiters of nothing (HTCondor). */
ca_value
ca_bi_sl_subset(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	const char *x, *l, *d, *t;
	size_t xn, ln, dn, tl, pos = 0;
	cmp_fn cmp = op ? ca_fold_cmp : byte_cmp;
	ca_value res;
	bool any = false;

	if (member_args(argv, argc, op ? "stringListISubsetMatch: argument is not a string" :
	    "stringListSubsetMatch: argument is not a string", &x, &xn, &l, &ln, &d, &dn, &res))
		return res;
	if (xn == 0)
		return ca_bool(true);
	while (ca_bi_token(x, xn, &pos, d, dn, true, &t, &tl)) {
		if (!list_has(l, ln, d, dn, t, tl, cmp))
			return ca_bool(false);
		any = true;
	}
	return ca_bool(any);
}

/* stringListsIntersect(l1, l2 [, delims]): whether a token of l1 is also
 * a token of l2 (case-sensitive; default delimiters " ,"). */
ca_value
ca_bi_sl_intersect(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value res;

	if (ca_bi_bad_arg(argv, argc, false, &res) ||
	    ca_bi_strings(argv, argc, "stringListsIntersect: argument is not a string", &res))
		return res;
	const char *d = " ,";
	size_t dn = 2;
	if (argc == 3 && argv[2].x.len > 0) {
		d = argv[2].u.s;
		dn = argv[2].x.len;
	}
	const char *t1, *t2;
	size_t l1, l2, p1 = 0;
	while (ca_bi_token(argv[0].u.s, argv[0].x.len, &p1, d, dn, false, &t1, &l1)) {
		size_t p2 = 0;
		while (ca_bi_token(argv[1].u.s, argv[1].x.len, &p2, d, dn, false, &t2, &l2))
			if (l1 == l2 && memcmp(t1, t2, l1) == 0)
				return ca_bool(true);
	}
	return ca_bool(false);
}
