/* t_accountant.c - unit tests of lib/condor/accountant.c: the manual's numbers
 * (decay, convergence, EUP, shares), the n-updates property, charging and the state. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "condor.h"
#include "classad.h"

#define DAY	86400
#define T0	INT64_C(1700000000)

static bool
close_to(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-300;
}

static ca_acct_rec
rec(double prio, double wres, int64_t updated)
{
	ca_acct_rec r;

	memset(&r, 0, sizeof r);
	r.name = "u@x";
	r.prio = prio;
	r.factor = 1.0;
	r.res = wres > 0 ? 1 : 0;
	r.wres = wres;
	r.updated = updated;
	return r;
}

/* xorshift64: the property test draws the same cases every run */
static uint64_t seed = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t
rnd(uint64_t n)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed % n;
}

/* An accountant with the knobs of a configuration text. */
static void
acct_with(ca_acct *a, const char *cfgtext)
{
	ca_diag err;

	ca_acct_init(a);
	if (cfgtext != NULL) {
		ca_config *c = ca_config_new();
		int rc = ca_config_load_mem(c, "t.cfg", cfgtext, strlen(cfgtext), &err);
		if (rc == 0)
			rc = ca_acct_policy_config(&a->pol, c, &a->arena, &err);
		if (rc < 0)
			fprintf(stderr, "t_accountant: %d:%d: %s\n", err.line, err.col, err.msg);
		CHECK(rc == 0);
		ca_config_free(c);
	}
}

static ca_ad *
ad_of(const char *text)
{
	ca_ad *ad = ca_ad_new();
	ca_diag perr;

	CHECK(ca_parse_assignments(ad, text, strlen(text), 0, &perr) == 0);
	return ad;
}

static void
charge(ca_acct *a, ca_ctx *cx, const char *slot, int64_t now)
{
	ca_ad *ad = ad_of(slot);

	ca_acct_charge_slot(a, cx, ad, now);
	ca_ad_free(ad);
}

static ca_acct_rec *
get(ca_acct *a, const char *name)
{
	return ca_acct_find(a, name, strlen(name));
}

/* ---- the numbers of HTCondor's manual ---- */

/* 3.4.1: RUP 10, jobs removed: 5 a day later, 2.5 two days later. */
UNIT_SUITE(acct_halflife)
{
	ca_acct_rec r = rec(10, 0, T0);

	ca_acct_advance(&r, T0 + DAY, DAY);
	CHECK(close_to(r.prio, 5.0, 1e-15));
	ca_acct_advance(&r, T0 + 2 * DAY, DAY);
	CHECK(close_to(r.prio, 2.5, 1e-15));
	ca_acct_advance(&r, T0 + 3 * DAY, DAY);
	CHECK(close_to(r.prio, 1.25, 1e-15));
	/* and never below the floor of 0.5 */
	ca_acct_advance(&r, T0 + 30 * DAY, DAY);
	CHECK(r.prio == CA_ACCT_MIN_PRIO);

	/* 004: 100 cores for a long time, then nothing: 50, then 25 */
	r = rec(100, 0, T0);
	ca_acct_advance(&r, T0 + DAY, DAY);
	CHECK(close_to(r.prio, 50.0, 1e-15));
	ca_acct_advance(&r, T0 + 2 * DAY, DAY);
	CHECK(close_to(r.prio, 25.0, 1e-15));

	/* another half-life: one half-life halves the distance to the usage */
	r = rec(10, 0, T0);
	ca_acct_advance(&r, T0 + 3600, 3600);
	CHECK(close_to(r.prio, 5.0, 1e-15));

	/* no time passed: nothing changes */
	r = rec(7, 3, T0);
	ca_acct_advance(&r, T0, DAY);
	CHECK(r.prio == 7 && r.accum == 0 && r.updated == T0);
}

/* 3.4.1: steadily using 10 resources, the RUP settles at 10. */
UNIT_SUITE(acct_converge)
{
	ca_acct_rec r = rec(CA_ACCT_MIN_PRIO, 10, T0);
	double prev = r.prio;
	bool rising = true;

	for (int d = 1; d <= 60; d++) {
		ca_acct_advance(&r, T0 + d * DAY, DAY);
		/* closed form: 10 - 9.5 x 2^-d */
		if (d <= 30)
			CHECK(close_to(r.prio, 10 - 9.5 * ldexp(1, -d), 1e-12));
		rising &= r.prio >= prev && r.prio <= 10;
		prev = r.prio;
	}
	CHECK(rising);
	CHECK(close_to(r.prio, 10.0, 1e-12));
	/* 60 days of 10 slots: usage accumulates in slot-seconds */
	CHECK(r.waccum == 10.0 * 60 * DAY && r.accum == 60.0 * DAY);
	CHECK(r.begin == T0 && r.last == T0 + 60 * DAY);

	/* from above: a user at 40 using 10 comes down to 10 */
	r = rec(40, 10, T0);
	ca_acct_advance(&r, T0 + DAY, DAY);
	CHECK(close_to(r.prio, 25.0, 1e-15));
}

