/* pool_int.h - the pool's insides, shared by its files (pool.c, the cycle;
 * pool_intake.c, what users hand in; pool_state.c, the state directory).
 * Include pool.h before it. */
#ifndef CA_POOL_INT_H
#define CA_POOL_INT_H

#include "accountant.h"
#include "classad.h"
#include "config.h"
#include "schedd.h"
#include "startd.h"

/* A machine class: its policy, its startd and its machines. */
struct pclass {
	char *name;
	ca_config *cfg;
	ca_startd *sd;
	ca_vec(ca_smachine *) machines;
	const char *lastkey;	/* the machine of the last slot read */
};

/* A name a machine answers to (lower or upper case alike). */
struct host {
	const char *name;
	uint32_t cls, mach;
};

/* A line of the AssignAccountingGroup map: user (or /regex/) -> groups. */
struct groupmap {
	const char *user;	/* NULL: the pattern matches */
	ca_expr *match;		/* regexp(pattern, U), when the user is a /regex/ */
	const char *groups;	/* "g1,g2": the first is the default */
};

struct ca_pool {
	ca_ctx cx;
	ca_config *cfg;		/* pool.config as the negotiator reads it */
	ca_config *scfg;	/* and as the schedd does */
	ca_acct acct;
	ca_vec(struct pclass) classes;
	ca_vec(ca_ad *) jobs;	/* the queue */
	ca_vec(ca_job_memo) memo;	/* each job's last step (ca_schedd_step_memo) */
	struct slot_memo {		/* the slots' last exit checks and job ids,
					 * by the slot's address (another slot there
					 * has another stamp); a power of two of
					 * them, four a live slot at least, or none */
		const ca_ad *slot;
		ca_slot_memo m;
		ca_slot_ids ids;
	} *slot_memo;
	size_t slot_memo_cap;
	const ca_name *n_status, *n_crondue, *n_matched;	/* read of every job */
	/* every live slot, class by class, as the cycle's passes walk them:
	 * listed again once the slots changed (live_ok false) */
	ca_vec(struct live { const ca_ad *ad; size_t cls; }) live;
	bool live_ok;
	int64_t clock, cluster;
	ca_vec(struct host) hosts;
	ca_dict hostidx;
	ca_arena text;
	strbuf tmp, warnings;
	ca_pool_limits lim;
	ca_pool_warn_fn warn;
	void *warn_arg;
	uint32_t unsim_seen;	/* job attributes not simulated, told once */
	ca_pool_tap_fn tap;
	void *tap_arg;
	/* the intake's knobs */
	const char *uid_domain;
	ca_vec(const char *) supers;	/* QUEUE_SUPER_USERS */
	ca_vec(const ca_name *) owned;	/* attributes the schedd owns */
	ca_vec(struct groupmap) gmap;	/* AssignAccountingGroup's map */
	bool gmap_on, gmap_check;
	ca_ad *gmap_ad;			/* P and U for the regexps */
	/* the cycle in progress */
	const ca_pool_sinks *out;
	ca_writer *w_jobs, *w_hist, *w_match, *w_exit;
	bool out_failed;
	ca_pool_file *sub;	/* the submission being queued */
	bool sub_failed;
};

void ca_pool_warn(ca_pool *p, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* After the slots are read: the names each machine answers to. */
void ca_pool_index(ca_pool *p);
int ca_pool_intake_config(ca_pool *p, ca_diag *err);
void ca_pool_intake_free(ca_pool *p);

#endif
