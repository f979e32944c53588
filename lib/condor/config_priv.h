/* config_priv.h - what the files of the configuration reader share: the
 * table of names, its entries, the limits and the helpers between them. */
#ifndef CA_CONFIG_PRIV_H
#define CA_CONFIG_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classad.h"

/*
 * The reader is split by concern:
 *   config.c            the table (files over built-ins), lookups, typed lookups
 *   config_read.c       the file syntax: statements, if/elif, include, use,
 *                       commands, LOCAL_CONFIG_FILE and LOCAL_CONFIG_DIR
 *   config_expand.c     $(NAME), the macro functions, template arguments
 *   config_templates.c  the `use` templates HTCondor ships
 *   config_defaults.c   HTCondor's defaults and the knobs not simulated
 */

#define CFG_MAX_NEST		16	/* include, use and command nesting */
#define CFG_MAX_EXPAND_DEPTH	64	/* macros inside macros */
#define CFG_MAX_EXPANSION	((size_t)16 << 20)	/* one value, expanded */
#define CFG_MAX_WORK		((size_t)256 << 20)	/* bytes made in one lookup */
#define CFG_MAX_IF_DEPTH	64
#define CFG_MAX_FILE		((size_t)64 << 20)	/* include : /dev/zero must end */
#define CFG_MAX_OUTPUT		((size_t)16 << 20)	/* a command's output */
#define CFG_COMMAND_SECONDS	10

typedef struct ca_config ca_config;

/* Where byte off of a value was written. */
struct cfg_seg {
	size_t off;
	int line, col;
};

enum cfg_kind {
	CFG_K_FILE,		/* a file, a template or ca_config_set */
	CFG_K_DEFAULT,		/* HTCondor's built-in default */
	CFG_K_DETECTED		/* found out at run time (HOSTNAME, SUBSYSTEM, ...) */
};

struct cfg_entry {
	char *key;		/* lower-cased name */
	char *spell;		/* first spelling */
	char *value;		/* raw text, NUL-terminated */
	size_t len;
	size_t cap;		/* bytes value has room for, less the NUL */
	const char *file;	/* where value was written ("<use POLICY:X>" for a template) */
	int line, col;		/* of the value's first byte */
	struct cfg_seg *segs;	/* NULL: one place (line, col) for the whole value */
	size_t nsegs;
	const char *tmpl;	/* "POLICY:Desktop" when a template wrote it, else NULL */
	const char *ufile;	/* the file and line of the statement responsible: */
	int uline;		/* the use line of a template, else file and line */
	uint64_t hash;
	unsigned char kind;	/* enum cfg_kind */
	bool busy;		/* being expanded: recursion check */
};

/* Entries live in the arena (their addresses stay put while a lookup holds
 * them); the vector keeps their order, the dict finds them by name. */
struct cfg_table {
	ca_vec(struct cfg_entry *) v;
	ca_dict index;
};

/* Where a definition is being made. */
struct cfg_where {
	const char *file;
	int line, col;
	const char *tmpl;
	const char *ufile;
	int uline;
};

struct cfg_tmpl {
	char *category, *name, *text;
};

struct cfg_use {
	const char *category, *name, *args;
	const char *file;
	int line;
	bool simulated;
};

struct ca_config {
	ca_arena arena;		/* names, values, segment maps, file names */
	struct cfg_table files;	/* what files and ca_config_set defined */
	struct cfg_table builtin;	/* defaults and detected values, made on first use */
	ca_vec(struct cfg_tmpl) tmpls;	/* templates registered by the program */
	ca_vec(struct cfg_use) uses;	/* use statements carried out, in order */
	ca_vec(const char *) sources;	/* files and commands read, in order */
	ca_vec(const char *) locals;	/* LOCAL_CONFIG_FILE/DIR sources read */
	char *subsys, *localname;
	uint64_t seed;
	int64_t now;
	bool now_set;
	int cmd_seconds;	/* 0: include command is refused */
	strbuf warnings;
	ca_ctx cx;		/* for typed lookups, conditions and $EVAL */
	bool have_cx;
};

