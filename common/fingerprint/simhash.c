/*
 * simhash.c - see simhash.h.
 */
#include "fingerprint/simhash.h"

#include <assert.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_BATCH_AVX2 1 /* chosen at run time: __builtin_cpu_supports */
#endif

/* 32-bit lanes take this many adds of at most SIMHASH_MAX_WEIGHT safely. */
#define ACC_DRAIN_EVERY (UINT32_MAX / SIMHASH_MAX_WEIGHT)

void simhash_acc_reset(struct simhash_acc *a)
{
	memset(a, 0, sizeof *a);
}

static void acc_drain(struct simhash_acc *a)
{
	for (int i = 0; i < 64; i++) {
		a->sum[i] += a->lane[i];
		a->lane[i] = 0;
	}
	a->pending = 0;
}

static const uint32_t bit_of_byte[8] = {1, 2, 4, 8, 16, 32, 64, 128};

/* S1[i] += w for every bit i set in @h; the caller accounts the total. */
static void lanes_add(struct simhash_acc *a, uint64_t h, uint32_t w)
{
	if (a->pending == ACC_DRAIN_EVERY)
		acc_drain(a);
	a->pending++;
	/*
	 * Byte by byte: the byte is broadcast, tested against the 8 bit
	 * masks and the weight is added where set.  Written this way gcc and
	 * clang emit SSE2 compare/and-not/add with no branch per bit.
	 */
	for (int b = 0; b < 8; b++) {
		const uint32_t byte = (uint32_t)(h >> (8 * b)) & 255;
		uint32_t *const lane = a->lane + 8 * b;
		for (int j = 0; j < 8; j++)
			lane[j] += w & (0u - (uint32_t)((byte & bit_of_byte[j]) != 0));
	}
}

void simhash_acc_add(struct simhash_acc *a, uint64_t h, uint32_t w)
{
	assert(w > 0 && w <= SIMHASH_MAX_WEIGHT);
	a->total += w;
	lanes_add(a, h, w);
}

/* Move the bit-sliced counts into the lanes: plane p counts 2^p each. */
static void planes_flush(struct simhash_acc *a)
{
	for (int p = 0; p < 4; p++) {
		if (a->plane[p])
			lanes_add(a, a->plane[p], (uint32_t)SIMHASH_WEIGHT_ONE << p);
		a->plane[p] = 0;
	}
	a->n_plane = 0;
}

void simhash_acc_add_one(struct simhash_acc *a, uint64_t h)
{
	/* A ripple-carry add of the 64 one-bit inputs to 64 4-bit counters. */
	uint64_t carry = h;
	for (int p = 0; p < 4; p++) {
		const uint64_t c = a->plane[p] & carry;
		a->plane[p] ^= carry;
		carry = c;
	}
	a->total += SIMHASH_WEIGHT_ONE;
	if (++a->n_plane == 15)
		planes_flush(a);
}

uint64_t simhash_acc_final(struct simhash_acc *a)
{
	planes_flush(a);
	acc_drain(a);
	uint64_t fp = 0;
	for (int i = 0; i < 64; i++)
		if (2 * a->sum[i] > a->total) /* counter S1 - S0 > 0 */
			fp |= 1ull << i;
	return fp;
}

/*
 * Batches (what docfp_text() uses): 16-bit lanes, twice as many per
 * vector as the 32-bit ones above, kept in registers for the whole batch
 * and drained into the 64-bit sums before the weight added since the
 * last drain could pass 65535.  The AVX2 version does 16 lanes per
 * instruction; the portable one gives the same sums on any CPU.
 */
static void lanes16_drain(uint64_t sum[64], const uint16_t lane[64])
{
	for (int i = 0; i < 64; i++)
		sum[i] += lane[i];
}

static void batch_portable(uint64_t sum[64], const uint64_t *h, const uint16_t *w, size_t n)
{
	uint16_t lane[64] = {0};
	uint32_t pend = 0;
	for (size_t f = 0; f < n; f++) {
		if (pend + w[f] > UINT16_MAX) {
			lanes16_drain(sum, lane);
			memset(lane, 0, sizeof lane);
			pend = 0;
		}
		pend += w[f];
		const uint16_t wf = w[f];
		for (int b = 0; b < 8; b++) {
			const uint32_t byte = (uint32_t)(h[f] >> (8 * b)) & 255;
			for (int j = 0; j < 8; j++)
				lane[8 * b + j] += (uint16_t)(wf & (0u - ((byte >> j) & 1)));
		}
	}
	lanes16_drain(sum, lane);
}

