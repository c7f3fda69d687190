/*
 * ndd-self-join - tables -> every pair within k -> clusters -> CSV.
 *
 * 1. Each table in turn is streamed in batches (decoded in parallel) and
 *    the complete runs of a batch are scanned in parallel while the next
 *    is read; a pair is kept only by the first table whose leading blocks
 *    it agrees on, so it is found once.  With --from-fingerprints the
 *    tables are instead built from the catalog's fingerprints and joined
 *    in memory (memjoin.h): the same pairs, with no tables written.
 * 2. One pass over the catalog: the dataset id must match the tables', and
 *    the documents in pairs get their flags and provenance.
 * 3. Pairs of short or empty texts are filtered (filter_pairs()), the rest
 *    become bounded-radius clusters (cluster.h), written as CSV.
 * 4. With --documents, documents.csv from the clusters and one more pass
 *    over the catalog (keep.h, documents_csv.h): the file ndd-documents
 *    writes when no earlier night is looked up, without reading the
 *    clusters back.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "util/bitrank.h"
#include "format/catalog.h"
#include "util/cli.h"
#include "output/cluster.h"
#include "output/clusters_csv.h"
#include "output/csv.h"
#include "output/documents_csv.h"
#include "output/keep.h"
#include "tables/design.h"
#include "util/infile.h"
#include "tables/join.h"
#include "tables/pairfile.h"
#include "tables/memjoin.h"
#include "util/log.h"
#include "util/memhint.h"
#include "format/ndf.h"
#include "util/outfile.h"
#include "output/pairs_csv.h"
#include "output/provenance.h"
#include "tables/tablefile.h"
#include "tables/tablejoin.h"
#include "util/threads.h"


struct opts {
	struct cli_common cc;
	int k; /* -1 = the tables' k */
	const char **catalog;
	int n_catalog;
	const char *stats, *pairs;
	const char *found; /* --found-pairs */
	int from_fps;    /* --from-fingerprints: tables built here, in memory */
	uint32_t design; /* --design with it; 0 = choose */
	const char *documents, *documents_stats; /* --documents, --documents-stats */
	enum keep_rule keep;
};

static void usage(FILE *fp, int status)
{
	fprintf(fp,
		"Usage: ndd-self-join --catalog FPS [options] [TABLES]\n"
		"       ndd-self-join --catalog FPS --from-fingerprints [-k K] [options]\n"
		"Find every pair of fingerprints within k bits in the tables written by\n"
		"ndd-compress or ndd-permute-sort (a file, or '-' / none for standard\n"
		"input), group them into clusters and write the cluster CSV.  With\n"
		"--from-fingerprints the tables are built from the catalog's fingerprints\n"
		"in memory, one at a time, and joined as they are sorted: the same pairs,\n"
		"no tables written (12 bytes per fingerprint more memory).\n\n"
		"  -c, --catalog FILE  fingerprint file(s) the tables were built from, in the\n"
		"                      same order (repeat the option for several); required\n"
		"  -k, --distance K    report pairs within K (default: the tables' k; may\n"
		"                      be smaller, not larger; with --from-fingerprints\n"
		"                      the k to build for, default 6)\n"
		"      --from-fingerprints  build and join the tables in memory\n"
		"      --design R      with --from-fingerprints: force the design (R or\n"
		"                      R1xR2, as ndd-permute-sort --design)\n"
		"      --stats FILE    write statistics as JSON\n"
		"      --pairs FILE    also write every pair as text: key_a,key_b,distance,\n"
		"                      match (key = URL, or the key given to --import-text)\n"
		"      --found-pairs FILE take the pairs from FILE (written by ndd-mpi, which\n"
		"                      joined the tables on many ranks) instead of joining\n"
		"                      TABLES; no TABLES are read\n"
		"      --documents FILE  also write documents.csv (as ndd-documents without\n"
		"                      earlier nights): every document of the catalog, kept\n"
		"                      or dropped as a copy of another of its cluster\n"
		"      --keep RULE     with --documents: which copy is kept (earliest,\n"
		"                      most-linked, shortest-url; as ndd-documents --keep)\n"
		"      --documents-stats FILE  with --documents: its statistics as JSON\n"
		CLI_COMMON_HELP
		"Output columns: cluster_id,url,warc_file,warc_offset,record_id,warc_date,\n"
		"fingerprint,distance,is_representative,match,doc_id (match: rep, or the\n"
		"member's duplicate type against it: exact, same-content, same-layout,\n"
		"partial; doc_id: the document's index in the catalog).\n");
	exit(status);
}

