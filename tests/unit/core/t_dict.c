/* t_dict.c - unit tests of the one growable array (vec.h), the one hash
 * table (dict.h), the scope resolver (ca_resolve in eval.h) and the
 * heap's huge-page hint (ca_heap_huge in arena.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "classad.h"

UNIT_SUITE(vec_push_pop_trim)
{
	ca_vec(int) v = CA_VEC_INIT;

	CHECK(v.n == 0 && v.cap == 0 && v.at == NULL);
	for (int i = 0; i < 1000; i++)
		*ca_vec_push(&v) = i * 3;
	CHECK(v.n == 1000 && v.cap >= 1000);
	int ok = 1;
	for (int i = 0; i < 1000; i++)
		ok &= v.at[i] == i * 3;
	CHECK(ok);
	CHECK(ca_vec_last(&v) == 999 * 3);
	CHECK(ca_vec_pop(&v) == 999 * 3 && v.n == 999);
	ca_vec_trim(&v);
	CHECK(v.cap == 999 && v.at[998] == 998 * 3);
	ca_vec_reserve(&v, 5000);
	CHECK(v.cap >= 5000 && v.n == 999 && v.at[0] == 0);
	v.n = 0;
	ca_vec_trim(&v);
	CHECK(v.at == NULL && v.cap == 0);
	*ca_vec_push(&v) = 7;	/* usable again after trimming to nothing */
	CHECK(v.n == 1 && v.cap >= 1 && v.at[0] == 7);
	ca_vec_free(&v);
	CHECK(v.at == NULL && v.n == 0 && v.cap == 0);

	/* the first growth makes room for 8, then it doubles */
	ca_vec(char) c = CA_VEC_INIT;
	*ca_vec_push(&c) = 'a';
	CHECK(c.cap == 8);
	for (int i = 0; i < 8; i++)
		*ca_vec_push(&c) = 'b';
	CHECK(c.cap == 16 && c.n == 9);
	ca_vec_free(&c);
}

/* Whether d holds item idx under hash h. */
static int
dict_has(const ca_dict *d, uint64_t h, uint32_t idx)
{
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(d, h, &it); i != CA_DICT_NONE; i = ca_dict_next(d, &it))
		if (i == idx)
			return 1;
	return 0;
}

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint32_t
rnd(uint32_t n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545f4914f6cdd1du) >> 32) % n;
}

UNIT_SUITE(dict_basics)
{
	ca_dict d = CA_DICT_INIT;
	ca_dict_it it;

	CHECK(ca_dict_first(&d, 42, &it) == CA_DICT_NONE);	/* empty, no memory */
	CHECK(!ca_dict_remove(&d, 42, 0));
	ca_dict_add(&d, 42, 0);
	ca_dict_add(&d, 42, 1);		/* items may share a hash */
	ca_dict_add(&d, 43, 2);
	CHECK(d.n == 3);
	CHECK(dict_has(&d, 42, 0) && dict_has(&d, 42, 1) && !dict_has(&d, 42, 2));
	CHECK(dict_has(&d, 43, 2) && !dict_has(&d, 44, 2));
	/* only the low 32 bits of a hash count */
	CHECK(dict_has(&d, 42 | (UINT64_C(1) << 40), 0));
	CHECK(ca_dict_remove(&d, 42, 0) && !dict_has(&d, 42, 0) && dict_has(&d, 42, 1));
	CHECK(!ca_dict_remove(&d, 42, 0) && d.n == 2);
	ca_dict_clear(&d);
	CHECK(d.n == 0 && !dict_has(&d, 42, 1) && !dict_has(&d, 43, 2));
	ca_dict_add(&d, 7, 9);
	CHECK(dict_has(&d, 7, 9));
	ca_dict_free(&d);
	CHECK(d.ent == NULL && d.n == 0 && ca_dict_first(&d, 7, &it) == CA_DICT_NONE);
}

/* Many items on few hashes, added and removed at random against a plain
 * array: every lookup must find exactly the items present, whatever runs
 * of collisions the backward shift of removal rearranged, across growth
 * and across the wrap at the end of the table. */
