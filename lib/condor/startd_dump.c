/* startd_dump.c - --init from a condor_status -long dump: the slot ads of one
 * machine made back into the description of the machine they came from. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classad.h"
#include "startd.h"
#include "startd_int.h"

/*
 * A starting startd lays out its slots from the machine and the
 * configuration alone: what the slots of the dump were doing (their state,
 * claims, jobs, dynamic slots) is not carried over. The machine is sized
 * from what the startd detected (DetectedCpus, DetectedMemory), else its
 * totals (TotalCpus, TotalMemory, TotalDisk), else the sum of its static and
 * partitionable slots; the ids of a custom resource are those the slots
 * hold (Assigned<name>). Everything else of the first slot that is not a
 * slot's own (its name, state, share, claim, job, times) describes the
 * machine.
 */

bool
ca_startd_is_slot_ad(const ca_ad *ad)
{
	static const char *const slotish[] = {
		"SlotID", "SlotType", "PartitionableSlot", "DynamicSlot", "State"
	};

	for (size_t i = 0; i < sizeof slotish / sizeof slotish[0]; i++)
		if (ca_ad_findn(ad, slotish[i], strlen(slotish[i])) != NULL)
			return true;
	return false;
}

/* Attributes of a slot's own: prefixes (a trailing *) and names. */
static const char *const slot_own[] = {
	"Name", "State", "Activity", "SlotID", "SlotTypeID", "SlotType", "PartitionableSlot",
	"DynamicSlot", "DSlotId", "Cpus", "Memory", "Disk", "Swap", "VirtualMemory",
	"TotalSlot*", "Child*", "Remote*", "Job*", "ClaimId", "PublicClaimId", "ClientMachine",
	"Entered*", "TotalTime*", "TotalJob*", "TotalClaim*", "Preempting*", "Preempted*",
	"CurrentRank", "CondorLoadAvg", "Assigned*", "Available*", "Draining*", "Retirement*",
	"MaxJobRetirementTime", "MyCurrentTime", "LastHeardFrom", "UpdateSequenceNumber",
	"Requirements", "Start", "WithinResourceLimits", "NumDynamicSlots", "TotalSlots",
	"LastUpdate", "MyAddress", "StartdIpAddr", "AuthenticatedIdentity", "DaemonStartTime",
	"NextJobStart*", "HeldJob", "HoldReason*", "Eviction", "Global*", "AccountingGroup",
	"ScheddGone*", "LeaseEnd", "ClaimStart*", "ConsumptionPolicy", "SlotWeight",
	"ExpectedMachine*", "MachineResources", "TotalCpus", "TotalMemory", "TotalDisk",
};

static bool
own(const char *name)
{
	for (size_t i = 0; i < sizeof slot_own / sizeof slot_own[0]; i++) {
		const char *p = slot_own[i];
		size_t l = strlen(p);
		if (p[l - 1] == '*' ? strncasecmp(name, p, l - 1) == 0 : strcasecmp(name, p) == 0)
			return true;
	}
	return false;
}

/* Slots of a machine compared with each other at most. */
#define DUMP_CHECKED 4096

static bool
get_num(ca_startd *sd, const ca_ad *ad, const char *name, int64_t *out)
{
	return ca_get_int(&sd->cx, ad, name, out) == 1;
}

