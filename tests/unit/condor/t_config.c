/* t_config.c - unit tests of the configuration reader: the condor_config
 * syntax, macro expansion and functions, templates, built-in defaults, typed
 * lookups, the seeds' policy examples, and hostile input. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "classad.h"
#include "condor.h"
#include "config_priv.h"

/* ---- helpers ---- */

static ca_diag err;

static ca_config *
cfg_of(const char *text)
{
	ca_config *c = ca_config_new();

	memset(&err, 0, sizeof err);
	if (ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) < 0) {
		fprintf(stderr, "t_config: unexpected error %s:%d:%d: %s\n", err.file, err.line,
		    err.col, err.msg);
		CHECK(!"config loads");
	}
	return c;
}

/* Does text fail to load with the error at line:col and msg containing part? */
static bool
load_fails(const char *text, int line, int col, const char *part)
{
	ca_config *c = ca_config_new();
	bool ok;

	memset(&err, 0, sizeof err);
	ok = ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) < 0 && err.line == line &&
	    err.col == col && strstr(err.msg, part) != NULL;
	if (!ok)
		fprintf(stderr, "t_config: %s: got %d:%d: %s\n", text, err.line, err.col, err.msg);
	ca_config_free(c);
	return ok;
}

/* The expansion of name, or "<undefined>" / "<error>" (static buffer). */
static const char *
str(ca_config *c, const char *name)
{
	static char buf[512];
	strbuf sb = STRBUF_INIT;
	int rc = ca_config_string(c, name, &sb, &err);

	snprintf(buf, sizeof buf, "%s", rc > 0 ? sb.buf : rc == 0 ? "<undefined>" : "<error>");
	strbuf_release(&sb);
	return buf;
}

static bool
lookup_fails(ca_config *c, const char *name, int line, int col, const char *part)
{
	strbuf sb = STRBUF_INIT;
	bool ok;

	memset(&err, 0, sizeof err);
	ok = ca_config_string(c, name, &sb, &err) < 0 && err.line == line && err.col == col &&
	    strstr(err.msg, part) != NULL;
	if (!ok)
		fprintf(stderr, "t_config: %s: got %d:%d: %s\n", name, err.line, err.col, err.msg);
	strbuf_release(&sb);
	return ok;
}

static int64_t
int_of(ca_config *c, const char *name, int64_t dflt)
{
	int64_t v = dflt;

	return ca_config_int(c, name, &v, &err) < 0 ? -999 : v;
}

/* tests/data/userprio/NAME, found from this file's path. */
static const char *
data(const char *name)
{
	static char buf[1024];
	const char *f = __FILE__, *p = strstr(f, "unit/condor/t_config.c");

	snprintf(buf, sizeof buf, "%.*sdata/userprio/%s", p ? (int)(p - f) : 0, f, name);
	return buf;
}

/* Does name expand to want? (says what it got when not) */
static bool
is(ca_config *c, const char *name, const char *want)
{
	const char *got = str(c, name);

	if (strcmp(got, want) != 0) {
		fprintf(stderr, "t_config: %s: got '%s' (%s), want '%s'\n", name, got, err.msg,
		    want);
		return false;
	}
	return true;
}

/* Does text fail (to load, or to expand name when not NULL) with part in
 * the message? */
static bool
fails(const char *text, const char *name, const char *part)
{
	ca_config *c = ca_config_new();
	strbuf sb = STRBUF_INIT;
	bool failed;

	memset(&err, 0, sizeof err);
	failed = ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) < 0 ||
	    (name != NULL && ca_config_string(c, name, &sb, &err) < 0);
	bool ok = failed && strstr(err.msg, part) != NULL;
	if (!ok)
		fprintf(stderr, "t_config: got '%s', want '%s'\n", err.msg, part);
	strbuf_release(&sb);
	ca_config_free(c);
	return ok;
}

/* Evaluate the config expression name against an ad given as text. */
static ca_value
eval_in(ca_config *c, const char *name, const char *adtext)
{
	static ca_ctx cx;
	static bool init;
	ca_arena a = { 0 };
	ca_expr *e = NULL;
	ca_diag perr;
	ca_value v = ca_error(NULL);

	if (!init) {
		ca_ctx_init(&cx);
		cx.now = 1000000;
		init = true;
	}
	if (name == NULL) {
		ca_ctx_free(&cx);
		init = false;
		return v;
	}
	ca_ad *ad = ca_ad_new();
	if (ca_parse_assignments(ad, adtext, strlen(adtext), 0, &perr) == 0 &&
	    ca_config_expr(c, name, &a, 0, &e, &err) == 1) {
		v = ca_eval_expr(&cx, e, ad, NULL);
		if (v.kind == CA_STRING || v.kind == CA_LIST || v.kind == CA_AD)
			v = ca_error("not a scalar");
	}
	ca_arena_reset(&cx.scratch);
	ca_ad_free(ad);
	ca_arena_free(&a);
	return v;
}

static bool
is_true(ca_value v)
{
	return v.kind == CA_BOOL && v.u.b;
}

static bool
is_false(ca_value v)
{
	return v.kind == CA_BOOL && !v.u.b;
}

/* ---- suites ---- */

UNIT_SUITE(config_basic)
{
	ca_config *c = cfg_of(
	    "# a comment\n"
	    "Alpha = 1\n"
	    "  beta=two words  \n"
	    "ALPHA = 3\n"
	    "Hash = a # not a comment\n"
	    "Empty =\n"
	    "\n"
	    "   # indented comment \\\n"
	    "Gamma = x\r\n");

	CHECK(strcmp(str(c, "alpha"), "3") == 0);	/* later wins, any case */
	CHECK(strcmp(str(c, "BETA"), "two words") == 0);
	CHECK(strcmp(str(c, "hash"), "a # not a comment") == 0);
	CHECK(strcmp(str(c, "gamma"), "x") == 0);	/* the '\' ended a comment */
	CHECK(ca_config_defined(c, "EMPTY"));
	CHECK(strcmp(str(c, "Empty"), "") == 0);
	CHECK(int_of(c, "Empty", 42) == 42);		/* empty: not defined */
	CHECK(!ca_config_defined(c, "nope"));
	CHECK(strcmp(str(c, "nope"), "<undefined>") == 0);
	CHECK(strcmp(ca_config_raw(c, "Alpha"), "3") == 0);
	CHECK(ca_config_count(c) == 5);
	CHECK(strcmp(ca_config_name_at(c, 0), "Alpha") == 0);	/* first spelling */
	CHECK(ca_config_locate(c, "beta", &err) && err.line == 3 && err.col == 8);
	ca_config_free(c);

	/* ca_config_set, and -D style overrides after a file */
	c = cfg_of("A = 1\n");
	CHECK(ca_config_set(c, "A", "$(A) + 1", "command line", &err) == 0);
	CHECK(strcmp(str(c, "A"), "1 + 1") == 0);
	CHECK(int_of(c, "A", 0) == 2);
	CHECK(ca_config_locate(c, "A", &err) && strcmp(err.file, "<command line>") == 0);
	CHECK(ca_config_set(c, "bad name", "1", NULL, &err) < 0);
	ca_config_free(c);
}

