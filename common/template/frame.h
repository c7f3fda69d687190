/*
 * frame.h - a page's frame: the blocks outside its main text (its site's
 * template, navigation, chrome), sketched in 64 bits, so that the CSV can
 * tell a copy on the same template from a copy on another one (seed
 * 004's four duplicate types: output/provenance.h).
 *
 * The frame of a page holding at least FRAME_MIN_TEMPLATE blocks of the
 * learnt templates (learn.h; every host's, as decide.h takes them out)
 * is those blocks: what repeats over a host's pages, so what a page of
 * the template shows whatever its article.  Of them, when it has one,
 * only the core blocks no other host holds (learn.h): a host's teasers
 * are template too, but each page shows its own draw of them, and a
 * theme's chrome is on every site of the theme; a site's own menu,
 * name and footer are on all its pages and no other's.  The page's other non-content
 * blocks (a caption, a related link) vary with its article, and are left
 * out.  Otherwise (a site of few pages, --no-templates) the frame is
 * what the main-text decision left out (decide.h): the page model's
 * non-content blocks.  Either way it depends on the page's blocks alone,
 * not on its host: a copy of the page on a mirror has its frame.
 *
 * The sketch is 1-bit minwise hashing (fingerprint/minhash.h) of the set
 * of the frame's block hashes, so two frames sharing a fraction J of
 * their distinct blocks lie about 32 (1 - J) bits apart: pages of one
 * template share most of their frame, pages of two templates (two
 * sites, or a redesign) little of it.  An empty frame sketches to 0.
 */
#ifndef NDD_TEMPLATE_FRAME_H
#define NDD_TEMPLATE_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "format/docrec.h"
#include "fingerprint/minhash.h"
#include "template/blockset.h"

/* Fewer template blocks than this are no frame: "Share" or "Menu" may be
 * some host's template and on any page. */
#define FRAME_MIN_TEMPLATE 3
/* One core block is a frame: a core key is a site's own. */
#define FRAME_MIN_CORE 1

/* The sketch's seed: frames of every run must be comparable. */
#define FRAME_SEED 0x6672616d65ull /* "frame" */

/** Prepare @m for frame_sketch() (once per thread). */
static inline void frame_init(struct minhash *m)
{
	minhash_init(m, FRAME_SEED);
}

/**
 * The sketch of the frame of a page whose @n blocks @blk made the text of
 * tpl_decide()'s @choice (enum tpl_choice): the blocks tpl_decide() left
 * in its buffer, the template's marked, and @tpl the keys they were
 * decided against (for the core keys; NULL: none).
 */
uint64_t frame_sketch(struct minhash *m, const struct blockset *tpl, const struct doc_block *blk,
		      uint32_t n, int choice);

#endif
