/* startd_hooks.c - the programs the startd runs: startd cron hooks
 * (STARTD_CRON_JOBLIST) and benchmark jobs (BENCHMARKS_JOBLIST), their ads. */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "classad.h"
#include "startd.h"
#include "startd_int.h"

extern char **environ;

/*
 * A hook is a program: run with execve (no shell) and its ARGS, the
 * startd's environment and its ENV, standard input /dev/null, for at most
 * STARTD_STEP_HOOK_TIMEOUT seconds of real time and HOOK_MAX_OUTPUT bytes
 * of output. What it prints is HTCondor's cron output: lines "Name = value"
 * (each with PREFIX put in front), and a line starting with '-' that ends
 * an ad ("- tag update:true"); the last ad needs no '-'. An ad goes to the
 * slots its SlotMergeConstraint, SlotName (or Name), SlotTypeId or SlotId
 * selects (the first of them it has), else to every slot, within the
 * SlotIDs of SLOTS; untagged ads first, then the tagged ones in order, as
 * HTCondor's startd publishes them.
 *
 * Runs take no simulated time. The machine remembers when each hook ran in
 * its slots' StartdCronRuns = [ name = time; ... ], so that a later step
 * goes on from there: a Periodic or WaitForExit hook runs when the machine
 * starts (the first step that knows it) and then every PERIOD, a OneShot
 * hook once (and again at a Reconfig event with RECONFIG_RERUN), an
 * OnDemand hook never.
 */

#define HOOK_MAX_OUTPUT	(64 * 1024)
#define HOOK_MAX_WARNINGS	5	/* bad lines of one run told one by one */

enum { H_PERIODIC, H_WAIT_FOR_EXIT, H_ONE_SHOT, H_ON_DEMAND };
static const char *const mode_name[] = { "Periodic", "WaitForExit", "OneShot", "OnDemand" };

struct hook {
	char *name;		/* as listed */
	bool bench;		/* BENCHMARKS_JOBLIST */
	int mode;
	int64_t period;
	char *exe, *cwd, *prefix;
	char **argv;		/* argv[0] is the name, as HTCondor's cron passes it */
	ca_sd_names env;	/* NAME=value, added to the startd's */
	ca_vec(int64_t) slots;	/* SLOTS: SlotIDs, empty for all */
	bool reconfig, rerun;
};

/* ---- the configuration ---- */

static void
hook_free(struct hook *h)
{
	free(h->name);
	free(h->exe);
	free(h->cwd);
	free(h->prefix);
	if (h->argv != NULL)
		for (char **a = h->argv; *a; a++)
			free(*a);
	free(h->argv);
	ca_sd_names_free(&h->env);
	ca_vec_free(&h->slots);
}

void
ca_sd_hooks_free(ca_startd *sd)
{
	for (size_t i = 0; i < sd->hooks.n; i++)
		hook_free(&sd->hooks.at[i]);
	ca_vec_free(&sd->hooks);
}

/* Words of an ARGS or ENV value: the new syntax ("..." around it, words
 * split at blanks, '...' keeping blanks, '' a quote) or the old one
 * (words split at sep). */
static void
words(const char *s, char sep, ca_sd_names *out)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		strbuf w = STRBUF_INIT;
		bool in = false, any = false;
		for (size_t i = 1; i + 1 <= n - 1; i++) {
			char c = s[i];
			if (c == '\'' && in && i + 1 < n - 1 && s[i + 1] == '\'') {
				strbuf_addc(&w, '\'');
				i++;
			} else if (c == '\'') {
				in = !in;
				any = true;
			} else if (!in && (c == ' ' || c == '\t')) {
				if (w.len > 0 || any)
					*ca_vec_push(out) = ca_xstrndup(w.buf, w.len);
				strbuf_reset(&w);
				any = false;
			} else
				strbuf_addc(&w, c);
		}
		if (w.len > 0 || any)
			*ca_vec_push(out) = ca_xstrndup(w.buf, w.len);
		strbuf_release(&w);
		return;
	}
	for (const char *p = s, *end = s + n; p < end;) {
		const char *q = p;
		while (q < end && *q != sep && !(sep == ' ' && *q == '\t'))
			q++;
		if (q > p)
			*ca_vec_push(out) = ca_xstrndup(p, (size_t)(q - p));
		p = q + 1;
	}
}

