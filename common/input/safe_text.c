/*
 * safe_text.c - see safe_text.h.
 */
#include "input/safe_text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"

/* A valid UTF-8 sequence that holds no control character: its length, or 0. */
static size_t utf8_seq(const uint8_t *p, size_t n)
{
	return p[0] < 0x80 ? (size_t)(p[0] >= 0x20 && p[0] < 0x7f) : utf8_seq_len(p, n);
}

size_t safe_text_clean_prefix(const char *s, size_t n)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t i = 0;
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
