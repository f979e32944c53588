/* bench_whole.c - whole-process figures of `make bench` on the realistic
 * corpus of tests/poolgen: each program run as a user runs it (tests/bench.c calls it). */

/*
 * The corpus is poolgen's: 20,000 slot ads as condor_status -long prints
 * them (partitionable and dynamic slots, policy expressions, version
 * strings, addresses, reals with all their digits) and job ads as
 * condor_q -long prints them (about 120 attributes each). Every program
 * runs as a separate process from bin/ (or $CA_BIN) with its input in a
 * file and its output to /dev/null; the figures are the wall time of the
 * whole process (reading, evaluating, writing), best of RUNS with the
 * slowest beside it (the machine's variance), and the peak resident
 * memory. Memory per held ad is the peak less that of the same run on a
 * one-ad input, divided by the ads the program holds at once (negotiate
 * holds the pool; the others stream their slots, so that their peak does
 * not grow with them).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

void bench_whole(void);

#define RUNS		3
#define NSLOTS		20000
#define NJOBS_MATCH	200	/* jobs matched against every slot */
#define NJOBS_HELD	20000	/* jobs in the queue negotiate holds */
#define NSLOTS_SMALL	2000	/* a pool for the whole queue: every idle job an
				 * autocluster of its own */
#define NOW		"1700000000"
#define ARGS_MAX	16

struct run {
	double wall;		/* seconds */
	long maxrss;		/* KB */
	int status;
};

static char dir[] = "/tmp/ca-bench-XXXXXX";
static char bindir[4096];	/* the programs */
static char tooldir[4096];	/* poolgen, beside the bench program */

/* The files of the corpus, in dir. */
enum { F_SLOTS, F_JOBS, F_FEW, F_ONE, F_ONEJOB, F_MATCHES, F_ACCT, F_ACCTLOCK, F_SMALL,
    F_SLIM, F_SLIMONE, F_N };
static const char *const fname[F_N] = { "slots.ads", "jobs.ads", "few.ads", "one.ads",
    "onejob.ads", "matches.ads", "acct.ads", "acct.ads.lock", "small.ads", "slim.ads",
    "slimone.ads" };
static char fpath[F_N][4200];

/* Run argv (argv[0] a program of bindir) with stdin from in (or
 * /dev/null), stdout to out (or /dev/null), stderr to /dev/null. */
static int
run(char *const argv[], const char *in, const char *out, struct run *r)
{
	char prog[4200];
	double t0 = bench_seconds();
	pid_t pid;

	snprintf(prog, sizeof prog, "%s/%s", bindir, argv[0]);
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		int i = open(in ? in : "/dev/null", O_RDONLY);
		int o = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open("/dev/null", O_WRONLY);
		if (i < 0 || o < 0 || e < 0)
			_exit(127);
		dup2(i, 0);
		dup2(o, 1);
		dup2(e, 2);
		execv(prog, argv);
		_exit(127);
	}
	struct rusage ru;
	int status;
	if (wait4(pid, &status, 0, &ru) != pid)
		return -1;
	r->wall = bench_seconds() - t0;
	r->maxrss = ru.ru_maxrss;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	return r->status == 127 || r->status >= 4 ? -1 : 0;
}

