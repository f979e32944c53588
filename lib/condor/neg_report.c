/* neg_report.c - what a cycle tells: the decision log, the match records,
 * the figures and summary of each submitter, and the followed job's account.
 *
 * Everything here prints what the cycle recorded while it decided (the
 * decision log of neg_int.h); nothing is evaluated again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neg_int.h"

const char *const ca_neg_reason_name[3] = { "Priority", "Rank", "NoPreemption" };
const char *const ca_neg_why_name[CA_WHY_N] = {
	"", "no slot matches", "pie slice used up", "quota reached",
	"preemption not allowed", "outranked", "concurrency limit reached",
	"ceiling reached", "left to the schedd (depth first)"
};

const char *const ca_neg_skip_text[K_NSKIP] = {
	[K_OK] = "candidate",
	[K_NOMATCH] = "Requirements do not match",
	[K_TAKEN] = "already taken this cycle",
	[K_CLAIMED_IDLE] = "slot claimed but idle",
	[K_PREEMPTING] = "slot is being preempted",
	[K_MATCHED] = "slot is matched to another job already",
	[K_DRAINED] = "slot is drained",
	[K_RETIRING] = "running job has retirement time left",
	[K_NOCONSIDER] = "NEGOTIATOR_CONSIDER_PREEMPTION is false",
	[K_DSLOT] = "dynamic slot: preempted only through its partitionable slot",
	[K_RANKMODE] = "pie slice used up: only RANK preemption now",
	[K_SAMEUSER] = "runs a job of the same submitter and RANK is not better",
	[K_RANKWORSE] = "RANK worse than the running job's",
	[K_EUP] = "running user's effective priority is not worse",
	[K_NOPR] = "PREEMPTION_REQUIREMENTS false",
	[K_LIMIT] = "pie slice used up",
	[K_QUOTA] = "group quota reached",
	[K_CPFULL] = "not enough left in the partitionable slot",
	[K_NEGREQ] = "partitionable slot, and the job asks for a negative amount",
	[K_CLIMIT] = "concurrency limit reached",
};

/* ---- the decision log ---- */

struct rec *
ca_neg_log(ca_neg *n, int kind, uint32_t who)
{
	struct rec *r = ca_vec_push(&n->log);

	memset(r, 0, sizeof *r);
	r->kind = (uint8_t)kind;
	r->who = who;
	r->spin = n->spin;
	return r;
}

struct rec *
ca_neg_decide(ca_neg *n, int kind, uint32_t j, uint8_t why)
{
	n->jobs.at[j].last = (uint32_t)n->log.n;
	struct rec *r = ca_neg_log(n, kind, j);
	r->why = why;
	return r;
}

/* The reason job j is idle after the cycle: its latest decision. */
static uint8_t
idle_why(const ca_neg *n, const struct job *jb)
{
	return jb->last == NONE ? CA_WHY_NONE : n->log.at[jb->last].why;
}

/* ---- match records ---- */

size_t
ca_neg_nmatches(const ca_neg *n)
{
	return n->matches.n;
}

/* The attributes of a match record, interned when the negotiator is made,
 * before any ad is read, so that ca_set_* spell them this way. */
const char *const ca_neg_record_names[] = {
	"Event", "Time", "Name", "JobId", "Submitter", "MatchReason", "JobRank", "SlotRank",
	"PreemptedJobId", "PreemptedUser", "PreemptedSlots", "PreemptedJobIds",
	"PreemptedUsers", "RemoteUserPrio", "ConsumedCpus", "ConsumedMemory", "ConsumedDisk",
	"MatchedConcurrencyLimits", "Job", NULL
};

/* PreemptedSlots, PreemptedJobIds and PreemptedUsers of a pslot
 * preemption's dynamic slots. */
static void
set_preempted(ca_neg *n, ca_ad *ad, const struct multi *mu)
{
	ca_value *names = ca_arena_array(ad->arena, mu->n, sizeof *names);
	ca_value *ids = ca_arena_array(ad->arena, mu->n, sizeof *ids);
	ca_value *users = ca_arena_array(ad->arena, mu->n, sizeof *users);

	for (uint32_t q = 0; q < mu->n; q++) {
		const struct slot *d = &n->slots.at[mu->dslots[q]];
		names[q] = ca_str(d->name, (uint32_t)strlen(d->name));
		ids[q] = d->remote_job ? ca_str(d->remote_job, (uint32_t)strlen(d->remote_job)) :
		    ca_undef();
		users[q] = d->remote != NONE ? ca_str(n->custs.at[d->remote].name,
		    (uint32_t)n->custs.at[d->remote].len) : ca_undef();
	}
	ca_set_value(ad, "PreemptedSlots", ca_list(names, mu->n));
	ca_set_value(ad, "PreemptedJobIds", ca_list(ids, mu->n));
	ca_set_value(ad, "PreemptedUsers", ca_list(users, mu->n));
}