/* 3.4.4: "can be calculated over non-uniform time intervals without
 * affecting the calculation": n updates of dt equal one update of n*dt. */
UNIT_SUITE(acct_property)
{
	bool prio_ok = true, usage_ok = true, times_ok = true;

	/* the manual's case: two half-hour updates equal one hour */
	ca_acct_rec a = rec(3, 7, T0), b = rec(3, 7, T0);
	ca_acct_advance(&a, T0 + 1800, DAY);
	ca_acct_advance(&a, T0 + 3600, DAY);
	ca_acct_advance(&b, T0 + 3600, DAY);
	CHECK(close_to(a.prio, b.prio, 1e-14));
	CHECK(a.waccum == b.waccum && a.accum == b.accum);

	for (int k = 0; k < 2000; k++) {
		double h = (double)(60 + rnd(10 * DAY));
		double p0 = 0.5 + (double)rnd(100000) / 100.0;
		double w = (double)rnd(5) == 0 ? 0 : (double)rnd(4000) / 8.0;
		int64_t dt = 1 + (int64_t)rnd(3 * DAY);
		int n = 1 + (int)rnd(200);
		a = rec(p0, w, T0);
		b = rec(p0, w, T0);
		for (int i = 1; i <= n; i++)
			ca_acct_advance(&a, T0 + i * dt, h);
		ca_acct_advance(&b, T0 + n * dt, h);
		if (!close_to(a.prio, b.prio, 1e-12)) {
			prio_ok = false;
			fprintf(stderr, "t_accountant: p0 %g w %g dt %lld n %d h %g: "
			    "%.17g vs %.17g\n", p0, w, (long long)dt, n, h, a.prio, b.prio);
		}
		usage_ok &= a.accum == b.accum && close_to(a.waccum, b.waccum, 1e-12);
		times_ok &= a.begin == b.begin && a.last == b.last && a.updated == b.updated;
	}
	CHECK(prio_ok);
	CHECK(usage_ok);
	CHECK(times_ok);

	/* the same through ca_acct_update with the same slots every time */
	ca_acct x, y;
	ca_ctx cx;
	const char *slot = "State = \"Claimed\"; RemoteUser = \"u@x\"; Cpus = 6";
	ca_ctx_init(&cx);
	acct_with(&x, NULL);
	acct_with(&y, NULL);
	ca_diag why;
	charge(&x, &cx, slot, T0);
	charge(&y, &cx, slot, T0);
	CHECK(ca_acct_update(&x, T0, &why) == 0);
	CHECK(ca_acct_update(&y, T0, &why) == 0);
	for (int i = 1; i <= 48; i++) {
		charge(&x, &cx, slot, T0 + i * 1800);
		CHECK(ca_acct_update(&x, T0 + i * 1800, &why) == 0);
	}
	charge(&y, &cx, slot, T0 + DAY);
	CHECK(ca_acct_update(&y, T0 + DAY, &why) == 0);
	CHECK(close_to(get(&x, "u@x")->prio, get(&y, "u@x")->prio, 1e-13));
	CHECK(close_to(get(&x, "u@x")->prio, 0.25 + 3, 1e-13));
	CHECK(get(&x, "u@x")->waccum == 6.0 * DAY && get(&y, "u@x")->waccum == 6.0 * DAY);
	ca_acct_free(&x);
	ca_acct_free(&y);
	ca_ctx_free(&cx);
}

