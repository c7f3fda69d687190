/*
 * minhash.h - 1-bit minwise hashing by one permutation (Li, Owen & Zhang
 * 2012) with optimal densification (Shrivastava 2017): 64 bits of a set of
 * feature hashes whose Hamming distance is 32 (1 - J) on average, J the
 * Jaccard similarity of the two sets.  The default method of docfp.h.
 *
 * A feature's hash picks one of 64 bins (its top 6 bits) and competes for
 * the bin's minimum with its low 57 bits (the bit below the bin's six is
 * left out, so a value is never MINHASH_EMPTY); repeats change nothing, so
 * no table of features is kept.  An empty bin i takes the minimum of the
 * first non-empty bin on a fixed probe sequence of i, so every bin is a
 * minwise sample of the whole set: two sets agree on bin i's minimum with
 * probability J.  Bit i is one bit of that minimum mixed with i.
 *
 * Use: minhash_init() once, then per set minhash_reset(), minhash_add()
 * of each feature hash, minhash_bits().
 */
#ifndef NDD_MINHASH_H
#define NDD_MINHASH_H

#include <stddef.h>
#include <stdint.h>

/* Above any value a bin can hold. */
#define MINHASH_EMPTY ((1ull << 58) - 1)

struct minhash {
	_Alignas(16) uint64_t bin[64]; /* per bin: the minimum of its features' low 57 bits */
	size_t n;         /* features added (repeats included) */
	uint64_t mul[64]; /* per bin: what its minimum is mixed with */
	/* Per bin, the bins of its probe sequence without repeats, in the
	 * order they are first met, and how many there are; and per bin i
	 * and bin j, where j is in that order. */
	uint8_t probe_bins[64][64];
	uint8_t probe_len[64];
	uint8_t probe_rank[64][64]; /* bin j's place in probe_bins[i], 255: none */
	/* Per bin j and bin i: probe_rank[i][j] << 6 | j.  The least over
	 * the set bins j names the bin an empty bin i takes its value from. */
	_Alignas(16) int16_t probe_key[64][64];
};

/** Prepare @m, its bins' mixing derived from @seed, and reset it. */
void minhash_init(struct minhash *m, uint64_t seed);

/** Empty the set. */
static inline void minhash_reset(struct minhash *m)
{
	for (int i = 0; i < 64; i++)
		m->bin[i] = MINHASH_EMPTY;
	m->n = 0;
}

/**
 * Put feature hash @h in its bin without counting it: a caller adding a
 * run of features counts them once, m->n += the run's count, instead of
 * a store per feature (m->n may alias the bins for the compiler, so it
 * is not kept in a register across them).
 */
static inline void minhash_put(struct minhash *m, uint64_t h)
{
	const unsigned bin = (unsigned)(h >> 58);
	const uint64_t v = h & (MINHASH_EMPTY >> 1); /* never MINHASH_EMPTY */
	m->bin[bin] = v < m->bin[bin] ? v : m->bin[bin];
}

/** Add feature hash @h (inline: a page adds thousands). */
static inline void minhash_add(struct minhash *m, uint64_t h)
{
	minhash_put(m, h);
	m->n++;
}

/** The 64 bits of the set; an empty set gives 0. */
uint64_t minhash_bits(const struct minhash *m);

#endif