UNIT_SUITE(dict_against_model)
{
	enum { N = 3000 };
	static uint64_t hash[N];
	static int in[N];
	ca_dict d = CA_DICT_INIT;
	int ok = 1;
	uint32_t count = 0;

	for (uint32_t i = 0; i < N; i++)
		hash[i] = i % 5 == 0 ? UINT32_MAX - rnd(4) : rnd(97) * UINT64_C(0x100000001);
	for (int round = 0; round < 20000; round++) {
		uint32_t i = rnd(N);
		if (in[i]) {
			ok &= ca_dict_remove(&d, hash[i], i);
			in[i] = 0;
			count--;
		} else {
			ca_dict_add(&d, hash[i], i);
			in[i] = 1;
			count++;
		}
		if (round % 1000 == 999)
			for (uint32_t k = 0; k < N; k++)
				ok &= dict_has(&d, hash[k], k) == in[k];
	}
	CHECK(ok);
	CHECK(d.n == count);
	CHECK((d.mask + 1) >= 2 * d.n);		/* at most half full */
	/* removing everything leaves an empty table that still works */
	for (uint32_t i = 0; i < N; i++)
		if (in[i])
			ok &= ca_dict_remove(&d, hash[i], i);
	CHECK(ok && d.n == 0);
	for (uint32_t i = 0; i < N; i++)
		ok &= !dict_has(&d, hash[i], i);
	CHECK(ok);
	ca_dict_free(&d);
}

/* ---- the scope resolver ---- */

static ca_ad *
ad_of(const char *src)
{
	ca_diag err;

	return ca_parse_ad(src, strlen(src), NULL, 0, &err);
}

static int
resolves(ca_ctx *cx, int scope, const char *name, const ca_frame *f, int flags,
    int kind, int side, const ca_ad *in)
{
	ca_where w;
	int k = ca_resolve(cx, scope, ca_intern(name, strlen(name)), f, flags, &w);

	if (k != kind || w.kind != kind)
		return 0;
	if (kind == CA_WHERE_SPECIAL)
		return w.special == side;
	if (w.side != side)
		return 0;
	return kind == CA_WHERE_NONE || (w.frame->ad == in && w.at != NULL);
}

/* v is the record ad. */
static void
v_is_ad(ca_ctx *cx, ca_value v, const ca_ad *ad)
{
	CHECK(v.kind == CA_AD && v.u.ad->ad == ad);
	ca_arena_reset(&cx->scratch);
}

