/* startd.c - the condor_startd's slot state machine: the seed's transitions
 * 1-37, policy evaluation, timers and p-slots, for startd-step and its tests. */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "classad.h"
#include "startd.h"

const char *const ca_sstate_name[CA_S_NSTATES] = {
	"Owner", "Unclaimed", "Matched", "Claimed", "Preempting", "Backfill", "Drained"
};
const char *const ca_sact_name[CA_A_NACTS] = {
	"Idle", "Busy", "Suspended", "Retiring", "Vacating", "Killing", "Benchmarking"
};
const char *const ca_sevent_name[CA_EV_N] = {
	"Match", "Claim", "Activate", "JobExit", "Vacate", "Release", "Drain", "CancelDrain",
	"Shutdown", "StarterExit", "BenchmarkDone", "MachineUpdate"
};

/* The legal state/activity pairs (HTCondor's history table). */
static const unsigned legal_acts[CA_S_NSTATES] = {
	[CA_S_OWNER] = 1u << CA_A_IDLE,
	[CA_S_UNCLAIMED] = 1u << CA_A_IDLE | 1u << CA_A_BENCHMARKING,
	[CA_S_MATCHED] = 1u << CA_A_IDLE,
	[CA_S_CLAIMED] = 1u << CA_A_IDLE | 1u << CA_A_BUSY | 1u << CA_A_SUSPENDED |
	    1u << CA_A_RETIRING,
	[CA_S_PREEMPTING] = 1u << CA_A_VACATING | 1u << CA_A_KILLING,
	[CA_S_BACKFILL] = 1u << CA_A_IDLE | 1u << CA_A_BUSY | 1u << CA_A_KILLING,
	[CA_S_DRAINED] = 1u << CA_A_IDLE | 1u << CA_A_RETIRING,
};

/* ---- attribute names, interned once ---- */

enum {
	A_STATE, A_ACTIVITY, A_ECS, A_ECA, A_MYCURRENTTIME, A_CLOCKMIN, A_CLOCKDAY,
	A_KBDIDLE, A_CONSIDLE, A_LOADAVG, A_CONDORLOAD, A_CPUISBUSY, A_CPUBUSYTIME,
	A_REQUIREMENTS, A_WRL, A_CURRENTRANK, A_LASTBENCH, A_MIPS, A_KFLOPS,
	A_NAME, A_MACHINE, A_MYTYPE, A_SLOTID, A_SLOTTYPE, A_SLOTTYPEID, A_PSLOT, A_DSLOT,
	A_DSLOTID, A_CPUS, A_MEMORY, A_DISK, A_TSCPUS, A_TSMEMORY, A_TSDISK, A_TCPUS,
	A_TMEMORY, A_TDISK, A_DETCPUS, A_DETMEMORY, A_TOTALSLOTS, A_SLOTWEIGHT,
	A_JOB, A_REMOTEUSER, A_REMOTEOWNER, A_ACCTGROUP, A_JOBID, A_GLOBALJOBID, A_JOBSTART,
	A_REMOTEUSERPRIO, A_CLAIMSTART, A_CLAIMJOBSTARTS, A_TJOBRUN, A_TJOBSUSP,
	A_TCLAIMRUN, A_TCLAIMSUSP, A_RETLEFT, A_EVICTION,
	A_PJOB, A_PJOBID, A_PRANK, A_PUSER, A_POWNER, A_PGROUP, A_PUSERPRIO, A_PMATCHTIME,
	A_PCLAIMTIME,
	A_DRAINING, A_DRAINHOW, A_DRAINRESUME, A_SHUTDOWN, A_BFDEST,
	A_USER, A_OWNER, A_CLUSTERID, A_PROCID, A_JOBUNIVERSE, A_MJRT, A_JMVT,
	A_REQCPUS, A_REQMEM, A_REQDISK,
	A_EVENT, A_TIME, A_SUBMITTER, A_MATCHREASON, A_MODE, A_FAST, A_HOW, A_RESUME,
	A_N
};

static const char *const aname[A_N] = {
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
};

/* ---- the policy expressions ---- */

enum {
	PX_START, PX_IS_OWNER, PX_WANT_SUSPEND, PX_WANT_VACATE, PX_SUSPEND, PX_CONTINUE,
	PX_PREEMPT, PX_KILL, PX_RANK, PX_MJRT, PX_MMVT, PX_START_BACKFILL, PX_EVICT_BACKFILL,
	PX_RUNBENCH, PX_CPUBUSY, PX_WORKLIFE, PX_MODCPUS, PX_MODMEM, PX_MODDISK, PX_N
};
#define PX_FIRST_VANILLA PX_WANT_SUSPEND	/* WANT_SUSPEND..KILL have _VANILLA forms */
#define PX_NVANILLA	(PX_KILL - PX_WANT_SUSPEND + 1)

#define PUB		0x1	/* published in the slot ad */
#define PUB_BACKFILL	0x2	/* published when ENABLE_BACKFILL is true */

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
};

static const char *const vanilla_knob[PX_NVANILLA] = {
	"WANT_SUSPEND_VANILLA", "WANT_VACATE_VANILLA", "SUSPEND_VANILLA", "CONTINUE_VANILLA",
	"PREEMPT_VANILLA", "KILL_VANILLA"
};

/* An attribute published from STARTD_ATTRS. */
struct sattr {
	const ca_name *name;
	const char *spell;
	ca_expr *e;
};

struct sattrs {
	int64_t id;		/* SlotID it is for */
	struct sattr *a;
	size_t n;
};

/* The policy compiled for machines with given detected cores and memory
 * (the configuration may use $(DETECTED_CORES) and $(DETECTED_MEMORY)). */
struct policy {
	int64_t cores, memory;
	ca_arena arena;
	ca_expr *x[PX_N];		/* NULL: not defined */
	ca_expr *vx[PX_NVANILLA];	/* the _VANILLA forms, NULL if not defined */
	const ca_name *xname[PX_N];	/* published names */
	const ca_name *vname[PX_NVANILLA];
	struct sattrs *sa;		/* STARTD_ATTRS per SlotID, built when needed */
	size_t nsa;
};

/* ---- reasons a claim is given up ---- */

enum reason {
	R_NONE, R_PREEMPT, R_VACATE, R_VACATE_FAST, R_RELEASE, R_SHUTDOWN,
	R_SHUTDOWN_FAST, R_SHUTDOWN_PEACEFUL, R_DRAIN_QUICK, R_DRAIN_FAST,
	R_IS_OWNER, R_WORKLIFE, R_AUTO_RELEASE, R_N
};
static const char *const reason_name[R_N] = {
	"", "PREEMPT", "vacate", "vacate -fast", "release", "shutdown", "shutdown -fast",
	"shutdown -peaceful", "drain -quick", "drain -fast", "IS_OWNER", "CLAIM_WORKLIFE",
	"auto-claim release"
};

/* Times and durations stay within this many seconds of the epoch. */
#define TIME_LIMIT ((int64_t)1 << 40)

/* ---- slots and machines ---- */

enum { K_STATIC, K_PARTITIONABLE, K_DYNAMIC };

struct slot {
	ca_ad *ad;
	int st, ac;
	int64_t clock;
	int kind;
	int64_t id, sub;	/* SlotID; DSlotId of a dynamic slot */
	bool deleted;
	bool bad;		/* not a slot we can run: written back unchanged */
	struct policy *pol;
	int loops;		/* transitions in the current settle */
};

struct ca_smachine {
	ca_startd *sd;
	struct slot **s;
	size_t n, cap;
	char **keys;
	size_t nkeys;
	bool settled;		/* evaluated at the slots' own clocks once */
};

/* What the evaluation records for --why and the timeline. */
struct rec {
	const char *name;
	const ca_expr *e;
	bool job;
	char *text;		/* "NAME = value" */
};

struct ca_startd {
	ca_config *cfg;
	ca_ctx cx;
	ca_arena arena;			/* expressions built once */
	struct policy **pols;
	size_t npols;
	int64_t match_timeout, killing_timeout, bench_time;
	bool backfill, auto_claim;
	char **xslot;			/* STARTD_SLOT_ATTRS / STARTD_VM_EXPRS names */
	size_t nxslot;
	bool xslot_vm;			/* vmN_X names (STARTD_VM_EXPRS) */
	ca_slog_fn log;
	void *log_arg;
	ca_sdiag_fn diag;
	void *diag_arg;
	const ca_name *n[A_N];
	const ca_name *tt[CA_S_NSTATES][CA_A_NACTS];	/* TotalTime<State><Activity> */
	char tt_spell[CA_S_NSTATES][CA_A_NACTS][40];
	ca_expr *req_normal, *req_false, *wrl;
	strbuf cause, tmp;
	int64_t clock_t;		/* ClockMin/ClockDay cache */
	int clock_min, clock_day;
	/* recording for --why and the timeline */
	struct rec *recs;
	size_t nrec, caprec;
	bool recording;
	bool dry;			/* --why: decide, do not act */
	strbuf would;			/* what a dry run would have done */
	char **reported;		/* STARTD_ATTRS problems already reported */
	size_t nreported;
	const char *lastname;		/* the knob evaluated last, for causes */
};

static void put_time(strbuf *sb, int64_t t);

/* ---- configuration: defaults and templates ---- */

/* HTCondor's defaults for what the configuration does not say, and the
 * macros the seeds' policy examples use without defining them. Loaded
 * before the user's files, so that any of them can be redefined, and so
 * that $(START) in a file means the START in force before it. */
static const char defaults_text[] =
"# the seeds' helper macros (3.5.10.1 Default Policy Settings)\n"
"MINUTE = 60\n"
"HOUR = (60 * $(MINUTE))\n"
"StateTimer = (time() - EnteredCurrentState)\n"
"ActivityTimer = (time() - EnteredCurrentActivity)\n"
"ActivationTimer = ifThenElse(JobStart =!= UNDEFINED, (time() - JobStart), 0)\n"
"LastCkpt = (time() - LastPeriodicCheckpoint)\n"
"NonCondorLoadAvg = (LoadAvg - CondorLoadAvg)\n"
"BackgroundLoad = 0.3\n"
"HighLoad = 0.5\n"
"StartIdleTime = 15 * $(MINUTE)\n"
"ContinueIdleTime = 5 * $(MINUTE)\n"
"MaxSuspendTime = 10 * $(MINUTE)\n"
"MaxVacateTime = 10 * $(MINUTE)\n"
"KeyboardBusy = (KeyboardIdle < $(MINUTE))\n"
"ConsoleBusy = (ConsoleIdle < $(MINUTE))\n"
"CPUIdle = ($(NonCondorLoadAvg) <= $(BackgroundLoad))\n"
"CPUBusy = ($(NonCondorLoadAvg) >= $(HighLoad))\n"
"KeyboardNotBusy = ($(KeyboardBusy) == False)\n"
"MachineBusy = ($(CPUBusy) || $(KeyboardBusy))\n"
"# used by the seeds' WANT_SUSPEND and WANT_VACATE, defined by none of them\n"
"SmallJob = (TARGET.ImageSize <= (15 * 1024))\n"
"JustCPU = ($(CPUBusy) && ($(KeyboardBusy) == False))\n"
"IsVanilla = (TARGET.JobUniverse =?= 5)\n"
"IsPVM = (TARGET.JobUniverse =?= 4)\n"
"IsVM = (TARGET.JobUniverse =?= 13)\n"
"BenchmarkTimer = (time() - LastBenchmark)\n"
"# the policy: preemption off, always willing to run jobs\n"
"START = True\n"
"IS_OWNER = False\n"
"WANT_SUSPEND = False\n"
"WANT_VACATE = True\n"
"SUSPEND = False\n"
"CONTINUE = True\n"
"PREEMPT = False\n"
"KILL = False\n"
"RANK = 0.0\n"
"MAXJOBRETIREMENTTIME = 0\n"
"MachineMaxVacateTime = $(MaxVacateTime)\n"
"CLAIM_WORKLIFE = -1\n"
"RunBenchmarks = False\n"
"ENABLE_BACKFILL = False\n"
"START_BACKFILL = False\n"
"EVICT_BACKFILL = False\n"
"MATCH_TIMEOUT = 120\n"
"KILLING_TIMEOUT = 30\n"
"STARTD_STEP_BENCHMARK_TIME = 10\n"
"MODIFY_REQUEST_EXPR_REQUESTCPUS = quantize(RequestCpus, {1})\n"
"MODIFY_REQUEST_EXPR_REQUESTMEMORY = quantize(RequestMemory, {128})\n"
"MODIFY_REQUEST_EXPR_REQUESTDISK = quantize(RequestDisk, {1024})\n"
"# the machine as --init sees it\n"
"NUM_CPUS = $(DETECTED_CPUS)\n"
"MEMORY = $(DETECTED_MEMORY)\n";

/* use POLICY : Desktop - the seeds' desktop behaviour: run jobs while the
 * owner is away, suspend them when the owner comes back, vacate them when
 * suspended too long, kill them when vacating takes too long. */
static const char tmpl_desktop[] =
"IS_OWNER = (START =?= False)\n"
"START = ( (KeyboardIdle > $(StartIdleTime)) && ( $(CPUIdle) || "
    "(State != \"Unclaimed\" && State != \"Owner\")) )\n"
"WANT_SUSPEND = ( $(SmallJob) || $(KeyboardNotBusy) || $(IsVanilla) )\n"
"WANT_VACATE = ( $(ActivationTimer) > 10 * $(MINUTE) || $(IsVanilla) )\n"
"SUSPEND = ( $(KeyboardBusy) || ( (CpuBusyTime > 2 * $(MINUTE)) && $(ActivationTimer) > 90 ) )\n"
"CONTINUE = ( $(CPUIdle) && ($(ActivityTimer) > 10) && (KeyboardIdle > $(ContinueIdleTime)) )\n"
"PREEMPT = ( ((Activity == \"Suspended\") && ($(ActivityTimer) > $(MaxSuspendTime))) || "
    "(SUSPEND && (WANT_SUSPEND == False)) )\n"
"KILL = $(ActivityTimer) > $(MaxVacateTime)\n"
"MAXJOBRETIREMENTTIME = 0\n"
"CLAIM_WORKLIFE =\n";

/* use POLICY : Always_Run_Jobs - a dedicated machine: jobs always start and
 * are never suspended, vacated or killed because of the machine. */
static const char tmpl_always[] =
"IS_OWNER = False\n"
"START = True\n"
"WANT_SUSPEND = False\n"
"WANT_VACATE = True\n"
"SUSPEND = False\n"
"CONTINUE = True\n"
"PREEMPT = False\n"
"KILL = False\n"
"MAXJOBRETIREMENTTIME = 2147483647\n"
"PREEMPTION_REQUIREMENTS = False\n"
"NEGOTIATOR_CONSIDER_PREEMPTION = False\n";

/* use FEATURE : StaticSlots / PartitionableSlot */
static const char tmpl_static[] =
"SLOT_TYPE_1 = cpus=1\n"
"SLOT_TYPE_1_PARTITIONABLE = False\n"
"NUM_SLOTS_TYPE_1 = $(NUM_CPUS)\n";
static const char tmpl_pslot[] =
"SLOT_TYPE_1 = 100%\n"
"SLOT_TYPE_1_PARTITIONABLE = True\n"
"NUM_SLOTS_TYPE_1 = 1\n";

void
ca_startd_config_prepare(ca_config *cfg)
{
	ca_diag err;

	ca_config_add_template(cfg, "POLICY", "Desktop", tmpl_desktop);
	ca_config_add_template(cfg, "POLICY", "UWCS_Desktop", tmpl_desktop);
	ca_config_add_template(cfg, "POLICY", "Always_Run_Jobs", tmpl_always);
	ca_config_add_template(cfg, "FEATURE", "StaticSlots", tmpl_static);
	ca_config_add_template(cfg, "FEATURE", "PartitionableSlot", tmpl_pslot);
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

/* Split a list of names ("a, b c") into a malloc'd array of strings. */
static size_t
split_names(const char *s, char ***out)
{
	char **v = NULL;
	size_t n = 0, cap = 0;

	while (*s) {
		while (*s && is_sep(*s))
			s++;
		const char *b = s;
		while (*s && !is_sep(*s))
			s++;
		if (s == b)
			break;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			v = ca_xreallocarray(v, cap, sizeof *v);
		}
		v[n++] = ca_xstrndup(b, (size_t)(s - b));
	}
	*out = v;
	return n;
}

static void
free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static const ca_name *
intern(const char *s)
{
	return ca_intern(s, strlen(s));
}

