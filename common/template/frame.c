/*
 * frame.c - see frame.h.
 */
#include "template/frame.h"

#include "template/decide.h"

/* Whether block @k went into the main text of @choice (decide.h's rule;
 * TPL_PAGE is chosen only when no content block is template). */
static int in_text(const struct doc_block *k, int choice)
{
	if (choice == TPL_NONE || (k->flags & TPL_MARK))
		return 0;
	return choice == TPL_FALLBACK || (k->flags & DB_CONTENT);
}

uint64_t frame_sketch(struct minhash *m, const struct doc_block *blk, uint32_t n, int choice)
{
	minhash_reset(m);
	for (uint32_t i = 0; i < n; i++)
		if (blk[i].flags & TPL_MARK)
			minhash_add(m, blk[i].hash);
	if (m->n >= FRAME_MIN_TEMPLATE)
		return minhash_bits(m);
	minhash_reset(m);
	for (uint32_t i = 0; i < n; i++)
		if (!in_text(&blk[i], choice))
			minhash_add(m, blk[i].hash);
	return minhash_bits(m); /* 0 when empty */
}
