/* reader.h - streaming ad input: the long (condor_status -long), new, JSON
 * and XML formats, detected automatically, gzip-compressed or not. */
#ifndef CA_READER_H
#define CA_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "ad.h"
#include "diag.h"

typedef enum ca_format {
	CA_FMT_AUTO,
	CA_FMT_LONG,
	CA_FMT_NEW,
	CA_FMT_JSON,
	CA_FMT_XML
} ca_format;

/* "long", "new", "json", "xml", "auto" -> format; -1 if unknown. */
int ca_format_parse(const char *name);
const char *ca_format_name(ca_format f);

typedef struct ca_reader ca_reader;

/* Open path ("-" or NULL: standard input). gzip input is detected by its
 * magic bytes and read through zlib. NULL with err set on failure. Nothing
 * is read before the first ca_reader_next. err->file points at path (or at
 * "<stdin>"), so path must outlive the reader. */
ca_reader *ca_reader_open(const char *path, ca_format fmt, ca_diag *err);
/* Read from a memory buffer (not copied; must outlive the reader; may be
 * gzip data). name (NULL: "<memory>") is used in messages. */
ca_reader *ca_reader_open_mem(const char *name, const char *buf, size_t len,
    ca_format fmt, ca_diag *err);
/* The next ad: 1 and *out set (caller frees it with ca_ad_free), 0 at the
 * end of input, -1 on error with err set. After a malformed ad the reader
 * stays usable: the next call goes on with the following ad where the
 * format allows it, else returns 0. Long: after the next blank line. JSON and
 * XML: after an error inside a well-formed ad (integer out of range, \u0000,
 * a bad \/Expr()\/ or <e>) the ad is dropped and reading goes on; a syntax
 * error ends the stream. New: a syntax error ends the stream. I/O and gzip
 * errors end the stream. Memory holds one ad plus the read buffer. */
int ca_reader_next(ca_reader *r, ca_ad **out, ca_diag *err);
/* A warning about the input, given once: true (with *w filled) the first
 * time it is asked after the reader found something to warn about. The
 * long format warns when its last ad looks cut short: the last line has no
 * newline, or the ads before it ended with HTCondor's "***" history lines
 * and it does not. Programs ask when the input is done. */
bool ca_reader_warning(ca_reader *r, ca_diag *w);
/* For a program that holds the ads it reads (a pool in memory): from now
 * on each ad comes in one allocation sized to it (still freed with
 * ca_ad_free, and changed as any other). Every reader shares expressions
 * that come again and again between the ads it reads, in a store of at
 * most 2 MB for the process; a packing reader lets it grow to 64 MB,
 * which holding the whole input makes worth it. */
void ca_reader_pack(ca_reader *r);
/* For a reader of memory (ca_reader_open_mem) that stays until every ad
 * read from it is freed (a filter's part of a file, written out before
 * the next is read): an ad of the long format keeps its lines where they
 * are in that memory, rather than a copy in its arena. */
void ca_reader_mem_stays(ca_reader *r);
/* Ads read get room in their tables for this many names more than they
 * were read with: for a program that adds some to every ad it reads (a
 * startd publishing its policy into its slots), which then need not move
 * a table grown full. Not for ads a program holds (ca_reader_pack). */
void ca_reader_room(ca_reader *r, uint32_t names);
/* The format in use (after detection, known once the first ad is read). */
ca_format ca_reader_format(const ca_reader *r);
/* 1-based line where the last ad returned starts. */
int ca_reader_ad_line(const ca_reader *r);
/* Number the input's lines from line on, for a part of a larger input read
 * on its own (the lines before it counted by the caller); call it before
 * the first ca_reader_next. */
void ca_reader_set_line(ca_reader *r, int line);
/* Whether the reader of the long format has read all its input, which
 * ends with a newline: then *line is the line after its last (numbered as
 * ca_reader_set_line numbers them), and the caller need not count them. */
bool ca_reader_read_all(const ca_reader *r, int *line);
void ca_reader_close(ca_reader *r);

#endif
