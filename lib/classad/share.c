/* share.c - the store of shared trees (share.h): literals and expressions
 * kept once per process, by their source text or their value. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ad.h"
#include "arena.h"
#include "dict.h"
#include "expr.h"
#include "print.h"
#include "share.h"
#include "strbuf.h"

/* kind of a value's key (a string's is SH_VALUE - 1) and of a tree's,
 * keyed by its text in new syntax; a source text's is its parser flags */
enum { SH_VALUE = 0xff, SH_TREE = 0xfd };

#define SEEN_BITS	16	/* fingerprints of texts seen once */
#define SMALL_MIN	(-16)	/* integers always shared: SMALL_MIN..SMALL_MAX */
#define SMALL_MAX	1023

static struct {
	void **slot;		/* ca_shared *, a ca_ptab (dict.h) by hash */
	uint32_t cap, n;	/* cap a power of two */
	uint64_t seed;
	ca_arena arena;		/* entries, keys and trees */
	uint32_t *seen;		/* 1 << SEEN_BITS fingerprints */
	size_t max;		/* bytes it may hold (0: CA_SHARE_STREAM) */
	const ca_expr *small[SMALL_MAX - SMALL_MIN + 1];
	const ca_expr *bools[2];
} st;

uint64_t
ca_share_hash(const char *s, size_t n)
{
	if (st.seed == 0)
		st.seed = ((uint64_t)time(NULL) << 20 ^ (uint64_t)(uintptr_t)&st) | 1;
	uint64_t h = st.seed ^ (n * UINT64_C(0x9e3779b97f4a7c15)), w;
	/* two lanes of 8 bytes, so that the multiplications overlap */
	uint64_t h2 = h ^ UINT64_C(0x6a09e667f3bcc909);
	while (n >= 16) {
		uint64_t w2;
		memcpy(&w, s, 8);
		memcpy(&w2, s + 8, 8);
		h = (h ^ w) * UINT64_C(0xff51afd7ed558ccd);
		h2 = (h2 ^ w2) * UINT64_C(0xc4ceb9fe1a85ec53);
		h ^= h >> 29;
		h2 ^= h2 >> 31;
		s += 16;
		n -= 16;
	}
	if (n >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * UINT64_C(0xff51afd7ed558ccd);
		h ^= h >> 29;
		s += 8;
		n -= 8;
	}
	if (n > 0) {
		w = 0;
		memcpy(&w, s, n);
		h2 = (h2 ^ w) * UINT64_C(0xc4ceb9fe1a85ec53);
	}
	h ^= h2 * UINT64_C(0x9fb21c651e98df25);
	h ^= h >> 32;
	h *= UINT64_C(0xbf58476d1ce4e5b9);
	return h ^ (h >> 29);
}

static uint32_t
slot_hash(const void *p)
{
	return (uint32_t)((const ca_shared *)p)->hash;
}

static void
grow(void)
{
	if (st.cap == 0)
		ca_intern_at_cleanup(ca_share_cleanup);
	st.slot = ca_ptab_grow(st.slot, &st.cap, 4096, slot_hash);
}

static ca_shared *
find(const char *key, size_t n, int kind, uint64_t hash)
{
	if (st.cap == 0)
		return NULL;
	for (uint32_t j = (uint32_t)hash & (st.cap - 1);; j = (j + 1) & (st.cap - 1)) {
		ca_shared *e = st.slot[j];
		if (e == NULL)
			return NULL;
		if (e->hash == hash && e->len == n && e->kind == kind && memcmp(e->key, key, n) == 0)
			return e;
	}
}

/* A new entry for key (copied), with root e (copied into the store; a
 * string literal takes the key as its text), or NULL when the store is
 * full. */
static ca_shared *
add(const char *key, size_t n, int kind, uint64_t hash, const ca_expr *e)
{
	if (st.arena.total + n + 256 > (st.max ? st.max : CA_SHARE_STREAM) || n > UINT32_MAX)
		return NULL;
	if (st.cap == 0 || (st.n + 1) * 2 > st.cap)
		grow();
	ca_shared *s = ca_arena_zalloc(&st.arena, sizeof *s);
	s->hash = hash;
	s->len = (uint32_t)n;
	s->kind = (uint8_t)kind;
	s->key = ca_arena_strndup(&st.arena, key, n);
	if (kind == SH_VALUE - 1) {
		s->node = *e;
		s->node.u.lit.u.s = s->key;
	} else if (e->node == CA_N_LIT) {
		s->node = *e;
		s->node.u.lit = ca_value_copy_into(&st.arena, e->u.lit);
	} else	/* the root: a copy of e's node, its children copied under it */
		s->node = *ca_expr_copy(&st.arena, e);
	s->node.flags |= CA_EXPR_SHARED;
	uint32_t j = (uint32_t)hash & (st.cap - 1);
	while (st.slot[j])
		j = (j + 1) & (st.cap - 1);
	st.slot[j] = s;
	st.n++;
	return s;
}

bool
ca_share_admit(uint64_t hash)
{
	if (st.seen == NULL)
		st.seen = ca_xcalloc((size_t)1 << SEEN_BITS, sizeof *st.seen);
	uint32_t *p = &st.seen[hash >> (64 - SEEN_BITS)], fp = (uint32_t)hash | 1;
	if (*p == fp)
		return true;
	*p = fp;
	return false;
}

