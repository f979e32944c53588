/* ad.h - ClassAds (records) and interned, case-folded attribute names.
 * An ad keeps its attributes in insertion order with a hash index for lookup. */
#ifndef CA_AD_H
#define CA_AD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "node.h"
#include "value.h"

/* An interned attribute name. Two names that differ only in ASCII case are
 * the same ca_name, so lookup compares pointers. `spell` is the spelling seen
 * first; `key` the lower-cased text. Names live until ca_intern_cleanup().
 * `at` remembers where the name was last found in ads of a few shapes (see
 * ca_ad): a cache, checked before it is believed. A name has a number, and
 * so has each other spelling of it an ad was given (ca_intern_spelling):
 * an attribute keeps one of them. */
#define CA_NAME_AT 8
/* at[].pos CA_POS_ABSENT + n: not among the n names of the shape */
#define CA_POS_ABSENT 0x80000000u
typedef struct ca_name {
	uint32_t hash;
	uint32_t len;
	struct { uint32_t shape, pos; } at[CA_NAME_AT];	/* by shape % CA_NAME_AT */
	const char *spell;
	uint32_t id;		/* its number, spelled as spell */
	uint32_t others;	/* the number of its latest other spelling, or 0 */
	uint8_t long_plain;	/* the long format's writer: spell needs no
				 * quotes (1), does (2), not known yet (0) */
	uint8_t watched;	/* its changes give an ad a new stamp (ca_name_watch) */
	char key[];
} ca_name;

/* What a name's number, or an other spelling's, stands for: the name and
 * the spelling. Numbers count from 1; an other spelling's has
 * CA_NAME_OTHER set too, so that comparing numbers tells most names apart
 * without looking them up. */
struct ca_name_id {
	const ca_name *name;
	const char *spell;
	uint32_t older;		/* the name's spelling numbered before, or 0 */
	uint32_t len;		/* of the name (every spelling's): one load less */
};
#define CA_NAME_OTHER	0x80000000u
extern struct ca_name_id *ca_name_ids_;

static inline const struct ca_name_id *
ca_name_id_of(uint32_t id)
{
	return &ca_name_ids_[id & ~CA_NAME_OTHER];
}

/* The number of nm spelled s[0..len): nm->id when spell is nm->spell,
 * else that of the spelling, numbered now if new. */
uint32_t ca_intern_spelling(const ca_name *nm, const char *s, size_t len);

/*
 * Watched names. An ad is given a stamp when it is made, and a new one at
 * every change of an attribute whose name is watched (and at a change of
 * them all, ca_ad_clear); stamps come from one counter for every ad of the
 * process and never repeat. So two equal stamps are one ad, none of whose
 * watched attributes changed in between: a program that reads only watched
 * names of an ad can tell it would read the same again, without reading
 * it, even when the ad it saw is gone and another took its memory. A name
 * is watched from ca_name_watch on, for every ad. Appending (ca_ad_append
 * and its kin) builds an ad no one has looked at yet: its stamp is renewed
 * once, when it is complete (ca_ad_trim).
 */
void ca_name_watch(const ca_name *nm);

/* The intern table (and the stamps' counter) is the library's only
 * process-wide state; it is not thread-safe. ca_intern_cleanup() frees it
 * (programs call it at exit so the leak checker stays quiet). */
const ca_name *ca_intern(const char *s, size_t len);
const ca_name *ca_intern_find(const char *s, size_t len);	/* NULL if never interned */
void ca_intern_cleanup(void);
/* Another process-wide table's cleanup, for ca_intern_cleanup() to call. */
void ca_intern_at_cleanup(void (*fn)(void));

/* The spelling of nm to keep where s[0..len) names it: nm->spell when that
 * is the same text, else a copy in arena a. */
static inline const char *
ca_name_spelling(ca_arena *a, const ca_name *nm, const char *s, size_t len)
{
	if (memcmp(nm->spell, s, len) == 0)
		return nm->spell;
	return ca_arena_strndup(a, s, len);
}

struct ca_expr;

