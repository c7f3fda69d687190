/*
 * csv.c - see csv.h.
 */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

/* A writer with a FILE writes in pieces of about this size. */
#define CSV_FLUSH_AT (256u << 10)

void csv_init(struct csv_writer *w, FILE *fp)
{
	memset(w, 0, sizeof *w);
	w->fp = fp;
}

int csv_flush(struct csv_writer *w)
{
	if (w->fp && w->len) {
		if (fwrite_unlocked(w->buf, 1, w->len, w->fp) != w->len)
			w->err = 1;
		w->len = 0;
	}
	return w->err ? -1 : 0;
}

int csv_close(struct csv_writer *w)
{
	int rc = csv_flush(w);
	free(w->buf);
	w->buf = NULL;
	w->len = w->cap = 0;
	return rc;
}

int csv_reserve_slow(struct csv_writer *w, size_t n)
{
	if (w->err)
		return -1;
	if (w->fp && w->len + n > CSV_FLUSH_AT && csv_flush(w))
		return -1;
	if (w->cap - w->len >= n)
		return 0;
	size_t cap = w->cap ? w->cap : 4096;
	while (cap - w->len < n)
		cap *= 2;
	if (w->fp && cap < CSV_FLUSH_AT + n)
		cap = CSV_FLUSH_AT + n;
	char *b = realloc(w->buf, cap);
	if (!b) {
		w->err = 1;
		return -1;
	}
	w->buf = b;
	w->cap = cap;
	return 0;
}

void csv_raw(struct csv_writer *w, const char *s, size_t len)
{
	if (!len)
		return;
	char *p = csv_room(w, len);
	if (p) {
		memcpy(p, s, len);
		w->len += len;
	}
}

void csv_field(struct csv_writer *w, const char *s, size_t len)
{
	int quote = 0;
	for (size_t i = 0; i < len && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
	if (!quote) {
		csv_raw(w, s, len);
		return;
	}
	char *p = csv_room(w, 2 * len + 2); /* every byte a quote, at worst */
	if (!p)
		return;
	char *o = p;
	*o++ = '"';
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"')
			*o++ = '"';
		*o++ = s[i];
	}
	*o++ = '"';
	w->len += (size_t)(o - p);
}

void csv_u64(struct csv_writer *w, uint64_t v)
{
	char tmp[24];
	size_t i = sizeof tmp;
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	csv_raw(w, tmp + i, sizeof tmp - i);
}

void csv_hex64(struct csv_writer *w, uint64_t v)
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

void csv_end(struct csv_writer *w)
{
	csv_raw(w, "\r\n", 2);
	if (w->fp && w->len >= CSV_FLUSH_AT)
		csv_flush(w);
}
