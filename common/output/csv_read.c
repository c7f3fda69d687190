/*
 * csv_read.c - a byte-at-a-time state machine over getc_unlocked(): the
 * files are read once, in order, and a record is rarely long.
 */
#include "output/csv_read.h"

#include <stdlib.h>
#include <string.h>

static int put_byte(struct csv_record *r, char ch)
{
	if (r->len + 1 >= r->cap) {
		const size_t cap = r->cap ? 2 * r->cap : 256;
		char *b = realloc(r->buf, cap);
		if (!b)
			return -1;
		r->buf = b;
		r->cap = cap;
	}
	r->buf[r->len++] = ch;
	return 0;
}

/* Close the field begun at r->buf + @start. */
static int end_field(struct csv_record *r, size_t start)
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
	r->flen[r->n_fields++] = r->len - start;
	return put_byte(r, '\0');
}

/* A quoted field, after its opening quote: up to and past the closing
 * one.  @return the byte after it, or -2 if the input ends inside. */
static int quoted(FILE *fp, struct csv_record *r)
{
	for (;;) {
		int ch = getc_unlocked(fp);
		if (ch == EOF)
			return -2;
		if (ch == '"') {
			ch = getc_unlocked(fp);
			if (ch != '"')
				return ch;
		}
		if (put_byte(r, (char)ch))
			return -3;
	}
}

int csv_read_record(FILE *fp, struct csv_record *r)
{
	r->len = 0;
	r->n_fields = 0;
	int ch = getc_unlocked(fp);
	if (ch == EOF)
		return 0;
	for (;;) {
		const size_t start = r->len;
		if (ch == '"') {
			ch = quoted(fp, r);
			if (ch < -1)
				return -1;
		} else {
			while (ch != EOF && ch != ',' && ch != '\n' && ch != '\r') {
				if (ch == '"' || put_byte(r, (char)ch))
					return -1;
				ch = getc_unlocked(fp);
			}
		}
		if (end_field(r, start))
			return -1;
		if (ch == ',') {
			ch = getc_unlocked(fp);
			continue;
		}
		if (ch == '\r' && (ch = getc_unlocked(fp)) != '\n')
			return -1;
		if (ch == '\n' || ch == EOF)
			return 1;
		return -1;
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
	free(r->start);
	free(r->flen);
	memset(r, 0, sizeof *r);
}