static void
diag(ca_startd *sd, const ca_diag *err)
{
	if (sd->diag)
		sd->diag(sd->diag_arg, err);
}

/* Report a problem with knob name once per run. */
static bool
first_report(ca_startd *sd, const char *name)
{
	for (size_t i = 0; i < sd->nreported; i++)
		if (strcasecmp(sd->reported[i], name) == 0)
			return false;
	sd->reported = ca_xreallocarray(sd->reported, sd->nreported + 1, sizeof *sd->reported);
	sd->reported[sd->nreported++] = ca_xstrndup(name, strlen(name));
	return true;
}

/* ---- the policy ---- */

static void
set_detected(ca_startd *sd, int64_t cores, int64_t memory)
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
	for (size_t i = 0; i < p->nsa; i++)
		free(p->sa[i].a);
	free(p->sa);
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
	set_detected(sd, cores, memory);
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

static struct policy *
policy_for(ca_startd *sd, int64_t cores, int64_t memory)
{
	ca_diag err;

	for (size_t i = 0; i < sd->npols; i++)
		if (sd->pols[i]->cores == cores && sd->pols[i]->memory == memory)
			return sd->pols[i];
	struct policy *p = policy_compile(sd, cores, memory, &err);
	if (p == NULL) {
		diag(sd, &err);
		return NULL;
	}
	sd->pols = ca_xreallocarray(sd->pols, sd->npols + 1, sizeof *sd->pols);
	sd->pols[sd->npols++] = p;
	return p;
}

/* STARTD_ATTRS (and the older STARTD_EXPRS, and SLOT<N>_STARTD_ATTRS) for
 * slot id: each name defined in the configuration (SLOT<N>_<name> first) is
 * published; a name the configuration does not define is left to the ad. */
static struct sattrs *
policy_sattrs(ca_startd *sd, struct policy *p, int64_t id)
{
	for (size_t i = 0; i < p->nsa; i++)
		if (p->sa[i].id == id)
			return &p->sa[i];
	p->sa = ca_xreallocarray(p->sa, p->nsa + 1, sizeof *p->sa);
	struct sattrs *sa = &p->sa[p->nsa++];
	memset(sa, 0, sizeof *sa);
	sa->id = id;

	strbuf list = STRBUF_INIT, knob = STRBUF_INIT;
	ca_diag err;
	static const char *const lists[] = { "STARTD_ATTRS", "STARTD_EXPRS", NULL };
	for (int k = 0; k < 3; k++) {
		strbuf_reset(&knob);
		if (k < 2)
			strbuf_adds(&knob, lists[k]);
		else
			strbuf_addf(&knob, "SLOT%lld_STARTD_ATTRS", (long long)id);
		set_detected(sd, p->cores, p->memory);
		if (ca_config_string(sd->cfg, knob.buf, &list, &err) <= 0)
			continue;
		char **names;
		size_t nn = split_names(list.buf, &names);
		for (size_t i = 0; i < nn; i++) {
			const ca_name *nm = intern(names[i]);
			bool dup = false;
			for (size_t j = 0; j < sa->n; j++)
				dup |= sa->a[j].name == nm;
			strbuf_reset(&knob);
			strbuf_addf(&knob, "SLOT%lld_%s", (long long)id, names[i]);
			const char *which = ca_config_defined(sd->cfg, knob.buf) ? knob.buf :
			    names[i];
			ca_expr *e = NULL;
			int rc = dup ? 0 : ca_config_expr(sd->cfg, which, &p->arena, 0, &e, &err);
			if (rc < 0 && first_report(sd, which)) {
				size_t l = strlen(err.msg);
				snprintf(err.msg + l, sizeof err.msg - l,
				    " (in %s, not published)", which);
				diag(sd, &err);
			}
			if (rc == 1) {
				sa->a = ca_xreallocarray(sa->a, sa->n + 1, sizeof *sa->a);
				sa->a[sa->n].name = nm;
				sa->a[sa->n].spell = ca_arena_strndup(&p->arena, names[i],
				    strlen(names[i]));
				sa->a[sa->n].e = e;
				sa->n++;
			}
		}
		free_names(names, nn);
	}
	strbuf_release(&list);
	strbuf_release(&knob);
	return sa;
}

/* A knob evaluated to an integer; def when undefined. -1 with err set when
 * it is not an integer. */
