/*
 * ref_html_runs.h - hblocks_runs() as it was before the children that
 * can have no shape outside a run were ended without a call (commit
 * ef53af1), for the test that compares the two on random pages.
 * Test-only; include once.
 */
#ifndef NDD_REF_HTML_RUNS_H
#define NDD_REF_HTML_RUNS_H

#include "html/html_runs.h"

#include <stdint.h>

/* A child of an element that has ended: its shape (0: none), its first
 * block and its blocks that are not marks. */
struct ref_child {
	uint64_t shape;
	size_t start, len;
};

struct ref_level {
	uint32_t depth;
	size_t child; /* first block of the current child */
	struct ref_child prev[HRUN_PERIOD_MAX]; /* the children ended, the last first */
	size_t period;   /* of the run these children are in; 0: none */
	size_t children; /* in that run, its first from run.start */
	size_t fence;    /* a run starts here or later: its blocks are no earlier run's */
	struct hrun run; /* run.count is set when it is reported */
};

struct ref_walk {
	struct hblock *b;
	hrun_fn fn;
	void *ctx;
	int pointers_break;
};

/* The shape of the child b[s..e] under the element at @depth, 0 if it is
 * one block, too long, or holds a pointer when @pointers_break; *len gets
 * its blocks (marks not counted). */
static uint64_t ref_shape(const struct hblock *b, size_t s, size_t e, uint32_t depth, int pointers_break,
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

static void ref_finish(const struct ref_walk *w, struct ref_level *l)
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
static inline int ref_starts_run(const struct ref_level *l, uint64_t h, size_t len, size_t p, size_t *glen)
{
	const struct ref_child *const twin = &l->prev[p - 1];
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
static void ref_end_child(const struct ref_walk *w, struct ref_level *l, size_t s, size_t e)
{
	size_t len = 0, glen = 0;
	const uint64_t h = ref_shape(w->b, s, e, l->depth, w->pointers_break, &len);
	if (h && l->period && ref_starts_run(l, h, len, l->period, &glen)) {
		l->children++;
	} else if (l->period || h) {
		if (l->period && l->children >= 2 * l->period) {
			const size_t rest = l->children % l->period;
			l->fence = rest ? l->prev[rest - 1].start : s;
		}
		ref_finish(w, l);
		for (size_t p = 1; h && p <= HRUN_PERIOD_MAX; p++)
			if (l->prev[p - 1].start >= l->fence && ref_starts_run(l, h, len, p, &glen)) {
				l->period = p;
				l->children = p + 1;
				l->run = (struct hrun){l->prev[p - 1].start, glen, 0};
				break;
			}
	}
	for (size_t k = HRUN_PERIOD_MAX - 1; k > 0; k--)
		l->prev[k] = l->prev[k - 1];
	l->prev[0] = (struct ref_child){h, s, len};
}

/* A level for the element at @depth whose first child starts at @first. */
static void ref_open_level(struct ref_level *l, uint32_t depth, size_t first)
{
	l->depth = depth;
	l->child = first;
	l->period = 0;
	l->fence = 0;
	for (size_t k = 0; k < HRUN_PERIOD_MAX; k++)
		l->prev[k].shape = 0;
}

static void ref_hblocks_runs(struct hblock *b, size_t n, int pointers_break, hrun_fn fn, void *ctx)
{
	const struct ref_walk w = {b, fn, ctx, pointers_break};
	struct ref_level st[HRUN_MAX_DEPTH];
	size_t top = 0, last = 0;
	for (size_t i = 1; i < n; i++) {
		if (b[i].flags & HB_MARK)
			continue;
		const uint32_t g = b[i].gap_depth;
		while (top && st[top - 1].depth > g) {
			ref_end_child(&w, &st[top - 1], st[top - 1].child, last);
			ref_finish(&w, &st[--top]);
		}
		if (top && st[top - 1].depth == g) {
			ref_end_child(&w, &st[top - 1], st[top - 1].child, last);
			st[top - 1].child = i;
		} else if (top < HRUN_MAX_DEPTH) {
			const size_t first = top ? st[top - 1].child : 0;
			ref_open_level(&st[top], g, first);
			ref_end_child(&w, &st[top], first, last);
			st[top++].child = i;
		}
		last = i;
	}
	while (top) {
		ref_end_child(&w, &st[top - 1], st[top - 1].child, n ? n - 1 : 0);
		ref_finish(&w, &st[--top]);
	}
}

#endif
