/* timeparse.h - HTCondor's absTime() and relTime() string syntaxes, read
 * without the locale: the parser folds literals with them, builtins use them. */
#ifndef CA_TIMEPARSE_H
#define CA_TIMEPARSE_H

#include <stddef.h>
#include <stdint.h>

/* An absolute time "D* dddd [D* dd [D* dd [D* dd [D* dd [D* dd D*]]]]] [zone]"
 * (D a non-digit, d a digit: year, month, day, hours, minutes, seconds) with
 * zone "Z", "+hh:mm" or "+hhmm" (or '-'); without a zone the fields are local
 * time and *off is the local offset then in force. Fields out of range
 * carry over as mktime's do ("2004" is 2003-12-31: the day defaults to 0).
 * Sets *secs (UTC seconds since the epoch) and *off (seconds east of UTC).
 * now is not needed by the syntax. Returns 0, or -1 when s is not a time. */
int ca_parse_abstime(const char *s, size_t len, int64_t *secs, int32_t *off, int64_t now);

/* A relative time "[-][days(d|+)][hh(h|:)][mm(m|:)]ss[.fff][s]", read right
 * to left; fields may overflow ("2+25:14:16.123" is 3+01:14:16.123) and
 * white space may separate them. Returns 0, or -1 on junk. */
int ca_parse_reltime(const char *s, size_t len, double *secs);

/* The local (TZ) offset from UTC in force at secs, in seconds east.
 * Returns 0, or -1 when the C library cannot represent secs. */
int ca_local_offset(int64_t secs, int32_t *off);

#endif
