/* pool_state.c - the pool's state directory: generations committed by one
 * rename, the logs appended once, the spool read without following links. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "classad.h"
#include "accountant.h"
#include "pool.h"
#include "pool_int.h"
#include "statefile.h"

#define O_SAFE (O_NOFOLLOW | O_CLOEXEC | O_NOCTTY)

/* The records of a generation and the log each is appended to. */
static const struct {
	const char *gen, *log;
} logs[] = {
	{ "jobs.log", "jobs.log" }, { "jobs.log2", "jobs.log" },
	{ "matches.ads", "matches.ads" }, { "startd.log", "startd.log" },
	{ "history.ads", "history.ads" }, { "history2", "history.ads" },
	{ "negotiator.txt", "negotiator.log" },
};
static const char *const log_names[] = {
	"jobs.log", "matches.ads", "startd.log", "history.ads", "negotiator.log"
};
#define NLOGS (sizeof log_names / sizeof log_names[0])

static int
sys(ca_diag *err, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int
sys(ca_diag *err, const char *file, const char *fmt, ...)
{
	int e = errno;
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ca_diag_errno(err, file, e, "%s", msg);
	return -1;
}

/* A file's whole content (at most max bytes; -1 with errno EFBIG past it). */
static int
slurp_fd(int fd, int64_t max, char **buf, size_t *len)
{
	strbuf sb = STRBUF_INIT;
	char chunk[65536];
	ssize_t n;

	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n < 0 && (errno == EINTR))
			continue;
		if (n <= 0)
			break;
		if ((int64_t)(sb.len + (size_t)n) > max) {
			strbuf_release(&sb);
			errno = EFBIG;
			return -1;
		}
		strbuf_add(&sb, chunk, (size_t)n);
	}
	if (n < 0) {
		strbuf_release(&sb);
		return -1;
	}
	if (sb.buf == NULL)
		strbuf_addc(&sb, '\0'), sb.len = 0;
	*buf = strbuf_detach(&sb, len);
	return 0;
}

/* A file of the pool's own (no link followed): 1 with its content, 0 when
 * it does not exist, -1 with err. */
static int
read_own(int dirfd, const char *name, const char *disp, char **buf, size_t *len, ca_diag *err)
{
	int fd = openat(dirfd, name, O_RDONLY | O_SAFE | O_NONBLOCK);
	struct stat st;

	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return sys(err, disp, "cannot open %s", name);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		ca_diag_set(err, CA_EX_SYSTEM, disp, 0, 0, "%s is not a regular file", name);
		return -1;
	}
	int rc = slurp_fd(fd, INT64_MAX, buf, len);
	close(fd);
	if (rc < 0)
		return sys(err, disp, "cannot read %s", name);
	return 1;
}

/* Write len bytes of text to fd, then close it (synced first when sync is
 * set); false on an error, with errno. */
static bool
write_close(int fd, const char *text, size_t len, bool sync)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			errno = e;
			return false;
		}
		done += (size_t)n;
	}
	if (sync && fsync(fd) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return false;
	}
	return close(fd) == 0;
}

/* Write text as file name of dirfd (a new file). */
static int
write_new(int dirfd, const char *name, const char *text, size_t len, bool sync, ca_diag *err,
    const char *disp)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_SAFE, 0644);

	if (fd < 0)
		return sys(err, disp, "cannot create %s", name);
	if (!write_close(fd, text, len, sync))
		return sys(err, disp, "cannot write %s", name);
	return 0;
}

/* Remove name of dirfd and everything under it, following no link. */
static void
rmtree_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_SAFE);
	DIR *dir;
	struct dirent *de;

	if (fd < 0) {
		unlinkat(dirfd, name, 0);
		return;
	}
	if ((dir = fdopendir(fd)) == NULL) {
		close(fd);
		return;
	}
	while ((de = readdir(dir)) != NULL) {
		struct stat st;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
			rmtree_at(fd, de->d_name);
		else
			unlinkat(fd, de->d_name, 0);
	}
	closedir(dir);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* A directory of dirfd, opened without following a link. */
static int
open_dir(int dirfd, const char *name)
{
	return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_SAFE);
}

/* Every ad of a file of the pool's own: fn(arg, ad) takes each. */
static int
load_ads(int dirfd, const char *name, const char *disp, void (*fn)(void *, ca_ad *, int),
    void *arg, ca_diag *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = read_own(dirfd, name, disp, &buf, &len, err);
	ca_reader *r;
	ca_ad *ad;

	if (rc <= 0)
		return rc;
	if ((r = ca_reader_open_mem(disp, buf, len, CA_FMT_AUTO, err)) == NULL) {
		free(buf);
		return -1;
	}
	while ((rc = ca_reader_next(r, &ad, err)) == 1)
		fn(arg, ad, ca_reader_ad_line(r));
	ca_reader_close(r);
	free(buf);
	if (rc < 0) {
		err->file = disp;
		err->status = CA_EX_SYSTEM;
		return -1;
	}
	return 1;
}

static int
parse_int(const char *buf, int64_t *v)
{
	char *end;

	errno = 0;
	long long x = strtoll(buf, &end, 10);
	if (end == buf || errno != 0 || (*end != '\0' && *end != '\n') || x < 0)
		return -1;
	*v = x;
	return 0;
}

