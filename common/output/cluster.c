/*
 * cluster.c - see cluster.h.  Documents that appear in pairs are the
 * nodes, union-find over their indices gives the connected
 * components, and the edges are then regrouped component by component,
 * so that the greedy cover of one component touches only its own small
 * piece of memory: a night's pair graph is millions of nodes scattered
 * over the whole collection, and walking it in place is bound by cache
 * misses.
 *
 * Every step runs on all threads.  The steps that number things
 * (components, clusters) count per fixed slice of their input, then number
 * slice by slice, so the numbers do not depend on the thread count; the
 * step that only places things (edges into their component's range)
 * places them in any order, which does not matter: the cover reads a
 * component's edges as a set and takes its nodes from their sorted ends.
 */
#include "output/cluster.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util/bitrank.h"
#include "util/log.h"
#include "util/memhint.h"
#include "util/threads.h"

struct edge {
	uint32_t a, b;
};

/* The pair graph, regrouped by component.  A node is its document's
 * index: no node -> document array, no copy of the pairs as node pairs
 * (hundreds of MB of fresh memory for a large night), and no lookup of a
 * node number per pair end, whose cache misses the union-find would wait
 * on (a rank in a bit set of the paired documents: 5 per pair).  The
 * union-find's arrays then span every index up to the highest, a few more
 * entries than nodes where documents are dense (the self-join's are
 * provenance slots); a bit per index tells the nodes.  Once regrouped, a
 * component is its edges, by document: the cover then reads only its own
 * small range, and takes the nodes from the edges' ends (every node has
 * one), which saves grouping the nodes too (a counting sort over every
 * index and a scattered store per node). */
struct graph {
	size_t span;           /* document indices: the highest + 1 */
	struct bitrank in;     /* the paired documents (only its bits are used) */
	size_t n_comp;
	uint32_t *edge_start;  /* n_comp + 1 offsets into edge[] */
	struct edge *edge;     /* each component's edges (documents) */
};

/* A root's entry, once the components are numbered: its number, tagged
 * (indices are below 2^31). */
#define COMP_TAG 0x80000000u

/* Fixed slices for the numbering steps (independent of the threads). */
#define SLICES 256

