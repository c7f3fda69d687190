/*
 * tablejoin.h - the self-join of one table section as it is read.
 *
 * The section's records stream in batches (tableread.h).  The complete
 * runs of equal leading bits of each batch are scanned by tasks
 * (join_scan()) while the next batch is read and decoded; the run still
 * open at a batch's end is carried, from its start, into the next batch.
 * So the join of a table starts with its first batch, not after its last,
 * and takes memory for a few batches plus the longest run, not for the
 * table.  Each run is scanned whole, by one task, exactly as join_scan()
 * scans it in a loaded table: the same pairs, long runs split the same.
 */
#ifndef NDD_TABLEJOIN_H
#define NDD_TABLEJOIN_H

#include <stdint.h>

#include "tables/design.h"
#include "tables/join.h"
#include "format/ndf.h"
#include "tables/tableread.h"

/**
 * Read the section open in @r (table @t of @d, its header checked by the
 * caller) and append to @out every pair within d->k that table @t is the
 * first to see, in an order that depends on the thread count (the set
 * does not).  @buf holds the read buffers, reused across tables (free it
 * with table_arrays_free()).  The section's record count goes to
 * *@records; @comparisons grows by the popcounts done.
 * @return 0, or a negative ndf_err (logged, with the file and offset
 * where it is the input's fault).
 */
int tablejoin_section(struct ndf_reader *r, struct table_arrays *buf, const struct design *d,
		      uint32_t t, struct pair_vec *out, uint64_t *records,
		      uint64_t *comparisons) __attribute__((warn_unused_result));

#endif
