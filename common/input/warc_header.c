/*
 * warc_header.c - see warc_header.h.
 *
 * The folded copy never needs more bytes than the original header: every
 * line's CR/LF (or its colon) becomes the NUL that ends a string, and a
 * continuation line's leading white space becomes the joining space.  So
 * one buffer of the header's length, sized once per record, holds it all.
 */
#include "input/warc_header.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

size_t warc_header_end(const uint8_t *p, size_t n, size_t *scanned, size_t *next)
{
	size_t i = *scanned;
	*next = 0;
	while (i + 2 < n) {
		/* line by line: memchr() skips a line's bytes many at a time */
		const uint8_t *nl = memchr(p + i, '\n', n - 2 - i);
		if (!nl) {
			i = n - 2;
			break;
		}
		i = (size_t)(nl - p);
		if (p[i + 1] == '\n')
			return i + 2;
		if (p[i + 1] == '\r' && p[i + 2] == '\n')
			return i + 3;
		if (p[i + 1] == 'W') {
			if (i + 6 > n)
				break; /* look again when the line's first bytes are in */
			if (!memcmp(p + i + 1, "WARC/", 5)) {
				*next = i + 1;
				break;
			}
		}
		i++;
	}
	*scanned = i;
	return 0;
}

static const char *trim(const char *s, const char *e, const char **end)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	*end = e;
	return s;
}

/* Append [s, e) and a NUL at *o. */
static char *put(char *o, const char *s, const char *e)
{
	memcpy(o, s, (size_t)(e - s));
	o += e - s;
	*o++ = 0;
	return o;
}

static int reserve(struct warc_hdrbuf *hb, const char *p, size_t len)
{
	size_t lines = 2;
	for (const char *q = p; (q = memchr(q, '\n', (size_t)(p + len - q))) != NULL; q++)
		lines++;
	if (hb->text_cap < len + 16) {
		char *t = realloc(hb->text, len + 16);
		if (!t)
			return -1;
		hb->text = t;
		hb->text_cap = len + 16;
	}
	if (hb->hdr_cap < lines) {
		struct warc_header *h = realloc(hb->hdrs, lines * sizeof *h);
		if (!h)
			return -1;
		hb->hdrs = h;
		hb->hdr_cap = lines;
	}
	return 0;
}

/* One "name: value" line; a line without a colon adds nothing. */
static char *field_line(struct warc_hdrbuf *hb, char *o, const char *p, const char *eol)
{
	const char *colon = memchr(p, ':', (size_t)(eol - p)), *s, *e;
	if (!colon)
		return o;
	struct warc_header *h = &hb->hdrs[hb->n_hdrs++];
	h->name = o;
	s = trim(p, colon, &e);
	h->name_len = (size_t)(e - s);
	o = put(o, s, e);
	h->value = o;
	s = trim(colon + 1, eol, &e);
	return put(o, s, e);
}

int warc_header_parse(struct warc_hdrbuf *hb, const char *p, size_t len)
{
	if (reserve(hb, p, len))
		return -1;
	const char *end = p + len, *s, *e;
	char *o = hb->text;
	hb->n_hdrs = 0;
	for (int first = 1; p < end; first = 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		if (first) {
			hb->version = o;
			o = put(o, p, eol > p && eol[-1] == '\r' ? eol - 1 : eol);
		} else if ((*p == ' ' || *p == '\t') && hb->n_hdrs > 0) {
			s = trim(p, eol, &e);
			if (s < e) {
				o[-1] = ' ';
				o = put(o, s, e);
			}
		} else {
			o = field_line(hb, o, p, eol);
		}
		p = eol + 1;
	}
	/* every value is followed by its NUL, then the next name or the end */
	for (size_t i = 0; i < hb->n_hdrs; i++) {
		const char *next = i + 1 < hb->n_hdrs ? hb->hdrs[i + 1].name : o;
		hb->hdrs[i].value_len = (size_t)(next - 1 - hb->hdrs[i].value);
	}
	return 0;
}

void warc_hdrbuf_free(struct warc_hdrbuf *hb)
{
	free(hb->text);
	free(hb->hdrs);
	memset(hb, 0, sizeof *hb);
}

const struct warc_header *warc_header_field(const struct warc_header *h, size_t n,
					    const char *name)
{
	/* most names start "WARC-": their lengths tell them apart sooner */
	const size_t len = strlen(name);
	for (size_t i = 0; i < n; i++)
		if (h[i].name_len == len && !strcasecmp(h[i].name, name))
			return &h[i];
	return NULL;
}

const char *warc_header_find(const struct warc_header *h, size_t n, const char *name)
{
	const struct warc_header *f = warc_header_field(h, n, name);
	return f ? f->value : NULL;
}

int64_t warc_content_length(const char *v)
{
	if (!v || !*v)
		return -1;
	int64_t n = 0;
	for (; *v; v++) {
		if (*v < '0' || *v > '9' || n > (INT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (*v - '0');
	}
	return n;
}

static const struct {
	const char *name;
	enum warc_type type;
} type_names[] = {
	{"warcinfo", WARC_WARCINFO}, {"response", WARC_RESPONSE},
	{"resource", WARC_RESOURCE}, {"request", WARC_REQUEST},
	{"metadata", WARC_METADATA}, {"revisit", WARC_REVISIT},
	{"conversion", WARC_CONVERSION}, {"continuation", WARC_CONTINUATION},
};

enum warc_type warc_type_from_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof type_names / sizeof type_names[0]; i++)
		if (!strcasecmp(name, type_names[i].name))
			return type_names[i].type;
	return WARC_OTHER;
}
