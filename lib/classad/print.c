/* print.c - unparsing of expressions, values and ads into new or old
 * ClassAd syntax, with locale-independent numbers. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ascii.h"
#include "lexer.h"
#include "print.h"

/*
 * The one text of a real number. Zeros print as "0.0" and "-0.0" and the
 * special values as real("INF"), real("-INF") and real("NaN"), as HTCondor
 * prints them everywhere (string() too); other values in HTCondor's
 * "%1.15E" form with CA_PR_HTREAL, else as the shortest text that reads
 * back to the same double, with a '.' or an exponent so it stays a real.
 */
static void
real_text(strbuf *sb, double r, int flags)
{
	char buf[40];

	if (isnan(r)) {
		strbuf_adds(sb, "real(\"NaN\")");
		return;
	}
	if (isinf(r)) {
		strbuf_adds(sb, r > 0 ? "real(\"INF\")" : "real(\"-INF\")");
		return;
	}
	if (r == 0) {
		strbuf_adds(sb, signbit(r) ? "-0.0" : "0.0");
		return;
	}
	if (flags & CA_PR_HTREAL) {
		snprintf(buf, sizeof buf, "%1.15E", r);
		ca_radix_dot(buf);
		strbuf_adds(sb, buf);
		return;
	}
	/* the shortest of %.15g, %.16g, %.17g that reads back exactly */
	size_t n = ca_real_shortest(buf, r);
	if (memchr(buf, '.', n) == NULL && memchr(buf, 'e', n) == NULL)
		memcpy(buf + n, ".0", 2), n += 2;
	strbuf_add(sb, buf, n);
}

void
ca_print_real(strbuf *sb, double r)
{
	real_text(sb, r, 0);
}

static void
octal(strbuf *sb, unsigned char c)
{
	char o[5] = { '\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)),
	    (char)('0' + (c & 7)), 0 };
	strbuf_add(sb, o, 4);
}

/* Quoted text with new-syntax escapes, quote char q. */
static void
quoted(strbuf *sb, const char *s, size_t len, char q)
{
	strbuf_grow(sb, len + 2);
	strbuf_addc(sb, q);
	size_t run = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\' && c != (unsigned char)q)
			continue;
		strbuf_add(sb, s + run, i - run);
		run = i + 1;
		switch (c) {
		case '\a': strbuf_adds(sb, "\\a"); break;
		case '\b': strbuf_adds(sb, "\\b"); break;
		case '\f': strbuf_adds(sb, "\\f"); break;
		case '\n': strbuf_adds(sb, "\\n"); break;
		case '\r': strbuf_adds(sb, "\\r"); break;
		case '\t': strbuf_adds(sb, "\\t"); break;
		case '\v': strbuf_adds(sb, "\\v"); break;
		case '\\': strbuf_adds(sb, "\\\\"); break;
		default:
			if (c == (unsigned char)q) {
				strbuf_addc(sb, '\\');
				strbuf_addc(sb, q);
			} else
				octal(sb, c);
		}
	}
	strbuf_add(sb, s + run, len - run);
	strbuf_addc(sb, q);
}

void
ca_print_string(strbuf *sb, const char *s, size_t len, int flags)
{
	if (!(flags & CA_PR_OLD)) {
		quoted(sb, s, len, '"');
		return;
	}
	/* old syntax: only the quote is escaped */
	strbuf_addc(sb, '"');
	size_t run = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '"')
			continue;
		strbuf_add(sb, s + run, i - run);
		strbuf_adds(sb, "\\\"");
		run = i + 1;
	}
	strbuf_add(sb, s + run, len - run);
	strbuf_addc(sb, '"');
}

static int
plain_name(const char *s, size_t len)
{
	static const char *const reserved[] = {
		"error", "false", "is", "isnt", "parent", "true", "undefined"
	};

	if (len == 0)
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
		if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
			return 0;
	}
	for (size_t k = 0; k < sizeof reserved / sizeof reserved[0]; k++)
		if (strlen(reserved[k]) == len && strncasecmp(reserved[k], s, len) == 0)
			return 0;
	return 1;
}

void
ca_print_name(strbuf *sb, const char *s, size_t len)
{
	if (plain_name(s, len))
		strbuf_add(sb, s, len);
	else
		quoted(sb, s, len, '\'');
}

void
ca_print_abstime(strbuf *sb, int64_t secs, int32_t off)
{
	int64_t local;
	struct tm tm;
	char buf[64];

	if (__builtin_add_overflow(secs, (int64_t)off, &local) || (time_t)local != local ||
	    gmtime_r(&(time_t){ (time_t)local }, &tm) == NULL || tm.tm_year > 9999 - 1900 ||
	    tm.tm_year < -1900) {
		strbuf_adds(sb, "(out of range)");
		return;
	}
	int a = off < 0 ? -off : off;
	snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
	    tm.tm_sec, off > 0 ? '+' : '-', a / 3600, (a % 3600) / 60);
	strbuf_adds(sb, buf);
}