static int
knob_int(ca_startd *sd, const char *name, int64_t def, int64_t *out, ca_diag *err)
{
	*out = def;
	return ca_config_int(sd->cfg, name, out, err) < 0 ? -1 : 0;
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
		sd->n[i] = intern(aname[i]);
	for (int s = 0; s < CA_S_NSTATES; s++)
		for (int a = 0; a < CA_A_NACTS; a++) {
			snprintf(sd->tt_spell[s][a], sizeof sd->tt_spell[s][a], "TotalTime%s%s",
			    ca_sstate_name[s], ca_sact_name[a]);
			sd->tt[s][a] = intern(sd->tt_spell[s][a]);
		}
	sd->req_normal = ca_parse_expr(&sd->arena, "START && WithinResourceLimits", 29, 0, &perr);
	sd->req_false = ca_parse_expr(&sd->arena, "False", 5, 0, &perr);
	static const char wrl[] =
	    "(MY.Cpus > 0 && TARGET.RequestCpus <= MY.Cpus && MY.Memory > 0 && "
	    "TARGET.RequestMemory <= MY.Memory && MY.Disk > 0 && TARGET.RequestDisk <= MY.Disk)";
	sd->wrl = ca_parse_expr(&sd->arena, wrl, sizeof wrl - 1, 0, &perr);

	bool b = false;
	if (knob_int(sd, "MATCH_TIMEOUT", 120, &sd->match_timeout, err) < 0 ||
	    knob_int(sd, "KILLING_TIMEOUT", 30, &sd->killing_timeout, err) < 0 ||
	    knob_int(sd, "STARTD_STEP_BENCHMARK_TIME", 10, &sd->bench_time, err) < 0 ||
	    ca_config_bool(cfg, "ENABLE_BACKFILL", &b, err) < 0)
		goto fail;
	sd->backfill = b;
	static const struct {
		const char *knob;
		size_t off;
	} clamp[] = {
		{ "MATCH_TIMEOUT", offsetof(ca_startd, match_timeout) },
		{ "KILLING_TIMEOUT", offsetof(ca_startd, killing_timeout) },
		{ "STARTD_STEP_BENCHMARK_TIME", offsetof(ca_startd, bench_time) },
	};
	for (size_t i = 0; i < sizeof clamp / sizeof clamp[0]; i++) {
		int64_t *v = (int64_t *)((char *)sd + clamp[i].off);
		if (*v < (i == 2 ? 1 : 0) || *v > TIME_LIMIT) {
			if (!ca_config_locate(cfg, clamp[i].knob, err))
				err->file = "<config>";
			snprintf(err->msg, sizeof err->msg, "%s must be between %d and %lld seconds",
			    clamp[i].knob, i == 2 ? 1 : 0, (long long)TIME_LIMIT);
			goto fail;
		}
	}
	if (ca_config_string(cfg, "STARTD_SLOT_ATTRS", &sb, err) < 0)
		goto fail;
	if (sb.len > 0)
		sd->nxslot = split_names(sb.buf, &sd->xslot);
	else {
		if (ca_config_string(cfg, "STARTD_VM_EXPRS", &sb, err) < 0)
			goto fail;
		if (sb.len > 0) {
			sd->nxslot = split_names(sb.buf, &sd->xslot);
			sd->xslot_vm = true;
		}
	}
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
	for (size_t i = 0; i < sd->npols; i++)
		policy_free(sd->pols[i]);
	free(sd->pols);
	free_names(sd->xslot, sd->nxslot);
	free_names(sd->reported, sd->nreported);
	for (size_t i = 0; i < sd->nrec; i++)
		free(sd->recs[i].text);
	free(sd->recs);
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

/* ---- attributes of a slot ---- */


static ca_expr *
get_expr(const ca_ad *ad, const ca_name *n)
{
	ca_attr *at = ca_ad_find(ad, n);

	return at ? at->expr : NULL;
}

/* The literal value of attribute n, or UNDEFINED when it is missing or not
 * a literal. */
static ca_value
lit(const ca_ad *ad, const ca_name *n)
{
	ca_attr *at = ca_ad_find(ad, n);

	if (at == NULL || at->expr == NULL || at->expr->node != CA_N_LIT)
		return ca_undef();
	return at->expr->u.lit;
}

static bool
lit_int(const ca_ad *ad, const ca_name *n, int64_t *out)
{
	ca_value v = lit(ad, n);

	if (v.kind == CA_INT) {
		*out = v.u.i;
		return true;
	}
	if (v.kind == CA_REAL && isfinite(v.u.r) && fabs(v.u.r) < 9e15) {
		*out = (int64_t)v.u.r;
		return true;
	}
	if (v.kind == CA_BOOL) {
		*out = v.u.b;
		return true;
	}
	return false;
}

/* A time (or a duration) within +-TIME_LIMIT seconds, so that sums of two
 * of them cannot overflow; false for anything else. */
static bool
lit_time(const ca_ad *ad, const ca_name *n, int64_t *out)
{
	int64_t v;

	if (!lit_int(ad, n, &v) || v < -TIME_LIMIT || v > TIME_LIMIT)
		return false;
	*out = v;
	return true;
}

static bool
lit_true(const ca_ad *ad, const ca_name *n)
{
	return ca_value_truth(lit(ad, n)) == 1;
}

/* The text of a string literal attribute, or NULL. */
static const char *
lit_str(const ca_ad *ad, const ca_name *n)
{
	ca_value v = lit(ad, n);

	return v.kind == CA_STRING ? v.u.s : NULL;
}

/* Set attribute n of ad to the literal v. A literal already there is
 * updated in place (no memory is used for a number). spell: a static
 * string or NULL. */
static bool
setv(ca_ad *ad, const ca_name *n, const char *spell, ca_value v)
{
	ca_attr *at = ca_ad_find(ad, n);

	if (at != NULL && at->expr != NULL && at->expr->node == CA_N_LIT) {
		ca_expr *e = at->expr;
		if (ca_value_same(e->u.lit, v))
			return false;
		e->u.lit = ca_value_copy_into(ad->arena, v);
		ca_ad_set(ad, n, NULL, e);	/* refreshes the ad's copy of the value */
		return true;
	}
	ca_ad_set(ad, n, spell, ca_expr_lit(ad->arena, v));
	return true;
}

static void
set_int(ca_startd *sd, struct slot *s, int a, int64_t i)
{
	setv(s->ad, sd->n[a], aname[a], ca_int(i));
}

static void
set_real(ca_startd *sd, struct slot *s, int a, double r)
{
	setv(s->ad, sd->n[a], aname[a], ca_real(r));
}

static void
set_bool(ca_startd *sd, struct slot *s, int a, bool b)
{
	setv(s->ad, sd->n[a], aname[a], ca_bool(b));
}

static void
set_str(ca_startd *sd, struct slot *s, int a, const char *str)
{
	setv(s->ad, sd->n[a], aname[a], ca_str(str, (uint32_t)strlen(str)));
}

static void
del(ca_startd *sd, struct slot *s, int a)
{
	ca_ad_delete(s->ad, sd->n[a]);
}

static bool
has(ca_startd *sd, const struct slot *s, int a)
{
	return ca_ad_find(s->ad, sd->n[a]) != NULL;
}

/* Add d to a numeric literal attribute (creating it when create is set). */
static void
add_num(ca_ad *ad, const ca_name *n, const char *spell, int64_t d, bool create)
{
	ca_value v = lit(ad, n);
	int64_t sum;

	if (v.kind == CA_INT) {
		if (__builtin_add_overflow(v.u.i, d, &sum))
			sum = d > 0 ? INT64_MAX : INT64_MIN;
		setv(ad, n, spell, ca_int(sum));
	} else if (v.kind == CA_REAL)
		setv(ad, n, spell, ca_real(v.u.r + (double)d));
	else if (create && ca_ad_find(ad, n) == NULL)
		setv(ad, n, spell, ca_int(d));
}

/* The nested ad held by attribute n (Job, PreemptingJob), or NULL. */
static ca_ad *
nested(const ca_ad *ad, const ca_name *n)
{
	ca_expr *e = get_expr(ad, n);

	while (e != NULL && e->node == CA_N_PAREN)
		e = e->u.k.a;
	return e != NULL && e->node == CA_N_AD ? e->u.ad : NULL;
}

static ca_ad *
job_of(ca_startd *sd, const struct slot *s)
{
	return nested(s->ad, sd->n[A_JOB]);
}

static bool
job_active(ca_startd *sd, const struct slot *s)
{
	return has(sd, s, A_JOBSTART);
}

static const char *
slot_name(ca_startd *sd, const struct slot *s)
{
	const char *n = lit_str(s->ad, sd->n[A_NAME]);

	return n ? n : "(no name)";
}

static enum reason
eviction(ca_startd *sd, const struct slot *s)
{
	const char *r = lit_str(s->ad, sd->n[A_EVICTION]);

	if (r != NULL)
		for (int i = 1; i < R_N; i++)
			if (strcmp(r, reason_name[i]) == 0)
				return (enum reason)i;
	return R_NONE;
}

static void
set_eviction(ca_startd *sd, struct slot *s, enum reason r)
{
	set_str(sd, s, A_EVICTION, reason_name[r]);
}

static bool
draining(ca_startd *sd, const struct slot *s)
{
	return lit_true(s->ad, sd->n[A_DRAINING]);
}

static const char *
shutdown_mode(ca_startd *sd, const struct slot *s)
{
	return lit_str(s->ad, sd->n[A_SHUTDOWN]);
}

/* A preempting match is waiting (claimed or not). */
static bool
pmatch(ca_startd *sd, const struct slot *s)
{
	return has(sd, s, A_PMATCHTIME) || has(sd, s, A_PCLAIMTIME);
}

/* The preempting claim has been accepted. */
static bool
pclaim(ca_startd *sd, const struct slot *s)
{
	return has(sd, s, A_PCLAIMTIME);
}

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

static void
publish_clock(ca_startd *sd, struct slot *s)
{
	int min, day;

	clock_fields(sd, s->clock, &min, &day);
	set_int(sd, s, A_MYCURRENTTIME, s->clock);
	set_int(sd, s, A_CLOCKMIN, min);
	set_int(sd, s, A_CLOCKDAY, day);
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
	add_num(ad, sd->tt[s->st][s->ac], sd->tt_spell[s->st][s->ac], dt, true);
	add_num(ad, sd->n[A_KBDIDLE], aname[A_KBDIDLE], dt, false);
	add_num(ad, sd->n[A_CONSIDLE], aname[A_CONSIDLE], dt, false);
	if (s->st == CA_S_CLAIMED && job_active(sd, s)) {
		if (s->ac == CA_A_BUSY || s->ac == CA_A_RETIRING) {
			add_num(ad, sd->n[A_TJOBRUN], aname[A_TJOBRUN], dt, true);
			add_num(ad, sd->n[A_TCLAIMRUN], aname[A_TCLAIMRUN], dt, true);
		} else if (s->ac == CA_A_SUSPENDED) {
			add_num(ad, sd->n[A_TJOBSUSP], aname[A_TJOBSUSP], dt, true);
			add_num(ad, sd->n[A_TCLAIMSUSP], aname[A_TCLAIMSUSP], dt, true);
		}
	}
	if (lit_true(ad, sd->n[A_CPUISBUSY]))
		add_num(ad, sd->n[A_CPUBUSYTIME], aname[A_CPUBUSYTIME], dt, true);
	s->clock = t;
	publish_clock(sd, s);
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
static void
publish_load(ca_startd *sd, struct slot *s)
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
static void
publish_requirements(ca_startd *sd, struct slot *s)
{
	bool off = s->st == CA_S_MATCHED || s->st == CA_S_PREEMPTING ||
	    (s->st == CA_S_CLAIMED && pmatch(sd, s)) || draining(sd, s) ||
	    shutdown_mode(sd, s) != NULL;
	ca_expr *want = off ? sd->req_false : sd->req_normal;

	if (!ca_expr_same(get_expr(s->ad, sd->n[A_REQUIREMENTS]), want, 0))
		ca_ad_set(s->ad, sd->n[A_REQUIREMENTS], aname[A_REQUIREMENTS],
		    ca_expr_copy(s->ad->arena, want));
}

/* Put expression e under name in the slot unless the same is there. */
static void
publish_expr(struct slot *s, const ca_name *n, const char *spell, const ca_expr *e)
{
	if (!ca_expr_same(get_expr(s->ad, n), e, 0))
		ca_ad_set(s->ad, n, ca_arena_strndup(s->ad->arena, spell, strlen(spell)),
		    ca_expr_copy(s->ad->arena, e));
}

/* The policy expressions and STARTD_ATTRS, as the configuration has them. */
static void
publish_policy(ca_startd *sd, struct slot *s)
{
	struct policy *p = s->pol;

	for (int i = 0; i < PX_N; i++) {
		bool pub = (pxinfo[i].flags & PUB) ||
		    (sd->backfill && (pxinfo[i].flags & PUB_BACKFILL));
		if (!pub)
			continue;
		if (p->x[i] != NULL)
			publish_expr(s, p->xname[i], pxinfo[i].attr, p->x[i]);
		else if (get_expr(s->ad, p->xname[i]) != NULL)
			ca_ad_delete(s->ad, p->xname[i]);
	}
	for (int i = 0; i < PX_NVANILLA; i++) {
		if (p->vx[i] != NULL)
			publish_expr(s, p->vname[i], vanilla_knob[i], p->vx[i]);
		else if (get_expr(s->ad, p->vname[i]) != NULL)
			ca_ad_delete(s->ad, p->vname[i]);
	}
	if (!ca_expr_same(get_expr(s->ad, sd->n[A_WRL]), sd->wrl, 0))
		ca_ad_set(s->ad, sd->n[A_WRL], aname[A_WRL], ca_expr_copy(s->ad->arena, sd->wrl));
	struct sattrs *sa = policy_sattrs(sd, p, s->id);
	for (size_t i = 0; i < sa->n; i++)
		publish_expr(s, sa->a[i].name, sa->a[i].spell, sa->a[i].e);
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

static void
record(ca_startd *sd, const char *name, const ca_expr *e, ca_value v, bool job)
{
	if (!sd->recording)
		return;
	for (size_t i = 0; i < sd->nrec; i++)
		if (strcmp(sd->recs[i].name, name) == 0 && sd->recs[i].job == job)
			return;
	if (sd->nrec == sd->caprec) {
		sd->caprec = sd->caprec ? sd->caprec * 2 : 16;
		sd->recs = ca_xreallocarray(sd->recs, sd->caprec, sizeof *sd->recs);
	}
	strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s = ", name);
	if (e == NULL)
		strbuf_adds(&sb, "(not defined)");
	else
		ca_print_value(&sb, v, 0);
	sd->recs[sd->nrec++] = (struct rec){ name, e, job, strbuf_detach(&sb, NULL) };
}

static void
clear_records(ca_startd *sd)
{
	for (size_t i = 0; i < sd->nrec; i++)
		free(sd->recs[i].text);
	sd->nrec = 0;
}

static ca_value
peval(ca_startd *sd, struct slot *s, int px, bool with_job)
{
	const ca_ad *job = with_job ? job_of(sd, s) : NULL;
	const char *name;
	const ca_expr *e = pick(sd, s, px, job, &name);

	sd->cx.now = s->clock;
	ca_value v = e ? ca_eval_expr(&sd->cx, e, s->ad, job) : ca_undef();
	record(sd, name, e, v, job != NULL);
	sd->lastname = name;
	return v;
}

static int
ptruth(ca_startd *sd, struct slot *s, int px, bool with_job)
{
	return ca_value_truth(peval(sd, s, px, with_job));
}

static bool
num_of(ca_value v, double *out)
{
	switch (v.kind) {
	case CA_INT:
		*out = (double)v.u.i;
		return true;
	case CA_REAL:
	case CA_RELTIME:
		if (isnan(v.u.r))
			return false;
		*out = v.u.r;
		return true;
	case CA_BOOL:
		*out = v.u.b;
		return true;
	default:
		return false;
	}
}

/* A number; def when undefined or not a number. */
static double
pnum(ca_startd *sd, struct slot *s, int px, bool with_job, double def)
{
	double d;

	return num_of(peval(sd, s, px, with_job), &d) ? d : def;
}

/* A job attribute evaluated in the job (job as MY, the slot as TARGET). */
static bool
job_num(ca_startd *sd, struct slot *s, const ca_ad *job, int a, double *out)
{
	sd->cx.now = s->clock;
	return num_of(ca_eval_attr(&sd->cx, job, s->ad, aname[a]), out);
}

/* ---- causes and the log ---- */

static const char *
causef(ca_startd *sd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static const char *
causef(ca_startd *sd, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&sd->cause);
	va_start(ap, fmt);
	strbuf_vaddf(&sd->cause, fmt, ap);
	va_end(ap);
	return sd->cause.buf;
}

/* "NAME = value" for the knob peval evaluated last. */
static const char *
cause_val(ca_startd *sd, ca_value v)
{
	strbuf_reset(&sd->cause);
	strbuf_addf(&sd->cause, "%s = ", sd->lastname);
	ca_print_value(&sd->cause, v, 0);
	return sd->cause.buf;
}

static void
emit(ca_startd *sd, struct slot *s, int fst, int fac, int num, const char *cause)
{
	if (sd->log == NULL || sd->dry)
		return;
	ca_slog r = { s->clock, slot_name(sd, s), fst, fac, s->st, s->ac, num, cause };
	sd->log(sd->log_arg, &r);
}

static void
note(ca_startd *sd, struct slot *s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
note(ca_startd *sd, struct slot *s, const char *fmt, ...)
{
	va_list ap;
	strbuf sb = STRBUF_INIT;

	if (sd->log == NULL || sd->dry)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	emit(sd, s, s->st, s->ac, 0, sb.buf);
	strbuf_release(&sb);
}

/* In a dry run (--why), say what would happen and do nothing. */
static bool
act(ca_startd *sd, int st, int ac, int num, const char *cause)
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

/* ---- transitions ---- */

static void
go(ca_startd *sd, struct slot *s, int st, int ac, int num, const char *cause)
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
	publish_load(sd, s);
	publish_requirements(sd, s);
	s->loops++;
	emit(sd, s, fst, fac, num, cause);
}

/* "C.P" of a job: the event's JobId, else the job's ClusterId.ProcId. */
static const char *
job_id(ca_startd *sd, const ca_ad *job, const ca_ad *ev, char *buf, size_t len)
{
	const char *id = ev ? lit_str(ev, sd->n[A_JOBID]) : NULL;
	int64_t c, p;

	if (id != NULL)
		return id;
	if (job != NULL && lit_int(job, sd->n[A_CLUSTERID], &c) &&
	    lit_int(job, sd->n[A_PROCID], &p)) {
		snprintf(buf, len, "%lld.%lld", (long long)c, (long long)p);
		return buf;
	}
	return NULL;
}

/* Who the claim (or, pre, the preempting claim) is for: RemoteUser (the
 * match's Submitter, else the job's User, else its Owner), RemoteOwner,
 * AccountingGroup, JobId, RemoteUserPrio (from the match record). */
static void
set_identity(ca_startd *sd, struct slot *s, const ca_ad *job, const ca_ad *ev, bool pre)
{
	const char *user = ev ? lit_str(ev, sd->n[A_SUBMITTER]) : NULL;
	const char *owner = job ? lit_str(job, sd->n[A_OWNER]) : NULL;
	const char *group = job ? lit_str(job, sd->n[A_ACCTGROUP]) : NULL;
	char buf[64];
	const char *id = job_id(sd, job, ev, buf, sizeof buf);
	double prio;
	bool has_prio = ev && num_of(lit(ev, sd->n[A_REMOTEUSERPRIO]), &prio);

	if (user == NULL && job != NULL)
		user = lit_str(job, sd->n[A_USER]);
	if (user == NULL)
		user = owner;
	if (owner == NULL)
		owner = user;
	int a_user = pre ? A_PUSER : A_REMOTEUSER, a_owner = pre ? A_POWNER : A_REMOTEOWNER;
	int a_group = pre ? A_PGROUP : A_ACCTGROUP, a_id = pre ? A_PJOBID : A_JOBID;
	int a_prio = pre ? A_PUSERPRIO : A_REMOTEUSERPRIO;
	if (user)
		set_str(sd, s, a_user, user);
	else
		del(sd, s, a_user);
	if (owner)
		set_str(sd, s, a_owner, owner);
	else
		del(sd, s, a_owner);
	if (group)
		set_str(sd, s, a_group, group);
	else
		del(sd, s, a_group);
	if (id)
		set_str(sd, s, a_id, id);
	else
		del(sd, s, a_id);
	if (has_prio)
		set_real(sd, s, a_prio, prio);
	else if (ev != NULL)
		del(sd, s, a_prio);
	if (!pre && job != NULL) {
		const char *g = lit_str(job, sd->n[A_GLOBALJOBID]);
		if (g)
			set_str(sd, s, A_GLOBALJOBID, g);
		else
			del(sd, s, A_GLOBALJOBID);
	}
}

/* The job ad carried by an event (Job = [ ... ]), or NULL. */
static const ca_expr *
event_job_expr(ca_startd *sd, const ca_ad *ev)
{
	const ca_expr *e = ev ? get_expr(ev, sd->n[A_JOB]) : NULL;

	while (e != NULL && e->node == CA_N_PAREN)
		e = e->u.k.a;
	return e != NULL && e->node == CA_N_AD ? e : NULL;
}

static void
store_job(ca_startd *sd, struct slot *s, int a, const ca_expr *e)
{
	ca_ad_set(s->ad, sd->n[a], aname[a], ca_expr_copy(s->ad->arena, e));
}

/* The slot's RANK of job, as a number (failure: 0.0). */
static double
slot_rank(ca_startd *sd, struct slot *s, const ca_ad *job)
{
	const ca_expr *e = s->pol->x[PX_RANK];
	double d;

	if (e == NULL)
		return 0.0;
	sd->cx.now = s->clock;
	return num_of(ca_eval_expr(&sd->cx, e, s->ad, job), &d) ? d : 0.0;
}

/* Is the slot willing to run job (START && WithinResourceLimits against
 * it)? When not, *why says what failed. */
static bool
willing(ca_startd *sd, struct slot *s, const ca_ad *job, const char **why)
{
	sd->cx.now = s->clock;
	ca_value v = s->pol->x[PX_START] ? ca_eval_expr(&sd->cx, s->pol->x[PX_START], s->ad, job) :
	    ca_bool(true);
	if (ca_value_truth(v) != 1) {
		strbuf_reset(&sd->tmp);
		strbuf_adds(&sd->tmp, "START = ");
		ca_print_value(&sd->tmp, v, 0);
		strbuf_adds(&sd->tmp, " for this job");
		*why = sd->tmp.buf;
		return false;
	}
	v = ca_eval_expr(&sd->cx, sd->wrl, s->ad, job);
	if (ca_value_truth(v) != 1) {
		strbuf_reset(&sd->tmp);
		strbuf_adds(&sd->tmp, "WithinResourceLimits = ");
		ca_print_value(&sd->tmp, v, 0);
		strbuf_adds(&sd->tmp, " for this job");
		*why = sd->tmp.buf;
		return false;
	}
	return true;
}

/* A claim begins: its rank and clocks. */
static void
begin_claim(ca_startd *sd, struct slot *s)
{
	set_real(sd, s, A_CURRENTRANK, slot_rank(sd, s, job_of(sd, s)));
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
		A_TJOBSUSP, A_TCLAIMRUN, A_TCLAIMSUSP, A_RETLEFT, A_EVICTION
	};

	for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++)
		del(sd, s, gone[i]);
	set_real(sd, s, A_CURRENTRANK, 0.0);
}

static void
drop_preempting(ca_startd *sd, struct slot *s)
{
	static const int gone[] = {
		A_PJOB, A_PJOBID, A_PRANK, A_PUSER, A_POWNER, A_PGROUP, A_PUSERPRIO,
		A_PMATCHTIME, A_PCLAIMTIME
	};

	for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++)
		del(sd, s, gone[i]);
	publish_requirements(sd, s);
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
			ca_ad_set(s->ad, sd->n[to[i]], aname[to[i]], e);
	}
	ca_ad *job = job_of(sd, s);
	const char *g = job ? lit_str(job, sd->n[A_GLOBALJOBID]) : NULL;
	if (g)
		set_str(sd, s, A_GLOBALJOBID, g);
	begin_claim(sd, s);
	drop_preempting(sd, s);
}

/* A job starts on a Claimed/Idle slot (11); e: the job ad the shadow sent,
 * or NULL for the claim's own. */
static void
activate(ca_startd *sd, struct slot *s, const ca_expr *e, const ca_ad *ev, const char *cause)
{
	if (e != NULL) {
		store_job(sd, s, A_JOB, e);
		char buf[64];
		const char *id = job_id(sd, job_of(sd, s), ev, buf, sizeof buf);
		if (id)
			set_str(sd, s, A_JOBID, id);
	}
	set_int(sd, s, A_JOBSTART, s->clock);
	add_num(s->ad, sd->n[A_CLAIMJOBSTARTS], aname[A_CLAIMJOBSTARTS], 1, true);
	set_int(sd, s, A_TJOBRUN, 0);
	set_int(sd, s, A_TJOBSUSP, 0);
	go(sd, s, CA_S_CLAIMED, CA_A_BUSY, 11, cause);
}

/* ---- retirement and vacating ---- */

/* Seconds of retirement left for the running job: MaxJobRetirementTime
 * (the job's own only if smaller), minus the time it has run (suspension
 * does not count); infinite in a peaceful shutdown, 0 in a quick drain. */
static double
retirement_left(ca_startd *sd, struct slot *s)
{
	if (!job_active(sd, s))
		return 0.0;
	const ca_ad *job = job_of(sd, s);
	double mjrt = pnum(sd, s, PX_MJRT, true, 0.0), jm, ran = 0.0;
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
	double mmvt = pnum(sd, s, PX_MMVT, true, 600.0), jm;
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
	*left = retirement_left(sd, s);
	return *left <= 0.0 || *left <= vacate_time(sd, s, *left);
}

/* Claimed -> Preempting: Killing when asked to kill, or when PREEMPT fired
 * and WANT_VACATE is false; else Vacating. */
static void
to_preempting(ca_startd *sd, struct slot *s, int num, bool kill, const char *cause)
{
	int ac = CA_A_VACATING;

	if (job_active(sd, s)) {
		if (kill)
			ac = CA_A_KILLING;
		else if (eviction(sd, s) == R_PREEMPT && ptruth(sd, s, PX_WANT_VACATE, true) == 0)
			ac = CA_A_KILLING;
	}
	go(sd, s, CA_S_PREEMPTING, ac, num, cause);
}

/* The starter is gone: back to Owner (22 from Vacating, 25 from Killing),
 * or to Claimed/Idle for the preempting claim (23, 24). */
static void
leave_preempting(ca_startd *sd, struct slot *s, const char *why)
{
	bool vac = s->ac == CA_A_VACATING;
	bool toclaim = pclaim(sd, s) && !draining(sd, s) && shutdown_mode(sd, s) == NULL &&
	    ptruth(sd, s, PX_IS_OWNER, false) != 1;
	strbuf c = STRBUF_INIT;

	strbuf_adds(&c, why);
	end_claim(sd, s);
	if (toclaim) {
		const char *u = lit_str(s->ad, sd->n[A_PUSER]);
		strbuf_addf(&c, "; the preempting claim%s%s takes the slot", u ? " of " : "",
		    u ? u : "");
		promote(sd, s);
		go(sd, s, CA_S_CLAIMED, CA_A_IDLE, vac ? 23 : 24, c.buf);
	} else {
		drop_preempting(sd, s);
		go(sd, s, CA_S_OWNER, CA_A_IDLE, vac ? 22 : 25, c.buf);
	}
	strbuf_release(&c);
}

/* ---- machines ---- */

static bool
live(const struct slot *s)
{
	return !s->deleted && !s->bad;
}

static struct slot *
find_slot(ca_smachine *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (live(m->s[i]) && strcasecmp(slot_name(m->sd, m->s[i]), name) == 0)
			return m->s[i];
	return NULL;
}

static bool
machine_named(const ca_smachine *m, const char *name)
{
	for (size_t i = 0; i < m->nkeys; i++)
		if (strcasecmp(m->keys[i], name) == 0)
			return true;
	return false;
}

static struct slot *
pslot_of(ca_smachine *m, const struct slot *d)
{
	for (size_t i = 0; i < m->n; i++)
		if (live(m->s[i]) && m->s[i]->kind == K_PARTITIONABLE && m->s[i]->id == d->id)
			return m->s[i];
	return NULL;
}