/* 3.4.2: EUP = RUP x factor; defaults 1.0; nice and remote users. */
UNIT_SUITE(acct_factors)
{
	ca_acct a;

	acct_with(&a, NULL);
	ca_acct_rec *r = ca_acct_get(&a, "alice@example.com", 17, T0);
	CHECK(r->prio == 0.5 && r->factor == 1.0 && ca_acct_eup(r) == 0.5);
	r->prio = 23.11;
	CHECK(ca_acct_eup(r) == 23.11);
	ca_acct_set_factor(r, 10);
	CHECK(close_to(ca_acct_eup(r), 231.1, 1e-15));
	CHECK(ca_acct_new_factor(&a, "nice-user.bob@example.com", 25) == 1e7);
	CHECK(ca_acct_new_factor(&a, "nice-user@example.com", 21) == 1e7);
	CHECK(ca_acct_new_factor(&a, "nice-username@example.com", 25) == 1.0);
	CHECK(ca_acct_new_factor(&a, "carol@elsewhere.org", 19) == 1.0);	/* all local */
	ca_acct_free(&a);

	acct_with(&a,
	    "UID_DOMAIN = example.com\n"
	    "DEFAULT_PRIO_FACTOR = 2\n"
	    "NICE_USER_PRIO_FACTOR = 1e9\n"
	    "GROUP_PRIO_FACTOR_group_physics = 5\n"
	    "GROUP_PRIO_FACTOR_group_chem = 0\n");
	CHECK(ca_acct_new_factor(&a, "alice@example.com", 17) == 2.0);
	CHECK(ca_acct_new_factor(&a, "alice@EXAMPLE.COM", 17) == 2.0);
	CHECK(ca_acct_new_factor(&a, "carol@elsewhere.org", 19) == 1e7);	/* remote */
	CHECK(ca_acct_new_factor(&a, "nice-user.bob@example.com", 25) == 1e9);
	CHECK(ca_acct_new_factor(&a, "group_physics@example.com", 25) == 5.0);
	CHECK(ca_acct_new_factor(&a, "group_physics.alice@example.com", 31) == 5.0);
	CHECK(ca_acct_new_factor(&a, "group_chem@example.com", 22) == 2.0);
	ca_acct_free(&a);

	acct_with(&a, "ACCOUNTANT_LOCAL_DOMAIN = cs.example.com\nUID_DOMAIN = example.com\n"
	    "REMOTE_PRIO_FACTOR = 100\n");
	CHECK(ca_acct_new_factor(&a, "alice@example.com", 17) == 100.0);
	CHECK(ca_acct_new_factor(&a, "alice@cs.example.com", 20) == 1.0);
	ca_acct_free(&a);

	/* knobs out of range are errors at their definition */
	static const char *const bad[] = {
		"PRIORITY_HALFLIFE = 0\n", "PRIORITY_HALFLIFE = -5\n",
		"DEFAULT_PRIO_FACTOR = 0.5\n", "GROUP_PRIO_FACTOR_g = 0.1\n",
		"NICE_USER_PRIO_FACTOR = \"big\"\n", "SLOT_WEIGHT = Cpus +\n"
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ca_config *c = ca_config_new();
		ca_diag err;
		CHECK(ca_config_load_mem(c, "t.cfg", bad[i], strlen(bad[i]), &err) == 0);
		ca_acct_init(&a);
		CHECK(ca_acct_policy_config(&a.pol, c, &a.arena, &err) < 0 && err.line == 1);
		ca_acct_free(&a);
		ca_config_free(c);
	}
}

/* 3.4.2: A at 5, B at 10, C at 20: A gets twice B and four times C. */
UNIT_SUITE(acct_shares)
{
	ca_acct_rec r[3];
	ca_acct_rec *p[3] = { &r[0], &r[1], &r[2] };
	double out[3];

	r[0] = rec(5, 0, T0);
	r[1] = rec(10, 0, T0);
	r[2] = rec(20, 0, T0);
	ca_acct_shares(p, 3, 70, out);
	CHECK(close_to(out[0], 40, 1e-14) && close_to(out[1], 20, 1e-14) &&
	    close_to(out[2], 10, 1e-14));
	CHECK(close_to(out[0] / out[1], 2, 1e-14) && close_to(out[0] / out[2], 4, 1e-14));
	/* factors count: the same real priorities, B with factor 2 */
	r[1].factor = 2;
	ca_acct_shares(p, 3, 100, out);
	CHECK(close_to(out[0], 4 * out[1], 1e-14) && close_to(out[1], out[2], 1e-14));
	/* 004: priority 5 gets 10 times priority 50 */
	r[0] = rec(5, 0, T0);
	r[1] = rec(50, 0, T0);
	ca_acct_shares(p, 2, 11, out);
	CHECK(close_to(out[0], 10, 1e-14) && close_to(out[1], 1, 1e-14));
	/* a nice user gets (almost) nothing next to a normal one */
	r[0] = rec(0.5, 0, T0);
	r[1] = rec(0.5, 0, T0);
	r[1].factor = 1e7;
	ca_acct_shares(p, 2, 100, out);
	CHECK(out[0] > 99.99 && out[1] < 0.0001);
}

