/* vec.c - the growth of the one growable array (vec.h): geometric, with the
 * size checked for overflow by ca_xreallocarray. */
#include <stdint.h>
#include <stdlib.h>

#include "arena.h"
#include "vec.h"

void *
ca_vec_grow_(void *p, size_t *cap, size_t need, size_t sz)
{
	size_t c = *cap ? *cap : 8;

	while (c < need)
		c = c > SIZE_MAX / 2 ? need : c * 2;
	p = ca_xreallocarray(p, c, sz);
	*cap = c;
	return p;
}

void *
ca_vec_shrink_(void *p, size_t *cap, size_t n, size_t sz)
{
	if (n == 0) {
		free(p);
		*cap = 0;
		return NULL;
	}
	p = ca_xreallocarray(p, n, sz);
	*cap = n;
	return p;
}
