/* builtins.h - the table of ClassAd builtin functions (HTCondor's core and
 * compat libraries), looked up case-insensitively at parse time. */
#ifndef CA_BUILTINS_H
#define CA_BUILTINS_H

#include <stddef.h>

#include "node.h"
#include "value.h"

struct ca_ctx;
struct ca_frame;

/* A strict builtin gets its arguments evaluated; a lazy one gets the
 * expressions (ifThenElse, unparse, eval, ...). Exactly one is set. The
 * evaluator checks the arity against min/max (max -1: any) and gives ERROR
 * without evaluating anything when it does not fit. Functions that differ
 * only in a detail (getYear and getMonth, stringListMember and its
 * case-insensitive twin) are one C function, told apart by op. */
typedef ca_value (*ca_fn)(struct ca_ctx *cx, const struct ca_frame *f, int op,
    const ca_value *argv, int argc);
typedef ca_value (*ca_lazy_fn)(struct ca_ctx *cx, const struct ca_frame *f, int op,
    ca_expr *const *args, int argc);

typedef struct ca_builtin {
	const char *name;	/* canonical spelling, e.g. "stringListMember" */
	int min, max;
	ca_fn fn;
	ca_lazy_fn lazy;
	int op;			/* passed to fn or lazy */
} ca_builtin;

const ca_builtin *ca_builtin_find(const char *name, size_t len);
/* All builtins in name order (for completion and documentation). */
const ca_builtin *ca_builtin_table(size_t *n);

#endif
