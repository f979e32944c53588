/* classad-eval - evaluate ClassAd expressions in the context of ads; filter,
 * project and convert ad streams; an interactive expression debugger.
 *
 * Expression mode follows HTCondor's classad_eval: arguments are processed
 * left to right; "name = expr" assigns into the context ad, "[ ... ]" merges
 * an ad into it, anything else is evaluated and printed on one line.
 * Differences: the context ad is printed only when the arguments end with a
 * change to it (-q: never); reals print as the shortest exact text;
 * --explain shows why an expression has its value.
 * Stream mode (-w, -p, -s, -o, -z, -I) reads ads from files or standard
 * input, like condor_status -constraint and -af.
 * The REPL (-i, or no arguments) reads the same input line by line, with
 * commands (:load, :explain, :match, ...), continuation lines, history and
 * completion through readline or libedit (chosen when building). */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/select.h>

#if defined(CA_USE_READLINE)
#include <readline/history.h>
#include <readline/readline.h>
#define LINE_EDITOR "readline"
#elif defined(CA_USE_LIBEDIT)
#include <editline/readline.h>
#define LINE_EDITOR "libedit"
#endif

#include "cli.h"
#include "classad.h"
#include "par.h"

enum {
	OPT_STRICT = CLI_LONG, OPT_LONG, OPT_JSON, OPT_XML, OPT_AF, OPT_FORMAT, OPT_ADS,
	OPT_ATTRS, OPT_HEADER, OPT_PARALLEL
};

static const cli_opt options[] = {
	CLI_HEADING("Expression mode (arguments left to right):"),
	CLI_HEADING("  NAME = EXPR         assign into the context ad (several: 'a = 1; b = 2')"),
	CLI_HEADING("  [ AD ]              merge an ad into the context ad"),
	CLI_HEADING("  EXPR                evaluate with the context ad as MY and print the value"),
	{ 'f', 0, "file", CLI_ARG, "FILE", "context ad: the first ad of FILE" },
	{ 't', 0, "target", CLI_ARG, "FILE", "target ad (TARGET.x and the daemons' fallback)" },
	{ 'x', 0, "explain", CLI_ARG, "EXPR", "print EXPR as a tree of values, and why it is\n"
	    "undefined or error" },
	{ 'q', 0, "quiet", CLI_NOARG, NULL, "do not print the context ad when the arguments end\n"
	    "with an assignment or merge" },
	CLI_HEADING("Stream mode (any of -w -p -s -o -z -I; FILEs or standard input):"),
	{ 'w', 0, "where", CLI_ARG, "EXPR", "keep the ads for which EXPR is true\n"
	    "(also --constraint, -constraint)" },
	{ 'w', 0, "constraint", CLI_ARG, "EXPR", NULL, "constraint", 5 },
	{ 'p', 0, "print", CLI_ARG, "EXPR", "print EXPR's value per ad, tab-separated (repeatable)" },
	{ OPT_HEADER, 0, "header", CLI_NOARG, NULL, "a first line naming the -p columns" },
	{ 's', 0, "set", CLI_ARG, "'NAME = EXPR'", "set an attribute in every ad (repeatable)" },
	CLI_OPT_OUT,
	{ OPT_LONG, 0, "long", CLI_NOARG, NULL, NULL, "long", 0 },
	{ OPT_JSON, 0, "json", CLI_NOARG, NULL, NULL, "json", 0 },
	{ OPT_XML, 0, "xml", CLI_NOARG, NULL, NULL, "xml", 0 },
	CLI_OPT_GZIP,
	CLI_OPT_IN('I'),
	{ OPT_PARALLEL, 0, "parallel", CLI_ARG, "N", "filter one file in N processes (default: one\n"
	    "per processor for a file of 4 MB or more; 1: one)" },
	CLI_HEADING("condor_status's spellings in stream mode:"),
	{ OPT_AF, 0, "af", CLI_OPTARG, ":jlhVrTY,tng", "EXPR... (also -autoformat) print the\n"
	    "EXPRs that follow, as condor_status -af does", "af", 0 },
	{ OPT_AF, 0, "autoformat", CLI_OPTARG, "QUAL", NULL, "autoformat", 5 },
	{ OPT_FORMAT, 0, "format", CLI_ARG, "FMT", "EXPR  print EXPR with a printf-style FMT\n"
	    "(%s %d %f %v %V %r), as condor_status -format", "format", 0 },
	{ OPT_ADS, 0, "ads", CLI_ARG, "FILE", "read the ads of FILE (as condor_status -ads)", "ads", 0 },
	{ OPT_ATTRS, 0, "attributes", CLI_ARG, "A,B", "write only these attributes of each ad", "attributes", 4 },
	CLI_HEADING("  -constraint EXPR, -long, -json, -xml: as -w, -o long, -o json, -o xml"),
	CLI_HEADING("Interactive:"),
	{ 'i', 0, "interactive", CLI_NOARG, NULL,
	    "the REPL (also with no arguments); :help lists its commands" },
	CLI_HEADING("Everywhere:"),
	{ CLI_K_NOW, 0, "now", CLI_ARG, "EPOCH", "fix time() and CurrentTime" },
	{ OPT_STRICT, 0, "strict", CLI_NOARG, NULL, "new ClassAd lookup rules (no fallback to TARGET)" },
	CLI_OPT_HELP,
	CLI_END
};

static const cli_spec spec = {
	"usage: classad-eval [-q] [--strict] [--now EPOCH] [-f FILE] [-t FILE]\n"
	"                    [--explain EXPR] [NAME = EXPR | [ AD ] | EXPR]...\n"
	"       classad-eval [-w EXPR] [-p EXPR]... [-s 'NAME = EXPR']... [-o FORMAT] [-z]\n"
	"                    [-I FORMAT] [--parallel N] [--strict] [--now EPOCH] [-t FILE]\n"
	"                    [FILE...]\n"
	"       classad-eval -i [-f FILE] [-t FILE] [--now EPOCH] [--strict]\n",
	NULL, options, NULL, true
};

