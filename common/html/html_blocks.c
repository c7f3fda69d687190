/*
 * html_blocks.c - measuring and classifying text blocks (see html_blocks.h).
 *
 * Classification runs at up to three visibility tiers (0: without
 * class-marked blocks and forms, 1: forms let in, 2: everything) and
 * stops at the first that finds content; only if none does is the
 * fallback (all text) tried, tier by tier again.  Every pass is linear.
 *
 * Blocks hidden at a tier for being chrome (class-marked, forms) act as
 * BAD boundaries for the context rules, like the marks html_text leaves
 * where it dropped nav/header/footer/aside: text next to removed chrome
 * is at the edge of the content, not in its middle.  Blocks hidden for
 * lying outside the declared main content are simply skipped.
 */
#include "html/html_blocks.h"
#include "html/html_runs.h"
#include "util/bytes.h"
#include "util/simd16.h"

#include <string.h>
#include <strings.h>

/* Class used only during classification: never content, a BAD boundary. */
#define HB_CHROME 5

/* tests/ref_html_blocks.h (the classifier as it was, a test oracle) has
 * its own copy of these: change both, or the oracle test fails. */
#define SHORT_WORDS10 100      /* 10 words */
#define GOOD_WORDS10 400       /* 40 words */
#define SENTENCE_WORDS10 150   /* 15 words with a sentence end */
#define COPYRIGHT_MAX_WORDS10 1000
#define FALLBACK_WORDS10 150   /* a fallback run of >= 15 words is text, not frame */

/* ---- measuring ---- */

/* The measure of a block's text so far. */
struct hblock_tally {
	uint32_t words10, spaces;
	int in_word, sentence;
	int after_g; /* the last byte was 'g' or 'G' */
	int legal;   /* "gh" (of "copyright", "rights"), U+00A9 or U+7248 seen */
};

