/* startd.c - the condor_startd as a policy simulator: the simulator object,
 * its configuration (HTCondor's defaults and templates) and the policy. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classad.h"
#include "startd.h"
#include "startd_int.h"

const char *const ca_sstate_name[CA_S_NSTATES] = {
	"Owner", "Unclaimed", "Matched", "Claimed", "Preempting", "Backfill", "Drained"
};
const char *const ca_sact_name[CA_A_NACTS] = {
	"Idle", "Busy", "Suspended", "Retiring", "Vacating", "Killing", "Benchmarking"
};

const char *const ca_sd_aname[A_N] = {
	"State", "Activity", "EnteredCurrentState", "EnteredCurrentActivity", "MyCurrentTime",
	"ClockMin", "ClockDay",
	"KeyboardIdle", "ConsoleIdle", "LoadAvg", "CondorLoadAvg", "CpuIsBusy", "CpuBusyTime",
	"Requirements", "WithinResourceLimits", "CurrentRank", "LastBenchmark", "Mips", "KFlops",
	"Name", "Machine", "MyType", "SlotID", "SlotType", "SlotTypeID", "PartitionableSlot",
	"DynamicSlot", "DSlotId", "Cpus", "Memory", "Disk", "TotalSlotCpus", "TotalSlotMemory",
	"TotalSlotDisk", "TotalCpus", "TotalMemory", "TotalDisk", "DetectedCpus",
	"DetectedMemory", "TotalSlots", "SlotWeight",
	"Job", "RemoteUser", "RemoteOwner", "AccountingGroup", "JobId", "GlobalJobId", "JobStart",
	"RemoteUserPrio", "ClaimStartTime", "ClaimJobStarts", "TotalJobRunTime",
	"TotalJobSuspendTime", "TotalClaimRunTime", "TotalClaimSuspendTime",
	"RetirementTimeRemaining", "Eviction",
	"PreemptingJob", "PreemptingJobId", "PreemptingRank", "PreemptingUser",
	"PreemptingOwner", "PreemptingAccountingGroup", "PreemptingUserPrio",
	"PreemptingMatchTime", "PreemptingClaimTime",
	"Draining", "DrainHow", "DrainResumeOnCompletion", "ShutdownMode", "BackfillDestination",
	"User", "Owner", "ClusterId", "ProcId", "JobUniverse", "MaxJobRetirementTime",
	"JobMaxVacateTime", "RequestCpus", "RequestMemory", "RequestDisk",
	"Event", "Time", "Submitter", "MatchReason", "Mode", "Fast", "How", "ResumeOnCompletion",
	"CpuBusy", "StartdCronRuns", "ScheddGoneTime", "JobLeaseDuration", "JobHoldReason",
	"JobHoldReasonCode", "JobHoldReasonSubCode", "HeldJobId",
};

#define PUB		0x1	/* published in the slot ad */
#define PUB_BACKFILL	0x2	/* published when ENABLE_BACKFILL is true */
#define PUB_DEFINED	0x4	/* published when defined (never looked for else) */

static const struct {
	const char *knob;
	const char *attr;	/* the published name */
	int flags;
} pxinfo[PX_N] = {
	[PX_START] = { "START", "Start", PUB },
	[PX_IS_OWNER] = { "IS_OWNER", "IS_OWNER", PUB },
	[PX_WANT_SUSPEND] = { "WANT_SUSPEND", "WANT_SUSPEND", PUB },
	[PX_WANT_VACATE] = { "WANT_VACATE", "WANT_VACATE", PUB },
	[PX_SUSPEND] = { "SUSPEND", "SUSPEND", PUB },
	[PX_CONTINUE] = { "CONTINUE", "CONTINUE", PUB },
	[PX_PREEMPT] = { "PREEMPT", "PREEMPT", PUB },
	[PX_KILL] = { "KILL", "KILL", PUB },
	[PX_RANK] = { "RANK", "Rank", PUB },
	[PX_MJRT] = { "MAXJOBRETIREMENTTIME", "MaxJobRetirementTime", PUB },
	[PX_MMVT] = { "MachineMaxVacateTime", "MachineMaxVacateTime", PUB },
	[PX_START_BACKFILL] = { "START_BACKFILL", "START_BACKFILL", PUB_BACKFILL },
	[PX_EVICT_BACKFILL] = { "EVICT_BACKFILL", "EVICT_BACKFILL", PUB_BACKFILL },
	[PX_RUNBENCH] = { "RunBenchmarks", "RunBenchmarks", PUB },
	[PX_CPUBUSY] = { "CPUBusy", "CpuBusy", PUB },
	[PX_WORKLIFE] = { "CLAIM_WORKLIFE", NULL, 0 },
	[PX_MODCPUS] = { "MODIFY_REQUEST_EXPR_REQUESTCPUS", NULL, 0 },
	[PX_MODMEM] = { "MODIFY_REQUEST_EXPR_REQUESTMEMORY", NULL, 0 },
	[PX_MODDISK] = { "MODIFY_REQUEST_EXPR_REQUESTDISK", NULL, 0 },
	[PX_WANT_HOLD] = { "WANT_HOLD", "WANT_HOLD", PUB_DEFINED },
	[PX_WANT_HOLD_REASON] = { "WANT_HOLD_REASON", "WANT_HOLD_REASON", PUB_DEFINED },
	[PX_WANT_HOLD_SUBCODE] = { "WANT_HOLD_SUBCODE", "WANT_HOLD_SUBCODE", PUB_DEFINED },
};

