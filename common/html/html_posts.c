/*
 * html_posts.c - runs of sibling elements of one shape: a thread's posts
 * (html_posts.h says what is decided; this file how the runs are found).
 *
 * One pass over the blocks with a stack of the open elements' depths (as
 * html_container.c reads gap_depth): a block whose gap is g ends the
 * current child of every element deeper than g (they close) and of the
 * element at depth g (a new child starts), or opens the element at depth g
 * whose first child began where the current child of the element above
 * it did.  Each child is hashed once, over at most SCAN_MAX blocks, and
 * compared with its elder sibling's hash, so the pass is linear in the
 * blocks however deep the page nests.
 */
#include "html/html_posts.h"

#include <stdint.h>

/* Blocks looked at to hash a child (marks included): a longer child is
 * no post. */
#define SCAN_MAX (4 * POSTS_MAX_BLOCKS)

struct level {
	uint32_t depth;
	size_t child;   /* first block of the current child */
	uint64_t shape; /* the elder child's shape; 0: none */
	size_t len;     /* its blocks, marks not counted */
	size_t run;     /* first block of the run of children of that shape */
	size_t count;   /* children in the run */
};

struct pos {
	uint64_t text;  /* words outside links, x 10 */
	uint64_t words, links;
	uint8_t heading, good;
};

static int is_mark(const struct hblock *b)
{
	return (b->flags & HB_MARK) != 0;
}

static int link_heavy(const struct hblock *b)
{
	return (uint64_t)b->link_words10 * 3 > b->words10;
}

/* The shape of the child b[s..e] under the element at @depth, 0 if it is
 * no post (one block, too many, or a pointer among them); *len gets its
 * blocks (marks not counted). */
static uint64_t shape(const struct hblock *b, size_t s, size_t e, uint32_t depth, size_t *len)
{
	uint64_t h = 1469598103934665603u;
	size_t k = 0;
	if (e == s || e - s >= SCAN_MAX)
		return 0;
	for (size_t i = s; i <= e; i++) {
		if (is_mark(&b[i]))
			continue;
		if (b[i].pointer || ++k > POSTS_MAX_BLOCKS)
			return 0;
		const uint32_t rel = i == s ? 0 : b[i].gap_depth - depth;
		const uint32_t f = b[i].flags & (HB_HEADING | HB_SOFT | HB_MAIN);
		h = (h ^ (rel << 8 | f)) * 1099511628211u;
	}
	*len = k;
	return k >= 2 ? h | 1 : 0;
}

/* What each position of the run holds, over all its posts. */
static void gather(const struct hblock *b, const struct level *l, struct pos *p)
{
	for (size_t k = 0; k < l->len; k++)
		p[k] = (struct pos){0, 0, 0, 0, 0};
	size_t k = 0;
	for (size_t i = l->run; k < l->len * l->count; i++) {
		if (is_mark(&b[i]))
			continue;
		struct pos *const q = &p[k++ % l->len];
		q->words += b[i].words10;
		q->links += b[i].link_words10;
		q->text += b[i].words10 > b[i].link_words10 ? b[i].words10 - b[i].link_words10 : 0;
		q->heading |= (b[i].flags & HB_HEADING) != 0;
		q->good |= b[i].cls == HB_GOOD;
	}
}

static int can_be_content(const struct hblock *b)
{
	return b->cls <= HB_GOOD && !link_heavy(b) && b->words10 &&
	       !(b->flags & (HB_SOFT | HB_FORM | HB_COPYRIGHT | HB_MARK)) && !b->pointer;
}

/* The thread's title: the line right before its posts. */
static void take_title(struct hblock *b, size_t run)
{
	size_t j = run;
	while (j > 0 && is_mark(&b[j - 1]) && run - j < SCAN_MAX)
		j--;
	if (j == 0 || is_mark(&b[j - 1]))
		return;
	struct hblock *const t = &b[j - 1];
	if (t->cls != HB_GOOD && can_be_content(t) && t->words10 <= POSTS_TITLE_WORDS10)
		t->cls = HB_GOOD;
}

static __attribute__((noinline)) void take_run(struct hblock *b, const struct level *l)
{
	struct pos p[POSTS_MAX_BLOCKS];
	uint8_t body[POSTS_MAX_BLOCKS];
	if (l->count < 2 || !l->shape)
		return;
	gather(b, l, p);
	size_t top = l->len;
	for (size_t k = 0; k < l->len; k++)
		if (!p[k].heading && (top == l->len || p[k].text > p[top].text))
			top = k;
	if (top == l->len || !p[top].text || !p[top].good || p[top].links * 3 > p[top].words)
		return;
	for (size_t k = 0; k < l->len; k++)
		body[k] = !p[k].heading && p[k].text * 2 >= p[top].text && p[k].links * 3 <= p[k].words;
	size_t k = 0;
	for (size_t i = l->run; k < l->len * l->count; i++)
		if (!is_mark(&b[i]) && body[k++ % l->len] && can_be_content(&b[i]))
			b[i].cls = HB_GOOD;
	take_title(b, l->run);
}

/* The child b[s..e] of the element at l ends: it extends the run of its
 * elder siblings' shape or starts one (the run before it is decided). */
static void end_child(struct hblock *b, struct level *l, size_t s, size_t e)
{
	size_t len = 0;
	const uint64_t h = shape(b, s, e, l->depth, &len);
	if (h && h == l->shape && len == l->len) {
		l->count++;
		return;
	}
	if (l->count > 1)
		take_run(b, l);
	l->shape = h;
	l->len = len;
	l->run = s;
	l->count = 1;
}

size_t hblocks_posts(struct hblock *b, size_t n)
{
	struct level st[POSTS_MAX_DEPTH];
	size_t top = 0, last = 0;
	for (size_t i = 1; i < n; i++) {
		if (is_mark(&b[i]))
			continue;
		const uint32_t g = b[i].gap_depth;
		while (top && st[top - 1].depth > g) {
			end_child(b, &st[top - 1], st[top - 1].child, last);
			take_run(b, &st[--top]);
		}
		if (top && st[top - 1].depth == g) {
			end_child(b, &st[top - 1], st[top - 1].child, last);
			st[top - 1].child = i;
		} else if (top < POSTS_MAX_DEPTH) {
			const size_t first = top ? st[top - 1].child : 0;
			st[top] = (struct level){g, first, 0, 0, first, 0};
			end_child(b, &st[top], first, last);
			st[top++].child = i;
		}
		last = i;
	}
	while (top) {
		end_child(b, &st[top - 1], st[top - 1].child, n ? n - 1 : 0);
		take_run(b, &st[--top]);
	}
	size_t good = 0;
	for (size_t i = 0; i < n; i++)
		good += b[i].cls == HB_GOOD;
	return good;
}
