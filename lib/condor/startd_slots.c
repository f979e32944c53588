/* startd_slots.c - the machines of the startd and their slots: slot ads read
 * from a stream, the slot layout of --init, partitionable and dynamic slots. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classad.h"
#include "startd.h"
#include "startd_int.h"

/* The legal state/activity pairs (HTCondor's history table). */
static const unsigned legal_acts[CA_S_NSTATES] = {
	[CA_S_OWNER] = 1u << CA_A_IDLE,
	[CA_S_UNCLAIMED] = 1u << CA_A_IDLE | 1u << CA_A_BENCHMARKING,
	[CA_S_MATCHED] = 1u << CA_A_IDLE,
	[CA_S_CLAIMED] = 1u << CA_A_IDLE | 1u << CA_A_BUSY | 1u << CA_A_SUSPENDED |
	    1u << CA_A_RETIRING,
	[CA_S_PREEMPTING] = 1u << CA_A_VACATING | 1u << CA_A_KILLING,
	[CA_S_BACKFILL] = 1u << CA_A_IDLE | 1u << CA_A_BUSY | 1u << CA_A_KILLING,
	[CA_S_DRAINED] = 1u << CA_A_IDLE | 1u << CA_A_RETIRING,
};

/* ---- resources ---- */

/* The machine's resources: Cpus, Memory and Disk, and so TotalSlotCpus...
 * and TotalCpus... (each three attributes in that order). */
enum { R_CPUS, R_MEM, R_DISK, NRES };

static void
get_res(ca_startd *sd, const struct slot *s, int64_t r[NRES])
{
	for (int i = 0; i < NRES; i++)
		lit_int(s->ad, sd->n[A_CPUS + i], &r[i]);
}

/* The three attributes from a (A_CPUS, A_TSCPUS or A_TCPUS) set to r. */
static void
set_res(ca_startd *sd, struct slot *s, int a, const int64_t r[NRES])
{
	for (int i = 0; i < NRES; i++)
		set_int(sd, s, a + i, r[i]);
}

/* Resources r given to (sign 1) or taken from (-1) slot s. */
static void
add_res(ca_startd *sd, struct slot *s, const int64_t r[NRES], int sign)
{
	for (int i = 0; i < NRES; i++)
		add_num(sd, s, A_CPUS + i, sign * r[i], true);
}

static bool
fits(const int64_t want[NRES], const int64_t left[NRES])
{
	return want[R_CPUS] <= left[R_CPUS] && want[R_MEM] <= left[R_MEM] &&
	    want[R_DISK] <= left[R_DISK];
}

/* ---- machines ---- */

uint64_t
ca_sd_hash_name(const char *s)
{
	uint64_t h = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		h = ca_hash_mix(h, c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
	}
	return h;
}

/* Machines with more slots than this find them by name through a table. */
#define SLOTS_BY_NAME 8

struct slot *
ca_sd_find_slot(ca_smachine *m, const char *name)
{
	struct slot *found = NULL;
	uint32_t at = UINT32_MAX;
	ca_dict_it it;

	if (m->slots.n <= SLOTS_BY_NAME) {
		for (size_t i = 0; i < m->slots.n; i++)
			if (live(m->slots.at[i]) &&
			    strcasecmp(slot_name(m->sd, m->slots.at[i]), name) == 0)
				return m->slots.at[i];
		return NULL;
	}
	/* slots are named once, before they are looked for: index the new ones
	 * (after a compaction, all of them again, by the hashes they keep) */
	for (; m->nindexed < m->slots.n; m->nindexed++) {
		struct slot *s = m->slots.at[m->nindexed];
		if (!s->hashed) {
			s->nhash = ca_sd_hash_name(slot_name(m->sd, s));
			s->hashed = true;
		}
		ca_dict_add(&m->byname, s->nhash, m->nindexed);
	}
	for (uint32_t i = ca_dict_first(&m->byname, ca_sd_hash_name(name), &it);
	    i != CA_DICT_NONE; i = ca_dict_next(&m->byname, &it)) {
		struct slot *s = m->slots.at[i];
		if (i < at && live(s) && strcasecmp(slot_name(m->sd, s), name) == 0) {
			found = s;
			at = i;
		}
	}
	return found;
}

bool
ca_sd_machine_named(const ca_smachine *m, const char *name)
{
	for (size_t i = 0; i < m->keys.n; i++)
		if (strcasecmp(m->keys.at[i], name) == 0)
			return true;
	return false;
}

static void
add_key(ca_smachine *m, const char *k)
{
	if (k != NULL && *k != '\0' && !ca_sd_machine_named(m, k))
		*ca_vec_push(&m->keys) = ca_xstrndup(k, strlen(k));
}

static void
push_slot(ca_smachine *m, struct slot *s)
{
	*ca_vec_push(&m->slots) = s;
	add_key(m, lit_str(s->ad, m->sd->n[A_MACHINE]));
	const char *n = lit_str(s->ad, m->sd->n[A_NAME]), *at = n ? strchr(n, '@') : NULL;
	add_key(m, at ? at + 1 : n);
}

static struct slot *
pslot_of(ca_smachine *m, const struct slot *d)
{
	for (size_t i = 0; i < m->slots.n; i++) {
		struct slot *p = m->slots.at[i];
		if (live(p) && p->kind == K_PARTITIONABLE && p->id == d->id)
			return p;
	}
	return NULL;
}

/* A dynamic slot back in Owner or Unclaimed goes away; its resources go
 * back to its partitionable slot. */
