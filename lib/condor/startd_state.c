/* startd_state.c - the startd's state machine: what a slot publishes, the
 * policy state by state (transitions 1-37), claims, retirement and timers. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "classad.h"
#include "startd.h"
#include "startd_int.h"

/* ---- the clock ---- */

static void
clock_fields(ca_startd *sd, int64_t t, int *min, int *day)
{
	if (t != sd->clock_t) {
		time_t tt = (time_t)t;
		struct tm tm;
		if (localtime_r(&tt, &tm) == NULL)
			memset(&tm, 0, sizeof tm);
		sd->clock_t = t;
		sd->clock_min = tm.tm_hour * 60 + tm.tm_min;
		sd->clock_day = tm.tm_wday;
	}
	*min = sd->clock_min;
	*day = sd->clock_day;
}

void
ca_sd_publish_clock(ca_startd *sd, struct slot *s)
{
	int min, day;

	clock_fields(sd, s->clock, &min, &day);
	set_int(sd, s, A_MYCURRENTTIME, s->clock);
	set_int(sd, s, A_CLOCKMIN, min);
	set_int(sd, s, A_CLOCKDAY, day);
}

/* The slot is as its last settle left it, but for its clocks (tick()). */
static bool
clean(const struct slot *s)
{
	return s->settled && s->settled_at == s->ad->version;
}

/* Move the slot's clock forward to t: the time spent is added to the
 * counters of the current state and activity and of the claim, and the
 * idle times of the machine grow with it. */
static void
tick(ca_startd *sd, struct slot *s, int64_t t)
{
	int64_t dt = t - s->clock;

	if (dt <= 0 || s->bad)
		return;
	ca_ad *ad = s->ad;
	bool was_clean = clean(s);
	ca_sd_add_num(ad, sd->tt[s->st][s->ac], sd->tt_spell[s->st][s->ac], dt, true);
	add_num(sd, s, A_KBDIDLE, dt, false);
	add_num(sd, s, A_CONSIDLE, dt, false);
	if (s->st == CA_S_CLAIMED && job_active(sd, s)) {
		if (s->ac == CA_A_BUSY || s->ac == CA_A_RETIRING) {
			add_num(sd, s, A_TJOBRUN, dt, true);
			add_num(sd, s, A_TCLAIMRUN, dt, true);
		} else if (s->ac == CA_A_SUSPENDED) {
			add_num(sd, s, A_TJOBSUSP, dt, true);
			add_num(sd, s, A_TCLAIMSUSP, dt, true);
		}
	}
	if (!sd->latch_cpubusy && lit_true(ad, sd->n[A_CPUISBUSY]))
		add_num(sd, s, A_CPUBUSYTIME, dt, true);
	s->clock = t;
	ca_sd_publish_clock(sd, s);
	if (was_clean) {
		s->settled_at = ad->version;
		s->ticked = true;
	}
}

/* ---- what the slot publishes ---- */

/* The activity's share of the machine's load, as the startd counts it. */
static double
act_load(int st, int ac)
{
	(void)st;
	switch (ac) {
	case CA_A_BUSY:
	case CA_A_RETIRING:
	case CA_A_VACATING:
	case CA_A_KILLING:
	case CA_A_BENCHMARKING:
		return 1.0;
	default:
		return 0.0;
	}
}

/* CondorLoadAvg follows the activity; LoadAvg moves with it, so that the
 * load of everything else (LoadAvg - CondorLoadAvg) stays what it was. */
void
ca_sd_publish_load(ca_startd *sd, struct slot *s)
{
	double now = act_load(s->st, s->ac), before = 0.0;
	ca_value v = lit(s->ad, sd->n[A_CONDORLOAD]);

	if (v.kind == CA_REAL)
		before = v.u.r;
	else if (v.kind == CA_INT)
		before = (double)v.u.i;
	if (now == before && v.kind == CA_REAL)
		return;
	set_real(sd, s, A_CONDORLOAD, now);
	ca_value l = lit(s->ad, sd->n[A_LOADAVG]);
	if (l.kind == CA_REAL)
		set_real(sd, s, A_LOADAVG, fmax(0.0, l.u.r + now - before));
	else if (l.kind == CA_INT)
		set_real(sd, s, A_LOADAVG, fmax(0.0, (double)l.u.i + now - before));
}

/* Requirements: False while Matched, Preempting, waiting for a preempting
 * claim, draining or shutting down; else START && WithinResourceLimits. */
void
ca_sd_publish_requirements(ca_startd *sd, struct slot *s)
{
	bool off = s->st == CA_S_MATCHED || s->st == CA_S_PREEMPTING ||
	    (s->st == CA_S_CLAIMED && pmatch(sd, s)) || draining(sd, s) ||
	    shutdown_mode(sd, s) != NULL;

	ca_sd_publish_expr(s, sd->n[A_REQUIREMENTS], ca_sd_aname[A_REQUIREMENTS],
	    off ? sd->req_false : sd->req_normal, off ? &sd->req_false_pub : &sd->req_normal_pub);
}

/* A job attribute evaluated in the job (job as MY, the slot as TARGET). */
static bool
job_num(ca_startd *sd, struct slot *s, const ca_ad *job, int a, double *out)
{
	sd->cx.now = s->clock;
	return num_of(ca_eval_attr(&sd->cx, job, s->ad, ca_sd_aname[a]), out);
}

/* ---- transitions ---- */

void
ca_sd_go(ca_startd *sd, struct slot *s, int st, int ac, int num, const char *cause)
{
	int fst = s->st, fac = s->ac;

	if (fst == st && fac == ac)
		return;
	if (fst != st)
		set_int(sd, s, A_ECS, s->clock);
	set_int(sd, s, A_ECA, s->clock);
	s->st = st;
	s->ac = ac;
	set_str(sd, s, A_STATE, ca_sstate_name[st]);
	set_str(sd, s, A_ACTIVITY, ca_sact_name[ac]);
	ca_sd_publish_load(sd, s);
	ca_sd_publish_requirements(sd, s);
	ca_sd_emit(sd, s, fst, fac, num, cause);
}

/* A claim begins: its rank and clocks; the hold of the job of the last
 * claim is forgotten. */
void
ca_sd_begin_claim(ca_startd *sd, struct slot *s)
{
	static const int held[] = { A_HELDJOB, A_HOLDREASON, A_HOLDCODE, A_HOLDSUB };

	del_all(sd, s, held, sizeof held / sizeof held[0]);
	set_real(sd, s, A_CURRENTRANK, ca_sd_slot_rank(sd, s, job_of(sd, s)));
	set_int(sd, s, A_CLAIMSTART, s->clock);
	set_int(sd, s, A_CLAIMJOBSTARTS, 0);
	set_int(sd, s, A_TCLAIMRUN, 0);
	set_int(sd, s, A_TCLAIMSUSP, 0);
}

/* Everything of the claim goes (the startd rebuilds the ad). */
static void
end_claim(ca_startd *sd, struct slot *s)
{
	static const int gone[] = {
		A_JOB, A_REMOTEUSER, A_REMOTEOWNER, A_ACCTGROUP, A_JOBID, A_GLOBALJOBID,
		A_JOBSTART, A_REMOTEUSERPRIO, A_CLAIMSTART, A_CLAIMJOBSTARTS, A_TJOBRUN,
		A_TJOBSUSP, A_TCLAIMRUN, A_TCLAIMSUSP, A_RETLEFT, A_EVICTION, A_GONE
	};

	del_all(sd, s, gone, sizeof gone / sizeof gone[0]);
	s->gone = false;
	set_real(sd, s, A_CURRENTRANK, 0.0);
}

