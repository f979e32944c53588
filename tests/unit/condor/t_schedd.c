/* t_schedd.c - unit tests of lib/condor/schedd.c: submissions, the job states
 * a step moves jobs through, the job event log, evictions and --exits. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "classad.h"
#include "condor.h"

#define T0 INT64_C(1700000000)

/* ---- helpers ---- */

struct world {
	ca_schedd *q;
	ca_ctx cx;
	strbuf events;		/* "MyType JobId EventTime[ Slot][ Reason]" per event */
	strbuf diags;		/* "file:line: message" per problem */
	int ndiags;
};

static void
log_cb(void *arg, const ca_ad *ev)
{
	struct world *w = arg;
	const char *type = "?", *id = "?", *slot = NULL, *reason = NULL;
	int64_t t = -1;

	ca_get_str(&w->cx, ev, "MyType", &type, NULL);
	ca_get_str(&w->cx, ev, "JobId", &id, NULL);
	ca_get_str(&w->cx, ev, "Slot", &slot, NULL);
	ca_get_str(&w->cx, ev, "Reason", &reason, NULL);
	ca_get_int(&w->cx, ev, "EventTime", &t);
	strbuf_addf(&w->events, "%s %s %lld", type, id, (long long)(t - T0));
	if (slot)
		strbuf_addf(&w->events, " %s", slot);
	if (reason)
		strbuf_addf(&w->events, " %s", reason);
	strbuf_addc(&w->events, '\n');
}

static void
diag_cb(void *arg, const ca_diag *e)
{
	struct world *w = arg;

	strbuf_addf(&w->diags, "%s:%d:%d:%d: %s\n", e->file ? e->file : "-", e->line, e->col,
	    e->status, e->msg);
	w->ndiags++;
}

static ca_ad *
ad_of(const char *text)
{
	ca_diag err;

	return ca_parse_ad(text, strlen(text), NULL, 0, &err);
}

static void
world_init(struct world *w, int64_t now, bool history)
{
	memset(w, 0, sizeof *w);
	w->events = (strbuf)STRBUF_INIT;
	w->diags = (strbuf)STRBUF_INIT;
	ca_ctx_init(&w->cx);
	w->q = ca_schedd_new(now);
	ca_schedd_set_log(w->q, log_cb, w);
	ca_schedd_set_diag(w->q, diag_cb, w);
	ca_schedd_set_history(w->q, history);
}

static void
world_free(struct world *w)
{
	ca_schedd_free(w->q);
	ca_ctx_free(&w->cx);
	strbuf_release(&w->events);
	strbuf_release(&w->diags);
}

/* Hand an ad to the queue, read at "in" line line. */
static void
add(struct world *w, int what, int line, const char *text)
{
	ca_ad *ad = ad_of(text);

	if (ad != NULL)
		ca_schedd_add(w->q, what, ad, "in", line);
}

/* The inputs of a step, each at line 1, 2, ... */
struct input {
	int what;
	const char *text;
};

static void
add_all(struct world *w, const struct input *in, size_t n)
{
	for (size_t i = 0; i < n; i++)
		add(w, in[i].what, (int)i + 1, in[i].text);
}

/* Step every job; how many left the queue. */
static int
step(struct world *w)
{
	int gone = 0;

	for (size_t i = 0; i < ca_schedd_count(w->q); i++)
		gone += ca_schedd_step(w->q, i);
	return gone;
}

static int64_t
num(struct world *w, size_t i, const char *name)
{
	int64_t v = -999;

	ca_get_int(&w->cx, ca_schedd_job(w->q, i), name, &v);
	return v;
}

static bool
str_is(struct world *w, size_t i, const char *name, const char *want)
{
	const char *s = NULL;

	if (ca_get_str(&w->cx, ca_schedd_job(w->q, i), name, &s, NULL) != 1)
		return want == NULL;
	return want != NULL && strcmp(s, want) == 0;
}

#define JOB(id, st) "[ ClusterId = " #id "; ProcId = 0; Owner = \"alice\"; " \
	"User = \"alice@example.org\"; JobStatus = " #st

