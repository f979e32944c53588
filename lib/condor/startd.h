/* startd.h - the condor_startd's slot state machine as a policy simulator:
 * states, activities, the numbered transitions, policy, timers, p-slots. */
#ifndef CA_STARTD_H
#define CA_STARTD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "config.h"

/*
 * A slot is a slot ad; everything the simulation knows about it is in the ad,
 * so a stream of slot ads is the whole state and a later run goes on from it:
 *   State, Activity, EnteredCurrentState, EnteredCurrentActivity, MyCurrentTime
 *                       the state machine and the slot's clock
 *   Job = [ ... ]       the job ad of the claim (the matched or claiming
 *                       request, then the running job): TARGET of the policy
 *   PreemptingJob = [ ... ] and Preempting*   a better match waiting for the slot
 *   JobStart            set while a job (a starter) is on the slot
 *   Eviction            why the claim is being given up, once that is decided
 *   Draining, DrainHow, DrainResumeOnCompletion, ShutdownMode, BackfillDestination
 *                       commands in progress
 * plus what a startd publishes (Requirements, Start, Rank, CurrentRank, the
 * policy expressions under their configuration names, TotalTime<State><Activity>,
 * the claim's clocks, ...). Attributes it does not know pass through.
 *
 * Transitions are numbered as in HTCondor's manual (condor_startd Policy
 * Configuration, transitions 1-37); where its prose and its diagram disagree
 * the prose wins: leaving Preempting/Vacating is 22 (to Owner) or 23 (to
 * Claimed/Idle), leaving Preempting/Killing is 24 (to Claimed/Idle) or 25 (to
 * Owner). Claimed/Busy, Retiring or Suspended sent straight to Preempting by a
 * command (a fast vacate, a release, a fast shutdown or drain, a claim lease
 * that ran out) is logged as 10, which the manual numbers only from
 * Claimed/Idle.
 *
 * Advancing a machine stops at every event, every timer, every run of a
 * startd cron hook and every second at which the clocks of a slot (the
 * time, KeyboardIdle, ClockMin, ...) change what its policy decides, so the
 * transitions do not depend on how far each step goes.
 */

enum ca_sstate {
	CA_S_OWNER, CA_S_UNCLAIMED, CA_S_MATCHED, CA_S_CLAIMED, CA_S_PREEMPTING,
	CA_S_BACKFILL, CA_S_DRAINED, CA_S_NSTATES
};
enum ca_sact {
	CA_A_IDLE, CA_A_BUSY, CA_A_SUSPENDED, CA_A_RETIRING, CA_A_VACATING,
	CA_A_KILLING, CA_A_BENCHMARKING, CA_A_NACTS
};
extern const char *const ca_sstate_name[CA_S_NSTATES];
extern const char *const ca_sact_name[CA_A_NACTS];

/* ORDER EVENTS: ca_sevent_name[] follows this order. */
enum ca_sevkind {
	CA_EV_MATCH, CA_EV_CLAIM, CA_EV_ACTIVATE, CA_EV_JOBEXIT, CA_EV_VACATE,
	CA_EV_RELEASE, CA_EV_DRAIN, CA_EV_CANCELDRAIN, CA_EV_SHUTDOWN,
	CA_EV_STARTEREXIT, CA_EV_BENCHMARKDONE, CA_EV_MACHINEUPDATE, CA_EV_RECONFIG,
	CA_EV_SCHEDDGONE, CA_EV_KEEPALIVE, CA_EV_N
};
extern const char *const ca_sevent_name[CA_EV_N];

/* An event: an ad with Name, Event and optionally Time. The caller keeps the
 * ad; the library only reads it. */
typedef struct ca_sevent {
	const ca_ad *ad;
	int kind;		/* a ca_sevkind */
	int64_t time;
	const char *name;	/* Name: a slot's, or a machine's */
	const char *file;	/* where it was read, for messages */
	int line;
	uint32_t seq;		/* input order: events of one time apply in it */
	bool used;		/* it found the slot (or machine) it names */
	bool taken;		/* handed to a machine already */
} ca_sevent;

/* Check ad as an event and fill ev (time: Time, else deftime). Returns 0, or
 * -1 with err set ("unknown event \"Foo\""...; no file or line: the caller
 * knows where the ad was read). */
