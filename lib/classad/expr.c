/* expr.c - whole expression trees: deep copies of trees, of the ads nested
 * in them and of values; structural identity and hashing of trees. */
#include <string.h>
#include <strings.h>

#include "ad_int.h"
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
	if (src->flags & CA_EXPR_SHARED)
		return (ca_expr *)(uintptr_t)src;	/* immutable, lives on */
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

static size_t
text_bytes(const char *s)
{
	return s ? (strlen(s) + 8) & ~(size_t)7 : 0;
}

/* About what ca_value_copy_into allocates for v. */
static size_t
value_bytes(ca_value v)
{
	size_t n = 0;

	switch (v.kind) {
	case CA_STRING:
		return ((size_t)v.x.len + 8) & ~(size_t)7;
	case CA_LIST:
		for (uint32_t i = 0; i < v.x.len; i++)
			n += sizeof(ca_value) + value_bytes(v.u.items[i]);
		return n;
	case CA_AD:
		return sizeof(ca_adval) + ca_ad_bytes_copy(v.u.ad->ad);
	default:
		return 0;
	}
}

size_t
ca_ad_bytes_copy(const ca_ad *ad)
{
	size_t n = sizeof(ca_ad) + (size_t)(ad->n < 8 ? 8 : ad->n) * 2 * (sizeof(ca_attr) + 8);

	for (uint32_t i = 0; i < ad->n; i++)
		n += ca_expr_bytes(ca_attr_expr(ad, &ad->attrs[i]));
	return n;
}

size_t
ca_expr_bytes(const ca_expr *e)
{
	size_t n;

	if (e == NULL || (e->flags & CA_EXPR_SHARED))
		return 0;
	n = sizeof *e;
	switch (e->node) {
	case CA_N_LIT:
		return n + value_bytes(e->u.lit);
	case CA_N_ATTR:
		return n + text_bytes(e->u.attr.spell) + text_bytes(e->u.attr.scope);
	case CA_N_SELECT:
		return n + text_bytes(e->u.sel.spell) + ca_expr_bytes(e->u.sel.base);
	case CA_N_CALL:
		n += text_bytes(e->u.call.spell) + e->u.call.n * sizeof(ca_expr *);
		for (uint32_t i = 0; i < e->u.call.n; i++)
			n += ca_expr_bytes(e->u.call.args[i]);
		return n;
	case CA_N_LIST:
		n += e->u.list.n * sizeof(ca_expr *);
		for (uint32_t i = 0; i < e->u.list.n; i++)
			n += ca_expr_bytes(e->u.list.items[i]);
		return n;
	case CA_N_AD:
		return n + ca_ad_bytes_copy(e->u.ad);
	default:
		return n + ca_expr_bytes(e->u.k.a) + ca_expr_bytes(e->u.k.b) +
		    ca_expr_bytes(e->u.k.c);
	}
}

ca_value
ca_value_copy_into(ca_arena *a, ca_value v)
{
	switch (v.kind) {
	case CA_STRING: {
		const char *sh = ca_str_shared(v.u.s, v.x.len);
		return ca_str(sh ? sh : ca_arena_strndup(a, v.u.s, v.x.len), v.x.len);
	}
	case CA_LIST: {
		ca_value *items = ca_arena_array(a, v.x.len, sizeof *items);
		for (uint32_t i = 0; i < v.x.len; i++)
			items[i] = ca_value_copy_into(a, v.u.items[i]);
		return ca_list(items, v.x.len);
	}
	case CA_AD: {
		ca_adval *av = ca_arena_alloc(a, sizeof *av);
		av->ad = ca_ad_copy_in(a, v.u.ad->ad);
		av->scope = NULL;
		av->my = av->target = NULL;
		return ca_adv(av);
	}
	default:
		return v;
	}
}

void
ca_ad_set_copy(ca_ad *ad, const char *s, size_t len, const ca_expr *e)
{
	const ca_name *nm = ca_intern(s, len);

	ca_ad_set(ad, nm, ca_name_spelling(ad->arena, nm, s, len), ca_expr_copy(ad->arena, e));
}