void
ca_sd_delete_dslot(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	struct slot *p = pslot_of(m, s);
	int64_t r[NRES] = { 0, 0, 0 };

	get_res(sd, s, r);
	if (p != NULL && has(sd, s, A_HELDJOB)) {
		/* the hold the startd put on the job outlives its slot */
		static const int held[] = { A_HELDJOB, A_HOLDREASON, A_HOLDCODE, A_HOLDSUB };
		for (size_t i = 0; i < sizeof held / sizeof held[0]; i++)
			ca_sd_setv(p->ad, sd->n[held[i]], ca_sd_aname[held[i]],
			    lit(s->ad, sd->n[held[i]]));
	}
	strbuf custom = STRBUF_INIT;
	ca_sd_res_return(sd, s, p, &custom);
	if (p != NULL) {
		add_res(sd, p, r, 1);
		ca_sd_note(sd, s, "dynamic slot deleted: Cpus %lld, Memory %lld, Disk %lld%s go "
		    "back to %s", (long long)r[R_CPUS], (long long)r[R_MEM], (long long)r[R_DISK],
		    custom.len ? custom.buf : "", slot_name(sd, p));
	} else
		ca_sd_note(sd, s, "dynamic slot deleted (its partitionable slot is not in this "
		    "stream: Cpus %lld, Memory %lld, Disk %lld%s are not given back)",
		    (long long)r[R_CPUS], (long long)r[R_MEM], (long long)r[R_DISK],
		    custom.len ? custom.buf : "");
	strbuf_release(&custom);
	s->deleted = true;
	if (p != NULL)
		ca_sd_pending_match(sd, m, p);
}

/* A request value of the job after MODIFY_REQUEST_EXPR_<X>, rounded up. */
static bool
request(ca_startd *sd, struct slot *p, const ca_ad *job, int px, int a, int64_t *raw,
    int64_t *mod)
{
	double d;

	sd->cx.now = p->clock;
	if (!num_of(ca_eval_attr(&sd->cx, job, p->ad, ca_sd_aname[a]), &d))
		return false;
	*raw = (int64_t)ceil(d);
	*mod = *raw;
	if (p->pol->x[px] != NULL &&
	    num_of(ca_eval_expr(&sd->cx, p->pol->x[px], job, p->ad), &d) && d >= 0 && d < 9e15)
		*mod = (int64_t)ceil(d);
	return true;
}

/* Carve a dynamic slot for the job of event ev out of partitionable slot p.
 * NULL (with *why) when p cannot run it. */