/* ---- suites ---- */

UNIT_SUITE(schedd_submit)
{
	struct world w;

	world_init(&w, T0, false);
	add(&w, CA_Q_JOB, 1, JOB(7, 1) " ]");
	add(&w, CA_Q_SUBMIT, 5, "[ Owner = \"bob\"; Queue = 3; RequestMemory = 512 ]");
	CHECK(ca_schedd_count(w.q) == 4);
	CHECK(num(&w, 1, "ClusterId") == 8 && num(&w, 3, "ClusterId") == 8);
	CHECK(num(&w, 1, "ProcId") == 0 && num(&w, 3, "ProcId") == 2);
	CHECK(num(&w, 2, "JobStatus") == CA_J_IDLE && num(&w, 2, "JobUniverse") == 5);
	/* the manual's JOB_DEFAULT_REQUESTDISK = DiskUsage; DiskUsage 1 KiB */
	CHECK(num(&w, 2, "RequestMemory") == 512 && num(&w, 2, "RequestDisk") == 1);
	CHECK(num(&w, 2, "DiskUsage") == 1 && num(&w, 2, "JobLeaseDuration") == 2400);
	CHECK(num(&w, 2, "QDate") == T0 && ca_has(ca_schedd_job(w.q, 2), "Requirements"));
	CHECK(strcmp(w.events.buf, "SubmitEvent 8.0 0\nSubmitEvent 8.1 0\nSubmitEvent 8.2 0\n")
	    == 0);
	/* --first-cluster, and ids already taken */
	ca_schedd_set_first_cluster(w.q, 100);
	add(&w, CA_Q_SUBMIT, 9, "[ Owner = \"bob\" ]");
	CHECK(num(&w, 4, "ClusterId") == 100);
	add(&w, CA_Q_SUBMIT, 10, "[ ClusterId = 7; ProcId = 0; Owner = \"bob\" ]");
	add(&w, CA_Q_SUBMIT, 11, "[ Owner = \"bob\"; Queue = 0 ]");
	add(&w, CA_Q_SUBMIT, 12, "[ Owner = \"bob\"; ProcId = 3; Queue = 2 ]");
	add(&w, CA_Q_SUBMIT, 13, "[ Queue = 1 ]");
	add(&w, CA_Q_SUBMIT, 14, "[ Owner = \"bob\"; ClusterId = \"x\" ]");
	CHECK(ca_schedd_count(w.q) == 5);
	CHECK(w.ndiags == 5);
	CHECK(strstr(w.diags.buf, "in:10:0:3: job 7.0 is already in the queue\n") != NULL);
	CHECK(strstr(w.diags.buf, "in:11:0:3: Queue must be an integer from 1 to 100000\n")
	    != NULL);
	CHECK(strstr(w.diags.buf, "in:12:0:3: an ad with ProcId is one job") != NULL);
	CHECK(strstr(w.diags.buf, "in:13:0:3: job 101.0 has no Owner\n") != NULL);
	CHECK(strstr(w.diags.buf, "in:14:0:3: ClusterId must be an integer\n") != NULL);
	world_free(&w);
}