/* A dynamic slot back in Owner or Unclaimed goes away; its resources go
 * back to its partitionable slot. */
static void
delete_dslot(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	struct slot *p = pslot_of(m, s);
	int64_t c = 0, mem = 0, d = 0;

	lit_int(s->ad, sd->n[A_CPUS], &c);
	lit_int(s->ad, sd->n[A_MEMORY], &mem);
	lit_int(s->ad, sd->n[A_DISK], &d);
	if (p != NULL) {
		add_num(p->ad, sd->n[A_CPUS], aname[A_CPUS], c, true);
		add_num(p->ad, sd->n[A_MEMORY], aname[A_MEMORY], mem, true);
		add_num(p->ad, sd->n[A_DISK], aname[A_DISK], d, true);
		note(sd, s, "dynamic slot deleted: Cpus %lld, Memory %lld, Disk %lld go back "
		    "to %s", (long long)c, (long long)mem, (long long)d, slot_name(sd, p));
	} else
		note(sd, s, "dynamic slot deleted (its partitionable slot is not in this "
		    "stream: Cpus %lld, Memory %lld, Disk %lld are not given back)",
		    (long long)c, (long long)mem, (long long)d);
	s->deleted = true;
}

/* A request value of the job after MODIFY_REQUEST_EXPR_<X>, rounded up. */
static bool
request(ca_startd *sd, struct slot *p, const ca_ad *job, int px, int a, int64_t *raw,
    int64_t *mod)
{
	double d;

	sd->cx.now = p->clock;
	if (!num_of(ca_eval_attr(&sd->cx, job, p->ad, aname[a]), &d))
		return false;
	*raw = (int64_t)ceil(d);
	*mod = *raw;
	if (p->pol->x[px] != NULL &&
	    num_of(ca_eval_expr(&sd->cx, p->pol->x[px], job, p->ad), &d) && d >= 0 && d < 9e15)
		*mod = (int64_t)ceil(d);
	return true;
}

/* Carve a dynamic slot for the job of event ev out of partitionable slot p.
 * NULL (with *why) when p cannot run it. */
static struct slot *
carve(ca_startd *sd, ca_smachine *m, struct slot *p, const ca_expr *je, const ca_sevent *ev,
    const char **why)
{
	const ca_ad *job = je->u.ad;
	int64_t rc = 1, mc = 1, rm, mm, rd, md, fc = 0, fm = 0, fd = 0;

	if (p->st != CA_S_UNCLAIMED && p->st != CA_S_OWNER) {
		*why = causef(sd, "the partitionable slot is %s", ca_sstate_name[p->st]);
		return NULL;
	}
	if (draining(sd, p) || shutdown_mode(sd, p) != NULL) {
		*why = draining(sd, p) ? "the machine is draining" :
		    "the machine is shutting down";
		return NULL;
	}
	if (ptruth(sd, p, PX_IS_OWNER, false) == 1) {
		*why = "IS_OWNER = true";
		return NULL;
	}
	if (!willing(sd, p, job, why))
		return NULL;
	if (!request(sd, p, job, PX_MODCPUS, A_REQCPUS, &rc, &mc))
		rc = mc = 1;
	if (!request(sd, p, job, PX_MODMEM, A_REQMEM, &rm, &mm)) {
		*why = "the job has no RequestMemory";
		return NULL;
	}
	if (!request(sd, p, job, PX_MODDISK, A_REQDISK, &rd, &md)) {
		*why = "the job has no RequestDisk";
		return NULL;
	}
	/* a negative request would give the partitionable slot resources
	 * back: no slot is carved (negotiate matches no such job either) */
	if (rc < 0 || rm < 0 || rd < 0) {
		*why = causef(sd, "the job asks for a negative %s (%lld)", rc < 0 ? "RequestCpus" :
		    rm < 0 ? "RequestMemory" : "RequestDisk",
		    (long long)(rc < 0 ? rc : rm < 0 ? rm : rd));
		return NULL;
	}
	lit_int(p->ad, sd->n[A_CPUS], &fc);
	lit_int(p->ad, sd->n[A_MEMORY], &fm);
	lit_int(p->ad, sd->n[A_DISK], &fd);
	if (mc < 1)
		mc = 1;
	if (mm < 1)
		mm = 1;
	if (!(mc <= fc && mm <= fm && md <= fd)) {
		mc = rc < 1 ? 1 : rc;
		mm = rm < 1 ? 1 : rm;
		md = rd;
		if (!(mc <= fc && mm <= fm && md <= fd)) {
			*why = causef(sd, "the request (Cpus %lld, Memory %lld, Disk %lld) does "
			    "not fit what is left (Cpus %lld, Memory %lld, Disk %lld)",
			    (long long)mc, (long long)mm, (long long)md, (long long)fc,
			    (long long)fm, (long long)fd);
			return NULL;
		}
	}

	/* the lowest free sub-id */
	int64_t sub = 1;
	for (bool again = true; again;) {
		again = false;
		for (size_t i = 0; i < m->n; i++)
			if (live(m->s[i]) && m->s[i]->kind == K_DYNAMIC && m->s[i]->id == p->id &&
			    m->s[i]->sub == sub) {
				sub++;
				again = true;
			}
	}
	struct slot *d = ca_xcalloc(1, sizeof *d);
	d->ad = ca_ad_copy(p->ad);
	d->kind = K_DYNAMIC;
	d->id = p->id;
	d->sub = sub;
	d->clock = p->clock;
	d->pol = p->pol;
	d->st = CA_S_UNCLAIMED;
	d->ac = CA_A_IDLE;
	for (int st = 0; st < CA_S_NSTATES; st++)
		for (int ac = 0; ac < CA_A_NACTS; ac++)
			ca_ad_delete(d->ad, sd->tt[st][ac]);
	del(sd, d, A_PSLOT);
	del(sd, d, A_BFDEST);
	const char *pn = slot_name(sd, p), *at = strchr(pn, '@');
	strbuf_reset(&sd->tmp);
	strbuf_add(&sd->tmp, pn, at ? (size_t)(at - pn) : strlen(pn));
	strbuf_addf(&sd->tmp, "_%lld%s", (long long)sub, at ? at : "");
	set_str(sd, d, A_NAME, sd->tmp.buf);
	set_str(sd, d, A_SLOTTYPE, "Dynamic");
	set_bool(sd, d, A_DSLOT, true);
	set_int(sd, d, A_DSLOTID, sub);
	set_int(sd, d, A_CPUS, mc);
	set_int(sd, d, A_MEMORY, mm);
	set_int(sd, d, A_DISK, md);
	set_int(sd, d, A_TSCPUS, mc);
	set_int(sd, d, A_TSMEMORY, mm);
	set_int(sd, d, A_TSDISK, md);
	set_str(sd, d, A_STATE, ca_sstate_name[d->st]);
	set_str(sd, d, A_ACTIVITY, ca_sact_name[d->ac]);
	set_int(sd, d, A_ECS, d->clock);
	set_int(sd, d, A_ECA, d->clock);
	set_real(sd, d, A_CONDORLOAD, 0.0);
	set_real(sd, d, A_CURRENTRANK, 0.0);
	publish_requirements(sd, d);
	add_num(p->ad, sd->n[A_CPUS], aname[A_CPUS], -mc, true);
	add_num(p->ad, sd->n[A_MEMORY], aname[A_MEMORY], -mm, true);
	add_num(p->ad, sd->n[A_DISK], aname[A_DISK], -md, true);
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 4;
		m->s = ca_xreallocarray(m->s, m->cap, sizeof *m->s);
	}
	m->s[m->n++] = d;
	char buf[64];
	const char *id = job_id(sd, job, ev->ad, buf, sizeof buf);
	note(sd, d, "dynamic slot created from %s for job %s: Cpus %lld, Memory %lld, Disk %lld",
	    pn, id ? id : "(no id)", (long long)mc, (long long)mm, (long long)md);
	return d;
}

/* ---- the policy, state by state ---- */

static bool
eval_owner(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	if (s->kind == K_DYNAMIC) {
		if (!act(sd, -1, 0, 0, "delete the dynamic slot"))
			return false;
		delete_dslot(sd, m, s);
		return true;
	}
	if (shutdown_mode(sd, s) != NULL)
		return false;
	if (draining(sd, s)) {
		if (!act(sd, CA_S_DRAINED, CA_A_RETIRING, 36, "draining"))
			return false;
		go(sd, s, CA_S_DRAINED, CA_A_RETIRING, 36, "draining");
		return true;
	}
	ca_value v = peval(sd, s, PX_IS_OWNER, false);
	if (ca_value_truth(v) != 1) {
		const char *c = cause_val(sd, v);
		if (!act(sd, CA_S_UNCLAIMED, CA_A_IDLE, 1, c))
			return false;
		go(sd, s, CA_S_UNCLAIMED, CA_A_IDLE, 1, c);
		return true;
	}
	return false;
}

static bool
eval_unclaimed(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	const char *c = NULL;
	int to = -1, num = 0, toac = CA_A_IDLE;
	ca_value v;

	if (s->kind == K_DYNAMIC) {
		if (!act(sd, -1, 0, 0, "delete the dynamic slot"))
			return false;
		delete_dslot(sd, m, s);
		return true;
	}
	if (shutdown_mode(sd, s) != NULL) {
		to = CA_S_OWNER, num = 2, c = "shutdown";
	} else if (draining(sd, s)) {
		to = CA_S_DRAINED, toac = CA_A_RETIRING, num = 37, c = "draining";
	} else if (ca_value_truth(v = peval(sd, s, PX_IS_OWNER, false)) == 1) {
		to = CA_S_OWNER, num = 2, c = cause_val(sd, v);
	} else if (s->ac == CA_A_IDLE && sd->backfill &&
	    ca_value_truth(v = peval(sd, s, PX_START_BACKFILL, false)) == 1) {
		to = CA_S_BACKFILL, num = 7, c = cause_val(sd, v);
	} else if (s->ac == CA_A_IDLE &&
	    ca_value_truth(v = peval(sd, s, PX_RUNBENCH, false)) == 1) {
		to = CA_S_UNCLAIMED, toac = CA_A_BENCHMARKING, num = 3, c = cause_val(sd, v);
	}
	if (to < 0 || !act(sd, to, toac, num, c))
		return false;
	go(sd, s, to, toac, num, c);
	return true;
}

/* A Matched slot's claim fails or is given up: back to Owner (8). */
static void
unmatch(ca_startd *sd, struct slot *s, const char *cause)
{
	end_claim(sd, s);
	go(sd, s, CA_S_OWNER, CA_A_IDLE, 8, cause);
}

/* The schedd claims a Matched slot: Claimed/Idle (9), or Owner (8) when
 * the claim fails. */
