/* fuzz_pool.h - what the pool's harnesses share: a pool directory of their
 * own in /tmp (pool.config and one machine class), removed at exit. */
#ifndef FUZZ_POOL_H
#define FUZZ_POOL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char dir[64];

/* base/name holds len bytes of text. */
static void
put(const char *base, const char *name, const char *text, size_t len)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", base, name);
	if ((fp = fopen(path, "w")) == NULL)
		abort();
	fwrite(text, 1, len, fp);
	fclose(fp);
}

static void
cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		return;
}

/* The pool directory: config lines, then the machines of class "node". */
static void
make_pool(const char *config, const char *machines)
{
	char sd[128];

	setenv("TZ", "UTC", 1);
	snprintf(dir, sizeof dir, "/tmp/fuzz-pool.XXXXXX");
	if (mkdtemp(dir) == NULL)
		abort();
	atexit(cleanup);
	snprintf(sd, sizeof sd, "%s/startd", dir);
	mkdir(sd, 0755);
	put(dir, "pool.config", config, strlen(config));
	put(dir, "startd/node.config", "use FEATURE : StaticSlots\n", 26);
	put(dir, "startd/node.ads", machines, strlen(machines));
}

#endif