ca_ad *
ca_neg_match_ad(ca_neg *n, size_t i)
{
	const struct match *m = &n->matches.at[i];
	const struct job *jb = &n->jobs.at[m->job];
	ca_ad *ad = ca_ad_new();

	ca_set_str(ad, "Event", "Match");
	ca_set_value(ad, "Time", ca_int(n->cx->now));
	ca_set_str(ad, "Name", n->slots.at[m->slot].name);
	ca_set_str(ad, "JobId", jb->id);
	ca_set_str(ad, "Submitter", n->custs.at[m->sub].name);
	ca_set_str(ad, "MatchReason", ca_neg_reason_name[m->reason]);
	ca_set_value(ad, "JobRank", ca_real(m->jrank));
	ca_set_value(ad, "SlotRank", ca_real(m->srank));
	if (m->reason != CA_NEG_NOPREEMPTION) {
		if (m->remote_job != NULL)
			ca_set_str(ad, "PreemptedJobId", m->remote_job);
		if (m->remote != NONE)
			ca_set_str(ad, "PreemptedUser", n->custs.at[m->remote].name);
	}
	if (m->multi != NONE)
		set_preempted(n, ad, &n->multi.at[m->multi]);
	ca_set_value(ad, "RemoteUserPrio", ca_real(m->eup));
	if (m->cp) {
		ca_set_value(ad, "ConsumedCpus", ca_neg_num_value(m->consumed[0], true));
		ca_set_value(ad, "ConsumedMemory", ca_neg_num_value(m->consumed[1], true));
		ca_set_value(ad, "ConsumedDisk", ca_neg_num_value(m->consumed[2], true));
		for (uint32_t x = 0; x < m->nx; x++) {
			char buf[96];
			snprintf(buf, sizeof buf, "Consumed%.80s", m->xres[x]);
			ca_set_value(ad, buf, ca_neg_num_value(m->xcons[x], true));
		}
	}
	/* the limits the match holds, as HTCondor records them */
	if (m->climits != NULL)
		ca_set_str(ad, "MatchedConcurrencyLimits", m->climits);
	/* the job as it was read (the ephemeral attributes are gone) */
	ca_ad *copy = ca_ad_copy_in(ad->arena, jb->ad);
	ca_expr *e = ca_arena_zalloc(ad->arena, sizeof *e);
	e->node = CA_N_AD;
	e->u.ad = copy;
	ca_ad_set(ad, ca_intern("Job", 3), NULL, e);
	return ad;
}

/* ---- figures ---- */

void
ca_neg_get_stats(const ca_neg *n, ca_neg_stats *st)
{
	memset(st, 0, sizeof *st);
	st->slots = n->slots.n;
	st->jobs = n->seen_jobs;
	st->idle = n->jobs.n;
	for (uint32_t c = 0; c < n->custs.n; c++)
		st->submitters += n->custs.at[c].jobs.n > 0;
	st->autoclusters = n->matcher ? ca_matcher_nclusters(n->matcher) : 0;
	st->keys = n->keys.n;
	st->matches = n->matches.n;
	st->spins = n->spins;
	st->pool = n->pool;
}

bool
ca_neg_submitter(const ca_neg *n, const char *name, ca_neg_subinfo *out)
{
	uint32_t c = ca_neg_cust_find(n, name, strlen(name));

	if (c == NONE || n->custs.at[c].jobs.n == 0)
		return false;
	const struct cust *u = &n->custs.at[c];
	*out = (ca_neg_subinfo){ .name = u->name, .eup = u->eup, .pie = u->pie,
	    .usage = u->usage0, .matches = u->matches, .group = u->group };
	for (uint32_t q = 0; q < u->jobs.n; q++) {
		const struct job *jb = &n->jobs.at[u->jobs.at[q]];
		if (jb->match != NONE)
			continue;
		uint8_t why = idle_why(n, jb);
		out->idle_left++;
		out->why[why ? why : CA_WHY_LIMIT]++;
	}
	return true;
}