static const char *const vanilla_knob[PX_NVANILLA] = {
	"WANT_SUSPEND_VANILLA", "WANT_VACATE_VANILLA", "SUSPEND_VANILLA", "CONTINUE_VANILLA",
	"PREEMPT_VANILLA", "KILL_VANILLA"
};

const char *const ca_sd_reason_name[R_N] = {
	"", "PREEMPT", "vacate", "vacate -fast", "release", "shutdown", "shutdown -fast",
	"shutdown -peaceful", "drain -quick", "drain -fast", "IS_OWNER", "CLAIM_WORKLIFE",
	"auto-claim release", "START", "claim lease expired"
};

/* ---- configuration: defaults ---- */

/* What HTCondor's table of defaults (config_defaults.c) does not define: the
 * macros the manual's policy examples use without defining them, and
 * startd-step's own knobs. Loaded before the user's files, so that any of
 * them can be redefined, and so that $(CPUBusy) in a file means the one in
 * force before it. The templates of `use POLICY : Desktop` and the others
 * are HTCondor's (config_templates.c). */
static const char defaults_text[] =
"# HTCondor's helper macros (the manual's Default Policy Settings)\n"
"ActivationTimer = ifThenElse(JobStart =!= UNDEFINED, (time() - JobStart), 0)\n"
"LastCkpt = (time() - LastPeriodicCheckpoint)\n"
"NonCondorLoadAvg = (LoadAvg - CondorLoadAvg)\n"
"KeyboardBusy = (KeyboardIdle < $(MINUTE))\n"
"ConsoleBusy = (ConsoleIdle < $(MINUTE))\n"
"CPUIdle = ($(NonCondorLoadAvg) <= $(BackgroundLoad))\n"
"CPUBusy = ($(NonCondorLoadAvg) >= $(HighLoad))\n"
"KeyboardNotBusy = ($(KeyboardBusy) == False)\n"
"MachineBusy = ($(CPUBusy) || $(KeyboardBusy))\n"
"# used by the manual's WANT_SUSPEND and WANT_VACATE, defined by none of them\n"
"JustCPU = ($(CPUBusy) && ($(KeyboardBusy) == False))\n"
"IsPVM = (TARGET.JobUniverse =?= 4)\n"
"# startd-step's own: the wall-clock limit of a startd cron hook\n"
"STARTD_STEP_HOOK_TIMEOUT = 10\n";

void
ca_startd_config_prepare(ca_config *cfg)
{
	ca_diag err;

	/* our own text: it cannot fail */
	(void)ca_config_load_mem(cfg, "<startd-step defaults>", defaults_text,
	    sizeof defaults_text - 1, &err);
}


/* ---- small helpers ---- */

static bool
is_sep(char c)
{
	return c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '\r';
}

void
ca_sd_names_split(ca_sd_names *v, const char *s)
{
	while (*s) {
		while (*s && is_sep(*s))
			s++;
		const char *b = s;
		while (*s && !is_sep(*s))
			s++;
		if (s == b)
			break;
		*ca_vec_push(v) = ca_xstrndup(b, (size_t)(s - b));
	}
}

void
ca_sd_names_free(ca_sd_names *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->at[i]);
	ca_vec_free(v);
}

static const ca_name *
intern(const char *s)
{
	return ca_intern(s, strlen(s));
}

void
ca_sd_diag(ca_startd *sd, const ca_diag *err)
{
	if (sd->diag)
		sd->diag(sd->diag_arg, err);
}

/* Report a problem with knob name once per run. */
static bool
first_report(ca_startd *sd, const char *name)
{
	for (size_t i = 0; i < sd->reported.n; i++)
		if (strcasecmp(sd->reported.at[i], name) == 0)
			return false;
	*ca_vec_push(&sd->reported) = ca_xstrndup(name, strlen(name));
	return true;
}

