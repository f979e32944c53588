/* accountant.c - HTCondor's accountant for userprio-calc (and negotiate):
 * priority decay, factors, usage from slot ads, and the locked state file. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accountant.h"
#include "statefile.h"
#include "classad.h"

/* The record attributes, in the order a new record is written; those from
 * A_GROUP on only when they apply. A_CLIMITS ... are not record attributes:
 * names the accountant looks up in slots and job ads. */
enum {
	A_NAME, A_PRIORITY, A_FACTOR, A_RES, A_WRES, A_ACCUM, A_WACCUM, A_BEGIN,
	A_LAST, A_UPDATE, A_GROUP, A_HIER, A_CEILING, A_FLOOR, A_CEIL_EXP, A_CEIL_PRE,
	A_FLOOR_EXP, A_FLOOR_PRE, A_FACTOR_EXP, A_FACTOR_PRE, A_NREC,
	A_CLIMITS = A_NREC, A_PCLIMITS, A_MCLIMITS, A_JOB, A_PJOB, A_STATE, A_NATTR
};

static const char *const attr_names[A_NATTR] = {
	"Name", "Priority", "PriorityFactor", "ResourcesUsed", "WeightedResourcesUsed",
	"AccumulatedUsage", "WeightedAccumulatedUsage", "BeginUsageTime", "LastUsageTime",
	"LastUpdate", "IsAccountingGroup", "HierWeightedResourcesUsed", "Ceiling", "Floor",
	"CeilingLeaseExpiration", "CeilingPreLeaseValue", "FloorLeaseExpiration",
	"FloorPreLeaseValue", "PriorityFactorLeaseExpiration", "PriorityFactorPreLeaseValue",
	"ConcurrencyLimits", "PreemptingConcurrencyLimits", "MatchedConcurrencyLimits", "Job",
	"PreemptingJob", "State"
};

/* What condor_userprio shows of a record beyond what the accountant keeps:
 * left out when such a record is read. */
static const char *const view_only[] = {
	"AccountingGroup", "SubmittorId", "NegotiatorName", "EffectiveQuota", "ConfigQuota",
	"SubtreeQuota", "GroupSortKey", "SurplusPolicy", "Requested", "SubmitterShare",
	"SubmitterLimit", "MyType", "TargetType", NULL
};

/* ---- policy ---- */

void
ca_acct_policy_init(ca_acct_policy *p)
{
	memset(p, 0, sizeof *p);
	p->halflife = 86400.0;
	p->default_factor = 1.0;
	p->nice_factor = 1e7;
	p->remote_factor = 1e7;
	p->nice_prefix = "nice-user";
	p->use_slot_weights = true;
	p->limit_default = 2308032;
}

static int
bad_knob(ca_config *cfg, const char *name, ca_diag *err, const char *what)
{
	if (!ca_config_locate(cfg, name, err)) {
		err->file = "<config>";
		err->line = err->col = 0;
		err->status = CA_EX_INPUT;
	}
	snprintf(err->msg, sizeof err->msg, "%s %s", name, what);
	return -1;
}

static int
factor_knob(ca_config *cfg, const char *name, double *f, ca_diag *err)
{
	int rc = ca_config_real(cfg, name, f, err);

	if (rc < 0)
		return -1;
	if (rc > 0 && !(*f >= CA_ACCT_MIN_FACTOR && isfinite(*f)))
		return bad_knob(cfg, name, err, "must be a number of at least 1");
	return 0;
}

/* The trimmed, expanded text of a knob in arena a, or NULL when empty. */
static int
text_knob(ca_config *cfg, const char *name, ca_arena *a, const char **out, ca_diag *err)
{
	strbuf sb = STRBUF_INIT;
	int rc = ca_config_string(cfg, name, &sb, err);

	if (rc > 0) {
		const char *s = sb.buf;
		size_t n = sb.len;
		while (n > 0 && (*s == ' ' || *s == '\t')) {
			s++;
			n--;
		}
		while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		*out = n ? ca_arena_strndup(a, s, n) : NULL;
	}
	strbuf_release(&sb);
	return rc < 0 ? -1 : 0;
}

/* The knobs of the concurrency limits: CONCURRENCY_LIMIT_DEFAULT, and every
 * <NAME>_LIMIT and CONCURRENCY_LIMIT_DEFAULT_<SCOPE> the files define (with
 * or without the NEGOTIATOR. prefix; the lookup decides which one holds)
 * whose value is a number. A knob of the same spelling is looked up once. */
