/*
 * tableread.c - see tableread.h.
 *
 * One thread reads batch after batch of blocks into one of two sets of
 * block buffers (or, from a regular file, points them into a mapping of
 * it); the blocks of a batch are checksummed and decoded as tasks while
 * the next batch is read into the other set.  Decoded records go to the end
 * of one of two record arrays, after the records the consumer has not
 * taken yet:
 *
 *   rec[cur]:  | left untaken | batch i, decoded |
 *
 * Once batch i is decoded and checked, the consumer takes a prefix and
 * starts its own tasks on it; the rest is copied to the front of the
 * other array, where batch i + 1 is decoded next, so neither array is
 * written while tasks read it.  When the consumer takes nothing (a run
 * longer than a batch; tableread_section(), which takes nothing at all)
 * the next batch is appended in place, so those records are copied only
 * by the doubling of their array, not once per batch.
 */
#include "tables/tableread.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "tables/codec.h"
#include "util/log.h"
#include "util/memhint.h"
#include "tables/tablefile.h"

/* A batch ends at the block that reaches BATCH_RECORDS records (a few MB
 * decoded: the decode and the consumer's scan find it in the last-level
 * cache), or at these many blocks or payload bytes. */
#define BATCH_RECORDS ((size_t)1 << 18)
#define BATCH_BLOCKS 1024
#define BATCH_BYTES (8u << 20)
/* Consecutive small blocks are decoded by one task (a compressed block of
 * 1024 records decodes in a few microseconds). */
#define TASK_RECORDS 8192

static size_t g_batch_records = BATCH_RECORDS;

struct batch {
	struct ndf_block blk[BATCH_BLOCKS];
	size_t at[BATCH_BLOCKS]; /* each block's first record, from the batch's first */
	int n;
	size_t records;
	uint64_t first_record;   /* the batch's first record in the section */
};

/* Decoded records; keys and idx grow together. */
struct records {
	uint64_t *keys;
	uint32_t *idx;
	size_t n, cap;
};

/* in the order they are reported when they meet at one record */
enum fault { FAULT_NONE, FAULT_CHECKSUM, FAULT_DECODE, FAULT_ORDER };

struct tableread_ctx {
	struct ndf_reader *r;
	struct codec code;
	int have_code, seen_code;
	unsigned idx_bits;
	uint64_t idx_limit;      /* every index is below it */
	struct batch b[2];
	struct records rec[2];
	int cur;                 /* rec[cur] holds the records not taken yet */
	uint64_t blocks_read;    /* data blocks */
	uint64_t records;        /* decoded and checked so far */
	uint64_t last_key;       /* the last of those */
	/* the first fault in record order, so that the error is the same
	 * for any thread count */
	enum fault fault;
	uint64_t fault_record, fault_offset;
};

void tableread_batch_records(size_t n)
{
	g_batch_records = n ? n : BATCH_RECORDS;
}

void table_arrays_free(struct table_arrays *ta)
{
	struct tableread_ctx *c = ta->ctx;
	if (c) {
		for (int h = 0; h < 2; h++) {
			for (int i = 0; i < BATCH_BLOCKS; i++)
				ndf_block_free(&c->b[h].blk[i]);
			free(c->rec[h].keys);
			free(c->rec[h].idx);
		}
		free(c);
	}
	memset(ta, 0, sizeof *ta);
}

unsigned tableread_idx_bits(uint64_t n)
{
	unsigned b = 0;
	while (n > 1 && ((n - 1) >> b))
		b++;
	return b;
}

static int reserve(struct records *rec, size_t n)
{
	if (n <= rec->cap)
		return 0;
	size_t cap = rec->cap ? rec->cap : 4096;
	while (cap < n)
		cap *= 2;
	uint64_t *k = realloc(rec->keys, cap * sizeof *k);
	if (k)
		rec->keys = k;
	uint32_t *i = realloc(rec->idx, cap * sizeof *i);
	if (i)
		rec->idx = i;
	if (!k || !i) {
		log_error("out of memory for %zu table records", n);
		return NDF_ERR_NOMEM;
	}
	mem_hint_huge_pages(k, cap * sizeof *k);
	mem_hint_huge_pages(i, cap * sizeof *i);
	rec->cap = cap;
	return 0;
}