UNIT_SUITE(schedd_run_and_exit)
{
	struct world w;

	/* an idle job whose slot runs it starts; a running one whose JobExit
	 * came completes and, with a history, leaves the queue */
	static const struct input run[] = {
		{ CA_Q_JOB, JOB(1, 1) " ]" },
		{ CA_Q_JOB, JOB(2, 2) "; JobCurrentStartDate = 1700000100; "
		    "RemoteHost = \"slot2@n\" ]" },
		{ CA_Q_JOB, JOB(3, 2) "; JobCurrentStartDate = 1700000100; "
		    "RemoteHost = \"slot3@n\"; OnExitRemove = false ]" },
		{ CA_Q_SLOT, "[ Name = \"slot1@n\"; State = \"Claimed\"; Activity = \"Busy\"; "
		    "JobId = \"1.0\"; JobStart = 1700000060; "
		    "EnteredCurrentActivity = 1700000060 ]" },
		{ CA_Q_EXIT, "[ Name = \"slot2@n\"; Event = \"JobExit\"; JobId = \"2.0\"; "
		    "Time = 1700000500 ]" },
		{ CA_Q_EXIT, "[ Name = \"slot3@n\"; Event = \"JobExit\"; JobId = \"3.0\"; "
		    "Time = 1700000400 ]" },
		{ CA_Q_MATCH, "[ Name = \"slot1@n\"; JobId = \"1.0\"; Time = 1700000050 ]" },
	};

	world_init(&w, T0 + 600, true);
	add_all(&w, run, sizeof run / sizeof run[0]);
	CHECK(!ca_schedd_step(w.q, 0));
	CHECK(num(&w, 0, "JobStatus") == CA_J_RUNNING && str_is(&w, 0, "RemoteHost", "slot1@n"));
	CHECK(num(&w, 0, "JobStartDate") == T0 + 60 && num(&w, 0, "NumJobStarts") == 1);
	CHECK(num(&w, 0, "LastMatchTime") == T0 + 50 && num(&w, 0, "NumJobMatches") == 1);
	CHECK(ca_schedd_step(w.q, 1));
	CHECK(num(&w, 1, "JobStatus") == CA_J_COMPLETED);
	CHECK(num(&w, 1, "CompletionDate") == T0 + 500);
	CHECK(num(&w, 1, "RemoteWallClockTime") == 400 && str_is(&w, 1, "RemoteHost", NULL));
	CHECK(str_is(&w, 1, "LastRemoteHost", "slot2@n"));
	/* OnExitRemove = false: back to idle, to run again */
	CHECK(!ca_schedd_step(w.q, 2));
	CHECK(num(&w, 2, "JobStatus") == CA_J_IDLE && num(&w, 2, "NumJobCompletions") == 1);
	CHECK(strcmp(w.events.buf, "ExecuteEvent 1.0 60 slot1@n\n"
	    "JobTerminatedEvent 2.0 500 slot2@n\nJobTerminatedEvent 3.0 400 slot3@n\n") == 0);
	world_free(&w);

	/* without a history, a completed job stays */
	world_init(&w, T0, false);
	add(&w, CA_Q_JOB, 1, JOB(1, 4) " ]");
	add(&w, CA_Q_JOB, 2, "[ Owner = \"x\" ]");
	CHECK(step(&w) == 0 && w.ndiags == 1);
	CHECK(strstr(w.diags.buf, "in:2:0:3: a job without integer ClusterId and ProcId") != NULL);
	world_free(&w);
}

