/*
 * minhash.c - see minhash.h.
 */
#include "fingerprint/minhash.h"

#include <string.h>

/* The 64 bins' sources for a set of few bins, in SSE2 (every x86-64);
 * elsewhere, or with NDD_SIMD_SCALAR (test_minhash's second build of
 * this file), the walks along the sequences alone. */
#if !defined(NDD_SIMD_SCALAR) && defined(__SSE2__)
#define MINHASH_SSE2 1
#include <emmintrin.h>
#else
#define MINHASH_SSE2 0
#endif

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
	for (unsigned i = 0; i < 64; i++)
		for (unsigned j = 0; j < 64; j++)
			m->probe_key[j][i] = (int16_t)(m->probe_rank[i][j] << 6 | j);
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

/* Bit @i of the 64: one bit of bin value @v mixed with the bin's word. */
static inline uint64_t bit_of(const struct minhash *m, unsigned i, uint64_t v)
{
	const uint64_t x = (v ^ m->mul[i]) * 0x9e3779b97f4a7c15ull;
	return (x >> 63) << i;
}

#if MINHASH_SSE2

/* The set bin after @i, going round (@set is not 0). */
static unsigned next_set(uint64_t set, unsigned i)
{
	const unsigned r = (i + 1) & 63;
	const uint64_t turned = r ? set >> r | set << (64 - r) : set;
	return (r + (unsigned)__builtin_ctzll(turned)) & 63;
}

/* Bit i: bin i is set.  A set bin's value is below 2^57 and an empty
 * one's (MINHASH_EMPTY) has bit 57, so that bit, shifted to the top of
 * each 64-bit lane, is what movmskpd gathers, two bins at a time. */
static uint64_t set_bins(const struct minhash *m)
{
	uint64_t empty = 0;
	for (unsigned i = 0; i < 64; i += 2) {
		const __m128i v = _mm_slli_epi64(_mm_load_si128((const __m128i *)(m->bin + i)), 6);
		empty |= (uint64_t)_mm_movemask_pd(_mm_castsi128_pd(v)) << i;
	}
	return ~empty;
}

/* At most this many set bins go by few_bins(). */
#define FEW_BINS 24

/*
 * The bits of a set whose bins are few (@set, at most FEW_BINS of 64):
 * a page's frame, some template blocks.  An empty bin walking its
 * sequence would look at some 64 / (set bins) bins, each a load and an
 * unpredictable branch; instead each set bin's row of keys lowers the
 * least key of all 64 bins at once, eight 16-bit lanes to an
 * instruction (keys are below 2^14, so the signed minimum of SSE2
 * will do), and the least key names each empty bin's source: the set
 * bin first on its sequence, or none (then the next set bin).
 */
static uint64_t few_bins(const struct minhash *m, uint64_t set)
{
	__m128i least[8];
	for (unsigned v = 0; v < 8; v++)
		least[v] = _mm_set1_epi16(INT16_MAX);
	for (uint64_t s = set; s; s &= s - 1) {
		const __m128i *const row = (const __m128i *)m->probe_key[__builtin_ctzll(s)];
		least[0] = _mm_min_epi16(least[0], _mm_load_si128(row + 0));
		least[1] = _mm_min_epi16(least[1], _mm_load_si128(row + 1));
		least[2] = _mm_min_epi16(least[2], _mm_load_si128(row + 2));
		least[3] = _mm_min_epi16(least[3], _mm_load_si128(row + 3));
		least[4] = _mm_min_epi16(least[4], _mm_load_si128(row + 4));
		least[5] = _mm_min_epi16(least[5], _mm_load_si128(row + 5));
		least[6] = _mm_min_epi16(least[6], _mm_load_si128(row + 6));
		least[7] = _mm_min_epi16(least[7], _mm_load_si128(row + 7));
	}
	_Alignas(16) int16_t key[64];
	for (unsigned v = 0; v < 8; v++)
		_mm_store_si128((__m128i *)key + v, least[v]);
	uint64_t fp = 0;
	for (unsigned i = 0; i < 64; i++) {
		unsigned from = i;
		if (!(set >> i & 1))
			from = key[i] < 255 << 6 ? (unsigned)key[i] & 63 : next_set(set, i);
		fp |= bit_of(m, i, m->bin[from]);
	}
	return fp;
}
#endif

uint64_t minhash_bits(const struct minhash *m)
{
	if (!m->n)
		return 0;
	uint64_t fp = 0;
#if MINHASH_SSE2
	const uint64_t bins = set_bins(m);
	if (__builtin_popcountll(bins) <= FEW_BINS)
		return few_bins(m, bins);
#endif
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
			fp |= bit_of(m, i, v);
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
		fp |= bit_of(m, i, v);
	}
	return fp;
}
