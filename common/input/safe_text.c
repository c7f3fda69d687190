/*
 * safe_text.c - see safe_text.h.
 */
#include "input/safe_text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "util/utf8.h"

/* A valid UTF-8 sequence that holds no control character: its length, or 0. */
static size_t utf8_seq(const uint8_t *p, size_t n)
{
	return p[0] < 0x80 ? (size_t)(p[0] >= 0x20 && p[0] < 0x7f) : utf8_seq_len(p, n);
}

/* Does any of the 8 bytes of @x lie outside 0x20..0x7E (a control
 * character, DEL or a byte of a multi-byte sequence)?  Each test may
 * also flag a byte above one it flags rightly, never when none is. */
static int any_unprintable(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	return (((x - 0x20 * ones) & ~x) | x | (x + ones)) & high ? 1 : 0;
}

size_t safe_text_clean_prefix(const char *s, size_t n)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t i = 0;
	/* URLs, record ids and dates are printable ASCII: 8 bytes a step */
	while (n - i >= 8 && !any_unprintable(get_le64(p + i)))
		i += 8;
	while (i < n) {
		const size_t k = utf8_seq(p + i, n - i);
		if (!k)
			break;
		i += k;
	}
	return i;
}

const char *safe_text(const char *s, size_t n, char **buf, size_t *cap, size_t *out_len)
{
	size_t i = safe_text_clean_prefix(s, n);
	if (i == n) {
		*out_len = n;
		return s;
	}
	if (*cap < 3 * n + 1) {
		char *b = realloc(*buf, 3 * n + 1);
		if (!b)
			return NULL;
		*buf = b;
		*cap = 3 * n + 1;
	}
	static const char hex[] = "0123456789ABCDEF";
	const uint8_t *p = (const uint8_t *)s;
	char *o = *buf;
	memcpy(o, s, i);
	o += i;
	while (i < n) {
		const size_t k = utf8_seq(p + i, n - i);
		if (k) {
			memcpy(o, p + i, k);
			o += k;
			i += k;
		} else {
			*o++ = '%';
			*o++ = hex[p[i] >> 4];
			*o++ = hex[p[i] & 15];
			i++;
		}
	}
	*o = 0;
	*out_len = (size_t)(o - *buf);
	return *buf;
}
