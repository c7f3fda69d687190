/*
 * ndd-compress - sorted tables -> block-compressed tables with an index.
 *
 * Each compressed section holds the table's Huffman code of the h(n)
 * symbols (shared leading bits of neighbours) as its first block, then
 * the records in fixed-count blocks encoded in parallel.  The footer's
 * block index holds each block's first key, so a reader finds a key's
 * block by interpolation search and decodes only that block.
 *
 * A sorted table from ndd-permute-sort starts with that code (counted over
 * the whole table while it was in memory there) and announces its record
 * count in the header, so its records are encoded as they arrive, a
 * batch of a few MB at a time: memory does not grow with the table.  At
 * the end the code is checked against the histogram of the records that
 * came, so a code from elsewhere is refused, never silently used.  A
 * table without a code block (older files) is loaded whole and its code
 * made here.  Both give the same bytes for the same records.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "tables/codec.h"
#include "util/infile.h"
#include "util/log.h"
#include "util/memhint.h"
#include "format/ndf.h"
#include "util/outfile.h"
#include "tables/tablefile.h"
#include "tables/tableread.h"
#include "util/threads.h"


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
		"index.  Writes one compressed section per table, in order.  A table that\n"
		"starts with its Huffman code (ndd-permute-sort writes it) is encoded as it\n"
		"arrives, in a few MB of memory, and refused if the code is not the one its\n"
		"records make; one without (older files) is loaded whole first.\n\n"
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

/* ---- reading raw records, a batch of blocks at a time ---- */

/* A batch ends at this many blocks or bytes (raw blocks are ~800 KB; a few
 * MB stay in cache between the read, the decode and the encode). */
#define LOAD_BLOCKS 64
#define STREAM_BATCH_BYTES (4u << 20)

struct loader {
	struct ndf_reader *r;
	const char *name;
	uint32_t table;
	struct ndf_block code;  /* the section's first block, read to look */
	struct ndf_block blk[LOAD_BLOCKS];
	int pending;            /* blk[0] is a block read, not yet loaded */
	uint64_t *keys;
	uint32_t *idx;
	size_t n, cap;    /* records in keys/idx */
	uint64_t total;   /* records of the section read so far */
	uint64_t last;    /* key of record total - 1 */
	uint32_t batch_max_idx; /* the largest index of the last batch */
};

static void loader_free(struct loader *L)
{
	ndf_block_free(&L->code);
	for (int i = 0; i < LOAD_BLOCKS; i++)
		ndf_block_free(&L->blk[i]);
	free(L->keys);
	free(L->idx);
}

static int fault(const struct loader *L, uint64_t offset, const char *what)
{
	log_error("'%s': table %u, offset %llu: %s", L->name, L->table,
		  (unsigned long long)offset, what);
	return NDF_ERR_FORMAT;
}

static void reserve(struct loader *L, size_t n)
{
	if (n <= L->cap)
		return;
	size_t cap = L->cap ? L->cap : 1 << 16;
	while (cap < n)
		cap *= 2;
	L->keys = xrealloc(L->keys, cap * sizeof *L->keys);
	L->idx = xrealloc(L->idx, cap * sizeof *L->idx);
	mem_hint_huge_pages(L->keys, cap * sizeof *L->keys);
	mem_hint_huge_pages(L->idx, cap * sizeof *L->idx);
	L->cap = cap;
}

static int check_raw(const struct loader *L, const struct ndf_block *b)
{
	if (b->codec != NDF_CODEC_RAW)
		return fault(L, b->offset, b->codec == NDF_CODEC_CODE ?
			     "a code block that is not the section's first" :
			     "block is not a raw table block");
	if (b->len != (size_t)b->n_records * TABLE_RAW_RECORD)
		return fault(L, b->offset, "block length does not match its record count");
	return 0;
}

/* Read raw blocks into L->blk until @max_bytes; @return their number, 0
 * at the end of the section, or an ndf_err.  Blocks of no records are
 * passed over, so 0 means the end. */
static int read_raw_blocks(struct loader *L, size_t max_bytes)
{
	size_t bytes = 0;
	int nb = 0, rc = 0;
	if (L->pending) {
		L->pending = 0;
		if (check_raw(L, &L->blk[0]))
			return NDF_ERR_FORMAT;
		bytes = L->blk[0].len;
		nb = L->blk[0].n_records > 0;
	}
	while (nb < LOAD_BLOCKS && bytes < max_bytes && (rc = ndf_read_block(L->r, &L->blk[nb])) > 0) {
		if (check_raw(L, &L->blk[nb]))
			return NDF_ERR_FORMAT;
		bytes += L->blk[nb].len;
		nb += L->blk[nb].n_records > 0;
	}
	return rc < 0 ? rc : nb;
}

