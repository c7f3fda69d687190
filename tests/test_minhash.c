/*
 * test_minhash.c - minhash_bits() against the densification as first
 * written: each empty bin walks its whole probe sequence of 255 hashed
 * attempts, then the bins after it.  The table of each bin's sequence
 * without repeats must give the same 64 bits on every set, from one
 * feature (nearly every bin filled from elsewhere, sequences exhausted)
 * to many (no empty bin); fingerprints are kept across nights.  Both
 * bodies are tested: the library's (SSE2 for sets of few bins) and the
 * scalar one.
 */
/* The module a second time, as built without SSE2 (twin_*), beside the
 * library's: both against the reference. */
#define NDD_SIMD_SCALAR
#define minhash_init twin_minhash_init
#define minhash_bits twin_minhash_bits
#include "../common/fingerprint/minhash.c"
#undef minhash_init
#undef minhash_bits
#undef NDD_SIMD_SCALAR

void minhash_init(struct minhash *m, uint64_t seed);
uint64_t minhash_bits(const struct minhash *m);

#include "testutil.h"

static unsigned probe_ref(unsigned bin, unsigned attempt)
{
	uint64_t z = (uint64_t)bin << 32 | attempt;
	z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdull;
	z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ull;
	return (unsigned)(z >> 58);
}

static uint64_t bits_ref(const struct minhash *m)
{
	if (!m->n)
		return 0;
	uint64_t fp = 0;
	for (unsigned i = 0; i < 64; i++) {
		uint64_t v = m->bin[i];
		for (unsigned a = 1; v == MINHASH_EMPTY && a < 256; a++)
			v = m->bin[probe_ref(i, a)];
		for (unsigned j = i + 1; v == MINHASH_EMPTY; j++)
			v = m->bin[j & 63];
		const uint64_t x = (v ^ m->mul[i]) * 0x9e3779b97f4a7c15ull;
		fp |= (x >> 63) << i;
	}
	return fp;
}

/* Sets of 1..300 random features (many of at most 10, which take the
 * path for sparse sets); also sets confined to a few bins, where whole
 * probe sequences find nothing and the scan after them decides. */
static void test_agree(void)
{
	uint64_t st = test_seed(3);
	struct minhash m;
	minhash_init(&m, 0x5eed);
	int bad = 0, distinct = 0;
	uint64_t last = 0;
	for (int it = 0; it < 20000; it++) {
		minhash_reset(&m);
		/* a quarter of the sets of 1 to 10 features: the sparse path */
		const unsigned n = 1 + (unsigned)(test_rand(&st) % (it % 4 ? 300 : 10));
		const unsigned bins = it % 3 ? 64 : 1 + (unsigned)(test_rand(&st) % 4);
		for (unsigned k = 0; k < n; k++) {
			uint64_t h = test_rand(&st);
			if (bins < 64) /* the top 6 bits pick the bin */
				h = (h & (~0ull >> 6)) | (uint64_t)(test_rand(&st) % bins) << 58;
			minhash_add(&m, h);
		}
		const uint64_t got = minhash_bits(&m), want = bits_ref(&m);
		if (twin_minhash_bits(&m) != want && bad++ < 3)
			fprintf(stderr, "set %d of %u features: the scalar body differs\n", it, n);
		if (got != want && bad++ < 3)
			fprintf(stderr, "set %d of %u features: %016llx, reference %016llx\n", it, n,
				(unsigned long long)got, (unsigned long long)want);
		distinct += got != last;
		last = got;
	}
	CHECK(bad == 0);
	CHECK(distinct > 18000); /* the sets differ, and so do their bits */
	minhash_reset(&m);
	CHECK(minhash_bits(&m) == 0);
}

/* Every set of one or two set bins: each empty bin whose sequence misses
 * them takes the next set bin after it, going round. */
static void test_few_bins(void)
{
	struct minhash m;
	minhash_init(&m, 0x5eed);
	int bad = 0;
	for (unsigned a = 0; a < 64; a++)
		for (unsigned b = a; b < 64; b++) {
			minhash_reset(&m);
			minhash_add(&m, (uint64_t)a << 58 | 0x1234567);
			minhash_add(&m, (uint64_t)b << 58 | 0x7654321);
			const uint64_t want = bits_ref(&m);
			bad += minhash_bits(&m) != want;
			bad += twin_minhash_bits(&m) != want;
		}
	CHECK(bad == 0);
}

int main(void)
{
	test_agree();
	test_few_bins();
	return test_finish("test_minhash");
}
