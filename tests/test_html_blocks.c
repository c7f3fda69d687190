/*
 * test_html_blocks.c - short lines at the edges of the main content.
 *
 * What must hold: the first and last lines of an article are kept however
 * short, whatever template is around it, so that one text under two
 * templates gives one main text (the fingerprint evaluation's template
 * changes); a template's own short lines beside the content (a byline,
 * a "Powered by" line, a footer note) and legal lines are still dropped.
 * First through html_text on whole pages, then hblocks_classify() on
 * blocks made by hand, which pins the rule's use of hblock.gap_depth.
 */
#include "html/html_blocks.h"
#include "html/html_classwords.h"
#include "html/html_text.h"
#include "html/html_runs.h"
#include "ref_html_blocks.h"
#include "testhtml.h"
#include "testutil.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>


/* An article that starts and ends with short lines, and ends with a run
 * of them (an API index: a heading, then one-line entries). */
#define P_LONG1 "Queues should be used to distribute work amongst several tasks, to implement " \
	"connection pools and pub/sub patterns, and to keep the producers and the consumers apart."
#define P_LONG2 "A queue is not thread-safe: it is meant for tasks of one event loop, and the " \
	"functions that wait on it return as soon as an item is there or the timeout has passed."
#define ARTICLE_HTML "<h2>Queues</h2><p>Short first line.</p><p>" P_LONG1 "</p><p>" P_LONG2 "</p>" \
	"<h3>Examples</h3><p>A FIFO queue.</p><p>A LIFO queue.</p><p>See also the queues page.</p>"
#define ARTICLE_TEXT "Queues\nShort first line.\n" P_LONG1 "\n" P_LONG2 "\n" \
	"Examples\nA FIFO queue.\nA LIFO queue.\nSee also the queues page."

/* Declared main content: everything in it is trusted. */
static const char page_main[] =
	"<html><head><title>Queues</title></head><body>"
	"<header><a href=/>Docs</a></header><nav><a href=/a>Library</a> <a href=/b>Tutorial</a></nav>"
	"<main><article>" ARTICLE_HTML "</article></main>"
	"<footer><p>Copyright 2024 the Docs team. All rights reserved.</p></footer></body></html>";

/* A blog: the template adds a title, a byline and a footer line of its
 * own, short and without links, right beside the article. */
static const char page_blog[] =
	"<html><head><title>Queues - Mirror Blog</title></head><body><div id=wrapper>"
	"<div id=top><div class=menu><a href=/c1>Home</a> | <a href=/c2>Docs</a></div></div>"
	"<div id=content><div class=post><h1 class=entry-title>Queues</h1>"
	"<div class=meta>Posted by admin in Docs | 3 comments</div>"
	"<div class=entry-content>" ARTICLE_HTML "</div></div>"
	"<div class=comments><h3>3 comments</h3><div class=comment>Thanks, this was helpful!</div></div></div>"
	"<div id=bottom>Powered by a blog engine</div></div></body></html>";

/* An old table layout: a link column and a banner cell beside the text. */
static const char page_table[] =
	"<html><head><title>Queues</title></head><body><table width=100%>"
	"<tr><td colspan=2 class=banner>Classic Docs Archive</td></tr>"
	"<tr><td class=left><a href=/n1>Home</a><br><a href=/n2>Docs</a><br><a href=/n3>Jobs</a></td>"
	"<td class=body>" ARTICLE_HTML "</td></tr>"
	"<tr><td colspan=2 class=bottom><small>Last updated in May</small></td></tr></table></body></html>";

static void test_edges_any_template(void)
{
	static const char *const pages[] = {page_main, page_blog, page_table};
	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		const char *const m = main_of(pages[i]);
		CHECK(!strcmp(m, ARTICLE_TEXT));
		if (strcmp(m, ARTICLE_TEXT))
			fprintf(stderr, "template %zu:\n%s\n", i, m);
	}
	/* The template's own short lines stay out: they are outside the
	 * element that holds the article. */
	const char *m = main_of(page_blog);
	CHECK(!contains(m, "Posted by") && !contains(m, "Powered by") && !contains(m, "Thanks"));
	m = main_of(page_table);
	CHECK(!contains(m, "Classic Docs") && !contains(m, "Last updated") && !contains(m, "Jobs"));
}

