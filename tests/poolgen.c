/* poolgen.c - realistic pool data for benchmarks and simulations: slot ads
 * as condor_status -long prints them, job ads as condor_q -long, history.
 *
 * The shapes follow what HTCondor 23 daemons publish: a machine is a
 * partitionable slot and the dynamic slots carved from it, or static
 * slots; GPU nodes carry their GPUs' properties; every slot has the
 * startd's policy expressions, version strings, addresses, the reals its
 * monitoring writes with all their digits, and the machine's Detected* and
 * Total* figures. Jobs carry what condor_submit and the schedd put in a
 * vanilla job (about 120 attributes), with owners, groups and clusters
 * drawn from skewed distributions. Output depends only on the arguments.
 *
 *   poolgen slots N [SEED]     N slot ads (machines of 1 to 17 slots)
 *   poolgen slim-slots N [SEED] the same slots with the 52 attributes a
 *                              smaller startd publishes (about 1.8 KB an ad)
 *   poolgen jobs N [SEED]      N job ads (idle, running, held), in clusters
 *   poolgen history N [SEED]   N completed jobs as a history file holds them
 *                              (each ad followed by its "*** Offset = ..." line)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOW	INT64_C(1700000000)

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int
pick(int n)
{
	return (int)(next() % (uint64_t)n);
}

/* A real in [0, 1) with all 53 bits, as monitoring code produces them. */
static double
frac(void)
{
	return (double)(next() >> 11) * (1.0 / 9007199254740992.0);
}

/* Skewed choice: index i with weight about 1/(i+1). */
static int
zipf(int n)
{
	double h = 0, u;
	int i;

	for (i = 0; i < n; i++)
		h += 1.0 / (i + 1);
	u = frac() * h;
	for (i = 0; i < n - 1; i++) {
		u -= 1.0 / (i + 1);
		if (u < 0)
			break;
	}
	return i;
}

static const char *const users[] = {
	"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan",
	"judy", "mallory", "niaj", "olivia", "peggy", "rupert", "sybil", "trent",
	"victor", "walter", "yolanda", "zeke", "cms001", "atlas042", "ligo", "icecube"
};
#define NUSERS (int)(sizeof users / sizeof users[0])

static const char *const groups[] = {
	"group_physics.hep", "group_physics.astro", "group_chem", "group_bio", NULL, NULL
};

static const char *const cpu_models[] = {
	"AMD EPYC 7543 32-Core Processor", "Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz",
	"AMD EPYC 9554 64-Core Processor", "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz"
};

/* slim-slots: only these (the policy expressions, addresses, version
 * strings and the figures a negotiator and a startd read) */
static bool slim;
static const char *const slim_names[] = {
	"AccountingGroup", "Activity", "AddressV1", "Arch", "CondorLoadAvg", "CondorPlatform",
	"CondorVersion", "Cpus", "CurrentRank", "Disk", "DynamicSlot", "EnteredCurrentActivity",
	"EnteredCurrentState", "FileSystemDomain", "GPUs", "HasFileTransfer", "JobId", "JobStart",
	"KeyboardIdle", "LastHeardFrom", "LoadAvg", "Machine", "Memory", "Mips", "MyAddress",
	"MyCurrentTime", "MyType", "Name", "OpSys", "OpSysAndVer", "PartitionableSlot", "Rank",
	"RemoteOwner", "RemoteUser", "Requirements", "SlotID", "SlotType", "Start",
	"StartdIpAddr", "State", "TotalCpus", "TotalDisk", "TotalLoadAvg", "TotalMemory",
	"TotalSlotCpus", "TotalSlotDisk", "TotalSlotMemory", "TotalSlots", "UidDomain",
	"UpdateSequenceNumber", "WithinResourceLimits"
};

static bool
shown(const char *name)
{
	if (!slim)
		return true;
	for (size_t i = 0; i < sizeof slim_names / sizeof slim_names[0]; i++)
		if (strcmp(slim_names[i], name) == 0)
			return true;
	return false;
}

static void
p_str(const char *name, const char *v)
{
	if (shown(name))
		printf("%s = \"%s\"\n", name, v);
}

static void
p_int(const char *name, long long v)
{
	if (shown(name))
		printf("%s = %lld\n", name, v);
}

