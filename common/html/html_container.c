/*
 * html_container.c - the article's container (see html_container.h).
 */
#include "html/html_container.h"

#include <stdint.h>

/* Distinct depths open at once, in each of the two stacks; deeper pages
 * keep the classifier's verdict (a real page nests some 30 levels). */
#define CONTAINER_MAX_OPEN 256
/* Readability's spread of a block's weight over the elements above it,
 * x 36 so that all are whole: 1, 1/2, 1/6, 1/9, 1/12. */
#define SPREAD_LEVELS 5
static const uint8_t spread[SPREAD_LEVELS] = {36, 18, 6, 4, 3};
/* climb(): how far up, and the share of the top's mass the parts must have. */
#define CLIMB_LEVELS 6
#define CLIMB_SHARE_NUM 1
#define CLIMB_SHARE_DEN 2
/* keep_sibling(): a part beside the top with 1/SIBLING_MAJOR of its mass
 * is kept; down to 1/SIBLING_SHARE only if fewer than 1/LINKED_LINES_DEN
 * of its lines are links. */
#define SIBLING_MAJOR 5
#define SIBLING_SHARE 100
#define LINKED_LINES_DEN 3
/* Levels of elements above the top whose other children are judged. */
#define SIBLING_LEVELS 1
/* How far up from the top element an ancestor may replace it. */
#define WALK_UP_LEVELS 8

/* Blocks the classifier showed at the tier that decided (not chrome, not
 * outside declared main content). */
static int visible(const struct hblock *b)
{
	return b->cls <= HB_GOOD;
}

/* A content block's weight: its words outside links (x 10). */
static uint64_t weight(const struct hblock *b)
{
	if (b->cls != HB_GOOD || b->link_words10 >= b->words10)
		return 0;
	return b->words10 - b->link_words10;
}

/* Deeper than any gap: a mark (chrome dropped there) has no text and no
 * place of its own; the block after it has the gap to the one before it. */
#define THROUGH 0x10000u
/* Marks looked past for a block's next gap; more in a row end it there. */
#define MAX_MARKS_PAST 16

/* The gap before b[i]: 0 at the edges, THROUGH at a mark. */
static uint32_t gap_at(const struct hblock *b, size_t n, size_t i)
{
	if (i == 0 || i >= n)
		return 0;
	return (b[i].flags & HB_MARK) ? THROUGH : b[i].gap_depth;
}

/* The depth of the element that holds b[i] (not a mark) and a neighbour:
 * the deeper of the two it shares with the text blocks around it.  At
 * most UINT16_MAX (gap_depth's cap): find_top() keeps it in b[i].holder
 * for the scores that read it again.  *@cut is set if more marks than
 * MAX_MARKS_PAST stood before the next block. */
static uint32_t holder_depth(const struct hblock *b, size_t n, size_t i, int *cut)
{
	const uint32_t before = gap_at(b, n, i);
	uint32_t after = 0;
	size_t j = i + 1;
	for (; j < n && j <= i + MAX_MARKS_PAST; j++)
		if (!(b[j].flags & HB_MARK)) {
			after = b[j].gap_depth;
			break;
		}
	*cut |= j < n && j > i + MAX_MARKS_PAST;
	return before > after ? before : after;
}

/* An element's score scaled by the share of its visible words that are not
 * links. */
static uint64_t final_score(uint64_t score, uint64_t words, uint64_t links)
{
	return words ? score * (words - links) / words : 0;
}

struct range {
	size_t s, e; /* blocks s..e */
	uint32_t depth;
	uint64_t final;
};

/* The score of the element at @depth holding blocks r->s..r->e, by
 * scanning them (after find_top(): b[i].holder); sets r->final. */
static void score_range(const struct hblock *b, struct range *r)
{
	uint64_t score = 0, words = 0, links = 0;
	for (size_t i = r->s; i <= r->e; i++) {
		if (!visible(&b[i]))
			continue;
		words += b[i].words10;
		links += b[i].link_words10 < b[i].words10 ? b[i].link_words10 : b[i].words10;
		const uint64_t w = weight(&b[i]);
		if (!w)
			continue;
		const uint32_t p = b[i].holder;
		const uint32_t k = p > r->depth ? p - r->depth : 0;
		if (k < SPREAD_LEVELS)
			score += w * spread[k];
	}
	r->final = final_score(score, words, links);
}

