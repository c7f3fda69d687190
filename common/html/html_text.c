/*
 * html_text.c - main-content extraction: element stack, blocks, classifier.
 *
 * One pass over the tokens keeps a stack of open elements (an array, so a
 * page nested 100k deep costs memory, not C stack) and the flags of all
 * open elements or-ed (E_DROP, E_LINK...), so "am I inside a dropped
 * element?" is one load.  Text that is not dropped is appended, entity
 * decoded and whitespace collapsed, to the current block of h->text; a
 * block ends at every block-level tag and whenever the flags it depends on
 * change, so each block is homogeneous, and is measured (html_blocks.h)
 * as it ends.  At EOF the blocks are classified (classify_*); the content
 * blocks are joined into h->main when it is asked for.
 *
 * Where a nav, header, footer or aside element (or one whose class/id
 * names chrome) starts, an empty "mark" block is left: the classifier
 * (html_blocks.h) reads it as the edge of the content.  An <a> counts as
 * a link only with an href: <a name=x>Heading</a> is an anchor.
 *
 * Dropping by class/id/role and by <form> is "soft": such blocks are kept
 * aside, and only if the page has no content without them are forms, then
 * everything soft, let back in (an ASP.NET page lives in one big <form>;
 * a wrapper may be called "content with-sidebar").
 */
#include "html/html_text.h"

#include "html/html_blocks.h"
#include "html/html_classwords.h"
#include "html/html_container.h"
#include "html/html_headline.h"
#include "html/html_posts.h"
#include "html/html_values.h"
#include "html/html_entities.h"
#include "html/html_scan.h"
#include "util/simd16.h"

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <xxhash.h>

/* Flags of an open element.  h->in has those of all open elements or-ed:
 * each element keeps the value from before it was opened, so a pop
 * restores it with one store (counters per flag would cost a loop per
 * push and per pop).  The first four are the block flags of the same name.  Above
 * them h->in holds the open bits (open_bit()) the same way. */
enum {
	E_SOFT, E_FORM, E_MAIN, E_HEADING, E_DROP, E_LINK, E_HEAD, E_NEVER, E_FOREIGN, E_BLOCK,
	E_CODE, E_PRE, E_NFLAGS
};
#define EF(x) (1u << (x))
_Static_assert(EF(E_SOFT) == HB_SOFT && EF(E_FORM) == HB_FORM && EF(E_MAIN) == HB_MAIN &&
		       EF(E_HEADING) == HB_HEADING && EF(E_NEVER) == HB_NEVER,
	       "element flags and block flags disagree");
#define E_BLOCK_FLAGS (EF(E_SOFT) | EF(E_FORM) | EF(E_MAIN) | EF(E_HEADING) | EF(E_NEVER))

/*
 * HTML_TEXT_REFERENCE turns the tree builder's shortcuts off: every start
 * tag goes the whole way (tag_is_plain()), every element sets every open
 * bit (known_open_bit()), so "is any <x> open?" always searches, and all
 * text takes the general path (no add_short_text()).
 * tests/test_html_text.c builds this file a second time so, to check
 * that both give the same text.
 */
#ifdef HTML_TEXT_REFERENCE
#define SHORTCUTS 0
#else
#define SHORTCUTS 1
#endif

/* How far an end tag or an implicit close looks down the stack. */
#define END_TAG_SEARCH 1024
#define IMPLICIT_SEARCH 64

/*
 * "Is any <x> open?" is asked by every end tag that does not close the
 * innermost element and by start tags that close a <p>, an <a>, a <li>,
 * a cell or a row: each element sets a bit of h->in above its flags, those
 * elements one of their own (own_open_bit()), the other known ones one
 * shared by a few tags, unknown names one of a few by their hash: a clear
 * bit answers no at once, a set one sends to the search that tells.
 * Counters per tag cost a store at every push and pop, for the few end
 * tags (one in 5,000) that need them.
 */
#define OPEN_SHIFT 16
#define OPEN_OWN 8      /* the bits of own_open_bit() */
#define OPEN_KNOWN 32   /* then those shared by the other known tags */
#define OPEN_UNKNOWN 8  /* then those of unknown names */
_Static_assert(OPEN_SHIFT >= E_NFLAGS && OPEN_SHIFT + OPEN_OWN + OPEN_KNOWN + OPEN_UNKNOWN == 64,
	       "open bits fit");
#define OPEN_ALL (~0ull << OPEN_SHIFT)

/*
 * The open elements are h->stack[1..depth]; stack[0] is a sentinel that
 * matches no key and no end tag, so the innermost element is always
 * there to be read (as h->top) and pop() needs no test.  The depth is
 * not kept: push() and pop() move h->top alone, and the few who ask
 * work it out (depth_of()).
 */
struct elem {
	struct htok_open open; /* its start tag's name, for htok_scan(); first */
	uint64_t in_before; /* h->in before this element was opened */
	uint32_t key; /* enum htag, or UNKNOWN_KEY | hash for unknown names */
	uint16_t flags;
};
_Static_assert(offsetof(struct elem, open) == 0, "top_elem() reads an elem through its open");
#define UNKNOWN_KEY 0x80000000u
#define SENTINEL_KEY ((uint32_t)HTAG_COUNT) /* no key_of() */

/* The siblings a start tag closes (implicit_closes()), by its tag. */
enum { SIB_NONE, SIB_LI, SIB_DL, SIB_CELL, SIB_TR, SIB_HEADING, SIB_A };

/* What a start tag needs of its tag, in one place (html_text_new() fills
 * a table): one lookup, with every derived test worked out once. */
struct tag_info {
	uint64_t open;  /* open_bit() */
	uint64_t closes; /* h->in bits set if what it may close is open (sibling_open()) */
	uint16_t props; /* htok_props() */
	uint16_t flags; /* tag_flags() */
	uint16_t href;  /* EF(E_LINK) if an href makes it a link */
	uint16_t no_soft; /* EF(E_CODE) if never dropped by a class (HP_NO_SOFT) */
	uint8_t sib;    /* sibling_kind[] */
	uint8_t plain;  /* tag_is_plain() */
};

struct buf {
	char *p;
	size_t len, cap;
};

/*
 * Class and id values repeat from element to element and from page to
 * page ("reference internal", "toctree-l1"): the verdict of
 * html_class_is_chrome() on each is remembered, keyed by the exact
 * bytes, in a direct-mapped table (CLASS_MEMO_SLOTS x 48 bytes).  Longer
 * values (utility-class lists of 100 bytes and more, the costliest to
 * judge) are keyed by their length and XXH3-64 hash instead.  A crawl
 * reads many sites in turn, each with words of its own: the table holds
 * a few thousand values (96 KiB, in the second-level cache), not just
 * one page's.  A value found again in its slot is kept there against the
 * next new value that maps to it (a second chance): the ids of a long
 * page, each used once, would push out the class values that every page
 * repeats ("toctree-l3").
 */
#define CLASS_MEMO_BITS 11
#define CLASS_MEMO_SLOTS (1u << CLASS_MEMO_BITS)
#define CLASS_MEMO_KEY 46
#define CLASS_MEMO_HASHED 0xFF /* len of a slot keyed by a long value's hash */
#define MEMO_REUSED 0x80 /* in chrome: found again since it was stored */
struct class_memo {
	uint8_t len; /* 0: empty */
	uint8_t chrome; /* html_class_is_chrome()'s verdict, | MEMO_REUSED */
	char key[CLASS_MEMO_KEY];
};

