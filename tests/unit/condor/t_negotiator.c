/* t_negotiator.c - unit tests of the negotiator (lib/condor/neg_*.c) through
 * its API: pie slices, job order, preemption rules, the match record,
 * compaction, consumption policies, the account and determinism. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "condor.h"
#include "classad.h"

#define T0	INT64_C(1700000000)

/* A negotiator over the given texts (long format); cfg and acct may be NULL. */
struct fix {
	ca_ctx cx;
	ca_acct acct;
	ca_neg *n;
	strbuf text;		/* the followed job's account */
};

static void
feed(struct fix *f, const char *text, bool slots)
{
	ca_diag err;
	ca_reader *r = ca_reader_open_mem("<test>", text, strlen(text), CA_FMT_LONG, &err);
	ca_ad *ad;

	while (r && ca_reader_next(r, &ad, &err) == 1) {
		if (slots)
			ca_neg_add_slot(f->n, ad);
		else
			ca_neg_add_job(f->n, ad);
	}
	ca_reader_close(r);
}

static void
setup(struct fix *f, const char *cfgtext, const char *accttext, const char *slots,
    const char *jobs, const char *explain)
{
	ca_diag err;

	ca_ctx_init(&f->cx);
	f->cx.now = T0;
	f->text = (strbuf)STRBUF_INIT;
	ca_acct_init(&f->acct);
	f->n = ca_neg_new(&f->cx, &f->acct);
	if (explain)
		ca_neg_explain(f->n, explain);
	ca_config *cfg = ca_config_new();
	if (cfgtext && ca_config_load_mem(cfg, "<cfg>", cfgtext, strlen(cfgtext), &err) < 0)
		fprintf(stderr, "  t_negotiator: config: %s\n", err.msg);
	if (ca_acct_policy_config(&f->acct.pol, cfg, &f->acct.arena, &err) < 0 ||
	    ca_neg_configure(f->n, cfg, &err) < 0)
		fprintf(stderr, "  t_negotiator: configure: %s\n", err.msg);
	ca_config_free(cfg);
	if (accttext) {
		ca_reader *r = ca_reader_open_mem("<acct>", accttext, strlen(accttext),
		    CA_FMT_LONG, &err);
		ca_ad *ad;
		while (r && ca_reader_next(r, &ad, &err) == 1)
			if (ca_acct_add_ad(&f->acct, ad, &f->cx, T0, &err) < 0)
				fprintf(stderr, "  t_negotiator: %s\n", err.msg);
		ca_reader_close(r);
	}
	feed(f, slots, true);
	feed(f, jobs, false);
}

/* The followed job's account, after the run. */
static const char *
account(struct fix *f)
{
	strbuf_reset(&f->text);
	ca_neg_account(f->n, &f->text);
	return f->text.buf;
}

static void
teardown(struct fix *f)
{
	strbuf_release(&f->text);
	ca_neg_free(f->n);
	ca_acct_free(&f->acct);
	ca_ctx_free(&f->cx);
}

/* Expression src evaluated in match record i, as text (strings raw), in buf. */
static const char *
mattr(struct fix *f, size_t i, const char *src, char *buf, size_t len)
{
	ca_ad *ad = ca_neg_match_ad(f->n, i);
	ca_diag perr;
	ca_expr *e = ca_parse_expr(ad->arena, src, strlen(src), 0, &perr);
	ca_value v = e ? ca_eval_expr(&f->cx, e, ad, NULL) : ca_error("syntax");
	strbuf sb = STRBUF_INIT;

	if (v.kind == CA_STRING)
		strbuf_add(&sb, v.u.s, v.x.len);
	else
		ca_print_value(&sb, v, 0);
	snprintf(buf, len, "%s", sb.buf);
	strbuf_release(&sb);
	ca_arena_reset(&f->cx.scratch);
	ca_ad_free(ad);
	return buf;
}

static void
slots_text(strbuf *sb, const char *prefix, int count, const char *extra)
{
	for (int i = 1; i <= count; i++)
		strbuf_addf(sb, "Name = \"slot1@%s%d\"\nState = \"Unclaimed\"\nActivity = \"Idle\"\n"
		    "Cpus = 1\nMemory = 4096\nRequirements = START\nSTART = True\nRank = 0.0\n%s%s\n",
		    prefix, i, extra ? extra : "", extra ? "\n" : "");
}

