/* startd_events.c - events for the startd: checking them, filing them by
 * machine, and what each does to a slot in each state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classad.h"
#include "startd.h"
#include "startd_int.h"

const char *const ca_sevent_name[CA_EV_N] = {
	"Match", "Claim", "Activate", "JobExit", "Vacate", "Release", "Drain", "CancelDrain",
	"Shutdown", "StarterExit", "BenchmarkDone", "MachineUpdate", "Reconfig", "ScheddGone",
	"KeepAlive"
};

/* ---- checking events ---- */

static int
refuse(ca_diag *err, const char *msg, const char *arg)
{
	ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, msg, arg);
	return -1;
}

int
ca_sevent_init(ca_sevent *ev, const ca_ad *ad, int64_t deftime, ca_diag *err)
{
	const ca_name *n_event = ca_intern("Event", 5), *n_name = ca_intern("Name", 4);
	const ca_name *n_time = ca_intern("Time", 4);

	memset(ev, 0, sizeof *ev);
	ev->ad = ad;
	const char *kind = lit_str(ad, n_event);
	if (kind == NULL)
		return refuse(err, "%s", ca_ad_find(ad, n_event) ? "Event is not a string" :
		    "an event needs an Event attribute (Match, Claim, Activate, ...)");
	ev->kind = -1;
	for (int i = 0; i < CA_EV_N; i++)
		if (strcasecmp(kind, ca_sevent_name[i]) == 0)
			ev->kind = i;
	if (ev->kind < 0)
		return refuse(err, "unknown event \"%s\" (Match, Claim, Activate, JobExit, "
		    "Vacate, Release, Drain, CancelDrain, Shutdown, StarterExit, BenchmarkDone, "
		    "MachineUpdate, Reconfig, ScheddGone, KeepAlive)", kind);
	ev->name = lit_str(ad, n_name);
	if (ev->name == NULL || ev->name[0] == '\0')
		return refuse(err, "a %s event needs the Name of a slot (or machine)",
		    ca_sevent_name[ev->kind]);
	if (ev->kind == CA_EV_MATCH && nested_expr(ad, ca_intern("Job", 3)) == NULL)
		return refuse(err, "%s", "a Match event (a match record) carries the job as "
		    "Job = [ ... ]");
	ev->time = deftime;
	if (ca_ad_find(ad, n_time) != NULL) {
		ca_value v = lit(ad, n_time);
		double d;
		if (!num_of(v, &d) || v.kind == CA_BOOL || !(fabs(d) < 1e12))
			return refuse(err, "%s",
			    "Time must be a number of seconds since the epoch");
		ev->time = (int64_t)floor(d);
	}
	return 0;
}

const char *
ca_sevent_machine(const ca_sevent *ev)
{
	const char *at = strchr(ev->name, '@');

	return at ? at + 1 : ev->name;
}

static int
ev_cmp(const void *x, const void *y)
{
	const ca_sevent *a = *(ca_sevent *const *)x, *b = *(ca_sevent *const *)y;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void
ca_sevent_sort(ca_sevent **evs, size_t n)
{
	if (n > 1)
		qsort(evs, n, sizeof *evs, ev_cmp);
}

/* ---- the events of a run, by machine ---- */

/* The events of one machine name, in time order. */
struct evlist {
	const char *key;	/* in the first event's ad */
	ca_vec(ca_sevent *) evs;
};

struct ca_sevents {
	ca_vec(ca_sevent *) all;	/* input order */
	ca_vec(ca_ad *) ads;		/* theirs, to free */
	ca_vec(struct evlist) lists;
	ca_dict bykey;			/* lists by machine name, any case */
	bool filed;
};

ca_sevents *
ca_sevents_new(void)
{
	return ca_xcalloc(1, sizeof(ca_sevents));
}

void
ca_sevents_free(ca_sevents *q)
{
	if (q == NULL)
		return;
	for (size_t i = 0; i < q->all.n; i++) {
		ca_ad_free(q->ads.at[i]);
		free(q->all.at[i]);
	}
	ca_vec_free(&q->all);
	ca_vec_free(&q->ads);
	for (size_t i = 0; i < q->lists.n; i++)
		ca_vec_free(&q->lists.at[i].evs);
	ca_vec_free(&q->lists);
	ca_dict_free(&q->bykey);
	free(q);
}

int
ca_sevents_add(ca_sevents *q, ca_ad *ad, int64_t deftime, const char *file, int line,
    ca_diag *err)
{
	ca_sevent *ev = ca_xmalloc(sizeof *ev);

	if (ca_sevent_init(ev, ad, deftime, err) < 0) {
		err->file = file;
		err->line = line;
		err->col = 1;
		free(ev);
		return -1;
	}
	ev->file = file;
	ev->line = line;
	ev->seq = (uint32_t)q->all.n;
	*ca_vec_push(&q->all) = ev;
	*ca_vec_push(&q->ads) = ad;
	return 0;
}

size_t
ca_sevents_count(const ca_sevents *q)
{
	return q->all.n;
}

const ca_sevent *
ca_sevents_at(const ca_sevents *q, size_t i)
{
	return q->all.at[i];
}

void
ca_sevents_mark(ca_sevents *q, size_t i, bool taken, bool used)
{
	q->all.at[i]->taken |= taken;
	q->all.at[i]->used |= used;
}

static struct evlist *
find_list(ca_sevents *q, const char *key)
{
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&q->bykey, ca_sd_hash_name(key), &it);
	    i != CA_DICT_NONE; i = ca_dict_next(&q->bykey, &it))
		if (strcasecmp(q->lists.at[i].key, key) == 0)
			return &q->lists.at[i];
	return NULL;
}

