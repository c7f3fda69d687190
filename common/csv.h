/*
 * csv.h - RFC 4180 output: fields separated by commas, records ended by
 * CRLF, a field quoted when it holds a comma, a quote, CR or LF, quotes
 * inside doubled.  Downstream tools parse the cluster CSV with stock
 * CSV readers, so URLs with commas or quotes must survive.
 *
 * Rows are formatted into a memory buffer by hand (a night's CSV has
 * millions of rows: printf's format parsing, and then one locked stdio
 * call per field, were each a visible share of self-join's time).  A
 * writer on an output file (cli.h's outfile, so a bulk output is written
 * past the page cache the same way) flushes whenever the buffer passes a
 * threshold; a writer without one only grows, so threads can format parts
 * of the output side by side and write the parts in order.
 */
#ifndef NDD_CSV_H
#define NDD_CSV_H

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

/** Append @v in decimal. */
static inline void csv_u64(struct csv_writer *w, uint64_t v)
{
	char tmp[20];
	size_t i = sizeof tmp;
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	csv_raw(w, tmp + i, sizeof tmp - i);
}

/** Append @v as 16 lower-case hex digits. */
static inline void csv_hex64(struct csv_writer *w, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char *p = csv_room(w, 16);
	if (!p)
		return;
	for (int i = 15; i >= 0; i--) {
		p[i] = digits[v & 15];
		v >>= 4;
	}
	w->len += 16;
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
