/* plot.c - SVG pictures of a pool over time (plot.h): line panels drawn as
 * steps, strip charts of states, one shared time axis and legend. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "classad.h"
#include "plot.h"

#define WIDTH		1100
#define LEFT		190	/* room for the rows' names and the y labels */
#define RIGHT		200	/* room for the legend */
#define LINES_H		240
#define ROW_H		11
#define GAP		46
#define MAX_ROWS	400	/* a strip chart taller than this is cut, and says so */

struct point {
	int64_t t;
	double y;
};

struct series {
	const char *name;	/* in the plot's arena */
	int style, colour;
	ca_vec(struct point) pts;
};

struct segment {
	int64_t from, to;
	int row, colour;
};

struct panel {
	bool strips, logy;
	const char *title, *ylabel;
	ca_vec(struct series) series;		/* lines */
	ca_vec(const char *) rows;		/* strips */
	ca_vec(struct segment) segs;
	ca_vec(int) states;			/* strips: the colours used, in order */
};

struct plot {
	ca_arena arena;
	const char *title;
	int64_t t0, t1;
	ca_vec(struct panel) panels;
	ca_vec(const char *) names;		/* series names: their colours */
	ca_vec(const char *) state_names;	/* states: their colours */
};

/* Colours for series, distinguishable and readable on white. */
static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
	"#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#843c39", "#7b4173"
};
#define NPALETTE (int)(sizeof palette / sizeof palette[0])

/* HTCondor's slot states and activities have colours of their own. */
static const struct {
	const char *state, *colour;
} state_colours[] = {
	{ "Owner", "#bdbdbd" }, { "Unclaimed", "#c7e9c0" }, { "Matched", "#fdd835" },
	{ "Claimed/Busy", "#1565c0" }, { "Claimed/Idle", "#90caf9" },
	{ "Claimed/Suspended", "#ff9800" }, { "Claimed/Retiring", "#5e35b1" },
	{ "Preempting", "#e53935" }, { "Drained", "#6d4c41" }, { "Backfill", "#26a69a" },
	{ "Claimed", "#1565c0" }
};
#define NSTATES (int)(sizeof state_colours / sizeof state_colours[0])

plot *
plot_new(const char *title, int64_t t0, int64_t t1)
{
	plot *p = ca_xcalloc(1, sizeof *p);

	p->title = ca_arena_strndup(&p->arena, title, strlen(title));
	p->t0 = t0;
	p->t1 = t1 > t0 ? t1 : t0 + 1;
	return p;
}

void
plot_free(plot *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->panels.n; i++) {
		struct panel *pa = &p->panels.at[i];
		for (size_t k = 0; k < pa->series.n; k++)
			ca_vec_free(&pa->series.at[k].pts);
		ca_vec_free(&pa->series);
		ca_vec_free(&pa->rows);
		ca_vec_free(&pa->segs);
		ca_vec_free(&pa->states);
	}
	ca_vec_free(&p->panels);
	ca_vec_free(&p->names);
	ca_vec_free(&p->state_names);
	ca_arena_free(&p->arena);
	free(p);
}

static const char *
keep(plot *p, const char *s)
{
	return s ? ca_arena_strndup(&p->arena, s, strlen(s)) : NULL;
}

/* The index of name in v, added when new. */
static int
index_of(plot *p, void *vv, const char *name)
{
	ca_vec(const char *) *v = vv;

	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->at[i], name) == 0)
			return (int)i;
	*ca_vec_push(v) = keep(p, name);
	return (int)v->n - 1;
}

int
plot_lines(plot *p, const char *title, const char *ylabel, bool logy)
{
	struct panel *pa = ca_vec_push(&p->panels);

	memset(pa, 0, sizeof *pa);
	pa->title = keep(p, title);
	pa->ylabel = keep(p, ylabel);
	pa->logy = logy;
	return (int)p->panels.n - 1;
}

