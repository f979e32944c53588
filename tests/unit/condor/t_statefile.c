/* t_statefile.c - unit tests of lib/condor/statefile.c: a state file rewritten
 * atomically keeps its mode, an abort leaves it alone, failures are reported. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "condor.h"

static char dir[64];

static void
make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/t_statefile.XXXXXX");
	if (mkdtemp(dir) == NULL)
		dir[0] = '\0';
}

/* The number of entries of dir (without . and ..). */
static int
entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static void
slurp(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (fp == NULL)
		return;
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
}

UNIT_SUITE(statefile)
{
	char path[128], buf[64];
	ca_statefile sf;
	ca_diag err;
	struct stat st;

	make_dir();
	CHECK(dir[0] != '\0');
	snprintf(path, sizeof path, "%s/state.ads", dir);

	/* a new file */
	CHECK(ca_statefile_begin(&sf, path, &err) == 0);
	fputs("a = 1\n", sf.fp);
	CHECK(entries() == 1);		/* only the temporary file */
	CHECK(ca_statefile_commit(&sf, &err) == 0);
	slurp(path, buf, sizeof buf);
	CHECK(strcmp(buf, "a = 1\n") == 0);
	CHECK(entries() == 1);

	/* replaced, keeping its mode */
	CHECK(chmod(path, 0640) == 0);
	CHECK(ca_statefile_begin(&sf, path, &err) == 0);
	fputs("a = 2\n", sf.fp);
	CHECK(ca_statefile_commit(&sf, &err) == 0);
	slurp(path, buf, sizeof buf);
	CHECK(strcmp(buf, "a = 2\n") == 0);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0640);

	/* an abort leaves the old file and no temporary file */
	CHECK(ca_statefile_begin(&sf, path, &err) == 0);
	fputs("a = 3\n", sf.fp);
	ca_statefile_abort(&sf);
	slurp(path, buf, sizeof buf);
	CHECK(strcmp(buf, "a = 2\n") == 0);
	CHECK(entries() == 1);

	/* a directory that does not exist: a system error naming the file */
	char bad[160];
	snprintf(bad, sizeof bad, "%s/no/such/state.ads", dir);
	CHECK(ca_statefile_begin(&sf, bad, &err) == -1);
	CHECK((err.status == CA_EX_SYSTEM) == 1 && err.file == bad);
	CHECK(strstr(err.msg, "temporary file") != NULL);

	unlink(path);
	rmdir(dir);
}
