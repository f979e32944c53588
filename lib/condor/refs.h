/* refs.h - what an expression reaches: the names it reads on each side of
 * a match, found without evaluating it, and the slots whose answers to such
 * walks are alike. */
#ifndef CA_REFS_H
#define CA_REFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"

/* A set of interned names in the order they were added (the names an
 * expression reaches). Zeroed is empty. */
typedef struct ca_nameset {
	ca_vec(const ca_name *) v;
	ca_dict index;
} ca_nameset;
/* Add nm: true when it was not there yet. */
bool ca_nameset_add(ca_nameset *s, const ca_name *nm);
bool ca_nameset_has(const ca_nameset *s, const ca_name *nm);
void ca_nameset_clear(ca_nameset *s);
void ca_nameset_free(ca_nameset *s);

enum ca_ref_side {
	CA_REF_SELF,		/* an attribute of the ad the expression belongs to */
	CA_REF_OTHER		/* an attribute of the other ad of the match */
};

/* Called for every attribute reference found; may be called twice for the
 * same name. */
typedef void (*ca_ref_fn)(void *arg, const ca_name *name, int side);

/* Flags of ca_expr_refs. */
#define CA_REFS_DEEP	0x1	/* follow SELF names into self's own definitions */
#define CA_REFS_STRICT	0x2	/* new ClassAd rules: no fallback to the other ad */

/* Walk e, an expression of ad self (NULL: an expression of no ad), and report
 * its attribute references: TARGET.x and OTHER.x are the other side, MY.x and
 * .x this side, an unscoped x this side when self defines it and (under the
 * daemons' rules) the other side when it does not. With CA_REFS_DEEP the
 * definitions in self of the SELF names are walked too, each once.
 * Returns 1 when the references cannot be known statically (eval(), bare
 * MY/TARGET as values, selections from computed ads), else 0. */
int ca_expr_refs(const ca_expr *e, const ca_ad *self, int flags, ca_ref_fn fn, void *arg);
/* The same, adding to looked every name it looked up in self. Of self a
 * walk sees only whether it defines a name and by which tree (never a
 * literal's value: ca_attr_tree), so an ad that answers those names as
 * self did walks e alike. */
int ca_expr_refs_looked(const ca_expr *e, const ca_ad *self, int flags, ca_ref_fn fn,
    void *arg, ca_nameset *looked);

/* Slots of a kind for walks of references. A kind is the names some walks
 * looked up in a slot and what that slot answered (ca_expr_refs_looked);
 * a slot that answers them alike would walk alike, so a caller walks a
 * slot of no known kind (ca_walkkinds_find: -1), notes its kind with what
 * the walks looked up (ca_walkkinds_note), and lets the later slots of the
 * kind reuse what the walks found. The slots of a pool fall in a few kinds
 * (their policy trees shared); at most CA_WALKKINDS are kept, the slots of
 * the others are walked one by one. Zeroed is empty. */
#define CA_WALKKINDS 16
typedef struct ca_walkkinds {
	struct ca_walkkind {
		ca_nameset names;
		ca_vec(const ca_expr *) answers;
	} k[CA_WALKKINDS];
	uint32_t n;
} ca_walkkinds;
int ca_walkkinds_find(const ca_walkkinds *w, const ca_ad *ad);
/* Note what ad answers to the names of looked in kind k (-1: a new kind,
 * of ad's answers alone); returns the kind, or -1 when none is left. */
int ca_walkkinds_note(ca_walkkinds *w, int k, const ca_ad *ad, const ca_nameset *looked);
void ca_walkkinds_free(ca_walkkinds *w);

#endif
