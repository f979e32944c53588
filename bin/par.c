/* par.c - a program's pass over a long-format file on several cores.
 *
 * The parent cuts the file into parts, PARTS_A_WORKER for each worker. A
 * cut is made only just after a blank line, where an ad starts whose group
 * is not that of the ad before it, both read by the library's reader from
 * the text around the cut: a blank line ends an ad (a good one, or the
 * lines dropped after a bad one), so a reader started there reads what a
 * reader of the whole file reads from there on.
 *
 * Each part goes over a socket to a worker that has room for it, the one
 * with the fewest parts under way (free_worker): a worker on a core that
 * runs slower for a while gets fewer parts. The worker maps its part of
 * the file (part_text) and runs the program's pass on it, the ads going to
 * one of its memory files in turn and the messages to a temporary file; it
 * sends back the state the parent must merge and the messages, which the
 * parent keeps with the part until it takes it (hear). The parent takes the
 * parts in order: merges the state, relays the messages, maps the memory
 * file and writes the ads. A worker has at most AHEAD parts under way and
 * BUFS done and not yet taken, so memory does not grow with the file.
 * A worker numbers the lines of its part from 1, marks them in its messages
 * (cli_lines_relative) and counts them; the parent, which has taken every
 * part before, knows where the part starts and relays the file's own
 * lines. So only the workers read the parts: counting the lines in the
 * parent read the whole file a second time, a sixth of the work.
 * A part that cannot stand as its worker ran it (merge says so), or a
 * worker that fails, stops the workers: the parent runs that part and
 * every part after it itself, as one process would.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "cli.h"
#include "par.h"

#define AUTO_MIN	((int64_t)4 << 20)	/* smaller files: one process, unless asked */
#define PART_MAX	((int64_t)8 << 20)
#define PARTS_A_WORKER	8
#define WORKERS_MAX	8
#define BUFS		3	/* a worker's memory files: parts it did, not yet taken */
#define AHEAD		2	/* parts a worker was given and has not answered */
#define WINDOW		((size_t)256 << 10)	/* text read at a time to find a cut */
#define SCAN_MAX	4	/* parts' worth of text looked through for a cut */

struct part {
	int64_t start, end;	/* bytes of the file */
	int64_t line;		/* the line at start as the reader numbers it: 1 in
				 * a worker, whose messages the parent rebases */
};

/* A worker's answer for a part: then st, err and out bytes. */
struct head {
	uint64_t st, err, out;
	uint64_t ads;		/* ads read */
	uint64_t lines;		/* the part's lines */
	int64_t status;		/* the worker's exit status so far */
};

/* What the parent knows of a part cut and not yet taken: where it is,
 * the worker given it (-1: none) and that worker's memory file for its
 * ads; its answer once it came. Part k is kept in P.ring[k % RING]: a
 * worker has at most BUFS parts not yet taken, so memory does not grow
 * with the file. */
struct given {
	struct part p;
	int w, buf;
	bool heard;
	struct head h;
	strbuf msg;		/* st, then err */
};
#define RING	(WORKERS_MAX * BUFS)

static struct {
	int fd;
	int64_t size;
	const char *path, *name;
	const par_ops *ops;
	void *arg;
	int n;			/* workers running */
	pid_t pid[WORKERS_MAX];
	int sock[WORKERS_MAX];
	int out[WORKERS_MAX][BUFS];	/* the workers' memory files for their ads */
	/* parts given to each worker, answered by it, taken by the parent */
	size_t sent[WORKERS_MAX], heard[WORKERS_MAX], taken[WORKERS_MAX];
	bool memfd;		/* a worker's are memfds: mapped (sink_grow) */
	strbuf win;		/* text read by the parent */
	struct given ring[RING];
	size_t cut;		/* parts cut so far */
} P;

static struct given *
part_at(size_t k)
{
	return &P.ring[k % RING];
}

/* Move all n bytes between p and fd: a socket (off < 0), sent (out) or
 * read; or a file at off, written or read. False on an error, or at the
 * end of the input (errno EIO: the file shrank, the other side left). */