struct slot *
ca_sd_carve(ca_startd *sd, ca_smachine *m, struct slot *p, const ca_expr *je,
    const ca_sevent *ev, const char **why)
{
	const ca_ad *job = je->u.ad;
	int64_t raw[NRES] = { 1, 0, 0 }, want[NRES] = { 1, 0, 0 }, left[NRES] = { 0, 0, 0 };

	if (p->st != CA_S_UNCLAIMED && p->st != CA_S_OWNER) {
		*why = ca_sd_causef(sd, "the partitionable slot is %s", ca_sstate_name[p->st]);
		return NULL;
	}
	if (draining(sd, p) || shutdown_mode(sd, p) != NULL) {
		*why = draining(sd, p) ? "the machine is draining" :
		    "the machine is shutting down";
		return NULL;
	}
	if (ca_sd_truth(sd, p, PX_IS_OWNER, false) == 1) {
		*why = "IS_OWNER = true";
		return NULL;
	}
	if (!ca_sd_willing(sd, p, job, why))
		return NULL;
	if (!request(sd, p, job, PX_MODCPUS, A_REQCPUS, &raw[R_CPUS], &want[R_CPUS]))
		raw[R_CPUS] = want[R_CPUS] = 1;
	if (!request(sd, p, job, PX_MODMEM, A_REQMEM, &raw[R_MEM], &want[R_MEM])) {
		*why = "the job has no RequestMemory";
		return NULL;
	}
	if (!request(sd, p, job, PX_MODDISK, A_REQDISK, &raw[R_DISK], &want[R_DISK])) {
		*why = "the job has no RequestDisk";
		return NULL;
	}
	/* a negative request would give the partitionable slot resources
	 * back: no slot is carved (negotiate matches no such job either) */
	for (int r = 0; r < NRES; r++)
		if (raw[r] < 0) {
			static const int req[NRES] = { A_REQCPUS, A_REQMEM, A_REQDISK };
			*why = ca_sd_causef(sd, "the job asks for a negative %s (%lld)",
			    ca_sd_aname[req[r]], (long long)raw[r]);
			return NULL;
		}
	/* a match made by a consumption policy carries what it consumed: the
	 * dynamic slot gets that (as HTCondor's startd evaluates the same
	 * policy) */
	static const char *const consumed[NRES] = {
		"ConsumedCpus", "ConsumedMemory", "ConsumedDisk"
	};
	for (int r = 0; r < NRES && ev != NULL && ev->ad != NULL; r++) {
		int64_t c;
		if (lit_int(ev->ad, ca_intern(consumed[r], strlen(consumed[r])), &c) && c >= 0)
			raw[r] = want[r] = c;
	}
	get_res(sd, p, left);
	if (want[R_CPUS] < 1)
		want[R_CPUS] = 1;
	if (want[R_MEM] < 1)
		want[R_MEM] = 1;
	if (!fits(want, left)) {
		/* what MODIFY_REQUEST_EXPR rounded up does not fit: the request */
		want[R_CPUS] = raw[R_CPUS] < 1 ? 1 : raw[R_CPUS];
		want[R_MEM] = raw[R_MEM] < 1 ? 1 : raw[R_MEM];
		want[R_DISK] = raw[R_DISK];
		if (!fits(want, left)) {
			*why = ca_sd_causef(sd, "the request (Cpus %lld, Memory %lld, Disk %lld) "
			    "does not fit what is left (Cpus %lld, Memory %lld, Disk %lld)",
			    (long long)want[R_CPUS], (long long)want[R_MEM],
			    (long long)want[R_DISK], (long long)left[R_CPUS],
			    (long long)left[R_MEM], (long long)left[R_DISK]);
			return NULL;
		}
	}
	struct rplan plan[CA_SD_NCUSTOM];
	int nplan = 0;
	if ((*why = ca_sd_res_plan(sd, p, job, ev ? ev->ad : NULL, plan, &nplan)) != NULL) {
		ca_sd_res_plan_free(plan, nplan);
		return NULL;
	}

	/* the lowest free sub-id */
	int64_t sub = 1;
	for (bool again = true; again;) {
		again = false;
		for (size_t i = 0; i < m->slots.n; i++) {
			const struct slot *x = m->slots.at[i];
			if (live(x) && x->kind == K_DYNAMIC && x->id == p->id && x->sub == sub) {
				sub++;
				again = true;
			}
		}
	}
	struct slot *d = ca_xcalloc(1, sizeof *d);
	d->eval_at = INT64_MAX;
	d->ad = ca_ad_copy(p->ad);
	d->kind = K_DYNAMIC;
	d->id = p->id;
	d->sub = sub;
	d->clock = p->clock;
	d->pol = p->pol;
	d->st = CA_S_UNCLAIMED;
	d->ac = CA_A_IDLE;
	/* the partitionable slot's times in each state and activity, and
	 * what makes it one, go at once */
	const ca_name *gone[CA_S_NSTATES * CA_A_NACTS + 2];
	size_t ng = 0;
	for (int st = 0; st < CA_S_NSTATES; st++)
		for (int ac = 0; ac < CA_A_NACTS; ac++)
			gone[ng++] = sd->tt[st][ac];
	gone[ng++] = sd->n[A_PSLOT];
	gone[ng++] = sd->n[A_BFDEST];
	ca_ad_delete_all(d->ad, gone, ng);
	const char *pn = slot_name(sd, p), *at = strchr(pn, '@');
	strbuf_reset(&sd->tmp);
	strbuf_add(&sd->tmp, pn, at ? (size_t)(at - pn) : strlen(pn));
	strbuf_addf(&sd->tmp, "_%lld%s", (long long)sub, at ? at : "");
	set_str(sd, d, A_NAME, sd->tmp.buf);
	set_str(sd, d, A_SLOTTYPE, "Dynamic");
	set_bool(sd, d, A_DSLOT, true);
	set_int(sd, d, A_DSLOTID, sub);
	set_res(sd, d, A_CPUS, want);
	set_res(sd, d, A_TSCPUS, want);
	set_str(sd, d, A_STATE, ca_sstate_name[d->st]);
	set_str(sd, d, A_ACTIVITY, ca_sact_name[d->ac]);
	set_int(sd, d, A_ECS, d->clock);
	set_int(sd, d, A_ECA, d->clock);
	set_real(sd, d, A_CONDORLOAD, 0.0);
	set_real(sd, d, A_CURRENTRANK, 0.0);
	add_res(sd, p, want, -1);
	strbuf custom = STRBUF_INIT;
	ca_sd_res_give(sd, p, d, plan, nplan, &custom);
	ca_sd_res_plan_free(plan, nplan);
	ca_sd_publish_requirements(sd, d);
	push_slot(m, d);
	char buf[CA_JOBID_LEN];
	const char *id = ca_sd_job_id(sd, job, ev->ad, buf, sizeof buf);
	ca_sd_note(sd, d, "dynamic slot created from %s for job %s: Cpus %lld, Memory %lld, "
	    "Disk %lld%s", pn, id ? id : "(no id)", (long long)want[R_CPUS], (long long)want[R_MEM],
	    (long long)want[R_DISK], custom.len ? custom.buf : "");
	strbuf_release(&custom);
	return d;
}

/* ---- machines: slots from a stream ---- */

/* A literal string of ad named by a program's literal name (found by its
 * text's address, ca_intern_find), or NULL. */
static const char *
lit_str_named(const ca_ad *ad, const char *name, size_t len)
{
	const ca_name *nm = ca_intern_find(name, len);

	return nm != NULL ? lit_str(ad, nm) : NULL;
}

const char *
ca_startd_machine_key(const ca_ad *ad)
{
	const char *m = lit_str_named(ad, "Machine", 7), *n;

	if (m != NULL)
		return m;
	if ((n = lit_str_named(ad, "Name", 4)) != NULL) {
		const char *at = strchr(n, '@');
		return at ? at + 1 : n;
	}
	return "";
}

ca_smachine *
ca_smachine_new(ca_startd *sd)
{
	ca_smachine *m = ca_xcalloc(1, sizeof *m);

	m->sd = sd;
	return m;
}