/* KNOB = value of hook h (LIST_NAME_KNOB): 1 and *out, 0 when not set. */
static int
hook_knob(ca_startd *sd, const char *list, const struct hook *h, const char *knob,
    strbuf *out, strbuf *name, ca_diag *err)
{
	strbuf_reset(name);
	strbuf_addf(name, "%s_%s_%s", list, h->name, knob);
	return ca_config_string(sd->cfg, name->buf, out, err);
}

/* A period: seconds, or a number with s, m or h. */
static bool
parse_period(const char *s, int64_t *out)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s || v < 0 || v > TIME_LIMIT / 3600)
		return false;
	while (*end == ' ')
		end++;
	int mul = 1;
	if (*end == 's' || *end == 'S')
		end++;
	else if (*end == 'm' || *end == 'M')
		mul = 60, end++;
	else if (*end == 'h' || *end == 'H')
		mul = 3600, end++;
	if (*end != '\0')
		return false;
	*out = v * mul;
	return true;
}

/* One hook of list (STARTD_CRON or BENCHMARKS) named name. */
static int
hook_read(ca_startd *sd, const char *list, const char *name, ca_diag *err)
{
	struct hook h = { 0 };
	strbuf v = STRBUF_INIT, knob = STRBUF_INIT;
	int rc;

	h.name = ca_xstrndup(name, strlen(name));
	h.bench = strcmp(list, "BENCHMARKS") == 0;
	h.mode = h.bench ? H_ONE_SHOT : H_PERIODIC;
	if ((rc = hook_knob(sd, list, &h, "EXECUTABLE", &v, &knob, err)) < 0)
		goto fail;
	if (rc == 0) {
		strbuf_reset(&knob);
		strbuf_addf(&knob, "%s_JOBLIST", list);
		ca_sd_config_err(sd, knob.buf, err, "%s_%s_EXECUTABLE: the hook %s has no "
		    "program", list, name, name);
		goto fail;
	}
	h.exe = ca_xstrndup(v.buf, v.len);
	if ((rc = hook_knob(sd, list, &h, "MODE", &v, &knob, err)) < 0)
		goto fail;
	if (rc == 1 && !h.bench) {
		h.mode = -1;
		for (int i = 0; i < 4; i++)
			if (strcasecmp(v.buf, mode_name[i]) == 0)
				h.mode = i;
		if (h.mode < 0) {
			ca_sd_config_err(sd, knob.buf, err, "%s: unknown mode '%s' (Periodic, "
			    "WaitForExit, OneShot, OnDemand)", knob.buf, v.buf);
			goto fail;
		}
	}
	if ((rc = hook_knob(sd, list, &h, "PERIOD", &v, &knob, err)) < 0)
		goto fail;
	if (rc == 1 && !parse_period(v.buf, &h.period)) {
		ca_sd_config_err(sd, knob.buf, err, "%s: '%s' is not a period (seconds, or a "
		    "number with s, m or h)", knob.buf, v.buf);
		goto fail;
	}
	if (h.mode == H_PERIODIC && h.period <= 0) {
		ca_sd_config_err(sd, rc == 1 ? knob.buf : NULL, err, "%s: a Periodic hook needs "
		    "a PERIOD of at least one second", rc == 1 ? knob.buf : h.name);
		goto fail;
	}
	if ((rc = hook_knob(sd, list, &h, "PREFIX", &v, &knob, err)) < 0)
		goto fail;
	if (rc == 1)
		h.prefix = ca_xstrndup(v.buf, v.len);
	if ((rc = hook_knob(sd, list, &h, "CWD", &v, &knob, err)) < 0)
		goto fail;
	if (rc == 1)
		h.cwd = ca_xstrndup(v.buf, v.len);
	ca_sd_names args = CA_VEC_INIT;
	*ca_vec_push(&args) = ca_xstrndup(name, strlen(name));
	if ((rc = hook_knob(sd, list, &h, "ARGS", &v, &knob, err)) < 0) {
		ca_sd_names_free(&args);
		goto fail;
	}
	if (rc == 1)
		words(v.buf, ' ', &args);
	*ca_vec_push(&args) = NULL;
	h.argv = args.at;
	if ((rc = hook_knob(sd, list, &h, "ENV", &v, &knob, err)) < 0)
		goto fail;
	if (rc == 1)
		words(v.buf, ';', &h.env);
	for (size_t i = 0; i < h.env.n; i++)
		if (strchr(h.env.at[i], '=') == NULL || h.env.at[i][0] == '=') {
			ca_sd_config_err(sd, knob.buf, err, "%s: '%s' is not NAME=value", knob.buf,
			    h.env.at[i]);
			goto fail;
		}
	if ((rc = hook_knob(sd, list, &h, "SLOTS", &v, &knob, err)) < 0)
		goto fail;
	if (rc == 1) {
		ca_sd_names ids = CA_VEC_INIT;
		ca_sd_names_split(&ids, v.buf);
		for (size_t i = 0; i < ids.n; i++) {
			char *end;
			long long id = strtoll(ids.at[i], &end, 10);
			if (*end != '\0' || id < 1) {
				ca_sd_config_err(sd, knob.buf, err, "%s: '%s' is not a slot id",
				    knob.buf, ids.at[i]);
				ca_sd_names_free(&ids);
				goto fail;
			}
			*ca_vec_push(&h.slots) = id;
		}
		ca_sd_names_free(&ids);
	}
	static const char *const flags[] = { "RECONFIG", "RECONFIG_RERUN" };
	for (int k = 0; k < 2; k++) {
		bool b = false;
		strbuf_reset(&knob);
		strbuf_addf(&knob, "%s_%s_%s", list, name, flags[k]);
		if (ca_config_bool(sd->cfg, knob.buf, &b, err) < 0)
			goto fail;
		if (k == 0)
			h.reconfig = b;
		else
			h.rerun = b;
	}
	*ca_vec_push(&sd->hooks) = h;
	strbuf_release(&v);
	strbuf_release(&knob);
	return 0;
fail:
	hook_free(&h);
	strbuf_release(&v);
	strbuf_release(&knob);
	return -1;
}