void
ca_sd_drop_preempting(ca_startd *sd, struct slot *s)
{
	static const int gone[] = {
		A_PJOB, A_PJOBID, A_PRANK, A_PUSER, A_POWNER, A_PGROUP, A_PUSERPRIO,
		A_PMATCHTIME, A_PCLAIMTIME
	};

	del_all(sd, s, gone, sizeof gone / sizeof gone[0]);
	ca_sd_publish_requirements(sd, s);
}

/* The preempting claim becomes the claim. */
static void
promote(ca_startd *sd, struct slot *s)
{
	static const int from[] = { A_PJOB, A_PJOBID, A_PUSER, A_POWNER, A_PGROUP, A_PUSERPRIO };
	static const int to[] = { A_JOB, A_JOBID, A_REMOTEUSER, A_REMOTEOWNER, A_ACCTGROUP,
	    A_REMOTEUSERPRIO };

	for (size_t i = 0; i < sizeof from / sizeof from[0]; i++) {
		ca_expr *e = get_expr(s->ad, sd->n[from[i]]);
		if (e != NULL)
			ca_ad_set(s->ad, sd->n[to[i]], ca_sd_aname[to[i]], e);
	}
	ca_ad *job = job_of(sd, s);
	const char *g = job ? lit_str(job, sd->n[A_GLOBALJOBID]) : NULL;
	if (g)
		set_str(sd, s, A_GLOBALJOBID, g);
	ca_sd_begin_claim(sd, s);
	ca_sd_drop_preempting(sd, s);
}

/* A job starts on a Claimed/Idle slot (11); e: the job ad the shadow sent,
 * or NULL for the claim's own. */
void
ca_sd_activate(ca_startd *sd, struct slot *s, const ca_expr *e, const ca_ad *ev, const char *cause)
{
	if (e != NULL) {
		store_job(sd, s, A_JOB, e);
		char buf[64];
		const char *id = ca_sd_job_id(sd, job_of(sd, s), ev, buf, sizeof buf);
		if (id)
			set_str(sd, s, A_JOBID, id);
	}
	set_int(sd, s, A_JOBSTART, s->clock);
	add_num(sd, s, A_CLAIMJOBSTARTS, 1, true);
	set_int(sd, s, A_TJOBRUN, 0);
	set_int(sd, s, A_TJOBSUSP, 0);
	ca_sd_go(sd, s, CA_S_CLAIMED, CA_A_BUSY, 11, cause);
}

/* ---- retirement and vacating ---- */

/* Seconds of retirement left for the running job: MaxJobRetirementTime
 * (the job's own only if smaller), minus the time it has run (suspension
 * does not count); infinite in a peaceful shutdown, 0 in a quick drain. */
double
ca_sd_retirement_left(ca_startd *sd, struct slot *s)
{
	if (!job_active(sd, s))
		return 0.0;
	const ca_ad *job = job_of(sd, s);
	double mjrt = ca_sd_num(sd, s, PX_MJRT, true, 0.0), jm, ran = 0.0;
	const char *sm = shutdown_mode(sd, s);
	int64_t r;

	if (sm != NULL && strcmp(sm, "peaceful") == 0)
		mjrt = (double)INT_MAX;
	else if (eviction(sd, s) == R_DRAIN_QUICK)
		mjrt = 0.0;
	if (job != NULL && job_num(sd, s, job, A_MJRT, &jm) && jm < mjrt)
		mjrt = jm;
	if (lit_int(s->ad, sd->n[A_TJOBRUN], &r))
		ran = (double)r;
	return fmax(0.0, mjrt - ran);
}

/* Seconds a vacating job gets: MachineMaxVacateTime; the job's
 * JobMaxVacateTime when smaller; when larger, up to it from the retirement
 * time left. */
static double
vacate_time(ca_startd *sd, struct slot *s, double left)
{
	double mmvt = ca_sd_num(sd, s, PX_MMVT, true, 600.0), jm;
	const ca_ad *job = job_of(sd, s);

	if (mmvt < 0)
		mmvt = 0;
	if (job != NULL && job_num(sd, s, job, A_JMVT, &jm)) {
		if (jm < mmvt)
			return fmax(0.0, jm);
		return fmax(mmvt, fmin(jm, left));
	}
	return mmvt;
}

/* Retirement is over when no time is left, or no more than the job needs to
 * vacate (eviction starts early so that it ends at the deadline). */
static bool
retirement_expired(ca_startd *sd, struct slot *s, double *left)
{
	*left = ca_sd_retirement_left(sd, s);
	return *left <= 0.0 || *left <= vacate_time(sd, s, *left);
}

/* A job evicted because PREEMPT fired, with WANT_HOLD true, is put on hold:
 * the slot says so (HeldJobId, JobHoldReason, JobHoldReasonCode 21 as
 * HTCondor's StartdHeldJob, JobHoldReasonSubCode) for the schedd, until its
 * next claim. The reason is WANT_HOLD_REASON, else what HTCondor's startd
 * writes. */
static void
want_hold(ca_startd *sd, struct slot *s)
{
	ca_value v = ca_sd_eval(sd, s, PX_WANT_HOLD, true);
	double sub = 0;

	if (ca_value_truth(v) != 1)
		return;
	v = ca_sd_eval(sd, s, PX_WANT_HOLD_REASON, true);
	strbuf_reset(&sd->tmp);
	if (v.kind == CA_STRING && v.x.len > 0)
		strbuf_add(&sd->tmp, v.u.s, v.x.len);
	else {
		strbuf_adds(&sd->tmp, "The startd put this job on hold.  (At preemption time, "
		    "WANT_HOLD evaluated to true: WANT_HOLD = ");
		ca_print_expr(&sd->tmp, s->pol->x[PX_WANT_HOLD], 0);
		strbuf_addc(&sd->tmp, ')');
	}
	sub = ca_sd_num(sd, s, PX_WANT_HOLD_SUBCODE, true, 0.0);
	const char *id = lit_str(s->ad, sd->n[A_JOBID]);
	if (id != NULL)
		set_str(sd, s, A_HELDJOB, id);
	set_str(sd, s, A_HOLDREASON, sd->tmp.buf);
	set_int(sd, s, A_HOLDCODE, 21);
	set_int(sd, s, A_HOLDSUB, fabs(sub) < 2e9 ? (int64_t)sub : 0);
	ca_sd_note(sd, s, "WANT_HOLD = true: the job is put on hold (%s)",
	    lit_str(s->ad, sd->n[A_HOLDREASON]));
}

/* Claimed -> Preempting: Killing when asked to kill, or when PREEMPT fired
 * and WANT_VACATE is false; else Vacating. */
void
ca_sd_to_preempting(ca_startd *sd, struct slot *s, int num, bool kill, const char *cause)
{
	int ac = CA_A_VACATING;

	if (job_active(sd, s)) {
		if (kill)
			ac = CA_A_KILLING;
		else if (eviction(sd, s) == R_PREEMPT &&
		    ca_sd_truth(sd, s, PX_WANT_VACATE, true) == 0)
			ac = CA_A_KILLING;
	}
	ca_sd_go(sd, s, CA_S_PREEMPTING, ac, num, cause);
	if (job_active(sd, s) && eviction(sd, s) == R_PREEMPT)
		want_hold(sd, s);
}