/* An attribute: 16 bytes. Its name (as the ad spells it) is a number, and
 * it holds its expression, or, until something asks for that (CA_LIT_LAZY),
 * a literal's value in pieces or its source text. Set it only through
 * ca_ad_set and its kin. */
typedef struct ca_attr {
	union {
		struct ca_expr *expr_;	/* in the ad's arena, or a shared tree:
					 * read it with ca_attr_expr */
		union ca_payload u_;	/* the value's payload (CA_LIT_VALUE) or
					 * the source text (CA_KIND_SRC) */
	};
	uint32_t name_id;	/* the name as spelled: ca_attr_name, ca_attr_spell */
	uint8_t kind_;		/* the value's kind (CA_LIT_VALUE), or CA_KIND_SRC */
	uint8_t lit_cached : 2;	/* CA_LIT_* */
	uint8_t busy : 2;	/* being evaluated: cycle detection */
	uint8_t as_read : 1;	/* the value (or literal node) of its text
				 * kept in the ad's lines (ca_ad_lines),
				 * which is still its line there
				 * (ca_attr_read_src, ca_attr_make_expr) */
	uint16_t x_;		/* a string's or list's length, an absolute
				 * time's offset, the source text's length */
} ca_attr;

/* at's name. */
static inline const ca_name *
ca_attr_name(const ca_attr *at)
{
	return ca_name_id_of(at->name_id)->name;
}

/* Whether at is the attribute named nm (however spelled). */
static inline bool
ca_attr_is(const ca_attr *at, const ca_name *nm)
{
	return at->name_id == nm->id || ((at->name_id & CA_NAME_OTHER) && ca_attr_name(at) == nm);
}

/* Whether an entry can hold v: a length or offset that fits its 16 bits
 * (a longer string is read from its node). */
static inline bool
ca_attr_fits(ca_value v)
{
	switch (v.kind) {
	case CA_STRING:
	case CA_LIST:
		return v.x.len <= UINT16_MAX;
	case CA_ABSTIME:
		return v.x.off >= INT16_MIN && v.x.off <= INT16_MAX;
	default:
		return true;
	}
}

/* Whether an entry holds v as its value rather than in a node
 * (ca_attr_put_value): no list or ad, and it fits. */
static inline bool
ca_attr_holds(ca_value v)
{
	return v.kind != CA_LIST && v.kind != CA_AD && ca_attr_fits(v);
}

/* The value an entry holds (CA_LIT_VALUE). */
static inline ca_value
ca_attr_value(const ca_attr *at)
{
	ca_value v;

	v.kind = at->kind_;
	if (at->kind_ == CA_ABSTIME)
		v.x.off = (int16_t)at->x_;
	else
		v.x.len = at->x_;
	v.u = at->u_;
	return v;
}

/* lit_cached: the entry holds a literal's value (that fits it), not its
 * node (then CA_LIT_LAZY too) */
#define CA_LIT_VALUE	1
/* lit_cached: the expression is made the first time something reads it
 * (ca_attr_expr), in the ad's arena: from its source text (kind_ is then
 * CA_KIND_SRC), or as the node of the literal the entry holds (an ad
 * packed to be held, whose literals then take no node unless something
 * asks) */
#define CA_LIT_LAZY	2

/* at holds v (ca_attr_fits), its kind, payload and length, with no node
 * until something asks for one (CA_LIT_VALUE | CA_LIT_LAZY). */
static inline void
ca_attr_put_value(ca_attr *at, ca_value v)
{
	at->kind_ = v.kind;
	at->x_ = v.kind == CA_ABSTIME ? (uint16_t)(int16_t)v.x.off : (uint16_t)v.x.len;
	at->u_ = v.u;
	at->lit_cached = CA_LIT_VALUE | CA_LIT_LAZY;
	at->as_read = 0;
}

/* kind_ of an attribute whose expression is kept as its source text, to be
 * parsed the first time something reads it (ca_ad_append_src): a reader
 * that passes ads through keeps the literals it was sure of so, and writes
 * them back as they came. u_.s and x_ hold the text, at most
 * CA_SRC_MAX bytes. */
