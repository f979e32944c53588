/* pool_intake.c - what users hand a shared pool: submissions, whose identity
 * is the file's owner, and events; checked before a cycle takes them. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classad.h"
#include "pool.h"
#include "pool_int.h"
#include "startd.h"

/* The attributes the schedd owns: it assigns them, a user never gives them
 * (HTCondor's condor_submit and schedd set them the same way). */
static const char *const owned_attrs[] = {
	"ClusterId", "ProcId", "QDate", "JobStatus", "LastJobStatus", "EnteredCurrentStatus",
	"JobStartDate", "JobCurrentStartDate", "JobCurrentStartExecutingDate",
	"NumJobStarts", "NumJobMatches", "NumJobCompletions", "NumShadowStarts",
	"NumRestarts", "NumSystemHolds", "LastMatchTime", "LastVacateTime",
	"CompletionDate", "RemoteHost", "LastRemoteHost", "RemoteWallClockTime",
	"CumulativeSuspensionTime", "TotalSuspensions", "LastSuspensionTime",
	"CommittedTime", "CommittedSlotTime", "CumulativeSlotTime", "ExitCode",
	"ExitBySignal", "ExitStatus", "MatchedSlot", "VacateReason", "PreemptingJobId",
	"PreemptingUser", "HoldReason", "HoldReasonCode", "HoldReasonSubCode",
	"GlobalJobId", "CronDue", "JobPrio_Internal", "ServerTime", "MyType", "TargetType",
	NULL
};

/* A comma or space separated list (HTCondor's string lists). */
static void
each_item(const char *s, void (*fn)(ca_pool *, const char *, size_t), ca_pool *p)
{
	while (*s) {
		size_t skip = strspn(s, ", \t\n");
		s += skip;
		size_t n = strcspn(s, ", \t\n");
		if (n > 0)
			fn(p, s, n);
		s += n;
	}
}

static void
add_super(ca_pool *p, const char *s, size_t n)
{
	*ca_vec_push(&p->supers) = ca_arena_strndup(&p->text, s, n);
}

static void
add_owned(ca_pool *p, const char *s, size_t n)
{
	*ca_vec_push(&p->owned) = ca_intern(s, n);
}

static int
int_knob(ca_pool *p, const char *name, int64_t min, int64_t *v, ca_diag *err)
{
	int rc = ca_config_int(p->scfg, name, v, err);

	if (rc < 0)
		return -1;
	if (rc > 0 && *v < min) {
		ca_config_locate(p->scfg, name, err);
		snprintf(err->msg, sizeof err->msg, "%s must be at least %lld", name, (long long)min);
		err->status = CA_EX_INPUT;
		return -1;
	}
	return 0;
}

/* The AssignAccountingGroup map: "METHOD USER GROUPS" lines, USER a name
 * or a /regex/, GROUPS a comma list whose first is the default. */
static int
read_group_map(ca_pool *p, const char *path, ca_diag *err)
{
	FILE *fp = fopen(path, "r");
	char line[4096];
	int lineno = 0;

	if (fp == NULL) {
		ca_diag_errno(err, path, errno, "cannot read the accounting group map");
		return -1;
	}
	p->gmap_ad = ca_ad_new();
	while (fgets(line, sizeof line, fp) != NULL) {
		char f[3][1024];
		int nf = 0;
		const char *s = line;
		lineno++;
		while (nf < 3) {
			s += strspn(s, " \t\r\n");
			if (*s == '\0' || *s == '#')
				break;
			size_t n = strcspn(s, " \t\r\n");
			if (n >= sizeof f[0])
				n = sizeof f[0] - 1;
			memcpy(f[nf], s, n);
			f[nf][n] = '\0';
			nf++;
			s += n;
		}
		if (nf == 0)
			continue;
		if (nf < 3) {
			ca_diag_set(err, CA_EX_INPUT, path, lineno, 0, "a line of the map is METHOD "
			    "USER GROUPS (e.g. \"* alice group_physics\")");
			fclose(fp);
			return -1;
		}
		struct groupmap g = { NULL, NULL, ca_arena_strndup(&p->text, f[2], strlen(f[2])) };
		size_t ul = strlen(f[1]);
		if (ul >= 2 && f[1][0] == '/' && f[1][ul - 1] == '/') {
			strbuf e = STRBUF_INIT;
			strbuf_adds(&e, "regexp(\"");
			for (size_t i = 1; i + 1 < ul; i++) {
				if (f[1][i] == '"' || f[1][i] == '\\')
					strbuf_addc(&e, '\\');
				strbuf_addc(&e, f[1][i]);
			}
			strbuf_adds(&e, "\", U)");
			g.match = ca_parse_expr(&p->text, e.buf, e.len, 0, err);
			strbuf_release(&e);
			if (g.match == NULL) {
				err->file = path;
				err->line = lineno;
				fclose(fp);
				return -1;
			}
		} else
			g.user = ca_arena_strndup(&p->text, f[1], ul);
		*ca_vec_push(&p->gmap) = g;
	}
	fclose(fp);
	return 0;
}