static int is_cjk(uint32_t cp)
{
	return (cp >= 0x4E00 && cp <= 0x9FFF) || /* Han, the bulk: first */
	       (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
	       (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x20000 && cp <= 0x2FFFF);
}

static int is_sentence_end(uint32_t cp)
{
	return cp == '.' || cp == '!' || cp == '?' || cp == 0x3002 || cp == 0xFF01 ||
	       cp == 0xFF1F || cp == 0x2026;
}

/* Decode one UTF-8 character of valid input (the text buffer is valid or
 * holds the caller's bytes as they were: a stray byte counts as itself). */
static uint32_t next_cp(const unsigned char **pp, const unsigned char *end)
{
	const unsigned char *p = *pp;
	uint32_t cp = *p++;
	/* A whole three-byte character (Chinese text is made of them): what
	 * the loop below makes of it, without the loop. */
	if (cp >= 0xE0 && cp < 0xF0 && end - p >= 2 && (p[0] & 0xC0) == 0x80 &&
	    (p[1] & 0xC0) == 0x80) {
		*pp = p + 2;
		return (cp & 0x0Fu) << 12 | (p[0] & 0x3Fu) << 6 | (p[1] & 0x3Fu);
	}
	int more = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : cp >= 0xC0 ? 1 : 0;
	if (more)
		cp &= 0x3Fu >> more;
	while (more-- > 0 && p < end && (*p & 0xC0) == 0x80)
		cp = cp << 6 | (*p++ & 0x3Fu);
	*pp = p;
	return cp;
}

/* Does a copyright marker start at s[i] (n bytes in all)?  @i holds one
 * of the bytes has_copyright() stops at (copyright_candidate()). */
static int copyright_at(const char *s, size_t n, size_t i)
{
	static const char zh_hans[] = "\xe7\x89\x88\xe6\x9d\x83\xe6\x89\x80\xe6\x9c\x89";
	static const char zh_hant[] = "\xe7\x89\x88\xe6\xac\x8a\xe6\x89\x80\xe6\x9c\x89";
	const unsigned char c = (unsigned char)s[i];
	if (c == 0xC2)
		return i + 1 < n && (unsigned char)s[i + 1] == 0xA9;
	if (c == 0xE7)
		return n - i >= 12 && (!memcmp(s + i, zh_hans, 12) || !memcmp(s + i, zh_hant, 12));
	/* the 'g' of "copyright" and of "all rights reserved" is their 7th byte */
	if (i < 6)
		return 0;
	const int first = s[i - 6] | 0x20; /* 'g' is common: look at the first letter first */
	return (first == 'c' && n - (i - 6) >= 9 && !strncasecmp(s + i - 6, "copyright", 9)) ||
	       (first == 'a' && n - (i - 6) >= 19 && !strncasecmp(s + i - 6, "all rights reserved", 19));
}

static int copyright_candidate(unsigned char c)
{
	return (c | 0x20) == 'g' || c == 0xC2 || c == 0xE7;
}

/*
 * "\u00a9", "copyright", "all rights reserved" (ASCII case-insensitive), or
 * the Chinese "\u7248\u6743\u6240\u6709" / "\u7248\u6b0a\u6240\u6709" ("all rights
 * reserved").  One pass that stops only at 'g', 'G', 0xC2 (the lead byte
 * of the sign) and 0xE7 (of the Chinese), 16 bytes at a time.
 */
static __attribute__((noinline)) int has_copyright(const char *s, size_t n)
{
	size_t i = 0;
	const v16 lower = v16_splat(0x20), g = v16_splat('g');
	const v16 c2 = v16_splat(0xC2), e7 = v16_splat(0xE7);
	for (; i + 16 <= n; i += 16) {
		const v16 v = v16_load(s + i);
		const v16 hit = v16_or(v16_eq(v16_or(v, lower), g), v16_or(v16_eq(v, c2), v16_eq(v, e7)));
		for (unsigned m = v16_mask(hit); m; m &= m - 1)
			if (copyright_at(s, n, i + (size_t)__builtin_ctz(m)))
				return 1;
	}
	for (; i < n; i++)
		if (copyright_candidate((unsigned char)s[i]) && copyright_at(s, n, i))
			return 1;
	return 0;
}


/* One byte or character at *pp (tally_mixed()). */
static inline void tally_char(struct hblock_tally *t, const unsigned char **pp,
			       const unsigned char *end)
{
	if (**pp < 0x80) { /* ASCII without decoding */
		const unsigned char c = *(*pp)++;
		if (t->after_g && (c | 0x20) == 'h')
			t->legal = 1;
		t->after_g = (c | 0x20) == 'g';
		if (c == ' ') {
			t->spaces++;
			t->in_word = 0;
			return;
		}
		t->words10 += t->in_word ? 0 : 10;
		t->in_word = 1;
		if (c == '.' || c == '!' || c == '?')
			t->sentence = 1;
		return;
	}
	const uint32_t cp = next_cp(pp, end);
	t->after_g = 0;
	if (cp == 0xA9 || cp == 0x7248) /* (c), the first character of the Chinese */
		t->legal = 1;
	if (is_cjk(cp)) {
		t->words10 += 6;
		t->in_word = 0;
	} else {
		t->words10 += t->in_word ? 0 : 10;
		t->in_word = 1;
	}
	if (is_sentence_end(cp))
		t->sentence = 1;
}

/*
 * Is the character whose first bytes are @x (little-endian, read past
 * the text's end: HBLOCK_SLACK), @left of them the text's, a whole Han
 * U+4E00..U+9FFF?  Its three bytes read as one big-endian number lie in
 * E4 B8 80 .. E9 BF BF, both continuation bytes 10xxxxxx: two tests, where
 * the lead byte's range, the continuations and E4's second byte were four.
 */
static inline int han_at(uint32_t x, ptrdiff_t left)
{
	const uint32_t be = __builtin_bswap32(x) >> 8;
	return left >= 3 && (x & 0xC0C000u) == 0x808000u && be - 0xE4B880u <= 0xE9BFBFu - 0xE4B880u;
}

/*
 * A run of Han characters, the bulk of Chinese text: what tally_char()
 * makes of each (0.6 of a word, no word open, no sentence end, U+7248 a
 * legal line's mark), in a loop that decodes and classes nothing.
 */
static const unsigned char *tally_han(struct hblock_tally *t, const unsigned char *p,
				      const unsigned char *end)
{
	uint32_t n = 0, x = get_le32(p);
	int legal = 0;
	do {
		legal |= (x & 0xFFFFFFu) == 0x8889E7u; /* E7 89 88 */
		n++;
		p += 3;
		x = get_le32(p);
	} while (han_at(x, end - p));
	t->words10 += 6 * n;
	t->in_word = 0;
	t->after_g = 0;
	t->legal |= legal;
	return p;
}

/* 0xFF where a byte of @v is '.', '!' or '?'.  One lookup by the low
 * half of each byte: the table holds the one mark that half allows, or
 * 0x80, which no byte the lookup reaches equals (a byte with its top bit
 * set looks up 0). */
static inline v16 punct16(v16 v)
{
	const v16 marks = v16_bytes(0x80, '!', 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
				    0x80, 0x80, 0x80, '.', '?');
	return v16_eq(v16_lookup(marks, v), v);
}

/*
 * Measure the 16 bytes at @p, of which the first @k are the text's (the
 * rest are masked off by @valid = (1 << k) - 1), on from @t, if they are
 * all ASCII: spaces, word starts (a non-space byte after a space, or
 * first with !in_word), sentence punctuation (of a whole chunk, or'd into
 * @seen->punct) and "gh".  @return 0
 * without counting if one of them is not ASCII.  Inlined twice: for
 * whole chunks, where @valid is a constant, and for a text's last chunk.
 */
struct tally_seen {
	v16 punct;
};

static inline __attribute__((always_inline)) int tally16(struct hblock_tally *t,
							 struct tally_seen *seen,
							 const unsigned char *p, unsigned k,
							 unsigned valid)
{
	const v16 v = v16_load(p); /* see HBLOCK_SLACK */
	if (v16_mask(v) & valid)
		return 0;
	const unsigned s = v16_mask(v16_eq(v, v16_splat(' '))) & valid;
	const v16 punct = punct16(v);
	if (valid == 0xFFFFu) /* whole chunks: one test at the end of the run */
		seen->punct = v16_or(seen->punct, punct);
	else
		t->sentence |= (v16_mask(punct) & valid) != 0;
	const v16 lower = v16_or(v, v16_splat(0x20));
	const unsigned g = v16_mask(v16_eq(lower, v16_splat('g'))) & valid;
	const unsigned h = v16_mask(v16_eq(lower, v16_splat('h')));
	t->legal |= ((g << 1 | (unsigned)t->after_g) & h & valid) != 0;
	t->after_g = (int)(g >> (k - 1) & 1);
	const unsigned after_space = s << 1 | (unsigned)(t->in_word ^ 1);
	t->words10 += 10u * mask16_count(~s & after_space & valid);
	t->spaces += mask16_count(s);
	t->in_word = !(s >> (k - 1) & 1);
	return 1;
}

/*
 * At @p, the text's bytes up to its first non-ASCII one by masks, then
 * the run of non-ASCII characters there one by one; @return where the
 * next byte (ASCII, or the end) is.  A non-ASCII byte must lie within
 * the first min(16, end - p).  Most such chunks are English with one
 * curly quote, so the ASCII before it is tallied by masks too.  Out
 * of line: the ASCII loop around it keeps its registers.
 */
static __attribute__((noinline)) const unsigned char *tally_mixed(struct hblock_tally *t,
								  const unsigned char *p,
								  const unsigned char *end)
{
	const unsigned k = (unsigned)__builtin_ctz(v16_mask(v16_load(p)));
	if (k) {
		struct tally_seen unused = {v16_zero()};
		tally16(t, &unused, p, k, (1u << k) - 1);
	}
	p += k;
	while (p < end && *p >= 0x80) {
		if (han_at(get_le32(p), end - p))
			p = tally_han(t, p, end);
		else
			tally_char(t, &p, end);
	}
	return p;
}

/* Measure [s, s+n) on from @t.  ASCII goes 16 bytes at a time (the tail
 * too: HBLOCK_SLACK); a chunk with another byte goes through
 * tally_mixed().  The tally lives in locals here: @t is written back once. */
static inline __attribute__((always_inline)) void tally_run(struct hblock_tally *t,
							   const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *const end = p + n;
	struct hblock_tally l = *t;
	struct tally_seen seen = {v16_zero()};
	while (p < end) {
		const size_t left = (size_t)(end - p);
		if (left >= 16 && tally16(&l, &seen, p, 16, 0xFFFFu)) {
			p += 16;
			continue;
		}
		if (left < 16 && tally16(&l, &seen, p, (unsigned)left, (1u << left) - 1))
			break;
		p = tally_mixed(&l, p, end);
	}
	l.sentence |= v16_mask(seen.punct) != 0;
	*t = l;
}

/* hblock_measure() from the tally of all of the block's text at @s; inlined
 * into both measurers, as it runs once per block. */
static inline __attribute__((always_inline)) void hblock_finish(struct hblock *b,
							    const struct hblock_tally *t, const char *s)
{
	b->words10 = t->words10;
	b->ns_bytes = b->len - t->spaces;
	if (t->sentence)
		b->flags |= HB_SENTENCE;
	/* Legal footers (rights, syndication terms, licence numbers) run to a
	 * paragraph; an article that merely mentions copyright is longer.  Only
	 * text with one of the markers' telltales is searched. */
	if (b->words10 < COPYRIGHT_MAX_WORDS10 && t->legal && has_copyright(s, b->len))
		b->flags |= HB_COPYRIGHT;
}

uint32_t hblock_words10(const char *s, size_t n)
{
	struct hblock_tally t = {0};
	tally_run(&t, s, n);
	return t.words10;
}

/* The bits of the 16 bytes @v equal to @c. */
static inline uint64_t eq16(v16 v, uint8_t c)
{
	return v16_mask(v16_eq(v, v16_splat(c)));
}

/*
 * Up to 64 bytes of a block as masks of one bit a byte, the tally's
 * whole input: spaces, sentence marks, 'g' and 'h' of either case, bytes
 * with the top bit set.
 */
struct masks64 {
	uint64_t space, punct, g, h, high;
};

/* The masks of the 16 bytes at s + @k, at bit @k (a constant where
 * inlined: group_masks() takes its chunks by a switch, not a loop). */
static inline __attribute__((always_inline)) void chunk_masks(struct masks64 *m, const char *s,
							      unsigned k)
{
	const v16 v = v16_load(s + k); /* see HBLOCK_SLACK */
	const v16 lower = v16_or(v, v16_splat(0x20));
	m->space |= eq16(v, ' ') << k;
	m->punct |= (uint64_t)v16_mask(punct16(v)) << k;
	m->g |= eq16(lower, 'g') << k;
	m->h |= eq16(lower, 'h') << k;
	m->high |= (uint64_t)v16_mask(v) << k;
}

/* The masks of the @n (1..64) bytes at @s: only the chunks that hold
 * some of them are read. */
static inline __attribute__((always_inline)) struct masks64 group_masks(const char *s, size_t n)
{
	struct masks64 m = {0, 0, 0, 0, 0};
	switch ((n - 1) >> 4) {
	case 3:
		chunk_masks(&m, s, 48);
		/* fall through */
	case 2:
		chunk_masks(&m, s, 32);
		/* fall through */
	case 1:
		chunk_masks(&m, s, 16);
		/* fall through */
	default:
		chunk_masks(&m, s, 0);
	}
	return m;
}

/* The tally of [s, s+n) on from @t by tally_run(): out of line, so that
 * the groups' loop keeps its registers. */
static __attribute__((noinline)) void tally_rest(struct hblock_tally *t, const char *s, size_t n)
{
	tally_run(t, s, n);
}

/*
 * The block is measured 64 bytes at a time, each group by its masks with
 * a few popcounts, carrying from group to group what tally16() carries
 * from chunk to chunk (a word open, a 'g' last), so that it counts as
 * tally_run() would: a word starts at a non-space after a space or
 * first, "gh" inside the block.  Most blocks are one group (a list item,
 * a cell), and a long paragraph pays the scalar work once per 64 bytes
 * instead of once per 16.  From the first group with a non-ASCII byte
 * on, tally_run() takes over with the groups' tally.
 */
/* The group of masks @m, bytes 0..@last, on from @t; @punct gathers
 * the sentence marks.  @return 0, counting nothing, if a byte is not
 * ASCII. */
static inline __attribute__((always_inline)) int tally_group(struct hblock_tally *t,
							     uint64_t *punct,
							     const struct masks64 *m,
							     unsigned last)
{
	const uint64_t valid = ~0ull >> (63 - last);
	if (m->high & valid)
		return 0;
	const uint64_t space = m->space & valid;
	const uint64_t starts = ~space & (space << 1 | (uint64_t)!t->in_word) & valid;
	t->words10 += 10u * (uint32_t)__builtin_popcountll(starts);
	t->spaces += (uint32_t)__builtin_popcountll(space);
	*punct |= m->punct & valid;
	t->legal |= ((m->g << 1 | (uint64_t)t->after_g) & m->h & valid) != 0;
	t->after_g = (int)(m->g >> last & 1);
	t->in_word = !(space >> last & 1);
	return 1;
}

void hblock_measure(struct hblock *b, const char *s)
{
	const size_t n = b->len;
	struct hblock_tally t = {0};
	uint64_t punct = 0;
	size_t i = 0;
	/* Text that is not ASCII in its first 16 bytes (Chinese, a quote
	 * first) goes to tally_run() at once, not through a group's masks
	 * thrown away. */
	const unsigned first = n >= 16 ? 0xFFFFu : (1u << n) - 1;
	if (!(v16_mask(v16_load(s)) & first)) { /* see HBLOCK_SLACK */
		for (; n - i >= 64; i += 64) {
			const struct masks64 m = group_masks(s + i, 64);
			if (!tally_group(&t, &punct, &m, 63))
				break;
		}
		if (n - i < 64 && i < n) {
			const struct masks64 m = group_masks(s + i, n - i);
			if (tally_group(&t, &punct, &m, (unsigned)(n - i - 1)))
				i = n;
		}
	}
	t.sentence = punct != 0;
	if (i < n)
		tally_rest(&t, s + i, n - i);
	hblock_finish(b, &t, s);
}

/* ---- classifying ---- */

static int link_dense(const struct hblock *b)
{
	return (uint64_t)b->link_words10 * 3 > b->words10;
}

/* Links a quarter to three quarters of the words: a linked title beside
 * its author, replies and date or its summary; a paragraph of prose links
 * a few, an entry of a list of links (a table of contents) all. */
static int pointer_line(const struct hblock *b)
{
	const uint64_t lw = b->link_words10, w = b->words10;
	return lw && lw * 4 >= w && lw * 4 <= w * 3;
}

/* Does b[s..e], the entry of a link-dense block, point to another page
 * (html_blocks.h)?  A list of links has no block of text beside them. */
static int pointer_entry(const struct hblock *b, size_t s, size_t e)
{
	uint64_t w = 0, lw = 0;
	int text = 0;
	for (size_t k = s; k <= e; k++) {
		w += b[k].words10;
		lw += b[k].link_words10;
		text |= b[k].words10 && !link_dense(&b[k]);
	}
	return text && w <= HB_ENTRY_WORDS10 && lw * 4 >= w && lw * 4 <= w * 3;
}

/*
 * Pointers in a row: a run of blocks that all point elsewhere and hold
 * HB_ROWS_MIN linked titles or more (a link-dense block of an entry, or a
 * pointer line, whose link is HB_TITLE_WORDS10 words or more) is a list
 * of rows (a board index, "recent topics", a category's teasers).  A
 * thread is a few posts; the list beside it repeats one row's structure,
 * and a paragraph of an article that links a quarter of its words stands
 * alone.  In a run, a line linked a fifth of its words counts too (a
 * short title beside long metadata: "Title by user, 195 replies, 8454
 * views, 2018-12-18").  The link of such a row is another page's title; a list of
 * items that link a name (an infobox's "Largest city: Auckland", release
 * notes' "gero removed the windowtype attribute") is the page's own text.
 */
static int row_line(const struct hblock *b)
{
	const uint64_t lw = b->link_words10, w = b->words10;
	return lw >= HB_TITLE_WORDS10 && lw * 5 >= w && lw * 4 <= w * 3;
}

static void mark_rows(struct hblock *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(b[i].pointer & HB_PTR_ANY) && row_line(&b[i]))
			b[i].ctx = 1;
		else
			b[i].ctx = 0;
	for (size_t i = 0; i < n;) {
		if (!(b[i].pointer & HB_PTR_ANY) && !b[i].ctx) {
			i++;
			continue;
		}
		size_t e = i, titles = 0;
		for (; e < n && ((b[e].pointer & HB_PTR_ANY) || b[e].ctx); e++)
			titles += (link_dense(&b[e]) || (b[e].pointer & HB_PTR_ANY) == HB_PTR_LINE || b[e].ctx) &&
				  b[e].link_words10 >= HB_TITLE_WORDS10;
		if (titles >= HB_ROWS_MIN)
			for (size_t k = i; k < e; k++)
				b[k].pointer |= HB_PTR_ROW;
		i = e;
	}
	for (size_t i = 0; i < n; i++)
		b[i].ctx = 0;
}

