/* unit.c - runs every suite registered by the tests/unit/t_*.c files and
 * prints "N passed, N failed"; exits 1 when any check failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "classad.h"

int unit_failed, unit_passed;

struct suite { const char *name; unit_fn fn; };
static ca_vec(struct suite) suites = CA_VEC_INIT;

void
unit_register(const char *name, unit_fn fn)
{
	struct suite *s = ca_vec_push(&suites);

	s->name = name;
	s->fn = fn;
}

void
unit_check(int ok, const char *expr, const char *file, int line)
{
	if (ok) {
		unit_passed++;
		return;
	}
	unit_failed++;
	fprintf(stderr, "%s:%d: check failed: %s\n", file, line, expr);
}

uint64_t
unit_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

unsigned
unit_pick(uint64_t *s, unsigned n)
{
	return (unsigned)(unit_rand(s) >> 33) % n;
}

static int
cmp_suite(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
main(int argc, char **argv)
{
	if (suites.n > 0)
		qsort(suites.at, suites.n, sizeof suites.at[0], cmp_suite);
	for (size_t i = 0; i < suites.n; i++) {
		if (argc > 1 && strstr(suites.at[i].name, argv[1]) == NULL)
			continue;
		int before = unit_failed;
		suites.at[i].fn();
		printf("%-28s %s\n", suites.at[i].name, unit_failed == before ? "ok" : "FAILED");
	}
	ca_vec_free(&suites);
	ca_intern_cleanup();
	printf("unit: %d passed, %d failed\n", unit_passed, unit_failed);
	return unit_failed ? 1 : 0;
}
