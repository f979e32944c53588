/* startd_res.c - custom machine resources of the startd (GPUs and the like):
 * what a machine has, what each slot publishes, and ids given to jobs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classad.h"
#include "config.h"
#include "startd.h"
#include "startd_int.h"

/*
 * A custom resource is configured by MACHINE_RESOURCE_<name> (a count, or
 * a list of ids) or by MACHINE_RESOURCE_INVENTORY_<name> (a program whose
 * output describes it: `use FEATURE : GPUs` sets one for GPUs). A simulator
 * runs no discovery: for an inventory resource, the output is what the
 * machine description already holds, Detected<name> as a count, a string
 * of ids or a list of property ads, and the property ads <name>_<id>.
 *
 * Each slot publishes <name> (what it has free), TotalSlot<name> (what it
 * was given), Total<name> and Detected<name> (the machine's), and for a
 * resource with ids Assigned<name> ("CUDA0,CUDA1": the ids it holds) and,
 * when the machine has property ads, Available<name> ({ GPUs_CUDA0, ... }:
 * what countMatches(RequireGPUs, AvailableGPUs) reads). MachineResources
 * lists the resources of the slot. A partitionable slot gives a dynamic
 * slot the ids it asks for (the first ones whose property ads satisfy the
 * job's Require<name>) and gets them back when the dynamic slot goes.
 */

static const char *const mr_fmt[MR_N] = {
	"%s", "Total%s", "TotalSlot%s", "Detected%s", "Assigned%s", "Available%s",
	"Request%s", "Require%s"
};

static bool
standard(const char *name, size_t len)
{
	static const char *const std[] = { "Cpus", "Memory", "Disk", "Swap" };

	for (size_t i = 0; i < sizeof std / sizeof std[0]; i++)
		if (len == strlen(std[i]) && strncasecmp(name, std[i], len) == 0)
			return true;
	return false;
}

