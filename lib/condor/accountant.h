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
} ca_acct_policy;

typedef struct ca_acct {
	ca_acct_policy pol;
	ca_vec(ca_acct_rec *) recs;	/* in state order, new records at the end */
	ca_dict index;		/* the records by name */
	ca_arena arena;		/* records, names, policy strings */
	int64_t last_update;	/* the latest LastUpdate, 0 for a new state */
	const ca_name *attr[16];	/* the record attributes, interned once */
	strbuf tmp;		/* customer names being built */
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
 * used for a record without LastUpdate. */
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
 * AccountingGroup (or RemoteUser) SlotWeight for the update in progress.
 * Returns 1 when charged, 0 when the slot is not in use. Resets cx->scratch. */
int ca_acct_charge_slot(ca_acct *a, ca_ctx *cx, const ca_ad *slot, int64_t now);

/* Advance one record from its LastUpdate to now (now >= LastUpdate) with
 * its recorded usage: priority decay and accumulated usage. */
void ca_acct_advance(ca_acct_rec *r, int64_t now, double halflife);
/* Advance every record to now, then record the usage charged since the last
 * call as the usage from now on. Returns 0, or -1 (nothing changed) with
 * err set (exit status 3, no place) when now is before a record's
 * LastUpdate or the usage is too large to record. */
int ca_acct_update(ca_acct *a, int64_t now, ca_diag *err);

/* condor_userprio's edits. Values are checked by the caller (the messages
 * are the program's); these only apply them. */
void ca_acct_set_factor(ca_acct_rec *r, double f);
void ca_acct_reset_usage(ca_acct_rec *r, int64_t now);

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
