/* t_startd.c - unit tests of lib/condor/startd*.c: slot layouts, transitions
 * through the API, events, timers, partitionable slots and the --why report. */
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
	ca_config *cfg;
	ca_startd *sd;
	ca_smachine *m;
	strbuf log;		/* "N " per transition, "note " per note */
	strbuf text;		/* every cause, one per line */
	int diags;
	ca_ad *evads[32];
	ca_sevent evs[32];
	ca_sevent *evp[32];
	size_t nev, next;
};

static void
log_cb(void *arg, const ca_slog *r)
{
	struct world *w = arg;

	if (r->num > 0)
		strbuf_addf(&w->log, "%d ", r->num);
	else
		strbuf_adds(&w->log, "note ");
	strbuf_addf(&w->text, "%s %s/%s -> %s/%s: %s\n", r->slot, ca_sstate_name[r->from_state],
	    ca_sact_name[r->from_act], ca_sstate_name[r->to_state], ca_sact_name[r->to_act],
	    r->cause);
}

static void
diag_cb(void *arg, const ca_diag *e)
{
	struct world *w = arg;

	(void)e;
	w->diags++;
}

static ca_ad *
ad_of(const char *text)
{
	ca_diag perr;
	size_t used;
	ca_ad *ad = ca_parse_ad(text, strlen(text), &used, 0, &perr);

	if (ad == NULL)
		fprintf(stderr, "t_startd: %s: %s\n", text, perr.msg);
	return ad;
}

