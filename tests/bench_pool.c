/* bench_pool.c - the pool's figures of `make bench`: a 100,000-job cluster
 * submitted to the schedd, a simulated day of share/pool/sim in memory, and
 * a week of a 10,000-core pool with 1,000,000 jobs replayed (tests/bench.c
 * calls it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "condor.h"

void bench_pool(void);
void bench_replay(void);

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

static ca_config *
replay_config(void *arg, const char *subsys, const char *cls, ca_diag *err)
{
	static const char text[] = "UID_DOMAIN = example.org\nCONSUMPTION_POLICY = True\n"
	    "NUM_SLOTS_TYPE_1 = 1\nSLOT_TYPE_1 = 100%\nSLOT_TYPE_1_PARTITIONABLE = True\n"
	    "GROUP_NAMES = group_a, group_b\nGROUP_QUOTA_DYNAMIC_group_a = 0.5\n"
	    "GROUP_QUOTA_DYNAMIC_group_b = 0.3\nGROUP_ACCEPT_SURPLUS = True\n";
	ca_config *cfg = ca_config_new();

	ca_config_set_subsys(cfg, subsys);
	if (cls != NULL)
		ca_startd_config_prepare(cfg);
	if (ca_config_load_mem(cfg, "bench", text, sizeof text - 1, err) < 0) {
		ca_config_free(cfg);
		return NULL;
	}
	return cfg;
}

static int64_t
env_or(const char *name, int64_t def)
{
	const char *s = getenv(name);

	return s != NULL && *s ? strtoll(s, NULL, 10) : def;
}

/* A week of a pool of BENCH_REPLAY_CORES cores (16 a machine, one
 * partitionable slot each) and BENCH_REPLAY_JOBS one-core jobs of 30 to 120
 * minutes from 40 users in two groups, replayed under one policy.
 * BENCH_REPLAY_ROWS=file writes the report's rows there. */
void
bench_replay(void)
{
	int64_t cores = env_or("BENCH_REPLAY_CORES", 10000), njobs = env_or("BENCH_REPLAY_JOBS",
	    1000000), days = env_or("BENCH_REPLAY_DAYS", 7), t0s = 1767571200;
	ca_replay *r = ca_replay_new();
	ca_diag err;
	char buf[512];
	uint64_t x = 88172645463325252u;

	double t0 = secs();
	for (int64_t m = 0; m < cores / 16; m++) {
		ca_ad *ad = ca_ad_new();
		snprintf(buf, sizeof buf, "node%05lld.example.org", (long long)m);
		ca_set_str(ad, "Machine", buf);
		ca_set_int(ad, "TotalCpus", 16);
		ca_set_int(ad, "TotalMemory", 65536);
		ca_set_int(ad, "TotalDisk", 500000000);
		ca_set_str(ad, "Arch", "X86_64");
		ca_set_str(ad, "OpSys", "LINUX");
		if (ca_replay_add_slot(r, ad, &err) < 0)
			abort();
		ca_ad_free(ad);
	}
	for (int64_t i = 0; i < njobs; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int user = (int)(x % 40);
		ca_ad *ad = ca_ad_new();
		snprintf(buf, sizeof buf, "u%02d", user);
		ca_set_str(ad, "Owner", buf);
		snprintf(buf, sizeof buf, "u%02d@example.org", user);
		ca_set_str(ad, "User", buf);
		if (user < 30) {
			snprintf(buf, sizeof buf, "group_%c.u%02d", user < 20 ? 'a' : 'b', user);
			ca_set_str(ad, "AccountingGroup", buf);
		}
		ca_set_int(ad, "QDate", t0s + (int64_t)((x >> 20) % (uint64_t)(days * 86400)));
		ca_set_int(ad, "JobStatus", 4);
		ca_set_int(ad, "CommittedTime", 1800 + (int64_t)((x >> 40) % 5400));
		ca_set_int(ad, "RequestCpus", 1);
		ca_set_int(ad, "RequestMemory", 2048);
		ca_set_int(ad, "RequestDisk", 1000000);
		const char *why;
		if (ca_replay_add_job(r, ad, false, &why, &err) < 0)
			abort();
		ca_ad_free(ad);
	}
	ca_replay_opts o = { t0s, t0s + days * 86400, 0, 300, 0, 1, NULL, NULL };
	if (ca_replay_prepare(r, &o, &err) < 0)
		abort();
	double t1 = secs();
	ca_ad **rows;
	size_t n;
	if (ca_replay_run(r, "bench", replay_config, NULL, NULL, NULL, &rows, &n, &err) < 0) {
		printf("replay: %s\n", err.msg);
		abort();
	}
	double t2 = secs();
	/* BENCH_REPLAY_ROWS names a file for the report's rows (to compare runs) */
	const char *dump = getenv("BENCH_REPLAY_ROWS");
	FILE *fp = dump != NULL && *dump ? fopen(dump, "w") : NULL;
	ca_writer *w = fp != NULL ? ca_writer_open(fp, CA_FMT_LONG, false) : NULL;
	for (size_t i = 0; w != NULL && i < n; i++)
		(void)ca_writer_put(w, rows[i]);
	if (w != NULL)
		(void)ca_writer_close(w);
	if (fp != NULL)
		fclose(fp);
	ca_ctx cx;
	ca_ctx_init(&cx);
	int64_t cycles = 0, done = 0;
	double util = 0;
	for (size_t i = 0; i < n; i++) {
		const char *k = NULL;
		if (ca_get_str(&cx, rows[i], "Kind", &k, NULL) == 1 && strcmp(k, "policy") == 0) {
			(void)ca_get_int(&cx, rows[i], "Cycles", &cycles);
			(void)ca_get_int(&cx, rows[i], "Completed", &done);
			(void)ca_get_num(&cx, rows[i], "Utilization", &util);
		}
		ca_arena_reset(&cx.scratch);
		ca_ad_free(rows[i]);
	}
	free(rows);
	ca_ctx_free(&cx);
	printf("replay: %lld days of %lld cores, %lld jobs: read in %.1f s, simulated in %.1f s "
	    "(%lld cycles, %.2f s each; %lld completed, %.0f%% utilization)\n", (long long)days,
	    (long long)cores, (long long)njobs, t1 - t0, t2 - t1, (long long)cycles,
	    cycles ? (t2 - t1) / (double)cycles : 0, (long long)done, util * 100);
	ca_replay_free(r);
}

void
bench_pool(void)
{
	bench_submit();
	bench_day();
	bench_replay();
}
