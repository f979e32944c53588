/* t_streams.c - unit tests of the ad reader and writer: every format, format
 * detection, gzip, error positions, huge strings and long streams. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "unit.h"
#include "classad.h"

/* What a stream holds: every ad printed in new syntax, one per line, and
 * the errors met on the way. */
typedef struct result {
	strbuf ads;
	int nads, nerr;
	ca_diag first;		/* first error */
	ca_diag errs[8];
	int lines[16];		/* ca_reader_ad_line of the first ads */
	ca_format fmt;
} result;

static void
result_free(result *res)
{
	strbuf_release(&res->ads);
}

static void
drain(ca_reader *r, result *res)
{
	ca_ad *ad;
	ca_diag err;
	int rc, guard = 0;

	strbuf sb0 = STRBUF_INIT;
	memset(res, 0, sizeof *res);
	res->ads = sb0;
	while ((rc = ca_reader_next(r, &ad, &err)) != 0 && guard++ < 1000000) {
		if (rc < 0) {
			if (res->nerr == 0)
				res->first = err;
			if (res->nerr < 8)
				res->errs[res->nerr] = err;
			res->nerr++;
			continue;
		}
		if (res->nads < 16)
			res->lines[res->nads] = ca_reader_ad_line(r);
		res->nads++;
		ca_print_ad(&res->ads, ad, 0);
		strbuf_addc(&res->ads, '\n');
		ca_ad_free(ad);
	}
	res->fmt = ca_reader_format(r);
}

static void
read_mem(const char *text, size_t len, ca_format fmt, result *res)
{
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", text, len, fmt, &err);

	drain(r, res);
	ca_reader_close(r);
}

static void
read_str(const char *text, ca_format fmt, result *res)
{
	read_mem(text, strlen(text), fmt, res);
}

/* The same through a file, read block by block. */
static void
read_via_file(const char *text, size_t len, ca_format fmt, result *res)
{
	char path[] = "/tmp/t_streams_XXXXXX";
	int fd = mkstemp(path);
	ca_diag err;

	memset(res, 0, sizeof *res);
	if (fd < 0) {
		CHECK(fd >= 0);
		return;
	}
	CHECK(write(fd, text, len) == (ssize_t)len);
	close(fd);
	ca_reader *r = ca_reader_open(path, fmt, &err);
	drain(r, res);
	ca_reader_close(r);
	unlink(path);
}

/* The first ad of text; NULL if none. */
static ca_ad *
first_ad(const char *text, size_t len, ca_format fmt)
{
	ca_diag err;
	ca_ad *ad = NULL;
	ca_reader *r = ca_reader_open_mem("t", text, len, fmt, &err);

	if (ca_reader_next(r, &ad, &err) != 1) {
		fprintf(stderr, "first_ad: %s: %d:%d: %s\n", ca_format_name(ca_reader_format(r)),
		    err.line, err.col, err.msg);
		ad = NULL;
	}
	ca_reader_close(r);
	return ad;
}

/* A stream written by the writer, into a malloc'ed buffer. */
static char *
write_ads(ca_ad **ads, int n, ca_format fmt, bool gz, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	ca_writer *w = ca_writer_open(fp, fmt, gz);

	for (int i = 0; i < n; i++)
		CHECK(ca_writer_put(w, ads[i]) == 0);
	CHECK(ca_writer_close(w) == 0);
	fclose(fp);
	return buf;
}

static char *
gzip_mem(const char *s, size_t n, size_t *outlen)
{
	z_stream zs;
	size_t cap = n + n / 10 + 1024;
	unsigned char *out = malloc(cap);

	memset(&zs, 0, sizeof zs);
	deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	zs.next_in = (Bytef *)(uintptr_t)s;
	zs.avail_in = (uInt)n;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	deflate(&zs, Z_FINISH);
	*outlen = zs.total_out;
	deflateEnd(&zs);
	return (char *)out;
}

static const char sample_long[] =
    "# a comment line\n"
    "MyType = \"Machine\"\n"
    "Name = \"slot1@host.example.org\"\n"
    "Cpus = 8\n"
    "Memory = 16384\n"
    "LoadAvg = 0.25\n"
    "Big = 1e300\n"
    "Disk = -1\n"
    "Requirements = (TARGET.Memory <= Memory) && (TARGET.Cpus >= 1)\n"
    "Rank = TARGET.Owner == \"alice\" ? 10 : 0\n"
    "Start = true\n"
    "Undef = undefined\n"
    "Err = error\n"
    "Path = \"C:\\dir\\file\"\n"
    "Quote = \"say \\\"hi\\\" & <bye>\"\n"
    "Tab = \"a\tb\"\n"
    "Utf = \"\xc3\xa9t\xc3\xa9\"\n"
    "List = { 1, 2.5, \"x\", true, undefined, { 2, 3 } }\n"
    "Mixed = { 1, x + 1 }\n"
    "Nested = [ a = 1; b = \"two\"; c = { 3, 4 }; d = [ e = x ] ]\n"
    "Expr = strcat(Name, \"-\", Cpus)\n"
    "Neg = -(Cpus)\n"
    "\n"
    "MyType = \"Job\"\n"
    "Owner = \"alice\"\n"
    "\n";

UNIT_SUITE(streams_format_names)
{
	CHECK(ca_format_parse("long") == CA_FMT_LONG);
	CHECK(ca_format_parse("new") == CA_FMT_NEW);
	CHECK(ca_format_parse("JSON") == CA_FMT_JSON);
	CHECK(ca_format_parse("xml") == CA_FMT_XML);
	CHECK(ca_format_parse("auto") == CA_FMT_AUTO);
	CHECK(ca_format_parse("yaml") == -1);
	CHECK(strcmp(ca_format_name(CA_FMT_JSON), "json") == 0);
}

