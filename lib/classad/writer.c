/* writer.c - streaming ad output in the long, new, JSON and XML formats as
 * HTCondor writes them, optionally gzip-compressed through zlib. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ad.h"
#include "arena.h"
#include "expr.h"
#include "print.h"
#include "strbuf.h"
#include "value.h"
#include "writer.h"

#define ZOUT	(64 * 1024)

struct ca_writer {
	FILE *fp;
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

/* The name of an attribute as this ad spells it. */
static const char *
attr_spell(const ca_attr *at, size_t *len)
{
	const char *s = at->spell ? at->spell : at->name->spell;

	*len = strlen(s);
	return s;
}

static void
spaces(strbuf *sb, int n)
{
	while (n-- > 0)
		strbuf_addc(sb, ' ');
}

/* ------------------------------------------------------------------- long */

/* Can the long format hold this name as it is? The reader splits at the
 * first '=', trims blanks and takes '#' lines for comments; anything else
 * is written quoted ('a b') and unquoted again by the reader. */
static bool
long_plain_name(const char *s, size_t n)
{
	if (n == 0 || s[0] == '#' || s[0] == '\'')
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c <= 0x20 || c == 0x7f || c == '=')
			return false;
	}
	return true;
}

static void
format_long(strbuf *sb, const ca_ad *ad)
{
	for (uint32_t i = 0; i < ad->n; i++) {
		size_t n;
		const char *s = attr_spell(&ad->attrs[i], &n);
		if (long_plain_name(s, n))
			strbuf_add(sb, s, n);
		else
			ca_print_name(sb, s, n);
		strbuf_add(sb, " = ", 3);
		ca_print_expr(sb, ad->attrs[i].expr, CA_PR_OLD);
		strbuf_addc(sb, '\n');
	}
}

/* ------------------------------------------------------------------- json */

static void json_expr(strbuf *sb, strbuf *tmp, const ca_expr *e, int indent);
static void json_val(strbuf *sb, strbuf *tmp, ca_value v, int indent);

static void
json_escape(strbuf *sb, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t run = 0;

	strbuf_grow(sb, n + 2);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		strbuf_add(sb, s + run, i - run);
		run = i + 1;
		switch (c) {
		case '"': strbuf_add(sb, "\\\"", 2); break;
		case '\\': strbuf_add(sb, "\\\\", 2); break;
		case '\b': strbuf_add(sb, "\\b", 2); break;
		case '\f': strbuf_add(sb, "\\f", 2); break;
		case '\n': strbuf_add(sb, "\\n", 2); break;
		case '\r': strbuf_add(sb, "\\r", 2); break;
		case '\t': strbuf_add(sb, "\\t", 2); break;
		default: {
			char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
			strbuf_add(sb, u, 6);
		}
		}
	}
	strbuf_add(sb, s + run, n - run);
}

static void
json_string(strbuf *sb, const char *s, size_t n)
{
	strbuf_addc(sb, '"');
	json_escape(sb, s, n);
	strbuf_addc(sb, '"');
}

/* "\/Expr(text)\/" for the text in tmp. */
static void
json_quote_expr(strbuf *sb, const strbuf *tmp)
{
	strbuf_add(sb, "\"\\/Expr(", 8);
	json_escape(sb, tmp->buf, tmp->len);
	strbuf_add(sb, ")\\/\"", 4);
}

static void
json_ad(strbuf *sb, strbuf *tmp, const ca_ad *ad, int indent)
{
	strbuf_addc(sb, '{');
	for (uint32_t i = 0; i < ad->n; i++) {
		size_t n;
		const char *s = attr_spell(&ad->attrs[i], &n);
		if (i)
			strbuf_addc(sb, ',');
		strbuf_addc(sb, '\n');
		spaces(sb, indent + 2);
		json_string(sb, s, n);
		strbuf_add(sb, ": ", 2);
		json_expr(sb, tmp, ad->attrs[i].expr, indent + 2);
	}
	strbuf_addc(sb, '\n');
	spaces(sb, indent);
	strbuf_addc(sb, '}');
}

/* Is s[0..n) well-formed UTF-8 (no overlong forms, no surrogates, nothing
 * above U+10FFFF)? */
