/*
 * documents_csv.c - see documents_csv.h.
 */
#include "output/documents_csv.h"

const char *const documents_csv_header = CSV_HEADER(DOCUMENTS_CSV_COLUMNS, NULL);

char *documents_csv_put(char *p, const struct documents_row *w)
{
	CSV_PUT_ROW(DOCUMENTS_CSV_COLUMNS, w);
	return p;
}
