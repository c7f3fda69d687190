/*
 * host.c - see host.h.
 */
#include "template/host.h"

#include <string.h>
#include <xxhash.h>

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* The host's bytes in @url: [*start, *start + return). */
static size_t host_span(const char *url, size_t n, size_t *start)
{
	const char *const end = url + n;
	const char *p = memchr(url, ':', n);
	if (!p || p == url || end - p < 3 || p[1] != '/' || p[2] != '/')
		return 0;
	for (const char *s = url; s < p; s++) { /* a scheme: letters, digits, + - . */
		const int c = lower((unsigned char)*s);
		if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '+' && c != '-' &&
		    c != '.')
			return 0;
	}
	p += 3;
	const char *q = p;
	while (q < end && *q != '/' && *q != '?' && *q != '#' && *q != '\\')
		q++;
	for (const char *a = q; a > p; a--) /* userinfo ends at the last '@' */
		if (a[-1] == '@') {
			p = a;
			break;
		}
	const char *h = q;
	if (p < q && *p == '[') { /* an IPv6 literal, up to its ']' */
		const char *b = memchr(p, ']', (size_t)(q - p));
		h = b ? b + 1 : q;
	} else {
		const char *c = memchr(p, ':', (size_t)(q - p));
		if (c)
			h = c;
	}
	while (h > p && h[-1] == '.')
		h--;
	if (h - p > 4 && lower(p[0]) == 'w' && lower(p[1]) == 'w' && lower(p[2]) == 'w' &&
	    p[3] == '.' && memchr(p + 4, '.', (size_t)(h - p - 4)))
		p += 4;
	*start = (size_t)(p - url);
	return (size_t)(h - p);
}

size_t host_name(const char *url, size_t n, char *out, size_t cap)
{
	size_t start = 0, len = url ? host_span(url, n, &start) : 0;
	if (!cap)
		return 0;
	if (len > cap - 1)
		len = cap - 1;
	for (size_t i = 0; i < len; i++)
		out[i] = (char)lower((unsigned char)url[start + i]);
	out[len] = 0;
	return len;
}

uint64_t host_key(const char *url, size_t n)
{
	char buf[256]; /* a DNS name is at most 253 bytes; longer ones are cut alike */
	const size_t len = host_name(url, n, buf, sizeof buf);
	if (!len)
		return 0;
	const uint64_t k = XXH3_64bits(buf, len);
	return k ? k : 1;
}
