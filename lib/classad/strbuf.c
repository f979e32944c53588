/* strbuf.c - the growable, always NUL-terminated string used by every
 * printer and message of the library and the programs. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "strbuf.h"

char strbuf_empty[1];

void
strbuf_grow(strbuf *sb, size_t extra)
{
	if (extra > SIZE_MAX - sb->len - 1)
		ca_xmalloc(SIZE_MAX);	/* reports out of memory */
	size_t need = sb->len + extra + 1;
	if (need <= sb->cap)
		return;
	if (sb->grow != NULL) {
		sb->grow(sb, need);
		return;
	}
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap = cap < SIZE_MAX / 2 ? cap * 2 : need;
	if (sb->cap == 0) {
		sb->buf = ca_xmalloc(cap);
		sb->buf[0] = '\0';
	} else
		sb->buf = ca_xreallocarray(sb->buf, cap, 1);
	sb->cap = cap;
}

void
strbuf_adds(strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_vaddf(strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	char small[256];

	va_copy(cp, ap);
	int n = vsnprintf(small, sizeof small, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		strbuf_add(sb, small, (size_t)n);
		return;
	}
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void
strbuf_addf(strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void
strbuf_reset(strbuf *sb)
{
	sb->len = 0;
	if (sb->cap)
		sb->buf[0] = '\0';
}

void
strbuf_release(strbuf *sb)
{
	if (sb->cap && sb->grow == NULL)
		free(sb->buf);
	sb->buf = strbuf_empty;
	sb->len = sb->cap = 0;
	sb->grow = NULL;
}

char *
strbuf_detach(strbuf *sb, size_t *len)
{
	char *p = sb->cap && sb->grow == NULL ? sb->buf : ca_xstrndup(sb->buf, sb->len);

	if (len)
		*len = sb->len;
	sb->buf = strbuf_empty;
	sb->len = sb->cap = 0;
	sb->grow = NULL;
	return p;
}
