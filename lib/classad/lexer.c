/* lexer.c - turns ClassAd source text into tokens: literals (with string
 * escapes and adjacent-literal joining), names, keywords and operators. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "ascii.h"
#include "lexer.h"
#include "strbuf.h"
#include "value.h"

/* ORDER TOKENS */
const char *const ca_tok_text[] = {
	"end of input", "invalid token",
	"integer", "real", "string", "name",
	"true", "false", "undefined", "error",
	"is", "isnt",
	".", "*", "/", "%", "+", "-",
	"~", "^", "?", "?:", ":", ";",
	",", "[", "]", "(", ")",
	"{", "}", "&", "&&", "|", "||",
	"<", "<=", "<<", ">", ">=", ">>", ">>>",
	"=", "==", "=?=", "=!=", "!", "!=",
};

void
ca_lex_init(ca_lexer *lx, ca_arena *a, const char *src, size_t len, int flags)
{
	memset(lx, 0, sizeof *lx);
	lx->src = src;
	lx->len = len;
	lx->flags = flags;
	lx->arena = a;
	lx->prev = CA_T_EOF;
}

void
ca_lex_linecol(const char *src, size_t len, size_t pos, int *line, int *col)
{
	int l = 1, c = 1;

	if (pos > len)
		pos = len;
	for (size_t i = 0; i < pos; i++) {
		if (src[i] == '\n') {
			l++;
			c = 1;
		} else
			c++;
	}
	*line = l;
	*col = c;
}

static inline int
is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
fail(ca_lexer *lx, ca_token *t, size_t pos, int eof, const char *msg)
{
	t->type = CA_T_ERROR;
	t->pos = (uint32_t)pos;
	lx->err = msg;
	lx->errpos = (uint32_t)pos;
	lx->err_eof = eof;
	return -1;
}

/* Skip white space and comments. -1 on an unterminated comment. */
static int
skip_blank(ca_lexer *lx, ca_token *t)
{
	const char *s = lx->src;
	size_t n = lx->len, i = lx->pos;

	for (;;) {
		while (i < n && ca_is_space((unsigned char)s[i]))
			i++;
		if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
			size_t start = i;
			i += 2;
			while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'))
				i++;
			if (i + 1 >= n) {
				lx->pos = n;
				return fail(lx, t, start, 1, "unterminated comment");
			}
			i += 2;
			continue;
		}
		break;
	}
	lx->pos = i;
	return 0;
}

/* A number at lx->pos (after an optional '-' at `start`). */
static void
lex_number(ca_lexer *lx, ca_token *t, size_t start, int neg)
{
	const char *s = lx->src;
	size_t n = lx->len, i = lx->pos, digits = i;
	int real = 0;

	while (i < n && ca_is_digit((unsigned char)s[i]))
		i++;
	size_t ndig = i - digits;
	if (i < n && s[i] == '.') {
		if (i + 1 >= n || !ca_is_digit((unsigned char)s[i + 1])) {
			fail(lx, t, i + 1, i + 1 >= n, "a real literal needs digits after '.'");
			return;
		}
		real = 1;
		i++;
		while (i < n && ca_is_digit((unsigned char)s[i]))
			i++;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t k = i + 1;
		if (k < n && (s[k] == '+' || s[k] == '-'))
			k++;
		if (k >= n || !ca_is_digit((unsigned char)s[k])) {
			fail(lx, t, k, k >= n, "a real literal needs digits in its exponent");
			return;
		}
		while (k < n && ca_is_digit((unsigned char)s[k]))
			k++;
		i = k;
		real = 1;
	}
	if (i < n && (is_alpha((unsigned char)s[i]) || ca_is_digit((unsigned char)s[i]))) {
		if (ndig >= 1 && s[digits] == '0' && (s[i] == 'x' || s[i] == 'X'))
			fail(lx, t, start, 0, "hexadecimal integer literals are not ClassAd syntax");
		else
			fail(lx, t, i, 0, "a number runs into a name");
		return;
	}
	t->pos = (uint32_t)start;
	t->len = (uint32_t)(i - start);
	lx->pos = i;
	if (real) {
		char buf[128], *end;
		size_t len = i - digits;
		if (len >= sizeof buf) {
			/* very long literal: copy to the arena */
			char *p = ca_arena_strndup(lx->arena, s + digits, len);
			t->v.r = ca_strtod(p, &end);
		} else {
			memcpy(buf, s + digits, len);
			buf[len] = '\0';
			t->v.r = ca_strtod(buf, &end);
		}
		if (neg)
			t->v.r = -t->v.r;
		t->type = CA_T_REAL;
		return;
	}
	if (ndig > 1 && s[digits] == '0') {
		fail(lx, t, start, 0, "integer literals cannot start with 0 (octal is not ClassAd syntax)");
		return;
	}
	uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (size_t k = digits; k < digits + ndig; k++) {
		unsigned d = (unsigned)(s[k] - '0');
		if (v > (lim - d) / 10) {
			fail(lx, t, start, 0, "integer literal out of the 64-bit range");
			return;
		}
		v = v * 10 + d;
	}
	t->type = CA_T_INT;
	t->v.i = neg ? (int64_t)(0 - v) : (int64_t)v;
}

