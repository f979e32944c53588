/* bench_negotiate.c - the negotiator's figures for `make bench`: one
 * negotiation cycle of 10,000 slots against 100,000 idle jobs of 50 submitters.
 *
 * bench_negotiate() prints the seconds a run takes, its peak memory
 * (getrusage ru_maxrss) and the matches made per second, with the targets
 * (under 5 s and under 1 GB). The pool is generated from a fixed seed as
 * condor_status -long text: desktops and dedicated nodes whose RANK prefers
 * one submitter's jobs, a fifth of the slots busy; the jobs as condor_q
 * -long text from 1,000 templates (submitter, cores, memory), so they fall
 * into about 1,000 autoclusters; the accountant gives the 50 submitters
 * effective priorities from 0.5 to 49.5. The run is what negotiate does
 * with that text: read the ads one at a time and store them, run the cycle,
 * make every match record; the reading and the cycle are also timed apart.
 * It runs in a child process whose peak memory starts from its own start,
 * not from whatever ran before it in the benchmark program. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "condor.h"
#include "classad.h"

void bench_negotiate(void);

#define NOW		INT64_C(1700000000)
#define NSLOTS		10000
#define NJOBS		100000
#define NUSERS		50
#define NTEMPLATES	1000
#define TARGET_SECONDS	5.0
#define TARGET_MB	1024.0

static uint64_t seed = UINT64_C(0x853c49e6748fea9b);

static uint32_t
rnd(uint32_t n)
{
	return bench_rnd(&seed, n);
}

/* Resident memory now, in MB (Linux /proc; 0 elsewhere). */
static double
rss_mb(void)
{
	FILE *fp = fopen("/proc/self/statm", "r");
	long size = 0, res = 0;

	if (fp == NULL)
		return 0;
	if (fscanf(fp, "%ld %ld", &size, &res) != 2)
		res = 0;
	fclose(fp);
	return (double)res * (double)sysconf(_SC_PAGESIZE) / 1048576.0;
}

/* Start the peak memory from here: give back the heap the benchmarks
 * before this one freed (the child inherits it), then reset the kernel's
 * high-water mark of resident memory (Linux: clear_refs 5), which is what
 * getrusage's ru_maxrss reports. */
static void
reset_peak(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
	int fd = open("/proc/self/clear_refs", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "5", 1) != 1)
			fprintf(stderr, "bench_negotiate: cannot reset the peak memory\n");
		close(fd);
	}
}

static void
add_slot(strbuf *sb, int i)
{
	static const int mem[] = { 2048, 4096, 8192, 16384 };
	int desktop = rnd(10) < 3;
	int busy = rnd(5) == 0;
	int fav = (int)rnd(NUSERS);

	strbuf_addf(sb, "Activity = \"%s\"\n", busy ? "Busy" : "Idle");
	strbuf_addf(sb, "Arch = \"%s\"\n", rnd(20) ? "X86_64" : "aarch64");
	strbuf_addf(sb, "Cpus = %d\n", 1 + (int)rnd(2));
	strbuf_addf(sb, "CurrentRank = %s\n", busy && !desktop ? "1.0" : "0.0");
	strbuf_addf(sb, "Disk = %u\n", 10000000 + rnd(50000000));
	strbuf_addf(sb, "HasFileTransfer = %s\n", rnd(50) ? "true" : "false");
	strbuf_addf(sb, "KeyboardIdle = %d\n", desktop ? (int)rnd(3000) : 500000);
	strbuf_addf(sb, "KFlops = %u\n", 1000000 + rnd(2000000));
	strbuf_addf(sb, "LoadAvg = %.2f\n", rnd(10) / 20.0);
	strbuf_addf(sb, "CondorLoadAvg = 0.0\n");
	strbuf_addf(sb, "Machine = \"host%05d.example.org\"\n", i / 4);
	strbuf_addf(sb, "Memory = %d\n", mem[rnd(4)]);
	strbuf_addf(sb, "MyType = \"Machine\"\n");
	strbuf_addf(sb, "Name = \"slot%d@host%05d.example.org\"\n", i % 4 + 1, i / 4);
	strbuf_addf(sb, "OpSys = \"LINUX\"\n");
	if (desktop)
		strbuf_addf(sb, "Rank = 0.0\n");
	else
		strbuf_addf(sb, "Rank = (TARGET.Owner == \"u%03d\") * 10 + (TARGET.JobUniverse == 5)\n",
		    fav);
	strbuf_addf(sb, "Requirements = START\n");
	if (desktop)
		strbuf_addf(sb, "START = (KeyboardIdle > 15 * 60) && (LoadAvg - CondorLoadAvg <= 0.3)\n");
	else
		strbuf_addf(sb, "START = (TARGET.RequestMemory <= Memory) && "
		    "(TARGET.RequestCpus <= Cpus) && (TARGET.JobUniverse =!= 7)\n");
	strbuf_addf(sb, "SlotID = %d\n", i % 4 + 1);
	strbuf_addf(sb, "State = \"%s\"\n", busy ? "Claimed" : "Unclaimed");
	if (busy) {
		int u = (int)rnd(NUSERS);
		strbuf_addf(sb, "RemoteUser = \"u%03d@example.org\"\n", u);
		strbuf_addf(sb, "RemoteOwner = \"u%03d@example.org\"\n", u);
		strbuf_addf(sb, "JobId = \"%u.0\"\n", 1 + rnd(1000));
		strbuf_addf(sb, "TotalJobRunTime = %u\n", rnd(86400));
	}
	strbuf_addf(sb, "TargetType = \"Job\"\n\n");
}

