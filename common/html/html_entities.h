/*
 * html_entities.h - HTML character references (&amp; &#233; &#x1F600;)
 * decoded to UTF-8, for the HTML text extractor.
 *
 * Named references: the common ~330 (all of Latin-1, the HTML 4 set of
 * Greek letters, arrows, maths and typography, and the frequent HTML5
 * punctuation names).  As in browsers, the Latin-1 names and amp/lt/gt/quot
 * also decode without the trailing ';' ("&copy2024" -> "©2024").
 * Numeric references follow the HTML rules: 0, surrogates and values past
 * U+10FFFF become U+FFFD, 0x80..0x9F are read as windows-1252.
 */
#ifndef NDD_HTML_ENTITIES_H
#define NDD_HTML_ENTITIES_H

#include <stddef.h>
#include <stdint.h>

/** Longest UTF-8 output of one reference, in bytes. */
#define HTML_ENTITY_MAX_UTF8 4

/**
 * Decode the character reference that starts at @s (s[0] == '&'), with
 * @n bytes available.
 * @param out   receives the UTF-8 bytes (room for HTML_ENTITY_MAX_UTF8)
 * @param olen  receives how many bytes were written to @out
 * @return the number of input bytes consumed (including '&' and ';'), or
 *         0 if @s starts no reference: the caller then emits '&' as text.
 * Never reads past s[n-1].
 */
size_t html_entity_decode(const char *s, size_t n, char *out, size_t *olen);

/** Room html_collapse() needs in @out past n + 1 bytes: it stores 16 at a time. */
#define HTML_COLLAPSE_SLACK 16

/**
 * Copy text [s, s+n) to @out with every run of whitespace (ASCII blanks,
 * control bytes, U+00A0 and &nbsp;) collapsed into one space, and
 * character references decoded if @decode (not in raw text).
 * @param out       room for n + 1 + HTML_COLLAPSE_SLACK bytes (the output
 *                  itself is never longer than n + 1, counting a pending
 *                  space); not NUL-terminated
 * @param avail     bytes readable at @s, >= @n: the text usually lies in a
 *                  bigger buffer (the page), and runs are scanned 16 bytes
 *                  at a time while 16 are readable (what lies past s + n
 *                  is ignored)
 * @param has_text  the text @out continues is non-empty: a leading space
 *                  is only written after text, so results are trimmed
 * @param pending   in/out: a space is owed before the next non-space
 *                  byte (carries a run of blanks across calls)
 * @return the number of bytes written.
 */
size_t html_collapse(char *out, const char *s, size_t n, size_t avail, int has_text, int *pending,
		     int decode);

#endif
