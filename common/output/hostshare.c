/*
 * hostshare.c - a linear-probing table of hosts (FNV-1a of the name), kept
 * at most half full.
 */
#include "output/hostshare.h"

#include <stdlib.h>
#include <string.h>

#include "util/log.h"

#define FNV_OFFSET 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

/* hostshare_url_host(), returning the FNV-1a hash of what it wrote (a
 * URL per page of the night: the host is hashed as it is copied). */
static uint64_t url_host(const char *url, char *out, size_t max)
{
	const char *p = strstr(url, "://");
	p = p ? p + 3 : url;
	const char *e = p + strcspn(p, "/?#");
	const char *at = memrchr(p, '@', (size_t)(e - p)); /* the host follows the last user part */
	if (at)
		p = at + 1;
	const char *port = *p == '[' ? NULL : memchr(p, ':', (size_t)(e - p)); /* an IPv6 literal keeps its colons */
	if (port)
		e = port;
	uint64_t h = FNV_OFFSET;
	size_t n = (size_t)(e - p);
	if (!max)
		return h;
	if (n > max - 1)
		n = max - 1;
	for (size_t i = 0; i < n; i++) {
		const unsigned char c = (unsigned char)p[i];
		const unsigned char l = (unsigned char)((unsigned)c - 'A' < 26u ? c | 0x20 : c);
		out[i] = (char)l;
		h = (h ^ l) * FNV_PRIME;
	}
	out[n] = '\0';
	return h;
}

void hostshare_url_host(const char *url, char *out, size_t max)
{
	(void)url_host(url, out, max);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = FNV_OFFSET;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * FNV_PRIME;
	return h;
}

/* The slot of @host (hashed: @hash), or the empty slot where it goes. */
static struct report_host *slot_of(const struct host_table *t, const char *host, uint64_t hash)
{
	size_t i = (size_t)hash & (t->cap - 1);
	while (t->slot[i].host && strcmp(t->slot[i].host, host))
		i = (i + 1) & (t->cap - 1);
	return &t->slot[i];
}

static int grow(struct host_table *t)
{
	const size_t cap = t->cap ? 2 * t->cap : 1024;
	struct report_host *old = t->slot, *slot = calloc(cap, sizeof *slot);
	if (!slot) {
		log_error("out of memory for %zu hosts", t->n);
		return -1;
	}
	const size_t old_cap = t->cap;
	t->slot = slot;
	t->cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].host)
			*slot_of(t, old[i].host, hash_str(old[i].host)) = old[i];
	free(old);
	return 0;
}

int hostshare_add(struct host_table *t, const char *url, int dropped, int earlier)
{
	char host[256];
	if (2 * (t->n + 1) > t->cap && grow(t))
		return -1;
	const uint64_t hash = url_host(url, host, sizeof host);
	struct report_host *h = slot_of(t, host, hash);
	if (!h->host) {
		if (!(h->host = strdup(host))) {
			log_error("out of memory for a host name");
			return -1;
		}
		t->n++;
	}
	h->pages++;
	h->dropped += (uint64_t)!!dropped;
	h->dropped_earlier += (uint64_t)!!earlier;
	t->pages++;
	t->dropped += (uint64_t)!!dropped;
	t->dropped_earlier += (uint64_t)!!earlier;
	return 0;
}

static int by_dropped(const void *a, const void *b)
{
	const struct report_host *x = a, *y = b;
	if (x->dropped != y->dropped)
		return x->dropped < y->dropped ? 1 : -1;
	if (x->pages != y->pages)
		return x->pages < y->pages ? 1 : -1;
	return strcmp(x->host, y->host);
}

size_t hostshare_sort(struct host_table *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slot[i].host)
			t->slot[n++] = t->slot[i];
	if (t->cap)
		memset(t->slot + n, 0, (t->cap - n) * sizeof *t->slot);
	if (n > 1)
		qsort(t->slot, n, sizeof *t->slot, by_dropped);
	return n;
}

void hostshare_free(struct host_table *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free((char *)t->slot[i].host);
	free(t->slot);
	memset(t, 0, sizeof *t);
}