/* ---- the summary ---- */

/* Nice users last, then by effective priority and name. */
static int
cust_cmp(const ca_neg *n, uint32_t a, uint32_t b)
{
	const struct cust *x = &n->custs.at[a], *y = &n->custs.at[b];

	if (x->nice != y->nice)
		return x->nice ? 1 : -1;
	if (x->eup != y->eup)
		return x->eup < y->eup ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void
pad(strbuf *sb, size_t n)
{
	while (n-- > 0)
		strbuf_addc(sb, ' ');
}

/* %.2f, or %g when that is too wide */
static void
fmt_num(strbuf *sb, double x, int w)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%.2f", x);
	if ((int)strlen(buf) > w)
		snprintf(buf, sizeof buf, "%.3g", x);
	pad(sb, w > (int)strlen(buf) ? (size_t)(w - (int)strlen(buf)) : 0);
	strbuf_adds(sb, buf);
}

static void
summary_row(const ca_neg *n, const struct cust *u, size_t w, strbuf *out)
{
	ca_neg_subinfo si;
	bool first = true;

	ca_neg_submitter(n, u->name, &si);
	strbuf_adds(out, si.name);
	pad(out, w - strlen(si.name));
	strbuf_addc(out, ' ');
	fmt_num(out, si.eup, 11);
	strbuf_addc(out, ' ');
	fmt_num(out, si.pie, 9);
	strbuf_addf(out, " %6g %8zu %5zu ", si.usage, si.matches, si.idle_left);
	for (int k = 1; k < CA_WHY_N; k++) {
		if (si.why[k] == 0)
			continue;
		strbuf_addf(out, "%s %zu %s", first ? "" : ",", si.why[k], ca_neg_why_name[k]);
		first = false;
	}
	while (out->len > 0 && out->buf[out->len - 1] == ' ')
		out->len--;
	out->buf[out->len] = '\0';
	strbuf_addc(out, '\n');
}

static void
summary_groups(const ca_neg *n, strbuf *out)
{
	size_t gw = strlen("Group");

	for (size_t i = 0; i < n->groups.v.n; i++)
		if (strlen(n->groups.v.at[i]->name) > gw)
			gw = strlen(n->groups.v.at[i]->name);
	strbuf_adds(out, "Group");
	pad(out, gw - 5);
	strbuf_adds(out, "    Quota      Own   Demand  Allocated   InUse  Surplus\n");
	for (size_t i = 0; i < n->groups.v.n; i++) {
		const ca_group *g = n->groups.v.at[i];
		strbuf_adds(out, g->name);
		pad(out, gw - strlen(g->name));
		strbuf_addf(out, " %8g %8g %8g %10g %7g  %s\n", g->incoming, g->quota,
		    g->demand, g->alloc, g->usage, g->autoregroup ? "regroup" :
		    g->accept_surplus ? "yes" : "no");
	}
}

/* "ConcurrencyLimit_NAME" as HTCondor's accountant publishes a limit's use
 * (a '.' in the name as '_'). */
static void
limit_attr(strbuf *sb, const ca_climit *l)
{
	strbuf_adds(sb, "ConcurrencyLimit_");
	for (size_t i = 0; i < l->len; i++)
		strbuf_addc(sb, l->name[i] == '.' ? '_' : l->name[i]);
}

/* Per concurrency limit: its use before the cycle, what the matches took,
 * its maximum, and the idle jobs it stopped (their latest decision). */
