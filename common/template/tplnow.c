/*
 * tplnow.c - see tplnow.h.
 *
 * The loaded rule (tplset.c) counts, for a core key's block hash H, the
 * hosts holding H or tpl_quoted_key(H), and keeps the core key when that
 * count is 1.  Here the count grows host by host: the chrome and quoted
 * keys never leave the set, so "a host added before holds H" is a lookup
 * of H and its quoted key; a host's core key goes in only when none
 * does, and a host that holds H takes an earlier host's core key out.
 */
#include "template/tplnow.h"

#include <stdlib.h>

#include "template/learn.h"
#include "util/sorted64.h"

/* Whether @key of the host's @keys is one of its core keys. */
static int is_core(const uint64_t *keys, size_t n, uint64_t key)
{
	return u64_has(keys, n, tpl_core_hash(key));
}

/* Whether the core key of @h may go in: no host added before holds the
 * block @h, nor does this host as quoted too. */
static int core_alone(const struct blockset *now, const uint64_t *keys, size_t n, uint64_t h)
{
	const uint64_t q = tpl_quoted_key(h);
	return !blockset_has(now, h) && !blockset_has(now, q) && !u64_has(keys, n, q);
}

int tplnow_add(struct blockset *now, const uint64_t *keys, size_t n)
{
	/* earlier hosts' core keys of a block this one holds: shared now */
	for (size_t i = 0; i < n; i++) {
		blockset_remove(now, tpl_core_key(keys[i]));
		blockset_remove(now, tpl_core_key(tpl_quoted_key(keys[i])));
	}
	/* this host's core keys, judged before its own blocks go in */
	for (size_t i = 0; i < n; i++)
		if (is_core(keys, n, keys[i]) && core_alone(now, keys, n, tpl_core_hash(keys[i])) &&
		    blockset_add(now, keys[i]))
			return -1;
	for (size_t i = 0; i < n; i++)
		if (!is_core(keys, n, keys[i]) && blockset_add(now, keys[i]))
			return -1;
	return 0;
}
