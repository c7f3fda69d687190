/*
 * ndf_batch.c - see ndf_batch.h.
 */
#include "format/ndf_batch.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "format/ndf_deflate.h"
#include "util/log.h"

void ndf_batch_init(struct ndf_batch *b, struct ndf_writer *w, size_t target)
{
	memset(b, 0, sizeof *b);
	b->w = w;
	b->target = target;
}

int ndf_batch_flush(struct ndf_batch *b)
{
	if (!b->n)
		return 0;
	int rc;
	size_t zlen;
	if (!b->z)
		rc = ndf_write_block(b->w, b->n, NDF_CODEC_RAW, b->first_key, b->buf, b->len);
	else if (ndf_deflate_payload(b->z, b->buf, b->len, &b->zbuf, &b->zcap, &zlen))
		rc = NDF_ERR_NOMEM;
	else
		rc = ndf_write_block(b->w, b->n, NDF_CODEC_DEFLATE, b->first_key, b->zbuf, zlen);
	b->len = 0;
	b->n = 0;
	return rc;
}

uint8_t *ndf_batch_reserve(struct ndf_batch *b, size_t need, uint64_t key)
{
	if (b->n && b->len + need > b->target && ndf_batch_flush(b))
		return NULL;
	if (b->len + need > b->cap) {
		const size_t cap = b->len + need > b->target ? b->len + need : b->target;
		uint8_t *const p = realloc(b->buf, cap);
		if (!p) {
			log_error("out of memory for a block of %zu bytes", cap);
			return NULL;
		}
		b->buf = p;
		b->cap = cap;
	}
	if (!b->n)
		b->first_key = key;
	return b->buf + b->len;
}

void ndf_batch_commit(struct ndf_batch *b, size_t len)
{
	b->len += len;
	b->n++;
}

int ndf_batch_deflate(struct ndf_batch *b, int level)
{
	if (!b->z && !(b->z = libdeflate_alloc_compressor(level))) {
		log_error("out of memory for a compressor");
		return -1;
	}
	return 0;
}

void ndf_batch_free(struct ndf_batch *b)
{
	if (!b)
		return;
	libdeflate_free_compressor(b->z);
	b->z = NULL;
	free(b->zbuf);
	b->zbuf = NULL;
	b->zcap = 0;
	free(b->buf);
	b->buf = NULL;
	b->len = b->cap = 0;
	b->n = 0;
}
