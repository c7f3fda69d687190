/*
 * documents_csv.c - see documents_csv.h.
 *
 * Rows are made by the catalog's decoding threads, each appending to a
 * buffer of its own for the batch, and written in order when the next
 * batch begins (every record before it has then been visited).
 */
#include "output/documents_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/catalog.h"
#include "output/csv.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/threads.h"

const char *const documents_csv_header = CSV_HEADER(DOCUMENTS_CSV_COLUMNS, NULL);

char *documents_csv_put(char *p, const struct documents_row *w)
{
	CSV_PUT_ROW(DOCUMENTS_CSV_COLUMNS, w);
	return p;
}

struct writer {
	const struct keep_plan *p;
	struct csv_writer csv;
	struct csv_writer *part; /* per thread: its rows of the batch */
	int n_parts;
	struct row_ref {
		size_t off;       /* in its thread's part */
		uint32_t len, part;
	} *row;
	uint64_t first, n, cap;
	struct documents_counts c;
};

static void flush_rows(struct writer *w)
{
	for (uint64_t i = 0; i < w->n; i++) {
		const struct row_ref *r = &w->row[i];
		csv_raw(&w->csv, w->part[r->part].buf + r->off, r->len);
		if (w->csv.len >= CSV_FLUSH_AT)
			csv_flush(&w->csv);
	}
	for (int t = 0; t < w->n_parts; t++)
		w->part[t].len = 0;
	w->n = 0;
}

static int on_batch(void *ctx, uint64_t first, uint64_t n)
{
	struct writer *w = ctx;
	flush_rows(w);
	if (n > w->cap) {
		struct row_ref *row = realloc(w->row, n * sizeof *row);
		if (!row) {
			log_error("out of memory for %llu rows of documents.csv",
				  (unsigned long long)n);
			return -1;
		}
		w->row = row;
		w->cap = n;
	}
	w->first = first;
	w->n = n;
	return w->csv.err ? -1 : 0;
}

/* The row of tonight's document @idx, dropped for the copy @win. */
static void drop_row(struct writer *w, uint32_t idx, const struct keep_cand *win,
		     struct documents_row *row)
{
	const struct keep_plan *p = w->p;
	const struct provenance *kp = keep_cand_prov(p, win);
	const struct prov_doc *k = prov_get(kp, win->idx), *me = prov_get(p->tonight, idx);
	const enum prov_match m = prov_match(me, prov_frame(p->tonight, me), k, prov_frame(kp, k));
	row->drop = 1;
	row->dup_url = (struct str){k->url, k->url_len};
	row->match = prov_match_name(m);
	__atomic_fetch_add(&w->c.by_match[m], 1, __ATOMIC_RELAXED);
	if (win->night < (uint32_t)p->n_nights) {
		const char *name = p->nights[win->night].name;
		row->dup_night = (struct str){name, (uint32_t)strlen(name)};
		__atomic_fetch_add(&w->c.dropped_earlier, 1, __ATOMIC_RELAXED);
	}
	__atomic_fetch_add(&w->c.dropped, 1, __ATOMIC_RELAXED);
}

static int on_record(void *ctx, uint64_t idx, const struct fp_record *rec)
{
	struct writer *w = ctx;
	const struct keep_plan *p = w->p;
	if (idx >= p->tonight->n_docs)
		return -1;
	const struct keep_cand *win = keep_dropped_for(p, (uint32_t)idx);
	struct documents_row row = {rec, p->cl->cid[idx], 0, {"", 0}, {"", 0}, ""};
	if (win)
		drop_row(w, (uint32_t)idx, win, &row);
	else
		__atomic_fetch_add(&w->c.kept, 1, __ATOMIC_RELAXED);
	const int t = threads_id();
	struct csv_writer *part = &w->part[t];
	char *buf = csv_room(part, documents_csv_bound(&row));
	if (!buf) {
		log_error("out of memory for a row of documents.csv");
		return -1;
	}
	char *end = documents_csv_put(buf, &row);
	w->row[idx - w->first] = (struct row_ref){part->len, (uint32_t)(end - buf), (uint32_t)t};
	part->len += (size_t)(end - buf);
	return 0;
}

int documents_csv_write(const struct keep_plan *p, const char *const *paths, int n,
			struct outfile *out, struct documents_counts *c)
{
	struct writer w = {.p = p, .n_parts = threads_max()};
	struct catalog_info info;
	const struct catalog_visitor v = {.batch = on_batch, .record = on_record, .ctx = &w};
	csv_init(&w.csv, out);
	csv_raw(&w.csv, documents_csv_header, strlen(documents_csv_header));
	w.part = calloc((size_t)w.n_parts, sizeof *w.part);
	if (!w.part) {
		log_error("out of memory for documents.csv");
		csv_close(&w.csv);
		return -1;
	}
	for (int t = 0; t < w.n_parts; t++)
		csv_init(&w.part[t], NULL);
	int rc = catalog_scan(paths, n, &v, &info) ? -1 : 0;
	if (!rc && info.n_records != p->tonight->n_docs) {
		log_error("the catalog has %llu records, tonight %zu documents",
			  (unsigned long long)info.n_records, p->tonight->n_docs);
		rc = -1;
	}
	if (!rc)
		flush_rows(&w);
	for (int t = 0; t < w.n_parts; t++)
		csv_close(&w.part[t]);
	free(w.part);
	free(w.row);
	if (csv_close(&w.csv) && !rc) {
		log_error("cannot write documents.csv");
		rc = -1;
	}
	*c = w.c;
	return rc;
}

/* Bytes this process has read (all files), from /proc; 0 if unknown. */
static unsigned long long bytes_read(void)
{
	FILE *fp = fopen("/proc/self/io", "r");
	unsigned long long v = 0;
	char line[128];
	while (fp && fgets(line, sizeof line, fp))
		if (sscanf(line, "rchar: %llu", &v) == 1)
			break;
	if (fp)
		fclose(fp);
	return v;
}

int documents_stats_write(const char *path, const struct documents_stats *s)
{
	struct outfile out;
	if (outfile_open(&out, path))
		return -1;
	fprintf(out.fp,
		"{\n  \"documents\": %zu,\n  \"kept\": %llu,\n  \"dropped\": %llu,\n"
		"  \"dropped_as_earlier\": %llu,\n  \"earlier_nights\": %d,\n"
		"  \"dropped_by_match\": {\"exact\": %llu, \"same-content\": %llu, "
		"\"same-layout\": %llu, \"partial\": %llu},\n"
		"  \"earlier_pairs\": %llu,\n  \"blocks_read\": %llu,\n  \"bytes_read\": %llu,\n"
		"  \"seconds\": %.3f\n}\n",
		s->documents, (unsigned long long)s->c.kept, (unsigned long long)s->c.dropped,
		(unsigned long long)s->c.dropped_earlier, s->earlier_nights,
		(unsigned long long)s->c.by_match[PROV_EXACT],
		(unsigned long long)s->c.by_match[PROV_SAME_CONTENT],
		(unsigned long long)s->c.by_match[PROV_SAME_LAYOUT],
		(unsigned long long)s->c.by_match[PROV_PARTIAL],
		(unsigned long long)s->earlier_pairs, (unsigned long long)s->blocks_read,
		bytes_read(), s->seconds);
	return outfile_commit(&out);
}