int
ca_sd_res_find(ca_startd *sd, const char *name, size_t len)
{
	for (size_t i = 0; i < sd->mres.n; i++)
		if (strlen(sd->mres.at[i].name) == len &&
		    strncasecmp(sd->mres.at[i].name, name, len) == 0)
			return (int)i;
	if (len == 0 || len > 64 || standard(name, len) || sd->mres.n >= CA_SD_NCUSTOM)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (!(name[i] == '_' || (name[i] >= '0' && name[i] <= '9') ||
		    (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z')))
			return -1;
	struct mres *r = ca_vec_push(&sd->mres);
	memset(r, 0, sizeof *r);
	r->name = ca_arena_strndup(&sd->arena, name, len);
	for (int k = 0; k < MR_N; k++) {
		char buf[96];
		int n = snprintf(buf, sizeof buf, mr_fmt[k], r->name);
		r->spell[k] = ca_arena_strndup(&sd->arena, buf, (size_t)n);
		r->n[k] = ca_intern(buf, (size_t)n);
	}
	return (int)(sd->mres.n - 1);
}

/* MACHINE_RESOURCE_NAMES, when defined, names the resources that count. */
static bool
enabled(const ca_sd_names *only, const char *name)
{
	if (only == NULL)
		return true;
	for (size_t i = 0; i < only->n; i++)
		if (strcasecmp(only->at[i], name) == 0)
			return true;
	return false;
}

int
ca_sd_res_init(ca_startd *sd, ca_diag *err)
{
	strbuf sb = STRBUF_INIT;
	ca_sd_names only = CA_VEC_INIT;
	bool limited = ca_config_defined(sd->cfg, "MACHINE_RESOURCE_NAMES");
	int rc = 0;

	if (limited) {
		if (ca_config_string(sd->cfg, "MACHINE_RESOURCE_NAMES", &sb, err) < 0) {
			rc = -1;
			goto out;
		}
		ca_sd_names_split(&only, sb.buf ? sb.buf : "");
	}
	for (size_t i = 0; i < ca_config_count(sd->cfg); i++) {
		const char *knob = ca_config_name_at(sd->cfg, i), *name;
		bool inv = false;
		if (strncasecmp(knob, "MACHINE_RESOURCE_", 17) != 0)
			continue;
		name = knob + 17;
		if (strcasecmp(name, "NAMES") == 0)
			continue;
		if (strncasecmp(name, "INVENTORY_", 10) == 0) {
			name += 10;
			inv = true;
		}
		if (!enabled(limited ? &only : NULL, name))
			continue;
		strbuf_reset(&sb);
		if (ca_config_string(sd->cfg, knob, &sb, err) < 0) {
			rc = -1;
			goto out;
		}
		if (sb.len == 0)
			continue;
		int k = ca_sd_res_find(sd, name, strlen(name));
		if (k < 0) {
			rc = ca_sd_config_err(sd, knob, err, "%s: '%s' cannot be a custom resource "
			    "(a name of letters, digits and _, not Cpus, Memory, Disk or Swap; at "
			    "most %d of them)", knob, name, CA_SD_NCUSTOM);
			goto out;
		}
		struct mres *r = &sd->mres.at[k];
		if (inv)
			r->inventory = true;
		else
			r->conf = ca_arena_strndup(&sd->arena, sb.buf, sb.len);
		r->configured = true;
	}
out:
	ca_sd_names_free(&only);
	strbuf_release(&sb);
	return rc;
}

/* The clause WithinResourceLimits has for each configured custom resource,
 * as HTCondor's startd writes it: a job that does not ask for it fits. */
void
ca_sd_res_wrl(ca_startd *sd, strbuf *out)
{
	for (size_t i = 0; i < sd->mres.n; i++)
		if (sd->mres.at[i].configured)
			strbuf_addf(out, " && (TARGET.%s is undefined || MY.%s >= TARGET.%s)",
			    sd->mres.at[i].spell[MR_REQ], sd->mres.at[i].name,
			    sd->mres.at[i].spell[MR_REQ]);
}

/* ---- ids ---- */

void
ca_sd_ids_split(ca_sd_names *v, const char *text)
{
	size_t n0 = v->n;

	ca_sd_names_split(v, text);
	while (v->n > n0 + CA_SD_MAXIDS)
		free(v->at[--v->n]);
}

/* Ids compare as their text with runs of digits as numbers: CUDA2 before
 * CUDA10. */
static int
idcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			char *ea, *eb;
			unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

void
ca_sd_ids_sort(ca_sd_names *v)
{
	for (size_t i = 1; i < v->n; i++)
		for (size_t k = i; k > 0 && idcmp(v->at[k - 1], v->at[k]) > 0; k--) {
			char *x = v->at[k];
			v->at[k] = v->at[k - 1];
			v->at[k - 1] = x;
		}
}

/* The attribute of the property ad of id: <name>_<id> with what is not a
 * letter or digit as _. */
static void
prop_attr(const struct mres *r, const char *id, strbuf *out)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s_", r->name);
	for (const char *p = id; *p; p++) {
		char c = *p;
		bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
		strbuf_addc(out, ok ? c : '_');
	}
}

/* The property ad of id in slot ad, or NULL. */
static const ca_ad *
prop_ad(ca_startd *sd, const ca_ad *ad, const struct mres *r, const char *id)
{
	prop_attr(r, id, &sd->tmp);
	return nested(ad, ca_intern(sd->tmp.buf, sd->tmp.len));
}

/* The ids of a list value: strings, or property ads with their Id. */
static void
ids_of_list(ca_startd *sd, const ca_ad *ad, const ca_expr *e, ca_sd_names *out)
{
	ca_value v = ca_eval_expr(&sd->cx, e, ad, NULL);

	if (v.kind == CA_STRING) {
		ca_sd_ids_split(out, v.u.s);
		return;
	}
	if (v.kind != CA_LIST)
		return;
	for (uint32_t i = 0; i < v.x.len && out->n < CA_SD_MAXIDS; i++) {
		ca_value x = v.u.items[i];
		if (x.kind == CA_STRING)
			*ca_vec_push(out) = ca_xstrndup(x.u.s, x.x.len);
		else if (x.kind == CA_AD) {
			const char *id;
			size_t len;
			if (ca_get_str(&sd->cx, x.u.ad->ad, "Id", &id, &len) == 1)
				*ca_vec_push(out) = ca_xstrndup(id, len);
		}
	}
}

void
ca_sd_res_have(ca_startd *sd, const ca_ad *desc, int k, struct mhave *h)
{
	const struct mres *r = &sd->mres.at[k];
	int64_t n = 0;
	char *end;

	memset(h, 0, sizeof *h);
	if (r->conf != NULL) {
		long long c = strtoll(r->conf, &end, 10);
		while (*end == ' ' || *end == '\t')
			end++;
		if (end != r->conf && *end == '\0') {
			h->total = c < 0 ? 0 : c;
			return;
		}
		ca_sd_ids_split(&h->ids, r->conf);
	} else {
		const ca_expr *e = get_expr(desc, r->n[MR_DETECTED]);
		if (e != NULL && lit_int(desc, r->n[MR_DETECTED], &n)) {
			h->total = n < 0 ? 0 : n;
			return;
		}
		if (e != NULL)
			ids_of_list(sd, desc, e, &h->ids);
		else {
			if (lit_int(desc, r->n[MR_TOTAL], &n))
				h->total = n < 0 ? 0 : n;
			return;
		}
	}
	ca_arena_reset(&sd->cx.scratch);
	/* each id once */
	size_t w = 0;
	for (size_t i = 0; i < h->ids.n; i++) {
		bool dup = false;
		for (size_t j = 0; j < w; j++)
			dup |= strcmp(h->ids.at[j], h->ids.at[i]) == 0;
		if (dup)
			free(h->ids.at[i]);
		else
			h->ids.at[w++] = h->ids.at[i];
	}
	h->ids.n = w;
	ca_sd_ids_sort(&h->ids);
	h->with_ids = true;
	h->total = (int64_t)w;
}

/* ---- publishing ---- */

/* <name>_<property> for the properties the ids' property ads agree on
 * (GPUs_Capability = 8.0 for a slot of two A100s), as a startd publishes
 * them for matchmaking; those of the other ids of the machine go. */
static void
set_props(ca_startd *sd, struct slot *s, const struct mres *r, const ca_sd_names *ids)
{
	size_t pl = strlen(r->name);
	strbuf sb = STRBUF_INIT;
	ca_vec(const ca_ad *) props = CA_VEC_INIT;

	/* every property ad of the machine: what may have been published */
	for (uint32_t i = 0; i < s->ad->n; i++) {
		const char *sp = ca_attr_spell(&s->ad->attrs[i]);
		const ca_ad *pa;
		if (strncasecmp(sp, r->name, pl) != 0 || sp[pl] != '_' ||
		    (pa = nested(s->ad, ca_attr_name(&s->ad->attrs[i]))) == NULL)
			continue;
		*ca_vec_push(&props) = pa;
	}
	for (size_t k = 0; k < props.n; k++)
		for (uint32_t j = 0; j < props.at[k]->n; j++) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s_%s", r->name, ca_attr_spell(&props.at[k]->attrs[j]));
			const ca_name *n = ca_intern(sb.buf, sb.len);
			if (nested(s->ad, n) == NULL)
				ca_ad_delete(s->ad, n);
		}
	const ca_ad *first = ids->n > 0 ? prop_ad(sd, s->ad, r, ids->at[0]) : NULL;
	for (uint32_t j = 0; first != NULL && j < first->n; j++) {
		const ca_attr *a = &first->attrs[j];
		bool common = true;
		for (size_t k = 1; k < ids->n && common; k++) {
			const ca_ad *o = prop_ad(sd, s->ad, r, ids->at[k]);
			const ca_attr *b = o ? ca_ad_find(o, ca_attr_name(a)) : NULL;
			common = b != NULL && ca_expr_same(ca_attr_expr(first, a), ca_attr_expr(o, b), 0);
		}
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s_%s", r->name, ca_attr_spell(a));
		const ca_name *n = ca_intern(sb.buf, sb.len);
		if (common && nested(s->ad, n) == NULL)
			ca_ad_set(s->ad, n, ca_name_spelling(s->ad->arena, n, sb.buf, sb.len),
			    ca_expr_copy(s->ad->arena, ca_attr_expr(first, a)));
	}
	ca_vec_free(&props);
	strbuf_release(&sb);
}

static void
set_ids(ca_startd *sd, struct slot *s, const struct mres *r, const ca_sd_names *ids)
{
	strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ids->n; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "", ids->at[i]);
	ca_sd_setv(s->ad, r->n[MR_ASSIGNED], r->spell[MR_ASSIGNED],
	    ca_str(sb.len ? sb.buf : "", (uint32_t)sb.len));
	/* Available<name> when the machine describes its ids by property ads
	 * (and once it does, also when none is left) */
	bool props = get_expr(s->ad, r->n[MR_AVAIL]) != NULL;
	strbuf_reset(&sb);
	strbuf_addc(&sb, '{');
	for (size_t i = 0; i < ids->n; i++) {
		if (prop_ad(sd, s->ad, r, ids->at[i]) != NULL)
			props = true;
		strbuf_addf(&sb, "%s%s", i ? ", " : "", sd->tmp.buf);
	}
	strbuf_addc(&sb, '}');
	if (props) {
		ca_diag perr;
		ca_expr *e = ca_parse_expr(s->ad->arena, sb.buf, sb.len, 0, &perr);
		if (e != NULL)
			ca_ad_set(s->ad, r->n[MR_AVAIL], r->spell[MR_AVAIL], e);
		set_props(sd, s, r, ids);
	}
	strbuf_release(&sb);
}

