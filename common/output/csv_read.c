/*
 * csv_read.c - a record is read a line at a time (getdelim(): the C
 * library finds the line's end), more lines while a quoted field spans
 * them, and its fields are then split and unquoted in place: a field
 * without quotes is not copied at all.
 */
#include "output/csv_read.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "util/simd16.h"

/* The first byte at or after @i of @b[0, @n) that ends a plain field (a
 * comma, LF, CR) or has no place in one (a quote), or @n: 16 bytes a
 * step (a record's fields are short, but a byte loop still cost 9
 * instructions a byte). */
static size_t plain_end(const char *b, size_t i, size_t n)
{
	const v16 comma = v16_splat(','), lf = v16_splat('\n'), cr = v16_splat('\r');
	const v16 quote = v16_splat('"');
	for (; i + 16 <= n; i += 16) {
		const v16 v = v16_load(b + i);
		const unsigned m = v16_mask(v16_or(v16_or(v16_eq(v, comma), v16_eq(v, lf)),
						   v16_or(v16_eq(v, cr), v16_eq(v, quote))));
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
	while (i < n && b[i] != ',' && b[i] != '\n' && b[i] != '\r' && b[i] != '"')
		i++;
	return i;
}

/* Append the next line of @fp ('\n' kept) to the raw record in r->buf at
 * r->len, NUL after it.  @return 1, 0 at the end of the input (or a read
 * error: the caller's ferror() tells), -1 if memory ran out. */
static int read_line(FILE *fp, struct csv_record *r)
{
	if (!r->len) { /* the first line straight into the buffer */
		const ssize_t got = getdelim(&r->buf, &r->cap, '\n', fp);
		if (got <= 0)
			return feof(fp) || ferror(fp) ? 0 : -1;
		r->len = (size_t)got;
		return 1;
	}
	const ssize_t got = getdelim(&r->line, &r->line_cap, '\n', fp);
	if (got <= 0)
		return feof(fp) || ferror(fp) ? 0 : -1;
	if (r->len + (size_t)got + 1 > r->cap) {
		size_t cap = 2 * r->cap;
		while (cap < r->len + (size_t)got + 1)
			cap *= 2;
		char *b = realloc(r->buf, cap);
		if (!b)
			return -1;
		r->buf = b;
		r->cap = cap;
	}
	memcpy(r->buf + r->len, r->line, (size_t)got);
	r->len += (size_t)got;
	r->buf[r->len] = '\0';
	return 1;
}

/* Note the field of @n bytes at r->buf + @start.  @return 0, or -1. */
static int add_field(struct csv_record *r, size_t start, size_t n)
{
	if (r->n_fields == r->cap_fields) {
		const size_t cap = r->cap_fields ? 2 * r->cap_fields : 16;
		size_t *s = realloc(r->start, cap * sizeof *s);
		if (!s)
			return -1;
		r->start = s;
		size_t *l = realloc(r->flen, cap * sizeof *l);
		if (!l)
			return -1;
		r->flen = l;
		r->cap_fields = cap;
	}
	r->start[r->n_fields] = start;
	r->flen[r->n_fields++] = n;
	return 0;
}

/*
 * The raw record is r->buf[0, r->len); *@i reads it and *@w writes the
 * unquoted fields over it (*@w <= *@i: quotes only shrink a field).  A
 * quoted field, from its opening quote to past its closing one; more
 * lines are read while it is open.  @return 0, or -1 if the input ends
 * inside it or memory ran out.
 */
static int quoted(FILE *fp, struct csv_record *r, size_t *i, size_t *w)
{
	size_t ri = *i + 1, wi = *w;
	for (;;) {
		char *const b = r->buf;
		const char *q = memchr(b + ri, '"', r->len - ri);
		const size_t end = q ? (size_t)(q - b) : r->len;
		memmove(b + wi, b + ri, end - ri);
		wi += end - ri;
		ri = end;
		if (!q) {
			if (read_line(fp, r) != 1)
				return -1;
			continue;
		}
		ri++; /* past the quote: doubled, one quote of the text */
		if (ri < r->len && b[ri] == '"') {
			b[wi++] = '"';
			ri++;
			continue;
		}
		*i = ri;
		*w = wi;
		return 0;
	}
}

int csv_read_record(FILE *fp, struct csv_record *r)
{
	r->len = 0;
	r->n_fields = 0;
	const int got = read_line(fp, r);
	if (got <= 0)
		return got;
	size_t i = 0, w = 0;
	for (;;) {
		const size_t start = w;
		if (i < r->len && r->buf[i] == '"') {
			if (quoted(fp, r, &i, &w))
				return -1;
		} else {
			const char *const b = r->buf;
			const size_t j = plain_end(b, i, r->len);
			if (j < r->len && b[j] == '"')
				return -1;
			if (w != i)
				memmove(r->buf + w, b + i, j - i);
			w += j - i;
			i = j;
		}
		/* the byte after the field, read before the field's NUL goes over it */
		const int end = i == r->len ? EOF : (unsigned char)r->buf[i];
		if (add_field(r, start, w - start))
			return -1;
		r->buf[w++] = '\0';
		if (end == ',') {
			i++;
			continue;
		}
		if (end == '\r' && (++i == r->len || r->buf[i] != '\n'))
			return -1;
		return end == EOF || end == '\n' || end == '\r' ? 1 : -1;
	}
}

const char *csv_field_at(const struct csv_record *r, size_t i)
{
	return i < r->n_fields ? r->buf + r->start[i] : "";
}

size_t csv_field_len(const struct csv_record *r, size_t i)
{
	return i < r->n_fields ? r->flen[i] : 0;
}

long csv_column(const struct csv_record *header, const char *name)
{
	for (size_t i = 0; i < header->n_fields; i++)
		if (!strcmp(csv_field_at(header, i), name))
			return (long)i;
	return -1;
}

int csv_parse_u64(const char *s, size_t n, uint64_t *v)
{
	*v = 0;
	if (n == 0 || n > 19)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return 0;
}

int csv_field_u64(const struct csv_record *r, size_t i, uint64_t *v)
{
	return csv_parse_u64(csv_field_at(r, i), csv_field_len(r, i), v);
}

void csv_record_free(struct csv_record *r)
{
	free(r->buf);
	free(r->line);
	free(r->start);
	free(r->flen);
	memset(r, 0, sizeof *r);
}