/* File every event under its machine, each list in time order. */
static void
file_events(ca_sevents *q)
{
	ca_vec(ca_sevent *) order = CA_VEC_INIT;

	ca_vec_reserve(&order, q->all.n);
	for (size_t i = 0; i < q->all.n; i++)
		order.at[order.n++] = q->all.at[i];
	ca_sevent_sort(order.at, order.n);
	for (size_t i = 0; i < order.n; i++) {
		const char *key = ca_sevent_machine(order.at[i]);
		struct evlist *l = find_list(q, key);
		if (l == NULL) {
			ca_dict_add(&q->bykey, ca_sd_hash_name(key), (uint32_t)q->lists.n);
			l = ca_vec_push(&q->lists);
			*l = (struct evlist){ key, CA_VEC_INIT };
		}
		*ca_vec_push(&l->evs) = order.at[i];
	}
	ca_vec_free(&order);
	q->filed = true;
}

ca_sevent **
ca_sevents_take(ca_sevents *q, const ca_smachine *m, size_t *n)
{
	ca_vec(ca_sevent *) v = CA_VEC_INIT;

	if (!q->filed)
		file_events(q);
	for (size_t i = 0; i < m->keys.n; i++) {
		struct evlist *l = find_list(q, m->keys.at[i]);
		for (size_t j = 0; l != NULL && j < l->evs.n; j++) {
			ca_sevent *ev = l->evs.at[j];
			if (ev->taken)
				continue;
			ev->taken = true;
			*ca_vec_push(&v) = ev;
		}
	}
	ca_sevent_sort(v.at, v.n);
	*n = v.n;
	return v.at;
}

/* ---- applying events ---- */

/* The job ad carried by an event (Job = [ ... ]), or NULL. */
static const ca_expr *
event_job(ca_startd *sd, const ca_sevent *ev)
{
	return nested_expr(ev->ad, sd->n[A_JOB]);
}

const char *
ca_sd_job_id(ca_startd *sd, const ca_ad *job, const ca_ad *ev, char *buf, size_t len)
{
	const char *id = ev ? lit_str(ev, sd->n[A_JOBID]) : NULL;
	int64_t c, p;

	if (id != NULL)
		return id;
	if (job != NULL && lit_int(job, sd->n[A_CLUSTERID], &c) &&
	    lit_int(job, sd->n[A_PROCID], &p)) {
		ca_jobid_format(buf, len, c, p);
		return buf;
	}
	return NULL;
}

/* Attribute a of the slot: the string str, or none when str is NULL. */
static void
set_or_del(ca_startd *sd, struct slot *s, int a, const char *str)
{
	if (str != NULL)
		set_str(sd, s, a, str);
	else
		del(sd, s, a);
}

/* Who the claim (or, pre, the preempting claim) is for: RemoteUser (the
 * match's Submitter, else the job's User, else its Owner), RemoteOwner,
 * AccountingGroup, JobId, RemoteUserPrio (from the match record). */
static void
set_identity(ca_startd *sd, struct slot *s, const ca_ad *job, const ca_ad *ev, bool pre)
{
	const char *user = ev ? lit_str(ev, sd->n[A_SUBMITTER]) : NULL;
	const char *owner = job ? lit_str(job, sd->n[A_OWNER]) : NULL;
	const char *group = job ? lit_str(job, sd->n[A_ACCTGROUP]) : NULL;
	char buf[64];
	const char *id = ca_sd_job_id(sd, job, ev, buf, sizeof buf);
	double prio;
	bool has_prio = ev && num_of(lit(ev, sd->n[A_REMOTEUSERPRIO]), &prio);

	if (user == NULL && job != NULL)
		user = lit_str(job, sd->n[A_USER]);
	if (user == NULL)
		user = owner;
	if (owner == NULL)
		owner = user;
	int a_user = pre ? A_PUSER : A_REMOTEUSER, a_owner = pre ? A_POWNER : A_REMOTEOWNER;
	int a_group = pre ? A_PGROUP : A_ACCTGROUP, a_id = pre ? A_PJOBID : A_JOBID;
	int a_prio = pre ? A_PUSERPRIO : A_REMOTEUSERPRIO;
	set_or_del(sd, s, a_user, user);
	set_or_del(sd, s, a_owner, owner);
	set_or_del(sd, s, a_group, group);
	set_or_del(sd, s, a_id, id);
	if (has_prio)
		set_real(sd, s, a_prio, prio);
	else if (ev != NULL)
		del(sd, s, a_prio);
	if (!pre && job != NULL)
		set_or_del(sd, s, A_GLOBALJOBID, lit_str(job, sd->n[A_GLOBALJOBID]));
}

