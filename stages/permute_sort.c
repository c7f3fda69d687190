/*
 * ndd-permute-sort - fingerprints -> the sorted permuted tables of a design.
 *
 * Reads every fingerprint of the catalog (8 bytes each in memory), picks
 * the table design for k and N (or the one forced by --design), then for
 * each table in turn permutes all fingerprints, sorts (key, doc index)
 * and writes the table as one NDF section.  Tables are produced one at a
 * time so memory is one table (plus the fingerprints), not all of them.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "cli.h"
#include "design.h"
#include "keysort.h"
#include "log.h"
#include "ndf.h"
#include "tablefile.h"

struct opts {
	struct cli_common cc;
	int k;
	uint32_t design; /* 0 = choose */
	int plan;
	long long plan_count; /* --count: plan for N without reading */
};

static void usage(FILE *fp, int status)
{
	fprintf(fp,
		"Usage: ndd-permute-sort [options] [FINGERPRINTS...]\n"
		"Build the sorted permuted tables of a pigeonhole design from fingerprint\n"
		"files (ndd-fingerprint output; '-' or none = standard input).  Writes one\n"
		"table section per table, in order, to the output.\n\n"
		"  -k, --distance K   find pairs within K bits (0..%d, default 3)\n"
		"      --design R     force the design with R blocks (C(R,K) tables), or\n"
		"                     R1xR2 for a nested one (C(R1,K)*C(R2,K) tables)\n"
		"      --plan         print the chosen design with memory, disk and time\n"
		"                     estimates, then exit without writing tables\n"
		"      --count N      with --plan: plan for N fingerprints, read nothing\n"
		CLI_COMMON_HELP,
		DESIGN_MAX_K);
	exit(status);
}

static void parse(struct opts *o, int argc, char **argv)
{
	enum { OPT_DESIGN = CLI_OPT_STAGE_BASE, OPT_PLAN, OPT_COUNT };
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{"distance", required_argument, NULL, 'k'},
		{"design", required_argument, NULL, OPT_DESIGN},
		{"plan", no_argument, NULL, OPT_PLAN},
		{"count", required_argument, NULL, OPT_COUNT},
		{NULL, 0, NULL, 0},
	};
	int c;
	o->k = 3;
	while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS "k:", longopts, NULL)) != -1) {
		if (cli_common_option(&o->cc, c, optarg, usage))
			continue;
		switch (c) {
		case 'k': o->k = (int)cli_parse_int("--distance", optarg, 0, DESIGN_MAX_K); break;
		case OPT_DESIGN:
			if (design_parse(optarg, &o->design)) {
				log_error("invalid --design '%s' (expected R or R1xR2, e.g. 5 or 4x4)", optarg);
				exit(EXIT_FAILED);
			}
			break;
		case OPT_PLAN: o->plan = 1; break;
		case OPT_COUNT: o->plan_count = cli_parse_int("--count", optarg, 0, 1ll << 40); break;
		default: usage(stderr, EXIT_FAILED);
		}
	}
	cli_common_finish(&o->cc);
}

struct fps {
	uint64_t *v;
	size_t n, cap;
};

static int collect(void *ctx, uint64_t idx, const struct fp_record *r)
{
	struct fps *f = ctx;
	(void)idx;
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 1 << 16;
		f->v = xrealloc(f->v, f->cap * sizeof *f->v);
	}
	f->v[f->n++] = r->simhash;
	return 0;
}

static void print_plan(const struct design *d, uint64_t n)
{
	double mem = (double)n * (8 + 2 * sizeof(struct table_rec));
	double raw = (double)d->n_tables * (double)n * TABLE_RAW_RECORD;
	double bits = 2 + 64 - (n > 1 ? log2((double)n) : 0) + ceil(log2((double)n + 1));
	printf("fingerprints:      %llu\n", (unsigned long long)n);
	printf("distance k:        %u\n", d->k);
	char name[16];
	design_name(d->code, name, sizeof name);
	printf("design:            %s: %u tables\n", name, d->n_tables);
	printf("block widths:     ");
	for (uint32_t b = 0; b < d->n_blocks; b++)
		printf(" %u", d->block_width[b]);
	if (d->n_blocks2)
		printf(" (then %u blocks of the bits left)", d->n_blocks2);
	printf("\nleading bits:      %u (table 0) .. %u (table %u)\n", d->tables[0].lead_bits,
	       d->tables[d->n_tables - 1].lead_bits, d->n_tables - 1);
	printf("comparisons/fp:    %.3g (expected, all tables)\n", design_comparisons(d, n));
	printf("memory:            %.1f MB (permute-and-sort peak)\n", mem / 1e6);
	printf("disk, raw tables:  %.1f MB\n", raw / 1e6);
	printf("disk, compressed:  %.1f MB (about %.0f bits per record)\n",
	       (double)d->n_tables * (double)n * bits / 8e6, bits);
}