static bool
move_all(int fd, void *p, size_t n, int64_t off, bool out)
{
	char *c = p;

	while (n > 0) {
		ssize_t k = off < 0 ? (out ? send(fd, c, n, MSG_NOSIGNAL) : read(fd, c, n)) :
		    (out ? pwrite(fd, c, n, (off_t)off) : pread(fd, c, n, (off_t)off));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = EIO;
			return false;
		}
		c += k;
		n -= (size_t)k;
		if (off >= 0)
			off += k;
	}
	return true;
}

/* n bytes of the file at off, in sb; NULL on a read error. */
static const char *
text_at(strbuf *sb, int64_t off, size_t n)
{
	strbuf_reset(sb);
	strbuf_grow(sb, n + 1);
	if (!move_all(P.fd, sb->buf, n, off, false))
		return NULL;
	sb->len = n;
	sb->buf[n] = '\0';
	return sb->buf;
}

static int64_t
min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* The newlines in b[0..n): sixteen bytes at a time where SSE2 is, each
 * match counting -1 in its byte of acc (at most 255 times before the bytes
 * are summed). */
static int64_t
newlines(const char *b, size_t n)
{
	int64_t k = 0;
	size_t i = 0;
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
	while (i + 16 <= n) {
		__m128i acc = zero;
		for (int r = 0; r < 255 && i + 16 <= n; r++, i += 16)
			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b + i)),
			    nl));
		__m128i sum = _mm_sad_epu8(acc, zero);
		k += _mm_cvtsi128_si32(sum) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(sum, sum));
	}
#endif
	for (const char *p = b + i, *e = b + n; (p = memchr(p, '\n', (size_t)(e - p))) != NULL;
	    p++)
		k++;
	return k;
}

/* Is the file the long format, uncompressed? */
static bool
long_format(void)
{
	size_t n = (size_t)min64(P.size, (int64_t)WINDOW);
	const char *b = text_at(&P.win, 0, n);

	if (b == NULL || (n >= 2 && (unsigned char)b[0] == 0x1f && (unsigned char)b[1] == 0x8b))
		return false;
	if (cli_common.in != CA_FMT_AUTO)
		return cli_common.in == CA_FMT_LONG;
	ca_reader *r = ca_reader_open_mem(P.name, b, n, CA_FMT_AUTO, NULL);
	ca_ad *ad;
	ca_diag err;
	if (ca_reader_next(r, &ad, &err) == 1)
		ca_ad_free(ad);
	bool ok = ca_reader_format(r) == CA_FMT_LONG;
	ca_reader_close(r);
	return ok;
}

/* Offset in b (n bytes) just after its last blank line, or 0. */
static size_t
after_last_blank(const char *b, size_t n)
{
	for (size_t i = n; i >= 2; i--)
		if (b[i - 1] == '\n' && b[i - 2] == '\n')
			return i;
	return 0;
}

/* The first cut at or after target (see above); P.size when there is none
 * in SCAN_MAX parts' worth of text (span bytes a part), or on a read
 * error (the part that runs to the end reports it). */
static int64_t
next_cut(int64_t target, int64_t span)
{
	strbuf group = STRBUF_INIT;
	int64_t cut = P.size, limit = target + span * SCAN_MAX;

	for (int64_t s = target; s < P.size && s < limit && cut == P.size;) {
		size_t n = (size_t)min64(P.size - s, (int64_t)WINDOW);
		bool last = s + (int64_t)n == P.size;
		const char *b = text_at(&P.win, s, n);
		if (b == NULL)
			break;
		const char *blank = memmem(b, n, "\n\n", 2);
		size_t from = blank ? (size_t)(blank - b) + 2 : n;
		size_t to = last ? n : after_last_blank(b, n);
		if (to <= from) {	/* no whole ad here: look further */
			s += (int64_t)(blank ? from - 1 : n - 1);
			if (last)
				break;
			continue;
		}
		const char *text = b + from;
		size_t len = to - from, lstart = 0;
		ca_reader *r = ca_reader_open_mem(P.name, text, len, CA_FMT_LONG, NULL);
		int line = 1, rc;
		bool known = false;	/* the group of the ad before */
		ca_ad *ad;
		ca_diag err;
		while (cut == P.size && (rc = ca_reader_next(r, &ad, &err)) != 0) {
			if (rc < 0) {
				known = false;
				continue;
			}
			const char *g = P.ops->group != NULL ? P.ops->group(ad) : "";
			if (known && (P.ops->group == NULL || strcasecmp(g, group.buf) != 0)) {
				for (int want = ca_reader_ad_line(r); line < want; line++) {
					const char *nl = memchr(text + lstart, '\n', len - lstart);
					lstart = (size_t)(nl - text) + 1;
				}
				if (lstart >= 2 && text[lstart - 1] == '\n' && text[lstart - 2] == '\n')
					cut = s + (int64_t)(from + lstart);
			}
			strbuf_reset(&group);
			strbuf_adds(&group, g);
			known = true;
			ca_ad_free(ad);
		}
		ca_reader_close(r);
		s += (int64_t)to;
	}
	strbuf_release(&group);
	return cut;
}

