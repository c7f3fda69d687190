/*
 * tableread.h - load one whole table section (raw or compressed) into
 * arrays of keys and document indices.
 *
 * Compressed blocks are verified by the container (CRC) and then decoded
 * in parallel; raw blocks are copied.  The result is checked to be sorted,
 * so a table that is not what it claims is refused, not joined wrongly.
 */
#ifndef NDD_TABLEREAD_H
#define NDD_TABLEREAD_H

#include <stddef.h>
#include <stdint.h>

#include "ndf.h"

struct tableread_ctx;

struct table_arrays {
	uint64_t *keys;
	uint32_t *idx;
	size_t n, cap;
	/* block buffers kept from one table to the next: a raw table's
	 * blocks are ~100 MB, and fresh pages for every table were a
	 * visible share of the time (page faults) */
	struct tableread_ctx *ctx;
};

/**
 * Read the blocks of the section open in @r (its header already read)
 * into @ta (grown as needed; reused across tables).
 * @return 0, or a negative ndf_err (logged with the file and offset).
 */
int tableread_section(struct ndf_reader *r, struct table_arrays *ta)
	__attribute__((warn_unused_result));

void table_arrays_free(struct table_arrays *ta);

/** Bits needed to store document indices below @n (0 for n <= 1). */
unsigned tableread_idx_bits(uint64_t n);

#endif
