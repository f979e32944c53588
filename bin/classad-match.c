/* classad-match - match job ads with slot ads as HTCondor's negotiator does,
 * and explain why a job does not match, as condor_q -better-analyze does.
 *
 * Follows issue 4 and the seeds' matchmaking rule (both Requirements true,
 * Rank higher is better; HTCondor manual, "Matchmaking with ClassAds"), and
 * condor_q -better-analyze for --analyze (../shared/reference, section 7).
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

static const char usage_text[] =
"usage: classad-match [-b] [-n N] [-o FORMAT] [-z] [-r] [--constraint EXPR]\n"
"                     [-i FORMAT] [--strict] [--now EPOCH] JOBS SLOTS\n"
"       classad-match --analyze[=ID] [-r] [--constraint EXPR] [-i FORMAT]\n"
"                     [--strict] [--now EPOCH] [ID] JOBS SLOTS\n"
"\n"
"For every job, the slots it matches (both Requirements true), best first by\n"
"the job's Rank; one line each: job id, slot name, job Rank, slot Rank.\n"
"  -b, --best             only the best slot of every job (-n 1)\n"
"  -n, --max N            at most N slots per job\n"
"  -o, --output-format long|new|json|xml   match ads instead of lines\n"
"  -z, --gzip             compress the match ads with gzip\n"
"      --constraint EXPR  consider only the slots for which EXPR is true\n"
"  -r, --reverse          for every slot, the jobs it matches, best first by\n"
"                         the slot's Rank\n"
"  -a, --analyze[=ID]     why jobs match or do not (condor_q -better-analyze);\n"
"                         with -r, why slots do; ID: one job (ClusterId.ProcId)\n"
"                         or slot (Name), or its 0-based index\n"
"  -i, --input-format auto|long|new|json|xml   (both inputs; -I too)\n"
"      --no-autocluster   match every job by itself (slower, same result)\n"
"      --now EPOCH        fix time() and CurrentTime\n"
"      --strict           new ClassAd lookup rules (no fallback to the other ad)\n"
"  -h, --help             this text;  -V, --version  the version\n"
"JOBS or SLOTS may be - for standard input (not both). Exit status: 0 a match,\n"
"1 none, 2 usage, 3 malformed input, 4 system error.\n";

enum { OPT_NOW = 256, OPT_STRICT, OPT_CONSTRAINT, OPT_NOCLUSTER };

static const struct option longopts[] = {
	{ "best", no_argument, NULL, 'b' },
	{ "max", required_argument, NULL, 'n' },
	{ "output-format", required_argument, NULL, 'o' },
	{ "gzip", no_argument, NULL, 'z' },
	{ "reverse", no_argument, NULL, 'r' },
	{ "analyze", optional_argument, NULL, 'a' },
	{ "input-format", required_argument, NULL, 'i' },
	{ "constraint", required_argument, NULL, OPT_CONSTRAINT },
	{ "no-autocluster", no_argument, NULL, OPT_NOCLUSTER },
	{ "now", required_argument, NULL, OPT_NOW },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* Attributes copied into match ads to say which job and slot they are. */
static const char *const job_ident[] = { "ClusterId", "ProcId", "Owner", "User" };
static const char *const slot_ident[] = { "Name", "Machine" };

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

static ca_ctx cx;
static ca_arena keep;		/* ids, names, identities: live to the end */
static ca_format in_format = CA_FMT_AUTO;
static int pflags;
static ca_expr *constraint;
static bool strict, reverse, analyze, nocluster, gzip_out;
static bool out_ads;		/* -o given */
static ca_format out_format = CA_FMT_LONG;
static uint32_t limit;		/* 0: all */
static const char *want_id;	/* --analyze ID */
static bool stop;		/* the slot stream can end early */