UNIT_SUITE(streams_long_read)
{
	result res;

	read_str(sample_long, CA_FMT_AUTO, &res);
	CHECK(res.nerr == 0);
	CHECK(res.nads == 2);
	CHECK(res.fmt == CA_FMT_LONG);
	CHECK(res.lines[0] == 2 && res.lines[1] == 24);
	CHECK(strstr(res.ads.buf, "Path = \"C:\\\\dir\\\\file\"") != NULL);
	CHECK(strstr(res.ads.buf, "Quote = \"say \\\"hi\\\" & <bye>\"") != NULL);
	result_free(&res);

	/* blank lines of blanks, CRLF, names trimmed, duplicates: last wins */
	read_str("\n \t\n  A  = 1\r\nb=2\n a = 3 \n\t\r\n\n\nC = 4", CA_FMT_LONG, &res);
	CHECK(res.nerr == 0 && res.nads == 2);
	CHECK(strcmp(res.ads.buf, "[ A = 3; b = 2 ]\n[ C = 4 ]\n") == 0);
	CHECK(res.lines[0] == 3 && res.lines[1] == 9);
	result_free(&res);

	/* the first '=' splits; old-syntax strings; "C:\" ends in a backslash */
	read_str("A = x == \"==\"\nB = \"C:\\\"\n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 0 && res.nads == 1);
	CHECK(strcmp(res.ads.buf, "[ A = x == \"==\"; B = \"C:\\\\\" ]\n") == 0);
	result_free(&res);

	/* spelling is per ad, lookup case-insensitive */
	read_str("Foo = 1\n\nFOO = 2\n", CA_FMT_LONG, &res);
	CHECK(strcmp(res.ads.buf, "[ Foo = 1 ]\n[ FOO = 2 ]\n") == 0);
	result_free(&res);

	/* empty input, only comments */
	read_str("", CA_FMT_AUTO, &res);
	CHECK(res.nads == 0 && res.nerr == 0);
	result_free(&res);
	read_str("# nothing\n\n   # here\n", CA_FMT_AUTO, &res);
	CHECK(res.nads == 0 && res.nerr == 0);
	result_free(&res);
}

UNIT_SUITE(streams_long_errors)
{
	result res;

	/* a line without '=': reported, the rest of that ad skipped, then on */
	read_str("A = 1\nB 2\nC = 3\n\nD = 4\n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 1 && res.nads == 1);
	CHECK(res.first.line == 2 && res.first.col == 2 && (res.first.status == CA_EX_SYSTEM) == 0);
	CHECK(strcmp(res.first.msg, "expected '=' after attribute name") == 0);
	CHECK(strcmp(res.first.file, "t") == 0);
	CHECK(strcmp(res.ads.buf, "[ D = 4 ]\n") == 0);
	CHECK(res.lines[0] == 5);
	result_free(&res);

	/* trailing junk is an error at its column */
	read_str("A = 1 2\n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 1 && res.nads == 0);
	CHECK(res.first.line == 1 && res.first.col == 7);
	result_free(&res);

	/* empty name */
	read_str("X = 1\n\n  = 5\n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 1 && res.nads == 1);
	CHECK(res.first.line == 3 && res.first.col == 3);
	CHECK(strstr(res.first.msg, "attribute name") != NULL);
	result_free(&res);

	/* unterminated string, error position inside the line */
	read_str("A = 1\nS = \"abc\n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 1 && res.nads == 0);
	CHECK(res.first.line == 2 && res.first.col >= 5);
	CHECK(strstr(res.first.msg, "unterminated") != NULL);
	result_free(&res);

	/* NUL and control bytes */
	read_mem("A = 1\nB\0 = 2\n\nC = 3\n", 19, CA_FMT_LONG, &res);
	CHECK(res.nerr == 1 && res.nads == 1);
	CHECK(res.first.line == 2 && res.first.col == 2);
	CHECK(strstr(res.first.msg, "NUL") != NULL);
	result_free(&res);
	read_mem("A = \0\n", 6, CA_FMT_LONG, &res);
	CHECK(res.nerr == 1 && res.first.line == 1 && res.first.col == 5);
	result_free(&res);
	read_str("\x01\x02\x03\n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 1 && res.first.col == 1);
	result_free(&res);

	/* every bad ad of a stream is reported */
	read_str("A = (\n\nB = )\n\nC = 1\n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 2 && res.nads == 1);
	CHECK(res.errs[0].line == 1 && res.errs[1].line == 3);
	result_free(&res);

	/* an error on the last line, no newline at the end */
	read_str("A = 1\nB = +", CA_FMT_LONG, &res);
	CHECK(res.nerr == 1 && res.nads == 0 && res.first.line == 2);
	result_free(&res);
}

UNIT_SUITE(streams_long_quoted_names)
{
	ca_diag perr;
	size_t used, len;
	const char *src = "[ 'a b' = 1; 'x=y' = 2; '#c' = 3 ]";
	ca_ad *ad = ca_parse_ad(src, strlen(src), &used, 0, &perr);

	CHECK(ad != NULL);
	if (ad == NULL)
		return;
	char *out = write_ads(&ad, 1, CA_FMT_LONG, false, &len);
	CHECK(strstr(out, "'a b' = 1\n") != NULL);
	ca_ad *back = first_ad(out, len, CA_FMT_LONG);
	CHECK(back != NULL);
	if (back) {
		strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		ca_print_ad(&a, ad, 0);
		ca_print_ad(&b, back, 0);
		CHECK(strcmp(a.buf, b.buf) == 0);
		strbuf_release(&a);
		strbuf_release(&b);
		ca_ad_free(back);
	}
	free(out);
	ca_ad_free(ad);
}

/* long -> f -> long through the writer and reader, for each format. */
UNIT_SUITE(streams_round_trip)
{
	static const ca_format fmts[] = { CA_FMT_NEW, CA_FMT_JSON, CA_FMT_XML, CA_FMT_LONG };
	result orig;

	read_str(sample_long, CA_FMT_LONG, &orig);
	CHECK(orig.nads == 2 && orig.nerr == 0);
	for (int gz = 0; gz < 2; gz++) {
		ca_ad *ads[2];
		ca_diag err;
		ca_reader *r = ca_reader_open_mem("t", sample_long, strlen(sample_long),
		    CA_FMT_LONG, &err);
		CHECK(ca_reader_next(r, &ads[0], &err) == 1);
		CHECK(ca_reader_next(r, &ads[1], &err) == 1);
		ca_reader_close(r);
		/* a chain: long -> new -> json -> xml -> long */
		for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
			size_t len;
			char *text = write_ads(ads, 2, fmts[i], gz, &len);
			ca_ad_free(ads[0]);
			ca_ad_free(ads[1]);
			r = ca_reader_open_mem("t", text, len, CA_FMT_AUTO, &err);
			int ok = ca_reader_next(r, &ads[0], &err) == 1 &&
			    ca_reader_next(r, &ads[1], &err) == 1;
			CHECK(ok);
			if (!ok)
				fprintf(stderr, "format %s: %d:%d: %s\n%s\n", ca_format_name(fmts[i]),
				    err.line, err.col, err.msg, gz ? "" : text);
			CHECK(ca_reader_format(r) == fmts[i]);
			ca_ad *extra;
			CHECK(ca_reader_next(r, &extra, &err) == 0);
			ca_reader_close(r);
			free(text);
			if (!ok)
				return;
			strbuf sb = STRBUF_INIT;
			ca_print_ad(&sb, ads[0], 0);
			strbuf_addc(&sb, '\n');
			ca_print_ad(&sb, ads[1], 0);
			strbuf_addc(&sb, '\n');
			CHECK(strcmp(sb.buf, orig.ads.buf) == 0);
			if (strcmp(sb.buf, orig.ads.buf) != 0)
				fprintf(stderr, "after %s:\n%s\nexpected:\n%s\n",
				    ca_format_name(fmts[i]), sb.buf, orig.ads.buf);
			strbuf_release(&sb);
		}
		ca_ad_free(ads[0]);
		ca_ad_free(ads[1]);
	}
	result_free(&orig);
}

UNIT_SUITE(streams_writer_text)
{
	ca_diag perr;
	size_t used, len;
	const char *src = "[ A = 1; B = \"x\\\"y\\n\"; C = { 1, 2 }; D = [ e = 1.5 ]; F = x + 1; "
	    "G = undefined; H = error ]";
	ca_ad *ad = ca_parse_ad(src, strlen(src), &used, 0, &perr);

	CHECK(ad != NULL);
	if (ad == NULL)
		return;
	ca_ad *two[2] = { ad, ad };
	char *out = write_ads(two, 2, CA_FMT_JSON, false, &len);
	const char *json1 =
	    "{\n"
	    "  \"A\": 1,\n"
	    "  \"B\": \"x\\\"y\\n\",\n"
	    "  \"C\": [\n"
	    "    1,\n"
	    "    2\n"
	    "  ],\n"
	    "  \"D\": {\n"
	    "    \"e\": 1.5\n"
	    "  },\n"
	    "  \"F\": \"\\/Expr(x + 1)\\/\",\n"
	    "  \"G\": null,\n"
	    "  \"H\": \"\\/Expr(error)\\/\"\n"
	    "}";
	strbuf want = STRBUF_INIT;
	strbuf_addf(&want, "[\n%s,\n%s\n]\n", json1, json1);
	CHECK(strcmp(out, want.buf) == 0);
	if (strcmp(out, want.buf) != 0)
		fprintf(stderr, "json:\n%s", out);
	free(out);

	out = write_ads(&ad, 1, CA_FMT_NEW, false, &len);
	strbuf_reset(&want);
	strbuf_adds(&want, "{\n");
	ca_print_ad(&want, ad, 0);
	strbuf_adds(&want, "\n}\n");
	CHECK(strcmp(out, want.buf) == 0);
	free(out);

	out = write_ads(&ad, 1, CA_FMT_XML, false, &len);
	const char *xml =
	    "<?xml version=\"1.0\"?>\n"
	    "<!DOCTYPE classads SYSTEM \"classads.dtd\">\n"
	    "<classads>\n"
	    "<c>\n"
	    "    <a n=\"A\"><i>1</i></a>\n"
	    "    <a n=\"B\"><s>x\"y\\n</s></a>\n"
	    "    <a n=\"C\"><l><i>1</i><i>2</i></l></a>\n"
	    "    <a n=\"D\"><c>\n"
	    "        <a n=\"e\"><r>1.5</r></a>\n"
	    "    </c></a>\n"
	    "    <a n=\"F\"><e>x + 1</e></a>\n"
	    "    <a n=\"G\"><un/></a>\n"
	    "    <a n=\"H\"><er/></a>\n"
	    "</c>\n"
	    "</classads>\n";
	CHECK(strcmp(out, xml) == 0);
	if (strcmp(out, xml) != 0)
		fprintf(stderr, "xml:\n%s", out);
	free(out);

	/* B's newline has no escape in old strings: the long writer refuses
	 * the ad (t_hardening.c); without B, one line per attribute */
	ca_ad *nob = ca_ad_copy(ad);
	ca_ad_delete(nob, ca_intern("B", 1));
	out = write_ads(&nob, 1, CA_FMT_LONG, false, &len);
	CHECK(strncmp(out, "A = 1\nC = { 1,2 }\n", 18) == 0);
	CHECK(len > 2 && strcmp(out + len - 2, "\n\n") == 0);
	free(out);

	/* no ads at all */
	out = write_ads(NULL, 0, CA_FMT_JSON, false, &len);
	CHECK(strcmp(out, "[\n]\n") == 0);
	free(out);
	out = write_ads(NULL, 0, CA_FMT_NEW, false, &len);
	CHECK(strcmp(out, "{\n}\n") == 0);
	free(out);
	out = write_ads(NULL, 0, CA_FMT_LONG, false, &len);
	CHECK(len == 0);
	free(out);

	/* ca_format_ad */
	strbuf_reset(&want);
	ca_format_ad(&want, ad, CA_FMT_JSON);
	CHECK(strcmp(want.buf, json1) == 0);
	strbuf_release(&want);

	/* an I/O error is reported by close */
	FILE *full = fopen("/dev/full", "w");
	if (full) {
		ca_writer *w = ca_writer_open(full, CA_FMT_LONG, false);
		ca_writer_put(w, nob);
		errno = 0;
		CHECK(ca_writer_close(w) == -1 && errno == ENOSPC);
		fclose(full);
	}
	ca_ad_free(nob);
	ca_ad_free(ad);
}

/* Memory an owner keeps for a strbuf (grow set): a pool it frees itself,
 * grown a little at a time so that the writer's ads cross its growths. */
struct owned {
	strbuf sb;		/* first: grow finds the owner */
	char *mem;
	int grows;
};

static void
owned_grow(strbuf *sb, size_t need)
{
	struct owned *o = (struct owned *)sb;
	size_t cap = sb->cap + 16;

	if (cap < need)
		cap = need;
	o->mem = realloc(o->mem, cap);
	if (sb->cap == 0)
		o->mem[0] = '\0';
	sb->buf = o->mem;
	sb->cap = cap;
	o->grows++;
}

/* A writer to a buffer makes what one to a stream writes, in every
 * format, in the buffer's own memory when its owner grows it; an ad it
 * refuses leaves nothing there, and the next is written as if it had not
 * come. */
UNIT_SUITE(streams_writer_to_buffer)
{
	const char *src = "[ A = 1; C = { 1, 2 }; D = [ e = 1.5 ]; F = x + 1; G = undefined ]\n"
	    "[ B = \"x\\ny\" ]\n[ Name = \"slot1@h\"; Memory = 2048; Rank = 0.5 ]\n";
	const ca_format fmts[] = { CA_FMT_LONG, CA_FMT_NEW, CA_FMT_JSON, CA_FMT_XML };
	ca_diag err;
	ca_ad *ads[3];
	size_t n = 0, len;
	ca_reader *r = ca_reader_open_mem("t", src, strlen(src), CA_FMT_NEW, &err);

	while (n < 3 && ca_reader_next(r, &ads[n], &err) == 1)
		n++;
	ca_reader_close(r);
	CHECK(n == 3);
	if (n != 3)
		return;
	ca_ad *good[2] = { ads[0], ads[2] };
	for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
		char *want = write_ads(good, 2, fmts[f], false, &len);
		strbuf heap = STRBUF_INIT;
		struct owned o = { STRBUF_INIT, NULL, 0 };
		o.sb.grow = owned_grow;
		ca_writer *wh = ca_writer_open_buf(&heap, fmts[f]);
		ca_writer *wo = ca_writer_open_buf(&o.sb, fmts[f]);
		for (size_t i = 0; i < 3; i++) {
			/* the long format refuses B's newline; the others hold it,
			 * and are not given it */
			bool refused = i == 1;
			if (refused && fmts[f] != CA_FMT_LONG)
				continue;
			int rh = ca_writer_put(wh, ads[i]), ro = ca_writer_put(wo, ads[i]);
			CHECK(rh == (refused ? -1 : 0) && ro == rh);
		}
		CHECK(ca_writer_close(wh) == 0 && ca_writer_close(wo) == 0);
		CHECK(heap.len == len && memcmp(heap.buf, want, len) == 0 && heap.buf[len] == '\0');
		CHECK(o.sb.len == len && memcmp(o.sb.buf, want, len) == 0 && o.sb.buf == o.mem);
		CHECK(o.grows > 2);
		if (heap.len != len || memcmp(heap.buf, want, len) != 0)
			fprintf(stderr, "%s:\n%s\nwant:\n%s", ca_format_name(fmts[f]), heap.buf, want);
		/* the owner's memory is the owner's to free */
		strbuf_release(&o.sb);
		CHECK(o.sb.grow == NULL && o.sb.cap == 0);
		free(o.mem);
		strbuf_release(&heap);
		free(want);
	}

	/* a refused ad after others leaves the buffer as it was */
	strbuf sb = STRBUF_INIT;
	ca_writer *w = ca_writer_open_buf(&sb, CA_FMT_LONG);
	CHECK(ca_writer_put(w, ads[2]) == 0);
	size_t before = sb.len;
	errno = 0;
	CHECK(ca_writer_put(w, ads[1]) == -1 && errno == EILSEQ);
	CHECK(sb.len == before && sb.buf[before] == '\0');
	CHECK(strstr(ca_writer_refusal(w), "newline") != NULL);
	CHECK(ca_writer_close(w) == 0);
	CHECK(strcmp(sb.buf, "Name = \"slot1@h\"\nMemory = 2048\nRank = 0.5\n\n") == 0);
	strbuf_release(&sb);
	for (size_t i = 0; i < 3; i++)
		ca_ad_free(ads[i]);
}

UNIT_SUITE(streams_detect)
{
	static const struct {
		const char *text;
		ca_format fmt;
		int nads;
	} cases[] = {
		{ "A = 1\n", CA_FMT_LONG, 1 },
		{ "  # comment\n\nA = 1\n", CA_FMT_LONG, 1 },
		{ "[ a = 1 ]\n[ b = 2 ]\n", CA_FMT_NEW, 2 },
		{ "\n  [a=1]", CA_FMT_NEW, 1 },
		{ "{\n[ a = 1 ],\n[ b = 2 ]\n}\n", CA_FMT_NEW, 2 },
		{ "{ }", CA_FMT_NEW, 0 },
		{ "// c\n/* c */ [a=1]", CA_FMT_NEW, 1 },
		{ "[\n{ \"a\": 1 },\n{ \"b\": 2 }\n]\n", CA_FMT_JSON, 2 },
		/* "[ ]" on one line is an empty ad (HTCondor reads a line that
		 * parses as an ad so); "[" and "]" on lines of their own, as the
		 * JSON writer puts no ads, an empty array */
		{ "[ ]", CA_FMT_NEW, 1 },
		{ "[]\n", CA_FMT_NEW, 1 },
		{ "[\n]\n", CA_FMT_JSON, 0 },
		{ "[ \n \n ]", CA_FMT_JSON, 0 },
		{ "{\"a\": 1}\n{\"a\": 2}\n", CA_FMT_JSON, 2 },
		{ "  {\n  \"a\": 1\n}", CA_FMT_JSON, 1 },
		{ "<?xml version=\"1.0\"?><classads><c><a n=\"x\"><i>1</i></a></c></classads>",
		  CA_FMT_XML, 1 },
		{ "\xef\xbb\xbf" "A = 1\n", CA_FMT_LONG, 1 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		result res;
		read_str(cases[i].text, CA_FMT_AUTO, &res);
		CHECK(res.fmt == cases[i].fmt);
		CHECK(res.nads == cases[i].nads && res.nerr == 0);
		if (res.fmt != cases[i].fmt || res.nads != cases[i].nads || res.nerr)
			fprintf(stderr, "case %zu: fmt %s, %d ads, %d errors (%s)\n", i,
			    ca_format_name(res.fmt), res.nads, res.nerr, res.first.msg);
		result_free(&res);
	}
}

UNIT_SUITE(streams_new)
{
	result res;

	read_str("{\n[ a = 1; b = { 1, [ c = 2 ] } ],\n[ b = \"x\" ]\n}\n", CA_FMT_AUTO, &res);
	CHECK(res.nerr == 0 && res.nads == 2);
	CHECK(res.lines[0] == 2 && res.lines[1] == 3);
	result_free(&res);

	/* syntax error: position in the file */
	read_str("[a = 1]\n\n[\n  b = 1;\n  c = ;\n]\n", CA_FMT_NEW, &res);
	CHECK(res.nerr == 1 && res.nads == 1);
	CHECK(res.first.line == 5 && res.first.col == 7);
	result_free(&res);

	/* the end of input inside an ad */
	read_str("{\n[a=1],\n[b=2", CA_FMT_NEW, &res);
	CHECK(res.nerr == 1 && res.nads == 1);
	CHECK(strstr(res.first.msg, "unexpected end of input inside an ad") != NULL);
	CHECK(res.first.line == 3);
	result_free(&res);

	/* a list that is not closed */
	read_str("{\n[a=1]\n", CA_FMT_NEW, &res);
	CHECK(res.nerr == 1 && res.nads == 1);
	CHECK(strstr(res.first.msg, "missing '}'") != NULL);
	result_free(&res);

	/* garbage between ads */
	read_str("[a=1] xyz [b=2]", CA_FMT_NEW, &res);
	CHECK(res.nerr == 1 && res.nads == 1 && res.first.col == 7);
	result_free(&res);

	/* unterminated comment */
	read_str("[a=1] /* ...", CA_FMT_NEW, &res);
	CHECK(res.nerr == 1 && res.first.col == 7);
	result_free(&res);
}

UNIT_SUITE(streams_json)
{
	result res;

	read_str("[\n{\"A\": 1, \"B\": \"x\\u00e9\\ud83d\\ude00\\/\", \"C\": null, \"D\": -0.5e1,\n"
	    " \"E\": [1, [true, false], {\"f\": \"/Expr(1 + 2)/\"}], \"F\": {}, \"G\": \"\\/Expr(x)\\/\",}\n]",
	    CA_FMT_AUTO, &res);
	CHECK(res.nerr == 0 && res.nads == 1);
	CHECK(strcmp(res.ads.buf, "[ A = 1; B = \"x\\303\\251\\360\\237\\230\\200/\"; C = undefined; "
	    "D = -5.0; E = { 1,{ true,false },[ f = 1 + 2 ] }; F = [  ]; G = x ]\n") == 0);
	if (res.nerr == 0)
		fprintf(stderr, "%s", strcmp(res.ads.buf, "") ? "" : "empty\n");
	result_free(&res);

	/* integers at the edges */
	read_str("{\"a\": 9223372036854775807, \"b\": -9223372036854775808}", CA_FMT_JSON, &res);
	CHECK(res.nerr == 0 && res.nads == 1);
	CHECK(strcmp(res.ads.buf,
	    "[ a = 9223372036854775807; b = -9223372036854775808 ]\n") == 0);
	result_free(&res);

	/* an integer out of range drops that ad only */
	read_str("[{\"A\": 9223372036854775808},\n{\"B\": 2}]", CA_FMT_JSON, &res);
	CHECK(res.nerr == 1 && res.nads == 1);
	CHECK(res.first.line == 1 && res.first.col == 8);
	CHECK(strstr(res.first.msg, "out of range") != NULL);
	CHECK(strcmp(res.ads.buf, "[ B = 2 ]\n") == 0);
	result_free(&res);

	/* \u0000 */
	read_str("{\"A\": \"a\\u0000b\"}", CA_FMT_JSON, &res);
	CHECK(res.nerr == 1 && res.nads == 0);
	CHECK(res.first.line == 1 && res.first.col == 9);
	result_free(&res);

	/* a bad expression: the column inside the string */
	read_str("{\"A\": \"\\/Expr(1 +)\\/\"}", CA_FMT_JSON, &res);
	CHECK(res.nerr == 1 && res.nads == 0);
	CHECK(res.first.line == 1 && res.first.col == 18);
	result_free(&res);
	read_str("{\"A\": 1,\n \"B\": \"\\/Expr(\\\"a\\\" + + )\\/\"}", CA_FMT_JSON, &res);
	CHECK(res.nerr == 1 && res.first.line == 2 && res.first.col == 25);
	result_free(&res);

	/* syntax errors end the stream */
	read_str("{\"A\" 1}\n{\"B\": 2}", CA_FMT_JSON, &res);
	CHECK(res.nerr == 1 && res.nads == 0);
	CHECK(res.first.line == 1 && res.first.col == 6);
	result_free(&res);
	read_str("{\"A\": \"abc\n\"}", CA_FMT_JSON, &res);
	CHECK(res.nerr == 1 && strstr(res.first.msg, "unterminated string") != NULL);
	result_free(&res);
	read_str("[{\"A\": 1}", CA_FMT_JSON, &res);
	CHECK(res.nerr == 1 && res.nads == 1 && strstr(res.first.msg, "missing ']'"));
	result_free(&res);
	read_str("{\"A\": 1", CA_FMT_JSON, &res);
	CHECK(res.nerr == 1 && strstr(res.first.msg, "unexpected end of input inside an ad"));
	result_free(&res);
	read_str("{\"A\": 01}", CA_FMT_JSON, &res);
	CHECK(res.nerr == 1 && res.first.col == 7);
	result_free(&res);
	read_str("{\"A\": tru}", CA_FMT_JSON, &res);
	CHECK(res.nerr == 1);
	result_free(&res);
	read_str("{\"\": 1}", CA_FMT_JSON, &res);
	CHECK(res.nerr == 1 && res.first.col == 2);
	result_free(&res);

	/* nesting beyond the limit */
	strbuf deep = STRBUF_INIT;
	strbuf_adds(&deep, "{\"A\": ");
	for (int i = 0; i < CA_MAX_DEPTH + 10; i++)
		strbuf_addc(&deep, '[');
	for (int i = 0; i < CA_MAX_DEPTH + 10; i++)
		strbuf_addc(&deep, ']');
	strbuf_addc(&deep, '}');
	read_str(deep.buf, CA_FMT_JSON, &res);
	CHECK(res.nerr == 1 && strstr(res.first.msg, "nested") != NULL);
	result_free(&res);
	strbuf_release(&deep);
}

UNIT_SUITE(streams_xml)
{
	result res;
	const char *xml =
	    "<?xml version=\"1.0\"?>\n"
	    "<!DOCTYPE classads SYSTEM \"classads.dtd\">\n"
	    "<classads>\n"
	    "<c>\n"
	    "    <a n=\"MyType\"><s>Machine</s></a>\n"
	    "    <a n=\"Cpus\"><i> 8 </i></a>\n"
	    "    <a n=\"LoadAvg\"><r>2.500000000000000E-01</r></a>\n"
	    "    <a n=\"Start\"><b v=\"t\"/></a>\n"
	    "    <a n=\"Req\"><e>TARGET.Memory &gt;= 1024 &amp;&amp; x &lt; 3</e></a>\n"
	    "    <a n=\"L\"><l><i>1</i><s>x</s><l/></l></a>\n"
	    "    <a n=\"U\"><un/></a>\n"
	    "    <a n=\"E\"><er/></a>\n"
	    "    <!-- a comment -->\n"
	    "    <a n=\"S\"><s>a\\nb &quot;q&quot; &#233;</s></a>\n"
	    "    <a n=\"Empty\"><s/></a>\n"
	    "</c>\n"
	    "<c></c>\n"
	    "</classads>\n";

	read_str(xml, CA_FMT_AUTO, &res);
	CHECK(res.fmt == CA_FMT_XML);
	CHECK(res.nerr == 0 && res.nads == 2);
	CHECK(strcmp(res.ads.buf, "[ MyType = \"Machine\"; Cpus = 8; LoadAvg = 0.25; Start = true; "
	    "Req = TARGET.Memory >= 1024 && x < 3; L = { 1,\"x\",{  } }; U = undefined; "
	    "E = error; S = \"a\\nb \\\"q\\\" \\303\\251\"; Empty = \"\" ]\n[  ]\n") == 0);
	if (res.nerr)
		fprintf(stderr, "xml: %d:%d: %s\n", res.first.line, res.first.col, res.first.msg);
	else
		fprintf(stderr, "%s", strncmp(res.ads.buf, "[ MyType", 8) ? res.ads.buf : "");
	CHECK(res.lines[0] == 4 && res.lines[1] == 17);
	result_free(&res);

	/* a bad value drops the ad; a bad tag ends the stream */
	read_str("<classads><c><a n=\"x\"><i>12x</i></a></c>\n<c><a n=\"y\"><i>1</i></a></c></classads>",
	    CA_FMT_XML, &res);
	CHECK(res.nerr == 1 && res.nads == 1);
	result_free(&res);
	read_str("<classads>\n<c><a n=\"x\"><q>1</q></a></c></classads>", CA_FMT_XML, &res);
	CHECK(res.nerr == 1 && res.nads == 0 && res.first.line == 2 && res.first.col == 13);
	result_free(&res);
	read_str("<classads><c><a n=\"x\"><i>1</i></a>", CA_FMT_XML, &res);
	CHECK(res.nerr == 1 && strstr(res.first.msg, "end of input") != NULL);
	result_free(&res);
}

UNIT_SUITE(streams_gzip)
{
	size_t zlen;
	char *z = gzip_mem(sample_long, strlen(sample_long), &zlen);
	result plain, res;

	read_str(sample_long, CA_FMT_AUTO, &plain);
	read_mem(z, zlen, CA_FMT_AUTO, &res);
	CHECK(res.nerr == 0 && res.nads == 2);
	CHECK(strcmp(res.ads.buf, plain.ads.buf) == 0);
	result_free(&res);

	/* truncated and corrupt data: an error, never a hang */
	read_mem(z, zlen / 2, CA_FMT_AUTO, &res);
	CHECK(res.nerr == 1 && strstr(res.first.msg, "corrupt gzip data") != NULL);
	CHECK((res.first.status == CA_EX_SYSTEM) == 0);
	result_free(&res);
	read_mem(z, zlen - 4, CA_FMT_AUTO, &res);
	CHECK(res.nerr == 1 && strstr(res.first.msg, "corrupt gzip data") != NULL);
	result_free(&res);
	char *bad = malloc(zlen);
	memcpy(bad, z, zlen);
	for (size_t i = 12; i < zlen - 8; i += 3)
		bad[i] ^= 0x5a;
	read_mem(bad, zlen, CA_FMT_AUTO, &res);
	CHECK(res.nerr >= 1);
	result_free(&res);
	free(bad);

	/* two members one after the other */
	char *two = malloc(2 * zlen);
	memcpy(two, z, zlen);
	memcpy(two + zlen, z, zlen);
	read_mem(two, 2 * zlen, CA_FMT_AUTO, &res);
	CHECK(res.nerr == 0 && res.nads == 4);
	result_free(&res);
	free(two);

	/* through a file, as written by the writer */
	char path[] = "/tmp/t_streams_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd >= 0) {
		FILE *fp = fdopen(fd, "w");
		ca_ad *ads[2];
		ca_diag err;
		ca_reader *r = ca_reader_open_mem("t", sample_long, strlen(sample_long),
		    CA_FMT_AUTO, &err);
		ca_reader_next(r, &ads[0], &err);
		ca_reader_next(r, &ads[1], &err);
		ca_reader_close(r);
		ca_writer *w = ca_writer_open(fp, CA_FMT_JSON, true);
		CHECK(ca_writer_put(w, ads[0]) == 0 && ca_writer_put(w, ads[1]) == 0);
		CHECK(ca_writer_close(w) == 0);
		fclose(fp);
		ca_ad_free(ads[0]);
		ca_ad_free(ads[1]);
		r = ca_reader_open(path, CA_FMT_AUTO, &err);
		CHECK(r != NULL);
		drain(r, &res);
		ca_reader_close(r);
		CHECK(res.fmt == CA_FMT_JSON && res.nads == 2 && res.nerr == 0);
		CHECK(strcmp(res.ads.buf, plain.ads.buf) == 0);
		result_free(&res);
		unlink(path);
	}
	ca_diag err;
	CHECK(ca_reader_open("/nonexistent/file", CA_FMT_AUTO, &err) == NULL);
	CHECK((err.status == CA_EX_SYSTEM) == 1 && strstr(err.msg, "cannot open") != NULL);
	free(z);
	result_free(&plain);
}

/* A 10 MB string through every format. */
UNIT_SUITE(streams_huge_string)
{
	size_t n = 10 * 1024 * 1024;
	strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "A = 1\nBig = \"");
	strbuf_grow(&sb, n + 64);
	for (size_t i = 0; i < n; i++)
		sb.buf[sb.len + i] = (char)('a' + i % 26);
	sb.len += n;
	sb.buf[sb.len] = 0;
	strbuf_adds(&sb, "\"\nC = 3\n\nD = 4\n");

	char path[] = "/tmp/t_streams_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(write(fd, sb.buf, sb.len) == (ssize_t)sb.len);
	close(fd);
	ca_diag err;
	ca_reader *r = ca_reader_open(path, CA_FMT_AUTO, &err);
	ca_ad *ads[2] = { NULL, NULL };
	CHECK(ca_reader_next(r, &ads[0], &err) == 1);
	CHECK(ca_reader_next(r, &ads[1], &err) == 1);
	ca_reader_close(r);
	unlink(path);
	if (ads[0] == NULL || ads[1] == NULL)
		return;
	ca_expr *big = ca_ad_lookup(ads[0], "big");
	CHECK(big && big->node == CA_N_LIT && big->u.lit.kind == CA_STRING &&
	    big->u.lit.x.len == n);
	static const ca_format fmts[] = { CA_FMT_NEW, CA_FMT_JSON, CA_FMT_XML, CA_FMT_LONG };
	for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		size_t len;
		char *text = write_ads(ads, 2, fmts[i], i == 1, &len);
		ca_ad *back = first_ad(text, len, CA_FMT_AUTO);
		CHECK(back != NULL);
		if (back) {
			ca_expr *e = ca_ad_lookup(back, "Big");
			CHECK(e && e->node == CA_N_LIT && e->u.lit.x.len == n &&
			    memcmp(e->u.lit.u.s, big->u.lit.u.s, n) == 0);
			CHECK(back->n == 3);
			ca_ad_free(back);
		}
		free(text);
	}
	ca_ad_free(ads[0]);
	ca_ad_free(ads[1]);
	strbuf_release(&sb);
}

/* Many ads through a file: every one comes out, in order. */
UNIT_SUITE(streams_many)
{
	static const ca_format fmts[] = { CA_FMT_LONG, CA_FMT_NEW, CA_FMT_JSON, CA_FMT_XML };
	const int n = 20000;

	for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
		char path[] = "/tmp/t_streams_XXXXXX";
		int fd = mkstemp(path);
		if (fd < 0) {
			CHECK(fd >= 0);
			return;
		}
		FILE *fp = fdopen(fd, "w");
		ca_writer *w = ca_writer_open(fp, fmts[f], f == 1);
		for (int i = 0; i < n; i++) {
			char src[200];
			ca_diag perr;
			size_t used;
			snprintf(src, sizeof src, "[ Name = \"slot%d@h\"; Id = %d; Load = %d.5; "
			    "Req = Id > %d && Name != \"x\" ]", i, i, i, i);
			ca_ad *ad = ca_parse_ad(src, strlen(src), &used, 0, &perr);
			ca_writer_put(w, ad);
			ca_ad_free(ad);
		}
		CHECK(ca_writer_close(w) == 0);
		fclose(fp);

		ca_diag err;
		ca_reader *r = ca_reader_open(path, CA_FMT_AUTO, &err);
		ca_ad *ad;
		int count = 0, inorder = 1, rc;
		while ((rc = ca_reader_next(r, &ad, &err)) == 1) {
			ca_expr *e = ca_ad_lookup(ad, "Id");
			if (!e || e->node != CA_N_LIT || e->u.lit.u.i != count)
				inorder = 0;
			count++;
			ca_ad_free(ad);
		}
		CHECK(rc == 0);
		CHECK(count == n && inorder);
		if (rc != 0 || count != n || !inorder)
			fprintf(stderr, "%s: %d ads, in order %d: %d:%d: %s\n",
			    ca_format_name(fmts[f]), count, inorder, err.line, err.col, err.msg);
		CHECK(ca_reader_format(r) == fmts[f]);
		ca_reader_close(r);
		unlink(path);
	}
}

/* Random bytes in every format: errors, never a crash or a hang. */
UNIT_SUITE(streams_garbage)
{
	static const ca_format fmts[] = { CA_FMT_AUTO, CA_FMT_LONG, CA_FMT_NEW, CA_FMT_JSON,
	    CA_FMT_XML };
	static const char *const prefixes[] = { "", "A = ", "[", "{\"a\":", "<c><a n=\"x\">",
	    "\x1f\x8b" };
	uint64_t seed = 12345;
	char buf[4096];

	for (int round = 0; round < 300; round++) {
		const char *pre = prefixes[round % 6];
		size_t pl = strlen(pre), n = 1 + (size_t)(round * 37 % (sizeof buf - pl));
		memcpy(buf, pre, pl);
		for (size_t i = pl; i < n + pl && i < sizeof buf; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			buf[i] = (char)(seed >> 56);
			if (round % 3 == 0 && (buf[i] & 0x80))
				buf[i] = "=[]{}\"\\\n <>/&,:"[(seed >> 40) % 16];
		}
		size_t len = n + pl < sizeof buf ? n + pl : sizeof buf;
		for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
			result res;
			read_mem(buf, len, fmts[f], &res);
			CHECK(res.nerr < 1000000);
			if (res.nerr)
				CHECK(res.first.msg[0] != 0 && (res.first.line > 0 || (res.first.status == CA_EX_SYSTEM) == 0));
			result_free(&res);
		}
	}
	/* binary with a NUL: the position is given */
	result res;
	read_mem("\x7f" "ELF\x02\x01\x01\0\0\0", 10, CA_FMT_AUTO, &res);
	CHECK(res.nerr == 1 && res.first.line == 1 && res.first.col >= 1);
	result_free(&res);
}

/* Brackets inside strings, quoted names and comments do not end an ad. */
UNIT_SUITE(streams_new_brackets)
{
	result res;

	read_str("[ a = \"x]\\\"]\"; 'b]' = 1; /* ] */ c = { [ d = 1 ] }[0]; // ]\n e = 2 ]\n"
	    "[ f = 'g' ]", CA_FMT_NEW, &res);
	CHECK(res.nerr == 0 && res.nads == 2);
	CHECK(res.lines[1] == 3);
	result_free(&res);
}

/* An ad is returned as soon as it is complete: a live pipe is not waited on. */
UNIT_SUITE(streams_live_pipe)
{
	static const struct {
		const char *first, *rest;
	} cases[] = {
		{ "A = 1\n\n", "B = 2\n" },
		{ "{\n[ a = 1 ],\n", "[ b = 2 ]\n}\n" },
		{ "[ a = 1 ]\n", "[ b = 2 ]\n" },
		{ "[\n{ \"a\": 1 },\n", "{ \"b\": 2 }\n]\n" },
		{ "<classads><c><a n=\"a\"><i>1</i></a></c>\n", "<c></c></classads>\n" },
	};

	alarm(20);	/* a reader that waits for more input would hang here */
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int fds[2];
		char path[32];
		if (pipe(fds) != 0) {
			CHECK(0);
			return;
		}
		CHECK(write(fds[1], cases[i].first, strlen(cases[i].first)) > 0);
		snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
		ca_diag err;
		ca_reader *r = ca_reader_open(path, CA_FMT_AUTO, &err);
		ca_ad *ad = NULL;
		CHECK(r && ca_reader_next(r, &ad, &err) == 1);
		ca_ad_free(ad);
		CHECK(write(fds[1], cases[i].rest, strlen(cases[i].rest)) > 0);
		close(fds[1]);
		CHECK(ca_reader_next(r, &ad, &err) == 1);
		ca_ad_free(ad);
		CHECK(ca_reader_next(r, &ad, &err) == 0);
		ca_reader_close(r);
		close(fds[0]);
	}
	alarm(0);
}

