/* fuzz_accountant.c - libFuzzer harness for the accountant, as
 * userprio-calc runs it: a flags byte, then the configuration, the records
 * (a state file, or condor_userprio -long in any of its layouts) and slot
 * ads, split at lines "%%". With flags bit 1 the slots are charged and
 * the records updated; the other bits pick condor_userprio's edits of the
 * first record (edit()); then the records are shared out, shown in every
 * format and written as a state file, which must read back. Anything may
 * be refused; nothing may crash, leak or hang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "classad.h"
#include "condor.h"

static char state[64];	/* the state file written */
#define FZ_INIT() snprintf(state, sizeof state, "/tmp/fuzz-acct.%ld", (long)getpid())
#include "fuzz_util.h"

#define NOW		INT64_C(1700000000)
#define MAXRECS		48
#define MAXSLOTS	48


struct acct_run {
	ca_ctx cx;
	ca_acct acct;
	bool bad;
};

static void
add_rec(void *arg, ca_ad *ad, int line)
{
	struct acct_run *r = arg;
	ca_diag err;

	(void)line;
	if (r->bad)
		ca_ad_free(ad);
	else if (ca_acct_add_ad(&r->acct, ad, &r->cx, NOW, &err) < 0)
		r->bad = true;	/* the state is refused there */
}

static void
charge(void *arg, ca_ad *ad, int line)
{
	struct acct_run *r = arg;

	(void)line;
	(void)ca_acct_charge_slot(&r->acct, &r->cx, ad, NOW);
	ca_ad_free(ad);
}

/* condor_userprio's edits of the first record, as flags choose them. */
static void
edit(ca_acct *a, unsigned flags)
{
	if (a->recs.n == 0)
		return;
	ca_acct_rec *r = a->recs.at[0];
	int64_t until = flags & 0x10 ? NOW + 3600 : 0;

	if (flags & 0x02)
		ca_acct_set_factor(r, 2.0);
	if (flags & 0x04)
		(void)ca_acct_set_ceiling(r, 3, until, NOW);
	if (flags & 0x08)
		(void)ca_acct_set_floor(r, 1, until, NOW);
	if (flags & 0x20)
		(void)ca_acct_lease_factor(r, 5.0, NOW + 60, NOW);
	if (flags & 0x40)
		ca_acct_reset_usage(r, NOW);
	if (flags & 0x80) {
		(void)ca_acct_cancel_lease(r, CA_LEASE_CEILING);
		(void)ca_acct_cancel_lease(r, CA_LEASE_FACTOR);
	}
	ca_acct_expire_leases(a, NOW + 7200);
	(void)ca_acct_get(a, "new@example.org", 15, NOW);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_parts p;
	struct acct_run r = { 0 };
	ca_diag err;

	if (size < 1)
		return -1;
	unsigned flags = data[0];
	fz_split(data + 1, size - 1, 3, &p);
	ca_config *cfg = fz_config(NULL, NULL, p.at[0], p.len[0], NOW);
	if (cfg == NULL)
		return 0;
	ca_ctx_init(&r.cx);
	r.cx.now = NOW;
	ca_acct_init(&r.acct);
	if (ca_acct_policy_config(&r.acct.pol, cfg, &r.acct.arena, &err) < 0)
		goto done;
	fz_ads("<state>", p.at[1], p.len[1], MAXRECS, add_rec, &r);
	if (r.bad)
		goto done;
	int64_t now = r.acct.last_update > NOW ? r.acct.last_update : NOW;
	if (flags & 1) {
		fz_ads("<slots>", p.at[2], p.len[2], MAXSLOTS, charge, &r);
		if (ca_acct_update(&r.acct, now, &err) < 0)
			goto done;
	}
	edit(&r.acct, flags);

	size_t n = r.acct.recs.n;
	double *share = calloc(n + 1, sizeof *share);
	strbuf sb = STRBUF_INIT;
	ca_acct_shares(r.acct.recs.at, n, 100.0, share);
	for (size_t i = 0; i < n; i++) {
		ca_ad *ad = ca_acct_rec_ad(&r.acct, r.acct.recs.at[i]);
		for (int f = CA_FMT_LONG; f <= CA_FMT_XML; f++) {
			strbuf_reset(&sb);
			ca_format_ad(&sb, ad, (ca_format)f);
		}
	}
	strbuf_release(&sb);
	free(share);

	/* what is written reads back */
	if (ca_acct_write(&r.acct, state, flags & 0x80 ? CA_FMT_JSON : CA_FMT_LONG, false,
	    &err) == 0) {
		ca_acct back;
		ca_acct_init(&back);
		if (ca_acct_read(&back, state, &r.cx, now, NULL, NULL, &err) != 1) {
			fprintf(stderr, "the state written does not read back: %s:%d: %s\n",
			    err.file ? err.file : "", err.line, err.msg);
			abort();
		}
		ca_acct_free(&back);
	}
	unlink(state);
done:
	ca_acct_free(&r.acct);
	ca_ctx_free(&r.cx);
	ca_config_free(cfg);
	ca_intern_cleanup();
	return 0;
}
