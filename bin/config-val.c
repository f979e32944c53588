/* config-val - condor_config_val for classad-tools: the values of
 * configuration knobs as the programs read them, where each was defined.
 *
 * Spec: HTCondor's condor_config_val(1) for files (the daemon-query
 * options, -set and -rset have no meaning here) and the configuration
 * language of its manual, condor-config(5).
 * Deviations (each in the man page): -config FILE reads FILE (HTCondor's
 * -config lists the files, which -dump and -verbose show here); without -c
 * the file is $CONDOR_CONFIG or /etc/condor/condor_config as in HTCondor;
 * the subsystem is TOOL unless -subsystem says otherwise; -verbose and
 * --unsimulated name on standard error the knobs and templates that would
 * change a decision no program simulates.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "cli.h"
#include "classad.h"
#include "condor.h"

enum {
	O_DUMP = CLI_LONG, O_VERBOSE, O_EXPAND, O_RAW, O_DEFAULT, O_SUBSYS, O_LOCAL, O_SEED,
	O_ROOT, O_MACRO, O_UNSIM, O_TIMEOUT
};

static const cli_opt options[] = {
	{ CLI_K_CONFIG, 'c', "config", CLI_ARG, "FILE",
	    "the configuration to read (repeatable: read in order,\n"
	    "later wins; default $CONDOR_CONFIG or /etc/condor/condor_config)" },
	{ O_ROOT, 0, "root-config", CLI_ARG, "FILE", NULL },
	{ O_DUMP, 0, "dump", CLI_NOARG, NULL,
	    "every knob (or those matching the PATTERNs), sorted" },
	{ O_RAW, 0, "raw", CLI_NOARG, NULL, "values as written, macros not expanded" },
	{ O_EXPAND, 0, "expand", CLI_NOARG, NULL, "values expanded (the default but for -dump)" },
	{ O_DEFAULT, 0, "default", CLI_NOARG, NULL, "HTCondor's built-in default" },
	{ O_VERBOSE, 0, "verbose", CLI_NOARG, NULL,
	    "where each value was defined, raw and default too;\n"
	    "knobs not simulated on standard error" },
	{ O_SUBSYS, 0, "subsystem", CLI_ARG, "NAME",
	    "the daemon whose view to show: SUBSYS.X first\n(default TOOL)" },
	{ O_LOCAL, 0, "local-name", CLI_ARG, "NAME", "the local name: NAME.X first" },
	{ O_MACRO, 0, "macro", CLI_NOARG, NULL, "expand the arguments as text, not names" },
	{ O_UNSIM, 0, "unsimulated", CLI_NOARG, NULL,
	    "name the knobs and templates no program simulates\n"
	    "(for -subsystem's daemon, else all) on standard error" },
	{ O_SEED, 0, "seed", CLI_ARG, "N", "the seed of $RANDOM_CHOICE and $RANDOM_INTEGER" },
	{ O_TIMEOUT, 0, "command-timeout", CLI_ARG, "SECONDS",
	    "how long include command may run (default 10; 0 refuses)" },
	{ CLI_K_NOW, 0, "now", CLI_ARG, "EPOCH", "time() in conditions and $EVAL (default: the clock)" },
	CLI_OPT_HELP,
	CLI_END
};

static const cli_spec spec = {
	"usage: config-val [-c FILE]... [-subsystem NAME] [-local-name NAME] [--seed N]\n"
	"                  [-raw | -expand | -default] [-verbose] NAME...\n"
	"       config-val [-c FILE]... [-raw | -expand] [-verbose] -dump [PATTERN...]\n"
	"       config-val [-c FILE]... -macro TEXT...\n"
	"       config-val [-c FILE]... use CATEGORY[:NAME]\n"
	"       config-val [-c FILE]... --unsimulated\n",
	"Read HTCondor configuration as the programs do (its whole language, its\n"
	"templates and built-in defaults) and print knobs' values, as condor_config_val\n"
	"does. Long options may be given with one dash (-dump, -verbose, -config FILE).\n",
	options,
	"Exit status: 0 ok, 1 a NAME is not defined, 2 usage, 3 malformed\n"
	"configuration, 4 system error.\n",
	false,
	true		/* -dump, -verbose, -config: condor_config_val's one dash */
};

static struct {
	bool dump, verbose, expand, raw, dflt, macro, unsim;
	const char *subsys, *local;
	uint64_t seed;
	bool seed_set;
	int timeout;
} opt = { .subsys = "TOOL", .timeout = -1 };