static bool
utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		unsigned c = *p;
		size_t k;
		unsigned lo = 0x80, hi = 0xbf;
		if (c < 0x80) {
			p++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			k = 1;
		else if (c >= 0xe0 && c <= 0xef) {
			k = 2;
			if (c == 0xe0)
				lo = 0xa0;
			else if (c == 0xed)
				hi = 0x9f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			k = 3;
			if (c == 0xf0)
				lo = 0x90;
			else if (c == 0xf4)
				hi = 0x8f;
		} else
			return false;
		if ((size_t)(end - p) <= k || p[1] < lo || p[1] > hi)
			return false;
		for (size_t i = 2; i <= k; i++)
			if (p[i] < 0x80 || p[i] > 0xbf)
				return false;
		p += k + 1;
	}
	return true;
}

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
	return utf8_valid(s, n);
}

static void
json_val(strbuf *sb, strbuf *tmp, ca_value v, int indent)
{
	switch (v.kind) {
	case CA_UNDEFINED:
		strbuf_add(sb, "null", 4);
		return;
	case CA_BOOL:
		strbuf_adds(sb, v.u.b ? "true" : "false");
		return;
	case CA_INT:
		strbuf_addf(sb, "%" PRId64, v.u.i);
		return;
	case CA_REAL:
		if (isfinite(v.u.r)) {
			ca_print_real(sb, v.u.r);
			return;
		}
		break;
	case CA_STRING:
		/* A JSON string is Unicode text: a string that is not UTF-8
		 * goes as an expression, its other bytes in octal escapes, so
		 * that nothing is lost and the output stays valid JSON. */
		if (utf8_valid(v.u.s, v.x.len)) {
			json_string(sb, v.u.s, v.x.len);
			return;
		}
		break;
	case CA_LIST:
		strbuf_addc(sb, '[');
		for (uint32_t i = 0; i < v.x.len; i++) {
			if (i)
				strbuf_addc(sb, ',');
			strbuf_addc(sb, '\n');
			spaces(sb, indent + 2);
			json_val(sb, tmp, v.u.items[i], indent + 2);
		}
		strbuf_addc(sb, '\n');
		spaces(sb, indent);
		strbuf_addc(sb, ']');
		return;
	case CA_AD:
		json_ad(sb, tmp, v.u.ad->ad, indent);
		return;
	default:	/* ERROR, ABSTIME, RELTIME, INF and NaN */
		break;
	}
	strbuf_reset(tmp);
	ca_print_value(tmp, v, 0);
	json_quote_expr(sb, tmp);
}

static void
json_expr(strbuf *sb, strbuf *tmp, const ca_expr *e, int indent)
{
	switch (e->node) {
	case CA_N_LIT:
		json_val(sb, tmp, e->u.lit, indent);
		return;
	case CA_N_AD:
		json_ad(sb, tmp, e->u.ad, indent);
		return;
	case CA_N_LIST:
		strbuf_addc(sb, '[');
		for (uint32_t i = 0; i < e->u.list.n; i++) {
			if (i)
				strbuf_addc(sb, ',');
			strbuf_addc(sb, '\n');
			spaces(sb, indent + 2);
			json_expr(sb, tmp, e->u.list.items[i], indent + 2);
		}
		strbuf_addc(sb, '\n');
		spaces(sb, indent);
		strbuf_addc(sb, ']');
		return;
	default:
		strbuf_reset(tmp);
		ca_print_expr(tmp, e, 0);
		json_quote_expr(sb, tmp);
		return;
	}
}

/* -------------------------------------------------------------------- xml */

static void xml_expr(strbuf *sb, strbuf *tmp, const ca_expr *e, int indent);
static void xml_val(strbuf *sb, strbuf *tmp, ca_value v, int indent);

/* & < > as entities (and " too in attribute values). */
static void
xml_escape(strbuf *sb, const char *s, size_t n, bool attr)
{
	size_t run = 0;

	for (size_t i = 0; i < n; i++) {
		const char *ent;
		switch (s[i]) {
		case '&': ent = "&amp;"; break;
		case '<': ent = "&lt;"; break;
		case '>': ent = "&gt;"; break;
		case '"': ent = attr ? "&quot;" : NULL; break;
		default: ent = NULL; break;
		}
		if (ent == NULL)
			continue;
		strbuf_add(sb, s + run, i - run);
		strbuf_adds(sb, ent);
		run = i + 1;
	}
	strbuf_add(sb, s + run, n - run);
}

/* The body of <s>: new-syntax escapes without the quotes ('"' stays as it
 * is, as HTCondor writes it), then the XML entities. */
