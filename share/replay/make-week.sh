#!/bin/sh
# make-week.sh - writes the example's made-up week in HTCondor's own formats:
# history (condor_history -long -file), queue.ads (condor_q -long at the
# week's end), status.ads (condor_status -long) and userprio.ads
# (condor_userprio -long -legacy). The same files every run: the draws come
# from a Park-Miller generator written out here, not from awk's rand().
#   sh make-week.sh [DIR]      (default: the directory of this script)
set -eu
dir=${1:-$(dirname "$0")}
awk -v dir="$dir" '
function rnd() { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }
function between(a, b) { return a + int(rnd() * (b - a + 1)) }
function job(owner, group, cpus, mem, need, qdate, status,    id, ag, start, wait, fin, f, gid, req) {
	id = ++cluster
	wait = between(60, 3600)
	start = qdate + wait
	fin = start + need
	f = (status == "queued") ? dir "/queue.ads" : dir "/history"
	if (status != "queued" && fin > FINISH) { status = "queued" }
	ag = group == "" ? "" : group "." owner
	gid = "submit.example.org#" id ".0#" qdate
	req = "(TARGET.Arch == \"X86_64\") && (TARGET.OpSys == \"LINUX\") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus)"
	if (status == "queued") {
		f = dir "/queue.ads"
		print "ClusterId = " id > f
		print "ProcId = 0" > f
		print "Owner = \"" owner "\"" > f
		print "User = \"" owner "@example.org\"" > f
		if (ag != "") print "AccountingGroup = \"" ag "\"" > f
		print "QDate = " qdate > f
		print "JobStatus = 1" > f
		print "JobUniverse = 5" > f
		print "RequestCpus = " cpus > f
		print "RequestMemory = " mem > f
		print "RequestDisk = 1000000" > f
		print "RemoteWallClockTime = 0.0" > f
		print "CumulativeSuspensionTime = 0" > f
		print "GlobalJobId = \"" gid "\"" > f
		print "Requirements = " req > f
		print "" > f
		return
	}
	if (ag != "") print "AccountingGroup = \"" ag "\"" > f
	print "ClusterId = " id > f
	print "Cmd = \"/home/" owner "/run.sh\"" > f
	print "CommittedSuspensionTime = 0" > f
	print "CommittedTime = " (status == 3 ? 0 : need) > f
	print "CompletionDate = " (status == 3 ? 0 : fin) > f
	print "CumulativeSuspensionTime = 0" > f
	print "EnteredCurrentStatus = " fin > f
	print "GlobalJobId = \"" gid "\"" > f
	print "JobCurrentStartDate = " start > f
	print "JobStartDate = " start > f
	print "JobStatus = " status > f
	print "JobUniverse = 5" > f
	print "NumJobStarts = 1" > f
	print "Owner = \"" owner "\"" > f
	print "ProcId = 0" > f
	print "QDate = " qdate > f
	print "RemoteWallClockTime = " need ".0" > f
	print "RequestCpus = " cpus > f
	print "RequestDisk = 1000000" > f
	print "RequestMemory = " mem > f
	print "Requirements = " req > f
	print "User = \"" owner "@example.org\"" > f
	print "*** Offset = " offset " ClusterId = " id " ProcId = 0 Owner = \"" owner "\" CompletionDate = " fin > f
	offset += 900
}
function slot(name, machine, type, cpus, mem, tcpus, tmem, extra,    f) {
	f = dir "/status.ads"
	print "Name = \"" name "\"" > f
	print "Machine = \"" machine "\"" > f
	print "MyType = \"Machine\"" > f
	print "Arch = \"X86_64\"" > f
	print "OpSys = \"LINUX\"" > f
	print "OpSysAndVer = \"AlmaLinux9\"" > f
	print "SlotType = \"" type "\"" > f
	print "State = \"Unclaimed\"" > f
	print "Activity = \"Idle\"" > f
	print "Cpus = " cpus > f
	print "Memory = " mem > f
	print "Disk = 500000000" > f
	print "TotalCpus = " tcpus > f
	print "TotalMemory = " tmem > f
	print "TotalDisk = 500000000" > f
	print "KFlops = 2400000" > f
	print "Mips = 32000" > f
	print "HasFileTransfer = true" > f
	print "KeyboardIdle = 3600" > f
	print "Start = true" > f
	print "Requirements = START" > f
	if (extra != "") print extra > f
	print "" > f
}
BEGIN {
	seed = 20260105
	START = 1767571200	# Monday 2026-01-05 00:00 UTC
	FINISH = START + 7 * 86400
	cluster = 1000
	offset = 0
	printf "" > (dir "/history"); printf "" > (dir "/queue.ads")
	printf "" > (dir "/status.ads"); printf "" > (dir "/userprio.ads")
	for (d = 0; d < 7; d++) {
		day = START + d * 86400
		weekday = d < 5
		# alice (physics): a sweep of 60 one-core jobs each weekday morning
		if (weekday) {
			t = day + 9 * 3600 + between(0, 7200)
			for (i = 0; i < 60; i++) job("alice", "group_physics", 1, 2048, between(14400, 28800), t, 4)
		}
		# bob (physics): 16 four-core jobs on Tuesday and Thursday afternoons
		if (d == 1 || d == 3) {
			t = day + 14 * 3600 + between(0, 1800)
			for (i = 0; i < 16; i++) job("bob", "group_physics", 4, 8192, between(28800, 57600), t, 4)
		}
		# carol (chemistry): three short jobs every two hours, all week
		for (h = 0; h < 24; h += 2) {
			t = day + h * 3600 + between(0, 600)
			for (i = 0; i < 3; i++) job("carol", "group_chem", 1, 1024, between(1200, 3600), t, 4)
		}
		# dave (no group): eight-core jobs of a day on Monday and Friday evenings
		if (d == 0 || d == 4) {
			t = day + 20 * 3600 + between(0, 900)
			for (i = 0; i < 10; i++) job("dave", "", 8, 16384, between(72000, 100800), t, 4)
		}
		# erin (no group): bursts of short jobs twice a day, some removed
		for (k = 0; k < 2; k++) {
			t = day + (10 + 6 * k) * 3600 + between(0, 3600)
			for (i = 0; i < 15; i++) job("erin", "", 1, 1024, between(300, 900), t, rnd() < 0.1 ? 3 : 4)
		}
	}
	# erin asks twice for a machine the pool does not have
	job("erin", "", 1, 262144, 600, START + 86400 + 3600, "queued")
	job("erin", "", 1, 262144, 600, START + 86400 + 3700, "queued")
	# the week ends with three jobs of carol idle
	for (i = 0; i < 3; i++) job("carol", "group_chem", 1, 1024, 0, FINISH - 1800, "queued")
	# six cluster nodes of 16 cores, one partitionable slot each
	for (n = 1; n <= 6; n++) {
		m = sprintf("node%02d.hpc.example.org", n)
		slot("slot1@" m, m, "Partitionable", 16, 65536, 16, 65536, "PartitionableSlot = true")
	}
	# eight desktops of four cores, four static slots each
	for (n = 1; n <= 8; n++) {
		m = sprintf("ws%02d.cs.example.org", n)
		for (s = 1; s <= 4; s++)
			slot("slot" s "@" m, m, "Static", 1, 4096, 4, 16384, "IsDesktop = true")
	}
	f = dir "/userprio.ads"
	print "LastUpdate = " START > f
	n = 0
	split("group_physics.alice@example.org group_physics.bob@example.org group_chem.carol@example.org dave@example.org erin@example.org", who, " ")
	split("40.0 250.0 12.0 900.0 3.0", prio, " ")
	for (i = 1; i <= 5; i++) {
		print "Name" i " = \"" who[i] "\"" > f
		print "Priority" i " = " prio[i] > f
		print "PriorityFactor" i " = 1.0" > f
		print "AccumulatedUsage" i " = " (prio[i] * 3600) > f
	}
	print "NumSubmittors = 5" > f
}'