/*
 * Rows by their siblings: a row whose title links less than a fifth of its
 * words (a short CJK title over a long summary) is no pointer by its own
 * measure and cuts the run mark_rows() reads, and passes as the page's
 * prose.  In a run of sibling elements of one shape (html_runs.h) of
 * HB_ROWS_MIN or more, each with a linked title and two thirds of them
 * pointers already, every child is a row.
 */
static void row_run(struct hblock *b, const struct hrun *r, void *ctx)
{
	size_t pointed = 0, titled = 0, i = r->start;
	(void)ctx;
	if (r->count < HB_ROWS_MIN)
		return;
	for (size_t c = 0; c < r->count; c++) {
		int p = 0, t = 0;
		for (size_t m = 0; m < r->len; i++) {
			if (b[i].flags & HB_MARK)
				continue;
			m++;
			p |= (b[i].pointer & (HB_PTR_LINE | HB_PTR_ENTRY)) != 0;
			t |= (link_dense(&b[i]) || (b[i].pointer & HB_PTR_ANY) == HB_PTR_LINE) &&
			     b[i].link_words10 >= HB_TITLE_WORDS10;
		}
		pointed += p;
		titled += t;
	}
	if (titled < r->count || pointed * 3 < r->count * 2)
		return;
	for (size_t k = r->start; k < i; k++)
		if (!(b[k].flags & HB_MARK))
			b[k].pointer |= HB_PTR_ROW;
}