static void
summary_limits(const ca_neg *n, strbuf *out)
{
	strbuf nm = STRBUF_INIT;
	size_t w = strlen("Concurrency limit"), nl = n->limits.v.n;
	size_t *refused = ca_xcalloc(nl + 1, sizeof *refused);

	for (uint32_t j = 0; j < n->jobs.n; j++) {
		const struct job *jb = &n->jobs.at[j];
		const struct rec *r = jb->last != NONE ? &n->log.at[jb->last] : NULL;
		if (jb->match == NONE && r != NULL && r->why == CA_WHY_CLIMIT) {
			uint32_t x = r->kind == R_ALIKE ? r->y : r->x;
			if (x < nl)
				refused[x]++;
		}
	}
	for (size_t i = 0; i < nl; i++)
		if (n->limits.v.at[i].len + 17 > w)
			w = n->limits.v.at[i].len + 17;
	strbuf_adds(out, "Concurrency limit");
	pad(out, w - 17);
	strbuf_adds(out, "   InUse  Matched     Max  Refused\n");
	for (size_t i = 0; i < nl; i++) {
		const ca_climit *l = &n->limits.v.at[i];
		double before = i < n->nlimits0 ? n->limits0[i] : 0;
		strbuf_reset(&nm);
		limit_attr(&nm, l);
		strbuf_add(out, nm.buf, nm.len);
		pad(out, w - nm.len);
		strbuf_addf(out, " %7g %8g %7g %8zu\n", before, l->count - before, l->max,
		    refused[i]);
	}
	free(refused);
	strbuf_release(&nm);
}

void
ca_neg_summary(ca_neg *n, strbuf *out)
{
	ca_neg_stats st;
	uint32_t *list = ca_xcalloc(n->custs.n + 1, sizeof *list), cnt = 0;
	size_t w = strlen("Submitter");

	ca_neg_get_stats(n, &st);
	strbuf_addf(out, "Cycle at %lld: %zu slot%s (pool weight %g), %zu idle job%s from %zu "
	    "submitter%s in %zu autocluster%s, %zu match%s in %d pie spin%s\n",
	    (long long)n->cx->now, st.slots, st.slots == 1 ? "" : "s", st.pool, st.idle,
	    st.idle == 1 ? "" : "s", st.submitters, st.submitters == 1 ? "" : "s",
	    st.autoclusters, st.autoclusters == 1 ? "" : "s", st.matches,
	    st.matches == 1 ? "" : "es", st.spins, st.spins == 1 ? "" : "s");
	for (uint32_t c = 0; c < n->custs.n; c++)
		if (n->custs.at[c].jobs.n > 0) {
			list[cnt++] = c;
			if (n->custs.at[c].len > w)
				w = n->custs.at[c].len;
		}
	ca_neg_sort(n, list, cnt, cust_cmp);
	strbuf_adds(out, "Submitter");
	pad(out, w - 9);
	strbuf_adds(out, "     EffPrio  PieSlice  InUse  Matches  Idle  Why idle\n");
	for (uint32_t i = 0; i < cnt; i++)
		summary_row(n, &n->custs.at[list[i]], w, out);
	if (ca_groups_active(&n->groups))
		summary_groups(n, out);
	if (n->limits.v.n > 0)
		summary_limits(n, out);
	free(list);
}

/* ---- the account of the followed job ---- */

static void
put_num(strbuf *sb, double x)
{
	if (x == NEG_LOW)
		strbuf_adds(sb, "-");
	else
		ca_print_real(sb, x);
}

/* A candidate's sort keys: the reason, then the ranks. */
static void
put_keys(strbuf *sb, const struct rec *r)
{
	strbuf_addf(sb, "%s; PRE_JOB_RANK ", ca_neg_reason_name[r->reason]);
	put_num(sb, r->f[0]);
	strbuf_adds(sb, ", Rank ");
	put_num(sb, r->f[1]);
	strbuf_adds(sb, ", POST_JOB_RANK ");
	put_num(sb, r->f[2]);
	if (r->reason != CA_NEG_NOPREEMPTION) {
		strbuf_adds(sb, ", PREEMPTION_RANK ");
		put_num(sb, r->f[3]);
	}
}

/* " (detail)" of a slot the rules skipped. */
static void
put_skip(const ca_neg *n, strbuf *sb, const struct rec *r, const struct slot *s)
{
	strbuf_addf(sb, "skipped: %s", ca_neg_skip_text[r->why]);
	switch (r->why) {
	case K_RANKWORSE:
	case K_SAMEUSER:
		strbuf_adds(sb, " (RANK ");
		put_num(sb, r->f[0]);
		strbuf_adds(sb, ", CurrentRank ");
		put_num(sb, r->f[1]);
		strbuf_addc(sb, ')');
		break;
	case K_EUP:
		if (s->remote == NONE)
			break;
		strbuf_addf(sb, " (%s at ", n->custs.at[s->remote].name);
		put_num(sb, n->custs.at[s->remote].eup);
		strbuf_addc(sb, ')');
		break;
	case K_NOPR:
		/* when it was evaluated (else it is not defined) */
		if (r->y)
			strbuf_addf(sb, " (running %s)", n->custs.at[s->remote].name);
		break;
	case K_NEGREQ:
		strbuf_addf(sb, " (%s is negative)", n->jobs.at[r->y].negreq->spell);
		break;
	default:
		break;
	}
}

