/*
 * csv_read.h - reading RFC 4180 CSV one record at a time: the outputs of
 * the stages (clusters.csv, documents.csv) read back by ndd-report.
 *
 * A record is read from a FILE into a buffer owned by the caller's
 * struct csv_record; its fields are unquoted (doubled quotes undone) and
 * NUL-terminated there.  Quoted fields may hold commas, CR and LF.  CRLF
 * and LF both end a record.
 */
#ifndef NDD_OUTPUT_CSV_READ_H
#define NDD_OUTPUT_CSV_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct csv_record {
	char *buf;        /* the raw record, then its fields over it, each NUL-terminated */
	size_t len, cap;
	size_t *start;    /* field i starts at buf + start[i] */
	size_t *flen;     /* and is flen[i] bytes long */
	size_t n_fields, cap_fields;
	char *line;       /* a record's further lines, while a quoted field spans them */
	size_t line_cap;
};

/**
 * Read the next record of @fp into @r (its buffers grown and reused).
 * @return 1 for a record, 0 at the end of the input, -1 if the bytes are
 * not CSV (a quote inside an unquoted field, text after a closing quote,
 * a quoted field the input ends in) or memory ran out.  Not logged.
 */
int csv_read_record(FILE *fp, struct csv_record *r);

/** Field @i of @r (NUL-terminated), or "" past the last field. */
const char *csv_field_at(const struct csv_record *r, size_t i);

/** Bytes of field @i of @r (0 past the last field). */
size_t csv_field_len(const struct csv_record *r, size_t i);

/**
 * Parse @n bytes at @s as a plain decimal number (digits only, at most
 * 19 of them, so it cannot overflow) into @v.  @return 0, or -1.
 */
int csv_parse_u64(const char *s, size_t n, uint64_t *v);

/** csv_parse_u64() of field @i of @r. */
int csv_field_u64(const struct csv_record *r, size_t i, uint64_t *v);

/** The index of the field equal to @name in @header, or -1. */
long csv_column(const struct csv_record *header, const char *name);

/** Free @r's buffers (a zeroed record is fine). */
void csv_record_free(struct csv_record *r);

#endif
