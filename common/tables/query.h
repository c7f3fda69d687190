/*
 * query.h - batch queries against a stored compressed table (the paper's
 * batch mode): new fingerprints looked up in last night's tables.
 *
 * The queries are permuted for the table and sorted; for each run of
 * queries with equal leading bits, the blocks that can hold that run are
 * found by interpolation search over the block index's first keys (keys
 * of a permuted table are close to uniform, so a guess lands within a
 * block or two), and only those blocks are read and decoded.  Pairs obey
 * the same first-table rule as the self-join, so each (query, stored)
 * pair is reported once over all tables.
 */
#ifndef NDD_QUERY_H
#define NDD_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "tables/design.h"
#include "tables/join.h"
#include "format/ndf.h"

struct query_stats {
	uint64_t blocks_read, comparisons;
};

/**
 * Look up the sorted permuted queries @qkeys/@qidx[0..nq) (sorted by key)
 * in the compressed table section @sec, which is table @t of design @d.
 * Appends (a = query index, b = stored document index, d) for every pair
 * within d->k that table @t is first to see.
 * @return 0, or a negative ndf_err (logged).
 */
int query_table(struct ndf_section *sec, const struct design *d, uint32_t t,
		const uint64_t *qkeys, const uint32_t *qidx, size_t nq, struct pair_vec *out,
		struct query_stats *st) __attribute__((warn_unused_result));

/**
 * Look up the fingerprints @q[0..n) (as made, not permuted) in every
 * table of the compressed tables file @path: per table the queries are
 * permuted and sorted, then query_table().  Appends (a = index in @q,
 * b = stored document index, d) to @out.  The tables' fingerprints must
 * have been made with @feature_config.  *@first gets the header of the
 * first table and *@d its design (the caller frees it with design_free()).
 * @return 0, or -1 (logged).
 */
int query_file(const char *path, const uint64_t *q, size_t n, uint64_t feature_config,
	       struct pair_vec *out, struct query_stats *st, struct ndf_header *first,
	       struct design *d) __attribute__((warn_unused_result));

/**
 * Index of the last entry of @ix[lo..hi) whose first key is below @key,
 * or lo - 1 if there is none (interpolation search; exposed for tests).
 */
size_t query_find_block(const struct ndf_index_entry *ix, size_t lo, size_t hi, uint64_t key);

#endif
