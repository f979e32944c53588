/* bench_startd.c - `make bench`: slot ads per second through one startd-step
 * step with no events, 100,000 slots under the manual's default policy. */

/*
 * The pool is 25,000 four-core machines of four static slots each, made by
 * ca_smachine_create as `startd-step --init` makes them, half of the slots
 * then claimed and running a job (so both the Unclaimed and the Claimed/Busy
 * evaluation are measured). One step is what `startd-step --now T+60` does
 * to each machine after reading it: take the slot ads, publish the policy,
 * move the clocks, evaluate the policy until stable. Reading and writing
 * the text are left out (bench.c measures the parser); a second figure with
 * them is printed for comparison. Timings use CLOCK_MONOTONIC, best of 3
 * (the comparison: one run).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "classad.h"
#include "condor.h"

void bench_startd(void);

#define NMACHINES	25000
#define PER		4
#define NSLOTS		(NMACHINES * PER)
#define T		INT64_C(1700000000)
#define RUNS		3
#define TARGET		100000.0

/* The default policy of HTCondor's manual (condor_startd Policy Configuration). */
static const char policy[] =
"MINUTE          = 60\n"
"HOUR            = (60 * $(MINUTE))\n"
"StateTimer      = (time() - EnteredCurrentState)\n"
"ActivityTimer   = (time() - EnteredCurrentActivity)\n"
"ActivationTimer = (time() - JobStart)\n"
"NonCondorLoadAvg        = (LoadAvg - CondorLoadAvg)\n"
"BackgroundLoad          = 0.3\n"
"HighLoad                = 0.5\n"
"StartIdleTime           = 15 * $(MINUTE)\n"
"ContinueIdleTime        = 5 * $(MINUTE)\n"
"MaxSuspendTime          = 10 * $(MINUTE)\n"
"KeyboardBusy            = KeyboardIdle < $(MINUTE)\n"
"ConsoleBusy             = (ConsoleIdle  < $(MINUTE))\n"
"CPUIdle                = $(NonCondorLoadAvg) <= $(BackgroundLoad)\n"
"CPUBusy                = $(NonCondorLoadAvg) >= $(HighLoad)\n"
"KeyboardNotBusy         = ($(KeyboardBusy) == False)\n"
"WANT_SUSPEND         = False\n"
"WANT_VACATE          = False\n"
"START                = True\n"
"SUSPEND              = False\n"
"CONTINUE             = True\n"
"PREEMPT              = False\n"
"MachineMaxVacateTime = 10 * $(MINUTE)\n"
"KILL                 = False\n"
"NUM_SLOTS = 4\n";

static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static ca_ad *
parse(const char *text)
{
	ca_diag perr;
	size_t used;

	return ca_parse_ad(text, strlen(text), &used, 0, &perr);
}

/* The pool after its first steps: NSLOTS slot ads, machine by machine. */
static ca_ad **
make_pool(ca_startd *sd)
{
	ca_ad **ads = calloc(NSLOTS, sizeof *ads);
	char buf[512];
	ca_diag err;
	size_t k = 0;

	if (ads == NULL)
		return NULL;
	for (int i = 0; i < NMACHINES; i++) {
		snprintf(buf, sizeof buf, "[ Name = \"node%05d.example.org\"; Cpus = 4; "
		    "Memory = 16384; Disk = 100000000; KeyboardIdle = 86400; LoadAvg = 0.0; "
		    "Arch = \"X86_64\"; OpSys = \"LINUX\" ]", i);
		ca_ad *desc = parse(buf);
		ca_smachine *m = ca_smachine_new(sd);
		if (desc == NULL || ca_smachine_create(m, desc, T, &err) < 0) {
			fprintf(stderr, "bench_startd: cannot create the pool\n");
			ca_ad_free(desc);
			ca_smachine_free(m);
			return ads;
		}
		ca_ad_free(desc);
		/* slots 1 and 3 run a job */
		ca_ad *ev[4];
		ca_sevent e[4], *p[4];
		for (int s = 0; s < 2; s++) {
			snprintf(buf, sizeof buf, "[ Name = \"slot%d@node%05d.example.org\"; "
			    "Event = \"Claim\"; Time = %lld; Job = [ ClusterId = %d; "
			    "ProcId = %d; Owner = \"u%d\"; RequestCpus = 1; RequestMemory = 1024; "
			    "RequestDisk = 1000; JobUniverse = 5 ] ]", 1 + 2 * s, i,
			    (long long)T + 5, i, s, i % 50);
			ev[2 * s] = parse(buf);
			snprintf(buf, sizeof buf, "[ Name = \"slot%d@node%05d.example.org\"; "
			    "Event = \"Activate\"; Time = %lld ]", 1 + 2 * s, i, (long long)T + 6);
			ev[2 * s + 1] = parse(buf);
		}
		for (int j = 0; j < 4; j++) {
			ca_sevent_init(&e[j], ev[j], T, &err);
			e[j].seq = (uint32_t)j;
			p[j] = &e[j];
		}
		size_t next = 0;
		ca_startd_advance(sd, m, p, 4, &next, T + 10);
		for (size_t s = 0; s < ca_smachine_count(m) && k < NSLOTS; s++)
			if (ca_smachine_slot(m, s) != NULL)
				ads[k++] = ca_ad_copy(ca_smachine_slot(m, s));
		for (int j = 0; j < 4; j++)
			ca_ad_free(ev[j]);
		ca_smachine_free(m);
	}
	return ads;
}

