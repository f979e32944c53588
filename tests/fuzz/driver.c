/* driver.c - runs a libFuzzer harness without libFuzzer, for compilers that
 * lack -fsanitize=fuzzer: every file named, or every file of a directory
 * named, goes once through LLVMFuzzerTestOneInput (no mutation). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t runs;

static int
run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (fp == NULL) {
		perror(path);
		return -1;
	}
	do {
		if (len == cap && (buf = realloc(buf, cap = cap ? 2 * cap : 65536)) == NULL)
			abort();
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
	} while (n > 0);
	fclose(fp);
	/* a copy of its exact size, so that a read past the end is caught */
	uint8_t *data = malloc(len ? len : 1);
	if (data == NULL)
		abort();
	memcpy(data, buf, len);
	free(buf);
	(void)LLVMFuzzerTestOneInput(data, len);
	free(data);
	runs++;
	return 0;
}

int
main(int argc, char **argv)
{
	int rc = 0;

	if (LLVMFuzzerInitialize != NULL)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			struct dirent **names;
			int n = scandir(argv[i], &names, NULL, alphasort);
			for (int k = 0; k < n; k++) {
				char path[4096];
				snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
				if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && run_file(path) < 0)
					rc = 1;
				free(names[k]);
			}
			free(names);
		} else if (run_file(argv[i]) < 0)
			rc = 1;
	}
	printf("stat::number_of_executed_units: %zu\n", runs);
	return rc;
}
