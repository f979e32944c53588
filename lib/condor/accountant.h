/* accountant.h - HTCondor's accountant: real user priorities with half-life
 * decay, priority factors and usage, one accountant ad per submitter. */
#ifndef CA_ACCOUNTANT_H
#define CA_ACCOUNTANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "config.h"

/*
 * The state is a stream of accountant ads with HTCondor's attribute names:
 *   Name                      "user@domain", "group_physics@domain", or a
 *                             GROUP_NAMES group ("group_physics")
 *   Priority                  the REAL priority (as in HTCondor's accountant
 *                             log; condor_userprio -long shows the effective)
 *   PriorityFactor            >= 1; effective priority = Priority x factor
 *   ResourcesUsed, WeightedResourcesUsed    usage seen at the last update
 *   HierWeightedResourcesUsed, IsAccountingGroup   GROUP_NAMES groups only
 *   AccumulatedUsage, WeightedAccumulatedUsage     seconds (x slot weight)
 *   BeginUsageTime, LastUsageTime                  epoch seconds, 0: never
 *   LastUpdate                the time the record was last advanced to
 * Other attributes of a record are kept as they are.
 *
 * An update from T0 = LastUpdate to T charges the usage recorded at T0 for
 * the whole interval (as HTCondor's accountant does), with
 *   beta = 0.5^((T - T0) / PRIORITY_HALFLIFE)
 *   Priority' = max(0.5, beta x Priority + (1 - beta) x usage)
 * which is exact for any interval: n updates of dt equal one of n x dt. Then
 * the usage seen now (ca_acct_charge_slot) becomes the recorded usage.
 */

#define CA_ACCT_MIN_PRIO	0.5	/* every user starts here; the floor */
#define CA_ACCT_MIN_FACTOR	1.0

typedef struct ca_acct_rec {
	const char *name;	/* in the accountant's arena */
	double prio;		/* Priority: the real priority */
	double factor;		/* PriorityFactor */
	int64_t ceiling;	/* Ceiling: the most it may use, -1 (the default): no limit */
	int64_t floor;		/* Floor: what it gets first, 0 (the default): none */
	bool has_ceiling, has_floor;	/* set (written only then) */
	/* leases (condor_userprio -duration): the value set holds until the
	 * expiration (epoch seconds, 0: no lease), then the one before it
	 * comes back */
	int64_t ceiling_lease, floor_lease, factor_lease;
	int64_t ceiling_before, floor_before;
	double factor_before;
	int64_t res;		/* ResourcesUsed */
	double wres;		/* WeightedResourcesUsed */
	double hier;		/* HierWeightedResourcesUsed */
	double accum;		/* AccumulatedUsage */
	double waccum;		/* WeightedAccumulatedUsage */
	int64_t begin;		/* BeginUsageTime */
	int64_t last;		/* LastUsageTime */
	int64_t updated;	/* LastUpdate */
	bool group;		/* IsAccountingGroup (a GROUP_NAMES group) */
	bool deleted;
	ca_ad *ad;		/* the record as read, or NULL for a new one */
	/* usage seen in the slots of the update in progress */
	int64_t new_res;
	double new_wres, new_hier;
} ca_acct_rec;

/* The knobs, with HTCondor's defaults (ca_acct_policy_init). */
typedef struct ca_acct_policy {
	double halflife;		/* PRIORITY_HALFLIFE: 86400 s */
	double default_factor;		/* DEFAULT_PRIO_FACTOR: 1.0 */
	double nice_factor;		/* NICE_USER_PRIO_FACTOR: 1e7 */
	double remote_factor;		/* REMOTE_PRIO_FACTOR: 1e7 */
	const char *local_domain;	/* ACCOUNTANT_LOCAL_DOMAIN, else UID_DOMAIN;
					 * NULL: every user is local */
	const char *uid_domain;		/* UID_DOMAIN: for AccountingGroup without '@' */
	const char *nice_prefix;	/* NICE_USER_ACCOUNTING_GROUP_NAME: "nice-user" */
	const char **groups;		/* GROUP_NAMES */
	size_t ngroups;
	const char **gf_names;		/* GROUP_PRIO_FACTOR_<name> ... */
	double *gf_values;		/* ... and its value */
	size_t ngf;
	ca_expr *slot_weight;		/* SLOT_WEIGHT; NULL: SlotWeight, else Cpus */
	bool use_slot_weights;		/* NEGOTIATOR_USE_SLOT_WEIGHTS: true */
	bool discount_suspended;	/* NEGOTIATOR_DISCOUNT_SUSPENDED_RESOURCES: false */
	double limit_default;		/* CONCURRENCY_LIMIT_DEFAULT: 2308032 */
	struct ca_limit_knob *limits;	/* <NAME>_LIMIT, CONCURRENCY_LIMIT_DEFAULT_<SCOPE> */
	size_t nlimits;
} ca_acct_policy;

/* A concurrency limit knob: the limit of name, or with scope the default
 * of the names "name.*". */
struct ca_limit_knob {
	const char *name;	/* lower-cased */
	double value;
	bool scope;
};

