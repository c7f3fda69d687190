/*
 * ndd-report - report.html: a night's outcome for a person to read.
 *
 * Reads what the run wrote: clusters.csv (sizes, distances, the largest
 * clusters), documents.csv (each host's pages and drops), stats.json
 * (records skipped and filtered by reason, settings) and the index of
 * nights (the nights before tonight), and the documents file(s) of
 * ndd-extract for the titles and opening words of the largest clusters'
 * members.  Only the blocks of the documents file that hold those
 * members are read, found by the sections' block indexes (a pipe is read
 * through, decoding the same blocks).  The layout is report_html.h's.
 *
 * clusters.csv is read twice (sizes first, then the members of the
 * largest clusters); from standard input it is first copied to a
 * temporary file.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format/docrec.h"
#include "format/ndf.h"
#include "output/csv_read.h"
#include "output/hostshare.h"
#include "output/json_read.h"
#include "output/lookalike.h"
#include "output/report_html.h"
#include "util/cli.h"
#include "util/log.h"
#include "util/outfile.h"

#define OPENING_WORDS 40
#define TITLE_BYTES 400

struct opts {
	struct cli_common cc;
	const char *clusters, *documents, *stats, *index, *night;
	const char **docs;
	int n_docs, top, hosts, members;
};

static void usage(FILE *fp, int status)
{
	fprintf(fp,
		"Usage: ndd-report --clusters CSV [options] -o report.html\n"
		"Write a self-contained HTML page of a run: counts, the cluster-size and\n"
		"distance histograms, the largest clusters with their titles and first words,\n"
		"the hosts with most duplicates, records skipped by reason, the nights before.\n\n"
		"      --clusters FILE   clusters.csv of ndd-self-join ('-': standard input)\n"
		"      --documents FILE  documents.csv of ndd-documents: per-host shares\n"
		"      --stats FILE      stats.json of run_pipeline.sh: skipped records, settings\n"
		"      --docs FILE       documents of ndd-extract, in input order (repeat for\n"
		"                        parts): titles and text of the largest clusters\n"
		"      --index DIR       an index of nights (run_pipeline.sh --index): the trend\n"
		"      --night NAME      tonight's name (with --index: added to the nights shown)\n"
		"      --top N           largest clusters shown (default 10)\n"
		"      --members N       members listed per cluster (default 50)\n"
		"      --hosts N         hosts shown (default 15)\n" CLI_COMMON_HELP
		"Data from the crawl (URLs, titles, names) is escaped: the page runs no script\n"
		"and loads nothing from elsewhere.\n");
	exit(status);
}

static void parse(struct opts *o, int argc, char **argv)
{
	enum { OPT_CLUSTERS = CLI_OPT_STAGE_BASE, OPT_DOCUMENTS, OPT_STATS, OPT_DOCS, OPT_INDEX,
	       OPT_NIGHT, OPT_TOP, OPT_HOSTS, OPT_MEMBERS };
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{"clusters", required_argument, NULL, OPT_CLUSTERS},
		{"documents", required_argument, NULL, OPT_DOCUMENTS},
		{"stats", required_argument, NULL, OPT_STATS},
		{"docs", required_argument, NULL, OPT_DOCS},
		{"index", required_argument, NULL, OPT_INDEX},
		{"night", required_argument, NULL, OPT_NIGHT},
		{"top", required_argument, NULL, OPT_TOP},
		{"hosts", required_argument, NULL, OPT_HOSTS},
		{"members", required_argument, NULL, OPT_MEMBERS},
		{NULL, 0, NULL, 0},
	};
	int c;
	o->top = 10;
	o->hosts = 15;
	o->members = 50;
	o->docs = xcalloc((size_t)argc, sizeof *o->docs);
	while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_common_option(&o->cc, c, optarg, usage))
			continue;
		switch (c) {
		case OPT_CLUSTERS: o->clusters = optarg; break;
		case OPT_DOCUMENTS: o->documents = optarg; break;
		case OPT_STATS: o->stats = optarg; break;
		case OPT_DOCS: o->docs[o->n_docs++] = optarg; break;
		case OPT_INDEX: o->index = optarg; break;
		case OPT_NIGHT: o->night = optarg; break;
		case OPT_TOP: o->top = (int)cli_parse_int("--top", optarg, 1, 1000); break;
		case OPT_HOSTS: o->hosts = (int)cli_parse_int("--hosts", optarg, 1, 10000); break;
		case OPT_MEMBERS: o->members = (int)cli_parse_int("--members", optarg, 1, 100000); break;
		default: usage(stderr, EXIT_FAILED);
		}
	}
	if (!o->clusters || optind < argc) {
		log_error("--clusters is required, and nothing else (no operands)");
		usage(stderr, EXIT_FAILED);
	}
	if (o->documents && !strcmp(o->clusters, "-") && !strcmp(o->documents, "-")) {
		log_error("--clusters and --documents cannot both be standard input");
		usage(stderr, EXIT_FAILED);
	}
	cli_common_finish(&o->cc);
}

/* ---- clusters.csv ---- */

