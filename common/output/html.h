/*
 * html.h - HTML text built in memory, with every byte of the data escaped.
 *
 * A report shows URLs and titles taken from the crawl: bytes anyone on
 * the web chose.  They may hold "<script>", quotes, control bytes or
 * bytes that are not UTF-8.  html_text() writes such bytes so that the
 * page stays well-formed whatever they are: the five characters that
 * matter in text and in quoted attribute values (& < > " ') as character
 * references, every byte of an invalid UTF-8 sequence, every control
 * character but tab and newline, and the C1 controls, as U+FFFD.  The
 * markup of the page itself goes through html_raw(), which copies.
 *
 * The buffer grows as needed; a failed allocation sets @oom, after which
 * writes are dropped and html_buf_ok() returns 0 (library code never
 * exits).  Free with html_buf_free().
 */
#ifndef NDD_OUTPUT_HTML_H
#define NDD_OUTPUT_HTML_H

#include <stddef.h>

struct html_buf {
	char *p;
	size_t len, cap;
	int oom;
};

/** Append @s (NUL-terminated markup, copied as is). */
void html_raw(struct html_buf *h, const char *s);

/** Append printf-formatted markup (as is: format numbers, never data). */
void html_rawf(struct html_buf *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Append the @n bytes of @s as escaped text (above). */
void html_text(struct html_buf *h, const char *s, size_t n);

/** html_text() of a NUL-terminated @s. */
void html_ctext(struct html_buf *h, const char *s);

/**
 * html_text() of at most @max_chars characters of @s (each invalid byte
 * counts as one), then "…" if anything was left out.
 */
void html_text_cut(struct html_buf *h, const char *s, size_t n, size_t max_chars);

/**
 * The length of the UTF-8 sequence at @s (@n bytes left) and its code
 * point in *@cp: 1 to 4, or 0 if the bytes there are not a well-formed
 * sequence (overlong, surrogate, past U+10FFFF, cut short).
 */
size_t html_utf8_next(const unsigned char *s, size_t n, unsigned *cp);

/** @return 1 if nothing failed so far, 0 after an allocation failure. */
int html_buf_ok(const struct html_buf *h);

/** Free the buffer (a zeroed or freed buffer is fine) and zero @h. */
void html_buf_free(struct html_buf *h);

#endif