static void test_boilerplate_still_dropped(void)
{
	/* A short footer line beside the content's element. */
	const char *m = main_of("<html><body><div class=text><p>" P_LONG1 "</p><p>" P_LONG2 "</p></div>"
				"<div>Last updated in May</div></body></html>");
	CHECK(contains(m, P_LONG2) && !contains(m, "Last updated"));
	/* A legal line inside it is BAD, and the extension stops there. */
	m = main_of("<div class=text><p>" P_LONG1 "</p><p>" P_LONG2 "</p><p>Copyright 2024 Example</p>"
		    "<p>Short after it.</p></div>");
	CHECK(contains(m, P_LONG2) && !contains(m, "Copyright") && !contains(m, "Short after"));
	/* In declared main content, a paragraph that mentions copyright is
	 * the article's; a legal line is not, nor a list of links. */
	m = main_of("<article><p>" P_LONG1 "</p><p>The court held that the copyright in the photograph "
		    "belonged to the agency, and that all rights reserved by it were valid.</p><p>"
		    P_LONG2 "</p><p>Copyright 2024 Example. All rights reserved.</p>"
		    "<p><a href=/a>Queues</a> <a href=/b>Locks</a> <a href=/c>Events</a></p></article>");
	CHECK(contains(m, "The court held") && contains(m, P_LONG2) && !contains(m, "Copyright 2024") &&
	      !contains(m, "Locks"));
	/* ...but a line of it with a link or two is text. */
	m = main_of("<article><p>" P_LONG1 "</p><ul><li><a href=/u>Ann</a> made the <a href=/q>queue</a> "
		    "faster</li></ul></article>");
	CHECK(contains(m, "Ann made the queue faster"));
	/* Chrome (dropped nav) in between ends it as well. */
	m = main_of("<div class=text><p>" P_LONG1 "</p><p>" P_LONG2 "</p><nav><a href=/>Home</a></nav>"
		    "<p>Short after nav.</p></div>");
	CHECK(contains(m, P_LONG2) && !contains(m, "Short after"));
	/* One paragraph alone in its element shows no siblings: the short
	 * lines beside it are the template's. */
	m = main_of("<body><div class=menu><a href=/>Home</a></div><div class=story><p>" P_LONG1 "</p></div>"
		    "<div>About us | Contact</div></body>");
	CHECK(!strcmp(m, P_LONG1));
	/* One paragraph with a sibling line in its element keeps it. */
	m = main_of("<body><div class=menu><a href=/>Home</a></div><div class=story><p>" P_LONG1 "</p>"
		    "<p>Filed under queues.</p></div><div>About us | Contact</div></body>");
	CHECK(!strcmp(m, P_LONG1 "\nFiled under queues."));
	/* The elements must be the page's: an anchor <a id=x/> left open
	 * (DocBook writes them) is not closed by a link inside a table cell,
	 * which would close the chapter's <div> too early and take the pager
	 * after it for a line of the chapter. */
	m = main_of("<body><div class=chapter><p>" P_LONG1 "</p><div class=table><a id=t1/>"
		    "<div><table><tr><td><a href=/x>x</a></td></tr></table></div></div><p>" P_LONG2 "</p></div>"
		    "<div class=navfooter><table><tr><td>Chapter 9. Tips</td></tr></table></div></body>");
	CHECK(contains(m, P_LONG2) && !contains(m, "Chapter 9"));
}

/* ---- the classifier alone ---- */

/* A measured block: @words words, no links, @gap elements held in common
 * with the block before it. */
static struct hblock blk(unsigned words, uint16_t gap)
{
	struct hblock b;
	memset(&b, 0, sizeof(b));
	b.words10 = words * 10;
	b.flags = HB_SENTENCE;
	b.gap_depth = gap;
	return b;
}