struct html_text {
	struct buf text, title, main;
	struct hblock *blocks;
	size_t n_blocks, cap_blocks;
	struct elem *stack; /* the sentinel, then the open elements */
	size_t cap_stack;
	struct elem *stack_end; /* stack + cap_stack */
	/* the innermost element when fewest were open since the last block:
	 * see hblock.gap_depth */
	const struct elem *low;
	/* &stack[depth].open: what htok_scan() reads only at an end tag, kept
	 * up to date by push() and pop(); top_elem() is its element */
	const struct htok_open *top;
	uint64_t in; /* EF() flags and open bits of the open elements, or-ed */
	size_t block_start;       /* offset of the current block in text */
	uint32_t block_link;      /* its words x 10 inside links so far */
	/* the last link to another page opened: where its text begins in
	 * text, and block_link then (ends_in_onward_link()) */
	size_t link_at;
	uint32_t link_before;
	uint8_t block_flags;
	int pending_space, have_title, oom;
	int main_built; /* h->main holds the last page's main text */
	int fallback; /* hblocks_classify()'s: nothing was confidently content */
	const char *doc_end;      /* end of the page being read: text may be read up to it */
	struct class_memo memo[CLASS_MEMO_SLOTS];
	struct htok_attr attrs[HTOK_MAX_ATTRS]; /* those of the start tag being read */
	struct tag_info tag_info[HTAG_COUNT];
};

/* The innermost open element, or the sentinel. */
static inline const struct elem *top_elem(const struct html_text *h)
{
	return (const struct elem *)(const void *)h->top; /* open is elem's first member */
}

/* ---- buffers ---- */

/* buf_reserve() when the buffer must grow: out of line, rarely called. */
static __attribute__((noinline)) int buf_grow(struct buf *b, size_t extra)
{
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + extra + 1 + HBLOCK_SLACK) {
		if (cap > SIZE_MAX / 2)
			return -1;
		cap *= 2;
	}
	char *const p = realloc(b->p, cap);
	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

/* Room for @extra more bytes, the NUL and HBLOCK_SLACK (html_blocks.h).
 * Inline: it runs for every piece of text, and nearly always has room. */
static inline int buf_reserve(struct buf *b, size_t extra)
{
	return b->len + extra + 1 + HBLOCK_SLACK <= b->cap ? 0 : buf_grow(b, extra);
}

/* grow() when the array must grow: out of line, rarely called. */
static __attribute__((noinline)) int grow_array(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	while (n < need)
		n *= 2;
	if (n > SIZE_MAX / size)
		return -1;
	void *const p = realloc(*arr, n * size);
	if (!p)
		return -1;
	*arr = p;
	*cap = n;
	return 0;
}

/* Grow an array of @size-byte items to hold @need; 0 or -1.  Inline: it
 * runs for every element pushed and every block. */
static inline int grow(void **arr, size_t *cap, size_t need, size_t size)
{
	return need <= *cap ? 0 : grow_array(arr, cap, need, size);
}

static struct tag_info tag_info(enum htag tag);

struct html_text *html_text_new(void)
{
	struct html_text *const h = calloc(1, sizeof(struct html_text));
	for (int t = 0; h && t < HTAG_COUNT; t++)
		h->tag_info[t] = tag_info((enum htag)t);
	return h;
}

void html_text_free(struct html_text *h)
{
	if (!h)
		return;
	free(h->text.p);
	free(h->title.p);
	free(h->main.p);
	free(h->blocks);
	free(h->stack);
	free(h);
}

/* ---- collapsed, entity-decoded text ---- */

static int is_space_byte(unsigned char c)
{
	return c <= ' '; /* controls and NUL are read as blanks too */
}

/* Is [s, s+n) all blank?  @avail bytes are readable at @s.  Text tokens
 * are blank or not in turn, unpredictably: up to 16 bytes are judged at
 * once, with one branch instead of a loop's exit at a varying byte. */
static int all_blank(const char *s, size_t n, size_t avail)
{
	if (n <= 16 && avail >= 16) {
		const v16 blank = v16_le(v16_load(s), v16_splat(' '));
		return (v16_mask(blank) | ~0u << n) == ~0u;
	}
	size_t i = 0;
	while (i < n && is_space_byte((unsigned char)s[i]))
		i++;
	return i == n;
}

#define PLAIN_MAX 32

/* The bits of the first n of 32 bytes, n = 0..32: one load, cheaper than
 * a shift by a variable count at every text token. */
#define FIRST(k) (uint32_t)((1ull << (k)) - 1)
#define FIRST4(k) FIRST(k), FIRST(k + 1), FIRST(k + 2), FIRST(k + 3)
static const uint32_t first_bytes[PLAIN_MAX + 1] = {
	FIRST4(0), FIRST4(4), FIRST4(8), FIRST4(12), FIRST4(16), FIRST4(20), FIRST4(24), FIRST4(28),
	FIRST(32),
};
#undef FIRST4
#undef FIRST

/*
 * What the short-text path needs of 16 bytes, one bit a byte: blanks
 * (<= ' '), bytes html_collapse() would change whatever their
 * neighbours ('&', 0xC2: the lead byte of U+00A0) and non-ASCII, two
 * such masks joined by mask32() for 32 bytes.  Values, not a struct: a
 * struct the 16- and 32-byte paths shared would be kept on the stack,
 * with a store for each member at every text token.
 */
static inline __attribute__((always_inline)) v16 blanks16(v16 v)
{
	return v16_le(v, v16_splat(' '));
}

static inline __attribute__((always_inline)) v16 specials16(v16 v)
{
	return v16_or(v16_eq(v, v16_splat('&')), v16_eq(v, v16_splat(0xC2)));
}

/* @v with every blank made ' ': what html_collapse() writes for a blank
 * alone between two other bytes. */
static inline __attribute__((always_inline)) v16 spaced16(v16 v)
{
	return v16_max(v, v16_splat(' '));
}

/* The bits of @lo's bytes, then (@wide) of @hi's above them. */
static inline __attribute__((always_inline)) uint32_t mask32(v16 lo, v16 hi, int wide)
{
	const uint32_t m = v16_mask(lo);
	return wide ? m | v16_mask(hi) << 16 : m;
}

/*
 * Is [s, s+n), 1 <= n <= 32, text that html_collapse() copies but for
 * its blanks, each of which it makes one ' ' (spaced16()): blanks only
 * alone between other bytes, no '&', no 0xC2?  @blank and @special: its
 * masks (above).  Most text between two tags is a few such words, a
 * line break between two of them as often as a space.
 */
static inline int plain32(uint32_t blank, uint32_t special, size_t n)
{
	/* Blanks: none first, none last, no two in a row.  The bytes past
	 * the text count as blanks, so that a blank last is one of two in a
	 * row (64 bits: there are such bytes when n = 32). */
	const uint64_t valid = first_bytes[n];
	const uint64_t sp = blank | ~valid;
	return !((sp & (sp >> 1 | 1u)) & valid) && !(special & valid);
}

