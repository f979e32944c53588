/* statefile.h - rewriting a state file atomically: a temporary file beside it,
 * written, synced and renamed over it, then the directory synced. */
#ifndef CA_STATEFILE_H
#define CA_STATEFILE_H

#include <stdio.h>

#include "classad.h"

/* A state file being rewritten. Write the new contents to fp, then call
 * ca_statefile_commit (or ca_statefile_abort to leave the old file as it
 * was). Hold ca_statefile_lock across the whole read-modify-write. */
typedef struct ca_statefile {
	FILE *fp;		/* the temporary file, open for writing */
	char *path;		/* the state file */
	char *tmp;		/* the temporary file: "DIR/.NAME.XXXXXX" */
	char *buf;		/* fp's buffer (ca_fdopen_ads) */
} ca_statefile;

/* Descriptor fd as a stream to write ads to, with a buffer of 256 KB in
 * *buf, to free once the stream is closed: stdio's own is the file's
 * block (4 KB), a system call for every ad or two. NULL with errno. */
FILE *ca_fdopen_ads(int fd, char **buf);

/* Create the temporary file for path, with the mode of path when it exists
 * (else 0666 less the umask). 0, or -1 with err (a system error). */
int ca_statefile_begin(ca_statefile *sf, const char *path, ca_diag *err);
/* Flush, fsync and close the temporary file, rename it over path and fsync
 * the directory: afterwards path is the new file, before it the old one.
 * 0, or -1 with err (the temporary file is removed and path is unchanged). */
int ca_statefile_commit(ca_statefile *sf, ca_diag *err);
/* Remove the temporary file; path is unchanged. */
void ca_statefile_abort(ca_statefile *sf);

/* Take the exclusive lock PATH.lock (flock, waiting for it) that serializes
 * the programs rewriting the state file path (concurrent cron runs), then
 * remove the temporary files of path (".NAME.XXXXXX") a writer killed before
 * its commit left. Returns a descriptor for ca_statefile_unlock, or -1 with
 * err. */
int ca_statefile_lock(const char *path, ca_diag *err);
void ca_statefile_unlock(int fd);

#endif
