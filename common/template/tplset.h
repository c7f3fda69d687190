/*
 * tplset.h - a templates file (ndd-template's output) loaded for lookup:
 * host -> its template's block hashes.  Memory: 8 bytes per block hash
 * and 16 per host, about the file's size.
 */
#ifndef NDD_TEMPLATE_TPLSET_H
#define NDD_TEMPLATE_TPLSET_H

#include <stddef.h>
#include <stdint.h>

#include "template/blockset.h"

struct tplset {
	size_t n_hosts;
	uint64_t *host;   /* ascending */
	size_t *start;    /* host i's hashes are hash[start[i] .. start[i+1]) */
	uint32_t *pages, *age; /* host i's record's pages and age (tplrec.h) */
	uint64_t *hash;   /* per host ascending */
	size_t n_hash;
	uint64_t *any;    /* every host's keys, ascending, once each, but core keys two hosts share */
	size_t n_any;
	struct blockset any_set; /* the same, for lookups */
};

/**
 * Load every TEMPLATES section of the file @path into @s (zeroed first).
 * Hosts must ascend over the whole file, as ndd-template writes them.
 * @return 0, or -1 (logged: unreadable, not templates, malformed).
 */
int tplset_load(struct tplset *s, const char *path) __attribute__((warn_unused_result));

/** Free what @s holds. */
void tplset_free(struct tplset *s);

/** The template of host @host (host_key()): *@n hashes, ascending;
 * NULL (and *@n = 0) if the file has none for it. */
const uint64_t *tplset_find(const struct tplset *s, uint64_t host, size_t *n);

/** The template blocks of every host, ascending: *@n hashes. */
const uint64_t *tplset_any(const struct tplset *s, size_t *n);

/** The template blocks of every host, as a set for lookups. */
const struct blockset *tplset_any_set(const struct tplset *s);

#endif
