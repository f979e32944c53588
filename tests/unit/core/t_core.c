/* t_core.c - unit tests of the language core: names and ads, lexer,
 * parser (precedence, errors with positions, depth limits), evaluator
 * (logic tables, arithmetic, scoping, cycles, work bounds) and printer. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "classad.h"
#include "ad_int.h"
#include "lexer.h"

/* Parse src, print it back in new syntax. */
static char *
reprint(const char *src)
{
	ca_arena a = { 0 };
	ca_diag err;
	strbuf sb = STRBUF_INIT;
	ca_expr *e = ca_parse_expr(&a, src, strlen(src), 0, &err);

	if (e == NULL)
		strbuf_addf(&sb, "ERR %d:%d %s", err.line, err.col, err.msg);
	else
		ca_print_expr(&sb, e, 0);
	ca_arena_free(&a);
	return strbuf_detach(&sb, NULL);
}

static int
reprints(const char *src, const char *want)
{
	char *got = reprint(src);
	int ok = strcmp(got, want) == 0;

	if (!ok)
		fprintf(stderr, "  reprint(%s) = %s, want %s\n", src, got, want);
	free(got);
	return ok;
}

/* Evaluate src in ad text my (or none) against target (or none) and print. */
static char *
evalp(const char *mysrc, const char *tsrc, const char *src, bool strict)
{
	ca_ctx cx;
	ca_arena a = { 0 };
	ca_diag err;
	strbuf sb = STRBUF_INIT;
	ca_ad *my = NULL, *target = NULL;

	ca_ctx_init(&cx);
	cx.now = 1700000000;
	cx.strict = strict;
	if (mysrc)
		my = ca_parse_ad(mysrc, strlen(mysrc), NULL, 0, &err);
	if (tsrc)
		target = ca_parse_ad(tsrc, strlen(tsrc), NULL, 0, &err);
	ca_expr *e = ca_parse_expr(&a, src, strlen(src), 0, &err);
	if (e == NULL)
		strbuf_addf(&sb, "ERR %s", err.msg);
	else
		ca_print_value(&sb, ca_eval_expr(&cx, e, my, target), 0);
	ca_ad_free(my);
	ca_ad_free(target);
	ca_arena_free(&a);
	ca_ctx_free(&cx);
	return strbuf_detach(&sb, NULL);
}

/* src evaluates to want (printed), under the new rules when strict. */
static int
evals_as(const char *my, const char *target, const char *src, const char *want, bool strict)
{
	char *got = evalp(my, target, src, strict);
	int ok = strcmp(got, want) == 0;

	if (!ok)
		fprintf(stderr, "  eval(%s) = %s, want %s%s\n", src, got, want,
		    strict ? " (new rules)" : "");
	free(got);
	return ok;
}

static int
evals_to(const char *my, const char *target, const char *src, const char *want)
{
	return evals_as(my, target, src, want, false);
}

#define EV(src, want) CHECK(evals_to(NULL, NULL, src, want))

#define STRICT(my, target, src, want) CHECK(evals_as(my, target, src, want, true))

UNIT_SUITE(core_names_and_ads)
{
	const ca_name *a = ca_intern("Memory", 6), *b = ca_intern("MEMORY", 6);
	CHECK(a == b);
	CHECK(strcmp(a->spell, "Memory") == 0);
	CHECK(strcmp(a->key, "memory") == 0);
	CHECK(ca_intern_find("memorY", 6) == a);
	CHECK(ca_intern_find("NoSuchNameEver", 14) == NULL);

	/* more than the index threshold, replace keeps position, delete */
	ca_ad *ad = ca_ad_new();
	char name[16];
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof name, "Attr%d", i);
		ca_ad_set(ad, ca_intern(name, strlen(name)), NULL,
		    ca_expr_lit(ad->arena, ca_int(i)));
	}
	CHECK(ad->n == 40);
	CHECK(ca_ad_findn(ad, "attr39", 6) != NULL);
	CHECK(ca_ad_findn(ad, "ATTR0", 5) == &ad->attrs[0]);
	ca_ad_set(ad, ca_intern("ATTR5", 5), NULL, ca_expr_lit(ad->arena, ca_int(55)));
	CHECK(ad->n == 40 && ca_attr_expr(ad, &ad->attrs[5])->u.lit.u.i == 55);
	CHECK(strcmp(ca_attr_spell(&ad->attrs[5]), "Attr5") == 0);
	CHECK(ca_ad_delete(ad, ca_intern("attr7", 5)));
	CHECK(!ca_ad_delete(ad, ca_intern("attr7", 5)));
	CHECK(ad->n == 39 && ca_ad_findn(ad, "attr8", 5) == &ad->attrs[7]);
	ca_ad *cp = ca_ad_copy(ad);
	ca_ad_free(ad);
	CHECK(cp->n == 39 && ca_attr_expr(cp, ca_ad_findn(cp, "attr39", 6))->u.lit.u.i == 39);
	ca_ad_free(cp);
}

/* Names looked up by text are remembered by the text's address: the same
 * buffer holding another name, a shorter or a longer one, or a name added
 * since it was found missing, is found as it is now. */
UNIT_SUITE(core_names_by_address)
{
	char buf[40];
	const ca_name *js = ca_intern("JobStatus", 9), *job = ca_intern("Job", 3);

	for (int round = 0; round < 2; round++) {	/* the second from the cache */
		strcpy(buf, "JobStatus");
		CHECK(ca_intern_find(buf, strlen(buf)) == js);
		CHECK(ca_intern_find(buf, 9) == js);
		strcpy(buf, "Job");	/* shorter: the old text's bytes stay behind */
		CHECK(ca_intern_find(buf, strlen(buf)) == job);
		CHECK(ca_intern_find(buf, 3) == job);
		strcpy(buf, "JobStatusQ1x");	/* longer, with the old text before */
		CHECK(ca_intern_find(buf, strlen(buf)) == NULL);
		strcpy(buf, "jobstatus");
		CHECK(ca_intern_find(buf, strlen(buf)) == js);
	}
	/* missing, then added: found after all */
	strcpy(buf, "NotANameYet_q7");
	CHECK(ca_intern_find(buf, strlen(buf)) == NULL);
	CHECK(ca_intern_find(buf, strlen(buf)) == NULL);
	const ca_name *added = ca_intern("NotANameYet_q7", 14);
	CHECK(ca_intern_find(buf, strlen(buf)) == added);
	CHECK(ca_intern_find(buf, 14) == added);
	/* a name with a NUL in it, at the address a C string is looked up at
	 * (ca_get_*, ca_has) */
	memcpy(buf, "Zq\0b\0", 5);
	const ca_name *nul = ca_intern(buf, 4), *zq = ca_intern("Zq", 2);
	CHECK(ca_intern_find(buf, 4) == nul);
	CHECK(ca_intern_find(buf, strlen(buf)) == zq);
	/* ca_set_* and ca_has by a reused buffer */
	ca_ad *ad = ca_ad_new();
	strcpy(buf, "A1");
	ca_set_int(ad, buf, 1);
	strcpy(buf, "A");
	ca_set_int(ad, buf, 2);
	CHECK(ad->n == 2 && ca_has(ad, "a1") && ca_has(ad, "A"));
	CHECK(ca_has(ad, buf) && !ca_has(ad, "A2"));
	ca_ad_free(ad);
}

UNIT_SUITE(core_lexer)
{
	ca_arena a = { 0 };
	ca_lexer lx;
	ca_token t;
	const char *src = "x-1 - -2 >>> 3 ?  : 'a b' \"s\" \"t\" =?= isnt";
	ca_tok want[] = { CA_T_IDENT, CA_T_MINUS, CA_T_INT, CA_T_MINUS, CA_T_INT,
	    CA_T_USHR, CA_T_INT, CA_T_ELVIS, CA_T_IDENT, CA_T_STRING, CA_T_META_EQ,
	    CA_T_ISNT, CA_T_EOF };

	ca_lex_init(&lx, &a, src, strlen(src), 0);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		ca_lex_next(&lx, &t);
		CHECK(t.type == want[i]);
		if (i == 4)
			CHECK(t.v.i == -2);
		if (i == 9)
			CHECK(t.v.str.len == 2 && memcmp(t.v.str.s, "st", 2) == 0);
	}
	int line, col;
	ca_lex_linecol("ab\ncd", 5, 4, &line, &col);
	CHECK(line == 2 && col == 2);
	ca_arena_free(&a);
}

UNIT_SUITE(core_parser)
{
	CHECK(reprints("1+2*3", "1 + 2 * 3"));
	CHECK(reprints("(1+2)*3", "(1 + 2) * 3"));
	CHECK(reprints("a ? b : c ? d : e", "a ? b : c ? d : e"));
	CHECK(reprints("x ?: -1", "x ?: -1"));
	CHECK(reprints("MY.x + target.Y + .z", "MY.x + target.Y + .z"));
	CHECK(reprints("f(1;2)", "f(1,2)"));
	CHECK(reprints("'a b' + 'true'", "'a b' + 'true'"));
	CHECK(reprints("[a=1;;b={1,2};]", "[ a = 1; b = { 1,2 } ]"));
	CHECK(reprints("\"a\\tb\\\"\"", "\"a\\tb\\\"\""));
	CHECK(reprints("absTime(\"2004-01-01T00:00:00Z\")",
	    "absTime(\"2004-01-01T00:00:00-00:00\")"));
	CHECK(reprints("1 +", "ERR 1:4 expected an expression, found the end of input"));
	CHECK(reprints("{1,2,}", "ERR 1:6 expected an expression, found '}'"));
	CHECK(reprints("a\n  b", "ERR 2:3 expected an operator or the end of the expression, found 'b'"));
	CHECK(reprints("017", "ERR 1:1 integer literals cannot start with 0 (octal is not ClassAd syntax)"));
	CHECK(reprints("0x1F", "ERR 1:1 hexadecimal integer literals are not ClassAd syntax"));
	CHECK(reprints("9223372036854775808", "ERR 1:1 integer literal out of the 64-bit range"));
	CHECK(reprints("-9223372036854775808", "-9223372036854775808"));
	CHECK(reprints("\"\\0\"", "ERR 1:2 NUL byte in a string (\\0)"));
	CHECK(reprints("x ?: -y", "ERR 1:6 expected an expression, found '-'"));

	/* deep nesting is an error, never a crash */
	size_t n = 100000;
	char *deep = malloc(2 * n + 2);
	memset(deep, '(', n);
	deep[n] = '1';
	memset(deep + n + 1, ')', n);
	deep[2 * n + 1] = '\0';
	char *got = reprint(deep);
	CHECK(strstr(got, "nested more than") != NULL);
	free(got);
	/* a long flat chain builds a deep tree: also refused */
	char *chain = malloc(4 * n + 1);
	for (size_t i = 0; i < n; i++)
		memcpy(chain + 4 * i, "1 + ", 4);
	chain[4 * n - 3] = '\0';
	got = reprint(chain);
	CHECK(strstr(got, "nested more than") != NULL);
	free(got);
	free(chain);
	free(deep);
}

