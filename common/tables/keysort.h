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

struct design_lut; /* design.h */

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
 * What keysort_from_keys() calls for each top-level bucket once it is
 * sorted, from the thread that sorted it (@t, 0..threads_max() - 1), while
 * the bucket is still in that core's cache: @r[0..n) are its records, in
 * their final place; @b is its number (buckets are numbered in key order,
 * below keysort_bucket_count(); a bucket may be reported empty, or not at
 * all when it is).
 */
struct keysort_visit {
	void (*sorted)(void *ctx, int t, size_t b, const struct table_rec *r, size_t n);
	void *ctx;
};

/** The number of buckets keysort_from_keys() reports for @n records. */
size_t keysort_bucket_count(size_t n);

/**
 * Sort the records (@keys[i], @idx0 + i), 0 <= i < @n, into @out (n
 * records, caller-owned) in (key, idx) order, with no second array: the
 * top level scatters from @keys straight into @out, and each bucket is
 * sorted where it lies through a per-thread buffer (KEYSORT_THREAD_BYTES
 * at most).  So with its keys in an array it keeps anyway (permute-sort
 * permutes the fingerprints in place), a table takes 12 bytes per record
 * to sort, not 24.  @visit (or NULL) sees each bucket once it is sorted.
 */
void keysort_from_keys(const uint64_t *keys, size_t n, uint64_t idx0, struct table_rec *out,
		       const struct keysort_visit *visit);

/**
 * keysort_from_keys() of the keys @lut makes of @keys[0..n)
 * (design_lut_permute()), which are left in @keys: the permutation is done
 * in the counting pass the sort makes over the keys anyway, not in a pass
 * over main memory of its own.
 */
void keysort_permuted(uint64_t *keys, const struct design_lut *lut, size_t n, uint64_t idx0,
		      struct table_rec *out, const struct keysort_visit *visit);

/**
 * The top level alone, for a caller that sorts the buckets itself, maybe
 * several times (memjoin.h: once per table of a group whose keys agree on
 * their top bits): the records (@keys[i], @idx0 + i) scattered stably into
 * @out by their keys' top @bits bits (0..16); with @lut, the records'
 * keys are its permutation of @keys[i] (design_lut_permute()), and @keys
 * are left as they are.  Bucket b is out[start[b] .. start[b + 1]), in
 * index order; @start has 2^bits + 1 entries.  @return 0, or -1 on OOM.
 */
int keysort_scatter(const uint64_t *keys, const struct design_lut *lut, size_t n, uint64_t idx0,
		    unsigned bits, struct table_rec *out, size_t *start)
	__attribute__((warn_unused_result));

/* Counters keysort_bucket() needs. */
#define KEYSORT_COUNTERS ((1u << 13) + 2)

/**
 * Sort one bucket into @dst by (key, idx): @src[0..n) are records in
 * ascending idx order whose keys agree on their top @done bits; @cnt has
 * KEYSORT_COUNTERS entries.
 */
void keysort_bucket(const struct table_rec *src, size_t n, unsigned done, struct table_rec *dst,
		    uint32_t *cnt);

/* keysort_from_keys(): the largest bucket copied out (4 times the ~16K
 * records of a bucket, so uniform keys always fit; a pile of copies of one
 * page is sorted in place by comparisons), and the most it allocates per
 * thread (that copy and the second level's counters). */
#define KEYSORT_BUCKET_COPY_MAX 65536
#define KEYSORT_THREAD_BYTES \
	(KEYSORT_BUCKET_COPY_MAX * sizeof(struct table_rec) + ((1u << 13) + 2) * sizeof(uint32_t))

/** Sort a small array by (key, idx); exposed for tests. */
void keysort_small(struct table_rec *a, size_t n);

#endif