/* Usage from slot ads: who is charged and how much. */
UNIT_SUITE(acct_charge)
{
	ca_acct a;
	ca_ctx cx;
	ca_diag why;

	ca_ctx_init(&cx);
	acct_with(&a, "UID_DOMAIN = example.com\n");
	charge(&a, &cx, "State = \"Claimed\"; Activity = \"Busy\"; "
	    "RemoteUser = \"alice@example.com\"; Cpus = 4", T0);
	charge(&a, &cx, "State = \"Claimed\"; Activity = \"Idle\"; "
	    "RemoteUser = \"alice@example.com\"; Cpus = 2; SlotWeight = Cpus * 1.5", T0);
	charge(&a, &cx, "State = \"Unclaimed\"; RemoteUser = \"bob@example.com\"; Cpus = 8", T0);
	charge(&a, &cx, "State = \"Owner\"; Cpus = 8", T0);
	charge(&a, &cx, "State = \"Preempting\"; RemoteUser = \"carol@example.com\"; "
	    "Cpus = 1", T0);
	charge(&a, &cx, "State = \"Claimed\"; Activity = \"Suspended\"; "
	    "RemoteUser = \"carol@example.com\"; Cpus = 1", T0);
	/* 3.4.7: the group is charged, with the domain added */
	charge(&a, &cx, "State = \"Claimed\"; RemoteUser = \"user@example.com\"; "
	    "AccountingGroup = \"group_physics\"; Cpus = 2", T0);
	charge(&a, &cx, "State = \"Claimed\"; AccountingGroup = \"group_physics\"; Cpus = 1", T0);
	charge(&a, &cx, "State = \"Claimed\"; Cpus = 1", T0);	/* nobody to charge */
	charge(&a, &cx, "State = \"Claimed\"; RemoteUser = \"d@example.com\"; Cpus = -3", T0);
	charge(&a, &cx, "State = \"Claimed\"; RemoteUser = \"e@example.com\"", T0);
	CHECK(ca_acct_update(&a, T0, &why) == 0);

	ca_acct_rec *r = get(&a, "alice@example.com");
	CHECK(r != NULL && r->res == 2 && r->wres == 7.0);
	CHECK(get(&a, "bob@example.com") == NULL);
	r = get(&a, "carol@example.com");
	CHECK(r != NULL && r->res == 2 && r->wres == 2.0);	/* suspended counts */
	r = get(&a, "group_physics@example.com");
	CHECK(r != NULL && r->res == 2 && r->wres == 3.0 && !r->group);
	CHECK(get(&a, "user@example.com") == NULL);
	CHECK(get(&a, "d@example.com")->wres == 1.0);	/* negative weight: 1 */
	CHECK(get(&a, "e@example.com")->wres == 1.0);	/* no Cpus: 1 */
	CHECK(a.recs.n == 5);
	ca_acct_free(&a);

	/* knobs: SLOT_WEIGHT, no weights, suspended discounted */
	acct_with(&a, "SLOT_WEIGHT = Memory / 1024\n"
	    "NEGOTIATOR_DISCOUNT_SUSPENDED_RESOURCES = true\n");
	charge(&a, &cx, "State = \"Claimed\"; RemoteUser = \"u@x\"; Cpus = 1; Memory = 4096", T0);
	charge(&a, &cx, "State = \"Claimed\"; Activity = \"Suspended\"; RemoteUser = \"u@x\"; "
	    "Memory = 4096", T0);
	CHECK(ca_acct_update(&a, T0, &why) == 0);
	CHECK(get(&a, "u@x")->wres == 4.0 && get(&a, "u@x")->res == 1);
	ca_acct_free(&a);
	acct_with(&a, "NEGOTIATOR_USE_SLOT_WEIGHTS = false\n");
	charge(&a, &cx, "State = \"Claimed\"; RemoteUser = \"u@x\"; Cpus = 16", T0);
	CHECK(ca_acct_update(&a, T0, &why) == 0);
	CHECK(get(&a, "u@x")->wres == 1.0);
	ca_acct_free(&a);

	/* GROUP_NAMES: the group records (no domain) and subtree usage */
	acct_with(&a, "GROUP_NAMES = group_physics, group_physics.hep group_chem\n"
	    "GROUP_PRIO_FACTOR_group_physics = 3\n");
	charge(&a, &cx, "State = \"Claimed\"; RemoteUser = \"al@x\"; "
	    "AccountingGroup = \"group_physics.hep.al@x\"; Cpus = 2", T0);
	charge(&a, &cx, "State = \"Claimed\"; RemoteUser = \"bo@x\"; "
	    "AccountingGroup = \"group_physics.bo@x\"; Cpus = 1", T0);
	charge(&a, &cx, "State = \"Claimed\"; RemoteUser = \"cy@x\"; Cpus = 5", T0);
	CHECK(ca_acct_update(&a, T0, &why) == 0);
	CHECK(get(&a, "group_physics.hep.al@x")->wres == 2.0);
	r = get(&a, "group_physics.hep");
	CHECK(r != NULL && r->group && r->wres == 2.0 && r->hier == 2.0);
	r = get(&a, "group_physics");
	CHECK(r != NULL && r->group && r->wres == 1.0 && r->hier == 3.0 && r->factor == 3.0);
	CHECK(get(&a, "group_physics.bo@x")->factor == 3.0);
	CHECK(get(&a, "group_chem") == NULL);
	CHECK(get(&a, "cy@x")->wres == 5.0 && get(&a, "cy@x")->factor == 1.0);
	/* a day later the group's priority follows its subtree usage */
	CHECK(ca_acct_update(&a, T0 + DAY, &why) == 0);
	CHECK(close_to(get(&a, "group_physics")->prio, 0.25 + 1.5, 1e-14));
	ca_acct_free(&a);
	ca_ctx_free(&cx);
}

