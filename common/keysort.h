/*
 * keysort.h - sorting of table records (permuted key, document index).
 *
 * One counting pass scatters records into 2^B buckets by the key's top B
 * bits (B chosen from n so buckets hold ~16K records and fit in L2), then
 * every bucket is sorted on its own by a second counting pass on the next
 * bits and an insertion pass over the tiny groups left.  Both passes run
 * in parallel under OpenMP.  The result is (key, idx) order for any thread
 * count; the radix passes are stable, so callers must pass records in
 * ascending idx order (keysort_small() has no such need).
 */
#ifndef NDD_KEYSORT_H
#define NDD_KEYSORT_H

#include <stddef.h>
#include <stdint.h>

struct table_rec {
	uint64_t key;
	uint64_t idx; /* document index; 64-bit for alignment, < 2^32 in files */
};

/**
 * Sort @recs[0..n) by (key, idx) using @scratch (n records, caller-owned)
 * as the scatter target; the sorted result ends in @recs.
 */
void keysort(struct table_rec *recs, struct table_rec *scratch, size_t n);

/**
 * Sort keys into records: on entry the first 8 * @n bytes of @out hold
 * @n keys (as uint64_t), the keys of documents @idx0, @idx0 + 1, ...; on
 * return @out[0..n) holds the records (key, idx) in (key, idx) order.
 * Permuting straight into the front of the output array saves a pass
 * over memory compared with building the records first.  @scratch: n
 * records, caller-owned.
 */
void keysort_keys(struct table_rec *out, size_t n, uint64_t idx0, struct table_rec *scratch);

/** Sort a small array by (key, idx); exposed for tests. */
void keysort_small(struct table_rec *a, size_t n);

#endif
