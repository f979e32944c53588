/* ad.c - ClassAds as attribute tables (insertion order plus a hash index)
 * and the process-wide table of interned, case-folded attribute names. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ad.h"
#include "ascii.h"
#include "dict.h"
#include "ad_int.h"
#include "node.h"
#include "vec.h"

/* ---- interned names ---- */

/* The names, by their hashes: a ca_ptab (dict.h), not a ca_dict, because
 * every name read is looked up here and the dict's items array would cost
 * one more memory access per lookup (about 3% of the parsing of a
 * condor_status -long stream). */
static struct {
	void **slot;		/* const ca_name * */
	uint32_t cap, n;	/* cap is a power of two */
	uint32_t seed;
	uint32_t ids, nids;	/* room in ca_name_ids_, and numbers given */
} names;

struct ca_name_id *ca_name_ids_;
uint64_t ca_stamps_;

/* what the attribute tables of every ad cost: keep it so */
_Static_assert(sizeof(ca_attr) == 16, "an attribute entry is 16 bytes");

/* The next number, for nm spelled spell. */
static uint32_t
number(const ca_name *nm, const char *spell)
{
	/* from 1: an entry's 0 is no name */
	uint32_t id = ++names.nids;

	if (id >= CA_NAME_OTHER)
		ca_xmalloc(SIZE_MAX);	/* reports out of memory: cannot happen
					 * before memory runs out */
	if (id >= names.ids) {
		names.ids = names.ids ? 2 * names.ids : 1024;
		ca_name_ids_ = ca_xreallocarray(ca_name_ids_, names.ids, sizeof *ca_name_ids_);
		ca_name_ids_[0] = (struct ca_name_id){ NULL, NULL, 0, 0 };
	}
	ca_name_ids_[id] = (struct ca_name_id){ nm, spell, 0, nm->len };
	return id;
}

uint32_t
ca_intern_spelling(const ca_name *nm, const char *s, size_t len)
{
	if (s == nm->spell || (len == nm->len && memcmp(s, nm->spell, len) == 0))
		return nm->id;
	/* the other spellings of a name are few: a list, newest first */
	for (uint32_t id = nm->others; id != 0; id = ca_name_ids_[id].older)
		if (memcmp(ca_name_ids_[id].spell, s, len) == 0)
			return id | CA_NAME_OTHER;
	char *copy = ca_xmalloc(len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	uint32_t id = number(nm, copy);
	ca_name *w = (ca_name *)nm;
	ca_name_ids_[id].older = w->others;
	w->others = id;
	return id | CA_NAME_OTHER;
}

/* shapes of ads (see shape_of), numbered from 1: the names in their
 * order, and the hash index that every ad of the shape shares */
#define SHAPES_MAX 4096

static struct {
	ca_dict index;
	ca_vec(struct ca_shape) at;
} shapes;

static uint32_t
name_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u ^ names.seed;

	for (size_t i = 0; i < len; i++)
		h = (h ^ ca_lower((unsigned char)s[i])) * 16777619u;
	return h;
}

static int
same_name(const ca_name *nm, uint32_t h, const char *s, size_t len)
{
	if (nm->hash != h || nm->len != len)
		return 0;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)nm->key[i] != ca_lower((unsigned char)s[i]))
			return 0;
	return 1;
}

static uint32_t
name_slot_hash(const void *p)
{
	return ((const ca_name *)p)->hash;
}

static void
names_grow(void)
{
	names.slot = ca_ptab_grow(names.slot, &names.cap, 1024, name_slot_hash);
}

/* The names programs look up by text (ca_get_int(cx, ad, "JobStatus", ...))
 * are mostly a few literals, looked up again and again: a direct-mapped
 * cache by the text's address and length, checked against a copy of its
 * bytes (the same bytes are the same name, wherever they are), saves
 * hashing and comparing them case-blind each time. It keeps names found
 * and names missing alike. */
#define FOUND_SLOTS	512
#define FOUND_TEXT	32

static struct found {
	const char *s;
	uint32_t len;
	uint32_t count;		/* nm NULL: not found among names.n = count */
	const ca_name *nm;
	char text[FOUND_TEXT];
} found[FOUND_SLOTS];

static struct found *
found_slot(const char *s, size_t len)
{
	uintptr_t a = (uintptr_t)s;

	return &found[(a ^ a >> 9 ^ len * 0x9e3779b1u) & (FOUND_SLOTS - 1)];
}