UNIT_SUITE(core_eval_logic)
{
	/* HTCondor's && and || tables, left to right */
	EV("undefined && false", "false");
	EV("false && error", "false");
	EV("error && false", "error");
	EV("undefined && true", "undefined");
	EV("undefined && error", "error");
	EV("true && \"x\"", "error");
	EV("undefined || true", "true");
	EV("true || error", "true");
	EV("error || true", "error");
	EV("undefined || false", "undefined");
	EV("1 && 2", "true");
	EV("!0", "true");
	EV("!\"s\"", "error");
	EV("undefined ? 1 : 2", "undefined");
	EV("\"s\" ? 1 : 2", "error");
	EV("undefined ?: 5", "5");
	EV("error ?: 5", "error");
	EV("10 ?: 2 + 3", "13");
}

UNIT_SUITE(core_eval_arith)
{
	EV("(-7) / 2", "-3");
	EV("(-7) % 2", "-1");
	EV("7 % -2", "1");
	EV("5 / 0", "error");
	EV("9223372036854775807 + 1", "-9223372036854775808");
	EV("(-9223372036854775808) / -1", "9223372036854775807");
	EV("(-9223372036854775808) % -1", "0");
	EV("1.0 / 0", "error");
	EV("(-1.0) / 0", "real(\"-INF\")");
	EV("0 / 0.0", "real(\"NaN\")");
	EV("5 % 2.0", "error");
	EV("true + 1", "2");
	EV("-true", "error");
	EV("0.1 + 0.2", "0.30000000000000004");
	EV("1e300 * 10", "1e+301");
	EV("2.0 * 1.5", "3.0");
	EV("1 << 63", "-9223372036854775808");
	EV("1 << 64", "error");
	EV("1 << -1", "error");
	EV("-16 >> 2", "-4");
	EV("-16 >>> 2", "4611686018427387900");
	EV("5 & true", "error");
	EV("\"a\" == \"A\"", "true");
	EV("\"a\" =?= \"A\"", "false");
	EV("1 =?= 1.0", "false");
	EV("\"abc\" == 1", "error");
	EV("{1} == {1}", "error");
	EV("undefined == undefined", "undefined");
	EV("undefined =?= undefined", "true");
	EV("error == undefined", "error");
	EV("relTime(60) * 2", "relTime(\"02:00\")");
	EV("absTime(\"2004-01-01T00:00:00Z\") + relTime(90)",
	    "absTime(\"2004-01-01T00:01:30-00:00\")");
}

UNIT_SUITE(core_eval_scoping)
{
	const char *job = "[ RequestMemory = 2048; Owner = \"alice\"; x = 1;"
	    " Requirements = TARGET.Memory >= RequestMemory && Cpus > 0 ]";
	const char *slot = "[ Memory = 4096; Cpus = 2; x = 2; Rank = TARGET.Owner == \"alice\" ]";

	CHECK(evals_to(job, slot, "Requirements", "true"));
	CHECK(evals_to(job, slot, "x", "1"));
	CHECK(evals_to(job, slot, "TARGET.x", "2"));
	CHECK(evals_to(job, slot, "TARGET.Rank", "true"));
	CHECK(evals_to(job, slot, "MY.RequestMemory", "2048"));
	CHECK(evals_to(job, NULL, "MY.RequestMemory", "2048"));
	CHECK(evals_to(job, NULL, "TARGET.Memory", "undefined"));
	CHECK(evals_to(job, NULL, "CurrentTime", "1700000000"));
	/* --strict: no fallback to TARGET, MY only in a match */
	STRICT(job, slot, "Cpus", "undefined");
	STRICT(job, NULL, "MY.x", "undefined");
	/* nested ads see their enclosing ads */
	const char *nest = "[ a = 1; n = [ x = 10; y = x + a; z = [ w = \"deep\" ] ] ]";
	CHECK(evals_to(nest, NULL, "n.y", "11"));
	CHECK(evals_to(nest, NULL, "n.a", "1"));
	CHECK(evals_to(nest, NULL, "n.z.w", "\"deep\""));
	CHECK(evals_to(nest, NULL, "n[\"X\"]", "10"));
	CHECK(evals_to(NULL, NULL, "{[a=1],[a=2],[b=3]}.a", "{ 1,2,undefined }"));
	CHECK(evals_to(NULL, NULL, "[x = 1; n = [y = x]].n.y", "1"));
	CHECK(evals_to(NULL, NULL, "{1,2,3}[3]", "error"));
	CHECK(evals_to(NULL, NULL, "[a=1]=?=[a=1]", "error"));
}

/* How names resolve in a match, as in HTCondor, which puts MY and TARGET
 * each in a record of its own inside a record of the match: the fallback
 * to TARGET is for MY and TARGET themselves, the outermost record holds
 * none of their attributes, MY (daemon rules) is the current record. */
