/* dict.c - the one hash table (dict.h): open addressing over the owner's
 * hashes, at most half full, removal by backward shift. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "ascii.h"
#include "dict.h"

static void
put(ca_dict_ent *ent, uint32_t mask, uint32_t hash, uint32_t idx)
{
	uint32_t i = hash & mask;

	while (ent[i].idx != CA_DICT_NONE)
		i = (i + 1) & mask;
	ent[i].hash = hash;
	ent[i].idx = idx;
}

static void
resize(ca_dict *d, uint32_t cap)
{
	ca_dict_ent *ent = ca_xreallocarray(NULL, cap, sizeof *ent);

	memset(ent, 0xff, (size_t)cap * sizeof *ent);
	if (d->ent != NULL)
		for (uint32_t i = 0; i <= d->mask; i++)
			if (d->ent[i].idx != CA_DICT_NONE)
				put(ent, cap - 1, d->ent[i].hash, d->ent[i].idx);
	free(d->ent);
	d->ent = ent;
	d->mask = cap - 1;
}

void
ca_dict_add(ca_dict *d, uint64_t h, uint32_t idx)
{
	if (d->ent == NULL)
		resize(d, 16);
	else if (((uint64_t)d->n + 1) * 2 > (uint64_t)d->mask + 1) {
		if (d->mask >= UINT32_MAX / 2)
			ca_xmalloc(SIZE_MAX);	/* cannot grow: out of memory */
		resize(d, (d->mask + 1) * 2);
	}
	put(d->ent, d->mask, (uint32_t)h, idx);
	d->n++;
}

bool
ca_dict_remove(ca_dict *d, uint64_t h, uint32_t idx)
{
	uint32_t i, j, k;

	if (d->ent == NULL)
		return false;
	for (i = (uint32_t)h & d->mask; d->ent[i].idx != idx; i = (i + 1) & d->mask)
		if (d->ent[i].idx == CA_DICT_NONE)
			return false;
	/* backward shift: move up every later entry of the run that may
	 * now sit nearer its home */
	for (j = i;;) {
		d->ent[i].idx = CA_DICT_NONE;
		for (;;) {
			j = (j + 1) & d->mask;
			if (d->ent[j].idx == CA_DICT_NONE) {
				d->n--;
				return true;
			}
			k = d->ent[j].hash & d->mask;
			/* k cyclically in (i, j]: the entry stays */
			if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
				continue;
			break;
		}
		d->ent[i] = d->ent[j];
		i = j;
	}
}

void
ca_dict_clear(ca_dict *d)
{
	if (d->ent != NULL)
		memset(d->ent, 0xff, ((size_t)d->mask + 1) * sizeof *d->ent);
	d->n = 0;
}

void
ca_dict_free(ca_dict *d)
{
	free(d->ent);
	d->ent = NULL;
	d->mask = d->n = 0;
}

const void *
ca_table_find(const void *table, size_t n, size_t size, const char *name, size_t len)
{
	const char *base = table;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const void *item = base + mid * size;
		const char *entry;
		memcpy(&entry, item, sizeof entry);
		int c = ca_fold_cmp(name, len, entry, strlen(entry));
		if (c == 0)
			return item;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

void **
ca_ptab_grow(void **slot, uint32_t *cap, uint32_t first, uint32_t (*hash)(const void *p))
{
	uint32_t ncap = *cap ? *cap * 2 : first;
	void **to = ca_xcalloc(ncap, sizeof *to);

	for (uint32_t i = 0; i < *cap; i++) {
		if (slot[i] == NULL)
			continue;
		uint32_t j = hash(slot[i]) & (ncap - 1);
		while (to[j])
			j = (j + 1) & (ncap - 1);
		to[j] = slot[i];
	}
	free(slot);
	*cap = ncap;
	return to;
}