/* Keys of records [from, L->n) in order, after L->last if records came
 * before them; @bad: the decode found some out of order (the culprit is
 * sought only then). */
static int check_order(const struct loader *L, size_t from, int bad)
{
	const int after = from < L->n && L->total > L->n - from;
	const int first_bad = after && L->keys[from] < L->last;
	if (!bad && !first_bad)
		return 0;
	size_t i = from;
	if (!first_bad)
		for (i = from + 1; L->keys[i] >= L->keys[i - 1]; i++)
			;
	log_error("'%s': record %llu of table %u is out of order", L->name,
		  (unsigned long long)(L->total - (L->n - i)), L->table);
	return NDF_ERR_FORMAT;
}

/* Append the records of the next blocks, up to about @max_bytes, to
 * keys/idx (decoded by all threads).  @return records appended, 0 at the
 * end of the section, or an ndf_err. */
static long long load_batch(struct loader *L, size_t max_bytes)
{
	const int nb = read_raw_blocks(L, max_bytes);
	if (nb <= 0)
		return nb;
	size_t at[LOAD_BLOCKS], m = 0;
	for (int i = 0; i < nb; i++) {
		at[i] = L->n + m;
		m += L->blk[i].n_records;
	}
	reserve(L, L->n + m);
	int bad = 0;
	uint32_t max = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(| : bad) reduction(max : max)
	for (int i = 0; i < nb; i++) {
		uint32_t bmax;
		bad |= tablefile_decode_raw(L->blk[i].data, L->blk[i].n_records, L->keys + at[i],
					    L->idx + at[i], &bmax);
		max = bmax > max ? bmax : max;
	}
	for (int i = 1; i < nb; i++) /* across the block edges */
		bad |= L->keys[at[i]] < L->keys[at[i] - 1];
	const size_t from = L->n;
	L->n += m;
	L->total += m;
	L->batch_max_idx = max;
	if (check_order(L, from, bad))
		return NDF_ERR_FORMAT;
	if (L->n)
		L->last = L->keys[L->n - 1];
	return (long long)m;
}

/* ---- encoding ---- */

/* Blocks encoded at once by all threads. */
#define WRITE_BATCH 64

/* Add the symbols of the transitions within @keys[0..n) to @hist,
 * threads over ranges (a range also counts the transition from the key
 * before it). */
static void histogram(const uint64_t *keys, size_t n, uint64_t hist[CODEC_SYMBOLS])
{
	const int nt = threads_max();
	uint64_t *part = xcalloc((size_t)nt * CODEC_SYMBOLS, sizeof *part);
#pragma omp parallel for num_threads(nt) schedule(static, 1)
	for (int t = 0; t < nt; t++) {
		size_t lo = n * (size_t)t / (size_t)nt, hi = n * (size_t)(t + 1) / (size_t)nt;
		if (lo < hi)
			codec_histogram(keys + (lo ? lo - 1 : 0), hi - lo + (lo ? 1 : 0),
					part + (size_t)t * CODEC_SYMBOLS);
	}
	for (int t = 0; t < nt; t++)
		for (unsigned s = 0; s < CODEC_SYMBOLS; s++)
			hist[s] += part[(size_t)t * CODEC_SYMBOLS + s];
	free(part);
}

/* The histogram of the records written so far, for a streamed table's
 * check (stream_verify()): each block's transitions counted by its
 * encoder (part[i] for the batch's block i), and those between blocks. */
struct tally {
	uint64_t hist[CODEC_SYMBOLS];
	uint64_t part[WRITE_BATCH][CODEC_SYMBOLS];
	uint64_t last; /* key of the last record written */
	int started;
};

/* Blocks [0, nb) of a batch starting at @keys: their counts into the
 * total, with the transitions into each block. */
static void tally_add(struct tally *ty, const uint64_t *keys, size_t n, size_t per_block,
		      size_t nb)
{
	for (size_t i = 0; i < nb; i++) {
		const size_t first = i * per_block;
		if (i || ty->started)
			ty->hist[codec_symbol(i ? keys[first - 1] : ty->last, keys[first])]++;
		for (unsigned s = 0; s < CODEC_SYMBOLS; s++)
			ty->hist[s] += ty->part[i][s];
	}
	ty->last = keys[n - 1];
	ty->started = 1;
}

/* Encode @n records as blocks of @per_block (the last one fewer), a
 * batch at a time, in parallel, into @buf (WRITE_BATCH blocks' worth of
 * codec_block_bound(), kept across tables), and write them in order;
 * counted into @ty unless it is NULL. */
