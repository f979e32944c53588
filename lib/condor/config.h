/* config.h - HTCondor-style configuration files (-c FILE) read into a table of
 * names, for userprio-calc, startd-step and negotiate. */
#ifndef CA_CONFIG_H
#define CA_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"

/*
 * The syntax, as HTCondor's condor_config reads it:
 *   NAME = value          names are letters, digits, '_' and '.', compared
 *                         without regard to case; later definitions win
 *   NAME @=TAG ... @TAG   a multi-line value, kept verbatim
 *   # comment             a whole line; '#' later in a line is part of the value
 *   value \               the next line continues the value (leading blanks of
 *                         the continuation dropped, comment lines inside skipped)
 *   $(NAME)               macro, expanded when the value is looked up, so a later
 *                         definition of NAME counts; undefined expands to nothing
 *   $(NAME:default)       with a default for an undefined NAME
 *   $(NAME) in NAME's own definition stands for its previous value
 *   $ENV(VAR)             an environment variable; $$(...) is kept verbatim
 *   include [ifexist] : FILE     (relative to the including file's directory)
 *   use CATEGORY : NAME[, NAME]  a template registered with ca_config_add_template
 *   if / elif / else / endif     conditions: [!] defined NAME, true/false/yes/no,
 *                                a number, or a ClassAd expression without
 *                                attribute references
 * An empty value counts as not defined for the typed lookups.
 *
 * Errors come back in a ca_diag (reader.h) naming file, line and column, so a
 * program reports them with cli_rerr(); sys is 1 only for I/O failures. The
 * file names in it live as long as the ca_config.
 */

typedef struct ca_config ca_config;

ca_config *ca_config_new(void);
void ca_config_free(ca_config *cfg);

/* Read a file ("-": standard input) into cfg; later definitions override
 * earlier ones, also across files. Returns 0, or -1 with err set (at the
 * first error; the definitions read before it stay). */
int ca_config_load(ca_config *cfg, const char *path, ca_diag *err);
/* The same for text in memory; name is what messages call it. */
int ca_config_load_mem(ca_config *cfg, const char *name, const char *text, size_t len,
    ca_diag *err);
/* Define NAME = value as a line of a file called "<origin>" would (origin
 * NULL: "<default>"), e.g. for built-in defaults or -D options. Returns 0,
 * or -1 with err set when name or value is malformed. */
int ca_config_set(ca_config *cfg, const char *name, const char *value, const char *origin,
    ca_diag *err);
/* Register the text of a template for `use CATEGORY : NAME`. */
void ca_config_add_template(ca_config *cfg, const char *category, const char *name,
    const char *text);
/* Lookups of X try SUBSYS.X first (e.g. "NEGOTIATOR"); NULL to stop. */
void ca_config_set_subsys(ca_config *cfg, const char *subsys);

/* Is NAME defined (even as empty)? */
bool ca_config_defined(const ca_config *cfg, const char *name);
/* The raw value of NAME (before macro expansion), or NULL. */
const char *ca_config_raw(const ca_config *cfg, const char *name);
/* Where NAME's value starts: sets err->file/line/col (msg emptied, sys 0)
 * and returns true, or false when NAME is not defined. For messages about a
 * value that is well-formed but wrong ("PRIORITY_HALFLIFE must be positive"). */
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

/* Every defined name, in order of first definition: i in [0, count). */
size_t ca_config_count(const ca_config *cfg);
const char *ca_config_name_at(const ca_config *cfg, size_t i);	/* as first spelled */

#endif