/* "    slot: what the rules made of it" */
static void
put_slot(const ca_neg *n, strbuf *sb, const struct rec *r)
{
	static const char *const nomatch[4] = {
		"neither Requirements holds", "the job's Requirements are false",
		"the slot's Requirements are false",
		"the Requirements did not hold at the start of the cycle"
	};
	const struct slot *s = &n->slots.at[r->x];

	strbuf_addf(sb, "    %s: ", s->name);
	if (r->how == SL_NOMATCH)
		strbuf_addf(sb, "no match: %s", nomatch[r->y & 3]);
	else if (r->how == SL_MULTI) {
		const struct multi *m = &n->multi.at[r->y];
		strbuf_adds(sb, "candidate by preempting");
		for (uint32_t q = 0; q < m->n; q++)
			strbuf_addf(sb, " %s", n->slots.at[m->dslots[q]].name);
		strbuf_adds(sb, ", ");
		put_keys(sb, r);
	} else if (r->how == SL_CP && r->why == K_OK) {
		strbuf_adds(sb, "candidate (consumption policy), ");
		put_keys(sb, r);
	} else if (r->how == SL_CP && r->why == K_CPFULL)
		strbuf_adds(sb, ca_neg_skip_text[K_CPFULL]);
	else if (r->how == SL_CP && r->why == K_NOMATCH)
		strbuf_adds(sb, "Requirements or consumption policy do not fit");
	else if (r->why == K_TAKEN && r->how == SL_RULES) {
		const struct match *m = &n->matches.at[r->y];
		strbuf_addf(sb, "skipped: already taken this cycle by %s (%s)",
		    n->jobs.at[m->job].id, n->custs.at[m->sub].name);
	} else if (r->why != K_OK)
		put_skip(n, sb, r, s);
	else {
		strbuf_adds(sb, "candidate, ");
		put_keys(sb, r);
		if (s->running && s->remote != NONE)
			strbuf_addf(sb, "; would preempt %s of %s", s->remote_job ? s->remote_job :
			    "a job", n->custs.at[s->remote].name);
	}
	strbuf_addc(sb, '\n');
}

/* "concurrency limit NAME reached (ConcurrencyLimit_NAME U of M; it asks
 * I)": limit x with f its use, maximum and the units asked. */
static void
put_limit(const ca_neg *n, strbuf *sb, uint32_t x, const double *f)
{
	const ca_climit *l = &n->limits.v.at[x];

	strbuf_addf(sb, "concurrency limit %s reached (", l->name);
	limit_attr(sb, l);
	strbuf_addf(sb, " %g of %g; it asks %g)", f[0], f[1], f[2]);
}

/* Is the followed job's submitter u among those of phase record r? */
static bool
phase_of(const ca_neg *n, const struct rec *r, const struct cust *u)
{
	if (r->reason & PH_REGROUP) {
		if (u->group != n->groups.root && !u->group->autoregroup)
			return false;
	} else if (r->who != NONE && u->group->index != r->who)
		return false;
	if (r->reason & PH_FLOOR)
		return u->floor > 0;
	return u->nice == ((r->reason & PH_NICE) != 0);
}

/* One record of the followed job's account (j: the job; *matched: whether
 * it has its match yet). */