static void
jobs_text(strbuf *sb, const char *user, int cluster, int count, const char *extra)
{
	for (int i = 0; i < count; i++)
		strbuf_addf(sb, "ClusterId = %d\nProcId = %d\nUser = \"%s@x.org\"\nJobStatus = 1\n"
		    "RequestMemory = 1024\nRequirements = TARGET.Memory >= RequestMemory\n%s%s\n",
		    cluster, i, user, extra ? extra : "", extra ? "\n" : "");
}

UNIT_SUITE(negotiator_pie)
{
	struct fix f;
	strbuf s = STRBUF_INIT, j = STRBUF_INIT;
	ca_neg_subinfo si;

	slots_text(&s, "n", 70, NULL);
	jobs_text(&j, "a", 1, 100, NULL);
	jobs_text(&j, "b", 2, 100, NULL);
	jobs_text(&j, "c", 3, 100, NULL);
	setup(&f, NULL, "Name = \"a@x.org\"\nPriority = 5.0\n\nName = \"b@x.org\"\nPriority = 10.0\n\n"
	    "Name = \"c@x.org\"\nPriority = 20.0\n\n", s.buf, j.buf, NULL);
	CHECK(ca_neg_run(f.n) == 70);
	CHECK(ca_neg_submitter(f.n, "a@x.org", &si) && si.matches == 40 && si.pie == 40);
	CHECK(si.idle_left == 60 && si.why[CA_WHY_LIMIT] == 60);
	CHECK(ca_neg_submitter(f.n, "b@x.org", &si) && si.matches == 20 && si.eup == 10);
	CHECK(ca_neg_submitter(f.n, "c@x.org", &si) && si.matches == 10);
	CHECK(!ca_neg_submitter(f.n, "nobody@x.org", &si));
	ca_neg_stats st;
	ca_neg_get_stats(f.n, &st);
	CHECK(st.slots == 70 && st.idle == 300 && st.submitters == 3 && st.pool == 70);
	CHECK(st.autoclusters == 1 && st.keys == 3 && st.spins == 1);
	teardown(&f);
	strbuf_release(&s);
	strbuf_release(&j);
}

UNIT_SUITE(negotiator_job_order)
{
	struct fix f;
	strbuf s = STRBUF_INIT, j = STRBUF_INIT;
	char buf[200];

	slots_text(&s, "n", 2, NULL);
	jobs_text(&j, "a", 10, 1, "JobPrio = 10\nRequestMemory = 99999");	/* matches nothing */
	jobs_text(&j, "a", 11, 1, "JobPrio = 9");
	jobs_text(&j, "a", 12, 1, "JobPrio = 9\nPreJobPrio2 = -1");
	jobs_text(&j, "a", 9, 1, "JobPrio = 9");
	setup(&f, NULL, NULL, s.buf, j.buf, "10.0");
	CHECK(ca_neg_run(f.n) == 2);
	CHECK(strcmp(mattr(&f, 0, "JobId", buf, sizeof buf), "9.0") == 0);
	CHECK(strcmp(mattr(&f, 1, "JobId", buf, sizeof buf), "11.0") == 0);
	CHECK(strcmp(mattr(&f, 0, "Name", buf, sizeof buf), "slot1@n1") == 0);
	CHECK(strstr(account(&f), "result: job 10.0 left idle: no slot matches") != NULL);
	teardown(&f);
	strbuf_release(&s);
	strbuf_release(&j);
}

static const char quartet_slot[] =
    "Name = \"slot1@bass\"\nState = \"Claimed\"\nActivity = \"Busy\"\nCpus = 1\nMemory = 4096\n"
    "Requirements = True\n"
    "Rank = (Owner == \"coltrane\") + (Owner == \"tyner\") + ((Owner == \"garrison\") * 10) "
    "+ (Owner == \"jones\")\n"
    "CurrentRank = 1.0\nRemoteUser = \"jones@x.org\"\nJobId = \"20.0\"\n\n";