void
ca_smachine_free(ca_smachine *m)
{
	if (m == NULL)
		return;
	for (size_t i = 0; i < m->slots.n; i++) {
		ca_ad_free(m->slots.at[i]->ad);
		free(m->slots.at[i]);
	}
	ca_vec_free(&m->slots);
	ca_dict_free(&m->byname);
	ca_sd_names_free(&m->keys);
	free(m);
}

void
ca_smachine_compact(ca_smachine *m)
{
	size_t k = 0;

	for (size_t i = 0; i < m->slots.n; i++) {
		struct slot *s = m->slots.at[i];
		if (s->deleted) {
			ca_ad_free(s->ad);
			free(s);
		} else {
			/* a slot whose job came or left has names beyond its
			 * shape, or none: the look-ups of every cycle until its
			 * names change again are quicker with one */
			ca_ad_reshape(s->ad);
			m->slots.at[k++] = s;
		}
	}
	if (k == m->slots.n)
		return;
	m->slots.n = k;
	/* the name table holds places: made again as slots are looked for */
	ca_dict_clear(&m->byname);
	m->nindexed = 0;
}

size_t
ca_smachine_count(const ca_smachine *m)
{
	return m->slots.n;
}

const ca_ad *
ca_smachine_slot(const ca_smachine *m, size_t i)
{
	return i < m->slots.n && !m->slots.at[i]->deleted ? m->slots.at[i]->ad : NULL;
}