/* Job n of template t: the template decides everything a match looks at. */
static void
add_job(strbuf *sb, uint32_t t, uint32_t n)
{
	static const int cpus[] = { 1, 1, 1, 2, 2 };
	uint32_t user = t % NUSERS, cpu = (t / NUSERS) % 5, memi = t / (NUSERS * 5);

	strbuf_addf(sb, "Args = \"-i in%u.dat -o out%u.dat\"\n", n, n);
	strbuf_addf(sb, "ClusterId = %u\n", 1000 + n / 100);
	strbuf_addf(sb, "Cmd = \"/home/u%03u/sim/run\"\n", user);
	strbuf_addf(sb, "DiskUsage = %u\n", 1000 + 100 * (t % 7));
	strbuf_addf(sb, "ImageSize = %u\n", 1000 + 100 * (t % 7));
	strbuf_addf(sb, "Iwd = \"/home/u%03u/sim/run%u\"\n", user, n);
	strbuf_addf(sb, "JobPrio = %u\n", n % 3);
	strbuf_addf(sb, "JobStatus = 1\n");
	strbuf_addf(sb, "JobUniverse = 5\n");
	strbuf_addf(sb, "MyType = \"Job\"\n");
	strbuf_addf(sb, "Owner = \"u%03u\"\n", user);
	strbuf_addf(sb, "ProcId = %u\n", n % 100);
	strbuf_addf(sb, "QDate = %" PRId64 "\n", NOW - 100000 + n);
	strbuf_addf(sb, "Rank = TARGET.KFlops / 1000 + TARGET.Memory / 1024\n");
	strbuf_addf(sb, "RequestCpus = %d\n", cpus[cpu]);
	strbuf_addf(sb, "RequestDisk = DiskUsage\n");
	strbuf_addf(sb, "RequestMemory = %u\n", 512 + 1024 * memi);
	strbuf_addf(sb, "Requirements = (TARGET.Arch == \"X86_64\") && (TARGET.OpSys == \"LINUX\") && "
	    "(TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && "
	    "(TARGET.Cpus >= RequestCpus) && (TARGET.HasFileTransfer)\n");
	strbuf_addf(sb, "TargetType = \"Machine\"\n");
	strbuf_addf(sb, "User = \"u%03u@example.org\"\n", user);
	strbuf_addf(sb, "WantRemoteIO = true\n\n");
}

/* Parse the ads of text one at a time into the negotiator; returns how
 * many, and adds the seconds spent parsing to *tp. */