UNIT_SUITE(resolve_scopes)
{
	ca_ctx cx;
	ca_ad *job = ad_of("[ Owner = \"alice\"; Env = [ Path = \"/bin\"; Deep = [ X = 1 ] ] ]");
	ca_ad *slot = ad_of("[ Memory = 4096; Owner = \"slot\" ]");
	ca_frame f = { job, NULL, job, slot }, alone = { job, NULL, job, NULL };

	ca_ctx_init(&cx);
	/* unscoped: MY first, then (daemon rules) TARGET */
	CHECK(resolves(&cx, CA_SC_NONE, "Owner", &f, 0, CA_WHERE_ATTR, CA_SIDE_MY, job));
	CHECK(resolves(&cx, CA_SC_NONE, "memory", &f, 0, CA_WHERE_ATTR, CA_SIDE_TARGET, slot));
	CHECK(resolves(&cx, CA_SC_NONE, "Memory", &f, CA_RESOLVE_AD_ONLY, CA_WHERE_NONE,
	    CA_SIDE_MY, NULL));
	CHECK(resolves(&cx, CA_SC_NONE, "Nothing", &f, 0, CA_WHERE_NONE, CA_SIDE_MY_TARGET, NULL));
	CHECK(resolves(&cx, CA_SC_NONE, "Nothing", &alone, 0, CA_WHERE_NONE, CA_SIDE_MY, NULL));
	/* the found attribute's frame puts TARGET at the root of its own side */
	ca_where w;
	ca_resolve(&cx, CA_SC_NONE, ca_intern("Memory", 6), &f, 0, &w);
	CHECK(w.frame->my == slot && w.frame->target == job && w.frame->up == NULL);
	/* scoped */
	CHECK(resolves(&cx, CA_SC_MY, "Owner", &f, 0, CA_WHERE_ATTR, CA_SIDE_MY, job));
	CHECK(resolves(&cx, CA_SC_TARGET, "Owner", &f, 0, CA_WHERE_ATTR, CA_SIDE_TARGET, slot));
	CHECK(resolves(&cx, CA_SC_OTHER, "Memory", &f, 0, CA_WHERE_ATTR, CA_SIDE_TARGET, slot));
	CHECK(resolves(&cx, CA_SC_TARGET, "Memory", &alone, 0, CA_WHERE_NONE, CA_SIDE_TARGET,
	    NULL));
	CHECK(resolves(&cx, CA_SC_MY, "Memory", &f, 0, CA_WHERE_NONE, CA_SIDE_MY, NULL));
	/* special names where nothing defines them */
	CHECK(resolves(&cx, CA_SC_NONE, "SELF", &f, 0, CA_WHERE_SPECIAL, CA_SP_SELF, NULL));
	CHECK(resolves(&cx, CA_SC_NONE, "target", &f, 0, CA_WHERE_SPECIAL, CA_SP_TARGET, NULL));
	CHECK(resolves(&cx, CA_SC_NONE, "CurrentTime", &f, 0, CA_WHERE_SPECIAL,
	    CA_SP_CURRENTTIME, NULL));
	/* nested ads: the ad itself, the ads around it, the outermost one */
	const ca_ad *env = ca_ad_lookup(job, "Env")->u.ad;
	const ca_ad *deep = ca_ad_lookup(env, "Deep")->u.ad;
	ca_frame fe = { env, &f, job, slot }, fd = { deep, &fe, job, slot };
	CHECK(resolves(&cx, CA_SC_NONE, "Path", &fe, 0, CA_WHERE_ATTR, CA_SIDE_NESTED, env));
	CHECK(resolves(&cx, CA_SC_NONE, "Path", &fd, 0, CA_WHERE_ATTR, CA_SIDE_ENCLOSING, env));
	CHECK(resolves(&cx, CA_SC_NONE, "Owner", &fd, 0, CA_WHERE_ATTR, CA_SIDE_ENCLOSING, job));
	/* in a match the outermost record is the one around the two ads,
	 * which holds none of their attributes; alone, it is the ad */
	CHECK(resolves(&cx, CA_SC_ROOT, "Owner", &fd, 0, CA_WHERE_NONE, CA_SIDE_ROOT, NULL));
	ca_frame ae = { env, &alone, job, NULL }, ad = { deep, &ae, job, NULL };
	CHECK(resolves(&cx, CA_SC_ROOT, "Owner", &ad, 0, CA_WHERE_ATTR, CA_SIDE_ROOT, job));
	CHECK(resolves(&cx, CA_SC_ROOT, "Path", &ad, 0, CA_WHERE_NONE, CA_SIDE_ROOT, NULL));
	/* the daemons' fallback to TARGET is for MY and TARGET themselves,
	 * not for the records in them */
	CHECK(resolves(&cx, CA_SC_NONE, "Memory", &fd, 0, CA_WHERE_NONE, CA_SIDE_NESTED, NULL));
	CHECK(resolves(&cx, CA_SC_NONE, "Memory", &fe, 0, CA_WHERE_NONE, CA_SIDE_NESTED, NULL));
	/* MY (the daemons' rules) is the current record, as self: MY.Path
	 * inside Env is Env's, MY.Owner is found around it */
	CHECK(resolves(&cx, CA_SC_MY, "Path", &fe, 0, CA_WHERE_ATTR, CA_SIDE_NESTED, env));
	CHECK(resolves(&cx, CA_SC_MY, "Owner", &fd, 0, CA_WHERE_ATTR, CA_SIDE_ENCLOSING, job));
	/* special names mean themselves where the search starts, before the
	 * ads around; target and other are the match's, found after them */
	ca_ad *shadow = ad_of("[ parent = 5; target = 6; In = [ X = 1 ] ]");
	ca_frame fs = { shadow, NULL, shadow, slot };
	ca_frame fi = { ca_ad_lookup(shadow, "In")->u.ad, &fs, shadow, slot };
	CHECK(resolves(&cx, CA_SC_NONE, "parent", &fi, 0, CA_WHERE_SPECIAL, CA_SP_PARENT, NULL));
	CHECK(resolves(&cx, CA_SC_NONE, "target", &fi, 0, CA_WHERE_ATTR, CA_SIDE_ENCLOSING,
	    shadow));
	CHECK(resolves(&cx, CA_SC_NONE, "target", &fe, 0, CA_WHERE_SPECIAL, CA_SP_TARGET, NULL));
	/* TARGET.x looks in TARGET as the top of its side: there my is
	 * TARGET and target is MY */
	CHECK(resolves(&cx, CA_SC_TARGET, "my", &f, 0, CA_WHERE_SPECIAL, CA_SP_MY, NULL));
	ca_resolve(&cx, CA_SC_TARGET, ca_intern("target", 6), &f, 0, &w);
	CHECK(w.kind == CA_WHERE_SPECIAL && w.frame->ad == slot && w.frame->target == job);
	v_is_ad(&cx, ca_special_value(&cx, CA_SP_TARGET, w.frame), job);
	/* the new rules: no fallback to TARGET, MY means nothing outside a
	 * match, nor do my and CurrentTime as names */
	cx.strict = true;
	CHECK(resolves(&cx, CA_SC_NONE, "Memory", &f, 0, CA_WHERE_NONE, CA_SIDE_MY, NULL));
	CHECK(resolves(&cx, CA_SC_MY, "Owner", &alone, 0, CA_WHERE_NONE, CA_SIDE_MY, NULL));
	CHECK(resolves(&cx, CA_SC_NONE, "my", &alone, 0, CA_WHERE_NONE, CA_SIDE_MY, NULL));
	CHECK(resolves(&cx, CA_SC_NONE, "my", &f, 0, CA_WHERE_SPECIAL, CA_SP_MY, NULL));
	CHECK(resolves(&cx, CA_SC_NONE, "CurrentTime", &f, 0, CA_WHERE_NONE, CA_SIDE_MY, NULL));
	CHECK(resolves(&cx, CA_SC_NONE, "parent", &alone, 0, CA_WHERE_SPECIAL, CA_SP_PARENT,
	    NULL));
	/* what the special names are worth */
	cx.strict = false;
	cx.now = 1700000000;
	CHECK(ca_special_value(&cx, CA_SP_CURRENTTIME, &f).u.i == 1700000000);
	CHECK(ca_special_value(&cx, CA_SP_TARGET, &alone).kind == CA_UNDEFINED);
	CHECK(ca_special_value(&cx, CA_SP_PARENT, &alone).kind == CA_UNDEFINED);
	v_is_ad(&cx, ca_special_value(&cx, CA_SP_PARENT, &f), cx.empty);
	v_is_ad(&cx, ca_special_value(&cx, CA_SP_ROOT, &fd), cx.empty);
	v_is_ad(&cx, ca_special_value(&cx, CA_SP_ROOT, &ad), job);
	v_is_ad(&cx, ca_special_value(&cx, CA_SP_PARENT, &fd), env);
	v_is_ad(&cx, ca_special_value(&cx, CA_SP_MY, &fd), deep);
	cx.strict = true;
	v_is_ad(&cx, ca_special_value(&cx, CA_SP_MY, &fd), job);
	ca_ad_free(shadow);
	ca_ctx_free(&cx);
	ca_ad_free(job);
	ca_ad_free(slot);
}

