/* parser.h - precedence-climbing parser: tokens to expression trees and ads.
 * Syntax errors come back with line and column, never as a crash. */
#ifndef CA_PARSER_H
#define CA_PARSER_H

#include <stddef.h>

#include "ad.h"
#include "diag.h"
#include "expr.h"

/* Nesting deeper than this (brackets, parentheses, operators, nested ads)
 * is a syntax error; every recursive walk of a tree can rely on it. */
#define CA_MAX_DEPTH 400

/* Parser flags. */
#define CA_P_OLDSTR	0x1	/* old (-long) string rules */
#define CA_P_STRICT	0x2	/* new ClassAd rules: no ';' between call arguments */

/* Parse one whole expression from src[0..len) into arena a. NULL on error. */
ca_expr *ca_parse_expr(ca_arena *a, const char *src, size_t len, int flags, ca_diag *err);

/* Parse a new-syntax ad "[ a = 1; ... ]" starting at src (leading white space
 * and comments allowed). On success returns an ad with its own arena and sets
 * *used to the bytes consumed; what follows is not looked at. */
ca_ad *ca_parse_ad(const char *src, size_t len, size_t *used, int flags, ca_diag *err);

/* Parse "[ ... ]" or a list of assignments "a = 1; b = 2" (classad_eval's
 * argument rules) into ad. Returns 0, or -1 with err set. */
int ca_parse_assignments(ca_ad *ad, const char *src, size_t len, int flags, ca_diag *err);

/* Fill err for a problem at byte offset pos of src (its line and column,
 * no file: the caller knows which text it parsed). */
void ca_diag_pos(ca_diag *err, const char *src, size_t len, size_t pos, int eof,
    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#endif
