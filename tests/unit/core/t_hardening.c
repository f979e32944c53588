/* t_hardening.c - regression tests for what fuzzing and the hostile-input
 * suite found in the library (tests/fuzz/, tests/hostile.bats): each case
 * names the input that used to crash, hang or lose data. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit.h"
#include "classad.h"

/* Parse src, print it, parse the text again and print that: both prints
 * must succeed and agree (the writers depend on it). */
static bool
round_trips(const char *src, int flags)
{
	ca_arena a = { 0 };
	ca_diag err;
	strbuf one = STRBUF_INIT, two = STRBUF_INIT;
	int pr = flags & CA_P_OLDSTR ? CA_PR_OLD : 0;
	bool ok = false;
	ca_expr *e = ca_parse_expr(&a, src, strlen(src), flags, &err);

	if (e != NULL) {
		ca_print_expr(&one, e, pr);
		ca_expr *again = ca_parse_expr(&a, one.buf, one.len, flags, &err);
		if (again != NULL) {
			ca_print_expr(&two, again, pr);
			ok = strcmp(one.buf, two.buf) == 0;
		}
	}
	if (!ok)
		fprintf(stderr, "  %s: printed as '%s', then '%s' (%s)\n", src, one.buf, two.buf,
		    err.msg);
	strbuf_release(&one);
	strbuf_release(&two);
	ca_arena_free(&a);
	return ok;
}

/* fuzz_parse found these: the printer wrote text that reads back as
 * something else, or not at all. */
UNIT_SUITE(hardening_print_round_trip)
{
	/* "-0" is the literal 0; the negation of 0 must print with a space */
	CHECK(round_trips("7 / -  0", 0));
	CHECK(round_trips("----0", 0));
	CHECK(round_trips("- 1.5", 0));
	/* "0.z" lexes as the real "0." followed by z */
	CHECK(round_trips("0 .z", 0));
	CHECK(round_trips("[ z = 1 ].y ?: 0 .z ?: 3", CA_P_OLDSTR));
	CHECK(round_trips("- 1e999", 0));
	CHECK(round_trips("- - 0.0", 0));
	CHECK(round_trips("- 0[x][x]", 0));
	CHECK(round_trips("- .5 .a", 0));
	/* a relTime of more days than the reader takes (INT32_MAX) */
	CHECK(round_trips("relTime(\"2147483647+23:59:59\")", 0));
	/* absTime literals the printer could not write back */
	CHECK(round_trips("absTime(\"9999-12-31T23:59:59Z\")", 0));
	CHECK(round_trips("absTime(\"8100-01-01T00:00:00+01:00\")", 0));
	CHECK(round_trips("absTime(\"0000-01-01T00:00:00Z\")", 0));
}

static char *
printed(const char *src)
{
	ca_arena a = { 0 };
	ca_diag err;
	strbuf sb = STRBUF_INIT;
	ca_expr *e = ca_parse_expr(&a, src, strlen(src), 0, &err);

	if (e == NULL)
		strbuf_addf(&sb, "ERR %s", err.msg);
	else
		ca_print_expr(&sb, e, 0);
	ca_arena_free(&a);
	return strbuf_detach(&sb, NULL);
}

static bool
prints_as(const char *src, const char *want)
{
	char *got = printed(src);
	bool ok = strncmp(got, want, strlen(want)) == 0;

	if (!ok)
		fprintf(stderr, "  %s printed as %s, want %s\n", src, got, want);
	free(got);
	return ok;
}

/* Years 8100-9999 printed as "(out of range)"; times the printer cannot
 * write (years past 9999 after the carry of month and day, offsets of 100
 * hours or more) are refused when parsed instead of printed as junk. */
UNIT_SUITE(hardening_abstime_range)
{
	CHECK(prints_as("absTime(\"9999-12-31T23:59:59Z\")",
	    "absTime(\"9999-12-31T23:59:59-00:00\")"));
	CHECK(prints_as("absTime(\"8100-06-01T00:00:00+02:00\")",
	    "absTime(\"8100-06-01T00:00:00+02:00\")"));
	CHECK(prints_as("absTime(\"9999-99-99T00:00:00Z\")", "ERR"));
	CHECK(prints_as("absTime(\"9999-12-32T00:00:00Z\")", "ERR"));
	CHECK(prints_as("absTime(\"2000-01-01T00:00:00+99:99\")", "ERR"));
	CHECK(prints_as("relTime(\"7+777777777777777777777\")", "ERR"));
}

