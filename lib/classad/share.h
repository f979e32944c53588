/* share.h - what ads share: literals and expression trees kept once for the
 * whole process, found by their text or value (hash-consing). Core-private. */

/*
 * Ads read from a stream hold the same expressions and values again and
 * again: the START expression or the "X86_64" of twenty thousand slot ads.
 * The store keeps each once. A shared tree is immutable and lives until
 * ca_intern_cleanup(); its root carries CA_EXPR_SHARED in its flags, and
 * copies of an ad take it as it is (ca_expr_copy does not copy it). Its
 * root also remembers its text in the old syntax once printed, so writing
 * it again is a copy of bytes.
 *
 * Something enters the store the second time it is seen (a table of
 * fingerprints of recent misses remembers the first), so text that occurs
 * once (a slot's Name, a time stamp) stays with its ad; the store stops
 * growing at CA_SHARE_STREAM bytes, or CA_SHARE_HELD once a reader packs
 * the ads it reads for a program that holds them (ca_reader_pack). Memory
 * so stays bounded on an endless stream of new texts.
 */
#ifndef CA_SHARE_H
#define CA_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node.h"
#include "value.h"

#define CA_SHARE_STREAM	((size_t)2 << 20)	/* bytes the store may hold */
#define CA_SHARE_HELD	((size_t)64 << 20)	/* ... when ads are held */

/* A shared tree: its root and what is known of it. */
typedef struct ca_shared {
	uint64_t hash;
	uint32_t len;		/* of key */
	uint8_t kind;		/* what key is: SH_TEXT + parser flags, or SH_VALUE */
	uint8_t unsafe;		/* for the long format: 0 not known, 1 no, 2 yes */
	const char *key;	/* source text, or the value's bytes */
	const char *old;	/* the root printed in the old syntax, or NULL */
	uint32_t oldlen;
	ca_expr node;		/* the root (flags has CA_EXPR_SHARED) */
} ca_shared;

/* The entry of a shared root. */
static inline ca_shared *
ca_shared_of(const ca_expr *e)
{
	return (ca_shared *)((char *)(uintptr_t)e - offsetof(ca_shared, node));
}

/* A fast hash of bytes (seeded per process), for the store's keys. */
uint64_t ca_share_hash(const char *s, size_t n);

/* The shared tree of source text s[0..n) read with parser flags pflags
 * (hash from ca_share_hash), or NULL. */
const ca_expr *ca_share_text_find(const char *s, size_t n, int pflags, uint64_t hash);
/* Is this the second time this text is looked for in vain (so that its
 * tree should be shared)? Records the first. */
bool ca_share_admit(uint64_t hash);
/* Share tree e (any arena; copied into the store) as the tree of s[0..n);
 * returns the shared root, or NULL when the store is full. */
const ca_expr *ca_share_text_add(const char *s, size_t n, int pflags, uint64_t hash,
    const ca_expr *e);

/* A literal node for value v (a bool, integer, real or string): the shared
 * one, when v was seen before (or is a small integer, a bool); NULL
 * otherwise. */
const ca_expr *ca_share_value(ca_value v);

/* The text of shared root e in the old syntax, as ca_print_expr prints it
 * with CA_PR_OLD (printed the first time, then kept while the store has
 * room: NULL when it has none, then print e). */
const char *ca_share_old_text(const ca_expr *e, size_t *len);
/* The source text shared root e is the tree of, read with parser flags
 * pflags, when e prints in the old syntax as that same text: a line of
 * that text is e, kept as it is. NULL otherwise. */
const char *ca_share_source(const ca_expr *e, int pflags, size_t *len);
/* Whether the long format cannot hold shared root e (old_unsafe(e) the
 * first time, then kept). */
bool ca_share_old_unsafe(const ca_expr *e, bool (*old_unsafe)(const ca_expr *));

/* Let the store grow to bytes (at least). */
void ca_share_allow(size_t bytes);

/* The store's size, for reports: entries and bytes. */
void ca_share_stats(size_t *entries, size_t *bytes);
/* Free the store (ca_intern_cleanup calls it: the store registers it). */
void ca_share_cleanup(void);

#endif