/* A world with policy text and the machine desc, created at T0. */
static bool
world_init(struct world *w, const char *policy, const char *desc)
{
	ca_diag err;

	memset(w, 0, sizeof *w);
	w->log = (strbuf)STRBUF_INIT;
	w->text = (strbuf)STRBUF_INIT;
	w->cfg = ca_config_new();
	ca_startd_config_prepare(w->cfg);
	if (ca_config_load_mem(w->cfg, "t.cfg", policy, strlen(policy), &err) < 0 ||
	    (w->sd = ca_startd_new(w->cfg, &err)) == NULL) {
		fprintf(stderr, "t_startd: %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
		return false;
	}
	ca_startd_set_log(w->sd, log_cb, w);
	ca_startd_set_diag(w->sd, diag_cb, w);
	w->m = ca_smachine_new(w->sd);
	ca_ad *d = ad_of(desc);
	if (d == NULL)
		return false;
	int rc = ca_smachine_create(w->m, d, T0, &err);
	ca_ad_free(d);
	if (rc < 0)
		fprintf(stderr, "t_startd: create: %s\n", err.msg);
	return rc == 0;
}

static void
world_free(struct world *w)
{
	for (size_t i = 0; i < w->nev; i++)
		ca_ad_free(w->evads[i]);
	ca_smachine_free(w->m);
	ca_startd_free(w->sd);
	ca_config_free(w->cfg);
	strbuf_release(&w->log);
	strbuf_release(&w->text);
}

/* Add an event given as a new-syntax ad. */
static void
event(struct world *w, const char *text)
{
	ca_diag err;
	ca_ad *ad = ad_of(text);

	if (ad == NULL || w->nev == 32)
		return;
	if (ca_sevent_init(&w->evs[w->nev], ad, T0, &err) < 0) {
		fprintf(stderr, "t_startd: event: %s\n", err.msg);
		ca_ad_free(ad);
		return;
	}
	w->evs[w->nev].seq = (uint32_t)w->nev;
	w->evads[w->nev] = ad;
	w->evp[w->nev] = &w->evs[w->nev];
	w->nev++;
}

static void
run_to(struct world *w, int64_t t)
{
	ca_sevent_sort(w->evp + w->next, w->nev - w->next);
	ca_startd_advance(w->sd, w->m, w->evp, w->nev, &w->next, t);
}

/* The literal text of attribute a of slot i, in buf. */
static const char *
attr(struct world *w, size_t i, const char *a, char *buf, size_t len)
{
	const ca_ad *ad = ca_smachine_slot(w->m, i);
	ca_expr *e = ad ? ca_ad_lookup(ad, a) : NULL;
	strbuf sb = STRBUF_INIT;

	if (e == NULL)
		snprintf(buf, len, "(none)");
	else {
		ca_print_expr(&sb, e, 0);
		snprintf(buf, len, "%s", sb.buf);
	}
	strbuf_release(&sb);
	return buf;
}

static bool
is(struct world *w, size_t i, const char *state, const char *act)
{
	char s[64], a[64], want_s[64], want_a[64];

	snprintf(want_s, sizeof want_s, "\"%s\"", state);
	snprintf(want_a, sizeof want_a, "\"%s\"", act);
	attr(w, i, "State", s, sizeof s);
	attr(w, i, "Activity", a, sizeof a);
	if (strcmp(s, want_s) != 0 || strcmp(a, want_a) != 0) {
		fprintf(stderr, "t_startd: slot %zu is %s/%s, not %s/%s\n", i, s, a, state, act);
		return false;
	}
	return true;
}

#define DESK "[ Name = \"desk\"; Cpus = 1; Memory = 2048; Disk = 100000; KeyboardIdle = 3600; " \
	"LoadAvg = 0.0 ]"
#define JOB(c, o) "Job = [ ClusterId = " #c "; ProcId = 0; Owner = \"" o "\"; RequestCpus = 1; " \
	"RequestMemory = 100; RequestDisk = 100; JobUniverse = 5 ]"

/* ---- suites ---- */

UNIT_SUITE(startd_layout)
{
	struct world w;
	char b[64];

	CHECK(world_init(&w, "", "[ Name = \"n\"; Cpus = 4; Memory = 4000; Disk = 400 ]"));
	CHECK(ca_smachine_count(w.m) == 1);
	CHECK(strcmp(attr(&w, 0, "SlotType", b, sizeof b), "\"Partitionable\"") == 0);
	CHECK(strcmp(attr(&w, 0, "Name", b, sizeof b), "\"slot1@n\"") == 0);
	world_free(&w);

	CHECK(world_init(&w, "NUM_SLOTS = 3\n",
	    "[ Machine = \"n\"; Cpus = 4; Memory = 4000; Disk = 400 ]"));
	CHECK(ca_smachine_count(w.m) == 3);
	CHECK(strcmp(attr(&w, 0, "Cpus", b, sizeof b), "2") == 0);	/* 4 = 2 + 1 + 1 */
	CHECK(strcmp(attr(&w, 2, "Cpus", b, sizeof b), "1") == 0);
	CHECK(strcmp(attr(&w, 0, "Memory", b, sizeof b), "1334") == 0);
	CHECK(strcmp(attr(&w, 2, "Disk", b, sizeof b), "133") == 0);
	CHECK(strcmp(attr(&w, 1, "Name", b, sizeof b), "\"slot2@n\"") == 0);
	CHECK(is(&w, 1, "Owner", "Idle"));
	world_free(&w);

	CHECK(world_init(&w, "SLOT_TYPE_1 = 1/2\nNUM_SLOTS_TYPE_1 = 1\n"
	    "SLOT_TYPE_2 = c=1, m=25%, d=auto\nNUM_SLOTS_TYPE_2 = 2\n",
	    "[ Name = \"n\"; Cpus = 4; Memory = 4000; Disk = 400 ]"));
	CHECK(ca_smachine_count(w.m) == 3);
	CHECK(strcmp(attr(&w, 0, "Cpus", b, sizeof b), "2") == 0);
	CHECK(strcmp(attr(&w, 1, "Memory", b, sizeof b), "1000") == 0);
	CHECK(strcmp(attr(&w, 2, "Disk", b, sizeof b), "100") == 0);	/* (400-200)/2 */
	CHECK(strcmp(attr(&w, 2, "SlotTypeID", b, sizeof b), "2") == 0);
	world_free(&w);

	/* impossible layouts are errors, not crashes */
	ca_diag err;
	const char *bad[] = {
		"SLOT_TYPE_1 = cpus=5\nNUM_SLOTS_TYPE_1 = 1\n",
		"SLOT_TYPE_1 = 3/0\nNUM_SLOTS_TYPE_1 = 1\n",
		"SLOT_TYPE_1 = widgets=2\nNUM_SLOTS_TYPE_1 = 1\n",
		"NUM_SLOTS = 5\n",
		"NUM_SLOTS_TYPE_1 = -1\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ca_config *c = ca_config_new();
		ca_startd_config_prepare(c);
		CHECK(ca_config_load_mem(c, "b.cfg", bad[i], strlen(bad[i]), &err) == 0);
		ca_startd *sd = ca_startd_new(c, &err);
		CHECK(sd != NULL);
		ca_smachine *m = ca_smachine_new(sd);
		ca_ad *d = ad_of("[ Name = \"n\"; Cpus = 4; Memory = 4000; Disk = 400 ]");
		CHECK(ca_smachine_create(m, d, T0, &err) < 0);
		CHECK(err.msg[0] != '\0');
		ca_ad_free(d);
		ca_smachine_free(m);
		ca_startd_free(sd);
		ca_config_free(c);
	}
}

UNIT_SUITE(startd_claim_cycle)
{
	struct world w;
	char b[256];

	CHECK(world_init(&w, "NUM_SLOTS = 1\n", DESK));
	event(&w, "[ Name = \"slot1@desk\"; Event = \"Match\"; Time = 1700000010; " JOB(5, "ann")
	    "; Submitter = \"ann@x\"; RemoteUserPrio = 2.5 ]");
	event(&w, "[ Name = \"slot1@desk\"; Event = \"Claim\"; Time = 1700000011 ]");
	event(&w, "[ Name = \"slot1@desk\"; Event = \"Activate\"; Time = 1700000012 ]");
	event(&w, "[ Name = \"slot1@desk\"; Event = \"JobExit\"; Time = 1700000100 ]");
	event(&w, "[ Name = \"slot1@desk\"; Event = \"Release\"; Time = 1700000101 ]");
	run_to(&w, T0 + 50);
	CHECK(strcmp(w.log.buf, "1 6 9 11 ") == 0);
	CHECK(is(&w, 0, "Claimed", "Busy"));
	CHECK(strcmp(attr(&w, 0, "RemoteUser", b, sizeof b), "\"ann@x\"") == 0);
	CHECK(strcmp(attr(&w, 0, "RemoteUserPrio", b, sizeof b), "2.5") == 0);
	CHECK(strcmp(attr(&w, 0, "JobStart", b, sizeof b), "1700000012") == 0);
	CHECK(strcmp(attr(&w, 0, "TotalJobRunTime", b, sizeof b), "38") == 0);
	CHECK(strcmp(attr(&w, 0, "Requirements", b, sizeof b),
	    "START && WithinResourceLimits") == 0);
	CHECK(strncmp(attr(&w, 0, "Job", b, sizeof b), "[ ClusterId = 5;", 16) == 0);
	run_to(&w, T0 + 200);
	CHECK(strcmp(w.log.buf, "1 6 9 11 12 10 22 1 ") == 0);
	CHECK(is(&w, 0, "Unclaimed", "Idle"));
	CHECK(strcmp(attr(&w, 0, "Job", b, sizeof b), "(none)") == 0);
	CHECK(strcmp(attr(&w, 0, "TotalTimeClaimedBusy", b, sizeof b), "88") == 0);
	CHECK(strcmp(attr(&w, 0, "MyCurrentTime", b, sizeof b), "1700000200") == 0);
	CHECK(w.next == w.nev);
	for (size_t i = 0; i < w.nev; i++)
		CHECK(w.evs[i].used);
	world_free(&w);
}

UNIT_SUITE(startd_suspend_preempt)
{
	struct world w;

	/* the Desktop template: suspend on the keyboard, preempt after
	 * MaxSuspendTime, kill after MaxVacateTime */
	CHECK(world_init(&w, "use POLICY : Desktop\nNUM_SLOTS = 1\n", DESK));
	event(&w, "[ Name = \"slot1@desk\"; Event = \"Claim\"; Time = 1700000010; "
	    JOB(5, "ann") " ]");
	event(&w, "[ Name = \"slot1@desk\"; Event = \"Activate\"; Time = 1700000010 ]");
	event(&w, "[ Name = \"desk\"; Event = \"MachineUpdate\"; Time = 1700000100; "
	    "KeyboardIdle = 0 ]");
	run_to(&w, T0 + 100);
	CHECK(strcmp(w.log.buf, "1 5 11 note 14 ") == 0);
	CHECK(is(&w, 0, "Claimed", "Suspended"));
	for (int64_t t = T0 + 160; t <= T0 + 2000; t += 60) {
		/* the owner keeps typing */
		w.evp[w.nev] = NULL;
		run_to(&w, t);
		ca_ad *u = ad_of("[ Name = \"desk\"; Event = \"MachineUpdate\"; "
		    "KeyboardIdle = 0 ]");
		ca_sevent ev;
		ca_diag err;
		CHECK(ca_sevent_init(&ev, u, t, &err) == 0);
		ca_sevent *p = &ev;
		size_t k = 0;
		ca_startd_advance(w.sd, w.m, &p, 1, &k, t);
		ca_ad_free(u);
	}
	/* suspended 10 minutes: PREEMPT (16), no retirement (18), vacating
	 * (a vanilla job), 10 minutes later KILL (21), KILLING_TIMEOUT (25) */
	CHECK(strstr(w.log.buf,
	    "14 note note note note note note note note note note 16 18 ") != NULL);
	CHECK(strstr(w.log.buf, " 21 ") != NULL);
	CHECK(strstr(w.log.buf, " 25 ") != NULL);
	CHECK(strstr(w.text.buf, "-> Claimed/Retiring: PREEMPT = true") != NULL);
	CHECK(strstr(w.text.buf, "-> Preempting/Killing: the vacate time") != NULL);
	CHECK(is(&w, 0, "Owner", "Idle"));
	world_free(&w);
}

UNIT_SUITE(startd_events)
{
	ca_diag err;
	ca_sevent ev;
	ca_ad *ad;

	ad = ad_of("[ Name = \"s\"; Event = \"match\"; Job = [ ClusterId = 1 ] ]");
	CHECK(ca_sevent_init(&ev, ad, 77, &err) == 0);
	CHECK(ev.kind == CA_EV_MATCH && ev.time == 77 && strcmp(ev.name, "s") == 0);
	ca_ad_free(ad);
	ad = ad_of("[ Name = \"s\"; Event = \"Shutdown\"; Time = 12.9 ]");
	CHECK(ca_sevent_init(&ev, ad, 77, &err) == 0 && ev.time == 12);
	ca_ad_free(ad);
	const char *bad[] = {
		"[ Name = \"s\" ]", "[ Name = \"s\"; Event = 3 ]",
		"[ Name = \"s\"; Event = \"Boom\" ]",
		"[ Event = \"Match\" ]", "[ Name = \"\"; Event = \"Match\" ]",
		"[ Name = \"s\"; Event = \"Match\"; Time = \"now\" ]",
		"[ Name = \"s\"; Event = \"Match\"; Time = 1e300 ]",
		"[ Name = \"s\"; Event = \"Match\"; Job = 3 ]",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ad = ad_of(bad[i]);
		err.msg[0] = '\0';
		CHECK(ca_sevent_init(&ev, ad, 0, &err) < 0 && err.msg[0] != '\0' &&
		    err.status == CA_EX_INPUT && err.file == NULL);
		ca_ad_free(ad);
	}
	/* sorting keeps the input order of equal times */
	ca_sevent e[4];
	ca_sevent *p[4];
	int64_t times[4] = { 5, 3, 5, 3 };
	for (int i = 0; i < 4; i++) {
		memset(&e[i], 0, sizeof e[i]);
		e[i].time = times[i];
		e[i].seq = (uint32_t)i;
		p[i] = &e[i];
	}
	ca_sevent_sort(p, 4);
	CHECK(p[0] == &e[1] && p[1] == &e[3] && p[2] == &e[0] && p[3] == &e[2]);
	/* the machine an event is for */
	ev.name = "slot1_2@host.x";
	CHECK(strcmp(ca_sevent_machine(&ev), "host.x") == 0);
	ev.name = "host.y";
	CHECK(strcmp(ca_sevent_machine(&ev), "host.y") == 0);
}

UNIT_SUITE(startd_pslot)
{
	struct world w;
	char b[64];

	CHECK(world_init(&w, "", "[ Name = \"n\"; Cpus = 10; Memory = 10240; Disk = 1000000 ]"));
	event(&w, "[ Name = \"slot1@n\"; Event = \"Claim\"; Time = 1700000010; Job = [ "
	    "ClusterId = 1; ProcId = 0; Owner = \"a\"; RequestCpus = 3; RequestMemory = 1024; "
	    "RequestDisk = 10240 ] ]");
	event(&w, "[ Name = \"slot1@n\"; Event = \"Claim\"; Time = 1700000010; Job = [ "
	    "ClusterId = 2; ProcId = 0; Owner = \"a\"; RequestCpus = 8; RequestMemory = 1024; "
	    "RequestDisk = 10240 ] ]");
	event(&w, "[ Name = \"slot1@n\"; Event = \"Vacate\"; Time = 1700000020; "
	    "JobId = \"1.0\" ]");
	run_to(&w, T0 + 15);
	CHECK(ca_smachine_count(w.m) == 2);
	CHECK(strcmp(attr(&w, 1, "Name", b, sizeof b), "\"slot1_1@n\"") == 0);
	CHECK(strcmp(attr(&w, 0, "Cpus", b, sizeof b), "7") == 0);
	CHECK(strcmp(attr(&w, 0, "Memory", b, sizeof b), "9216") == 0);
	CHECK(strcmp(attr(&w, 1, "DSlotId", b, sizeof b), "1") == 0);
	CHECK(is(&w, 1, "Claimed", "Idle"));
	CHECK(strstr(w.text.buf, "no dynamic slot: WithinResourceLimits = false") != NULL);
	run_to(&w, T0 + 30);
	CHECK(ca_smachine_slot(w.m, 1) == NULL);	/* deleted */
	CHECK(strcmp(attr(&w, 0, "Cpus", b, sizeof b), "10") == 0);
	CHECK(strcmp(attr(&w, 0, "Disk", b, sizeof b), "1000000") == 0);
	world_free(&w);
}

UNIT_SUITE(startd_custom_resources)
{
	struct world w;
	char b[128];

	/* ids from the configuration, a count, and the WithinResourceLimits clause */
	CHECK(world_init(&w, "MACHINE_RESOURCE_GPUs = CUDA10, CUDA2\nMACHINE_RESOURCE_Cogs = 3\n",
	    "[ Name = \"g\"; Cpus = 4; Memory = 4096; Disk = 100000 ]"));
	/* ids in the order the startd hands them out: CUDA2 before CUDA10 */
	CHECK(strcmp(attr(&w, 0, "AssignedGPUs", b, sizeof b), "\"CUDA2,CUDA10\"") == 0);
	CHECK(strcmp(attr(&w, 0, "Cogs", b, sizeof b), "3") == 0);
	CHECK(strcmp(attr(&w, 0, "AssignedCogs", b, sizeof b), "(none)") == 0);
	event(&w, "[ Name = \"slot1@g\"; Event = \"Claim\"; Time = 1700000010; Job = [ "
	    "ClusterId = 1; ProcId = 0; Owner = \"a\"; RequestCpus = 1; RequestMemory = 100; "
	    "RequestDisk = 100; RequestGPUs = 1; RequestCogs = 2 ] ]");
	event(&w, "[ Name = \"slot1@g\"; Event = \"Claim\"; Time = 1700000010; Job = [ "
	    "ClusterId = 2; ProcId = 0; Owner = \"a\"; RequestCpus = 1; RequestMemory = 100; "
	    "RequestDisk = 100; RequestCogs = 2 ] ]");
	event(&w, "[ Name = \"slot1@g\"; Event = \"Vacate\"; Time = 1700000020; "
	    "JobId = \"1.0\" ]");
	run_to(&w, T0 + 15);
	CHECK(ca_smachine_count(w.m) == 2);
	CHECK(strcmp(attr(&w, 1, "AssignedGPUs", b, sizeof b), "\"CUDA2\"") == 0);
	CHECK(strcmp(attr(&w, 0, "AssignedGPUs", b, sizeof b), "\"CUDA10\"") == 0);
	CHECK(strcmp(attr(&w, 0, "Cogs", b, sizeof b), "1") == 0);
	CHECK(strstr(w.text.buf, "WithinResourceLimits = false") != NULL);
	run_to(&w, T0 + 30);
	CHECK(ca_smachine_slot(w.m, 1) == NULL);
	CHECK(strcmp(attr(&w, 0, "AssignedGPUs", b, sizeof b), "\"CUDA2,CUDA10\"") == 0);
	CHECK(strcmp(attr(&w, 0, "Cogs", b, sizeof b), "3") == 0);
	world_free(&w);
}

UNIT_SUITE(startd_dump_machine)
{
	struct world w;
	char b[128];
	strbuf warn = STRBUF_INIT;

	CHECK(world_init(&w, "MACHINE_RESOURCE_INVENTORY_GPUs = discover\n",
	    "[ Name = \"h\"; Cpus = 1; Memory = 1024; Disk = 1000 ]"));
	/* a partitionable slot and two dynamic slots of a condor_status dump */
	ca_ad *slots[4];
	slots[0] = ad_of("[ Name = \"slot1@h\"; Machine = \"h\"; SlotID = 1; SlotType = "
	    "\"Partitionable\"; PartitionableSlot = true; State = \"Unclaimed\"; Cpus = 2; "
	    "TotalSlotCpus = 8; Memory = 1000; TotalSlotMemory = 4000; Disk = 10; "
	    "DetectedCpus = 8; DetectedMemory = 4000; TotalDisk = 5000; AssignedGPUs = \"c1\"; "
	    "Arch = \"X86_64\"; RemoteUser = \"x\" ]");
	slots[1] = ad_of("[ Name = \"slot1_1@h\"; Machine = \"h\"; SlotID = 1; DynamicSlot = true; "
	    "State = \"Claimed\"; Cpus = 4; Memory = 2000; AssignedGPUs = \"c10\" ]");
	slots[2] = ad_of("[ Name = \"slot1_2@h\"; Machine = \"h\"; SlotID = 1; DynamicSlot = true; "
	    "State = \"Claimed\"; Cpus = 1; Memory = 1000; AssignedGPUs = \"c2\" ]");
	slots[3] = ad_of("[ Name = \"SLOT1_2@h\"; Machine = \"h\"; SlotID = 1; DynamicSlot = true; "
	    "State = \"Claimed\"; Cpus = 1; Memory = 1000 ]");
	ca_ad *plain = ad_of("[ Name = \"h\"; Cpus = 8 ]");
	CHECK(ca_startd_is_slot_ad(slots[0]) && !ca_startd_is_slot_ad(plain));
	ca_ad_free(plain);
	ca_ad *desc = ca_startd_dump_machine(w.sd, slots, 4, &warn);
	ca_ctx cx;
	ca_ctx_init(&cx);
	int64_t v = 0;
	const char *str;
	CHECK(ca_get_int(&cx, desc, "Cpus", &v) == 1 && v == 8);
	CHECK(ca_get_int(&cx, desc, "Memory", &v) == 1 && v == 4000);
	CHECK(ca_get_int(&cx, desc, "Disk", &v) == 1 && v == 5000);
	CHECK(ca_get_str(&cx, desc, "Machine", &str, NULL) == 1 && strcmp(str, "h") == 0);
	CHECK(ca_get_str(&cx, desc, "DetectedGPUs", &str, NULL) == 1 &&
	    strcmp(str, "c1, c2, c10") == 0);
	CHECK(ca_get_str(&cx, desc, "Arch", &str, NULL) == 1);
	CHECK(!ca_has(desc, "RemoteUser") && !ca_has(desc, "State") && !ca_has(desc, "Name"));
	/* the twice-named slot is left out; 2 + 4 + 1 cpus of 8 */
	CHECK(strstr(warn.buf, "two slots are named SLOT1_2@h") != NULL);
	CHECK(strstr(warn.buf, "slot1@h: 2 Cpus left and 5 in its dynamic slots, but "
	    "TotalSlotCpus = 8") != NULL);
	CHECK(strstr(warn.buf, "Memory") == NULL);	/* 1000 + 3000 of 4000 */
	/* laid out afresh: one partitionable slot with the three GPUs */
	ca_smachine *m = ca_smachine_new(w.sd);
	ca_diag err;
	CHECK(ca_smachine_create(m, desc, T0, &err) == 0);
	ca_smachine *keep = w.m;
	w.m = m;
	CHECK(ca_smachine_count(m) == 1);
	CHECK(strcmp(attr(&w, 0, "Cpus", b, sizeof b), "8") == 0);
	CHECK(strcmp(attr(&w, 0, "AssignedGPUs", b, sizeof b), "\"c1,c2,c10\"") == 0);
	CHECK(is(&w, 0, "Owner", "Idle"));
	w.m = keep;
	ca_smachine_free(m);
	ca_ctx_free(&cx);
	ca_ad_free(desc);
	for (int i = 0; i < 4; i++)
		ca_ad_free(slots[i]);
	strbuf_release(&warn);
	world_free(&w);
}

UNIT_SUITE(startd_why_and_status)
{
	struct world w;
	strbuf sb = STRBUF_INIT;

	CHECK(world_init(&w, "use POLICY : Desktop\nNUM_SLOTS = 1\n", DESK));
	run_to(&w, T0);
	CHECK(ca_startd_why(w.sd, w.m, "slot1@DESK", &sb) == 0);	/* any case */
	CHECK(strstr(sb.buf, "slot1@desk is Unclaimed/Idle") != NULL);
	CHECK(strstr(sb.buf, "  IS_OWNER = false\n") != NULL);
	CHECK(strstr(sb.buf, "START =?= false  =>  false") != NULL);
	strbuf_reset(&sb);
	CHECK(ca_startd_why(w.sd, w.m, "slot2@desk", &sb) < 0);
	ca_startd_status(w.sd, w.m, 0, &sb);
	CHECK(strstr(sb.buf, "slot1@desk is Unclaimed/Idle KeyboardIdle=3600 LoadAvg=0.0: START = "
	    "true, IS_OWNER = false") != NULL);
	/* a dry run changes nothing: the log is still the one transition */
	CHECK(strcmp(w.log.buf, "1 ") == 0);
	strbuf_release(&sb);
	world_free(&w);
}

UNIT_SUITE(startd_bad_policy)
{
	ca_config *c = ca_config_new();
	ca_diag err;
	const char *text = "PREEMPT = (KeyboardIdle <\n";

	ca_startd_config_prepare(c);
	CHECK(ca_config_load_mem(c, "p.cfg", text, strlen(text), &err) == 0);
	CHECK(ca_startd_new(c, &err) == NULL);
	CHECK(err.line == 1 && strstr(err.msg, "PREEMPT") != NULL);
	ca_config_free(c);

	/* a STARTD_ATTRS value that does not parse is reported, not published */
	struct world w;
	CHECK(world_init(&w, "STARTD_ATTRS = Good Bad\nGood = 1\nBad = (2\n", DESK));
	char b[64];
	CHECK(w.diags == 1);
	CHECK(strcmp(attr(&w, 0, "Good", b, sizeof b), "1") == 0);
	CHECK(strcmp(attr(&w, 0, "Bad", b, sizeof b), "(none)") == 0);
	world_free(&w);
}

UNIT_SUITE(startd_sevents)
{
	struct world w;
	ca_sevents *q = ca_sevents_new();
	ca_diag err;
	static const char *const evs[] = {
		"[ Name = \"slot1@DESK\"; Event = \"Vacate\"; Time = 1700000300 ]",
		"[ Name = \"other\"; Event = \"Drain\"; Time = 1700000100 ]",
		"[ Name = \"desk\"; Event = \"MachineUpdate\"; Time = 1700000200; "
		    "KeyboardIdle = 0 ]",
		"[ Name = \"slot1@desk\"; Event = \"Claim\"; Time = 1700000200; "
		    JOB(3, "ann") " ]",
		"[ Name = \"slot1@desk\"; Event = \"Bogus\" ]",
	};

	CHECK(world_init(&w, "NUM_SLOTS = 1\n", DESK));
	for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++) {
		ca_ad *ad = ad_of(evs[i]);
		if (ca_sevents_add(q, ad, T0, "ev", (int)i + 1, &err) < 0) {
			CHECK(i == 4 && strcmp(err.file, "ev") == 0 && err.line == 5 &&
			    err.col == 1 && strstr(err.msg, "unknown event") != NULL);
			ca_ad_free(ad);
		}
	}
	CHECK(ca_sevents_count(q) == 4);
	CHECK(ca_sevents_at(q, 1)->seq == 1 && ca_sevents_at(q, 1)->line == 2);
	/* the machine's events, in any case, by time then input order */
	size_t n, next = 0;
	ca_sevent **v = ca_sevents_take(q, w.m, &n);
	CHECK(n == 3 && v[0] == ca_sevents_at(q, 2) && v[1] == ca_sevents_at(q, 3) &&
	    v[2] == ca_sevents_at(q, 0));
	ca_startd_advance(w.sd, w.m, v, n, &next, T0 + 600);
	CHECK(next == 3 && v[0]->used && v[1]->used && v[2]->used);
	free(v);
	/* each event is handed out once */
	v = ca_sevents_take(q, w.m, &n);
	CHECK(n == 0);
	free(v);
	CHECK(!ca_sevents_at(q, 1)->taken && !ca_sevents_at(q, 1)->used);
	/* the log's line, after the local time "YYYY-MM-DD HH:MM:SS" */
	strbuf sb = STRBUF_INIT;
	ca_slog r = { T0, "slot1@desk", CA_S_OWNER, CA_A_IDLE, CA_S_UNCLAIMED, CA_A_IDLE, 1, "x" };
	ca_slog_format(&r, &sb);
	CHECK(sb.len > 19 && sb.buf[4] == '-' && sb.buf[13] == ':' &&
	    strcmp(sb.buf + 19, " slot1@desk Owner/Idle -> Unclaimed/Idle [1] x\n") == 0);
	strbuf_release(&sb);
	ca_sevents_free(q);
	world_free(&w);
}

