/* fuzz_startd.c - libFuzzer harness for the startd's policy and events, as
 * startd-step runs them: a flags byte, then the policy, the slot ads (or
 * with --init machine descriptions) and the events, split at lines "%%".
 * Flags: 1 -a (auto-claim), 2 --init, 4 step to an hour past the clock
 * (else to the clock), 8 in steps of 600 s (else 3600 s). Each slot's
 * timeline line is made at every step, then its --why. Anything may be
 * refused; nothing may crash, leak or hang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classad.h"
#include "condor.h"
#include "fuzz_util.h"

#define NOW		INT64_C(1700000000)
#define MAXSLOTS	32
#define MAXEVENTS	64

static ca_sevents *events;
static ca_startd *sd;
static size_t nrecords;
static ca_vec(ca_smachine *) machines;
static int64_t step_to;
static strbuf key = STRBUF_INIT;	/* the host of the last machine */

static void
count_log(void *arg, const ca_slog *rec)
{
	strbuf sb = STRBUF_INIT;

	(void)arg;
	ca_slog_format(rec, &sb);
	nrecords += sb.len > 0;
	strbuf_release(&sb);
}

static void
ignore_diag(void *arg, const ca_diag *err)
{
	(void)arg;
	(void)err;
}

static void
add_event(void *arg, ca_ad *ad, int line)
{
	ca_diag err;

	(void)arg;
	if (ca_sevents_add(events, ad, NOW, "<events>", line, &err) < 0)
		ca_ad_free(ad);
}

/* A slot ad joins the machine of the ad before it when it is of the same
 * host, as startd-step groups them. */
static void
add_slot(void *arg, ca_ad *ad, int line)
{
	ca_diag err;

	(void)arg;
	(void)line;
	const char *k = ca_startd_machine_key(ad);
	if (machines.n == 0 || strcasecmp(k, key.buf) != 0) {
		*ca_vec_push(&machines) = ca_smachine_new(sd);
		strbuf_reset(&key);
		strbuf_adds(&key, k);
	}
	(void)ca_smachine_add(machines.at[machines.n - 1], ad, NOW, &err);
}

static void
init_machine(void *arg, ca_ad *ad, int line)
{
	ca_smachine *m = ca_smachine_new(sd);
	ca_diag err;

	(void)arg;
	(void)line;
	if (ca_smachine_create(m, ad, NOW, &err) == 0)
		*ca_vec_push(&machines) = m;
	else
		ca_smachine_free(m);
	ca_ad_free(ad);
}

/* Step every machine in steps of `every` seconds to step_to, and look at
 * every slot as the timeline and --why do. */
static void
step(int64_t every)
{
	strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	ca_ctx cx;

	ca_ctx_init(&cx);
	for (size_t k = 0; k < machines.n; k++) {
		ca_smachine *m = machines.at[k];
		size_t n, next = 0;
		ca_sevent **v = ca_sevents_take(events, m, &n);
		for (int64_t t = NOW;; t += every) {
			if (t > step_to)
				t = step_to;
			ca_startd_advance(sd, m, v, n, &next, t);
			for (size_t i = 0; i < ca_smachine_count(m); i++)
				if (ca_smachine_slot(m, i) != NULL) {
					strbuf_reset(&sb);
					ca_startd_status(sd, m, i, &sb);
				}
			if (t >= step_to)
				break;
		}
		free(v);
		for (size_t i = 0; i < ca_smachine_count(m); i++) {
			const ca_ad *slot = ca_smachine_slot(m, i);
			const char *s;
			size_t len;
			if (slot == NULL || ca_get_str(&cx, slot, "Name", &s, &len) != 1)
				continue;
			strbuf_reset(&name);
			strbuf_add(&name, s, len);
			ca_arena_reset(&cx.scratch);
			strbuf_reset(&sb);
			(void)ca_startd_why(sd, m, name.buf, &sb);
		}
	}
	ca_ctx_free(&cx);
	strbuf_release(&name);
	strbuf_release(&sb);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_parts p;
	ca_diag err;

	if (size < 1)
		return -1;
	unsigned flags = data[0];
	fz_split(data + 1, size - 1, 3, &p);
	ca_config *cfg = fz_config("STARTD", ca_startd_config_prepare, p.at[0], p.len[0], NOW);
	if (cfg == NULL)
		return 0;
	if ((sd = ca_startd_new(cfg, &err)) == NULL) {
		ca_config_free(cfg);
		return 0;
	}
	ca_startd_set_log(sd, count_log, NULL);
	ca_startd_set_diag(sd, ignore_diag, NULL);
	ca_startd_set_auto_claim(sd, flags & 1);
	events = ca_sevents_new();
	fz_ads("<events>", p.at[2], p.len[2], MAXEVENTS, add_event, NULL);
	fz_ads("<slots>", p.at[1], p.len[1], MAXSLOTS, flags & 2 ? init_machine : add_slot,
	    NULL);
	strbuf_release(&key);
	step_to = NOW + (flags & 4 ? 3600 : 0);
	step(flags & 8 ? 600 : 3600);
	for (size_t k = 0; k < machines.n; k++)
		ca_smachine_free(machines.at[k]);
	ca_vec_free(&machines);
	ca_sevents_free(events);
	ca_startd_free(sd);
	ca_config_free(cfg);
	ca_intern_cleanup();
	return 0;
}
