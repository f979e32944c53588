/* bi_string.c - builtins of strings: strcat(), join(), toUpper(), substr(),
 * strcmp() and HTCondor's version comparisons. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "builtins_int.h"
#include "eval.h"

/* strcat(...): string() of each argument, concatenated; the first
 * UNDEFINED or ERROR argument (left to right) is the result. */
ca_value
ca_bi_strcat(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	strbuf sb = STRBUF_INIT;

	for (int i = 0; i < argc; i++) {
		int k = ca_bi_add_text(&sb, argv[i]);
		if (k != T_OK) {
			strbuf_release(&sb);
			return argv[i];
		}
		if (!ca_eval_room(cx, sb.len)) {
			strbuf_release(&sb);
			return ca_error("strcat: over the evaluation's budget");
		}
	}
	return ca_bi_sb_value(cx, &sb);
}

/* join(sep, a, b, ...), join(sep, list), join(list): string() of the items
 * separated by sep; UNDEFINED items are skipped (UNDEFINED only when no
 * item is defined and one was UNDEFINED), an ERROR item gives ERROR. */
ca_value
ca_bi_join(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
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
		int k = ca_bi_text(cx, items[i], &s, &len);
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
		if (!ca_eval_room(cx, sb.len)) {
			strbuf_release(&sb);
			return ca_error("join: over the evaluation's budget");
		}
		def = true;
	}
	if (undef && !def) {
		strbuf_release(&sb);
		return ca_undef();
	}
	return ca_bi_sb_value(cx, &sb);
}

/* toUpper(s) and toLower(s) (op: 1 upper): of string() of the argument,
 * ASCII letters only. */
ca_value
ca_bi_case(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value v = argv[0];
	const char *s;
	size_t n;

	switch (ca_bi_text(cx, v, &s, &n)) {
	case T_UNDEF:
		return ca_undef();
	case T_ERROR:
		return error_or(v, "toUpper/toLower: text too long");
	default:
		break;
	}
	char *d = ca_arena_alloc(&cx->scratch, n + 1);
	for (size_t i = 0; i < n; i++)
		d[i] = (char)(op ? ca_upper((unsigned char)s[i]) : ca_lower((unsigned char)s[i]));
	d[n] = '\0';
	return ca_str(d, (uint32_t)n);
}

/* substr(s, off [, len]), Perl-like: a negative off counts from the end,
 * a negative len leaves that many bytes off the end, len 0 is "". Any
 * UNDEFINED argument gives UNDEFINED; off and len must be integers. */
ca_value
ca_bi_substr(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value res;

	if (ca_bi_bad_arg(argv, argc, true, &res))
		return res;
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
	if (ca_bi_bad_arg(argv, 2, true, res))
		return 1;
	if (ca_bi_text(cx, argv[0], a, an) != T_OK || ca_bi_text(cx, argv[1], b, bn) != T_OK) {
		*res = ca_error(why);
		return 1;
	}
	return 0;
}

/* strcmp(a, b) and stricmp(a, b) (op: 1 ignoring ASCII case): -1, 0 or 1
 * comparing the bytes of string() of a and b. */
ca_value
ca_bi_strcmp(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	const char *a, *b;
	size_t an, bn;
	ca_value res;

	if (two_texts(cx, argv, op ? "stricmp: text too long" : "strcmp: text too long",
	    &a, &an, &b, &bn, &res))
		return res;
	return ca_int(sign(op ? ca_fold_cmp(a, an, b, bn) : byte_cmp(a, an, b, bn)));
}

/* The "natural" order of HTCondor's version functions (that of strverscmp):
 * bytes compare as in strcmp, except where the first difference lies in
 * a run of digits in both strings: then a run with more leading zeros
 * sorts first ("000" < "00" < "01" < "0" < "1"), equal counts of leading
 * zeros compare digit by digit, and without leading zeros the longer
 * number is the bigger. The result is a raw difference, as HTCondor's:
 * of the two bytes as signed chars (as on HTCondor's platforms, where
 * "\303" sorts before "a"), or of the lengths of the two numbers. */
static int
natural_cmp(const char *a, const char *b)
{
	size_t p = 0;

	while (a[p] && a[p] == b[p])
		p++;
	if (a[p] == b[p])
		return 0;
	size_t start = p;	/* first digit of the run holding the difference */
	while (start > 0 && ca_is_digit(a[start - 1]))
		start--;
	int da = (signed char)a[p], db = (signed char)b[p];
	if (start == p && (!ca_is_digit(da) || !ca_is_digit(db)))
		return da - db;

	size_t za = 0, zb = 0;	/* leading zeros, a lone final zero excluded */
	while (a[start + za] == '0')
		za++;
	while (b[start + zb] == '0')
		zb++;
	if (za > 0 && !ca_is_digit(a[start + za]))
		za--;
	if (zb > 0 && !ca_is_digit(b[start + zb]))
		zb--;
	if (za != zb)
		return (int)zb - (int)za;
	if (za > 0)
		return da - db;

	size_t la = start, lb = start;
	while (ca_is_digit(a[la]))
		la++;
	while (ca_is_digit(b[lb]))
		lb++;
	if (la != lb) {
		size_t d = la < lb ? lb - la : la - lb;
		int n = d > INT_MAX ? INT_MAX : (int)d;
		return la < lb ? -n : n;
	}
	return da - db;
}

/* versioncmp(a, b): the raw natural-order difference of string() of a and
 * b (31 for "a", "B"); versionLT(a, b) ... versionEQ(a, b) (op) compare it
 * with 0. */
ca_value
ca_bi_version(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	const char *a, *b;
	size_t an, bn;
	ca_value res;

	if (two_texts(cx, argv, "version comparison: text too long", &a, &an, &b, &bn, &res))
		return res;
	int r = natural_cmp(a, b);
	switch (op) {
	case V_LT: return ca_bool(r < 0);
	case V_LE: return ca_bool(r <= 0);
	case V_GT: return ca_bool(r > 0);
	case V_GE: return ca_bool(r >= 0);
	case V_EQ: return ca_bool(r == 0);
	default: return ca_int(r);
	}
}

/* version_in_range(v, lo, hi): lo <= v <= hi in natural order; UNDEFINED
 * when lo or hi is (an UNDEFINED v is an ERROR, as in HTCondor). */
ca_value
ca_bi_version_in_range(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	const char *s[3];
	size_t n[3];

	if (argv[1].kind == CA_UNDEFINED || argv[2].kind == CA_UNDEFINED)
		return ca_undef();
	for (int i = 0; i < 3; i++) {
		if (argv[i].kind == CA_ERROR)
			return argv[i];
		if (ca_bi_text(cx, argv[i], &s[i], &n[i]) != T_OK)
			return ca_error("version_in_range: version is undefined");
	}
	return ca_bool(natural_cmp(s[1], s[0]) <= 0 && natural_cmp(s[0], s[2]) <= 0);
}