static int write_blocks(struct ndf_writer *w, struct outfile *out, const struct codec *code,
			const uint64_t *keys, const uint32_t *idx, size_t n, unsigned idx_bits,
			size_t per_block, uint8_t *buf, struct tally *ty)
{
	const size_t batch = WRITE_BATCH;
	size_t bound = codec_block_bound(per_block, idx_bits);
	size_t len[WRITE_BATCH];
	size_t n_blocks = (n + per_block - 1) / per_block;
	int err = 0;
	for (size_t b0 = 0; b0 < n_blocks && !err; b0 += batch) {
		size_t nb = n_blocks - b0 < batch ? n_blocks - b0 : batch;
		if (ty)
			memset(ty->part, 0, nb * sizeof ty->part[0]);
#pragma omp parallel for schedule(dynamic, 1)
		for (size_t i = 0; i < nb; i++) {
			size_t first = (b0 + i) * per_block;
			size_t m = n - first < per_block ? n - first : per_block;
			len[i] = ty ? codec_encode_block_counted(code, keys + first, idx + first, m,
								 idx_bits, buf + i * bound, ty->part[i])
				    : codec_encode_block(code, keys + first, idx + first, m, idx_bits,
							 buf + i * bound);
		}
		if (ty) {
			const size_t first = b0 * per_block;
			tally_add(ty, keys + first, n - first < nb * per_block ? n - first : nb * per_block,
				  per_block, nb);
		}
		for (size_t i = 0; i < nb && !err; i++) {
			size_t first = (b0 + i) * per_block;
			size_t m = n - first < per_block ? n - first : per_block;
			err = ndf_write_block(w, (uint32_t)m, NDF_CODEC_PREFIX, keys[first],
					      buf + i * bound, len[i]);
		}
		outfile_writeback(out);
	}
	return err;
}

/* Open the compressed section of the table @in_h and write its code. */
static struct ndf_writer *ctable_open(const struct opts *o, const struct ndf_header *in_h,
				      unsigned idx_bits, const struct codec *code,
				      struct outfile *out)
{
	uint8_t code_bytes[64];
	struct ndf_header h = *in_h;
	h.kind = NDF_KIND_CTABLE;
	h.flags = 0;
	h.codec_param = idx_bits;
	h.aux = (uint64_t)o->block_records;
	struct ndf_writer *w = ndf_writer_open(out->fp, out->display, &h);
	codec_serialize(code, code_bytes);
	if (w && ndf_write_block(w, 0, NDF_CODEC_CODE, 0, code_bytes, codec_serialized_size())) {
		ndf_writer_abort(w);
		return NULL;
	}
	return w;
}

static int ctable_finish(struct ndf_writer *w, int err, uint64_t n, struct stats *st)
{
	if (err) {
		ndf_writer_abort(w);
		return -1;
	}
	st->records += n;
	st->tables++;
	st->bytes_out += ndf_writer_size(w);
	return ndf_writer_finish(w) ? -1 : 0;
}

/* ---- a table without a code block: loaded whole ---- */

static int compress_loaded(const struct opts *o, struct loader *L, const struct ndf_header *in_h,
			   struct outfile *out, struct stats *st, uint8_t *buf)
{
	uint64_t hist[CODEC_SYMBOLS] = {0};
	struct codec code;
	long long got;
	while ((got = load_batch(L, SIZE_MAX)) > 0)
		;
	if (got < 0)
		return -1;
	const unsigned idx_bits = tableread_idx_bits(L->n);
	histogram(L->keys, L->n, hist);
	if (codec_build(&code, hist)) {
		log_error("cannot build the Huffman code of table %u", in_h->table_index);
		return -1;
	}
	struct ndf_writer *w = ctable_open(o, in_h, idx_bits, &code, out);
	if (!w)
		return -1;
	int err = write_blocks(w, out, &code, L->keys, L->idx, L->n, idx_bits,
			       (size_t)o->block_records, buf, NULL);
	return ctable_finish(w, err, L->n, st);
}

/* ---- a table with its code block: streamed ---- */

/* Document indices of the last batch below 2^@idx_bits. */
static int check_idx(const struct loader *L, unsigned idx_bits)
{
	const uint32_t max = L->batch_max_idx;
	if (idx_bits < 32 && max >> idx_bits) {
		log_error("'%s': table %u: document index %u, but the header announces %llu records",
			  L->name, L->table, max, (unsigned long long)ndf_reader_header(L->r)->aux);
		return NDF_ERR_FORMAT;
	}
	return 0;
}

/* The next batch into keys/idx after the @carry records left there, its
 * indices checked.  @return records read, 0 at the end, or an ndf_err. */
static long long stream_batch(struct loader *L, size_t carry, unsigned idx_bits)
{
	L->n = carry;
	const long long got = load_batch(L, STREAM_BATCH_BYTES);
	if (got <= 0)
		return got;
	if (check_idx(L, idx_bits))
		return NDF_ERR_FORMAT;
	return got;
}

/* Whole blocks of keys/idx written, the rest moved to the front;
 * @return the records left there, or -1. */