static int
read_int(int dirfd, const char *name, const char *disp, int64_t *v, bool need, ca_diag *err)
{
	char *buf = NULL;
	size_t len;
	int rc = read_own(dirfd, name, disp, &buf, &len, err);

	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (!need)
			return 0;
		ca_diag_set(err, CA_EX_SYSTEM, disp, 0, 0, "%s is missing", name);
		return -1;
	}
	rc = parse_int(buf, v);
	free(buf);
	if (rc < 0) {
		ca_diag_set(err, CA_EX_SYSTEM, disp, 0, 0, "%s does not hold a number", name);
		return -1;
	}
	return 0;
}

/* ---- saving ---- */

struct adfile {
	FILE *fp;
	char *buf;		/* fp's (ca_fdopen_ads) */
	ca_writer *w;
	bool bad, refused;
};

static int
adfile_open(struct adfile *f, int dirfd, const char *name, const char *disp, ca_diag *err)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_SAFE, 0644);

	*f = (struct adfile){ 0 };
	if (fd < 0 || (f->fp = ca_fdopen_ads(fd, &f->buf)) == NULL) {
		if (fd >= 0)
			close(fd);
		return sys(err, disp, "cannot create %s", name);
	}
	f->w = ca_writer_open(f->fp, CA_FMT_LONG, false);
	return 0;
}

static void
adfile_put(struct adfile *f, const ca_ad *ad)
{
	if (ca_writer_put(f->w, ad) < 0) {
		if (errno == EILSEQ)
			f->refused = true;
		else
			f->bad = true;
	}
}

static int
adfile_close(struct adfile *f, bool sync, const char *name, const char *disp, ca_diag *err)
{
	bool bad = ca_writer_close(f->w) < 0 || f->bad;

	bad |= fflush(f->fp) != 0 || ferror(f->fp) || (sync && fsync(fileno(f->fp)) < 0);
	bad |= fclose(f->fp) != 0;
	free(f->buf);
	if (bad)
		return sys(err, disp, "cannot write %s", name);
	if (f->refused) {
		ca_diag_set(err, CA_EX_SYSTEM, disp, 0, 0, "%s: an ad could not be written in the "
		    "long format", name);
		return -1;
	}
	return 0;
}

int
ca_pool_save(ca_pool *p, int dirfd, bool sync, ca_diag *err)
{
	struct adfile f;
	char num[32];

	snprintf(num, sizeof num, "%lld\n", (long long)p->clock);
	if (write_new(dirfd, "clock", num, strlen(num), sync, err, "clock") < 0)
		return -1;
	snprintf(num, sizeof num, "%lld\n", (long long)p->cluster);
	if (write_new(dirfd, "cluster", num, strlen(num), sync, err, "cluster") < 0)
		return -1;
	if (adfile_open(&f, dirfd, "acct.ads", "acct.ads", err) < 0)
		return -1;
	for (size_t i = 0; i < p->acct.recs.n; i++)
		if (!p->acct.recs.at[i]->deleted)
			adfile_put(&f, ca_acct_rec_ad(&p->acct, p->acct.recs.at[i]));
	if (adfile_close(&f, sync, "acct.ads", "acct.ads", err) < 0)
		return -1;
	if (adfile_open(&f, dirfd, "jobs.ads", "jobs.ads", err) < 0)
		return -1;
	for (size_t i = 0; i < p->jobs.n; i++)
		adfile_put(&f, p->jobs.at[i]);
	if (adfile_close(&f, sync, "jobs.ads", "jobs.ads", err) < 0)
		return -1;
	if (mkdirat(dirfd, "slots", 0755) < 0 && errno != EEXIST)
		return sys(err, NULL, "cannot make slots/");
	int sfd = open_dir(dirfd, "slots");
	if (sfd < 0)
		return sys(err, NULL, "cannot open slots/");
	for (size_t c = 0; c < p->classes.n; c++) {
		char name[PATH_MAX];
		snprintf(name, sizeof name, "%s.ads", p->classes.at[c].name);
		if (adfile_open(&f, sfd, name, name, err) < 0) {
			close(sfd);
			return -1;
		}
		for (size_t i = 0, n = ca_pool_nslots(p, c); i < n; i++)
			if (ca_pool_slot(p, c, i) != NULL)
				adfile_put(&f, ca_pool_slot(p, c, i));
		if (adfile_close(&f, sync, name, name, err) < 0) {
			close(sfd);
			return -1;
		}
	}
	if (sync && fsync(sfd) < 0) {
		close(sfd);
		return sys(err, NULL, "cannot sync slots/");
	}
	close(sfd);
	return 0;
}

/* ---- finishing a commit: the logs appended once, the files taken removed ---- */

static int
append_file(int from, const char *name, int logfd, const char *logname, const char *disp,
    ca_diag *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = read_own(from, name, disp, &buf, &len, err);

	if (rc <= 0 || len == 0) {
		free(buf);
		return rc < 0 ? -1 : 0;
	}
	int fd = openat(logfd, logname, O_WRONLY | O_APPEND | O_CREAT | O_SAFE, 0644);
	bool ok = fd >= 0 && write_close(fd, buf, len, false);
	free(buf);
	if (!ok)
		return sys(err, disp, "cannot append to log/%s", logname);
	return 0;
}

/* Remove the files a generation took, exactly those (the same inode, not
 * changed since, as .inodes has them: "DIR DEV INO CTIME NAME" lines, the
 * change time as seconds.nanoseconds): one put back under the same name
 * meanwhile is a new submission, even on a reused inode. */