struct row {
	uint32_t cluster; /* index into the top clusters */
	uint32_t doc;     /* doc_id: the document's position in the input */
	unsigned distance;
	int is_rep;
	char *url;
	char *title, *opening; /* from the documents file, or NULL */
};

struct clusters_in {
	uint64_t *size;     /* per cluster id */
	uint64_t n_ids;     /* ids 1..n_ids-1 */
	uint64_t rows, clusters;
	uint64_t dist[65];
	struct report_count matches[8];
	size_t n_matches;
	uint64_t *top_ids;  /* the largest clusters' ids, largest first */
	size_t n_top;
	struct row *rows_top; /* their members, in file order */
	size_t n_rows_top;
};

struct cols {
	long cluster, url, distance, rep, match, doc;
};

static FILE *open_seekable(const char *path)
{
	FILE *in = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!in) {
		log_error("cannot open '%s': %m", path);
		return NULL;
	}
	struct stat st;
	if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode))
		return in;
	FILE *tmp = tmpfile();
	char buf[1 << 16];
	size_t got;
	if (!tmp) {
		log_error("cannot create a temporary copy of '%s': %m", path);
		return NULL;
	}
	while ((got = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, got, tmp) != got) {
			log_error("cannot copy '%s' to a temporary file: %m", path);
			fclose(tmp);
			return NULL;
		}
	if (ferror(in)) {
		log_error("cannot read '%s': %m", path);
		fclose(tmp);
		return NULL;
	}
	if (in != stdin)
		fclose(in);
	rewind(tmp);
	return tmp;
}

static int read_header(FILE *fp, const char *path, struct csv_record *rec, struct cols *c)
{
	if (csv_read_record(fp, rec) != 1) {
		log_error("'%s': no header row", path);
		return -1;
	}
	c->cluster = csv_column(rec, "cluster_id");
	c->url = csv_column(rec, "url");
	c->distance = csv_column(rec, "distance");
	c->rep = csv_column(rec, "is_representative");
	c->match = csv_column(rec, "match");
	c->doc = csv_column(rec, "doc_id");
	if (c->cluster < 0 || c->url < 0 || c->distance < 0 || c->rep < 0) {
		log_error("'%s': no cluster_id, url, distance and is_representative columns: "
			  "not a clusters.csv of ndd-self-join", path);
		return -1;
	}
	return 0;
}

static void count_match(struct clusters_in *ci, const char *m)
{
	if (!*m)
		return;
	for (size_t i = 0; i < ci->n_matches; i++)
		if (!strcmp(ci->matches[i].name, m)) {
			ci->matches[i].value++;
			return;
		}
	if (ci->n_matches < sizeof ci->matches / sizeof ci->matches[0]) {
		ci->matches[ci->n_matches].name = xstrdup(m);
		ci->matches[ci->n_matches++].value = 1;
	}
}