static long long stream_write(const struct opts *o, struct loader *L, struct ndf_writer *w,
			      struct outfile *out, const struct codec *code, unsigned idx_bits,
			      int last, uint8_t *buf, struct tally *ty)
{
	const size_t per = (size_t)o->block_records;
	const size_t whole = last ? L->n : L->n / per * per;
	if (write_blocks(w, out, code, L->keys, L->idx, whole, idx_bits, per, buf, ty))
		return -1;
	memmove(L->keys, L->keys + whole, (L->n - whole) * sizeof *L->keys);
	memmove(L->idx, L->idx + whole, (L->n - whole) * sizeof *L->idx);
	return (long long)(L->n - whole);
}

/* After the last record: as many as announced, and the code the one
 * their histogram makes (the code block is where it went wrong). */
static int stream_verify(const struct loader *L, const struct ndf_block *code_blk,
			 const uint64_t hist[CODEC_SYMBOLS])
{
	const uint64_t announced = ndf_reader_header(L->r)->aux;
	struct codec made;
	uint8_t bytes[64];
	if (L->total != announced) {
		log_error("'%s': table %u holds %llu records, its header announces %llu", L->name,
			  L->table, (unsigned long long)L->total, (unsigned long long)announced);
		return NDF_ERR_FORMAT;
	}
	if (codec_build(&made, hist)) {
		log_error("cannot build the Huffman code of table %u", L->table);
		return -1;
	}
	codec_serialize(&made, bytes);
	if (memcmp(bytes, code_blk->data, codec_serialized_size()))
		return fault(L, code_blk->offset,
			     "the code block is not the Huffman code of the table's records");
	return 0;
}

static int compress_streamed(const struct opts *o, struct loader *L, const struct ndf_header *in_h,
			     const struct ndf_block *code_blk, struct outfile *out, struct stats *st,
			     uint8_t *buf)
{
	struct codec code;
	if (code_blk->n_records != 0 || code_blk->len != codec_serialized_size() ||
	    codec_parse(&code, code_blk->data, code_blk->len))
		return fault(L, code_blk->offset, "invalid code block");
	if (in_h->aux > UINT32_MAX) /* document indices are 32 bits */
		return fault(L, 0, "record count in the header out of range");
	const unsigned idx_bits = tableread_idx_bits(in_h->aux);
	struct ndf_writer *w = ctable_open(o, in_h, idx_bits, &code, out);
	if (!w)
		return -1;
	struct tally *ty = xcalloc(1, sizeof *ty);
	long long got, carry = 0;
	do {
		got = stream_batch(L, (size_t)carry, idx_bits);
		if (got >= 0)
			carry = stream_write(o, L, w, out, &code, idx_bits, got == 0, buf, ty);
	} while (got > 0 && carry >= 0);
	int err = got < 0 || carry < 0 || stream_verify(L, code_blk, ty->hist);
	free(ty);
	return ctable_finish(w, err, L->total, st);
}

/* One table section: streamed if it starts with its code, else loaded. */
static int compress_section(const struct opts *o, struct loader *L, struct outfile *out,
			    struct stats *st, uint8_t *buf)
{
	const struct ndf_header *h = ndf_reader_header(L->r);
	L->n = 0;
	L->total = 0;
	L->table = h->table_index;
	const int rc = ndf_read_block(L->r, &L->code);
	if (rc < 0)
		return rc;
	if (rc > 0 && L->code.codec == NDF_CODEC_CODE)
		return compress_streamed(o, L, h, &L->code, out, st, buf);
	if (rc > 0) { /* the block read to look is the first of the records */
		const struct ndf_block b = L->blk[0];
		L->blk[0] = L->code;
		L->code = b;
		L->pending = 1;
	}
	return compress_loaded(o, L, h, out, st, buf);
}

static int run(const struct opts *o, FILE *in, const char *name, struct outfile *out,
	       struct stats *st)
{
	struct loader L = {0};
	struct ndf_header first;
	int rc = 0;
	struct progress pr;
	/* document indices fit 32 bits: the largest block bound there is */
	uint8_t *buf = xmalloc(WRITE_BATCH * codec_block_bound((size_t)o->block_records, 32));
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
		if (!rc) {
			L.r = r;
			L.name = name;
			rc = compress_section(o, &L, out, st, buf);
			st->bytes_in += h->section_size;
		}
		ndf_reader_close(r);
		progress_update(&pr, t + 1, st->bytes_in);
		if (rc)
			break;
	}
	progress_end(&pr);
	loader_free(&L);
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
	FILE *in = infile_open(path);
	if (!in)
		return EXIT_FAILED;
	if (outfile_open(&out, o.cc.output)) {
		infile_close(in);
		return EXIT_FAILED;
	}
	tablefile_pipe_buffer(out.fp); /* compressed blocks: ~8 KB */
	int rc = run(&o, in, name, &out, &st);
	infile_close(in);
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
