/*
 * html_text.c - main-content extraction: element stack, blocks, classifier.
 *
 * One pass over the tokens keeps a stack of open elements (an array, so a
 * page nested 100k deep costs memory, not C stack) and a count of open
 * elements per flag (E_DROP, E_LINK...), so "am I inside a dropped
 * element?" is one load.  Text that is not dropped is appended, entity
 * decoded and whitespace collapsed, to the current block of h->text; a
 * block ends at every block-level tag and whenever the flags it depends on
 * change, so each block is homogeneous.  At EOF the blocks are classified
 * (classify_*) and the content blocks are joined into h->main.
 *
 * Classifier, in the spirit of jusText (Pomikálek) and boilerpipe
 * (Kohlschütter), without language-specific stopword lists:
 *   words   = Latin-script words + 0.6 x CJK characters (Han, kana), since
 *             Chinese and Japanese are written without spaces;
 *   links   = share of the block's non-space bytes inside <a>.
 *   BAD      links > 1/3, or a copyright/legal block under 100 words;
 *   SHORT    words < 10;
 *   GOOD     links <= 0.2 and (words >= 40, or words >= 15 and the block
 *            has sentence punctuation);
 *   NEARGOOD anything else.
 * Then context: NEARGOOD becomes GOOD unless both nearest GOOD/BAD
 * neighbours are BAD; SHORT becomes GOOD only between two GOOD blocks;
 * a heading directly followed by GOOD content is GOOD.  If <article>,
 * <main> or role=main holds GOOD or NEARGOOD blocks, only those count.
 *
 * Dropping by class/id/role and by <form> is "soft": such blocks are kept
 * aside, and only if the page has no content without them are forms, then
 * everything soft, let back in (an ASP.NET page lives in one big <form>;
 * a wrapper may be called "content with-sidebar").
 */
#include "html_text.h"

#include "html_entities.h"
#include "html_tokenizer.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Flags of an open element; each has a counter in h->cnt. */
enum {
	E_DROP, E_SOFT, E_FORM, E_LINK, E_MAIN, E_HEADING, E_HEAD, E_FOREIGN, E_BLOCK, E_NFLAGS
};
#define EF(x) (1u << (x))

/* Flags of a block. */
enum { B_SOFT = 1, B_FORM = 2, B_MAIN = 4, B_HEADING = 8, B_SENTENCE = 16, B_COPYRIGHT = 32 };

enum cls { C_BAD, C_SHORT, C_NEARGOOD, C_GOOD, C_HIDDEN };

/* How far an end tag or an implicit close looks down the stack. */
#define END_TAG_SEARCH 1024
#define IMPLICIT_SEARCH 64
/* Unknown elements are counted in HASH_SLOTS buckets after the known ones. */
#define HASH_SLOTS 64

struct elem {
	uint32_t key; /* enum htag, or UNKNOWN_KEY | hash for unknown names */
	uint16_t flags;
	uint16_t slot;
};
#define UNKNOWN_KEY 0x80000000u

struct block {
	size_t off;         /* in h->text */
	uint32_t len;       /* bytes */
	uint32_t ns_bytes;  /* non-space bytes */
	uint32_t link_bytes;
	uint32_t words10;   /* words x 10 */
	uint8_t flags, cls;
	uint8_t next_cls;   /* scratch of classify_context() */
};

struct buf {
	char *p;
	size_t len, cap;
};

struct html_text {
	struct buf text, title, main;
	struct block *blocks;
	size_t n_blocks, cap_blocks;
	struct elem *stack;
	size_t depth, cap_stack;
	uint32_t cnt[E_NFLAGS];
	uint32_t slot_cnt[HTAG_COUNT + HASH_SLOTS];
	size_t block_start;       /* offset of the current block in text */
	uint32_t block_link;      /* its link bytes so far */
	uint8_t block_flags;
	int pending_space, have_title, oom;
};

/* ---- buffers ---- */

