/* neg_candidates.c - a job's candidate slots: the preemption rules, the sort
 * keys, partitionable slots and consumption policies, and taking the best.
 *
 * A key's candidates are built when its first job is negotiated in a
 * submitter's turn (build) and kept in a heap for the key's later jobs; find
 * pops them, best first, skipping what was taken since, and takes the first
 * one the turn's slice allows. consider() is the one place where the rules
 * decide what a slot is for a job: build uses it on the slots the matcher
 * found, the survey of the followed job on every slot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "neg_int.h"

const char *const ca_neg_eph_r_names[EPH_R_N] = {
	"RemoteUserPrio", "RemoteUserResourcesInUse", "RemoteUserFloor", "RemoteGroup",
	"RemoteGroupResourcesInUse", "RemoteGroupQuota"
};
const char *const ca_neg_eph_s_names[EPH_S_N] = {
	"SubmitterUserPrio", "SubmitterUserResourcesInUse", "SubmitterNegotiatingGroup",
	"SubmitterAutoregroup", "SubmitterGroup", "SubmitterGroupResourcesInUse",
	"SubmitterGroupQuota"
};

/* What each skip means for the job's summary reason. */
static const uint8_t skip_why[K_NSKIP] = {
	[K_OK] = CA_WHY_OUTRANKED,
	[K_NOMATCH] = CA_WHY_NOMATCH,
	[K_TAKEN] = CA_WHY_OUTRANKED,
	[K_CLAIMED_IDLE] = CA_WHY_OUTRANKED,
	[K_PREEMPTING] = CA_WHY_OUTRANKED,
	[K_MATCHED] = CA_WHY_OUTRANKED,
	[K_DRAINED] = CA_WHY_OUTRANKED,
	[K_RETIRING] = CA_WHY_NOPREEMPT,
	[K_NOCONSIDER] = CA_WHY_NOPREEMPT,
	[K_DSLOT] = CA_WHY_NOPREEMPT,
	[K_RANKMODE] = CA_WHY_LIMIT,
	[K_SAMEUSER] = CA_WHY_OUTRANKED,
	[K_RANKWORSE] = CA_WHY_OUTRANKED,
	[K_EUP] = CA_WHY_NOPREEMPT,
	[K_NOPR] = CA_WHY_NOPREEMPT,
	[K_LIMIT] = CA_WHY_LIMIT,
	[K_QUOTA] = CA_WHY_QUOTA,
	[K_CPFULL] = CA_WHY_OUTRANKED,
	[K_NEGREQ] = CA_WHY_NOMATCH,
	[K_CLIMIT] = CA_WHY_CLIMIT,
};

/* Which reason wins when a job's candidates were refused for several:
 * the one closest to letting it run. */
static const int why_rank[CA_WHY_N] = {
	[CA_WHY_NONE] = 0, [CA_WHY_NOMATCH] = 1, [CA_WHY_OUTRANKED] = 2,
	[CA_WHY_NOPREEMPT] = 3, [CA_WHY_LIMIT] = 4, [CA_WHY_QUOTA] = 5,
	[CA_WHY_CLIMIT] = 6
};

/* ---- ephemeral attributes ---- */

/* The value of a Remote* attribute of kind k for customer c, or
 * UNDEFINED (the group ones of a user in no group). */
static ca_value
remote_value(const ca_neg *n, const struct cust *c, int k)
{
	bool grouped = c->group != n->groups.root;

	switch (k) {
	case EPH_R_PRIO:
		return ca_real(c->eup);
	case EPH_R_INUSE:
		return ca_neg_num_value(c->usage, true);
	case EPH_R_FLOOR:
		return ca_neg_num_value(c->floor, true);
	case EPH_R_GROUP:
		return grouped ? ca_str(c->group->name, (uint32_t)strlen(c->group->name)) :
		    ca_undef();
	case EPH_R_GINUSE:
		return grouped ? ca_neg_num_value(c->group->usage, true) : ca_undef();
	default:
		return grouped ? ca_neg_num_value(c->group->quota, true) : ca_undef();
	}
}

void
ca_neg_remote_eph(ca_neg *n, struct slot *s)
{
	if (!n->pol.consider_preemption)
		return;
	for (uint32_t i = 0; i < s->nxs; i++) {
		struct xslot *x = &s->xs[i];
		ca_value v = x->remote == NONE ? ca_undef() :
		    remote_value(n, &n->custs.at[x->remote], x->kind);
		if (v.kind != CA_UNDEFINED)
			ca_neg_ovr_put(&x->o, v);
	}
	if (s->remote == NONE)
		return;
	const struct cust *c = &n->custs.at[s->remote];
	int cnt = c->group != n->groups.root ? EPH_R_N : EPH_R_GROUP;

	/* held in the slot's entries for the cycle (nothing puts the
	 * slot's own back): no node, nothing a slot more */
	for (int k = 0; k < cnt; k++)
		(void)ca_ad_hold(s->ad, n->n_eph_r[k], remote_value(n, c, k));
}

/* The user charged for slot number `no` of slot s's machine, as the slot
 * itself tells (<prefix><no>_PreemptingAccountingGroup, _PreemptingUser,
 * _AccountingGroup, _RemoteUser, as the startd publishes them for
 * STARTD_SLOT_ATTRS), or NONE. */
static uint32_t
cross_user(ca_neg *n, const struct slot *s, int64_t no)
{
	static const char *const what[4] = {
		"PreemptingAccountingGroup", "PreemptingUser", "AccountingGroup", "RemoteUser"
	};
	char buf[96];
	const char *v;
	size_t len;

	for (int k = 0; k < 4; k++) {
		snprintf(buf, sizeof buf, "%s%lld_%s", n->pol.slot_prefix, (long long)no, what[k]);
		if (ca_neg_str(n, s->ad, buf, &v, &len)) {
			uint32_t c = ca_neg_cust_get(n, v, len);
			ca_arena_reset(&n->cx->scratch);
			return c;
		}
	}
	return NONE;
}