static void
xml_string_text(strbuf *sb, strbuf *tmp, const char *s, size_t n)
{
	strbuf_reset(tmp);
	strbuf_grow(tmp, n);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '\a': strbuf_add(tmp, "\\a", 2); continue;
		case '\b': strbuf_add(tmp, "\\b", 2); continue;
		case '\f': strbuf_add(tmp, "\\f", 2); continue;
		case '\n': strbuf_add(tmp, "\\n", 2); continue;
		case '\r': strbuf_add(tmp, "\\r", 2); continue;
		case '\t': strbuf_add(tmp, "\\t", 2); continue;
		case '\v': strbuf_add(tmp, "\\v", 2); continue;
		case '\\': strbuf_add(tmp, "\\\\", 2); continue;
		default:
			break;
		}
		if (c < 0x20 || c >= 0x7f) {
			char o[4] = { '\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)),
			    (char)('0' + (c & 7)) };
			strbuf_add(tmp, o, 4);
		} else
			strbuf_addc(tmp, (char)c);
	}
	xml_escape(sb, tmp->buf, tmp->len, false);
}

static void
xml_ad(strbuf *sb, strbuf *tmp, const ca_ad *ad, int indent)
{
	strbuf_add(sb, "<c>\n", 4);
	for (uint32_t i = 0; i < ad->n; i++) {
		size_t n;
		const char *s = attr_spell(&ad->attrs[i], &n);
		spaces(sb, indent + 4);
		strbuf_add(sb, "<a n=\"", 6);
		xml_escape(sb, s, n, true);
		strbuf_add(sb, "\">", 2);
		xml_expr(sb, tmp, ad->attrs[i].expr, indent + 4);
		strbuf_add(sb, "</a>\n", 5);
	}
	spaces(sb, indent);
	strbuf_add(sb, "</c>", 4);
	if (indent == 0)
		strbuf_addc(sb, '\n');
}

static void
xml_val(strbuf *sb, strbuf *tmp, ca_value v, int indent)
{
	switch (v.kind) {
	case CA_ERROR:
		strbuf_adds(sb, "<er/>");
		return;
	case CA_UNDEFINED:
		strbuf_adds(sb, "<un/>");
		return;
	case CA_BOOL:
		strbuf_adds(sb, v.u.b ? "<b v=\"t\"/>" : "<b v=\"f\"/>");
		return;
	case CA_INT:
		strbuf_addf(sb, "<i>%" PRId64 "</i>", v.u.i);
		return;
	case CA_REAL:
		strbuf_adds(sb, "<r>");
		if (isnan(v.u.r))
			strbuf_adds(sb, "NaN");
		else if (isinf(v.u.r))
			strbuf_adds(sb, v.u.r > 0 ? "INF" : "-INF");
		else
			ca_print_real(sb, v.u.r);
		strbuf_adds(sb, "</r>");
		return;
	case CA_STRING:
		strbuf_adds(sb, "<s>");
		xml_string_text(sb, tmp, v.u.s, v.x.len);
		strbuf_adds(sb, "</s>");
		return;
	case CA_LIST:
		strbuf_adds(sb, "<l>");
		for (uint32_t i = 0; i < v.x.len; i++)
			xml_val(sb, tmp, v.u.items[i], indent);
		strbuf_adds(sb, "</l>");
		return;
	case CA_AD:
		xml_ad(sb, tmp, v.u.ad->ad, indent);
		return;
	case CA_ABSTIME:
		strbuf_adds(sb, "<at>");
		ca_print_abstime(sb, v.u.i, v.x.off);
		strbuf_adds(sb, "</at>");
		return;
	case CA_RELTIME:
		strbuf_adds(sb, "<rt>");
		ca_print_reltime(sb, v.u.r);
		strbuf_adds(sb, "</rt>");
		return;
	default:
		strbuf_adds(sb, "<er/>");
		return;
	}
}

