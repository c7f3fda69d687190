/*
 * html_tokenizer.c - the inline scanner (html_scan.h) behind a call.
 */
#include "html/html_tokenizer.h"

#include "html/html_scan.h"

const char *htag_name(enum htag tag)
{
	return tag < HTAG_COUNT ? htok_tags[tag].name : "";
}

void htok_init(struct htok *t, const char *s, size_t n)
{
	htok_pos_init(&t->pos, s, n);
}

void htok_set_foreign(struct htok *t, unsigned foreign)
{
	t->pos.foreign = foreign;
}

enum htok_type htok_next(struct htok *t, struct htok_token *tok)
{
	tok->attrs = t->attrs;
	htok_token_clear(tok);
	return htok_scan(&t->pos, tok, 1, NULL);
}
