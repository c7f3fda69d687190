/*
 * join.c - see join.h.
 */
#include "tables/join.h"

#include <stdlib.h>
#include <string.h>

#include "tables/keysort.h"

int pair_vec_push(struct pair_vec *pv, uint32_t a, uint32_t b, uint32_t d)
{
	if (pv->n == pv->cap) {
		size_t cap = pv->cap ? 2 * pv->cap : 1024;
		void *p = realloc(pv->v, cap * sizeof *pv->v);
		if (!p)
			return -1;
		pv->v = p;
		pv->cap = cap;
	}
	pv->v[pv->n].a = a;
	pv->v[pv->n].b = b;
	pv->v[pv->n++].d = d;
	return 0;
}

int pair_vec_append(struct pair_vec *dst, const struct pair_vec *src)
{
	if (dst->n + src->n > dst->cap) {
		size_t cap = dst->cap ? dst->cap : 1024;
		while (cap < dst->n + src->n)
			cap *= 2;
		void *p = realloc(dst->v, cap * sizeof *dst->v);
		if (!p)
			return -1;
		dst->v = p;
		dst->cap = cap;
	}
	if (src->n)
		memcpy(dst->v + dst->n, src->v, src->n * sizeof *src->v);
	dst->n += src->n;
	return 0;
}

void pair_vec_limit(struct pair_vec *pv, uint32_t k)
{
	size_t w = 0;
	for (size_t i = 0; i < pv->n; i++)
		if (pv->v[i].d <= k)
			pv->v[w++] = pv->v[i];
	pv->n = w;
}

void pair_vec_free(struct pair_vec *pv)
{
	free(pv->v);
	pv->v = NULL;
	pv->n = pv->cap = 0;
}

static int pair_cmp(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/* Pairs are packed as (a << 32 | b, d) and radix-sorted: millions of
 * pairs are common, and keys are unique, so any sort order of equal keys
 * is moot. */
void pair_vec_sort(struct pair_vec *pv)
{
	if (pv->n < 2)
		return;
	struct table_rec *r = malloc(pv->n * sizeof *r), *tmp = malloc(pv->n * sizeof *tmp);
	if (!r || !tmp) { /* no memory for the fast way: sort in place */
		free(r);
		free(tmp);
		qsort(pv->v, pv->n, sizeof *pv->v, pair_cmp);
		return;
	}
	/* the radix sort buckets by the top bits: a's used bits go there */
	uint32_t max = 1;
	for (size_t i = 0; i < pv->n; i++)
		max = pv->v[i].a > max ? pv->v[i].a : max;
	const unsigned shift = (unsigned)__builtin_clz(max);
	for (size_t i = 0; i < pv->n; i++) {
		r[i].key = ((uint64_t)pv->v[i].a << 32 | pv->v[i].b) << shift;
		r[i].idx = pv->v[i].d;
	}
	keysort(r, tmp, pv->n);
	for (size_t i = 0; i < pv->n; i++) {
		const uint64_t key = r[i].key >> shift;
		pv->v[i].a = (uint32_t)(key >> 32);
		pv->v[i].b = (uint32_t)key;
		pv->v[i].d = (uint32_t)r[i].idx;
	}
	free(r);
	free(tmp);
}

static inline uint64_t lead_of(uint64_t key, uint32_t lead_bits)
{
	return lead_bits ? key >> (64 - lead_bits) : 0;
}

size_t join_last_run(const uint64_t *keys, size_t n, uint32_t lead_bits)
{
	if (n == 0)
		return 0;
	/* by bisection: a run longer than a streaming caller's chunk (copies
	 * of one page) is not walked again at every chunk */
	const uint64_t last = lead_of(keys[n - 1], lead_bits);
	size_t lo = 0, hi = n - 1; /* keys[hi] is in the last run */
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		if (lead_of(keys[mid], lead_bits) == last)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

size_t join_align(const uint64_t *keys, size_t n, size_t pos, uint32_t lead_bits)
{
	if (pos == 0 || pos >= n)
		return pos >= n ? n : 0;
	uint64_t prev = lead_of(keys[pos - 1], lead_bits);
	while (pos < n && lead_of(keys[pos], lead_bits) == prev)
		pos++;
	return pos;
}

/* A pair of the run within k: kept if this table is the first to find it.
 * @x is the XOR of the two keys, which are permuted as table @sp is
 * (table t, or another of its group: memjoin.h). */
static inline int take_pair(const struct design *d, uint32_t t, const struct design_table *sp,
			    uint64_t x, uint32_t dist, uint32_t a, uint32_t b, struct pair_vec *out)
{
	if (t > 0 && !design_first_table(d, t, design_unpermute(sp, x)))
		return 0;
	if (a > b) {
		uint32_t s = a;
		a = b;
		b = s;
	}
	return pair_vec_push(out, a, b, dist);
}

static int scan_run_scalar(const struct design *d, uint32_t t, const struct design_table *sp,
			   const uint64_t *keys, const uint32_t *idx, size_t n,
			   struct pair_vec *out)
{
	const uint32_t k = d->k;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++) {
			uint64_t x = keys[i] ^ keys[j];
			uint32_t dist = (uint32_t)__builtin_popcountll(x);
			if (dist <= k && take_pair(d, t, sp, x, dist, idx[i], idx[j], out))
				return -1;
		}
	}
	return 0;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_AVX2_SCAN 1

/*
 * Long runs (designs with few tables, chosen for small N, have runs of
 * hundreds of keys) are all-pairs loops of XOR and popcount: four keys at
 * a time with AVX2, popcount by nibble lookup.  Almost no comparison
 * is a hit, so hits leave the vector loop through a rarely taken branch.
 * Compiled for AVX2 whatever the build's baseline, used only where the
 * CPU has it.
 */
/* Popcount of each of the four 64-bit lanes of @x: nibble lookup, then a
 * sum of the bytes per lane. */
__attribute__((target("avx2"))) static inline __m256i popcount4(__m256i x)
{
	const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
					     0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
	const __m256i low = _mm256_set1_epi8(0x0f);
	const __m256i c = _mm256_add_epi8(
		_mm256_shuffle_epi8(lut, _mm256_and_si256(x, low)),
		_mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(x, 4), low)));
	return _mm256_sad_epu8(c, _mm256_setzero_si256());
}

