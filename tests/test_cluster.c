/*
 * test_cluster.c - bounded-radius clustering: hand-made graphs with known
 * answers, then random pair sets checked for the invariants (every member
 * within k of its representative, i.e. paired with it; nobody twice;
 * clusters of two or more; deterministic).
 */
#include <stdlib.h>
#include <string.h>

#include "output/cluster.h"
#include "util/log.h"
#include "testutil.h"


static void add(struct pair_vec *pv, uint32_t a, uint32_t b)
{
	pair_vec_push(pv, a < b ? a : b, a < b ? b : a, 1);
}

static void test_chain(void)
{
	/* 10 ~ 20 ~ 30, 10 and 30 not close: no chaining, 20 is the centre. */
	struct pair_vec pv = {0};
	struct clusters c;
	add(&pv, 10, 20);
	add(&pv, 20, 30);
	pair_vec_sort(&pv);
	CHECK(clusters_build(&pv, &c) == 0);
	CHECK(c.n_clusters == 1 && c.start[1] == 3);
	CHECK(c.doc[0] == 20 && c.doc[1] == 10 && c.doc[2] == 30);
	CHECK(c.n_components == 1 && c.largest_component == 3);
	clusters_free(&c);
	pair_vec_free(&pv);
}

static void test_long_chain_is_cut(void)
{
	/* A path 0-1-2-...-9: single linkage would give one cluster of 10. */
	struct pair_vec pv = {0};
	struct clusters c;
	for (uint32_t i = 0; i < 9; i++)
		add(&pv, i, i + 1);
	CHECK(clusters_build(&pv, &c) == 0);
	CHECK(c.largest_cluster <= 3);
	CHECK(c.n_components == 1 && c.largest_component == 10);
	clusters_free(&c);
	pair_vec_free(&pv);
}

static void test_tie_goes_to_earliest(void)
{
	struct pair_vec pv = {0};
	struct clusters c;
	add(&pv, 7, 3);
	add(&pv, 100, 200);
	pair_vec_sort(&pv);
	CHECK(clusters_build(&pv, &c) == 0);
	CHECK(c.n_clusters == 2);
	CHECK(c.doc[c.start[0]] == 3 && c.doc[c.start[1]] == 100);
	clusters_free(&c);
	pair_vec_free(&pv);
}

static int has_pair(const struct pair_vec *pv, uint32_t a, uint32_t b)
{
	if (a > b) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < pv->n; i++)
		if (pv->v[i].a == a && pv->v[i].b == b)
			return 1;
	return 0;
}

static void test_random_invariants(uint64_t *rng)
{
	for (int round = 0; round < 50; round++) {
		struct pair_vec pv = {0};
		struct clusters c, c2;
		uint32_t n = 20 + (uint32_t)(test_rand(rng) % 200);
		uint32_t edges = (uint32_t)(test_rand(rng) % (3 * n));
		for (uint32_t e = 0; e < edges; e++) {
			uint32_t a = (uint32_t)(test_rand(rng) % n), b = (uint32_t)(test_rand(rng) % n);
			if (a != b && !has_pair(&pv, a, b))
				add(&pv, a, b);
		}
		pair_vec_sort(&pv);
		CHECK(clusters_build(&pv, &c) == 0);
		CHECK(clusters_build(&pv, &c2) == 0);
		uint8_t *seen = calloc(n, 1);
		for (size_t k = 0; k < c.n_clusters; k++) {
			uint32_t rep = c.doc[c.start[k]];
			CHECK(c.start[k + 1] - c.start[k] >= 2);
			if (k)
				CHECK(c.doc[c.start[k - 1]] < rep);
			for (uint32_t i = c.start[k]; i < c.start[k + 1]; i++) {
				CHECK(!seen[c.doc[i]]);
				seen[c.doc[i]] = 1;
				if (i > c.start[k])
					CHECK(has_pair(&pv, rep, c.doc[i]));
			}
		}
		CHECK(c.n_clusters == c2.n_clusters &&
		      !memcmp(c.doc, c2.doc, (c.n_clusters ? c.start[c.n_clusters] : 0) * sizeof *c.doc));
		/* Greedy maximality: no two unclustered pages are still paired. */
		for (size_t i = 0; i < pv.n; i++)
			CHECK(seen[pv.v[i].a] || seen[pv.v[i].b]);
		free(seen);
		clusters_free(&c);
		clusters_free(&c2);
		pair_vec_free(&pv);
	}
}

