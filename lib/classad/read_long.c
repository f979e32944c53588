/* read_long.c - the long format of ads (condor_status -long, condor_q -long):
 * "Name = expression" lines, a blank line after each ad. */
#include <stdint.h>
#include <string.h>
#include <strings.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "ad.h"
#include "ad_int.h"
#include "ascii.h"
#include "parser.h"
#include "print.h"
#include "reader.h"
#include "reader_int.h"
#include "share.h"
#include "writer_int.h"

static inline void
next_line(ca_reader *r, size_t n)
{
	r->pos += n;
	r->line++;
	r->lstart = r->base + r->pos;
}

/*
 * Lines that end an ad besides a blank one, in what HTCondor's tools write:
 * condor_history files end each ad with a "*** Offset = ... ClusterId = ..."
 * line (older ones "*** ProcId = ..."), with no blank line between ads;
 * condor_q -global -long puts "-- Schedd: NAME : <addr>" (or "-- Submitter:
 * ...") before the ads of each schedd, and condor_q also reads "..." as a
 * separator. A banner before the first ad is skipped like a comment. Such
 * a line starts at the first column; it is never an attribute, whose name
 * cannot begin so.
 */
enum { BANNER_STARS = 1, BANNER_OTHER };

static int
banner(const char *ls, const char *le)
{
	if (le - ls < 3)
		return 0;
	if (memcmp(ls, "***", 3) == 0)
		return BANNER_STARS;
	return memcmp(ls, "...", 3) == 0 || memcmp(ls, "-- ", 3) == 0 ? BANNER_OTHER : 0;
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
		if (ca_rd_fill(r) < 0)
			return -1;
	}
}

/* After a bad line: drop lines up to and including the next blank one or
 * banner (the line that ends the ad). Long lines are dropped block by
 * block. */
static int
skip_bad_ad(ca_reader *r)
{
	bool dirty = false;	/* bytes of the current line already dropped were not blank */
	bool start = true;	/* at the first column of the current line */

	for (;;) {
		const char *p = r->buf + r->pos, *e = r->buf + r->end;
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		bool blank = !dirty;
		for (const char *q = p; blank && q < le; q++)
			blank = is_blank((unsigned char)*q);
		if (start && (size_t)(le - p) < 3 && !nl && !r->eof) {
			/* too little of the line to tell a banner: read more */
			if (ca_rd_fill(r) < 0)
				return -1;
			continue;
		}
		int b = start ? banner(p, le) : 0;
		bool ends = blank || b;
		if (b == BANNER_STARS)
			r->stars = true;
		if (nl) {
			next_line(r, (size_t)(nl - p) + 1);
			if (ends)
				break;
			dirty = false;
			start = true;
			continue;
		}
		dirty = !blank;
		start = false;
		r->pos = r->end;
		if (r->eof)
			break;
		if (ca_rd_fill(r) < 0)
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
			return ca_rd_error(r, 0, r->line, (int)(q - ls) + 1,
			    "NUL byte in the input (binary data?)");
		if ((c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != '\v') || c == 0x7f)
			return ca_rd_error(r, 0, r->line, (int)(q - ls) + 1,
			    "unexpected control byte 0x%02x (binary data?)", c);
	}
	if (le - p >= NAME_MAX_LEN)
		return ca_rd_error(r, 0, r->line, (int)(p - ls) + 1,
		    "expected 'Name = expression': no '=' in the first %d bytes of the line",
		    NAME_MAX_LEN);
	/* point just after the first word, where the '=' should be */
	const char *q = p;
	while (q < le && !is_blank((unsigned char)*q))
		q++;
	return ca_rd_error(r, 0, r->line, (int)(q - ls) + 1, "expected '=' after attribute name");
}

/* names of the last ad looked at after the one expected (see ca_reader) */
#define SHAPE_AHEAD 4

/* A control byte *q in an attribute name: a tab is part of the name (as
 * in HTCondor), another is reported (true). */
static __attribute__((noinline, cold)) bool
bad_name_byte(ca_reader *r, const char *ls, const char *q)
{
	unsigned char c = (unsigned char)*q;

	if (c == '\t')
		return false;
	ca_rd_error(r, 0, r->line, (int)(q - ls) + 1, c == 0 ? "NUL byte in the input (binary data?)" :
	    "unexpected control byte 0x%02x in attribute name", c);
	return true;
}