static const char repl_help[] =
"Type an expression to see its value, NAME = EXPR to set an attribute of the\n"
"context ad (MY), or [ ... ] to merge an ad into it. Unfinished input (an\n"
"open bracket, parenthesis or string) continues on the next line; an empty\n"
"line there discards it.\n"
"  :load FILE [N | where EXPR]    context ad: the first (Nth, first matching) ad\n"
"  :target FILE [N | where EXPR]  target ad, the same way\n"
"  :show [target]      print the context (or target) ad\n"
"  :unset NAME         remove an attribute from the context ad\n"
"  :clear              empty the context ad and drop the target\n"
"  :now EPOCH|off      fix the clock, or follow the real one\n"
"  :strict on|off      new ClassAd lookup rules, or the daemons' (default)\n"
"  :format new|long|json   how :show prints ads\n"
"  :explain EXPR       EXPR as a tree of values, and why it is undefined or error\n"
"  :match              does MY match TARGET, both ways, with both Ranks\n"
"  :help               this text\n"
"  :quit               leave (so does Ctrl-D)\n";

/* An argument of expression mode, in command-line order. */
struct action {
	int kind;		/* 'f', 't', 'x', or 0 for a positional argument */
	const char *arg;
	int argno;
};

static ca_ctx cx;
static int pflags;		/* parser flags */
static ca_ad *my_ad, *target_ad;
static bool quiet;
static bool dirty;		/* the context changed since the last value printed */
static bool in_repl;		/* errors without the program name, never fatal */
static bool real_clock = true;	/* follow time() (no --now / :now) */
static ca_format show_format = CA_FMT_NEW;

/* A diagnostic about input: "prog: where:line:col: msg", in the REPL
 * without the program name. Raises the exit status to 3. */
static void
input_error(const char *where, int line, int col, const char *msg)
{
	if (in_repl)
		cli_msg(where, line, col, "%s", msg);
	else
		cli_errat(where, line, col, "%s", msg);
	cli_raise(EX_INPUT);
}

static void
report_rerr(const ca_diag *e)
{
	if (in_repl) {
		input_error(e->file, e->line, e->col, e->msg);
		if (e->status == CA_EX_SYSTEM)
			cli_raise(EX_SYSTEM);
	} else
		cli_diag(e);
}

static void
set_clock(void)
{
	if (real_clock)
		cx.now = (int64_t)time(NULL);
}

/* The ad of a file chosen by index (1-based; 0 the first) or by an
 * expression; NULL after reporting a problem. */
static ca_ad *
pick_ad(const char *path, long index, const ca_expr *where)
{
	ca_diag err;
	ca_ad *ad = NULL;
	ca_reader *r = ca_reader_open(path, cli_common.in, &err);
	long n = 0;

	if (r == NULL) {
		report_rerr(&err);
		return NULL;
	}
	for (;;) {
		int rc = ca_reader_next(r, &ad, &err);
		if (rc < 0) {
			report_rerr(&err);
			ad = NULL;
			break;
		}
		if (rc == 0) {
			char msg[160];
			if (where)
				snprintf(msg, sizeof msg, "none of its %ld ads matches the expression", n);
			else if (index > 1)
				snprintf(msg, sizeof msg, "it holds %ld ad%s: there is no ad %ld", n,
				    n == 1 ? "" : "s", index);
			else
				snprintf(msg, sizeof msg, "no ad in the input");
			input_error(cli_display(path), 0, 0, msg);
			ad = NULL;
			break;
		}
		n++;
		bool ok = where ? ca_value_truth(ca_eval_expr(&cx, where, ad, NULL)) == 1 :
		    n >= index;
		ca_arena_reset(&cx.scratch);
		if (ok)
			break;
		ca_ad_free(ad);
	}
	if (ad != NULL && ca_reader_warning(r, &err))
		cli_errat(err.file, err.line, err.col, "warning: %s", err.msg);
	ca_reader_close(r);
	return ad;
}

static ca_ad *
first_ad(const char *path)
{
	ca_ad *ad = pick_ad(path, 0, NULL);

	if (ad == NULL)
		exit(cli_finish());
	return ad;
}

static void
print_line(ca_value v)
{
	strbuf sb = STRBUF_INIT;

	ca_print_value(&sb, v, 0);
	strbuf_addc(&sb, '\n');
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}

static void
show_ad(const ca_ad *ad)
{
	strbuf sb = STRBUF_INIT;

	ca_format_ad(&sb, ad, show_format);
	if (sb.len == 0 || sb.buf[sb.len - 1] != '\n')
		strbuf_addc(&sb, '\n');
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}

enum { IN_OK, IN_INCOMPLETE, IN_ERROR };

/* One piece of input: an assignment or ad to merge into the context, else an
 * expression to evaluate and print. With allow_incomplete, input that ends
 * too soon is not an error but IN_INCOMPLETE. */
static int
process_input(const char *text, const char *where, bool allow_incomplete)
{
	ca_diag aerr, eerr;
	size_t len = strlen(text);

	set_clock();
	if (ca_parse_assignments(my_ad, text, len, pflags, &aerr) == 0) {
		dirty = true;
		return IN_OK;
	}
	ca_arena a = { 0 };
	ca_expr *e = ca_parse_expr(&a, text, len, pflags, &eerr);
	if (e == NULL) {
		const ca_diag *pe = aerr.pos > eerr.pos ? &aerr : &eerr;
		ca_arena_free(&a);
		if (allow_incomplete && pe->eof)
			return IN_INCOMPLETE;
		input_error(where, pe->line, pe->col, pe->msg);
		return IN_ERROR;
	}
	print_line(ca_eval_expr(&cx, e, my_ad, target_ad));
	dirty = false;
	ca_arena_reset(&cx.scratch);
	ca_arena_free(&a);
	return IN_OK;
}

