/*
 * html_values.h - a record's fields among the content (internal to
 * html_text).
 *
 * A post's profile and date lines (a handle, "Joined: 12.3.2019", a post
 * count, a date) are fields of the record, not its text.  Forum software
 * marks them as it likes: one serves them in a header or a class-marked
 * profile box (dropped as chrome), another in cells of no class word
 * beside the post (kept with it, as the edge of its content run), so the
 * same post on two forums came out with them on one side only, and
 * beside a short post that decided the pair.  So they are judged by what
 * they are and where they stand, whatever their markup:
 *
 *   - lines that are only values (util/valueline.h: a date, a count, a
 *     handle with its number), at most VALUELINE_RUN_MAX content lines in
 *     a row (other blocks passed over), then a line of prose;
 *   - and the element that holds the first of them and that prose (the
 *     blocks' gap depths tell it) is a record: at most
 *     VALUES_RECORD_BLOCKS blocks, as a run of posts' record is
 *     (html_runs.h), and no heading (a thread's title lies outside its
 *     posts).  A post's fields and its text are one such element; an
 *     article's dateline and its first paragraph lie in the element of the
 *     whole article, under its headline, and a table's last row and the
 *     paragraph after the table in the element of both: those stay.
 *
 * Such lines are no content.  The template's fallback text, which has no
 * elements to go by, leaves out the runs of values that
 * valueline_fields() finds (template/decide.h).
 */
#ifndef NDD_HTML_VALUES_H
#define NDD_HTML_VALUES_H

#include <stddef.h>

#include "html/html_hblock.h"

#define VALUES_RECORD_BLOCKS 12

/**
 * Make the content lines of @n classified blocks that are a record's
 * fields, as the top of this file says, no content.  @text is the
 * blocks' text buffer (hblock.off into it).  @return how many.
 */
size_t hblocks_values(struct hblock *b, size_t n, const char *text);

#endif
