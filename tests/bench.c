/* bench.c - `make bench`: parse throughput of condor_status -long text and
 * evaluation rate of a job's Requirements against a generated slot pool. */

/*
 * The pool is 20,000 static slot ads shaped like `condor_status -long` output
 * of HTCondor execute nodes (desktops, dedicated nodes, GPU and ARM nodes;
 * idle, claimed and owner slots), generated in memory from a fixed seed so
 * every run measures the same text. Timings use CLOCK_MONOTONIC, best of 3.
 * The evaluation loop runs the Requirements in its flat form (ca_prog) and
 * prefetches, in stages some slots ahead, the attributes it reads
 * (ca_ad_prefetch, for any loop over a pool held in memory); the tree
 * evaluator's figure (ca_eval_expr, same prefetching) and the 64-slot
 * figure (everything in cache) are for comparison. `bench lib` prints the
 * library's figures only, `bench whole` the programs' whole-process figures
 * on the realistic corpus only, `bench replay` the pool replay's week only
 * (BENCH_REPLAY_CORES, BENCH_REPLAY_JOBS and BENCH_REPLAY_DAYS shrink it). Each program's figures come from its
 * tests/bench_<program>.c (bench_cron(), bench_match(), ..., bench_pool()) when linked in,
 * and the whole-process figures from tests/bench_whole.c.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "classad.h"
#include "condor.h"

#define NSLOTS		20000
#define NOW		INT64_C(1700000000)
#define RUNS		3
#define EVAL_SECONDS	0.3	/* aim for at least this long per eval run */
#define RESET_EVERY	1024	/* evaluations between scratch resets */
#define HOT_SLOTS	64	/* a pool small enough to stay in the CPU caches */

#define TARGET_PARSE_MBS	250.0
#define TARGET_EVAL_MS		5.0

/* The programs' own figures, from tests/bench_<program>.c when linked in. */
void bench_cron(void) __attribute__((weak));
void bench_match(void) __attribute__((weak));
void bench_userprio(void) __attribute__((weak));
void bench_startd(void) __attribute__((weak));
void bench_negotiate(void) __attribute__((weak));
void bench_pool(void) __attribute__((weak));
void bench_whole(void) __attribute__((weak));
void bench_replay(void) __attribute__((weak));

static const char job_text[] =
    "Args = \"-i input.dat -o output.dat\"\n"
    "ClusterId = 4242\n"
    "Cmd = \"/home/alice/sim/run_sim\"\n"
    "CurrentTime = time()\n"
    "DiskUsage = 250\n"
    "Iwd = \"/home/alice/sim\"\n"
    "JobPrio = 0\n"
    "JobStatus = 1\n"
    "JobUniverse = 5\n"
    "MyType = \"Job\"\n"
    "Owner = \"alice\"\n"
    "ProcId = 0\n"
    "QDate = 1699990000\n"
    "Rank = TARGET.Mips\n"
    "RequestCpus = 1\n"
    "RequestDisk = DiskUsage\n"
    "RequestMemory = 2048\n"
    "Requirements = (TARGET.Arch == \"X86_64\") && (TARGET.OpSys == \"LINUX\") && "
    "(TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && "
    "(TARGET.Cpus >= RequestCpus) && (TARGET.HasFileTransfer)\n"
    "TargetType = \"Machine\"\n"
    "User = \"alice@example.org\"\n"
    "WantRemoteIO = true\n"
    "\n";

/* xorshift64*: a fixed seed makes the generated pool the same on every run. */
static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint32_t
rnd(uint32_t n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * UINT64_C(0x2545f4914f6cdd1d)) >> 32) % n;
}

static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct machine {
	const char *kind;	/* desktop, node, gpu, arm */
	char host[64];
	char ip[20];
	const char *arch, *opsys, *opsysver, *opsysname;
	int majorver, ncpus, nslots, memory, mips, kflops;
	long long disk;
};

static const char *const users[] = {
	"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"
};
static const char *const versions[] = {
	"$CondorVersion: 10.0.9 2023-09-28 BuildID: 678151 PackageID: 10.0.9-1 $",
	"$CondorVersion: 10.9.0 2023-09-28 BuildID: 678228 PackageID: 10.9.0-1 $",
	"$CondorVersion: 23.0.1 2023-10-31 BuildID: 691011 PackageID: 23.0.1-1 $"
};

