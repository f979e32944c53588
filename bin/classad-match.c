/* classad-match - match job ads with slot ads as HTCondor's negotiator does,
 * and explain why a job does not match, as condor_q -better-analyze does.
 *
 * Follows HTCondor's matchmaking rule (both Requirements true, a higher
 * Rank is better; the manual's "Matchmaking with ClassAds"), and
 * condor_q -better-analyze for --analyze.
 * The jobs are read whole; the slots stream, each freed once matched (only
 * the names of matching slots are kept), so a pool of any size fits.
 * Differences from HTCondor: no MyType/TargetType check (as IsAMatch); no
 * "offline", "serving other users" or partitionable-slot counts in the
 * analysis; clause numbers follow the flattened && / || chains ([2], [2.1])
 * rather than every node of the tree. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "classad.h"
#include "condor.h"

enum { OPT_STRICT = CLI_LONG, OPT_CONSTRAINT, OPT_NOCLUSTER, OPT_HOLD };

/* Matches held in memory by default (24 bytes each) before they go to a
 * temporary file. */
#define HOLD_DEFAULT	1000000

static const cli_opt options[] = {
	{ 'b', 0, "best", CLI_NOARG, NULL, "only the best slot of every job (-n 1)" },
	{ 'n', 0, "max", CLI_ARG, "N", "at most N slots per job" },
	{ CLI_K_OUT, 'o', "output-format", CLI_ARG, "FORMAT",
	    "long|new|json|xml: match ads instead of lines" },
	{ CLI_K_GZIP, 'z', "gzip", CLI_NOARG, NULL, "compress the match ads with gzip" },
	{ OPT_CONSTRAINT, 'w', "constraint", CLI_ARG, "EXPR",
	    "consider only the slots for which EXPR is true (also -w,\n"
	    "--where, -constraint)", "constraint", 5 },
	{ OPT_CONSTRAINT, 0, "where", CLI_ARG, "EXPR", NULL },
	{ 'r', 0, "reverse", CLI_NOARG, NULL, "for every slot, the jobs it matches, best first by\n"
	    "the slot's Rank", "reverse", 0 },
	{ 'a', 0, "analyze", CLI_OPTARG, "ID",
	    "why jobs match or do not (condor_q -better-analyze);\n"
	    "ID: a cluster C or a job C.P as condor_q takes them;\n"
	    "with -r, why slots do: ID a slot's Name or 0-based index", "analyze", 0 },
	{ 'a', 0, "better-analyze", CLI_OPTARG, "ID", NULL, "better-analyze", 6 },
	{ CLI_K_IN, 'i', "input-format", CLI_ARG, "FORMAT",
	    "auto|long|new|json|xml (both inputs; -I too)" },
	{ CLI_K_IN, 'I', NULL, CLI_ARG, "FORMAT", NULL },
	{ OPT_NOCLUSTER, 0, "no-autocluster", CLI_NOARG, NULL,
	    "match every job by itself (slower, same result)" },
	{ OPT_HOLD, 0, "hold", CLI_ARG, "N",
	    "hold at most N matches in memory (default 1000000);\n"
	    "beyond, they wait sorted in a temporary file" },
	{ CLI_K_NOW, 0, "now", CLI_ARG, "EPOCH", "fix time() and CurrentTime" },
	{ OPT_STRICT, 0, "strict", CLI_NOARG, NULL,
	    "new ClassAd lookup rules (no fallback to the other ad)" },
	CLI_OPT_QUIET,
	CLI_OPT_HELP,
	CLI_END
};

static const cli_spec spec = {
	"usage: classad-match [-b] [-n N] [-o FORMAT] [-z] [-r] [--constraint EXPR]\n"
	"                     [-i FORMAT] [--strict] [--now EPOCH] JOBS SLOTS\n"
	"       classad-match --analyze[=ID] [-r] [--constraint EXPR] [-i FORMAT]\n"
	"                     [--strict] [--now EPOCH] [ID] JOBS SLOTS\n"
	"condor_q's spellings: -better-analyze, -analyze, -reverse, -constraint.\n",
	"For every job, the slots it matches (both Requirements true), best first by\n"
	"the job's Rank; one line each: job id, slot name, job Rank, slot Rank.\n",
	options,
	"JOBS or SLOTS may be - for standard input (not both). Exit status: 0 a match,\n"
	"1 none, 2 usage, 3 malformed input, 4 system error.\n",
	false
};

