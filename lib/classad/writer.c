/* writer.c - streaming ad output as HTCondor writes it, optionally gzip-
 * compressed; each format's text is made in write_*.c. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "print.h"
#include "writer.h"
#include "writer_int.h"

#define ZOUT	(64 * 1024)

struct ca_writer {
	FILE *fp;		/* or NULL: the ads go to *dst */
	strbuf *dst;
	ca_format fmt;
	bool gz;
	z_stream zs;
	unsigned char *zout;
	strbuf sb;		/* one ad's text */
	strbuf tmp;		/* scratch for unparsed expressions */
	unsigned long nads;
	int err;		/* errno of the first failure, or 0 */
	const char *refused;	/* why the last ad was refused (EILSEQ) */
};

static const char xml_header[] =
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE classads SYSTEM \"classads.dtd\">\n"
    "<classads>\n";

/* Text JSON and XML can carry: UTF-8 without control characters but for
 * tab, newline and carriage return. */
static bool
text_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
			return false;
	}
	return ca_wr_utf8_valid(s, n);
}

/* ------------------------------------------------------------------ ads */

static void
format_ad(strbuf *sb, strbuf *tmp, const ca_ad *ad, ca_format fmt)
{
	switch (fmt) {
	case CA_FMT_NEW:
		ca_print_ad(sb, ad, 0);
		break;
	case CA_FMT_JSON:
		ca_wr_json(sb, tmp, ad, 0);
		break;
	case CA_FMT_XML:
		ca_wr_xml(sb, tmp, ad, 0);
		break;
	default:
		ca_wr_long(sb, ad);
		break;
	}
}

void
ca_format_ad(strbuf *sb, const ca_ad *ad, ca_format fmt)
{
	strbuf tmp = STRBUF_INIT;

	format_ad(sb, &tmp, ad, fmt);
	strbuf_release(&tmp);
}

/* ---------------------------------------------------------------- output */

