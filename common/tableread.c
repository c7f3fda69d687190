/*
 * tableread.c - see tableread.h.  Blocks are read serially (the stream
 * is serial) in batches, and the blocks of a batch are decoded as tasks
 * by the other threads while the next batch is read into a second set of
 * buffers: reading (a copy and a CRC) and decoding overlap.
 */
#include "tableread.h"

#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "log.h"
#include "memhint.h"
#include "tablefile.h"

/* A batch ends at this many blocks or bytes (raw blocks are ~800 KB). */
#define BATCH 256
#define BATCH_BYTES (8u << 20)

struct batch {
	struct ndf_block blk[BATCH];
	size_t at[BATCH];       /* each block's first record in the arrays */
	uint64_t number[BATCH]; /* each block's number in the section */
	int n;
};

struct tableread_ctx {
	struct ndf_reader *r;
	struct table_arrays *ta;
	struct codec code;
	int have_code;
	unsigned idx_bits;
	struct batch b[2];
	int bad;                /* a block did not decode: */
	uint64_t bad_block;     /* the lowest number of such a block */
	uint64_t bad_offset;    /* and its offset */
};

void table_arrays_free(struct table_arrays *ta)
{
	if (ta->ctx)
		for (int h = 0; h < 2; h++)
			for (int i = 0; i < BATCH; i++)
				ndf_block_free(&ta->ctx->b[h].blk[i]);
	free(ta->ctx);
	free(ta->keys);
	free(ta->idx);
	memset(ta, 0, sizeof *ta);
}

unsigned tableread_idx_bits(uint64_t n)
{
	unsigned b = 0;
	while (n > 1 && ((n - 1) >> b))
		b++;
	return b;
}

static int reserve(struct table_arrays *ta, size_t n)
{
	if (n <= ta->cap)
		return 0;
	size_t cap = ta->cap ? ta->cap : 4096;
	while (cap < n)
		cap *= 2;
	uint64_t *k = realloc(ta->keys, cap * sizeof *k);
	if (k)
		ta->keys = k;
	uint32_t *i = realloc(ta->idx, cap * sizeof *i);
	if (i)
		ta->idx = i;
	mem_hint_huge_pages(k, cap * sizeof *k);
	mem_hint_huge_pages(i, cap * sizeof *i);
	if (!k || !i) {
		log_error("out of memory loading a table of %zu records", n);
		return NDF_ERR_NOMEM;
	}
	ta->cap = cap;
	return 0;
}

static int fault(const struct tableread_ctx *c, const struct ndf_block *b, const char *what)
{
	log_error("'%s': offset %llu: %s", ndf_reader_name(c->r),
		  (unsigned long long)b->offset, what);
	return NDF_ERR_FORMAT;
}

static int take_code(struct tableread_ctx *c, const struct ndf_block *b)
{
	if (c->have_code || b->n_records != 0 || codec_parse(&c->code, b->data, b->len))
		return fault(c, b, "invalid or repeated code block");
	c->have_code = 1;
	return 0;
}

/* Decode one data block into its place in the arrays; a failure is kept
 * as the lowest failing block, so the error is the same for any thread
 * count. */
static void decode_block(struct tableread_ctx *c, const struct ndf_block *b, size_t at,
			 uint64_t number)
{
	int ok;
	if (b->codec == NDF_CODEC_RAW) {
		ok = b->len == (size_t)b->n_records * TABLE_RAW_RECORD;
		if (ok)
			tablefile_decode_raw(b->data, b->n_records, c->ta->keys + at,
					     c->ta->idx + at);
	} else {
		ok = b->codec == NDF_CODEC_PREFIX && c->have_code &&
		     !codec_decode_block(&c->code, b->data, b->len, b->n_records, c->idx_bits,
					 c->ta->keys + at, c->ta->idx + at);
	}
	if (!ok) {
#pragma omp critical(tableread_bad)
		if (!c->bad || number < c->bad_block) {
			c->bad = 1;
			c->bad_block = number;
			c->bad_offset = b->offset;
		}
	}
}

