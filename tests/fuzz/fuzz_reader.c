/* fuzz_reader.c - libFuzzer harness for the stream reader: every format,
 * plain and gzip, read to the end and written back out in every format. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

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

/* data as one gzip member, so that the fuzzer's changes to the text also
 * reach the reader through zlib. NULL if zlib refuses. */
static unsigned char *
gzip(const uint8_t *data, size_t size, size_t *outlen)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	size_t cap = deflateBound(&zs, (uLong)size) + 32;
	unsigned char *out = malloc(cap);
	if (out == NULL) {
		deflateEnd(&zs);
		return NULL;
	}
	zs.next_in = (Bytef *)(uintptr_t)data;
	zs.avail_in = (uInt)size;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&zs);
		free(out);
		return NULL;
	}
	*outlen = cap - zs.avail_out;
	deflateEnd(&zs);
	return out;
}

/* ad written by a writer in format fmt, as a whole stream, into *out (free
 * it); -1 with errno as ca_writer_put leaves it. */
static int
write_one(const ca_ad *ad, ca_format fmt, char **out, size_t *len)
{
	FILE *fp = open_memstream(out, len);
	ca_writer *w;
	int rc, e;

	if (fp == NULL || (w = ca_writer_open(fp, fmt, false)) == NULL)
		abort();
	rc = ca_writer_put(w, ad);
	e = errno;
	if (rc < 0 && e == EILSEQ && ca_writer_refusal(w)[0] == '\0')
		abort();	/* a refusal without a reason */
	if (ca_writer_close(w) < 0 || fclose(fp) != 0)
		abort();
	errno = e;
	return rc;
}

/*
 * What a writer writes, its reader must read back as the same ad: one ad,
 * no error, printing the same. A format may refuse an ad it cannot hold
 * (EILSEQ, with a reason): the long format an empty ad or strings with
 * newlines, JSON and XML names that are not UTF-8; the new format never.
 */
static void
read_back(const ca_ad *ad, ca_format fmt)
{
	strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	ca_diag err;
	ca_ad *again, *more;
	char *text = NULL;
	size_t len = 0;

	if (write_one(ad, fmt, &text, &len) < 0) {
		if (fmt == CA_FMT_NEW || errno != EILSEQ)
			abort();
		free(text);
		return;
	}
	ca_reader *r = ca_reader_open_mem("<again>", text, len, fmt, &err);
	if (ca_reader_next(r, &again, &err) != 1) {
		fprintf(stderr, "%s does not read back: %d:%d: %s\n%s\n", ca_format_name(fmt),
		    err.line, err.col, err.msg, text);
		abort();
	}
	if (ca_reader_next(r, &more, &err) != 0)
		abort();	/* one ad written, more read */
	ca_reader_close(r);
	ca_print_ad(&want, ad, 0);
	ca_print_ad(&got, again, 0);
	if (strcmp(want.buf, got.buf) != 0) {
		fprintf(stderr, "%s changes the ad:\n  %s\n  %s\n", ca_format_name(fmt), want.buf,
		    got.buf);
		abort();
	}
	ca_ad_free(again);
	strbuf_release(&want);
	strbuf_release(&got);
	free(text);
}

/* An ad that keeps the text it was read from (the long format's lines,
 * each as the writer prints it) is written as a copy of it, which keeps
 * none, is written: the same bytes, or the same refusal. Before anything
 * reads its literals, which are then printed from their values. */
static void
kept_text_same(const ca_ad *ad)
{
	char *a = NULL, *b = NULL;
	size_t al = 0, bl = 0, n;

	if (ca_ad_text(ad, &n) == NULL)
		return;
	ca_ad *copy = ca_ad_copy(ad);
	int ra = write_one(ad, CA_FMT_LONG, &a, &al), rb = write_one(copy, CA_FMT_LONG, &b, &bl);
	if (ra != rb || (ra == 0 && (al != bl || memcmp(a, b, al) != 0))) {
		fprintf(stderr, "kept text differs:\n%.*s---\n%.*s\n", (int)al, a ? a : "",
		    (int)bl, b ? b : "");
		abort();
	}
	ca_ad_free(copy);
	free(a);
	free(b);
}

/* An ad changed after it was read is written with the lines of what did
 * not change copied from those it was read with: it still reads back as
 * itself. Which literals are read, which attribute is deleted and which
 * set comes from the input's bytes. */
static void
changed_reads_back(ca_ad *ad, const uint8_t *data, size_t size)
{
	size_t n;

	if (ca_ad_lines(ad, &n) == NULL || ad->n == 0)
		return;
	for (uint32_t i = 0; i < ad->n; i++) {
		ca_value v;
		if (data[i % size] & 1)
			(void)ca_attr_lit_in(ad, &ad->attrs[i], &v);
	}
	uint32_t del = (uint32_t)(data[size / 2] % ad->n);
	uint32_t set = (uint32_t)(data[size - 1] % ad->n);
	const ca_name *sn = ca_attr_name(&ad->attrs[set]);
	ca_ad_set_lit(ad, sn, NULL, ca_int((int64_t)size));
	if (ad->n > 1)
		(void)ca_ad_delete(ad, ca_attr_name(&ad->attrs[del == set ? (del + 1) % ad->n : del]));
	read_back(ad, CA_FMT_LONG);
}

/*
 * The first byte chooses: bits 0-2 the format asked for (auto, long, new,
 * json, xml), bit 3 whether the rest is gzip-compressed here first. The
 * rest is the input. Every ad read is written in all four formats and read
 * back.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	ca_format fmt = (ca_format)((data[0] & 7) % 5);
	bool compress = (data[0] & 8) != 0;
	const char *text = (const char *)data + 1;
	size_t len = size - 1;
	unsigned char *z = NULL;

	if (compress) {
		size_t zlen;
		if ((z = gzip(data + 1, len, &zlen)) == NULL)
			return 0;
		text = (const char *)z;
		len = zlen;
	}
	ca_diag err;
	memset(&err, 0, sizeof err);
	ca_reader *r = ca_reader_open_mem("<fuzz>", text, len, fmt, &err);
	if (r == NULL)
		abort();
	strbuf sb = STRBUF_INIT;
	size_t calls = 0, limit = size + 16;
	if (len >= 2 && (unsigned char)text[0] == 0x1f && (unsigned char)text[1] == 0x8b)
		limit = len * 1100 + 16;	/* deflate expands at most 1032 times */
	for (;;) {
		ca_ad *ad;
		int rc = ca_reader_next(r, &ad, &err);
		/* every call consumes input or ends the stream: more calls
		 * than bytes of text means the reader does not make progress */
		if (++calls > limit)
			abort();
		if (rc == 0)
			break;
		if (rc < 0) {
			if (err.msg[0] == '\0' || err.file == NULL)
				abort();	/* an error without a message */
			memset(&err, 0, sizeof err);
			continue;
		}
		kept_text_same(ad);
		for (int f = CA_FMT_LONG; f <= CA_FMT_XML; f++) {
			strbuf_reset(&sb);
			ca_format_ad(&sb, ad, (ca_format)f);
			read_back(ad, (ca_format)f);
		}
		changed_reads_back(ad, data, size);
		ca_ad_free(ad);
	}
	(void)ca_reader_format(r);
	(void)ca_reader_ad_line(r);
	/* a warning has a message, and comes once */
	if (ca_reader_warning(r, &err) && (err.msg[0] == '\0' || ca_reader_warning(r, &err)))
		abort();
	ca_reader_close(r);
	strbuf_release(&sb);
	free(z);
	ca_intern_cleanup();
	return 0;
}