/* Attributes copied into match ads to say which job and slot they are. */
static const char *const job_ident[] = { "ClusterId", "ProcId", "Owner", "User" };
static const char *const slot_ident[] = { "Name", "Machine" };
#define NIDENT(a) (sizeof a / sizeof a[0])

struct job {
	ca_ad *ad;
	const char *id;		/* ClusterId.ProcId, or the index */
};

/* A slot that matched some job: what output needs once the ad is freed. */
struct kept {
	uint32_t no;
	const char *name;
	ca_ad *ident;		/* -o: its identifying attributes, or NULL */
};

/* A match seen from the slot's side (-r). */
struct rhit {
	double srank, jrank;
	uint32_t job;
};

/* What the command line asks for. */
static struct {
	const char *constraint;
	bool strict, reverse, analyze, nocluster;
	uint32_t limit;		/* 0: all */
	size_t hold;		/* matches held in memory */
	const char *want_id;	/* --analyze ID */
	int pflags;
} opt;

/* One run: the jobs, the matcher, the output and, for --analyze, the
 * analyses. Every function below works on one. */
struct run {
	ca_ctx cx;
	ca_arena keep;		/* ids, names, identities: live to the end */
	ca_expr *constraint;
	ca_vec(struct job) jobs;
	ca_matcher *matcher;
	ca_vec(struct kept) kept;	/* in slot order */
	ca_vec(struct rhit) rhits;
	ca_writer *writer;	/* -o */
	strbuf line;		/* one output line */
	bool any_match;
	bool stop;		/* the slot stream can end early */
	/* --analyze */
	int anflags;
	ca_analysis **an;	/* per cluster; NULL for clusters not asked about */
	uint32_t n_an, an_gen;
	bool *selected;		/* per job */
	ca_vec(const char *) machines;	/* distinct machines analyzed against */
	ca_dict machine_index;
	long anon;		/* slots that name no machine */
	bool slot_found, slot_printed;
};

/* ---- identities ---- */

/* Text of an id part: strings raw, numbers and the rest as values. */
static void
add_id_value(strbuf *sb, ca_value v)
{
	if (v.kind == CA_STRING)
		strbuf_add(sb, v.u.s, v.x.len);
	else
		ca_print_value(sb, v, 0);
}

static const char *
job_id(struct run *r, const ca_ad *ad, size_t index)
{
	strbuf sb = STRBUF_INIT;
	ca_value c = ca_eval_attr(&r->cx, ad, NULL, "ClusterId");
	ca_value p = ca_eval_attr(&r->cx, ad, NULL, "ProcId");

	if (c.kind != CA_UNDEFINED && p.kind != CA_UNDEFINED) {
		add_id_value(&sb, c);
		strbuf_addc(&sb, '.');
		add_id_value(&sb, p);
	} else
		strbuf_addf(&sb, "%zu", index);
	ca_arena_reset(&r->cx.scratch);
	const char *s = ca_arena_strndup(&r->keep, sb.buf, sb.len);
	strbuf_release(&sb);
	return s;
}

/* The slot's Name, or its index, into sb. */
static void
slot_name(struct run *r, strbuf *sb, const ca_ad *ad, uint32_t index)
{
	ca_value v = ca_eval_attr(&r->cx, ad, NULL, "Name");

	strbuf_reset(sb);
	if (v.kind == CA_UNDEFINED)
		strbuf_addf(sb, "%u", index);
	else
		add_id_value(sb, v);
	ca_arena_reset(&r->cx.scratch);
}

/* Does id name this job, as condor_q's arguments do: "C.P" the job, "C"
 * every job of cluster C. */
static bool
job_matches(const char *id, const char *text)
{
	size_t n = strspn(id, "0123456789");

	if (n > 0 && id[n] == '\0')
		return strncmp(text, id, n) == 0 && text[n] == '.';
	return strcmp(id, text) == 0;
}

/* Does id name this slot: its Name, or its 0-based index. */
static bool
id_matches(const char *id, const char *text, size_t index)
{
	char buf[24];

	if (strcmp(id, text) == 0)
		return true;
	snprintf(buf, sizeof buf, "%zu", index);
	return strcmp(id, buf) == 0;
}

static void
copy_attrs(ca_ad *dst, const ca_ad *src, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		ca_attr *at = ca_ad_findn(src, names[i], strlen(names[i]));
		if (at)
			ca_ad_copy_attr(dst, src, at);
	}
}

/* ---- output ---- */

/* A Rank as ca_print_real writes it; integral values, the usual case,
 * without the round trip through the shortest-text search. */