static int
explain(const char *text, const char *where)
{
	ca_diag err;
	ca_arena a = { 0 };
	ca_expr *e = ca_parse_expr(&a, text, strlen(text), pflags, &err);

	if (e == NULL) {
		input_error(where, err.line, err.col, err.msg);
		ca_arena_free(&a);
		return IN_ERROR;
	}
	set_clock();
	strbuf sb = STRBUF_INIT;
	ca_explain(&cx, e, my_ad, target_ad, &sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
	ca_arena_reset(&cx.scratch);
	ca_arena_free(&a);
	dirty = false;
	return IN_OK;
}

static int
expression_mode(struct action *acts, int nacts)
{
	char where[40];

	for (int i = 0; i < nacts; i++) {
		snprintf(where, sizeof where, "<argument %d>", acts[i].argno);
		switch (acts[i].kind) {
		case 'f':
			ca_ad_free(my_ad);
			my_ad = first_ad(acts[i].arg);
			dirty = true;
			break;
		case 't':
			ca_ad_free(target_ad);
			target_ad = first_ad(acts[i].arg);
			break;
		case 'x':
			if (explain(acts[i].arg, where) != IN_OK)
				return cli_finish();
			break;
		default:
			if (process_input(acts[i].arg, where, false) != IN_OK)
				return cli_finish();
		}
	}
	/* Arguments that end with a change of the context show the result. */
	if (dirty && !quiet)
		print_line(ca_make_adval(&cx, my_ad, NULL));
	return cli_finish();
}

/* ---- the REPL ---- */

#ifdef LINE_EDITOR
static char history_path[4096];

/* The word being completed is a command when the line so far is blanks and
 * one ':' (':' breaks words, so text is what follows it). */
static bool completing_command;

/* Candidates for completion: commands, builtin names, attribute names of
 * the context and target ads, case-insensitively by prefix. */
static char *
complete_next(const char *text, int state)
{
	static size_t fi, ai, ti, ci;
	static const char *const commands[] = { ":load", ":target", ":show", ":unset",
	    ":clear", ":now", ":strict", ":format", ":explain", ":match", ":help", ":quit" };
	size_t n, len = strlen(text);
	const ca_builtin *fns = ca_builtin_table(&n);

	if (state == 0)
		fi = ai = ti = ci = 0;
	if (completing_command || text[0] == ':') {
		/* without the ':' when it broke the word off */
		size_t skip = completing_command ? 1 : 0;
		while (ci < sizeof commands / sizeof commands[0])
			if (strncmp(commands[ci++] + skip, text, len) == 0)
				return strdup(commands[ci - 1] + skip);
		return NULL;
	}
	while (fi < n)
		if (strncasecmp(fns[fi++].name, text, len) == 0)
			return strdup(fns[fi - 1].name);
	while (my_ad && ai < my_ad->n)
		if (strncasecmp(ca_attr_spell(&my_ad->attrs[ai++]), text, len) == 0)
			return strdup(ca_attr_spell(&my_ad->attrs[ai - 1]));
	while (target_ad && ti < target_ad->n)
		if (strncasecmp(ca_attr_spell(&target_ad->attrs[ti++]), text, len) == 0)
			return strdup(ca_attr_spell(&target_ad->attrs[ti - 1]));
	return NULL;
}

static char **
complete(const char *text, int start, int end)
{
	(void)end;
	int i = 0;
	while (i < start && (rl_line_buffer[i] == ' ' || rl_line_buffer[i] == '\t'))
		i++;
	completing_command = i + 1 == start && rl_line_buffer[i] == ':';
	rl_attempted_completion_over = 1;
	rl_completion_append_character = completing_command ? ' ' : '\0';
	return rl_completion_matches(text, complete_next);
}

static void
history_open(void)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");

	if (state && *state)
		snprintf(history_path, sizeof history_path, "%s/classad_eval_history", state);
	else if (home && *home)
		snprintf(history_path, sizeof history_path, "%s/.classad_eval_history", home);
#ifdef CA_USE_LIBEDIT
	/* libedit's own handler would pass SIGINT on to the whole process
	 * group, the shell that started us included; ours (catch_sigint) is
	 * the one wanted. Set before the first call sets the editor up. */
	rl_catch_signals = 0;
#endif
	using_history();
	stifle_history(1000);
	if (history_path[0])
		read_history(history_path);
	rl_readline_name = "classad-eval";
	rl_attempted_completion_function = complete;
	rl_basic_word_break_characters = " \t\n\"'()[]{}.,;=<>!&|+-*/%^~?:";
}
#endif

/* Where read_line found a NUL byte (1-based column), 0 if it did not: the
 * line is a C string, so whatever follows would be lost without a word. */
static size_t nul_col;

/* Ctrl-C at a terminal cancels the line being typed (and any unfinished
 * input) instead of ending the session: SIGINT only sets this flag, and the
 * read that it interrupts (no SA_RESTART) says so. */
static volatile sig_atomic_t interrupted;
static char interrupted_line[1];	/* read_line's answer after Ctrl-C */

static void
on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void
catch_sigint(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

#ifdef LINE_EDITOR
/* The line editor in callback mode, so that a signal interrupts our own
 * wait for input, not the editor's. */
static char *cb_line;
static bool cb_done;

static void
got_line(char *l)
{
	cb_line = l;
	cb_done = true;
	rl_callback_handler_remove();
}

static char *
edit_line(const char *prompt)
{
	cb_done = false;
	cb_line = NULL;
	rl_callback_handler_install(prompt, got_line);
	while (!cb_done) {
		fd_set in;
		FD_ZERO(&in);
		FD_SET(0, &in);
		if (select(1, &in, NULL, NULL, NULL) < 0) {
			if (errno != EINTR || !interrupted)
				continue;
			interrupted = 0;
			rl_replace_line("", 0);
#ifdef CA_USE_READLINE
			rl_callback_sigcleanup();
#endif
			rl_callback_handler_remove();
			fputs("^C\n", stdout);
			return interrupted_line;
		}
		rl_callback_read_char();
	}
	return cb_line;
}
#endif

/* A line of input (without its newline), NULL at the end of input, or
 * interrupted_line after Ctrl-C at a terminal. */
static char *
read_line(const char *prompt, bool tty)
{
	nul_col = 0;
#ifdef LINE_EDITOR
	if (tty)
		return edit_line(prompt);
#endif
	static char *buf;
	static size_t cap;
	if (tty) {
		fputs(prompt, stdout);
		fflush(stdout);
	}
	ssize_t n = getline(&buf, &cap, stdin);
	if (n < 0 && tty && interrupted) {
		interrupted = 0;
		clearerr(stdin);
		fputc('\n', stdout);
		return interrupted_line;
	}
	if (n < 0) {
		free(buf);
		buf = NULL;
		cap = 0;
		return NULL;
	}
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	const char *nul = memchr(buf, '\0', (size_t)n);
	if (nul != NULL)
		nul_col = (size_t)(nul - buf) + 1;
	return strdup(buf);
}

static void
remember(const char *text, bool tty)
{
#ifdef LINE_EDITOR
	if (tty && *text)
		add_history(text);
#else
	(void)text;
	(void)tty;
#endif
}

/* Split "WORD REST": returns WORD (NUL-terminated in place), *rest after it. */
static char *
word(char *s, char **rest)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *w = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	while (*s == ' ' || *s == '\t')
		s++;
	*rest = s;
	return w;
}

