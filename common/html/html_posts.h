/*
 * html_posts.h - the posts of a thread (internal to html_text).
 *
 * A forum thread is a run of sibling elements of one shape: each post is
 * its author's profile lines (name, "Joined: ...", a post count), a date,
 * the post's text and perhaps controls, in the same nesting as the next
 * post's.  The block classifier judges each block alone, so a short post
 * (one sentence) between profile cells is SHORT and dropped while a
 * longer one beside it is kept, and the date above a kept text is kept
 * with it as the edge of its run; whether a post's lines are kept then
 * depends on its length and on the forum's markup, not on what it is.
 *
 * A run of sibling elements of one shape (html_runs.h), none holding a
 * block that points to another page (a board index, "recent topics" and
 * teaser rows are left to html_blocks.h), is taken for a run of posts.  The
 * position whose text (outside links) is the largest over the run is the
 * posts' body, and so is any position with half as much (a quote and a
 * reply).
 *
 * When a body block of the run is content after the classifier and the
 * container, the run is the page's content: every post's body (not
 * link-dense, not chrome, a form or a legal line) is content, and so is
 * the line right before the run (not links, not chrome, at most
 * POSTS_TITLE_WORDS10 words: the thread's title, in a table cell where
 * no heading rule sees it).  The posts are alike: any other position (a
 * date, a profile line) is content in every post when the classifier
 * made it content in half of them or more, else in none (its edge rules
 * kept the date of one post and not of the next).  Those lines are not
 * dropped as such: that left short posts under ndd-fingerprint
 * --min-text (docs/MAIN-CONTENT.md).
 */
#ifndef NDD_HTML_POSTS_H
#define NDD_HTML_POSTS_H

#include <stddef.h>

#include "html/html_blocks.h"

#define POSTS_TITLE_WORDS10 300

/**
 * Decide the posts of @n classified blocks as the top of this file says
 * (after hblocks_classify() and hblocks_container(), not on a fallback).
 * @return the number of GOOD blocks.
 */
size_t hblocks_posts(struct hblock *b, size_t n);

#endif