static void parse(struct opts *o, int argc, char **argv)
{
	enum {
		OPT_STATS = CLI_OPT_STAGE_BASE,
		OPT_PAIRS,
		OPT_FOUND,
		OPT_FROM_FPS,
		OPT_DESIGN,
		OPT_DOCUMENTS,
		OPT_KEEP,
		OPT_DOCUMENTS_STATS
	};
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{"catalog", required_argument, NULL, 'c'},
		{"distance", required_argument, NULL, 'k'},
		{"stats", required_argument, NULL, OPT_STATS},
		{"pairs", required_argument, NULL, OPT_PAIRS},
		{"found-pairs", required_argument, NULL, OPT_FOUND},
		{"from-fingerprints", no_argument, NULL, OPT_FROM_FPS},
		{"design", required_argument, NULL, OPT_DESIGN},
		{"documents", required_argument, NULL, OPT_DOCUMENTS},
		{"keep", required_argument, NULL, OPT_KEEP},
		{"documents-stats", required_argument, NULL, OPT_DOCUMENTS_STATS},
		{NULL, 0, NULL, 0},
	};
	int c, keep_given = 0;
	o->k = -1;
	o->catalog = xcalloc((size_t)argc, sizeof *o->catalog);
	while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS "c:k:", longopts, NULL)) != -1) {
		if (cli_common_option(&o->cc, c, optarg, usage))
			continue;
		switch (c) {
		case 'c':
			o->catalog[o->n_catalog++] = optarg;
			break;
		case 'k': o->k = (int)cli_parse_int("--distance", optarg, 0, DESIGN_MAX_K); break;
		case OPT_STATS: o->stats = optarg; break;
		case OPT_PAIRS: o->pairs = optarg; break;
		case OPT_FOUND: o->found = optarg; break;
		case OPT_FROM_FPS: o->from_fps = 1; break;
		case OPT_DESIGN:
			if (design_parse(optarg, &o->design)) {
				log_error("invalid --design '%s' (expected R or R1xR2, e.g. 5 or 4x4)", optarg);
				exit(EXIT_FAILED);
			}
			break;
		case OPT_DOCUMENTS: o->documents = optarg; break;
		case OPT_DOCUMENTS_STATS: o->documents_stats = optarg; break;
		case OPT_KEEP:
			keep_given = 1;
			if (keep_rule_parse(optarg, &o->keep)) {
				log_error("--keep: earliest, most-linked or shortest-url, not '%s'",
					  optarg);
				usage(stderr, EXIT_FAILED);
			}
			break;
		default: usage(stderr, EXIT_FAILED);
		}
	}
	if ((keep_given || o->documents_stats) && !o->documents) {
		log_error("--keep and --documents-stats go with --documents");
		usage(stderr, EXIT_FAILED);
	}
	if (!o->n_catalog) {
		log_error("--catalog is required");
		usage(stderr, EXIT_FAILED);
	}
	if (o->from_fps && optind < argc) {
		log_error("--from-fingerprints reads no tables (got '%s')", argv[optind]);
		usage(stderr, EXIT_FAILED);
	}
	if (o->from_fps && o->found) {
		log_error("--from-fingerprints and --found-pairs: the pairs come from one of them");
		usage(stderr, EXIT_FAILED);
	}
	if (o->design && !o->from_fps) {
		log_error("--design goes with --from-fingerprints (tables carry their own)");
		usage(stderr, EXIT_FAILED);
	}
	if (optind + 1 < argc) {
		log_error("one table input at a time (got %d)", argc - optind);
		usage(stderr, EXIT_FAILED);
	}
	for (int i = 0; i < o->n_catalog && o->documents; i++)
		if (!strcmp(o->catalog[i], "-")) {
			log_error("--documents reads the catalog once more: it cannot be standard input");
			exit(EXIT_FAILED);
		}
	for (int i = 0; i < o->n_catalog; i++)
		if (!strcmp(o->catalog[i], "-") && !o->from_fps &&
		    (optind == argc || !strcmp(argv[optind], "-"))) {
			log_error("the tables and the catalog cannot both come from standard input");
			exit(EXIT_FAILED);
		}
	cli_common_finish(&o->cc);
}

