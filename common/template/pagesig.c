/*
 * pagesig.c - see pagesig.h.
 */
#include "template/pagesig.h"

/* A 64-bit mixer (the finaliser of MurmurHash3): every input bit moves
 * about half the output bits. */
static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/*
 * One-permutation hashing: a feature's mixed hash picks one of 64 bins by
 * its top 6 bits and competes for the bin's minimum by the rest, one step
 * per feature instead of 64; an empty bin (a page of few features) takes
 * the minimum of the next full bin, mixed with the distance, so two pages
 * with the same features fill it alike.
 */
uint64_t page_signature(const struct doc_block *blk, uint32_t n)
{
	uint64_t min[64];
	int any = 0;
	for (int k = 0; k < 64; k++)
		min[k] = UINT64_MAX;
	for (uint32_t i = 0; i < n; i++) {
		const struct doc_block b = blk[i];
		const uint32_t parts = 1 + b.len / PAGESIG_CHUNK;
		for (uint32_t j = 0; j < parts; j++) {
			const uint64_t f = mix(b.hash + j * 0x9e3779b97f4a7c15ull);
			const unsigned bin = (unsigned)(f >> 58);
			const uint64_t v = f << 6;
			if (v < min[bin])
				min[bin] = v;
		}
		any |= parts > 0;
	}
	if (!any)
		return 0;
	uint64_t set = 0; /* bin k holds a feature (no v above is UINT64_MAX) */
	for (int k = 0; k < 64; k++)
		set |= (uint64_t)(min[k] != UINT64_MAX) << k;
	uint64_t sig = 0;
	for (int k = 0; k < 64; k++) {
		/* the distance to the next full bin, by the bits turned to k */
		const uint64_t turned = k ? set >> k | set << (64 - k) : set;
		const int j = __builtin_ctzll(turned);
		const uint64_t m = min[(k + j) & 63];
		sig |= (mix(m + (uint64_t)j * 0x9e3779b97f4a7c15ull + (uint64_t)k) & 1) << k;
	}
	return sig;
}
