/*
 * pairs_csv.h - ndd-self-join --pairs: every pair within k as text, one
 * row per pair (a < b by document index), each page named by its key (the
 * URL, or the key of an imported fingerprint).
 */
#ifndef NDD_PAIRS_CSV_H
#define NDD_PAIRS_CSV_H

#include <stdint.h>

#include "output/csv_columns.h"

/* The columns of the row of pages @a and @b, @d bits apart, their type
 * @match (prov_match_name(); csv_columns.h). */
#define PAIRS_CSV_COLUMNS(X, a, b, d, match)                                                \
	X("key_a", csv_put_field(p, (a)->url, (a)->url_len), CSV_FIELD_BOUND((a)->url_len)) \
	X("key_b", csv_put_field(p, (b)->url, (b)->url_len), CSV_FIELD_BOUND((b)->url_len)) \
	X("distance", csv_put_u64(p, d), CSV_U64_BOUND)                                     \
	X("match", csv_put_str(p, match), CSV_MATCH_BOUND)

/** The header row, CRLF included. */
extern const char *const pairs_csv_header;

/** Append the row of pages @a and @b, @d bits apart, of type @match.  A
 * failed allocation or write is recorded in @w->err. */
void pairs_csv_row(struct csv_writer *w, const struct prov_doc *a, const struct prov_doc *b,
		   uint32_t d, const char *match);

#endif