static void
option(void *arg, int key, char *val)
{
	(void)arg;
	switch (key) {
	case O_DUMP: opt.dump = true; break;
	case O_VERBOSE: opt.verbose = true; break;
	case O_EXPAND: opt.expand = true; opt.raw = opt.dflt = false; break;
	case O_RAW: opt.raw = true; opt.expand = opt.dflt = false; break;
	case O_DEFAULT: opt.dflt = true; opt.expand = opt.raw = false; break;
	case O_SUBSYS: opt.subsys = val; break;
	case O_LOCAL: opt.local = val; break;
	case O_MACRO: opt.macro = true; break;
	case O_UNSIM: opt.unsim = true; break;
	case O_ROOT: *ca_vec_push(&cli_common.configs) = val; break;
	case O_SEED:
		opt.seed = (uint64_t)cli_int("--seed", val, 0, INT64_MAX);
		opt.seed_set = true;
		break;
	case O_TIMEOUT: opt.timeout = (int)cli_int("--command-timeout", val, 0, 3600); break;
	default: break;
	}
}

/* Without -c: $CONDOR_CONFIG ("ONLY_ENV": no file), else the first of
 * HTCondor's places that exists. */
static const char *
default_config(void)
{
	static const char *const places[] = {
		"/etc/condor/condor_config", "/usr/local/etc/condor_config"
	};
	const char *env = getenv("CONDOR_CONFIG");

	if (env != NULL && *env)
		return strcmp(env, "ONLY_ENV") == 0 ? NULL : env;
	for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
		if (access(places[i], F_OK) == 0)
			return places[i];
	return NULL;
}

static int
load(ca_config *cfg)
{
	if (cli_common.configs.n == 0) {
		const char *f = default_config();
		if (f != NULL)
			*ca_vec_push(&cli_common.configs) = f;
	}
	return cli_load_configs(cfg);
}

/* "NAME = value", or NAME @=end ... @end for a value of several lines. */
static void
print_knob(const char *name, const char *value)
{
	if (strchr(value, '\n') != NULL)
		printf("%s @=end\n%s\n@end\n", name, value);
	else
		printf("%s = %s\n", name, value);
}

/* The " # at:" place of a value. */
static void
print_at(const ca_config_info *in)
{
	if (in->origin == CA_CONFIG_FROM_DEFAULT)
		printf(" # at: <built-in default>\n");
	else if (in->origin == CA_CONFIG_FROM_DETECTED)
		printf(" # at: <detected>\n");
	else if (in->tmpl != NULL)
		printf(" # at: %s, line %d, use %s+%d\n", in->file, in->line, in->tmpl,
		    in->tmpl_line);
	else
		printf(" # at: %s, line %d\n", in->file, in->line);
}

/* " # what: value", the lines after the first indented. */
static void
print_note(const char *what, const char *value)
{
	printf(" # %s: ", what);
	for (const char *p = value; *p; p++) {
		putchar(*p);
		if (*p == '\n')
			fputs(" #   ", stdout);
	}
	putchar('\n');
}

/* The expansion of name's value into sb (1), or 0 after reporting. */
static int
expanded(ca_config *cfg, const char *name, bool exact, const char *raw, strbuf *sb)
{
	ca_diag err;
	int rc = exact ? ca_config_expand(cfg, raw, strlen(raw), sb, &err) :
	    ca_config_string(cfg, name, sb, &err);

	if (rc < 0) {
		cli_diag(&err);
		return 0;
	}
	return 1;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcasecmp(*(const char *const *)a, *(const char *const *)b);
}

/* -dump [PATTERN...]: every knob whose name a pattern matches (case does not
 * matter), sorted, raw unless -expand. */