UNIT_SUITE(config_macros)
{
	ca_config *c = cfg_of(
	    "B = $(A) later\n"
	    "A = first\n"
	    "A = second\n"			/* lazy: B sees the last A */
	    "START = KeyboardIdle > 60\n"
	    "START = ($(START)) || Owner == \"coltrane\"\n"	/* self: previous value */
	    "S2 = $(S2) more\n"			/* self, undefined: nothing */
	    "D = $(UNDEF:fallback $(A))\n"
	    "D2 = $(A:ignored)\n"
	    "U = [$(UNDEF)]\n"
	    "M = $$(Cpus) $$ $(DOLLAR) 5$\n"
	    "MIXED = $(a)$(A)\n");

	CHECK(strcmp(str(c, "B"), "second later") == 0);
	CHECK(strcmp(str(c, "START"), "(KeyboardIdle > 60) || Owner == \"coltrane\"") == 0);
	CHECK(strcmp(str(c, "S2"), " more") == 0);
	CHECK(strcmp(str(c, "D"), "fallback second") == 0);
	CHECK(strcmp(str(c, "D2"), "second") == 0);
	CHECK(strcmp(str(c, "U"), "[]") == 0);
	CHECK(strcmp(str(c, "M"), "$$(Cpus) $$ $ 5$") == 0);
	CHECK(strcmp(str(c, "MIXED"), "secondsecond") == 0);
	ca_config_free(c);

	setenv("T_CONFIG_VAR", "from-env", 1);
	c = cfg_of("E = $ENV(T_CONFIG_VAR) $ENV(T_CONFIG_UNSET_VAR:none)\n");
	CHECK(strcmp(str(c, "E"), "from-env none") == 0);
	ca_config_free(c);

	/* a subsystem prefix wins, for lookups and inside macros */
	c = cfg_of("X = 1\nNEGOTIATOR.X = 2\nY = $(X)\n");
	CHECK(strcmp(str(c, "Y"), "1") == 0);
	ca_config_set_subsys(c, "NEGOTIATOR");
	CHECK(strcmp(str(c, "X"), "2") == 0);
	CHECK(strcmp(str(c, "Y"), "2") == 0);
	ca_config_free(c);

	strbuf sb = STRBUF_INIT;
	c = cfg_of("A = 7\n");
	CHECK(ca_config_expand(c, "a$(A)b", 6, &sb, &err) == 0 && strcmp(sb.buf, "a7b") == 0);
	CHECK(ca_config_expand(c, "x $(A", 5, &sb, &err) < 0 && err.col == 3);
	strbuf_release(&sb);
	ca_config_free(c);
}

UNIT_SUITE(config_continuation)
{
	ca_config *c = cfg_of(
	    "A = one \\\n"
	    "    two \\\n"
	    "# a comment inside \\\n"
	    "    three\n"
	    "B = x || \\ \n"			/* blanks after the '\' (the seed has them) */
	    "  y\n"
	    "C = tail \\\n");			/* continued into the end of the file */

	CHECK(strcmp(str(c, "A"), "one two three") == 0);
	CHECK(strcmp(str(c, "B"), "x || y") == 0);
	CHECK(strcmp(str(c, "C"), "tail") == 0);
	ca_config_free(c);

	/* errors keep the line and column of a continued line */
	CHECK(load_fails("A = 1 + \\\n      $(B \\\n  + 2\n", 2, 7, "unbalanced"));
	c = cfg_of("X = 1 + \\\n   $(Y)\nY = $(X)\n");
	CHECK(lookup_fails(c, "X", 3, 5, "X -> Y -> X"));
	CHECK(lookup_fails(c, "Y", 2, 4, "Y -> X -> Y"));
	ca_config_free(c);

	/* a syntax error in a continued expression points into the file */
	c = cfg_of("E = (1 + \\\n     2)) \n");
	ca_arena a = { 0 };
	ca_expr *e;
	CHECK(ca_config_expr(c, "E", &a, 0, &e, &err) < 0 && err.line == 2 && err.col == 8);
	ca_arena_free(&a);
	ca_config_free(c);
}