void
ca_print_reltime(strbuf *sb, double secs)
{
	char buf[64];

	if (!isfinite(secs)) {
		strbuf_adds(sb, isnan(secs) ? "NaN" : secs > 0 ? "INF" : "-INF");
		return;
	}
	if (secs < 0) {
		strbuf_addc(sb, '-');
		secs = -secs;
	}
	double days = floor(secs / 86400);
	secs -= days * 86400;
	int h = (int)(secs / 3600);
	secs -= h * 3600;
	int m = (int)(secs / 60);
	secs -= m * 60;
	if (days > 0)	/* as many digits as it takes */
		strbuf_addf(sb, "%.0f+%02d:%02d:", days, h, m);
	else if (h > 0)
		strbuf_addf(sb, "%02d:%02d:", h, m);
	else if (m > 0)
		strbuf_addf(sb, "%02d:", m);
	snprintf(buf, sizeof buf, "%02g", secs);
	ca_radix_dot(buf);
	strbuf_adds(sb, buf);
}

static void print_expr(strbuf *sb, const ca_expr *e, int flags);

/*
 * CA_PR_PRETTY lays records and lists out as HTCondor's pretty printer
 * does (what its unparse() returns): each on lines of its own, a record
 * indented 4 more than around it and its attributes 4 more again, a list
 * 3 and 3. The indentation of the current level rides in the flags,
 * above INDENT_SHIFT.
 */
#define INDENT_SHIFT	8

/* Open a pretty record or list with c at step columns more; the flags
 * for its items. */
static int
pretty_open(strbuf *sb, int flags, int step, char c)
{
	int in = (flags >> INDENT_SHIFT) + step;

	strbuf_addc(sb, '\n');
	strbuf_addf(sb, "%*s%c", in, "", c);
	return (flags & ((1 << INDENT_SHIFT) - 1)) | (in + step) << INDENT_SHIFT;
}

static void
pretty_item(strbuf *sb, int flags)
{
	strbuf_addf(sb, "\n%*s", flags >> INDENT_SHIFT, "");
}

static void
pretty_close(strbuf *sb, int flags, int step, char c)
{
	strbuf_addf(sb, "\n%*s%c", (flags >> INDENT_SHIFT) - step, "", c);
}

void
ca_print_ad(strbuf *sb, const ca_ad *ad, int flags)
{
	int in = flags;

	if (flags & CA_PR_PRETTY)
		in = pretty_open(sb, flags, 4, '[');
	else
		strbuf_adds(sb, "[ ");
	for (uint32_t i = 0; i < ad->n; i++) {
		if (i)
			strbuf_adds(sb, "; ");
		if (flags & CA_PR_PRETTY)
			pretty_item(sb, in);
		const char *spell = ca_attr_spell(&ad->attrs[i]);
		ca_print_name(sb, spell, strlen(spell));
		strbuf_adds(sb, " = ");
		print_expr(sb, ca_attr_expr(ad, &ad->attrs[i]), in);
	}
	if (flags & CA_PR_PRETTY)
		pretty_close(sb, in, 4, ']');
	else
		strbuf_adds(sb, " ]");
}

/* A list of n items, the values v (or the expressions e). */
static void
print_list(strbuf *sb, const ca_value *v, ca_expr *const *e, uint32_t n, int flags)
{
	int in = flags;

	if (flags & CA_PR_PRETTY)
		in = pretty_open(sb, flags, 3, '{');
	else
		strbuf_adds(sb, "{ ");
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			strbuf_addc(sb, ',');
		if (flags & CA_PR_PRETTY)
			pretty_item(sb, in);
		if (v)
			ca_print_value(sb, v[i], in);
		else
			print_expr(sb, e[i], in);
	}
	if (flags & CA_PR_PRETTY)
		pretty_close(sb, in, 3, '}');
	else
		strbuf_adds(sb, " }");
}

void
ca_print_value(strbuf *sb, ca_value v, int flags)
{
	switch (v.kind) {
	case CA_ERROR:
		strbuf_adds(sb, "error");
		break;
	case CA_UNDEFINED:
		strbuf_adds(sb, "undefined");
		break;
	case CA_BOOL:
		strbuf_adds(sb, v.u.b ? "true" : "false");
		break;
	case CA_INT: {
		char buf[24];
		strbuf_add(sb, buf, ca_fmt_i64(buf, v.u.i));
		break;
	}
	case CA_REAL:
		real_text(sb, v.u.r, flags);
		break;
	case CA_STRING:
		ca_print_string(sb, v.u.s, v.x.len, flags);
		break;
	case CA_LIST:
		print_list(sb, v.u.items, NULL, v.x.len, flags);
		break;
	case CA_AD:
		ca_print_ad(sb, v.u.ad->ad, flags);
		break;
	case CA_ABSTIME:
		strbuf_adds(sb, "absTime(\"");
		ca_print_abstime(sb, v.u.i, v.x.off);
		strbuf_adds(sb, "\")");
		break;
	case CA_RELTIME:
		strbuf_adds(sb, "relTime(\"");
		ca_print_reltime(sb, v.u.r);
		strbuf_adds(sb, "\")");
		break;
	}
}

