/* fuzz_cron.c - libFuzzer harness for CronTab schedules: a whole schedule
 * line, each field alone, and the next run times from several clocks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "condor.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* a zone with daylight saving, so the gap and overlap code runs */
	setenv("TZ", "America/Chicago", 1);
	return 0;
}

/* Next runs of c from a few clocks; each must lie after its clock and
 * match the schedule's minute and hour sets. */
static void
next_runs(const ca_cron *c)
{
	static const int64_t clocks[] = { 0, 1700000000, 1710054000, 1730613600,
	    253402300000LL, -62135596800LL, 951782400 };
	char iso[CA_CRON_ISOLEN];

	for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++) {
		int64_t next;
		if (ca_cron_next(c, clocks[i], &next) < 0)
			continue;
		if (next <= clocks[i])
			abort();
		ca_cron_isotime(next, iso);
	}
}

static void
show(const ca_cron *c)
{
	char buf[256];

	for (int f = 0; f < CA_CRON_NFIELDS; f++) {
		size_t n = ca_cron_format_set(f, ca_cron_set(c, f), buf, sizeof buf);
		if (n >= sizeof buf)
			abort();	/* 60 values never need this much */
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the API takes C strings: the text up to the first NUL */
	char *text = malloc(size + 1);
	ca_cron c;
	ca_diag err;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	ca_cron_init(&c);
	if (ca_cron_parse(&c, text, &err) == 0) {
		show(&c);
		next_runs(&c);
	} else if (err.msg[0] == '\0')
		abort();

	for (int f = 0; f < CA_CRON_NFIELDS; f++) {
		ca_cron_init(&c);
		memset(&err, 0, sizeof err);
		if (ca_cron_field(&c, f, text, &err) < 0) {
			if (err.msg[0] == '\0' || ca_cron_err_field(&err) != f)
				abort();
			continue;
		}
		if (ca_cron_check(&c, &err) == 0) {
			show(&c);
			next_runs(&c);
		}
	}
	free(text);
	return 0;
}