__attribute__((target("avx2"))) static int scan_run_avx2(const struct design *d, uint32_t t,
							  const struct design_table *sp,
							  const uint64_t *keys,
							  const uint32_t *idx, size_t n,
							  struct pair_vec *out)
{
	const uint32_t k = d->k;
	const __m256i kv = _mm256_set1_epi64x((long long)k);
	for (size_t i = 0; i + 1 < n; i++) {
		const __m256i a = _mm256_set1_epi64x((long long)keys[i]);
		size_t j = i + 1;
		for (; j + 8 <= n; j += 8) { /* two vectors a round: one branch for eight */
			const __m256i x0 = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(keys + j)));
			const __m256i x1 = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(keys + j + 4)));
			const __m256i far = _mm256_and_si256(_mm256_cmpgt_epi64(popcount4(x0), kv),
							     _mm256_cmpgt_epi64(popcount4(x1), kv));
			if (__builtin_expect(_mm256_movemask_pd(_mm256_castsi256_pd(far)) != 15, 0)) {
				for (size_t l = j; l < j + 8; l++) { /* a hit among these: which */
					uint64_t y = keys[i] ^ keys[l];
					uint32_t dist = (uint32_t)__builtin_popcountll(y);
					if (dist <= k && take_pair(d, t, sp, y, dist, idx[i], idx[l], out))
						return -1;
				}
			}
		}
		for (; j + 4 <= n; j += 4) {
			const __m256i x = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(keys + j)));
			const __m256i c = popcount4(x);
			int near = ~_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(c, kv))) & 15;
			if (__builtin_expect(near != 0, 0)) {
				for (unsigned l = 0; l < 4; l++) {
					if (!(near >> l & 1))
						continue;
					uint64_t y = keys[i] ^ keys[j + l];
					if (take_pair(d, t, sp, y, (uint32_t)__builtin_popcountll(y), idx[i],
						      idx[j + l], out))
						return -1;
				}
			}
		}
		for (; j < n; j++) {
			uint64_t y = keys[i] ^ keys[j];
			uint32_t dist = (uint32_t)__builtin_popcountll(y);
			if (dist <= k && take_pair(d, t, sp, y, dist, idx[i], idx[j], out))
				return -1;
		}
	}
	return 0;
}

/*
 * The same with AVX-512 and its popcount instruction (VPOPCNTDQ): eight
 * comparisons are an XOR, a popcount and a compare into a mask register,
 * against some twenty instructions for eight with AVX2's nibble lookup;
 * and a run's last keys are compared with masked loads, not one by one.
 */
#define HAVE_AVX512_SCAN 1

