/* fuzz_match.c - libFuzzer harness for matchmaking and its analysis, as
 * classad-match runs them: a flags byte, then job ads and slot ads split at
 * a line "%%". Every slot goes through the matcher (autoclusters, ranks,
 * the best hits), then each job's Requirements is analyzed against the
 * slots (condor_q -better-analyze) and each slot's against the jobs
 * (-reverse). The clusters matched one at a time (the negotiator's way)
 * must find the same slots with the same ranks as slot by slot. Flags:
 * 1 --strict, 2 no autoclusters, 4 the slot counts of
 * the analysis, the high four bits the hits kept per cluster (-n; 0 all).
 * Anything may be refused; nothing may crash, leak or hang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classad.h"
#include "condor.h"
#include "fuzz_util.h"

#define MAXJOBS		64
#define MAXSLOTS	64
#define MAXANALYZED	6	/* ads analyzed on each side */

typedef ca_vec(ca_ad *) ad_list;

static void
keep(void *arg, ca_ad *ad, int line)
{
	(void)line;
	*ca_vec_push((ad_list *)arg) = ad;
}

static void
analyze(ca_ctx *cx, const ca_ad *self, const ad_list *others, int flags, bool reverse,
    strbuf *sb)
{
	ca_analysis *an = ca_analysis_new(cx, self, flags);
	ca_analysis_words w = { "1.0", reverse, reverse ? -1 : 3, reverse ? -1 : 1, 0 };
	ca_analysis_counts n;

	for (size_t i = 0; i < others->n; i++) {
		ca_analysis_add(an, others->at[i], 1 + i % 3);
		if (i == others->n / 2) {
			/* an autocluster that split off: it goes on from here */
			ca_analysis *split = ca_analysis_new(cx, self, flags);
			ca_analysis_inherit(split, an);
			ca_analysis_free(an);
			an = split;
		}
	}
	strbuf_reset(sb);
	ca_analysis_report(an, sb, &w);
	ca_analysis_counts_get(an, &n);
	if (n.rejected + n.rejecting + n.willing != n.total)
		abort();	/* every ad counted falls in one of them */
	ca_analysis_free(an);
}

/* Slot by slot (every slot seen first, so that the clusters are final)
 * against cluster by cluster. */
static void
cross_check(ca_ctx *cx, const ad_list *jobs, const ad_list *slots, unsigned flags)
{
	unsigned mf = (flags & 2 ? CA_M_NOCLUSTER : 0) | (flags & 1 ? CA_M_STRICT : 0);
	ca_matcher *a = ca_matcher_new(cx, mf, 0), *b = ca_matcher_new(cx, mf, 0);

	for (size_t j = 0; j < jobs->n; j++) {
		(void)ca_matcher_add_job(a, jobs->at[j]);
		(void)ca_matcher_add_job(b, jobs->at[j]);
	}
	ca_matcher_prepare(a);
	for (size_t s = 0; s < slots->n; s++)
		ca_matcher_observe(a, slots->at[s]);
	for (size_t s = 0; s < slots->n; s++)
		(void)ca_matcher_slot(a, slots->at[s], (uint32_t)s, true, NULL);
	ca_matcher_set_slots(b, (const ca_ad *const *)slots->at, (uint32_t)slots->n);
	if (ca_matcher_nclusters(a) != ca_matcher_nclusters(b))
		abort();
	for (uint32_t c = 0; c < ca_matcher_nclusters(b); c++) {
		uint32_t na;
		ca_hits hb;
		const ca_hit *ha = ca_matcher_hits(a, c, &na);
		ca_matcher_cluster_hits(b, &c, 1, CA_MH_ALL, 0, &hb);
		if (na != hb.n)
			abort();
		for (uint32_t i = 0; i < na; i++) {
			uint32_t k = 0;
			while (k < hb.n && hb.slot[k] != ha[i].slot)
				k++;
			ca_hit h = k < hb.n ? ca_hits_at(&hb, k) : ha[i];
			if (k == hb.n || memcmp(&h.jrank, &ha[i].jrank, sizeof ha[i].jrank) != 0 ||
			    memcmp(&h.srank, &ha[i].srank, sizeof ha[i].srank) != 0)
				abort();
		}
		ca_hits_free(&hb);
	}
	ca_matcher_free(a);
	ca_matcher_free(b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_parts p;
	ad_list jobs = CA_VEC_INIT, slots = CA_VEC_INIT;
	ca_ctx cx;
	strbuf sb = STRBUF_INIT;

	if (size < 1)
		return -1;
	unsigned flags = data[0];
	bool strict = flags & 1;
	fz_split(data + 1, size - 1, 2, &p);
	fz_ads("<jobs>", p.at[0], p.len[0], MAXJOBS, keep, &jobs);
	fz_ads("<slots>", p.at[1], p.len[1], MAXSLOTS, keep, &slots);
	ca_ctx_init(&cx);
	cx.now = 1700000000;
	cx.strict = strict;

	ca_matcher *m = ca_matcher_new(&cx, (flags & 2 ? CA_M_NOCLUSTER : 0) |
	    (strict ? CA_M_STRICT : 0), flags >> 4);
	for (size_t j = 0; j < jobs.n; j++)
		(void)ca_matcher_add_job(m, jobs.at[j]);
	for (size_t s = 0; s < slots.n; s++)
		(void)ca_matcher_slot(m, slots.at[s], (uint32_t)s, true, NULL);
	for (uint32_t c = 0; c < ca_matcher_nclusters(m); c++) {
		uint32_t n, nh;
		const ca_hit *h = ca_matcher_hits(m, c, &nh);
		(void)ca_matcher_members(m, c, &n);
		for (uint32_t i = 0; i + 1 < nh; i++)
			if (h[i].slot >= slots.n)
				abort();
	}
	bool dynamic;
	uint32_t nsig;
	(void)ca_matcher_sigattrs(m, &nsig, &dynamic);
	ca_matcher_free(m);
	cross_check(&cx, &jobs, &slots, flags);

	int anflags = (strict ? CA_AN_STRICT : 0) | (flags & 4 ? CA_AN_SLOTS : 0);
	for (size_t j = 0; j < jobs.n && j < MAXANALYZED; j++)
		analyze(&cx, jobs.at[j], &slots, anflags, false, &sb);
	for (size_t s = 0; s < slots.n && s < MAXANALYZED; s++)
		analyze(&cx, slots.at[s], &jobs, strict ? CA_AN_STRICT : 0, true, &sb);

	strbuf_release(&sb);
	ca_ctx_free(&cx);
	for (size_t i = 0; i < jobs.n; i++)
		ca_ad_free(jobs.at[i]);
	for (size_t i = 0; i < slots.n; i++)
		ca_ad_free(slots.at[i]);
	ca_vec_free(&jobs);
	ca_vec_free(&slots);
	ca_intern_cleanup();
	return 0;
}
