/* t_groups.c - unit tests of lib/condor/groups.c: the four quota cases of
 * HTCondor's manual, names and membership, the configuration, and surplus sharing. */
#include <math.h>
#include <string.h>

#include "unit.h"
#include "condor.h"

static ca_group *
find(ca_groups *g, const char *name)
{
	return ca_groups_find(g, name, strlen(name));
}

/* The groups of a configuration text, quotas computed for a pool. */
static int
load(ca_groups *g, const char *text, double pool)
{
	ca_config *cfg = ca_config_new();
	ca_diag err;
	int rc;

	ca_groups_init(g);
	rc = ca_config_load_mem(cfg, "<test>", text, strlen(text), &err);
	if (rc == 0)
		rc = ca_groups_config(g, cfg, &err);
	ca_config_free(cfg);
	ca_groups_quotas(g, pool);
	return rc;
}

UNIT_SUITE(negotiator_groups_static)
{
	ca_groups g;

	/* subgroups asking for less than the group: the rest is the group's */
	CHECK(load(&g, "GROUP_NAMES = group_physics, group_physics.experiment1, "
	    "group_physics.experiment2\n"
	    "GROUP_QUOTA_group_physics = 100\n"
	    "GROUP_QUOTA_group_physics.experiment1 = 20\n"
	    "GROUP_QUOTA_group_physics.experiment2 = 70\n", 500) == 0);
	CHECK(g.v.n == 4);
	CHECK(find(&g, "group_physics")->incoming == 100);
	CHECK(find(&g, "group_physics")->quota == 10);
	CHECK(find(&g, "group_physics.experiment1")->quota == 20);
	CHECK(find(&g, "group_physics.experiment2")->quota == 70);
	CHECK(g.root->quota == 400);
	ca_groups_free(&g);

	/* more than the group: scaled by 100/120, truncated, fractions up */
	CHECK(load(&g, "GROUP_QUOTA_group_chemistry = 100\n"
	    "GROUP_QUOTA_group_chemistry.lab1 = 40\n"
	    "GROUP_QUOTA_group_chemistry.lab2 = 80\n", 100) == 0);
	CHECK(fabs(find(&g, "group_chemistry.lab1")->scaled - 100.0 / 3) < 1e-9);
	CHECK(fabs(find(&g, "group_chemistry.lab2")->scaled - 200.0 / 3) < 1e-9);
	CHECK(find(&g, "group_chemistry.lab1")->quota == 33);
	CHECK(find(&g, "group_chemistry.lab2")->quota == 66);
	CHECK(find(&g, "group_chemistry")->quota == 1);
	CHECK(g.root->quota == 0);
	ca_groups_free(&g);

	/* a top-level static quota does not depend on the pool's size */
	CHECK(load(&g, "GROUP_QUOTA_a = 30\nGROUP_QUOTA_b = 30\n", 40) == 0);
	CHECK(find(&g, "a")->quota == 30 && find(&g, "b")->quota == 30);
	CHECK(g.root->quota == 0);
	ca_groups_free(&g);

	/* NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION keeps the subgroups' numbers,
	 * and the parent keeps all of its own (HTCondor's GroupEntry) */
	CHECK(load(&g, "NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION = True\n"
	    "GROUP_QUOTA_c = 100\nGROUP_QUOTA_c.l1 = 40\nGROUP_QUOTA_c.l2 = 80\n", 100) == 0);
	CHECK(find(&g, "c.l1")->quota == 40 && find(&g, "c.l2")->quota == 80);
	CHECK(find(&g, "c")->quota == 100);
	CHECK(g.root->quota == 0);
	ca_groups_free(&g);
}

