/*
 * frame.h - a page's frame: the blocks outside its main text (its site's
 * template, navigation, chrome), sketched in 64 bits, so that the CSV can
 * tell a copy on the same template from a copy on another one (seed
 * 004's four duplicate types: output/provenance.h).
 *
 * The frame is what the main-text decision left out (decide.h): the
 * non-content blocks of the page model, and, once a host's template is
 * learnt, the template blocks the model had taken for content too.  Its
 * sketch is 1-bit minwise hashing (fingerprint/minhash.h) of the set of
 * the frame's block hashes, so two frames sharing a fraction J of their
 * distinct blocks lie about 32 (1 - J) bits apart: pages of one template
 * share most of their frame, pages of two templates (two sites, or a
 * redesign) little of it.  An empty frame (every block is main text)
 * sketches to 0.
 */
#ifndef NDD_TEMPLATE_FRAME_H
#define NDD_TEMPLATE_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "format/docrec.h"
#include "fingerprint/minhash.h"

/* The sketch's seed: frames of every run must be comparable. */
#define FRAME_SEED 0x6672616d65ull /* "frame" */

/** Prepare @m for frame_sketch() (once per thread). */
static inline void frame_init(struct minhash *m)
{
	minhash_init(m, FRAME_SEED);
}

/**
 * The sketch of the frame of a page whose @n blocks @blk (docrec_blocks())
 * made the text of tpl_decide()'s @choice (enum tpl_choice) given the
 * template blocks @tpl[0..@n_tpl) (ascending; NULL/0 for none).
 */
uint64_t frame_sketch(struct minhash *m, const struct doc_block *blk, uint32_t n, int choice,
		      const uint64_t *tpl, size_t n_tpl);

#endif