static void
claim_matched(ca_startd *sd, struct slot *s, const char *how)
{
	const ca_ad *job = job_of(sd, s);
	const char *why;
	strbuf c = STRBUF_INIT;

	if (job == NULL) {
		strbuf_addf(&c, "%s: the claim fails (no job ad)", how);
		unmatch(sd, s, c.buf);
	} else if (ptruth(sd, s, PX_IS_OWNER, false) == 1) {
		strbuf_addf(&c, "%s: the claim fails (IS_OWNER = true)", how);
		unmatch(sd, s, c.buf);
	} else if (!willing(sd, s, job, &why)) {
		strbuf_addf(&c, "%s: the claim fails (%s)", how, why);
		unmatch(sd, s, c.buf);
	} else {
		begin_claim(sd, s);
		go(sd, s, CA_S_CLAIMED, CA_A_IDLE, 9, how);
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
	else if (ca_value_truth(v = peval(sd, s, PX_IS_OWNER, false)) == 1)
		c = cause_val(sd, v);
	if (c != NULL) {
		if (!act(sd, CA_S_OWNER, CA_A_IDLE, 8, c))
			return false;
		unmatch(sd, s, c);
		return true;
	}
	if (sd->auto_claim) {
		if (!act(sd, CA_S_CLAIMED, CA_A_IDLE, 9, "auto-claim"))
			return false;
		claim_matched(sd, s, "auto-claim: the schedd claims the match");
		return true;
	}
	return false;
}

/* The schedd of a preempting match claims it: accepted when the slot's
 * RANK of its job is at least CurrentRank (higher: RANK preemption; equal:
 * the negotiator's priority preemption). */
static void
claim_preempting(ca_startd *sd, struct slot *s, const char *how)
{
	ca_ad *job = nested(s->ad, sd->n[A_PJOB]);
	double nr = 0.0, cr = 0.0;
	const char *who = lit_str(s->ad, sd->n[A_PUSER]), *why;

	num_of(lit(s->ad, sd->n[A_PRANK]), &nr);
	num_of(lit(s->ad, sd->n[A_CURRENTRANK]), &cr);
	if (who == NULL)
		who = "?";
	if (job == NULL) {
		note(sd, s, "%s: the preempting claim of %s is refused (no job ad)", how, who);
		drop_preempting(sd, s);
	} else if (nr < cr) {
		note(sd, s, "%s: the preempting claim of %s is refused (RANK %g < CurrentRank %g)",
		    how, who, nr, cr);
		drop_preempting(sd, s);
	} else if (!willing(sd, s, job, &why)) {
		note(sd, s, "%s: the preempting claim of %s is refused (%s)", how, who, why);
		drop_preempting(sd, s);
	} else {
		set_int(sd, s, A_PCLAIMTIME, s->clock);
		del(sd, s, A_PMATCHTIME);
		note(sd, s, "%s: the preempting claim of %s is accepted (%s preemption: "
		    "RANK %g %s CurrentRank %g)", how, who, nr > cr ? "RANK" : "priority", nr,
		    nr > cr ? ">" : "=", cr);
	}
}

/* Why the running job is in retirement, or NULL when it is not. */
static const char *
retire_cause(ca_startd *sd, const struct slot *s)
{
	enum reason r = eviction(sd, s);

	if (r != R_NONE)
		return reason_name[r];
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
	else if (ca_value_truth(v = peval(sd, s, PX_IS_OWNER, false)) == 1)
		r = R_IS_OWNER, c = cause_val(sd, v);
	else if (draining(sd, s))
		c = "draining";
	else if (shutdown_mode(sd, s) != NULL)
		c = "shutdown";
	else if (starts >= 1) {
		double w = pnum(sd, s, PX_WORKLIFE, false, -1.0);
		if (w >= 0 && (double)(s->clock - since) > w) {
			r = R_WORKLIFE;
			c = causef(sd, "CLAIM_WORKLIFE (%g s) expired: the claim is %lld s old", w,
			    (long long)(s->clock - since));
		}
	}
	if (c == NULL && sd->auto_claim) {
		if (starts == 0) {
			if (!act(sd, CA_S_CLAIMED, CA_A_BUSY, 11, "auto-claim"))
				return false;
			activate(sd, s, NULL, NULL,
			    "auto-claim: the schedd starts the claim's job");
			return true;
		}
		r = R_AUTO_RELEASE;
		c = "auto-claim: the job is done, the schedd releases the claim";
	}
	if (c == NULL || !act(sd, CA_S_PREEMPTING, CA_A_VACATING, 10, c))
		return false;
	if (r != R_NONE)
		set_eviction(sd, s, r);
	to_preempting(sd, s, 10, false, c);
	return true;
}

/* Claimed/Busy, Retiring or Suspended: a job is on the slot. */
static bool
eval_claimed_job(ca_startd *sd, struct slot *s)
{
	const char *rc = retire_cause(sd, s), *c;
	bool in_ret = rc != NULL, fired = eviction(sd, s) == R_PREEMPT;
	int ac = s->ac, ws = -2;
	double left;
	ca_value v;

	if (in_ret && (ac == CA_A_RETIRING || ac == CA_A_SUSPENDED) &&
	    retirement_expired(sd, s, &left)) {
		int num = ac == CA_A_RETIRING ? 18 : 17;
		c = causef(sd, "retirement (%s) is over: %g s of MaxJobRetirementTime left", rc,
		    left);
		if (!act(sd, CA_S_PREEMPTING, CA_A_VACATING, num, c))
			return false;
		to_preempting(sd, s, num, false, c);
		return true;
	}
	bool check = false;
	if (ac == CA_A_BUSY || (ac == CA_A_RETIRING && !fired)) {
		ws = ptruth(sd, s, PX_WANT_SUSPEND, true);
		check = ws != 1;
	} else if (ac == CA_A_SUSPENDED && !fired)
		check = true;
	if (check && ca_value_truth(v = peval(sd, s, PX_PREEMPT, true)) == 1) {
		c = cause_val(sd, v);
		if (ac == CA_A_RETIRING) {
			if (!act(sd, -1, 0, 0, "PREEMPT makes the retirement irreversible"))
				return false;
			set_eviction(sd, s, R_PREEMPT);
			note(sd, s, "%s: the retirement can no longer be undone", c);
			return true;
		}
		int num = ac == CA_A_BUSY ? 13 : 16;
		if (!act(sd, CA_S_CLAIMED, CA_A_RETIRING, num, c))
			return false;
		set_eviction(sd, s, R_PREEMPT);
		go(sd, s, CA_S_CLAIMED, CA_A_RETIRING, num, c);
		return true;
	}
	if (ac == CA_A_RETIRING && !in_ret) {
		c = "nothing to retire for any more (no preempting claim, not draining)";
		if (!act(sd, CA_S_CLAIMED, CA_A_BUSY, 19, c))
			return false;
		go(sd, s, CA_S_CLAIMED, CA_A_BUSY, 19, c);
		return true;
	}
	if (ac == CA_A_BUSY || ac == CA_A_RETIRING) {
		if (ws == -2)
			ws = ptruth(sd, s, PX_WANT_SUSPEND, true);
		if (ws == 1 && ca_value_truth(v = peval(sd, s, PX_SUSPEND, true)) == 1) {
			int num = ac == CA_A_BUSY ? 14 : 20;
			c = cause_val(sd, v);
			if (!act(sd, CA_S_CLAIMED, CA_A_SUSPENDED, num, c))
				return false;
			go(sd, s, CA_S_CLAIMED, CA_A_SUSPENDED, num, c);
			return true;
		}
	}
	if (ac == CA_A_SUSPENDED && ca_value_truth(v = peval(sd, s, PX_CONTINUE, true)) == 1) {
		int to = in_ret ? CA_A_RETIRING : CA_A_BUSY, num = in_ret ? 16 : 15;
		c = cause_val(sd, v);
		if (!act(sd, CA_S_CLAIMED, to, num, c))
			return false;
		go(sd, s, CA_S_CLAIMED, to, num, c);
		return true;
	}
	if (ac == CA_A_BUSY && in_ret) {
		c = causef(sd, "retiring: %s", rc);
		if (!act(sd, CA_S_CLAIMED, CA_A_RETIRING, 13, c))
			return false;
		go(sd, s, CA_S_CLAIMED, CA_A_RETIRING, 13, c);
		return true;
	}
	return false;
}

static bool
eval_claimed(ca_startd *sd, struct slot *s)
{
	if (sd->auto_claim && has(sd, s, A_PMATCHTIME) && !pclaim(sd, s)) {
		if (!act(sd, -1, 0, 0, "auto-claim: claim the preempting match"))
			return false;
		claim_preempting(sd, s, "auto-claim");
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
		if (!act(sd, CA_S_OWNER, CA_A_IDLE, s->ac == CA_A_VACATING ? 22 : 25,
		    "no job to evict"))
			return false;
		leave_preempting(sd, s, "no job to evict");
		return true;
	}
	if (s->ac == CA_A_VACATING && ca_value_truth(v = peval(sd, s, PX_KILL, true)) == 1) {
		const char *c = cause_val(sd, v);
		if (!act(sd, CA_S_PREEMPTING, CA_A_KILLING, 21, c))
			return false;
		go(sd, s, CA_S_PREEMPTING, CA_A_KILLING, 21, c);
		return true;
	}
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
			c = causef(sd, "the backfill client is gone: %s", to == CA_S_MATCHED ?
			    "the match takes the slot" : to == CA_S_CLAIMED ?
			    "the claim takes the slot" : "back to the owner");
			if (!act(sd, to, CA_A_IDLE, num, c))
				return false;
			del(sd, s, A_BFDEST);
			if (to == CA_S_CLAIMED)
				begin_claim(sd, s);
			go(sd, s, to, CA_A_IDLE, num, c);
			return true;
		}
		if (ca_value_truth(v = peval(sd, s, PX_EVICT_BACKFILL, false)) == 1)
			c = cause_val(sd, v);
		else if (stop)
			c = draining(sd, s) ? "draining" : "shutdown";
		if (c != NULL) {
			if (!act(sd, CA_S_OWNER, CA_A_IDLE, 30, c))
				return false;
			go(sd, s, CA_S_OWNER, CA_A_IDLE, 30, c);
			return true;
		}
		c = "the backfill client starts";
		if (!act(sd, CA_S_BACKFILL, CA_A_BUSY, 26, c))
			return false;
		go(sd, s, CA_S_BACKFILL, CA_A_BUSY, 26, c);
		return true;
	}
	if (s->ac == CA_A_BUSY) {
		if (ca_value_truth(v = peval(sd, s, PX_EVICT_BACKFILL, false)) == 1)
			c = cause_val(sd, v);
		else if (stop)
			c = draining(sd, s) ? "draining" : "shutdown";
		if (c == NULL || !act(sd, CA_S_BACKFILL, CA_A_KILLING, 28, c))
			return false;
		set_str(sd, s, A_BFDEST, "Owner");
		go(sd, s, CA_S_BACKFILL, CA_A_KILLING, 28, c);
		return true;
	}
	return false;
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
		bool all = true;
		for (size_t i = 0; i < m->n; i++)
			if (live(m->s[i]) && m->s[i]->st != CA_S_DRAINED)
				all = false;
		if (all)
			to = CA_S_DRAINED, num = 33, c = "every slot of the machine is drained";
	} else if (lit_true(s->ad, sd->n[A_DRAINRESUME])) {
		c = "draining finished (resume on completion)";
	}
	if (c == NULL || !act(sd, to, toac, num, c))
		return false;
	if (to == CA_S_OWNER) {
		del(sd, s, A_DRAINING);
		del(sd, s, A_DRAINHOW);
		del(sd, s, A_DRAINRESUME);
	}
	go(sd, s, to, toac, num, c);
	return true;
}

/* One decision for slot s. True when something changed (evaluate again). */
static bool
eval_slot(ca_startd *sd, ca_smachine *m, struct slot *s)
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

/* What is published after every settle: CpuIsBusy and CpuBusyTime, the
 * retirement time left, Requirements. */
static void
publish_end(ca_startd *sd, struct slot *s)
{
	ca_value v = peval(sd, s, PX_CPUBUSY, false);
	bool busy = ca_value_truth(v) == 1, was = lit_true(s->ad, sd->n[A_CPUISBUSY]);

	set_bool(sd, s, A_CPUISBUSY, busy);
	if (!busy || !was)
		set_int(sd, s, A_CPUBUSYTIME, 0);
	if (s->st == CA_S_CLAIMED && job_active(sd, s))
		set_int(sd, s, A_RETLEFT, (int64_t)fmin(retirement_left(sd, s), 9e15));
	else
		del(sd, s, A_RETLEFT);
	publish_requirements(sd, s);
	ca_arena_reset(&sd->cx.scratch);
}

/* STARTD_SLOT_ATTRS: every slot sees slot<N>_<attr> of the machine's other
 * (static and partitionable) slots. True when a value changed. */
static bool
cross_publish(ca_startd *sd, ca_smachine *m)
{
	bool changed = false;

	if (sd->nxslot == 0)
		return false;
	for (size_t k = 0; k < m->n; k++) {
		struct slot *src = m->s[k];
		if (!live(src) || src->kind == K_DYNAMIC)
			continue;
		for (size_t a = 0; a < sd->nxslot; a++) {
			sd->cx.now = src->clock;
			ca_value v = ca_eval_attr(&sd->cx, src->ad, NULL, sd->xslot[a]);
			strbuf_reset(&sd->tmp);
			strbuf_addf(&sd->tmp, "%s%lld_%s", sd->xslot_vm ? "vm" : "slot",
			    (long long)src->id, sd->xslot[a]);
			const ca_name *nm = ca_intern(sd->tmp.buf, sd->tmp.len);
			for (size_t j = 0; j < m->n; j++)
				if (live(m->s[j]))
					changed |= setv(m->s[j]->ad, nm, NULL, v);
		}
	}
	ca_arena_reset(&sd->cx.scratch);
	return changed;
}

/* Evaluate every slot of m until none changes (a slot's change may matter
 * to the others: resources given back, all slots drained, slot<N>_ values). */
static void
settle(ca_startd *sd, ca_smachine *m)
{
	for (int round = 0; round < 16; round++) {
		bool changed = false;
		for (size_t i = 0; i < m->n; i++) {
			struct slot *s = m->s[i];
			int k = 0;
			if (!live(s))
				continue;
			s->loops = 0;
			while (eval_slot(sd, m, s)) {
				changed = true;
				ca_arena_reset(&sd->cx.scratch);
				if (++k >= 64) {
					note(sd, s, "the policy keeps changing the state: stopped "
					    "after %d decisions at this time", k);
					break;
				}
			}
			ca_arena_reset(&sd->cx.scratch);
			if (live(s))
				publish_end(sd, s);
		}
		changed |= cross_publish(sd, m);
		if (!changed || m->n == 1)
			break;
	}
}

/* ---- timers ---- */

enum { T_NONE, T_MATCH, T_PMATCH, T_VACATE, T_KILL, T_BFKILL, T_BENCH };

/* When the next timer of slot s expires (INT64_MAX: none), and which. */
static int64_t
deadline(ca_startd *sd, struct slot *s, int *which)
{
	int64_t ecs = s->clock, eca = s->clock, t;

	*which = T_NONE;
	if (!live(s))
		return INT64_MAX;
	lit_time(s->ad, sd->n[A_ECS], &ecs);
	lit_time(s->ad, sd->n[A_ECA], &eca);
	switch (s->st) {
	case CA_S_MATCHED:
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
		if (s->ac == CA_A_VACATING) {
			double vt = vacate_time(sd, s, retirement_left(sd, s));
			ca_arena_reset(&sd->cx.scratch);
			*which = T_VACATE;
			return eca + (int64_t)ceil(fmin(vt, 9e15));
		}
		*which = T_KILL;
		return eca + sd->killing_timeout;
	case CA_S_BACKFILL:
		if (s->ac == CA_A_KILLING) {
			*which = T_BFKILL;
			return eca + sd->killing_timeout;
		}
		break;
	case CA_S_UNCLAIMED:
		if (s->ac == CA_A_BENCHMARKING) {
			*which = T_BENCH;
			return eca + sd->bench_time;
		}
		break;
	}
	return INT64_MAX;
}

static void
fire(ca_startd *sd, struct slot *s, int which)
{
	const char *c;

	switch (which) {
	case T_MATCH:
		c = causef(sd, "MATCH_TIMEOUT (%lld s) expired: the match was not claimed",
		    (long long)sd->match_timeout);
		unmatch(sd, s, c);
		break;
	case T_PMATCH:
		note(sd, s, "MATCH_TIMEOUT (%lld s) expired: the preempting match of %s was not "
		    "claimed", (long long)sd->match_timeout,
		    lit_str(s->ad, sd->n[A_PUSER]) ? lit_str(s->ad, sd->n[A_PUSER]) : "?");
		drop_preempting(sd, s);
		break;
	case T_VACATE:
		c = causef(sd, "the vacate time (%g s) is over",
		    vacate_time(sd, s, retirement_left(sd, s)));
		go(sd, s, CA_S_PREEMPTING, CA_A_KILLING, 21, c);
		break;
	case T_KILL:
		c = causef(sd, "KILLING_TIMEOUT (%lld s) expired: the starter and the job are "
		    "killed", (long long)sd->killing_timeout);
		del(sd, s, A_JOBSTART);
		leave_preempting(sd, s, c);
		break;
	case T_BFKILL:
		c = causef(sd, "KILLING_TIMEOUT (%lld s) expired: the backfill client is killed",
		    (long long)sd->killing_timeout);
		go(sd, s, CA_S_BACKFILL, CA_A_IDLE, 29, c);
		break;
	case T_BENCH:
		set_int(sd, s, A_LASTBENCH, s->clock);
		c = causef(sd, "benchmarks finished (STARTD_STEP_BENCHMARK_TIME %lld s)",
		    (long long)sd->bench_time);
		go(sd, s, CA_S_UNCLAIMED, CA_A_IDLE, 4, c);
		break;
	}
	ca_arena_reset(&sd->cx.scratch);
}

/* Advance every slot of m to t: timers fire at their deadlines (the policy is
 * evaluated after each), then the policy at t. */
static void
run_to(ca_startd *sd, ca_smachine *m, int64_t t)
{
	for (int guard = 0; guard < 100000; guard++) {
		int64_t d = INT64_MAX;
		int w;
		for (size_t i = 0; i < m->n; i++) {
			int64_t x = deadline(sd, m->s[i], &w);
			if (x < d)
				d = x;
		}
		if (d > t)
			break;
		for (size_t i = 0; i < m->n; i++)
			if (live(m->s[i]))
				tick(sd, m->s[i], d);
		for (size_t i = 0; i < m->n; i++) {
			struct slot *s = m->s[i];
			if (live(s) && deadline(sd, s, &w) <= s->clock && w != T_NONE)
				fire(sd, s, w);
		}
		settle(sd, m);
	}
	for (size_t i = 0; i < m->n; i++)
		if (live(m->s[i]))
			tick(sd, m->s[i], t);
	settle(sd, m);
}

/* ---- events ---- */

int
ca_sevent_init(ca_sevent *ev, const ca_ad *ad, int64_t deftime, char *why, size_t whylen)
{
	const ca_name *n_event = ca_intern("Event", 5), *n_name = ca_intern("Name", 4);
	const ca_name *n_time = ca_intern("Time", 4);

	memset(ev, 0, sizeof *ev);
	ev->ad = ad;
	const char *kind = lit_str(ad, n_event);
	if (kind == NULL) {
		snprintf(why, whylen, ca_ad_find(ad, n_event) ? "Event is not a string" :
		    "an event needs an Event attribute (Match, Claim, Activate, ...)");
		return -1;
	}
	ev->kind = -1;
	for (int i = 0; i < CA_EV_N; i++)
		if (strcasecmp(kind, ca_sevent_name[i]) == 0)
			ev->kind = i;
	if (ev->kind < 0) {
		snprintf(why, whylen, "unknown event \"%s\" (Match, Claim, Activate, JobExit, "
		    "Vacate, Release, Drain, CancelDrain, Shutdown, StarterExit, BenchmarkDone, "
		    "MachineUpdate)", kind);
		return -1;
	}
	ev->name = lit_str(ad, n_name);
	if (ev->name == NULL || ev->name[0] == '\0') {
		snprintf(why, whylen, "a %s event needs the Name of a slot (or machine)",
		    ca_sevent_name[ev->kind]);
		return -1;
	}
	if (ev->kind == CA_EV_MATCH) {
		const ca_expr *j = get_expr(ad, ca_intern("Job", 3));
		while (j != NULL && j->node == CA_N_PAREN)
			j = j->u.k.a;
		if (j == NULL || j->node != CA_N_AD) {
			snprintf(why, whylen, "a Match event (a match record) carries the job as "
			    "Job = [ ... ]");
			return -1;
		}
	}
	ev->time = deftime;
	if (ca_ad_find(ad, n_time) != NULL) {
		ca_value v = lit(ad, n_time);
		double d;
		if (!num_of(v, &d) || v.kind == CA_BOOL || !(fabs(d) < 1e12)) {
			snprintf(why, whylen, "Time must be a number of seconds since the epoch");
			return -1;
		}
		ev->time = (int64_t)floor(d);
	}
	return 0;
}

const char *
ca_sevent_machine(const ca_sevent *ev, strbuf *tmp)
{
	const char *at = strchr(ev->name, '@');

	(void)tmp;
	return at ? at + 1 : ev->name;
}