/* Read text in format fmt: the number of ads and the first error. */
static int
read_all(const char *text, size_t len, ca_format fmt, int *nerr, ca_diag *first)
{
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", text, len, fmt, &err);
	int n = 0, rc;
	ca_ad *ad;

	*nerr = 0;
	while ((rc = ca_reader_next(r, &ad, &err)) != 0) {
		if (rc < 0) {
			if ((*nerr)++ == 0)
				*first = err;
			continue;
		}
		n++;
		ca_ad_free(ad);
	}
	ca_reader_close(r);
	return n;
}

/* A 1 MB name was read in the new, JSON and XML formats, and then written
 * in the long format, whose reader refuses it: no format takes a name the
 * long format cannot hold, and the ads around it are still read. */
UNIT_SUITE(hardening_long_names)
{
	size_t big = 1 << 20;
	char *name = malloc(big + 1);
	strbuf sb = STRBUF_INIT;
	ca_diag first;
	int nerr;

	memset(name, 'A', big);
	name[big] = '\0';
	strbuf_addf(&sb, "[ a = 1 ]\n[ %s = 1 ]\n[ b = 2 ]\n", name);
	CHECK(read_all(sb.buf, sb.len, CA_FMT_NEW, &nerr, &first) == 2 && nerr == 1);
	CHECK(strstr(first.msg, "longer than 65534 bytes") != NULL && first.line == 2);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "[ { \"a\": 1 }, { \"%s\": 1 }, { \"b\": 2 } ]", name);
	CHECK(read_all(sb.buf, sb.len, CA_FMT_JSON, &nerr, &first) == 2 && nerr == 1);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "<classads><c><a n=\"%s\"><i>1</i></a></c></classads>", name);
	CHECK(read_all(sb.buf, sb.len, CA_FMT_XML, &nerr, &first) == 0 && nerr == 1);
	/* a name that fits is fine, in the long format too: "NAME = " within
	 * the 65536 bytes the long reader looks at for the '=' */
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%.*s = 1\n", 65534, name);
	CHECK(read_all(sb.buf, sb.len, CA_FMT_LONG, &nerr, &first) == 1 && nerr == 0);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%.*s = 1\n", 65535, name);
	CHECK(read_all(sb.buf, sb.len, CA_FMT_LONG, &nerr, &first) == 0 && nerr == 1);
	strbuf_release(&sb);
	free(name);
}

/* --explain evaluated each line with a fresh work bound, so expanding
 * "a0 = a1 + a1; a1 = a2 + a2; ..." took hours; attribute expansions of
 * 400-deep expressions overflowed the C stack under ASan. */
UNIT_SUITE(hardening_explain_bounds)
{
	strbuf src = STRBUF_INIT, out = STRBUF_INIT;
	ca_diag perr;
	ca_ctx cx;
	ca_arena a = { 0 };

	strbuf_adds(&src, "[ ");
	for (int i = 0; i < 60; i++)
		strbuf_addf(&src, "a%d = a%d + a%d; ", i, i + 1, i + 1);
	strbuf_adds(&src, "a60 = 1 ]");
	ca_ad *ad = ca_parse_ad(src.buf, src.len, NULL, 0, &perr);
	CHECK(ad != NULL);
	ca_ctx_init(&cx);
	cx.now = 1700000000;
	ca_expr *e = ca_parse_expr(&a, "a0", 2, 0, &perr);
	time_t t0 = time(NULL);
	ca_value v = ca_explain(&cx, e, ad, NULL, &out);
	CHECK(v.kind == CA_ERROR);
	CHECK(time(NULL) - t0 < 30);
	CHECK(strstr(out.buf, "parts are left out") != NULL);
	ca_arena_reset(&cx.scratch);
	ca_ad_free(ad);

	strbuf_reset(&src);
	strbuf_reset(&out);
	strbuf_adds(&src, "[ ");
	for (int i = 0; i < 13; i++) {
		strbuf_addf(&src, "a%d = ", i);
		for (int k = 0; k < 390; k++)
			strbuf_addc(&src, '-');
		strbuf_addf(&src, "a%d; ", i + 1);
	}
	strbuf_adds(&src, "a13 = 1 ]");
	ad = ca_parse_ad(src.buf, src.len, NULL, 0, &perr);
	CHECK(ad != NULL);
	v = ca_explain(&cx, e, ad, NULL, &out);
	CHECK(strstr(out.buf, "parts are left out") != NULL);
	ca_arena_reset(&cx.scratch);
	ca_ad_free(ad);

	/* an ordinary report is whole */
	strbuf_reset(&out);
	ad = ca_parse_ad("[ a0 = b + 1; b = 2 ]", 21, NULL, 0, &perr);
	v = ca_explain(&cx, e, ad, NULL, &out);
	CHECK(v.kind == CA_INT && v.u.i == 3 && strstr(out.buf, "left out") == NULL);
	ca_arena_reset(&cx.scratch);
	ca_ad_free(ad);

	ca_ctx_free(&cx);
	ca_arena_free(&a);
	strbuf_release(&src);
	strbuf_release(&out);
}