UNIT_SUITE(core_eval_match_scope)
{
	const char *job = "[ x = 1; n = [ a = y; b = x; c = MY.x; x = 2; d = .x; e = toplevel.x ] ]";
	const char *slot = "[ y = 5; w = [ v = x; u = parent.y ]; q = x ]";
	/* each case: with the slot as TARGET (match) or without, new rules or not */
	static const struct {
		bool match, strict;
		const char *src, *want;
	} cases[] = {
		/* the fallback: from MY itself, not from a record in it */
		{ true, false, "y", "5" },
		{ true, false, "n.a", "undefined" },
		{ true, false, "[a = 1; b = y].b", "undefined" },
		{ true, false, "TARGET.w.v", "undefined" },
		{ true, false, "TARGET.w.u", "5" },
		{ true, false, "TARGET.q", "1" },
		{ true, false, "(TARGET).q", "1" },
		/* a selection never falls back */
		{ true, false, "self.y", "undefined" },
		/* the outermost record: the match's, empty; alone, the ad */
		{ true, false, ".x", "undefined" },
		{ false, false, ".x", "1" },
		{ true, false, "n.d", "undefined" },
		{ false, false, "n.d", "1" },
		{ true, false, "toplevel.x", "undefined" },
		{ true, false, "isClassAd(toplevel)", "true" },
		{ true, false, "parent.x", "undefined" },
		{ true, false, "isClassAd(parent)", "true" },
		{ false, false, "parent", "undefined" },
		{ false, false, "toplevel.x", "1" },
		/* MY is the current record; TARGET the other side, seen from there */
		{ true, false, "n.c", "2" },
		{ false, false, "n.c", "2" },
		{ true, false, "n.b", "2" },
		{ true, false, "TARGET.TARGET.x", "1" },
		{ true, false, "TARGET.my.y", "5" },
		{ true, false, "MY.TARGET.y", "5" },
		/* special names mean themselves before the records around */
		{ false, false, "[CurrentTime = 5; n = [a = CurrentTime]].n.a", "1700000000" },
		{ false, false, "isClassAd([parent = 5; n = [a = parent]].n.a)", "true" },
		{ false, false, "[target = 5; n = [a = target]].n.a", "5" },
		/* under the new rules MY is the top of its side, in a match only */
		{ true, true, "n.c", "1" },
		{ false, true, "n.c", "undefined" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CHECK(evals_as(job, cases[i].match ? slot : NULL, cases[i].src, cases[i].want,
		    cases[i].strict));
}

UNIT_SUITE(core_eval_bounds)
{
	/* cycles are ERROR, as the language reference says */
	CHECK(evals_to("[ a = b; b = a ]", NULL, "a", "error"));
	CHECK(evals_to("[ x = x ]", NULL, "x", "error"));
	CHECK(evals_to("[ a = 1 + a ]", NULL, "a ?: 0", "error"));
	/* exponential work is cut off by the step budget */
	strbuf sb = STRBUF_INIT;
	strbuf_adds(&sb, "[ a0 = 1");
	for (int i = 1; i <= 60; i++)
		strbuf_addf(&sb, "; a%d = a%d + a%d", i, i - 1, i - 1);
	strbuf_adds(&sb, " ]");
	CHECK(evals_to(sb.buf, NULL, "a60", "error"));
	strbuf_reset(&sb);
	/* a long chain of references is cut off by the depth limit */
	strbuf_adds(&sb, "[ a0 = 0");
	for (int i = 1; i <= 5000; i++)
		strbuf_addf(&sb, "; a%d = a%d", i, i - 1);
	strbuf_adds(&sb, " ]");
	CHECK(evals_to(sb.buf, NULL, "a5000", "error"));
	CHECK(evals_to(sb.buf, NULL, "a100", "0"));
	strbuf_release(&sb);
}

UNIT_SUITE(core_print)
{
	strbuf sb = STRBUF_INIT;
	double r[] = { 3.0, 1.5, 0.1, 1e300, 1e-5, -2.5e-300, 123456789012345678.0 };
	const char *want[] = { "3.0", "1.5", "0.1", "1e+300", "1e-05", "-2.5e-300",
	    "1.2345678901234568e+17" };

	for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
		strbuf_reset(&sb);
		ca_print_real(&sb, r[i]);
		CHECK(strcmp(sb.buf, want[i]) == 0);
		CHECK(ca_strtod(sb.buf, NULL) == r[i]);
	}
	strbuf_reset(&sb);
	ca_print_string(&sb, "a\"b\\c\n\303\251", 8, 0);
	CHECK(strcmp(sb.buf, "\"a\\\"b\\\\c\\n\\303\\251\"") == 0);
	strbuf_reset(&sb);
	ca_print_string(&sb, "C:\\dir\"x\"", 9, CA_PR_OLD);
	CHECK(strcmp(sb.buf, "\"C:\\dir\\\"x\\\"\"") == 0);
	strbuf_reset(&sb);
	ca_print_reltime(&sb, 93784.5);
	CHECK(strcmp(sb.buf, "1+02:03:4.5") == 0);
	strbuf_reset(&sb);
	ca_print_reltime(&sb, -90);
	CHECK(strcmp(sb.buf, "-01:30") == 0);
	strbuf_reset(&sb);
	ca_print_abstime(&sb, 0, 3600);
	CHECK(strcmp(sb.buf, "1970-01-01T01:00:00+01:00") == 0);
	/* a relative time of any size is written whole */
	strbuf_reset(&sb);
	ca_print_reltime(&sb, 1e100);
	CHECK(sb.len > 100 && strcmp(sb.buf + sb.len - 9, "+00:00:00") == 0);
	/* the one text of a real: zeros and special values the same in
	 * every form; others shortest, or "%1.15E" as HTCondor's string() */
	double z[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 1.5 };
	const char *plain[] = { "0.0", "-0.0", "real(\"INF\")", "real(\"-INF\")",
	    "real(\"NaN\")", "1.5" };
	const char *ht[] = { "0.0", "-0.0", "real(\"INF\")", "real(\"-INF\")", "real(\"NaN\")",
	    "1.500000000000000E+00" };
	for (size_t i = 0; i < sizeof z / sizeof z[0]; i++) {
		strbuf_reset(&sb);
		ca_print_real(&sb, z[i]);
		CHECK(strcmp(sb.buf, plain[i]) == 0);
		strbuf_reset(&sb);
		ca_print_value(&sb, ca_real(z[i]), CA_PR_HTREAL);
		CHECK(strcmp(sb.buf, ht[i]) == 0);
		strbuf_reset(&sb);
		ca_value_to_string(&sb, ca_real(z[i]));
		CHECK(strcmp(sb.buf, ht[i]) == 0);
	}
	strbuf_release(&sb);
}

/* An attribute as an integer, a number or a string; -1, NaN or "?" when
 * it is not one. */
static int64_t
gi(ca_ctx *cx, const ca_ad *ad, const char *name)
{
	int64_t v;

	return ca_get_int(cx, ad, name, &v) == 1 ? v : -1;
}

static double
gn(ca_ctx *cx, const ca_ad *ad, const char *name)
{
	double v;

	return ca_get_num(cx, ad, name, &v) == 1 ? v : NAN;
}

static const char *
gs(ca_ctx *cx, const ca_ad *ad, const char *name)
{
	const char *v;

	return ca_get_str(cx, ad, name, &v, NULL) == 1 ? v : "?";
}

/* Ads a reader packs (ca_reader_pack): one allocation each, the
 * expressions they have in common shared, and changed like any other ad:
 * attributes added in their room, past it, past the names the shape's
 * shared index lets them add, deleted; a shared literal set in one ad
 * stays as it was in the others. */
UNIT_SUITE(core_packed_ads)
{
	strbuf sb = STRBUF_INIT;
	ca_diag err;

	for (int k = 0; k < 3; k++) {
		strbuf_addf(&sb, "Name = \"slot%d\"\nStart = KeyboardIdle > 15 * 60\n", k);
		for (int i = 0; i < 30; i++)
			strbuf_addf(&sb, "Attr%d = %d\n", i, i * 1000);
		strbuf_adds(&sb, "Arch = \"X86_64\"\nLoadAvg = 0.56077062042573733\n\n");
	}
	ca_reader *r = ca_reader_open_mem("t", sb.buf, sb.len, CA_FMT_LONG, &err);
	CHECK(r != NULL);
	ca_reader_pack(r);
	ca_ad *ad[3];
	for (int k = 0; k < 3; k++)
		CHECK(ca_reader_next(r, &ad[k], &err) == 1);
	ca_reader_close(r);
	/* the second and third share what the first and second had in common */
	CHECK(ca_ad_lookup(ad[1], "Start") == ca_ad_lookup(ad[2], "Start"));
	CHECK(ca_ad_lookup(ad[1], "Arch") == ca_ad_lookup(ad[2], "Arch"));
	CHECK(ca_ad_lookup(ad[1], "Name") != ca_ad_lookup(ad[2], "Name"));
	ca_ctx cx;
	ca_ctx_init(&cx);
	CHECK(gn(&cx, ad[2], "LoadAvg") == 0.56077062042573733);

	/* a shared literal set in one ad: the others keep theirs */
	CHECK(ca_ad_set_lit(ad[1], ca_intern("Arch", 4), NULL, ca_str("ARM", 3)));
	CHECK(strcmp(gs(&cx, ad[2], "Arch"), "X86_64") == 0);
	CHECK(strcmp(gs(&cx, ad[1], "Arch"), "ARM") == 0);

	/* twenty names more, found, in order, then some deleted */
	char name[32];
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof name, "Extra%d", i);
		ca_set_int(ad[2], name, i);
		for (int j = 0; j <= i; j++) {
			snprintf(name, sizeof name, "extra%d", j);
			CHECK(gi(&cx, ad[2], name) == j);
		}
		CHECK(gi(&cx, ad[2], "Attr29") == 29000);
		CHECK(gi(&cx, ad[1], "Extra0") == -1);
	}
	CHECK(ad[2]->n == 34 + 20);
	snprintf(name, sizeof name, "Extra%d", 19);
	CHECK(strcmp(ca_attr_spell(&ad[2]->attrs[ad[2]->n - 1]), name) == 0);
	CHECK(ca_unset(ad[2], "Attr3") && ca_unset(ad[2], "Extra5"));
	CHECK(!ca_has(ad[2], "Attr3") && !ca_has(ad[2], "extra5"));
	CHECK(gi(&cx, ad[2], "Extra6") == 6 && gi(&cx, ad[2], "Attr4") == 4000);
	CHECK(ca_unset(ad[0], "Attr0"));
	CHECK(gi(&cx, ad[0], "Attr29") == 29000);

	/* a copy of a packed ad shares its shared trees */
	ca_ad *c = ca_ad_copy(ad[2]);
	CHECK(ca_ad_lookup(c, "Start") == ca_ad_lookup(ad[2], "Start"));
	CHECK(gi(&cx, c, "Extra19") == 19);
	ca_ad_free(c);
	for (int k = 0; k < 3; k++)
		ca_ad_free(ad[k]);
	ca_ctx_free(&cx);
	strbuf_release(&sb);
}

/* The tree of an attribute as a walk of references sees it (none for a
 * literal, shared trees shared), and an ad's version, which moves with
 * every change of its attributes. */
UNIT_SUITE(core_attr_tree_version)
{
	static const char text[] =
	    "Name = \"a\"\nStart = KeyboardIdle > 15 * 60\nCpus = 1\n\n"
	    "Name = \"b\"\nStart = KeyboardIdle > 15 * 60\nCpus = 2\n\n"
	    "Name = \"c\"\nStart = KeyboardIdle > 15 * 60\nCpus = Memory / 1024\n\n";
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", text, sizeof text - 1, CA_FMT_LONG, &err);
	ca_ad *ad[3];

	CHECK(r != NULL);
	ca_reader_pack(r);
	for (int k = 0; k < 3; k++)
		CHECK(ca_reader_next(r, &ad[k], &err) == 1);
	ca_reader_close(r);
	ca_attr *name = ca_ad_findn(ad[1], "Name", 4), *start1 = ca_ad_findn(ad[1], "Start", 5);
	ca_attr *start2 = ca_ad_findn(ad[2], "Start", 5), *cpus2 = ca_ad_findn(ad[2], "Cpus", 4);
	CHECK(ca_attr_tree(name) == NULL && ca_attr_tree(ca_ad_findn(ad[1], "Cpus", 4)) == NULL);
	/* the text seen again is shared: b and c hold one tree */
	CHECK(ca_attr_tree(start1) != NULL && ca_attr_tree(start1) == ca_attr_tree(start2));
	CHECK(ca_attr_tree(cpus2) != NULL);

	uint32_t v = ad[2]->version;
	CHECK(ca_ad_set_lit(ad[2], ca_intern("Cpus", 4), NULL, ca_int(8)));
	CHECK(ad[2]->version != v);
	v = ad[2]->version;
	CHECK(!ca_ad_set_lit(ad[2], ca_intern("Cpus", 4), NULL, ca_int(8)));
	CHECK(ad[2]->version == v);		/* the same value: no change */
	CHECK(ca_attr_tree(ca_ad_findn(ad[2], "Cpus", 4)) == NULL);	/* a literal now */
	v = ad[2]->version;
	ca_set_int(ad[2], "Memory", 1024);
	CHECK(ad[2]->version != v);
	v = ad[2]->version;
	CHECK(ca_ad_delete(ad[2], ca_intern("Memory", 6)));
	CHECK(ad[2]->version != v);
	v = ad[2]->version;
	CHECK(!ca_ad_delete(ad[2], ca_intern("Memory", 6)) && ad[2]->version == v);
	for (int k = 0; k < 3; k++)
		ca_ad_free(ad[k]);
}

/* A packed ad's literals take no node until something asks for their
 * expression: a look-up reads the value in the entry, the ad's arena
 * stays empty; the node made then holds the same value; a borrowed copy
 * makes its own; a value set for a while is put back as it was, with no
 * node made for it. */
