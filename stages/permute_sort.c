/*
 * ndd-permute-sort - fingerprints -> the sorted permuted tables of a design.
 *
 * Reads every fingerprint of the catalog, picks the table design for k
 * and N (or the one forced by --design), then for each table in turn
 * permutes the fingerprints in place into the table's keys, sorts (key,
 * doc index) into one array of 12-byte records and writes the table as
 * one NDF section.  Tables are produced one at a time, so memory is one
 * table (12 bytes per fingerprint) plus the fingerprints (8), not all
 * tables; fresh memory is slow to touch on virtual machines, and what a
 * stage never allocates costs nothing.
 *
 * Each section starts with the table's Huffman code (the block compress
 * would otherwise make after loading the whole table), counted while the
 * table is in memory here anyway, and its header's aux holds the record
 * count: with both, compress encodes the records as they arrive.
 *
 * Memory budget (--memory): fingerprints stay in memory while they take at
 * most half of it, else they go to a temporary file; a table that does not
 * fit in what is left is sorted in runs that fit, spilled, and merged
 * twice (once to count the code's histogram, once to write).  The output
 * is the same bytes either way: records are ordered by (key, idx).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/bytes.h"
#include "format/catalog.h"
#include "util/cli.h"
#include "tables/codec.h"
#include "tables/design.h"
#include "tables/keysort.h"
#include "util/log.h"
#include "util/memhint.h"
#include "format/ndf.h"
#include "util/outfile.h"
#include "tables/spill.h"
#include "tables/tablefile.h"
#include "util/threads.h"

struct opts {
	struct cli_common cc;
	int k;
	uint32_t design; /* 0 = choose */
	int plan;
	long long plan_count; /* --count: plan for N without reading */
	uint64_t memory;      /* budget in bytes */
	const char *tmpdir;
};

/* Per record while a table is built: its sorted record, and nothing
 * else (keysort_from_keys() sorts with no second array). */
#define BYTES_PER_RECORD sizeof(struct table_rec)

/* Raw blocks packed at once from a sorted table in memory: 6 MB. */
#define PACK_BLOCKS 8
#define RAW_BLOCK_BYTES ((size_t)TABLE_RAW_BLOCK_RECORDS * TABLE_RAW_RECORD)

/* What building a table takes whatever its size: the pack area and a
 * block buffer (tout_open()), and the sort's buffers per thread. */
