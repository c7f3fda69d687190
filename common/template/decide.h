/*
 * decide.h - a page's main text once its host's template is taken out.
 *
 * The page model (html_text.h) decides alone which blocks are content;
 * on a template no rule was written for it keeps the site's dek, teasers,
 * captions or widgets, or, finding no prose, a leftover such as the
 * subtitle that every page of the site shares.  The template blocks
 * (learn.h) are those that repeat over the distinct pages of a host, the
 * host's chrome wherever it is and a page's text quoted by others where
 * it is a pointer (tpl_is_template()):
 *
 *   - none of the page's content blocks is template: the page model's
 *     text, unchanged;
 *   - the template took less of the content than it left, or what it
 *     left is at least TPL_CONFIDENT_PCT percent of the page's
 *     non-template text (bytes): the content blocks less the template
 *     (the page model found the article and only kept some template);
 *   - else (the page model's content was mostly template: a dek, a
 *     shared subtitle) all non-template text, and the page is flagged
 *     DOC_FALLBACK_TEXT: never the template's leftover.  Rows that point
 *     to other pages (DB_POINTER: a thread's "recent topics", teasers) are
 *     left out when the rest holds TPL_OWN_MIN bytes: they change from
 *     page to page, so no template takes them, and beside a short post
 *     they outweigh it; a page of nothing but links (an index) keeps
 *     them, its content;
 *   - nothing outside the template, or nothing but the text its <title>
 *     opens with ("Science 4" of "Science 4 - Site": an index whose rows
 *     are quoted all over its site):
 *     no text, DOC_NO_CONTENT (the caller fingerprints the payload
 *     instead, so the page matches only a copy of itself).
 *
 * A small removal ("Advertisement" in the article) thus never turns the
 * page's text into all of its text, which its copy on a host that did
 * not learn that block would not do.
 *
 * The text is the chosen blocks in document order joined by '\n', as the
 * page model's is.
 */
#ifndef NDD_TEMPLATE_DECIDE_H
#define NDD_TEMPLATE_DECIDE_H

#include <stddef.h>
#include <stdint.h>

#include "format/docrec.h"
#include "template/blockset.h"
#include "template/learn.h"

#define TPL_CONFIDENT_PCT 25
/* About the page model's short line (10 words): a post, a caption's
 * worth of the page's own text. */
#define TPL_OWN_MIN 50

/* A bit of struct doc_block's flags above DB_KNOWN (never on disk):
 * tpl_decide() marks the page's template blocks with it. */
#define TPL_MARK 0x80

/** Whether block @k is template under @tpl (keys as learn.h): chrome,
 * or a pointer that other pages quote too. */
static inline int tpl_is_template(const struct blockset *tpl, const struct doc_block *k)
{
	return blockset_has(tpl, k->hash) ||
	       ((k->flags & DB_POINTER) && blockset_has(tpl, tpl_quoted_key(k->hash)));
}

enum tpl_choice {
	TPL_PAGE,     /* the page model's text (docrec_text()) */
	TPL_CONTENT,  /* its content blocks less the template */
	TPL_FALLBACK, /* all non-template text (DOC_FALLBACK_TEXT) */
	TPL_NONE,     /* nothing outside the template (DOC_NO_CONTENT) */
};

/* A growing text buffer and the page's blocks, reused from page to page. */
struct tpl_buf {
	char *p;
	size_t len, cap;
	struct doc_block *blk;
	size_t blk_cap;
};

/**
 * Decide @d's main text given the template blocks @tpl (NULL or empty
 * for none).  *@text gets it: a slice of @d's all_text or
 * of @buf (valid until @buf is next used); @buf->blk holds @d's blocks
 * (docrec_blocks()), its template blocks marked TPL_MARK, for the frame
 * (frame.h); without templates the content blocks' hashes are 0.
 * @return the choice, or -1 if memory ran out.
 */
int tpl_decide(const struct doc_record *d, const struct blockset *tpl, struct tpl_buf *buf,
	       struct str *text);

/** Free @b's memory. */
void tpl_buf_free(struct tpl_buf *b);

#endif
