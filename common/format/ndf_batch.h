/*
 * ndf_batch.h - records gathered into raw NDF blocks of about one size.
 *
 * The stages that write variable-length records (fingerprints, template
 * records) pack them back to back into a buffer and hand it to
 * ndf_write_block() when the next record would pass the block target, the
 * first record's key going into the footer index.  That bookkeeping lives
 * here once.
 *
 * Use: ndf_batch_deflate() to write the blocks compressed (codec 4),
 * ndf_batch_reserve() room for a record, encode it there,
 * ndf_batch_commit() the bytes written; ndf_batch_flush() before
 * ndf_writer_finish(); ndf_batch_free() the buffer.
 */
#ifndef NDD_NDF_BATCH_H
#define NDD_NDF_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "format/ndf.h"

struct libdeflate_compressor;

struct ndf_batch {
	struct ndf_writer *w; /* the caller's; not owned */
	size_t target;        /* payload bytes per block to aim for */
	uint8_t *buf;
	size_t len, cap;
	uint32_t n;
	uint64_t first_key;
	struct libdeflate_compressor *z; /* codec 4 when set (ndf_batch_deflate()) */
	uint8_t *zbuf;
	size_t zcap;
};

/** Start an empty batch writing to @w in blocks of about @target bytes. */
void ndf_batch_init(struct ndf_batch *b, struct ndf_writer *w, size_t target);

/**
 * Room for one record of @need bytes whose key is @key: flushes the
 * pending block first if the record would take it past the target (a
 * record larger than the target gets a block of its own).
 * @return where to encode the record, or NULL if a write failed or memory
 * ran out (logged).
 */
uint8_t *ndf_batch_reserve(struct ndf_batch *b, size_t need, uint64_t key)
	__attribute__((warn_unused_result));

/** Count the record just encoded at ndf_batch_reserve()'s pointer, @len bytes. */
void ndf_batch_commit(struct ndf_batch *b, size_t len);

/** Write the pending records as a block, if any.  @return 0, or a negative ndf_err. */
int ndf_batch_flush(struct ndf_batch *b) __attribute__((warn_unused_result));

/**
 * Write the blocks with codec 4 (ndf_deflate.h) at libdeflate's @level
 * (1-12) from now on.  @return 0, or -1 if memory ran out (logged).
 */
int ndf_batch_deflate(struct ndf_batch *b, int level) __attribute__((warn_unused_result));

/** Free the buffers (not the writer).  NULL is a no-op. */
void ndf_batch_free(struct ndf_batch *b);

#endif