static int
limit_knobs(ca_acct_policy *p, ca_config *cfg, ca_arena *a, ca_diag *err)
{
	static const char dflt[] = "CONCURRENCY_LIMIT_DEFAULT", suffix[] = "_LIMIT";
	size_t n = ca_config_count(cfg);
	ca_diag ignored;

	if (ca_config_real(cfg, dflt, &p->limit_default, err) < 0)
		return -1;
	if (!isfinite(p->limit_default))
		return bad_knob(cfg, dflt, err, "must be a number");
	p->limits = ca_arena_array(a, n + 1, sizeof *p->limits);
	p->nlimits = 0;
	for (size_t i = 0; i < n; i++) {
		const char *name = ca_config_name_at(cfg, i);
		size_t len;
		bool scope = false;
		double v;
		if (strncasecmp(name, "NEGOTIATOR.", 11) == 0)
			name += 11;
		len = strlen(name);
		if (strncasecmp(name, dflt, sizeof dflt - 1) == 0 && name[sizeof dflt - 1] == '_' &&
		    name[sizeof dflt] != '\0')
			scope = true;
		else if (!(len > sizeof suffix - 1 &&
		    strcasecmp(name + len - (sizeof suffix - 1), suffix) == 0))
			continue;
		const char *key = scope ? name + sizeof dflt : name;
		size_t klen = scope ? strlen(key) : len - (sizeof suffix - 1);
		bool dup = false;
		for (size_t k = 0; k < p->nlimits && !dup; k++)
			dup = p->limits[k].scope == scope && strlen(p->limits[k].name) == klen &&
			    strncasecmp(p->limits[k].name, key, klen) == 0;
		/* a knob that is not a number is some other knob's name */
		if (dup || ca_config_real(cfg, name, &v, &ignored) != 1 || !isfinite(v))
			continue;
		char *lk = ca_arena_strndup(a, key, klen);
		for (char *c = lk; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		p->limits[p->nlimits++] = (struct ca_limit_knob){ lk, v, scope };
	}
	return 0;
}

int
ca_acct_policy_config(ca_acct_policy *p, ca_config *cfg, ca_arena *a, ca_diag *err)
{
	static const char gpf[] = "GROUP_PRIO_FACTOR_";
	const char *s = NULL;

	if (ca_config_real(cfg, "PRIORITY_HALFLIFE", &p->halflife, err) < 0)
		return -1;
	if (!(p->halflife > 0 && isfinite(p->halflife)))
		return bad_knob(cfg, "PRIORITY_HALFLIFE", err,
		    "must be a positive number of seconds");
	if (factor_knob(cfg, "DEFAULT_PRIO_FACTOR", &p->default_factor, err) < 0 ||
	    factor_knob(cfg, "NICE_USER_PRIO_FACTOR", &p->nice_factor, err) < 0 ||
	    factor_knob(cfg, "REMOTE_PRIO_FACTOR", &p->remote_factor, err) < 0)
		return -1;
	if (text_knob(cfg, "UID_DOMAIN", a, &p->uid_domain, err) < 0 ||
	    text_knob(cfg, "ACCOUNTANT_LOCAL_DOMAIN", a, &p->local_domain, err) < 0)
		return -1;
	if (p->local_domain == NULL)
		p->local_domain = p->uid_domain;
	if (text_knob(cfg, "NICE_USER_ACCOUNTING_GROUP_NAME", a, &s, err) < 0)
		return -1;
	if (s != NULL)
		p->nice_prefix = s;

	/* GROUP_NAMES: a list separated by commas or blanks */
	s = NULL;
	if (text_knob(cfg, "GROUP_NAMES", a, &s, err) < 0)
		return -1;
	if (s != NULL) {
		size_t cap = strlen(s) / 2 + 1;
		p->groups = ca_arena_array(a, cap, sizeof *p->groups);
		p->ngroups = 0;
		for (const char *q = s; *q;) {
			while (*q == ',' || *q == ' ' || *q == '\t')
				q++;
			size_t n = strcspn(q, ", \t");
			if (n > 0)
				p->groups[p->ngroups++] = ca_arena_strndup(a, q, n);
			q += n;
		}
	}

	/* GROUP_PRIO_FACTOR_<group>, a group at a time; 0 means unset */
	size_t n = ca_config_count(cfg);
	p->gf_names = ca_arena_array(a, n, sizeof *p->gf_names);
	p->gf_values = ca_arena_array(a, n, sizeof *p->gf_values);
	p->ngf = 0;
	for (size_t i = 0; i < n; i++) {
		const char *name = ca_config_name_at(cfg, i);
		if (strncasecmp(name, gpf, sizeof gpf - 1) != 0 || name[sizeof gpf - 1] == '\0')
			continue;
		double f = 0;
		if (ca_config_real(cfg, name, &f, err) < 0)
			return -1;
		if (f == 0)
			continue;
		if (!(f >= CA_ACCT_MIN_FACTOR && isfinite(f)))
			return bad_knob(cfg, name, err,
			    "must be a number of at least 1 (or 0: unset)");
		p->gf_names[p->ngf] = ca_arena_strndup(a, name + sizeof gpf - 1,
		    strlen(name) - (sizeof gpf - 1));
		p->gf_values[p->ngf++] = f;
	}

	ca_expr *e = NULL;
	int rc = ca_config_expr(cfg, "SLOT_WEIGHT", a, 0, &e, err);
	if (rc < 0)
		return -1;
	if (rc > 0)
		p->slot_weight = e;
	if (ca_config_bool(cfg, "NEGOTIATOR_USE_SLOT_WEIGHTS", &p->use_slot_weights, err) < 0 ||
	    ca_config_bool(cfg, "NEGOTIATOR_DISCOUNT_SUSPENDED_RESOURCES",
	    &p->discount_suspended, err) < 0)
		return -1;
	return limit_knobs(p, cfg, a, err);
}

/* ---- concurrency limits ---- */

/* A name part: a letter or '_', then letters, digits and '_'. */
static bool
limit_part(const char *s, size_t n)
{
	if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

bool
ca_climit_next(const char **pp, const char *end, strbuf *name, double *inc, bool *valid)
{
	const char *p = *pp;

	while (p < end && (*p == ',' || *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	if (p >= end)
		return false;
	const char *tok = p;
	while (p < end && !(*p == ',' || *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	*pp = p;
	const char *colon = memchr(tok, ':', (size_t)(p - tok));
	const char *nend = colon ? colon : p;
	strbuf_reset(name);
	for (const char *c = tok; c < nend; c++)
		strbuf_addc(name, (char)tolower((unsigned char)*c));
	*inc = 1;
	if (colon != NULL) {
		char buf[64];
		size_t n = (size_t)(p - colon - 1);
		snprintf(buf, sizeof buf, "%.*s", (int)(n < 63 ? n : 63), colon + 1);
		double x = ca_strtod(buf, NULL);
		if (x > 0 && isfinite(x))
			*inc = x;
	}
	const char *dot = memchr(name->buf, '.', name->len);
	*valid = dot ? limit_part(name->buf, (size_t)(dot - name->buf)) &&
	    limit_part(dot + 1, name->len - (size_t)(dot - name->buf) - 1) :
	    limit_part(name->buf, name->len);
	return true;
}

double
ca_acct_limit_max(const ca_acct_policy *p, const char *name, size_t len)
{
	const char *dot = NULL;
	double v = p->limit_default;

	for (size_t i = len; i > 0 && dot == NULL; i--)
		if (name[i - 1] == '.')
			dot = name + i - 1;
	for (size_t k = 0; k < p->nlimits; k++) {
		const struct ca_limit_knob *l = &p->limits[k];
		if (!l->scope && strlen(l->name) == len && strncasecmp(l->name, name, len) == 0)
			return l->value;
		if (l->scope && dot && strlen(l->name) == (size_t)(dot - name) &&
		    strncasecmp(l->name, name, (size_t)(dot - name)) == 0)
			v = l->value;
	}
	return v;
}

ca_climit *
ca_climits_get(ca_climits *t, const ca_acct_policy *p, const char *name, size_t len)
{
	uint64_t h = ca_hash_bytes(0, name, len);
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&t->index, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&t->index, &it))
		if (t->v.at[i].len == len && memcmp(t->v.at[i].name, name, len) == 0)
			return &t->v.at[i];
	ca_dict_add(&t->index, h, (uint32_t)t->v.n);
	ca_climit *l = ca_vec_push(&t->v);
	l->name = ca_arena_strndup(&t->arena, name, len);
	l->len = len;
	l->count = 0;
	l->max = ca_acct_limit_max(p, name, len);
	return l;
}

void
ca_climits_add(ca_climits *t, const ca_acct_policy *p, const char *list, size_t len,
    double sign)
{
	strbuf name = STRBUF_INIT;
	const char *q = list;
	double inc;
	bool valid;

	while (ca_climit_next(&q, list + len, &name, &inc, &valid))
		if (valid)
			ca_climits_get(t, p, name.buf, name.len)->count += sign * inc;
	strbuf_release(&name);
}

ca_climit *
ca_climits_refuse(ca_climits *t, const ca_acct_policy *p, const char *list, size_t len,
    double *inc)
{
	strbuf name = STRBUF_INIT;
	const char *q = list;
	ca_climit *over = NULL;
	bool valid;

	while (over == NULL && ca_climit_next(&q, list + len, &name, inc, &valid)) {
		if (!valid)
			continue;
		ca_climit *l = ca_climits_get(t, p, name.buf, name.len);
		/* a count below 0 is a bookkeeping error: HTCondor refuses too */
		if (l->count < 0 || l->count + *inc > l->max)
			over = l;
	}
	strbuf_release(&name);
	return over;
}

void
ca_climits_clear(ca_climits *t)
{
	for (size_t i = 0; i < t->v.n; i++)
		t->v.at[i].count = 0;
}

void
ca_climits_free(ca_climits *t)
{
	ca_vec_free(&t->v);
	ca_dict_free(&t->index);
	ca_arena_free(&t->arena);
	memset(t, 0, sizeof *t);
}

/* A string attribute (interned name nm) of ad evaluated against target:
 * true with the text when it is a non-empty string. */
static bool
str_named(ca_ctx *cx, const ca_ad *ad, const ca_name *nm, const ca_ad *target,
    const char **s, size_t *len)
{
	const ca_attr *at = ca_ad_find(ad, nm);

	if (at == NULL)
		return false;
	ca_value v;
	if (!ca_attr_lit(at, &v))
		v = ca_eval_expr(cx, ca_attr_expr(ad, at), ad, target);
	if (v.kind != CA_STRING || v.x.len == 0)
		return false;
	*s = v.u.s;
	*len = v.x.len;
	return true;
}

/* The limits of a job held on slot: what it matched with, else its own
 * evaluated against the slot. */
static void
job_limits(const ca_acct *a, ca_ctx *cx, const ca_ad *slot, int which, ca_climits *t)
{
	const ca_attr *at = ca_ad_find(slot, a->attr[which]);
	const char *s;
	size_t len;

	if (at == NULL)
		return;
	ca_value v = ca_eval_expr(cx, ca_attr_expr(slot, at), slot, NULL);
	if (v.kind != CA_AD)
		return;
	const ca_ad *job = v.u.ad->ad;
	if (str_named(cx, job, a->attr[A_MCLIMITS], slot, &s, &len) ||
	    str_named(cx, job, a->attr[A_CLIMITS], slot, &s, &len))
		ca_climits_add(t, &a->pol, s, len, 1);
}

/* Is a slot of this State held by a claim (or a match)? */
static bool
state_held(const char *s, size_t n)
{
	return (n == 7 && strncasecmp(s, "Claimed", 7) == 0) ||
	    (n == 10 && strncasecmp(s, "Preempting", 10) == 0) ||
	    (n == 7 && strncasecmp(s, "Matched", 7) == 0);
}

/* ca_acct_slot_limits with the slot's State known: held, a claim's. */
static void
slot_limits(const ca_acct *a, ca_ctx *cx, const ca_ad *slot, bool held, ca_climits *t)
{
	const char *s;
	size_t len;

	if (str_named(cx, slot, a->attr[A_CLIMITS], NULL, &s, &len))
		ca_climits_add(t, &a->pol, s, len, 1);
	else if (held)
		job_limits(a, cx, slot, A_JOB, t);
	if (str_named(cx, slot, a->attr[A_PCLIMITS], NULL, &s, &len))
		ca_climits_add(t, &a->pol, s, len, 1);
	else
		job_limits(a, cx, slot, A_PJOB, t);
}

void
ca_acct_slot_limits(const ca_acct *a, ca_ctx *cx, const ca_ad *slot, ca_climits *t)
{
	const char *s;
	size_t len;
	bool held = str_named(cx, slot, a->attr[A_STATE], NULL, &s, &len) && state_held(s, len);

	slot_limits(a, cx, slot, held, t);
	ca_arena_reset(&cx->scratch);
}

/* ---- records ---- */

void
ca_acct_init(ca_acct *a)
{
	memset(a, 0, sizeof *a);
	ca_acct_policy_init(&a->pol);
	a->tmp = (strbuf)STRBUF_INIT;
	for (int i = 0; i < A_NATTR; i++)
		a->attr[i] = ca_intern(attr_names[i], strlen(attr_names[i]));
}

void
ca_acct_free(ca_acct *a)
{
	for (size_t i = 0; i < a->recs.n; i++)
		ca_ad_free(a->recs.at[i]->ad);
	ca_vec_free(&a->recs);
	ca_dict_free(&a->index);
	strbuf_release(&a->tmp);
	ca_climits_free(&a->limits);
	ca_climits_free(&a->new_limits);
	ca_arena_free(&a->arena);
	memset(a, 0, sizeof *a);
}

/* The hash of a record's name: the high bits folded into the low ones the
 * table looks at. */
static uint64_t
name_hash(const char *s, size_t len)
{
	uint64_t h = ca_hash_bytes(0, s, len);

	return h ^ h >> 32;
}

ca_acct_rec *
ca_acct_find(const ca_acct *a, const char *name, size_t len)
{
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&a->index, name_hash(name, len), &it);
	    i != CA_DICT_NONE; i = ca_dict_next(&a->index, &it)) {
		ca_acct_rec *r = a->recs.at[i];
		if (strncmp(r->name, name, len) == 0 && r->name[len] == '\0')
			return r;
	}
	return NULL;
}

static ca_acct_rec *
add_rec(ca_acct *a, const char *name, size_t len)
{
	ca_acct_rec *r = ca_arena_zalloc(&a->arena, sizeof *r);

	r->name = ca_arena_strndup(&a->arena, name, len);
	ca_dict_add(&a->index, name_hash(name, len), (uint32_t)a->recs.n);
	*ca_vec_push(&a->recs) = r;
	return r;
}

static bool
ci_prefix(const char *s, size_t len, const char *prefix, size_t plen)
{
	return len >= plen && strncasecmp(s, prefix, plen) == 0;
}

/* Length of the user part of name: up to its last '@'. */
static size_t
user_len(const char *name, size_t len)
{
	for (size_t i = len; i > 0; i--)
		if (name[i - 1] == '@')
			return i - 1;
	return len;
}

const char *
ca_acct_group_of(const ca_acct *a, const char *name, size_t len)
{
	size_t ul = user_len(name, len), best = 0;
	const char *g = NULL;

	for (size_t i = 0; i < a->pol.ngroups; i++) {
		size_t gl = strlen(a->pol.groups[i]);
		if (gl > best && ci_prefix(name, ul, a->pol.groups[i], gl) &&
		    (ul == gl || name[gl] == '.')) {
			g = a->pol.groups[i];
			best = gl;
		}
	}
	return g;
}

/* GROUP_PRIO_FACTOR_<g> for g of length gl, or 0. */
static double
group_factor(const ca_acct *a, const char *g, size_t gl)
{
	for (size_t i = 0; i < a->pol.ngf; i++)
		if (strlen(a->pol.gf_names[i]) == gl &&
		    strncasecmp(a->pol.gf_names[i], g, gl) == 0)
			return a->pol.gf_values[i];
	return 0;
}

double
ca_acct_new_factor(const ca_acct *a, const char *name, size_t len)
{
	const ca_acct_policy *p = &a->pol;
	size_t ul = user_len(name, len), nl = strlen(p->nice_prefix);
	double f;

	if (ci_prefix(name, ul, p->nice_prefix, nl) && (ul == nl || name[nl] == '.'))
		return p->nice_factor;
	if (p->ngf > 0) {
		if (p->ngroups > 0) {
			const char *g = ca_acct_group_of(a, name, len);
			if (g != NULL && (f = group_factor(a, g, strlen(g))) > 0)
				return f;
		} else {
			/* no GROUP_NAMES: the user part, then its prefixes at '.' */
			for (size_t gl = ul; gl > 0; gl--) {
				if (gl < ul && name[gl] != '.')
					continue;
				if ((f = group_factor(a, name, gl)) > 0)
					return f;
			}
		}
	}
	if (p->local_domain != NULL && ul < len &&
	    strcasecmp(name + ul + 1, p->local_domain) != 0)
		return p->remote_factor;
	return p->default_factor;
}

static void
fresh(ca_acct *a, ca_acct_rec *r, int64_t now)
{
	ca_ad_free(r->ad);
	r->ad = NULL;
	r->prio = CA_ACCT_MIN_PRIO;
	r->factor = ca_acct_new_factor(a, r->name, strlen(r->name));
	r->res = r->new_res = 0;
	r->wres = r->hier = r->accum = r->waccum = r->new_wres = r->new_hier = 0;
	r->begin = r->last = 0;
	r->updated = a->last_update ? a->last_update : now;
	r->group = false;
	r->deleted = false;
	r->ceiling = -1;
	r->floor = 0;
	r->has_ceiling = r->has_floor = false;
	r->ceiling_lease = r->floor_lease = r->factor_lease = 0;
	r->ceiling_before = -1;
	r->floor_before = 0;
	r->factor_before = 0;
}

ca_acct_rec *
ca_acct_get(ca_acct *a, const char *name, size_t len, int64_t now)
{
	ca_acct_rec *r = ca_acct_find(a, name, len);

	if (r == NULL) {
		r = add_rec(a, name, len);
		fresh(a, r, now);
	} else if (r->deleted)
		fresh(a, r, now);
	return r;
}

/* Attribute name (interned) of a record as a number: 1 and *out set, 0
 * when absent or undefined, -1 when not a finite number; a bool counts as 0
 * or 1, as ca_get_num has it. A state holds a record per submitter and
 * ca_get_num looks the name up in the intern table on every call, which
 * made reading 100,000 records a third slower: the names are interned once
 * (ca_acct_init). */
static int
num_attr(ca_ctx *cx, const ca_ad *ad, const ca_name *name, double *out)
{
	const ca_attr *at = ca_ad_find(ad, name);
	ca_value v = ca_undef();

	if (at != NULL && !ca_attr_lit(at, &v))
		v = ca_eval_expr(cx, ca_attr_expr(ad, at), ad, NULL);
	int rc = ca_value_num(v, out);

	return rc > 0 && !isfinite(*out) ? -1 : rc;
}

/* What a record's number may be: any number >= 0, a count or time (a whole
 * number from 0), or a ceiling or floor (any number; below 0 is none). */
static int
attr_kind(int i)
{
	switch (i) {
	case A_RES: case A_BEGIN: case A_LAST: case A_UPDATE:
	case A_CEIL_EXP: case A_FLOOR_EXP: case A_FACTOR_EXP:
		return 1;
	case A_CEILING: case A_CEIL_PRE: case A_FLOOR: case A_FLOOR_PRE:
		return 2;
	default:
		return 0;
	}
}

/* Add one record ad; view: condor_userprio's view of it, whose Priority is
 * the effective priority. */
static int
add_record(ca_acct *a, ca_ad *ad, ca_ctx *cx, int64_t now, bool view, ca_diag *err)
{
	static const char *const what[3] = { ">= 0", "from 0 to 9e15", "from -9e15 to 9e15" };
	const char *name;
	size_t len;
	double d[A_NREC];
	int have[A_NREC];
	bool group = false;

	if (ca_get_str(cx, ad, attr_names[A_NAME], &name, &len) != 1 || len == 0) {
		ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0,
		    "an accountant record needs a Name string");
		goto bad;
	}
	int shown = (int)(len > 80 ? 80 : len);
	if (ca_acct_find(a, name, len) != NULL) {
		ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, "a second record named \"%.*s\"", shown,
		    name);
		goto bad;
	}
	for (int i = A_PRIORITY; i < A_NREC; i++) {
		if (i == A_GROUP)
			continue;
		d[i] = 0;
		have[i] = num_attr(cx, ad, a->attr[i], &d[i]);
		int k = attr_kind(i);
		if (have[i] < 0 || (have[i] && ((k < 2 && d[i] < 0) || (k > 0 && fabs(d[i]) > 9e15)))) {
			ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0,
			    "record \"%.*s\": %s must be a number %s", shown, name, attr_names[i],
			    what[k]);
			goto bad;
		}
	}
	ca_acct_rec *r = add_rec(a, name, len);
	r->group = ca_get_bool(cx, ad, attr_names[A_GROUP], &group) == 1 && group;
	r->ad = ad;
	r->prio = have[A_PRIORITY] ? d[A_PRIORITY] : CA_ACCT_MIN_PRIO;
	/* HTCondor's rule: a factor below 1 is chosen anew (and kept) */
	r->factor = have[A_FACTOR] && d[A_FACTOR] >= CA_ACCT_MIN_FACTOR ? d[A_FACTOR] :
	    ca_acct_new_factor(a, r->name, len);
	if (view)
		r->prio /= r->factor;
	r->res = (int64_t)d[A_RES];
	r->wres = d[A_WRES];
	r->hier = d[A_HIER];
	r->accum = d[A_ACCUM];
	r->waccum = d[A_WACCUM];
	r->begin = (int64_t)d[A_BEGIN];
	r->last = (int64_t)d[A_LAST];
	r->updated = have[A_UPDATE] ? (int64_t)d[A_UPDATE] : now;
	/* as HTCondor reads them: a ceiling below 0 is none (-1), a floor too (0) */
	r->has_ceiling = have[A_CEILING] > 0;
	r->ceiling = r->has_ceiling && d[A_CEILING] >= 0 ? (int64_t)d[A_CEILING] : -1;
	r->has_floor = have[A_FLOOR] > 0;
	r->floor = r->has_floor && d[A_FLOOR] > 0 ? (int64_t)d[A_FLOOR] : 0;
	r->ceiling_lease = (int64_t)d[A_CEIL_EXP];
	r->ceiling_before = have[A_CEIL_PRE] && d[A_CEIL_PRE] >= 0 ? (int64_t)d[A_CEIL_PRE] : -1;
	r->floor_lease = (int64_t)d[A_FLOOR_EXP];
	r->floor_before = have[A_FLOOR_PRE] && d[A_FLOOR_PRE] > 0 ? (int64_t)d[A_FLOOR_PRE] : 0;
	r->factor_lease = (int64_t)d[A_FACTOR_EXP];
	r->factor_before = d[A_FACTOR_PRE];
	if (view) {
		for (const char *const *v = view_only; *v; v++)
			ca_unset(ad, *v);
		if (!r->group)
			ca_unset(ad, attr_names[A_GROUP]);
	}
	if (r->updated > a->last_update)
		a->last_update = r->updated;
	ca_arena_reset(&cx->scratch);
	return 0;
