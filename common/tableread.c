/*
 * tableread.c - see tableread.h.  Blocks are read serially (the stream
 * is serial) in batches, and a batch of compressed blocks is decoded by
 * all threads at once.
 */
#include "tableread.h"

#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "log.h"
#include "tablefile.h"

#define BATCH 256

struct tableread_ctx {
	struct ndf_reader *r;
	struct table_arrays *ta;
	struct codec code;
	int have_code;
	unsigned idx_bits;
	struct ndf_block blk[BATCH];
};

void table_arrays_free(struct table_arrays *ta)
{
	if (ta->ctx)
		for (int i = 0; i < BATCH; i++)
			ndf_block_free(&ta->ctx->blk[i]);
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

/* Decode a batch of data blocks into their places in the arrays. */
static int decode_batch(struct tableread_ctx *c, int nb, size_t base)
{
	int bad = -1;
	size_t at[BATCH];
	for (int i = 0; i < nb; i++) {
		at[i] = base;
		base += c->blk[i].n_records;
	}
#pragma omp parallel for schedule(dynamic, 4)
	for (int i = 0; i < nb; i++) {
		const struct ndf_block *b = &c->blk[i];
		int ok;
		if (b->codec == NDF_CODEC_RAW) {
			ok = b->len == (size_t)b->n_records * TABLE_RAW_RECORD;
			if (ok)
				tablefile_decode_raw(b->data, b->n_records, c->ta->keys + at[i],
						     c->ta->idx + at[i]);
		} else {
			ok = b->codec == NDF_CODEC_PREFIX && c->have_code &&
			     !codec_decode_block(&c->code, b->data, b->len, b->n_records,
						 c->idx_bits, c->ta->keys + at[i],
						 c->ta->idx + at[i]);
		}
		if (!ok) {
#pragma omp critical
			if (bad < 0 || i < bad)
				bad = i;
		}
	}
	if (bad >= 0)
		return fault(c, &c->blk[bad], "block does not decode as a table block");
	return 0;
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

static int read_batches(struct tableread_ctx *c)
{
	int rc;
	for (;;) {
		int nb = 0;
		size_t base = c->ta->n, add = 0;
		while (nb < BATCH && (rc = ndf_read_block(c->r, &c->blk[nb])) > 0) {
			if (c->blk[nb].codec == NDF_CODEC_CODE) {
				if ((rc = take_code(c, &c->blk[nb])))
					return rc;
				continue;
			}
			add += c->blk[nb++].n_records;
		}
		if (rc < 0)
			return rc;
		if ((rc = reserve(c->ta, base + add + 1)))
			return rc;
		if (nb && (rc = decode_batch(c, nb, base)))
			return rc;
		c->ta->n = base + add;
		if (nb < BATCH)
			return 0;
	}
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
