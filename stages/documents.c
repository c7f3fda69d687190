/*
 * ndd-documents - documents.csv: every document of tonight, keep or drop.
 *
 * Tonight's clusters (self-join's clusters.csv) say which of tonight's
 * pages are copies of each other.  The pages of earlier nights (their
 * fingerprint catalogs, kept in the index of nights) are looked up in
 * tonight's compressed tables: each earlier night's fingerprints are the
 * queries of a batch (query.h), so no earlier night needs tables of its
 * own, only its catalog.  A group is a cluster of tonight with every
 * earlier page that matches one of its members (a page of tonight in no
 * cluster is a group of its own); one copy of a group is kept, by the
 * --keep rule, and every other page of tonight in it is dropped, naming
 * the kept copy (and its night, if earlier).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "format/catalog.h"
#include "format/ndf.h"
#include "output/csv.h"
#include "output/csv_read.h"
#include "output/documents_csv.h"
#include "output/provenance.h"
#include "tables/design.h"
#include "tables/join.h"
#include "tables/query.h"
#include "util/cli.h"
#include "util/log.h"
#include "util/outfile.h"

enum keep_rule { KEEP_EARLIEST, KEEP_MOST_LINKED, KEEP_SHORTEST_URL };

struct night {
	const char *name, *path;
	size_t n_docs;
	struct pair_vec pairs; /* a = its document, b = tonight's */
	struct provenance prov;
};

struct opts {
	struct cli_common cc;
	int k;
	enum keep_rule keep;
	const char *catalog, *tables, *clusters, *stats;
	struct night *nights; /* oldest first */
	int n_nights;
};

static void usage(FILE *fp, int status)
{
	fprintf(fp,
		"Usage: ndd-documents -c FPS [--tables TABLES] --clusters CSV [options]\n"
		"Write documents.csv: every document of tonight's catalog FPS, in order, kept\n"
		"or dropped as a copy of a page of tonight (clusters.csv of ndd-self-join) or\n"
		"of an earlier night (whose catalog is looked up in tonight's TABLES).\n\n"
		"  -c, --catalog FILE  tonight's fingerprints (the catalog of TABLES)\n"
		"      --tables FILE   tonight's compressed tables (needed with --earlier)\n"
		"      --clusters FILE tonight's clusters.csv (ndd-self-join -o)\n"
		"      --earlier NAME=FPS  an earlier night's catalog, named NAME in the\n"
		"                      output; repeat, the oldest night first\n"
		"      --keep RULE     which copy is kept: earliest (default: earliest night,\n"
		"                      then earliest WARC-Date, then input order), most-linked\n"
		"                      (most near-duplicates in its group), shortest-url\n"
		"  -k, --distance K    pairs within K (default: the tables' k; not more)\n"
		"      --stats FILE    write statistics as JSON\n" CLI_COMMON_HELP
		"Output columns: url,warc_file,warc_offset,record_id,warc_date,fingerprint,\n"
		"cluster_id,decision,duplicate_of,duplicate_of_night,match (decision: keep, drop;\n"
		"match: a dropped page's duplicate type against the kept copy).\n");
	exit(status);
}

