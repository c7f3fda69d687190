/*
 * join.h - all pairs within Hamming distance k inside one sorted table.
 *
 * A sorted table groups fingerprints with equal leading bits into runs;
 * every pair inside a run is compared with popcount(a ^ b) (a permutation
 * preserves Hamming distance, so keys are compared as they are).  A pair
 * that qualifies is kept only if this table is the first of the design in
 * which it agrees on the leading bits (design_first_table()), so every
 * pair is reported exactly once over all tables with no global set of
 * pairs in memory.
 */
#ifndef NDD_JOIN_H
#define NDD_JOIN_H

#include <stddef.h>
#include <stdint.h>

#include "tables/design.h"

/* A pair of document indices a < b at distance d. */
struct pair {
	uint32_t a, b;
	uint32_t d;
};

struct pair_vec {
	struct pair *v;
	size_t n, cap;
};

/** Append; @return 0 or -1 on OOM. */
int pair_vec_push(struct pair_vec *pv, uint32_t a, uint32_t b, uint32_t d);
/** Append all of @src; @return 0 or -1 on OOM. */
int pair_vec_append(struct pair_vec *dst, const struct pair_vec *src);
void pair_vec_free(struct pair_vec *pv);
/** Keep only the pairs within @k (tables built for a larger k find more). */
void pair_vec_limit(struct pair_vec *pv, uint32_t k);

/** Sort by (a, b). */
void pair_vec_sort(struct pair_vec *pv);

/**
 * Index where the last run of @keys[0..n) (sorted) starts (runs are
 * maximal ranges with equal top @lead_bits).  A streaming caller scans [0, that) and
 * carries the rest into the next chunk, since the run may go on.
 */
size_t join_last_run(const uint64_t *keys, size_t n, uint32_t lead_bits);

/**
 * Compare all pairs inside every run of @keys/@idx[0..n) (sorted keys of
 * table @t of @d; the range must not split a run) and append the pairs
 * within d->k that table @t is first to see.  @comparisons is increased
 * by the popcounts done.  @return 0, or -1 on OOM.
 */
int join_scan(const struct design *d, uint32_t t, const uint64_t *keys,
	      const uint32_t *idx, size_t n, struct pair_vec *out, uint64_t *comparisons);

/**
 * Compare all pairs of one run, @keys/@idx[0..n) (in any order), of table
 * @t of @d, whose keys are permuted as table @sp is (any table that puts
 * the same fingerprint bits in them: a run's pairs are the same in each,
 * as a permutation keeps distances), and append those within d->k that
 * table @t is first to see.  All pairs whatever the length: for runs
 * shorter than join_split_threshold(), where join_scan() does the same.
 * @return 0, or -1 on OOM.
 */
int join_run(const struct design *d, uint32_t t, const struct design_table *sp,
	     const uint64_t *keys, const uint32_t *idx, size_t n, struct pair_vec *out,
	     uint64_t *comparisons);

/** Range splits for parallel scans: boundaries moved forward to run starts. */
size_t join_align(const uint64_t *keys, size_t n, size_t pos, uint32_t lead_bits);

/**
 * Long runs are scanned with AVX-512's popcount, else AVX2, where the CPU
 * has them: JOIN_VECTOR_BEST (the default); 1 allows AVX2 alone, 0 no
 * vector loop (for tests of each loop on any CPU, and to measure the
 * gain).  Call it before any scan starts.
 */
#define JOIN_VECTOR_BEST 2
void join_use_vector(int level);

/**
 * Runs of at least @min_run keys are searched by a second pigeonhole on
 * the bits below the leading ones (sub-blocks; see join.c) instead of all
 * pairs; SIZE_MAX turns that off, JOIN_SPLIT_MODEL (the default) takes
 * the run length from the cost model (design_split_run()).  For tests
 * and measurement; call it before any scan starts.
 */
#define JOIN_SPLIT_MODEL ((size_t)0)
void join_split_runs(size_t min_run);

/**
 * The shortest run of a table with @lead_bits leading bits that
 * join_scan() searches by sub-blocks (SIZE_MAX: none).  Such a run must be
 * sorted by key; shorter ones only need their keys together, in any order.
 */
size_t join_split_threshold(uint32_t lead_bits, uint32_t k);

#endif