static void
new_machine(struct machine *m, int i)
{
	static const int desk_cpus[] = { 4, 8, 8, 12 };
	static const int node_cpus[] = { 16, 32, 48, 64 };
	uint32_t r = rnd(100);

	memset(m, 0, sizeof *m);
	m->arch = "X86_64";
	m->opsys = "LINUX";
	m->opsysver = "AlmaLinux9";
	m->opsysname = "AlmaLinux";
	m->majorver = 9;
	if (r < 30) {
		m->kind = "desktop";
		snprintf(m->host, sizeof m->host, "ws%04d.cs.example.org", i);
		m->ncpus = desk_cpus[rnd(4)];
		m->memory = m->ncpus * (2048 + 1024 * (int)rnd(3));
		if (rnd(5) == 0) {
			m->opsys = "WINDOWS";
			m->opsysver = "WINDOWS1000";
			m->opsysname = "Windows10";
			m->majorver = 1000;
		} else {
			m->opsysver = "Ubuntu22";
			m->opsysname = "Ubuntu";
			m->majorver = 22;
		}
	} else if (r < 85) {
		m->kind = "node";
		snprintf(m->host, sizeof m->host, "node%04d.hpc.example.org", i);
		m->ncpus = node_cpus[rnd(4)];
		m->memory = m->ncpus * 4096;
		if (rnd(3) == 0) {
			m->opsysver = "Rocky8";
			m->opsysname = "Rocky";
			m->majorver = 8;
		}
	} else if (r < 93) {
		m->kind = "gpu";
		snprintf(m->host, sizeof m->host, "gpu%03d.hpc.example.org", i);
		m->ncpus = 32;
		m->memory = 32 * 8192;
	} else {
		m->kind = "arm";
		snprintf(m->host, sizeof m->host, "arm%03d.hpc.example.org", i);
		m->arch = "aarch64";
		m->ncpus = 80;
		m->memory = 80 * 2048;
	}
	m->nslots = m->ncpus;
	m->disk = (long long)m->ncpus * (20000000 + (long long)rnd(40000000));
	m->mips = 15000 + (int)rnd(20000);
	m->kflops = 1000000 + (int)rnd(2000000);
	snprintf(m->ip, sizeof m->ip, "10.%u.%u.%u", 1 + rnd(3), rnd(256), 1 + rnd(254));
}

/* One slot ad in long format, attributes sorted by name as condor_status
 * prints them. */