UNIT_SUITE(negotiator_preemption)
{
	struct fix f;
	char buf[200];

	/* RANK: garrison's 10 beats jones's 1 */
	setup(&f, NULL, NULL, quartet_slot, "ClusterId = 30\nProcId = 0\nOwner = \"garrison\"\n"
	    "User = \"garrison@x.org\"\nRequestMemory = 1\nRequirements = True\n\n", NULL);
	CHECK(ca_neg_run(f.n) == 1);
	CHECK(strcmp(mattr(&f, 0, "MatchReason", buf, sizeof buf), "Rank") == 0);
	CHECK(strcmp(mattr(&f, 0, "PreemptedJobId", buf, sizeof buf), "20.0") == 0);
	CHECK(strcmp(mattr(&f, 0, "PreemptedUser", buf, sizeof buf), "jones@x.org") == 0);
	CHECK(strcmp(mattr(&f, 0, "SlotRank", buf, sizeof buf), "10.0") == 0);
	teardown(&f);

	/* tyner: RANK 1 is not better, priority preemption is off by default */
	setup(&f, NULL, "Name = \"jones@x.org\"\nPriority = 50.0\n\n", quartet_slot,
	    "ClusterId = 31\nProcId = 0\nOwner = \"tyner\"\nUser = \"tyner@x.org\"\n"
	    "Requirements = True\n\n", "31.0");
	CHECK(ca_neg_run(f.n) == 0);
	CHECK(strstr(account(&f), "PREEMPTION_REQUIREMENTS false") != NULL);
	teardown(&f);

	/* with the 20% rule: 0.5 x 1.2 < 50 */
	setup(&f, "PREEMPTION_REQUIREMENTS = RemoteUserPrio > SubmitterUserPrio * 1.2 && "
	    "SubmitterNegotiatingGroup == \"<none>\"\n",
	    "Name = \"jones@x.org\"\nPriority = 50.0\n\n", quartet_slot,
	    "ClusterId = 31\nProcId = 0\nOwner = \"tyner\"\nUser = \"tyner@x.org\"\n"
	    "SubmitterNegotiatingGroup = \"mine\"\nRequirements = True\n\n", NULL);
	CHECK(ca_neg_run(f.n) == 1);
	CHECK(strcmp(mattr(&f, 0, "MatchReason", buf, sizeof buf), "Priority") == 0);
	/* the ephemeral attributes are not in the record's job; the job's
	 * own attribute of such a name is back as it was */
	CHECK(strcmp(mattr(&f, 0, "Job.SubmitterUserPrio", buf, sizeof buf), "undefined") == 0);
	CHECK(strcmp(mattr(&f, 0, "Job.SubmitterNegotiatingGroup", buf, sizeof buf), "mine") == 0);
	CHECK(strcmp(mattr(&f, 0, "RemoteUserPrio", buf, sizeof buf), "0.5") == 0);
	teardown(&f);

	/* a worse effective priority never preempts, whatever the policy */
	setup(&f, "PREEMPTION_REQUIREMENTS = True\n",
	    "Name = \"jones@x.org\"\nPriority = 1.0\n\nName = \"tyner@x.org\"\nPriority = 2.0\n\n",
	    quartet_slot, "ClusterId = 31\nProcId = 0\nOwner = \"tyner\"\nUser = \"tyner@x.org\"\n"
	    "Requirements = True\n\n", "31.0");
	CHECK(ca_neg_run(f.n) == 0);
	CHECK(strstr(account(&f), "running user's effective priority is not worse") != NULL);
	teardown(&f);

	/* NEGOTIATOR_CONSIDER_PREEMPTION = False: not even RANK */
	setup(&f, "NEGOTIATOR_CONSIDER_PREEMPTION = False\n", NULL, quartet_slot,
	    "ClusterId = 30\nProcId = 0\nOwner = \"garrison\"\nUser = \"garrison@x.org\"\n"
	    "Requirements = True\n\n", NULL);
	CHECK(ca_neg_run(f.n) == 0);
	CHECK(ca_neg_get_policy(f.n)->consider_preemption == false);
	teardown(&f);
}