static int
name_index(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/* A slot the machine cannot run: kept, and written back unchanged. */
static int
refuse(struct slot *s, ca_diag *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
refuse(struct slot *s, ca_diag *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ca_diag_vset(err, CA_EX_INPUT, NULL, 0, 0, fmt, ap);
	va_end(ap);
	s->bad = true;
	return -1;
}

int
ca_smachine_add(ca_smachine *m, ca_ad *ad, int64_t now, ca_diag *err)
{
	ca_startd *sd = m->sd;
	struct slot *s = ca_xcalloc(1, sizeof *s);
	int64_t v;

	s->eval_at = INT64_MAX;

	s->ad = ad;
	s->clock = now;
	if (lit_time(ad, sd->n[A_MYCURRENTTIME], &v))
		s->clock = v;
	push_slot(m, s);

	const char *st = lit_str(ad, sd->n[A_STATE]), *ac = lit_str(ad, sd->n[A_ACTIVITY]);
	if (st == NULL && ca_ad_find(ad, sd->n[A_STATE]) == NULL) {
		/* a slot that has never been stepped starts as a startd does */
		s->st = CA_S_OWNER;
		s->ac = CA_A_IDLE;
		set_str(sd, s, A_STATE, "Owner");
		set_str(sd, s, A_ACTIVITY, "Idle");
	} else {
		s->st = st ? name_index(ca_sstate_name, CA_S_NSTATES, st) : -1;
		s->ac = ac ? name_index(ca_sact_name, CA_A_NACTS, ac) : -1;
		if (s->st < 0 || s->ac < 0)
			return refuse(s, err, "%s: unknown %s \"%s\" (the ad is passed through "
			    "unchanged)", slot_name(sd, s), s->st < 0 ? "State" : "Activity",
			    s->st < 0 ? (st ? st : "?") : (ac ? ac : "?"));
		if (!(legal_acts[s->st] & (1u << s->ac)))
			return refuse(s, err, "%s: %s/%s is not a state and activity of a startd "
			    "(the ad is passed through unchanged)", slot_name(sd, s), st, ac);
	}
	const char *type = lit_str(ad, sd->n[A_SLOTTYPE]);
	if ((type && strcasecmp(type, "Partitionable") == 0) || lit_true(ad, sd->n[A_PSLOT]))
		s->kind = K_PARTITIONABLE;
	else if ((type && strcasecmp(type, "Dynamic") == 0) || lit_true(ad, sd->n[A_DSLOT]))
		s->kind = K_DYNAMIC;
	s->id = 1;
	lit_int(ad, sd->n[A_SLOTID], &s->id);
	lit_int(ad, sd->n[A_DSLOTID], &s->sub);
	if (s->kind == K_DYNAMIC && s->sub == 0) {
		const char *n = slot_name(sd, s), *u = strchr(n, '_');
		if (u != NULL)
			s->sub = strtoll(u + 1, NULL, 10);
	}
	int64_t cores = 0, mem = 0;
	if (!lit_int(ad, sd->n[A_DETCPUS], &cores) && !lit_int(ad, sd->n[A_TCPUS], &cores))
		lit_int(ad, sd->n[A_CPUS], &cores);
	if (!lit_int(ad, sd->n[A_DETMEMORY], &mem) && !lit_int(ad, sd->n[A_TMEMORY], &mem))
		lit_int(ad, sd->n[A_MEMORY], &mem);
	if ((s->pol = ca_sd_policy_for(sd, cores, mem)) == NULL)
		return refuse(s, err, "%s: the policy does not compile for this machine (the ad "
		    "is passed through unchanged)", slot_name(sd, s));
	/* only a claim has a schedd that can go away */
	s->gone = (s->st == CA_S_CLAIMED || s->st == CA_S_PREEMPTING) && has(sd, s, A_GONE);
	if (!has(sd, s, A_ECS))
		set_int(sd, s, A_ECS, s->clock);
	if (!has(sd, s, A_ECA))
		set_int(sd, s, A_ECA, s->clock);
	if (!lit_time(ad, sd->n[A_MYCURRENTTIME], &v))
		ca_sd_publish_clock(sd, s);
	/* a job on the slot always has a start time */
	if (((s->st == CA_S_CLAIMED && s->ac != CA_A_IDLE) || s->st == CA_S_PREEMPTING) &&
	    !job_active(sd, s) && lit_time(ad, sd->n[A_ECS], &v))
		set_int(sd, s, A_JOBSTART, v);
	ca_sd_publish_policy(sd, s);
	ca_sd_publish_requirements(sd, s);
	return 0;
}

/* ---- --init: slots from a machine description ---- */

enum { SH_AUTO, SH_FRAC, SH_ABS };
static const char *const res_name[NRES] = { "cpus", "memory", "disk" };

/* Cpus, Memory, Disk, then the custom resources (NRES + their index). */
#define MAXRES (NRES + CA_SD_NCUSTOM)

struct share {
	int kind;
	double v;
	const char *cons;	/* a custom resource's ": constraint" (in sd->arena), or NULL */
};

struct sreq {
	int64_t type;
	bool part;
	struct share sh[MAXRES];
	int64_t amt[MAXRES];
	ca_sd_names ids[CA_SD_NCUSTOM];	/* the ids of each custom resource */
};

static int
nres_of(const ca_startd *sd)
{
	return NRES + (int)sd->mres.n;
}

static const char *
rname(const ca_startd *sd, int r)
{
	return r < NRES ? res_name[r] : sd->mres.at[r - NRES].name;
}

static int
parse_share(ca_startd *sd, const char *s, size_t n, struct share *out)
{
	char buf[64], *end;
	const char *colon = memchr(s, ':', n);

	out->cons = NULL;
	if (colon != NULL) {
		/* a constraint on the ids a custom resource gets */
		const char *c = colon + 1;
		size_t cl = n - (size_t)(c - s);
		while (cl > 0 && (*c == ' ' || *c == '\t'))
			c++, cl--;
		if (cl == 0)
			return -1;
		out->cons = ca_arena_strndup(&sd->arena, c, cl);
		n = (size_t)(colon - s);
	}
	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (strcasecmp(buf, "auto") == 0) {
		out->kind = SH_AUTO;
		return 0;
	}
	char *slash = strchr(buf, '/');
	if (buf[n - 1] == '%') {
		buf[n - 1] = '\0';
		out->v = ca_strtod(buf, &end) / 100.0;
		out->kind = SH_FRAC;
		return *end == '\0' && end != buf && out->v >= 0 ? 0 : -1;
	}
	if (slash != NULL) {
		*slash = '\0';
		double a = ca_strtod(buf, &end);
		if (*end != '\0' || end == buf)
			return -1;
		double b = ca_strtod(slash + 1, &end);
		if (*end != '\0' || end == slash + 1 || !(b > 0) || a < 0)
			return -1;
		out->kind = SH_FRAC;
		out->v = a / b;
		return 0;
	}
	out->v = ca_strtod(buf, &end);
	out->kind = SH_ABS;
	return *end == '\0' && end != buf && out->v >= 0 && out->v < 9e15 ? 0 : -1;
}

/* The resource a slot type names: any leading part of cpus, memory, ram,
 * disk, swap or virtualmemory, in any case (-1: swap, not simulated; -2:
 * unknown). */
static int
res_of(ca_startd *sd, const char *k, size_t n)
{
	static const struct {
		const char *name;
		int r;
	} names[] = {
		{ "cpus", R_CPUS }, { "memory", R_MEM }, { "ram", R_MEM }, { "disk", R_DISK },
		{ "swap", -1 }, { "virtualmemory", -1 }
	};

	for (size_t i = 0; i < sd->mres.n; i++)
		if (sd->mres.at[i].configured && strlen(sd->mres.at[i].name) == n &&
		    strncasecmp(k, sd->mres.at[i].name, n) == 0)
			return NRES + (int)i;
	for (size_t i = 0; n > 0 && i < sizeof names / sizeof names[0]; i++)
		if (n <= strlen(names[i].name) && strncasecmp(k, names[i].name, n) == 0)
			return names[i].r;
	return -2;
}

/* The slot type spec of knob: "cpus=2, ram=128, swap=25%, disk=1/2", "25%",
 * "1/4", "auto", custom resources among them ("gpus=1 : Capability >= 8").
 * A spec of several lines has one item a line (a constraint may hold
 * commas). -1 with err set when it is none of them. */
static int
parse_type(ca_startd *sd, const char *knob, const char *spec, struct share sh[MAXRES],
    ca_diag *err)
{
	struct share blanket = { SH_AUTO, 0, NULL };
	bool given[MAXRES] = { false };
	const char *p = spec;
	int sep = strchr(spec, '\n') != NULL ? '\n' : ',';

	while (*p) {
		const char *e = strchr(p, sep);
		size_t n = e ? (size_t)(e - p) : strlen(p);
		const char *eq = memchr(p, '=', n);
		if (eq == NULL) {
			const char *q = p;
			size_t ql = n;
			while (ql > 0 && (*q == ' ' || *q == '\t' || *q == '\r'))
				q++, ql--;
			if (ql > 0 && (parse_share(sd, q, ql, &blanket) < 0 || blanket.cons))
				goto bad;
		} else {
			const char *k = p;
			while (k < eq && (*k == ' ' || *k == '\t'))
				k++;
			size_t kl = (size_t)(eq - k);
			while (kl > 0 && (k[kl - 1] == ' ' || k[kl - 1] == '\t'))
				kl--;
			int r = res_of(sd, k, kl);
			if (r == -2)
				return ca_sd_config_err(sd, knob, err, "%s: unknown resource "
				    "'%.*s' (cpus, memory, disk, swap, or a custom resource that "
				    "MACHINE_RESOURCE_<name> defines)", knob, (int)kl, k);
			struct share v;
			if (parse_share(sd, eq + 1, n - (size_t)(eq + 1 - p), &v) < 0 ||
			    (v.cons != NULL && r < NRES))
				goto bad;
			if (r >= 0) {
				sh[r] = v;
				given[r] = true;
			}
		}
		p += n;
		if (*p == sep)
			p++;
	}
	for (int r = 0; r < nres_of(sd); r++)
		if (!given[r])
			sh[r] = blanket;
	return 0;
bad:
	return ca_sd_config_err(sd, knob, err, "%s: '%s' is not a slot type (a fraction like "
	    "1/4, a percentage, a number, auto, or a list of resource=value)", knob, spec);
}

typedef ca_vec(struct sreq) sreqs;

/* The slot requested next, of type and partitionable or not. */
static struct sreq *
request_slot(sreqs *reqs, int64_t type, bool part)
{
	struct sreq *r = ca_vec_push(reqs);

	memset(r, 0, sizeof *r);
	r->type = type;
	r->part = part;
	return r;
}

/* The slots the configuration asks for, into reqs; 0, or -1 with err set. */
static int
layout(ca_startd *sd, int64_t ncpus, sreqs *reqs, ca_diag *err)
{
	int64_t types[64];
	size_t ntypes = 0;
	strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ca_config_count(sd->cfg); i++) {
		const char *name = ca_config_name_at(sd->cfg, i);
		if (strncasecmp(name, "NUM_SLOTS_TYPE_", 15) != 0)
			continue;
		char *end;
		long long t = strtoll(name + 15, &end, 10);
		if (*end != '\0' || t < 1 || ntypes == 64)
			continue;
		bool dup = false;
		for (size_t k = 0; k < ntypes; k++)
			dup |= types[k] == t;
		if (!dup)
			types[ntypes++] = t;
	}
	for (size_t i = 1; i < ntypes; i++)	/* ascending */
		for (size_t k = i; k > 0 && types[k - 1] > types[k]; k--) {
			int64_t x = types[k];
			types[k] = types[k - 1];
			types[k - 1] = x;
		}
	for (size_t i = 0; i < ntypes; i++) {
		char knob[64], tknob[64], pknob[80];
		int64_t count = 0;
		bool part = false;
		snprintf(knob, sizeof knob, "NUM_SLOTS_TYPE_%lld", (long long)types[i]);
		snprintf(tknob, sizeof tknob, "SLOT_TYPE_%lld", (long long)types[i]);
		snprintf(pknob, sizeof pknob, "SLOT_TYPE_%lld_PARTITIONABLE", (long long)types[i]);
		if (ca_config_int(sd->cfg, knob, &count, err) < 0 ||
		    ca_config_bool(sd->cfg, pknob, &part, err) < 0 ||
		    ca_config_string(sd->cfg, tknob, &sb, err) < 0)
			goto fail;
		if (count < 0 || count > 4096) {
			ca_sd_config_err(sd, knob, err, "%s must be between 0 and 4096", knob);
			goto fail;
		}
		struct share sh[MAXRES];
		if (parse_type(sd, tknob, sb.len ? sb.buf : "auto", sh, err) < 0)
			goto fail;
		for (int64_t k = 0; k < count; k++)
			memcpy(request_slot(reqs, types[i], part)->sh, sh, sizeof sh);
	}
	if (reqs->n == 0) {
		int64_t k = 0;
		if (ca_config_int(sd->cfg, "NUM_SLOTS", &k, err) < 0)
			goto fail;
		if (k < 0 || k > ncpus) {
			ca_sd_config_err(sd, "NUM_SLOTS", err, "NUM_SLOTS = %lld: a machine of "
			    "%lld cpus has 1 to %lld slots", (long long)k, (long long)ncpus,
			    (long long)ncpus);
			goto fail;
		}
		bool part = k == 0;	/* no slot configuration: one partitionable slot */
		if (k == 0)
			k = 1;
		for (int64_t i = 0; i < k; i++)
			request_slot(reqs, 0, part);
	}
	strbuf_release(&sb);
	return 0;
fail:
	strbuf_release(&sb);
	return -1;
}

static void
free_reqs(sreqs *reqs)
{
	for (size_t i = 0; i < reqs->n; i++)
		for (int k = 0; k < CA_SD_NCUSTOM; k++)
			ca_sd_names_free(&reqs->at[i].ids[k]);
	ca_vec_free(reqs);
}

/* Does id of custom resource k satisfy constraint cons of a slot type? A
 * string literal names the id; anything else is evaluated against the
 * id's property ad <name>_<id> in the machine description. */
static bool
id_fits(ca_startd *sd, const ca_ad *desc, int k, const char *id, const ca_expr *cons)
{
	const ca_expr *e = cons;

	while (e->node == CA_N_PAREN)
		e = e->u.k.a;
	if (e->node == CA_N_LIT && e->u.lit.kind == CA_STRING)
		return strcmp(e->u.lit.u.s, id) == 0;
	strbuf_reset(&sd->tmp);
	strbuf_addf(&sd->tmp, "%s_", sd->mres.at[k].name);
	for (const char *p = id; *p; p++)
		strbuf_addc(&sd->tmp, ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z')) ? *p : '_');
	const ca_ad *pa = nested(desc, ca_intern(sd->tmp.buf, sd->tmp.len));
	if (pa == NULL)
		return false;
	bool ok = ca_value_truth(ca_eval_expr(&sd->cx, cons, pa, NULL)) == 1;
	ca_arena_reset(&sd->cx.scratch);
	return ok;
}

/* The ids of the custom resources that have them, to the slots: first to
 * the slot types with a constraint, in slot order, then the others. */
static int
assign_ids(ca_startd *sd, const ca_ad *desc, const char *host, sreqs *reqs, struct mhave *have,
    ca_diag *err)
{
	for (int k = 0; k < (int)sd->mres.n; k++) {
		if (!have[k].with_ids)
			continue;
		bool *taken = ca_xcalloc(have[k].ids.n + 1, sizeof *taken);
		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < reqs->n; i++) {
				struct sreq *q = &reqs->at[i];
				const char *cons = q->sh[NRES + k].cons;
				ca_expr *ce = NULL;
				if ((cons != NULL) != (pass == 0))
					continue;
				if (cons != NULL) {
					ca_diag perr;
					ce = ca_parse_expr(&sd->arena, cons, strlen(cons), 0, &perr);
					if (ce == NULL) {
						free(taken);
						char knob[64];
						snprintf(knob, sizeof knob, "SLOT_TYPE_%lld",
						    (long long)q->type);
						return ca_sd_config_err(sd, knob, err, "%s: the "
						    "constraint of %s is not an expression: %s", knob,
						    sd->mres.at[k].name, cons);
					}
				}
				for (size_t j = 0; j < have[k].ids.n &&
				    (int64_t)q->ids[k].n < q->amt[NRES + k]; j++) {
					const char *id = have[k].ids.at[j];
					if (taken[j] || (ce != NULL && !id_fits(sd, desc, k, id, ce)))
						continue;
					taken[j] = true;
					*ca_vec_push(&q->ids[k]) = ca_xstrndup(id, strlen(id));
				}
				if ((int64_t)q->ids[k].n < q->amt[NRES + k]) {
					free(taken);
					ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, "machine %s: slot "
					    "type %lld wants %lld %s%s%s, only %zu are left", host,
					    (long long)q->type, (long long)q->amt[NRES + k],
					    sd->mres.at[k].name, cons ? " with " : "", cons ? cons : "",
					    q->ids[k].n);
					return -1;
				}
			}
		free(taken);
	}
	return 0;
}