static void graph_free(struct graph *g)
{
	bitrank_free(&g->in);
	free(g->edge_start);
	free(g->edge);
	memset(g, 0, sizeof *g);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void sort_u32(uint32_t *v, size_t n)
{
	if (n > 16) {
		qsort(v, n, sizeof *v, cmp_u32);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		uint32_t x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * sort_u32() of @n document indices (below 2^31) through @tmp (@n
 * entries): three counting passes of 11 bits, a pass whose digit is the
 * same everywhere skipped.  A big component's edges name few documents
 * many times over (a page copied 88 times: 7,656 ends, 88 documents),
 * which a comparison sort pays for at every level.
 */
#define RADIX_BITS 11
static void radix_u32(uint32_t *v, uint32_t *tmp, size_t n)
{
	uint32_t *src = v, *dst = tmp;
	for (unsigned shift = 0; shift < 31; shift += RADIX_BITS) {
		uint32_t count[1u << RADIX_BITS] = {0};
		const uint32_t mask = (1u << RADIX_BITS) - 1;
		for (size_t i = 0; i < n; i++)
			count[src[i] >> shift & mask]++;
		if (count[src[0] >> shift & mask] == n)
			continue;
		uint32_t at = 0;
		for (size_t d = 0; d <= mask; d++) {
			const uint32_t c = count[d];
			count[d] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[src[i] >> shift & mask]++] = src[i];
		uint32_t *const t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
}

/* Start of slice @s of @n items. */
static inline size_t slice_at(size_t n, size_t s)
{
	return n * s / SLICES;
}

/* The nodes: the documents that occur in pairs, a bit each. */
static int find_nodes(struct graph *g, const struct pair_vec *pv)
{
	const size_t m = pv->n;
	uint32_t max = 0;
#pragma omp parallel for schedule(static) reduction(max : max)
	for (size_t i = 0; i < m; i++)
		if (pv->v[i].b > max)
			max = pv->v[i].b;
	g->span = m ? (size_t)max + 1 : 0;
	if (g->span > COMP_TAG) {
		log_error("document index %u: past what clustering numbers", max);
		return -1;
	}
	if (bitrank_init(&g->in, g->span))
		return -1;
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < m; i++) {
		bitrank_set(&g->in, pv->v[i].a);
		bitrank_set(&g->in, pv->v[i].b);
	}
	return 0;
}

/*
 * Lock-free union-find: a root is linked under another only by a
 * compare-and-swap that finds it still a root, and always under the
 * lower one, so no cycle can form and each root stays its component's
 * lowest node.  Path halving stores an ancestor, which any racing store
 * also does, so the trees stay valid.
 */
static uint32_t uf_find(uint32_t *parent, uint32_t x)
{
	for (;;) {
		const uint32_t p = __atomic_load_n(&parent[x], __ATOMIC_RELAXED);
		if (p == x)
			return x;
		const uint32_t gp = __atomic_load_n(&parent[p], __ATOMIC_RELAXED);
		if (gp != p)
			__atomic_store_n(&parent[x], gp, __ATOMIC_RELAXED);
		x = gp;
	}
}

static void uf_union(uint32_t *parent, uint32_t a, uint32_t b)
{
	for (;;) {
		a = uf_find(parent, a);
		b = uf_find(parent, b);
		if (a == b)
			return;
		if (a > b) {
			const uint32_t t = a;
			a = b;
			b = t;
		}
		uint32_t expect = b;
		if (__atomic_compare_exchange_n(&parent[b], &expect, a, 0, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			return;
	}
}

#define UF_AHEAD 16

/*
 * The component of node @x, after components(): the root's tagged
 * number, found by path halving as uf_find() does (threads may halve the
 * same paths at once: each stores only an untagged ancestor, so a path
 * always still ends at its root's number).
 */
static uint32_t comp_of(uint32_t *parent, uint32_t x)
{
	for (;;) {
		const uint32_t p = __atomic_load_n(&parent[x], __ATOMIC_RELAXED);
		if (p & COMP_TAG)
			return p & ~COMP_TAG;
		const uint32_t gp = __atomic_load_n(&parent[p], __ATOMIC_RELAXED);
		if (gp & COMP_TAG)
			return gp & ~COMP_TAG;
		__atomic_store_n(&parent[x], gp, __ATOMIC_RELAXED);
		x = gp;
	}
}

/*
 * Union-find over the pairs in @comp (span entries), then the roots that
 * are nodes numbered in order (each component's lowest node: the numbers
 * do not depend on the threads) and their entries replaced by the tagged
 * numbers, for comp_of().  Only the edges ask for their component, so
 * no node's root is looked up but theirs.  @return the components.
 */
static size_t components(uint32_t *comp, const struct graph *g, const struct pair_vec *pv)
{
	const size_t n = g->span, m = pv->n;
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < n; i++)
		comp[i] = (uint32_t)i;
	/* Pairs come in no order and nodes are millions: each union's first
	 * loads are issued well ahead, and each node's parent's parent (the
	 * root, nearly always: components are small) while finding roots. */
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < m; i++) {
		if (i + UF_AHEAD < m) {
			__builtin_prefetch(&comp[pv->v[i + UF_AHEAD].a]);
			__builtin_prefetch(&comp[pv->v[i + UF_AHEAD].b]);
		}
		uf_union(comp, pv->v[i].a, pv->v[i].b);
	}
	/* an index in no pair is a root of its own, and no component */
	size_t first[SLICES];
#pragma omp parallel for schedule(static)
	for (size_t s = 0; s < SLICES; s++) {
		size_t c = 0;
		for (size_t v = slice_at(n, s); v < slice_at(n, s + 1); v++)
			c += comp[v] == v && bitrank_test(&g->in, v);
		first[s] = c;
	}
	size_t nc = 0;
	for (size_t s = 0; s < SLICES; s++) {
		const size_t c = first[s];
		first[s] = nc;
		nc += c;
	}
#pragma omp parallel for schedule(static)
	for (size_t s = 0; s < SLICES; s++) {
		uint32_t num = (uint32_t)first[s];
		for (size_t v = slice_at(n, s); v < slice_at(n, s + 1); v++)
			if (comp[v] == v && bitrank_test(&g->in, v))
				comp[v] = COMP_TAG | num++;
	}
	return nc;
}

/* Threads for the grouping passes: each needs a counter per group. */
#define GROUP_THREADS 4

/*
 * Stable counting sort by group, in parallel without atomics (a locked
 * add per item would also stop the CPU from overlapping the cache
 * misses, which is all these passes are): each thread counts its
 * contiguous range of items per group, the counts become offsets group by
 * group and thread by thread, and each item's key in @kp[0..n) (a group
 * in 0..ng) is replaced by its position.  @start[0..ng] receives the
 * groups' offsets.  @return 0, or -1 on OOM.
 */
static int group_positions(uint32_t *kp, size_t n, size_t ng, uint32_t *start)
{
	int nt = threads_max() < GROUP_THREADS ? threads_max() : GROUP_THREADS;
	uint32_t *cnt = mem_alloc_huge((size_t)nt * ng * sizeof *cnt);
	if (!cnt)
		return -1;
#pragma omp parallel num_threads(nt)
	{
		const size_t t = (size_t)threads_id(), team = (size_t)threads_team();
		const size_t lo = n * t / team, hi = n * (t + 1) / team;
		uint32_t *c = cnt + t * ng;
		memset(c, 0, ng * sizeof *c);
		for (size_t i = lo; i < hi; i++)
			c[kp[i]]++;
#pragma omp barrier
#pragma omp single
		{
			uint32_t sum = 0;
			for (size_t g = 0; g < ng; g++) {
				start[g] = sum;
				for (size_t u = 0; u < team; u++) {
					const uint32_t x = cnt[u * ng + g];
					cnt[u * ng + g] = sum;
					sum += x;
				}
			}
			start[ng] = sum;
		}
		for (size_t i = lo; i < hi; i++)
			kp[i] = c[kp[i]]++;
	}
	free(cnt);
	return 0;
}

/* The edges into their component's range, as documents, in their order
 * (the cover reads them as a set). */
static int regroup(struct graph *g, uint32_t *comp, const struct pair_vec *pv)
{
	const size_t nc = g->n_comp, m = pv->n;
	g->edge_start = malloc((nc + 1) * sizeof *g->edge_start);
	g->edge = mem_alloc_huge((m + 1) * sizeof *g->edge);
	uint32_t *kp = mem_alloc_huge((m + 1) * sizeof *kp);
	int rc = -1;
	if (!g->edge_start || !g->edge || !kp)
		goto done;
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < m; i++) {
		if (i + UF_AHEAD < m)
			__builtin_prefetch(&comp[pv->v[i + UF_AHEAD].a]);
		kp[i] = comp_of(comp, pv->v[i].a);
	}
	if (group_positions(kp, m, nc, g->edge_start))
		goto done;
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < m; i++)
		g->edge[kp[i]] = (struct edge){pv->v[i].a, pv->v[i].b};
	rc = 0;
done:
	free(kp);
	return rc;
}

static int graph_build(struct graph *g, const struct pair_vec *pv)
{
	memset(g, 0, sizeof *g);
	uint32_t *comp = NULL;
	int rc = -1;
	if (find_nodes(g, pv))
		goto done;
	comp = mem_alloc_huge((g->span + 1) * sizeof *comp);
	if (!comp)
		goto done;
	g->n_comp = components(comp, g, pv);
	rc = regroup(g, comp, pv);
done:
	bitrank_free(&g->in); /* the components name their documents from here on */
	free(comp);
	return rc;
}

/* ---- greedy star cover, one component at a time ---- */

/*
 * The greedy's choices in one component depend only on that component, so
 * covering the components one by one gives the same clusters as one
 * global pass.  Local ids ascend with documents, so "lowest local id"
 * breaks ties exactly as "earliest document" does.  A component of up to
 * 64 pages (nearly all of them) is a table of 64-bit neighbour masks; a
 * larger one uses adjacency lists and a max-heap with lazy updates (an
 * entry whose degree went stale is pushed again with the current degree
 * when it reaches the top).
 */

struct heap_item {
	uint32_t deg, node;
};

struct heap {
	struct heap_item *v;
	size_t n;
};

/* Higher degree first; on equal degree the lower node (= earlier document). */
static int above(struct heap_item a, struct heap_item b)
{
	return a.deg > b.deg || (a.deg == b.deg && a.node < b.node);
}

static void heap_push(struct heap *h, struct heap_item it)
{
	size_t i = h->n++;
	while (i > 0 && above(it, h->v[(i - 1) / 2])) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = it;
}

static struct heap_item heap_pop(struct heap *h)
{
	struct heap_item top = h->v[0], last = h->v[--h->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && above(h->v[c + 1], h->v[c]))
			c++;
		if (!above(h->v[c], last))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

/* A cluster: its members are members[start .. start + len). */
struct span {
	uint32_t start, len;
};

struct span_vec {
	struct span *v;
	size_t n, cap;
};

/* One thread's cover state: the members array is shared (each component
 * writes only its own range), the rest is the thread's. */
struct cover {
	uint32_t *members;  /* local ids while a component is cut, then documents */
	size_t n_members;   /* cursor in members[] */
	struct span_vec *out;
	int oom;
	struct edge *local; /* a component's edges as local ids */
	uint32_t *nodes;    /* a component's documents, ascending */
	size_t largest;     /* nodes of the largest component cut */
	/* scratch for large components */
	uint32_t *off, *adj, *deg, *fill;
	uint8_t *taken;
	struct heap heap;
};

static void close_cluster(struct cover *c)
{
	struct span_vec *sv = c->out;
	if (sv->n && sv->v[sv->n - 1].len == UINT32_MAX)
		sv->v[sv->n - 1].len = (uint32_t)c->n_members - sv->v[sv->n - 1].start;
}

static void new_cluster(struct cover *c)
{
	struct span_vec *sv = c->out;
	close_cluster(c);
	if (sv->n == sv->cap) {
		size_t cap = sv->cap ? 2 * sv->cap : 1024;
		struct span *p = realloc(sv->v, cap * sizeof *p);
		if (!p) {
			c->oom = 1;
			return;
		}
		sv->v = p;
		sv->cap = cap;
	}
	sv->v[sv->n++] = (struct span){(uint32_t)c->n_members, UINT32_MAX};
}
static void cover_masks(struct cover *c, const struct edge *e, size_t m, size_t n)
{
	uint64_t adj[64];
	memset(adj, 0, n * sizeof *adj); /* most components are tiny */
	for (size_t i = 0; i < m; i++) {
		adj[e[i].a] |= 1ull << e[i].b;
		adj[e[i].b] |= 1ull << e[i].a;
	}
	uint64_t avail = n == 64 ? ~0ull : (1ull << n) - 1;
	for (;;) {
		int best = -1, best_deg = 0;
		for (uint64_t left = avail; left; left &= left - 1) {
			int v = __builtin_ctzll(left), d = __builtin_popcountll(adj[v] & avail);
			if (d > best_deg) {
				best = v;
				best_deg = d;
			}
		}
		if (best < 0)
			return;
		uint64_t take = adj[best] & avail;
		new_cluster(c);
		c->members[c->n_members++] = (uint32_t)best;
		for (uint64_t t = take; t; t &= t - 1)
			c->members[c->n_members++] = (uint32_t)__builtin_ctzll(t);
		avail &= ~(take | 1ull << best);
	}
}

static void take_node(struct cover *c, uint32_t v)
{
	c->taken[v] = 1;
	c->members[c->n_members++] = v;
	for (uint32_t i = c->off[v]; i < c->off[v + 1]; i++)
		c->deg[c->adj[i]]--;
}

static void cover_lists(struct cover *c, const struct edge *e, size_t m, size_t n)
{
	memset(c->off, 0, (n + 1) * sizeof *c->off);
	for (size_t i = 0; i < m; i++) {
		c->off[e[i].a + 1]++;
		c->off[e[i].b + 1]++;
	}
	for (size_t v = 0; v < n; v++) {
		c->deg[v] = c->off[v + 1];
		c->off[v + 1] += c->off[v];
		c->fill[v] = c->off[v];
		c->taken[v] = 0;
	}
	for (size_t i = 0; i < m; i++) {
		c->adj[c->fill[e[i].a]++] = e[i].b;
		c->adj[c->fill[e[i].b]++] = e[i].a;
	}
	struct heap *h = &c->heap;
	h->n = 0;
	for (uint32_t v = 0; v < n; v++)
		heap_push(h, (struct heap_item){c->deg[v], v});
	while (h->n) {
		struct heap_item it = heap_pop(h);
		if (c->taken[it.node] || c->deg[it.node] == 0)
			continue;
		if (it.deg != c->deg[it.node]) {
			heap_push(h, (struct heap_item){c->deg[it.node], it.node});
			continue;
		}
		new_cluster(c);
		take_node(c, it.node);
		for (uint32_t i = c->off[it.node]; i < c->off[it.node + 1]; i++)
			if (!c->taken[c->adj[i]])
				take_node(c, c->adj[i]);
	}
}

/* Index of node @x in the sorted node list @l[0..n). */
static inline uint32_t local_id(const uint32_t *l, size_t n, uint32_t x)
{
	size_t lo = 0;
	while (n > 1) {
		const size_t half = n / 2;
		lo = l[lo + half] <= x ? lo + half : lo;
		n -= half;
	}
	return (uint32_t)lo;
}

static int cover_scratch(struct cover *c, size_t largest, size_t largest_edges)
{
	c->local = malloc((largest_edges + 1) * sizeof *c->local);
	c->nodes = malloc((2 * largest_edges + 1) * sizeof *c->nodes);
	if (!c->local || !c->nodes)
		return -1;
	if (largest <= 64)
		return 0;
	c->off = malloc((largest + 1) * sizeof *c->off);
	c->deg = malloc(largest * sizeof *c->deg);
	c->fill = malloc(largest * sizeof *c->fill);
	c->adj = malloc(2 * largest_edges * sizeof *c->adj);
	c->taken = malloc(largest);
	c->heap.v = malloc(largest * sizeof *c->heap.v);
	return c->off && c->deg && c->fill && c->adj && c->taken && c->heap.v ? 0 : -1;
}

static void cover_free(struct cover *c)
{
	free(c->local);
	free(c->nodes);
	free(c->off);
	free(c->adj);
	free(c->deg);
	free(c->fill);
	free(c->taken);
	free(c->heap.v);
}

/* The documents of the @m edges @e, ascending, into @doc; @tmp: room
 * for 2 @m more.  @return how many. */
static size_t edge_nodes(uint32_t *doc, uint32_t *tmp, const struct edge *e, size_t m)
{
	for (size_t j = 0; j < m; j++) {
		doc[2 * j] = e[j].a;
		doc[2 * j + 1] = e[j].b;
	}
	if (2 * m > 256)
		radix_u32(doc, tmp, 2 * m);
	else
		sort_u32(doc, 2 * m);
	size_t n = 0;
	for (size_t j = 0; j < 2 * m; j++)
		if (n == 0 || doc[j] != doc[n - 1])
			doc[n++] = doc[j];
	return n;
}

/* Cut component @i: its members go to its own range of c->members, as
 * documents.  A connected component of m edges has at most m + 1 nodes:
 * component i's range starts at edge_start[i] + i. */
static void cover_component(const struct graph *g, struct cover *c, size_t i)
{
	const struct edge *ge = g->edge + g->edge_start[i];
	const size_t m = g->edge_start[i + 1] - g->edge_start[i];
	const size_t from = c->n_members = g->edge_start[i] + i;
	if (m == 1) { /* the common case: one pair, the earlier page leads */
		new_cluster(c);
		c->members[c->n_members++] = ge->a < ge->b ? ge->a : ge->b;
		c->members[c->n_members++] = ge->a < ge->b ? ge->b : ge->a;
		close_cluster(c);
		c->largest = c->largest > 2 ? c->largest : 2;
		return;
	}
	const uint32_t *doc = c->nodes;
	/* c->local is filled only after: its 2 (m + 1) words are the scratch */
	const size_t n = edge_nodes(c->nodes, (uint32_t *)c->local, ge, m);
	c->largest = c->largest > n ? c->largest : n;
	for (size_t j = 0; j < m; j++)
		c->local[j] = (struct edge){local_id(doc, n, ge[j].a), local_id(doc, n, ge[j].b)};
	if (n <= 64)
		cover_masks(c, c->local, m, n);
	else
		cover_lists(c, c->local, m, n);
	close_cluster(c);
	for (size_t j = from; j < c->n_members; j++)
		c->members[j] = doc[c->members[j]];
}

/*
 * Cover every component, slices of components in parallel; each slice
 * lists its clusters, and the lists are joined in slice order.
 * @return 0, or -1 on OOM.
 */
static int cover_all(const struct graph *g, uint32_t *members, struct span_vec *all,
		     struct clusters *out)
{
	size_t largest = 0, largest_edges = 0;
	for (size_t i = 0; i < g->n_comp; i++)
		if (g->edge_start[i + 1] - g->edge_start[i] > largest_edges)
			largest_edges = g->edge_start[i + 1] - g->edge_start[i];
	out->n_components = g->n_comp;
	struct span_vec *part = calloc(SLICES, sizeof *part);
	int bad = !part;
	if (!bad) {
#pragma omp parallel reduction(| : bad) reduction(max : largest)
		{
			struct cover c = {.members = members};
			/* nodes: at most one more than edges */
			bad |= cover_scratch(&c, largest_edges + 1, largest_edges);
#pragma omp for schedule(dynamic, 1)
			for (size_t s = 0; s < SLICES; s++) {
				c.out = &part[s];
				for (size_t i = slice_at(g->n_comp, s);
				     !bad && !c.oom && i < slice_at(g->n_comp, s + 1); i++)
					cover_component(g, &c, i);
				bad |= c.oom;
			}
			largest = c.largest;
			cover_free(&c);
		}
	}
	out->largest_component = largest;
	size_t total = 0;
	for (size_t s = 0; !bad && s < SLICES; s++)
		total += part[s].n;
	if (!bad && !(all->v = malloc((total + 1) * sizeof *all->v)))
		bad = 1;
	for (size_t s = 0; !bad && s < SLICES; s++) {
		if (part[s].n)
			memcpy(all->v + all->n, part[s].v, part[s].n * sizeof *all->v);
		all->n += part[s].n;
	}
	for (size_t s = 0; part && s < SLICES; s++)
		free(part[s].v);
	free(part);
	return bad ? -1 : 0;
}

/*
 * Renumber clusters by representative document; members after the
 * representative in document order.  Components are covered in order of
 * their lowest node, and a representative is not always its component's
 * lowest, so clusters are placed anew: a page represents at most one
 * cluster, so a cluster's place is its representative's rank among all
 * representatives, which a bit set over the documents gives (bitrank.h)
 * without a sort.
 */
static int place_clusters(const uint32_t *members, const struct span_vec *cl, uint32_t *ord)
{
	const size_t nc = cl->n;
	uint32_t max = 0;
#pragma omp parallel for schedule(static) reduction(max : max)
	for (size_t i = 0; i < nc; i++)
		max = members[cl->v[i].start] > max ? members[cl->v[i].start] : max;
	struct bitrank reps;
	if (bitrank_init(&reps, nc ? (size_t)max + 1 : 0))
		return -1;
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < nc; i++)
		bitrank_set(&reps, members[cl->v[i].start]);
	const size_t n_reps = bitrank_finish(&reps);
	assert(n_reps == nc);
	(void)n_reps;
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < nc; i++)
		ord[bitrank_rank(&reps, members[cl->v[i].start])] = (uint32_t)i;
	bitrank_free(&reps);
	return 0;
}

