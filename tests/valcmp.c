/* valcmp.c - compares an expected printed ClassAd value with a printed one
 * under the conformance corpus's normalisation rules (tests/data/eval.tsv). */

/*
 * usage: valcmp EXPECTED GOT
 * Exit 0 when the two texts are equal after normalisation, 1 when they
 * differ, 2 on a usage error.
 *
 * Both texts are cut into tokens and the two sequences must match one for
 * one: white space outside quotes only separates tokens; integers match equal
 * integers (as digit strings, so any size works); reals match reals within a
 * relative 1e-14, and an integer never matches a real; a minus sign is a
 * token of its own; "strings" and 'quoted names' match by their unescaped
 * bytes; the keywords true false undefined error is isnt ignore case; every
 * other name and every punctuation character must be identical.
 *
 * An expected text that cannot be tokenised (an unterminated quote) is
 * compared as plain text with its outer white space trimmed; a got text that
 * cannot be tokenised never matches.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REL_TOL 1e-14

enum kind { K_END, K_INT, K_REAL, K_STR, K_QNAME, K_KW, K_NAME, K_PUNCT };

struct tok {
	enum kind kind;
	const char *s;		/* lexeme (INT: without leading zeros) */
	size_t len;
	double r;		/* K_REAL */
	const char *buf;	/* K_STR, K_QNAME: unescaped bytes; K_KW: lower case */
	size_t blen;
};

/* A cursor over one text; buf has room for the longest decoded token. */
struct lexer {
	const char *p;
	char *buf;
};

static const char *const keywords[] = {
	"true", "false", "undefined", "error", "is", "isnt"
};

/* ASCII-only, so the result never depends on the locale. */
static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* 1 when the n bytes at s spell the keyword kw in any case. */
static int
is_keyword(const char *kw, const char *s, size_t n)
{
	size_t i;

	if (strlen(kw) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (kw[i] != lower((unsigned char)s[i]))
			return 0;
	return 1;
}

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_name_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static int
is_name_char(int c)
{
	return is_name_start(c) || is_digit(c);
}

/*
 * Decode a literal quoted with q whose body starts at p into out. Returns
 * the position after the closing quote and sets *outlen, or NULL when the
 * literal is not terminated.
 */
static const char *
unquote(const char *p, int q, char *out, size_t *outlen)
{
	size_t n = 0;
	int c, v, k;

	for (;;) {
		c = (unsigned char)*p++;
		if (c == '\0')
			return NULL;
		if (c == q)
			break;
		if (c != '\\') {
			out[n++] = (char)c;
			continue;
		}
		c = (unsigned char)*p++;
		if (c >= '0' && c <= '7') {
			v = c - '0';
			for (k = 1; k < 3 && *p >= '0' && *p <= '7'; k++)
				v = v * 8 + (*p++ - '0');
			out[n++] = (char)(v & 0xff);
			continue;
		}
		switch (c) {
		case '\0': return NULL;
		case 'a': c = '\a'; break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'v': c = '\v'; break;
		default: break;	/* \\ \" \' \? and any other: the character itself */
		}
		out[n++] = (char)c;
	}
	*outlen = n;
	return p;
}

/* Scan a number at p: digits [. digits] [e[+-]digits], or . digits. */
static const char *
scan_number(const char *p, int *real)
{
	const char *q;

	*real = 0;
	while (is_digit((unsigned char)*p))
		p++;
	if (*p == '.') {
		*real = 1;
		p++;
		while (is_digit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		q = p + 1;
		if (*q == '+' || *q == '-')
			q++;
		if (is_digit((unsigned char)*q)) {
			while (is_digit((unsigned char)*q))
				q++;
			*real = 1;
			p = q;
		}
	}
	return p;
}

/* The next token of lx into t. Returns 0, or -1 when the text is malformed. */
static int
next_token(struct lexer *lx, struct tok *t)
{
	const char *p = lx->p, *start;
	int c, real;
	size_t i;

	while (is_space((unsigned char)*p))
		p++;
	start = p;
	c = (unsigned char)*p;
	t->s = start;
	t->buf = NULL;
	if (c == '\0') {
		t->kind = K_END;
		t->len = 0;
	} else if (c == '"' || c == '\'') {
		t->kind = c == '"' ? K_STR : K_QNAME;
		t->buf = lx->buf;
		p = unquote(p + 1, c, lx->buf, &t->blen);
		if (p == NULL)
			return -1;
		t->len = (size_t)(p - start);
	} else if (is_digit(c) || (c == '.' && is_digit((unsigned char)p[1]))) {
		p = scan_number(p, &real);
		t->len = (size_t)(p - start);
		if (real) {
			t->kind = K_REAL;
			t->r = strtod(start, NULL);
		} else {
			t->kind = K_INT;
			while (t->len > 1 && *t->s == '0') {
				t->s++;
				t->len--;
			}
		}
	} else if (is_name_start(c)) {
		while (is_name_char((unsigned char)*p))
			p++;
		t->len = (size_t)(p - start);
		t->kind = K_NAME;
		for (i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
			if (is_keyword(keywords[i], start, t->len)) {
				t->kind = K_KW;
				t->buf = keywords[i];
				t->blen = t->len;
				break;
			}
		}
	} else {
		t->kind = K_PUNCT;
		t->len = 1;
		p++;
	}
	lx->p = p;
	return 0;
}

static int
reals_equal(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (a == b)
		return 1;
	if (isinf(a) || isinf(b))
		return 0;
	return fabs(a - b) <= REL_TOL * fmax(fabs(a), fabs(b));
}

static int
tokens_equal(const struct tok *a, const struct tok *b)
{
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case K_END:
		return 1;
	case K_REAL:
		return reals_equal(a->r, b->r);
	case K_STR:
	case K_QNAME:
	case K_KW:
		return a->blen == b->blen && memcmp(a->buf, b->buf, a->blen) == 0;
	default:
		return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
	}
}

/* The text s without leading and trailing white space, as (start, length). */
static size_t
trim(const char **s)
{
	const char *p = *s, *e;

	while (is_space((unsigned char)*p))
		p++;
	e = p + strlen(p);
	while (e > p && is_space((unsigned char)e[-1]))
		e--;
	*s = p;
	return (size_t)(e - p);
}

/* 1 when expected and got are equal after normalisation, else 0. */
static int
values_equal(const char *expected, const char *got)
{
	struct lexer le, lg;
	struct tok te, tg;
	const char *a = expected, *b = got;
	size_t na, nb;
	int eq = 0;

	le.p = expected;
	lg.p = got;
	le.buf = malloc(strlen(expected) + 1);
	lg.buf = malloc(strlen(got) + 1);
	if (le.buf == NULL || lg.buf == NULL) {
		perror("valcmp");
		exit(2);
	}
	/* A malformed expected text: fall back to comparing it as text. */
	while (next_token(&le, &te) == 0 && te.kind != K_END)
		;
	if (te.kind != K_END) {
		na = trim(&a);
		nb = trim(&b);
		eq = na == nb && memcmp(a, b, na) == 0;
		goto out;
	}
	le.p = expected;
	for (;;) {
		next_token(&le, &te);
		if (next_token(&lg, &tg) < 0 || !tokens_equal(&te, &tg))
			break;
		if (te.kind == K_END) {
			eq = 1;
			break;
		}
	}
out:
	free(le.buf);
	free(lg.buf);
	return eq;
}

int
main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: valcmp EXPECTED GOT\n");
		return 2;
	}
	return values_equal(argv[1], argv[2]) ? 0 : 1;
}