/* One advance far ahead and many small ones make the same transitions, at
 * the same times: a KeyboardIdle threshold and a time of day. */
static void
history(const char *policy, int64_t from, int64_t to, int64_t every, strbuf *out)
{
	struct world w;

	if (!world_init(&w, policy, DESK))
		return;
	event(&w, "[ Name = \"slot1@desk\"; Event = \"Claim\"; Time = 1700000010; "
	    JOB(1, "alice") " ]");
	event(&w, "[ Name = \"slot1@desk\"; Event = \"Activate\"; Time = 1700000010 ]");
	event(&w, "[ Name = \"desk\"; Event = \"MachineUpdate\"; Time = 1700000300; "
	    "KeyboardIdle = 0 ]");
	for (int64_t t = from; t < to; t += every)
		run_to(&w, t);
	run_to(&w, to);
	strbuf_adds(out, w.text.buf);
	world_free(&w);
}

UNIT_SUITE(startd_deadlines)
{
	static const char desktop[] =
	    "NUM_SLOTS = 1\nWANT_SUSPEND = True\nSUSPEND = KeyboardIdle < 60\n"
	    "CONTINUE = KeyboardIdle > 5 * $(MINUTE)\n";
	strbuf one = STRBUF_INIT, many = STRBUF_INIT;

	history(desktop, T0, T0 + 3600, 3600, &one);
	history(desktop, T0, T0 + 3600, 7, &many);
	CHECK(strcmp(one.buf, many.buf) == 0);
	/* CONTINUE the second KeyboardIdle passes 300: 300 + 301 s from T0 */
	CHECK(strstr(one.buf, "Claimed/Suspended -> Claimed/Busy: CONTINUE = true") != NULL);
	CHECK(one.len > 0);

	/* a retirement that runs out exactly, between two advances */
	struct world w;
	CHECK(world_init(&w, "NUM_SLOTS = 1\nPREEMPT = KeyboardIdle < 60\n"
	    "MAXJOBRETIREMENTTIME = 300\nMachineMaxVacateTime = 60\n", DESK));
	event(&w, "[ Name = \"slot1@desk\"; Event = \"Claim\"; Time = 1700000010; "
	    JOB(1, "alice") " ]");
	event(&w, "[ Name = \"slot1@desk\"; Event = \"Activate\"; Time = 1700000010 ]");
	event(&w, "[ Name = \"desk\"; Event = \"MachineUpdate\"; Time = 1700000100; "
	    "KeyboardIdle = 0 ]");
	run_to(&w, T0 + 1000);
	/* 300 s from the start (T0 + 10), less the 60 s of vacating */
	CHECK(strstr(w.log.buf, "13 18 ") != NULL);
	CHECK(strstr(w.text.buf, "retirement (PREEMPT) is over: 60 s of MaxJobRetirementTime "
	    "left") != NULL);
	world_free(&w);
	strbuf_release(&one);
	strbuf_release(&many);
}

