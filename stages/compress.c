/*
 * ndd-compress - sorted tables -> block-compressed tables with an index.
 *
 * For each table section of the input: load it, count the h(n) symbols
 * (shared leading bits of neighbours) over the whole table, build its
 * Huffman code, write the code as the section's first block, then the
 * records in fixed-count blocks encoded in parallel.  The footer's block
 * index holds each block's first key, so a reader finds a key's block by
 * interpolation search and decodes only that block.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "codec.h"
#include "log.h"
#include "ndf.h"
#include "tablefile.h"
#include "tableread.h"
#include "threads.h"


struct opts {
	struct cli_common cc;
	int block_records;
};

static void usage(FILE *fp, int status)
{
	fprintf(fp,
		"Usage: ndd-compress [options] [TABLES]\n"
		"Compress the sorted tables written by ndd-permute-sort (a file, or '-' /\n"
		"none for standard input) into prefix/Huffman-coded blocks with a block\n"
		"index.  Writes one compressed section per table, in order.\n\n"
		"      --block-records N  records per block (16..65536, default 1024)\n"
		CLI_COMMON_HELP);
	exit(status);
}

static void parse(struct opts *o, int argc, char **argv)
{
	enum { OPT_BLOCK = CLI_OPT_STAGE_BASE };
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{"block-records", required_argument, NULL, OPT_BLOCK},
		{NULL, 0, NULL, 0},
	};
	int c;
	o->block_records = 1024;
	while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_common_option(&o->cc, c, optarg, usage))
			continue;
		if (c == OPT_BLOCK)
			o->block_records = (int)cli_parse_int("--block-records", optarg, 16, 65536);
		else
			usage(stderr, EXIT_FAILED);
	}
	if (optind + 1 < argc) {
		log_error("one input at a time (got %d)", argc - optind);
		usage(stderr, EXIT_FAILED);
	}
	cli_common_finish(&o->cc);
}

struct stats {
	uint64_t records, tables, bytes_in, bytes_out;
};

/* The symbol histogram of a whole table, threads over ranges (a range
 * also counts the transition from the key before it). */
static void histogram(const struct table_arrays *ta, uint64_t hist[CODEC_SYMBOLS])
{
	const int nt = threads_max();
	uint64_t *part = xcalloc((size_t)nt * CODEC_SYMBOLS, sizeof *part);
#pragma omp parallel for num_threads(nt) schedule(static, 1)
	for (int t = 0; t < nt; t++) {
		size_t lo = ta->n * (size_t)t / (size_t)nt, hi = ta->n * (size_t)(t + 1) / (size_t)nt;
		if (lo < hi)
			codec_histogram(ta->keys + (lo ? lo - 1 : 0), hi - lo + (lo ? 1 : 0),
					part + (size_t)t * CODEC_SYMBOLS);
	}
	for (int t = 0; t < nt; t++)
		for (unsigned s = 0; s < CODEC_SYMBOLS; s++)
			hist[s] += part[(size_t)t * CODEC_SYMBOLS + s];
	free(part);
}

/* Encode every block of the table, a batch at a time, in parallel, into
 * @buf (64 blocks' worth of codec_block_bound(), kept across tables). */
static int write_blocks(struct ndf_writer *w, struct outfile *out, const struct codec *code,
			const struct table_arrays *ta, unsigned idx_bits, size_t per_block,
			uint8_t *buf)
{
	const size_t batch = 64;
	size_t bound = codec_block_bound(per_block, idx_bits);
	size_t len[64];
	size_t n_blocks = (ta->n + per_block - 1) / per_block;
	int err = 0;
	for (size_t b0 = 0; b0 < n_blocks && !err; b0 += batch) {
		size_t nb = n_blocks - b0 < batch ? n_blocks - b0 : batch;
#pragma omp parallel for schedule(dynamic, 1)
		for (size_t i = 0; i < nb; i++) {
			size_t first = (b0 + i) * per_block;
			size_t n = ta->n - first < per_block ? ta->n - first : per_block;
			len[i] = codec_encode_block(code, ta->keys + first, ta->idx + first, n,
						    idx_bits, buf + i * bound);
		}
		for (size_t i = 0; i < nb && !err; i++) {
			size_t first = (b0 + i) * per_block;
			size_t n = ta->n - first < per_block ? ta->n - first : per_block;
			err = ndf_write_block(w, (uint32_t)n, NDF_CODEC_PREFIX, ta->keys[first],
					      buf + i * bound, len[i]);
		}
		outfile_writeback(out);
	}
	return err;
}

