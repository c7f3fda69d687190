/*
 * html_headline.h - the page's own headline before its content (internal
 * to html_text).
 *
 * A thread's or an article's title is often no heading element (a table
 * cell of a forum, a styled div), and short: the classifier keeps a
 * heading right before content, not such a line, and the container may
 * leave it outside the posts' element.  The page's <title> names it: the
 * line before the first content block, not links, not chrome, at most
 * HEADLINE_MAX_WORDS10 words, whose text opens the <title> (whole, or
 * before a separator: "Title - Site", "Title | Forum", an en dash, a
 * middle dot, a guillemet) is the page's headline and content, as
 * readability takes the article's title from the header that repeats the
 * document's.  Marks and up to HEADLINE_PAST blocks of dropped chrome
 * between it and the content (a post's author cell) are passed over,
 * but not to a heading: an article's <h1> above its byline box is left
 * out, as readability's output (the realpages reference) leaves it.
 * A heading left out only for lying outside declared main content that
 * holds the text, right before it (marks aside), is the headline too: a
 * thread's title above posts that are each an <article> (XenForo), which
 * a copy of the thread on a forum without <article> keeps.
 * Lines left out of the content that are values (util/valueline.h: a
 * handle with its number, "Joined: <date>", a post count, a date) are
 * passed over as marks are, to a heading too: they are the first post's
 * fields, which phpBB 2 and vBulletin serve in cells of no class word
 * between the thread's title and the post, and which a forum that marks
 * them as chrome drops; the title stood on one side of such a pair only.
 */
#ifndef NDD_HTML_HEADLINE_H
#define NDD_HTML_HEADLINE_H

#include <stddef.h>

#include "html/html_hblock.h"

#define HEADLINE_MAX_WORDS10 300
#define HEADLINE_MIN_BYTES 8
#define HEADLINE_PAST 8 /* blocks of dropped chrome passed over */

/**
 * Make the headline of @n classified blocks content, as the top of this
 * file says.  @text is the blocks' text buffer (hblock.off into it),
 * @title the page's <title> (@title_len bytes, collapsed and trimmed).
 */
void hblocks_headline(struct hblock *b, size_t n, const char *text, const char *title, size_t title_len);

#endif
