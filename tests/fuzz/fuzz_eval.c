/* fuzz_eval.c - libFuzzer harness for the evaluator: an expression parsed and
 * evaluated against a fixed job and machine ad, old and strict rules, as a
 * tree and in its flat form (the two must agree), and explained. The
 * expression is also put into the job ad, so it can refer to itself. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classad.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char job_text[] =
"[ MyType = \"Job\"; Owner = \"alice\"; Cmd = \"/bin/sleep\"; Args = \"60\";\n"
"  ClusterId = 1042; ProcId = 3; JobPrio = -5; JobStatus = 1;\n"
"  RequestCpus = 2; RequestMemory = 2048; RequestDisk = 10 * 1024 * 1024;\n"
"  ImageSize = 123456; DiskUsage = 7.5; QDate = 1700000000;\n"
"  AccountingGroup = \"group_physics.alice\"; NiceUser = false;\n"
"  Tags = { \"a\", \"b\", 3, 4.5, undefined, error, { 1, 2 } };\n"
"  Env = [ Path = \"/usr/bin\"; Home = \"/home/alice\"; N = Count + 1; Count = 2 ];\n"
"  Deadline = absTime(\"2023-11-14T22:13:20Z\"); Wall = relTime(\"1+02:00:00\");\n"
"  Loop = Loop + 1; PingA = PingB; PingB = PingA; Deep = Env.N;\n"
"  Rank = TARGET.Mips + TARGET.Memory / 1024;\n"
"  Requirements = TARGET.Arch == \"X86_64\" && TARGET.OpSys == \"LINUX\" &&\n"
"      TARGET.Memory >= RequestMemory && TARGET.Cpus >= RequestCpus &&\n"
"      stringListMember(\"physics\", TARGET.Groups) ]";

static const char machine_text[] =
"[ MyType = \"Machine\"; Name = \"slot1@ws01.example.org\"; Arch = \"X86_64\";\n"
"  OpSys = \"LINUX\"; Memory = 8192; Cpus = 4; Disk = 500000000; Mips = 3000;\n"
"  KFlops = 1.5e6; LoadAvg = 0.25; KeyboardIdle = 1200; State = \"Unclaimed\";\n"
"  Activity = \"Idle\"; Groups = \"physics,chemistry\"; StartdIpAddr = \"<10.0.0.7:9618>\";\n"
"  Start = KeyboardIdle > 15 * 60 && LoadAvg < 0.3; Gpus = undefined; Broken = error;\n"
"  Slots = { [ Name = \"a\"; Cpus = 1 ], [ Name = \"b\"; Cpus = parent.Cpus - 1 ] };\n"
"  Rank = TARGET.JobPrio * 10 + (Owner == \"alice\" ? 100 : 0);\n"
"  Requirements = START && MY.Memory >= TARGET.RequestMemory ]";

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("TZ", "UTC", 1);
	return 0;
}

static ca_ad *
fixed_ad(const char *text)
{
	size_t used;
	ca_diag err;
	ca_ad *ad = ca_parse_ad(text, strlen(text), &used, 0, &err);

	if (ad == NULL) {
		fprintf(stderr, "fuzz_eval: fixed ad: %d:%d: %s\n", err.line, err.col, err.msg);
		abort();
	}
	return ad;
}

/* Print v every way the programs do. */
static void
show(ca_value v, strbuf *sb)
{
	strbuf_reset(sb);
	ca_print_value(sb, v, 0);
	ca_print_value(sb, v, CA_PR_OLD | CA_PR_HTREAL);
	ca_value_to_string(sb, v);
}

static void
run(const char *src, size_t len, bool strict, ca_ad *job, ca_ad *machine)
{
	ca_ctx cx;
	ca_arena a = { 0 };
	ca_diag err;
	strbuf sb = STRBUF_INIT;

	ca_ctx_init(&cx);
	cx.now = 1700000000;
	cx.strict = strict;
	ca_expr *e = ca_parse_expr(&a, src, len, strict ? CA_P_STRICT : 0, &err);
	if (e == NULL)
		goto out;
	ca_ad_set_copy(job, "Fuzz", 4, e);

	/* the tree and the flat form agree (random() restarts from one seed) */
	strbuf tree = STRBUF_INIT;
	uint64_t rng = cx.rng;
	show(ca_eval_expr(&cx, e, job, machine), &tree);
	ca_arena_reset(&cx.scratch);
	cx.rng = rng;
	show(ca_prog_eval(&cx, ca_prog_new(&a, e), job, machine), &sb);
	ca_arena_reset(&cx.scratch);
	if (strcmp(tree.buf, sb.buf) != 0) {
		fprintf(stderr, "fuzz_eval: tree %s, flat form %s\n", tree.buf, sb.buf);
		abort();
	}
	strbuf_release(&tree);
	show(ca_eval_expr(&cx, e, machine, job), &sb);
	ca_arena_reset(&cx.scratch);
	show(ca_eval_expr(&cx, e, job, NULL), &sb);
	ca_arena_reset(&cx.scratch);
	show(ca_eval_attr(&cx, machine, job, "Requirements"), &sb);
	ca_arena_reset(&cx.scratch);
	show(ca_eval_attr(&cx, job, machine, "Fuzz"), &sb);
	ca_arena_reset(&cx.scratch);
	strbuf_reset(&sb);
	show(ca_explain(&cx, e, job, machine, &sb), &sb);
	ca_arena_reset(&cx.scratch);
	if (cx.depth != 0)
		abort();	/* the depth counter must come back down */
out:
	strbuf_release(&sb);
	ca_arena_free(&a);
	ca_ctx_free(&cx);
}

/* The input is the expression; the first byte is part of it. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ca_ad *job = fixed_ad(job_text), *machine = fixed_ad(machine_text);

	run((const char *)data, size, false, job, machine);
	run((const char *)data, size, true, job, machine);
	ca_ad_free(job);
	ca_ad_free(machine);
	ca_intern_cleanup();
	return 0;
}