/* ---- joining the tables ---- */

struct join_stats {
	uint64_t comparisons, tables, records;
	struct design design;
};

static int open_table(FILE *in, const char *name, uint32_t t, struct ndf_header *first,
		      struct join_stats *js, struct ndf_reader **out)
{
	int err;
	struct ndf_reader *r = ndf_reader_open(in, name, &err);
	*out = r;
	if (!r) {
		if (!err)
			log_error("'%s': %s after table %u of %u", name,
				  t ? "ends" : "is empty, no tables", t, t ? first->n_tables : 0);
		return err ? err : NDF_ERR_TRUNCATED;
	}
	const struct ndf_header *h = ndf_reader_header(r);
	if (t == 0) {
		*first = *h;
		if (tablefile_design(h, name, &js->design))
			return NDF_ERR_PARAMS;
	}
	return tablefile_check(h, name, first, t);
}

/*
 * Memory for the phases after the join, faulted in during it.  Those
 * phases need about WARM_BYTES_PER_DOC per paired document (provenance,
 * its strings, the pair graph), all of it fresh pages, which this machine
 * clears slowly; during the join the cores wait on the stages upstream
 * part of the time.  So once table 0 is joined, its pairs' distinct
 * documents (times WARM_GROWTH: the later tables add fewer) size one
 * block, a background thread touches it at the lowest priority, and the
 * block is freed into the heap (mem_keep_freed()) when the join ends,
 * where the provenance array, the first and largest allocation after it,
 * finds it ready.  Capped at WARM_MAX_PER_RECORD per fingerprint, which
 * the phases after the join need at most.
 */
#define WARM_BYTES_PER_DOC 96
#define WARM_GROWTH 1.5
#define WARM_MAX_PER_RECORD 24
#define WARM_MIN ((size_t)64 << 20)

struct warm {
	void *block;
	struct mem_prefault *pf;
};

/* Start warming a block of @bytes (none below WARM_MIN: not worth a
 * thread). */
static void warm_block(struct warm *w, double bytes)
{
	memset(w, 0, sizeof *w);
	if (bytes < (double)WARM_MIN || !(w->block = malloc((size_t)bytes)))
		return;
	w->pf = mem_prefault_start(w->block, (size_t)bytes);
	log_debug("warming %.0f MB", bytes / 1e6);
}

static void warm_start(struct warm *w, const struct pair_vec *pv, uint64_t n_records)
{
	struct bitrank seen;
	memset(w, 0, sizeof *w);
	if (bitrank_init(&seen, n_records))
		return;
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < pv->n; i++)
		if (pv->v[i].b < n_records) { /* a < b; bad indices are refused later */
			bitrank_set(&seen, pv->v[i].a);
			bitrank_set(&seen, pv->v[i].b);
		}
	const size_t docs = bitrank_finish(&seen);
	bitrank_free(&seen);
	double want = (double)docs * WARM_GROWTH * WARM_BYTES_PER_DOC;
	const double cap = (double)n_records * WARM_MAX_PER_RECORD;
	warm_block(w, want < cap ? want : cap);
}