static void
put_rec(const ca_neg *n, strbuf *sb, const struct rec *r, uint32_t j, bool *matched)
{
	const struct job *jb = &n->jobs.at[j];
	const struct cust *u = &n->custs.at[jb->sub];
	const struct match *m;

	switch (r->kind) {
	case R_PHASE:
		if (*matched || !phase_of(n, r, u))
			return;
		if (r->reason & PH_REGROUP)
			strbuf_addf(sb, "group %s with GROUP_AUTOREGROUP: %s again, for what the "
			    "groups leave\n", n->groups.root->name, u->group != n->groups.root ?
			    "the autoregroup groups' submitters negotiate" : "its submitters, and "
			    "those of the autoregroup groups, negotiate");
		else if (r->who != NONE)
			strbuf_addf(sb, "group %s: quota %g, allocation %g, %g in use\n",
			    n->groups.v.at[r->who]->name, r->f[2], r->f[0], r->f[1]);
		if (r->reason & PH_FLOOR)
			strbuf_addf(sb, "floor round: submitters below their floor get up to it "
			    "first (%s's floor is %g):\n", u->name, u->floor);
		else if (r->reason & PH_NICE)
			strbuf_adds(sb, "nice users, after everybody else:\n");
		return;
	case R_TURN:
		if (*matched || r->who != jb->sub)
			return;
		strbuf_addf(sb, "spin %d: %s's turn: effective priority %g, share %.4g, "
		    "slice %g (%g in use)", r->spin, u->name, u->eup, r->f[0], r->f[1], r->f[2]);
		if (isfinite(r->f[3]))
			strbuf_addf(sb, ", its ceiling leaves %g", r->f[3]);
		strbuf_addc(sb, '\n');
		return;
	default:
		break;
	}
	if (r->who != j)
		return;
	switch (r->kind) {
	case R_SLOT:
		put_slot(n, sb, r);
		break;
	case R_CONSIDER:
		strbuf_addf(sb, "  job %s (%g of the slice used%s):\n", jb->id, r->f[0],
		    r->reason ? "; only RANK preemption now" : "");
		break;
	case R_POP:
		if (r->why == K_TAKEN)
			strbuf_addf(sb, "    %s: taken since by %s\n", n->slots.at[r->x].name,
			    n->jobs.at[n->matches.at[r->y].job].id);
		else if (r->why == K_CLIMIT) {
			strbuf_addf(sb, "    %s: ", n->slots.at[r->x].name);
			put_limit(n, sb, r->y, r->f);
			strbuf_addc(sb, '\n');
		} else
			strbuf_addf(sb, "    %s: %s (it would cost %g; %g of %g used)\n",
			    n->slots.at[r->x].name, ca_neg_skip_text[r->why], r->f[0], r->f[1],
			    r->f[2]);
		break;
	case R_MATCH:
		m = &n->matches.at[r->x];
		if (m->lead != NONE) {
			strbuf_addf(sb, "  job %s -> matched to the leftovers of partitionable slot "
			    "%s: the schedd claimed it for job %s and starts this job in what it "
			    "leaves (CLAIM_PARTITIONABLE_LEFTOVERS)\n", jb->id,
			    n->slots.at[m->slot].name, n->jobs.at[n->matches.at[m->lead].job].id);
			*matched = true;
			break;
		}
		strbuf_addf(sb, "  -> matched to %s: ", n->slots.at[m->slot].name);
		put_keys(sb, r);
		if (m->remote != NONE)
			strbuf_addf(sb, "; preempts %s of %s", m->remote_job ? m->remote_job :
			    "a job", n->custs.at[m->remote].name);
		strbuf_addc(sb, '\n');
		*matched = true;
		break;
	case R_NOTHING:
		strbuf_adds(sb, "  -> nothing this spin: ");
		if (r->why == CA_WHY_CLIMIT && r->x != NONE)
			put_limit(n, sb, r->x, r->f);
		else
			strbuf_adds(sb, ca_neg_why_name[r->why]);
		strbuf_addc(sb, '\n');
		break;
	case R_ALIKE:
		strbuf_addf(sb, "  job %s skipped: job %s of the same cluster (%s) got nothing "
		    "(%s", jb->id, n->jobs.at[r->x].id, n->pol.sigattrs ?
		    "its SIGNIFICANT_ATTRIBUTES are alike" : "ClusterId", ca_neg_why_name[r->why]);
		if (r->why == CA_WHY_CLIMIT && r->y != NONE)
			strbuf_addf(sb, ": %s", n->limits.v.at[r->y].name);
		strbuf_adds(sb, ")\n");
		break;
	case R_WAIT:
		strbuf_addf(sb, "  job %s not reached: %s\n", jb->id, r->why == CA_WHY_QUOTA ?
		    "the group's quota is reached" : r->why == CA_WHY_CEILING ?
		    "the submitter's ceiling is reached" : "the pie slice is used up");
		break;
	case R_DEPTH:
		m = &n->matches.at[r->x];
		strbuf_addf(sb, "  job %s left to the schedd: job %s, like it, was matched to "
		    "partitionable slot %s, which holds it too (NEGOTIATOR_DEPTH_FIRST)\n",
		    jb->id, n->jobs.at[m->job].id, n->slots.at[m->slot].name);
		break;
	default:
		break;
	}
}