static void
p_real(const char *name, double v)
{
	if (shown(name))
		printf("%s = %.17g\n", name, v);
}

static void
p_raw(const char *name, const char *v)
{
	if (shown(name))
		printf("%s = %s\n", name, v);
}

/* ---- slots ---- */

struct machine {
	char host[64];
	int cpus, gpus;
	long long memory, disk;
	int model, kind;	/* kind 0 partitionable, 1 static, 2 GPU */
	int ip[4];
};

static void
slot_common(const struct machine *m, const char *name, int slotid, int cpus,
    long long memory, long long disk, const char *state, const char *activity, int dynamic,
    int partitionable)
{
	char buf[512];
	double load = frac() * cpus;

	p_str("Activity", activity);
	snprintf(buf, sizeof buf, "{[ p=\\\"primary\\\"; a=\\\"%d.%d.%d.%d\\\"; port=9618; "
	    "n=\\\"Internet\\\"; spid=\\\"startd_%d_%04x\\\"; noUDP=true; ], [ p=\\\"IPv4\\\"; "
	    "a=\\\"%d.%d.%d.%d\\\"; port=9618; n=\\\"Internet\\\"; spid=\\\"startd_%d_%04x\\\"; "
	    "noUDP=true; ]}", m->ip[0], m->ip[1], m->ip[2], m->ip[3], 1000 + m->ip[3],
	    m->ip[2] * 256 + m->ip[3], m->ip[0], m->ip[1], m->ip[2], m->ip[3], 1000 + m->ip[3],
	    m->ip[2] * 256 + m->ip[3]);
	p_str("AddressV1", buf);
	p_str("Arch", "X86_64");
	p_str("AuthenticatedIdentity", "condor_pool@example.org");
	p_str("AuthenticationMethod", "IDTOKENS");
	p_raw("CanHibernate", "true");
	p_str("CheckpointPlatform", "LINUX X86_64 5.14.0-362.8.1.el9_3.x86_64 normal N/A avx512f ssse3 sse4_1 sse4_2");
	p_int("ClockDay", 2);
	p_int("ClockMin", 812 + pick(600));
	p_real("CondorLoadAvg", dynamic ? frac() : 0.0);
	p_str("CondorPlatform", "$CondorPlatform: X86_64-AlmaLinux_9.3 $");
	p_str("CondorVersion", "$CondorVersion: 23.0.3 2024-01-04 BuildID: 702403 PackageID: 23.0.3-1 $");
	p_int("ConsoleIdle", 3000 + pick(90000));
	if (partitionable) {
		p_raw("ConsumptionCpus", "quantize(target.RequestCpus,{ 1 })");
		p_raw("ConsumptionDisk", "quantize(target.RequestDisk,{ 1024 })");
		p_raw("ConsumptionMemory", "quantize(target.RequestMemory,{ 128 })");
	}
	p_int("CpuCacheSize", 1024);
	p_int("CpuFamily", 25);
	p_raw("CpuIsBusy", dynamic ? "true" : "false");
	p_str("CpuModel", cpu_models[m->model]);
	p_int("CpuModelNumber", 1 + m->model);
	p_int("Cpus", cpus);
	p_real("CurrentRank", 0.0);
	p_real("DaemonCoreDutyCycle", frac() * 0.01);
	p_int("DetectedCpus", m->cpus);
	p_int("DetectedMemory", m->memory);
	if (m->gpus) {
		p_str("DetectedGPUs", m->gpus == 4 ? "GPU-0a1b2c3d, GPU-4e5f6a7b, GPU-8c9d0e1f, GPU-2a3b4c5d" :
		    "GPU-0a1b2c3d, GPU-4e5f6a7b");
		p_int("GPUs", dynamic ? 1 : m->gpus);
		p_real("GPUs_Capability", 8.0);
		p_int("GPUs_DriverVersion", 12);
		p_int("GPUs_GlobalMemoryMb", 81050);
		p_str("GPUs_DeviceName", "NVIDIA A100-SXM4-80GB");
	}
	p_int("Disk", disk);
	p_real("DiskUsage", frac() * 1000);
	p_raw("EnteredCurrentActivity", "1699990012");
	p_int("EnteredCurrentState", NOW - pick(86400));
	p_str("FileSystemDomain", "example.org");
	p_raw("HasFileTransfer", "true");
	p_raw("HasJobDeferral", "true");
	p_raw("HasSingularity", "true");
	p_str("HardwareAddress", "3c:ec:ef:12:34:56");
	p_int("ImageSize", 0);
	p_raw("IsWakeAble", "false");
	p_int("JobStarts", pick(5000));
	p_int("KeyboardIdle", 3000 + pick(90000));
	p_int("LastBenchmark", (long long)(NOW - 86400 * 3));
	p_int("LastHeardFrom", (long long)NOW - pick(300));
	p_real("LoadAvg", load);
	p_str("Machine", m->host);
	p_int("MaxJobRetirementTime", 0);
	p_int("Memory", memory);
	p_int("Mips", 21000 + pick(8000));
	p_str("MyAddress", "<10.1.2.3:9618?addrs=10.1.2.3-9618&alias=host&noUDP&sock=startd_1234_abcd>");
	p_raw("MyCurrentTime", "1700000000");
	p_str("MyType", "Machine");
	p_str("Name", name);
	p_int("NextFetchWorkDelay", -1);
	p_int("NumPids", dynamic ? 3 + pick(30) : 0);
	p_str("OpSys", "LINUX");
	p_str("OpSysAndVer", "AlmaLinux9");
	p_str("OpSysLongName", "AlmaLinux release 9.3 (Shamrock Pampas Cat)");
	p_int("OpSysMajorVer", 9);
	p_str("OpSysName", "AlmaLinux");
	if (partitionable) {
		p_raw("PartitionableSlot", "true");
		p_int("ChildCpus", 0);
	}
	if (dynamic)
		p_raw("DynamicSlot", "true");
	p_real("Rank", 0.0);
	p_raw("Requirements", "START && (WithinResourceLimits)");
	p_raw("SlotType", partitionable ? "\"Partitionable\"" : dynamic ? "\"Dynamic\"" : "\"Static\"");
	p_int("SlotTypeID", partitionable || dynamic ? 1 : slotid);
	p_int("SlotID", slotid);
	p_raw("Start", "((KeyboardIdle > 15 * 60) || (SlotType =!= \"Static\")) && "
	    "(TARGET.RequestMemory <= MY.Memory) && (isUndefined(TARGET.WantGPU) || "
	    "(TARGET.WantGPU =?= false) || (MY.GPUs > 0))");
	p_str("StartdIpAddr", "<10.1.2.3:9618?addrs=10.1.2.3-9618&alias=host&noUDP&sock=startd_1234_abcd>");
	p_str("State", state);
	p_int("TotalCondorLoadAvg", 0);
	p_int("TotalCpus", m->cpus);
	p_int("TotalDisk", m->disk);
	p_real("TotalLoadAvg", load + frac());
	p_int("TotalMemory", m->memory);
	p_int("TotalSlotCpus", cpus);
	p_int("TotalSlotDisk", disk);
	p_int("TotalSlotMemory", memory);
	p_int("TotalSlots", 1 + m->cpus / 4);
	p_real("TotalTimeClaimedBusy", frac() * 1e6);
	p_real("TotalTimeUnclaimedIdle", frac() * 1e5);
	p_str("UidDomain", "example.org");
	p_int("UpdateSequenceNumber", pick(100000));
	p_int("VirtualMemory", memory * 2048);
	p_raw("WithinResourceLimits", m->gpus ?
	    "(MY.Cpus > 0 && TARGET.RequestCpus <= MY.Cpus && TARGET.RequestMemory <= MY.Memory "
	    "&& TARGET.RequestDisk <= MY.Disk && (TARGET.RequestGPUs =?= undefined || "
	    "TARGET.RequestGPUs <= MY.GPUs))" :
	    "(MY.Cpus > 0 && TARGET.RequestCpus <= MY.Cpus && TARGET.RequestMemory <= MY.Memory "
	    "&& TARGET.RequestDisk <= MY.Disk)");
	if (dynamic) {
		const char *u = users[zipf(NUSERS)];
		snprintf(buf, sizeof buf, "%s@example.org", u);
		p_str("RemoteUser", buf);
		p_str("RemoteOwner", buf);
		p_str("AccountingGroup", buf);
		snprintf(buf, sizeof buf, "%d.%d", 10000 + pick(90000), pick(100));
		p_str("JobId", buf);
		p_int("JobStart", (long long)NOW - pick(36000));
		p_int("TotalJobRunTime", pick(36000));
		p_real("RemoteUserPrio", 500.0 + frac() * 5000);
	}
	putchar('\n');
}

