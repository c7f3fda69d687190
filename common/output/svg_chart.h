/*
 * svg_chart.h - bar charts as inline SVG, for pages that must not load
 * anything (report.html): no script, no font, no image from elsewhere.
 */
#ifndef NDD_OUTPUT_SVG_CHART_H
#define NDD_OUTPUT_SVG_CHART_H

#include <stddef.h>

#include "output/html.h"

/* One bar: its label under the axis (data: escaped) and its value; a
 * negative value is not known: no bar, "n/a" in its place. */
struct chart_bar {
	const char *label;
	double value;
};

/**
 * Append an <svg> of @n vertical bars to @h: a y axis from 0 to a round
 * maximum with its ticks, each bar's value above it, @title (an
 * accessible name, escaped) and the axis titles @x_title and @y_title.
 * @n = 0 gives a chart that says "no data".
 */
void svg_bar_chart(struct html_buf *h, const char *title, const struct chart_bar *bars,
		   size_t n, const char *x_title, const char *y_title);

/** The top of a chart's axis for values up to @v: 4 up to 4 (whole ticks),
 * past it the smallest 1, 2 or 5 times a power of ten >= @v. */
double svg_nice_max(double v);

#endif
