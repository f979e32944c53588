/* eval.h - the evaluator: HTCondor's semantics for expressions in the context
 * of a MY ad and an optional TARGET ad, with bounded depth and work. */
#ifndef CA_EVAL_H
#define CA_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ad.h"
#include "expr.h"
#include "value.h"

/* Evaluation nesting (attribute references, calls, operators) deeper than
 * this gives ERROR "expression nested too deeply". */
#define CA_EVAL_MAX_DEPTH 1000
/* Nodes one top-level evaluation may visit before giving ERROR. */
#define CA_EVAL_MAX_STEPS 20000000u

/* Where an expression is being evaluated: the ad whose attribute it is, the
 * enclosing scope (for ads nested in ads), and the two sides of the match. */
typedef struct ca_frame {
	const ca_ad *ad;
	const struct ca_frame *up;
	const ca_ad *my;
	const ca_ad *target;	/* NULL when there is no target */
} ca_frame;

struct ca_ctx;
/* Called after every node is evaluated (for --explain); depth is the
 * nesting of the node below the top expression. */
typedef void (*ca_trace_fn)(void *arg, const ca_expr *e, const ca_frame *f,
    ca_value v, int depth);

typedef struct ca_ctx {
	ca_arena scratch;	/* computed values; reset by the caller between uses */
	int64_t now;		/* time(): seconds since the epoch */
	bool strict;		/* new ClassAd lookup rules instead of the daemons' */
	uint64_t rng;		/* random() state */
	uint32_t steps;		/* nodes visited in this top-level evaluation */
	int depth;
	ca_trace_fn trace;
	void *trace_arg;
	ca_ad *empty;		/* MY when the caller gives none */
	const ca_name *special[8];	/* interned special names (eval.c) */
} ca_ctx;

/* Set up a context: now = the real clock unless changed, daemon rules. */
void ca_ctx_init(ca_ctx *cx);
void ca_ctx_free(ca_ctx *cx);

/* Evaluate e with my as MY (and the scope) and target as TARGET (may be NULL).
 * The result lives in cx->scratch (or in the ads): see value.h. */
ca_value ca_eval_expr(ca_ctx *cx, const ca_expr *e, const ca_ad *my, const ca_ad *target);
/* Evaluate attribute `name` of my (UNDEFINED if absent). */
ca_value ca_eval_attr(ca_ctx *cx, const ca_ad *my, const ca_ad *target, const char *name);

/* The flat form of an expression, for loops that evaluate one expression
 * against many ads (matchmaking): compiled once into arena a, it runs
 * operators, literals and attribute references without recursion and
 * gives the same values as ca_eval_expr(cx, e, my, target). e must
 * outlive it. */
typedef struct ca_prog ca_prog;
ca_prog *ca_prog_new(ca_arena *a, const ca_expr *e);
ca_value ca_prog_eval(ca_ctx *cx, const ca_prog *p, const ca_ad *my, const ca_ad *target);

/* Within an evaluation (builtins use these): evaluate e in frame f. */
ca_value ca_eval(ca_ctx *cx, const ca_expr *e, const ca_frame *f);
/* Look up and evaluate an attribute by name the way an unscoped reference
 * in frame f would. */
ca_value ca_eval_name(ca_ctx *cx, const ca_name *name, const ca_frame *f);
/* The comparison and arithmetic operators on values (op is a ca_tok), for
 * builtins such as member() and anyCompare(). */
ca_value ca_eval_binop(ca_ctx *cx, int op, ca_value a, ca_value b);
/* Where attribute reference e (a CA_N_ATTR node) resolves in frame f,
 * without evaluating it. Returns 1 with *at and *out (the frame its
 * expression is evaluated in) set and *side naming the ad ("MY", "TARGET",
 * "an enclosing ad"); 2 for a special name (self, parent, CurrentTime...)
 * whose value needs no attribute; 0 when nothing defines it, with *side
 * saying where it was looked for. */
int ca_resolve_ref(ca_ctx *cx, const ca_expr *e, const ca_frame *f,
    ca_attr **at, ca_frame *out, const char **side);
/* An ad value for ad found in scope f (copies the frame chain to scratch). */
ca_value ca_make_adval(ca_ctx *cx, const ca_ad *ad, const ca_frame *f);
/* The frame in which the attributes of ad value v are evaluated. */
void ca_adval_frame(const ca_adval *av, const ca_frame *from, ca_frame *out);

#endif