bad:
	ca_arena_reset(&cx->scratch);
	ca_ad_free(ad);
	return -1;
}

/* The number an attribute name ends in (1 .. 1e9), or 0; *stem its length
 * without it. */
static uint32_t
name_number(const char *s, size_t len, size_t *stem)
{
	size_t i = len;
	uint64_t n = 0, scale = 1;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9' && len - i < 10) {
		n += (uint64_t)(s[i - 1] - '0') * scale;
		scale *= 10;
		i--;
	}
	*stem = i;
	return i > 0 && i < len && s[i] != '0' && n <= 1000000000 ? (uint32_t)n : 0;
}

struct numbered {
	uint32_t id;
	uint32_t attr;		/* its place in the ad */
};

static int
numbered_cmp(const void *x, const void *y)
{
	const struct numbered *a = x, *b = y;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->attr < b->attr ? -1 : a->attr > b->attr;
}

/* condor_userprio's single ad of numbered attributes: each number's
 * attributes make a record (the ad's LastUpdate for those without one),
 * in the order of the numbers. The concurrency limits it reports
 * (ConcurrencyLimit_*) are the negotiator's of that moment: not kept. */
static int
add_numbered(ca_acct *a, ca_ad *ad, ca_ctx *cx, int64_t now, ca_diag *err)
{
	ca_vec(struct numbered) v = CA_VEC_INIT;
	const ca_attr *upd = ca_ad_find(ad, a->attr[A_UPDATE]);
	int rc = 0;

	for (uint32_t i = 0; i < ad->n; i++) {
		const ca_name *nm = ca_attr_name(&ad->attrs[i]);
		size_t stem;
		uint32_t id = name_number(nm->key, nm->len, &stem);
		if (id > 0 && strncmp(nm->key, "concurrencylimit_", 17) != 0)
			*ca_vec_push(&v) = (struct numbered){ id, i };
	}
	if (v.n > 1)
		qsort(v.at, v.n, sizeof *v.at, numbered_cmp);
	for (size_t i = 0; i < v.n && rc == 0;) {
		ca_ad *rec = ca_ad_new();
		uint32_t id = v.at[i].id;
		for (; i < v.n && v.at[i].id == id; i++) {
			const ca_attr *at = &ad->attrs[v.at[i].attr];
			size_t stem;
			const char *spell = ca_attr_spell(at);
			name_number(spell, strlen(spell), &stem);
			const ca_name *nm = ca_intern(spell, stem);
			ca_ad_set(rec, nm, ca_name_spelling(rec->arena, nm, spell, stem),
			    ca_expr_copy(rec->arena, ca_attr_expr(ad, at)));
		}
		if (upd != NULL && ca_ad_find(rec, a->attr[A_UPDATE]) == NULL)
			ca_ad_set(rec, a->attr[A_UPDATE], NULL, ca_expr_copy(rec->arena, ca_attr_expr(ad, upd)));
		/* HTCondor skips a number without a name */
		if (ca_ad_find(rec, a->attr[A_NAME]) == NULL) {
			ca_ad_free(rec);
			continue;
		}
		ca_ad_trim(rec);
		rc = add_record(a, rec, cx, now, true, err);
	}
	ca_vec_free(&v);
	ca_ad_free(ad);
	return rc;
}