static int finish(const uint32_t *members, const struct span_vec *cl, struct clusters *out)
{
	const size_t nc = cl->n;
	uint32_t *ord = malloc((nc + 1) * sizeof *ord); /* place -> cluster */
	out->start = malloc((nc + 1) * sizeof *out->start);
	if (!ord || !out->start || place_clusters(members, cl, ord)) {
		free(ord);
		return -1;
	}
	size_t at = 0;
	for (size_t i = 0; i < nc; i++) {
		const uint32_t len = cl->v[ord[i]].len;
		out->start[i] = (uint32_t)at;
		at += len;
		if (len > out->largest_cluster)
			out->largest_cluster = len;
	}
	out->start[nc] = (uint32_t)at;
	out->doc = mem_alloc_huge((at + 1) * sizeof *out->doc);
	if (!out->doc) {
		free(ord);
		return -1;
	}
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < nc; i++) {
		const struct span sp = cl->v[ord[i]];
		memcpy(out->doc + out->start[i], members + sp.start, sp.len * sizeof *out->doc);
		sort_u32(out->doc + out->start[i] + 1, sp.len - 1);
	}
	out->n_clusters = nc;
	free(ord);
	return 0;
}

int clusters_build(const struct pair_vec *pairs, struct clusters *out)
{
	struct graph g;
	struct span_vec cl = {0};
	uint32_t *members = NULL;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (!graph_build(&g, pairs) &&
	    (members = mem_alloc_huge((pairs->n + g.n_comp + 1) * sizeof *members)) &&
	    !cover_all(&g, members, &cl, out))
		rc = finish(members, &cl, out);
	if (rc) {
		log_error("out of memory clustering %zu pairs", pairs->n);
		clusters_free(out);
	}
	free(members);
	free(cl.v);
	graph_free(&g);
	return rc;
}

void clusters_free(struct clusters *c)
{
	free(c->start);
	free(c->doc);
	c->start = c->doc = NULL;
	c->n_clusters = 0;
}