/* JSON nesting plus an expression inside it cannot exceed the parser's limit. */
UNIT_SUITE(streams_json_height)
{
	strbuf sb = STRBUF_INIT;
	result res;
	int half = CA_MAX_DEPTH / 2 + 10;

	strbuf_adds(&sb, "{\"A\": ");
	for (int i = 0; i < half; i++)
		strbuf_addc(&sb, '[');
	strbuf_adds(&sb, "\"\\/Expr(");
	for (int i = 0; i < half; i++)
		strbuf_addc(&sb, '(');
	strbuf_addc(&sb, '1');
	for (int i = 0; i < half; i++)
		strbuf_addc(&sb, ')');
	strbuf_adds(&sb, ")\\/\"");
	for (int i = 0; i < half; i++)
		strbuf_addc(&sb, ']');
	strbuf_adds(&sb, "}\n{\"B\": [[1]]}");
	read_str(sb.buf, CA_FMT_JSON, &res);
	CHECK(res.nerr == 1 && res.nads == 1);
	CHECK(strstr(res.first.msg, "nested") != NULL);
	result_free(&res);
	strbuf_release(&sb);
}

/* Long lines without '=': a comment is fine, anything else is an error
 * found without buffering the whole line. */
UNIT_SUITE(streams_long_lines)
{
	size_t n = 300 * 1024;
	char *text = malloc(n + 64);
	result res;

	memcpy(text, "A = 1\n#", 7);
	memset(text + 7, 'c', n);
	memcpy(text + 7 + n, "\nB = 2\n", 8);
	read_via_file(text, strlen(text), CA_FMT_LONG, &res);
	CHECK(res.nerr == 0 && res.nads == 1);
	CHECK(strcmp(res.ads.buf, "[ A = 1; B = 2 ]\n") == 0);
	result_free(&res);

	text[6] = 'x';
	read_via_file(text, strlen(text), CA_FMT_LONG, &res);
	CHECK(res.nerr == 1 && res.nads == 0 && res.first.line == 2);
	CHECK(strstr(res.first.msg, "no '='") != NULL);
	result_free(&res);

	/* after it, reading goes on with the next ad */
	memcpy(text + 7 + n, "\n\nB = 2\n", 9);
	read_via_file(text, strlen(text), CA_FMT_LONG, &res);
	CHECK(res.nerr == 1 && res.nads == 1 && res.lines[0] == 4);
	result_free(&res);
	free(text);
}