/* The job of event ev (its expression e) becomes the claim's, or with pre
 * the preempting claim's. */
static void
take_job(ca_startd *sd, struct slot *s, const ca_expr *e, const ca_sevent *ev, bool pre)
{
	store_job(sd, s, pre ? A_PJOB : A_JOB, e);
	set_identity(sd, s, e->u.ad, ev->ad, pre);
}

/* "job 12.0 of alice@example.org" for causes. */
const char *
ca_sd_describe_job(ca_startd *sd, const ca_ad *job, const ca_ad *ev, strbuf *out)
{
	char buf[64];
	const char *id = ca_sd_job_id(sd, job, ev, buf, sizeof buf);
	const char *user = ev ? lit_str(ev, sd->n[A_SUBMITTER]) : NULL;

	if (user == NULL && job != NULL)
		user = lit_str(job, sd->n[A_USER]);
	if (user == NULL && job != NULL)
		user = lit_str(job, sd->n[A_OWNER]);
	strbuf_reset(out);
	strbuf_addf(out, "job %s", id ? id : "(no id)");
	if (user)
		strbuf_addf(out, " of %s", user);
	return out->buf;
}

static void
ignored(ca_startd *sd, struct slot *s, const ca_sevent *ev, const char *why)
{
	ca_sd_note(sd, s, "event %s ignored in %s/%s: %s", ca_sevent_name[ev->kind],
	    ca_sstate_name[s->st], ca_sact_name[s->ac], why);
}

static void
ev_match(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const ca_expr *e = event_job(sd, ev);
	const char *reason = lit_str(ev->ad, sd->n[A_MATCHREASON]);
	strbuf c = STRBUF_INIT, d = STRBUF_INIT;

	if (e == NULL) {
		ignored(sd, s, ev, "a match record carries the job as Job = [ ... ]");
		return;
	}
	strbuf_addf(&c, "event Match: %s", ca_sd_describe_job(sd, e->u.ad, ev->ad, &d));
	if (reason)
		strbuf_addf(&c, " (%s)", reason);
	switch (s->st) {
	case CA_S_OWNER:
	case CA_S_UNCLAIMED:
		take_job(sd, s, e, ev, false);
		ca_sd_go(sd, s, CA_S_MATCHED, CA_A_IDLE, 6, c.buf);
		break;
	case CA_S_BACKFILL:
		take_job(sd, s, e, ev, false);
		if (s->ac == CA_A_IDLE)
			ca_sd_go(sd, s, CA_S_MATCHED, CA_A_IDLE, 32, c.buf);
		else {
			set_str(sd, s, A_BFDEST, "Matched");
			if (s->ac == CA_A_BUSY)
				ca_sd_go(sd, s, CA_S_BACKFILL, CA_A_KILLING, 28, c.buf);
		}
		break;
	case CA_S_CLAIMED:
		if (pmatch(sd, s)) {
			ignored(sd, s, ev, "a preempting match is already waiting");
			break;
		}
		take_job(sd, s, e, ev, true);
		set_real(sd, s, A_PRANK, ca_sd_slot_rank(sd, s, e->u.ad));
		set_int(sd, s, A_PMATCHTIME, s->clock);
		ca_sd_publish_requirements(sd, s);
		double pr = 0.0, cr = 0.0;
		num_of(lit(s->ad, sd->n[A_PRANK]), &pr);
		num_of(lit(s->ad, sd->n[A_CURRENTRANK]), &cr);
		ca_sd_note(sd, s, "%s: a preempting match (RANK %g, CurrentRank %g); "
		    "Requirements = False until it is claimed", c.buf, pr, cr);
		break;
	default:
		ignored(sd, s, ev, s->st == CA_S_DRAINED ? "a drained slot takes no match" :
		    "the slot is not available for matches");
	}
	strbuf_release(&c);
	strbuf_release(&d);
}

