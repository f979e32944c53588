/* t_prog.c - unit tests of the flat form of expressions (ca_prog): the same
 * values as the tree evaluator on random expressions and ads, at the depth
 * and step bounds too; shared short strings; lookups through the index. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "classad.h"

static uint64_t seed = UINT64_C(0x2545f4914f6cdd1d);

static unsigned
pick(unsigned n)
{
	return unit_pick(&seed, n);
}

static const char *const leaves[] = {
	"0", "1", "-3", "1000", "9223372036854775807", "1.5", "-0.0", "1e308",
	"\"X86_64\"", "\"x86_64\"", "\"LINUX\"", "\"\"", "true", "false",
	"undefined", "error", "a", "b", "c", "d", "Memory", "Arch", "Missing",
	"MY.a", "MY.Memory", "TARGET.a", "TARGET.Memory", "TARGET.Arch",
	"OTHER.b", ".c", "CurrentTime", "TARGET", "MY", "self.a", "toplevel.a", "parent",
	"[q = Memory].q", "TARGET.TARGET.a", "absTime(0, -1)", "relTime(1.5)"
};
static const char *const binops[] = {
	"+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "=?=", "=!=",
	" is ", " isnt ", "&&", "||", "&", "|", "^", "<<", ">>", ">>>"
};
static const char *const unops[] = { "-", "!", "~", "+" };

/* A random expression of at most depth levels, appended to sb. */
static void
gen(strbuf *sb, int depth)
{
	if (depth == 0 || pick(10) < 3) {
		strbuf_adds(sb, leaves[pick(sizeof leaves / sizeof leaves[0])]);
		return;
	}
	switch (pick(12)) {
	case 0:
		strbuf_adds(sb, unops[pick(4)]);
		gen(sb, depth - 1);
		return;
	case 1:
		strbuf_addc(sb, '(');
		gen(sb, depth - 1);
		strbuf_adds(sb, " ? ");
		gen(sb, depth - 1);
		strbuf_adds(sb, " : ");
		gen(sb, depth - 1);
		strbuf_addc(sb, ')');
		return;
	case 2:
		strbuf_addc(sb, '(');
		gen(sb, depth - 1);
		strbuf_adds(sb, " ?: (");	/* its right side is a postfix expression */
		gen(sb, depth - 1);
		strbuf_adds(sb, "))");
		return;
	case 3: {
		static const char *const fns[] = { "isUndefined(", "isError(", "int(",
		    "size(", "strcat(", "ifThenElse(" };
		unsigned f = pick(6);
		strbuf_adds(sb, fns[f]);
		gen(sb, depth - 1);
		if (f >= 4) {
			strbuf_adds(sb, ", ");
			gen(sb, depth - 1);
		}
		if (f == 5) {
			strbuf_adds(sb, ", ");
			gen(sb, depth - 1);
		}
		strbuf_addc(sb, ')');
		return;
	}
	case 4:
		strbuf_addc(sb, '{');
		gen(sb, depth - 1);
		strbuf_adds(sb, ", ");
		gen(sb, depth - 1);
		strbuf_adds(sb, "}[");
		gen(sb, depth - 1);
		strbuf_addc(sb, ']');
		return;
	case 5:
		strbuf_adds(sb, "[x = ");
		gen(sb, depth - 1);
		strbuf_adds(sb, "; y = x].y");
		return;
	default:
		strbuf_addc(sb, '(');
		gen(sb, depth - 1);
		strbuf_adds(sb, binops[pick(sizeof binops / sizeof binops[0])]);
		gen(sb, depth - 1);
		strbuf_addc(sb, ')');
		return;
	}
}

static ca_ad *
gen_ad(bool machine)
{
	strbuf sb = STRBUF_INIT;
	static const char *const names[] = { "a", "b", "c", "d" };
	ca_diag err;

	strbuf_adds(&sb, "[");
	for (int i = 0; i < 4; i++) {
		if (pick(4) == 0)
			continue;	/* missing here */
		strbuf_addf(&sb, "%s = ", names[i]);
		gen(&sb, (int)pick(3));
		strbuf_adds(&sb, "; ");
	}
	strbuf_addf(&sb, "Memory = %u; ", pick(4096));
	if (machine)
		strbuf_addf(&sb, "Arch = \"%s\"; ", pick(2) ? "X86_64" : "aarch64");
	/* a big ad, with a hash index, half of the time */
	for (int i = 0; pick(2) && i < 12; i++)
		strbuf_addf(&sb, "Pad%d = %d; ", i, i);
	strbuf_adds(&sb, "]");
	ca_ad *ad = ca_parse_ad(sb.buf, sb.len, NULL, 0, &err);
	strbuf_release(&sb);
	return ad;
}