/* The resources of MachineResources after the standard ones, as one list. */
static void
add_machine_resources(ca_startd *sd, struct slot *s, const char *name)
{
	const ca_name *mr = ca_intern("MachineResources", 16);
	const char *have = lit_str(s->ad, mr);
	ca_sd_names v = CA_VEC_INIT;
	bool found = false;

	ca_sd_names_split(&v, have ? have : "Cpus Memory Disk Swap");
	for (size_t i = 0; i < v.n; i++)
		found |= strcasecmp(v.at[i], name) == 0;
	if (!found) {
		strbuf_reset(&sd->cause);
		for (size_t i = 0; i < v.n; i++)
			strbuf_addf(&sd->cause, "%s%s", i ? " " : "", v.at[i]);
		strbuf_addf(&sd->cause, " %s", name);
		ca_sd_setv(s->ad, mr, "MachineResources", ca_str(sd->cause.buf,
		    (uint32_t)sd->cause.len));
	}
	ca_sd_names_free(&v);
}

void
ca_sd_res_publish(ca_startd *sd, struct slot *s, int k, const struct mhave *machine,
    int64_t amt, const ca_sd_names *ids)
{
	const struct mres *r = &sd->mres.at[k];

	ca_sd_setv(s->ad, r->n[MR_AMT], r->spell[MR_AMT], ca_int(amt));
	ca_sd_setv(s->ad, r->n[MR_TSLOT], r->spell[MR_TSLOT], ca_int(amt));
	ca_sd_setv(s->ad, r->n[MR_TOTAL], r->spell[MR_TOTAL], ca_int(machine->total));
	ca_sd_setv(s->ad, r->n[MR_DETECTED], r->spell[MR_DETECTED], ca_int(machine->total));
	if (machine->with_ids)
		set_ids(sd, s, r, ids);
	add_machine_resources(sd, s, r->name);
}