/* The content weight of blocks s..e, unspread, scaled by the share of
 * their visible words that are not links. */
static uint64_t mass(const struct hblock *b, size_t s, size_t e)
{
	uint64_t weights = 0, words = 0, links = 0;
	for (size_t i = s; i <= e; i++) {
		if (!visible(&b[i]))
			continue;
		words += b[i].words10;
		links += b[i].link_words10 < b[i].words10 ? b[i].link_words10 : b[i].words10;
		weights += weight(&b[i]);
	}
	return final_score(weights, words, links);
}

/* Are blocks s..e prose, not a list of linked items: fewer than
 * 1/LINKED_LINES_DEN of their lines links? */
static int prose(const struct hblock *b, size_t s, size_t e)
{
	size_t lines = 0, linked = 0;
	for (size_t i = s; i <= e; i++) {
		if (!visible(&b[i]) || !b[i].words10)
			continue;
		lines++;
		linked += (uint64_t)b[i].link_words10 * 3 > b[i].words10;
	}
	return linked * LINKED_LINES_DEN < lines;
}

/* The element at @depth that holds blocks s..e (depth no more than theirs). */
static struct range widen(const struct hblock *b, size_t n, size_t s, size_t e, uint32_t depth)
{
	while (s > 0 && gap_at(b, n, s) >= depth)
		s--;
	while (e + 1 < n && gap_at(b, n, e + 1) >= depth)
		e++;
	return (struct range){s, e, depth, 0};
}

struct open_node {
	uint32_t depth;
	size_t start;
	uint64_t w0, l0; /* visible words and links before start */
	uint64_t score;
};

struct prev_small { /* blocks whose gap is less than every later gap so far */
	uint32_t gap;
	size_t idx;
	uint64_t w0, l0;
};

/* The open elements and the blocks before them, as find_top() reads on. */
struct open_state {
	struct open_node open[CONTAINER_MAX_OPEN];
	struct prev_small prev[CONTAINER_MAX_OPEN];
	size_t n_open, n_prev;
};

/*
 * Make sure the elements at depths p, p - 1, ... (SPREAD_LEVELS of them,
 * fewer near the root) that hold the block are open: as none deeper than
 * the block's gap is, and p is at least that gap, they are the top
 * @return entries of open[] afterwards, the deepest last; -1 if the page
 * nests too deep to track.
 */
static int open_levels(struct open_state *st, uint32_t p)
{
	struct open_node *const open = st->open;
	/* open[] is sorted by depth and d falls with k: each level's place
	 * is at or below the one before it */
	size_t at = st->n_open;
	uint32_t k = 0;
	for (; k < SPREAD_LEVELS && k <= p; k++) {
		const uint32_t d = p - k;
		while (at > 0 && open[at - 1].depth > d)
			at--;
		if (at > 0 && open[at - 1].depth == d) {
			at--;
			continue;
		}
		if (st->n_open == CONTAINER_MAX_OPEN)
			return -1;
		for (size_t m = st->n_open; m > at; m--)
			open[m] = open[m - 1];
		st->n_open++;
		/* It began after the last gap shallower than it. */
		struct open_node o = {d, 0, 0, 0, 0};
		size_t j = st->n_prev;
		while (j > 0 && st->prev[j - 1].gap >= d)
			j--;
		if (j > 0)
			o.start = st->prev[j - 1].idx, o.w0 = st->prev[j - 1].w0, o.l0 = st->prev[j - 1].l0;
		open[at] = o;
	}
	return (int)k;
}

/* The weight @w of content blocks that all spread over the top @levels
 * entries of open[], added to their scores. */
static void spread_weight(struct open_state *st, uint64_t w, int levels)
{
	for (int k = 0; k < levels; k++)
		st->open[st->n_open - 1 - (size_t)k].score += w * spread[k];
}

