/* write_long.c - ads in the long format, "Name = expression" lines in the old
 * syntax, and what that format cannot hold. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ascii.h"
#include "expr.h"
#include "print.h"
#include "share.h"
#include "writer_int.h"

/* Can the long format hold this name as it is? The reader splits at the
 * first '=', trims blanks, takes '#' lines for comments and "***", "..."
 * and "-- " lines for banners; anything else is written quoted ('a b') and
 * unquoted again by the reader. */
static bool
long_plain_name(const char *s, size_t n)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = ones << 7;

	if (n == 0 || s[0] == '#' || s[0] == '\'')
		return false;
	/* nor one whose line would read as a banner of HTCondor's tools
	 * ("***", "...", "-- ") */
	if ((n >= 3 && (memcmp(s, "***", 3) == 0 || memcmp(s, "...", 3) == 0)) ||
	    (n == 2 && memcmp(s, "--", 2) == 0))
		return false;
	/* 8 bytes at a time (the last word padded with 'a'): a byte below
	 * 0x21, or 0x7f, or '=' */
	for (size_t i = 0; i < n; i += 8) {
		uint64_t w = ones * 'a';
		memcpy(&w, s + i, n - i < 8 ? n - i : 8);
		uint64_t d = w ^ ones * 0x7f, e = w ^ ones * '=';
		if (((w - ones * 0x21) & ~w & highs) | ((d - ones) & ~d & highs) |
		    ((e - ones) & ~e & highs))
			return false;
	}
	return true;
}

bool
ca_wr_long_plain(const ca_name *name, const char *spell, size_t n)
{
	if (spell != name->spell)
		return long_plain_name(spell, n);
	/* the name's own spelling: kept with it */
	ca_name *nm = (ca_name *)(uintptr_t)name;
	if (nm->long_plain == 0)
		nm->long_plain = long_plain_name(spell, n) ? 1 : 2;
	return nm->long_plain == 1;
}

/*
 * An ad changed since it was read still has its lines as read (ca_ad_lines),
 * in its attributes' order, each name once. The writer copies from there
 * the lines of the attributes that are as they were read: a literal kept as
 * text there, a value read from such text (as_read), a shared expression
 * whose text is the line's; a run of such lines that follow each other
 * there at a time. `next` is where the next attribute's line would be.
 */
struct lines {
	const char *at, *end;	/* the ad's lines */
	const char *run, *next;	/* a run to copy, [run, next) */
};

static void
run_flush(strbuf *sb, struct lines *l)
{
	if (l->run != NULL)
		strbuf_add(sb, l->run, (size_t)(l->next - l->run));
	l->run = NULL;
}

/* The line [line, end) joins the run: the run goes on if it follows it,
 * else a new one starts there. */
static inline void
run_take(strbuf *sb, struct lines *l, const char *line, const char *end)
{
	if (line != l->next) {
		run_flush(sb, l);
		l->run = line;
	} else if (l->run == NULL)
		l->run = line;
	l->next = end;
}

/* A literal at kept as its text in the ad's lines is on its own line
 * there, as the reader put it (its name, " = ", the text, a newline):
 * that line taken, true; most lines are so. */
static inline bool
src_take(strbuf *sb, struct lines *l, const ca_attr *at)
{
	if (at->kind_ != CA_KIND_SRC)
		return false;
	size_t off = (uintptr_t)at->u_.s - (uintptr_t)l->at,
	    pre = ca_name_id_of(at->name_id)->len + 3;
	if (off >= (size_t)(l->end - l->at) || off < pre)
		return false;
	run_take(sb, l, at->u_.s - pre, at->u_.s + at->x_ + 1);
	return true;
}

/* The line at next, if it is at's (spelled s[0..n), its shared tree e or
 * NULL) as read, still at's: taken, true. Otherwise its old line, if
 * next, is passed. */
static bool
lines_take(strbuf *sb, struct lines *l, const ca_attr *at, const char *s, size_t n,
    const ca_expr *e)
{
	const char *p = l->next;

	if (p == NULL || (size_t)(l->end - p) <= n + 3 || !ca_same_bytes(p, s, n) || p[n] != ' ' ||
	    p[n + 1] != '=' || p[n + 2] != ' ')
		return false;
	const char *t = p + n + 3, *nl;
	size_t en;
	const char *et = e != NULL && (e->flags & CA_EXPR_SHARED) ? ca_share_old_text(e, &en) : NULL;
	if (et != NULL && (size_t)(l->end - t) > en && t[en] == '\n' && memcmp(t, et, en) == 0)
		nl = t + en;	/* the shared tree's text (one line) is the line's */
	else if ((nl = memchr(t, '\n', (size_t)(l->end - t))) == NULL)
		return false;
	else if (!at->as_read) {
		/* changed since: its old line is passed */
		run_flush(sb, l);
		l->next = nl + 1;
		return false;
	}
	run_take(sb, l, p, nl + 1);
	return true;
}

static bool old_line_unsafe(const ca_expr *e);

