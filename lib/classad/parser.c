/* parser.c - builds expression trees and ads from tokens: recursive descent
 * for primaries, precedence climbing from a table for binary operators. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ascii.h"
#include "builtins.h"
#include "lexer.h"
#include "parser.h"
#include "ad_int.h"
#include "timeparse.h"

typedef struct parser {
	ca_lexer lx;
	ca_token tok;		/* current token */
	ca_arena *arena;
	int flags;
	int depth;
	ca_diag *err;
	int failed;
	size_t end;		/* just after the ']' of a top-level ad */
} parser;

void
ca_diag_pos(ca_diag *err, const char *src, size_t len, size_t pos, int eof,
    const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	va_start(ap, fmt);
	ca_diag_vset(err, CA_EX_INPUT, NULL, 0, 0, fmt, ap);
	va_end(ap);
	err->pos = pos;
	err->eof = eof;
	ca_lex_linecol(src, len, pos, &err->line, &err->col);
}

static void
next(parser *p)
{
	ca_lex_next(&p->lx, &p->tok);
	if (p->tok.type == CA_T_ERROR && !p->failed) {
		p->failed = 1;
		ca_diag_pos(p->err, p->lx.src, p->lx.len, p->lx.errpos, p->lx.err_eof,
		    "%s", p->lx.err);
	}
}

/* Report a syntax error at the current token (once). */
static ca_expr *
syntax(parser *p, const char *fmt, ...)
{
	va_list ap;
	char msg[120];

	if (p->failed)
		return NULL;
	p->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	int eof = p->tok.type == CA_T_EOF;
	if (eof)
		ca_diag_pos(p->err, p->lx.src, p->lx.len, p->tok.pos, 1,
		    "%s, found the end of input", msg);
	else
		ca_diag_pos(p->err, p->lx.src, p->lx.len, p->tok.pos, 0,
		    "%s, found '%.*s'", msg, (int)(p->tok.len > 20 ? 20 : p->tok.len),
		    p->lx.src + p->tok.pos);
	return NULL;
}

static int
expect(parser *p, ca_tok t, const char *what)
{
	if (p->tok.type != t) {
		syntax(p, "expected %s", what);
		return -1;
	}
	next(p);
	return 0;
}

/* The height of a tree is kept in e->flags so that no walk over a tree can
 * go deeper than CA_MAX_DEPTH. */
static ca_expr *
node(parser *p, ca_node kind, uint32_t pos, int height)
{
	if (height > CA_MAX_DEPTH) {
		if (!p->failed) {
			p->failed = 1;
			ca_diag_pos(p->err, p->lx.src, p->lx.len, pos, 0,
			    "expression nested more than %d levels deep", CA_MAX_DEPTH);
		}
		return NULL;
	}
	ca_expr *e = ca_arena_zalloc(p->arena, sizeof *e);
	e->node = (uint8_t)kind;
	e->pos = pos;
	e->flags = (uint16_t)height;
	return e;
}

static int
height(const ca_expr *e)
{
	return e ? e->flags & CA_EXPR_HEIGHT : 0;
}

static int
enter(parser *p)
{
	if (++p->depth > CA_MAX_DEPTH) {
		if (!p->failed) {
			p->failed = 1;
			ca_diag_pos(p->err, p->lx.src, p->lx.len, p->tok.pos, 0,
			    "expression nested more than %d levels deep", CA_MAX_DEPTH);
		}
		return -1;
	}
	return 0;
}

static ca_expr *expr(parser *p);
static ca_expr *unary(parser *p);
static ca_ad *ad_body(parser *p, ca_ad *ad, int top);

/* Binary operator priorities: higher binds tighter. All are left-assoc. */
static int
binary_prio(ca_tok t)
{
	switch (t) {
	case CA_T_OR: return 1;
	case CA_T_AND: return 2;
	case CA_T_BAR: return 3;
	case CA_T_CARET: return 4;
	case CA_T_AMP: return 5;
	case CA_T_EQ: case CA_T_NE: case CA_T_META_EQ: case CA_T_META_NE:
	case CA_T_IS: case CA_T_ISNT: return 6;
	case CA_T_LT: case CA_T_LE: case CA_T_GT: case CA_T_GE: return 7;
	case CA_T_SHL: case CA_T_SHR: case CA_T_USHR: return 8;
	case CA_T_PLUS: case CA_T_MINUS: return 9;
	case CA_T_STAR: case CA_T_SLASH: case CA_T_PERCENT: return 10;
	default: return 0;
	}
}