static void
show(strbuf *sb, ca_value v)
{
	strbuf_reset(sb);
	ca_print_value(sb, v, 0);
	if (v.kind == CA_ERROR && v.u.why)
		strbuf_addf(sb, " (%s)", v.u.why);
}

/* Evaluate src both ways; 1 when the printed values agree, -1 when src
 * does not parse. */
static int
agree(ca_ctx *cx, const char *src, size_t len, const ca_ad *my, const ca_ad *target)
{
	ca_arena a = { 0 };
	ca_diag err;
	strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	int ok = -1;
	ca_expr *e = ca_parse_expr(&a, src, len, 0, &err);

	if (e != NULL) {
		ca_prog *p = ca_prog_new(&a, e);
		show(&x, ca_eval_expr(cx, e, my, target));
		uint32_t steps = cx->steps;
		show(&y, ca_prog_eval(cx, p, my, target));
		ok = strcmp(x.buf, y.buf) == 0 && cx->depth == 0 &&
		    (steps == cx->steps || steps > CA_EVAL_MAX_STEPS);
		if (!ok)
			fprintf(stderr, "  %.200s: tree %s (%u steps), flat %s (%u steps)\n",
			    src, x.buf, steps, y.buf, cx->steps);
		ca_arena_reset(&cx->scratch);
	}
	strbuf_release(&x);
	strbuf_release(&y);
	ca_arena_free(&a);
	return ok;
}

UNIT_SUITE(prog_random_agrees_with_tree)
{
	ca_ctx cx;
	strbuf sb = STRBUF_INIT;
	int bad = 0;

	ca_ctx_init(&cx);
	cx.now = 1700000000;
	for (int i = 0; i < 20000 && bad < 5; i++) {
		ca_ad *my = gen_ad(false), *target = pick(8) ? gen_ad(true) : NULL;
		cx.strict = pick(4) == 0;
		strbuf_reset(&sb);
		gen(&sb, 1 + (int)pick(6));
		if (agree(&cx, sb.buf, sb.len, my, target) != 1) {
			fprintf(stderr, "  case %d: %s\n", i, sb.buf);
			bad++;
		}
		ca_ad_free(my);
		ca_ad_free(target);
	}
	CHECK(bad == 0);
	strbuf_release(&sb);
	ca_ctx_free(&cx);
}

/* References chained through n attributes: where the nesting bound is
 * reached, both forms give the same error at the same length. */
UNIT_SUITE(prog_bounds_agree)
{
	ca_ctx cx;
	strbuf sb = STRBUF_INIT;
	ca_diag err;
	int flips = 0;

	ca_ctx_init(&cx);
	for (int n = 480; n < 520; n++) {
		strbuf_reset(&sb);
		strbuf_adds(&sb, "[");
		for (int i = 0; i < n; i++)
			strbuf_addf(&sb, "a%d = a%d + 1; ", i, i + 1);
		strbuf_addf(&sb, "a%d = 0]", n);
		ca_ad *my = ca_parse_ad(sb.buf, sb.len, NULL, 0, &err);
		CHECK(my != NULL);
		const char *src = "((((((((((a0 + 1))))))))) + 2) * 3";
		CHECK(agree(&cx, src, strlen(src), my, NULL) == 1);
		ca_value v = ca_eval_attr(&cx, my, NULL, "a0");
		flips += v.kind == CA_ERROR;
		ca_ad_free(my);
	}
	CHECK(flips > 0 && flips < 40);		/* the bound lies inside the range */

	/* 2^26 steps: over the budget, ERROR as a whole in both forms, even
	 * under isError() and =?= */
	strbuf_reset(&sb);
	strbuf_adds(&sb, "[");
	for (int i = 0; i < 26; i++)
		strbuf_addf(&sb, "b%d = b%d + b%d; ", i, i + 1, i + 1);
	strbuf_adds(&sb, "b26 = 1]");
	ca_ad *my = ca_parse_ad(sb.buf, sb.len, NULL, 0, &err);
	const char *const over[] = { "b0", "isError(b0)", "b0 =?= 1", "true || b0" };
	for (size_t i = 0; i < 4; i++)
		CHECK(agree(&cx, over[i], strlen(over[i]), my, NULL) == 1);
	ca_arena a = { 0 };
	ca_expr *e = ca_parse_expr(&a, "isError(b0)", 11, 0, &err);
	CHECK(ca_eval_expr(&cx, e, my, NULL).kind == CA_ERROR);
	CHECK(ca_prog_eval(&cx, ca_prog_new(&a, e), my, NULL).kind == CA_ERROR);
	ca_arena_free(&a);
	ca_ad_free(my);

	/* deeper than the flat form's stack: it keeps to the tree */
	strbuf_reset(&sb);
	for (int i = 0; i < 120; i++)
		strbuf_adds(&sb, "1 + (");
	strbuf_adds(&sb, "1");
	for (int i = 0; i < 120; i++)
		strbuf_addc(&sb, ')');
	CHECK(agree(&cx, sb.buf, sb.len, NULL, NULL) == 1);
	strbuf_release(&sb);
	ca_ctx_free(&cx);
}