static struct job *jobs;
static uint32_t njobs, capjobs;
static ca_matcher *matcher;
static struct kept *kept;
static uint32_t nkept, capkept;
static ca_writer *writer;
static bool any_match;
static strbuf line = STRBUF_INIT;	/* one output line */

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
job_id(const ca_ad *ad, uint32_t index)
{
	strbuf sb = STRBUF_INIT;
	ca_value c = ca_eval_attr(&cx, ad, NULL, "ClusterId");
	ca_value p = ca_eval_attr(&cx, ad, NULL, "ProcId");

	if (c.kind != CA_UNDEFINED && p.kind != CA_UNDEFINED) {
		add_id_value(&sb, c);
		strbuf_addc(&sb, '.');
		add_id_value(&sb, p);
	} else
		strbuf_addf(&sb, "%u", index);
	ca_arena_reset(&cx.scratch);
	const char *s = ca_arena_strndup(&keep, sb.buf, sb.len);
	strbuf_release(&sb);
	return s;
}

/* The slot's Name, or its index, into sb. */
static void
slot_name(strbuf *sb, const ca_ad *ad, uint32_t index)
{
	ca_value v = ca_eval_attr(&cx, ad, NULL, "Name");

	strbuf_reset(sb);
	if (v.kind == CA_UNDEFINED)
		strbuf_addf(sb, "%u", index);
	else
		add_id_value(sb, v);
	ca_arena_reset(&cx.scratch);
}

/* Does id name this ad: its id text, or its index when id is a number. */
static bool
id_matches(const char *id, const char *text, uint32_t index)
{
	char buf[16];

	if (strcmp(id, text) == 0)
		return true;
	snprintf(buf, sizeof buf, "%u", index);
	return strcmp(id, buf) == 0;
}

static void
copy_attrs(ca_ad *dst, const ca_ad *src, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		ca_attr *at = ca_ad_findn(src, names[i], strlen(names[i]));
		if (at)
			ca_ad_set_copy(dst, at->spell, strlen(at->spell), at->expr);
	}
}

static void
set_value(ca_ad *ad, const char *name, ca_value v)
{
	ca_ad_set(ad, ca_intern(name, strlen(name)), NULL, ca_expr_lit(ad->arena, v));
}

/* ---- output ---- */

/* A Rank as ca_print_real writes it; integral values, the usual case,
 * without the round trip through the shortest-text search. */
static void
print_rank(strbuf *sb, double r)
{
	if (r != 0 && r > -1e15 && r < 1e15 && r == (double)(int64_t)r)
		strbuf_addf(sb, "%lld.0", (long long)r);
	else
		ca_print_real(sb, r);
}

static void
put_match(const struct job *j, const char *sname, const ca_ad *sident, double jr, double sr)
{
	if (!out_ads) {
		strbuf_reset(&line);
		strbuf_adds(&line, reverse ? sname : j->id);
		strbuf_addc(&line, '\t');
		strbuf_adds(&line, reverse ? j->id : sname);
		strbuf_addc(&line, '\t');
		print_rank(&line, reverse ? sr : jr);
		strbuf_addc(&line, '\t');
		print_rank(&line, reverse ? jr : sr);
		strbuf_addc(&line, '\n');
		fwrite(line.buf, 1, line.len, stdout);
		return;
	}
	ca_ad *ad = ca_ad_new();
	set_value(ad, "JobId", ca_str(j->id, (uint32_t)strlen(j->id)));
	set_value(ad, "SlotName", ca_str(sname, (uint32_t)strlen(sname)));
	set_value(ad, "JobRank", ca_real(jr));
	set_value(ad, "SlotRank", ca_real(sr));
	copy_attrs(ad, j->ad, job_ident, sizeof job_ident / sizeof job_ident[0]);
	if (sident)
		copy_attrs(ad, sident, slot_ident, sizeof slot_ident / sizeof slot_ident[0]);
	if (ca_writer_put(writer, ad) < 0) {
		if (errno == EILSEQ) {	/* that match is left out, the others go */
			cli_err("match of %s and %s: %s", j->id, sname, ca_writer_refusal(writer));
			cli_raise(EX_INPUT);
		} else {
			cli_err("writing output failed");
			cli_raise(EX_SYSTEM);
			stop = true;
		}
	}
	ca_ad_free(ad);
}