/*
 * The entry of a link-dense block (a linked title) is the smallest
 * element that holds it and a neighbour: the run around it whose inner
 * gaps are at least the deeper of its two gaps.  Runs longer than
 * HB_ENTRY_BLOCKS are not followed to their ends, so the pass is linear.
 */
void hblocks_mark_pointers(struct hblock *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i].pointer = (uint8_t)((b[i].pointer & HB_PTR_MORE) | (pointer_line(&b[i]) ? HB_PTR_LINE : 0));
	for (size_t i = 0; i < n; i++) {
		if (!b[i].words10 || !link_dense(&b[i]) || (b[i].pointer & HB_PTR_ENTRY))
			continue;
		const uint16_t before = i ? b[i].gap_depth : 0, after = i + 1 < n ? b[i + 1].gap_depth : 0;
		const uint16_t g = before > after ? before : after;
		if (!g)
			continue;
		size_t s = i, e = i;
		while (s > 0 && b[s].gap_depth >= g && i - s < HB_ENTRY_BLOCKS)
			s--;
		while (e + 1 < n && b[e + 1].gap_depth >= g && e - i < HB_ENTRY_BLOCKS)
			e++;
		if (e - s + 1 > HB_ENTRY_BLOCKS || !pointer_entry(b, s, e))
			continue;
		for (size_t k = s; k <= e; k++)
			b[k].pointer |= HB_PTR_ENTRY;
	}
	mark_rows(b, n);
	size_t pointers = 0;
	for (size_t i = 0; i < n && pointers < HB_ROWS_MIN; i++)
		pointers += (b[i].pointer & HB_PTR_ANY) != 0;
	if (pointers >= HB_ROWS_MIN)
		hblocks_runs(b, n, 0, row_run, NULL);
}