size_t
ca_startd_reported_count(const ca_startd *sd)
{
	return sd->reported.n;
}

const char *
ca_startd_reported_at(const ca_startd *sd, size_t i)
{
	return sd->reported.at[i];
}

void
ca_startd_mark_reported(ca_startd *sd, const char *knob)
{
	(void)first_report(sd, knob);
}

/* ---- the policy ---- */

void
ca_sd_set_detected(ca_startd *sd, int64_t cores, int64_t memory)
{
	char v[32];
	ca_diag err;

	snprintf(v, sizeof v, "%lld", (long long)cores);
	(void)ca_config_set(sd->cfg, "DETECTED_CORES", v, "<machine>", &err);
	(void)ca_config_set(sd->cfg, "DETECTED_CPUS", v, "<machine>", &err);
	(void)ca_config_set(sd->cfg, "DETECTED_PHYSICAL_CPUS", v, "<machine>", &err);
	snprintf(v, sizeof v, "%lld", (long long)memory);
	(void)ca_config_set(sd->cfg, "DETECTED_MEMORY", v, "<machine>", &err);
}

static void
policy_free(struct policy *p)
{
	for (size_t i = 0; i < p->sa.n; i++) {
		ca_vec_free(&p->sa.at[i].a);
		free(p->sa.at[i].runs);
	}
	ca_vec_free(&p->sa);
	ca_arena_free(&p->arena);
	free(p);
}

/* Compile the policy for a machine of cores and memory. NULL with err set
 * when an expression does not parse. */
static struct policy *
policy_compile(ca_startd *sd, int64_t cores, int64_t memory, ca_diag *err)
{
	struct policy *p = ca_xcalloc(1, sizeof *p);

	p->cores = cores;
	p->memory = memory;
	ca_sd_set_detected(sd, cores, memory);
	for (int i = 0; i < PX_N; i++) {
		if (ca_config_expr(sd->cfg, pxinfo[i].knob, &p->arena, 0, &p->x[i], err) < 0)
			goto fail;
		if (pxinfo[i].attr)
			p->xname[i] = intern(pxinfo[i].attr);
	}
	for (int i = 0; i < PX_NVANILLA; i++) {
		if (ca_config_expr(sd->cfg, vanilla_knob[i], &p->arena, 0, &p->vx[i], err) < 0)
			goto fail;
		p->vname[i] = intern(vanilla_knob[i]);
	}
	return p;
fail:
	policy_free(p);
	return NULL;
}

struct policy *
ca_sd_policy_for(ca_startd *sd, int64_t cores, int64_t memory)
{
	ca_diag err;

	for (size_t i = 0; i < sd->pols.n; i++)
		if (sd->pols.at[i]->cores == cores && sd->pols.at[i]->memory == memory)
			return sd->pols.at[i];
	struct policy *p = policy_compile(sd, cores, memory, &err);
	if (p == NULL) {
		ca_sd_diag(sd, &err);
		return NULL;
	}
	*ca_vec_push(&sd->pols) = p;
	return p;
}

/* One name of a STARTD_ATTRS list for slot id: published when the
 * configuration defines it (SLOT<N>_<name> first); a name it does not
 * define is left to the ad. */
static void
sattr_add(ca_startd *sd, struct policy *p, struct sattrs *sa, const char *name, strbuf *knob)
{
	const ca_name *nm = intern(name);
	ca_diag err;
	ca_expr *e = NULL;

	for (size_t j = 0; j < sa->a.n; j++)
		if (sa->a.at[j].name == nm)
			return;
	strbuf_reset(knob);
	strbuf_addf(knob, "SLOT%lld_%s", (long long)sa->id, name);
	const char *which = ca_config_defined(sd->cfg, knob->buf) ? knob->buf : name;
	int rc = ca_config_expr(sd->cfg, which, &p->arena, 0, &e, &err);
	if (rc < 0 && first_report(sd, which)) {
		size_t l = strlen(err.msg);
		snprintf(err.msg + l, sizeof err.msg - l, " (in %s, not published)", which);
		ca_sd_diag(sd, &err);
	}
	if (rc == 1)
		*ca_vec_push(&sa->a) = (struct sattr){ nm,
		    ca_arena_strndup(&p->arena, name, strlen(name)), e, { NULL, NULL } };
}

/* STARTD_ATTRS (and the older STARTD_EXPRS, and SLOT<N>_STARTD_ATTRS) for
 * slot id, compiled the first time a slot of that id asks. */