/* ---- reading ---- */

static void
read_jobs(const char *path)
{
	ca_reader *r = cli_open(path, in_format);
	ca_ad *ad;

	if (r == NULL)
		exit(cli_finish());
	while (cli_next_ad(r, &ad, NULL)) {
		if (njobs == capjobs) {
			capjobs = capjobs ? capjobs * 2 : 256;
			jobs = ca_xreallocarray(jobs, capjobs, sizeof *jobs);
		}
		jobs[njobs].ad = ad;
		jobs[njobs].id = job_id(ad, njobs);
		njobs++;
	}
	ca_reader_close(r);
	if (cli_status >= EX_SYSTEM)
		exit(cli_finish());
}

typedef void (*slot_fn)(const ca_ad *slot, uint32_t no);

/* Every slot of path that passes --constraint goes to fn, then is freed. */
static void
stream_slots(const char *path, slot_fn fn)
{
	ca_reader *r = cli_open(path, in_format);
	uint32_t no = 0;
	ca_ad *ad;

	if (r == NULL)
		return;
	while (!stop && cli_next_ad(r, &ad, NULL)) {
		bool pass = constraint == NULL ||
		    ca_value_truth(ca_eval_expr(&cx, constraint, ad, NULL)) == 1;
		ca_arena_reset(&cx.scratch);
		if (pass)
			fn(ad, no);
		no++;
		ca_ad_free(ad);
		ca_arena_reset(&cx.scratch);
	}
	ca_reader_close(r);
}

/* ---- matching, from the jobs' side ---- */

static void
match_slot(const ca_ad *slot, uint32_t no)
{
	if (ca_matcher_slot(matcher, slot, no, true, NULL) == 0)
		return;
	if (nkept == capkept) {
		capkept = capkept ? capkept * 2 : 256;
		kept = ca_xreallocarray(kept, capkept, sizeof *kept);
	}
	strbuf sb = STRBUF_INIT;
	slot_name(&sb, slot, no);
	kept[nkept].no = no;
	kept[nkept].name = ca_arena_strndup(&keep, sb.buf, sb.len);
	strbuf_release(&sb);
	kept[nkept].ident = NULL;
	if (out_ads) {
		kept[nkept].ident = ca_ad_new_in(&keep);
		copy_attrs(kept[nkept].ident, slot, slot_ident,
		    sizeof slot_ident / sizeof slot_ident[0]);
	}
	nkept++;
}

static const struct kept *
find_kept(uint32_t no)
{
	uint32_t lo = 0, hi = nkept;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (kept[mid].no < no)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nkept && kept[lo].no == no ? &kept[lo] : NULL;
}

static void
print_job_matches(void)
{
	ca_matcher_prepare(matcher);
	for (uint32_t j = 0; j < njobs && !stop; j++) {
		uint32_t n;
		const ca_hit *h = ca_matcher_hits(matcher, ca_matcher_cluster_of(matcher, j), &n);
		for (uint32_t i = 0; i < n && !stop; i++) {
			const struct kept *k = find_kept(h[i].slot);
			put_match(&jobs[j], k->name, k->ident, h[i].jrank, h[i].srank);
		}
		if (n)
			any_match = true;
	}
}

/* ---- matching, from the slots' side ---- */

struct rhit {
	double srank, jrank;
	uint32_t job;
};

static int
rhit_cmp(const void *pa, const void *pb)
{
	const struct rhit *a = pa, *b = pb;

	if (a->srank != b->srank)
		return a->srank > b->srank ? -1 : 1;
	return a->job < b->job ? -1 : a->job > b->job;
}

static struct rhit *rhits;
static size_t caprhits;

