/* writer_int.h - what the stream writer (writer.c) shares with the writers
 * of each format (write_*.c). */
#ifndef CA_WRITER_INT_H
#define CA_WRITER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "ad.h"
#include "strbuf.h"

/* The name of an attribute as this ad spells it. */
static inline const char *
attr_spell(const ca_attr *at, size_t *len)
{
	/* a spelling differs from the name's only in case */
	*len = ca_name_id_of(at->name_id)->len;
	return ca_attr_spell(at);
}

static inline void
spaces(strbuf *sb, int n)
{
	while (n-- > 0)
		strbuf_addc(sb, ' ');
}

/* An ad in each format, as the writer writes it inside its stream; tmp is
 * scratch for unparsed expressions, indent the column of the ad. */
void ca_wr_long(strbuf *sb, const ca_ad *ad);
/* Does the long format print name, spelled spell[0..n), as it is (no
 * quotes)? */
bool ca_wr_long_plain(const ca_name *name, const char *spell, size_t n);
void ca_wr_json(strbuf *sb, strbuf *tmp, const ca_ad *ad, int indent);
void ca_wr_xml(strbuf *sb, strbuf *tmp, const ca_ad *ad, int indent);

/* ca_wr_long, then why the long format cannot hold ad (what it wrote is
 * not to be written then), or NULL when it can. */
const char *ca_wr_long_put(strbuf *sb, const ca_ad *ad);
/* Is s[0..n) well-formed UTF-8 (no overlong forms, no surrogates, nothing
 * above U+10FFFF)? */
bool ca_wr_utf8_valid(const char *s, size_t n);

#endif