/* Share each resource among the slots: fractions and numbers first, what
 * is left evenly among the "auto" ones. */
static int
allocate(ca_startd *sd, struct sreq *reqs, int n, const int64_t total[MAXRES], ca_diag *err)
{
	for (int r = 0; r < nres_of(sd); r++) {
		int64_t used = 0, nauto = 0;
		for (int i = 0; i < n; i++) {
			struct share *sh = &reqs[i].sh[r];
			if (sh->kind == SH_FRAC)
				reqs[i].amt[r] = (int64_t)floor((double)total[r] * sh->v + 1e-9);
			else if (sh->kind == SH_ABS)
				reqs[i].amt[r] = (int64_t)sh->v;
			else
				nauto++;
			if (sh->kind != SH_AUTO)
				used += reqs[i].amt[r];
		}
		if (used > total[r]) {
			char knob[64];
			snprintf(knob, sizeof knob, "SLOT_TYPE_%lld", (long long)reqs[0].type);
			return ca_sd_config_err(sd, reqs[0].type ? knob : NULL, err, "the slot "
			    "types ask for %lld %s of a machine that has %lld", (long long)used,
			    rname(sd, r), (long long)total[r]);
		}
		int64_t left = total[r] - used, k = 0;
		for (int i = 0; i < n; i++)
			if (reqs[i].sh[r].kind == SH_AUTO) {
				reqs[i].amt[r] = left / nauto + (k < left % nauto ? 1 : 0);
				k++;
			}
	}
	return 0;
}

