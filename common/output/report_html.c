/*
 * report_html.c - the layout of report.html: a header with the night's
 * counts as tiles, then one section per question a crawl operator asks
 * (how big are the clusters, how close, which are the largest and are
 * they really copies, which hosts duplicate most, what was skipped, how
 * does tonight compare with the nights before).
 */
#include "output/report_html.h"

#include <string.h>

/* Plain CSS; the system's fonts.  Colours stay readable when printed. */
static const char style[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
	"margin:0 auto;max-width:1100px;padding:16px 24px;color:#1d2430;background:#fff}"
	"h1{font-size:24px;margin:8px 0 2px}h2{font-size:19px;margin:28px 0 8px;"
	"border-bottom:2px solid #e3e7ee;padding-bottom:4px}"
	".sub{color:#5b6473;margin:0 0 14px}"
	".tiles{display:flex;flex-wrap:wrap;gap:12px}"
	".tile{flex:1 1 150px;border:1px solid #d8dee8;border-radius:8px;padding:10px 14px;background:#f7f9fc}"
	".tile b{display:block;font-size:26px}.tile span{color:#5b6473}"
	".charts{display:flex;flex-wrap:wrap;gap:16px}.charts figure{flex:1 1 460px;margin:0}"
	"figcaption{font-weight:600;margin-bottom:4px}"
	"svg.chart{width:100%;max-width:760px;height:auto;background:#fbfcfe;border:1px solid #e3e7ee;border-radius:6px}"
	".bar{fill:#3b6fd8}.grid{stroke:#e3e7ee}.tick{font-size:12px;fill:#5b6473}"
	".val{font-size:12px;fill:#1d2430}.axis{font-size:13px;fill:#1d2430}"
	"table{border-collapse:collapse;width:100%;margin:4px 0}"
	"th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #e3e7ee;vertical-align:top}"
	"th{background:#f0f3f8;font-weight:600}td.n,th.n{text-align:right;white-space:nowrap}"
	".url{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12px;word-break:break-all;color:#34508a}"
	".open{color:#5b6473;font-size:13px}"
	"tr.suspect td{background:#fdecea}.badge{display:inline-block;background:#c62828;color:#fff;"
	"border-radius:4px;padding:0 6px;font-size:12px;font-weight:600;margin-left:6px}"
	".share{position:relative;min-width:140px}.share i{display:block;height:10px;background:#3b6fd8;"
	"border-radius:2px}.share em{font-style:normal;font-size:12px}"
	"details{margin:2px 0 6px}summary{cursor:pointer;color:#34508a}"
	".none{color:#5b6473;font-style:italic}tr.tonight td{font-weight:600}";

static void cell_i64(struct html_buf *h, int64_t v)
{
	if (v < 0)
		html_raw(h, "<td class=\"n\">–</td>");
	else
		html_rawf(h, "<td class=\"n\">%lld</td>", (long long)v);
}

static void tile(struct html_buf *h, int64_t v, const char *what)
{
	if (v < 0)
		html_raw(h, "<div class=\"tile\"><b>–</b><span>");
	else
		html_rawf(h, "<div class=\"tile\"><b>%lld</b><span>", (long long)v);
	html_ctext(h, what);
	html_raw(h, "</span></div>");
}

static void head(struct html_buf *h, const struct report *r)
{
	html_raw(h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
		    "<title>ndd report");
	if (r->night) {
		html_raw(h, ": ");
		html_ctext(h, r->night);
	}
	html_rawf(h, "</title><style>%s</style></head><body>\n<h1>Near-duplicates", style);
	if (r->night) {
		html_raw(h, ": night ");
		html_ctext(h, r->night);
	}
	html_raw(h, "</h1><p class=\"sub\">");
	if (r->started) {
		html_raw(h, "started ");
		html_ctext(h, r->started);
		html_raw(h, " · ");
	}
	if (r->k >= 0)
		html_rawf(h, "k = %d · ", r->k);
	if (r->method) {
		html_raw(h, "method ");
		html_ctext(h, r->method);
		html_raw(h, " · ");
	}
	if (r->exit_status >= 0)
		html_rawf(h, "exit status %d%s", r->exit_status,
			  r->exit_status == 1 ? " (some input skipped)" : "");
	html_raw(h, "</p>\n<div class=\"tiles\">");
	tile(h, r->pages, "pages");
	tile(h, r->skipped, "records skipped");
	tile(h, r->clusters, "clusters");
	tile(h, r->dropped >= 0 ? r->dropped : r->clustered >= 0 && r->clusters >= 0 ?
		r->clustered - r->clusters : -1, "duplicates (dropped)");
	if (r->dropped_earlier > 0)
		tile(h, r->dropped_earlier, "copies of earlier nights");
	html_raw(h, "</div>\n");
}

static void histograms(struct html_buf *h, const struct report *r)
{
	html_raw(h, "<h2 id=\"histograms\">Clusters</h2><div class=\"charts\"><figure><figcaption>"
		    "Cluster sizes</figcaption>");
	svg_bar_chart(h, "clusters by size", r->size_hist, r->n_size_hist, "pages in the cluster",
		      "clusters");
	html_raw(h, "</figure><figure><figcaption>Hamming distance to the representative</figcaption>");
	svg_bar_chart(h, "members by distance", r->dist_hist, r->n_dist_hist, "bits",
		      "pages");
	html_raw(h, "</figure></div>\n");
	if (!r->n_matches)
		return;
	html_raw(h, "<table><tr><th>match</th><th class=\"n\">pages</th></tr>");
	for (size_t i = 0; i < r->n_matches; i++) {
		html_raw(h, "<tr><td>");
		html_ctext(h, r->matches[i].name);
		html_rawf(h, "</td><td class=\"n\">%llu</td></tr>", (unsigned long long)r->matches[i].value);
	}
	html_raw(h, "</table>\n");
}

int report_cluster_suspect(const struct report_cluster *c)
{
	const uint64_t n = c->n_members;
	if (n < 3 || !c->members || !c->members[0].title)
		return 0;
	return c->distinct_titles * 2 > n && c->distinct_openings * 2 > n;
}

static void member_rows(struct html_buf *h, const struct report_cluster *c)
{
	html_rawf(h, "<details><summary>%zu of %llu members</summary><table><tr><th class=\"n\">bits</th>"
		     "<th>title</th><th>URL</th></tr>", c->n_members, (unsigned long long)c->size);
	for (size_t i = 0; i < c->n_members; i++) {
		const struct report_member *m = &c->members[i];
		html_rawf(h, "<tr><td class=\"n\">%u%s</td><td>", m->distance, m->is_rep ? " (rep)" : "");
		if (m->title)
			html_text_cut(h, m->title, strlen(m->title), 120);
		html_raw(h, "</td><td class=\"url\">");
		html_text_cut(h, m->url, strlen(m->url), 200);
		html_raw(h, "</td></tr>");
	}
	html_raw(h, "</table></details>");
}

static void cluster_row(struct html_buf *h, const struct report_cluster *c)
{
	const struct report_member *rep = c->n_members ? &c->members[0] : NULL;
	const int suspect = report_cluster_suspect(c);
	html_rawf(h, "<tr%s><td class=\"n\">%llu</td><td class=\"n\">%llu</td>",
		  suspect ? " class=\"suspect\"" : "", (unsigned long long)c->id,
		  (unsigned long long)c->size);
	if (rep && rep->title)
		html_rawf(h, "<td class=\"n\">%llu</td><td class=\"n\">%llu</td>",
			  (unsigned long long)c->distinct_titles, (unsigned long long)c->distinct_openings);
	else
		html_raw(h, "<td class=\"n\">–</td><td class=\"n\">–</td>");
	html_rawf(h, "<td class=\"n\">%llu</td><td class=\"n\">%u</td><td>",
		  (unsigned long long)c->distinct_hosts, c->max_distance);
	if (rep) {
		html_raw(h, "<b>");
		if (rep->title)
			html_text_cut(h, rep->title, strlen(rep->title), 120);
		else
			html_raw(h, "<span class=\"none\">title not read</span>");
		html_raw(h, "</b>");
		if (suspect)
			html_raw(h, "<span class=\"badge\">different pages?</span>");
		html_raw(h, "<div class=\"url\">");
		html_text_cut(h, rep->url, strlen(rep->url), 200);
		html_raw(h, "</div>");
		if (rep->opening) {
			html_raw(h, "<div class=\"open\">");
			html_text_cut(h, rep->opening, strlen(rep->opening), 240);
			html_raw(h, "</div>");
		}
		member_rows(h, c);
	}
	html_raw(h, "</td></tr>\n");
}

static void largest(struct html_buf *h, const struct report *r)
{
	html_raw(h, "<h2 id=\"largest\">Largest clusters</h2>");
	if (!r->n_top) {
		html_raw(h, "<p class=\"none\">No cluster: no two pages are near-duplicates.</p>\n");
		return;
	}
	html_raw(h, "<p class=\"sub\">Copies of one page share its title and its opening words. A "
		    "cluster whose members mostly have titles and openings of their own is marked: "
		    "its pages are likely different pages that only look alike (a template, a "
		    "boilerplate notice).</p><table><tr><th class=\"n\">cluster</th><th class=\"n\">pages</th>"
		    "<th class=\"n\">different titles</th><th class=\"n\">different openings</th>"
		    "<th class=\"n\">hosts</th><th class=\"n\">max bits</th><th>representative</th></tr>\n");
	for (size_t i = 0; i < r->n_top; i++)
		cluster_row(h, &r->top[i]);
	html_raw(h, "</table>\n");
}

static void hosts(struct html_buf *h, const struct report *r)
{
	html_raw(h, "<h2 id=\"hosts\">Hosts with the most duplicates</h2>");
	if (!r->hosts_total) {
		html_raw(h, "<p class=\"none\">documents.csv was not given.</p>\n");
		return;
	}
	html_rawf(h, "<p class=\"sub\">%zu of %llu hosts, most pages dropped first.</p><table><tr>"
		     "<th>host</th><th class=\"n\">pages</th><th class=\"n\">dropped</th>"
		     "<th class=\"n\">of earlier nights</th><th>share dropped</th></tr>",
		  r->n_hosts, (unsigned long long)r->hosts_total);
	for (size_t i = 0; i < r->n_hosts; i++) {
		const struct report_host *o = &r->hosts[i];
		const double share = o->pages ? 100.0 * (double)o->dropped / (double)o->pages : 0;
		html_raw(h, "<tr><td class=\"url\">");
		html_text_cut(h, o->host, strlen(o->host), 80);
		html_rawf(h, "</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td>"
			     "<td class=\"share\"><i style=\"width:%.1f%%\"></i><em>%.1f%%</em></td></tr>",
			  (unsigned long long)o->pages, (unsigned long long)o->dropped,
			  (unsigned long long)o->dropped_earlier, share, share);
	}
	html_raw(h, "</table>\n");
}

static void counts(struct html_buf *h, const char *what, const struct report_count *c, size_t n)
{
	html_raw(h, "<table><tr><th>");
	html_ctext(h, what);
	html_raw(h, "</th><th class=\"n\">records</th></tr>");
	for (size_t i = 0; i < n; i++) {
		html_raw(h, "<tr><td>");
		html_ctext(h, c[i].name);
		html_rawf(h, "</td><td class=\"n\">%llu</td></tr>", (unsigned long long)c[i].value);
	}
	if (!n)
		html_raw(h, "<tr><td class=\"none\">none</td><td></td></tr>");
	html_raw(h, "</table>\n");
}

static void skipped(struct html_buf *h, const struct report *r)
{
	html_raw(h, "<h2 id=\"skipped\">Skipped and filtered records</h2>");
	if (r->skipped < 0) {
		html_raw(h, "<p class=\"none\">stats.json was not given.</p>\n");
		return;
	}
	html_raw(h, "<div class=\"charts\"><div style=\"flex:1 1 300px\">");
	counts(h, "skipped (bad input), by reason", r->skipped_by, r->n_skipped_by);
	html_raw(h, "</div><div style=\"flex:1 1 300px\">");
	counts(h, "filtered (not a page to compare), by reason", r->filtered_by, r->n_filtered_by);
	html_raw(h, "</div></div>\n");
}

static void trend(struct html_buf *h, const struct report *r)
{
	html_raw(h, "<h2 id=\"nights\">Nights</h2>");
	if (!r->n_nights) {
		html_raw(h, "<p class=\"none\">No index of nights (run_pipeline.sh --index DIR).</p>\n");
		return;
	}
	struct chart_bar bars[64];
	const size_t first = r->n_nights > 64 ? r->n_nights - 64 : 0;
	for (size_t i = first; i < r->n_nights; i++) {
		const struct report_night *n = &r->nights[i];
		bars[i - first].label = n->name;
		bars[i - first].value = n->pages > 0 && n->dropped >= 0 ?
			(double)(int64_t)(1000.0 * (double)n->dropped / (double)n->pages) / 10 : -1;
	}
	html_raw(h, "<figure style=\"margin:0\"><figcaption>Share of pages dropped per night (%)"
		    "</figcaption>");
	svg_bar_chart(h, "share of pages dropped per night", bars, r->n_nights - first, "night",
		      "% dropped");
	html_raw(h, "</figure><table><tr><th>night</th><th class=\"n\">pages</th>"
		    "<th class=\"n\">clusters</th><th class=\"n\">dropped</th></tr>");
	for (size_t i = r->n_nights; i-- > 0;) {
		const struct report_night *n = &r->nights[i];
		html_raw(h, n->tonight ? "<tr class=\"tonight\"><td>" : "<tr><td>");
		html_ctext(h, n->name);
		html_raw(h, n->tonight ? " (tonight)</td>" : "</td>");
		cell_i64(h, n->pages);
		cell_i64(h, n->clusters);
		cell_i64(h, n->dropped);
		html_raw(h, "</tr>");
	}
	html_raw(h, "</table>\n");
}

void report_html_write(struct html_buf *h, const struct report *r)
{
	head(h, r);
	largest(h, r);
	histograms(h, r);
	hosts(h, r);
	skipped(h, r);
	trend(h, r);
	html_raw(h, "<p class=\"sub\" style=\"margin-top:28px\">Written by ndd-report " 
		    "from clusters.csv, documents.csv, stats.json and the index of nights.</p>\n"
		    "</body></html>\n");
}
