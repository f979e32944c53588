/* ad.h - ClassAds (records) and interned, case-folded attribute names.
 * An ad keeps its attributes in insertion order with a hash index for lookup. */
#ifndef CA_AD_H
#define CA_AD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

/* An interned attribute name. Two names that differ only in ASCII case are
 * the same ca_name, so lookup compares pointers. `spell` is the spelling seen
 * first; `key` the lower-cased text. Names live until ca_intern_cleanup(). */
typedef struct ca_name {
	uint32_t hash;
	uint32_t len;
	const char *spell;
	char key[];
} ca_name;

/* The intern table is the library's only process-wide state; it is not
 * thread-safe. ca_intern_cleanup() frees it (programs call it at exit so the
 * leak checker stays quiet). */
const ca_name *ca_intern(const char *s, size_t len);
const ca_name *ca_intern_find(const char *s, size_t len);	/* NULL if never interned */
void ca_intern_cleanup(void);

struct ca_expr;

typedef struct ca_attr {
	const ca_name *name;
	const char *spell;		/* spelling of this ad's first definition */
	struct ca_expr *expr;		/* lives in the ad's arena */
	uint32_t busy;			/* set while being evaluated: cycle detection */
} ca_attr;

typedef struct ca_ad {
	ca_arena *arena;		/* where attrs, index and expressions live */
	ca_attr *attrs;			/* insertion order */
	uint32_t n, cap;
	uint32_t *index;		/* open addressing, attr index + 1; NULL while small */
	uint32_t icap;			/* power of two, or 0 */
	bool own_arena;			/* ca_ad_free frees the arena too */
} ca_ad;

/* A top-level ad with an arena of its own; free with ca_ad_free. */
ca_ad *ca_ad_new(void);
/* An ad allocated in arena a (nested ads inside expressions); freed with a. */
ca_ad *ca_ad_new_in(ca_arena *a);
void ca_ad_free(ca_ad *ad);

/* Insert or replace. Replacing keeps the position and the first spelling.
 * e must live in ad->arena (use ca_ad_set_copy otherwise). spell may be NULL
 * (the interned spelling is used) and must live in ad->arena or the intern table. */
void ca_ad_set(ca_ad *ad, const ca_name *name, const char *spell, struct ca_expr *e);
/* Insert a deep copy of e (from any arena) under the name text s. */
void ca_ad_set_copy(ca_ad *ad, const char *s, size_t len, const struct ca_expr *e);
ca_attr *ca_ad_find(const ca_ad *ad, const ca_name *name);
ca_attr *ca_ad_findn(const ca_ad *ad, const char *s, size_t len);	/* by text */
struct ca_expr *ca_ad_lookup(const ca_ad *ad, const char *name);	/* by C string */
bool ca_ad_delete(ca_ad *ad, const ca_name *name);
/* Copy every attribute of src into dst (deep copies; later wins). */
void ca_ad_merge(ca_ad *dst, const ca_ad *src);
/* A deep copy with its own arena. */
ca_ad *ca_ad_copy(const ca_ad *src);
/* A deep copy allocated in arena a. */
ca_ad *ca_ad_copy_in(ca_arena *a, const ca_ad *src);

#endif