static int check_sorted(const struct tableread_ctx *c)
{
	const struct table_arrays *ta = c->ta;
	const uint64_t limit = c->idx_bits >= 32 ? (uint64_t)UINT32_MAX + 1 : (1ull << c->idx_bits);
	/* no early exit: the loop vectorises; the culprit is found only on failure */
	int bad = 0;
	for (size_t i = 1; i < ta->n; i++)
		bad |= ta->keys[i] < ta->keys[i - 1];
	for (size_t i = 0; i < ta->n; i++)
		bad |= ta->idx[i] >= limit;
	if (!bad)
		return 0;
	size_t i = 0;
	while (i < ta->n && (i == 0 || ta->keys[i] >= ta->keys[i - 1]) && ta->idx[i] < limit)
		i++;
	log_error("'%s': record %zu of table %u is out of order or out of range",
		  ndf_reader_name(c->r), i, ndf_reader_header(c->r)->table_index);
	return NDF_ERR_FORMAT;
}

/* Read the next batch of data blocks into @bt (the code block, if met,
 * is taken on the way).  @return 0, or an ndf_err; bt->n = 0 at the end. */
static int read_batch(struct tableread_ctx *c, struct batch *bt, uint64_t *blocks,
		      size_t *records)
{
	size_t bytes = 0;
	int rc = 0;
	bt->n = 0;
	while (bt->n < BATCH && bytes < BATCH_BYTES &&
	       (rc = ndf_read_block(c->r, &bt->blk[bt->n])) > 0) {
		struct ndf_block *b = &bt->blk[bt->n];
		if (b->codec == NDF_CODEC_CODE) {
			if ((rc = take_code(c, b)))
				return rc;
			continue;
		}
		bt->at[bt->n] = *records;
		bt->number[bt->n] = (*blocks)++;
		*records += b->n_records;
		bytes += b->len;
		bt->n++;
	}
	return rc < 0 ? rc : 0;
}

/*
 * One thread reads batch after batch; each batch's blocks become decode
 * tasks, which the other threads run while the next batch is read into
 * the other buffers.  The wait at the top of each round guarantees the
 * tasks that used those buffers are done.  The arrays only grow between
 * rounds, with no task running (after the first table they are big
 * enough already).
 */
static int read_batches(struct tableread_ctx *c)
{
	int rc = 0;
	uint64_t blocks = 0;
	size_t records = 0;
	c->bad = 0;
#pragma omp parallel
#pragma omp single
	{
		int h = 0;
		rc = read_batch(c, &c->b[h], &blocks, &records);
		while (!rc && c->b[h].n) {
#pragma omp taskwait
			int bad;
#pragma omp critical(tableread_bad)
			bad = c->bad;
			if (bad || (rc = reserve(c->ta, records + 1)))
				break;
			struct batch *bt = &c->b[h];
			for (int i = 0; i < bt->n; i++) {
#pragma omp task firstprivate(bt, i)
				decode_block(c, &bt->blk[i], bt->at[i], bt->number[i]);
			}
			h ^= 1;
			rc = read_batch(c, &c->b[h], &blocks, &records);
		}
#pragma omp taskwait
	}
	if (!rc && c->bad) {
		log_error("'%s': offset %llu: block does not decode as a table block",
			  ndf_reader_name(c->r), (unsigned long long)c->bad_offset);
		rc = NDF_ERR_FORMAT;
	}
	if (!rc)
		c->ta->n = records;
	return rc;
}

int tableread_section(struct ndf_reader *r, struct table_arrays *ta)
{
	const struct ndf_header *h = ndf_reader_header(r);
	if (!ta->ctx && !(ta->ctx = calloc(1, sizeof *ta->ctx)))
		return NDF_ERR_NOMEM;
	struct tableread_ctx *c = ta->ctx;
	int rc;
	c->have_code = 0;
	c->r = r;
	c->ta = ta;
	c->idx_bits = h->kind == NDF_KIND_CTABLE ? h->codec_param : 32;
	ta->n = 0;
	if (c->idx_bits > 32) {
		log_error("'%s': impossible index width %u", ndf_reader_name(r), c->idx_bits);
		rc = NDF_ERR_FORMAT;
	} else {
		rc = read_batches(c);
	}
	if (!rc)
		rc = check_sorted(c);
	return rc;
}