/* ---- concurrency limits ----
 *
 * A job's ConcurrencyLimits names the pool-wide resources it holds while it
 * runs, as HTCondor has it: "xsw, large.db:2" is names separated by commas
 * or blanks, each with an optional ":N" (the units it holds; 1 when absent,
 * not a number or not above 0). Names compare without regard to case (they
 * are lower-cased); a name is a letter or '_' followed by letters, digits
 * and '_', or two such parts joined by one '.' (SCOPE.NAME); other names
 * are ignored. A limit allows at most <NAME>_LIMIT units at once, else (for
 * SCOPE.NAME) CONCURRENCY_LIMIT_DEFAULT_<SCOPE>, else
 * CONCURRENCY_LIMIT_DEFAULT. The units in use are counted afresh each cycle
 * from the slots (ca_acct_slot_limits), and a job is refused a match when
 * one of its limits would exceed its maximum.
 */

/* One limit's use (in a ca_climits table). */
typedef struct ca_climit {
	const char *name;	/* lower-cased, in the table's arena */
	size_t len;
	double count;		/* the units in use */
	double max;		/* the most it allows */
} ca_climit;

/* Limits by name; zeroed is empty. */
typedef struct ca_climits {
	ca_vec(ca_climit) v;	/* in order of first use */
	ca_dict index;
	ca_arena arena;
} ca_climits;

/* The next name of the list at *p (up to end): false at the end of the list;
 * else name (lower-cased, reset first), *inc and *valid (false for a name
 * to ignore) are set and *p moves past it. */
bool ca_climit_next(const char **p, const char *end, strbuf *name, double *inc, bool *valid);
/* The most limit name allows under policy p. */
double ca_acct_limit_max(const ca_acct_policy *p, const char *name, size_t len);
/* The entry of limit name (lower-case) in t, created with count 0 and its
 * maximum under p when missing. */
ca_climit *ca_climits_get(ca_climits *t, const ca_acct_policy *p, const char *name,
    size_t len);
/* Add sign x the units of every valid name of list to t. */
void ca_climits_add(ca_climits *t, const ca_acct_policy *p, const char *list, size_t len,
    double sign);
/* The first limit of list that its units would take over its maximum (with
 * *inc the units asked), or NULL when every one fits. */
ca_climit *ca_climits_refuse(ca_climits *t, const ca_acct_policy *p, const char *list,
    size_t len, double *inc);
void ca_climits_clear(ca_climits *t);	/* every count back to 0 */
void ca_climits_free(ca_climits *t);

typedef struct ca_acct {
	ca_acct_policy pol;
	ca_vec(ca_acct_rec *) recs;	/* in state order, new records at the end */
	ca_dict index;		/* the records by name */
	ca_arena arena;		/* records, names, policy strings */
	int64_t last_update;	/* the latest LastUpdate, 0 for a new state */
	const ca_name *attr[32];	/* the record attributes, interned once */
	strbuf tmp;		/* customer names being built */
	/* the concurrency limits in use in the slots charged up to the last
	 * update, and in those charged since */
	ca_climits limits, new_limits;
} ca_acct;

void ca_acct_policy_init(ca_acct_policy *p);
/* Read the knobs above from cfg into p (strings and expressions in arena a).
 * Returns 0, or -1 with err at the offending definition. */
int ca_acct_policy_config(ca_acct_policy *p, ca_config *cfg, ca_arena *a, ca_diag *err);

/* An empty accountant with the default policy; free with ca_acct_free. */
void ca_acct_init(ca_acct *a);
void ca_acct_free(ca_acct *a);

ca_acct_rec *ca_acct_find(const ca_acct *a, const char *name, size_t len);
/* The record of name, created when missing: real priority 0.5, the factor
 * its name calls for (ca_acct_new_factor), LastUpdate the state's, or now. */
ca_acct_rec *ca_acct_get(ca_acct *a, const char *name, size_t len, int64_t now);
/* The factor a new record of this name gets: NICE_USER_PRIO_FACTOR for
 * "nice-user.*", GROUP_PRIO_FACTOR_<group> for a group and its members,
 * REMOTE_PRIO_FACTOR outside the local domain, else DEFAULT_PRIO_FACTOR. */
double ca_acct_new_factor(const ca_acct *a, const char *name, size_t len);
/* The GROUP_NAMES group a name belongs to (the longest that is the user
 * part or a prefix of it ending at '.'), or NULL. */
const char *ca_acct_group_of(const ca_acct *a, const char *name, size_t len);
static inline double
ca_acct_eup(const ca_acct_rec *r)
{
	return r->prio * r->factor;
}

/* Add a record read from a state: ad becomes the accountant's. Returns 0, or
 * -1 with err set (a bad or duplicate record, exit status 3; the ad is
 * freed; err's place is left for the caller, who knows the file). now is
 * used for a record without LastUpdate.
 * The layouts of condor_userprio -long are records too, their Priority the
 * effective priority (real priority x factor): a record with
 * AccountingGroup or SubmittorId (the per-record ads, -modular), and the
 * single ad of numbered attributes (Name1, Priority1, ..., NumSubmittors,
 * LastUpdate), which makes a record of each number. What such a record
 * shows but the accountant does not keep (AccountingGroup, SubmittorId,
 * the group quota figures, SubmitterShare, ...) is left out. */