/* The starter is gone: back to Owner (22 from Vacating, 25 from Killing),
 * or to Claimed/Idle for the preempting claim (23, 24). */
void
ca_sd_leave_preempting(ca_startd *sd, struct slot *s, const char *why)
{
	bool vac = s->ac == CA_A_VACATING;
	bool toclaim = pclaim(sd, s) && !draining(sd, s) && shutdown_mode(sd, s) == NULL &&
	    ca_sd_truth(sd, s, PX_IS_OWNER, false) != 1;
	strbuf c = STRBUF_INIT;

	strbuf_adds(&c, why);
	end_claim(sd, s);
	if (toclaim) {
		const char *u = lit_str(s->ad, sd->n[A_PUSER]);
		strbuf_addf(&c, "; the preempting claim%s%s takes the slot", u ? " of " : "",
		    u ? u : "");
		promote(sd, s);
		ca_sd_go(sd, s, CA_S_CLAIMED, CA_A_IDLE, vac ? 23 : 24, c.buf);
	} else {
		ca_sd_drop_preempting(sd, s);
		ca_sd_go(sd, s, CA_S_OWNER, CA_A_IDLE, vac ? 22 : 25, c.buf);
	}
	strbuf_release(&c);
}

/* ---- the policy, state by state ---- */

/* The policy moves s to st/ac (transition num, for cause); in a dry run
 * (--why) it only says so. True when s moved. */
static bool
move(ca_startd *sd, struct slot *s, int st, int ac, int num, const char *cause)
{
	if (!ca_sd_act(sd, st, ac, num, cause))
		return false;
	ca_sd_go(sd, s, st, ac, num, cause);
	return true;
}

/* A dynamic slot in Owner or Unclaimed is deleted. */
static bool
dslot_gone(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	if (!ca_sd_act(sd, -1, 0, 0, "delete the dynamic slot"))
		return false;
	ca_sd_delete_dslot(sd, m, s);
	return true;
}

static bool
eval_owner(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	if (s->kind == K_DYNAMIC)
		return dslot_gone(sd, m, s);
	if (shutdown_mode(sd, s) != NULL)
		return false;
	if (draining(sd, s))
		return move(sd, s, CA_S_DRAINED, CA_A_RETIRING, 36, "draining");
	ca_value v = ca_sd_eval(sd, s, PX_IS_OWNER, false);
	if (ca_value_truth(v) != 1)
		return move(sd, s, CA_S_UNCLAIMED, CA_A_IDLE, 1, ca_sd_cause_val(sd, v));
	return false;
}

static bool
eval_unclaimed(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	const char *c = NULL;
	int to = -1, num = 0, toac = CA_A_IDLE;
	ca_value v;

	if (s->kind == K_DYNAMIC)
		return dslot_gone(sd, m, s);
	if (shutdown_mode(sd, s) != NULL) {
		to = CA_S_OWNER, num = 2, c = "shutdown";
	} else if (draining(sd, s)) {
		to = CA_S_DRAINED, toac = CA_A_RETIRING, num = 37, c = "draining";
	} else if (ca_value_truth(v = ca_sd_eval(sd, s, PX_IS_OWNER, false)) == 1) {
		to = CA_S_OWNER, num = 2, c = ca_sd_cause_val(sd, v);
	} else if (s->ac == CA_A_IDLE && sd->backfill &&
	    ca_value_truth(v = ca_sd_eval(sd, s, PX_START_BACKFILL, false)) == 1) {
		to = CA_S_BACKFILL, num = 7, c = ca_sd_cause_val(sd, v);
	} else if (s->ac == CA_A_IDLE &&
	    ca_value_truth(v = ca_sd_eval(sd, s, PX_RUNBENCH, false)) == 1) {
		to = CA_S_UNCLAIMED, toac = CA_A_BENCHMARKING, num = 3, c = ca_sd_cause_val(sd, v);
	}
	return to >= 0 && move(sd, s, to, toac, num, c);
}

/* START locally evaluates to FALSE (without a job: not UNDEFINED), and does
 * not hold for the job of the match or claim either: the slot gives the
 * match or the idle claim up (8, 10). A START that only refuses jobs that
 * are not this one, through a meta-operator (TARGET.IsHighPrioJob =?= True
 * is false without a job), keeps it. The cause is in sd->cause. */
static bool
start_refuses(ca_startd *sd, struct slot *s)
{
	ca_value v = ca_sd_eval(sd, s, PX_START, false);

	if (ca_value_truth(v) != 0)
		return false;
	if (job_of(sd, s) != NULL && ca_sd_truth(sd, s, PX_START, true) == 1)
		return false;
	ca_sd_cause_local(sd, v);
	return true;
}

/* A Matched slot's claim fails or is given up: back to Owner (8). */
void
ca_sd_unmatch(ca_startd *sd, struct slot *s, const char *cause)
{
	end_claim(sd, s);
	ca_sd_go(sd, s, CA_S_OWNER, CA_A_IDLE, 8, cause);
}

/* The schedd claims a Matched slot: Claimed/Idle (9), or Owner (8) when
 * the claim fails. */
void
ca_sd_claim_matched(ca_startd *sd, struct slot *s, const char *how)
{
	const ca_ad *job = job_of(sd, s);
	const char *why;
	strbuf c = STRBUF_INIT;

	if (job == NULL) {
		strbuf_addf(&c, "%s: the claim fails (no job ad)", how);
		ca_sd_unmatch(sd, s, c.buf);
	} else if (ca_sd_truth(sd, s, PX_IS_OWNER, false) == 1) {
		strbuf_addf(&c, "%s: the claim fails (IS_OWNER = true)", how);
		ca_sd_unmatch(sd, s, c.buf);
	} else if (!ca_sd_willing(sd, s, job, &why)) {
		strbuf_addf(&c, "%s: the claim fails (%s)", how, why);
		ca_sd_unmatch(sd, s, c.buf);
	} else {
		ca_sd_begin_claim(sd, s);
		ca_sd_go(sd, s, CA_S_CLAIMED, CA_A_IDLE, 9, how);
	}
	strbuf_release(&c);
}

static bool
eval_matched(ca_startd *sd, struct slot *s)
{
	ca_value v;
	const char *c = NULL;

	if (draining(sd, s))
		c = "draining";
	else if (shutdown_mode(sd, s) != NULL)
		c = "shutdown";
	else if (ca_value_truth(v = ca_sd_eval(sd, s, PX_IS_OWNER, false)) == 1)
		c = ca_sd_cause_val(sd, v);
	else if (start_refuses(sd, s))
		c = sd->cause.buf;
	if (c != NULL) {
		if (!ca_sd_act(sd, CA_S_OWNER, CA_A_IDLE, 8, c))
			return false;
		ca_sd_unmatch(sd, s, c);
		return true;
	}
	if (sd->auto_claim) {
		if (!ca_sd_act(sd, CA_S_CLAIMED, CA_A_IDLE, 9, "auto-claim"))
			return false;
		ca_sd_claim_matched(sd, s, "auto-claim: the schedd claims the match");
		return true;
	}
	return false;
}

/* The schedd of a preempting match claims it: accepted when the slot's
 * RANK of its job is at least CurrentRank (higher: RANK preemption; equal:
 * the negotiator's priority preemption). */