/* Class of a block from its own evidence. */
static enum hb_cls classify_block(const struct hblock *b)
{
	if ((b->flags & HB_COPYRIGHT) || link_dense(b))
		return HB_BAD;
	if (b->words10 < SHORT_WORDS10 || (b->pointer & (HB_PTR_ENTRY | HB_PTR_ROW)))
		return HB_SHORT;
	if ((uint64_t)b->link_words10 * 5 <= b->words10 &&
	    (b->words10 >= GOOD_WORDS10 || (b->words10 >= SENTENCE_WORDS10 && (b->flags & HB_SENTENCE))))
		return HB_GOOD;
	return HB_NEARGOOD;
}

/* The flags that hide a block at @tier (0 = no soft-dropped, 1 = forms
 * too, 2 = all): a mark (dropped chrome) has no text at any tier. */
static uint8_t hidden_at(int tier)
{
	return (uint8_t)(HB_MARK | HB_NEVER | (tier < 2 ? HB_SOFT : 0) | (tier < 1 ? HB_FORM : 0));
}

/*
 * A tier's bit: the page's declared main content holds text a reader
 * sees at tier 0 (not chrome, a form or a legal line), so chrome outside
 * it stays hidden at every tier.  A short page's title and line in
 * <article> are its content, not the longer cookie banner or newsletter
 * box beside it that a later tier would let back in and rate higher: the
 * author said where the content is.
 */
#define TIER_KEEP_MAIN 4
/* hblocks_classify()'s: the soft tiers are not tried (pointer_text()). */
#define TIER_NO_SOFT 8

/*
 * A link line, unlike a link list, sits between text blocks: it is part
 * of the text around it ("Returns a GTimer.", "See PEP 8", a type and a
 * function name in an API table) and only SHORT.  A list is 3 or more
 * link-dense blocks in a row, or link blocks next to chrome or an edge.
 * So the link-dense blocks b[s..e) (all BAD), a run between two visible
 * blocks that are not link-dense, are SHORT, but for legal lines, if
 * they are at most two and all short.
 */
static void lone_link_run(struct hblock *b, size_t s, size_t e)
{
	if (e - s > 2)
		return;
	for (size_t i = s; i < e; i++)
		if (b[i].words10 >= SHORT_WORDS10)
			return;
	for (size_t i = s; i < e; i++)
		if (!(b[i].flags & HB_COPYRIGHT))
			b[i].cls = HB_SHORT;
}

/* hblock.ctx as classify_initial() keeps it: a block's class by its own
 * evidence, and this bit if it is link-dense (the same at every tier). */
#define CTX_LINKS 8
#define CTX_KEEP 16 /* classify_fallback()'s scratch, clear between its calls */
#define CTX_OUT 32  /* classify_main()'s scratch: a row outside the own text's element */

/*
 * Initial classes at @tier; @return whether declared main content has
 * text.  Runs of link-dense blocks are judged once, as they end, not from
 * every block of the run.  The first call
 * (@first, tier 0) judges each block and keeps the verdict in ctx for
 * the later tiers and the fallback, and ors all flags into *@seen.
 */
static inline __attribute__((always_inline)) int initial_pass(struct hblock *b, size_t n, int tier,
							      int first, uint8_t *seen)
{
	const uint8_t hide = hidden_at(tier & 3);
	const uint8_t hide_out = tier & TIER_KEEP_MAIN ? hidden_at(0) : hide;
	int main_has_content = 0;
	uint8_t all = 0;
	/* The run of link-dense blocks at b[run..i) is open; it may be link
	 * lines if a visible block that is not link-dense stands before it. */
	size_t run = 0;
	int in_run = 0, run_after_text = 0, after_text = 0;
	for (size_t i = 0; i < n; i++) {
		const uint8_t flags = b[i].flags;
		uint8_t base;
		if (first) {
			base = (uint8_t)(classify_block(&b[i]) | (link_dense(&b[i]) ? CTX_LINKS : 0));
			b[i].ctx = base;
			all |= flags;
		} else {
			base = b[i].ctx;
		}
		if (flags & (flags & HB_MAIN ? hide : hide_out)) {
			b[i].cls = HB_CHROME;
			after_text = in_run = 0;
			continue;
		}
		const uint8_t c = base & (CTX_LINKS - 1);
		b[i].cls = c;
		if (base & CTX_LINKS) {
			if (!in_run)
				run = i, in_run = 1, run_after_text = after_text;
			after_text = 0;
			continue;
		}
		if (in_run && run_after_text)
			lone_link_run(b, run, i);
		in_run = 0;
		after_text = 1;
		/* an entry pointing elsewhere is text too there: an index's */
		main_has_content |= (flags & HB_MAIN) &&
				    (c == HB_GOOD || c == HB_NEARGOOD || (b[i].pointer & HB_PTR_ENTRY));
	}
	if (first)
		*seen = all;
	return main_has_content;
}

static int classify_initial(struct hblock *b, size_t n, int tier, uint8_t *seen)
{
	return seen ? initial_pass(b, n, tier, 1, seen) : initial_pass(b, n, tier, 0, NULL);
}