/* Does the name ns..ne hold a control byte other than a tab (reported)? */
static bool
bad_name(ca_reader *r, const char *ls, const char *ns, const char *ne)
{
	for (const char *q = ns; q < ne; q++) {
		unsigned char c = (unsigned char)*q;
		if ((c < 0x20 || c == 0x7f) && bad_name_byte(r, ls, q))
			return true;
	}
	return false;
}

/* A quoted name 'a b' (as the writer prints names that are not plain). */
static const ca_name *
long_quoted_name(ca_reader *r, ca_ad *ad, const char *ls, const char *ns, size_t n,
    const char **spell)
{
	ca_diag perr;
	ca_expr *e = ca_parse_expr(ad->arena, ns, n, 0, &perr);

	if (e == NULL || e->node != CA_N_ATTR || e->op != CA_SC_NONE) {
		ca_rd_error(r, 0, r->line, (int)(ns - ls) + 1 + (e ? 0 : (int)perr.pos),
		    "bad quoted attribute name%s%s", e ? "" : ": ", e ? "" : perr.msg);
		return NULL;
	}
	if (e->u.attr.name->len == 0) {
		ca_rd_error(r, 0, r->line, (int)(ns - ls) + 1, "empty attribute name");
		return NULL;
	}
	*spell = e->u.attr.spell;
	return e->u.attr.name;
}

/* Where the string in the old syntax that begins at s (a quote) ends,
 * looking no further than e: just after its closing quote, or NULL. \" is
 * a quote, except just before e or a newline, where it ends the string
 * (its last byte a backslash); any other backslash is itself; a NUL or a
 * newline inside makes it no string. Most bytes are none of these, and are
 * skipped 16 (SSE2) or 8 at a time. */
static __attribute__((noinline)) const char *
string_end(const char *s, const char *e)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = ones << 7;
	size_t i = 1, n = (size_t)(e - s);

	for (;;) {
#ifdef __SSE2__
		const __m128i dq = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'),
		    nl = _mm_set1_epi8('\n'), nul = _mm_setzero_si128();
		for (; i + 16 <= n; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
			unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			    _mm_or_si128(_mm_cmpeq_epi8(v, dq), _mm_cmpeq_epi8(v, bs)),
			    _mm_or_si128(_mm_cmpeq_epi8(v, nul), _mm_cmpeq_epi8(v, nl))));
			if (m != 0) {
				i += (size_t)__builtin_ctz(m);
				goto special;
			}
		}
#endif
		for (; i + 8 <= n; i += 8) {
			uint64_t w, q, b, l;
			memcpy(&w, s + i, 8);
			q = w ^ ones * '"';
			b = w ^ ones * '\\';
			l = w ^ ones * '\n';
			/* the lowest flagged byte is always a true one */
			uint64_t m = ((q - ones) & ~q) | ((b - ones) & ~b) | ((l - ones) & ~l) |
			    ((w - ones) & ~w);
			if ((m &= highs) != 0) {
				i += (size_t)__builtin_ctzll(m) / 8;
				goto special;
			}
		}
		while (i < n && s[i] != '"' && s[i] != '\\' && s[i] != '\0' && s[i] != '\n')
			i++;
		if (i >= n)
			return NULL;
special:
		if (s[i] == '"')
			return s + i + 1;
		if (s[i] != '\\')
			return NULL;	/* a NUL or a newline */
		if (i + 1 < n && s[i + 1] == '"') {
			if (i + 2 == n || s[i + 2] == '\n')
				return s + i + 2;
			i += 2;
		} else
			i++;
	}
}

/* Where s (before e) ends if it begins with the keyword w (n bytes, lower
 * case letters), in any case; else NULL. */
static inline const char *
keyword_at(const char *s, const char *e, const char *w, size_t n)
{
	if ((size_t)(e - s) < n)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] | 0x20) != (unsigned char)w[i])
			return NULL;
	return s + n;
}

/* Where the digits at p (before e) end: eight bytes at a time while there
 * are eight, a byte whose value less '0' is not below 10 flagged in its
 * top bit (a carry out of a flagged byte only reaches bytes after it). */