#define CA_KIND_SRC	0x7f
#define CA_SRC_MAX	UINT16_MAX

struct ca_ad;
struct ca_expr *ca_attr_make_expr(const struct ca_ad *ad, ca_attr *at);
/* at, kept as its source text (CA_KIND_SRC), read: it holds the literal's
 * value from now on (true), or its node when the value does not fit the
 * entry (false). */
bool ca_attr_read_src(const struct ca_ad *ad, ca_attr *at);

/* at's expression (at is an attribute of ad), made now in ad's arena if it
 * is not yet (CA_LIT_LAZY). An ad is read by one thread at a time, so that
 * may write through const. */
static inline struct ca_expr *
ca_attr_expr(const struct ca_ad *ad, const ca_attr *at)
{
	if (__builtin_expect(at->lit_cached & CA_LIT_LAZY, 0))
		return ca_attr_make_expr(ad, (ca_attr *)(uintptr_t)at);
	return at->expr_;
}

/* Whether at's expression is a literal, the entry's or a node's, and then
 * its value in *v: what a look-up needs, without making the expression.
 * Source text kept as it is is not read here. */
static inline bool
ca_attr_lit(const ca_attr *at, ca_value *v)
{
	if (at->lit_cached & CA_LIT_VALUE) {
		*v = ca_attr_value(at);
		return true;
	}
	if (at->lit_cached != 0 || at->expr_->node != CA_N_LIT)
		return false;
	*v = at->expr_->u.lit;
	return true;
}

/* ca_attr_lit of an attribute of ad, text kept as it is read first (it
 * then holds its value: ca_attr_read_src): whether at is a literal, and
 * its value, without making a node for it. */
static inline bool
ca_attr_lit_in(const struct ca_ad *ad, ca_attr *at, ca_value *v)
{
	if (__builtin_expect(at->kind_ == CA_KIND_SRC, 0))
		(void)ca_attr_read_src(ad, at);
	return ca_attr_lit(at, v);
}

/* The source text of at (and its length) while it is kept as such, else
 * NULL. */
static inline const char *
ca_attr_src(const ca_attr *at, size_t *len)
{
	if (at->kind_ != CA_KIND_SRC)
		return NULL;
	*len = at->x_;
	return at->u_.s;
}

/* The name of at as its ad first spelled it. */
static inline const char *
ca_attr_spell(const ca_attr *at)
{
	return ca_name_id_of(at->name_id)->spell;
}

/* The tree of at as a walk of references sees it (which never looks into
 * a literal): NULL for a literal, kept as its value or as its source text. */
const struct ca_expr *ca_attr_tree(const ca_attr *at);

typedef struct ca_ad {
	ca_arena *arena;		/* where expressions (and nested ads' tables) live */
	ca_attr *attrs;			/* insertion order */
	uint32_t n, cap;
	uint32_t *index;		/* open addressing, attr index + 1; NULL while small */
	uint32_t icap;			/* power of two, or 0 */
	uint32_t shape;			/* its names in their order, as a number
					 * (ca_ad_trim); 0: not known */
	uint32_t version;		/* counts the changes of its attributes, so
					 * that a simulator can tell an ad is as it
					 * was (it may wrap) */
	uint64_t stamp;			/* see ca_ad_stamp */
	bool own_arena;			/* ca_ad_free frees the arena too */
	uint8_t table;			/* where attrs and index live (ad.c) */
	const struct ca_ad_text *text;	/* its text in the long format as it was
					 * read (ca_ad_keep_text) */
} ca_ad;

/* ad's stamp (see ca_name_watch). */
static inline uint64_t
ca_ad_stamp(const ca_ad *ad)
{
	return ad->stamp;
}

/* An ad's lines in the long format, s[0..len), as they were when the ad's
 * version was `version`: in own[], in its arena, or where the reader read
 * them when that memory stays (ca_reader_mem_stays). */
struct ca_ad_text {
	const char *s;
	size_t len;
	uint32_t version;
	char own[];
};