static void
remove_taken(int statefd, int genfd)
{
	char *buf = NULL, *line, *nl;
	size_t len;
	ca_diag err;

	if (read_own(genfd, ".inodes", ".inodes", &buf, &len, &err) <= 0)
		return;
	for (line = buf; *line && (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
		unsigned long long dev, ino, cs, cn;
		char dir[16];
		int off = 0, dfd;
		struct stat st;
		*nl = '\0';
		if (sscanf(line, "%15s %llu %llu %llu.%llu %n", dir, &dev, &ino, &cs, &cn, &off) != 5 ||
		    off == 0 ||
		    (strcmp(dir, "incoming") != 0 && strcmp(dir, "events") != 0))
			continue;
		if ((dfd = open_dir(statefd, dir)) < 0)
			continue;
		if (fstatat(dfd, line + off, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino &&
		    (unsigned long long)st.st_ctim.tv_sec == cs &&
		    (unsigned long long)st.st_ctim.tv_nsec == cn)
			unlinkat(dfd, line + off, 0);
		close(dfd);
	}
	free(buf);
}

static int
finish(ca_pool_dir *d, int64_t g, ca_diag *err)
{
	char name[64], *buf = NULL;
	size_t len;
	int gfd, lfd, rc = -1;
	struct stat st;

	snprintf(name, sizeof name, "gen.%lld", (long long)g);
	if ((gfd = open_dir(d->fd, name)) < 0)
		return sys(err, d->path, "cannot open %s", name);
	if (fstatat(gfd, ".done", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		close(gfd);
		return 0;
	}
	if (mkdirat(d->fd, "log", 0755) < 0 && errno != EEXIST) {
		close(gfd);
		return sys(err, d->path, "cannot make log/");
	}
	if ((lfd = open_dir(d->fd, "log")) < 0) {
		close(gfd);
		return sys(err, d->path, "cannot open log/ (it must be a directory)");
	}
	int r = read_own(gfd, ".logsize", name, &buf, &len, err);
	if (r < 0)
		goto out;
	if (r > 0) {
		/* a finish cut short: the logs back to their sizes before it */
		char *line = buf, *nl;
		for (; *line && (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
			char f[64], size[32];
			*nl = '\0';
			if (sscanf(line, "%63s %31s", f, size) != 2)
				continue;
			if (strcmp(size, "-") == 0) {
				unlinkat(lfd, f, 0);
				continue;
			}
			int fd = openat(lfd, f, O_WRONLY | O_SAFE);
			int64_t sz;
			if (fd < 0 || parse_int(size, &sz) < 0 || ftruncate(fd, sz) < 0) {
				sys(err, d->path, "cannot cut log/%s back to %s bytes", f, size);
				if (fd >= 0)
					close(fd);
				goto out;
			}
			close(fd);
		}
	} else {
		strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < NLOGS; i++) {
			if (fstatat(lfd, log_names[i], &st, AT_SYMLINK_NOFOLLOW) == 0)
				strbuf_addf(&sb, "%s %lld\n", log_names[i], (long long)st.st_size);
			else
				strbuf_addf(&sb, "%s -\n", log_names[i]);
		}
		r = write_new(gfd, ".logsize.tmp", sb.buf, sb.len, d->sync, err, name);
		strbuf_release(&sb);
		if (r < 0)
			goto out;
		if (renameat(gfd, ".logsize.tmp", gfd, ".logsize") < 0) {
			sys(err, name, "cannot rename .logsize.tmp");
			goto out;
		}
	}
	for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++)
		if (append_file(gfd, logs[i].gen, lfd, logs[i].log, name, err) < 0)
			goto out;
	remove_taken(d->fd, gfd);
	if (write_new(gfd, ".done", "", 0, false, err, name) < 0)
		goto out;
	rc = 0;
out:
	free(buf);
	close(lfd);
	close(gfd);
	return rc;
}

/* ---- opening, loading ---- */

static int
take_lock(int fd, const char *path, ca_diag *err)
{
	int l = openat(fd, "lock", O_RDWR | O_CREAT | O_SAFE, 0600);

	if (l < 0)
		return sys(err, path, "cannot open its lock file (if lock is a symbolic link, "
		    "remove it)");
	while (flock(l, LOCK_EX) < 0)
		if (errno != EINTR) {
			sys(err, path, "cannot lock");
			close(l);
			return -1;
		}
	return l;
}

static void
self_of(ca_pool_dir *d)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	d->self = geteuid();
	if (getpwuid_r(d->self, &pw, buf, sizeof buf, &res) == 0 && res != NULL)
		d->selfname = ca_xstrndup(pw.pw_name, strlen(pw.pw_name));
}

int
ca_pool_dir_open(ca_pool_dir *d, const char *statedir, ca_diag *err)
{
	struct stat st;
	int64_t n;

	*d = (ca_pool_dir){ statedir, -1, -1, 0, -1, 0, true, { 0 }, 0, NULL };
	self_of(d);
	if ((d->fd = open(statedir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    fstatat(d->fd, "current", &st, AT_SYMLINK_NOFOLLOW) < 0) {
		ca_diag_set(err, CA_EX_SYSTEM, statedir, 0, 0,
		    "not a pool state directory (run pool-cycle --init)");
		return -1;
	}
	if ((d->lock = take_lock(d->fd, statedir, err)) < 0)
		return -1;
	if (read_int(d->fd, "current", statedir, &n, true, err) < 0) {
		snprintf(err->msg, sizeof err->msg, "current: not a generation number (restore "
		    "it from a backup, or write the number of the newest whole gen.N/ into it)");
		return -1;
	}
	d->gen = n;
	/* a cycle that did not commit, or old generations */
	DIR *dir = fdopendir(dup(d->fd));
	struct dirent *de;
	ca_vec(char *) stray = CA_VEC_INIT;
	while (dir != NULL && (de = readdir(dir)) != NULL) {
		int64_t g;
		if (strncmp(de->d_name, "gen.", 4) != 0)
			continue;
		if (parse_int(de->d_name + 4, &g) < 0 || (g != n && g != n - 1))
			*ca_vec_push(&stray) = ca_xstrndup(de->d_name, strlen(de->d_name));
	}
	if (dir != NULL)
		closedir(dir);
	for (size_t i = 0; i < stray.n; i++) {
		rmtree_at(d->fd, stray.at[i]);
		free(stray.at[i]);
	}
	ca_vec_free(&stray);
	unlinkat(d->fd, "current.tmp", 0);
	return finish(d, n, err);
}

void
ca_pool_dir_close(ca_pool_dir *d)
{
	ca_pool_dir_abort(d);
	if (d->lock >= 0)
		close(d->lock);	/* the lock goes with it */
	if (d->fd >= 0)
		close(d->fd);
	free(d->selfname);
	d->lock = d->fd = -1;
	d->selfname = NULL;
}

struct loader {
	ca_pool *p;
	size_t cls;
	ca_diag *err;
	bool bad;
};

static void
load_job(void *arg, ca_ad *ad, int line)
{
	ca_pool_add_job(((struct loader *)arg)->p, ad);
}

static void
load_acct(void *arg, ca_ad *ad, int line)
{
	struct loader *l = arg;
	ca_diag e;

	if (ca_pool_add_acct(l->p, ad, &e) < 0 && !l->bad) {
		*l->err = e;
		l->err->line = line;
		l->bad = true;
	}
}

static void
load_slot(void *arg, ca_ad *ad, int line)
{
	struct loader *l = arg;
	ca_diag e;

	ca_pool_add_slot(l->p, l->cls, ad, l->p->clock, &e);
}

int
ca_pool_dir_load(ca_pool_dir *d, ca_pool *p, ca_diag *err)
{
	char path[PATH_MAX], name[64];
	struct loader l = { p, 0, err, false };
	int gfd, sfd = -1, rc = -1;
	int64_t clock, cluster = 0;

	snprintf(path, sizeof path, "%s/conf", d->path);
	if (access(path, F_OK) < 0) {
		ca_diag_set(err, CA_EX_SYSTEM, path, 0, 0, "the pool directory is gone");
		return -1;
	}
	if (ca_pool_configure(p, path, err) < 0)
		return -1;
	snprintf(name, sizeof name, "gen.%lld", (long long)d->gen);
	if ((gfd = open_dir(d->fd, name)) < 0)
		return sys(err, d->path, "cannot open %s", name);
	if (read_int(gfd, "clock", name, &clock, true, err) < 0 ||
	    read_int(gfd, "cluster", name, &cluster, false, err) < 0)
		goto out;
	ca_pool_set_clock(p, clock, cluster);
	p->cx.now = clock;
	if (load_ads(gfd, "acct.ads", "acct.ads", load_acct, &l, err) < 0 || l.bad)
		goto out;
	if (load_ads(gfd, "jobs.ads", "jobs.ads", load_job, &l, err) < 0)
		goto out;
	if ((sfd = open_dir(gfd, "slots")) < 0) {
		sys(err, name, "cannot open slots/");
		goto out;
	}
	for (size_t c = 0; c < p->classes.n; c++) {
		char f[PATH_MAX];
		snprintf(f, sizeof f, "%s.ads", p->classes.at[c].name);
		l.cls = c;
		if (load_ads(sfd, f, "slots", load_slot, &l, err) < 0)
			goto out;
	}
	/* slots of a class whose configuration is gone */
	DIR *dir = fdopendir(dup(sfd));
	struct dirent *de;
	bool missing = false;
	while (dir != NULL && (de = readdir(dir)) != NULL && !missing) {
		size_t n = strlen(de->d_name);
		if (n < 5 || strcmp(de->d_name + n - 4, ".ads") != 0)
			continue;
		missing = true;
		for (size_t c = 0; c < p->classes.n && missing; c++)
			missing = strlen(p->classes.at[c].name) != n - 4 ||
			    strncmp(p->classes.at[c].name, de->d_name, n - 4) != 0;
		if (missing)
			ca_diag_set(err, CA_EX_SYSTEM, path, 0, 0, "startd/%.*s.config is missing "
			    "(the class has slots in %s)", (int)(n - 4), de->d_name, name);
	}
	if (dir != NULL)
		closedir(dir);
	if (missing)
		goto out;
	ca_pool_index(p);
	rc = 0;
out:
	if (sfd >= 0)
		close(sfd);
	close(gfd);
	return rc;
}

/* ---- the spool ---- */

/* A name for messages and for rejected/: bytes below space, DEL and '%'
 * as %HH. */
static char *
safe_name(const char *s)
{
	strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f || c == '%')
			strbuf_addf(&sb, "%%%02X", c);
		else
			strbuf_addc(&sb, (char)c);
	}
	return strbuf_detach(&sb, NULL);
}

static bool
has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static int
by_fname(const void *a, const void *b)
{
	return strcmp(((const ca_pool_file *)a)->fname, ((const ca_pool_file *)b)->fname);
}

/* DIR/rejected, made when missing; anything else of that name (a link or a
 * directory a user planted there) is moved out of the way first. */
static int
open_rejected(ca_pool_dir *d, int dfd, const char *dirname, ca_pool *p, ca_diag *err)
{
	struct stat st;
	int r;

	if (fstatat(dfd, "rejected", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (!S_ISDIR(st.st_mode) || st.st_uid != d->self)) {
		char aside[64];
		snprintf(aside, sizeof aside, ".planted-rejected.%llu", (unsigned long long)st.st_ino);
		if (renameat(dfd, "rejected", dfd, aside) < 0)
			return sys(err, d->path, "%s/rejected is not the pool's directory and cannot "
			    "be moved aside", dirname);
		ca_pool_warn(p, NULL, "%s/%s/rejected was not the pool's own directory: moved to "
		    "%s/%s", d->path, dirname, dirname, aside);
	}
	if (mkdirat(dfd, "rejected", 0711) < 0 && errno != EEXIST)
		return sys(err, d->path, "cannot make %s/rejected", dirname);
	if ((r = open_dir(dfd, "rejected")) < 0)
		return sys(err, d->path, "cannot open %s/rejected", dirname);
	return r;
}

static int
reject_at(ca_pool_dir *d, ca_pool *p, int dfd, const char *dirname, ca_pool_file *f,
    ca_diag *err)
{
	int rfd = open_rejected(d, dfd, dirname, p, err);
	char *base = safe_name(f->fname), *target = NULL;
	strbuf t = STRBUF_INIT;
	int rc = -1;

	if (rfd < 0) {
		free(base);
		return -1;
	}
	for (int k = 0; k < 10000; k++) {
		strbuf_reset(&t);
		strbuf_adds(&t, base);
		if (k > 0)
			strbuf_addf(&t, ".%d", k);
		if (renameat2(dfd, f->fname, rfd, t.buf, RENAME_NOREPLACE) == 0) {
			target = t.buf;
			break;
		}
		if (errno == EINVAL || errno == ENOSYS) {
			/* a file system without RENAME_NOREPLACE: rejected/ is ours alone */
			struct stat st;
			if (fstatat(rfd, t.buf, &st, AT_SYMLINK_NOFOLLOW) == 0)
				continue;
			if (renameat(dfd, f->fname, rfd, t.buf) == 0) {
				target = t.buf;
				break;
			}
		}
		if (errno != EEXIST)
			break;
	}
	if (target == NULL) {
		sys(err, d->path, "cannot move %s/%s to %s/rejected/", dirname, base, dirname);
		goto out;
	}
	/* the reason beside it (a full disk only loses the reason, not the file) */
	strbuf why = STRBUF_INIT;
	strbuf_addf(&why, "%s\n", f->why.msg);
	strbuf_adds(&t, ".why");
	ca_diag e2;
	(void)write_new(rfd, t.buf, why.buf, why.len, false, &e2, d->path);
	strbuf_release(&why);
	ca_pool_warn(p, NULL, "%s/%s/%s: refused (%s), moved to %s/%s/rejected/%s", d->path,
	    dirname, base, f->why.msg, d->path, dirname, target);
	rc = 0;
out:
	strbuf_release(&t);
	free(base);
	close(rfd);
	return rc;
}

int
ca_pool_dir_reject(ca_pool_dir *d, ca_pool *p, bool submit, ca_pool_file *f, ca_diag *err)
{
	const char *dirname = submit ? "incoming" : "events";
	int dfd = open_dir(d->fd, dirname);

	if (dfd < 0)
		return sys(err, d->path, "cannot open %s/", dirname);
	int rc = reject_at(d, p, dfd, dirname, f, err);
	close(dfd);
	return rc;
}

void
ca_pool_files_free(ca_pool_file *files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		ca_pool_file_clear(&files[i]);
		free((char *)files[i].name);
		free((char *)files[i].fname);
	}
	free(files);
}

/* Read one file of the spool into f; its refusals are f's (state REJECTED). */
static void
take_file(ca_pool_dir *d, ca_pool *p, int dfd, bool submit, ca_pool_file *f)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int fd;

	f->state = CA_PF_TAKEN;
	if (has_control(f->fname)) {
		ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "a file name with control "
		    "characters (renamed %s)", f->name);
		f->state = CA_PF_REJECTED;
		return;
	}
	fd = openat(dfd, f->fname, O_RDONLY | O_SAFE | O_NONBLOCK);
	if (fd < 0) {
		ca_diag_errno(&f->why, NULL, errno, "%s", errno == ELOOP ?
		    "a symbolic link (only regular files are read)" : "cannot open it");
		f->state = CA_PF_REJECTED;
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "not a regular file");
		f->state = CA_PF_REJECTED;
	} else if (st.st_nlink != 1) {
		ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "a file with %ju links (a hard "
		    "link could pass another's file as its own)", (uintmax_t)st.st_nlink);
		f->state = CA_PF_REJECTED;
	} else if (st.st_size > p->lim.max_file_bytes) {
		ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "%lld bytes, more than %lld "
		    "(POOL_MAX_FILE_SIZE)", (long long)st.st_size, (long long)p->lim.max_file_bytes);
		f->state = CA_PF_REJECTED;
	} else if (slurp_fd(fd, p->lim.max_file_bytes, &buf, &len) < 0) {
		ca_diag_errno(&f->why, NULL, errno, "cannot read it");
		f->state = CA_PF_REJECTED;
	}
	close(fd);
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
	if (f->state == CA_PF_REJECTED)
		return;
	if (submit) {
		struct passwd pw, *res = NULL;
		char pwbuf[4096];
		if (getpwuid_r(st.st_uid, &pw, pwbuf, sizeof pwbuf, &res) != 0 || res == NULL) {
			ca_diag_set(&f->why, CA_EX_INPUT, NULL, 0, 0, "its owner, uid %lu, has no "
			    "user name", (unsigned long)st.st_uid);
			f->state = CA_PF_REJECTED;
		} else
			ca_pool_intake_submit(p, f, buf, len, pw.pw_name,
			    st.st_uid == d->self || ca_pool_super_user(p, pw.pw_name, d->selfname));
	} else
		ca_pool_intake_events(p, f, buf, len);
	free(buf);
}