UNIT_SUITE(config_blocks)
{
	ca_config *c = cfg_of(
	    "N = 1\n"
	    "if defined N\n"
	    "  IN = yes\n"
	    "else\n"
	    "  IN = no\n"
	    "endif\n"
	    "if ! defined N\n"
	    "  D = 1\n"
	    "elif $(N) > 2\n"
	    "  D = 2\n"
	    "elif true\n"
	    "  D = 3\n"
	    "else\n"
	    "  D = 4\n"
	    "endif\n"
	    "if false\n"
	    "  if true\n"
	    "    SKIPPED = 1\n"
	    "  endif\n"
	    "  junk that would be an error\n"
	    "endif\n"
	    "T @=end\n"
	    "  GPUs = 2 : Capability >= 8.0\n"
	    "  90%\n"
	    "@end\n"
	    "AFTER = ok\n");

	CHECK(strcmp(str(c, "IN"), "yes") == 0);
	CHECK(strcmp(str(c, "D"), "3") == 0);
	CHECK(!ca_config_defined(c, "SKIPPED"));
	/* each line trimmed, as HTCondor reads them */
	CHECK(strcmp(str(c, "T"), "GPUs = 2 : Capability >= 8.0\n90%") == 0);
	CHECK(strcmp(str(c, "AFTER"), "ok") == 0);
	ca_config_free(c);

	CHECK(load_fails("if true\nA = 1\n", 1, 1, "'if' without 'endif'"));
	CHECK(load_fails("A = 1\nendif\n", 2, 1, "without 'if'"));
	CHECK(load_fails("if true\nelse\nelse\nendif\n", 3, 1, "second 'else'"));
	CHECK(load_fails("if version > 5.0\nendif\n", 1, 4, "is not a version"));
	CHECK(load_fails("if 1 +\nendif\n", 1, 4, "neither true nor false"));
	CHECK(load_fails("T @=end\nline\n", 1, 3, "no '@end' line"));
	CHECK(load_fails("A = 1\nJUSTANAME\n", 2, 10, "expected '='"));
	CHECK(load_fails("A = 1\n = 2\n", 2, 2, "expected a name"));
	CHECK(load_fails("A = $(B C)\n", 1, 5, "bad macro name"));
	CHECK(load_fails("A = $()\n", 1, 5, "bad macro name"));
	CHECK(load_fails("use POLICY : Nope\n", 1, 14, "unknown template POLICY:Nope"));

	c = ca_config_new();
	CHECK(ca_config_load_mem(c, "t.cfg", "A = 1\nB = 2\0\n", 13, &err) < 0 &&
	    err.line == 2 && err.col == 6 && strstr(err.msg, "NUL") != NULL);
	ca_config_free(c);
	c = cfg_of("F = $RANDOM_CHOICE(1,2)\nG = $NOSUCH(1,2)\n");
	CHECK(strcmp(str(c, "F"), "1") == 0 || strcmp(str(c, "F"), "2") == 0);
	CHECK(strcmp(str(c, "G"), "$NOSUCH(1,2)") == 0);	/* no function: text */
	ca_config_free(c);

	/* templates */
	c = ca_config_new();
	ca_config_add_template(c, "POLICY", "Desktop", "IS_OWNER = (START =?= FALSE)\nT = $(X)\n");
	const char *text = "X = 1\nuse policy : desktop\n";
	CHECK(ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) == 0);
	CHECK(strcmp(str(c, "IS_OWNER"), "(START =?= FALSE)") == 0);
	CHECK(strcmp(str(c, "T"), "1") == 0);
	CHECK(ca_config_locate(c, "T", &err) && strcmp(err.file, "<use POLICY:Desktop>") == 0 &&
	    err.line == 2);
	ca_config_free(c);
}

UNIT_SUITE(config_include)
{
	char dir[] = "/tmp/t_config.XXXXXX";
	char path[256], main_cfg[256];
	FILE *fp;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/sub.cfg", dir);
	fp = fopen(path, "w");
	fputs("SUB = from sub\nA = $(A) and sub\n", fp);
	fclose(fp);
	snprintf(main_cfg, sizeof main_cfg, "%s/main.cfg", dir);
	fp = fopen(main_cfg, "w");
	fputs("A = main\ninclude : sub.cfg\ninclude ifexist : missing.cfg\nB = $(SUB)!\n", fp);
	fclose(fp);

	ca_config *c = ca_config_new();
	CHECK(ca_config_load(c, main_cfg, &err) == 0);
	CHECK(strcmp(str(c, "B"), "from sub!") == 0);
	CHECK(strcmp(str(c, "A"), "main and sub") == 0);
	CHECK(ca_config_locate(c, "SUB", &err) && strcmp(err.file, path) == 0 && err.line == 1);
	ca_config_free(c);

	/* a missing include, and an include of itself */
	fp = fopen(main_cfg, "w");
	fputs("A = 1\ninclude : nothere.cfg\n", fp);
	fclose(fp);
	c = ca_config_new();
	CHECK(ca_config_load(c, main_cfg, &err) < 0 && (err.status == CA_EX_SYSTEM) == 1 && err.line == 2);
	ca_config_free(c);
	fp = fopen(main_cfg, "w");
	fputs("include : main.cfg\n", fp);
	fclose(fp);
	c = ca_config_new();
	CHECK(ca_config_load(c, main_cfg, &err) < 0 && strstr(err.msg, "nested") != NULL);
	ca_config_free(c);
	c = ca_config_new();
	CHECK(ca_config_load(c, "/nonexistent/x.cfg", &err) < 0 && (err.status == CA_EX_SYSTEM) == 1);
	ca_config_free(c);
	unlink(path);
	unlink(main_cfg);
	rmdir(dir);
}

UNIT_SUITE(config_typed)
{
	ca_config *c = cfg_of(
	    "MINUTE = 60\n"
	    "HOUR = (60 * $(MINUTE))\n"
	    "HALFLIFE = 24 * $(HOUR)\n"
	    "R = 1.5e3\n"
	    "WHOLE = 2.0\n"
	    "FRAC = 2.5\n"
	    "T1 = TRUE\n"
	    "T2 = yes\n"
	    "T3 = 1 < 2\n"
	    "F1 = no\n"
	    "F2 = 0\n"
	    "S = \"text\"\n"
	    "BAD = 1 +\n"
	    "REF = Cpus * 2\n");
	int64_t i = 0;
	double d = 0;
	bool b = false;

	CHECK(ca_config_int(c, "HALFLIFE", &i, &err) == 1 && i == 86400);
	CHECK(ca_config_int(c, "WHOLE", &i, &err) == 1 && i == 2);
	CHECK(ca_config_int(c, "FRAC", &i, &err) < 0 && strstr(err.msg, "not an integer"));
	CHECK(ca_config_int(c, "S", &i, &err) < 0 && err.line == 12 && err.col == 5);
	CHECK(ca_config_real(c, "R", &d, &err) == 1 && d == 1500.0);
	CHECK(ca_config_real(c, "HOUR", &d, &err) == 1 && d == 3600.0);
	CHECK(ca_config_real(c, "NOPE", &d, &err) == 0 && d == 3600.0);
	CHECK(ca_config_real(c, "REF", &d, &err) < 0);	/* undefined attribute */
	CHECK(ca_config_bool(c, "T1", &b, &err) == 1 && b);
	CHECK(ca_config_bool(c, "T2", &b, &err) == 1 && b);
	b = false;
	CHECK(ca_config_bool(c, "T3", &b, &err) == 1 && b);
	CHECK(ca_config_bool(c, "F1", &b, &err) == 1 && !b);
	b = true;
	CHECK(ca_config_bool(c, "F2", &b, &err) == 1 && !b);
	CHECK(ca_config_bool(c, "S", &b, &err) < 0);
	CHECK(ca_config_int(c, "BAD", &i, &err) < 0 && err.line == 13 && err.col == 10);

	/* an expression in the caller's arena, evaluated against an ad */
	ca_arena a = { 0 };
	ca_expr *e = NULL;
	CHECK(ca_config_expr(c, "REF", &a, 0, &e, &err) == 1 && e != NULL);
	CHECK(ca_config_expr(c, "NOPE", &a, 0, &e, &err) == 0);
	ca_arena_free(&a);
	ca_value v = eval_in(c, "REF", "Cpus = 4");
	CHECK(v.kind == CA_INT && v.u.i == 8);
	ca_config_free(c);
}