static void
print_rank(strbuf *sb, double x)
{
	if (x != 0 && x > -1e15 && x < 1e15 && x == (double)(int64_t)x)
		strbuf_addf(sb, "%lld.0", (long long)x);
	else
		ca_print_real(sb, x);
}

static void
put_match(struct run *r, const struct job *j, const char *sname, const ca_ad *sident,
    double jr, double sr)
{
	if (r->writer == NULL) {
		strbuf *l = &r->line;
		strbuf_reset(l);
		strbuf_adds(l, opt.reverse ? sname : j->id);
		strbuf_addc(l, '\t');
		strbuf_adds(l, opt.reverse ? j->id : sname);
		strbuf_addc(l, '\t');
		print_rank(l, opt.reverse ? sr : jr);
		strbuf_addc(l, '\t');
		print_rank(l, opt.reverse ? jr : sr);
		strbuf_addc(l, '\n');
		fwrite(l->buf, 1, l->len, stdout);
		return;
	}
	ca_ad *ad = ca_ad_new();
	ca_set_str(ad, "JobId", j->id);
	ca_set_str(ad, "SlotName", sname);
	ca_set_real(ad, "JobRank", jr);
	ca_set_real(ad, "SlotRank", sr);
	copy_attrs(ad, j->ad, job_ident, NIDENT(job_ident));
	if (sident)
		copy_attrs(ad, sident, slot_ident, NIDENT(slot_ident));
	if (ca_writer_put(r->writer, ad) < 0) {
		if (errno == EILSEQ) {	/* that match is left out, the others go */
			cli_err("match of %s and %s: %s", j->id, sname, ca_writer_refusal(r->writer));
			cli_raise(EX_INPUT);
		} else {
			cli_err("writing output failed");
			cli_raise(EX_SYSTEM);
			r->stop = true;
		}
	}
	ca_ad_free(ad);
}

/* ---- reading ---- */

static void
read_jobs(struct run *r, const char *path)
{
	ca_reader *rd = cli_open(path, cli_common.in);
	ca_ad *ad;

	if (rd == NULL)
		exit(cli_finish());
	while (cli_next_ad(rd, &ad, NULL)) {
		struct job *j = ca_vec_push(&r->jobs);
		j->ad = ad;
		j->id = job_id(r, ad, r->jobs.n - 1);
	}
	ca_reader_close(rd);
	if (cli_status >= EX_SYSTEM)
		exit(cli_finish());
}

typedef void (*slot_fn)(struct run *r, const ca_ad *slot, uint32_t no);

/* Every slot of path that passes --constraint goes to fn, then is freed. */
static void
stream_slots(struct run *r, const char *path, slot_fn fn)
{
	ca_reader *rd = cli_open(path, cli_common.in);
	uint32_t no = 0;
	ca_ad *ad;

	if (rd == NULL)
		return;
	while (!r->stop && cli_next_ad(rd, &ad, NULL)) {
		bool pass = r->constraint == NULL ||
		    ca_value_truth(ca_eval_expr(&r->cx, r->constraint, ad, NULL)) == 1;
		ca_arena_reset(&r->cx.scratch);
		if (pass)
			fn(r, ad, no);
		no++;
		ca_ad_free(ad);
		ca_arena_reset(&r->cx.scratch);
	}
	ca_reader_close(rd);
}

/* ---- matching, from the jobs' side ---- */

static void
match_slot(struct run *r, const ca_ad *slot, uint32_t no)
{
	if (ca_matcher_slot(r->matcher, slot, no, true, NULL) == 0)
		return;
	struct kept *k = ca_vec_push(&r->kept);
	strbuf sb = STRBUF_INIT;
	slot_name(r, &sb, slot, no);
	k->no = no;
	k->name = ca_arena_strndup(&r->keep, sb.buf, sb.len);
	strbuf_release(&sb);
	k->ident = NULL;
	if (r->writer) {
		k->ident = ca_ad_new_in(&r->keep);
		copy_attrs(k->ident, slot, slot_ident, NIDENT(slot_ident));
	}
}

static const struct kept *
find_kept(const struct run *r, uint32_t no)
{
	size_t lo = 0, hi = r->kept.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->kept.at[mid].no < no)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->kept.n && r->kept.at[lo].no == no ? &r->kept.at[lo] : NULL;
}

