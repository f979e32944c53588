/* fuzz_pool_intake.c - libFuzzer harness for what users hand a shared pool:
 * a submission (as a user, or as a queue super user) or a file of events,
 * checked by the intake and, when taken, run through a cycle. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "condor.h"
#include "fuzz_pool.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ca_pool *pool;
static int64_t now;
static int uses;

/* A pool of two machines, made afresh every few inputs. */
static void
fresh_pool(void)
{
	ca_diag err;
	char sd[128];

	ca_pool_free(pool);
	pool = ca_pool_new();
	if (ca_pool_configure(pool, dir, &err) < 0)
		abort();
	snprintf(sd, sizeof sd, "%s/startd/node.ads", dir);
	ca_reader *r = ca_reader_open(sd, CA_FMT_AUTO, &err);
	ca_ad *ads[4];
	size_t n = 0;
	while (n < 4 && ca_reader_next(r, &ads[n], &err) == 1)
		n++;
	ca_reader_close(r);
	now = 1700006400;
	if (ca_pool_add_machines(pool, 0, ads, n, now, &err) < 0)
		abort();
	ca_pool_set_clock(pool, now, 0);
	uses = 0;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	make_pool("UID_DOMAIN = example.org\nMAX_JOBS_PER_SUBMISSION = 50\n"
	    "GROUP_NAMES = g1\nGROUP_QUOTA_g1 = 1\n"
	    "PREEMPTION_REQUIREMENTS = RemoteUserPrio > SubmitterUserPrio * 1.2\n",
	    "Name = \"n1.example.org\"\nCpus = 2\nMemory = 4096\nDisk = 100000\n\n"
	    "Name = \"n2.example.org\"\nCpus = 4\nMemory = 8192\nDisk = 100000\n");
	fresh_pool();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ca_pool_file f = { 0 };
	ca_pool_stats st;
	ca_diag err;

	if (size < 1)
		return 0;
	int how = data[0] % 3;
	f.name = "fuzz.ads";
	if (how == 2)
		ca_pool_intake_events(pool, &f, (const char *)data + 1, size - 1);
	else
		ca_pool_intake_submit(pool, &f, (const char *)data + 1, size - 1, "alice", how == 1);
	if (f.state == CA_PF_REJECTED) {
		if (f.n != 0 || f.why.msg[0] == '\0')
			abort();
		return 0;
	}
	/* taken: a cycle with it, then a few more, must never fail */
	now += 60 + data[0] * 7;
	if (ca_pool_cycle(pool, now, how == 2 ? &f : NULL, how == 2, how != 2 ? &f : NULL,
	    how != 2, NULL, &st, &err) < 0) {
		fprintf(stderr, "cycle failed: %s\n", err.msg);
		abort();
	}
	ca_pool_file_clear(&f);
	for (int k = 0; k < 2; k++) {
		now += 300;
		if (ca_pool_cycle(pool, now, NULL, 0, NULL, 0, NULL, &st, &err) < 0)
			abort();
	}
	if (++uses >= 32)
		fresh_pool();
	return 0;
}
