/*
 * html.c - the escaping of html.h.  Text is walked one UTF-8 sequence at
 * a time; runs of plain characters are copied in one go.
 */
#include "output/html.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(struct html_buf *h, size_t n)
{
	if (h->oom)
		return -1;
	if (h->cap - h->len > n)
		return 0;
	size_t cap = h->cap ? h->cap : 4096;
	while (cap - h->len <= n)
		cap *= 2;
	char *p = realloc(h->p, cap);
	if (!p) {
		h->oom = 1;
		return -1;
	}
	h->p = p;
	h->cap = cap;
	return 0;
}

static void put(struct html_buf *h, const char *s, size_t n)
{
	if (reserve(h, n))
		return;
	memcpy(h->p + h->len, s, n);
	h->len += n;
	h->p[h->len] = '\0';
}

void html_raw(struct html_buf *h, const char *s)
{
	put(h, s, strlen(s));
}

void html_rawf(struct html_buf *h, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	const int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		put(h, small, (size_t)n);
		return;
	}
	if (reserve(h, (size_t)n + 1))
		return;
	va_start(ap, fmt);
	vsnprintf(h->p + h->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	h->len += (size_t)n;
}

size_t html_utf8_next(const unsigned char *s, size_t n, unsigned *cp)
{
	const unsigned c = s[0];
	size_t len;
	unsigned v, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF)
		len = 2, v = c & 0x1F, min = 0x80;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3, v = c & 0x0F, min = 0x800;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4, v = c & 0x07, min = 0x10000;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	*cp = v;
	return len;
}

/* The replacement of code point @cp, or NULL if it stands for itself. */
static const char *replacement(unsigned cp)
{
	switch (cp) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	case '\t':
	case '\n': return NULL;
	default: break;
	}
	/* controls are not allowed in HTML text (and NUL is dropped by parsers) */
	if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
		return "\xEF\xBF\xBD";
	return NULL;
}

void html_text_cut(struct html_buf *h, const char *s, size_t n, size_t max_chars)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, run = 0, chars = 0;
	while (i < n && chars < max_chars) {
		unsigned cp = 0;
		size_t len = html_utf8_next(u + i, n - i, &cp);
		const char *rep = len ? replacement(cp) : "\xEF\xBF\xBD";
		chars++;
		if (!rep) {
			i += len;
			continue;
		}
		put(h, s + run, i - run);
		put(h, rep, strlen(rep));
		i += len ? len : 1;
		run = i;
	}
	put(h, s + run, i - run);
	if (i < n)
		put(h, "\xE2\x80\xA6", 3);
}

void html_text(struct html_buf *h, const char *s, size_t n)
{
	html_text_cut(h, s, n, (size_t)-1);
}

void html_ctext(struct html_buf *h, const char *s)
{
	html_text(h, s, strlen(s));
}

int html_buf_ok(const struct html_buf *h)
{
	return !h->oom;
}

void html_buf_free(struct html_buf *h)
{
	free(h->p);
	memset(h, 0, sizeof *h);
}
