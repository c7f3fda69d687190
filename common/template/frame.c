/*
 * frame.c - see frame.h.
 */
#include "template/frame.h"

#include "template/decide.h"
#include "template/tplset.h"

/* Whether block @k went into the main text of @choice (decide.h's rule). */
static int in_text(const struct doc_block *k, int choice, const uint64_t *tpl, size_t n_tpl)
{
	if (choice == TPL_NONE)
		return 0;
	if (choice != TPL_FALLBACK && !(k->flags & DB_CONTENT))
		return 0;
	/* TPL_PAGE is chosen only when no content block is template: the
	 * lookup agrees with it, and costs nothing without templates */
	return !n_tpl || !tpl_contains(tpl, n_tpl, k->hash);
}

uint64_t frame_sketch(struct minhash *m, const struct doc_block *blk, uint32_t n, int choice,
		      const uint64_t *tpl, size_t n_tpl)
{
	minhash_reset(m);
	for (uint32_t i = 0; n_tpl && i < n; i++)
		if (tpl_contains(tpl, n_tpl, blk[i].hash))
			minhash_add(m, blk[i].hash);
	if (m->n >= FRAME_MIN_TEMPLATE)
		return minhash_bits(m);
	minhash_reset(m);
	for (uint32_t i = 0; i < n; i++)
		if (!in_text(&blk[i], choice, tpl, n_tpl))
			minhash_add(m, blk[i].hash);
	return minhash_bits(m); /* 0 when empty */
}
