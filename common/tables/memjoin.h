/*
 * memjoin.h - every pair within k of fingerprints held in memory, with no
 * table written anywhere and none held whole.
 *
 * The staged path (permute-sort | compress | self-join) moves every
 * table through a pipe or a file; at k = 6 that is tens of tables of 12
 * bytes per fingerprint, most of whose cost is coding and moving them.
 * Here no table is ever whole: the tables whose keys lead with the same
 * fingerprint bits are scattered by those bits once, as a group, and each
 * bucket of the scatter (small enough for the core's cache) is permuted,
 * grouped into runs and joined once per table of the group before the
 * next bucket is read (memjoin.c says why).  A run of equal leading bits
 * always lies inside one bucket, since the group's tables lead with at
 * least the bits it is scattered by.  The pairs are those join_scan()
 * finds in the stored tables: the same set, each once.
 */
#ifndef NDD_MEMJOIN_H
#define NDD_MEMJOIN_H

#include <stddef.h>
#include <stdint.h>

#include "tables/design.h"
#include "tables/join.h"

/**
 * Append to @out every pair within d->k among the fingerprints @fps[0..n)
 * (document indices @idx0 + i), found by tables @t0 .. @t1 - 1 of @d (all
 * of them: 0, d->n_tables), each pair by the first table of the design
 * that sees it, in an order that depends on the thread count.
 * @comparisons grows by the popcounts done.  Memory: 12 bytes per
 * fingerprint and the sort's per-thread buffers.
 * @return 0, or -1 on OOM (logged).
 */
int memjoin(const struct design *d, uint32_t t0, uint32_t t1, const uint64_t *fps, size_t n,
	    uint64_t idx0, struct pair_vec *out, uint64_t *comparisons)
	__attribute__((warn_unused_result));

/**
 * Scatter buckets of about @n records at most (0: the default, sized for
 * L2); for tests, to reach every path with few fingerprints.  Call it
 * before memjoin().
 */
void memjoin_bucket_records(size_t n);

#endif
