/* t_replay.c - unit tests of lib/condor/replay.c: quantiles, the owner
 * model's draws, the run times read from job ads, a run's figures. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "condor.h"
#include "classad.h"

#define T0	INT64_C(1767571200)

static ca_ad *
ad_of(const char *text)
{
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("t", text, strlen(text), CA_FMT_LONG, &err);
	ca_ad *ad = NULL;

	if (r == NULL || ca_reader_next(r, &ad, &err) != 1)
		abort();
	ca_reader_close(r);
	return ad;
}

UNIT_SUITE(replay_quantile)
{
	int64_t v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

	CHECK(ca_replay_quantile(v, 10, 0.5) == 5);
	CHECK(ca_replay_quantile(v, 10, 0.9) == 9);
	CHECK(ca_replay_quantile(v, 10, 1.0) == 10);
	CHECK(ca_replay_quantile(v, 10, 0.0) == 1);
	CHECK(ca_replay_quantile(v, 1, 0.9) == 1);
	CHECK(ca_replay_quantile(v, 0, 0.5) == 0);
	int64_t w[] = { 7, 100 };
	CHECK(ca_replay_quantile(w, 2, 0.5) == 7);
}

/* The draws: the same for the same arguments, in [0, 1), spread evenly. */
UNIT_SUITE(replay_draw)
{
	double sum = 0, lo = 1, hi = 0;
	int below = 0;

	for (uint64_t i = 0; i < 20000; i++) {
		double d = ca_replay_draw(1, 42, i);
		CHECK(d >= 0 && d < 1);
		CHECK(d == ca_replay_draw(1, 42, i));
		sum += d;
		below += d < 0.85;
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	CHECK(fabs(sum / 20000 - 0.5) < 0.01);
	CHECK(below > 16700 && below < 17300);
	CHECK(lo < 0.001 && hi > 0.999);
	CHECK(ca_replay_draw(1, 42, 0) != ca_replay_draw(2, 42, 0));
	CHECK(ca_replay_draw(1, 42, 0) != ca_replay_draw(1, 43, 0));
}

/* What a job ad says it needed, and the ads left out. */
UNIT_SUITE(replay_jobs)
{
	static const struct {
		const char *text;
		bool queued;
		int rc;
		const char *why;
	} cases[] = {
		{ "Owner = \"a\"\nQDate = 1767571200\nJobStatus = 4\nCommittedTime = 100\n"
		  "CommittedSuspensionTime = 40\nRemoteWallClockTime = 900\n", false, 1, NULL },
		{ "Owner = \"a\"\nQDate = 1767571200\nJobStatus = 4\nRemoteWallClockTime = 900.0\n"
		  "CumulativeSuspensionTime = 100\n", false, 1, NULL },
		{ "Owner = \"a\"\nQDate = 1767571200\nJobStatus = 3\nRemoteWallClockTime = 0\n",
		  false, 0, "removed before it ran" },
		{ "Owner = \"a\"\nQDate = 1767571200\nJobStatus = 5\n", false, 0,
		  "in the history neither completed nor removed" },
		{ "Owner = \"a\"\nQDate = 1767571200\nJobStatus = 4\n", true, 0,
		  "in the queue completed or removed" },
		{ "QDate = 1767571200\n", false, -1, NULL },
		{ "Owner = \"a\"\n", false, -1, NULL },
		{ "Owner = \"a\"\nQDate = 1767571200\nJobStatus = 2\nRemoteWallClockTime = 50\n",
		  true, 1, NULL },
	};
	ca_replay *r = ca_replay_new();

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ca_ad *ad = ad_of(cases[i].text);
		const char *why = NULL;
		ca_diag err;
		int rc = ca_replay_add_job(r, ad, cases[i].queued, &why, &err);
		CHECK(rc == cases[i].rc);
		CHECK(cases[i].why == NULL ? why == NULL : why != NULL &&
		    strcmp(why, cases[i].why) == 0);
		ca_ad_free(ad);
	}
	ca_ad *m = ad_of("Machine = \"m1\"\nTotalCpus = 2\nTotalMemory = 4096\n");
	ca_diag err;
	CHECK(ca_replay_add_slot(r, m, &err) == 0);
	ca_ad_free(m);
	ca_replay_opts o = { 0 };
	CHECK(ca_replay_prepare(r, &o, &err) == 0);
	CHECK(ca_replay_start(r) == T0);
	CHECK(ca_replay_nclasses(r) == 1 && strcmp(ca_replay_class(r, 0), "all") == 0);
	CHECK(ca_replay_add_session(r, "m1", T0, T0, &err) < 0);
	CHECK(ca_replay_add_session(r, "m2", T0, T0 + 1, &err) < 0);
	ca_replay_free(r);
}