UNIT_SUITE(schedd_evict_suspend)
{
	struct world w;

	static const struct input in[] = {
		/* its slot is gone: evicted when the starter exited (any case) */
		{ CA_Q_JOB, JOB(1, 2) "; JobCurrentStartDate = 1700000100; "
		    "RemoteHost = \"SLOT1@N\" ]" },
		/* preempted by a match of this cycle; nothing says when it left
		 * its slot: at its start */
		{ CA_Q_JOB, JOB(2, 2) "; JobCurrentStartDate = 1700000100; "
		    "RemoteHost = \"slot2@n\" ]" },
		/* suspended on its slot */
		{ CA_Q_JOB, JOB(3, 2) "; JobCurrentStartDate = 1700000100; "
		    "RemoteHost = \"slot3@n\"; JobCurrentStartExecutingDate = 1700000100 ]" },
		/* matched, not yet started */
		{ CA_Q_JOB, JOB(4, 1) " ]" },
		{ CA_Q_SLOT, "[ Name = \"slot1@n\"; State = \"Owner\"; Activity = \"Idle\"; "
		    "EnteredCurrentState = 1700000300 ]" },
		{ CA_Q_SLOT, "[ Name = \"slot3@n\"; State = \"Claimed\"; "
		    "Activity = \"Suspended\"; JobId = \"3.0\"; JobStart = 1700000100; "
		    "EnteredCurrentActivity = 1700000200 ]" },
		{ CA_Q_SLOT, "[ Name = \"slot4@n\"; State = \"Matched\"; Activity = \"Idle\"; "
		    "JobId = \"4.0\" ]" },
		{ CA_Q_EXIT, "[ Name = \"slot1@n\"; Event = \"StarterExit\"; "
		    "Time = 1700000250 ]" },
		{ CA_Q_MATCH, "[ Name = \"slot2@n\"; JobId = \"9.0\"; PreemptedJobId = \"2.0\"; "
		    "MatchReason = \"Priority\"; Submitter = \"bob@example.org\" ]" },
	};

	world_init(&w, T0 + 600, false);
	add_all(&w, in, sizeof in / sizeof in[0]);
	CHECK(step(&w) == 0);
	CHECK(num(&w, 0, "JobStatus") == CA_J_IDLE && num(&w, 0, "LastVacateTime") == T0 + 250);
	CHECK(str_is(&w, 0, "VacateReason", "unknown"));
	CHECK(str_is(&w, 1, "VacateReason", "Priority"));
	CHECK(str_is(&w, 1, "PreemptingJobId", "9.0"));
	CHECK(str_is(&w, 1, "PreemptingUser", "bob@example.org"));
	CHECK(num(&w, 2, "JobStatus") == CA_J_SUSPENDED && num(&w, 2, "TotalSuspensions") == 1);
	CHECK(num(&w, 2, "LastSuspensionTime") == T0 + 200);
	CHECK(num(&w, 3, "JobStatus") == CA_J_IDLE && str_is(&w, 3, "MatchedSlot", "slot4@n"));
	CHECK(strcmp(w.events.buf, "JobEvictedEvent 1.0 250 SLOT1@N unknown\n"
	    "JobEvictedEvent 2.0 100 slot2@n Priority\n"
	    "JobSuspendedEvent 3.0 200 slot3@n\n") == 0);
	world_free(&w);
}

UNIT_SUITE(schedd_slot_exit)
{
	struct world w;
	ca_diag err;
	ca_ad *ev = NULL, *slot;
	int64_t t = 0;

	world_init(&w, T0 + 3600, false);
	slot = ad_of("[ State = \"Claimed\"; Activity = \"Busy\"; JobStart = 1700000000 ]");
	CHECK(ca_schedd_slot_exit(w.q, slot, &ev, &err) < 0 && ev == NULL);
	CHECK(strcmp(err.msg, "a slot without Name") == 0 && err.file == NULL &&
	    err.status == CA_EX_INPUT);
	ca_ad_free(slot);
	/* a running job finishes its JobDuration (suspension and the wait for
	 * its DeferralTime do not count) */
	slot = ad_of("[ Name = \"slot1@n\"; State = \"Claimed\"; Activity = \"Busy\"; "
	    "JobId = \"1.0\"; JobStart = 1700000000; MyCurrentTime = 1700001000; "
	    "TotalJobRunTime = 700; Job = [ JobDuration = 1800; DeferralTime = 1700000100 ] ]");
	CHECK(ca_schedd_slot_exit(w.q, slot, &ev, &err) == 1 && ev != NULL);
	CHECK(ca_get_int(&w.cx, ev, "Time", &t) == 1 && t == T0 + 1000 + 1800 + 100 - 700);
	CHECK(ca_has(ev, "JobId") && ca_has(ev, "Event"));
	ca_ad_free(ev);
	ca_ad_free(slot);
	/* not finished by now; no duration: runs until evicted */
	slot = ad_of("[ Name = \"s\"; State = \"Claimed\"; Activity = \"Busy\"; "
	    "JobStart = 1700000000; Job = [ JobDuration = 7200 ] ]");
	CHECK(ca_schedd_slot_exit(w.q, slot, &ev, &err) == 0 && ev == NULL);
	ca_ad_free(slot);
	slot = ad_of("[ Name = \"s\"; State = \"Claimed\"; Activity = \"Busy\"; "
	    "JobStart = 1700000000; Job = [ ] ]");
	CHECK(ca_schedd_slot_exit(w.q, slot, &ev, &err) == 0);
	ca_ad_free(slot);
	/* a job being vacated leaves at the slot's time */
	slot = ad_of("[ Name = \"s\"; State = \"Preempting\"; Activity = \"Vacating\"; "
	    "JobStart = 1700000000; MyCurrentTime = 1700000042 ]");
	CHECK(ca_schedd_slot_exit(w.q, slot, &ev, &err) == 1);
	const char *kind = NULL;
	CHECK(ca_get_str(&w.cx, ev, "Event", &kind, NULL) == 1 &&
	    strcmp(kind, "StarterExit") == 0);
	CHECK(ca_get_int(&w.cx, ev, "Time", &t) == 1 && t == T0 + 42);
	ca_ad_free(ev);
	ca_ad_free(slot);
	world_free(&w);
}

