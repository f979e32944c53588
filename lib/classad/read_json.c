/* read_json.c - ads in JSON as HTCondor writes them: objects in an array,
 * expressions as "\/Expr(...)\/" strings, null for UNDEFINED. */
#include <stdint.h>
#include <string.h>

#include "ad.h"
#include "expr.h"
#include "parser.h"
#include "reader.h"
#include "reader_int.h"

static ca_expr *json_value(ca_reader *r, ca_arena *a, int depth);
static int json_object(ca_reader *r, ca_ad *ad, int depth);

static int
json_unexpected(ca_reader *r, int c, const char *what)
{
	if (c == -1)
		return ca_rd_fail(r, c, "unexpected end of input inside an ad");
	if (c == 0)
		return ca_rd_fail(r, c, "NUL byte in the input (binary data?)");
	if (c >= 0x21 && c < 0x7f)
		return ca_rd_fail(r, c, "expected %s, found '%c'", what, c);
	return ca_rd_fail(r, c, "expected %s, found byte 0x%02x", what, c);
}

static void
esc_push(ca_reader *r, size_t dec, size_t raw)
{
	*ca_vec_push(&r->esc) = (struct escpos){ dec, raw };
}

/* Raw offset (after the opening quote) of decoded byte d of the last string. */
static size_t
esc_raw(const ca_reader *r, size_t d)
{
	size_t i = r->esc.n;

	while (i > 0 && r->esc.at[i - 1].dec > d)
		i--;
	if (i == 0)
		return d;
	return r->esc.at[i - 1].raw + (d - r->esc.at[i - 1].dec);
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
		int h = ca_rd_hexval(c);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* A JSON string at pos (the opening quote), decoded into r->sb. Escape
 * positions are kept so that errors inside \/Expr()\/ point at the text. */
static int
json_string(ca_reader *r)
{
	size_t raw = 0;

	strbuf_reset(&r->sb);
	r->esc.n = 0;
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
			return ca_rd_fail(r, c, "unterminated string");
		if (c == '"') {
			r->pos++;
			break;
		}
		if (c >= 0x20 && c != '\\')
			continue;	/* the scan stopped at the end of the buffer */
		if (c < 0x20) {
			if (c == 0)
				return ca_rd_fail(r, c, "NUL byte in the input (binary data?)");
			if (c == '\n')
				return ca_rd_fail(r, c, "unterminated string");
			return ca_rd_fail(r, c,
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
				return ca_rd_fail(r, 0, "bad \\u escape: expected four hex digits");
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
					ca_rd_soft(r, r->line, col_of(r, r->pos),
					    "bad \\u escape: unpaired surrogate \\u%04lX", cp);
					cp = -1;
				}
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				ca_rd_soft(r, r->line, col_of(r, r->pos),
				    "bad \\u escape: unpaired surrogate \\u%04lX", cp);
				cp = -1;
			} else if (cp == 0) {
				ca_rd_soft(r, r->line, col_of(r, r->pos),
				    "\\u0000 in a string: ClassAd strings cannot hold NUL");
				cp = -1;
			}
			if (cp >= 0)
				ca_rd_put_utf8(&r->sb, (unsigned long)cp);
			break;
		}
		default:
			if (d == -2)
				return R_FATAL;
			if (d == -1)
				return ca_rd_fail(r, -1, "unterminated string");
			if (d >= 0x21 && d < 0x7f)
				return ca_rd_fail(r, 0, "bad escape '\\%c' in a string", d);
			return ca_rd_fail(r, 0, "bad escape in a string (byte 0x%02x)", d);
		}
		r->pos += n;
		raw += n;
		esc_push(r, r->sb.len, raw);
	}
	if (r->sb.len > UINT32_MAX)
		return ca_rd_fail(r, 0, "string longer than 4 GiB");
	return 0;
}

