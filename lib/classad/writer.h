/* writer.h - streaming ad output in the long, new, JSON and XML formats,
 * optionally gzip-compressed. Attributes are written in their ad order. */
#ifndef CA_WRITER_H
#define CA_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#include "ad.h"
#include "reader.h"
#include "strbuf.h"

typedef struct ca_writer ca_writer;

/* Write to fp (not closed by the writer). fmt must not be CA_FMT_AUTO (it is
 * taken as long). With gzip the output is one gzip member, finished by close.
 * Layout: long: "Name = expr" lines and a blank line after every ad; new:
 * "{\n" ad ",\n" ad "\n}\n"; json: "[\n" object ",\n" object "\n]\n"; xml:
 * HTCondor's header, <c> elements, "</classads>\n". No ads: "{\n}\n", "[\n]\n",
 * header and footer. Output is left to fp's buffering (no flush per ad). */
ca_writer *ca_writer_open(FILE *fp, ca_format fmt, bool gzip);
/* 0, or -1 on an I/O error (errno set). -1 with errno EILSEQ (nothing
 * written, the writer still usable) for an ad the format cannot hold, and
 * ca_writer_refusal says why: in the long format an ad without attributes,
 * or holding a string with a newline or an expression with a backslash at
 * the end of a line; in JSON and XML an attribute name that is not UTF-8
 * (or, in XML, holds a control character). */
int ca_writer_put(ca_writer *w, const ca_ad *ad);
/* A writer that appends its output to *dst (no compression, no I/O
 * errors): each ad is made there in place, and taken back when refused.
 * dst may be memory its owner grows (strbuf's grow), such as a mapped
 * file: the text is then copied nowhere else. */
ca_writer *ca_writer_open_buf(strbuf *dst, ca_format fmt);
/* Text of ads another long-format writer wrote (each with its blank line),
 * written as it is (compressed if w is): for a writer of the long format
 * only, whose layout has nothing between ads. 0, or -1 on an I/O error
 * (errno set); -1 with errno EINVAL for another format. */
int ca_writer_put_text(ca_writer *w, const char *text, size_t n);
const char *ca_writer_refusal(const ca_writer *w);
/* Write the trailer, flush; 0 or -1 on an I/O error. Frees w either way. */
int ca_writer_close(ca_writer *w);

/* Append one ad in a format to sb, as the writer writes it inside its
 * stream: long: "Name = expr\n" lines (no blank line); new: one line
 * "[ ... ]" (no newline); json: one pretty object (no newline); xml: a
 * "<c>...</c>\n" element. */
void ca_format_ad(strbuf *sb, const ca_ad *ad, ca_format fmt);

#endif
