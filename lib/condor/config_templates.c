/* config_templates.c - the configuration templates of `use CATEGORY : NAME`
 * that HTCondor ships (ROLE, FEATURE, POLICY, SECURITY), with their knobs. */
#include <stddef.h>
#include <string.h>

#include "config_priv.h"

/*
 * Each template is configuration text, read as a file would be once its
 * arguments are put in: $(0) all of them, $(1) the first, $(1?) whether it
 * was given, $(0#) how many, $(2+) the second and the rest, $(1:default)
 * with a default (cfg_meta_args). They set the same knobs to the same
 * expressions as HTCondor's (param_info.in); the comments are ours.
 *
 * `simulated` says whether a template shapes what the programs decide
 * (policies, slot layouts): those are expanded for the simulation. The
 * others (roles, security, monitoring, schedd transforms) are read too, so
 * that a real configuration loads, and config-val names them as not
 * simulated; the knobs among them that would change a decision are in the
 * not-simulated table (config_defaults.c) and draw a warning.
 */

#define SIM	true
#define NOSIM	false

/* How the idle-desktop policies end: jobs are vacated, never suspended,
 * and the keyboard of the machine counts for every slot. */
#define EVICT_NOT_SUSPEND \
"WANT_SUSPEND = False\n" \
"WANT_VACATE = True\n" \
"SUSPEND = False\n" \
"CONTINUE = True\n" \
"KILL = False\n" \
"MaxJobRetirementTime = 0\n" \
"CLAIM_WORKLIFE =\n" \
"SLOTS_CONNECTED_TO_KEYBOARD = 1000000\n" \
"SLOTS_CONNECTED_TO_CONSOLE = 1000000\n" \
"IS_OWNER = (START =?= False)\n"

