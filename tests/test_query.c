/*
 * test_query.c - the interpolation search over a block index, against a
 * linear scan: uniform keys, clustered keys, runs of equal first keys,
 * keys below, above and between all entries, and index sizes around the
 * point where the search switches to its final linear step.
 */
#include <stdlib.h>

#include "tables/query.h"
#include "testutil.h"

static size_t reference(const struct ndf_index_entry *ix, size_t lo, size_t hi, uint64_t key)
{
	size_t r = lo - 1;
	for (size_t i = lo; i < hi; i++)
		if (ix[i].first_key < key)
			r = i;
	return r;
}

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = ((const struct ndf_index_entry *)a)->first_key;
	uint64_t y = ((const struct ndf_index_entry *)b)->first_key;
	return x < y ? -1 : x > y;
}

int main(void)
{
	uint64_t rng = test_seed(7);
	static const size_t sizes[] = {1, 2, 8, 9, 10, 17, 100, 5000};
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		for (int kind = 0; kind < 3; kind++) {
			size_t n = sizes[s] + 1; /* entry 0 plays the code block */
			struct ndf_index_entry *ix = calloc(n, sizeof *ix);
			for (size_t i = 1; i < n; i++) {
				uint64_t r = test_rand(&rng);
				ix[i].first_key = kind == 0 ? r : kind == 1 ? r >> 40 : (r % 4) << 62;
			}
			qsort(ix + 1, n - 1, sizeof *ix, cmp_key);
			for (int q = 0; q < 2000; q++) {
				uint64_t key = test_rand(&rng);
				if (q % 3 == 1)
					key = ix[1 + test_rand(&rng) % (n - 1)].first_key; /* an exact first key */
				else if (q % 3 == 2)
					key >>= 40 + q % 24;
				CHECK_EQ_U64(query_find_block(ix, 1, n, key), reference(ix, 1, n, key));
			}
			CHECK_EQ_U64(query_find_block(ix, 1, n, 0), 0);
			CHECK_EQ_U64(query_find_block(ix, 1, n, UINT64_MAX), reference(ix, 1, n, UINT64_MAX));
			free(ix);
		}
	}
	return test_finish("test_query");
}