/* First pass: each cluster's size, the distances, the match kinds. */
static int clusters_pass1(FILE *fp, const char *path, struct clusters_in *ci)
{
	struct csv_record rec = {0};
	struct cols c;
	uint64_t cap = 1024, line = 1;
	int rc = -1, got;
	if (read_header(fp, path, &rec, &c))
		goto done;
	ci->size = xcalloc(cap, sizeof *ci->size);
	ci->n_ids = 1;
	while ((got = csv_read_record(fp, &rec)) == 1) {
		uint64_t id, dist;
		line++;
		if (csv_field_u64(&rec, (size_t)c.cluster, &id) || id == 0 || id >= UINT32_MAX ||
		    csv_field_u64(&rec, (size_t)c.distance, &dist) || dist > 64) {
			log_error("'%s', row %llu: no cluster id or distance", path, (unsigned long long)line);
			goto done;
		}
		if (id >= cap) {
			const uint64_t old = cap;
			while (cap <= id)
				cap *= 2;
			ci->size = xrealloc(ci->size, cap * sizeof *ci->size);
			memset(ci->size + old, 0, (cap - old) * sizeof *ci->size);
		}
		if (id >= ci->n_ids)
			ci->n_ids = id + 1;
		ci->clusters += ci->size[id]++ == 0;
		ci->rows++;
		if (strcmp(csv_field_at(&rec, (size_t)c.rep), "1"))
			ci->dist[dist]++;
		if (c.match >= 0)
			count_match(ci, csv_field_at(&rec, (size_t)c.match));
	}
	if (got < 0)
		log_error("'%s', row %llu: not well-formed CSV", path, (unsigned long long)line + 1);
	else
		rc = 0;
done:
	csv_record_free(&rec);
	return rc;
}

static const uint64_t *cmp_sizes;

static int by_size(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	if (cmp_sizes[x] != cmp_sizes[y])
		return cmp_sizes[x] < cmp_sizes[y] ? 1 : -1;
	return x < y ? -1 : x > y;
}

/* The @top largest clusters, largest first (ties: the lower id). */
static void pick_top(struct clusters_in *ci, size_t top)
{
	uint64_t *ids = xmalloc((ci->clusters + 1) * sizeof *ids);
	size_t n = 0;
	for (uint64_t id = 1; id < ci->n_ids; id++)
		if (ci->size[id])
			ids[n++] = id;
	cmp_sizes = ci->size;
	qsort(ids, n, sizeof *ids, by_size);
	ci->n_top = n < top ? n : top;
	ci->top_ids = ids;
}

/* Second pass: the members of the largest clusters (at most @members each). */
static int clusters_pass2(FILE *fp, const char *path, struct clusters_in *ci, size_t members)
{
	struct csv_record rec = {0};
	struct cols c;
	uint32_t *slot = xcalloc(ci->n_ids, sizeof *slot); /* id -> top index + 1 */
	size_t *shown = xcalloc(ci->n_top + 1, sizeof *shown), cap = 0;
	int rc = -1, got;
	for (size_t i = 0; i < ci->n_top; i++)
		slot[ci->top_ids[i]] = (uint32_t)i + 1;
	rewind(fp);
	if (read_header(fp, path, &rec, &c))
		goto done;
	while ((got = csv_read_record(fp, &rec)) == 1) {
		uint64_t id = 0, dist = 0, doc = UINT32_MAX;
		if (csv_field_u64(&rec, (size_t)c.cluster, &id) || id >= ci->n_ids || !slot[id] ||
		    shown[slot[id]] >= members)
			continue;
		csv_field_u64(&rec, (size_t)c.distance, &dist);
		if (c.doc >= 0 && (csv_field_u64(&rec, (size_t)c.doc, &doc) || doc >= UINT32_MAX))
			doc = UINT32_MAX;
		if (ci->n_rows_top == cap) {
			cap = cap ? 2 * cap : 256;
			ci->rows_top = xrealloc(ci->rows_top, cap * sizeof *ci->rows_top);
		}
		struct row *r = &ci->rows_top[ci->n_rows_top++];
		memset(r, 0, sizeof *r);
		r->cluster = slot[id] - 1;
		r->doc = (uint32_t)doc;
		r->distance = (unsigned)dist;
		r->is_rep = !strcmp(csv_field_at(&rec, (size_t)c.rep), "1");
		r->url = xstrdup(csv_field_at(&rec, (size_t)c.url));
		shown[slot[id]]++;
	}
	rc = got < 0 ? -1 : 0;
	if (rc)
		log_error("'%s': not well-formed CSV on the second reading", path);
done:
	free(slot);
	free(shown);
	csv_record_free(&rec);
	return rc;
}

/* ---- titles and openings, from the documents file(s) ---- */

