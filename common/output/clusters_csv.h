/*
 * clusters_csv.h - the cluster CSV, ndd-self-join's output and the file
 * downstream tools parse (its contract: DESIGN.md, the README's "The output
 * CSV").  One row per member of a cluster, the representative first.
 */
#ifndef NDD_CLUSTERS_CSV_H
#define NDD_CLUSTERS_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "output/cluster.h"
#include "output/csv_columns.h"

/* The columns of the row of member @m of cluster number @id, whose
 * representative is @rep, @m's match column @match (csv_columns.h). */
#define CLUSTERS_CSV_COLUMNS(X, id, rep, m, match)                                         \
	X("cluster_id", csv_put_u64(p, id), CSV_U64_BOUND)                                 \
	LOCATION_CSV_COLUMNS(X, "", m)                                                     \
	X("distance", csv_put_u64(p, (uint64_t)__builtin_popcountll((rep)->simhash ^       \
								    (m)->simhash)),  \
	  CSV_U64_BOUND)                                                                   \
	X("is_representative", csv_put_raw(p, (rep) == (m) ? "1" : "0", 1), 1)             \
	X("match", csv_put_str(p, match), CSV_MATCH_BOUND)                                 \
	X("doc_id", csv_put_u64(p, (m)->doc_id), CSV_U64_BOUND)

/** The header row, CRLF included. */
extern const char *const clusters_csv_header;

/**
 * Append the row of member @m of the cluster numbered @id whose
 * representative is @rep (@m == @rep for the representative's own row),
 * its match column @match ("rep", or prov_match_name()).
 * A failed allocation is recorded in @w->err.
 */
void clusters_csv_row(struct csv_writer *w, uint64_t id, const struct prov_doc *rep,
		      const struct prov_doc *m, const char *match);

/**
 * Append the rows of clusters [@lo, @hi) of @cl, whose members are
 * provenance slots of @d; cluster i is numbered i + 1.  Parts of the
 * clusters can be formatted into separate writers side by side and
 * written in order (csv.h).
 */
void clusters_csv_rows(struct csv_writer *w, const struct clusters *cl,
		       const struct provenance *d, size_t lo, size_t hi);

#endif
