/*
 * csv_columns.h - a CSV file's columns as one table, from which its
 * header, its row writer and the bound of a row's size are all derived,
 * so the three cannot disagree; and the columns that say where a document
 * is, which every CSV naming documents shares.
 *
 * Each CSV file's module (clusters_csv.h, previous_csv.h, pairs_csv.h)
 * defines its table in its header, where a reader finds the columns.  A
 * table is a macro TABLE(X, ...) that calls X(name, put, bound) once per
 * column, in the file's order:
 *  - name: the header's name of the column, a string literal;
 *  - put: an expression that writes the field at the cursor `p` (a
 *    char *, csv.h's csv_put_* appends) and yields the new end;
 *  - bound: the most bytes put can write.
 * Given a table, CSV_HEADER(TABLE, ...) is the header row (an address
 * constant); CSV_ROW_BOUND(TABLE, ...) the room a row needs;
 * CSV_PUT_ROW(TABLE, ...) writes the row at `p`, CRLF included, and
 * CSV_WRITE_ROW(w, TABLE, ...) appends it to a csv_writer.  The arguments
 * after TABLE are the table's own (the row it describes).
 */
#ifndef NDD_CSV_COLUMNS_H
#define NDD_CSV_COLUMNS_H

#include "output/csv.h"
#include "output/provenance.h"

/* Each column is written followed by a comma; the row's last comma then
 * becomes its CR, so a row is its fields, a separator each, and an LF. */
#define CSV_NAME_(name, put, bound) "," name
#define CSV_PUT_(name, put, bound) \
	p = (put);                 \
	*p++ = ',';
#define CSV_BOUND_(name, put, bound) +(size_t)(bound) + 1

/** The header row of TABLE, CRLF included: a const char * to a static
 * string, an address constant. */
#define CSV_HEADER(TABLE, ...) (&(TABLE(CSV_NAME_, __VA_ARGS__) "\r\n")[1])

/** The most bytes CSV_PUT_ROW() of the same arguments writes. */
#define CSV_ROW_BOUND(TABLE, ...) ((size_t)1 TABLE(CSV_BOUND_, __VA_ARGS__))

/** Write a row of TABLE at the cursor `p` (a char * in scope, with
 * CSV_ROW_BOUND() bytes of room), leaving `p` at its end. */
#define CSV_PUT_ROW(TABLE, ...)              \
	do {                                 \
		TABLE(CSV_PUT_, __VA_ARGS__) \
		p[-1] = '\r';                \
		*p++ = '\n';                 \
	} while (0)

/** Append a row of TABLE to csv_writer @w; a failed allocation or write
 * is recorded in @w->err.  A writer on an output flushes when full. */
#define CSV_WRITE_ROW(w, TABLE, ...)                                         \
	do {                                                                 \
		char *p = csv_room(w, CSV_ROW_BOUND(TABLE, __VA_ARGS__));    \
		if (p) {                                                     \
			CSV_PUT_ROW(TABLE, __VA_ARGS__);                     \
			csv_row_end(w, p);                                   \
		}                                                            \
	} while (0)

/** A row written at a cursor of @w ends at @end: commit it, and flush a
 * writer on an output whose buffer is full enough (as csv_end()). */
static inline void csv_row_end(struct csv_writer *w, const char *end)
{
	csv_commit(w, end);
	if (w->out && w->len >= CSV_FLUSH_AT)
		csv_flush(w);
}

/*
 * Where document @d (a const struct prov_doc *) is and what it is, in the
 * contract's order (README's "The output CSV"):
 * url,warc_file,warc_offset,record_id,warc_date,fingerprint; each name
 * begins with @prefix (a string literal, "" for none), for a CSV that
 * names two documents a row.
 */
#define LOCATION_CSV_COLUMNS(X, prefix, d)                                              \
	X(prefix "url", csv_put_field(p, (d)->url, (d)->url_len),                       \
	  CSV_FIELD_BOUND((d)->url_len))                                                \
	X(prefix "warc_file", csv_put_field(p, (d)->warc_file, (d)->warc_file_len),     \
	  CSV_FIELD_BOUND((d)->warc_file_len))                                          \
	X(prefix "warc_offset", csv_put_u64(p, (d)->warc_offset), CSV_U64_BOUND)        \
	X(prefix "record_id", csv_put_field(p, prov_record_id(d).p, prov_record_id(d).n), \
	  CSV_FIELD_BOUND(prov_record_id(d).n))                                         \
	X(prefix "warc_date", csv_put_field(p, prov_date(d).p, prov_date(d).n),         \
	  CSV_FIELD_BOUND(prov_date(d).n))                                              \
	X(prefix "fingerprint", csv_put_hex64(p, (d)->simhash), CSV_HEX64_BOUND)

/* The match column's longest value (prov_match_name(), and "rep"). */
#define CSV_MATCH_BOUND (sizeof "same-content" - 1)

/** @s, a NUL-terminated constant, at @p (its length folds where inlined). */
static inline char *csv_put_str(char *p, const char *s)
{
	return csv_put_raw(p, s, strlen(s));
}

#endif
