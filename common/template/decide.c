/*
 * decide.c - see decide.h.
 */
#include "template/decide.h"

#include <stdlib.h>
#include <string.h>

#include "template/tplset.h"

void tpl_buf_free(struct tpl_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

/* Append the blocks of @d that @keep says, '\n'-joined.  @return 0 or -1. */
static int join(const struct doc_record *d, const uint64_t *tpl, size_t n, int content_only,
		struct tpl_buf *b)
{
	b->len = 0;
	if (b->cap < d->all_text.n + 1) {
		char *const p = realloc(b->p, (size_t)d->all_text.n + 1);
		if (!p)
			return -1;
		b->p = p;
		b->cap = (size_t)d->all_text.n + 1;
	}
	const uint32_t nb = docrec_n_blocks(d);
	size_t at = 0;
	for (uint32_t i = 0; i < nb; i++) {
		const struct doc_block k = docrec_block(d, i);
		const char *const s = d->all_text.p + at;
		at += (size_t)k.len + 1;
		if ((content_only && !(k.flags & DB_CONTENT)) || tpl_contains(tpl, n, k.hash))
			continue;
		if (b->len)
			b->p[b->len++] = '\n';
		memcpy(b->p + b->len, s, k.len);
		b->len += k.len;
	}
	b->p[b->len] = 0;
	return 0;
}

int tpl_decide(const struct doc_record *d, const uint64_t *tpl, size_t n, struct tpl_buf *buf,
	       struct str *text)
{
	*text = d->text;
	if (!n)
		return TPL_PAGE;
	const uint32_t nb = docrec_n_blocks(d);
	uint64_t content = 0, rest = 0, lost = 0;
	for (uint32_t i = 0; i < nb; i++) {
		const struct doc_block k = docrec_block(d, i);
		const int t = tpl_contains(tpl, n, k.hash);
		if (t) {
			lost += k.flags & DB_CONTENT ? k.len : 0;
			continue;
		}
		rest += k.len;
		content += k.flags & DB_CONTENT ? k.len : 0;
	}
	if (!lost)
		return TPL_PAGE;
	int choice = TPL_CONTENT;
	if (!rest)
		choice = TPL_NONE;
	else if (lost >= content && content * 100 < rest * TPL_CONFIDENT_PCT)
		choice = TPL_FALLBACK;
	if (choice == TPL_NONE) {
		*text = (struct str){"", 0};
		return choice;
	}
	if (join(d, tpl, n, choice == TPL_CONTENT, buf))
		return -1;
	*text = (struct str){buf->p, (uint32_t)buf->len};
	return choice;
}