UNIT_SUITE(core_packed_lazy_literals)
{
	static const char text[] = "Name = \"slot1@host\"\nCpus = 4\nLoad = 0.25\n"
	    "Start = Cpus > 2\nIdle = true\n\n";
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", text, sizeof text - 1, CA_FMT_LONG, &err);
	ca_ad *ad;

	CHECK(r != NULL);
	ca_reader_pack(r);
	CHECK(ca_reader_next(r, &ad, &err) == 1);
	ca_reader_close(r);
	ca_attr *cpus = ca_ad_findn(ad, "Cpus", 4), *name = ca_ad_findn(ad, "Name", 4);
	CHECK((cpus->lit_cached & CA_LIT_LAZY) && (name->lit_cached & CA_LIT_LAZY));
	size_t held = ad->arena->total;	/* Start's tree, not shared yet */
	ca_value lit;
	CHECK(ca_attr_lit(cpus, &lit) && lit.kind == CA_INT && lit.u.i == 4);
	ca_ctx cx;
	ca_ctx_init(&cx);
	CHECK(ca_value_truth(ca_eval_attr(&cx, ad, NULL, "Start")) == 1);
	CHECK(strcmp(gs(&cx, ad, "Name"), "slot1@host") == 0);
	CHECK(ad->arena->total == held);	/* nothing made */
	strbuf sb = STRBUF_INIT;
	ca_format_ad(&sb, ad, CA_FMT_LONG);
	CHECK(strcmp(sb.buf, "Name = \"slot1@host\"\nCpus = 4\nLoad = 0.25\n"
	    "Start = Cpus > 2\nIdle = true\n") == 0);
	CHECK(ad->arena->total == held);	/* written from the entries */

	/* a borrowed copy makes a node in its own arena */
	ca_ad *b = ca_ad_pack_borrowed(ad);
	const ca_expr *e = ca_attr_expr(b, ca_ad_findn(b, "Load", 4));
	CHECK(e->node == CA_N_LIT && e->u.lit.kind == CA_REAL && e->u.lit.u.r == 0.25);
	CHECK(ad->arena->total == held && b->arena->total > 0);
	CHECK(ca_ad_findn(ad, "Load", 4)->lit_cached & CA_LIT_LAZY);
	ca_ad_free(b);

	/* set for a while, then put back: the entry as it was */
	ca_attr saved = *cpus;
	uint32_t v = ad->version;
	ca_set_int(ad, "Cpus", 1);
	CHECK(gi(&cx, ad, "Cpus") == 1);
	ca_ad_put_back(ad, &saved);
	CHECK(ad->version != v);
	cpus = ca_ad_findn(ad, "Cpus", 4);
	CHECK((cpus->lit_cached & CA_LIT_LAZY) && gi(&cx, ad, "Cpus") == 4);
	/* put back after it was deleted meanwhile */
	CHECK(ca_unset(ad, "Cpus"));
	ca_ad_put_back(ad, &saved);
	CHECK(gi(&cx, ad, "Cpus") == 4);

	/* asked for, the expression is made once, with the same value */
	name = ca_ad_findn(ad, "Name", 4);
	e = ca_attr_expr(ad, name);
	CHECK(e->node == CA_N_LIT && e->u.lit.kind == CA_STRING &&
	    strcmp(e->u.lit.u.s, "slot1@host") == 0);
	CHECK(!(name->lit_cached & CA_LIT_LAZY) && ca_attr_expr(ad, name) == e);
	CHECK(ca_attr_lit(name, &lit) && lit.kind == CA_STRING && lit.x.len == 10);
	ca_ad_free(ad);
	ca_ctx_free(&cx);
	strbuf_release(&sb);
}

/* An attribute entry holds a literal's value only where its 16-bit length
 * or offset can say it: a longer string, or an absolute time whose offset
 * is beyond it, is read from its node, in an ad read as it is, packed,
 * borrowed, or set; each reads and writes as the shorter ones do. */
UNIT_SUITE(core_entry_limits)
{
	size_t big = 70000;
	strbuf in = STRBUF_INIT;
	strbuf_adds(&in, "Big = \"");
	for (size_t i = 0; i < big; i++)
		strbuf_addc(&in, (char)('a' + i % 26));
	strbuf_adds(&in, "\"\nFar = absTime(\"2020-01-01T00:00:00+14:00\")\n"
	    "Near = absTime(\"2020-01-01T00:00:00+05:30\")\nSmall = \"s\"\nN = 7\n\n");
	strbuf out[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	ca_ctx cx;
	ca_ctx_init(&cx);
	for (int pack = 0; pack < 2; pack++) {
		ca_diag err;
		ca_reader *r = ca_reader_open_mem("t", in.buf, in.len, CA_FMT_LONG, &err);
		ca_ad *ad;
		CHECK(r != NULL);
		if (pack)
			ca_reader_pack(r);
		CHECK(ca_reader_next(r, &ad, &err) == 1);
		ca_reader_close(r);
		ca_ad *b = pack ? ca_ad_pack_borrowed(ad) : ca_ad_pack(ad);
		const ca_ad *which[2] = { ad, b };
		for (int k = 0; k < 2; k++) {
			const char *s = NULL;
			size_t len = 0;
			CHECK(ca_get_str(&cx, which[k], "Big", &s, &len) == 1 && len == big &&
			    s[0] == 'a' && s[big - 1] == (char)('a' + (big - 1) % 26));
			ca_value far = ca_eval_attr(&cx, which[k], NULL, "Far");
			ca_value near = ca_eval_attr(&cx, which[k], NULL, "Near");
			CHECK(far.kind == CA_ABSTIME && far.x.off == 14 * 3600);
			CHECK(near.kind == CA_ABSTIME && near.x.off == 5 * 3600 + 1800);
			CHECK(strcmp(gs(&cx, which[k], "Small"), "s") == 0 && gi(&cx, which[k], "N") == 7);
			ca_arena_reset(&cx.scratch);
		}
		ca_format_ad(&out[pack], ad, CA_FMT_LONG);
		if (pack) {
			strbuf copy = STRBUF_INIT;
			ca_format_ad(&copy, b, CA_FMT_LONG);
			CHECK(strcmp(copy.buf, out[1].buf) == 0);
			strbuf_release(&copy);
		}
		/* set: the long string and the far time as literals */
		CHECK(ca_ad_set_lit(ad, ca_intern("Big2", 4), NULL, ca_str(in.buf + 7, (uint32_t)big)));
		CHECK(ca_ad_set_lit(ad, ca_intern("Far2", 4), NULL, ca_abstime(1577800800, -14 * 3600)));
		const char *s = NULL;
		size_t len = 0;
		CHECK(ca_get_str(&cx, ad, "Big2", &s, &len) == 1 && len == big);
		ca_value far = ca_eval_attr(&cx, ad, NULL, "Far2");
		CHECK(far.kind == CA_ABSTIME && far.x.off == -14 * 3600 && far.u.i == 1577800800);
		ca_ad *c = ca_ad_pack(ad);
		ca_format_ad(&out[2], c, CA_FMT_LONG);
		strbuf again = STRBUF_INIT;
		ca_format_ad(&again, ad, CA_FMT_LONG);
		CHECK(strcmp(again.buf, out[2].buf) == 0);
		strbuf_release(&again);
		strbuf_reset(&out[2]);
		ca_ad_free(c);
		ca_ad_free(b);
		ca_ad_free(ad);
		ca_arena_reset(&cx.scratch);
	}
	/* read as it is and packed, the ad writes the same */
	CHECK(out[0].len > big && strcmp(out[0].buf, out[1].buf) == 0);
	for (int i = 0; i < 3; i++)
		strbuf_release(&out[i]);
	strbuf_release(&in);
	ca_ctx_free(&cx);
}

/* A name an ad spells otherwise than it was first interned keeps the ad's
 * spelling (a number of its own): found in any case, kept when the value
 * is replaced, and carried by copies, packed and borrowed ads and the
 * writer; many spellings of one name stay apart. */
UNIT_SUITE(core_spellings)
{
	const ca_name *start = ca_intern("SPELLTEST", 9);
	ca_ad *ad = ca_ad_new();
	ca_ad_set(ad, start, "SpellTest", ca_expr_lit(ad->arena, ca_int(1)));
	ca_ad_set(ad, ca_intern("Other", 5), NULL, ca_expr_lit(ad->arena, ca_int(2)));
	ca_attr *at = ca_ad_findn(ad, "spelltest", 9);
	CHECK(at != NULL && ca_attr_name(at) == start && strcmp(ca_attr_spell(at), "SpellTest") == 0);
	CHECK(at->name_id != start->id && ca_attr_is(at, start));
	ca_ad_set(ad, start, "SPELLtest", ca_expr_lit(ad->arena, ca_int(3)));
	at = ca_ad_find(ad, start);
	CHECK(strcmp(ca_attr_spell(at), "SpellTest") == 0 && ad->n == 2);
	ca_ad_trim(ad);
	for (int k = 0; k < 3; k++)	/* the shape's place of the name, then its cache */
		CHECK(ca_ad_find(ad, start) == &ad->attrs[0]);
	strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	ca_format_ad(&want, ad, CA_FMT_LONG);
	CHECK(strstr(want.buf, "SpellTest = 3\n") != NULL);
	ca_ad *cp = ca_ad_copy(ad), *pk = ca_ad_pack(ad), *bw = ca_ad_pack_borrowed(pk);
	const ca_ad *each[3] = { cp, pk, bw };
	for (int k = 0; k < 3; k++) {
		strbuf_reset(&got);
		ca_format_ad(&got, each[k], CA_FMT_LONG);
		CHECK(strcmp(got.buf, want.buf) == 0);
		CHECK(ca_ad_find(each[k], start) != NULL);
	}
	ca_ad_free(bw);
	ca_ad_free(pk);
	ca_ad_free(cp);
	/* a spelling met again is the same number; each other one its own */
	uint32_t ids[300];
	char buf[16];
	for (int i = 0; i < 300; i++) {
		snprintf(buf, sizeof buf, "SPELLTEST");
		for (int b = 0; b < 9; b++)
			if (i >> b & 1)
				buf[b] = (char)(buf[b] - 'A' + 'a');
		ids[i] = ca_intern_spelling(start, buf, 9);
		CHECK(strcmp(ca_name_id_of(ids[i])->spell, buf) == 0 && ca_name_id_of(ids[i])->name == start);
		CHECK(i == 0 || (ids[i] & CA_NAME_OTHER));
		CHECK(ca_intern_spelling(start, buf, 9) == ids[i]);
	}
	CHECK(ids[0] == start->id);
	for (int i = 1; i < 300; i++)
		CHECK(ids[i] != ids[i - 1]);
	strbuf_release(&want);
	strbuf_release(&got);
	ca_ad_free(ad);
}

/* nm[i] is the name prefix followed by i, for i below n. */
static void
intern_numbered(const ca_name **nm, int n, const char *prefix)
{
	char name[32];

	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%s%d", prefix, i);
		nm[i] = ca_intern(name, strlen(name));
	}
}

/* Deleting a set of names at once leaves the ad as deleting them one by
 * one does, with the rest in their order: names it lacks, a name given
 * twice, every name, a packed ad, an ad with an index, more names than
 * a batch; each name it had counts as a change. */
UNIT_SUITE(core_delete_all)
{
	uint64_t rng = 0x6a09e667f3bcc909u;
	const ca_name *nm[150];
	intern_numbered(nm, 150, "Del");
	for (int round = 0; round < 200; round++) {
		int size = round % 3 == 0 ? 5 : round % 3 == 1 ? 40 : 120;
		ca_ad *one = ca_ad_new();
		for (int i = 0; i < size; i++)
			ca_ad_set(one, nm[i], NULL, ca_expr_lit(one->arena, ca_int(i)));
		ca_ad_trim(one);
		ca_ad *all = round % 2 ? ca_ad_pack(one) : ca_ad_copy(one);
		const ca_name *which[150];
		size_t n = unit_pick(&rng, 150);
		for (size_t k = 0; k < n; k++)
			which[k] = nm[unit_pick(&rng, 150)];
		uint32_t v0 = all->version;
		size_t had = 0;
		for (size_t k = 0; k < n; k++)
			had += ca_ad_delete(one, which[k]);
		CHECK(ca_ad_delete_all(all, which, n) == had);
		CHECK(all->n == one->n && (all->version != v0) == (had > 0));
		for (uint32_t i = 0; i < one->n; i++)
			CHECK(ca_attr_name(&all->attrs[i]) == ca_attr_name(&one->attrs[i]));
		for (int i = 0; i < 150; i++)
			CHECK((ca_ad_find(all, nm[i]) != NULL) == (ca_ad_find(one, nm[i]) != NULL));
		ca_ad_free(one);
		ca_ad_free(all);
	}
}