static void
print_job_matches(struct run *r)
{
	ca_matcher_prepare(r->matcher);
	for (size_t j = 0; j < r->jobs.n && !r->stop; j++) {
		uint32_t n;
		const ca_hit *h = ca_matcher_hits(r->matcher,
		    ca_matcher_cluster_of(r->matcher, (uint32_t)j), &n);
		for (uint32_t i = 0; i < n && !r->stop; i++) {
			const struct kept *k = find_kept(r, h[i].slot);
			put_match(r, &r->jobs.at[j], k->name, k->ident, h[i].jrank, h[i].srank);
		}
		if (n)
			r->any_match = true;
	}
}

/* ---- matching, from the slots' side ---- */

static int
rhit_cmp(const void *pa, const void *pb)
{
	const struct rhit *a = pa, *b = pb;

	if (a->srank != b->srank)
		return a->srank > b->srank ? -1 : 1;
	return a->job < b->job ? -1 : a->job > b->job;
}

static void
reverse_slot(struct run *r, const ca_ad *slot, uint32_t no)
{
	const ca_slot_hit *h;
	uint32_t n = ca_matcher_slot(r->matcher, slot, no, false, &h);

	if (n == 0)
		return;
	r->any_match = true;
	r->rhits.n = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t nm;
		const uint32_t *mem = ca_matcher_members(r->matcher, h[i].cluster, &nm);
		for (uint32_t k = 0; k < nm; k++)
			*ca_vec_push(&r->rhits) = (struct rhit){ h[i].srank, h[i].jrank, mem[k] };
	}
	size_t nr = r->rhits.n;
	if (nr > 1)
		qsort(r->rhits.at, nr, sizeof *r->rhits.at, rhit_cmp);
	if (opt.limit && nr > opt.limit)
		nr = opt.limit;
	strbuf name = STRBUF_INIT;
	slot_name(r, &name, slot, no);
	for (size_t i = 0; i < nr && !r->stop; i++) {
		const struct rhit *x = &r->rhits.at[i];
		put_match(r, &r->jobs.at[x->job], name.buf, slot, x->jrank, x->srank);
	}
	strbuf_release(&name);
}

/* ---- analysis, from the jobs' side ---- */

/* Count the slot's machine (Machine, else the host of slotN@host) among
 * the distinct machines analyzed against. */
static void
count_machine(struct run *r, const ca_ad *slot)
{
	ca_value v = ca_eval_attr(&r->cx, slot, NULL, "Machine");
	const char *s;

	if (v.kind != CA_STRING) {
		v = ca_eval_attr(&r->cx, slot, NULL, "Name");
		if (v.kind != CA_STRING) {
			r->anon++;
			return;
		}
		s = strrchr(v.u.s, '@');
		s = s ? s + 1 : v.u.s;
	} else
		s = v.u.s;
	size_t len = strlen(s);
	uint64_t h = ca_hash_bytes(0, s, len);
	ca_dict_it it;
	for (uint32_t i = ca_dict_first(&r->machine_index, h, &it); i != CA_DICT_NONE;
	    i = ca_dict_next(&r->machine_index, &it))
		if (strcmp(r->machines.at[i], s) == 0)
			return;
	ca_dict_add(&r->machine_index, h, (uint32_t)r->machines.n);
	*ca_vec_push(&r->machines) = ca_arena_strndup(&r->keep, s, len);
}

static const ca_ad *
cluster_rep(struct run *r, uint32_t c)
{
	uint32_t n;
	const uint32_t *mem = ca_matcher_members(r->matcher, c, &n);

	return r->jobs.at[mem[0]].ad;
}

/* After clusters split, every cluster holding a job asked about gets an
 * analysis carrying on from its parent's. */
static void
analyses_follow_clusters(struct run *r)
{
	uint32_t ncl = ca_matcher_nclusters(r->matcher);
	ca_analysis **fresh = ca_xcalloc(ncl ? ncl : 1, sizeof *fresh);

	for (size_t j = 0; j < r->jobs.n; j++) {
		uint32_t c = ca_matcher_cluster_of(r->matcher, (uint32_t)j);
		if (!r->selected[j] || fresh[c])
			continue;
		fresh[c] = ca_analysis_new(&r->cx, cluster_rep(r, c), r->anflags);
		uint32_t p = ca_matcher_parent(r->matcher, c);
		if (r->an && p < r->n_an && r->an[p])
			ca_analysis_inherit(fresh[c], r->an[p]);
	}
	for (uint32_t c = 0; c < r->n_an; c++)
		ca_analysis_free(r->an ? r->an[c] : NULL);
	free(r->an);
	r->an = fresh;
	r->n_an = ncl;
	r->an_gen = ca_matcher_generation(r->matcher);
}

