/* bi_args.c - builtins of the argument and environment strings of job ads
 * in HTCondor's V1 and V2 syntaxes: argsToList(), listToArgs(), ... */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builtins_int.h"
#include "eval.h"

/* Split a V2 ("raw") argument string: white space separates, single quotes
 * quote, '' inside quotes is a quote. false on an unbalanced quote. */
static bool
split_v2(ca_ctx *cx, const char *s, size_t n, ca_bi_items *out)
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
				*ca_vec_push(out) = ca_str_new(&cx->scratch, sb.buf, sb.len);
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
		*ca_vec_push(out) = ca_str_new(&cx->scratch, sb.buf, sb.len);
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

/* The arguments of argsToList and listToArgs: the first of kind, then a
 * version, 1 or 2 (by default 2). The version, or 0 with *res the value to
 * give back (why: the reasons for a bad version, and a bad first one). */
static int
args_check(const ca_value *argv, int argc, int kind, const char *const why[2], ca_value *res)
{
	if (argc == 2 && (argv[1].kind != CA_INT || (argv[1].u.i != 1 && argv[1].u.i != 2))) {
		*res = error_or(argv[1], why[0]);
		return 0;
	}
	if (argv[0].kind != kind) {
		*res = error_or(argv[0], why[1]);
		return 0;
	}
	return argc == 2 ? (int)argv[1].u.i : 2;
}

/* argsToList(s [, version]): the arguments of an HTCondor argument string,
 * V2 (quoted, the default) or V1 (split at white space). */
ca_value
ca_bi_args_to_list(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	static const char *const why[2] = {
		"argsToList: version is not 1 or 2", "argsToList: argument is not a string"
	};
	ca_value res;
	int ver = args_check(argv, argc, CA_STRING, why, &res);

	if (ver == 0)
		return res;
	const char *s = argv[0].u.s, *t;
	size_t n = argv[0].x.len, tl, pos = 0;
	ca_bi_items l = CA_VEC_INIT;
	if (ver == 2) {
		if (!split_v2(cx, s, n, &l)) {
			ca_vec_free(&l);
			return ca_error("argsToList: unbalanced quote");
		}
	} else
		while (ca_bi_token(s, n, &pos, " \t\n\r", 4, false, &t, &tl))
			*ca_vec_push(&l) = ca_str_new(&cx->scratch, t, tl);
	return ca_bi_list_done(cx, &l);
}

/* listToArgs(l [, version]): an argument string from a list of strings; V1
 * cannot hold an argument with white space (ERROR). */
ca_value
ca_bi_list_to_args(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	static const char *const why[2] = {
		"listToArgs: version is not 1 or 2", "listToArgs: argument is not a list"
	};
	ca_value res;
	int ver = args_check(argv, argc, CA_LIST, why, &res);

	if (ver == 0)
		return res;
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
	return ca_bi_sb_value(cx, &sb);
}

/* An environment: NAME=value entries, one per name (later wins). */
typedef struct envvar {
	const char *name, *val;
	size_t nlen, vlen;
	bool noval;	/* an unexpanded $$() entry kept without '=' */
} envvar;

typedef ca_vec(envvar) env;

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
		if (e->at[i].nlen == nv.nlen && memcmp(e->at[i].name, nv.name, nv.nlen) == 0) {
			e->at[i] = nv;
			return true;
		}
	*ca_vec_push(e) = nv;
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
		qsort(e->at, e->n, sizeof *e->at, env_order);
	for (size_t i = 0; i < e->n; i++) {
		strbuf_reset(&one);
		strbuf_add(&one, e->at[i].name, e->at[i].nlen);
		if (!e->at[i].noval) {
			strbuf_addc(&one, '=');
			strbuf_add(&one, e->at[i].val, e->at[i].vlen);
		}
		join_v2(&sb, one.buf, one.len);
	}
	strbuf_release(&one);
	ca_vec_free(e);
	return ca_bi_sb_value(cx, &sb);
}

/* Merge a V2 environment string into e; false when it does not parse. */
static bool
env_merge_v2(ca_ctx *cx, env *e, const char *s, size_t n)
{
	ca_bi_items l = CA_VEC_INIT;

	if (!split_v2(cx, s, n, &l)) {
		ca_vec_free(&l);
		return false;
	}
	for (size_t i = 0; i < l.n; i++)
		if (!env_set(e, l.at[i].u.s, l.at[i].x.len)) {
			ca_vec_free(&l);
			return false;
		}
	ca_vec_free(&l);
	return true;
}

/* envV1ToV2(s): a V1 environment ("A=1;B=2", or another delimiter given
 * as the first character) in V2 syntax; UNDEFINED stays UNDEFINED. */
ca_value
ca_bi_env_v1_to_v2(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
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
	env e = CA_VEC_INIT;
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
			ca_vec_free(&e);
			return ca_error("envV1ToV2: entry without NAME=");
		}
	}
	return env_v2(cx, &e);
}

/* mergeEnvironment(s...): V2 environments merged left to right (later
 * values win), UNDEFINED arguments skipped; the result is V2. */
ca_value
ca_bi_merge_env(ca_ctx *cx, const ca_frame *f, int op, const ca_value *argv, int argc)
{
	env e = CA_VEC_INIT;

	for (int i = 0; i < argc; i++) {
		ca_value v = argv[i];
		if (v.kind == CA_UNDEFINED)
			continue;
		if (v.kind != CA_STRING || !env_merge_v2(cx, &e, v.u.s, v.x.len)) {
			ca_vec_free(&e);
			if (v.kind == CA_ERROR)
				return v;
			return ca_error(v.kind != CA_STRING ? "mergeEnvironment: argument is not a string" :
			    "mergeEnvironment: argument is not a V2 environment");
		}
	}
	return env_v2(cx, &e);
}