/* Decode one quoted literal starting at the opening quote at lx->pos into sb.
 * 0 ok, -1 error (token filled). */
static int
lex_quoted(ca_lexer *lx, ca_token *t, strbuf *sb, char q)
{
	const char *s = lx->src;
	size_t n = lx->len, i = lx->pos + 1, start = lx->pos;
	int old = (lx->flags & CA_LEX_OLDSTR) && q == '"';

	for (;;) {
		/* copy the plain run in one go */
		size_t run = i;
		while (i < n && s[i] != q && s[i] != '\\' && s[i] != '\0')
			i++;
		if (i > run)
			strbuf_add(sb, s + run, i - run);
		if (i >= n)
			return fail(lx, t, start, 1, q == '"' ? "unterminated string" :
			    "unterminated quoted name");
		char c = s[i];
		if (c == '\0')
			return fail(lx, t, i, 0, "NUL byte in a string");
		if (c == q) {
			lx->pos = i + 1;
			return 0;
		}
		/* a backslash */
		if (i + 1 >= n)
			return fail(lx, t, start, 1, "unterminated string");
		char e = s[i + 1];
		if (old) {
			if (e == '"') {
				/* \" is a quote, unless the text or the line ends
				 * right after it (a blank after it is text, as in
				 * HTCondor): then the string ends with a backslash
				 * ("C:\") */
				size_t k = i + 2;
				if (k >= n || s[k] == '\n') {
					strbuf_addc(sb, '\\');
					lx->pos = i + 2;
					return 0;
				}
				strbuf_addc(sb, '"');
			} else {
				strbuf_addc(sb, '\\');
				i += 1;
				continue;
			}
			i += 2;
			continue;
		}
		i += 2;
		switch (e) {
		case 'a': strbuf_addc(sb, '\a'); break;
		case 'b': strbuf_addc(sb, '\b'); break;
		case 'f': strbuf_addc(sb, '\f'); break;
		case 'n': strbuf_addc(sb, '\n'); break;
		case 'r': strbuf_addc(sb, '\r'); break;
		case 't': strbuf_addc(sb, '\t'); break;
		case 'v': strbuf_addc(sb, '\v'); break;
		case '0': case '1': case '2': case '3':
		case '4': case '5': case '6': case '7': {
			unsigned v = (unsigned)(e - '0');
			int max = e <= '3' ? 3 : 2;
			for (int k = 1; k < max && i < n && s[i] >= '0' && s[i] <= '7'; k++)
				v = v * 8 + (unsigned)(s[i++] - '0');
			if (v == 0)
				return fail(lx, t, i - 2, 0, "NUL byte in a string (\\0)");
			strbuf_addc(sb, (char)v);
			break;
		}
		case '\0':
			return fail(lx, t, i - 1, 0, "NUL byte in a string");
		default:
			strbuf_addc(sb, e);	/* \" \' \\ \? and any other: the char */
			break;
		}
	}
}

