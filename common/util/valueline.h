/*
 * valueline.h - the lines of a page's text that are only a value: a
 * date, a time, a count, a handle with its number ("Joined: 12.3.2019",
 * "Posts: 838", "2021年1月25日", "drdoor.102"), set beside prose.
 *
 * A post's profile and date lines and an article's dateline are fields
 * of a record, not its text, and markup tells them from the text
 * differently on every site: one forum serves them in a class-marked
 * header (dropped as chrome), the next in cells of no class word beside
 * the post (kept with it), so the same post on two forums came out with
 * them on one side only.  They are judged here by what they are and
 * where they stand instead, the same way for the page model
 * (html/html_values.h) and the template's fallback text
 * (template/decide.h):
 *
 *   - a value: at most VALUELINE_MAX_BYTES non-space bytes, no sentence
 *     end (a '.', '!', '?' or '…' before a space or the line's end, or a
 *     CJK full stop, exclamation or question mark anywhere), and more
 *     than a fifth of its non-space characters ASCII digits ("Step 1"
 *     and "2021 Planning underway" are none);
 *   - prose: VALUELINE_PROSE_BYTES non-space bytes or more, or a
 *     sentence end and VALUELINE_SENTENCE_BYTES (not a name with an
 *     initial, "Juan C. Sanz", nor a firm's "S.L.");
 *   - a run of values (the text's lines in order, those it leaves out
 *     passed over) is a record's fields when prose stands right before
 *     or after it and it is at most VALUELINE_RUN_MAX lines: a post's
 *     handle, "Joined", post count and date before its text.  A longer
 *     run, one between labels and headings, or one after a label that
 *     follows values is a table of data (a release table, an infobox,
 *     sizes beside file names: a label and its values, row after row,
 *     the last row before prose too) and stays.
 */
#ifndef NDD_VALUELINE_H
#define NDD_VALUELINE_H

#include <stddef.h>

#define VALUELINE_MAX_BYTES 40
#define VALUELINE_PROSE_BYTES 60
#define VALUELINE_SENTENCE_BYTES 20
#define VALUELINE_RUN_MAX 5

/* What a line is to the rule above. */
enum valueline_kind {
	VL_SKIP,  /* not a line of the text: passed over */
	VL_OTHER, /* a line of the text, neither value nor prose (a heading, a label) */
	VL_VALUE,
	VL_PROSE,
};

/** @return VL_VALUE, VL_PROSE or VL_OTHER for the @n bytes at @s. */
enum valueline_kind valueline_kind(const char *s, size_t n);

/* The caller's lines: @kind(@ctx, i) for line i, @drop(@ctx, i) to leave
 * line i out. */
typedef enum valueline_kind (*valueline_kind_fn)(void *ctx, size_t i);
typedef void (*valueline_drop_fn)(void *ctx, size_t i);

/**
 * Call @drop for each of lines 0..@n-1 that is a record's field (a run
 * of values as the top of this file says).  Each line's kind is asked
 * once, in order.  @return how many were dropped.
 */
size_t valueline_fields(size_t n, valueline_kind_fn kind, valueline_drop_fn drop, void *ctx);

#endif