/* Whether the heap mapping of this process (its [heap] entry in
 * /proc/self/smaps) is marked for huge pages: 1 yes, 0 no, -1 when there
 * is no such mapping, or no flags, to look at. */
static int
heap_marked(void)
{
	FILE *fp = fopen("/proc/self/smaps", "r");
	char line[512];
	int in_heap = 0, found = -1;

	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof line, fp) != NULL) {
		size_t n = strlen(line);
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if (n >= 6 && strcmp(line + n - 6, "[heap]") == 0)
			in_heap = 1;
		else if (strncmp(line, "VmFlags:", 8) == 0) {
			/* a system that does not list the flags tells nothing */
			if (in_heap && found < 1)
				found = strstr(line, " hg") != NULL;
			in_heap = 0;
		}
	}
	fclose(fp);
	return found;
}

UNIT_SUITE(heap_huge)
{
	/* what is allocated before and after stays usable */
	ca_vec(char *) blocks = CA_VEC_INIT;
	for (int i = 0; i < 64; i++) {
		*ca_vec_push(&blocks) = ca_xmalloc(4096);
		memset(blocks.at[i], i, 4096);
	}
	ca_heap_huge();
	for (int i = 0; i < 64; i++) {
		*ca_vec_push(&blocks) = ca_xmalloc(65536);
		memset(blocks.at[64 + i], i, 65536);
	}
	ca_heap_huge();
	int ok = 1;
	for (int i = 0; i < 64; i++)
		ok &= blocks.at[i][4095] == (char)i && blocks.at[64 + i][65535] == (char)i;
	CHECK(ok);
	for (size_t i = 0; i < blocks.n; i++)
		free(blocks.at[i]);
	ca_vec_free(&blocks);
#if defined(__linux__) && defined(__GLIBC__)
	/* where the kernel has transparent huge pages, the heap is marked
	 * for them (a heap glibc's malloc does not use, as under a
	 * sanitizer's allocator, may be missing: nothing to look at) */
	FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (thp != NULL) {
		fclose(thp);
		int m = heap_marked();
		CHECK(m != 0);
	}
#endif
}
