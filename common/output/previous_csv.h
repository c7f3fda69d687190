/*
 * previous_csv.h - ndd-query's CSV (run_pipeline.sh's previous.csv): one
 * row per (new page, stored page) pair within k, each page where it is
 * (the location columns of csv_columns.h, prefixed), then the distance and
 * the kind of match.
 */
#ifndef NDD_PREVIOUS_CSV_H
#define NDD_PREVIOUS_CSV_H

#include <stdint.h>

#include "output/csv_columns.h"

/* The columns of the row of new page @q, stored page @m, @d bits apart,
 * their type @match (prov_match_name(); csv_columns.h). */
#define PREVIOUS_CSV_COLUMNS(X, q, m, d, match)                             \
	LOCATION_CSV_COLUMNS(X, "query_", q)                                \
	LOCATION_CSV_COLUMNS(X, "match_", m)                                \
	X("distance", csv_put_u64(p, d), CSV_U64_BOUND)                     \
	X("match", csv_put_str(p, match), CSV_MATCH_BOUND)

/** The header row, CRLF included. */
extern const char *const previous_csv_header;

/** Append the row of new page @q matching stored page @m at distance @d,
 * of type @match.  A failed allocation or write is recorded in @w->err. */
void previous_csv_row(struct csv_writer *w, const struct prov_doc *q, const struct prov_doc *m,
		      uint32_t d, const char *match);

#endif