int
ca_pool_dir_scan(ca_pool_dir *d, ca_pool *p, bool submit, ca_pool_file **files, size_t *n,
    ca_diag *err)
{
	const char *dirname = submit ? "incoming" : "events";
	ca_vec(ca_pool_file) v = CA_VEC_INIT;
	int dfd = open_dir(d->fd, dirname);
	DIR *dir;
	struct dirent *de;

	*files = NULL;
	*n = 0;
	if (dfd < 0 && errno == ENOENT)
		return 0;
	if (dfd < 0)
		return sys(err, d->path, "cannot open %s/ (it must be a directory of the pool's own)",
		    dirname);
	if ((dir = fdopendir(dup(dfd))) == NULL) {
		close(dfd);
		return sys(err, d->path, "cannot read %s/", dirname);
	}
	while ((de = readdir(dir)) != NULL) {
		size_t l = strlen(de->d_name);
		if (de->d_name[0] == '.' || l < 5 || strcmp(de->d_name + l - 4, ".ads") != 0)
			continue;
		ca_pool_file f = { 0 };
		f.fname = ca_xstrndup(de->d_name, l);
		f.name = safe_name(de->d_name);
		*ca_vec_push(&v) = f;
	}
	closedir(dir);
	if (v.n > 0)
		qsort(v.at, v.n, sizeof *v.at, by_fname);
	for (size_t i = 0; i < v.n; i++) {
		take_file(d, p, dfd, submit, &v.at[i]);
		if (v.at[i].state == CA_PF_REJECTED && reject_at(d, p, dfd, dirname, &v.at[i],
		    err) < 0) {
			close(dfd);
			ca_pool_files_free(v.at, v.n);
			return -1;
		}
	}
	close(dfd);
	*files = v.at;
	*n = v.n;
	return 0;
}

