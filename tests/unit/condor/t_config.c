/* t_config.c - unit tests of lib/config.c: the condor_config syntax, macro
 * expansion and its errors, typed lookups, and the seeds' policy examples. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "classad.h"
#include "condor.h"

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
