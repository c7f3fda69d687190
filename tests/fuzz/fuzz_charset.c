/*
 * fuzz_charset.c - libFuzzer target: charset sniffing and decoding to
 * UTF-8.  The first bytes up to a NUL are the Content-Type header; the
 * result must be valid UTF-8 whatever the input (the contract of
 * charset.h), which the target checks.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/charset.h"

#include "fuzz.h"

/* 1 if @p[0..n) is valid UTF-8 (no surrogates, no overlongs). */
static int valid_utf8(const uint8_t *p, size_t n)
{
	size_t i = 0;
	while (i < n) {
		const uint8_t c = p[i];
		size_t k;
		uint32_t cp, min;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			k = 1, cp = c & 0x1f, min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			k = 2, cp = c & 0x0f, min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			k = 3, cp = c & 0x07, min = 0x10000;
		} else {
			return 0;
		}
		if (i + k >= n)
			return 0;
		for (size_t j = 1; j <= k; j++) {
			if ((p[i + j] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i + j] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000))
			return 0;
		i += k + 1;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	static char *out;
	static size_t cap;
	const uint8_t *nul = memchr(data, 0, size < 128 ? size : 128);
	char ct[130];
	const char *ctp = NULL;
	if (nul) {
		memcpy(ct, data, (size_t)(nul - data) + 1);
		ctp = ct;
		size -= (size_t)(nul - data) + 1;
		data = nul + 1;
	}
	size_t len = 0;
	int lossy = 0;
	if (charset_to_utf8((const char *)data, size, ctp, &out, &len, &cap, &lossy))
		return 0;
	if (!valid_utf8((const uint8_t *)out, len) || out[len] != 0)
		__builtin_trap();
	const char *view;
	size_t vlen;
	if (charset_utf8_view((const char *)data, size, ctp, &view, &vlen, &out, &cap, &lossy))
		return 0;
	if (vlen != len || !valid_utf8((const uint8_t *)view, vlen))
		__builtin_trap();
	fuzz_sink(len + (uint64_t)strlen(charset_detect((const char *)data, size, ctp)));
	return 0;
}
