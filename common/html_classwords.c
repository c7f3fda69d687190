/*
 * html_classwords.c - class and id values that name page chrome (see
 * html_classwords.h): split into words, each looked up whole in a sorted
 * list by bisection after a one-test reject by its first letter.
 */
#include "html_classwords.h"

#include <string.h>

static int is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Whole words (after splitting on -, _, blanks and camelCase) of page chrome. */
static const struct word {
	const char *w;
	size_t n;
} boiler_words[] = { /* sorted: word_in() bisects */
#define W(s) {s, sizeof(s) - 1}
	W("ad"), W("ads"), W("adsense"), W("adslot"), W("adv"), W("advert"), W("advertisement"),
	W("advertising"), W("adverts"), W("banner"), W("breadcrumb"), W("breadcrumbs"), W("byline"),
	W("comment"), W("comments"), W("consent"), W("cookie"), W("cookies"), W("copyright"),
	W("disqus"), W("follow"), W("footer"), W("gdpr"), W("header"), W("hidden"),
	W("masthead"), W("menu"), W("menubar"), W("menus"), W("modal"), W("nav"), W("navbar"),
	W("navi"), W("navigation"), W("newsletter"), W("outbrain"), W("pager"), W("pagination"),
	W("popup"), W("promo"), W("related"), W("rss"), W("share"), W("sharethis"),
	W("sharing"), W("sidebar"), W("sidenav"), W("signup"), W("skiplink"), W("social"),
	W("sponsor"), W("sponsored"), W("sponsors"), W("submenu"), W("subscribe"),
	W("subscription"), W("taboola"), W("tagcloud"), W("toolbar"), W("topbar"), W("widget"),
	W("widgets"),
}, modifier_words[] = {
	/* A word after these describes the page, not this element: "has-sidebar". */
	W("has"), W("no"), W("with"), W("without"),
#undef W
};

/* Compare word [w, w+n) with @e in strcmp() order. */
static int word_cmp(const char *w, size_t n, const struct word *e)
{
	const int c = memcmp(w, e->w, n < e->n ? n : e->n);
	return c ? c : (n > e->n) - (n < e->n);
}

/* First letters of the listed words (a bit per letter): most words of a
 * page are rejected by one test before any compare. */
#define LETTER(c) (1u << ((c) - 'a'))
#define WORD_INITIALS                                                                         \
	(LETTER('a') | LETTER('b') | LETTER('c') | LETTER('d') | LETTER('f') | LETTER('g') |      \
	 LETTER('h') | LETTER('m') | LETTER('n') | LETTER('o') | LETTER('p') | LETTER('r') |      \
	 LETTER('s') | LETTER('t') | LETTER('w'))

/* Bisection: this runs for every class and id word of a page. */
static int word_in(const char *w, size_t n, const struct word *list, size_t count)
{
	const unsigned c0 = (unsigned char)w[0] - 'a';
	if (c0 >= 26 || !(WORD_INITIALS >> c0 & 1))
		return 0;
	size_t lo = 0, hi = count;
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		const int c = word_cmp(w, n, &list[mid]);
		if (c == 0)
			return 1;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
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
	const size_t nb = sizeof(boiler_words) / sizeof(boiler_words[0]);
	for (size_t i = 0; i <= n; i++) {
		const int c = i < n ? (unsigned char)s[i] : 0;
		const int upper = c >= 'A' && c <= 'Z';
		const int alnum = upper || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		const int camel = upper && i > 0 && s[i - 1] >= 'a' && s[i - 1] <= 'z';
		if ((!alnum || camel) && wl) {
			if (wl < sizeof(w)) {
				if (!skip_next && word_in(w, wl, boiler_words, nb))
					return 1;
				/* A compound split in two: "top-bar", "side_bar", "navBar". */
				if (!skip_next && pl && pl + wl <= sizeof(w)) {
					memcpy(pair + pl, w, wl);
					if (word_in(pair, pl + wl, boiler_words, nb))
						return 1;
				}
				skip_next = word_in(w, wl, modifier_words, sizeof(modifier_words) / sizeof(modifier_words[0]));
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