int
ca_pool_intake_config(ca_pool *p, ca_diag *err)
{
	strbuf sb = STRBUF_INIT;
	int rc = -1, r;

	p->uid_domain = p->acct.pol.uid_domain;
	if ((r = ca_config_string(p->scfg, "QUEUE_SUPER_USERS", &sb, err)) < 0)
		goto out;
	each_item(r > 0 ? sb.buf : "root, condor", add_super, p);
	for (size_t i = 0; owned_attrs[i]; i++)
		add_owned(p, owned_attrs[i], strlen(owned_attrs[i]));
	if ((r = ca_config_string(p->scfg, "PROTECTED_JOB_ATTRS", &sb, err)) < 0)
		goto out;
	if (r > 0)
		each_item(sb.buf, add_owned, p);
	if (int_knob(p, "POOL_MAX_FILE_SIZE", 1, &p->lim.max_file_bytes, err) < 0 ||
	    int_knob(p, "POOL_MAX_ADS_PER_FILE", 1, &p->lim.max_ads, err) < 0 ||
	    int_knob(p, "MAX_JOBS_PER_SUBMISSION", 1, &p->lim.max_jobs, err) < 0 ||
	    int_knob(p, "POOL_MAX_CLOCK_JUMP", 1, &p->lim.max_clock_jump, err) < 0)
		goto out;
	if (p->lim.max_jobs > INT32_MAX)
		p->lim.max_jobs = INT32_MAX;
	/* use FEATURE : AssignAccountingGroup(MAP [, check]) */
	if ((r = ca_config_string(p->scfg, "CLASSAD_USER_MAPFILE_AssignAccountingGroup", &sb,
	    err)) < 0)
		goto out;
	if (r > 0) {
		char *path = ca_xstrndup(sb.buf, sb.len);
		p->gmap_on = true;
		r = read_group_map(p, path, err);
		if (r < 0) {
			err->file = err->file == path ? NULL : err->file;
			if (err->file == NULL)
				ca_diag_set(err, CA_EX_INPUT, NULL, 0, 0, "the accounting group map: %s",
				    err->msg);
		}
		free(path);
		if (r < 0)
			goto out;
		if (ca_config_string(p->scfg, "SUBMIT_REQUIREMENT_NAMES", &sb, err) < 0)
			goto out;
		p->gmap_check = strstr(sb.buf ? sb.buf : "", "CheckRequestedGroup") != NULL;
	}
	rc = 0;
out:
	strbuf_release(&sb);
	return rc;
}

void
ca_pool_intake_free(ca_pool *p)
{
	ca_vec_free(&p->supers);
	ca_vec_free(&p->owned);
	ca_vec_free(&p->gmap);
	ca_ad_free(p->gmap_ad);
}

bool
ca_pool_super_user(const ca_pool *p, const char *user, const char *self)
{
	if (self != NULL && strcmp(user, self) == 0)
		return true;
	for (size_t i = 0; i < p->supers.n; i++)
		if (strcmp(p->supers.at[i], user) == 0)
			return true;
	return false;
}

void
ca_pool_file_clear(ca_pool_file *f)
{
	for (size_t i = 0; i < f->n; i++)
		ca_ad_free(f->ads[i]);
	free(f->ads);
	f->ads = NULL;
	f->n = 0;
}