/* An ad freed lends its table and arena chunk to the next one a reader
 * makes (ca_ad_new_sized) if they fit: the table as large as asked and
 * not twice, the chunk from half to four times; that one starts empty (no names, shape, text or changes) and
 * takes names, indexes and a larger size as a new one would. An ad made
 * otherwise is made anew. ca_ad_set_found adds or replaces as ca_ad_set
 * does. */
UNIT_SUITE(core_spare_ads)
{
	uint64_t rng = 0xbb67ae8584caa73bu;
	const ca_name *nm[300];
	intern_numbered(nm, 300, "Spare");
	for (int round = 0; round < 24; round++) {
		/* some ads at once, freed in turn, of sizes small to large */
		ca_ad *ads[24];
		int held = 1 + (int)unit_pick(&rng, 24);
		for (int k = 0; k < held; k++) {
			int size = (int)unit_pick(&rng, 300);
			uint32_t want = (uint32_t)(size / 2 + 1);
			size_t bytes = (size_t)size * 8;
			ca_ad *ad = ads[k] = k % 3 ? ca_ad_new_sized(want, bytes) : ca_ad_new();
			CHECK(ad->n == 0 && ad->shape == 0 && ad->version == 0 && ad->text == NULL &&
			    ad->index == NULL && ad->icap == 0);
			if (k % 3)	/* room as asked, not twice that */
				CHECK(ad->cap >= want && ad->cap <= 2 * want + 16 &&
				    ad->arena->total >= bytes / 2 &&
				    ad->arena->total <= 4 * bytes + 4096);
			else
				CHECK(ad->cap == 0 && ad->arena->total == 0);
			for (int i = 0; i < 300; i += 7)
				CHECK(ca_ad_find(ad, nm[i]) == NULL);
			for (int i = 0; i < size; i++) {
				ca_attr *at = ca_ad_find(ad, nm[i]);
				ca_ad_set_found(ad, at, nm[i], NULL, ca_expr_lit(ad->arena, ca_int(i)));
			}
			/* replaced, through both ways */
			for (int i = 0; i < size; i += 3)
				ca_ad_set_found(ad, ca_ad_find(ad, nm[i]), nm[i], NULL,
				    ca_expr_lit(ad->arena, ca_int(-i)));
			for (int i = 1; i < size; i += 3)
				ca_ad_set(ad, nm[i], NULL, ca_expr_lit(ad->arena, ca_int(-i)));
			if (round % 2)
				ca_ad_trim(ad);
			CHECK(ad->n == (uint32_t)size);
			for (int i = 0; i < 300; i++) {
				const ca_attr *at = ca_ad_find(ad, nm[i]);
				ca_value v;
				CHECK((at != NULL) == (i < size));
				if (at != NULL)
					CHECK(ca_attr_lit(at, &v) && v.kind == CA_INT &&
					    v.u.i == (i % 3 == 2 ? i : -i));
			}
		}
		for (int k = 0; k < held; k++)
			ca_ad_free(ads[k]);
	}
#ifndef CA_SELFCHECK
	/* freed ads of another kind (large arenas) fill the spares; small
	 * ads asked for then are made anew, but soon take one another's
	 * freed arenas (a spare's arena chunk is there at once) */
	ca_ad *big[16];
	for (int k = 0; k < 16; k++) {
		big[k] = ca_ad_new_sized(8, (size_t)60 << 10);
		CHECK(big[k]->arena->total >= (size_t)30 << 10);
	}
	for (int k = 0; k < 16; k++)
		ca_ad_free(big[k]);
	int reused = 0;
	for (int k = 0; k < 40; k++) {
		ca_ad *ad = ca_ad_new_sized(4, 0);
		reused += ad->arena->total > 0;
		ca_ad_set(ad, nm[0], NULL, ca_expr_lit(ad->arena, ca_int(k)));
		ca_ad_free(ad);
	}
	CHECK(reused >= 20);
#endif
}

/* A copy holds the literals of its source as values, whether the source
 * holds them so or as nodes (its own or the store's), and makes no node
 * in the source; a list and an expression stay nodes. The copy prints as
 * the source does, keeps its spellings, and replacing in it leaves the
 * source alone. */
UNIT_SUITE(core_copy_literals)
{
	const char *text = "[ CpInt = 7; CpReal = 2.5; CpStr = \"short\"; CpLong = "
	    "\"a string longer than the store shares\"; CpBool = true; CpList = { 1, 2 }; "
	    "CpExpr = CpInt + 1; CPspelled = 3 ]";
	ca_diag err;
	ca_ad *src = ca_parse_ad(text, strlen(text), NULL, 0, &err);
	CHECK(src != NULL);
	ca_set_int(src, "CpValue", 11);		/* held as a value */
	ca_ad_set(src, ca_intern("CpNode", 6), NULL, ca_expr_lit(src->arena, ca_int(12)));
	static const char *const lits[] = { "CpInt", "CpReal", "CpStr", "CpLong", "CpBool",
	    "CPspelled", "CpValue", "CpNode" };
	ca_ad *cp = ca_ad_copy(src);
	for (size_t i = 0; i < sizeof lits / sizeof lits[0]; i++) {
		const ca_attr *a = ca_ad_findn(src, lits[i], strlen(lits[i]));
		const ca_attr *b = ca_ad_findn(cp, lits[i], strlen(lits[i]));
		ca_value u, v;
		CHECK(b != NULL && (b->lit_cached & CA_LIT_VALUE));
		CHECK(ca_attr_lit(a, &u) && ca_attr_lit(b, &v) && ca_value_same(u, v));
		CHECK(strcmp(ca_attr_spell(a), ca_attr_spell(b)) == 0);
	}
	CHECK(ca_ad_findn(src, "CpValue", 7)->lit_cached & CA_LIT_VALUE);	/* no node made */
	CHECK(!(ca_ad_findn(cp, "CpList", 6)->lit_cached & CA_LIT_VALUE));
	CHECK(!(ca_ad_findn(cp, "CpExpr", 6)->lit_cached & CA_LIT_VALUE));
	strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	ca_format_ad(&a, src, CA_FMT_LONG);
	ca_format_ad(&b, cp, CA_FMT_LONG);
	CHECK(strcmp(a.buf, b.buf) == 0 && strstr(b.buf, "CPspelled = 3\n") != NULL);
	ca_ctx cx;
	ca_ctx_init(&cx);
	CHECK(gi(&cx, cp, "CpExpr") == 8);
	ca_set_int(cp, "CpInt", 1);
	CHECK(gi(&cx, cp, "CpExpr") == 2 && gi(&cx, src, "CpExpr") == 8);
	ca_ctx_free(&cx);
	strbuf_release(&a);
	strbuf_release(&b);
	ca_ad_free(cp);
	ca_ad_free(src);
}

/* An ad read with many attributes gets its index as it grows, so that
 * each new name is not looked for through all before it: every name is
 * found, before and after the ad is trimmed, and a repeated name still
 * replaces. */
UNIT_SUITE(core_big_ads_indexed)
{
	strbuf in = STRBUF_INIT;
	int n = 5000;
	for (int i = 0; i < n; i++)
		strbuf_addf(&in, "big%d = %s%d\n", i, i % 2 ? "" : "big1 + ", i);
	strbuf_adds(&in, "big7 = 70\n\n");
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", in.buf, in.len, CA_FMT_LONG, &err);
	ca_ad *ad;
	CHECK(r != NULL && ca_reader_next(r, &ad, &err) == 1);
	ca_reader_close(r);
	CHECK(ad->n == (uint32_t)n);
	ca_ctx cx;
	ca_ctx_init(&cx);
	char name[16];
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, "BIG%d", i);
		CHECK(ca_ad_findn(ad, name, strlen(name)) == &ad->attrs[i]);
	}
	CHECK(gi(&cx, ad, "big7") == 70 && gi(&cx, ad, "big4") == 5);
	ca_ad_free(ad);
	ca_ctx_free(&cx);
	strbuf_release(&in);
}

/* The n ads in the long format sb holds, into ad[]. */
static void
read_ads(const strbuf *sb, ca_ad **ad, int n)
{
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", sb->buf, sb->len, CA_FMT_LONG, &err);

	CHECK(r != NULL);
	for (int k = 0; k < n; k++)
		CHECK(r != NULL && ca_reader_next(r, &ad[k], &err) == 1);
	ca_reader_close(r);
}

/* The names one ad of a shape was given, copied at once to another of
 * that shape (ca_ad_append_run), leave it as giving them one by one does:
 * the same names in order, shape, values and index. An ad with a name
 * more than its shape's, a run that does not end in the shape given, or a
 * shape not grown so, is refused and left as it was. */
