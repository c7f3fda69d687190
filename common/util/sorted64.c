/*
 * sorted64.c - see sorted64.h.
 */
#include "util/sorted64.h"

int u64_cmp(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

size_t u64_find(const uint64_t *v, size_t n, uint64_t key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == key ? lo : n;
}