/* Who the followed job is: its submitter, place in job order and
 * autocluster. */
static void
put_head(const ca_neg *n, strbuf *sb, uint32_t j)
{
	const struct job *jb = &n->jobs.at[j];
	const struct cust *u = &n->custs.at[jb->sub];
	uint32_t nh = n->explain_nh, pos = 0, alike = 0;
	bool grouped = u->group != n->groups.root;

	for (uint32_t q = 0; q < u->jobs.n; q++)
		if (u->jobs.at[q] == j)
			pos = q + 1;
	for (uint32_t i = 0; i < n->jobs.n; i++)
		alike += n->jobs.at[i].key == jb->key;
	strbuf_addf(sb, "job %s: submitter %s (effective priority %g%s%s%s)\n", jb->id, u->name,
	    u->eup, u->nice ? ", nice user" : "", grouped ? ", group " : "",
	    grouped ? u->group->name : "");
	strbuf_addf(sb, "  job order: %u of %zu idle jobs of %s (JobPrio %g, ", pos, u->jobs.n,
	    u->name, jb->prio[2]);
	if (jb->qdate != 0)
		strbuf_addf(sb, "QDate %.0f, ", jb->qdate);
	strbuf_addf(sb, "ClusterId %lld, ProcId %lld)\n", (long long)jb->cluster,
	    (long long)jb->proc);
	if (jb->climits != NULL)
		strbuf_addf(sb, "  concurrency limits: %s\n", jb->climits);
	else if (jb->climits_dyn)
		strbuf_adds(sb, "  concurrency limits: ConcurrencyLimits, evaluated with each "
		    "slot\n");
	if (u->ceiling >= 0 || u->floor > 0) {
		strbuf_addf(sb, "  %s's", u->name);
		if (u->floor > 0)
			strbuf_addf(sb, " floor %g", u->floor);
		if (u->ceiling >= 0)
			strbuf_addf(sb, "%s ceiling %g", u->floor > 0 ? "," : "", u->ceiling);
		strbuf_addf(sb, " (%g in use)\n", u->usage0);
	}
	strbuf_addf(sb, "  autocluster: %u idle job%s alike; %u slot%s match both Requirements\n",
	    alike, alike == 1 ? "" : "s", nh, nh == 1 ? "" : "s");
}

void
ca_neg_account(const ca_neg *n, strbuf *sb)
{
	uint32_t j = n->explain_job;
	bool matched = false;

	if (n->explain_id == NULL)
		return;
	for (size_t i = 0; i < n->not_idle.n; i++) {
		strbuf_addf(sb, "job %s: not idle (JobStatus ", n->explain_id);
		ca_print_value(sb, n->not_idle.at[i], 0);
		strbuf_adds(sb, "): the negotiator does not look at it\n");
	}
	if (n->followed_excluded)
		strbuf_addf(sb, "job %s: NEGOTIATOR_JOB_CONSTRAINT is false for it: the schedd "
		    "does not offer it to the negotiator\n", n->explain_id);
	if (j == NONE) {
		if (n->not_idle.n == 0 && !n->followed_excluded)
			strbuf_addf(sb, "job %s: not among the jobs\n", n->explain_id);
		return;
	}
	if (!n->ran)
		return;
	put_head(n, sb, j);
	for (size_t i = 0; i < n->log.n; i++)
		put_rec(n, sb, &n->log.at[i], j, &matched);
	const struct job *jb = &n->jobs.at[j];
	if (jb->match != NONE) {
		const struct match *m = &n->matches.at[jb->match];
		strbuf_addf(sb, "result: job %s matched to %s (%s) in spin %d\n", jb->id,
		    n->slots.at[m->slot].name, ca_neg_reason_name[m->reason], m->spin);
	} else if (jb->left != NONE)
		strbuf_addf(sb, "result: job %s left to the schedd, to start in %s with job %s\n",
		    jb->id, n->slots.at[n->matches.at[jb->left].slot].name,
		    n->jobs.at[n->matches.at[jb->left].job].id);
	else
		strbuf_addf(sb, "result: job %s left idle: %s\n", jb->id, idle_why(n, jb) ?
		    ca_neg_why_name[idle_why(n, jb)] : "never reached");
}