/* poolgen WHAT N > file */
static int
generate(const char *what, long n, const char *file)
{
	char prog[4200], count[32];
	pid_t pid;
	int status;

	snprintf(prog, sizeof prog, "%s/poolgen", tooldir);
	snprintf(count, sizeof count, "%ld", n);
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		int o = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (o < 0)
			_exit(127);
		dup2(o, 1);
		execl(prog, "poolgen", what, count, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return 0;
}

static double
file_mb(const char *file)
{
	struct stat st;

	return stat(file, &st) == 0 ? (double)st.st_size / 1e6 : 0;
}

/*
 * One program's figures: argv on the big input (in, or its file
 * arguments), argv_small on the one-ad input for the memory it needs
 * anyway. mb and ads say what it reads; held the ads it holds at once
 * (0: it streams).
 */
static void
measure(const char *label, char *const argv[], const char *in, char *const argv_small[],
    const char *in_small, double mb, long ads, long held)
{
	struct run r, best = { 1e30, 0, 0 }, small;
	double worst = 0;

	for (int i = 0; i < RUNS; i++) {
		if (run(argv, in, NULL, &r) < 0) {
			printf("%s: did not run (status %d)\n", label, r.status);
			return;
		}
		if (r.wall < best.wall)
			best = r;
		if (r.wall > worst)
			worst = r.wall;
	}
	if (run(argv_small, in_small, NULL, &small) < 0)
		small.maxrss = 0;
	printf("%-34s %6.2f s (slowest %5.2f)  %6.1f MB/s  %8.0f ads/s  peak %5.0f MB",
	    label, best.wall, worst, mb / best.wall, (double)ads / best.wall,
	    (double)best.maxrss / 1024);
	if (held > 0)
		printf(", %.1f KB per held ad", (double)(best.maxrss - small.maxrss) / (double)held);
	printf("\n");
}

void
bench_whole(void)
{
	const char *ca_bin = getenv("CA_BIN");
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n <= 0) {
		printf("whole process: cannot find poolgen beside the bench program\n");
		return;
	}
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	snprintf(tooldir, sizeof tooldir, "%s", self);
	snprintf(bindir, sizeof bindir, "%s", ca_bin ? ca_bin : "bin");
	if (mkdtemp(dir) == NULL) {
		printf("whole process: mkdtemp: %s\n", strerror(errno));
		return;
	}
	for (int i = 0; i < F_N; i++)
		snprintf(fpath[i], sizeof fpath[i], "%s/%s", dir, fname[i]);
	const char *slots = fpath[F_SLOTS], *jobs = fpath[F_JOBS], *few = fpath[F_FEW],
	    *one = fpath[F_ONE], *onejob = fpath[F_ONEJOB], *matches = fpath[F_MATCHES];
	if (generate("slots", NSLOTS, slots) < 0 || generate("jobs", NJOBS_HELD, jobs) < 0 ||
	    generate("jobs", NJOBS_MATCH, few) < 0 || generate("slots", 1, one) < 0 ||
	    generate("jobs", 1, onejob) < 0 ||
	    generate("slots", NSLOTS_SMALL, fpath[F_SMALL]) < 0 ||
	    generate("slim-slots", NSLOTS, fpath[F_SLIM]) < 0 ||
	    generate("slim-slots", 1, fpath[F_SLIMONE]) < 0) {
		printf("whole process: poolgen failed\n");
		goto out;
	}
	double smb = file_mb(slots), jmb = file_mb(jobs);
	printf("whole process, realistic corpus (tests/poolgen): %d slots (%.1f MB, %.0f bytes an ad), "
	    "%d jobs (%.1f MB, %.0f bytes an ad); best of %d\n", NSLOTS, smb, smb * 1e6 / NSLOTS, NJOBS_HELD, jmb,
	    jmb * 1e6 / NJOBS_HELD, RUNS);

	char *filt[] = { "classad-eval", "-w", "Memory > 4096", NULL };
	measure("classad-eval -w 'Memory > 4096'", filt, slots, filt, one, smb, NSLOTS, 0);
	char *filt1[] = { "classad-eval", "--parallel", "1", "-w", "Memory > 4096", NULL };
	measure("classad-eval -w, one process", filt1, slots, filt1, one, smb, NSLOTS, 0);
	char *copy[] = { "classad-eval", "-w", "true", NULL };
	measure("classad-eval -w true (copy)", copy, slots, copy, one, smb, NSLOTS, 0);
	char *jfilt[] = { "classad-eval", "-w", "JobStatus == 2", NULL };
	measure("classad-eval -w, job ads", jfilt, jobs, jfilt, onejob, jmb, NJOBS_HELD, 0);

	char *match[] = { "classad-match", "-b", (char *)few, (char *)slots, NULL };
	char *match1[] = { "classad-match", "-b", (char *)few, (char *)one, NULL };
	/* the slots stream: memory does not grow with them */
	measure("classad-match -b, 200 jobs", match, NULL, match1, NULL, smb, NSLOTS, 0);

	char *neg[] = { "negotiate", "--now", NOW, "--slots", (char *)slots, "--jobs",
	    (char *)few, NULL };
	char *neg1[] = { "negotiate", "--now", NOW, "--slots", (char *)one, "--jobs",
	    (char *)few, NULL };
	measure("negotiate, 200 jobs", neg, NULL, neg1, NULL, smb, NSLOTS, NSLOTS);
	/* slots of the smaller startd (52 attributes published, 47 an ad) */
	char *negl[] = { "negotiate", "--now", NOW, "--slots", fpath[F_SLIM], "--jobs",
	    (char *)few, NULL };
	char *negl1[] = { "negotiate", "--now", NOW, "--slots", fpath[F_SLIMONE], "--jobs",
	    (char *)few, NULL };
	measure("negotiate, 200 jobs, 47-attribute slots", negl, NULL, negl1, NULL,
	    file_mb(fpath[F_SLIM]), NSLOTS, NSLOTS);
	char *negj[] = { "negotiate", "--now", NOW, "--slots", (char *)one, "--jobs",
	    (char *)jobs, NULL };
	char *negj1[] = { "negotiate", "--now", NOW, "--slots", (char *)one, "--jobs",
	    (char *)onejob, NULL };
	measure("negotiate, 20,000 jobs held", negj, NULL, negj1, NULL, jmb, NJOBS_HELD,
	    NJOBS_HELD);
	char *negs[] = { "negotiate", "--now", NOW, "--slots", fpath[F_SMALL], "--jobs",
	    (char *)jobs, NULL };
	/* the autoclusters' matches: memory per job held, beside the row above */
	measure("negotiate, 20,000 jobs, 2,000 slots", negs, NULL, negj1, NULL, jmb, NJOBS_HELD,
	    NJOBS_HELD);

	/* the matches as Match events for the startd */
	struct run r;
	if (run(neg, NULL, matches, &r) < 0)
		printf("negotiate: no matches to step the startd with\n");
	char *sd[] = { "startd-step", "--now", "1700000100", "-e", (char *)matches,
	    (char *)slots, NULL };
	char *sd1[] = { "startd-step", "--now", "1700000100", (char *)one, NULL };
	measure("startd-step, matches as events", sd, NULL, sd1, NULL, smb, NSLOTS, 0);
	/* the same in one process: the row above uses every core (--parallel) */
	char *sdp[] = { "startd-step", "--parallel", "1", "--now", "1700000100", "-e",
	    (char *)matches, (char *)slots, NULL };
	measure("startd-step, one process", sdp, NULL, sd1, NULL, smb, NSLOTS, 0);

	const char *state = fpath[F_ACCT];
	char *up[] = { "userprio-calc", "--state", (char *)state, "--now", NOW, "--update",
	    (char *)slots, NULL };
	char *up1[] = { "userprio-calc", "--state", (char *)state, "--now", NOW, "--update",
	    (char *)one, NULL };
	measure("userprio-calc --update", up, NULL, up1, NULL, smb, NSLOTS, 0);
out:
	for (int i = 0; i < F_N; i++)
		unlink(fpath[i]);
	rmdir(dir);
}
