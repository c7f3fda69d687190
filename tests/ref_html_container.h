/*
 * ref_html_container.h - hblocks_container() as it was before find_top()
 * summed the weight of content blocks with one holder and kept their
 * holder depth for walk_up() (commit ef53af1), for the test that
 * compares the two on random pages: every content block's weight spread
 * on its own, every score recomputing each block's holder.  Test-only;
 * include once.
 */
#ifndef NDD_REF_HTML_CONTAINER_H
#define NDD_REF_HTML_CONTAINER_H

#include "html/html_blocks.h"

#include <stdint.h>

/* Distinct depths open at once, in each of the two stacks; deeper pages
 * keep the classifier's verdict (a real page nests some 30 levels). */
#define REF_CONTAINER_MAX_OPEN 256
/* Readability's spread of a block's weight over the elements above it,
 * x 36 so that all are whole: 1, 1/2, 1/6, 1/9, 1/12. */
#define REF_SPREAD_LEVELS 5
static const uint8_t ref_spread[REF_SPREAD_LEVELS] = {36, 18, 6, 4, 3};
/* ref_climb(): how far up, and the share of the top's mass the parts must have. */
#define REF_CLIMB_LEVELS 6
#define REF_CLIMB_SHARE_NUM 1
#define REF_CLIMB_SHARE_DEN 2
/* ref_keep_sibling(): a part beside the top with 1/REF_SIBLING_MAJOR of its mass
 * is kept; down to 1/REF_SIBLING_SHARE only if fewer than 1/REF_LINKED_LINES_DEN
 * of its lines are links. */
#define REF_SIBLING_MAJOR 5
#define REF_SIBLING_SHARE 100
#define REF_LINKED_LINES_DEN 3
/* Levels of elements above the top whose other children are judged. */
#define REF_SIBLING_LEVELS 1
/* How far up from the top element an ancestor may replace it. */
#define REF_WALK_UP_LEVELS 8

/* Blocks the classifier showed at the tier that decided (not chrome, not
 * outside declared main content). */
static int ref_visible(const struct hblock *b)
{
	return b->cls <= HB_GOOD;
}

/* A content block's weight: its words outside links (x 10). */
static uint64_t ref_weight(const struct hblock *b)
{
	if (b->cls != HB_GOOD || b->link_words10 >= b->words10)
		return 0;
	return b->words10 - b->link_words10;
}

/* Deeper than any gap: a mark (chrome dropped there) has no text and no
 * place of its own; the block after it has the gap to the one before it. */
#define REF_THROUGH 0x10000u
/* Marks looked past for a block's next gap; more in a row end it there. */
#define REF_MAX_MARKS_PAST 16

/* The gap before b[i]: 0 at the edges, REF_THROUGH at a mark. */
static uint32_t ref_gap_at(const struct hblock *b, size_t n, size_t i)
{
	if (i == 0 || i >= n)
		return 0;
	return (b[i].flags & HB_MARK) ? REF_THROUGH : b[i].gap_depth;
}

/* The depth of the element that holds b[i] (not a mark) and a neighbour:
 * the deeper of the two it shares with the text blocks around it. */
static uint32_t ref_holder_depth(const struct hblock *b, size_t n, size_t i)
{
	const uint32_t before = ref_gap_at(b, n, i);
	uint32_t after = 0;
	for (size_t j = i + 1; j < n && j <= i + REF_MAX_MARKS_PAST; j++)
		if (!(b[j].flags & HB_MARK)) {
			after = b[j].gap_depth;
			break;
		}
	return before > after ? before : after;
}

/* An element's score scaled by the share of its visible words that are not
 * links. */
static uint64_t ref_final_score(uint64_t score, uint64_t words, uint64_t links)
{
	return words ? score * (words - links) / words : 0;
}

struct ref_range {
	size_t s, e; /* blocks s..e */
	uint32_t depth;
	uint64_t final;
};

/* The score of the element at @depth holding blocks r->s..r->e, by
 * scanning them; sets r->final. */
static void ref_score_range(const struct hblock *b, size_t n, struct ref_range *r)
{
	uint64_t score = 0, words = 0, links = 0;
	for (size_t i = r->s; i <= r->e; i++) {
		if (!ref_visible(&b[i]))
			continue;
		words += b[i].words10;
		links += b[i].link_words10 < b[i].words10 ? b[i].link_words10 : b[i].words10;
		const uint64_t w = ref_weight(&b[i]);
		if (!w)
			continue;
		const uint32_t p = ref_holder_depth(b, n, i);
		const uint32_t k = p > r->depth ? p - r->depth : 0;
		if (k < REF_SPREAD_LEVELS)
			score += w * ref_spread[k];
	}
	r->final = ref_final_score(score, words, links);
}

