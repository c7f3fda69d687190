/*
 * ndf_deflate.h - block codec 4 (NDF_CODEC_DEFLATE): a block's codec-0
 * payload, DEFLATE-compressed.  For the files that are kept: a night's
 * fingerprints are its entry in the index of nights, and their URLs,
 * file names, record ids and dates are most of their bytes, which
 * compress several times over (docs/FORMATS.md, kind 2).
 *
 * Payload: u32 LE n, the length of the codec-0 payload (at most
 * NDF_MAX_BLOCK), then its raw DEFLATE stream (RFC 1951) by libdeflate.
 * The block's CRC covers these bytes, as for any codec; a stream that
 * does not inflate to exactly n bytes is refused.
 */
#ifndef NDD_NDF_DEFLATE_H
#define NDD_NDF_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

#include "format/ndf.h"

struct libdeflate_decompressor;

/* Room for a block's codec-0 payload and the decompressor, reused from
 * block to block. */
struct ndf_unpacked {
	uint8_t *buf;
	size_t cap;
	struct libdeflate_decompressor *d; /* allocated at the first codec-4 block */
};

/**
 * The codec-0 payload of @b into *@p and *@n: its own bytes for codec 0,
 * inflated into @u for codec 4.  Any other codec, a length past
 * NDF_MAX_BLOCK or a stream that does not inflate to it is refused,
 * naming @name and the block's offset.
 * @return 0 or a negative ndf_err (logged).
 */
int ndf_block_payload(const struct ndf_block *b, const char *name, struct ndf_unpacked *u,
		      const uint8_t **p, size_t *n) __attribute__((warn_unused_result));

/**
 * The length of @b's codec-0 payload as its header and first bytes say,
 * before any checksum test (at most NDF_MAX_BLOCK): for sizing, and for
 * refusing a record count its payload cannot hold.  0 for an unknown
 * codec.
 */
size_t ndf_block_raw_len(const struct ndf_block *b);

/** Free @u's buffer and decompressor (a zeroed one is fine). */
void ndf_unpacked_free(struct ndf_unpacked *u);

struct libdeflate_compressor;

/**
 * The codec-4 payload of the @n bytes at @raw into *@out (*@cap bytes,
 * grown as needed), its length into *@len, with compressor @z.
 * @return 0, or -1 if memory ran out (logged).
 */
int ndf_deflate_payload(struct libdeflate_compressor *z, const uint8_t *raw, size_t n,
			uint8_t **out, size_t *cap, size_t *len) __attribute__((warn_unused_result));

#endif
