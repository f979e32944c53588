/* t_match.c - unit tests of matchmaking (lib/condor/match.c) and the analysis
 * (lib/condor/analyze.c): pairs, Rank numbers, reference walks, autoclusters checked
 * against plain pairwise evaluation, and the analysis counts and text. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "classad.h"
#include "condor.h"

static ca_ad *
ad(const char *src)
{
	ca_diag err;
	ca_ad *a = ca_parse_ad(src, strlen(src), NULL, 0, &err);

	if (a == NULL)
		fprintf(stderr, "  t_match: cannot parse %s: %s\n", src, err.msg);
	return a;
}

UNIT_SUITE(match_pairs)
{
	ca_ctx cx;
	ca_mad j, s;

	ca_ctx_init(&cx);
	ca_ad *job = ad("[ Requirements = TARGET.Memory >= RequestMemory; RequestMemory = 1024;"
	    " Rank = TARGET.Memory; Owner = \"alice\" ]");
	ca_ad *big = ad("[ Memory = 4096; Requirements = TARGET.Owner == \"alice\"; Rank = 2 ]");
	ca_ad *small = ad("[ Memory = 512; Requirements = true ]");
	ca_ad *picky = ad("[ Memory = 8192; Requirements = TARGET.Owner == \"bob\" ]");
	ca_ad *noreq = ad("[ Memory = 8192 ]");
	ca_ad *undef = ad("[ Memory = 8192; Requirements = TARGET.NoSuchThing ]");
	ca_ad *err = ad("[ Memory = 8192; Requirements = \"yes\" && true ]");
	ca_ad *num = ad("[ Memory = 8192; Requirements = 7 ]");

	ca_mad_prepare(&j, job);
	CHECK(j.req != NULL && j.rank != NULL);
	ca_mad_prepare(&s, big);
	CHECK(ca_match_symmetric(&cx, &j, &s));
	CHECK(ca_match_rank(&cx, j.rank, job, big) == 4096.0);
	CHECK(ca_match_rank(&cx, s.rank, big, job) == 2.0);
	ca_mad_prepare(&s, small);
	CHECK(!ca_match_symmetric(&cx, &j, &s));	/* the job says no */
	ca_mad_prepare(&s, picky);
	CHECK(!ca_match_symmetric(&cx, &j, &s));	/* the slot says no */
	ca_mad_prepare(&s, noreq);
	CHECK(s.req == NULL && s.rank == NULL);
	CHECK(!ca_match_symmetric(&cx, &j, &s));	/* missing: no match */
	CHECK(ca_match_rank(&cx, s.rank, noreq, job) == 0.0);
	ca_mad_prepare(&s, undef);
	CHECK(!ca_match_symmetric(&cx, &j, &s));	/* UNDEFINED: no match */
	ca_mad_prepare(&s, err);
	CHECK(!ca_match_symmetric(&cx, &j, &s));	/* ERROR: no match */
	ca_mad_prepare(&s, num);
	CHECK(ca_match_symmetric(&cx, &j, &s));	/* a nonzero number is true */

	CHECK(ca_rank_number(ca_bool(true)) == 1.0);
	CHECK(ca_rank_number(ca_bool(false)) == 0.0);
	CHECK(ca_rank_number(ca_int(-3)) == -3.0);
	CHECK(ca_rank_number(ca_real(2.5)) == 2.5);
	CHECK(ca_rank_number(ca_str("7", 1)) == 0.0);
	CHECK(ca_rank_number(ca_undef()) == 0.0);
	CHECK(ca_rank_number(ca_error(NULL)) == 0.0);
	CHECK(ca_rank_number(ca_real(0.0 / 0.0)) == 0.0);

	ca_ad_free(job);
	ca_ad_free(big);
	ca_ad_free(small);
	ca_ad_free(picky);
	ca_ad_free(noreq);
	ca_ad_free(undef);
	ca_ad_free(err);
	ca_ad_free(num);
	ca_ctx_free(&cx);
}

struct refs {
	char text[512];
};

static void
collect(void *arg, const ca_name *nm, int side)
{
	struct refs *r = arg;
	size_t n = strlen(r->text);

	snprintf(r->text + n, sizeof r->text - n, "%s%s:%s", n ? " " : "",
	    side == CA_REF_SELF ? "my" : "other", nm->key);
}

/* The references of attribute `name` of ad src, as "my:x other:y ...". */
static int
refs_are(const char *src, const char *name, int flags, const char *want, int dyn)
{
	ca_ad *a = ad(src);
	struct refs r = { "" };
	int d = ca_expr_refs(ca_ad_lookup(a, name), a, flags, collect, &r);
	int ok = strcmp(r.text, want) == 0 && d == dyn;

	if (!ok)
		fprintf(stderr, "  refs(%s) = \"%s\" dynamic %d, want \"%s\" %d\n", src, r.text, d,
		    want, dyn);
	ca_ad_free(a);
	return ok;
}

