/* node.h - the nodes of expression trees, and the tokens of the language
 * that unary and binary nodes keep as their operators. */
#ifndef CA_NODE_H
#define CA_NODE_H

#include <stdbool.h>
#include <stdint.h>

#include "value.h"

struct ca_ad;
struct ca_builtin;
struct ca_name;

/* The tokens of the language; UNARY and BINARY nodes keep their operator as
 * one of them.
 * ORDER TOKENS: ca_tok_text[] in lexer.c follows this order. */
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

typedef enum ca_node {
	CA_N_LIT,	/* u.lit: a literal value (also absTime("...") folded at parse) */
	CA_N_ATTR,	/* u.attr: name, optionally scoped: MY.x TARGET.x OTHER.x .x */
	CA_N_SELECT,	/* u.sel: base.name */
	CA_N_INDEX,	/* u.k.a[u.k.b] */
	CA_N_UNARY,	/* op u.k.a */
	CA_N_BINARY,	/* u.k.a op u.k.b */
	CA_N_COND,	/* u.k.a ? u.k.b : u.k.c */
	CA_N_ELVIS,	/* u.k.a ?: u.k.b */
	CA_N_PAREN,	/* ( u.k.a ), kept so printing shows what was written */
	CA_N_CALL,	/* u.call */
	CA_N_LIST,	/* { items } */
	CA_N_AD		/* [ ... ] */
} ca_node;

/* Whether the node's operands are u.k.a, u.k.b and u.k.c (those unused
 * NULL): INDEX through PAREN. */
static inline bool
ca_node_has_kids(int node)
{
	return node >= CA_N_INDEX && node <= CA_N_PAREN;
}

/* Scope of an attribute reference (ca_expr.op for CA_N_ATTR). */
enum ca_scope {
	CA_SC_NONE,	/* x: current ad, enclosing ads, then (daemon rules) TARGET */
	CA_SC_ROOT,	/* .x: from the outermost ad */
	CA_SC_MY,	/* MY.x */
	CA_SC_TARGET,	/* TARGET.x */
	CA_SC_OTHER	/* OTHER.x (same as TARGET) */
};

typedef struct ca_expr ca_expr;
struct ca_expr {
	uint8_t node;		/* a ca_node */
	uint8_t op;		/* UNARY/BINARY: a ca_tok operator; ATTR: a ca_scope */
	uint16_t flags;
	uint32_t pos;		/* byte offset of the node in its source text */
	union {
		ca_value lit;
		struct {
			const struct ca_name *name;
			const char *spell;	/* as written */
			const char *scope;	/* "MY" etc. as written, or NULL */
		} attr;
		struct {
			ca_expr *base;
			const struct ca_name *name;
			const char *spell;
		} sel;
		struct {
			ca_expr *a, *b, *c;
		} k;
		struct {
			const struct ca_builtin *fn;	/* NULL: unknown function, ERROR */
			const char *spell;
			ca_expr **args;
			uint32_t n;
		} call;
		struct {
			ca_expr **items;
			uint32_t n;
		} list;
		struct ca_ad *ad;
	} u;
};

#endif