/* ---- partitionable slots: giving out and taking back ---- */

static bool
has_res(const struct slot *s, const struct mres *r)
{
	return ca_ad_find(s->ad, r->n[MR_AMT]) != NULL;
}

/* The custom resources of slot s: the ones its MachineResources names
 * after Cpus, Memory, Disk and Swap, else the configured ones. */
static void
resources_of(ca_startd *sd, const struct slot *s, int *ks, int *n)
{
	const char *mr = lit_str(s->ad, ca_intern("MachineResources", 16));

	*n = 0;
	if (mr == NULL) {
		for (size_t i = 0; i < sd->mres.n && *n < CA_SD_NCUSTOM; i++)
			if (sd->mres.at[i].configured && has_res(s, &sd->mres.at[i]))
				ks[(*n)++] = (int)i;
		return;
	}
	for (const char *p = mr; *p && *n < CA_SD_NCUSTOM;) {
		while (*p == ' ' || *p == ',' || *p == '\t')
			p++;
		size_t l = strcspn(p, " ,\t");
		int k = l > 0 ? ca_sd_res_find(sd, p, l) : -1;
		if (k >= 0)
			ks[(*n)++] = k;
		p += l;
	}
}

void
ca_sd_res_plan_free(struct rplan *plan, int n)
{
	for (int i = 0; i < n; i++)
		ca_sd_names_free(&plan[i].ids);
}

