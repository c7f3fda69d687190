/*
 * simhash.h - Charikar's SimHash (2002) of weighted feature hashes: each
 * feature's hash votes +weight on the bits where it has a 1 and -weight
 * where it has a 0; bit i of the fingerprint is 1 iff the sum for bit i
 * is > 0.  The expected distance of two fingerprints is 64 theta / pi,
 * theta the angle between the two weighted vectors.  docfp.h makes these
 * of documents (--method simhash); this is the 64-counter accumulator,
 * for any caller with its own features.
 */
#ifndef NDD_SIMHASH_H
#define NDD_SIMHASH_H

#include <stddef.h>
#include <stdint.h>

#define SIMHASH_WEIGHT_ONE 64 /* fixed-point weight 1.0 */
#define SIMHASH_MAX_WEIGHT 4096u

/*
 * Sums are kept as "weight where the bit is 1" (S1) plus the total weight
 * W; the signed counter of bit i is S1[i] - (W - S1[i]) = 2*S1[i] - W.
 * Adding a feature is then a masked add per bit with no branch, which
 * compilers turn into vector code (see simhash_acc_add).  32-bit lanes
 * are drained into 64-bit sums often enough that they cannot overflow.
 *
 * Most features of a page occur once (weight 1.0), so those take a faster
 * path: simhash_acc_add_one() counts them bit-sliced, in 4 bit-planes
 * (a 4-bit counter per bit position, 15 features at most), with a few
 * 64-bit logic operations per feature; the planes are added to the lanes
 * every 15 features, 4 masked adds instead of 15.
 */
struct simhash_acc {
	uint32_t lane[64];
	uint64_t sum[64];
	uint64_t total;
	uint32_t pending;  /* lane adds since the last drain */
	uint32_t n_plane;  /* features in plane[] */
	uint64_t plane[4]; /* bit-sliced counts of weight-1.0 features */
};

void simhash_acc_reset(struct simhash_acc *a);

/** Add feature hash @h with weight @w (0 < @w <= SIMHASH_MAX_WEIGHT). */
void simhash_acc_add(struct simhash_acc *a, uint64_t h, uint32_t w);

/** Add feature hash @h with weight SIMHASH_WEIGHT_ONE; same result, faster. */
void simhash_acc_add_one(struct simhash_acc *a, uint64_t h);

/**
 * Add @n features, hashes @h[] with weights @w[] (each 1..SIMHASH_MAX_WEIGHT):
 * the same sums as simhash_acc_add() of each, faster for many (16-bit
 * lanes in vector registers; AVX2 when the CPU has it, chosen at run time).
 */
void simhash_acc_add_batch(struct simhash_acc *a, const uint64_t *h, const uint16_t *w, size_t n);

/* Adds the S1 sums of @n features (hashes @h, weights @w) to @sum. */
typedef void simhash_batch_fn(uint64_t sum[64], const uint64_t *h, const uint16_t *w, size_t n);

/**
 * The kernel simhash_acc_add_batch() runs on this CPU, for a caller that
 * sums the weights itself (it must add them to the accumulator's total):
 * chosen once, it saves a pass over each batch's weights.
 */
simhash_batch_fn *simhash_batch_kernel(void);

/** For tests: 0 makes simhash_acc_add_batch() and docfp_text() use the
 *  portable code even where AVX2 is available; 1 (the default) undoes it.
 *  Not thread-safe: call before any hashing starts. */
void simhash_acc_use_simd(int enable);

/** The fingerprint: bit i set iff counter i > 0.  No features: 0. */
uint64_t simhash_acc_final(struct simhash_acc *a);

/* ---- bit helpers ---- */

static inline int popcount64(uint64_t x)
{
	return __builtin_popcountll(x);
}

/** Hamming distance: bits in which @a and @b differ (0..64). */
static inline int hamming64(uint64_t a, uint64_t b)
{
	return popcount64(a ^ b);
}

#endif
