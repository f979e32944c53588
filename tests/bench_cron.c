/* bench_cron.c - the cron-next figure of `make bench`: next-run computations
 * per second over a million random CronTab schedules (tests/bench.c calls it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "condor.h"

void bench_cron(void);

#define NSCHED 1000000

static uint64_t state = 0x2545f4914f6cdd1dull;

static uint64_t
rnd(void)
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 2685821657736338717ull;
}

static int
rndin(int lo, int hi)
{
	return lo + (int)(rnd() % (uint64_t)(hi - lo + 1));
}

/* A field as people write them: mostly "*", else a value, a range, a step
 * or a short list of those. */
static void
gen_field(int f, char *buf, size_t len)
{
	int lo = ca_cron_field_min(f), hi = ca_cron_field_max(f);
	int n, o = 0;

	if (rndin(1, 100) <= (f == CA_CRON_MINUTE ? 15 : 50)) {
		snprintf(buf, len, "*");
		return;
	}
	n = rndin(1, 3);
	for (int i = 0; i < n; i++) {
		int a = rndin(lo, hi), b = rndin(lo, hi);

		if (a > b) {
			int t = a;

			a = b;
			b = t;
		}
		switch (rndin(0, 3)) {
		case 0:
			o += snprintf(buf + o, len - (size_t)o, "%s%d", i ? "," : "", a);
			break;
		case 1:
			o += snprintf(buf + o, len - (size_t)o, "%s%d-%d", i ? "," : "", a, b);
			break;
		case 2:
			o += snprintf(buf + o, len - (size_t)o, "%s*/%d", i ? "," : "",
			    rndin(1, hi > 12 ? 15 : 4));
			break;
		default:
			o += snprintf(buf + o, len - (size_t)o, "%s%d-%d/%d", i ? "," : "", lo, b,
			    rndin(1, 3));
			break;
		}
	}
}

void
bench_cron(void)
{
	ca_cron *sched = malloc(NSCHED * sizeof *sched);
	int64_t *now = malloc(NSCHED * sizeof *now);
	struct timespec a, b;
	uint64_t sum = 0;
	long failed = 0;
	double secs;

	if (sched == NULL || now == NULL) {
		fprintf(stderr, "bench_cron: out of memory\n");
		free(sched);
		free(now);
		return;
	}
	tzset();
	for (long i = 0; i < NSCHED; i++) {
		char text[CA_CRON_NFIELDS][64], line[400];
		ca_diag err;

		do {
			for (int f = 0; f < CA_CRON_NFIELDS; f++)
				gen_field(f, text[f], sizeof text[f]);
			snprintf(line, sizeof line, "%s %s %s %s %s", text[0], text[1], text[2],
			    text[3], text[4]);
		} while (ca_cron_parse(&sched[i], line, &err) < 0);
		/* 2000-2040, at any second */
		now[i] = 946684800 + (int64_t)(rnd() % (40ull * 365 * 86400));
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < NSCHED; i++) {
		int64_t t;

		if (ca_cron_next(&sched[i], now[i], &t) < 0)
			failed++;
		else
			sum += (uint64_t)t;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	printf("cron-next: %.0f next-times/s (%d random schedules)\n",
	    secs > 0 ? NSCHED / secs : 0.0, NSCHED);
	if (failed != 0 || sum == 0)
		fprintf(stderr, "bench_cron: %ld schedules found no next run\n", failed);
	free(sched);
	free(now);
}