const char *
ca_sd_res_plan(ca_startd *sd, struct slot *p, const ca_ad *job, const ca_ad *evad,
    struct rplan *plan, int *n)
{
	int ks[CA_SD_NCUSTOM], nk;
	const char *why = NULL;

	*n = 0;
	resources_of(sd, p, ks, &nk);
	sd->cx.now = p->clock;
	for (int i = 0; i < nk && why == NULL; i++) {
		const struct mres *r = &sd->mres.at[ks[i]];
		struct rplan *x = &plan[(*n)++];
		int64_t have = 0;
		double d = 0;
		memset(x, 0, sizeof *x);
		x->k = ks[i];
		lit_int(p->ad, r->n[MR_AMT], &have);
		char cname[96];
		int64_t c;
		snprintf(cname, sizeof cname, "Consumed%s", r->name);
		if (evad != NULL && lit_int(evad, ca_intern(cname, strlen(cname)), &c) && c >= 0)
			d = (double)c;
		else if (!num_of(ca_eval_attr(&sd->cx, job, p->ad, r->spell[MR_REQ]), &d))
			d = 0;
		ca_arena_reset(&sd->cx.scratch);
		if (d < 0) {
			why = ca_sd_causef(sd, "the job asks for a negative %s (%g)",
			    r->spell[MR_REQ], d);
			break;
		}
		x->amt = d > 9e15 ? INT64_MAX : (int64_t)ceil(d);
		if (x->amt > have) {
			why = ca_sd_causef(sd, "the job asks for %lld %s, the partitionable slot "
			    "has %lld left", (long long)x->amt, r->name, (long long)have);
			break;
		}
		const char *list = lit_str(p->ad, r->n[MR_ASSIGNED]);
		if (list == NULL || x->amt == 0)
			continue;
		x->with_ids = true;
		ca_sd_names free_ids = CA_VEC_INIT;
		ca_sd_ids_split(&free_ids, list);
		const ca_expr *req = get_expr(job, r->n[MR_REQUIRE]);
		size_t fit = 0;
		for (size_t j = 0; j < free_ids.n && (int64_t)x->ids.n < x->amt; j++) {
			if (req != NULL) {
				const ca_ad *pa = prop_ad(sd, p->ad, r, free_ids.at[j]);
				bool ok = pa != NULL &&
				    ca_value_truth(ca_eval_expr(&sd->cx, req, pa, job)) == 1;
				ca_arena_reset(&sd->cx.scratch);
				if (!ok)
					continue;
			}
			fit++;
			*ca_vec_push(&x->ids) = ca_xstrndup(free_ids.at[j], strlen(free_ids.at[j]));
		}
		ca_sd_names_free(&free_ids);
		if ((int64_t)x->ids.n < x->amt)
			why = ca_sd_causef(sd, "%s: %zu of the %lld free %s satisfy it, the job asks "
			    "for %lld", r->spell[MR_REQUIRE], fit, (long long)have, r->name,
			    (long long)x->amt);
	}
	return why;
}

