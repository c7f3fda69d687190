/*
 * test_bitrank.c - positions set from many threads at once are all there,
 * and every set position's rank is the count of set positions before it
 * (checked against a plain count), across word edges and at the set's ends.
 */
#include <stdlib.h>

#include "util/bitrank.h"
#include "testutil.h"

static void check_set(size_t n, unsigned every, uint64_t seed)
{
	struct bitrank b;
	unsigned char *want = calloc(n + 1, 1);
	CHECK(bitrank_init(&b, n) == 0 && want);
	uint64_t st = seed;
	for (size_t i = 0; i < n; i++)
		want[i] = n && (i == 0 || i == n - 1 || test_rand(&st) % every == 0);
#pragma omp parallel for schedule(static, 7)
	for (size_t i = 0; i < n; i++)
		if (want[i]) {
			bitrank_set(&b, i);
			bitrank_set(&b, i); /* twice is once */
		}
	size_t count = 0;
	for (size_t i = 0; i < n; i++)
		count += want[i];
	CHECK_EQ_U64(bitrank_finish(&b), count);
	int ok = 1;
	uint32_t before = 0;
	for (size_t i = 0; i < n; i++) {
		ok &= bitrank_test(&b, i) == want[i];
		if (want[i])
			ok &= bitrank_rank(&b, i) == before++;
	}
	CHECK(ok);
	bitrank_free(&b);
	free(want);
}

int main(void)
{
	uint64_t seed = test_seed(7);
	test_set_threads(2);
	check_set(0, 1, seed);
	check_set(1, 1, seed);
	check_set(64, 1, seed);
	check_set(65, 3, seed);
	check_set(100000, 1, seed);
	check_set(100003, 5, seed);
	check_set(1000000, 1000, seed);
	return test_finish("test_bitrank");
}
