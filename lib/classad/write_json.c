/* write_json.c - ads in JSON as HTCondor writes them: literals as JSON values,
 * other expressions as "\/Expr(...)\/" strings. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "expr.h"
#include "print.h"
#include "writer_int.h"

bool
ca_wr_utf8_valid(const char *s, size_t n)
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

/* Before item i of an object or array opened at indent: a comma after the
 * item before, a new line, and the indent of the items. */
static void
json_next(strbuf *sb, uint32_t i, int indent)
{
	if (i)
		strbuf_addc(sb, ',');
	strbuf_addc(sb, '\n');
	spaces(sb, indent + 2);
}

/* The end c of an object or array opened at indent. */
static void
json_close(strbuf *sb, int indent, char c)
{
	strbuf_addc(sb, '\n');
	spaces(sb, indent);
	strbuf_addc(sb, c);
}

void
ca_wr_json(strbuf *sb, strbuf *tmp, const ca_ad *ad, int indent)
{
	strbuf_addc(sb, '{');
	for (uint32_t i = 0; i < ad->n; i++) {
		size_t n;
		const char *s = attr_spell(&ad->attrs[i], &n);
		json_next(sb, i, indent);
		json_string(sb, s, n);
		strbuf_add(sb, ": ", 2);
		json_expr(sb, tmp, ca_attr_expr(ad, &ad->attrs[i]), indent + 2);
	}
	json_close(sb, indent, '}');
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
		if (ca_wr_utf8_valid(v.u.s, v.x.len)) {
			json_string(sb, v.u.s, v.x.len);
			return;
		}
		break;
	case CA_LIST:
		strbuf_addc(sb, '[');
		for (uint32_t i = 0; i < v.x.len; i++) {
			json_next(sb, i, indent);
			json_val(sb, tmp, v.u.items[i], indent + 2);
		}
		json_close(sb, indent, ']');
		return;
	case CA_AD:
		ca_wr_json(sb, tmp, v.u.ad->ad, indent);
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
		ca_wr_json(sb, tmp, e->u.ad, indent);
		return;
	case CA_N_LIST:
		strbuf_addc(sb, '[');
		for (uint32_t i = 0; i < e->u.list.n; i++) {
			json_next(sb, i, indent);
			json_expr(sb, tmp, e->u.list.items[i], indent + 2);
		}
		json_close(sb, indent, ']');
		return;
	default:
		strbuf_reset(tmp);
		ca_print_expr(tmp, e, 0);
		json_quote_expr(sb, tmp);
		return;
	}
}