/* ids without those of drop (sub: remove) or with those of add. */
static void
update_ids(ca_startd *sd, struct slot *s, const struct mres *r, const ca_sd_names *x, int sign)
{
	const char *list = lit_str(s->ad, r->n[MR_ASSIGNED]);
	ca_sd_names v = CA_VEC_INIT;

	ca_sd_ids_split(&v, list ? list : "");
	for (size_t i = 0; i < x->n; i++) {
		size_t at = v.n;
		for (size_t j = 0; j < v.n; j++)
			if (strcmp(v.at[j], x->at[i]) == 0)
				at = j;
		if (sign < 0 && at < v.n) {
			free(v.at[at]);
			memmove(&v.at[at], &v.at[at + 1], (v.n - at - 1) * sizeof *v.at);
			v.n--;
		} else if (sign > 0 && at == v.n)
			*ca_vec_push(&v) = ca_xstrndup(x->at[i], strlen(x->at[i]));
	}
	ca_sd_ids_sort(&v);
	set_ids(sd, s, r, &v);
	ca_sd_names_free(&v);
}

void
ca_sd_res_give(ca_startd *sd, struct slot *p, struct slot *d, const struct rplan *plan, int n,
    strbuf *note)
{
	for (int i = 0; i < n; i++) {
		const struct mres *r = &sd->mres.at[plan[i].k];
		ca_sd_setv(d->ad, r->n[MR_AMT], r->spell[MR_AMT], ca_int(plan[i].amt));
		ca_sd_setv(d->ad, r->n[MR_TSLOT], r->spell[MR_TSLOT], ca_int(plan[i].amt));
		ca_sd_add_num(p->ad, r->n[MR_AMT], r->spell[MR_AMT], -plan[i].amt, true);
		if (lit_str(p->ad, r->n[MR_ASSIGNED]) != NULL) {
			set_ids(sd, d, r, &plan[i].ids);
			update_ids(sd, p, r, &plan[i].ids, -1);
		}
		if (plan[i].amt == 0)
			continue;
		strbuf_addf(note, ", %s %lld", r->name, (long long)plan[i].amt);
		for (size_t j = 0; j < plan[i].ids.n; j++)
			strbuf_addf(note, "%s%s", j ? "," : " (", plan[i].ids.at[j]);
		if (plan[i].ids.n > 0)
			strbuf_addc(note, ')');
	}
}

void
ca_sd_res_return(ca_startd *sd, struct slot *d, struct slot *p, strbuf *note)
{
	int ks[CA_SD_NCUSTOM], nk;

	resources_of(sd, d, ks, &nk);
	for (int i = 0; i < nk; i++) {
		const struct mres *r = &sd->mres.at[ks[i]];
		int64_t amt = 0;
		if (!lit_int(d->ad, r->n[MR_TSLOT], &amt) && !lit_int(d->ad, r->n[MR_AMT], &amt))
			continue;
		const char *list = lit_str(d->ad, r->n[MR_ASSIGNED]);
		ca_sd_names ids = CA_VEC_INIT;
		ca_sd_ids_split(&ids, list ? list : "");
		if (p != NULL) {
			ca_sd_add_num(p->ad, r->n[MR_AMT], r->spell[MR_AMT], amt, true);
			if (lit_str(p->ad, r->n[MR_ASSIGNED]) != NULL)
				update_ids(sd, p, r, &ids, 1);
		}
		if (amt > 0) {
			strbuf_addf(note, ", %s %lld", r->name, (long long)amt);
			for (size_t j = 0; j < ids.n; j++)
				strbuf_addf(note, "%s%s", j ? "," : " (", ids.at[j]);
			if (ids.n > 0)
				strbuf_addc(note, ')');
		}
		ca_sd_names_free(&ids);
	}
}