/* The hits of mask @near among keys[j..j + 8) against keys[i], in order. */
static inline int take_near(const struct design *d, uint32_t t, const struct design_table *sp,
			    const uint64_t *keys,
			    const uint32_t *idx, size_t i, size_t j, unsigned near,
			    struct pair_vec *out)
{
	while (near) {
		const size_t l = j + (unsigned)__builtin_ctz(near);
		const uint64_t y = keys[i] ^ keys[l];
		if (take_pair(d, t, sp, y, (uint32_t)__builtin_popcountll(y), idx[i], idx[l], out))
			return -1;
		near &= near - 1;
	}
	return 0;
}

__attribute__((target("avx512f,avx512vpopcntdq"))) static int
scan_run_avx512(const struct design *d, uint32_t t, const struct design_table *sp,
		const uint64_t *keys, const uint32_t *idx, size_t n, struct pair_vec *out)
{
	const __m512i kv = _mm512_set1_epi64((long long)d->k);
	for (size_t i = 0; i + 1 < n; i++) {
		const __m512i a = _mm512_set1_epi64((long long)keys[i]);
		size_t j = i + 1;
		for (; j + 16 <= n; j += 16) { /* two vectors a round: one branch for sixteen */
			const __m512i x0 = _mm512_xor_si512(a, _mm512_loadu_si512(keys + j));
			const __m512i x1 = _mm512_xor_si512(a, _mm512_loadu_si512(keys + j + 8));
			const __mmask8 n0 = _mm512_cmple_epu64_mask(_mm512_popcnt_epi64(x0), kv);
			const __mmask8 n1 = _mm512_cmple_epu64_mask(_mm512_popcnt_epi64(x1), kv);
			if (__builtin_expect((n0 | n1) != 0, 0) &&
			    (take_near(d, t, sp, keys, idx, i, j, n0, out) ||
			     take_near(d, t, sp, keys, idx, i, j + 8, n1, out)))
				return -1;
		}
		for (; j < n; j += 8) {
			const __mmask8 m = n - j >= 8 ? 0xff : (__mmask8)((1u << (n - j)) - 1);
			const __m512i x = _mm512_xor_si512(a, _mm512_maskz_loadu_epi64(m, keys + j));
			const __mmask8 near = _mm512_mask_cmple_epu64_mask(m, _mm512_popcnt_epi64(x), kv);
			if (__builtin_expect(near != 0, 0) &&
			    take_near(d, t, sp, keys, idx, i, j, near, out))
				return -1;
		}
	}
	return 0;
}

#endif

/*
 * Long runs: the second pigeonhole of design.h (struct design_split).  For
 * each sub-block the run is bucketed by (the top bits of) its value and
 * only keys sharing a bucket are compared; a pair is taken in the first
 * sub-block it agrees on, so once per run.  The work per key is k + 1
 * bucketings instead of n / 2 comparisons, which lets a design with few
 * tables (little to sort, code and read) serve large N, where its runs
 * grow to thousands of keys.
 */
/* A thread's hash table for scan_run_split(): bucket heads, the chain
 * link of each key of the run, and the keys that meet earlier ones. */
struct scratch {
	uint32_t *head, *next, *meet;
	size_t cap;
};

static int scratch_reserve(struct scratch *sc, size_t n)
{
	if (!sc->head && !(sc->head = malloc(((size_t)1 << DESIGN_SPLIT_MAX_BITS) * sizeof *sc->head)))
		return -1;
	if (n > sc->cap) {
		void *p = realloc(sc->next, n * sizeof *sc->next);
		if (!p)
			return -1;
		sc->next = p;
		if (!(p = realloc(sc->meet, n * sizeof *sc->meet)))
			return -1;
		sc->meet = p;
		sc->cap = n;
	}
	return 0;
}

/* The pair (@p, @q) of a bucket of sub-block @s: taken if within k and
 * @s is the first sub-block the two agree on. */
static inline int split_pair(const struct design *d, uint32_t t, const struct design_split *ss,
			     unsigned s, const uint64_t *keys, const uint32_t *idx, uint32_t p,
			     uint32_t q, struct pair_vec *out)
{
	const uint64_t x = keys[p] ^ keys[q];
	const uint32_t dist = (uint32_t)__builtin_popcountll(x);
	if (dist > d->k || (x & ss->mask[s]))
		return 0;
	for (unsigned e = 0; e < s; e++)
		if (!(x & ss->mask[e]))
			return 0;
	return take_pair(d, t, &d->tables[t], x, dist, idx[p], idx[q], out);
}

/*
 * Whether a key meets any other in a bucket is a branch the CPU cannot
 * predict (one key in four to eight does, at random), so each pass first
 * lists, without branches, the keys that do (@meet), and only those are
 * then walked: the same comparisons in the same order, with one
 * mispredicted branch per run instead of one per such key.
 */
