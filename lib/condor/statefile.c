/* statefile.c - rewriting a state file atomically: a temporary file beside it,
 * written, synced and renamed over it, then the directory synced. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "classad.h"
#include "statefile.h"

#define ADS_BUF (256 * 1024)

FILE *
ca_fdopen_ads(int fd, char **buf)
{
	FILE *fp = fdopen(fd, "w");

	*buf = NULL;
	if (fp != NULL) {
		*buf = ca_xmalloc(ADS_BUF);
		(void)setvbuf(fp, *buf, _IOFBF, ADS_BUF);
	}
	return fp;
}

int
ca_statefile_begin(ca_statefile *sf, const char *path, ca_diag *err)
{
	const char *slash = strrchr(path, '/');
	strbuf tmp = STRBUF_INIT;
	struct stat st;
	mode_t mode;
	int fd;

	sf->fp = NULL;
	sf->path = sf->tmp = sf->buf = NULL;
	strbuf_add(&tmp, path, slash ? (size_t)(slash - path) + 1 : 0);
	strbuf_addf(&tmp, ".%s.XXXXXX", slash ? slash + 1 : path);
	if ((fd = mkstemp(tmp.buf)) < 0) {
		ca_diag_errno(err, path, errno, "cannot create the temporary file %s", tmp.buf);
		strbuf_release(&tmp);
		return -1;
	}
	if (stat(path, &st) == 0)
		mode = st.st_mode & 07777;
	else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(fd, mode) < 0 || (sf->fp = ca_fdopen_ads(fd, &sf->buf)) == NULL) {
		ca_diag_errno(err, path, errno, "cannot write %s", tmp.buf);
		close(fd);
		unlink(tmp.buf);
		strbuf_release(&tmp);
		return -1;
	}
	sf->path = ca_xstrndup(path, strlen(path));
	sf->tmp = strbuf_detach(&tmp, NULL);
	return 0;
}

static void
release(ca_statefile *sf)
{
	free(sf->path);
	free(sf->tmp);
	free(sf->buf);
	sf->path = sf->tmp = sf->buf = NULL;
	sf->fp = NULL;
}

void
ca_statefile_abort(ca_statefile *sf)
{
	if (sf->fp != NULL)
		fclose(sf->fp);
	if (sf->tmp != NULL)
		unlink(sf->tmp);
	release(sf);
}

int
ca_statefile_commit(ca_statefile *sf, ca_diag *err)
{
	const char *slash = strrchr(sf->path, '/');
	strbuf dir = STRBUF_INIT;
	int rc = -1;

	if (fflush(sf->fp) != 0 || ferror(sf->fp)) {
		ca_diag_errno(err, sf->path, errno, "writing %s", sf->tmp);
		goto abort;
	}
	if (fsync(fileno(sf->fp)) < 0) {
		ca_diag_errno(err, sf->path, errno, "cannot fsync %s", sf->tmp);
		goto abort;
	}
	int cr = fclose(sf->fp);
	sf->fp = NULL;
	if (cr != 0) {
		ca_diag_errno(err, sf->path, errno, "writing %s", sf->tmp);
		goto abort;
	}
	if (rename(sf->tmp, sf->path) < 0) {
		ca_diag_errno(err, sf->path, errno, "cannot rename over it the file %s", sf->tmp);
		goto abort;
	}
	/* make the rename itself durable */
	if (slash != NULL)
		strbuf_add(&dir, sf->path, (size_t)(slash - sf->path) + (slash == sf->path));
	else
		strbuf_adds(&dir, ".");
	int dfd = open(dir.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	rc = 0;
	if (dfd >= 0) {
		if (fsync(dfd) < 0 && errno != EINVAL) {
			ca_diag_errno(err, sf->path, errno, "cannot fsync the directory %s", dir.buf);
			rc = -1;
		}
		close(dfd);
	}
	strbuf_release(&dir);
	release(sf);
	return rc;
abort:
	ca_statefile_abort(sf);
	return -1;
}

/* Is name a temporary file of base, ".BASE.XXXXXX" as mkstemp makes it? */
static int
is_tmp_of(const char *name, const char *base)
{
	size_t bl = strlen(base);

	if (name[0] != '.' || strncmp(name + 1, base, bl) != 0 || name[1 + bl] != '.')
		return 0;
	name += bl + 2;
	if (strlen(name) != 6)
		return 0;
	for (; *name; name++)
		if (!((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
		    (*name >= '0' && *name <= '9')))
			return 0;
	return 1;
}

/* Remove the temporary files of path that a writer killed before its
 * commit left behind. Only the lock holder writes them, so under the lock
 * every one there is stale. Failing to remove one is no error. */
static void
sweep(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	strbuf dir = STRBUF_INIT, f = STRBUF_INIT;
	struct dirent *de;
	DIR *d;

	if (slash != NULL)
		strbuf_add(&dir, path, (size_t)(slash - path) + 1);
	if ((d = opendir(dir.len ? dir.buf : ".")) == NULL) {
		strbuf_release(&dir);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (!is_tmp_of(de->d_name, base))
			continue;
		strbuf_reset(&f);
		strbuf_addf(&f, "%s%s", dir.len ? dir.buf : "", de->d_name);
		unlink(f.buf);
	}
	closedir(d);
	strbuf_release(&f);
	strbuf_release(&dir);
}

int
ca_statefile_lock(const char *path, ca_diag *err)
{
	strbuf lock = STRBUF_INIT;
	int fd;

	strbuf_addf(&lock, "%s.lock", path);
	fd = open(lock.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		ca_diag_errno(err, path, errno, "cannot open the lock file %s", lock.buf);
		strbuf_release(&lock);
		return -1;
	}
	while (flock(fd, LOCK_EX) < 0) {
		if (errno == EINTR)
			continue;
		ca_diag_errno(err, path, errno, "cannot lock %s", lock.buf);
		close(fd);
		strbuf_release(&lock);
		return -1;
	}
	strbuf_release(&lock);
	sweep(path);
	return fd;
}

void
ca_statefile_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}