const ca_name *
ca_intern_find(const char *s, size_t len)
{
	if (names.cap == 0)
		return NULL;
	struct found *f = len < FOUND_TEXT ? found_slot(s, len) : NULL;
	if (f != NULL && f->s == s && f->len == len && ca_same_bytes(f->text, s, len) &&
	    (f->nm != NULL || f->count == names.n))
		return f->nm;
	uint32_t h = name_hash(s, len);
	const ca_name *nm;
	for (uint32_t j = h & (names.cap - 1);; j = (j + 1) & (names.cap - 1)) {
		nm = names.slot[j];
		if (nm == NULL || same_name(nm, h, s, len))
			break;
	}
	/* a name no ad has is looked for as often (a job's PeriodicHold):
	 * remembered as missing until the next name is added */
	if (f != NULL) {
		f->s = s;
		f->len = (uint32_t)len;
		f->count = names.n;
		f->nm = nm;
		memcpy(f->text, s, len);
	}
	return nm;
}

const ca_name *
ca_intern(const char *s, size_t len)
{
	if (names.cap == 0) {
		names.seed = (uint32_t)time(NULL) ^ (uint32_t)(uintptr_t)&names;
		names_grow();
	}
	uint32_t h = name_hash(s, len);
	uint32_t j = h & (names.cap - 1);
	for (;; j = (j + 1) & (names.cap - 1)) {
		const ca_name *nm = names.slot[j];
		if (nm == NULL)
			break;
		if (same_name(nm, h, s, len))
			return nm;
	}
	if (len > UINT32_MAX / 2)
		len = UINT32_MAX / 2;	/* cannot happen: inputs are bounded earlier */
	ca_name *nm = ca_xmalloc(sizeof *nm + 2 * len + 2);
	nm->hash = h;
	nm->len = (uint32_t)len;
	for (size_t i = 0; i < len; i++)
		nm->key[i] = (char)ca_lower((unsigned char)s[i]);
	nm->key[len] = '\0';
	char *spell = nm->key + len + 1;
	memcpy(spell, s, len);
	spell[len] = '\0';
	nm->spell = spell;
	memset(nm->at, 0, sizeof nm->at);
	nm->long_plain = 0;
	nm->watched = 0;
	nm->others = 0;
	names.slot[j] = nm;
	nm->id = number(nm, nm->spell);
	if (++names.n * 2 > names.cap)
		names_grow();
	return nm;
}

/* what the other process-wide tables free at ca_intern_cleanup() */
static void (*cleanups[4])(void);

void
ca_intern_at_cleanup(void (*fn)(void))
{
	for (size_t i = 0; i < sizeof cleanups / sizeof cleanups[0]; i++) {
		if (cleanups[i] == fn)
			return;
		if (cleanups[i] == NULL) {
			cleanups[i] = fn;
			return;
		}
	}
}

static void spare_free(void);

void
ca_intern_cleanup(void)
{
	spare_free();
	ca_str_shared_cleanup();
	for (size_t i = 0; i < sizeof cleanups / sizeof cleanups[0]; i++)
		if (cleanups[i] != NULL) {
			cleanups[i]();
			cleanups[i] = NULL;
		}
	for (size_t i = 0; i < shapes.at.n; i++) {
		free(shapes.at.at[i].names);
		free(shapes.at.at[i].index);
	}
	ca_dict_free(&shapes.index);
	ca_vec_free(&shapes.at);
	memset(found, 0, sizeof found);
	/* the other spellings, then the names (whose own spelling they hold) */
	for (uint32_t id = 1; id <= names.nids; id++)
		if (ca_name_ids_[id].spell != ca_name_ids_[id].name->spell)
			free((void *)ca_name_ids_[id].spell);
	for (uint32_t i = 0; i < names.cap; i++)
		free((void *)names.slot[i]);
	free(names.slot);
	free(ca_name_ids_);
	ca_name_ids_ = NULL;
	memset(&names, 0, sizeof names);
}

/* ---- ads ---- */

/* names an ad sharing its shape's index may have beyond the shape's */
#define EXTRAS_MAX 8

/*
 * Ads freed, kept for the next ones a reader makes: a filter frees each ad
 * before it reads the next, mostly as large, which then takes a freed
 * one's table and arena chunk (ca_ad_new_sized) rather than asking malloc
 * for blocks of kilobytes (a tenth of a cheap ad's cost). A few, not large
 * ones, and only where they fit: an ad held keeps at most twice the table
 * and four times the arena it was made with (an arena grows by doubling).
 * A new ad that none fits, the pool full, drops one: the pool follows the
 * ads of the moment.
 * Not under CA_SELFCHECK, where an ad used after it was freed must stay a
 * fault.
 */
#define SPARE_ADS	16
#define SPARE_TABLE_MAX	1024	/* attributes */
#define SPARE_ARENA_MAX	((size_t)64 << 10)
static struct {
	struct ca_owned_ad *at[SPARE_ADS];
	int n;
} spare;

static void
spare_drop(struct ca_owned_ad *o)
{
	free(o->ad.attrs);
	ca_arena_free(&o->arena);
	free(o);
}