static void parse(struct opts *o, int argc, char **argv)
{
	enum { OPT_TABLES = CLI_OPT_STAGE_BASE, OPT_CLUSTERS, OPT_EARLIER, OPT_KEEP, OPT_STATS };
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{"catalog", required_argument, NULL, 'c'},
		{"tables", required_argument, NULL, OPT_TABLES},
		{"clusters", required_argument, NULL, OPT_CLUSTERS},
		{"earlier", required_argument, NULL, OPT_EARLIER},
		{"keep", required_argument, NULL, OPT_KEEP},
		{"distance", required_argument, NULL, 'k'},
		{"stats", required_argument, NULL, OPT_STATS},
		{NULL, 0, NULL, 0},
	};
	int c;
	o->k = -1;
	o->nights = xcalloc((size_t)argc, sizeof *o->nights);
	while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS "c:k:", longopts, NULL)) != -1) {
		if (cli_common_option(&o->cc, c, optarg, usage))
			continue;
		switch (c) {
		case 'c': o->catalog = optarg; break;
		case 'k': o->k = (int)cli_parse_int("--distance", optarg, 0, DESIGN_MAX_K); break;
		case OPT_TABLES: o->tables = optarg; break;
		case OPT_CLUSTERS: o->clusters = optarg; break;
		case OPT_STATS: o->stats = optarg; break;
		case OPT_EARLIER: {
			char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg || !eq[1]) {
				log_error("--earlier wants NAME=FPS, got '%s'", optarg);
				usage(stderr, EXIT_FAILED);
			}
			*eq = '\0';
			o->nights[o->n_nights].name = optarg;
			o->nights[o->n_nights++].path = eq + 1;
			break;
		}
		case OPT_KEEP:
			if (!strcmp(optarg, "earliest"))
				o->keep = KEEP_EARLIEST;
			else if (!strcmp(optarg, "most-linked"))
				o->keep = KEEP_MOST_LINKED;
			else if (!strcmp(optarg, "shortest-url"))
				o->keep = KEEP_SHORTEST_URL;
			else {
				log_error("--keep: earliest, most-linked or shortest-url, not '%s'",
					  optarg);
				usage(stderr, EXIT_FAILED);
			}
			break;
		default: usage(stderr, EXIT_FAILED);
		}
	}
	if (!o->catalog || !o->clusters || optind < argc) {
		log_error("--catalog and --clusters are required, and nothing else");
		usage(stderr, EXIT_FAILED);
	}
	if (o->n_nights && !o->tables) {
		log_error("--earlier looks nights up in tonight's tables: give --tables");
		usage(stderr, EXIT_FAILED);
	}
	cli_common_finish(&o->cc);
}

/* ---- tonight's clusters, from clusters.csv ---- */

struct clusters_in {
	uint32_t *cid;    /* per tonight document: its cluster, 0 = none */
	uint32_t *size;   /* per cluster (from 1): members */
	uint32_t *rep;    /* per cluster: its representative */
	uint32_t n_clusters;
};

/* Read the columns cluster_id, doc_id and is_representative of @path
 * into @c (for documents 0..@n_docs-1).  @return 0 or -1 (logged). */
static int read_clusters(const char *path, size_t n_docs, struct clusters_in *c)
{
	FILE *fp = fopen(path, "rb");
	struct csv_record r = {0};
	int rc = -1, got;
	size_t line = 1;
	if (!fp) {
		log_error("cannot open '%s': %m", path);
		return -1;
	}
	static const char *const names[3] = {"cluster_id", "doc_id", "is_representative"};
	long want[3] = {-1, -1, -1};
	if ((got = csv_read_record(fp, &r)) < 0)
		goto bad;
	for (int i = 0; got && i < 3; i++)
		want[i] = csv_column(&r, names[i]);
	if (want[0] < 0 || want[1] < 0 || want[2] < 0) {
		log_error("'%s': no cluster_id, doc_id and is_representative columns: "
			  "not a clusters.csv of ndd-self-join", path);
		goto done;
	}
	c->cid = xcalloc(n_docs + 1, sizeof *c->cid);
	size_t cap_c = 1024;
	c->size = xcalloc(cap_c, sizeof *c->size);
	c->rep = xcalloc(cap_c, sizeof *c->rep);
	while (line++, (got = csv_read_record(fp, &r)) > 0) {
		uint64_t v[3] = {0, 0, 0};
		int ok = 1;
		for (int i = 0; i < 3; i++)
			ok &= (size_t)want[i] < r.n_fields && !csv_field_u64(&r, (size_t)want[i], &v[i]);
		if (!ok || v[0] == 0 || v[0] >= UINT32_MAX || v[1] >= n_docs || v[2] > 1 ||
		    c->cid[v[1]]) {
			log_error("'%s', row %zu: not a member of tonight's clusters "
				  "(cluster %llu, document %llu of %zu)",
				  path, line, (unsigned long long)v[0], (unsigned long long)v[1], n_docs);
			goto done;
		}
		if (v[0] >= cap_c) {
			const size_t old = cap_c;
			while (cap_c <= v[0])
				cap_c *= 2;
			c->size = xrealloc(c->size, cap_c * sizeof *c->size);
			c->rep = xrealloc(c->rep, cap_c * sizeof *c->rep);
			memset(c->size + old, 0, (cap_c - old) * sizeof *c->size);
		}
		c->cid[v[1]] = (uint32_t)v[0];
		c->size[v[0]]++;
		if (v[2])
			c->rep[v[0]] = (uint32_t)v[1];
		if (v[0] > c->n_clusters)
			c->n_clusters = (uint32_t)v[0];
	}
	if (got < 0)
		goto bad;
	if (ferror(fp)) {
		log_error("cannot read '%s': %m", path);
		goto done;
	}
	rc = 0;
	goto done;
bad:
	if (ferror(fp))
		log_error("cannot read '%s': %m", path);
	else
		log_error("'%s', row %zu: not well-formed CSV", path, line);
done:
	csv_record_free(&r);
	fclose(fp);
	return rc;
}

