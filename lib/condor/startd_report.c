/* startd_report.c - what the startd tells: the causes and records of the
 * transition log, --why, and the timeline's status line. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "classad.h"
#include "startd.h"
#include "startd_int.h"

/* ---- causes and the log ---- */

const char *
ca_sd_causef(ca_startd *sd, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&sd->cause);
	va_start(ap, fmt);
	strbuf_vaddf(&sd->cause, fmt, ap);
	va_end(ap);
	return sd->cause.buf;
}

/* "NAME = value" for the knob evaluated last. */
const char *
ca_sd_cause_val(ca_startd *sd, ca_value v)
{
	strbuf_reset(&sd->cause);
	strbuf_addf(&sd->cause, "%s = ", sd->lastname);
	ca_print_value(&sd->cause, v, 0);
	return sd->cause.buf;
}

const char *
ca_sd_cause_local(ca_startd *sd, ca_value v)
{
	ca_sd_cause_val(sd, v);
	strbuf_adds(&sd->cause, " locally (without a job)");
	return sd->cause.buf;
}

void
ca_sd_emit(ca_startd *sd, struct slot *s, int fst, int fac, int num, const char *cause)
{
	if (sd->log == NULL || sd->dry)
		return;
	ca_slog r = { s->clock, slot_name(sd, s), fst, fac, s->st, s->ac, num, cause };
	sd->log(sd->log_arg, &r);
}

void
ca_sd_note(ca_startd *sd, struct slot *s, const char *fmt, ...)
{
	va_list ap;
	strbuf sb = STRBUF_INIT;

	if (sd->log == NULL || sd->dry)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ca_sd_emit(sd, s, s->st, s->ac, 0, sb.buf);
	strbuf_release(&sb);
}

bool
ca_sd_act(ca_startd *sd, int st, int ac, int num, const char *cause)
{
	if (!sd->dry)
		return true;
	if (sd->would.len == 0) {
		if (st >= 0)
			strbuf_addf(&sd->would, "would go to %s/%s [%d]: %s", ca_sstate_name[st],
			    ca_sact_name[ac], num, cause);
		else
			strbuf_addf(&sd->would, "would act: %s", cause);
	}
	return false;
}