static long
feed(ca_neg *neg, const strbuf *text, bool slots, double *tp)
{
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("<bench>", text->buf, text->len, CA_FMT_LONG, &err);
	ca_ad *ad;
	long n = 0;
	int rc;

	if (r == NULL)
		return -1;
	for (;;) {
		double t = bench_seconds();
		rc = ca_reader_next(r, &ad, &err);
		*tp += bench_seconds() - t;
		if (rc != 1)
			break;
		if (slots)
			ca_neg_add_slot(neg, ad);
		else
			ca_neg_add_job(neg, ad);
		n++;
	}
	ca_reader_close(r);
	if (rc < 0) {
		fprintf(stderr, "bench_negotiate: %s:%d: %s\n", err.file, err.line, err.msg);
		return -1;
	}
	return n;
}

static int
run(void)
{
	strbuf text = STRBUF_INIT;
	ca_acct acct;
	ca_ctx cx;
	ca_diag err;
	double base, t;

	reset_peak();
	base = rss_mb();

	/* the accountant: submitter k has real priority 0.5 + k */
	for (int u = 0; u < NUSERS; u++)
		strbuf_addf(&text, "Name = \"u%03d@example.org\"\nPriority = %d.5\n"
		    "PriorityFactor = 1.0\nLastUpdate = %" PRId64 "\n\n", u, u, NOW);
	ca_ctx_init(&cx);
	cx.now = NOW;
	ca_acct_init(&acct);
	ca_reader *r = ca_reader_open_mem("<acct>", text.buf, text.len, CA_FMT_LONG, &err);
	ca_ad *ad;
	while (r != NULL && ca_reader_next(r, &ad, &err) == 1)
		if (ca_acct_add_ad(&acct, ad, &cx, NOW, &err) < 0)
			fprintf(stderr, "bench_negotiate: %s\n", err.msg);
	ca_reader_close(r);

	/* the ads as negotiate reads them: parsed one at a time and stored */
	double t0 = bench_seconds(), tp = 0;
	ca_neg *neg = ca_neg_new(&cx, &acct);
	strbuf_reset(&text);
	for (int i = 0; i < NSLOTS; i++)
		add_slot(&text, i);
	if (feed(neg, &text, true, &tp) != NSLOTS)
		return 1;
	for (uint32_t i = 0; i < NJOBS; i += 10000) {
		strbuf_reset(&text);
		for (uint32_t k = i; k < i + 10000; k++)
			add_job(&text, rnd(NTEMPLATES), k);
		if (feed(neg, &text, false, &tp) != 10000)
			return 1;
	}
	strbuf_release(&text);
	double tread = bench_seconds() - t0;
	t = bench_seconds();
	size_t matches = ca_neg_run(neg);
	for (size_t i = 0; i < matches; i++)
		ca_ad_free(ca_neg_match_ad(neg, i));
	t = bench_seconds() - t;
	double total = tread + t;

	ca_neg_stats st;
	ca_neg_get_stats(neg, &st);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double peak = (double)ru.ru_maxrss / 1024.0;
	printf("negotiate %d slots x %d jobs (%zu submitters, %zu autoclusters): %.2f s "
	    "(target < %.0f s): reading %.2f s (parsing %.2f s), cycle %.2f s\n",
	    NSLOTS, NJOBS, st.submitters, st.autoclusters, total, TARGET_SECONDS, tread, tp, t);
	printf("negotiate: %zu matches in %d pie spins, %.0f matches/s over the whole run "
	    "(%.0f/s in the cycle); peak memory %.0f MB (target < %.0f MB; %.0f MB of it "
	    "resident before)\n", matches, st.spins, total > 0 ? (double)matches / total : 0,
	    t > 0 ? (double)matches / t : 0, peak, TARGET_MB, base);
	fflush(stdout);
	ca_neg_free(neg);
	ca_acct_free(&acct);
	ca_ctx_free(&cx);
	return 0;
}

void
bench_negotiate(void)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("bench_negotiate: fork");
		return;
	}
	if (pid == 0) {
		int rc = run();
		fflush(stdout);
		_exit(rc);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fprintf(stderr, "bench_negotiate: the benchmark failed\n");
}
