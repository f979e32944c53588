/* fuzz_negotiator.c - libFuzzer harness for one negotiation cycle, as
 * negotiate runs it: the configuration (GROUP_NAMES, quotas, the
 * negotiator's knobs), the slot ads, the job ads and the accountant's
 * records, split at lines "%%"; then the match records, the summary and
 * the account of the first job. Anything may be refused; nothing may
 * crash, leak or hang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classad.h"
#include "condor.h"
#include "fuzz_util.h"

#define NOW		INT64_C(1700000000)
#define MAXSLOTS	48
#define MAXJOBS		96
#define MAXRECS		32

struct cycle {
	ca_ctx cx;
	ca_acct acct;
	ca_neg *neg;
	bool bad;
};

static void
add_slot(void *arg, ca_ad *ad, int line)
{
	(void)line;
	ca_neg_add_slot(((struct cycle *)arg)->neg, ad);
}

static void
add_job(void *arg, ca_ad *ad, int line)
{
	(void)line;
	ca_neg_add_job(((struct cycle *)arg)->neg, ad);
}

static void
add_rec(void *arg, ca_ad *ad, int line)
{
	struct cycle *c = arg;
	ca_diag err;

	(void)line;
	if (ca_acct_add_ad(&c->acct, ad, &c->cx, NOW, &err) < 0)
		c->bad = true;	/* negotiate stops there */
}

/* The id of the first job of text, to follow through the cycle. */
static void
first_jobid(void *arg, ca_ad *ad, int line)
{
	ca_ctx cx;

	(void)line;
	ca_ctx_init(&cx);
	(void)ca_jobid(&cx, ad, arg, CA_JOBID_LEN);
	ca_ctx_free(&cx);
	ca_ad_free(ad);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_parts p;
	struct cycle c = { 0 };
	ca_diag err;
	char jobid[CA_JOBID_LEN] = "";

	fz_split(data, size, 4, &p);
	ca_config *cfg = fz_config("NEGOTIATOR", NULL, p.at[0], p.len[0], NOW);
	if (cfg == NULL)
		return 0;
	ca_ctx_init(&c.cx);
	c.cx.now = NOW;
	ca_acct_init(&c.acct);
	c.neg = ca_neg_new(&c.cx, &c.acct);
	fz_ads("<jobs>", p.at[2], p.len[2], 1, first_jobid, jobid);
	if (jobid[0] != '\0')
		ca_neg_explain(c.neg, jobid);
	if (ca_acct_policy_config(&c.acct.pol, cfg, &c.acct.arena, &err) == 0 &&
	    ca_neg_configure(c.neg, cfg, &err) == 0) {
		(void)ca_neg_warnings(c.neg);
		fz_ads("<accounting>", p.at[3], p.len[3], MAXRECS, add_rec, &c);
		ca_acct_expire_leases(&c.acct, NOW);
		fz_ads("<slots>", p.at[1], p.len[1], MAXSLOTS, add_slot, &c);
		fz_ads("<jobs>", p.at[2], p.len[2], MAXJOBS, add_job, &c);
		if (!c.bad) {
			strbuf sb = STRBUF_INIT;
			size_t n = ca_neg_run(c.neg);
			for (size_t i = 0; i < n; i++) {
				ca_ad *ad = ca_neg_match_ad(c.neg, i);
				strbuf_reset(&sb);
				ca_format_ad(&sb, ad, CA_FMT_LONG);
				ca_ad_free(ad);
			}
			strbuf_reset(&sb);
			ca_neg_summary(c.neg, &sb);
			strbuf_reset(&sb);
			ca_neg_account(c.neg, &sb);
			strbuf_release(&sb);
		}
	}
	ca_neg_free(c.neg);
	ca_acct_free(&c.acct);
	ca_ctx_free(&c.cx);
	ca_config_free(cfg);
	ca_intern_cleanup();
	return 0;
}
