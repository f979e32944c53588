/* diag.h - the one diagnostic of the library: where (file, line, column),
 * what (a message) and how bad (the exit status it calls for). */

/*
 * Every layer fills one in when it refuses something; every program prints
 * it the same way, as "prog: file:line:col: message".
 */
#ifndef CA_DIAG_H
#define CA_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Exit statuses, shared by the library's diagnostics and every program
 * (each man page lists them). */
enum ca_exit {
	CA_EX_OK = 0,
	CA_EX_NO = 1,		/* a negative answer: no match, nothing selected */
	CA_EX_USAGE = 2,	/* a bad command line */
	CA_EX_INPUT = 3,	/* malformed input */
	CA_EX_SYSTEM = 4	/* I/O error, out of memory */
};

typedef struct ca_diag {
	const char *file;	/* NULL: not about a file; "<stdin>" for standard input */
	int line, col;		/* 1-based; 0 when not about a position */
	size_t pos;		/* byte offset in the text parsed (parser errors) */
	int status;		/* CA_EX_INPUT or CA_EX_SYSTEM */
	bool eof;		/* the text ended too soon: incomplete rather than wrong */
	char msg[256];
} ca_diag;

/* Fill d: status, place and a printf-style message (cut to fit). */
void ca_diag_set(ca_diag *d, int status, const char *file, int line, int col,
    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The same with a va_list. */
void ca_diag_vset(ca_diag *d, int status, const char *file, int line, int col,
    const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));
/* A system error about file: the message, ": ", then strerror(errnum). */
void ca_diag_errno(ca_diag *d, const char *file, int errnum, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Whether d is a system error (exit 4) rather than bad input (exit 3). */
bool ca_diag_is_system(const ca_diag *d);

#endif