static void test_classify_gaps(void)
{
	/* short, GOOD, GOOD, short, short: the run [1, 2] lies in an element
	 * of depth 3; block 0 shares only depth 2 with it, block 3 depth 3,
	 * block 4 depth 2. */
	struct hblock b[] = {blk(4, 0), blk(50, 2), blk(50, 3), blk(4, 3), blk(4, 2)};
	CHECK_EQ_U64(hblocks_classify(b, 5, NULL), 3);
	CHECK(b[0].cls != HB_GOOD && b[1].cls == HB_GOOD && b[2].cls == HB_GOOD);
	CHECK(b[3].cls == HB_GOOD && b[4].cls != HB_GOOD);
	/* The least gap on the way counts: block 4 is back at depth 3, but
	 * the way from the run to it left the element. */
	struct hblock c[] = {blk(50, 0), blk(50, 3), blk(4, 2), blk(4, 3)};
	CHECK_EQ_U64(hblocks_classify(c, 4, NULL), 2);
	CHECK(c[2].cls != HB_GOOD && c[3].cls != HB_GOOD);
	/* A page with no structure (all gaps alike) keeps its edge lines. */
	struct hblock d[] = {blk(4, 0), blk(50, 0), blk(50, 0), blk(4, 0)};
	CHECK_EQ_U64(hblocks_classify(d, 4, NULL), 4);
	/* A mark (dropped chrome) stops the extension. */
	struct hblock e[] = {blk(50, 0), blk(50, 1), blk(0, 1), blk(4, 1)};
	e[2].flags = HB_MARK;
	CHECK_EQ_U64(hblocks_classify(e, 4, NULL), 2);
	CHECK(e[3].cls != HB_GOOD);
	/* One block: the side it shares the deeper element with. */
	struct hblock f[] = {blk(4, 0), blk(50, 2), blk(4, 4), blk(4, 4), blk(4, 2)};
	CHECK_EQ_U64(hblocks_classify(f, 5, NULL), 3);
	CHECK(f[0].cls != HB_GOOD && f[2].cls == HB_GOOD && f[3].cls == HB_GOOD && f[4].cls != HB_GOOD);
	struct hblock g[] = {blk(4, 0), blk(50, 2), blk(4, 2)};
	CHECK_EQ_U64(hblocks_classify(g, 3, NULL), 1);
}

/* A random block: link lists, short lines, near-good and good text, legal
 * lines, marks; flags as likely as @mode says (0: no soft blocks or
 * forms, so tiers repeat; 1: some; 2: many, so later tiers and the
 * fallback are reached). */
static struct hblock random_block(uint64_t *rs, int mode)
{
	static const uint16_t words10[] = {0, 10, 30, 60, 90, 100, 140, 150, 200, 390, 400, 800, 1200};
	const uint64_t r = test_rand(rs);
	struct hblock b;
	memset(&b, 0, sizeof(b));
	b.words10 = words10[r % 13];
	switch (r >> 4 & 7) { /* links: none, a few, a third, all */
	case 0: case 1: case 2: break;
	case 3: b.link_words10 = b.words10 / 5; break;
	case 4: b.link_words10 = b.words10 / 3 + (r >> 7 & 1); break;
	default: b.link_words10 = b.words10; break;
	}
	const unsigned soft = mode == 0 ? 0 : mode == 1 ? 12 : 3;
	b.flags = (uint8_t)((r >> 8 & 3) == 0 ? HB_SENTENCE : 0);
	b.flags |= (uint8_t)(soft && (r >> 10) % soft == 0 ? HB_SOFT : 0);
	b.flags |= (uint8_t)(soft && (r >> 16) % (soft + 2) == 0 ? HB_FORM : 0);
	b.flags |= (uint8_t)((r >> 20 & 7) == 0 ? HB_HEADING : 0);
	b.flags |= (uint8_t)((r >> 23 & 15) == 0 ? HB_COPYRIGHT : 0);
	b.flags |= (uint8_t)((r >> 27 & 15) == 0 ? HB_MARK : 0);
	b.gap_depth = (uint16_t)(r >> 31 & 3);
	b.flags |= (uint8_t)((b.flags & HB_SOFT) && (r >> 33 & 3) == 0 ? HB_NEVER : 0);
	b.len = b.words10 / 2 + (uint32_t)(r >> 35 & 7); /* bytes: the fallback's HB_OWN_MIN */
	return b;
}

/* Random pages of blocks classify as the plain reference (the classifier
 * as it was before its passes were merged) classifies them: the same
 * blocks GOOD (the others' classes are the classifier's own business). */
