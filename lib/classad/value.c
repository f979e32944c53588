/* value.c - operations on ClassAd values that need no evaluation: shared short
 * strings, identity (=?=) and hashing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "dict.h"
#include "value.h"

/* ORDER KINDS */
const char *const ca_kind_name[] = {
	"error", "undefined", "boolean", "integer", "real", "string", "list",
	"classad", "absolute time", "relative time"
};

/* ---- shared short strings ----
 * Literal strings of at most CA_SHARED_STR bytes are kept once for the whole
 * process: the "X86_64" of twenty thousand slot ads is one string, which
 * stays in the cache while expressions compare against it. Each entry is a
 * length byte followed by the NUL-terminated text. The table stops growing
 * at SHARED_MAX entries; later strings go to their arena as before. */
#define SHARED_MAX 65536

/* A ca_ptab (dict.h) of the strings themselves: every string literal read
 * is looked up here. */
static struct {
	void **slot;		/* char *: a length byte, then the text */
	uint32_t cap, n;	/* cap is a power of two */
} shared;

static uint32_t
shared_slot_hash(const void *p)
{
	const char *e = p;

	return (uint32_t)ca_hash_bytes(0, e + 1, (unsigned char)e[0]);
}

static void
shared_grow(void)
{
	shared.slot = ca_ptab_grow(shared.slot, &shared.cap, 1024, shared_slot_hash);
}

const char *
ca_str_shared(const char *s, size_t len)
{
	if (len > CA_SHARED_STR)
		return NULL;
	if (shared.cap == 0)
		shared_grow();
	uint32_t j = (uint32_t)ca_hash_bytes(0, s, len) & (shared.cap - 1);
	for (;; j = (j + 1) & (shared.cap - 1)) {
		char *p = shared.slot[j];
		if (p == NULL)
			break;
		if ((unsigned char)p[0] == len && memcmp(p + 1, s, len) == 0)
			return p + 1;
	}
	if (shared.n >= SHARED_MAX)
		return NULL;
	char *p = ca_xmalloc(len + 2);
	p[0] = (char)len;
	memcpy(p + 1, s, len);
	p[len + 1] = '\0';
	shared.slot[j] = p;
	if (++shared.n * 2 > shared.cap)
		shared_grow();
	return p + 1;
}

bool
ca_str_shared_full(void)
{
	return shared.n >= SHARED_MAX;
}

void
ca_str_shared_cleanup(void)
{
	for (uint32_t i = 0; i < shared.cap; i++)
		free(shared.slot[i]);
	free(shared.slot);
	memset(&shared, 0, sizeof shared);
}

ca_value
ca_str_new(ca_arena *a, const char *s, size_t len)
{
	if (len > UINT32_MAX)
		return ca_error("string too long");
	return ca_str(ca_arena_strndup(a, s, len), (uint32_t)len);
}

ca_value
ca_value_identical(ca_value a, ca_value b)
{
	if (a.kind != b.kind)
		return ca_bool(false);
	switch (a.kind) {
	case CA_ERROR:
	case CA_UNDEFINED:
		return ca_bool(true);
	case CA_BOOL:
		return ca_bool(a.u.b == b.u.b);
	case CA_INT:
		return ca_bool(a.u.i == b.u.i);
	case CA_REAL:
	case CA_RELTIME:
		return ca_bool(a.u.r == b.u.r);
	case CA_STRING:
		return ca_bool(a.x.len == b.x.len && memcmp(a.u.s, b.u.s, a.x.len) == 0);
	case CA_ABSTIME:
		return ca_bool(a.u.i == b.u.i && a.x.off == b.x.off);
	default:
		return ca_error("=?= cannot compare lists or records");
	}
}

/* Eight bytes at a time: the names, machines and users programs hash are
 * a few words long. */
uint64_t
ca_hash_bytes(uint64_t h, const char *s, size_t n)
{
	uint64_t w;

	h = ca_hash_mix(h, n);
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * UINT64_C(0xff51afd7ed558ccd);
		h ^= h >> 29;
	}
	if (n >= 4) {	/* two words of four, overlapping */
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		w = (uint64_t)a << 32 | b;
	} else if (n > 0)
		w = (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[n / 2] << 8 |
		    (unsigned char)s[n - 1];
	else
		w = 0;
	return ca_hash_mix(h, w);
}

uint64_t
ca_value_hash(uint64_t h, ca_value v)
{
	uint64_t bits;

	h = ca_hash_mix(h, v.kind);
	switch (v.kind) {
	case CA_BOOL:
		return ca_hash_mix(h, v.u.b);
	case CA_INT:
	case CA_ABSTIME:
		return ca_hash_mix(ca_hash_mix(h, (uint64_t)v.u.i), (uint64_t)(int64_t)v.x.off);
	case CA_REAL:
	case CA_RELTIME:
		memcpy(&bits, &v.u.r, sizeof bits);
		return ca_hash_mix(h, bits);
	case CA_STRING:
		return ca_hash_bytes(h, v.u.s, v.x.len);
	case CA_LIST:
		for (uint32_t i = 0; i < v.x.len; i++)
			h = ca_value_hash(h, v.u.items[i]);
		return ca_hash_mix(h, v.x.len);
	case CA_AD:
		return ca_hash_mix(h, (uint64_t)(uintptr_t)v.u.ad->ad);
	case CA_ERROR:
		return v.u.why ? ca_hash_bytes(h, v.u.why, strlen(v.u.why)) : h;
	default:
		return h;
	}
}

bool
ca_value_same(ca_value a, ca_value b)
{
	if (a.kind != b.kind)
		return false;
	switch (a.kind) {
	case CA_BOOL:
		return a.u.b == b.u.b;
	case CA_INT:
	case CA_ABSTIME:
		return a.u.i == b.u.i && a.x.off == b.x.off;
	case CA_REAL:
	case CA_RELTIME:
		return memcmp(&a.u.r, &b.u.r, sizeof a.u.r) == 0;
	case CA_STRING:
		return a.x.len == b.x.len && memcmp(a.u.s, b.u.s, a.x.len) == 0;
	case CA_LIST:
		if (a.x.len != b.x.len)
			return false;
		for (uint32_t i = 0; i < a.x.len; i++)
			if (!ca_value_same(a.u.items[i], b.u.items[i]))
				return false;
		return true;
	case CA_AD:
		return a.u.ad->ad == b.u.ad->ad;
	case CA_ERROR:
		return a.u.why == b.u.why || (a.u.why && b.u.why && strcmp(a.u.why, b.u.why) == 0);
	default:
		return true;	/* UNDEFINED */
	}
}