static void
reverse_slot(const ca_ad *slot, uint32_t no)
{
	const ca_slot_hit *h;
	uint32_t n = ca_matcher_slot(matcher, slot, no, false, &h);
	size_t nr = 0;

	if (n == 0)
		return;
	any_match = true;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t nm;
		const uint32_t *mem = ca_matcher_members(matcher, h[i].cluster, &nm);
		for (uint32_t k = 0; k < nm; k++) {
			if (nr == caprhits) {
				caprhits = caprhits ? caprhits * 2 : 256;
				rhits = ca_xreallocarray(rhits, caprhits, sizeof *rhits);
			}
			rhits[nr].srank = h[i].srank;
			rhits[nr].jrank = h[i].jrank;
			rhits[nr].job = mem[k];
			nr++;
		}
	}
	if (nr > 1)
		qsort(rhits, nr, sizeof *rhits, rhit_cmp);
	if (limit && nr > limit)
		nr = limit;
	strbuf name = STRBUF_INIT;
	slot_name(&name, slot, no);
	for (size_t i = 0; i < nr && !stop; i++)
		put_match(&jobs[rhits[i].job], name.buf, slot, rhits[i].jrank, rhits[i].srank);
	strbuf_release(&name);
}

/* ---- analysis, from the jobs' side ---- */

static ca_analysis **an;	/* per cluster; NULL for clusters not asked about */
static uint32_t n_an, an_gen;
static bool *selected;		/* per job */
static int anflags;

/* Distinct machines among the slots analyzed against: an open-addressing
 * set of strings. */
static struct {
	const char **slot;
	uint32_t cap, n;
	long anon;		/* slots that name no machine */
} machines;

static uint32_t
str_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void
count_machine(const ca_ad *slot)
{
	ca_value v = ca_eval_attr(&cx, slot, NULL, "Machine");
	const char *s;

	if (v.kind != CA_STRING) {
		/* slotN@host names the host */
		v = ca_eval_attr(&cx, slot, NULL, "Name");
		if (v.kind != CA_STRING) {
			machines.anon++;
			return;
		}
		s = strrchr(v.u.s, '@');
		s = s ? s + 1 : v.u.s;
	} else
		s = v.u.s;
	if ((machines.n + 1) * 2 > machines.cap) {
		uint32_t cap = machines.cap ? machines.cap * 2 : 1024;
		const char **slots = ca_xcalloc(cap, sizeof *slots);
		for (uint32_t i = 0; i < machines.cap; i++) {
			if (!machines.slot[i])
				continue;
			uint32_t k = str_hash(machines.slot[i]) & (cap - 1);
			while (slots[k])
				k = (k + 1) & (cap - 1);
			slots[k] = machines.slot[i];
		}
		free(machines.slot);
		machines.slot = slots;
		machines.cap = cap;
	}
	uint32_t k = str_hash(s) & (machines.cap - 1);
	for (; machines.slot[k]; k = (k + 1) & (machines.cap - 1))
		if (strcmp(machines.slot[k], s) == 0)
			return;
	machines.slot[k] = ca_arena_strndup(&keep, s, strlen(s));
	machines.n++;
}

static const ca_ad *
cluster_rep(uint32_t c)
{
	uint32_t n;
	const uint32_t *mem = ca_matcher_members(matcher, c, &n);

	return jobs[mem[0]].ad;
}

/* After clusters split, every cluster holding a job asked about gets an
 * analysis carrying on from its parent's. */
static void
analyses_follow_clusters(void)
{
	uint32_t ncl = ca_matcher_nclusters(matcher);
	ca_analysis **fresh = ca_xcalloc(ncl ? ncl : 1, sizeof *fresh);

	for (uint32_t j = 0; j < njobs; j++) {
		uint32_t c = ca_matcher_cluster_of(matcher, j);
		if (!selected[j] || fresh[c])
			continue;
		fresh[c] = ca_analysis_new(&cx, cluster_rep(c), anflags);
		uint32_t p = ca_matcher_parent(matcher, c);
		if (an && p < n_an && an[p])
			ca_analysis_inherit(fresh[c], an[p]);
	}
	for (uint32_t c = 0; c < n_an; c++)
		ca_analysis_free(an ? an[c] : NULL);
	free(an);
	an = fresh;
	n_an = ncl;
	an_gen = ca_matcher_generation(matcher);
}