static struct sattrs *
policy_sattrs(ca_startd *sd, struct policy *p, int64_t id)
{
	for (size_t i = 0; i < p->sa.n; i++)
		if (p->sa.at[i].id == id)
			return &p->sa.at[i];
	struct sattrs *sa = ca_vec_push(&p->sa);
	memset(sa, 0, sizeof *sa);
	sa->id = id;

	strbuf list = STRBUF_INIT, knob = STRBUF_INIT;
	ca_diag err;
	/* the latched expressions are published like STARTD_ATTRS, as
	 * HTCondor's startd appends them to that list */
	static const char *const lists[] = { "STARTD_ATTRS", "STARTD_EXPRS", NULL,
	    "STARTD_LATCH_EXPRS", "SYSTEM_STARTD_LATCH_EXPRS" };
	for (int k = 0; k < 5; k++) {
		strbuf_reset(&knob);
		if (lists[k] != NULL)
			strbuf_adds(&knob, lists[k]);
		else
			strbuf_addf(&knob, "SLOT%lld_STARTD_ATTRS", (long long)id);
		ca_sd_set_detected(sd, p->cores, p->memory);
		if (ca_config_string(sd->cfg, knob.buf, &list, &err) <= 0)
			continue;
		ca_sd_names names = CA_VEC_INIT;
		ca_sd_names_split(&names, list.buf);
		for (size_t i = 0; i < names.n; i++)
			sattr_add(sd, p, sa, names.at[i], &knob);
		ca_sd_names_free(&names);
	}
	strbuf_release(&list);
	strbuf_release(&knob);
	return sa;
}

/* A writer prints a shared copy once (ca_sd_publish_expr). */
int
ca_sd_publish_expr(struct slot *s, const ca_name *n, const char *spell, const ca_expr *e,
    struct pub *pub)
{
	ca_attr *at = ca_ad_find(s->ad, n);
	ca_value v;

	/* a literal the slot holds as its value, or kept as its text, is
	 * compared without making its node */
	if (at != NULL && e->node == CA_N_LIT && ca_attr_lit_in(s->ad, at, &v) &&
	    ca_value_same(v, e->u.lit))
		return PUB_KEPT;
	const ca_expr *cur = at != NULL ? ca_attr_expr(s->ad, at) : NULL;
	if (pub->shared == NULL)
		pub->shared = ca_expr_share(e);
	if (cur != NULL && (cur == pub->shared || cur == pub->same))
		return PUB_KEPT;
	if (ca_expr_same(cur, e, 0)) {
		/* a shared tree lives as long as the store */
		if (cur->flags & CA_EXPR_SHARED)
			pub->same = cur;
		return PUB_KEPT;
	}
	ca_ad_set_found(s->ad, at, n, spell, pub->shared != NULL ?
	    (ca_expr *)(uintptr_t)pub->shared : ca_expr_copy(s->ad->arena, e));
	return at != NULL ? PUB_SET : pub->shared != NULL ? PUB_ADDED : PUB_OWN;
}

/* A pass publishing the policy in a slot: place k of it adds the name
 * the run (if any) added already, or does what ca_sd_publish_expr does,
 * noted. */
#define PASS_DELETED	(1u << 8)
struct pass {
	struct slot *s;
	const struct pub_run *run;
	unsigned k;
	unsigned did;		/* 1 << PUB_*, or'ed; PASS_DELETED */
	uint64_t added[PUB_POS / 64];
};

static void
pass_publish(struct pass *ps, const ca_name *n, const char *spell, const ca_expr *e,
    struct pub *pub)
{
	unsigned k = ps->k++;

	if (ps->run != NULL && k < PUB_POS && (ps->run->added[k / 64] >> (k % 64) & 1))
		return;
	int r = ca_sd_publish_expr(ps->s, n, spell, e, pub);
	ps->did |= 1u << r;
	if (r == PUB_ADDED && k < PUB_POS)
		ps->added[k / 64] |= (uint64_t)1 << (k % 64);
}

static void
pass_delete(struct pass *ps, const ca_name *n)
{
	ps->k++;
	if (get_expr(ps->s->ad, n) != NULL) {
		ca_ad_delete(ps->s->ad, n);
		ps->did |= PASS_DELETED;
	}
}

/* The run kept for slots of shape `from`, or NULL. */
static const struct pub_run *
run_of(const struct sattrs *sa, uint32_t from)
{
	for (int i = 0; sa->runs != NULL && i < PUB_RUNS; i++)
		if (sa->runs[i].from == from)
			return &sa->runs[i];
	return NULL;
}

/* Keep what pass ps added to its slot, which had shape `from` and n0
 * names, and then shape `to`. */