UNIT_SUITE(schedd_holds)
{
	struct world w;
	ca_config *cfg = ca_config_new();
	ca_diag err;
	static const char conf[] =
	    "SYSTEM_PERIODIC_HOLD = NumJobStarts > 2\n"
	    "SYSTEM_PERIODIC_HOLD_SUBCODE = 9\n"
	    "SYSTEM_PERIODIC_RELEASE = HoldReasonCode == 26\n"
	    "SYSTEM_PERIODIC_REMOVE = JobStatus == 5 && HoldReasonCode == 3\n"
	    "JOB_DEFAULT_REQUESTMEMORY = 1G\n";

	world_init(&w, T0 + 600, false);
	CHECK(ca_config_load_mem(cfg, "c", conf, sizeof conf - 1, &err) == 0);
	CHECK(ca_schedd_configure(w.q, cfg, &err) == 0);
	add(&w, CA_Q_JOB, 1, JOB(1, 1) "; NumJobStarts = 3 ]");
	add(&w, CA_Q_JOB, 2, JOB(2, 5) "; HoldReasonCode = 26; HoldReason = \"x\"; NumHolds = 1 ]");
	add(&w, CA_Q_JOB, 3, JOB(3, 5) "; HoldReasonCode = 3 ]");
	add(&w, CA_Q_JOB, 4, JOB(4, 1) "; DeferralTime = 1700000000; DeferralWindow = 10 ]");
	add(&w, CA_Q_SLOT, 5, "[ Name = \"s4\"; State = \"Claimed\"; Activity = \"Busy\"; "
	    "JobId = \"4.0\"; JobStart = 1700000011; MyCurrentTime = 1700000600 ]");
	add(&w, CA_Q_SUBMIT, 6, "[ Owner = \"bob\" ]");
	CHECK(step(&w) == 0);
	CHECK(num(&w, 0, "JobStatus") == CA_J_HELD && num(&w, 0, "HoldReasonCode") == 26 &&
	    num(&w, 0, "HoldReasonSubCode") == 9);
	CHECK(str_is(&w, 0, "HoldReason",
	    "The system macro SYSTEM_PERIODIC_HOLD expression 'NumJobStarts > 2' evaluated to TRUE"));
	CHECK(num(&w, 1, "JobStatus") == CA_J_IDLE && num(&w, 1, "LastHoldReasonCode") == 26);
	CHECK(num(&w, 2, "JobStatus") == CA_J_REMOVED);
	/* one second past its window: held for a missed deferral */
	CHECK(num(&w, 3, "JobStatus") == CA_J_HELD &&
	    num(&w, 3, "HoldReasonCode") == CA_HOLD_MISSED_DEFERRAL);
	CHECK(num(&w, 4, "RequestMemory") == 1024);
	CHECK(strstr(w.events.buf, "JobHeldEvent 1.0 600\n") != NULL);
	CHECK(strstr(w.events.buf, "JobReleasedEvent 2.0 600 The system macro") != NULL);
	CHECK(strstr(w.events.buf, "JobAbortedEvent 3.0 600 The system macro") != NULL);
	CHECK(strstr(w.events.buf, "JobHeldEvent 4.0 11 s4\n") != NULL);
	ca_config_free(cfg);
	world_free(&w);
}