/*
 * The documented rule, done the slow obvious way over the whole graph:
 * repeatedly the unclustered page with the most unclustered neighbours
 * (lowest index on a tie) takes them.  The library covers component by
 * component (scan or heap by size); the clusters must be the same.
 */
static void test_matches_global_greedy(uint64_t *rng)
{
	for (int round = 0; round < 40; round++) {
		struct pair_vec pv = {0};
		struct clusters c;
		uint32_t n = 30 + (uint32_t)(test_rand(rng) % 300);
		/* groups of pages, large (components past the scan size) or small,
		 * and a few links between them */
		uint32_t groups = round % 2 ? 1 + (uint32_t)(test_rand(rng) % 4)
					    : n / (3 + (uint32_t)(test_rand(rng) % 8));
		uint8_t *adj = calloc((size_t)n * n, 1);
		for (uint32_t e = 0; e < 2 * n; e++) {
			uint32_t g = (uint32_t)(test_rand(rng) % groups), span = n / groups;
			uint32_t a = g * span + (uint32_t)(test_rand(rng) % span);
			uint32_t b = test_rand(rng) % 8 ? g * span + (uint32_t)(test_rand(rng) % span)
							 : (uint32_t)(test_rand(rng) % n);
			if (a != b && !adj[a * n + b]) {
				adj[a * n + b] = adj[b * n + a] = 1;
				add(&pv, a < b ? a : b, a < b ? b : a);
			}
		}
		pair_vec_sort(&pv);
		CHECK(clusters_build(&pv, &c) == 0);
		/* the same clusters from the pairs in another order */
		struct clusters c2;
		for (size_t i = pv.n; i > 1; i--) {
			size_t j = (size_t)(test_rand(rng) % i);
			struct pair t = pv.v[i - 1];
			pv.v[i - 1] = pv.v[j];
			pv.v[j] = t;
		}
		test_set_threads(1 + round % 4);
		CHECK(clusters_build(&pv, &c2) == 0);
		test_set_threads(2);
		CHECK(c2.n_clusters == c.n_clusters &&
		      !memcmp(c.start, c2.start, (c.n_clusters + 1) * sizeof *c.start) &&
		      !memcmp(c.doc, c2.doc, (c.n_clusters ? c.start[c.n_clusters] : 0) * sizeof *c.doc));
		clusters_free(&c2);
		uint8_t *taken = calloc(n, 1);
		uint32_t *rep_of = malloc(n * sizeof *rep_of);
		for (;;) {
			uint32_t best = UINT32_MAX, best_deg = 0;
			for (uint32_t v = 0; v < n; v++) {
				uint32_t deg = 0;
				for (uint32_t u = 0; u < n && !taken[v]; u++)
					deg += adj[v * n + u] && !taken[u];
				if (deg > best_deg) {
					best = v;
					best_deg = deg;
				}
			}
			if (best == UINT32_MAX)
				break;
			taken[best] = 1;
			rep_of[best] = best;
			for (uint32_t u = 0; u < n; u++)
				if (adj[best * n + u] && !taken[u]) {
					taken[u] = 1;
					rep_of[u] = best;
				}
		}
		size_t in_clusters = 0;
		for (uint32_t v = 0; v < n; v++)
			in_clusters += taken[v];
		CHECK(c.n_clusters ? c.start[c.n_clusters] == in_clusters : in_clusters == 0);
		for (size_t k = 0; k < c.n_clusters; k++)
			for (uint32_t i = c.start[k]; i < c.start[k + 1]; i++)
				CHECK(taken[c.doc[i]] && rep_of[c.doc[i]] == c.doc[c.start[k]]);
		free(taken);
		free(rep_of);
		free(adj);
		clusters_free(&c);
		pair_vec_free(&pv);
	}
}

/*
 * Many components spread over a large document range (the parallel steps
 * cut the work in slices): one thread and several give the same clusters,
 * which pass the invariants.
 */