void
ca_neg_setup_cross(ca_neg *n)
{
	ca_dict index = CA_DICT_INIT;
	char buf[96];
	bool any = false;

	if (!n->pol.cross_slot_prios || !n->pol.consider_preemption)
		return;
	/* only the names some ad or expression spells are worth setting;
	 * they depend on the slot number alone, up to the largest machine's */
	for (int64_t no = 1; no <= n->most_slots && !any; no++)
		for (int k = 0; k < EPH_R_N && !any; k++) {
			int len = snprintf(buf, sizeof buf, "%s%lld_%s", n->pol.slot_prefix,
			    (long long)no, ca_neg_eph_r_names[k]);
			any = k != EPH_R_FLOOR && ca_intern_find(buf, (size_t)len) != NULL;
		}
	if (!any)
		return;
	/* the slots by machine and SlotID */
	for (uint32_t i = 0; i < n->slots.n; i++) {
		const char *m;
		size_t ml;
		if (!ca_neg_str(n, n->slots.at[i].ad, "Machine", &m, &ml))
			continue;
		int64_t id = (int64_t)ca_neg_num(n, n->slots.at[i].ad, "SlotID", 0);
		ca_dict_add(&index, ca_hash_mix(ca_hash_bytes(0, m, ml), (uint64_t)id), i);
		ca_arena_reset(&n->cx->scratch);
	}
	for (uint32_t i = 0; i < n->slots.n; i++) {
		struct slot *s = &n->slots.at[i];
		int64_t tot = (int64_t)ca_neg_num(n, s->ad, "TotalSlots", 0);
		const char *m = NULL;
		size_t ml = 0;
		bool has_m = ca_neg_str(n, s->ad, "Machine", &m, &ml);
		char *mc = has_m ? ca_arena_strndup(&n->arena, m, ml) : NULL;
		ca_arena_reset(&n->cx->scratch);
		if (tot > 4096)
			tot = 4096;
		size_t nxs = (size_t)(tot > 0 ? tot : 0) * EPH_R_N + 1;
		/* zeroed: ca_neg_ovr_bind makes the node of an ovr without one */
		s->xs = ca_arena_zalloc(&n->arena, nxs * sizeof *s->xs);
		for (int64_t no = 1; no <= tot; no++) {
			uint32_t user = cross_user(n, s, no);
			ca_dict_it it;
			for (uint32_t o = has_m && user == NONE ? ca_dict_first(&index,
			    ca_hash_mix(ca_hash_bytes(0, mc, ml), (uint64_t)no), &it) : CA_DICT_NONE;
			    o != CA_DICT_NONE; o = ca_dict_next(&index, &it)) {
				const char *om;
				size_t oml;
				bool same = ca_neg_str(n, n->slots.at[o].ad, "Machine", &om, &oml) &&
				    oml == ml && memcmp(om, mc, ml) == 0 &&
				    (int64_t)ca_neg_num(n, n->slots.at[o].ad, "SlotID", 0) == no;
				ca_arena_reset(&n->cx->scratch);
				if (same) {
					user = n->slots.at[o].remote;
					break;
				}
			}
			for (int k = 0; k < EPH_R_N; k++) {
				int len = snprintf(buf, sizeof buf, "%s%lld_%s", n->pol.slot_prefix,
				    (long long)no, ca_neg_eph_r_names[k]);
				const ca_name *nm = ca_intern_find(buf, (size_t)len);
				if (k == EPH_R_FLOOR || nm == NULL)
					continue;
				struct xslot *x = &s->xs[s->nxs++];
				x->kind = (uint8_t)k;
				x->remote = user;
				ca_neg_ovr_bind(&x->o, &n->arena, s->ad, nm);
			}
		}
	}
	ca_dict_free(&index);
}

/* Give a key's representative job its Submitter* attributes as they are
 * now, for one evaluation of PREEMPTION_REQUIREMENTS or PREEMPTION_RANK;
 * eph_off takes them away again (the ad is then as it was read). */
static void
eph_on(ca_neg *n, struct job *j)
{
	const struct cust *c = &n->custs.at[j->sub];
	bool grouped = c->group != n->groups.root;
	ca_value gname = ca_str(c->group->name, (uint32_t)strlen(c->group->name));

	if (j->eph == NULL) {
		j->eph = ca_arena_array(&n->arena, EPH_S_N, sizeof *j->eph);
		memset(j->eph, 0, EPH_S_N * sizeof *j->eph);
		for (int k = 0; k < EPH_S_N; k++)
			ca_neg_ovr_bind(&j->eph[k], &n->arena, j->ad,
			    ca_intern(ca_neg_eph_s_names[k], strlen(ca_neg_eph_s_names[k])));
	}
	ca_neg_ovr_put(&j->eph[EPH_S_PRIO], ca_real(c->eup));
	ca_neg_ovr_put(&j->eph[EPH_S_INUSE], ca_neg_num_value(c->usage, true));
	ca_neg_ovr_put(&j->eph[EPH_S_NEGGROUP], n->regroup_phase ?
	    ca_str(n->groups.root->name, (uint32_t)strlen(n->groups.root->name)) : gname);
	ca_neg_ovr_put(&j->eph[EPH_S_AUTOREGROUP], ca_bool(n->regroup_phase));
	if (grouped) {
		ca_neg_ovr_put(&j->eph[EPH_S_GROUP], gname);
		ca_neg_ovr_put(&j->eph[EPH_S_GINUSE], ca_neg_num_value(c->group->usage, true));
		ca_neg_ovr_put(&j->eph[EPH_S_GQUOTA], ca_neg_num_value(c->group->quota, true));
	}
}

static void
eph_off(struct job *j)
{
	for (int k = EPH_S_N; k-- > 0;)
		ca_neg_ovr_undo(&j->eph[k]);
}

/* ---- consumption policies of partitionable slots ---- */

/* The knob of slot type `type` (else the machine-wide one) for resource
 * res, or the _POLICY knob when res is NULL. */
static const struct cpknob *
cp_knob(const ca_neg *n, int type, const char *res)
{
	for (size_t pass = 0; pass < 2; pass++) {
		int want = pass == 0 ? type : -1;
		if (want < 0 && pass == 0)
			continue;
		for (size_t i = 0; i < n->ncpk; i++) {
			const struct cpknob *k = &n->cpk[i];
			if (k->type != want)
				continue;
			if (res == NULL ? k->res == NULL : (k->res && strcasecmp(k->res, res) == 0))
				return k;
		}
	}
	return NULL;
}

/* Add resource res of a consumption-policy slot, with its Consumption
 * expression: the slot's ConsumptionR, the CONSUMPTION_R knobs, HTCondor's
 * defaults for Cpus, Memory and Disk, else what the job asks for. */
static void
add_res(ca_neg *n, struct slot *s, const char *res, size_t len, int type, uint32_t cap)
{
	strbuf sb = STRBUF_INIT;

	for (uint32_t i = 0; i < s->nres; i++)
		if (s->res[i].res->len == len && strncasecmp(s->res[i].res->key, res, len) == 0)
			return;
	if (s->nres >= cap)
		return;
	struct cpres *r = &s->res[s->nres++];
	memset(r, 0, sizeof *r);
	r->res = ca_intern(res, len);
	r->spell = ca_arena_strndup(&n->arena, res, len);
	strbuf_addf(&sb, "Request%.*s", (int)len, res);
	r->req = ca_intern(sb.buf, sb.len);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "Consumption%.*s", (int)len, res);
	ca_attr *at = ca_ad_findn(s->ad, sb.buf, sb.len);
	char rname[64];
	snprintf(rname, sizeof rname, "%.*s", (int)(len < 60 ? len : 60), res);
	const struct cpknob *k = cp_knob(n, type, rname);
	if (at != NULL)
		r->cons = ca_attr_expr(s->ad, at);
	else if (k != NULL)
		r->cons = k->e;
	else if (strcasecmp(rname, "Cpus") == 0)
		r->cons = n->cons_default[0];
	else if (strcasecmp(rname, "Memory") == 0)
		r->cons = n->cons_default[1];
	else if (strcasecmp(rname, "Disk") == 0)
		r->cons = n->cons_default[2];
	else {
		/* a custom resource: what the job asks for */
		ca_diag perr;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "TARGET.Request%.*s", (int)len, res);
		r->cons = ca_parse_expr(&n->arena, sb.buf, sb.len, 0, &perr);
	}
	strbuf_release(&sb);
}

