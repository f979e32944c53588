/* analyze.h - "why doesn't my job run?": condor_q -better-analyze for one ad's
 * Requirements against the ads of the other side, without HTCondor.
 *
 * The Requirements tree is cut into clauses: && and || chains are flattened
 * (parentheses are transparent, and so is a reference to an attribute of the
 * ad whose definition is such a chain, e.g. Requirements = START), every
 * operand is a numbered clause ([1], [2], [2.1] inside an || chain, ...).
 * A clause that reaches nothing of the other side is constant: evaluated once
 * against the ad alone, shown as always or never. The others are counted
 * over the other ads. The summary sorts the other ads the way
 * -better-analyze does (rejected by this ad's Requirements, else rejecting
 * it by their own, else willing), and an ad that matches nothing gets the
 * clauses to relax, with the values the other side has where a clause
 * compares an attribute of the other side with a constant. */
#ifndef CA_ANALYZE_H
#define CA_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>

#include "classad.h"

typedef struct ca_analysis ca_analysis;

/* Flags of ca_analysis_new. */
#define CA_AN_STRICT	0x1	/* the context uses new ClassAd rules */
#define CA_AN_SLOTS	0x2	/* self is a job and the others are slots: tell
				 * the willing ones apart as condor_q does (running
				 * the job's user's jobs, serving other users, the
				 * leftovers of a partitionable slot, free) and what
				 * draining a partitionable slot would give */

/* Start analyzing self's Requirements (self is MY). self must outlive the
 * analysis. Evaluations use cx; ca_analysis_add resets cx->scratch. */
ca_analysis *ca_analysis_new(ca_ctx *cx, const ca_ad *self, int flags);
void ca_analysis_free(ca_analysis *an);

/* Count one ad of the other side, weight times (the size of its
 * autocluster, or 1). */
void ca_analysis_add(ca_analysis *an, const ca_ad *other, uint64_t weight);

/* Carry the counts of src over to dst, a fresh analysis of an ad whose
 * Requirements reaches the same definitions (an autocluster that split off
 * src's after src had counted some ads). */
void ca_analysis_inherit(ca_analysis *dst, const ca_analysis *src);

/* The summary counts so far. */
typedef struct ca_analysis_counts {
	uint64_t total;		/* other ads counted */
	uint64_t rejected;	/* self's Requirements not true */
	uint64_t rejecting;	/* else their own Requirements not true */
	uint64_t willing;	/* both true */
	/* with CA_AN_SLOTS, the willing ones are: */
	uint64_t yours;		/* running a job of the job's User already */
	uint64_t others;	/* serving another user (a RemoteUser) */
	uint64_t available;	/* free (leftovers: partitionable slots among them) */
	uint64_t leftovers;
	/* and of the rejected or rejecting partitionable slots: */
	uint64_t if_drained;	/* willing once their dynamic slots are gone */
} ca_analysis_counts;
void ca_analysis_counts_get(const ca_analysis *an, ca_analysis_counts *c);

/* How the report names things. */
typedef struct ca_analysis_words {
	const char *id;		/* the analyzed ad: "680.64", "slot1@host" */
	bool reverse;		/* self is a slot and the others are jobs */
	long machines;		/* distinct machines among the slots, or -1 */
	/* a job's ClusterId and ProcId, or -1: the report then names the job
	 * as condor_q does ("680.064", and "680.064:" in the summary) */
	int64_t cluster, proc;
} ca_analysis_words;

/* Append the report (several paragraphs, ending with a newline). */
void ca_analysis_report(const ca_analysis *an, strbuf *sb, const ca_analysis_words *w);

#endif