static void
cmd_load(char *args, bool target)
{
	char *rest, *file = word(args, &rest);
	long index = 0;
	ca_arena a = { 0 };
	ca_expr *where = NULL;

	if (*file == '\0') {
		input_error(target ? ":target" : ":load", 0, 0, "which file?");
		return;
	}
	if (strncmp(rest, "where", 5) == 0 && (rest[5] == ' ' || rest[5] == '\t')) {
		ca_diag err;
		where = ca_parse_expr(&a, rest + 6, strlen(rest + 6), pflags, &err);
		if (where == NULL) {
			input_error("where", err.line, err.col, err.msg);
			ca_arena_free(&a);
			return;
		}
	} else if (*rest) {
		char *end;
		index = strtol(rest, &end, 10);
		if (*end || index < 1) {
			input_error(target ? ":target" : ":load", 0, 0,
			    "pick an ad with a number from 1, or 'where EXPR'");
			return;
		}
	}
	ca_ad *ad = pick_ad(file, index, where);
	ca_arena_free(&a);
	if (ad == NULL)
		return;
	if (target) {
		ca_ad_free(target_ad);
		target_ad = ad;
	} else {
		ca_ad_free(my_ad);
		my_ad = ad;
	}
	printf("%s: %u attributes from %s\n", target ? "target" : "context", ad->n, file);
}

static void
print_number(const char *label, ca_value v)
{
	double r = v.kind == CA_INT ? (double)v.u.i : v.kind == CA_REAL ? v.u.r :
	    v.kind == CA_BOOL ? v.u.b : 0.0;
	strbuf sb = STRBUF_INIT;

	ca_print_real(&sb, r);
	printf("%s%s", label, sb.buf);
	strbuf_release(&sb);
}

/* :match - both Requirements and both Ranks, as the negotiator sees them. */
static void
cmd_match(void)
{
	if (target_ad == NULL) {
		input_error(":match", 0, 0, "no target ad (:target FILE)");
		return;
	}
	set_clock();
	ca_value mt = ca_eval_attr(&cx, my_ad, target_ad, "Requirements");
	int m = ca_value_truth(mt);
	strbuf sb = STRBUF_INIT;
	ca_print_value(&sb, mt, 0);
	printf("MY.Requirements with TARGET:  %s\n", sb.buf);
	ca_value tm = ca_eval_attr(&cx, target_ad, my_ad, "Requirements");
	int t = ca_value_truth(tm);
	strbuf_reset(&sb);
	ca_print_value(&sb, tm, 0);
	printf("TARGET.Requirements with MY:  %s\n", sb.buf);
	strbuf_release(&sb);
	printf("match: %s\n", m == 1 && t == 1 ? "yes" :
	    m == 1 ? "no (TARGET rejects MY)" : t == 1 ? "no (MY rejects TARGET)" : "no (neither accepts the other)");
	print_number("MY.Rank of TARGET: ", ca_eval_attr(&cx, my_ad, target_ad, "Rank"));
	print_number("   TARGET.Rank of MY: ", ca_eval_attr(&cx, target_ad, my_ad, "Rank"));
	fputc('\n', stdout);
	ca_arena_reset(&cx.scratch);
}

/* A ':' command; false for :quit. */
static bool
command(char *line)
{
	char *args, *name = word(line + 1, &args);

	if (strcmp(name, "quit") == 0 || strcmp(name, "q") == 0)
		return false;
	if (strcmp(name, "help") == 0 || strcmp(name, "h") == 0)
		fputs(repl_help, stdout);
	else if (strcmp(name, "load") == 0)
		cmd_load(args, false);
	else if (strcmp(name, "target") == 0)
		cmd_load(args, true);
	else if (strcmp(name, "show") == 0) {
		if (strcmp(args, "target") == 0) {
			if (target_ad)
				show_ad(target_ad);
			else
				input_error(":show", 0, 0, "no target ad (:target FILE loads one)");
		} else if (*args)
			input_error(":show", 0, 0, "':show' or ':show target'");
		else
			show_ad(my_ad);
	} else if (strcmp(name, "unset") == 0) {
		char *rest, *attr = word(args, &rest);
		if (*attr == '\0')
			input_error(":unset", 0, 0, "which attribute? (:show lists them)");
		else if (!ca_ad_delete(my_ad, ca_intern(attr, strlen(attr)))) {
			char msg[160];
			snprintf(msg, sizeof msg, "the context ad has no attribute %.100s "
			    "(it has %u)", attr, my_ad->n);
			input_error(":unset", 0, 0, msg);
		}
	} else if (strcmp(name, "clear") == 0) {
		ca_ad_free(my_ad);
		my_ad = ca_ad_new();
		ca_ad_free(target_ad);
		target_ad = NULL;
	} else if (strcmp(name, "now") == 0) {
		char *end;
		if (strcmp(args, "off") == 0)
			real_clock = true;
		else {
			long long v = strtoll(args, &end, 10);
			if (*args == '\0' || *end)
				input_error(":now", 0, 0, "':now EPOCH' or ':now off'");
			else {
				cx.now = v;
				real_clock = false;
			}
		}
	} else if (strcmp(name, "strict") == 0) {
		if (strcmp(args, "on") == 0 || strcmp(args, "off") == 0) {
			cx.strict = strcmp(args, "on") == 0;
			pflags = cx.strict ? pflags | CA_P_STRICT : pflags & ~CA_P_STRICT;
		} else
			input_error(":strict", 0, 0, "':strict on' or ':strict off'");
	} else if (strcmp(name, "format") == 0) {
		int f = ca_format_parse(args);
		if (f == CA_FMT_LONG || f == CA_FMT_NEW || f == CA_FMT_JSON)
			show_format = (ca_format)f;
		else
			input_error(":format", 0, 0, "':format new', 'long' or 'json'");
	} else if (strcmp(name, "explain") == 0)
		explain(args, "<explain>");
	else if (strcmp(name, "match") == 0)
		cmd_match();
	else
		input_error(line, 0, 0, "unknown command (:help lists them)");
	return true;
}

