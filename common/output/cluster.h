/*
 * cluster.h - from pairs within k to clusters with a bounded radius.
 *
 * Single linkage (union-find over the pairs) chains pages into one giant
 * component through look-alike links: A~B and B~C put A and C together
 * even when they are 2k bits apart.  So union-find only finds the
 * connected components (reported in statistics), and clusters are cut
 * from them by a greedy star cover: repeatedly, the page with the most
 * near-duplicates among the pages not yet clustered becomes a
 * representative, and it takes those neighbours as members.  Every
 * member is then within k of its representative by construction.
 *
 * Representative rule (deterministic): most unclustered neighbours; on a
 * tie, the lowest document index (the earliest record of the input).
 * A page whose neighbours were all taken by other clusters stays out.
 */
#ifndef NDD_CLUSTER_H
#define NDD_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "tables/join.h"

struct clusters {
	size_t n_clusters;
	uint32_t *start;  /* n_clusters + 1 offsets into doc[] */
	uint32_t *doc;    /* members, cluster by cluster, representative first,
			     then by document index */
	size_t n_components;     /* connected components of the pair graph */
	size_t largest_component;
	size_t largest_cluster;
};

/**
 * Build clusters from @pairs (a < b, no repeats, in any order: the
 * clusters do not depend on it).
 * Clusters are numbered in order of their representative's document index.
 * Memory: 4 bytes per document index up to the highest named (below
 * 2^31), besides what the pairs take (the self-join names documents by
 * provenance slot, dense: few indices are in no pair).
 * @return 0, or -1 on OOM (logged).  Free with clusters_free().
 */
int clusters_build(const struct pair_vec *pairs, struct clusters *out)
	__attribute__((warn_unused_result));

void clusters_free(struct clusters *c);

#endif
