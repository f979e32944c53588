/* fuzz_config.c - libFuzzer harness for the configuration reader: a file
 * loaded from memory, then every name looked up in every typed way, which
 * expands its macros and functions; commands are not run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classad.h"
#include "condor.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("TZ", "UTC", 1);
	setenv("FUZZ_ENV", "$(FUZZ_ENV) x", 1);
	/* "include : -" reads standard input */
	if (freopen("/dev/null", "r", stdin) == NULL)
		abort();
	return 0;
}

/* include can name any file and LOCAL_CONFIG_DIR any directory: keep the
 * fuzzer away from endless files (/dev/zero, /proc/self/...) and from
 * reading the whole machine; the reader is not at fault there. */
static bool
names_special_file(const uint8_t *data, size_t size)
{
	static const char *const bad[] = { "dev", "proc", "sys", "_DIR", "_dir", "_Dir" };

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		size_t n = strlen(bad[i]);
		for (size_t k = 0; k + n <= size; k++)
			if (memcmp(data + k, bad[i], n) == 0)
				return true;
	}
	return false;
}

static void
lookups(ca_config *cfg, const char *name)
{
	ca_diag err;
	strbuf sb = STRBUF_INIT;
	int64_t i;
	double r;
	bool b;
	ca_arena a = { 0 };
	ca_expr *e;

	(void)ca_config_defined(cfg, name);
	(void)ca_config_raw(cfg, name);
	(void)ca_config_locate(cfg, name, &err);
	(void)ca_config_string(cfg, name, &sb, &err);
	(void)ca_config_int(cfg, name, &i, &err);
	(void)ca_config_real(cfg, name, &r, &err);
	(void)ca_config_bool(cfg, name, &b, &err);
	(void)ca_config_expr(cfg, name, &a, 0, &e, &err);
	(void)ca_config_expr(cfg, name, &a, CA_P_STRICT, &e, &err);
	ca_config_info in;
	(void)ca_config_info_of(cfg, name, false, &in);
	(void)ca_config_info_of(cfg, name, true, &in);
	strbuf_release(&sb);
	ca_arena_free(&a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (names_special_file(data, size))
		return -1;
	ca_config *cfg = ca_config_new();
	ca_diag err;

	ca_config_set_command_timeout(cfg, 0);	/* include command: refused */
	ca_config_set_now(cfg, 1700000000);
	ca_config_add_template(cfg, "POLICY", "Desktop",
	    "IS_OWNER = (START =?= FALSE)\nSTART = $(UWCS_START)\n");
	ca_config_add_template(cfg, "ROLE", "Execute", "DAEMON_LIST = $(DAEMON_LIST) STARTD\n");
	memset(&err, 0, sizeof err);
	if (ca_config_load_mem(cfg, "<fuzz>", (const char *)data, size, &err) < 0 &&
	    (err.msg[0] == '\0' || err.file == NULL))
		abort();	/* an error must say what and where */

	size_t n = ca_config_count(cfg);
	for (int pass = 0; pass < 2; pass++) {
		ca_config_set_subsys(cfg, pass ? "NEGOTIATOR" : NULL);
		for (size_t k = 0; k < n; k++)
			lookups(cfg, ca_config_name_at(cfg, k));
		lookups(cfg, "START");
		lookups(cfg, "PRIORITY_HALFLIFE");
		(void)ca_config_unsimulated(cfg, pass ? "NEGOTIATOR" : NULL, NULL, NULL);
	}
	strbuf sb = STRBUF_INIT;
	(void)ca_config_expand(cfg, (const char *)data, size, &sb, &err);
	strbuf_release(&sb);
	ca_config_free(cfg);
	ca_intern_cleanup();
	return 0;
}
