/* bench.h - what the benchmarks of tests/bench_*.c share: a pseudo-random
 * generator that makes the same pool on every run, and the monotonic clock. */
#ifndef CA_BENCH_H
#define CA_BENCH_H

#include <stdint.h>
#include <time.h>

/* xorshift64*: the next number below n from the generator *state (a fixed
 * seed, so every run measures the same ads). */
static inline uint32_t
bench_rnd(uint64_t *state, uint32_t n)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return (uint32_t)((*state * UINT64_C(0x2545f4914f6cdd1d)) >> 32) % n;
}

/* CLOCK_MONOTONIC in seconds. */
static inline double
bench_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
