/*
 * frame.c - see frame.h.
 */
#include "template/frame.h"

#include "template/decide.h"
#include "template/learn.h"

/* Whether block @k went into the main text of @choice (decide.h's rule;
 * TPL_PAGE is chosen only when no content block is template). */
static int in_text(const struct doc_block *k, int choice)
{
	if (choice == TPL_NONE || (k->flags & TPL_MARK))
		return 0;
	return choice == TPL_FALLBACK || (k->flags & DB_CONTENT);
}

/* Add the blocks marked template, only the core's (learn.h) when @core;
 * @return how many were added. */
static size_t add_marked(struct minhash *m, const struct blockset *tpl, const struct doc_block *blk,
			 uint32_t n, int core)
{
	minhash_reset(m);
	size_t added = 0;
	for (uint32_t i = 0; i < n; i++)
		if ((blk[i].flags & TPL_MARK) &&
		    (!core || blockset_has(tpl, tpl_core_key(blk[i].hash)))) {
			minhash_add(m, blk[i].hash);
			added++;
		}
	return added;
}

uint64_t frame_sketch(struct minhash *m, const struct blockset *tpl, const struct doc_block *blk,
		      uint32_t n, int choice)
{
	if (tpl && tpl->n && add_marked(m, tpl, blk, n, 1) >= FRAME_MIN_CORE)
		return minhash_bits(m);
	if (add_marked(m, tpl, blk, n, 0) >= FRAME_MIN_TEMPLATE)
		return minhash_bits(m);
	minhash_reset(m);
	for (uint32_t i = 0; i < n; i++)
		if (!in_text(&blk[i], choice))
			minhash_add(m, blk[i].hash);
	return minhash_bits(m); /* 0 when empty */
}