/* The expressions v[0..n) separated by ',', between open and close. */
static void
print_items(strbuf *sb, const char *open, ca_expr *const *v, uint32_t n, const char *close,
    int flags)
{
	strbuf_adds(sb, open);
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			strbuf_addc(sb, ',');
		print_expr(sb, v[i], flags);
	}
	strbuf_adds(sb, close);
}

static void
print_expr(strbuf *sb, const ca_expr *e, int flags)
{
	switch (e->node) {
	case CA_N_LIT:
		ca_print_value(sb, e->u.lit, flags);
		break;
	case CA_N_ATTR:
		if (e->op == CA_SC_ROOT)
			strbuf_addc(sb, '.');
		else if (e->op != CA_SC_NONE) {
			strbuf_adds(sb, e->u.attr.scope);
			strbuf_addc(sb, '.');
		}
		ca_print_name(sb, e->u.attr.spell, strlen(e->u.attr.spell));
		break;
	case CA_N_SELECT:
		print_expr(sb, e->u.sel.base, flags);
		/* "0.x" would read back as the real "0." followed by x */
		if (e->u.sel.base->node == CA_N_LIT && e->u.sel.base->u.lit.kind == CA_INT)
			strbuf_addc(sb, ' ');
		strbuf_addc(sb, '.');
		ca_print_name(sb, e->u.sel.spell, strlen(e->u.sel.spell));
		break;
	case CA_N_INDEX:
		print_expr(sb, e->u.k.a, flags);
		strbuf_addc(sb, '[');
		print_expr(sb, e->u.k.b, flags);
		strbuf_addc(sb, ']');
		break;
	case CA_N_UNARY: {
		strbuf_adds(sb, ca_tok_text[e->op]);
		size_t at = sb->len;
		print_expr(sb, e->u.k.a, flags);
		/* "-0[x]" would read back as the literal 0 indexed, not as a
		 * negation: a space where the operand's text starts a number */
		if (e->op == CA_T_MINUS && sb->len > at &&
		    ((sb->buf[at] >= '0' && sb->buf[at] <= '9') || sb->buf[at] == '.')) {
			strbuf_addc(sb, ' ');
			memmove(sb->buf + at + 1, sb->buf + at, sb->len - at - 1);
			sb->buf[at] = ' ';
		}
		break;
	}
	case CA_N_BINARY:
		print_expr(sb, e->u.k.a, flags);
		strbuf_addc(sb, ' ');
		strbuf_adds(sb, ca_tok_text[e->op]);
		strbuf_addc(sb, ' ');
		print_expr(sb, e->u.k.b, flags);
		break;
	case CA_N_COND:
		print_expr(sb, e->u.k.a, flags);
		strbuf_adds(sb, " ? ");
		print_expr(sb, e->u.k.b, flags);
		strbuf_adds(sb, " : ");
		print_expr(sb, e->u.k.c, flags);
		break;
	case CA_N_ELVIS:
		print_expr(sb, e->u.k.a, flags);
		strbuf_adds(sb, " ?: ");
		print_expr(sb, e->u.k.b, flags);
		break;
	case CA_N_PAREN:
		strbuf_addc(sb, '(');
		print_expr(sb, e->u.k.a, flags);
		strbuf_addc(sb, ')');
		break;
	case CA_N_CALL:
		strbuf_adds(sb, e->u.call.spell);
		print_items(sb, "(", e->u.call.args, e->u.call.n, ")", flags);
		break;
	case CA_N_LIST:
		print_list(sb, NULL, e->u.list.items, e->u.list.n, flags);
		break;
	case CA_N_AD:
		ca_print_ad(sb, e->u.ad, flags);
		break;
	}
}

void
ca_print_expr(strbuf *sb, const ca_expr *e, int flags)
{
	print_expr(sb, e, flags);
}

void
ca_value_to_string(strbuf *sb, ca_value v)
{
	switch (v.kind) {
	case CA_STRING:
		strbuf_add(sb, v.u.s, v.x.len);
		break;
	case CA_ABSTIME:
		ca_print_abstime(sb, v.u.i, v.x.off);
		break;
	case CA_RELTIME:
		/* whole seconds: HTCondor converts a relative time to text
		 * through an integer, so relTime(1.5) gives "01" */
		ca_print_reltime(sb, ca_reltime_secs(v.u.r));
		break;
	default:
		ca_print_value(sb, v, CA_PR_HTREAL);
		break;
	}
}
