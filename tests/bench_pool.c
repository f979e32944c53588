/* bench_pool.c - the pool's figures of `make bench`: a 100,000-job cluster
 * submitted to the schedd, and a simulated day of share/pool/sim in memory
 * (tests/bench.c calls it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "condor.h"

void bench_pool(void);

static double
secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One submission of Queue = 100000, as schedd-step --submit takes it. */
static void
bench_submit(void)
{
	static const char text[] = "Owner = \"alice\"\nUser = \"alice@example.org\"\n"
	    "RequestCpus = 1\nRequestMemory = 2048\nJobDuration = 3600\n"
	    "Requirements = TARGET.Memory >= RequestMemory\nQueue = 100000\n";
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("bench", text, sizeof text - 1, CA_FMT_LONG, &err);
	ca_ad *ad;

	if (r == NULL || ca_reader_next(r, &ad, &err) != 1)
		abort();
	ca_reader_close(r);
	ca_schedd *q = ca_schedd_new(1700006400);
	double t0 = secs();
	ca_schedd_add(q, CA_Q_SUBMIT, ad, "bench", 1);
	double t1 = secs();
	printf("schedd: a cluster of %zu jobs submitted in %.3f s\n", ca_schedd_count(q), t1 - t0);
	ca_schedd_free(q);
}

/* A day of the example pool, one cycle every five minutes, in memory. */
static void
bench_day(void)
{
	ca_pool *p = ca_pool_new();
	ca_diag err;
	char path[] = "share/pool/sim/startd/nodes.ads";

	if (ca_pool_configure(p, "share/pool/sim", &err) < 0) {
		printf("pool: share/pool/sim: %s (run make bench from the top of the tree)\n",
		    err.msg);
		ca_pool_free(p);
		return;
	}
	for (size_t c = 0; c < ca_pool_nclasses(p); c++) {
		ca_vec(ca_ad *) ads = CA_VEC_INIT;
		snprintf(path, sizeof path, "share/pool/sim/startd/%s.ads", ca_pool_class_name(p, c));
		ca_reader *r = ca_reader_open(path, CA_FMT_AUTO, &err);
		ca_ad *ad;
		while (r != NULL && ca_reader_next(r, &ad, &err) == 1)
			*ca_vec_push(&ads) = ad;
		if (r != NULL)
			ca_reader_close(r);
		if (ca_pool_add_machines(p, c, ads.at, ads.n, 1700006400, &err) < 0)
			abort();
		ca_vec_free(&ads);
	}
	/* the day's submissions, all at once at the start: a busy day */
	ca_vec(ca_ad *) jobs = CA_VEC_INIT;
	ca_reader *r = ca_reader_open("share/pool/sim/jobs.ads", CA_FMT_AUTO, &err);
	ca_ad *ad;
	while (r != NULL && ca_reader_next(r, &ad, &err) == 1)
		*ca_vec_push(&jobs) = ad;
	if (r != NULL)
		ca_reader_close(r);
	ca_pool_set_clock(p, 1700006400, 0);
	ca_pool_file f = { "jobs.ads", NULL, jobs.at, jobs.n, true, CA_PF_TAKEN, { 0 }, 0, 0, 0 };
	ca_pool_stats st;
	size_t matches = 0;
	double t0 = secs();
	for (int k = 1; k <= 288; k++) {
		if (ca_pool_cycle(p, 1700006400 + 300 * k, NULL, 0, k == 1 ? &f : NULL, k == 1, NULL,
		    &st, &err) < 0)
			abort();
		matches += st.matches;
	}
	double t1 = secs();
	printf("pool: a day of share/pool/sim (288 cycles, %zu matches) in %.2f s\n", matches,
	    t1 - t0);
	ca_pool_file_clear(&f);
	ca_pool_free(p);
}

void
bench_pool(void)
{
	bench_submit();
	bench_day();
}