static void test_classify_random(void)
{
	uint64_t rs = test_seed(20261121);
	struct hblock b[80], ref[80];
	size_t goods = 0, nones = 0;
	for (int t = 0; t < 300000; t++) {
		const uint64_t r = test_rand(&rs);
		const size_t n = (size_t)(r % 80);
		const int mode = (int)((r >> 8) % 3), main_pages = (r >> 12 & 3) == 0;
		for (size_t i = 0; i < n; i++) {
			b[i] = random_block(&rs, mode);
			if (!main_pages)
				b[i].flags &= (uint8_t)~HB_MAIN;
			else if ((test_rand(&rs) & 3) == 0)
				b[i].flags |= HB_MAIN;
			ref[i] = b[i];
		}
		const size_t want = ref_hblocks_classify(ref, n), got = hblocks_classify(b, n, NULL);
		goods += want == n && n;
		nones += want == 0;
		int same = got == want;
		for (size_t i = 0; i < n; i++)
			same &= (b[i].cls == HB_GOOD) == (ref[i].cls == HB_GOOD);
		if (!same) {
			CHECK(!"blocks classed as the reference classes them");
			fprintf(stderr, "  page %d of %zu blocks: %zu GOOD, want %zu\n", t, n, got, want);
			return;
		}
	}
	CHECK(goods > 1000 && nones > 1000); /* pages all content, and none */
}

/* The listed chrome words. */
static const char *const words[] = {
	"ad", "ads", "adsense", "adslot", "adv", "advert", "advertisement", "advertising", "author",
	"adverts", "banner", "breadcrumb", "breadcrumbs", "byline", "comment", "comments",
	"consent", "cookie", "cookies", "copyright", "disqus", "follow", "footer", "gdpr",
	"header", "hidden", "masthead", "menu", "menubar", "menus", "modal", "nav", "navbar",
	"navi", "navigation", "newsletter", "outbrain", "pager", "pagination", "popup",
	"promo", "related", "rss", "share", "sharethis", "sharing", "sidebar", "sidenav",
	"signup", "skiplink", "social", "sponsor", "sponsored", "sponsors", "submenu",
	"subscribe", "subscription", "taboola", "tagcloud", "toolbar", "topbar", "widget",
	"widgets",
};
#define NW (sizeof(words) / sizeof(words[0]))

/* A word that starts with cookie, consent or gdpr and runs on
 * ("cookiebanner") names a consent banner; one that starts with related
 * ("relatedposts"), a box of related links. */
static int ref_prefix(const char *w, size_t n)
{
	static const char *const pre[] = {"cookie", "consent", "gdpr", "related"};
	for (size_t j = 0; j < 4; j++)
		if (n > strlen(pre[j]) && !strncmp(w, pre[j], strlen(pre[j])))
			return 1;
	return 0;
}

/* Every chrome word is found alone and as the tail of a compound; one
 * letter more or less is another word (found only if listed itself). */
static void test_chrome_word_list(void)
{
	for (size_t i = 0; i < NW; i++) {
		char v[64];
		const size_t l = strlen(words[i]);
		CHECK(html_class_is_chrome(words[i], l));
		snprintf(v, sizeof v, "x-%s", words[i]);
		CHECK(html_class_is_chrome(v, strlen(v)));
		snprintf(v, sizeof v, "%sq", words[i]);
		CHECK((html_class_is_chrome(v, strlen(v)) != 0) == ref_prefix(v, strlen(v)));
		int listed = 0; /* the word less its last letter */
		for (size_t j = 0; j < NW; j++)
			listed |= strlen(words[j]) == l - 1 && !strncmp(words[j], words[i], l - 1);
		CHECK((html_class_is_chrome(words[i], l - 1) != 0) == listed);
	}
	/* Compounds of two words, modifiers, letters outside the list. */
	CHECK(html_class_is_chrome("side_bar", 8) && html_class_is_chrome("topBar", 6));
	CHECK(!html_class_is_chrome("without-sidebar", 15) && !html_class_is_chrome("no-ads", 6));
	CHECK(!html_class_is_chrome("zebra", 5) && !html_class_is_chrome("9", 1));
	CHECK(html_class_is_chrome("9-nav", 5) && html_class_is_chrome("WIDGET", 6));
	/* Consent banners' compounds are never content; the words alone are listed. */
	CHECK(html_class_is_chrome("cmplz-cookiebanner", 18) == 2 && html_class_is_chrome("CookieNotice", 12) == 2);
	CHECK(html_class_is_chrome("consentmanager", 14) == 2 && html_class_is_chrome("gdprbox", 7) == 2);
	CHECK(!html_class_is_chrome("cookbook", 8) && !html_class_is_chrome("consensus", 9));
	/* Related posts' compounds are chrome, not never content. */
	CHECK(html_class_is_chrome("jp-relatedposts", 15) == 1 && !html_class_is_chrome("relate", 6));
}

