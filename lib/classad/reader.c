/* reader.c - streaming ad input: long, new, JSON and XML formats, plain or
 * gzip-compressed, read in large blocks and parsed in place, one ad at a time. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>

#include "ad.h"
#include "arena.h"
#include "expr.h"
#include "parser.h"
#include "print.h"
#include "reader.h"
#include "strbuf.h"
#include "value.h"

#define BLOCK		(256 * 1024)	/* decoded text read at a time */
#define ZBLOCK		(64 * 1024)	/* compressed input read at a time */
#define NAME_MAX_LEN	(64 * 1024)	/* longest attribute name of a long line */
#define DETECT_MAX	(1024 * 1024)	/* how far format detection looks */

enum { ST_START, ST_READING, ST_DONE };

/* Results of the per-format readers besides 1 (an ad) and 0 (the end). */
#define R_FATAL		(-1)	/* error; nothing more can be read */
#define R_AGAIN		(-2)	/* error in one ad; the next call goes on */

struct escpos {
	size_t dec, raw;	/* after an escape: decoded and raw bytes so far */
};

struct ca_reader {
	const char *name;
	ca_format fmt;		/* asked for, then detected */
	ca_diag *err;		/* where the current call reports */
	int state;

	/* raw input: a file descriptor or a memory buffer */
	int fd;
	bool own_fd;
	const char *mem;
	size_t memlen, mempos;

	/* gzip */
	bool gz, gz_end, raw_eof;
	z_stream zs;
	unsigned char *zin;

	/* decoded text; buf[pos..end) is not consumed yet */
	char *buf;
	size_t cap, pos, end;
	bool borrowed;		/* buf is the caller's memory */
	bool eof;		/* nothing follows buf[end] */
	uint64_t base;		/* offset in the text of buf[0] */
	int line;		/* line number at pos */
	uint64_t lstart;	/* offset in the text where that line starts */

	int ad_line;
	bool skip;		/* long: drop lines up to the next blank line */
	int nest;		/* new: in a { } list; json: in a [ ] array; xml: in <classads> */
	bool prolog, root;	/* xml: <?xml ...?> or <!...> seen; <classads> seen */
	size_t nscan;		/* new: bytes after pos scanned for the closing ']' */
	int ndepth, nstate;	/* new: bracket depth and lexical state there */

	/* json and xml */
	bool soft;		/* an error is reported but the ad is read to its end */
	strbuf sb, sb2;
	ca_expr **stk;
	size_t nstk, capstk;
	struct escpos *esc;
	size_t nesc, capesc;
};

/* ---------------------------------------------------------------- formats */

static const char *const format_names[] = {
	[CA_FMT_AUTO] = "auto",
	[CA_FMT_LONG] = "long",
	[CA_FMT_NEW] = "new",
	[CA_FMT_JSON] = "json",
	[CA_FMT_XML] = "xml",
};

int
ca_format_parse(const char *name)
{
	if (name == NULL)
		return -1;
	for (int i = 0; i < (int)(sizeof format_names / sizeof format_names[0]); i++)
		if (strcasecmp(name, format_names[i]) == 0)
			return i;
	return -1;
}

const char *
ca_format_name(ca_format f)
{
	if ((unsigned)f < sizeof format_names / sizeof format_names[0])
		return format_names[f];
	return "?";
}

/* ----------------------------------------------------------------- errors */

static void
verr(ca_reader *r, int line, int col, int sys, const char *fmt, va_list ap)
{
	ca_diag *err = r->err;

	if (err != NULL)
		ca_diag_vset(err, sys ? CA_EX_SYSTEM : CA_EX_INPUT, r->name, line, col, fmt, ap);
}

