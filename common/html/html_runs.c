/*
 * html_runs.c - runs of sibling elements of one shape (html_runs.h).
 *
 * A block whose gap is g ends the current child of every element deeper
 * than g (they close) and of the element at depth g (a new child starts
 * with it), or opens the element at depth g, whose first child began
 * where the current child of the element above it did: no gap between
 * them was as shallow as g, or that element would be open.
 */
#include "html/html_runs.h"

#include <stdint.h>

struct level {
	uint32_t depth;
	size_t child;   /* first block of the current child */
	uint64_t shape; /* the elder child's shape; 0: none */
	struct hrun run;
};

struct walk {
	struct hblock *b;
	hrun_fn fn;
	void *ctx;
	int pointers_break;
};

/* The shape of the child b[s..e] under the element at @depth, 0 if it is
 * one block, too long, or holds a pointer when @pointers_break; *len gets
 * its blocks (marks not counted). */
static uint64_t shape(const struct hblock *b, size_t s, size_t e, uint32_t depth, int pointers_break,
		      size_t *len)
{
	uint64_t h = 1469598103934665603u;
	size_t k = 0;
	if (e == s || e - s >= HRUN_SCAN_MAX)
		return 0;
	for (size_t i = s; i <= e; i++) {
		if (b[i].flags & HB_MARK)
			continue;
		if (++k > HRUN_MAX_BLOCKS || (pointers_break && b[i].pointer))
			return 0;
		const uint32_t rel = i == s ? 0 : b[i].gap_depth - depth;
		const uint32_t f = b[i].flags & (HB_HEADING | HB_SOFT | HB_MAIN);
		h = (h ^ (rel << 8 | f)) * 1099511628211u;
	}
	*len = k;
	return k >= 2 ? h | 1 : 0;
}

static void finish(const struct walk *w, const struct level *l)
{
	if (l->run.count > 1)
		w->fn(w->b, &l->run, w->ctx);
}

/* The child b[s..e] of the element at l ends: it extends the run of its
 * elder siblings' shape or starts one (the run before it is reported). */
static void end_child(const struct walk *w, struct level *l, size_t s, size_t e)
{
	size_t len = 0;
	const uint64_t h = shape(w->b, s, e, l->depth, w->pointers_break, &len);
	if (h && h == l->shape && len == l->run.len) {
		l->run.count++;
		return;
	}
	finish(w, l);
	l->shape = h;
	l->run = (struct hrun){s, len, 1};
}

void hblocks_runs(struct hblock *b, size_t n, int pointers_break, hrun_fn fn, void *ctx)
{
	const struct walk w = {b, fn, ctx, pointers_break};
	struct level st[HRUN_MAX_DEPTH];
	size_t top = 0, last = 0;
	for (size_t i = 1; i < n; i++) {
		if (b[i].flags & HB_MARK)
			continue;
		const uint32_t g = b[i].gap_depth;
		while (top && st[top - 1].depth > g) {
			end_child(&w, &st[top - 1], st[top - 1].child, last);
			finish(&w, &st[--top]);
		}
		if (top && st[top - 1].depth == g) {
			end_child(&w, &st[top - 1], st[top - 1].child, last);
			st[top - 1].child = i;
		} else if (top < HRUN_MAX_DEPTH) {
			const size_t first = top ? st[top - 1].child : 0;
			st[top] = (struct level){g, first, 0, {first, 0, 0}};
			end_child(&w, &st[top], first, last);
			st[top++].child = i;
		}
		last = i;
	}
	while (top) {
		end_child(&w, &st[top - 1], st[top - 1].child, n ? n - 1 : 0);
		finish(&w, &st[--top]);
	}
}
