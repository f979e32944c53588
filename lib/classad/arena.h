/* arena.h - bump allocator that owns the memory of one ad or one evaluation.
 * Everything allocated from an arena is freed at once by ca_arena_free/reset. */
#ifndef CA_ARENA_H
#define CA_ARENA_H

#include <stddef.h>

typedef struct ca_chunk ca_chunk;

typedef struct ca_arena {
	ca_chunk *head;		/* chunk being filled; older chunks follow ->next */
	char *cur, *end;	/* free space in head */
	size_t total;		/* bytes obtained from malloc, for reporting */
} ca_arena;

/* An arena starts zeroed: `ca_arena a = {0};` is ready to use. */
void *ca_arena_alloc_chunk(ca_arena *a, size_t n);	/* a new chunk's first n bytes */

/* 8-byte aligned, never NULL; inline while the chunk has room */
static inline void *
ca_arena_alloc(ca_arena *a, size_t n)
{
	size_t m = n < 8 ? 8 : (n + 7) & ~(size_t)7;

	if (n <= (size_t)-1 - 8 && m <= (size_t)(a->end - a->cur)) {
		void *p = a->cur;
		a->cur += m;
		return p;
	}
	return ca_arena_alloc_chunk(a, n);
}
void *ca_arena_zalloc(ca_arena *a, size_t n);
/* Copy of n bytes plus a terminating NUL. */
char *ca_arena_strndup(ca_arena *a, const char *s, size_t n);
/* Allocate n elements of size sz, checking n*sz for overflow. */
void *ca_arena_array(ca_arena *a, size_t n, size_t sz);
/* Before the first allocation: make the first chunk n bytes (rather than
 * the default size), for an arena whose needs are known. */
void ca_arena_reserve(ca_arena *a, size_t n);
void ca_arena_reset(ca_arena *a);	/* keep the largest chunk, drop the rest */
void ca_arena_free(ca_arena *a);	/* release everything; a stays usable */

/* Allocation wrappers used by the whole library: they never return NULL
 * (out of memory prints "classad: out of memory" and exits with status 4). */
void *ca_xmalloc(size_t n);
void *ca_xcalloc(size_t n, size_t sz);
void *ca_xreallocarray(void *p, size_t n, size_t sz);
char *ca_xstrndup(const char *s, size_t n);

/* Ask the system to back the heap with huge pages, from now on and as it
 * grows (the heap then grows by large steps). A program that holds many
 * ads and walks them over and over, as a pool's cycles do, loses much of
 * its time to address translation with small pages: a tenth to a fifth of
 * a simulated day. Linux with glibc only, where transparent huge pages are
 * enabled (always, or for a program that asks); elsewhere it does nothing.
 * Call it again after the heap grew: each call marks what is there. */
void ca_heap_huge(void);

#endif
