/*
 * hostshare.c - a linear-probing table of hosts (FNV-1a of the name), kept
 * at most half full.
 */
#include "output/hostshare.h"

#include <stdlib.h>
#include <string.h>

#include "util/log.h"

void hostshare_url_host(const char *url, char *out, size_t max)
{
	const char *p = strstr(url, "://"), *e;
	p = p ? p + 3 : url;
	e = p + strcspn(p, "/?#");
	for (const char *at = p; at < e; at++)
		if (*at == '@')
			p = at + 1;
	const char *port = e;
	if (*p != '[') /* an IPv6 literal keeps its colons */
		for (const char *c = p; c < e; c++)
			if (*c == ':') {
				port = c;
				break;
			}
	size_t n = 0;
	for (const char *c = p; c < port && n + 1 < max; c++)
		out[n++] = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
	if (max)
		out[n] = '\0';
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static struct report_host *slot_of(const struct host_table *t, const char *host)
{
	size_t i = (size_t)hash_str(host) & (t->cap - 1);
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
			*slot_of(t, old[i].host) = old[i];
	free(old);
	return 0;
}

int hostshare_add(struct host_table *t, const char *url, int dropped, int earlier)
{
	char host[256];
	if (2 * (t->n + 1) > t->cap && grow(t))
		return -1;
	hostshare_url_host(url, host, sizeof host);
	struct report_host *h = slot_of(t, host);
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