int
ca_sd_hooks_init(ca_startd *sd, ca_diag *err)
{
	static const char *const lists[] = { "STARTD_CRON", "BENCHMARKS" };
	strbuf v = STRBUF_INIT, knob = STRBUF_INIT;
	int rc = 0;

	for (int k = 0; k < 2 && rc == 0; k++) {
		ca_sd_names names = CA_VEC_INIT;
		strbuf_reset(&knob);
		strbuf_addf(&knob, "%s_JOBLIST", lists[k]);
		strbuf_reset(&v);
		if (ca_config_string(sd->cfg, knob.buf, &v, err) < 0) {
			rc = -1;
			break;
		}
		ca_sd_names_split(&names, v.buf);
		for (size_t i = 0; i < names.n && rc == 0; i++) {
			bool dup = false;
			for (size_t j = 0; j < sd->hooks.n; j++)
				dup |= strcasecmp(sd->hooks.at[j].name, names.at[i]) == 0 &&
				    sd->hooks.at[j].bench == (k == 1);
			if (!dup)
				rc = hook_read(sd, lists[k], names.at[i], err);
		}
		ca_sd_names_free(&names);
	}
	strbuf_release(&v);
	strbuf_release(&knob);
	return rc;
}

/* ---- running a program ---- */

static int64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The environment of h at simulated time t: the startd's, what HTCondor's
 * cron adds, STARTD_STEP_TIME (the simulated clock) and ENV; malloc'ed. */
static char **
hook_env(const struct hook *h, int64_t t, ca_sd_names *own)
{
	ca_vec(char *) env = CA_VEC_INIT;
	char buf[64];

	*ca_vec_push(own) = ca_xstrndup("STARTD_CRON_NAME=STARTD", 23);
	*ca_vec_push(own) = ca_xstrndup("STARTD_INTERFACE_VERSION=1", 26);
	snprintf(buf, sizeof buf, "STARTD_STEP_TIME=%lld", (long long)t);
	*ca_vec_push(own) = ca_xstrndup(buf, strlen(buf));
	for (size_t i = 0; i < h->env.n; i++)
		*ca_vec_push(own) = h->env.at[i];
	for (char **e = environ; e != NULL && *e != NULL; e++) {
		const char *eq = strchr(*e, '=');
		size_t nl = eq ? (size_t)(eq - *e) : strlen(*e);
		bool mine = false;
		for (size_t i = 0; i < own->n && !mine; i++)
			mine = strncmp(own->at[i], *e, nl) == 0 && own->at[i][nl] == '=';
		if (!mine)
			*ca_vec_push(&env) = *e;
	}
	for (size_t i = 0; i < own->n; i++)
		*ca_vec_push(&env) = own->at[i];
	*ca_vec_push(&env) = NULL;
	return env.at;
}