/* A record in memory is the raw record of the file, byte for byte, where
 * the CPU is little-endian (struct table_rec is packed): blocks are then
 * written straight from the sorted array, with no packing. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RECS_ARE_RAW 1
_Static_assert(sizeof(struct table_rec) == TABLE_RAW_RECORD, "a record is a raw record");
#else
#define RECS_ARE_RAW 0
#endif

static uint64_t fixed_bytes(void)
{
	return (uint64_t)((RECS_ARE_RAW ? 0 : PACK_BLOCKS) + 1) * RAW_BLOCK_BYTES +
	       (uint64_t)threads_max() * KEYSORT_THREAD_BYTES;
}

static uint64_t default_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || size <= 0)
		return 4ull << 30;
	return (uint64_t)pages * (uint64_t)size / 2;
}

static void usage(FILE *fp, int status)
{
	fprintf(fp,
		"Usage: ndd-permute-sort [options] [FINGERPRINTS...]\n"
		"Build the sorted permuted tables of a pigeonhole design from fingerprint\n"
		"files (ndd-fingerprint output; '-' or none = standard input).  Writes one\n"
		"table section per table, in order, to the output; each starts with the\n"
		"Huffman code ndd-compress will use, so that it can encode as it reads.\n\n"
		"  -k, --distance K   find pairs within K bits (0..%d, default 6)\n"
		"      --design R     force the design with R blocks (C(R,K) tables), or\n"
		"                     R1xR2 for a nested one (C(R1,K)*C(R2,K) tables)\n"
		"  -m, --memory SIZE  memory budget, e.g. 512M, 8G (default: half of RAM);\n"
		"                     in memory a table takes 20 bytes per fingerprint and\n"
		"                     ~10 MB; beyond it, sorted runs are spilled and merged\n"
		"  -T, --tmpdir DIR   where spilled runs go (default: $TMPDIR or /tmp)\n"
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
		{"memory", required_argument, NULL, 'm'},
		{"tmpdir", required_argument, NULL, 'T'},
		{"plan", no_argument, NULL, OPT_PLAN},
		{"count", required_argument, NULL, OPT_COUNT},
		{NULL, 0, NULL, 0},
	};
	int c;
	o->k = 6; /* where the default fingerprint puts J = 0.8 (docfp.h) */
	o->memory = default_memory();
	while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS "k:m:T:", longopts, NULL)) != -1) {
		if (cli_common_option(&o->cc, c, optarg, usage))
			continue;
		switch (c) {
		case 'k': o->k = (int)cli_parse_int("--distance", optarg, 0, DESIGN_MAX_K); break;
		case 'm': o->memory = cli_parse_size("--memory", optarg); break;
		case 'T': o->tmpdir = optarg; break;
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
	if (o->memory < (1u << 20)) {
		log_error("--memory must be at least 1M");
		exit(EXIT_FAILED);
	}
	cli_common_finish(&o->cc);
}

/* ---- the fingerprints: in memory, or on a temporary file ---- */

struct fps {
	uint64_t *v;     /* in memory: all of them; spilled: a buffer */
	size_t n_mem, cap, limit;
	size_t n;        /* all fingerprints */
	FILE *spill;     /* set once they exceeded @limit */
	const char *tmpdir;
};

static int flush_fps(struct fps *f)
{
	uint8_t buf[8 * 1024];
	if (!f->spill && !(f->spill = spill_tmpfile(f->tmpdir)))
		return -1;
	for (size_t i = 0; i < f->n_mem; i += 1024) {
		size_t m = f->n_mem - i < 1024 ? f->n_mem - i : 1024;
		for (size_t j = 0; j < m; j++)
			put_le64(buf + 8 * j, f->v[i + j]);
		if (fwrite(buf, 8, m, f->spill) != m) {
			log_error("cannot write a temporary file in '%s': %s", spill_dir(f->tmpdir),
				  strerror(errno));
			return -1;
		}
	}
	f->n_mem = 0;
	return 0;
}

/* Before a batch of @n fingerprints from @first (= f->n): room for them in
 * memory, after spilling those held if the budget would be exceeded (a
 * batch is a small part of the budget, see main()). */
static int make_room(void *ctx, uint64_t first, uint64_t n)
{
	struct fps *f = ctx;
	(void)first;
	if (f->n_mem + n > f->limit && f->n_mem && flush_fps(f))
		return -1;
	if (f->n_mem + n > f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 1 << 16;
		while (cap < f->n_mem + n)
			cap *= 2;
		if (cap > f->limit)
			cap = f->limit > f->n_mem + n ? f->limit : f->n_mem + n;
		f->v = xrealloc(f->v, cap * sizeof *f->v);
		f->cap = cap;
	}
	f->n_mem += n;
	f->n += n;
	return 0;
}

static int collect(void *ctx, uint64_t idx, const struct fp_record *r)
{
	struct fps *f = ctx;
	/* this batch is the last n_mem - ... of the buffer: index from its end */
	f->v[f->n_mem - (f->n - idx)] = r->simhash;
	return 0;
}

/* Fingerprints [start, start + n) from their temporary file into @out. */
static int fps_range(const struct fps *f, size_t start, size_t n, uint64_t *out)
{
	uint8_t buf[8 * 1024];
	if (fseeko(f->spill, (off_t)start * 8, SEEK_SET))
		goto fail;
	for (size_t i = 0; i < n; i += 1024) {
		size_t m = n - i < 1024 ? n - i : 1024;
		if (fread(buf, 8, m, f->spill) != m)
			goto fail;
		for (size_t j = 0; j < m; j++)
			out[i + j] = get_le64(buf + 8 * j);
	}
	return 0;
fail:
	log_error("cannot read back the fingerprints' temporary file: %s", strerror(errno));
	return -1;
}

/* ---- the table's Huffman code ---- */

/* Add the symbols of the transitions within @r[0..n) to @hist. */
static void rec_histogram(const struct table_rec *r, size_t n, uint64_t hist[CODEC_SYMBOLS])
{
	for (size_t i = 1; i < n; i++)
		hist[codec_symbol(r[i - 1].key, r[i].key)]++;
}

/*
 * The histogram of a table sorted in memory, counted bucket by bucket as
 * the sort finishes them (keysort_visit: the bucket is then in cache, where
 * a pass of its own over the table would read it all from memory again);
 * the transitions between buckets are added from their first and last keys.
 */
struct bucket_hist {
	uint64_t *part;         /* CODEC_SYMBOLS counts per thread */
	uint64_t *first, *last; /* per bucket */
	uint8_t *filled;
	size_t nb;
};

static void bucket_hist_init(struct bucket_hist *bh, size_t n)
{
	bh->nb = keysort_bucket_count(n);
	bh->part = xcalloc((size_t)threads_max() * CODEC_SYMBOLS, sizeof *bh->part);
	bh->first = xmalloc(bh->nb * sizeof *bh->first);
	bh->last = xmalloc(bh->nb * sizeof *bh->last);
	bh->filled = xcalloc(bh->nb, 1);
}

static void count_bucket(void *ctx, int t, size_t b, const struct table_rec *r, size_t n)
{
	struct bucket_hist *bh = ctx;
	if (!n)
		return;
	rec_histogram(r, n, bh->part + (size_t)t * CODEC_SYMBOLS);
	bh->first[b] = r[0].key;
	bh->last[b] = r[n - 1].key;
	bh->filled[b] = 1;
}

/* Everything counted into @hist (zeroed by the caller), and @bh freed. */
static void bucket_hist_finish(struct bucket_hist *bh, uint64_t hist[CODEC_SYMBOLS])
{
	int started = 0;
	uint64_t prev = 0;
	for (size_t b = 0; b < bh->nb; b++) {
		if (!bh->filled[b])
			continue;
		if (started)
			hist[codec_symbol(prev, bh->first[b])]++;
		prev = bh->last[b];
		started = 1;
	}
	for (int t = 0; t < threads_max(); t++)
		for (unsigned s = 0; s < CODEC_SYMBOLS; s++)
			hist[s] += bh->part[(size_t)t * CODEC_SYMBOLS + s];
	free(bh->part);
	free(bh->first);
	free(bh->last);
	free(bh->filled);
}

/* The histogram of merged runs, batch by batch (spill_runs_merge()). */
struct merged_hist {
	uint64_t hist[CODEC_SYMBOLS];
	uint64_t last; /* key of the record before this batch */
	int started;
};

static int merged_hist_add(void *ctx, const struct table_rec *recs, size_t n)
{
	struct merged_hist *mh = ctx;
	if (mh->started)
		mh->hist[codec_symbol(mh->last, recs[0].key)]++;
	rec_histogram(recs, n, mh->hist);
	mh->last = recs[n - 1].key;
	mh->started = 1;
	return 0;
}

/* ---- writing one table ---- */

struct table_out {
	struct ndf_writer *w;
	uint8_t *buf;      /* one block, filled record by record */
	uint8_t *pack;     /* PACK_BLOCKS blocks, packed by all threads */
	size_t n;
	uint64_t first_key;
};

/*
 * The section's first block: the Huffman code compress will use, built by
 * codec_build() from the whole table's histogram as compress builds it for
 * a table without one, so that compress can encode the records as they
 * arrive (with the record count in the header's aux, it knows the index
 * width too).
 */
static int tout_code(struct table_out *to, const uint64_t hist[CODEC_SYMBOLS])
{
	struct codec code;
	uint8_t bytes[64];
	if (codec_build(&code, hist)) {
		log_error("cannot build a table's Huffman code");
		return -1;
	}
	codec_serialize(&code, bytes);
	return ndf_write_block(to->w, 0, NDF_CODEC_CODE, 0, bytes, codec_serialized_size()) ? -1 : 0;
}

/* @nb whole blocks of raw records at @bytes, whose first keys are those
 * of @recs' blocks. */
static int write_raw_blocks(struct table_out *to, const struct table_rec *recs,
			    const uint8_t *bytes, size_t nb)
{
	const size_t per = TABLE_RAW_BLOCK_RECORDS;
	for (size_t b = 0; b < nb; b++)
		if (ndf_write_block(to->w, (uint32_t)per, NDF_CODEC_RAW, recs[b * per].key,
				    bytes + b * RAW_BLOCK_BYTES, RAW_BLOCK_BYTES))
			return -1;
	return 0;
}

/* Whole blocks from a sorted array: packed by all threads, PACK_BLOCKS
 * at a time (unless RECS_ARE_RAW), then written in order. */
static int tout_blocks(struct table_out *to, const struct table_rec *recs, size_t n_blocks)
{
	const size_t per = TABLE_RAW_BLOCK_RECORDS;
	if (RECS_ARE_RAW)
		return write_raw_blocks(to, recs, (const uint8_t *)recs, n_blocks);
	for (size_t b0 = 0; b0 < n_blocks; b0 += PACK_BLOCKS) {
		const size_t nb = n_blocks - b0 < PACK_BLOCKS ? n_blocks - b0 : PACK_BLOCKS;
		const struct table_rec *r = recs + b0 * per;
#pragma omp parallel for schedule(static)
		for (size_t i = 0; i < nb * per; i++)
			tablefile_put_raw(to->pack + i * TABLE_RAW_RECORD, r[i].key, (uint32_t)r[i].idx);
		if (write_raw_blocks(to, r, to->pack, nb))
			return -1;
	}
	return 0;
}

static int tout_add(void *ctx, const struct table_rec *recs, size_t n)
{
	struct table_out *to = ctx;
	for (size_t i = 0; i < n; i++) {
		if (to->n == 0)
			to->first_key = recs[i].key;
		uint8_t *p = to->buf + to->n * TABLE_RAW_RECORD;
		tablefile_put_raw(p, recs[i].key, (uint32_t)recs[i].idx);
		if (++to->n == TABLE_RAW_BLOCK_RECORDS) {
			if (ndf_write_block(to->w, (uint32_t)to->n, NDF_CODEC_RAW, to->first_key,
					    to->buf, to->n * TABLE_RAW_RECORD))
				return -1;
			to->n = 0;
		}
	}
	return 0;
}

/* A sorted table in memory: its code, whole blocks, then the rest. */
static int tout_table(struct table_out *to, const struct table_rec *recs, size_t n,
		      const uint64_t hist[CODEC_SYMBOLS])
{
	const size_t whole = n / TABLE_RAW_BLOCK_RECORDS;
	if (tout_code(to, hist) || tout_blocks(to, recs, whole))
		return -1;
	return tout_add(to, recs + whole * TABLE_RAW_BLOCK_RECORDS,
			n - whole * TABLE_RAW_BLOCK_RECORDS);
}

static int tout_open(struct table_out *to, struct outfile *out, const struct design *d,
		     uint32_t t, const struct catalog_info *info, size_t n, uint8_t *pack)
{
	struct ndf_header h;
	tablefile_header(&h, NDF_KIND_TABLE, d, t, info->feature_config, info->dataset_id);
	h.aux = n; /* ahead of the records, for compress (docs/FORMATS.md) */
	memset(to, 0, sizeof *to);
	to->w = ndf_writer_open(out->fp, out->display, &h);
	to->buf = xmalloc(RAW_BLOCK_BYTES);
	to->pack = pack;
	return to->w ? 0 : -1;
}

static int tout_close(struct table_out *to, int rc)
{
	if (!rc && to->n)
		rc = ndf_write_block(to->w, (uint32_t)to->n, NDF_CODEC_RAW, to->first_key, to->buf,
				     to->n * TABLE_RAW_RECORD);
	if (rc)
		ndf_writer_abort(to->w);
	else
		rc = ndf_writer_finish(to->w) ? -1 : 0;
	free(to->buf);
	return rc;
}

/* ---- building the tables ---- */

struct builder {
	const struct opts *o;
	struct fps *f;          /* in memory: permuted in place, table by table */
	const struct design *d;
	const struct catalog_info *info;
	struct outfile *out;
	size_t chunk;           /* records sorted at once */
	struct table_rec *recs; /* the sorted chunk (a whole table when it fits) */
	uint64_t *fp_buf;       /* a chunk of fingerprints, when they are spilled */
	uint8_t *pack;          /* see tout_blocks() */
	size_t runs;            /* spilled runs, for the summary */
	int fps_table;          /* whose keys f->v holds: a table, or -1 */
};

/* Permute and sort fingerprints [start, start + n) of table @t into recs;
 * @visit (or NULL) sees each bucket once it is sorted. */
static int sort_chunk(struct builder *b, uint32_t t, size_t start, size_t n,
		      const struct keysort_visit *visit)
{
	uint64_t *keys = b->f->v + start;
	int from = b->fps_table;
	if (b->f->spill) {
		if (fps_range(b->f, start, n, b->fp_buf))
			return -1;
		keys = b->fp_buf;
		from = -1;
	}
	struct design_lut *lut = xmalloc(sizeof *lut);
	design_lut_between(b->d, from, (int)t, lut);
	keysort_permuted(keys, lut, n, start, b->recs, visit);
	free(lut);
	return 0;
}

/* A table larger than the budget: sorted runs spilled, then merged twice,
 * once for the code's histogram and once to write the records. */
static int spill_table(struct builder *b, uint32_t t, struct table_out *to)
{
	const size_t n = b->f->n;
	struct spill_runs *runs = spill_runs_new(b->o->tmpdir);
	struct merged_hist mh = {{0}, 0, 0};
	int rc = runs ? 0 : -1;
	for (size_t start = 0; !rc && start < n; start += b->chunk) {
		const size_t m = n - start < b->chunk ? n - start : b->chunk;
		rc = sort_chunk(b, t, start, m, NULL);
		if (!rc)
			rc = spill_runs_add(runs, b->recs, m);
	}
	if (!rc)
		rc = spill_runs_merge(runs, 4096, merged_hist_add, &mh);
	if (!rc)
		rc = tout_code(to, mh.hist);
	if (!rc) {
		b->runs += spill_runs_count(runs);
		rc = spill_runs_merge(runs, 4096, tout_add, to);
	}
	spill_runs_free(runs);
	return rc;
}

static int build_table(struct builder *b, uint32_t t)
{
	struct table_out to;
	const size_t n = b->f->n;
	int rc = tout_open(&to, b->out, b->d, t, b->info, n, b->pack);
	if (!rc && n <= b->chunk) {
		uint64_t hist[CODEC_SYMBOLS] = {0};
		struct bucket_hist bh;
		bucket_hist_init(&bh, n);
		const struct keysort_visit visit = {count_bucket, &bh};
		rc = sort_chunk(b, t, 0, n, &visit);
		bucket_hist_finish(&bh, hist);
		if (!rc)
			rc = tout_table(&to, b->recs, n, hist);
	} else if (!rc) {
		rc = spill_table(b, t, &to);
	}
	b->fps_table = (int)t; /* every chunk in memory now holds table t's keys */
	return tout_close(&to, rc);
}

/* Records that fit in the budget left after the fingerprints and the
 * fixed buffers. */
static size_t chunk_records(const struct opts *o, const struct fps *f)
{
	uint64_t used = (f->spill ? 0 : (uint64_t)f->n * sizeof(uint64_t)) + fixed_bytes();
	uint64_t per = BYTES_PER_RECORD + (f->spill ? sizeof(uint64_t) : 0);
	uint64_t left = o->memory > used ? o->memory - used : 0;
	uint64_t c = left / per;
	if (c < 4096)
		c = 4096;
	return c > f->n ? (f->n ? f->n : 1) : (size_t)c;
}

static int build_tables(struct builder *b)
{
	struct progress pr;
	int rc = 0;
	b->chunk = chunk_records(b->o, b->f);
	b->recs = xmalloc(b->chunk * sizeof *b->recs);
	/* the top radix level writes to thousands of places at once: with 4 KB
	 * pages each of them is a TLB miss */
	mem_hint_huge_pages(b->recs, b->chunk * sizeof *b->recs);
	b->fp_buf = b->f->spill ? xmalloc(b->chunk * sizeof *b->fp_buf) : NULL;
	b->pack = RECS_ARE_RAW ? NULL : xmalloc(PACK_BLOCKS * RAW_BLOCK_BYTES);
	progress_start(&pr, "tables", 0);
	for (uint32_t t = 0; t < b->d->n_tables && !rc; t++) {
		rc = build_table(b, t);
		progress_update(&pr, t + 1, (uint64_t)(t + 1) * b->f->n * TABLE_RAW_RECORD);
	}
	progress_end(&pr);
	free(b->recs);
	free(b->fp_buf);
	free(b->pack);
	return rc;
}

static void print_plan(const struct opts *o, const struct design *d, uint64_t n)
{
	double need = (double)n * (8 + BYTES_PER_RECORD) + (double)fixed_bytes();
	double raw = (double)d->n_tables * (double)n * TABLE_RAW_RECORD;
	double bits = 2 + 64 - (n > 1 ? log2((double)n) : 0) + ceil(log2((double)n + 1));
	char name[16];
	design_name(d->code, name, sizeof name);
	printf("fingerprints:      %llu\n", (unsigned long long)n);
	printf("distance k:        %u\n", d->k);
	printf("design:            %s: %u tables\n", name, d->n_tables);
	printf("block widths:     ");
	for (uint32_t b = 0; b < d->n_blocks; b++)
		printf(" %u", d->block_width[b]);
	if (d->n_blocks2)
		printf(" (then %u blocks of the bits left)", d->n_blocks2);
	printf("\nleading bits:      %u (table 0) .. %u (table %u)\n", d->tables[0].lead_bits,
	       d->tables[d->n_tables - 1].lead_bits, d->n_tables - 1);
	printf("comparisons/fp:    %.3g (expected, all tables)\n", design_comparisons(d, n));
	printf("memory:            %.1f MB to sort in memory; budget %.1f MB%s\n", need / 1e6,
	       (double)o->memory / 1e6,
	       need > (double)o->memory ? ": runs will be spilled and merged" : "");
	printf("disk, raw tables:  %.1f MB\n", raw / 1e6);
	printf("disk, compressed:  %.1f MB (about %.0f bits per record)\n",
	       (double)d->n_tables * (double)n * bits / 8e6, bits);
}

static int plan_only(const struct opts *o, uint64_t n)
{
	struct design d;
	if (design_make(&d, (uint32_t)o->k, o->design ? o->design : design_choose((uint32_t)o->k, n)))
		return EXIT_FAILED;
	print_plan(o, &d, n);
	design_free(&d);
	return EXIT_OK;
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
	if (o.plan && o.plan_count)
		return plan_only(&o, (uint64_t)o.plan_count);

	f.limit = o.memory / 2 / sizeof(uint64_t);
	f.tmpdir = o.tmpdir;
	/* a batch of the catalog's records at most 1/16 of the fingerprints'
	 * half of the budget (records are 50 bytes or more, fingerprints 8) */
	const struct catalog_visitor v = {
		.batch = make_room, .record = collect, .ctx = &f, .batch_bytes = o.memory / 2 / 16 * 50 / 8};
	int rc = catalog_scan(inputs, n_inputs, &v, &info) || (f.spill && flush_fps(&f));
	if (!rc && f.n >= UINT32_MAX) {
		log_error("%zu fingerprints: more than one table can index (2^32 - 1)", f.n);
		rc = -1;
	}
	if (rc || o.plan) {
		free(f.v);
		if (f.spill)
			fclose(f.spill);
		return rc ? EXIT_FAILED : plan_only(&o, f.n);
	}
	if (design_make(&d, (uint32_t)o.k, o.design ? o.design : design_choose((uint32_t)o.k, f.n)) ||
	    outfile_open(&out, o.cc.output)) {
		design_free(&d);
		free(f.v);
		return EXIT_FAILED;
	}
	struct builder b = {&o, &f, &d, &info, &out, 0, NULL, NULL, NULL, 0, -1};
	rc = build_tables(&b);
	if (rc || outfile_commit(&out)) {
		outfile_abort(&out);
		rc = -1;
	} else {
		char name[16];
		design_name(d.code, name, sizeof name);
		cli_summary("%zu fingerprints, k = %d, design %s: %u tables of %u+ leading bits, "
			    "%zu spilled runs", f.n, o.k, name, d.n_tables,
			    d.tables[d.n_tables - 1].lead_bits, b.runs);
	}
	design_free(&d);
	free(f.v);
	if (f.spill)
		fclose(f.spill);
	return rc ? EXIT_FAILED : EXIT_OK;
}