/* The content weight of blocks s..e, unspread, scaled by the share of
 * their visible words that are not links. */
static uint64_t ref_mass(const struct hblock *b, size_t s, size_t e)
{
	uint64_t weights = 0, words = 0, links = 0;
	for (size_t i = s; i <= e; i++) {
		if (!ref_visible(&b[i]))
			continue;
		words += b[i].words10;
		links += b[i].link_words10 < b[i].words10 ? b[i].link_words10 : b[i].words10;
		weights += ref_weight(&b[i]);
	}
	return ref_final_score(weights, words, links);
}

/* Are blocks s..e prose, not a list of linked items: fewer than
 * 1/REF_LINKED_LINES_DEN of their lines links? */
static int ref_prose(const struct hblock *b, size_t s, size_t e)
{
	size_t lines = 0, linked = 0;
	for (size_t i = s; i <= e; i++) {
		if (!ref_visible(&b[i]) || !b[i].words10)
			continue;
		lines++;
		linked += (uint64_t)b[i].link_words10 * 3 > b[i].words10;
	}
	return linked * REF_LINKED_LINES_DEN < lines;
}

/* The element at @depth that holds blocks s..e (depth no more than theirs). */
static struct ref_range ref_widen(const struct hblock *b, size_t n, size_t s, size_t e, uint32_t depth)
{
	while (s > 0 && ref_gap_at(b, n, s) >= depth)
		s--;
	while (e + 1 < n && ref_gap_at(b, n, e + 1) >= depth)
		e++;
	return (struct ref_range){s, e, depth, 0};
}

struct ref_open_node {
	uint32_t depth;
	size_t start;
	uint64_t w0, l0; /* visible words and links before start */
	uint64_t score;
};

struct ref_prev_small { /* blocks whose gap is less than every later gap so far */
	uint32_t gap;
	size_t idx;
	uint64_t w0, l0;
};

/*
 * One pass: every element that some content block's weight reaches, its
 * score summed while it is open and its final score taken when the first
 * gap shallower than it closes it.  @return 0 with the best in *@top, or
 * -1 if the page nests too deep to track.
 */
static int ref_find_top(const struct hblock *b, size_t n, struct ref_range *top)
{
	struct ref_open_node open[REF_CONTAINER_MAX_OPEN];
	struct ref_prev_small prev[REF_CONTAINER_MAX_OPEN];
	size_t n_open = 0, n_prev = 0;
	uint64_t words = 0, links = 0; /* visible, before block i */
	*top = (struct ref_range){0, n - 1, 0, 0};
	int found = 0;
	for (size_t i = 0; i <= n; i++) {
		const uint32_t g = ref_gap_at(b, n, i);
		while (n_open && (i == n || open[n_open - 1].depth > g)) {
			const struct ref_open_node *const o = &open[--n_open];
			const uint64_t f = ref_final_score(o->score, words - o->w0, links - o->l0);
			if (!found || f > top->final) {
				*top = (struct ref_range){o->start, i - 1, o->depth, f};
				found = 1;
			}
		}
		if (i == n)
			break;
		while (n_prev && prev[n_prev - 1].gap >= g)
			n_prev--;
		if (n_prev == REF_CONTAINER_MAX_OPEN)
			return -1;
		prev[n_prev++] = (struct ref_prev_small){g, i, words, links};
		const uint64_t w = ref_weight(&b[i]);
		const uint32_t p = w ? ref_holder_depth(b, n, i) : 0;
		/* open[] is sorted by depth and d falls with k: each level's
		 * place is at or below the one before it */
		size_t at = n_open;
		for (uint32_t k = 0; w && k < REF_SPREAD_LEVELS && k <= p; k++) {
			const uint32_t d = p - k;
			while (at > 0 && open[at - 1].depth > d)
				at--;
			if (at > 0 && open[at - 1].depth == d) {
				at--;
			} else {
				if (n_open == REF_CONTAINER_MAX_OPEN)
					return -1;
				for (size_t m = n_open; m > at; m--)
					open[m] = open[m - 1];
				n_open++;
				/* It began after the last gap shallower than it. */
				struct ref_open_node o = {d, 0, 0, 0, 0};
				size_t j = n_prev;
				while (j > 0 && prev[j - 1].gap >= d)
					j--;
				if (j > 0)
					o.start = prev[j - 1].idx, o.w0 = prev[j - 1].w0, o.l0 = prev[j - 1].l0;
				open[at] = o;
			}
			open[at].score += w * ref_spread[k];
		}
		if (ref_visible(&b[i])) {
			words += b[i].words10;
			links += b[i].link_words10 < b[i].words10 ? b[i].link_words10 : b[i].words10;
		}
	}
	return found ? 0 : -1;
}