static void
gen_slots(long n)
{
	long made = 0;
	char name[96];

	for (int h = 0; made < n; h++) {
		struct machine m = { { 0 }, 0, 0, 0, 0, 0, 0, { 10, 1 + h / 65536 % 256, h / 256 % 256, h % 256 } };
		int r = pick(10);
		m.kind = r < 7 ? 0 : r < 9 ? 1 : 2;
		m.cpus = m.kind == 1 ? 8 : (int[]){ 32, 64, 128 }[pick(3)];
		m.gpus = m.kind == 2 ? (pick(2) ? 4 : 2) : 0;
		m.memory = (long long)m.cpus * (4096 + 1024 * pick(4));
		m.disk = (long long)m.cpus * 20000000LL + pick(1000000);
		m.model = pick(4);
		snprintf(m.host, sizeof m.host, "%s%04d.%s.example.org", m.gpus ? "gpu" : "node", h,
		    m.kind == 1 ? "desk" : "hpc");
		if (m.kind == 1) {	/* static slots: one per cpu */
			for (int s = 1; s <= m.cpus && made < n; s++, made++) {
				snprintf(name, sizeof name, "slot%d@%s", s, m.host);
				int busy = pick(3);
				slot_common(&m, name, s, 1, m.memory / m.cpus, m.disk / m.cpus,
				    busy ? "Claimed" : "Unclaimed", busy ? "Busy" : "Idle", 0, 0);
			}
			continue;
		}
		/* a partitionable slot and the dynamic slots carved from it */
		int ndyn = pick(16), used_cpus = 0;
		long long used_mem = 0;
		for (int d = 1; d <= ndyn && made + 1 < n; d++, made++) {
			int c = 1 << pick(3);
			long long mem = 128LL * (8 + pick(64));
			if (used_cpus + c >= m.cpus)
				break;
			used_cpus += c;
			used_mem += mem;
			snprintf(name, sizeof name, "slot1_%d@%s", d, m.host);
			slot_common(&m, name, 1, c, mem, 1048576LL * c, "Claimed", "Busy", 1, 0);
		}
		snprintf(name, sizeof name, "slot1@%s", m.host);
		slot_common(&m, name, 1, m.cpus - used_cpus, m.memory - used_mem, m.disk, "Unclaimed",
		    "Idle", 0, 1);
		made++;
	}
}