/* The seeds' policy examples load verbatim, and mean what they say. */
UNIT_SUITE(config_seeds)
{
	static const char *const files[] = {
		"seed-policy.config", "seed-testjob.config", "seed-timeofday.config",
		"seed-desktop.config", "seed-retirement.config", "seed-nopreempt.config",
		"seed-resources.config", "seed-gpus.config", "seed-suspendable.config"
	};
	ca_config *c;

	for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
		c = ca_config_new();
		int rc = ca_config_load(c, data(files[k]), &err);
		if (rc < 0)
			fprintf(stderr, "t_config: %s:%d:%d: %s\n", err.file, err.line, err.col,
			    err.msg);
		CHECK(rc == 0);
		ca_config_free(c);
	}

	/* 3.5.10.1: the whole default policy */
	c = ca_config_new();
	CHECK(ca_config_load(c, data("seed-policy.config"), &err) == 0);
	const char *idle = "KeyboardIdle = 3600; LoadAvg = 0.1; CondorLoadAvg = 0.0; "
	    "State = \"Unclaimed\"; Owner = \"miles\"";
	const char *busy = "KeyboardIdle = 10; LoadAvg = 0.1; CondorLoadAvg = 0.0; "
	    "State = \"Unclaimed\"; Owner = \"miles\"";
	CHECK(is_true(eval_in(c, "START", idle)));
	CHECK(is_false(eval_in(c, "START", busy)));
	CHECK(is_true(eval_in(c, "SUSPEND", busy)));
	/* the "|| \ " line with a blank after the backslash */
	ca_value v = eval_in(c, "PERIODIC_CHECKPOINT",
	    "ImageSize = 1000; LastPeriodicCheckpoint = 0; CurrentTime = 30000");
	CHECK(is_true(v));
	int64_t i = 0;
	CHECK(ca_config_int(c, "HOUR", &i, &err) == 1 && i == 3600);
	/* MachineBusy has an unbalanced '(' in the seed: it loads, and only a
	 * lookup as an expression reports it, at its line */
	ca_arena a = { 0 };
	ca_expr *e;
	CHECK(ca_config_expr(c, "MachineBusy", &a, 0, &e, &err) < 0 && err.line == 22);
	ca_arena_free(&a);

	/* 3.5.10.2 on top: coltrane's test jobs always start */
	CHECK(ca_config_load(c, data("seed-testjob.config"), &err) == 0);
	CHECK(is_true(eval_in(c, "START", "KeyboardIdle = 10; LoadAvg = 1.0; "
	    "CondorLoadAvg = 0.0; State = \"Unclaimed\"; Owner = \"coltrane\"")));
	CHECK(is_false(eval_in(c, "START", busy)));
	CHECK(is_false(eval_in(c, "SUSPEND", "KeyboardIdle = 10; Owner = \"coltrane\"")));
	CHECK(is_true(eval_in(c, "SUSPEND", busy)));
	/* 3.5.10.5: retirement time in terms of HOUR */
	CHECK(ca_config_load(c, data("seed-retirement.config"), &err) == 0);
	CHECK(ca_config_int(c, "MAXJOBRETIREMENTTIME", &i, &err) == 1 && i == 172800);
	/* 3.5.10.3: time of day */
	CHECK(ca_config_load(c, data("seed-timeofday.config"), &err) == 0);
	CHECK(is_false(eval_in(c, "START", "ClockMin = 600; ClockDay = 2; KeyboardIdle = 3600; "
	    "LoadAvg = 0.0; CondorLoadAvg = 0.0")));
	CHECK(is_true(eval_in(c, "START", "ClockMin = 1200; ClockDay = 2; KeyboardIdle = 3600; "
	    "LoadAvg = 0.0; CondorLoadAvg = 0.0")));
	/* 3.5.10.4: desktop / non-desktop */
	CHECK(ca_config_load(c, data("seed-desktop.config"), &err) == 0);
	CHECK(is_true(eval_in(c, "START", "IsDesktop = false; KeyboardIdle = 1; LoadAvg = 0.0; "
	    "CondorLoadAvg = 0.0; State = \"Unclaimed\"")));
	CHECK(is_false(eval_in(c, "START", "IsDesktop = true; KeyboardIdle = 1; LoadAvg = 0.0; "
	    "CondorLoadAvg = 0.0; State = \"Unclaimed\"")));
	/* 3.5.10.5: no preemption */
	CHECK(ca_config_load(c, data("seed-nopreempt.config"), &err) == 0);
	bool b = true;
	CHECK(ca_config_bool(c, "PREEMPTION_REQUIREMENTS", &b, &err) == 1 && !b);
	ca_config_free(c);

	/* 001: "if defined" only extends a list that exists */
	c = ca_config_new();
	CHECK(ca_config_load(c, data("seed-resources.config"), &err) == 0);
	CHECK(!ca_config_defined(c, "MACHINE_RESOURCE_NAMES"));
	CHECK(strcmp(str(c, "SLOT_TYPE_2"), "cogs=25%,actuator=1,25%") == 0);
	ca_config_free(c);
	c = ca_config_new();
	CHECK(ca_config_set(c, "MACHINE_RESOURCE_NAMES", "GPUS", NULL, &err) == 0);
	CHECK(ca_config_load(c, data("seed-resources.config"), &err) == 0);
	CHECK(strcmp(str(c, "MACHINE_RESOURCE_NAMES"), "GPUS Cogs actuator") == 0);
	ca_config_free(c);
	/* 001: multi-line slot types */
	c = ca_config_new();
	CHECK(ca_config_load(c, data("seed-gpus.config"), &err) == 0);
	CHECK(strstr(str(c, "SLOT_TYPE_2"), "CPUs = 1\n") != NULL);
	CHECK(strcmp(str(c, "SLOT_TYPE_3"), "auto") == 0);
	ca_config_free(c);
	/* 001: suspendable slots, with the startd's DETECTED_CORES */
	c = ca_config_new();
	CHECK(ca_config_set(c, "DETECTED_CORES", "4", "startd", &err) == 0);
	CHECK(ca_config_load(c, data("seed-suspendable.config"), &err) == 0);
	CHECK(is_true(eval_in(c, "START", "IsSuspendableSlot = false")));
	CHECK(is_true(eval_in(c, "CONTINUE", "IsSuspendableSlot = false")));
	CHECK(ca_config_int(c, "NUM_CPUS", &i, &err) == 1 && i == 8);
	ca_config_free(c);
	eval_in(NULL, NULL, NULL);
}