/* Bad input at line:col. */
static int
bad_at(ca_reader *r, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int
bad_at(ca_reader *r, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(r, line, col, 0, fmt, ap);
	va_end(ap);
	return R_FATAL;
}

/* Bad input not tied to a position (gzip data). */
static int
bad(ca_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int
bad(ca_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(r, 0, 0, 0, fmt, ap);
	va_end(ap);
	return R_FATAL;
}

static int
sys_err(ca_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int
sys_err(ca_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(r, 0, 0, 1, fmt, ap);
	va_end(ap);
	return R_FATAL;
}

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

/* Column of buf[off] on the current line. */
static int
col_of(const ca_reader *r, size_t off)
{
	uint64_t c = r->base + off - r->lstart + 1;

	return c > INT_MAX ? INT_MAX : (int)c;
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
	verr(r, line, col, 0, fmt, ap);
	va_end(ap);
	return R_FATAL;
}

/* An error that does not stop the parse: the ad is read to its end and
 * then dropped. Only the first one of an ad is kept. */
static void
soft_at(ca_reader *r, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void
soft_at(ca_reader *r, int line, int col, const char *fmt, ...)
{
	va_list ap;

	if (r->soft)
		return;
	r->soft = true;
	va_start(ap, fmt);
	verr(r, line, col, 0, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ input */

static ssize_t
raw_read(ca_reader *r, void *dst, size_t n)
{
	for (;;) {
		ssize_t k = read(r->fd, dst, n);
		if (k >= 0)
			return k;
		if (errno == EINTR)
			continue;
		sys_err(r, "read error: %s", strerror(errno));
		return -1;
	}
}

/* More compressed input: 1, 0 at its end, -1 on error. */
static int
gz_feed(ca_reader *r)
{
	if (r->raw_eof)
		return 0;
	if (r->fd < 0) {
		size_t k = r->memlen - r->mempos;
		if (k == 0) {
			r->raw_eof = true;
			return 0;
		}
		if (k > (1u << 30))
			k = 1u << 30;
		r->zs.next_in = (Bytef *)(uintptr_t)(r->mem + r->mempos);
		r->zs.avail_in = (uInt)k;
		r->mempos += k;
		return 1;
	}
	ssize_t n = raw_read(r, r->zin, ZBLOCK);
	if (n < 0)
		return -1;
	if (n == 0) {
		r->raw_eof = true;
		return 0;
	}
	r->zs.next_in = r->zin;
	r->zs.avail_in = (uInt)n;
	return 1;
}

/* Inflate into buf[end..cap): 1 when some text came out, 0 at the end. */
static int
gz_fill(ca_reader *r)
{
	for (;;) {
		int rc;
		if (r->gz_end) {
			/* a member ended; another one may follow */
			if (r->zs.avail_in == 0) {
				if ((rc = gz_feed(r)) < 0)
					return -1;
				if (rc == 0) {
					r->eof = true;
					return 0;
				}
			}
			inflateReset(&r->zs);
			r->gz_end = false;
		}
		if (r->zs.avail_in == 0) {
			if ((rc = gz_feed(r)) < 0)
				return -1;
			if (rc == 0)
				return bad(r, "corrupt gzip data (truncated)");
		}
		size_t room = r->cap - r->end;
		if (room > UINT_MAX)
			room = UINT_MAX;
		r->zs.next_out = (Bytef *)(r->buf + r->end);
		r->zs.avail_out = (uInt)room;
		int zr = inflate(&r->zs, Z_NO_FLUSH);
		size_t got = room - r->zs.avail_out;
		r->end += got;
		if (zr == Z_STREAM_END)
			r->gz_end = true;
		else if (zr == Z_MEM_ERROR)
			return sys_err(r, "out of memory in zlib");
		else if (zr != Z_OK && zr != Z_BUF_ERROR)
			return bad(r, "corrupt gzip data (%s)",
			    r->zs.msg ? r->zs.msg : "inflate failed");
		if (got > 0)
			return 1;
	}
}

/* Read more text after buf[end], moving the unconsumed part to the front
 * (pointers into buf do not survive a call). 1, 0 at the end, -1 on error. */
static int
fill(ca_reader *r)
{
	if (r->eof)
		return 0;
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->end - r->pos);
		r->base += r->pos;
		r->end -= r->pos;
		r->pos = 0;
	}
	if (r->cap > 4 * BLOCK && r->end < BLOCK) {
		/* a huge line or ad is behind us: give the memory back */
		r->cap = 2 * BLOCK;
		r->buf = ca_xreallocarray(r->buf, r->cap, 1);
	}
	if (r->cap - r->end < r->cap / 4 || r->cap - r->end < 4096) {
		if (r->cap > SIZE_MAX / 2)
			return sys_err(r, "input line too long");
		r->cap *= 2;
		r->buf = ca_xreallocarray(r->buf, r->cap, 1);
	}
	if (r->gz)
		return gz_fill(r);
	ssize_t n = raw_read(r, r->buf + r->end, r->cap - r->end);
	if (n < 0)
		return -1;
	if (n == 0) {
		r->eof = true;
		return 0;
	}
	r->end += (size_t)n;
	return 1;
}

/* The byte k past pos: 0..255, -1 at the end of input, -2 on error. */
static int
peekk(ca_reader *r, size_t k)
{
	while (r->pos + k >= r->end) {
		int rc = fill(r);
		if (rc <= 0)
			return rc == 0 ? -1 : -2;
	}
	return (unsigned char)r->buf[r->pos + k];
}

static inline int
peek0(ca_reader *r)
{
	if (r->pos < r->end)
		return (unsigned char)r->buf[r->pos];
	return peekk(r, 0);
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

/* Consume one byte (buffered), counting lines. */
static inline void
adv1(ca_reader *r)
{
	if (r->buf[r->pos++] == '\n') {
		r->line++;
		r->lstart = r->base + r->pos;
	}
}

static inline bool
is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static inline bool
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* ------------------------------------------------------------ open, close */

static ca_reader *
reader_new(const char *name, ca_format fmt)
{
	ca_reader *r = ca_xcalloc(1, sizeof *r);

	r->name = name;
	r->fmt = fmt;
	r->fd = -1;
	r->line = 1;
	r->state = ST_START;
	strbuf sb0 = STRBUF_INIT;
	r->sb = sb0;
	r->sb2 = sb0;
	return r;
}

ca_reader *
ca_reader_open(const char *path, ca_format fmt, ca_diag *err)
{
	ca_reader *r;

	if ((unsigned)fmt > CA_FMT_XML)
		fmt = CA_FMT_AUTO;
	if (path == NULL || strcmp(path, "-") == 0) {
		r = reader_new("<stdin>", fmt);
		r->fd = 0;
		return r;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (err) {
			err->file = path;
			err->line = err->col = 0;
			err->status = CA_EX_SYSTEM;
			snprintf(err->msg, sizeof err->msg, "cannot open: %s", strerror(errno));
		}
		return NULL;
	}
	r = reader_new(path, fmt);
	r->fd = fd;
	r->own_fd = true;
	return r;
}

ca_reader *
ca_reader_open_mem(const char *name, const char *buf, size_t len, ca_format fmt,
    ca_diag *err)
{
	(void)err;
	if ((unsigned)fmt > CA_FMT_XML)
		fmt = CA_FMT_AUTO;
	ca_reader *r = reader_new(name ? name : "<memory>", fmt);
	r->mem = buf ? buf : "";
	r->memlen = buf ? len : 0;
	return r;
}

void
ca_reader_close(ca_reader *r)
{
	if (r == NULL)
		return;
	if (r->own_fd)
		close(r->fd);
	if (r->gz)
		inflateEnd(&r->zs);
	free(r->zin);
	if (!r->borrowed)
		free(r->buf);
	strbuf_release(&r->sb);
	strbuf_release(&r->sb2);
	free(r->stk);
	free(r->esc);
	free(r);
}

ca_format
ca_reader_format(const ca_reader *r)
{
	return r->fmt;
}

int
ca_reader_ad_line(const ca_reader *r)
{
	return r->ad_line;
}

/* Start gzip decoding of what follows; the first compressed bytes may
 * already be in zin. */
static int
gz_start(ca_reader *r)
{
	r->gz = true;
	if (inflateInit2(&r->zs, 15 + 16) != Z_OK) {
		r->gz = false;
		return sys_err(r, "cannot initialise zlib");
	}
	return 0;
}

/* What kind of text follows the first significant byte (at offset k)? */
static ca_format
detect_after(ca_reader *r, size_t k, int c)
{
	int d;

	if (c == '<')
		return CA_FMT_XML;
	if (c != '[' && c != '{')
		return CA_FMT_LONG;
	do
		d = peekk(r, ++k);
	while (d >= 0 && is_ws(d) && k < DETECT_MAX);
	if (c == '[')
		return d == '{' || d == ']' ? CA_FMT_JSON : CA_FMT_NEW;
	return d == '"' ? CA_FMT_JSON : CA_FMT_NEW;
}

/* Look at the first significant bytes without consuming them. */
static int
detect(ca_reader *r)
{
	size_t k = 0;
	int c;

	for (;;) {
		if (k > DETECT_MAX)
			return CA_FMT_LONG;
		c = peekk(r, k);
		if (c == -2)
			return -1;
		if (c == -1)
			return CA_FMT_LONG;
		if (is_ws(c)) {
			k++;
			continue;
		}
		int d = c == '/' ? peekk(r, k + 1) : 0;
		if (c == '#' || (c == '/' && d == '/')) {
			while ((c = peekk(r, ++k)) >= 0 && c != '\n' && k <= DETECT_MAX)
				;
			if (c == -2)
				return -1;
			continue;
		}
		if (c == '/' && d == '*') {
			k += 2;
			while ((c = peekk(r, k)) >= 0 && k <= DETECT_MAX) {
				if (c == '*' && peekk(r, k + 1) == '/')
					break;
				k++;
			}
			if (c == -2)
				return -1;
			if (c == -1)
				return CA_FMT_NEW;	/* the parser reports it */
			k += 2;
			continue;
		}
		if (d == -2)
			return -1;
		return (int)detect_after(r, k, c);
	}
}

/* First call: set up the buffer, recognise gzip, detect the format. */
static int
prime(ca_reader *r)
{
	if (r->fd < 0) {
		if (r->memlen >= 2 && (unsigned char)r->mem[0] == 0x1f &&
		    (unsigned char)r->mem[1] == 0x8b) {
			r->cap = BLOCK;
			r->buf = ca_xmalloc(r->cap);
			if (gz_start(r) < 0)
				return -1;
		} else {
			r->buf = (char *)(uintptr_t)r->mem;
			r->borrowed = true;
			r->cap = r->end = r->memlen;
			r->eof = true;
		}
	} else {
		r->cap = BLOCK;
		r->buf = ca_xmalloc(r->cap);
		while (r->end < 2) {
			ssize_t n = raw_read(r, r->buf + r->end, r->cap - r->end);
			if (n < 0)
				return -1;
			if (n == 0) {
				r->eof = true;
				break;
			}
			r->end += (size_t)n;
		}
		if (r->end >= 2 && (unsigned char)r->buf[0] == 0x1f &&
		    (unsigned char)r->buf[1] == 0x8b) {
			r->zin = ca_xmalloc(ZBLOCK > r->end ? ZBLOCK : r->end);
			memcpy(r->zin, r->buf, r->end);
			r->zs.next_in = r->zin;
			r->zs.avail_in = (uInt)r->end;
			r->end = 0;
			if (r->eof)
				r->raw_eof = true;
			r->eof = false;
			if (gz_start(r) < 0)
				return -1;
		}
	}
	/* a UTF-8 byte order mark is not part of the text */
	if (peekk(r, 0) == 0xef && peekk(r, 1) == 0xbb && peekk(r, 2) == 0xbf) {
		r->pos += 3;
		r->lstart = r->base + r->pos;
	}
	if (r->fmt == CA_FMT_AUTO) {
		int f = detect(r);
		if (f < 0)
			return -1;
		r->fmt = (ca_format)f;
	}
	return 0;
}

/* ------------------------------------------------------------ long format */

static inline void
next_line(ca_reader *r, size_t n)
{
	r->pos += n;
	r->line++;
	r->lstart = r->base + r->pos;
}

/* The line at pos: *len bytes before its '\n', *next bytes to consume it.
 * 1, 0 at the end of input, -1 on error, 2 when the line is longer than
 * NAME_MAX_LEN without an '=' (then *len is what is buffered). */
static int
get_line(ca_reader *r, size_t *len, size_t *next)
{
	size_t scanned = 0;

	for (;;) {
		const char *p = r->buf + r->pos;
		size_t avail = r->end - r->pos;
		const char *nl = memchr(p + scanned, '\n', avail - scanned);
		if (nl) {
			*len = (size_t)(nl - p);
			*next = *len + 1;
			return 1;
		}
		if (r->eof) {
			if (avail == 0)
				return 0;
			*len = *next = avail;
			return 1;
		}
		if (avail >= NAME_MAX_LEN && memchr(p, '=', NAME_MAX_LEN) == NULL) {
			const char *q = p;
			while (q < p + avail && is_blank((unsigned char)*q))
				q++;
			if (q < p + avail && *q != '#') {	/* comments may be long */
				*len = *next = avail;
				return 2;
			}
		}
		scanned = avail;
		if (fill(r) < 0)
			return -1;
	}
}

/* After a bad line: drop lines up to and including the next blank one.
 * Long lines are dropped block by block. */
static int
skip_bad_ad(ca_reader *r)
{
	bool dirty = false;	/* bytes of the current line already dropped were not blank */

	for (;;) {
		const char *p = r->buf + r->pos, *e = r->buf + r->end;
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		bool blank = !dirty;
		for (const char *q = p; blank && q < le; q++)
			blank = is_blank((unsigned char)*q);
		if (nl) {
			next_line(r, (size_t)(nl - p) + 1);
			if (blank)
				break;
			dirty = false;
			continue;
		}
		dirty = !blank;
		r->pos = r->end;
		if (r->eof)
			break;
		if (fill(r) < 0)
			return -1;
	}
	r->skip = false;
	return 0;
}

/* Report a line without '=' (or too long to hold one): a byte that is not
 * text, else the missing '='. */
static int
long_no_eq(ca_reader *r, const char *ls, const char *p, const char *le)
{
	for (const char *q = p; q < le; q++) {
		unsigned char c = (unsigned char)*q;
		if (c == 0)
			return bad_at(r, r->line, (int)(q - ls) + 1,
			    "NUL byte in the input (binary data?)");
		if ((c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != '\v') || c == 0x7f)
			return bad_at(r, r->line, (int)(q - ls) + 1,
			    "unexpected control byte 0x%02x (binary data?)", c);
	}
	if (le - p >= NAME_MAX_LEN)
		return bad_at(r, r->line, (int)(p - ls) + 1,
		    "expected 'Name = expression': no '=' in the first %d bytes of the line",
		    NAME_MAX_LEN);
	/* point just after the first word, where the '=' should be */
	const char *q = p;
	while (q < le && !is_blank((unsigned char)*q))
		q++;
	return bad_at(r, r->line, (int)(q - ls) + 1, "expected '=' after attribute name");
}

/* A quoted name 'a b' (as the writer prints names that are not plain). */
static const ca_name *
long_quoted_name(ca_reader *r, ca_ad *ad, const char *ls, const char *ns, size_t n,
    const char **spell)
{
	ca_diag perr;
	ca_expr *e = ca_parse_expr(ad->arena, ns, n, 0, &perr);

	if (e == NULL || e->node != CA_N_ATTR || e->op != CA_SC_NONE) {
		bad_at(r, r->line, (int)(ns - ls) + 1 + (e ? 0 : (int)perr.pos),
		    "bad quoted attribute name%s%s", e ? "" : ": ", e ? "" : perr.msg);
		return NULL;
	}
	if (e->u.attr.name->len == 0) {
		bad_at(r, r->line, (int)(ns - ls) + 1, "empty attribute name");
		return NULL;
	}
	*spell = e->u.attr.spell;
	return e->u.attr.name;
}

static int
next_long(ca_reader *r, ca_ad **out)
{
	ca_ad *ad = NULL;
	size_t len, next;
	int rc;

	if (r->skip && skip_bad_ad(r) < 0)
		return R_FATAL;
	for (;;) {
		rc = get_line(r, &len, &next);
		if (rc == 0)
			break;
		if (rc < 0) {
			ca_ad_free(ad);
			return R_FATAL;
		}
		const char *ls = r->buf + r->pos, *le = ls + len, *p = ls;
		if (rc == 1 && le > ls && le[-1] == '\r')
			le--;
		while (p < le && is_blank((unsigned char)*p))
			p++;
		if (rc == 1) {
			if (p == le) {
				next_line(r, next);
				if (ad)
					break;
				continue;
			}
			if (*p == '#') {
				next_line(r, next);
				continue;
			}
		}
		const char *eq = NULL;
		if (rc == 1) {
			const char *from = p;
			if (*p == '\'') {
				/* a quoted name may hold '=': look after its closing quote */
				for (from = p + 1; from < le && *from != '\''; from++)
					if (*from == '\\' && from + 1 < le)
						from++;
			}
			eq = memchr(from, '=', (size_t)(le - from));
		}
		if (eq == NULL) {
			long_no_eq(r, ls, p, le);
			goto bad;
		}
		const char *ns = p, *ne = eq;
		while (ne > ns && is_blank((unsigned char)ne[-1]))
			ne--;
		if (ne == ns) {
			bad_at(r, r->line, (int)(eq - ls) + 1, "missing attribute name before '='");
			goto bad;
		}
		for (const char *q = ns; q < ne; q++) {
			unsigned char c = (unsigned char)*q;
			if (c < 0x20 || c == 0x7f) {
				bad_at(r, r->line, (int)(q - ls) + 1, c == 0 ?
				    "NUL byte in the input (binary data?)" :
				    "unexpected control byte 0x%02x in attribute name", c);
				goto bad;
			}
		}
		const char *rs = eq + 1, *re = le;
		while (rs < re && is_blank((unsigned char)*rs))
			rs++;
		while (re > rs && is_blank((unsigned char)re[-1]))
			re--;
		if (ad == NULL) {
			ad = ca_ad_new();
			r->ad_line = r->line;
		}
		const ca_name *nm;
		const char *spell = NULL;
		size_t nlen = (size_t)(ne - ns);
		if (*ns == '\'') {
			nm = long_quoted_name(r, ad, ls, ns, nlen, &spell);
			if (nm == NULL)
				goto bad;
		} else {
			nm = ca_intern(ns, nlen);
			if (memcmp(nm->spell, ns, nlen) != 0)
				spell = ca_arena_strndup(ad->arena, ns, nlen);
		}
		ca_diag perr;
		ca_expr *e = ca_parse_expr(ad->arena, rs, (size_t)(re - rs), CA_P_OLDSTR, &perr);
		if (e == NULL) {
			bad_at(r, r->line, (int)(rs - ls) + 1 + (int)perr.pos, "%s", perr.msg);
			goto bad;
		}
		ca_ad_set(ad, nm, spell, e);
		next_line(r, next);
	}
	if (ad == NULL)
		return 0;
	*out = ad;
	return 1;
bad:
	ca_ad_free(ad);
	r->skip = true;		/* from this line to the next blank line */
	return R_AGAIN;
}

/* ------------------------------------------------------------- new format */

/* Skip white space and // and C comments; the next byte (not consumed),
 * -1 at the end, -2 on error (reported). */
static int
new_skip(ca_reader *r)
{
	for (;;) {
		int c = peek0(r);
		if (c < 0)
			return c;
		if (is_ws(c)) {
			adv1(r);
			continue;
		}
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
				bad_at(r, line, col, "unterminated comment");
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

static int
next_new(ca_reader *r, ca_ad **out)
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
		if (fill(r) < 0)
			return R_FATAL;
	}
}

/* ------------------------------------------------------------------- json */

static ca_expr *json_value(ca_reader *r, ca_arena *a, int depth);
static int json_object(ca_reader *r, ca_ad *ad, int depth);

/* Skip JSON white space; the next byte or -1/-2. */
static int
json_ws(ca_reader *r)
{
	for (;;) {
		int c = peek0(r);
		if (c == ' ' || c == '\t' || c == '\r')
			r->pos++;
		else if (c == '\n')
			adv1(r);
		else
			return c;
	}
}

/* Hard error at the current position (unless an I/O error is pending). */
static int
json_fail(ca_reader *r, int c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int
json_fail(ca_reader *r, int c, const char *fmt, ...)
{
	va_list ap;

	if (c == -2)
		return R_FATAL;
	va_start(ap, fmt);
	verr(r, r->line, col_of(r, r->pos), 0, fmt, ap);
	va_end(ap);
	return R_FATAL;
}

static int
json_unexpected(ca_reader *r, int c, const char *what)
{
	if (c == -1)
		return json_fail(r, c, "unexpected end of input inside an ad");
	if (c == 0)
		return json_fail(r, c, "NUL byte in the input (binary data?)");
	if (c >= 0x21 && c < 0x7f)
		return json_fail(r, c, "expected %s, found '%c'", what, c);
	return json_fail(r, c, "expected %s, found byte 0x%02x", what, c);
}

static void
esc_push(ca_reader *r, size_t dec, size_t raw)
{
	if (r->nesc == r->capesc) {
		r->capesc = r->capesc ? r->capesc * 2 : 16;
		r->esc = ca_xreallocarray(r->esc, r->capesc, sizeof *r->esc);
	}
	r->esc[r->nesc].dec = dec;
	r->esc[r->nesc].raw = raw;
	r->nesc++;
}

/* Raw offset (after the opening quote) of decoded byte d of the last string. */
static size_t
esc_raw(const ca_reader *r, size_t d)
{
	size_t i = r->nesc;

	while (i > 0 && r->esc[i - 1].dec > d)
		i--;
	if (i == 0)
		return d;
	return r->esc[i - 1].raw + (d - r->esc[i - 1].dec);
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Four hex digits at pos + k; -1 if they are not, -2 on I/O error. */
static long
json_hex4(ca_reader *r, size_t k)
{
	long v = 0;

	for (size_t i = 0; i < 4; i++) {
		int c = peekk(r, k + i);
		if (c == -2)
			return -2;
		int h = hexval(c);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

static void
put_utf8(strbuf *sb, unsigned long cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	strbuf_add(sb, u, n);
}

/* A JSON string at pos (the opening quote), decoded into r->sb. Escape
 * positions are kept so that errors inside \/Expr()\/ point at the text. */
static int
json_string(ca_reader *r)
{
	size_t raw = 0;

	strbuf_reset(&r->sb);
	r->nesc = 0;
	r->pos++;
	for (;;) {
		const char *p = r->buf + r->pos, *e = r->buf + r->end, *q = p;
		while (q < e && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20)
			q++;
		if (q > p) {
			strbuf_add(&r->sb, p, (size_t)(q - p));
			raw += (size_t)(q - p);
			r->pos += (size_t)(q - p);
		}
		int c = peek0(r);
		if (c < 0)
			return json_fail(r, c, "unterminated string");
		if (c == '"') {
			r->pos++;
			break;
		}
		if (c >= 0x20 && c != '\\')
			continue;	/* the scan stopped at the end of the buffer */
		if (c < 0x20) {
			if (c == 0)
				return json_fail(r, c, "NUL byte in the input (binary data?)");
			if (c == '\n')
				return json_fail(r, c, "unterminated string");
			return json_fail(r, c,
			    "control byte 0x%02x inside a string (write it as \\u00%02X)", c, c);
		}
		/* a backslash */
		int d = peekk(r, 1);
		size_t n = 2;
		switch (d) {
		case '"': case '\\': case '/':
			strbuf_addc(&r->sb, (char)d);
			break;
		case 'b': strbuf_addc(&r->sb, '\b'); break;
		case 'f': strbuf_addc(&r->sb, '\f'); break;
		case 'n': strbuf_addc(&r->sb, '\n'); break;
		case 'r': strbuf_addc(&r->sb, '\r'); break;
		case 't': strbuf_addc(&r->sb, '\t'); break;
		case 'u': {
			long cp = json_hex4(r, 2);
			if (cp == -2)
				return R_FATAL;
			if (cp < 0)
				return json_fail(r, 0, "bad \\u escape: expected four hex digits");
			n = 6;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				long lo = -1;
				if (peekk(r, 6) == '\\' && peekk(r, 7) == 'u')
					lo = json_hex4(r, 8);
				if (lo == -2)
					return R_FATAL;
				if (lo >= 0xdc00 && lo <= 0xdfff) {
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
					n = 12;
				} else {
					soft_at(r, r->line, col_of(r, r->pos),
					    "bad \\u escape: unpaired surrogate \\u%04lX", cp);
					cp = -1;
				}
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				soft_at(r, r->line, col_of(r, r->pos),
				    "bad \\u escape: unpaired surrogate \\u%04lX", cp);
				cp = -1;
			} else if (cp == 0) {
				soft_at(r, r->line, col_of(r, r->pos),
				    "\\u0000 in a string: ClassAd strings cannot hold NUL");
				cp = -1;
			}
			if (cp >= 0)
				put_utf8(&r->sb, (unsigned long)cp);
			break;
		}
		default:
			if (d == -2)
				return R_FATAL;
			if (d == -1)
				return json_fail(r, -1, "unterminated string");
			if (d >= 0x21 && d < 0x7f)
				return json_fail(r, 0, "bad escape '\\%c' in a string", d);
			return json_fail(r, 0, "bad escape in a string (byte 0x%02x)", d);
		}
		r->pos += n;
		raw += n;
		esc_push(r, r->sb.len, raw);
	}
	if (r->sb.len > UINT32_MAX)
		return json_fail(r, 0, "string longer than 4 GiB");
	return 0;
}

/* Height of a node as the parser keeps it in e->flags (literals made by
 * ca_expr_lit say 0: they are leaves). */
static int
height_of(const ca_expr *e)
{
	return e->flags ? e->flags : 1;
}

/* Set the height of a list or ad node built here from its children; a
 * tree higher than the parser allows is an error. */
static void
set_height(ca_reader *r, ca_expr *e, int line, int col)
{
	int h = 0;

	if (e->node == CA_N_LIST) {
		for (uint32_t i = 0; i < e->u.list.n; i++)
			if (height_of(e->u.list.items[i]) > h)
				h = height_of(e->u.list.items[i]);
	} else {
		for (uint32_t i = 0; i < e->u.ad->n; i++)
			if (height_of(e->u.ad->attrs[i].expr) > h)
				h = height_of(e->u.ad->attrs[i].expr);
	}
	h++;
	if (h > CA_MAX_DEPTH) {
		soft_at(r, line, col, "ad nested more than %d levels deep", CA_MAX_DEPTH);
		h = CA_MAX_DEPTH;
	}
	e->flags = (uint16_t)h;
}

/* A decoded string: "/Expr(...)/" is an expression, anything else a string. */
static ca_expr *
json_string_value(ca_reader *r, ca_arena *a, int line, int col)
{
	const char *s = r->sb.buf;
	size_t n = r->sb.len;

	if (n >= 8 && memcmp(s, "/Expr(", 6) == 0 && memcmp(s + n - 2, ")/", 2) == 0) {
		ca_diag perr;
		ca_expr *e = ca_parse_expr(a, s + 6, n - 8, 0, &perr);
		if (e == NULL) {
			size_t raw = esc_raw(r, 6 + perr.pos);
			soft_at(r, line, col + 1 + (int)raw, "in \\/Expr(...)\\/: %s", perr.msg);
			return ca_expr_lit(a, ca_undef());
		}
		return e;
	}
	return ca_expr_lit(a, ca_str(s, (uint32_t)n));
}

static ca_expr *
json_number(ca_reader *r, ca_arena *a)
{
	char num[512];
	size_t n = 0;
	int c, line = r->line, col = col_of(r, r->pos);

	while ((c = peek0(r)) >= 0 && (c == '-' || c == '+' || c == '.' || c == 'e' ||
	    c == 'E' || (c >= '0' && c <= '9'))) {
		if (n == sizeof num - 1) {
			json_fail(r, 0, "number too long");
			return NULL;
		}
		num[n++] = (char)c;
		r->pos++;
	}
	if (c == -2)
		return NULL;
	num[n] = 0;
	/* JSON: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
	size_t i = 0;
	bool real = false;
	if (num[i] == '-')
		i++;
	if (num[i] == '0')
		i++;
	else if (num[i] >= '1' && num[i] <= '9')
		while (num[i] >= '0' && num[i] <= '9')
			i++;
	else
		goto malformed;
	if (num[i] == '.') {
		i++;
		real = true;
		if (!(num[i] >= '0' && num[i] <= '9'))
			goto malformed;
		while (num[i] >= '0' && num[i] <= '9')
			i++;
	}
	if (num[i] == 'e' || num[i] == 'E') {
		i++;
		real = true;
		if (num[i] == '+' || num[i] == '-')
			i++;
		if (!(num[i] >= '0' && num[i] <= '9'))
			goto malformed;
		while (num[i] >= '0' && num[i] <= '9')
			i++;
	}
	if (i != n)
		goto malformed;
	if (real)
		return ca_expr_lit(a, ca_real(ca_strtod(num, NULL)));
	bool neg = num[0] == '-';
	uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (i = neg; i < n; i++) {
		unsigned dg = (unsigned)(num[i] - '0');
		if (v > (lim - dg) / 10) {
			soft_at(r, line, col, "integer %s out of range", num);
			return ca_expr_lit(a, ca_undef());
		}
		v = v * 10 + dg;
	}
	int64_t iv = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
	return ca_expr_lit(a, ca_int(iv));
malformed:
	bad_at(r, line, col, "malformed number '%s'", num);
	return NULL;
}

/* true, false, null */
static ca_expr *
json_word(ca_reader *r, ca_arena *a, int c)
{
	const char *w = c == 't' ? "true" : c == 'f' ? "false" : "null";
	size_t n = strlen(w);

	for (size_t i = 0; i < n; i++) {
		int d = peekk(r, i);
		if (d != (unsigned char)w[i]) {
			json_fail(r, d, "expected a value (true, false, null, a number, a string, an array or an object)");
			return NULL;
		}
	}
	int d = peekk(r, n);
	if (d == -2)
		return NULL;
	if ((d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z') || (d >= '0' && d <= '9') || d == '_') {
		json_fail(r, d, "expected a value (true, false, null, a number, a string, an array or an object)");
		return NULL;
	}
	r->pos += n;
	if (c == 'n')
		return ca_expr_lit(a, ca_undef());
	return ca_expr_lit(a, ca_bool(c == 't'));
}

static void
stk_push(ca_reader *r, ca_expr *e)
{
	if (r->nstk == r->capstk) {
		r->capstk = r->capstk ? r->capstk * 2 : 64;
		r->stk = ca_xreallocarray(r->stk, r->capstk, sizeof *r->stk);
	}
	r->stk[r->nstk++] = e;
}

/* Items pushed since base become a list node. */
static ca_expr *
stk_list(ca_reader *r, ca_arena *a, size_t base)
{
	ca_expr *e = ca_arena_zalloc(a, sizeof *e);
	size_t n = r->nstk - base;

	e->node = CA_N_LIST;
	e->u.list.n = (uint32_t)n;
	e->u.list.items = ca_arena_array(a, n ? n : 1, sizeof(ca_expr *));
	if (n)
		memcpy(e->u.list.items, r->stk + base, n * sizeof(ca_expr *));
	r->nstk = base;
	return e;
}

static ca_expr *
json_array(ca_reader *r, ca_arena *a, int depth)
{
	size_t base = r->nstk;
	int c;

	r->pos++;	/* [ */
	c = json_ws(r);
	if (c != ']') {
		for (;;) {
			ca_expr *e = json_value(r, a, depth);
			if (e == NULL) {
				r->nstk = base;
				return NULL;
			}
			if (r->nstk - base >= UINT32_MAX) {
				json_fail(r, 0, "list with too many items");
				r->nstk = base;
				return NULL;
			}
			stk_push(r, e);
			c = json_ws(r);
			if (c == ',') {
				r->pos++;
				if ((c = json_ws(r)) == ']')
					break;	/* a trailing comma is tolerated */
				continue;
			}
			if (c == ']')
				break;
			json_unexpected(r, c, "',' or ']' in an array");
			r->nstk = base;
			return NULL;
		}
	}
	r->pos++;	/* ] */
	return stk_list(r, a, base);
}

static ca_expr *
json_value(ca_reader *r, ca_arena *a, int depth)
{
	int c = json_ws(r);

	if (depth > CA_MAX_DEPTH) {
		json_fail(r, c, "ad nested more than %d levels deep", CA_MAX_DEPTH);
		return NULL;
	}
	switch (c) {
	case '{': {
		int line = r->line, col = col_of(r, r->pos);
		ca_ad *sub = ca_ad_new_in(a);
		if (json_object(r, sub, depth + 1) < 0)
			return NULL;
		ca_expr *e = ca_arena_zalloc(a, sizeof *e);
		e->node = CA_N_AD;
		e->u.ad = sub;
		set_height(r, e, line, col);
		return e;
	}
	case '[': {
		int line = r->line, col = col_of(r, r->pos);
		ca_expr *e = json_array(r, a, depth + 1);
		if (e)
			set_height(r, e, line, col);
		return e;
	}
	case '"': {
		int line = r->line, col = col_of(r, r->pos);
		if (json_string(r) < 0)
			return NULL;
		return json_string_value(r, a, line, col);
	}
	case 't': case 'f': case 'n':
		return json_word(r, a, c);
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return json_number(r, a);
		json_unexpected(r, c, "a value");
		return NULL;
	}
}

/* An object at pos into ad; 0, or -1 after a hard error. */
static int
json_object(ca_reader *r, ca_ad *ad, int depth)
{
	int c;

	if (depth > CA_MAX_DEPTH)
		return json_fail(r, 0, "ad nested more than %d levels deep", CA_MAX_DEPTH);
	r->pos++;	/* { */
	c = json_ws(r);
	if (c == '}') {
		r->pos++;
		return 0;
	}
	for (;;) {
		if (c != '"')
			return json_unexpected(r, c, "a string (an attribute name)");
		int line = r->line, col = col_of(r, r->pos);
		if (json_string(r) < 0)
			return R_FATAL;
		const ca_name *nm = NULL;
		const char *spell = NULL;
		if (r->sb.len == 0) {
			soft_at(r, line, col, "empty attribute name");
		} else {
			nm = ca_intern(r->sb.buf, r->sb.len);
			if (memcmp(nm->spell, r->sb.buf, r->sb.len) != 0)
				spell = ca_arena_strndup(ad->arena, r->sb.buf, r->sb.len);
		}
		c = json_ws(r);
		if (c != ':')
			return json_unexpected(r, c, "':' after the attribute name");
		r->pos++;
		ca_expr *e = json_value(r, ad->arena, depth);
		if (e == NULL)
			return R_FATAL;
		if (nm)
			ca_ad_set(ad, nm, spell, e);
		c = json_ws(r);
		if (c == ',') {
			r->pos++;
			if ((c = json_ws(r)) == '}')
				break;	/* a trailing comma is tolerated */
			continue;
		}
		if (c == '}')
			break;
		return json_unexpected(r, c, "',' or '}' in an object");
	}
	r->pos++;	/* } */
	return 0;
}

static int
next_json(ca_reader *r, ca_ad **out)
{
	int c;

	for (;;) {
		c = json_ws(r);
		if (c == -2)
			return R_FATAL;
		if (c == -1) {
			if (r->nest)
				return json_fail(r, c,
				    "unexpected end of input inside the array of ads (missing ']')");
			return 0;
		}
		if (c == ',') {
			r->pos++;
			continue;
		}
		if (r->nest && c == ']') {
			r->pos++;
			r->nest = 0;
			continue;
		}
		if (!r->nest && c == '[') {
			r->pos++;
			r->nest = 1;
			continue;
		}
		if (c == '{')
			break;
		return json_unexpected(r, c, r->nest ? "'{' (an ad), ',' or ']'" :
		    "'{' (an ad) or '['");
	}
	ca_ad *ad = ca_ad_new();
	r->ad_line = r->line;
	r->soft = false;
	r->nstk = 0;
	if (json_object(r, ad, 1) < 0) {
		ca_ad_free(ad);
		return R_FATAL;
	}
	if (r->soft) {
		ca_ad_free(ad);
		return R_AGAIN;
	}
	*out = ad;
	return 1;
}

/* -------------------------------------------------------------------- xml */

typedef struct xtag {
	char name[16];		/* "" for <?...?>, <!...> and comments */
	bool close;		/* </x> */
	bool empty;		/* <x/> */
	bool has_n;		/* n="..." (decoded into r->sb2) */
	char v[8];		/* v="..." */
	int line, col;		/* of the '<' */
} xtag;

static ca_expr *xml_value(ca_reader *r, ca_arena *a, int depth);
static int xml_ad(ca_reader *r, ca_ad *ad, int depth);

static int
xml_ws(ca_reader *r)
{
	for (;;) {
		int c = peek0(r);
		if (c < 0 || !is_ws(c))
			return c;
		adv1(r);
	}
}

static int
xml_fail(ca_reader *r, int c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int
xml_fail(ca_reader *r, int c, const char *fmt, ...)
{
	va_list ap;

	if (c == -2)
		return R_FATAL;
	va_start(ap, fmt);
	if (c == -1) {
		char m[160];
		vsnprintf(m, sizeof m, fmt, ap);
		va_end(ap);
		return bad_at(r, r->line, col_of(r, r->pos), "unexpected end of input (%s)", m);
	}
	verr(r, r->line, col_of(r, r->pos), 0, fmt, ap);
	va_end(ap);
	return R_FATAL;
}

/* An entity at pos (the '&') appended to sb. */
static int
xml_entity(ca_reader *r, strbuf *sb)
{
	char ent[12];
	size_t n = 0;
	int c;

	for (;;) {
		c = peekk(r, n + 1);
		if (c == ';')
			break;
		if (c < 0 || n == sizeof ent - 1 || !((c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '#'))
			return xml_fail(r, c < 0 ? c : 0, "bad entity (expected &name;)");
		ent[n++] = (char)c;
	}
	ent[n] = 0;
	if (strcmp(ent, "amp") == 0)
		strbuf_addc(sb, '&');
	else if (strcmp(ent, "lt") == 0)
		strbuf_addc(sb, '<');
	else if (strcmp(ent, "gt") == 0)
		strbuf_addc(sb, '>');
	else if (strcmp(ent, "quot") == 0)
		strbuf_addc(sb, '"');
	else if (strcmp(ent, "apos") == 0)
		strbuf_addc(sb, '\'');
	else if (ent[0] == '#') {
		unsigned long cp = 0;
		size_t i = 1;
		int b = 10;
		if (ent[1] == 'x' || ent[1] == 'X') {
			b = 16;
			i = 2;
		}
		if (ent[i] == 0)
			return xml_fail(r, 0, "bad character reference &%s;", ent);
		for (; ent[i]; i++) {
			int h = hexval((unsigned char)ent[i]);
			if (h < 0 || h >= b || cp > 0x10ffff)
				return xml_fail(r, 0, "bad character reference &%s;", ent);
			cp = cp * (unsigned)b + (unsigned)h;
		}
		if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return xml_fail(r, 0, "bad character reference &%s;", ent);
		put_utf8(sb, cp);
	} else
		return xml_fail(r, 0, "unknown entity &%s;", ent);
	r->pos += n + 2;
	return 0;
}

/* Character data up to the next '<', decoded into r->sb. */
static int
xml_text(ca_reader *r)
{
	strbuf_reset(&r->sb);
	for (;;) {
		const char *p = r->buf + r->pos, *e = r->buf + r->end, *q = p;
		while (q < e && *q != '<' && *q != '&' && *q != '\n' && *q != 0)
			q++;
		if (q > p) {
			strbuf_add(&r->sb, p, (size_t)(q - p));
			r->pos += (size_t)(q - p);
		}
		int c = peek0(r);
		if (c < 0)
			return xml_fail(r, c, "inside an element");
		if (c == '<')
			break;
		if (c == 0)
			return xml_fail(r, 0, "NUL byte in the input (binary data?)");
		if (c == '\n') {
			strbuf_addc(&r->sb, '\n');
			adv1(r);
			continue;
		}
		if (c != '&')
			continue;	/* the scan stopped at the end of the buffer */
		if (xml_entity(r, &r->sb) < 0)
			return R_FATAL;
	}
	if (r->sb.len > UINT32_MAX)
		return xml_fail(r, 0, "text longer than 4 GiB");
	return 0;
}

static bool
xml_namechar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    c == '_' || c == '-' || c == ':' || c == '.';
}

/* Skip up to and including the text end (for <?...?>, <!...>, <!--...-->). */
static int
xml_skip_to(ca_reader *r, const char *end, const char *what)
{
	size_t n = strlen(end);
	int line = r->line, col = col_of(r, r->pos);

	for (;;) {
		int c = peek0(r);
		if (c == -2)
			return R_FATAL;
		if (c == -1)
			return bad_at(r, line, col, "unterminated %s", what);
		size_t i = 0;
		while (i < n && peekk(r, i) == (unsigned char)end[i])
			i++;
		if (i == n) {
			r->pos += n;
			return 0;
		}
		adv1(r);
	}
}

/* A tag at pos (the '<'). */
static int
xml_tag(ca_reader *r, xtag *t)
{
	int c;
	size_t n = 0;

	memset(t, 0, sizeof *t);
	t->line = r->line;
	t->col = col_of(r, r->pos);
	c = peekk(r, 1);
	if (c == '?') {
		r->pos += 2;
		return xml_skip_to(r, "?>", "<?...?>");
	}
	if (c == '!') {
		if (peekk(r, 2) == '-' && peekk(r, 3) == '-') {
			r->pos += 4;
			return xml_skip_to(r, "-->", "comment");
		}
		r->pos += 2;
		return xml_skip_to(r, ">", "<!...>");
	}
	r->pos++;
	c = xml_ws(r);
	if (c == '/') {
		t->close = true;
		r->pos++;
		c = xml_ws(r);
	}
	while ((c = peek0(r)) >= 0 && xml_namechar(c)) {
		if (n < sizeof t->name - 1)
			t->name[n++] = (char)c;
		else
			return bad_at(r, t->line, t->col, "unknown element");
		r->pos++;
	}
	t->name[n] = 0;
	if (n == 0)
		return xml_fail(r, c, "expected an element name after '<'");
	for (;;) {
		c = xml_ws(r);
		if (c == '>') {
			r->pos++;
			return 0;
		}
		if (c == '/' && !t->close) {
			if (peekk(r, 1) != '>')
				return xml_fail(r, peekk(r, 1), "expected '>' after '/'");
			t->empty = true;
			r->pos += 2;
			return 0;
		}
		if (c < 0 || !xml_namechar(c))
			return xml_fail(r, c < 0 ? c : 0, "bad tag <%s%s>", t->close ? "/" : "",
			    t->name);
		char an[16];
		size_t k = 0;
		while ((c = peek0(r)) >= 0 && xml_namechar(c)) {
			if (k < sizeof an - 1)
				an[k++] = (char)c;
			r->pos++;
		}
		an[k] = 0;
		c = xml_ws(r);
		if (c != '=')
			return xml_fail(r, c < 0 ? c : 0, "expected '=' after %s in <%s>", an, t->name);
		r->pos++;
		int q = xml_ws(r);
		if (q != '"' && q != '\'')
			return xml_fail(r, q < 0 ? q : 0, "expected a quoted value for %s in <%s>",
			    an, t->name);
		r->pos++;
		strbuf *v = strcmp(an, "n") == 0 ? &r->sb2 : &r->sb;
		strbuf_reset(v);
		for (;;) {
			c = peek0(r);
			if (c < 0)
				return xml_fail(r, c, "inside a tag");
			if (c == q)
				break;
			if (c == 0)
				return xml_fail(r, 0, "NUL byte in the input (binary data?)");
			if (c == '<')
				return xml_fail(r, 0, "'<' inside an attribute value");
			if (c == '&') {
				if (xml_entity(r, v) < 0)
					return R_FATAL;
				continue;
			}
			strbuf_addc(v, (char)c);
			adv1(r);
		}
		r->pos++;
		if (v == &r->sb2)
			t->has_n = true;
		else if (strcmp(an, "v") == 0)
			snprintf(t->v, sizeof t->v, "%s", r->sb.buf);
	}
}

/* The next tag that is not a comment, <?...?> or <!...>, after white space. */
static int
xml_next_tag(ca_reader *r, xtag *t, const char *where_)
{
	for (;;) {
		int c = xml_ws(r);
		if (c != '<') {
			if (c == -1)
				return xml_fail(r, c, "inside %s", where_);
			if (c == 0)
				return xml_fail(r, 0, "NUL byte in the input (binary data?)");
			return xml_fail(r, c, "unexpected text inside %s", where_);
		}
		if (xml_tag(r, t) < 0)
			return R_FATAL;
		if (t->name[0])
			return 0;
	}
}

static int
xml_end(ca_reader *r, const char *name)
{
	xtag t;

	if (xml_next_tag(r, &t, "an element") < 0)
		return R_FATAL;
	if (!t.close || strcmp(t.name, name) != 0)
		return bad_at(r, t.line, t.col, "expected </%s>, found <%s%s>", name,
		    t.close ? "/" : "", t.name);
	return 0;
}

/* Undo the new-syntax escapes of <s> text (as HTCondor writes it) in place. */
static int
unescape(char *s, size_t *len)
{
	size_t i = 0, o = 0, n = *len;

	if (n == 0)
		return 0;
	while (i < n) {
		char c = s[i++];
		if (c != '\\' || i == n) {
			s[o++] = c;
			continue;
		}
		c = s[i++];
		switch (c) {
		case 'a': s[o++] = '\a'; break;
		case 'b': s[o++] = '\b'; break;
		case 'f': s[o++] = '\f'; break;
		case 'n': s[o++] = '\n'; break;
		case 'r': s[o++] = '\r'; break;
		case 't': s[o++] = '\t'; break;
		case 'v': s[o++] = '\v'; break;
		default:
			if (c >= '0' && c <= '7') {
				int v = c - '0', max = c <= '3' ? 3 : 2;
				for (int k = 1; k < max && i < n && s[i] >= '0' && s[i] <= '7'; k++)
					v = v * 8 + (s[i++] - '0');
				if (v == 0)
					return -1;
				s[o++] = (char)v;
			} else
				s[o++] = c;
		}
	}
	*len = o;
	s[o] = 0;
	return 0;
}

static void
trim(const char **s, size_t *n)
{
	while (*n && is_ws((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && is_ws((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/* The text of <i>, <r>, <s>, <e>, <at>, <rt> as an expression. */
static ca_expr *
xml_scalar(ca_reader *r, ca_arena *a, const xtag *t)
{
	const char *nm = t->name;
	int line = r->line, col = col_of(r, r->pos);

	if (t->empty)
		strbuf_reset(&r->sb);
	else if (xml_text(r) < 0)
		return NULL;
	const char *s = r->sb.buf;
	size_t n = r->sb.len;
	ca_expr *e = NULL;
	if (strcmp(nm, "s") == 0) {
		if (unescape(r->sb.buf, &r->sb.len) < 0) {
			soft_at(r, line, col, "NUL byte (\\0) in a string");
			e = ca_expr_lit(a, ca_undef());
		} else
			e = ca_expr_lit(a, ca_str(r->sb.buf, (uint32_t)r->sb.len));
	} else if (strcmp(nm, "i") == 0) {
		trim(&s, &n);
		char *end;
		errno = 0;
		long long v = n ? strtoll(s, &end, 10) : 0;
		if (n == 0 || end != s + n || errno) {
			soft_at(r, line, col, "bad integer '%.40s' in <i>", s);
			e = ca_expr_lit(a, ca_undef());
		} else
			e = ca_expr_lit(a, ca_int(v));
	} else if (strcmp(nm, "r") == 0) {
		trim(&s, &n);
		char *end;
		double v = 0;
		if (n == 3 && strncasecmp(s, "NaN", 3) == 0)
			v = NAN;
		else if (n == 3 && strncasecmp(s, "INF", 3) == 0)
			v = INFINITY;
		else if (n == 4 && strncasecmp(s, "-INF", 4) == 0)
			v = -INFINITY;
		else if (n == 0 || (v = ca_strtod(s, &end), end != s + n)) {
			soft_at(r, line, col, "bad real '%.40s' in <r>", s);
			v = 0;
		}
		e = ca_expr_lit(a, ca_real(v));
	} else {
		bool at = strcmp(nm, "at") == 0, rt = strcmp(nm, "rt") == 0;
		const char *src = s;
		if (at || rt) {
			trim(&s, &n);
			strbuf_reset(&r->sb2);
			strbuf_adds(&r->sb2, at ? "absTime(\"" : "relTime(\"");
			strbuf_add(&r->sb2, s, n);
			strbuf_adds(&r->sb2, "\")");
			src = r->sb2.buf;
			n = r->sb2.len;
		}
		ca_diag perr;
		e = ca_parse_expr(a, src, n, 0, &perr);
		if (e == NULL) {
			if (at || rt)
				soft_at(r, line, col, "bad time in <%s>: %s", nm, perr.msg);
			else
				soft_at(r, line + perr.line - 1,
				    perr.line > 1 ? perr.col : col + perr.col - 1, "in <e>: %s", perr.msg);
			e = ca_expr_lit(a, ca_undef());
		}
	}
	if (!t->empty && xml_end(r, nm) < 0)
		return NULL;
	return e;
}

static ca_expr *
xml_value(ca_reader *r, ca_arena *a, int depth)
{
	xtag t;

	if (xml_next_tag(r, &t, "an attribute") < 0)
		return NULL;
	if (depth > CA_MAX_DEPTH) {
		bad_at(r, t.line, t.col, "ad nested more than %d levels deep", CA_MAX_DEPTH);
		return NULL;
	}
	const char *nm = t.name;
	if (t.close) {
		bad_at(r, t.line, t.col, "expected a value, found </%s>", nm);
		return NULL;
	}
	if (!strcmp(nm, "i") || !strcmp(nm, "r") || !strcmp(nm, "s") || !strcmp(nm, "e") ||
	    !strcmp(nm, "at") || !strcmp(nm, "rt"))
		return xml_scalar(r, a, &t);
	if (!strcmp(nm, "b") || !strcmp(nm, "un") || !strcmp(nm, "er")) {
		ca_value v = nm[0] == 'b' ? ca_bool(t.v[0] == 't' || t.v[0] == 'T') :
		    nm[0] == 'u' ? ca_undef() : ca_error(NULL);
		if (!t.empty && xml_end(r, nm) < 0)
			return NULL;
		return ca_expr_lit(a, v);
	}
	if (!strcmp(nm, "c")) {
		ca_ad *sub = ca_ad_new_in(a);
		if (!t.empty && xml_ad(r, sub, depth + 1) < 0)
			return NULL;
		ca_expr *e = ca_arena_zalloc(a, sizeof *e);
		e->node = CA_N_AD;
		e->u.ad = sub;
		set_height(r, e, t.line, t.col);
		return e;
	}
	if (!strcmp(nm, "l")) {
		size_t base = r->nstk;
		if (!t.empty) {
			for (;;) {
				int c = xml_ws(r);
				if (c == '<' && peekk(r, 1) == '/') {
					if (xml_end(r, "l") < 0) {
						r->nstk = base;
						return NULL;
					}
					break;
				}
				ca_expr *e = xml_value(r, a, depth + 1);
				if (e == NULL) {
					r->nstk = base;
					return NULL;
				}
				stk_push(r, e);
			}
		}
		ca_expr *e = stk_list(r, a, base);
		set_height(r, e, t.line, t.col);
		return e;
	}
	bad_at(r, t.line, t.col, "unknown element <%s>", nm);
	return NULL;
}

/* The attributes of an ad after its <c>, up to </c>. */
static int
xml_ad(ca_reader *r, ca_ad *ad, int depth)
{
	xtag t;

	for (;;) {
		if (xml_next_tag(r, &t, "an ad") < 0)
			return R_FATAL;
		if (t.close && strcmp(t.name, "c") == 0)
			return 0;
		if (t.close || strcmp(t.name, "a") != 0)
			return bad_at(r, t.line, t.col, "expected <a n=\"...\"> or </c>, found <%s%s>",
			    t.close ? "/" : "", t.name);
		if (t.empty)
			return bad_at(r, t.line, t.col, "attribute without a value");
		const ca_name *nm = NULL;
		const char *spell = NULL;
		if (!t.has_n || r->sb2.len == 0)
			soft_at(r, t.line, t.col, "attribute without a name (n=\"...\")");
		else {
			nm = ca_intern(r->sb2.buf, r->sb2.len);
			if (memcmp(nm->spell, r->sb2.buf, r->sb2.len) != 0)
				spell = ca_arena_strndup(ad->arena, r->sb2.buf, r->sb2.len);
		}
		ca_expr *e = xml_value(r, ad->arena, depth);
		if (e == NULL)
			return R_FATAL;
		if (xml_end(r, "a") < 0)
			return R_FATAL;
		if (nm)
			ca_ad_set(ad, nm, spell, e);
	}
}

static int
next_xml(ca_reader *r, ca_ad **out)
{
	xtag t;
	int c;

	for (;;) {
		c = xml_ws(r);
		if (c == -2)
			return R_FATAL;
		if (c == -1) {
			if (r->nest)
				return xml_fail(r, c, "missing </classads>");
			/* a document cut after its prolog is not an empty one */
			if (r->prolog && !r->root)
				return xml_fail(r, c, "missing <classads>");
			return 0;
		}
		if (c != '<') {
			if (c == 0)
				return xml_fail(r, 0, "NUL byte in the input (binary data?)");
			return xml_fail(r, c, "unexpected text outside an ad (expected <c>)");
		}
		if (xml_tag(r, &t) < 0)
			return R_FATAL;
		if (t.name[0] == 0) {
			r->prolog = true;
			continue;
		}
		if (strcmp(t.name, "classads") == 0)
			r->root = true;
		if (strcmp(t.name, "classads") == 0 && !t.empty) {
			r->nest = !t.close;
			continue;
		}
		if (strcmp(t.name, "classads") == 0)
			continue;
		if (strcmp(t.name, "c") == 0 && !t.close)
			break;
		return bad_at(r, t.line, t.col, "unexpected <%s%s> (expected <c>)",
		    t.close ? "/" : "", t.name);
	}
	ca_ad *ad = ca_ad_new();
	r->ad_line = t.line;
	r->soft = false;
	r->nstk = 0;
	if (!t.empty && xml_ad(r, ad, 1) < 0) {
		ca_ad_free(ad);
		return R_FATAL;
	}
	if (r->soft) {
		ca_ad_free(ad);
		return R_AGAIN;
	}
	*out = ad;
	return 1;
}

/* ------------------------------------------------------------------- next */

/*
 * The long format cannot hold a name whose "Name =" does not fit in
 * NAME_MAX_LEN bytes (see get_line), so no format takes one: whatever is
 * read can be written back in any format and read again. Reports it.
 */
static bool
name_too_long(ca_reader *r, const ca_ad *ad)
{
	for (uint32_t i = 0; i < ad->n; i++) {
		const char *s = ad->attrs[i].spell ? ad->attrs[i].spell : ad->attrs[i].name->spell;
		size_t n = ad->attrs[i].name->len;
		if (n + 2 < NAME_MAX_LEN / 4)
			continue;	/* even with every byte escaped it fits */
		strbuf_reset(&r->sb2);
		ca_print_name(&r->sb2, s, n);
		if (r->sb2.len + 2 > NAME_MAX_LEN) {
			bad_at(r, r->ad_line, 0, "attribute name of %zu bytes: longer than %d bytes "
			    "as the long format writes it", n, NAME_MAX_LEN - 2);
			return true;
		}
	}
	return false;
}

int
ca_reader_next(ca_reader *r, ca_ad **out, ca_diag *err)
{
	ca_diag dummy;
	int rc;

	*out = NULL;
	r->err = err ? err : &dummy;
	if (r->state == ST_DONE)
		return 0;
	if (r->state == ST_START) {
		r->state = ST_READING;
		if (prime(r) < 0) {
			r->state = ST_DONE;
			return -1;
		}
	}
	switch (r->fmt) {
	case CA_FMT_NEW:
		rc = next_new(r, out);
		break;
	case CA_FMT_JSON:
		rc = next_json(r, out);
		break;
	case CA_FMT_XML:
		rc = next_xml(r, out);
		break;
	default:
		rc = next_long(r, out);
		break;
	}
	if (rc == R_AGAIN)
		return -1;
	if (rc == R_FATAL) {
		r->state = ST_DONE;
		return -1;
	}
	if (rc == 0)
		r->state = ST_DONE;
	if (rc == 1) {
		if (name_too_long(r, *out)) {
			ca_ad_free(*out);
			*out = NULL;
			return -1;
		}
		ca_ad_trim(*out);
	}
	return rc;
}