void
ca_ad_copy_attr(ca_ad *dst, const ca_ad *src, const ca_attr *at)
{
	size_t n;
	const char *text = ca_attr_src(at, &n);

	/* text not parsed yet is copied as text */
	if (text != NULL) {
		ca_ad_set_src(dst, ca_attr_name(at), ca_attr_spell(at), text, n);
		return;
	}
	/* a literal the entry can hold (src's as a value or as a node) is
	 * held as its value: reading it then fetches no node, and src's
	 * value gets none made */
	ca_value v;
	if (ca_attr_lit(at, &v) && ca_attr_holds(v)) {
		const ca_name *nm = ca_attr_name(at);
		v = ca_value_copy_into(dst->arena, v);
		ca_ad_put_value(dst, nm, ca_attr_spell(at), ca_ad_find(dst, nm), v);
		return;
	}
	ca_ad_set(dst, ca_attr_name(at), ca_attr_spell(at),
	    ca_expr_copy(dst->arena, ca_attr_expr(src, at)));
}

void
ca_ad_merge(ca_ad *dst, const ca_ad *src)
{
	for (uint32_t i = 0; i < src->n; i++)
		ca_ad_copy_attr(dst, src, &src->attrs[i]);
}

/* src's attributes into the new ad, which then has src's shape (the same
 * names in the same order). */
static ca_ad *
copy_to(ca_ad *ad, const ca_ad *src)
{
	ca_ad_reserve(ad, src->n, 0);
	ca_ad_merge(ad, src);
	ad->shape = src->shape;
	return ad;
}

ca_ad *
ca_ad_copy_in(ca_arena *a, const ca_ad *src)
{
	return copy_to(ca_ad_new_in(a), src);
}

ca_ad *
ca_ad_copy(const ca_ad *src)
{
	return copy_to(ca_ad_new(), src);
}

uint32_t
ca_expr_nkids(const ca_expr *e)
{
	switch (e->node) {
	case CA_N_LIT:
	case CA_N_ATTR:
		return 0;
	case CA_N_SELECT:
	case CA_N_UNARY:
	case CA_N_PAREN:
		return 1;
	case CA_N_COND:
		return 3;
	case CA_N_CALL:
		return e->u.call.n;
	case CA_N_LIST:
		return e->u.list.n;
	case CA_N_AD:
		return e->u.ad->n;
	default:	/* INDEX, BINARY, ELVIS */
		return 2;
	}
}

const ca_expr *
ca_expr_kid(const ca_expr *e, uint32_t i)
{
	switch (e->node) {
	case CA_N_SELECT:
		return e->u.sel.base;
	case CA_N_CALL:
		return e->u.call.args[i];
	case CA_N_LIST:
		return e->u.list.items[i];
	case CA_N_AD:
		return ca_attr_expr(e->u.ad, &e->u.ad->attrs[i]);
	default:
		return i == 0 ? e->u.k.a : i == 1 ? e->u.k.b : e->u.k.c;
	}
}

static uint64_t
text_hash(uint64_t h, const char *s)
{
	return s ? ca_hash_bytes(ca_hash_mix(h, 1), s, strlen(s)) : ca_hash_mix(h, 2);
}

static bool
text_same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Trees are at most CA_MAX_DEPTH high (the parser sees to it), so these
 * recursions are bounded. */
uint64_t
ca_expr_hash(uint64_t h, const ca_expr *e, int flags)
{
	bool sp = flags & CA_SAME_SPELLING;

	if (e == NULL)
		return ca_hash_mix(h, 0xff);
	h = ca_hash_mix(h, (uint64_t)e->node << 8 | e->op);
	switch (e->node) {
	case CA_N_LIT:
		return ca_value_hash(h, e->u.lit);
	case CA_N_ATTR:
		h = ca_hash_mix(h, (uint64_t)(uintptr_t)e->u.attr.name);
		return sp ? text_hash(text_hash(h, e->u.attr.spell), e->u.attr.scope) : h;
	case CA_N_SELECT:
		h = ca_hash_mix(h, (uint64_t)(uintptr_t)e->u.sel.name);
		if (sp)
			h = text_hash(h, e->u.sel.spell);
		return ca_expr_hash(h, e->u.sel.base, flags);
	case CA_N_CALL:
		h = ca_hash_mix(h, (uint64_t)(uintptr_t)e->u.call.fn);
		if (sp || e->u.call.fn == NULL)
			h = text_hash(h, e->u.call.spell);
		for (uint32_t i = 0; i < e->u.call.n; i++)
			h = ca_expr_hash(h, e->u.call.args[i], flags);
		return ca_hash_mix(h, e->u.call.n);
	case CA_N_LIST:
		for (uint32_t i = 0; i < e->u.list.n; i++)
			h = ca_expr_hash(h, e->u.list.items[i], flags);
		return ca_hash_mix(h, e->u.list.n);
	case CA_N_AD:
		for (uint32_t i = 0; i < e->u.ad->n; i++) {
			const ca_attr *at = &e->u.ad->attrs[i];
			h = ca_hash_mix(h, ca_attr_name(at)->id);
			if (sp)
				h = text_hash(h, ca_attr_spell(at));
			h = ca_expr_hash(h, ca_attr_expr(e->u.ad, at), flags);
		}
		return ca_hash_mix(h, e->u.ad->n);
	default:
		h = ca_expr_hash(h, e->u.k.a, flags);
		h = ca_expr_hash(h, e->u.k.b, flags);
		return ca_expr_hash(h, e->u.k.c, flags);
	}
}

