/* dict.h - the one hash table: it maps a hash to the numbers (indexes) of
 * the items that have it; the items live wherever their owner keeps them. */

/*
 * Usually the items are in a ca_vec. The owner computes the hash and
 * decides equality, so one table serves names, strings, trees and values
 * alike:
 *
 *   ca_dict_it it;
 *   for (uint32_t i = ca_dict_first(&d, h, &it); i != CA_DICT_NONE;
 *       i = ca_dict_next(&d, &it))
 *           if (same(items.at[i], key))
 *                   return i;
 *   ca_dict_add(&d, h, items.n);  *ca_vec_push(&items) = key;
 *
 * Open addressing with linear probing, at most half full, removal by
 * backward shift (no tombstones). Zeroed (CA_DICT_INIT) is an empty table.
 * Hashes come from value.h (ca_hash_bytes, ca_hash_mix, ca_value_hash,
 * ca_expr_hash); the dict uses their low 32 bits.
 */
#ifndef CA_DICT_H
#define CA_DICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CA_DICT_NONE UINT32_MAX

typedef struct ca_dict_ent {
	uint32_t hash;		/* the low 32 bits of the owner's hash */
	uint32_t idx;		/* CA_DICT_NONE: empty */
} ca_dict_ent;

typedef struct ca_dict {
	ca_dict_ent *ent;
	uint32_t mask;		/* capacity - 1 (capacity a power of two), or 0 */
	uint32_t n;
} ca_dict;

#define CA_DICT_INIT { NULL, 0, 0 }

typedef struct ca_dict_it {
	uint32_t pos, hash;
} ca_dict_it;

/* The first item with hash h, or CA_DICT_NONE; then the next ones. */
static inline uint32_t
ca_dict_next(const ca_dict *d, ca_dict_it *it)
{
	if (d->ent == NULL)
		return CA_DICT_NONE;
	for (;;) {
		const ca_dict_ent *e = &d->ent[it->pos];
		it->pos = (it->pos + 1) & d->mask;
		if (e->idx == CA_DICT_NONE)
			return CA_DICT_NONE;
		if (e->hash == it->hash)
			return e->idx;
	}
}

static inline uint32_t
ca_dict_first(const ca_dict *d, uint64_t h, ca_dict_it *it)
{
	it->hash = (uint32_t)h;
	it->pos = (uint32_t)h & d->mask;
	return ca_dict_next(d, it);
}

/* Add item idx under hash h (several items may share a hash). */
void ca_dict_add(ca_dict *d, uint64_t h, uint32_t idx);
/* Remove item idx, filed under hash h. Returns whether it was there. */
bool ca_dict_remove(ca_dict *d, uint64_t h, uint32_t idx);
/* Empty the table, keeping its memory; free it. */
void ca_dict_clear(ca_dict *d);
void ca_dict_free(ca_dict *d);

/* The other lookup, for constant tables: in table (n items of size bytes,
 * each starting with its `const char *name`, sorted by name ignoring the
 * case of A-Z, '_' before letters), the item named name[0..len) ignoring
 * case, or NULL. A binary search. */
const void *ca_table_find(const void *table, size_t n, size_t size, const char *name,
    size_t len);

/* The other table of the library, for the few process-wide sets looked up
 * on every name or literal read (interned names, shared strings, shared
 * trees): open addressing over the pointers themselves, with no items
 * array, so a lookup costs one memory access less than a ca_dict's. The
 * caller probes slot[hash & (cap - 1)] onwards; ca_ptab_grow doubles the
 * table (first: its first size, a power of two), putting every pointer p
 * back at hash(p), and returns the new slots. */
void **ca_ptab_grow(void **slot, uint32_t *cap, uint32_t first, uint32_t (*hash)(const void *p));

#endif