static void warm_end(struct warm *w)
{
	if (w->block)
		log_debug("warmed %.0f MB", (double)mem_prefault_stop(w->pf) / 1e6);
	free(w->block);
	memset(w, 0, sizeof *w);
}

static int join_all(FILE *in, const char *name, struct pair_vec *pairs, struct ndf_header *first,
		    struct join_stats *js)
{
	struct warm warm = {0};
	struct table_arrays buf = {0};
	struct progress pr;
	int rc = 0;
	progress_start(&pr, "tables", 0);
	for (uint32_t t = 0; !rc && (t == 0 || t < first->n_tables); t++) {
		struct ndf_reader *r;
		uint64_t n = 0;
		rc = open_table(in, name, t, first, js, &r);
		if (!rc)
			rc = tablejoin_section(r, &buf, &js->design, t, pairs, &n, &js->comparisons);
		if (!rc && n != first->record_count && t > 0) {
			log_error("'%s': table %u has %llu records, table 0 has %llu", name, t,
				  (unsigned long long)n, (unsigned long long)first->record_count);
			rc = NDF_ERR_FORMAT;
		}
		if (!rc && t == 0) {
			first->record_count = n;
			if (first->n_tables > 1)
				warm_start(&warm, pairs, n);
		}
		ndf_reader_close(r);
		log_debug("table %u joined at %.3f s, %zu pairs so far", t, log_wall(), pairs->n);
		js->tables++;
		js->records = n;
		progress_update(&pr, t + 1, js->comparisons);
	}
	progress_end(&pr);
	table_arrays_free(&buf);
	warm_end(&warm);
	return rc;
}

/* The pairs another program found (pairfile.h), with what the join would
 * have learnt of the tables. */
static int join_found(const char *path, struct pair_vec *pairs, struct ndf_header *first,
		      struct join_stats *js)
{
	struct pairfile_info pi;
	if (pairfile_read(path, pairs, &pi) || design_make(&js->design, pi.k, pi.design_code))
		return -1;
	first->k = pi.k;
	first->design_code = pi.design_code;
	first->n_tables = pi.n_tables;
	first->dataset_id = pi.dataset_id;
	first->record_count = pi.records;
	js->records = pi.records;
	js->tables = pi.n_tables;
	js->comparisons = pi.comparisons;
	return 0;
}

/*
 * --from-fingerprints: the catalog's fingerprints, and every table of the
 * design built, joined and dropped in memory (memjoin.h).  *@first gets
 * what a stored table's header would say.
 */
static int join_in_memory(const struct opts *o, struct pair_vec *pairs,
			  struct ndf_header *first, struct join_stats *js)
{
	uint64_t *fps;
	size_t n;
	struct catalog_info ci;
	if (catalog_simhashes(o->catalog, o->n_catalog, &fps, &n, &ci))
		return -1;
	if (n >= UINT32_MAX) {
		log_error("%zu fingerprints: more than a table can index (2^32 - 1)", n);
		free(fps);
		return -1;
	}
	const uint32_t k = o->k >= 0 ? (uint32_t)o->k : 6;
	const uint32_t code = o->design ? o->design : design_choose_memjoin(k, n);
	if (design_make(&js->design, k, code)) {
		free(fps);
		return -1;
	}
	int rc = memjoin(&js->design, 0, js->design.n_tables, fps, n, 0, pairs, &js->comparisons);
	free(fps);
	first->k = k;
	first->design_code = code;
	first->dataset_id = ci.dataset_id;
	first->record_count = n;
	first->n_tables = js->design.n_tables;
	js->tables = js->design.n_tables;
	js->records = n;
	return rc;
}

/* ---- the catalog, for the documents in pairs ---- */

