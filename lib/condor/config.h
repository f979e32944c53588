/* config.h - HTCondor configuration files (-c FILE) read into a table of
 * names, over HTCondor's built-in defaults, for every program. */
#ifndef CA_CONFIG_H
#define CA_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"

/*
 * The language is HTCondor's condor_config (condor-config(5) describes it
 * whole): NAME = value, NAME += value, NAME @=TAG ... @TAG, continuation
 * lines, $(NAME) and $(NAME:default) expanded when a value is looked up,
 * self-reference, the macro functions ($ENV, $INT, $REAL, $STRING, $EVAL,
 * $CHOICE, $SUBSTR, $RANDOM_CHOICE, $RANDOM_INTEGER, $F..., $BASENAME,
 * $DIRNAME), include (files, ifexist, command), use CATEGORY : NAME(args),
 * if/elif/else/endif, error and warning lines, SUBSYS. and LOCALNAME.
 * prefixes, LOCAL_CONFIG_DIR and LOCAL_CONFIG_FILE.
 *
 * Lookups see, from first to last: LOCALNAME.NAME, SUBSYS.NAME and NAME,
 * each as the files define it and then among HTCondor's built-in defaults
 * (and values found at run time, such as HOSTNAME). An empty value counts
 * as not defined for the typed lookups.
 *
 * Errors come back in a ca_diag naming file, line and column (status 3,
 * or 4 for I/O); programs print them with cli_diag(). The file names in it
 * live as long as the ca_config.
 */

/* The HTCondor version this toolkit imitates: `if version >= 9.0` compares
 * against it. */
#define CA_CONFIG_VERSION	"24.0.0"

typedef struct ca_config ca_config;

ca_config *ca_config_new(void);
void ca_config_free(ca_config *cfg);

/* Read a file ("-": standard input) into cfg; later definitions override
 * earlier ones, also across files. Then the LOCAL_CONFIG_DIR and
 * LOCAL_CONFIG_FILE it names are read (each source once per cfg). Returns
 * 0, or -1 with err set (at the first error; what was read before stays). */
int ca_config_load(ca_config *cfg, const char *path, ca_diag *err);
/* The same for text in memory; name is what messages call it. */
int ca_config_load_mem(ca_config *cfg, const char *name, const char *text, size_t len,
    ca_diag *err);
/* Define NAME = value as a line of a file called "<origin>" would (origin
 * NULL: "<default>"), e.g. for -D options. Returns 0, or -1 with err set
 * when name or value is malformed. */
int ca_config_set(ca_config *cfg, const char *name, const char *value, const char *origin,
    ca_diag *err);
/* Register the text of a template for `use CATEGORY : NAME`; it takes the
 * place of a built-in template of the same name. */
void ca_config_add_template(ca_config *cfg, const char *category, const char *name,
    const char *text);
/* Lookups of X try SUBSYS.X first (e.g. "NEGOTIATOR"); NULL to stop. Set
 * it before loading: self-references and conditions see it too. */
void ca_config_set_subsys(ca_config *cfg, const char *subsys);
/* The local name (condor_config_val -local-name): LOCALNAME.X first. */
void ca_config_set_localname(ca_config *cfg, const char *name);
/* $RANDOM_CHOICE and $RANDOM_INTEGER draw from this seed (default 0): the
 * same seed gives the same choice at the same place of the same knob. */
void ca_config_set_seed(ca_config *cfg, uint64_t seed);
/* time() in conditions, $EVAL and the typed lookups (default: the clock). */
void ca_config_set_now(ca_config *cfg, int64_t now);
/* include command, and LOCAL_CONFIG_FILE commands, may run this many
 * seconds (default 10); 0 refuses to run them. Their output is read up to
 * 16 MiB. */
void ca_config_set_command_timeout(ca_config *cfg, int seconds);

/* Is NAME defined (even as empty), in a file or among the built-ins? */
bool ca_config_defined(const ca_config *cfg, const char *name);
/* The raw value of NAME (before macro expansion), or NULL. */
const char *ca_config_raw(const ca_config *cfg, const char *name);
/* Where NAME's value starts: sets err->file/line/col (msg emptied) and
 * returns true, or false when NAME is not defined. A built-in default is
 * at "<built-in default>", line 0. For messages about a value that is
 * well-formed but wrong ("PRIORITY_HALFLIFE must be positive"). */
bool ca_config_locate(const ca_config *cfg, const char *name, ca_diag *err);

/* The typed lookups return 1 and set *out when NAME is defined, 0 (leaving
 * *out alone, so it can hold the default) when it is undefined or empty, and
 * -1 with err set when expanding or converting fails. */

/* The expanded value as text (out is reset first). */
int ca_config_string(ca_config *cfg, const char *name, strbuf *out, ca_diag *err);
/* The value evaluated as a ClassAd expression (HTCondor's param_integer
 * rules: "24 * $(HOUR)" is fine): an integer, or a real with no fraction. */