int
ca_acct_add_ad(ca_acct *a, ca_ad *ad, ca_ctx *cx, int64_t now, ca_diag *err)
{
	if (ca_ad_find(ad, a->attr[A_NAME]) == NULL &&
	    (ca_has(ad, "NumSubmittors") || ca_has(ad, "Name1")))
		return add_numbered(a, ad, cx, now, err);
	return add_record(a, ad, cx, now, ca_has(ad, "AccountingGroup") ||
	    ca_has(ad, "SubmittorId"), err);
}

/* A non-empty string attribute of ad (the value may live in cx->scratch). */
static bool
str_attr(ca_ctx *cx, const ca_ad *ad, const char *name, const char **s, size_t *len)
{
	return ca_get_str(cx, ad, name, s, len) == 1 && *len > 0;
}

double
ca_acct_slot_weight(const ca_acct *a, ca_ctx *cx, const ca_ad *slot)
{
	ca_value v;

	if (!a->pol.use_slot_weights)
		return 1.0;
	if (a->pol.slot_weight != NULL)
		v = ca_eval_expr(cx, a->pol.slot_weight, slot, NULL);
	else {
		v = ca_eval_attr(cx, slot, NULL, "SlotWeight");
		if (v.kind == CA_UNDEFINED)
			v = ca_eval_attr(cx, slot, NULL, "Cpus");
	}
	if (v.kind == CA_INT && v.u.i >= 0)
		return (double)v.u.i;
	if (v.kind == CA_REAL && v.u.r >= 0 && isfinite(v.u.r))
		return v.u.r;
	return 1.0;		/* missing or negative: HTCondor charges 1 */
}