static void
add_slot(strbuf *sb, const struct machine *m, int slot)
{
	int state = (int)rnd(10);	/* 0-4 unclaimed, 5-8 claimed, 9 owner */
	int desktop = strcmp(m->kind, "desktop") == 0;
	int owner = state == 9 && desktop;	/* only desktops have owners */
	int claimed = state >= 5 && state <= 8;
	int kbd = desktop ? (int)rnd(20000) : 100000 + (int)rnd(900000);
	int cpus = m->ncpus / m->nslots;
	int mem = m->memory / m->nslots;
	long long disk = m->disk / m->nslots;
	double load = claimed ? 0.9 + rnd(20) / 100.0 : rnd(5) / 100.0;
	const char *user = users[rnd(sizeof users / sizeof users[0])];
	long entered = (long)(NOW - 60 - rnd(86400));

	strbuf_addf(sb, "Activity = \"%s\"\n", claimed ? "Busy" : "Idle");
	strbuf_addf(sb, "AddressV1 = \"{[ p=\\\"primary\\\"; a=\\\"%s\\\"; port=9618; "
	    "n=\\\"Internet\\\"; alias=\\\"%s\\\"; spid=\\\"startd_2281_e1a5\\\"; noUDP=true; ], }\"\n",
	    m->ip, m->host);
	strbuf_addf(sb, "Arch = \"%s\"\n", m->arch);
	if (claimed)
		strbuf_addf(sb, "ClientMachine = \"submit%u.example.org\"\n", 1 + rnd(3));
	strbuf_addf(sb, "CondorLoadAvg = %.2f\n", claimed ? load : 0.0);
	strbuf_addf(sb, "CondorVersion = \"%s\"\n", versions[rnd(3)]);
	strbuf_addf(sb, "ConsoleIdle = %d\n", kbd);
	strbuf_addf(sb, "CpuBusy = ((LoadAvg - CondorLoadAvg) >= 0.5)\n");
	strbuf_addf(sb, "Cpus = %d\n", cpus);
	strbuf_addf(sb, "CurrentRank = 0.0\n");
	strbuf_addf(sb, "DetectedCpus = %d\n", m->ncpus);
	strbuf_addf(sb, "DetectedMemory = %d\n", m->memory);
	strbuf_addf(sb, "Disk = %lld\n", disk);
	strbuf_addf(sb, "EnteredCurrentActivity = %ld\n", entered);
	strbuf_addf(sb, "EnteredCurrentState = %ld\n", entered);
	strbuf_addf(sb, "FileSystemDomain = \"example.org\"\n");
	if (strcmp(m->kind, "gpu") == 0) {
		strbuf_addf(sb, "GPUs = 1\n");
		strbuf_addf(sb, "GPUs_DeviceName = \"NVIDIA A100-SXM4-40GB\"\n");
	}
	strbuf_addf(sb, "HasFileTransfer = %s\n", rnd(50) == 0 ? "false" : "true");
	strbuf_addf(sb, "HasJobDeferral = true\n");
	strbuf_addf(sb, "HasReconnect = true\n");
	strbuf_addf(sb, "IsWakeAble = false\n");
	if (claimed) {
		strbuf_addf(sb, "JobId = \"%u.%u\"\n", 1000 + rnd(9000), rnd(100));
		strbuf_addf(sb, "JobStart = %ld\n", entered);
	}
	strbuf_addf(sb, "KeyboardIdle = %d\n", kbd);
	strbuf_addf(sb, "KFlops = %d\n", m->kflops);
	strbuf_addf(sb, "LoadAvg = %.2f\n", load);
	strbuf_addf(sb, "Machine = \"%s\"\n", m->host);
	strbuf_addf(sb, "Memory = %d\n", mem);
	strbuf_addf(sb, "Mips = %d\n", m->mips);
	strbuf_addf(sb, "MyAddress = \"<%s:9618?addrs=%s-9618&alias=%s&noUDP&sock=startd_2281_e1a5>\"\n",
	    m->ip, m->ip, m->host);
	strbuf_addf(sb, "MyCurrentTime = %" PRId64 "\n", NOW);
	strbuf_addf(sb, "MyType = \"Machine\"\n");
	strbuf_addf(sb, "Name = \"slot%d@%s\"\n", slot, m->host);
	strbuf_addf(sb, "OpSys = \"%s\"\n", m->opsys);
	strbuf_addf(sb, "OpSysAndVer = \"%s\"\n", m->opsysver);
	strbuf_addf(sb, "OpSysMajorVer = %d\n", m->majorver);
	strbuf_addf(sb, "OpSysName = \"%s\"\n", m->opsysname);
	strbuf_addf(sb, "Rank = %s\n", desktop ? "0.0" :
	    "(TARGET.Owner == \"alice\") * 10 + (TARGET.JobUniverse == 5)");
	if (claimed) {
		strbuf_addf(sb, "RemoteOwner = \"%s@example.org\"\n", user);
		strbuf_addf(sb, "RemoteUser = \"%s@example.org\"\n", user);
	}
	strbuf_addf(sb, "Requirements = START\n");
	strbuf_addf(sb, "SlotID = %d\n", slot);
	strbuf_addf(sb, "SlotType = \"Static\"\n");
	if (desktop)
		strbuf_addf(sb, "Start = ((KeyboardIdle > 15 * 60) && (((LoadAvg - CondorLoadAvg) <= 0.3) "
		    "|| (State != \"Unclaimed\" && State != \"Owner\")))\n");
	else
		strbuf_addf(sb, "Start = (TARGET.RequestMemory <= Memory) && (TARGET.JobUniverse =!= 7)\n");
	strbuf_addf(sb, "State = \"%s\"\n", claimed ? "Claimed" : owner ? "Owner" : "Unclaimed");
	strbuf_addf(sb, "TargetType = \"Job\"\n");
	strbuf_addf(sb, "TotalCpus = %d.0\n", m->ncpus);
	strbuf_addf(sb, "TotalDisk = %lld\n", m->disk);
	strbuf_addf(sb, "TotalMemory = %d\n", m->memory);
	strbuf_addf(sb, "TotalSlots = %d\n", m->nslots);
	strbuf_addf(sb, "UidDomain = \"example.org\"\n");
	strbuf_addf(sb, "\n");
}