/* ---- a generation ---- */

static int
sink(ca_pool_dir *d, const char *name, FILE **fp, ca_diag *err)
{
	int fd = openat(d->newfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_SAFE, 0644);

	if (fd < 0 || (*fp = fdopen(fd, "w")) == NULL) {
		if (fd >= 0)
			close(fd);
		return sys(err, d->path, "cannot create gen.%lld/%s", (long long)d->newgen, name);
	}
	return 0;
}

int
ca_pool_dir_begin(ca_pool_dir *d, ca_diag *err)
{
	char name[64];

	d->newgen = d->gen + 1;
	snprintf(name, sizeof name, "gen.%lld", (long long)d->newgen);
	rmtree_at(d->fd, name);
	if (mkdirat(d->fd, name, 0755) < 0 || (d->newfd = open_dir(d->fd, name)) < 0)
		return sys(err, d->path, "cannot make %s", name);
	if (sink(d, "jobs.log", &d->sinks.jobs_log, err) < 0 ||
	    sink(d, "history.ads", &d->sinks.history, err) < 0 ||
	    sink(d, "startd.log", &d->sinks.startd_log, err) < 0 ||
	    sink(d, "negotiator.txt", &d->sinks.negotiator, err) < 0 ||
	    sink(d, "matches.ads", &d->sinks.matches, err) < 0 ||
	    sink(d, "exits.ads", &d->sinks.exits, err) < 0)
		return -1;
	return 0;
}