int ca_sevent_init(ca_sevent *ev, const ca_ad *ad, int64_t deftime, ca_diag *err);
/* The machine an event is for: the part of Name after '@', else Name
 * (points into ev's ad). */
const char *ca_sevent_machine(const ca_sevent *ev);
/* Sort events by time, keeping input order among equal times. */
void ca_sevent_sort(ca_sevent **evs, size_t n);

/* The events of a run, filed by the machine each is for. */
typedef struct ca_sevents ca_sevents;
ca_sevents *ca_sevents_new(void);
/* Frees the events and their ads. */
void ca_sevents_free(ca_sevents *q);
/* Check ad as an event (ca_sevent_init) read at file:line, and keep it:
 * 0, and q owns ad; or -1 with err set (at file:line:1), ad still the
 * caller's. Add every event before the first ca_sevents_take. */
int ca_sevents_add(ca_sevents *q, ca_ad *ad, int64_t deftime, const char *file, int line,
    ca_diag *err);
/* Every event in input order: i in [0, count). */
size_t ca_sevents_count(const ca_sevents *q);
const ca_sevent *ca_sevents_at(const ca_sevents *q, size_t i);
/* Event i was taken by a machine (and used) in another process stepping
 * other machines of the run: so it is here. */
void ca_sevents_mark(ca_sevents *q, size_t i, bool taken, bool used);

/* A log record: a transition (num is its number), or a note (num 0: a slot
 * created or deleted, an event ignored, a claim refused). */
typedef struct ca_slog {
	int64_t time;
	const char *slot;
	int from_state, from_act, to_state, to_act;
	int num;
	const char *cause;
} ca_slog;
typedef void (*ca_slog_fn)(void *arg, const ca_slog *rec);
/* A record as the transition log writes it, one line:
 * "TIME SLOT FROM -> TO [NUM] CAUSE" or "TIME SLOT STATE: NOTE". */
void ca_slog_format(const ca_slog *rec, strbuf *out);
/* A time as the log and the timeline write it: local "YYYY-MM-DD HH:MM:SS". */
void ca_startd_time(strbuf *out, int64_t t);
/* A problem in the configuration found while running (a STARTD_ATTRS value
 * that does not parse, an impossible slot layout...): err says where. With
 * status 0 it is a warning: a startd cron hook or benchmark that failed or
 * printed something that is not an ad (err: the program and the line). */
typedef void (*ca_sdiag_fn)(void *arg, const ca_diag *err);

typedef struct ca_startd ca_startd;
typedef struct ca_smachine ca_smachine;

/* Before the user's files are loaded into cfg: define what HTCondor's table
 * of defaults leaves out (the policy macros of the manual that no default
 * defines: CPUIdle, KeyboardBusy, ActivationTimer, ...; startd-step's own
 * knobs). START = True, IS_OWNER = False, MATCH_TIMEOUT = 120 and the others
 * come from that table, `use POLICY : Desktop` and the other templates from
 * HTCondor's (config_templates.c). */
void ca_startd_config_prepare(ca_config *cfg);

/* The simulator for the policy in cfg (which must outlive it). The policy is
 * compiled once to check it. NULL with err set when an expression or knob is
 * malformed. */
ca_startd *ca_startd_new(ca_config *cfg, ca_diag *err);
void ca_startd_free(ca_startd *sd);
void ca_startd_set_log(ca_startd *sd, ca_slog_fn fn, void *arg);
void ca_startd_set_diag(ca_startd *sd, ca_sdiag_fn fn, void *arg);
/* Play the schedd too: every match is claimed at once, a claim whose job
 * has not run is activated at once, and an idle claim whose job has exited
 * is released. */
void ca_startd_set_auto_claim(ca_startd *sd, bool on);
/* The machines stay in memory from one advance to the next (a pool in one
 * process): an advance ends knowing when each slot's policy may decide
 * otherwise, which the next would otherwise find again. */
void ca_startd_set_resident(ca_startd *sd, bool on);
/* Whether stepping a machine may run a program (a startd cron hook or a
 * benchmark job): such a run is not split between processes. */
bool ca_startd_runs_programs(const ca_startd *sd);
/* The knobs whose problem was reported (each once a run), in order; and
 * one reported by another process stepping other machines of the run. */