static int
ev_cmp(const void *x, const void *y)
{
	const ca_sevent *a = *(ca_sevent *const *)x, *b = *(ca_sevent *const *)y;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void
ca_sevent_sort(ca_sevent **evs, size_t n)
{
	if (n > 1)
		qsort(evs, n, sizeof *evs, ev_cmp);
}

/* "job 12.0 of alice@example.org" for causes. */
static const char *
describe_job(ca_startd *sd, const ca_ad *job, const ca_ad *ev, strbuf *out)
{
	char buf[64];
	const char *id = job_id(sd, job, ev, buf, sizeof buf);
	const char *user = ev ? lit_str(ev, sd->n[A_SUBMITTER]) : NULL;

	if (user == NULL && job != NULL)
		user = lit_str(job, sd->n[A_USER]);
	if (user == NULL && job != NULL)
		user = lit_str(job, sd->n[A_OWNER]);
	strbuf_reset(out);
	strbuf_addf(out, "job %s", id ? id : "(no id)");
	if (user)
		strbuf_addf(out, " of %s", user);
	return out->buf;
}

static void
ignored(ca_startd *sd, struct slot *s, const ca_sevent *ev, const char *why)
{
	note(sd, s, "event %s ignored in %s/%s: %s", ca_sevent_name[ev->kind],
	    ca_sstate_name[s->st], ca_sact_name[s->ac], why);
}

static void
ev_match(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const ca_expr *e = event_job_expr(sd, ev->ad);
	const char *reason = lit_str(ev->ad, sd->n[A_MATCHREASON]);
	strbuf c = STRBUF_INIT, d = STRBUF_INIT;

	if (e == NULL) {
		ignored(sd, s, ev, "a match record carries the job as Job = [ ... ]");
		return;
	}
	strbuf_addf(&c, "event Match: %s", describe_job(sd, e->u.ad, ev->ad, &d));
	if (reason)
		strbuf_addf(&c, " (%s)", reason);
	switch (s->st) {
	case CA_S_OWNER:
	case CA_S_UNCLAIMED:
		store_job(sd, s, A_JOB, e);
		set_identity(sd, s, e->u.ad, ev->ad, false);
		go(sd, s, CA_S_MATCHED, CA_A_IDLE, 6, c.buf);
		break;
	case CA_S_BACKFILL:
		store_job(sd, s, A_JOB, e);
		set_identity(sd, s, e->u.ad, ev->ad, false);
		if (s->ac == CA_A_IDLE)
			go(sd, s, CA_S_MATCHED, CA_A_IDLE, 32, c.buf);
		else {
			set_str(sd, s, A_BFDEST, "Matched");
			if (s->ac == CA_A_BUSY)
				go(sd, s, CA_S_BACKFILL, CA_A_KILLING, 28, c.buf);
		}
		break;
	case CA_S_CLAIMED:
		if (pmatch(sd, s)) {
			ignored(sd, s, ev, "a preempting match is already waiting");
			break;
		}
		store_job(sd, s, A_PJOB, e);
		set_identity(sd, s, e->u.ad, ev->ad, true);
		set_real(sd, s, A_PRANK, slot_rank(sd, s, e->u.ad));
		set_int(sd, s, A_PMATCHTIME, s->clock);
		publish_requirements(sd, s);
		double pr = 0.0, cr = 0.0;
		num_of(lit(s->ad, sd->n[A_PRANK]), &pr);
		num_of(lit(s->ad, sd->n[A_CURRENTRANK]), &cr);
		note(sd, s, "%s: a preempting match (RANK %g, CurrentRank %g); Requirements = "
		    "False until it is claimed", c.buf, pr, cr);
		break;
	default:
		ignored(sd, s, ev, s->st == CA_S_DRAINED ? "a drained slot takes no match" :
		    "the slot is not available for matches");
	}
	strbuf_release(&c);
	strbuf_release(&d);
}

static void
ev_claim(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const ca_expr *e = event_job_expr(sd, ev->ad);
	const ca_ad *job = e ? e->u.ad : NULL;
	const char *why;
	strbuf c = STRBUF_INIT, d = STRBUF_INIT;

	strbuf_adds(&c, "event Claim");
	if (job)
		strbuf_addf(&c, ": %s", describe_job(sd, job, ev->ad, &d));
	switch (s->st) {
	case CA_S_OWNER:
	case CA_S_UNCLAIMED:
		if (job == NULL)
			ignored(sd, s, ev,
			    "a claim of an unmatched slot must carry Job = [ ... ]");
		else if (ptruth(sd, s, PX_IS_OWNER, false) == 1)
			note(sd, s, "%s: the claim is refused (IS_OWNER = true)", c.buf);
		else if (!willing(sd, s, job, &why))
			note(sd, s, "%s: the claim is refused (%s)", c.buf, why);
		else {
			store_job(sd, s, A_JOB, e);
			set_identity(sd, s, job, ev->ad, false);
			begin_claim(sd, s);
			strbuf_adds(&c, " (before the negotiator's match)");
			go(sd, s, CA_S_CLAIMED, CA_A_IDLE, 5, c.buf);
		}
		break;
	case CA_S_MATCHED:
		if (e != NULL) {
			store_job(sd, s, A_JOB, e);
			set_identity(sd, s, job, ev->ad, false);
		}
		claim_matched(sd, s, c.buf);
		break;
	case CA_S_BACKFILL:
		if (e != NULL) {
			store_job(sd, s, A_JOB, e);
			set_identity(sd, s, job, ev->ad, false);
		}
		if ((job = job_of(sd, s)) == NULL)
			ignored(sd, s, ev, "no job ad to claim for");
		else if (!willing(sd, s, job, &why))
			note(sd, s, "%s: the claim is refused (%s)", c.buf, why);
		else if (s->ac == CA_A_IDLE) {
			begin_claim(sd, s);
			go(sd, s, CA_S_CLAIMED, CA_A_IDLE, 31, c.buf);
		} else {
			set_str(sd, s, A_BFDEST, "Claimed");
			if (s->ac == CA_A_BUSY)
				go(sd, s, CA_S_BACKFILL, CA_A_KILLING, 28, c.buf);
		}
		break;
	case CA_S_CLAIMED:
	case CA_S_PREEMPTING:
		if (pclaim(sd, s)) {
			ignored(sd, s, ev, "a preempting claim is already accepted");
			break;
		}
		if (!pmatch(sd, s)) {
			if (e == NULL || s->st != CA_S_CLAIMED) {
				ignored(sd, s, ev,
				    "the slot is claimed and no preempting match waits");
				break;
			}
			store_job(sd, s, A_PJOB, e);
			set_identity(sd, s, job, ev->ad, true);
			set_real(sd, s, A_PRANK, slot_rank(sd, s, job));
			set_int(sd, s, A_PMATCHTIME, s->clock);
		}
		claim_preempting(sd, s, c.buf);
		break;
	default:
		note(sd, s, "%s: the claim is refused (the slot is %s)", c.buf,
		    ca_sstate_name[s->st]);
	}
	strbuf_release(&c);
	strbuf_release(&d);
}

static void
ev_activate(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const ca_expr *e = event_job_expr(sd, ev->ad);
	strbuf c = STRBUF_INIT, d = STRBUF_INIT;

	if (s->st != CA_S_CLAIMED || s->ac != CA_A_IDLE)
		ignored(sd, s, ev, "only a Claimed/Idle slot starts a job");
	else if (e == NULL && job_of(sd, s) == NULL)
		ignored(sd, s, ev, "no job ad");
	else {
		strbuf_addf(&c, "event Activate: %s", describe_job(sd, e ? e->u.ad : job_of(sd, s),
		    ev->ad, &d));
		activate(sd, s, e, ev->ad, c.buf);
	}
	strbuf_release(&c);
	strbuf_release(&d);
}

/* JobExit and StarterExit: the job (or the starter, or the backfill client)
 * is gone. */
static void
ev_exit(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const char *c = causef(sd, "event %s", ca_sevent_name[ev->kind]);
	strbuf cb = STRBUF_INIT;

	strbuf_adds(&cb, c);
	c = cb.buf;
	switch (s->st) {
	case CA_S_CLAIMED:
		if (!job_active(sd, s) || s->ac == CA_A_IDLE) {
			ignored(sd, s, ev, "no job is running");
			break;
		}
		del(sd, s, A_JOBSTART);
		del(sd, s, A_RETLEFT);
		if (s->ac == CA_A_RETIRING)
			to_preempting(sd, s, 18, false, c);
		else if (s->ac == CA_A_SUSPENDED && retire_cause(sd, s) != NULL)
			to_preempting(sd, s, 17, false, c);
		else
			go(sd, s, CA_S_CLAIMED, CA_A_IDLE, 12, c);
		break;
	case CA_S_PREEMPTING:
		del(sd, s, A_JOBSTART);
		leave_preempting(sd, s, c);
		break;
	case CA_S_BACKFILL:
		if (s->ac == CA_A_BUSY)
			go(sd, s, CA_S_BACKFILL, CA_A_IDLE, 27, c);
		else if (s->ac == CA_A_KILLING)
			go(sd, s, CA_S_BACKFILL, CA_A_IDLE, 29, c);
		else
			ignored(sd, s, ev, "no backfill client is running");
		break;
	default:
		ignored(sd, s, ev, "no job is running");
	}
	strbuf_release(&cb);
}

static bool
ev_fast(ca_startd *sd, const ca_sevent *ev)
{
	const char *mode = lit_str(ev->ad, sd->n[A_MODE]);

	return lit_true(ev->ad, sd->n[A_FAST]) || (mode && strcasecmp(mode, "fast") == 0);
}

static void
ev_vacate(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	bool fast = ev_fast(sd, ev);
	const char *c = fast ? "event Vacate (fast)" : "event Vacate";

	switch (s->st) {
	case CA_S_CLAIMED:
		if (s->ac == CA_A_IDLE || fast) {
			set_eviction(sd, s, fast ? R_VACATE_FAST : R_VACATE);
			to_preempting(sd, s, 10, fast, c);
		} else {
			if (eviction(sd, s) == R_NONE)
				set_eviction(sd, s, R_VACATE);
			if (s->ac == CA_A_BUSY)
				go(sd, s, CA_S_CLAIMED, CA_A_RETIRING, 13, c);
		}
		break;
	case CA_S_MATCHED:
		unmatch(sd, s, c);
		break;
	case CA_S_BACKFILL:
		if (s->ac == CA_A_IDLE)
			go(sd, s, CA_S_OWNER, CA_A_IDLE, 30, c);
		else {
			set_str(sd, s, A_BFDEST, "Owner");
			if (s->ac == CA_A_BUSY)
				go(sd, s, CA_S_BACKFILL, CA_A_KILLING, 28, c);
		}
		break;
	case CA_S_PREEMPTING:
		if (fast && s->ac == CA_A_VACATING)
			go(sd, s, CA_S_PREEMPTING, CA_A_KILLING, 21, c);
		else
			ignored(sd, s, ev, "the slot is already preempting its job");
		break;
	default:
		ignored(sd, s, ev, "no claim to vacate");
	}
}

static void
ev_release(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const ca_expr *e = event_job_expr(sd, ev->ad);
	char buf[64];
	const char *id = job_id(sd, e ? e->u.ad : NULL, ev->ad, buf, sizeof buf);
	const char *pid = lit_str(s->ad, sd->n[A_PJOBID]);
	const char *cid = lit_str(s->ad, sd->n[A_JOBID]);

	if (pmatch(sd, s) && id != NULL && pid != NULL && strcmp(id, pid) == 0 &&
	    (cid == NULL || strcmp(cid, pid) != 0)) {
		note(sd, s, "event Release: the preempting claim of job %s is released", id);
		drop_preempting(sd, s);
		return;
	}
	switch (s->st) {
	case CA_S_CLAIMED:
		set_eviction(sd, s, R_RELEASE);
		to_preempting(sd, s, 10, false, "event Release: the schedd releases the claim");
		break;
	case CA_S_MATCHED:
		unmatch(sd, s, "event Release: the schedd gives up the match");
		break;
	default:
		ignored(sd, s, ev, "no claim to release");
	}
}

static void
ev_drain(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const char *how = lit_str(ev->ad, sd->n[A_HOW]);

	if (how == NULL || (strcasecmp(how, "quick") != 0 && strcasecmp(how, "fast") != 0))
		how = "graceful";
	else
		how = strcasecmp(how, "quick") == 0 ? "quick" : "fast";
	set_bool(sd, s, A_DRAINING, true);
	set_str(sd, s, A_DRAINHOW, how);
	set_bool(sd, s, A_DRAINRESUME, lit_true(ev->ad, sd->n[A_RESUME]));
	publish_requirements(sd, s);
	if (s->st == CA_S_CLAIMED && s->ac != CA_A_IDLE) {
		if (strcmp(how, "fast") == 0) {
			set_eviction(sd, s, R_DRAIN_FAST);
			to_preempting(sd, s, 10, true, "event Drain (fast)");
		} else if (strcmp(how, "quick") == 0 && eviction(sd, s) == R_NONE)
			set_eviction(sd, s, R_DRAIN_QUICK);
	} else if (s->st == CA_S_PREEMPTING && s->ac == CA_A_VACATING && strcmp(how, "fast") == 0)
		go(sd, s, CA_S_PREEMPTING, CA_A_KILLING, 21, "event Drain (fast)");
}

static void
ev_canceldrain(ca_startd *sd, struct slot *s)
{
	del(sd, s, A_DRAINING);
	del(sd, s, A_DRAINHOW);
	del(sd, s, A_DRAINRESUME);
	publish_requirements(sd, s);
}

static void
ev_shutdown(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const char *mode = lit_str(ev->ad, sd->n[A_MODE]);

	if (mode == NULL || (strcasecmp(mode, "fast") != 0 && strcasecmp(mode, "peaceful") != 0))
		mode = "graceful";
	else
		mode = strcasecmp(mode, "fast") == 0 ? "fast" : "peaceful";
	set_str(sd, s, A_SHUTDOWN, mode);
	publish_requirements(sd, s);
	if (s->st == CA_S_CLAIMED && s->ac != CA_A_IDLE) {
		if (strcmp(mode, "fast") == 0) {
			set_eviction(sd, s, R_SHUTDOWN_FAST);
			to_preempting(sd, s, 10, true, "event Shutdown (fast)");
		} else if (eviction(sd, s) == R_NONE)
			set_eviction(sd, s, strcmp(mode, "peaceful") == 0 ? R_SHUTDOWN_PEACEFUL :
			    R_SHUTDOWN);
	} else if (s->st == CA_S_PREEMPTING && s->ac == CA_A_VACATING && strcmp(mode, "fast") == 0)
		go(sd, s, CA_S_PREEMPTING, CA_A_KILLING, 21, "event Shutdown (fast)");
}

static void
ev_benchmark(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	if (s->st != CA_S_UNCLAIMED || s->ac != CA_A_BENCHMARKING) {
		ignored(sd, s, ev, "the slot is not benchmarking");
		return;
	}
	set_int(sd, s, A_LASTBENCH, s->clock);
	static const int copy[] = { A_MIPS, A_KFLOPS };
	for (size_t i = 0; i < 2; i++) {
		ca_expr *e = get_expr(ev->ad, sd->n[copy[i]]);
		if (e != NULL)
			ca_ad_set(s->ad, sd->n[copy[i]], aname[copy[i]],
			    ca_expr_copy(s->ad->arena, e));
	}
	go(sd, s, CA_S_UNCLAIMED, CA_A_IDLE, 4, "event BenchmarkDone");
}

/* Attributes a MachineUpdate may not set: the state machine's own. */
static bool
machine_owned(ca_startd *sd, const ca_name *n)
{
	static const int own[] = {
		A_NAME, A_EVENT, A_TIME, A_STATE, A_ACTIVITY, A_ECS, A_ECA, A_MYCURRENTTIME
	};

	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
		if (n == sd->n[own[i]])
			return true;
	return false;
}

static void
ev_update(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	strbuf c = STRBUF_INIT;

	strbuf_adds(&c, "event MachineUpdate:");
	for (uint32_t i = 0; i < ev->ad->n; i++) {
		const ca_attr *at = &ev->ad->attrs[i];
		if (machine_owned(sd, at->name))
			continue;
		ca_ad_set(s->ad, at->name, NULL, ca_expr_copy(s->ad->arena, at->expr));
		strbuf_addf(&c, " %s = ", at->name->spell);
		ca_print_expr(&c, at->expr, 0);
		if (c.len > 160) {
			strbuf_adds(&c, " ...");
			break;
		}
	}
	publish_load(sd, s);
	note(sd, s, "%s", c.buf);
	strbuf_release(&c);
}

static void
apply_one(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	sd->cx.now = s->clock;
	if (ev->time < s->clock) {
		strbuf t = STRBUF_INIT;
		put_time(&t, ev->time);
		note(sd, s, "event %s at %s comes after the slot's time: applied now",
		    ca_sevent_name[ev->kind], t.buf);
		strbuf_release(&t);
	}
	switch (ev->kind) {
	case CA_EV_MATCH:
		ev_match(sd, s, ev);
		break;
	case CA_EV_CLAIM:
		ev_claim(sd, s, ev);
		break;
	case CA_EV_ACTIVATE:
		ev_activate(sd, s, ev);
		break;
	case CA_EV_JOBEXIT:
	case CA_EV_STARTEREXIT:
		ev_exit(sd, s, ev);
		break;
	case CA_EV_VACATE:
		ev_vacate(sd, s, ev);
		break;
	case CA_EV_RELEASE:
		ev_release(sd, s, ev);
		break;
	case CA_EV_DRAIN:
		ev_drain(sd, s, ev);
		break;
	case CA_EV_CANCELDRAIN:
		ev_canceldrain(sd, s);
		break;
	case CA_EV_SHUTDOWN:
		ev_shutdown(sd, s, ev);
		break;
	case CA_EV_BENCHMARKDONE:
		ev_benchmark(sd, s, ev);
		break;
	case CA_EV_MACHINEUPDATE:
		ev_update(sd, s, ev);
		break;
	}
	ca_arena_reset(&sd->cx.scratch);
}

/* The dynamic slot of p running (or matched to) the job an event names; when
 * the event names no job, the only dynamic slot it can be for. */
static struct slot *
dslot_for(ca_startd *sd, ca_smachine *m, struct slot *p, const ca_sevent *ev)
{
	const ca_expr *e = event_job_expr(sd, ev->ad);
	char buf[64];
	const char *id = job_id(sd, e ? e->u.ad : NULL, ev->ad, buf, sizeof buf);
	struct slot *only = NULL;
	int n = 0;

	for (size_t i = 0; i < m->n; i++) {
		struct slot *d = m->s[i];
		if (!live(d) || d->kind != K_DYNAMIC || d->id != p->id)
			continue;
		const char *did = lit_str(d->ad, sd->n[A_JOBID]);
		if (id != NULL && did != NULL && strcmp(did, id) == 0)
			return d;
		if (ev->kind == CA_EV_CLAIM && d->st != CA_S_MATCHED)
			continue;
		only = d;
		n++;
	}
	return id == NULL && n == 1 ? only : NULL;
}

static void
apply_event(ca_startd *sd, ca_smachine *m, ca_sevent *ev)
{
	struct slot *s = find_slot(m, ev->name);
	bool whole = s == NULL && machine_named(m, ev->name);
	size_t n = m->n;

	if (s == NULL && !whole)
		return;
	switch (ev->kind) {
	case CA_EV_DRAIN:
	case CA_EV_CANCELDRAIN:
	case CA_EV_SHUTDOWN:
		/* commands for the whole startd */
		for (size_t i = 0; i < n; i++)
			if (live(m->s[i]))
				apply_one(sd, m->s[i], ev);
		ev->used = true;
		return;
	case CA_EV_MACHINEUPDATE:
	case CA_EV_VACATE:
	case CA_EV_RELEASE:
		ev->used = true;
		if (whole) {
			for (size_t i = 0; i < n; i++)
				if (live(m->s[i]))
					apply_one(sd, m->s[i], ev);
			return;
		}
		if (s->kind != K_PARTITIONABLE) {
			apply_one(sd, s, ev);
			return;
		}
		if (ev->kind == CA_EV_MACHINEUPDATE)
			apply_one(sd, s, ev);
		struct slot *d = ev->kind == CA_EV_MACHINEUPDATE ? NULL : dslot_for(sd, m, s, ev);
		for (size_t i = 0; i < n; i++) {
			struct slot *x = m->s[i];
			if (live(x) && x->kind == K_DYNAMIC && x->id == s->id &&
			    (d == NULL || d == x))
				apply_one(sd, x, ev);
		}
		return;
	default:
		break;
	}
	if (s == NULL)
		return;		/* a slot event naming a machine: no such slot */
	ev->used = true;
	if (s->kind == K_PARTITIONABLE && ev->kind != CA_EV_BENCHMARKDONE) {
		struct slot *d = dslot_for(sd, m, s, ev);
		const char *why = NULL;
		if (ev->kind == CA_EV_MATCH || (ev->kind == CA_EV_CLAIM &&
		    (d == NULL || d->st != CA_S_MATCHED))) {
			const ca_expr *e = event_job_expr(sd, ev->ad);
			if (e == NULL) {
				ignored(sd, s, ev, "the event carries no Job = [ ... ] to size a "
				    "dynamic slot");
				return;
			}
			if ((d = carve(sd, m, s, e, ev, &why)) == NULL) {
				strbuf w = STRBUF_INIT;
				strbuf_addf(&w, "no dynamic slot: %s", why);
				ignored(sd, s, ev, w.buf);
				strbuf_release(&w);
				return;
			}
		}
		if (d == NULL) {
			ignored(sd, s, ev, "no dynamic slot of this partitionable slot runs the "
			    "job it names (JobId)");
			return;
		}
		s = d;
	}
	apply_one(sd, s, ev);
}

void
ca_startd_advance(ca_startd *sd, ca_smachine *m, ca_sevent **evs, size_t nev, size_t *next,
    int64_t t)
{
	if (!m->settled) {
		/* what holds at the time the ads describe happens then */
		settle(sd, m);
		m->settled = true;
	}
	while (*next < nev && evs[*next]->time <= t) {
		ca_sevent *ev = evs[(*next)++];
		run_to(sd, m, ev->time);
		apply_event(sd, m, ev);
		settle(sd, m);
	}
	run_to(sd, m, t);
}

/* ---- machines: slots from a stream ---- */

const char *
ca_startd_machine_key(const ca_ad *ad, strbuf *tmp)
{
	const char *m = lit_str(ad, ca_intern("Machine", 7));
	const char *n = lit_str(ad, ca_intern("Name", 4));

	(void)tmp;
	if (m != NULL)
		return m;
	if (n != NULL) {
		const char *at = strchr(n, '@');
		return at ? at + 1 : n;
	}
	return "";
}

ca_smachine *
ca_smachine_new(ca_startd *sd)
{
	ca_smachine *m = ca_xcalloc(1, sizeof *m);

	m->sd = sd;
	return m;
}

void
ca_smachine_free(ca_smachine *m)
{
	if (m == NULL)
		return;
	for (size_t i = 0; i < m->n; i++) {
		ca_ad_free(m->s[i]->ad);
		free(m->s[i]);
	}
	free(m->s);
	free_names(m->keys, m->nkeys);
	free(m);
}

size_t
ca_smachine_count(const ca_smachine *m)
{
	return m->n;
}

const ca_ad *
ca_smachine_slot(const ca_smachine *m, size_t i)
{
	return i < m->n && !m->s[i]->deleted ? m->s[i]->ad : NULL;
}

size_t
ca_smachine_nkeys(const ca_smachine *m)
{
	return m->nkeys;
}

const char *
ca_smachine_key(const ca_smachine *m, size_t i)
{
	return m->keys[i];
}

static void
add_key(ca_smachine *m, const char *k)
{
	if (k == NULL || *k == '\0' || machine_named(m, k))
		return;
	m->keys = ca_xreallocarray(m->keys, m->nkeys + 1, sizeof *m->keys);
	m->keys[m->nkeys++] = ca_xstrndup(k, strlen(k));
}

static void
push_slot(ca_smachine *m, struct slot *s)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 4;
		m->s = ca_xreallocarray(m->s, m->cap, sizeof *m->s);
	}
	m->s[m->n++] = s;
	add_key(m, lit_str(s->ad, m->sd->n[A_MACHINE]));
	const char *n = lit_str(s->ad, m->sd->n[A_NAME]), *at = n ? strchr(n, '@') : NULL;
	add_key(m, at ? at + 1 : n);
}