static void
spare_free(void)
{
	while (spare.n > 0)
		spare_drop(spare.at[--spare.n]);
}

/* o, its ad's fields zero but for its table, made a new ad of its own
 * arena. */
static ca_ad *
owned_ad(struct ca_owned_ad *o)
{
	o->ad.arena = &o->arena;
	o->ad.own_arena = true;
	o->ad.stamp = ++ca_stamps_;
	return &o->ad;
}

/* Keep the freed ad o if there is room: true when kept. */
static bool
spare_keep(struct ca_owned_ad *o)
{
#ifdef CA_SELFCHECK
	(void)o;
	return false;
#else
	if (spare.n == SPARE_ADS || ca_table_of(&o->ad) != CA_TABLE_HEAP ||
	    o->ad.cap > SPARE_TABLE_MAX || o->arena.total > SPARE_ARENA_MAX)
		return false;
	ca_arena_reset(&o->arena);
	spare.at[spare.n++] = o;
	return true;
#endif
}

/* The index of an ad's attributes is open addressing over their places,
 * not a ca_dict: ca_ad_find is the evaluation's hottest lookup, and an ad
 * nested in an arena could not free a dict's memory. */


ca_ad *
ca_ad_new(void)
{
	return owned_ad(ca_xcalloc(1, sizeof(struct ca_owned_ad)));
}

ca_ad *
ca_ad_new_sized(uint32_t n, size_t bytes)
{
	bytes = bytes < 65536 ? bytes : 65536;
	for (int i = spare.n - 1; i >= 0 && n > 0; i--) {
		struct ca_owned_ad *o = spare.at[i];
		if (o->ad.cap < n || o->ad.cap - n > n + 16 || o->arena.total < bytes / 2 ||
		    o->arena.total > 4 * bytes + 4096)
			continue;
		/* an empty ad with the table and arena chunk of a freed one */
		spare.at[i] = spare.at[--spare.n];
		ca_attr *attrs = o->ad.attrs;
		uint32_t cap = o->ad.cap;
		memset(&o->ad, 0, sizeof o->ad);
		o->ad.attrs = attrs;
		o->ad.cap = cap;
		return owned_ad(o);
	}
	if (spare.n == SPARE_ADS) {
		/* none served: one goes, so that freed ads like this one, which
		 * likely resembles those to come, find room (else a pool of
		 * ads of another kind would never change) */
		spare_drop(spare.at[0]);
		spare.at[0] = spare.at[--spare.n];
	}
	ca_ad *ad = ca_ad_new();
	ca_ad_reserve(ad, n, bytes);
	return ad;
}

ca_ad *
ca_ad_new_in(ca_arena *a)
{
	ca_ad *ad = ca_arena_zalloc(a, sizeof *ad);

	ad->arena = a;
	ad->table = CA_TABLE_ARENA;
	ad->stamp = ++ca_stamps_;
	return ad;
}

void
ca_name_watch(const ca_name *nm)
{
	((ca_name *)(uintptr_t)nm)->watched = 1;
}

const struct ca_shape *
ca_ad_shape(uint32_t shape)
{
	return shape ? &shapes.at.at[shape - 1] : NULL;
}

void
ca_ad_free(ca_ad *ad)
{
	if (ad == NULL || !ad->own_arena)
		return;
	struct ca_owned_ad *o = (struct ca_owned_ad *)ad;
	if (spare_keep(o))
		return;
	if (ca_table_of(ad) == CA_TABLE_HEAP)
		free(ad->attrs);
	ca_arena_free(&o->arena);
	free(o);
}

/* Room for cap attributes and an index of icap slots (its content is
 * left to the caller). An ad with its own arena keeps both in one
 * malloc'd block; a nested ad takes them from its arena. */
static void
table_resize(ca_ad *ad, uint32_t cap, uint32_t icap)
{
	size_t bytes = (size_t)cap * sizeof(ca_attr) + (size_t)icap * sizeof(uint32_t);
	ca_attr *attrs;

	switch (ca_table_of(ad)) {
	case CA_TABLE_HEAP:
		attrs = ca_xreallocarray(ad->attrs, bytes, 1);
		break;
	case CA_TABLE_ARENA:
		attrs = ca_arena_alloc(ad->arena, bytes);
		if (ad->n)
			memcpy(attrs, ad->attrs, ad->n * sizeof *attrs);
		break;
	default:
		attrs = ca_xmalloc(bytes);
		if (ad->n)
			memcpy(attrs, ad->attrs, ad->n * sizeof *attrs);
		break;
	}
	ad->table = ca_table_of(ad) == CA_TABLE_ARENA ? CA_TABLE_ARENA : CA_TABLE_HEAP;
	ad->attrs = attrs;
	ad->cap = cap;
	ad->icap = icap;
	ad->index = icap ? (uint32_t *)(attrs + cap) : NULL;
}