/* @n bytes of @s, cut at a UTF-8 boundary at most @max bytes in. */
static char *dup_cut(const char *s, size_t n, size_t max)
{
	if (n > max) {
		n = max;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static int by_doc(const void *a, const void *b)
{
	const struct row *x = *(struct row *const *)a, *y = *(struct row *const *)b;
	return x->doc < y->doc ? -1 : x->doc > y->doc;
}

struct doc_scan {
	struct row **want; /* sorted by doc */
	size_t n_want, next;
	uint64_t base;     /* document number of the block's first record */
	uint64_t blocks_read, blocks_decoded, titles, mismatched;
	char *tbuf;
	size_t tcap;
};

static int take_block(struct doc_scan *s, const struct ndf_block *b, const char *name)
{
	const uint64_t end = s->base + b->n_records;
	while (s->next < s->n_want && s->want[s->next]->doc < s->base)
		s->next++;
	if (s->next == s->n_want || s->want[s->next]->doc >= end) {
		s->base = end;
		return 0;
	}
	s->blocks_decoded++;
	const uint8_t *p = b->data, *pe = b->data + b->len;
	for (uint64_t d = s->base; d < end; d++) {
		struct doc_record rec;
		struct str text;
		if (docrec_decode(&p, pe, &rec)) {
			log_error("'%s': a damaged record in the block at %llu", name,
				  (unsigned long long)b->offset);
			return -1;
		}
		for (; s->next < s->n_want && s->want[s->next]->doc == d; s->next++) {
			struct row *r = s->want[s->next];
			if (strlen(r->url) != rec.url.n || memcmp(r->url, rec.url.p, rec.url.n)) {
				s->mismatched++;
				continue;
			}
			if (docrec_text(&rec, &s->tbuf, &s->tcap, &text))
				return -1;
			r->title = dup_cut(rec.title.p, rec.title.n, TITLE_BYTES);
			r->opening = lookalike_opening(text.p, text.n, OPENING_WORDS);
			if (!r->title || !r->opening)
				return -1;
			s->titles++;
		}
	}
	s->base = end;
	return 0;
}

/* The blocks of section @sec (its first document numbered @base) that
 * hold a wanted document, found by the section's block index. */
static int take_section(struct doc_scan *s, struct ndf_section *sec, uint64_t base,
			const char *path)
{
	const struct ndf_header *h = ndf_section_header(sec);
	struct ndf_block b = {0};
	uint64_t nb;
	const struct ndf_index_entry *ix = ndf_section_index(sec, &nb);
	int rc = docrec_check_header(h, path) ? -1 : 0;
	s->blocks_read += nb;
	for (uint64_t i = 0; rc == 0 && i < nb; i++) {
		const uint64_t lo = base + ix[i].first_record;
		const uint64_t hi = base + (i + 1 < nb ? ix[i + 1].first_record : h->record_count);
		while (s->next < s->n_want && s->want[s->next]->doc < lo)
			s->next++;
		if (s->next == s->n_want || s->want[s->next]->doc >= hi)
			continue;
		if (ndf_section_read_block(sec, i, &b) || b.codec != NDF_CODEC_RAW) {
			log_error("'%s': cannot read the block at %llu", path,
				  (unsigned long long)ix[i].offset);
			rc = -1;
			break;
		}
		s->base = lo;
		rc = take_block(s, &b, path);
	}
	s->base = base + h->record_count;
	ndf_block_free(&b);
	return rc;
}

/* A regular file: its sections are found from its end, each by its tail,
 * and only the blocks holding wanted documents are read (a night's
 * documents file is GBs; the largest clusters' members sit in a few of
 * its blocks).  @return 0, -1 on a fault (logged). */
static int seek_docs_file(struct doc_scan *s, FILE *fp, const char *path, uint64_t size)
{
	struct ndf_section **secs = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	for (uint64_t end = size; rc == 0 && end > 0;) {
		struct ndf_section *sec;
		if (ndf_section_open_end(fp, path, end, &sec)) {
			rc = -1;
			break;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 4;
			secs = xrealloc(secs, cap * sizeof *secs);
		}
		secs[n++] = sec;
		end = ndf_section_end(sec) - ndf_section_header(sec)->section_size;
	}
	for (size_t i = n; rc == 0 && i-- > 0;)
		rc = take_section(s, secs[i], s->base, path);
	for (size_t i = 0; i < n; i++)
		ndf_section_close(secs[i]);
	free(secs);
	return rc;
}

static int scan_docs_file(struct doc_scan *s, const char *path)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	struct ndf_block b = {0};
	struct stat st;
	int err = 0, rc = 0;
	if (!fp) {
		log_error("cannot open '%s': %m", path);
		return -1;
	}
	if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		rc = seek_docs_file(s, fp, path, (uint64_t)st.st_size);
		if (fp != stdin)
			fclose(fp);
		return rc;
	}
	for (struct ndf_reader *r; rc == 0 && (r = ndf_reader_open(fp, path, &err));) {
		if (docrec_check_header(ndf_reader_header(r), path))
			rc = -1;
		int got = 0;
		while (rc == 0 && (got = ndf_read_raw_block(r, &b)) == 1) {
			s->blocks_read++;
			rc = take_block(s, &b, path);
		}
		if (rc == 0 && got < 0)
			rc = -1;
		ndf_reader_close(r);
	}
	if (err)
		rc = -1;
	ndf_block_free(&b);
	if (fp != stdin)
		fclose(fp);
	return rc;
}