static inline const char *
digits_end(const char *p, const char *e)
{
	const uint64_t zeros = UINT64_C(0x3030303030303030), tops = UINT64_C(0x8080808080808080);

	while (e - p >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		w ^= zeros;
		uint64_t m = ((w + UINT64_C(0x7676767676767676)) | w) & tops;
		if (m != 0)
			return p + __builtin_ctzll(m) / 8;
		p += 8;
	}
	while (p < e && ca_is_digit((unsigned char)*p))
		p++;
	return p;
}

/* Where the literal at s (looking no further than e) ends, if s begins
 * with one that the parser is sure to read as such in the old syntax when
 * the text ends there: an integer in range, a real, a string, true, false
 * or undefined. NULL if it does not. Such text can be kept as it is until
 * something reads it (ca_ad_append_src); anything else is parsed now, so
 * that a bad expression is still reported where it is read. */
static inline __attribute__((always_inline)) const char *
literal_end(const char *s, const char *e)
{
	const char *p = s;

	if (p >= e)
		return NULL;
	if (*p == '"')
		return string_end(s, e);
	if (*p == '-')
		p++;
	const char *d0 = p;
	p = digits_end(p, e);
	size_t nint = (size_t)(p - d0);
	bool digits = nint > 0, real = false;
	if (p < e && *p == '.') {
		const char *f = ++p;
		p = digits_end(p, e);
		if (p == f)
			return NULL;
		digits = real = true;
	}
	if (digits && p < e && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < e && (*p == '+' || *p == '-'))
			p++;
		const char *x = p;
		while (p < e && ca_is_digit((unsigned char)*p))
			p++;
		if (p == x)
			return NULL;
		real = true;
	}
	if (real)	/* a point or an exponent */
		return p;
	if (digits)	/* an integer: no leading zero, surely in range */
		return nint <= 18 && (nint == 1 || *d0 != '0') ? p : NULL;
	if (d0 != s)
		return NULL;
	switch (*s | 0x20) {
	case 't':
		return keyword_at(s, e, "true", 4);
	case 'f':
		return keyword_at(s, e, "false", 5);
	case 'u':
		return keyword_at(s, e, "undefined", 9);
	default:
		return NULL;
	}
}

/* Is s[0..n) one such literal? */
static bool
sure_literal(const char *s, size_t n)
{
	return literal_end(s, s + n) == s + n;
}

/* The input looks cut short in its last ad (at line): a warning for
 * ca_reader_warning, once. */
static void
truncated(ca_reader *r, int line, const char *why)
{
	if (r->warned)
		return;
	r->warned = r->has_warning = true;
	ca_diag_set(&r->warning, CA_EX_INPUT, r->name, line, 0,
	    "%s: the input looks truncated (its last ad is read as it is)", why);
}

/* The newline ending the line that begins at s (looking no further than
 * e), when what is before it is one literal sure_literal takes; else
 * NULL. */
static const char *
literal_line(const char *s, const char *e)
{
	const char *q = literal_end(s, e);

	return q != NULL && q < e && *q == '\n' ? q : NULL;
}

/* Does the long format's writer print e as s[0..n)? A shared tree keeps
 * its printed text; another is printed (into sb). So whether an ad keeps
 * its lines, and how its literals are written, depends on its own text
 * alone, never on the ads read before it (on what the store shares). */
static bool
same_text(strbuf *sb, const ca_expr *e, const char *s, size_t n)
{
	size_t tn;
	const char *t = e->flags & CA_EXPR_SHARED ? ca_share_old_text(e, &tn) : NULL;

	if (t == NULL) {
		strbuf_reset(sb);
		ca_print_expr(sb, e, CA_PR_OLD);
		t = sb->buf;
		tn = sb->len;
	}
	return tn == n && memcmp(t, s, n) == 0;
}

/*
 * The text of an ad as it is read. While every line of it is as the long
 * format's writer prints that attribute ("Name = text" and a newline, the
 * name needing no quotes, the text a literal kept as it came or a shared
 * expression whose printed text it is), the lines are copied to
 * one block of the ad's arena, where the literals kept as text then live,
 * and the ad keeps the block (ca_ad_keep_text): a filter writes an ad it
 * did not change with one copy. Comments are not part of it (the writer
 * drops them too). The first line that is not so ends the block.
 * Where the memory read stays (ca_reader_mem_stays), the block is the
 * lines where they are, while they follow each other there: no copy.
 */
