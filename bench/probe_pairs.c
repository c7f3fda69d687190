/*
 * probe_pairs - the probe baseline for the table benchmark: sort the
 * fingerprints, then for each one enumerate every fingerprint within
 * distance k (43,745 of them for k = 3) and look each up by binary search.
 * Counts the pairs (each once) and prints the seconds it took, so the
 * benchmark can set the permuted tables against it in the same run.
 *
 *   probe_pairs -k 3 fps.ndf
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/catalog.h"
#include "util/cli.h"
#include "util/log.h"

struct fpv {
	uint64_t *v;
	size_t n;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Copies of @key in the sorted @v. */
static size_t count_of(const uint64_t *v, size_t n, uint64_t key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t c = 0;
	while (lo + c < n && v[lo + c] == key)
		c++;
	return c;
}

/* Ordered pairs (i, j), i != j, within distance k: masks of 1..k bits, and
 * the mask 0 for copies of the same value. */
static uint64_t probe_all(const uint64_t *v, size_t n, unsigned k)
{
	uint64_t ordered = 0;
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : ordered)
	for (size_t i = 0; i < n; i++) {
		ordered += count_of(v, n, v[i]) - 1;
		for (unsigned a = 0; a < 64 && k >= 1; a++) {
			uint64_t fa = v[i] ^ (1ull << a);
			ordered += count_of(v, n, fa);
			for (unsigned b = a + 1; b < 64 && k >= 2; b++) {
				uint64_t fb = fa ^ (1ull << b);
				ordered += count_of(v, n, fb);
				for (unsigned c = b + 1; c < 64 && k >= 3; c++)
					ordered += count_of(v, n, fb ^ (1ull << c));
			}
		}
	}
	return ordered / 2;
}

int main(int argc, char **argv)
{
	unsigned k = 3;
	int c;
	struct fpv f = {0};
	struct catalog_info info;
	log_init("probe_pairs");
	while ((c = getopt(argc, argv, "k:")) != -1) {
		if (c == 'k')
			k = (unsigned)cli_parse_int("-k", optarg, 0, 3);
		else
			return EXIT_FAILED;
	}
	if (optind >= argc)
		return EXIT_FAILED;
	if (catalog_simhashes((const char *const *)argv + optind, argc - optind, &f.v, &f.n, &info))
		return EXIT_FAILED;
	double t0 = log_wall();
	qsort(f.v, f.n, sizeof *f.v, cmp_u64);
	uint64_t pairs = probe_all(f.v, f.n, k);
	printf("%zu fingerprints, k = %u: %llu pairs, %.3f s\n", f.n, k,
	       (unsigned long long)pairs, log_wall() - t0);
	free(f.v);
	return EXIT_OK;
}
