/*
 * report_html.h - report.html: one night's outcome as a page a person
 * reads in a browser, self-contained (plain CSS, inline SVG; nothing is
 * loaded from elsewhere, no script).
 *
 * The caller (ndd-report) gathers the figures into struct report; this
 * module only lays them out.  Every string of the model is data (URLs,
 * titles, night names, reasons) and is escaped (html.h); absent parts
 * (NULL or 0 counts) are left out or said to be missing.
 *
 * The largest clusters come with the number of different titles and
 * text openings among their members: a cluster of 41 pages with 41
 * different titles is not 41 copies of one page, and the page marks it.
 */
#ifndef NDD_OUTPUT_REPORT_HTML_H
#define NDD_OUTPUT_REPORT_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "output/html.h"
#include "output/svg_chart.h"

struct report_member {
	const char *url;
	const char *title;   /* NULL: not known (no documents file) */
	const char *opening; /* the first words of its main text, or NULL */
	unsigned distance;   /* to the representative */
	int is_rep;
};

struct report_cluster {
	uint64_t id;
	uint64_t size;
	/* among the members shown: different titles (without a site-name
	 * suffix), text openings (first words) and hosts */
	uint64_t distinct_titles, distinct_openings, distinct_hosts;
	unsigned max_distance;
	const struct report_member *members; /* the representative first */
	size_t n_members;                    /* shown (<= size) */
};

struct report_count {
	const char *name;
	uint64_t value;
};

struct report_host {
	const char *host;
	uint64_t pages, dropped, dropped_earlier;
};

struct report_night {
	const char *name;
	int64_t pages, clusters, dropped; /* -1: not known */
	int tonight;
};

struct report {
	const char *night, *started, *method; /* NULL: not known */
	int k, exit_status;                   /* -1: not known */
	int64_t pages, skipped, clusters, clustered, dropped, dropped_earlier; /* -1: not known */
	const struct chart_bar *size_hist, *dist_hist;
	size_t n_size_hist, n_dist_hist;
	const struct report_count *matches, *skipped_by, *filtered_by;
	size_t n_matches, n_skipped_by, n_filtered_by;
	const struct report_cluster *top;
	size_t n_top;
	const struct report_host *hosts; /* the top ones, most dropped first */
	size_t n_hosts;
	uint64_t hosts_total;            /* hosts in documents.csv (0: none read) */
	const struct report_night *nights; /* oldest first, tonight included */
	size_t n_nights;
};

/**
 * Whether a cluster looks like different pages rather than copies: at
 * least 3 members shown, and more than half of them with a title of their
 * own and a text opening of their own.
 */
int report_cluster_suspect(const struct report_cluster *c);

/** Append the whole page for @r to @h (html_buf_ok() tells if it fit). */
void report_html_write(struct html_buf *h, const struct report *r);

#endif