bool
ca_expr_same(const ca_expr *a, const ca_expr *b, int flags)
{
	bool sp = flags & CA_SAME_SPELLING;

	if (a == b)
		return true;
	if (a == NULL || b == NULL || a->node != b->node || a->op != b->op)
		return false;
	switch (a->node) {
	case CA_N_LIT:
		return ca_value_same(a->u.lit, b->u.lit);
	case CA_N_ATTR:
		return a->u.attr.name == b->u.attr.name && (!sp ||
		    (text_same(a->u.attr.spell, b->u.attr.spell) &&
		    text_same(a->u.attr.scope, b->u.attr.scope)));
	case CA_N_SELECT:
		return a->u.sel.name == b->u.sel.name &&
		    (!sp || text_same(a->u.sel.spell, b->u.sel.spell)) &&
		    ca_expr_same(a->u.sel.base, b->u.sel.base, flags);
	case CA_N_CALL:
		if (a->u.call.fn != b->u.call.fn || a->u.call.n != b->u.call.n)
			return false;
		if (sp ? !text_same(a->u.call.spell, b->u.call.spell) :
		    a->u.call.fn == NULL && strcasecmp(a->u.call.spell, b->u.call.spell) != 0)
			return false;
		for (uint32_t i = 0; i < a->u.call.n; i++)
			if (!ca_expr_same(a->u.call.args[i], b->u.call.args[i], flags))
				return false;
		return true;
	case CA_N_LIST:
		if (a->u.list.n != b->u.list.n)
			return false;
		for (uint32_t i = 0; i < a->u.list.n; i++)
			if (!ca_expr_same(a->u.list.items[i], b->u.list.items[i], flags))
				return false;
		return true;
	case CA_N_AD:
		if (a->u.ad->n != b->u.ad->n)
			return false;
		for (uint32_t i = 0; i < a->u.ad->n; i++) {
			const ca_attr *x = &a->u.ad->attrs[i], *y = &b->u.ad->attrs[i];
			if (ca_attr_name(x) != ca_attr_name(y) ||
			    (sp && !text_same(ca_attr_spell(x), ca_attr_spell(y))) ||
			    !ca_expr_same(ca_attr_expr(a->u.ad, x), ca_attr_expr(b->u.ad, y), flags))
				return false;
		}
		return true;
	default:
		return ca_expr_same(a->u.k.a, b->u.k.a, flags) &&
		    ca_expr_same(a->u.k.b, b->u.k.b, flags) &&
		    ca_expr_same(a->u.k.c, b->u.k.c, flags);
	}
}

/* ---- an ad in one allocation ---- */

#define ALIGN8(n)	(((n) + 7) & ~(size_t)7)

/* The bytes of the strings of v that a packed copy holds. */
static size_t
packed_bytes(ca_value v)
{
	return v.kind == CA_STRING ? ALIGN8((size_t)v.x.len + 1) : 0;
}

/* A literal whose value holds no list or ad: a node and perhaps a string. */
static bool
plain_lit(const ca_expr *e)
{
	return e->node == CA_N_LIT && e->u.lit.kind != CA_LIST && e->u.lit.kind != CA_AD;
}