/* A reader of part p, whose text[0..n) is in memory that stays until the
 * pass over it is done: the pass writes out and frees every ad of a part
 * before the next part is read, so the ads keep their lines there. */
static ca_reader *
part_reader(const struct part *p, const char *text, size_t n)
{
	ca_reader *r = ca_reader_open_mem(P.name, text, n, CA_FMT_LONG, NULL);

	ca_reader_mem_stays(r);
	ca_reader_set_line(r, p->line > INT32_MAX ? INT32_MAX : (int)p->line);
	return r;
}

/* The lines of part p, its text[0..n), which reader r has read: counted
 * as it read them, else counted now. */
static uint64_t
part_lines(const ca_reader *r, const struct part *p, const char *text, size_t n)
{
	int after;

	if (p->line <= INT32_MAX / 2 && ca_reader_read_all(r, &after) && after >= p->line)
		return (uint64_t)(after - p->line);
	return (uint64_t)newlines(text, n);
}

/*
 * A worker maps its part of the file rather than reading it: the kernel's
 * copy of the text into a buffer was a tenth of the time. A file cut short
 * under the mapping makes the worker fault (SIGBUS), and a worker that
 * faults ends at once: the parent, which reads with pread, then runs the
 * part itself and reports what it finds there, as for any worker that
 * fails. Where it cannot map, the worker reads. The mapping goes when the
 * part is done (so under CA_SELFCHECK an ad that outlived it faults).
 */
struct mapped {
	char *map;		/* or NULL: the text is in buf */
	size_t len;
	strbuf buf;
};

static void
worker_fault(int sig)
{
	(void)sig;
	_exit(1);
}

static const char *
part_text(const struct part *p, struct mapped *m)
{
	size_t n = (size_t)(p->end - p->start);
	int64_t from = p->start & ~(int64_t)(sysconf(_SC_PAGESIZE) - 1);

	m->len = (size_t)(p->end - from);
	m->map = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, P.fd, (off_t)from);
	if (m->map != MAP_FAILED)
		return m->map + (p->start - from);
	m->map = NULL;
#ifdef CA_SELFCHECK
	strbuf_release(&m->buf);
#endif
	return text_at(&m->buf, p->start, n);
}

static void
part_text_done(struct mapped *m)
{
	if (m->map != NULL)
		munmap(m->map, m->len);
	m->map = NULL;
}

/* A worker's output goes to a memory file (one of BUFS, a part each in
 * turn: the parent writes out the parts done while the worker fills the
 * next), which the parent maps: the ads are not copied through the
 * socket. The worker
 * maps the memfd too, and its writer makes each ad there (the sink's
 * buffer is the mapping, grown with the file), so an ad's text is made
 * once and copied nowhere. Without a memfd the buffer is the heap's and a
 * file on disk gets it at the end of the part, where a full disk is an
 * error, not a fault in the mapping. */
struct sink {
	strbuf out;		/* first: the buffer's grow finds its sink */
	int fd;
	char *map;		/* the memfd mapped, out.cap bytes long */
};

/* A memfd that cannot grow (no memory left for it) ends the worker: the
 * parent then runs the part itself, as for any worker that fails. */
