/* match.h - matchmaking: the symmetric match of a job and a slot, HTCondor's
 * Rank rule, and a matcher that groups jobs into autoclusters and streams slots.
 *
 * A job and a slot match when the job's Requirements is true with the slot as
 * TARGET and the slot's Requirements is true with the job as TARGET; a
 * missing, UNDEFINED or ERROR Requirements is no match. Ranks are numbers:
 * bool, int and real convert, anything else (and a missing Rank) is 0.0.
 *
 * The matcher keeps pointers to the job ads it is given (the caller owns and
 * frees them after ca_matcher_free) and looks at each slot only during the
 * call that passes it, so slots can stream through. Jobs whose match-relevant
 * attributes are equal form one autocluster and are matched once. */
#ifndef CA_MATCH_H
#define CA_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"
#include "refs.h"

/* An ad ready for matching: its Requirements and Rank looked up once. */
typedef struct ca_mad {
	const ca_ad *ad;
	const ca_expr *req;	/* NULL: no Requirements, never matches */
	const ca_expr *rank;	/* NULL: no Rank, ranks 0.0 */
} ca_mad;

void ca_mad_prepare(ca_mad *m, const ca_ad *ad);

/* true when req (of my) is boolean-equivalent true against target. */
bool ca_match_req(ca_ctx *cx, const ca_expr *req, const ca_ad *my, const ca_ad *target);
/* A Rank value as HTCondor's negotiator takes it: bool/int/real as a
 * number, anything else 0.0. */
double ca_rank_number(ca_value v);
/* rank (of my) against target; NULL rank is 0.0. */
double ca_match_rank(ca_ctx *cx, const ca_expr *rank, const ca_ad *my, const ca_ad *target);
/* Both Requirements true. Resets nothing: the caller resets cx->scratch. */
bool ca_match_symmetric(ca_ctx *cx, const ca_mad *job, const ca_mad *slot);

/* ---- the matcher ---- */

/* Flags of ca_matcher_new. */
#define CA_M_NOCLUSTER	0x1	/* one cluster per job (for measuring, testing) */
#define CA_M_STRICT	0x2	/* the context uses new ClassAd rules (cx->strict) */

/* One match as recorded for a cluster: the slot's number (given by the
 * caller) and the two ranks. */
typedef struct ca_hit {
	double jrank;		/* the job's Rank of the slot */
	double srank;		/* the slot's Rank of the job */
	uint32_t slot;
} ca_hit;

/* A cluster's matches, in slot order: the slots' numbers, and their ranks
 * two a slot (job's, slot's), or, while every slot ranks the same (as a
 * constant job Rank and slot Rank make it), rank0 for all: 4 bytes a slot
 * then, not 24. Zeroed is empty. */
typedef struct ca_hits {
	uint32_t *slot;
	double *rank;		/* NULL: rank0 for every slot */
	double rank0[2];
	uint32_t n, cap;
} ca_hits;

static inline ca_hit
ca_hits_at(const ca_hits *h, uint32_t i)
{
	const double *r = h->rank ? h->rank + 2 * (size_t)i : h->rank0;

	return (ca_hit){ r[0], r[1], h->slot[i] };
}
/* The bytes h holds, and h emptied. */
size_t ca_hits_bytes(const ca_hits *h);
void ca_hits_free(ca_hits *h);

/* One cluster that matched the slot of the last ca_matcher_slot call. */
typedef struct ca_slot_hit {
	double jrank, srank;
	uint32_t cluster;
} ca_slot_hit;

typedef struct ca_matcher ca_matcher;

/* A matcher evaluating with cx (its scratch arena is reset by the matcher
 * between slots). limit > 0 keeps at most limit hits per cluster, the best
 * ones; 0 keeps all. */
ca_matcher *ca_matcher_new(ca_ctx *cx, unsigned flags, uint32_t limit);
void ca_matcher_free(ca_matcher *m);

/* Add a job; returns its 0-based number, or UINT32_MAX once the clusters
 * are made (ca_matcher_prepare or the first slot). */
uint32_t ca_matcher_add_job(ca_matcher *m, const ca_ad *job);
uint32_t ca_matcher_njobs(const ca_matcher *m);
const ca_ad *ca_matcher_job(const ca_matcher *m, uint32_t job);