/* The warning a whole read of text gives (its message, "" for none), with
 * the ads and errors in *res; via a file (block by block) when file. */
static void
read_warning(const char *text, bool file, result *res, char *msg, size_t cap, int *line)
{
	ca_diag err, w;
	ca_reader *r;
	char path[] = "/tmp/t_streams_XXXXXX";

	if (file) {
		int fd = mkstemp(path);
		CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text));
		close(fd);
		r = ca_reader_open(path, CA_FMT_AUTO, &err);
	} else
		r = ca_reader_open_mem("t", text, strlen(text), CA_FMT_AUTO, &err);
	drain(r, res);
	msg[0] = '\0';
	*line = 0;
	if (ca_reader_warning(r, &w)) {
		snprintf(msg, cap, "%s", w.msg);
		*line = w.line;
	}
	CHECK(!ca_reader_warning(r, &w));	/* once */
	ca_reader_close(r);
	if (file)
		unlink(path);
}

/* What HTCondor's tools write: history files ("***" after each ad, no
 * blank lines), condor_q -global -long ("-- Schedd:" banners), and the
 * long format's details as HTCondor reads them. */
UNIT_SUITE(streams_long_htcondor)
{
	result res;
	char msg[256];
	int line;

	/* a condor_history file, the newer and the older banners */
	const char *hist =
	    "ClusterId = 1\nProcId = 0\nOwner = \"u\"\n"
	    "*** Offset = 0 ClusterId = 1 ProcId = 0 Owner = \"u\" CompletionDate = 5 "
	    "CurrentTime = 6\n"
	    "ClusterId = 1\nProcId = 1\n"
	    "*** ProcId = 1 ClusterId = 1 Owner = \"u\" CompletionDate = 7\n"
	    "ClusterId = 2\nProcId = 0\n"
	    "*** Offset = 88 ClusterId = 2 ProcId = 0 Owner = \"u\" CompletionDate = 9 "
	    "CurrentTime = 9\n";
	for (int file = 0; file < 2; file++) {
		read_warning(hist, file, &res, msg, sizeof msg, &line);
		CHECK(res.nerr == 0 && res.nads == 3 && res.fmt == CA_FMT_LONG);
		CHECK(strcmp(res.ads.buf, "[ ClusterId = 1; ProcId = 0; Owner = \"u\" ]\n"
		    "[ ClusterId = 1; ProcId = 1 ]\n[ ClusterId = 2; ProcId = 0 ]\n") == 0);
		CHECK(res.lines[1] == 5 && res.lines[2] == 8);
		CHECK(msg[0] == '\0');
		result_free(&res);
	}
	/* a bad line in one ad costs that ad only, up to its banner */
	read_str("A = 1\nB = (\nC = 2\n*** Offset = 0\nA = 3\n*** Offset = 20\n", CA_FMT_AUTO,
	    &res);
	CHECK(res.nerr == 1 && res.nads == 1 && strcmp(res.ads.buf, "[ A = 3 ]\n") == 0);
	result_free(&res);

	/* condor_q -global -long: banners before each schedd's ads */
	read_str("\n\n-- Schedd: submit1.example.org : <10.0.0.1:9618?addrs=10.0.0.1-9618>\n"
	    "ClusterId = 1\n\nClusterId = 2\n\n\n"
	    "-- Schedd: submit2.example.org : <10.0.0.2:9618>\nClusterId = 7\n"
	    "-- Submitter: alice@example.org : <10.0.0.3:9618> : submit3.example.org\n"
	    "ClusterId = 9\n...\nClusterId = 10\n", CA_FMT_AUTO, &res);
	CHECK(res.nerr == 0 && res.nads == 5 && res.fmt == CA_FMT_LONG);
	CHECK(strcmp(res.ads.buf, "[ ClusterId = 1 ]\n[ ClusterId = 2 ]\n[ ClusterId = 7 ]\n"
	    "[ ClusterId = 9 ]\n[ ClusterId = 10 ]\n") == 0);
	result_free(&res);
	/* only at the first column */
	read_str("A = 1\n *** x\n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 1 && res.nads == 0);
	result_free(&res);

	/* a tab before '=' is part of the name; the spaces before it are not */
	read_str("a\t = 1\nb  = 2\n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 0 && strcmp(res.ads.buf, "[ 'a\\t' = 1; b = 2 ]\n") == 0);
	result_free(&res);
	/* "C:\" ends in a backslash only at the end of the line */
	read_str("y = \"C:\\\"\r\nz = 1\n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 0 && strcmp(res.ads.buf, "[ y = \"C:\\\\\"; z = 1 ]\n") == 0);
	result_free(&res);
	read_str("y = \"C:\\\"  \nz = 1\n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 1 && res.nads == 0 && strstr(res.first.msg, "unterminated") != NULL);
	result_free(&res);
	read_str("y = \"a\\\" b\"  \n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 0 && strcmp(res.ads.buf, "[ y = \"a\\\" b\" ]\n") == 0);
	result_free(&res);

	/* the last ad looks cut short: no newline at the end */
	for (int file = 0; file < 2; file++) {
		read_warning("A = 1\n\nB = 2\nC = 3", file, &res, msg, sizeof msg, &line);
		CHECK(res.nerr == 0 && res.nads == 2);
		CHECK(strstr(msg, "no newline") != NULL && strstr(msg, "truncated") != NULL);
		CHECK(line == 4);
		result_free(&res);
	}
	/* ... or no "***" after it where the others have one */
	read_warning("A = 1\n*** Offset = 0\nA = 2\nB = 3\n", false, &res, msg, sizeof msg, &line);
	CHECK(res.nads == 2 && strstr(msg, "***") != NULL && line == 3);
	result_free(&res);
	/* ... or an expression that the end of the input cuts: an error */
	read_warning("A = 1\nB = (2 +", false, &res, msg, sizeof msg, &line);
	CHECK(res.nerr == 1 && res.nads == 0 && strstr(res.first.msg, "truncated") != NULL);
	result_free(&res);
	/* a last ad without its blank line, written whole, is fine */
	read_warning("A = 1\n\nB = 2\n", false, &res, msg, sizeof msg, &line);
	CHECK(res.nads == 2 && msg[0] == '\0');
	result_free(&res);
	read_warning("A = 1\n*** x\n", false, &res, msg, sizeof msg, &line);
	CHECK(res.nads == 1 && msg[0] == '\0');
	result_free(&res);
	read_warning("[ a = 1 ]", false, &res, msg, sizeof msg, &line);
	CHECK(res.nads == 1 && msg[0] == '\0');
	result_free(&res);
}

/* An ad that passes through keeps its literals as their text until
 * something reads them: the reader must keep only text that the parser
 * takes for that literal, so every attribute a passing reader gives has
 * the value a holding (packing) reader parses, and ads the one refuses
 * the other refuses too. The texts are made of the pieces literals are
 * made of, at random, with the corner cases among them. */
static uint64_t lit_rng = 0x9e3779b97f4a7c15u;

static unsigned
lit_pick(unsigned n)
{
	return unit_pick(&lit_rng, n);
}

static const char *
lit_text(char *buf, size_t cap)
{
	static const char *fixed[] = {
		"0", "-0", "00", "01", "-", "7", "999999999999999999",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808",
		"1.5", "-.5", ".5", "5.", "1e5", "1E+5", "1e", "1e-", "1.5e3x", "0x1F",
		"\"\"", "\"a\"", "\"a\\\"b\"", "\"C:\\\"", "\"C:\\\"  ", "\"a\" \"b\"",
		"\"a\"b", "\"abc", "\"a\\\\\"", "\"\\n\"", "true", "TRUE", "False",
		"undefined", "UNDEFINED", "error", "truex", "tru", "--1", "1 ", " 1",
		"\"0123456789abcdef\\q\"", "\"0123456789abcdef\"\"", "\"01234567\"",
		"TrUe", "FALSE", "uNdEfInEd", "Tru", "12345678901234567", "123456789012345678",
		"1234567890.12345678901", "0.000000001234", "1e123456", "12345678\xe9",
	};
	static const char *piece[] = {
		"0", "1", "9", "-", ".", "e", "E", "+", "\"", "\\", "a", " ", "x",
		"\"\"", "\\\"", "true", "12345678", "\xe9", ":", "/",
	};
	if (lit_pick(3) == 0)
		return fixed[lit_pick(sizeof fixed / sizeof fixed[0])];
	size_t n = 0;
	for (unsigned k = lit_pick(8) + 1; k > 0; k--) {
		const char *p = piece[lit_pick(sizeof piece / sizeof piece[0])];
		size_t len = strlen(p);
		if (n + len + 1 > cap)
			break;
		memcpy(buf + n, p, len);
		n += len;
	}
	buf[n] = '\0';
	return buf;
}

/* The long format's text of ad (written as one stream), and whether the
 * writer took it. */
static int
long_text(const ca_ad *ad, strbuf *sb)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ca_writer *w = ca_writer_open(fp, CA_FMT_LONG, false);
	int rc = ca_writer_put(w, ad);

	ca_writer_close(w);
	fclose(fp);
	strbuf_reset(sb);
	strbuf_add(sb, buf, len);
	free(buf);
	return rc;
}

/* An ad that keeps the text it was read from is written as a copy of it
 * (which keeps none) is written: the same bytes, or the same refusal. */
static void
same_as_copy(const ca_ad *ad)
{
	strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	ca_ad *copy = ca_ad_copy(ad);
	size_t n;

	CHECK(ca_ad_text(copy, &n) == NULL);
	CHECK(long_text(ad, &a) == long_text(copy, &b));
	CHECK(strcmp(a.buf, b.buf) == 0);
	ca_ad_free(copy);
	strbuf_release(&a);
	strbuf_release(&b);
}

UNIT_SUITE(streams_long_kept_literals)
{
	int nkept = 0, ntext = 0;

	/* each literal in an ad of its own (the general path) and in an ad
	 * after one of the same names (the one-pass path of known names) */
	for (int round = 0; round < 40000; round++) {
		char buf[128], text[256];
		const char *lit = lit_text(buf, sizeof buf);
		bool second = round & 1;
		int len = snprintf(text, sizeof text, "%sKeptLit = %s\nB = 1\n\n",
		    second ? "KeptLit = 0\nB = 1\n\n" : "", lit);
		ca_ad *ad[2] = { NULL, NULL };
		int rc[2];
		for (int pack = 0; pack < 2; pack++) {
			ca_diag err;
			ca_reader *r = ca_reader_open_mem("t", text, (size_t)len, CA_FMT_LONG, &err);
			if (pack)
				ca_reader_pack(r);
			if (second) {
				CHECK(ca_reader_next(r, &ad[pack], &err) == 1);
				ca_ad_free(ad[pack]);
				ad[pack] = NULL;
			}
			rc[pack] = ca_reader_next(r, &ad[pack], &err);
			ca_reader_close(r);
		}
		CHECK(rc[0] == rc[1]);
		if (rc[0] == 1 && rc[1] == 1) {
			const ca_attr *a = ca_ad_findn(ad[0], "KeptLit", 7), *b = ca_ad_findn(ad[1], "KeptLit", 7);
			size_t n;
			const char *kept = ca_attr_src(a, &n);
			/* kept text is the literal as written, after the
			 * blanks that follow '=' */
			const char *w = lit + strspn(lit, " ");
			CHECK(kept == NULL || (n == strlen(w) && memcmp(kept, w, n) == 0));
			ntext += ca_ad_text(ad[0], &n) != NULL;
			same_as_copy(ad[0]);
			const ca_expr *ea = ca_attr_expr(ad[0], a), *eb = ca_attr_expr(ad[1], b);
			CHECK(ca_attr_src(a, &n) == NULL);	/* parsed now */
			CHECK(ea->node == eb->node);
			if (kept != NULL)
				CHECK(ea->node == CA_N_LIT && ca_value_same(ea->u.lit, eb->u.lit));
			nkept += kept != NULL;
		}
		ca_ad_free(ad[0]);
		ca_ad_free(ad[1]);
	}
	CHECK(ntext > 4000);
	CHECK(nkept > 4000);

	/* an ad with the last one's names in its order shares its shape;
	 * one with a name in another's place does not, and every lookup
	 * finds what is there */
	{
		const char *three = "ShA = 1\nShB = 2\nShC = 3\n\nShA = 1\nShX = 2\nShC = 3\n\n"
		    "ShA = 1\nShB = 2\nShC = 3\n\nShA = 1\nShB = 2\n\n";
		ca_diag e2;
		ca_reader *r3 = ca_reader_open_mem("t", three, strlen(three), CA_FMT_LONG, &e2);
		ca_ad *ads[4];
		for (int k = 0; k < 4; k++)
			CHECK(ca_reader_next(r3, &ads[k], &e2) == 1);
		CHECK(ads[0]->shape != 0 && ads[0]->shape == ads[2]->shape);
		CHECK(ads[1]->shape != ads[0]->shape && ads[3]->shape != ads[0]->shape);
		CHECK(ca_ad_findn(ads[1], "ShB", 3) == NULL && ca_ad_findn(ads[1], "ShX", 3) != NULL);
		CHECK(ca_ad_findn(ads[2], "ShB", 3) != NULL && ca_ad_findn(ads[3], "ShC", 3) == NULL);
		for (int k = 0; k < 4; k++)
			ca_ad_free(ads[k]);
		ca_reader_close(r3);
	}

	/* names whose lines would read as banners are written quoted */
	{
		const char *nt = "[ '--' = 1; '...x' = 2; '***' = 3; '--x' = 4 ]";
		ca_diag e3;
		ca_ad *b = ca_parse_ad(nt, strlen(nt), NULL, 0, &e3);
		strbuf lb = STRBUF_INIT;
		ca_format_ad(&lb, b, CA_FMT_LONG);
		ca_reader *rb = ca_reader_open_mem("t", lb.buf, lb.len, CA_FMT_LONG, &e3);
		ca_ad *back = NULL;
		CHECK(ca_reader_next(rb, &back, &e3) == 1 && back->n == 4);
		ca_ad_free(back);
		ca_reader_close(rb);
		ca_ad_free(b);
		strbuf_release(&lb);
	}

	/* JSON's literals are shared between ads, each with its own value */
	{
		const char *js = "[{\"KT\": true, \"KF\": false, \"KE\": \"\"},"
		    "{\"KF\": false, \"KT\": true, \"KE\": \"\"}]";
		ca_diag e2;
		ca_reader *rj = ca_reader_open_mem("t", js, strlen(js), CA_FMT_JSON, &e2);
		for (int k = 0; k < 2; k++) {
			ca_ad *aj = NULL;
			CHECK(ca_reader_next(rj, &aj, &e2) == 1);
			const ca_expr *t = ca_attr_expr(aj, ca_ad_findn(aj, "KT", 2));
			const ca_expr *f = ca_attr_expr(aj, ca_ad_findn(aj, "KF", 2));
			const ca_expr *em = ca_attr_expr(aj, ca_ad_findn(aj, "KE", 2));
			CHECK(t->u.lit.kind == CA_BOOL && t->u.lit.u.b);
			CHECK(f->u.lit.kind == CA_BOOL && !f->u.lit.u.b);
			CHECK(em->u.lit.kind == CA_STRING && em->u.lit.x.len == 0);
			ca_ad_free(aj);
		}
		ca_reader_close(rj);
	}

	/* kept text is written back as it came, and read again the same */
	result res;
	read_str("R = 0.10000000000000000555\nS = \"a\\\"b\"\nT = TRUE\nI = -12\n\n", CA_FMT_LONG, &res);
	CHECK(res.nerr == 0 && res.nads == 1);
	result_free(&res);
	const char *in = "KeptR = 0.10000000000000000555\nKeptS = \"a\\\"b\"\nKeptT = TRUE\nKeptI = -12\n";
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", in, strlen(in), CA_FMT_LONG, &err);
	ca_ad *ad = NULL;
	CHECK(ca_reader_next(r, &ad, &err) == 1);
	strbuf sb = STRBUF_INIT;
	ca_format_ad(&sb, ad, CA_FMT_LONG);
	CHECK(strcmp(sb.buf, in) == 0);
	/* a literal read (as a node) is still printed as it came, also once
	 * the ad changes, until the literal itself does: then from its value */
	CHECK(ca_attr_expr(ad, ca_ad_findn(ad, "KeptR", 5))->node == CA_N_LIT);
	strbuf_reset(&sb);
	ca_format_ad(&sb, ad, CA_FMT_LONG);
	CHECK(strcmp(sb.buf, in) == 0);
	ca_set_int(ad, "Added", 1);
	strbuf_reset(&sb);
	ca_format_ad(&sb, ad, CA_FMT_LONG);
	CHECK(strncmp(sb.buf, "KeptR = 0.10000000000000000555\n", 31) == 0);
	CHECK(strstr(sb.buf, "KeptS = \"a\\\"b\"\nKeptT = TRUE\nKeptI = -12\nAdded = 1\n") != NULL);
	ca_set_real(ad, "KeptR", 0.1);	/* its value already: as it came */
	ca_set_real(ad, "KeptR", 0.25);
	ca_set_real(ad, "KeptR", 0.1);
	strbuf_reset(&sb);
	ca_format_ad(&sb, ad, CA_FMT_LONG);
	CHECK(strncmp(sb.buf, "KeptR = 0.1\n", 12) == 0);
	ca_ad_free(ad);
	ca_reader_close(r);
	strbuf_release(&sb);
}

/* An ad whose lines are each as the long format's writer prints them
 * keeps them, and is written by copying them; any other ad, or one that
 * changed, is written attribute by attribute, to the same effect. */
UNIT_SUITE(streams_long_kept_text)
{
	static const struct {
		const char *text;
		bool kept;	/* the ad keeps its text */
	} cases[] = {
		{ "KtA = 1\nKtS = \"x\"\nKtR = 2.50\n", true },
		{ "KtA = 1\nKtS = \"x\"\nKtR = 2.50\nKtE = a && b\n", true },
		{ "KtA = 1\n# a comment\nKtS = \"x\"\nKtR = 2.50\nKtE = a && b\n", true },
		{ "KtA = 1\nKtS=\"x\"\nKtR = 2.50\nKtE = a && b\n", false },
		{ "KtA = 1\nKtS =  \"x\"\nKtR = 2.50\nKtE = a && b\n", false },
		{ "  KtA = 1\nKtS = \"x\"\nKtR = 2.50\nKtE = a && b\n", false },
		{ "KtA = 1\r\nKtS = \"x\"\nKtR = 2.50\nKtE = a && b\n", false },
		{ "KtA = 1\nKtS = \"x\"\nKtR = 2.50\nKtE = a&&b\n", false },	/* printed a && b */
		{ "KtA = 1\nKtS = \"x\"\nKtR = 2.50 \nKtE = a && b\n", false },
		{ "KtA = 1\nKtS = \"x\"\nKtA = 2\nKtE = a && b\n", false },	/* KtA twice */
		{ "KtA = 1\nT\tab = 2\nKtE = a && b\n", false },	/* written quoted */
		{ "KtA = 1\n'q r' = 2\nKtE = a && b\n", false },
		{ "KtA = 1\nStaRT = 2\nKtE = a && b\n", true },	/* spelled otherwise */
		{ "KtA = 1\nKtS = \"C:\\\"\nKtE = a && b\n", true },
	};
	char big[8192];
	size_t bn = 0;

	/* longer than the ad before it by far: its text grows as it is read */
	for (int i = 0; i < 100; i++)
		bn += (size_t)snprintf(big + bn, sizeof big - bn, "Big%d = \"%040d\"\n", i, i);
	ca_intern("START", 5);	/* the name's own spelling is another */
	/* the lines copied to each ad, or kept where they were read in memory
	 * that stays (but for an ad whose lines a comment parts) */
	const size_t ncases = sizeof cases / sizeof cases[0] + 1;	/* and big */
	for (size_t i = 0; i < 2 * ncases; i++) {
		bool stays = i >= ncases;
		size_t c = i % ncases;
		const char *t = c < sizeof cases / sizeof cases[0] ? cases[c].text : big;
		bool kept0 = c < sizeof cases / sizeof cases[0] ? cases[c].kept : true;
		strbuf in = STRBUF_INIT, out = STRBUF_INIT;
		/* twice: the second time, its expressions are shared */
		strbuf_addf(&in, "KtA = 0\n\n%s\n%s\n", t, t);
		ca_diag err;
		ca_reader *r = ca_reader_open_mem("t", in.buf, in.len, CA_FMT_LONG, &err);
		if (stays)
			ca_reader_mem_stays(r);
		ca_ad *ad;
		size_t n = 0;
		for (int k = 0; k < 3; k++) {
			CHECK(ca_reader_next(r, &ad, &err) == 1);
			const char *text = ca_ad_text(ad, &n);
			bool in_place = text != NULL && (uintptr_t)text - (uintptr_t)in.buf < in.len;
			CHECK(in_place == (text != NULL && stays && (k == 0 || c != 2)));
			same_as_copy(ad);
			/* a line not kept as a literal's text is kept when
			 * the writer prints its tree so, the first time (its
			 * tree the ad's own) as the second (shared) */
			bool kept = kept0;
			if (k >= 1)
				CHECK((text != NULL) == kept);
			if (k == 2) {
				/* what it keeps is its lines, without comments */
				if (kept) {
					long_text(ad, &out);
					CHECK(strcmp(out.buf + out.len - 1, "\n") == 0);
					CHECK(out.len == n + 1 && memcmp(out.buf, text, n) == 0);
					CHECK(c == 2 || memcmp(text, t, n) == 0);
				}
				/* its literals are where they were read */
				if (c == sizeof cases / sizeof cases[0]) {
					const ca_expr *e = ca_attr_expr(ad, ca_ad_findn(ad, "Big7", 4));
					CHECK(e->node == CA_N_LIT && e->u.lit.kind == CA_STRING &&
					    e->u.lit.x.len == 40 && e->u.lit.u.s[39] == '7');
				}
				/* read, a literal changes nothing */
				(void)ca_ad_lookup(ad, "KtR");
				CHECK((ca_ad_text(ad, &n) != NULL) == kept);
				/* a change drops the text: the ad is then written
				 * from its attributes */
				ca_set_int(ad, "Added", 1);
				CHECK(ca_ad_text(ad, &n) == NULL);
				long_text(ad, &out);
				CHECK(strstr(out.buf, "Added = 1\n") != NULL);
			}
			ca_ad_free(ad);
		}
		CHECK(ca_reader_next(r, &ad, &err) == 0);
		ca_reader_close(r);
		strbuf_release(&in);
		strbuf_release(&out);
	}
}

/* Ads of a few shapes that share their first names and then part (a
 * machine's slots: partitionable, dynamic, claimed or not) read in any
 * order as each alone: the same attributes, spellings, text and shape. */
UNIT_SUITE(streams_long_alternating_shapes)
{
	static const char *const tail[] = {
		"AsState = \"Unclaimed\"\nAsCpus = 16\nAsStart = AsCpus > 0\n",
		"AsState = \"Claimed\"\nAsRemoteUser = \"u@x\"\nAsJobId = \"1.0\"\nAsCpus = 1\n",
		"AsState = \"Claimed\"\nAsRemoteUser = \"u@x\"\nASJOBID = \"2.0\"\nAsCpus = 2\n",
		"AsSlotType = \"Partitionable\"\nAsCpus = 8\nAsStart = AsCpus > 0\nAsChild = {1, 2}\n",
		"AsState = \"Owner\"\n",
		"AsState = \"Unclaimed\"\nAsCpus = 16\nAsStart = AsCpus > 0\nAsMore = 1\n",
		/* the next name of one shape at its place in another, whose
		 * names before it are not the ad's */
		"AsOwnerOnly = 1\nAsCpus = 4\n",
		"AsState = \"Owner\"\nAsCpus = 4\n",
	};
	strbuf in = STRBUF_INIT;
	uint64_t x = 88172645463325252u;
	int pick[300];

	ca_intern("ASJOBID", 7);	/* AsJobId is another spelling */
	for (int i = 0; i < 300; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		pick[i] = (int)(x % (sizeof tail / sizeof tail[0]));
		strbuf_addf(&in, "AsName = \"slot%d\"\nAsMachine = \"m%d\"\n%s\n", i, i / 8,
		    tail[pick[i]]);
	}
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", in.buf, in.len, CA_FMT_LONG, &err);
	strbuf a = STRBUF_INIT, b = STRBUF_INIT, one = STRBUF_INIT;
	ca_ad *ad, *alone;
	/* once first, so that its expressions are shared (and kept as text
	 * the same way) both times */
	while (ca_reader_next(r, &ad, &err) == 1)
		ca_ad_free(ad);
	ca_reader_close(r);
	r = ca_reader_open_mem("t", in.buf, in.len, CA_FMT_LONG, &err);
	for (int i = 0; i < 300; i++) {
		CHECK(ca_reader_next(r, &ad, &err) == 1);
		strbuf_reset(&one);
		strbuf_addf(&one, "AsName = \"slot%d\"\nAsMachine = \"m%d\"\n%s\n", i, i / 8,
		    tail[pick[i]]);
		ca_reader *r1 = ca_reader_open_mem("t", one.buf, one.len, CA_FMT_LONG, &err);
		CHECK(ca_reader_next(r1, &alone, &err) == 1);
		ca_reader_close(r1);
		long_text(ad, &a);
		long_text(alone, &b);
		CHECK(strcmp(a.buf, b.buf) == 0);
		CHECK(ad->n == alone->n && ad->shape == alone->shape);
		for (uint32_t k = 0; k < ad->n && k < alone->n; k++)
			CHECK(ca_attr_spell(&ad->attrs[k]) == ca_attr_spell(&alone->attrs[k]));
		size_t n1, n2;
		CHECK((ca_ad_text(ad, &n1) != NULL) == (ca_ad_text(alone, &n2) != NULL));
		strbuf_reset(&a);
		strbuf_reset(&b);
		ca_print_ad(&a, ad, 0);
		ca_print_ad(&b, alone, 0);
		CHECK(strcmp(a.buf, b.buf) == 0);
		ca_ad_free(ad);
		ca_ad_free(alone);
	}
	CHECK(ca_reader_next(r, &ad, &err) == 0);
	ca_reader_close(r);
	strbuf_release(&in);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&one);
}

/* An ad changed since it was read is written with the lines of what did
 * not change copied as they were read (a real as it was written, too),
 * and what changed printed: a value set, an attribute deleted or added,
 * text kept from elsewhere. */
UNIT_SUITE(streams_long_changed_lines)
{
	static const char text[] =
	    "ClMemory = 4096\nClLoad = 2.50\nClName = \"slot1@host\"\n"
	    "ClStart = ClMemory > 1024 && ClLoad < 3.0\nClState = \"Unclaimed\"\nClTotal = 7\n\n";
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", text, sizeof text - 1, CA_FMT_LONG, &err);
	ca_ad *ad;
	ca_ctx cx;
	strbuf out = STRBUF_INIT;
	int64_t i;
	double d;
	bool b;
	size_t n;

	ca_ctx_init(&cx);
	/* the second time, its expression is shared and its lines kept */
	CHECK(r != NULL && ca_reader_next(r, &ad, &err) == 1);
	ca_ad_free(ad);
	ca_reader_close(r);
	r = ca_reader_open_mem("t", text, sizeof text - 1, CA_FMT_LONG, &err);
	CHECK(r != NULL && ca_reader_next(r, &ad, &err) == 1);
	ca_reader_close(r);
	CHECK(ca_ad_text(ad, &n) != NULL);
	/* read: the first line and a real among them */
	CHECK(ca_get_int(&cx, ad, "ClMemory", &i) == 1 && i == 4096);
	CHECK(ca_get_num(&cx, ad, "ClLoad", &d) == 1 && d == 2.5);
	CHECK(ca_get_bool(&cx, ad, "ClStart", &b) == 1 && b);
	ca_set_str(ad, "ClState", "Claimed");
	CHECK(ca_ad_text(ad, &n) == NULL && ca_ad_lines(ad, &n) != NULL);
	long_text(ad, &out);
	CHECK(strcmp(out.buf, "ClMemory = 4096\nClLoad = 2.50\nClName = \"slot1@host\"\n"
	    "ClStart = ClMemory > 1024 && ClLoad < 3.0\nClState = \"Claimed\"\nClTotal = 7\n\n") == 0);
	/* a real set anew is printed as such; a new attribute comes last */
	ca_set_real(ad, "ClLoad", 2.5);	/* the same value: as it was */
	long_text(ad, &out);
	CHECK(strstr(out.buf, "ClLoad = 2.50\n") != NULL);
	ca_set_real(ad, "ClLoad", 2.75);
	ca_set_int(ad, "ClAdded", 1);
	long_text(ad, &out);
	CHECK(strcmp(out.buf, "ClMemory = 4096\nClLoad = 2.75\nClName = \"slot1@host\"\n"
	    "ClStart = ClMemory > 1024 && ClLoad < 3.0\nClState = \"Claimed\"\nClTotal = 7\n"
	    "ClAdded = 1\n\n") == 0);
	/* deleted: its line is not written, the next still are */
	CHECK(ca_unset(ad, "ClName"));
	CHECK(ca_get_int(&cx, ad, "ClTotal", &i) == 1 && i == 7);
	long_text(ad, &out);
	CHECK(strcmp(out.buf, "ClMemory = 4096\nClLoad = 2.75\n"
	    "ClStart = ClMemory > 1024 && ClLoad < 3.0\nClState = \"Claimed\"\nClTotal = 7\n"
	    "ClAdded = 1\n\n") == 0);
	/* text kept from elsewhere, then read: its own value, not the line's */
	ca_ad_set_src(ad, ca_intern("ClMemory", 8), NULL, "8192", 4);
	CHECK(ca_get_int(&cx, ad, "ClMemory", &i) == 1 && i == 8192);
	ca_ad_set(ad, ca_intern("ClStart", 7), NULL, ca_parse_expr(ad->arena, "true", 4, 0, &err));
	long_text(ad, &out);
	CHECK(strcmp(out.buf, "ClMemory = 8192\nClLoad = 2.75\n"
	    "ClStart = true\nClState = \"Claimed\"\nClTotal = 7\n"
	    "ClAdded = 1\n\n") == 0);
	same_as_copy(ad);
	/* a shared tree whose text begins the line read, and one whose text
	 * is the line's: the first a change, the second as it was */
	ca_arena sa = { 0 };
	const ca_expr *part = ca_expr_share(ca_parse_expr(&sa, "7", 1, 0, &err));
	const ca_expr *whole = ca_expr_share(ca_parse_expr(&sa, "ClAdded == 1", 12, 0, &err));
	CHECK(part != NULL && whole != NULL);
	static const char two[] = "ClTotal = 75\nClLater = ClAdded == 1\n\n";
	r = ca_reader_open_mem("t", two, sizeof two - 1, CA_FMT_LONG, &err);
	ca_ad *ad2;
	CHECK(r != NULL && ca_reader_next(r, &ad2, &err) == 1);
	ca_reader_close(r);
	ca_set_str(ad2, "ClNew", "x");	/* changed: the lines are copied line by line */
	ca_ad_set(ad2, ca_intern("ClTotal", 7), NULL, (ca_expr *)(uintptr_t)part);
	ca_ad_set(ad2, ca_intern("ClLater", 7), NULL, (ca_expr *)(uintptr_t)whole);
	long_text(ad2, &out);
	CHECK(strcmp(out.buf, "ClTotal = 7\nClLater = ClAdded == 1\nClNew = \"x\"\n\n") == 0);
	ca_ad_free(ad2);
	ca_arena_free(&sa);
	/* what it prints is still checked: a newline in a string set, or a
	 * string ending in a backslash inside an expression, is refused */
	CHECK(long_text(ad, &out) == 0);
	ca_set_str(ad, "ClState", "a\nb");
	CHECK(long_text(ad, &out) == -1);
	same_as_copy(ad);
	ca_set_str(ad, "ClState", "Claimed");
	CHECK(long_text(ad, &out) == 0);
	ca_ad_set(ad, ca_intern("ClStart", 7), NULL,
	    ca_parse_expr(ad->arena, "{\"C:\\\\\", 1}", 11, 0, &err));
	CHECK(long_text(ad, &out) == -1);
	same_as_copy(ad);
	ca_ad_free(ad);

	/* a line read that the writer could not print so (a string ending in
	 * a backslash under an operator) is refused as its copy is, whether
	 * the ad changed since or not */
	static const char odd[] = "ClOdd = ~\"C:\\\"\nClN = 1\n\n";
	for (int k = 0; k < 2; k++) {
		r = ca_reader_open_mem("t", odd, sizeof odd - 1, CA_FMT_LONG, &err);
		CHECK(r != NULL && ca_reader_next(r, &ad, &err) == 1);
		ca_reader_close(r);
		same_as_copy(ad);
		CHECK(long_text(ad, &out) == -1);
		ca_set_int(ad, "ClN", 2);
		same_as_copy(ad);
		CHECK(long_text(ad, &out) == -1);
		ca_ad_free(ad);
	}
	strbuf_release(&out);
	ca_ctx_free(&cx);
}

/* A reader of the long format over text[0..n), its memory staying if
 * stays. */
static ca_reader *
open_long(const char *text, size_t n, bool stays)
{
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", text, n, CA_FMT_LONG, &err);

	if (stays)
		ca_reader_mem_stays(r);
	return r;
}

/* Ads read with room for names more (ca_reader_room) keep it after they
 * are read, packed ads excepted; and an ad whose literals kept as text
 * follow each other on their lines writes the lines of those left, a
 * deleted one's not, whether its lines were copied or stay where read. */
UNIT_SUITE(streams_long_room_and_runs)
{
	static const char text[] =
	    "RrA = 1\nRrB = 22\nRrC = \"three\"\nRrD = 4.5\nRrE = true\nRrF = 6\n\n";
	static const char *const drop[] = { "RrA", "RrB", "RrC", "RrE", "RrF" };
	ca_diag err;
	strbuf out = STRBUF_INIT, want = STRBUF_INIT;

	for (int mode = 0; mode < 3; mode++) {
		ca_reader *r = open_long(text, sizeof text - 1, mode == 1);
		if (mode == 2)
			ca_reader_pack(r);
		ca_reader_room(r, 9);
		ca_ad *ad;
		CHECK(ca_reader_next(r, &ad, &err) == 1);
		ca_reader_close(r);
		CHECK(ad->n == 6);
		CHECK(mode == 2 || ad->cap >= 6 + 9);
		for (int i = 0; i < 9; i++)	/* the room taken: nothing moves */
			ca_set_int(ad, i % 2 ? "RrOdd" : "RrEven", i);
		CHECK(ad->n == 8);
		ca_ad_free(ad);
	}
	/* each one deleted, and each two that follow each other */
	for (int mode = 0; mode < 2; mode++)
		for (size_t d = 0; d < 2 * (sizeof drop / sizeof drop[0]) - 1; d++) {
			ca_reader *r = open_long(text, sizeof text - 1, mode);
			ca_ad *ad;
			CHECK(ca_reader_next(r, &ad, &err) == 1);
			ca_reader_close(r);
			size_t a = d % 5, b = d < 5 ? a : a + 1;
			strbuf_reset(&want);
			for (const char *l = text; *l != '\n'; l = strchr(l, '\n') + 1) {
				size_t len = (size_t)(strchr(l, '\n') - l) + 1;
				if (strncmp(l, drop[a], 3) != 0 && strncmp(l, drop[b], 3) != 0)
					strbuf_add(&want, l, len);
			}
			strbuf_addc(&want, '\n');
			CHECK(ca_unset(ad, drop[a]));
			if (b != a)
				CHECK(ca_unset(ad, drop[b]));
			long_text(ad, &out);
			CHECK(strcmp(out.buf, want.buf) == 0);
			ca_ad_free(ad);
		}
	/* lines taken many at a time are counted: a bad line after them, and
	 * the ads after it, are where they are */
	static const char bad[] = "RrA = 1\nRrB = 2\nRrC = 3\nRrD = 4\nRrE = 5\n\n"
	    "RrA = 1\nRrB = 2\nRrC = 3\nRrD = 4\nRrE = (1 +\n\n"
	    "RrA = 5\nRrB = 6\nRrC = 7\nRrD = 8\nRrE = 9\n\n";
	for (int mode = 0; mode < 2; mode++) {
		ca_reader *r = open_long(bad, sizeof bad - 1, mode);
		ca_ad *ad;
		CHECK(ca_reader_next(r, &ad, &err) == 1 && ca_reader_ad_line(r) == 1);
		ca_ad_free(ad);
		CHECK(ca_reader_next(r, &ad, &err) == -1 && err.line == 11);
		CHECK(ca_reader_next(r, &ad, &err) == 1 && ca_reader_ad_line(r) == 13 && ad->n == 5);
		ca_ad_free(ad);
		CHECK(ca_reader_next(r, &ad, &err) == 0);
		int after;
		CHECK(ca_reader_read_all(r, &after) && after == 19);
		ca_reader_close(r);
	}
	/* an expression the last ad had at the same place, the same text:
	 * the store's tree, its line kept; another text there is parsed */
	static const char exprs[] =
	    "RrA = 1\nRrStart = RrA > 0 && RrB < 3\nRrB = 2\nRrW = RrA && RrB\n\n"
	    "RrA = 1\nRrStart = RrA > 0 && RrB < 3\nRrB = 2\nRrW = RrA && RrB\n\n"
	    "RrA = 1\nRrStart = RrA > 0 && RrB < 3\nRrB = 2\nRrW = RrA && RrB\n\n"
	    "RrA = 1\nRrStart = RrA > 0 || RrB < 3\nRrB = 5\nRrW = RrA && RrB\n\n"
	    "RrA = 1\nRrStart = RrA > 0 && RrB < 3 \nRrB = 5\nRrW = RrA && RrB\n\n"
	    "RrA = 12\nRrStart = RrA > 0 && RrB < 3\nRrB = 5\nRrW = RrA && RrB\n\n";
	for (int mode = 0; mode < 2; mode++) {
		ca_reader *r = open_long(exprs, sizeof exprs - 1, mode);
		ca_ad *ad[6];
		ca_ctx cx;
		ca_ctx_init(&cx);
		for (int k = 0; k < 6; k++)
			CHECK(ca_reader_next(r, &ad[k], &err) == 1 && ad[k]->n == 4);
		/* a literal the last ad had too, or another that begins so */
		int64_t i;
		CHECK(ca_get_int(&cx, ad[4], "RrA", &i) == 1 && i == 1);
		CHECK(ca_get_int(&cx, ad[5], "RrA", &i) == 1 && i == 12);
		CHECK(ca_get_int(&cx, ad[5], "RrB", &i) == 1 && i == 5);
		ca_ad *end;
		CHECK(ca_reader_next(r, &end, &err) == 0);
		ca_reader_close(r);
		const ca_expr *st[5];
		for (int k = 0; k < 5; k++)
			st[k] = ca_attr_expr(ad[k], ca_ad_findn(ad[k], "RrStart", 7));
		CHECK(st[1] == st[2] && (st[2]->flags & CA_EXPR_SHARED) && st[3] != st[2]);
		for (int k = 1; k < 3; k++) {
			size_t n;
			const char *t = ca_ad_text(ad[k], &n);
			CHECK(t != NULL && n == 62 && memcmp(t, exprs + 63 * k, n) == 0);
		}
		bool b;
		CHECK(ca_get_bool(&cx, ad[2], "RrStart", &b) == 1 && b);
		CHECK(ca_get_bool(&cx, ad[3], "RrStart", &b) == 1 && b);
		CHECK(ca_get_bool(&cx, ad[4], "RrStart", &b) == 1 && !b);
		CHECK(ca_get_bool(&cx, ad[2], "RrW", &b) == 1 && b);
		strbuf_reset(&out);
		ca_format_ad(&out, ad[4], CA_FMT_LONG);
		CHECK(strstr(out.buf, "RrStart = RrA > 0 && RrB < 3\n") != NULL);
		for (int k = 0; k < 6; k++)
			ca_ad_free(ad[k]);
		ca_ctx_free(&cx);
	}
	strbuf_release(&out);
	strbuf_release(&want);
}

/* How an ad is written does not depend on the ads read before it: the
 * first ad of a stream (its text grown as it was read, its expressions not
 * yet shared) writes a literal it read, and keeps its lines, as the same
 * ad later in the stream does. */
UNIT_SUITE(streams_long_history_free)
{
	strbuf one = STRBUF_INIT, in = STRBUF_INIT, out[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };

	strbuf_adds(&one, "HfLoad = 90.134055742813345\nHfStart = (HfLoad > 1) && (HfCpus >= 2)\n");
	for (int i = 0; i < 60; i++)	/* longer than the room first made for it */
		strbuf_addf(&one, "HfPad%d = \"%048d\"\n", i, i);
	for (int k = 0; k < 3; k++)
		strbuf_addf(&in, "%s\n", one.buf);
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", in.buf, in.len, CA_FMT_LONG, &err);
	for (int k = 0; k < 3; k++) {
		ca_ad *ad;
		CHECK(ca_reader_next(r, &ad, &err) == 1);
		size_t n;
		CHECK(ca_ad_text(ad, &n) != NULL);	/* its lines kept, the first too */
		/* the literal read as a node, the ad changed elsewhere: its line
		 * is still the input's */
		const ca_expr *e = ca_attr_expr(ad, ca_ad_findn(ad, "HfLoad", 6));
		CHECK(e->node == CA_N_LIT && e->u.lit.kind == CA_REAL);
		ca_set_int(ad, "HfAdded", k);
		ca_set_int(ad, "HfAdded", 0);
		ca_format_ad(&out[k], ad, CA_FMT_LONG);
		CHECK(strstr(out[k].buf, "\nHfLoad = 90.134055742813345\n") != NULL ||
		    strncmp(out[k].buf, "HfLoad = 90.134055742813345\n", 28) == 0);
		ca_ad_free(ad);
	}
	CHECK(strcmp(out[0].buf, out[1].buf) == 0 && strcmp(out[1].buf, out[2].buf) == 0);
	ca_reader_close(r);
	strbuf_release(&one);
	strbuf_release(&in);
	for (int k = 0; k < 3; k++)
		strbuf_release(&out[k]);
}

/* A part of a larger input read on its own names the lines of the whole;
 * a long-format writer takes the text of ads another one wrote. */
UNIT_SUITE(streams_parts)
{
	const char *part = "A = 1\n\nB = (\nC = 2\n\n";
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("whole", part, strlen(part), CA_FMT_LONG, &err);
	ca_ad *ad;

	ca_reader_set_line(r, 41);
	CHECK(ca_reader_next(r, &ad, &err) == 1 && ca_reader_ad_line(r) == 41);
	ca_ad_free(ad);
	CHECK(ca_reader_next(r, &ad, &err) == -1 && err.line == 43);
	int after = 0;
	CHECK(!ca_reader_read_all(r, &after));	/* not yet at its end */
	CHECK(ca_reader_next(r, &ad, &err) == 0);
	/* five lines read from line 41: the part's own count of them */
	CHECK(ca_reader_read_all(r, &after) && after == 46);
	ca_reader_close(r);
	/* a last line without its newline, or lines not of the long format,
	 * are for the caller to count */
	static const char *const uncounted[] = { "A = 1\n\nB = 2", "[ A = 1 ]\n" };
	static const ca_format fmts[] = { CA_FMT_LONG, CA_FMT_NEW };
	for (int k = 0; k < 2; k++) {
		r = ca_reader_open_mem("whole", uncounted[k], strlen(uncounted[k]), fmts[k], &err);
		while (ca_reader_next(r, &ad, &err) == 1)
			ca_ad_free(ad);
		CHECK(!ca_reader_read_all(r, &after));
		ca_reader_close(r);
	}

	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ca_writer *w = ca_writer_open(fp, CA_FMT_LONG, false);
	ad = first_ad("X = 1\n", 6, CA_FMT_LONG);
	CHECK(ca_writer_put(w, ad) == 0);
	CHECK(ca_writer_put_text(w, "Y = 2\n\nZ = 3\n\n", 14) == 0);
	CHECK(ca_writer_put(w, ad) == 0);
	CHECK(ca_writer_close(w) == 0);
	fclose(fp);
	CHECK(strcmp(buf, "X = 1\n\nY = 2\n\nZ = 3\n\nX = 1\n\n") == 0);
	free(buf);
	buf = NULL;
	fp = open_memstream(&buf, &len);
	w = ca_writer_open(fp, CA_FMT_JSON, false);
	errno = 0;
	CHECK(ca_writer_put_text(w, "Y = 2\n\n", 7) == -1 && errno == EINVAL);
	CHECK(ca_writer_close(w) == 0);
	fclose(fp);
	CHECK(strcmp(buf, "[\n]\n") == 0);
	free(buf);
	ca_ad_free(ad);
}
