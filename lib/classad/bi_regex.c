/* bi_regex.c - builtins of regular expressions, PCRE2 as in HTCondor: regexp(),
 * regexpMember(), regexps(), replace(), replaceAll(), stringList_regexpMember(). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "builtins_int.h"
#include "eval.h"

pcre2_code *
ca_bi_re_compile(const char *pat, size_t len, uint32_t opts)
{
	int code;
	PCRE2_SIZE where;

	return pcre2_compile((PCRE2_SPTR)pat, len, opts, &code, &where, NULL);
}

/* 1 when re matches somewhere in s, 0 when not, -1 when matching failed
 * (a resource limit). */
int
ca_bi_re_search(const pcre2_code *re, const char *s, size_t len, uint32_t opts)
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
		switch (ca_lower((unsigned char)s[i])) {
		case 'i': o |= PCRE2_CASELESS; break;
		case 'm': o |= PCRE2_MULTILINE; break;
		case 's': o |= PCRE2_DOTALL; break;
		case 'x': o |= PCRE2_EXTENDED; break;
		default: break;
		}
	}
	return o;
}

/* The argument checks shared by regexp, regexps, replace and replaceAll:
 * any ERROR gives ERROR, then any UNDEFINED UNDEFINED, then options that
 * are not a string, then other arguments that are not strings, ERROR. */