/* A top-level ad with an arena of its own; free with ca_ad_free. */
ca_ad *ca_ad_new(void);
/* An ad allocated in arena a (nested ads inside expressions); freed with a. */
ca_ad *ca_ad_new_in(ca_arena *a);
void ca_ad_free(ca_ad *ad);

/* Insert or replace. Replacing keeps the position and the first spelling.
 * e must live in ad->arena. spell may be NULL (the interned spelling is
 * used); another spelling is numbered (ca_intern_spelling), so it need not
 * live on. (ca_ad_set_copy in expr.h copies an expression from elsewhere.) */
void ca_ad_set(ca_ad *ad, const ca_name *name, const char *spell, struct ca_expr *e);
/* ad's shape when it has just the names of that shape (a number, as
 * ca_ad_trim finds it), else 0. */
uint32_t ca_ad_full_shape(const ca_ad *ad);
/* Entries added to an ad that has just the names of its shape, as the
 * same sets (in the same order) left another ad of that shape, which then
 * had shape `to`: run[0..n), whose values are the store's shared trees or
 * literals the entries hold, are copied, and ad takes shape `to`. False,
 * and nothing done, when ad or `to` is not so. What a program that adds
 * the same names to every ad it reads keeps from the first of a shape. */
bool ca_ad_append_run(ca_ad *ad, const ca_attr *run, uint32_t n, uint32_t to);
/* ca_ad_set by a caller that has just looked for name in ad: at is what
 * ca_ad_find answered (NULL: the name is added without a second look). */
void ca_ad_set_found(ca_ad *ad, ca_attr *at, const ca_name *name, const char *spell,
    struct ca_expr *e);
ca_attr *ca_ad_find_slow(const ca_ad *ad, const ca_name *name);
/* The attribute name of ad, or NULL. Ads of one shape list the same names
 * in the same order, so the place the name was last found in an ad of
 * this shape is checked first, inline, and so is its absence from an ad
 * with just its shape's names (a shape's first names are its ads'); the
 * hash index is the slow path. */
static inline ca_attr *
ca_ad_find(const ca_ad *ad, const ca_name *name)
{
	uint32_t k = ad->shape % CA_NAME_AT, h = name->at[k].pos;

	if (name->at[k].shape == ad->shape) {
		if (h < ad->n && ca_attr_is(&ad->attrs[h], name))
			return &ad->attrs[h];
		if (h == CA_POS_ABSENT + ad->n && ad->shape != 0)
			return NULL;
	}
	return ca_ad_find_slow(ad, name);
}
ca_attr *ca_ad_findn(const ca_ad *ad, const char *s, size_t len);	/* by text */
struct ca_expr *ca_ad_lookup(const ca_ad *ad, const char *name);	/* by C string */
bool ca_ad_delete(ca_ad *ad, const ca_name *name);
/* ca_ad_delete of each of which[0..n) that ad has, with one new index for
 * them all (a program that drops a set of attributes at once): how many
 * went. */
size_t ca_ad_delete_all(ca_ad *ad, const ca_name *const *which, size_t n);
/* Put back an attribute of ad as it was when *saved was copied from its
 * entry (ad's own, not another's), after ca_ad_set changed it: what a
 * program that sets values for a while remembers, without making the
 * expression of a literal that has none (CA_LIT_LAZY). */
void ca_ad_put_back(ca_ad *ad, const ca_attr *saved);
/* ca_ad_set of a name the caller knows ad does not have (a reader
 * building an ad): no look-up, and no index nor new stamp until
 * ca_ad_trim. */
void ca_ad_append(ca_ad *ad, const ca_name *name, const char *spell, struct ca_expr *e);
/* The same for a literal's source text s[0..n) in the long format's old
 * syntax, which the caller has made sure parses to one literal: it is
 * copied and parsed only when something reads it. name is not in ad yet. */
void ca_ad_append_src(ca_ad *ad, const ca_name *name, const char *s, size_t n);
/* Insert or replace with such text (a copy of an attribute kept so),
 * spelled as ca_ad_set spells. */