static void
sink_grow(strbuf *sb, size_t need)
{
	struct sink *k = (struct sink *)sb;
	size_t cap = sb->cap > 0 ? sb->cap : (size_t)1 << 20;
	void *m;

	while (cap < need) {
		if (cap > SIZE_MAX / 4)
			_exit(1);
		cap *= 2;
	}
	if (ftruncate(k->fd, (off_t)cap) != 0)
		_exit(1);
	m = k->map != NULL ? mremap(k->map, sb->cap, cap, MREMAP_MAYMOVE) :
	    mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd, 0);
	if (m == MAP_FAILED)
		_exit(1);
	if (k->map == NULL)
		((char *)m)[0] = '\0';
	k->map = m;
	sb->buf = m;
	sb->cap = cap;
}

static void
sink_start(struct sink *k)
{
	if (P.memfd)
		k->out.grow = sink_grow;
	strbuf_reset(&k->out);
}

/* The part's ads are where the parent finds them; false when they cannot
 * be. */
static bool
sink_end(struct sink *k)
{
	return P.memfd || move_all(k->fd, k->out.buf, k->out.len, 0, true);
}

/* A worker: parts in, answers out, until the parent closes the socket. */
static void __attribute__((noreturn))
worker(int w, int s)
{
	strbuf st = STRBUF_INIT, err = STRBUF_INIT;
	struct mapped in = { NULL, 0, STRBUF_INIT };
	FILE *ef = tmpfile();
	struct sink sinks[BUFS];
	struct part p;

	for (int b = 0; b < BUFS; b++)
		sinks[b] = (struct sink){ STRBUF_INIT, P.out[w][b], NULL };
	cli_progress_off();
	cli_lines_relative(P.name);
	struct sigaction sa = { .sa_handler = worker_fault };
	sigaction(SIGBUS, &sa, NULL);
	if (ef == NULL || dup2(fileno(ef), 2) < 0)
		_exit(1);
	for (size_t j = 0; move_all(s, &p, sizeof p, -1, false); j++) {
		size_t n = (size_t)(p.end - p.start);
		const char *text = part_text(&p, &in);
		if (text == NULL)
			_exit(1);
		ca_reader *r = part_reader(&p, text, n);
		struct sink *sink = &sinks[j % BUFS];
		sink_start(sink);
		strbuf_reset(&st);
		size_t ads = P.ops->run(P.arg, r, P.path, &sink->out, &st);
		uint64_t lines = part_lines(r, &p, text, n);
		ca_reader_close(r);
		part_text_done(&in);
		if (!sink_end(sink))
			_exit(1);
		fflush(stderr);
		off_t el = lseek(2, 0, SEEK_END);
		strbuf_reset(&err);
		strbuf_grow(&err, (size_t)el + 1);
		if (el < 0 || pread(2, err.buf, (size_t)el, 0) != el)
			_exit(1);
		struct head h = { st.len, (uint64_t)el, (uint64_t)sink->out.len, ads,
		    lines, cli_status };
		if (!move_all(s, &h, sizeof h, -1, true) || !move_all(s, st.buf, st.len, -1, true) ||
		    !move_all(s, err.buf, (size_t)el, -1, true))
			_exit(1);
		if (ftruncate(2, 0) != 0 || lseek(2, 0, SEEK_SET) != 0)
			_exit(1);
	}
	_exit(0);
}

/* A file in memory, for a worker's ads; -1 when there is none. A
 * temporary file stands in for a memfd, and P.memfd says then that the
 * worker started next writes, not maps. */
static int
memory_file(void)
{
	int fd = memfd_create("par", MFD_CLOEXEC);
	FILE *t;

	if (fd < 0)
		P.memfd = false;
	if (fd < 0 && (t = tmpfile()) != NULL) {
		fd = dup(fileno(t));
		fclose(t);
	}
	return fd;
}

static void
close_files(int w, int n)
{
	for (int b = 0; b < n; b++)
		close(P.out[w][b]);
}

/* Start up to n workers; how many started. */
static int
start(int n)
{
	int k = 0;

	fflush(NULL);	/* nothing buffered is written twice */
	for (; k < n; k++) {
		int sv[2], b = 0;
		P.memfd = true;
		while (b < BUFS && (P.out[k][b] = memory_file()) >= 0)
			b++;
		if (b < BUFS) {
			close_files(k, b);
			break;
		}
		pid_t pid = -1;
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0 &&
		    (pid = fork()) < 0) {
			close(sv[0]);
			close(sv[1]);
		}
		if (pid < 0) {
			close_files(k, BUFS);
			break;
		}
		if (pid == 0) {
			/* the other workers' sockets: their end is the parent's */
			for (int i = 0; i < k; i++)
				close(P.sock[i]);
			close(sv[0]);
			worker(k, sv[1]);
		}
		close(sv[1]);
		P.pid[k] = pid;
		P.sock[k] = sv[0];
		P.sent[k] = P.heard[k] = P.taken[k] = 0;
	}
	return k;
}

