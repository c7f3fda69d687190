/*
 * utf8.h - writing one code point as UTF-8, for every module that builds
 * UTF-8 text (entities, charset conversion, normalisation), and telling a
 * valid sequence from bytes that are not UTF-8, for every module that
 * checks text from outside (charsets, outputs, JSON).  Inline: both run
 * once per character of every page.
 */
#ifndef NDD_UTF8_H
#define NDD_UTF8_H

#include <stddef.h>
#include <stdint.h>

/**
 * Encode @cp into @out (room for 4 bytes); a value that is not a Unicode
 * scalar value (a surrogate, or past U+10FFFF) is written as U+FFFD.
 * @return bytes written.
 */
static inline size_t utf8_put(char *out, uint32_t cp)
{
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/**
 * Length of the valid UTF-8 sequence at @p (@n >= 1 bytes available): 1
 * for any ASCII byte, 2 to 4 for a well-formed sequence, 0 if the byte
 * starts none (a continuation byte, an overlong form, a surrogate, a code
 * point past U+10FFFF, or a sequence cut short by the end).  The second
 * byte's range per lead byte is the Unicode standard's table 3-7, so no
 * code point needs decoding.
 */
static inline size_t utf8_seq_len(const uint8_t *p, size_t n)
{
	const uint8_t c = p[0];
	if (c < 0x80)
		return 1;
	if (c < 0xC2 || c > 0xF4)
		return 0;
	const size_t len = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
	if (n < len)
		return 0;
	const uint8_t lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
	const uint8_t hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

/**
 * Decode the sequence at @p (@n >= 1 bytes available) into *@cp.
 * @return utf8_seq_len(): 0 for bytes that are not UTF-8 (*@cp is then
 * left alone).
 */
static inline size_t utf8_get(const uint8_t *p, size_t n, uint32_t *cp)
{
	const size_t len = utf8_seq_len(p, n);
	switch (len) {
	case 1:
		*cp = p[0];
		break;
	case 2:
		*cp = (p[0] & 0x1Fu) << 6 | (p[1] & 0x3Fu);
		break;
	case 3:
		*cp = (p[0] & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu);
		break;
	case 4:
		*cp = (p[0] & 0x07u) << 18 | (p[1] & 0x3Fu) << 12 | (p[2] & 0x3Fu) << 6 |
		      (p[3] & 0x3Fu);
		break;
	}
	return len;
}

#endif
