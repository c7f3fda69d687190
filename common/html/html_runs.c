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

/* A child of an element that has ended: its shape (0: none), its first
 * block and its blocks that are not marks. */
struct child {
	uint64_t shape;
	size_t start, len;
};

struct level {
	uint32_t depth;
	size_t child; /* first block of the current child */
	struct child prev[HRUN_PERIOD_MAX]; /* the children ended, the last first */
	size_t period;   /* of the run these children are in; 0: none */
	size_t children; /* in that run, its first from run.start */
	size_t fence;    /* a run starts here or later: its blocks are no earlier run's */
	struct hrun run; /* run.count is set when it is reported */
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
		if (++k > HRUN_MAX_BLOCKS || (pointers_break && (b[i].pointer & HB_PTR_ANY)))
			return 0;
		const uint32_t rel = i == s ? 0 : b[i].gap_depth - depth;
		const uint32_t f = b[i].flags & (HB_HEADING | HB_SOFT | HB_MAIN);
		h = (h ^ (rel << 8 | f)) * 1099511628211u;
	}
	*len = k;
	return k >= 2 ? h | 1 : 0;
}

static void finish(const struct walk *w, struct level *l)
{
	if (l->period && l->children >= 2 * l->period) {
		l->run.count = l->children / l->period;
		w->fn(w->b, &l->run, w->ctx);
	}
	l->period = 0;
}

/* Does a child of shape @h (not 0) and @len blocks begin a run of period
 * @p: the same as the child p before it, the children between them
 * shaped too, the group of p within HRUN_MAX_BLOCKS?  *@glen gets the
 * group's blocks. */
static inline int starts_run(const struct level *l, uint64_t h, size_t len, size_t p, size_t *glen)
{
	const struct child *const twin = &l->prev[p - 1];
	if (twin->shape != h || twin->len != len)
		return 0;
	*glen = len;
	for (size_t k = 0; k + 1 < p; k++) {
		if (!l->prev[k].shape)
			return 0;
		*glen += l->prev[k].len;
	}
	return *glen <= HRUN_MAX_BLOCKS;
}

/* The child b[s..e] of the element at l ends: it extends the run it is in
 * (the child a period before it has its shape) or ends it and perhaps
 * starts another, of the least period that fits. */
static __attribute__((noinline)) void end_shaped(const struct walk *w, struct level *l, size_t s,
						  size_t e)
{
	size_t len = 0, glen = 0;
	const uint64_t h = shape(w->b, s, e, l->depth, w->pointers_break, &len);
	if (h && l->period && starts_run(l, h, len, l->period, &glen)) {
		l->children++;
	} else if (l->period || h) {
		if (l->period && l->children >= 2 * l->period) {
			const size_t rest = l->children % l->period;
			l->fence = rest ? l->prev[rest - 1].start : s;
		}
		finish(w, l);
		for (size_t p = 1; h && p <= HRUN_PERIOD_MAX; p++)
			if (l->prev[p - 1].start >= l->fence && starts_run(l, h, len, p, &glen)) {
				l->period = p;
				l->children = p + 1;
				l->run = (struct hrun){l->prev[p - 1].start, glen, 0};
				break;
			}
	}
	for (size_t k = HRUN_PERIOD_MAX - 1; k > 0; k--)
		l->prev[k] = l->prev[k - 1];
	l->prev[0] = (struct child){h, s, len};
}

/* Most children are one block or too long for a shape, outside any run:
 * then only the list of children ended moves, without a call. */
static inline void end_child(const struct walk *w, struct level *l, size_t s, size_t e)
{
	if ((e == s || e - s >= HRUN_SCAN_MAX) && !l->period) {
		for (size_t k = HRUN_PERIOD_MAX - 1; k > 0; k--)
			l->prev[k] = l->prev[k - 1];
		l->prev[0] = (struct child){0, s, 0}; /* what shape() says of it */
		return;
	}
	end_shaped(w, l, s, e);
}

/* A level for the element at @depth whose first child starts at @first. */
static void open_level(struct level *l, uint32_t depth, size_t first)
{
	l->depth = depth;
	l->child = first;
	l->period = 0;
	l->fence = 0;
	for (size_t k = 0; k < HRUN_PERIOD_MAX; k++)
		l->prev[k].shape = 0;
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
			open_level(&st[top], g, first);
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