/*
 * Is @b, BAD on its own evidence, still text where the author declared
 * the main content?  A line up to two thirds links ("Thanks to X, users
 * can now import logins from Y", a list item of release notes) is; a
 * list of links alone is not.  A paragraph of the article that mentions
 * copyright (a sentence of 15 words or more, not link-dense) is; a legal
 * line is not.
 */
static int main_text_after_all(const struct hblock *b)
{
	if (b->flags & HB_COPYRIGHT)
		return !link_dense(b) && (b->flags & HB_SENTENCE) && b->words10 >= SENTENCE_WORDS10;
	return (uint64_t)b->link_words10 * 3 <= (uint64_t)b->words10 * 2;
}

/* Is b[i] a row of a list pointing elsewhere (an entry or in rows)? */
static int is_row(const struct hblock *b)
{
	return (b->pointer & (HB_PTR_ENTRY | HB_PTR_ROW)) != 0;
}

/* Is b[i] main content's own text: not a heading, a row, a link list or a
 * legal line, visible? */
static int main_own(const struct hblock *b)
{
	return (b->flags & (HB_MAIN | HB_HEADING | HB_COPYRIGHT)) == HB_MAIN && b->cls != HB_CHROME &&
	       !is_row(b) && !link_dense(b);
}

/* b[i]'s gap_depth, UINT16_MAX for a mark (dropped chrome has none). */
static uint16_t gap_of(const struct hblock *b)
{
	return b->flags & HB_MARK ? UINT16_MAX : b->gap_depth;
}

/* The least gap_depth over b[s..e] (UINT16_MAX if empty): the depth of
 * the element holding b[s - 1..e]. */
static uint16_t least_gap(const struct hblock *b, size_t s, size_t e)
{
	uint16_t g = UINT16_MAX;
	for (size_t i = s; i <= e; i++)
		g = gap_of(&b[i]) < g ? gap_of(&b[i]) : g;
	return g;
}

/*
 * Only declared main content counts, and in it all but link lists and
 * legal lines is content (main_text_after_all()).  Rows pointing to
 * other pages there are content too, unless the main content has
 * HB_OWN_MIN bytes of its own text (main_own()) and they lie outside the
 * element that holds that text: a forum's "recent topics" list beside
 * its posts, both in <main>, is not the thread, while a wiki's references
 * inside the article's body are the article's, and an index in <main>
 * has no text but its rows and headings.  The rule of the fallback and
 * the template decision (HB_OWN_MIN), with the text's element as
 * html_container finds it (gap_depth).  Linear: the rows before the own
 * text are judged from its first block back, those after from its last.
 */
static void classify_main(struct hblock *b, size_t n)
{
	uint64_t own = 0;
	size_t first = n, last = 0;
	for (size_t i = 0; i < n; i++)
		if (main_own(&b[i])) {
			own += b[i].len;
			first = first < i ? first : i;
			last = i;
		}
	uint16_t holder = 0;
	if (own >= HB_OWN_MIN)
		holder = first < last ? least_gap(b, first + 1, last) : UINT16_MAX;
	uint16_t reach = UINT16_MAX; /* b[i] and the own text lie in an element this deep */
	for (size_t i = first; holder && i-- > 0;) {
		reach = gap_of(&b[i + 1]) < reach ? gap_of(&b[i + 1]) : reach;
		if (reach < holder && is_row(&b[i]) && b[i].cls != HB_CHROME)
			b[i].ctx |= CTX_OUT;
	}
	reach = UINT16_MAX;
	for (size_t i = last + 1; holder && i < n; i++) {
		reach = gap_of(&b[i]) < reach ? gap_of(&b[i]) : reach;
		if (reach < holder && is_row(&b[i]) && b[i].cls != HB_CHROME)
			b[i].ctx |= CTX_OUT;
	}
	for (size_t i = 0; i < n; i++) {
		if (!(b[i].flags & HB_MAIN))
			b[i].cls = HB_HIDDEN;
		else if (b[i].ctx & CTX_OUT)
			b[i].cls = HB_BAD;
		else if (b[i].cls == HB_SHORT || b[i].cls == HB_NEARGOOD ||
			 (b[i].cls == HB_BAD && main_text_after_all(&b[i])))
			b[i].cls = HB_GOOD;
		b[i].ctx &= (uint8_t)~CTX_OUT;
	}
}

/* The classes the context rules stop at, as a bit per class. */
#define EDGE_CLASSES (1u << HB_GOOD | 1u << HB_BAD | 1u << HB_CHROME)

static int is_edge(uint8_t c)
{
	return EDGE_CLASSES >> c & 1;
}

/* The class of the first block from b[i] on (up to n) that is an edge of
 * the context rules, BAD past the end; its index in *@at. */
static uint8_t next_edge(const struct hblock *b, size_t n, size_t i, size_t *at)
{
	while (i < n && !is_edge(b[i].cls))
		i++;
	*at = i;
	return i < n ? b[i].cls : HB_BAD;
}

/*
 * The context rules: a NEARGOOD block becomes GOOD if its nearest GOOD or
 * BAD neighbour on either side is GOOD, else BAD; then a SHORT block
 * becomes GOOD if those on both sides are GOOD (hidden blocks are
 * skipped; chrome and the document's edges count as BAD).  Each rule
 * judges neighbours by their class before it.
 *
 * One pass forth: a block's neighbours before it are remembered, those
 * after it looked up when a NEARGOOD block, or a SHORT one after GOOD,
 * needs them, and kept for the blocks up to them (most blocks are BAD
 * link lists and need nothing).  old_* are edges by the classes before
 * the first rule; mid_* by those after it, where a NEARGOOD block is an
 * edge too, of the class the first rule gives it.
 */
