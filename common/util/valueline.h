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

/* The caller's lines: @kind(@ctx, i, open) for line i, @drop(@ctx, i)
 * to leave line i out.  @open says whether a run of values is open; with
 * none, a caller whose judge reads only the line after a run may answer
 * VL_OTHER for a line that cannot be a value without reading it. */
typedef enum valueline_kind (*valueline_kind_fn)(void *ctx, size_t i, int open);
typedef void (*valueline_drop_fn)(void *ctx, size_t i);

/* A run of values (at most VALUELINE_RUN_MAX, lines the caller skips
 * between them) from line @first to the line @end that ended it (n past
 * the last line), with the kinds of @end and of the two lines before the
 * run, the nearer first (VL_VALUE: a run of values that were kept). */
struct valueline_run {
	size_t first, end;
	enum valueline_kind before2, before, after;
};

/* Whether a run is a record's fields, by the caller's rule. */
typedef int (*valueline_judge_fn)(void *ctx, const struct valueline_run *r);

/**
 * Find the runs of values among lines 0..@n-1 and call @drop for each
 * value of a run @judge calls a record's fields.  Each line's kind is
 * asked once, in order.  @return how many were dropped.
 */
size_t valueline_runs(size_t n, valueline_kind_fn kind, valueline_judge_fn judge,
		      valueline_drop_fn drop, void *ctx);

/**
 * valueline_runs() with the rule at the top of this file: beside prose,
 * unless after a label that follows values.
 */
size_t valueline_fields(size_t n, valueline_kind_fn kind, valueline_drop_fn drop, void *ctx);

#endif