static void
ev_claim(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const ca_expr *e = event_job(sd, ev);
	const ca_ad *job = e ? e->u.ad : NULL;
	const char *why;
	strbuf c = STRBUF_INIT, d = STRBUF_INIT;

	strbuf_adds(&c, "event Claim");
	if (job)
		strbuf_addf(&c, ": %s", ca_sd_describe_job(sd, job, ev->ad, &d));
	switch (s->st) {
	case CA_S_OWNER:
	case CA_S_UNCLAIMED:
		if (job == NULL)
			ignored(sd, s, ev,
			    "a claim of an unmatched slot must carry Job = [ ... ]");
		else if (ca_sd_truth(sd, s, PX_IS_OWNER, false) == 1)
			ca_sd_note(sd, s, "%s: the claim is refused (IS_OWNER = true)", c.buf);
		else if (!ca_sd_willing(sd, s, job, &why))
			ca_sd_note(sd, s, "%s: the claim is refused (%s)", c.buf, why);
		else {
			take_job(sd, s, e, ev, false);
			ca_sd_begin_claim(sd, s);
			strbuf_adds(&c, " (before the negotiator's match)");
			ca_sd_go(sd, s, CA_S_CLAIMED, CA_A_IDLE, 5, c.buf);
		}
		break;
	case CA_S_MATCHED:
		if (e != NULL) {
			take_job(sd, s, e, ev, false);
		}
		ca_sd_claim_matched(sd, s, c.buf);
		break;
	case CA_S_BACKFILL:
		if (e != NULL) {
			take_job(sd, s, e, ev, false);
		}
		if ((job = job_of(sd, s)) == NULL)
			ignored(sd, s, ev, "no job ad to claim for");
		else if (!ca_sd_willing(sd, s, job, &why))
			ca_sd_note(sd, s, "%s: the claim is refused (%s)", c.buf, why);
		else if (s->ac == CA_A_IDLE) {
			ca_sd_begin_claim(sd, s);
			ca_sd_go(sd, s, CA_S_CLAIMED, CA_A_IDLE, 31, c.buf);
		} else {
			set_str(sd, s, A_BFDEST, "Claimed");
			if (s->ac == CA_A_BUSY)
				ca_sd_go(sd, s, CA_S_BACKFILL, CA_A_KILLING, 28, c.buf);
		}
		break;
	case CA_S_CLAIMED:
	case CA_S_PREEMPTING:
		if (pclaim(sd, s)) {
			ignored(sd, s, ev, "a preempting claim is already accepted");
			break;
		}
		if (!pmatch(sd, s)) {
			if (e == NULL || s->st != CA_S_CLAIMED) {
				ignored(sd, s, ev,
				    "the slot is claimed and no preempting match waits");
				break;
			}
			take_job(sd, s, e, ev, true);
			set_real(sd, s, A_PRANK, ca_sd_slot_rank(sd, s, job));
			set_int(sd, s, A_PMATCHTIME, s->clock);
		}
		ca_sd_claim_preempting(sd, s, c.buf);
		break;
	default:
		ca_sd_note(sd, s, "%s: the claim is refused (the slot is %s)", c.buf,
		    ca_sstate_name[s->st]);
	}
	strbuf_release(&c);
	strbuf_release(&d);
}

static void
ev_activate(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const ca_expr *e = event_job(sd, ev);
	strbuf c = STRBUF_INIT, d = STRBUF_INIT;

	if (s->st != CA_S_CLAIMED || s->ac != CA_A_IDLE)
		ignored(sd, s, ev, "only a Claimed/Idle slot starts a job");
	else if (e == NULL && job_of(sd, s) == NULL)
		ignored(sd, s, ev, "no job ad");
	else {
		strbuf_addf(&c, "event Activate: %s",
		    ca_sd_describe_job(sd, e ? e->u.ad : job_of(sd, s), ev->ad, &d));
		ca_sd_activate(sd, s, e, ev->ad, c.buf);
	}
	strbuf_release(&c);
	strbuf_release(&d);
}

/* JobExit and StarterExit: the job (or the starter, or the backfill client)
 * is gone. */
static void
ev_exit(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const char *c = ca_sd_causef(sd, "event %s", ca_sevent_name[ev->kind]);
	strbuf cb = STRBUF_INIT;

	strbuf_adds(&cb, c);
	c = cb.buf;
	switch (s->st) {
	case CA_S_CLAIMED:
		if (!job_active(sd, s) || s->ac == CA_A_IDLE) {
			ignored(sd, s, ev, "no job is running");
			break;
		}
		del(sd, s, A_JOBSTART);
		del(sd, s, A_RETLEFT);
		if (s->ac == CA_A_RETIRING)
			ca_sd_to_preempting(sd, s, 18, false, c);
		else if (s->ac == CA_A_SUSPENDED && ca_sd_retire_cause(sd, s) != NULL)
			ca_sd_to_preempting(sd, s, 17, false, c);
		else
			ca_sd_go(sd, s, CA_S_CLAIMED, CA_A_IDLE, 12, c);
		break;
	case CA_S_PREEMPTING:
		del(sd, s, A_JOBSTART);
		ca_sd_leave_preempting(sd, s, c);
		break;
	case CA_S_BACKFILL:
		if (s->ac == CA_A_BUSY || s->ac == CA_A_KILLING)
			ca_sd_go(sd, s, CA_S_BACKFILL, CA_A_IDLE, s->ac == CA_A_BUSY ? 27 : 29, c);
		else
			ignored(sd, s, ev, "no backfill client is running");
		break;
	default:
		ignored(sd, s, ev, "no job is running");
	}
	strbuf_release(&cb);
}

static bool
ev_fast(ca_startd *sd, const ca_sevent *ev)
{
	const char *mode = lit_str(ev->ad, sd->n[A_MODE]);

	return lit_true(ev->ad, sd->n[A_FAST]) || (mode && strcasecmp(mode, "fast") == 0);
}