/* ---- characters and names (config.c) ---- */

static inline int
cfg_is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static inline int
cfg_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static inline int
cfg_is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline int
cfg_is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static inline int
cfg_is_alnum(int c)
{
	return cfg_is_alpha(c) || cfg_is_digit(c);
}

int cfg_is_name_char(int c);
bool cfg_ci_equal(const char *a, size_t alen, const char *b);
bool cfg_ci_prefix(const char *s, size_t len, const char *prefix);
void cfg_trim(const char **s, size_t *len);

/* ---- the table (config.c) ---- */

/* NAME exactly, in files then built-ins (no prefixes). */
struct cfg_entry *cfg_find(ca_config *cfg, const char *s, size_t len);
/* NAME as a lookup sees it: LOCALNAME.NAME, SUBSYS.NAME, NAME, each in the
 * files first and then among the built-ins. */
struct cfg_entry *cfg_lookup(ca_config *cfg, const char *s, size_t len);
/* Define name = value[0..len) at w, with the segment map segs (NULL: one
 * place); self-references are replaced by the previous value first. */
int cfg_define(ca_config *cfg, const char *name, size_t nlen, const char *value, size_t len,
    const struct cfg_where *w, const struct cfg_seg *segs, size_t nsegs, ca_diag *err);
void cfg_locate(const struct cfg_entry *e, size_t off, int *line, int *col);
void cfg_entry_err(ca_diag *err, const struct cfg_entry *e, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
ca_ctx *cfg_ctx(ca_config *cfg);
/* Evaluate text as a ClassAd expression without an ad: 1 and *v (numbers
 * and booleans; a string only when sb is given), with sb the value's text
 * as $EVAL shows it; 0 when the text does not parse. */
int cfg_eval(ca_config *cfg, const char *text, size_t len, ca_value *v, strbuf *sb);

/* ---- expansion (config_expand.c) ---- */

/* The expansion of e's value into out (reset first). */
int cfg_expand_entry(ca_config *cfg, struct cfg_entry *e, strbuf *out, ca_diag *err);
/* The expansion of t[0..len), part of e's text from offset base on (e may be
 * a stand-in for a line being read). */
int cfg_expand_text(ca_config *cfg, const struct cfg_entry *e, const char *t, size_t len,
    size_t base, strbuf *out, ca_diag *err);
/* The syntax of a value as it is defined: every $( closed, names valid. */
int cfg_check_refs(const struct cfg_entry *e, const char *t, size_t len, ca_diag *err);
/* value with its references to itself replaced by prev (see config.c). */
int cfg_subst_self(ca_config *cfg, const char *name, size_t nlen, const char *t, size_t len,
    strbuf *out);
/* A template's text with its $(0), $(1), $(1?), $(0#), $(2+), $(1:default)
 * replaced from the argument list args. */
void cfg_meta_args(const char *text, size_t len, const char *args, size_t alen, strbuf *out);

/* ---- built-in data (config_templates.c, config_defaults.c) ---- */

struct cfg_builtin_tmpl {
	const char *category;
	const char *name;
	const char *text;
	bool simulated;		/* its knobs are ones the programs simulate */
	const char *about;	/* one line, with its arguments */
};
const struct cfg_builtin_tmpl *cfg_template_builtin(const char *cat, size_t clen,
    const char *name, size_t nlen);
size_t cfg_template_builtin_count(void);
const struct cfg_builtin_tmpl *cfg_template_builtin_at(size_t i);

/* The built-in default of NAME (exactly, "SUBSYS.NAME" included), or NULL. */
const char *cfg_default(const char *name, size_t len);
size_t cfg_default_count(void);
const char *cfg_default_name_at(size_t i);

struct cfg_unsim {
	const char *pattern;	/* NAME, PREFIX* or *SUFFIX */
	const char *subsys;	/* the daemon it matters to */
	const char *harmless;	/* a value that changes nothing, or NULL */
	const char *why;
};
const struct cfg_unsim *cfg_unsim_match(const char *name);

#endif