static int read_titles(const struct opts *o, struct clusters_in *ci, struct doc_scan *s)
{
	s->want = xmalloc((ci->n_rows_top + 1) * sizeof *s->want);
	for (size_t i = 0; i < ci->n_rows_top; i++)
		if (ci->rows_top[i].doc != UINT32_MAX)
			s->want[s->n_want++] = &ci->rows_top[i];
	qsort(s->want, s->n_want, sizeof *s->want, by_doc);
	for (int i = 0; i < o->n_docs; i++)
		if (scan_docs_file(s, o->docs[i]))
			return -1;
	if (s->mismatched)
		log_warn("%llu members of the largest clusters are not the documents of the same "
			 "number in the documents file (another run's?): their titles are left out",
			 (unsigned long long)s->mismatched);
	free(s->tbuf);
	return 0;
}

/* clusters.csv, then the titles of the largest clusters' members.
 * @return 0, or -1 (logged). */
static int read_clusters(const struct opts *o, struct clusters_in *ci, struct doc_scan *ds)
{
	FILE *cf = open_seekable(o->clusters);
	if (!cf || clusters_pass1(cf, o->clusters, ci))
		return -1;
	pick_top(ci, (size_t)o->top);
	if (clusters_pass2(cf, o->clusters, ci, (size_t)o->members))
		return -1;
	fclose(cf);
	return o->n_docs && read_titles(o, ci, ds) ? -1 : 0;
}

/* ---- hosts, from documents.csv ---- */

static int read_documents(const char *path, struct host_table *t)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	struct csv_record rec = {0};
	int rc = -1, got;
	if (!fp) {
		log_error("cannot open '%s': %m", path);
		return -1;
	}
	long cu = -1, cd = -1, cn = -1;
	if (csv_read_record(fp, &rec) == 1) {
		cu = csv_column(&rec, "url");
		cd = csv_column(&rec, "decision");
		cn = csv_column(&rec, "duplicate_of_night");
	}
	if (cu < 0 || cd < 0) {
		log_error("'%s': no url and decision columns: not a documents.csv of ndd-documents", path);
		goto done;
	}
	while ((got = csv_read_record(fp, &rec)) == 1) {
		const int drop = !strcmp(csv_field_at(&rec, (size_t)cd), "drop");
		const int earlier = drop && cn >= 0 && csv_field_len(&rec, (size_t)cn) > 0;
		if (hostshare_add(t, csv_field_at(&rec, (size_t)cu), drop, earlier))
			goto done;
	}
	if (got < 0)
		log_error("'%s', row %llu: not well-formed CSV", path, (unsigned long long)t->pages + 2);
	else
		rc = 0;
done:
	csv_record_free(&rec);
	if (fp != stdin)
		fclose(fp);
	return rc;
}

/* ---- stats.json ---- */

static struct json_value *read_json(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	if (!fp) {
		log_error("cannot open '%s': %m", path);
		return NULL;
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			buf = xrealloc(buf, cap);
		}
		got = fread(buf + len, 1, cap - len, fp);
		len += got;
	} while (got);
	const int bad = ferror(fp);
	fclose(fp);
	struct json_value *v = bad ? NULL : json_parse(buf, len);
	free(buf);
	if (!v)
		log_error("'%s': %s", path, bad ? "cannot read it" : "not valid JSON");
	return v;
}