static void
ev_vacate(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	bool fast = ev_fast(sd, ev);
	const char *c = fast ? "event Vacate (fast)" : "event Vacate";

	switch (s->st) {
	case CA_S_CLAIMED:
		if (s->ac == CA_A_IDLE || fast) {
			set_eviction(sd, s, fast ? R_VACATE_FAST : R_VACATE);
			ca_sd_to_preempting(sd, s, 10, fast, c);
		} else {
			if (eviction(sd, s) == R_NONE)
				set_eviction(sd, s, R_VACATE);
			if (s->ac == CA_A_BUSY)
				ca_sd_go(sd, s, CA_S_CLAIMED, CA_A_RETIRING, 13, c);
		}
		break;
	case CA_S_MATCHED:
		ca_sd_unmatch(sd, s, c);
		break;
	case CA_S_BACKFILL:
		if (s->ac == CA_A_IDLE)
			ca_sd_go(sd, s, CA_S_OWNER, CA_A_IDLE, 30, c);
		else {
			set_str(sd, s, A_BFDEST, "Owner");
			if (s->ac == CA_A_BUSY)
				ca_sd_go(sd, s, CA_S_BACKFILL, CA_A_KILLING, 28, c);
		}
		break;
	case CA_S_PREEMPTING:
		if (fast && s->ac == CA_A_VACATING)
			ca_sd_go(sd, s, CA_S_PREEMPTING, CA_A_KILLING, 21, c);
		else
			ignored(sd, s, ev, "the slot is already preempting its job");
		break;
	default:
		ignored(sd, s, ev, "no claim to vacate");
	}
}

static void
ev_release(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const ca_expr *e = event_job(sd, ev);
	char buf[64];
	const char *id = ca_sd_job_id(sd, e ? e->u.ad : NULL, ev->ad, buf, sizeof buf);
	const char *pid = lit_str(s->ad, sd->n[A_PJOBID]);
	const char *cid = lit_str(s->ad, sd->n[A_JOBID]);

	if (pmatch(sd, s) && id != NULL && pid != NULL && strcmp(id, pid) == 0 &&
	    (cid == NULL || strcmp(cid, pid) != 0)) {
		ca_sd_note(sd, s, "event Release: the preempting claim of job %s is released", id);
		ca_sd_drop_preempting(sd, s);
		return;
	}
	switch (s->st) {
	case CA_S_CLAIMED:
		set_eviction(sd, s, R_RELEASE);
		ca_sd_to_preempting(sd, s, 10, false,
		    "event Release: the schedd releases the claim");
		break;
	case CA_S_MATCHED:
		ca_sd_unmatch(sd, s, "event Release: the schedd gives up the match");
		break;
	default:
		ignored(sd, s, ev, "no claim to release");
	}
}

/* Attribute a of a command: word1 or word2 (in any case), else "graceful". */
static const char *
ev_mode(ca_startd *sd, const ca_sevent *ev, int a, const char *word1, const char *word2)
{
	const char *m = lit_str(ev->ad, sd->n[a]);

	if (m != NULL && strcasecmp(m, word1) == 0)
		return word1;
	if (m != NULL && strcasecmp(m, word2) == 0)
		return word2;
	return "graceful";
}

/* A command to the whole startd (drain, shutdown) reaches a slot: its job is
 * evicted at once (killed) when fast, else the claim is given up for
 * slow (R_NONE: not given up) unless it is already; a job vacating is
 * killed when fast. */
static void
command(ca_startd *sd, struct slot *s, bool fast, enum reason rfast, enum reason slow,
    const char *cause)
{
	if (s->st == CA_S_CLAIMED && s->ac != CA_A_IDLE) {
		if (fast) {
			set_eviction(sd, s, rfast);
			ca_sd_to_preempting(sd, s, 10, true, cause);
		} else if (slow != R_NONE && eviction(sd, s) == R_NONE)
			set_eviction(sd, s, slow);
	} else if (s->st == CA_S_PREEMPTING && s->ac == CA_A_VACATING && fast)
		ca_sd_go(sd, s, CA_S_PREEMPTING, CA_A_KILLING, 21, cause);
}

static void
ev_drain(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const char *how = ev_mode(sd, ev, A_HOW, "quick", "fast");

	set_bool(sd, s, A_DRAINING, true);
	set_str(sd, s, A_DRAINHOW, how);
	set_bool(sd, s, A_DRAINRESUME, lit_true(ev->ad, sd->n[A_RESUME]));
	ca_sd_publish_requirements(sd, s);
	command(sd, s, strcmp(how, "fast") == 0, R_DRAIN_FAST,
	    strcmp(how, "quick") == 0 ? R_DRAIN_QUICK : R_NONE, "event Drain (fast)");
}

static void
ev_canceldrain(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	ca_sd_stop_draining(sd, s);
	ca_sd_publish_requirements(sd, s);
}