UNIT_SUITE(negotiator_record)
{
	struct fix f;
	const char *job = "MyType = \"Job\"\nClusterId = 7\nProcId = 3\nUser = \"a@x.org\"\n"
	    "requirements = (TARGET.Memory >= 10) && (TARGET.Cpus > 0)\nRank = TARGET.Memory\n"
	    "Iwd = \"/home/a\"\nWeird = [ b = 1; c = { 1, 2.5, \"x\" } ]\n\n";
	char buf[200];

	setup(&f, NULL, NULL, "Name = \"slot1@h\"\nCpus = 1\nMemory = 2048\nRequirements = True\n"
	    "Rank = 3\n\n", job, NULL);
	CHECK(ca_neg_run(f.n) == 1);
	ca_ad *ad = ca_neg_match_ad(f.n, 0);
	strbuf sb = STRBUF_INIT;
	ca_format_ad(&sb, ad, CA_FMT_LONG);
	CHECK(strncmp(sb.buf, "Event = \"Match\"\nTime = 1700000000\nName = \"slot1@h\"\n"
	    "JobId = \"7.3\"\nSubmitter = \"a@x.org\"\nMatchReason = \"NoPreemption\"\n"
	    "JobRank = 2048.0\nSlotRank = 3.0\nRemoteUserPrio = 0.5\nJob = [ ", 175) == 0);
	/* the job comes back as it was read: spellings, order, nested values */
	CHECK(strstr(sb.buf, "Job = [ MyType = \"Job\"; ClusterId = 7; ProcId = 3; "
	    "User = \"a@x.org\"; requirements = (TARGET.Memory >= 10) && (TARGET.Cpus > 0); "
	    "Rank = TARGET.Memory; Iwd = \"/home/a\"; Weird = [ b = 1; c = { 1,2.5,\"x\" } ] ]")
	    != NULL);
	strbuf_release(&sb);
	ca_ad_free(ad);
	CHECK(strcmp(mattr(&f, 0, "Job.Iwd", buf, sizeof buf), "/home/a") == 0);
	teardown(&f);
}

UNIT_SUITE(negotiator_consumption)
{
	struct fix f;
	const char *pslot = "Name = \"slot1@big\"\nPartitionableSlot = true\nSlotTypeID = 1\n"
	    "Cpus = 8\nMemory = 16384\nDisk = 100000\n"
	    "Requirements = TARGET.RequestCpus <= Cpus && TARGET.RequestMemory <= Memory\n\n";
	strbuf j = STRBUF_INIT;
	char buf[200];

	jobs_text(&j, "a", 1, 5, "RequestCpus = 3\nRequestDisk = 10");
	/* without a policy: one match for the whole p-slot, and the schedd
	 * starts a second job in its leftovers (3 + 3 of 8 cores) */
	setup(&f, "CLAIM_PARTITIONABLE_LEFTOVERS = False\n", NULL, pslot, j.buf, NULL);
	CHECK(ca_neg_run(f.n) == 1);
	teardown(&f);
	setup(&f, NULL, NULL, pslot, j.buf, NULL);
	CHECK(ca_neg_run(f.n) == 2);
	CHECK(strcmp(mattr(&f, 1, "Name", buf, sizeof buf), "slot1@big") == 0);
	CHECK(strcmp(mattr(&f, 1, "JobId", buf, sizeof buf), "1.1") == 0);
	teardown(&f);
	/* a custom resource in the leftovers: two GPUs, each job asks for one */
	const char *gslot = "Name = \"slot1@gpu\"\nPartitionableSlot = true\nSlotTypeID = 1\n"
	    "Cpus = 8\nMemory = 16384\nDisk = 100000\nGPUs = 2\n"
	    "MachineResources = \"Cpus Memory Disk Swap GPUs\"\n"
	    "Requirements = TARGET.RequestCpus <= Cpus && TARGET.RequestGPUs <= GPUs\n\n";
	strbuf_reset(&j);
	jobs_text(&j, "a", 1, 5, "RequestCpus = 1\nRequestDisk = 10\nRequestGPUs = 1");
	setup(&f, NULL, NULL, gslot, j.buf, NULL);
	CHECK(ca_neg_run(f.n) == 2);
	teardown(&f);
	/* and consumed by a policy: ConsumedGPUs */
	setup(&f, "CONSUMPTION_POLICY = True\n", NULL, gslot, j.buf, NULL);
	CHECK(ca_neg_run(f.n) == 2);
	CHECK(strcmp(mattr(&f, 1, "ConsumedGPUs", buf, sizeof buf), "1") == 0);
	teardown(&f);
	strbuf_reset(&j);
	jobs_text(&j, "a", 1, 5, "RequestCpus = 3\nRequestDisk = 10");
	/* with one: 3 + 3 cores, then 2 are left; memory quantized to 128s */
	setup(&f, "SLOT_TYPE_1_CONSUMPTION_POLICY = True\n", NULL, pslot, j.buf, NULL);
	CHECK(ca_neg_run(f.n) == 2);
	CHECK(strcmp(mattr(&f, 1, "ConsumedCpus", buf, sizeof buf), "3") == 0);
	CHECK(strcmp(mattr(&f, 1, "ConsumedMemory", buf, sizeof buf), "1024") == 0);
	CHECK(strcmp(mattr(&f, 1, "ConsumedDisk", buf, sizeof buf), "1024") == 0);
	ca_neg_subinfo si;
	CHECK(ca_neg_submitter(f.n, "a@x.org", &si) && si.idle_left == 3);
	teardown(&f);
	strbuf_release(&j);
}