UNIT_SUITE(config_defaults)
{
	/* the table is sorted for its binary search */
	for (size_t i = 1; i < cfg_default_count(); i++)
		CHECK(strcasecmp(cfg_default_name_at(i - 1), cfg_default_name_at(i)) < 0);

	ca_config *c = cfg_of("");
	int64_t i = 0;
	double d = 0;
	bool b = false;
	CHECK(ca_config_count(c) == 0);		/* defaults are not listed */
	CHECK(ca_config_int(c, "MATCH_TIMEOUT", &i, &err) == 1 && i == 120);
	CHECK(ca_config_real(c, "PRIORITY_HALFLIFE", &d, &err) == 1 && d == 86400);
	CHECK(ca_config_real(c, "DEFAULT_PRIO_FACTOR", &d, &err) == 1 && d == 1.0);
	CHECK(ca_config_bool(c, "NEGOTIATOR_CONSIDER_PREEMPTION", &b, &err) == 1 && b);
	CHECK(ca_config_int(c, "HOUR", &i, &err) == 1 && i == 3600);
	CHECK(ca_config_defined(c, "START"));
	CHECK(!ca_config_defined(c, "PREEMPTION_REQUIREMENTS"));	/* the negotiator's rule */
	CHECK(!ca_config_defined(c, "SLOT_WEIGHT") && !ca_config_defined(c, "UID_DOMAIN"));
	CHECK(ca_config_locate(c, "MATCH_TIMEOUT", &err) &&
	    strcmp(err.file, "<built-in default>") == 0 && err.line == 0);
	CHECK(strcmp(ca_config_raw(c, "MaxVacateTime"), "10 * $(MINUTE)") == 0);
	CHECK(is(c, "MachineMaxVacateTime", "10 * 60"));
	ca_config_info in;
	CHECK(ca_config_info_of(c, "KILLING_TIMEOUT", false, &in) &&
	    in.origin == CA_CONFIG_FROM_DEFAULT && strcmp(in.dflt, "30") == 0);
	CHECK(!ca_config_info_of(c, "NO_SUCH_KNOB", false, &in) && in.dflt == NULL);
	ca_config_free(c);

	/* a definition replaces the default; the subsystem's own default wins */
	c = cfg_of("MATCH_TIMEOUT = 600\n");
	CHECK(ca_config_int(c, "MATCH_TIMEOUT", &i, &err) == 1 && i == 600);
	CHECK(ca_config_count(c) == 1);
	CHECK(is(c, "IsNegotiator", "False"));
	ca_config_set_subsys(c, "NEGOTIATOR");
	CHECK(is(c, "IsNegotiator", "True") && is(c, "SUBSYSTEM", "NEGOTIATOR"));
	CHECK(strcmp(ca_config_default(c, "IsNegotiator"), "True") == 0);
	ca_config_free(c);
}

