/* lexer.h - the hand-written ClassAd lexer: text in, tokens out.
 * Works on (pointer, length); a NUL byte in the input is an error. */
#ifndef CA_LEXER_H
#define CA_LEXER_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "node.h"


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
