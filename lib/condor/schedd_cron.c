/* schedd_cron.c - the schedd's rule for cron jobs: the next run of a job's
 * CronTab schedule as its DeferralTime, whether it is due, or a hold. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "classad.h"
#include "crontab.h"
#include "schedd.h"

#define DEFAULT_PREP_TIME	300
#define HOLD_INVALID_CRON	25

/* An integer attribute: 1 and *v set, 0 when absent, -1 when it is there but
 * does not evaluate to an integer. */
static int
int_attr(ca_ctx *cx, ca_ad *ad, const char *name, int64_t *v)
{
	ca_value val;

	if (!ca_has(ad, name))
		return 0;
	val = ca_eval_attr(cx, ad, NULL, name);
	if (val.kind != CA_INT)
		return -1;
	*v = val.u.i;
	return 1;
}

struct cronjob {
	ca_ctx *cx;
	ca_ad *ad;
	int64_t now;
	bool due;
	ca_diag *held;
};

/* Put the job on hold the way the schedd does for an invalid cron schedule;
 * held says why. Returns 1. */
static int
hold(struct cronjob *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
hold(struct cronjob *j, const char *fmt, ...)
{
	char why[400], reason[480], id[64] = "";
	int64_t cluster, proc, status;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	if (int_attr(j->cx, j->ad, "ClusterId", &cluster) == 1 &&
	    int_attr(j->cx, j->ad, "ProcId", &proc) == 1) {
		char jid[CA_JOBID_LEN];
		ca_jobid_format(jid, sizeof jid, cluster, proc);
		snprintf(id, sizeof id, "job %s: ", jid);
	}
	ca_diag_set(j->held, CA_EX_INPUT, NULL, 0, 0, "%s%s; the job is put on hold", id, why);

	snprintf(reason, sizeof reason, "Invalid cron schedule parameters: %s", why);
	if (int_attr(j->cx, j->ad, "JobStatus", &status) == 1)
		ca_set_int(j->ad, "LastJobStatus", status);
	ca_set_int(j->ad, "JobStatus", CA_J_HELD);
	ca_set_str(j->ad, "HoldReason", reason);
	ca_set_int(j->ad, "HoldReasonCode", HOLD_INVALID_CRON);
	ca_set_int(j->ad, "HoldReasonSubCode", 0);
	ca_set_int(j->ad, "EnteredCurrentStatus", j->now);
	if (j->due)
		ca_set_bool(j->ad, "CronDue", false);
	return 1;
}

/* Prep time or window: the cron attribute wins (copied into the deferral
 * one), then the deferral attribute as it is, then the default. -1 (with the
 * job held) when the value is not a non-negative integer. */
static int
deferral_param(struct cronjob *j, const char *cron_name, const char *deferral_name,
    int64_t def, int64_t *v)
{
	const char *name = ca_has(j->ad, cron_name) ? cron_name : deferral_name;
	int r = int_attr(j->cx, j->ad, name, v);

	if (r == 0) {
		*v = def;
		ca_set_int(j->ad, deferral_name, def);
		return 0;
	}
	if (r < 0 || *v < 0) {
		hold(j, "%s must be a non-negative integer", name);
		return -1;
	}
	if (name == cron_name)
		ca_set_int(j->ad, deferral_name, *v);
	return 0;
}

int
ca_schedd_cron_job(ca_ctx *cx, ca_ad *ad, int64_t now, int64_t interval, bool due,
    ca_diag *held)
{
	struct cronjob j = { cx, ad, now, due, held };
	ca_cron c;
	ca_diag err;
	int64_t status = CA_J_IDLE, prep, window, dt, iv;
	bool any = false;
	int r;

	for (int f = 0; f < CA_CRON_NFIELDS; f++)
		any |= ca_has(ad, ca_cron_attr_name(f));
	if (!any)
		return 0;
	r = int_attr(cx, ad, "JobStatus", &status);
	if (r < 0 || status != CA_J_IDLE) {
		if (due)
			ca_set_bool(ad, "CronDue", false);
		return 0;
	}

	ca_cron_init(&c);
	for (int f = 0; f < CA_CRON_NFIELDS; f++) {
		const char *name = ca_cron_attr_name(f);
		char num[32];
		const char *text;
		ca_value v;

		if (!ca_has(ad, name))
			continue;
		v = ca_eval_attr(cx, ad, NULL, name);
		if (v.kind == CA_STRING)
			text = v.u.s;
		else if (v.kind == CA_INT) {
			snprintf(num, sizeof num, "%lld", (long long)v.u.i);
			text = num;
		} else
			return hold(&j, "%s is %s, not a string or an integer", name,
			    v.kind == CA_UNDEFINED ? "undefined" : v.kind == CA_ERROR ? "an error" :
			    v.kind == CA_REAL ? "a real" : v.kind == CA_BOOL ? "a boolean" :
			    "not a schedule");
		if (ca_cron_field(&c, f, text, &err) < 0)
			return hold(&j, "%s: %s", name, err.msg);
	}
	if (ca_cron_check(&c, &err) < 0)
		return hold(&j, "%s: %s", ca_cron_attr_name(ca_cron_err_field(&err)), err.msg);
	if (deferral_param(&j, "CronPrepTime", "DeferralPrepTime", DEFAULT_PREP_TIME, &prep) < 0 ||
	    deferral_param(&j, "CronWindow", "DeferralWindow", 0, &window) < 0)
		return 1;

	/* The schedd keeps a DeferralTime until its window has passed (the
	 * sums saturate: the values come from the job). */
	int64_t end;
	if (int_attr(cx, ad, "DeferralTime", &dt) != 1 ||
	    (!__builtin_add_overflow(dt, window, &end) && now > end)) {
		if (ca_cron_next(&c, now, &dt) < 0)
			return hold(&j, "the schedule has no run before the end of year 9999");
		ca_set_int(ad, "DeferralTime", dt);
	}
	if (due) {
		int64_t from, to;
		if (int_attr(cx, ad, "ScheddInterval", &iv) != 1)
			iv = interval;
		bool early = __builtin_sub_overflow(dt, prep, &from) ||
		    __builtin_add_overflow(now, iv, &to) || to >= from;
		bool late = __builtin_add_overflow(dt, window, &end) ? false : now >= end;
		ca_set_bool(ad, "CronDue", early && !late);
	}
	return 0;
}