/* ---- groups and the copy each keeps ---- */

/* A candidate copy: document @idx of night @night (n_nights = tonight). */
struct cand {
	uint32_t night, idx, links;
};
#define NO_NIGHT UINT32_MAX

struct run {
	const struct opts *o;
	struct ndf_header tables; /* tonight's first table */
	struct provenance tonight;
	struct clusters_in cl;
	struct cand *win; /* per group: the kept copy (night NO_NIGHT: none) */
	struct query_stats qst;
	uint64_t cross_pairs;
	uint64_t kept, dropped, dropped_earlier;
	uint64_t dropped_by_match[4]; /* enum prov_match */
};

/* Group of tonight's document @t: its cluster's, else one of its own. */
static size_t group_of(const struct run *r, uint32_t t)
{
	const uint32_t c = r->cl.cid[t];
	return c ? c - 1 : (size_t)r->cl.n_clusters + t;
}

static const struct provenance *cand_prov(const struct run *r, const struct cand *c)
{
	return c->night == (uint32_t)r->o->n_nights ? &r->tonight : &r->o->nights[c->night].prov;
}

static const struct prov_doc *cand_doc(const struct run *r, const struct cand *c)
{
	return prov_get(cand_prov(r, c), c->idx);
}

/* WARC-Dates as written (ISO 8601, which sorts as text); none sorts last. */
static int date_cmp(struct str a, struct str b)
{
	if (!a.n || !b.n)
		return (a.n == 0) - (b.n == 0);
	const int c = memcmp(a.p, b.p, a.n < b.n ? a.n : b.n);
	return c ? c : (a.n > b.n) - (a.n < b.n);
}

/* Whether @x is to be kept rather than @y. */
static int better(const struct run *r, const struct cand *x, const struct cand *y)
{
	if (y->night == NO_NIGHT)
		return 1;
	const struct prov_doc *a = cand_doc(r, x), *b = cand_doc(r, y);
	if (r->o->keep == KEEP_SHORTEST_URL && a->url_len != b->url_len)
		return a->url_len < b->url_len;
	if (r->o->keep == KEEP_MOST_LINKED && x->links != y->links)
		return x->links > y->links;
	if (x->night != y->night)
		return x->night < y->night;
	const int d = date_cmp(prov_date(a), prov_date(b));
	return d ? d < 0 : x->idx < y->idx;
}

static void offer(struct run *r, size_t g, struct cand c)
{
	if (better(r, &c, &r->win[g]))
		r->win[g] = c;
}

/* A pair of an earlier night's page and tonight's, by group. */
struct cross {
	size_t g;
	uint32_t night, s, t;
};

static int cross_cmp(const void *pa, const void *pb)
{
	const struct cross *a = pa, *b = pb;
	if (a->g != b->g)
		return a->g < b->g ? -1 : 1;
	if (a->night != b->night)
		return a->night < b->night ? -1 : 1;
	return (a->s > b->s) - (a->s < b->s);
}

/* The kept copy of every group: tonight's members of the clusters (the
 * representative has its cluster's other members as links, a member its
 * representative), then the earlier nights' pages (a page has as many
 * links as tonight's members it matches; a page of tonight in no cluster
 * as many as the earlier pages it matches). */
