/* neg_cycle.c - the negotiator object (negotiator.h): its knobs, the slot and
 * job ads it is given, the preparation of a cycle and the cycle's driver.
 *
 * How it is built. The jobs are stored compactly (equal expression trees
 * shared) and handed to the matcher of match.c, which groups them into
 * autoclusters and records, once per cycle, every slot whose Requirements
 * and the cluster's hold together, with both Ranks. A "key" is a
 * submitter's autocluster (refined by the job attributes the negotiator's
 * own expressions reach): the candidates of a key are built from its
 * cluster's slots the first time a job of the key is negotiated in a
 * submitter's turn, kept in a heap ordered by the sort keys, and popped for
 * the following jobs of the key (slots taken in between are skipped), which
 * is HTCondor's match-list cache (neg_candidates.c). The submitters take
 * their turns in pie spins (neg_submitters.c), and every decision goes into
 * a log that the summary and --explain print (neg_report.c).
 *
 * Ephemeral attributes are literal nodes of our own set into the ads with
 * ca_ad_set and updated in place; the job copy in a match record has them
 * taken out again. Temporary values (a job's requests replaced by the
 * consumption policy's amounts, a p-slot's resources summed with those of
 * the dynamic slots it would preempt) use a stack of such nodes and put the
 * ad's own expression back afterwards. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "neg_int.h"

/* HTCondor's defaults of the negotiator's expressions (param_info). */
static const char def_pre_job_rank[] =
    "(10000000 * My.Rank) + (1000000 * (RemoteOwner =?= UNDEFINED)) - (100000 * Cpus) - Memory";
static const char def_post_job_rank[] =
    "(RemoteOwner =?= UNDEFINED) * (ifthenElse(isUndefined(KFlops), 1000, Kflops) - SlotID - "
    "1.0e10*(Offline=?=True))";
static const char def_preemption_rank[] =
    "(RemoteUserPrio * 1000000) - ifThenElse(isUndefined(TotalJobRuntime), 0, TotalJobRuntime)";
static const char def_group_sort[] =
    "ifThenElse(AccountingGroup=?=\"<none>\",3.4e+38,"
    "ifThenElse(GroupQuota>0,GroupResourcesInUse/GroupQuota,3.3e+38))";
static const char *const def_consumption[3] = {
	"quantize(target.RequestCpus,{1})",
	"quantize(target.RequestMemory,{128})",
	"quantize(target.RequestDisk,{1024})"
};

/* The names every slot is read for (ORDER NS: neg_int.h's enum). */
static const char *const slot_names[NS_N] = {
	"Name", "State", "Activity", "PartitionableSlot", "SlotType", "DynamicSlot", "Job",
	"TotalSlots"
};

/* ---- evaluation helpers ---- */

bool
ca_neg_str(ca_neg *n, const ca_ad *ad, const char *name, const char **s, size_t *len)
{
	return ca_get_str(n->cx, ad, name, s, len) == 1 && *len > 0;
}

/* ca_neg_str by an interned name (what every slot is read for) */
static bool
str_nm(ca_neg *n, const ca_ad *ad, const ca_name *name, const char **s, size_t *len)
{
	return ca_get_str_nm(n->cx, ad, name, s, len) == 1 && *len > 0;
}

double
ca_neg_num(ca_neg *n, const ca_ad *ad, const char *name, double def)
{
	double x = def;

	ca_get_num(n->cx, ad, name, &x);
	return x;
}

static bool
is_true(ca_neg *n, const ca_ad *ad, const ca_name *name)
{
	bool b = false;

	return ca_get_bool_nm(n->cx, ad, name, &b) == 1 && b;
}

double
ca_neg_rank(ca_neg *n, const ca_expr *e, const ca_ad *slot, const ca_ad *job)
{
	if (e == NULL)
		return 0.0;
	/* the policy's few expressions, evaluated for many pairs: each in its
	 * flat form, made once */
	const ca_prog *p = NULL;
	for (int i = 0; i < NEG_PROGS && p == NULL; i++) {
		if (n->progs[i].e == NULL) {
			n->progs[i].e = e;
			n->progs[i].p = ca_prog_new(&n->arena, e);
		}
		if (n->progs[i].e == e)
			p = n->progs[i].p;
	}
	ca_value v = p ? ca_prog_eval(n->cx, p, slot, job) : ca_eval_expr(n->cx, e, slot, job);
	switch (v.kind) {
	case CA_BOOL:
		return v.u.b;
	case CA_INT:
		return (double)v.u.i;
	case CA_REAL:
		return isnan(v.u.r) ? NEG_LOW : v.u.r;
	default:
		return NEG_LOW;
	}
}

double
ca_neg_slot_weight(ca_neg *n, const ca_ad *ad)
{
	return ca_acct_slot_weight(n->acct, n->cx, ad);
}

void
ca_neg_ovr_put(ovr *o, ca_value v)
{
	o->node->u.lit = v;
	/* setting the same node again refreshes the ad's cached literal */
	ca_ad_set(o->ad, o->name, NULL, o->node);
	o->on = true;
}

void
ca_neg_ovr_undo(ovr *o)
{
	if (!o->on)
		return;
	if (o->had)
		ca_ad_put_back(o->ad, &o->orig);
	else
		ca_ad_delete(o->ad, o->name);
	o->on = false;
}

/* Bind o to attribute name of ad, remembering the ad's own value. */
void
ca_neg_ovr_bind(ovr *o, ca_arena *a, ca_ad *ad, const ca_name *name)
{
	ca_attr *at = ca_ad_find(ad, name);

	if (o->node == NULL)
		o->node = ca_expr_lit(a, ca_int(0));
	o->ad = ad;
	o->name = name;
	o->had = at != NULL;
	if (at != NULL)
		o->orig = *at;
	o->on = false;
}

void
ca_neg_tmp_set(ca_neg *n, ca_ad *ad, const ca_name *name, ca_value v)
{
	ovr *o;

	/* entries keep their literal node for the next push */
	if (n->stack.n < n->stack_made)
		o = &n->stack.at[n->stack.n++];
	else {
		o = ca_vec_push(&n->stack);
		memset(o, 0, sizeof *o);
		n->stack_made++;
	}
	ca_neg_ovr_bind(o, &n->arena, ad, name);
	ca_neg_ovr_put(o, v);
}

/* Undo the temporary values down to mark, newest first. */
void
ca_neg_tmp_undo(ca_neg *n, uint32_t mark)
{
	while (n->stack.n > mark)
		ca_neg_ovr_undo(&n->stack.at[--n->stack.n]);
}

static const ca_neg *sorting;	/* qsort has no argument for the comparator */
static ca_neg_cmp *sort_cmp;

static int
sort_trampoline(const void *a, const void *b)
{
	return sort_cmp(sorting, *(const uint32_t *)a, *(const uint32_t *)b);
}

void
ca_neg_sort(const ca_neg *n, uint32_t *v, size_t cnt, ca_neg_cmp *cmp)
{
	if (cnt < 2)
		return;		/* v may be NULL then */
	sorting = n;
	sort_cmp = cmp;
	qsort(v, cnt, sizeof *v, sort_trampoline);
	sorting = NULL;
}

/* ---- the expression store ---- */

/* The stored tree equal to e (a copy in the store's arena when new). */
static ca_expr *
estore_get(estore *st, const ca_expr *e)
{
	uint64_t h = ca_expr_hash(0, e, CA_SAME_SPELLING);
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&st->index, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&st->index, &it))
		if (st->v.at[i].h == h && ca_expr_same(st->v.at[i].e, e, CA_SAME_SPELLING))
			return (ca_expr *)st->v.at[i].e;
	ca_expr *c = ca_expr_copy(&st->arena, e);
	ca_dict_add(&st->index, h, (uint32_t)st->v.n);
	*ca_vec_push(&st->v) = (struct stored){ c, h };
	return c;
}