UNIT_SUITE(prog_shared_strings_and_index)
{
	ca_diag err;
	const char *s1 = ca_str_shared("X86_64", 6), *s2 = ca_str_shared("X86_64xx", 6);
	char big[CA_SHARED_STR + 2];

	CHECK(s1 != NULL && s1 == s2 && strcmp(s1, "X86_64") == 0);
	CHECK(ca_str_shared("x86_64", 6) != s1);	/* case matters */
	memset(big, 'z', sizeof big);
	CHECK(ca_str_shared(big, CA_SHARED_STR) != NULL);
	CHECK(ca_str_shared(big, CA_SHARED_STR + 1) == NULL);

	/* literals of two ads share the string; copies too */
	ca_ad *a = ca_parse_ad("[Arch = \"X86_64\"]", 17, NULL, 0, &err);
	ca_ad *b = ca_parse_ad("[ARCH = \"X86_64\"; Other = \"X86_64\"]", 35, NULL, 0, &err);
	CHECK(a != NULL && b != NULL);
	const char *sa = ca_attr_expr(a, &a->attrs[0])->u.lit.u.s;
	CHECK(sa == ca_attr_expr(b, &b->attrs[0])->u.lit.u.s && sa == s1);
	ca_ad *c = ca_ad_copy(b);
	CHECK(ca_attr_expr(c, &c->attrs[1])->u.lit.u.s == s1);
	ca_ad_free(a);
	ca_ad_free(b);
	ca_ad_free(c);

	/* the index lookup finds what ca_ad_find finds, in small and big ads,
	 * whatever the hints say; prefetching any stage of any ad is harmless */
	for (int n = 0; n < 40; n += 3) {
		ca_ad *ad = ca_ad_new();
		const ca_name *names[41];
		for (int i = 0; i < n; i++) {
			char nm[16];
			int len = snprintf(nm, sizeof nm, "Attr%d", (i * 7) % 41);
			names[i] = ca_intern(nm, (size_t)len);
			ca_ad_set_copy(ad, nm, (size_t)len, ca_expr_lit(ad->arena, ca_int(i)));
		}
		names[n] = ca_intern("NotThere", 8);
		for (int s = 0; s < 3; s++)
			ca_ad_prefetch(ad, names, (size_t)n + 1, s);
		for (int i = 0; i <= n; i++) {
			/* whatever the names remember, the lookup is right */
			ca_name *nm = (ca_name *)names[i];
			nm->at[ad->shape % CA_NAME_AT].shape = pick(2) ? ad->shape : 77;
			nm->at[ad->shape % CA_NAME_AT].pos = (uint32_t)pick(50);
			ca_attr *at = ca_ad_find(ad, names[i]);
			CHECK(i == n ? at == NULL : at != NULL && ca_attr_name(at) == names[i] &&
			    ca_attr_expr(ad, at)->u.lit.u.i == i);
		}
		ca_ad_free(ad);
	}
}