void
ca_sd_claim_preempting(ca_startd *sd, struct slot *s, const char *how)
{
	ca_ad *job = nested(s->ad, sd->n[A_PJOB]);
	double nr = 0.0, cr = 0.0;
	const char *who = lit_str(s->ad, sd->n[A_PUSER]), *why;

	num_of(lit(s->ad, sd->n[A_PRANK]), &nr);
	num_of(lit(s->ad, sd->n[A_CURRENTRANK]), &cr);
	if (who == NULL)
		who = "?";
	if (job == NULL) {
		ca_sd_note(sd, s, "%s: the preempting claim of %s is refused (no job ad)", how,
		    who);
		ca_sd_drop_preempting(sd, s);
	} else if (nr < cr) {
		ca_sd_note(sd, s, "%s: the preempting claim of %s is refused (RANK %g < "
		    "CurrentRank %g)", how, who, nr, cr);
		ca_sd_drop_preempting(sd, s);
	} else if (!ca_sd_willing(sd, s, job, &why)) {
		ca_sd_note(sd, s, "%s: the preempting claim of %s is refused (%s)", how, who,
		    why);
		ca_sd_drop_preempting(sd, s);
	} else {
		set_int(sd, s, A_PCLAIMTIME, s->clock);
		del(sd, s, A_PMATCHTIME);
		ca_sd_note(sd, s, "%s: the preempting claim of %s is accepted (%s preemption: "
		    "RANK %g %s CurrentRank %g)", how, who, nr > cr ? "RANK" : "priority", nr,
		    nr > cr ? ">" : "=", cr);
	}
}

void
ca_sd_stop_draining(ca_startd *sd, struct slot *s)
{
	static const int gone[] = { A_DRAINING, A_DRAINHOW, A_DRAINRESUME };

	del_all(sd, s, gone, sizeof gone / sizeof gone[0]);
}

/* Why the running job is in retirement, or NULL when it is not. */
const char *
ca_sd_retire_cause(ca_startd *sd, const struct slot *s)
{
	enum reason r = eviction(sd, s);

	if (r != R_NONE)
		return ca_sd_reason_name[r];
	if (pclaim(sd, s))
		return "preempting claim";
	if (draining(sd, s))
		return "draining";
	return NULL;
}

static bool
eval_claimed_idle(ca_startd *sd, struct slot *s)
{
	ca_value v;
	const char *c = NULL;
	enum reason r = R_NONE;
	int64_t starts = 0, since = s->clock;

	lit_int(s->ad, sd->n[A_CLAIMJOBSTARTS], &starts);
	lit_time(s->ad, sd->n[A_CLAIMSTART], &since);
	if (pclaim(sd, s))
		c = "a preempting claim was accepted";
	else if (ca_value_truth(v = ca_sd_eval(sd, s, PX_IS_OWNER, false)) == 1)
		r = R_IS_OWNER, c = ca_sd_cause_val(sd, v);
	else if (start_refuses(sd, s))
		r = R_START, c = sd->cause.buf;
	else if (draining(sd, s))
		c = "draining";
	else if (shutdown_mode(sd, s) != NULL)
		c = "shutdown";
	else if (starts >= 1) {
		double w = ca_sd_num(sd, s, PX_WORKLIFE, false, -1.0);
		if (w >= 0 && (double)(s->clock - since) > w) {
			r = R_WORKLIFE;
			c = ca_sd_causef(sd, "CLAIM_WORKLIFE (%g s) expired: the claim is %lld s "
			    "old", w, (long long)(s->clock - since));
		}
	}
	if (c == NULL && sd->auto_claim) {
		if (starts == 0) {
			if (!ca_sd_act(sd, CA_S_CLAIMED, CA_A_BUSY, 11, "auto-claim"))
				return false;
			ca_sd_activate(sd, s, NULL, NULL,
			    "auto-claim: the schedd starts the claim's job");
			return true;
		}
		r = R_AUTO_RELEASE;
		c = "auto-claim: the job is done, the schedd releases the claim";
	}
	if (c == NULL || !ca_sd_act(sd, CA_S_PREEMPTING, CA_A_VACATING, 10, c))
		return false;
	if (r != R_NONE)
		set_eviction(sd, s, r);
	ca_sd_to_preempting(sd, s, 10, false, c);
	return true;
}

/* Claimed/Busy, Retiring or Suspended: a job is on the slot. */
static bool
eval_claimed_job(ca_startd *sd, struct slot *s)
{
	const char *rc = ca_sd_retire_cause(sd, s), *c;
	bool in_ret = rc != NULL, fired = eviction(sd, s) == R_PREEMPT;
	int ac = s->ac, ws = -2;
	double left;
	ca_value v;

	if (in_ret && (ac == CA_A_RETIRING || ac == CA_A_SUSPENDED) &&
	    retirement_expired(sd, s, &left)) {
		int num = ac == CA_A_RETIRING ? 18 : 17;
		c = ca_sd_causef(sd, "retirement (%s) is over: %g s of MaxJobRetirementTime "
		    "left", rc, left);
		if (!ca_sd_act(sd, CA_S_PREEMPTING, CA_A_VACATING, num, c))
			return false;
		ca_sd_to_preempting(sd, s, num, false, c);
		return true;
	}
	bool check = false;
	if (ac == CA_A_BUSY || (ac == CA_A_RETIRING && !fired)) {
		ws = ca_sd_truth(sd, s, PX_WANT_SUSPEND, true);
		check = ws != 1;
	} else if (ac == CA_A_SUSPENDED && !fired)
		check = true;
	if (check && ca_value_truth(v = ca_sd_eval(sd, s, PX_PREEMPT, true)) == 1) {
		c = ca_sd_cause_val(sd, v);
		if (ac == CA_A_RETIRING) {
			if (!ca_sd_act(sd, -1, 0, 0, "PREEMPT makes the retirement irreversible"))
				return false;
			set_eviction(sd, s, R_PREEMPT);
			ca_sd_note(sd, s, "%s: the retirement can no longer be undone", c);
			return true;
		}
		int num = ac == CA_A_BUSY ? 13 : 16;
		if (!ca_sd_act(sd, CA_S_CLAIMED, CA_A_RETIRING, num, c))
			return false;
		set_eviction(sd, s, R_PREEMPT);
		ca_sd_go(sd, s, CA_S_CLAIMED, CA_A_RETIRING, num, c);
		return true;
	}
	if (ac == CA_A_RETIRING && !in_ret)
		return move(sd, s, CA_S_CLAIMED, CA_A_BUSY, 19,
		    "nothing to retire for any more (no preempting claim, not draining)");
	if (ac == CA_A_BUSY || ac == CA_A_RETIRING) {
		if (ws == -2)
			ws = ca_sd_truth(sd, s, PX_WANT_SUSPEND, true);
		if (ws == 1 && ca_value_truth(v = ca_sd_eval(sd, s, PX_SUSPEND, true)) == 1)
			return move(sd, s, CA_S_CLAIMED, CA_A_SUSPENDED, ac == CA_A_BUSY ? 14 : 20,
			    ca_sd_cause_val(sd, v));
	}
	if (ac == CA_A_SUSPENDED && ca_value_truth(v = ca_sd_eval(sd, s, PX_CONTINUE, true)) == 1)
		return move(sd, s, CA_S_CLAIMED, in_ret ? CA_A_RETIRING : CA_A_BUSY,
		    in_ret ? 16 : 15, ca_sd_cause_val(sd, v));
	if (ac == CA_A_BUSY && in_ret)
		return move(sd, s, CA_S_CLAIMED, CA_A_RETIRING, 13,
		    ca_sd_causef(sd, "retiring: %s", rc));
	return false;
}