static int
repl(void)
{
	bool tty = isatty(0) && isatty(1);
	strbuf pending = STRBUF_INIT;
	int lineno = 0, start = 0;
	char where[40];

	in_repl = true;
#ifdef LINE_EDITOR
	if (tty)
		history_open();
#endif
	if (tty)
		printf("classad-eval %s (%s): :help for commands, Ctrl-D to leave\n", CA_VERSION,
#ifdef LINE_EDITOR
		    LINE_EDITOR
#else
		    "plain input"
#endif
		    );
	if (tty) {
		catch_sigint();
		show_format = CA_FMT_LONG;	/* an ad per line is unreadable here */
	}
	for (;;) {
		char *line = read_line(pending.len ? "      ...> " : "classad> ", tty);
		if (line == NULL)
			break;
		if (line == interrupted_line) {
			strbuf_reset(&pending);
			continue;
		}
		lineno++;
		if (nul_col) {
			snprintf(where, sizeof where, "<input %d>", lineno);
			input_error(where, 1, (int)nul_col, "NUL byte in the input");
			strbuf_reset(&pending);
			free(line);
			continue;
		}
		if (pending.len == 0) {
			const char *p = line;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == '\0' || *p == '#') {
				free(line);
				continue;
			}
			start = lineno;
			if (*p == ':') {
				remember(p, tty);
				bool go = command((char *)p);
				free(line);
				fflush(stdout);
				if (!go)
					break;
				continue;
			}
		} else if (line[strspn(line, " \t")] == '\0') {
			fputs("(unfinished input discarded)\n", stderr);
			strbuf_reset(&pending);
			free(line);
			continue;
		}
		if (pending.len)
			strbuf_addc(&pending, '\n');
		strbuf_adds(&pending, line);
		free(line);
		snprintf(where, sizeof where, "<input %d>", start);
		if (process_input(pending.buf, where, true) == IN_INCOMPLETE)
			continue;
		remember(pending.buf, tty);
		strbuf_reset(&pending);
		fflush(stdout);
	}
	if (pending.len) {
		snprintf(where, sizeof where, "<input %d>", start);
		process_input(pending.buf, where, false);
	}
	strbuf_release(&pending);
#ifdef LINE_EDITOR
	if (tty && history_path[0])
		write_history(history_path);
#endif
	if (tty) {
		fputc('\n', stdout);
		cli_status = cli_status >= EX_SYSTEM ? cli_status : EX_OK;
	}
	return cli_finish();
}

/* ---- stream mode ---- */

/* One column of a projection, in command-line order: -p EXPR (columns
 * separated by tabs), -af EXPR (condor_status -autoformat, with its
 * qualifiers), or -format FMT EXPR (printf-style, as condor_status). */
enum { COL_P, COL_AF, COL_FORMAT, COL_JOBID };
/* How an -af column prints its value (condor_status -af:VrTY). */
struct af_value {
	bool quoted, raw, time, date;
};

struct column {
	int kind;
	ca_expr *e;		/* NULL for COL_JOBID */
	const char *text;	/* as written: headings and labels */
	const char *fmt;	/* COL_FORMAT */
	struct af_value how;	/* COL_AF */
	size_t width;		/* with headings: the widest so far */
};

/* The -af qualifiers that shape rows (condor_status -af:jlh,tng): those
 * of every -af together. */
struct af_style {
	bool label, heading, jobid;
	const char *colpre;	/* before every column but the first */
	const char *colsux;	/* after every column */
	const char *rowpre;	/* before every row */
};

struct stream_opts {
	ca_expr *where;
	ca_vec(struct column) cols;
	struct af_style af;
	bool header;		/* --header for -p columns */
	ca_ad *set;
	ca_format out;
	bool gzip;
	ca_vec(const char *) attrs;	/* -attributes: the only ones written */
	bool headed;		/* the heading line is out */
};

/* The text of v as condor_status prints a value: strings raw (quoted
 * with V), the rest as the long format writes it. */
static void
af_value(strbuf *sb, ca_value v, const struct af_value *st)
{
	if (st->time && ca_is_num(v)) {
		int64_t t = v.kind == CA_INT ? v.u.i : (int64_t)v.u.r;
		bool neg = t < 0;
		uint64_t u = neg ? 0 - (uint64_t)t : (uint64_t)t;
		strbuf_addf(sb, "%s%llu+%02u:%02u:%02u", neg ? "-" : "",
		    (unsigned long long)(u / 86400), (unsigned)(u / 3600 % 24),
		    (unsigned)(u / 60 % 60), (unsigned)(u % 60));
	} else if (st->date && ca_is_num(v)) {
		time_t t = (time_t)(v.kind == CA_INT ? v.u.i : (int64_t)v.u.r);
		struct tm tm;
		char buf[32];
		if (localtime_r(&t, &tm) != NULL && strftime(buf, sizeof buf, "%m/%d %H:%M", &tm))
			strbuf_adds(sb, buf);
		else
			ca_print_value(sb, v, CA_PR_OLD);
	} else if (v.kind == CA_STRING && !st->quoted)
		strbuf_add(sb, v.u.s, v.x.len);
	else
		ca_print_value(sb, v, CA_PR_OLD);
}

/* printf-style formatting of v by one -format conversion: %s %d %i %u %x
 * %o %c %f %e %g %v %V %r with flags, width and precision; "\n" and
 * "\t" in fmt are a newline and a tab. */
static void
format_value(strbuf *sb, const char *fmt, ca_value v, const ca_expr *e)
{
	for (const char *p = fmt; *p; p++) {
		if (*p == '\\' && (p[1] == 'n' || p[1] == 't')) {
			strbuf_addc(sb, *++p == 'n' ? '\n' : '\t');
			continue;
		}
		if (*p != '%') {
			strbuf_addc(sb, *p);
			continue;
		}
		if (p[1] == '%') {
			strbuf_addc(sb, '%');
			p++;
			continue;
		}
		const char *start = p++;
		p += strspn(p, "-+ #0123456789.");
		char conv = *p, cspec[32];
		size_t n = (size_t)(p - start);
		if (conv == '\0' || n > 20) {
			strbuf_add(sb, start, strlen(start));
			return;
		}
		memcpy(cspec, start, n);
		int64_t i = 0;
		double r = 0;
		strbuf t = STRBUF_INIT;
		switch (conv) {
		case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c':
			if (v.kind == CA_INT || v.kind == CA_BOOL)
				i = v.kind == CA_INT ? v.u.i : v.u.b;
			else if (v.kind == CA_REAL && v.u.r > -9e18 && v.u.r < 9e18)
				i = (int64_t)v.u.r;
			memcpy(cspec + n, "ll", 2);
			cspec[n + 2] = conv;
			cspec[n + 3] = '\0';
			strbuf_addf(sb, cspec, (long long)i);
			break;
		case 'f': case 'e': case 'E': case 'g': case 'G':
			if (ca_is_num(v) || v.kind == CA_BOOL)
				r = v.kind == CA_REAL ? v.u.r : v.kind == CA_INT ? (double)v.u.i : v.u.b;
			cspec[n] = conv;
			cspec[n + 1] = '\0';
			/* the C library's text, with '.' whatever the locale */
			strbuf_addf(&t, cspec, r);
			for (size_t k = 0; k < t.len; k++)
				if (t.buf[k] == ',')
					t.buf[k] = '.';
			strbuf_add(sb, t.buf, t.len);
			break;
		default:	/* s, v, V, r */
			if (conv == 'r' && e != NULL)
				ca_print_expr(&t, e, CA_PR_OLD);
			else if (v.kind == CA_STRING && conv != 'V')
				strbuf_add(&t, v.u.s, v.x.len);
			else
				ca_print_value(&t, v, CA_PR_OLD);
			cspec[n] = 's';
			cspec[n + 1] = '\0';
			strbuf_addf(sb, cspec, t.buf);
			break;
		}
		strbuf_release(&t);
	}
}