static void
dump(ca_config *cfg, char **pats, int npats)
{
	ca_vec(const char *) names = CA_VEC_INIT;
	ca_vec(pcre2_code *) res = CA_VEC_INIT;
	strbuf sb = STRBUF_INIT;

	for (int i = 0; i < npats; i++) {
		int ec;
		PCRE2_SIZE eo;
		pcre2_code *re = pcre2_compile((PCRE2_SPTR)pats[i], PCRE2_ZERO_TERMINATED,
		    PCRE2_CASELESS, &ec, &eo, NULL);
		if (re == NULL)
			cli_usage_error("-dump: '%s' is not a regular expression", pats[i]);
		*ca_vec_push(&res) = re;
	}
	for (size_t i = 0; i < ca_config_count(cfg); i++)
		*ca_vec_push(&names) = ca_config_name_at(cfg, i);
	for (size_t i = 0; i < ca_config_builtin_count(); i++)
		*ca_vec_push(&names) = ca_config_builtin_name_at(i);
	qsort(names.at, names.n, sizeof *names.at, cmp_names);

	if (expanded(cfg, "FULL_HOSTNAME", false, NULL, &sb) && sb.len > 0)
		printf("# Configuration from machine: %s\n", sb.buf);
	else
		printf("# Configuration from machine: <unknown hostname>\n");
	pcre2_match_data *md = res.n ? pcre2_match_data_create(1, NULL) : NULL;
	for (size_t k = 0; k < (res.n ? res.n : 1); k++) {
		if (res.n)
			printf("\n# Parameters with names that match %s:\n", pats[k]);
		for (size_t i = 0; i < names.n; i++) {
			ca_config_info in;
			if (i > 0 && strcasecmp(names.at[i], names.at[i - 1]) == 0)
				continue;
			if (res.n && pcre2_match(res.at[k], (PCRE2_SPTR)names.at[i],
			    strlen(names.at[i]), 0, 0, md, NULL) < 0)
				continue;
			if (!ca_config_info_of(cfg, names.at[i], true, &in))
				continue;
			const char *v = in.raw;
			if (opt.dflt)
				v = in.dflt ? in.dflt : "";
			else if (opt.expand) {
				if (!expanded(cfg, in.name, true, in.raw, &sb))
					continue;
				v = sb.buf;
			}
			print_knob(in.name, v);
			if (opt.verbose) {
				print_at(&in);
				if (opt.expand)
					print_note("raw", in.raw);
				else if (expanded(cfg, in.name, true, in.raw, &sb))
					print_note("expanded", sb.buf);
				if (in.dflt != NULL)
					print_note("default", in.dflt);
			}
		}
	}
	if (!opt.verbose) {
		printf("# Contributing configuration file(s):\n");
		for (size_t i = 0; i < ca_config_source_count(cfg); i++)
			printf("#\t%s\n", ca_config_source_at(cfg, i));
	}
	pcre2_match_data_free(md);
	for (size_t i = 0; i < res.n; i++)
		pcre2_code_free(res.at[i]);
	ca_vec_free(&res);
	ca_vec_free(&names);
	strbuf_release(&sb);
}

/* NAME...: each value, "Not defined: NAME" for the others (exit 1). */
static void
values(ca_config *cfg, char **names, int n)
{
	strbuf sb = STRBUF_INIT;

	for (int i = 0; i < n; i++) {
		ca_config_info in;
		bool found = ca_config_info_of(cfg, names[i], false, &in);
		const char *v = NULL, *shown = found ? in.name : names[i];

		if (opt.dflt)
			v = in.dflt;
		else if (found && opt.raw)
			v = in.raw;
		else if (found) {
			if (!expanded(cfg, names[i], false, NULL, &sb))
				continue;
			v = sb.buf;
		}
		if (v == NULL) {
			strbuf up = STRBUF_INIT;
			for (const char *p = names[i]; *p; p++)
				strbuf_addc(&up, (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p));
			fprintf(stderr, "Not defined: %s\n", up.buf);
			strbuf_release(&up);
			cli_raise(EX_NO);
			continue;
		}
		if (!opt.verbose) {
			printf("%s\n", v);
			continue;
		}
		print_knob(shown, v);
		if (found) {
			print_at(&in);
			if (!opt.raw) {
				strbuf raw = STRBUF_INIT;
				strbuf_addf(&raw, "%s = %s", in.name, in.raw);
				print_note("raw", raw.buf);
				strbuf_release(&raw);
			}
		}
		if (in.dflt != NULL && !opt.dflt)
			print_note("default", in.dflt);
		putchar('\n');
	}
	strbuf_release(&sb);
}

/* -macro TEXT...: the expansion of each text. */
static void
macros(ca_config *cfg, char **texts, int n)
{
	strbuf sb = STRBUF_INIT;
	ca_diag err;

	for (int i = 0; i < n; i++) {
		if (ca_config_expand(cfg, texts[i], strlen(texts[i]), &sb, &err) < 0) {
			cli_diag(&err);
			continue;
		}
		if (opt.verbose)
			printf("%s expands to: %s\n", texts[i], sb.buf);
		else
			printf("%s\n", sb.buf);
	}
	strbuf_release(&sb);
}