static const char *
ident_text(parser *p, const ca_token *t, size_t *len)
{
	*len = t->v.str.len;
	return t->v.str.s;
}

static int
is_word(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && strncasecmp(s, w, n) == 0;
}

/* The expressions of a list or of a call's arguments, separated by ',' (and
 * with semi ';', as the daemons' rules allow between arguments) up to the
 * token close, the current token being the one that opens them: into an
 * array of the arena (*v, *n), with the height of the highest in *h. */
static int
items(parser *p, ca_tok close, bool semi, const char *what, ca_expr ***v, uint32_t *n, int *h)
{
	/* on the stack while few, then in the arena: not a ca_vec, whose heap
	 * memory would cost a malloc and a free for every expression holding
	 * a call or a list (about 5% of parsing those) */
	ca_expr *first[16], **iv = first;
	size_t k = 0, cap = 16;

	*h = 0;
	next(p);	/* ( or { */
	if (p->tok.type != close) {
		for (;;) {
			ca_expr *a = expr(p);
			if (a == NULL)
				return -1;
			if (k == cap) {
				ca_expr **more = ca_arena_array(p->arena, cap * 2, sizeof *more);
				memcpy(more, iv, k * sizeof *more);
				iv = more;
				cap *= 2;
			}
			iv[k++] = a;
			if (height(a) > *h)
				*h = height(a);
			if (p->tok.type == CA_T_COMMA || (semi && p->tok.type == CA_T_SEMI)) {
				next(p);
				continue;
			}
			break;
		}
	}
	if (expect(p, close, what) < 0)
		return -1;
	*v = ca_arena_array(p->arena, k, sizeof **v);
	if (k)
		memcpy(*v, iv, k * sizeof **v);
	*n = (uint32_t)k;
	return 0;
}

static ca_expr *
call(parser *p, const char *name, size_t nlen, uint32_t pos)
{
	ca_expr **argv;
	uint32_t n;
	int h;

	if (items(p, CA_T_RPAREN, !(p->flags & CA_P_STRICT), "',' or ')' in the arguments",
	    &argv, &n, &h) < 0)
		return NULL;
	ca_expr *e = node(p, CA_N_CALL, pos, h + 1);
	if (e == NULL)
		return NULL;
	e->u.call.fn = ca_builtin_find(name, nlen);
	e->u.call.spell = ca_arena_strndup(p->arena, name, nlen);
	e->u.call.n = n;
	e->u.call.args = argv;

	/* absTime("...") and relTime("...") of a string literal become time
	 * literals now, so a bad time is a syntax error. */
	if (n == 1 && argv[0]->node == CA_N_LIT && argv[0]->u.lit.kind == CA_STRING &&
	    (is_word(name, nlen, "absTime") || is_word(name, nlen, "relTime"))) {
		ca_value lit = argv[0]->u.lit;
		if (is_word(name, nlen, "absTime")) {
			int64_t secs;
			int32_t off;
			if (ca_parse_abstime(lit.u.s, lit.x.len, &secs, &off, 0) < 0) {
				p->failed = 1;
				ca_diag_pos(p->err, p->lx.src, p->lx.len, argv[0]->pos, 0,
				    "absTime: \"%.40s\" is not a time (YYYY-MM-DDTHH:MM:SS[+hh:mm])", lit.u.s);
				return NULL;
			}
			e->node = CA_N_LIT;
			e->u.lit = ca_abstime(secs, off);
		} else {
			double secs;
			if (ca_parse_reltime(lit.u.s, lit.x.len, &secs) < 0) {
				p->failed = 1;
				ca_diag_pos(p->err, p->lx.src, p->lx.len, argv[0]->pos, 0,
				    "relTime: \"%.40s\" is not a relative time ([-][D+]HH:MM:SS)", lit.u.s);
				return NULL;
			}
			e->node = CA_N_LIT;
			e->u.lit = ca_reltime(secs);
		}
	}
	return e;
}

static ca_expr *
list(parser *p, uint32_t pos)
{
	ca_expr **v;
	uint32_t n;
	int h;

	if (items(p, CA_T_RBRACE, false, "',' or '}' in the list", &v, &n, &h) < 0)
		return NULL;
	ca_expr *e = node(p, CA_N_LIST, pos, h + 1);
	if (e == NULL)
		return NULL;
	e->u.list.n = n;
	e->u.list.items = v;
	return e;
}