UNIT_SUITE(match_refs)
{
	CHECK(refs_are("[ r = TARGET.Memory >= RequestMemory && Cpus > 1; RequestMemory = 1 ]",
	    "r", 0, "other:memory my:requestmemory other:cpus", 0));
	/* strict rules: a name the ad lacks is not looked up in the other ad */
	CHECK(refs_are("[ r = Cpus > 1 && MY.x ]", "r", CA_REFS_STRICT, "my:x", 0));
	/* DEEP follows the ad's own definitions, each once */
	CHECK(refs_are("[ r = a + a; a = b * TARGET.c; b = OTHER.d ]", "r", CA_REFS_DEEP,
	    "my:a my:a my:b other:c other:d", 0));
	CHECK(refs_are("[ r = a; a = b * TARGET.c; b = OTHER.d ]", "r", 0, "my:a", 0));
	/* names of an ad literal stay inside it; the rest falls through */
	CHECK(refs_are("[ r = [ x = 1; y = x + z ].y ]", "r", 0, "other:z", 1));
	CHECK(refs_are("[ r = CurrentTime > 5 ]", "r", 0, "", 0));
	/* unknowable: eval(), bare TARGET, a selection from a computed ad */
	CHECK(refs_are("[ r = eval(\"Memory\") > 1 ]", "r", 0, "", 1));
	CHECK(refs_are("[ r = TARGET[\"Memory\"] > 1 ]", "r", 0, "", 1));
	CHECK(refs_are("[ r = isUndefined(TARGET.x) ]", "r", 0, "other:x", 0));
	CHECK(refs_are("[ r = unresolved(x); x = 1 ]", "r", 0, "my:x", 1));
	/* evaluated in each record: a name may come from either side */
	CHECK(refs_are("[ r = countMatches(Need, TARGET.GPUs) > 0; Need = Cap >= 7 && k; k = 1 ]",
	    "r", 0, "my:need my:need other:need my:cap other:cap my:k other:k other:gpus", 0));
	CHECK(refs_are("[ r = evalInEachContext(TARGET.Need, TARGET.GPUs) ]", "r", 0,
	    "other:need other:need other:gpus", 1));
}

/* ---- the matcher against plain pairwise evaluation ---- */

static uint32_t lcg = 12345;
static uint32_t round_seed;	/* T_MATCH_ROUNDS: more pools, for soaking */

static uint32_t
pick(uint32_t n)
{
	lcg = lcg * 1103515245u + 12345u;
	return (lcg >> 16) % n;
}

/* Job i of template t: the copies of a template differ in their ids. */
static ca_ad *
random_job(int i, int t)
{
	static const char *const reqs[] = {
		"TARGET.Memory >= RequestMemory && TARGET.Arch == \"X86_64\"",
		"(TARGET.Memory >= RequestMemory) && (Cpus >= RequestCpus) && HasGPU =!= true",
		"TARGET.Memory >= RequestMemory || TARGET.Owner == Owner",
		"TARGET.Disk >= RequestDisk && TARGET.Memory > 1000",
		"undefined",
		"TARGET.Memory * 2 >= RequestMemory && stringListMember(TARGET.Arch, \"X86_64,ARM\")",
		"MY.RequestMemory <= 4096 && TARGET.Memory >= RequestMemory",
		"countMatches(NeedGPU, TARGET.GPUList) >= 1 && TARGET.Memory >= 1024",
	};
	static const char *const ranks[] = {
		"TARGET.Memory", "Memory / 1024 + TARGET.Cpus", "TARGET.Mips * RequestCpus",
		"\"high\"", "Department == TARGET.Department", "0",
	};
	static const char *const owners[] = { "alice", "bob", "carol" };
	char buf[1024];
	lcg = 1000u + (uint32_t)t + 7919u * round_seed;
	int n = snprintf(buf, sizeof buf, "[ ClusterId = %d; ProcId = %d; Owner = \"%s\";"
	    " RequestMemory = %u; RequestCpus = %u; DiskUsage = %u;",
	    100 + i / 4, i % 4, owners[pick(3)], 512u << pick(5), 1u + pick(3),
	    pick(2) ? 100u : 200u);
	if (pick(4))
		n += snprintf(buf + n, sizeof buf - n, " RequestDisk = %s;",
		    pick(3) ? "DiskUsage * 2" : "TARGET.Disk / 2");
	if (pick(8))
		n += snprintf(buf + n, sizeof buf - n, " Requirements = %s;", reqs[pick(8)]);
	n += snprintf(buf + n, sizeof buf - n, " NeedGPU = Cap >= MinCap; MinCap = %u;", 6 + pick(3));
	if (pick(3))
		n += snprintf(buf + n, sizeof buf - n, " Rank = %s;", ranks[pick(6)]);
	if (pick(2))
		n += snprintf(buf + n, sizeof buf - n, " Department = \"%s\";",
		    pick(2) ? "physics" : "chem");
	if (pick(5) == 0)	/* shadows the slot's, for unscoped references */
		n += snprintf(buf + n, sizeof buf - n, " Cpus = %u; Memory = 100;", pick(3));
	snprintf(buf + n, sizeof buf - n, " ]");
	return ad(buf);
}

