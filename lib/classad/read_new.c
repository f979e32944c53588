/* read_new.c - ads in the new syntax: "[ a = 1; b = a + 1 ]", one after another
 * or in a list "{ [...], [...] }", each parsed once its closing ']' is read. */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "ad.h"
#include "parser.h"
#include "reader.h"
#include "reader_int.h"

/* Line and column of buf[off] (off >= pos, inside the buffer). */
static void
where(const ca_reader *r, size_t off, int *line, int *col)
{
	const char *p = r->buf + r->pos, *e = r->buf + off, *nl;
	uint64_t ls = r->lstart;
	int ln = r->line;

	if (off > r->end)
		e = r->buf + r->end;
	while (p < e && (nl = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		ln++;
		ls = r->base + (uint64_t)(nl - r->buf) + 1;
		p = nl + 1;
	}
	*line = ln;
	uint64_t c = r->base + off - ls + 1;
	*col = c > INT_MAX ? INT_MAX : (int)c;
}

/* Bad input at buf[off]. */
static int
bad_off(ca_reader *r, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int
bad_off(ca_reader *r, size_t off, const char *fmt, ...)
{
	va_list ap;
	int line, col;

	where(r, off, &line, &col);
	va_start(ap, fmt);
	ca_rd_verror(r, 0, line, col, fmt, ap);
	va_end(ap);
	return R_FATAL;
}

/* Consume n buffered bytes, counting lines. */
static void
consume(ca_reader *r, size_t n)
{
	const char *p = r->buf + r->pos, *e = p + n, *nl;

	while (p < e && (nl = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		r->line++;
		r->lstart = r->base + (uint64_t)(nl - r->buf) + 1;
		p = nl + 1;
	}
	r->pos += n;
}

/* Skip white space and // and C comments; the next byte (not consumed),
 * -1 at the end, -2 on error (reported). */
static int
new_skip(ca_reader *r)
{
	for (;;) {
		int c = skip_ws(r, false);
		if (c != '/')
			return c;
		int d = peekk(r, 1);
		if (d == -2)
			return -2;
		if (d == '/') {
			while ((c = peek0(r)) >= 0 && c != '\n')
				r->pos++;
			if (c == -2)
				return -2;
			continue;
		}
		if (d != '*')
			return c;
		int line = r->line, col = col_of(r, r->pos);
		r->pos += 2;
		for (;;) {
			c = peek0(r);
			if (c == -2)
				return -2;
			if (c == -1) {
				ca_rd_error(r, 0, line, col, "unterminated comment");
				return -2;
			}
			if (c == '*' && (d = peekk(r, 1)) == '/') {
				r->pos += 2;
				break;
			}
			if (d == -2)
				return -2;
			adv1(r);
		}
	}
}

enum { NS_CODE, NS_STRING, NS_NAME, NS_LINE, NS_BLOCK };

/* Look for the ']' that closes the ad starting at pos, going on from where
 * the last call stopped. Strings, quoted names and comments are skipped as
 * the lexer skips them. The length of the ad text, or 0 if not there yet. */
static size_t
new_scan(ca_reader *r)
{
	const char *b = r->buf + r->pos;
	size_t n = r->end - r->pos, i = r->nscan;
	int depth = r->ndepth, st = r->nstate;

	for (; i < n; i++) {
		char c = b[i];
		switch (st) {
		case NS_CODE:
			if (c == '[')
				depth++;
			else if (c == ']') {
				if (--depth <= 0) {
					r->nscan = i + 1;
					r->ndepth = depth;
					r->nstate = st;
					return i + 1;
				}
			} else if (c == '"')
				st = NS_STRING;
			else if (c == '\'')
				st = NS_NAME;
			else if (c == '/') {
				if (i + 1 == n)
					goto more;
				if (b[i + 1] == '/' || b[i + 1] == '*') {
					st = b[i + 1] == '/' ? NS_LINE : NS_BLOCK;
					i++;
				}
			}
			break;
		case NS_STRING:
		case NS_NAME:
			if (c == '\\') {
				if (i + 1 == n)
					goto more;
				i++;
			} else if (c == (st == NS_STRING ? '"' : '\''))
				st = NS_CODE;
			break;
		case NS_LINE:
			if (c == '\n')
				st = NS_CODE;
			break;
		default:
			if (c == '*') {
				if (i + 1 == n)
					goto more;
				if (b[i + 1] == '/') {
					st = NS_CODE;
					i++;
				}
			}
			break;
		}
	}
more:
	r->nscan = i;
	r->ndepth = depth;
	r->nstate = st;
	return 0;
}

int
ca_rd_next_new(ca_reader *r, ca_ad **out)
{
	int c;

	for (;;) {
		c = new_skip(r);
		if (c == -2)
			return R_FATAL;
		if (c == -1) {
			if (r->nest)
				return bad_off(r, r->pos,
				    "unexpected end of input inside a list of ads (missing '}')");
			return 0;
		}
		if (r->nest && c == ',') {
			r->pos++;
			continue;
		}
		if (r->nest && c == '}') {
			r->pos++;
			r->nest = 0;
			continue;
		}
		if (!r->nest && c == '{') {
			r->pos++;
			r->nest = 1;
			continue;
		}
		if (c == '[')
			break;
		if (c == 0)
			return bad_off(r, r->pos, "NUL byte in the input (binary data?)");
		if (r->nest)
			return bad_off(r, r->pos, "expected '[' (an ad), ',' or '}'");
		return bad_off(r, r->pos, "expected '[' to start an ad");
	}
	r->nscan = 0;
	r->ndepth = 0;
	r->nstate = NS_CODE;
	size_t tried = 0;
	for (;;) {
		size_t adlen = new_scan(r), avail = r->end - r->pos;
		/* parse once the closing ']' is here (so a live pipe is not
		 * waited on), at the end of input, or now and then on a long ad
		 * so that a syntax error is found without reading everything */
		if (adlen || r->eof || avail >= 2 * tried + 4 * BLOCK) {
			size_t len = adlen ? adlen : avail, used = 0;
			ca_diag perr;
			ca_ad *ad = ca_parse_ad(r->buf + r->pos, len, &used, 0, &perr);
			if (ad) {
				r->ad_line = r->line;
				consume(r, used);
				*out = ad;
				return 1;
			}
			if (!perr.eof || adlen || r->eof) {
				if (perr.eof) {
					static const char tail[] = ", found the end of input";
					size_t ml = strlen(perr.msg), tl = sizeof tail - 1;
					if (ml > tl && strcmp(perr.msg + ml - tl, tail) == 0)
						return bad_off(r, r->pos + perr.pos,
						    "unexpected end of input inside an ad (%.*s)",
						    (int)(ml - tl), perr.msg);
					return bad_off(r, r->pos + perr.pos,
					    "unexpected end of input inside an ad: %s", perr.msg);
				}
				return bad_off(r, r->pos + perr.pos, "%s", perr.msg);
			}
			tried = avail;
		}
		if (ca_rd_fill(r) < 0)
			return R_FATAL;
	}
}