static void
analyze_slot(const ca_ad *slot, uint32_t no)
{
	(void)no;
	count_machine(slot);
	ca_arena_reset(&cx.scratch);
	ca_matcher_observe(matcher, slot);
	if (ca_matcher_generation(matcher) != an_gen)
		analyses_follow_clusters();
	for (uint32_t c = 0; c < n_an; c++)
		if (an[c])
			ca_analysis_add(an[c], slot, 1);
}

static int
analyze_jobs(const char *slots_path)
{
	bool found = false;

	selected = ca_xcalloc(njobs ? njobs : 1, sizeof *selected);
	for (uint32_t j = 0; j < njobs; j++)
		if (want_id == NULL || id_matches(want_id, jobs[j].id, j))
			selected[j] = found = true;
	if (!found) {
		if (want_id)
			cli_err("no job %s in the jobs", want_id);
		else
			cli_err("no jobs to analyze");
		cli_raise(EX_NO);
		free(selected);
		return cli_finish();
	}
	ca_matcher_prepare(matcher);
	analyses_follow_clusters();
	stream_slots(slots_path, analyze_slot);

	strbuf sb = STRBUF_INIT;
	bool first = true;
	for (uint32_t j = 0; j < njobs; j++) {
		if (!selected[j])
			continue;
		ca_analysis *a = an[ca_matcher_cluster_of(matcher, j)];
		ca_analysis_words w = { jobs[j].id, false, (long)machines.n + machines.anon };
		ca_analysis_counts n;
		strbuf_reset(&sb);
		if (!first)
			strbuf_addc(&sb, '\n');
		first = false;
		ca_analysis_report(a, &sb, &w);
		fwrite(sb.buf, 1, sb.len, stdout);
		ca_analysis_counts_get(a, &n);
		if (n.willing)
			any_match = true;
	}
	strbuf_release(&sb);
	for (uint32_t c = 0; c < n_an; c++)
		ca_analysis_free(an[c]);
	free(an);
	free(selected);
	free(machines.slot);
	return 0;
}

/* ---- analysis, from the slots' side ---- */

static bool slot_found, slot_printed;

static void
analyze_one_slot(const ca_ad *slot, uint32_t no)
{
	strbuf name = STRBUF_INIT;

	slot_name(&name, slot, no);
	if (want_id && !id_matches(want_id, name.buf, no)) {
		strbuf_release(&name);
		return;
	}
	slot_found = true;
	ca_matcher_observe(matcher, slot);
	ca_analysis *a = ca_analysis_new(&cx, slot, anflags);
	uint32_t ncl = ca_matcher_nclusters(matcher);
	for (uint32_t c = 0; c < ncl; c++) {
		uint32_t n;
		const uint32_t *mem = ca_matcher_members(matcher, c, &n);
		ca_analysis_add(a, jobs[mem[0]].ad, n);
	}
	strbuf sb = STRBUF_INIT;
	ca_analysis_words w = { name.buf, true, -1 };
	ca_analysis_counts n;
	if (slot_printed)
		strbuf_addc(&sb, '\n');
	slot_printed = true;
	ca_analysis_report(a, &sb, &w);
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
	ca_analysis_counts_get(a, &n);
	if (n.willing)
		any_match = true;
	ca_analysis_free(a);
	strbuf_release(&name);
	if (want_id)
		stop = true;
}