static ca_ad *
random_slot(int i, int late)
{
	static const char *const starts[] = {
		"true", "TARGET.RequestMemory <= Memory", "KeyboardIdle > 900",
		"TARGET.Owner != \"bob\" && TARGET.RequestCpus <= Cpus",
		"RequestMemory <= Memory / 2", "ifThenElse(TARGET.Owner == \"alice\", true, Memory > 2048)",
		/* a job's RequestDisk may read the slot back (TARGET.Disk / 2) */
		"TARGET.RequestDisk =!= undefined && TARGET.RequestDisk <= Disk",
	};
	char buf[1024];
	int n = snprintf(buf, sizeof buf, "[ Name = \"slot%d\"; Memory = %u; Cpus = %u;"
	    " Arch = \"%s\"; Disk = %u; Mips = %u; KeyboardIdle = %u;"
	    " Requirements = START; START = %s;", i, 1024u << pick(4), 1u + pick(4),
	    pick(4) ? "X86_64" : "ARM", 100u * (1 + pick(5)), 1000u + pick(5) * 100,
	    pick(2) ? 100u : 5000u, starts[pick(7)]);
	if (pick(6) == 0)	/* a slot whose attribute reaches back into the job */
		n += snprintf(buf + n, sizeof buf - n, " HasGPU = TARGET.RequestCpus > 2;");
	if (pick(2))	/* records evaluated by countMatches() */
		n += snprintf(buf + n, sizeof buf - n, " GPUList = { [ Cap = %u ], [ Cap = 6 ] };",
		    6 + pick(3));
	if (pick(4) == 0)	/* and one reached only by falling back from the job */
		n += snprintf(buf + n, sizeof buf - n, " Department = Owner == \"carol\" ? \"chem\" : \"x\";");
	if (pick(2))
		n += snprintf(buf + n, sizeof buf - n, " Rank = %s;",
		    late && pick(2) ? "TARGET.Department == \"physics\"" : "TARGET.RequestCpus");
	snprintf(buf + n, sizeof buf - n, " ]");
	return ad(buf);
}

static void
refs_none(void *arg, const ca_name *nm, int side)
{
	(void)arg;
	(void)nm;
	(void)side;
}

/* A copy of slot holding the process's shared trees, as a reader's packed
 * ads do: slots whose texts agree fall in one kind for ca_ads_alike, their
 * literals apart, and the matcher walks one of each kind. */
static ca_ad *
shared_copy(const ca_ad *slot)
{
	ca_ad *c = ca_ad_new();

	for (uint32_t k = 0; k < slot->n; k++) {
		const ca_attr *at = &slot->attrs[k];
		const ca_expr *e = ca_attr_expr(slot, at);
		const ca_expr *sh = e->node == CA_N_LIT ? NULL : ca_expr_share(e);
		if (sh != NULL)
			ca_ad_set(c, ca_attr_name(at), NULL, (ca_expr *)(uintptr_t)sh);
		else
			ca_ad_set_copy(c, ca_attr_name(at)->spell, strlen(ca_attr_name(at)->spell), e);
	}
	return c;
}

struct pair {
	double jr, sr;
	uint32_t slot;
};

static int
pair_cmp(const void *pa, const void *pb)
{
	const struct pair *a = pa, *b = pb;

	if (a->jr != b->jr)
		return a->jr > b->jr ? -1 : 1;
	return a->slot < b->slot ? -1 : a->slot > b->slot;
}

