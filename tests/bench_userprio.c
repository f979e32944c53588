/* bench_userprio.c - `make bench`: the time userprio-calc takes to update a
 * state of 100,000 submitters against 1,000,000 slot ads (target < 3 s). */

/*
 * The state and the slots are generated in memory from a fixed seed, as
 * long-format text: the state as userprio-calc writes it, the slots as
 * `condor_status -long -attributes Name,State,Activity,Cpus,SlotWeight,
 * RemoteUser,AccountingGroup,...` prints them (an accountant run needs no
 * more, and asking the collector for less is what a cron job would do).
 * Two thirds of the slots are claimed, by the 100,000 users and groups of
 * the state (a quarter of them charged to an AccountingGroup).
 * One run does what `userprio-calc --update` does: read the state, read and
 * charge every slot, advance every priority, write the state atomically
 * (temporary file, fsync, rename) into a temporary directory. Timings use
 * CLOCK_MONOTONIC, best of 3.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "condor.h"
#include "classad.h"

void bench_userprio(void);

#define NSUBMITTERS	100000
#define NSLOTADS	1000000
#define NOW		INT64_C(1700000000)
#define RUNS		3
#define TARGET_SECONDS	3.0

static uint64_t rng = UINT64_C(0x2545f4914f6cdd1d);

static uint32_t
rnd(uint32_t n)
{
	return bench_rnd(&rng, n);
}

static void
user_name(char *buf, size_t len, uint32_t u)
{
	if (u % 10 == 0)
		snprintf(buf, len, "group_%u@example.org", u);
	else if (u % 97 == 0)
		snprintf(buf, len, "nice-user.u%u@example.org", u);
	else
		snprintf(buf, len, "u%u@example.org", u);
}

static void
gen_state(strbuf *sb)
{
	char name[64];

	for (uint32_t u = 0; u < NSUBMITTERS; u++) {
		user_name(name, sizeof name, u);
		strbuf_addf(sb, "Name = \"%s\"\n", name);
		strbuf_addf(sb, "Priority = %.6f\n", 0.5 + rnd(100000) / 1000.0);
		strbuf_addf(sb, "PriorityFactor = %s\n", u % 97 == 0 ? "10000000.0" : "1.0");
		strbuf_addf(sb, "ResourcesUsed = %u\n", rnd(20));
		strbuf_addf(sb, "WeightedResourcesUsed = %u.0\n", rnd(80));
		strbuf_addf(sb, "AccumulatedUsage = %u.0\n", rnd(1000000));
		strbuf_addf(sb, "WeightedAccumulatedUsage = %u.0\n", rnd(4000000));
		strbuf_addf(sb, "BeginUsageTime = %" PRId64 "\n", NOW - 86400 * 30);
		strbuf_addf(sb, "LastUsageTime = %" PRId64 "\n", NOW - 3600);
		strbuf_addf(sb, "LastUpdate = %" PRId64 "\n\n", NOW - 300);
	}
}

static void
gen_slots(strbuf *sb)
{
	static const char *const act[] = { "Busy", "Busy", "Busy", "Idle", "Suspended" };
	char name[64];

	for (uint32_t i = 0; i < NSLOTADS; i++) {
		uint32_t r = rnd(3), cpus = 1u << rnd(4);
		strbuf_addf(sb, "Activity = \"%s\"\n", r ? act[rnd(5)] : "Idle");
		if (r && rnd(4) == 0)	/* charged to group_N@example.org */
			strbuf_addf(sb, "AccountingGroup = \"group_%u\"\n",
			    rnd(NSUBMITTERS / 10) * 10);
		strbuf_addf(sb, "Cpus = %u\n", cpus);
		strbuf_addf(sb, "Name = \"slot%u@node%05u.example.org\"\n", i % 64 + 1, i / 64);
		if (r) {
			user_name(name, sizeof name, rnd(NSUBMITTERS));
			strbuf_addf(sb, "RemoteUser = \"%s\"\n", name);
		}
		strbuf_addf(sb, "SlotWeight = Cpus\n");
		strbuf_addf(sb, "State = \"%s\"\n\n", r ? "Claimed" : "Unclaimed");
	}
}

/* One update; returns its seconds, or -1 after a message. */
static double
run_once(const strbuf *state, const strbuf *slots, const char *path, size_t *nrec)
{
	ca_acct a;
	ca_ctx cx;
	ca_diag err;
	ca_reader *r;
	ca_ad *ad;
	int rc;
	double t = bench_seconds(), out = -1;

	ca_acct_init(&a);
	ca_ctx_init(&cx);
	cx.now = NOW;
	/* the state (as ca_acct_read does, from memory) */
	r = ca_reader_open_mem("<state>", state->buf, state->len, CA_FMT_LONG, &err);
	while (r != NULL && (rc = ca_reader_next(r, &ad, &err)) == 1)
		if (ca_acct_add_ad(&a, ad, &cx, NOW, &err) < 0) {
			fprintf(stderr, "bench_userprio: %s\n", err.msg);
			goto out;
		}
	ca_reader_close(r);
	/* the slots */
	r = ca_reader_open_mem("<slots>", slots->buf, slots->len, CA_FMT_LONG, &err);
	while (r != NULL && (rc = ca_reader_next(r, &ad, &err)) == 1) {
		ca_acct_charge_slot(&a, &cx, ad, NOW);
		ca_ad_free(ad);
	}
	ca_reader_close(r);
	if (ca_acct_update(&a, NOW, &err) < 0 ||
	    ca_acct_write(&a, path, CA_FMT_LONG, false, &err) < 0) {
		fprintf(stderr, "bench_userprio: %s\n", err.msg);
		goto out;
	}
	*nrec = a.recs.n;
	out = bench_seconds() - t;
out:
	ca_acct_free(&a);
	ca_ctx_free(&cx);
	return out;
}

void
bench_userprio(void)
{
	strbuf state = STRBUF_INIT, slots = STRBUF_INIT;
	char dir[] = "/tmp/bench_userprio.XXXXXX", path[64];
	double best = 1e30;
	size_t nrec = 0;

	if (mkdtemp(dir) == NULL) {
		perror("bench_userprio: mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/state", dir);
	gen_state(&state);
	gen_slots(&slots);
	for (int i = 0; i < RUNS; i++) {
		double t = run_once(&state, &slots, path, &nrec);
		if (t < 0)
			break;
		if (t < best)
			best = t;
	}
	if (best < 1e30)
		printf("userprio-calc --update: %d submitters (%.0f MB), %d slot ads (%.0f MB): "
		    "%.2f s (target < %.0f s); %zu records written\n", NSUBMITTERS,
		    (double)state.len / 1e6, NSLOTADS, (double)slots.len / 1e6, best,
		    TARGET_SECONDS, nrec);
	unlink(path);
	rmdir(dir);
	strbuf_release(&state);
	strbuf_release(&slots);
}