void
plot_series(plot *p, int panel, const char *name, int style, const int64_t *t,
    const double *y, size_t n)
{
	struct panel *pa = &p->panels.at[panel];
	struct series *s = ca_vec_push(&pa->series);

	memset(s, 0, sizeof *s);
	s->colour = index_of(p, &p->names, name);
	s->name = p->names.at[s->colour];
	s->style = style;
	for (size_t i = 0; i < n; i++)
		if (isfinite(y[i]))
			*ca_vec_push(&s->pts) = (struct point){ t[i], y[i] };
}

int
plot_strips(plot *p, const char *title)
{
	struct panel *pa = ca_vec_push(&p->panels);

	memset(pa, 0, sizeof *pa);
	pa->strips = true;
	pa->title = keep(p, title);
	return (int)p->panels.n - 1;
}

void
plot_strip(plot *p, int panel, const char *row, int64_t from, int64_t to, const char *state)
{
	struct panel *pa = &p->panels.at[panel];
	int r = index_of(p, &pa->rows, row);
	int c = index_of(p, &p->state_names, state);
	size_t k;

	if (to <= from)
		return;
	for (k = 0; k < pa->states.n && pa->states.at[k] != c; k++)
		;
	if (k == pa->states.n)
		*ca_vec_push(&pa->states) = c;
	*ca_vec_push(&pa->segs) = (struct segment){ from, to, r, c };
}

/* ---- writing ---- */

static void
esc(FILE *fp, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '&': fputs("&amp;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default:
			if ((unsigned char)*s >= 0x20)
				fputc(*s, fp);
		}
}

static const char *
state_colour(const plot *p, int c)
{
	const char *name = p->state_names.at[c];

	for (int i = 0; i < NSTATES; i++)
		if (strcmp(name, state_colours[i].state) == 0)
			return state_colours[i].colour;
	for (int i = 0; i < NSTATES; i++)	/* "Preempting/Vacating": by its state */
		if (strncmp(name, state_colours[i].state, strlen(state_colours[i].state)) == 0 &&
		    name[strlen(state_colours[i].state)] == '/')
			return state_colours[i].colour;
	return palette[c % NPALETTE];
}

static double
xpos(const plot *p, int64_t t)
{
	double w = WIDTH - LEFT - RIGHT;

	if (t < p->t0)
		t = p->t0;
	if (t > p->t1)
		t = p->t1;
	return LEFT + w * (double)(t - p->t0) / (double)(p->t1 - p->t0);
}

/* A step between time ticks that gives 4 to 12 of them. */
static int64_t
tick_step(int64_t span)
{
	static const int64_t steps[] = { 60, 300, 600, 900, 1800, 3600, 7200, 10800, 21600,
		43200, 86400, 172800, 604800 };
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (span / steps[i] <= 12)
			return steps[i];
	return 604800 * ((span / 604800) / 12 + 1);
}

static void
time_axis(const plot *p, FILE *fp, int top, int height)
{
	int64_t step = tick_step(p->t1 - p->t0);
	int64_t first = (p->t0 + step - 1) / step * step;

	fprintf(fp, "<g class=\"axis\" font-size=\"10\" fill=\"#444\">\n");
	for (int64_t t = first; t <= p->t1; t += step) {
		double x = xpos(p, t);
		struct tm tm;
		time_t tt = (time_t)t;
		char label[32] = "";
		if (localtime_r(&tt, &tm) != NULL)
			strftime(label, sizeof label, step >= 86400 ? "%m-%d" : "%H:%M", &tm);
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>\n",
		    x, top, x, top + height);
		fprintf(fp, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x,
		    top + height + 12, label);
	}
	fprintf(fp, "</g>\n");
}

/* Nice maximum for a linear axis. */
static double
nice_max(double m)
{
	double mag, r;

	if (!(m > 0))
		return 1;
	mag = pow(10, floor(log10(m)));
	r = m / mag;
	return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
}