/* Read what fds[0] (standard output) and fds[1] (standard error) give until
 * both close or the deadline; out keeps at most HOOK_MAX_OUTPUT bytes,
 * errtext the first 200 of the error output. "" when all was read, else
 * why not. */
static const char *
collect(int fds[2], int64_t deadline, strbuf *out, strbuf *errtext)
{
	char buf[4096];
	bool open[2] = { true, true };

	while (open[0] || open[1]) {
		int64_t left = deadline - mono_ms();
		if (left <= 0)
			return "did not finish in time";
		struct pollfd pf[2];
		nfds_t n = 0;
		int which[2];
		for (int k = 0; k < 2; k++)
			if (open[k]) {
				pf[n] = (struct pollfd){ fds[k], POLLIN, 0 };
				which[n++] = k;
			}
		int r = poll(pf, n, (int)(left > 500 ? 500 : left));
		if (r < 0 && errno != EINTR)
			return "cannot read its output";
		for (nfds_t i = 0; r > 0 && i < n; i++) {
			if (pf[i].revents == 0)
				continue;
			ssize_t got = read(pf[i].fd, buf, sizeof buf);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				open[which[i]] = false;
				continue;
			}
			if (which[i] == 0) {
				if (out->len + (size_t)got > HOOK_MAX_OUTPUT)
					return "wrote more than 64 KiB";
				strbuf_add(out, buf, (size_t)got);
			} else if (errtext->len < 200)
				strbuf_add(errtext, buf, (size_t)got > 200 - errtext->len ?
				    200 - errtext->len : (size_t)got);
		}
	}
	return "";
}

/* Run h at simulated time t. 0 with its standard output in out, or -1 with
 * why. */
static int
run_hook(ca_startd *sd, const struct hook *h, int64_t t, strbuf *out, strbuf *why)
{
	int po[2], pe[2];
	strbuf errtext = STRBUF_INIT;

	strbuf_reset(out);
	if (pipe(po) < 0) {
		strbuf_addf(why, "pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe(pe) < 0) {
		strbuf_addf(why, "pipe: %s", strerror(errno));
		close(po[0]);
		close(po[1]);
		return -1;
	}
	ca_sd_names own = CA_VEC_INIT;
	char **envp = hook_env(h, t, &own);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			close(null);
		}
		dup2(po[1], STDOUT_FILENO);
		dup2(pe[1], STDERR_FILENO);
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		if (h->cwd != NULL && chdir(h->cwd) < 0) {
			dprintf(STDERR_FILENO, "cannot enter %s: %s", h->cwd, strerror(errno));
			_exit(126);
		}
		execve(h->exe, h->argv, envp);
		dprintf(STDERR_FILENO, "cannot run %s: %s", h->exe, strerror(errno));
		_exit(127);
	}
	int saved = errno;
	free(envp);
	for (size_t i = 0; i < own.n; i++)
		if (i < 3)
			free(own.at[i]);
	ca_vec_free(&own);
	close(po[1]);
	close(pe[1]);
	if (pid < 0) {
		strbuf_addf(why, "fork: %s", strerror(saved));
		close(po[0]);
		close(pe[0]);
		return -1;
	}
	int fds[2] = { po[0], pe[0] };
	const char *fail = collect(fds, mono_ms() + sd->hook_timeout * 1000, out, &errtext);
	close(po[0]);
	close(pe[0]);
	int st = 0;
	if (*fail != '\0')
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (*fail == '\0' && WIFSIGNALED(st))
		strbuf_addf(why, "killed by signal %d", WTERMSIG(st));
	else if (*fail == '\0' && WEXITSTATUS(st) != 0) {
		strbuf_addf(why, "exited with status %d", WEXITSTATUS(st));
		while (errtext.len > 0 && (errtext.buf[errtext.len - 1] == '\n' ||
		    errtext.buf[errtext.len - 1] == '\r'))
			errtext.len--;
		if (errtext.len > 0) {
			errtext.buf[errtext.len] = '\0';
			for (char *c = errtext.buf; *c; c++)
				if (*c == '\n' || *c == '\t' || (unsigned char)*c < ' ')
					*c = ' ';
			strbuf_addf(why, ": %s", errtext.buf);
		}
	} else if (*fail == '\0')
		;
	else if (strcmp(fail, "did not finish in time") == 0)
		strbuf_addf(why, "did not finish in %lld s (STARTD_STEP_HOOK_TIMEOUT): killed",
		    (long long)sd->hook_timeout);
	else
		strbuf_addf(why, "%s: killed", fail);
	strbuf_release(&errtext);
	return why->len > 0 ? -1 : 0;
}

