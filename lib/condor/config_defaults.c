/* config_defaults.c - HTCondor's built-in defaults (its param table) for the
 * knobs the programs read, and the knobs that are read but not simulated. */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "config_priv.h"

/*
 * The defaults are the lowest layer of the configuration: any definition
 * replaces them, and a lookup that no file answers finds them, so that an
 * empty configuration behaves like a fresh HTCondor install. They are
 * HTCondor's (param_info.in), except where a program already assumed
 * something else: there the program's value stands (marked "HTCondor:"),
 * so that nothing a program decides changes. A knob whose default is
 * empty has no entry, since an empty value counts as undefined anyway.
 *
 * The table is sorted by name without regard to case (ASCII order of the
 * lower-cased names), for the binary search; a unit test checks it.
 */

static const struct cfg_default {
	const char *name, *value;
} defaults[] = {
	{ "ACCOUNTANT_DATABASE_FILE", "$(SPOOL)/Accountantnew.log" },
	{ "ActivityTimer", "(time() - EnteredCurrentActivity)" },
	{ "BackgroundLoad", "0.3" },
	{ "BenchmarkTimer", "(time() - LastBenchmark)" },
	{ "BIN", "$(RELEASE_DIR)/bin" },
	{ "CLAIM_PARTITIONABLE_LEFTOVERS", "$(NEGOTIATOR_USE_SLOT_WEIGHTS)" },
	{ "CLAIM_WORKLIFE", "-1" },			/* HTCondor: 1200 */
	{ "COLLECTOR.IsCollector", "True" },
	{ "COLLECTOR_HOST", "$(CONDOR_HOST)" },
	{ "CONCURRENCY_LIMIT_DEFAULT", "2308032" },
	{ "CONSUMPTION_CPUS", "quantize(target.RequestCpus,{1})" },
	{ "CONSUMPTION_DISK", "quantize(target.RequestDisk,{1024})" },
	{ "CONSUMPTION_MEMORY", "quantize(target.RequestMemory,{128})" },
	{ "CONSUMPTION_POLICY", "False" },
	{ "CONTINUE", "True" },
	{ "ContinueIdleTime", "5 * $(MINUTE)" },
	{ "COUNT_HYPERTHREAD_CPUS", "True" },
	{ "DAEMON_LIST", "MASTER" },
	{ "DEFAULT_PRIO_FACTOR", "1.0" },		/* HTCondor: 1000 */
	{ "ENABLE_BACKFILL", "False" },
	{ "ETC", "$(LOCAL_DIR)" },
	{ "EVICT_BACKFILL", "False" },
	{ "EXECUTE", "$(LOCAL_DIR)/execute" },
	{ "GPU_MONITOR", "$(LIBEXEC)/condor_gpu_utilization" },
	{ "GROUP_ACCEPT_SURPLUS", "False" },
	{ "GROUP_AUTOREGROUP", "False" },
	{ "GROUP_QUOTA_MAX_ALLOCATION_ROUNDS", "3" },
	{ "GROUP_QUOTA_ROUND_ROBIN_RATE", "1.0e100" },
	{ "GROUP_SORT_EXPR", "ifThenElse(AccountingGroup=?=\"<none>\",3.4e+38,"
	    "ifThenElse(GroupQuota>0,GroupResourcesInUse/GroupQuota,3.3e+38))" },
	{ "HighLoad", "0.5" },
	{ "HOUR", "(60 * $(MINUTE))" },			/* HTCondor: 3600 */
	{ "IS_OWNER", "False" },
	{ "IsCollector", "False" },
	{ "IsMaster", "False" },
	{ "IsNegotiator", "False" },
	{ "IsSchedd", "False" },
	{ "IsShadow", "False" },
	{ "IsStartd", "False" },
	{ "IsStarter", "False" },
	{ "IsSubmit", "False" },
	{ "IsTool", "False" },
	{ "IsVanilla", "(TARGET.JobUniverse =?= 5)" },	/* HTCondor: == $(VANILLA) */
	{ "IsVM", "(TARGET.JobUniverse =?= 13)" },	/* HTCondor: == $(VM) */
	{ "JOB_DEFAULT_REQUESTCPUS", "1" },
	{ "JOB_DEFAULT_REQUESTDISK", "DiskUsage" },	/* the manual's; HTCondor: MAX({1024, (TransferInputSizeMB+1) * 1.25}) * 1024 */
	{ "JOB_DEFAULT_REQUESTMEMORY", "ifThenElse(MemoryUsage =!= UNDEFINED, MemoryUsage, 1)" },
	    /* the manual's; HTCondor: 128 */
	{ "KILL", "False" },
	{ "KILLING_TIMEOUT", "30" },
	{ "LIB", "$(RELEASE_DIR)/lib" },
	{ "LIBEXEC", "$(RELEASE_DIR)/libexec" },
	{ "LOCAL_CONFIG_DIR_EXCLUDE_REGEXP", "^((\\..*)|(.*\\.pl)|(.*\\.py)|(.*\\.sh)|(.*~)|(#.*)|"
	    "(.*\\.rpmsave)|(.*\\.rpmnew)|(.*\\.dpkg-old)|(.*\\.dpkg-dist)|(.*\\.cfsaved))$" },
	{ "LOCAL_DIR", "$(TILDE)" },
	{ "LOCK", "$(LOG)" },
	{ "LOG", "$(LOCAL_DIR)/log" },
	{ "MachineMaxVacateTime", "$(MaxVacateTime)" },
	{ "MASTER.IsMaster", "True" },
	{ "MATCH_TIMEOUT", "120" },
	{ "MAX_JOBS_PER_OWNER", "100000" },
	{ "MAX_JOBS_PER_SUBMISSION", "20000" },
	{ "MAXJOBRETIREMENTTIME", "0" },		/* HTCondor: none (0 in the startd) */
	{ "MaxSuspendTime", "10 * $(MINUTE)" },
	{ "MaxVacateTime", "10 * $(MINUTE)" },
	{ "MEMORY", "$(DETECTED_MEMORY)" },		/* HTCondor: none (the detected memory) */
	{ "MINUTE", "60" },
	{ "MODIFY_REQUEST_EXPR_REQUESTCPUS", "quantize(RequestCpus, {1})" },
	{ "MODIFY_REQUEST_EXPR_REQUESTDISK", "quantize(RequestDisk, {1024})" },
	    /* HTCondor: quantize(RequestDisk - $(CATALOG_SPACE),{Target.DiskQuantum?:1024}) */
	{ "MODIFY_REQUEST_EXPR_REQUESTMEMORY", "quantize(RequestMemory, {128})" },
	{ "MPI", "8" },
	{ "NEGOTIATOR.IsNegotiator", "True" },
	{ "NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION", "False" },	/* HTCondor: true */
	{ "NEGOTIATOR_CONSIDER_EARLY_PREEMPTION", "False" },
	{ "NEGOTIATOR_CONSIDER_PREEMPTION", "True" },
	{ "NEGOTIATOR_DEPTH_FIRST", "False" },
	{ "NEGOTIATOR_DISCOUNT_SUSPENDED_RESOURCES", "False" },
	{ "NEGOTIATOR_IGNORE_USER_PRIORITIES", "False" },
	{ "NEGOTIATOR_INTERVAL", "60" },
	{ "NEGOTIATOR_MAX_TIME_PER_CYCLE", "1200" },
	{ "NEGOTIATOR_MAX_TIME_PER_PIESPIN", "120" },
	{ "NEGOTIATOR_MAX_TIME_PER_SCHEDD", "120" },
	{ "NEGOTIATOR_MAX_TIME_PER_SUBMITTER", "60" },
	{ "NEGOTIATOR_POST_JOB_RANK", "(RemoteOwner =?= UNDEFINED) * (ifthenElse(isUndefined(KFlops), "
	    "1000, Kflops) - SlotID - 1.0e10*(Offline=?=True))" },
	{ "NEGOTIATOR_PRE_JOB_RANK", "(10000000 * My.Rank) + (1000000 * (RemoteOwner =?= UNDEFINED)) "
	    "- (100000 * Cpus) - Memory" },
	{ "NEGOTIATOR_TRIM_SHUTDOWN_THRESHOLD", "0" },
	{ "NEGOTIATOR_USE_SLOT_WEIGHTS", "True" },
	{ "NEGOTIATOR_USE_WEIGHTED_DEMAND", "True" },
	{ "NICE_USER_ACCOUNTING_GROUP_NAME", "nice-user" },
	{ "NICE_USER_PRIO_FACTOR", "10000000" },	/* HTCondor: 1e10 */
	{ "NUM_CPUS", "$(DETECTED_CPUS)" },		/* HTCondor: $(DETECTED_CPUS_LIMIT) */
	{ "PERIODIC_CHECKPOINT", "((time() - LastPeriodicCheckpoint)/60.0) > "
	    "(180.0 + $RANDOM_INTEGER(-30,30,1))" },
	{ "PREEMPT", "False" },
	{ "PREEMPTION_RANK", "(RemoteUserPrio * 1000000) - "
	    "ifThenElse(isUndefined(TotalJobRuntime), 0, TotalJobRuntime)" },
	{ "PRIORITY_HALFLIFE", "86400" },
	{ "RANK", "0.0" },				/* HTCondor: none (0 in the startd) */
	{ "RELEASE_DIR", "/usr" },
	{ "REMOTE_PRIO_FACTOR", "10000000" },
	{ "REQUIRE_LOCAL_CONFIG_FILE", "True" },
	{ "RESERVED_MEMORY", "0" },
	{ "RUN", "$(LOCK)" },
	{ "RunBenchmarks", "False" },		/* HTCondor: LastBenchmark == 0 */
	{ "SBIN", "$(RELEASE_DIR)/sbin" },
	{ "SCHEDD.IsSchedd", "True" },
	{ "SEC_DEFAULT_AUTHENTICATION_METHODS", "FS,TOKEN" },
	{ "SHADOW.IsShadow", "True" },
	{ "SmallJob", "(TARGET.ImageSize <= (15 * 1024))" },	/* HTCondor: < */
	{ "SPOOL", "$(LOCAL_DIR)/spool" },
	{ "STANDARD", "1" },
	{ "START", "True" },
	{ "START_BACKFILL", "False" },
	{ "STARTD.IsStartd", "True" },
	{ "STARTD_NOCLAIM_SHUTDOWN", "0" },
	{ "STARTD_STEP_BENCHMARK_TIME", "10" },	/* classad-tools' own */
	{ "STARTER.IsStarter", "True" },
	{ "StartIdleTime", "15 * $(MINUTE)" },
	{ "StateTimer", "(time() - EnteredCurrentState)" },
	{ "SUBMIT.IsSubmit", "True" },
	{ "SUSPEND", "False" },
	{ "TOOL.IsTool", "True" },
	{ "USE_GLOBAL_JOB_PRIOS", "False" },
	{ "VANILLA", "5" },
	{ "VM", "13" },
	{ "WANT_SUSPEND", "False" },
	{ "WANT_VACATE", "False" },	/* HTCondor: True; the manual's default policy: False */
};