UNIT_SUITE(config_functions)
{
	ca_config *c = cfg_of(
	    "X = 2\nY = 6\nXY = $(X) * $(Y)\n"
	    "I1 = $INT(XY)\nI2 = $INT(XY,%04d)\nI3 = $INT(2.9)\nI4 = $INT(-2.9)\nI5 = $INT(true)\n"
	    "I6 = $INT(XY,%x and %%)\n"
	    "R1 = $REAL(XY)\nR2 = $REAL(1,%.1e)\nR3 = $REAL(2,%g)\nR4 = $REAL(1.5)\n"
	    "S1 = $STRING(\"quoted\")\nS2 = $STRING(bare words)\nS3 = $STRING(X,<%5s>)\n"
	    "E1 = $EVAL(XY)\nE2 = $EVAL(1.5 * 2)\nE3 = $EVAL(undefined)\nE4 = $EVAL(\"s\")\n"
	    "E5 = $EVAL(max({1, $(X), 3}))\n"
	    "C1 = $CHOICE(0, a, , c)\nC2 = $CHOICE(1, a, , c)\nC3 = $CHOICE(X, a, b, c)\n"
	    "N = abcdef\nSB1 = $SUBSTR(N, -10)\nSB2 = $SUBSTR(N, 10)\nSB3 = $SUBSTR(N, 1, -10)\n"
	    "SB4 = [$SUBSTR(UNDEFINED_NAME, 1)]\nSB5 = $SUBSTR(N, X, X)\n"
	    "P = /a/b/c/file.tar.gz\nQ = file\n"
	    "F1 = $Fdd(P)|$Fddb(P)|$Fdn(P)|$Fpn(P)|$Fq(P)|$Fqa(Q)|$Fd(Q)|$Fqd(Q)|$F(P)\n"
	    "F2 = $BASENAME(P, .tar.gz)|$BASENAME(P, .zip)|$DIRNAME(Q)|$Fx(Q)|$Fp(/)\n"
	    "F3 = $Fn(\"/quoted/name.txt\")|$Fu(a\\b\\c.d)\n");
	CHECK(is(c, "I1", "12") && is(c, "I2", "0012") && is(c, "I3", "2") && is(c, "I4", "-2"));
	CHECK(is(c, "I5", "1") && is(c, "I6", "c and %"));
	CHECK(is(c, "R1", "12") && is(c, "R2", "1.0e+00") && is(c, "R3", "2.0") && is(c, "R4", "1.5"));
	CHECK(is(c, "S1", "quoted") && is(c, "S2", "bare words") && is(c, "S3", "<    2>"));
	CHECK(is(c, "E1", "12") && is(c, "E2", "3.0") && is(c, "E3", "undefined") &&
	    is(c, "E4", "s") && is(c, "E5", "3"));
	CHECK(is(c, "C1", "a") && is(c, "C2", "") && is(c, "C3", "c"));
	CHECK(is(c, "SB1", "abcdef") && is(c, "SB2", "") && is(c, "SB3", "") &&
	    is(c, "SB4", "[]") && is(c, "SB5", "cd"));
	CHECK(is(c, "F1", "b/c/|b/c|c/file.tar|/a/b/c/file.tar|\"/a/b/c/file.tar.gz\"|'file'||\"\"|"
	    "/a/b/c/file.tar.gz"));
	CHECK(is(c, "F2", "file|file.tar.gz|||/"));
	CHECK(is(c, "F3", "name|a/b/c.d"));
	ca_config_free(c);

	/* formats that would let a value run past its buffer are refused */
	CHECK(fails("A = $INT(1,%n)\n", "A", "is not a valid format"));
	CHECK(fails("A = $INT(1,%*d)\n", "A", "is not a valid format"));
	CHECK(fails("A = $INT(1,%d%d)\n", "A", "is not a valid format"));
	CHECK(fails("A = $INT(1,%9999d)\n", "A", "is not a valid format"));
	CHECK(fails("A = $REAL(1,%s)\n", "A", "is not a valid format"));
	CHECK(fails("A = $STRING(1,%d)\n", "A", "is not a valid format"));
	CHECK(fails("A = $REAL(abc)\n", "A", "does not evaluate to a real"));
	CHECK(fails("A = $CHOICE(-1, a)\n", "A", "not a valid index"));
	CHECK(fails("A = $CHOICE(0, NOLIST)\n", "A", "no list named 'NOLIST'"));
	CHECK(fails("A = $CHOICE(0)\n", "A", "no list to choose from"));
	CHECK(fails("A = $SUBSTR(N)\n", "A", "no start index"));
	CHECK(fails("A = $RANDOM_CHOICE()\n", "A", "no list to choose from"));
	CHECK(fails("A = $RANDOM_INTEGER(1, 5, 0)\n", "A", "step 0 is not positive"));
	CHECK(fails("A = $RANDOM_INTEGER(x, 5)\n", "A", "min 'x' is not an integer"));

	/* $EVAL's time() is the configuration's clock */
	c = cfg_of("T = $EVAL(time())\n");
	ca_config_set_now(c, 1234567890);
	CHECK(is(c, "T", "1234567890"));
	ca_config_free(c);
}

UNIT_SUITE(config_random)
{
	const char *text = "A = $RANDOM_INTEGER(0, 1000000)\nB = $RANDOM_INTEGER(0, 1000000)\n"
	    "C = $RANDOM_INTEGER(0, 1000000)$RANDOM_INTEGER(0, 1000000)\n";
	ca_config *c = cfg_of(text);
	char a[512], b[512];

	snprintf(a, sizeof a, "%s", str(c, "A"));
	snprintf(b, sizeof b, "%s", str(c, "B"));
	CHECK(is(c, "A", a));			/* the same at every lookup */
	CHECK(strcmp(a, b) != 0);		/* another knob, another draw */
	ca_config_set_seed(c, 42);
	CHECK(strcmp(str(c, "A"), a) != 0);	/* another seed, another draw */
	ca_config_free(c);
	c = cfg_of(text);
	ca_config_set_seed(c, 42);
	char a42[512];
	snprintf(a42, sizeof a42, "%s", str(c, "A"));
	ca_config_free(c);
	c = cfg_of(text);
	ca_config_set_seed(c, 42);
	CHECK(is(c, "A", a42));			/* reproducible */
	ca_config_free(c);
}