static void
run_keep(struct sattrs *sa, const struct pass *ps, uint32_t from, uint32_t n0, uint32_t to)
{
	const ca_ad *ad = ps->s->ad;

	if (ad->n - n0 > PUB_RUN_MAX || ps->k > PUB_POS)
		return;
	if (sa->runs == NULL)
		sa->runs = ca_xcalloc(PUB_RUNS, sizeof *sa->runs);
	struct pub_run *r = &sa->runs[sa->runs_next];
	sa->runs_next = (sa->runs_next + 1) % PUB_RUNS;
	r->from = from;
	r->to = to;
	r->n = ad->n - n0;
	memcpy(r->added, ps->added, sizeof r->added);
	memcpy(r->at, ad->attrs + n0, r->n * sizeof *r->at);
}

/* The policy expressions and STARTD_ATTRS, as the configuration has them.
 * The names a slot of a shape lacks are those the other slots of that
 * shape lack: what the first added to them the next take at once (a run). */
void
ca_sd_publish_policy(ca_startd *sd, struct slot *s)
{
	struct policy *p = s->pol;
	struct sattrs *sa = policy_sattrs(sd, p, s->id);
	uint32_t from = ca_ad_full_shape(s->ad), n0 = s->ad->n;
	struct pass ps = { s, from != 0 ? run_of(sa, from) : NULL, 0, 0, { 0 } };

	if (ps.run != NULL && !ca_ad_append_run(s->ad, ps.run->at, ps.run->n, ps.run->to))
		ps.run = NULL;
	for (int i = 0; i < PX_N; i++) {
		bool pub = (pxinfo[i].flags & (PUB | PUB_DEFINED)) ||
		    (sd->backfill && (pxinfo[i].flags & PUB_BACKFILL));
		if (!pub)
			continue;
		if (p->x[i] != NULL)
			pass_publish(&ps, p->xname[i], pxinfo[i].attr, p->x[i], &p->xpub[i]);
		else if (!(pxinfo[i].flags & PUB_DEFINED))
			pass_delete(&ps, p->xname[i]);
	}
	for (int i = 0; i < PX_NVANILLA; i++) {
		if (p->vx[i] != NULL)
			pass_publish(&ps, p->vname[i], vanilla_knob[i], p->vx[i], &p->vxpub[i]);
		else
			pass_delete(&ps, p->vname[i]);
	}
	pass_publish(&ps, sd->n[A_WRL], ca_sd_aname[A_WRL], sd->wrl, &sd->wrl_pub);
	for (size_t i = 0; i < sa->a.n; i++)
		pass_publish(&ps, sa->a.at[i].name, sa->a.at[i].spell, sa->a.at[i].e,
		    &sa->a.at[i].pub);
	/* names added with shared trees at the end, none deleted nor with a
	 * copy of the slot's own: the run of the slots of its shape */
	uint32_t to;
	if (ps.run == NULL && from != 0 && (ps.did & 1u << PUB_ADDED) &&
	    !(ps.did & (PASS_DELETED | 1u << PUB_OWN)) && (to = ca_ad_full_shape(s->ad)) != 0)
		run_keep(sa, &ps, from, n0, to);
}

/* ---- the simulator ---- */

int
ca_sd_config_err(ca_startd *sd, const char *knob, ca_diag *err, const char *fmt, ...)
{
	ca_diag at = { .file = "<config>" };
	va_list ap;

	if (knob != NULL)
		(void)ca_config_locate(sd->cfg, knob, &at);
	va_start(ap, fmt);
	ca_diag_vset(err, CA_EX_INPUT, at.file, at.line, at.col, fmt, ap);
	va_end(ap);
	return -1;
}

/* A knob evaluated to an integer; def when undefined. -1 with err set when
 * it is not an integer. */
static int
knob_int(ca_startd *sd, const char *name, int64_t def, int64_t *out, ca_diag *err)
{
	*out = def;
	return ca_config_int(sd->cfg, name, out, err) < 0 ? -1 : 0;
}

/* A timing knob must lie in [min, TIME_LIMIT] seconds. */
static int
knob_range(ca_startd *sd, const char *name, int64_t v, int64_t min, ca_diag *err)
{
	if (v >= min && v <= TIME_LIMIT)
		return 0;
	return ca_sd_config_err(sd, name, err, "%s must be between %lld and %lld seconds", name,
	    (long long)min, (long long)TIME_LIMIT);
}

/* STARTD_LATCH_EXPRS, then SYSTEM_STARTD_LATCH_EXPRS: each name once (the
 * first spelling counts). */