static void
warnf(strbuf *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
warnf(strbuf *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(w, fmt, ap);
	va_end(ap);
	strbuf_addc(w, '\n');
}

static bool
is_kind(ca_startd *sd, const ca_ad *ad, const char *type, const char *flag)
{
	const char *t;
	size_t len;
	bool b = false;

	if (ca_get_str(&sd->cx, ad, "SlotType", &t, &len) == 1 && len == strlen(type) &&
	    strncasecmp(t, type, len) == 0)
		return true;
	return ca_get_bool(&sd->cx, ad, flag, &b) == 1 && b;
}

/* The amount of res (Cpus, Memory) a slot was given: TotalSlot<res>, else
 * <res>. */
static int64_t
slot_share(ca_startd *sd, const ca_ad *ad, const char *res)
{
	char buf[64];
	int64_t v = 0;

	snprintf(buf, sizeof buf, "TotalSlot%s", res);
	if (!get_num(sd, ad, buf, &v))
		get_num(sd, ad, res, &v);
	return v;
}

/* The size of the machine in res: Detected<res>, else Total<res>, else
 * the sum of the static and partitionable slots; warnings when the slots
 * do not add up to it or disagree about it. */
static int64_t
machine_size(ca_startd *sd, ca_ad *const *slots, size_t n, const bool *skip, const char *res,
    const char *host, strbuf *warn)
{
	char det[64], tot[64];
	int64_t size = -1, sum = 0, v;
	const char *from = NULL;

	snprintf(det, sizeof det, "Detected%s", res);
	snprintf(tot, sizeof tot, "Total%s", res);
	for (size_t i = 0; i < n; i++) {
		if (skip[i] || is_kind(sd, slots[i], "Dynamic", "DynamicSlot"))
			continue;
		sum += slot_share(sd, slots[i], res);
	}
	for (int pass = 0; pass < 2 && size < 0; pass++)
		for (size_t i = 0; i < n; i++)
			if (!skip[i] && get_num(sd, slots[i], pass ? tot : det, &v)) {
				if (size < 0) {
					size = v;
					from = pass ? tot : det;
				} else if (v != size) {
					warnf(warn, "machine %s: its slots disagree about %s (%lld and "
					    "%lld): %lld is taken", host, from, (long long)size,
					    (long long)v, (long long)size);
					break;
				}
			}
	if (size < 0)
		return sum;
	if (strcmp(res, "Disk") != 0 && sum != size)
		warnf(warn, "machine %s: its slots hold %lld %s, the machine has %lld (%s)", host,
		    (long long)sum, res, (long long)size, from);
	return size;
}

/* A partitionable slot and its dynamic slots: do their shares add up? */
static void
check_pslots(ca_startd *sd, ca_ad *const *slots, size_t n, const bool *skip, strbuf *warn)
{
	static const char *const res[] = { "Cpus", "Memory" };

	for (size_t i = 0; i < n && n <= DUMP_CHECKED; i++) {
		if (skip[i] || !is_kind(sd, slots[i], "Partitionable", "PartitionableSlot"))
			continue;
		const char *pn = lit_str(slots[i], ca_intern("Name", 4));
		int64_t id = 1;
		get_num(sd, slots[i], "SlotID", &id);
		if (pn == NULL)
			continue;
		for (size_t r = 0; r < sizeof res / sizeof res[0]; r++) {
			int64_t left = 0, total = slot_share(sd, slots[i], res[r]), used = 0, v;
			get_num(sd, slots[i], res[r], &left);
			for (size_t k = 0; k < n; k++) {
				int64_t kid = 0;
				if (skip[k] || !is_kind(sd, slots[k], "Dynamic", "DynamicSlot") ||
				    !get_num(sd, slots[k], "SlotID", &kid) || kid != id)
					continue;
				if (get_num(sd, slots[k], res[r], &v))
					used += v;
			}
			if (left + used != total)
				warnf(warn, "%s: %lld %s left and %lld in its dynamic slots, but "
				    "TotalSlot%s = %lld", pn, (long long)left, res[r], (long long)used,
				    res[r], (long long)total);
		}
	}
}

/* Ids of custom resource k the slots hold, into desc as Detected<name>. */
static void
custom_ids(ca_startd *sd, ca_ad *const *slots, size_t n, const bool *skip, int k, ca_ad *desc)
{
	const struct mres *r = &sd->mres.at[k];
	ca_sd_names ids = CA_VEC_INIT, all = CA_VEC_INIT;
	strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		const char *list = skip[i] ? NULL : lit_str(slots[i], r->n[MR_ASSIGNED]);
		if (list != NULL)
			ca_sd_ids_split(&ids, list);
	}
	for (size_t i = 0; i < ids.n && all.n < CA_SD_MAXIDS; i++) {
		bool dup = false;
		for (size_t j = 0; j < all.n; j++)
			dup |= strcmp(all.at[j], ids.at[i]) == 0;
		if (!dup)
			*ca_vec_push(&all) = ca_xstrndup(ids.at[i], strlen(ids.at[i]));
	}
	ca_sd_ids_sort(&all);
	if (all.n > 0) {
		for (size_t i = 0; i < all.n; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", all.at[i]);
		ca_set_str(desc, r->spell[MR_DETECTED], sb.buf);
	}
	strbuf_release(&sb);
	ca_sd_names_free(&ids);
	ca_sd_names_free(&all);
}

ca_ad *
ca_startd_dump_machine(ca_startd *sd, ca_ad *const *slots, size_t n, strbuf *warn)
{
	const char *host = ca_startd_machine_key(slots[0]);
	bool *skip = ca_xcalloc(n + 1, sizeof *skip);
	size_t base = 0;

	/* two slots with one name: the first one counts (a machine has far
	 * fewer slots than this; past it they are not compared) */
	if (n > DUMP_CHECKED)
		warnf(warn, "machine %s: %zu slots; only the first %d are checked for names "
		    "given twice", host, n, DUMP_CHECKED);
	for (size_t i = 0; i < n && i < DUMP_CHECKED; i++) {
		const char *a = lit_str(slots[i], ca_intern("Name", 4));
		for (size_t j = 0; j < i && a != NULL && !skip[i]; j++) {
			const char *b = skip[j] ? NULL : lit_str(slots[j], ca_intern("Name", 4));
			if (b != NULL && strcasecmp(a, b) == 0) {
				warnf(warn, "machine %s: two slots are named %s (the second is left out)",
				    host, a);
				skip[i] = true;
			}
		}
	}
	/* the machine's attributes: from its first static or partitionable slot */
	for (size_t i = 0; i < n; i++)
		if (!skip[i] && !is_kind(sd, slots[i], "Dynamic", "DynamicSlot")) {
			base = i;
			break;
		}
	ca_ad *desc = ca_ad_new();
	const ca_ad *b = slots[base];
	for (uint32_t i = 0; i < b->n; i++) {
		bool skipped = own(ca_attr_spell(&b->attrs[i]));
		for (size_t k = 0; k < sd->mres.n && !skipped; k++)
			skipped = ca_attr_name(&b->attrs[i]) == sd->mres.at[k].n[MR_AMT];
		if (!skipped)
			ca_ad_set_copy(desc, ca_attr_spell(&b->attrs[i]),
			    strlen(ca_attr_spell(&b->attrs[i])), ca_attr_expr(b, &b->attrs[i]));
	}
	ca_set_str(desc, "Machine", host);
	static const char *const res[] = { "Cpus", "Memory", "Disk" };
	for (size_t r = 0; r < 3; r++) {
		int64_t v = machine_size(sd, slots, n, skip, res[r], host, warn);
		ca_set_value(desc, res[r], ca_int(v));
	}
	check_pslots(sd, slots, n, skip, warn);
	for (size_t k = 0; k < sd->mres.n; k++)
		if (sd->mres.at[k].configured)
			custom_ids(sd, slots, n, skip, (int)k, desc);
	ca_arena_reset(&sd->cx.scratch);
	free(skip);
	return desc;
}