/* A decoded string: "/Expr(...)/" is an expression, anything else a string. */
static ca_expr *
json_string_value(ca_reader *r, ca_arena *a, int line, int col)
{
	const char *s = r->sb.buf;
	size_t n = r->sb.len;

	if (n >= 8 && memcmp(s, "/Expr(", 6) == 0 && memcmp(s + n - 2, ")/", 2) == 0) {
		ca_diag perr;
		ca_expr *e = ca_rd_parse(r, a, s + 6, n - 8, 0, &perr);
		if (e == NULL) {
			size_t raw = esc_raw(r, 6 + perr.pos);
			ca_rd_soft(r, line, col + 1 + (int)raw, "in \\/Expr(...)\\/: %s", perr.msg);
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
			ca_rd_fail(r, 0, "number too long");
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
			ca_rd_soft(r, line, col, "integer %s out of range", num);
			return ca_expr_lit(a, ca_undef());
		}
		v = v * 10 + dg;
	}
	int64_t iv = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
	return ca_expr_lit(a, ca_int(iv));
malformed:
	ca_rd_error(r, 0, line, col, "malformed number '%s'", num);
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
			ca_rd_fail(r, d, "expected a value (true, false, null, a number, a string, an array or an object)");
			return NULL;
		}
	}
	int d = peekk(r, n);
	if (d == -2)
		return NULL;
	if ((d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z') || (d >= '0' && d <= '9') || d == '_') {
		ca_rd_fail(r, d, "expected a value (true, false, null, a number, a string, an array or an object)");
		return NULL;
	}
	r->pos += n;
	if (c == 'n')
		return ca_expr_lit(a, ca_undef());
	return ca_expr_lit(a, ca_bool(c == 't'));
}

static ca_expr *
json_array(ca_reader *r, ca_arena *a, int depth)
{
	size_t base = r->stk.n;
	int c;

	r->pos++;	/* [ */
	c = skip_ws(r, true);
	if (c != ']') {
		for (;;) {
			ca_expr *e = json_value(r, a, depth);
			if (e == NULL) {
				r->stk.n = base;
				return NULL;
			}
			if (r->stk.n - base >= UINT32_MAX) {
				ca_rd_fail(r, 0, "list with too many items");
				r->stk.n = base;
				return NULL;
			}
			ca_rd_push(r, e);
			c = skip_ws(r, true);
			if (c == ',') {
				r->pos++;
				if ((c = skip_ws(r, true)) == ']')
					break;	/* a trailing comma is tolerated */
				continue;
			}
			if (c == ']')
				break;
			json_unexpected(r, c, "',' or ']' in an array");
			r->stk.n = base;
			return NULL;
		}
	}
	r->pos++;	/* ] */
	return ca_rd_list(r, a, base);
}

static ca_expr *
json_value(ca_reader *r, ca_arena *a, int depth)
{
	int c = skip_ws(r, true);

	if (depth > CA_MAX_DEPTH) {
		ca_rd_fail(r, c, "ad nested more than %d levels deep", CA_MAX_DEPTH);
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
		ca_rd_set_height(r, e, line, col);
		return e;
	}
	case '[': {
		int line = r->line, col = col_of(r, r->pos);
		ca_expr *e = json_array(r, a, depth + 1);
		if (e)
			ca_rd_set_height(r, e, line, col);
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
		return ca_rd_fail(r, 0, "ad nested more than %d levels deep", CA_MAX_DEPTH);
	r->pos++;	/* { */
	c = skip_ws(r, true);
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
			ca_rd_soft(r, line, col, "empty attribute name");
		} else {
			nm = ca_intern(r->sb.buf, r->sb.len);
			if (memcmp(nm->spell, r->sb.buf, r->sb.len) != 0)
				spell = ca_arena_strndup(ad->arena, r->sb.buf, r->sb.len);
		}
		c = skip_ws(r, true);
		if (c != ':')
			return json_unexpected(r, c, "':' after the attribute name");
		r->pos++;
		ca_expr *e = json_value(r, ad->arena, depth);
		if (e == NULL)
			return R_FATAL;
		if (nm)
			ca_ad_set(ad, nm, spell, ca_rd_share(e));
		c = skip_ws(r, true);
		if (c == ',') {
			r->pos++;
			if ((c = skip_ws(r, true)) == '}')
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

int
ca_rd_next_json(ca_reader *r, ca_ad **out)
{
	int c;

	for (;;) {
		c = skip_ws(r, true);
		if (c == -2)
			return R_FATAL;
		if (c == -1) {
			if (r->nest)
				return ca_rd_fail(r, c,
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
	return ca_rd_ad(r, r->line, json_object, out);
}