static void
analyze_slot(struct run *r, const ca_ad *slot, uint32_t no)
{
	(void)no;
	count_machine(r, slot);
	ca_arena_reset(&r->cx.scratch);
	ca_matcher_observe(r->matcher, slot);
	if (ca_matcher_generation(r->matcher) != r->an_gen)
		analyses_follow_clusters(r);
	for (uint32_t c = 0; c < r->n_an; c++)
		if (r->an[c])
			ca_analysis_add(r->an[c], slot, 1);
}

static void
analyze_jobs(struct run *r, const char *slots_path)
{
	bool found = false;

	r->selected = ca_xcalloc(r->jobs.n ? r->jobs.n : 1, sizeof *r->selected);
	for (size_t j = 0; j < r->jobs.n; j++)
		if (opt.want_id == NULL || job_matches(opt.want_id, r->jobs.at[j].id))
			r->selected[j] = found = true;
	if (!found) {
		if (opt.want_id)
			cli_err("no job %s in the jobs", opt.want_id);
		else
			cli_err("no jobs to analyze");
		cli_raise(EX_NO);
		return;
	}
	ca_matcher_prepare(r->matcher);
	analyses_follow_clusters(r);
	stream_slots(r, slots_path, analyze_slot);

	strbuf sb = STRBUF_INIT;
	bool first = true;
	for (size_t j = 0; j < r->jobs.n; j++) {
		if (!r->selected[j])
			continue;
		ca_analysis *a = r->an[ca_matcher_cluster_of(r->matcher, (uint32_t)j)];
		ca_analysis_words w = { r->jobs.at[j].id, false, (long)r->machines.n + r->anon,
		    -1, -1 };
		if (ca_get_int(&r->cx, r->jobs.at[j].ad, "ClusterId", &w.cluster) != 1 ||
		    ca_get_int(&r->cx, r->jobs.at[j].ad, "ProcId", &w.proc) != 1)
			w.cluster = w.proc = -1;
		ca_analysis_counts n;
		strbuf_reset(&sb);
		if (!first)
			strbuf_addc(&sb, '\n');
		first = false;
		ca_analysis_report(a, &sb, &w);
		fwrite(sb.buf, 1, sb.len, stdout);
		ca_analysis_counts_get(a, &n);
		if (n.willing)
			r->any_match = true;
	}
	strbuf_release(&sb);
}

/* ---- analysis, from the slots' side ---- */

static void
analyze_one_slot(struct run *r, const ca_ad *slot, uint32_t no)
{
	strbuf name = STRBUF_INIT;

	slot_name(r, &name, slot, no);
	if (opt.want_id && !id_matches(opt.want_id, name.buf, no)) {
		strbuf_release(&name);
		return;
	}
	r->slot_found = true;
	ca_matcher_observe(r->matcher, slot);
	ca_analysis *a = ca_analysis_new(&r->cx, slot, r->anflags);
	uint32_t ncl = ca_matcher_nclusters(r->matcher);
	for (uint32_t c = 0; c < ncl; c++) {
		uint32_t n;
		const uint32_t *mem = ca_matcher_members(r->matcher, c, &n);
		ca_analysis_add(a, r->jobs.at[mem[0]].ad, n);
	}
	strbuf sb = STRBUF_INIT;
	ca_analysis_words w = { name.buf, true, -1, -1, -1 };
	ca_analysis_counts n;
	if (r->slot_printed)
		strbuf_addc(&sb, '\n');
	r->slot_printed = true;
	ca_analysis_report(a, &sb, &w);
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
	ca_analysis_counts_get(a, &n);
	if (n.willing)
		r->any_match = true;
	ca_analysis_free(a);
	strbuf_release(&name);
	if (opt.want_id)
		r->stop = true;
}

static void
analyze_slots(struct run *r, const char *slots_path)
{
	ca_matcher_prepare(r->matcher);
	stream_slots(r, slots_path, analyze_one_slot);
	if (!r->slot_found && cli_status < EX_SYSTEM) {
		if (opt.want_id)
			cli_err("no slot %s in the slots", opt.want_id);
		else
			cli_err("no slots to analyze");
	}
}

/* ---- main ---- */

