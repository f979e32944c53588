/* expr.c - building and copying expression trees (the parser builds them;
 * programs copy them between ads). */
#include <string.h>

#include "expr.h"

ca_expr *
ca_expr_lit(ca_arena *a, ca_value v)
{
	ca_expr *e = ca_arena_zalloc(a, sizeof *e);

	e->node = CA_N_LIT;
	e->flags = 1;		/* tree height, as the parser keeps it */
	e->u.lit = ca_value_copy_into(a, v);
	return e;
}

static const char *
dup_str(ca_arena *a, const char *s)
{
	return s ? ca_arena_strndup(a, s, strlen(s)) : NULL;
}

ca_expr *
ca_expr_copy(ca_arena *a, const ca_expr *src)
{
	if (src == NULL)
		return NULL;
	ca_expr *e = ca_arena_alloc(a, sizeof *e);
	*e = *src;
	switch (src->node) {
	case CA_N_LIT:
		e->u.lit = ca_value_copy_into(a, src->u.lit);
		break;
	case CA_N_ATTR:
		/* names are interned; spellings may live in the source arena */
		e->u.attr.spell = dup_str(a, src->u.attr.spell);
		e->u.attr.scope = dup_str(a, src->u.attr.scope);
		break;
	case CA_N_SELECT:
		e->u.sel.base = ca_expr_copy(a, src->u.sel.base);
		e->u.sel.spell = dup_str(a, src->u.sel.spell);
		break;
	case CA_N_INDEX:
	case CA_N_UNARY:
	case CA_N_BINARY:
	case CA_N_COND:
	case CA_N_ELVIS:
	case CA_N_PAREN:
		e->u.k.a = ca_expr_copy(a, src->u.k.a);
		e->u.k.b = ca_expr_copy(a, src->u.k.b);
		e->u.k.c = ca_expr_copy(a, src->u.k.c);
		break;
	case CA_N_CALL:
		e->u.call.spell = dup_str(a, src->u.call.spell);
		e->u.call.args = ca_arena_array(a, src->u.call.n, sizeof(ca_expr *));
		for (uint32_t i = 0; i < src->u.call.n; i++)
			e->u.call.args[i] = ca_expr_copy(a, src->u.call.args[i]);
		break;
	case CA_N_LIST:
		e->u.list.items = ca_arena_array(a, src->u.list.n, sizeof(ca_expr *));
		for (uint32_t i = 0; i < src->u.list.n; i++)
			e->u.list.items[i] = ca_expr_copy(a, src->u.list.items[i]);
		break;
	case CA_N_AD:
		e->u.ad = ca_ad_copy_in(a, src->u.ad);
		break;
	}
	return e;
}
