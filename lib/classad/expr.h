/* expr.h - whole expression trees: deep copies (of trees, the ads nested in
 * them and values), structural identity and hashing; the nodes are in node.h. */
#ifndef CA_EXPR_H
#define CA_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ad.h"
#include "arena.h"
#include "node.h"
#include "value.h"

/* Structural identity of trees, for sharing and grouping them (autoclusters,
 * stored job ads, policies already present). Names compare by identity
 * (case-insensitively); with CA_SAME_SPELLING their spellings must agree
 * too, so the trees also print alike. Equal trees hash equally. */
#define CA_SAME_SPELLING 0x1
uint64_t ca_expr_hash(uint64_t h, const ca_expr *e, int flags);
bool ca_expr_same(const ca_expr *a, const ca_expr *b, int flags);

/* The sub-expressions of e, for walks that treat them alike: the operands,
 * a selection's base, the arguments of a call, the items of a list and the
 * expressions of a nested ad's attributes, in that order; i below
 * ca_expr_nkids(e). */
uint32_t ca_expr_nkids(const ca_expr *e);
const ca_expr *ca_expr_kid(const ca_expr *e, uint32_t i);

/* Deep copies. Trees hold ads ([ ... ] literals), ads hold trees and values
 * hold both, so the three are copied here together. Depth is bounded by the
 * parser's limit, so the recursions are safe. */
/* About the bytes ca_expr_copy and ca_ad_copy_in take for e and ad (a
 * shared tree takes none), to size an arena. */
size_t ca_expr_bytes(const ca_expr *e);
size_t ca_ad_bytes_copy(const ca_ad *ad);
/* e into arena a (nested ads included). A shared tree (CA_EXPR_SHARED)
 * is not copied: e itself is returned (it must not be changed). */
ca_expr *ca_expr_copy(ca_arena *a, const ca_expr *e);
/* e kept once for the process, immutable, like the trees readers share: the
 * same tree for every e that prints alike, which any ad may hold as it is
 * (ca_expr_copy keeps it) and writers print once. NULL when the store is
 * full. For an expression a program puts into many ads (a startd's
 * policy into every slot). */
const ca_expr *ca_expr_share(const ca_expr *e);
/* A literal node holding v (v copied into a). */
ca_expr *ca_expr_lit(ca_arena *a, ca_value v);
/* at's expression without making it in its ad, as ca_attr_expr would: for
 * a literal the entry holds as its value, a node of it in *tmp (good while
 * the caller keeps tmp); NULL for source text kept as it is. */
static inline const ca_expr *
ca_attr_expr_in(const ca_attr *at, ca_expr *tmp)
{
	if (!(at->lit_cached & CA_LIT_LAZY))
		return at->expr_;
	if (at->kind_ == CA_KIND_SRC)
		return NULL;
	*tmp = (ca_expr){ .node = CA_N_LIT, .flags = 1, .u.lit = ca_attr_value(at) };
	return tmp;
}
/* v (strings, lists, ad references) into arena a (short strings: their
 * shared copy). */
ca_value ca_value_copy_into(ca_arena *a, ca_value v);
/* An ad with its own arena; an ad allocated in arena a. */
ca_ad *ca_ad_copy(const ca_ad *src);
ca_ad *ca_ad_copy_in(ca_arena *a, const ca_ad *src);
/* Every attribute of src into dst (later wins). */
void ca_ad_merge(ca_ad *dst, const ca_ad *src);
/* Attribute at of another ad, src, into dst, under its name as that ad spells
 * it: its tree copied, or its text while it is kept as such (a literal
 * nothing has read yet stays as it was written), or the value of a literal
 * an entry can hold (none is made in src). */
void ca_ad_copy_attr(ca_ad *dst, const ca_ad *src, const ca_attr *at);
/* Insert a copy of e (from any arena) under the name text s. */
void ca_ad_set_copy(ca_ad *ad, const char *s, size_t len, const struct ca_expr *e);

#endif