int64_t
ca_sd_lease_end(ca_startd *sd, struct slot *s, int64_t *dur)
{
	int64_t gone, start = s->clock, lease = sd->alives_missed * sd->alive_interval;
	double d;

	if (!s->gone || !lit_time(s->ad, sd->n[A_GONE], &gone))
		return INT64_MAX;
	const ca_ad *job = job_of(sd, s);
	/* the job's JobLeaseDuration, else MAX_CLAIM_ALIVES_MISSED keep-alives */
	if (job != NULL && job_num(sd, s, job, A_LEASE, &d) && d > 0 && d < 9e15)
		lease = (int64_t)d;
	*dur = lease;
	lit_time(s->ad, sd->n[A_CLAIMSTART], &start);
	/* keep-alives renew the lease every third of it from the claim's
	 * start; the last one before the schedd went away counts */
	int64_t every = lease / 3 > 0 ? lease / 3 : 1, last = start;
	if (gone > start)
		last = start + (gone - start) / every * every;
	return last > TIME_LIMIT - lease ? INT64_MAX : last + lease;
}

static bool
eval_claimed(ca_startd *sd, struct slot *s)
{
	int64_t dur = 0, end = s->gone ? ca_sd_lease_end(sd, s, &dur) : INT64_MAX;

	if (end <= s->clock) {
		const char *c = ca_sd_causef(sd, "the claim lease (%lld s) ran out: its schedd "
		    "sends no keep-alives", (long long)dur);
		if (!ca_sd_act(sd, CA_S_PREEMPTING, job_active(sd, s) ? CA_A_KILLING :
		    CA_A_VACATING, 10, c))
			return false;
		set_eviction(sd, s, R_LEASE);
		ca_sd_to_preempting(sd, s, 10, true, c);
		return true;
	}
	if (sd->auto_claim && has(sd, s, A_PMATCHTIME) && !pclaim(sd, s)) {
		if (!ca_sd_act(sd, -1, 0, 0, "auto-claim: claim the preempting match"))
			return false;
		ca_sd_claim_preempting(sd, s, "auto-claim");
		return true;
	}
	if (s->ac == CA_A_IDLE)
		return eval_claimed_idle(sd, s);
	return eval_claimed_job(sd, s);
}

static bool
eval_preempting(ca_startd *sd, struct slot *s)
{
	ca_value v;

	if (!job_active(sd, s)) {
		if (!ca_sd_act(sd, CA_S_OWNER, CA_A_IDLE, s->ac == CA_A_VACATING ? 22 : 25,
		    "no job to evict"))
			return false;
		ca_sd_leave_preempting(sd, s, "no job to evict");
		return true;
	}
	if (s->ac == CA_A_VACATING && ca_value_truth(v = ca_sd_eval(sd, s, PX_KILL, true)) == 1)
		return move(sd, s, CA_S_PREEMPTING, CA_A_KILLING, 21, ca_sd_cause_val(sd, v));
	return false;
}

static bool
eval_backfill(ca_startd *sd, struct slot *s)
{
	const char *dest = lit_str(s->ad, sd->n[A_BFDEST]), *c = NULL;
	ca_value v;
	bool stop = draining(sd, s) || shutdown_mode(sd, s) != NULL;

	if (s->ac == CA_A_IDLE) {
		if (dest != NULL) {
			int to = strcmp(dest, "Matched") == 0 ? CA_S_MATCHED :
			    strcmp(dest, "Claimed") == 0 ? CA_S_CLAIMED : CA_S_OWNER;
			int num = to == CA_S_MATCHED ? 32 : to == CA_S_CLAIMED ? 31 : 30;
			c = ca_sd_causef(sd, "the backfill client is gone: %s",
			    to == CA_S_MATCHED ? "the match takes the slot" :
			    to == CA_S_CLAIMED ? "the claim takes the slot" : "back to the owner");
			if (!ca_sd_act(sd, to, CA_A_IDLE, num, c))
				return false;
			del(sd, s, A_BFDEST);
			if (to == CA_S_CLAIMED)
				ca_sd_begin_claim(sd, s);
			ca_sd_go(sd, s, to, CA_A_IDLE, num, c);
			return true;
		}
		if (ca_value_truth(v = ca_sd_eval(sd, s, PX_EVICT_BACKFILL, false)) == 1)
			c = ca_sd_cause_val(sd, v);
		else if (stop)
			c = draining(sd, s) ? "draining" : "shutdown";
		if (c != NULL)
			return move(sd, s, CA_S_OWNER, CA_A_IDLE, 30, c);
		return move(sd, s, CA_S_BACKFILL, CA_A_BUSY, 26, "the backfill client starts");
	}
	if (s->ac == CA_A_BUSY) {
		if (ca_value_truth(v = ca_sd_eval(sd, s, PX_EVICT_BACKFILL, false)) == 1)
			c = ca_sd_cause_val(sd, v);
		else if (stop)
			c = draining(sd, s) ? "draining" : "shutdown";
		if (c == NULL || !ca_sd_act(sd, CA_S_BACKFILL, CA_A_KILLING, 28, c))
			return false;
		set_str(sd, s, A_BFDEST, "Owner");
		ca_sd_go(sd, s, CA_S_BACKFILL, CA_A_KILLING, 28, c);
		return true;
	}
	return false;
}

/* Every live slot of m is Drained (with idle: none is still Drained/Retiring;
 * a slot that went back to its owner when the draining finished counts). */
static bool
machine_drained(const ca_smachine *m, bool idle)
{
	for (size_t i = 0; i < m->slots.n; i++) {
		const struct slot *x = m->slots.at[i];
		if (!live(x))
			continue;
		if (idle ? x->st == CA_S_DRAINED && x->ac != CA_A_IDLE : x->st != CA_S_DRAINED)
			return false;
	}
	return true;
}

static bool
eval_drained(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	const char *c = NULL;
	int to = CA_S_OWNER, toac = CA_A_IDLE, num = s->ac == CA_A_IDLE ? 34 : 35;

	if (shutdown_mode(sd, s) != NULL)
		c = "shutdown";
	else if (!draining(sd, s))
		c = "draining cancelled";
	else if (s->ac == CA_A_RETIRING) {
		if (machine_drained(m, false))
			to = CA_S_DRAINED, num = 33, c = "every slot of the machine is drained";
	} else if (lit_true(s->ad, sd->n[A_DRAINRESUME]) && machine_drained(m, true)) {
		/* the draining of the machine is over: every slot resumes, the
		 * last one to finish too */
		c = "draining finished (resume on completion)";
	}
	if (c == NULL || !ca_sd_act(sd, to, toac, num, c))
		return false;
	if (to == CA_S_OWNER)
		ca_sd_stop_draining(sd, s);
	ca_sd_go(sd, s, to, toac, num, c);
	return true;
}

/* One decision for slot s. True when something changed (evaluate again). */
bool
ca_sd_eval_slot(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	if (!live(s))
		return false;
	switch (s->st) {
	case CA_S_OWNER:
		return eval_owner(sd, m, s);
	case CA_S_UNCLAIMED:
		return eval_unclaimed(sd, m, s);
	case CA_S_MATCHED:
		return eval_matched(sd, s);
	case CA_S_CLAIMED:
		return eval_claimed(sd, s);
	case CA_S_PREEMPTING:
		return eval_preempting(sd, s);
	case CA_S_BACKFILL:
		return eval_backfill(sd, s);
	case CA_S_DRAINED:
		return eval_drained(sd, m, s);
	}
	return false;
}

