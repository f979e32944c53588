/* ad_int.h - what ad.c shares with the rest of the core about the insides
 * of an ad: where its table lives, shapes and their shared indexes. */
#ifndef CA_AD_INT_H
#define CA_AD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ad.h"

/* ads with more attributes than this get a hash index */
#define CA_INDEX_FROM 8
/* an ad built by appending (a reader's) gets it once it has this many
 * (before, a name new to it is looked for through all it has) */
#define CA_INDEX_APPEND 1024
/* room a packed ad keeps for attributes set after it was read (the few a
 * negotiator or startd adds to a slot), so that they need no new table */
#define CA_PACK_ROOM 6

/* Where an ad's attributes and index live (ca_ad.table). */
enum {
	CA_TABLE_HEAP,	/* one malloc'd block: attributes, then the index (or
			 * the index of the ad's shape, shared) */
	CA_TABLE_ARENA,	/* an ad nested in an arena: both from the arena */
	CA_TABLE_FIXED	/* inside the ad's own allocation (ca_ad_pack), with
			 * the shape's index or its own after the attributes;
			 * moves to the heap when the ad outgrows its room */
};
#define CA_TABLE_SHARED_INDEX	0x80	/* in ca_ad.table: the index is the shape's */

/* A top-level ad: the ad, its arena, and (ca_ad_pack) the rest. */
struct ca_owned_ad {
	ca_ad ad;
	ca_arena arena;
	max_align_t data[];
};

/* A shape: the names in their order, and the hash index every ad of the
 * shape shares (NULL for small ads). An ad of the shape given one name
 * more has the shape of those names: the last few such steps are kept
 * (CA_SHAPE_NEXT), so that ads a program adds the same names to go from
 * shape to shape without a look-up. */
#define CA_SHAPE_NEXT 4
struct ca_shape {
	uint64_t hash;
	uint32_t n, icap;
	const ca_name **names;
	uint32_t *index;
	struct { const ca_name *name; uint32_t shape; } next[CA_SHAPE_NEXT];
	uint32_t next_at;	/* where the next step is kept */
};

/* Ads grow into new shapes while there are fewer (the tests set it to see
 * ads that do not). */
extern uint32_t ca_shapes_grow_max_;
/* The shape of an ad with these attributes (registered if new), or 0. */
uint32_t ca_ad_shape_of(const ca_attr *attrs, uint32_t n);
const struct ca_shape *ca_ad_shape(uint32_t shape);
/* The index size for n attributes, and the index of attrs[0..n). */
uint32_t ca_ad_index_cap(uint32_t n);
void ca_ad_index_fill(uint32_t *index, uint32_t icap, const ca_attr *attrs, uint32_t n);
/* at's expression is e (its name stays). */
void ca_attr_set_expr(ca_attr *at, struct ca_expr *e);

static inline int
ca_table_of(const ca_ad *ad)
{
	return ad->table & ~CA_TABLE_SHARED_INDEX;
}

extern uint64_t ca_stamps_;	/* the last stamp given */

/* Every change of ad's attributes: it counts, so the text it was read
 * from no longer says what it holds (ca_ad_text), unless the count came
 * round to the text's again. An attribute appended to an ad being built
 * (ca_ad_append and its kin) is counted only: the ad's stamp is renewed
 * once, when it is complete (ca_ad_trim). */
static inline void
ca_ad_counted(ca_ad *ad)
{
	ad->version++;
	if (ad->text != NULL && ad->version == ad->text->version)
		ad->text = NULL;
}

/* Any other change of ad's attributes, of name (NULL: of any): counted,
 * and a watched name's gives the ad a new stamp. */
static inline void
ca_ad_changed(ca_ad *ad, const ca_name *name)
{
	ca_ad_counted(ad);
	if (name == NULL || name->watched)
		ad->stamp = ++ca_stamps_;
}

/* at keeps text[0..n) (at most CA_SRC_MAX bytes, in its ad's arena) as
 * its source, to be parsed when read (CA_KIND_SRC). */
static inline void
ca_attr_keep_src(ca_attr *at, const char *text, size_t n)
{
	at->u_.s = text;
	at->x_ = (uint16_t)n;
	at->kind_ = CA_KIND_SRC;
	at->lit_cached = CA_LIT_LAZY;
	at->busy = 0;
	at->as_read = 0;
}

/* The entry of name in ad, added (spelled spell, holding nothing yet: the
 * caller fills it) if ad has none. */
ca_attr *ca_ad_entry(ca_ad *ad, const ca_name *name, const char *spell);
/* The same for a name the caller has just looked for in ad, in vain. */
ca_attr *ca_ad_entry_new(ca_ad *ad, const ca_name *name, const char *spell);
/* name (spelled spell) of ad holds v, a value an entry can hold
 * (ca_attr_fits) whose bytes live as long as ad: at, ad's entry of name
 * the caller looked up, or a new one when that is NULL. */
void ca_ad_put_value(ca_ad *ad, const ca_name *name, const char *spell, ca_attr *at, ca_value v);

/* The literal node of text s[0..n) kept as one literal (ca_ad_append_src),
 * in arena a. */
struct ca_expr *ca_expr_kept(ca_arena *a, const char *s, size_t n);

/* ca_ad_append_src, the text copied unless at_place (then it is in ad's
 * arena already) */
void ca_ad_append_kept(ca_ad *ad, const ca_name *name, const char *s, size_t n,
    bool at_place);

/* ca_ad_append_src of text that is in ad's arena already, or in memory
 * that outlives the ad (ca_reader_mem_stays): it is kept where it is, and
 * need not end in a NUL. Inline while the ad's own table
 * has room, as a reader's ad mostly has (ca_ad_reserve). */
static inline void
ca_ad_append_src_at(ca_ad *ad, const ca_name *name, const char *s, size_t n)
{
	if (ad->index != NULL || ca_table_of(ad) != CA_TABLE_HEAP || ad->n == ad->cap ||
	    ad->n + 1 >= CA_INDEX_APPEND || n > CA_SRC_MAX) {
		ca_ad_append_kept(ad, name, s, n, true);
		return;
	}
	ca_ad_counted(ad);
	ca_attr *at = &ad->attrs[ad->n++];
	at->name_id = name->id;
	ca_attr_keep_src(at, s, n);
}

#endif