UNIT_SUITE(core_append_run)
{
	strbuf sb = STRBUF_INIT;
	for (int k = 0; k < 4; k++) {
		strbuf_addf(&sb, "Name = \"run%d\"\n", k);
		for (int i = 0; i < 24; i++)
			strbuf_addf(&sb, "RunAttr%d = %d\n", i, i * k);
		strbuf_adds(&sb, "\n");
	}
	ca_ad *ad[4];
	read_ads(&sb, ad, 4);
	uint32_t from = ca_ad_full_shape(ad[0]);
	CHECK(from != 0 && ca_ad_full_shape(ad[1]) == from && ca_ad_full_shape(ad[3]) == from);
	ca_diag err;
	static const char *const added[] = { "RunX", "RunY", "RunZ" };
	const ca_expr *shared[3];
	for (int j = 0; j < 3; j++) {
		char text[32];
		int n = snprintf(text, sizeof text, "RunAttr%d + %d", j, j);
		ca_arena a = { 0 };
		shared[j] = ca_expr_share(ca_parse_expr(&a, text, (size_t)n, 0, &err));
		CHECK(shared[j] != NULL);
		ca_arena_free(&a);
	}
	uint32_t n0 = ad[0]->n;
	for (int j = 0; j < 3; j++)
		ca_ad_set(ad[0], ca_intern(added[j], strlen(added[j])), NULL,
		    (ca_expr *)(uintptr_t)shared[j]);
	uint32_t to = ca_ad_full_shape(ad[0]);
	CHECK(to != 0 && to != from && ad[0]->n == n0 + 3);
	/* one by one in ad[1], at once in ad[2] */
	for (int j = 0; j < 3; j++)
		ca_ad_set(ad[1], ca_intern(added[j], strlen(added[j])), NULL,
		    (ca_expr *)(uintptr_t)shared[j]);
	uint32_t v = ad[2]->version;
	CHECK(ca_ad_append_run(ad[2], ad[0]->attrs + n0, 3, to));
	CHECK(ad[2]->version == v + 3);
	ca_ctx cx;
	ca_ctx_init(&cx);
	CHECK(ad[2]->n == ad[1]->n && ad[2]->shape == ad[1]->shape && ad[2]->shape == to &&
	    ad[2]->index == ad[1]->index);
	for (uint32_t i = 0; i < ad[1]->n; i++)
		CHECK(ca_attr_name(&ad[2]->attrs[i]) == ca_attr_name(&ad[1]->attrs[i]));
	for (int j = 0; j < 3; j++)
		CHECK(gi(&cx, ad[2], added[j]) == 2 * j + j && gi(&cx, ad[1], added[j]) == j + j);
	CHECK(gi(&cx, ad[2], "RunAttr5") == 10 && !ca_has(ad[2], "Never"));
	/* refused: not of the shape's names alone, a run of other names, a
	 * shape that is not where the run leads */
	ca_set_int(ad[3], "RunExtra", 1);
	uint32_t n3 = ad[3]->n;
	CHECK(!ca_ad_append_run(ad[3], ad[0]->attrs + n0, 3, to) && ad[3]->n == n3);
	ca_ad *ad4[1];
	read_ads(&sb, ad4, 1);
	CHECK(!ca_ad_append_run(ad4[0], ad[0]->attrs + n0 + 1, 2, to));
	CHECK(!ca_ad_append_run(ad4[0], ad[0]->attrs + n0, 3, from));
	CHECK(!ca_ad_append_run(ad4[0], ad[0]->attrs + n0, 2, to));
	ca_attr swapped[3] = { ad[0]->attrs[n0 + 1], ad[0]->attrs[n0], ad[0]->attrs[n0 + 2] };
	CHECK(!ca_ad_append_run(ad4[0], swapped, 3, to));
	CHECK(ad4[0]->n == n0 && ca_ad_full_shape(ad4[0]) == from);
	ca_ad_free(ad4[0]);
	for (int k = 0; k < 4; k++)
		ca_ad_free(ad[k]);
	ca_ctx_free(&cx);
	strbuf_release(&sb);
}

/* Ads of one shape given the same names in the same order go from shape
 * to shape together, each sharing the index of the shape it is in; names
 * given in another order make another shape. With no room left for
 * shapes, an ad keeps its shape and looks for the names it was given
 * after the shape's, then gets an index of its own. Either way every ad
 * finds each name it has and none it lacks, through changes, deletions
 * and a packed copy. */
UNIT_SUITE(core_shape_grow)
{
	uint32_t room = ca_shapes_grow_max_;

	for (int full = 0; full < 2; full++) {
		strbuf sb = STRBUF_INIT;
		for (int k = 0; k < 4; k++) {
			/* a shape of each pass's own, which no steps lead from yet */
			strbuf_addf(&sb, "Name = \"slot%d\"\nPass%d = true\n", k, full);
			for (int i = 0; i < 30; i++)
				strbuf_addf(&sb, "Attr%d = %d\n", i, i);
			strbuf_adds(&sb, "\n");
		}
		ca_ad *ad[4];
		read_ads(&sb, ad, 4);
		uint32_t first = ad[0]->shape;
		CHECK(first != 0 && ad[1]->shape == first && ad[3]->shape == first);
		if (full)
			ca_shapes_grow_max_ = 0;
		ca_ctx cx;
		ca_ctx_init(&cx);
		for (int k = 0; k < 2; k++) {
			ca_set_int(ad[k], "GrowA", 10 + k);
			ca_set_int(ad[k], "GrowB", 20 + k);
		}
		ca_set_int(ad[2], "GrowB", 22);
		ca_set_int(ad[2], "GrowA", 12);
		if (!full) {
			const struct ca_shape *sh = ca_ad_shape(ad[0]->shape);
			CHECK(ad[0]->shape != first && ad[1]->shape == ad[0]->shape);
			CHECK(ad[2]->shape != 0 && ad[2]->shape != first && ad[2]->shape != ad[0]->shape);
			CHECK(sh != NULL && sh->n == ad[0]->n && ad[0]->index == sh->index &&
			    (ad[0]->table & CA_TABLE_SHARED_INDEX));
		} else
			for (int k = 0; k < 3; k++)
				CHECK(ad[k]->shape == first && (ad[k]->table & CA_TABLE_SHARED_INDEX));
		CHECK(ad[3]->shape == first);
		ca_set_int(ad[0], "GrowA", 30);	/* a name it has: no new shape */
		uint32_t grown = ad[0]->shape;
		CHECK(grown == ad[1]->shape);
		char name[32];
		for (int i = 0; i < 20; i++) {	/* many names more */
			snprintf(name, sizeof name, "More%d", i);
			ca_set_int(ad[1], name, i);
		}
		if (!full)
			CHECK(ca_ad_shape(ad[1]->shape)->n == ad[1]->n);
		else
			CHECK(ad[1]->shape == first && !(ad[1]->table & CA_TABLE_SHARED_INDEX));
		for (int round = 0; round < 3; round++)
			for (int k = 0; k < 4; k++) {
				CHECK(gi(&cx, ad[k], "GrowA") == (k == 0 ? 30 : k < 3 ? 10 + k : -1));
				CHECK(gi(&cx, ad[k], "GrowB") == (k < 3 ? 20 + k : -1));
				CHECK(gi(&cx, ad[k], "More19") == (k == 1 ? 19 : -1));
				CHECK(gi(&cx, ad[k], "Attr29") == 29 && gi(&cx, ad[k], "Attr0") == 0);
				CHECK(!ca_has(ad[k], "Never"));
			}
		ca_ad *p = ca_ad_pack(ad[1]);
		CHECK(gi(&cx, p, "More7") == 7 && gi(&cx, p, "GrowA") == 11);
		CHECK(full || p->shape == ad[1]->shape);	/* else a shape of its own */
		ca_set_int(p, "Later", 1);
		CHECK(gi(&cx, p, "Later") == 1 && gi(&cx, p, "More19") == 19 && !ca_has(ad[1], "Later"));
		ca_ad_free(p);
		CHECK(ca_unset(ad[0], "Attr3") && ad[0]->shape == 0);
		CHECK(gi(&cx, ad[0], "GrowB") == 20 && !ca_has(ad[0], "Attr3"));
		CHECK(gi(&cx, ad[1], "Attr3") == 3 && ad[1]->shape != 0);
		for (int k = 0; k < 4; k++)
			ca_ad_free(ad[k]);
		ca_ctx_free(&cx);
		strbuf_release(&sb);
		ca_shapes_grow_max_ = room;
	}
}

/* Ads of one shape, large and small: a name found missing in one is
 * still found in another of the shape that was given it since (among a
 * few names more, or many, with an index of its own), and in the first
 * once it has it; a name an ad of the shape lacks stays missing. */
UNIT_SUITE(core_names_absent)
{
	for (int big = 0; big < 2; big++) {
		strbuf sb = STRBUF_INIT;
		for (int k = 0; k < 3; k++) {
			strbuf_addf(&sb, "Name = \"slot%d\"\n", k);
			for (int i = 0; i < (big ? 40 : 4); i++)
				strbuf_addf(&sb, "Attr%d = %d\n", i, i);
			strbuf_adds(&sb, "\n");
		}
		ca_ad *ad[3];
		read_ads(&sb, ad, 3);
		CHECK(ad[0]->shape != 0 && ad[0]->shape == ad[2]->shape);
		ca_ctx cx;
		ca_ctx_init(&cx);
		for (int k = 0; k < 3; k++)
			CHECK(!ca_has(ad[k], "Later") && gi(&cx, ad[k], "Attr3") == 3);
		ca_set_int(ad[1], "Later", 1);	/* a name more */
		char name[32];
		for (int i = 0; i < 20; i++) {	/* many more: an index of its own */
			snprintf(name, sizeof name, "More%d", i);
			ca_set_int(ad[2], name, i);
		}
		ca_set_int(ad[2], "Later", 2);
		for (int round = 0; round < 3; round++)
			for (int k = 0; k < 3; k++) {
				CHECK(gi(&cx, ad[k], "Later") == (k ? k : -1));
				CHECK(gi(&cx, ad[k], "More19") == (k == 2 ? 19 : -1));
				CHECK(gi(&cx, ad[k], "Attr3") == 3);
			}
		ca_set_int(ad[0], "Later", 7);
		CHECK(gi(&cx, ad[0], "Later") == 7 && gi(&cx, ad[1], "Later") == 1);
		CHECK(ca_unset(ad[1], "Attr0") && ad[1]->shape == 0);
		CHECK(gi(&cx, ad[1], "Later") == 1 && !ca_has(ad[1], "Attr0"));
		CHECK(gi(&cx, ad[0], "Later") == 7 && gi(&cx, ad[2], "Later") == 2);
		for (int k = 0; k < 3; k++)
			ca_ad_free(ad[k]);
		ca_ctx_free(&cx);
		strbuf_release(&sb);
	}

	/* an ad built name by name, then with names deleted: its own index
	 * finds each name it has and none it lacks */
	ca_ad *ad = ca_ad_new();
	char name[32];
	int n = 3000;
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, "Name%d", i);
		ca_set_int(ad, name, i);
	}
	for (int i = 0; i < n; i += 7) {
		snprintf(name, sizeof name, "name%d", i);
		CHECK(ca_unset(ad, name));
	}
	ca_ctx cx;
	ca_ctx_init(&cx);
	for (int i = 0; i < 2 * n; i++) {
		snprintf(name, sizeof name, "NAME%d", i);
		CHECK(gi(&cx, ad, name) == (i < n && i % 7 ? i : -1));
	}
	ca_ad_free(ad);
	ca_ctx_free(&cx);
}