/* Room in @b for [s, s+n) collapsed, the fast path's store included. */
static inline int text_reserve(struct buf *b, size_t n)
{
	/* append_short() stores 32 bytes, html_collapse() 16 past its text. */
	_Static_assert(PLAIN_MAX >= HTML_COLLAPSE_SLACK, "room for both stores");
	return n > SIZE_MAX / 4 ? -1 : buf_reserve(b, HTML_COLLAPSE_MAX(n) + PLAIN_MAX);
}

/*
 * Append [s, s+n) to @b collapsed and decoded (html_collapse()); @from is
 * the start of the current block, @avail the bytes readable at @s.
 * Returns 0, or -1 if memory ran out.
 */
static inline int append_collapsed(struct buf *b, size_t from, int *pending, const char *s,
				   size_t n, size_t avail, int decode)
{
	if (text_reserve(b, n))
		return -1;
	b->len += html_collapse(b->p + b->len, s, n, avail, b->len > from, pending, decode);
	b->p[b->len] = 0;
	return 0;
}

/* ---- blocks ---- */

/* Append a block at the end of the text with @flags; NULL if out of memory. */
static struct hblock *new_block(struct html_text *h, uint8_t flags)
{
	if (h->oom) /* the page's result is lost: keep no more for it */
		return NULL;
	if (grow((void **)&h->blocks, &h->cap_blocks, h->n_blocks + 1, sizeof(struct hblock))) {
		h->oom = 1;
		return NULL;
	}
	struct hblock *const b = &h->blocks[h->n_blocks++];
	memset(b, 0, sizeof(*b));
	b->off = h->block_start;
	b->flags = flags;
	return b;
}

/* Does the text [@start, @end) (not empty) end where a sentence ends:
 * . ! ? an ellipsis, or 。！？ */
static int sentence_end(const char *start, const char *end)
{
	const unsigned char c = (unsigned char)end[-1];
	if (c == '.' || c == '!' || c == '?')
		return 1;
	if (end - start < 3)
		return 0;
	const unsigned char b = (unsigned char)end[-2], a = (unsigned char)end[-3];
	return (a == 0xE2 && b == 0x80 && c == 0xA6) || (a == 0xE3 && b == 0x80 && c == 0x82) ||
	       (a == 0xEF && b == 0xBC && (c == 0x81 || c == 0x9F));
}

/*
 * Does the current block end in a short link to another page after a
 * sentence of its own ("... the next value. Read more", a summary and
 * its "more")?  That link points onward from what the block summarises
 * (HB_PTR_MORE).  Its text must be all that follows the link's start,
 * link words only, and MORE_LINK_WORDS10 at most; a sentence that
 * merely ends on a link ("see the documentation.") has no sentence
 * before it.  Only blocks where such a link opened after their start
 * get here.
 */
#define MORE_LINK_WORDS10 20
static int ends_in_onward_link(const struct html_text *h)
{
	const char *const t = h->text.p;
	size_t i = h->link_at;
	while (i > h->block_start && t[i - 1] == ' ')
		i--;
	if (i == h->block_start || !sentence_end(t + h->block_start, t + i))
		return 0;
	const uint32_t tail = h->block_link - h->link_before;
	return tail && tail <= MORE_LINK_WORDS10 &&
	       hblock_words10(t + h->link_at, h->text.len - h->link_at) == tail;
}

/* flush_block() of a block that holds text: out of line, as only one
 * flush in three has any. */
static __attribute__((noinline)) void flush_text_block(struct html_text *h)
{
	if (!h->oom) {
		struct hblock *const b = new_block(h, h->block_flags);
		if (!b)
			return;
		b->len = (uint32_t)(h->text.len - h->block_start);
		b->link_words10 = h->block_link;
		const size_t low = (size_t)(h->low - h->stack);
		b->gap_depth = (uint16_t)(low < UINT16_MAX ? low : UINT16_MAX);
		h->low = top_elem(h);
		/* Measured whole, once: text comes in pieces of ~10 bytes, and a
		 * tally per piece cost more than the measuring itself. */
		hblock_measure(b, h->text.p + b->off);
		if (h->link_at > h->block_start && ends_in_onward_link(h))
			b->pointer = HB_PTR_MORE;
	}
	h->block_start = h->text.len;
	h->block_link = 0;
	h->pending_space = 0;
}

/* End the current block, if it holds text.  Inline: every block-level
 * tag flushes, and most find the block empty. */
static inline __attribute__((always_inline)) void flush_block(struct html_text *h)
{
	if (h->text.len > h->block_start) {
		flush_text_block(h);
		return;
	}
	h->block_link = 0;
	h->pending_space = 0;
}

/* Block flags the open elements give to text appended now. */
static uint8_t current_block_flags(const struct html_text *h)
{
	return (uint8_t)(h->in & E_BLOCK_FLAGS);
}

/*
 * hblock_words10() of a link's text, @n bytes at @s (collapsed, so ' ' is
 * the only blank; HBLOCK_SLACK bytes readable past it).  Link texts are a
 * word or two: ASCII is counted here 16 bytes at a time, a word being a
 * non-space byte after a space or at the start, without the call and the
 * tally hblock_words10() keeps for the block measure; any other byte goes
 * to hblock_words10() itself (CJK characters count apart).
 */
static uint32_t link_words10(const char *s, size_t n)
{
	uint32_t words = 0;
	unsigned after_space = 1; /* the text's first byte starts a word */
	for (size_t i = 0; i < n; i += 16) {
		const v16 v = v16_load(s + i);
		const unsigned valid = n - i >= 16 ? 0xFFFFu : (1u << (n - i)) - 1;
		if (v16_mask(v) & valid)
			return hblock_words10(s, n);
		const unsigned sp = v16_mask(v16_eq(v, v16_splat(' ')));
		words += (uint32_t)__builtin_popcount(~sp & (sp << 1 | after_space) & valid);
		after_space = sp >> 15 & 1;
	}
	return 10 * words;
}

/*
 * The end of add_short_text(): append @len plain bytes, the 16 (32 if
 * @wide) bytes at the first of them being @w0 (and @w1, their blanks
 * made spaces by spaced16()), after the space
 * owed if @pending and there is text before them in the block, by one or
 * two 16-byte stores; @owes: the text has blanks after them.  A link's
 * words are those bits of @words that start one (a non-blank after a
 * blank, @sp, or @first), unless a byte of @v0, @v1 under @words is not
 * ASCII.  Written once for two callers: the plain text, whose bytes are
 * the vectors already loaded, and the text with blanks around its words.
 */
static inline __attribute__((always_inline)) int append_short(struct html_text *h, v16 w0,
							     v16 w1, size_t len, int pending,
							     int owes, v16 v0, v16 v1,
							     uint32_t words, uint32_t sp,
							     unsigned first, int wide)
{
	struct buf *const b = &h->text;
	if (text_reserve(b, len)) {
		h->oom = 1;
		return 1;
	}
	char *const p = b->p; /* once: a store through it might change b->p */
	const size_t old = b->len;
	size_t at = old;
	if (pending && at > h->block_start)
		p[at++] = ' ';
	v16_store(p + at, w0);
	if (wide)
		v16_store(p + at + 16, w1);
	at += len;
	p[at] = 0;
	b->len = at;
	h->pending_space = owes;
	if (!(h->in & EF(E_LINK)))
		return 1;
	/* A link's own words: a non-space after a space or first (the owed
	 * space before them changes nothing); other text as below. */
	if (mask32(v0, v1, wide) & words)
		h->block_link += hblock_words10(p + old, at - old);
	else
		h->block_link += 10 * (uint32_t)__builtin_popcount(words & ~sp & (sp << 1 | 1u << first));
	return 1;
}