/* The pool as long-format text, NSLOTS ads. */
static void
generate(strbuf *sb)
{
	struct machine m;
	int n = 0, i, s;

	for (i = 1; n < NSLOTS; i++) {
		new_machine(&m, i);
		for (s = 1; s <= m.nslots && n < NSLOTS; s++, n++)
			add_slot(sb, &m, s);
	}
}

/* Read every ad of text; keep the first max in ads (if not NULL), free the
 * others. Returns the number read, or -1 after reporting an error. */
static long
read_all(const char *text, size_t len, ca_ad **ads, long max)
{
	ca_reader *r;
	ca_diag err;
	ca_ad *ad;
	long n = 0;
	int rc;

	memset(&err, 0, sizeof err);
	r = ca_reader_open_mem("<pool>", text, len, CA_FMT_LONG, &err);
	if (r == NULL) {
		fprintf(stderr, "bench: cannot open the pool: %s\n", err.msg);
		return -1;
	}
	while ((rc = ca_reader_next(r, &ad, &err)) == 1) {
		if (ads != NULL && n < max)
			ads[n] = ad;
		else
			ca_ad_free(ad);
		n++;
	}
	ca_reader_close(r);
	if (rc < 0) {
		fprintf(stderr, "bench: <pool>:%d:%d: %s\n", err.line, err.col, err.msg);
		return -1;
	}
	return n;
}

static int
bench_parse(const strbuf *pool)
{
	double best = 1e30, t;
	long n = 0;
	int i;

	for (i = 0; i < RUNS; i++) {
		t = now_seconds();
		n = read_all(pool->buf, pool->len, NULL, 0);
		t = now_seconds() - t;
		if (n != NSLOTS) {
			if (n >= 0)
				fprintf(stderr, "bench: read %ld ads instead of %d\n", n, NSLOTS);
			return -1;
		}
		if (t < best)
			best = t;
	}
	printf("parse long: %.1f MB/s, %.0f ads/s (target >= %.0f MB/s)\n",
	    (double)pool->len / 1e6 / best, (double)n / best, TARGET_PARSE_MBS);
	return 0;
}

/* TARGET attributes the Requirements reads, found once (ca_expr_refs). */
#define AHEAD 6		/* ads between the prefetch stages */
static const ca_name *refs[64];
static size_t nrefs;

static void
collect_ref(void *arg, const ca_name *name, int side)
{
	(void)arg;
	if (side == CA_REF_OTHER && nrefs < sizeof refs / sizeof refs[0])
		refs[nrefs++] = name;
}

/* passes x n evaluations of req (in its flat form prog, or the tree when
 * prog is NULL) against slots[0..n); returns the seconds taken and sets
 * *matches to the slots for which it was true per pass. */
static double
eval_run(ca_ctx *cx, const ca_expr *req, const ca_prog *prog, const ca_ad *job,
    ca_ad **slots, int n, long passes, long *matches)
{
	double t = now_seconds();
	ca_value v;
	long p, k = 0, m = 0;
	int i, s;

	for (p = 0; p < passes; p++) {
		for (i = 0; i < n; i++) {
			/* what a loop over a pool in memory can do: fetch what the
			 * expression will read, in stages, some slots ahead */
			for (s = 0; s < 3; s++)
				if (i + (3 - s) * AHEAD < n)
					ca_ad_prefetch(slots[i + (3 - s) * AHEAD], refs, nrefs, s);
			v = prog ? ca_prog_eval(cx, prog, job, slots[i]) :
			    ca_eval_expr(cx, req, job, slots[i]);
			if (v.kind == CA_BOOL && v.u.b)
				m++;
			if (++k % RESET_EVERY == 0)
				ca_arena_reset(&cx->scratch);
		}
	}
	ca_arena_reset(&cx->scratch);
	*matches = m / passes;
	return now_seconds() - t;
}

