/* reader_int.h - what the stream reader (reader.c) shares with the readers
 * of each format (read_*.c): its state, buffered input and error reports. */
#ifndef CA_READER_INT_H
#define CA_READER_INT_H

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <zlib.h>

#include "ad.h"
#include "diag.h"
#include "node.h"
#include "strbuf.h"
#include "vec.h"

#define BLOCK		(256 * 1024)	/* decoded text read at a time */
#define NAME_MAX_LEN	(64 * 1024)	/* longest attribute name of a long line */

/* Results of the per-format readers besides 1 (an ad) and 0 (the end). */
#define R_FATAL		(-1)	/* error; nothing more can be read */
#define R_AGAIN		(-2)	/* error in one ad; the next call goes on */

struct escpos {
	size_t dec, raw;	/* after an escape: decoded and raw bytes so far */
};

/* The names of an ad the long reader read, in order, as it spelled them
 * (the spellings interned), and its shape number (ca_ad_shape_of) once
 * known, else 0. */
struct shape_names {
	struct shape_name {
		const ca_name *name;
		const char *spell;
		uint32_t len;
		bool own;	/* spell is the name's own spelling */
		bool plain;	/* the long format's writer prints it so */
		uint32_t id;	/* the name as spelled (ca_attr.name_id) */
		/* the text the last ad had here, when its line is one a run
		 * takes (kept_run): the store's tree `shared` and its source
		 * text (ca_share_source), or a literal where it was read; or
		 * NULL */
		const struct ca_expr *shared;
		const char *text;
		size_t len_text;
	} *at;
	size_t n, cap;
	uint32_t id;
};

#define READ_ALT_SHAPES	3

/* The reader behind reader.h's ca_reader. */
struct ca_reader {
	const char *name;
	int fmt;		/* a ca_format: asked for, then detected */
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
	bool mem_stays;		/* it outlives the ads (ca_reader_mem_stays) */
	bool pack;		/* ca_reader_pack */
	uint32_t room;		/* names an ad gets room for (ca_reader_room) */
	/* long: the names of the last ad, in order, as it spelled them
	 * (the spellings interned). While an ad has only names of it, in its
	 * order (in_shape), up to shape.at[spos], a name spelled as one of
	 * the next few there is that name, and new to the ad. */
	struct shape_names shape;
	uint32_t spos;
	bool in_shape;
	bool exact;		/* every name so far at its place in shape */
	uint32_t shape_hint;	/* the ad just read has shape.id, or 0 */
	/* the names of the ads of a few other shapes before it (a machine's
	 * slots alternate between some): where an ad leaves the shape it
	 * follows for one of these, having had its names so far, it follows
	 * that one */
	struct shape_names alt[READ_ALT_SHAPES];
	uint32_t alt_next;	/* the one to give up for a new shape */
	uint32_t alt_tries;	/* this ad's comparisons with them */
	/* long: the lines of the ad being read, copied to its arena while
	 * each is as the writer prints it (ca_ad_keep_text); NULL once one
	 * is not, and when ads are packed */
	struct ca_ad_text *text;
	size_t text_cap;
	bool in_place;		/* text is the ad's lines where they are in buf */
	uint64_t ad_off;	/* where the ad being read starts in the text */
	size_t last_bytes;	/* how long the last ad's text was */
	bool eof;		/* nothing follows buf[end] */
	uint64_t base;		/* offset in the text of buf[0] */
	int line;		/* line number at pos */
	uint64_t lstart;	/* offset in the text where that line starts */

	int ad_line;
	bool skip;		/* long: drop lines up to the next blank line */
	bool stars;		/* long: an ad ended with a "***" line */
	bool warned, has_warning;	/* a warning was made; one is waiting */
	ca_diag warning;
	int nest;		/* new: in a { } list; json: in a [ ] array; xml: in <classads> */
	bool prolog, root;	/* xml: <?xml ...?> or <!...> seen; <classads> seen */
	size_t nscan;		/* new: bytes after pos scanned for the closing ']' */
	int ndepth, nstate;	/* new: bracket depth and lexical state there */

	/* json and xml */
	bool soft;		/* an error is reported but the ad is read to its end */
	strbuf sb, sb2;
	ca_vec(ca_expr *) stk;	/* the items of the lists being read */
	ca_vec(struct escpos) esc;	/* json: the escapes of the last string */
};

