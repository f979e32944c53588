/* bench_match.c - the matcher's figures for `make bench`: pairs per second of
 * the full symmetric match with both ranks, and a large autoclustered pool.
 *
 * bench_match() prints two lines, each with its target:
 *   - 200 distinct jobs x 2,000 slots, autoclusters off, so every pair is
 *     matched: both Requirements, then both Ranks for the pairs that match;
 *   - 100,000 jobs in about 1,000 autoclusters x 10,000 slots: clustering,
 *     matching, and every job's sorted list of matches.
 * Ads are generated as condor_status / condor_q -long text from a fixed seed
 * and parsed before the clock starts; timings are CLOCK_MONOTONIC, best of 3
 * for the first figure. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "classad.h"
#include "condor.h"

#define NOW		INT64_C(1700000000)
#define TARGET_PAIRS	1.5e6	/* pairs/s, 200 x 2,000 */
#define TARGET_BIG	5.0	/* seconds, 100,000 x 10,000 */

void bench_match(void);

/* xorshift64*, fixed seed: the same pool on every run. */
static uint64_t seed;

static uint32_t
rnd(uint32_t n)
{
	return bench_rnd(&seed, n);
}

static const char *const users[] = {
	"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"
};

/* One execute slot: dedicated nodes (START looks at the job) and desktops
 * (START looks at the keyboard), as a pool of mixed machines has. */
static void
add_slot(strbuf *sb, int i)
{
	static const int mem[] = { 2048, 4096, 8192, 16384, 32768 };
	static const int cpus[] = { 1, 2, 4, 8 };
	int desktop = rnd(10) < 3;
	int kbd = desktop ? (int)rnd(3000) : 500000;
	double load = rnd(10) / 20.0;

	strbuf_addf(sb, "Activity = \"Idle\"\n");
	strbuf_addf(sb, "Arch = \"%s\"\n", rnd(10) ? "X86_64" : "aarch64");
	strbuf_addf(sb, "CondorLoadAvg = 0.0\n");
	strbuf_addf(sb, "Cpus = %d\n", cpus[rnd(4)]);
	strbuf_addf(sb, "Disk = %u\n", 1000000 + rnd(50000000));
	strbuf_addf(sb, "FileSystemDomain = \"example.org\"\n");
	strbuf_addf(sb, "HasFileTransfer = %s\n", rnd(50) ? "true" : "false");
	strbuf_addf(sb, "KeyboardIdle = %d\n", kbd);
	strbuf_addf(sb, "KFlops = %u\n", 1000000 + rnd(2000000));
	strbuf_addf(sb, "LoadAvg = %.2f\n", load);
	strbuf_addf(sb, "Machine = \"host%04d.example.org\"\n", i / 8);
	strbuf_addf(sb, "Memory = %d\n", mem[rnd(5)]);
	strbuf_addf(sb, "Mips = %u\n", 15000 + rnd(20000));
	strbuf_addf(sb, "MyType = \"Machine\"\n");
	strbuf_addf(sb, "Name = \"slot%d@host%04d.example.org\"\n", i % 8 + 1, i / 8);
	strbuf_addf(sb, "OpSys = \"%s\"\n", rnd(10) ? "LINUX" : "WINDOWS");
	strbuf_addf(sb, "Rank = %s\n", desktop ? "0.0" :
	    "(TARGET.Owner == \"alice\") * 10 + (TARGET.JobUniverse == 5)");
	strbuf_addf(sb, "Requirements = START\n");
	if (desktop)
		strbuf_addf(sb, "START = (KeyboardIdle > 15 * 60) && (LoadAvg - CondorLoadAvg <= 0.3)\n");
	else
		strbuf_addf(sb, "START = (TARGET.RequestMemory <= Memory) && "
		    "(TARGET.RequestCpus <= Cpus) && (TARGET.JobUniverse =!= 7)\n");
	strbuf_addf(sb, "SlotID = %d\n", i % 8 + 1);
	strbuf_addf(sb, "State = \"Unclaimed\"\n");
	strbuf_addf(sb, "TargetType = \"Job\"\n");
	strbuf_addf(sb, "UidDomain = \"example.org\"\n\n");
}

/* One job of template t; n is its serial number (ClusterId/ProcId). The
 * template decides every attribute a Requirements or Rank reaches. */
static void
add_job(strbuf *sb, uint32_t t, uint32_t n)
{
	static const int cpus[] = { 1, 1, 2, 4, 8 };
	uint32_t user = t % 8, cpu = (t / 8) % 5, memi = t / 40;

	strbuf_addf(sb, "Args = \"-i in%u.dat -o out%u.dat\"\n", n, n);
	strbuf_addf(sb, "ClusterId = %u\n", 1000 + n / 100);
	strbuf_addf(sb, "Cmd = \"/home/%s/sim/run\"\n", users[user]);
	strbuf_addf(sb, "DiskUsage = %u\n", 1000 + 100 * (t % 7));
	strbuf_addf(sb, "ImageSize = %u\n", 1000 + 100 * (t % 7));
	strbuf_addf(sb, "Iwd = \"/home/%s/sim/run%u\"\n", users[user], n);
	strbuf_addf(sb, "JobPrio = 0\n");
	strbuf_addf(sb, "JobStatus = 1\n");
	strbuf_addf(sb, "JobUniverse = 5\n");
	strbuf_addf(sb, "MyType = \"Job\"\n");
	strbuf_addf(sb, "Owner = \"%s\"\n", users[user]);
	strbuf_addf(sb, "ProcId = %u\n", n % 100);
	strbuf_addf(sb, "QDate = %" PRId64 "\n", NOW - 1000 + n);
	strbuf_addf(sb, "Rank = TARGET.KFlops / 1000 + TARGET.Memory / 1024\n");
	strbuf_addf(sb, "RequestCpus = %d\n", cpus[cpu]);
	strbuf_addf(sb, "RequestDisk = DiskUsage\n");
	strbuf_addf(sb, "RequestMemory = %u\n", 256 + 640 * memi);
	strbuf_addf(sb, "Requirements = (TARGET.Arch == \"X86_64\") && (TARGET.OpSys == \"LINUX\") && "
	    "(TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && "
	    "(TARGET.Cpus >= RequestCpus) && (TARGET.HasFileTransfer)\n");
	strbuf_addf(sb, "TargetType = \"Machine\"\n");
	strbuf_addf(sb, "User = \"%s@example.org\"\n", users[user]);
	strbuf_addf(sb, "WantRemoteIO = true\n\n");
}