static void decide(struct run *r, const struct cross *x, size_t nx)
{
	const uint32_t tonight = (uint32_t)r->o->n_nights;
	for (uint32_t t = 0; t < r->tonight.n_docs; t++) {
		const uint32_t c = r->cl.cid[t];
		if (c)
			offer(r, c - 1,
			      (struct cand){tonight, t, r->cl.rep[c] == t ? r->cl.size[c] - 1 : 1});
	}
	for (size_t i = 0; i < nx;) {
		size_t j = i;
		while (j < nx && x[j].g == x[i].g)
			j++;
		if (x[i].g >= r->cl.n_clusters)
			offer(r, x[i].g, (struct cand){tonight, x[i].t, (uint32_t)(j - i)});
		for (size_t a = i; a < j;) {
			size_t b = a;
			while (b < j && x[b].night == x[a].night && x[b].s == x[a].s)
				b++;
			offer(r, x[i].g, (struct cand){x[a].night, x[a].s, (uint32_t)(b - a)});
			a = b;
		}
		i = j;
	}
}

/* ---- the earlier nights ---- */

/* Look night @n's fingerprints up in tonight's tables; mark the pages
 * paired (both sides) for their provenance. */
static int look_up(struct run *r, struct night *n)
{
	uint64_t *q = NULL;
	size_t nq = 0;
	struct catalog_info info;
	struct ndf_header first;
	struct design d;
	memset(&d, 0, sizeof d);
	if (catalog_simhashes(&n->path, 1, &q, &nq, &info))
		return -1;
	int rc = 0;
	if (info.feature_config != r->tables.feature_config) {
		log_error("night '%s' (%s) was fingerprinted with other settings (feature config "
			  "%016llx) than tonight (%016llx): its pages cannot be compared",
			  n->name, n->path, (unsigned long long)info.feature_config,
			  (unsigned long long)r->tables.feature_config);
		rc = -1;
	}
	if (!rc)
		rc = query_file(r->o->tables, q, nq, info.feature_config, &n->pairs, &r->qst, &first,
				&d);
	design_free(&d);
	free(q);
	n->n_docs = nq;
	if (rc || prov_init(&n->prov, nq))
		return -1;
	pair_vec_limit(&n->pairs, r->o->k >= 0 ? (uint32_t)r->o->k : r->tables.k);
	for (size_t i = 0; i < n->pairs.n; i++) {
		prov_mark(&n->prov, n->pairs.v[i].a);
		prov_mark(&r->tonight, n->pairs.v[i].b);
	}
	return 0;
}

/* The pairs of every night that may be reported (prov_pair_allowed()),
 * sorted by group.  *@nx gets their number. */
static struct cross *gather(struct run *r, size_t *nx)
{
	size_t n = 0, total = 0;
	for (int j = 0; j < r->o->n_nights; j++)
		total += r->o->nights[j].pairs.n;
	struct cross *x = xmalloc((total + 1) * sizeof *x);
	for (int j = 0; j < r->o->n_nights; j++) {
		const struct night *nt = &r->o->nights[j];
		for (size_t i = 0; i < nt->pairs.n; i++) {
			const struct pair *pr = &nt->pairs.v[i];
			if (!prov_pair_allowed(prov_get(&nt->prov, pr->a),
					       prov_get(&r->tonight, pr->b), pr->d))
				continue;
			x[n++] = (struct cross){group_of(r, pr->b), (uint32_t)j, pr->a, pr->b};
		}
	}
	qsort(x, n, sizeof *x, cross_cmp);
	*nx = n;
	return x;
}

/* ---- writing documents.csv in document order ---- */

/* Rows are made by the catalog's decoding threads, each into its own
 * buffer, and written in order when the next batch begins (every record
 * before it has then been visited). */
struct writer {
	struct run *r;
	struct csv_writer csv;
	char **row;
	size_t *len;
	uint64_t first, n, cap;
	uint64_t kept, dropped, dropped_earlier;
	uint64_t by_match[4]; /* dropped, by their match column */
};

static void flush_rows(struct writer *w)
{
	for (uint64_t i = 0; i < w->n; i++) {
		csv_raw(&w->csv, w->row[i], w->len[i]);
		if (w->csv.len >= CSV_FLUSH_AT)
			csv_flush(&w->csv);
		free(w->row[i]);
		w->row[i] = NULL;
	}
	w->n = 0;
}

static int on_batch(void *ctx, uint64_t first, uint64_t n)
{
	struct writer *w = ctx;
	flush_rows(w);
	if (n > w->cap) {
		w->cap = n;
		w->row = xrealloc(w->row, n * sizeof *w->row);
		w->len = xrealloc(w->len, n * sizeof *w->len);
	}
	memset(w->row, 0, n * sizeof *w->row);
	w->first = first;
	w->n = n;
	return w->csv.err ? -1 : 0;
}