/*
 * The pair graph's memory (cluster.c: 4 bytes per paired document and 12
 * per pair, with the regrouping's counts; GRAPH_BYTES_PER_PAIR is an
 * upper bound, more than that layout needs), warmed
 * like the block above
 * while the catalog is read: one thread reads it and the others decode
 * what it read, so a core is partly idle, and the block, freed before the
 * graph is built, is where the graph's arrays are then placed.
 */
#define GRAPH_BYTES_PER_PAIR 28

static int load_details(const struct opts *o, const struct pair_vec *pv, size_t n_docs,
			struct provenance *d, struct catalog_info *info)
{
	if (prov_init(d, n_docs))
		return -1;
	/* A table's checksums vouch for its bytes, not for its document
	 * indices: one at or past the record count (a compressed table stores
	 * them in whole bits) names no document and is refused here, before
	 * anything is looked up by it. */
	uint32_t top = 0;
#pragma omp parallel for schedule(static) reduction(max : top)
	for (size_t i = 0; i < pv->n; i++) {
		const uint32_t m = pv->v[i].a > pv->v[i].b ? pv->v[i].a : pv->v[i].b;
		top = m > top ? m : top;
		prov_mark(d, pv->v[i].a);
		prov_mark(d, pv->v[i].b);
	}
	if (pv->n && top >= n_docs) {
		log_error("the tables name document %u, past their %zu records: they are not "
			  "tables this program wrote", top, n_docs);
		return -1;
	}
	if (prov_prepare(d)) /* first: its arrays take the block warmed during the join */
		return -1;
	struct warm graph;
	warm_block(&graph, (double)pv->n * GRAPH_BYTES_PER_PAIR);
	const int rc = prov_load(d, o->catalog, o->n_catalog, info);
	warm_end(&graph);
	return rc;
}

/* Pairs the fingerprints allow but the documents do not (prov_slots_allowed()
 * is checked after the join, from the same catalog pass that fetches the
 * provenance: only the documents of pairs need it).  Slices of the pairs
 * are filtered in place in parallel, then moved together in order.  The
 * pairs kept name their documents by provenance slot from here on: slots
 * sort as documents do, so the clusters are the same, and each row of
 * the CSV then reaches its document with one load less. */
#define FILTER_SLICES 64

static void filter_pairs(struct pair_vec *pv, const struct provenance *d)
{
	size_t kept[FILTER_SLICES];
#pragma omp parallel for schedule(dynamic, 1)
	for (size_t s = 0; s < FILTER_SLICES; s++) {
		const size_t lo = pv->n * s / FILTER_SLICES, hi = pv->n * (s + 1) / FILTER_SLICES;
		size_t w = lo;
		for (size_t i = lo; i < hi; i++) {
			const struct pair *p = &pv->v[i];
			if (i + 32 < hi) { /* the documents are anywhere: load ahead */
				prov_prefetch_slot(d, pv->v[i + 32].a);
				prov_prefetch_slot(d, pv->v[i + 32].b);
			}
			if (i + 16 < hi) {
				__builtin_prefetch(&d->text[prov_slot(d, pv->v[i + 16].a)]);
				__builtin_prefetch(&d->text[prov_slot(d, pv->v[i + 16].b)]);
			}
			const uint32_t sa = prov_slot(d, p->a), sb = prov_slot(d, p->b);
			if (prov_slots_allowed(d, sa, sb, p->d))
				pv->v[w++] = (struct pair){sa, sb, p->d};
		}
		kept[s] = w - lo;
	}
	size_t w = 0;
	for (size_t s = 0; s < FILTER_SLICES; s++) {
		const size_t lo = pv->n * s / FILTER_SLICES;
		if (w != lo && kept[s])
			memmove(pv->v + w, pv->v + lo, kept[s] * sizeof *pv->v);
		w += kept[s];
	}
	pv->n = w;
}

/* Write the parts of one round in order; @return non-zero on error. */
static int write_parts(struct outfile *of, const struct csv_writer *part, int n)
{
	int err = 0;
	for (int t = 0; t < n && !err; t++)
		err = part[t].err || outfile_write(of, part[t].buf, part[t].len);
	outfile_writeback(of);
	return err;
}