static ca_ad **
parse_all(const strbuf *text, uint32_t n)
{
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("<bench>", text->buf, text->len, CA_FMT_LONG, &err);
	ca_ad **ads = ca_xcalloc(n, sizeof *ads);
	uint32_t got = 0;

	if (r == NULL)
		return NULL;
	while (got < n && ca_reader_next(r, &ads[got], &err) == 1)
		got++;
	ca_reader_close(r);
	if (got != n) {
		fprintf(stderr, "bench_match: parsed %u of %u ads\n", got, n);
		for (uint32_t i = 0; i < got; i++)
			ca_ad_free(ads[i]);
		free(ads);
		return NULL;
	}
	return ads;
}

static void
free_all(ca_ad **ads, uint32_t n)
{
	for (uint32_t i = 0; ads && i < n; i++)
		ca_ad_free(ads[i]);
	free(ads);
}

/* Every slot through a fresh matcher; returns seconds, *hits the matches. */
static double
run(ca_ctx *cx, ca_ad **jobs, uint32_t nj, ca_ad **slots, uint32_t ns, unsigned flags,
    uint64_t *hits, uint32_t *nclusters)
{
	double t = bench_seconds();
	ca_matcher *m = ca_matcher_new(cx, flags, 0);
	uint64_t h = 0;

	for (uint32_t j = 0; j < nj; j++)
		ca_matcher_add_job(m, jobs[j]);
	for (uint32_t s = 0; s < ns; s++)
		ca_matcher_slot(m, slots[s], s, true, NULL);
	for (uint32_t j = 0; j < nj; j++) {
		uint32_t n;
		ca_matcher_hits(m, ca_matcher_cluster_of(m, j), &n);
		h += n;
	}
	t = bench_seconds() - t;
	*hits = h;
	*nclusters = ca_matcher_nclusters(m);
	ca_matcher_free(m);
	return t;
}

void
bench_match(void)
{
	strbuf text = STRBUF_INIT;
	ca_ad **slots = NULL, **jobs = NULL;
	ca_ctx cx;
	uint64_t hits;
	uint32_t ncl;
	double t, best = 1e30;

	ca_ctx_init(&cx);
	cx.now = NOW;

	/* 200 distinct jobs x 2,000 slots, every pair */
	seed = UINT64_C(0x9e3779b97f4a7c15);
	for (int i = 0; i < 2000; i++)
		add_slot(&text, i);
	slots = parse_all(&text, 2000);
	strbuf_reset(&text);
	for (uint32_t i = 0; i < 200; i++)
		add_job(&text, i * 5 + rnd(5), i);
	jobs = parse_all(&text, 200);
	if (slots == NULL || jobs == NULL)
		goto out;
	for (int r = 0; r < 3; r++) {
		t = run(&cx, jobs, 200, slots, 2000, CA_M_NOCLUSTER, &hits, &ncl);
		if (t < best)
			best = t;
	}
	printf("match 200 jobs x 2000 slots: %.2f M pairs/s (target >= %.1f M/s); "
	    "%" PRIu64 " matches\n", 200.0 * 2000 / best / 1e6, TARGET_PAIRS / 1e6, hits);
	fflush(stdout);
	free_all(slots, 2000);
	free_all(jobs, 200);
	slots = jobs = NULL;

	/* 100,000 jobs from 1,000 templates x 10,000 slots */
	strbuf_reset(&text);
	seed = UINT64_C(0x2545f4914f6cdd1d);
	for (int i = 0; i < 10000; i++)
		add_slot(&text, i);
	slots = parse_all(&text, 10000);
	strbuf_release(&text);
	for (uint32_t i = 0; i < 100000; i++) {
		add_job(&text, rnd(1000), i);
		if (i % 10000 == 9999) {
			ca_ad **part = parse_all(&text, 10000);
			if (part == NULL)
				goto out;
			if (jobs == NULL)
				jobs = ca_xcalloc(100000, sizeof *jobs);
			memcpy(jobs + i - 9999, part, 10000 * sizeof *part);
			free(part);
			strbuf_reset(&text);
		}
	}
	if (slots == NULL || jobs == NULL)
		goto out;
	t = run(&cx, jobs, 100000, slots, 10000, 0, &hits, &ncl);
	printf("match 100000 jobs (%u autoclusters) x 10000 slots: %.2f s (target < %.0f s); "
	    "%" PRIu64 " matches\n", ncl, t, TARGET_BIG, hits);
out:
	fflush(stdout);
	free_all(slots, slots ? 10000 : 0);
	free_all(jobs, jobs ? 100000 : 0);
	strbuf_release(&text);
	ca_ctx_free(&cx);
}
