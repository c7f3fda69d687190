/*
 * csv.c - see csv.h.
 */
#include "output/csv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/outfile.h"
#include "util/simd16.h"

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

/* Whether any byte of @v is one that makes a field need quotes. */
static inline int special_in(v16 v)
{
	const v16 hit = v16_or(v16_or(v16_eq(v, v16_splat(',')), v16_eq(v, v16_splat('"'))),
			       v16_or(v16_eq(v, v16_splat('\r')), v16_eq(v, v16_splat('\n'))));
	return v16_mask(hit) != 0;
}

static inline int special16(const char *s)
{
	return special_in(v16_load(s));
}

/* Whether any of the 8 to 16 bytes in @a and @b is special; zero bytes
 * (a short field's padding) are not. */
static inline int special8x2(uint64_t a, uint64_t b)
{
	return special_in(v16_from64(a, b));
}

static inline uint64_t load64(const char *s)
{
	uint64_t v;
	memcpy(&v, s, 8);
	return v;
}

static inline uint64_t load32(const char *s)
{
	uint32_t v;
	memcpy(&v, s, 4);
	return v;
}

/* URLs and paths are tens of bytes: 16 at a time, the last 16 overlapping
 * the ones before instead of a loop over the odd bytes; a shorter field in
 * two loads that overlap (bytes seen twice change nothing), not a loop of
 * four compares a byte. */
int csv_needs_quotes(const char *s, size_t len)
{
	if (len >= 16) {
		size_t i = 0;
		for (; i + 16 <= len; i += 16)
			if (special16(s + i))
				return 1;
		return i < len && special16(s + len - 16);
	}
	if (len >= 8)
		return special8x2(load64(s), load64(s + len - 8));
	if (len >= 4)
		return special8x2(load32(s) | load32(s + len - 4) << 32, 0);
	if (len) /* 1 to 3 bytes: the first, the middle and the last */
		return special8x2((uint64_t)(uint8_t)s[0] | (uint64_t)(uint8_t)s[len / 2] << 8 |
					  (uint64_t)(uint8_t)s[len - 1] << 16,
				  0);
	return 0;
}

#define DIGITS10(x) x "0" x "1" x "2" x "3" x "4" x "5" x "6" x "7" x "8" x "9"
const char csv_digit_pairs[200] = DIGITS10("0") DIGITS10("1") DIGITS10("2") DIGITS10("3")
	DIGITS10("4") DIGITS10("5") DIGITS10("6") DIGITS10("7") DIGITS10("8") DIGITS10("9");

const uint64_t csv_pow10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
};

char *csv_put_quoted(char *p, const char *s, size_t len)
{
	*p++ = '"';
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"')
			*p++ = '"';
		*p++ = s[i];
	}
	*p++ = '"';
	return p;
}

void csv_quoted(struct csv_writer *w, const char *s, size_t len)
{
	char *p = csv_room(w, CSV_FIELD_BOUND(len));
	if (p)
		csv_commit(w, csv_put_quoted(p, s, len));
}
