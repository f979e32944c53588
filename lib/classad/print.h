/* print.h - unparsing: expressions, values and ads as text in new ClassAd
 * syntax or in the old (-long) syntax. Locale-independent. */
#ifndef CA_PRINT_H
#define CA_PRINT_H

#include "ad.h"
#include "expr.h"
#include "strbuf.h"
#include "value.h"

#define CA_PR_OLD	0x1	/* old syntax: strings escape only '"' */
#define CA_PR_HTREAL	0x2	/* reals as HTCondor's string() writes them ("%1.15E") */
#define CA_PR_PRETTY	0x4	/* records and lists on lines of their own, indented,
				 * as HTCondor's unparse() lays them out */

/* Shortest text that reads back to the same double, always with '.' or an
 * exponent (3.0, 1.5, 1e+300); zeros as 0.0 and -0.0, the specials as
 * real("INF") etc. (ca_print_value with CA_PR_HTREAL: "%1.15E" instead). */
void ca_print_real(strbuf *sb, double r);
/* A string literal with its quotes and escapes ("new" or old rules). */
void ca_print_string(strbuf *sb, const char *s, size_t len, int flags);
/* An attribute name, quoted with '...' when it is not a plain identifier. */
void ca_print_name(strbuf *sb, const char *s, size_t len);
void ca_print_expr(strbuf *sb, const ca_expr *e, int flags);
void ca_print_value(strbuf *sb, ca_value v, int flags);
/* "[ a = 1; b = 2 ]" in insertion order. */
void ca_print_ad(strbuf *sb, const ca_ad *ad, int flags);
/* The text string() gives: strings raw, reals as "%1.15E" (zeros and the
 * special values as ca_print_value prints them), lists and ads unparsed,
 * times without their absTime()/relTime() wrapper, relative times in
 * whole seconds. */
void ca_value_to_string(strbuf *sb, ca_value v);
/* absTime/relTime text: "2004-01-01T00:00:00-00:00" and "1+02:03:04". */
void ca_print_abstime(strbuf *sb, int64_t secs, int32_t off);
void ca_print_reltime(strbuf *sb, double secs);

#endif
