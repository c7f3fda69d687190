/*
 * safe_text.c - see safe_text.h.
 */
#include "input/safe_text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at @p (@n bytes left), or 0 if the
 * byte at @p does not start one (overlong forms, surrogates and code
 * points past U+10FFFF are not valid). */
static size_t utf8_seq(const uint8_t *p, size_t n)
{
	const uint8_t c = p[0];
	size_t k;
	uint32_t cp, min;
	if (c >= 0x20 && c < 0x7f)
		return 1;
	if (c < 0x80)
		return 0; /* control byte */
	if ((c & 0xe0) == 0xc0)
		k = 2, cp = c & 0x1f, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		k = 3, cp = c & 0x0f, min = 0x800;
	else if ((c & 0xf8) == 0xf0)
		k = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	if (k > n)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000))
		return 0;
	return k;
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
