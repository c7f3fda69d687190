/*
 * hostshare.h - each host's pages and pages dropped, from the rows of
 * documents.csv: the report's "hosts with the most duplicates".
 *
 * Hosts are counted in a hash table keyed by the URL's host, lower-cased,
 * without user and port; a night has up to millions of hosts.
 */
#ifndef NDD_OUTPUT_HOSTSHARE_H
#define NDD_OUTPUT_HOSTSHARE_H

#include <stddef.h>
#include <stdint.h>

#include "output/report_html.h"

struct host_table {
	struct report_host *slot; /* open addressing; host NULL = empty */
	size_t cap, n;            /* slots, hosts */
	uint64_t pages, dropped, dropped_earlier; /* over every host */
};

/**
 * The host of @url into @out (@max bytes, NUL-terminated, cut to fit):
 * after "scheme://", before the path, query or fragment, without
 * "user@" and ":port", ASCII lower-cased.  A URL without "://" is taken
 * as starting with its host.
 */
void hostshare_url_host(const char *url, char *out, size_t max);

/**
 * Count one page of @url in @t: @dropped if documents.csv drops it,
 * @earlier if as a copy of an earlier night's page.
 * @return 0, or -1 if memory ran out (logged; @t stays valid).
 */
int hostshare_add(struct host_table *t, const char *url, int dropped, int earlier)
	__attribute__((warn_unused_result));

/**
 * Gather the hosts at the start of t->slot, most pages dropped first (then
 * most pages, then by name).  No host can be added afterwards.
 * @return the number of hosts.
 */
size_t hostshare_sort(struct host_table *t);

/** Free @t's hosts and slots, and zero it (a zeroed table is fine). */
void hostshare_free(struct host_table *t);

#endif