static ca_expr *
literal(parser *p, ca_value v)
{
	ca_expr *e = node(p, CA_N_LIT, p->tok.pos, 1);

	if (e)
		e->u.lit = v;
	next(p);
	return e;
}

static ca_expr *
primary(parser *p)
{
	uint32_t pos = p->tok.pos;
	ca_token t = p->tok;

	switch (t.type) {
	case CA_T_INT:
		return literal(p, ca_int(t.v.i));
	case CA_T_REAL:
		return literal(p, ca_real(t.v.r));
	case CA_T_STRING:
		return literal(p, ca_str(t.v.str.s, t.v.str.len));
	case CA_T_TRUE:
		return literal(p, ca_bool(true));
	case CA_T_FALSE:
		return literal(p, ca_bool(false));
	case CA_T_UNDEFINED:
		return literal(p, ca_undef());
	case CA_T_ERRORKW:
		return literal(p, ca_error(NULL));
	case CA_T_IDENT: {
		size_t n;
		const char *s = ident_text(p, &t, &n);
		next(p);
		if (p->tok.type == CA_T_LPAREN && p->lx.src[t.pos] != '\'')
			return call(p, s, n, pos);
		ca_expr *e = node(p, CA_N_ATTR, pos, 1);
		if (e == NULL)
			return NULL;
		e->op = CA_SC_NONE;
		e->u.attr.name = ca_intern(s, n);
		e->u.attr.spell = ca_name_spelling(p->arena, e->u.attr.name, s, n);
		if (p->lx.src[t.pos] == '\'')
			e->flags |= 0;	/* quoting is decided when printing */
		return e;
	}
	case CA_T_DOT: {
		next(p);
		if (p->tok.type != CA_T_IDENT)
			return syntax(p, "expected an attribute name after '.'");
		size_t n;
		const char *s = ident_text(p, &p->tok, &n);
		ca_expr *e = node(p, CA_N_ATTR, pos, 1);
		if (e == NULL)
			return NULL;
		e->op = CA_SC_ROOT;
		e->u.attr.name = ca_intern(s, n);
		e->u.attr.spell = ca_name_spelling(p->arena, e->u.attr.name, s, n);
		next(p);
		return e;
	}
	case CA_T_LPAREN: {
		next(p);
		ca_expr *a = expr(p);
		if (a == NULL)
			return NULL;
		if (expect(p, CA_T_RPAREN, "')'") < 0)
			return NULL;
		ca_expr *e = node(p, CA_N_PAREN, pos, height(a) + 1);
		if (e)
			e->u.k.a = a;
		return e;
	}
	case CA_T_LBRACE:
		return list(p, pos);
	case CA_T_LBRACK: {
		ca_ad *ad = ad_body(p, ca_ad_new_in(p->arena), 0);
		if (ad == NULL)
			return NULL;
		int h = 0;
		for (uint32_t i = 0; i < ad->n; i++)
			if (height(ca_attr_expr(ad, &ad->attrs[i])) > h)
				h = height(ca_attr_expr(ad, &ad->attrs[i]));
		ca_expr *e = node(p, CA_N_AD, pos, h + 1);
		if (e)
			e->u.ad = ad;
		return e;
	}
	case CA_T_ERROR:
		return NULL;
	default:
		return syntax(p, "expected an expression");
	}
}