static void
estore_free(estore *st)
{
	ca_vec_free(&st->v);
	ca_dict_free(&st->index);
	ca_arena_free(&st->arena);
}

/* ---- configuration ---- */

ca_neg *
ca_neg_new(ca_ctx *cx, ca_acct *acct)
{
	ca_neg *n = ca_xcalloc(1, sizeof *n);
	ca_diag perr;

	n->cx = cx;
	n->acct = acct;
	n->pol.consider_preemption = true;
	n->pol.pre_job_rank = ca_parse_expr(&n->arena, def_pre_job_rank,
	    sizeof def_pre_job_rank - 1, 0, &perr);
	n->pol.post_job_rank = ca_parse_expr(&n->arena, def_post_job_rank,
	    sizeof def_post_job_rank - 1, 0, &perr);
	n->pol.preemption_rank = ca_parse_expr(&n->arena, def_preemption_rank,
	    sizeof def_preemption_rank - 1, 0, &perr);
	n->pol.group_sort = ca_parse_expr(&n->arena, def_group_sort, sizeof def_group_sort - 1,
	    0, &perr);
	n->pol.pr_stable = n->pol.prank_stable = true;
	n->pol.claim_leftovers = true;
	n->pol.cross_slot_prios = true;
	n->pol.weighted_demand = true;
	n->pol.rr_rate = 1e100;
	n->pol.slot_prefix = "slot";
	for (int i = 0; i < 3; i++)
		n->cons_default[i] = ca_parse_expr(&n->arena, def_consumption[i],
		    strlen(def_consumption[i]), 0, &perr);
	ca_groups_init(&n->groups);
	n->warn = (strbuf)STRBUF_INIT;
	n->explain_job = NONE;
	n->turn_sub = NONE;
	n->mad_job = NONE;
	n->n_cpus = ca_intern("Cpus", 4);
	n->n_mem = ca_intern("Memory", 6);
	n->n_disk = ca_intern("Disk", 4);
	n->n_climits = ca_intern("ConcurrencyLimits", 17);
	n->n_qdate = ca_intern("QDate", 5);
	for (int k = 0; k < NS_N; k++)
		n->ns[k] = ca_intern(slot_names[k], strlen(slot_names[k]));
	for (int k = 0; k < EPH_R_N; k++)
		n->n_eph_r[k] = ca_intern(ca_neg_eph_r_names[k], strlen(ca_neg_eph_r_names[k]));
	for (const char *const *r = ca_neg_record_names; *r; r++)
		ca_intern(*r, strlen(*r));
	return n;
}

const ca_neg_policy *
ca_neg_get_policy(const ca_neg *n)
{
	return &n->pol;
}

/* An expression knob: defined and non-empty replaces *out; defined but
 * empty sets *empty (when not NULL) and *out = NULL. */
static int
expr_knob(ca_neg *n, ca_config *cfg, const char *name, const ca_expr **out, bool *empty,
    ca_diag *err)
{
	ca_expr *e = NULL;
	int rc = ca_config_expr(cfg, name, &n->arena, 0, &e, err);

	if (rc < 0)
		return -1;
	if (rc > 0)
		*out = e;
	else if (ca_config_defined(cfg, name)) {
		*out = NULL;
		if (empty)
			*empty = true;
	}
	return 0;
}

static bool
prefix_ci(const char *s, const char *p)
{
	return strncasecmp(s, p, strlen(p)) == 0;
}

/* CONSUMPTION_<R>, SLOT_TYPE_<N>_CONSUMPTION_POLICY and _<R>. */
static int
consumption_knobs(ca_neg *n, ca_config *cfg, ca_diag *err)
{
	size_t cnt = ca_config_count(cfg);

	n->cpk = ca_arena_array(&n->arena, cnt + 1, sizeof *n->cpk);
	for (size_t i = 0; i < cnt; i++) {
		const char *name = ca_config_name_at(cfg, i), *p = name;
		int type = -1;
		if (prefix_ci(p, "NEGOTIATOR."))
			p += strlen("NEGOTIATOR.");
		if (prefix_ci(p, "SLOT_TYPE_")) {
			char *end;
			long t = strtol(p + 10, &end, 10);
			if (end == p + 10 || t < 0 || t > 100000 || !prefix_ci(end, "_CONSUMPTION_"))
				continue;
			type = (int)t;
			p = end + 1;
		}
		if (!prefix_ci(p, "CONSUMPTION_") || p[12] == '\0')
			continue;
		struct cpknob *k = &n->cpk[n->ncpk];
		k->type = type;
		if (strcasecmp(p + 12, "POLICY") == 0) {
			k->res = NULL;
			if (ca_config_bool(cfg, name, &k->on, err) < 0)
				return -1;
			if (ca_config_defined(cfg, name))
				n->ncpk++;
			continue;
		}
		ca_expr *e = NULL;
		int rc = ca_config_expr(cfg, name, &n->arena, 0, &e, err);
		if (rc < 0)
			return -1;
		if (rc == 0)
			continue;
		k->res = ca_arena_strndup(&n->arena, p + 12, strlen(p + 12));
		k->e = e;
		n->ncpk++;
	}
	return 0;
}

/* SIGNIFICANT_ATTRIBUTES: job attribute names separated by commas or
 * blanks. */
static int
sigattr_knob(ca_neg *n, ca_config *cfg, ca_diag *err)
{
	strbuf sb = STRBUF_INIT;
	int rc = ca_config_string(cfg, "SIGNIFICANT_ATTRIBUTES", &sb, err);

	if (rc > 0) {
		n->pol.sigattrs = ca_arena_array(&n->arena, sb.len / 2 + 1, sizeof *n->pol.sigattrs);
		for (const char *q = sb.buf; *q;) {
			q += strspn(q, ", \t\n");
			size_t len = strcspn(q, ", \t\n");
			if (len > 0)
				n->pol.sigattrs[n->pol.nsigattrs++] = ca_intern(q, len);
			q += len;
		}
	}
	strbuf_release(&sb);
	return rc < 0 ? -1 : 0;
}