void
ca_neg_setup_cp(ca_neg *n, struct slot *s)
{
	int type = (int)ca_neg_num(n, s->ad, "SlotTypeID", -1);
	ca_value v = ca_eval_attr(n->cx, s->ad, NULL, "ConsumptionPolicy");
	const struct cpknob *k = cp_knob(n, type, NULL);
	bool on = n->pol.consumption_policy;
	const char *list;
	size_t len;

	if (k != NULL)
		on = k->on;
	if (ca_ad_findn(s->ad, "ConsumptionCpus", 15) || ca_ad_findn(s->ad, "ConsumptionMemory",
	    17) || ca_ad_findn(s->ad, "ConsumptionDisk", 15))
		on = true;
	if (v.kind == CA_BOOL)
		on = v.u.b;
	ca_arena_reset(&n->cx->scratch);
	if (!on)
		return;
	s->cp = true;
	uint32_t cap = 3 + 16;
	s->res = ca_arena_array(&n->arena, cap, sizeof *s->res);
	add_res(n, s, "Cpus", 4, type, cap);
	add_res(n, s, "Memory", 6, type, cap);
	add_res(n, s, "Disk", 4, type, cap);
	if (ca_neg_str(n, s->ad, "MachineResources", &list, &len)) {
		char *copy = ca_arena_strndup(&n->arena, list, len);
		for (char *p = copy; *p;) {
			while (*p == ' ' || *p == ',' || *p == '\t')
				p++;
			size_t l = strcspn(p, " ,\t");
			if (l > 0 && !(l == 4 && strncasecmp(p, "Swap", 4) == 0))
				add_res(n, s, p, l, type, cap);
			p += l;
		}
	}
	for (size_t i = 0; i < n->ncpk; i++)
		if (n->cpk[i].res && (n->cpk[i].type == -1 || n->cpk[i].type == type))
			add_res(n, s, n->cpk[i].res, strlen(n->cpk[i].res), type, cap);
	ca_arena_reset(&n->cx->scratch);
}

/* A resource of slot ad as a number (0 when missing or not a number), and
 * the kind of its value (a missing one is the integer 0). */
static double
resource(ca_neg *n, const ca_ad *ad, const ca_name *res, int *kind)
{
	ca_attr *at = ca_ad_find(ad, res);
	ca_value v = ca_int(0);

	if (at != NULL && !ca_attr_lit(at, &v))
		v = ca_eval_expr(n->cx, ca_attr_expr(ad, at), ad, NULL);

	if (kind != NULL)
		*kind = v.kind;
	return ca_is_num(v) ? ca_rank_number(v) : 0;
}

/* The Requirements and Rank of job rep and of slot s, looked up once: a
 * key's candidates go through every consumption-policy slot with the same
 * representative, and neither ad's Requirements or Rank changes in the
 * cycle (only requests, resources and the ephemeral attributes do). */
static void
mads(ca_neg *n, const struct job *rep, struct slot *s, ca_mad *jm, ca_mad *sm)
{
	uint32_t j = (uint32_t)(rep - n->jobs.at);

	if (n->mad_job != j) {
		ca_mad_prepare(&n->mad, rep->ad);
		n->mad_job = j;
	}
	*jm = n->mad;
	if (!s->mad_set) {
		ca_mad_prepare(&s->mad, s->ad);
		s->mad_set = true;
	}
	*sm = s->mad;
}

/* What is left of resource r of consumption-policy slot s. A literal
 * changes only with the slot's version (each deduction), and is kept. */
static double
cp_have(ca_neg *n, struct slot *s, uint32_t r, int *kind)
{
	struct cpres *c = &s->res[r];

	if (c->have_ver != s->version + 1) {
		ca_attr *at = ca_ad_find(s->ad, c->res);
		c->have = resource(n, s->ad, c->res, &c->kind);
		ca_value lit;
		c->have_ver = at && (ca_attr_lit(at, &lit) || ca_attr_expr(s->ad, at)->node == CA_N_LIT) ?
		    s->version + 1 : 0;
	}
	if (kind != NULL)
		*kind = c->kind;
	return c->have;
}

/* Consumption policy: can slot s give job rep what its policy consumes
 * now? Sets the amounts (cons[] for s->res) and the match cost. */
static bool
cp_fits(ca_neg *n, struct slot *s, struct job *rep, double *cons, double *cost,
    double *jrank, double *srank)
{
	uint32_t mark = (uint32_t)n->stack.n;
	bool any = false, ok = true;

	/* a request the job does not make counts as 0 */
	for (uint32_t r = 0; r < s->nres; r++)
		if (ca_ad_find(rep->ad, s->res[r].req) == NULL)
			ca_neg_tmp_set(n, rep->ad, s->res[r].req, ca_int(0));
	for (uint32_t r = 0; r < s->nres && ok; r++) {
		ca_value v = ca_eval_expr(n->cx, s->res[r].cons, s->ad, rep->ad);
		double need;
		if (v.kind == CA_INT)
			need = (double)v.u.i;
		else if (v.kind == CA_REAL && isfinite(v.u.r))
			need = v.u.r;
		else if (v.kind == CA_BOOL)
			need = v.u.b;
		else {
			ok = false;
			break;
		}
		double have = cp_have(n, s, r, NULL);
		if (need < 0 || need > have)
			ok = false;
		if (need > 0)
			any = true;
		cons[r] = need;
	}
	ca_arena_reset(&n->cx->scratch);
	if (!ok || !any) {
		ca_neg_tmp_undo(n, mark);
		return false;
	}
	/* the match with the job asking for exactly what it would consume */
	uint32_t mark2 = (uint32_t)n->stack.n;
	for (uint32_t r = 0; r < s->nres; r++)
		ca_neg_tmp_set(n, rep->ad, s->res[r].req, ca_neg_num_value(cons[r], true));
	ca_mad jm, sm;
	mads(n, rep, s, &jm, &sm);
	ok = ca_match_symmetric(n->cx, &jm, &sm);
	if (ok) {
		*jrank = ca_match_rank(n->cx, jm.rank, rep->ad, s->ad);
		*srank = ca_match_rank(n->cx, sm.rank, s->ad, rep->ad);
	}
	ca_arena_reset(&n->cx->scratch);
	ca_neg_tmp_undo(n, mark2);
	if (ok) {
		/* the cost: the slot weight it loses */
		double before = ca_neg_slot_weight(n, s->ad);
		uint32_t mark3 = (uint32_t)n->stack.n;
		for (uint32_t r = 0; r < s->nres; r++) {
			int kind;
			double have = cp_have(n, s, r, &kind);
			ca_neg_tmp_set(n, s->ad, s->res[r].res, ca_neg_num_value(have - cons[r],
			    kind == CA_INT));
		}
		double after = ca_neg_slot_weight(n, s->ad);
		ca_neg_tmp_undo(n, mark3);
		*cost = before - after > 0 ? before - after : 0;
		ca_arena_reset(&n->cx->scratch);
	}
	ca_neg_tmp_undo(n, mark);
	return ok;
}

/* ---- the rules ---- */

/* Is the effective priority of submitter a better than that of b? */
static bool
eup_better(const ca_neg *n, uint32_t a, uint32_t b)
{
	return n->custs.at[a].eup < n->custs.at[b].eup;
}

/* PREEMPTION_REQUIREMENTS for job (Submitter* set) on slot (Remote* set). */
static bool
preemption_ok(ca_neg *n, struct slot *s, struct job *rep)
{
	if (n->pr_always)
		return true;
	if (n->pol.preemption_req == NULL)
		return false;
	eph_on(n, rep);
	ca_neg_remote_eph(n, s);
	bool ok = ca_match_req(n->cx, n->pol.preemption_req, s->ad, rep->ad);
	eph_off(rep);
	ca_arena_reset(&n->cx->scratch);
	return ok;
}

/* HTCondor's rules for a slot whose Requirements match: K_OK with
 * *reason set, or why it is skipped. PREEMPTION_REQUIREMENTS is left to
 * the caller (K_OK with reason Priority). */