static void
option(void *arg, int key, char *val)
{
	switch (key) {
	case 'b': opt.limit = 1; break;
	case 'n': opt.limit = (uint32_t)cli_int("-n", val, 1, UINT32_MAX); break;
	case 'r': opt.reverse = true; break;
	case 'a':
		opt.analyze = true;
		if (val)
			opt.want_id = val;
		break;
	case OPT_CONSTRAINT: opt.constraint = val; break;
	case OPT_NOCLUSTER: opt.nocluster = true; break;
	case OPT_HOLD: opt.hold = (size_t)cli_int("--hold", val, 1, INT64_MAX); break;
	case OPT_STRICT:
		opt.strict = true;
		opt.pflags |= CA_P_STRICT;
		break;
	default: break;
	}
}

static void
run_free(struct run *r)
{
	ca_matcher_free(r->matcher);
	for (size_t j = 0; j < r->jobs.n; j++)
		ca_ad_free(r->jobs.at[j].ad);
	ca_vec_free(&r->jobs);
	ca_vec_free(&r->kept);
	ca_vec_free(&r->rhits);
	for (uint32_t c = 0; c < r->n_an; c++)
		ca_analysis_free(r->an[c]);
	free(r->an);
	free(r->selected);
	ca_vec_free(&r->machines);
	ca_dict_free(&r->machine_index);
	strbuf_release(&r->line);
	ca_arena_free(&r->keep);
	ca_ctx_free(&r->cx);
}

int
main(int argc, char **argv)
{
	struct run run = { .line = STRBUF_INIT }, *r = &run;

	cli_init(argc, argv, "classad-match");
	int first = cli_parse(&spec, argc, argv, option, NULL), npos = argc - first;
	if (opt.analyze && npos == 3 && opt.want_id == NULL)
		opt.want_id = argv[first++];
	else if (npos != 2)
		cli_usage_error(npos < 2 ? "name the JOBS and SLOTS files" :
		    "too many arguments");
	const char *jobs_path = argv[first], *slots_path = argv[first + 1];
	if (strcmp(jobs_path, "-") == 0 && strcmp(slots_path, "-") == 0)
		cli_usage_error("JOBS and SLOTS cannot both be standard input");
	if (opt.analyze && (cli_common.out_set || cli_common.gzip || opt.limit))
		cli_usage_error("--analyze writes a report: -o, -z, -b and -n do not apply");
	if (cli_common.gzip && !cli_common.out_set)
		cli_usage_error("-z compresses match ads: give -o too");

	ca_ctx_init(&r->cx);
	r->cx.now = cli_common.now;
	r->cx.strict = opt.strict;
	if (opt.constraint)
		r->constraint = cli_expr(&r->keep, "--constraint", opt.constraint, opt.pflags);
	r->anflags = opt.strict ? CA_AN_STRICT : 0;
	if (!opt.reverse)
		r->anflags |= CA_AN_SLOTS;

	read_jobs(r, jobs_path);
	r->matcher = ca_matcher_new(&r->cx, (opt.nocluster ? CA_M_NOCLUSTER : 0) |
	    (opt.strict ? CA_M_STRICT : 0), opt.analyze || opt.reverse ? 0 : opt.limit);
	for (size_t j = 0; j < r->jobs.n; j++)
		ca_matcher_add_job(r->matcher, r->jobs.at[j].ad);
	ca_matcher_spill(r->matcher, opt.hold ? opt.hold : HOLD_DEFAULT);

	if (cli_common.out_set) {
		r->writer = ca_writer_open(stdout, cli_common.out, cli_common.gzip);
		if (r->writer == NULL)
			cli_die(EX_SYSTEM, "cannot start the output");
	}
	if (opt.analyze && !opt.reverse)
		analyze_jobs(r, slots_path);
	else if (opt.analyze)
		analyze_slots(r, slots_path);
	else if (opt.reverse)
		stream_slots(r, slots_path, reverse_slot);
	else {
		stream_slots(r, slots_path, match_slot);
		/* matches that could not be kept are never printed in part */
		if (ca_matcher_error(r->matcher))
			cli_die(EX_SYSTEM, "%s", ca_matcher_error(r->matcher));
		print_job_matches(r);
		if (ca_matcher_error(r->matcher))
			cli_die(EX_SYSTEM, "%s", ca_matcher_error(r->matcher));
	}
	if (r->writer && ca_writer_close(r->writer) < 0) {
		cli_err("writing output failed");
		cli_raise(EX_SYSTEM);
	}
	if (!r->any_match)
		cli_raise(EX_NO);
	run_free(r);
	ca_intern_cleanup();
	return cli_finish();
}