bool
ca_acct_customer(const ca_acct *a, const char *group, size_t glen, const char *user,
    size_t ulen, strbuf *out)
{
	strbuf_reset(out);
	if (glen == 0) {
		if (ulen > 0)
			strbuf_add(out, user, ulen);
		return ulen > 0;
	}
	strbuf_add(out, group, glen);
	if (memchr(group, '@', glen) == NULL) {
		/* "group_physics" is charged as group_physics@UID_DOMAIN */
		size_t u = ulen > 0 ? user_len(user, ulen) : 0;
		if (u < ulen)
			strbuf_add(out, user + u, ulen - u);
		else if (a->pol.uid_domain != NULL) {
			strbuf_addc(out, '@');
			strbuf_adds(out, a->pol.uid_domain);
		}
	}
	return true;
}

/* The usage of customer name (w slots' weight) and, under GROUP_NAMES, of
 * its group and every configured ancestor (their subtree usage). */
static void
charge(ca_acct *a, const char *name, size_t len, double w, int64_t now)
{
	ca_acct_rec *r = ca_acct_get(a, name, len, now);
	const char *g;

	r->new_res++;
	r->new_wres += w;
	if (a->pol.ngroups == 0 || (g = ca_acct_group_of(a, name, len)) == NULL)
		return;
	size_t gl = strlen(g);
	ca_acct_rec *gr = ca_acct_get(a, g, gl, now);
	gr->group = true;
	if (gr != r) {
		gr->new_res++;
		gr->new_wres += w;
	}
	for (size_t k = gl; k > 0; k--) {
		if (k < gl && g[k] != '.')
			continue;
		ca_acct_rec *anc = ca_acct_find(a, g, k);
		if (anc == NULL) {
			bool configured = false;
			for (size_t i = 0; i < a->pol.ngroups; i++)
				if (strlen(a->pol.groups[i]) == k &&
				    strncasecmp(a->pol.groups[i], g, k) == 0)
					configured = true;
			if (!configured)
				continue;
			anc = ca_acct_get(a, g, k, now);
		}
		anc->group = true;
		anc->new_hier += w;
	}
}

