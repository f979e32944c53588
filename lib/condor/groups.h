/* groups.h - hierarchical group quotas: the group tree from GROUP_NAMES and
 * GROUP_QUOTA_* knobs, static and dynamic quotas, surplus sharing. */
#ifndef CA_GROUPS_H
#define CA_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "classad.h"
#include "config.h"

/*
 * The rules are those of HTCondor's manual (hierarchical group quotas):
 *   - groups are named group.subgroup.subsubgroup; names compare without
 *     regard to case; a group whose parent is not defined is ignored;
 *   - GROUP_QUOTA_<g> is a static quota (a number of slots, weighted by
 *     SLOT_WEIGHT), GROUP_QUOTA_DYNAMIC_<g> a fraction (0..1) of the parent's
 *     quota (of the pool for a top-level group); static wins when both are
 *     given; neither means a dynamic quota of 0;
 *   - subgroups whose quotas add up to more than the parent's are scaled down
 *     in proportion (static ones to the parent's quota; dynamic fractions to a
 *     sum of 1); top-level static quotas are not scaled to the pool ("a
 *     static quota is independent of the size of the pool"). With
 *     NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION (HTCondor's default; false
 *     here, as the manual describes the scaling) static subgroups keep their
 *     quotas and the parent keeps its whole quota for its own submitters;
 *   - every subgroup quota is truncated to a whole number of slots and what
 *     the subgroups leave of the parent's quota (fractions included) stays
 *     with the parent's own submitters;
 *   - a user of a group is named group.subgroup.user: the part before the
 *     last '.' names the group (as deep as defined groups go); a name with
 *     no '.' belongs to no group (the root, "<none>").
 * With static and dynamic subgroups under one parent (the manual leaves this
 * open) the static ones are served first and the dynamic fractions apply
 * to what they leave, as HTCondor does.
 */

typedef struct ca_group ca_group;
struct ca_group {
	const char *name;	/* as first configured; "<none>" for the root */
	ca_group *parent;	/* NULL for the root */
	ca_vec(ca_group *) kids;	/* in name order */
	int depth;		/* root 0 */
	size_t index;		/* in ca_groups.v */

	/* configuration */
	bool is_static;		/* GROUP_QUOTA_<g> given */
	double static_quota;	/* GROUP_QUOTA_<g> */
	double dyn_quota;	/* GROUP_QUOTA_DYNAMIC_<g> */
	bool accept_surplus;	/* GROUP_ACCEPT_SURPLUS[_<g>]; always true for the root */
	bool autoregroup;	/* GROUP_AUTOREGROUP[_<g>]: its submitters also negotiate
				 * with the root's, for what is left */

	/* ca_groups_quotas */
	double incoming;	/* the quota of the subtree before subgroups take theirs */
	double quota;		/* what is left for the group's own submitters */
	double scaled;		/* the (dynamic or static) quota before truncation */

	/* ca_groups_allocate: set demand and usage first */
	double demand;		/* weighted usage plus idle demand of own submitters */
	double usage;		/* weighted usage of own submitters */
	double alloc;		/* what own submitters may use in all, surplus included */
};

typedef struct ca_groups {
	ca_group *root;
	ca_vec(ca_group *) v;	/* every group, parents before children (root first) */
	ca_dict index;		/* the groups but the root, by name without regard to case */
	bool oversubscribe;	/* NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION (default false) */
	bool autoregroup;	/* some group has GROUP_AUTOREGROUP */
	int rounds;		/* GROUP_QUOTA_MAX_ALLOCATION_ROUNDS (default 3) */
	ca_arena arena;		/* groups and names */
	strbuf warnings;	/* one line per ignored definition, "FILE:LINE: text\n" */
} ca_groups;

/* A tree holding only the root. */
void ca_groups_init(ca_groups *g);
void ca_groups_free(ca_groups *g);

/* Read the groups and their knobs from cfg (names from GROUP_NAMES and from
 * every GROUP_QUOTA_<g> and GROUP_QUOTA_DYNAMIC_<g>). Returns 0, or -1 with
 * err set for a malformed value (a negative quota, a fraction outside
 * 0..1). Definitions that are ignored are described in g->warnings. */
int ca_groups_config(ca_groups *g, ca_config *cfg, ca_diag *err);
/* Add a group by hand (tests): quota >= 0 static, else dynamic fraction
 * dyn. Returns NULL (and a warning) when its parent is not defined. The
 * groups must be added parents first. */
ca_group *ca_groups_add(ca_groups *g, const char *name, bool is_static, double quota,
    double dyn, bool accept_surplus);

/* True when some group besides the root is defined. */
static inline bool
ca_groups_active(const ca_groups *g)
{
	return g->v.n > 1;
}

/* The group called name (case-insensitive), or NULL. */
ca_group *ca_groups_find(const ca_groups *g, const char *name, size_t len);
/* The group of a submitter ("group.sub.user@domain"): the deepest defined
 * group along the part before the last '.', else the root. */
ca_group *ca_groups_of(const ca_groups *g, const char *submitter, size_t len);

/* Compute every group's quota from the pool's weighted size. */
void ca_groups_quotas(ca_groups *g, double pool);

/* Share the quotas out by demand: a group may use min(demand, quota), and
 * what groups leave unused goes, first within their own subtree and then
 * further up, to groups that accept surplus (the root always does) and
 * still want more, in proportion to their quotas (equally among those with
 * none). Sets alloc of every group. */
void ca_groups_allocate(ca_groups *g);

#endif