/* html_class_is_chrome() as its header says, written plainly: the words
 * of a blank-free part, lower-cased, copied out, each compared with every
 * listed word. */
static int ref_listed(const char *w, size_t n)
{
	for (size_t j = 0; j < NW; j++)
		if (strlen(words[j]) == n && !memcmp(words[j], w, n))
			return 1;
	return 0;
}

static int ref_modifier(const char *w, size_t n)
{
	static const char *const mods[] = {"has", "no", "with", "without"};
	for (size_t j = 0; j < 4; j++)
		if (strlen(mods[j]) == n && !memcmp(mods[j], w, n))
			return 1;
	return 0;
}

static int ref_in(const char *const *list, size_t nl, const char *w, size_t n)
{
	for (size_t j = 0; j < nl; j++)
		if (strlen(list[j]) == n && !memcmp(list[j], w, n))
			return 1;
	return 0;
}

static const char *const content_words[] = {"article", "body", "content", "entry", "main", "story"};
static const char *const reader_words[] = {"comment", "comments", "disqus"};
static const char *const prose_words[] = {"a", "an", "and", "for", "from", "how", "in", "is",
	"of", "on", "the", "to", "what", "why", "your", "has", "no", "with", "without"};

/* A part's kind: 1 chrome, 2 content words only, 4 reader comments, 0
 * if it is a heading made an id (the header's rule, written plainly). */
static int ref_part(const char *s, size_t n)
{
	if ((n > 9 && !memcmp(s, "category-", 9)) || (n > 4 && !memcmp(s, "tag-", 4)))
		return 0;
	int found = 0, nwords = 0, prose = 0;
	char prev[32], w[32];
	size_t pl = 0, i = 0;
	int skip = 0;
	while (i < n) {
		if (!isalnum((unsigned char)s[i])) {
			i++;
			continue;
		}
		size_t wl = 0;
		do {
			if (wl < sizeof w)
				w[wl] = (char)tolower((unsigned char)s[i]);
			wl++, i++;
		} while (i < n && isalnum((unsigned char)s[i]) &&
			 !(isupper((unsigned char)s[i]) && islower((unsigned char)s[i - 1])));
		nwords++;
		if (wl >= 24) { /* too long to be a word: not looked up, no pair */
			pl = 0;
			continue;
		}
		char pair[64];
		memcpy(pair, prev, pl);
		memcpy(pair + pl, w, wl);
		if (!skip && (ref_listed(w, wl) || (!ref_listed(w, wl) && ref_prefix(w, wl)) ||
			      (pl && ref_listed(pair, pl + wl))))
			found |= 1;
		prose |= ref_in(prose_words, 19, w, wl);
		if (!skip && ref_in(content_words, 6, w, wl))
			found |= 2;
		if (!skip && ref_in(reader_words, 3, w, wl))
			found |= 4;
		skip = ref_modifier(w, wl);
		memcpy(prev, w, wl);
		pl = wl;
	}
	return prose && nwords >= 4 ? 0 : found;
}

static int ref_is_chrome(const char *s, size_t n)
{
	size_t i = 0;
	int chrome = 0, content = 0;
	while (i < n) {
		while (i < n && strchr(" \t\n\r\f", s[i]) && s[i])
			i++;
		const size_t start = i;
		while (i < n && !(strchr(" \t\n\r\f", s[i]) && s[i]))
			i++;
		const int k = i > start ? ref_part(s + start, i - start) : 0;
		if (k & 4)
			return 1;
		chrome |= k & 1;
		content |= k == 2;
	}
	return chrome && !content;
}

/* Random values made of listed words in any case, modifiers, taxonomy
 * prefixes, camel humps, digits, separators and over-long words: the
 * splitter answers as the plain reference does. */
