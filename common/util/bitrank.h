/*
 * bitrank.h - a set of positions 0..n-1 as one bit each, numbered densely:
 * a set position's rank is the number of set positions before it.
 *
 * The self-join numbers the documents that occur in pairs (millions out of
 * a night's hundreds of millions) more than once: the provenance slots,
 * the nodes of the pair graph, the count that sizes its warm-up.  A 4-byte
 * number per document would be hundreds of MB to clear and a cache miss per
 * lookup; bits and per-word ranks are 5 bytes per 64 positions, marked and
 * looked up in cache.  A rank is the word's first rank plus the set bits
 * below the position in its word.
 */
#ifndef NDD_BITRANK_H
#define NDD_BITRANK_H

#include <stddef.h>
#include <stdint.h>

struct bitrank {
	uint64_t *bit;  /* position i is bit i % 64 of word i / 64 */
	uint32_t *rank; /* per word: set positions before it (bitrank_finish()) */
	size_t words;
};

/** An empty set of positions 0..@n-1.  @return 0, or -1 on OOM. */
int bitrank_init(struct bitrank *b, size_t n);

void bitrank_free(struct bitrank *b);

/** Add position @i (< n); safe from any number of threads at once. */
static inline void bitrank_set(struct bitrank *b, uint64_t i)
{
	__atomic_fetch_or(&b->bit[i >> 6], 1ull << (i & 63), __ATOMIC_RELAXED);
}

static inline int bitrank_test(const struct bitrank *b, uint64_t i)
{
	return (int)(b->bit[i >> 6] >> (i & 63) & 1);
}

/** After the last bitrank_set(): the ranks.  @return the positions set. */
size_t bitrank_finish(struct bitrank *b);

/** Rank of set position @i, after bitrank_finish(). */
static inline uint32_t bitrank_rank(const struct bitrank *b, uint64_t i)
{
	const uint64_t below = b->bit[i >> 6] & ((1ull << (i & 63)) - 1);
	return b->rank[i >> 6] + (uint32_t)__builtin_popcountll(below);
}

/** Start loading what bitrank_rank(@b, @i) reads (lookups at random). */
static inline void bitrank_prefetch(const struct bitrank *b, uint64_t i)
{
	__builtin_prefetch(&b->bit[i >> 6]);
	__builtin_prefetch(&b->rank[i >> 6]);
}

#endif