/*
 * The elements above the top that find_top() scored as they closed:
 * r[up] is the one up levels above it, final 0 if no content reached it.
 * These are score_range()'s scores of the same elements, but where a
 * content block first in its element had more marks after it than a
 * holder looks past (its holder is then shallower than the element:
 * score_range() counts it whole, find_top() in the elements above): then
 * @exact is 0 and walk_up() scores them by scanning.
 */
struct above {
	struct range r[WALK_UP_LEVELS + 1];
	int exact;
};

/* Element @o (closed at block @end) of score @f, not the top: one above it? */
static void note_above(struct above *a, const struct range *top, const struct open_node *o,
		       size_t end, uint64_t f)
{
	if (o->depth < top->depth && top->depth - o->depth <= WALK_UP_LEVELS && o->start <= top->s)
		a->r[top->depth - o->depth] = (struct range){o->start, end, o->depth, f};
}

/*
 * One pass: every element that some content block's weight reaches, its
 * score summed while it is open and its final score taken when the first
 * gap shallower than it closes it.  Content blocks one after another
 * with one holder reach the same elements while none closes: their
 * weights are summed and spread once (a section's paragraphs).  @return
 * 0 with the best in *@top and the elements above it in *@above, or -1 if
 * the page nests too deep to track.  Each content block's holder depth is
 * left in its holder.
 */
static int find_top(struct hblock *b, size_t n, struct range *top, struct above *above)
{
	struct open_state st;
	struct open_node *const open = st.open;
	struct prev_small *const prev = st.prev;
	st.n_open = st.n_prev = 0;
	uint64_t words = 0, links = 0; /* visible, before block i */
	uint64_t pend = 0; /* weight not yet spread, of blocks held at pend_p */
	uint32_t pend_p = 0;
	int pend_levels = 0;
	*top = (struct range){0, n - 1, 0, 0};
	int found = 0, cut = 0;
	for (size_t i = 0; i <= n; i++) {
		const uint32_t g = gap_at(b, n, i);
		if (pend && st.n_open && (i == n || open[st.n_open - 1].depth > g)) {
			spread_weight(&st, pend, pend_levels);
			pend = 0;
		}
		while (st.n_open && (i == n || open[st.n_open - 1].depth > g)) {
			const struct open_node *const o = &open[--st.n_open];
			const uint64_t f = final_score(o->score, words - o->w0, links - o->l0);
			if (!found || f > top->final) {
				*top = (struct range){o->start, i - 1, o->depth, f};
				found = 1;
				for (size_t up = 1; up <= WALK_UP_LEVELS; up++)
					above->r[up].final = 0;
			} else {
				note_above(above, top, o, i - 1, f);
			}
		}
		if (i == n)
			break;
		while (st.n_prev && prev[st.n_prev - 1].gap >= g)
			st.n_prev--;
		if (st.n_prev == CONTAINER_MAX_OPEN)
			return -1;
		prev[st.n_prev++] = (struct prev_small){g, i, words, links};
		const uint64_t w = weight(&b[i]);
		if (w) {
			const uint32_t p = holder_depth(b, n, i, &cut);
			b[i].holder = (uint16_t)p;
			if (pend && p == pend_p) {
				pend += w;
			} else {
				if (pend)
					spread_weight(&st, pend, pend_levels);
				pend_levels = open_levels(&st, p);
				if (pend_levels < 0)
					return -1;
				pend = w, pend_p = p;
			}
		}
		if (visible(&b[i])) {
			words += b[i].words10;
			links += b[i].link_words10 < b[i].words10 ? b[i].link_words10 : b[i].words10;
		}
	}
	above->exact = !cut;
	return found ? 0 : -1;
}

/* Readability's walk up: an ancestor that scores more than the element
 * below it holds more of the content (it sums several children); stop
 * when the ancestors' score falls under a third of the top's.  The
 * ancestors' scores are find_top()'s (@above) unless they may differ. */
