/*
 * tableread.h - read one table section (raw or compressed) as arrays of
 * keys and document indices: whole (tableread_section), or streamed in
 * batches to a consumer that takes them as they come (tableread_stream).
 *
 * Blocks are read in order by one thread, in batches (from a regular
 * file in place, through a mapping); the blocks of a batch are then
 * checksummed (the container's CRC) and decoded as tasks by all threads
 * while the next batch is read.  Every record is
 * checked to follow its predecessor in order (and its index to fit the
 * section's index width), so a table that is not what it claims is
 * refused, naming the file and offset, not joined wrongly.  A section may
 * start with a code block (NDF_CODEC_CODE, no records): a compressed
 * table's Huffman code; in a raw table it is accepted and ignored.
 */
#ifndef NDD_TABLEREAD_H
#define NDD_TABLEREAD_H

#include <stddef.h>
#include <stdint.h>

#include "format/ndf.h"

struct tableread_ctx;

/*
 * The reader's buffers, kept from one section to the next (fresh pages
 * for every table would cost a page fault each), and,
 * after tableread_section(), the section's records: keys[0..n), idx[0..n)
 * point into those buffers.  Zero it before first use; free it with
 * table_arrays_free().
 */
struct table_arrays {
	uint64_t *keys;
	uint32_t *idx;
	size_t n, cap;
	struct tableread_ctx *ctx;
};

/**
 * Read the blocks of the section open in @r (its header already read)
 * into @ta: the whole table in one pair of arrays.
 * @return 0, or a negative ndf_err (logged with the file and offset).
 */
int tableread_section(struct ndf_reader *r, struct table_arrays *ta)
	__attribute__((warn_unused_result));

/*
 * A consumer of a streamed section.  take() is called by the reading
 * thread each time a batch has been decoded and checked, with every
 * record it has not taken yet, in order: those it left at its last call
 * first, then the new batch.  It sets *@taken to how many of them, from
 * the front, it takes now (say, the complete runs of equal leading bits);
 * the rest come again, first, at its next call.  It may go on reading the
 * records it took from OpenMP tasks it creates: the reader waits for
 * every such task before it calls take() again and before
 * tableread_stream() returns, and does not touch those records till then.
 * @last is 1 at the final call (the section's footer and totals are
 * verified): every record must then be taken.  Returning non-zero stops
 * the stream with that value.
 */
struct tableread_consumer {
	int (*take)(void *ctx, const uint64_t *keys, const uint32_t *idx, size_t n, int last,
		    size_t *taken);
	void *ctx;
};

/**
 * Read the section open in @r batch by batch and hand its records to
 * @c; memory is the batches plus what @c leaves untaken.  @ta holds the
 * buffers (reused across calls); its keys/idx/n are emptied.  The
 * section's record count goes to *@records.
 * @return 0, a negative ndf_err (logged with the file and offset), or
 * the non-zero value take() returned.
 */
int tableread_stream(struct ndf_reader *r, struct table_arrays *ta,
		     const struct tableread_consumer *c, uint64_t *records)
	__attribute__((warn_unused_result));

/**
 * Records per batch (a batch ends at the block that reaches it); 0
 * restores the default.  For tests, which force tiny batches so runs
 * cross batch edges; call it before any read starts.
 */
void tableread_batch_records(size_t n);

void table_arrays_free(struct table_arrays *ta);

/** Bits needed to store document indices below @n (0 for n <= 1). */
unsigned tableread_idx_bits(uint64_t n);

#endif
