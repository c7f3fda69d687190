/*
 * html_runs.h - runs of sibling elements of one shape (internal to
 * html_text).
 *
 * A forum thread is a run of posts of one markup, a board index a run of
 * rows, a category page a run of teasers: sibling elements, one after
 * another, whose blocks nest the same way.  Blocks carry no tree, but
 * gap_depth (html_blocks.h) gives one: the children of the element at
 * depth d are its blocks cut at the gaps equal to d.  A child's shape is
 * its blocks' gaps below d and their heading, soft and main flags (marks
 * of dropped chrome passed over, as they have no place of their own).
 * Two children or more of one shape, each of 2 to HRUN_MAX_BLOCKS blocks
 * (marks not counted), one after the other, are a run; their blocks line
 * up by position (the k-th block of each child that is not a mark).
 *
 * A record may also span a few siblings in turn: table layouts cut a
 * post into rows of one table (the profile and the text, then a row of
 * controls, as phpBB 2's subSilver serves them) and an index's entry
 * into a title row and a details row (Hacker News's front page).  What repeats is then the group:
 * children whose shapes come back every p siblings (p up to
 * HRUN_PERIOD_MAX, the least that fits), each of them shaped (2 blocks
 * or more), the group within HRUN_MAX_BLOCKS, make a run of groups, and
 * a group is what the callback sees as one child.  Repetition is the
 * evidence either way (the same structure over and over is a list of
 * records, as readability and boilerpipe read a page's repeated
 * siblings); a group must repeat twice or more, whole.
 *
 * One pass with a stack of the open elements' depths; each child is
 * hashed once over at most HRUN_SCAN_MAX blocks, so the pass is linear
 * in the blocks however deep the page nests.  Elements deeper than
 * HRUN_MAX_DEPTH distinct levels are passed over.
 */
#ifndef NDD_HTML_RUNS_H
#define NDD_HTML_RUNS_H

#include <stddef.h>

#include "html/html_hblock.h"

#define HRUN_MAX_BLOCKS 12
#define HRUN_SCAN_MAX (4 * HRUN_MAX_BLOCKS)
#define HRUN_MAX_DEPTH 256
#define HRUN_PERIOD_MAX 3

/* A run: @count children (groups of children) from block @start, each
 * of @len blocks that are not marks. */
struct hrun {
	size_t start, len, count;
};

/* Called once per run, in the order the runs end; it may change the
 * blocks' cls and pointer (not what the shapes are made of). */
typedef void (*hrun_fn)(struct hblock *b, const struct hrun *r, void *ctx);

/**
 * Call @fn(@b, run, @ctx) for every run of the @n blocks.  With
 * @pointers_break, a child holding a block that points to another page
 * (hblock.pointer) has no shape: it ends a run and starts none.
 */
void hblocks_runs(struct hblock *b, size_t n, int pointers_break, hrun_fn fn, void *ctx);

#endif
