/* par.h - a program's pass over a long-format file on several cores: the
 * file cut into parts that never split adjacent ads of one group, each
 * part read and stepped by a worker process, the output and the messages
 * written in the file's order, as one process would write them. */
#ifndef PAR_H
#define PAR_H

#include <stdbool.h>
#include <stddef.h>

#include "classad.h"

typedef struct par_ops {
	/* The group of an ad (points into it): adjacent ads of one group
	 * (compared ignoring the case of A-Z, as host names are) are never
	 * in two parts. NULL: every ad is a group of its own. */
	const char *(*group)(const ca_ad *ad);
	/* Read the ads of r (a part of path) and append what becomes of them
	 * to out in the long format (ca_writer_open_buf), messages to
	 * standard error; the number of ads read. In a worker st gets what
	 * the parent must know of the part's effect on state the parts
	 * share; in the parent (after a worker's part could not stand) out
	 * and st are NULL: the ads go to the program's own output. */
	size_t (*run)(void *arg, ca_reader *r, const char *path, strbuf *out, strbuf *st);
	/* In the parent, before a worker's part is written: take its st.
	 * False when the part depended on a part before it that its worker
	 * did not see; then it and every part after it run in the parent.
	 * NULL: the parts share nothing. */
	bool (*merge)(void *arg, const char *st, size_t len);
	/* The text of ads a worker wrote, for the program's output. */
	void (*write)(void *arg, const char *text, size_t n);
} par_ops;

/* The pass over path ("-": standard input) in up to workers processes (0:
 * one per processor, at most 8, and only for a file of 4 MB or more; 1:
 * in this process, for a file of 4 MB or more, a part of 8 MB at a time
 * read at once, whose ads keep their lines where they are in it, rather
 * than a copy each as a reader of a stream keeps them).
 * 1 when it ran; -1 when it ran but a part of the file could not be read
 * (said on standard error); 0, with nothing read or written and *why
 * set, when path is not a regular file of the long format, uncompressed,
 * that cuts into two parts or more (the caller then reads it itself). */
int par_run(const char *path, int workers, const par_ops *ops, void *arg, const char **why);

#endif
