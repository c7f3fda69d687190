/*
 * decide.c - see decide.h.
 */
#include "template/decide.h"

#include <stdlib.h>
#include <string.h>

#include "template/tplset.h"
#include "util/grow.h"

void tpl_buf_free(struct tpl_buf *b)
{
	free(b->p);
	free(b->blk);
	memset(b, 0, sizeof *b);
}

/* The blocks of @blk (@d's) that are not template (TPL_MARK) (and, with
 * @content_only, are content), '\n'-joined in @b.  @return 0 or -1. */
static int join(const struct doc_record *d, const struct doc_block *blk, int content_only,
		struct tpl_buf *b)
{
	b->len = 0;
	if (array_grow((void **)&b->p, &b->cap, (size_t)d->all_text.n + 1, 1))
		return -1;
	for (uint32_t i = 0; i < d->n_blocks; i++) {
		const struct doc_block *const k = &blk[i];
		if ((content_only && !(k->flags & DB_CONTENT)) || (k->flags & TPL_MARK))
			continue;
		if (b->len)
			b->p[b->len++] = '\n';
		memcpy(b->p + b->len, d->all_text.p + k->off, k->len);
		b->len += k->len;
	}
	b->p[b->len] = 0;
	return 0;
}

int tpl_decide(const struct doc_record *d, const uint64_t *tpl, size_t n, struct tpl_buf *buf,
	       struct str *text)
{
	if (array_grow((void **)&buf->blk, &buf->blk_cap, d->n_blocks, sizeof *buf->blk))
		return -1;
	const struct doc_block *const blk = buf->blk;
	if (!n) { /* the frame needs the hashes of the non-content blocks only */
		docrec_blocks_unhashed(d, buf->blk, DB_CONTENT);
		return docrec_text(d, &buf->p, &buf->cap, text) ? -1 : TPL_PAGE;
	}
	docrec_blocks(d, buf->blk);
	uint64_t content = 0, rest = 0, lost = 0;
	for (uint32_t i = 0; i < d->n_blocks; i++) {
		struct doc_block *const k = &buf->blk[i];
		const int t = tpl_contains(tpl, n, k->hash);
		if (t) {
			k->flags |= TPL_MARK;
			lost += k->flags & DB_CONTENT ? k->len : 0;
			continue;
		}
		rest += k->len;
		content += k->flags & DB_CONTENT ? k->len : 0;
	}
	if (!lost)
		return docrec_text(d, &buf->p, &buf->cap, text) ? -1 : TPL_PAGE;
	int choice = TPL_CONTENT;
	if (!rest)
		choice = TPL_NONE;
	else if (lost >= content && content * 100 < rest * TPL_CONFIDENT_PCT)
		choice = TPL_FALLBACK;
	if (choice == TPL_NONE) {
		*text = (struct str){"", 0};
		return choice;
	}
	if (join(d, blk, choice == TPL_CONTENT, buf))
		return -1;
	*text = (struct str){buf->p, (uint32_t)buf->len};
	return choice;
}