static void classify_context(struct hblock *b, size_t n)
{
	uint8_t prev_old = HB_BAD, prev_mid = HB_BAD, next_old = HB_BAD, next_mid = HB_BAD;
	size_t old_at = 0, mid_at = 0; /* where next_old, next_mid stand */
	for (size_t i = 0; i < n; i++) {
		const uint8_t c = b[i].cls;
		if (is_edge(c)) {
			prev_old = prev_mid = c;
		} else if (c == HB_NEARGOOD) {
			if (old_at <= i)
				next_old = next_edge(b, n, i + 1, &old_at);
			prev_mid = prev_old == HB_GOOD || next_old == HB_GOOD ? HB_GOOD : HB_BAD;
			b[i].cls = prev_mid;
		} else if (c == HB_SHORT && prev_mid == HB_GOOD) {
			if (mid_at <= i) {
				size_t j = i + 1;
				while (j < n && (b[j].cls == HB_SHORT || b[j].cls == HB_HIDDEN))
					j++;
				mid_at = j;
				/* After GOOD, a NEARGOOD block will be GOOD: GOOD is
				 * one of its nearest neighbours then, or that GOOD
				 * block's verdict came from a neighbour they share. */
				next_mid = j < n && (b[j].cls == HB_GOOD || b[j].cls == HB_NEARGOOD) ? HB_GOOD : HB_BAD;
			}
			if (next_mid == HB_GOOD)
				b[i].cls = HB_GOOD;
		}
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
static uint16_t run_holder(const struct hblock *b, size_t n, size_t s, size_t e)
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
 * of depth @holder; stop at any other block.  @return the last block it
 * made GOOD, @from - @step if none. */
static size_t extend_side(struct hblock *b, size_t n, size_t from, int step, uint16_t holder)
{
	size_t last = from - (size_t)step;
	uint16_t reach = UINT16_MAX; /* b[i] and the run lie within an element this deep */
	for (size_t i = from; i < n; i += (size_t)step) { /* step -1 wraps below 0 */
		const uint16_t gap = step > 0 ? b[i].gap_depth : b[i + 1].gap_depth;
		reach = gap < reach ? gap : reach;
		if (reach < holder || (b[i].cls != HB_SHORT && b[i].cls != HB_HIDDEN))
			return last;
		if (b[i].cls == HB_SHORT) {
			b[i].cls = HB_GOOD;
			last = i;
		}
	}
	return last;
}

/*
 * A heading (not a link list, not a legal line) right before content
 * introduces it: from the GOOD block b[first] back, hidden blocks passed
 * over, make such headings GOOD (a heading before a heading that
 * introduces content is content too).  @return how many.
 */
static size_t take_headings(struct hblock *b, size_t first)
{
	size_t made = 0;
	for (size_t k = first; k-- > 0;) {
		const struct hblock *const x = &b[k];
		if (x->cls == HB_HIDDEN)
			continue;
		if (!(x->flags & HB_HEADING) || (x->cls != HB_SHORT && x->cls != HB_BAD) ||
		    link_dense(x) || (x->flags & HB_COPYRIGHT))
			break;
		b[k].cls = HB_GOOD;
		made++;
	}
	return made;
}

/*
 * SHORT blocks left at the edges of content runs.  The first or last line
 * of an article is content however short, and whether it is kept must not
 * depend on what the template puts beside it: so a run of GOOD blocks
 * (hidden ones between them passed over) takes in the SHORT blocks next
 * to it that lie inside the element holding the run.  A template's own
 * short lines (a byline, a "Posted in" line, a pager) sit outside that
 * element, and a BAD block or chrome ends the run's reach anyway.  The
 * SHORT blocks left are no content.  Then the headings before each run:
 * the blocks before it are final by then (a later run reaches back no
 * further than this one).  @return the GOOD blocks.
 */
static size_t classify_edges(struct hblock *b, size_t n)
{
	size_t i = 0, good = 0;
	for (;;) {
		while (i < n && b[i].cls != HB_GOOD)
			i++;
		if (i == n)
			return good;
		size_t e = i, j = i + 1, first = i;
		for (; j < n && (b[j].cls == HB_GOOD || b[j].cls == HB_HIDDEN); j++)
			if (b[j].cls == HB_GOOD)
				e = j;
		const uint16_t holder = run_holder(b, n, i, e);
		if (i > 0)
			first = extend_side(b, n, i - 1, -1, holder);
		good += take_headings(b, first);
		extend_side(b, n, e + 1, 1, holder);
		/* What it took in is no run of its own; counted here. */
		for (i = first; i < n && (i <= e || b[i].cls == HB_GOOD || b[i].cls == HB_HIDDEN); i++)
			good += b[i].cls == HB_GOOD;
	}
}

static size_t count_good(const struct hblock *b, size_t n)
{
	size_t good = 0;
	for (size_t i = 0; i < n; i++)
		good += b[i].cls == HB_GOOD;
	return good;
}

/* Classify at @tier; @return the number of GOOD blocks.  @seen: as
 * classify_initial() says, for the first call. */
static size_t classify_tier(struct hblock *b, size_t n, int tier, uint8_t *seen)
{
	if (classify_initial(b, n, tier, seen))
		classify_main(b, n);
	classify_context(b, n);
	return classify_edges(b, n);
}

/* Is b[i] text the fallback may keep at all: visible, not a legal line? */
static int fallback_text(const struct hblock *b)
{
	return b->cls != HB_CHROME && b->cls != HB_HIDDEN && !(b->flags & HB_COPYRIGHT);
}

/*
 * Nothing is confidently content (no prose: an API reference, a table,
 * an index whose content is links, a page of a few words).  Rather than
 * guess at one run of it, all the text visible at @tier is kept but for
 * legal lines and what looks like the page's frame: link lists, and lines
 * that link lists cut off from the rest (a site title between menus).
 * That is, the text runs between BAD blocks or chrome are kept if they
 * have FALLBACK_WORDS10, and so is the largest; if what is kept so is
 * less than that, the page has too little text to tell frame from
 * content, and all of it, links included, is kept.  Only the declared
 * main content's text counts if that has any.  The caller is told
 * (hblocks_classify()'s @fallback): such a text may be the site's
 * template as much as the page's own.  @return the number of GOOD blocks.
 */
static size_t classify_fallback(struct hblock *b, size_t n, int tier)
{
	classify_initial(b, n, tier, NULL);
	uint8_t need = 0;
	for (size_t i = 0; i < n; i++)
		if (fallback_text(&b[i]))
			need |= b[i].flags & HB_MAIN;
	/* Rows pointing to other pages change from page to page and, beside
	 * a short post, outweigh it: left out (as frame) when the page has
	 * HB_OWN_MIN bytes of other text; an index, all pointers, keeps them. */
	uint64_t own = 0;
	for (size_t i = 0; i < n; i++)
		if (fallback_text(&b[i]) && (b[i].flags & need) == need && !(b[i].pointer & HB_PTR_ANY))
			own += b[i].len;
	const int drop = own >= HB_OWN_MIN;
	if (drop)
		for (size_t i = 0; i < n; i++)
			if ((b[i].pointer & HB_PTR_ANY) && b[i].cls != HB_CHROME && b[i].cls != HB_HIDDEN)
				b[i].cls = HB_BAD;
	/* CTX_KEEP in ctx: b[i] is in a run kept (the largest one is marked
	 * last); ctx's other bits are the verdicts a later tier reads. */
	size_t start = 0, best_start = 0, best_end = 0;
	uint64_t run = 0, best = 0, kept = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i == n || b[i].cls == HB_BAD || b[i].cls == HB_CHROME) {
			const int keep = run >= FALLBACK_WORDS10;
			if (run > best)
				best = run, best_start = start, best_end = i;
			kept += keep ? run : 0;
			for (size_t k = start; k < i; k++)
				b[k].ctx = (uint8_t)(keep ? b[k].ctx | CTX_KEEP : b[k].ctx & ~CTX_KEEP);
			if (i < n)
				b[i].ctx &= (uint8_t)~CTX_KEEP;
			run = 0;
			start = i + 1;
		} else if (b[i].cls != HB_HIDDEN && (b[i].flags & need) == need) {
			run += b[i].words10;
		}
	}
	if (best < FALLBACK_WORDS10)
		kept += best;
	for (size_t i = best_start; i < best_end; i++)
		b[i].ctx |= CTX_KEEP;
	const int all = kept < FALLBACK_WORDS10;
	for (size_t i = 0; i < n; i++) {
		const int in = fallback_text(&b[i]) && (b[i].flags & need) == need &&
			       (all || (b[i].ctx & CTX_KEEP)) && !(drop && (b[i].pointer & HB_PTR_ANY));
		b[i].cls = in ? HB_GOOD : HB_BAD;
		b[i].ctx &= (uint8_t)~CTX_KEEP;
	}
	return count_good(b, n);
}