/*
 * Rounds of PARTS pieces of clusters are formatted as tasks into one of
 * two sets of buffers, while the thread that made the tasks writes the
 * previous round from the other set: formatting and the write overlap.
 * That thread is one more than the -t threads: a direct write waits for
 * the disk without using its core, and were the writer one of the team,
 * that core would format nothing meanwhile.  Waiting for a round, it formats too.  Parts are
 * written in order, so the output does not depend on the thread count.
 */
#define PARTS 8
#define PART_CLUSTERS (1u << 13)

static int write_csv(struct outfile *of, const struct clusters *cl, const struct provenance *d)
{
	const char *const head = clusters_csv_header;
	struct csv_writer part[2][PARTS];
	int err = outfile_write(of, head, strlen(head));
	const size_t round = (size_t)PARTS * PART_CLUSTERS;
	for (int h = 0; h < 2; h++)
		for (int t = 0; t < PARTS; t++)
			csv_init(&part[h][t], NULL);
#pragma omp parallel num_threads(threads_max() + 1)
#pragma omp single
	{
		int h = 0, pending = 0;
		for (size_t c0 = 0; c0 < cl->n_clusters && !err; c0 += round, h ^= 1) {
			for (int t = 0; t < PARTS; t++) {
				size_t lo = c0 + (size_t)t * PART_CLUSTERS, hi = lo + PART_CLUSTERS;
				hi = hi < cl->n_clusters ? hi : cl->n_clusters;
				struct csv_writer *w = &part[h][t];
				w->len = 0;
#pragma omp task firstprivate(w, lo, hi)
				if (lo < hi)
					clusters_csv_rows(w, cl, d, lo, hi);
			}
			if (pending) /* the previous round, while this one is formatted */
				err = write_parts(of, part[h ^ 1], PARTS);
#pragma omp taskwait
			pending = 1;
		}
		if (pending && !err)
			err = write_parts(of, part[h ^ 1], PARTS);
	}
	for (int h = 0; h < 2; h++)
		for (int t = 0; t < PARTS; t++)
			csv_close(&part[h][t]);
	if (err)
		log_error("cannot write the cluster CSV");
	return err ? -1 : 0;
}

static int write_pairs(const char *path, const struct pair_vec *pv, const struct provenance *d)
{
	struct outfile out;
	struct csv_writer w;
	if (outfile_open_bulk(&out, path))
		return -1;
	csv_init(&w, &out);
	const char *const head = pairs_csv_header;
	csv_raw(&w, head, strlen(head));
	for (size_t i = 0; i < pv->n; i++) {
		const struct prov_doc *a = prov_at(d, pv->v[i].a), *b = prov_at(d, pv->v[i].b);
		pairs_csv_row(&w, a, b, pv->v[i].d, prov_match_kind(d, a, d, b));
	}
	if (csv_close(&w)) {
		log_error("cannot write the pairs");
		outfile_abort(&out);
		return -1;
	}
	return outfile_commit(&out);
}

/* The members of the clusters (not their representatives) by their match
 * column, and every pair by its type (enum prov_match). */
static void count_matches(const struct clusters *cl, const struct pair_vec *pv,
			  const struct provenance *d, uint64_t members[4], uint64_t pairs[4])
{
	for (size_t c = 0; c < cl->n_clusters; c++) {
		const struct prov_doc *rep = prov_at(d, cl->doc[cl->start[c]]);
		for (uint32_t i = cl->start[c] + 1; i < cl->start[c + 1]; i++) {
			const struct prov_doc *m = prov_at(d, cl->doc[i]);
			members[prov_match(rep, prov_frame(d, rep), m, prov_frame(d, m))]++;
		}
	}
	for (size_t i = 0; i < pv->n; i++) {
		const struct prov_doc *a = prov_at(d, pv->v[i].a), *b = prov_at(d, pv->v[i].b);
		pairs[prov_match(a, prov_frame(d, a), b, prov_frame(d, b))]++;
	}
}