UNIT_SUITE(acct_update)
{
	ca_acct a;
	ca_ctx cx;
	ca_diag why;

	ca_ctx_init(&cx);
	acct_with(&a, NULL);
	charge(&a, &cx, "State = \"Claimed\"; RemoteUser = \"u@x\"; Cpus = 10", T0);
	CHECK(ca_acct_update(&a, T0, &why) == 0);
	ca_acct_rec *r = get(&a, "u@x");
	CHECK(r->prio == 0.5 && r->wres == 10 && r->begin == T0 && r->last == T0);
	/* the jobs leave: the next update still charges the 10 it recorded */
	CHECK(ca_acct_update(&a, T0 + DAY, &why) == 0);
	CHECK(close_to(r->prio, 5.25, 1e-15) && r->wres == 0 && r->waccum == 10.0 * DAY);
	CHECK(r->last == T0 + DAY);
	CHECK(ca_acct_update(&a, T0 + 2 * DAY, &why) == 0);
	CHECK(close_to(r->prio, 2.625, 1e-15) && r->last == T0 + DAY);
	/* time going backwards changes nothing */
	CHECK(ca_acct_update(&a, T0, &why) < 0 && strstr(why.msg, "before") != NULL);
	CHECK(close_to(r->prio, 2.625, 1e-15) && r->updated == T0 + 2 * DAY);
	/* reset and delete */
	ca_acct_reset_usage(r, T0 + 3 * DAY);
	CHECK(r->waccum == 0 && r->accum == 0 && r->begin == T0 + 3 * DAY);
	r->deleted = true;
	ca_acct_rec *again = ca_acct_get(&a, "u@x", 3, T0 + 3 * DAY);
	CHECK(again == r && !r->deleted && r->prio == 0.5 && r->updated == T0 + 2 * DAY);
	ca_acct_set_factor(r, 0.2);
	CHECK(r->factor == 1.0);
	ca_acct_free(&a);
	ca_ctx_free(&cx);
}

