/* eval.h - the evaluator: HTCondor's semantics for expressions in the context
 * of a MY ad and an optional TARGET ad, with bounded depth and work. */
#ifndef CA_EVAL_H
#define CA_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ad.h"
#include "node.h"
#include "value.h"

/* Evaluation nesting (attribute references, calls, operators) deeper than
 * this gives ERROR "expression nested too deeply". */
#define CA_EVAL_MAX_DEPTH 1000
/*
 * Budgets. One top-level evaluation may visit at most max_steps nodes and
 * build at most max_bytes of strings and lists (a context's fields, set by
 * ca_ctx_init to these defaults; max_steps at most CA_EVAL_MAX_STEPS);
 * past either it is ERROR as a whole. An attribute whose evaluation used
 * up a budget (more than half of it spent in the attribute, which belongs
 * to the ad that spent it) is marked in its ad: any later evaluation that
 * reaches it is ERROR at once. So no expression of any ad costs more than
 * about one budget per attribute over a whole program, whatever other ads
 * it meets.
 */
#define CA_EVAL_MAX_STEPS 20000000u
#define CA_EVAL_MAX_BYTES ((size_t)64 << 20)

/* Where an expression is being evaluated: the ad whose attribute it is, the
 * enclosing scope (for ads nested in ads), and the two sides of the match. */
typedef struct ca_frame {
	const ca_ad *ad;
	const struct ca_frame *up;
	const ca_ad *my;
	const ca_ad *target;	/* NULL when there is no target */
} ca_frame;

/* Names that mean something when no ad defines them, as in HTCondor: self,
 * parent, toplevel and root name ads of the scope, my and target (other)
 * the two ads of the match, CurrentTime the clock (the daemons' rule). */
enum ca_special {
	CA_SP_SELF, CA_SP_PARENT, CA_SP_TOPLEVEL, CA_SP_ROOT, CA_SP_MY, CA_SP_TARGET,
	CA_SP_OTHER, CA_SP_CURRENTTIME, CA_SP_N
};

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
	uint32_t steps;		/* nodes visited in this top-level evaluation,
				 * counted up to CA_EVAL_MAX_STEPS from
				 * CA_EVAL_MAX_STEPS - max_steps */
	uint32_t max_steps;	/* budget of steps per top-level evaluation */
	size_t max_bytes;	/* budget of bytes built per top-level evaluation */
	size_t bytes_cap;	/* scratch.total the evaluation may reach */
	const struct ca_ad *culprit;	/* the ad whose attribute used up a budget */
	const char *failed;	/* why a builtin failed the evaluation (ca_eval_fail),
				 * or NULL */
	int depth;
	ca_trace_fn trace;
	void *trace_arg;
	ca_ad *empty;		/* MY when the caller gives none */
	ca_frame around;	/* the record around the two ads of a match, which
				 * holds none of their attributes: what toplevel
				 * and .x find in a match (an empty record) */
	const ca_name *special[CA_SP_N];	/* the special names, interned */
	uint64_t special_hashes;	/* bit (hash & 63) of each of them */
} ca_ctx;

/* Set up a context: now = the real clock unless changed, daemon rules. */
void ca_ctx_init(ca_ctx *cx);
void ca_ctx_free(ca_ctx *cx);

/* Evaluate e with my as MY (and the scope) and target as TARGET (may be NULL).
 * The result lives in cx->scratch (or in the ads): see value.h. */
ca_value ca_eval_expr(ca_ctx *cx, const ca_expr *e, const ca_ad *my, const ca_ad *target);
/* Evaluate attribute `name` of my (UNDEFINED if absent); _nm by a name
 * interned already, which a loop over many ads looks up once. */
ca_value ca_eval_attr(ca_ctx *cx, const ca_ad *my, const ca_ad *target, const char *name);
ca_value ca_eval_attr_nm(ca_ctx *cx, const ca_ad *my, const ca_ad *target, const ca_name *name);

/* The flat form of an expression, for loops that evaluate one expression
 * against many ads (matchmaking): compiled once into arena a, it runs
 * operators, literals and attribute references without recursion and
 * gives the same values as ca_eval_expr(cx, e, my, target). e must
 * outlive it. */
typedef struct ca_prog ca_prog;
ca_prog *ca_prog_new(ca_arena *a, const ca_expr *e);
ca_value ca_prog_eval(ca_ctx *cx, const ca_prog *p, const ca_ad *my, const ca_ad *target);

/* A top-level evaluation a caller runs itself with ca_eval (as --explain
 * does): begin resets the count of steps and any failure; end gives v, or
 * ERROR when the evaluation as a whole failed or took too many steps. */
void ca_eval_begin(ca_ctx *cx);
ca_value ca_eval_end(ca_ctx *cx, ca_value v);
/* For builtins: fail the whole evaluation, as HTCondor does where its
 * evaluation fails rather than giving ERROR: the top-level value is ERROR,
 * whatever isError() or =?= make of the ERROR returned here. */
