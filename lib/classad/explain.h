/* explain.h - why an expression has its value: the expression as a tree,
 * every sub-expression with its value, and where UNDEFINED and ERROR arose. */
#ifndef CA_EXPLAIN_H
#define CA_EXPLAIN_H

#include "eval.h"
#include "strbuf.h"

/* Attribute references are expanded into the expression they name, this
 * many levels deep (a reference already being expanded is not expanded
 * again). */
#define CA_EXPLAIN_MAX_EXPAND 12

/* Evaluate e with my/target as ca_eval_expr does and write the report to sb:
 * one line per sub-expression, indented by nesting, "EXPR  =>  VALUE", with
 * the attribute each reference resolved to, "<-- undefined here: REASON" /
 * "<-- error here: REASON" on the nodes where those values arose, and a last
 * "why:" summary naming the origins. Returns the value of e. */
ca_value ca_explain(ca_ctx *cx, const ca_expr *e, const ca_ad *my, const ca_ad *target,
    strbuf *sb);

#endif
