/*
 * tplnow.h - the templates final so far, as one set of keys that grows
 * host by host while learning and fingerprinting in one pass (follow.h):
 * at any moment what tplset_any_set() would hold were the hosts learnt so
 * far a templates file.
 *
 * The chrome and quoted keys of every host added stay.  A core key
 * (learn.h) is held only while no other host added holds its block, as
 * chrome or quoted: one that a later host's template also holds is taken
 * out again.  So a page fingerprinted against the set may have a frame
 * that a core key taken out later changes; follow.h notes the core keys
 * each page's frame met, and does the page again when one is shared at
 * the end (tplset_shared_core()).
 */
#ifndef NDD_TEMPLATE_TPLNOW_H
#define NDD_TEMPLATE_TPLNOW_H

#include <stddef.h>
#include <stdint.h>

#include "template/blockset.h"

/**
 * Add one host's template, its @n keys @keys (strictly ascending, as
 * tpl_learn() gives them), to @now (built, or zeroed: empty), applying
 * learn.h's rule for core keys against the hosts added before.  A host
 * must be added once.  @return 0, or -1 (out of memory: @now is then
 * part-way, and only fit to free).
 */
int tplnow_add(struct blockset *now, const uint64_t *keys, size_t n)
	__attribute__((warn_unused_result));

#endif