#define NDEFAULTS (sizeof defaults / sizeof defaults[0])

const char *
cfg_default(const char *name, size_t len)
{
	const struct cfg_default *d = ca_table_find(defaults, NDEFAULTS, sizeof defaults[0],
	    name, len);

	return d ? d->value : NULL;
}

size_t
cfg_default_count(void)
{
	return NDEFAULTS;
}

const char *
cfg_default_name_at(size_t i)
{
	return i < NDEFAULTS ? defaults[i].name : NULL;
}

/*
 * Knobs that would change what a daemon decides, but that no program here
 * simulates: a program is told of each one a file defines (with a value
 * other than the harmless one, the default under which the simulation is
 * what HTCondor does), so that it can warn instead of ignoring it
 * silently. A pattern is a name, PREFIX* or *SUFFIX; the first that
 * matches counts.
 */
static const struct cfg_unsim unsim[] = {
	/* the negotiator (and its accountant) */
	{ "GROUP_DYNAMIC_MACH_CONSTRAINT", "NEGOTIATOR", NULL,
	    "the slots that count toward dynamic quotas" },
	{ "USE_GLOBAL_JOB_PRIOS", "NEGOTIATOR", "False", "job priorities across submitters" },
	{ "NEGOTIATOR_SUBMITTER_CONSTRAINT", "NEGOTIATOR", NULL,
	    "submitters left out of negotiation" },
	{ "NEGOTIATOR_MAX_TIME_PER_*", "NEGOTIATOR", NULL, "time limits of a cycle" },
	{ "NEGOTIATOR_TRIM_SHUTDOWN_THRESHOLD", "NEGOTIATOR", "0", "slots about to shut down" },
	{ "FLOCK_NEGOTIATOR_HOSTS", "NEGOTIATOR", NULL, "flocking" },
	/* the startd */
	{ "HIBERNATE", "STARTD", "False", "hibernation" },
	{ "HIBERNATE_CHECK_INTERVAL", "STARTD", "0", "hibernation" },
	{ "STARTD_JOB_HOOK_KEYWORD", "STARTD", NULL, "fetch-work hooks" },
	{ "*_HOOK_FETCH_WORK", "STARTD", NULL, "fetch-work hooks" },
	{ "RESERVED_MEMORY", "STARTD", "0", "memory kept from the slots" },
	{ "RESERVED_DISK", "STARTD", NULL, "disk kept from the slots" },
	{ "DISK", "STARTD", NULL, "the disk the slots share" },
	{ "COUNT_HYPERTHREAD_CPUS", "STARTD", "True", "hyperthreads counted as cpus" },
	{ "STARTD_NOCLAIM_SHUTDOWN", "STARTD", "0", "shutting down an idle startd" },
	{ "MUST_MODIFY_REQUEST_EXPRS", "STARTD", "False", "MODIFY_REQUEST_EXPR_ for every request" },
	/* the schedd */
	{ "SCHEDD_CRON_JOBLIST", "SCHEDD", NULL, "schedd cron jobs publish attributes" },
	{ "SYSTEM_ON_VACATE_COOL_DOWN", "SCHEDD", NULL, "job cool-downs" },
	{ "MAX_JOBS_RUNNING", "SCHEDD", NULL, "the limit of running jobs" },
	{ "MAX_JOBS_PER_OWNER", "SCHEDD", "100000", "the limit of jobs per owner" },
	{ "MAX_JOBS_SUBMITTED", "SCHEDD", NULL, "the limit of jobs in the queue" },
	{ "JOB_TRANSFORM_*", "SCHEDD", NULL, "job transforms" },
	{ "SUBMIT_REQUIREMENT_*", "SCHEDD", NULL, "submit requirements" },
	{ "START_LOCAL_UNIVERSE", "SCHEDD", NULL, "local universe jobs" },
	{ "START_SCHEDULER_UNIVERSE", "SCHEDD", NULL, "scheduler universe jobs" },
	{ "FLOCK_TO", "SCHEDD", NULL, "flocking" },
};

static bool
pattern_match(const char *pat, const char *name)
{
	size_t pl = strlen(pat), nl = strlen(name);

	if (pat[0] == '*')
		return nl >= pl - 1 && strcasecmp(name + nl - (pl - 1), pat + 1) == 0 &&
		    nl > pl - 1;
	if (pat[pl - 1] == '*')
		return nl > pl - 1 && strncasecmp(name, pat, pl - 1) == 0;
	return strcasecmp(name, pat) == 0;
}

const struct cfg_unsim *
cfg_unsim_match(const char *name)
{
	for (size_t i = 0; i < sizeof unsim / sizeof unsim[0]; i++)
		if (pattern_match(unsim[i].pattern, name))
			return &unsim[i];
	return NULL;
}