/* An index entry is the attribute's place + 1 (0: empty). In an index of
 * up to INDEX_TAGGED entries it has the top bits of its name's hash above
 * the place, so that a probe passes over another name, and a look-up for a
 * name the ad lacks ends, without reading the attribute table. */
#define TAG_SHIFT	24
#define INDEX_TAGGED	(UINT32_C(1) << TAG_SHIFT)

/* The bits of a hash an entry of an index of icap entries keeps */
static uint32_t
index_tags(uint32_t icap)
{
	return icap <= INDEX_TAGGED ? ~(INDEX_TAGGED - 1) : 0;
}

/* The place + 1 an index entry e holds when it may be hash's name, else 0 */
static inline uint32_t
index_place(uint32_t icap, uint32_t hash, uint32_t e)
{
	if (icap > INDEX_TAGGED)
		return e;
	return (e ^ hash) >> TAG_SHIFT ? 0 : e & (INDEX_TAGGED - 1);
}

void
ca_ad_index_fill(uint32_t *index, uint32_t icap, const ca_attr *attrs, uint32_t n)
{
	uint32_t tags = index_tags(icap);

	memset(index, 0, icap * sizeof *index);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t h = ca_attr_name(&attrs[i])->hash, j = h & (icap - 1);
		while (index[j])
			j = (j + 1) & (icap - 1);
		index[j] = (h & tags) | (i + 1);
	}
}

uint32_t
ca_ad_index_cap(uint32_t n)
{
	uint32_t cap = 16;

	while (cap < n * 2 + 2)
		cap *= 2;
	return cap;
}

/* An index of the ad's own for its attributes (which it may change). */
static void
index_build(ca_ad *ad)
{
	uint32_t cap = ca_ad_index_cap(ad->n);

	if (cap != ad->icap || (ad->table & CA_TABLE_SHARED_INDEX) || ca_table_of(ad) == CA_TABLE_FIXED)
		table_resize(ad, ad->cap, cap);
	ca_ad_index_fill(ad->index, cap, ad->attrs, ad->n);
}

/* The place + 1 of name among ad's attributes from the i-th, or 0. */
static inline __attribute__((always_inline)) uint32_t
find_from(const ca_ad *ad, const ca_name *name, uint32_t i)
{
	for (; i < ad->n; i++)
		if (ca_attr_is(&ad->attrs[i], name))
			return i + 1;
	return 0;
}

/* Where name is in ad, by its hash index (or a look through a small ad),
 * remembered in name->at for ads of this shape: its place, or that the
 * shape's names do not have it (CA_POS_ABSENT), so that the next ad of
 * the shape that lacks it is answered from the few names it was given
 * since, if any. An ad's first names are its shape's while it has one (a
 * deletion takes it away). */
ca_attr *
ca_ad_find_slow(const ca_ad *ad, const ca_name *name)
{
	ca_name *nm = (ca_name *)name;
	uint32_t k = 0, c = ad->shape % CA_NAME_AT;
	const struct ca_shape *sh = ca_ad_shape(ad->shape);

	if (sh != NULL && nm->at[c].shape == ad->shape && nm->at[c].pos == CA_POS_ABSENT + sh->n &&
	    ad->n - sh->n <= EXTRAS_MAX) {
		/* it stays so: the shape's ads mostly lack the name */
		k = find_from(ad, name, sh->n);
		return k ? &ad->attrs[k - 1] : NULL;
	} else if (ad->index) {
		uint32_t mask = ad->icap - 1;
		for (uint32_t j = name->hash & mask;; j = (j + 1) & mask) {
			uint32_t e = ad->index[j];
			if (e == 0)
				break;
			k = index_place(ad->icap, name->hash, e);
			if (k != 0 && ca_attr_is(&ad->attrs[k - 1], name))
				break;
			k = 0;
		}
		if (k == 0 && (ad->table & CA_TABLE_SHARED_INDEX))
			k = find_from(ad, name, sh->n);	/* the names added after the shape's */
	} else
		k = find_from(ad, name, 0);
	if (k == 0 && sh == NULL)
		return NULL;
	nm->at[c].shape = ad->shape;
	nm->at[c].pos = k ? k - 1 : CA_POS_ABSENT + sh->n;
	return k ? &ad->attrs[k - 1] : NULL;
}

/* ---- shapes ----
 * A shape is a sequence of attribute names; ads read from one stream (the
 * slots of a pool, the jobs of a queue) mostly have a few. Each gets a
 * small number, so that the places of names can be remembered per shape
 * (ca_name.at), and one hash index that its ads share. The table (with
 * the names', the library's process-wide state) stops growing at
 * SHAPES_MAX; later shapes are 0. */