/* A machine kept in memory between advances (ca_startd_set_resident, as a
 * pool in one process keeps it) ends each advance knowing its slots'
 * deadlines; one written out finds them again. Both must take the same
 * steps: here a partitionable machine whose dynamic slots are preempted on
 * a clock, claimed, activated and vacated between advances. */
UNIT_SUITE(startd_resident_alike)
{
	static const char policy[] =
	    "NUM_SLOTS_TYPE_1 = 1\nSLOT_TYPE_1 = 100%\nSLOT_TYPE_1_PARTITIONABLE = True\n"
	    "PREEMPT = (time() - EnteredCurrentActivity) > 600 && TARGET.Owner == \"bob\"\n"
	    "MAXJOBRETIREMENTTIME = 120\nMachineMaxVacateTime = 30\n";
	static const char desc[] = "[ Name = \"n\"; Cpus = 8; Memory = 8192; Disk = 1000000 ]";
	static const int64_t at[] = { 50, 150, 400, 700, 1000, 1500, 2500 };
	struct world w[2];
	char ev[512];

	for (int r = 0; r < 2; r++) {
		CHECK(world_init(&w[r], policy, desc));
		ca_startd_set_resident(w[r].sd, r == 1);
		for (int j = 0; j < 3; j++) {
			snprintf(ev, sizeof ev, "[ Name = \"slot1@n\"; Event = \"Claim\"; Time = %lld; "
			    "Job = [ ClusterId = %d; ProcId = 0; Owner = \"%s\"; RequestCpus = 2; "
			    "RequestMemory = 1024; RequestDisk = 1000 ] ]", (long long)(T0 + 10 + j),
			    j + 1, j == 1 ? "alice" : "bob");
			event(&w[r], ev);
		}
		event(&w[r], "[ Name = \"slot1_1@n\"; Event = \"Activate\"; Time = 1700000020 ]");
		event(&w[r], "[ Name = \"slot1_2@n\"; Event = \"Activate\"; Time = 1700000130 ]");
		event(&w[r], "[ Name = \"slot1_3@n\"; Event = \"Activate\"; Time = 1700000300 ]");
		event(&w[r], "[ Name = \"slot1_2@n\"; Event = \"Vacate\"; Time = 1700000900; "
		    "JobId = \"2.0\" ]");
	}
	for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
		strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		for (int r = 0; r < 2; r++) {
			strbuf *sb = r ? &b : &a;
			run_to(&w[r], T0 + at[k]);
			for (size_t i = 0; i < ca_smachine_count(w[r].m); i++)
				if (ca_smachine_slot(w[r].m, i) != NULL)
					ca_print_ad(sb, ca_smachine_slot(w[r].m, i), 0);
			strbuf_adds(sb, w[r].text.buf);
		}
		CHECK(strcmp(a.buf, b.buf) == 0);
		strbuf_release(&a);
		strbuf_release(&b);
	}
	/* it did preempt bob's jobs, on the clock */
	CHECK(strstr(w[1].text.buf, "PREEMPT") != NULL);
	world_free(&w[0]);
	world_free(&w[1]);
}