/* The non-zero members of object @obj but "total", most first. */
static size_t reasons(const struct json_value *obj, struct report_count **out)
{
	size_t n = 0;
	*out = NULL;
	if (!obj || obj->type != JSON_OBJECT)
		return 0;
	*out = xcalloc(obj->len + 1, sizeof **out);
	for (size_t i = 0; i < obj->len; i++) {
		const long long v = json_int(&obj->items[i], 0);
		if (v >= 1 && strcmp(obj->keys[i], "total")) {
			(*out)[n].name = obj->keys[i];
			(*out)[n++].value = (uint64_t)v;
		}
	}
	for (size_t i = 1; i < n; i++) /* few: insertion sort */
		for (size_t j = i; j > 0 && (*out)[j].value > (*out)[j - 1].value; j--) {
			const struct report_count t = (*out)[j];
			(*out)[j] = (*out)[j - 1];
			(*out)[j - 1] = t;
		}
	return n;
}

static void from_stats(const struct json_value *st, struct report *r)
{
	const struct json_value *ex = json_get(st, "extract");
	struct report_count *c;
	r->started = json_string(json_get(st, "started"), NULL);
	r->method = json_string(json_get(st, "method"), NULL);
	const long long k = json_int(json_get(st, "k"), -1), es = json_int(json_get(st, "exit_status"), -1);
	r->k = k >= 0 && k <= 64 ? (int)k : -1;
	r->exit_status = es >= 0 && es <= 255 ? (int)es : -1;
	if (!r->night)
		r->night = json_string(json_get(st, "night"), NULL);
	r->skipped = json_int(json_get(json_get(ex, "skipped"), "total"), -1);
	r->n_skipped_by = reasons(json_get(ex, "skipped"), &c);
	r->skipped_by = c;
	r->n_filtered_by = reasons(json_get(ex, "filtered"), &c);
	r->filtered_by = c;
	if (r->pages < 0)
		r->pages = json_int(json_get(json_get(st, "join"), "documents"), -1);
}

/* ---- the index of nights ---- */

/* The value of "@key=" in the night.conf at @path, or -1. */
static int64_t conf_value(const char *path, const char *key)
{
	FILE *fp = fopen(path, "r");
	char line[512];
	const size_t kl = strlen(key);
	int64_t v = -1;
	if (!fp)
		return -1;
	while (fgets(line, sizeof line, fp))
		if (!strncmp(line, key, kl) && line[kl] == '=') {
			uint64_t u;
			if (csv_parse_u64(line + kl + 1, strcspn(line + kl + 1, "\r\n"), &u) == 0)
				v = (int64_t)u;
		}
	fclose(fp);
	return v;
}

/* The nights of the index at @dir, oldest first; a night named @night
 * (tonight) is left out: the caller adds tonight's own figures. */
static size_t read_nights(const char *dir, const char *night, struct report_night **out)
{
	char *path = xmalloc(strlen(dir) + 32);
	char line[4096];
	size_t n = 0, cap = 0;
	sprintf(path, "%s/nights.txt", dir);
	FILE *fp = fopen(path, "r");
	*out = NULL;
	free(path);
	if (!fp)
		return 0;
	while (fgets(line, sizeof line, fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (!*line || (night && !strcmp(line, night)))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			*out = xrealloc(*out, (cap + 1) * sizeof **out);
		}
		char *conf = xmalloc(strlen(dir) + strlen(line) + 32);
		sprintf(conf, "%s/nights/%s/night.conf", dir, line);
		struct report_night *e = &(*out)[n++];
		e->name = xstrdup(line);
		e->pages = conf_value(conf, "pages");
		e->clusters = conf_value(conf, "clusters");
		e->dropped = conf_value(conf, "dropped");
		e->tonight = 0;
		free(conf);
	}
	fclose(fp);
	return n;
}

/* ---- the model ---- */

/* Cluster @i of the largest: its members (the representative first) and
 * how many titles, openings and hosts they have. */