UNIT_SUITE(negotiator_groups_dynamic)
{
	ca_groups g;

	/* .2 + .15 + .2 = .55 of .6 of 100 slots: 12, 9, 12, and 27 */
	CHECK(load(&g, "GROUP_QUOTA_DYNAMIC_group_econ = .6\n"
	    "GROUP_QUOTA_DYNAMIC_group_econ.project1 = .2\n"
	    "GROUP_QUOTA_DYNAMIC_group_econ.project2 = .15\n"
	    "GROUP_QUOTA_DYNAMIC_group_econ.project3 = .2\n", 100) == 0);
	CHECK(find(&g, "group_econ")->incoming == 60);
	CHECK(find(&g, "group_econ.project1")->quota == 12);
	CHECK(find(&g, "group_econ.project2")->quota == 9);
	CHECK(find(&g, "group_econ.project3")->quota == 12);
	CHECK(find(&g, "group_econ")->quota == 27);
	CHECK(g.root->quota == 40);
	ca_groups_free(&g);

	/* .4 + .3 + .4 = 1.1: scaled to .3636, .2727, .3636 of 50 */
	CHECK(load(&g, "GROUP_QUOTA_DYNAMIC_group_stat = .5\n"
	    "GROUP_QUOTA_DYNAMIC_group_stat.project1 = .4\n"
	    "GROUP_QUOTA_DYNAMIC_group_stat.project2 = .3\n"
	    "GROUP_QUOTA_DYNAMIC_group_stat.project3 = .4\n", 100) == 0);
	CHECK(fabs(find(&g, "group_stat.project1")->scaled - 18.1818) < 1e-4);
	CHECK(fabs(find(&g, "group_stat.project2")->scaled - 13.6364) < 1e-4);
	CHECK(find(&g, "group_stat.project1")->quota == 18);
	CHECK(find(&g, "group_stat.project2")->quota == 13);
	CHECK(find(&g, "group_stat.project3")->quota == 18);
	/* .1818 + .6364 + .1818 = 1.0 remaining machine to group_stat */
	CHECK(find(&g, "group_stat")->quota == 1);
	ca_groups_free(&g);

	/* static first, the dynamic fractions of what it leaves; static wins */
	CHECK(load(&g, "GROUP_QUOTA_m = 100\nGROUP_QUOTA_m.s = 40\n"
	    "GROUP_QUOTA_DYNAMIC_m.d = .5\nGROUP_QUOTA_m.both = 10\n"
	    "GROUP_QUOTA_DYNAMIC_m.both = .9\n", 1000) == 0);
	CHECK(find(&g, "m.s")->quota == 40 && find(&g, "m.both")->quota == 10);
	CHECK(find(&g, "m.d")->quota == 25);
	CHECK(find(&g, "m")->quota == 25);
	CHECK(strstr(g.warnings.buf, "GROUP_QUOTA_DYNAMIC_m.both ignored") != NULL);
	ca_groups_free(&g);
}

UNIT_SUITE(negotiator_groups_names)
{
	ca_groups g;

	CHECK(load(&g, "GROUP_NAMES = Group_Physics group_physics.Newton_Lab, x.y\n"
	    "GROUP_QUOTA_group_physics = 10\n"
	    "GROUP_QUOTA_MAX_ALLOCATION_ROUNDS = 2\n", 10) == 0);
	/* case-insensitive and spelled as first named; x.y has no parent */
	CHECK(g.v.n == 3);
	CHECK(strcmp(find(&g, "GROUP_PHYSICS")->name, "Group_Physics") == 0);
	CHECK(find(&g, "group_physics.newton_lab")->parent == find(&g, "group_physics"));
	CHECK(find(&g, "x.y") == NULL);
	CHECK(strstr(g.warnings.buf, "<test>:1: group x.y ignored") != NULL);
	CHECK(g.rounds == 2);
	/* group.subgroup.user@domain: as deep as defined groups go */
	const char *s = "group_physics.newton_lab.isaac@example.org";
	CHECK(ca_groups_of(&g, s, strlen(s)) == find(&g, "group_physics.newton_lab"));
	s = "GROUP_PHYSICS.isaac@example.org";
	CHECK(ca_groups_of(&g, s, strlen(s)) == find(&g, "group_physics"));
	s = "group_physics.other_lab.isaac@example.org";
	CHECK(ca_groups_of(&g, s, strlen(s)) == find(&g, "group_physics"));
	/* without a '.', no group, even when the name is a group's */
	s = "group_physics@example.org";
	CHECK(ca_groups_of(&g, s, strlen(s)) == g.root);
	s = "alice@example.org";
	CHECK(ca_groups_of(&g, s, strlen(s)) == g.root);
	s = "nosuch.alice";
	CHECK(ca_groups_of(&g, s, strlen(s)) == g.root);
	ca_groups_free(&g);

	/* malformed values are errors */
	CHECK(load(&g, "GROUP_QUOTA_a = -1\n", 10) < 0);
	ca_groups_free(&g);
	CHECK(load(&g, "GROUP_QUOTA_DYNAMIC_a = 2\n", 10) < 0);
	ca_groups_free(&g);
	CHECK(load(&g, "GROUP_QUOTA_MAX_ALLOCATION_ROUNDS = 0\n", 10) < 0);
	ca_groups_free(&g);
}