static int
analyze_slots(const char *slots_path)
{
	ca_matcher_prepare(matcher);
	stream_slots(slots_path, analyze_one_slot);
	if (!slot_found && cli_status < EX_SYSTEM) {
		if (want_id)
			cli_err("no slot %s in the slots", want_id);
		else
			cli_err("no slots to analyze");
	}
	return 0;
}

/* ---- main ---- */

int
main(int argc, char **argv)
{
	const char *ctext = NULL;
	int ch;

	cli_init(argc, argv, "classad-match");
	ca_ctx_init(&cx);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":bn:o:zraI:i:hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b':
			limit = 1;
			break;
		case 'n':
			limit = (uint32_t)cli_int("-n", optarg, 1, UINT32_MAX);
			break;
		case 'o':
			out_format = cli_format("-o", optarg, false);
			out_ads = true;
			break;
		case 'z':
			gzip_out = true;
			break;
		case 'r':
			reverse = true;
			break;
		case 'a':
			analyze = true;
			if (optarg)
				want_id = optarg;
			break;
		case 'I':
		case 'i':
			in_format = cli_format("-i", optarg, true);
			break;
		case OPT_CONSTRAINT:
			ctext = optarg;
			break;
		case OPT_NOCLUSTER:
			nocluster = true;
			break;
		case OPT_NOW:
			cx.now = cli_now(optarg);
			break;
		case OPT_STRICT:
			strict = true;
			cx.strict = true;
			pflags |= CA_P_STRICT;
			break;
		case 'h':
			cli_help(usage_text);
		case 'V':
			cli_version();
		default:
			cli_bad_option(ch, argv);
		}
	}
	int npos = argc - optind;
	if (analyze && npos == 3 && want_id == NULL)
		want_id = argv[optind++];
	else if (npos != 2)
		cli_usage_error(npos < 2 ? "name the JOBS and SLOTS files" :
		    "too many arguments");
	const char *jobs_path = argv[optind], *slots_path = argv[optind + 1];
	if (strcmp(jobs_path, "-") == 0 && strcmp(slots_path, "-") == 0)
		cli_usage_error("JOBS and SLOTS cannot both be standard input");
	if (analyze && (out_ads || gzip_out || limit))
		cli_usage_error("--analyze writes a report: -o, -z, -b and -n do not apply");
	if (gzip_out && !out_ads)
		cli_usage_error("-z compresses match ads: give -o too");

	ca_arena exprs = { 0 };
	if (ctext)
		constraint = cli_expr(&exprs, "--constraint", ctext, pflags);
	anflags = strict ? CA_AN_STRICT : 0;

	read_jobs(jobs_path);
	matcher = ca_matcher_new(&cx, (nocluster ? CA_M_NOCLUSTER : 0) |
	    (strict ? CA_M_STRICT : 0), analyze || reverse ? 0 : limit);
	for (uint32_t j = 0; j < njobs; j++)
		ca_matcher_add_job(matcher, jobs[j].ad);

	if (out_ads) {
		writer = ca_writer_open(stdout, out_format, gzip_out);
		if (writer == NULL)
			cli_die(EX_SYSTEM, "cannot start the output");
	}
	if (analyze && !reverse)
		analyze_jobs(slots_path);
	else if (analyze)
		analyze_slots(slots_path);
	else if (reverse)
		stream_slots(slots_path, reverse_slot);
	else {
		stream_slots(slots_path, match_slot);
		print_job_matches();
	}
	if (writer && ca_writer_close(writer) < 0) {
		cli_err("writing output failed");
		cli_raise(EX_SYSTEM);
	}
	if (!any_match)
		cli_raise(EX_NO);

	ca_matcher_free(matcher);
	for (uint32_t j = 0; j < njobs; j++)
		ca_ad_free(jobs[j].ad);
	free(jobs);
	free(kept);
	free(rhits);
	strbuf_release(&line);
	ca_arena_free(&keep);
	ca_arena_free(&exprs);
	ca_ctx_free(&cx);
	ca_intern_cleanup();
	return cli_finish();
}
