/*
 * join.c - see join.h.
 */
#include "join.h"

#include <stdlib.h>
#include <string.h>

#include "keysort.h"

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
	for (size_t i = 0; i < pv->n; i++) {
		r[i].key = (uint64_t)pv->v[i].a << 32 | pv->v[i].b;
		r[i].idx = pv->v[i].d;
	}
	keysort(r, tmp, pv->n);
	for (size_t i = 0; i < pv->n; i++) {
		pv->v[i].a = (uint32_t)(r[i].key >> 32);
		pv->v[i].b = (uint32_t)r[i].key;
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
	uint64_t last = lead_of(keys[n - 1], lead_bits);
	size_t i = n - 1;
	while (i > 0 && lead_of(keys[i - 1], lead_bits) == last)
		i--;
	return i;
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

static int scan_run(const struct design *d, uint32_t t, const uint64_t *keys,
		    const uint32_t *idx, size_t n, struct pair_vec *out, uint64_t *cmp)
{
	const struct design_table *tab = &d->tables[t];
	const uint32_t k = d->k;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++) {
			uint64_t x = keys[i] ^ keys[j];
			uint32_t dist = (uint32_t)__builtin_popcountll(x);
			if (dist > k)
				continue;
			if (t > 0 && !design_first_table(d, t, design_unpermute(tab, x)))
				continue;
			uint32_t a = idx[i], b = idx[j];
			if (a > b) {
				uint32_t s = a;
				a = b;
				b = s;
			}
			if (pair_vec_push(out, a, b, dist))
				return -1;
		}
	}
	*cmp += (uint64_t)n * (n - 1) / 2;
	return 0;
}

/*
 * Runs are short (a few keys) and a third of neighbouring keys or more
 * share their leading bits, so "does the run go on?" is a branch the CPU
 * cannot predict.  Instead the answer for 64 neighbours at a time is
 * gathered into a bit mask without branches, and only its set bits (the
 * runs) are visited.
 */
int join_scan(const struct design *d, uint32_t t, const uint64_t *keys,
	      const uint32_t *idx, size_t n, struct pair_vec *out, uint64_t *comparisons)
{
	const uint32_t lead = d->tables[t].lead_bits;
	if (lead == 0) /* every key in one run */
		return n > 1 ? scan_run(d, t, keys, idx, n, out, comparisons) : 0;
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
				while (e < n && ((keys[e - 1] ^ keys[e]) >> shift) == 0)
					e++;
				next = e;
				m = 0;
			} else {
				m &= ~((2ull << (b + c)) - 1);
			}
			if (scan_run(d, t, keys + s, idx + s, e - s, out, comparisons))
				return -1;
		}
		i = next;
	}
	return 0;
}