size_t ca_startd_reported_count(const ca_startd *sd);
const char *ca_startd_reported_at(const ca_startd *sd, size_t i);
void ca_startd_mark_reported(ca_startd *sd, const char *knob);

/* The machine a slot ad belongs to: Machine, else the part of Name after
 * '@', else Name ("" when there is none). Points into ad. */
const char *ca_startd_machine_key(const ca_ad *ad);

/* A machine: the slots of one host, which are simulated together (dynamic
 * slots give their resources back to their partitionable slot; a policy may
 * look at the other slots through STARTD_SLOT_ATTRS). */
ca_smachine *ca_smachine_new(ca_startd *sd);
void ca_smachine_free(ca_smachine *m);
/* Hand a slot ad read from a stream to m (m frees it). The ad's clock is
 * MyCurrentTime (else now). Returns 0; or -1 with err set (no file or line)
 * when the ad is not a slot the machine can run (an unknown State or an
 * illegal State/Activity pair): it is then kept unchanged and written back
 * as is. */
int ca_smachine_add(ca_smachine *m, ca_ad *ad, int64_t now, ca_diag *err);
/* --init: the slots of the machine described by desc (Name or Machine, Cpus,
 * Memory, Disk and any other attributes) per NUM_CPUS, MEMORY, NUM_SLOTS,
 * NUM_SLOTS_TYPE_<N>, SLOT_TYPE_<N>, SLOT_TYPE_<N>_PARTITIONABLE, each in
 * Owner/Idle at now. Returns 0, or -1 with err set: at the knob for a
 * configuration problem, without a file for a problem of desc itself. */
int ca_smachine_create(ca_smachine *m, const ca_ad *desc, int64_t now, ca_diag *err);
/* --init from a condor_status -long dump: is ad a slot ad (SlotID, SlotType,
 * State ...) rather than a machine description? */
bool ca_startd_is_slot_ad(const ca_ad *ad);
/* The description of the machine whose slot ads (one Machine) are
 * slots[0..n): its attributes without the slots' own, Cpus, Memory and Disk
 * from DetectedCpus/TotalCpus ... (else the sum of the slots), the ids of
 * its custom resources from what the slots hold. Inconsistencies (two
 * slots of one name, shares that do not add up) are appended to warn, one
 * a line. Free with ca_ad_free. */
ca_ad *ca_startd_dump_machine(ca_startd *sd, ca_ad *const *slots, size_t n, strbuf *warn);
/* Free the dynamic slots m deleted (kept until then, as NULL slots): a
 * long simulation calls it between steps, so a machine that ran many jobs
 * does not walk every slot it ever had. Slot numbers change. The slots
 * that deletions left without a shape get one again (ca_ad_reshape). */
void ca_smachine_compact(ca_smachine *m);
/* Slots in stream order, created dynamic slots after them; NULL for a slot
 * that has been deleted (a dynamic slot back in Owner). */
size_t ca_smachine_count(const ca_smachine *m);
const ca_ad *ca_smachine_slot(const ca_smachine *m, size_t i);
/* The events of q for machine m (the names it answers to: its Machine and
 * the host part of every slot's Name) not handed out yet, in time order
 * (input order among equal times): a malloc'ed array, *n set. */
ca_sevent **ca_sevents_take(ca_sevents *q, const ca_smachine *m, size_t *n);

/* Advance m to time t: the events evs[*next...] whose time is <= t, in order
 * (each at its time; *next moves past them), and the timers and policy in
 * between, until every slot is stable. An event that names no slot of m
 * keeps used == false. */
void ca_startd_advance(ca_startd *sd, ca_smachine *m, ca_sevent **evs, size_t nev,
    size_t *next, int64_t t);

/* One line of timeline for slot i: state, job, the machine's idle times and
 * load, and the value of every policy expression the slot evaluates in its
 * state (no newline). */
void ca_startd_status(ca_startd *sd, ca_smachine *m, size_t i, strbuf *out);
/* --why: the current state of the slot named name, which expressions it
 * evaluates there and what each gives (with ca_explain's tree), and its
 * timers. Returns 0, or -1 when m has no such slot. */
int ca_startd_why(ca_startd *sd, ca_smachine *m, const char *name, strbuf *out);

#endif
