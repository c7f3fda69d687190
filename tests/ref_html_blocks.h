/*
 * ref_html_blocks.h - hblocks_classify() as it was written plainly
 * (commit c325db4; the fallback as html_blocks.h says since), for tests that compare the classifier's faster passes
 * with it: every pass over all blocks, each link-dense block's
 * neighbours walked from it.  Test-only; include once.
 */
#ifndef NDD_REF_HTML_BLOCKS_H
#define NDD_REF_HTML_BLOCKS_H

#include "html/html_blocks.h"

#define REF_CHROME 5
#define REF_SHORT_WORDS10 100
#define REF_GOOD_WORDS10 400
#define REF_SENTENCE_WORDS10 150


static int ref_link_dense(const struct hblock *b)
{
	return (uint64_t)b->link_words10 * 3 > b->words10;
}

/* Class of a block from its own evidence. */
static enum hb_cls ref_classify_block(const struct hblock *b)
{
	if ((b->flags & HB_COPYRIGHT) || ref_link_dense(b))
		return HB_BAD;
	if (b->words10 < REF_SHORT_WORDS10 || (b->pointer & (HB_PTR_ENTRY | HB_PTR_ROW)))
		return HB_SHORT;
	if ((uint64_t)b->link_words10 * 5 <= b->words10 &&
	    (b->words10 >= REF_GOOD_WORDS10 || (b->words10 >= REF_SENTENCE_WORDS10 && (b->flags & HB_SENTENCE))))
		return HB_GOOD;
	return HB_NEARGOOD;
}

/* The flags that hide a block at @tier (0 = no soft-dropped, 1 = forms
 * too, 2 = all): a mark (dropped chrome) has no text at any tier. */
static uint8_t ref_hidden_at(int tier)
{
	return (uint8_t)(HB_MARK | HB_NEVER | (tier < 2 ? HB_SOFT : 0) | (tier < 1 ? HB_FORM : 0));
}

/* @tier with REF_KEEP_MAIN: the page's declared main content has text, so
 * chrome outside it stays hidden as at tier 0. */
#define REF_KEEP_MAIN 4

static int ref_hidden(const struct hblock *b, int tier)
{
	const int t = (tier & REF_KEEP_MAIN) && !(b->flags & HB_MAIN) ? 0 : tier & 3;
	return (b->flags & ref_hidden_at(t)) != 0;
}

/*
 * A link line, unlike a link list, sits between text blocks: it is part
 * of the text around it ("Returns a GTimer.", "See PEP 8", a type and a
 * function name in an API table) and only SHORT.  A list is 3 or more
 * link-dense blocks in a row, or link blocks next to chrome (hidden at
 * @tier) or an edge.  b[i] is a BAD block; the others are judged by their
 * flags, so the initial classes can be set in one pass.
 */
static int ref_lone_link_line(const struct hblock *b, size_t n, size_t i, int tier)
{
	const struct hblock *const x = &b[i];
	if ((x->flags & HB_COPYRIGHT) || x->words10 >= REF_SHORT_WORDS10)
		return 0;
	size_t lo = i, hi = i, links = 1;
	for (;;) { /* widen [lo, hi] over link-dense short blocks */
		if (lo == 0 || ref_hidden(&b[lo - 1], tier))
			return 0;
		if (!ref_link_dense(&b[lo - 1]))
			break;
		if (++links > 2 || b[--lo].words10 >= REF_SHORT_WORDS10)
			return 0;
	}
	for (;;) {
		if (hi + 1 == n || ref_hidden(&b[hi + 1], tier))
			return 0;
		if (!ref_link_dense(&b[hi + 1]))
			return 1;
		if (++links > 2 || b[++hi].words10 >= REF_SHORT_WORDS10)
			return 0;
	}
}

/* Initial classes at @tier; @return whether declared main content has text. */
static int ref_classify_initial(struct hblock *b, size_t n, int tier)
{
	int main_has_content = 0;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = REF_CHROME;
		if (!ref_hidden(&b[i], tier)) {
			c = (uint8_t)ref_classify_block(&b[i]);
			if (c == HB_BAD && ref_lone_link_line(b, n, i, tier))
				c = HB_SHORT;
		}
		b[i].cls = c;
		main_has_content |= (b[i].flags & HB_MAIN) && (c == HB_GOOD || c == HB_NEARGOOD);
		/* an entry pointing elsewhere (not its linked title) is text there */
		main_has_content |= (b[i].flags & HB_MAIN) && c != REF_CHROME && !ref_link_dense(&b[i]) &&
				    (b[i].pointer & HB_PTR_ENTRY);
	}
	return main_has_content;
}