uint32_t
ca_ad_shape_of(const ca_attr *attrs, uint32_t n)
{
	uint64_t h = n;
	ca_dict_it it;

	for (uint32_t i = 0; i < n; i++)
		h = ca_hash_mix(h, ca_attr_name(&attrs[i])->id);
	for (uint32_t i = ca_dict_first(&shapes.index, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&shapes.index, &it)) {
		const struct ca_shape *sh = &shapes.at.at[i];
		if (sh->hash != h || sh->n != n)
			continue;
		uint32_t k = 0;
		while (k < n && sh->names[k] == ca_attr_name(&attrs[k]))
			k++;
		if (k == n)
			return i + 1;
	}
	if (shapes.at.n >= SHAPES_MAX)
		return 0;
	struct ca_shape *sh = ca_vec_push(&shapes.at);
	sh->hash = h;
	sh->n = n;
	sh->names = ca_xreallocarray(NULL, n, sizeof *sh->names);
	for (uint32_t i = 0; i < n; i++)
		sh->names[i] = ca_attr_name(&attrs[i]);
	sh->icap = 0;
	sh->index = NULL;
	memset(sh->next, 0, sizeof sh->next);
	sh->next_at = 0;
	if (n > CA_INDEX_FROM) {
		sh->icap = ca_ad_index_cap(n);
		sh->index = ca_xreallocarray(NULL, sh->icap, sizeof *sh->index);
		ca_ad_index_fill(sh->index, sh->icap, attrs, n);
	}
	ca_dict_add(&shapes.index, h, (uint32_t)(shapes.at.n - 1));
	return (uint32_t)shapes.at.n;
}

/* Shapes an ad grows into take at most half the table, so that the ads a
 * program reads later still have room for theirs. */
uint32_t ca_shapes_grow_max_ = SHAPES_MAX / 2;

/* The shape of the ad attrs[0..n), whose first n - 1 names are the shape
 * from's and whose last is name: the step kept with from, else looked up
 * (and kept). 0 when the table has no room for it. */
static uint32_t
shape_next(uint32_t from, const ca_name *name, const ca_attr *attrs, uint32_t n)
{
	struct ca_shape *sh = &shapes.at.at[from - 1];

	for (int i = 0; i < CA_SHAPE_NEXT; i++)
		if (sh->next[i].name == name)
			return sh->next[i].shape;
	uint32_t to = shapes.at.n < ca_shapes_grow_max_ ? ca_ad_shape_of(attrs, n) : 0;
	if (to == 0)
		return 0;
	sh = &shapes.at.at[from - 1];	/* the table may have moved */
	sh->next[sh->next_at].name = name;
	sh->next[sh->next_at].shape = to;
	sh->next_at = (sh->next_at + 1) % CA_SHAPE_NEXT;
	return to;
}

void
ca_ad_reserve(ca_ad *ad, uint32_t n, size_t bytes)
{
	if (ad->n != 0 || ca_table_of(ad) == CA_TABLE_FIXED || n == 0 || n > UINT32_MAX / 4)
		return;
	table_resize(ad, n, 0);
	ca_arena_reserve(ad->arena, bytes < 65536 ? bytes : 65536);
}

void
ca_ad_trim(ca_ad *ad)
{
	ca_ad_trim_shaped(ad, ca_ad_shape_of(ad->attrs, ad->n), 0);
}

/* ad's table for shape, with room for `room` names more (and not twice
 * that): a shaped ad shares the shape's index. */
static void
shape_table(ca_ad *ad, uint32_t shape, uint32_t room)
{
	uint32_t cap = ad->n + room;

	ad->shape = shape;
	if (ca_table_of(ad) != CA_TABLE_HEAP || ad->n == 0)
		return;
	if (ad->shape != 0) {
		/* the shape's index, and a table of the attributes */
		const struct ca_shape *sh = &shapes.at.at[ad->shape - 1];
		if (ad->cap < cap || ad->cap - cap > room || ad->icap != 0)
			table_resize(ad, cap, 0);
		ad->index = sh->index;
		ad->icap = sh->icap;
		if (sh->index)
			ad->table |= CA_TABLE_SHARED_INDEX;
		return;
	}
	if (ad->cap <= cap + room)	/* not grown: an ad without a shape is rare */
		return;
	uint32_t *old = ad->index;
	if (old == NULL) {
		table_resize(ad, cap, 0);
		return;
	}
	/* the index sits after the attributes: move it down, then shrink */
	memmove(ad->attrs + cap, old, ad->icap * sizeof *old);
	ad->index = (uint32_t *)(ad->attrs + cap);
	table_resize(ad, cap, ad->icap);
}