ca_value ca_eval_fail(ca_ctx *cx, const char *why);
/* For builtins that build text or lists: whether the evaluation may build
 * n bytes more; when not, it fails (ERROR, over its budget of bytes). */
bool ca_eval_room(ca_ctx *cx, size_t n);
/* Evaluate e in frame f where a failure stays with it: e is then ERROR
 * (with the failure's reason) and the evaluation around goes on. For an
 * element of a list (HTCondor evaluates one only when it is used) and the
 * parts --explain shows. */
ca_value ca_eval_apart(ca_ctx *cx, const ca_expr *e, const ca_frame *f);

/* Within an evaluation (builtins use these): evaluate e in frame f. */
ca_value ca_eval(ca_ctx *cx, const ca_expr *e, const ca_frame *f);
/* Look up and evaluate an attribute by name the way an unscoped reference
 * in frame f would (ca_resolve, then its value). */
ca_value ca_eval_name(ca_ctx *cx, const ca_name *name, const ca_frame *f);
/* The comparison and arithmetic operators on values (op is a ca_tok), for
 * builtins such as member() and anyCompare(). */
ca_value ca_eval_binop(ca_ctx *cx, int op, ca_value a, ca_value b);
/* An ad value for ad found in scope f (copies the frame chain to scratch);
 * f NULL: a record on its own. */
ca_value ca_make_adval(ca_ctx *cx, const ca_ad *ad, const ca_frame *f);
/* The record frame f evaluates, as a value (what self names there). */
ca_value ca_frame_adval(ca_ctx *cx, const ca_frame *f);
/* The frame in which the attributes of ad value av are evaluated. */
void ca_adval_frame(const ca_adval *av, ca_frame *out);

/* ---- where a name resolves ----
 * The one scope resolver: the tree evaluator, the flat form, --explain and
 * the builtins that look at references (unresolved(), evalInEachContext())
 * all find names with it. */

enum ca_where_kind {
	CA_WHERE_NONE,		/* nothing defines the name */
	CA_WHERE_ATTR,		/* an attribute of some ad */
	CA_WHERE_SPECIAL	/* a special name (enum ca_special) */
};

/* The ads a name can be found in, or looked for in. */
enum ca_side {
	CA_SIDE_MY,		/* MY (unscoped names: MY and the ads around the
				 * one being evaluated) */
	CA_SIDE_TARGET,		/* TARGET, the other ad of the match */
	CA_SIDE_NESTED,		/* the ad being evaluated, nested in another */
	CA_SIDE_ENCLOSING,	/* an ad enclosing the one being evaluated */
	CA_SIDE_ROOT,		/* the outermost ad (.x) */
	CA_SIDE_MY_TARGET	/* NONE only: MY and the ads around, then TARGET
				 * (the daemons' fallback) */
};

typedef struct ca_where {
	int kind;		/* a ca_where_kind */
	int side;		/* ATTR: where it is; NONE: where it was looked for */
	int special;		/* SPECIAL: a ca_special */
	ca_attr *at;		/* ATTR: the attribute */
	const ca_frame *frame;	/* ATTR: the frame its expression is evaluated in */
	ca_frame side_frame;	/* where frame points for the root of MY or TARGET */
} ca_where;

/* Flags of ca_resolve. */
#define CA_RESOLVE_AD_ONLY 0x1	/* without the daemons' fallback to TARGET:
				 * what the ads of the scope define */

/* Where a reference to name with scope (a ca_scope: x, .x, MY.x, TARGET.x)
 * resolves in frame f, without evaluating anything, as HTCondor looks it
 * up. From the ad being evaluated: that ad; then the special names that
 * mean themselves there (self, parent, toplevel, root; under the daemons'
 * rules my and CurrentTime); then the ads around it; then, in a match,
 * target and other (and my under the new rules). An unscoped name that
 * MY or TARGET itself (not a record in it) does not define is then, by
 * the daemons' rule (not cx->strict), looked up in the other ad as the
 * top of its side. MY.x searches from the ad being evaluated (the daemons'
 * rules) or from MY as the top of its side (the new rules, in a match
 * only); TARGET.x from TARGET as the top of its side; .x from the
 * outermost record, which in a match (f->target set) is cx->around, the
 * record around the two ads that holds none of their attributes. Fills *w
 * and returns w->kind. For an analysis of an expression of ad self
 * without its match, a frame { self, NULL, self, cx->empty } tells where
 * each reference lands: ATTR on MY is self's, NONE with CA_SIDE_MY_TARGET
 * or CA_SIDE_TARGET the other side's, SPECIAL an ad or the clock. */
int ca_resolve(ca_ctx *cx, int scope, const ca_name *name, const ca_frame *f, int flags,
    ca_where *w);
/* The value of special name sp (a ca_special) in frame f (w->frame of a
 * CA_WHERE_SPECIAL). */
ca_value ca_special_value(ca_ctx *cx, int sp, const ca_frame *f);

#endif