/* Keys of two submitters whose jobs agree on all the matching reads are
 * twins: a consumption-policy slot's candidate is worked out once for
 * both, as of the slot's version. What only the policy reads (no
 * Requirements reach it) must keep them apart. */
UNIT_SUITE(negotiator_consumption_twins)
{
	struct fix f;
	const char *pslots = "Name = \"slot1@p1\"\nPartitionableSlot = true\nSlotTypeID = 1\n"
	    "Cpus = 8\nMemory = 16384\nDisk = 100000\nRequirements = True\n\n"
	    "Name = \"slot1@p2\"\nPartitionableSlot = true\nSlotTypeID = 1\n"
	    "Cpus = 8\nMemory = 16384\nDisk = 100000\nRequirements = True\n\n";
	strbuf j = STRBUF_INIT;
	ca_neg_subinfo si;

	/* alike: each has its share of the sixteen cores, the slots' versions
	 * seen by both */
	jobs_text(&j, "a", 1, 10, "RequestCpus = 1\nRequestDisk = 10");
	jobs_text(&j, "b", 2, 10, "RequestCpus = 1\nRequestDisk = 10");
	setup(&f, "CONSUMPTION_POLICY = True\n", NULL, pslots, j.buf, NULL);
	CHECK(ca_neg_run(f.n) == 16);
	CHECK(ca_neg_submitter(f.n, "a@x.org", &si) && si.matches == 8);
	CHECK(ca_neg_submitter(f.n, "b@x.org", &si) && si.matches == 8);
	teardown(&f);
	/* not twins: a request only the policy reads (RequestDisk), or a job
	 * attribute only the slot's Consumption expression reaches, where one
	 * submitter's jobs fit and the other's do not. At equal priorities a's
	 * turn comes first: its candidates must not be lent to b, nor b made
	 * to wait on a's. */
	const char *wslots = "Name = \"slot1@p1\"\nPartitionableSlot = true\nSlotTypeID = 1\n"
	    "Cpus = 8\nMemory = 16384\nDisk = 100000\nRequirements = True\n"
	    "ConsumptionDisk = TARGET.DiskWanted\n\n";
	static const struct {
		bool wanted;		/* wslots, else pslots */
		const char *a, *b;
		size_t ma, mb;
	} apart[] = {
		{ false, "RequestDisk = 10", "RequestDisk = 500000", 3, 0 },
		{ false, "RequestDisk = 500000", "RequestDisk = 10", 0, 3 },
		{ true, "RequestDisk = 10\nDiskWanted = 500000", "RequestDisk = 10\nDiskWanted = 10",
		    0, 3 },
	};
	for (size_t i = 0; i < sizeof apart / sizeof apart[0]; i++) {
		char extra[128];
		strbuf_reset(&j);
		snprintf(extra, sizeof extra, "RequestCpus = 1\n%s", apart[i].a);
		jobs_text(&j, "a", 1, 3, extra);
		snprintf(extra, sizeof extra, "RequestCpus = 1\n%s", apart[i].b);
		jobs_text(&j, "b", 2, 3, extra);
		setup(&f, "CONSUMPTION_POLICY = True\n", NULL, apart[i].wanted ? wslots : pslots,
		    j.buf, NULL);
		CHECK(ca_neg_run(f.n) == 3);
		CHECK(ca_neg_submitter(f.n, "a@x.org", &si) && si.matches == apart[i].ma);
		CHECK(ca_neg_submitter(f.n, "b@x.org", &si) && si.matches == apart[i].mb);
		teardown(&f);
	}
	strbuf_release(&j);
}