static inline int
classify(ca_neg *n, const struct slot *s, uint32_t sub, double srank, bool only_rank,
    uint8_t *reason)
{
	if (s->taken)
		return K_TAKEN;
	if (s->skip != K_OK)
		return s->skip;
	if (!s->running) {
		if (only_rank)
			return K_RANKMODE;
		*reason = CA_NEG_NOPREEMPTION;
		return K_OK;
	}
	if (srank > s->cur_rank) {
		*reason = CA_NEG_RANK;
		return K_OK;
	}
	if (only_rank)
		return K_RANKMODE;
	if (s->remote == sub || s->remote == NONE)
		return K_SAMEUSER;
	if (srank < s->cur_rank)
		return K_RANKWORSE;
	if (!eup_better(n, sub, s->remote))
		return K_EUP;
	if (n->pol.preemption_req == NULL && !n->pr_always)
		return K_NOPR;
	*reason = CA_NEG_PRIORITY;
	return K_OK;
}

/* NEGOTIATOR_POST_JOB_RANK (post) or _PRE_ of job rep on slot s: the
 * slot's own when no job changes it and the slot is as it was (not fresh),
 * worked out the first time it is asked for. */
static double
job_rank(ca_neg *n, struct slot *s, struct job *rep, bool post, bool fresh)
{
	const ca_expr *e = post ? n->pol.post_job_rank : n->pol.pre_job_rank;
	bool *known = post ? &s->post_known : &s->pre_known;
	double *v = post ? &s->post : &s->pre;

	if (fresh || !(post ? s->post_fixed : s->pre_fixed))
		return ca_neg_rank(n, e, s->ad, rep->ad);
	if (!*known)
		*v = ca_neg_rank(n, e, s->ad, n->jobs.at[0].ad);
	*known = true;
	return *v;
}

/* The sort keys of a candidate (jrank and srank already set). */
static void
cand_keys(ca_neg *n, struct cand *c, struct slot *s, struct job *rep, bool fresh)
{
	c->pre = job_rank(n, s, rep, false, fresh);
	c->post = job_rank(n, s, rep, true, fresh);
	if (c->reason != CA_NEG_NOPREEMPTION) {
		eph_on(n, rep);
		ca_neg_remote_eph(n, s);
		c->prank = ca_neg_rank(n, n->pol.preemption_rank, s->ad, rep->ad);
		eph_off(rep);
	} else
		c->prank = NEG_LOW;
	ca_arena_reset(&n->cx->scratch);
}

/* Where key k's twins keep slot s's candidate, or NULL (no twins, or the
 * cycle's memory for them spent). */
static struct cpmemo *
cp_memo(ca_neg *n, const struct key *k, const struct slot *s)
{
	struct key *first = &n->keys.at[k->twin];

	if (!first->twinned)
		return NULL;
	if (first->memo == NULL) {
		size_t bytes = (size_t)n->ncp * sizeof *first->memo;
		if (n->memo_bytes + bytes > CPMEMO_MAX)
			return NULL;
		n->memo_bytes += bytes;
		first->memo = ca_xcalloc(n->ncp, sizeof *first->memo);
	}
	return &first->memo[s->cpi];
}

/* Key k's consumption-policy candidate as the slot is now: 1 fits, 0 not. */
static int
cp_cand(ca_neg *n, const struct key *k, struct slot *s, struct cand *c)
{
	struct job *rep = &n->jobs.at[k->rep];
	double cons[32];

	if (s->nres > 32 || rep->negreq != NULL)
		return 0;
	struct cpmemo *m = cp_memo(n, k, s);
	if (m != NULL && m->version == s->version + 1) {
		*c = m->c;
		return m->fits;
	}
	memset(c, 0, sizeof *c);
	bool fits = cp_fits(n, s, rep, cons, &c->cost, &c->jrank, &c->srank);
	if (fits) {
		c->slot = (uint32_t)(s - n->slots.at);
		c->version = s->version;
		c->multi = NONE;
		c->reason = CA_NEG_NOPREEMPTION;
		cand_keys(n, c, s, rep, true);
	}
	if (m != NULL)
		*m = (struct cpmemo){ s->version + 1, fits, *c };
	return fits;
}