/* End the workers: at the end, when they are done (their sockets closed);
 * else at once. */
static void
stop(bool now)
{
	for (int i = 0; i < P.n; i++) {
		close(P.sock[i]);
		if (now)
			kill(P.pid[i], SIGKILL);
	}
	for (int i = 0; i < P.n; i++) {
		while (waitpid(P.pid[i], NULL, 0) < 0 && errno == EINTR)
			;
		close_files(i, BUFS);
	}
	P.n = 0;
}

/* The worker to give the next part to, or -1 when none can take one: one
 * with fewer parts under way than AHEAD and a memory file free, the least
 * busy first. So a worker on a core that runs slower for a while (the
 * load of other machines on the hardware beneath) gets fewer parts, and
 * the other does not wait for it: given in turn, each would do half of
 * the parts, and the pass would last as long as the slower core's half.
 * A worker still takes its parts in the file's order, so what it knows of
 * the parts before (merge) is as it was. */
static int
free_worker(void)
{
	int best = -1;

	for (int w = 0; w < P.n; w++) {
		size_t busy = P.sent[w] - P.heard[w];
		if (busy < AHEAD && P.sent[w] - P.taken[w] < BUFS &&
		    (best < 0 || busy < P.sent[best] - P.heard[best]))
			best = w;
	}
	return best;
}

/* Part k given to worker w: false when it cannot be sent. Its ads go to
 * the worker's next memory file in turn, as the worker counts them. */
static bool
give(size_t k, int w)
{
	struct given *g = part_at(k);

	g->w = w;
	g->buf = (int)(P.sent[w]++ % BUFS);
	return move_all(P.sock[w], &g->p, sizeof g->p, -1, true);
}

/* Wait for answers, and keep each with its part (a worker answers its
 * parts in turn; the parts from done on are under way): false when one
 * cannot be read. */
static bool
hear(size_t done)
{
	struct pollfd fds[WORKERS_MAX];
	int ws[WORKERS_MAX], n = 0;

	for (int w = 0; w < P.n; w++)
		if (P.sent[w] > P.heard[w]) {
			fds[n] = (struct pollfd){ P.sock[w], POLLIN, 0 };
			ws[n++] = w;
		}
	while (n > 0 && poll(fds, (nfds_t)n, -1) < 0)
		if (errno != EINTR)
			return false;
	for (int i = 0; i < n; i++) {
		if (fds[i].revents == 0)
			continue;
		size_t k = done;
		while (k < P.cut && (part_at(k)->w != ws[i] || part_at(k)->heard))
			k++;
		if (k == P.cut)
			return false;
		struct given *g = part_at(k);
		struct head *h = &g->h;
		int s = P.sock[ws[i]];
		if (!move_all(s, h, sizeof *h, -1, false) || h->st > SIZE_MAX / 4 ||
		    h->err > SIZE_MAX / 4 || h->out > SIZE_MAX / 4)
			return false;
		size_t total = h->st + h->err;
		strbuf_reset(&g->msg);
		strbuf_grow(&g->msg, total + 1);
		if (!move_all(s, g->msg.buf, total, -1, false))
			return false;
		g->msg.len = total;
		g->heard = true;
		P.heard[ws[i]]++;
	}
	return n > 0;
}

/* Part k's answer, taken: false when it cannot be (then nothing of it was
 * written). Its ads are in its worker's memory file for it; *line is the
 * file's line at its start, and then at the next part's. */
