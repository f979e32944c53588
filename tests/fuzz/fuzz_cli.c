/* fuzz_cli.c - libFuzzer harness for option parsing: the input's lines are
 * an argument list, parsed as userprio-calc parses its own (condor_userprio's
 * actions taken out, then cli_parse with its table: one-dash long names,
 * HTCondor's spellings and abbreviations, shared options, "did you mean"),
 * its arguments then checked. The program's exits (usage errors, --help)
 * come back here; what they print goes to /dev/null. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int userprio_main(int argc, char **argv);

static jmp_buf back;
static FILE *devnull;

static void fz_exit(int status) __attribute__((noreturn));
static void
fz_exit(int status)
{
	(void)status;
	longjmp(back, 1);
}

/* cli_parse registers its clean-up (free_common) with atexit on every
 * call; here it runs after every input instead, so whatever an exit left
 * allocated is freed, and anything else is a leak. */
static int
fz_atexit(void (*fn)(void))
{
	(void)fn;
	return 0;
}

#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#undef stdout
#undef stderr
#define stdout devnull
#define stderr devnull
#define printf(...) fprintf(devnull, __VA_ARGS__)
#define exit(status) fz_exit(status)
#define atexit(fn) fz_atexit(fn)
#define main userprio_main
#include "../../bin/cli.c"
#include "../../bin/userprio-calc.c"
#undef main
#undef exit
#undef atexit

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if ((devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	return 0;
}

#define MAXARGS	64

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *argv[MAXARGS + 2];
	static struct action *acts;
	static char *text;
	int argc = 0;

	/* argv[0], then one argument per line */
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	argv[argc++] = "userprio-calc";
	for (char *s = text; argc <= MAXARGS;) {
		char *nl = strchr(s, '\n');
		argv[argc++] = s;
		if (nl == NULL)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	argv[argc] = NULL;

	memset(&opt, 0, sizeof opt);
	opt.shares = -1;
	memset(&cli_common, 0, sizeof cli_common);
	cli_status = 0;
	optind = 0;
	acts = ca_xcalloc((size_t)argc + 1, sizeof *acts);
	if (setjmp(back) == 0) {
		cli_init(argc, argv, "userprio-calc");
		int nacts = take_actions(&argc, argv, acts);
		int first = cli_parse(&spec, argc, argv, option, NULL);
		check_args(argv + first, argc - first);
		for (int i = 0; i < nacts; i++)
			if (acts[i].kind > ACT_CANCELFACTOR)
				abort();
		if (first > argc)
			abort();
	}
	free_common();
	free(acts);
	free(text);
	return 0;
}