/* Selections, subscripts and the Elvis operator, all left to right. */
static ca_expr *
postfix(parser *p, int elvis_ok)
{
	if (enter(p) < 0)
		return NULL;
	ca_expr *e = primary(p);

	while (e) {
		uint32_t pos = p->tok.pos;
		if (p->tok.type == CA_T_DOT) {
			next(p);
			if (p->tok.type != CA_T_IDENT)
				return syntax(p, "expected an attribute name after '.'");
			size_t n;
			const char *s = ident_text(p, &p->tok, &n);
			const ca_name *nm = ca_intern(s, n);
			int sc = CA_SC_NONE;
			if (e->node == CA_N_ATTR && e->op == CA_SC_NONE) {
				const char *b = e->u.attr.spell;
				if (strcasecmp(b, "my") == 0)
					sc = CA_SC_MY;
				else if (strcasecmp(b, "target") == 0)
					sc = CA_SC_TARGET;
				else if (strcasecmp(b, "other") == 0)
					sc = CA_SC_OTHER;
			}
			if (sc != CA_SC_NONE) {
				/* MY.x, TARGET.x, OTHER.x: a scoped reference */
				e->u.attr.scope = e->u.attr.spell;
				e->op = (uint8_t)sc;
				e->u.attr.name = nm;
				e->u.attr.spell = ca_name_spelling(p->arena, nm, s, n);
			} else {
				ca_expr *sel = node(p, CA_N_SELECT, pos, height(e) + 1);
				if (sel == NULL)
					return NULL;
				sel->u.sel.base = e;
				sel->u.sel.name = nm;
				sel->u.sel.spell = ca_name_spelling(p->arena, nm, s, n);
				e = sel;
			}
			next(p);
		} else if (p->tok.type == CA_T_LBRACK) {
			next(p);
			ca_expr *i = expr(p);
			if (i == NULL || expect(p, CA_T_RBRACK, "']'") < 0)
				return NULL;
			ca_expr *ix = node(p, CA_N_INDEX, pos,
			    (height(e) > height(i) ? height(e) : height(i)) + 1);
			if (ix == NULL)
				return NULL;
			ix->u.k.a = e;
			ix->u.k.b = i;
			e = ix;
		} else if (p->tok.type == CA_T_ELVIS && elvis_ok) {
			next(p);
			ca_expr *b = postfix(p, 0);
			if (b == NULL)
				return NULL;
			ca_expr *el = node(p, CA_N_ELVIS, pos,
			    (height(e) > height(b) ? height(e) : height(b)) + 1);
			if (el == NULL)
				return NULL;
			el->u.k.a = e;
			el->u.k.b = b;
			e = el;
		} else
			break;
	}
	p->depth--;
	return e;
}

static ca_expr *
unary(parser *p)
{
	ca_tok t = p->tok.type;

	if (t == CA_T_MINUS || t == CA_T_PLUS || t == CA_T_NOT || t == CA_T_TILDE) {
		uint32_t pos = p->tok.pos;
		if (enter(p) < 0)
			return NULL;
		next(p);
		ca_expr *a = unary(p);
		p->depth--;
		if (a == NULL)
			return NULL;
		ca_expr *e = node(p, CA_N_UNARY, pos, height(a) + 1);
		if (e) {
			e->op = (uint8_t)t;
			e->u.k.a = a;
		}
		return e;
	}
	return postfix(p, 1);
}

/* Precedence climbing over binary operators with priority > min. */
static ca_expr *
binary(parser *p, int min)
{
	ca_expr *lhs = unary(p);

	while (lhs) {
		ca_tok op = p->tok.type;
		int prio = binary_prio(op);
		if (prio <= min)
			break;
		uint32_t pos = p->tok.pos;
		next(p);
		if (enter(p) < 0)
			return NULL;
		ca_expr *rhs = binary(p, prio);
		p->depth--;
		if (rhs == NULL)
			return NULL;
		ca_expr *e = node(p, CA_N_BINARY, pos,
		    (height(lhs) > height(rhs) ? height(lhs) : height(rhs)) + 1);
		if (e == NULL)
			return NULL;
		e->op = (uint8_t)op;
		e->u.k.a = lhs;
		e->u.k.b = rhs;
		lhs = e;
	}
	return lhs;
}

/* The conditional: cond ? a : b, right-associative, below ||. */
static ca_expr *
expr(parser *p)
{
	if (enter(p) < 0)
		return NULL;
	ca_expr *c = binary(p, 0);
	if (c && p->tok.type == CA_T_QUEST) {
		uint32_t pos = p->tok.pos;
		next(p);
		ca_expr *a = expr(p);
		if (a == NULL || expect(p, CA_T_COLON, "':' of the conditional") < 0) {
			p->depth--;
			return NULL;
		}
		ca_expr *b = expr(p);
		if (b == NULL) {
			p->depth--;
			return NULL;
		}
		int h = height(c);
		if (height(a) > h)
			h = height(a);
		if (height(b) > h)
			h = height(b);
		ca_expr *e = node(p, CA_N_COND, pos, h + 1);
		if (e) {
			e->u.k.a = c;
			e->u.k.b = a;
			e->u.k.c = b;
		}
		c = e;
	}
	p->depth--;
	return c;
}

/* "name = expr" with the current token at the name, set in ad; what: the
 * '=' expected. */
