/*
 * html_classwords.c - class and id values that name page chrome (see
 * html_classwords.h): split into words, each looked up whole among the
 * listed words of its first letter.
 */
#include "html/html_classwords.h"

#include <stdint.h>
#include <string.h>

/* What a listed word is (part_kind() below); its kind in the table. */
enum {
	PART_CHROME = 1,  /* names chrome: nav, sidebar, share... */
	PART_CONTENT = 2, /* names the content's container */
	PART_READER = 4,  /* names reader comments (chrome too) */
	PART_MOD = 8,     /* a word after it describes the page: "has-sidebar" */
	PART_PROSE = 16,  /* a function word of prose: "sharing-with-a-single-developer" */
	PART_NEVER = 32,  /* names a component that is never a page's content: ad, cookie... */
};

/* A part of this many words or more with a function word of prose in it
 * is a heading's text made an id (docutils and most wikis do so), not a
 * name for what the element is. */
#define SLUG_WORDS 4

/*
 * Whole words (after splitting on -, _, blanks and camelCase), listed by
 * first letter with their kind: a word is compared only with the few
 * listed words of its letter, and with those only if as long (bisecting
 * one sorted list cost ~6 memcmp() calls a word, and this runs for every
 * class and id word of every page), and once for all kinds.
 *
 * Chrome: navigation, menus, sidebars, footers, ads, comments, author
 * boxes (as readability's byline pattern: a post's profile cell), share
 * buttons, cookie banners.  Of these, some (N below) name a component
 * that is never a page's content, whatever else the page holds: an
 * advert, a consent banner, a newsletter signup.  A layout word
 * (sidebar, header, widget) is only a place, and a site may put its
 * content there; these are a function.  Words that may wrap an article
 * stay C: ad (an abbreviation), subscription (a paywall's wrapper),
 * modal and popup (a reader overlay), share, social, promo.  Content (article, body, content, entry, main,
 * story): a value with a part made of such words and no chrome word is
 * not chrome even when another part names a layout ("l-sidebar-fixed
 * l-article-body-segment": a layout wrapper around the article), as
 * Readability lets such elements stay candidates.  Reader comments are
 * named by "comment-body", "comment-content" as often as the article by
 * its own: no content word excuses them.  Modifiers: has, no, with,
 * without.  Prose: function words, which a name for an element has not
 * but a heading's text made an id has ("sharing-with-a-single-developer"
 * is a section, not a share box).
 */
struct word {
	const char *w;
	uint8_t n, kind;
};
struct wlist {
	const struct word *w;
	size_t n;
	uint32_t lens; /* bit k set if a word here is k bytes long */
};
#define C(s) {s, sizeof(s) - 1, PART_CHROME}
#define N(s) {s, sizeof(s) - 1, PART_CHROME | PART_NEVER}
#define R(s) {s, sizeof(s) - 1, PART_CHROME | PART_READER}
#define M(s) {s, sizeof(s) - 1, PART_CONTENT}
#define X(s) {s, sizeof(s) - 1, PART_MOD | PART_PROSE}
#define P(s) {s, sizeof(s) - 1, PART_PROSE}
#define L(a, lens) {a, sizeof(a) / sizeof(a[0]), lens}
#define B(k) (1u << (k)) /* by hand: test_html_blocks looks up every word */
static const struct word w_a[] = {C("ad"), C("ads"), N("adsense"), N("adslot"), C("adv"),
	N("advert"), N("advertisement"), N("advertising"), N("adverts"), M("article"), P("a"),
	P("an"), P("and"), C("author")};
static const struct word w_b[] = {C("banner"), C("breadcrumb"), C("breadcrumbs"), C("byline"),
	M("body")};
static const struct word w_c[] = {R("comment"), R("comments"), N("consent"), N("cookie"),
	N("cookies"), C("copyright"), M("content")};
static const struct word w_d[] = {R("disqus")};
static const struct word w_e[] = {M("entry")};
static const struct word w_f[] = {C("follow"), C("footer"), P("for"), P("from")};
static const struct word w_g[] = {N("gdpr")};
static const struct word w_h[] = {C("header"), C("hidden"), X("has"), P("how")};
static const struct word w_i[] = {P("in"), P("is")};
static const struct word w_m[] = {C("masthead"), C("menu"), C("menubar"), C("menus"),
	C("modal"), M("main")};
static const struct word w_n[] = {C("nav"), C("navbar"), C("navi"), C("navigation"),
	N("newsletter"), X("no")};
static const struct word w_o[] = {N("outbrain"), P("of"), P("on")};
static const struct word w_p[] = {C("pager"), C("pagination"), C("popup"), C("promo")};
static const struct word w_r[] = {C("related"), C("rss")};
static const struct word w_s[] = {C("share"), N("sharethis"), C("sharing"), C("sidebar"),
	C("sidenav"), N("signup"), C("skiplink"), C("social"), C("sponsor"), C("sponsored"),
	C("sponsors"), C("submenu"), C("subscribe"), C("subscription"), M("story")};
static const struct word w_t[] = {N("taboola"), C("tagcloud"), C("toolbar"), C("topbar"),
	P("the"), P("to")};
static const struct word w_w[] = {C("widget"), C("widgets"), X("with"), X("without"), P("what"),
	P("why")};