void
ca_ad_trim_shaped(ca_ad *ad, uint32_t shape, uint32_t room)
{
	ad->stamp = ++ca_stamps_;	/* complete: what was appended counts */
	shape_table(ad, shape, room);
}

void
ca_ad_reshape(ca_ad *ad)
{
	const struct ca_shape *sh = ca_ad_shape(ad->shape);

	if ((sh != NULL && sh->n == ad->n) || ad->n == 0 || ca_table_of(ad) != CA_TABLE_HEAP ||
	    shapes.at.n >= SHAPES_MAX)
		return;
	shape_table(ad, ca_ad_shape_of(ad->attrs, ad->n), 0);
}

void
ca_ad_prefetch(const ca_ad *ad, const ca_name *const *which, size_t n, int stage)
{
	if (stage == 0) {
		__builtin_prefetch(ad);
		return;
	}
	if (ad->index == NULL) {	/* a small table: all of it */
		if (stage == 1)
			for (size_t off = 0; off < ad->n * sizeof(ca_attr); off += 64)
				__builtin_prefetch((const char *)ad->attrs + off);
		return;
	}
	uint32_t k = ad->shape % CA_NAME_AT, mask = ad->icap - 1;
	for (size_t i = 0; i < n; i++) {
		const ca_name *nm = which[i];
		bool known = nm->at[k].shape == ad->shape && nm->at[k].pos < ad->n;
		const uint32_t *slot = ad->index + (nm->hash & mask);
		if (stage == 1)
			__builtin_prefetch(known ? (const void *)(ad->attrs + nm->at[k].pos) :
			    (const void *)slot);
		else if (!known && index_place(ad->icap, nm->hash, *slot) != 0)
			__builtin_prefetch(ad->attrs + index_place(ad->icap, nm->hash, *slot) - 1);
	}
}

/* at's expression is e. Its name and busy mark stay. */
void
ca_attr_set_expr(ca_attr *at, ca_expr *e)
{
	at->expr_ = e;
	at->kind_ = CA_UNDEFINED;
	at->lit_cached = 0;
	at->as_read = 0;
	at->x_ = 0;
}

ca_attr *
ca_ad_findn(const ca_ad *ad, const char *s, size_t len)
{
	const ca_name *nm = ca_intern_find(s, len);

	return nm ? ca_ad_find(ad, nm) : NULL;
}

ca_expr *
ca_ad_lookup(const ca_ad *ad, const char *name)
{
	ca_attr *at = ca_ad_findn(ad, name, strlen(name));

	return at ? ca_attr_expr(ad, at) : NULL;
}

/* The number of name spelled spell (NULL: its own spelling). A spelling
 * differs from the name's only in case, so it is the name's length: no
 * strlen, and the name's own text at another address is found at once. */
static uint32_t
spelling_id(const ca_name *name, const char *spell)
{
	if (spell == NULL || spell == name->spell)
		return name->id;
#ifdef CA_SELFCHECK
	if (strlen(spell) != name->len)
		abort();
#endif
	return ca_intern_spelling(name, spell, name->len);
}

/* name, which ad lacks, added to it holding e: its entry. */
static ca_attr *
add_entry(ca_ad *ad, const ca_name *name, const char *spell, ca_expr *e)
{
	/* An ad that shares its shape's index and has just its names takes
	 * the shape of its names with this one (shape_next) and its index.
	 * Otherwise it keeps its index for a few names more (a slot's
	 * attributes that a program adds), which ca_ad_find_slow looks for
	 * after the shape's; past EXTRAS_MAX it gets its own. */
	const struct ca_shape *sh = ad->table & CA_TABLE_SHARED_INDEX ? ca_ad_shape(ad->shape) : NULL;
	bool grow = sh != NULL && ad->n == sh->n;
	if (sh != NULL && ad->n - sh->n >= EXTRAS_MAX) {
		index_build(ad);
		sh = NULL;
	}
	if (ad->n == ad->cap) {
		if (ad->cap >= UINT32_MAX / 4)
			ca_xmalloc(SIZE_MAX);	/* reports out of memory */
		/* a packed ad gets room for a few more; a growing one doubles */
		uint32_t cap = ca_table_of(ad) == CA_TABLE_FIXED ? ad->n + EXTRAS_MAX :
		    ad->cap ? ad->cap * 2 : 8;
		table_resize(ad, cap < 8 ? 8 : cap, sh != NULL ? 0 : ad->icap);
		if (sh != NULL) {
			ad->index = sh->index;
			ad->icap = sh->icap;
			ad->table |= CA_TABLE_SHARED_INDEX;
		} else if (ad->index)
			index_build(ad);
	}
	ca_attr *at = &ad->attrs[ad->n++];
	at->name_id = spelling_id(name, spell);
	at->busy = 0;
	ca_attr_set_expr(at, e);
	uint32_t to = grow ? shape_next(ad->shape, name, ad->attrs, ad->n) : 0;
	if (to != 0) {
		sh = ca_ad_shape(to);
		ad->shape = to;
		ad->index = sh->index;
		ad->icap = sh->icap;
		return at;
	}
	if (ad->n > CA_INDEX_FROM && sh == NULL) {	/* index_build may move the table */
		if (ad->n * 2 + 2 > ad->icap)
			index_build(ad);
		else {
			uint32_t mask = ad->icap - 1, j = name->hash & mask;
			while (ad->index[j])
				j = (j + 1) & mask;
			ad->index[j] = (name->hash & index_tags(ad->icap)) | ad->n;
		}
	}
	return &ad->attrs[ad->n - 1];
}