/* ---- jobs ---- */

static void
job_ad(long cluster, int proc, int status, int64_t qdate, const char *user, const char *group,
    bool history)
{
	char buf[512];
	int cpus = 1 << zipf(4), mem = 1024 * (1 + zipf(16));
	long long wall = 60 + pick(86400);

	p_str("Args", "--config run.yaml --seed 42 --events 100000");
	p_str("AutoClusterAttrs", "JobUniverse,LastCheckpointPlatform,NumCkpts,MachineLastMatchTime,"
	    "ConcurrencyLimits,NiceUser,Rank,Requirements,DiskUsage,RequestCpus,RequestDisk,"
	    "RequestGPUs,RequestMemory,MemoryUsage,FileSystemDomain");
	p_int("AutoClusterId", pick(400));
	if (group) {
		snprintf(buf, sizeof buf, "%s.%s", group, user);
		p_str("AccountingGroup", buf);
		p_str("AcctGroup", group);
		p_str("AcctGroupUser", user);
	}
	p_int("BufferBlockSize", 32768);
	p_int("BufferSize", 524288);
	p_int("BytesRecvd", (long long)pick(1 << 30));
	p_int("BytesSent", (long long)pick(1 << 24));
	p_int("ClusterId", cluster);
	snprintf(buf, sizeof buf, "/home/%s/analysis/bin/process_events", user);
	p_str("Cmd", buf);
	p_int("CommittedSlotTime", history ? wall * cpus : 0);
	p_int("CommittedSuspensionTime", 0);
	p_int("CommittedTime", history ? wall : 0);
	p_int("CompletionDate", history ? qdate + wall + pick(3600) : 0);
	p_str("CondorPlatform", "$CondorPlatform: X86_64-AlmaLinux_9.3 $");
	p_str("CondorVersion", "$CondorVersion: 23.0.3 2024-01-04 BuildID: 702403 PackageID: 23.0.3-1 $");
	p_int("CoreSize", 0);
	p_real("CumulativeRemoteSysCpu", history ? frac() * 100 : 0.0);
	p_real("CumulativeRemoteUserCpu", history ? frac() * wall : 0.0);
	p_real("CumulativeSlotTime", history ? (double)wall : 0.0);
	p_int("CumulativeSuspensionTime", 0);
	p_int("CurrentHosts", status == 2);
	p_int("DiskUsage", 2500 + pick(1000000));
	p_int("DiskUsage_RAW", 2451 + pick(1000000));
	p_raw("EncryptExecuteDirectory", "false");
	p_int("EnteredCurrentStatus", qdate + pick(3600));
	p_str("Environment", "OMP_NUM_THREADS=1 PYTHONPATH=/cvmfs/sw/lib/python3.9/site-packages");
	snprintf(buf, sizeof buf, "logs/process.%ld.%d.err", cluster, proc);
	p_str("Err", buf);
	p_raw("ExecutableSize", "22");
	p_raw("ExecutableSize_RAW", "21");
	p_int("ExitBySignal", 0);
	p_int("ExitCode", history ? pick(3) : 0);
	p_int("ExitStatus", 0);
	p_raw("FileSystemDomain", "\"example.org\"");
	snprintf(buf, sizeof buf, "submit01.example.org#%ld.%d#%" PRId64, cluster, proc, qdate);
	p_str("GlobalJobId", buf);
	p_int("ImageSize", 75000 + pick(4000000));
	p_int("ImageSize_RAW", 74123 + pick(4000000));
	p_str("In", "/dev/null");
	snprintf(buf, sizeof buf, "/home/%s/analysis", user);
	p_str("Iwd", buf);
	p_raw("JobBatchName", "\"process_events-2023-11\"");
	p_int("JobCurrentStartDate", status == 2 ? qdate + pick(7200) : 0);
	p_int("JobCurrentStartExecutingDate", status == 2 ? qdate + pick(7200) : 0);
	p_raw("JobLeaseDuration", "2400");
	p_raw("JobNotification", "0");
	p_int("JobPrio", pick(10) == 0 ? 10 : 0);
	p_int("JobRunCount", status == 2 || history);
	p_int("JobStatus", status);
	p_int("JobUniverse", 5);
	p_int("KillSig", 15);
	p_int("LastJobStatus", status == 1 ? 0 : 1);
	p_int("LastSuspensionTime", 0);
	p_raw("LeaveJobInQueue", "false");
	p_int("LocalSysCpu", 0);
	p_int("LocalUserCpu", 0);
	p_int("MachineAttrCpus0", cpus);
	p_str("MachineAttrSlotWeight0", "8");
	p_int("MaxHosts", 1);
	p_raw("MemoryUsage", "((ResidentSetSize + 1023) / 1024)");
	p_int("MinHosts", 1);
	p_str("MyType", "Job");
	p_int("NiceUser", 0);
	p_int("NumCkpts", 0);
	p_int("NumCkpts_RAW", 0);
	p_int("NumJobCompletions", history);
	p_int("NumJobMatches", status == 2 || history);
	p_int("NumJobStarts", status == 2 || history);
	p_int("NumRestarts", 0);
	p_int("NumShadowStarts", status == 2 || history);
	p_int("NumSystemHolds", 0);
	p_raw("OnExitHold", "false");
	p_raw("OnExitRemove", "true");
	p_int("OrigMaxHosts", 1);
	snprintf(buf, sizeof buf, "logs/process.%ld.%d.out", cluster, proc);
	p_str("Out", buf);
	p_str("Owner", user);
	p_raw("PeriodicHold", "false");
	p_raw("PeriodicRelease", "false");
	p_raw("PeriodicRemove", "false");
	p_int("ProcId", proc);
	p_int("QDate", qdate);
	p_real("Rank", 0.0);
	p_real("RemoteSysCpu", history ? frac() * 100 : 0.0);
	p_real("RemoteUserCpu", history ? frac() * wall : 0.0);
	p_real("RemoteWallClockTime", history ? (double)wall : 0.0);
	p_raw("RequestCpus", cpus == 1 ? "1" : cpus == 2 ? "2" : cpus == 4 ? "4" : "8");
	p_raw("RequestDisk", "DiskUsage");
	if (pick(20) == 0)
		p_int("RequestGPUs", 1);
	p_raw("RequestMemory", mem <= 2048 ?
	    "ifthenelse(MemoryUsage =!= undefined,MemoryUsage,(ImageSize + 1023) / 1024)" :
	    (snprintf(buf, sizeof buf, "%d", mem), buf));
	p_raw("Requirements", "(TARGET.Arch == \"X86_64\") && (TARGET.OpSys == \"LINUX\") && "
	    "(TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && "
	    "(TARGET.Cpus >= RequestCpus) && (TARGET.HasFileTransfer)");
	p_int("ResidentSetSize", history ? 50000 + pick(2000000) : 0);
	p_int("ResidentSetSize_RAW", history ? 49999 + pick(2000000) : 0);
	p_raw("RootDir", "\"/\"");
	p_str("ShouldTransferFiles", "YES");
	p_raw("StreamErr", "false");
	p_raw("StreamOut", "false");
	p_str("TargetType", "Machine");
	p_int("TotalSubmitProcs", 100);
	p_int("TotalSuspensions", 0);
	p_raw("TransferIn", "false");
	snprintf(buf, sizeof buf, "/home/%s/analysis/input/run.yaml,/home/%s/analysis/input/"
	    "calib-2023.db,/home/%s/analysis/bin/process_events", user, user, user);
	p_str("TransferInput", buf);
	p_int("TransferInputSizeMB", 12 + pick(800));
	p_str("User", (snprintf(buf, sizeof buf, "%s@example.org", user), buf));
	p_raw("WantCheckpoint", "false");
	p_raw("WantRemoteIO", "true");
	p_raw("WantRemoteSyscalls", "false");
	p_raw("WhenToTransferOutput", "\"ON_EXIT\"");
	if (status == 2) {
		snprintf(buf, sizeof buf, "slot1_%d@node%04d.hpc.example.org", 1 + pick(12), pick(2000));
		p_str("RemoteHost", buf);
		p_int("ShadowBday", qdate + pick(7200));
	}
	if (status == 5) {
		p_str("HoldReason", "Error from slot1_3@node0042.hpc.example.org: Job has gone over "
		    "cgroup memory limit of 2048 megabytes. Peak usage: 2100 megabytes.");
		p_int("HoldReasonCode", 34);
		p_int("HoldReasonSubCode", 0);
	}
}

