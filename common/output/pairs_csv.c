/*
 * pairs_csv.c - see pairs_csv.h.
 */
#include "output/pairs_csv.h"

const char *const pairs_csv_header = CSV_HEADER(PAIRS_CSV_COLUMNS, NULL, NULL, 0, NULL);

void pairs_csv_row(struct csv_writer *w, const struct prov_doc *a, const struct prov_doc *b,
		   uint32_t d, const char *match)
{
	CSV_WRITE_ROW(w, PAIRS_CSV_COLUMNS, a, b, d, match);
}
