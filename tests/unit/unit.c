/* unit.c - runs every suite registered by the tests/unit/t_*.c files and
 * prints "N passed, N failed"; exits 1 when any check failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "../../lib/ad.h"

int unit_failed, unit_passed;

static struct { const char *name; unit_fn fn; } suites[128];
static int nsuites;

void
unit_register(const char *name, unit_fn fn)
{
	if (nsuites < (int)(sizeof suites / sizeof suites[0])) {
		suites[nsuites].name = name;
		suites[nsuites].fn = fn;
		nsuites++;
	}
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

static int
cmp_suite(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
main(int argc, char **argv)
{
	qsort(suites, nsuites, sizeof suites[0], cmp_suite);
	for (int i = 0; i < nsuites; i++) {
		if (argc > 1 && strstr(suites[i].name, argv[1]) == NULL)
			continue;
		int before = unit_failed;
		suites[i].fn();
		printf("%-28s %s\n", suites[i].name, unit_failed == before ? "ok" : "FAILED");
	}
	ca_intern_cleanup();
	printf("unit: %d passed, %d failed\n", unit_passed, unit_failed);
	return unit_failed ? 1 : 0;
}