static void test_chrome_random(void)
{
	static const char *const bits[] = {
		"has", "no", "With", "without", "category-", "tag-", "-", "_", " ", "\t", ".",
		"9", "x", "Q", "top", "Bar", "side", "a", "Ds", "\xc3\xa9", "thisIsAVeryLongWordIndeed",
		"abcdefghijklmnopqrstuvw", "abcdefghijklmnopqrstuvwx", "article", "Body", "main",
		"content", "entry", "story", "comment", "disqus", "the", "a", "To", "of", "with",
		"Cookie", "consent", "gdpr",
	};
	const size_t nb = sizeof(bits) / sizeof(bits[0]);
	uint32_t r = 12345;
	int hits = 0;
	for (int t = 0; t < 200000; t++) {
		char v[256];
		size_t n = 0;
		const int parts = 1 + (int)(r % 6);
		for (int k = 0; k < parts; k++) {
			r = r * 1103515245u + 12345u;
			const uint32_t x = r >> 8;
			const char *b = x % 3 ? bits[x / 3 % nb] : words[x / 3 % NW];
			const size_t l = strlen(b);
			for (size_t j = 0; j < l && n < sizeof v; j++) {
				const int up = (x >> (j % 16 + 8)) & (x % 5 == 0);
				v[n++] = up ? (char)toupper((unsigned char)b[j]) : b[j];
			}
		}
		const int want = ref_is_chrome(v, n);
		hits += want;
		if ((html_class_is_chrome(v, n) != 0) != want) {
			CHECK(!"class value answered as the reference does");
			fprintf(stderr, "  value \"%.*s\": want %d\n", (int)n, v, want);
			return;
		}
	}
	CHECK(hits > 20000 && hits < 180000); /* both answers are tried */
}

/* Rows by their siblings (hblocks_mark_pointers()): a board index of five
 * rows, each a linked title, its summary and its counts under one element
 * (depth 8); the fourth title links under a fifth of its row's words, so
 * it is no entry on its own measure and cut the run of rows.  Beside it,
 * posts (no links) and a run whose rows are mostly no pointers stay. */
static struct hblock row_blk(uint32_t w10, uint32_t links10, uint16_t gap)
{
	struct hblock b;
	memset(&b, 0, sizeof(b));
	b.words10 = w10;
	b.link_words10 = links10;
	b.ns_bytes = w10;
	b.gap_depth = gap;
	return b;
}

static void test_rows_by_siblings(void)
{
	struct hblock b[16];
	size_t n = 0;
	b[n++] = row_blk(24, 0, 0); /* the list's heading */
	for (int r = 0; r < 5; r++) {
		b[n++] = row_blk(r == 3 ? 48 : 84, r == 3 ? 48 : 84, r ? 8 : 3);
		b[n++] = row_blk(r == 3 ? 168 : 120, 0, 10);
		b[n++] = row_blk(54, 0, 9);
	}
	hblocks_mark_pointers(b, n);
	CHECK(!(b[0].pointer & HB_PTR_ROW));
	for (size_t i = 1; i < n; i++)
		CHECK(b[i].pointer & HB_PTR_ROW);
	/* Rows of which only one in three points elsewhere: left as they are. */
	for (size_t i = 0; i < n; i++)
		b[i].link_words10 = (i % 3 == 1 && i < 4) ? b[i].words10 : 0;
	hblocks_mark_pointers(b, n);
	for (size_t i = 4; i < n; i++)
		CHECK(b[i].pointer == 0);
	/* Posts: a name, a text, no links. */
	for (size_t i = 0; i < n; i++)
		b[i].link_words10 = 0;
	hblocks_mark_pointers(b, n);
	for (size_t i = 0; i < n; i++)
		CHECK(b[i].pointer == 0);
}

int main(void)
{
	H = html_text_new();
	CHECK(H != NULL);
	if (!H)
		return test_finish("test_html_blocks");
	test_edges_any_template();
	test_boilerplate_still_dropped();
	test_classify_gaps();
	test_classify_random();
	test_chrome_word_list();
	test_chrome_random();
	test_rows_by_siblings();
	html_text_free(H);
	return test_finish("test_html_blocks");
}
