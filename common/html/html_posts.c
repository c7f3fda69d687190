/*
 * html_posts.c - the posts of a thread (html_posts.h): what a run of
 * sibling elements of one shape (html_runs.h) decides when it is a run
 * of posts.
 */
#include "html/html_posts.h"
#include "html/html_runs.h"

#include <stdint.h>

struct pos {
	uint64_t text; /* words outside links, x 10 */
	uint64_t words, links;
	size_t good; /* posts where it is content */
	uint8_t heading;
};

static int link_heavy(const struct hblock *b)
{
	return (uint64_t)b->link_words10 * 3 > b->words10;
}

/* What each position of the run holds, over all its posts. */
static void gather(const struct hblock *b, const struct hrun *r, struct pos *p)
{
	for (size_t k = 0; k < r->len; k++)
		p[k] = (struct pos){0, 0, 0, 0, 0};
	size_t k = 0;
	for (size_t i = r->start; k < r->len * r->count; i++) {
		if (b[i].flags & HB_MARK)
			continue;
		struct pos *const q = &p[k++ % r->len];
		q->words += b[i].words10;
		q->links += b[i].link_words10;
		q->text += b[i].words10 > b[i].link_words10 ? b[i].words10 - b[i].link_words10 : 0;
		q->heading |= (b[i].flags & HB_HEADING) != 0;
		q->good += b[i].cls == HB_GOOD;
	}
}

static int can_be_content(const struct hblock *b)
{
	return b->cls <= HB_GOOD && !link_heavy(b) && b->words10 &&
	       !(b->flags & (HB_SOFT | HB_FORM | HB_COPYRIGHT | HB_MARK)) && !(b->pointer & HB_PTR_ANY);
}

/* The thread's title: the line right before its posts. */
static void take_title(struct hblock *b, size_t run)
{
	size_t j = run;
	while (j > 0 && (b[j - 1].flags & HB_MARK) && run - j < HRUN_SCAN_MAX)
		j--;
	if (j == 0 || (b[j - 1].flags & HB_MARK))
		return;
	struct hblock *const t = &b[j - 1];
	if (t->cls != HB_GOOD && can_be_content(t) && t->words10 <= POSTS_TITLE_WORDS10)
		t->cls = HB_GOOD;
}

static void take_run(struct hblock *b, const struct hrun *r, void *ctx)
{
	struct pos p[HRUN_MAX_BLOCKS];
	uint8_t body[HRUN_MAX_BLOCKS];
	(void)ctx;
	gather(b, r, p);
	size_t top = r->len;
	for (size_t k = 0; k < r->len; k++)
		if (!p[k].heading && (top == r->len || p[k].text > p[top].text))
			top = k;
	if (top == r->len || !p[top].text || !p[top].good || p[top].links * 3 > p[top].words)
		return;
	/* 1: content in every post; 2: in none; 0: as it was (a heading) */
	for (size_t k = 0; k < r->len; k++) {
		if (p[k].heading)
			body[k] = 0;
		else if (p[k].text * 2 >= p[top].text && p[k].links * 3 <= p[k].words)
			body[k] = 1;
		else
			body[k] = p[k].good * 2 >= r->count ? 1 : 2;
	}
	size_t k = 0;
	for (size_t i = r->start; k < r->len * r->count; i++) {
		if (b[i].flags & HB_MARK)
			continue;
		const uint8_t v = body[k++ % r->len];
		if (v == 1 && can_be_content(&b[i]))
			b[i].cls = HB_GOOD;
		else if (v == 2 && b[i].cls == HB_GOOD)
			b[i].cls = HB_BAD;
	}
	take_title(b, r->start);
}

size_t hblocks_posts(struct hblock *b, size_t n)
{
	hblocks_runs(b, n, 1, take_run, NULL);
	size_t good = 0;
	for (size_t i = 0; i < n; i++)
		good += b[i].cls == HB_GOOD;
	return good;
}
