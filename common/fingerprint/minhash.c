/*
 * minhash.c - see minhash.h.
 */
#include "fingerprint/minhash.h"

#include <string.h>

/* The @attempt-th bin an empty @bin looks in. */
static unsigned probe(unsigned bin, unsigned attempt)
{
	uint64_t z = (uint64_t)bin << 32 | attempt;
	z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdull;
	z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ull;
	return (unsigned)(z >> 58);
}

/*
 * The probe sequence of a bin depends on the bin alone, so it is walked
 * here once.  A bin met again on the sequence was empty the first time
 * and is empty again: without the repeats, the first non-empty bin is the
 * same as on the whole sequence of 255 (the same bits), found in at most
 * 63 looks and no hashing per look.
 */
static void probe_table(struct minhash *m)
{
	memset(m->probe_rank, 255, sizeof m->probe_rank);
	for (unsigned i = 0; i < 64; i++) {
		uint64_t seen = 0;
		unsigned n = 0;
		for (unsigned a = 1; a < 256; a++) {
			const unsigned b = probe(i, a);
			if (!(seen >> b & 1)) {
				m->probe_rank[i][b] = (uint8_t)n;
				m->probe_bins[i][n++] = (uint8_t)b;
			}
			seen |= 1ull << b;
		}
		m->probe_len[i] = (uint8_t)n;
	}
}

void minhash_init(struct minhash *m, uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 64; i++) { /* splitmix64 */
		uint64_t z = (x += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		m->mul[i] = (z ^ (z >> 31)) | 1;
	}
	probe_table(m);
	minhash_reset(m);
}

/* At most this many features: few bins are set (a template's sketch of a
 * page's few blocks), and an empty bin would look at some 64 / (bins
 * set) bins of its sequence before it met one. */
#define SPARSE_MAX 8

/*
 * The bin minhash_bits() takes empty bin @i's value from, for a set of
 * the @k bins @set: the one earliest on @i's sequence (the first the walk
 * meets), else the next set bin after @i.
 */
static unsigned sparse_source(const struct minhash *m, unsigned i, const uint8_t *set, unsigned k)
{
	unsigned best = 255, from = 64;
	for (unsigned j = 0; j < k; j++) {
		const unsigned r = m->probe_rank[i][set[j]];
		if (r < best) {
			best = r;
			from = set[j];
		}
	}
	if (from < 64)
		return from;
	for (unsigned j = i + 1;; j++)
		if (m->bin[j & 63] != MINHASH_EMPTY)
			return j & 63;
}

uint64_t minhash_bits(const struct minhash *m)
{
	if (!m->n)
		return 0;
	uint64_t fp = 0;
	if (m->n <= SPARSE_MAX) {
		uint8_t set[SPARSE_MAX];
		unsigned k = 0;
		for (unsigned i = 0; i < 64; i++)
			if (m->bin[i] != MINHASH_EMPTY)
				set[k++] = (uint8_t)i;
		for (unsigned i = 0; i < 64; i++) {
			uint64_t v = m->bin[i];
			if (v == MINHASH_EMPTY)
				v = m->bin[sparse_source(m, i, set, k)];
			const uint64_t x = (v ^ m->mul[i]) * 0x9e3779b97f4a7c15ull;
			fp |= (x >> 63) << i;
		}
		return fp;
	}
	for (unsigned i = 0; i < 64; i++) {
		uint64_t v = m->bin[i];
		for (unsigned a = 0; v == MINHASH_EMPTY && a < m->probe_len[i]; a++)
			v = m->bin[m->probe_bins[i][a]];
		/* Very few bins set: a bounded search, then the next set bin. */
		for (unsigned j = i + 1; v == MINHASH_EMPTY; j++)
			v = m->bin[j & 63];
		const uint64_t x = (v ^ m->mul[i]) * 0x9e3779b97f4a7c15ull;
		fp |= (x >> 63) << i;
	}
	return fp;
}