const ca_expr *
ca_share_text_find(const char *s, size_t n, int pflags, uint64_t hash)
{
	ca_shared *e = find(s, n, pflags & 0x7f, hash);

	return e ? &e->node : NULL;
}

const char *
ca_share_source(const ca_expr *e, int pflags, size_t *len)
{
	if (!(e->flags & CA_EXPR_SHARED))
		return NULL;
	const ca_shared *sh = ca_shared_of(e);
	size_t on;
	const char *old;
	if (sh->kind != (pflags & 0x7f) || (old = ca_share_old_text(e, &on)) == NULL ||
	    on != sh->len || memcmp(old, sh->key, on) != 0)
		return NULL;
	*len = sh->len;
	return sh->key;
}

const ca_expr *
ca_share_text_add(const char *s, size_t n, int pflags, uint64_t hash, const ca_expr *e)
{
	if (e->flags & CA_EXPR_SHARED)
		return e;
	ca_shared *sh = add(s, n, pflags & 0x7f, hash, e);

	return sh ? &sh->node : NULL;
}

/* The bytes that stand for v in the store's keys: its kind, then its
 * bits or its text. */
static size_t
value_key(ca_value v, char *buf, const char **key)
{
	buf[0] = (char)v.kind;
	switch (v.kind) {
	case CA_INT:
		memcpy(buf + 1, &v.u.i, 8);
		break;
	case CA_REAL:
		memcpy(buf + 1, &v.u.r, 8);
		break;
	case CA_BOOL:
		buf[1] = (char)v.u.b;
		*key = buf;
		return 2;
	default:	/* CA_STRING: its text follows its kind */
		*key = v.x.len ? v.u.s : "";	/* an empty one may have no text */
		return v.x.len;
	}
	*key = buf;
	return 9;
}

const ca_expr *
ca_share_value(ca_value v)
{
	ca_expr lit = { .node = CA_N_LIT, .flags = 1 };
	const ca_expr **slot = NULL;

	switch (v.kind) {
	case CA_BOOL:
		slot = &st.bools[v.u.b];
		break;
	case CA_INT:
		if (v.u.i >= SMALL_MIN && v.u.i <= SMALL_MAX)
			slot = &st.small[v.u.i - SMALL_MIN];
		break;
	case CA_REAL:
	case CA_STRING:
		break;
	default:
		return NULL;
	}
	if (slot != NULL && *slot != NULL)
		return *slot;
	char buf[16];
	const char *key;
	size_t n = value_key(v, buf, &key);
	int kind = v.kind == CA_STRING ? SH_VALUE - 1 : SH_VALUE;
	uint64_t h = ca_share_hash(key, n) ^ (uint64_t)v.kind;
	ca_shared *e = find(key, n, kind, h);
	if (e == NULL) {
		if (slot == NULL && !ca_share_admit(h))
			return NULL;
		lit.u.lit = v;
		if ((e = add(key, n, kind, h, &lit)) == NULL)
			return NULL;
	}
	if (slot != NULL)
		*slot = &e->node;
	return &e->node;
}

const char *
ca_share_old_text(const ca_expr *e, size_t *len)
{
	ca_shared *sh = ca_shared_of(e);

	if (sh->old == NULL) {
		strbuf sb = STRBUF_INIT;
		ca_print_expr(&sb, e, CA_PR_OLD);
		if (sb.len <= UINT32_MAX &&
		    st.arena.total + sb.len < (st.max ? st.max : CA_SHARE_STREAM)) {
			sh->old = ca_arena_strndup(&st.arena, sb.buf, sb.len);
			sh->oldlen = (uint32_t)sb.len;
		}
		strbuf_release(&sb);
		if (sh->old == NULL)
			return NULL;
	}
	*len = sh->oldlen;
	return sh->old;
}

bool
ca_share_old_unsafe(const ca_expr *e, bool (*old_unsafe)(const ca_expr *))
{
	ca_shared *sh = ca_shared_of(e);

	if (sh->unsafe == 0)
		sh->unsafe = old_unsafe(e) ? 2 : 1;
	return sh->unsafe == 2;
}

void
ca_share_allow(size_t bytes)
{
	if (bytes > st.max)
		st.max = bytes;
}

void
ca_share_stats(size_t *entries, size_t *bytes)
{
	*entries = st.n;
	*bytes = st.arena.total + (size_t)st.cap * sizeof *st.slot +
	    (st.seen ? ((size_t)1 << SEEN_BITS) * sizeof *st.seen : 0);
}

void
ca_share_cleanup(void)
{
	free(st.slot);
	free(st.seen);
	ca_arena_free(&st.arena);
	memset(&st, 0, sizeof st);
}

const ca_expr *
ca_expr_share(const ca_expr *e)
{
	if (e->flags & CA_EXPR_SHARED)
		return e;
	strbuf sb = STRBUF_INIT;
	ca_print_expr(&sb, e, 0);
	uint64_t h = ca_share_hash(sb.buf, sb.len) ^ SH_TREE;
	ca_shared *sh = find(sb.buf, sb.len, SH_TREE, h);
	if (sh == NULL)
		sh = add(sb.buf, sb.len, SH_TREE, h, e);
	strbuf_release(&sb);
	return sh ? &sh->node : NULL;
}