static int on_record(void *ctx, uint64_t idx, const struct fp_record *rec)
{
	struct writer *w = ctx;
	const struct run *r = w->r;
	if (idx >= r->tonight.n_docs)
		return -1;
	const struct cand *win = &r->win[group_of(r, (uint32_t)idx)];
	struct documents_row row = {rec, r->cl.cid[idx], 0, {"", 0}, {"", 0}, ""};
	if (win->night != NO_NIGHT &&
	    (win->night != (uint32_t)r->o->n_nights || win->idx != (uint32_t)idx)) {
		const struct prov_doc *k = cand_doc(r, win);
		const enum prov_match m = prov_match(prov_get(&r->tonight, (uint32_t)idx),
						     prov_frame(&r->tonight,
								prov_get(&r->tonight, (uint32_t)idx)),
						     k, prov_frame(cand_prov(r, win), k));
		row.drop = 1;
		row.dup_url = (struct str){k->url, k->url_len};
		row.match = prov_match_name(m);
		__atomic_fetch_add(&w->by_match[m], 1, __ATOMIC_RELAXED);
		if (win->night < (uint32_t)r->o->n_nights) {
			const char *name = r->o->nights[win->night].name;
			row.dup_night = (struct str){name, (uint32_t)strlen(name)};
			__atomic_fetch_add(&w->dropped_earlier, 1, __ATOMIC_RELAXED);
		}
		__atomic_fetch_add(&w->dropped, 1, __ATOMIC_RELAXED);
	} else {
		__atomic_fetch_add(&w->kept, 1, __ATOMIC_RELAXED);
	}
	char *buf = malloc(documents_csv_bound(&row));
	if (!buf) {
		log_error("out of memory for a row of documents.csv");
		return -1;
	}
	w->len[idx - w->first] = (size_t)(documents_csv_put(buf, &row) - buf);
	w->row[idx - w->first] = buf;
	return 0;
}

static int write_documents(struct run *r, struct outfile *out)
{
	struct writer w = {.r = r};
	struct catalog_info info;
	struct catalog_visitor v = {.batch = on_batch, .record = on_record, .ctx = &w};
	csv_init(&w.csv, out);
	csv_raw(&w.csv, documents_csv_header, strlen(documents_csv_header));
	int rc = catalog_scan(&r->o->catalog, 1, &v, &info) ? -1 : 0;
	if (!rc)
		flush_rows(&w);
	for (uint64_t i = 0; i < w.n; i++)
		free(w.row[i]);
	free(w.row);
	free(w.len);
	if (csv_close(&w.csv) && !rc) {
		log_error("cannot write documents.csv");
		rc = -1;
	}
	r->kept = w.kept;
	r->dropped = w.dropped;
	r->dropped_earlier = w.dropped_earlier;
	memcpy(r->dropped_by_match, w.by_match, sizeof w.by_match);
	return rc;
}

/* ---- main ---- */