/* Do the ads' lines stay where they are read? */
static bool
lines_stay(const ca_reader *r)
{
	return r->mem_stays && r->borrowed;
}

static void
text_start(ca_reader *r, ca_ad *ad)
{
	r->text = NULL;
	if (r->pack)
		return;
	r->in_place = lines_stay(r);
	r->text_cap = r->in_place ? 0 : r->last_bytes + 256;
	r->text = ca_arena_alloc(ad->arena, sizeof *r->text + r->text_cap);
	r->text->s = r->text->own;
	r->text->len = 0;
}

/* The ad's text moved to a block of its arena with room for n more bytes
 * (and more), from the one it outgrew or from where it was read (a line
 * that does not follow the last there). The literals kept in it move with
 * it: on their lines, they are written as read once they are read
 * (as_read), as in an ad whose text never moved. */
static __attribute__((noinline, cold)) void
text_grow(ca_reader *r, ca_ad *ad, size_t n)
{
	struct ca_ad_text *t = r->text;
	size_t cap = (r->text_cap > t->len ? r->text_cap : t->len) * 2 + n + 256;
	struct ca_ad_text *nt = ca_arena_alloc(ad->arena, sizeof *nt + cap);

	nt->s = nt->own;
	memcpy(nt->own, t->s, t->len);
	nt->len = t->len;
	for (uint32_t i = 0; i < ad->n; i++) {
		ca_attr *at = &ad->attrs[i];
		if (at->kind_ != CA_KIND_SRC)
			continue;
		size_t off = (uintptr_t)at->u_.s - (uintptr_t)t->s;
		if (off < t->len)
			at->u_.s = nt->own + off;
	}
	r->text = nt;
	r->text_cap = cap;
	r->in_place = false;
}

/* The line ls[0..n) added to the ad's text: where it is there. */
static inline const char *
text_line(ca_reader *r, ca_ad *ad, const char *ls, size_t n)
{
	struct ca_ad_text *t = r->text;

	if (r->in_place) {
		if (t->len == 0)
			t->s = ls;
		if (t->s + t->len == ls) {
			t->len += n;
			return ls;
		}
	}
	if (r->in_place || n > r->text_cap - t->len)
		text_grow(r, ad, n);
	t = r->text;
	char *d = t->own + t->len;
	memcpy(d, ls, n);
	t->len += n;
	return d;
}

/* The line ls[0..n) (its newline included), whose name is nm and whose
 * text (from its place `at` in the line, tn bytes) is a literal that parses
 * as such: into ad, kept as text, and into the ad's text if it is still
 * as the writer's (as_written: the line is "Name = text", nm's own
 * spelling). */
static inline void
append_literal(ca_reader *r, ca_ad *ad, const ca_name *nm, const char *ls, size_t n,
    size_t at, size_t tn, bool as_written)
{
	if (r->text != NULL && as_written) {
		const char *d = text_line(r, ad, ls, n);
		ca_ad_append_src_at(ad, nm, d + at, tn);
		return;
	}
	r->text = NULL;
	ca_ad_append_src(ad, nm, ls + at, tn);
}

/*
 * The line most lines of a stream are: the next name of the last ad,
 * spelled as it was, " = ", a literal sure to parse, and a newline. Such a
 * line cannot be blank, a comment or a banner (the name was read before),
 * so it is taken here in one pass, its literal kept as text; anything
 * else (false) is left for the general path, nothing consumed.
 * name_line: where the text of the line at p (before e) starts when it
 * begins with name x as spelled there and " = "; else NULL. usual_line:
 * whether it is such a line of x's own spelling: its newline, *vs where
 * its literal starts; else NULL.
 */
static inline const char *
name_line(const struct shape_name *x, const char *p, const char *e)
{
	size_t nlen = x->len;

	if ((size_t)(e - p) < nlen + 4 || !ca_same_bytes(p, x->spell, nlen) || p[nlen] != ' ' ||
	    p[nlen + 1] != '=' || p[nlen + 2] != ' ')
		return NULL;
	return p + nlen + 3;
}

static inline const char *
usual_line(const struct shape_name *x, const char *p, const char *e, const char **vs)
{
	if (!x->own || (*vs = name_line(x, p, e)) == NULL)
		return NULL;
	return literal_line(*vs, e);
}