static inline int
assignment(parser *p, ca_ad *ad, const char *what)
{
	size_t n;
	const char *s = ident_text(p, &p->tok, &n);
	const ca_name *nm = ca_intern(s, n);
	const char *spell = ca_name_spelling(p->arena, nm, s, n);

	next(p);
	if (expect(p, CA_T_ASSIGN, what) < 0)
		return -1;
	ca_expr *e = expr(p);
	if (e == NULL)
		return -1;
	ca_ad_set(ad, nm, spell, e);
	return 0;
}

/* "[ name = expr; ... ]" with the current token at '['. At top level the
 * token after ']' is not read: p->end is where the ad ends. */
static ca_ad *
ad_body(parser *p, ca_ad *ad, int top)
{
	if (enter(p) < 0)
		return NULL;
	next(p);	/* [ */
	for (;;) {
		while (p->tok.type == CA_T_SEMI)
			next(p);
		if (p->tok.type == CA_T_RBRACK)
			break;
		if (p->tok.type != CA_T_IDENT) {
			syntax(p, "expected an attribute name or ']' in the ad");
			return NULL;
		}
		if (assignment(p, ad, "'=' after the attribute name") < 0)
			return NULL;
		if (p->tok.type == CA_T_SEMI)
			continue;
		if (p->tok.type != CA_T_RBRACK) {
			syntax(p, "expected ';' or ']' after the attribute");
			return NULL;
		}
	}
	p->end = p->tok.pos + 1;
	if (!top)
		next(p);	/* ] */
	p->depth--;
	return ad;
}

static void
start(parser *p, ca_arena *a, const char *src, size_t len, int flags, ca_diag *err)
{
	memset(p, 0, sizeof *p);
	p->arena = a;
	p->flags = flags;
	p->err = err;
	if (err)
		memset(err, 0, sizeof *err);
	ca_lex_init(&p->lx, a, src, len, (flags & CA_P_OLDSTR) ? CA_LEX_OLDSTR : 0);
	next(p);
}

ca_expr *
ca_parse_expr(ca_arena *a, const char *src, size_t len, int flags, ca_diag *err)
{
	parser p;

	if (len > UINT32_MAX) {
		ca_diag_pos(err, src, 0, 0, 0, "expression longer than 4 GiB");
		return NULL;
	}
	start(&p, a, src, len, flags, err);
	ca_expr *e = expr(&p);
	if (e && p.tok.type != CA_T_EOF)
		e = syntax(&p, "expected an operator or the end of the expression");
	return p.failed ? NULL : e;
}

ca_ad *
ca_parse_ad(const char *src, size_t len, size_t *used, int flags, ca_diag *err)
{
	parser p;
	ca_ad *ad = ca_ad_new();

	if (len > UINT32_MAX) {
		ca_diag_pos(err, src, 0, 0, 0, "ad longer than 4 GiB");
		ca_ad_free(ad);
		return NULL;
	}
	start(&p, ad->arena, src, len, flags, err);
	if (p.tok.type != CA_T_LBRACK)
		syntax(&p, "expected '[' to start an ad");
	else
		ad_body(&p, ad, 1);
	if (p.failed) {
		ca_ad_free(ad);
		return NULL;
	}
	if (used)
		*used = p.end;
	return ad;
}

/* "[ ... ]" or "name = expr [; name = expr]...", into ad. */
static int
assignments(parser *p, ca_ad *ad)
{
	if (p->tok.type == CA_T_LBRACK) {
		if (ad_body(p, ad, 0) == NULL || p->failed)
			return -1;
		if (p->tok.type != CA_T_EOF) {
			syntax(p, "expected the end of the ad");
			return -1;
		}
		return 0;
	}
	/* parsed into a scratch ad first, so that a failure half-way leaves
	 * ad untouched */
	ca_ad *tmp = ca_ad_new_in(ad->arena);
	for (;;) {
		while (p->tok.type == CA_T_SEMI)
			next(p);
		if (p->tok.type == CA_T_EOF)
			break;
		if (p->tok.type != CA_T_IDENT) {
			syntax(p, "expected an attribute name");
			return -1;
		}
		if (assignment(p, tmp, "'='") < 0)
			return -1;
		if (p->tok.type != CA_T_SEMI && p->tok.type != CA_T_EOF) {
			syntax(p, "expected ';' or the end of the assignment");
			return -1;
		}
	}
	if (tmp->n == 0) {
		syntax(p, "expected an assignment");
		return -1;
	}
	for (uint32_t i = 0; i < tmp->n; i++)
		ca_ad_set(ad, ca_attr_name(&tmp->attrs[i]), ca_attr_spell(&tmp->attrs[i]), ca_attr_expr(tmp, &tmp->attrs[i]));
	return 0;
}