static bool
take(size_t k, int64_t *line)
{
	struct given *g = part_at(k);
	const struct head h = g->h;
	char *ads = NULL;

	if (h.out > 0 && (ads = mmap(NULL, h.out, PROT_READ, MAP_SHARED, P.out[g->w][g->buf],
	    0)) == MAP_FAILED)
		return false;
	if (P.ops->merge != NULL && !P.ops->merge(P.arg, g->msg.buf, h.st)) {
		if (ads != NULL)
			munmap(ads, h.out);
		return false;
	}
	cli_raise((int)h.status);
	if (h.err > 0)
		cli_relay(g->msg.buf + h.st, h.err, *line);
	*line += (int64_t)(h.lines < INT64_MAX / 2 ? h.lines : 0);
	if (ads != NULL) {
		P.ops->write(P.arg, ads, h.out);
		munmap(ads, h.out);
	}
	cli_progress_ads(h.ads);
	P.taken[g->w]++;
	return true;
}

/* Part p in this process, starting at the file's *line (then the next
 * part's). */
static bool
run_here(struct part *p, int64_t *line)
{
	size_t n = (size_t)(p->end - p->start);

	p->line = *line;
#ifdef CA_SELFCHECK
	strbuf_release(&P.win);	/* an ad that outlives its part is a use after free */
#endif
	if (text_at(&P.win, p->start, n) == NULL) {
		cli_errat(P.name, 0, 0, "cannot read: %s", strerror(errno));
		cli_raise(EX_SYSTEM);
		return false;
	}
	ca_reader *r = part_reader(p, P.win.buf, n);
	P.ops->run(P.arg, r, P.path, NULL, NULL);
	*line += (int64_t)part_lines(r, p, P.win.buf, n);
	ca_reader_close(r);
	return true;
}

static int
processors(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > WORKERS_MAX ? WORKERS_MAX : (int)n;
}

int
par_run(const char *path, int workers, const par_ops *ops, void *arg, const char **why)
{
	bool forced = workers > 0;
	int ran = 0;
	struct stat sb;

	P.cut = 0;
	for (size_t k = 0; k < RING; k++)
		P.ring[k].msg = (strbuf)STRBUF_INIT;
	P.path = path;
	P.name = cli_display(path);
	P.ops = ops;
	P.arg = arg;
	*why = "it cannot be opened";
	P.fd = strcmp(path, "-") == 0 ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);
	if (P.fd < 0)
		return 0;
	if (!forced)
		workers = processors();
	if (workers > WORKERS_MAX)
		workers = WORKERS_MAX;
	*why = "it is not a regular file";
	if (fstat(P.fd, &sb) < 0 || !S_ISREG(sb.st_mode))
		goto out;
	*why = "it is small";
	if (sb.st_size == 0 || ((!forced || workers == 1) && sb.st_size < AUTO_MIN))
		goto out;
	P.size = sb.st_size;
	int64_t span = workers == 1 ? PART_MAX : P.size / (workers * PARTS_A_WORKER);
	span = span < 1 ? 1 : span > PART_MAX ? PART_MAX : span;
	int64_t first;
	*why = "it is not the long format, uncompressed";
	if (!long_format())
		goto out;
	*why = "it does not cut into parts (one group of ads, or no blank line between ads)";
	if ((first = next_cut(span, span)) >= P.size)
		goto out;
	*why = NULL;

	/* from here on the file is this pass's */
	ran = 1;
	P.n = workers > 1 ? start(workers) : 0;
	bool par = P.n > 0;
	int64_t from = 0, line = 1;
	size_t done = 0;
	while (done < P.cut || from < P.size) {
		int w = -1;
		if (from < P.size && (par ? (w = free_worker()) >= 0 : P.cut == done)) {
			int64_t end = P.cut == 0 ? first : next_cut(from + span, span);
			struct given *g = part_at(P.cut++);
			g->p = (struct part){ from, end, 1 };
			g->w = -1;
			g->heard = false;
			from = end;
			if (par && !give(P.cut - 1, w)) {
				par = false;
				stop(true);
			}
			continue;
		}
		if (par && part_at(done)->heard) {
			if (take(done, &line)) {
				done++;
				continue;
			}
		} else if (par && hear(done))
			continue;
		if (par) {
			par = false;
			stop(true);
		}
		if (!run_here(&part_at(done++)->p, &line)) {
			ran = -1;
			break;
		}
	}
	if (par)
		stop(false);
out:
	close(P.fd);
	for (size_t k = 0; k < RING; k++)
		strbuf_release(&P.ring[k].msg);
	strbuf_release(&P.win);
	return ran;
}