/* Pad sb from `from` to width w (left-aligned), raising w to the text. */
static void
pad(strbuf *sb, size_t from, size_t *w, bool last)
{
	size_t len = sb->len - from;

	if (len > *w)
		*w = len;
	if (!last)
		while (sb->len - from < *w)
			strbuf_addc(sb, ' ');
}

static void
print_heading(struct stream_opts *o, strbuf *sb)
{
	const struct af_style *st = &o->af;

	strbuf_reset(sb);
	for (size_t i = 0; i < o->cols.n; i++) {
		struct column *c = &o->cols.at[i];
		if (c->kind == COL_FORMAT)
			continue;
		if (i)
			strbuf_adds(sb, c->kind == COL_P ? "\t" : st->colpre ? st->colpre : "");
		size_t from = sb->len;
		strbuf_adds(sb, c->kind == COL_JOBID ? " ID" : c->text);
		c->width = sb->len - from;
		if (c->kind != COL_P)
			pad(sb, from, &c->width, i + 1 == o->cols.n);
		if (c->kind != COL_P && st->colsux)
			strbuf_adds(sb, st->colsux);
	}
	strbuf_addc(sb, '\n');
	fwrite(sb->buf, 1, sb->len, stdout);
}

static void
print_projection(struct stream_opts *o, ca_ad *ad, strbuf *sb)
{
	const struct af_style *st = &o->af;

	if ((o->af.heading || o->header) && !o->headed) {
		print_heading(o, sb);
		o->headed = true;
	}
	strbuf_reset(sb);
	if (st->rowpre)
		strbuf_adds(sb, st->rowpre);
	for (size_t i = 0; i < o->cols.n; i++) {
		struct column *c = &o->cols.at[i];
		ca_value v = ca_undef();
		if (c->e != NULL)
			v = ca_eval_expr(&cx, c->e, ad, target_ad);
		switch (c->kind) {
		case COL_P:
			if (i)
				strbuf_addc(sb, '\t');
			if (v.kind == CA_STRING)
				strbuf_add(sb, v.u.s, v.x.len);
			else
				ca_print_value(sb, v, 0);
			break;
		case COL_FORMAT:
			format_value(sb, c->fmt, v, c->e);
			break;
		default: {	/* -af */
			if (i && st->colpre && o->cols.at[i - 1].kind != COL_FORMAT)
				strbuf_adds(sb, st->colpre);
			if (st->label)
				strbuf_addf(sb, "%s = ", c->kind == COL_JOBID ? "ID" : c->text);
			size_t from = sb->len;
			if (c->kind == COL_JOBID) {
				char id[CA_JOBID_LEN];
				ca_jobid(&cx, ad, id, sizeof id);
				strbuf_adds(sb, id);
			} else if (c->how.raw) {
				ca_attr *at = c->e->node == CA_N_ATTR && c->e->op == CA_SC_NONE ?
				    ca_ad_find(ad, c->e->u.attr.name) : NULL;
				if (at != NULL)
					ca_print_expr(sb, ca_attr_expr(ad, at), CA_PR_OLD);
				else
					af_value(sb, v, &c->how);
			} else
				af_value(sb, v, &c->how);
			if (st->heading)
				pad(sb, from, &c->width, i + 1 == o->cols.n);
			if (st->colsux)
				strbuf_adds(sb, st->colsux);
			break;
		}
		}
	}
	if (o->cols.n == 0 || o->cols.at[o->cols.n - 1].kind != COL_FORMAT)
		strbuf_addc(sb, '\n');
	fwrite(sb->buf, 1, sb->len, stdout);
}

/* ca_writer_put failed for the ad just read from r: an ad the output format
 * cannot hold is bad input (the stream goes on), anything else an I/O error. */
static void
put_failed(const ca_writer *w, const ca_reader *r, const char *path)
{
	if (errno == EILSEQ) {
		cli_errat(cli_display(path), ca_reader_ad_line(r), 0,
		    "%s", ca_writer_refusal(w));
		cli_raise(EX_INPUT);
	} else {
		cli_err("writing output failed");
		cli_raise(EX_SYSTEM);
	}
}

/* -attributes: the listed attributes of ad, in its order. */
static ca_ad *
keep_only(ca_ad *ad, const struct stream_opts *o)
{
	ca_ad *kept = ca_ad_new();

	for (uint32_t i = 0; i < ad->n; i++) {
		const ca_attr *at = &ad->attrs[i];
		for (size_t k = 0; k < o->attrs.n; k++)
			if (strcasecmp(o->attrs.at[k], ca_attr_name(at)->key) == 0) {
				ca_ad_copy_attr(kept, ad, at);
				break;
			}
	}
	ca_ad_free(ad);
	return kept;
}

/* The ads of r (read from path): filtered, changed, written to w or
 * printed as columns; how many were read. */
static size_t
filter(struct stream_opts *o, ca_reader *r, const char *path, ca_writer *w, strbuf *sb)
{
	size_t n = 0;
	ca_ad *ad;

	while (cli_next_ad(r, &ad, NULL)) {
		bool keep = true;
		n++;
		if (o->where)
			keep = ca_value_truth(ca_eval_expr(&cx, o->where, ad, target_ad)) == 1;
		if (keep) {
			if (o->set)
				ca_ad_merge(ad, o->set);
			if (o->attrs.n)
				ad = keep_only(ad, o);
			if (w == NULL)
				print_projection(o, ad, sb);
			else if (ca_writer_put(w, ad) < 0)
				put_failed(w, r, path);
		}
		ca_ad_free(ad);
		ca_arena_reset(&cx.scratch);
		if (cli_status >= EX_SYSTEM)
			break;
	}
	return n;
}

