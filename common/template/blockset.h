/*
 * blockset.h - a set of 64-bit block hashes for membership tests: the
 * template blocks ndd-fingerprint looks every block of every page up in.
 *
 * Open addressing with linear probing, at most half full, so a lookup is
 * about one probe of one cache line: the binary search over every
 * host's template blocks it replaces took 16 probes at 47,000 blocks.
 * The hashes are mixed before they choose a slot, so hashes that share
 * their low bits do not pile up.
 */
#ifndef NDD_TEMPLATE_BLOCKSET_H
#define NDD_TEMPLATE_BLOCKSET_H

#include <stddef.h>
#include <stdint.h>

struct blockset {
	uint64_t *slot; /* 0: empty; the hash 0 is has_zero */
	size_t mask;    /* slots - 1; slots a power of two */
	size_t n;       /* distinct hashes held */
	int has_zero;
};

/**
 * Fill @s (any prior contents ignored) with the @n hashes at @v
 * (any order, repeats allowed).  @return 0, or -1 (out of memory;
 * @s is then empty, and safe to free).
 */
int blockset_build(struct blockset *s, const uint64_t *v, size_t n)
	__attribute__((warn_unused_result));

/** Whether @h is in @s (NULL or empty: never). */
static inline int blockset_has(const struct blockset *s, uint64_t h)
{
	if (!s || !s->n)
		return 0;
	if (!h)
		return s->has_zero;
	/* Fibonacci hashing: the high bits of the product pick the slot */
	size_t i = (size_t)((h * 0x9E3779B97F4A7C15ull) >> 32) & s->mask;
	for (;;) {
		const uint64_t x = s->slot[i];
		if (x == h)
			return 1;
		if (!x)
			return 0;
		i = (i + 1) & s->mask;
	}
}

/** Free @s's memory (it is then empty). */
void blockset_free(struct blockset *s);

#endif
