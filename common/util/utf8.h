/*
 * utf8.h - writing one code point as UTF-8, for every module that builds
 * UTF-8 text (entities, charset conversion, normalisation).  Inline: it
 * runs once per character of every page.
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

#endif