void
ca_ad_set(ca_ad *ad, const ca_name *name, const char *spell, ca_expr *e)
{
	ca_ad_set_found(ad, ca_ad_find(ad, name), name, spell, e);
}

void
ca_ad_set_found(ca_ad *ad, ca_attr *at, const ca_name *name, const char *spell, ca_expr *e)
{
	ca_ad_changed(ad, name);
	if (at)
		ca_attr_set_expr(at, e);
	else
		(void)add_entry(ad, name, spell, e);
}

/* A new last entry named name_id in ad, whose own table has no index
 * yet, for the caller to fill: it gets its index once it is large. */
static ca_attr *
append_entry(ca_ad *ad, uint32_t name_id)
{
	if (ad->n == ad->cap) {
		if (ad->cap >= UINT32_MAX / 4)
			ca_xmalloc(SIZE_MAX);	/* reports out of memory */
		table_resize(ad, ad->cap ? ad->cap * 2 : 16, 0);
	}
	ca_attr *at = &ad->attrs[ad->n++];
	at->name_id = name_id;
	at->busy = 0;
	if (ad->n >= CA_INDEX_APPEND)
		index_build(ad);	/* the table may move */
	return &ad->attrs[ad->n - 1];
}

void
ca_ad_append(ca_ad *ad, const ca_name *name, const char *spell, ca_expr *e)
{
	ca_ad_counted(ad);
	if (ad->index != NULL || ca_table_of(ad) != CA_TABLE_HEAP) {
		ca_ad_set(ad, name, spell, e);
		return;
	}
	ca_attr_set_expr(append_entry(ad, spelling_id(name, spell)), e);
}

/* at (the ad's, in arena a) keeps text s[0..n), copied unless at_place;
 * text longer than an entry can say is made its node now */
static void
attr_keep_src(ca_attr *at, ca_arena *a, const char *s, size_t n, bool at_place)
{
	const char *text = s;

	if (n > CA_SRC_MAX) {
		ca_attr_set_expr(at, ca_expr_kept(a, s, n));
		return;
	}
	if (!at_place) {
		char *t = ca_arena_alloc(a, n + 1);
		memcpy(t, s, n);
		t[n] = '\0';
		text = t;
	}
	ca_attr_keep_src(at, text, n);
}

void
ca_ad_append_kept(ca_ad *ad, const ca_name *name, const char *s, size_t n, bool at_place)
{
	ca_attr *at;

	ca_ad_counted(ad);
	if (ad->index != NULL || ca_table_of(ad) != CA_TABLE_HEAP)
		at = ca_ad_entry(ad, name, NULL);
	else
		at = append_entry(ad, name->id);
	attr_keep_src(at, ad->arena, s, n, at_place);
}

void
ca_ad_append_src(ca_ad *ad, const ca_name *name, const char *s, size_t n)
{
	ca_ad_append_kept(ad, name, s, n, false);
}

/* what a new entry holds until its caller fills it */
static const ca_expr placeholder = { .node = CA_N_LIT };

ca_attr *
ca_ad_entry_new(ca_ad *ad, const ca_name *name, const char *spell)
{
	ca_ad_changed(ad, name);
	return add_entry(ad, name, spell, (ca_expr *)(uintptr_t)&placeholder);
}

void
ca_ad_put_value(ca_ad *ad, const ca_name *name, const char *spell, ca_attr *at, ca_value v)
{
	if (at == NULL)
		at = ca_ad_entry_new(ad, name, spell);
	else
		ca_ad_changed(ad, name);
	ca_attr_put_value(at, v);
}

uint32_t
ca_ad_full_shape(const ca_ad *ad)
{
	const struct ca_shape *sh = ca_ad_shape(ad->shape);

	return sh != NULL && sh->n == ad->n ? ad->shape : 0;
}