/* The state file: every format, gzip, unknown attributes kept, exact. */
UNIT_SUITE(acct_state)
{
	char dir[] = "/tmp/t_acct.XXXXXX", path[256];
	ca_ctx cx;
	ca_diag err;
	ca_diag why;
	static const ca_format fmts[] = { CA_FMT_LONG, CA_FMT_NEW, CA_FMT_JSON };

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/state", dir);
	ca_ctx_init(&cx);
	for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
		for (int gz = 0; gz < 2; gz++) {
			ca_acct a, b;
			ca_format got;
			bool gotgz;
			acct_with(&a, NULL);
			ca_ad *ad = ad_of("Name = \"kept@x\"; Priority = 3.25; "
			    "Custom = {1, \"two\"}; LastUpdate = 1700000000");
			CHECK(ca_acct_add_ad(&a, ad, &cx, T0, &why) == 0);
			charge(&a, &cx, "State = \"Claimed\"; RemoteUser = \"u@x\"; Cpus = 3", T0);
			CHECK(ca_acct_update(&a, T0 + 12345, &why) == 0);
			CHECK(ca_acct_update(&a, T0 + 99999, &why) == 0);
			CHECK(ca_acct_write(&a, path, fmts[f], gz, &err) == 0);

			acct_with(&b, NULL);
			CHECK(ca_acct_read(&b, path, &cx, T0, &got, &gotgz, &err) == 1);
			CHECK(got == fmts[f] && gotgz == (gz == 1));
			CHECK(b.recs.n == 2 && b.last_update == T0 + 99999);
			ca_acct_rec *x = get(&a, "kept@x"), *y = get(&b, "kept@x");
			CHECK(y != NULL && x->prio == y->prio && y->updated == T0 + 99999);
			CHECK(ca_ad_lookup(y->ad, "Custom") != NULL);
			CHECK(strcmp(ca_attr_name(&y->ad->attrs[0])->key, "name") == 0 &&
			    strcmp(ca_attr_name(&y->ad->attrs[2])->key, "custom") == 0);
			x = get(&a, "u@x");
			y = get(&b, "u@x");
			CHECK(y != NULL && x->prio == y->prio && x->waccum == y->waccum &&
			    x->accum == y->accum && x->wres == y->wres && x->res == y->res &&
			    x->begin == y->begin && x->last == y->last && x->factor == y->factor);
			ca_acct_free(&a);
			ca_acct_free(&b);
		}
	}

	/* bad records are reported with their line; a missing file is empty */
	FILE *fp = fopen(path, "w");
	fputs("Name = \"a@x\"\nPriority = 1\n\nName = \"b@x\"\nPriorityFactor = \"big\"\n", fp);
	fclose(fp);
	ca_acct a;
	acct_with(&a, NULL);
	CHECK(ca_acct_read(&a, path, &cx, T0, NULL, NULL, &err) < 0 && err.line == 4 &&
	    strstr(err.msg, "PriorityFactor") != NULL);
	ca_acct_free(&a);
	fp = fopen(path, "w");
	fputs("Name = \"a@x\"\n\nPriority = 2\n", fp);
	fclose(fp);
	acct_with(&a, NULL);
	CHECK(ca_acct_read(&a, path, &cx, T0, NULL, NULL, &err) < 0 && err.line == 3);
	ca_acct_free(&a);
	fp = fopen(path, "w");
	fputs("Name = \"a@x\"\nPriorityFactor = 0\n", fp);	/* below 1: chosen anew */
	fclose(fp);
	acct_with(&a, NULL);
	CHECK(ca_acct_read(&a, path, &cx, T0, NULL, NULL, &err) == 1);
	CHECK(get(&a, "a@x")->factor == 1.0 && get(&a, "a@x")->prio == 0.5 &&
	    get(&a, "a@x")->updated == T0);
	ca_acct_free(&a);
	unlink(path);
	acct_with(&a, NULL);
	CHECK(ca_acct_read(&a, path, &cx, T0, NULL, NULL, &err) == 0 && a.recs.n == 0);
	/* the lock file sits beside the state and can be taken */
	int fd = ca_statefile_lock(path, &err);
	CHECK(fd >= 0);
	ca_statefile_unlock(fd);
	ca_acct_free(&a);
	snprintf(path, sizeof path, "%s/state.lock", dir);
	CHECK(unlink(path) == 0);
	CHECK(rmdir(dir) == 0);
	ca_ctx_free(&cx);
}

/* ---- concurrency limits ---- */