/* Readability's walk up: an ancestor that scores more than the element
 * below it holds more of the content (it sums several children); stop
 * when the ancestors' score falls under a third of the top's. */
static struct ref_range ref_walk_up(const struct hblock *b, size_t n, struct ref_range top)
{
	const uint64_t floor = top.final / 3;
	uint64_t last = top.final;
	for (uint32_t up = 1; up <= REF_WALK_UP_LEVELS && up <= top.depth; up++) {
		struct ref_range a = ref_widen(b, n, top.s, top.e, top.depth - up);
		ref_score_range(b, n, &a);
		if (!a.final)
			continue;
		if (a.final < floor)
			break;
		if (a.final > last)
			return a;
		last = a.final;
	}
	return top;
}

/* Is the sibling b[s..e] of the top element kept? */
static int ref_keep_sibling(const struct hblock *b, size_t s, size_t e, uint64_t top_final)
{
	if (s == e) {
		const struct hblock *const x = &b[s];
		if (x->cls != HB_GOOD)
			return 0;
		return (x->flags & HB_HEADING) ||
		       ((uint64_t)x->link_words10 * 4 < x->words10 &&
			(x->ns_bytes > 80 || (!x->link_words10 && (x->flags & HB_SENTENCE))));
	}
	const uint64_t m = ref_mass(b, s, e);
	if (!m || m * REF_SIBLING_SHARE < top_final)
		return 0;
	if (m * REF_SIBLING_MAJOR >= top_final)
		return 1;
	/* a lesser part: kept if it is prose */
	return ref_prose(b, s, e);
}

/* The depth of the element above @r that holds it and a neighbour. */
static uint32_t ref_parent_depth(const struct hblock *b, size_t n, const struct ref_range *r)
{
	const uint32_t before = ref_gap_at(b, n, r->s), after = ref_gap_at(b, n, r->e + 1);
	return before > after ? before : after;
}


/*
 * Content cut into parts of a kind (the steps of a how-to, the sections
 * of a document, the posts of a thread) has no one container: the top is
 * one part.  So up to REF_CLIMB_LEVELS elements above it, the first whose
 * other children that are prose have together CLIMB_SHARE of the top's
 * mass replaces it; a lesser part beside the article (a news item in a
 * side column, a comment) or a box of linked teasers does not pull it up.
 */
static void ref_climb(const struct hblock *b, size_t n, struct ref_range *top)
{
	struct ref_range r = *top;
	for (int level = 0; level < REF_CLIMB_LEVELS && r.depth > 0; level++) {
		const uint32_t pd = ref_parent_depth(b, n, &r);
		const struct ref_range parent = ref_widen(b, n, r.s, r.e, pd);
		uint64_t parts = 0;
		for (size_t cs = parent.s; cs <= parent.e;) {
			size_t ce = cs;
			while (ce + 1 <= parent.e && ref_gap_at(b, n, ce + 1) > pd)
				ce++;
			if (!(cs == r.s && ce == r.e) && ref_prose(b, cs, ce))
				parts += ref_mass(b, cs, ce);
			cs = ce + 1;
		}
		if (parts * REF_CLIMB_SHARE_DEN >= top->final * REF_CLIMB_SHARE_NUM) {
			*top = parent;
			top->final = ref_mass(b, parent.s, parent.e);
			return;
		}
		r = parent;
	}
}

static void ref_drop(struct hblock *b, size_t s, size_t e)
{
	for (size_t i = s; i <= e; i++)
		if (b[i].cls == HB_GOOD)
			b[i].cls = HB_BAD;
}

/* A line of a post's metadata: content, no heading, at most
 * REF_META_WORDS10 words (a name, "jo.smith" too, a date, "Reply"). */
#define REF_META_WORDS10 40
/* The article before reader comments: this many words of prose. */
#define REF_ARTICLE_WORDS10 1000