/*
 * add_text() of [s, s+n) with 0 <= n <= 16 (32 if @wide) and as many
 * bytes readable at @s, as most text tokens are: a blank run, or a few
 * plain words (see plain32()) with perhaps blanks before and after them
 * (" and ", "word\n  "), judged by one load of 16 (32) bytes which gives
 * a link's words too, where they are ASCII.  What html_collapse() would
 * do: blanks owe a space, the words are copied.  Returns 0 if the text is
 * none of these: the caller then takes the general path.  @avail: the
 * bytes readable at @s.
 */
static inline __attribute__((always_inline)) int add_short_text(struct html_text *h, const char *s,
								  size_t n, size_t avail, int wide)
{
	/* In the 16-byte path the second half is @v0 again, and unused. */
	const v16 v0 = v16_load(s);
	const v16 v1 = wide ? v16_load(s + 16) : v0;
	const v16 b0 = blanks16(v0), b1 = blanks16(v1);
	const uint32_t blank = mask32(b0, b1, wide);
	const uint32_t valid = first_bytes[n];
	const uint32_t solid = ~blank & valid;
	if (!solid) {
		/* Blank runs between tags ("\n  "): they only owe a space
		 * (valid's first bit: n > 0). */
		h->pending_space |= (int)(valid & 1u);
		return 1;
	}
	const uint32_t special = mask32(specials16(v0), specials16(v1), wide);
	if (plain32(blank, special, n))
		return append_short(h, spaced16(v0), spaced16(v1), n, h->pending_space, 0, v0, v1,
				    valid, blank & valid, 0, wide);
	/* blanks first or last, the words between them plain? */
	if (!(blank & (1u | 1u << (n - 1))))
		return 0;
	const unsigned first = (unsigned)__builtin_ctz(solid);
	const unsigned last = 31u - (unsigned)__builtin_clz(solid);
	const uint32_t words = (uint32_t)(~0ull >> (63 - last)) & ~0u << first;
	const uint32_t sp = blank & words;
	if ((special & words) || (sp & sp >> 1) || avail - first < (wide ? 32u : 16u))
		return 0;
	const v16 w0 = spaced16(v16_load(s + first));
	const v16 w1 = wide ? spaced16(v16_load(s + first + 16)) : w0;
	return append_short(h, w0, w1, last + 1 - first, h->pending_space | (first > 0),
			    last + 1 < n, v0, v1, words, sp, first, wide);
}

/* Inline: it runs for every text token, most of them a few bytes, where
 * a call's register saves and restores would be much of the work. */
static inline __attribute__((always_inline)) void add_text(struct html_text *h, const char *s,
							 size_t n, int decode)
{
	/* One test for both: is the text dropped, or do its block flags
	 * differ from the current block's? */
	const unsigned f = (unsigned)(h->in & (EF(E_DROP) | E_BLOCK_FLAGS));
	if (f != h->block_flags) {
		if (f & EF(E_DROP))
			return;
		flush_block(h);
		h->block_flags = (uint8_t)f;
	}
	const size_t avail = (size_t)(h->doc_end - s);
	/* Four text tokens in five are 16 bytes or less: one load and half
	 * the compares of the 32-byte path. */
	int is_short = 0;
	if (SHORTCUTS && n <= 16 && avail >= 16) {
		if (add_short_text(h, s, n, avail, 0))
			return;
		is_short = 1;
	} else if (SHORTCUTS && n <= PLAIN_MAX && avail >= PLAIN_MAX) {
		if (add_short_text(h, s, n, avail, 1))
			return;
		is_short = 1;
	}
	if (!is_short && all_blank(s, n, avail)) {
		h->pending_space |= n > 0;
		return;
	}
	const size_t old = h->text.len;
	if (append_collapsed(&h->text, h->block_start, &h->pending_space, s, n, avail, decode)) {
		h->oom = 1;
		return;
	}
	if ((h->in & EF(E_LINK)))
		/* A link's own words: a first letter that continues the word
		 * before it still counts as one (as hblock_words10() counts a
		 * text on its own). */
		h->block_link += link_words10(h->text.p + old, h->text.len - old);
}

static void add_title(struct html_text *h, const char *s, size_t n)
{
	int pending = 0;
	if (h->have_title || (h->in & EF(E_FOREIGN)))
		return;
	h->have_title = 1;
	if (append_collapsed(&h->title, 0, &pending, s, n, (size_t)(h->doc_end - s), 1) < 0)
		h->oom = 1;
}

/* ---- the element stack ---- */

/* The elements a start tag may close (implicit_closes()), by a bit each. */
static const enum htag own_open_bit[OPEN_OWN] = {
	HTAG_P, HTAG_A, HTAG_LI, HTAG_DT, HTAG_DD, HTAG_TD, HTAG_TH, HTAG_TR,
};

/* The open bit of a known element (see OPEN_SHIFT); tag_info() keeps it. */
static uint64_t known_open_bit(enum htag tag)
{
	if (!SHORTCUTS)
		return OPEN_ALL;
	for (unsigned i = 0; i < OPEN_OWN; i++)
		if (own_open_bit[i] == tag)
			return 1ull << (OPEN_SHIFT + i);
	return 1ull << (OPEN_SHIFT + OPEN_OWN + tag % OPEN_KNOWN);
}

/* The open bit of any element. */
static inline uint64_t open_bit(const struct html_text *h, enum htag tag, uint32_t hash)
{
	if (tag != HTAG_UNKNOWN)
		return h->tag_info[tag].open;
	return SHORTCUTS ? 1ull << (OPEN_SHIFT + OPEN_OWN + OPEN_KNOWN + hash % OPEN_UNKNOWN) : OPEN_ALL;
}

static uint32_t key_of(enum htag tag, uint32_t hash)
{
	return tag != HTAG_UNKNOWN ? (uint32_t)tag : (UNKNOWN_KEY | hash);
}

/* The number of open elements. */
static size_t depth_of(const struct html_text *h)
{
	return (size_t)(top_elem(h) - h->stack);
}

/* The stack is full: make room for one more element, and move the
 * pointers into it with it.  Out of line, rarely called. */
static __attribute__((noinline)) int grow_stack(struct html_text *h)
{
	if (h->oom) /* a realloc that failed is not tried again for this page */
		return -1;
	const size_t depth = depth_of(h), low = (size_t)(h->low - h->stack);
	if (grow_array((void **)&h->stack, &h->cap_stack, h->cap_stack + 1, sizeof(struct elem)))
		return -1;
	h->stack_end = h->stack + h->cap_stack;
	h->top = &h->stack[depth].open;
	h->low = &h->stack[low];
	return 0;
}

/* Open an element of @key, with @flags and open bit @open. */
static inline __attribute__((always_inline)) void push(struct html_text *h, uint32_t key, uint64_t open,
							 const struct htok_token *tok, uint16_t flags)
{
	/* h->top points into h->stack, which is not const */
	struct elem *e = (struct elem *)(uintptr_t)h->top + 1;
	if (e == h->stack_end) {
		if (grow_stack(h)) {
			h->oom = 1;
			return;
		}
		e = &h->stack[depth_of(h) + 1];
	}
	e->key = key;
	e->open.name8 = tok->name8;
	e->open.raw8 = tok->raw8;
	h->top = &e->open;
	e->flags = flags;
	e->in_before = h->in;
	h->in |= flags | open;
}