void ca_ad_set_src(ca_ad *ad, const ca_name *name, const char *spell, const char *s, size_t n);
/* A reader that has copied the lines of ad, as it completes it, to t (in
 * ad's arena, or t says where they stay), each exactly as the long
 * format's writer prints that attribute, keeps them with it: the writer then copies them while the ad
 * does not change, and after a change still copies the runs of lines whose
 * attributes are kept as text there (ca_ad_lines). */
void ca_ad_keep_text(ca_ad *ad, struct ca_ad_text *t);
/* The lines of ad as it was read, and their length, or NULL: while it has
 * not changed, its text (ca_ad_text); after, what its attributes still
 * kept as text there point into. */
static inline const char *
ca_ad_lines(const ca_ad *ad, size_t *len)
{
	if (ad->text == NULL)
		return NULL;
	*len = ad->text->len;
	return ad->text->s;
}
static inline const char *
ca_ad_text(const ca_ad *ad, size_t *len)
{
	if (ad->text == NULL || ad->text->version != ad->version)
		return NULL;
	return ca_ad_lines(ad, len);
}
/* Once ad is complete: give back the unused room of its attribute table,
 * and find its shape (ads read from one stream mostly share a few); ads of
 * one shape share one hash index. */
void ca_ad_trim(ca_ad *ad);
/* The same, for the shape (a number, 0 for none) of ad's names, which
 * the caller knows; room for `room` names more is kept (ca_reader_room). */
void ca_ad_trim_shaped(ca_ad *ad, uint32_t shape, uint32_t room);
/* A deletion takes an ad's shape away (the places after it moved), and
 * names added after its shape's are found more slowly (and make a copy
 * find its shape afresh): this gives ad the shape of the names it has
 * now, as ca_ad_trim would, but keeps its stamp (no attribute changed).
 * Nothing when it has just its shape's names. What a program that keeps
 * ads for long and changes their names calls at a quiet point. */
void ca_ad_reshape(ca_ad *ad);
/* Before the first attribute of a new ad: room for n attributes, and a
 * first arena chunk of bytes (what a reader expects from the ad, after the
 * ad before; 0 for none), so that setting them (a reader's ad, a copy of
 * an ad of n) makes no table again and again. */
void ca_ad_reserve(ca_ad *ad, uint32_t n, size_t bytes);
/* ca_ad_new, then ca_ad_reserve(n, bytes): with the table and arena chunk
 * of an ad freed before when they fit, the table room for n and not for
 * twice that, the chunk from half to four times bytes (a reader making
 * each ad like the last it freed). */
ca_ad *ca_ad_new_sized(uint32_t n, size_t bytes);
/* A copy of src (with its own arena) in one allocation sized to it, its
 * shared trees shared: what a reader hands out for an ad it built in a
 * scratch ad. */
ca_ad *ca_ad_pack(const ca_ad *src);
/* ca_ad_pack without copying the expressions: the ad's are src's own (the
 * table is its own). It may be changed by setting and deleting attributes
 * (ca_ad_set, ca_ad_hold, ca_ad_delete), never by changing an expression
 * in place (ca_ad_set_lit), and must be freed before src is changed or
 * freed: a negotiator's copies of a pool's slots for one cycle. */
ca_ad *ca_ad_pack_borrowed(const ca_ad *src);
/* Empty ad (which has its own arena) for reuse: no attributes, its arena
 * reset, its memory kept. */
void ca_ad_clear(ca_ad *ad);
/* For loops that look up the same names in many ads (an expression
 * evaluated against every slot of a pool): ca_ad_prefetch asks the
 * processor to fetch, in stages, what ca_ad_find will touch. Stage 0
 * fetches the ad; stage 1 the attributes where the names are in ads of
 * its shape, or else their index entries; stage 2 the attributes those
 * entries point to. Each stage needs the memory of the one before, so the
 * loop runs stage s some ads ahead of stage s + 1, and the lookups last. */
void ca_ad_prefetch(const ca_ad *ad, const ca_name *const *which, size_t n, int stage);

#endif
