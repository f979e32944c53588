/* refs.c - what an expression reaches: sets of names, the walk of an
 * expression's attribute references (which side of a match each one reads,
 * through the definitions of its own ad), and the slots of a kind, which
 * answer the names such walks look up alike and so are walked once. The
 * matcher's autoclusters and the negotiator's signatures are built on them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classad.h"
#include "refs.h"

/* ---- sets of names ---- */

bool
ca_nameset_has(const ca_nameset *s, const ca_name *nm)
{
	ca_dict_it it;

	for (uint32_t i = ca_dict_first(&s->index, nm->hash, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&s->index, &it))
		if (s->v.at[i] == nm)
			return true;
	return false;
}

bool
ca_nameset_add(ca_nameset *s, const ca_name *nm)
{
	if (ca_nameset_has(s, nm))
		return false;
	ca_dict_add(&s->index, nm->hash, (uint32_t)s->v.n);
	*ca_vec_push(&s->v) = nm;
	return true;
}

void
ca_nameset_clear(ca_nameset *s)
{
	if (s->v.n > 0)
		ca_dict_clear(&s->index);
	s->v.n = 0;
}

void
ca_nameset_free(ca_nameset *s)
{
	ca_vec_free(&s->v);
	ca_dict_free(&s->index);
}

/* ---- references of an expression ---- */

#define MAX_NEST 64	/* nested ad literals looked through; deeper is dynamic */

struct walk {
	const ca_ad *self;
	int flags;
	ca_ref_fn fn;
	void *arg;
	int dynamic;
	const ca_ad *nest[MAX_NEST];	/* ad literals being walked, innermost last */
	int nnest;
	int each;			/* inside evalInEachContext's expression */
	ca_nameset follow;		/* DEEP: SELF names whose definitions to walk */
	ca_nameset *looked;		/* the names looked up in self, or NULL */
};

/* Name nm in self, noted as looked up. */
static ca_attr *
self_find(struct walk *w, const ca_name *nm)
{
	if (w->looked != NULL)
		ca_nameset_add(w->looked, nm);
	return ca_ad_find(w->self, nm);
}

/* Names that mean an ad, not an attribute, when no ad defines them. */
static bool
special_ad_name(const ca_name *nm)
{
	static const char *const names[] = {
		"my", "target", "other", "self", "parent", "toplevel", "root"
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(nm->key, names[i]) == 0)
			return true;
	return false;
}

static void
report(struct walk *w, const ca_name *nm, int side)
{
	w->fn(w->arg, nm, side);
	if (side == CA_REF_SELF && (w->flags & CA_REFS_DEEP) && w->self &&
	    self_find(w, nm) != NULL)
		ca_nameset_add(&w->follow, nm);
}

static void walk_expr(struct walk *w, const ca_expr *e);

static void
walk_name(struct walk *w, const ca_expr *e)
{
	const ca_name *nm = e->u.attr.name;

	switch (e->op) {
	case CA_SC_TARGET:
	case CA_SC_OTHER:
		report(w, nm, CA_REF_OTHER);
		return;
	case CA_SC_MY:
		report(w, nm, CA_REF_SELF);
		return;
	case CA_SC_ROOT:
		if (w->nnest == 0)
			report(w, nm, CA_REF_SELF);
		else
			w->dynamic = 1;	/* .x inside an ad literal: rare, not worth it */
		return;
	default:
		break;
	}
	for (int i = w->nnest - 1; i >= 0; i--)
		if (ca_ad_find(w->nest[i], nm) != NULL)
			return;	/* defined in an ad literal: walked with it */
	if (w->each && !special_ad_name(nm)) {
		/* evaluated in records of a list: the name may come from the
		 * record, the slot's side or the job's, whatever self defines */
		report(w, nm, CA_REF_SELF);
		if (!(w->flags & CA_REFS_STRICT))
			report(w, nm, CA_REF_OTHER);
		return;
	}
	if (w->self && self_find(w, nm) != NULL) {
		report(w, nm, CA_REF_SELF);
		return;
	}
	if (special_ad_name(nm)) {
		w->dynamic = 1;
		return;
	}
	if (strcmp(nm->key, "currenttime") == 0)
		return;		/* the clock: the same for every pair */
	if (!(w->flags & CA_REFS_STRICT))
		report(w, nm, CA_REF_OTHER);	/* the daemons' fallback */
	if (w->self == NULL)
		report(w, nm, CA_REF_SELF);
}