/* ---- the output ---- */

/* An ad of the output, and its tag ("" for none). */
struct oad {
	ca_ad *ad;
	char *tag;
};
typedef ca_vec(struct oad) oads;

static void
oads_free(oads *v)
{
	for (size_t i = 0; i < v->n; i++) {
		ca_ad_free(v->at[i].ad);
		free(v->at[i].tag);
	}
	ca_vec_free(v);
}

/* A problem with what a hook did: a warning, and a note in the log. */
static void
hook_warn(ca_startd *sd, ca_smachine *m, const struct hook *h, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void
hook_warn(ca_startd *sd, ca_smachine *m, const struct hook *h, int line, const char *fmt, ...)
{
	ca_diag d;
	va_list ap;

	va_start(ap, fmt);
	ca_diag_vset(&d, 0, h->exe, line, line > 0 ? 1 : 0, fmt, ap);
	va_end(ap);
	ca_sd_diag(sd, &d);
	for (size_t i = 0; i < m->slots.n; i++)
		if (live(m->slots.at[i])) {
			ca_sd_note(sd, m->slots.at[i], "%s hook %s: %s%.0d%s%s",
			    h->bench ? "benchmark" : "startd cron", h->name,
			    line > 0 ? "output line " : "", line, line > 0 ? ": " : "", d.msg);
			break;
		}
}

/* The ads of what h printed. */
static void
parse_output(ca_startd *sd, ca_smachine *m, const struct hook *h, int64_t t, const strbuf *out,
    oads *ads)
{
	ca_ad *cur = NULL;
	strbuf line = STRBUF_INIT;
	int lineno = 0, bad = 0;
	size_t start = 0;

	for (size_t at = 0; at <= out->len; at++) {
		if (at < out->len && out->buf[at] != '\n')
			continue;
		const char *l = out->buf + start;
		size_t len = at - start;
		start = at + 1;
		lineno++;
		while (len > 0 && (l[len - 1] == '\r' || l[len - 1] == ' ' || l[len - 1] == '\t'))
			len--;
		while (len > 0 && (*l == ' ' || *l == '\t'))
			l++, len--;
		if (len == 0)
			continue;
		if (l[0] == '-') {
			const char *tag = l + 1;
			size_t tl = len - 1;
			while (tl > 0 && (*tag == ' ' || *tag == '\t'))
				tag++, tl--;
			size_t w = 0;
			while (w < tl && tag[w] != ' ' && tag[w] != '\t')
				w++;
			if (w > 0 && strncasecmp(tag, "update:", 7) == 0)
				w = 0;	/* no tag, only the update flag */
			if (cur != NULL)
				*ca_vec_push(ads) = (struct oad){ cur, ca_xstrndup(tag, w) };
			cur = NULL;
			continue;
		}
		if (memchr(l, '\0', len) != NULL) {
			if (++bad <= HOOK_MAX_WARNINGS)
				hook_warn(sd, m, h, lineno, "a NUL byte (the line is left out)");
			continue;
		}
		strbuf_reset(&line);
		if (h->prefix != NULL)
			strbuf_adds(&line, h->prefix);
		strbuf_add(&line, l, len);
		if (cur == NULL)
			cur = ca_ad_new();
		ca_diag err;
		if (ca_parse_assignments(cur, line.buf, line.len, CA_P_OLDSTR, &err) < 0 &&
		    ++bad <= HOOK_MAX_WARNINGS)
			hook_warn(sd, m, h, lineno, "%s (the line is left out)", err.msg);
	}
	if (bad > HOOK_MAX_WARNINGS)
		hook_warn(sd, m, h, 0, "%d more lines that are not attributes left out",
		    bad - HOOK_MAX_WARNINGS);
	if (cur != NULL)
		*ca_vec_push(ads) = (struct oad){ cur, ca_xstrndup("", 0) };
	if (h->prefix != NULL)
		for (size_t i = 0; i < ads->n; i++) {
			strbuf_reset(&line);
			strbuf_addf(&line, "%sLastUpdate", h->prefix);
			ca_set_int(ads->at[i].ad, line.buf, t);
		}
	strbuf_release(&line);
}

/* Does ad (of h) go to slot s? */
static bool
merges_into(ca_startd *sd, const struct hook *h, const ca_ad *ad, struct slot *s)
{
	int64_t v, id;

	if (h->slots.n > 0) {
		bool in = false;
		for (size_t i = 0; i < h->slots.n; i++)
			in |= h->slots.at[i] == s->id;
		if (!in)
			return false;
	}
	sd->cx.now = s->clock;
	if (ca_ad_findn(ad, "SlotMergeConstraint", 19) != NULL)
		return ca_value_truth(ca_eval_attr(&sd->cx, ad, s->ad, "SlotMergeConstraint")) == 1;
	const char *want = lit_str(ad, ca_intern("SlotName", 8));
	if (want == NULL)
		want = lit_str(ad, sd->n[A_NAME]);
	if (want != NULL && *want != '\0')
		return strncmp(slot_name(sd, s), want, strlen(want)) == 0;
	if (lit_int(ad, sd->n[A_SLOTTYPEID], &v) && lit_int(s->ad, sd->n[A_SLOTTYPEID], &id))
		return v == id;
	if (lit_int(ad, sd->n[A_SLOTID], &v))
		return v == s->id;
	return true;
}

/* Merge ad into slot s, leaving out what only selects slots and what the
 * state machine owns. */
static void
merge(ca_startd *sd, const ca_ad *ad, struct slot *s)
{
	static const char *const selectors[] = { "SlotMergeConstraint", "SlotName" };

	for (uint32_t i = 0; i < ad->n; i++) {
		const ca_attr *at = &ad->attrs[i];
		bool skip = ca_sd_machine_owned(sd, ca_attr_name(at)) || ca_attr_name(at) == sd->n[A_SLOTID] ||
		    ca_attr_name(at) == sd->n[A_SLOTTYPEID];
		for (size_t k = 0; k < 2 && !skip; k++)
			skip = ca_attr_name(at) == ca_intern(selectors[k], strlen(selectors[k]));
		if (!skip)
			ca_ad_set(s->ad, ca_attr_name(at), NULL, ca_expr_copy(s->ad->arena, ca_attr_expr(ad, at)));
	}
}

/* Run hook h on machine m at time t and put what it printed into the
 * slots; a benchmark's Mips and KFlops go into their averages. */
static void
hook_run(ca_startd *sd, ca_smachine *m, const struct hook *h, int64_t t)
{
	strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	oads ads = CA_VEC_INIT;

	if (run_hook(sd, h, t, &out, &why) < 0) {
		hook_warn(sd, m, h, 0, "%s", why.buf);
		goto done;
	}
	parse_output(sd, m, h, t, &out, &ads);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < ads.n; i++) {
			if ((ads.at[i].tag[0] != '\0') != (pass == 1))
				continue;
			for (size_t k = 0; k < m->slots.n; k++) {
				struct slot *s = m->slots.at[k];
				if (!live(s) || !merges_into(sd, h, ads.at[i].ad, s))
					continue;
				if (h->bench) {
					static const int res[] = { A_MIPS, A_KFLOPS };
					for (size_t r = 0; r < 2; r++) {
						double d;
						if (num_of(lit(ads.at[i].ad, sd->n[res[r]]), &d))
							ca_sd_bench_result(sd, s, res[r], d);
					}
					ca_ad_delete(ads.at[i].ad, sd->n[A_MIPS]);
					ca_ad_delete(ads.at[i].ad, sd->n[A_KFLOPS]);
				}
				merge(sd, ads.at[i].ad, s);
			}
		}
done:
	oads_free(&ads);
	strbuf_release(&out);
	strbuf_release(&why);
	ca_arena_reset(&sd->cx.scratch);
}