/* The knobs of HTCondor's negotiator loop beyond the expressions. */
static int
loop_knobs(ca_neg *n, ca_config *cfg, ca_diag *err)
{
	ca_neg_policy *p = &n->pol;
	strbuf sb = STRBUF_INIT;
	int rc;

	if (ca_config_bool(cfg, "NEGOTIATOR_DEPTH_FIRST", &p->depth_first, err) < 0 ||
	    ca_config_bool(cfg, "CLAIM_PARTITIONABLE_LEFTOVERS", &p->claim_leftovers, err) < 0 ||
	    ca_config_bool(cfg, "PREEMPTION_REQUIREMENTS_STABLE", &p->pr_stable, err) < 0 ||
	    ca_config_bool(cfg, "PREEMPTION_RANK_STABLE", &p->prank_stable, err) < 0 ||
	    ca_config_bool(cfg, "NEGOTIATOR_IGNORE_USER_PRIORITIES", &p->ignore_user_prio,
	    err) < 0 ||
	    ca_config_bool(cfg, "NEGOTIATOR_CROSS_SLOT_PRIOS", &p->cross_slot_prios, err) < 0 ||
	    ca_config_bool(cfg, "NEGOTIATOR_USE_WEIGHTED_DEMAND", &p->weighted_demand, err) < 0 ||
	    ca_config_real(cfg, "GROUP_QUOTA_ROUND_ROBIN_RATE", &p->rr_rate, err) < 0)
		return -1;
	if (!(p->rr_rate >= 1)) {
		/* a value in a file (the built-in one is fine) */
		ca_config_locate(cfg, "GROUP_QUOTA_ROUND_ROBIN_RATE", err);
		snprintf(err->msg, sizeof err->msg,
		    "GROUP_QUOTA_ROUND_ROBIN_RATE must be a number of at least 1");
		return -1;
	}
	if (expr_knob(n, cfg, "GROUP_SORT_EXPR", &p->group_sort, NULL, err) < 0 ||
	    expr_knob(n, cfg, "NEGOTIATOR_SLOT_CONSTRAINT", &p->slot_constraint, NULL, err) < 0 ||
	    expr_knob(n, cfg, "NEGOTIATOR_JOB_CONSTRAINT", &p->job_constraint, NULL, err) < 0 ||
	    expr_knob(n, cfg, "NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT", &p->poolsize_constraint,
	    NULL, err) < 0 || sigattr_knob(n, cfg, err) < 0)
		return -1;
	if (p->group_sort == NULL)	/* defined empty: HTCondor's */
		p->group_sort = ca_parse_expr(&n->arena, def_group_sort,
		    sizeof def_group_sort - 1, 0, err);
	if ((rc = ca_config_string(cfg, "STARTD_RESOURCE_PREFIX", &sb, err)) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	if (rc > 0)
		p->slot_prefix = ca_arena_strndup(&n->arena, sb.buf, sb.len);
	strbuf_release(&sb);
	return 0;
}

int
ca_neg_configure(ca_neg *n, ca_config *cfg, ca_diag *err)
{
	bool pr_empty = false;

	ca_config_set_subsys(cfg, "NEGOTIATOR");
	if (expr_knob(n, cfg, "PREEMPTION_REQUIREMENTS", &n->pol.preemption_req, &pr_empty,
	    err) < 0 ||
	    expr_knob(n, cfg, "PREEMPTION_RANK", &n->pol.preemption_rank, NULL, err) < 0 ||
	    expr_knob(n, cfg, "NEGOTIATOR_PRE_JOB_RANK", &n->pol.pre_job_rank, NULL, err) < 0 ||
	    expr_knob(n, cfg, "NEGOTIATOR_POST_JOB_RANK", &n->pol.post_job_rank, NULL, err) < 0)
		return -1;
	n->pr_always = pr_empty;
	if (ca_config_bool(cfg, "NEGOTIATOR_CONSIDER_PREEMPTION", &n->pol.consider_preemption,
	    err) < 0 ||
	    ca_config_bool(cfg, "NEGOTIATOR_CONSIDER_EARLY_PREEMPTION",
	    &n->pol.early_preemption, err) < 0 ||
	    ca_config_bool(cfg, "ALLOW_PSLOT_PREEMPTION", &n->pol.pslot_preemption, err) < 0 ||
	    ca_config_bool(cfg, "NEGOTIATE_ALL_JOBS_IN_CLUSTER", &n->pol.all_jobs_in_cluster,
	    err) < 0 ||
	    ca_config_bool(cfg, "CONSUMPTION_POLICY", &n->pol.consumption_policy, err) < 0)
		return -1;
	if (loop_knobs(n, cfg, err) < 0 || consumption_knobs(n, cfg, err) < 0 ||
	    ca_groups_config(&n->groups, cfg, err) < 0)
		return -1;
	strbuf_adds(&n->warn, n->groups.warnings.buf);
	return 0;
}

const char *
ca_neg_warnings(const ca_neg *n)
{
	return n->warn.buf;
}

const ca_groups *
ca_neg_groups(const ca_neg *n)
{
	return &n->groups;
}

void
ca_neg_explain(ca_neg *n, const char *jobid)
{
	n->explain_id = ca_arena_strndup(&n->arena, jobid, strlen(jobid));
}

/* ---- adding ads ---- */

void
ca_neg_add_slot(ca_neg *n, ca_ad *ad)
{
	struct slot *s = ca_vec_push(&n->slots);

	memset(s, 0, sizeof *s);
	s->ad = ad;
}

/* The job ad rebuilt with every expression taken from the store. owned
 * (ad itself, or NULL when the caller keeps ad) is freed before the new one
 * is made, which then takes its place in memory (built beside it, 100,000
 * job ads left a third of the heap in holes). */
static ca_ad *
compact(ca_neg *n, const ca_ad *ad, ca_ad *owned)
{
	n->staging.n = 0;
	for (uint32_t i = 0; i < ad->n; i++) {
		const ca_attr *at = &ad->attrs[i];
		const char *spell = ca_attr_spell(at);
		/* a value ad holds gets no node made in ad, whose look-ups
		 * would then fetch it */
		ca_expr tmp;
		const ca_expr *e = ca_attr_expr_in(at, &tmp);
		*ca_vec_push(&n->staging) = (struct staged){ ca_attr_name(at),
		    spell == ca_attr_name(at)->spell ? NULL : spell,
		    estore_get(&n->store, e != NULL ? e : ca_attr_expr(ad, at)) };
		ca_nameset_add(&n->jobnames, ca_attr_name(at));
	}
	ca_ad_free(owned);
	ca_ad *c = ca_ad_new();
	for (size_t i = 0; i < n->staging.n; i++)
		ca_ad_set(c, n->staging.at[i].name, n->staging.at[i].spell, n->staging.at[i].e);
	ca_ad_trim(c);
	return c;
}

/* Job ad into the cycle; owned is ad when the negotiator took it, NULL
 * when the caller keeps it. */
static void
add_job(ca_neg *n, const ca_ad *ad, ca_ad *owned)
{
	char buf[CA_JOBID_LEN];
	size_t index = n->seen_jobs++;
	ca_value st = ca_eval_attr(n->cx, ad, NULL, "JobStatus");
	bool idle = st.kind == CA_UNDEFINED || (st.kind == CA_INT && st.u.i == 1);

	/* a job without ClusterId and ProcId is named by its place */
	if (!ca_jobid(n->cx, ad, buf, sizeof buf))
		snprintf(buf, sizeof buf, "#%zu", index);
	bool followed = n->explain_id != NULL && strcmp(buf, n->explain_id) == 0;
	if (followed && !idle)
		*ca_vec_push(&n->not_idle) = ca_value_copy_into(&n->arena, st);
	ca_arena_reset(&n->cx->scratch);
	/* the schedd offers only the jobs NEGOTIATOR_JOB_CONSTRAINT allows */
	if (idle && n->pol.job_constraint != NULL &&
	    !ca_match_req(n->cx, n->pol.job_constraint, ad, NULL)) {
		idle = false;
		n->followed_excluded |= followed;
	}
	ca_arena_reset(&n->cx->scratch);
	if (!idle) {
		ca_ad_free(owned);
		return;
	}
	struct job *j = ca_vec_push(&n->jobs);
	memset(j, 0, sizeof *j);
	j->ad = compact(n, ad, owned);
	j->id = ca_arena_strndup(&n->arena, buf, strlen(buf));
	j->match = NONE;
	j->left = NONE;
	j->last = NONE;
	if (followed && n->explain_job == NONE)
		n->explain_job = (uint32_t)(n->jobs.n - 1);
}

void
ca_neg_add_job(ca_neg *n, ca_ad *ad)
{
	add_job(n, ad, ad);
}

void
ca_neg_offer_job(ca_neg *n, const ca_ad *ad)
{
	add_job(n, ad, NULL);
}

/* ---- preparing the cycle: slots ---- */

static int
state_of(const char *s, size_t len)
{
	static const struct { const char *name; int st; } t[] = {
		{ "Unclaimed", ST_UNCLAIMED }, { "Owner", ST_OWNER }, { "Backfill", ST_BACKFILL },
		{ "Claimed", ST_CLAIMED }, { "Preempting", ST_PREEMPTING },
		{ "Matched", ST_MATCHED }, { "Drained", ST_DRAINED }
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strlen(t[i].name) == len && memcmp(s, t[i].name, len) == 0)
			return t[i].st;
	return ST_OTHER;
}

/* Whether string attribute name of ad is the text want. */
static bool
str_is(ca_neg *n, const ca_ad *ad, const ca_name *name, const char *want)
{
	const char *s;
	size_t len;

	return str_nm(n, ad, name, &s, &len) && strlen(want) == len &&
	    memcmp(s, want, len) == 0;
}

/* The slot of a dynamic slot's name "slotN_M@host": "slotN@host". */
static void
parent_name(const char *name, strbuf *sb)
{
	const char *at = strrchr(name, '@');
	size_t end = at ? (size_t)(at - name) : strlen(name), us = end;

	strbuf_reset(sb);
	while (us > 0 && name[us - 1] != '_')
		us--;
	if (us == 0)
		return;
	strbuf_add(sb, name, us - 1);
	if (at)
		strbuf_adds(sb, at);
}

/* A claimed (or preempting, or matched) slot: who runs what there, and
 * its current rank. */
static void
prepare_claim(ca_neg *n, struct slot *s)
{
	const char *id;
	size_t len;
	char buf[CA_JOBID_LEN];

	s->remote = ca_neg_remote_of(n, s->ad, s->job);
	if (ca_neg_str(n, s->ad, "JobId", &id, &len))
		s->remote_job = ca_arena_strndup(&n->arena, id, len);
	else if (s->job != NULL && ca_jobid(n->cx, s->job, buf, sizeof buf))
		s->remote_job = ca_arena_strndup(&n->arena, buf, strlen(buf));
	ca_value pr = ca_eval_attr(n->cx, s->ad, NULL, "PreemptingRank");
	ca_value cr = ca_eval_attr(n->cx, s->ad, NULL, "CurrentRank");
	if (ca_is_num(pr))
		s->cur_rank = ca_rank_number(pr);
	else if (cr.kind != CA_UNDEFINED)
		s->cur_rank = ca_rank_number(cr);
	else if (s->job != NULL)
		s->cur_rank = ca_match_rank(n->cx, ca_ad_lookup(s->ad, "Rank"), s->ad, s->job);
	ca_arena_reset(&n->cx->scratch);
}

/* What keeps a slot from every job, or K_OK. */
static uint8_t
slot_skip(ca_neg *n, const struct slot *s)
{
	if (s->state == ST_CLAIMED && !s->running)
		return K_CLAIMED_IDLE;
	if (s->state == ST_PREEMPTING)
		return K_PREEMPTING;
	if (s->state == ST_MATCHED)
		return K_MATCHED;
	if (s->state == ST_DRAINED)
		return K_DRAINED;
	if (s->running && !n->pol.consider_preemption)
		return K_NOCONSIDER;
	if (s->running && !n->pol.early_preemption &&
	    ca_neg_num(n, s->ad, "RetirementTimeRemaining", 0) > 0)
		return K_RETIRING;
	if (s->dslot && n->pol.pslot_preemption)
		return K_DSLOT;
	return K_OK;
}

static void
prepare_slot(ca_neg *n, uint32_t i)
{
	struct slot *s = &n->slots.at[i];
	ca_ad *ad = s->ad;
	const char *v;
	size_t len;

	s->parent = NONE;
	s->remote = NONE;
	s->taken_by = NONE;
	if (str_nm(n, ad, n->ns[NS_NAME], &v, &len))
		s->name = ca_arena_strndup(&n->arena, v, len);
	else {
		char buf[32];
		snprintf(buf, sizeof buf, "<slot %u>", i);
		s->name = ca_arena_strndup(&n->arena, buf, strlen(buf));
	}
	s->state = str_nm(n, ad, n->ns[NS_STATE], &v, &len) ? (uint8_t)state_of(v, len) :
	    ST_UNCLAIMED;
	bool idle_act = !str_nm(n, ad, n->ns[NS_ACTIVITY], &v, &len) ||
	    (len == 4 && memcmp(v, "Idle", 4) == 0) || (len == 8 && memcmp(v, "Cleaning", 8) == 0);
	s->pslot = is_true(n, ad, n->ns[NS_PSLOT]) ||
	    str_is(n, ad, n->ns[NS_SLOTTYPE], "Partitionable");
	s->dslot = !s->pslot && (is_true(n, ad, n->ns[NS_DSLOT]) ||
	    str_is(n, ad, n->ns[NS_SLOTTYPE], "Dynamic"));
	ca_value jv = ca_eval_attr_nm(n->cx, ad, NULL, n->ns[NS_JOB]);
	if (jv.kind == CA_AD)
		s->job = jv.u.ad->ad;
	s->running = s->state == ST_CLAIMED && !idle_act && !s->pslot;
	s->weight = ca_neg_slot_weight(n, ad);
	if (i == 0 || s->weight < n->min_weight)
		n->min_weight = s->weight;
	double tot = 0;
	if (ca_get_num_nm(n->cx, ad, n->ns[NS_TOTALSLOTS], &tot) == 1 && tot > n->most_slots)
		n->most_slots = tot < 4096 ? (int64_t)tot : 4096;
	/* NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT: which slots make up the pie */
	if (n->pol.poolsize_constraint == NULL ||
	    ca_match_req(n->cx, n->pol.poolsize_constraint, ad, NULL)) {
		n->pool += s->weight;
		n->sized++;
	}
	ca_arena_reset(&n->cx->scratch);

	if (s->state == ST_CLAIMED || s->state == ST_PREEMPTING || s->state == ST_MATCHED)
		prepare_claim(n, s);
	if (s->remote != NONE && (s->state == ST_CLAIMED || s->state == ST_PREEMPTING)) {
		n->custs.at[s->remote].usage0 += s->weight;
		n->custs.at[s->remote].running++;
	}
	/* the concurrency limits its claims hold */
	ca_acct_slot_limits(n->acct, n->cx, ad, &n->limits);
	s->skip = slot_skip(n, s);
	if (s->pslot)
		ca_neg_setup_cp(n, s);
	n->has_cp |= s->cp;
	ca_arena_reset(&n->cx->scratch);
}

/* NEGOTIATOR_SLOT_CONSTRAINT: the slots it does not allow are not part of
 * the cycle at all (HTCondor's negotiator does not fetch them). */
static void
filter_slots(ca_neg *n)
{
	uint32_t kept = 0;

	if (n->pol.slot_constraint == NULL)
		return;
	for (uint32_t i = 0; i < n->slots.n; i++) {
		ca_ad *ad = n->slots.at[i].ad;
		if (ca_match_req(n->cx, n->pol.slot_constraint, ad, NULL))
			n->slots.at[kept++] = n->slots.at[i];
		else
			ca_ad_free(ad);
		ca_arena_reset(&n->cx->scratch);
	}
	n->slots.n = kept;
}

static void
prepare_slots(ca_neg *n)
{
	strbuf sb = STRBUF_INIT;
	ca_dict names = CA_DICT_INIT;
	uint32_t ns = (uint32_t)n->slots.n;

	for (uint32_t i = 0; i < ns; i++) {
		prepare_slot(n, i);
		const char *nm = n->slots.at[i].name;
		ca_dict_add(&names, ca_neg_name_hash(nm, strlen(nm)), i);
	}
	/* a poolsize constraint no slot meets leaves the pool whole */
	if (n->sized == 0 && n->pol.poolsize_constraint != NULL)
		for (uint32_t i = 0; i < ns; i++)
			n->pool += n->slots.at[i].weight;
	/* dynamic slots under their partitionable slot */
	for (uint32_t i = 0; i < ns; i++) {
		struct slot *s = &n->slots.at[i];
		ca_dict_it it;
		if (!s->dslot)
			continue;
		parent_name(s->name, &sb);
		if (sb.len == 0)
			continue;
		for (uint32_t k = ca_dict_first(&names, ca_neg_name_hash(sb.buf, sb.len), &it);
		    k != CA_DICT_NONE; k = ca_dict_next(&names, &it)) {
			struct slot *p = &n->slots.at[k];
			if (p->pslot && strcmp(p->name, sb.buf) == 0) {
				s->parent = k;
				*ca_vec_push(&p->kids) = i;
				break;
			}
		}
	}
	ca_dict_free(&names);
	strbuf_release(&sb);
	n->cpslots = ca_xcalloc(ns + 1, sizeof *n->cpslots);
	n->pslots = ca_xcalloc(ns + 1, sizeof *n->pslots);
	for (uint32_t i = 0; i < ns; i++) {
		if (n->slots.at[i].cp) {
			n->slots.at[i].cpi = n->ncp;
			n->cpslots[n->ncp++] = i;
		}
		else if (n->slots.at[i].pslot && n->slots.at[i].kids.n > 0)
			n->pslots[n->npk++] = i;
	}
}

/* ---- preparing the cycle: jobs ---- */

/* A job's demand in slot weights: SLOT_WEIGHT of a slot the size of its
 * request (req is a scratch ad for that). */
static double
job_weight(ca_neg *n, struct job *j, ca_ad *req)
{
	double cpus = ca_neg_num(n, j->ad, "RequestCpus", 1);

	if (!n->acct->pol.use_slot_weights)
		return 1.0;
	if (n->acct->pol.slot_weight == NULL)
		return cpus > 0 ? cpus : 1.0;
	ca_ad_set(req, n->n_cpus, NULL, ca_expr_lit(req->arena, ca_real(cpus)));
	ca_ad_set(req, n->n_mem, NULL, ca_expr_lit(req->arena,
	    ca_real(ca_neg_num(n, j->ad, "RequestMemory", 0))));
	ca_ad_set(req, n->n_disk, NULL, ca_expr_lit(req->arena,
	    ca_real(ca_neg_num(n, j->ad, "RequestDisk", 0))));
	double w = ca_neg_slot_weight(n, req);
	return w > 0 ? w : 1.0;
}

/* The first Request* attribute of the job (RequestCpus, RequestMemory,
 * RequestDisk, RequestGPUs, ...) that evaluates to a negative number: a
 * request no partitionable slot can carve, or NULL. */
static const ca_name *
negative_request(ca_neg *n, const ca_ad *ad)
{
	const ca_name *found = NULL;

	for (uint32_t i = 0; i < ad->n && found == NULL; i++) {
		const ca_attr *at = &ad->attrs[i];
		if (ca_attr_name(at)->len <= 7 || strncasecmp(ca_attr_name(at)->key, "Request", 7) != 0)
			continue;
		ca_value v = ca_eval_expr(n->cx, ca_attr_expr(ad, at), ad, NULL);
		if ((v.kind == CA_INT && v.u.i < 0) || (v.kind == CA_REAL && v.u.r < 0))
			found = ca_attr_name(at);
	}
	ca_arena_reset(&n->cx->scratch);
	return found;
}

/* The text of a limits list, lower-cased, in the scratch arena. */
static const char *
lower_copy(ca_neg *n, const char *s, size_t len)
{
	char *c = ca_arena_strndup(&n->cx->scratch, s, len);

	for (size_t i = 0; i < len; i++)
		c[i] = (char)tolower((unsigned char)c[i]);
	return c;
}

/* A job's ConcurrencyLimits as HTCondor's negotiator takes it: a string
 * when it evaluates to one in the job alone, else (it refers to the slot)
 * evaluated against each slot. */
static void
job_limits_of(ca_neg *n, struct job *j)
{
	const ca_attr *at = ca_ad_find(j->ad, n->n_climits);

	if (at == NULL)
		return;
	ca_value v = ca_eval_expr(n->cx, ca_attr_expr(j->ad, at), j->ad, NULL);
	if (v.kind == CA_STRING) {
		if (v.x.len > 0) {
			j->climits = ca_arena_strndup(&n->arena, lower_copy(n, v.u.s, v.x.len),
			    v.x.len);
			j->climits_len = v.x.len;
		}
	} else
		j->climits_dyn = true;
}

bool
ca_neg_job_limits(ca_neg *n, const struct job *j, const struct slot *s, const char **list,
    size_t *len)
{
	if (s == NULL || !j->climits_dyn) {
		*list = j->climits;
		*len = j->climits_len;
		return j->climits != NULL;
	}
	ca_value v = ca_eval_attr(n->cx, j->ad, s->ad, "ConcurrencyLimits");
	if (v.kind != CA_STRING || v.x.len == 0)
		return false;
	*list = lower_copy(n, v.u.s, v.x.len);
	*len = v.x.len;
	return true;
}

/* The groups cluster skipping works on: a submitter's jobs of one ClusterId,
 * or with SIGNIFICANT_ATTRIBUTES those whose definitions of these names
 * are equal (the stored trees are shared, so equal is the same pointer);
 * none with NEGOTIATE_ALL_JOBS_IN_CLUSTER. */
static void
prepare_skipgroups(ca_neg *n)
{
	const ca_neg_policy *p = &n->pol;
	ca_dict table = CA_DICT_INIT;

	for (uint32_t j = 0; j < n->jobs.n; j++) {
		struct job *jb = &n->jobs.at[j];
		uint64_t h = ca_hash_mix(0, jb->sub);
		ca_dict_it it;

		jb->grp = NONE;
		if (p->all_jobs_in_cluster)
			continue;
		if (p->sigattrs == NULL)
			h = ca_hash_mix(h, (uint64_t)jb->cluster);
		for (size_t k = 0; k < p->nsigattrs; k++) {
			ca_attr *at = ca_ad_find(jb->ad, p->sigattrs[k]);
			h = ca_hash_mix(h, (uint64_t)(uintptr_t)(at ? ca_attr_expr(jb->ad, at) : NULL));
		}
		for (uint32_t q = ca_dict_first(&table, h >> 11, &it); q != CA_DICT_NONE &&
		    jb->grp == NONE; q = ca_dict_next(&table, &it)) {
			const struct job *o = &n->jobs.at[q];
			bool same = o->sub == jb->sub && (p->sigattrs != NULL || o->cluster == jb->cluster);
			for (size_t k = 0; same && k < p->nsigattrs; k++) {
				ca_attr *x = ca_ad_find(o->ad, p->sigattrs[k]);
				ca_attr *y = ca_ad_find(jb->ad, p->sigattrs[k]);
				same = (x ? ca_attr_expr(o->ad, x) : NULL) == (y ? ca_attr_expr(jb->ad, y) : NULL);
			}
			if (same)
				jb->grp = o->grp;
		}
		if (jb->grp == NONE) {
			jb->grp = (uint32_t)n->grps.n;
			memset(ca_vec_push(&n->grps), 0, sizeof(struct skipgrp));
			ca_dict_add(&table, h >> 11, j);
		}
	}
	ca_dict_free(&table);
}

static void
prepare_jobs(ca_neg *n)
{
	static const char *const prio_names[5] = {
		"PreJobPrio1", "PreJobPrio2", "JobPrio", "PostJobPrio1", "PostJobPrio2"
	};
	ca_ad *req = ca_ad_new();

	for (uint32_t i = 0; i < n->jobs.n; i++) {
		struct job *j = &n->jobs.at[i];
		j->sub = ca_neg_submitter_of(n, j->ad);
		for (int k = 0; k < 5; k++)
			j->prio[k] = ca_neg_num(n, j->ad, prio_names[k], 0);
		j->cluster = (int64_t)ca_neg_num(n, j->ad, "ClusterId", 0);
		j->proc = (int64_t)ca_neg_num(n, j->ad, "ProcId", 0);
		j->qdate = ca_neg_num(n, j->ad, "QDate", 0);
		j->weight = job_weight(n, j, req);
		j->negreq = negative_request(n, j->ad);
		job_limits_of(n, j);
		ca_arena_reset(&n->cx->scratch);
		*ca_vec_push(&n->custs.at[j->sub].jobs) = i;
	}
	ca_ad_free(req);
	ca_neg_order_jobs(n);
	prepare_skipgroups(n);
}

/* ---- preparing the cycle: keys ---- */

/* Names of one side that the negotiator's expressions reach. */
struct refs {
	ca_nameset *set;	/* NULL: only note that the side is reached */
	int side;
	bool other;
};

static void
ref_collect(void *arg, const ca_name *nm, int side)
{
	struct refs *r = arg;

	if (side != r->side)
		return;
	r->other = true;
	if (r->set)
		ca_nameset_add(r->set, nm);
}

static bool
sig_equal(const ca_neg *n, uint32_t a, uint32_t b)
{
	return memcmp(n->sigs + a, n->sigs + b, n->nsig * sizeof *n->sigs) == 0;
}

static bool close_over_jobs(ca_neg *n, ca_nameset *set);

/* The job names the negotiator's expressions reach, through the slots and
 * the jobs' own definitions; true when they cannot be known. The same walk
 * finds which slots' NEGOTIATOR_PRE/POST_JOB_RANK no job attribute can
 * change: those are evaluated once, when a job first asks
 * (ca_neg_fixed_rank). */
static bool
signature_names(ca_neg *n)
{
	const ca_expr *exprs[4] = {
		n->pol.pre_job_rank, n->pol.post_job_rank, n->pol.preemption_req,
		n->pol.preemption_rank
	};
	bool dynamic = false;

	/* jobs alike name the same concurrency limits */
	if (ca_nameset_has(&n->jobnames, n->n_climits))
		ca_nameset_add(&n->signames, n->n_climits);
	/* the slots of a kind reach the same names: one is walked */
	ca_walkkinds kinds = { 0 };
	ca_nameset looked = { CA_VEC_INIT, CA_DICT_INIT }, names = { CA_VEC_INIT, CA_DICT_INIT };
	uint8_t fixed_of[CA_WALKKINDS];	/* of a kind: 1 << k when rank k is fixed */
	for (uint32_t i = 0; i < n->slots.n; i++) {
		struct slot *s = &n->slots.at[i];
		int kind = ca_walkkinds_find(&kinds, s->ad);
		uint8_t fx = kind >= 0 ? fixed_of[kind] : 0;
		if (kind < 0) {
			ca_nameset_clear(&looked);
			for (int k = 0; k < 4; k++) {
				/* the job names it reaches; a rank (k < 2) none of
				 * whose names a job has is fixed */
				struct refs r = { &names, CA_REF_OTHER, false };
				ca_nameset_clear(&names);
				bool dyn = exprs[k] && ca_expr_refs_looked(exprs[k], s->ad,
				    CA_REFS_DEEP, ref_collect, &r, &looked);
				bool fixed = !dyn;
				dynamic |= dyn;
				for (uint32_t q = 0; q < names.v.n; q++) {
					ca_nameset_add(&n->signames, names.v.at[q]);
					if (ca_nameset_has(&n->jobnames, names.v.at[q]))
						fixed = false;
				}
				if (k < 2)
					fx |= (uint8_t)(fixed << k);
			}
			if ((kind = ca_walkkinds_note(&kinds, -1, s->ad, &looked)) >= 0)
				fixed_of[kind] = fx;
		}
		s->pre_fixed = fx & 1;
		s->post_fixed = fx >> 1 & 1;
	}
	ca_walkkinds_free(&kinds);
	ca_nameset_free(&looked);
	ca_nameset_free(&names);
	if (close_over_jobs(n, &n->signames))
		dynamic = true;
	n->nsig = (uint32_t)n->signames.v.n;
	return dynamic;
}

/* To the job names in set, what the jobs' definitions of them reach in
 * the job; true when that cannot be known. */
static bool
close_over_jobs(ca_neg *n, ca_nameset *set)
{
	struct refs r = { set, CA_REF_SELF, false };
	bool dynamic = false;

	for (uint32_t done = 0; done < set->v.n; done++) {
		const ca_name *nm = set->v.at[done];
		const ca_expr *last = NULL;
		for (uint32_t j = 0; j < n->jobs.n; j++) {
			ca_attr *at = ca_ad_find(n->jobs.at[j].ad, nm);
			if (at == NULL || ca_attr_expr(n->jobs.at[j].ad, at) == last)
				continue;	/* shared trees: walked once */
			last = ca_attr_expr(n->jobs.at[j].ad, at);
			if (ca_expr_refs(ca_attr_expr(n->jobs.at[j].ad, at), n->jobs.at[j].ad, 0, ref_collect, &r))
				dynamic = true;
		}
	}
	return dynamic;
}

/* The job names a consumption-policy slot's candidate reads beyond the
 * key's (struct key's twins): the requests, and what the Consumption
 * expressions reach in the job, closed over the jobs' definitions. A slot
 * of a kind already walked, with the same expressions, reaches the same
 * names. True when what they reach cannot be known. */
static bool
cp_names(ca_neg *n, ca_nameset *set)
{
	struct refs r = { set, CA_REF_OTHER, false };
	ca_walkkinds kinds = { 0 };
	ca_nameset looked = { CA_VEC_INIT, CA_DICT_INIT };
	const struct slot *walked[CA_WALKKINDS];	/* the slot each kind was noted for */
	bool dynamic = false;

	for (uint32_t q = 0; q < n->ncp; q++) {
		const struct slot *s = &n->slots.at[n->cpslots[q]];
		for (uint32_t i = 0; i < s->nres; i++)
			ca_nameset_add(set, s->res[i].req);
		int k = ca_walkkinds_find(&kinds, s->ad);
		bool same = k >= 0 && walked[k]->nres == s->nres;
		for (uint32_t i = 0; same && i < s->nres; i++)
			same = walked[k]->res[i].cons == s->res[i].cons;
		if (same)
			continue;
		ca_nameset_clear(&looked);
		for (uint32_t i = 0; i < s->nres; i++)
			if (s->res[i].cons != NULL && ca_expr_refs_looked(s->res[i].cons, s->ad,
			    CA_REFS_DEEP, ref_collect, &r, &looked))
				dynamic = true;
		if (k < 0 && (k = ca_walkkinds_note(&kinds, -1, s->ad, &looked)) >= 0)
			walked[k] = s;
	}
	ca_walkkinds_free(&kinds);
	ca_nameset_free(&looked);
	return close_over_jobs(n, set) || dynamic;
}

/* Attribute nm of job ads a and b: both missing, equal literals, or the
 * same tree. */
static bool
same_def(const ca_ad *a, const ca_ad *b, const ca_name *nm)
{
	ca_attr *x = ca_ad_find(a, nm), *y = ca_ad_find(b, nm);
	ca_value u, v;

	if (x == NULL || y == NULL)
		return x == y;
	if (ca_attr_lit(x, &u) && ca_attr_lit(y, &v))
		return u.kind == v.kind && ca_value_same(u, v);
	return ca_attr_expr(a, x) == ca_attr_expr(b, y);
}

static uint64_t
def_hash(uint64_t h, const ca_ad *ad, const ca_name *nm)
{
	ca_attr *at = ca_ad_find(ad, nm);
	ca_value v;

	if (at == NULL)
		return ca_hash_mix(h, 0);
	if (ca_attr_lit(at, &v))
		return ca_value_hash(h, v);
	return ca_hash_mix(h, (uint64_t)(uintptr_t)ca_attr_expr(ad, at));
}

/* The twins among the keys (struct key). */
static void
prepare_twins(ca_neg *n, bool single)
{
	ca_nameset names = { CA_VEC_INIT, CA_DICT_INIT };
	ca_dict table = CA_DICT_INIT;

	for (uint32_t t = 0; t < n->keys.n; t++)
		n->keys.at[t].twin = t;
	if (single || n->ncp == 0 || n->keys.n < 2 || cp_names(n, &names)) {
		ca_nameset_free(&names);
		return;
	}
	for (uint32_t t = 0; t < n->keys.n; t++) {
		struct key *k = &n->keys.at[t];
		const ca_ad *rep = n->jobs.at[k->rep].ad;
		uint64_t h = ca_hash_mix(ca_hash_mix(0, k->mcl), n->jobs.at[k->rep].negreq != NULL);
		ca_dict_it it;
		for (uint32_t q = 0; q < n->nsig; q++)
			h = ca_hash_mix(h, (uint64_t)(uintptr_t)n->sigs[k->sig + q]);
		for (uint32_t q = 0; q < names.v.n; q++)
			h = def_hash(h, rep, names.v.at[q]);
		for (uint32_t f = ca_dict_first(&table, h >> 11, &it); f != CA_DICT_NONE;
		    f = ca_dict_next(&table, &it)) {
			struct key *o = &n->keys.at[f];
			const ca_ad *orep = n->jobs.at[o->rep].ad;
			bool same = o->mcl == k->mcl && sig_equal(n, o->sig, k->sig) &&
			    (n->jobs.at[o->rep].negreq != NULL) == (n->jobs.at[k->rep].negreq != NULL);
			for (uint32_t q = 0; same && q < names.v.n; q++)
				same = same_def(rep, orep, names.v.at[q]);
			if (same) {
				k->twin = f;
				o->twinned = true;
				break;
			}
		}
		if (k->twin == t)
			ca_dict_add(&table, h >> 11, t);
	}
	ca_dict_free(&table);
	ca_nameset_free(&names);
}

/* The matcher's autoclusters, refined by submitter and by the job
 * attributes the negotiator's expressions reach, make the keys. */
static void
prepare_keys(ca_neg *n)
{
	bool single = signature_names(n);
	ca_dict table = CA_DICT_INIT;

	n->sigs = ca_xreallocarray(NULL, (size_t)n->jobs.n * (n->nsig ? n->nsig : 1) + 1,
	    sizeof *n->sigs);
	for (uint32_t j = 0; j < n->jobs.n; j++) {
		struct job *jb = &n->jobs.at[j];
		uint32_t base = j * n->nsig;
		uint32_t mcl = ca_matcher_cluster_of(n->matcher, jb->mjob), key = NONE;
		uint64_t h = ca_hash_mix(ca_hash_mix(0, jb->sub), mcl);
		ca_dict_it it;

		for (uint32_t k = 0; k < n->nsig; k++) {
			ca_attr *at = ca_ad_find(jb->ad, n->signames.v.at[k]);
			n->sigs[base + k] = at ? ca_attr_expr(jb->ad, at) : NULL;
			h = ca_hash_mix(h, (uint64_t)(uintptr_t)n->sigs[base + k]);
		}
		h = ca_hash_mix(h, jb->negreq != NULL);
		if (single)
			h = ca_hash_mix(h, j);
		/* the low bits of the mix are weak: the table takes higher ones */
		for (uint32_t t = ca_dict_first(&table, h >> 11, &it); t != CA_DICT_NONE && !single;
		    t = ca_dict_next(&table, &it)) {
			struct key *k = &n->keys.at[t];
			if (k->hash == h && k->sub == jb->sub && k->mcl == mcl &&
			    (n->jobs.at[k->rep].negreq != NULL) == (jb->negreq != NULL) &&
			    sig_equal(n, k->sig, base)) {
				key = t;
				break;
			}
		}
		if (key == NONE) {
			key = (uint32_t)n->keys.n;
			struct key *k = ca_vec_push(&n->keys);
			memset(k, 0, sizeof *k);
			k->rep = j;
			k->sub = jb->sub;
			k->mcl = mcl;
			k->sig = base;
			k->hash = h;
			ca_dict_add(&table, h >> 11, key);
		}
		jb->key = key;
	}
	ca_dict_free(&table);
	prepare_twins(n, single);
}

/* Every job into the matcher, then every slot but the consumption policy
 * ones (their matches change as they are consumed). Which slots match an
 * autocluster is found when the negotiation first needs it (ca_neg_hits). */
static void
prepare_hits(ca_neg *n)
{
	const ca_ad **ads = ca_xcalloc(n->slots.n ? n->slots.n : 1, sizeof *ads);

	n->matcher = ca_matcher_new(n->cx, n->cx->strict ? CA_M_STRICT : 0, 0);
	for (uint32_t j = 0; j < n->jobs.n; j++)
		n->jobs.at[j].mjob = ca_matcher_add_job(n->matcher, n->jobs.at[j].ad);
	ca_matcher_prepare(n->matcher);
	/* the Remote* attributes change with the usage as the cycle goes on */
	for (int k = 0; k < EPH_R_N; k++)
		ca_nameset_add(&n->volnames, n->n_eph_r[k]);
	for (uint32_t i = 0; i < n->slots.n; i++)
		for (uint32_t x = 0; x < n->slots.at[i].nxs; x++)
			ca_nameset_add(&n->volnames, n->slots.at[i].xs[x].o.name);
	ca_matcher_volatile(n->matcher, &n->volnames);
	for (uint32_t i = 0; i < n->slots.n; i++)
		ads[i] = n->slots.at[i].cp ? NULL : n->slots.at[i].ad;
	ca_matcher_set_slots(n->matcher, ads, (uint32_t)n->slots.n);
	free(ads);
	n->nclusters = ca_matcher_nclusters(n->matcher);
	n->hits = ca_xcalloc(n->nclusters + 1, sizeof *n->hits);
}

static void
hits_drop(ca_neg *n, struct hitlist *h)
{
	n->hit_bytes -= ca_hits_bytes(&h->hits);
	ca_hits_free(&h->hits);
	h->made = false;
}

/* Autocluster mcl against every slot, as HTCondor's negotiator matches
 * (its match list). A list is kept for the key's later jobs and turns and
 * the other submitters' keys of the cluster, while the lists kept stay
 * under HITS_MAX; beyond, the oldest are let go and made again when
 * needed, which changes nothing but the time. A list holds the slots
 * not taken when it is made (the slots taken are gone for good; whether
 * one of them matched is asked only when a key finds nothing, for its
 * reason). In a submitter's turn the
 * clusters of its next jobs are matched together with mcl (HITS_BATCH of
 * them at most, fewer in a large pool): the slots are then read once for
 * all of them. */
const ca_hits *
ca_neg_hits(ca_neg *n, uint32_t mcl)
{
	struct hitlist *h = &n->hits[mcl];
	uint32_t batch[HITS_BATCH], nb = 0;
	ca_hits lists[HITS_BATCH];

	if (h->made)
		goto out;
	/* a batch of lists that each hold every slot fits in half of HITS_MAX */
	size_t most = HITS_MAX / 2 / ((n->slots.n + 1) * sizeof(ca_hit));
	uint32_t want = most < 1 ? 1 : most > HITS_BATCH ? HITS_BATCH : (uint32_t)most;
	batch[nb++] = mcl;
	if (n->turn_sub != NONE) {
		const struct cust *u = &n->custs.at[n->turn_sub];
		for (size_t q = n->turn_pos + 1; q < u->jobs.n && q < n->turn_pos + 8 * HITS_BATCH &&
		    nb < want; q++) {
			uint32_t c = n->keys.at[n->jobs.at[u->jobs.at[q]].key].mcl;
			bool dup = n->hits[c].made;
			for (uint32_t b = 0; b < nb && !dup; b++)
				dup = batch[b] == c;
			if (!dup)
				batch[nb++] = c;
		}
	}
	ca_matcher_cluster_hits(n->matcher, batch, nb, CA_MH_LIVE, 0, lists);
	for (uint32_t b = 0; b < nb; b++) {
		struct hitlist *x = &n->hits[batch[b]];
		x->hits = lists[b];
		x->made = true;
		n->hit_bytes += ca_hits_bytes(&x->hits);
		*ca_vec_push(&n->made) = batch[b];
	}
	/* the oldest go first; mcl, made first of this batch, stays */
	while (n->hit_bytes > HITS_MAX && n->made.at[n->made_head] != mcl)
		hits_drop(n, &n->hits[n->made.at[n->made_head++]]);
	if (n->made_head > 1024 && n->made_head * 2 > n->made.n) {
		n->made.n -= n->made_head;
		memmove(n->made.at, n->made.at + n->made_head, n->made.n * sizeof *n->made.at);
		n->made_head = 0;
	}
out:
	return &h->hits;
}

bool
ca_neg_hits_some(ca_neg *n, uint32_t mcl)
{
	ca_hits one;

	if (n->hits[mcl].made && n->hits[mcl].hits.n > 0)
		return true;
	ca_matcher_cluster_hits(n->matcher, &mcl, 1, CA_MH_ALL, 1, &one);
	bool some = one.n > 0;
	ca_hits_free(&one);
	return some;
}

void
ca_neg_hits_all(ca_neg *n, uint32_t mcl, ca_hits *all)
{
	ca_matcher_cluster_hits(n->matcher, &mcl, 1, CA_MH_ALL, 0, all);
}

static void
prepare(ca_neg *n)
{
	/* the names ephemeral attributes may take count as job names */
	for (int k = 0; k < EPH_S_N; k++)
		ca_nameset_add(&n->jobnames, ca_intern(ca_neg_eph_s_names[k],
		    strlen(ca_neg_eph_s_names[k])));
	filter_slots(n);
	/* the pool is read: what its arrays grew beyond it would be held
	 * through the cycle for nothing */
	ca_vec_trim(&n->slots);
	ca_vec_trim(&n->jobs);
	prepare_slots(n);
	prepare_jobs(n);
	/* the limits' use at the start, for the summary */
	n->nlimits0 = n->limits.v.n;
	n->limits0 = ca_xcalloc(n->nlimits0 + 1, sizeof *n->limits0);
	for (size_t i = 0; i < n->nlimits0; i++)
		n->limits0[i] = n->limits.v.at[i].count;

	/* groups: quotas of the pool, then demand and usage of each */
	ca_groups_quotas(&n->groups, n->pool);
	/* demand: weighted (slot weights in use and asked for), or with
	 * NEGOTIATOR_USE_WEIGHTED_DEMAND false slots and jobs */
	for (uint32_t c = 0; c < n->custs.n; c++) {
		struct cust *u = &n->custs.at[c];
		u->usage = u->usage0;
		u->group->usage += u->usage0;
		u->group->demand += n->pol.weighted_demand ? u->usage0 : (double)u->running;
	}
	for (uint32_t j = 0; j < n->jobs.n; j++)
		n->custs.at[n->jobs.at[j].sub].group->demand += n->pol.weighted_demand ?
		    n->jobs.at[j].weight : 1.0;
	ca_groups_allocate(&n->groups);

	ca_neg_setup_cross(n);
	for (uint32_t i = 0; i < n->slots.n; i++)
		ca_neg_remote_eph(n, &n->slots.at[i]);
	prepare_hits(n);
	prepare_keys(n);
}

/* ---- the cycle ---- */

void
ca_neg_on_progress(ca_neg *n, ca_neg_progress_fn *fn, void *arg)
{
	n->progress = fn;
	n->progress_arg = arg;
}

size_t
ca_neg_run(ca_neg *n)
{
	if (n->ran)
		return n->matches.n;
	n->ran = true;
	prepare(n);
	ca_neg_spins(n);
	/* jobs no turn reached: the slots were gone, or their group had none */
	for (uint32_t j = 0; j < n->jobs.n; j++) {
		struct job *jb = &n->jobs.at[j];
		if (jb->last != NONE)
			continue;
		bool some = n->has_cp || ca_neg_hits_some(n, n->keys.at[jb->key].mcl);
		ca_neg_decide(n, R_IDLE, j, some ? CA_WHY_OUTRANKED : CA_WHY_NOMATCH);
	}
	if (n->explain_job != NONE) {
		ca_hits all;
		ca_neg_hits_all(n, n->keys.at[n->jobs.at[n->explain_job].key].mcl, &all);
		n->explain_nh = all.n;
		ca_hits_free(&all);
	}
	return n->matches.n;
}

/* What preparing and running the cycle built. */
static void
free_cycle(ca_neg *n)
{
	ca_matcher_free(n->matcher);
	for (uint32_t c = 0; n->hits && c < n->nclusters; c++) {
		ca_hits_free(&n->hits[c].hits);
	}
	free(n->hits);
	ca_vec_free(&n->made);
	ca_nameset_free(&n->volnames);
	for (uint32_t k = 0; k < n->keys.n; k++) {
		ca_neg_cache_clear(&n->keys.at[k].cache);
		free(n->keys.at[k].memo);
	}
	n->memo_bytes = 0;
	ca_vec_free(&n->keys);
	free(n->sigs);
	ca_nameset_free(&n->signames);
	for (uint32_t i = 0; i < n->multi.n; i++)
		free(n->multi.at[i].dslots);
	ca_vec_free(&n->multi);
	free(n->cpslots);
	free(n->pslots);
	free(n->limits0);
	ca_vec_free(&n->grps);
	ca_vec_free(&n->matches);
	ca_vec_free(&n->stack);
	ca_vec_free(&n->log);
}

void
ca_neg_free(ca_neg *n)
{
	if (n == NULL)
		return;
	free_cycle(n);
	for (uint32_t i = 0; i < n->slots.n; i++) {
		ca_vec_free(&n->slots.at[i].kids);
		ca_ad_free(n->slots.at[i].ad);
	}
	ca_vec_free(&n->slots);
	ca_groups_free(&n->groups);
	ca_climits_free(&n->limits);
	for (uint32_t j = 0; j < n->jobs.n; j++)
		ca_ad_free(n->jobs.at[j].ad);
	ca_vec_free(&n->jobs);
	ca_vec_free(&n->not_idle);
	ca_vec_free(&n->staging);
	ca_nameset_free(&n->jobnames);
	estore_free(&n->store);	/* the jobs' expressions */
	for (uint32_t c = 0; c < n->custs.n; c++)
		ca_vec_free(&n->custs.at[c].jobs);
	ca_vec_free(&n->custs);
	ca_dict_free(&n->cust_index);
	strbuf_release(&n->warn);
	ca_arena_free(&n->arena);
	free(n);
}