static int
close_sinks(ca_pool_dir *d, bool sync)
{
	FILE **all[] = { &d->sinks.jobs_log, &d->sinks.history, &d->sinks.startd_log,
	    &d->sinks.negotiator, &d->sinks.matches, &d->sinks.exits };
	int rc = 0;

	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		FILE *fp = *all[i];
		if (fp == NULL)
			continue;
		if (fflush(fp) != 0 || ferror(fp) || (sync && fsync(fileno(fp)) < 0))
			rc = -1;
		if (fclose(fp) != 0)
			rc = -1;
		*all[i] = NULL;
	}
	return rc;
}

void
ca_pool_dir_abort(ca_pool_dir *d)
{
	close_sinks(d, false);
	if (d->newfd >= 0)
		close(d->newfd);
	d->newfd = -1;
}

/* The lists of the files taken: their names (incoming, events) and, for
 * the removal, where they were (.inodes). */
static int
write_lists(ca_pool_dir *d, const ca_pool_file *ev, size_t nev, const ca_pool_file *subs,
    size_t nsub, ca_diag *err)
{
	strbuf names[2] = { STRBUF_INIT, STRBUF_INIT }, ino = STRBUF_INIT;
	const ca_pool_file *f[2] = { subs, ev };
	size_t n[2] = { nsub, nev };
	const char *dir[2] = { "incoming", "events" };
	int rc = 0;

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < n[k]; i++)
			if (f[k][i].state == CA_PF_TAKEN && f[k][i].fname != NULL) {
				strbuf_addf(&names[k], "%s/%s\n", dir[k], f[k][i].fname);
				strbuf_addf(&ino, "%s %llu %llu %lld.%09lld %s\n", dir[k],
				    (unsigned long long)f[k][i].dev, (unsigned long long)f[k][i].ino,
				    (long long)(f[k][i].ctime_ns / 1000000000),
				    (long long)(f[k][i].ctime_ns % 1000000000), f[k][i].fname);
			}
	for (int k = 0; k < 2 && rc == 0; k++)
		rc = write_new(d->newfd, dir[k], names[k].buf ? names[k].buf : "", names[k].len,
		    d->sync, err, d->path);
	if (rc == 0)
		rc = write_new(d->newfd, ".inodes", ino.buf ? ino.buf : "", ino.len, d->sync, err,
		    d->path);
	strbuf_release(&names[0]);
	strbuf_release(&names[1]);
	strbuf_release(&ino);
	return rc;
}

