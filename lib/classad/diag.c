/* diag.c - filling in the one diagnostic type (diag.h). Printing it is the
 * programs' business (one function in bin/cli.c). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"

void
ca_diag_vset(ca_diag *d, int status, const char *file, int line, int col, const char *fmt,
    va_list ap)
{
	d->file = file;
	d->line = line;
	d->col = col;
	d->pos = 0;
	d->status = status;
	d->eof = false;
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
}

void
ca_diag_set(ca_diag *d, int status, const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ca_diag_vset(d, status, file, line, col, fmt, ap);
	va_end(ap);
}

void
ca_diag_errno(ca_diag *d, const char *file, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	ca_diag_vset(d, CA_EX_SYSTEM, file, 0, 0, fmt, ap);
	va_end(ap);
	n = strlen(d->msg);
	snprintf(d->msg + n, sizeof d->msg - n, ": %s", strerror(errnum));
}

bool
ca_diag_is_system(const ca_diag *d)
{
	return d->status == CA_EX_SYSTEM;
}
