/*
 * svg_chart.c - the geometry of svg_chart.h: a fixed 560 x 260 viewBox,
 * scaled by the browser to the page's width, so the text stays legible
 * whatever the number of bars (labels thin out past 24 bars).
 */
#include "output/svg_chart.h"

#include <math.h>
#include <string.h>

#define W 560.0
#define H 260.0
#define LEFT 64.0
#define RIGHT 12.0
#define TOP 18.0
#define BOTTOM 52.0

double svg_nice_max(double v)
{
	if (!(v > 4)) /* whole ticks (0..4) for small counts */
		return 4;
	double p = pow(10, floor(log10(v)));
	for (;;) {
		if (p >= v)
			return p;
		if (2 * p >= v)
			return 2 * p;
		if (5 * p >= v)
			return 5 * p;
		p *= 10;
	}
}

static void axis(struct html_buf *h, double ymax, const char *x_title, const char *y_title)
{
	const double ph = H - TOP - BOTTOM;
	/* whole steps: 1 and 5 times 10^e in fifths, 2 and 4 in quarters */
	const double lead = ymax / pow(10, floor(log10(ymax)));
	const int nt = lead > 1.5 && lead < 4.5 ? 4 : 5;
	for (int t = 0; t <= nt; t++) {
		const double y = TOP + ph - ph * t / nt;
		html_rawf(h, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>",
			  LEFT, y, W - RIGHT, y);
		html_rawf(h, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%.10g</text>",
			  LEFT - 6, y + 4, ymax * t / nt);
	}
	html_rawf(h, "<text x=\"%.1f\" y=\"%.1f\" class=\"axis\" text-anchor=\"middle\">", (LEFT + W - RIGHT) / 2,
		  H - 6);
	html_ctext(h, x_title);
	html_rawf(h, "</text><text x=\"14\" y=\"%.1f\" class=\"axis\" text-anchor=\"middle\" "
		     "transform=\"rotate(-90 14 %.1f)\">", TOP + ph / 2, TOP + ph / 2);
	html_ctext(h, y_title);
	html_raw(h, "</text>");
}

void svg_bar_chart(struct html_buf *h, const char *title, const struct chart_bar *bars,
		   size_t n, const char *x_title, const char *y_title)
{
	double vmax = 0;
	for (size_t i = 0; i < n; i++)
		if (bars[i].value > vmax)
			vmax = bars[i].value;
	const double ymax = svg_nice_max(vmax), pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
	html_rawf(h, "<svg class=\"chart\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", W, H);
	html_ctext(h, title);
	html_raw(h, "\" xmlns=\"http://www.w3.org/2000/svg\"><title>");
	html_ctext(h, title);
	html_raw(h, "</title>");
	axis(h, ymax, x_title, y_title);
	if (n == 0)
		html_rawf(h, "<text x=\"%.1f\" y=\"%.1f\" class=\"axis\" text-anchor=\"middle\">no data</text>",
			  LEFT + pw / 2, TOP + ph / 2);
	const double slot = n ? pw / (double)n : pw;
	const size_t every = n > 24 ? (n + 23) / 24 : 1;
	for (size_t i = 0; i < n; i++) {
		const double v = bars[i].value > 0 ? bars[i].value : 0;
		double bh = ph * v / ymax;
		if (v > 0 && bh < 1.5)
			bh = 1.5; /* a non-zero bar stays visible beside a tall one */
		const double x = LEFT + slot * (double)i, y = TOP + ph - bh;
		if (bars[i].value < 0) { /* not known: no bar, and say so */
			html_rawf(h, "<text x=\"%.1f\" y=\"%.1f\" class=\"val\" text-anchor=\"middle\">n/a</text>",
				  x + slot / 2, y - 4);
		} else {
			html_rawf(h, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"bar\">"
				     "<title>", x + slot * 0.1, y, slot * 0.8, bh);
			html_ctext(h, bars[i].label);
			html_rawf(h, ": %.10g</title></rect>", v);
		}
		if (n <= 24 && v > 0)
			html_rawf(h, "<text x=\"%.1f\" y=\"%.1f\" class=\"val\" text-anchor=\"middle\">%.10g</text>",
				  x + slot / 2, y - 4, v);
		if (i % every == 0) {
			html_rawf(h, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">",
				  x + slot / 2, TOP + ph + 16);
			html_text_cut(h, bars[i].label, strlen(bars[i].label), 12);
			html_raw(h, "</text>");
		}
	}
	html_raw(h, "</svg>\n");
}