int
ca_smachine_create(ca_smachine *m, const ca_ad *desc, int64_t now, ca_diag *err)
{
	ca_startd *sd = m->sd;
	const char *host = lit_str(desc, sd->n[A_MACHINE]);
	int64_t cores, memory, disk, ncpus, mem;
	sreqs reqs = CA_VEC_INIT;

	if (host == NULL)
		host = lit_str(desc, sd->n[A_NAME]);
	if (host == NULL || *host == '\0') {
		ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, "a machine needs a Name or Machine (its "
		    "host name)");
		return -1;
	}
	if (strchr(host, '@') != NULL)
		host = strchr(host, '@') + 1;
	if (!lit_int(desc, sd->n[A_CPUS], &cores) || cores < 1 ||
	    !lit_int(desc, sd->n[A_MEMORY], &memory) || memory < 1 ||
	    !lit_int(desc, sd->n[A_DISK], &disk) || disk < 0) {
		ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, "machine %s: Cpus, Memory (MB) and Disk "
		    "(KB) must be given as positive integers", host);
		return -1;
	}
	ca_sd_set_detected(sd, cores, memory);
	ncpus = cores;
	mem = memory;
	if (ca_config_int(sd->cfg, "NUM_CPUS", &ncpus, err) < 0 ||
	    ca_config_int(sd->cfg, "MEMORY", &mem, err) < 0)
		return -1;
	if (ncpus < 1 || mem < 1)
		return ca_sd_config_err(sd, ncpus < 1 ? "NUM_CPUS" : "MEMORY", err,
		    "%s must be positive", ncpus < 1 ? "NUM_CPUS" : "MEMORY");
	struct policy *pol = ca_sd_policy_for(sd, cores, memory);
	if (pol == NULL) {
		ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0,
		    "machine %s: the policy does not compile", host);
		return -1;
	}
	int64_t total[MAXRES] = { ncpus, mem, disk };
	struct mhave have[CA_SD_NCUSTOM];
	int nc = (int)sd->mres.n;
	for (int k = 0; k < nc; k++) {
		ca_sd_res_have(sd, desc, k, &have[k]);
		total[NRES + k] = have[k].total;
	}
	if (layout(sd, ncpus, &reqs, err) < 0 || allocate(sd, reqs.at, (int)reqs.n, total,
	    err) < 0 || assign_ids(sd, desc, host, &reqs, have, err) < 0) {
		for (int k = 0; k < nc; k++)
			ca_sd_names_free(&have[k].ids);
		free_reqs(&reqs);
		return -1;
	}
	int n = (int)reqs.n;
	for (int i = 0; i < n; i++) {
		struct slot *s = ca_xcalloc(1, sizeof *s);
		s->eval_at = INT64_MAX;
		s->ad = ca_ad_copy(desc);
		s->st = CA_S_OWNER;
		s->ac = CA_A_IDLE;
		s->clock = now;
		s->kind = reqs.at[i].part ? K_PARTITIONABLE : K_STATIC;
		s->id = i + 1;
		s->pol = pol;
		strbuf_reset(&sd->tmp);
		strbuf_addf(&sd->tmp, "slot%d@%s", i + 1, host);
		set_str(sd, s, A_NAME, sd->tmp.buf);
		if (!has(sd, s, A_MACHINE))
			set_str(sd, s, A_MACHINE, host);
		set_res(sd, s, A_CPUS, reqs.at[i].amt);
		if (!has(sd, s, A_MYTYPE))
			set_str(sd, s, A_MYTYPE, "Machine");
		set_int(sd, s, A_SLOTID, s->id);
		set_str(sd, s, A_SLOTTYPE, s->kind == K_PARTITIONABLE ? "Partitionable" :
		    "Static");
		set_int(sd, s, A_SLOTTYPEID, reqs.at[i].type);
		if (s->kind == K_PARTITIONABLE)
			set_bool(sd, s, A_PSLOT, true);
		set_res(sd, s, A_TCPUS, total);
		set_int(sd, s, A_DETCPUS, cores);
		set_int(sd, s, A_DETMEMORY, memory);
		set_res(sd, s, A_TSCPUS, reqs.at[i].amt);
		set_int(sd, s, A_TOTALSLOTS, n);
		if (!has(sd, s, A_SLOTWEIGHT))
			ca_sd_publish_expr(s, sd->n[A_SLOTWEIGHT], ca_sd_aname[A_SLOTWEIGHT],
			    sd->slot_weight, &sd->weight_pub);
		set_str(sd, s, A_STATE, "Owner");
		set_str(sd, s, A_ACTIVITY, "Idle");
		set_int(sd, s, A_ECS, now);
		set_int(sd, s, A_ECA, now);
		ca_sd_publish_clock(sd, s);
		if (!has(sd, s, A_KBDIDLE))
			set_int(sd, s, A_KBDIDLE, 0);
		if (!has(sd, s, A_CONSIDLE)) {
			int64_t k = 0;
			lit_int(s->ad, sd->n[A_KBDIDLE], &k);
			set_int(sd, s, A_CONSIDLE, k);
		}
		if (!has(sd, s, A_LOADAVG))
			set_real(sd, s, A_LOADAVG, 0.0);
		set_real(sd, s, A_CONDORLOAD, 0.0);
		set_bool(sd, s, A_CPUISBUSY, false);
		set_int(sd, s, A_CPUBUSYTIME, 0);
		if (!has(sd, s, A_LASTBENCH))
			set_int(sd, s, A_LASTBENCH, 0);
		set_real(sd, s, A_CURRENTRANK, 0.0);
		for (int k = 0; k < nc; k++)
			if (have[k].total > 0 || sd->mres.at[k].configured)
				ca_sd_res_publish(sd, s, k, &have[k], reqs.at[i].amt[NRES + k],
				    &reqs.at[i].ids[k]);
		ca_sd_publish_policy(sd, s);
		ca_sd_publish_requirements(sd, s);
		push_slot(m, s);
	}
	for (int k = 0; k < nc; k++)
		ca_sd_names_free(&have[k].ids);
	if (sd->hooks.n > 0)
		ca_sd_hooks_run(sd, m, now);		/* they run as the startd starts */
	if (sd->bench_at_start && m->slots.n > 0) {
		struct slot *s = m->slots.at[0];
		set_int(sd, s, A_LASTBENCH, now);
		ca_sd_note(sd, s, "benchmarks run as the startd starts (RunBenchmarks is not "
		    "FALSE)");
		ca_sd_run_benchmarks(sd, m, s);
		ca_sd_share_bench(sd, m, s);
	}
	/* what the first evaluation would publish, so that the ads are complete */
	for (size_t i = 0; i < m->slots.n; i++)
		if (live(m->slots.at[i]))
			ca_sd_publish_end(sd, m->slots.at[i]);
	ca_sd_cross_publish(sd, m);
	free_reqs(&reqs);
	return 0;
}

