/* strbuf.h - the one growable string type, used by every printer and message.
 * Always NUL-terminated; grows geometrically; lengths are size_t. */
#ifndef CA_STRBUF_H
#define CA_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

typedef struct strbuf {
	char *buf;	/* NUL-terminated; points at a shared "" until the first add */
	size_t len;
	size_t cap;	/* 0 while buf is the shared empty string */
	/* NULL: buf is the heap's. Else buf is memory its owner keeps (a
	 * mapped file, say): grow makes it hold need bytes, buf and cap set
	 * (it may move buf; it does not return when it cannot), and
	 * strbuf_release and strbuf_detach leave it to the owner. */
	void (*grow)(struct strbuf *sb, size_t need);
} strbuf;

extern char strbuf_empty[];
#define STRBUF_INIT { strbuf_empty, 0, 0, NULL }

void strbuf_grow(strbuf *sb, size_t extra);
void strbuf_adds(strbuf *sb, const char *s);

/* The two adds every printer makes for each piece: inline, so that a
 * short add is a copy and a compare. */
static inline void
strbuf_add(strbuf *sb, const char *s, size_t n)
{
	if (n >= sb->cap - sb->len)
		strbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

static inline void
strbuf_addc(strbuf *sb, char c)
{
	if (sb->len + 1 >= sb->cap)
		strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}
void strbuf_addf(strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(strbuf *sb, const char *fmt, va_list ap);
void strbuf_reset(strbuf *sb);			/* len = 0, keep memory */
void strbuf_release(strbuf *sb);		/* free memory, back to STRBUF_INIT */
char *strbuf_detach(strbuf *sb, size_t *len);	/* caller frees */

#endif