int
ca_pool_dir_commit(ca_pool_dir *d, ca_pool *p, int64_t newgen, const ca_pool_file *ev,
    size_t nev, const ca_pool_file *subs, size_t nsub, ca_diag *err)
{
	char name[64], num[32];

	if (close_sinks(d, d->sync) < 0)
		return sys(err, d->path, "cannot write the records of gen.%lld",
		    (long long)d->newgen);
	if (write_lists(d, ev, nev, subs, nsub, err) < 0 ||
	    ca_pool_save(p, d->newfd, d->sync, err) < 0)
		return -1;
	if (d->sync && fsync(d->newfd) < 0)
		return sys(err, d->path, "cannot sync gen.%lld", (long long)d->newgen);
	close(d->newfd);
	d->newfd = -1;
	if (newgen != d->newgen) {
		char from[64];
		snprintf(from, sizeof from, "gen.%lld", (long long)d->newgen);
		snprintf(name, sizeof name, "gen.%lld", (long long)newgen);
		rmtree_at(d->fd, name);
		if (renameat(d->fd, from, d->fd, name) < 0)
			return sys(err, d->path, "cannot rename %s to %s", from, name);
		d->newgen = newgen;
	}
	snprintf(num, sizeof num, "%lld\n", (long long)d->newgen);
	if (write_new(d->fd, "current.tmp", num, strlen(num), d->sync, err, d->path) < 0)
		return -1;
	if (d->sync && fsync(d->fd) < 0)
		return sys(err, d->path, "cannot sync");
	if (renameat(d->fd, "current.tmp", d->fd, "current") < 0)
		return sys(err, d->path, "cannot rename current.tmp over current");
	if (d->sync && fsync(d->fd) < 0)
		return sys(err, d->path, "cannot sync");
	int64_t old = d->gen;
	d->gen = d->newgen;
	/* committed: what follows is done again by the next open after a crash */
	if (finish(d, d->gen, err) < 0)
		return -1;
	if (old > 0) {
		snprintf(name, sizeof name, "gen.%lld", (long long)(old - 1));
		rmtree_at(d->fd, name);
	}
	return 0;
}

/* ---- --init ---- */

static int
mkdirs(const char *path, ca_diag *err)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof buf) {
		ca_diag_set(err, CA_EX_SYSTEM, path, 0, 0, "the path is too long");
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (size_t i = 1; i <= n; i++)
		if (buf[i] == '/' || buf[i] == '\0') {
			char c = buf[i];
			buf[i] = '\0';
			if (mkdir(buf, 0755) < 0 && errno != EEXIST)
				return sys(err, path, "cannot make it");
			buf[i] = c;
		}
	return 0;
}

/* A directory of the pool with its mode (made, or an existing one checked). */
static int
spool_dir(int dirfd, const char *name, mode_t mode, const char *path, ca_diag *err)
{
	struct stat st;

	if (mkdirat(dirfd, name, mode) < 0 && errno != EEXIST)
		return sys(err, path, "cannot make %s/", name);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode)) {
		ca_diag_set(err, CA_EX_SYSTEM, path, 0, 0, "%s is not a directory", name);
		return -1;
	}
	if (fchmodat(dirfd, name, mode, 0) < 0)
		return sys(err, path, "cannot set the mode of %s/", name);
	return 0;
}

struct initload {
	ca_vec(ca_ad *) ads;
};

static void
collect(void *arg, ca_ad *ad, int line)
{
	*ca_vec_push(&((struct initload *)arg)->ads) = ad;
}