static const struct cfg_builtin_tmpl tmpls[] = {
	/* ---- POLICY: what a machine does with jobs ---- */

	{ "FEATURE", "POLICY_EXPR_FRAGMENTS",
"PolicyExprFragments = 1\n"
"KeyboardBusy = (KeyboardIdle < $(MINUTE))\n"
"ConsoleBusy = (ConsoleIdle  < $(MINUTE))\n"
"KeyboardNotBusy = ($(KeyboardBusy) == False)\n"
"JustCPU = ($(CPUBusy) && ($(KeyboardBusy) == False))\n"
"MachineBusy = ($(CPUBusy) || $(KeyboardBusy))\n"
"NonCondorLoadAvg = (LoadAvg - CondorLoadAvg)\n"
"CpuIdle = ($(NonCondorLoadAvg) <= $(BackgroundLoad))\n"
"CpuBusy = ($(NonCondorLoadAvg) >= $(HighLoad))\n"
"ActivationTimer = ifThenElse(JobStart =!= UNDEFINED, (time() - JobStart), 0)\n"
"LastCkpt = (time() - LastPeriodicCheckpoint)\n",
	    SIM, "the expression pieces the desktop policies are made of" },

	{ "POLICY", "DESKTOP",
"if ! defined PolicyExprFragments\n"
"  use FEATURE : POLICY_EXPR_FRAGMENTS\n"
"endif\n"
"STARTD_LATCH_EXPRS = $(STARTD_LATCH_EXPRS) CpuBusy\n"
"CpuBusyTimer = IfThenElse(CpuBusyValue is 1, time() - CpuBusyTime, 0)\n"
"WANT_SUSPEND = ($(SmallJob) || $(KeyboardNotBusy) || $(IsVanilla) ) && ( $(SUSPEND))\n"
"WANT_VACATE = $(ActivationTimer) > 600 || $(IsVanilla)\n"
"SUSPEND = ($(KeyboardBusy) || ( ($(CpuBusyTimer) > 120) && $(ActivationTimer) > 90))\n"
"CONTINUE = ($(CPUIdle) && ($(ActivityTimer) > 10) && (KeyboardIdle > $(ContinueIdleTime)))\n"
"PREEMPT = (((Activity == \"Suspended\") && ($(ActivityTimer) > $(MaxSuspendTime))) || "
    "(SUSPEND && (WANT_SUSPEND == False)))\n"
"START = ((KeyboardIdle > $(StartIdleTime)) && ( $(CPUIdle) || "
    "(State != \"Unclaimed\" && State != \"Owner\")) )\n"
"KILL = False\n"
"MaxJobRetirementTime = 0\n"
"CLAIM_WORKLIFE =\n"
"SLOTS_CONNECTED_TO_KEYBOARD = 1000000\n"
"SLOTS_CONNECTED_TO_CONSOLE = 1000000\n"
"IS_OWNER = (START =?= False)\n",
	    SIM, "run jobs while the owner is away; suspend, then vacate, when the owner returns" },

	{ "FEATURE", "POLICY_HOURS_TO_START",
"WorkdayBeginHour = $(1:8)\n"
"WorkdayEndHour = $(2:12+5)\n"
"WorkdayBeginMinuteStartJobs = ($(WorkdayBeginHour))*60 - 29.5\n"
"WorkdayBeginMinuteStopJobs = ($(WorkdayBeginHour))*60 - 9.5\n"
"WorkdayEndMinute = ($(WorkdayEndHour))*60 + 0.5\n"
"RunJobsHours = ClockMin < $INT(WorkdayBeginMinuteStartJobs) || "
    "ClockMin > $INT(WorkdayEndMinute)\n"
"NoJobsHours = ClockMin > $INT(WorkdayBeginMinuteStopJobs) && "
    "ClockMin < $INT(WorkdayEndMinute)\n"
"if $(3?)\n"
"  WorkweekFirstDay = $(3:1)\n"
"  WorkweekLastDay = $(4:5)\n"
"  IsWeekend = ClockDay < $INT(WorkweekFirstDay) || ClockDay > $INT(WorkWeekLastDay)\n"
"  IsWorkday = ClockDay >= $INT(WorkweekFirstDay) && ClockDay <= $INT(WorkWeekLastDay)\n"
"  RunJobsHours = $(IsWeekend) || $(RunJobsHours)\n"
"  NoJobsHours = $(IsWorkday) && $(NoJobsHours)\n"
"endif\n"
"RunJobsHours = ($(RunJobsHours))\n"
"NoJobsHours = ($(NoJobsHours))\n",
	    SIM, "(start_hour, end_hour [, first_day, last_day]): the hours jobs may run" },

	{ "POLICY", "DESKTOP_IDLE",
"if $(1?)\n"
"  use FEATURE : POLICY_HOURS_TO_START($(1+))\n"
"endif\n"
"NonCondorLoadAvg = (LoadAvg - CondorLoadAvg)\n"
"CpuBusy = ($(NonCondorLoadAvg) >= $(HighLoad))\n"
"CpuIdle = ($(NonCondorLoadAvg) <= $(BackgroundLoad))\n"
"STARTD_LATCH_EXPRS = $(STARTD_LATCH_EXPRS) CpuBusy\n"
"CpuBusyTimer = (CpuBusyValue * (time() - CpuBusyTime))\n"
"PreemptKeyboardIdleTime = 60\n"
"PreemptCpuBusyTime = 120\n"
"PREEMPT = (KeyboardIdle < $(PreemptKeyboardIdleTime)) || "
    "($(CpuBusyTimer) > $(PreemptCpuBusyTime))\n"
"if defined NoJobsHours\n"
"  PREEMPT = ($(PREEMPT)) && ($(NoJobsHours))\n"
"endif\n"
"START = (KeyboardIdle > $(StartIdleTime)) && $(CPUIdle)\n"
"if defined RunJobsHours\n"
"  START = ($(START)) || ($(RunJobsHours))\n"
"endif\n"
EVICT_NOT_SUSPEND,
	    SIM, "([start_hour, end_hour [, first_day, last_day]]): run on idle desktops, "
	    "never suspend" },

	{ "POLICY", "DESKTOP_HOURS",
"use FEATURE : POLICY_HOURS_TO_START($(1+))\n"
"NonCondorLoadAvg = (LoadAvg - CondorLoadAvg)\n"
"CpuBusy = ($(NonCondorLoadAvg) >= $(HighLoad))\n"
"STARTD_LATCH_EXPRS = $(STARTD_LATCH_EXPRS) CpuBusy\n"
"CpuBusyTimer = (CpuBusyValue * (time() - CpuBusyTime))\n"
"PREEMPT = $(NoJobsHours)\n"
"START = $(RunJobsHours)\n"
EVICT_NOT_SUSPEND,
	    SIM, "(start_hour, end_hour [, first_day, last_day]): run outside working hours" },

	{ "POLICY", "ALWAYS_RUN_JOBS",
"WANT_SUSPEND = False\n"
"WANT_VACATE = True\n"
"SUSPEND = False\n"
"CONTINUE = True\n"
"PREEMPT = False\n"
"START = True\n"
"KILL = False\n"
"PREEMPTION_REQUIREMENTS = False\n"
"NEGOTIATOR_CONSIDER_PREEMPTION = False\n"
"MaxJobRetirementTime = 2147483647\n"
"CLAIM_WORKLIFE = 1200\n",
	    SIM, "a dedicated machine: always start, never preempt" },

	{ "FEATURE", "TESTINGMODE_POLICY_VALUES",
"TESTINGMODE_WANT_SUSPEND = False\n"
"TESTINGMODE_WANT_VACATE = True\n"
"TESTINGMODE_START = True\n"
"TESTINGMODE_SUSPEND = False\n"
"TESTINGMODE_CONTINUE = True\n"
"TESTINGMODE_PREEMPT = False\n"
"TESTINGMODE_KILL = False\n"
"TESTINGMODE_PERIODIC_CHECKPOINT = False\n"
"TESTINGMODE_PREEMPTION_REQUIREMENTS = False\n"
"TESTINGMODE_PREEMPTION_RANK = 0\n"
"TESTINGMODE_CLAIM_WORKLIFE = 1200\n",
	    SIM, "the TESTINGMODE_ values of HTCondor 7" },

	{ "FEATURE", "UWCS_DESKTOP_POLICY_VALUES",
"if ! defined PolicyExprFragments\n"
"  use FEATURE : POLICY_EXPR_FRAGMENTS\n"
"endif\n"
"STARTD_LATCH_EXPRS = $(STARTD_LATCH_EXPRS) CpuBusy\n"
"CpuBusyTimer = IfThenElse(CpuBusyValue is 1, time() - CpuBusyTime, 0)\n"
"UWCS_WANT_SUSPEND = ( $(SmallJob) || $(KeyboardNotBusy) || $(IsVanilla) ) && ( $(SUSPEND) )\n"
"UWCS_WANT_VACATE = ( $(ActivationTimer) > 10 * $(MINUTE) || $(IsVanilla) )\n"
"UWCS_START = ( (KeyboardIdle > $(StartIdleTime)) && ( $(CPUIdle) || "
    "(State != \"Unclaimed\" && State != \"Owner\")) )\n"
"UWCS_SUSPEND = ( $(KeyboardBusy) || ( ($(CpuBusyTimer) > 2 * $(MINUTE)) && "
    "$(ActivationTimer) > 90 ) )\n"
"UWCS_CONTINUE = ( $(CPUIdle) && ($(ActivityTimer) > 10) && "
    "(KeyboardIdle > $(ContinueIdleTime)) )\n"
"UWCS_PREEMPT = ( ((Activity == \"Suspended\") && ($(ActivityTimer) > $(MaxSuspendTime))) || "
    "(SUSPEND && (WANT_SUSPEND == False)) )\n"
"UWCS_MaxJobRetirementTime = 0\n"
"UWCS_KILL = false\n"
"UWCS_PERIODIC_CHECKPOINT = $(LastCkpt) > (3 * $(HOUR) + $RANDOM_INTEGER(-30,30,1) * "
    "$(MINUTE) )\n"
"UWCS_NEGOTIATOR_PRE_JOB_RANK = (10000000 * My.Rank) + (1000000 * (RemoteOwner =?= UNDEFINED)) "
    "- (100000 * Cpus) - Memory\n"
"UWCS_NEGOTIATOR_POST_JOB_RANK = (RemoteOwner =?= UNDEFINED) * "
    "(ifthenElse(isUndefined(KFlops), 1000, Kflops) - SlotID - 1.0e10*(Offline=?=True))\n"
"UWCS_PREEMPTION_REQUIREMENTS = ((SubmitterGroup =?= RemoteGroup) && "
    "($(StateTimer) > (1 * $(HOUR))) && (RemoteUserPrio > TARGET.SubmitterUserPrio * 1.2)) || "
    "(MY.NiceUser == True)\n"
"UWCS_PREEMPTION_RANK = (RemoteUserPrio * 1000000) - "
    "ifThenElse(isUndefined(TotalJobRuntime), 0, TotalJobRuntime)\n",
	    SIM, "the UWCS_ values of HTCondor 7's desktop policy" },

	{ "POLICY", "UWCS_DESKTOP",
"use FEATURE : UWCS_DESKTOP_POLICY_VALUES\n"
"WANT_SUSPEND = $(UWCS_WANT_SUSPEND)\n"
"WANT_VACATE = $(UWCS_WANT_VACATE)\n"
"SUSPEND = $(UWCS_SUSPEND)\n"
"CONTINUE = $(UWCS_CONTINUE)\n"
"PREEMPT = $(UWCS_PREEMPT)\n"
"START = $(UWCS_START)\n"
"KILL = $(UWCS_KILL)\n"
"PERIODIC_CHECKPOINT = $(UWCS_PERIODIC_CHECKPOINT)\n"
"PREEMPTION_REQUIREMENTS = $(UWCS_PREEMPTION_REQUIREMENTS)\n"
"PREEMPTION_RANK = $(UWCS_PREEMPTION_RANK)\n"
"NEGOTIATOR_PRE_JOB_RANK = $(UWCS_NEGOTIATOR_PRE_JOB_RANK)\n"
"NEGOTIATOR_POST_JOB_RANK = $(UWCS_NEGOTIATOR_POST_JOB_RANK)\n"
"MaxJobRetirementTime = $(UWCS_MaxJobRetirementTime)\n"
"CLAIM_WORKLIFE = $(UWCS_CLAIM_WORKLIFE)\n"
"SLOTS_CONNECTED_TO_KEYBOARD = 1024*1024\n"
"IS_OWNER = (START =?= False)\n",
	    SIM, "the desktop policy of HTCondor before 8.1.6 (UWCS_ knobs)" },

	{ "POLICY", "LIMIT_JOB_RUNTIMES",
"MAX_JOB_RUNTIME = $(1:24*3600)\n"
"MaxJobRetirementTime = $(MAX_JOB_RUNTIME)+120\n"
"PREEMPT = (Activity == \"Busy\") && ((time() - EnteredCurrentActivity) > $(MAX_JOB_RUNTIME))\n",
	    SIM, "([seconds]): preempt jobs that run longer (default 24 hours)" },

	{ "POLICY", "PREEMPT_IF_RUNTIME_EXCEEDS",
"MAX_JOB_RUNTIME = $(1:24*3600)\n"
"PREEMPT_RUNTIME_EXCEEDS = (JobState == \"Running\") && "
    "((time() - JobCurrentStartDate) > $(MAX_JOB_RUNTIME))\n"
"use POLICY : PREEMPT_IF(PREEMPT_RUNTIME_EXCEEDS)\n",
	    SIM, "([seconds]): preempt jobs that run longer (default 24 hours)" },

	{ "POLICY", "HOLD_IF_RUNTIME_EXCEEDS",
"MAX_JOB_RUNTIME = $(1:24*3600)\n"
"HOLD_REASON_RUNTIME_EXCEEDS = runtime exceeded maximum ($(MAX_JOB_RUNTIME) seconds)\n"
"HOLD_RUNTIME_EXCEEDS = (JobState == \"Running\") && "
    "((time() - JobCurrentStartDate) > $(MAX_JOB_RUNTIME))\n"
"use POLICY : WANT_HOLD_IF(HOLD_RUNTIME_EXCEEDS, $(HOLD_SUBCODE_RUNTIME_EXCEEDS:103), "
    "$(HOLD_REASON_RUNTIME_EXCEEDS))\n",
	    SIM, "([seconds]): hold jobs that run longer (default 24 hours)" },

	{ "POLICY", "STARTD_PUBLISH_CpusUsage",
"CpusUsage = ifthenelse(TotalLoadAvg > 0.0 && Activity!=\"Idle\", "
    "CondorLoadAvg/TotalLoadAvg*MIN({TotalLoadAvg, $(DETECTED_CORES)}), 0)\n"
"STARTD_ATTRS = $(STARTD_ATTRS) CpusUsage\n",
	    SIM, "publish CpusUsage, the cores a job uses" },

	{ "POLICY", "PREEMPT_IF_CPUS_EXCEEDED",
"use POLICY : STARTD_PUBLISH_CpusUsage\n"
"CPU_EXCEEDED = (CpusUsage > Cpus + 0.8)\n"
"use POLICY : PREEMPT_IF(CPU_EXCEEDED)\n",
	    SIM, "preempt jobs that use more cores than the slot has" },

	{ "POLICY", "HOLD_IF_CPUS_EXCEEDED",
"use POLICY : STARTD_PUBLISH_CpusUsage\n"
"CPU_EXCEEDED = (CpusUsage > Cpus + 0.8)\n"
"HOLD_REASON_CPU_EXCEEDED = CPU usage exceeded request_cpus\n"
"use POLICY : WANT_HOLD_IF(CPU_EXCEEDED, $(HOLD_SUBCODE_CPU_EXCEEDED:101), "
    "$(HOLD_REASON_CPU_EXCEEDED))\n",
	    SIM, "hold jobs that use more cores than the slot has" },

	{ "POLICY", "PREEMPT_IF_DISK_EXCEEDED",
"DISK_EXCEEDED = (JobUniverse != 13 && DiskUsage =!= UNDEFINED && DiskUsage > Disk)\n"
"use POLICY : PREEMPT_IF(DISK_EXCEEDED)\n",
	    SIM, "preempt jobs that use more disk than the slot has" },

	{ "POLICY", "HOLD_IF_DISK_EXCEEDED",
"DISK_EXCEEDED = (JobUniverse != 13 && DiskUsage =!= UNDEFINED && DiskUsage > Disk)\n"
"HOLD_REASON_DISK_EXCEEDED = disk usage exceeded allocated disk\n"
"use POLICY : WANT_HOLD_IF(DISK_EXCEEDED, $(HOLD_SUBCODE_DISK_EXCEEDED:104), "
    "$(HOLD_REASON_DISK_EXCEEDED))\n",
	    SIM, "hold jobs that use more disk than the slot has" },

	{ "POLICY", "PREEMPT_IF_MEMORY_EXCEEDED",
"MEMORY_EXCEEDED = (JobUniverse != 13 && MemoryUsage =!= UNDEFINED && MemoryUsage > Memory)\n"
"use POLICY : PREEMPT_IF(MEMORY_EXCEEDED)\n",
	    SIM, "preempt jobs that use more memory than the slot has" },

	{ "POLICY", "HOLD_IF_MEMORY_EXCEEDED",
"MEMORY_EXCEEDED = (JobUniverse != 13 && MemoryUsage =!= UNDEFINED && MemoryUsage > Memory)\n"
"HOLD_REASON_MEMORY_EXCEEDED = memory usage exceeded request_memory\n"
"use POLICY : WANT_HOLD_IF(MEMORY_EXCEEDED, $(HOLD_SUBCODE_MEMORY_EXCEEDED:102), "
    "$(HOLD_REASON_MEMORY_EXCEEDED))\n",
	    SIM, "hold jobs that use more memory than the slot has" },

	{ "POLICY", "PREEMPT_IF",
"if !$(1?)\n"
"  error : use POLICY : PREEMPT_IF needs the name of a knob holding the condition\n"
"endif\n"
"if defined PREEMPT\n"
"  PREEMPT = $($(1)) || $(PREEMPT)\n"
"else\n"
"  PREEMPT = $($(1))\n"
"endif\n"
"MAXJOBRETIREMENTTIME = ifthenelse($($(1)),-1,$(MAXJOBRETIREMENTTIME:0))\n"
"if defined WANT_SUSPEND\n"
"  WANT_SUSPEND = $($(1)) =!= true && $(WANT_SUSPEND)\n"
"else\n"
"  WANT_SUSPEND = $($(1)) =!= true\n"
"endif\n",
	    SIM, "(knob): preempt at once, without retirement, when the knob's expression holds" },

	{ "POLICY", "WANT_HOLD_IF",
"use POLICY : PREEMPT_IF($(1))\n"
"if ! $(3?)\n"
"  error : use POLICY : WANT_HOLD_IF needs three arguments: knob, subcode, reason\n"
"endif\n"
"if defined WANT_HOLD\n"
"  WANT_HOLD = (JobUniverse != 1 && $($(1))) || $(WANT_HOLD)\n"
"else\n"
"  WANT_HOLD = (JobUniverse != 1 && $($(1)))\n"
"endif\n"
"WANT_HOLD_SUBCODE = ifThenElse($($(1)), $(2) , $(WANT_HOLD_SUBCODE:UNDEFINED))\n"
"WANT_HOLD_REASON = ifThenElse($($(1)), \"$(3+)\", $(WANT_HOLD_REASON:UNDEFINED))\n",
	    SIM, "(knob, subcode, reason): put the job on hold when the knob's expression holds" },

	{ "POLICY", "OnlyRegisteredCheckpointDestinations",
"TOOL_CLASSAD_USER_MAP_NAMES = $(TOOL_CLASSAD_USER_MAP_NAMES) checkpoint_destination_map\n"
"SCHEDD_CLASSAD_USER_MAP_NAMES = $(SCHEDD_CLASSAD_USER_MAP_NAMES) checkpoint_destination_map\n"
"CLASSAD_USER_MAPFILE_checkpoint_destination_map = $(CHECKPOINT_DESTINATION_MAPFILE)\n"
"CLASSAD_USER_MAP_PREFIX_checkpoint_destination_map = TRUE\n"
"JOB_TRANSFORM_NAMES = $(JOB_TRANSFORM_NAMES) ValidateCheckpointDestination\n"
"JOB_TRANSFORM_ValidateCheckpointDestination @=end\n"
"  EVALSET CheckpointDestinationValid = ifthenelse(undefined =?= "
    "userMap(\"checkpoint_destination_map\", CheckpointDestination), undefined, True)\n"
"@end\n"
"IMMUTABLE_JOB_ATTRS = $(IMMUTABLE_JOB_ATTRS) CheckpointDestinationValid\n"
"SUBMIT_REQUIREMENT_NAMES = $(SUBMIT_REQUIREMENT_NAMES) RejectInvalidCheckpointDestination\n"
"SUBMIT_REQUIREMENT_RejectInvalidCheckpointDestination = CheckpointDestination =?= undefined "
    "|| CheckpointDestinationValid =?= True\n"
"SUBMIT_REQUIREMENT_RejectInvalidCheckpointDestination_REASON = \"The checkpoint_destination "
    "is not one this access point can clean up.\"\n",
	    NOSIM, "refuse jobs whose checkpoint destination is not registered" },

	/* ---- ROLE: which daemons a machine runs ---- */

	{ "ROLE", "Personal",
"CONDOR_HOST = 127.0.0.1\n"
"COLLECTOR_HOST = $(CONDOR_HOST):0\n"
"DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR STARTD SCHEDD\n"
"RunBenchmarks = 0\n",
	    NOSIM, "the whole pool on one machine" },
	{ "ROLE", "Execute", "DAEMON_LIST = $(DAEMON_LIST) STARTD\n",
	    NOSIM, "this machine runs jobs" },
	{ "ROLE", "Submit", "DAEMON_LIST = $(DAEMON_LIST) SCHEDD\n",
	    NOSIM, "this machine submits jobs" },
	{ "ROLE", "CentralManager", "DAEMON_LIST = $(DAEMON_LIST) COLLECTOR NEGOTIATOR\n",
	    NOSIM, "this machine is the central manager" },
	{ "ROLE", "get_htcondor_central_manager",
"use SECURITY : get_htcondor_idtokens\n"
"use ROLE : CentralManager\n",
	    NOSIM, "a central manager as get_htcondor installs it" },
	{ "ROLE", "get_htcondor_submit",
"use SECURITY : get_htcondor_idtokens\n"
"use ROLE : Submit\n",
	    NOSIM, "a submit machine as get_htcondor installs it" },
	{ "ROLE", "get_htcondor_execute",
"use SECURITY : get_htcondor_idtokens\n"
"use ROLE : Execute\n",
	    NOSIM, "an execute machine as get_htcondor installs it" },

	/* ---- SECURITY: who may do what ---- */

	{ "SECURITY", "HOST_BASED",
"ALLOW_ADMINISTRATOR = $(CONDOR_HOST)\n"
"ALLOW_READ = *\n"
"ALLOW_WRITE = $(FULL_HOSTNAME) $(IPV4_ADDRESS) $(IPV6_ADDRESS)\n"
"ALLOW_DAEMON = $(FULL_HOSTNAME) $(IPV4_ADDRESS) $(IPV6_ADDRESS)\n"
"ALLOW_NEGOTIATOR = $(CONDOR_HOST)\n"
"ALLOW_NEGOTIATOR_SCHEDD = $(ALLOW_NEGOTIATOR) $(FLOCK_NEGOTIATOR_HOSTS)\n"
"ALLOW_WRITE_COLLECTOR = $(ALLOW_WRITE) $(FLOCK_FROM)\n"
"ALLOW_WRITE_STARTD = $(ALLOW_WRITE) $(FLOCK_FROM)\n"
"ALLOW_READ_COLLECTOR = $(ALLOW_READ) $(FLOCK_FROM)\n"
"ALLOW_READ_STARTD = $(ALLOW_READ) $(FLOCK_FROM)\n"
"LEGACY_ALLOW_SEMANTICS = TRUE\n",
	    NOSIM, "authorization by host names and addresses" },
	{ "SECURITY", "WITH_AUTHENTICATION",
"SEC_DEFAULT_AUTHENTICATION = required\n"
"SEC_DEFAULT_INTEGRITY = required\n",
	    NOSIM, "authentication and integrity required" },
	{ "SECURITY", "STRONG",
"SEC_DEFAULT_ENCRYPTION = required\n"
"SEC_DEFAULT_INTEGRITY = required\n"
"SEC_DEFAULT_AUTHENTICATION = required\n",
	    NOSIM, "authentication, integrity and encryption required" },
	{ "SECURITY", "USER_BASED",
"if $(CondorIsAdmin)\n"
"  authuser = condor\n"
"else\n"
"  authuser = $(USERNAME)\n"
"endif\n"
"use SECURITY : recommended($(authuser))\n"
"if ! $(CondorIsAdmin)\n"
"  ALLOW_WRITE = $(authuser)@$(UID_DOMAIN)\n"
"endif\n",
	    NOSIM, "authorization by user accounts" },
	{ "SECURITY", "get_htcondor_idtokens",
"use SECURITY : recommended\n"
"SEC_READ_AUTHENTICATION_METHODS = $(SEC_DEFAULT_AUTHENTICATION_METHODS),ANONYMOUS\n"
"SEC_CLIENT_AUTHENTICATION_METHODS = $(SEC_DEFAULT_AUTHENTICATION_METHODS),ANONYMOUS\n"
"TRUST_DOMAIN = $(CONDOR_HOST)\n",
	    NOSIM, "the token setup get_htcondor installs" },
	{ "SECURITY", "recommended_v9_0",
"SECURITY_MODEL = 9.0\n"
"use SECURITY : strong\n"
"SEC_READ_AUTHENTICATION = OPTIONAL\n"
"SEC_READ_ENCRYPTION = OPTIONAL\n"
"SEC_READ_INTEGRITY = OPTIONAL\n"
"ALLOW_ADMINISTRATOR = $(1:condor)@* condor_pool@* $(2:root@*) $(3+)\n"
"ALLOW_DAEMON = $(1:condor)@*  condor_pool@*\n"
"ALLOW_NEGOTIATOR = $(1:condor)@* condor_pool@*\n"
"ALLOW_WRITE = *\n"
"ALLOW_READ = *\n",
	    NOSIM, "([service [, admins]]): the security of HTCondor 9.0" },
	{ "SECURITY", "recommended_v24_0",
"SECURITY_MODEL = 24.0\n"
"use SECURITY : strong\n"
"SEC_READ_AUTHENTICATION = OPTIONAL\n"
"SEC_CLIENT_AUTHENTICATION = OPTIONAL\n"
"ALLOW_ADMINISTRATOR = $(1:condor)@* condor@password $(2:root@*) $(3+)\n"
"ALLOW_DAEMON = $(1:condor)@*  condor@password\n"
"ALLOW_NEGOTIATOR = $(1:condor)@* condor@password\n"
"ALLOW_WRITE = *\n"
"ALLOW_READ = *\n",
	    NOSIM, "([service [, admins]]): the security of HTCondor 24.0" },
	{ "SECURITY", "recommended", "use SECURITY : recommended_v24_0($(1+))\n",
	    NOSIM, "([service [, admins]]): the security HTCondor recommends now" },
	{ "SECURITY", "FIPS",
"FIPS = True\n"
"use SECURITY : strong\n"
"SEC_DEFAULT_CRYPTO_METHODS = AES,3DES\n",
	    NOSIM, "FIPS mode" },

	/* ---- FEATURE: slot layouts, resources, monitoring, services ---- */

	{ "FEATURE", "PartitionableSlot",
"NUM_SLOTS_TYPE_$(1:1) = 1\n"
"SLOT_TYPE_$(1:1)_PARTITIONABLE = true\n"
"SLOT_TYPE_$(1:1) = $(2+:100%)\n",
	    SIM, "([type [, allocation]]): one partitionable slot (default 1, 100%)" },
	{ "FEATURE", "StaticSlots",
"NUM_SLOTS_TYPE_$(1:1) = $(2:$(NUM_CPUS))\n"
"SLOT_TYPE_$(1:1)_PARTITIONABLE = false\n"
"SLOT_TYPE_$(1:1) = $(3+:1/$(NUM_SLOTS_TYPE_$(1:1)))\n"
"SLOT_TYPE_$(1:1) = $(3+)\n",
	    SIM, "([type [, count [, allocation]]]): static slots (default 1, $(NUM_CPUS))" },
	{ "FEATURE", "GPUs",
"MACHINE_RESOURCE_INVENTORY_GPUs = $(LIBEXEC)/condor_gpu_discovery $(1) -properties "
    "$(GPU_DISCOVERY_EXTRA)\n"
"ENVIRONMENT_FOR_AssignedGPUs = GPU_DEVICE_ORDINAL=/(CUDA|OCL)//  CUDA_VISIBLE_DEVICES=/CUDA//\n"
"ENVIRONMENT_VALUE_FOR_UnAssignedGPUs = 10000\n"
"use FEATURE : GPUsMonitor\n",
	    SIM, "([discovery args]): GPUs as a custom resource (ids and properties from the machine description)" },
	{ "FEATURE", "Monitor",
"if ! $(5?)\n"
"  error : use FEATURE : Monitor needs five or more arguments\n"
"endif\n"
"STARTD_CRON_JOBLIST = $(STARTD_CRON_JOBLIST) $(1)_MONITOR\n"
"STARTD_CRON_$(1)_MONITOR_MODE = $(2)\n"
"STARTD_CRON_$(1)_MONITOR_PERIOD = $(3)\n"
"STARTD_CRON_$(1)_MONITOR_EXECUTABLE = $(4)\n"
"STARTD_CRON_$(1)_MONITOR_METRICS = $(5+)\n",
	    NOSIM, "(resource, mode, period, executable, metric...): a resource monitor" },
	{ "FEATURE", "GPUsMonitor",
"use FEATURE : Monitor(GPUs, WaitForExit, 300, $(GPU_MONITOR), SUM:GPUs, PEAK:GPUsMemory)\n"
"STARTD_CRON_GPUs_MONITOR_CONDITION = TotalGPUs > 0 && OpSys =!= \"WINDOWS\"\n"
"STARTD_JOB_ATTRS = $(STARTD_JOB_ATTRS) GPUsUsage GPUsMemoryUsage\n",
	    NOSIM, "report how much of its GPUs a job uses" },
	{ "FEATURE", "OneShotCronHook",
"if ! $(3?)\n"
"  error : use FEATURE : OneShotCronHook needs at least three arguments\n"
"endif\n"
"$(1)_JOBLIST = $($(1)_JOBLIST) $(2)\n"
"$(1)_$(2)_MODE = OneShot\n"
"$(1)_$(2)_KILL = true\n"
"$(1)_$(2)_RECONFIG_RERUN = true\n"
"$(1)_$(2)_EXECUTABLE = $(3)\n"
"if $(4?)\n"
"  $(1)_$(2)_ARGS = $(4)\n"
"endif\n",
	    SIM, "(STARTD_CRON|SCHEDD_CRON, tag, executable [, args]): a hook run once" },
	{ "FEATURE", "PeriodicCronHook",
"if ! $(4?)\n"
"  error : use FEATURE : PeriodicCronHook needs at least four arguments\n"
"endif\n"
"$(1)_JOBLIST = $($(1)_JOBLIST) $(2)\n"
"$(1)_$(2)_MODE = Periodic\n"
"$(1)_$(2)_PERIOD = $(3)\n"
"$(1)_$(2)_EXECUTABLE = $(4)\n"
"if $(5?)\n"
"  $(1)_$(2)_ARGS = $(5)\n"
"endif\n",
	    SIM, "(STARTD_CRON|SCHEDD_CRON, tag, period, executable [, args]): a periodic hook" },
	{ "FEATURE", "ContinuousCronHook",
"if ! $(3?)\n"
"  error : use FEATURE : ContinuousCronHook needs at least three arguments\n"
"endif\n"
"$(1)_JOBLIST = $($(1)_JOBLIST) $(2)\n"
"$(1)_$(2)_MODE = WaitForExit\n"
"$(1)_$(2)_PERIOD = 0\n"
"$(1)_$(2)_EXECUTABLE = $(3)\n"
"if $(4?)\n"
"  $(1)_$(2)_ARGS = $(4)\n"
"endif\n",
	    SIM, "(STARTD_CRON|SCHEDD_CRON, tag, executable [, args]): a hook kept running" },
	{ "FEATURE", "StartdCronPeriodic", "use FEATURE : PeriodicCronHook(STARTD_CRON, $(0))\n",
	    SIM, "(tag, period, executable [, args])" },
	{ "FEATURE", "ScheddCronPeriodic", "use FEATURE : PeriodicCronHook(SCHEDD_CRON, $(0))\n",
	    NOSIM, "(tag, period, executable [, args])" },
	{ "FEATURE", "StartdCronOneShot", "use FEATURE : OneShotCronHook(STARTD_CRON, $(0))\n",
	    SIM, "(tag, executable [, args])" },
	{ "FEATURE", "ScheddCronOneShot", "use FEATURE : OneShotCronHook(SCHEDD_CRON, $(0))\n",
	    NOSIM, "(tag, executable [, args])" },
	{ "FEATURE", "StartdCronContinuous",
	    "use FEATURE : ContinuousCronHook(STARTD_CRON, $(0))\n",
	    SIM, "(tag, executable [, args])" },
	{ "FEATURE", "ScheddCronContinuous",
	    "use FEATURE : ContinuousCronHook(SCHEDD_CRON, $(0))\n",
	    NOSIM, "(tag, executable [, args])" },
	{ "FEATURE", "REMOTE_RUNTIME_CONFIG",
"ENABLE_RUNTIME_CONFIG = True\n"
"ALLOW_CONFIG = $(ALLOW_ADMINISTRATOR)\n"
"if $(0#)\n"
"  SETTABLE_ATTRS_CONFIG = $(SETTABLE_ATTRS_CONFIG) $(0)\n"
"endif\n",
	    NOSIM, "([knobs]): condor_config_val -rset" },
	{ "FEATURE", "REMOTE_CONFIG",
"ENABLE_PERSISTENT_CONFIG = True\n"
"PERSISTENT_CONFIG_DIR = $(SPOOL)\n"
"use FEATURE : REMOTE_RUNTIME_CONFIG($(0))\n",
	    NOSIM, "([knobs]): condor_config_val -set" },
	{ "FEATURE", "ScheddUsermapFile",
"if ! $(2?)\n"
"  error : use FEATURE : ScheddUsermapFile needs two arguments: map name, map file\n"
"endif\n"
"SCHEDD_CLASSAD_USER_MAP_NAMES = $(SCHEDD_CLASSAD_USER_MAP_NAMES) $(1)\n"
"CLASSAD_USER_MAPFILE_$(1) = $(2)\n",
	    NOSIM, "(map_name, map_file): a schedd user map" },
	{ "FEATURE", "SetJobAttrFromUsermap",
"if ! $(3?)\n"
"  error : use FEATURE : SetJobAttrFromUsermap needs at least three arguments\n"
"endif\n"
"if $(4?)\n"
"  use FEATURE : ScheddUsermapFile($(3), $(4))\n"
"endif\n"
"JOB_TRANSFORM_NAMES += Set$(1)\n"
"JOB_TRANSFORM_Set$(1) = EVALSET $(1) usermap(\"$(3)\",$(2),$(1))\n"
"SUBMIT_REQUIREMENT_NAMES += Require$(1)\n"
"SUBMIT_REQUIREMENT_Require$(1) = $(1) isnt undefined\n"
"SUBMIT_REQUIREMENT_Require$(1)_REASON = strcat(\"Submit requirement Require$(1) not met - "
    "Could not map '\", $(2)?:\"undefined\", \"' to a $(1)\")\n",
	    NOSIM, "(dest_attr, src_attr, map_name [, map_file]): a job attribute from a map" },
	{ "FEATURE", "AssignProjectName",
"if ! $(1?)\n"
"  error : use FEATURE : AssignProjectName needs a map name\n"
"endif\n"
"use FEATURE : SetJobAttrFromUsermap(ProjectName, Owner, $(1+))\n",
	    NOSIM, "(map_name [, map_file]): ProjectName from a map of Owner" },
	{ "FEATURE", "AssignAccountingGroup",
"if ! $(1?)\n"
"  error : use FEATURE : AssignAccountingGroup needs a map file\n"
"endif\n"
"use FEATURE : ScheddUsermapFile(AssignAccountingGroup, $(1))\n"
"JOB_TRANSFORM_NAMES = $(JOB_TRANSFORM_NAMES) AssignAccountingGroup\n"
"JOB_TRANSFORM_AssignAccountingGroup @=end\n"
"  COPY Owner = AcctGroupUser\n"
"  COPY AcctGroup = RequestedAcctGroup\n"
"  EVALSET AcctGroup = usermap(\"AssignAccountingGroup\",AcctGroupUser,AcctGroup)\n"
"  EVALSET AccountingGroup = join(\".\",AcctGroup,AcctGroupUser)\n"
"@end\n"
"IMMUTABLE_JOB_ATTRS = $(IMMUTABLE_JOB_ATTRS) AcctGroup AcctGroupUser AccountingGroup\n"
"if $(2:True)\n"
"  SUBMIT_REQUIREMENT_NAMES = $(SUBMIT_REQUIREMENT_NAMES) CheckRequestedGroup\n"
"  SUBMIT_REQUIREMENT_CheckRequestedGroup = RequestedAcctGroup is undefined || "
    "RequestedAcctGroup == AcctGroup\n"
"  SUBMIT_REQUIREMENT_CheckRequestedGroup_REASON = strcat(\"Permission denied setting "
    "accounting_group to \", RequestedAcctGroup)\n"
"endif\n"
"SUBMIT_REQUIREMENT_NAMES = $(SUBMIT_REQUIREMENT_NAMES) AssignAccountingGroup\n"
"SUBMIT_REQUIREMENT_AssignAccountingGroup = AcctGroup isnt undefined && "
    "AccountingGroup isnt undefined\n"
"SUBMIT_REQUIREMENT_AssignAccountingGroup_REASON = strcat(\"Submit requirement "
    "AssignAccountingGroup not met - Could not map '\", Owner, \"' to an accounting group \", "
    "RequestedAcctGroup)\n",
	    SIM, "(map_file [, check_request]): accounting groups from a map of Owner" },
	{ "FEATURE", "ChildCollector",
"COLLECTOR$(1) = $(COLLECTOR)\n"
"if $(2?)\n"
"  COLLECTOR$(1)_ARGS = -p $(2)\n"
"else\n"
"  COLLECTOR$(1)_ARGS = -sock collector$(1)\n"
"endif\n"
"COLLECTOR$(1).COLLECTOR_NAME = Collector$(1)\n"
"COLLECTOR$(1).CONDOR_VIEW_HOST = $(TOP_COLLECTOR_HOST)\n"
"COLLECTOR$(1).CCB_RECONNECT_FILE = $(SPOOL)/Collector$(1).ccb_reconnect\n"
"DAEMON_LIST = $(DAEMON_LIST) COLLECTOR$(1)\n"
"TOP_COLLECTOR_HOST = $(COLLECTOR_HOST)\n",
	    NOSIM, "(id [, port]): one child of a collector tree" },
	{ "FEATURE", "PelicanCache",
"PELICANCACHE = /usr/bin/pelican\n"
"DAEMON_LIST = $(DAEMON_LIST) PELICANCACHE\n"
"PELICANCACHE_LOG = $(LOG)/PelicanCacheLog\n"
"PELICANCACHE_SIZE = $(1:256GB)\n"
"PELICANCACHE_RUNLOCATION = $(2:$(LOCAL_DIR)/localcache)\n"
"PELICANCACHE_FEDERATION = $(3:osg-htc.org)\n"
"PELICANCACHE_HIGHWATERMARKPERCENTAGE = 95\n"
"PELICANCACHE_LOWWATERMARKPERCENTAGE = 85\n"
"PELICANCACHE_ARGS = serve -d --module localcache -L $(PELICANCACHE_LOG) "
    "-f $(PELICANCACHE_FEDERATION)\n"
"PELICANCACHE_ENVIRONMENT @=end\n"
"  PELICAN_SERVER_ENABLEUI=false\n"
"  PELICAN_LOCALCACHE_SIZE=$(PELICANCACHE_SIZE)\n"
"  PELICAN_LOCALCACHE_RUNLOCATION=$(PELICANCACHE_RUNLOCATION)\n"
"  PELICAN_LOCALCACHE_HIGHWATERMARKPERCENTAGE=$(PELICANCACHE_HIGHWATERMARKPERCENTAGE)\n"
"  PELICAN_LOCALCACHE_LOWWATERMARKPERCENTAGE=$(PELICANCACHE_LOWWATERMARKPERCENTAGE)\n"
"@end\n"
"STARTD_ENVIRONMENT = ;NEAREST_CACHE=unix:/$(PELICANCACHE_RUNLOCATION)/cache.sock;"
    "$(STARTD_ENVIRONMENT)\n",
	    NOSIM, "([size [, dir [, federation]]]): a local Pelican cache" },
	{ "FEATURE", "PelicanRetryPolicy",
"PelicanRetry_MaxRetries = 4\n"
"PelicanRetry_MinimumDelay = 300\n"
"PelicanRetry_RandomDelay = 300\n"
"pelican_error_subcode_retriable = 2816\n"
"pelican_error_subcode_stopped = 1280\n"
"PelicanRetryCondition = ((VacateReasonCode == 12 || VacateReasonCode == 13) && "
    "((VacateReasonSubCode == $(pelican_error_subcode_retriable)) || "
    "(VacateReasonSubCode == $(pelican_error_subcode_stopped)))) ?: false\n"
"JOB_TRANSFORM_NAMES = $(JOB_TRANSFORM_NAMES) PelicanRetry\n"
"JOB_TRANSFORM_PelicanRetry @=jt\n"
"  REQUIREMENTS (stringListIMember(\"pelican\",WantTransferPluginMethods) || "
    "stringListIMember(\"osdf\",WantTransferPluginMethods) || "
    "stringListIMember(\"stash\",WantTransferPluginMethods)) && isUndefined(PelicanRetryEnabled)\n"
"  EVALMACRO retry_delay = $(PelicanRetry_MinimumDelay) + random($(PelicanRetry_RandomDelay))\n"
"  SET PelicanRetryEnabled true\n"
"  SET PelicanRetryDelay $(retry_delay)\n"
"@jt\n"
"SYSTEM_ON_VACATE_COOL_DOWN = ((PelicanRetryEnabled?:false) && $(PelicanRetryCondition) && "
    "((NumJobCoolDowns?:0) < $(PelicanRetry_MaxRetries)) ? PelicanRetryDelay : "
    "($(SYSTEM_ON_VACATE_COOL_DOWN:0)))\n",
	    NOSIM, "cool down and retry jobs whose Pelican transfers failed" },
	{ "FEATURE", "DefaultCheckpointDestination",
"if ! defined DEFAULT_CHECKPOINT_DESTINATION\n"
"  if defined DEFAULT_CHECKPOINT_DESTINATION_PREFIX\n"
"    DEFAULT_CHECKPOINT_DESTINATION = \"$(DEFAULT_CHECKPOINT_DESTINATION_PREFIX)/$(MY.Owner)\"\n"
"  else\n"
"    warning : feature DefaultCheckpointDestination needs DEFAULT_CHECKPOINT_DESTINATION_PREFIX "
    "or DEFAULT_CHECKPOINT_DESTINATION\n"
"  endif\n"
"endif\n"
"if defined DEFAULT_CHECKPOINT_DESTINATION\n"
"  EXTENDED_SUBMIT_COMMANDS @=end\n"
"    checkpoint_storage = \"'default' or 'spool' or a checkpoint_destination\"\n"
"    $(EXTENDED_SUBMIT_COMMANDS)\n"
"  @end\n"
"  JOB_TRANSFORM_CheckpointStorage @=end\n"
"    REQUIREMENTS (MY.CheckpointDestination =?= undefined) && "
    "(MY.SuccessCheckpointExitCode =!= undefined)\n"
"    ShouldSetCheckpointDestination = TRUE\n"
"    SetCheckpointDestination = $(DEFAULT_CHECKPOINT_DESTINATION)\n"
"    if defined MY.checkpoint_storage\n"
"      EVALMACRO IsSpool (checkpoint_storage == \"spool\")\n"
"      EVALMACRO IsDefault (checkpoint_storage == \"default\")\n"
"      if $(IsSpool)\n"
"        ShouldSetCheckpointDestination = FALSE\n"
"      elif ! $(IsDefault)\n"
"        SetCheckpointDestination = checkpoint_storage\n"
"      endif\n"
"    endif\n"
"    if $(ShouldSetCheckpointDestination)\n"
"      EVALSET CheckpointDestination $(SetCheckpointDestination)\n"
"    endif\n"
"  @end\n"
"  JOB_TRANSFORM_NAMES = CheckpointStorage $(JOB_TRANSFORM_NAMES)\n"
"endif\n",
	    NOSIM, "a default checkpoint destination other than the spool" },
	{ "FEATURE", "HPC_ANNEX",
"HPC_ANNEX_ENABLED = true\n"
"ispersonal = \"127.0.0.1:0\"==\"$(COLLECTOR_HOST)\"\n"
"if $INT(ispersonal)\n"
"  COLLECTOR_HOST = $(FULL_HOSTNAME):$(COLLECTOR_PORT)\n"
"endif\n"
"ispersonal = \"$(FULL_HOSTNAME):0\"==\"$(COLLECTOR_HOST)\"\n"
"if $INT(ispersonal)\n"
"  COLLECTOR_HOST = $(FULL_HOSTNAME):$(COLLECTOR_PORT)\n"
"endif\n"
"AP_COLLECTOR = $(COLLECTOR)\n"
"AP_COLLECTOR.COLLECTOR_LOG = $(LOG)/AP_Collector.log\n"
"AP_COLLECTOR.CCB_RECONNECT_FILE = $(SPOOL)/AP_Collector.ccb_reconnect\n"
"DAEMON_LIST = $(DAEMON_LIST) AP_COLLECTOR\n"
"AP_COLLECTOR_ARGS = -f -local-name AP_COLLECTOR -sock ap_collector\n"
"ANNEX_COLLECTOR = $(TCP_FORWARDING_HOST:$(FULL_HOSTNAME)):$(SHARED_PORT_PORT)?sock=ap_collector\n"
"AP_COLLECTOR.ALLOW_ADVERTISE_STARTD = $(ALLOW_ADVERTISE_STARTD) $(ALLOW_WRITE)\n"
"AP_COLLECTOR.ALLOW_ADVERTISE_MASTER = $(ALLOW_ADVERTISE_MASTER) $(ALLOW_WRITE)\n"
"if defined COLLECTOR_HOST\n"
"  SCHEDD.COLLECTOR_HOST = $(COLLECTOR_HOST) $(ANNEX_COLLECTOR)\n"
"else\n"
"  SCHEDD.COLLECTOR_HOST = $(ANNEX_COLLECTOR)\n"
"endif\n"
"ANNEX_TOKEN_KEY_NAME = $(SEC_TOKEN_AP_SIGNING_KEY_NAME)\n"
"ANNEX_TOKEN_DOMAIN = $(UID_DOMAIN)\n"
"JOB_TRANSFORM_NAMES = $(JOB_TRANSFORM_NAMES) AssignAnnex\n"
"JOB_TRANSFORM_AssignAnnex @=end\n"
"  REQUIREMENTS TargetAnnexName =!= undefined\n"
"  my_identity = \"$(MY.Owner)@$(ANNEX_TOKEN_DOMAIN)\"\n"
"  addl_reqs = ifThenElse(TARGET.AuthenticatedIdentity is undefined, true, $(my_identity) == "
    "TARGET.AuthenticatedIdentity) && (MY.TargetAnnexName == TARGET.AnnexName)\n"
"  if defined MY.JobMachineAttrs\n"
"    SET JobMachineAttrs \"$(MY.JobMachineAttrs),AnnexName\"\n"
"  else\n"
"    SET JobMachineAttrs \"AnnexName\"\n"
"  endif\n"
"  if defined MY.Requirements\n"
"    SET Requirements $(addl_reqs) && ($(MY.Requirements))\n"
"  else\n"
"    SET Requirements $(addl_reqs)\n"
"  endif\n"
"@end\n"
"if $(ANNEX_JOBS_EXCLUSIVELY:FALSE)\n"
"  JOB_TRANSFORM_NAMES = $(JOB_TRANSFORM_NAMES) AnnexJobsExclusively\n"
"  JOB_TRANSFORM_AnnexJobsExclusively @=end\n"
"    REQUIREMENTS TargetAnnexName =?= undefined\n"
"    addl_reqs = ifThenElse(TARGET.AuthenticatedIdentity is undefined, true, "
    "regexp(\"^condor(_pool)?@.*$\", TARGET.AuthenticatedIdentity))\n"
"    if defined MY.Requirements\n"
"      SET Requirements $(addl_reqs) && ($(MY.Requirements))\n"
"    else\n"
"      SET Requirements $(addl_reqs)\n"
"    endif\n"
"  @end\n"
"endif\n",
	    NOSIM, "HPC Annex: an access point collector for annexes" },
	{ "FEATURE", "LIBRARIAN",
"DAEMON_LIST = $(DAEMON_LIST) LIBRARIAN\n"
"USING_LIBRARIAN = True\n"
"if $(1?)\n"
"  LIBRARIAN_MAX_DATABASE_SIZE = $(1)\n"
"endif\n"
"if $(2?)\n"
"  LIBRARIAN_DATABASE = $(2)\n"
"endif\n",
	    NOSIM, "([max_size, file]): the history archive index" },
	{ "FEATURE", "KRB",
"SEC_CREDENTIAL_DIRECTORY_KRB = /var/lib/condor/krb_credentials\n"
"DAEMON_LIST = $(DAEMON_LIST) CREDMON_KRB\n"
"SEC_CREDENTIAL_PRODUCER = $(LIBEXEC)/cred_producer_krb\n"
"SEC_CREDENTIAL_MONITOR_KRB_LOG = $(LOG)/CredMonKrbLog\n"
"AUTO_INCLUDE_CREDD_IN_DAEMON_LIST = True\n"
"USE_KEYRING_SESSIONS = True\n",
	    NOSIM, "Kerberos tickets and AFS tokens for jobs" },
	{ "FEATURE", "OAUTH",
"SEC_CREDENTIAL_DIRECTORY_OAUTH = /var/lib/condor/oauth_credentials\n"
"CREDMON_OAUTH_LOG = $(LOG)/CredMonOAuthLog\n"
"DAEMON_LIST = $(DAEMON_LIST) CREDMON_OAUTH\n"
"AUTO_INCLUDE_CREDD_IN_DAEMON_LIST = True\n"
"TRUST_CREDENTIAL_DIRECTORY = True\n",
	    NOSIM, "OAuth tokens for jobs" },
	{ "FEATURE", "ADSTASH",
"ADSTASH_SCHEDD_HISTORY = True\n"
"DAEMON_LIST = $(DAEMON_LIST) ADSTASH\n",
	    NOSIM, "job history to Elasticsearch" },
	{ "FEATURE", "GANGLIA", "DAEMON_LIST = $(DAEMON_LIST) GANGLIAD\n",
	    NOSIM, "condor_gangliad" },
	{ "FEATURE", "CommonCloudAttributesGoogle",
"use FEATURE : StartdCronOneShot(cloud, $(LIBEXEC)/common-cloud-attributes-google.py, $(0))\n"
"STARTD_CRON_cloud_PREFIX = Cloud\n",
	    NOSIM, "advertise cloud attributes on Google" },
	{ "FEATURE", "CommonCloudAttributesAWS",
"use FEATURE : StartdCronOneShot(cloud, $(LIBEXEC)/common-cloud-attributes-aws.py, $(0))\n"
"STARTD_CRON_cloud_PREFIX = Cloud\n",
	    NOSIM, "advertise cloud attributes on AWS" },
	{ "FEATURE", "JobsHaveInstanceIDs",
"SYSTEM_JOB_MACHINE_ATTRS = $(SYSTEM_JOB_MACHINE_ATTRS) CloudInstanceID\n",
	    NOSIM, "the cloud instance ID in job ads" },
};

#define NTMPLS (sizeof tmpls / sizeof tmpls[0])

const struct cfg_builtin_tmpl *
cfg_template_builtin(const char *cat, size_t clen, const char *name, size_t nlen)
{
	for (size_t i = 0; i < NTMPLS; i++)
		if (cfg_ci_equal(cat, clen, tmpls[i].category) &&
		    cfg_ci_equal(name, nlen, tmpls[i].name))
			return &tmpls[i];
	return NULL;
}

size_t
cfg_template_builtin_count(void)
{
	return NTMPLS;
}

const struct cfg_builtin_tmpl *
cfg_template_builtin_at(size_t i)
{
	return i < NTMPLS ? &tmpls[i] : NULL;
}
