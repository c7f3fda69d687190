/*
 * html_container.h - the element that holds a page's article (internal to
 * html_text).
 *
 * The block classifier (html_blocks.h) judges each block by itself and its
 * neighbours; it cannot tell the article from a second text-rich part of
 * the page that is as much prose: a "latest news" column with a story, a
 * board index of a forum, teasers with summaries, reader comments.  This
 * pass picks one container, as readability's grabArticle does, and lets
 * content outside it go:
 *
 *   comments first, reader comments inside the article's own element
 *            (declared main content often holds them) go by their shape:
 *            the last run of two posts or more, each a text (not links)
 *            after one or two lines of at most 4 words (a name, a date)
 *            and perhaps one after it ("Reply"), opened by a heading and
 *            after 100 words of prose that is no such post; a thread,
 *            all posts, keeps them;
 *   teasers  then lists of summaries: HB_ROWS_MIN blocks or more that
 *            each end in a short link to another page after a sentence
 *            (HB_PTR_MORE: a summary and its "Read more"), each after a
 *            title (a heading or a line of links), with no paragraph of
 *            the page's own between them, are rows that summarise other
 *            pages.  When the page has HB_OWN_MIN bytes of content
 *            outside such lists, they are not content and are marked
 *            rows (HB_PTR_ROW), from their first row's title on: the
 *            same list of a trait's methods on every type that has it
 *            is neither the largest text that wins the container nor
 *            the text the template decision falls back to.  A page of
 *            nothing but such lists (an index) keeps them;
 *   weight   each content block (GOOD) weighs its words outside links;
 *   score    an element's score is the weight of the content blocks in it,
 *            a block counting whole for the element that holds it and its
 *            neighbours, half for the one above, 1/6, 1/9, 1/12 for the
 *            three above that, nothing higher (readability's spread over
 *            five ancestors: content concentrates in its own container,
 *            while the page's outer wrappers collect a little of
 *            everything), times 1 - the link density of all the element's
 *            visible text (a container of teasers or a board index is
 *            link-rich);
 *   top      the element with the best score; then, as readability, an
 *            ancestor that scores more than it replaces it, walking up
 *            while the ancestors keep at least a third of its score;
 *   climb    content cut into parts of a kind (the steps of a how-to, the
 *            sections of a document, the posts of a thread) has no one
 *            container and the top is one part: the first element up to 6
 *            levels above the top whose other children that are prose
 *            (fewer than a third of their lines links) have together at
 *            least half the top's mass (weight, unspread, times 1 - link
 *            density) is the top;
 *   siblings the other children of the top's parent are kept when their
 *            mass is at least a fifth of the top's, or at least 1/100 of
 *            it if they are prose (a short section, not a box of linked
 *            teasers); a single block among
 *            them when it is a heading or a paragraph (few links, 80 bytes
 *            or a sentence), as readability keeps a sibling <p>;
 *   result   content blocks outside the top and the siblings kept are no
 *            longer content.  Nothing is ever added.
 *
 * Elements are not kept by html_text: a block's gap_depth (html_blocks.h)
 * is the depth of the innermost element holding it and the block before,
 * so the elements holding blocks i..j at depth d are the maximal ranges
 * whose inner gaps are all >= d.  One pass with two small stacks finds
 * every scored element and keeps the scores of those above the top for
 * the walk up; the climb and the siblings scan a few of its ancestors,
 * each once per level.  A mark (chrome dropped) has
 * no place of its own: the block after it holds the gap.  A page nested
 * deeper than 256 distinct levels is left as the classifier had it.
 */
#ifndef NDD_HTML_CONTAINER_H
#define NDD_HTML_CONTAINER_H

#include <stddef.h>

#include "html/html_blocks.h"

/**
 * Keep only the content (cls HB_GOOD) of @n classified blocks (after
 * hblocks_classify(), not a fallback) that lies in the page's article
 * container, as the top of this file says.
 * @return the number of GOOD blocks left.
 */
size_t hblocks_container(struct hblock *b, size_t n);

#endif