static void
ev_shutdown(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	const char *mode = ev_mode(sd, ev, A_MODE, "fast", "peaceful");

	set_str(sd, s, A_SHUTDOWN, mode);
	ca_sd_publish_requirements(sd, s);
	command(sd, s, strcmp(mode, "fast") == 0, R_SHUTDOWN_FAST,
	    strcmp(mode, "peaceful") == 0 ? R_SHUTDOWN_PEACEFUL : R_SHUTDOWN,
	    "event Shutdown (fast)");
}

static void
ev_benchmark(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	if (s->st != CA_S_UNCLAIMED || s->ac != CA_A_BENCHMARKING) {
		ignored(sd, s, ev, "the slot is not benchmarking");
		return;
	}
	set_int(sd, s, A_LASTBENCH, s->clock);
	static const int res[] = { A_MIPS, A_KFLOPS };
	for (size_t i = 0; i < 2; i++) {
		sd->cx.now = s->clock;
		ca_value v = ca_eval_attr(&sd->cx, ev->ad, NULL, ca_sd_aname[res[i]]);
		double d;
		if (num_of(v, &d))
			ca_sd_bench_result(sd, s, res[i], d);
	}
	ca_sd_go(sd, s, CA_S_UNCLAIMED, CA_A_IDLE, 4, "event BenchmarkDone");
}

/* Attributes a MachineUpdate or a hook may not set: the state machine's
 * own. */
bool
ca_sd_machine_owned(ca_startd *sd, const ca_name *n)
{
	static const int own[] = {
		A_NAME, A_EVENT, A_TIME, A_STATE, A_ACTIVITY, A_ECS, A_ECA, A_MYCURRENTTIME,
		A_CRONRUNS
	};

	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
		if (n == sd->n[own[i]])
			return true;
	return false;
}

static void
ev_update(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	strbuf c = STRBUF_INIT;

	strbuf_adds(&c, "event MachineUpdate:");
	for (uint32_t i = 0; i < ev->ad->n; i++) {
		const ca_attr *at = &ev->ad->attrs[i];
		if (ca_sd_machine_owned(sd, ca_attr_name(at)))
			continue;
		ca_ad_set(s->ad, ca_attr_name(at), NULL, ca_expr_copy(s->ad->arena, ca_attr_expr(ev->ad, at)));
		strbuf_addf(&c, " %s = ", ca_attr_name(at)->spell);
		ca_print_expr(&c, ca_attr_expr(ev->ad, at), 0);
		if (c.len > 160) {
			strbuf_adds(&c, " ...");
			break;
		}
	}
	ca_sd_publish_load(sd, s);
	ca_sd_note(sd, s, "%s", c.buf);
	strbuf_release(&c);
}

/* The schedd of the claim is gone: it sends no more keep-alives, and the
 * claim's lease runs out (eval_claimed); a KeepAlive says it is back. */
static void
ev_lease(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	int64_t t;

	if (s->st != CA_S_CLAIMED && s->st != CA_S_PREEMPTING) {
		ignored(sd, s, ev, "no claim");
		return;
	}
	if (ev->kind == CA_EV_KEEPALIVE) {
		if (has(sd, s, A_GONE))
			ca_sd_note(sd, s, "event KeepAlive: the schedd of the claim is back");
		del(sd, s, A_GONE);
		s->gone = false;
		return;
	}
	if (lit_time(s->ad, sd->n[A_GONE], &t))
		return;
	set_int(sd, s, A_GONE, ev->time < s->clock ? s->clock : ev->time);
	s->gone = true;
	int64_t dur = 0, end = ca_sd_lease_end(sd, s, &dur);
	strbuf w = STRBUF_INIT;
	ca_startd_time(&w, end);
	ca_sd_note(sd, s, "event ScheddGone: no more keep-alives; the claim lease (%lld s) "
	    "runs out at %s", (long long)dur, w.buf);
	strbuf_release(&w);
}

/* What each event does to a slot (ORDER EVENTS). */
static void (*const handler[CA_EV_N])(ca_startd *, struct slot *, const ca_sevent *) = {
	[CA_EV_MATCH] = ev_match, [CA_EV_CLAIM] = ev_claim, [CA_EV_ACTIVATE] = ev_activate,
	[CA_EV_JOBEXIT] = ev_exit, [CA_EV_VACATE] = ev_vacate, [CA_EV_RELEASE] = ev_release,
	[CA_EV_DRAIN] = ev_drain, [CA_EV_CANCELDRAIN] = ev_canceldrain,
	[CA_EV_SHUTDOWN] = ev_shutdown, [CA_EV_STARTEREXIT] = ev_exit,
	[CA_EV_BENCHMARKDONE] = ev_benchmark, [CA_EV_MACHINEUPDATE] = ev_update,
	[CA_EV_SCHEDDGONE] = ev_lease, [CA_EV_KEEPALIVE] = ev_lease,
};