static int
hit_order(const void *pa, const void *pb)
{
	const ca_hit *a = pa, *b = pb;

	if (a->jrank != b->jrank)
		return a->jrank > b->jrank ? -1 : 1;
	return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* Match NJ jobs with NS slots through a matcher (flags, limit) and check
 * every job's list against plain evaluation of every pair; so too the
 * lists made cluster by cluster (all clusters at once, and each alone
 * asking for one hit). */
static void
cross_check(unsigned flags, uint32_t limit, uint32_t *nclusters)
{
	enum { NJ = 60, NS = 80 };
	ca_ad *jobs[NJ], *slots[NS];
	ca_ctx cx;
	struct pair want[NS];
	int bad = 0, total = 0;

	lcg = 4242u + round_seed;
	ca_ctx_init(&cx);
	cx.now = 1700000000;
	cx.strict = (flags & CA_M_STRICT) != 0;
	for (int i = 0; i < NJ; i++)
		jobs[i] = random_job(i, i % 20);	/* clusters of three */
	lcg = 4242u + round_seed;
	for (int i = 0; i < NS; i++)
		slots[i] = random_slot(i, i >= NS / 2);

	ca_matcher *m = ca_matcher_new(&cx, flags, limit);
	/* the same, holding at most 7 hits in memory: the rest go to runs in
	 * a file, across the clusters' splits */
	ca_matcher *ms = ca_matcher_new(&cx, flags, limit);
	ca_matcher_spill(ms, 7);
	for (int i = 0; i < NJ; i++) {
		ca_matcher_add_job(m, jobs[i]);
		ca_matcher_add_job(ms, jobs[i]);
	}
	for (int i = 0; i < NS; i++) {
		ca_matcher_slot(m, slots[i], (uint32_t)i, true, NULL);
		ca_matcher_slot(ms, slots[i], (uint32_t)i, true, NULL);
	}
	*nclusters = ca_matcher_nclusters(m);
	for (int j = 0; j < NJ; j++) {
		uint32_t n1, n2, same = 0;
		const ca_hit *h1 = ca_matcher_hits(m, ca_matcher_cluster_of(m, (uint32_t)j), &n1);
		const ca_hit *h2 = ca_matcher_hits(ms, ca_matcher_cluster_of(ms, (uint32_t)j), &n2);
		for (uint32_t k = 0; k < n1 && k < n2; k++)
			same += h1[k].slot == h2[k].slot && h1[k].jrank == h2[k].jrank &&
			    h1[k].srank == h2[k].srank;
		CHECK(n1 == n2 && same == n1);
	}
	CHECK(ca_matcher_error(ms) == NULL);
	ca_matcher_free(ms);

	/* cluster by cluster, over the slots with shared trees: most fall in
	 * a few kinds, each walked once */
	ca_matcher *m2 = ca_matcher_new(&cx, flags, 0);
	ca_ad *shared[NS];
	ca_walkkinds kinds = { 0 };
	ca_nameset looked = { CA_VEC_INIT, CA_DICT_INIT };
	int reused = 0;
	for (int i = 0; i < NS; i++) {
		shared[i] = shared_copy(slots[i]);
		/* the test is worth it when slots share kinds */
		if (ca_walkkinds_find(&kinds, shared[i]) >= 0) {
			reused++;
			continue;
		}
		ca_nameset_clear(&looked);
		(void)ca_expr_refs_looked(ca_ad_lookup(shared[i], "Requirements"), shared[i],
		    CA_REFS_DEEP, refs_none, NULL, &looked);
		(void)ca_walkkinds_note(&kinds, -1, shared[i], &looked);
	}
	CHECK(reused >= NS / 4);
	ca_walkkinds_free(&kinds);
	ca_nameset_free(&looked);
	for (int i = 0; i < NJ; i++)
		ca_matcher_add_job(m2, jobs[i]);
	ca_matcher_set_slots(m2, (const ca_ad *const *)shared, NS);
	uint32_t ncl2 = ca_matcher_nclusters(m2);
	uint32_t *all = calloc(ncl2, sizeof *all), *cnt = calloc(ncl2, sizeof *cnt);
	ca_hits *got = calloc(ncl2, sizeof *got);
	ca_hit **lists = calloc(ncl2, sizeof *lists);
	for (uint32_t c = 0; c < ncl2; c++)
		all[c] = c;
	ca_matcher_cluster_hits(m2, all, ncl2, CA_MH_ALL, 0, got);
	/* each list as hits, to compare and sort */
	for (uint32_t c = 0; c < ncl2; c++) {
		cnt[c] = got[c].n;
		lists[c] = calloc(cnt[c] + 1, sizeof *lists[c]);
		for (uint32_t k = 0; k < cnt[c]; k++)
			lists[c][k] = ca_hits_at(&got[c], k);
		ca_hits_free(&got[c]);
	}
	free(got);
	for (uint32_t c = 0; c < ncl2; c++) {
		ca_hits one;
		ca_matcher_cluster_hits(m2, &c, 1, CA_MH_ALL, 1, &one);
		CHECK(one.n == (cnt[c] > 0));
		CHECK(one.n == 0 || (one.slot[0] == lists[c][0].slot));
		ca_hits_free(&one);
		for (uint32_t k = 1; k < cnt[c]; k++)
			CHECK(lists[c][k - 1].slot < lists[c][k].slot);
	}
	/* every third slot dropped: the live and the gone ones part the list */
	for (uint32_t i = 0; i < NS; i += 3)
		ca_matcher_drop_slot(m2, i);
	for (uint32_t c = 0; c < ncl2; c++) {
		ca_hits live, gone;
		uint32_t l = 0, g = 0;
		ca_matcher_cluster_hits(m2, &c, 1, CA_MH_LIVE, 0, &live);
		ca_matcher_cluster_hits(m2, &c, 1, CA_MH_GONE, 0, &gone);
		CHECK(live.n + gone.n == cnt[c]);
		for (uint32_t k = 0; k < cnt[c]; k++) {
			bool in_live = lists[c][k].slot % 3;
			const ca_hits *from = in_live ? &live : &gone;
			uint32_t *at = in_live ? &l : &g;
			CHECK(*at < from->n);
			if (*at >= from->n)
				continue;
			ca_hit h = ca_hits_at(from, (*at)++);
			CHECK(h.slot == lists[c][k].slot && h.jrank == lists[c][k].jrank &&
			    h.srank == lists[c][k].srank);
		}
		ca_hits_free(&live);
		ca_hits_free(&gone);
		if (cnt[c] > 1)
			qsort(lists[c], cnt[c], sizeof *lists[c], hit_order);
	}

	for (int j = 0; j < NJ; j++) {
		ca_mad jm, sm;
		uint32_t nw = 0, n;
		ca_mad_prepare(&jm, jobs[j]);
		for (int i = 0; i < NS; i++) {
			ca_mad_prepare(&sm, slots[i]);
			if (ca_match_symmetric(&cx, &jm, &sm)) {
				want[nw].jr = ca_match_rank(&cx, jm.rank, jobs[j], slots[i]);
				want[nw].sr = ca_match_rank(&cx, sm.rank, slots[i], jobs[j]);
				want[nw].slot = (uint32_t)i;
				nw++;
			}
			ca_arena_reset(&cx.scratch);
		}
		qsort(want, nw, sizeof *want, pair_cmp);
		total += (int)nw;
		uint32_t c2 = ca_matcher_cluster_of(m2, (uint32_t)j);
		if (cnt[c2] != nw)
			bad++;
		for (uint32_t k = 0; k < cnt[c2] && k < nw; k++)
			if (lists[c2][k].slot != want[k].slot || lists[c2][k].jrank != want[k].jr ||
			    lists[c2][k].srank != want[k].sr)
				bad++;
		if (limit && nw > limit)
			nw = limit;
		const ca_hit *h = ca_matcher_hits(m, ca_matcher_cluster_of(m, (uint32_t)j), &n);
		if (n != nw)
			bad++;
		for (uint32_t k = 0; k < n && k < nw; k++)
			if (h[k].slot != want[k].slot || h[k].jrank != want[k].jr ||
			    h[k].srank != want[k].sr)
				bad++;
	}
	if (bad)
		fprintf(stderr, "  cross_check(flags %u, limit %u): %d differences\n", flags,
		    limit, bad);
	CHECK(bad == 0);
	if (getenv("T_MATCH_VERBOSE"))
		fprintf(stderr, "  cross_check(flags %u, limit %u): %d matches, %u clusters\n",
		    flags, limit, total, *nclusters);
	/* the pool is meant to match some pairs, not none and not all */
	if (round_seed == 0)
		CHECK(total > NJ && total < NJ * NS / 2);
	ca_matcher_free(m);
	for (uint32_t c = 0; c < ncl2; c++)
		free(lists[c]);
	free(lists);
	free(all);
	free(cnt);
	ca_matcher_free(m2);
	for (int i = 0; i < NS; i++)
		ca_ad_free(shared[i]);
	for (int i = 0; i < NJ; i++)
		ca_ad_free(jobs[i]);
	for (int i = 0; i < NS; i++)
		ca_ad_free(slots[i]);
	ca_ctx_free(&cx);
}

UNIT_SUITE(match_autoclusters)
{
	uint32_t ncl, ncl1;
	const char *env = getenv("T_MATCH_ROUNDS");
	uint32_t rounds = env ? (uint32_t)atoi(env) : 1;

	for (round_seed = 0; round_seed < rounds; round_seed++) {
		cross_check(0, 0, &ncl);
		CHECK(ncl <= 20);	/* the three copies of a job share a cluster */
		cross_check(CA_M_NOCLUSTER, 0, &ncl1);
		CHECK(ncl1 == 60);
		cross_check(0, 3, &ncl);
		cross_check(0, 1, &ncl);
		cross_check(CA_M_STRICT, 0, &ncl);
	}
	round_seed = 0;
}

/* The slots' Requirements folded over each slot (cluster by cluster):
 * the same pairs as evaluating them whole, also when a job's definition
 * the slot reads looks back at the slot, and whether the clusters come
 * in one batch or one by one. */
/* Slots of a kind reuse what walking the first found, but not a job's
 * reading of their Requirements that a later slot brought to light: a
 * slot whose Requirements read the job is then not pure. */
UNIT_SUITE(match_kinds_policy_seen)
{
	enum { NJ = 2, NS = 3 };
	ca_ad *jobs[NJ], *slots[NS];
	ca_ctx cx;
	char buf[512];
	static const int mem[NS] = { 1000, 8000, 4000 };

	ca_ctx_init(&cx);
	for (int j = 0; j < NJ; j++) {
		snprintf(buf, sizeof buf, "[ ProcId = %d; RequestMemory = %d; Fancy = "
		    "TARGET.Requirements; Requirements = Fancy ]", j, j ? 500 : 2000);
		jobs[j] = ad(buf);
	}
	for (int i = 0; i < NS; i++) {
		snprintf(buf, sizeof buf, "[ Name = \"s%d\"; Memory = %d; Requirements = %s ]", i,
		    mem[i], i == 1 ? "TARGET.Fancy =!= false && TARGET.RequestMemory <= Memory" :
		    "TARGET.RequestMemory <= Memory");
		ca_ad *a = ad(buf);
		slots[i] = shared_copy(a);
		ca_ad_free(a);
	}
	ca_matcher *m = ca_matcher_new(&cx, 0, 0);
	for (int j = 0; j < NJ; j++)
		ca_matcher_add_job(m, jobs[j]);
	ca_matcher_set_slots(m, (const ca_ad *const *)slots, NS);
	int bad = 0;
	for (int round = 0; round < 3; round++)
		for (uint32_t c = 0; c < ca_matcher_nclusters(m); c++) {
			ca_hits h;
			uint32_t k = 0;
			ca_matcher_cluster_hits(m, &c, 1, CA_MH_ALL, 0, &h);
			uint32_t cnt = h.n;
			const ca_ad *job = ca_matcher_job(m, ca_matcher_members(m, c,
			    &(uint32_t){ 0 })[0]);
			ca_mad jm, sm;
			ca_mad_prepare(&jm, job);
			for (uint32_t i = 0; i < NS; i++) {
				ca_mad_prepare(&sm, slots[i]);
				bool want = ca_match_symmetric(&cx, &jm, &sm);
				ca_arena_reset(&cx.scratch);
				bool got = k < cnt && h.slot[k] == i;
				k += got;
				bad += want != got;
			}
			bad += k != cnt;
			ca_hits_free(&h);
		}
	CHECK(bad == 0);
	ca_matcher_free(m);
	for (int i = 0; i < NS; i++)
		ca_ad_free(slots[i]);
	for (int j = 0; j < NJ; j++)
		ca_ad_free(jobs[j]);
	ca_ctx_free(&cx);
}

UNIT_SUITE(match_slot_fold)
{
	static const char *const rdisk[] = {
		"100", "250", "400", "TARGET.Disk / 2", "TARGET.Disk * 2", "undefined", "MY.DiskUsage",
	};
	enum { NJ = 7, NS = 6 };
	ca_ad *jobs[NJ], *slots[NS];
	ca_ctx cx;
	char buf[512];

	ca_ctx_init(&cx);
	for (int j = 0; j < NJ; j++) {
		snprintf(buf, sizeof buf, "[ ProcId = %d; DiskUsage = 300; RequestDisk = %s;"
		    " Requirements = TARGET.Arch == \"X86_64\" ]", j, rdisk[j]);
		jobs[j] = ad(buf);
	}
	for (int i = 0; i < NS; i++) {
		snprintf(buf, sizeof buf, "[ Name = \"s%d\"; Arch = \"X86_64\"; Disk = %d;"
		    " Requirements = START && WithinLimits; START = KeyboardIdle > 60;"
		    " KeyboardIdle = %d; WithinLimits = TARGET.RequestDisk =!= undefined &&"
		    " TARGET.RequestDisk <= MY.Disk ]", i, 100 * (i + 1), i == 2 ? 10 : 100);
		slots[i] = ad(buf);
	}
	for (int mode = 0; mode < 2; mode++) {
		ca_matcher *m = ca_matcher_new(&cx, 0, 0);
		int bad = 0;
		for (int j = 0; j < NJ; j++)
			ca_matcher_add_job(m, jobs[j]);
		ca_matcher_set_slots(m, (const ca_ad *const *)slots, NS);
		CHECK(ca_matcher_nclusters(m) == NJ);
		/* several rounds: the slots are folded after their first uses */
		for (int round = 0; round < 3; round++) {
			uint32_t all[NJ];
			ca_hits lists[NJ];
			for (uint32_t c = 0; c < NJ; c++)
				all[c] = c;
			if (mode == 0)
				ca_matcher_cluster_hits(m, all, NJ, CA_MH_ALL, 0, lists);
			else
				for (uint32_t c = 0; c < NJ; c++)
					ca_matcher_cluster_hits(m, &all[c], 1, CA_MH_ALL, 0, &lists[c]);
			for (uint32_t c = 0; c < NJ; c++) {
				const ca_ad *job = ca_matcher_job(m, ca_matcher_members(m, c,
				    &(uint32_t){ 0 })[0]);
				ca_mad jm, sm;
				uint32_t k = 0;
				ca_mad_prepare(&jm, job);
				for (uint32_t i = 0; i < NS; i++) {
					ca_mad_prepare(&sm, slots[i]);
					bool want = ca_match_symmetric(&cx, &jm, &sm);
					ca_arena_reset(&cx.scratch);
					bool got = k < lists[c].n && lists[c].slot[k] == i;
					k += got;
					bad += want != got;
				}
				bad += k != lists[c].n;
				ca_hits_free(&lists[c]);
			}
		}
		if (bad)
			fprintf(stderr, "  match_slot_fold (mode %d): %d differences\n", mode, bad);
		CHECK(bad == 0);
		ca_matcher_free(m);
	}

	/* a name declared volatile is read as it is now, never folded */
	ca_nameset vol = { CA_VEC_INIT, CA_DICT_INIT };
	const ca_name *idle = ca_intern("KeyboardIdle", 12);
	ca_nameset_add(&vol, idle);
	ca_matcher *m = ca_matcher_new(&cx, 0, 0);
	for (int j = 0; j < NJ; j++)
		ca_matcher_add_job(m, jobs[j]);
	ca_matcher_volatile(m, &vol);
	ca_matcher_set_slots(m, (const ca_ad *const *)slots, NS);
	for (int round = 0; round < 4; round++) {
		uint32_t c = 0;
		ca_hits h;
		/* every slot's START true, then false, then true ... */
		for (int i = 0; i < NS; i++)
			ca_ad_set(slots[i], idle, NULL, ca_expr_lit(slots[i]->arena,
			    ca_int(round % 2 ? 10 : 100)));
		for (int k = 0; k < 4; k++) {
			ca_matcher_cluster_hits(m, &c, 1, CA_MH_ALL, 0, &h);
			CHECK(round % 2 ? h.n == 0 : h.n == NS);
			ca_hits_free(&h);
		}
	}
	ca_matcher_free(m);
	ca_nameset_free(&vol);
	for (int j = 0; j < NJ; j++)
		ca_ad_free(jobs[j]);
	for (int i = 0; i < NS; i++)
		ca_ad_free(slots[i]);
	ca_ctx_free(&cx);
}

UNIT_SUITE(match_clusters_split)
{
	ca_ctx cx;
	const ca_slot_hit *h;
	uint32_t n;
	bool dyn;

	ca_ctx_init(&cx);
	/* jobs 0 and 1 differ only in ClusterId/ProcId and Department */
	ca_ad *j0 = ad("[ ClusterId = 1; ProcId = 0; Department = \"a\"; Requirements = true ]");
	ca_ad *j1 = ad("[ ClusterId = 1; ProcId = 1; Department = \"b\"; Requirements = true ]");
	ca_ad *j2 = ad("[ ClusterId = 2; ProcId = 0; Department = \"a\"; Requirements = false ]");
	ca_ad *s0 = ad("[ Name = \"s0\"; Requirements = true; Rank = 1 ]");
	ca_ad *s1 = ad("[ Name = \"s1\"; Requirements = TARGET.Department == \"a\"; Rank = 2 ]");
	ca_ad *s2 = ad("[ Name = \"s2\"; Requirements = true; Rank = 3 ]");
	ca_matcher *m = ca_matcher_new(&cx, 0, 0);

	ca_matcher_add_job(m, j0);
	ca_matcher_add_job(m, j1);
	ca_matcher_add_job(m, j2);
	ca_matcher_prepare(m);
	CHECK(ca_matcher_nclusters(m) == 2);
	CHECK(ca_matcher_cluster_of(m, 0) == ca_matcher_cluster_of(m, 1));
	CHECK(ca_matcher_slot(m, s0, 0, true, &h) == 1 && h[0].cluster == 0);
	uint32_t gen = ca_matcher_generation(m);
	/* s1 looks at Department: the first cluster splits */
	CHECK(ca_matcher_slot(m, s1, 1, true, &h) == 1);
	CHECK(ca_matcher_generation(m) != gen);
	CHECK(ca_matcher_nclusters(m) == 3);
	CHECK(ca_matcher_parent(m, ca_matcher_cluster_of(m, 1)) ==
	    ca_matcher_parent(m, ca_matcher_cluster_of(m, 0)));
	CHECK(ca_matcher_slot(m, s2, 2, true, &h) == 2);
	/* both halves kept the hit of s0 from before the split */
	const ca_hit *hit = ca_matcher_hits(m, ca_matcher_cluster_of(m, 0), &n);
	CHECK(n == 3 && hit[0].slot == 0 && hit[1].slot == 1 && hit[2].slot == 2);
	hit = ca_matcher_hits(m, ca_matcher_cluster_of(m, 1), &n);
	CHECK(n == 2 && hit[0].slot == 0 && hit[1].slot == 2 && hit[1].srank == 3.0);
	hit = ca_matcher_hits(m, ca_matcher_cluster_of(m, 2), &n);
	CHECK(n == 0);
	const uint32_t *mem = ca_matcher_members(m, ca_matcher_cluster_of(m, 1), &n);
	CHECK(n == 1 && mem[0] == 1);
	const ca_name *const *sig = ca_matcher_sigattrs(m, &n, &dyn);
	CHECK(!dyn && n >= 3 && strcmp(sig[n - 1]->key, "department") == 0);

	ca_matcher_free(m);
	ca_ad_free(j0);
	ca_ad_free(j1);
	ca_ad_free(j2);
	ca_ad_free(s0);
	ca_ad_free(s1);
	ca_ad_free(s2);
	ca_ctx_free(&cx);
}

/* Hits held in a file from before a split come back to both halves. */
UNIT_SUITE(match_spill_split)
{
	ca_ctx cx;
	const char *const src[] = {
		"[ Name = \"s0\"; Requirements = true; Rank = 1 ]",
		"[ Name = \"s1\"; Requirements = true; Rank = 2 ]",
		"[ Name = \"s2\"; Requirements = TARGET.Department == \"a\"; Rank = 3 ]",
		"[ Name = \"s3\"; Requirements = TARGET.Department == \"b\"; Rank = 4 ]",
		"[ Name = \"s4\"; Requirements = true; Rank = 5 ]",
	};
	ca_ad *jobs[3], *slots[5];

	ca_ctx_init(&cx);
	jobs[0] = ad("[ ProcId = 0; Department = \"a\"; Requirements = true; Rank = TARGET.Rank ]");
	jobs[1] = ad("[ ProcId = 1; Department = \"b\"; Requirements = true; Rank = TARGET.Rank ]");
	jobs[2] = ad("[ ProcId = 2; Department = \"a\"; Requirements = true; Rank = TARGET.Rank ]");
	for (int i = 0; i < 5; i++)
		slots[i] = ad(src[i]);
	ca_matcher *m = ca_matcher_new(&cx, 0, 0), *ms = ca_matcher_new(&cx, 0, 0);
	ca_matcher_spill(ms, 1);
	for (int j = 0; j < 3; j++) {
		ca_matcher_add_job(m, jobs[j]);
		ca_matcher_add_job(ms, jobs[j]);
	}
	for (int i = 0; i < 5; i++) {
		ca_matcher_slot(m, slots[i], (uint32_t)i, true, NULL);
		ca_matcher_slot(ms, slots[i], (uint32_t)i, true, NULL);
	}
	CHECK(ca_matcher_nclusters(ms) == 2);
	for (int j = 0; j < 3; j++) {
		uint32_t n1, n2, same = 0;
		const ca_hit *h1 = ca_matcher_hits(m, ca_matcher_cluster_of(m, (uint32_t)j), &n1);
		const ca_hit *h2 = ca_matcher_hits(ms, ca_matcher_cluster_of(ms, (uint32_t)j), &n2);
		for (uint32_t k = 0; k < n1 && k < n2; k++)
			same += h1[k].slot == h2[k].slot && h1[k].jrank == h2[k].jrank;
		CHECK(n1 == 4 && n2 == n1 && same == n1);
		/* best first: s4, the Department slot of the job, s1, s0 */
		CHECK(n2 == 4 && h2[0].slot == 4 && h2[1].slot == (j == 1 ? 3u : 2u) &&
		    h2[3].slot == 0);
	}
	CHECK(ca_matcher_error(ms) == NULL);
	ca_matcher_free(m);
	ca_matcher_free(ms);
	for (int j = 0; j < 3; j++)
		ca_ad_free(jobs[j]);
	for (int i = 0; i < 5; i++)
		ca_ad_free(slots[i]);
	ca_ctx_free(&cx);
}

static bool
contains(const strbuf *sb, const char *s)
{
	bool ok = strstr(sb->buf, s) != NULL;

	if (!ok)
		fprintf(stderr, "  missing \"%s\" in:\n%s", s, sb->buf);
	return ok;
}

UNIT_SUITE(match_analysis)
{
	ca_ctx cx;
	ca_analysis_counts c;
	strbuf sb = STRBUF_INIT;

	ca_ctx_init(&cx);
	ca_ad *job = ad("[ ClusterId = 7; ProcId = 0; RequestMemory = 65536; NiceUser = false;"
	    " Requirements = TARGET.Arch == \"X86_64\" && (TARGET.Memory >= RequestMemory ||"
	    " TARGET.HasSwap) && NiceUser == false && Memory >= 65536 ]");
	ca_ad *slots[3] = {
		ad("[ Arch = \"X86_64\"; Memory = 32768; Requirements = true ]"),
		ad("[ Arch = \"ARM\"; Memory = 16384; Requirements = true ]"),
		ad("[ Arch = \"X86_64\"; Memory = 8192; Requirements = false ]"),
	};
	ca_analysis *an = ca_analysis_new(&cx, job, 0);
	for (int i = 0; i < 3; i++)
		ca_analysis_add(an, slots[i], 1);
	ca_analysis_counts_get(an, &c);
	CHECK(c.total == 3 && c.rejected == 3 && c.rejecting == 0 && c.willing == 0);
	ca_analysis_words w = { "7.0", false, 2 };
	ca_analysis_report(an, &sb, &w);
	CHECK(contains(&sb, "[1]           2  TARGET.Arch == \"X86_64\"\n"));
	CHECK(contains(&sb, "[2]           0  TARGET.Memory >= RequestMemory || TARGET.HasSwap\n"));
	CHECK(contains(&sb, "[2.1]         0    TARGET.Memory >= RequestMemory\n"));
	CHECK(contains(&sb, "[3]      always  NiceUser == false\n"));
	CHECK(contains(&sb, "Of 3 slots on 2 machines,"));
	CHECK(contains(&sb, "    RequestMemory = 65536\n"));
	CHECK(contains(&sb, "    [2.1] TARGET.Memory >= RequestMemory:\n"
	    "        no slot has more than 32768 (RequestMemory is 65536)\n"));
	CHECK(contains(&sb, "[2.2] TARGET.HasSwap: TARGET.HasSwap is undefined in every slot\n"));
	CHECK(contains(&sb, "[1]           2  TARGET.Arch"));
	CHECK(contains(&sb, "[4] Memory >= 65536: no slot has more than 32768\n"));

	/* an autocluster split: the new analysis carries the counts on */
	ca_analysis *an2 = ca_analysis_new(&cx, job, 0);
	ca_analysis_inherit(an2, an);
	ca_analysis_add(an2, slots[0], 2);
	ca_analysis_counts_get(an2, &c);
	CHECK(c.total == 5 && c.rejected == 5);
	ca_analysis_free(an2);
	ca_analysis_free(an);

	/* every condition holds somewhere, never all together */
	ca_ad *job2 = ad("[ Requirements = TARGET.Arch == \"ARM\" && TARGET.Memory >= 32768 ]");
	an = ca_analysis_new(&cx, job2, 0);
	for (int i = 0; i < 3; i++)
		ca_analysis_add(an, slots[i], 1);
	strbuf_reset(&sb);
	ca_analysis_report(an, &sb, &w);
	CHECK(contains(&sb, "each condition holds on some slot"));
	CHECK(contains(&sb, "    [1] TARGET.Arch == \"ARM\": 1 slot meets all the other conditions\n"));
	CHECK(contains(&sb, "    [2] TARGET.Memory >= 32768: 1 slot meets all the other conditions\n"));
	ca_analysis_free(an);

	/* the slots reject the job */
	ca_ad *job3 = ad("[ Requirements = TARGET.Memory <= 8192 ]");
	an = ca_analysis_new(&cx, job3, 0);
	for (int i = 0; i < 3; i++)
		ca_analysis_add(an, slots[i], 1);
	ca_analysis_counts_get(an, &c);
	CHECK(c.rejected == 2 && c.rejecting == 1 && c.willing == 0);
	strbuf_reset(&sb);
	ca_analysis_report(an, &sb, &w);
	CHECK(contains(&sb, "accept 1 slot, but that slot\nrejects the job by its own"));
	ca_analysis_free(an);

	ca_ad_free(job);
	ca_ad_free(job2);
	ca_ad_free(job3);
	for (int i = 0; i < 3; i++)
		ca_ad_free(slots[i]);
	strbuf_release(&sb);
	ca_ctx_free(&cx);
}
