/*
 * keep.h - which copy of each group of tonight's pages documents.csv
 * keeps.
 *
 * A group is one of tonight's clusters with every page of an earlier
 * night that matches one of its members; a page of tonight in no cluster
 * is a group of its own.  One copy of a group is kept, by the --keep rule,
 * and every other page of tonight in it is dropped, naming the kept copy.
 * ndd-documents (with earlier nights) and ndd-self-join (tonight alone)
 * both decide here, so their documents.csv are the same bytes.
 *
 * Use: keep_clusters_read() or keep_clusters_from(); a keep_plan with
 * tonight's provenance (every clustered page, and every page of tonight
 * an earlier page matches, loaded), then keep_decide(); then
 * documents_csv_write() (documents_csv.h) reads the decisions.
 */
#ifndef NDD_KEEP_H
#define NDD_KEEP_H

#include <stddef.h>
#include <stdint.h>

#include "output/cluster.h"
#include "output/provenance.h"

enum keep_rule {
	KEEP_EARLIEST,     /* earliest night, then WARC-Date, then input order */
	KEEP_MOST_LINKED,  /* most near-duplicates in its group */
	KEEP_SHORTEST_URL,
};

/** The rule named @name ("earliest", "most-linked", "shortest-url") into
 * *@rule.  @return 0, or -1 for another name (not logged). */
int keep_rule_parse(const char *name, enum keep_rule *rule);

/* Tonight's clusters by document index: what clusters.csv says. */
struct keep_clusters {
	uint32_t *cid;  /* per document: its cluster (from 1), 0 = none */
	uint32_t *size; /* per cluster id: its members */
	uint32_t *rep;  /* per cluster id: its representative */
	uint32_t n_clusters;
};

/**
 * The clusters of ndd-self-join's clusters.csv at @path, for documents
 * 0..@n_docs-1 (its columns cluster_id, doc_id, is_representative).
 * @return 0, or -1 (logged, naming the file and row).
 */
int keep_clusters_read(struct keep_clusters *kc, const char *path, size_t n_docs)
	__attribute__((warn_unused_result));

/**
 * The clusters @cl, whose members are slots of provenance @d (cluster i
 * numbered i + 1, as the cluster CSV numbers it), for documents
 * 0..@n_docs-1.  @return 0, or -1 on OOM (logged).
 */
int keep_clusters_from(struct keep_clusters *kc, const struct clusters *cl,
		       const struct provenance *d, size_t n_docs) __attribute__((warn_unused_result));

/** Free; the struct may be zeroed. */
void keep_clusters_free(struct keep_clusters *kc);

/* An earlier night: its name in documents.csv and its pages' provenance
 * (those an earlier-night pair names). */
struct keep_night {
	const char *name;
	const struct provenance *prov;
};

/* A copy that may be kept: document @idx of night @night (tonight is
 * n_nights), with @links near-duplicates in its group. */
struct keep_cand {
	uint32_t night, idx, links;
};
#define KEEP_NO_NIGHT UINT32_MAX

/* A pair of an earlier night's page @s and tonight's @t, in group @g. */
struct keep_cross {
	size_t g;
	uint32_t night, s, t;
};

struct keep_plan {
	enum keep_rule rule;
	const struct provenance *tonight; /* documents by their index */
	const struct keep_clusters *cl;
	const struct keep_night *nights; /* oldest first */
	int n_nights;
	struct keep_cand *win; /* per group (keep_decide()): the kept copy */
	size_t n_win;          /* groups with an entry; a page of tonight in
				  a group past them is kept */
};

/** The group of tonight's document @t: its cluster's, else its own. */
static inline size_t keep_group(const struct keep_plan *p, uint32_t t)
{
	const uint32_t c = p->cl->cid[t];
	return c ? c - 1 : (size_t)p->cl->n_clusters + t;
}

/** Sort @n cross pairs by group, night and earlier page, as
 * keep_decide() wants them. */
void keep_cross_sort(struct keep_cross *x, size_t n);

/**
 * The kept copy of every group: tonight's clusters, then the pairs @x
 * (keep_cross_sort()ed; none when no earlier night is looked up).
 * @return 0, or -1 on OOM (logged).
 */
int keep_decide(struct keep_plan *p, const struct keep_cross *x, size_t nx)
	__attribute__((warn_unused_result));

/**
 * The copy kept in place of tonight's document @t, or NULL if @t is kept
 * itself (or is in a group of its own).
 */
const struct keep_cand *keep_dropped_for(const struct keep_plan *p, uint32_t t);

/** The provenance of candidate @c's night. */
static inline const struct provenance *keep_cand_prov(const struct keep_plan *p,
						     const struct keep_cand *c)
{
	return c->night == (uint32_t)p->n_nights ? p->tonight : p->nights[c->night].prov;
}

/** Free the decisions. */
void keep_plan_free(struct keep_plan *p);

#endif
