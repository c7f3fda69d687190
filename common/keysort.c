/*
 * keysort.c - see keysort.h.  Both radix levels are stable counting
 * scatters; the top level is split over threads by contiguous input
 * ranges (each thread gets its own offsets per bucket), which keeps it
 * deterministic.
 */
#include "keysort.h"

#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

static inline int rec_less(const struct table_rec *a, const struct table_rec *b)
{
	return a->key < b->key || (a->key == b->key && a->idx < b->idx);
}

static void insertion_sort(struct table_rec *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct table_rec x = a[i];
		size_t j = i;
		while (j > 0 && rec_less(&x, &a[j - 1])) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = x;
	}
}

static void swap_rec(struct table_rec *a, struct table_rec *b)
{
	struct table_rec t = *a;
	*a = *b;
	*b = t;
}

/* Median of three as pivot, moved to a[0]. */
static void choose_pivot(struct table_rec *a, size_t n)
{
	size_t m = n / 2, l = n - 1;
	if (rec_less(&a[m], &a[0]))
		swap_rec(&a[m], &a[0]);
	if (rec_less(&a[l], &a[0]))
		swap_rec(&a[l], &a[0]);
	if (rec_less(&a[l], &a[m]))
		swap_rec(&a[l], &a[m]);
	swap_rec(&a[0], &a[m]);
}

/* Quicksort; recursion only into the smaller side, so depth is O(log n). */
void keysort_small(struct table_rec *a, size_t n)
{
	while (n > 24) {
		choose_pivot(a, n);
		const struct table_rec p = a[0];
		size_t i = 0, j = n;
		for (;;) {
			do i++; while (i < n && rec_less(&a[i], &p));
			do j--; while (rec_less(&p, &a[j]));
			if (i >= j)
				break;
			swap_rec(&a[i], &a[j]);
		}
		swap_rec(&a[0], &a[j]);
		if (j < n - j - 1) {
			keysort_small(a, j);
			a += j + 1;
			n -= j + 1;
		} else {
			keysort_small(a + j + 1, n - j - 1);
			n = j;
		}
	}
	insertion_sort(a, n);
}

/* Top-level buckets of ~1000 records: the scatter stays friendly to the
 * cache and TLB, and each bucket is then sorted in L1/L2. */
static unsigned bucket_bits(size_t n)
{
	unsigned b = 0;
	while (b < 16 && ((size_t)1024 << b) < n)
		b++;
	return b;
}

static int n_threads(void)
{
#ifdef _OPENMP
	return omp_get_max_threads();
#else
	return 1;
#endif
}

static int thread_id(void)
{
#ifdef _OPENMP
	return omp_get_thread_num();
#else
	return 0;
#endif
}

/*
 * Second level: sort one bucket of @n records (their top @done bits are
 * equal) by a stable counting scatter on the next bits into @tmp, then a
 * stable insertion sort of each small group.  Stability keeps equal keys
 * in index order, which is (key, idx) order since records enter in index
 * order.  A large group (many keys sharing those bits too: copies of one
 * page) goes to the comparison sort, whose cost cannot blow up.
 */
static void sort_bucket(struct table_rec *a, size_t n, unsigned done, struct table_rec *tmp,
			uint32_t *cnt)
{
	if (n <= 32) {
		insertion_sort(a, n);
		return;
	}
	unsigned bits = 4;
	while (bits < 12 && ((size_t)4 << bits) < n)
		bits++;
	if (done + bits > 64)
		bits = 64 - done;
	const unsigned shift = 64 - done - bits;
	const uint64_t mask = (1ull << bits) - 1;
	const size_t nb = (size_t)1 << bits;
	memset(cnt, 0, (nb + 1) * sizeof *cnt);
	for (size_t i = 0; i < n; i++)
		cnt[((a[i].key >> shift) & mask) + 1]++;
	for (size_t b = 0; b < nb; b++)
		cnt[b + 1] += cnt[b];
	for (size_t i = 0; i < n; i++)
		tmp[cnt[(a[i].key >> shift) & mask]++] = a[i];
	size_t lo = 0;
	for (size_t b = 0; b < nb; b++) { /* cnt[b] is now the end of group b */
		const size_t hi = cnt[b];
		if (hi - lo > 64 && shift > 0)
			keysort_small(tmp + lo, hi - lo);
		else
			insertion_sort(tmp + lo, hi - lo);
		lo = hi;
	}
	memcpy(a, tmp, n * sizeof *a);
}

/* Stable counting scatter of recs into scratch by the top @bits bits;
 * start[b] receives the first index of bucket b (start[nb] = n). */
static void scatter_top(const struct table_rec *recs, struct table_rec *scratch, size_t n,
			unsigned bits, size_t *start, size_t *count, int nt)
{
	const size_t nb = (size_t)1 << bits;
	const unsigned shift = 64 - bits;
#pragma omp parallel num_threads(nt)
	{
		int t = thread_id();
		size_t lo = n * (size_t)t / (size_t)nt, hi = n * (size_t)(t + 1) / (size_t)nt;
		size_t *c = count + (size_t)t * nb;
		for (size_t i = lo; i < hi; i++)
			c[recs[i].key >> shift]++;
#pragma omp barrier
#pragma omp single
		{
			size_t sum = 0;
			for (size_t b = 0; b < nb; b++) {
				start[b] = sum;
				for (int u = 0; u < nt; u++) {
					size_t v = count[(size_t)u * nb + b];
					count[(size_t)u * nb + b] = sum;
					sum += v;
				}
			}
			start[nb] = sum;
		}
		for (size_t i = lo; i < hi; i++)
			scratch[c[recs[i].key >> shift]++] = recs[i];
	}
}

void keysort(struct table_rec *recs, struct table_rec *scratch, size_t n)
{
	unsigned bits = bucket_bits(n);
	if (bits == 0) {
		keysort_small(recs, n);
		return;
	}
	const size_t nb = (size_t)1 << bits;
	int nt = n_threads();
	size_t *count = calloc((size_t)nt * nb + nb + 1, sizeof *count);
	if (!count) { /* no memory for the counts: sort in place, slower */
		keysort_small(recs, n);
		return;
	}
	size_t *start = count + (size_t)nt * nb;
	scatter_top(recs, scratch, n, bits, start, count, nt);
	size_t largest = 0;
	for (size_t b = 0; b < nb; b++)
		if (start[b + 1] - start[b] > largest)
			largest = start[b + 1] - start[b];
	int failed = 0;
#pragma omp parallel num_threads(nt) reduction(| : failed)
	{
		struct table_rec *tmp = malloc((largest + 1) * sizeof *tmp);
		uint32_t *cnt = malloc(((1u << 12) + 2) * sizeof *cnt);
		failed = !tmp || !cnt;
#pragma omp for schedule(dynamic, 256)
		for (size_t b = 0; b < nb; b++) {
			const size_t lo = start[b], len = start[b + 1] - start[b];
			if (failed)
				keysort_small(scratch + lo, len);
			else
				sort_bucket(scratch + lo, len, bits, tmp, cnt);
			memcpy(recs + lo, scratch + lo, len * sizeof *recs);
		}
		free(tmp);
		free(cnt);
	}
	free(count);
}