static int ref_meta_line(const struct hblock *b)
{
	return b->cls == HB_GOOD && !(b->flags & HB_HEADING) && b->words10 &&
	       b->words10 <= REF_META_WORDS10;
}

/*
 * Reader comments after an article: a post is a name and a date line
 * (one or two meta lines) before its text, and comments repeat that
 * shape, one sibling after another, where an article's paragraphs follow
 * one another without it.  So the last run of two posts or more among
 * the content blocks (others passed over: a "Reply" link), with
 * REF_ARTICLE_WORDS10 words of prose before it that is not such a post, is
 * the comments when a heading opens it ("Comments (3)"): it and the
 * heading are not content (a run without one, "___" and a correction
 * line twice at an article's end, stays).  A thread, whose posts are its content, has no article
 * before them.  Declared main content often holds the comments, so the
 * classifier's trust in it took them in.
 */
/* The last content block before b[i], SIZE_MAX if none. */
static size_t ref_prev_good(const struct hblock *b, size_t i)
{
	while (i > 0 && b[i - 1].cls != HB_GOOD)
		i--;
	return i > 0 ? i - 1 : SIZE_MAX;
}

static void ref_drop_comments(struct hblock *b, size_t n)
{
	size_t start = n, posts = 0, i = n;
	/* back from the end, unit by unit: a text block, not links (after
	 * it, perhaps one meta line: "Reply"), then 1-2 meta lines before it */
	for (;;) {
		size_t t = ref_prev_good(b, i);
		if (t < n && ref_meta_line(&b[t])) {
			const size_t x = ref_prev_good(b, t);
			t = x < n && !ref_meta_line(&b[x]) ? x : SIZE_MAX;
		}
		if (t >= n || (b[t].flags & HB_HEADING) || (uint64_t)b[t].link_words10 * 3 > b[t].words10)
			break;
		size_t m = t, metas = 0; /* b[m] is the text */
		size_t k = m;
		while (metas < 2) {
			size_t q = k;
			while (q > 0 && b[q - 1].cls != HB_GOOD)
				q--;
			if (q == 0 || !ref_meta_line(&b[q - 1]))
				break;
			k = q - 1;
			metas++;
		}
		if (!metas)
			break;
		start = k;
		posts++;
		i = k;
	}
	if (posts < 2)
		return;
	uint64_t before = 0;
	size_t head = start;
	while (head > 0 && b[head - 1].cls != HB_GOOD)
		head--;
	const int titled = head > 0 && (b[head - 1].flags & HB_HEADING);
	for (size_t k = 0; k + titled < head; k++)
		if (b[k].cls == HB_GOOD && !(b[k].flags & HB_HEADING))
			before += b[k].words10;
	if (!titled || before < REF_ARTICLE_WORDS10)
		return;
	for (size_t k = head - 1; k < n; k++)
		if (b[k].cls == HB_GOOD)
			b[k].cls = HB_BAD;
}

static size_t ref_hblocks_container(struct hblock *b, size_t n)
{
	ref_drop_comments(b, n);
	struct ref_range top;
	if (n == 0 || ref_find_top(b, n, &top))
		goto count;
	top = ref_walk_up(b, n, top);
	top.final = ref_mass(b, top.s, top.e);
	ref_climb(b, n, &top);
	/* The parent and REF_SIBLING_LEVELS - 1 elements above it: their other
	 * children are judged (ref_keep_sibling()); what lies beyond goes. */
	struct ref_range kept = top;
	uint64_t top_mass = top.final;
	for (int level = 0; level < REF_SIBLING_LEVELS && kept.depth > 0; level++) {
		const uint32_t pd = ref_parent_depth(b, n, &kept);
		const struct ref_range parent = ref_widen(b, n, kept.s, kept.e, pd);
		for (size_t cs = parent.s; cs <= parent.e;) {
			size_t ce = cs;
			while (ce + 1 <= parent.e && ref_gap_at(b, n, ce + 1) > pd)
				ce++;
			if (!(cs == kept.s && ce == kept.e) && !ref_keep_sibling(b, cs, ce, top_mass))
				ref_drop(b, cs, ce);
			cs = ce + 1;
		}
		kept = parent;
	}
	if (kept.s > 0)
		ref_drop(b, 0, kept.s - 1);
	if (kept.e + 1 < n)
		ref_drop(b, kept.e + 1, n - 1);
count:;
	size_t good = 0;
	for (size_t i = 0; i < n; i++)
		good += b[i].cls == HB_GOOD;
	return good;
}

#endif