UNIT_SUITE(negotiator_groups_surplus)
{
	ca_groups g;

	CHECK(load(&g, "GROUP_QUOTA_DYNAMIC_e = .6\nGROUP_QUOTA_DYNAMIC_e.p1 = .2\n"
	    "GROUP_QUOTA_DYNAMIC_e.p2 = .15\nGROUP_QUOTA_DYNAMIC_e.p3 = .2\n"
	    "GROUP_ACCEPT_SURPLUS_e.p2 = True\n", 100) == 0);
	ca_group *e = find(&g, "e"), *p1 = find(&g, "e.p1"), *p2 = find(&g, "e.p2"),
	    *p3 = find(&g, "e.p3");
	/* p2 wants everything, the others nothing: it gets its subtree's spare
	 * (its parent does not accept surplus, so no more) */
	p2->demand = 100;
	ca_groups_allocate(&g);
	CHECK(fabs(p2->alloc - 60) < 1e-9);
	CHECK(p1->alloc == 0 && p3->alloc == 0 && e->alloc == 0);
	CHECK(g.root->alloc == 0);

	/* everybody wants more than the quota: nobody gets surplus */
	for (size_t i = 0; i < g.v.n; i++)
		g.v.at[i]->demand = 1000;
	ca_groups_allocate(&g);
	CHECK(p1->alloc == 12 && p2->alloc == 9 && p3->alloc == 12 && e->alloc == 27);
	CHECK(g.root->alloc == 40);

	/* what the subtree leaves goes up to the root, which always accepts */
	for (size_t i = 0; i < g.v.n; i++)
		g.v.at[i]->demand = 0;
	g.root->demand = 1000;
	p1->demand = 5;
	ca_groups_allocate(&g);
	CHECK(p1->alloc == 5);
	CHECK(fabs(g.root->alloc - 95) < 1e-9);
	ca_groups_free(&g);

	/* accepting groups share in proportion to their quotas; zero quotas
	 * share what is left equally */
	CHECK(load(&g, "GROUP_ACCEPT_SURPLUS = True\nGROUP_QUOTA_a = 10\nGROUP_QUOTA_b = 30\n"
	    "GROUP_QUOTA_z1 = 0\nGROUP_QUOTA_z2 = 0\n", 100) == 0);
	ca_group *a = find(&g, "a"), *b = find(&g, "b"), *z1 = find(&g, "z1"),
	    *z2 = find(&g, "z2");
	a->demand = 1000;
	b->demand = 1000;
	ca_groups_allocate(&g);
	/* the root's 60 unused: 15 to a, 45 to b */
	CHECK(fabs(a->alloc - 25) < 1e-9 && fabs(b->alloc - 75) < 1e-9);
	a->demand = 20;
	b->demand = 35;
	z1->demand = 100;
	z2->demand = 10;
	ca_groups_allocate(&g);
	CHECK(fabs(a->alloc - 20) < 1e-9 && fabs(b->alloc - 35) < 1e-9);
	/* 45 left: z2 takes its 10, z1 the other 35 */
	CHECK(fabs(z2->alloc - 10) < 1e-9 && fabs(z1->alloc - 35) < 1e-9);
	ca_groups_free(&g);
}

UNIT_SUITE(negotiator_groups_autoregroup)
{
	ca_groups g;

	/* GROUP_AUTOREGROUP for all, GROUP_AUTOREGROUP_<g> for one (later wins) */
	CHECK(load(&g, "GROUP_NAMES = a, b, a.x\nGROUP_AUTOREGROUP = True\n"
	    "GROUP_AUTOREGROUP_b = False\n", 10) == 0);
	CHECK(find(&g, "a")->autoregroup && find(&g, "a.x")->autoregroup);
	CHECK(!find(&g, "b")->autoregroup);
	CHECK(g.autoregroup);
	ca_groups_free(&g);
	CHECK(load(&g, "GROUP_NAMES = a, b\nGROUP_AUTOREGROUP_B = yes\n", 10) == 0);
	CHECK(!find(&g, "a")->autoregroup && find(&g, "b")->autoregroup && g.autoregroup);
	ca_groups_free(&g);
	CHECK(load(&g, "GROUP_NAMES = a\n", 10) == 0);
	CHECK(!g.autoregroup && !find(&g, "a")->autoregroup);
	ca_groups_free(&g);
	CHECK(load(&g, "GROUP_NAMES = a\nGROUP_AUTOREGROUP_a = maybe\n", 10) < 0);
	ca_groups_free(&g);
}
