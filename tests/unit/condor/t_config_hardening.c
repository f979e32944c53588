/* t_config_hardening.c - regression tests for what fuzzing found in the
 * configuration reader: each case names the input that used to exhaust
 * memory or the C stack. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "condor.h"

static bool
config_fails(const char *text, const char *lookup, const char *part)
{
	ca_config *c = ca_config_new();
	ca_diag err;
	strbuf sb = STRBUF_INIT;
	bool failed;

	memset(&err, 0, sizeof err);
	failed = ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) < 0 ||
	    (lookup != NULL && ca_config_string(c, lookup, &sb, &err) < 0);
	bool ok = failed && strstr(err.msg, part) != NULL;
	if (!ok)
		fprintf(stderr, "  config: got '%s', want '%s'\n", err.msg, part);
	strbuf_release(&sb);
	ca_config_free(c);
	return ok;
}

/* "A = $(A)$(A)" doubled A at each definition: forty lines took 10 GB.
 * Defaults nested 100,000 deep overflowed the C stack, when defined and
 * when expanded in an if or include line. A value from a double that does
 * not fit an integer was converted before it was checked (UBSan). */
UNIT_SUITE(hardening_config)
{
	strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "A = xxxxxxxxxx\n");
	for (int i = 0; i < 40; i++)
		strbuf_adds(&sb, "A = $(A)$(A)\n");
	CHECK(config_fails(sb.buf, NULL, "A with its previous value is longer than"));

	strbuf_reset(&sb);
	strbuf_adds(&sb, "A = ");
	for (int i = 0; i < 100000; i++)
		strbuf_adds(&sb, "$(X:");
	strbuf_addc(&sb, '1');
	for (int i = 0; i < 100000; i++)
		strbuf_addc(&sb, ')');
	CHECK(config_fails(sb.buf, "A", "macro defaults nested more than 64 deep"));
	memcpy(sb.buf, "if  ", 4);
	strbuf_adds(&sb, "\nB = 1\nendif\n");
	CHECK(config_fails(sb.buf, NULL, "macro defaults nested more than 64 deep"));

	ca_config *c = ca_config_new();
	ca_diag err;
	int64_t i = 7;
	const char *text = "N = 2.2222e76\nM = real(\"NaN\")\n";
	CHECK(ca_config_load_mem(c, "t.cfg", text, strlen(text), &err) == 0);
	CHECK(ca_config_int(c, "N", &i, &err) < 0 && i == 7);
	CHECK(ca_config_int(c, "M", &i, &err) < 0 && i == 7);
	ca_config_free(c);
	strbuf_release(&sb);
}

