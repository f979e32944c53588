/* accountant.c - HTCondor's accountant for userprio-calc (and negotiate):
 * priority decay, factors, usage from slot ads, and the locked state file. */
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

/* The record attributes, in the order a new record is written. */
enum {
	A_NAME, A_PRIORITY, A_FACTOR, A_RES, A_WRES, A_ACCUM, A_WACCUM, A_BEGIN,
	A_LAST, A_UPDATE, A_GROUP, A_HIER, A_NATTR
};

static const char *const attr_names[A_NATTR] = {
	"Name", "Priority", "PriorityFactor", "ResourcesUsed", "WeightedResourcesUsed",
	"AccumulatedUsage", "WeightedAccumulatedUsage", "BeginUsageTime", "LastUsageTime",
	"LastUpdate", "IsAccountingGroup", "HierWeightedResourcesUsed"
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
	return 0;
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
	ca_value v = at == NULL ? ca_undef() : at->is_lit ? at->lit :
	    ca_eval_expr(cx, at->expr, ad, NULL);

	switch (v.kind) {
	case CA_UNDEFINED:
		return 0;
	case CA_INT:
		*out = (double)v.u.i;
		return 1;
	case CA_BOOL:
		*out = v.u.b;
		return 1;
	case CA_REAL:
		if (!isfinite(v.u.r))
			return -1;
		*out = v.u.r;
		return 1;
	default:
		return -1;
	}
}

int
ca_acct_add_ad(ca_acct *a, ca_ad *ad, ca_ctx *cx, int64_t now, ca_diag *err)
{
	const char *name;
	size_t len;
	double d[A_NATTR];
	int have[A_NATTR];
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
	for (int i = A_PRIORITY; i < A_NATTR; i++) {
		if (i == A_GROUP)
			continue;
		d[i] = 0;
		have[i] = num_attr(cx, ad, a->attr[i], &d[i]);
		/* counts and times must also fit an integer */
		bool whole = i == A_RES || i == A_BEGIN || i == A_LAST || i == A_UPDATE;
		if (have[i] < 0 || (have[i] && (d[i] < 0 || (whole && d[i] > 9e15)))) {
			ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0,
			    "record \"%.*s\": %s must be a number %s", shown, name, attr_names[i],
			    whole ? "from 0 to 9e15" : ">= 0");
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
	r->res = (int64_t)d[A_RES];
	r->wres = d[A_WRES];
	r->hier = d[A_HIER];
	r->accum = d[A_ACCUM];
	r->waccum = d[A_WACCUM];
	r->begin = (int64_t)d[A_BEGIN];
	r->last = (int64_t)d[A_LAST];
	r->updated = have[A_UPDATE] ? (int64_t)d[A_UPDATE] : now;
	if (r->updated > a->last_update)
		a->last_update = r->updated;
	ca_arena_reset(&cx->scratch);
	return 0;
bad:
	ca_arena_reset(&cx->scratch);
	ca_ad_free(ad);
	return -1;
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

	if (!str_attr(cx, slot, "State", &s, &n) ||
	    (!(n == 7 && ci_prefix(s, n, "Claimed", 7)) &&
	    !(n == 10 && ci_prefix(s, n, "Preempting", 10))))
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

/* The record's attributes set as literals, by their interned names (see
 * num_attr), spelled as attr_names has them. */
ca_ad *
ca_acct_rec_ad(const ca_acct *a, ca_acct_rec *r)
{
	const ca_value v[A_NATTR] = {
		[A_NAME] = ca_str(r->name, (uint32_t)strlen(r->name)),
		[A_PRIORITY] = ca_real(r->prio), [A_FACTOR] = ca_real(r->factor),
		[A_RES] = ca_int(r->res), [A_WRES] = ca_real(r->wres),
		[A_ACCUM] = ca_real(r->accum), [A_WACCUM] = ca_real(r->waccum),
		[A_BEGIN] = ca_int(r->begin), [A_LAST] = ca_int(r->last),
		[A_UPDATE] = ca_int(r->updated), [A_GROUP] = ca_bool(true),
		[A_HIER] = ca_real(r->hier)
	};

	if (r->ad == NULL)
		r->ad = ca_ad_new();
	/* IsAccountingGroup and HierWeightedResourcesUsed: groups only */
	for (int i = 0; i < (r->group ? A_NATTR : A_GROUP); i++)
		ca_ad_set(r->ad, a->attr[i], attr_names[i], ca_expr_lit(r->ad->arena, v[i]));
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
