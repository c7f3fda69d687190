/*
 * csv.h - RFC 4180 output: fields separated by commas, records ended by
 * CRLF, a field quoted when it holds a comma, a quote, CR or LF, quotes
 * inside doubled.  Downstream tools parse the cluster CSV with stock
 * CSV readers, so URLs with commas or quotes must survive.  Numbers are
 * formatted by hand: a night's CSV has millions of rows, and printf's
 * format parsing was a visible share of self-join's time.
 */
#ifndef NDD_CSV_H
#define NDD_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Write one field (no separator); @len bytes of @s. */
void csv_field(FILE *fp, const char *s, size_t len);

/** Write @v in decimal. */
void csv_u64(FILE *fp, uint64_t v);

/** Write @v as 16 lower-case hex digits. */
void csv_hex64(FILE *fp, uint64_t v);

/** Write a separator comma. */
static inline void csv_sep(FILE *fp)
{
	putc(',', fp);
}

/** End a record. */
static inline void csv_end(FILE *fp)
{
	fputs("\r\n", fp);
}

#endif
