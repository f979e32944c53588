/* unit.h - the library's unit-test driver: each tests/unit/t_*.c registers
 * its suites with UNIT_SUITE and checks with CHECK; unit.c runs them all. */
#ifndef UNIT_H
#define UNIT_H

#include <stdint.h>
#include <stdio.h>

typedef void (*unit_fn)(void);
void unit_register(const char *name, unit_fn fn);
void unit_check(int ok, const char *expr, const char *file, int line);
extern int unit_failed, unit_passed;

#define UNIT_SUITE(name) \
	static void name(void); \
	__attribute__((constructor)) static void reg_##name(void) { unit_register(#name, name); } \
	static void name(void)

#define CHECK(cond) unit_check(!!(cond), #cond, __FILE__, __LINE__)

/* The next number of a suite's own deterministic sequence (xorshift64*),
 * its state in *s (not 0), and one below n from it: randomized suites
 * are the same every run. */
uint64_t unit_rand(uint64_t *s);
unsigned unit_pick(uint64_t *s, unsigned n);

#endif