/* Does @tier show the same blocks as the tier before it?  (A page with no
 * form shows the same at tiers 0 and 1: classifying again would find
 * nothing new.) */
/* The words outside links of the entries (hblocks_mark_pointers())
 * visible after classify_tier() at tier 0, x 10. */
static uint64_t pointer_text(const struct hblock *b, size_t n)
{
	uint64_t w = 0;
	for (size_t i = 0; i < n; i++)
		if ((b[i].pointer & HB_PTR_ENTRY) && b[i].cls != HB_CHROME && b[i].cls != HB_HIDDEN)
			w += b[i].words10 - (b[i].link_words10 < b[i].words10 ? b[i].link_words10 : b[i].words10);
	return w;
}

/*
 * After tier 0 found content only outside the declared main content
 * (which holds no prose: links, rows, short lines), does the main content
 * hold FALLBACK_WORDS10 words a reader sees, link text included, and more
 * than that content outside it?  Then the page is an index in <main>
 * (or <article>) and the prose beside it a box of the template (a
 * newsletter signup whose class names nothing): the fallback takes the
 * main content.  An article outside <main> beside a few teaser cards in
 * <article> outweighs them and stays.
 */
static int main_outweighs(const struct hblock *b, size_t n)
{
	uint64_t in = 0, out = 0;
	for (size_t i = 0; i < n; i++) {
		if (b[i].flags & HB_MAIN) {
			if (b[i].cls == HB_GOOD)
				return 0;
			if (!(b[i].flags & (hidden_at(0) | HB_COPYRIGHT)))
				in += b[i].words10;
		} else if (b[i].cls == HB_GOOD) {
			out += b[i].words10;
		}
	}
	return in >= FALLBACK_WORDS10 && in > out;
}

static int same_as_before(uint8_t flags_seen, int tier)
{
	return tier > 0 && (hidden_at(tier) & flags_seen) == (hidden_at(tier - 1) & flags_seen);
}

size_t hblocks_classify(struct hblock *b, size_t n, int *fallback)
{
	hblocks_mark_pointers(b, n);
	uint8_t seen = 0;
	size_t good = classify_tier(b, n, 0, &seen);
	int keep = 0;
	if (!good && (seen & HB_MAIN))
		for (size_t i = 0; i < n && !keep; i++)
			keep = (b[i].flags & HB_MAIN) && !(b[i].flags & (hidden_at(0) | HB_COPYRIGHT)) &&
			       b[i].words10;
	const int index_in_main = good && (seen & HB_MAIN) && main_outweighs(b, n);
	if (index_in_main)
		good = 0, keep = 1;
	keep = keep ? TIER_KEEP_MAIN : 0;
	if (index_in_main)
		keep |= TIER_NO_SOFT;
	/* A page whose visible text holds entries pointing elsewhere (an
	 * index, a thread beside its "similar threads") has content without
	 * its chrome: those entries, or what the fallback keeps beside them.
	 * Chrome is not let back in to outweigh them. */
	if (!good && pointer_text(b, n) >= FALLBACK_WORDS10)
		keep |= TIER_NO_SOFT;
	for (int tier = 1; tier < 3 && !good && !(keep & TIER_NO_SOFT); tier++)
		if (!same_as_before(seen, tier))
			good = classify_tier(b, n, tier | keep, NULL);
	if (fallback)
		*fallback = !good;
	for (int tier = 0; tier < 3 && !good; tier++)
		if (!same_as_before(seen, tier))
			good = classify_fallback(b, n, tier | keep);
	return good;
}