/* "name": {"exact": n, ...}, in enum prov_match's order. */
static void put_match_counts(FILE *fp, const char *name, const uint64_t n[4])
{
	fprintf(fp, "  \"%s\": {", name);
	for (int m = 0; m < 4; m++)
		fprintf(fp, "%s\"%s\": %llu", m ? ", " : "", prov_match_name((enum prov_match)m),
			(unsigned long long)n[m]);
	fputs("},\n", fp);
}

static int write_stats(const char *path, const struct join_stats *js, const struct pair_vec *pv,
		       const struct clusters *cl, const struct provenance *d, uint32_t k,
		       double secs)
{
	struct outfile out;
	uint64_t members[4] = {0}, pairs[4] = {0};
	count_matches(cl, pv, d, members, pairs);
	if (outfile_open(&out, path))
		return -1;
	fprintf(out.fp,
		"{\n  \"documents\": %llu,\n  \"k\": %u,\n  \"design\": %u,\n  \"tables\": %llu,\n"
		"  \"comparisons\": %llu,\n  \"comparisons_per_document\": %.2f,\n"
		"  \"pairs\": %zu,\n  \"components\": %zu,\n  \"largest_component\": %zu,\n"
		"  \"clusters\": %zu,\n  \"clustered_documents\": %u,\n"
		"  \"largest_cluster\": %zu,\n",
		(unsigned long long)js->records, k, js->design.code,
		(unsigned long long)js->tables, (unsigned long long)js->comparisons,
		js->records ? (double)js->comparisons / (double)js->records : 0.0, pv->n,
		cl->n_components, cl->largest_component, cl->n_clusters,
		cl->n_clusters ? cl->start[cl->n_clusters] : 0, cl->largest_cluster);
	put_match_counts(out.fp, "members_by_match", members);
	put_match_counts(out.fp, "pairs_by_match", pairs);
	fprintf(out.fp, "  \"seconds\": %.3f\n}\n", secs);
	return outfile_commit(&out);
}

/* -v: where the time goes, phase by phase (CPU time tells a busy machine
 * from a slow phase). */
struct phase_clock {
	double wall, cpu;
	long faults;
};

static void phase_done(const char *what, struct phase_clock *since)
{
	const struct phase_clock now = {log_wall(), log_cpu(), log_minor_faults()};
	log_debug("%s: %.3f s wall, %.3f s CPU, %ld page faults", what, now.wall - since->wall,
		  now.cpu - since->cpu, now.faults - since->faults);
	*since = now;
}

static int check_catalog(const struct catalog_info *ci, const struct ndf_header *first,
			 size_t records)
{
	if (ci->dataset_id != first->dataset_id || ci->n_records != records) {
		log_error("the catalog (%llu fingerprints) is not the one the tables were built "
			  "from (%zu records): give --catalog the same files, in the same order, "
			  "as ndd-permute-sort", (unsigned long long)ci->n_records, records);
		return -1;
	}
	return 0;
}

static int write_outputs(const struct opts *o, const struct clusters *cl,
			 const struct provenance *det, const struct pair_vec *pairs)
{
	struct outfile out;
	if (outfile_open_bulk(&out, o->cc.output))
		return -1;
	if (write_csv(&out, cl, det)) {
		outfile_abort(&out);
		return -1;
	}
	if (outfile_commit(&out))
		return -1;
	return o->pairs ? write_pairs(o->pairs, pairs, det) : 0;
}

/*
 * documents.csv (--documents) from the clusters @cl of provenance @det,
 * whose every clustered document is loaded, and one more pass over the
 * catalog for every document's row.
 */