static int
latches_init(ca_startd *sd, strbuf *sb, ca_diag *err)
{
	static const char *const knobs[] = { "STARTD_LATCH_EXPRS", "SYSTEM_STARTD_LATCH_EXPRS" };
	ca_sd_names names = CA_VEC_INIT;

	for (int k = 0; k < 2; k++) {
		strbuf_reset(sb);
		if (ca_config_string(sd->cfg, knobs[k], sb, err) < 0) {
			ca_sd_names_free(&names);
			return -1;
		}
		ca_sd_names_split(&names, sb->buf);
		strbuf_reset(sb);
	}
	for (size_t i = 0; i < names.n; i++) {
		const ca_name *n = intern(names.at[i]);
		bool dup = false;
		for (size_t j = 0; j < sd->latches.n; j++)
			dup |= sd->latches.at[j].name == n;
		if (dup)
			continue;
		struct latch *l = ca_vec_push(&sd->latches);
		l->name = n;
		strbuf_reset(sb);
		strbuf_addf(sb, "%sValue", names.at[i]);
		l->value_spell = ca_arena_strndup(&sd->arena, sb->buf, sb->len);
		l->value = ca_intern(sb->buf, sb->len);
		strbuf_reset(sb);
		strbuf_addf(sb, "%sTime", names.at[i]);
		l->time_spell = ca_arena_strndup(&sd->arena, sb->buf, sb->len);
		l->time = ca_intern(sb->buf, sb->len);
		if (n == sd->n[A_CPUBUSY])
			sd->latch_cpubusy = true;
		if (ca_sd_clock_name(sd, n))
			sd->latch_clock = true;
	}
	strbuf_reset(sb);
	ca_sd_names_free(&names);
	return 0;
}

ca_startd *
ca_startd_new(ca_config *cfg, ca_diag *err)
{
	ca_startd *sd = ca_xcalloc(1, sizeof *sd);
	ca_diag perr;
	strbuf sb = STRBUF_INIT;

	sd->cfg = cfg;
	ca_ctx_init(&sd->cx);
	sd->cause = (strbuf)STRBUF_INIT;
	sd->tmp = (strbuf)STRBUF_INIT;
	sd->would = (strbuf)STRBUF_INIT;
	sd->clock_t = INT64_MIN;
	for (int i = 0; i < A_N; i++)
		sd->n[i] = intern(ca_sd_aname[i]);
	for (int s = 0; s < CA_S_NSTATES; s++)
		for (int a = 0; a < CA_A_NACTS; a++) {
			snprintf(sd->tt_spell[s][a], sizeof sd->tt_spell[s][a], "TotalTime%s%s",
			    ca_sstate_name[s], ca_sact_name[a]);
			sd->tt[s][a] = intern(sd->tt_spell[s][a]);
		}
	ca_sd_clock_names_init(sd);
	sd->bi_time = ca_builtin_find("time", 4);
	sd->bi_if = ca_builtin_find("ifThenElse", 10);
	sd->bi_int = ca_builtin_find("int", 3);
	sd->bi_floor = ca_builtin_find("floor", 5);
	sd->bi_ceiling = ca_builtin_find("ceiling", 7);
	sd->bi_ceil = ca_builtin_find("ceil", 4);
	sd->bi_round = ca_builtin_find("round", 5);
	sd->req_normal = ca_parse_expr(&sd->arena, "START && WithinResourceLimits", 29, 0, &perr);
	sd->req_false = ca_parse_expr(&sd->arena, "False", 5, 0, &perr);
	sd->slot_weight = ca_parse_expr(&sd->arena, "Cpus", 4, 0, &perr);
	if (ca_sd_res_init(sd, err) < 0)
		goto fail;
	/* HTCondor's, with a clause for each custom resource */
	strbuf_adds(&sb, "(MY.Cpus > 0 && TARGET.RequestCpus <= MY.Cpus && MY.Memory > 0 && "
	    "TARGET.RequestMemory <= MY.Memory && MY.Disk > 0 && TARGET.RequestDisk <= MY.Disk");
	ca_sd_res_wrl(sd, &sb);
	strbuf_addc(&sb, ')');
	sd->wrl = ca_parse_expr(&sd->arena, sb.buf, sb.len, 0, &perr);
	strbuf_reset(&sb);

	bool b = false;
	if (knob_int(sd, "MATCH_TIMEOUT", 120, &sd->match_timeout, err) < 0 ||
	    knob_int(sd, "KILLING_TIMEOUT", 30, &sd->killing_timeout, err) < 0 ||
	    knob_int(sd, "STARTD_STEP_BENCHMARK_TIME", 10, &sd->bench_time, err) < 0 ||
	    knob_int(sd, "STARTD_STEP_HOOK_TIMEOUT", 10, &sd->hook_timeout, err) < 0 ||
	    knob_int(sd, "ALIVE_INTERVAL", 300, &sd->alive_interval, err) < 0 ||
	    knob_int(sd, "MAX_CLAIM_ALIVES_MISSED", 6, &sd->alives_missed, err) < 0 ||
	    knob_range(sd, "ALIVE_INTERVAL", sd->alive_interval, 1, err) < 0 ||
	    knob_range(sd, "MAX_CLAIM_ALIVES_MISSED", sd->alives_missed, 1, err) < 0 ||
	    knob_range(sd, "STARTD_STEP_HOOK_TIMEOUT", sd->hook_timeout, 1, err) < 0 ||
	    ca_config_bool(cfg, "ENABLE_BACKFILL", &b, err) < 0 ||
	    knob_range(sd, "MATCH_TIMEOUT", sd->match_timeout, 0, err) < 0 ||
	    knob_range(sd, "KILLING_TIMEOUT", sd->killing_timeout, 0, err) < 0 ||
	    knob_range(sd, "STARTD_STEP_BENCHMARK_TIME", sd->bench_time, 1, err) < 0)
		goto fail;
	sd->backfill = b;
	/* HTCondor's startd runs one set of benchmarks when it starts if
	 * RunBenchmarks is defined as anything but FALSE */
	if (ca_config_string(cfg, "RunBenchmarks", &sb, err) < 0)
		goto fail;
	const char *rb = sb.buf;
	while (*rb == ' ' || *rb == '\t')
		rb++;
	sd->bench_at_start = sb.len > 0 && *rb != 'F' && *rb != 'f';
	strbuf_reset(&sb);
	if (ca_config_string(cfg, "STARTD_SLOT_ATTRS", &sb, err) < 0)
		goto fail;
	if (sb.len > 0)
		ca_sd_names_split(&sd->xslot, sb.buf);
	else {
		if (ca_config_string(cfg, "STARTD_VM_EXPRS", &sb, err) < 0)
			goto fail;
		if (sb.len > 0) {
			ca_sd_names_split(&sd->xslot, sb.buf);
			sd->xslot_vm = true;
		}
	}
	if (latches_init(sd, &sb, err) < 0 || ca_sd_hooks_init(sd, err) < 0)
		goto fail;
	/* compile once, for a machine of one core, to find mistakes early */
	struct policy *p = policy_compile(sd, 1, 1024, err);
	if (p == NULL)
		goto fail;
	policy_free(p);
	strbuf_release(&sb);
	return sd;
fail:
	strbuf_release(&sb);
	ca_startd_free(sd);
	return NULL;
}

