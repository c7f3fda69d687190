/*
 * html_classwords.c - class and id values that name page chrome (see
 * html_classwords.h): split into words, each looked up whole among the
 * listed words of its first letter.
 */
#include "html/html_classwords.h"

#include <stdint.h>
#include <string.h>

/*
 * Whole words (after splitting on -, _, blanks and camelCase) of page
 * chrome, listed by first letter: a word is compared only with the few
 * listed words of its letter, and with those only if as long (bisecting
 * one sorted list cost ~6 memcmp() calls a word, and this runs for every
 * class and id word of every page).
 */
struct word {
	const char *w;
	size_t n;
};
struct wlist {
	const struct word *w;
	size_t n;
	uint32_t lens; /* bit k set if a word here is k bytes long */
};
#define W(s) {s, sizeof(s) - 1}
#define L(a, lens) {a, sizeof(a) / sizeof(a[0]), lens}
#define B(k) (1u << (k)) /* by hand: test_html_blocks looks up every word */
static const struct word bw_a[] = {W("ad"), W("ads"), W("adsense"), W("adslot"), W("adv"),
	W("advert"), W("advertisement"), W("advertising"), W("adverts")};
static const struct word bw_b[] = {W("banner"), W("breadcrumb"), W("breadcrumbs"),
	W("byline")};
static const struct word bw_c[] = {W("comment"), W("comments"), W("consent"), W("cookie"),
	W("cookies"), W("copyright")};
static const struct word bw_d[] = {W("disqus")};
static const struct word bw_f[] = {W("follow"), W("footer")};
static const struct word bw_g[] = {W("gdpr")};
static const struct word bw_h[] = {W("header"), W("hidden")};
static const struct word bw_m[] = {W("masthead"), W("menu"), W("menubar"), W("menus"),
	W("modal")};
static const struct word bw_n[] = {W("nav"), W("navbar"), W("navi"), W("navigation"),
	W("newsletter")};
static const struct word bw_o[] = {W("outbrain")};
static const struct word bw_p[] = {W("pager"), W("pagination"), W("popup"), W("promo")};
static const struct word bw_r[] = {W("related"), W("rss")};
static const struct word bw_s[] = {W("share"), W("sharethis"), W("sharing"), W("sidebar"),
	W("sidenav"), W("signup"), W("skiplink"), W("social"), W("sponsor"), W("sponsored"),
	W("sponsors"), W("submenu"), W("subscribe"), W("subscription")};
static const struct word bw_t[] = {W("taboola"), W("tagcloud"), W("toolbar"), W("topbar")};
static const struct word bw_w[] = {W("widget"), W("widgets")};
#define AT(c, a, lens) [(c) - 'a'] = L(a, lens)
static const struct wlist boiler_words[26] = {
	AT('a', bw_a, B(2) | B(3) | B(6) | B(7) | B(11) | B(13)),
	AT('b', bw_b, B(6) | B(10) | B(11)),
	AT('c', bw_c, B(6) | B(7) | B(8) | B(9)),
	AT('d', bw_d, B(6)),
	AT('f', bw_f, B(6)),
	AT('g', bw_g, B(4)),
	AT('h', bw_h, B(6)),
	AT('m', bw_m, B(4) | B(5) | B(7) | B(8)),
	AT('n', bw_n, B(3) | B(4) | B(6) | B(10)),
	AT('o', bw_o, B(8)),
	AT('p', bw_p, B(5) | B(10)),
	AT('r', bw_r, B(3) | B(7)),
	AT('s', bw_s, B(5) | B(6) | B(7) | B(8) | B(9) | B(12)),
	AT('t', bw_t, B(6) | B(7) | B(8)),
	AT('w', bw_w, B(6) | B(7)),
};

/*
 * Words that name the content's own container ("l-article-body-segment",
 * "entry-content", "main"): a value with a part made of such words (and
 * no chrome word) is not chrome even when another part names a layout
 * ("l-sidebar-fixed l-article-body-segment": a layout wrapper around the
 * article).  Readability lets such elements stay candidates the same way.
 */
static const struct word cw_a[] = {W("article")};
static const struct word cw_b[] = {W("body")};
static const struct word cw_c[] = {W("content")};
static const struct word cw_e[] = {W("entry")};
static const struct word cw_m[] = {W("main")};
static const struct word cw_s[] = {W("story")};
static const struct wlist content_words[26] = {
	AT('a', cw_a, B(7)),
	AT('b', cw_b, B(4)),
	AT('c', cw_c, B(7)),
	AT('e', cw_e, B(5)),
	AT('m', cw_m, B(4)),
	AT('s', cw_s, B(5)),
};

/* Chrome words no content word excuses: reader comments are named by
 * "comment-body", "comment-content" as often as the article by its own. */
static const struct word rw_c[] = {W("comment"), W("comments")};
static const struct word rw_d[] = {W("disqus")};
static const struct wlist reader_words[26] = {
	AT('c', rw_c, B(7) | B(8)),
	AT('d', rw_d, B(6)),
};

/* A word after these describes the page, not this element: "has-sidebar". */
static const struct word mw_h[] = {W("has")};
static const struct word mw_n[] = {W("no")};
static const struct word mw_w[] = {W("with"), W("without")};
static const struct wlist modifier_words[26] = {
	AT('h', mw_h, B(3)),
	AT('n', mw_n, B(2)),
	AT('w', mw_w, B(4) | B(7)),
};
#undef W
#undef L
#undef B
#undef AT