static int fault(const struct tableread_ctx *c, const struct ndf_block *b, const char *what)
{
	log_error("'%s': offset %llu: %s", ndf_reader_name(c->r),
		  (unsigned long long)b->offset, what);
	return NDF_ERR_FORMAT;
}

/* The code block comes before every data block (the decode tasks of a
 * batch use the code while the next batch is read, so it cannot change
 * then); a raw table may carry one too, which nothing here needs. */
static int take_code(struct tableread_ctx *c, const struct ndf_block *b)
{
	if (c->seen_code || c->blocks_read || b->n_records != 0)
		return fault(c, b, "repeated or misplaced code block");
	c->seen_code = 1;
	if (ndf_reader_header(c->r)->kind != NDF_KIND_CTABLE)
		return 0;
	if (codec_parse(&c->code, b->data, b->len))
		return fault(c, b, "invalid code block");
	c->have_code = 1;
	return 0;
}

static void note_fault(struct tableread_ctx *c, enum fault kind, uint64_t record,
		       uint64_t offset)
{
#pragma omp critical(tableread_fault)
	if (!c->fault || record < c->fault_record ||
	    (record == c->fault_record && kind < c->fault)) {
		c->fault = kind;
		c->fault_record = record;
		c->fault_offset = offset;
	}
}

static int decode_block(const struct tableread_ctx *c, const struct ndf_block *b,
			uint64_t *keys, uint32_t *idx)
{
	if (b->codec == NDF_CODEC_RAW) {
		if (b->len != (size_t)b->n_records * TABLE_RAW_RECORD)
			return -1;
		uint32_t max_idx; /* the caller checks every codec's records alike */
		tablefile_decode_raw(b->data, b->n_records, keys, idx, &max_idx);
		return 0;
	}
	if (b->codec != NDF_CODEC_PREFIX || !c->have_code)
		return -1;
	return codec_decode_block(&c->code, b->data, b->len, b->n_records, c->idx_bits, keys,
				  idx);
}

/* The first record of @keys/@idx[0..n) that is below its predecessor or
 * whose index is out of range, or n. */
static size_t first_disorder(const uint64_t *keys, const uint32_t *idx, size_t n,
			     uint64_t limit)
{
	/* no early exit: the loops vectorise; the culprit is sought only
	 * on failure */
	int bad = 0;
	for (size_t i = 1; i < n; i++)
		bad |= keys[i] < keys[i - 1];
	for (size_t i = 0; i < n; i++)
		bad |= idx[i] >= limit;
	if (!bad)
		return n;
	size_t i = 0;
	while (i < n && (i == 0 || keys[i] >= keys[i - 1]) && idx[i] < limit)
		i++;
	return i;
}

/* Blocks [i, j) of @bt into @keys/@idx (where the batch's records go),
 * each checked in order inside (its edges are checked after the batch).
 * A prefix-coded block needs no check: its decoder accepts only keys in
 * order (each key's implicit 1 bit) and indices of idx_bits bits. */
static void decode_blocks(struct tableread_ctx *c, const struct batch *bt, int i, int j,
			  uint64_t *keys, uint32_t *idx)
{
	for (; i < j; i++) {
		const struct ndf_block *b = &bt->blk[i];
		uint64_t *k = keys + bt->at[i];
		uint32_t *x = idx + bt->at[i];
		const uint64_t first = bt->first_record + bt->at[i];
		if (ndf_block_check(b, ndf_reader_name(c->r))) { /* logged */
			note_fault(c, FAULT_CHECKSUM, first, b->offset);
			return;
		}
		if (decode_block(c, b, k, x)) {
			note_fault(c, FAULT_DECODE, first, b->offset);
			return;
		}
		const size_t e = b->codec == NDF_CODEC_PREFIX
					 ? b->n_records
					 : first_disorder(k, x, b->n_records, c->idx_limit);
		if (e < b->n_records) {
			note_fault(c, FAULT_ORDER, first + e, b->offset);
			return;
		}
	}
}

