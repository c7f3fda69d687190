/*
 * clusters_csv.c - see clusters_csv.h.
 */
#include "output/clusters_csv.h"

const char *const clusters_csv_header = CSV_HEADER(CLUSTERS_CSV_COLUMNS, 0, NULL, NULL, NULL);

/* Inline in clusters_csv_rows(): a row is a dozen short appends, and the
 * call and the room check are a visible share of it. */
static inline void put_row(struct csv_writer *w, uint64_t id, const struct prov_doc *rep,
			   const struct prov_doc *m, const char *match)
{
	CSV_WRITE_ROW(w, CLUSTERS_CSV_COLUMNS, id, rep, m, match);
}

void clusters_csv_row(struct csv_writer *w, uint64_t id, const struct prov_doc *rep,
		      const struct prov_doc *m, const char *match)
{
	put_row(w, id, rep, m, match);
}

/*
 * Members are scattered over the provenance (a cluster joins pages from
 * anywhere in the night), so the loads are issued ahead of use: the
 * record of a member 24 rows on, its URL 8 rows on (far enough behind the
 * load it depends on for that one to have arrived).
 */
void clusters_csv_rows(struct csv_writer *w, const struct clusters *cl,
		       const struct provenance *d, size_t lo, size_t hi)
{
	const uint32_t first = cl->start[lo], end = cl->start[hi];
	size_t c = lo;
	const struct prov_doc *rep = NULL;
	for (uint32_t i = first; i < end; i++) {
		if (i + 24 < end)
			__builtin_prefetch(prov_at(d, cl->doc[i + 24]));
		if (i + 8 < end)
			__builtin_prefetch(prov_at(d, cl->doc[i + 8])->url);
		while (i >= cl->start[c + 1])
			c++;
		const struct prov_doc *m = prov_at(d, cl->doc[i]);
		if (i == cl->start[c])
			rep = m;
		put_row(w, c + 1, rep, m, rep == m ? "rep" : prov_match_kind(d, rep, d, m));
	}
}
