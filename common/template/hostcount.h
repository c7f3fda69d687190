/*
 * hostcount.h - pages counted per host key (host.h's host_key(), never
 * 0), for the stages that keep each host's first pages: open addressing,
 * doubling.  A map given a ceiling starts again from empty when it would
 * pass it, so a crawl of more hosts than the memory allows costs recounts,
 * not memory (ndd-template -m).
 */
#ifndef NDD_TEMPLATE_HOSTCOUNT_H
#define NDD_TEMPLATE_HOSTCOUNT_H

#include <stddef.h>
#include <stdint.h>

struct hostcount {
	uint64_t *key; /* 0: empty */
	uint32_t *count;
	size_t cap, n, max_cap;
};

/** An empty map that may grow to @max_cap slots (SIZE_MAX: no ceiling).
 * @return 0, or -1 if memory ran out. */
int hostcount_init(struct hostcount *m, size_t max_cap)
	__attribute__((warn_unused_result));

/** The count of @host, added at 0 if new (after a restart if full), or
 * NULL if memory ran out (logged). */
uint32_t *hostcount_get(struct hostcount *m, uint64_t host);

/** Free the map (a zeroed or freed one is fine). */
void hostcount_free(struct hostcount *m);

#endif