/* Attribute a of the only slot of w is written as want. */
static bool
attr_is(struct world *w, const char *a, const char *want)
{
	char buf[64];

	return strcmp(attr(w, 0, a, buf, sizeof buf), want) == 0;
}

UNIT_SUITE(startd_benchmarks_and_latches)
{
	struct world w;

	/* RunBenchmarks not FALSE: one set as the startd starts */
	CHECK(world_init(&w, "NUM_SLOTS = 1\nRunBenchmarks = (time() - LastBenchmark) > 600\n"
	    "STARTD_LATCH_EXPRS = CpuBusy\n", DESK));
	CHECK(attr_is(&w, "LastBenchmark", "1700000000"));
	CHECK(attr_is(&w, "CpuBusyValue", "0"));
	CHECK(attr_is(&w, "CpuBusyTime", "1700000000"));
	/* benchmarks 601 s on; a result, then another averaged in */
	event(&w, "[ Name = \"slot1@desk\"; Event = \"BenchmarkDone\"; Time = 1700000603; "
	    "Mips = 4000; KFlops = 800 ]");
	run_to(&w, T0 + 700);
	CHECK(attr_is(&w, "Mips", "4000"));
	event(&w, "[ Name = \"slot1@desk\"; Event = \"BenchmarkDone\"; Time = 1700001210; "
	    "Mips = 8000; KFlops = 0 ]");
	run_to(&w, T0 + 1300);
	CHECK(attr_is(&w, "Mips", "5000"));
	CHECK(attr_is(&w, "KFlops", "600"));
	event(&w, "[ Name = \"desk\"; Event = \"MachineUpdate\"; Time = 1700001400; "
	    "LoadAvg = 3.0 ]");
	run_to(&w, T0 + 1500);
	CHECK(attr_is(&w, "CpuBusyValue", "1"));
	CHECK(attr_is(&w, "CpuBusyTime", "1700001400"));
	world_free(&w);
}