void
ca_startd_free(ca_startd *sd)
{
	if (sd == NULL)
		return;
	for (size_t i = 0; i < sd->pols.n; i++)
		policy_free(sd->pols.at[i]);
	ca_vec_free(&sd->pols);
	ca_sd_names_free(&sd->xslot);
	ca_vec_free(&sd->latches);
	ca_vec_free(&sd->mres);
	ca_sd_hooks_free(sd);
	ca_sd_names_free(&sd->reported);
	ca_sd_clear_records(sd);
	ca_vec_free(&sd->recs);
	ca_vec_free(&sd->tracked);
	ca_ctx_free(&sd->cx);
	ca_arena_free(&sd->arena);
	strbuf_release(&sd->cause);
	strbuf_release(&sd->tmp);
	strbuf_release(&sd->would);
	free(sd);
}

void
ca_startd_set_log(ca_startd *sd, ca_slog_fn fn, void *arg)
{
	sd->log = fn;
	sd->log_arg = arg;
}

void
ca_startd_set_diag(ca_startd *sd, ca_sdiag_fn fn, void *arg)
{
	sd->diag = fn;
	sd->diag_arg = arg;
}

void
ca_startd_set_auto_claim(ca_startd *sd, bool on)
{
	sd->auto_claim = on;
}

void
ca_startd_set_resident(ca_startd *sd, bool on)
{
	sd->resident = on;
}

bool
ca_startd_runs_programs(const ca_startd *sd)
{
	return sd->hooks.n > 0;
}

/* ---- literals in slot ads ---- */

bool
ca_sd_setv(ca_ad *ad, const ca_name *n, const char *spell, ca_value v)
{
	return ca_ad_set_lit(ad, n, spell, v);
}

void
ca_sd_add_num(ca_ad *ad, const ca_name *n, const char *spell, int64_t d, bool create)
{
	ca_value v = lit(ad, n);
	int64_t sum;

	if (v.kind == CA_INT) {
		if (__builtin_add_overflow(v.u.i, d, &sum))
			sum = d > 0 ? INT64_MAX : INT64_MIN;
		ca_sd_setv(ad, n, spell, ca_int(sum));
	} else if (v.kind == CA_REAL)
		ca_sd_setv(ad, n, spell, ca_real(v.u.r + (double)d));
	else if (create && ca_ad_find(ad, n) == NULL)
		ca_sd_setv(ad, n, spell, ca_int(d));
}