/* The long format wrote a string with a newline raw: the line split, the
 * file no longer read back, and a name like "x\"\nPriority = 0" could forge
 * attributes in userprio-calc's state. The writer now refuses that ad and
 * goes on with the next. */
UNIT_SUITE(hardening_long_newline)
{
	const char *src = "[ a = 1 ]\n[ b = \"x\\\"\\nPriority = 0\" ]\n[ c = { \"p\\nq\" } ]\n"
	    "[ d = 4 ]";
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", src, strlen(src), CA_FMT_NEW, &err);
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	ca_writer *w = ca_writer_open(fp, CA_FMT_LONG, false);
	ca_ad *ad;
	int put[4], n = 0;

	while (ca_reader_next(r, &ad, &err) == 1 && n < 4) {
		errno = 0;
		put[n] = ca_writer_put(w, ad) < 0 ? errno : 0;
		n++;
		ca_ad_free(ad);
	}
	ca_reader_close(r);
	CHECK(ca_writer_close(w) == 0);
	fclose(fp);
	CHECK(n == 4 && put[0] == 0 && put[1] == EILSEQ && put[2] == EILSEQ && put[3] == 0);
	CHECK(text != NULL && strcmp(text, "a = 1\n\nd = 4\n\n") == 0);
	free(text);
}

/* An XML document cut after its prolog read as an empty stream, exit 0:
 * "<?xml ...?>" with no <classads> is now an error; bare <c> elements
 * without any prolog are still a stream. */
UNIT_SUITE(hardening_xml_prolog)
{
	const char *cut = "<?xml version=\"1.0\"?>\n<!DOCTYPE classads SYSTEM \"classads.dtd\">\n";
	const char *bare = "<c><a n=\"x\"><i>1</i></a></c>\n";
	const char *empty = "<?xml version=\"1.0\"?>\n<classads>\n</classads>\n";
	ca_diag first;
	int nerr;

	CHECK(read_all(cut, strlen(cut), CA_FMT_AUTO, &nerr, &first) == 0 && nerr == 1);
	CHECK(strstr(first.msg, "missing <classads>") != NULL);
	CHECK(read_all(bare, strlen(bare), CA_FMT_XML, &nerr, &first) == 1 && nerr == 0);
	CHECK(read_all(empty, strlen(empty), CA_FMT_AUTO, &nerr, &first) == 0 && nerr == 0);
}

/* fuzz_parse: old strings read "C:\" back only at the end of a line, so
 * the long writer wrote { "C:\", "D:\" } as text that reads as something
 * else. It refuses such an ad now; a plain "C:\" value is still written. */
UNIT_SUITE(hardening_long_backslash)
{
	const char *src = "[ a = \"C:\\\\\" ]\n[ b = { \"C:\\\\\", \"D:\\\\\" } ]\n"
	    "[ c = \"x\\\\\" == a ]\n[ d = [ e = \"y\\\\\" ] ]\n";
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", src, strlen(src), CA_FMT_NEW, &err);
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	ca_writer *w = ca_writer_open(fp, CA_FMT_LONG, false);
	ca_ad *ad;
	int put[4], n = 0;

	while (ca_reader_next(r, &ad, &err) == 1 && n < 4) {
		errno = 0;
		put[n] = ca_writer_put(w, ad) < 0 ? errno : 0;
		n++;
		ca_ad_free(ad);
	}
	ca_reader_close(r);
	CHECK(ca_writer_close(w) == 0);
	fclose(fp);
	CHECK(n == 4 && put[0] == 0 && put[1] == EILSEQ && put[2] == EILSEQ && put[3] == EILSEQ);
	CHECK(text != NULL && strcmp(text, "a = \"C:\\\"\n\n") == 0);
	int nerr;
	ca_diag first;
	CHECK(read_all(text, strlen(text), CA_FMT_LONG, &nerr, &first) == 1 && nerr == 0);
	free(text);
}