bool
ca_ad_append_run(ca_ad *ad, const ca_attr *run, uint32_t n, uint32_t to)
{
	const struct ca_shape *sh = ca_ad_shape(ad->shape), *t = ca_ad_shape(to);

	if (sh == NULL || t == NULL || ad->n != sh->n || t->n != ad->n + n || t->index == NULL ||
	    ca_table_of(ad) != CA_TABLE_HEAP || !(ad->table & CA_TABLE_SHARED_INDEX))
		return false;
	for (uint32_t k = 0; k < n; k++)
		if (t->names[ad->n + k] != ca_attr_name(&run[k]))
			return false;
	if (ad->cap < t->n)
		table_resize(ad, t->n, 0);
	for (uint32_t k = 0; k < n; k++) {
		ca_ad_changed(ad, ca_attr_name(&run[k]));
		ca_attr *at = &ad->attrs[ad->n + k];
		*at = run[k];
		at->busy = 0;
	}
	ad->n = t->n;
	ad->shape = to;
	ad->index = t->index;
	ad->icap = t->icap;
	ad->table |= CA_TABLE_SHARED_INDEX;
	return true;
}

ca_attr *
ca_ad_entry(ca_ad *ad, const ca_name *name, const char *spell)
{
	ca_attr *at = ca_ad_find(ad, name);

	return at != NULL ? at : ca_ad_entry_new(ad, name, spell);
}

void
ca_ad_put_back(ca_ad *ad, const ca_attr *saved)
{
	ca_attr *at = ca_ad_find(ad, ca_attr_name(saved));

	if (at == NULL) {	/* deleted meanwhile */
		ca_attr copy = *saved;
		ca_ad_set(ad, ca_attr_name(saved), ca_attr_spell(saved), ca_attr_expr(ad, &copy));
		return;
	}
	ca_ad_changed(ad, ca_attr_name(saved));
	uint8_t busy = at->busy;
	*at = *saved;
	at->busy = busy;
}

void
ca_ad_keep_text(ca_ad *ad, struct ca_ad_text *t)
{
	t->version = ad->version;
	ad->text = t;
}

void
ca_ad_set_src(ca_ad *ad, const ca_name *name, const char *spell, const char *s, size_t n)
{
	ca_attr *at = ca_ad_entry(ad, name, spell);

	ca_ad_changed(ad, name);
	attr_keep_src(at, ad->arena, s, n, false);
}

/* names deleted in one pass (ca_ad_delete_all takes more, a batch at a time) */
#define DELETE_BATCH 64

size_t
ca_ad_delete_all(ca_ad *ad, const ca_name *const *which, size_t n)
{
	if (n > DELETE_BATCH)
		return ca_ad_delete_all(ad, which, DELETE_BATCH) +
		    ca_ad_delete_all(ad, which + DELETE_BATCH, n - DELETE_BATCH);
	uint32_t at[DELETE_BATCH], k = 0;
	for (size_t i = 0; i < n; i++) {
		const ca_attr *a = ca_ad_find(ad, which[i]);
		if (a == NULL)
			continue;
		ca_ad_changed(ad, which[i]);
		/* the places in order (a name given twice is there once) */
		uint32_t p = (uint32_t)(a - ad->attrs), j = k++;
		while (j > 0 && at[j - 1] > p) {
			at[j] = at[j - 1];
			j--;
		}
		at[j] = p;
	}
	if (k == 0)
		return 0;
	if (ca_table_of(ad) == CA_TABLE_FIXED)
		table_resize(ad, ad->cap, ad->icap);
	/* the attributes kept move down over the places deleted */
	uint32_t w = at[0], j = 0;
	for (uint32_t r = at[0]; r < ad->n; r++) {
		if (j < k && at[j] == r) {
			while (j < k && at[j] == r)
				j++;
			continue;
		}
		ad->attrs[w++] = ad->attrs[r];
	}
	size_t gone = ad->n - w;
	ad->n = w;
	ad->shape = 0;		/* the places after the first moved */
	if (ad->index)
		index_build(ad);
	return gone;
}

bool
ca_ad_delete(ca_ad *ad, const ca_name *name)
{
	return ca_ad_delete_all(ad, &name, 1) > 0;
}

const ca_expr *
ca_attr_tree(const ca_attr *at)
{
	if (at->lit_cached)	/* a literal's value, or its text */
		return NULL;
	return at->expr_->node == CA_N_LIT ? NULL : at->expr_;
}

void
ca_ad_clear(ca_ad *ad)
{
	ca_ad_changed(ad, NULL);
	ad->text = NULL;	/* its arena goes */
	ad->n = 0;
	ad->shape = 0;
	if (ad->table & CA_TABLE_SHARED_INDEX) {
		ad->index = NULL;
		ad->icap = 0;
		ad->table &= ~CA_TABLE_SHARED_INDEX;
	} else if (ad->index)
		memset(ad->index, 0, ad->icap * sizeof *ad->index);
	ca_arena_reset(ad->arena);
}
