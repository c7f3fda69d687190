/*
 * cluster.c - see cluster.h.  Documents that appear in pairs are renumbered
 * densely (nodes, in document order), union-find gives the connected
 * components, and the nodes and edges are then regrouped component by
 * component, so that the greedy cover of one component touches only its
 * own small piece of memory: a night's pair graph is millions of nodes
 * scattered over the whole collection, and walking it in place was bound
 * by cache misses.
 */
#include "cluster.h"

#include <stdlib.h>
#include <string.h>

#include "keysort.h"
#include "log.h"
#include "memhint.h"

struct edge {
	uint32_t a, b;
};

/* The pair graph, regrouped by component. */
struct graph {
	size_t n;              /* nodes */
	uint32_t *doc;         /* node -> document index, ascending */
	size_t n_comp;
	uint32_t *comp_start;  /* n_comp + 1 offsets into comp_node[] */
	uint32_t *comp_node;   /* nodes of each component, ascending */
	uint32_t *edge_start;  /* n_comp + 1 offsets into edge[] */
	struct edge *edge;     /* each component's edges, as local ids (the
				  index into its comp_node[] range) */
};

static void graph_free(struct graph *g)
{
	free(g->doc);
	free(g->comp_start);
	free(g->comp_node);
	free(g->edge_start);
	free(g->edge);
	memset(g, 0, sizeof *g);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * Nodes are the documents that occur in pairs, numbered in document order
 * through a dense map (4 bytes per document up to the largest in a pair,
 * freed before returning), which is cheaper than searching a sorted list
 * for every pair end.  The pairs become edges between nodes.
 */
static int number_nodes(struct graph *g, const struct pair_vec *pv, struct edge *e)
{
	uint32_t max = 0;
	for (size_t i = 0; i < pv->n; i++)
		if (pv->v[i].b > max)
			max = pv->v[i].b;
	uint32_t *node = malloc(((size_t)max + 1) * sizeof *node);
	if (!node)
		return -1;
	mem_hint_huge_pages(node, ((size_t)max + 1) * sizeof *node);
	memset(node, 0xff, ((size_t)max + 1) * sizeof *node);
	for (size_t i = 0; i < pv->n; i++)
		node[pv->v[i].a] = node[pv->v[i].b] = 0;
	size_t n = 0;
	for (uint32_t d = 0; d <= max && pv->n; d++)
		n += node[d] == 0;
	g->doc = malloc((n + 1) * sizeof *g->doc);
	mem_hint_huge_pages(g->doc, (n + 1) * sizeof *g->doc);
	if (!g->doc) {
		free(node);
		return -1;
	}
	for (uint32_t d = 0; d <= max && pv->n; d++)
		if (node[d] == 0) {
			node[d] = (uint32_t)g->n;
			g->doc[g->n++] = d;
		}
	for (size_t i = 0; i < pv->n; i++)
		e[i] = (struct edge){node[pv->v[i].a], node[pv->v[i].b]};
	free(node);
	return 0;
}

static uint32_t uf_find(uint32_t *parent, uint32_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

/*
 * Component of every node, numbered by the component's lowest node: union
 * to the lower root keeps each root its component's lowest node, and a
 * root is numbered before any other node of its component reads it.
 */
static size_t components(uint32_t *comp, size_t n, const struct edge *e, size_t m)
{
	for (size_t i = 0; i < n; i++)
		comp[i] = (uint32_t)i;
	for (size_t i = 0; i < m; i++) {
		uint32_t a = uf_find(comp, e[i].a), b = uf_find(comp, e[i].b);
		if (a != b)
			comp[a < b ? b : a] = a < b ? a : b;
	}
	for (size_t v = 0; v < n; v++)
		comp[v] = uf_find(comp, (uint32_t)v);
	size_t nc = 0;
	for (size_t v = 0; v < n; v++)
		comp[v] = comp[v] == v ? (uint32_t)nc++ : comp[comp[v]];
	return nc;
}

/* Counting sort of the nodes, then of the edges, by component. */
static int regroup(struct graph *g, uint32_t *comp, const struct edge *e, size_t m)
{
	const size_t n = g->n, nc = g->n_comp;
	uint32_t *pos = malloc((n + 1) * sizeof *pos);
	mem_hint_huge_pages(pos, (n + 1) * sizeof *pos);
	g->comp_start = calloc(nc + 2, sizeof *g->comp_start);
	g->comp_node = malloc((n + 1) * sizeof *g->comp_node);
	g->edge_start = calloc(nc + 2, sizeof *g->edge_start);
	g->edge = malloc((m + 1) * sizeof *g->edge);
	if (!pos || !g->comp_start || !g->comp_node || !g->edge_start || !g->edge) {
		free(pos);
		return -1;
	}
	uint32_t *cs = g->comp_start, *es = g->edge_start;
	for (size_t v = 0; v < n; v++)
		cs[comp[v] + 2]++;
	for (size_t c = 0; c < nc; c++)
		cs[c + 2] += cs[c + 1];
	for (size_t v = 0; v < n; v++) { /* ascending: each component's nodes stay sorted */
		pos[v] = cs[comp[v] + 1]++;
		g->comp_node[pos[v]] = (uint32_t)v;
	}
	for (size_t i = 0; i < m; i++)
		es[comp[e[i].a] + 2]++;
	for (size_t c = 0; c < nc; c++)
		es[c + 2] += es[c + 1];
	for (size_t i = 0; i < m; i++) {
		const uint32_t c = comp[e[i].a], base = cs[c];
		g->edge[es[c + 1]++] = (struct edge){pos[e[i].a] - base, pos[e[i].b] - base};
	}
	free(pos);
	return 0;
}

static int graph_build(struct graph *g, const struct pair_vec *pv)
{
	memset(g, 0, sizeof *g);
	struct edge *e = malloc((pv->n + 1) * sizeof *e);
	uint32_t *comp = NULL;
	int rc = -1;
	if (!e || number_nodes(g, pv, e))
		goto done;
	if (!(comp = malloc((g->n + 1) * sizeof *comp)))
		goto done;
	mem_hint_huge_pages(comp, (g->n + 1) * sizeof *comp);
	g->n_comp = components(comp, g->n, e, pv->n);
	rc = regroup(g, comp, e, pv->n);
done:
	free(e);
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

struct cover {
	uint32_t *members;  /* local ids, by cluster, in creation order */
	uint32_t *cstart;
	size_t n_members, n_clusters;
	/* scratch for large components */
	uint32_t *off, *adj, *deg, *fill;
	uint8_t *taken;
	struct heap heap;
};

static void new_cluster(struct cover *c)
{
	c->cstart[c->n_clusters++] = (uint32_t)c->n_members;
}

static void cover_masks(struct cover *c, const struct edge *e, size_t m, size_t n)
{
	uint64_t adj[64] = {0};
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

struct order_item {
	uint32_t rep_doc, cluster;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order_item *x = a, *y = b;
	return x->rep_doc < y->rep_doc ? -1 : x->rep_doc > y->rep_doc;
}

/* By representative document (unique: a page represents one cluster);
 * the table-record radix sort when memory allows, else qsort. */
static void sort_order(struct order_item *ord, size_t n)
{
	struct table_rec *r = malloc(n * sizeof *r), *tmp = malloc(n * sizeof *tmp);
	if (!r || !tmp) {
		free(r);
		free(tmp);
		qsort(ord, n, sizeof *ord, cmp_order);
		return;
	}
	/* the radix sort buckets by the top bits: move the used bits there */
	uint32_t max = 1;
	for (size_t i = 0; i < n; i++)
		max = ord[i].rep_doc > max ? ord[i].rep_doc : max;
	const unsigned shift = (unsigned)__builtin_clz(max) + 32;
	for (size_t i = 0; i < n; i++)
		r[i] = (struct table_rec){(uint64_t)ord[i].rep_doc << shift, ord[i].cluster};
	keysort(r, tmp, n);
	for (size_t i = 0; i < n; i++)
		ord[i] = (struct order_item){(uint32_t)(r[i].key >> shift), (uint32_t)r[i].idx};
	free(r);
	free(tmp);
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

/* Cover every component; members become document indices as they go.
 * @return 0, or -1 on OOM. */
static int cover_all(const struct graph *g, struct cover *c, struct clusters *out)
{
	size_t largest = 0, largest_edges = 0;
	for (size_t i = 0; i < g->n_comp; i++) {
		if (g->comp_start[i + 1] - g->comp_start[i] > largest)
			largest = g->comp_start[i + 1] - g->comp_start[i];
		if (g->edge_start[i + 1] - g->edge_start[i] > largest_edges)
			largest_edges = g->edge_start[i + 1] - g->edge_start[i];
	}
	out->n_components = g->n_comp;
	out->largest_component = largest;
	c->members = malloc((g->n + 1) * sizeof *c->members);
	c->cstart = malloc((g->n + 2) * sizeof *c->cstart);
	if (!c->members || !c->cstart)
		return -1;
	if (largest > 64) {
		c->off = malloc((largest + 1) * sizeof *c->off);
		c->deg = malloc(largest * sizeof *c->deg);
		c->fill = malloc(largest * sizeof *c->fill);
		c->adj = malloc(2 * largest_edges * sizeof *c->adj);
		c->taken = malloc(largest);
		c->heap.v = malloc(largest * sizeof *c->heap.v);
		if (!c->off || !c->deg || !c->fill || !c->adj || !c->taken || !c->heap.v)
			return -1;
	}
	for (size_t i = 0; i < g->n_comp; i++) {
		const size_t n = g->comp_start[i + 1] - g->comp_start[i];
		const struct edge *e = g->edge + g->edge_start[i];
		const size_t m = g->edge_start[i + 1] - g->edge_start[i];
		const size_t from = c->n_members;
		if (n == 2) { /* the common case: one pair, the earlier page leads */
			new_cluster(c);
			c->members[c->n_members++] = 0;
			c->members[c->n_members++] = 1;
		} else if (n <= 64) {
			cover_masks(c, e, m, n);
		} else {
			cover_lists(c, e, m, n);
		}
		const uint32_t *node = g->comp_node + g->comp_start[i];
		for (size_t j = from; j < c->n_members; j++)
			c->members[j] = g->doc[node[c->members[j]]];
	}
	c->cstart[c->n_clusters] = (uint32_t)c->n_members;
	return 0;
}

/* Renumber clusters by representative document; members after the
 * representative in document order.  Components are covered in order of
 * their lowest node, and a representative is not always its component's
 * lowest, hence the sort. */
static int finish(const struct cover *c, struct clusters *out)
{
	struct order_item *ord = malloc((c->n_clusters + 1) * sizeof *ord);
	out->start = malloc((c->n_clusters + 1) * sizeof *out->start);
	out->doc = malloc((c->n_members + 1) * sizeof *out->doc);
	if (!ord || !out->start || !out->doc) {
		free(ord);
		return -1;
	}
	int sorted = 1;
	for (size_t i = 0; i < c->n_clusters; i++) {
		ord[i] = (struct order_item){c->members[c->cstart[i]], (uint32_t)i};
		sorted &= i == 0 || ord[i - 1].rep_doc < ord[i].rep_doc;
	}
	if (!sorted)
		sort_order(ord, c->n_clusters);
	size_t at = 0;
	for (size_t i = 0; i < c->n_clusters; i++) {
		uint32_t s = c->cstart[ord[i].cluster], e = c->cstart[ord[i].cluster + 1];
		out->start[i] = (uint32_t)at;
		memcpy(out->doc + at, c->members + s, (e - s) * sizeof *out->doc);
		sort_u32(out->doc + at + 1, e - s - 1);
		at += e - s;
		if (e - s > out->largest_cluster)
			out->largest_cluster = e - s;
	}
	out->start[c->n_clusters] = (uint32_t)at;
	out->n_clusters = c->n_clusters;
	free(ord);
	return 0;
}

int clusters_build(const struct pair_vec *pairs, struct clusters *out)
{
	struct graph g;
	struct cover c = {0};
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (!graph_build(&g, pairs) && !cover_all(&g, &c, out))
		rc = finish(&c, out);
	if (rc) {
		log_error("out of memory clustering %zu pairs", pairs->n);
		clusters_free(out);
	}
	free(c.members);
	free(c.cstart);
	free(c.off);
	free(c.adj);
	free(c.deg);
	free(c.fill);
	free(c.taken);
	free(c.heap.v);
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