static void
walk_expr(struct walk *w, const ca_expr *e)
{
	if (e == NULL)
		return;
	if (ca_node_has_kids(e->node)) {
		walk_expr(w, e->u.k.a);
		walk_expr(w, e->u.k.b);
		walk_expr(w, e->u.k.c);
		return;
	}
	switch (e->node) {
	case CA_N_LIT:
		return;
	case CA_N_ATTR:
		walk_name(w, e);
		return;
	case CA_N_SELECT:
		/* base.x where base is computed: x is looked up wherever base
		 * leads, which only evaluation knows */
		walk_expr(w, e->u.sel.base);
		w->dynamic = 1;
		return;
	case CA_N_CALL: {
		const char *name = e->u.call.fn ? e->u.call.fn->name : e->u.call.spell;
		/* eval() parses and evaluates a string: any attribute at all;
		 * unresolved() depends on which names the ads define */
		if (name && (strcasecmp(name, "eval") == 0 || strcasecmp(name, "unresolved") == 0))
			w->dynamic = 1;
		bool each = name && e->u.call.n > 0 && (strcasecmp(name, "evalInEachContext") == 0 ||
		    strcasecmp(name, "countMatches") == 0);
		for (uint32_t i = 0; i < e->u.call.n; i++) {
			if (i > 0 || !each) {
				walk_expr(w, e->u.call.args[i]);
				continue;
			}
			/* the expression, or the one of the attribute named, is
			 * evaluated in each record of the list */
			const ca_expr *a = e->u.call.args[0];
			if (w->each >= 8) {
				w->dynamic = 1;
				continue;
			}
			walk_expr(w, a);
			w->each++;
			walk_expr(w, a);
			if (a->node == CA_N_ATTR && (a->op == CA_SC_NONE || a->op == CA_SC_MY) &&
			    w->self) {
				ca_attr *at = ca_ad_find(w->self, a->u.attr.name);
				if (at)
					walk_expr(w, ca_attr_expr(w->self, at));
			} else if (a->node == CA_N_ATTR || a->node == CA_N_SELECT)
				w->dynamic = 1;	/* another ad's expression */
			w->each--;
		}
		return;
	}
	case CA_N_LIST:
		for (uint32_t i = 0; i < e->u.list.n; i++)
			walk_expr(w, e->u.list.items[i]);
		return;
	case CA_N_AD:
		if (w->nnest == MAX_NEST) {
			w->dynamic = 1;
			return;
		}
		w->nest[w->nnest++] = e->u.ad;
		for (uint32_t i = 0; i < e->u.ad->n; i++)
			walk_expr(w, ca_attr_expr(e->u.ad, &e->u.ad->attrs[i]));
		w->nnest--;
		return;
	}
}

int
ca_expr_refs_looked(const ca_expr *e, const ca_ad *self, int flags, ca_ref_fn fn, void *arg,
    ca_nameset *looked)
{
	struct walk w;

	memset(&w, 0, sizeof w);
	w.self = self;
	w.flags = flags;
	w.fn = fn;
	w.arg = arg;
	w.looked = looked;
	walk_expr(&w, e);
	for (uint32_t i = 0; i < w.follow.v.n; i++) {
		ca_attr *at = self_find(&w, w.follow.v.at[i]);
		const ca_expr *t = at ? ca_attr_tree(at) : NULL;
		if (t != NULL)	/* a literal has no names */
			walk_expr(&w, t);
	}
	ca_nameset_free(&w.follow);
	return w.dynamic;
}

int
ca_expr_refs(const ca_expr *e, const ca_ad *self, int flags, ca_ref_fn fn, void *arg)
{
	return ca_expr_refs_looked(e, self, flags, fn, arg, NULL);
}

/* ---- slots of a kind for walks ---- */

/* What ad answers to a look-up of nm: its tree, NULL for a literal, or
 * &absent when it has no nm. */
static const ca_expr absent;

static const ca_expr *
answer(const ca_ad *ad, const ca_name *nm)
{
	ca_attr *at = ca_ad_find(ad, nm);

	return at != NULL ? ca_attr_tree(at) : &absent;
}

int
ca_walkkinds_find(const ca_walkkinds *w, const ca_ad *ad)
{
	for (uint32_t k = 0; k < w->n; k++) {
		const struct ca_walkkind *x = &w->k[k];
		uint32_t i = 0;
		while (i < x->names.v.n && answer(ad, x->names.v.at[i]) == x->answers.at[i])
			i++;
		if (i == x->names.v.n)
			return (int)k;
	}
	return -1;
}

int
ca_walkkinds_note(ca_walkkinds *w, int k, const ca_ad *ad, const ca_nameset *looked)
{
	if (k < 0) {
		if (w->n == CA_WALKKINDS)
			return -1;
		k = (int)w->n++;
	}
	struct ca_walkkind *x = &w->k[k];
	for (uint32_t i = 0; i < looked->v.n; i++)
		if (ca_nameset_add(&x->names, looked->v.at[i]))
			*ca_vec_push(&x->answers) = answer(ad, looked->v.at[i]);
	return k;
}

void
ca_walkkinds_free(ca_walkkinds *w)
{
	for (uint32_t k = 0; k < w->n; k++) {
		ca_nameset_free(&w->k[k].names);
		ca_vec_free(&w->k[k].answers);
	}
	w->n = 0;
}
