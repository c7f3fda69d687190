/*
 * previous_csv.c - see previous_csv.h.
 */
#include "output/previous_csv.h"

const char *const previous_csv_header = CSV_HEADER(PREVIOUS_CSV_COLUMNS, NULL, NULL, 0, NULL);

void previous_csv_row(struct csv_writer *w, const struct prov_doc *q, const struct prov_doc *m,
		      uint32_t d, const char *match)
{
	CSV_WRITE_ROW(w, PREVIOUS_CSV_COLUMNS, q, m, d, match);
}