/* ---- when hooks run ---- */

/* When hook h of m last ran (INT64_MIN: never). */
static int64_t
last_run(ca_startd *sd, const ca_smachine *m, const struct hook *h)
{
	int64_t t = INT64_MIN, v;
	const ca_name *n = ca_intern(h->name, strlen(h->name));

	for (size_t i = 0; i < m->slots.n; i++) {
		const struct slot *s = m->slots.at[i];
		const ca_ad *runs = live(s) ? nested(s->ad, sd->n[A_CRONRUNS]) : NULL;
		if (runs != NULL && lit_time(runs, n, &v) && v > t)
			t = v;
	}
	return t;
}

/* Record that h ran at t in every slot of m. */
static void
record_run(ca_startd *sd, ca_smachine *m, const struct hook *h, int64_t t)
{
	const ca_name *n = ca_intern(h->name, strlen(h->name));

	for (size_t i = 0; i < m->slots.n; i++) {
		struct slot *s = m->slots.at[i];
		if (!live(s))
			continue;
		ca_ad *runs = nested(s->ad, sd->n[A_CRONRUNS]);
		if (runs == NULL) {
			ca_expr *e = ca_parse_expr(s->ad->arena, "[]", 2, 0, &(ca_diag){ 0 });
			ca_ad_set(s->ad, sd->n[A_CRONRUNS], ca_sd_aname[A_CRONRUNS], e);
			runs = nested(s->ad, sd->n[A_CRONRUNS]);
		}
		if (runs != NULL)
			ca_sd_setv(runs, n, NULL, ca_int(t));
	}
}