/* A string or quoted name, joined with literals of the same kind that
 * follow after white space only. */
static void
lex_string(ca_lexer *lx, ca_token *t, char q)
{
	strbuf sb = STRBUF_INIT;
	size_t start = lx->pos;

	for (;;) {
		if (lex_quoted(lx, t, &sb, q) < 0) {
			strbuf_release(&sb);
			return;
		}
		size_t k = lx->pos;
		while (k < lx->len && ca_is_space((unsigned char)lx->src[k]))
			k++;
		if (k < lx->len && lx->src[k] == q) {
			lx->pos = k;
			continue;
		}
		break;
	}
	if (sb.len > UINT32_MAX) {
		strbuf_release(&sb);
		fail(lx, t, start, 0, "string longer than 4 GiB");
		return;
	}
	t->type = q == '"' ? CA_T_STRING : CA_T_IDENT;
	t->pos = (uint32_t)start;
	t->len = (uint32_t)(lx->pos - start);
	t->v.str.s = q == '"' ? ca_str_shared(sb.buf, sb.len) : NULL;
	if (t->v.str.s == NULL)
		t->v.str.s = ca_arena_strndup(lx->arena, sb.buf, sb.len);
	t->v.str.len = (uint32_t)sb.len;
	strbuf_release(&sb);
	if (q == '\'' && t->v.str.len == 0)
		fail(lx, t, start, 0, "empty quoted name");
}

static int
keyword(const char *s, size_t n)
{
	static const struct { const char *w; ca_tok t; } kw[] = {
		{ "true", CA_T_TRUE }, { "false", CA_T_FALSE },
		{ "undefined", CA_T_UNDEFINED }, { "error", CA_T_ERRORKW },
		{ "is", CA_T_IS }, { "isnt", CA_T_ISNT },
	};
	if (n < 2 || n > 9)
		return -1;
	for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
		if (strlen(kw[k].w) == n && strncasecmp(kw[k].w, s, n) == 0)
			return (int)kw[k].t;
	return -1;
}

/* Can a '-' after a token of this type start a negative literal? Not after
 * something that ends an operand: there it is a minus. */
static int
ends_operand(ca_tok t)
{
	switch (t) {
	case CA_T_INT: case CA_T_REAL: case CA_T_STRING: case CA_T_IDENT:
	case CA_T_TRUE: case CA_T_FALSE: case CA_T_UNDEFINED: case CA_T_ERRORKW:
	case CA_T_DOT: case CA_T_RPAREN: case CA_T_RBRACK: case CA_T_RBRACE:
		return 1;
	default:
		return 0;
	}
}

