/*
 * csv.c - see csv.h.
 */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

void csv_init(struct csv_writer *w, struct outfile *out)
{
	memset(w, 0, sizeof *w);
	w->out = out;
}

int csv_flush(struct csv_writer *w)
{
	if (w->out && w->len) {
		if (!w->err && outfile_write(w->out, w->buf, w->len))
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
	if (w->out && w->len + n > CSV_FLUSH_AT && csv_flush(w))
		return -1;
	if (w->cap - w->len >= n)
		return 0;
	size_t cap = w->cap ? w->cap : 4096;
	while (cap - w->len < n)
		cap *= 2;
	if (w->out && cap < CSV_FLUSH_AT + n)
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

int csv_needs_quotes(const char *s, size_t len)
{
	size_t i = 0;
#ifdef __SSE2__
	/* URLs and paths are tens of bytes: 16 at a time, four compares each */
	const __m128i comma = _mm_set1_epi8(','), quote = _mm_set1_epi8('"'),
		      cr = _mm_set1_epi8('\r'), lf = _mm_set1_epi8('\n');
	for (; i + 16 <= len; i += 16) {
		const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		const __m128i hit = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_cmpeq_epi8(v, quote)),
			_mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, lf)));
		if (_mm_movemask_epi8(hit))
			return 1;
	}
#endif
	for (; i < len; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			return 1;
	return 0;
}

void csv_quoted(struct csv_writer *w, const char *s, size_t len)
{
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