/* A block's record count sizes the arrays before the decode tasks test
 * its checksum: a count its bytes cannot hold (a raw block's, exactly;
 * a coded block's, more than one record per byte, rare in real tables)
 * is tested now, so that damage does not make the arrays huge. */
static int check_count(const struct tableread_ctx *c, const struct ndf_block *b)
{
	const int plausible = b->codec == NDF_CODEC_RAW
				      ? b->len == (size_t)b->n_records * TABLE_RAW_RECORD
				      : b->n_records <= b->len;
	return plausible ? 0 : ndf_block_check(b, ndf_reader_name(c->r));
}

/* Read the next data blocks into @bt, up to a batch (the code block, if
 * met, is checked and taken on the way; the others' checksums are tested
 * by the decode tasks).  @return 0 (bt->n = 0 at the section's end, its
 * footer verified), or an ndf_err. */
static int read_batch(struct tableread_ctx *c, struct batch *bt)
{
	size_t bytes = 0;
	int rc = 0;
	bt->n = 0;
	bt->records = 0;
	while (bt->n < BATCH_BLOCKS && bt->records < g_batch_records && bytes < BATCH_BYTES &&
	       (rc = ndf_read_block_unchecked(c->r, &bt->blk[bt->n])) > 0) {
		const struct ndf_block *b = &bt->blk[bt->n];
		if (b->codec == NDF_CODEC_CODE) {
			if ((rc = ndf_block_check(b, ndf_reader_name(c->r))) || (rc = take_code(c, b)))
				return rc;
			continue;
		}
		if ((rc = check_count(c, b)))
			return rc;
		bt->at[bt->n++] = bt->records;
		bt->records += b->n_records;
		bytes += b->len;
		c->blocks_read++;
	}
	return rc < 0 ? rc : 0;
}

/* Make room for @bt after the untaken records and start its decode
 * tasks. */
static int decode_batch(struct tableread_ctx *c, struct batch *bt)
{
	struct records *rec = &c->rec[c->cur];
	const int rc = reserve(rec, rec->n + bt->records + 1);
	if (rc)
		return rc;
	uint64_t *keys = rec->keys + rec->n;
	uint32_t *idx = rec->idx + rec->n;
	bt->first_record = c->records;
	for (int i = 0, j; i < bt->n; i = j) {
		for (j = i + 1; j < bt->n && bt->at[j] - bt->at[i] < TASK_RECORDS; j++)
			;
#pragma omp task firstprivate(bt, i, j, keys, idx)
		decode_blocks(c, bt, i, j, keys, idx);
	}
	return 0;
}

/* After the decode tasks of @bt: the order across its block edges, and
 * from the record before the batch. */
static void check_edges(struct tableread_ctx *c, const struct batch *bt)
{
	const uint64_t *keys = c->rec[c->cur].keys + c->rec[c->cur].n;
	int have = c->records > 0;
	uint64_t last = c->last_key;
	for (int i = 0; i < bt->n; i++) {
		const struct ndf_block *b = &bt->blk[i];
		if (!b->n_records)
			continue;
		if (have && keys[bt->at[i]] < last)
			note_fault(c, FAULT_ORDER, bt->first_record + bt->at[i], b->offset);
		last = keys[bt->at[i] + b->n_records - 1];
		have = 1;
	}
}

static int report_fault(const struct tableread_ctx *c)
{
	const char *name = ndf_reader_name(c->r);
	if (c->fault == FAULT_CHECKSUM) /* ndf_block_check() said where */
		return NDF_ERR_CHECKSUM;
	if (c->fault == FAULT_DECODE)
		log_error("'%s': offset %llu: block does not decode as a table block", name,
			  (unsigned long long)c->fault_offset);
	else
		log_error("'%s': offset %llu: record %llu of table %u is out of order or out of "
			  "range", name, (unsigned long long)c->fault_offset,
			  (unsigned long long)c->fault_record, ndf_reader_header(c->r)->table_index);
	return NDF_ERR_FORMAT;
}

/* The checked batch @bt joins the untaken records. */
static void append_batch(struct tableread_ctx *c, const struct batch *bt)
{
	struct records *rec = &c->rec[c->cur];
	rec->n += bt->records;
	c->records += bt->records;
	if (rec->n)
		c->last_key = rec->keys[rec->n - 1];
}

