/*
 * docjson.c - see docjson.h.
 *
 * Sizing and writing share one escaper: with a NULL output it only
 * counts, so the two can never disagree and the caller allocates once.
 */
#include "output/docjson.h"

#include "util/utf8.h"

#include <stdio.h>
#include <string.h>

/* Append @n bytes at @s to *@o (if @o is set); @return @n. */
static size_t put(char **o, const void *s, size_t n)
{
	if (*o) {
		memcpy(*o, s, n);
		*o += n;
	}
	return n;
}

static size_t put_str(char **o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	size_t len = put(o, "\"", 1);
	while (p < end) {
		const unsigned char c = *p;
		size_t k;
		if (c == '"' || c == '\\') {
			const char esc[2] = {'\\', (char)c};
			len += put(o, esc, 2), p++;
		} else if (c == '\n') {
			len += put(o, "\\n", 2), p++;
		} else if (c < 0x20 || c == 0x7f) {
			const char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
			len += put(o, esc, 6), p++;
		} else if (c < 0x80) {
			const unsigned char *q = p + 1;
			while (q < end && *q >= 0x20 && *q < 0x7f && *q != '"' && *q != '\\')
				q++;
			len += put(o, p, (size_t)(q - p)), p = q;
		} else if ((k = utf8_seq_len(p, (size_t)(end - p))) != 0) {
			len += put(o, p, k), p += k;
		} else {
			len += put(o, "\\ufffd", 6), p++;
		}
	}
	return len + put(o, "\"", 1);
}

static size_t put_field(char **o, const char *name, struct str s)
{
	char tmp[32];
	const int n = snprintf(tmp, sizeof tmp, ",\"%s\":", name);
	return put(o, tmp, (size_t)n) + put_str(o, s.p, s.n);
}

/* ,"name":N */
static size_t put_num(char **o, const char *name, unsigned long long v)
{
	char tmp[24];
	const int n = snprintf(tmp, sizeof tmp, "%llu", v);
	return put(o, ",\"", 2) + put(o, name, strlen(name)) + put(o, "\":", 2) +
	       put(o, tmp, (size_t)n);
}

static size_t encode(const struct doc_record *d, char *out)
{
	char *none = NULL, **o = out ? &out : &none;
	/* the id opens the object: write it as a field, then turn its
	 * leading comma into the brace */
	char *start = out;
	size_t n = put_num(o, "id", d->doc_id);
	if (start)
		start[0] = '{';
	n += put_field(o, "url", d->url);
	n += put_field(o, "warc_file", d->warc_file);
	n += put_num(o, "warc_offset", d->warc_offset);
	n += put_num(o, "warc_length", d->warc_length);
	n += put_field(o, "record_id", d->record_id);
	n += put_field(o, "date", d->date);
	n += put_num(o, "status", d->http_status);
	n += put_num(o, "flags", d->flags);
	n += put_field(o, "title", d->title);
	n += put_field(o, "text", d->text);
	return n + put(o, "}\n", 2);
}

size_t docjson_size(const struct doc_record *d)
{
	return encode(d, NULL);
}

size_t docjson_encode(const struct doc_record *d, char *out)
{
	return encode(d, out);
}