/* ---- evaluating the policy ---- */

/* The expression of policy knob px for slot s: the _VANILLA form when the
 * job is a vanilla job and the configuration defines that form. */
static const ca_expr *
pick(ca_startd *sd, const struct slot *s, int px, const ca_ad *job, const char **name)
{
	const struct policy *p = s->pol;
	int64_t u;

	if (job != NULL && px >= PX_FIRST_VANILLA && px <= PX_KILL &&
	    p->vx[px - PX_FIRST_VANILLA] != NULL && lit_int(job, sd->n[A_JOBUNIVERSE], &u) &&
	    u == 5) {
		*name = vanilla_knob[px - PX_FIRST_VANILLA];
		return p->vx[px - PX_FIRST_VANILLA];
	}
	*name = pxinfo[px].knob;
	return p->x[px];
}

/* For --why and the timeline: what each knob gave, once per knob. */
static void
record(ca_startd *sd, const char *name, const ca_expr *e, ca_value v, bool job)
{
	for (size_t i = 0; i < sd->recs.n; i++)
		if (strcmp(sd->recs.at[i].name, name) == 0 && sd->recs.at[i].job == job)
			return;
	strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s = ", name);
	if (e == NULL)
		strbuf_adds(&sb, "(not defined)");
	else
		ca_print_value(&sb, v, 0);
	*ca_vec_push(&sd->recs) = (struct rec){ name, e, job, strbuf_detach(&sb, NULL) };
}

void
ca_sd_clear_records(ca_startd *sd)
{
	for (size_t i = 0; i < sd->recs.n; i++)
		free(sd->recs.at[i].text);
	sd->recs.n = 0;
}

ca_value
ca_sd_eval(ca_startd *sd, struct slot *s, int px, bool with_job)
{
	const ca_ad *job = with_job ? job_of(sd, s) : NULL;
	const char *name;
	const ca_expr *e = pick(sd, s, px, job, &name);

	sd->cx.now = s->clock;
	ca_value v = e ? ca_eval_expr(&sd->cx, e, s->ad, job) : ca_undef();
	if (sd->recording)
		record(sd, name, e, v, job != NULL);
	if (sd->track && e != NULL && e->node != CA_N_LIT) {
		int ix = e == s->pol->x[px] ? px : PX_N + px - PX_FIRST_VANILLA;
		*ca_vec_push(&sd->tracked) = (struct tracked){ e, ix, job != NULL };
	}
	sd->lastname = name;
	return v;
}

int
ca_sd_truth(ca_startd *sd, struct slot *s, int px, bool with_job)
{
	return ca_value_truth(ca_sd_eval(sd, s, px, with_job));
}

double
ca_sd_num(ca_startd *sd, struct slot *s, int px, bool with_job, double def)
{
	double d;

	return num_of(ca_sd_eval(sd, s, px, with_job), &d) ? d : def;
}

double
ca_sd_slot_rank(ca_startd *sd, struct slot *s, const ca_ad *job)
{
	const ca_expr *e = s->pol->x[PX_RANK];
	double d;

	if (e == NULL)
		return 0.0;
	sd->cx.now = s->clock;
	return num_of(ca_eval_expr(&sd->cx, e, s->ad, job), &d) ? d : 0.0;
}

/* "NAME = value for this job" into sd->tmp. */
static const char *
refusal(ca_startd *sd, const char *name, ca_value v)
{
	strbuf_reset(&sd->tmp);
	strbuf_addf(&sd->tmp, "%s = ", name);
	ca_print_value(&sd->tmp, v, 0);
	strbuf_adds(&sd->tmp, " for this job");
	return sd->tmp.buf;
}

bool
ca_sd_willing(ca_startd *sd, struct slot *s, const ca_ad *job, const char **why)
{
	sd->cx.now = s->clock;
	ca_value v = s->pol->x[PX_START] ? ca_eval_expr(&sd->cx, s->pol->x[PX_START], s->ad, job) :
	    ca_bool(true);
	if (ca_value_truth(v) != 1) {
		*why = refusal(sd, "START", v);
		return false;
	}
	v = ca_eval_expr(&sd->cx, sd->wrl, s->ad, job);
	if (ca_value_truth(v) != 1) {
		*why = refusal(sd, "WithinResourceLimits", v);
		return false;
	}
	return true;
}