static int
regex_args(const ca_value *argv, int argc, int nstr, const char *why_opts, const char *why_str,
    ca_value *res)
{
	if (ca_bi_bad_arg(argv, argc, false, res))
		return 1;
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
ca_value
ca_bi_regexp(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value res;

	if (regex_args(argv, argc, 2, "regexp: options are not a string",
	    "regexp: pattern or subject is not a string", &res))
		return res;
	uint32_t o = argc == 3 ? core_re_opts(argv[2].u.s, argv[2].x.len, NULL, NULL) : 0;
	pcre2_code *re = ca_bi_re_compile(argv[0].u.s, argv[0].x.len, o);
	if (re == NULL)
		return ca_error("regexp: invalid regular expression");
	int m = ca_bi_re_search(re, argv[1].u.s, argv[1].x.len, 0);
	pcre2_code_free(re);
	if (m < 0)
		return ca_error("regexp: matching failed (resource limit)");
	return ca_bool(m > 0);
}

/* regexpMember(pattern, list [, options]): whether some string element
 * matches; an element neither string nor UNDEFINED (met before a match)
 * is an ERROR; no match but an UNDEFINED element gives UNDEFINED. */
ca_value
ca_bi_regexp_member(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value res;

	if (ca_bi_bad_arg(argv, argc, false, &res))
		return res;
	if (argc == 3 && argv[2].kind != CA_STRING)
		return ca_error("regexpMember: options are not a string");
	if (argv[0].kind != CA_STRING || argv[1].kind != CA_LIST)
		return ca_error("regexpMember: arguments are not a pattern and a list");
	uint32_t o = argc == 3 ? core_re_opts(argv[2].u.s, argv[2].x.len, NULL, NULL) : 0;
	ca_value l = argv[1];
	pcre2_code *re = NULL;
	bool undef = false;

	res = ca_bool(false);
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
		if (re == NULL && (re = ca_bi_re_compile(argv[0].u.s, argv[0].x.len, o)) == NULL) {
			res = ca_error("regexpMember: invalid regular expression");
			break;
		}
		int m = ca_bi_re_search(re, v.u.s, v.x.len, 0);
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

/* Append the replacement text repl for a match (\0..\9 are the groups).
 * Returns -1 when a group number is not below the match's count, -2 when
 * the text grows past the evaluation's budget. */
static int
expand(ca_ctx *cx, strbuf *sb, const char *repl, size_t rlen, const char *s,
    const PCRE2_SIZE *ov, int count)
{
	for (size_t i = 0; i < rlen; i++) {
		if (repl[i] == '\\' && i + 1 < rlen && ca_is_digit(repl[i + 1])) {
			int g = repl[++i] - '0';
			if (g >= count)
				return -1;
			if (ov[2 * g] == PCRE2_UNSET)
				continue;
			if (!ca_eval_room(cx, sb->len + (ov[2 * g + 1] - ov[2 * g])))
				return -2;
			strbuf_add(sb, s + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
		} else
			strbuf_addc(sb, repl[i]);
	}
	return 0;
}

/* Reasons for the ERRORs of one substitution function. */
struct subst_why {
	const char *opts, *str, *pattern, *group, *match;
};

/* The options each function adds to the caller's, and its reasons. */
static const struct {
	const char *extra;
	struct subst_why why;
} substs[] = {
	[SUB_REGEXPS] = { "", {
		"regexps: options are not a string",
		"regexps: pattern, subject or replacement is not a string",
		"regexps: invalid regular expression",
		"regexps: replacement names a group the match does not have",
		"regexps: matching failed (resource limit)",
	} },
	[SUB_REPLACE] = { "f", {
		"replace: options are not a string",
		"replace: pattern, subject or replacement is not a string",
		"replace: invalid regular expression",
		"replace: replacement names a group the match does not have",
		"replace: matching failed (resource limit)",
	} },
	[SUB_REPLACE_ALL] = { "fg", {
		"replaceAll: options are not a string",
		"replaceAll: pattern, subject or replacement is not a string",
		"replaceAll: invalid regular expression",
		"replaceAll: replacement names a group the match does not have",
		"replaceAll: matching failed (resource limit)",
	} },
};

/* regexps(pattern, s, repl [, options]), replace() and replaceAll() (op).
 * Without 'f' the result is the replacement text(s) only ("" when nothing
 * matches); with 'f' the subject with the match(es) replaced; 'g' replaces
 * every non-overlapping match. An empty match is followed by a search that
 * does not accept another empty match at the same place (Perl's rule). */
ca_value
ca_bi_substitute(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	const char *extra = substs[op].extra;
	const struct subst_why *why = &substs[op].why;
	ca_value res;
	bool full = false, global = false;

	if (regex_args(argv, argc, 3, why->opts, why->str, &res))
		return res;
	uint32_t o = argc == 4 ? core_re_opts(argv[3].u.s, argv[3].x.len, &full, &global) : 0;
	core_re_opts(extra, strlen(extra), &full, &global);
	pcre2_code *re = ca_bi_re_compile(argv[0].u.s, argv[0].x.len, o);
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
		int x = expand(cx, &sb, repl, rlen, s, ov, rc);
		if (x < 0 || !ca_eval_room(cx, sb.len)) {
			fail = x == -1 ? why->group : why->match;
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
	return ca_bi_sb_value(cx, &sb);
}

/* stringList_regexpMember(pattern, l [, delims [, options]]): whether a
 * token matches (options iImMsSxX); UNDEFINED for a list without tokens. */
ca_value
ca_bi_sl_regexp_member(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	ca_value res;

	if (ca_bi_strings(argv, argc, "stringList_regexpMember: argument is not a string", &res))
		return res;
	const char *d = argc >= 3 ? argv[2].u.s : ", ", *t;
	size_t dn = argc >= 3 ? argv[2].x.len : 2, tl, pos = 0;
	uint32_t o = argc == 4 ? compat_re_opts(argv[3].u.s, argv[3].x.len) : 0;
	pcre2_code *re = ca_bi_re_compile(argv[0].u.s, argv[0].x.len, o);
	if (re == NULL)
		return ca_error("stringList_regexpMember: invalid regular expression");
	res = ca_undef();
	while (ca_bi_token(argv[1].u.s, argv[1].x.len, &pos, d, dn, true, &t, &tl)) {
		int m = ca_bi_re_search(re, t, tl, 0);
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