static void
apply_one(ca_startd *sd, struct slot *s, const ca_sevent *ev)
{
	sd->cx.now = s->clock;
	if (ev->time < s->clock) {
		strbuf t = STRBUF_INIT;
		ca_startd_time(&t, ev->time);
		ca_sd_note(sd, s, "event %s at %s comes after the slot's time: applied now",
		    ca_sevent_name[ev->kind], t.buf);
		strbuf_release(&t);
	}
	handler[ev->kind](sd, s, ev);
	ca_arena_reset(&sd->cx.scratch);
}

/* The dynamic slot of p running (or matched to) the job an event names; when
 * the event names no job, the only dynamic slot it can be for. */
static struct slot *
dslot_for(ca_startd *sd, ca_smachine *m, struct slot *p, const ca_sevent *ev)
{
	const ca_expr *e = event_job(sd, ev);
	char buf[64];
	const char *id = ca_sd_job_id(sd, e ? e->u.ad : NULL, ev->ad, buf, sizeof buf);
	struct slot *only = NULL;
	int n = 0;

	for (size_t i = 0; i < m->slots.n; i++) {
		struct slot *d = m->slots.at[i];
		if (!live(d) || d->kind != K_DYNAMIC || d->id != p->id)
			continue;
		const char *did = lit_str(d->ad, sd->n[A_JOBID]);
		if (id != NULL && did != NULL && strcmp(did, id) == 0)
			return d;
		if (ev->kind == CA_EV_CLAIM && d->st != CA_S_MATCHED)
			continue;
		only = d;
		n++;
	}
	return id == NULL && n == 1 ? only : NULL;
}

/* ---- partitionable slot preemption ---- */

static const ca_name *
n_pending(void)
{
	return ca_intern("PendingMatch", 12);
}

/* The live dynamic slots of p that the list of names l holds. */
static size_t
named_dslots(ca_smachine *m, const struct slot *p, ca_value l, struct slot **out, size_t max)
{
	size_t k = 0;

	for (uint32_t i = 0; l.kind == CA_LIST && i < l.x.len; i++) {
		if (l.u.items[i].kind != CA_STRING)
			continue;
		struct slot *d = ca_sd_find_slot(m, l.u.items[i].u.s);
		if (d != NULL && d->kind == K_DYNAMIC && d->id == p->id && k < max)
			out[k++] = d;
	}
	return k;
}

/* A match for partitionable slot p that preempts some of its dynamic slots
 * (negotiate's PreemptedSlots, ALLOW_PSLOT_PREEMPTION): they are vacated,
 * and the dynamic slot of the new job is carved once they are gone and
 * their resources (custom ones too) are back; until then the match waits
 * in p as PendingMatch. True when the event is taken care of so. */
static bool
pslot_preempt(ca_startd *sd, ca_smachine *m, struct slot *p, const ca_sevent *ev)
{
	ca_value l = ca_eval_attr(&sd->cx, ev->ad, NULL, "PreemptedSlots");
	struct slot *ds[64];
	size_t nd = named_dslots(m, p, l, ds, 64);
	const ca_expr *je = event_job(sd, ev);
	strbuf c = STRBUF_INIT, d = STRBUF_INIT;
	bool any = false;

	ca_arena_reset(&sd->cx.scratch);
	if (nd == 0 || je == NULL)
		return false;
	strbuf_addf(&c, "event %s: %s preempts it (its partitionable slot is matched to it)",
	    ca_sevent_name[ev->kind], ca_sd_describe_job(sd, je->u.ad, ev->ad, &d));
	for (size_t i = 0; i < nd; i++) {
		struct slot *x = ds[i];
		if (x->st == CA_S_CLAIMED) {
			set_eviction(sd, x, R_VACATE);
			ca_sd_to_preempting(sd, x, 10, false, c.buf);
			any = true;
		} else if (x->st == CA_S_PREEMPTING)
			any = true;
	}
	strbuf_release(&c);
	strbuf_release(&d);
	if (!any)
		return false;
	/* the match waits for them: the event without its PreemptedSlots */
	ca_ad *pm = ca_ad_copy(ev->ad);
	ca_ad_delete(pm, ca_intern("PreemptedSlots", 14));
	ca_expr *e = ca_arena_zalloc(p->ad->arena, sizeof *e);
	e->node = CA_N_AD;
	e->u.ad = ca_ad_copy_in(p->ad->arena, pm);
	ca_ad_free(pm);
	ca_ad_set(p->ad, n_pending(), "PendingMatch", e);
	ca_sd_note(sd, p, "event %s waits until its %zu preempted dynamic slot%s are gone",
	    ca_sevent_name[ev->kind], nd, nd == 1 ? "" : "s");
	return true;
}

void
ca_sd_pending_match(ca_startd *sd, ca_smachine *m, struct slot *p)
{
	ca_ad *pm = nested(p->ad, n_pending());

	if (pm == NULL)
		return;
	for (size_t i = 0; i < m->slots.n; i++) {
		struct slot *d = m->slots.at[i];
		if (live(d) && d->kind == K_DYNAMIC && d->id == p->id &&
		    d->st == CA_S_PREEMPTING)
			return;		/* one is still being vacated */
	}
	ca_ad *copy = ca_ad_copy(pm);
	ca_sevent ev;
	ca_diag err;
	ca_ad_delete(p->ad, n_pending());
	if (ca_sevent_init(&ev, copy, p->clock, &err) == 0) {
		ev.time = p->clock;
		ca_sd_apply_event(sd, m, &ev);
	}
	ca_ad_free(copy);
}