int
ca_acct_charge_slot(ca_acct *a, ca_ctx *cx, const ca_ad *slot, int64_t now)
{
	const char *s = NULL, *user = NULL;
	size_t n = 0, ulen = 0;
	int rc = 0;

	if (!str_named(cx, slot, a->attr[A_STATE], NULL, &s, &n) || !state_held(s, n))
		goto out;
	/* the limits a claim holds count even when it is not charged */
	slot_limits(a, cx, slot, true, &a->new_limits);
	if (n == 7 && strncasecmp(s, "Matched", 7) == 0)
		goto out;
	if (a->pol.discount_suspended && str_attr(cx, slot, "Activity", &s, &n) && n == 9 &&
	    ci_prefix(s, n, "Suspended", 9))
		goto out;
	str_attr(cx, slot, "RemoteUser", &user, &ulen);
	if (!str_attr(cx, slot, "AccountingGroup", &s, &n))
		n = 0;
	if (!ca_acct_customer(a, s, n, user, ulen, &a->tmp))
		goto out;
	charge(a, a->tmp.buf, a->tmp.len, ca_acct_slot_weight(a, cx, slot), now);
	rc = 1;
out:
	ca_arena_reset(&cx->scratch);
	return rc;
}

void
ca_acct_advance(ca_acct_rec *r, int64_t now, double halflife)
{
	if (now <= r->updated)
		return;
	double dt = (double)(now - r->updated);
	double x = dt / halflife;
	double beta = exp2(-x);
	double omb = -expm1(-x * M_LN2);	/* 1 - beta without cancellation */
	double u = r->hier > 0 ? r->hier : r->wres;
	double p = r->prio < CA_ACCT_MIN_PRIO ? CA_ACCT_MIN_PRIO : r->prio;

	p = p * beta + u * omb;
	r->prio = p < CA_ACCT_MIN_PRIO ? CA_ACCT_MIN_PRIO : p;
	r->accum += (double)r->res * dt;
	r->waccum += r->wres * dt;
	if (r->res > 0 || r->wres > 0) {
		if (r->begin == 0)
			r->begin = r->updated;
		r->last = now;
	}
	r->updated = now;
}

