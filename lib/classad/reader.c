/* reader.c - streaming ad input: opening a file or buffer, gzip, reading in
 * large blocks, detecting the format, errors; the formats are in read_*.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>

#include "ad.h"
#include "ad_int.h"
#include "arena.h"
#include "parser.h"
#include "print.h"
#include "reader.h"
#include "reader_int.h"
#include "share.h"

#define ZBLOCK		(64 * 1024)	/* compressed input read at a time */
#define DETECT_MAX	(1024 * 1024)	/* how far format detection looks */

enum { ST_START, ST_READING, ST_DONE };

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

/* ---------------------------------------------------------------- errors */

int
ca_rd_verror(ca_reader *r, int sys, int line, int col, const char *fmt, va_list ap)
{
	if (r->err != NULL)
		ca_diag_vset(r->err, sys ? CA_EX_SYSTEM : CA_EX_INPUT, r->name, line, col, fmt, ap);
	return R_FATAL;
}

int
ca_rd_error(ca_reader *r, int sys, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ca_rd_verror(r, sys, line, col, fmt, ap);
	va_end(ap);
	return R_FATAL;
}

int
ca_rd_fail(ca_reader *r, int c, const char *fmt, ...)
{
	va_list ap;
	char m[160];

	if (c == -2)
		return R_FATAL;
	va_start(ap, fmt);
	if (c == -1 && r->fmt == CA_FMT_XML) {
		vsnprintf(m, sizeof m, fmt, ap);
		va_end(ap);
		return ca_rd_error(r, 0, r->line, col_of(r, r->pos), "unexpected end of input (%s)", m);
	}
	ca_rd_verror(r, 0, r->line, col_of(r, r->pos), fmt, ap);
	va_end(ap);
	return R_FATAL;
}

void
ca_rd_soft(ca_reader *r, int line, int col, const char *fmt, ...)
{
	va_list ap;

	if (r->soft)
		return;
	r->soft = true;
	va_start(ap, fmt);
	ca_rd_verror(r, 0, line, col, fmt, ap);
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
		ca_rd_error(r, 1, 0, 0, "read error: %s", strerror(errno));
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
				return ca_rd_error(r, 0, 0, 0, "corrupt gzip data (truncated)");
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
			return ca_rd_error(r, 1, 0, 0, "out of memory in zlib");
		else if (zr != Z_OK && zr != Z_BUF_ERROR)
			return ca_rd_error(r, 0, 0, 0, "corrupt gzip data (%s)",
			    r->zs.msg ? r->zs.msg : "inflate failed");
		if (got > 0)
			return 1;
	}
}

int
ca_rd_fill(ca_reader *r)
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
			return ca_rd_error(r, 1, 0, 0, "input line too long");
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
	ca_vec_free(&r->stk);
	ca_vec_free(&r->esc);
	ca_vec_free(&r->shape);
	for (int k = 0; k < READ_ALT_SHAPES; k++)
		ca_vec_free(&r->alt[k]);
	free(r);
}

ca_format
ca_reader_format(const ca_reader *r)
{
	return r->fmt;
}

bool
ca_reader_warning(ca_reader *r, ca_diag *w)
{
	if (!r->has_warning)
		return false;
	r->has_warning = false;
	*w = r->warning;
	return true;
}

int
ca_reader_ad_line(const ca_reader *r)
{
	return r->ad_line;
}

void
ca_reader_set_line(ca_reader *r, int line)
{
	r->line = line;
}

bool
ca_reader_read_all(const ca_reader *r, int *line)
{
	/* every line consumed counts one (next_line), and a line without its
	 * newline is possible only at the end */
	if (r->fmt != CA_FMT_LONG || r->gz || !r->eof || r->pos != r->end ||
	    (r->end > 0 && r->buf[r->end - 1] != '\n'))
		return false;
	*line = r->line;
	return true;
}

/* Start gzip decoding of what follows; the first compressed bytes may
 * already be in zin. */
static int
gz_start(ca_reader *r)
{
	r->gz = true;
	if (inflateInit2(&r->zs, 15 + 16) != Z_OK) {
		r->gz = false;
		return ca_rd_error(r, 1, 0, 0, "cannot initialise zlib");
	}
	return 0;
}

/* What kind of text follows the first significant byte (at offset k)? An
 * empty pair of brackets is an empty ad on one line ("[ ]", as HTCondor
 * reads a line that parses as an ad) and an empty JSON array across lines
 * ("[" and "]" on lines of their own, as the JSON writer puts no ads). */