/* The latched expressions: <name>Value is the value of the slot's
 * attribute name as a number (UNDEFINED: deleted), <name>Time the time it
 * last changed, as HTCondor's startd keeps them. The ad is their memory:
 * a run goes on from the Value and Time the last one left. */
static void
publish_latches(ca_startd *sd, struct slot *s)
{
	for (size_t i = 0; i < sd->latches.n; i++) {
		const struct latch *l = &sd->latches.at[i];
		sd->cx.now = s->clock;
		ca_value v = ca_eval_attr(&sd->cx, s->ad, NULL, l->name->spell);
		double d = 0;
		bool def = num_of(v, &d) && fabs(d) < 9e18;
		ca_value was = lit(s->ad, l->value);
		bool had = was.kind == CA_INT;
		int64_t n = def ? (int64_t)d : 0, t;
		bool changed = def ? !had || was.u.i != n : had;
		if (!lit_time(s->ad, l->time, &t))
			changed = true;		/* the first evaluation */
		if (def)
			ca_sd_setv(s->ad, l->value, l->value_spell, ca_int(n));
		else if (had)
			ca_ad_delete(s->ad, l->value);
		if (changed)
			ca_sd_setv(s->ad, l->time, l->time_spell, ca_int(s->clock));
	}
}

/* A slot publishes RetirementTimeRemaining while a job runs under its
 * claim: the retirement time left, in whole seconds. */
static bool
has_retirement(ca_startd *sd, const struct slot *s)
{
	return s->st == CA_S_CLAIMED && job_active(sd, s);
}

static int64_t
retirement_published(ca_startd *sd, struct slot *s)
{
	return (int64_t)fmin(ca_sd_retirement_left(sd, s), 9e15);
}

/* What is published after every settle: CpuIsBusy and CpuBusyTime (the
 * latch's when CpuBusy is latched), the latches, the retirement time left,
 * Requirements. */
void
ca_sd_publish_end(ca_startd *sd, struct slot *s)
{
	ca_value v = ca_sd_eval(sd, s, PX_CPUBUSY, false);
	bool busy = ca_value_truth(v) == 1, was = lit_true(s->ad, sd->n[A_CPUISBUSY]);

	set_bool(sd, s, A_CPUISBUSY, busy);
	if (!sd->latch_cpubusy && (!busy || !was))
		set_int(sd, s, A_CPUBUSYTIME, 0);
	publish_latches(sd, s);
	if (has_retirement(sd, s))
		set_int(sd, s, A_RETLEFT, retirement_published(sd, s));
	else
		del(sd, s, A_RETLEFT);
	ca_sd_publish_requirements(sd, s);
	ca_arena_reset(&sd->cx.scratch);
}

/* STARTD_SLOT_ATTRS: every slot sees slot<N>_<attr> of the machine's other
 * (static and partitionable) slots. True when a value changed. */
bool
ca_sd_cross_publish(ca_startd *sd, ca_smachine *m)
{
	bool changed = false;

	if (sd->xslot.n == 0)
		return false;
	for (size_t k = 0; k < m->slots.n; k++) {
		struct slot *src = m->slots.at[k];
		if (!live(src) || src->kind == K_DYNAMIC)
			continue;
		for (size_t a = 0; a < sd->xslot.n; a++) {
			sd->cx.now = src->clock;
			ca_value v = ca_eval_attr(&sd->cx, src->ad, NULL, sd->xslot.at[a]);
			strbuf_reset(&sd->tmp);
			strbuf_addf(&sd->tmp, "%s%lld_%s", sd->xslot_vm ? "vm" : "slot",
			    (long long)src->id, sd->xslot.at[a]);
			const ca_name *nm = ca_intern(sd->tmp.buf, sd->tmp.len);
			for (size_t j = 0; j < m->slots.n; j++)
				if (live(m->slots.at[j]))
					changed |= ca_sd_setv(m->slots.at[j]->ad, nm, NULL, v);
		}
	}
	ca_arena_reset(&sd->cx.scratch);
	return changed;
}

/* When the retirement of s runs out, at the pace it runs now (INT64_MAX:
 * not retiring, or suspended, which does not count). It is over when no
 * more time is left than the job gets to vacate: JobMaxVacateTime when
 * the job has one, else MachineMaxVacateTime (vacate_time()). */
static int64_t
retirement_deadline(ca_startd *sd, struct slot *s)
{
	if (s->st != CA_S_CLAIMED || s->ac != CA_A_RETIRING || !job_active(sd, s) ||
	    ca_sd_retire_cause(sd, s) == NULL)
		return INT64_MAX;
	double left = ca_sd_retirement_left(sd, s), jm, lim;
	const ca_ad *job = job_of(sd, s);
	if (job != NULL && job_num(sd, s, job, A_JMVT, &jm))
		lim = jm;
	else
		lim = ca_sd_num(sd, s, PX_MMVT, true, 600.0);
	lim = fmax(0.0, lim);
	if (left <= lim || !(left - lim < 9e15))
		return INT64_MAX;	/* over already: decided now */
	return s->clock + (int64_t)ceil(left - lim);
}

/* When CLAIM_WORKLIFE ends the idle claim of s (INT64_MAX: it does not). */
static int64_t
worklife_deadline(ca_startd *sd, struct slot *s)
{
	int64_t starts = 0, since;

	if (s->st != CA_S_CLAIMED || s->ac != CA_A_IDLE ||
	    !lit_int(s->ad, sd->n[A_CLAIMJOBSTARTS], &starts) || starts < 1 ||
	    !lit_time(s->ad, sd->n[A_CLAIMSTART], &since))
		return INT64_MAX;
	double w = ca_sd_num(sd, s, PX_WORKLIFE, false, -1.0);
	if (w < 0 || !(w < 9e15))
		return INT64_MAX;
	int64_t t = (int64_t)floor((double)since + w) + 1;
	return t > s->clock ? t : INT64_MAX;
}

/* When the policy of s may decide otherwise: the expressions its last
 * decision evaluated (sd->tracked) and the latches, as the clocks move;
 * its retirement and its claim's work life running out. */
static int64_t
eval_deadline(ca_startd *sd, struct slot *s)
{
	int64_t d = INT64_MAX, x;
	const ca_ad *job = NULL;
	bool have_job = false;

	for (size_t i = 0; i < sd->tracked.n; i++) {
		const struct tracked *t = &sd->tracked.at[i];
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = sd->tracked.at[k].e == t->e && sd->tracked.at[k].job == t->job;
		if (seen)
			continue;
		if (t->job && !have_job) {
			job = job_of(sd, s);
			have_job = true;
		}
		if ((x = ca_sd_tracked_deadline(sd, s, t, t->job ? job : NULL)) < d)
			d = x;
	}
	for (size_t i = 0; i < sd->latches.n; i++) {
		const ca_expr *e = get_expr(s->ad, sd->latches.at[i].name);
		if (e != NULL && (x = ca_sd_expr_deadline(sd, s, e, NULL)) < d)
			d = x;
	}
	if ((x = retirement_deadline(sd, s)) < d)
		d = x;
	if ((x = worklife_deadline(sd, s)) < d)
		d = x;
	int64_t dur;
	if (s->gone && s->st == CA_S_CLAIMED && (x = ca_sd_lease_end(sd, s, &dur)) < d &&
	    x > s->clock)
		d = x;
	ca_arena_reset(&sd->cx.scratch);
	return d;
}

static void settle(ca_startd *sd, ca_smachine *m, bool deadlines);