static int
hosts_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
ca_pool_dir_init(const char *pooldir, const char *statedir, int64_t now, ca_pool *p,
    ca_diag *err)
{
	char real[PATH_MAX], path[PATH_MAX + 64];
	struct stat st;
	int fd = -1, lock = -1, gfd = -1, pfd = -1, rc = -1;
	strbuf map = STRBUF_INIT;

	if (realpath(pooldir, real) == NULL) {
		ca_diag_errno(err, pooldir, errno, "no such pool directory");
		return -1;
	}
	snprintf(path, sizeof path, "%s/pool.config", real);
	if (access(path, F_OK) < 0) {
		ca_diag_set(err, CA_EX_SYSTEM, real, 0, 0, "no pool.config");
		return -1;
	}
	if (mkdirs(statedir, err) < 0)
		return -1;
	if ((fd = open(statedir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return sys(err, statedir, "cannot open it");
	if ((lock = take_lock(fd, statedir, err)) < 0)
		goto out;
	if (fstatat(fd, "current", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		ca_diag_set(err, CA_EX_SYSTEM, statedir, 0, 0, "already a pool state directory");
		goto out;
	}
	if (ca_pool_configure(p, real, err) < 0)
		goto out;
	if ((pfd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		sys(err, real, "cannot open it");
		goto out;
	}
	for (size_t c = 0; c < p->classes.n; c++) {
		struct initload l = { CA_VEC_INIT };
		char f[PATH_MAX], disp[2 * PATH_MAX + 8];
		snprintf(f, sizeof f, "startd/%s.ads", p->classes.at[c].name);
		snprintf(disp, sizeof disp, "%s/%s", real, f);
		int r = load_ads(pfd, f, disp, collect, &l, err);
		if (r == 0)
			ca_diag_set(err, CA_EX_SYSTEM, disp, 0, 0, "missing: the machines of class "
			    "%s (beside its .config)", p->classes.at[c].name);
		if (r <= 0 || ca_pool_add_machines(p, c, l.ads.at, l.ads.n, now, err) < 0) {
			if (r <= 0)
				for (size_t i = 0; i < l.ads.n; i++)
					ca_ad_free(l.ads.at[i]);
			ca_vec_free(&l.ads);
			goto out;
		}
		ca_vec_free(&l.ads);
		/* hosts.map: each machine (its Machine) and its class */
		ca_vec(char *) hosts = CA_VEC_INIT;
		for (size_t i = 0, n = ca_pool_nslots(p, c); i < n; i++) {
			const ca_ad *s = ca_pool_slot(p, c, i);
			const char *m = NULL;
			if (s != NULL && ca_get_str(&p->cx, s, "Machine", &m, NULL) == 1)
				*ca_vec_push(&hosts) = ca_xstrndup(m, strlen(m));
		}
		if (hosts.n > 0)
			qsort(hosts.at, hosts.n, sizeof *hosts.at, hosts_cmp);
		for (size_t i = 0; i < hosts.n; i++) {
			if (i == 0 || strcmp(hosts.at[i], hosts.at[i - 1]) != 0)
				strbuf_addf(&map, "%s %s\n", hosts.at[i], p->classes.at[c].name);
		}
		for (size_t i = 0; i < hosts.n; i++)
			free(hosts.at[i]);
		ca_vec_free(&hosts);
		ca_arena_reset(&p->cx.scratch);
	}
	{
		struct initload l = { CA_VEC_INIT };
		snprintf(path, sizeof path, "%s/accountant.ads", real);
		int r = load_ads(pfd, "accountant.ads", path, collect, &l, err);
		bool bad = r < 0;
		for (size_t i = 0; i < l.ads.n; i++) {
			ca_diag e;
			if (!bad && ca_pool_add_acct(p, l.ads.at[i], &e) < 0) {
				*err = e;
				err->file = "accountant.ads";
				err->status = CA_EX_SYSTEM;
				bad = true;
			} else if (bad)
				ca_ad_free(l.ads.at[i]);
		}
		ca_vec_free(&l.ads);
		if (bad)
			goto out;
	}
	if (spool_dir(fd, "incoming", 01733, statedir, err) < 0 ||
	    spool_dir(fd, "events", 0755, statedir, err) < 0 ||
	    spool_dir(fd, "log", 0755, statedir, err) < 0)
		goto out;
	int sub = open_dir(fd, "incoming");
	if (sub < 0 || spool_dir(sub, "rejected", 0711, statedir, err) < 0) {
		if (sub >= 0)
			close(sub);
		else
			sys(err, statedir, "cannot open incoming/");
		goto out;
	}
	close(sub);
	if ((sub = open_dir(fd, "events")) < 0 || spool_dir(sub, "rejected", 0711, statedir,
	    err) < 0) {
		if (sub >= 0)
			close(sub);
		else
			sys(err, statedir, "cannot open events/");
		goto out;
	}
	close(sub);
	rmtree_at(fd, "gen.0");
	if (mkdirat(fd, "gen.0", 0755) < 0 || (gfd = open_dir(fd, "gen.0")) < 0) {
		sys(err, statedir, "cannot make gen.0");
		goto out;
	}
	unlinkat(fd, "conf", 0);
	if (symlinkat(real, fd, "conf") < 0) {
		sys(err, statedir, "cannot make the link conf");
		goto out;
	}
	ca_pool_set_clock(p, now, 0);
	if (ca_pool_save(p, gfd, true, err) < 0 ||
	    write_new(fd, "hosts.map", map.buf ? map.buf : "", map.len, true, err, statedir) < 0 ||
	    write_new(gfd, ".done", "", 0, false, err, statedir) < 0 ||
	    write_new(fd, "current.tmp", "0\n", 2, true, err, statedir) < 0)
		goto out;
	if (renameat(fd, "current.tmp", fd, "current") < 0 || fsync(fd) < 0) {
		sys(err, statedir, "cannot write current");
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&map);
	if (gfd >= 0)
		close(gfd);
	if (pfd >= 0)
		close(pfd);
	if (lock >= 0)
		close(lock);
	if (fd >= 0)
		close(fd);
	return rc;
}