/* An ad of a0 = a1 + a1 ... a60 = 1 (2^60 steps) and s1..s12 growing
 * ten-fold each, then what text adds. */
static ca_ad *
costly_ad(const char *more)
{
	strbuf sb = STRBUF_INIT;
	ca_diag err;

	strbuf_adds(&sb, "[ ");
	for (int i = 0; i < 60; i++)
		strbuf_addf(&sb, "a%d = a%d + a%d; ", i, i + 1, i + 1);
	strbuf_adds(&sb, "a60 = 1; s0 = \"xxxxxxxxxx\"; ");
	for (int i = 0; i < 12; i++)
		strbuf_addf(&sb, "s%d = replaceAll(\"x\", s%d, \"xxxxxxxxxx\"); ", i + 1, i);
	strbuf_addf(&sb, "%s ]", more);
	ca_ad *ad = ca_parse_ad(sb.buf, sb.len, NULL, 0, &err);
	strbuf_release(&sb);
	return ad;
}

static double
seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

UNIT_SUITE(hardening_eval_budgets)
{
	ca_ctx cx;
	ca_ad *job = costly_ad("Requirements = a0 > 0; RequestMemory = a0; Cheap = a59"),
	    *slot = costly_ad("Requirements = TARGET.RequestMemory > 0; Memory = 4000");
	ca_value v;

	CHECK(job != NULL && slot != NULL);
	ca_ctx_init(&cx);
	CHECK(cx.max_steps == CA_EVAL_MAX_STEPS && cx.max_bytes == CA_EVAL_MAX_BYTES);

	/* the first evaluation runs out of steps; the attributes that spent
	 * them are marked, so the thousand after it cost nothing */
	v = ca_eval_attr(&cx, job, slot, "Requirements");
	CHECK(v.kind == CA_ERROR);
	double t = seconds();
	for (int i = 0; i < 1000; i++) {
		v = ca_eval_attr(&cx, job, slot, "Requirements");
		CHECK(v.kind == CA_ERROR);
	}
	CHECK(seconds() - t < 0.05);
	/* what did not spend the budget is untouched */
	v = ca_eval_attr(&cx, job, slot, "Cheap");
	CHECK(v.kind == CA_INT && v.u.i == 2);

	/* the slot's Requirements reaches the job's costly attribute: ERROR,
	 * but the slot's own attributes are not marked for it */
	v = ca_eval_attr(&cx, slot, job, "Requirements");
	CHECK(v.kind == CA_ERROR);
	ca_ad *fine = costly_ad("RequestMemory = 10");
	v = ca_eval_attr(&cx, slot, fine, "Requirements");
	CHECK(v.kind == CA_BOOL && v.u.b);
	/* a fresh copy has no marks */
	ca_ad *copy = ca_ad_copy(job);
	v = ca_eval_attr(&cx, copy, slot, "Cheap");
	CHECK(v.kind == CA_INT && v.u.i == 2);

	/* the budget of bytes: ten-fold growth stops with ERROR, in bounded
	 * memory, and a smaller budget is kept */
	ca_arena_reset(&cx.scratch);
	v = ca_eval_attr(&cx, job, NULL, "s5");
	CHECK(v.kind == CA_STRING && v.x.len == 1000000);
	t = seconds();
	v = ca_eval_attr(&cx, job, NULL, "s12");
	CHECK(v.kind == CA_ERROR);
	CHECK(cx.scratch.total < 4 * CA_EVAL_MAX_BYTES);
	ca_arena_reset(&cx.scratch);
	cx.max_bytes = 100000;
	v = ca_eval_attr(&cx, copy, NULL, "s5");
	CHECK(v.kind == CA_ERROR);
	v = ca_eval_attr(&cx, copy, NULL, "s3");
	CHECK(v.kind == CA_STRING && v.x.len == 10000);
	cx.max_bytes = CA_EVAL_MAX_BYTES;

	/* a smaller budget of steps */
	ca_ad_free(copy);
	copy = ca_ad_copy(job);
	cx.max_steps = 1000;
	v = ca_eval_attr(&cx, copy, NULL, "a56");
	CHECK(v.kind == CA_INT && v.u.i == 16);
	v = ca_eval_attr(&cx, copy, NULL, "a50");
	CHECK(v.kind == CA_ERROR);

	ca_ad_free(copy);
	ca_ad_free(fine);
	ca_ad_free(job);
	ca_ad_free(slot);
	ca_ctx_free(&cx);
}
