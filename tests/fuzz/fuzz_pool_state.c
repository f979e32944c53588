/* fuzz_pool_state.c - libFuzzer harness for a pool's state directory: the
 * files of the committed generation (clock, cluster, acct.ads, jobs.ads,
 * slots/node.ads, from the input split at lines "%%") read back, a cycle
 * run and committed; anything may be refused, nothing may crash. */
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

static char state[128];

#define S(x) x, strlen(x)

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	ca_diag err;
	(void)argc;
	(void)argv;
	make_pool("UID_DOMAIN = example.org\n",
	    "Name = \"n1.example.org\"\nCpus = 2\nMemory = 4096\nDisk = 100000\n");
	snprintf(state, sizeof state, "%s/st", dir);
	ca_pool *p = ca_pool_new();
	if (ca_pool_dir_init(dir, state, 1700006400, p, &err) < 0)
		abort();
	ca_pool_free(p);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "clock", "cluster", "acct.ads", "jobs.ads",
	    "slots/node.ads" };
	char gen[192];
	const char *s = (const char *)data, *end = s + size;
	ca_pool_dir d;
	ca_diag err;

	/* back to generation 0, with the input's files */
	char cmd[384];
	snprintf(cmd, sizeof cmd, "rm -rf %s/gen.[1-9]* %s/log/*", state, state);
	if (system(cmd) != 0)
		abort();
	put(state, "current", S("0\n"));
	snprintf(gen, sizeof gen, "%s/gen.0", state);
	unlink(strcat(strcpy(cmd, gen), "/.logsize"));
	for (size_t i = 0; i < 5; i++) {
		const char *sep = memmem(s, (size_t)(end - s), "\n%%\n", 4);
		const char *e = sep ? sep + 1 : end;
		put(gen, names[i], s, (size_t)(e - s));
		s = sep ? sep + 4 : end;
	}
	ca_pool *p = ca_pool_new();
	if (ca_pool_dir_open(&d, state, &err) == 0 && ca_pool_dir_load(&d, p, &err) == 0) {
		d.sync = false;
		int64_t now = ca_pool_clock(p) + 300;
		ca_pool_stats st;
		if (now > ca_pool_clock(p) && ca_pool_clock(p) < ((int64_t)1 << 40) &&
		    ca_pool_dir_begin(&d, &err) == 0 &&
		    ca_pool_cycle(p, now, NULL, 0, NULL, 0, &d.sinks, &st, &err) == 0)
			(void)ca_pool_dir_commit(&d, p, d.gen + 1, NULL, 0, NULL, 0, &err);
	}
	ca_pool_dir_close(&d);
	ca_pool_free(p);
	return 0;
}