/* The least gap_depth of b[s..e], marks passed over. */
static unsigned ref_least_gap(const struct hblock *b, size_t s, size_t e)
{
	unsigned g = UINT16_MAX;
	for (size_t i = s; i <= e; i++)
		if (!(b[i].flags & HB_MARK) && b[i].gap_depth < g)
			g = b[i].gap_depth;
	return g;
}

/* Only declared main content counts, and in it all but link lists and
 * legal lines is content; rows outside the element of its own text (if
 * that is HB_OWN_MIN bytes) are not. */
static void ref_classify_main(struct hblock *b, size_t n)
{
	uint64_t own = 0;
	size_t first = n, last = 0;
	for (size_t i = 0; i < n; i++)
		if ((b[i].flags & HB_MAIN) && !(b[i].flags & (HB_HEADING | HB_COPYRIGHT)) &&
		    b[i].cls != REF_CHROME && !(b[i].pointer & (HB_PTR_ENTRY | HB_PTR_ROW)) &&
		    !ref_link_dense(&b[i])) {
			own += b[i].len;
			if (first == n)
				first = i;
			last = i;
		}
	const unsigned holder = first < last ? ref_least_gap(b, first + 1, last) : UINT16_MAX;
	for (size_t i = 0; i < n; i++) {
		int out = 0;
		if (own >= HB_OWN_MIN && (b[i].flags & HB_MAIN) && (b[i].pointer & (HB_PTR_ENTRY | HB_PTR_ROW)) &&
		    b[i].cls != REF_CHROME && (i < first || i > last))
			out = (i < first ? ref_least_gap(b, i + 1, first) : ref_least_gap(b, last + 1, i)) < holder;
		if (!(b[i].flags & HB_MAIN))
			b[i].cls = HB_HIDDEN;
		else if (out)
			b[i].cls = HB_BAD;
		else if (b[i].cls == HB_SHORT || b[i].cls == HB_NEARGOOD ||
			 (b[i].cls == HB_BAD && !(b[i].flags & HB_COPYRIGHT) &&
			  (uint64_t)b[i].link_words10 * 3 <= (uint64_t)b[i].words10 * 2) ||
			 (b[i].cls == HB_BAD && (b[i].flags & HB_COPYRIGHT) && !ref_link_dense(&b[i]) &&
			  (b[i].flags & HB_SENTENCE) && b[i].words10 >= REF_SENTENCE_WORDS10))
			b[i].cls = HB_GOOD;
	}
}

static int ref_is_edge(uint8_t c)
{
	return c == HB_GOOD || c == HB_BAD || c == REF_CHROME;
}

/*
 * The context rules: a NEARGOOD block becomes GOOD if its nearest GOOD or
 * BAD neighbour on either side is GOOD, else BAD; then a SHORT block
 * becomes GOOD if those on both sides are GOOD (hidden blocks are
 * skipped; chrome and the document's edges count as BAD).  Each rule
 * judges neighbours by their class before it.  Three sweeps for the two:
 * back (each block's next edge for the first rule), forth (the first
 * rule, and each block's previous edge after it), back (the second).
 */
static void ref_classify_context(struct hblock *b, size_t n)
{
	uint8_t next = HB_BAD;
	for (size_t i = n; i-- > 0;) {
		b[i].ctx = next;
		if (ref_is_edge(b[i].cls))
			next = b[i].cls;
	}
	uint8_t prev = HB_BAD, prev2 = HB_BAD;
	for (size_t i = 0; i < n; i++) {
		const uint8_t c = b[i].cls;
		if (c == HB_NEARGOOD)
			b[i].cls = prev == HB_GOOD || b[i].ctx == HB_GOOD ? HB_GOOD : HB_BAD;
		if (ref_is_edge(c))
			prev = c;
		b[i].ctx = prev2;
		if (ref_is_edge(b[i].cls))
			prev2 = b[i].cls;
	}
	next = HB_BAD;
	for (size_t i = n; i-- > 0;) {
		const uint8_t c = b[i].cls;
		if (c == HB_SHORT && b[i].ctx == HB_GOOD && next == HB_GOOD)
			b[i].cls = HB_GOOD;
		if (ref_is_edge(c))
			next = c;
	}
}

/*
 * The depth of the element that holds the content run b[s..e]: the least
 * gap inside it.  A run of one block has no inside: if it shares a deeper
 * element with one neighbour than with the other, that element holds it
 * and that neighbour's side; if both sides are alike, the block may be
 * alone in an element of its own (<div class=article><p>...</p></div>
 * between template lines), and UINT16_MAX lets nothing in.
 */