/* Stamps: a new one for every ad made (a copy, a packed copy, an ad built
 * by appending once it is trimmed), and at each change of a watched name
 * or of them all; none for another name's change, which the version still
 * counts. An ad freed and another made have different stamps, wherever
 * the new one lives. */
UNIT_SUITE(core_stamps)
{
	const ca_name *w = ca_intern("StampWatched", 12), *o = ca_intern("StampOther", 10);
	ca_name_watch(w);
	ca_ad *a = ca_ad_new(), *b = ca_ad_new();
	CHECK(ca_ad_stamp(a) != 0 && ca_ad_stamp(a) != ca_ad_stamp(b));
	uint64_t s = ca_ad_stamp(a);
	uint32_t v = a->version;
	ca_set_int(a, "StampOther", 1);
	CHECK(ca_ad_stamp(a) == s && a->version != v);
	ca_set_int(a, "stampwatched", 1);	/* any spelling */
	CHECK(ca_ad_stamp(a) > s);
	s = ca_ad_stamp(a);
	ca_set_int(a, "StampWatched", 1);	/* the same value: no change */
	CHECK(ca_ad_stamp(a) == s);
	ca_set_int(a, "StampWatched", 2);
	CHECK(ca_ad_stamp(a) > s);
	s = ca_ad_stamp(a);
	ca_attr saved = *ca_ad_find(a, w);
	ca_set_int(a, "StampWatched", 3);
	uint64_t s3 = ca_ad_stamp(a);
	ca_ad_put_back(a, &saved);
	CHECK(s3 > s && ca_ad_stamp(a) > s3);
	s = ca_ad_stamp(a);
	ca_ad_set_src(a, o, NULL, "7", 1);
	CHECK(ca_ad_stamp(a) == s);
	ca_ad_set_src(a, w, NULL, "7", 1);
	CHECK(ca_ad_stamp(a) > s);
	s = ca_ad_stamp(a);
	CHECK(ca_ad_delete(a, o) && ca_ad_stamp(a) == s);
	CHECK(ca_ad_delete(a, w) && ca_ad_stamp(a) > s);
	s = ca_ad_stamp(a);
	ca_ad *c = ca_ad_copy(a), *p = ca_ad_pack(a);
	CHECK(ca_ad_stamp(c) > s && ca_ad_stamp(p) > ca_ad_stamp(c));
	ca_ad_clear(a);		/* every name changes */
	CHECK(ca_ad_stamp(a) > ca_ad_stamp(p));
	/* an ad built by appending is stamped again once complete */
	ca_ad *e = ca_ad_new();
	s = ca_ad_stamp(e);
	ca_ad_append_src(e, w, "1", 1);
	ca_ad_append_src(e, o, "2", 1);
	CHECK(ca_ad_stamp(e) == s);
	ca_ad_trim(e);
	CHECK(ca_ad_stamp(e) > s);
	ca_ad_free(e);
	/* an ad read keeps its stamp through a change of another name */
	ca_diag err;
	static const char text[] = "StampOther = 1\nStampWatched = 2\n\n";
	ca_reader *r = ca_reader_open_mem("t", text, sizeof text - 1, CA_FMT_LONG, &err);
	ca_ad *d;
	CHECK(r != NULL && ca_reader_next(r, &d, &err) == 1);
	ca_reader_close(r);
	s = ca_ad_stamp(d);
	ca_set_int(d, "StampOther", 5);
	CHECK(ca_ad_stamp(d) == s);
	uint64_t freed = ca_ad_stamp(b);
	ca_ad_free(b);
	b = ca_ad_new();	/* perhaps where the freed one was */
	CHECK(ca_ad_stamp(b) != freed && ca_ad_stamp(b) > ca_ad_stamp(d));
	ca_ad_free(a);
	ca_ad_free(b);
	ca_ad_free(c);
	ca_ad_free(p);
	ca_ad_free(d);
}

/* An ad that lost its shape to a deletion, or has names beyond it, gets
 * the shape of the names it has (that of an ad read with them), keeps its
 * stamp and version, and finds every name it has and none it lacks, as do
 * the other ads of its old shape; a packed copy takes the shape; changes
 * after it are found too. */
UNIT_SUITE(core_reshape)
{
	strbuf sb = STRBUF_INIT;
	for (int k = 0; k < 4; k++) {
		strbuf_addf(&sb, "Name = \"slot%d\"\n", k);
		for (int i = 0; i < 40; i++)
			if (k < 3 || i != 0)	/* the fourth: as the second will be */
				strbuf_addf(&sb, "Attr%d = %d\n", i, i);
		strbuf_adds(&sb, "\n");
	}
	ca_ad *ad[4];
	read_ads(&sb, ad, 4);
	uint32_t first = ad[0]->shape;
	CHECK(first != 0 && ad[3]->shape != 0 && ad[3]->shape != first);
	ca_ctx cx;
	ca_ctx_init(&cx);
	CHECK(ca_unset(ad[1], "Attr0") && ad[1]->shape == 0);
	char name[32];
	for (int i = 0; i < 20; i++) {	/* beyond the shape, with an index of its own */
		snprintf(name, sizeof name, "More%d", i);
		ca_set_int(ad[2], name, i);
	}
	uint64_t st1 = ca_ad_stamp(ad[1]), st2 = ca_ad_stamp(ad[2]);
	uint32_t v1 = ad[1]->version, v2 = ad[2]->version;
	ca_ad_reshape(ad[0]);	/* just its shape's names: nothing */
	CHECK(ad[0]->shape == first);
	ca_ad_reshape(ad[1]);
	ca_ad_reshape(ad[2]);
	CHECK(ad[1]->shape == ad[3]->shape);
	CHECK(ad[2]->shape != 0 && ad[2]->shape != first && ad[2]->shape != ad[1]->shape);
	CHECK(ca_ad_stamp(ad[1]) == st1 && ca_ad_stamp(ad[2]) == st2);
	CHECK(ad[1]->version == v1 && ad[2]->version == v2);
	for (int round = 0; round < 3; round++)
		for (int k = 0; k < 4; k++) {
			CHECK(gi(&cx, ad[k], "Attr0") == (k == 0 || k == 2 ? 0 : -1));
			CHECK(gi(&cx, ad[k], "Attr39") == 39);
			CHECK(gi(&cx, ad[k], "More19") == (k == 2 ? 19 : -1));
			CHECK(!ca_has(ad[k], "Never"));
		}
	ca_ad *p = ca_ad_pack(ad[2]);
	CHECK(p->shape == ad[2]->shape && gi(&cx, p, "More7") == 7);
	ca_ad_reshape(p);	/* a packed table: left as it is */
	CHECK(p->shape == ad[2]->shape);
	ca_ad_free(p);
	/* changed again: a name more, a name less */
	ca_set_int(ad[1], "Later", 5);
	CHECK(ca_unset(ad[2], "More0"));
	for (int k = 1; k < 3; k++) {
		CHECK(gi(&cx, ad[k], "Later") == (k == 1 ? 5 : -1));
		CHECK(gi(&cx, ad[k], "More0") == -1 && gi(&cx, ad[k], "Attr39") == 39);
		ca_ad_reshape(ad[k]);
		CHECK(gi(&cx, ad[k], "Later") == (k == 1 ? 5 : -1));
		CHECK(gi(&cx, ad[k], "More1") == (k == 2 ? 1 : -1));
	}
	for (int k = 0; k < 4; k++)
		ca_ad_free(ad[k]);
	ca_ctx_free(&cx);
	strbuf_release(&sb);
}

/* The getters by an interned name give what those by text give. */
UNIT_SUITE(core_get_nm)
{
	static const char text[] = "I = 7\nR = 2.5\nB = true\nS = \"x\"\nE = I * 2\n\n";
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", text, sizeof text - 1, CA_FMT_LONG, &err);
	ca_ad *ad;
	CHECK(r != NULL && ca_reader_next(r, &ad, &err) == 1);
	ca_reader_close(r);
	ca_ctx cx;
	ca_ctx_init(&cx);
	const ca_name *ni = ca_intern("I", 1), *nr = ca_intern("R", 1), *nb = ca_intern("B", 1),
	    *ns = ca_intern("S", 1), *ne = ca_intern("E", 1), *nn = ca_intern("GetNmNone", 9);
	int64_t i = 0;
	double d = 0;
	bool b = false;
	const char *s = NULL;
	size_t len = 0;
	CHECK(ca_get_int_nm(&cx, ad, ni, &i) == 1 && i == 7);
	CHECK(ca_get_int_nm(&cx, ad, ne, &i) == 1 && i == 14);
	CHECK(ca_get_num_nm(&cx, ad, nr, &d) == 1 && d == 2.5);
	CHECK(ca_get_bool_nm(&cx, ad, nb, &b) == 1 && b);
	CHECK(ca_get_str_nm(&cx, ad, ns, &s, &len) == 1 && len == 1 && s[0] == 'x');
	CHECK(ca_get_str_nm(&cx, ad, ni, &s, &len) == -1);
	i = 42;
	CHECK(ca_get_int_nm(&cx, ad, nn, &i) == 0 && i == 42);
	ca_value v = ca_eval_attr_nm(&cx, ad, NULL, ne);
	CHECK(v.kind == CA_INT && v.u.i == 14);
	CHECK(ca_eval_attr_nm(&cx, ad, NULL, nn).kind == CA_UNDEFINED);
	ca_ad_free(ad);
	ca_ctx_free(&cx);
}

/* A literal a reader keeps as its text becomes its value in the entry
 * when it is first evaluated, with no node made for it; the ad is still
 * written as it was read. */
UNIT_SUITE(core_kept_literal_read)
{
	static const char text[] = "Memory = 4096\nLoad = 2.50\nName = \"slot1@host\"\n\n";
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", text, sizeof text - 1, CA_FMT_LONG, &err);
	ca_ad *ad;

	CHECK(r != NULL && ca_reader_next(r, &ad, &err) == 1);
	ca_reader_close(r);
	size_t n;
	ca_attr *mem = ca_ad_findn(ad, "Memory", 6);
	CHECK(ca_attr_src(mem, &n) != NULL && n == 4);
	size_t held = ad->arena->total;
	ca_ctx cx;
	ca_ctx_init(&cx);
	CHECK(gi(&cx, ad, "Memory") == 4096 && strcmp(gs(&cx, ad, "Name"), "slot1@host") == 0);
	mem = ca_ad_findn(ad, "Memory", 6);
	ca_value v;
	CHECK(ca_attr_src(mem, &n) == NULL && ca_attr_lit(mem, &v) && v.kind == CA_INT &&
	    v.u.i == 4096 && (mem->lit_cached & CA_LIT_LAZY));
	CHECK(ca_attr_src(ca_ad_findn(ad, "Load", 4), &n) != NULL);	/* not read */
	CHECK(ad->arena->total == held);	/* no node */
	strbuf sb = STRBUF_INIT;
	ca_format_ad(&sb, ad, CA_FMT_LONG);
	CHECK(strcmp(sb.buf, "Memory = 4096\nLoad = 2.50\nName = \"slot1@host\"\n") == 0);
	/* asked for, its expression holds the same value */
	const ca_expr *e = ca_attr_expr(ad, mem);
	CHECK(e->node == CA_N_LIT && e->u.lit.kind == CA_INT && e->u.lit.u.i == 4096);
	strbuf_release(&sb);
	ca_ad_free(ad);
	ca_ctx_free(&cx);
}