static int write_documents(const struct opts *o, const struct clusters *cl,
			   const struct provenance *det)
{
	const double t0 = log_wall();
	struct keep_clusters kc;
	struct keep_plan plan = {.rule = o->keep, .tonight = det, .cl = &kc};
	struct documents_stats st = {.documents = det->n_docs};
	struct outfile out = {0};
	int rc = keep_clusters_from(&kc, cl, det, det->n_docs);
	if (!rc)
		rc = keep_decide(&plan, NULL, 0);
	if (!rc)
		rc = outfile_open(&out, o->documents);
	if (!rc)
		rc = documents_csv_write(&plan, o->catalog, o->n_catalog, &out, &st.c);
	if (!rc)
		rc = outfile_commit(&out);
	else
		outfile_abort(&out);
	st.seconds = log_wall() - t0;
	if (!rc && o->documents_stats)
		rc = documents_stats_write(o->documents_stats, &st);
	keep_plan_free(&plan);
	keep_clusters_free(&kc);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	struct catalog_info ci;
	struct pair_vec pairs = {0};
	struct join_stats js = {0};
	struct ndf_header first = {0};
	struct clusters cl = {0};
	struct provenance det = {0};
	double t0 = log_wall();
	int rc;

	log_init("ndd-self-join");
	parse(&o, argc, argv);
	struct phase_clock tp = {t0, log_cpu(), log_minor_faults()};
	/* Each phase's arrays are the next one's memory: a table's arrays
	 * become the provenance.  Fresh pages are what costs (on a VM whose
	 * host takes freed memory back, more than the work on them). */
	mem_keep_freed();
	if (o.found) {
		rc = join_found(o.found, &pairs, &first, &js);
	} else if (o.from_fps) {
		rc = join_in_memory(&o, &pairs, &first, &js);
	} else {
		const char *path = optind < argc ? argv[optind] : "-";
		const char *name = strcmp(path, "-") ? path : "(standard input)";
		FILE *in = infile_open(path);
		if (!in)
			return EXIT_FAILED;
		tablefile_pipe_buffer(in);
		rc = join_all(in, name, &pairs, &first, &js);
		infile_close(in);
	}
	phase_done("join", &tp);
	if (!rc && o.k > (int)first.k) {
		log_error("tables were built for k = %u; they cannot find pairs within %d",
			  first.k, o.k);
		rc = -1;
	}
	uint32_t k = o.k >= 0 ? (uint32_t)o.k : first.k;
	if (!rc) {
		if (k < first.k) /* else every pair is within k */
			pair_vec_limit(&pairs, k);
		rc = load_details(&o, &pairs, js.records, &det, &ci);
		phase_done("catalog", &tp);
	}
	if (!rc)
		rc = check_catalog(&ci, &first, js.records);
	if (!rc) {
		filter_pairs(&pairs, &det);
		if (o.pairs) /* the clusters do not depend on the order of the pairs */
			pair_vec_sort(&pairs);
		phase_done("filter and sort pairs", &tp);
		rc = clusters_build(&pairs, &cl);
		phase_done("clusters", &tp);
	}
	if (!rc) {
		rc = write_outputs(&o, &cl, &det, &pairs);
		phase_done("outputs", &tp);
	}
	if (!rc && o.stats)
		rc = write_stats(o.stats, &js, &pairs, &cl, &det, k, log_wall() - t0);
	if (!rc && o.documents) {
		rc = write_documents(&o, &cl, &det);
		phase_done("documents", &tp);
	}
	if (!rc)
		cli_summary("%llu documents, %u tables, %.1f comparisons/document, %zu pairs, "
			    "%zu clusters (largest %zu)",
			    (unsigned long long)js.records, (unsigned)js.tables,
			    js.records ? (double)js.comparisons / (double)js.records : 0.0,
			    pairs.n, cl.n_clusters, cl.largest_cluster);
	prov_free(&det);
	clusters_free(&cl);
	pair_vec_free(&pairs);
	design_free(&js.design);
	free(o.catalog);
	return rc ? EXIT_FAILED : EXIT_OK;
}
