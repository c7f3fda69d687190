/*
 * test_simhash.c - the bit helpers and the SimHash accumulator: weights
 * vote per bit, ties give 0 bits, the 32-bit lanes drain before they
 * overflow, and the bit-sliced weight-1.0 path and the batches (AVX2 where
 * the CPU has it, and the portable code) give the sums of one add at a
 * time.
 */
#include <stdint.h>

#include "fingerprint/simhash.h"
#include "testutil.h"

static uint64_t g_rng;

static void test_bits(void)
{
	CHECK(popcount64(0) == 0);
	CHECK(popcount64(~0ull) == 64);
	CHECK(popcount64(0x8000000000000001ull) == 2);
	CHECK(hamming64(0x0f, 0xf0) == 8);
	CHECK(hamming64(123456789, 123456789) == 0);
	CHECK(hamming64(0, ~0ull) == 64);
}

static void test_acc(void)
{
	struct simhash_acc a;
	const uint64_t h1 = 0x0123456789abcdefull, h2 = 0xfedcba9876543210ull;
	simhash_acc_reset(&a);
	CHECK_EQ_U64(simhash_acc_final(&a), 0);
	simhash_acc_reset(&a);
	simhash_acc_add(&a, h1, 64);
	CHECK_EQ_U64(simhash_acc_final(&a), h1);
	simhash_acc_reset(&a);
	simhash_acc_add(&a, h1, 65);
	simhash_acc_add(&a, h2, 64); /* h2 = ~h1: the heavier one wins */
	CHECK_EQ_U64(simhash_acc_final(&a), h1);
	simhash_acc_reset(&a);
	simhash_acc_add(&a, h1, 64);
	simhash_acc_add(&a, h2, 64); /* ties give 0 bits */
	CHECK_EQ_U64(simhash_acc_final(&a), 0);
	/* Enough heavy adds to force the 32-bit lanes to drain. */
	simhash_acc_reset(&a);
	for (int i = 0; i < 3 * 1048576 + 7; i++)
		simhash_acc_add(&a, i & 1 ? h1 : ~0ull, SIMHASH_MAX_WEIGHT);
	CHECK_EQ_U64(simhash_acc_final(&a), ~0ull);
	/* The bit-sliced weight-1.0 path equals the general one. */
	struct simhash_acc b;
	for (int round = 0; round < 50; round++) {
		simhash_acc_reset(&a);
		simhash_acc_reset(&b);
		const int n = 1 + (int)(test_rand(&g_rng) % 100);
		for (int i = 0; i < n; i++) {
			const uint64_t h = test_rand(&g_rng);
			const uint32_t w = 1 + (uint32_t)(test_rand(&g_rng) % 200);
			simhash_acc_add_one(&a, h);
			simhash_acc_add(&b, h, SIMHASH_WEIGHT_ONE);
			simhash_acc_add(&a, ~h, w);
			simhash_acc_add(&b, ~h, w);
		}
		CHECK_EQ_U64(a.total, b.total);
		CHECK_EQ_U64(simhash_acc_final(&a), simhash_acc_final(&b));
		for (int i = 0; i < 64; i++)
			CHECK_EQ_U64(a.sum[i], b.sum[i]);
	}

	/* Batches (16-bit lanes; AVX2 where the CPU has it, and the portable
	 * code) give the same sums as one add at a time, also across drains. */
	static uint64_t hb[3000];
	static uint16_t wb[3000];
	for (int simd = 0; simd < 2; simd++) {
		simhash_acc_use_simd(simd);
		for (int round = 0; round < 20; round++) {
			const size_t n = 1 + test_rand(&g_rng) % 3000;
			const uint32_t maxw = round & 1 ? SIMHASH_MAX_WEIGHT : 200;
			simhash_acc_reset(&a);
			simhash_acc_reset(&b);
			for (size_t i = 0; i < n; i++) {
				hb[i] = test_rand(&g_rng);
				wb[i] = (uint16_t)(1 + test_rand(&g_rng) % maxw);
				simhash_acc_add(&b, hb[i], wb[i]);
			}
			simhash_acc_add_batch(&a, hb, wb, n);
			CHECK_EQ_U64(a.total, b.total);
			CHECK_EQ_U64(simhash_acc_final(&a), simhash_acc_final(&b));
			for (int i = 0; i < 64; i++)
				CHECK_EQ_U64(a.sum[i], b.sum[i]);
		}
	}
	simhash_acc_use_simd(1);
}

int main(void)
{
	g_rng = test_seed(42);
	test_bits();
	test_acc();
	return test_finish("test_simhash");
}