static const struct word w_y[] = {P("your")};
#define AT(c, a, lens) [(c) - 'a'] = L(a, lens)
static const struct wlist listed_words[26] = {
	AT('a', w_a, B(1) | B(2) | B(3) | B(6) | B(7) | B(11) | B(13)),
	AT('b', w_b, B(4) | B(6) | B(10) | B(11)),
	AT('c', w_c, B(6) | B(7) | B(8) | B(9)),
	AT('d', w_d, B(6)),
	AT('e', w_e, B(5)),
	AT('f', w_f, B(3) | B(4) | B(6)),
	AT('g', w_g, B(4)),
	AT('h', w_h, B(3) | B(6)),
	AT('i', w_i, B(2)),
	AT('m', w_m, B(4) | B(5) | B(7) | B(8)),
	AT('n', w_n, B(2) | B(3) | B(4) | B(6) | B(10)),
	AT('o', w_o, B(2) | B(8)),
	AT('p', w_p, B(5) | B(10)),
	AT('r', w_r, B(3) | B(7)),
	AT('s', w_s, B(5) | B(6) | B(7) | B(8) | B(9) | B(12)),
	AT('t', w_t, B(2) | B(3) | B(6) | B(7) | B(8)),
	AT('w', w_w, B(3) | B(4) | B(6) | B(7)),
	AT('y', w_y, B(4)),
};
#undef C
#undef N
#undef R
#undef M
#undef X
#undef P
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

/* The kind of [a, a+na) followed by [b, b+nb) if it is one of the
 * words of @l, all na + nb bytes long; 0 if none. */
static __attribute__((noinline)) unsigned listed(const struct wlist *l, const char *a, size_t na,
						  const char *b, size_t nb)
{
	const size_t n = na + nb;
	for (size_t i = 0; i < l->n; i++)
		if (l->w[i].n == n && spells(l->w[i].w, a, na) && spells(l->w[i].w + na, b, nb))
			return l->w[i].kind;
	return 0;
}

/*
 * The kind (PART_*) of the word [a, a+na) followed by [b, b+nb) (letters
 * and digits, any case, na >= 1, nb may be 0), 0 if it is not listed.
 * The word is compared where it lies, not copied and lower-cased first:
 * nearly every word is ruled out by its first letter and its length,
 * here, inline.
 */
static inline unsigned word_kind(const char *a, size_t na, const char *b, size_t nb)
{
	const unsigned c0 = ((unsigned char)a[0] | 0x20) - 'a'; /* a digit: >= 26 */
	const size_t n = na + nb;
	const struct wlist *const l = &listed_words[c0 < 26 ? c0 : 0];
	return c0 < 26 && n < 32 && (l->lens >> n & 1) ? listed(l, a, na, b, nb) : 0;
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

/*
 * A consent banner is named by compounds written as one word as often as
 * by the word alone ("cmplz-cookiebanner", "cookienotice", "cookiebar",
 * "consentmanager", "gdprbox"): a word that starts with cookie, consent
 * or gdpr and runs on is never content too.  No other English word
 * starts so.
 */
static unsigned never_prefix(const char *w, size_t wl)
{
	return (wl > 6 && spells("cookie", w, 6)) || (wl > 7 && spells("consent", w, 7)) ||
			       (wl > 4 && spells("gdpr", w, 4))
		       ? PART_CHROME | PART_NEVER
		       : 0;
}

/* Does a WordPress taxonomy slug ("category-social", "tag-ads": not
 * the element's role) start at @s, @m bytes left, a blank-free part? */
static int taxonomy(const char *s, size_t m)
{
	return (m > 9 && s[0] == 'c' && !memcmp(s, "category-", 9) && !(kind[(unsigned char)s[9]] & K_WS)) ||
	       (m > 4 && s[0] == 't' && !memcmp(s, "tag-", 4) && !(kind[(unsigned char)s[4]] & K_WS));
}

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
	unsigned found = 0, words = 0;
	for (;;) {
		while (i < n && !(kind[(unsigned char)s[i]] & (K_ALNUM | K_WS)))
			i++;
		if (i >= n || (kind[(unsigned char)s[i]] & K_WS)) {
			*at = i;
			return (found & PART_PROSE) && words >= SLUG_WORDS ? 0 : found & ~PART_PROSE;
		}
		words++;
		const size_t start = i;
		i = word_end(s, i, n);
		const char *const w = s + start;
		const size_t wl = i - start;
		if (wl >= LONG_WORD) {
			pl = 0;
			continue;
		}
		unsigned k = word_kind(w, wl, w, 0);
		if (!k)
			k = never_prefix(w, wl);
		if (!k && wl > 7 && spells("related", w, 7))
			k = PART_CHROME;
		found |= k & PART_PROSE;
		if (!skip_next) {
			found |= k & (PART_CHROME | PART_READER | PART_CONTENT | PART_NEVER);
			/* A compound split in two: "top-bar", "side_bar", "navBar". */
			if (pl && pl + wl <= LONG_WORD && (word_kind(prev, pl, w, wl) & PART_CHROME))
				found |= PART_CHROME;
		}
		skip_next = (k & PART_MOD) != 0;
		prev = w;
		pl = wl;
	}
}

int html_class_is_chrome(const char *s, size_t n)
{
	size_t i = 0;
	int chrome = 0, content = 0, never = 0;
	while (i < n) {
		if (kind[(unsigned char)s[i]] & K_WS) {
			i++;
			continue;
		}
		const unsigned k = part_kind(s, n, &i);
		if (k & PART_READER)
			return 1;
		chrome |= (k & PART_CHROME) != 0;
		never |= (k & PART_NEVER) != 0;
		content |= k == PART_CONTENT;
	}
	return chrome && !content ? 1 + never : 0;
}