static void
xml_expr(strbuf *sb, strbuf *tmp, const ca_expr *e, int indent)
{
	switch (e->node) {
	case CA_N_LIT:
		xml_val(sb, tmp, e->u.lit, indent);
		return;
	case CA_N_AD:
		xml_ad(sb, tmp, e->u.ad, indent);
		return;
	case CA_N_LIST:
		strbuf_adds(sb, "<l>");
		for (uint32_t i = 0; i < e->u.list.n; i++)
			xml_expr(sb, tmp, e->u.list.items[i], indent);
		strbuf_adds(sb, "</l>");
		return;
	default:
		strbuf_reset(tmp);
		ca_print_expr(tmp, e, 0);
		strbuf_adds(sb, "<e>");
		xml_escape(sb, tmp->buf, tmp->len, false);
		strbuf_adds(sb, "</e>");
		return;
	}
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
		json_ad(sb, tmp, ad, 0);
		break;
	case CA_FMT_XML:
		xml_ad(sb, tmp, ad, 0);
		break;
	default:
		format_long(sb, ad);
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

static bool old_ad_unsafe(const ca_ad *ad);

/* Does a string of v end in a backslash where the line does not end (last
 * false)? Old strings read "C:\" back only at the end of a line (HTCondor's
 * rule for Windows paths): anywhere else its \" is an escaped quote. */
static bool
old_value_unsafe(ca_value v, bool last)
{
	switch (v.kind) {
	case CA_STRING:
		return !last && v.x.len > 0 && v.u.s[v.x.len - 1] == '\\';
	case CA_LIST:
		for (uint32_t i = 0; i < v.x.len; i++)
			if (old_value_unsafe(v.u.items[i], false))
				return true;
		return false;
	case CA_AD:
		return old_ad_unsafe(v.u.ad->ad);
	default:
		return false;
	}
}

/* The same for the strings of e, printed in old syntax; last: e ends the
 * line. Trees are no deeper than the parser's limit. */
static bool
old_expr_unsafe(const ca_expr *e, bool last)
{
	switch (e->node) {
	case CA_N_LIT:
		return old_value_unsafe(e->u.lit, last);
	case CA_N_SELECT:
		return old_expr_unsafe(e->u.sel.base, false);
	case CA_N_INDEX:
	case CA_N_UNARY:
	case CA_N_BINARY:
	case CA_N_COND:
	case CA_N_ELVIS:
	case CA_N_PAREN:
		return (e->u.k.a && old_expr_unsafe(e->u.k.a, false)) ||
		    (e->u.k.b && old_expr_unsafe(e->u.k.b, false)) ||
		    (e->node == CA_N_COND && e->u.k.c && old_expr_unsafe(e->u.k.c, false));
	case CA_N_CALL:
		for (uint32_t i = 0; i < e->u.call.n; i++)
			if (old_expr_unsafe(e->u.call.args[i], false))
				return true;
		return false;
	case CA_N_LIST:
		for (uint32_t i = 0; i < e->u.list.n; i++)
			if (old_expr_unsafe(e->u.list.items[i], false))
				return true;
		return false;
	case CA_N_AD:
		return old_ad_unsafe(e->u.ad);
	default:
		return false;
	}
}

static bool
old_ad_unsafe(const ca_ad *ad)
{
	for (uint32_t i = 0; i < ad->n; i++)
		if (old_expr_unsafe(ad->attrs[i].expr, false))
			return true;
	return false;
}

int
ca_writer_put(ca_writer *w, const ca_ad *ad)
{
	strbuf *sb = &w->sb;

	if (w->err) {
		errno = w->err;
		return -1;
	}
	strbuf_reset(sb);
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
	format_ad(sb, &w->tmp, ad, w->fmt);
	/* An ad the format cannot hold is not written (the writer goes on):
	 * written anyway it would read back as something else, or not at all. */
	w->refused = NULL;
	if (w->fmt == CA_FMT_LONG) {
		/* One line per attribute: old strings have no escape for a
		 * newline, and written raw it would split the attribute (or
		 * forge others); nor for a final backslash inside an
		 * expression. An ad without attributes has no text at all. */
		uint32_t lines = 0;
		for (const char *p = sb->buf + start; (p = memchr(p, '\n',
		    (size_t)(sb->buf + sb->len - p))) != NULL; p++)
			lines++;
		bool unsafe = lines != ad->n;
		for (uint32_t i = 0; i < ad->n && !unsafe; i++)
			unsafe = old_expr_unsafe(ad->attrs[i].expr, true);
		if (ad->n == 0)
			w->refused = "the long format cannot hold an ad without attributes "
			    "(-o new, json or xml can)";
		else if (unsafe)
			w->refused = "the long format cannot hold a string with a newline, or "
			    "a backslash ending an expression's line (-o new, json or xml can)";
		strbuf_addc(sb, '\n');	/* a blank line after every ad */
	} else if (w->fmt != CA_FMT_NEW && !text_ok(sb->buf + start, sb->len - start))
		/* strings are escaped: what is left is an attribute name */
		w->refused = w->fmt == CA_FMT_JSON ?
		    "JSON cannot hold an attribute name that is not UTF-8 (-o new can)" :
		    "XML cannot hold an attribute name that is not UTF-8 or holds a "
		    "control character (-o new can)";
	if (w->refused) {
		errno = EILSEQ;
		return -1;
	}
	w->nads++;
	if (out(w, sb->buf, sb->len) < 0) {
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
	if (fflush(w->fp) != 0 && !w->err)
		w->err = errno ? errno : EIO;
	if (ferror(w->fp) && !w->err)
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