void
ca_acct_expire_leases(ca_acct *a, int64_t now)
{
	for (size_t i = 0; i < a->recs.n; i++) {
		ca_acct_rec *r = a->recs.at[i];
		if (r->ceiling_lease > 0 && r->ceiling_lease <= now)
			ca_acct_cancel_lease(r, CA_LEASE_CEILING);
		if (r->floor_lease > 0 && r->floor_lease <= now)
			ca_acct_cancel_lease(r, CA_LEASE_FLOOR);
		if (r->factor_lease > 0 && r->factor_lease <= now)
			ca_acct_cancel_lease(r, CA_LEASE_FACTOR);
	}
}

int
ca_acct_update(ca_acct *a, int64_t now, ca_diag *err)
{
	for (size_t i = 0; i < a->recs.n; i++) {
		const ca_acct_rec *r = a->recs.at[i];
		if (!r->deleted && now < r->updated) {
			ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0,
			    "now (%lld) is before the last update of %s (%lld)", (long long)now,
			    r->name, (long long)r->updated);
			return -1;
		}
		/* slot weights near DBL_MAX would write real("INF"), which no
		 * later run could read: refuse them while nothing is changed,
		 * and usage that could not be accumulated for 30,000 years */
		ca_acct_rec t = *r;
		ca_acct_advance(&t, now, a->pol.halflife);
		if (!r->deleted && !(isfinite(t.prio) && isfinite(t.accum) && isfinite(t.waccum) &&
		    r->new_wres < 1e296 && r->new_hier < 1e296)) {
			ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, "the usage of %s is too large to "
			    "record (slot weights of %g?)", r->name, r->new_wres);
			return -1;
		}
	}
	for (size_t i = 0; i < a->recs.n; i++) {
		ca_acct_rec *r = a->recs.at[i];
		if (r->deleted)
			continue;
		ca_acct_advance(r, now, a->pol.halflife);
		r->updated = now;
		r->res = r->new_res;
		r->wres = r->new_wres;
		r->hier = r->new_hier;
		r->new_res = 0;
		r->new_wres = r->new_hier = 0;
		if (r->res > 0 || r->wres > 0) {
			if (r->begin == 0)
				r->begin = now;
			r->last = now;
		}
	}
	ca_acct_expire_leases(a, now);
	ca_climits t = a->limits;
	a->limits = a->new_limits;
	a->new_limits = t;
	ca_climits_clear(&a->new_limits);
	a->last_update = now;
	return 0;
}

void
ca_acct_set_factor(ca_acct_rec *r, double f)
{
	r->factor = f < CA_ACCT_MIN_FACTOR ? CA_ACCT_MIN_FACTOR : f;
}

void
ca_acct_reset_usage(ca_acct_rec *r, int64_t now)
{
	r->accum = r->waccum = 0;
	r->begin = now;
}

/* Set a ceiling or floor *v to x (none below `none`), as a lease until
 * `until` when that is set: false when a lease of it is in effect. */
static bool
set_bound(int64_t *v, bool *has, int64_t *lease, int64_t *before, int64_t x, int64_t none,
    int64_t until, int64_t now)
{
	if (until > 0) {
		if (*lease > now)
			return false;
		*before = *v;
		*lease = until;
	}
	*v = x < none ? none : x;
	*has = true;
	return true;
}

bool
ca_acct_set_ceiling(ca_acct_rec *r, int64_t ceiling, int64_t until, int64_t now)
{
	return set_bound(&r->ceiling, &r->has_ceiling, &r->ceiling_lease, &r->ceiling_before,
	    ceiling, -1, until, now);
}

bool
ca_acct_set_floor(ca_acct_rec *r, int64_t floor, int64_t until, int64_t now)
{
	return set_bound(&r->floor, &r->has_floor, &r->floor_lease, &r->floor_before, floor, 0,
	    until, now);
}

bool
ca_acct_lease_factor(ca_acct_rec *r, double f, int64_t until, int64_t now)
{
	if (r->factor_lease > now)
		return false;
	r->factor_before = r->factor;
	r->factor_lease = until;
	ca_acct_set_factor(r, f);
	return true;
}

bool
ca_acct_cancel_lease(ca_acct_rec *r, int kind)
{
	switch (kind) {
	case CA_LEASE_CEILING:
		if (r->ceiling_lease == 0)
			return false;
		r->ceiling = r->ceiling_before;
		r->ceiling_lease = 0;
		return true;
	case CA_LEASE_FLOOR:
		if (r->floor_lease == 0)
			return false;
		r->floor = r->floor_before;
		r->floor_lease = 0;
		return true;
	default:
		if (r->factor_lease == 0)
			return false;
		ca_acct_set_factor(r, r->factor_before);
		r->factor_lease = 0;
		return true;
	}
}

/* The record's attributes set as literals, by their interned names (see
 * num_attr), spelled as attr_names has them. */
