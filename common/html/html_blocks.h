/*
 * html_blocks.h - the text-block classifier behind html_text (internal).
 *
 * html_text cuts a page into blocks of collapsed text at block-level
 * elements; this module measures each block and decides which are the
 * main content.  A block is BAD, SHORT, NEARGOOD or GOOD by its own
 * evidence (in the spirit of jusText and boilerpipe, without stopword
 * lists), then by its neighbours, then by where it sits:
 *
 *   words    Latin-script words + 0.6 x CJK characters (Han, kana): Chinese
 *            and Japanese are written without spaces;
 *   links    share of the block's words inside <a href> (by words, as
 *            boilerpipe counts: a sentence that links two long identifiers
 *            is still a sentence, a menu is links through and through);
 *   BAD      links > 1/3 (but a short link line alone among text is only
 *            SHORT: "a GTimer.", "See PEP 8"), or a copyright/legal block
 *            under 100 words, or a chrome mark (where html_text dropped
 *            nav/header/footer/aside or a class-marked element: the edge
 *            of the page's chrome);
 *   SHORT    words < 10, or part of an entry pointing to another page
 *            (hblocks_mark_pointers() below);
 *   GOOD     links <= 0.2 and (words >= 40, or >= 15 with sentence
 *            punctuation);
 *   NEARGOOD anything else.
 *
 * Context: NEARGOOD becomes GOOD unless both nearest GOOD/BAD neighbours
 * are BAD; SHORT becomes GOOD between two GOOD blocks, and at the edge of
 * a run of content only inside the element that holds the run (the first
 * or last line of the article is content; a byline, a share label or a
 * footer line beside it belongs to the template: gap_depth below); a
 * heading directly followed by content is GOOD.
 *
 * Declared main content (<main>, <article>, role=main) that holds
 * NEARGOOD or GOOD text is trusted: blocks outside it are dropped and,
 * inside it, every block but link lists and legal lines is content (the
 * author said so: a table cell, a code line or a caption there is content
 * even when short), but for rows pointing elsewhere (HB_PTR_ROW, entries)
 * outside the element that holds its own text, when that text is
 * HB_OWN_MIN bytes or more (a "recent topics" list above a thread's
 * posts); and when content was found only outside declared main content
 * that holds more words than it, links included, but no prose (an index
 * in <main> beside an unnamed newsletter box), the fallback takes the
 * main content.  A page with no GOOD block at all (API references,
 * tables, an index of links, a page of a few words) is not confidently
 * anything: all its text but what html_text dropped as chrome and legal
 * lines is kept (only the declared main content's, if that has any; rows
 * pointing elsewhere only if the rest is under HB_OWN_MIN bytes), and
 * the caller is told so.  Chrome whose class names what is never content
 * (HB_NEVER: a cookie banner, an advert) is hidden at every tier, and no
 * chrome is let in over a page's entries (an index).
 */
#ifndef NDD_HTML_BLOCKS_H
#define NDD_HTML_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "html/html_hblock.h"

/*
 * Text is measured 16 bytes at a time, the last few bytes too: the
 * measuring functions below read (and ignore) up to HBLOCK_SLACK - 1
 * bytes past the end of their text, which must lie in the same allocation
 * (html_text keeps that much room after its text).
 */
#define HBLOCK_SLACK 16

/**
 * Measure a finished block: words10, ns_bytes, HB_SENTENCE and
 * HB_COPYRIGHT from its @b->len bytes of text at @s (collapsed UTF-8,
 * single spaces; HBLOCK_SLACK bytes readable past it).  off, link_words10
 * and the other flags are the caller's.
 */
void hblock_measure(struct hblock *b, const char *s);

/** The word measure (x 10) of @n bytes of collapsed UTF-8 text at @s
 * (HBLOCK_SLACK bytes readable past it). */
uint32_t hblock_words10(const char *s, size_t n);

/**
 * Classify @n blocks in place (cls = HB_GOOD for main content; any other
 * value, not always HB_BAD, for the rest) and @return the number of GOOD
 * blocks.  Blocks marked HB_SOFT or HB_FORM
 * count only if the page has no content without them: forms are let back
 * in first (an ASP.NET page lives in one big form), then everything soft;
 * but when the declared main content holds visible text, those outside
 * it never are (a short page's title and line in <article>, not the
 * cookie banner beside it: the fallback then takes the main content).
 * *@fallback (if not NULL) gets 1 if no block was confidently content and
 * the fallback (all text) decided, else 0.
 */
size_t hblocks_classify(struct hblock *b, size_t n, int *fallback);

/*
 * A row of a list or table that points to another page (a thread's
 * "similar threads", a teaser, an index entry) is often cut into several
 * blocks: its linked title in one cell or heading, the author, replies,
 * date or summary in others, so no block of it looks like one.  Its
 * *entry* is the smallest element holding its link-dense block (the
 * title) and a neighbour (gap_depth): an entry of at most
 * HB_ENTRY_BLOCKS blocks and HB_ENTRY_WORDS10 words with a block that is
 * not link-dense (its metadata or summary) and links a quarter to three
 * quarters of its words is a pointer: each of its blocks gets pointer = HB_PTR_ENTRY.  A
 * block with links a quarter to three quarters of its words (a linked
 * title and its metadata in one line) gets HB_PTR_LINE.  A block of an
 * entry is no content on its own evidence (at most SHORT); the fallback
 * leaves both kinds out when the page has HB_OWN_MIN bytes of other
 * text.  hblocks_classify() calls it first; exposed for tests.
 */
/* HB_PTR_* in html_hblock.h */
#define HB_OWN_MIN 50
/* A run of pointers with this many linked titles is a list of rows:
 * each of its blocks also gets HB_PTR_ROW (at most SHORT, as entries);
 * so does every block of a run of HB_ROWS_MIN sibling elements of one
 * shape (html_runs.h) or more, each with a linked title, two thirds of
 * them pointers already (a row whose title links under a fifth of its
 * words is one of them by its siblings). */
#define HB_ROWS_MIN 3
#define HB_TITLE_WORDS10 30 /* a row's link is a title: 3 words or more */
#define HB_ENTRY_BLOCKS 6
#define HB_ENTRY_WORDS10 800
void hblocks_mark_pointers(struct hblock *b, size_t n);

#endif