static void
write_lines(const plot *p, const struct panel *pa, FILE *fp, int top)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < pa->series.n; i++)
		for (size_t k = 0; k < pa->series.at[i].pts.n; k++) {
			double y = pa->series.at[i].pts.at[k].y;
			if (pa->logy && !(y > 0))
				continue;
			if (y < lo)
				lo = y;
			if (y > hi)
				hi = y;
		}
	if (pa->logy) {
		lo = isfinite(lo) ? pow(10, floor(log10(lo))) : 0.1;
		hi = isfinite(hi) ? pow(10, ceil(log10(hi))) : 10;
		if (hi <= lo)
			hi = lo * 10;
	} else {
		lo = 0;
		hi = nice_max(isfinite(hi) ? hi : 1);
	}
	int h = LINES_H - 40, y0 = top + 24;
#define YPOS(v) (pa->logy ? y0 + h - h * (log10(v) - log10(lo)) / (log10(hi) - log10(lo)) : \
	y0 + h - h * ((v) - lo) / (hi - lo))

	fprintf(fp, "<g class=\"panel\">\n<text x=\"%d\" y=\"%d\" font-size=\"13\" "
	    "font-weight=\"bold\">", LEFT, top + 14);
	esc(fp, pa->title);
	fprintf(fp, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
	    "stroke=\"#999\"/>\n", LEFT, y0, WIDTH - LEFT - RIGHT, h);
	time_axis(p, fp, y0, h);
	/* y ticks: five, or the decades */
	fprintf(fp, "<g font-size=\"10\" fill=\"#444\" text-anchor=\"end\">\n");
	for (int i = 0; i <= 4; i++) {
		double v = pa->logy ? pow(10, log10(lo) + (log10(hi) - log10(lo)) * i / 4) :
		    lo + (hi - lo) * i / 4;
		fprintf(fp, "<text x=\"%d\" y=\"%.1f\">%g</text>\n", LEFT - 4, YPOS(v) + 3, v);
	}
	fprintf(fp, "</g>\n<text x=\"%d\" y=\"%d\" font-size=\"11\" transform=\"rotate(-90 %d %d)\" "
	    "text-anchor=\"middle\">", LEFT - 52, y0 + h / 2, LEFT - 52, y0 + h / 2);
	esc(fp, pa->ylabel ? pa->ylabel : "");
	fprintf(fp, "</text>\n");
	for (size_t i = 0; i < pa->series.n; i++) {
		const struct series *s = &pa->series.at[i];
		if (s->pts.n == 0)
			continue;
		fprintf(fp, "<path class=\"series\" data-name=\"");
		esc(fp, s->name);
		fprintf(fp, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s d=\"",
		    palette[s->colour % NPALETTE], s->style == 1 ? " stroke-dasharray=\"6 3\"" :
		    s->style == 2 ? " stroke-dasharray=\"2 3\"" : "");
		double last = 0;
		for (size_t k = 0; k < s->pts.n; k++) {
			double y = s->pts.at[k].y;
			if (pa->logy && !(y > 0))
				y = lo;
			double x = xpos(p, s->pts.at[k].t), yy = YPOS(y);
			if (k == 0)
				fprintf(fp, "M%.1f %.1f", x, yy);
			else
				fprintf(fp, " H%.1f V%.1f", x, yy);
			last = yy;
		}
		fprintf(fp, " H%.1f\"/>\n", xpos(p, p->t1));
		(void)last;
	}
	/* the legend: each name once */
	fprintf(fp, "<g font-size=\"11\">\n");
	int ly = y0 + 4;
	for (size_t i = 0; i < pa->series.n; i++) {
		const struct series *s = &pa->series.at[i];
		bool seen = false;
		for (size_t k = 0; k < i; k++)
			seen |= pa->series.at[k].colour == s->colour;
		if (seen || ly > y0 + h)
			continue;
		fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
		    "<text x=\"%d\" y=\"%d\">", WIDTH - RIGHT + 10, ly, palette[s->colour % NPALETTE],
		    WIDTH - RIGHT + 24, ly + 9);
		esc(fp, s->name);
		fprintf(fp, "</text>\n");
		ly += 14;
	}
	fprintf(fp, "</g>\n</g>\n");
