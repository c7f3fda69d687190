/*
 * keysort.c - see keysort.h.  Both radix levels are stable counting
 * scatters; the top level is split over threads by contiguous input
 * ranges (each thread gets its own offsets per bucket), which keeps it
 * deterministic.
 *
 * Memory traffic is what costs: the top level is the one pass over main
 * memory (buckets of ~16K records, so that a bucket and its sorted copy sit
 * in L2).  keysort() then sorts each bucket from the scatter area straight
 * into the final array, with no copy back; keysort_from_keys(), which has
 * no second array, copies each bucket into a per-thread buffer and sorts
 * it from there back into its place (the copy is read from memory once
 * and written to L2; the sort's writes then hit lines just read).
 */
#include "tables/keysort.h"

#include <stdlib.h>
#include <string.h>

#include "tables/design.h"
#include "util/threads.h"

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

/* Insertion by key alone, for records whose equal keys are already in
 * ascending idx order (what the stable radix passes leave from records
 * made in index order: keysort_from_keys(), keysort_permuted()); keysort()
 * takes the caller's records in any order and so uses insertion_sort().
 * A record moves
 * only past larger keys, so equal ones keep that order, and each step
 * tests one key instead of a key and an index. */
static void insertion_sort_keys(struct table_rec *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		const struct table_rec x = a[i];
		size_t j = i;
		while (j > 0 && x.key < a[j - 1].key) {
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

/* Top-level buckets of ~16K records (256 KB, and as much again for the
 * sorted copy: both fit in L2). */
static unsigned bucket_bits(size_t n)
{
	unsigned b = 0;
	while (b < 16 && ((size_t)16384 << b) < n)
		b++;
	return b;
}

/* Second-level radix: 2^SUB_MAX_BITS counters at most (32 KB; see
 * KEYSORT_THREAD_BYTES). */
#define SUB_MAX_BITS 13
_Static_assert(KEYSORT_COUNTERS == (1u << SUB_MAX_BITS) + 2, "keysort_bucket()'s counters");

typedef void insertion_fn(struct table_rec *a, size_t n);

/*
 * Sort one bucket: @src[0..n) (their top @done bits are equal) into @dst by
 * a stable counting scatter on the next bits, leaving groups of a few
 * records, then one insertion pass (@ins) over the whole bucket, which
 * costs little more than a read when the groups are that small.  Where
 * records enter in index order, stability keeps equal keys in (key, idx)
 * order and @ins may compare keys alone.  If some group is large (many keys sharing those bits
 * too: copies of one page), groups are sorted one by one and the large
 * ones by comparison sort, whose cost cannot blow up.
 */
static void sort_bucket(const struct table_rec *src, size_t n, unsigned done,
			struct table_rec *dst, uint32_t *cnt, insertion_fn *ins)
{
	if (n <= 32 || done >= 64) {
		memcpy(dst, src, n * sizeof *dst);
		if (n <= 32)
			ins(dst, n);
		else
			keysort_small(dst, n);
		return;
	}
	unsigned bits = 1;
	while (bits < SUB_MAX_BITS && ((size_t)2 << bits) < n)
		bits++;
	if (done + bits > 64)
		bits = 64 - done;
	const unsigned shift = 64 - done - bits;
	const uint64_t mask = (1ull << bits) - 1;
	const size_t nb = (size_t)1 << bits;
	memset(cnt, 0, (nb + 1) * sizeof *cnt);
	for (size_t i = 0; i < n; i++)
		cnt[((src[i].key >> shift) & mask) + 1]++;
	uint32_t largest = 0;
	for (size_t b = 0; b < nb; b++) {
		if (cnt[b + 1] > largest)
			largest = cnt[b + 1];
		cnt[b + 1] += cnt[b];
	}
	for (size_t i = 0; i < n; i++)
		dst[cnt[(src[i].key >> shift) & mask]++] = src[i];
	if (largest <= 16) {
		ins(dst, n);
		return;
	}
	size_t lo = 0;
	for (size_t b = 0; b < nb; b++) { /* cnt[b] is now the end of group b */
		const size_t hi = cnt[b];
		if (hi - lo > 32)
			keysort_small(dst + lo, hi - lo);
		else
			ins(dst + lo, hi - lo);
		lo = hi;
	}
}

struct plan {
	unsigned bits, shift;
	size_t nb;
	int nt;
	size_t *count; /* nt x nb: per thread, then its scatter offsets */
	size_t *start; /* nb + 1 bucket starts */
};

static int plan_init_bits(struct plan *p, unsigned bits)
{
	p->bits = bits;
	p->shift = 64 - p->bits;
	p->nb = (size_t)1 << p->bits;
	p->nt = threads_max();
	p->count = calloc((size_t)p->nt * p->nb + p->nb + 1, sizeof *p->count);
	p->start = p->count ? p->count + (size_t)p->nt * p->nb : NULL;
	return p->count ? 0 : -1;
}

static int plan_init(struct plan *p, size_t n)
{
	return plan_init_bits(p, bucket_bits(n));
}

/* Bucket starts and each thread's scatter offsets from the per-thread
 * counts: bucket by bucket, thread ranges in input order (stability). */
static void plan_offsets(struct plan *p)
{
	size_t sum = 0;
	for (size_t b = 0; b < p->nb; b++) {
		p->start[b] = sum;
		for (int u = 0; u < p->nt; u++) {
			size_t v = p->count[(size_t)u * p->nb + b];
			p->count[(size_t)u * p->nb + b] = sum;
			sum += v;
		}
	}
	p->start[p->nb] = sum;
}

/* Sort every bucket of @scratch into @out, all threads. */
static void sort_buckets(const struct plan *p, const struct table_rec *scratch,
			 struct table_rec *out)
{
#pragma omp parallel num_threads(p->nt)
	{
		uint32_t *cnt = malloc(((1u << SUB_MAX_BITS) + 2) * sizeof *cnt);
#pragma omp for schedule(dynamic, 16)
		for (size_t b = 0; b < p->nb; b++) {
			const size_t lo = p->start[b], len = p->start[b + 1] - p->start[b];
			if (cnt) {
				sort_bucket(scratch + lo, len, p->bits, out + lo, cnt, insertion_sort);
			} else { /* no memory for the counters: slower, same order */
				memcpy(out + lo, scratch + lo, len * sizeof *out);
				keysort_small(out + lo, len);
			}
		}
		free(cnt);
	}
}

/*
 * The top level for both entry points: records come from @recs, or, when
 * it is NULL, are made from @keys with indices idx0, idx0 + 1, ...  (the
 * test is the same for every record, so the CPU predicts it).
 */
static inline struct table_rec rec_at(const struct table_rec *recs, const uint64_t *keys,
				      uint64_t idx0, size_t i)
{
	return recs ? recs[i] : (struct table_rec){keys[i], (uint32_t)(idx0 + i)};
}

/* With @lut, the keys are first permuted in place (@pkeys: the same
 * array as @keys) in the counting pass, which reads them anyway; with
 * @plut instead, each record's key is @plut's permutation of @keys[i]
 * and @keys are left as they are (permuted in both passes: cheaper than
 * a write of every key, and nothing to undo). */
static void scatter_top(struct plan *p, const struct table_rec *recs, const uint64_t *keys,
			uint64_t *pkeys, const struct design_lut *lut, const struct design_lut *plut,
			uint64_t idx0, struct table_rec *scratch, size_t n)
{
#pragma omp parallel num_threads(p->nt)
	{
		const int t = threads_id();
		const size_t lo = n * (size_t)t / (size_t)p->nt, hi = n * (size_t)(t + 1) / (size_t)p->nt;
		size_t *c = p->count + (size_t)t * p->nb;
		if (plut) {
			for (size_t i = lo; i < hi; i++)
				c[design_lut_permute(plut, keys[i]) >> p->shift]++;
		} else if (lut) {
			for (size_t i = lo; i < hi; i++) {
				const uint64_t k = design_lut_permute(lut, pkeys[i]);
				pkeys[i] = k;
				c[k >> p->shift]++;
			}
		} else {
			for (size_t i = lo; i < hi; i++)
				c[rec_at(recs, keys, idx0, i).key >> p->shift]++;
		}
#pragma omp barrier
#pragma omp single
		plan_offsets(p);
		if (plut) {
			for (size_t i = lo; i < hi; i++) {
				const uint64_t k = design_lut_permute(plut, keys[i]);
				scratch[c[k >> p->shift]++] = (struct table_rec){k, (uint32_t)(idx0 + i)};
			}
		} else {
			for (size_t i = lo; i < hi; i++) {
				const struct table_rec r = rec_at(recs, keys, idx0, i);
				scratch[c[r.key >> p->shift]++] = r;
			}
		}
	}
}

void keysort(struct table_rec *recs, struct table_rec *scratch, size_t n)
{
	struct plan p;
	if (bucket_bits(n) == 0 || plan_init(&p, n)) {
		keysort_small(recs, n);
		return;
	}
	scatter_top(&p, recs, NULL, NULL, NULL, NULL, 0, scratch, n);
	sort_buckets(&p, scratch, recs);
	free(p.count);
}

static size_t largest_bucket(const struct plan *p)
{
	size_t m = 0;
	for (size_t b = 0; b < p->nb; b++)
		if (p->start[b + 1] - p->start[b] > m)
			m = p->start[b + 1] - p->start[b];
	return m < KEYSORT_BUCKET_COPY_MAX ? m : KEYSORT_BUCKET_COPY_MAX;
}

/* Sort every bucket of @recs where it lies, all threads: a bucket is
 * copied into the thread's buffer (it then sits in L2) and sorted from
 * there back into its place. */
static void sort_buckets_in_place(const struct plan *p, struct table_rec *recs,
				  const struct keysort_visit *visit)
{
	const size_t cap = largest_bucket(p);
#pragma omp parallel num_threads(p->nt)
	{
		uint32_t *cnt = malloc(((1u << SUB_MAX_BITS) + 2) * sizeof *cnt);
		struct table_rec *buf = malloc(cap * sizeof *buf);
#pragma omp for schedule(dynamic, 16)
		for (size_t b = 0; b < p->nb; b++) {
			const size_t lo = p->start[b], len = p->start[b + 1] - p->start[b];
			if (cnt && buf && len <= cap) {
				memcpy(buf, recs + lo, len * sizeof *buf);
				sort_bucket(buf, len, p->bits, recs + lo, cnt, insertion_sort_keys);
			} else { /* huge bucket, or no memory: slower, same order */
				keysort_small(recs + lo, len);
			}
			if (visit)
				visit->sorted(visit->ctx, threads_id(), b, recs + lo, len);
		}
		free(buf);
		free(cnt);
	}
}

size_t keysort_bucket_count(size_t n)
{
	return (size_t)1 << bucket_bits(n);
}

/* keysort_from_keys(), and keysort_permuted() when @lut is set (then
 * @pkeys is @keys). */
static void from_keys(const uint64_t *keys, uint64_t *pkeys, const struct design_lut *lut,
		      size_t n, uint64_t idx0, struct table_rec *out,
		      const struct keysort_visit *visit)
{
	struct plan p;
	if (bucket_bits(n) == 0 || plan_init(&p, n)) {
		for (size_t i = 0; lut && i < n; i++)
			pkeys[i] = design_lut_permute(lut, pkeys[i]);
		for (size_t i = 0; i < n; i++)
			out[i] = (struct table_rec){keys[i], (uint32_t)(idx0 + i)};
		keysort_small(out, n);
		if (visit)
			visit->sorted(visit->ctx, 0, 0, out, n);
		return;
	}
	scatter_top(&p, NULL, keys, pkeys, lut, NULL, idx0, out, n);
	sort_buckets_in_place(&p, out, visit);
	free(p.count);
}

void keysort_from_keys(const uint64_t *keys, size_t n, uint64_t idx0, struct table_rec *out,
		       const struct keysort_visit *visit)
{
	from_keys(keys, NULL, NULL, n, idx0, out, visit);
}

void keysort_permuted(uint64_t *keys, const struct design_lut *lut, size_t n, uint64_t idx0,
		      struct table_rec *out, const struct keysort_visit *visit)
{
	from_keys(keys, keys, lut, n, idx0, out, visit);
}

int keysort_scatter(const uint64_t *keys, const struct design_lut *lut, size_t n, uint64_t idx0,
		    unsigned bits, struct table_rec *out, size_t *start)
{
	struct plan p;
	if (bits == 0) {
		for (size_t i = 0; i < n; i++)
			out[i] = (struct table_rec){lut ? design_lut_permute(lut, keys[i]) : keys[i],
						    (uint32_t)(idx0 + i)};
		start[0] = 0;
		start[1] = n;
		return 0;
	}
	if (plan_init_bits(&p, bits))
		return -1;
	scatter_top(&p, NULL, keys, NULL, NULL, lut, idx0, out, n);
	memcpy(start, p.start, (p.nb + 1) * sizeof *start);
	free(p.count);
	return 0;
}

void keysort_bucket(const struct table_rec *src, size_t n, unsigned done, struct table_rec *dst,
		    uint32_t *cnt)
{
	sort_bucket(src, n, done, dst, cnt, insertion_sort_keys);
}