/* Inline: it runs for nearly every end tag. */
static inline __attribute__((always_inline)) void pop(struct html_text *h)
{
	const struct elem *const e = top_elem(h);
	h->top = &e[-1].open;
	h->in = e->in_before;
	if (e->flags & EF(E_BLOCK))
		flush_block(h);
	/* After the flush: closing a block's element is not inside the block. */
	if (e - 1 < h->low)
		h->low = e - 1;
}

/* Pop everything above and including stack[i], i >= 1. */
static void pop_to(struct html_text *h, size_t i)
{
	while (depth_of(h) >= i)
		pop(h);
}

/* Index of the nearest open element @key within @limit entries, or 0. */
static size_t find_open(const struct html_text *h, uint32_t key, size_t limit)
{
	const size_t depth = depth_of(h);
	for (size_t i = depth; i > 0 && depth - i < limit; i--)
		if (h->stack[i].key == key)
			return i;
	return 0;
}

static int key_is(const struct elem *e, enum htag a, enum htag b)
{
	return e->key == (uint32_t)a || e->key == (uint32_t)b;
}

/* Which open element a start tag closes, and what stops the search. */
struct sibling_rule {
	uint8_t a, b;         /* the elements closed (enum htag) */
	uint8_t stop1, stop2; /* their list or table */
	uint8_t stop_blocks;  /* any block other than div/p stops it too */
};

/*
 * Close an open r->a or r->b element (li, dt/dd, td/th, tr) when a
 * sibling starts, unless an element of r->stop1/r->stop2, or, when
 * r->stop_blocks, any block other than div/p, comes first.
 */
static void close_sibling(struct html_text *h, const struct sibling_rule *r)
{
	const size_t depth = depth_of(h);
	for (size_t i = depth; i > 0 && depth - i < IMPLICIT_SEARCH; i--) {
		const struct elem *const e = &h->stack[i];
		if (key_is(e, r->a, r->b)) {
			pop_to(h, i);
			return;
		}
		if (key_is(e, r->stop1, r->stop2))
			return;
		if (r->stop_blocks && (e->flags & EF(E_BLOCK)) && !key_is(e, HTAG_DIV, HTAG_P))
			return;
	}
}

/* A block start closes an open <p> reached through inline elements only. */
static void close_p(struct html_text *h)
{
	const size_t depth = depth_of(h);
	for (size_t i = depth; i > 0 && depth - i < IMPLICIT_SEARCH; i--) {
		const struct elem *const e = &h->stack[i];
		if (e->key == HTAG_P) {
			pop_to(h, i);
			return;
		}
		if (e->flags & EF(E_BLOCK))
			return;
	}
}

/* The open <a> a new one closes: not one outside the current table cell
 * or caption (browsers' formatting markers). */
static size_t open_link(const struct html_text *h)
{
	const size_t depth = depth_of(h);
	for (size_t i = depth; i > 0 && depth - i < IMPLICIT_SEARCH; i--) {
		const uint32_t k = h->stack[i].key;
		if (k == HTAG_A)
			return i;
		if (k == HTAG_TD || k == HTAG_TH || k == HTAG_CAPTION)
			return 0;
	}
	return 0;
}

static const uint8_t sibling_kind[HTAG_COUNT] = {
	[HTAG_LI] = SIB_LI, [HTAG_DT] = SIB_DL, [HTAG_DD] = SIB_DL, [HTAG_TD] = SIB_CELL,
	[HTAG_TH] = SIB_CELL, [HTAG_TR] = SIB_TR, [HTAG_H1] = SIB_HEADING, [HTAG_H2] = SIB_HEADING,
	[HTAG_H3] = SIB_HEADING, [HTAG_H4] = SIB_HEADING, [HTAG_H5] = SIB_HEADING,
	[HTAG_H6] = SIB_HEADING, [HTAG_A] = SIB_A,
};
static const struct sibling_rule sibling_rules[SIB_TR + 1] = {
	[SIB_LI] = {HTAG_LI, HTAG_LI, HTAG_UL, HTAG_OL, 1},
	[SIB_DL] = {HTAG_DT, HTAG_DD, HTAG_DL, HTAG_DL, 1},
	[SIB_CELL] = {HTAG_TD, HTAG_TH, HTAG_TR, HTAG_TABLE, 0},
	[SIB_TR] = {HTAG_TR, HTAG_TR, HTAG_TABLE, HTAG_TBODY, 0},
};
_Static_assert(HTAG_TBODY < 256 && HTAG_TABLE < 256, "sibling rules hold tags in bytes");

/* The implicit end tags a start tag implies outside <head> (HTML tree
 * builder, simplified; start_tag_whole() adds head's).  Inline: it runs
 * for every start tag but the plain ones, and for most of them does
 * nothing; one test of h->in tells whether to look for siblings. */
static inline __attribute__((always_inline)) void implicit_closes(struct html_text *h,
								  const struct tag_info *ti)
{
	size_t i;
	if ((ti->props & HP_CLOSES_P) && (h->in & h->tag_info[HTAG_P].open))
		close_p(h);
	if (!(h->in & ti->closes))
		return; /* nothing it closes is open, or it closes none */
	/* Two tests and a table, not a switch: its jump table would be an
	 * indirect branch taken to a different place tag after tag. */
	const unsigned kind = ti->sib;
	if (kind == SIB_A) {
		if ((i = open_link(h)))
			pop_to(h, i); /* links do not nest */
	} else if (kind == SIB_HEADING) {
		if (top_elem(h)->flags & EF(E_HEADING)) /* the sentinel's flags are 0 */
			pop(h);
	} else {
		close_sibling(h, &sibling_rules[kind]);
	}
}

/* ---- class, id and role words ---- */