/* Group the jobs into autoclusters (done by the first ca_matcher_slot call
 * when not called before). Clusters may split later, when a slot refers to
 * a job attribute no earlier ad did. */
void ca_matcher_prepare(ca_matcher *m);

/* Match one slot against every cluster. With record, each matching cluster
 * keeps a hit (slot_no, ranks). Returns the number of matching clusters;
 * *hits (if not NULL) gets them in cluster order, valid until the next call.
 * The slot ad is not kept. */
uint32_t ca_matcher_slot(ca_matcher *m, const ca_ad *slot, uint32_t slot_no, bool record,
    const ca_slot_hit **hits);

/* Close the significant names over this slot and split the clusters if
 * it reaches job attributes no earlier ad did (ca_matcher_slot does this
 * itself). Callers that keep per-cluster state across slots (the analysis)
 * call it first and compare the generation: after a split, cluster c
 * continues cluster ca_matcher_parent(m, c) of the previous generation. */
void ca_matcher_observe(ca_matcher *m, const ca_ad *slot);
uint32_t ca_matcher_generation(const ca_matcher *m);
uint32_t ca_matcher_parent(const ca_matcher *m, uint32_t cluster);

/* Matching cluster by cluster, as HTCondor's negotiator does (one
 * autocluster against every slot), for callers that need a few clusters'
 * matches at a time and cannot hold them all. ca_matcher_set_slots sees
 * every slot (the clusters are final after it; NULL entries are left out)
 * and keeps what does not depend on the cluster; the ads must stay until
 * the matcher is freed. ca_matcher_cluster_hits gives the hits of each of
 * nc clusters in slot order (slot = index in slots), at most max of them
 * (0: all), in hits[q], which the caller frees (ca_hits_free). Several
 * clusters at once go faster than one by one. A slot
 * dropped with ca_matcher_drop_slot (taken, say) is left out of the
 * slots `which` asks for: CA_MH_LIVE the slots not dropped, CA_MH_GONE
 * only those dropped, CA_MH_ALL every slot. */
enum { CA_MH_LIVE, CA_MH_GONE, CA_MH_ALL };
/* Slot attributes whose values change while the matcher is used (the
 * negotiator's Remote* attributes): a slot whose Requirements or Rank
 * read one is evaluated whole, as it is, with every cluster. Call before
 * ca_matcher_set_slots; names must stay until the matcher is freed. */
void ca_matcher_volatile(ca_matcher *m, const ca_nameset *names);
void ca_matcher_set_slots(ca_matcher *m, const ca_ad *const *slots, uint32_t n);
void ca_matcher_drop_slot(ca_matcher *m, uint32_t slot);
void ca_matcher_cluster_hits(ca_matcher *m, const uint32_t *clusters, uint32_t nc, int which,
    uint32_t max, ca_hits *hits);

/* Clusters: their number, each job's cluster, a cluster's member jobs in
 * input order, and a cluster's representative (first) job. Cluster numbers
 * follow the input order of their first job. */
uint32_t ca_matcher_nclusters(const ca_matcher *m);
uint32_t ca_matcher_cluster_of(const ca_matcher *m, uint32_t job);
const uint32_t *ca_matcher_members(ca_matcher *m, uint32_t cluster, uint32_t *n);
/* The job attributes that decide the clusters (NULL-free array), and
 * whether clustering was given up (references that cannot be known). */
const ca_name *const *ca_matcher_sigattrs(const ca_matcher *m, uint32_t *n, bool *dynamic);

/* A cluster's recorded hits, best first: job Rank descending, then slot
 * number ascending (at most limit of them); valid until the next call. */
const ca_hit *ca_matcher_hits(ca_matcher *m, uint32_t cluster, uint32_t *n);

/* Hits recorded without a limit: at most max of them are held in memory;
 * beyond, every cluster's go to a temporary file (in $TMPDIR, else /tmp,
 * removed as soon as it is made) as one sorted run, and ca_matcher_hits
 * merges a cluster's runs back. 0 (the default): all in memory. */
void ca_matcher_spill(ca_matcher *m, size_t max);
/* The first failure of that file, or NULL: the hits may be incomplete. */
const char *ca_matcher_error(const ca_matcher *m);

#endif
