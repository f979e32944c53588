/* read_xml.c - ads in HTCondor's XML: <classads> of <c> elements, each
 * attribute an <a n="..."> holding a typed value (<i>, <s>, <e>, <l>, ...). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ad.h"
#include "expr.h"
#include "parser.h"
#include "reader.h"
#include "reader_int.h"

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
			return ca_rd_fail(r, c < 0 ? c : 0, "bad entity (expected &name;)");
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
			return ca_rd_fail(r, 0, "bad character reference &%s;", ent);
		for (; ent[i]; i++) {
			int h = ca_rd_hexval((unsigned char)ent[i]);
			if (h < 0 || h >= b || cp > 0x10ffff)
				return ca_rd_fail(r, 0, "bad character reference &%s;", ent);
			cp = cp * (unsigned)b + (unsigned)h;
		}
		if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return ca_rd_fail(r, 0, "bad character reference &%s;", ent);
		ca_rd_put_utf8(sb, cp);
	} else
		return ca_rd_fail(r, 0, "unknown entity &%s;", ent);
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
			return ca_rd_fail(r, c, "inside an element");
		if (c == '<')
			break;
		if (c == 0)
			return ca_rd_fail(r, 0, "NUL byte in the input (binary data?)");
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
		return ca_rd_fail(r, 0, "text longer than 4 GiB");
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
			return ca_rd_error(r, 0, line, col, "unterminated %s", what);
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
	c = skip_ws(r, false);
	if (c == '/') {
		t->close = true;
		r->pos++;
		c = skip_ws(r, false);
	}
	while ((c = peek0(r)) >= 0 && xml_namechar(c)) {
		if (n < sizeof t->name - 1)
			t->name[n++] = (char)c;
		else
			return ca_rd_error(r, 0, t->line, t->col, "unknown element");
		r->pos++;
	}
	t->name[n] = 0;
	if (n == 0)
		return ca_rd_fail(r, c, "expected an element name after '<'");
	for (;;) {
		c = skip_ws(r, false);
		if (c == '>') {
			r->pos++;
			return 0;
		}
		if (c == '/' && !t->close) {
			if (peekk(r, 1) != '>')
				return ca_rd_fail(r, peekk(r, 1), "expected '>' after '/'");
			t->empty = true;
			r->pos += 2;
			return 0;
		}
		if (c < 0 || !xml_namechar(c))
			return ca_rd_fail(r, c < 0 ? c : 0, "bad tag <%s%s>", t->close ? "/" : "",
			    t->name);
		char an[16];
		size_t k = 0;
		while ((c = peek0(r)) >= 0 && xml_namechar(c)) {
			if (k < sizeof an - 1)
				an[k++] = (char)c;
			r->pos++;
		}
		an[k] = 0;
		c = skip_ws(r, false);
		if (c != '=')
			return ca_rd_fail(r, c < 0 ? c : 0, "expected '=' after %s in <%s>", an, t->name);
		r->pos++;
		int q = skip_ws(r, false);
		if (q != '"' && q != '\'')
			return ca_rd_fail(r, q < 0 ? q : 0, "expected a quoted value for %s in <%s>",
			    an, t->name);
		r->pos++;
		strbuf *v = strcmp(an, "n") == 0 ? &r->sb2 : &r->sb;
		strbuf_reset(v);
		for (;;) {
			c = peek0(r);
			if (c < 0)
				return ca_rd_fail(r, c, "inside a tag");
			if (c == q)
				break;
			if (c == 0)
				return ca_rd_fail(r, 0, "NUL byte in the input (binary data?)");
			if (c == '<')
				return ca_rd_fail(r, 0, "'<' inside an attribute value");
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
		int c = skip_ws(r, false);
		if (c != '<') {
			if (c == -1)
				return ca_rd_fail(r, c, "inside %s", where_);
			if (c == 0)
				return ca_rd_fail(r, 0, "NUL byte in the input (binary data?)");
			return ca_rd_fail(r, c, "unexpected text inside %s", where_);
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
		return ca_rd_error(r, 0, t.line, t.col, "expected </%s>, found <%s%s>", name,
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
			ca_rd_soft(r, line, col, "NUL byte (\\0) in a string");
			e = ca_expr_lit(a, ca_undef());
		} else
			e = ca_expr_lit(a, ca_str(r->sb.buf, (uint32_t)r->sb.len));
	} else if (strcmp(nm, "i") == 0) {
		trim(&s, &n);
		char *end;
		errno = 0;
		long long v = n ? strtoll(s, &end, 10) : 0;
		if (n == 0 || end != s + n || errno) {
			ca_rd_soft(r, line, col, "bad integer '%.40s' in <i>", s);
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
			ca_rd_soft(r, line, col, "bad real '%.40s' in <r>", s);
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
		e = ca_rd_parse(r, a, src, n, 0, &perr);
		if (e == NULL) {
			if (at || rt)
				ca_rd_soft(r, line, col, "bad time in <%s>: %s", nm, perr.msg);
			else
				ca_rd_soft(r, line + perr.line - 1,
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
		ca_rd_error(r, 0, t.line, t.col, "ad nested more than %d levels deep", CA_MAX_DEPTH);
		return NULL;
	}
	const char *nm = t.name;
	if (t.close) {
		ca_rd_error(r, 0, t.line, t.col, "expected a value, found </%s>", nm);
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
		ca_rd_set_height(r, e, t.line, t.col);
		return e;
	}
	if (!strcmp(nm, "l")) {
		size_t base = r->stk.n;
		if (!t.empty) {
			for (;;) {
				int c = skip_ws(r, false);
				if (c == '<' && peekk(r, 1) == '/') {
					if (xml_end(r, "l") < 0) {
						r->stk.n = base;
						return NULL;
					}
					break;
				}
				ca_expr *e = xml_value(r, a, depth + 1);
				if (e == NULL) {
					r->stk.n = base;
					return NULL;
				}
				ca_rd_push(r, e);
			}
		}
		ca_expr *e = ca_rd_list(r, a, base);
		ca_rd_set_height(r, e, t.line, t.col);
		return e;
	}
	ca_rd_error(r, 0, t.line, t.col, "unknown element <%s>", nm);
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
			return ca_rd_error(r, 0, t.line, t.col, "expected <a n=\"...\"> or </c>, found <%s%s>",
			    t.close ? "/" : "", t.name);
		if (t.empty)
			return ca_rd_error(r, 0, t.line, t.col, "attribute without a value");
		const ca_name *nm = NULL;
		const char *spell = NULL;
		if (!t.has_n || r->sb2.len == 0)
			ca_rd_soft(r, t.line, t.col, "attribute without a name (n=\"...\")");
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
			ca_ad_set(ad, nm, spell, ca_rd_share(e));
	}
}

int
ca_rd_next_xml(ca_reader *r, ca_ad **out)
{
	xtag t;
	int c;

	for (;;) {
		c = skip_ws(r, false);
		if (c == -2)
			return R_FATAL;
		if (c == -1) {
			if (r->nest)
				return ca_rd_fail(r, c, "missing </classads>");
			/* a document cut after its prolog is not an empty one */
			if (r->prolog && !r->root)
				return ca_rd_fail(r, c, "missing <classads>");
			return 0;
		}
		if (c != '<') {
			if (c == 0)
				return ca_rd_fail(r, 0, "NUL byte in the input (binary data?)");
			return ca_rd_fail(r, c, "unexpected text outside an ad (expected <c>)");
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
		return ca_rd_error(r, 0, t.line, t.col, "unexpected <%s%s> (expected <c>)",
		    t.close ? "/" : "", t.name);
	}
	return ca_rd_ad(r, t.line, t.empty ? NULL : xml_ad, out);
}