static void
stream_file(struct stream_opts *o, const char *path, ca_writer *w, strbuf *sb)
{
	ca_reader *r = cli_open(path, cli_common.in);

	if (r == NULL)
		return;
	(void)filter(o, r, path, w, sb);
	ca_reader_close(r);
}

/* ---- one file filtered on several cores (par.h) ---- */

static int parallel;		/* --parallel: 0 by the file's size */
static ca_writer *out_writer;	/* the output, in the parent */

/* A part in a worker goes to its memory file; in the parent, to the
 * output. Nothing the parts share: each ad is filtered alone. */
static size_t
part_run(void *arg, ca_reader *r, const char *path, strbuf *out, strbuf *st)
{
	ca_writer *w = out != NULL ? ca_writer_open_buf(out, CA_FMT_LONG) : out_writer;
	size_t n = filter(arg, r, path, w, NULL);

	(void)st;
	if (out != NULL)
		ca_writer_close(w);
	return n;
}

static void
part_write(void *arg, const char *text, size_t n)
{
	(void)arg;
	if (ca_writer_put_text(out_writer, text, n) < 0 && cli_status < EX_SYSTEM) {
		cli_err("writing output failed");
		cli_raise(EX_SYSTEM);
	}
}

/* The one file of the stream (of nfiles) filtered on several cores when
 * it is large enough and the output is the long format: true when done.
 * When --parallel asked for it and it cannot be, a warning says why. */
static bool
filter_parallel(struct stream_opts *o, int nfiles, const char *path, ca_writer *w)
{
	static const par_ops ops = { NULL, part_run, NULL, part_write };
	const char *why = NULL;
	int rc = 0;

	if (nfiles > 1)
		why = "they are in more than one file";
	else if (w == NULL)
		why = "the output is columns (-p, -af, -format)";
	else if (o->out != CA_FMT_LONG && o->out != CA_FMT_AUTO)
		why = "the output is not the long format";
	else {
		out_writer = w;
		rc = par_run(path, parallel, &ops, o, &why);
		out_writer = NULL;
	}
	if (rc == 0 && parallel > 1)
		cli_err("warning: --parallel %d: the ads are filtered in one process: %s", parallel,
		    why);
	return rc != 0;
}

static int
stream_mode(struct stream_opts *o, struct action *acts, int nacts)
{
	strbuf sb = STRBUF_INIT;
	ca_writer *w = NULL;
	const char *one = "-";
	int nfiles = 0;

	if (o->cols.n == 0 && (w = ca_writer_open(stdout, o->out, o->gzip)) == NULL)
		cli_die(EX_SYSTEM, "cannot start the output");
	for (int i = 0; i < nacts; i++)
		if (acts[i].kind == 0) {
			one = acts[i].arg;
			nfiles++;
		}
	if (!filter_parallel(o, nfiles, one, w)) {
		for (int i = 0; i < nacts; i++)
			if (acts[i].kind == 0)
				stream_file(o, acts[i].arg, w, &sb);
		if (nfiles == 0)
			stream_file(o, "-", w, &sb);
	}
	if (w && ca_writer_close(w) < 0) {
		cli_err("writing output failed");
		cli_raise(EX_SYSTEM);
	}
	strbuf_release(&sb);
	return cli_finish();
}

/* A column as the command line gives it. */
struct colarg {
	int kind;		/* COL_* */
	const char *text, *fmt;	/* fmt: -format's, or -af's qualifiers */
};

/* What the command line asks for, gathered by option(). */
static struct {
	ca_vec(struct action) acts;	/* -f, -t, -x and positional arguments, in order */
	ca_vec(struct colarg) cols;
	ca_vec(const char *) set;
	ca_vec(const char *) attrs;
	const char *where;
	const char *quals;	/* the qualifiers of the -af at hand */
	ca_vec(const char *) allquals;	/* of every -af */
	bool af;		/* positional arguments are -af columns */
	const char *format;	/* -format FMT waiting for its EXPR */
	bool stream, interactive, header;
	ca_arena arena;		/* the -attributes names */
} cmd;

/* -attributes A,B,C (several times too) */
static void
add_attrs(const char *list)
{
	char *copy = ca_xstrndup(list, strlen(list)), *save = NULL;

	for (char *t = strtok_r(copy, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save))
		*ca_vec_push(&cmd.attrs) = ca_arena_strndup(&cmd.arena, t, strlen(t));
	free(copy);
}

static void
option(void *arg, int key, char *val)
{
	if (cmd.format != NULL && key != CLI_POS)
		cli_usage_error("-format %s needs an expression after it", cmd.format);
	if (key != CLI_POS)
		cmd.af = false;		/* -af's list ends at the next option */
	if (key == CLI_POS && cmd.format != NULL) {
		*ca_vec_push(&cmd.cols) = (struct colarg){ COL_FORMAT, val, cmd.format };
		cmd.format = NULL;
		return;
	}
	if (key == CLI_POS && cmd.af) {
		*ca_vec_push(&cmd.cols) = (struct colarg){ COL_AF, val, cmd.quals };
		return;
	}
	switch (key) {
	case CLI_POS:
	case 'f':
	case 't':
	case 'x':
		*ca_vec_push(&cmd.acts) = (struct action){ key == CLI_POS ? 0 : key, val, optind - 1 };
		break;
	case 'q':
		quiet = cli_common.quiet = true;
		break;
	case 'w':
		if (cmd.where)
			cli_usage_error("-w given twice (combine the expressions with &&)");
		cmd.where = val;
		cmd.stream = true;
		break;
	case 'p':
		*ca_vec_push(&cmd.cols) = (struct colarg){ COL_P, val, NULL };
		cmd.stream = true;
		break;
	case OPT_HEADER:
		cmd.header = true;
		cmd.stream = true;
		break;
	case OPT_AF:
		cmd.quals = val;
		*ca_vec_push(&cmd.allquals) = val;
		cmd.af = cmd.stream = true;
		break;
	case OPT_FORMAT:
		cmd.format = val;
		cmd.stream = true;
		break;
	case OPT_ADS:
		*ca_vec_push(&cmd.acts) = (struct action){ 0, val, optind - 1 };
		cmd.stream = true;
		break;
	case OPT_PARALLEL:
		parallel = (int)cli_int("--parallel", val, 1, 64);
		cmd.stream = true;
		break;
	case OPT_ATTRS:
		add_attrs(val);
		cmd.stream = true;
		break;
	case OPT_LONG:
	case OPT_JSON:
	case OPT_XML:
		cli_common.out = key == OPT_LONG ? CA_FMT_LONG : key == OPT_JSON ? CA_FMT_JSON :
		    CA_FMT_XML;
		cli_common.out_set = true;
		cmd.stream = true;
		break;
	case 's':
		*ca_vec_push(&cmd.set) = val;
		cmd.stream = true;
		break;
	case CLI_K_OUT:
	case CLI_K_GZIP:
	case CLI_K_IN:
		cmd.stream = true;
		break;
	case 'i':
		cmd.interactive = true;
		break;
	case CLI_K_NOW:
		cx.now = cli_common.now;
		real_clock = false;
		break;
	case OPT_STRICT:
		cx.strict = true;
		pflags |= CA_P_STRICT;
		break;
	default:
		break;
	}
}

