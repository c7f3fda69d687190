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

/* 12 bytes, packed: the sort's two arrays are most of permute-sort's
 * memory (2.4 GB for 100M fingerprints instead of 3.2 with padding), and
 * x86 reads unaligned keys at full speed. */
struct table_rec {
	uint64_t key;
	uint32_t idx; /* document index (table files store 32 bits) */
} __attribute__((packed));

/**
 * Sort @recs[0..n) by (key, idx) using @scratch (n records, caller-owned)
 * as the scatter target; the sorted result ends in @recs.
 */
void keysort(struct table_rec *recs, struct table_rec *scratch, size_t n);

/**
 * Sort keys into records: @area is room for @n records (8-byte aligned,
 * as malloc gives); on entry its first 8 * @n bytes hold @n keys (as
 * uint64_t), the keys of documents @idx0, @idx0 + 1, ...; on return it
 * holds the n records (key, idx) in (key, idx) order.  Permuting straight
 * into the front of the output array saves a pass over memory compared
 * with building the records first.  @scratch: n records, caller-owned.
 */
void keysort_keys(void *area, size_t n, uint64_t idx0, struct table_rec *scratch);

/** Sort a small array by (key, idx); exposed for tests. */
void keysort_small(struct table_rec *a, size_t n);

#endif