/* use CATEGORY[:NAME]: the templates of a category, or one template. */
static void
use(ca_config *cfg, const char *what, bool expand)
{
	const char *colon = strchr(what, ':');
	size_t clen = colon ? (size_t)(colon - what) : strlen(what);
	ca_config_template t;

	if (colon == NULL || colon[1] == '\0') {
		bool any = false;
		for (size_t i = 0; i < ca_config_template_count(cfg); i++) {
			ca_config_template_at(cfg, i, &t);
			if (strlen(t.category) != clen || strncasecmp(t.category, what, clen) != 0)
				continue;
			if (!any)
				printf("use %s accepts\n", t.category);
			any = true;
			printf("  %s%s%s%s\n", t.name, t.about ? "  " : "", t.about ? t.about : "",
			    t.simulated ? "" : " (not simulated)");
		}
		if (!any) {
			fprintf(stderr, "Not defined: use %.*s\n", (int)clen, what);
			cli_raise(EX_NO);
		}
		return;
	}
	char *cat = strndup(what, clen);
	if (cat == NULL)
		cli_die(EX_SYSTEM, "out of memory");
	bool found = ca_config_template_find(cfg, cat, colon + 1, &t);
	free(cat);
	if (!found) {
		fprintf(stderr, "Not defined: use %s\n", what);
		cli_raise(EX_NO);
		return;
	}
	printf("use %s:%s is\n", t.category, t.name);
	for (const char *p = t.text; *p;) {
		size_t l = strcspn(p, "\n");
		strbuf sb = STRBUF_INIT;
		ca_diag err;
		if (expand && ca_config_expand(cfg, p, l, &sb, &err) == 0)
			printf("    %s\n", sb.buf);
		else
			printf("    %.*s\n", (int)l, p);
		strbuf_release(&sb);
		p += l + (p[l] == '\n');
	}
}

/* The knobs (for -subsystem's daemon when it is one the programs simulate)
 * and templates no program simulates, as warnings. */
static void
unsimulated(ca_config *cfg)
{
	static const char *const daemons[] = { "NEGOTIATOR", "STARTD", "SCHEDD" };
	const char *sub = NULL;

	for (size_t i = 0; i < sizeof daemons / sizeof daemons[0]; i++)
		if (strcasecmp(opt.subsys, daemons[i]) == 0)
			sub = daemons[i];
	cli_unsimulated(cfg, sub);
	/* a use line once (not the templates it uses in turn) */
	const char *file = NULL;
	int line = 0;
	for (size_t i = 0; i < ca_config_use_count(cfg); i++) {
		ca_config_use u;
		ca_config_use_at(cfg, i, &u);
		if (u.file == file && u.line == line)
			continue;
		file = u.file;
		line = u.line;
		if (!u.simulated)
			cli_err("warning: %s:%d: use %s:%s is not simulated", u.file, u.line,
			    u.category, u.name);
	}
}

int
main(int argc, char **argv)
{
	cli_init(argc, argv, "config-val");
	int first = cli_parse(&spec, argc, argv, option, NULL);
	char **args = argv + first;
	int nargs = argc - first;
	bool is_use = nargs > 0 && strcasecmp(args[0], "use") == 0 && !opt.macro;

	if (is_use && nargs != 2)
		cli_usage_error("use needs one CATEGORY or CATEGORY:NAME");
	if (nargs == 0 && !opt.dump && !opt.unsim)
		cli_usage_error("no NAME to look up (or -dump, or --unsimulated)");
	if (opt.macro && opt.dump)
		cli_usage_error("-macro and -dump do not go together");

	ca_config *cfg = ca_config_new();
	ca_config_set_subsys(cfg, opt.subsys);
	if (opt.local != NULL)
		ca_config_set_localname(cfg, opt.local);
	if (opt.seed_set)
		ca_config_set_seed(cfg, opt.seed);
	if (cli_common.now_set)
		ca_config_set_now(cfg, cli_common.now);
	if (opt.timeout >= 0)
		ca_config_set_command_timeout(cfg, opt.timeout);

	if (load(cfg) == 0) {
		const char *w = ca_config_warnings(cfg);
		while (*w) {
			size_t l = strcspn(w, "\n");
			cli_err("%.*s", (int)l, w);
			w += l + (w[l] == '\n');
		}
		if (is_use)
			use(cfg, args[1], opt.expand);
		else if (opt.macro)
			macros(cfg, args, nargs);
		else if (opt.dump)
			dump(cfg, args, nargs);
		else
			values(cfg, args, nargs);
		if (opt.unsim || opt.verbose)
			unsimulated(cfg);
	}
	ca_config_free(cfg);
	ca_intern_cleanup();
	return cli_finish();
}