static int buf_reserve(struct buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + extra + 1) {
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

/* Grow an array of @size-byte items to hold @need; 0 or -1. */
static int grow(void **arr, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
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

struct html_text *html_text_new(void)
{
	return calloc(1, sizeof(struct html_text));
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

/*
 * Append [s, s+n) to @b collapsed and decoded (html_collapse()); @from is
 * the start of the current block.  Returns the non-space bytes added, or -1.
 */
static long append_collapsed(struct buf *b, size_t from, int *pending, const char *s, size_t n,
			     int decode)
{
	size_t ns;
	/* Output never outgrows input: a reference is no shorter than its UTF-8. */
	if (n > SIZE_MAX / 2 || buf_reserve(b, n + 1))
		return -1;
	b->len += html_collapse(b->p + b->len, s, n, b->len > from, pending, decode, &ns);
	b->p[b->len] = 0;
	return (long)ns;
}

/* ---- blocks ---- */

static int is_cjk(uint32_t cp)
{
	return (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
	       (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
	       (cp >= 0x20000 && cp <= 0x2FFFF);
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
	int more = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : cp >= 0xC0 ? 1 : 0;
	if (more)
		cp &= 0x3Fu >> more;
	while (more-- > 0 && p < end && (*p & 0xC0) == 0x80)
		cp = cp << 6 | (*p++ & 0x3Fu);
	*pp = p;
	return cp;
}

#define COPYRIGHT_MAX_WORDS10 1000 /* 100 words */

/* "©", "copyright", "all rights reserved" (ASCII case-insensitive), or
 * the Chinese "版权所有" / "版權所有" ("all rights reserved"). */
static int has_copyright(const char *s, size_t n)
{
	if (memmem(s, n, "\xe7\x89\x88\xe6\x9d\x83\xe6\x89\x80\xe6\x9c\x89", 12) ||
	    memmem(s, n, "\xe7\x89\x88\xe6\xac\x8a\xe6\x89\x80\xe6\x9c\x89", 12))
		return 1;
	for (size_t i = 0; i + 1 < n; i++) {
		const int c = (unsigned char)s[i] | 0x20;
		if ((unsigned char)s[i] == 0xC2 && (unsigned char)s[i + 1] == 0xA9)
			return 1;
		if (c == 'c' && n - i >= 9 && !strncasecmp(s + i, "copyright", 9))
			return 1;
		if (c == 'a' && n - i >= 19 && !strncasecmp(s + i, "all rights reserved", 19))
			return 1;
	}
	return 0;
}

/* Word measure, non-space bytes and punctuation of a finished block. */
static void block_stats(struct block *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *const end = p + b->len;
	uint32_t words10 = 0, spaces = 0;
	int in_word = 0;
	while (p < end) {
		if (*p < 0x80) { /* ASCII without decoding */
			const unsigned char c = *p++;
			if (c == ' ') {
				spaces++;
				in_word = 0;
				continue;
			}
			words10 += in_word ? 0 : 10;
			in_word = 1;
			if (c == '.' || c == '!' || c == '?')
				b->flags |= B_SENTENCE;
			continue;
		}
		const uint32_t cp = next_cp(&p, end);
		if (is_cjk(cp)) {
			words10 += 6;
			in_word = 0;
		} else {
			words10 += in_word ? 0 : 10;
			in_word = 1;
		}
		if (is_sentence_end(cp))
			b->flags |= B_SENTENCE;
	}
	b->words10 = words10;
	b->ns_bytes = b->len - spaces;
	/* Legal footers (rights, syndication terms, licence numbers) run to a
	 * paragraph; an article that merely mentions copyright is longer. */
	if (words10 < COPYRIGHT_MAX_WORDS10 && has_copyright(s, b->len))
		b->flags |= B_COPYRIGHT;
}

/* End the current block, if it holds text. */
static void flush_block(struct html_text *h)
{
	if (h->text.len > h->block_start && !h->oom) {
		if (grow((void **)&h->blocks, &h->cap_blocks, h->n_blocks + 1, sizeof(struct block))) {
			h->oom = 1;
			return;
		}
		struct block *const b = &h->blocks[h->n_blocks++];
		b->off = h->block_start;
		b->len = (uint32_t)(h->text.len - h->block_start);
		b->link_bytes = h->block_link;
		b->flags = h->block_flags;
		b->cls = C_BAD;
		block_stats(b, h->text.p + b->off);
	}
	h->block_start = h->text.len;
	h->block_link = 0;
	h->pending_space = 0;
}

/* Block flags the open elements give to text appended now. */
static uint8_t current_block_flags(const struct html_text *h)
{
	return (uint8_t)((h->cnt[E_SOFT] ? B_SOFT : 0) | (h->cnt[E_FORM] ? B_FORM : 0) |
			 (h->cnt[E_MAIN] ? B_MAIN : 0) | (h->cnt[E_HEADING] ? B_HEADING : 0));
}

static void add_text(struct html_text *h, const char *s, size_t n, int decode)
{
	if (h->cnt[E_DROP] || h->oom)
		return;
	const uint8_t f = current_block_flags(h);
	if (f != h->block_flags) {
		flush_block(h);
		h->block_flags = f;
	}
	const long ns = append_collapsed(&h->text, h->block_start, &h->pending_space, s, n, decode);
	if (ns < 0)
		h->oom = 1;
	else if (h->cnt[E_LINK])
		h->block_link += (uint32_t)ns;
}

static void add_title(struct html_text *h, const char *s, size_t n)
{
	int pending = 0;
	if (h->have_title || h->cnt[E_FOREIGN])
		return;
	h->have_title = 1;
	if (append_collapsed(&h->title, 0, &pending, s, n, 1) < 0)
		h->oom = 1;
}

/* ---- the element stack ---- */

static uint16_t slot_of(enum htag tag, uint32_t hash)
{
	return (uint16_t)(tag != HTAG_UNKNOWN ? tag : HTAG_COUNT + hash % HASH_SLOTS);
}

static uint32_t key_of(enum htag tag, uint32_t hash)
{
	return tag != HTAG_UNKNOWN ? (uint32_t)tag : (UNKNOWN_KEY | hash);
}

static void push(struct html_text *h, enum htag tag, uint32_t hash, uint16_t flags)
{
	if (grow((void **)&h->stack, &h->cap_stack, h->depth + 1, sizeof(struct elem))) {
		h->oom = 1;
		return;
	}
	struct elem *const e = &h->stack[h->depth++];
	e->key = key_of(tag, hash);
	e->flags = flags;
	e->slot = slot_of(tag, hash);
	h->slot_cnt[e->slot]++;
	for (int i = 0; i < E_NFLAGS; i++)
		h->cnt[i] += (flags >> i) & 1;
}

static void pop(struct html_text *h)
{
	const struct elem *const e = &h->stack[--h->depth];
	h->slot_cnt[e->slot]--;
	for (int i = 0; i < E_NFLAGS; i++)
		h->cnt[i] -= (e->flags >> i) & 1;
	if (e->flags & EF(E_BLOCK))
		flush_block(h);
}

/* Pop everything above and including stack[i]. */
static void pop_to(struct html_text *h, size_t i)
{
	while (h->depth > i)
		pop(h);
}

/* Index of the nearest open element @key within @limit entries, or -1. */
static long find_open(const struct html_text *h, uint32_t key, size_t limit)
{
	for (size_t i = h->depth; i > 0 && h->depth - i < limit; i--)
		if (h->stack[i - 1].key == key)
			return (long)(i - 1);
	return -1;
}

static int key_is(const struct elem *e, enum htag a, enum htag b)
{
	return e->key == (uint32_t)a || e->key == (uint32_t)b;
}

/*
 * Close an open @a or @b element (li, dt/dd, td/th, tr) when a sibling
 * starts, unless an element of @stop1/@stop2 (its list or table), or,
 * when @stop_blocks, any block other than div/p, comes first.
 */
static void close_sibling(struct html_text *h, enum htag a, enum htag b, enum htag stop1,
			  enum htag stop2, int stop_blocks)
{
	for (size_t i = h->depth; i > 0 && h->depth - i < IMPLICIT_SEARCH; i--) {
		const struct elem *const e = &h->stack[i - 1];
		if (key_is(e, a, b)) {
			pop_to(h, i - 1);
			return;
		}
		if (key_is(e, stop1, stop2))
			return;
		if (stop_blocks && (e->flags & EF(E_BLOCK)) && !key_is(e, HTAG_DIV, HTAG_P))
			return;
	}
}

/* A block start closes an open <p> reached through inline elements only. */
static void close_p(struct html_text *h)
{
	for (size_t i = h->depth; i > 0 && h->depth - i < IMPLICIT_SEARCH; i--) {
		const struct elem *const e = &h->stack[i - 1];
		if (e->key == HTAG_P) {
			pop_to(h, i - 1);
			return;
		}
		if (e->flags & EF(E_BLOCK))
			return;
	}
}

/* The implicit end tags a start tag @tag implies (HTML tree builder, simplified). */
static void implicit_closes(struct html_text *h, enum htag tag, unsigned props)
{
	long i;
	if (h->cnt[E_HEAD] && !(props & HP_HEAD_OK) && (i = find_open(h, HTAG_HEAD, END_TAG_SEARCH)) >= 0)
		pop_to(h, (size_t)i);
	if ((props & HP_CLOSES_P) && h->slot_cnt[HTAG_P])
		close_p(h);
	if (tag == HTAG_LI)
		close_sibling(h, HTAG_LI, HTAG_LI, HTAG_UL, HTAG_OL, 1);
	else if (tag == HTAG_DT || tag == HTAG_DD)
		close_sibling(h, HTAG_DT, HTAG_DD, HTAG_DL, HTAG_DL, 1);
	else if (tag == HTAG_TD || tag == HTAG_TH)
		close_sibling(h, HTAG_TD, HTAG_TH, HTAG_TR, HTAG_TABLE, 0);
	else if (tag == HTAG_TR)
		close_sibling(h, HTAG_TR, HTAG_TR, HTAG_TABLE, HTAG_TBODY, 0);
	else if ((props & HP_HEADING) && h->depth && (h->stack[h->depth - 1].flags & EF(E_HEADING)))
		pop(h);
	else if (tag == HTAG_A && h->slot_cnt[HTAG_A] && (i = find_open(h, HTAG_A, IMPLICIT_SEARCH)) >= 0)
		pop_to(h, (size_t)i); /* links do not nest */
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

/* E_SOFT / E_MAIN from the attributes of a start tag. */
static uint16_t attr_flags(const struct htok_token *tok)
{
	uint16_t f = 0;
	for (int i = 0; i < tok->n_attrs; i++) {
		const struct htok_attr *const a = &tok->attrs[i];
		if (htok_attr_is(a, "class") || htok_attr_is(a, "id")) {
			if (htok_value_has_chrome_word(a->value, a->value_len))
				f |= EF(E_SOFT);
		} else if (htok_attr_is(a, "role")) {
			if (value_is(a, "main") || value_is(a, "article"))
				f |= EF(E_MAIN);
			else if (value_is(a, "navigation") || value_is(a, "banner") ||
				 value_is(a, "contentinfo") || value_is(a, "complementary") ||
				 value_is(a, "menu") || value_is(a, "menubar") || value_is(a, "search"))
				f |= EF(E_SOFT);
		} else if (htok_attr_is(a, "hidden") ||
			   (htok_attr_is(a, "aria-hidden") && value_is(a, "true")) ||
			   (htok_attr_is(a, "style") && style_hides(a))) {
			f |= EF(E_SOFT);
		}
	}
	return f;
}

/* ---- tags ---- */

static uint16_t elem_flags(const struct htok_token *tok, unsigned props)
{
	const enum htag tag = tok->tag;
	uint16_t f = tok->n_attrs ? attr_flags(tok) : 0;
	/* Never drop the page or the declared main content by a class name. */
	if (tag == HTAG_HTML || tag == HTAG_BODY || tag == HTAG_MAIN || tag == HTAG_ARTICLE)
		f &= (uint16_t)~EF(E_SOFT);
	if (props & (HP_DROP | HP_BOILER))
		f |= EF(E_DROP);
	if (props & HP_FORM)
		f |= EF(E_FORM);
	if (props & HP_LINK)
		f |= EF(E_LINK);
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
	return f;
}

static void start_tag(struct html_text *h, const struct htok_token *tok)
{
	const enum htag tag = tok->tag;
	const unsigned props = htag_props(tag);
	const int foreign = h->cnt[E_FOREIGN] != 0;
	uint16_t flags = elem_flags(tok, props);
	if (foreign) {
		flags &= (uint16_t)~EF(E_BLOCK); /* an svg <title> or <p> is a drawing */
	} else {
		implicit_closes(h, tag, props);
		if (props & HP_BLOCK)
			flush_block(h);
	}
	/* "/>" closes only foreign (svg) and unknown elements; <div/> opens a div. */
	if ((props & HP_VOID) || (tok->self_closing && (foreign || tag == HTAG_UNKNOWN)))
		return;
	push(h, tag, tok->hash, flags);
}

static void end_tag(struct html_text *h, const struct htok_token *tok)
{
	const enum htag tag = tok->tag;
	if (tag == HTAG_BR || tag == HTAG_P) /* </br> is <br>; a stray </p> still ends a paragraph */
		flush_block(h);
	if (!h->slot_cnt[slot_of(tag, tok->hash)])
		return; /* not open: ignore, as browsers do */
	const long i = find_open(h, key_of(tag, tok->hash), END_TAG_SEARCH);
	if (i >= 0)
		pop_to(h, (size_t)i);
}

static void text_token(struct html_text *h, const struct htok_token *tok)
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

/* ---- classification ---- */

/* Class of a block from its own evidence. */
static enum cls classify_block(const struct block *b)
{
	const uint64_t ns = b->ns_bytes ? b->ns_bytes : 1;
	if (b->link_bytes * 3 > ns)
		return C_BAD;
	if (b->flags & B_COPYRIGHT)
		return C_BAD;
	if (b->words10 < 100)
		return C_SHORT;
	if (b->link_bytes * 5 <= ns &&
	    (b->words10 >= 400 || (b->words10 >= 150 && (b->flags & B_SENTENCE))))
		return C_GOOD;
	return C_NEARGOOD;
}

/* Blocks visible at @tier: 0 = no soft-dropped, 1 = forms too, 2 = all. */
static int visible(const struct block *b, int tier)
{
	if (tier == 0)
		return !(b->flags & (B_SOFT | B_FORM));
	if (tier == 1)
		return !(b->flags & B_SOFT);
	return 1;
}

/* Initial classes at @tier, restricted to main content when it has any. */
static void classify_initial(struct html_text *h, int tier)
{
	int main_has_content = 0;
	for (size_t i = 0; i < h->n_blocks; i++) {
		struct block *const b = &h->blocks[i];
		b->cls = visible(b, tier) ? (uint8_t)classify_block(b) : C_HIDDEN;
		if ((b->flags & B_MAIN) && (b->cls == C_GOOD || b->cls == C_NEARGOOD))
			main_has_content = 1;
	}
	if (main_has_content)
		for (size_t i = 0; i < h->n_blocks; i++)
			if (!(h->blocks[i].flags & B_MAIN))
				h->blocks[i].cls = C_HIDDEN;
}

/*
 * Resolve blocks of class @from by their nearest GOOD or BAD neighbours
 * on each side (hidden blocks are skipped, the document's edges count as
 * BAD): GOOD if both are GOOD (@need_both) or either is.  Two sweeps keep
 * it linear; neighbours are judged by their class before this pass.
 */
static void classify_context(struct html_text *h, enum cls from, int need_both)
{
	uint8_t next = C_BAD;
	for (size_t i = h->n_blocks; i-- > 0;) {
		struct block *const b = &h->blocks[i];
		b->next_cls = next;
		if (b->cls == C_GOOD || b->cls == C_BAD)
			next = b->cls;
	}
	uint8_t prev = C_BAD;
	for (size_t i = 0; i < h->n_blocks; i++) {
		struct block *const b = &h->blocks[i];
		const uint8_t c = b->cls;
		if (c == from) {
			const int p = prev == C_GOOD, n = b->next_cls == C_GOOD;
			b->cls = (need_both ? p && n : p || n) ? C_GOOD : C_BAD;
		}
		if (c == C_GOOD || c == C_BAD)
			prev = c;
	}
}

/* A heading (not a link list) right before content introduces it. */
static void classify_headings(struct html_text *h)
{
	for (size_t i = h->n_blocks; i-- > 0;) {
		struct block *const b = &h->blocks[i];
		if (!(b->flags & B_HEADING) || b->cls != C_BAD)
			continue;
		if (b->link_bytes * 3 > b->ns_bytes || (b->flags & B_COPYRIGHT))
			continue;
		size_t j = i + 1;
		while (j < h->n_blocks && h->blocks[j].cls == C_HIDDEN)
			j++;
		if (j < h->n_blocks && h->blocks[j].cls == C_GOOD)
			b->cls = C_GOOD;
	}
}

/* Classify at @tier; @return the number of GOOD blocks. */
static size_t classify(struct html_text *h, int tier)
{
	classify_initial(h, tier);
	classify_context(h, C_NEARGOOD, 0);
	classify_context(h, C_SHORT, 1);
	classify_headings(h);
	size_t good = 0;
	for (size_t i = 0; i < h->n_blocks; i++)
		good += h->blocks[i].cls == C_GOOD;
	return good;
}

static int build_main(struct html_text *h)
{
	for (size_t i = 0; i < h->n_blocks; i++) {
		const struct block *const b = &h->blocks[i];
		if (b->cls != C_GOOD)
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
	h->n_blocks = h->depth = 0;
	memset(h->cnt, 0, sizeof(h->cnt));
	memset(h->slot_cnt, 0, sizeof(h->slot_cnt));
	h->block_start = 0;
	h->block_link = 0;
	h->block_flags = 0;
	h->pending_space = h->have_title = h->oom = 0;
	/* Results are NUL-terminated strings even when empty. */
	if (buf_reserve(&h->text, 0) || buf_reserve(&h->title, 0) || buf_reserve(&h->main, 0))
		return -1;
	h->title.p[0] = h->main.p[0] = 0;
	return 0;
}

int html_text_extract(struct html_text *h, const char *html, size_t len)
{
	struct htok t;
	struct htok_token tok;
	if (reset(h))
		return -1;
	htok_init(&t, html, len);
	while (!h->oom && htok_next(&t, &tok) != HTOK_EOF) {
		if (tok.type == HTOK_TEXT)
			text_token(h, &tok);
		else if (tok.type == HTOK_START)
			start_tag(h, &tok);
		else
			end_tag(h, &tok);
	}
	flush_block(h);
	for (int tier = 0; tier < 3 && !h->oom; tier++)
		if (classify(h, tier))
			break;
	if (h->oom || build_main(h)) {
		h->title.len = h->main.len = 0;
		if (h->title.p)
			h->title.p[0] = 0;
		if (h->main.p)
			h->main.p[0] = 0;
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

const char *html_text_main(const struct html_text *h, size_t *len)
{
	if (len)
		*len = h->main.len;
	return h->main.p ? h->main.p : "";
}