/* A literal the long reader kept as text has the value the parser gives the
 * same text: integers up to the 18 digits it keeps, and reals whose integer
 * part is longer than any integer. */
/* Decimal text reads as strtod reads it, to the bit: runs of digits of
 * every length around the eight taken at once, leading zeros, a point,
 * an exponent, more digits than a 64-bit significand holds. */
UNIT_SUITE(core_real_of_text)
{
	uint64_t rng = 0x3c6ef372fe94f82bu;
	char text[96];

	for (int round = 0; round < 20000; round++) {
		size_t n = 0;
		unsigned zeros = unit_pick(&rng, 4) == 0 ? unit_pick(&rng, 10) : 0;
		unsigned whole = unit_pick(&rng, 22), frac = unit_pick(&rng, 26);
		for (unsigned i = 0; i < zeros; i++)
			text[n++] = '0';
		for (unsigned i = 0; i < whole; i++)
			text[n++] = (char)('0' + unit_pick(&rng, 10));
		if (n == 0 || unit_pick(&rng, 4) != 0) {
			text[n++] = '.';
			for (unsigned i = 0; i < (n == 1 ? frac + 1 : frac); i++)
				text[n++] = (char)('0' + (i < 9 && zeros ? 0 : unit_pick(&rng, 10)));
		}
		if (unit_pick(&rng, 5) == 0)
			n += (size_t)snprintf(text + n, sizeof text - n, "e%s%u",
			    unit_pick(&rng, 2) ? "-" : "", unit_pick(&rng, 40));
		text[n] = '\0';
		double want = strtod(text, NULL), got = ca_real_of_text(text, n);
		CHECK(memcmp(&want, &got, sizeof want) == 0);
		if (memcmp(&want, &got, sizeof want) != 0)
			fprintf(stderr, "  %s: %.17g, not %.17g\n", text, got, want);
	}
}

/* The shortest of %.15g, %.16g and %.17g that reads back as r, as printf
 * and strtod make it (in the C locale the tests run in): what
 * ca_real_shortest must print, however it finds it. */
static size_t
shortest_by_printf(char *buf, double r)
{
	for (int p = 15;; p++) {
		snprintf(buf, 32, "%.*g", p, r);
		if (p == 17 || strtod(buf, NULL) == r)
			return strlen(buf);
	}
}

/* ca_real_shortest against printf: doubles of every exponent (random
 * bits), the reals of dumps (decimals of up to 17 digits, sums of them),
 * integers, powers of two (the gap below them is half that above) and
 * their neighbours, the values where the digits round up to a power of
 * ten, subnormals and the largest doubles. */
UNIT_SUITE(core_real_shortest)
{
	uint64_t rng = 0x510e527fade682d1u;
	char got[40], want[40];
	int bad = 0;

	for (int round = 0; round < 200000 && bad < 10; round++) {
		double r = 0;
		uint64_t bits = unit_pick(&rng, 1u << 31) | (uint64_t)unit_pick(&rng, 1u << 31) << 31 |
		    (uint64_t)unit_pick(&rng, 4) << 62;
		switch (round % 8) {
		case 0:
		case 1:	/* any double */
			memcpy(&r, &bits, sizeof r);
			break;
		case 2:	/* a decimal of up to 17 digits, at a scale a dump has */
			r = (double)(bits % 100000000000000000u) /
			    pow(10, (double)unit_pick(&rng, 20));
			break;
		case 3:	/* a sum, as a step makes TotalTimeClaimedBusy */
			r = (double)(bits % 10000000000u) / 1e6 + (double)unit_pick(&rng, 1000);
			break;
		case 4:	/* an integer */
			r = (double)(int64_t)(bits >> unit_pick(&rng, 64));
			break;
		case 5: {	/* a power of two, or next to one */
			double p2 = ldexp(1, (int)unit_pick(&rng, 2098) - 1074);
			int k = (int)unit_pick(&rng, 3);
			r = k == 0 ? p2 : k == 1 ? nextafter(p2, 0) : nextafter(p2, INFINITY);
			break;
		}
		case 6: {	/* 9.99...95 and around: rounds up to a power of ten */
			double t = pow(10, (double)unit_pick(&rng, 40) - 20);
			r = nextafter(t, (double)unit_pick(&rng, 2) ? 0 : INFINITY);
			for (uint32_t i = unit_pick(&rng, 4); i > 0; i--)
				r = nextafter(r, 0);
			break;
		}
		default:	/* subnormal, or near the largest */
			r = unit_pick(&rng, 2) ? ldexp((double)(bits >> 12), -1074) :
			    DBL_MAX - ldexp((double)(bits >> 12), 960);
			break;
		}
		if (unit_pick(&rng, 2))
			r = -r;
		if (isnan(r) || isinf(r))
			continue;
		size_t n = ca_real_shortest(got, r), m = shortest_by_printf(want, r);
		bool same = n == m && strcmp(got, want) == 0;
		CHECK(same);
		if (!same && bad++ < 10)
			fprintf(stderr, "  %a: %s, not %s\n", r, got, want);
	}
}

UNIT_SUITE(core_kept_numbers)
{
	static const char *const lit[] = {
		"999999999999999999", "-999999999999999999", "100000000000000000",
		"99999999999999999999.5", "-1234567890123456789012345.0",
		"9999999999999999999e3", "0.000000000000000000001", "1e308",
	};
	ca_ctx cx;
	ca_ctx_init(&cx);
	for (size_t i = 0; i < sizeof lit / sizeof lit[0]; i++) {
		char text[96];
		ca_diag err;
		int n = snprintf(text, sizeof text, "KeptNumber = %s\n\n", lit[i]);
		ca_reader *r = ca_reader_open_mem("t", text, (size_t)n, CA_FMT_LONG, &err);
		ca_ad *ad;
		CHECK(r != NULL && ca_reader_next(r, &ad, &err) == 1);
		ca_reader_close(r);
		size_t len;
		CHECK(ca_attr_src(ca_ad_findn(ad, "KeptNumber", 10), &len) != NULL);	/* kept */
		ca_arena a = { 0 };
		ca_expr *e = ca_parse_expr(&a, lit[i], strlen(lit[i]), 0, &err);
		strbuf got = STRBUF_INIT, want = STRBUF_INIT;
		ca_print_value(&got, ca_eval_attr(&cx, ad, NULL, "KeptNumber"), 0);
		ca_print_value(&want, ca_eval_expr(&cx, e, NULL, NULL), 0);
		CHECK(strcmp(got.buf, want.buf) == 0);
		if (strcmp(got.buf, want.buf) != 0)
			fprintf(stderr, "  kept %s = %s, parsed %s\n", lit[i], got.buf, want.buf);
		strbuf_release(&got);
		strbuf_release(&want);
		ca_arena_free(&a);
		ca_ad_free(ad);
	}
	ca_ctx_free(&cx);
}

/* A literal set holds its value in the entry, with no node, and setting it
 * again and again makes nothing; a node something asked for takes a new
 * value in place (ca_ad_set_lit), unless the ad borrowed it: ca_ad_hold
 * leaves every node as it is. */
UNIT_SUITE(core_set_lit_held)
{
	ca_ad *ad = ca_ad_new();
	const ca_name *cpus = ca_intern("HeldCpus", 8), *name = ca_intern("HeldName", 8);
	ca_ctx cx;
	ca_ctx_init(&cx);

	CHECK(ca_ad_set_lit(ad, cpus, NULL, ca_int(4)));
	CHECK(!ca_ad_set_lit(ad, cpus, NULL, ca_int(4)));
	size_t held = ad->arena->total;
	for (int i = 1; i <= 1000; i++)
		CHECK(ca_ad_set_lit(ad, cpus, NULL, ca_int(i % 2 ? 8 : 4)));
	CHECK(ad->arena->total == held && gi(&cx, ad, "HeldCpus") == 4);
	ca_attr *at = ca_ad_find(ad, cpus);
	CHECK(at->lit_cached & CA_LIT_LAZY);
	/* asked for, the node then takes the new values in place */
	ca_expr *e = ca_attr_expr(ad, at);
	CHECK(e->node == CA_N_LIT && e->u.lit.u.i == 4);
	CHECK(ca_ad_set_lit(ad, cpus, NULL, ca_int(16)));
	CHECK(ca_attr_expr(ad, ca_ad_find(ad, cpus)) == e && e->u.lit.u.i == 16);
	/* strings are copied; one too long for an entry is a node */
	char text[] = "slot1@host";
	CHECK(ca_ad_set_lit(ad, name, "heldName", ca_str(text, 10)));
	text[0] = 'X';
	CHECK(strcmp(gs(&cx, ad, "HeldName"), "slot1@host") == 0);
	CHECK(strcmp(ca_attr_spell(ca_ad_find(ad, name)), "heldName") == 0);
	char *big = calloc(70001, 1);
	memset(big, 'b', 70000);
	CHECK(ca_ad_set_lit(ad, name, NULL, ca_str(big, 70000)));
	at = ca_ad_find(ad, name);
	CHECK(!(at->lit_cached & CA_LIT_LAZY) && ca_attr_expr(ad, at)->u.lit.x.len == 70000);
	free(big);
	/* a borrowed copy's literal: held anew, its source's node untouched */
	ca_ad *b = ca_ad_pack_borrowed(ad);
	CHECK(ca_ad_hold(b, cpus, ca_int(32)));
	CHECK(!ca_ad_hold(b, cpus, ca_int(32)));
	CHECK(gi(&cx, b, "HeldCpus") == 32 && gi(&cx, ad, "HeldCpus") == 16 && e->u.lit.u.i == 16);
	ca_ad_free(b);
	ca_ad_free(ad);
	ca_ctx_free(&cx);
}