static void
gen_jobs(long n, bool history)
{
	long cluster = 10000, made = 0;
	int64_t qdate = NOW - 7 * 86400;

	while (made < n) {
		int u = zipf(NUSERS), procs = 1 + (pick(4) == 0 ? pick(1000) : pick(20));
		const char *group = groups[pick(6)];
		cluster++;
		qdate += pick(600);
		for (int p = 0; p < procs && made < n; p++, made++) {
			int r = pick(20);
			int status = history ? 4 : r < 12 ? 1 : r < 19 ? 2 : 5;
			job_ad(cluster, p, status, qdate, users[u], group, history);
			if (history)
				printf("*** Offset = %ld ClusterId = %ld ProcId = %d Owner = \"%s\" "
				    "CompletionDate = %lld CurrentTime = %lld\n", made * 4000, cluster, p,
				    users[u], (long long)(qdate + 90000), (long long)(qdate + 90000));
			else
				putchar('\n');
		}
	}
}

int
main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: poolgen slots|slim-slots|jobs|history N [SEED]\n");
		return 2;
	}
	long n = strtol(argv[2], NULL, 10);
	if (argc == 4)
		rng ^= strtoull(argv[3], NULL, 10) * 0x2545f4914f6cdd1dull;
	slim = strcmp(argv[1], "slim-slots") == 0;
	if (strcmp(argv[1], "slots") == 0 || slim)
		gen_slots(n);
	else if (strcmp(argv[1], "jobs") == 0)
		gen_jobs(n, false);
	else if (strcmp(argv[1], "history") == 0)
		gen_jobs(n, true);
	else {
		fprintf(stderr, "poolgen: slots, slim-slots, jobs or history\n");
		return 2;
	}
	return fflush(stdout) == 0 ? 0 : 4;
}