static ca_config *
config(void *arg, const char *subsys, const char *cls, ca_diag *err)
{
	ca_config *cfg = ca_config_new();

	ca_config_set_subsys(cfg, subsys);
	if (cls != NULL)
		ca_startd_config_prepare(cfg);
	if (ca_config_load_mem(cfg, "t", "UID_DOMAIN = x.org\n", 18, err) < 0) {
		ca_config_free(cfg);
		return NULL;
	}
	return cfg;
}

/* A run: two jobs of an hour and of half an hour on one two-core machine
 * give an hour and a half of goodput, and rows for the pool, its class,
 * the user and the group. */
UNIT_SUITE(replay_run)
{
	ca_replay *r = ca_replay_new();
	ca_diag err;
	const char *why;
	ca_ad *j1 = ad_of("Owner = \"a\"\nUser = \"a@x.org\"\nQDate = 1767571200\nJobStatus = 4\n"
	    "CommittedTime = 3600\nRequestCpus = 1\nRequirements = true\n");
	ca_ad *j2 = ad_of("Owner = \"a\"\nUser = \"a@x.org\"\nQDate = 1767571200\nJobStatus = 4\n"
	    "CommittedTime = 1800\nRequestCpus = 1\nRequirements = true\n");
	ca_ad *m = ad_of("Machine = \"m1\"\nTotalCpus = 2\nTotalMemory = 4096\nTotalDisk = 100000\n");

	CHECK(ca_replay_add_job(r, j1, false, &why, &err) == 1);
	CHECK(ca_replay_add_job(r, j2, false, &why, &err) == 1);
	CHECK(ca_replay_add_slot(r, m, &err) == 0);
	ca_replay_opts o = { 0 };
	CHECK(ca_replay_prepare(r, &o, &err) == 0);
	ca_ad **rows = NULL;
	size_t n = 0;
	CHECK(ca_replay_run(r, "p", config, NULL, NULL, NULL, &rows, &n, &err) == 0);
	ca_ctx cx;
	ca_ctx_init(&cx);
	int kinds = 0;
	for (size_t i = 0; i < n; i++) {
		const char *k = NULL, *pol = NULL;
		double good = -1;
		int64_t done = -1;
		CHECK(ca_get_str(&cx, rows[i], "Policy", &pol, NULL) == 1 && strcmp(pol, "p") == 0);
		CHECK(ca_get_str(&cx, rows[i], "Kind", &k, NULL) == 1);
		if (strcmp(k, "policy") == 0 || strcmp(k, "user") == 0 || strcmp(k, "group") == 0) {
			kinds++;
			CHECK(ca_get_num(&cx, rows[i], "GoodputHours", &good) == 1 && good == 1.5);
			CHECK(ca_get_int(&cx, rows[i], "Completed", &done) == 1 && done == 2);
		}
		if (strcmp(k, "class") == 0) {
			kinds++;
			CHECK(ca_get_int(&cx, rows[i], "Cores", &done) == 1 && done == 2);
		}
		ca_arena_reset(&cx.scratch);
		ca_ad_free(rows[i]);
	}
	CHECK(kinds == 4);
	free(rows);
	ca_ctx_free(&cx);
	ca_ad_free(j1);
	ca_ad_free(j2);
	ca_ad_free(m);
	ca_replay_free(r);
}