static int value_is(const struct htok_attr *a, const char *lower)
{
	const size_t n = strlen(lower);
	if (a->value_len != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((a->value[i] | 0x20) != lower[i] && a->value[i] != lower[i])
			return 0;
	return 1;
}

static int style_hides(const struct htok_attr *a)
{
	char t[64];
	size_t n = 0;
	for (uint32_t i = 0; i < a->value_len && n < sizeof(t) - 1; i++)
		if (!is_space_byte((unsigned char)a->value[i]))
			t[n++] = (char)(a->value[i] | 0x20);
	t[n] = 0;
	return strstr(t, "display:none") || strstr(t, "visibility:hidden");
}

static uint64_t load64(const char *s)
{
	uint64_t x;
	memcpy(&x, s, 8);
	return x;
}

/*
 * The memo slot of a class value of 1..CLASS_MEMO_KEY bytes: its first and
 * last 8 bytes (4, or 3 single ones, if shorter) and length, multiplied
 * and the top bits taken.  A slot costs a few instructions where a
 * library hash costs a call; values that differ only in their middle
 * bytes merely share a slot.
 */
static size_t memo_slot(const char *s, size_t n)
{
	uint64_t a, b;
	if (n >= 8) {
		a = load64(s);
		b = load64(s + n - 8);
	} else if (n >= 4) {
		uint32_t x, y;
		memcpy(&x, s, 4);
		memcpy(&y, s + n - 4, 4);
		a = x, b = y;
	} else {
		a = (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2] << 8 |
		    (uint64_t)(unsigned char)s[n - 1] << 16;
		b = 0;
	}
	const uint64_t x = (a * 0x9E3779B97F4A7C15ull) ^ ((b + n) * 0xC2B2AE3D27D4EB4Full);
	/* The top bits of a product depend on every bit of its factors: the
	 * last byte, which the top byte of b holds ("toctree-l3", "-l4"), too. */
	return (size_t)(x >> (64 - CLASS_MEMO_BITS));
}

/* Do the @n (1..CLASS_MEMO_KEY) bytes at @key and @s agree?  Inline, in
 * 8-byte words where there are 8. */
static int memo_equal(const char *key, const char *s, size_t n)
{
	if (n < 8)
		return !memcmp(key, s, n);
	for (size_t i = 0; i + 8 < n; i += 8)
		if (load64(key + i) != load64(s + i))
			return 0;
	return load64(key + n - 8) == load64(s + n - 8);
}

/* The verdict of the value in @m, which was found again. */
static inline int memo_hit(struct class_memo *m)
{
	m->chrome |= MEMO_REUSED;
	return m->chrome & ~MEMO_REUSED;
}

/* Does @m keep its value against a new one (its second chance, used)? */
static inline int memo_keeps(struct class_memo *m)
{
	if (!(m->chrome & MEMO_REUSED))
		return 0;
	m->chrome &= (uint8_t)~MEMO_REUSED;
	return 1;
}

/* chrome_value() of a value longer than CLASS_MEMO_KEY: out of line, as
 * few are. */
static __attribute__((noinline)) int long_chrome_value(struct html_text *h, const char *s, size_t n)
{
	const uint64_t key[2] = {XXH3_64bits(s, n), (uint64_t)n};
	struct class_memo *const m = &h->memo[(key[0] >> 40) & (CLASS_MEMO_SLOTS - 1)];
	if (m->len == CLASS_MEMO_HASHED && !memcmp(m->key, key, sizeof(key)))
		return memo_hit(m);
	const int c = html_class_is_chrome(s, n);
	if (memo_keeps(m))
		return c;
	m->len = CLASS_MEMO_HASHED;
	m->chrome = (uint8_t)c;
	memcpy(m->key, key, sizeof(key));
	return c;
}

/* html_class_is_chrome() of a class or id value, remembered. */
static inline __attribute__((always_inline)) int chrome_value(struct html_text *h, const char *s,
								   size_t n)
{
	if (n > CLASS_MEMO_KEY)
		return long_chrome_value(h, s, n);
	if (n == 0)
		return 0;
	struct class_memo *const m = &h->memo[memo_slot(s, n)];
	if (m->len == n && memo_equal(m->key, s, n))
		return memo_hit(m);
	const int c = html_class_is_chrome(s, n);
	if (memo_keeps(m))
		return c;
	m->len = (uint8_t)n;
	m->chrome = (uint8_t)c;
	memcpy(m->key, s, n);
	return c;
}

/*
 * E_SOFT / E_MAIN from the attributes of a start tag; the E_SOFT tests
 * are skipped when @soft would be cleared anyway (in code, on the page's
 * own elements).
 */
static inline __attribute__((always_inline)) uint16_t attr_flags(struct html_text *h, const struct htok_token *tok, int soft)
{
	uint16_t f = 0, named = 0;
	for (int i = 0; i < tok->n_attrs; i++) {
		const struct htok_attr *const a = &tok->attrs[i];
		if (!soft && a->kind != HATTR_ROLE)
			continue;
		switch (a->kind) {
		case HATTR_CLASS:
		case HATTR_ID: {
			const int c = chrome_value(h, a->value, a->value_len);
			if (c)
				named |= (uint16_t)(c > 1 ? EF(E_SOFT) | EF(E_NEVER) : EF(E_SOFT));
			break;
		}
		case HATTR_ITEMPROP:
			/* schema.org's article text: the publisher's own word */
			if (value_is(a, "articlebody"))
				f |= EF(E_MAIN);
			break;
		case HATTR_ROLE:
			if (value_is(a, "main") || value_is(a, "article"))
				f |= EF(E_MAIN);
			else if (soft && (value_is(a, "navigation") || value_is(a, "banner") ||
					  value_is(a, "contentinfo") || value_is(a, "complementary") ||
					  value_is(a, "menu") || value_is(a, "menubar") ||
					  value_is(a, "search")))
				f |= EF(E_SOFT);
			break;
		case HATTR_HIDDEN: f |= EF(E_SOFT); break;
		case HATTR_ARIA_HIDDEN:
			if (value_is(a, "true"))
				f |= EF(E_SOFT);
			break;
		case HATTR_STYLE:
			if (style_hides(a))
				f |= EF(E_SOFT);
			break;
		default: break;
		}
	}
	/* Declared main content is not dropped for a word in its own class
	 * or id (id="share-btns-container" on the article's text). */
	return (uint16_t)(f | (f & EF(E_MAIN) ? 0 : named));
}

/* ---- tags ---- */

/* An empty block where page chrome starts: the edge of the content. */
static void add_mark(struct html_text *h)
{
	struct hblock *const b = new_block(h, (uint8_t)(current_block_flags(h) | HB_MARK));
	if (b)
		b->cls = HB_BAD;
}

/*
 * Inside a dropped element, does the element a start tag of @ti opens
 * stay inside it?  elem_flags() runs before implicit_closes(), which may
 * end the dropped element (<head><div>, <td><nav><td>): only start tags
 * that close nothing are sure to.
 */
static int stays_dropped(const struct html_text *h, const struct tag_info *ti)
{
	return ti->sib == SIB_NONE && !(ti->props & HP_CLOSES_P) &&
	       (!(h->in & EF(E_HEAD)) || (ti->props & HP_HEAD_OK));
}

/* The flags of the attributes of a start tag that has some besides href
 * (attr_flags(), when they are read). */
static inline __attribute__((always_inline)) uint16_t elem_attr_flags(struct html_text *h,
								      const struct htok_token *tok,
								      const struct tag_info *ti)
{
	/* Never drop the page or the declared main content by a class name.
	 * Syntax highlighters name spans "comment", "c1", "hljs-meta": in code,
	 * class words describe the code, not the page. */
	const int soft = !((h->in | ti->no_soft) & EF(E_CODE));
	/* The attributes attr_flags() reads: none inside a dropped element
	 * that stays open (no text there, no mark: what they would add is
	 * never read), only role where @soft is off (a span in code). */
	const unsigned read = (h->in & EF(E_DROP)) && stays_dropped(h, ti) ? 0
			      : soft ? ~(HATTR_BIT(HATTR_OTHER) | HATTR_BIT(HATTR_HREF))
				     : HATTR_BIT(HATTR_ROLE);
	return (tok->attr_kinds & read) ? attr_flags(h, tok, soft) : 0;
}

/*
 * Where the href of a start tag goes.  "#" alone goes nowhere: such a
 * link is a control a script answers (Reply, Quote, Like, Show more), a
 * button by another name: its label is no more the page's text than a
 * <button>'s (dropped by tag), and between two posts it passed as a short
 * line of text.  "#name" goes to a place on the page (a table of
 * contents' entry, a footnote) and stays a link.  Anything else goes to
 * another page (a summary's "Read more": ends_in_onward_link()).  A
 * javascript: URL is not taken for a control: such a link may wrap the
 * content itself, and readability keeps its text.
 */
enum { HREF_NOWHERE, HREF_HERE, HREF_ELSEWHERE };
static int href_kind(const struct htok_token *tok)
{
	for (int i = 0; i < tok->n_attrs; i++) {
		const struct htok_attr *const a = &tok->attrs[i];
		if (a->kind != HATTR_HREF)
			continue;
		const char *v = a->value, *e = v + a->value_len;
		/* nearly every href starts with neither '#' nor white space */
		if (v < e && *v != '#' && *v != ' ' && *v != '\t' && *v != '\n' && *v != '\r')
			return HREF_ELSEWHERE;
		/* a URL's leading and trailing white space is not part of it */
		while (v < e && (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r'))
			v++;
		while (e > v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
			e--;
		if (e > v && *v == '#')
			return e - v == 1 ? HREF_NOWHERE : HREF_HERE;
		return HREF_ELSEWHERE;
	}
	return HREF_HERE;
}

/*
 * What an href makes of an element (@ti's is EF(E_LINK) for <a>).  A
 * link inside preformatted text (a signature whose types are linked, the
 * identifiers of a listing) annotates the author's text and points to no
 * other page from it: its words are text.  A link to "#" alone is a
 * control, except in a heading, where it is the title's link to itself
 * (rustdoc's item name): text too, since a control never names a page.
 */
static inline uint16_t href_flags(struct html_text *h, const struct htok_token *tok,
				  const struct tag_info *ti)
{
	if (!ti->href || (h->in & EF(E_PRE)))
		return 0;
	const int kind = href_kind(tok);
	if (kind == HREF_NOWHERE)
		return h->in & EF(E_HEADING) ? 0 : EF(E_DROP);
	if (kind == HREF_ELSEWHERE)
		h->link_at = h->text.len, h->link_before = h->block_link;
	return ti->href;
}

static inline __attribute__((always_inline)) uint16_t elem_flags(struct html_text *h, const struct htok_token *tok,
								 const struct tag_info *ti)
{
	uint16_t f = ti->flags;
	/* Nearly half the start tags have no attribute read here, and many
	 * others an href alone (most links). */
	if (tok->attr_kinds & HATTR_BIT(HATTR_HREF))
		f |= href_flags(h, tok, ti);
	if (tok->attr_kinds & ~HATTR_BIT(HATTR_HREF))
		f |= elem_attr_flags(h, tok, ti);
	return f;
}

/* The flags an element has by its tag alone (elem_flags() adds those of
 * its attributes): computed once, looked up for every start tag. */
static uint16_t tag_flags(enum htag tag)
{
	const unsigned props = htok_props(tag);
	uint16_t f = 0;
	if (props & (HP_DROP | HP_BOILER))
		f |= EF(E_DROP);
	if (props & HP_FORM)
		f |= EF(E_FORM);
	if (props & HP_MAIN)
		f |= EF(E_MAIN);
	if (props & HP_HEADING)
		f |= EF(E_HEADING);
	if (props & HP_FOREIGN)
		f |= EF(E_FOREIGN);
	if (props & HP_BLOCK)
		f |= EF(E_BLOCK);
	if (tag == HTAG_HEAD)
		f |= EF(E_HEAD);
	if (tag == HTAG_PRE || tag == HTAG_CODE)
		f |= EF(E_CODE);
	if (tag == HTAG_PRE)
		f |= EF(E_PRE);
	return f;
}

/*
 * Does a start tag of @tag outside head and foreign content do nothing
 * but open its element?  It closes nothing, neither ends nor marks a
 * block, is no link and no void element, and is known ("/>" closes an
 * unknown element).  Such are most (span, code, em...).
 */
static int tag_is_plain(enum htag tag)
{
	const unsigned props = htok_props(tag);
	return SHORTCUTS && tag != HTAG_UNKNOWN && sibling_kind[tag] == SIB_NONE &&
	       !(props & (HP_BLOCK | HP_BOILER | HP_CLOSES_P | HP_LINK | HP_VOID));
}

/* The bits of h->in that tell whether a sibling a start tag of @tag
 * closes (implicit_closes()) may be open. */
static uint64_t sibling_open(enum htag tag)
{
	const unsigned kind = sibling_kind[tag];
	if (kind == SIB_NONE)
		return 0;
	if (kind == SIB_A)
		return known_open_bit(HTAG_A);
	if (kind == SIB_HEADING)
		return SHORTCUTS ? EF(E_HEADING) : OPEN_ALL; /* any open element */
	const struct sibling_rule *const r = &sibling_rules[kind];
	return known_open_bit((enum htag)r->a) | known_open_bit((enum htag)r->b);
}

static struct tag_info tag_info(enum htag tag)
{
	const unsigned props = htok_props(tag);
	return (struct tag_info){known_open_bit(tag),
				 sibling_open(tag),
				 (uint16_t)props,
				 tag_flags(tag),
				 (uint16_t)(props & HP_LINK ? EF(E_LINK) : 0),
				 (uint16_t)(props & HP_NO_SOFT ? EF(E_CODE) : 0),
				 sibling_kind[tag],
				 (uint8_t)tag_is_plain(tag)};
}

/* What a start tag that is not plain does outside foreign content before
 * its element opens: close what it implies, end the block, mark chrome. */
static inline __attribute__((always_inline)) void start_steps(struct html_text *h,
							     const struct tag_info *ti)
{
	implicit_closes(h, ti);
	if (ti->props & HP_BLOCK)
		flush_block(h);
	if ((ti->props & HP_BOILER) && !(h->in & EF(E_DROP)))
		add_mark(h);
}

/* A start tag of @ti with @flags (elem_flags()), the whole way: what
 * start_tag() does inside <head> and foreign content (one tag in 30), or
 * for every tag in HTML_TEXT_REFERENCE.  Inline, as a call would keep
 * @tok in memory (its fields stay in registers in the token loop). */
static inline __attribute__((always_inline)) void start_tag_whole(struct html_text *h,
								  const struct htok_token *tok,
								  const struct tag_info *ti,
								  uint16_t flags)
{
	const enum htag tag = tok->tag;
	const unsigned props = ti->props;
	const int foreign = (h->in & EF(E_FOREIGN)) != 0;
	if (foreign) {
		flags &= (uint16_t)~EF(E_BLOCK); /* an svg <title> or <p> is a drawing */
	} else {
		size_t i;
		if ((h->in & EF(E_HEAD)) && !(props & HP_HEAD_OK) &&
		    (i = find_open(h, HTAG_HEAD, END_TAG_SEARCH)))
			pop_to(h, i);
		start_steps(h, ti);
	}
	/* "/>" closes only foreign (svg) and unknown elements; <div/> opens a div. */
	if ((props & HP_VOID) || (tok->self_closing && (foreign || tag == HTAG_UNKNOWN)))
		return;
	push(h, key_of(tag, tok->hash), open_bit(h, tag, tok->hash), tok, flags);
}

static inline __attribute__((always_inline)) void start_tag(struct html_text *h, const struct htok_token *tok)
{
	const enum htag tag = tok->tag;
	assert(tag < HTAG_COUNT);
	const struct tag_info *const ti = &h->tag_info[tag];
	const uint16_t flags = elem_flags(h, tok, ti);
	if (!SHORTCUTS || (h->in & (EF(E_HEAD) | EF(E_FOREIGN)))) {
		start_tag_whole(h, tok, ti, flags);
		return;
	}
	/* What start_tag_whole() comes to outside head and foreign content:
	 * for a plain tag, only the push. */
	if (ti->plain) {
		push(h, tag, ti->open, tok, flags);
		return;
	}
	start_steps(h, ti);
	if (ti->props & HP_VOID)
		return;
	if (tag != HTAG_UNKNOWN)
		push(h, tag, ti->open, tok, flags);
	else if (!tok->self_closing)
		push(h, key_of(tag, tok->hash), open_bit(h, tag, tok->hash), tok, flags);
}

/* An end tag, whose element the tokenizer left to be found (htok_scan()):
 * most close the innermost element, and are known by their name8 alone. */
static inline __attribute__((always_inline)) void end_tag(struct html_text *h, const struct htok_token *tok)
{
	const struct elem *const top = top_elem(h);
	if (tok->name8 && top->open.name8 == tok->name8) { /* the sentinel's name8 is 0 */
		if (top->key == HTAG_P)
			flush_block(h); /* as below: the same element, the same steps */
		pop(h);
		return;
	}
	uint32_t hash;
	const enum htag tag = name_tag(tok->p, tok->n, (size_t)(h->doc_end - tok->p), &hash);
	if (tag == HTAG_BR || tag == HTAG_P) /* </br> is <br>; a stray </p> still ends a paragraph */
		flush_block(h);
	if (top->key == key_of(tag, hash)) {
		pop(h); /* a long name, or one near the end of the page */
		return;
	}
	if (!(h->in & open_bit(h, tag, hash)))
		return; /* not open: ignore, as browsers do */
	const size_t i = find_open(h, key_of(tag, hash), END_TAG_SEARCH);
	if (i)
		pop_to(h, i);
}

static inline __attribute__((always_inline)) void text_token(struct html_text *h, const struct htok_token *tok)
{
	if (!tok->raw)
		add_text(h, tok->p, tok->n, 1);
	else if (tok->tag == HTAG_TITLE)
		add_title(h, tok->p, tok->n);
	else if (tok->tag == HTAG_TEXTAREA)
		add_text(h, tok->p, tok->n, 1); /* RCDATA; dropped anyway unless misplaced */
	else
		add_text(h, tok->p, tok->n, 0); /* xmp, plaintext; script etc. are E_DROP */
}

static int build_main(struct html_text *h)
{
	h->main.len = 0;
	if (buf_reserve(&h->main, 0))
		return -1;
	h->main.p[0] = 0;
	if (h->oom)
		return 0; /* the page's blocks are not all there */
	for (size_t i = 0; i < h->n_blocks; i++) {
		const struct hblock *const b = &h->blocks[i];
		if (b->cls != HB_GOOD)
			continue;
		if (buf_reserve(&h->main, (size_t)b->len + 1))
			return -1;
		if (h->main.len)
			h->main.p[h->main.len++] = '\n';
		memcpy(h->main.p + h->main.len, h->text.p + b->off, b->len);
		h->main.len += b->len;
		h->main.p[h->main.len] = 0;
	}
	return 0;
}

/* ---- driver ---- */

static int reset(struct html_text *h)
{
	h->text.len = h->title.len = h->main.len = 0;
	h->n_blocks = 0;
	h->main_built = 0;
	if (grow((void **)&h->stack, &h->cap_stack, 1, sizeof(struct elem)))
		return -1;
	h->stack_end = h->stack + h->cap_stack;
	h->stack[0] = (struct elem){htok_open_none(), 0, SENTINEL_KEY, 0};
	h->top = &h->stack[0].open;
	h->low = h->stack;
	h->in = 0;
	h->block_start = 0;
	h->block_link = 0;
	h->link_at = 0;
	h->block_flags = 0;
	h->pending_space = h->have_title = h->oom = h->fallback = 0;
	/* Results are NUL-terminated strings even when empty. */
	if (buf_reserve(&h->text, 0) || buf_reserve(&h->title, 0))
		return -1;
	h->title.p[0] = 0;
	return 0;
}

int html_text_extract(struct html_text *h, const char *html, size_t len)
{
	struct htok_pos t;
	struct htok_token tok;
	if (reset(h))
		return -1;
	htok_pos_init(&t, html, len);
	t.foreign_word = &h->in;
	t.foreign_bit = EF(E_FOREIGN);
	tok.attrs = h->attrs;
	htok_token_clear(&tok);
	h->doc_end = html ? html + len : NULL;
	/* h->oom is not tested token by token (a load and a branch at each of
	 * millions): a page that runs out of memory is read to its end (no
	 * new element or block is kept; text may still fill the room its
	 * buffer has, or try to grow it) and all it gave is thrown away below. */
	while (htok_scan(&t, &tok, 0, &h->top) != HTOK_EOF) {
		if (tok.type == HTOK_TEXT)
			text_token(h, &tok);
		else if (tok.type == HTOK_START)
			start_tag(h, &tok);
		else
			end_tag(h, &tok);
	}
	flush_block(h);
	if (!h->oom && hblocks_classify(h->blocks, h->n_blocks, &h->fallback)) {
		if (!h->fallback && hblocks_container(h->blocks, h->n_blocks)) {
			hblocks_posts(h->blocks, h->n_blocks);
			hblocks_headline(h->blocks, h->n_blocks, h->text.p, h->title.p, h->title.len);
		}
		hblocks_values(h->blocks, h->n_blocks, h->text.p);
	}
	if (h->oom) {
		h->title.len = 0;
		h->fallback = 0;
		if (h->title.p)
			h->title.p[0] = 0;
		return -1;
	}
	return 0;
}

const char *html_text_title(const struct html_text *h, size_t *len)
{
	if (len)
		*len = h->title.len;
	return h->title.p ? h->title.p : "";
}

int html_text_fallback(const struct html_text *h)
{
	return h->fallback;
}

const char *html_text_main(struct html_text *h, size_t *len)
{
	if (!h->main_built) {
		if (build_main(h) && h->main.p)
			h->main.len = 0, h->main.p[0] = 0;
		h->main_built = 1;
	}
	if (len)
		*len = h->main.len;
	return h->main.p ? h->main.p : "";
}

size_t html_text_n_blocks(const struct html_text *h)
{
	return h->oom ? 0 : h->n_blocks;
}

struct html_text_block html_text_block_at(const struct html_text *h, size_t i)
{
	const struct hblock *const b = &h->blocks[i];
	const unsigned f = b->flags;
	/* A row that points to another page (hblocks_mark_pointers()) */
	const int links = (b->pointer & HB_PTR_ANY) != 0;
	return (struct html_text_block){
		h->text.p + b->off, b->len,
		(b->cls == HB_GOOD ? HTB_CONTENT : 0u) | (f & HB_SOFT ? HTB_SOFT : 0u) |
			(f & HB_MAIN ? HTB_MAIN : 0u) | (f & HB_HEADING ? HTB_HEADING : 0u) |
			(f & HB_FORM ? HTB_FORM : 0u) | (links ? HTB_POINTER : 0u),
	};
}
