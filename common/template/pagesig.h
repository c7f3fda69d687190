/*
 * pagesig.h - a page's whole-page signature for learn.h: near-duplicate
 * pages of one host (the same article at two URLs) are told apart from
 * different pages of one template by it.
 *
 * Made of the page's blocks alone (their hashes and lengths, docrec.h),
 * not of its words: a block of L bytes is 1 + L / 64 features (its hash,
 * and its hash mixed with 1, 2, ...), so a long paragraph weighs by its
 * length and a menu item by one; the signature is a 1-bit minwise hash
 * of that set (one-permutation hashing, 64 bins), so two pages lie about
 * 32 x (1 - J) bits apart for a Jaccard J of their features.  A copy lies 0 bits from its
 * original; pages of one template with different articles share only
 * the template's features, usually well under half.  Hashing blocks, not
 * text, keeps the template pass a small part of the pipeline's time (the
 * text minhash of every page cost as much as fingerprinting it twice).
 */
#ifndef NDD_TEMPLATE_PAGESIG_H
#define NDD_TEMPLATE_PAGESIG_H

#include <stdint.h>

#include "format/docrec.h"

/* Bytes of a block per feature. */
#define PAGESIG_CHUNK 64

/** The signature of a page's @n blocks @blk (docrec_blocks(); 0 for none). */
uint64_t page_signature(const struct doc_block *blk, uint32_t n);

#endif