static int
name_index(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

int
ca_smachine_add(ca_smachine *m, ca_ad *ad, int64_t now, char *why, size_t whylen)
{
	ca_startd *sd = m->sd;
	struct slot *s = ca_xcalloc(1, sizeof *s);
	int64_t v;

	s->ad = ad;
	s->clock = now;
	if (lit_time(ad, sd->n[A_MYCURRENTTIME], &v))
		s->clock = v;
	push_slot(m, s);

	const char *st = lit_str(ad, sd->n[A_STATE]), *ac = lit_str(ad, sd->n[A_ACTIVITY]);
	if (st == NULL && ca_ad_find(ad, sd->n[A_STATE]) == NULL) {
		/* a slot that has never been stepped starts as a startd does */
		s->st = CA_S_OWNER;
		s->ac = CA_A_IDLE;
		set_str(sd, s, A_STATE, "Owner");
		set_str(sd, s, A_ACTIVITY, "Idle");
	} else {
		s->st = st ? name_index(ca_sstate_name, CA_S_NSTATES, st) : -1;
		s->ac = ac ? name_index(ca_sact_name, CA_A_NACTS, ac) : -1;
		if (s->st < 0 || s->ac < 0) {
			snprintf(why, whylen, "%s: unknown %s \"%s\" (the ad is passed through "
			    "unchanged)", slot_name(sd, s), s->st < 0 ? "State" : "Activity",
			    s->st < 0 ? (st ? st : "?") : (ac ? ac : "?"));
			s->bad = true;
			return -1;
		}
		if (!(legal_acts[s->st] & (1u << s->ac))) {
			snprintf(why, whylen, "%s: %s/%s is not a state and activity of a startd "
			    "(the ad is passed through unchanged)", slot_name(sd, s), st, ac);
			s->bad = true;
			return -1;
		}
	}
	const char *type = lit_str(ad, sd->n[A_SLOTTYPE]);
	if ((type && strcasecmp(type, "Partitionable") == 0) || lit_true(ad, sd->n[A_PSLOT]))
		s->kind = K_PARTITIONABLE;
	else if ((type && strcasecmp(type, "Dynamic") == 0) || lit_true(ad, sd->n[A_DSLOT]))
		s->kind = K_DYNAMIC;
	s->id = 1;
	lit_int(ad, sd->n[A_SLOTID], &s->id);
	lit_int(ad, sd->n[A_DSLOTID], &s->sub);
	if (s->kind == K_DYNAMIC && s->sub == 0) {
		const char *n = slot_name(sd, s), *u = strchr(n, '_');
		if (u != NULL)
			s->sub = strtoll(u + 1, NULL, 10);
	}
	int64_t cores = 0, mem = 0;
	if (!lit_int(ad, sd->n[A_DETCPUS], &cores) && !lit_int(ad, sd->n[A_TCPUS], &cores))
		lit_int(ad, sd->n[A_CPUS], &cores);
	if (!lit_int(ad, sd->n[A_DETMEMORY], &mem) && !lit_int(ad, sd->n[A_TMEMORY], &mem))
		lit_int(ad, sd->n[A_MEMORY], &mem);
	if ((s->pol = policy_for(sd, cores, mem)) == NULL) {
		snprintf(why, whylen, "%s: the policy does not compile for this machine (the ad "
		    "is passed through unchanged)", slot_name(sd, s));
		s->bad = true;
		return -1;
	}
	if (!has(sd, s, A_ECS))
		set_int(sd, s, A_ECS, s->clock);
	if (!has(sd, s, A_ECA))
		set_int(sd, s, A_ECA, s->clock);
	if (!lit_time(ad, sd->n[A_MYCURRENTTIME], &v))
		publish_clock(sd, s);
	/* a job on the slot always has a start time */
	if (((s->st == CA_S_CLAIMED && s->ac != CA_A_IDLE) || s->st == CA_S_PREEMPTING) &&
	    !job_active(sd, s) && lit_time(ad, sd->n[A_ECS], &v))
		set_int(sd, s, A_JOBSTART, v);
	publish_policy(sd, s);
	publish_requirements(sd, s);
	return 0;
}

/* ---- --init: slots from a machine description ---- */

enum { SH_AUTO, SH_FRAC, SH_ABS };
enum { R_CPUS, R_MEM, R_DISK, NRES };
static const char *const res_name[NRES] = { "cpus", "memory", "disk" };

struct share {
	int kind;
	double v;
};

struct sreq {
	int64_t type;
	bool part;
	struct share sh[NRES];
	int64_t amt[NRES];
};

static int
parse_share(const char *s, size_t n, struct share *out)
{
	char buf[64], *end;

	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (strcasecmp(buf, "auto") == 0) {
		out->kind = SH_AUTO;
		return 0;
	}
	char *slash = strchr(buf, '/');
	if (buf[n - 1] == '%') {
		buf[n - 1] = '\0';
		out->v = ca_strtod(buf, &end) / 100.0;
		out->kind = SH_FRAC;
		return *end == '\0' && end != buf && out->v >= 0 ? 0 : -1;
	}
	if (slash != NULL) {
		*slash = '\0';
		double a = ca_strtod(buf, &end);
		if (*end != '\0' || end == buf)
			return -1;
		double b = ca_strtod(slash + 1, &end);
		if (*end != '\0' || end == slash + 1 || !(b > 0) || a < 0)
			return -1;
		out->kind = SH_FRAC;
		out->v = a / b;
		return 0;
	}
	out->v = ca_strtod(buf, &end);
	out->kind = SH_ABS;
	return *end == '\0' && end != buf && out->v >= 0 && out->v < 9e15 ? 0 : -1;
}

/* The resource a slot type names: any leading part of cpus, memory, ram,
 * disk, swap or virtualmemory, in any case (-1: swap, not simulated; -2:
 * unknown). */
static int
res_of(const char *k, size_t n)
{
	static const struct {
		const char *name;
		int r;
	} names[] = {
		{ "cpus", R_CPUS }, { "memory", R_MEM }, { "ram", R_MEM }, { "disk", R_DISK },
		{ "swap", -1 }, { "virtualmemory", -1 }
	};

	for (size_t i = 0; n > 0 && i < sizeof names / sizeof names[0]; i++)
		if (n <= strlen(names[i].name) && strncasecmp(k, names[i].name, n) == 0)
			return names[i].r;
	return -2;
}

/* "cpus=2, ram=128, swap=25%, disk=1/2", "25%", "1/4", "auto". */
static int
parse_type(const char *spec, struct share sh[NRES], char *why, size_t whylen)
{
	struct share blanket = { SH_AUTO, 0 };
	bool given[NRES] = { false, false, false };
	const char *p = spec;

	while (*p) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		const char *eq = memchr(p, '=', n);
		if (eq == NULL) {
			if (n > 0 && parse_share(p, n, &blanket) < 0)
				goto bad;
		} else {
			const char *k = p;
			while (k < eq && (*k == ' ' || *k == '\t'))
				k++;
			size_t kl = (size_t)(eq - k);
			while (kl > 0 && (k[kl - 1] == ' ' || k[kl - 1] == '\t'))
				kl--;
			int r = res_of(k, kl);
			if (r == -2) {
				snprintf(why, whylen, "unknown resource '%.*s' (cpus, memory, "
				    "disk, swap; custom resources are not simulated)", (int)kl, k);
				return -1;
			}
			struct share v;
			if (parse_share(eq + 1, n - (size_t)(eq + 1 - p), &v) < 0)
				goto bad;
			if (r >= 0) {
				sh[r] = v;
				given[r] = true;
			}
		}
		p += n;
		if (*p == ',')
			p++;
	}
	for (int r = 0; r < NRES; r++)
		if (!given[r])
			sh[r] = blanket;
	return 0;
bad:
	snprintf(why, whylen, "'%s' is not a slot type (a fraction like 1/4, a percentage, "
	    "a number, auto, or a list of resource=value)", spec);
	return -1;
}