int ca_acct_add_ad(ca_acct *a, ca_ad *ad, ca_ctx *cx, int64_t now, ca_diag *err);

/* The accountant's name of a customer, into out: group (an
 * AccountingGroup; glen 0 for none) with the user's "@domain" when it has
 * no domain of its own (else "@UID_DOMAIN"), or without a group the user.
 * False when there is neither. */
bool ca_acct_customer(const ca_acct *a, const char *group, size_t glen, const char *user,
    size_t ulen, strbuf *out);
/* The weight of a slot as it is now: SLOT_WEIGHT, else SlotWeight, else
 * Cpus (1 without slot weights, or when it is no number >= 0). */
double ca_acct_slot_weight(const ca_acct *a, ca_ctx *cx, const ca_ad *slot);

/* Charge one slot ad: a Claimed or Preempting slot charges its
 * AccountingGroup (or RemoteUser) SlotWeight for the update in progress,
 * and counts its concurrency limits (a Matched slot only these).
 * Returns 1 when charged, 0 when the slot is not in use. Resets cx->scratch. */
int ca_acct_charge_slot(ca_acct *a, ca_ctx *cx, const ca_ad *slot, int64_t now);
/* Add the concurrency limits held on slot to t: its ConcurrencyLimits and
 * PreemptingConcurrencyLimits (what the startd publishes for the claim),
 * else those of the job that travels with it (Job, PreemptingJob: their
 * MatchedConcurrencyLimits, else their ConcurrencyLimits evaluated against
 * the slot), the running job's only while the slot is Claimed, Preempting
 * or Matched. Resets cx->scratch. */
void ca_acct_slot_limits(const ca_acct *a, ca_ctx *cx, const ca_ad *slot, ca_climits *t);

/* Advance one record from its LastUpdate to now (now >= LastUpdate) with
 * its recorded usage: priority decay and accumulated usage. */
void ca_acct_advance(ca_acct_rec *r, int64_t now, double halflife);
/* Advance every record to now, then record the usage charged since the last
 * call as the usage from now on (and the concurrency limits counted since
 * as those in use). Leases that expired by now end first. Returns 0, or -1
 * (nothing changed) with err set (exit status 3, no place) when now is
 * before a record's LastUpdate or the usage is too large to record. */
int ca_acct_update(ca_acct *a, int64_t now, ca_diag *err);
/* End the leases that expired by now: their values before come back, as
 * HTCondor's negotiator does at the start of a cycle. */
void ca_acct_expire_leases(ca_acct *a, int64_t now);

/* condor_userprio's edits. Values are checked by the caller (the messages
 * are the program's); these only apply them. With until > 0 a ceiling,
 * floor or factor is a lease until then (false, and nothing changes, when
 * one of that kind is in effect already); cancelling a lease that is not
 * in effect returns false. */
void ca_acct_set_factor(ca_acct_rec *r, double f);
void ca_acct_reset_usage(ca_acct_rec *r, int64_t now);
bool ca_acct_set_ceiling(ca_acct_rec *r, int64_t ceiling, int64_t until, int64_t now);
bool ca_acct_set_floor(ca_acct_rec *r, int64_t floor, int64_t until, int64_t now);
bool ca_acct_lease_factor(ca_acct_rec *r, double f, int64_t until, int64_t now);
enum ca_acct_lease { CA_LEASE_CEILING, CA_LEASE_FLOOR, CA_LEASE_FACTOR };
bool ca_acct_cancel_lease(ca_acct_rec *r, int kind);

/* The record as an ad (Name, Priority, ... in HTCondor's names), updated in
 * place in r->ad, which is created when missing. Owned by the record. */
ca_ad *ca_acct_rec_ad(const ca_acct *a, ca_acct_rec *r);

/* Fair shares of a pool of `pool` slots by the inverse ratio of effective
 * priorities (a real priority below 0.5 counts as 0.5): out[i] = pool x
 * (1/EUP_i) / sum(1/EUP_j). */
void ca_acct_shares(ca_acct_rec *const *recs, size_t n, double pool, double *out);

/* ---- the state file ---- */

/* Read the accountant ads of path into a. Returns 1, 0 when the file does
 * not exist (a stays empty), or -1 with err (a may hold the records read
 * before the error: free it). *fmt and *gz (may be NULL) say how the file
 * was written. */
int ca_acct_read(ca_acct *a, const char *path, ca_ctx *cx, int64_t now, ca_format *fmt,
    bool *gz, ca_diag *err);
/* Write the records (deleted ones left out) to path atomically: a temporary
 * file in the same directory, fsync, rename, fsync of the directory. A new
 * file gets mode 0666 less the umask; an existing one keeps its mode.
 * Returns 0, or -1 with err (the old file is untouched). */
int ca_acct_write(ca_acct *a, const char *path, ca_format fmt, bool gz, ca_diag *err);
/* The lock that serializes read-modify-write runs: ca_statefile_lock
 * (statefile.h). */

#endif