#ifdef HAVE_BATCH_AVX2

/*
 * 16-bit lane j of vector k sees word j % 4 of the broadcast hash and
 * tests bit 4k + j / 4 of it, so plain and/compare find all 64 bits with
 * no shuffle; the lanes are put back in bit order when drained.
 */
static void avx2_drain(uint64_t sum[64], const uint16_t lane[64])
{
	for (int k = 0; k < 4; k++)
		for (int j = 0; j < 16; j++)
			sum[16 * (j % 4) + 4 * k + j / 4] += lane[16 * k + j];
}

#define BIT4(k) _mm256_setr_epi16(1 << 4 * k, 1 << 4 * k, 1 << 4 * k, 1 << 4 * k, 2 << 4 * k, \
	2 << 4 * k, 2 << 4 * k, 2 << 4 * k, 4 << 4 * k, 4 << 4 * k, 4 << 4 * k, 4 << 4 * k, \
	(short)(8 << 4 * k), (short)(8 << 4 * k), (short)(8 << 4 * k), (short)(8 << 4 * k))
/* acc += w where (h & bit) == bit, per 16-bit lane. */
#define MASKED_ADD(acc, hv, bit, wv) \
	acc = _mm256_add_epi16(acc, _mm256_and_si256(_mm256_cmpeq_epi16(_mm256_and_si256(hv, bit), bit), wv))

/* Written out for 4 vectors: gcc kept an array of them in memory. */
__attribute__((target("avx2"))) static void batch_avx2(uint64_t sum[64], const uint64_t *h,
							const uint16_t *w, size_t n)
{
	const __m256i b0 = BIT4(0), b1 = BIT4(1), b2 = BIT4(2), b3 = BIT4(3);
	__m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
	uint16_t lane[64];
	uint32_t pend = 0;
	for (size_t f = 0; f < n; f++) {
		if (pend + w[f] > UINT16_MAX) {
			_mm256_storeu_si256((__m256i *)lane, a0);
			_mm256_storeu_si256((__m256i *)(lane + 16), a1);
			_mm256_storeu_si256((__m256i *)(lane + 32), a2);
			_mm256_storeu_si256((__m256i *)(lane + 48), a3);
			avx2_drain(sum, lane);
			a0 = a1 = a2 = a3 = _mm256_setzero_si256();
			pend = 0;
		}
		pend += w[f];
		const __m256i hv = _mm256_set1_epi64x((long long)h[f]);
		const __m256i wv = _mm256_set1_epi16((short)w[f]);
		MASKED_ADD(a0, hv, b0, wv);
		MASKED_ADD(a1, hv, b1, wv);
		MASKED_ADD(a2, hv, b2, wv);
		MASKED_ADD(a3, hv, b3, wv);
	}
	_mm256_storeu_si256((__m256i *)lane, a0);
	_mm256_storeu_si256((__m256i *)(lane + 16), a1);
	_mm256_storeu_si256((__m256i *)(lane + 32), a2);
	_mm256_storeu_si256((__m256i *)(lane + 48), a3);
	avx2_drain(sum, lane);
}
#endif

static simhash_batch_fn *batch_pick(int simd)
{
#ifdef HAVE_BATCH_AVX2
	if (simd) {
		__builtin_cpu_init();
		if (__builtin_cpu_supports("avx2"))
			return batch_avx2;
	}
#endif
	(void)simd;
	return batch_portable;
}

static int g_batch_simd = 1;

void simhash_acc_use_simd(int enable)
{
	g_batch_simd = enable;
}

simhash_batch_fn *simhash_batch_kernel(void)
{
	return batch_pick(g_batch_simd);
}

void simhash_acc_add_batch(struct simhash_acc *a, const uint64_t *h, const uint16_t *w, size_t n)
{
	simhash_batch_fn *const fn = batch_pick(g_batch_simd);
	for (size_t f = 0; f < n; f++) {
		assert(w[f] > 0 && w[f] <= SIMHASH_MAX_WEIGHT);
		a->total += w[f];
	}
	fn(a->sum, h, w, n);
}
