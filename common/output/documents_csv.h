/*
 * documents_csv.h - documents.csv: one row per document of tonight, in
 * input order, with what to do with it: keep it, or drop it as a copy of
 * another page (of tonight or of an earlier night); and its statistics,
 * documents.json.  Its contract: the README's "documents.csv".  Written
 * by ndd-documents, and by ndd-self-join when no earlier night is looked
 * up, through documents_csv_write(): the same bytes either way.
 */
#ifndef NDD_DOCUMENTS_CSV_H
#define NDD_DOCUMENTS_CSV_H

#include <stdint.h>

#include "format/docrec.h"
#include "output/csv_columns.h"
#include "output/keep.h"

struct outfile;

/* A row: document @r, its cluster (0: in none), and its decision. */
struct documents_row {
	const struct fp_record *r;
	uint64_t cluster_id;
	int drop;
	struct str dup_url;   /* the kept copy's URL when dropped, else empty */
	struct str dup_night; /* the kept copy's night if earlier, else empty */
	const char *match;    /* dropped: its type against the kept copy
			       * (prov_match_name()), else "" */
};

/* The columns of row @w (a const struct documents_row *; csv_columns.h).
 * Its strings are never NULL pointers. */
#define DOCUMENTS_CSV_COLUMNS(X, w)                                                           \
	X("url", csv_put_field(p, (w)->r->url.p, (w)->r->url.n),                              \
	  CSV_FIELD_BOUND((w)->r->url.n))                                                     \
	X("warc_file", csv_put_field(p, (w)->r->warc_file.p, (w)->r->warc_file.n),            \
	  CSV_FIELD_BOUND((w)->r->warc_file.n))                                               \
	X("warc_offset", csv_put_u64(p, (w)->r->warc_offset), CSV_U64_BOUND)                  \
	X("record_id", csv_put_field(p, (w)->r->record_id.p, (w)->r->record_id.n),            \
	  CSV_FIELD_BOUND((w)->r->record_id.n))                                               \
	X("warc_date", csv_put_field(p, (w)->r->date.p, (w)->r->date.n),                      \
	  CSV_FIELD_BOUND((w)->r->date.n))                                                    \
	X("fingerprint", csv_put_hex64(p, (w)->r->simhash), CSV_HEX64_BOUND)                  \
	X("cluster_id", (w)->cluster_id ? csv_put_u64(p, (w)->cluster_id) : p, CSV_U64_BOUND) \
	X("decision", csv_put_str(p, (w)->drop ? "drop" : "keep"), 4)                         \
	X("duplicate_of", csv_put_field(p, (w)->dup_url.p, (w)->dup_url.n),                   \
	  CSV_FIELD_BOUND((w)->dup_url.n))                                                    \
	X("duplicate_of_night", csv_put_field(p, (w)->dup_night.p, (w)->dup_night.n),         \
	  CSV_FIELD_BOUND((w)->dup_night.n))                                                  \
	X("match", csv_put_str(p, (w)->match), CSV_MATCH_BOUND)

/** The header row, CRLF included. */
extern const char *const documents_csv_header;

/** The most bytes documents_csv_put() writes for @w. */
static inline size_t documents_csv_bound(const struct documents_row *w)
{
	return CSV_ROW_BOUND(DOCUMENTS_CSV_COLUMNS, w);
}

/** Write row @w at @p (documents_csv_bound() bytes of room), CRLF
 * included.  @return the end of the row. */
char *documents_csv_put(char *p, const struct documents_row *w);

/* What documents.csv says of tonight's pages. */
struct documents_counts {
	uint64_t kept, dropped, dropped_earlier;
	uint64_t by_match[4]; /* dropped, by their match column (enum prov_match) */
};

/**
 * Write documents.csv to @out (opened by the caller, who commits it):
 * the header, then a row per record of the catalog @paths[0..n), in
 * order, decided by @p (keep_decide()).  The catalog must hold
 * @p->tonight->n_docs records.  *@c gets the counts.
 * @return 0, or -1 (logged).
 */
int documents_csv_write(const struct keep_plan *p, const char *const *paths, int n,
			struct outfile *out, struct documents_counts *c)
	__attribute__((warn_unused_result));

/* documents.json: the counts and what the stage read. */
struct documents_stats {
	size_t documents;
	struct documents_counts c;
	int earlier_nights;
	uint64_t earlier_pairs, blocks_read; /* of the earlier nights' look-up */
	double seconds;
};

/**
 * Write @s as JSON to @path (published atomically), with the bytes this
 * process has read so far (bytes_read, from /proc; 0 if unknown).
 * @return 0, or -1 (logged).
 */
int documents_stats_write(const char *path, const struct documents_stats *s)
	__attribute__((warn_unused_result));

#endif