/* Byte kinds for the word splitter: one table load a byte. */
enum { K_LOWER = 1, K_DIGIT = 2, K_UPPER = 4, K_WS = 8 };
#define K_ALNUM (K_LOWER | K_DIGIT | K_UPPER)
#define R6(c, k) [c] = k, [c + 1] = k, [c + 2] = k, [c + 3] = k, [c + 4] = k, [c + 5] = k
#define R10(c, k) R6(c, k), [c + 6] = k, [c + 7] = k, [c + 8] = k, [c + 9] = k
#define R26(c, k) R10(c, k), R10((c) + 10, k), R6((c) + 20, k)
static const unsigned char kind[256] = {
	R10('0', K_DIGIT), R26('a', K_LOWER), R26('A', K_UPPER),
	[' '] = K_WS, ['\t'] = K_WS, ['\n'] = K_WS, ['\r'] = K_WS, ['\f'] = K_WS,
};
#undef R26
#undef R10
#undef R6

/* Does [s, s+n) (letters and digits, any case) spell @w (lower-case
 * letters)?  c | 0x20 lower-cases a letter and leaves a digit a digit. */
static int spells(const char *w, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] | 0x20) != (unsigned char)w[i])
			return 0;
	return 1;
}

/* Is [a, a+na) followed by [b, b+nb) one of the words of @l, all
 * na + nb bytes long? */
static __attribute__((noinline)) int listed(const struct wlist *l, const char *a, size_t na,
					     const char *b, size_t nb)
{
	const size_t n = na + nb;
	for (size_t i = 0; i < l->n; i++)
		if (l->w[i].n == n && spells(l->w[i].w, a, na) && spells(l->w[i].w + na, b, nb))
			return 1;
	return 0;
}

/*
 * Is the word [a, a+na) followed by [b, b+nb) (letters and digits, any
 * case, na >= 1, nb may be 0) one of @tab?  The word is compared where it
 * lies, not copied and lower-cased first: nearly every word is ruled out
 * by its first letter and its length, here, inline.
 */
static inline int word_in(const char *a, size_t na, const char *b, size_t nb, const struct wlist *tab)
{
	const unsigned c0 = ((unsigned char)a[0] | 0x20) - 'a'; /* a digit: >= 26 */
	const size_t n = na + nb;
	return c0 < 26 && n < 32 && (tab[c0].lens >> n & 1) && listed(&tab[c0], a, na, b, nb);
}

/* The end of the word (letters and digits) that starts at @i: its first
 * non-alnum byte, or an upper-case letter after a lower-case one. */
static size_t word_end(const char *s, size_t i, size_t n)
{
	unsigned prev = kind[(unsigned char)s[i++]];
	for (; i < n; i++) {
		const unsigned k = kind[(unsigned char)s[i]];
		if (!(k & K_ALNUM) || (k == K_UPPER && prev == K_LOWER))
			break;
		prev = k;
	}
	return i;
}

#define LONG_WORD 24 /* a word this long is no word: not looked up */

/* Does a WordPress taxonomy slug ("category-social", "tag-ads": not
 * the element's role) start at @s, @m bytes left, a blank-free part? */
static int taxonomy(const char *s, size_t m)
{
	return (m > 9 && s[0] == 'c' && !memcmp(s, "category-", 9) && !(kind[(unsigned char)s[9]] & K_WS)) ||
	       (m > 4 && s[0] == 't' && !memcmp(s, "tag-", 4) && !(kind[(unsigned char)s[4]] & K_WS));
}

/* What part_kind() finds in a blank-free part of a value. */
enum {
	PART_CHROME = 1,  /* a chrome word */
	PART_CONTENT = 2, /* a content word */
	PART_READER = 4,  /* a chrome word that names reader comments */
};

/*
 * What the blank-free part of the value (one class word, e.g.
 * "top-ad_slot", "mainNav") that starts at s[*at] holds: PART_* bits.
 * *at is left at its end, a blank or @n: the part is split into words as
 * it is read, not found first.
 */
static unsigned part_kind(const char *s, size_t n, size_t *at)
{
	size_t i = *at;
	if (taxonomy(s + i, n - i)) {
		while (i < n && !(kind[(unsigned char)s[i]] & K_WS))
			i++;
		*at = i;
		return 0;
	}
	const char *prev = s;
	size_t pl = 0;
	int skip_next = 0;
	unsigned found = 0;
	for (;;) {
		while (i < n && !(kind[(unsigned char)s[i]] & (K_ALNUM | K_WS)))
			i++;
		if (i >= n || (kind[(unsigned char)s[i]] & K_WS)) {
			*at = i;
			return found;
		}
		const size_t start = i;
		i = word_end(s, i, n);
		const char *const w = s + start;
		const size_t wl = i - start;
		if (wl >= LONG_WORD) {
			pl = 0;
			continue;
		}
		if (!skip_next) {
			/* A compound split in two: "top-bar", "side_bar", "navBar". */
			const int pair = pl && pl + wl <= LONG_WORD;
			if (word_in(w, wl, w, 0, boiler_words) ||
			    (pair && word_in(prev, pl, w, wl, boiler_words)))
				found |= PART_CHROME;
			if (word_in(w, wl, w, 0, reader_words))
				found |= PART_READER;
			if (word_in(w, wl, w, 0, content_words))
				found |= PART_CONTENT;
		}
		skip_next = word_in(w, wl, w, 0, modifier_words);
		prev = w;
		pl = wl;
	}
}

int html_class_is_chrome(const char *s, size_t n)
{
	size_t i = 0;
	int chrome = 0, content = 0;
	while (i < n) {
		if (kind[(unsigned char)s[i]] & K_WS) {
			i++;
			continue;
		}
		const unsigned k = part_kind(s, n, &i);
		if (k & PART_READER)
			return 1;
		chrome |= (k & PART_CHROME) != 0;
		content |= k == PART_CONTENT;
	}
	return chrome && !content;
}