UNIT_SUITE(negotiator_groups_cycle)
{
	struct fix f;
	strbuf s = STRBUF_INIT, j = STRBUF_INIT;
	ca_neg_subinfo si;

	slots_text(&s, "n", 100, NULL);
	jobs_text(&j, "u1", 1, 50, "AccountingGroup = \"group_econ.project1.u1\"");
	jobs_text(&j, "u2", 2, 50, "AccountingGroup = \"group_econ.u2\"");
	jobs_text(&j, "a", 3, 100, NULL);
	setup(&f, "GROUP_QUOTA_DYNAMIC_group_econ = .6\n"
	    "GROUP_QUOTA_DYNAMIC_group_econ.project1 = .2\n", NULL, s.buf, j.buf, NULL);
	CHECK(ca_neg_run(f.n) == 100);
	CHECK(ca_neg_submitter(f.n, "group_econ.project1.u1@x.org", &si) && si.matches == 12);
	CHECK(si.why[CA_WHY_QUOTA] == 38);
	CHECK(ca_neg_submitter(f.n, "group_econ.u2@x.org", &si) && si.matches == 48);
	CHECK(ca_neg_submitter(f.n, "a@x.org", &si) && si.matches == 40);
	const ca_groups *g = ca_neg_groups(f.n);
	CHECK(g->v.n == 3 && g->root->quota == 40);
	teardown(&f);
	strbuf_release(&s);
	strbuf_release(&j);
}

UNIT_SUITE(negotiator_deterministic)
{
	strbuf s = STRBUF_INIT, j = STRBUF_INIT, out[2] = { STRBUF_INIT, STRBUF_INIT };

	slots_text(&s, "n", 30, "KFlops = 5");
	slots_text(&s, "m", 30, "Cpus = 2\nRank = TARGET.JobPrio");
	for (int u = 0; u < 6; u++) {
		char name[8];
		snprintf(name, sizeof name, "u%d", u);
		jobs_text(&j, name, 10 + u, 20, u % 2 ? "JobPrio = 3\nRank = TARGET.Cpus" : NULL);
	}
	for (int r = 0; r < 2; r++) {
		struct fix f;
		setup(&f, NULL, "Name = \"u1@x.org\"\nPriority = 3.0\n\n", s.buf, j.buf, NULL);
		size_t n = ca_neg_run(f.n);
		for (size_t i = 0; i < n; i++) {
			ca_ad *ad = ca_neg_match_ad(f.n, i);
			ca_format_ad(&out[r], ad, CA_FMT_NEW);
			ca_ad_free(ad);
		}
		ca_neg_summary(f.n, &out[r]);
		teardown(&f);
	}
	CHECK(out[0].len > 0 && strcmp(out[0].buf, out[1].buf) == 0);
	strbuf_release(&s);
	strbuf_release(&j);
	strbuf_release(&out[0]);
	strbuf_release(&out[1]);
}

/* Concurrency limits, ceilings and floors, QDate and cluster skipping
 * through the API: the decisions and the figures. */
