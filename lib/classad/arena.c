/* arena.c - bump allocation in growing chunks, freed all at once, and the
 * never-NULL allocation wrappers the whole library goes through. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "arena.h"

struct ca_chunk {
	ca_chunk *next;
	size_t size;		/* usable bytes after the header */
	max_align_t align[];
};

#define FIRST_CHUNK	1024	/* grows by doubling: small ads stay small */
#define MAX_CHUNK	(1u << 20)

static void
oom(void)
{
	fputs("classad: out of memory\n", stderr);
	exit(4);
}

void *
ca_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
ca_xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
ca_xreallocarray(void *p, size_t n, size_t sz)
{
	if (sz && n > SIZE_MAX / sz)
		oom();
	p = realloc(p, n * sz > 0 ? n * sz : 1);
	if (p == NULL)
		oom();
	return p;
}

char *
ca_xstrndup(const char *s, size_t n)
{
	char *p = ca_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static ca_chunk *
new_chunk(ca_arena *a, size_t size)
{
	if (size > SIZE_MAX - sizeof(ca_chunk))
		oom();
	ca_chunk *c = ca_xmalloc(sizeof(ca_chunk) + size);
	c->size = size;
	a->total += size;
	return c;
}

void *
ca_arena_alloc_chunk(ca_arena *a, size_t n)
{
	if (n > SIZE_MAX - 8)
		oom();
	n = n < 8 ? 8 : (n + 7) & ~(size_t)7;
	if (n <= (size_t)(a->end - a->cur)) {
		void *p = a->cur;
		a->cur += n;
		return p;
	}
	if (a->head && n > MAX_CHUNK / 4) {
		/* A big one-off gets a chunk of its own behind the current one,
		 * which goes on filling. */
		ca_chunk *c = new_chunk(a, n);
		c->next = a->head->next;
		a->head->next = c;
		return c->align;
	}
	size_t size = a->head ? a->head->size * 2 : FIRST_CHUNK;
	if (size > MAX_CHUNK)
		size = MAX_CHUNK;
	if (size < n)
		size = n;
	ca_chunk *c = new_chunk(a, size);
	c->next = a->head;
	a->head = c;
	a->cur = (char *)c->align + n;
	a->end = (char *)c->align + size;
	return c->align;
}

void *
ca_arena_zalloc(ca_arena *a, size_t n)
{
	void *p = ca_arena_alloc(a, n);

	memset(p, 0, n);
	return p;
}

void *
ca_arena_array(ca_arena *a, size_t n, size_t sz)
{
	if (sz && n > (SIZE_MAX - 64) / sz)
		oom();
	return ca_arena_alloc(a, n * sz);
}

char *
ca_arena_strndup(ca_arena *a, const char *s, size_t n)
{
	if (n == SIZE_MAX)
		oom();
	char *p = ca_arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
ca_arena_reserve(ca_arena *a, size_t n)
{
	if (a->head != NULL || n == 0)
		return;
	n = (n + 7) & ~(size_t)7;
	ca_chunk *c = new_chunk(a, n);
	c->next = NULL;
	a->head = c;
	a->cur = (char *)c->align;
	a->end = a->cur + n;
}

void
ca_arena_reset(ca_arena *a)
{
	if (a->head == NULL)
		return;
	/* Keep the chunk being filled, the largest (one-off chunks for big
	 * allocations follow it): an arena reset again and again (a scratch
	 * arena) settles at the size its uses need, without a malloc. */
	ca_chunk *keep = a->head, *c = keep->next;
	while (c) {
		ca_chunk *next = c->next;
		free(c);
		c = next;
	}
	if (keep->size > MAX_CHUNK) {	/* a first allocation that was huge */
		free(keep);
		memset(a, 0, sizeof *a);
		return;
	}
	keep->next = NULL;
	a->head = keep;
	a->cur = (char *)keep->align;
	a->end = a->cur + keep->size;
	a->total = keep->size;
}

void
ca_arena_free(ca_arena *a)
{
	ca_chunk *c = a->head;

	while (c) {
		ca_chunk *next = c->next;
		free(c);
		c = next;
	}
	memset(a, 0, sizeof *a);
}

#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
extern char end;	/* the end of the program's data: the heap lies above */

/* The heap from the program's data up to the break, marked; the gap below
 * the heap is no mapping, which madvise skips (and reports, ignored). */
void
ca_heap_huge(void)
{
	uintptr_t lo = ((uintptr_t)&end + 4095) & ~(uintptr_t)4095;
	uintptr_t hi = (uintptr_t)sbrk(0) & ~(uintptr_t)4095;

	/* the heap grows by large steps, so that what is touched first lies
	 * inside whole huge pages of the region already marked */
	(void)mallopt(M_TOP_PAD, 64 << 20);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}
#else
void
ca_heap_huge(void)
{
}
#endif