/* Sub-block 0 lies just below the leading bits: the run is sorted by it
 * already, so its buckets are stretches of neighbours. */
static size_t split_first(const struct design *d, uint32_t t, const struct design_split *ss,
			  uint32_t *meet, const uint64_t *keys, const uint32_t *idx, size_t n,
			  struct pair_vec *out, int *bad)
{
	const unsigned sh0 = ss->shift[0];
	size_t m = 0, c = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		meet[m] = (uint32_t)i;
		m += ((keys[i] ^ keys[i + 1]) >> sh0) == 0;
	}
	for (size_t l = 0; l < m && !*bad; l++) {
		const size_t i = meet[l];
		for (size_t j = i + 1; j < n && !((keys[i] ^ keys[j]) >> sh0); j++) {
			c++;
			*bad |= split_pair(d, t, ss, 0, keys, idx, (uint32_t)i, (uint32_t)j, out);
		}
	}
	return c;
}

/* Sub-block @s: a hash table on its top @bits bits (about four buckets
 * per key), chained through sc->next; each key meets the earlier keys of
 * its bucket.  (Not a counting sort: its prefix sum over the buckets is a
 * serial chain.) */
static size_t split_hashed(const struct design *d, uint32_t t, const struct design_split *ss,
			   unsigned s, unsigned bits, struct scratch *sc, const uint64_t *keys,
			   const uint32_t *idx, size_t n, struct pair_vec *out, int *bad)
{
	const unsigned b = bits < ss->width[s] ? bits : ss->width[s];
	const unsigned sh = ss->shift[s] + ss->width[s] - b;
	const uint64_t bm = (1ull << b) - 1;
	uint32_t *restrict head = sc->head, *restrict next = sc->next, *restrict meet = sc->meet;
	size_t m = 0, c = 0;
	memset(head, 0xff, ((size_t)1 << b) * sizeof *head);
	for (uint32_t i = 0; i < (uint32_t)n; i++) {
		const uint32_t v = (uint32_t)(keys[i] >> sh) & (uint32_t)bm, h = head[v];
		next[i] = h;
		head[v] = i;
		meet[m] = i;
		m += h != UINT32_MAX;
	}
	for (size_t l = 0; l < m && !*bad; l++) {
		const uint32_t i = meet[l];
		for (uint32_t j = next[i]; j != UINT32_MAX; j = next[j]) {
			c++;
			*bad |= split_pair(d, t, ss, s, keys, idx, j, i, out);
		}
	}
	return c;
}

static int scan_run_split(const struct design *d, uint32_t t, const struct design_split *ss,
			  struct scratch *sc, const uint64_t *keys, const uint32_t *idx,
			  size_t n, struct pair_vec *out, uint64_t *cmp)
{
	if (scratch_reserve(sc, n))
		return -1;
	int bad = 0;
	uint64_t c = split_first(d, t, ss, sc->meet, keys, idx, n, out, &bad);
	const unsigned bits = design_split_bits(n);
	for (unsigned s = 1; s < ss->parts && !bad; s++)
		c += split_hashed(d, t, ss, s, bits, sc, keys, idx, n, out, &bad);
	*cmp += c;
	return bad ? -1 : 0;
}

static int g_vector = JOIN_VECTOR_BEST; /* join_use_vector() */
static size_t g_split_run; /* join_split_runs(); 0: design_split_run() */

void join_use_vector(int level)
{
	g_vector = level;
}

void join_split_runs(size_t min_run)
{
	g_split_run = min_run;
}

/* Runs shorter than this gain nothing from the vector loops. */
#define VECTOR_RUN 12
#define VECTOR512_RUN 8

int join_run(const struct design *d, uint32_t t, const struct design_table *sp,
	     const uint64_t *keys, const uint32_t *idx, size_t n, struct pair_vec *out,
	     uint64_t *comparisons)
{
	*comparisons += (uint64_t)n * (n - 1) / 2;
#ifdef HAVE_AVX2_SCAN
	if (n >= VECTOR512_RUN && g_vector >= 2 && __builtin_cpu_supports("avx512vpopcntdq"))
		return scan_run_avx512(d, t, sp, keys, idx, n, out);
	if (n >= VECTOR_RUN && g_vector && __builtin_cpu_supports("avx2"))
		return scan_run_avx2(d, t, sp, keys, idx, n, out);
#endif
	return scan_run_scalar(d, t, sp, keys, idx, n, out);
}