static int write_table(FILE *out, const char *name, const struct design *d, uint32_t t,
		       const struct table_rec *recs, size_t n, uint64_t config, uint64_t dataset)
{
	struct ndf_header h;
	tablefile_header(&h, NDF_KIND_TABLE, d, t, config, dataset);
	struct ndf_writer *w = ndf_writer_open(out, name, &h);
	if (!w)
		return -1;
	uint8_t *buf = xmalloc((size_t)TABLE_RAW_BLOCK_RECORDS * TABLE_RAW_RECORD);
	uint64_t keys[256];
	uint32_t idx[256];
	int err = 0;
	for (size_t i = 0; i < n && !err; i += TABLE_RAW_BLOCK_RECORDS) {
		size_t m = n - i < TABLE_RAW_BLOCK_RECORDS ? n - i : TABLE_RAW_BLOCK_RECORDS;
		for (size_t j = 0; j < m; j += 256) {
			size_t c = m - j < 256 ? m - j : 256;
			for (size_t u = 0; u < c; u++) {
				keys[u] = recs[i + j + u].key;
				idx[u] = (uint32_t)recs[i + j + u].idx;
			}
			tablefile_encode_raw(buf + j * TABLE_RAW_RECORD, c, keys, idx);
		}
		err = ndf_write_block(w, (uint32_t)m, NDF_CODEC_RAW, recs[i].key, buf,
				      m * TABLE_RAW_RECORD);
	}
	free(buf);
	if (err) {
		ndf_writer_abort(w);
		return -1;
	}
	return ndf_writer_finish(w) ? -1 : 0;
}

static int build_tables(const struct opts *o, const struct fps *f, const struct design *d,
			const struct catalog_info *info, struct outfile *out)
{
	struct table_rec *recs = xmalloc(f->n * sizeof *recs + 1);
	struct table_rec *scratch = xmalloc(f->n * sizeof *recs + 1);
	struct progress pr;
	int rc = 0;
	(void)o;
	progress_start(&pr, "tables", 0);
	for (uint32_t t = 0; t < d->n_tables && !rc; t++) {
		const struct design_table *tab = &d->tables[t];
#pragma omp parallel for schedule(static)
		for (size_t i = 0; i < f->n; i++) {
			recs[i].key = design_permute(tab, f->v[i]);
			recs[i].idx = i;
		}
		keysort(recs, scratch, f->n);
		rc = write_table(out->fp, out->display, d, t, recs, f->n, info->feature_config,
				 info->dataset_id);
		progress_update(&pr, t + 1, (uint64_t)(t + 1) * f->n * TABLE_RAW_RECORD);
	}
	progress_end(&pr);
	free(recs);
	free(scratch);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	struct fps f = {0};
	struct catalog_info info;
	struct design d;
	struct outfile out;
	const char *stdin_only[] = {"-"};

	log_init("ndd-permute-sort");
	parse(&o, argc, argv);
	const char *const *inputs = optind < argc ? (const char *const *)argv + optind : stdin_only;
	int n_inputs = optind < argc ? argc - optind : 1;

	if (o.plan && o.plan_count) {
		if (design_make(&d, (uint32_t)o.k, o.design ? o.design
				: design_choose((uint32_t)o.k, (uint64_t)o.plan_count)))
			return EXIT_FAILED;
		print_plan(&d, (uint64_t)o.plan_count);
		design_free(&d);
		return EXIT_OK;
	}
	if (catalog_scan(inputs, n_inputs, collect, &f, &info))
		return EXIT_FAILED;
	if (f.n >= UINT32_MAX) {
		log_error("%zu fingerprints: more than one table can index (2^32 - 1)", f.n);
		return EXIT_FAILED;
	}
	uint32_t code = o.design ? o.design : design_choose((uint32_t)o.k, f.n);
	if (design_make(&d, (uint32_t)o.k, code))
		return EXIT_FAILED;
	if (o.plan) {
		print_plan(&d, f.n);
		design_free(&d);
		free(f.v);
		return EXIT_OK;
	}
	if (outfile_open(&out, o.cc.output))
		return EXIT_FAILED;
	log_debug("design %u: %u tables, %u leading bits", d.code, d.n_tables,
		  d.tables[0].lead_bits);
	int rc = build_tables(&o, &f, &d, &info, &out);
	if (rc || outfile_commit(&out)) {
		outfile_abort(&out);
		design_free(&d);
		free(f.v);
		return EXIT_FAILED;
	}
	char name[16];
	design_name(d.code, name, sizeof name);
	cli_summary("%zu fingerprints, k = %d, design %s: %u tables of %u+ leading bits", f.n,
		    o.k, name, d.n_tables, d.tables[d.n_tables - 1].lead_bits);
	design_free(&d);
	free(f.v);
	return EXIT_OK;
}