static uint16_t ref_run_holder(const struct hblock *b, size_t n, size_t s, size_t e)
{
	if (s == e) {
		const uint16_t before = b[s].gap_depth, after = s + 1 < n ? b[s + 1].gap_depth : 0;
		return before == after ? UINT16_MAX : before > after ? before : after;
	}
	uint16_t holder = UINT16_MAX;
	for (size_t i = s + 1; i <= e; i++)
		holder = b[i].gap_depth < holder ? b[i].gap_depth : holder;
	return holder;
}

/* From b[from] away from the run (@step 1 or -1), make SHORT blocks GOOD
 * (hidden ones passed over) while they and the run lie inside the element
 * of depth @holder; stop at any other block. */
static void ref_extend_side(struct hblock *b, size_t n, size_t from, int step, uint16_t holder)
{
	uint16_t reach = UINT16_MAX; /* b[i] and the run lie within an element this deep */
	for (size_t i = from; i < n; i += (size_t)step) { /* step -1 wraps below 0 */
		const uint16_t gap = step > 0 ? b[i].gap_depth : b[i + 1].gap_depth;
		reach = gap < reach ? gap : reach;
		if (reach < holder || (b[i].cls != HB_SHORT && b[i].cls != HB_HIDDEN))
			return;
		if (b[i].cls == HB_SHORT)
			b[i].cls = HB_GOOD;
	}
}

/*
 * SHORT blocks left at the edges of content runs.  The first or last line
 * of an article is content however short, and whether it is kept must not
 * depend on what the template puts beside it: so a run of GOOD blocks
 * (hidden ones between them passed over) takes in the SHORT blocks next
 * to it that lie inside the element holding the run.  A template's own
 * short lines (a byline, a "Posted in" line, a pager) sit outside that
 * element, and a BAD block or chrome ends the run's reach anyway.  The
 * SHORT blocks left become BAD in ref_classify_headings().
 */
static void ref_classify_edges(struct hblock *b, size_t n)
{
	size_t i = 0;
	while (i < n) {
		if (b[i].cls != HB_GOOD) {
			i++;
			continue;
		}
		size_t e = i, j = i + 1;
		for (; j < n && (b[j].cls == HB_GOOD || b[j].cls == HB_HIDDEN); j++)
			if (b[j].cls == HB_GOOD)
				e = j;
		const uint16_t holder = ref_run_holder(b, n, i, e);
		if (i > 0)
			ref_extend_side(b, n, i - 1, -1, holder);
		ref_extend_side(b, n, e + 1, 1, holder);
		/* What it took in is no run of its own. */
		for (i = e + 1; i < n && (b[i].cls == HB_GOOD || b[i].cls == HB_HIDDEN); i++)
			;
	}
}

/*
 * The SHORT blocks left are BAD; a heading (not a link list) right before
 * content introduces it.  Back to front, so a heading before a heading
 * that introduces content is content too.  @return the GOOD blocks.
 */
static size_t ref_classify_headings(struct hblock *b, size_t n)
{
	size_t good = 0;
	for (size_t i = n; i-- > 0;) {
		if (b[i].cls == HB_SHORT)
			b[i].cls = HB_BAD;
		if ((b[i].flags & HB_HEADING) && b[i].cls == HB_BAD && !ref_link_dense(&b[i]) &&
		    !(b[i].flags & HB_COPYRIGHT)) {
			size_t j = i + 1;
			while (j < n && b[j].cls == HB_HIDDEN)
				j++;
			if (j < n && b[j].cls == HB_GOOD)
				b[i].cls = HB_GOOD;
		}
		good += b[i].cls == HB_GOOD;
	}
	return good;
}

static size_t ref_count_good(const struct hblock *b, size_t n)
{
	size_t good = 0;
	for (size_t i = 0; i < n; i++)
		good += b[i].cls == HB_GOOD;
	return good;
}

/* Classify at @tier; @return the number of GOOD blocks. */
static size_t ref_classify_tier(struct hblock *b, size_t n, int tier)
{
	if (ref_classify_initial(b, n, tier))
		ref_classify_main(b, n);
	ref_classify_context(b, n);
	ref_classify_edges(b, n);
	return ref_classify_headings(b, n);
}

/*
 * Nothing confidently content: the runs of text between BAD blocks and
 * chrome (legal lines and, if declared main content has text, all else
 * left out) that have REF_FALLBACK_WORDS10, and the largest; if those
 * have fewer words, all the text.  @return the number of GOOD blocks.
 */
