/*
 * learn.c - see learn.h.
 */
#include "template/learn.h"

#include <stdlib.h>

struct tpl_learner {
	uint32_t *parent;
	size_t cap_pages;
	uint64_t *pairs; /* (block hash, group) as two words each */
	size_t cap_pairs;
	uint64_t *out;
	size_t cap_out;
};

struct tpl_learner *tpl_learner_new(void)
{
	return calloc(1, sizeof(struct tpl_learner));
}

void tpl_learner_free(struct tpl_learner *l)
{
	if (!l)
		return;
	free(l->parent);
	free(l->pairs);
	free(l->out);
	free(l);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	void *const q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static uint32_t find(uint32_t *parent, uint32_t i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

/* By hash, then group. */
static int cmp_pair(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

int tpl_learn(struct tpl_learner *l, const struct tpl_page *pages, size_t n,
	      const struct tpl_params *p, const uint64_t **hashes, size_t *n_hashes,
	      uint32_t *groups)
{
	*hashes = l->out;
	*n_hashes = 0;
	*groups = 0;
	if (!n)
		return 0;
	if (grow((void **)&l->parent, &l->cap_pages, n, sizeof *l->parent))
		return -1;
	uint32_t *const parent = l->parent;
	for (size_t i = 0; i < n; i++)
		parent[i] = (uint32_t)i;
	/* The smaller index is the root, so a group is named by its first page. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (__builtin_popcountll(pages[i].sig ^ pages[j].sig) <= p->near_bits) {
				const uint32_t a = find(parent, (uint32_t)i), b = find(parent, (uint32_t)j);
				if (a != b)
					parent[a > b ? a : b] = a < b ? a : b;
			}
	uint32_t g = 0;
	size_t total = 0;
	for (size_t i = 0; i < n; i++) {
		g += find(parent, (uint32_t)i) == i;
		total += pages[i].n;
	}
	*groups = g;
	if (g < p->min_pages || g < 2)
		return 0;
	uint64_t t = ((uint64_t)g * p->share_pct + 99) / 100;
	if (t < p->min_pages)
		t = p->min_pages;
	if (grow((void **)&l->pairs, &l->cap_pairs, 2 * total, sizeof *l->pairs))
		return -1;
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		const uint32_t root = find(parent, (uint32_t)i);
		for (uint32_t k = 0; k < pages[i].n; k++) {
			l->pairs[2 * m] = pages[i].blocks[k];
			l->pairs[2 * m + 1] = root;
			m++;
		}
	}
	qsort(l->pairs, m, 2 * sizeof *l->pairs, cmp_pair);
	size_t out = 0;
	for (size_t i = 0; i < m;) {
		const uint64_t h = l->pairs[2 * i];
		uint64_t count = 0;
		size_t j = i;
		for (; j < m && l->pairs[2 * j] == h; j++)
			count += j == i || l->pairs[2 * j + 1] != l->pairs[2 * j - 1];
		if (count >= t) {
			if (grow((void **)&l->out, &l->cap_out, out + 1, sizeof *l->out))
				return -1;
			l->out[out++] = h;
		}
		i = j;
	}
	*hashes = l->out;
	*n_hashes = out;
	return 0;
}