/* Evaluate every slot of m until none changes (a slot's change may matter
 * to the others: resources given back, all slots drained, slot<N>_ values),
 * and when each may change next. */
void
ca_sd_settle(ca_startd *sd, ca_smachine *m)
{
	settle(sd, m, true);
}

/* When the policy of s may decide otherwise, found again (the settle at the
 * end of a step leaves it unknown): its decision made again without acting,
 * to see what it evaluates. */
void
ca_sd_refresh_deadline(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	sd->machine = m;
	sd->dry = true;
	sd->tracked.n = 0;
	sd->track = true;
	(void)ca_sd_eval_slot(sd, m, s);
	(void)ca_sd_eval(sd, s, PX_CPUBUSY, false);
	if (s->st == CA_S_CLAIMED && job_active(sd, s))
		(void)ca_sd_retirement_left(sd, s);
	sd->track = false;
	sd->dry = false;
	strbuf_reset(&sd->would);
	ca_arena_reset(&sd->cx.scratch);
	s->eval_at = eval_deadline(sd, s);
	sd->machine = NULL;
}

/* The slot's retirement time left as the settle publishes it, when it has
 * not moved with the clock since; false when it has. */
static bool
retirement_kept(ca_startd *sd, struct slot *s)
{
	if (!has_retirement(sd, s))
		return true;
	const ca_expr *x = s->pol->x[PX_MJRT];
	int64_t left, was;
	double d;
	if (!lit_int(s->ad, sd->n[A_RETLEFT], &was))
		return false;
	if ((x == NULL || (x->node == CA_N_LIT && num_of(x->u.lit, &d) && d <= 0)) &&
	    shutdown_mode(sd, s) == NULL)
		return was == 0;	/* no retirement: none left, whatever the job says */
	left = retirement_published(sd, s);
	ca_arena_reset(&sd->cx.scratch);
	return was == left;
}

/*
 * Whether settling s again would change nothing. It was settled with its
 * ad as it is now, or as it is now but for its clocks (ticked): then its
 * clock has not reached the time its last decision may change (eval_at),
 * what the settle publishes has not moved with the clocks either (the
 * retirement time left; a latch of a clock), and the deadline is known.
 * A state's policy must read nothing but its own ad (Claimed, Matched,
 * Preempting, Backfill), or the machine be quiet: at the start of the
 * settle no slot of it had changed but for its clocks, and none has been
 * settled again since (Owner, Unclaimed and Drained look at the other
 * slots). The slot<N>_ values are read from the others too. So the settle
 * after an event on one slot of a machine of many evaluates that slot
 * alone, and the settle at the end of a step of a quiet pool none.
 */
static bool
settled(ca_startd *sd, struct slot *s, bool deadlines, bool quiet)
{
	if (!clean(s) || sd->xslot.n > 0)
		return false;
	if (s->ticked) {
		if (s->eval_at == INT64_MIN || s->eval_at <= s->clock || sd->latch_clock ||
		    !retirement_kept(sd, s))
			return false;
	} else if (deadlines && s->eval_at == INT64_MIN)
		return false;
	return quiet || s->st == CA_S_CLAIMED || s->st == CA_S_MATCHED ||
	    s->st == CA_S_PREEMPTING || s->st == CA_S_BACKFILL;
}

/* Settle slot s of m at its clock: its decisions until none changes it,
 * then what it publishes. True when it moved. */
static bool
settle_slot(ca_startd *sd, ca_smachine *m, struct slot *s, bool deadlines)
{
	bool changed = false;
	int k = 0;

	for (;;) {
		sd->tracked.n = 0;
		sd->track = deadlines;
		bool moved = ca_sd_eval_slot(sd, m, s);
		sd->track = false;
		if (!moved)
			break;
		changed = true;
		ca_arena_reset(&sd->cx.scratch);
		if (++k >= 64) {
			ca_sd_note(sd, s, "the policy keeps changing the state: "
			    "stopped after %d decisions at this time", k);
			sd->tracked.n = 0;
			break;
		}
	}
	ca_arena_reset(&sd->cx.scratch);
	if (live(s)) {
		sd->track = deadlines;
		ca_sd_publish_end(sd, s);
		sd->track = false;
		s->eval_at = deadlines ? eval_deadline(sd, s) : INT64_MIN;
		s->settled = true;
		s->ticked = false;
		s->settled_at = s->ad->version;
	}
	return changed;
}

#ifdef CA_SELFCHECK
/* A settle skipped must change nothing: it is made anyway, and must move
 * no slot and leave the ad as it was. The deadline found before stays, so
 * that the check does not change what follows. */
static void
check_settled(ca_startd *sd, ca_smachine *m, struct slot *s, bool deadlines)
{
	uint32_t v = s->ad->version;
	int64_t at = s->eval_at;

	if (settle_slot(sd, m, s, deadlines) || s->ad->version != v)
		abort();
	s->eval_at = at;
}
#endif

/* Settle m; with deadlines, find when each slot's policy may decide
 * otherwise, else leave it unknown (INT64_MIN) for ca_sd_refresh_deadline. */
static void
settle(ca_startd *sd, ca_smachine *m, bool deadlines)
{
	bool quiet = true;

	sd->machine = m;
	ca_sd_cross_publish(sd, m);	/* what the other slots are now */
	for (size_t i = 0; i < m->slots.n && quiet; i++) {
		const struct slot *s = m->slots.at[i];
		quiet = !live(s) || clean(s);
	}
	for (int round = 0; round < 16; round++) {
		bool changed = false;
		for (size_t i = 0; i < m->slots.n; i++) {
			struct slot *s = m->slots.at[i];
			if (!live(s))
				continue;
			if (settled(sd, s, deadlines, quiet)) {
#ifdef CA_SELFCHECK
				check_settled(sd, m, s, deadlines);
#endif
				s->ticked = false;
				if (!deadlines)
					s->eval_at = INT64_MIN;
				continue;
			}
			quiet = false;
			changed |= settle_slot(sd, m, s, deadlines);
		}
		changed |= ca_sd_cross_publish(sd, m);
		if (!changed || m->slots.n == 1)
			break;
	}
	sd->machine = NULL;
}

/* ---- benchmarks ---- */

void
ca_sd_bench_result(ca_startd *sd, struct slot *s, int a, double result)
{
	int64_t old, r;

	if (!(fabs(result) < 9e15))
		return;
	r = (int64_t)result;
	if (lit_int(s->ad, sd->n[a], &old) && (a != A_MIPS || r > 0))
		r = (old * 3 + r) / 4;
	else if (a == A_MIPS && r <= 0 && has(sd, s, a))
		return;		/* a bad MIPS measurement is not averaged in */
	set_int(sd, s, a, r);
}

void
ca_sd_share_bench(ca_startd *sd, ca_smachine *m, const struct slot *s)
{
	static const int res[] = { A_LASTBENCH, A_MIPS, A_KFLOPS };

	for (size_t i = 0; i < m->slots.n; i++) {
		struct slot *x = m->slots.at[i];
		if (x == s || !live(x))
			continue;
		for (size_t k = 0; k < sizeof res / sizeof res[0]; k++) {
			ca_value v = lit(s->ad, sd->n[res[k]]);
			if (v.kind != CA_UNDEFINED)
				ca_sd_setv(x->ad, sd->n[res[k]], ca_sd_aname[res[k]], v);
		}
	}
}

/* ---- timers ---- */