int ca_config_int(ca_config *cfg, const char *name, int64_t *out, ca_diag *err);
/* An integer or real. */
int ca_config_real(ca_config *cfg, const char *name, double *out, ca_diag *err);
/* true/false/yes/no (any case), or an expression giving a boolean or number. */
int ca_config_bool(ca_config *cfg, const char *name, bool *out, ca_diag *err);
/* The expanded value parsed as a ClassAd expression into arena a (parser
 * flags pflags, see parser.h); syntax errors point into the file when the
 * value holds no macros, else at the value with the expanded text quoted. */
int ca_config_expr(ca_config *cfg, const char *name, ca_arena *a, int pflags,
    ca_expr **out, ca_diag *err);

/* Expand the macros in text as if it were a value ("<text>" in messages).
 * Returns 0, or -1 with err set. */
int ca_config_expand(ca_config *cfg, const char *text, size_t len, strbuf *out, ca_diag *err);

/* Every name the files and ca_config_set defined, in order of first
 * definition: i in [0, count). Built-in defaults are not among them. */
size_t ca_config_count(const ca_config *cfg);
const char *ca_config_name_at(const ca_config *cfg, size_t i);	/* as first spelled */

/* ---- what condor_config_val shows ---- */

enum ca_config_origin {
	CA_CONFIG_FROM_FILE,		/* a file, a template or ca_config_set */
	CA_CONFIG_FROM_DEFAULT,		/* HTCondor's built-in default */
	CA_CONFIG_FROM_DETECTED		/* found at run time: HOSTNAME, SUBSYSTEM, ... */
};

typedef struct ca_config_info {
	const char *name;	/* the name that was found (SUBSYS.X when that won) */
	const char *raw;	/* its value before expansion */
	int origin;		/* enum ca_config_origin */
	const char *file;	/* where it was defined: the file, or for a */
	int line;		/* template's knob the file of the use line */
	const char *tmpl;	/* "POLICY:Desktop" when a template defined it */
	int tmpl_line;		/* its line in the template */
	const char *dflt;	/* the built-in default of the name asked, or NULL */
} ca_config_info;

/* What a lookup of NAME finds (exact: NAME itself, without prefixes).
 * Returns false when nothing defines it (out->dflt is still set). */
bool ca_config_info_of(ca_config *cfg, const char *name, bool exact, ca_config_info *out);
/* The built-in default of NAME (with SUBSYS. first), or NULL. */
const char *ca_config_default(const ca_config *cfg, const char *name);
/* The names with a built-in default or a detected value, for -dump. */
size_t ca_config_builtin_count(void);
const char *ca_config_builtin_name_at(size_t i);

/* The templates `use` knows: the built-in ones, then those registered. */
typedef struct ca_config_template {
	const char *category, *name, *text;
	bool simulated;		/* its knobs shape what the programs simulate */
	const char *about;	/* one line (its arguments), or NULL */
} ca_config_template;
size_t ca_config_template_count(const ca_config *cfg);
void ca_config_template_at(const ca_config *cfg, size_t i, ca_config_template *out);
bool ca_config_template_find(const ca_config *cfg, const char *category, const char *name,
    ca_config_template *out);

/* The use statements carried out, in order (nested ones included). */
typedef struct ca_config_use {
	const char *category, *name, *args;	/* args: NULL when none */
	const char *file;	/* the file and line of the outermost use */
	int line;
	bool simulated;
} ca_config_use;
size_t ca_config_use_count(const ca_config *cfg);
void ca_config_use_at(const ca_config *cfg, size_t i, ca_config_use *out);

/* The files and commands read, in order (includes and local ones too). */
size_t ca_config_source_count(const ca_config *cfg);
const char *ca_config_source_at(const ca_config *cfg, size_t i);

/* What `warning :` lines and ':' assignments said, one "file:line: text"
 * per line ("" when nothing): for a program to print on standard error. */
const char *ca_config_warnings(const ca_config *cfg);

/* ---- knobs that would change a decision but are not simulated ----
 *
 * A program calls ca_config_unsimulated once after loading, with the
 * subsystem whose decisions it makes ("NEGOTIATOR", "STARTD", "SCHEDD";
 * NULL: all of them), and prints each knob it is told of as a warning on
 * standard error, its exit status unchanged. A knob is reported once, where
 * it was (last) defined, and only when its value would change a decision
 * (NEGOTIATOR_DEPTH_FIRST = False is not reported). Returns how many. */
typedef struct ca_config_unsim {
	const char *name;	/* as spelled where it was defined */
	const char *subsys;	/* the daemon it matters to */
	const char *why;	/* what it does that is not simulated */
	const char *file;	/* where: for a template's knob, the use line */
	int line;
	const char *tmpl;	/* "POLICY:Hold_If_Memory_Exceeded", or NULL */
} ca_config_unsim;
typedef void (*ca_config_unsim_fn)(void *arg, const ca_config_unsim *u);
size_t ca_config_unsimulated(ca_config *cfg, const char *subsys, ca_config_unsim_fn fn,
    void *arg);
/* The usual message for u: "FILE:LINE: NAME is not simulated (why)". */
void ca_config_unsim_format(const ca_config_unsim *u, strbuf *sb);

#endif