UNIT_SUITE(negotiator_limits)
{
	struct fix f;
	strbuf s = STRBUF_INIT, j = STRBUF_INIT;
	ca_neg_subinfo si;
	char buf[64];

	slots_text(&s, "n", 10, NULL);
	jobs_text(&j, "a", 1, 6, "ConcurrencyLimits = \"XSW:2\"");
	jobs_text(&j, "b", 2, 2, NULL);
	setup(&f, "XSW_LIMIT = 7\n", NULL, s.buf, j.buf, "1.3");
	CHECK(ca_neg_run(f.n) == 5);
	CHECK(ca_neg_submitter(f.n, "a@x.org", &si) && si.matches == 3);
	CHECK(si.why[CA_WHY_CLIMIT] == 3);
	CHECK(strcmp(mattr(&f, 0, "MatchedConcurrencyLimits", buf, sizeof buf), "xsw:2") == 0);
	CHECK(strstr(account(&f), "concurrency limit xsw reached (ConcurrencyLimit_xsw 6 of 7; "
	    "it asks 2)") != NULL);
	strbuf_reset(&f.text);
	ca_neg_summary(f.n, &f.text);
	CHECK(strstr(f.text.buf, "ConcurrencyLimit_xsw       0        6       7        3") != NULL);
	teardown(&f);

	/* a ceiling and a floor from the accountant's records */
	strbuf_reset(&j);
	jobs_text(&j, "a", 1, 10, NULL);
	jobs_text(&j, "b", 2, 10, NULL);
	setup(&f, NULL, "Name = \"a@x.org\"\nCeiling = 3\n\nName = \"b@x.org\"\nPriority = 5\n"
	    "Floor = 6\n\n", s.buf, j.buf, NULL);
	CHECK(ca_neg_run(f.n) == 10);
	CHECK(ca_neg_submitter(f.n, "a@x.org", &si) && si.matches == 3 &&
	    si.why[CA_WHY_CEILING] == 7);
	CHECK(ca_neg_submitter(f.n, "b@x.org", &si) && si.matches == 7);
	teardown(&f);

	/* QDate before ClusterId; cluster skipping by ClusterId */
	strbuf_reset(&s);
	slots_text(&s, "n", 1, NULL);
	strbuf_reset(&j);
	jobs_text(&j, "a", 1, 1, "QDate = 20");
	jobs_text(&j, "a", 2, 1, "QDate = 10");
	setup(&f, NULL, NULL, s.buf, j.buf, NULL);
	CHECK(ca_neg_run(f.n) == 1);
	CHECK(strcmp(mattr(&f, 0, "JobId", buf, sizeof buf), "2.0") == 0);
	teardown(&f);
	strbuf_reset(&j);
	jobs_text(&j, "a", 1, 1, "RequestMemory = 99999");
	jobs_text(&j, "a", 1, 1, "ProcId = 1");
	jobs_text(&j, "a", 2, 1, NULL);
	setup(&f, NULL, NULL, s.buf, j.buf, "1.1");
	CHECK(ca_neg_run(f.n) == 1);
	CHECK(strcmp(mattr(&f, 0, "JobId", buf, sizeof buf), "2.0") == 0);
	CHECK(strstr(account(&f), "job 1.1 skipped: job 1.0 of the same cluster (ClusterId)") !=
	    NULL);
	teardown(&f);
	setup(&f, "NEGOTIATE_ALL_JOBS_IN_CLUSTER = true\n", NULL, s.buf, j.buf, NULL);
	CHECK(ca_neg_run(f.n) == 1);
	CHECK(strcmp(mattr(&f, 0, "JobId", buf, sizeof buf), "1.1") == 0);
	CHECK(ca_neg_get_policy(f.n)->all_jobs_in_cluster);
	teardown(&f);

	/* the knobs read */
	setup(&f, "NEGOTIATOR_DEPTH_FIRST = true\nPREEMPTION_RANK_STABLE = false\n"
	    "SIGNIFICANT_ATTRIBUTES = Owner, Cmd\nGROUP_QUOTA_ROUND_ROBIN_RATE = 2\n", NULL,
	    s.buf, j.buf, NULL);
	const ca_neg_policy *p = ca_neg_get_policy(f.n);
	CHECK(p->depth_first && p->pr_stable && !p->prank_stable && p->nsigattrs == 2);
	CHECK(p->rr_rate == 2 && p->cross_slot_prios && p->weighted_demand);
	teardown(&f);
	strbuf_release(&s);
	strbuf_release(&j);
}