static size_t ref_classify_fallback(struct hblock *b, size_t n, int tier)
{
	ref_classify_initial(b, n, tier);
	int main_text = 0;
	for (size_t i = 0; i < n; i++)
		main_text |= b[i].cls != REF_CHROME && b[i].cls != HB_HIDDEN &&
			     !(b[i].flags & HB_COPYRIGHT) && (b[i].flags & HB_MAIN);
	/* pointers out when the rest has HB_OWN_MIN bytes */
	uint64_t own = 0;
	for (size_t i = 0; i < n; i++)
		if (b[i].cls != REF_CHROME && b[i].cls != HB_HIDDEN && !(b[i].flags & HB_COPYRIGHT) &&
		    (!main_text || (b[i].flags & HB_MAIN)) && !b[i].pointer)
			own += b[i].len;
	const int drop = own >= HB_OWN_MIN;
	for (size_t i = 0; i < n; i++)
		if (drop && b[i].pointer && b[i].cls != REF_CHROME)
			b[i].cls = HB_BAD;
	uint8_t keep[80] = {0}; /* the test's pages have fewer blocks */
	uint64_t best = 0, kept = 0;
	size_t best_start = 0, best_end = 0;
	for (size_t s = 0; s <= n;) {
		size_t e = s;
		uint64_t words = 0;
		while (e < n && b[e].cls != HB_BAD && b[e].cls != REF_CHROME) {
			if (b[e].cls != HB_HIDDEN && (!main_text || (b[e].flags & HB_MAIN)))
				words += b[e].words10;
			e++;
		}
		if (words >= 150) {
			kept += words;
			for (size_t k = s; k < e; k++)
				keep[k] = 1;
		}
		if (words > best)
			best = words, best_start = s, best_end = e;
		s = e + 1;
	}
	if (best < 150)
		kept += best;
	for (size_t k = best_start; k < best_end; k++)
		keep[k] = 1;
	for (size_t i = 0; i < n; i++) {
		const int text = b[i].cls != REF_CHROME && b[i].cls != HB_HIDDEN &&
				 !(b[i].flags & HB_COPYRIGHT) && (!main_text || (b[i].flags & HB_MAIN));
		b[i].cls = text && (kept < 150 || keep[i]) && !(drop && b[i].pointer) ? HB_GOOD : HB_BAD;
	}
	return ref_count_good(b, n);
}

/* Does @tier show the same blocks as the tier before it?  (A page with no
 * form shows the same at tiers 0 and 1: classifying again would find
 * nothing new.) */
static int ref_same_as_before(uint8_t flags_seen, int tier)
{
	return tier > 0 && (ref_hidden_at(tier) & flags_seen) == (ref_hidden_at(tier - 1) & flags_seen);
}

static size_t ref_hblocks_classify(struct hblock *b, size_t n)
{
	uint8_t seen = 0;
	for (size_t i = 0; i < n; i++)
		seen |= b[i].flags;
	/* Declared main content with text a reader sees: chrome outside it is
	 * never let back in. */
	int keep = 0;
	for (size_t i = 0; i < n; i++)
		keep |= (b[i].flags & HB_MAIN) && !(b[i].flags & (HB_SOFT | HB_FORM | HB_MARK | HB_COPYRIGHT)) &&
			b[i].words10 > 0;
	keep = keep ? REF_KEEP_MAIN : 0;
	hblocks_mark_pointers(b, n);
	size_t good = ref_classify_tier(b, n, keep);
	/* content only outside declared main content that holds more words
	 * (links too) and no prose: an index in <main>, the fallback's */
	int index_in_main = 0;
	if (good) {
		uint64_t in = 0, out = 0;
		int main_good = 0;
		for (size_t i = 0; i < n; i++) {
			if (b[i].flags & HB_MAIN) {
				main_good |= b[i].cls == HB_GOOD;
				if (!(b[i].flags & (ref_hidden_at(0) | HB_COPYRIGHT)))
					in += b[i].words10;
			} else if (b[i].cls == HB_GOOD) {
				out += b[i].words10;
			}
		}
		index_in_main = !main_good && in >= 150 && in > out;
		if (index_in_main)
			good = 0;
	}
	/* the words outside links of the entries visible at tier 0: an
	 * index's content, chrome not let in to outweigh it */
	uint64_t ptr = 0;
	for (size_t i = 0; i < n && !good; i++)
		if ((b[i].pointer & HB_PTR_ENTRY) && b[i].cls != REF_CHROME && b[i].cls != HB_HIDDEN)
			ptr += b[i].words10 - (b[i].link_words10 < b[i].words10 ? b[i].link_words10 : b[i].words10);
	for (int tier = 1; tier < 3 && !good && ptr < 150 && !index_in_main; tier++)
		if (!ref_same_as_before(seen, tier))
			good = ref_classify_tier(b, n, tier | keep);
	for (int tier = 0; tier < 3 && !good; tier++)
		if (!ref_same_as_before(seen, tier))
			good = ref_classify_fallback(b, n, tier | keep);
	return good;
}

#endif
