/*
 * ndd-query - batch mode: new fingerprints against stored tables.
 *
 * Tonight's fingerprints are looked up in the compressed tables (and
 * catalog) of an earlier night, so a page copied from last week is found
 * too.  Per table, the queries are permuted and sorted, and only the
 * blocks that can hold their leading bits are read (query.h).  Output:
 * one CSV row per (new page, stored page) pair within k.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "format/catalog.h"
#include "util/cli.h"
#include "output/csv.h"
#include "tables/design.h"
#include "util/log.h"
#include "format/ndf.h"
#include "util/outfile.h"
#include "output/previous_csv.h"
#include "output/provenance.h"
#include "tables/query.h"

struct opts {
	struct cli_common cc;
	int k;
	const char *tables, *stats;
	const char **catalog;
	int n_catalog;
	const char **queries;
	int n_queries;
};

static void usage(FILE *fp, int status)
{
	fprintf(fp,
		"Usage: ndd-query --tables TABLES --catalog FPS [options] [NEW_FPS...]\n"
		"Look up new fingerprints (ndd-fingerprint output; '-' or none = standard\n"
		"input) in the compressed tables of an earlier run, and write every pair\n"
		"(new page, stored page) within k as CSV.\n\n"
		"      --tables FILE   compressed tables (ndd-compress -o FILE; a regular file:\n"
		"                      only the blocks the queries need are read)\n"
		"  -c, --catalog FILE  the fingerprint file(s) those tables were built from,\n"
		"                      in the same order (repeat the option for several)\n"
		"  -k, --distance K    pairs within K (default: the tables' k; not more)\n"
		"      --stats FILE    write statistics as JSON\n"
		CLI_COMMON_HELP
		"Output columns: query_url,query_warc_file,query_warc_offset,query_record_id,\n"
		"query_warc_date,query_fingerprint, the same six of the stored page prefixed\n"
		"match_, distance,match (match: exact, same-content, same-layout or\n"
		"partial).\n");
	exit(status);
}

static void parse(struct opts *o, int argc, char **argv)
{
	enum { OPT_TABLES = CLI_OPT_STAGE_BASE, OPT_STATS };
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{"tables", required_argument, NULL, OPT_TABLES},
		{"catalog", required_argument, NULL, 'c'},
		{"distance", required_argument, NULL, 'k'},
		{"stats", required_argument, NULL, OPT_STATS},
		{NULL, 0, NULL, 0},
	};
	int c;
	o->k = -1;
	o->catalog = xcalloc((size_t)argc, sizeof *o->catalog);
	while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS "c:k:", longopts, NULL)) != -1) {
		if (cli_common_option(&o->cc, c, optarg, usage))
			continue;
		switch (c) {
		case 'c': o->catalog[o->n_catalog++] = optarg; break;
		case 'k': o->k = (int)cli_parse_int("--distance", optarg, 0, DESIGN_MAX_K); break;
		case OPT_TABLES: o->tables = optarg; break;
		case OPT_STATS: o->stats = optarg; break;
		default: usage(stderr, EXIT_FAILED);
		}
	}
	if (!o->tables || !o->n_catalog) {
		log_error("--tables and --catalog are required");
		usage(stderr, EXIT_FAILED);
	}
	static const char *stdin_only[] = {"-"};
	o->queries = optind < argc ? (const char **)argv + optind : stdin_only;
	o->n_queries = optind < argc ? argc - optind : 1;
	cli_common_finish(&o->cc);
}

struct fpv {
	uint64_t *v;
	size_t n;
};

struct run {
	const struct opts *o;
	struct fpv q;
	struct catalog_info qinfo;
	struct ndf_header first;
	struct design design;
	struct pair_vec pairs;
	struct query_stats st;
	uint32_t tables;
};

/* @return the number of rows, or -1 if writing failed. */
static long long write_csv(struct outfile *out, const struct pair_vec *pv,
			   const struct provenance *qp, const struct provenance *sp)
{
	struct csv_writer w;
	long long rows = 0;
	csv_init(&w, out);
	const char *const head = previous_csv_header;
	csv_raw(&w, head, strlen(head));
	for (size_t i = 0; i < pv->n; i++) {
		const struct prov_doc *q = prov_get(qp, pv->v[i].a), *m = prov_get(sp, pv->v[i].b);
		if (!prov_pair_allowed(q, m, pv->v[i].d))
			continue;
		previous_csv_row(&w, q, m, pv->v[i].d, prov_match_kind(qp, q, sp, m));
		rows++;
	}
	if (csv_close(&w)) {
		log_error("cannot write the CSV");
		return -1;
	}
	return rows;
}