static int compress_table(const struct opts *o, const struct ndf_header *in_h,
			  const struct table_arrays *ta, struct outfile *out, struct stats *st,
			  uint8_t *buf)
{
	uint64_t hist[CODEC_SYMBOLS] = {0};
	struct codec code;
	uint8_t code_bytes[64];
	struct ndf_header h = *in_h;
	unsigned idx_bits = tableread_idx_bits(ta->n);

	histogram(ta, hist);
	if (codec_build(&code, hist)) {
		log_error("cannot build the Huffman code of table %u", in_h->table_index);
		return -1;
	}
	h.kind = NDF_KIND_CTABLE;
	h.flags = 0;
	h.codec_param = idx_bits;
	h.aux = (uint64_t)o->block_records;
	struct ndf_writer *w = ndf_writer_open(out->fp, out->display, &h);
	if (!w)
		return -1;
	codec_serialize(&code, code_bytes);
	int err = ndf_write_block(w, 0, NDF_CODEC_CODE, 0, code_bytes, codec_serialized_size());
	if (!err)
		err = write_blocks(w, out, &code, ta, idx_bits, (size_t)o->block_records, buf);
	if (err) {
		ndf_writer_abort(w);
		return -1;
	}
	st->records += ta->n;
	st->tables++;
	st->bytes_out += ndf_writer_size(w);
	return ndf_writer_finish(w) ? -1 : 0;
}

static int run(const struct opts *o, FILE *in, const char *name, struct outfile *out,
	       struct stats *st)
{
	struct table_arrays ta = {0};
	struct ndf_header first;
	int rc = 0;
	struct progress pr;
	/* document indices fit 32 bits: the largest block bound there is */
	uint8_t *buf = xmalloc(64 * codec_block_bound((size_t)o->block_records, 32));
	progress_start(&pr, "tables", 0);
	for (uint32_t t = 0;; t++) {
		int err;
		struct ndf_reader *r = ndf_reader_open(in, name, &err);
		if (!r) {
			if (!err && t == 0) {
				log_error("'%s': empty input, no tables", name);
				err = NDF_ERR_TRUNCATED;
			} else if (!err && t < first.n_tables) {
				log_error("'%s': ends after table %u of %u", name, t, first.n_tables);
				err = NDF_ERR_TRUNCATED;
			}
			rc = err;
			break;
		}
		const struct ndf_header *h = ndf_reader_header(r);
		if (t == 0)
			first = *h;
		if (h->kind != NDF_KIND_TABLE) {
			log_error("'%s': holds %s, expected a sorted table", name,
				  ndf_kind_name(h->kind));
			rc = NDF_ERR_PARAMS;
		}
		if (!rc)
			rc = tablefile_check(h, name, &first, t);
		if (!rc)
			rc = tableread_section(r, &ta);
		if (!rc) {
			st->bytes_in += h->section_size;
			rc = compress_table(o, h, &ta, out, st, buf);
		}
		ndf_reader_close(r);
		progress_update(&pr, t + 1, st->bytes_in);
		if (rc)
			break;
	}
	progress_end(&pr);
	table_arrays_free(&ta);
	free(buf);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	struct outfile out;
	struct stats st = {0};

	log_init("ndd-compress");
	parse(&o, argc, argv);
	const char *path = optind < argc ? argv[optind] : "-";
	const char *name = strcmp(path, "-") ? path : "(standard input)";
	FILE *in = cli_open_input(path);
	if (!in)
		return EXIT_FAILED;
	if (outfile_open(&out, o.cc.output)) {
		cli_close_input(in);
		return EXIT_FAILED;
	}
	int rc = run(&o, in, name, &out, &st);
	cli_close_input(in);
	if (rc || outfile_commit(&out)) {
		outfile_abort(&out);
		return EXIT_FAILED;
	}
	double per = st.records ? 8.0 * (double)st.bytes_out / (double)st.records : 0;
	cli_summary("%llu tables, %llu records, %.1f MB -> %.1f MB (%.1f bits/record)",
		    (unsigned long long)st.tables, (unsigned long long)st.records,
		    (double)st.bytes_in / 1e6, (double)st.bytes_out / 1e6, per);
	return EXIT_OK;
}