static void test_threads(uint64_t *rng)
{
	struct pair_vec pv = {0};
	const uint32_t n = 200000;
	for (int g = 0; g < 20000; g++) {
		uint32_t doc[6];
		const int size = 2 + (int)(test_rand(rng) % (g % 100 ? 3 : 5));
		for (int i = 0; i < size; i++)
			doc[i] = (uint32_t)(test_rand(rng) % n);
		for (int i = 0; i < size; i++)
			for (int j = i + 1; j < size; j++)
				if (doc[i] != doc[j] && test_rand(rng) % 4)
					add(&pv, doc[i], doc[j]);
	}
	pair_vec_sort(&pv);
	size_t w = 0; /* drop repeats */
	for (size_t i = 0; i < pv.n; i++)
		if (!w || pv.v[w - 1].a != pv.v[i].a || pv.v[w - 1].b != pv.v[i].b)
			pv.v[w++] = pv.v[i];
	pv.n = w;
	struct clusters c[3];
	const int threads[3] = {1, 2, 5};
	for (int t = 0; t < 3; t++) {
		test_set_threads(threads[t]);
		CHECK(clusters_build(&pv, &c[t]) == 0);
	}
	test_set_threads(2);
	CHECK(c[0].n_clusters > 10000 && c[0].n_components > 10000);
	for (int t = 1; t < 3; t++)
		CHECK(c[t].n_clusters == c[0].n_clusters &&
		      c[t].n_components == c[0].n_components &&
		      !memcmp(c[t].start, c[0].start, (c[0].n_clusters + 1) * sizeof *c[0].start) &&
		      !memcmp(c[t].doc, c[0].doc, c[0].start[c[0].n_clusters] * sizeof *c[0].doc));
	/* members paired with their representative, nobody twice */
	uint8_t *seen = calloc(n, 1);
	for (size_t k = 0; k < c[0].n_clusters; k++)
		for (uint32_t i = c[0].start[k]; i < c[0].start[k + 1]; i++) {
			CHECK(!seen[c[0].doc[i]]);
			seen[c[0].doc[i]] = 1;
		}
	free(seen);
	for (int t = 0; t < 3; t++)
		clusters_free(&c[t]);
	pair_vec_free(&pv);
}

static int cmp_doc(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * Cliques of 40 documents (780 edges: their ends are sorted by counting
 * passes, not compared) with indices up to 2^24, so that every pass has
 * digits to sort: each clique is one cluster, its lowest document first,
 * then the rest ascending.
 */
static void test_big_components(uint64_t *rng)
{
	enum { CLIQUES = 5, SIZE = 40 };
	uint32_t doc[CLIQUES][SIZE];
	struct pair_vec pv = {0};
	for (int q = 0; q < CLIQUES; q++) {
		for (int i = 0; i < SIZE; i++) /* distinct: each clique its own residue mod 8 */
			doc[q][i] = (uint32_t)(test_rand(rng) % (1u << 21)) << 3 | (uint32_t)q;
		qsort(doc[q], SIZE, sizeof doc[q][0], cmp_doc);
		for (int i = 0; i < SIZE; i++)
			for (int j = i + 1; j < SIZE; j++)
				if (doc[q][i] != doc[q][j])
					add(&pv, doc[q][i], doc[q][j]);
	}
	pair_vec_sort(&pv);
	size_t w = 0; /* drop repeats (a document drawn twice) */
	for (size_t i = 0; i < pv.n; i++)
		if (!w || pv.v[w - 1].a != pv.v[i].a || pv.v[w - 1].b != pv.v[i].b)
			pv.v[w++] = pv.v[i];
	pv.n = w;
	struct clusters c;
	CHECK(clusters_build(&pv, &c) == 0);
	CHECK(c.n_clusters == CLIQUES && c.n_components == CLIQUES);
	for (size_t k = 0; k < c.n_clusters && k < CLIQUES; k++) {
		const uint32_t *got = c.doc + c.start[k];
		const int q = (int)(got[0] & 7);
		int n = 0; /* the clique's distinct documents, ascending */
		for (int i = 0; i < SIZE; i++)
			if (!i || doc[q][i] != doc[q][i - 1])
				doc[q][n++] = doc[q][i];
		CHECK(c.start[k + 1] - c.start[k] == (uint32_t)n);
		CHECK(!memcmp(got, doc[q], (size_t)n * sizeof *got));
	}
	clusters_free(&c);
	pair_vec_free(&pv);
}

int main(void)
{
	uint64_t rng = test_seed(99);
	log_set_level(LOG_SILENT);
	test_chain();
	test_threads(&rng);
	test_big_components(&rng);
	test_long_chain_is_cut();
	test_tie_goes_to_earliest();
	test_random_invariants(&rng);
	test_matches_global_greedy(&rng);
	struct pair_vec empty = {0};
	struct clusters c;
	CHECK(clusters_build(&empty, &c) == 0 && c.n_clusters == 0);
	clusters_free(&c);
	/* an index past what clustering numbers (2^31): refused, before any
	 * array of that size is made */
	struct pair past[1] = {{5, 0x80000000u, 1}};
	struct pair_vec pv = {past, 1, 1};
	CHECK(clusters_build(&pv, &c) != 0 && c.n_clusters == 0);
	clusters_free(&c);
	return test_finish("test_cluster");
}