static int
put_raw(ca_writer *w, const void *p, size_t n)
{
	if (n == 0)
		return 0;
	errno = 0;
	if (fwrite(p, 1, n, w->fp) != n) {
		w->err = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

/* Compress what zs holds as input (flush: Z_NO_FLUSH or Z_FINISH). */
static int
deflate_out(ca_writer *w, int flush)
{
	for (;;) {
		w->zs.next_out = w->zout;
		w->zs.avail_out = ZOUT;
		int zr = deflate(&w->zs, flush);
		if (zr == Z_STREAM_ERROR) {
			w->err = EIO;
			return -1;
		}
		if (put_raw(w, w->zout, ZOUT - w->zs.avail_out) < 0)
			return -1;
		if (flush == Z_FINISH ? zr == Z_STREAM_END :
		    (w->zs.avail_in == 0 && w->zs.avail_out != 0))
			return 0;
	}
}

static int
out(ca_writer *w, const char *s, size_t n)
{
	if (w->err)
		return -1;
	if (w->dst != NULL) {
		strbuf_add(w->dst, s, n);
		return 0;
	}
	if (!w->gz)
		return put_raw(w, s, n);
	while (n > 0) {
		size_t k = n > UINT_MAX ? UINT_MAX : n;
		w->zs.next_in = (Bytef *)(uintptr_t)s;
		w->zs.avail_in = (uInt)k;
		if (deflate_out(w, Z_NO_FLUSH) < 0)
			return -1;
		s += k;
		n -= k;
	}
	return 0;
}

ca_writer *
ca_writer_open(FILE *fp, ca_format fmt, bool gzip)
{
	ca_writer *w = ca_xcalloc(1, sizeof *w);
	strbuf sb0 = STRBUF_INIT;

	w->fp = fp;
	w->fmt = fmt == CA_FMT_AUTO ? CA_FMT_LONG : fmt;
	w->sb = sb0;
	w->tmp = sb0;
	if (gzip) {
		w->gz = true;
		w->zout = ca_xmalloc(ZOUT);
		if (deflateInit2(&w->zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK) {
			w->gz = false;
			w->err = ENOMEM;
		}
	}
	return w;
}

ca_writer *
ca_writer_open_buf(strbuf *dst, ca_format fmt)
{
	ca_writer *w = ca_writer_open(NULL, fmt, false);

	w->dst = dst;
	return w;
}

int
ca_writer_put(ca_writer *w, const ca_ad *ad)
{
	/* to a buffer the ad is made in place, and taken back if refused */
	strbuf *sb = w->dst != NULL ? w->dst : &w->sb;

	if (w->err) {
		errno = w->err;
		return -1;
	}
	if (w->dst == NULL)
		strbuf_reset(sb);
	size_t mark = sb->len;
	switch (w->fmt) {
	case CA_FMT_NEW:
		strbuf_adds(sb, w->nads ? ",\n" : "{\n");
		break;
	case CA_FMT_JSON:
		strbuf_adds(sb, w->nads ? ",\n" : "[\n");
		break;
	case CA_FMT_XML:
		if (w->nads == 0)
			strbuf_adds(sb, xml_header);
		break;
	default:
		break;
	}
	size_t start = sb->len;
	/* An ad the format cannot hold is not written (the writer goes on):
	 * written anyway it would read back as something else, or not at all. */
	w->refused = NULL;
	if (w->fmt == CA_FMT_LONG) {
		w->refused = ca_wr_long_put(sb, ad);
		strbuf_addc(sb, '\n');	/* a blank line after every ad */
	} else {
		format_ad(sb, &w->tmp, ad, w->fmt);
		if (w->fmt != CA_FMT_NEW && !text_ok(sb->buf + start, sb->len - start))
			/* strings are escaped: what is left is an attribute name */
			w->refused = w->fmt == CA_FMT_JSON ?
			    "JSON cannot hold an attribute name that is not UTF-8 (-o new can)" :
			    "XML cannot hold an attribute name that is not UTF-8 or holds a "
			    "control character (-o new can)";
	}
	if (w->refused) {
		sb->len = mark;
		sb->buf[mark] = '\0';
		errno = EILSEQ;
		return -1;
	}
	w->nads++;
	if (w->dst == NULL && out(w, sb->buf, sb->len) < 0) {
		errno = w->err;
		return -1;
	}
	return 0;
}

int
ca_writer_put_text(ca_writer *w, const char *text, size_t n)
{
	if (w->fmt != CA_FMT_LONG) {
		errno = EINVAL;
		return -1;
	}
	if (out(w, text, n) < 0) {
		errno = w->err;
		return -1;
	}
	return 0;
}

const char *
ca_writer_refusal(const ca_writer *w)
{
	return w->refused ? w->refused : "the output format cannot hold this ad";
}

int
ca_writer_close(ca_writer *w)
{
	const char *tail = "";
	int rc = 0, e = 0;

	if (w == NULL)
		return 0;
	switch (w->fmt) {
	case CA_FMT_NEW:
		tail = w->nads ? "\n}\n" : "{\n}\n";
		break;
	case CA_FMT_JSON:
		tail = w->nads ? "\n]\n" : "[\n]\n";
		break;
	case CA_FMT_XML:
		if (w->nads == 0)
			out(w, xml_header, sizeof xml_header - 1);
		tail = "</classads>\n";
		break;
	default:
		break;
	}
	out(w, tail, strlen(tail));
	if (w->gz) {
		if (!w->err) {
			w->zs.next_in = NULL;
			w->zs.avail_in = 0;
			deflate_out(w, Z_FINISH);
		}
		deflateEnd(&w->zs);
	}
	errno = 0;
	if (w->fp != NULL && fflush(w->fp) != 0 && !w->err)
		w->err = errno ? errno : EIO;
	if (w->fp != NULL && ferror(w->fp) && !w->err)
		w->err = EIO;
	if (w->err) {
		e = w->err;
		rc = -1;
	}
	free(w->zout);
	strbuf_release(&w->sb);
	strbuf_release(&w->tmp);
	free(w);
	if (rc)
		errno = e;
	return rc;
}