static int load_provenance(struct run *r, struct provenance *qp, struct provenance *sp)
{
	struct catalog_info qi, si;
	if (prov_init(qp, r->q.n) || prov_init(sp, r->first.record_count + 1))
		return -1;
	for (size_t i = 0; i < r->pairs.n; i++) {
		prov_mark(qp, r->pairs.v[i].a);
		prov_mark(sp, r->pairs.v[i].b);
	}
	if (prov_load(qp, r->o->queries, r->o->n_queries, &qi) ||
	    prov_load(sp, r->o->catalog, r->o->n_catalog, &si))
		return -1;
	if (si.dataset_id != r->first.dataset_id) {
		log_error("the catalog is not the one the tables were built from: give --catalog "
			  "the same files, in the same order, as ndd-permute-sort");
		return -1;
	}
	return 0;
}

static int write_stats(const char *path, const struct run *r, size_t rows, double secs)
{
	struct outfile out;
	if (outfile_open(&out, path))
		return -1;
	fprintf(out.fp,
		"{\n  \"queries\": %zu,\n  \"stored_documents\": %llu,\n  \"tables\": %u,\n"
		"  \"blocks_read\": %llu,\n  \"comparisons\": %llu,\n  \"pairs\": %zu,\n"
		"  \"seconds\": %.3f\n}\n",
		r->q.n, (unsigned long long)r->first.record_count, r->tables,
		(unsigned long long)r->st.blocks_read, (unsigned long long)r->st.comparisons, rows,
		secs);
	return outfile_commit(&out);
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	struct run r;
	struct provenance qp = {0}, sp = {0};
	struct outfile out = {0};
	double t0 = log_wall();
	size_t rows = 0;

	log_init("ndd-query");
	parse(&o, argc, argv);
	memset(&r, 0, sizeof r);
	r.o = &o;
	int rc = catalog_simhashes(o.queries, o.n_queries, &r.q.v, &r.q.n, &r.qinfo) ? -1 : 0;
	if (!rc && r.q.n >= UINT32_MAX) {
		log_error("too many queries for one run (%zu)", r.q.n);
		rc = -1;
	}
	if (!rc)
		rc = query_file(o.tables, r.q.v, r.q.n, r.qinfo.feature_config, &r.pairs, &r.st,
				&r.first, &r.design);
	if (!rc)
		r.tables = r.first.n_tables;
	if (!rc && o.k > (int)r.first.k) {
		log_error("tables were built for k = %u; they cannot find pairs within %d",
			  r.first.k, o.k);
		rc = -1;
	}
	if (!rc) {
		pair_vec_limit(&r.pairs, o.k >= 0 ? (uint32_t)o.k : r.first.k);
		pair_vec_sort(&r.pairs);
		rc = load_provenance(&r, &qp, &sp);
	}
	if (!rc)
		rc = outfile_open(&out, o.cc.output);
	if (!rc) {
		long long n = write_csv(&out, &r.pairs, &qp, &sp);
		rows = n < 0 ? 0 : (size_t)n;
		rc = n < 0 ? -1 : outfile_commit(&out);
	}
	if (!rc && o.stats)
		rc = write_stats(o.stats, &r, rows, log_wall() - t0);
	if (!rc)
		cli_summary("%zu queries against %llu stored documents, %u tables, %llu blocks read, "
			    "%zu pairs", r.q.n, (unsigned long long)r.first.record_count, r.tables,
			    (unsigned long long)r.st.blocks_read, rows);
	if (rc)
		outfile_abort(&out);
	prov_free(&qp);
	prov_free(&sp);
	pair_vec_free(&r.pairs);
	design_free(&r.design);
	free(r.q.v);
	free(o.catalog);
	return rc ? EXIT_FAILED : EXIT_OK;
}