/* When startd cron hook h runs next on m, whose clock is now (INT64_MAX:
 * never). */
static int64_t
next_run(ca_startd *sd, const ca_smachine *m, const struct hook *h, int64_t now)
{
	int64_t last;

	if (h->bench || h->mode == H_ON_DEMAND)
		return INT64_MAX;
	last = last_run(sd, m, h);
	if (last == INT64_MIN)
		return now;		/* the machine starts with it */
	if (h->mode == H_ONE_SHOT || h->period <= 0)
		return INT64_MAX;
	return last + h->period;
}

int64_t
ca_sd_hooks_deadline(ca_startd *sd, const ca_smachine *m, int64_t now)
{
	int64_t d = INT64_MAX;

	for (size_t i = 0; i < sd->hooks.n; i++) {
		int64_t x = next_run(sd, m, &sd->hooks.at[i], now);
		if (x < d)
			d = x;
	}
	return d;
}

void
ca_sd_hooks_run(ca_startd *sd, ca_smachine *m, int64_t t)
{
	for (size_t i = 0; i < sd->hooks.n; i++) {
		const struct hook *h = &sd->hooks.at[i];
		if (next_run(sd, m, h, t) > t)
			continue;
		hook_run(sd, m, h, t);
		record_run(sd, m, h, t);
	}
}

void
ca_sd_hooks_reconfig(ca_startd *sd, ca_smachine *m, int64_t t)
{
	for (size_t i = 0; i < sd->hooks.n; i++) {
		const struct hook *h = &sd->hooks.at[i];
		if (h->bench || h->mode == H_ON_DEMAND ||
		    !(h->mode == H_ONE_SHOT ? h->rerun : h->reconfig))
			continue;
		hook_run(sd, m, h, t);
		record_run(sd, m, h, t);
	}
}

bool
ca_sd_run_benchmarks(ca_startd *sd, ca_smachine *m, struct slot *s)
{
	bool any = false;

	for (size_t i = 0; i < sd->hooks.n; i++)
		if (sd->hooks.at[i].bench) {
			hook_run(sd, m, &sd->hooks.at[i], s->clock);
			any = true;
		}
	return any;
}