UNIT_SUITE(config_template_args)
{
	ca_config *c = ca_config_new();
	ca_config_add_template(c, "FEATURE", "Args",
	    "ALL = [$(0)]\nN = $(0#)\nHAS1 = $(1?)\nHAS4 = $(4?)\nONE = [$(1)]\nTWO = [$(2)]\n"
	    "REST = [$(2+)]\nD4 = $(4:four)\nD1 = $(1:unused)\nNESTED = $(5:x$(1:y)z)\n"
	    "KEEP = $$(1) $(NAME)\n");
	const char *text = "use FEATURE : Args( a , , b c, d )\n";
	CHECK(ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) == 0);
	/* empty arguments are left out, as HTCondor splits them */
	CHECK(is(c, "ALL", "[a , , b c, d]") && is(c, "N", "3") && is(c, "HAS1", "1"));
	CHECK(is(c, "HAS4", "0") && is(c, "ONE", "[a]") && is(c, "TWO", "[b c]"));
	CHECK(is(c, "REST", "[, b c, d]") && is(c, "D4", "four") && is(c, "D1", "a"));
	CHECK(is(c, "NESTED", "xaz") && is(c, "KEEP", "$$(1) "));
	ca_config_free(c);

	/* an argument that holds $(1) is put in once, not expanded again */
	c = ca_config_new();
	ca_config_add_template(c, "FEATURE", "Self", "V = $(1)\n");
	text = "use FEATURE : Self($(1))\n";
	CHECK(ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) == 0);
	CHECK(strcmp(ca_config_raw(c, "V"), "$(1)") == 0 && is(c, "V", ""));
	ca_config_free(c);

	/* a registered template takes the place of HTCondor's */
	c = ca_config_new();
	ca_config_add_template(c, "POLICY", "Desktop", "START = ours\n");
	text = "use policy : DESKTOP\n";
	CHECK(ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) == 0);
	CHECK(is(c, "START", "ours"));
	ca_config_use u;
	CHECK(ca_config_use_count(c) == 1);
	ca_config_use_at(c, 0, &u);
	CHECK(strcmp(u.name, "Desktop") == 0 && u.simulated && u.line == 1 && u.args == NULL);
	ca_config_free(c);

	/* the uses, nested ones too, and whether they are simulated */
	c = cfg_of("use SECURITY : recommended\nuse POLICY : Preempt_If_Memory_Exceeded\n");
	CHECK(ca_config_use_count(c) == 5);
	ca_config_use_at(c, 1, &u);
	CHECK(strcmp(u.name, "recommended_v24_0") == 0 && !u.simulated && u.line == 1);
	ca_config_use_at(c, 4, &u);
	CHECK(strcmp(u.name, "PREEMPT_IF") == 0 && u.simulated && u.line == 2 &&
	    strcmp(u.args, "MEMORY_EXCEEDED") == 0);
	ca_config_info in;
	CHECK(ca_config_info_of(c, "PREEMPT", false, &in) && strcmp(in.file, "t.cfg") == 0 &&
	    in.line == 2 && strcmp(in.tmpl, "POLICY:PREEMPT_IF") == 0 && in.tmpl_line == 5);
	/* PREEMPT has a default, so "if defined PREEMPT" held, as in HTCondor */
	CHECK(is(c, "PREEMPT", "(JobUniverse != 13 && MemoryUsage =!= UNDEFINED && "
	    "MemoryUsage > Memory) || False"));
	ca_config_free(c);

	/* every template HTCondor ships loads, with no arguments or with some */
	for (size_t k = 0; k < cfg_template_builtin_count(); k++) {
		const struct cfg_builtin_tmpl *t = cfg_template_builtin_at(k);
		static const char *const args[] = { "", "(1, 2, 3, 4, 5, 6)" };
		for (int j = 0; j < 2; j++) {
			char line[256];
			snprintf(line, sizeof line, "CondorIsAdmin = true\nuse %s : %s%s\n",
			    t->category, t->name, args[j]);
			c = ca_config_new();
			int rc = ca_config_load_mem(c, "t.cfg", line, strlen(line), &err);
			bool needs_args = rc < 0 && strstr(err.msg, "error:") != NULL;
			if (rc < 0 && !(j == 0 && needs_args))
				fprintf(stderr, "t_config_lang: %s:%s%s: %s\n", t->category, t->name,
				    args[j], err.msg);
			CHECK(rc == 0 || (j == 0 && needs_args));
			/* and every knob it sets expands */
			for (size_t n = 0; rc == 0 && n < ca_config_count(c); n++) {
				strbuf sb = STRBUF_INIT;
				int e = ca_config_string(c, ca_config_name_at(c, n), &sb, &err);
				if (e < 0)
					fprintf(stderr, "t_config_lang: %s:%s: %s: %s\n", t->category,
					    t->name, ca_config_name_at(c, n), err.msg);
				CHECK(e >= 0);
				strbuf_release(&sb);
			}
			ca_config_free(c);
		}
	}
}

UNIT_SUITE(config_self_and_prefixes)
{
	ca_config *c = ca_config_new();
	ca_config_set_subsys(c, "NEGOTIATOR");
	const char *text = "X = base\nNEGOTIATOR.X = $(X) neg\nY = $(Y:dflt) y\nEMPTY =\n"
	    "E = $(EMPTY:was empty)\nL = a\nL = $(L:zzz) b\n";
	CHECK(ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) == 0);
	CHECK(is(c, "X", "base neg"));
	CHECK(is(c, "Y", "dflt y") && is(c, "E", "was empty") && is(c, "L", "a b"));
	ca_config_set_localname(c, "ONE");
	CHECK(ca_config_set(c, "ONE.X", "local", NULL, &err) == 0);
	CHECK(is(c, "X", "local") && is(c, "LOCALNAME", "ONE"));
	ca_config_info in;
	CHECK(ca_config_info_of(c, "X", false, &in) && strcmp(in.name, "ONE.X") == 0);
	CHECK(ca_config_info_of(c, "X", true, &in) && strcmp(in.name, "X") == 0);
	ca_config_free(c);
}

static int nunsim;
static char unsim_seen[512];

static void
count_unsim(void *arg, const ca_config_unsim *u)
{
	(void)arg;
	nunsim++;
	size_t l = strlen(unsim_seen);
	snprintf(unsim_seen + l, sizeof unsim_seen - l, "%s:%d:%s ", u->file, u->line, u->name);
}

UNIT_SUITE(config_unsimulated)
{
	ca_config *c = cfg_of(
	    "NEGOTIATOR_DEPTH_FIRST = False\n"	/* the harmless value */
	    "GROUP_AUTOREGROUP = true\n"
	    "FOO_LIMIT = 4\n"
	    "SCHEDD.MAX_JOBS_RUNNING = 100\n"
	    "NEGOTIATOR.USE_GLOBAL_JOB_PRIOS = True\n"
	    "STARTD_CRON_JOBLIST =\n"		/* empty: nothing to warn of */
	    "RESERVED_MEMORY = 512\n"
	    "use FEATURE : GPUs\n");		/* custom resources are simulated */
	nunsim = 0;
	unsim_seen[0] = '\0';
	/* GROUP_AUTOREGROUP and concurrency limits (FOO_LIMIT) are simulated */
	CHECK(ca_config_unsimulated(c, "NEGOTIATOR", count_unsim, NULL) == 1);
	CHECK(strcmp(unsim_seen, "t.cfg:5:NEGOTIATOR.USE_GLOBAL_JOB_PRIOS ") == 0);
	unsim_seen[0] = '\0';
	CHECK(ca_config_unsimulated(c, "STARTD", count_unsim, NULL) == 1);
	CHECK(strcmp(unsim_seen, "t.cfg:7:RESERVED_MEMORY ") == 0);
	CHECK(ca_config_unsimulated(c, "SCHEDD", NULL, NULL) == 1);
	CHECK(ca_config_unsimulated(c, NULL, NULL, NULL) == 3);
	ca_config_unsim u = { "X_LIMIT", "NEGOTIATOR", "a concurrency limit", "f.cfg", 3, NULL };
	strbuf sb = STRBUF_INIT;
	ca_config_unsim_format(&u, &sb);
	CHECK(strcmp(sb.buf, "f.cfg:3: X_LIMIT is not simulated (NEGOTIATOR: a concurrency limit)")
	    == 0);
	strbuf_release(&sb);
	ca_config_free(c);

	/* warning lines and ':' assignments are collected, not printed */
	c = cfg_of("warning : look\nOLD : x\nRunBenchmarks : false\n");
	CHECK(strcmp(ca_config_warnings(c), "t.cfg:1: warning: look\n"
	    "t.cfg:2: obsolete ':' assignment of OLD (use '=')\n") == 0);
	ca_config_free(c);
}