/* "Name = text" and a newline, in one piece. */
static void
usual_line_out(strbuf *sb, const char *s, size_t n, const char *text, size_t tn)
{
	size_t len = n + 3 + tn + 1;

	if (len >= sb->cap - sb->len)
		strbuf_grow(sb, len);
	char *d = sb->buf + sb->len;
	ca_copy_bytes(d, s, n);
	d[n] = ' ';
	d[n + 1] = '=';
	d[n + 2] = ' ';
	ca_copy_bytes(d + n + 3, text, tn);
	d[len - 1] = '\n';
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

/* Whether the long format may not hold the expression at holds as its
 * line: only a tree can hold what it cannot (a literal kept as text, or
 * its value, is one line's literal). A line copied from those the ad was
 * read with is judged as the tree it holds, so that the ad and a copy of
 * it are written alike. */
static bool
attr_unsafe(const ca_attr *at)
{
	return !(at->lit_cached & CA_LIT_LAZY) && old_line_unsafe(at->expr_);
}

/* The lines of ad. Whether one it wrote does not read back as one line
 * with the same expression (see ca_wr_long_put). */
static bool
wr_long(strbuf *sb, const ca_ad *ad)
{
	size_t all_len;
	const char *all = ca_ad_text(ad, &all_len);
	bool unsafe = false;

	if (all != NULL) {	/* as it was read */
		strbuf_add(sb, all, all_len);
		for (uint32_t i = 0; i < ad->n && !unsafe; i++)
			unsafe = attr_unsafe(&ad->attrs[i]);
		return unsafe;
	}
	struct lines l = { NULL, NULL, NULL, NULL };
	if ((l.at = ca_ad_lines(ad, &all_len)) != NULL) {
		l.end = l.at + all_len;
		l.next = l.at;
	}
	for (uint32_t i = 0; i < ad->n; i++) {
		size_t n;
		const ca_attr *at = &ad->attrs[i];
		if (l.at != NULL && src_take(sb, &l, at))
			continue;	/* the long format holds a literal's line */
		const char *s = attr_spell(at, &n);
		/* a literal kept as its text is written as it came; an
		 * expression many ads share is printed once */
		size_t tn;
		const char *text = ca_attr_src(at, &tn);
		ca_expr tmp;
		const ca_expr *e = ca_attr_expr_in(at, &tmp);
		if (l.at != NULL && text == NULL && lines_take(sb, &l, at, s, n, e)) {
			unsafe = unsafe || attr_unsafe(at);
			continue;
		}
		run_flush(sb, &l);
		bool plain = ca_wr_long_plain(ca_attr_name(at), s, n);
		if (plain && e == &tmp && tmp.u.lit.kind == CA_INT) {
			/* an integer the entry holds: its digits */
			char digits[24];
			usual_line_out(sb, s, n, digits, ca_fmt_i64(digits, tmp.u.lit.u.i));
			continue;
		}
		unsafe = unsafe || (e != NULL && old_line_unsafe(e));
		if (e != NULL && (e->flags & CA_EXPR_SHARED))
			text = ca_share_old_text(e, &tn);
		if (plain && text != NULL) {	/* the usual line, in one piece */
			usual_line_out(sb, s, n, text, tn);
			continue;
		}
		size_t from = sb->len;
		if (plain)
			strbuf_add(sb, s, n);
		else
			ca_print_name(sb, s, n);
		strbuf_add(sb, " = ", 3);
		if (text != NULL)
			strbuf_add(sb, text, tn);
		else
			ca_print_expr(sb, e, CA_PR_OLD);
		unsafe = unsafe || memchr(sb->buf + from, '\n', sb->len - from) != NULL;
		strbuf_addc(sb, '\n');
	}
	run_flush(sb, &l);
	return unsafe;
}

void
ca_wr_long(strbuf *sb, const ca_ad *ad)
{
	(void)wr_long(sb, ad);
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
	if (e->node == CA_N_LIT)
		return old_value_unsafe(e->u.lit, last);
	for (uint32_t i = 0; i < ca_expr_nkids(e); i++)
		if (old_expr_unsafe(ca_expr_kid(e, i), false))
			return true;
	return false;
}

/* The same for a shared tree, whose printed text (kept with it) must not
 * hold a newline either. */
static bool
old_line_unsafe_tree(const ca_expr *e)
{
	size_t n;
	const char *t = ca_share_old_text(e, &n);

	return old_expr_unsafe(e, true) || (t != NULL && memchr(t, '\n', n) != NULL);
}

/* The same for an attribute's expression, on a line of its own. */
static bool
old_line_unsafe(const ca_expr *e)
{
	if (e->flags & CA_EXPR_SHARED)
		return ca_share_old_unsafe(e, old_line_unsafe_tree);
	return old_expr_unsafe(e, true);
}

static bool
old_ad_unsafe(const ca_ad *ad)
{
	for (uint32_t i = 0; i < ad->n; i++)
		if (old_expr_unsafe(ca_attr_expr(ad, &ad->attrs[i]), false))
			return true;
	return false;
}

const char *
ca_wr_long_put(strbuf *sb, const ca_ad *ad)
{
	/* One line per attribute: old strings have no escape for a newline,
	 * and written raw it would split the attribute (or forge others); nor
	 * for a final backslash inside an expression. An ad without
	 * attributes has no text at all. */
	bool unsafe = wr_long(sb, ad);
	if (ad->n == 0)
		return "the long format cannot hold an ad without attributes "
		    "(-o new, json or xml can)";
	if (unsafe)
		return "the long format cannot hold a string with a newline, or "
		    "a backslash ending an expression's line (-o new, json or xml can)";
	return NULL;
}