static void
lex(ca_lexer *lx, ca_token *t)
{
	memset(t, 0, sizeof *t);
	if (skip_blank(lx, t) < 0)
		return;
	const char *s = lx->src;
	size_t n = lx->len, i = lx->pos;
	t->pos = (uint32_t)i;
	if (i >= n) {
		t->type = CA_T_EOF;
		return;
	}
	unsigned char c = (unsigned char)s[i];
	unsigned char c1 = i + 1 < n ? (unsigned char)s[i + 1] : 0;
	unsigned char c2 = i + 2 < n ? (unsigned char)s[i + 2] : 0;

	if (ca_is_digit(c) || (c == '.' && ca_is_digit(c1))) {
		lex_number(lx, t, i, 0);
		return;
	}
	if (c == '-' && !ends_operand(lx->prev) && (ca_is_digit(c1) || (c1 == '.' && ca_is_digit(c2)))) {
		lx->pos = i + 1;
		lex_number(lx, t, i, 1);
		return;
	}
	if (is_alpha(c)) {
		size_t k = i + 1;
		while (k < n && (is_alpha((unsigned char)s[k]) || ca_is_digit((unsigned char)s[k])))
			k++;
		int kw = keyword(s + i, k - i);
		t->type = kw >= 0 ? (ca_tok)kw : CA_T_IDENT;
		t->len = (uint32_t)(k - i);
		t->v.str.s = s + i;		/* not NUL-terminated: use len */
		t->v.str.len = (uint32_t)(k - i);
		lx->pos = k;
		return;
	}
	if (c == '"' || c == '\'') {
		lex_string(lx, t, (char)c);
		return;
	}
	ca_tok tk;
	size_t len = 1;
	switch (c) {
	case '.': tk = CA_T_DOT; break;
	case '*': tk = CA_T_STAR; break;
	case '/': tk = CA_T_SLASH; break;
	case '%': tk = CA_T_PERCENT; break;
	case '+': tk = CA_T_PLUS; break;
	case '-': tk = CA_T_MINUS; break;
	case '~': tk = CA_T_TILDE; break;
	case '^': tk = CA_T_CARET; break;
	case ':': tk = CA_T_COLON; break;
	case ';': tk = CA_T_SEMI; break;
	case ',': tk = CA_T_COMMA; break;
	case '[': tk = CA_T_LBRACK; break;
	case ']': tk = CA_T_RBRACK; break;
	case '(': tk = CA_T_LPAREN; break;
	case ')': tk = CA_T_RPAREN; break;
	case '{': tk = CA_T_LBRACE; break;
	case '}': tk = CA_T_RBRACE; break;
	case '?': {
		/* '?' then optional blanks then ':' is the Elvis operator */
		size_t k = i + 1;
		while (k < n && ca_is_space((unsigned char)s[k]))
			k++;
		if (k < n && s[k] == ':') {
			tk = CA_T_ELVIS;
			len = k + 1 - i;
		} else
			tk = CA_T_QUEST;
		break;
	}
	case '&':
		if (c1 == '&') { tk = CA_T_AND; len = 2; } else tk = CA_T_AMP;
		break;
	case '|':
		if (c1 == '|') { tk = CA_T_OR; len = 2; } else tk = CA_T_BAR;
		break;
	case '<':
		if (c1 == '=') { tk = CA_T_LE; len = 2; }
		else if (c1 == '<') { tk = CA_T_SHL; len = 2; }
		else tk = CA_T_LT;
		break;
	case '>':
		if (c1 == '=') { tk = CA_T_GE; len = 2; }
		else if (c1 == '>' && c2 == '>') { tk = CA_T_USHR; len = 3; }
		else if (c1 == '>') { tk = CA_T_SHR; len = 2; }
		else tk = CA_T_GT;
		break;
	case '=':
		if (c1 == '=') { tk = CA_T_EQ; len = 2; }
		else if (c1 == '?' && c2 == '=') { tk = CA_T_META_EQ; len = 3; }
		else if (c1 == '!' && c2 == '=') { tk = CA_T_META_NE; len = 3; }
		else if (c1 == '?') {
			fail(lx, t, i, i + 2 >= n, "'=?' must be followed by '=' (=?=)");
			return;
		} else tk = CA_T_ASSIGN;
		break;
	case '!':
		if (c1 == '=') { tk = CA_T_NE; len = 2; } else tk = CA_T_NOT;
		break;
	case '\0':
		fail(lx, t, i, 0, "NUL byte in the input");
		return;
	default:
		fail(lx, t, i, 0, c >= 0x80 || c < 0x20 ? "unexpected byte (binary or non-ASCII data outside a string)" :
		    "unexpected character");
		return;
	}
	t->type = tk;
	t->len = (uint32_t)len;
	lx->pos = i + len;
}

void
ca_lex_next(ca_lexer *lx, ca_token *t)
{
	lex(lx, t);
	lx->prev = t->type;
}