int
ca_parse_assignments(ca_ad *ad, const char *src, size_t len, int flags, ca_diag *err)
{
	parser p;

	start(&p, ad->arena, src, len, flags, err);
	return assignments(&p, ad);
}

/*
 * The value of text the long reader kept as one literal (its rules: an
 * integer of at most 18 digits, a real, an old-syntax string, true, false,
 * undefined), made as the lexer makes it, without the parser's machinery:
 * a program reads a few attributes of many ads.
 */
static ca_value
kept_value(ca_arena *a, const char *s, size_t n)
{
	if (s[0] == '"') {
		char *buf = ca_arena_alloc(a, n);
		size_t k = 0;
		if (n >= 2 && s[n - 1] == '"' && memchr(s + 1, '\\', n - 2) == NULL) {
			/* no backslash: the text between the quotes as it is (one
			 * literal has no other quote) */
			k = n - 2;
			memcpy(buf, s + 1, k);
		} else {
			for (size_t i = 1; i < n && s[i] != '"'; i++) {
				if (s[i] != '\\' || i + 1 >= n || s[i + 1] != '"')
					buf[k++] = s[i];
				else if (i + 2 == n) {	/* "C:\" ends the line */
					buf[k++] = '\\';
					break;
				} else
					buf[k++] = s[++i];
			}
		}
		buf[k] = '\0';
		/* its bytes are in the arena already: sharing them saves no
		 * room, and once the table is full a look-up mostly misses, in
		 * a table too large for the cache */
		const char *sh = ca_str_shared_full() ? NULL : ca_str_shared(buf, k);
		return ca_str(sh ? sh : buf, (uint32_t)k);
	}
	if (s[0] != '-' && s[0] != '.' && !ca_is_digit((unsigned char)s[0]))
		return ca_lower((unsigned char)s[0]) == 't' ? ca_bool(true) :
		    ca_lower((unsigned char)s[0]) == 'f' ? ca_bool(false) : ca_undef();
	size_t neg = s[0] == '-', i = neg;
	int64_t v = 0;
	/* Eighteen digits cannot overflow; a longer run is a real's. */
	while (i < n && i - neg < 18 && ca_is_digit((unsigned char)s[i]))
		v = v * 10 + (s[i++] - '0');
	if (i == n)
		return ca_int(neg ? -v : v);
	double r = ca_real_of_text(s + neg, n - neg);
	return ca_real(neg ? -r : r);
}

/* The node of literal v, which is in arena a already. */
static ca_expr *
lit_node(ca_arena *a, ca_value v)
{
	ca_expr *e = ca_arena_zalloc(a, sizeof *e);

	e->node = CA_N_LIT;
	e->flags = 1;		/* tree height, as the parser keeps it */
	e->u.lit = v;
	return e;
}

ca_expr *
ca_expr_kept(ca_arena *a, const char *s, size_t n)
{
	return lit_node(a, kept_value(a, s, n));
}

/* Is text (an attribute's kept text) on its line of the ad's lines? */
static bool
on_its_line(const ca_ad *ad, const char *text)
{
	size_t len;
	const char *lines = ca_ad_lines(ad, &len);

	return lines != NULL && (uintptr_t)text - (uintptr_t)lines < len;
}

bool
ca_attr_read_src(const ca_ad *ad, ca_attr *at)
{
	const char *text = at->u_.s;
	ca_value v = kept_value(ad->arena, text, at->x_);

	if (!ca_attr_fits(v)) {
		ca_attr_set_expr(at, lit_node(ad->arena, v));
		return false;
	}
	ca_attr_put_value(at, v);
	at->as_read = on_its_line(ad, text);
	return true;
}

/* An attribute whose expression was not made (CA_LIT_LAZY), read at last:
 * its source text parsed, or its literal's node. Made from its line of
 * the ad's lines, it is still as read: a writer may copy the line. */
ca_expr *
ca_attr_make_expr(const ca_ad *ad, ca_attr *at)
{
	bool src = at->kind_ == CA_KIND_SRC;
	bool as_read = src ? on_its_line(ad, at->u_.s) : at->as_read;
	ca_expr *e = src ? ca_expr_kept(ad->arena, at->u_.s, at->x_) :
	    lit_node(ad->arena, ca_attr_value(at));

	ca_attr_set_expr(at, e);
	at->as_read = as_read;
	return e;
}