static bool
kept_line(ca_reader *r, ca_ad *ad)
{
	const struct shape_name *x = &r->shape.at[r->spos];
	const char *p = r->buf + r->pos, *e = r->buf + r->end, *vs;
	const char *nl = usual_line(x, p, e, &vs);

	if (nl == NULL)
		return false;
	size_t n = (size_t)(nl - p) + 1;
	append_literal(r, ad, x->name, p, n, (size_t)(vs - p), (size_t)(nl - vs), x->plain);
	r->spos++;
	next_line(r, n);
	return true;
}

/* kept_line over the lines that follow, while each is of that kind with
 * a name of its own spelling that the writer prints so, or has the text
 * the last ad had at its place (a literal, or the source text of the
 * store's tree), where the ad's lines stay where they are read (in_place)
 * and its table has room: the reader's and the ad's counts kept in locals
 * and stored once. A text the same as the last ad's is compared, not
 * scanned. How many lines it took (0: kept_line and the general path go
 * on). */
static size_t
kept_run(ca_reader *r, ca_ad *ad)
{
	struct ca_ad_text *t = r->text;
	const char *p = r->buf + r->pos, *e = r->buf + r->end, *from = p;

	if (t == NULL || !r->in_place || (t->len != 0 && t->s + t->len != p) ||
	    ad->index != NULL || ca_table_of(ad) != CA_TABLE_HEAP || ad->text != NULL)
		return 0;
	struct shape_name *names = r->shape.at;
	uint32_t spos = r->spos, nnames = (uint32_t)r->shape.n, n = ad->n;
	uint32_t room = ad->cap < CA_INDEX_APPEND - 1 ? ad->cap : CA_INDEX_APPEND - 1;
	ca_attr *attrs = ad->attrs;
	while (spos < nnames && n < room) {
		struct shape_name *x = &names[spos];
		size_t tl = x->len_text;
		/* the text ahead asked for now: a part's text is first read
		 * here, and its mapped pages are scattered, which the
		 * processor's own look-ahead does not cross */
		__builtin_prefetch(p + 1024);
		const char *vs = x->plain ? name_line(x, p, e) : NULL, *nl;
		if (vs == NULL)
			break;
		if (x->text != NULL && (size_t)(e - vs) > tl && vs[tl] == '\n' &&
		    (tl <= 16 ? ca_same_bytes(vs, x->text, tl) : memcmp(vs, x->text, tl) == 0)) {
			/* the text the last ad had here: as that one's, the
			 * store's tree (which parsing the text finds), or the
			 * literal kept as its text */
			nl = vs + tl;
			ca_attr *at = &attrs[n++];
			at->name_id = x->id;
			if (x->shared != NULL) {
				at->busy = 0;
				ca_attr_set_expr(at, (ca_expr *)(uintptr_t)x->shared);
			} else
				ca_attr_keep_src(at, vs, tl);
		} else if (x->shared == NULL && x->own && (nl = literal_line(vs, e)) != NULL &&
		    (size_t)(nl - vs) <= CA_SRC_MAX) {
			ca_attr *at = &attrs[n++];
			at->name_id = x->name->id;
			ca_attr_keep_src(at, vs, (size_t)(nl - vs));
			x->text = vs;
			x->len_text = (size_t)(nl - vs);
		} else
			break;
		p = nl + 1;
		spos++;
	}
	size_t lines = spos - r->spos;
	if (lines == 0)
		return 0;
	ad->version += (uint32_t)lines;	/* each counted (ca_ad_counted), no text yet */
	ad->n = n;
	if (t->len == 0)
		t->s = from;
	t->len += (size_t)(p - from);
	r->spos = spos;
	r->pos += (size_t)(p - from);
	r->line += (int)lines;
	r->lstart = r->base + r->pos;
	return lines;
}

/* Where the ad being read, which has had the names of the shape it
 * follows so far, has next the name ns[0..nlen) that shape does not: one
 * of the other shapes kept that has the ad's names so far and this one
 * next becomes the shape followed (and that one is kept in its place).
 * The name, or NULL. A few tries an ad, so that a stream of ads unlike
 * any costs nothing much. */