/* One step of the whole pool; returns the seconds it took. */
static double
step_pool(ca_startd *sd, ca_ad **ads, ca_smachine **ms)
{
	ca_ad **copy = malloc(NSLOTS * sizeof *copy);
	ca_diag err;
	double t;

	if (copy == NULL)
		return 1e30;
	for (size_t i = 0; i < NSLOTS; i++)
		copy[i] = ca_ad_copy(ads[i]);
	t = now_seconds();
	for (size_t i = 0; i < NMACHINES; i++) {
		ca_smachine *m = ca_smachine_new(sd);
		for (int s = 0; s < PER; s++)
			ca_smachine_add(m, copy[i * PER + s], T + 10, &err);
		size_t next = 0;
		ca_startd_advance(sd, m, NULL, 0, &next, T + 70);
		ms[i] = m;
	}
	t = now_seconds() - t;
	for (size_t i = 0; i < NMACHINES; i++)
		ca_smachine_free(ms[i]);
	free(copy);
	return t;
}

/* The same with the text read and written (long format), for comparison. */
static double
filter_pool(ca_startd *sd, const strbuf *text, size_t *out_len)
{
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("<pool>", text->buf, text->len, CA_FMT_LONG, &err);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ca_writer *w = fp ? ca_writer_open(fp, CA_FMT_LONG, false) : NULL;
	ca_smachine *m = NULL;
	ca_ad *ad;
	int n = 0;
	double t = now_seconds();

	if (r == NULL || w == NULL)
		return 1e30;
	while (ca_reader_next(r, &ad, &err) == 1) {
		if (m == NULL)
			m = ca_smachine_new(sd);
		ca_smachine_add(m, ad, T + 10, &err);
		if (++n % PER == 0) {
			size_t next = 0;
			ca_startd_advance(sd, m, NULL, 0, &next, T + 70);
			for (size_t s = 0; s < ca_smachine_count(m); s++)
				if (ca_smachine_slot(m, s) != NULL)
					ca_writer_put(w, ca_smachine_slot(m, s));
			ca_smachine_free(m);
			m = NULL;
		}
	}
	ca_smachine_free(m);
	ca_writer_close(w);
	fclose(fp);
	t = now_seconds() - t;
	ca_reader_close(r);
	*out_len = len;
	free(buf);
	return t;
}

void
bench_startd(void)
{
	ca_config *cfg = ca_config_new();
	ca_diag err;
	ca_startd *sd;
	ca_ad **ads;
	ca_smachine **ms;
	double best = 1e30, fbest = 1e30;
	size_t out_len = 0;

	ca_startd_config_prepare(cfg);
	if (ca_config_load_mem(cfg, "<bench policy>", policy, sizeof policy - 1, &err) < 0 ||
	    (sd = ca_startd_new(cfg, &err)) == NULL) {
		fprintf(stderr, "bench_startd: %s\n", err.msg);
		ca_config_free(cfg);
		return;
	}
	ads = make_pool(sd);
	ms = calloc(NMACHINES, sizeof *ms);
	if (ads == NULL || ms == NULL)
		goto out;
	for (int i = 0; i < RUNS; i++) {
		double t = step_pool(sd, ads, ms);
		if (t < best)
			best = t;
	}
	printf("startd-step: %.0f slots/s through one step, no events (%d slots, default policy) "
	    "(target >= %.0f/s)\n", NSLOTS / best, NSLOTS, TARGET);
	strbuf text = STRBUF_INIT;
	for (size_t i = 0; i < NSLOTS; i++) {
		ca_format_ad(&text, ads[i], CA_FMT_LONG);
		strbuf_addc(&text, '\n');
	}
	fbest = filter_pool(sd, &text, &out_len);	/* once: it is only for comparison */
	printf("startd-step: %.0f slots/s reading, stepping and writing the long format "
	    "(%.1f MB in, for comparison)\n", NSLOTS / fbest, (double)text.len / 1e6);
	strbuf_release(&text);
out:
	if (ads != NULL)
		for (size_t i = 0; i < NSLOTS; i++)
			ca_ad_free(ads[i]);
	free(ads);
	free(ms);
	ca_startd_free(sd);
	ca_config_free(cfg);
	fflush(stdout);
}
