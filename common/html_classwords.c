/*
 * html_classwords.c - class and id values that name page chrome (see
 * html_classwords.h): split into words, each looked up whole among the
 * listed words of its first letter.
 */
#include "html_classwords.h"

#include <string.h>

static int is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

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
};
#define W(s) {s, sizeof(s) - 1}
#define L(a) {a, sizeof(a) / sizeof(a[0])}
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
#define AT(c, a) [(c) - 'a'] = L(a)
static const struct wlist boiler_words[26] = {
	AT('a', bw_a), AT('b', bw_b), AT('c', bw_c), AT('d', bw_d), AT('f', bw_f),
	AT('g', bw_g), AT('h', bw_h), AT('m', bw_m), AT('n', bw_n), AT('o', bw_o),
	AT('p', bw_p), AT('r', bw_r), AT('s', bw_s), AT('t', bw_t), AT('w', bw_w),
};

/* A word after these describes the page, not this element: "has-sidebar". */
static const struct word mw_h[] = {W("has")};
static const struct word mw_n[] = {W("no")};
static const struct word mw_w[] = {W("with"), W("without")};
static const struct wlist modifier_words[26] = {
	AT('h', mw_h), AT('n', mw_n), AT('w', mw_w),
};
#undef W
#undef L
#undef AT

/* Is the word [w, w+n) (lower case, n >= 1) in @tab? */
static int word_in(const char *w, size_t n, const struct wlist *tab)
{
	const unsigned c0 = (unsigned char)w[0] - 'a';
	if (c0 >= 26)
		return 0;
	const struct wlist *const l = &tab[c0];
	for (size_t i = 0; i < l->n; i++)
		if (l->w[i].n == n && !memcmp(w + 1, l->w[i].w + 1, n - 1))
			return 1;
	return 0;
}

/* Does one class word (blank-free, e.g. "top-ad_slot", "mainNav") name chrome? */
static int class_word_is_boiler(const char *s, size_t n)
{
	/* WordPress puts taxonomy slugs in classes: "category-social", "tag-ads". */
	if ((n > 9 && s[0] == 'c' && !memcmp(s, "category-", 9)) ||
	    (n > 4 && s[0] == 't' && !memcmp(s, "tag-", 4)))
		return 0;
	char w[24], pair[48];
	size_t wl = 0, pl = 0;
	int skip_next = 0;
	for (size_t i = 0; i <= n; i++) {
		const int c = i < n ? (unsigned char)s[i] : 0;
		const int upper = c >= 'A' && c <= 'Z';
		const int alnum = upper || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		const int camel = upper && i > 0 && s[i - 1] >= 'a' && s[i - 1] <= 'z';
		if ((!alnum || camel) && wl) {
			if (wl < sizeof(w)) {
				if (!skip_next && word_in(w, wl, boiler_words))
					return 1;
				/* A compound split in two: "top-bar", "side_bar", "navBar". */
				if (!skip_next && pl && pl + wl <= sizeof(w)) {
					memcpy(pair + pl, w, wl);
					if (word_in(pair, pl + wl, boiler_words))
						return 1;
				}
				skip_next = word_in(w, wl, modifier_words);
				memcpy(pair, w, wl);
				pl = wl;
			} else {
				pl = 0;
			}
			wl = 0;
		}
		if (alnum) {
			if (wl < sizeof(w))
				w[wl] = (char)(upper ? c + 32 : c);
			wl++;
		}
	}
	return 0;
}

int html_class_is_chrome(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		while (i < n && is_ws((unsigned char)s[i]))
			i++;
		const size_t start = i;
		while (i < n && !is_ws((unsigned char)s[i]))
			i++;
		if (i > start && class_word_is_boiler(s + start, i - start))
			return 1;
	}
	return 0;
}