/* The -af qualifiers as condor_status reads them: those that shape rows
 * into st (from every -af), those of a column's value into how. */
static void
af_quals(struct af_style *st, struct af_value *how, const char *q)
{
	for (; q && *q; q++)
		switch (*q) {
		case ',': st->colsux = ","; break;
		case 'n': st->colsux = "\n"; break;
		case 'g': st->colpre = NULL; st->rowpre = "\n"; break;
		case 't': st->colpre = "\t"; break;
		case 'l': st->label = true; break;
		case 'h': st->heading = true; break;
		case 'j': st->jobid = true; break;
		case 'V': how->quoted = true; break;
		case 'r': case 'o': how->raw = true; break;
		case 'T': how->time = true; break;
		case 'Y': how->date = true; break;
		case ':': case '=': break;
		default:
			cli_usage_error("-af: unknown qualifier '%c' (jlhVrTY,tng)", *q);
		}
	if (st->label && st->heading)
		cli_usage_error("-af: the qualifiers l and h do not go together");
}

/* The columns of a projection, compiled. */
static void
make_columns(struct stream_opts *o, ca_arena *a)
{
	struct af_value ignore;

	o->af.colpre = " ";
	for (size_t i = 0; i < cmd.allquals.n; i++)
		af_quals(&o->af, &ignore, cmd.allquals.at[i]);
	if (o->af.jobid)
		*ca_vec_push(&o->cols) = (struct column){ COL_JOBID, NULL, "ID", NULL, { 0 }, 0 };
	for (size_t i = 0; i < cmd.cols.n; i++) {
		const struct colarg *c = &cmd.cols.at[i];
		const char *opt = c->kind == COL_P ? "-p" : c->kind == COL_AF ? "-af" : "-format";
		struct column *col = ca_vec_push(&o->cols);
		*col = (struct column){ c->kind, cli_expr(a, opt, c->text, pflags), c->text,
		    c->kind == COL_FORMAT ? c->fmt : NULL, { 0 }, 0 };
		if (c->kind == COL_AF) {
			struct af_style st = o->af;
			af_quals(&st, &col->how, c->fmt);
		}
	}
	o->header = cmd.header;
}

int
main(int argc, char **argv)
{
	struct stream_opts o = { .out = CA_FMT_LONG };

	cli_init(argc, argv, "classad-eval");
	ca_ctx_init(&cx);
	cli_parse(&spec, argc, argv, option, NULL);
	if (cmd.format != NULL)
		cli_usage_error("-format %s needs an expression after it", cmd.format);
	for (size_t i = 0, n = 0; i < cmd.allquals.n; i++, n = 0) {
		for (size_t k = 0; k < cmd.cols.n; k++)
			n += cmd.cols.at[k].kind == COL_AF;
		if (n == 0)
			cli_usage_error("-af needs the attributes or expressions to print after it");
	}
	o.out = cli_common.out;
	o.gzip = cli_common.gzip;
	o.attrs.at = cmd.attrs.at;
	o.attrs.n = cmd.attrs.n;

	struct action *acts = cmd.acts.at;
	int nacts = (int)cmd.acts.n, stream = cmd.stream, interactive = cmd.interactive;
	int rc, npos = 0;
	for (int i = 0; i < nacts; i++)
		npos += acts[i].kind == 0 || acts[i].kind == 'x';
	if (stream && interactive)
		cli_usage_error("-i does not go with the stream options (-w -p -s -o -z -I)");
	my_ad = ca_ad_new();
	if (stream) {
		ca_arena a = { 0 };
		for (int i = 0; i < nacts; i++) {
			if (acts[i].kind == 'f' || acts[i].kind == 'x')
				cli_usage_error("%s is for expression mode; name the files to read instead",
				    acts[i].kind == 'f' ? "-f" : "--explain");
			if (acts[i].kind == 't') {
				ca_ad_free(target_ad);
				target_ad = first_ad(acts[i].arg);
			}
		}
		if (cmd.where)
			o.where = cli_expr(&a, "-w", cmd.where, pflags);
		make_columns(&o, &a);
		if (cmd.set.n) {
			o.set = ca_ad_new();
			for (size_t i = 0; i < cmd.set.n; i++) {
				ca_diag err;
				const char *t = cmd.set.at[i];
				if (ca_parse_assignments(o.set, t, strlen(t), pflags, &err) < 0) {
					cli_errat("<-s>", err.line, err.col, "%s", err.msg);
					exit(EX_INPUT);
				}
			}
		}
		rc = stream_mode(&o, acts, nacts);
		ca_ad_free(o.set);
		ca_vec_free(&o.cols);
		ca_arena_free(&a);
	} else if (interactive || npos == 0) {
		if (npos)
			cli_usage_error("-i takes no expressions; type them at the prompt");
		for (int i = 0; i < nacts; i++) {
			ca_ad **slot = acts[i].kind == 'f' ? &my_ad : &target_ad;
			ca_ad_free(*slot);
			*slot = first_ad(acts[i].arg);
		}
		rc = repl();
	} else
		rc = expression_mode(acts, nacts);

	ca_ad_free(my_ad);
	ca_ad_free(target_ad);
	ca_ctx_free(&cx);
	ca_intern_cleanup();
	ca_vec_free(&cmd.acts);
	ca_vec_free(&cmd.cols);
	ca_vec_free(&cmd.set);
	ca_vec_free(&cmd.attrs);
	ca_vec_free(&cmd.allquals);
	ca_arena_free(&cmd.arena);
	return rc;
}
