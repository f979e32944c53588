/* fuzz_util.h - what the harnesses of the daemons share: an input cut into
 * parts at lines "%%", a configuration from one part, the ads of another. */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classad.h"
#include "condor.h"

#define FZ_MAXPARTS	8

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Local times in UTC; then FZ_INIT(), the harness's own start. */
#ifndef FZ_INIT
#define FZ_INIT()
#endif
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("TZ", "UTC", 1);
	FZ_INIT();
	return 0;
}

typedef struct fz_parts {
	const char *at[FZ_MAXPARTS];
	size_t len[FZ_MAXPARTS];
} fz_parts;

/* Cut data into n parts at lines "%%" (the last part takes the rest, the
 * parts that are missing are empty). */
static inline void
fz_split(const uint8_t *data, size_t size, size_t n, fz_parts *p)
{
	const char *s = (const char *)data, *end = s + size;

	for (size_t i = 0; i < n && i < FZ_MAXPARTS; i++) {
		const char *sep = i + 1 < n ? memmem(s, (size_t)(end - s), "\n%%\n", 4) : NULL;
		p->at[i] = s;
		p->len[i] = sep ? (size_t)(sep + 1 - s) : (size_t)(end - s);
		s = sep ? sep + 4 : end;
	}
}

/* Whether a configuration reaches outside the harness: include and
 * LOCAL_CONFIG_FILE/_DIR read any file (/dev/zero, /proc/...) or run a
 * command, and a startd cron hook or benchmark runs a program. The code
 * under test is not at fault there; such inputs are skipped. */
static inline bool
fz_config_outside(const char *text, size_t len)
{
	static const char *const bad[] = { "include", "local_config", "_dir", "cron",
	    "joblist", "bench", "hook" };

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		size_t n = strlen(bad[i]);
		for (size_t k = 0; k + n <= len; k++)
			if (strncasecmp(text + k, bad[i], n) == 0)
				return true;
	}
	return false;
}

/* A configuration for subsys from text (commands refused, the clock at
 * now), with prepare (may be NULL) run before the text is read. NULL when
 * the text is refused or reaches outside (fz_config_outside). */
static inline ca_config *
fz_config(const char *subsys, void (*prepare)(ca_config *), const char *text, size_t len,
    int64_t now)
{
	ca_diag err;

	if (fz_config_outside(text, len))
		return NULL;
	ca_config *cfg = ca_config_new();
	ca_config_set_subsys(cfg, subsys);
	ca_config_set_command_timeout(cfg, 0);
	ca_config_set_now(cfg, now);
	if (prepare != NULL)
		prepare(cfg);
	if (ca_config_load_mem(cfg, "<fuzz>", text, len, &err) < 0) {
		ca_config_free(cfg);
		return NULL;
	}
	return cfg;
}

/* Each ad of text (at most max of them, any format) to fn, which takes it;
 * the ads that do not read are skipped. Returns how many went to fn. */
static inline size_t
fz_ads(const char *name, const char *text, size_t len, size_t max,
    void (*fn)(void *arg, ca_ad *ad, int line), void *arg)
{
	ca_diag err;
	ca_reader *r = ca_reader_open_mem(name, text, len, CA_FMT_AUTO, &err);
	ca_ad *ad;
	size_t n = 0;
	int rc, tries = 0;

	if (r == NULL)
		return 0;
	while (n < max && tries++ < 4 * (int)max && (rc = ca_reader_next(r, &ad, &err)) != 0)
		if (rc > 0) {
			fn(arg, ad, ca_reader_ad_line(r));
			n++;
		}
	ca_reader_close(r);
	return n;
}

#endif