void
ca_startd_time(strbuf *sb, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm) == NULL)
		strbuf_addf(sb, "%lld", (long long)t);
	else
		strbuf_addf(sb, "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
		    tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

void
ca_slog_format(const ca_slog *r, strbuf *out)
{
	ca_startd_time(out, r->time);
	if (r->num > 0)
		strbuf_addf(out, " %s %s/%s -> %s/%s [%d] %s\n", r->slot,
		    ca_sstate_name[r->from_state], ca_sact_name[r->from_act],
		    ca_sstate_name[r->to_state], ca_sact_name[r->to_act], r->num, r->cause);
	else
		strbuf_addf(out, " %s %s/%s: %s\n", r->slot, ca_sstate_name[r->from_state],
		    ca_sact_name[r->from_act], r->cause);
}

/* ---- --why and the timeline ---- */

static const char *const timer_name[] = {
	[T_NONE] = "", [T_MATCH] = "MATCH_TIMEOUT: back to Owner [8]",
	[T_PMATCH] = "MATCH_TIMEOUT: the preempting match is dropped",
	[T_VACATE] = "vacate time: to Preempting/Killing [21]",
	[T_KILL] = "KILLING_TIMEOUT: the job is killed, the slot leaves Preempting [24/25]",
	[T_BFKILL] = "KILLING_TIMEOUT: the backfill client is killed [29]",
	[T_BENCH] = "benchmarks finish [4]",
	[T_EVAL] = "an expression of the policy may change its value",
};

/* Evaluate s as the startd would now, recording every expression and
 * deciding nothing. */
static void
dry_eval(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	ca_sd_clear_records(sd);
	strbuf_reset(&sd->would);
	sd->dry = true;
	sd->recording = true;
	if (s->st == CA_S_OWNER || s->st == CA_S_UNCLAIMED || s->st == CA_S_MATCHED)
		(void)ca_sd_eval(sd, s, PX_START, false);
	(void)ca_sd_eval_slot(sd, m, s);
	sd->dry = false;
	sd->recording = false;
	ca_arena_reset(&sd->cx.scratch);
}

/* "NAME is STATE/ACTIVITY"; a slot that is not simulated (an unknown State
 * or Activity) shows the ones its ad has. */
static void
slot_is(ca_startd *sd, const struct slot *s, strbuf *out)
{
	const char *st = s->st >= 0 && s->st < CA_S_NSTATES ? ca_sstate_name[s->st] :
	    lit_str(s->ad, sd->n[A_STATE]);
	const char *ac = s->ac >= 0 && s->ac < CA_A_NACTS ? ca_sact_name[s->ac] :
	    lit_str(s->ad, sd->n[A_ACTIVITY]);

	strbuf_addf(out, "%s is %s/%s", slot_name(sd, s), st ? st : "?", ac ? ac : "?");
}

void
ca_startd_status(ca_startd *sd, ca_smachine *m, size_t i, strbuf *out)
{
	struct slot *s = m->slots.at[i];
	int w;

	slot_is(sd, s, out);
	if (s->bad)
		return;
	const char *id = lit_str(s->ad, sd->n[A_JOBID]);
	if (id != NULL && (s->st == CA_S_CLAIMED || s->st == CA_S_PREEMPTING ||
	    s->st == CA_S_MATCHED))
		strbuf_addf(out, " (job %s)", id);
	static const int show[] = { A_KBDIDLE, A_LOADAVG };
	for (size_t k = 0; k < 2; k++) {
		ca_expr *e = get_expr(s->ad, sd->n[show[k]]);
		if (e != NULL) {
			strbuf_addf(out, " %s=", ca_sd_aname[show[k]]);
			ca_print_expr(out, e, 0);
		}
	}
	dry_eval(sd, m, s);
	for (size_t k = 0; k < sd->recs.n; k++) {
		const struct rec *r = &sd->recs.at[k];
		bool twice = false;
		for (size_t j = 0; j < sd->recs.n; j++)
			twice |= j != k && strcmp(sd->recs.at[j].name, r->name) == 0;
		strbuf_addf(out, "%s%s%s", k ? ", " : ": ", r->text,
		    twice ? (r->job ? " for the job" : " locally") : "");
	}
	int64_t d = ca_sd_timer(sd, s, &w);
	if (w != T_NONE)
		strbuf_addf(out, "; %s in %lld s", timer_name[w],
		    (long long)(d > s->clock ? d - s->clock : 0));
	ca_sd_clear_records(sd);
	ca_arena_reset(&sd->cx.scratch);
}

int
ca_startd_why(ca_startd *sd, ca_smachine *m, const char *name, strbuf *out)
{
	struct slot *s = NULL;
	int64_t ecs = 0, eca = 0;
	int w;

	for (size_t i = 0; i < m->slots.n; i++) {
		struct slot *x = m->slots.at[i];
		if (!x->deleted && strcasecmp(slot_name(sd, x), name) == 0)
			s = x;
	}
	if (s == NULL)
		return -1;
	slot_is(sd, s, out);
	if (s->bad) {
		strbuf_adds(out, ": not a slot startd-step can run (passed through unchanged)\n");
		return 0;
	}
	lit_time(s->ad, sd->n[A_ECS], &ecs);
	lit_time(s->ad, sd->n[A_ECA], &eca);
	if (s->eval_at == INT64_MIN)
		ca_sd_refresh_deadline(sd, m, s);
	strbuf_adds(out, " at ");
	ca_startd_time(out, s->clock);
	strbuf_addf(out, "\n  in %s since ", ca_sstate_name[s->st]);
	ca_startd_time(out, ecs);
	strbuf_addf(out, " (%lld s), %s since ", (long long)(s->clock - ecs), ca_sact_name[s->ac]);
	ca_startd_time(out, eca);
	strbuf_addf(out, " (%lld s)\n", (long long)(s->clock - eca));

	strbuf d = STRBUF_INIT;
	ca_ad *job = job_of(sd, s);
	if (job != NULL) {
		double r = 0;
		num_of(lit(s->ad, sd->n[A_CURRENTRANK]), &r);
		strbuf_addf(out, "  claim: %s (TARGET of the policy), CurrentRank %g",
		    ca_sd_describe_job(sd, job, NULL, &d), r);
		if (s->st == CA_S_CLAIMED && job_active(sd, s)) {
			const char *rc = ca_sd_retire_cause(sd, s);
			double left = ca_sd_retirement_left(sd, s);
			int64_t ran = 0;
			lit_int(s->ad, sd->n[A_TJOBRUN], &ran);
			strbuf_addf(out, "; the job has run %lld s; MaxJobRetirementTime leaves "
			    "%g s", (long long)ran, left);
			if (rc)
				strbuf_addf(out, "; retiring: %s", rc);
		}
		strbuf_addc(out, '\n');
	}
	ca_ad *pj = nested(s->ad, sd->n[A_PJOB]);
	if (pj != NULL) {
		double r = 0;
		num_of(lit(s->ad, sd->n[A_PRANK]), &r);
		strbuf_addf(out, "  preempting %s: %s, RANK %g\n",
		    pclaim(sd, s) ? "claim (accepted)" : "match (not yet claimed)",
		    ca_sd_describe_job(sd, pj, NULL, &d), r);
	}
	if (draining(sd, s))
		strbuf_addf(out, "  draining (%s)\n", lit_str(s->ad, sd->n[A_DRAINHOW]) ?
		    lit_str(s->ad, sd->n[A_DRAINHOW]) : "graceful");
	if (shutdown_mode(sd, s))
		strbuf_addf(out, "  shutting down (%s)\n", shutdown_mode(sd, s));
	if (eviction(sd, s) != R_NONE)
		strbuf_addf(out, "  the claim is being given up: %s\n",
		    ca_sd_reason_name[eviction(sd, s)]);

	dry_eval(sd, m, s);
	strbuf_addf(out, "In %s/%s the startd evaluates:\n", ca_sstate_name[s->st],
	    ca_sact_name[s->ac]);
	if (sd->recs.n == 0)
		strbuf_adds(out, "  (no policy expression)\n");
	for (size_t k = 0; k < sd->recs.n; k++)
		strbuf_addf(out, "  %s%s\n", sd->recs.at[k].text, sd->recs.at[k].job ?
		    "   (job as TARGET)" : "");
	if (sd->would.len > 0)
		strbuf_addf(out, "  => %s\n", sd->would.buf);
	else
		strbuf_adds(out, "  => none of them changes the state\n");
	int64_t dl = ca_sd_timer(sd, s, &w);
	if (w != T_NONE) {
		strbuf_addf(out, "Timer: %s at ", timer_name[w]);
		ca_startd_time(out, dl);
		strbuf_addf(out, " (in %lld s)\n", (long long)(dl > s->clock ? dl - s->clock : 0));
	}
	if (s->eval_at != INT64_MAX && s->eval_at < dl) {
		strbuf_adds(out, "Next decision: the clocks change what the policy evaluates at ");
		ca_startd_time(out, s->eval_at);
		strbuf_addf(out, " (in %lld s)\n",
		    (long long)(s->eval_at > s->clock ? s->eval_at - s->clock : 0));
	}
	for (size_t k = 0; k < sd->recs.n; k++) {
		if (sd->recs.at[k].e == NULL)
			continue;
		strbuf_addf(out, "\n%s = ", sd->recs.at[k].name);
		ca_print_expr(out, sd->recs.at[k].e, 0);
		strbuf_addc(out, '\n');
		sd->cx.now = s->clock;
		ca_explain(&sd->cx, sd->recs.at[k].e, s->ad, sd->recs.at[k].job ? job : NULL, out);
		if (out->len > 0 && out->buf[out->len - 1] != '\n')
			strbuf_addc(out, '\n');
		ca_arena_reset(&sd->cx.scratch);
	}
	ca_sd_clear_records(sd);
	strbuf_release(&d);
	return 0;
}