/* src packed; with borrow, its expressions are src's own, not copied. */
static ca_ad *
pack(const ca_ad *src, bool borrow)
{
	uint32_t n = src->n, shape = src->shape;
	const struct ca_shape *sh = ca_ad_shape(shape);

	if (sh == NULL || sh->n != n) {		/* none, or names beyond it */
		shape = ca_ad_shape_of(src->attrs, n);
		sh = ca_ad_shape(shape);
	}
	uint32_t icap = n > CA_INDEX_FROM && (sh == NULL || sh->index == NULL) ? ca_ad_index_cap(n) : 0;
	size_t nodes = 0, bytes = 0, tree = 0;

	for (uint32_t i = 0; i < n; i++) {
		const ca_attr *at = &src->attrs[i];
		if (borrow)
			continue;
		if (at->lit_cached & CA_LIT_VALUE) {	/* a plain literal that fits */
			bytes += packed_bytes(ca_attr_value(at));
			continue;
		}
		const ca_expr *e = ca_attr_expr(src, at);
		if (e->flags & CA_EXPR_SHARED)
			continue;
		if (plain_lit(e)) {
			/* a node only where the entry cannot say it all */
			nodes += !ca_attr_fits(e->u.lit);
			bytes += packed_bytes(e->u.lit);
		} else
			tree += ca_expr_bytes(e);
	}
	uint32_t cap = n + CA_PACK_ROOM;
	size_t table = ALIGN8(sizeof(struct ca_owned_ad) + (size_t)cap * sizeof(ca_attr) +
	    (size_t)icap * sizeof(uint32_t));
	size_t size = table + nodes * sizeof(ca_expr) + bytes;
	struct ca_owned_ad *o = ca_xmalloc(size);
	memset(o, 0, sizeof *o);
	ca_ad *ad = &o->ad;
	ad->arena = &o->arena;
	ad->own_arena = true;
	ad->stamp = ++ca_stamps_;
	ad->table = CA_TABLE_FIXED;
	ad->attrs = (ca_attr *)o->data;
	ad->n = n;
	ad->cap = cap;
	ad->shape = shape;
	char *p = (char *)o + table;
	ca_expr *node = (ca_expr *)p;
	char *str = p + nodes * sizeof(ca_expr);
	if (tree)
		ca_arena_reserve(ad->arena, tree);
	for (uint32_t i = 0; i < n; i++) {
		const ca_attr *from = &src->attrs[i];
		ca_attr *at = &ad->attrs[i];
		if (borrow && from->kind_ != CA_KIND_SRC) {
			/* the entry as it is: its expression, or the value of a
			 * literal whose node, when asked for, is made in this ad
			 * (the expression is not looked at, so not fetched) */
			*at = *from;
			at->busy = 0;
			continue;
		}
		at->name_id = from->name_id;
		at->busy = 0;
		ca_expr *e = NULL;
		ca_value v;
		if (from->lit_cached & CA_LIT_VALUE)
			v = ca_attr_value(from);
		else {
			e = ca_attr_expr(src, from);
			if ((e->flags & CA_EXPR_SHARED) || borrow || !plain_lit(e)) {
				ca_attr_set_expr(at, (e->flags & CA_EXPR_SHARED) || borrow ? e :
				    ca_expr_copy(ad->arena, e));
				continue;
			}
			v = e->u.lit;
		}
		if (v.kind == CA_STRING) {
			memcpy(str, v.u.s, v.x.len);
			str[v.x.len] = '\0';
			v.u.s = str;
			str += packed_bytes(v);
		}
		if (ca_attr_fits(v)) {
			/* the value in the entry, and no node until something
			 * asks for the expression */
			ca_attr_put_value(at, v);
			continue;
		}
		*node = *e;	/* an entry's value always fits: e is the node */
		node->u.lit = v;
		ca_attr_set_expr(at, node++);
	}
	if (icap) {
		ad->index = (uint32_t *)(ad->attrs + cap);
		ad->icap = icap;
		ca_ad_index_fill(ad->index, icap, ad->attrs, n);
	} else if (sh != NULL && sh->index != NULL) {
		ad->index = sh->index;
		ad->icap = sh->icap;
		ad->table |= CA_TABLE_SHARED_INDEX;
	}
	return ad;
}

ca_ad *
ca_ad_pack(const ca_ad *src)
{
	return pack(src, false);
}

ca_ad *
ca_ad_pack_borrowed(const ca_ad *src)
{
	return pack(src, true);
}