static int
layout_err(ca_startd *sd, const char *knob, ca_diag *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
layout_err(ca_startd *sd, const char *knob, ca_diag *err, const char *fmt, ...)
{
	va_list ap;

	memset(err, 0, sizeof *err);
	if (knob == NULL || !ca_config_locate(sd->cfg, knob, err))
		err->file = "<config>";
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	err->status = CA_EX_INPUT;
	return -1;
}

/* The slots the configuration asks for; returns how many (reqs malloc'ed),
 * or -1 with err set. */
static int
layout(ca_startd *sd, int64_t ncpus, struct sreq **reqsp, ca_diag *err)
{
	struct sreq *reqs = NULL;
	size_t n = 0;
	int64_t types[64];
	size_t ntypes = 0;
	strbuf sb = STRBUF_INIT;
	char why[200];

	for (size_t i = 0; i < ca_config_count(sd->cfg); i++) {
		const char *name = ca_config_name_at(sd->cfg, i);
		if (strncasecmp(name, "NUM_SLOTS_TYPE_", 15) != 0)
			continue;
		char *end;
		long long t = strtoll(name + 15, &end, 10);
		if (*end != '\0' || t < 1 || ntypes == 64)
			continue;
		bool dup = false;
		for (size_t k = 0; k < ntypes; k++)
			dup |= types[k] == t;
		if (!dup)
			types[ntypes++] = t;
	}
	for (size_t i = 1; i < ntypes; i++)	/* ascending */
		for (size_t k = i; k > 0 && types[k - 1] > types[k]; k--) {
			int64_t x = types[k];
			types[k] = types[k - 1];
			types[k - 1] = x;
		}
	for (size_t i = 0; i < ntypes; i++) {
		char knob[64], tknob[64], pknob[80];
		int64_t count = 0;
		bool part = false;
		snprintf(knob, sizeof knob, "NUM_SLOTS_TYPE_%lld", (long long)types[i]);
		snprintf(tknob, sizeof tknob, "SLOT_TYPE_%lld", (long long)types[i]);
		snprintf(pknob, sizeof pknob, "SLOT_TYPE_%lld_PARTITIONABLE", (long long)types[i]);
		if (ca_config_int(sd->cfg, knob, &count, err) < 0 ||
		    ca_config_bool(sd->cfg, pknob, &part, err) < 0 ||
		    ca_config_string(sd->cfg, tknob, &sb, err) < 0)
			goto fail;
		if (count < 0 || count > 4096) {
			layout_err(sd, knob, err, "%s must be between 0 and 4096", knob);
			goto fail;
		}
		struct share sh[NRES];
		if (parse_type(sb.len ? sb.buf : "auto", sh, why, sizeof why) < 0) {
			layout_err(sd, tknob, err, "%s: %s", tknob, why);
			goto fail;
		}
		for (int64_t k = 0; k < count; k++) {
			reqs = ca_xreallocarray(reqs, n + 1, sizeof *reqs);
			memset(&reqs[n], 0, sizeof reqs[n]);
			reqs[n].type = types[i];
			reqs[n].part = part;
			memcpy(reqs[n].sh, sh, sizeof sh);
			n++;
		}
	}
	if (n == 0) {
		int64_t k = 0;
		if (ca_config_int(sd->cfg, "NUM_SLOTS", &k, err) < 0)
			goto fail;
		if (k < 0 || k > ncpus) {
			layout_err(sd, "NUM_SLOTS", err, "NUM_SLOTS = %lld: a machine of %lld "
			    "cpus has 1 to %lld slots", (long long)k, (long long)ncpus,
			    (long long)ncpus);
			goto fail;
		}
		bool part = k == 0;	/* no slot configuration: one partitionable slot */
		if (k == 0)
			k = 1;
		for (int64_t i = 0; i < k; i++) {
			reqs = ca_xreallocarray(reqs, n + 1, sizeof *reqs);
			memset(&reqs[n], 0, sizeof reqs[n]);
			reqs[n].part = part;
			n++;
		}
	}
	strbuf_release(&sb);
	*reqsp = reqs;
	return (int)n;
fail:
	strbuf_release(&sb);
	free(reqs);
	return -1;
}

/* Share each resource among the slots: fractions and numbers first, what
 * is left evenly among the "auto" ones. */
static int
allocate(ca_startd *sd, struct sreq *reqs, int n, const int64_t total[NRES], ca_diag *err)
{
	for (int r = 0; r < NRES; r++) {
		int64_t used = 0, nauto = 0;
		for (int i = 0; i < n; i++) {
			struct share *sh = &reqs[i].sh[r];
			if (sh->kind == SH_FRAC)
				reqs[i].amt[r] = (int64_t)floor((double)total[r] * sh->v + 1e-9);
			else if (sh->kind == SH_ABS)
				reqs[i].amt[r] = (int64_t)sh->v;
			else
				nauto++;
			if (sh->kind != SH_AUTO)
				used += reqs[i].amt[r];
		}
		if (used > total[r]) {
			char knob[64];
			snprintf(knob, sizeof knob, "SLOT_TYPE_%lld", (long long)reqs[0].type);
			return layout_err(sd, reqs[0].type ? knob : NULL, err, "the slot types "
			    "ask for %lld %s of a machine that has %lld", (long long)used,
			    res_name[r], (long long)total[r]);
		}
		int64_t left = total[r] - used, k = 0;
		for (int i = 0; i < n; i++)
			if (reqs[i].sh[r].kind == SH_AUTO) {
				reqs[i].amt[r] = left / nauto + (k < left % nauto ? 1 : 0);
				k++;
			}
	}
	return 0;
}

int
ca_smachine_create(ca_smachine *m, const ca_ad *desc, int64_t now, ca_diag *err)
{
	ca_startd *sd = m->sd;
	const char *host = lit_str(desc, sd->n[A_MACHINE]);
	int64_t cores, memory, disk, ncpus, mem;
	struct sreq *reqs = NULL;

	memset(err, 0, sizeof *err);
	err->file = "<machine>";
	if (host == NULL)
		host = lit_str(desc, sd->n[A_NAME]);
	if (host == NULL || *host == '\0') {
		snprintf(err->msg, sizeof err->msg, "a machine needs a Name or Machine (its host "
		    "name)");
		return -1;
	}
	if (strchr(host, '@') != NULL)
		host = strchr(host, '@') + 1;
	if (!lit_int(desc, sd->n[A_CPUS], &cores) || cores < 1 ||
	    !lit_int(desc, sd->n[A_MEMORY], &memory) || memory < 1 ||
	    !lit_int(desc, sd->n[A_DISK], &disk) || disk < 0) {
		snprintf(err->msg, sizeof err->msg, "machine %s: Cpus, Memory (MB) and Disk (KB) "
		    "must be given as positive integers", host);
		return -1;
	}
	set_detected(sd, cores, memory);
	ncpus = cores;
	mem = memory;
	if (ca_config_int(sd->cfg, "NUM_CPUS", &ncpus, err) < 0 ||
	    ca_config_int(sd->cfg, "MEMORY", &mem, err) < 0)
		return -1;
	if (ncpus < 1 || mem < 1)
		return layout_err(sd, ncpus < 1 ? "NUM_CPUS" : "MEMORY", err,
		    "%s must be positive", ncpus < 1 ? "NUM_CPUS" : "MEMORY");
	struct policy *pol = policy_for(sd, cores, memory);
	if (pol == NULL) {
		snprintf(err->msg, sizeof err->msg, "machine %s: the policy does not compile",
		    host);
		return -1;
	}
	int n = layout(sd, ncpus, &reqs, err);
	if (n < 0)
		return -1;
	int64_t total[NRES] = { ncpus, mem, disk };
	if (allocate(sd, reqs, n, total, err) < 0) {
		free(reqs);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct slot *s = ca_xcalloc(1, sizeof *s);
		s->ad = ca_ad_copy(desc);
		s->st = CA_S_OWNER;
		s->ac = CA_A_IDLE;
		s->clock = now;
		s->kind = reqs[i].part ? K_PARTITIONABLE : K_STATIC;
		s->id = i + 1;
		s->pol = pol;
		strbuf_reset(&sd->tmp);
		strbuf_addf(&sd->tmp, "slot%d@%s", i + 1, host);
		set_str(sd, s, A_NAME, sd->tmp.buf);
		if (!has(sd, s, A_MACHINE))
			set_str(sd, s, A_MACHINE, host);
		set_int(sd, s, A_CPUS, reqs[i].amt[R_CPUS]);
		set_int(sd, s, A_MEMORY, reqs[i].amt[R_MEM]);
		set_int(sd, s, A_DISK, reqs[i].amt[R_DISK]);
		if (!has(sd, s, A_MYTYPE))
			set_str(sd, s, A_MYTYPE, "Machine");
		set_int(sd, s, A_SLOTID, s->id);
		set_str(sd, s, A_SLOTTYPE, s->kind == K_PARTITIONABLE ? "Partitionable" :
		    "Static");
		set_int(sd, s, A_SLOTTYPEID, reqs[i].type);
		if (s->kind == K_PARTITIONABLE)
			set_bool(sd, s, A_PSLOT, true);
		set_int(sd, s, A_TCPUS, ncpus);
		set_int(sd, s, A_TMEMORY, mem);
		set_int(sd, s, A_TDISK, disk);
		set_int(sd, s, A_DETCPUS, cores);
		set_int(sd, s, A_DETMEMORY, memory);
		set_int(sd, s, A_TSCPUS, reqs[i].amt[R_CPUS]);
		set_int(sd, s, A_TSMEMORY, reqs[i].amt[R_MEM]);
		set_int(sd, s, A_TSDISK, reqs[i].amt[R_DISK]);
		set_int(sd, s, A_TOTALSLOTS, n);
		if (!has(sd, s, A_SLOTWEIGHT)) {
			ca_diag perr;
			ca_expr *w = ca_parse_expr(s->ad->arena, "Cpus", 4, 0, &perr);
			ca_ad_set(s->ad, sd->n[A_SLOTWEIGHT], aname[A_SLOTWEIGHT], w);
		}
		set_str(sd, s, A_STATE, "Owner");
		set_str(sd, s, A_ACTIVITY, "Idle");
		set_int(sd, s, A_ECS, now);
		set_int(sd, s, A_ECA, now);
		publish_clock(sd, s);
		if (!has(sd, s, A_KBDIDLE))
			set_int(sd, s, A_KBDIDLE, 0);
		if (!has(sd, s, A_CONSIDLE)) {
			int64_t k = 0;
			lit_int(s->ad, sd->n[A_KBDIDLE], &k);
			set_int(sd, s, A_CONSIDLE, k);
		}
		if (!has(sd, s, A_LOADAVG))
			set_real(sd, s, A_LOADAVG, 0.0);
		set_real(sd, s, A_CONDORLOAD, 0.0);
		set_bool(sd, s, A_CPUISBUSY, false);
		set_int(sd, s, A_CPUBUSYTIME, 0);
		if (!has(sd, s, A_LASTBENCH))
			set_int(sd, s, A_LASTBENCH, 0);
		set_real(sd, s, A_CURRENTRANK, 0.0);
		publish_policy(sd, s);
		publish_requirements(sd, s);
		push_slot(m, s);
	}
	/* what the first evaluation would publish, so that the ads are complete */
	for (size_t i = 0; i < m->n; i++)
		if (live(m->s[i]))
			publish_end(sd, m->s[i]);
	cross_publish(sd, m);
	free(reqs);
	return 0;
}

/* ---- --why and the timeline ---- */

static void
put_time(strbuf *sb, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm) == NULL)
		strbuf_addf(sb, "%lld", (long long)t);
	else
		strbuf_addf(sb, "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
		    tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static const char *const timer_name[] = {
	[T_NONE] = "", [T_MATCH] = "MATCH_TIMEOUT: back to Owner [8]",
	[T_PMATCH] = "MATCH_TIMEOUT: the preempting match is dropped",
	[T_VACATE] = "vacate time: to Preempting/Killing [21]",
	[T_KILL] = "KILLING_TIMEOUT: the job is killed, the slot leaves Preempting [24/25]",
	[T_BFKILL] = "KILLING_TIMEOUT: the backfill client is killed [29]",
	[T_BENCH] = "benchmarks finish [4]",
};

/* Evaluate s as the startd would now, recording every expression and
 * deciding nothing. */
static void
dry_eval(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	clear_records(sd);
	strbuf_reset(&sd->would);
	sd->dry = true;
	sd->recording = true;
	if (s->st == CA_S_OWNER || s->st == CA_S_UNCLAIMED || s->st == CA_S_MATCHED)
		(void)peval(sd, s, PX_START, false);
	(void)eval_slot(sd, m, s);
	sd->dry = false;
	sd->recording = false;
	ca_arena_reset(&sd->cx.scratch);
}

void
ca_startd_status(ca_startd *sd, ca_smachine *m, size_t i, strbuf *out)
{
	struct slot *s = m->s[i];
	int w;

	strbuf_addf(out, "%s is %s/%s", slot_name(sd, s), ca_sstate_name[s->st],
	    ca_sact_name[s->ac]);
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
			strbuf_addf(out, " %s=", aname[show[k]]);
			ca_print_expr(out, e, 0);
		}
	}
	dry_eval(sd, m, s);
	for (size_t k = 0; k < sd->nrec; k++)
		strbuf_addf(out, "%s%s", k ? ", " : ": ", sd->recs[k].text);
	int64_t d = deadline(sd, s, &w);
	if (w != T_NONE)
		strbuf_addf(out, "; %s in %lld s", timer_name[w],
		    (long long)(d > s->clock ? d - s->clock : 0));
	clear_records(sd);
	ca_arena_reset(&sd->cx.scratch);
}

int
ca_startd_why(ca_startd *sd, ca_smachine *m, const char *name, strbuf *out)
{
	struct slot *s = NULL;
	int64_t ecs = 0, eca = 0;
	int w;

	for (size_t i = 0; i < m->n; i++)
		if (!m->s[i]->deleted && strcasecmp(slot_name(sd, m->s[i]), name) == 0)
			s = m->s[i];
	if (s == NULL)
		return -1;
	strbuf_addf(out, "%s is %s/%s", slot_name(sd, s), ca_sstate_name[s->st],
	    ca_sact_name[s->ac]);
	if (s->bad) {
		strbuf_adds(out, ": not a slot startd-step can run (passed through unchanged)\n");
		return 0;
	}
	lit_time(s->ad, sd->n[A_ECS], &ecs);
	lit_time(s->ad, sd->n[A_ECA], &eca);
	strbuf_adds(out, " at ");
	put_time(out, s->clock);
	strbuf_addf(out, "\n  in %s since ", ca_sstate_name[s->st]);
	put_time(out, ecs);
	strbuf_addf(out, " (%lld s), %s since ", (long long)(s->clock - ecs), ca_sact_name[s->ac]);
	put_time(out, eca);
	strbuf_addf(out, " (%lld s)\n", (long long)(s->clock - eca));

	strbuf d = STRBUF_INIT;
	ca_ad *job = job_of(sd, s);
	if (job != NULL) {
		double r = 0;
		num_of(lit(s->ad, sd->n[A_CURRENTRANK]), &r);
		strbuf_addf(out, "  claim: %s (TARGET of the policy), CurrentRank %g",
		    describe_job(sd, job, NULL, &d), r);
		if (s->st == CA_S_CLAIMED && job_active(sd, s)) {
			const char *rc = retire_cause(sd, s);
			double left = retirement_left(sd, s);
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
		    describe_job(sd, pj, NULL, &d), r);
	}
	if (draining(sd, s))
		strbuf_addf(out, "  draining (%s)\n", lit_str(s->ad, sd->n[A_DRAINHOW]) ?
		    lit_str(s->ad, sd->n[A_DRAINHOW]) : "graceful");
	if (shutdown_mode(sd, s))
		strbuf_addf(out, "  shutting down (%s)\n", shutdown_mode(sd, s));
	if (eviction(sd, s) != R_NONE)
		strbuf_addf(out, "  the claim is being given up: %s\n",
		    reason_name[eviction(sd, s)]);

	dry_eval(sd, m, s);
	strbuf_addf(out, "In %s/%s the startd evaluates:\n", ca_sstate_name[s->st],
	    ca_sact_name[s->ac]);
	if (sd->nrec == 0)
		strbuf_adds(out, "  (no policy expression)\n");
	for (size_t k = 0; k < sd->nrec; k++)
		strbuf_addf(out, "  %s%s\n", sd->recs[k].text, sd->recs[k].job ?
		    "   (job as TARGET)" : "");
	if (sd->would.len > 0)
		strbuf_addf(out, "  => %s\n", sd->would.buf);
	else
		strbuf_adds(out, "  => none of them changes the state\n");
	int64_t dl = deadline(sd, s, &w);
	if (w != T_NONE) {
		strbuf_addf(out, "Timer: %s at ", timer_name[w]);
		put_time(out, dl);
		strbuf_addf(out, " (in %lld s)\n", (long long)(dl > s->clock ? dl - s->clock : 0));
	}
	for (size_t k = 0; k < sd->nrec; k++) {
		if (sd->recs[k].e == NULL)
			continue;
		strbuf_addf(out, "\n%s = ", sd->recs[k].name);
		ca_print_expr(out, sd->recs[k].e, 0);
		strbuf_addc(out, '\n');
		sd->cx.now = s->clock;
		ca_explain(&sd->cx, sd->recs[k].e, s->ad, sd->recs[k].job ? job : NULL, out);
		if (out->len > 0 && out->buf[out->len - 1] != '\n')
			strbuf_addc(out, '\n');
		ca_arena_reset(&sd->cx.scratch);
	}
	clear_records(sd);
	strbuf_release(&d);
	return 0;
}