static const ca_name *
alt_shape(ca_reader *r, const ca_ad *ad, const char *ns, size_t nlen)
{
	uint32_t at = ad->n;

	for (int k = 0; k < READ_ALT_SHAPES && r->alt_tries < 2 * READ_ALT_SHAPES; k++) {
		struct shape_names *a = &r->alt[k];
		if (a->n <= at || a->at[at].len != nlen || !ca_same_bytes(a->at[at].spell, ns, nlen))
			continue;
		r->alt_tries++;
		uint32_t i = 0;
		while (i < at && a->at[i].name == r->shape.at[i].name &&
		    a->at[i].spell == r->shape.at[i].spell)
			i++;
		if (i < at)
			continue;
		struct shape_names t = *a;
		*a = r->shape;
		r->shape = t;
		return r->shape.at[at].name;
	}
	return NULL;
}

int
ca_rd_next_long(ca_reader *r, ca_ad **out)
{
	ca_ad *ad = NULL;
	size_t len, next;
	int rc;

	if (r->skip && skip_bad_ad(r) < 0)
		return R_FATAL;
	for (;;) {
		if (ad != NULL && r->in_shape && !r->pack && r->spos < r->shape.n &&
		    (kept_run(r, ad) > 0 || kept_line(r, ad)))
			continue;
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
			/* banners begin with '*', '.' or '-' (one range test) */
			int b = (unsigned char)(*ls - '*') <= '.' - '*' ? banner(ls, le) : 0;
			if (b != 0) {
				next_line(r, next);
				if (b == BANNER_STARS)
					r->stars = true;
				if (ad)
					break;
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
		/* the name ends before the spaces before '=': a tab there is
		 * part of it, as in HTCondor */
		const char *ns = p, *ne = eq;
		while (ne > ns && ne[-1] == ' ')
			ne--;
		if (ne == ns) {
			ca_rd_error(r, 0, r->line, (int)(eq - ls) + 1, "missing attribute name before '='");
			goto bad;
		}
		/* the expression runs to the end of the line, blanks and all:
		 * in an old-syntax string \" is a quote unless the line ends
		 * right after it ("C:\" then ends in a backslash), as in
		 * HTCondor, which refuses "C:\" followed by blanks */
		const char *rs = eq + 1, *re = le;
		while (rs < re && is_blank((unsigned char)*rs))
			rs++;
		if (ad == NULL) {
			/* sized like the last ad, which it likely resembles;
			 * with room for its text beside (text_start), unless
			 * the text stays where it is read: then the arena
			 * holds only what is made of the text (the first
			 * chunk an arena has) */
			ad = ca_ad_new_sized((uint32_t)r->shape.n + (r->pack ? 0 : r->room),
			    r->pack ? r->last_bytes : lines_stay(r) ? 0 :
			    r->mem_stays ? r->last_bytes : 2 * r->last_bytes + 1024);
			r->ad_line = r->line;
			r->ad_off = r->base + r->pos;
			r->in_shape = r->exact = true;
			r->spos = 0;
			r->alt_tries = 0;
			text_start(r, ad);
		}
		const ca_name *nm = NULL;
		const char *spell = NULL;
		size_t nlen = (size_t)(ne - ns);
		/* a name of the last ad, at its place or a little after,
		 * spelled the same: no need to look it up, nor for it in ad */
		bool fresh = false;
		if (r->in_shape && r->exact && !(r->spos < r->shape.n &&
		    r->shape.at[r->spos].len == nlen && ca_same_bytes(r->shape.at[r->spos].spell, ns, nlen)) &&
		    (nm = alt_shape(r, ad, ns, nlen)) != NULL) {
			/* the ad goes on as one of another shape */
			spell = r->shape.at[ad->n].spell;
			r->spos = ad->n + 1;
			fresh = true;
		} else if (r->in_shape)
			for (uint32_t j = r->spos; j < r->shape.n && j < r->spos + SHAPE_AHEAD; j++) {
				const struct shape_name *x = &r->shape.at[j];
				if (x->len == nlen && ca_same_bytes(x->spell, ns, nlen)) {
					r->exact = r->exact && j == r->spos;
					nm = x->name;
					spell = x->spell;
					r->spos = j + 1;
					fresh = true;
					break;
				}
			}
		if (nm != NULL)
			;	/* spelled as a name already read */
		else if ((r->exact = false), bad_name(r, ls, ns, ne))
			goto bad;
		else if (*ns == '\'') {
			r->in_shape = false;
			nm = long_quoted_name(r, ad, ls, ns, nlen, &spell);
			if (nm == NULL)
				goto bad;
		} else {
			nm = ca_intern(ns, nlen);
			spell = ca_name_spelling(ad->arena, nm, ns, nlen);
			/* a name of the last ad's further on could now come
			 * twice: then the names are looked for in ad from here */
			for (uint32_t j = r->spos; r->in_shape && j < r->shape.n; j++)
				if (r->shape.at[j].name == nm)
					r->in_shape = false;
		}
		bool cut = next == len;	/* the last line of the input, without a newline */
		/* the line as the writer prints it: see text_start */
		bool as_written = !cut && ls + len == le && ns == ls && ne + 1 == eq &&
		    *ne == ' ' && rs == eq + 2 && eq[1] == ' ' && *ns != '\'';
		/* a literal an ad passes on is kept as its text, to be parsed
		 * only if read: not in ads a program holds, whose literals
		 * are shared instead */
		if (!r->pack && spell == nm->spell && (fresh || ca_ad_find(ad, nm) == NULL) &&
		    sure_literal(rs, (size_t)(re - rs))) {
			append_literal(r, ad, nm, ls, next, (size_t)(rs - ls), (size_t)(re - rs),
			    as_written && ca_wr_long_plain(nm, spell, nlen));
			if (cut)
				truncated(r, r->line, "the last line of the input has no newline");
			next_line(r, next);
			continue;
		}
		ca_diag perr;
		ca_expr *e = ca_rd_parse(r, ad->arena, rs, (size_t)(re - rs), CA_P_OLDSTR, &perr);
		if (e == NULL) {
			ca_rd_error(r, 0, r->line, (int)(rs - ls) + 1 + (int)perr.pos, "%s%s", perr.msg,
			    cut && perr.eof ? " (the input ends here: it looks truncated)" : "");
			goto bad;
		}
		if (fresh || ca_ad_find(ad, nm) == NULL) {
			ca_ad_append(ad, nm, spell, e);
			if (r->text != NULL && as_written && same_text(&r->sb2, e, rs, (size_t)(re - rs)) &&
			    ca_wr_long_plain(nm, spell, nlen))
				(void)text_line(r, ad, ls, next);
			else
				r->text = NULL;
		} else {
			ca_ad_set(ad, nm, spell, e);	/* a repeated name: the last one counts */
			r->text = NULL;
		}
		if (cut)
			truncated(r, r->line, "the last line of the input has no newline");
		next_line(r, next);
	}
	if (ad == NULL)
		return 0;
	/* at the end of the input: where the ads before this one ended with
	 * HTCondor's "***" line (a history file), this one should too */
	if (rc == 0 && r->stars)
		truncated(r, r->ad_line, "the last ad has no \"***\" line after it as the others have");
	r->last_bytes = (size_t)(r->base + r->pos - r->ad_off);
	r->shape_hint = r->in_shape && r->exact && ad->n == r->shape.n ? r->shape.id : 0;
	if (r->text != NULL)
		ca_ad_keep_text(ad, r->text);
	if (!r->exact || !r->in_shape || r->spos != ad->n || ad->n != r->shape.n) {
		/* a new shape: the one followed is kept among the others, in
		 * place of the one kept longest */
		struct shape_names old = r->alt[r->alt_next];
		r->alt[r->alt_next] = r->shape;
		r->alt_next = (r->alt_next + 1) % READ_ALT_SHAPES;
		r->shape = old;
		r->shape.n = 0;
		r->shape.id = 0;
		for (uint32_t i = 0; i < ad->n; i++) {
			const ca_attr *at = &ad->attrs[i];
			const ca_name *nm = ca_attr_name(at);
			const char *s = ca_attr_spell(at);	/* interned: it stays */
			const ca_expr *e = at->lit_cached & CA_LIT_LAZY ? NULL : at->expr_;
			size_t sl = 0;
			const char *src = e != NULL ? ca_share_source(e, CA_P_OLDSTR, &sl) : NULL;
			*ca_vec_push(&r->shape) = (struct shape_name){ nm, s, nm->len,
			    s == nm->spell, ca_wr_long_plain(nm, s, nm->len), at->name_id,
			    src != NULL ? e : NULL, src, src != NULL ? sl : 0 };
		}
	}
	*out = ad;
	return 1;
bad:
	ca_ad_free(ad);
	r->skip = true;		/* from this line to the next blank line */
	return R_AGAIN;
}