static struct range walk_up(const struct hblock *b, size_t n, struct range top,
			    const struct above *above)
{
	const uint64_t floor = top.final / 3;
	uint64_t last = top.final;
	for (uint32_t up = 1; up <= WALK_UP_LEVELS && up <= top.depth; up++) {
		struct range a = above->r[up];
		if (!above->exact) {
			a = widen(b, n, top.s, top.e, top.depth - up);
			score_range(b, &a);
		}
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
static int keep_sibling(const struct hblock *b, size_t s, size_t e, uint64_t top_final)
{
	if (s == e) {
		const struct hblock *const x = &b[s];
		if (x->cls != HB_GOOD)
			return 0;
		return (x->flags & HB_HEADING) ||
		       ((uint64_t)x->link_words10 * 4 < x->words10 &&
			(x->ns_bytes > 80 || (!x->link_words10 && (x->flags & HB_SENTENCE))));
	}
	const uint64_t m = mass(b, s, e);
	if (!m || m * SIBLING_SHARE < top_final)
		return 0;
	if (m * SIBLING_MAJOR >= top_final)
		return 1;
	/* a lesser part: kept if it is prose */
	return prose(b, s, e);
}

/* The depth of the element above @r that holds it and a neighbour. */
static uint32_t parent_depth(const struct hblock *b, size_t n, const struct range *r)
{
	const uint32_t before = gap_at(b, n, r->s), after = gap_at(b, n, r->e + 1);
	return before > after ? before : after;
}


/*
 * Content cut into parts of a kind (the steps of a how-to, the sections
 * of a document, the posts of a thread) has no one container: the top is
 * one part.  So up to CLIMB_LEVELS elements above it, the first whose
 * other children that are prose have together CLIMB_SHARE of the top's
 * mass replaces it; a lesser part beside the article (a news item in a
 * side column, a comment) or a box of linked teasers does not pull it up.
 */
static void climb(const struct hblock *b, size_t n, struct range *top)
{
	struct range r = *top;
	for (int level = 0; level < CLIMB_LEVELS && r.depth > 0; level++) {
		const uint32_t pd = parent_depth(b, n, &r);
		const struct range parent = widen(b, n, r.s, r.e, pd);
		uint64_t parts = 0;
		for (size_t cs = parent.s; cs <= parent.e;) {
			size_t ce = cs;
			while (ce + 1 <= parent.e && gap_at(b, n, ce + 1) > pd)
				ce++;
			if (!(cs == r.s && ce == r.e) && prose(b, cs, ce))
				parts += mass(b, cs, ce);
			cs = ce + 1;
		}
		if (parts * CLIMB_SHARE_DEN >= top->final * CLIMB_SHARE_NUM) {
			*top = parent;
			top->final = mass(b, parent.s, parent.e);
			return;
		}
		r = parent;
	}
}

static void drop(struct hblock *b, size_t s, size_t e)
{
	for (size_t i = s; i <= e; i++)
		if (b[i].cls == HB_GOOD)
			b[i].cls = HB_BAD;
}

/* A line of a post's metadata: content, no heading, at most
 * META_WORDS10 words (a name, "jo.smith" too, a date, "Reply"). */
#define META_WORDS10 40
/* The article before reader comments: this many words of prose. */
#define ARTICLE_WORDS10 1000

static int meta_line(const struct hblock *b)
{
	return b->cls == HB_GOOD && !(b->flags & HB_HEADING) && b->words10 &&
	       b->words10 <= META_WORDS10;
}

/*
 * Reader comments after an article: a post is a name and a date line
 * (one or two meta lines) before its text, and comments repeat that
 * shape, one sibling after another, where an article's paragraphs follow
 * one another without it.  So the last run of two posts or more among
 * the content blocks (others passed over: a "Reply" link), with
 * ARTICLE_WORDS10 words of prose before it that is not such a post, is
 * the comments when a heading opens it ("Comments (3)"): it and the
 * heading are not content (a run without one, "___" and a correction
 * line twice at an article's end, stays).  A thread, whose posts are its content, has no article
 * before them.  Declared main content often holds the comments, so the
 * classifier's trust in it took them in.
 */
/* The last content block before b[i], SIZE_MAX if none. */
static size_t prev_good(const struct hblock *b, size_t i)
{
	while (i > 0 && b[i - 1].cls != HB_GOOD)
		i--;
	return i > 0 ? i - 1 : SIZE_MAX;
}

static void drop_comments(struct hblock *b, size_t n)
{
	size_t start = n, posts = 0, i = n;
	/* back from the end, unit by unit: a text block, not links (after
	 * it, perhaps one meta line: "Reply"), then 1-2 meta lines before it */
	for (;;) {
		size_t t = prev_good(b, i);
		if (t < n && meta_line(&b[t])) {
			const size_t x = prev_good(b, t);
			t = x < n && !meta_line(&b[x]) ? x : SIZE_MAX;
		}
		if (t >= n || (b[t].flags & HB_HEADING) || (uint64_t)b[t].link_words10 * 3 > b[t].words10)
			break;
		size_t m = t, metas = 0; /* b[m] is the text */
		size_t k = m;
		while (metas < 2) {
			size_t q = k;
			while (q > 0 && b[q - 1].cls != HB_GOOD)
				q--;
			if (q == 0 || !meta_line(&b[q - 1]))
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
	if (!titled || before < ARTICLE_WORDS10)
		return;
	for (size_t k = head - 1; k < n; k++)
		if (b[k].cls == HB_GOOD)
			b[k].cls = HB_BAD;
}

/* A teaser's summary: at most TEASER_WORDS10 words before its link on. */
#define TEASER_WORDS10 500

static int teaser(const struct hblock *b)
{
	return b->cls == HB_GOOD && (b->pointer & HB_PTR_MORE) && b->words10 <= TEASER_WORDS10;
}

/* A paragraph of the page's own, which ends a teaser list: content, no
 * heading, no teaser, few links, prose by the classifier's own measure
 * (40 words, or 15 and a sentence). */
static int own_paragraph(const struct hblock *b)
{
	return b->cls == HB_GOOD && !(b->flags & HB_HEADING) && !teaser(b) &&
	       (uint64_t)b->link_words10 * 5 <= b->words10 &&
	       (b->words10 >= 400 || (b->words10 >= 150 && (b->flags & HB_SENTENCE)));
}

/* A row's title between two summaries: a heading (shown or not) or a
 * line of links. */
static int row_title(const struct hblock *b)
{
	return !(b->flags & HB_MARK) && ((b->flags & HB_HEADING) || (uint64_t)b->link_words10 * 3 > b->words10);
}

/* The own text's measure: content, no heading, not link-dense. */
static uint64_t own_bytes(const struct hblock *b)
{
	return b->cls == HB_GOOD && !(b->flags & HB_HEADING) &&
	       (uint64_t)b->link_words10 * 3 <= b->words10 ? b->len : 0;
}

/* Blocks before a list's first summary looked at for its row's title. */
#define TEASER_HEAD_MAX 12

/*
 * The run of @count teasers b[s..last] ends, @second the second one: a
 * list (HB_ROWS_MIN or more) gets HB_PTR_MORE on all its blocks, from
 * the start of its first row (the blocks before b[s] inside the same
 * child of the element that holds the first two rows: its title and
 * dates); else its teasers lose the mark and are the page's own.
 * @return the change to the page's own bytes.
 */
static int64_t end_run(struct hblock *b, size_t n, size_t s, size_t second, size_t last,
		       size_t count, size_t *marked)
{
	int64_t own = 0;
	if (count < HB_ROWS_MIN) {
		for (size_t k = s; k <= last; k++) {
			b[k].pointer &= (uint8_t)~HB_PTR_MORE;
			own += (int64_t)own_bytes(&b[k]);
		}
		return own;
	}
	uint32_t rows = THROUGH;
	for (size_t k = s + 1; k <= second; k++)
		rows = gap_at(b, n, k) < rows ? gap_at(b, n, k) : rows;
	for (size_t k = s; k > 0 && s - k < TEASER_HEAD_MAX && gap_at(b, n, k) > rows; k--) {
		b[k - 1].pointer |= HB_PTR_MORE;
		own -= (int64_t)own_bytes(&b[k - 1]);
	}
	for (size_t k = s; k <= last; k++)
		b[k].pointer |= HB_PTR_MORE;
	++*marked;
	return own;
}

/*
 * Teaser lists: HB_ROWS_MIN summaries or more that each end in a link on
 * (HB_PTR_MORE, a summary and its "Read more"), each after a title (a
 * heading or a line of links: rows, not an article's paragraphs that end
 * on a link), with no paragraph of the page's own between them, are a
 * list of rows that summarise other pages, with their titles and dates.
 * When the page has HB_OWN_MIN bytes of content of its own outside such
 * lists (not a heading, not link-dense), the lists are not content and
 * are rows pointing elsewhere (HB_PTR_ROW: the fallback and the template
 * decision leave them out too): the same long list of one-line summaries
 * on every page that has it must neither outweigh the page's own few
 * lines nor be its text.  A page that is nothing but such lists (an
 * index) is left as it was.  No HB_PTR_MORE is left.
 */
static void mark_teasers(struct hblock *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!teaser(&b[i]))
			b[i].pointer &= (uint8_t)~HB_PTR_MORE;
	size_t s = 0, second = 0, last = 0, count = 0, marked = 0;
	int64_t own = 0, after = 0; /* after: own bytes after the run's last teaser */
	int titled = 0; /* a title since the run's last teaser */
	for (size_t i = 0; i < n; i++) {
		if ((b[i].pointer & HB_PTR_MORE) && teaser(&b[i])) {
			if (count && !titled) {
				own += end_run(b, n, s, second, last, count, &marked) + after;
				count = 0;
			}
			titled = 0;
			if (!count)
				s = i;
			if (count == 1)
				second = i;
			last = i, count++, after = 0;
			continue;
		}
		if (count && own_paragraph(&b[i])) {
			own += end_run(b, n, s, second, last, count, &marked) + after;
			count = 0;
		}
		titled |= row_title(&b[i]);
		if (!count)
			own += (int64_t)own_bytes(&b[i]);
		else
			after += (int64_t)own_bytes(&b[i]);
	}
	if (count)
		own += end_run(b, n, s, second, last, count, &marked) + after;
	const int lists = marked && own >= HB_OWN_MIN;
	for (size_t i = 0; marked && i < n; i++) {
		if (!(b[i].pointer & HB_PTR_MORE))
			continue;
		b[i].pointer &= (uint8_t)~HB_PTR_MORE;
		if (lists && !(b[i].flags & HB_MARK)) {
			b[i].pointer |= HB_PTR_ROW;
			if (b[i].cls == HB_GOOD)
				b[i].cls = HB_BAD;
		}
	}
}

size_t hblocks_container(struct hblock *b, size_t n)
{
	drop_comments(b, n);
	mark_teasers(b, n);
	struct range top;
	struct above above;
	if (n == 0 || find_top(b, n, &top, &above))
		goto count;
	top = walk_up(b, n, top, &above);
	top.final = mass(b, top.s, top.e);
	climb(b, n, &top);
	/* The parent and SIBLING_LEVELS - 1 elements above it: their other
	 * children are judged (keep_sibling()); what lies beyond goes. */
	struct range kept = top;
	uint64_t top_mass = top.final;
	for (int level = 0; level < SIBLING_LEVELS && kept.depth > 0; level++) {
		const uint32_t pd = parent_depth(b, n, &kept);
		const struct range parent = widen(b, n, kept.s, kept.e, pd);
		for (size_t cs = parent.s; cs <= parent.e;) {
			size_t ce = cs;
			while (ce + 1 <= parent.e && gap_at(b, n, ce + 1) > pd)
				ce++;
			if (!(cs == kept.s && ce == kept.e) && !keep_sibling(b, cs, ce, top_mass))
				drop(b, cs, ce);
			cs = ce + 1;
		}
		kept = parent;
	}
	if (kept.s > 0)
		drop(b, 0, kept.s - 1);
	if (kept.e + 1 < n)
		drop(b, kept.e + 1, n - 1);
count:;
	size_t good = 0;
	for (size_t i = 0; i < n; i++)
		good += b[i].cls == HB_GOOD;
	return good;
}
