/*
 * ndf_deflate.c - see ndf_deflate.h.
 */
#include "format/ndf_deflate.h"

#include <libdeflate.h>
#include <stdlib.h>

#include "util/bytes.h"
#include "util/grow.h"
#include "util/log.h"

int ndf_block_payload(const struct ndf_block *b, const char *name, struct ndf_unpacked *u,
		      const uint8_t **p, size_t *n)
{
	if (b->codec == NDF_CODEC_RAW) {
		*p = b->data;
		*n = b->len;
		return 0;
	}
	if (b->codec != NDF_CODEC_DEFLATE) {
		log_error("'%s': offset %llu: unknown codec %u", name,
			  (unsigned long long)b->offset, b->codec);
		return NDF_ERR_FORMAT;
	}
	const uint32_t raw = b->len >= 4 ? get_le32(b->data) : UINT32_MAX;
	if (raw > NDF_MAX_BLOCK) {
		log_error("'%s': offset %llu: a compressed block of an impossible length", name,
			  (unsigned long long)b->offset);
		return NDF_ERR_FORMAT;
	}
	if (array_grow((void **)&u->buf, &u->cap, raw ? raw : 1, 1)) {
		log_error("out of memory for a block of %u bytes", raw);
		return NDF_ERR_NOMEM;
	}
	if (!u->d && !(u->d = libdeflate_alloc_decompressor())) {
		log_error("out of memory for a decompressor");
		return NDF_ERR_NOMEM;
	}
	if (libdeflate_deflate_decompress(u->d, b->data + 4, b->len - 4, u->buf, raw, NULL) !=
	    LIBDEFLATE_SUCCESS) {
		log_error("'%s': offset %llu: the compressed block does not inflate to its %u bytes",
			  name, (unsigned long long)b->offset, raw);
		return NDF_ERR_FORMAT;
	}
	*p = u->buf;
	*n = raw;
	return 0;
}

size_t ndf_block_raw_len(const struct ndf_block *b)
{
	if (b->codec == NDF_CODEC_RAW)
		return b->len;
	if (b->codec != NDF_CODEC_DEFLATE || b->len < 4)
		return 0;
	const uint32_t raw = get_le32(b->data);
	return raw > NDF_MAX_BLOCK ? NDF_MAX_BLOCK : raw;
}

void ndf_unpacked_free(struct ndf_unpacked *u)
{
	free(u->buf);
	u->buf = NULL;
	u->cap = 0;
	libdeflate_free_decompressor(u->d);
	u->d = NULL;
}

int ndf_deflate_payload(struct libdeflate_compressor *z, const uint8_t *raw, size_t n,
			uint8_t **out, size_t *cap, size_t *len)
{
	const size_t bound = 4 + libdeflate_deflate_compress_bound(z, n);
	if (array_grow((void **)out, cap, bound, 1)) {
		log_error("out of memory for a compressed block of %zu bytes", bound);
		return -1;
	}
	put_le32(*out, (uint32_t)n);
	/* the bound is enough: libdeflate never fails for want of room */
	*len = 4 + libdeflate_deflate_compress(z, raw, n, *out + 4, bound - 4);
	return 0;
}
