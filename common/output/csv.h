/*
 * csv.h - RFC 4180 output: fields separated by commas, records ended by
 * CRLF, a field quoted when it holds a comma, a quote, CR or LF, quotes
 * inside doubled.  Downstream tools parse the cluster CSV with stock
 * CSV readers, so URLs with commas or quotes must survive.
 *
 * Rows are formatted into a memory buffer by hand (a night's CSV has
 * millions of rows: printf's format parsing, or one locked stdio call
 * per field, would each be a visible share of self-join's time).  A
 * writer on an output file (outfile.h, so a bulk output is written
 * past the page cache the same way) flushes whenever the buffer passes a
 * threshold; a writer without one only grows, so threads can format parts
 * of the output side by side and write the parts in order.
 */
#ifndef NDD_CSV_H
#define NDD_CSV_H

#include "util/simd16.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct outfile;

/* A writer on an output writes in pieces of about this size. */
#define CSV_FLUSH_AT (256u << 10)

struct csv_writer {
	struct outfile *out; /* NULL: memory only */
	char *buf;
	size_t len, cap;
	int err;       /* a write or an allocation failed */
};

/** Start a writer on @out, or in memory when @out is NULL. */
void csv_init(struct csv_writer *w, struct outfile *out);

/** Write out what is buffered (no-op in memory).  @return 0 or -1. */
int csv_flush(struct csv_writer *w);

/** Flush and free the buffer.  @return 0, or -1 if anything failed. */
int csv_close(struct csv_writer *w);

/** Make room for @n more bytes (flushing first when it has an output). */
int csv_reserve_slow(struct csv_writer *w, size_t n);

static inline char *csv_room(struct csv_writer *w, size_t n)
{
	if (w->cap - w->len < n && csv_reserve_slow(w, n))
		return NULL;
	return w->buf + w->len;
}

/*
 * The appends are inline: a row is a dozen of them, and as calls into
 * another file each paid a call, a room check the compiler could not
 * merge and a memcpy of unknown length (a fifth of the CSV's time).
 */

/** Append @len raw bytes (no quoting). */
static inline void csv_raw(struct csv_writer *w, const char *s, size_t len)
{
	char *p = csv_room(w, len);
	if (p && len) {
		memcpy(p, s, len);
		w->len += len;
	}
}

/** Whether a field of @len bytes at @s must be quoted. */
int csv_needs_quotes(const char *s, size_t len);

/** Append @len bytes as a quoted field (quotes inside doubled). */
void csv_quoted(struct csv_writer *w, const char *s, size_t len);

/** Append one field (no separator), quoted if it needs to be. */
static inline void csv_field(struct csv_writer *w, const char *s, size_t len)
{
	if (csv_needs_quotes(s, len))
		csv_quoted(w, s, len);
	else
		csv_raw(w, s, len);
}

/*
 * Appends at a cursor, for a writer that made room for a whole row with
 * one csv_room() (the bounds below): a row is a dozen fields, and a room
 * check and a length update per field would cost a good part of its
 * instructions.
 * Each returns the new end; csv_commit() records the last one.
 */
#define CSV_U64_BOUND 20
#define CSV_HEX64_BOUND 16
/* A field of @len bytes, quoted with every byte a quote at worst. */
#define CSV_FIELD_BOUND(len) (2 * (size_t)(len) + 2)

extern const char csv_digit_pairs[200]; /* "00" "01" ... "99" */
extern const uint64_t csv_pow10[20];    /* 1, 10, ... 10^19 */

/** Decimal digits of @v (1 for 0): its bits times log10(2) (1233 / 4096)
 * is the count or one less, which one compare tells. */
static inline unsigned csv_u64_digits(uint64_t v)
{
	const uint64_t x = v | 1; /* the same count; clz of 0 is undefined */
	const unsigned t = (unsigned)(64 - __builtin_clzll(x)) * 1233 >> 12;
	return t + (x >= csv_pow10[t]);
}

/** @v in decimal at @p. */
static inline char *csv_put_u64(char *p, uint64_t v)
{
	/* written from its last digit back, two a step: the length first, so
	 * no scratch buffer is cleared and copied for every number */
	char *const end = p + csv_u64_digits(v);
	char *q = end;
	while (v >= 100) {
		const unsigned r = (unsigned)(v % 100);
		v /= 100;
		q -= 2;
		memcpy(q, csv_digit_pairs + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(q - 2, csv_digit_pairs + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return end;
}

/** @v as 16 lower-case hex digits at @p. */
static inline char *csv_put_hex64(char *p, uint64_t v)
{
	/* the nibbles, most significant first, one per byte, each looked up
	 * in a table of the 16 digits */
	const v16 x = v16_from64(__builtin_bswap64(v), 0);
	const v16 nib = v16_zip_lo(v16_high_nibbles(x), v16_and(x, v16_splat(0x0F)));
	const v16 digits = v16_bytes('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c',
				     'd', 'e', 'f');
	v16_store(p, v16_lookup(digits, nib));
	return p + CSV_HEX64_BOUND;
}

/** @len raw bytes at @p. */
static inline char *csv_put_raw(char *p, const char *s, size_t len)
{
	memcpy(p, s, len);
	return p + len;
}

/** @len bytes as a quoted field at @p (quotes inside doubled). */
char *csv_put_quoted(char *p, const char *s, size_t len);

/** One field at @p, quoted if it needs to be. */
static inline char *csv_put_field(char *p, const char *s, size_t len)
{
	return csv_needs_quotes(s, len) ? csv_put_quoted(p, s, len) : csv_put_raw(p, s, len);
}

/** The appends at a cursor from csv_room(@w, ...) end at @end. */
static inline void csv_commit(struct csv_writer *w, const char *end)
{
	w->len = (size_t)(end - w->buf);
}

/** Append @v in decimal. */
static inline void csv_u64(struct csv_writer *w, uint64_t v)
{
	char *p = csv_room(w, CSV_U64_BOUND);
	if (p)
		csv_commit(w, csv_put_u64(p, v));
}

/** Append @v as 16 lower-case hex digits. */
static inline void csv_hex64(struct csv_writer *w, uint64_t v)
{
	char *p = csv_room(w, CSV_HEX64_BOUND);
	if (p)
		csv_commit(w, csv_put_hex64(p, v));
}

/** Append a separator comma. */
static inline void csv_sep(struct csv_writer *w)
{
	char *p = csv_room(w, 1);
	if (p) {
		*p = ',';
		w->len++;
	}
}

/** End a record, and flush if the buffer is full enough. */
static inline void csv_end(struct csv_writer *w)
{
	csv_raw(w, "\r\n", 2);
	if (w->out && w->len >= CSV_FLUSH_AT)
		csv_flush(w);
}

#endif