UNIT_SUITE(acct_climits)
{
	ca_acct a;
	ca_ctx cx;
	strbuf name = STRBUF_INIT;
	double inc;
	bool valid;

	/* the list: commas or blanks, NAME:N, case folded, names checked */
	const char *list = " XSW, large.DB:2 fs:0,,9bad  a.b.c under_score:1.5 x:-3 ";
	const char *p = list, *end = list + strlen(list);
	static const struct { const char *name; double inc; bool valid; } want[] = {
		{ "xsw", 1, true }, { "large.db", 2, true }, { "fs", 1, true },
		{ "9bad", 1, false }, { "a.b.c", 1, false }, { "under_score", 1.5, true },
		{ "x", 1, true },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		CHECK(ca_climit_next(&p, end, &name, &inc, &valid));
		CHECK(strcmp(name.buf, want[i].name) == 0 && inc == want[i].inc &&
		    valid == want[i].valid);
	}
	CHECK(!ca_climit_next(&p, end, &name, &inc, &valid));
	strbuf_release(&name);

	/* the maxima: NAME_LIMIT, then CONCURRENCY_LIMIT_DEFAULT_<SCOPE>, then
	 * CONCURRENCY_LIMIT_DEFAULT (HTCondor's 2308032 unless set) */
	acct_with(&a, NULL);
	CHECK(ca_acct_limit_max(&a.pol, "xsw", 3) == 2308032);
	ca_acct_free(&a);
	acct_with(&a, "XSW_LIMIT = 3\nCONCURRENCY_LIMIT_DEFAULT = 5\n"
	    "CONCURRENCY_LIMIT_DEFAULT_LARGE = 100\nLARGE.DB_LIMIT = 7\n"
	    "NEGOTIATOR.XSW_LIMIT = 4\nMAX_THINGS_LIMIT = lots\n");
	CHECK(ca_acct_limit_max(&a.pol, "xsw", 3) == 3);	/* no NEGOTIATOR. subsystem here */
	CHECK(ca_acct_limit_max(&a.pol, "large.swlicense", 15) == 100);
	CHECK(ca_acct_limit_max(&a.pol, "large.db", 8) == 7);
	CHECK(ca_acct_limit_max(&a.pol, "other.license", 13) == 5);
	CHECK(ca_acct_limit_max(&a.pol, "max_things", 10) == 5);	/* not a number */
	CHECK(ca_acct_limit_max(&a.pol, "nolimit", 7) == 5);

	/* counting and refusing */
	ca_climits t = { 0 };
	ca_climits_add(&t, &a.pol, "xsw, large.db:2", 15, 1);
	ca_climits_add(&t, &a.pol, "XSW", 3, 1);
	CHECK(ca_climits_get(&t, &a.pol, "xsw", 3)->count == 2);
	CHECK(ca_climits_get(&t, &a.pol, "large.db", 8)->count == 2);
	CHECK(ca_climits_refuse(&t, &a.pol, "xsw", 3, &inc) == NULL);
	ca_climit *l = ca_climits_refuse(&t, &a.pol, "large.db:6, xsw:2", 17, &inc);
	CHECK(l != NULL && strcmp(l->name, "large.db") == 0 && inc == 6 && l->max == 7);
	l = ca_climits_refuse(&t, &a.pol, "large.db:5, xsw:2", 17, &inc);
	CHECK(l != NULL && strcmp(l->name, "xsw") == 0 && inc == 2);
	ca_climits_clear(&t);
	CHECK(ca_climits_get(&t, &a.pol, "xsw", 3)->count == 0);
	ca_climits_free(&t);

	/* the use on a slot: its own ConcurrencyLimits, else its claim's job */
	ca_ctx_init(&cx);
	ca_climits u = { 0 };
	ca_ad *s = ad_of("State = \"Claimed\"; Job = [ ConcurrencyLimits = strcat(\"x\", \"sw\") ]; "
	    "PreemptingConcurrencyLimits = \"large.db\"");
	ca_acct_slot_limits(&a, &cx, s, &u);
	ca_ad_free(s);
	s = ad_of("State = \"Unclaimed\"; Job = [ ConcurrencyLimits = \"xsw\" ]");
	ca_acct_slot_limits(&a, &cx, s, &u);
	ca_ad_free(s);
	s = ad_of("State = \"Matched\"; Job = [ MatchedConcurrencyLimits = \"xsw:3\"; "
	    "ConcurrencyLimits = \"xsw\" ]");
	ca_acct_slot_limits(&a, &cx, s, &u);
	ca_ad_free(s);
	CHECK(ca_climits_get(&u, &a.pol, "xsw", 3)->count == 4);
	CHECK(ca_climits_get(&u, &a.pol, "large.db", 8)->count == 1);
	ca_climits_free(&u);

	/* the accountant counts them at each update */
	charge(&a, &cx, "State = \"Claimed\"; RemoteUser = \"u@x\"; ConcurrencyLimits = \"xsw\"", T0);
	CHECK(a.limits.v.n == 0);
	ca_diag err;
	CHECK(ca_acct_update(&a, T0, &err) == 0);
	CHECK(a.limits.v.n == 1 && a.limits.v.at[0].count == 1);
	CHECK(ca_acct_update(&a, T0 + 60, &err) == 0);
	CHECK(a.limits.v.n == 0);	/* none in use since */
	ca_ctx_free(&cx);
	ca_acct_free(&a);
}