#undef YPOS
}

static int
strips_height(const struct panel *pa)
{
	size_t rows = pa->rows.n < MAX_ROWS ? pa->rows.n : MAX_ROWS;
	size_t legend = pa->states.n * 14 + 10;
	size_t h = rows * ROW_H;

	return 24 + (int)(h > legend ? h : legend) + 20;
}

static void
write_strips(const plot *p, const struct panel *pa, FILE *fp, int top)
{
	int y0 = top + 24;
	size_t rows = pa->rows.n < MAX_ROWS ? pa->rows.n : MAX_ROWS;

	fprintf(fp, "<g class=\"panel\">\n<text x=\"%d\" y=\"%d\" font-size=\"13\" "
	    "font-weight=\"bold\">", LEFT, top + 14);
	esc(fp, pa->title);
	if (pa->rows.n > MAX_ROWS)
		fprintf(fp, " (the first %d of %zu)", MAX_ROWS, pa->rows.n);
	fprintf(fp, "</text>\n");
	time_axis(p, fp, y0, (int)rows * ROW_H);
	fprintf(fp, "<g font-size=\"9\" text-anchor=\"end\">\n");
	for (size_t r = 0; r < rows; r++) {
		fprintf(fp, "<text x=\"%d\" y=\"%d\">", LEFT - 4, y0 + (int)r * ROW_H + 8);
		esc(fp, pa->rows.at[r]);
		fprintf(fp, "</text>\n");
	}
	fprintf(fp, "</g>\n");
	for (size_t i = 0; i < pa->segs.n; i++) {
		const struct segment *s = &pa->segs.at[i];
		if ((size_t)s->row >= rows)
			continue;
		double x0 = xpos(p, s->from), x1 = xpos(p, s->to);
		fprintf(fp, "<rect class=\"state\" data-state=\"");
		esc(fp, p->state_names.at[s->colour]);
		fprintf(fp, "\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n",
		    x0, y0 + s->row * ROW_H, x1 - x0, ROW_H - 2, state_colour(p, s->colour));
	}
	fprintf(fp, "<g font-size=\"11\">\n");
	for (size_t k = 0; k < pa->states.n; k++) {
		int ly = y0 + (int)k * 14;
		fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
		    "<text x=\"%d\" y=\"%d\">", WIDTH - RIGHT + 10, ly, state_colour(p, pa->states.at[k]),
		    WIDTH - RIGHT + 24, ly + 9);
		esc(fp, p->state_names.at[pa->states.at[k]]);
		fprintf(fp, "</text>\n");
	}
	fprintf(fp, "</g>\n</g>\n");
}

int
plot_write(const plot *p, FILE *fp)
{
	int height = 40;

	for (size_t i = 0; i < p->panels.n; i++)
		height += (p->panels.at[i].strips ? strips_height(&p->panels.at[i]) : LINES_H) + GAP;
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	    "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<title>", WIDTH, height,
	    WIDTH, height);
	esc(fp, p->title);
	fprintf(fp, "</title>\n<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">",
	    LEFT);
	esc(fp, p->title);
	fprintf(fp, "</text>\n");
	int top = 40;
	for (size_t i = 0; i < p->panels.n; i++) {
		const struct panel *pa = &p->panels.at[i];
		if (pa->strips) {
			write_strips(p, pa, fp, top);
			top += strips_height(pa) + GAP;
		} else {
			write_lines(p, pa, fp, top);
			top += LINES_H + GAP;
		}
	}
	fprintf(fp, "</svg>\n");
	return ferror(fp) ? -1 : 0;
}