int64_t
ca_sd_timer(ca_startd *sd, struct slot *s, int *which)
{
	/* the times a state or activity was entered, read only for the few
	 * states that time out: this runs for every slot, twice a step */
	int64_t ecs = s->clock, eca = s->clock, t;

	*which = T_NONE;
	if (!live(s))
		return INT64_MAX;
	switch (s->st) {
	case CA_S_MATCHED:
		lit_time(s->ad, sd->n[A_ECS], &ecs);
		*which = T_MATCH;
		return ecs + sd->match_timeout;
	case CA_S_CLAIMED:
		if (!pclaim(sd, s) && lit_time(s->ad, sd->n[A_PMATCHTIME], &t)) {
			*which = T_PMATCH;
			return t + sd->match_timeout;
		}
		break;
	case CA_S_PREEMPTING:
		if (!job_active(sd, s))
			break;
		lit_time(s->ad, sd->n[A_ECA], &eca);
		if (s->ac == CA_A_VACATING) {
			double vt = vacate_time(sd, s, ca_sd_retirement_left(sd, s));
			ca_arena_reset(&sd->cx.scratch);
			*which = T_VACATE;
			return eca + (int64_t)ceil(fmin(vt, 9e15));
		}
		*which = T_KILL;
		return eca + sd->killing_timeout;
	case CA_S_BACKFILL:
		if (s->ac == CA_A_KILLING) {
			lit_time(s->ad, sd->n[A_ECA], &eca);
			*which = T_BFKILL;
			return eca + sd->killing_timeout;
		}
		break;
	case CA_S_UNCLAIMED:
		if (s->ac == CA_A_BENCHMARKING) {
			lit_time(s->ad, sd->n[A_ECA], &eca);
			*which = T_BENCH;
			return eca + sd->bench_time;
		}
		break;
	}
	return INT64_MAX;
}

/* When the next timer of slot s expires (INT64_MAX: none), and which;
 * T_EVAL when the policy must be evaluated again before any. */
int64_t
ca_sd_deadline(ca_startd *sd, struct slot *s, int *which)
{
	int64_t d = ca_sd_timer(sd, s, which);

	if (live(s) && s->eval_at != INT64_MIN && s->eval_at < d) {
		*which = T_EVAL;
		return s->eval_at;
	}
	return d;
}

static void
fire(ca_startd *sd, ca_smachine *m, struct slot *s, int which)
{
	const char *c;

	switch (which) {
	case T_MATCH:
		c = ca_sd_causef(sd, "MATCH_TIMEOUT (%lld s) expired: the match was not claimed",
		    (long long)sd->match_timeout);
		ca_sd_unmatch(sd, s, c);
		break;
	case T_PMATCH:
		ca_sd_note(sd, s, "MATCH_TIMEOUT (%lld s) expired: the preempting match of %s was "
		    "not claimed", (long long)sd->match_timeout,
		    lit_str(s->ad, sd->n[A_PUSER]) ? lit_str(s->ad, sd->n[A_PUSER]) : "?");
		ca_sd_drop_preempting(sd, s);
		break;
	case T_VACATE:
		c = ca_sd_causef(sd, "the vacate time (%g s) is over",
		    vacate_time(sd, s, ca_sd_retirement_left(sd, s)));
		ca_sd_go(sd, s, CA_S_PREEMPTING, CA_A_KILLING, 21, c);
		break;
	case T_KILL:
		c = ca_sd_causef(sd, "KILLING_TIMEOUT (%lld s) expired: the starter and the job "
		    "are killed", (long long)sd->killing_timeout);
		del(sd, s, A_JOBSTART);
		ca_sd_leave_preempting(sd, s, c);
		break;
	case T_BFKILL:
		c = ca_sd_causef(sd, "KILLING_TIMEOUT (%lld s) expired: the backfill client is "
		    "killed", (long long)sd->killing_timeout);
		ca_sd_go(sd, s, CA_S_BACKFILL, CA_A_IDLE, 29, c);
		break;
	case T_EVAL:
		break;		/* the policy decides, at this time */
	case T_BENCH:
		set_int(sd, s, A_LASTBENCH, s->clock);
		bool ran = ca_sd_run_benchmarks(sd, m, s);
		ca_sd_share_bench(sd, m, s);
		c = ca_sd_causef(sd, "benchmarks finished (STARTD_STEP_BENCHMARK_TIME %lld s%s)",
		    (long long)sd->bench_time, ran ? ", BENCHMARKS_JOBLIST" : "");
		ca_sd_go(sd, s, CA_S_UNCLAIMED, CA_A_IDLE, 4, c);
		break;
	}
	ca_arena_reset(&sd->cx.scratch);
}

/* Advance every slot of m to t: timers fire at their deadlines (the policy is
 * evaluated after each), then the policy at t. */
static void
run_to(ca_startd *sd, ca_smachine *m, int64_t t)
{
	for (int guard = 0; guard < 1000000; guard++) {
		int64_t d = INT64_MAX, now = INT64_MIN;
		int w;
		for (size_t i = 0; i < m->slots.n; i++)
			if (live(m->slots.at[i]) && m->slots.at[i]->eval_at == INT64_MIN)
				ca_sd_refresh_deadline(sd, m, m->slots.at[i]);
		for (size_t i = 0; i < m->slots.n; i++) {
			int64_t x = ca_sd_deadline(sd, m->slots.at[i], &w);
			if (x < d)
				d = x;
			if (live(m->slots.at[i]) && m->slots.at[i]->clock > now)
				now = m->slots.at[i]->clock;
		}
		int64_t dh = sd->hooks.n > 0 ? ca_sd_hooks_deadline(sd, m, now) : INT64_MAX;
		if (dh < d)
			d = dh;
		if (d > t)
			break;
		for (size_t i = 0; i < m->slots.n; i++)
			if (live(m->slots.at[i]))
				tick(sd, m->slots.at[i], d);
		for (size_t i = 0; i < m->slots.n; i++) {
			struct slot *s = m->slots.at[i];
			if (live(s) && ca_sd_deadline(sd, s, &w) <= s->clock && w != T_NONE)
				fire(sd, m, s, w);
		}
		if (dh <= d)
			ca_sd_hooks_run(sd, m, d);
		ca_sd_settle(sd, m);
	}
	for (size_t i = 0; i < m->slots.n; i++)
		if (live(m->slots.at[i]))
			tick(sd, m->slots.at[i], t);
	/* a step written out finds its deadlines again when it is read */
	settle(sd, m, sd->resident);
}

void
ca_startd_advance(ca_startd *sd, ca_smachine *m, ca_sevent **evs, size_t nev, size_t *next,
    int64_t t)
{
	if (!m->settled) {
		/* what holds at the time the ads describe happens then; hooks
		 * the machine has not run yet run then */
		ca_sd_settle(sd, m);
		m->settled = true;
		if (sd->hooks.n > 0) {
			int64_t now = INT64_MIN;
			for (size_t i = 0; i < m->slots.n; i++)
				if (live(m->slots.at[i]) && m->slots.at[i]->clock > now)
					now = m->slots.at[i]->clock;
			if (now != INT64_MIN && ca_sd_hooks_deadline(sd, m, now) <= now) {
				ca_sd_hooks_run(sd, m, now);
				ca_sd_settle(sd, m);
			}
		}
	}
	while (*next < nev && evs[*next]->time <= t) {
		ca_sevent *ev = evs[(*next)++];
		run_to(sd, m, ev->time);
		ca_sd_apply_event(sd, m, ev);
		ca_sd_settle(sd, m);
	}
	run_to(sd, m, t);
}