static void build_cluster(const struct clusters_in *ci, size_t i, struct report_cluster *c)
{
	struct report_member *m = xcalloc(ci->n_rows_top + 1, sizeof *m);
	const char **t = xcalloc(ci->n_rows_top + 1, sizeof *t);
	const char **op = xcalloc(ci->n_rows_top + 1, sizeof *op);
	char **hs = xcalloc(ci->n_rows_top + 1, sizeof *hs);
	size_t n = 0;
	c->id = ci->top_ids[i];
	c->size = ci->size[c->id];
	for (size_t j = 0; j < ci->n_rows_top; j++) {
		const struct row *r = &ci->rows_top[j];
		if (r->cluster != i)
			continue;
		struct report_member x = {r->url, r->title, r->opening, r->distance, r->is_rep};
		if (r->is_rep && n) { /* the representative leads */
			m[n] = m[0];
			m[0] = x;
		} else
			m[n] = x;
		if (r->distance > c->max_distance)
			c->max_distance = r->distance;
		t[n] = lookalike_title_key(r->title ? r->title : "");
		op[n] = lookalike_opening_key(r->opening ? r->opening : "");
		if (!t[n] || !op[n]) {
			log_error("out of memory");
			exit(EXIT_FAILED);
		}
		hs[n] = xmalloc(256);
		hostshare_url_host(r->url, hs[n], 256);
		n++;
	}
	c->members = m;
	c->n_members = n;
	c->distinct_titles = lookalike_distinct(t, n);
	c->distinct_openings = lookalike_distinct(op, n);
	c->distinct_hosts = lookalike_distinct((const char **)hs, n);
	for (size_t j = 0; j < n; j++) {
		free(hs[j]);
		free((char *)t[j]);
		free((char *)op[j]);
	}
	free(hs);
	free(t);
	free(op);
}

/* Cluster sizes in buckets: 2..10 one each, then 11-20, 21-50, 51-100, ... */
static size_t size_hist(const struct clusters_in *ci, struct chart_bar *bars, char labels[][32])
{
	uint64_t lo[32], hi[32];
	size_t n = 0, used = 0;
	for (uint64_t s = 2; s <= 10; s++)
		lo[n] = hi[n] = s, n++;
	for (uint64_t b = 10; n < 30 && b < (1ull << 40); b *= 10) {
		lo[n] = b + 1, hi[n] = 2 * b, n++;
		lo[n] = 2 * b + 1, hi[n] = 5 * b, n++;
		lo[n] = 5 * b + 1, hi[n] = 10 * b, n++;
	}
	for (size_t i = 0; i < n; i++) {
		bars[i].value = 0;
		if (lo[i] == hi[i])
			snprintf(labels[i], 32, "%llu", (unsigned long long)lo[i]);
		else
			snprintf(labels[i], 32, "%llu-%llu", (unsigned long long)lo[i],
				 (unsigned long long)hi[i]);
		bars[i].label = labels[i];
	}
	for (uint64_t id = 1; id < ci->n_ids; id++) {
		const uint64_t s = ci->size[id];
		for (size_t i = 0; s && i < n; i++)
			if (s >= lo[i] && s <= hi[i]) {
				bars[i].value++;
				if (i + 1 > used)
					used = i + 1;
				break;
			}
	}
	return used;
}

static size_t dist_hist(const struct clusters_in *ci, struct chart_bar *bars, char labels[][32])
{
	size_t used = 0;
	for (size_t d = 0; d <= 64; d++) {
		snprintf(labels[d], 32, "%zu", d);
		bars[d].label = labels[d];
		bars[d].value = (double)ci->dist[d];
		if (ci->dist[d])
			used = d + 1;
	}
	return used;
}

/* Free what main() gathered (the sanitizers' leak check runs the stage). */
static void free_all(struct clusters_in *ci, struct report_cluster *top, struct host_table *hm,
		     struct report_night *nights, size_t n_nights, struct report *r,
		     struct doc_scan *ds)
{
	for (size_t i = 0; i < ci->n_rows_top; i++) {
		free(ci->rows_top[i].url);
		free(ci->rows_top[i].title);
		free(ci->rows_top[i].opening);
	}
	for (size_t i = 0; i < ci->n_matches; i++)
		free((char *)ci->matches[i].name);
	for (size_t i = 0; i < ci->n_top; i++)
		free((void *)top[i].members);
	for (size_t i = 0; i + 1 < n_nights; i++) /* the last is tonight's, not allocated */
		free((char *)nights[i].name);
	free(ci->rows_top);
	free(ci->size);
	free(ci->top_ids);
	free(top);
	hostshare_free(hm);
	free(nights);
	free((void *)r->skipped_by);
	free((void *)r->filtered_by);
	free(ds->want);
}