/* The header of the first section of @path, which must hold @kind. */
static int read_header(const char *path, uint32_t kind, struct ndf_header *h)
{
	FILE *fp = fopen(path, "rb");
	struct ndf_section *sec = NULL;
	if (!fp) {
		log_error("cannot open '%s': %m", path);
		return -1;
	}
	int rc = ndf_section_open(fp, path, 0, &sec) ? -1 : 0;
	if (!rc)
		*h = *ndf_section_header(sec);
	if (!rc && h->kind != kind) {
		log_error("'%s': holds %s, expected %s", path, ndf_kind_name(h->kind),
			  ndf_kind_name(kind));
		rc = -1;
	}
	ndf_section_close(sec);
	fclose(fp);
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

static int write_stats(const char *path, const struct run *r, double secs)
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
		r->tonight.n_docs, (unsigned long long)r->kept, (unsigned long long)r->dropped,
		(unsigned long long)r->dropped_earlier, r->o->n_nights,
		(unsigned long long)r->dropped_by_match[PROV_EXACT],
		(unsigned long long)r->dropped_by_match[PROV_SAME_CONTENT],
		(unsigned long long)r->dropped_by_match[PROV_SAME_LAYOUT],
		(unsigned long long)r->dropped_by_match[PROV_PARTIAL],
		(unsigned long long)r->cross_pairs, (unsigned long long)r->qst.blocks_read,
		bytes_read(), secs);
	return outfile_commit(&out);
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	struct run r;
	struct outfile out = {0};
	struct cross *x = NULL;
	size_t nx = 0;
	double t0 = log_wall();

	log_init("ndd-documents");
	parse(&o, argc, argv);
	memset(&r, 0, sizeof r);
	r.o = &o;
	/* Without earlier nights the tables are not read: the catalog's
	 * header gives tonight's count (a run that joined in memory wrote
	 * no tables). */
	int rc = o.tables ? read_header(o.tables, NDF_KIND_CTABLE, &r.tables)
			  : read_header(o.catalog, NDF_KIND_FPS, &r.tables);
	if (!rc && o.tables && o.k > (int)r.tables.k) {
		log_error("tables were built for k = %u; they cannot find pairs within %d",
			  r.tables.k, o.k);
		rc = -1;
	}
	if (!rc && r.tables.record_count >= UINT32_MAX) {
		log_error("too many documents tonight (%llu)",
			  (unsigned long long)r.tables.record_count);
		rc = -1;
	}
	if (!rc)
		rc = prov_init(&r.tonight, r.tables.record_count);
	if (!rc)
		rc = read_clusters(o.clusters, r.tonight.n_docs, &r.cl);
	for (uint32_t t = 0; !rc && t < r.tonight.n_docs; t++)
		if (r.cl.cid[t])
			prov_mark(&r.tonight, t);
	for (int j = 0; !rc && j < o.n_nights; j++)
		rc = look_up(&r, &o.nights[j]);
	if (!rc) {
		struct catalog_info info;
		rc = prov_load(&r.tonight, &o.catalog, 1, &info);
		if (!rc && !o.tables && info.n_records != r.tables.record_count) {
			log_error("'%s': %llu records, its first section %llu: one catalog "
				  "section only without --tables",
				  o.catalog, (unsigned long long)info.n_records,
				  (unsigned long long)r.tables.record_count);
			rc = -1;
		}
		if (!rc && o.tables && info.dataset_id != r.tables.dataset_id) {
			log_error("'%s' is not the catalog the tables '%s' were built from",
				  o.catalog, o.tables);
			rc = -1;
		}
	}
	for (int j = 0; !rc && j < o.n_nights; j++) {
		struct catalog_info info;
		if (o.nights[j].pairs.n) /* else nothing of it is named */
			rc = prov_load(&o.nights[j].prov, &o.nights[j].path, 1, &info);
	}
	if (!rc) {
		x = gather(&r, &nx);
		r.cross_pairs = nx;
		r.win = xmalloc(((size_t)r.cl.n_clusters + r.tonight.n_docs + 1) * sizeof *r.win);
		for (size_t g = 0; g < (size_t)r.cl.n_clusters + r.tonight.n_docs + 1; g++)
			r.win[g].night = NO_NIGHT;
		decide(&r, x, nx);
		rc = outfile_open(&out, o.cc.output);
	}
	if (!rc)
		rc = write_documents(&r, &out);
	if (!rc)
		rc = outfile_commit(&out);
	if (!rc && o.stats)
		rc = write_stats(o.stats, &r, log_wall() - t0);
	if (!rc)
		cli_summary("%zu documents: %llu kept, %llu dropped (%llu as copies of %d earlier "
			    "night(s)); %llu blocks of tonight's tables read",
			    r.tonight.n_docs, (unsigned long long)r.kept,
			    (unsigned long long)r.dropped, (unsigned long long)r.dropped_earlier,
			    o.n_nights, (unsigned long long)r.qst.blocks_read);
	else
		outfile_abort(&out);
	for (int j = 0; j < o.n_nights; j++) {
		prov_free(&o.nights[j].prov);
		pair_vec_free(&o.nights[j].pairs);
	}
	prov_free(&r.tonight);
	free(r.cl.cid);
	free(r.cl.size);
	free(r.cl.rep);
	free(r.win);
	free(x);
	free(o.nights);
	return rc ? EXIT_FAILED : EXIT_OK;
}