/* Offer the untaken records to @cons; what it leaves moves to the front
 * of the other array, unless it took nothing. */
static int hand_out(struct tableread_ctx *c, const struct tableread_consumer *cons, int last)
{
	struct records *rec = &c->rec[c->cur];
	size_t taken = 0;
	int rc = cons ? cons->take(cons->ctx, rec->keys, rec->idx, rec->n, last, &taken) : 0;
	if (rc || !taken)
		return rc;
	assert(taken <= rec->n && (!last || taken == rec->n));
	struct records *next = &c->rec[c->cur ^ 1];
	const size_t left = rec->n - taken;
	if ((rc = reserve(next, left + 1)))
		return rc;
	memcpy(next->keys, rec->keys + taken, left * sizeof *next->keys);
	memcpy(next->idx, rec->idx + taken, left * sizeof *next->idx);
	next->n = left;
	c->cur ^= 1;
	return 0;
}

/*
 * One thread reads; each round, batch h's blocks become decode tasks and
 * batch h ^ 1 is read meanwhile.  The wait then covers those tasks and
 * the consumer's tasks of the round before, so the batch can be checked
 * and handed out, and the buffers of the round before are free again.
 */
static int stream(struct tableread_ctx *c, const struct tableread_consumer *cons)
{
	int rc = 0;
#pragma omp parallel
#pragma omp single
	{
		int h = 0;
		rc = read_batch(c, &c->b[h]);
		while (!rc && c->b[h].n && !(rc = decode_batch(c, &c->b[h]))) {
			const int read_rc = read_batch(c, &c->b[h ^ 1]);
#pragma omp taskwait
			if (c->b[h ^ 1].n) /* the blocks before it are decoded */
				ndf_reader_release(c->r, c->b[h ^ 1].blk[0].offset);
			check_edges(c, &c->b[h]);
			enum fault f;
#pragma omp critical(tableread_fault)
			f = c->fault;
			if (f) {
				rc = report_fault(c);
			} else if (!(rc = read_rc)) {
				append_batch(c, &c->b[h]);
				rc = hand_out(c, cons, c->b[h ^ 1].n == 0);
			}
			h ^= 1;
		}
#pragma omp taskwait
	}
	return rc;
}

static int run(struct ndf_reader *r, struct table_arrays *ta,
	       const struct tableread_consumer *cons)
{
	const struct ndf_header *h = ndf_reader_header(r);
	ta->keys = NULL;
	ta->idx = NULL;
	ta->n = ta->cap = 0;
	if (!ta->ctx && !(ta->ctx = calloc(1, sizeof *ta->ctx))) {
		log_error("out of memory for a table reader");
		return NDF_ERR_NOMEM;
	}
	struct tableread_ctx *c = ta->ctx;
	c->r = r;
	c->have_code = c->seen_code = 0;
	c->idx_bits = h->kind == NDF_KIND_CTABLE ? h->codec_param : 32;
	c->idx_limit = (uint64_t)1 << (c->idx_bits < 32 ? c->idx_bits : 32);
	c->rec[0].n = c->rec[1].n = 0;
	c->cur = 0;
	c->blocks_read = c->records = c->last_key = 0;
	c->fault = FAULT_NONE;
	if (c->idx_bits > 32) {
		log_error("'%s': impossible index width %u", ndf_reader_name(r), c->idx_bits);
		return NDF_ERR_FORMAT;
	}
	(void)ndf_reader_map(r); /* a regular file is read in place; else through the FILE */
	return stream(c, cons);
}

int tableread_section(struct ndf_reader *r, struct table_arrays *ta)
{
	const int rc = run(r, ta, NULL);
	if (!rc) {
		const struct records *rec = &ta->ctx->rec[ta->ctx->cur];
		ta->keys = rec->keys;
		ta->idx = rec->idx;
		ta->n = rec->n;
		ta->cap = rec->cap;
	}
	return rc;
}

int tableread_stream(struct ndf_reader *r, struct table_arrays *ta,
		     const struct tableread_consumer *c, uint64_t *records)
{
	const int rc = run(r, ta, c);
	*records = ta->ctx ? ta->ctx->records : 0;
	return rc;
}
