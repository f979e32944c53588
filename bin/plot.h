/* plot.h - pictures of a pool over time, as SVG: panels of lines (jobs
 * running per user, effective priorities) and strip charts (each slot's
 * state), on one time axis, for the programs that simulate a pool. */
#ifndef PLOT_H
#define PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct plot plot;

/* A picture of the times [t0, t1] (seconds since the epoch; the axis shows
 * local times as HH:MM, or dates when it spans days). */
plot *plot_new(const char *title, int64_t t0, int64_t t1);
void plot_free(plot *p);

/* A panel of lines; returns its number. With logy the y axis is
 * logarithmic (priorities span orders of magnitude). */
int plot_lines(plot *p, const char *title, const char *ylabel, bool logy);
/* A series of a lines panel: points (t[i], y[i]) in time order, drawn as
 * steps (a value holds until the next point). style 0 is solid; 1 and 2
 * dashed and dotted, for the same series under another configuration. The
 * series of one name keep one colour across panels. */
void plot_series(plot *p, int panel, const char *name, int style, const int64_t *t,
    const double *y, size_t n);

/* A panel of strips: one row per name, in the order rows first appear. */
int plot_strips(plot *p, const char *title);
/* Row `row` is in `state` from `from` to `to`. States keep one colour
 * each (HTCondor's slot states have their own; others get the palette's). */
void plot_strip(plot *p, int panel, const char *row, int64_t from, int64_t to,
    const char *state);

/* The SVG document. Numbers are written the same way on every machine, so
 * the same data give the same bytes. Returns 0, or -1 on a write error. */
int plot_write(const plot *p, FILE *fp);

#endif