/* Best of RUNS, in evaluations per second. */
static double
eval_rate(ca_ctx *cx, const ca_expr *req, const ca_prog *prog, const ca_ad *job,
    ca_ad **slots, int n, long *matches)
{
	double t, best = 1e30;
	long passes;
	int i;

	t = eval_run(cx, req, prog, job, slots, n, 1, matches);	/* warm up, calibrate */
	passes = (long)(EVAL_SECONDS / (t > 1e-6 ? t : 1e-6)) + 1;
	for (i = 0; i < RUNS; i++) {
		t = eval_run(cx, req, prog, job, slots, n, passes, matches);
		if (t < best)
			best = t;
	}
	return (double)passes * n / best;
}

static int
bench_eval(const strbuf *pool)
{
	ca_ad **slots, *job = NULL;
	const ca_expr *req;
	ca_ctx cx;
	ca_arena progmem = { 0 };
	ca_prog *prog;
	double rate, tree, hot;
	long matches, tree_matches, hot_matches;
	int i, ok = -1;

	slots = ca_xcalloc(NSLOTS, sizeof *slots);
	if (read_all(pool->buf, pool->len, slots, NSLOTS) != NSLOTS)
		goto out;
	if (read_all(job_text, sizeof job_text - 1, &job, 1) != 1)
		goto out;
	req = ca_ad_lookup(job, "Requirements");
	if (req == NULL) {
		fprintf(stderr, "bench: the job ad has no Requirements\n");
		goto out;
	}
	ca_ctx_init(&cx);
	cx.now = NOW;
	ca_expr_refs(req, job, CA_REFS_DEEP, collect_ref, NULL);
	prog = ca_prog_new(&progmem, req);
	rate = eval_rate(&cx, req, prog, job, slots, NSLOTS, &matches);
	tree = eval_rate(&cx, req, NULL, job, slots, NSLOTS, &tree_matches);
	hot = eval_rate(&cx, req, prog, job, slots, HOT_SLOTS, &hot_matches);
	ca_ctx_free(&cx);
	ca_arena_free(&progmem);
	if (tree_matches != matches) {
		fprintf(stderr, "bench: the flat form matched %ld slots, the tree %ld\n",
		    matches, tree_matches);
		goto out;
	}
	printf("eval Requirements: %.2f M evals/s (target >= %.0f M/s); %ld of %d slots match\n",
	    rate / 1e6, TARGET_EVAL_MS, matches, NSLOTS);
	printf("eval Requirements, tree evaluator: %.2f M evals/s; %d slots in cache: %.2f M evals/s (for comparison)\n",
	    tree / 1e6, HOT_SLOTS, hot / 1e6);
	ok = 0;
out:
	for (i = 0; i < NSLOTS; i++)
		if (slots[i] != NULL)
			ca_ad_free(slots[i]);
	free(slots);
	if (job != NULL)
		ca_ad_free(job);
	return ok;
}

int
main(int argc, char **argv)
{
	strbuf pool = STRBUF_INIT;
	int rc = 0;

	if (argc > 1 && strcmp(argv[1], "whole") == 0) {
		/* `bench whole`: the programs' whole-process figures only */
		if (bench_whole != NULL)
			bench_whole();
		ca_intern_cleanup();
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "replay") == 0) {
		/* `bench replay`: the pool replay's figures only */
		if (bench_replay != NULL)
			bench_replay();
		ca_intern_cleanup();
		return 0;
	}
	/* the programs first, while this process is small: a child forked
	 * from it starts with its resident memory, which the child's peak
	 * (what the whole-process figures read) would then count */
	bool lib_only = argc > 1 && strcmp(argv[1], "lib") == 0;
	if (bench_whole != NULL && !lib_only) {
		bench_whole();
		fflush(stdout);
	}
	generate(&pool);
	printf("pool: %d slot ads, %.1f MB of condor_status -long text\n",
	    NSLOTS, (double)pool.len / 1e6);
	fflush(stdout);
	if (bench_parse(&pool) < 0)
		rc = 1;
	else if (bench_eval(&pool) < 0)
		rc = 1;
	fflush(stdout);
	strbuf_release(&pool);
	fflush(stdout);
	void (*more[])(void) = { bench_cron, bench_match, bench_userprio, bench_startd,
	    bench_negotiate, bench_pool };
	/* `bench lib`: the library's figures only */
	for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
		if (more[i] != NULL && !lib_only) {
			more[i]();
			fflush(stdout);
		}
	ca_intern_cleanup();
	return rc;
}