/* Dynamic slots: lowest CurrentRank first. */
static int
rank_cmp_dslots(const ca_neg *n, uint32_t a, uint32_t b)
{
	double x = n->slots.at[a].cur_rank, y = n->slots.at[b].cur_rank;

	if (x != y)
		return x < y ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The dynamic slots of p that job rep may preempt, into use (lowest
 * CurrentRank first); *all_rank when all of them by RANK. Returns how many,
 * *why the last refusal when there are none. */
static uint32_t
preemptible_dslots(ca_neg *n, struct slot *p, struct job *rep, bool only_rank, uint32_t *use,
    bool *all_rank, int *why)
{
	uint32_t nuse = 0;

	*all_rank = true;
	for (uint32_t k = 0; k < p->kids.n; k++) {
		struct slot *d = &n->slots.at[p->kids.at[k]];
		uint8_t reason;
		if (d->taken || !d->running)
			continue;
		if (!n->pol.early_preemption &&
		    ca_neg_num(n, d->ad, "RetirementTimeRemaining", 0) > 0)
			continue;
		double sr = ca_match_rank(n->cx, ca_ad_lookup(d->ad, "Rank"), d->ad, rep->ad);
		struct slot tmp = *d;
		tmp.skip = K_OK;
		int k2 = classify(n, &tmp, rep->sub, sr, only_rank, &reason);
		if (k2 != K_OK) {
			*why = k2;
			continue;
		}
		if (reason == CA_NEG_PRIORITY && !preemption_ok(n, d, rep)) {
			*why = K_NOPR;
			continue;
		}
		if (reason != CA_NEG_RANK)
			*all_rank = false;
		use[nuse++] = p->kids.at[k];
	}
	ca_arena_reset(&n->cx->scratch);
	ca_neg_sort(n, use, nuse, rank_cmp_dslots);
	return nuse;
}

/* The resources of partitionable slot s: Cpus, Memory, Disk, then the
 * custom ones its MachineResources lists (not Swap); how many. */
#define SLOT_MAXRES (3 + 16)
static uint32_t
slot_resources(ca_neg *n, const struct slot *s, const ca_name **res)
{
	uint32_t nres = 3;
	const char *list;
	size_t len;

	res[0] = n->n_cpus;
	res[1] = n->n_mem;
	res[2] = n->n_disk;
	if (ca_neg_str(n, s->ad, "MachineResources", &list, &len))
		for (size_t i = 0; i < len && nres < SLOT_MAXRES;) {
			while (i < len && (list[i] == ' ' || list[i] == ',' || list[i] == '\t'))
				i++;
			size_t b = i;
			while (i < len && list[i] != ' ' && list[i] != ',' && list[i] != '\t')
				i++;
			const ca_name *x = i > b ? ca_intern(list + b, i - b) : NULL;
			bool known = x == NULL;
			for (uint32_t r = 0; r < nres && x != NULL; r++)
				known |= x == res[r];
			if (!known && !(x->len == 4 && strncasecmp(x->key, "Swap", 4) == 0))
				res[nres++] = x;
		}
	ca_arena_reset(&n->cx->scratch);
	return nres;
}

/* Partitionable slot preemption (ALLOW_PSLOT_PREEMPTION): the p-slot p
 * does not fit the job; add the resources of its dynamic slots the job may
 * preempt, lowest CurrentRank first, until it does. K_OK and c set when it
 * does, else the reason (K_NOMATCH when there is nothing to say). */
static int
multi_cand(ca_neg *n, struct slot *p, struct job *rep, bool only_rank, struct cand *c)
{
	const ca_name *res[SLOT_MAXRES];
	double sum[SLOT_MAXRES];
	int kind[SLOT_MAXRES];
	uint32_t nres;
	bool all_rank;
	int why = K_NOMATCH;

	if (p->kids.n == 0 || p->taken || p->skip != K_OK)
		return K_NOMATCH;
	if (rep->negreq != NULL)
		return K_NEGREQ;
	uint32_t *use = ca_xcalloc(p->kids.n, sizeof *use);
	uint32_t nuse = preemptible_dslots(n, p, rep, only_rank, use, &all_rank, &why);
	if (nuse == 0) {
		free(use);
		return why;
	}
	why = K_NOMATCH;
	/* the custom resources too, as HTCondor's negotiator adds every one
	 * MachineResources lists */
	nres = slot_resources(n, p, res);
	for (uint32_t r = 0; r < nres; r++)
		sum[r] = resource(n, p->ad, res[r], &kind[r]);
	ca_mad jm, sm;
	mads(n, rep, p, &jm, &sm);
	for (uint32_t k = 0; k < nuse && why != K_OK; k++) {
		struct slot *d = &n->slots.at[use[k]];
		for (uint32_t r = 0; r < nres; r++)
			sum[r] += resource(n, d->ad, res[r], NULL);
		uint32_t mark = (uint32_t)n->stack.n;
		for (uint32_t r = 0; r < nres; r++)
			ca_neg_tmp_set(n, p->ad, res[r], ca_neg_num_value(sum[r],
			    kind[r] != CA_REAL));
		if (ca_match_symmetric(n->cx, &jm, &sm)) {
			memset(c, 0, sizeof *c);
			c->slot = (uint32_t)(p - n->slots.at);
			c->jrank = ca_match_rank(n->cx, jm.rank, rep->ad, p->ad);
			c->srank = ca_match_rank(n->cx, sm.rank, p->ad, rep->ad);
			c->reason = all_rank ? CA_NEG_RANK : CA_NEG_PRIORITY;
			c->pr_done = true;
			c->cost = ca_neg_slot_weight(n, p->ad);
			cand_keys(n, c, p, rep, true);
			/* PREEMPTION_RANK of the p-slot has no running user: use the
			 * first preempted slot's */
			eph_on(n, rep);
			c->prank = ca_neg_rank(n, n->pol.preemption_rank, n->slots.at[use[0]].ad,
			    rep->ad);
			eph_off(rep);
			struct multi *m = ca_vec_push(&n->multi);
			m->dslots = ca_xreallocarray(NULL, k + 1, sizeof *m->dslots);
			memcpy(m->dslots, use, (k + 1) * sizeof *m->dslots);
			m->n = k + 1;
			c->multi = (uint32_t)(n->multi.n - 1);
			why = K_OK;
		}
		ca_neg_tmp_undo(n, mark);
		ca_arena_reset(&n->cx->scratch);
	}
	free(use);
	return why;
}

/* What the rules make of slot s, which the matcher found for k's
 * autocluster (both Requirements hold): K_OK with *c set (a candidate), or
 * why it is not one. rep is k's representative job. */
static inline int
consider_hit(ca_neg *n, struct key *k, struct job *rep, struct slot *s, const ca_hit *hit,
    bool only_rank, struct cand *c)
{
	uint8_t reason = 0;

	if (s->pslot && rep->negreq != NULL)
		return K_NEGREQ;
	int why = classify(n, s, k->sub, hit->srank, only_rank, &reason);
	if (why != K_OK)
		return why;
	/* PREEMPTION_REQUIREMENTS as the candidates are gathered, as HTCondor
	 * evaluates it when it builds the match list */
	if (reason == CA_NEG_PRIORITY && !preemption_ok(n, s, rep))
		return K_NOPR;
	memset(c, 0, sizeof *c);
	c->slot = hit->slot;
	c->jrank = hit->jrank;
	c->srank = hit->srank;
	c->reason = reason;
	c->pr_done = true;
	c->cost = s->weight;
	c->multi = NONE;
	cand_keys(n, c, s, rep, false);
	return K_OK;
}

/* What the rules make of slot s for key k now: K_OK with *c set (a
 * candidate), or why it is not one. hit is the matcher's hit of s for k's
 * autocluster (both Requirements hold), or NULL for a slot with a
 * consumption policy (matched here, as it is now) or a partitionable slot
 * that may fit by preempting its dynamic slots. */
static int
consider(ca_neg *n, struct key *k, struct slot *s, const ca_hit *hit, bool only_rank,
    struct cand *c)
{
	struct job *rep = &n->jobs.at[k->rep];

	if (hit != NULL)
		return consider_hit(n, k, rep, s, hit, only_rank, c);
	if (s->cp) {
		if (s->taken || s->skip != K_OK)
			return s->taken ? K_TAKEN : s->skip;
		if (only_rank)
			return K_RANKMODE;
		if (rep->negreq != NULL)
			return K_NEGREQ;
		if (cp_cand(n, k, s, c))
			return K_OK;
		return s->version ? K_CPFULL : K_NOMATCH;
	}
	return multi_cand(n, s, rep, only_rank, c);
}

/* ---- the candidates of a key: a heap, best first ---- */

static bool
better(const struct cand *a, const struct cand *b)
{
	if (a->pre != b->pre)
		return a->pre > b->pre;
	if (a->jrank != b->jrank)
		return a->jrank > b->jrank;
	if (a->post != b->post)
		return a->post > b->post;
	if (a->reason != b->reason)
		return a->reason > b->reason;
	if (a->prank != b->prank)
		return a->prank > b->prank;
	return a->slot < b->slot;
}

static void
sift_down(struct cand *h, size_t n, size_t i)
{
	struct cand x = h[i];

	for (;;) {
		size_t l = 2 * i + 1, best = i;
		const struct cand *bc = &x;
		if (l < n && better(&h[l], bc)) {
			best = l;
			bc = &h[l];
		}
		if (l + 1 < n && better(&h[l + 1], bc))
			best = l + 1;
		if (best == i)
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = x;
}

static void
heap_pop(struct cache *c)
{
	c->heap.at[0] = c->heap.at[--c->heap.n];
	if (c->heap.n > 1)
		sift_down(c->heap.at, c->heap.n, 0);
}

void
ca_neg_cache_clear(struct cache *c)
{
	ca_vec_free(&c->heap);
	memset(c, 0, sizeof *c);
}

/* Build the candidates of key k for the submitter's turn. */
static void
build(ca_neg *n, struct key *k, bool only_rank)
{
	struct cache *c = &k->cache;
	struct job *rep = &n->jobs.at[k->rep];
	const ca_hits *hits = ca_neg_hits(n, k->mcl);
	bool *seen = NULL;
	struct cand x;
	int why;

	ca_neg_cache_clear(c);
	c->built = true;
	c->fresh = true;
	c->climit = NONE;
	c->only_rank = only_rank;
	if (n->pol.pslot_preemption)
		seen = ca_xcalloc(n->slots.n ? n->slots.n : 1, sizeof *seen);
	for (uint32_t i = 0; i < hits->n; i++) {
		ca_hit hit = ca_hits_at(hits, i);
		if (seen)
			seen[hit.slot] = true;
		why = consider_hit(n, k, rep, &n->slots.at[hit.slot], &hit, only_rank, &x);
		if (why == K_OK)
			*ca_vec_push(&c->heap) = x;
		else
			c->count[why]++;
	}
	for (uint32_t q = 0; q < n->ncp; q++) {
		why = consider(n, k, &n->slots.at[n->cpslots[q]], NULL, only_rank, &x);
		if (why == K_OK)
			*ca_vec_push(&c->heap) = x;
		else
			c->count[why]++;
	}
	for (uint32_t q = 0; seen && q < n->npk; q++) {
		if (seen[n->pslots[q]])
			continue;
		why = consider(n, k, &n->slots.at[n->pslots[q]], NULL, only_rank, &x);
		if (why == K_OK)
			*ca_vec_push(&c->heap) = x;
		else if (why != K_NOMATCH)
			c->count[why]++;
	}
	free(seen);
	for (size_t i = c->heap.n / 2; i-- > 0;)
		sift_down(c->heap.at, c->heap.n, i);
}

/* ---- the survey of the followed job ---- */

static void
cand_rec(struct rec *r, const struct cand *c)
{
	r->reason = c->reason;
	r->f[0] = c->pre;
	r->f[1] = c->jrank;
	r->f[2] = c->post;
	r->f[3] = c->prank;
}

/* The candidate of slot i in the list gathered for key k, or NULL. */
static const struct cand *
gathered(const struct cache *c, uint32_t i)
{
	for (size_t q = 0; c->built && q < c->heap.n; q++)
		if (c->heap.at[q].slot == i)
			return &c->heap.at[q];
	return NULL;
}

/* What the rules make of slot i for key k, as a record. */
static void
survey_slot(ca_neg *n, struct key *k, uint32_t i, const ca_hit *hit, bool only_rank,
    struct rec *r)
{
	struct slot *s = &n->slots.at[i];
	struct job *rep = &n->jobs.at[k->rep];
	struct cand x;

	r->x = i;
	r->how = SL_RULES;
	if (s->pslot && rep->negreq != NULL) {
		r->why = K_NEGREQ;
		r->y = k->rep;
		return;
	}
	if (s->cp) {
		r->how = SL_CP;
		if ((r->why = (uint8_t)consider(n, k, s, NULL, only_rank, &x)) == K_OK)
			cand_rec(r, &x);
		return;
	}
	if (hit == NULL) {
		if (n->pol.pslot_preemption && s->pslot && s->kids.n > 0 &&
		    consider(n, k, s, NULL, only_rank, &x) == K_OK) {
			r->how = SL_MULTI;
			r->why = K_OK;
			r->y = x.multi;
			cand_rec(r, &x);
			return;
		}
		/* which of the two Requirements is false */
		ca_mad jm, sm;
		ca_mad_prepare(&jm, rep->ad);
		ca_mad_prepare(&sm, s->ad);
		bool jr = ca_match_req(n->cx, jm.req, rep->ad, s->ad);
		bool sr = ca_match_req(n->cx, sm.req, s->ad, rep->ad);
		ca_arena_reset(&n->cx->scratch);
		r->how = SL_NOMATCH;
		r->why = K_NOMATCH;
		r->y = !jr && !sr ? 0 : !jr ? 1 : !sr ? 2 : 3;
		return;
	}
	r->why = (uint8_t)consider(n, k, s, hit, only_rank, &x);
	if (r->why == K_TAKEN)
		r->y = s->taken_by;
	else if (r->why == K_RANKWORSE || r->why == K_SAMEUSER) {
		r->f[0] = hit->srank;
		r->f[1] = s->cur_rank;
	} else if (r->why == K_NOPR)
		r->y = n->pol.preemption_req != NULL;	/* evaluated, and false */
	else if (r->why == K_OK)
		cand_rec(r, &x);
	/* a list gathered earlier in the turn keeps what the rules made of the
	 * slot then (PREEMPTION_REQUIREMENTS_STABLE, PREEMPTION_RANK_STABLE) */
	const struct cand *c = gathered(&k->cache, i);
	if (c != NULL && (r->why == K_OK || r->why == K_NOPR)) {
		r->why = K_OK;
		cand_rec(r, c);
	}
}

void
ca_neg_survey(ca_neg *n, uint32_t job, struct key *k, bool only_rank)
{
	uint32_t h = 0;
	ca_hits hits;

	ca_neg_hits_all(n, k->mcl, &hits);
	for (uint32_t i = 0; i < n->slots.n; i++) {
		/* the hits are in slot order */
		while (h < hits.n && hits.slot[h] < i)
			h++;
		ca_hit hit = h < hits.n ? ca_hits_at(&hits, h) : (ca_hit){ 0, 0, NONE };
		/* nothing in survey_slot adds to the log: the record stays put */
		survey_slot(n, k, i, hit.slot == i ? &hit : NULL, only_rank,
		    ca_neg_log(n, R_SLOT, job));
	}
	ca_hits_free(&hits);
}

/* ---- taking a candidate ---- */

static bool
permits(double used, double cost, double allowed)
{
	return used + cost <= allowed + LIMIT_EPS || (used <= 0 && allowed > 0);
}

static void
add_usage(ca_neg *n, uint32_t c, double w)
{
	n->custs.at[c].usage += w;
	n->custs.at[c].group->usage += w;
}

/* Slot s leaves the cycle. */
static void
take(ca_neg *n, struct slot *s, uint32_t match)
{
	s->taken = true;
	s->taken_by = match;
	/* the autoclusters' lists made from now on leave it out */
	ca_matcher_drop_slot(n->matcher, (uint32_t)(s - n->slots.at));
}

/* Deduct what the consumption policy of s consumes for job rep (the
 * p-slot stays for more). */
static void
consume(ca_neg *n, struct slot *s, struct job *rep, struct match *m)
{
	double cons[32], cost, jr, sr;

	if (s->nres <= 32 && cp_fits(n, s, rep, cons, &cost, &jr, &sr)) {
		for (uint32_t r = 0; r < s->nres; r++) {
			int kind;
			double have = resource(n, s->ad, s->res[r].res, &kind);
			ca_ad_set(s->ad, s->res[r].res, NULL, ca_expr_lit(s->ad->arena,
			    ca_neg_num_value(have - cons[r], kind == CA_INT)));
			if (r < 3)
				m->consumed[r] = cons[r];
		}
		if (s->nres > 3) {
			m->nx = s->nres - 3;
			m->xcons = ca_arena_array(&n->arena, m->nx, sizeof *m->xcons);
			m->xres = ca_arena_array(&n->arena, m->nx, sizeof *m->xres);
			for (uint32_t r = 3; r < s->nres; r++) {
				m->xcons[r - 3] = cons[r];
				m->xres[r - 3] = s->res[r].spell;
			}
		}
		ca_arena_reset(&n->cx->scratch);
	}
	m->cp = true;
	s->version++;
	s->pre_known = s->post_known = false;	/* its resources changed */
}

static void
record_match(ca_neg *n, struct job *jb, struct key *k, const struct cand *c, struct turn *t)
{
	struct slot *s = &n->slots.at[c->slot];
	uint32_t mi = (uint32_t)n->matches.n, ji = (uint32_t)(jb - n->jobs.at);
	struct match *m = ca_vec_push(&n->matches);
	const char *list;
	size_t len;

	memset(m, 0, sizeof *m);
	m->lead = NONE;
	/* the concurrency limits it holds count from now on */
	if (ca_neg_job_limits(n, jb, s, &list, &len)) {
		ca_climits_add(&n->limits, &n->acct->pol, list, len, 1);
		m->climits = ca_arena_strndup(&n->arena, list, len);
		ca_arena_reset(&n->cx->scratch);
	}
	m->job = ji;
	m->slot = c->slot;
	m->sub = k->sub;
	m->reason = c->reason;
	m->jrank = c->jrank;
	m->srank = c->srank;
	m->eup = n->custs.at[k->sub].eup;
	m->cost = c->cost;
	m->multi = c->multi;
	m->remote = NONE;
	m->spin = t->spin;
	if (c->multi != NONE) {
		const struct multi *mu = &n->multi.at[c->multi];
		for (uint32_t q = 0; q < mu->n; q++) {
			struct slot *d = &n->slots.at[mu->dslots[q]];
			take(n, d, mi);
			if (d->remote != NONE)
				add_usage(n, d->remote, -d->weight);
		}
		if (mu->n > 0) {
			m->remote = n->slots.at[mu->dslots[0]].remote;
			m->remote_job = n->slots.at[mu->dslots[0]].remote_job;
		}
		take(n, s, mi);
	} else if (s->cp) {
		consume(n, s, &n->jobs.at[k->rep], m);
		s->taken_by = mi;
	} else {
		if (s->running && s->remote != NONE) {
			m->remote = s->remote;
			m->remote_job = s->remote_job;
			add_usage(n, s->remote, -s->weight);
		}
		take(n, s, mi);
	}
	add_usage(n, k->sub, c->cost);
	jb->match = mi;
	n->custs.at[k->sub].matches++;
	t->used += c->cost;
	if (c->reason == CA_NEG_NOPREEMPTION)
		t->used_un += c->cost;
	*t->pie_left -= c->cost;
	struct rec *r = ca_neg_decide(n, R_MATCH, ji, CA_WHY_NONE);
	r->x = mi;
	cand_rec(r, c);
}

/* ---- CLAIM_PARTITIONABLE_LEFTOVERS ---- */

/* What a dynamic slot for job jb takes of the resources res of
 * partitionable slot s: Cpus, Memory and Disk as the startd rounds them
 * (CONSUMPTION_CPUS ... defaults: at least 1 cpu and 1 MB), the custom
 * ones as asked (Request<name>, 0 when it does not say). False for a
 * request that is not a number or below 0. */
static bool
left_need(ca_neg *n, const struct slot *s, const struct job *jb, const ca_name **res,
    uint32_t nres, double *need)
{
	bool ok = true;

	for (uint32_t r = 0; r < nres && ok; r++) {
		ca_value v;
		if (r < 3)
			v = ca_eval_expr(n->cx, n->cons_default[r], s->ad, jb->ad);
		else {
			char buf[96];
			snprintf(buf, sizeof buf, "Request%.*s", (int)res[r]->len, res[r]->key);
			v = ca_eval_attr(n->cx, jb->ad, s->ad, buf);
			if (v.kind == CA_UNDEFINED)
				v = ca_int(0);
		}
		if (!ca_is_num(v) || ca_rank_number(v) < 0)
			ok = false;
		else
			need[r] = ca_rank_number(v);
		if (r == 0 && ok && need[r] < 1)
			need[r] = 1;
		if (r == 1 && ok && need[r] < 1)
			need[r] = 1;
	}
	ca_arena_reset(&n->cx->scratch);
	return ok;
}

void
ca_neg_claim_leftovers(ca_neg *n, uint32_t si, uint32_t q)
{
	struct cust *u = &n->custs.at[si];
	uint32_t lead = n->jobs.at[u->jobs.at[q]].match;
	/* the lead match by its number: the matches added below may move it */
	const struct match *m0 = &n->matches.at[lead];
	uint32_t slot0 = m0->slot;
	struct slot *s = &n->slots.at[slot0];
	const ca_name *res[SLOT_MAXRES];
	double left[SLOT_MAXRES], need[SLOT_MAXRES];
	uint32_t nres;

	if (!s->pslot || s->cp || m0->multi != NONE)
		return;
	nres = slot_resources(n, s, res);
	for (uint32_t r = 0; r < nres; r++)
		left[r] = resource(n, s->ad, res[r], NULL);
	if (!left_need(n, s, &n->jobs.at[m0->job], res, nres, need))
		return;
	for (uint32_t r = 0; r < nres; r++)
		left[r] -= need[r];
	/* what is left only shrinks: a job that does not fit or match it now
	 * never will, nor will the jobs alike (one key) */
	uint8_t *refused = ca_xcalloc(n->keys.n + 1, 1);
	for (uint32_t p = q + 1; p < u->jobs.n && left[0] >= 1; p++) {
		uint32_t ji = u->jobs.at[p];
		struct job *jb = &n->jobs.at[ji];
		bool fits = true;
		if (jb->match != NONE || jb->left != NONE || jb->negreq != NULL ||
		    refused[jb->key])
			continue;
		if (!left_need(n, s, jb, res, nres, need)) {
			refused[jb->key] = 1;
			continue;
		}
		for (uint32_t r = 0; r < nres; r++)
			fits &= need[r] <= left[r];
		if (!fits) {
			refused[jb->key] = 1;
			continue;
		}
		const char *lim;
		size_t llen;
		double inc;
		bool limited = ca_neg_job_limits(n, jb, s, &lim, &llen);
		if (limited && ca_climits_refuse(&n->limits, &n->acct->pol, lim, llen, &inc)) {
			ca_arena_reset(&n->cx->scratch);
			continue;
		}
		/* the job against what is left of the slot */
		uint32_t mark = (uint32_t)n->stack.n;
		for (uint32_t r = 0; r < nres; r++) {
			int kind;
			resource(n, s->ad, res[r], &kind);
			ca_neg_tmp_set(n, s->ad, res[r], ca_neg_num_value(left[r], kind == CA_INT));
		}
		ca_mad jm, sm;
		ca_mad_prepare(&jm, jb->ad);
		ca_mad_prepare(&sm, s->ad);
		bool ok = ca_match_symmetric(n->cx, &jm, &sm);
		double jr = 0, sr = 0;
		if (ok) {
			jr = ca_match_rank(n->cx, jm.rank, jb->ad, s->ad);
			sr = ca_match_rank(n->cx, sm.rank, s->ad, jb->ad);
		}
		ca_arena_reset(&n->cx->scratch);
		ca_neg_tmp_undo(n, mark);
		if (!ok) {
			refused[jb->key] = 1;
			continue;
		}
		uint32_t mi = (uint32_t)n->matches.n;
		struct match *m = ca_vec_push(&n->matches);
		memset(m, 0, sizeof *m);
		m->job = ji;
		m->slot = slot0;
		m->sub = si;
		m->reason = CA_NEG_NOPREEMPTION;
		m->jrank = jr;
		m->srank = sr;
		m->eup = u->eup;
		m->multi = NONE;
		m->remote = NONE;
		m->lead = lead;
		m->spin = n->matches.at[lead].spin;
		if (limited) {
			ca_neg_job_limits(n, jb, s, &lim, &llen);
			ca_climits_add(&n->limits, &n->acct->pol, lim, llen, 1);
			m->climits = ca_arena_strndup(&n->arena, lim, llen);
			ca_arena_reset(&n->cx->scratch);
		}
		for (uint32_t r = 0; r < nres; r++)
			left[r] -= need[r];
		jb->match = mi;
		u->matches++;
		struct rec *rc = ca_neg_decide(n, R_MATCH, ji, CA_WHY_NONE);
		rc->x = mi;
		rc->reason = CA_NEG_NOPREEMPTION;
		rc->f[1] = jr;
	}
	free(refused);
}

/* Whether a slot taken before k's list was made matches k's autocluster
 * (it would have been skipped as taken, not as no match): a partitionable
 * slot does not count for a job with a negative request (skipped for that
 * first). Once true, true for the rest of the cycle. */
static bool
taken_match(ca_neg *n, struct key *k)
{
	struct hitlist *h = &n->hits[k->mcl];
	const struct job *rep = &n->jobs.at[k->rep];
	ca_hits gone;
	bool any = false;

	if (h->taken_match && rep->negreq == NULL)
		return true;
	ca_matcher_cluster_hits(n->matcher, &k->mcl, 1, CA_MH_GONE, rep->negreq ? 0 : 1, &gone);
	for (uint32_t i = 0; i < gone.n && !any; i++)
		any = !(n->slots.at[gone.slot[i]].pslot && rep->negreq != NULL);
	ca_hits_free(&gone);
	if (any && rep->negreq == NULL)
		h->taken_match = true;
	return any;
}

/* The summary reason of a job whose key found nothing. */
static uint8_t
why_of(ca_neg *n, struct key *k)
{
	const struct cache *c = &k->cache;
	uint8_t best = CA_WHY_NOMATCH;

	for (int s = 0; s < K_NSKIP; s++)
		if (c->count[s] && s != K_NOMATCH && why_rank[skip_why[s]] > why_rank[best])
			best = skip_why[s];
	if (why_rank[best] < why_rank[CA_WHY_OUTRANKED] && taken_match(n, k))
		best = CA_WHY_OUTRANKED;
	return best;
}

/* PREEMPTION_RANK of job rep on slot s with the values of now. */
static double
prank_now(ca_neg *n, struct slot *s, struct job *rep)
{
	eph_on(n, rep);
	ca_neg_remote_eph(n, s);
	double x = ca_neg_rank(n, n->pol.preemption_rank, s->ad, rep->ad);
	eph_off(rep);
	ca_arena_reset(&n->cx->scratch);
	return x;
}

static void build(ca_neg *n, struct key *k, bool only_rank);

/* The candidate at the top of the heap as the slot is now: true when it
 * still stands (it may have been refreshed), false when it was dropped. */
static bool
top_stands(ca_neg *n, struct key *k, bool follow, uint32_t job)
{
	struct cache *c = &k->cache;
	struct cand *top = &c->heap.at[0];
	struct slot *s = &n->slots.at[top->slot];
	struct job *rep = &n->jobs.at[k->rep];

	if (s->taken) {
		if (follow) {
			struct rec *r = ca_neg_log(n, R_POP, job);
			r->why = K_TAKEN;
			r->x = top->slot;
			r->y = s->taken_by;
		}
		c->count[K_TAKEN]++;
		heap_pop(c);
		return false;
	}
	if (top->multi != NONE) {
		/* the dynamic slots it would preempt must all be there */
		const struct multi *mu = &n->multi.at[top->multi];
		bool gone = false;
		for (uint32_t q = 0; q < mu->n; q++)
			gone |= n->slots.at[mu->dslots[q]].taken;
		if (gone) {
			c->count[K_TAKEN]++;
			heap_pop(c);
			return false;
		}
	}
	if (s->cp && top->version != s->version) {
		struct cand x;
		if (cp_cand(n, k, s, &x)) {
			*top = x;
			sift_down(c->heap.at, c->heap.n, 0);
		} else {
			c->count[K_CPFULL]++;
			heap_pop(c);
		}
		return false;
	}
	if (top->reason == CA_NEG_PRIORITY && !top->pr_done) {
		if (!preemption_ok(n, s, rep)) {
			c->count[K_NOPR]++;
			heap_pop(c);
			return false;
		}
		top->pr_done = true;
	}
	/* PREEMPTION_REQUIREMENTS_STABLE or PREEMPTION_RANK_STABLE false: what
	 * they read may have changed since the list was built (usage rises
	 * with every match). As HTCondor does, a list whose next preempting
	 * candidate no longer passes, or ranks otherwise, is built anew. */
	if (!c->fresh && top->reason != CA_NEG_NOPREEMPTION && top->multi == NONE &&
	    ((!n->pol.pr_stable && top->reason == CA_NEG_PRIORITY &&
	    !preemption_ok(n, s, rep)) ||
	    (!n->pol.prank_stable && prank_now(n, s, rep) != top->prank))) {
		build(n, k, c->only_rank);
		return false;
	}
	c->fresh = false;
	return true;
}

/* The slot's job limits allow a match of job rep to slot s? Else the
 * limit that refuses it goes into the cache (and the log, followed). */
static bool
limits_allow(ca_neg *n, struct key *k, const struct job *rep, uint32_t slot, bool follow,
    uint32_t job)
{
	const char *list;
	size_t len;
	double inc;

	if (!rep->climits_dyn || !ca_neg_job_limits(n, rep, &n->slots.at[slot], &list, &len))
		return true;
	ca_climit *l = ca_climits_refuse(&n->limits, &n->acct->pol, list, len, &inc);
	ca_arena_reset(&n->cx->scratch);
	if (l == NULL)
		return true;
	struct cache *c = &k->cache;
	c->climit = (uint32_t)(l - n->limits.v.at);
	c->cl[0] = l->count;
	c->cl[1] = l->max;
	c->cl[2] = inc;
	c->count[K_CLIMIT]++;
	if (follow) {
		struct rec *r = ca_neg_log(n, R_POP, job);
		r->why = K_CLIMIT;
		r->x = slot;
		r->y = c->climit;
		memcpy(r->f, c->cl, sizeof c->cl);
	}
	return false;
}

bool
ca_neg_find(ca_neg *n, struct job *jb, struct key *k, struct turn *t, bool follow,
    uint8_t *why)
{
	struct cache *c = &k->cache;
	uint32_t ji = (uint32_t)(jb - n->jobs.at);

	if (!c->built || c->only_rank != t->only_rank)
		build(n, k, t->only_rank);
	while (c->heap.n > 0) {
		if (!top_stands(n, k, follow, ji))
			continue;
		struct cand *top = &c->heap.at[0];
		bool ok = true, un = top->reason == CA_NEG_NOPREEMPTION;
		int lk = K_LIMIT;
		if (!limits_allow(n, k, &n->jobs.at[k->rep], top->slot, follow, ji)) {
			heap_pop(c);
			continue;
		}
		if (un) {
			ok = permits(t->used_un, top->cost, t->limit_un);
			if (!ok)
				lk = ca_neg_quota_binds(t) ? K_QUOTA : K_LIMIT;
		} else if (top->reason == CA_NEG_PRIORITY)
			ok = permits(t->used, top->cost, t->limit);
		if (!ok) {
			if (follow) {
				struct rec *r = ca_neg_log(n, R_POP, ji);
				r->why = (uint8_t)lk;
				r->x = top->slot;
				r->f[0] = top->cost;
				r->f[1] = un ? t->used_un : t->used;
				r->f[2] = un ? t->limit_un : t->limit;
			}
			c->count[lk]++;
			t->limited = true;
			heap_pop(c);
			continue;
		}
		struct cand x = *top;
		if (!n->slots.at[x.slot].cp)
			heap_pop(c);
		record_match(n, jb, k, &x, t);
		return true;
	}
	*why = why_of(n, k);
	return false;
}