static ca_format
detect_after(ca_reader *r, size_t k, int c)
{
	int d;
	bool nl = false;

	if (c == '<')
		return CA_FMT_XML;
	if (c != '[' && c != '{')
		return CA_FMT_LONG;
	do {
		d = peekk(r, ++k);
		nl = nl || d == '\n';
	} while (d >= 0 && is_ws(d) && k < DETECT_MAX);
	if (c == '[')
		return d == '{' || (d == ']' && nl) ? CA_FMT_JSON : CA_FMT_NEW;
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

/* ----------------------------------------- what the JSON and XML readers share */

int
ca_rd_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void
ca_rd_put_utf8(strbuf *sb, unsigned long cp)
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

/* Height of a node as the parser keeps it in e->flags (literals made by
 * ca_expr_lit say 0: they are leaves). */
static int
height_of(const ca_expr *e)
{
	int h = e->flags & CA_EXPR_HEIGHT;

	return h ? h : 1;
}

void
ca_rd_set_height(ca_reader *r, ca_expr *e, int line, int col)
{
	int h = 0;

	if (e->node == CA_N_LIST) {
		for (uint32_t i = 0; i < e->u.list.n; i++)
			if (height_of(e->u.list.items[i]) > h)
				h = height_of(e->u.list.items[i]);
	} else {
		for (uint32_t i = 0; i < e->u.ad->n; i++)
			if (height_of(ca_attr_expr(e->u.ad, &e->u.ad->attrs[i])) > h)
				h = height_of(ca_attr_expr(e->u.ad, &e->u.ad->attrs[i]));
	}
	h++;
	if (h > CA_MAX_DEPTH) {
		ca_rd_soft(r, line, col, "ad nested more than %d levels deep", CA_MAX_DEPTH);
		h = CA_MAX_DEPTH;
	}
	e->flags = (uint16_t)h;
}

int
ca_rd_ad(ca_reader *r, int line, int (*body)(ca_reader *, ca_ad *, int), ca_ad **out)
{
	ca_ad *ad = ca_ad_new();

	r->ad_line = line;
	r->soft = false;
	r->stk.n = 0;
	if (body != NULL && body(r, ad, 1) < 0) {
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

void
ca_rd_push(ca_reader *r, ca_expr *e)
{
	*ca_vec_push(&r->stk) = e;
}

ca_expr *
ca_rd_list(ca_reader *r, ca_arena *a, size_t base)
{
	ca_expr *e = ca_arena_zalloc(a, sizeof *e);
	size_t n = r->stk.n - base;

	e->node = CA_N_LIST;
	e->u.list.n = (uint32_t)n;
	e->u.list.items = ca_arena_array(a, n ? n : 1, sizeof(ca_expr *));
	if (n)
		memcpy(e->u.list.items, r->stk.at + base, n * sizeof(ca_expr *));
	r->stk.n = base;
	return e;
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
		const char *s = ca_attr_spell(&ad->attrs[i]);
		size_t n = ca_attr_name(&ad->attrs[i])->len;
		if (n + 2 < NAME_MAX_LEN / 4)
			continue;	/* even with every byte escaped it fits */
		strbuf_reset(&r->sb2);
		ca_print_name(&r->sb2, s, n);
		if (r->sb2.len + 2 > NAME_MAX_LEN) {
			ca_rd_error(r, 0, r->ad_line, 0, "attribute name of %zu bytes: longer than %d bytes "
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
		rc = ca_rd_next_new(r, out);
		break;
	case CA_FMT_JSON:
		rc = ca_rd_next_json(r, out);
		break;
	case CA_FMT_XML:
		rc = ca_rd_next_xml(r, out);
		break;
	default:
		rc = ca_rd_next_long(r, out);
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
		/* the shape the long reader saw again, known good only if
		 * this ad is handed out */
		uint32_t hint = r->shape_hint;
		r->shape_hint = r->shape.id = 0;
		/* an ad with the last one's names, spelled alike, was
		 * looked at then */
		if (hint == 0 && name_too_long(r, *out)) {
			ca_ad_free(*out);
			*out = NULL;
			return -1;
		}
		if (r->pack) {
			ca_ad *p = ca_ad_pack(*out);
			ca_ad_free(*out);
			*out = p;
		} else
			ca_ad_trim_shaped(*out, hint != 0 ? hint :
			    ca_ad_shape_of((*out)->attrs, (*out)->n), r->room);
		r->shape.id = (*out)->shape;	/* the long reader's shape is this ad's */
	}
	return rc;
}

void
ca_reader_pack(ca_reader *r)
{
	r->pack = true;
	ca_share_allow(CA_SHARE_HELD);
}

void
ca_reader_mem_stays(ca_reader *r)
{
	r->mem_stays = r->fd < 0;
}

void
ca_reader_room(ca_reader *r, uint32_t names)
{
	r->room = names < 1024 ? names : 1024;
}

/* Texts longer than this are parsed each time: they are rarely repeated.
 * Short ones are looked up too: that is quicker than parsing them. */
#define SHARE_TEXT_MAX	4096

ca_expr *
ca_rd_parse(ca_reader *r, ca_arena *a, const char *s, size_t n, int pflags, ca_diag *err)
{
	if (n > SHARE_TEXT_MAX)
		return ca_parse_expr(a, s, n, pflags, err);
	uint64_t h = ca_share_hash(s, n);
	const ca_expr *e = ca_share_text_find(s, n, pflags, h);
	if (e != NULL)
		return (ca_expr *)(uintptr_t)e;	/* immutable: see share.h */
	ca_expr *t = ca_parse_expr(a, s, n, pflags, err);
	if (t != NULL && ca_share_admit(h) && (e = ca_share_text_add(s, n, pflags, h, t)) != NULL)
		return (ca_expr *)(uintptr_t)e;
	return t;
}

ca_expr *
ca_rd_share(ca_expr *e)
{
	if (e->node != CA_N_LIT || (e->flags & CA_EXPR_SHARED))
		return e;
	const ca_expr *sh = ca_share_value(e->u.lit);	/* NULL for lists, ads, errors */

	return sh ? (ca_expr *)(uintptr_t)sh : e;
}
