/* fuzz_parse.c - libFuzzer harness for the expression parser: each input is
 * parsed under every flag set, as an expression, an ad and assignments. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classad.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("TZ", "UTC", 1);
	return 0;
}

/* A parse error must say what and where, inside the input (or at its end). */
static void
check_err(const ca_diag *err, size_t len)
{
	if (err->msg[0] == '\0' || err->line < 1 || err->col < 1 || err->pos > len)
		abort();
}

/* Old strings cannot hold a newline, nor a final backslash inside an
 * expression: the long writer refuses an attribute x = e then (EILSEQ). */
static bool
old_writable(const ca_expr *e)
{
	ca_ad *ad = ca_ad_new();
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	ca_writer *w = ca_writer_open(fp, CA_FMT_LONG, false);
	int rc;

	ca_ad_set_copy(ad, "x", 1, e);
	rc = ca_writer_put(w, ad);
	if (rc < 0 && errno != EILSEQ)
		abort();
	ca_writer_close(w);
	fclose(fp);
	free(text);
	ca_ad_free(ad);
	return rc == 0;
}

/* Print e and parse the text again; abort if it does not parse. */
static ca_expr *
reparse(ca_arena *a, const ca_expr *e, int flags, strbuf *out)
{
	ca_diag err;
	ca_expr *again;

	strbuf_reset(out);
	ca_print_expr(out, e, flags & CA_P_OLDSTR ? CA_PR_OLD : 0);
	if ((again = ca_parse_expr(a, out->buf, out->len, flags, &err)) == NULL) {
		fprintf(stderr, "printed text does not parse: %s\n  %s\n", out->buf, err.msg);
		abort();
	}
	return again;
}

/*
 * What the printer writes must parse again, to a tree that prints the same:
 * a tree that prints as nothing parseable, or as something else each time,
 * would corrupt the ads the writers produce.
 */
static void
round_trip(const ca_expr *e, int flags)
{
	strbuf one = STRBUF_INIT, two = STRBUF_INIT;
	ca_arena a = { 0 };

	if ((flags & CA_P_OLDSTR) && !old_writable(e))
		return;

	e = reparse(&a, e, flags, &one);
	(void)reparse(&a, e, flags, &two);
	if (one.len != two.len || memcmp(one.buf, two.buf, one.len) != 0) {
		fprintf(stderr, "printing is not stable:\n  %s\n  %s\n", one.buf, two.buf);
		abort();
	}
	strbuf_release(&one);
	strbuf_release(&two);
	ca_arena_free(&a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int flagsets[] = { 0, CA_P_OLDSTR, CA_P_STRICT, CA_P_OLDSTR | CA_P_STRICT };
	const char *src = (const char *)data;

	for (size_t i = 0; i < sizeof flagsets / sizeof flagsets[0]; i++) {
		int flags = flagsets[i];
		ca_arena a = { 0 };
		ca_diag err;

		memset(&err, 0, sizeof err);
		ca_expr *e = ca_parse_expr(&a, src, size, flags, &err);
		if (e == NULL)
			check_err(&err, size);
		else
			round_trip(e, flags);
		ca_arena_free(&a);

		size_t used = 0;
		ca_ad *ad = ca_parse_ad(src, size, &used, flags, &err);
		if (ad == NULL)
			check_err(&err, size);
		else {
			if (used == 0 || used > size)
				abort();
			strbuf sb = STRBUF_INIT;
			ca_print_ad(&sb, ad, 0);
			strbuf_release(&sb);
			ca_ad_free(ad);
		}

		ad = ca_ad_new();
		if (ca_parse_assignments(ad, src, size, flags, &err) < 0)
			check_err(&err, size);
		ca_ad_free(ad);
	}
	ca_intern_cleanup();
	return 0;
}
