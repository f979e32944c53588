/* lexer.h - the hand-written ClassAd lexer: text in, tokens out.
 * Works on (pointer, length); a NUL byte in the input is an error. */
#ifndef CA_LEXER_H
#define CA_LEXER_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

/* ORDER TOKENS: ca_tok_text[] in lexer.c follows this order. */
typedef enum ca_tok {
	CA_T_EOF,
	CA_T_ERROR,	/* lexical error: message in the lexer */
	CA_T_INT, CA_T_REAL, CA_T_STRING, CA_T_IDENT,
	CA_T_TRUE, CA_T_FALSE, CA_T_UNDEFINED, CA_T_ERRORKW,
	CA_T_IS, CA_T_ISNT,
	/* operators and punctuation */
	CA_T_DOT, CA_T_STAR, CA_T_SLASH, CA_T_PERCENT, CA_T_PLUS, CA_T_MINUS,
	CA_T_TILDE, CA_T_CARET, CA_T_QUEST, CA_T_ELVIS, CA_T_COLON, CA_T_SEMI,
	CA_T_COMMA, CA_T_LBRACK, CA_T_RBRACK, CA_T_LPAREN, CA_T_RPAREN,
	CA_T_LBRACE, CA_T_RBRACE, CA_T_AMP, CA_T_AND, CA_T_BAR, CA_T_OR,
	CA_T_LT, CA_T_LE, CA_T_SHL, CA_T_GT, CA_T_GE, CA_T_SHR, CA_T_USHR,
	CA_T_ASSIGN, CA_T_EQ, CA_T_META_EQ, CA_T_META_NE, CA_T_NOT, CA_T_NE,
	CA_T_NTOKENS
} ca_tok;

extern const char *const ca_tok_text[];

/* Lexer flags. */
#define CA_LEX_OLDSTR	0x1	/* old (-long) string rules: only \" is an escape */

typedef struct ca_token {
	ca_tok type;
	uint32_t pos;		/* byte offset of the first character */
	uint32_t len;		/* bytes of source text */
	union {
		int64_t i;
		double r;
		struct { const char *s; uint32_t len; } str;	/* STRING, IDENT: decoded, in the arena */
	} v;
} ca_token;

typedef struct ca_lexer {
	const char *src;
	size_t len, pos;
	int flags;
	ca_arena *arena;	/* decoded strings and names go here */
	ca_tok prev;		/* for folding '-' into numeric literals */
	const char *err;	/* message of the last CA_T_ERROR */
	uint32_t errpos;
	int err_eof;		/* the error is "input ended too soon" */
} ca_lexer;

void ca_lex_init(ca_lexer *lx, ca_arena *a, const char *src, size_t len, int flags);
/* The next token; on CA_T_ERROR, lx->err/errpos say why and where. */
void ca_lex_next(ca_lexer *lx, ca_token *t);
/* 1-based line and column of byte offset pos in src. */
void ca_lex_linecol(const char *src, size_t len, size_t pos, int *line, int *col);

#endif