UNIT_SUITE(config_conditions)
{
	ca_config *c = cfg_of(
	    "if version >= 8.1.6\nA = 1\nendif\n"
	    "if version <= 24.0\nB = 1\nendif\n"		/* 24.0 is 24.0.0 here */
	    "if !version < 10.0\nD = 1\nendif\n"
	    "if defined use POLICY\nE = 1\nendif\n"
	    "if defined use POLICY:NOPE\nF = 1\nendif\n"
	    "if defined 1\nG = 1\nendif\n"
	    "if t\nH = 1\nendif\n"
	    "if ! f\nI = 1\nendif\n"
	    "if -1\nJ = 1\nendif\n"
	    "if 2 > 1 && 3 > 2\nK = 1\nendif\n");
	CHECK(is(c, "A", "1") && is(c, "B", "1") && is(c, "D", "1") && is(c, "E", "1"));
	CHECK(is(c, "F", "<undefined>") && is(c, "G", "1") && is(c, "H", "1") && is(c, "I", "1"));
	CHECK(is(c, "J", "1") && is(c, "K", "1"));
	ca_config_free(c);
	CHECK(fails("if version > 23\nendif\n", NULL, "is not a version"));
	CHECK(fails("if version > 5.1\nendif\n", NULL, "is not a version"));
	CHECK(fails("if defined a b\nendif\n", NULL, "'defined' needs a name"));
	CHECK(fails("if FOO\nendif\n", NULL, "neither true nor false"));
	CHECK(fails("if defined use POLICY: X\nendif\n", NULL, "never holds"));
	/* the condition's macros see the subsystem */
	c = ca_config_new();
	ca_config_set_subsys(c, "STARTD");
	const char *text = "STARTD.ON = true\nON = false\nif $(ON)\nA = startd\nendif\n";
	CHECK(ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) == 0);
	CHECK(is(c, "A", "startd"));
	ca_config_free(c);
}

UNIT_SUITE(config_hostile_lang)
{
	/* a value made large by a function of a large value: the work ends */
	strbuf sb = STRBUF_INIT;
	strbuf_adds(&sb, "A0 = xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n");
	for (int i = 1; i <= 18; i++)
		strbuf_addf(&sb, "A%d = $(A%d)$(A%d)\n", i, i - 1, i - 1);
	strbuf_adds(&sb, "B0 = $SUBSTR(A18, 0, 1)\n");
	for (int i = 1; i <= 30; i++)
		strbuf_addf(&sb, "B%d = $SUBSTR(B%d, 0, 1)$SUBSTR(B%d, 0, 1)$SUBSTR(A18, 0, 1)\n", i,
		    i - 1, i - 1);
	time_t t0 = time(NULL);
	CHECK(fails(sb.buf, "B30", "of work"));
	CHECK(time(NULL) - t0 < 30);

	/* a result that expands to itself, through the environment */
	setenv("T_CONFIG_LOOP", "$ENV(T_CONFIG_LOOP)", 1);
	CHECK(fails("A = $ENV(T_CONFIG_LOOP)\n", "A", "nested more than 64 deep"));
	/* a template that uses itself */
	ca_config *c = ca_config_new();
	ca_config_add_template(c, "FEATURE", "Loop", "use FEATURE : Loop\n");
	const char *text = "use FEATURE : Loop\n";
	CHECK(ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) < 0 &&
	    strstr(err.msg, "nested more than 16 deep") != NULL && err.line == 1);
	ca_config_free(c);
	/* function bodies nested without end */
	strbuf_reset(&sb);
	strbuf_adds(&sb, "A = ");
	for (int i = 0; i < 2000; i++)
		strbuf_adds(&sb, "$EVAL(");
	for (int i = 0; i < 2000; i++)
		strbuf_addc(&sb, ')');
	CHECK(fails(sb.buf, "A", "nested more than 64 deep"));
	/* template arguments nested without end stop at a depth */
	c = ca_config_new();
	strbuf_reset(&sb);
	for (int i = 0; i < 5000; i++)
		strbuf_adds(&sb, "$(1:");
	for (int i = 0; i < 5000; i++)
		strbuf_addc(&sb, ')');
	strbuf_addc(&sb, '\n');
	strbuf out = STRBUF_INIT;
	cfg_meta_args(sb.buf, sb.len, NULL, 0, &out);
	CHECK(out.len > 0);
	strbuf_release(&out);
	ca_config_free(c);
	/* commands are refused when the program says so */
	c = ca_config_new();
	ca_config_set_command_timeout(c, 0);
	text = "include command : echo A = 1\n";
	CHECK(ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) < 0 &&
	    strstr(err.msg, "running commands is turned off") != NULL);
	ca_config_free(c);
	strbuf_release(&sb);
}

/* "A = $(A)$(A)" doubled A at each definition: forty lines took 10 GB.
 * Defaults nested 100,000 deep overflowed the C stack, when defined and
 * when expanded in an if or include line. A value from a double that does
 * not fit an integer was converted before it was checked (UBSan). */
UNIT_SUITE(hardening_config)
{
	strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "A = xxxxxxxxxx\n");
	for (int i = 0; i < 40; i++)
		strbuf_adds(&sb, "A = $(A)$(A)\n");
	CHECK(fails(sb.buf, NULL, "A with its previous value is longer than"));

	strbuf_reset(&sb);
	strbuf_adds(&sb, "A = ");
	for (int i = 0; i < 100000; i++)
		strbuf_adds(&sb, "$(X:");
	strbuf_addc(&sb, '1');
	for (int i = 0; i < 100000; i++)
		strbuf_addc(&sb, ')');
	CHECK(fails(sb.buf, "A", "macro defaults nested more than 64 deep"));
	memcpy(sb.buf, "if  ", 4);
	strbuf_adds(&sb, "\nB = 1\nendif\n");
	CHECK(fails(sb.buf, NULL, "macro defaults nested more than 64 deep"));

	ca_config *c = cfg_of("N = 2.2222e76\nM = real(\"NaN\")\n");
	int64_t i = 7;
	CHECK(ca_config_int(c, "N", &i, &err) < 0 && i == 7);
	CHECK(ca_config_int(c, "M", &i, &err) < 0 && i == 7);
	ca_config_free(c);
	strbuf_release(&sb);
}