static int
refuse(ca_pool_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
refuse(ca_pool_file *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ca_diag_vset(&f->why, CA_EX_INPUT, NULL, 0, 0, fmt, ap);
	va_end(ap);
	f->state = CA_PF_REJECTED;
	ca_pool_file_clear(f);
	return -1;
}

/* Every ad of text into f; -1 (refused) when one does not read or there
 * are too many or none. */
static int
read_ads(ca_pool *p, ca_pool_file *f, const char *text, size_t len)
{
	ca_vec(ca_ad *) ads = CA_VEC_INIT;
	ca_diag err;
	ca_reader *r;
	ca_ad *ad;
	int rc;

	f->state = CA_PF_TAKEN;
	if (memchr(text, '\0', len) != NULL)
		return refuse(f, "the file holds a NUL byte");
	if ((r = ca_reader_open_mem(f->name, text, len, CA_FMT_AUTO, &err)) == NULL)
		return refuse(f, "%s", err.msg);
	while ((rc = ca_reader_next(r, &ad, &err)) == 1) {
		*ca_vec_push(&ads) = ad;
		if ((int64_t)ads.n > p->lim.max_ads) {
			rc = 2;
			break;
		}
	}
	ca_reader_close(r);
	f->ads = ads.at;
	f->n = ads.n;
	if (rc < 0)
		return refuse(f, "line %d: %s", err.line, err.msg);
	if (rc == 2)
		return refuse(f, "more than %lld ads (POOL_MAX_ADS_PER_FILE)",
		    (long long)p->lim.max_ads);
	if (f->n == 0)
		return refuse(f, "no ad in the file");
	return 0;
}

/* Whether the long format can hold ad as it is (the queue is written in it). */
static bool
writable(ca_ad *ad, ca_diag *why)
{
	static FILE *null;
	ca_writer *w;
	bool ok;

	if (null == NULL && (null = fopen("/dev/null", "w")) == NULL)
		return true;
	w = ca_writer_open(null, CA_FMT_LONG, false);
	ok = ca_writer_put(w, ad) == 0 || errno != EILSEQ;
	if (!ok)
		ca_diag_set(why, CA_EX_INPUT, NULL, 0, 0, "%s", ca_writer_refusal(w));
	ca_writer_close(w);
	return ok;
}

/* The groups the map lets user use ("g1,g2"), or NULL. */
static const char *
groups_of(ca_pool *p, const char *user)
{
	ca_set_str(p->gmap_ad, "U", user);
	for (size_t i = 0; i < p->gmap.n; i++) {
		const struct groupmap *g = &p->gmap.at[i];
		bool hit;
		if (g->user != NULL)
			hit = strcmp(g->user, user) == 0;
		else {
			ca_value v = ca_eval_expr(&p->cx, g->match, p->gmap_ad, NULL);
			hit = v.kind == CA_BOOL && v.u.b;
		}
		if (hit)
			return g->groups;
	}
	return NULL;
}

/* Whether group is one of the list "g1,g2". */
static bool
in_list(const char *list, const char *group)
{
	size_t gl = strlen(group);

	while (*list) {
		list += strspn(list, ", \t");
		size_t n = strcspn(list, ", \t");
		if (n == gl && strncmp(list, group, n) == 0)
			return true;
		list += n;
	}
	return false;
}

/* The accounting group of a user's ad: the group asked for (AcctGroup, else
 * AccountingGroup less a trailing ".user"), checked against the map when
 * there is one, and AccountingGroup = GROUP.USER, so usage is charged to
 * the submitter within the group. 0, or -1 with why set. */
static int
account(ca_pool *p, ca_ad *ad, const char *user, ca_diag *why)
{
	const char *s = NULL, *list;
	strbuf req = STRBUF_INIT, sb = STRBUF_INIT;
	int rc = -1;

	if (ca_has(ad, "AcctGroup")) {
		if (ca_get_str(&p->cx, ad, "AcctGroup", &s, NULL) != 1 || *s == '\0') {
			ca_diag_set(why, CA_EX_INPUT, NULL, 0, 0, "AcctGroup must be a string");
			goto out;
		}
		strbuf_adds(&req, s);
	} else if (ca_has(ad, "AccountingGroup")) {
		if (ca_get_str(&p->cx, ad, "AccountingGroup", &s, NULL) != 1 || *s == '\0') {
			ca_diag_set(why, CA_EX_INPUT, NULL, 0, 0, "AccountingGroup must be a string");
			goto out;
		}
		size_t n = strlen(s), ul = strlen(user);
		if (n > ul + 1 && s[n - ul - 1] == '.' && strcmp(s + n - ul, user) == 0)
			n -= ul + 1;
		strbuf_add(&req, s, n);
	}
	if (p->gmap_on) {
		if ((list = groups_of(p, user)) == NULL) {
			ca_diag_set(why, CA_EX_INPUT, NULL, 0, 0, "no accounting group for %s in the "
			    "map of AssignAccountingGroup", user);
			goto out;
		}
		if (req.len > 0 && !in_list(list, req.buf)) {
			if (p->gmap_check) {
				ca_diag_set(why, CA_EX_INPUT, NULL, 0, 0, "Permission denied setting "
				    "accounting_group to %s", req.buf);
				goto out;
			}
			strbuf_reset(&req);
		}
		if (req.len == 0)
			strbuf_add(&req, list, strcspn(list, ", \t"));
		ca_set_str(ad, "AcctGroup", req.buf);
		ca_set_str(ad, "AcctGroupUser", user);
	}
	if (req.len > 0) {
		strbuf_addf(&sb, "%s.%s", req.buf, user);
		ca_set_str(ad, "AccountingGroup", sb.buf);
	}
	rc = 0;
out:
	ca_arena_reset(&p->cx.scratch);
	strbuf_release(&req);
	strbuf_release(&sb);
	return rc;
}

/* A string attribute must be absent or equal want; -1 with why set. */
static int
same_str(ca_pool *p, const ca_ad *ad, const char *name, const char *want, const char *owner,
    ca_diag *why)
{
	const char *s = NULL;

	if (!ca_has(ad, name))
		return 0;
	if (ca_get_str(&p->cx, ad, name, &s, NULL) != 1 || strcmp(s, want) != 0) {
		ca_diag_set(why, CA_EX_INPUT, NULL, 0, 0, "%s is %s, but the file belongs to %s",
		    name, s ? s : "not a string", owner);
		ca_arena_reset(&p->cx.scratch);
		return -1;
	}
	return 0;
}

int
ca_pool_intake_submit(ca_pool *p, ca_pool_file *f, const char *text, size_t len,
    const char *user, bool super)
{
	strbuf who = STRBUF_INIT;
	ca_diag why;

	f->super = super;
	if (read_ads(p, f, text, len) < 0)
		return -1;
	strbuf_addf(&who, "%s@%s", user, p->uid_domain ? p->uid_domain : "localhost");
	for (size_t i = 0; i < f->n; i++) {
		ca_ad *ad = f->ads[i];
		if (super) {
			/* a queue super user submits for anyone: the ad as written */
			if (!ca_has(ad, "Owner"))
				ca_set_str(ad, "Owner", user);
			if (!ca_has(ad, "User")) {
				const char *o = NULL;
				strbuf_reset(&who);
				if (ca_get_str(&p->cx, ad, "Owner", &o, NULL) != 1)
					o = user;
				strbuf_addf(&who, "%s@%s", o, p->uid_domain ? p->uid_domain :
				    "localhost");
				ca_set_str(ad, "User", who.buf);
				ca_arena_reset(&p->cx.scratch);
			}
		} else {
			if (same_str(p, ad, "Owner", user, user, &why) < 0 ||
			    same_str(p, ad, "User", who.buf, user, &why) < 0 ||
			    same_str(p, ad, "AcctGroupUser", user, user, &why) < 0)
				goto refused;
			for (size_t k = 0; k < p->owned.n; k++)
				ca_ad_delete(ad, p->owned.at[k]);
			ca_set_str(ad, "Owner", user);
			ca_set_str(ad, "User", who.buf);
			if (account(p, ad, user, &why) < 0)
				goto refused;
		}
		if (!writable(ad, &why))
			goto refused;
		continue;
refused:
		strbuf_release(&who);
		return refuse(f, "ad %zu: %s", i + 1, why.msg);
	}
	strbuf_release(&who);
	return 0;
}

int
ca_pool_intake_events(ca_pool *p, ca_pool_file *f, const char *text, size_t len)
{
	if (read_ads(p, f, text, len) < 0)
		return -1;
	for (size_t i = 0; i < f->n; i++) {
		ca_sevent ev;
		ca_diag err;
		if (ca_sevent_init(&ev, f->ads[i], 0, &err) < 0)
			return refuse(f, "event %zu: %s", i + 1, err.msg);
	}
	return 0;
}