ca_ad *
ca_acct_rec_ad(const ca_acct *a, ca_acct_rec *r)
{
	const ca_value v[A_NREC] = {
		[A_NAME] = ca_str(r->name, (uint32_t)strlen(r->name)),
		[A_PRIORITY] = ca_real(r->prio), [A_FACTOR] = ca_real(r->factor),
		[A_RES] = ca_int(r->res), [A_WRES] = ca_real(r->wres),
		[A_ACCUM] = ca_real(r->accum), [A_WACCUM] = ca_real(r->waccum),
		[A_BEGIN] = ca_int(r->begin), [A_LAST] = ca_int(r->last),
		[A_UPDATE] = ca_int(r->updated), [A_GROUP] = ca_bool(true),
		[A_HIER] = ca_real(r->hier), [A_CEILING] = ca_int(r->ceiling),
		[A_FLOOR] = ca_int(r->floor), [A_CEIL_EXP] = ca_int(r->ceiling_lease),
		[A_CEIL_PRE] = ca_int(r->ceiling_before), [A_FLOOR_EXP] = ca_int(r->floor_lease),
		[A_FLOOR_PRE] = ca_int(r->floor_before), [A_FACTOR_EXP] = ca_int(r->factor_lease),
		[A_FACTOR_PRE] = ca_real(r->factor_before)
	};
	/* from A_GROUP on, what applies: the group's attributes, a ceiling or
	 * floor once set, a lease while one was taken */
	const bool on[A_NREC] = {
		[A_GROUP] = r->group, [A_HIER] = r->group, [A_CEILING] = r->has_ceiling,
		[A_FLOOR] = r->has_floor, [A_CEIL_EXP] = r->ceiling_lease != 0,
		[A_CEIL_PRE] = r->ceiling_lease != 0, [A_FLOOR_EXP] = r->floor_lease != 0,
		[A_FLOOR_PRE] = r->floor_lease != 0, [A_FACTOR_EXP] = r->factor_lease != 0,
		[A_FACTOR_PRE] = r->factor_lease != 0
	};

	if (r->ad == NULL)
		r->ad = ca_ad_new();
	for (int i = 0; i < A_NREC; i++) {
		if (i < A_GROUP || on[i])
			ca_ad_set(r->ad, a->attr[i], attr_names[i], ca_expr_lit(r->ad->arena, v[i]));
		else if (i >= A_CEIL_EXP)
			ca_ad_delete(r->ad, a->attr[i]);	/* a lease that ended */
	}
	return r->ad;
}

void
ca_acct_shares(ca_acct_rec *const *recs, size_t n, double pool, double *out)
{
	double best = 0, sum = 0;

	/* weights relative to the best (lowest) EUP keep the usual ratios
	 * exact: EUPs 5, 10, 20 weigh 1, 0.5, 0.25 */
	for (size_t i = 0; i < n; i++) {
		double p = recs[i]->prio < CA_ACCT_MIN_PRIO ? CA_ACCT_MIN_PRIO : recs[i]->prio;
		out[i] = p * recs[i]->factor;
		if (i == 0 || out[i] < best)
			best = out[i];
	}
	for (size_t i = 0; i < n; i++) {
		out[i] = best / out[i];
		sum += out[i];
	}
	for (size_t i = 0; i < n; i++)
		out[i] = pool * out[i] / sum;
}

/* ---- the state file ---- */

int
ca_acct_read(ca_acct *a, const char *path, ca_ctx *cx, int64_t now, ca_format *fmt,
    bool *gz, ca_diag *err)
{
	unsigned char magic[2] = { 0, 0 };
	FILE *fp = fopen(path, "rb");

	if (fp == NULL) {
		if (errno == ENOENT)
			return 0;
		ca_diag_errno(err, path, errno, "cannot open the state");
		return -1;
	}
	size_t got = fread(magic, 1, 2, fp);
	fclose(fp);
	if (gz != NULL)
		*gz = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;

	ca_reader *rd = ca_reader_open(path, CA_FMT_AUTO, err);
	ca_ad *ad;
	int rc;

	if (rd == NULL)
		return -1;
	while ((rc = ca_reader_next(rd, &ad, err)) == 1) {
		int line = ca_reader_ad_line(rd);
		if (ca_acct_add_ad(a, ad, cx, now, err) < 0) {
			err->file = path;
			err->line = line;
			rc = -1;
			break;
		}
	}
	if (fmt != NULL) {
		*fmt = ca_reader_format(rd);
		if (*fmt == CA_FMT_AUTO)
			*fmt = CA_FMT_LONG;
	}
	ca_reader_close(rd);
	return rc < 0 ? -1 : 1;
}

int
ca_acct_write(ca_acct *a, const char *path, ca_format fmt, bool gz, ca_diag *err)
{
	ca_statefile sf;

	if (ca_statefile_begin(&sf, path, err) < 0)
		return -1;
	ca_writer *w = ca_writer_open(sf.fp, fmt, gz);
	if (w == NULL) {
		ca_diag_errno(err, path, errno, "cannot write %s", sf.tmp);
		ca_statefile_abort(&sf);
		return -1;
	}
	int werr = 0;
	for (size_t i = 0; i < a->recs.n && !werr; i++) {
		ca_acct_rec *r = a->recs.at[i];
		if (!r->deleted && ca_writer_put(w, ca_acct_rec_ad(a, r)) < 0) {
			werr = errno == EILSEQ ? 2 : 1;
			if (werr == 2) {
				/* a name from a slot ad, say: not a system error */
				strbuf q = STRBUF_INIT;
				ca_print_string(&q, r->name, strlen(r->name), 0);
				ca_diag_set(err, CA_EX_INPUT, path, 0, 0, "the record %.60s: %s", q.buf,
				    ca_writer_refusal(w));
				strbuf_release(&q);
			}
		}
	}
	if (ca_writer_close(w) < 0 && werr == 0)
		werr = 1;
	if (werr) {
		if (werr == 1)
			ca_diag_errno(err, path, errno, "writing %s failed", sf.tmp);
		ca_statefile_abort(&sf);
		return -1;
	}
	return ca_statefile_commit(&sf, err);
}
