/*
 * cluster.c - see cluster.h.  Documents that appear in pairs are renumbered
 * densely (nodes), the graph is held in CSR form, and the greedy cover
 * runs component by component.
 */
#include "cluster.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"

struct graph {
	size_t n;        /* nodes */
	uint32_t *doc;   /* node -> document index, ascending */
	uint32_t *node;  /* document index -> node (dense; only docs in pairs set) */
	size_t *off;     /* CSR offsets, n + 1 */
	uint32_t *adj;   /* neighbours (nodes) */
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Nodes are the documents that occur in pairs, numbered in document order
 * through a dense map (4 bytes per document up to the largest in a pair),
 * which is cheaper than searching a sorted list for every pair end. */
static int number_nodes(struct graph *g, const struct pair_vec *pv)
{
	uint32_t max = 0;
	for (size_t i = 0; i < pv->n; i++)
		if (pv->v[i].b > max)
			max = pv->v[i].b;
	g->node = malloc(((size_t)max + 1) * sizeof *g->node);
	if (!g->node)
		return -1;
	memset(g->node, 0xff, ((size_t)max + 1) * sizeof *g->node);
	for (size_t i = 0; i < pv->n; i++)
		g->node[pv->v[i].a] = g->node[pv->v[i].b] = 0;
	size_t n = 0;
	for (uint32_t d = 0; d <= max && pv->n; d++)
		if (g->node[d] == 0)
			n++;
	g->doc = malloc((n + 1) * sizeof *g->doc);
	if (!g->doc)
		return -1;
	for (uint32_t d = 0; d <= max && pv->n; d++)
		if (g->node[d] == 0) {
			g->node[d] = (uint32_t)g->n;
			g->doc[g->n++] = d;
		}
	return 0;
}

static int graph_build(struct graph *g, const struct pair_vec *pv)
{
	memset(g, 0, sizeof *g);
	if (number_nodes(g, pv))
		return -1;
	g->off = calloc(g->n + 1, sizeof *g->off);
	g->adj = malloc((2 * pv->n + 1) * sizeof *g->adj);
	size_t *fill = malloc((g->n + 1) * sizeof *fill);
	if (!g->off || !g->adj || !fill) {
		free(fill);
		return -1;
	}
	for (size_t i = 0; i < pv->n; i++) {
		g->off[g->node[pv->v[i].a] + 1]++;
		g->off[g->node[pv->v[i].b] + 1]++;
	}
	for (size_t i = 0; i < g->n; i++)
		g->off[i + 1] += g->off[i];
	memcpy(fill, g->off, (g->n + 1) * sizeof *fill);
	for (size_t i = 0; i < pv->n; i++) {
		uint32_t a = g->node[pv->v[i].a], b = g->node[pv->v[i].b];
		g->adj[fill[a]++] = b;
		g->adj[fill[b]++] = a;
	}
	free(fill);
	return 0;
}

static void graph_free(struct graph *g)
{
	free(g->node);
	free(g->doc);
	free(g->off);
	free(g->adj);
}

/* ---- connected components (union-find, path halving, to the lowest) ---- */

static uint32_t uf_find(uint32_t *parent, uint32_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

/*
 * Group the nodes by component: on return comp_node[comp_start[c] ..
 * comp_start[c + 1]) lists component c's nodes in ascending order, and
 * components are numbered by their lowest node.  Union to the lower root
 * keeps each root the component's lowest node, so one counting pass does
 * the grouping.
 */
static int components(const struct graph *g, uint32_t **comp_start, uint32_t **comp_node,
		      size_t *n_comp)
{
	uint32_t *parent = malloc((g->n + 1) * sizeof *parent);
	uint32_t *start = NULL, *node = malloc((g->n + 1) * sizeof *node);
	if (!parent || !node)
		goto oom;
	for (size_t i = 0; i < g->n; i++)
		parent[i] = (uint32_t)i;
	for (size_t v = 0; v < g->n; v++)
		for (size_t e = g->off[v]; e < g->off[v + 1]; e++) {
			uint32_t a = uf_find(parent, (uint32_t)v), b = uf_find(parent, g->adj[e]);
			if (a != b)
				parent[a < b ? b : a] = a < b ? a : b;
		}
	for (size_t v = 0; v < g->n; v++) /* every node straight to its root */
		parent[v] = uf_find(parent, (uint32_t)v);
	/* parent[] becomes the component number: a root (its component's lowest
	 * node) is numbered before any other node of its component reads it */
	size_t nc = 0;
	for (size_t v = 0; v < g->n; v++)
		parent[v] = parent[v] == v ? (uint32_t)nc++ : parent[parent[v]];
	start = calloc(nc + 2, sizeof *start);
	if (!start)
		goto oom;
	for (size_t v = 0; v < g->n; v++)
		start[parent[v] + 2]++;
	for (size_t c = 0; c < nc; c++)
		start[c + 2] += start[c + 1];
	for (size_t v = 0; v < g->n; v++)
		node[start[parent[v] + 1]++] = (uint32_t)v;
	free(parent);
	*comp_start = start;
	*comp_node = node;
	*n_comp = nc;
	return 0;
oom:
	free(parent);
	free(node);
	return -1;
}

/* ---- greedy star cover, one component at a time ---- */

/*
 * The greedy's choices in one component depend only on that component, so
 * covering the components one by one gives the same clusters as one
 * global pass, with the working set of a component instead of the whole
 * graph.  Most components are a pair or a handful of pages: those take a
 * linear scan for the best node; a large one uses a max-heap with lazy
 * updates (an entry whose degree went stale is pushed again with the
 * current degree when it reaches the top).
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
	const struct graph *g;
	uint32_t *deg;      /* unclustered neighbours */
	uint8_t *taken;     /* in a cluster already */
	uint32_t *members;  /* by cluster, in creation order */
	uint32_t *cstart;
	size_t n_members, n_clusters;
};

static void take(struct cover *c, uint32_t v)
{
	c->taken[v] = 1;
	c->members[c->n_members++] = v;
	for (size_t e = c->g->off[v]; e < c->g->off[v + 1]; e++)
		c->deg[c->g->adj[e]]--;
}

static void make_cluster(struct cover *c, uint32_t rep)
{
	uint32_t id = (uint32_t)c->n_clusters++;
	c->cstart[id] = (uint32_t)c->n_members;
	take(c, rep);
	for (size_t e = c->g->off[rep]; e < c->g->off[rep + 1]; e++)
		if (!c->taken[c->g->adj[e]])
			take(c, c->g->adj[e]);
	c->cstart[id + 1] = (uint32_t)c->n_members;
}

/* Components up to this size pick their next representative by a scan. */
#define SCAN_COMPONENT 32

static void cover_small(struct cover *c, const uint32_t *node, size_t n)
{
	for (;;) {
		uint32_t best = UINT32_MAX, best_deg = 0;
		for (size_t i = 0; i < n; i++) /* ascending nodes: first max wins ties */
			if (!c->taken[node[i]] && c->deg[node[i]] > best_deg) {
				best = node[i];
				best_deg = c->deg[node[i]];
			}
		if (best == UINT32_MAX)
			return;
		make_cluster(c, best);
	}
}

static void cover_large(struct cover *c, struct heap *h, const uint32_t *node, size_t n)
{
	h->n = 0;
	for (size_t i = 0; i < n; i++)
		heap_push(h, (struct heap_item){c->deg[node[i]], node[i]});
	while (h->n) {
		struct heap_item it = heap_pop(h);
		if (c->taken[it.node] || c->deg[it.node] == 0)
			continue;
		if (it.deg != c->deg[it.node]) {
			heap_push(h, (struct heap_item){c->deg[it.node], it.node});
			continue;
		}
		make_cluster(c, it.node);
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

/* Renumber clusters by representative document; members after the
 * representative in document order (nodes ascend with documents).
 * Components are covered in order of their lowest node, and a cluster's
 * representative is not always its component's lowest, hence the sort. */
static int finish(const struct cover *c, struct clusters *out)
{
	struct order_item *ord = malloc((c->n_clusters + 1) * sizeof *ord);
	out->start = malloc((c->n_clusters + 1) * sizeof *out->start);
	out->doc = malloc((c->n_members + 1) * sizeof *out->doc);
	if (!ord || !out->start || !out->doc) {
		free(ord);
		return -1;
	}
	for (size_t i = 0; i < c->n_clusters; i++)
		ord[i] = (struct order_item){c->g->doc[c->members[c->cstart[i]]], (uint32_t)i};
	int sorted = 1;
	for (size_t i = 1; i < c->n_clusters && sorted; i++)
		sorted = ord[i - 1].rep_doc < ord[i].rep_doc;
	if (!sorted)
		qsort(ord, c->n_clusters, sizeof *ord, cmp_order);
	size_t at = 0;
	for (size_t i = 0; i < c->n_clusters; i++) {
		uint32_t s = c->cstart[ord[i].cluster], e = c->cstart[ord[i].cluster + 1];
		out->start[i] = (uint32_t)at;
		uint32_t *m = out->doc + at;
		for (uint32_t j = s; j < e; j++)
			m[j - s] = c->g->doc[c->members[j]];
		sort_u32(m + 1, e - s - 1);
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
	struct heap h = {0};
	uint32_t *comp_start = NULL, *comp_node = NULL;
	size_t n_comp = 0;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (graph_build(&g, pairs) || components(&g, &comp_start, &comp_node, &n_comp))
		goto done;
	c.g = &g;
	c.deg = malloc((g.n + 1) * sizeof *c.deg);
	c.taken = calloc(g.n + 1, 1);
	c.members = malloc((g.n + 1) * sizeof *c.members);
	c.cstart = malloc((g.n + 2) * sizeof *c.cstart);
	if (!c.deg || !c.taken || !c.members || !c.cstart)
		goto done;
	for (size_t v = 0; v < g.n; v++)
		c.deg[v] = (uint32_t)(g.off[v + 1] - g.off[v]);
	out->n_components = n_comp;
	size_t largest = 0;
	for (size_t i = 0; i < n_comp; i++)
		if (comp_start[i + 1] - comp_start[i] > largest)
			largest = comp_start[i + 1] - comp_start[i];
	out->largest_component = largest;
	if (largest > SCAN_COMPONENT && !(h.v = malloc(largest * sizeof *h.v)))
		goto done;
	for (size_t i = 0; i < n_comp; i++) {
		const uint32_t *node = comp_node + comp_start[i];
		size_t n = comp_start[i + 1] - comp_start[i];
		if (n == 2) /* the common case: one pair, the earlier page leads */
			make_cluster(&c, node[0]);
		else if (n <= SCAN_COMPONENT)
			cover_small(&c, node, n);
		else
			cover_large(&c, &h, node, n);
	}
	rc = finish(&c, out);
done:
	if (rc) {
		log_error("out of memory clustering %zu pairs", pairs->n);
		clusters_free(out);
	}
	free(comp_start);
	free(comp_node);
	free(c.deg);
	free(c.taken);
	free(c.members);
	free(c.cstart);
	free(h.v);
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