/* ev to every live slot of the first n of m: all of them when p is NULL,
 * else the dynamic slots of partitionable slot p (only d when d is not
 * NULL). */
static void
apply_each(ca_startd *sd, ca_smachine *m, size_t n, const ca_sevent *ev, const struct slot *p,
    const struct slot *d)
{
	for (size_t i = 0; i < n; i++) {
		struct slot *x = m->slots.at[i];
		if (live(x) && (p == NULL || (x->kind == K_DYNAMIC && x->id == p->id &&
		    (d == NULL || d == x))))
			apply_one(sd, x, ev);
	}
}

void
ca_sd_apply_event(ca_startd *sd, ca_smachine *m, ca_sevent *ev)
{
	struct slot *s = ca_sd_find_slot(m, ev->name);
	bool whole = s == NULL && ca_sd_machine_named(m, ev->name);
	size_t n = m->slots.n;

	if (s == NULL && !whole)
		return;
	switch (ev->kind) {
	case CA_EV_RECONFIG:
		/* the startd's: its hooks */
		ev->used = true;
		for (size_t i = 0; i < n; i++)
			if (live(m->slots.at[i])) {
				ca_sd_note(sd, m->slots.at[i], "event Reconfig");
				break;
			}
		ca_sd_hooks_reconfig(sd, m, ev->time);
		return;
	case CA_EV_DRAIN:
	case CA_EV_CANCELDRAIN:
	case CA_EV_SHUTDOWN:
		/* commands for the whole startd */
		apply_each(sd, m, n, ev, NULL, NULL);
		ev->used = true;
		return;
	case CA_EV_MACHINEUPDATE:
	case CA_EV_VACATE:
	case CA_EV_RELEASE:
	case CA_EV_SCHEDDGONE:
	case CA_EV_KEEPALIVE:
		ev->used = true;
		if (whole) {
			apply_each(sd, m, n, ev, NULL, NULL);
			return;
		}
		if (s->kind != K_PARTITIONABLE) {
			apply_one(sd, s, ev);
			return;
		}
		if (ev->kind == CA_EV_MACHINEUPDATE)
			apply_one(sd, s, ev);
		apply_each(sd, m, n, ev, s, ev->kind == CA_EV_MACHINEUPDATE ? NULL :
		    dslot_for(sd, m, s, ev));
		return;
	default:
		break;
	}
	if (s == NULL)
		return;		/* a slot event naming a machine: no such slot */
	ev->used = true;
	if (ev->kind == CA_EV_BENCHMARKDONE) {
		apply_one(sd, s, ev);
		ca_sd_share_bench(sd, m, s);
		return;
	}
	if (s->kind == K_PARTITIONABLE) {
		struct slot *d = dslot_for(sd, m, s, ev);
		const char *why = NULL;
		ca_ad *pm = nested(s->ad, n_pending());
		if (ev->kind == CA_EV_CLAIM && d == NULL && pm != NULL) {
			/* the schedd claims the match that waits: so will it be */
			char b1[64], b2[64];
			const ca_expr *je = event_job(sd, ev);
			const char *id = ca_sd_job_id(sd, je ? je->u.ad : NULL, ev->ad, b1, sizeof b1);
			const char *pid = ca_sd_job_id(sd, nested(pm, sd->n[A_JOB]), pm, b2,
			    sizeof b2);
			if (id != NULL && pid != NULL && strcmp(id, pid) == 0) {
				ca_set_str(pm, "Event", "Claim");
				ca_sd_note(sd, s, "event Claim: the match that waits is claimed");
				return;
			}
		}
		if ((ev->kind == CA_EV_MATCH || ev->kind == CA_EV_CLAIM) && d == NULL &&
		    pslot_preempt(sd, m, s, ev))
			return;
		if (ev->kind == CA_EV_MATCH || (ev->kind == CA_EV_CLAIM &&
		    (d == NULL || d->st != CA_S_MATCHED))) {
			const ca_expr *e = event_job(sd, ev);
			if (e == NULL) {
				ignored(sd, s, ev, "the event carries no Job = [ ... ] to size a "
				    "dynamic slot");
				return;
			}
			if ((d = ca_sd_carve(sd, m, s, e, ev, &why)) == NULL) {
				strbuf w = STRBUF_INIT;
				strbuf_addf(&w, "no dynamic slot: %s", why);
				ignored(sd, s, ev, w.buf);
				strbuf_release(&w);
				return;
			}
		}
		if (d == NULL) {
			ignored(sd, s, ev, "no dynamic slot of this partitionable slot runs the "
			    "job it names (JobId)");
			return;
		}
		s = d;
	}
	apply_one(sd, s, ev);
}