int main(int argc, char **argv)
{
	static struct opts o;
	static struct clusters_in ci;
	static struct chart_bar sbars[32], dbars[65];
	static char slabels[32][32], dlabels[65][32];
	struct report r = {.night = NULL, .k = -1, .exit_status = -1, .pages = -1, .skipped = -1,
			   .clusters = -1, .clustered = -1, .dropped = -1, .dropped_earlier = -1};
	struct host_table hm = {0};
	struct doc_scan ds = {0};
	struct json_value *st = NULL;
	struct html_buf h = {0};
	struct outfile f = {0};
	log_init("ndd-report");
	parse(&o, argc, argv);
	r.night = o.night;

	/* The clusters with their titles, and the hosts: two readings that
	 * share nothing, side by side on two threads. */
	int bad_clusters = 0, bad_hosts = 0;
#pragma omp parallel sections num_threads(2)
	{
#pragma omp section
		bad_clusters = read_clusters(&o, &ci, &ds);
#pragma omp section
		bad_hosts = o.documents && read_documents(o.documents, &hm);
	}
	if (bad_clusters || bad_hosts)
		return EXIT_FAILED;
	if (o.stats && !(st = read_json(o.stats)))
		return EXIT_FAILED;

	r.clusters = (int64_t)ci.clusters;
	r.clustered = (int64_t)ci.rows;
	if (o.documents) {
		r.pages = (int64_t)hm.pages;
		r.dropped = (int64_t)hm.dropped;
		r.dropped_earlier = (int64_t)hm.dropped_earlier;
		r.hosts_total = hm.n;
		const size_t nh = hostshare_sort(&hm);
		r.hosts = hm.slot;
		r.n_hosts = nh < (size_t)o.hosts ? nh : (size_t)o.hosts;
	}
	if (st)
		from_stats(st, &r);
	r.n_size_hist = size_hist(&ci, sbars, slabels);
	r.size_hist = sbars;
	r.n_dist_hist = dist_hist(&ci, dbars, dlabels);
	r.dist_hist = dbars;
	r.matches = ci.matches;
	r.n_matches = ci.n_matches;
	struct report_cluster *top = xcalloc(ci.n_top + 1, sizeof *top);
	for (size_t i = 0; i < ci.n_top; i++)
		build_cluster(&ci, i, &top[i]);
	r.top = top;
	r.n_top = ci.n_top;
	struct report_night *nights = NULL;
	size_t nn = 0;
	if (o.index) {
		nn = read_nights(o.index, r.night, &nights);
		nights = xrealloc(nights, (nn + 1) * sizeof *nights);
		nights[nn++] = (struct report_night){r.night ? r.night : "tonight", r.pages,
						     r.clusters, r.dropped, 1};
	}
	r.nights = nights;
	r.n_nights = nn;

	report_html_write(&h, &r);
	if (!html_buf_ok(&h)) {
		log_error("out of memory writing the page");
		return EXIT_FAILED;
	}
	if (outfile_open(&f, o.cc.output) || outfile_write(&f, h.p, h.len) || outfile_commit(&f)) {
		outfile_abort(&f);
		return EXIT_FAILED;
	}
	size_t suspect = 0;
	for (size_t i = 0; i < r.n_top; i++)
		suspect += (size_t)report_cluster_suspect(&top[i]);
	cli_summary("%llu clusters, the largest %llu pages; %zu shown, %zu of them marked as "
		    "different pages; titles of %llu members (%llu of %llu document blocks decoded); "
		    "%zu bytes",
		    (unsigned long long)ci.clusters,
		    (unsigned long long)(ci.n_top ? ci.size[ci.top_ids[0]] : 0), r.n_top, suspect,
		    (unsigned long long)ds.titles, (unsigned long long)ds.blocks_decoded,
		    (unsigned long long)ds.blocks_read, h.len);
	html_buf_free(&h);
	json_free(st);
	free_all(&ci, top, &hm, nights, nn, &r, &ds);
	free(o.docs);
	return EXIT_OK;
}
