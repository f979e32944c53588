/* write_xml.c - ads in HTCondor's XML: a <c> element per ad, an <a n="...">
 * per attribute holding a typed value. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "expr.h"
#include "print.h"
#include "writer_int.h"

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

void
ca_wr_xml(strbuf *sb, strbuf *tmp, const ca_ad *ad, int indent)
{
	strbuf_add(sb, "<c>\n", 4);
	for (uint32_t i = 0; i < ad->n; i++) {
		size_t n;
		const char *s = attr_spell(&ad->attrs[i], &n);
		spaces(sb, indent + 4);
		strbuf_add(sb, "<a n=\"", 6);
		xml_escape(sb, s, n, true);
		strbuf_add(sb, "\">", 2);
		xml_expr(sb, tmp, ca_attr_expr(ad, &ad->attrs[i]), indent + 4);
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
		ca_wr_xml(sb, tmp, v.u.ad->ad, indent);
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
		ca_wr_xml(sb, tmp, e->u.ad, indent);
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