/* ---- ceilings, floors, leases; condor_userprio's layouts ---- */

UNIT_SUITE(acct_ceiling_floor)
{
	ca_acct a;
	ca_ctx cx;
	ca_diag err;

	acct_with(&a, NULL);
	ca_ctx_init(&cx);
	ca_acct_rec *r = ca_acct_get(&a, "u@x", 3, T0);
	CHECK(r->ceiling == -1 && r->floor == 0 && !r->has_ceiling && !r->has_floor);
	CHECK(ca_acct_set_ceiling(r, 4, 0, T0) && r->ceiling == 4);
	CHECK(ca_acct_set_floor(r, 2, 0, T0) && r->floor == 2);
	/* leases: the value before comes back at the expiration */
	CHECK(ca_acct_set_ceiling(r, 1, T0 + 100, T0) && r->ceiling == 1);
	CHECK(!ca_acct_set_ceiling(r, 2, T0 + 200, T0 + 50) && r->ceiling == 1);
	CHECK(ca_acct_lease_factor(r, 3, T0 + 100, T0) && r->factor == 3);
	ca_acct_expire_leases(&a, T0 + 99);
	CHECK(r->ceiling == 1 && r->factor == 3);
	CHECK(ca_acct_update(&a, T0 + 100, &err) == 0);
	CHECK(r->ceiling == 4 && r->factor == 1 && r->ceiling_lease == 0 && r->factor_lease == 0);
	CHECK(!ca_acct_cancel_lease(r, CA_LEASE_FLOOR));
	CHECK(ca_acct_set_floor(r, 9, T0 + 500, T0 + 100) && r->floor == 9);
	CHECK(ca_acct_cancel_lease(r, CA_LEASE_FLOOR) && r->floor == 2);
	/* written once set, read back */
	ca_ad *ad = ca_ad_copy(ca_acct_rec_ad(&a, r));
	ca_acct b;
	acct_with(&b, NULL);
	CHECK(ca_acct_add_ad(&b, ad, &cx, T0, &err) == 0);
	CHECK(b.recs.n == 1 && b.recs.at[0]->ceiling == 4 && b.recs.at[0]->floor == 2);
	ca_acct_free(&b);
	ca_acct_free(&a);

	/* condor_userprio's view: Priority is effective; the numbered layout */
	acct_with(&a, NULL);
	CHECK(ca_acct_add_ad(&a, ad_of("Name = \"v@x\"; Priority = 30.0; PriorityFactor = 10.0; "
	    "AccountingGroup = \"<none>\"; SubmitterShare = 0.5; Ceiling = -1; Floor = 0"),
	    &cx, T0, &err) == 0);
	r = get(&a, "v@x");
	CHECK(r->prio == 3 && r->factor == 10 && r->has_ceiling && r->ceiling == -1);
	CHECK(!ca_has(r->ad, "AccountingGroup") && !ca_has(r->ad, "SubmitterShare"));
	CHECK(ca_acct_add_ad(&a, ad_of("LastUpdate = 1700000000; NumSubmittors = 3; "
	    "Name1 = \"n1@x\"; Priority1 = 4.0; PriorityFactor1 = 2.0; Ceiling1 = 5; "
	    "Name3 = \"n3@x\"; Priority3 = 1.0; Priority2 = 7.0; ConcurrencyLimit_xsw1 = 1.0"),
	    &cx, T0 + 1000, &err) == 0);
	CHECK(a.recs.n == 3);	/* number 2 has no name */
	r = get(&a, "n1@x");
	CHECK(r != NULL && r->prio == 2 && r->ceiling == 5 && r->updated == 1700000000);
	CHECK(a.recs.at[2] == get(&a, "n3@x") && get(&a, "n3@x")->prio == 1);
	/* a bad record of it is reported */
	CHECK(ca_acct_add_ad(&a, ad_of("NumSubmittors = 1; Name1 = \"w@x\"; Priority1 = -1"),
	    &cx, T0, &err) < 0);
	CHECK(strstr(err.msg, "Priority must be a number >= 0") != NULL);
	ca_ctx_free(&cx);
	ca_acct_free(&a);
}