/* e, or when it is a literal the store shares (seen before), the store's
 * node: what the JSON and XML readers do with an attribute's value. */
ca_expr *ca_rd_share(ca_expr *e);
/* The expression of text s[0..n) (parser flags pflags), in arena a or
 * shared (share.h): ca_parse_expr for the readers, which see the same
 * texts again and again. */
ca_expr *ca_rd_parse(struct ca_reader *r, ca_arena *a, const char *s, size_t n, int pflags,
    ca_diag *err);

/* The next ad of each format, or 0 at the end, R_FATAL or R_AGAIN. */
int ca_rd_next_long(struct ca_reader *r, ca_ad **out);
int ca_rd_next_new(struct ca_reader *r, ca_ad **out);
int ca_rd_next_json(struct ca_reader *r, ca_ad **out);
int ca_rd_next_xml(struct ca_reader *r, ca_ad **out);

/* ---- input ---- */

/* Read more text after buf[end], moving the unconsumed part to the front
 * (pointers into buf do not survive a call). 1, 0 at the end, -1 on error. */
int ca_rd_fill(struct ca_reader *r);

/* The byte k past pos: 0..255, -1 at the end of input, -2 on error. */
static inline int
peekk(struct ca_reader *r, size_t k)
{
	while (r->pos + k >= r->end) {
		int rc = ca_rd_fill(r);
		if (rc <= 0)
			return rc == 0 ? -1 : -2;
	}
	return (unsigned char)r->buf[r->pos + k];
}

static inline int
peek0(struct ca_reader *r)
{
	if (r->pos < r->end)
		return (unsigned char)r->buf[r->pos];
	return peekk(r, 0);
}

/* Consume one byte (buffered), counting lines. */
static inline void
adv1(struct ca_reader *r)
{
	if (r->buf[r->pos++] == '\n') {
		r->line++;
		r->lstart = r->base + r->pos;
	}
}

/* Skip white space (with json, JSON's: not \v and \f); the next byte, not
 * consumed, or -1 at the end, -2 on error. */
static inline int
skip_ws(struct ca_reader *r, bool json)
{
	for (;;) {
		int c = peek0(r);
		if (c == '\n')
			adv1(r);
		else if (c == ' ' || c == '\t' || c == '\r' || (!json && (c == '\v' || c == '\f')))
			r->pos++;
		else
			return c;
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

/* Column of buf[off] on the current line. */
static inline int
col_of(const struct ca_reader *r, size_t off)
{
	uint64_t c = r->base + off - r->lstart + 1;

	return c > INT_MAX ? INT_MAX : (int)c;
}

/* ---- errors ---- */

/* Report bad input (sys: a system error) at line:col (0: no place) into the
 * caller's diagnostic. R_FATAL. */
int ca_rd_verror(struct ca_reader *r, int sys, int line, int col, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));
int ca_rd_error(struct ca_reader *r, int sys, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Bad input at the current position, where c (-1 at the end of input) was
 * read; nothing more when c is -2, an I/O error already reported. XML says
 * that the input ended first. R_FATAL. */
int ca_rd_fail(struct ca_reader *r, int c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An error that does not stop the parse: the ad is read to its end and
 * then dropped. Only the first one of an ad is kept. */
void ca_rd_soft(struct ca_reader *r, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- what the JSON and XML readers share ---- */

/* Read an ad starting at line: its attributes with body(r, ad, 1) (none
 * when body is NULL). 1 with *out set; an ad with a soft error is dropped
 * (R_AGAIN); R_FATAL after an error that ends the stream. */
int ca_rd_ad(struct ca_reader *r, int line, int (*body)(struct ca_reader *, ca_ad *, int),
    ca_ad **out);
/* Push an item of the list being read; the items pushed since base become
 * a list node (and are popped). */
void ca_rd_push(struct ca_reader *r, ca_expr *e);
ca_expr *ca_rd_list(struct ca_reader *r, ca_arena *a, size_t base);
/* Set the height of a list or ad node built from its children, as the
 * parser keeps it; a tree higher than the parser allows is a soft error. */
void ca_rd_set_height(struct ca_reader *r, ca_expr *e, int line, int col);
/* Append code point cp in UTF-8. */
void ca_rd_put_utf8(strbuf *sb, unsigned long cp);
/* The value of a hex digit, or -1. */
int ca_rd_hexval(int c);

#endif