/* The sub-blocks of a table's runs, and from which run length on to use
 * them. */
struct splitting {
	struct design_split ss;
	size_t min_run;
};

static int scan_run(const struct design *d, uint32_t t, const uint64_t *keys,
		    const uint32_t *idx, size_t n, struct pair_vec *out, uint64_t *cmp,
		    const struct splitting *sp, struct scratch *sc)
{
	if (n >= sp->min_run)
		return scan_run_split(d, t, &sp->ss, sc, keys, idx, n, out, cmp);
	return join_run(d, t, &d->tables[t], keys, idx, n, out, cmp);
}

/* The end of the run that holds keys[e - 1] (@shift: 64 minus the leading
 * bits), from @e on: by galloping, then bisection, as runs of hundreds of
 * keys (large N) would otherwise be walked key by key. */
static size_t run_end(const uint64_t *keys, size_t n, size_t e, unsigned shift)
{
	const uint64_t lead = keys[e - 1] >> shift;
	size_t lo = e, hi = e, step = 64; /* keys[lo - 1] is in the run */
	while (hi < n && keys[hi] >> shift == lead) {
		lo = hi + 1;
		hi += step;
		step *= 2;
	}
	if (hi > n)
		hi = n;
	while (lo < hi) { /* keys[hi] (or the end) is past it */
		const size_t mid = lo + (hi - lo) / 2;
		if (keys[mid] >> shift == lead)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Runs are short (a few keys) and a third of neighbouring keys or more
 * share their leading bits, so "does the run go on?" is a branch the CPU
 * cannot predict.  Instead the answer for 64 neighbours at a time is
 * gathered into a bit mask without branches, and only its set bits (the
 * runs) are visited.
 */
/* design_split_run() walks the cost model; callers that scan a table in
 * thousands of pieces (memjoin.h) would pay for it each time.  Entries
 * are written by whichever thread gets there first, all with the same
 * value. */
static size_t split_run_memo[DESIGN_MAX_K + 1][65];

size_t join_split_threshold(uint32_t lead_bits, uint32_t k)
{
	struct design_split ss;
	if (k > DESIGN_MAX_K || lead_bits > 64 || !design_split_init(&ss, lead_bits, k))
		return SIZE_MAX;
	if (g_split_run)
		return g_split_run;
	size_t v = __atomic_load_n(&split_run_memo[k][lead_bits], __ATOMIC_RELAXED);
	if (!v) {
		v = design_split_run(lead_bits, k);
		__atomic_store_n(&split_run_memo[k][lead_bits], v, __ATOMIC_RELAXED);
	}
	return v;
}

int join_scan(const struct design *d, uint32_t t, const uint64_t *keys,
	      const uint32_t *idx, size_t n, struct pair_vec *out, uint64_t *comparisons)
{
	const uint32_t lead = d->tables[t].lead_bits;
	struct splitting sp;
	sp.min_run = join_split_threshold(lead, d->k);
	if (sp.min_run != SIZE_MAX)
		design_split_init(&sp.ss, lead, d->k);
	struct scratch sc = {0};
	int rc = 0;
	if (lead == 0) { /* every key in one run */
		rc = n > 1 ? scan_run(d, t, keys, idx, n, out, comparisons, &sp, &sc) : 0;
		goto done;
	}
	const unsigned shift = 64 - lead;
	size_t i = 0;
	while (i + 1 < n) {
		/* bit b: keys[i + b] and keys[i + b + 1] are in one run */
		const size_t w = n - 1 - i < 64 ? n - 1 - i : 64;
		uint64_t m = 0;
		for (size_t b = 0; b < w; b++)
			m |= (uint64_t)(((keys[i + b] ^ keys[i + b + 1]) >> shift) == 0) << b;
		size_t next = i + w;
		while (m) {
			const unsigned b = (unsigned)__builtin_ctzll(m);
			const uint64_t rest = ~(m >> b);
			const unsigned c = rest ? (unsigned)__builtin_ctzll(rest) : 64 - b; /* neighbours in it */
			size_t s = i + b, e = s + c + 1;
			if (b + c >= w) { /* it may go on past this window */
				e = run_end(keys, n, e, shift);
				next = e;
				m = 0;
			} else {
				m &= ~((2ull << (b + c)) - 1);
			}
			if (scan_run(d, t, keys + s, idx + s, e - s, out, comparisons, &sp, &sc)) {
				rc = -1;
				goto done;
			}
		}
		i = next;
	}
done:
	free(sc.head);
	free(sc.next);
	free(sc.meet);
	return rc;
}
