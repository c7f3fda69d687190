/*
 * test_html_text.c - main-content extraction, tokenizer and entities.
 *
 * What must hold for the product: page chrome is dropped; one article in
 * two site templates gives the same main text; two articles in one
 * template give different texts with no template strings; CJK text
 * counts as content.  Then the tokenizer's survival cases (malformed
 * markup, truncation at every offset, random bytes with a printed seed,
 * 100k-deep nesting) and a throughput figure.
 */
#include "html/html_blocks.h"
#include "html/html_classwords.h"
#include "html/html_entities.h"
#include "html/html_text.h"
#include "html/html_tokenizer.h"
#include "html/html_scan.h"
#include "testhtml.h"
#include "testutil.h"

#include <string.h>
#include <time.h>


/* Long sentences, so that a block between two of them counts as content. */
#define FILL1 "<p>This first filler paragraph is long enough to be judged content on its own, " \
	"with a full sentence and more than forty words in it, because the classifier looks at " \
	"length, link density and punctuation before anything else, and this text has all of that.</p>"
#define FILL2 "<p>The second filler paragraph closes the sandwich: it too carries enough words and " \
	"a sentence end, so the short block between the two fillers is taken as part of the " \
	"article by the context rule of the classifier, which is what these tests rely on.</p>"

/* The main text of @body placed between two content paragraphs. */
static const char *sandwich(const char *body)
{
	static char page[8192];
	snprintf(page, sizeof(page), "<html><body>" FILL1 "%s" FILL2 "</body></html>", body);
	return main_of(page);
}

/* ---- the product cases ---- */

#define ARTICLE_P1 "Researchers at the coastal institute measured how quickly the new seagrass beds " \
	"recovered after the storm season, and found that most plots were green again within eight months."
#define ARTICLE_P2 "The team planted fourteen hectares in 2021. Their survey counted fish, crabs and " \
	"birds each spring; by the third year the numbers had doubled compared with bare sand nearby."
#define ARTICLE_P3 "Funding for the next phase is not yet settled, the director said, but three " \
	"regional councils have offered to share the cost of monitoring for another five years."

static const char *const template_a =
	"<!DOCTYPE html><html><head><meta charset=utf-8><title>Seagrass | Coast News</title>"
	"<script>var ads = '<div>';</script><style>p{margin:0}</style></head><body>"
	"<header><a href=/>Coast News</a><form><input name=q></form></header>"
	"<nav><ul><li><a href=/world>World</a><li><a href=/science>Science</a><li><a href=/sport>Sport</a></ul></nav>"
	"<main><article><h1>Seagrass beds bounce back</h1>"
	"<p>" ARTICLE_P1 "</p><p>" ARTICLE_P2 "</p><p>" ARTICLE_P3 "</p>"
	"<div class=\"share-buttons\"><a href=#>Share on Facebook</a> <a href=#>Tweet this</a></div>"
	"</article></main>"
	"<aside><h3>Most read</h3><p>Ten ways to cook mussels that your grandmother never told you about, and why they work so well.</p></aside>"
	"<footer><p>Copyright &copy; 2024 Coast News Ltd. All rights reserved.</p>"
	"<a href=/privacy>Privacy</a> | <a href=/terms>Terms</a></footer></body></html>";

static const char *const template_b =
	"<html><head><title>Coast Daily - Seagrass</title></head><body>"
	"<form id=\"aspnetForm\" method=post action=\"./story.aspx\">"
	"<table width=100%><tr><td colspan=2 id=\"topBanner\"><img src=logo.gif> Coast Daily, "
	"your daily dose of the coast since 1998</td></tr>"
	"<tr><td class=\"leftMenu\"><a href=/>Home</a><br><a href=/news>News</a><br><a href=/contact>Contact us</a></td>"
	"<td class=\"storyCell\"><h1>Seagrass  beds bounce back</h1>\n"
	"<div>" ARTICLE_P1 "</div>\n"
	"<div>" ARTICLE_P2 "</div><div>\n  " ARTICLE_P3 "\n</div>"
	"<div id=\"comments\"><h4>3 comments</h4><p>Great news, I have seen the seagrass myself "
	"when diving there last summer and it looked really healthy.</p></div></td></tr>"
	"<tr><td colspan=2 class=footer>&copy; Coast Daily 1998-2024 | Advertise with us</td></tr></table>"
	"</form></body></html>";

static void test_same_article_two_templates(void)
{
	char a[4096];
	snprintf(a, sizeof(a), "%s", main_of(template_a));
	const char *const b = main_of(template_b);
	CHECK(!strcmp(a, b));
	CHECK(!strcmp(a, "Seagrass beds bounce back\n" ARTICLE_P1 "\n" ARTICLE_P2 "\n" ARTICLE_P3));
	if (strcmp(a, b))
		fprintf(stderr, "A:\n%s\nB:\n%s\n", a, b);
}

static void test_boilerplate_dropped(void)
{
	const char *const m = main_of(template_a);
	static const char *const chrome[] = {"Coast News", "World", "Science", "Most read", "mussels",
		"Copyright", "Privacy", "Share on", "Tweet", "var ads"};
	for (size_t i = 0; i < sizeof(chrome) / sizeof(chrome[0]); i++)
		CHECK(!contains(m, chrome[i]));
	CHECK(!strcmp(html_text_title(H, NULL), "Seagrass | Coast News"));
	const char *const m2 = main_of(template_b);
	static const char *const chrome2[] = {"Home", "Contact", "comments", "diving", "Advertise", "since 1998"};
	for (size_t i = 0; i < sizeof(chrome2) / sizeof(chrome2[0]); i++)
		CHECK(!contains(m2, chrome2[i]));
}

/* A shared template around different content. */
static const char *in_template(const char *title, const char *body, char *page, size_t cap)
{
	snprintf(page, cap,
		 "<html><head><title>%s</title></head><body>"
		 "<div id=\"masthead\"><a href=/>Garden Journal</a> The magazine for people with soil under their nails</div>"
		 "<div class=\"nav-bar\"><a href=/roses>Roses</a> <a href=/trees>Trees</a> <a href=/tools>Tools</a></div>"
		 "<div class=\"post\"><h2>%s</h2>%s</div>"
		 "<div class=\"sidebar-widget\"><p>Subscribe to our weekly letter and get a free pdf guide to "
		 "pruning fruit trees in winter, written by our editors.</p></div>"
		 "<div class=\"cookie-banner\">We use cookies to improve your experience. By using this site you agree.</div>"
		 "<p class=\"footer-note\">All content copyright Garden Journal 2009-2024. Reproduction prohibited.</p>"
		 "</body></html>", title, title, body);
	return page;
}

static void test_two_articles_one_template(void)
{
	static char p1[4096], p2[4096], m1[4096];
	in_template("Tomatoes", "<p>Tomatoes want warmth, sun and a steady supply of water. Plant them "
		    "out after the last frost, pinch out side shoots every week, and feed them once the first "
		    "trusses have set.</p><p>Blight is the great enemy in wet summers.</p>", p1, sizeof(p1));
	in_template("Compost", "<p>A good compost heap is a balance of green and brown material. Turn it "
		    "every few weeks to let air in, keep it as damp as a wrung-out sponge, and it will be "
		    "ready in six months.</p>", p2, sizeof(p2));
	snprintf(m1, sizeof(m1), "%s", main_of(p1));
	const char *const m2 = main_of(p2);
	CHECK(strcmp(m1, m2) != 0);
	CHECK(contains(m1, "Tomatoes want warmth") && contains(m2, "A good compost heap"));
	static const char *const tpl[] = {"Garden Journal", "soil under", "Roses", "Subscribe", "cookies",
		"Reproduction"};
	for (size_t i = 0; i < sizeof(tpl) / sizeof(tpl[0]); i++)
		CHECK(!contains(m1, tpl[i]) && !contains(m2, tpl[i]));
}

static void test_cjk(void)
{
	const char *const page =
		"<html><head><title>新闻</title></head><body>"
		"<div class=\"menu\"><a href=/>首页</a><a href=/a>国内</a><a href=/b>国际</a><a href=/c>体育</a></div>"
		"<div class=\"article\"><p>据报道，今年春季我国北方地区降水明显偏多，农业部门表示，"
		"充足的降水有利于冬小麦返青和春播作物出苗，各地正在抓紧时间开展春耕生产，确保粮食稳产增产。</p></div>"
		"<div>关于我们 | 联系方式</div></body></html>";
	const char *const m = main_of(page);
	CHECK(!strcmp(m, "据报道，今年春季我国北方地区降水明显偏多，农业部门表示，"
			 "充足的降水有利于冬小麦返青和春播作物出苗，各地正在抓紧时间开展春耕生产，确保粮食稳产增产。"));
	CHECK(!strcmp(html_text_title(H, NULL), "新闻"));
	/* Japanese, no spaces either. */
	CHECK(contains(main_of("<p>東京都は今日、来年度の予算案を発表しました。教育と子育て支援の予算が大きく増え、"
			       "都内の保育所の数を三年間で二割増やす計画です。</p>"), "東京都は今日"));
}

static void test_link_density_and_main(void)
{
	/* A long list of links outside nav is still boilerplate. */
	const char *m = main_of(FILL1 "<div><a href=1>Cheap flights to Paris and Rome this summer</a> "
				"<a href=2>Hotels near the beach with free parking for families</a> "
				"<a href=3>Car rental deals for weekend trips in the mountains</a></div>" FILL2);
	CHECK(!contains(m, "Cheap flights"));
	CHECK(contains(m, "first filler") && contains(m, "second filler"));
	/* When <main> (or role=main) has content, text outside it does not count. */
	m = main_of("<div>" FILL1 "</div><div role=\"main\">" FILL2 "</div>");
	CHECK(!contains(m, "first filler") && contains(m, "second filler"));
	/* A short block between content blocks is kept; at the edge only
	 * inside the element that holds them (test_html_blocks.c). */
	m = main_of("<p>Lonely line at the top.</p><div>" FILL1 "<p>Short middle.</p>" FILL2 "</div>");
	CHECK(contains(m, "\nShort middle.\n") && !contains(m, "Lonely"));
	/* A page with no text has an empty main text; one with only a link
	 * keeps it, as the fallback it is (test_main_fallback). */
	CHECK(!strcmp(main_of("<html><body><nav><a href=/>Home</a></nav></body></html>"), ""));
	CHECK(!strcmp(main_of("<html><body><a href=/>Home</a></body></html>"), "Home"));
	CHECK(html_text_fallback(H));
	CHECK(!strcmp(main_of(""), ""));
}

/* The rules the real-page quality set (tests/data/maintext) asked for. */
static void test_block_rules(void)
{
	/* Next to removed chrome is the edge of the content, not its middle. */
	const char *m = main_of(FILL1 "<p>Posted in news.</p><aside>Related</aside>" FILL2);
	CHECK(!contains(m, "Posted in"));
	/* A lone link line between text is text; three in a row are a list. */
	m = main_of(FILL1 "<p><a href=/t>GTimer</a></p><p>a <a href=/t>GTimer</a></p>" FILL2);
	CHECK(contains(m, "\nGTimer\na GTimer\n"));
	m = main_of(FILL1 "<p><a href=1>One</a></p><p><a href=2>Two</a></p><p><a href=3>Three</a></p>" FILL2);
	CHECK(!contains(m, "One") && !contains(m, "Two") && !contains(m, "Three"));
	/* Link density counts words: two linked identifiers do not make a link list. */
	m = main_of(FILL1 "<p>To create a chunk, call <a href=/n>g_string_chunk_new_with_a_long_name()</a> "
		    "and free it with <a href=/f>g_string_chunk_free_with_a_long_name()</a>.</p>" FILL2);
	CHECK(contains(m, "To create a chunk"));
	/* <a> without href is an anchor, not a link. */
	m = main_of(FILL1 "<p><a name=here>Anchored words that are no link at all</a></p>" FILL2);
	CHECK(contains(m, "Anchored words"));
	/* Declared main content is trusted: short cells and captions in it are
	 * content; a link list in it is not. */
	m = main_of("<nav><a href=/>Home</a></nav><main><h1>Title</h1>" FILL1
		    "<table><tr><td>nested_scopes</td><td>2.1.0b1</td></tr></table>"
		    "<ul><li><a href=1>aa</a><li><a href=2>bb</a><li><a href=3>cc</a></ul>" FILL2 "</main>");
	CHECK(contains(m, "Title\n") && contains(m, "\nnested_scopes\n2.1.0b1\n"));
	CHECK(!contains(m, "aa") && !contains(m, "Home"));
	/* In code, class words describe the code. */
	m = main_of("<main>" FILL1 "<pre><span class=\"comment\"># File timings.rb</span>\ndef x</pre></main>");
	CHECK(contains(m, "# File timings.rb def x"));
	/* ...and so do roles: a role in code or on the page's own elements
	 * marks nothing as navigation */
	m = main_of("<main>" FILL1 "<pre><span role=\"navigation\">menu_items = load()</span>\ndef x</pre></main>");
	CHECK(contains(m, "menu_items = load() def x"));
	m = main_of("<body role=\"banner\"><article>" FILL1 "</article></body>");
	CHECK(contains(m, "first filler paragraph"));
	/* A start tag that ends <head> by implicit close opens outside it:
	 * its class words count */
	m = main_of("<head><title>T</title><div class=sidebar><p>The sidebar of this page runs to "
		    "a paragraph of its own, long enough to be judged content if its class words "
		    "were not read: one two three four five six seven eight nine ten eleven twelve "
		    "thirteen fourteen.</p></div>" FILL1 FILL2);
	CHECK(contains(m, "first filler") && !contains(m, "The sidebar"));
	/* ...and so do those of a cell that ends a nav by closing its sibling */
	m = main_of(FILL1 "<table><tr><td><nav><a href=/>Home</a><td class=sidebar>The sidebar "
		    "cell of this page runs to a paragraph of its own, long enough to be judged content "
		    "if its class words were not read: one two three four five six seven eight nine ten "
		    "eleven twelve.</td></tr></table>" FILL2);
	CHECK(contains(m, "first filler") && !contains(m, "The sidebar"));
	/* ...but role=main in code still declares the main content */
	m = main_of("<div>" FILL1 "</div><code><span class=sidebar role=main>The declared part "
		    "of this page is a long run of code words: alpha beta gamma delta epsilon zeta eta "
		    "theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi "
		    "omega, and some more words after them.</span></code>");
	CHECK(contains(m, "The declared part") && !contains(m, "first filler"));
	/* No prose at all (an API reference): all its text but the chrome is
	 * kept, and the extractor says it fell back... */
	m = main_of("<nav><a href=/>Home</a> <a href=/c>Classes</a></nav><div class=x>"
		    "<p>Represents XML DTDs.</p><p>Dtd (_xmlDtd* dtd)</p><p>const _xmlDtd* cobj ()</p>"
		    "<p>Access the underlying libxml implementation.</p><p>Glib::ustring get_name () const</p>"
		    "</div><footer>Generated by a tool</footer>");
	CHECK(contains(m, "Represents XML DTDs.\n") && contains(m, "get_name () const"));
	CHECK(!contains(m, "Home") && !contains(m, "Generated"));
	CHECK(html_text_fallback(H));
	/* ...so is a page of a few words, and an index whose content is links
	 * (not one leftover line of it, the same on every page of a site)... */
	CHECK(!strcmp(main_of("<nav><a href=/>Home</a></nav><p>Page not found.</p>"), "Page not found."));
	CHECK(html_text_fallback(H));
	CHECK(!strcmp(main_of("<h1>Index</h1><ul><li><a href=/a>alpha</a></li><li><a href=/b>beta</a></li>"
			      "</ul><p>Copyright 2024 Example</p>"), "Index\nalpha\nbeta"));
	/* ...but not a page with prose. */
	main_of(FILL1);
	CHECK(!html_text_fallback(H));
}

static void test_soft_fallback(void)
{
	/* Everything inside a class that looks like chrome: better than nothing. */
	const char *const m = main_of("<body><div class=\"page-wrapper sidebar-layout\">" FILL1 "</div></body>");
	CHECK(contains(m, "first filler"));
	/* ...but only when nothing else is content. */
	CHECK(!contains(main_of(FILL2 "<div class=\"sidebar\">" FILL1 "</div>"), "first filler"));
}

/* A short page: its title and line in <article> are its content, not
 * the longer cookie or newsletter box outside it that the soft tier would
 * let back in. */
static void test_soft_against_main(void)
{
	const char *const page =
		"<body><div class=\"cookie-banner\"><p>We use cookies to improve your experience on our "
		"website. By continuing to browse you agree to our use of cookies. Read our cookie policy "
		"to find out more.</p></div><main><article><h1>Our Officer Plans Two Fields</h1>"
		"<p>In 1953, several museums welcomed the culture.</p></article></main></body>";
	const char *m = main_of(page);
	CHECK(contains(m, "Our Officer Plans") && contains(m, "several museums"));
	CHECK(!contains(m, "cookie"));
	CHECK(html_text_fallback(H));
	/* No declared main content: a box named for a place (a sidebar) is
	 * still better than nothing... */
	m = main_of("<body><div class=\"sidebar\"><p>We moved the office to the old mill on the river "
		    "last spring, and the new workshop opens to visitors every Saturday.</p></div></body>");
	CHECK(contains(m, "old mill"));
	/* ...but a cookie banner is never a page's content: nothing is. */
	m = main_of("<body><div class=\"cookie-banner\"><p>We use cookies to improve your experience on "
		    "our website. By continuing to browse you agree to our use of cookies. Read our "
		    "cookie policy to find out more.</p></div></body>");
	CHECK(!contains(m, "cookie policy"));
}

/* A thread's short post beside a "similar threads" table whose rows are
 * cut into cells (a linked title, its author, replies, date): the rows
 * are entries pointing elsewhere, left out of the fallback; the cookie
 * banner is not let in. */
static void test_pointer_rows(void)
{
	const char *const page =
		"<body><div class=\"cookie\"><p>We use cookies to improve your experience on our website. "
		"By continuing to browse you agree to our use of cookies.</p></div>"
		"<h2>Printer offline after update</h2><div class=\"post\"><div class=\"who\">anna_77</div>"
		"<blockquote>Mine went offline too; reinstalling the driver fixed it.</blockquote></div>"
		"<div id=\"similar\"><h3>Similar threads</h3><table>"
		"<tr><td><a href=\"/t/1\">Scanner not found</a></td><td>by bob</td><td>12 replies</td><td>2 May</td></tr>"
		"<tr><td><a href=\"/t/2\">Paper jam in tray two</a></td><td>by cy</td><td>3 replies</td><td>9 May</td></tr>"
		"<tr><td><a href=\"/t/3\">Wifi drops at night</a></td><td>by dee</td><td>40 replies</td><td>1 Jun</td></tr>"
		"</table></div></body>";
	const char *m = main_of(page);
	CHECK(contains(m, "reinstalling the driver") && contains(m, "Printer offline"));
	CHECK(!contains(m, "replies") && !contains(m, "by bob") && !contains(m, "cookies"));
	CHECK(html_text_fallback(H));
	int cells = 0;
	for (size_t i = 0; i < html_text_n_blocks(H); i++) {
		const struct html_text_block b = html_text_block_at(H, i);
		if (b.len && (!memcmp(b.text, "by ", 3) || !memcmp(b.text, "Scanner", 7)))
			cells += (b.flags & HTB_POINTER) != 0 ? 1 : 100;
	}
	CHECK(cells == 4); /* each row's title and author cells */
}

/* Rows inside <main> (issue 15, second round): a "recent topics" list
 * above a thread's posts, outside the element holding them, is not the
 * thread; a wiki's list of linked names inside the article's body stays;
 * an index in <main> beats an unnamed newsletter box beside it; a
 * compound consent class ("cmplz-cookiebanner") is never content. */
static void test_rows_in_main(void)
{
	const char *m = main_of(
		"<body><main><div class=\"topics\"><h3>Recent topics</h3><ul>"
		"<li><a href=\"/t/1\">Scanner not found after the update</a> by bob, 12 replies, 2 May</li>"
		"<li><a href=\"/t/2\">Paper jam in tray two again</a> by cy, 3 replies, 9 May</li>"
		"<li><a href=\"/t/3\">Wifi drops at night on the laptop</a> by dee, 40 replies, 1 Jun</li>"
		"</ul></div><div class=\"stream\"><h2>Printer offline</h2><article><div>anna_77</div>"
		"<div class=\"text\">Mine went offline too; reinstalling the driver fixed it.</div></article>"
		"<article><div>ben</div><div class=\"text\">Same here, thanks for the tip.</div></article>"
		"</div></main></body>");
	CHECK(contains(m, "reinstalling the driver") && contains(m, "thanks for the tip"));
	CHECK(!contains(m, "Scanner") && !contains(m, "replies"));
	m = main_of("<body><main><article>" FILL1
		    "<ul><li><a href=\"/w/1\">Auckland</a> is the largest city of the country by far</li>"
		    "<li><a href=\"/w/2\">Wellington</a> is the capital and lies at the southern tip</li>"
		    "<li><a href=\"/w/3\">Christchurch</a> is the largest city of the South Island</li></ul>"
		    FILL2 "</article></main></body>");
	CHECK(contains(m, "Auckland is the largest") && contains(m, "Christchurch"));
	m = main_of("<body><main><h1>World 4</h1><ul>"
		    "<li><a href=\"/a/1\">The council approves the new harbour budget</a></li>"
		    "<li><a href=\"/a/2\">Rail strike ends after three weeks of talks</a></li>"
		    "<li><a href=\"/a/3\">A quiet winter for the northern ski resorts</a></li></ul></main>"
		    "<div class=\"x1\"><p>Sign up for our morning briefing and get the news of the day in "
		    "your inbox before breakfast.</p></div></body>");
	CHECK(contains(m, "Rail strike ends") && !contains(m, "briefing"));
	m = main_of("<body><div class=\"cmplz-cookiebanner\"><p>We use cookies to give you the best "
		    "experience on our website, and by staying you agree to it.</p></div>"
		    "<div><h1>Contact</h1><p>Call us.</p></div></body>");
	CHECK(!contains(m, "cookies"));
}

/* Reader comments in <article> after the article (a heading, then posts
 * of a name and a date line before their text) are not content; a
 * thread of such posts with no article before them is. */
static void test_comments_in_article(void)
{
#define COMMENTS "<h2>Comments (2)</h2><ol><li><div>jo.smith</div><time>May 2, 2021</time>" \
	"<p>I disagree with the second half of this, the figures do not add up at all.</p><a href=#>Reply</a></li>" \
	"<li><div>mark_77</div><time>May 3, 2021</time><p>Thanks for writing this, it helped me a lot " \
	"with my own project.</p><a href=#>Reply</a></li></ol>"
	const char *m = main_of("<body><article><h1>Harbour budget approved</h1>" FILL1 FILL2 FILL1
				COMMENTS "</article></body>");
	CHECK(contains(m, "Harbour budget") && contains(m, "closes the sandwich"));
	CHECK(!contains(m, "jo.smith") && !contains(m, "I disagree") && !contains(m, "Comments (2)"));
	m = main_of("<body><article><h1>Printer offline</h1>" COMMENTS "</article></body>");
	CHECK(contains(m, "I disagree") && contains(m, "Thanks for writing"));
#undef COMMENTS
}

/* A link that goes nowhere (href="#") is a control a script answers: its
 * label is not text.  One that goes to a place on the page, and a
 * javascript: link (readability keeps its text: it may wrap content),
 * are not controls. */
static void test_control_links(void)
{
	const char *m = sandwich("<p>jo.smith</p><a href=\"#\">Reply</a> <a href=\" # \">Quote</a>");
	CHECK(contains(m, "closes the sandwich") && contains(m, "jo.smith"));
	CHECK(!contains(m, "Reply") && !contains(m, "Quote"));
	m = sandwich("<a href=\"#part-two\">Part two</a>");
	CHECK(contains(m, "Part two"));
	m = sandwich("<a href=\"javascript:void(0)\">Show the table of tides</a>");
	CHECK(contains(m, "Show the table of tides"));
	/* in a heading, "#" is the title's link to itself: its name */
	m = main_of("<body><h1>Function core::arch::<a class=\"fn\" href=\"#\">vzip1_s8</a></h1>"
		    "<p>Zip vectors, the first halves of each, into one vector of the same type.</p></body>");
	CHECK(contains(m, "vzip1_s8"));
}

/* Links inside preformatted text (a signature's linked types) are the
 * author's text, not pointers to other pages: the block is no pointer
 * and stays content. */
static void test_links_in_pre(void)
{
	const char *const page =
		"<body><h1>Function vzip1_s8</h1><pre class=\"rust fn\">pub unsafe fn vzip1_s8(a: "
		"<a href=\"t.html\">int8x8_t</a>, b: <a href=\"t.html\">int8x8_t</a>) -&gt; "
		"<a href=\"t.html\">int8x8_t</a></pre><p>Zip vectors.</p></body>";
	CHECK(html_text_extract(H, page, strlen(page)) == 0);
	int seen = 0;
	for (size_t i = 0; i < html_text_n_blocks(H); i++) {
		const struct html_text_block b = html_text_block_at(H, i);
		if (b.len > 7 && !memcmp(b.text, "pub uns", 7)) {
			CHECK(!(b.flags & HTB_POINTER));
			seen = 1;
		}
	}
	CHECK(seen);
	CHECK(contains(html_text_main(H, NULL), "pub unsafe fn vzip1_s8"));
}

/* A row that points to another page (a linked title and its metadata) is
 * flagged; an entry of a list of links and a paragraph with a link are not. */
static void test_pointer_blocks(void)
{
	const char *const page =
		"<body><ul><li><a href=\"/t/1\">Printer offline again</a> by anna, 12 replies</li>"
		"<li><a href=\"/t/2\">Best budget laptop for students</a></li></ul>"
		"<p>The new model, says <a href=\"/r\">the review</a>, is quieter than the old one and "
		"costs less, though its battery lasts only a few hours.</p></body>";
	CHECK(html_text_extract(H, page, strlen(page)) == 0);
	int seen = 0;
	for (size_t i = 0; i < html_text_n_blocks(H); i++) {
		const struct html_text_block b = html_text_block_at(H, i);
		if (!b.len)
			continue;
		const int pointer = (b.flags & HTB_POINTER) != 0;
		if (!memcmp(b.text, "Printer", 7)) {
			CHECK(pointer);
			seen |= 1;
		} else if (!memcmp(b.text, "Best", 4)) {
			CHECK(!pointer);
			seen |= 2;
		} else if (!memcmp(b.text, "The new", 7)) {
			CHECK(!pointer);
			seen |= 4;
		}
	}
	CHECK(seen == 7);
}

static void test_chrome_words(void)
{
	static const struct {
		const char *v;
		int want;
	} cases[] = {
		{"top-ad", 1}, {"ad_slot", 1}, {"ads", 1}, {"adSlot", 1}, {"main-nav", 1}, {"mainNav", 1},
		{"article-header", 1}, {"comments", 1}, {"post cookie-notice", 2}, {"breadcrumbs", 1},
		{"add-to-cart", 0}, {"shadow", 0}, {"header2", 0}, {"loading", 0}, {"has-sidebar", 0},
		{"with-ads content", 0}, {"category-social", 0}, {"", 0}, {"   ", 0}, {"navigational", 0},
		{"entry-content", 0}, {"iPad", 0}, {"x-ad-", 1},
		/* One of each kind the issue names: navigation, menus, sidebars,
		 * footers, ads, comments, share buttons, cookie banners. */
		{"site-navigation", 1}, {"dropdown-menu", 1}, {"sidebarLeft", 1}, {"page_footer", 1},
		{"advert-box", 2}, {"comment-list", 1}, {"share-buttons", 1}, {"cookie-consent", 2},
		/* Never content (2), whatever else the page has; a place or a
		 * word that may wrap an article (a paywall's "subscription") 1. */
		{"newsletter-signup", 2}, {"gdpr", 2}, {"taboola-feed", 2}, {"subscription-wall", 1},
		{"modal-open", 1}, {"sidebar", 1},
		{"menuitem", 0}, {"footnote", 0}, {"shared-library", 0},
		/* A layout's name for the content's container beside a chrome
		 * word; not for reader comments, nor in one part with chrome. */
		{"l-sidebar-fixed l-segment l-article-body-segment", 0}, {"sidebar main", 0},
		{"comments entry-content", 1}, {"sidebar comment-body", 1}, {"main-nav content-nav", 1},
		/* A heading made an id names a section, not chrome. */
		{"sharing-with-a-single-developer", 0}, {"how-to-share-a-file", 0},
		{"share-a-file", 1}, {"the-sidebar", 1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const int got = html_class_is_chrome(cases[i].v, strlen(cases[i].v));
		CHECK(got == cases[i].want);
		if (got != cases[i].want)
			fprintf(stderr, "  chrome word '%s': got %d\n", cases[i].v, got);
	}
}

/* ---- entities ---- */

static void test_entities(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"},
		{"&copy;", "\xC2\xA9"}, {"&mdash;", "\xE2\x80\x94"}, {"&hellip;", "\xE2\x80\xA6"},
		{"&eacute;", "\xC3\xA9"}, {"&Eacute;", "\xC3\x89"}, {"&yuml;", "\xC3\xBF"},
		{"&euro;", "\xE2\x82\xAC"}, {"&rsquo;", "\xE2\x80\x99"}, {"&#123;", "{"},
		{"&#x1F600;", "\xF0\x9F\x98\x80"}, {"&#X41;", "A"}, {"&#0;", "\xEF\xBF\xBD"},
		{"&#xD800;", "\xEF\xBF\xBD"}, {"&#x110000;", "\xEF\xBF\xBD"},
		{"&#99999999999999999999;", "\xEF\xBF\xBD"}, {"&#150;", "\xE2\x80\x93"},
		{"&copy2024", "\xC2\xA9"}, {"&amp", "&"}, {"&notit;", "\xC2\xAC"}, {"&#65", "A"},
		/* the whole WHATWG list, not only HTML 4's */
		{"&bigstar;", "\xE2\x98\x85"}, {"&NonBreakingSpace;", "\xC2\xA0"},
		{"&Amacr;", "\xC4\x80"}, {"&CounterClockwiseContourIntegral;", "\xE2\x88\xB3"},
		{"&Afr;", "\xF0\x9D\x94\x84"}, {"&nGt;", "\xE2\x89\xAB\xE2\x83\x92"},
		{"&NotEqualTilde;", "\xE2\x89\x82\xCC\xB8"}, {"&fjlig;", "fj"},
		/* the longest match: "notin;" needs its ';', "not" does not */
		{"&notin;", "\xE2\x88\x89"}, {"&notin", "\xC2\xAC"}, {"&not", "\xC2\xAC"},
		{"&ampx", "&"}, {"&lt3", "<"},
		/* numeric: windows-1252 for 0x80..0x9F but its holes, no ';', big numbers */
		{"&#x80;", "\xE2\x82\xAC"}, {"&#x81;", "\xC2\x81"}, {"&#x9F;", "\xC5\xB8"},
		{"&#xDFFF;", "\xEF\xBF\xBD"}, {"&#x10FFFF;", "\xF4\x8F\xBF\xBF"},
		{"&#x0000000041;", "A"}, {"&#13;", "\r"}, {"&#x41g", "A"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[HTML_ENTITY_MAX_UTF8];
		size_t olen;
		const size_t used = html_entity_decode(cases[i].in, strlen(cases[i].in), out, &olen);
		CHECK(used > 0 && olen == strlen(cases[i].out) && !memcmp(out, cases[i].out, olen));
	}
	/* Not references: '&' stays text. */
	static const char *const nots[] = {"&", "&;", "&#;", "&#x;", "&unknownentity;", "& amp;", "&#xZ",
					   "&bigstar", "&Amacr", "&am;", "&NonBreakingSpace", "&nbs"};
	for (size_t i = 0; i < sizeof(nots) / sizeof(nots[0]); i++) {
		char out[HTML_ENTITY_MAX_UTF8];
		size_t olen;
		CHECK(html_entity_decode(nots[i], strlen(nots[i]), out, &olen) == 0);
	}
	/* In an attribute value a name without ';' before a letter, digit or
	 * '=' stays text; elsewhere it is decoded as in text. */
	static const struct {
		const char *in;
		size_t used; /* 0: not a reference there */
	} attr[] = {{"&not=2", 0}, {"&notx", 0}, {"&not9", 0}, {"&not;", 5}, {"&not x", 4},
		    {"&not", 4}, {"&amp=", 0}, {"&amp;=", 5}, {"&copy.", 5}, {"&#65=", 4}};
	for (size_t i = 0; i < sizeof(attr) / sizeof(attr[0]); i++) {
		char out[HTML_ENTITY_MAX_UTF8];
		size_t olen;
		CHECK(html_entity_decode_in(attr[i].in, strlen(attr[i].in), 1, out, &olen) == attr[i].used);
		CHECK(html_entity_decode_in(attr[i].in, strlen(attr[i].in), 0, out, &olen) > 0);
	}
	/* In page text, with &nbsp; read as a space. */
	CHECK(contains(sandwich("<p>Fish&nbsp;&amp;&nbsp;chips &lt;b&gt; caf&eacute; &unknown; AT&T</p>"),
		       "\nFish & chips <b> caf\xC3\xA9 &unknown; AT&T\n"));
}

/* ---- malformed markup ---- */

static void test_malformed(void)
{
	CHECK(contains(sandwich("<p>if a < b and c<3 then 3 <= 4</p>"), "\nif a < b and c<3 then 3 <= 4\n"));
	CHECK(contains(sandwich("<p>before<!-- hidden <p>comment</p> -->after</p>"), "\nbeforeafter\n"));
	CHECK(contains(sandwich("<p>x<![CDATA[ cdata ]]>y<?php echo 1 ?>z</p>"), "\nxyz\n"));
	CHECK(contains(sandwich("<p title=\"a > b\" data-x='>'>quoted gt</p>"), "\nquoted gt\n"));
	CHECK(contains(sandwich("<p><a href=\"/x?a>b\" title='1 > 0'>link</a> text after a quoted gt, "
				"in a sentence long enough.</p>"), "\nlink text after a quoted gt"));
	/* CDATA sections are for svg and math: in HTML, "<![CDATA[" opens a
	 * bogus comment, which ends at the first '>'. */
	CHECK(contains(sandwich("<p>c<![CDATA[ a > b ]] ]>]]>d</p>"), "\nc b ]] ]>]]>d\n"));
	CHECK(contains(sandwich("<p>x<![CDATA[ a <b>y</b> ]]>z</p>"), "\nxy ]]>z\n"));
	/* A comment ends at "--!>" too; "--!" alone does not end it. */
	CHECK(contains(sandwich("<p>k<!-- a --!>l<!-- b --!x -->m<!-- c ---!>n</p>"), "\nklmn\n"));
	/* Script data escapes: in "<!--", a "<script>" makes its "</script>" text. */
	CHECK(contains(sandwich("<p>o</p><script><!--document.write(\"<script>x</script>\");//--></script>"
				"<p>after escaped script</p>"), "\no\nafter escaped script\n"));
	CHECK(contains(sandwich("<p>o</p><script><!-- a </script><p>p</p>"), "\no\np\n"));
	CHECK(contains(sandwich("<p>o</p><script><!-- <script> --> </script><p>q</p>"), "\no\nq\n"));
	CHECK(contains(sandwich("<p>o</p><script><!-- <SCRIPT x> </script> </ScRiPt ><p>r</p>"), "\no\nr\n"));
	/* "<!-->" and "<!--->" are empty comments (WHATWG abrupt closing). */
	CHECK(contains(sandwich("<p>e<!---->f<!-- a -- b -->g<!--->h-->i<!-->j</p>"), "\nefgh-->ij\n"));
	CHECK(contains(sandwich("<!doctype html><P CLASS=x>Upper Case Tags</P>"), "\nUpper Case Tags\n"));
	CHECK(contains(sandwich("<p>stray</> end tag </ 3> and </br>break</p>"), "\nstray end tag and\nbreak\n"));
	CHECK(contains(sandwich("<ul><li>one<li>two</ul>"), "\none\ntwo\n"));
	CHECK(contains(sandwich("<p>para one<p>para two"), "\npara one\npara two\n"));
	CHECK(contains(sandwich("<p>img<img src=x alt=y>gone<br>next<input value=z>line</p>"), "\nimggone\nnextline\n"));
	CHECK(contains(sandwich("<script>document.write('</p><p>')</script><p>after script</p>"), "\nafter script\n"));
	CHECK(contains(sandwich("<p>svg<svg><title>no</title><text>drawn</text><path/></svg>after</p>"), "\nsvgafter\n"));
	/* Unmatched end tags pop nothing: the sidebar stays dropped, main stays main. */
	const char *m = main_of("<div class=\"sidebar\"><p>Sidebar words</span></em></table> still sidebar.</p></div>"
				"<main>" FILL1 "</aside></nav></section><p>Still in main.</p>" FILL2 "</main>");
	CHECK(!contains(m, "Sidebar") && !contains(m, "still sidebar") && contains(m, "\nStill in main.\n"));
	/* An unterminated comment or script swallows the rest, without harm. */
	m = main_of(FILL1 FILL2 "<!-- open comment <p>never seen</p>");
	CHECK(contains(m, "second filler") && !contains(m, "never seen"));
	m = main_of(FILL1 FILL2 "<![CDATA[ open cdata, never seen");
	CHECK(contains(m, "second filler") && !contains(m, "never seen"));
	m = main_of(FILL1 FILL2 "<script>if (a<b) { x = '</scr' + 'ipt>'; ");
	CHECK(contains(m, "second filler") && !contains(m, "if (a"));
	/* A tag cut by EOF is dropped. */
	CHECK(contains(main_of(FILL1 FILL2 "<a href=\"unterminated"), "second filler"));
	/* Title: first one, collapsed; none in svg. */
	main_of("<svg><title>icon</title></svg><title>\n  A  &amp;\tB </title><title>second</title>");
	CHECK(!strcmp(html_text_title(H, NULL), "A & B"));
	main_of("<p>no title here</p>");
	CHECK(!strcmp(html_text_title(H, NULL), ""));
}

/* ---- survival ---- */

static const char small_page[] =
	"<!DOCTYPE html><html><head><title>T &amp; t</title><script>a<b</script></head><body>"
	"<nav><a href=/>Home</a></nav><main><h1>Head&mdash;line</h1><p class=\"x\" id='y'>First "
	"paragraph, with <b>bold</b> and &#x41; and &copy. It goes on for a while to be content.</p>"
	"<!-- c --><ul><li>a<li>b</ul><table><tr><td>1<td>2</table></main><footer>f</footer></body></html>";

static void test_truncation(void)
{
	int bad = 0;
	for (size_t n = 0; n <= sizeof(small_page) - 1; n++) {
		char *const copy = malloc(n ? n : 1); /* exact size: ASan sees any overread */
		memcpy(copy, small_page, n);
		size_t ml, tl;
		if (html_text_extract(H, copy, n) != 0)
			bad++;
		const char *const m = html_text_main(H, &ml), *const t = html_text_title(H, &tl);
		if (strlen(m) != ml || strlen(t) != tl)
			bad++;
		free(copy);
	}
	CHECK(bad == 0);
}

/* A page of up to @cap bytes made of random @pieces and, if @noise, of
 * random single bytes (one in four) between them; its length. */
static size_t random_page(uint64_t *st, const char *const *pieces, size_t np, char *buf,
			  size_t cap, int noise)
{
	size_t n = 0;
	const size_t target = test_rand(st) % cap;
	while (n < target) {
		const uint64_t r = test_rand(st);
		if (noise && r % 4 == 0) {
			buf[n++] = (char)(r >> 8);
			continue;
		}
		const char *const p = pieces[(r >> 8) % np];
		const size_t l = strlen(p);
		if (n + l > target)
			break;
		memcpy(buf + n, p, l);
		n += l;
	}
	return n;
}

static void test_random(void)
{
	static const char *const pieces[] = {"<", ">", "</", "/>", "&", ";", "#", "x", "\"", "'", "=", " ",
		"<!--", "-->", "<!", "<?", "]]>", "<![CDATA[", "<p>", "</p>", "<div class=nav>", "</div>",
		"<script>", "</script>", "<a href=x>", "</a>", "<svg>", "<title>", "&amp", "&#x", "&#",
		"<main>", "<br/>", "text ", "\xE4\xB8\xAD", "\xC2\xA0", "\xFF", "<li>", "<td>", "<head>",
		"<body>", "<plaintext>", "<form>", "</form>", "<nav>", "</nav>", "<h1>", "</h1>"};
	const size_t np = sizeof(pieces) / sizeof(pieces[0]);
	uint64_t st = test_seed(7);
	char buf[4096];
	int bad = 0;
	for (int it = 0; it < 4000; it++) {
		const size_t n = random_page(&st, pieces, np, buf, sizeof(buf), 1);
		char *const copy = malloc(n ? n : 1);
		memcpy(copy, buf, n);
		size_t ml;
		if (html_text_extract(H, copy, n) != 0 || strlen(html_text_main(H, &ml)) != ml)
			bad++;
		free(copy);
	}
	CHECK(bad == 0);
}

/*
 * The vector paths: tag names of every length and case, each at every
 * distance from the end of an exact-size buffer (16-byte loads give way
 * to byte loops there; ASan runs see any overread); near misses of the
 * perfect hash are unknown elements.
 */
static void test_tag_names(void)
{
	static const struct {
		const char *name;
		enum htag tag;
	} cases[] = {{"a", HTAG_A}, {"B", HTAG_B}, {"dIv", HTAG_DIV}, {"H6", HTAG_H6},
		     {"TABLE", HTAG_TABLE}, {"article", HTAG_ARTICLE}, {"FrameSet", HTAG_FRAMESET},
		     {"plaintext", HTAG_PLAINTEXT}, {"BLOCKQUOTE", HTAG_BLOCKQUOTE},
		     {"figcaptioN", HTAG_FIGCAPTION}, {"blockquotes", HTAG_UNKNOWN},
		     {"blockquotf", HTAG_UNKNOWN}, {"divx", HTAG_UNKNOWN}, {"h7", HTAG_UNKNOWN},
		     {"x-y", HTAG_UNKNOWN}, {"di", HTAG_UNKNOWN}, {"tablex", HTAG_UNKNOWN},
		     {"abcdefghijklmnopq", HTAG_UNKNOWN}, {"d\x01v", HTAG_UNKNOWN}};
	int bad = 0;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		for (size_t tail = 0; tail < 24; tail++) {
			char tmp[64];
			const int n = snprintf(tmp, sizeof(tmp), "<%s class='c' id=x>%.*s", cases[k].name,
					       (int)tail, "text after the tag, long");
			char *const page = malloc((size_t)n);
			memcpy(page, tmp, (size_t)n);
			struct htok t;
			struct htok_token tok;
			htok_init(&t, page, (size_t)n);
			const enum htok_type ty = htok_next(&t, &tok);
			if (ty != HTOK_START || tok.tag != cases[k].tag || tok.n_attrs != 2 ||
			    tok.attrs[0].kind != HATTR_CLASS || tok.attrs[1].kind != HATTR_ID ||
			    tok.attrs[0].value_len != 1 || tok.attrs[1].value[0] != 'x')
				bad++;
			/* the end tag alone, ending the buffer */
			const int m = snprintf(tmp, sizeof(tmp), "</%s>", cases[k].name);
			memcpy(page, tmp, (size_t)m);
			htok_init(&t, page, (size_t)m);
			if (htok_next(&t, &tok) != HTOK_END || tok.tag != cases[k].tag)
				bad++;
			free(page);
		}
	}
	CHECK(bad == 0);
	/* attr_kinds: the kinds of the attributes kept, none of an end tag's */
	{
		static const char start[] = "<a HREF=x title=\"y\" Class='c' data-id=1 id=z itemProp=b>";
		static const char end[] = "</a class=x>";
		struct htok t;
		struct htok_token tok;
		htok_init(&t, start, sizeof(start) - 1);
		CHECK(htok_next(&t, &tok) == HTOK_START && tok.n_attrs == 4 &&
		      tok.attr_kinds == (HATTR_BIT(HATTR_HREF) | HATTR_BIT(HATTR_CLASS) |
					 HATTR_BIT(HATTR_ID) | HATTR_BIT(HATTR_ITEMPROP)));
		htok_init(&t, end, sizeof(end) - 1);
		CHECK(htok_next(&t, &tok) == HTOK_END && tok.n_attrs == 0 && tok.attr_kinds == 0);
	}
	/* every element, by its name in lower and upper case */
	bad = 0;
	for (int tag = HTAG_UNKNOWN + 1; tag < HTAG_COUNT; tag++) {
		char tmp[40], up[40];
		const char *const name = htag_name((enum htag)tag);
		size_t l = strlen(name);
		for (size_t i = 0; i <= l; i++)
			up[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
		for (int u = 0; u < 4; u++) { /* case; alone, or followed by 16+ bytes */
			const int n = snprintf(tmp, sizeof(tmp), "<%s>%s", u & 1 ? up : name,
					       u & 2 ? "and then some text" : "");
			struct htok t;
			struct htok_token tok;
			htok_init(&t, tmp, (size_t)n);
			if (htok_next(&t, &tok) != HTOK_START || tok.tag != (enum htag)tag)
				bad++;
		}
	}
	CHECK(bad == 0);
	CHECK(!strcmp(htag_name(HTAG_UNKNOWN), "") && !strcmp(htag_name(HTAG_BLOCKQUOTE), "blockquote"));
}

/*
 * Text between tags is appended piece by piece, short plain pieces by a
 * fast path of html_text: whatever the pieces, a block's text must be
 * html_collapse() of their concatenation (spaces owed across pieces,
 * references decoded, U+00A0 and control bytes blank).
 */
static void test_text_pieces(void)
{
	static const char *const atoms[] = {"a", "bc", "defgh", " ", "  ", "\n", "\t", "&amp;",
					    "&nbsp;", "\xC2\xA0", "\xE4\xB8\xAD", ".", "x y", "&", "\x01"};
	uint64_t st = test_seed(23);
	int bad = 0;
	for (int it = 0; it < 3000; it++) {
		char body[1024], flat[1024];
		size_t nb = 0, nf = 0;
		const int pieces = 1 + (int)(test_rand(&st) % 6);
		for (int k = 0; k < pieces; k++) {
			nb += (size_t)snprintf(body + nb, sizeof(body) - nb, "<span>");
			const int len = (int)(test_rand(&st) % 12);
			for (int j = 0; j < len; j++) {
				const char *const a = atoms[test_rand(&st) % (sizeof(atoms) / sizeof(atoms[0]))];
				const size_t l = strlen(a);
				memcpy(body + nb, a, l);
				memcpy(flat + nf, a, l);
				nb += l, nf += l;
			}
			nb += (size_t)snprintf(body + nb, sizeof(body) - nb, "</span>");
		}
		body[nb] = 0;
		char want[1024 + HTML_COLLAPSE_SLACK + 1];
		int pending = 0;
		const size_t nw = html_collapse(want, flat, nf, nf, 0, &pending, 1);
		if (nw == 0)
			continue;
		want[nw] = 0;
		char page[1200], needle[1100];
		snprintf(page, sizeof(page), "<div>%s</div>", body);
		snprintf(needle, sizeof(needle), "\n%s\n", want);
		if (!contains(sandwich(page), needle) && bad++ < 3)
			printf("  pieces %s -> want [%s]\n", body, want);
	}
	CHECK(bad == 0);
}

/* A link's words, as the link density counts them: 5 of 15 words in
 * links is not link-dense (> 1/3 is), 6 of 15 is; link texts of more
 * than 16 bytes, words across a 16-byte boundary and non-ASCII words. */
static void test_link_words(void)
{
	const char *const kept = "<p>one two three four five six seven eight nine ten "
				 "<a href=x>abcdefghijklmnopqrst uvwxyz caf\xC3\xA9 d e</a></p>";
	const char *const dropped = "<p>one two three four five six seven eight nine "
				    "<a href=x>abcdefghijklmnopqrst uvwxyz caf\xC3\xA9 d e f</a></p>";
	CHECK(contains(sandwich(kept), "ten abcdefghijklmnopqrst"));
	CHECK(!contains(sandwich(dropped), "nine abcdefghijklmnopqrst"));
	/* a link that continues a word still counts its first word: 5 of 14 */
	CHECK(!contains(sandwich("<p>one two three four five six seven eight nine ten<a href=x>"
				 "abcdefghijklmnopqrst uvwxyz caf\xC3\xA9 d e</a></p>"),
			"tenabcdefghijklmnopqrst"));
	/* short link texts with blanks before and after their words: 5 of 15, 6 of 15 */
	CHECK(contains(sandwich("<p>one two three four five six seven eight nine ten "
				"<a href=x>\n  ab cd</a><a href=y> ef\tgh ij\n</a></p>"),
		       "ten ab cd ef gh ij"));
	CHECK(!contains(sandwich("<p>one two three four five six seven eight nine "
				 "<a href=x>\n  ab cd</a><a href=y> ef\tgh ij\n</a><a href=z> kl </a></p>"),
			"nine ab cd ef gh ij kl"));
}

/*
 * End tags close their element whichever way it is found: by the short
 * name the start tag left on the stack (any case), or by a lookup (names
 * of 8 bytes and more, unknown names, an end tag too near the end of the
 * page for a 16-byte load, an element not innermost).
 */
static void test_end_tags(void)
{
	static const char *const closed[] = {
		"<DIV class=sidebar>side</div>after", "<my-el class=sidebar>side</MY-EL>after",
		"<fieldset class=sidebar>side</FIELDSET>after",
		"<blockquote class=sidebar>side</blockquote>after",
		"<a-very-long-element-name class=sidebar>side</a-very-long-element-name>after",
		"<nav>menu<b>bold</NAV>after", "<span class=sidebar>x<i>y</i></span>after",
		"<fieldset class=sidebar>side<b>bold<an-element-named-long>x</fieldset>after",
	};
	for (size_t i = 0; i < sizeof(closed) / sizeof(closed[0]); i++) {
		char page[512];
		snprintf(page, sizeof(page), "<p>%s words here.</p>", closed[i]);
		const char *const m = sandwich(page);
		CHECK(contains(m, "after words here.") && !contains(m, "side") && !contains(m, "menu"));
	}
	/* the same page, its last end tags within 16 bytes of its end or not */
	static const char *const tails[] = {"</nav>x", "</p></div>", "</my-el>y", "</b></i>z"};
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		char page[1024], padded[1100], want[1024];
		snprintf(page, sizeof(page), "<div><nav>m<my-el><b><i>" FILL1 FILL2 "<p>Last words here.%s",
			 tails[i]);
		snprintf(padded, sizeof(padded), "%s<!-- some padding past the end tags -->", page);
		snprintf(want, sizeof(want), "%s", main_of(page));
		CHECK(!strcmp(want, main_of(padded)));
	}
}

/*
 * An end tag read against the innermost open element (htok_scan()'s
 * @top: one compare where the name is spelled as in the start tag and
 * '>' follows) is the token the plain reading gives, in every spelling,
 * with attributes or not, of names of every length, and near the end of
 * the page.
 */
static void test_end_of_top(void)
{
	static const char *const names[] = {"span", "SPAN", "Span", "b", "B", "section", "abcdefg",
		"x-y", "fieldset", "spa", "spanx", "bb"};
	static const char *const tails[] = {">", " >", "x>", "/>", " class=y>", "", ">after the tag"};
	int bad = 0, fast = 0;
	for (size_t s = 0; s < sizeof(names) / sizeof(names[0]); s++) {
		char start[48];
		const int sn = snprintf(start, sizeof(start), "<%s>and text after it", names[s]);
		struct htok t;
		struct htok_token st;
		htok_init(&t, start, (size_t)sn);
		if (htok_next(&t, &st) != HTOK_START)
			bad++;
		const struct htok_open open = {st.name8, st.raw8}, *const top = &open;
		for (size_t e = 0; e < sizeof(names) / sizeof(names[0]); e++) {
			for (size_t k = 0; k < sizeof(tails) / sizeof(tails[0]); k++) {
				char page[64];
				const int n = snprintf(page, sizeof(page), "</%s%s", names[e], tails[k]);
				struct htok_pos a, b;
				struct htok_token ta = {0}, tb = {0};
				struct htok_attr aa[HTOK_MAX_ATTRS], ab[HTOK_MAX_ATTRS];
				ta.attrs = aa, tb.attrs = ab;
				htok_pos_init(&a, page, (size_t)n);
				htok_pos_init(&b, page, (size_t)n);
				const enum htok_type ya = htok_scan(&a, &ta, 0, &top);
				const enum htok_type yb = htok_scan(&b, &tb, 0, NULL);
				/* the same name; its name8 too where the plain reading
				 * made one (not within 16 bytes of the end) */
				if (ya != yb || a.p != b.p ||
				    (ya == HTOK_END && (ta.p != tb.p || ta.n != tb.n ||
							(tb.name8 && ta.name8 != tb.name8))))
					bad++;
				fast += open.name8 && !strcmp(names[s], names[e]) && tails[k][0] == '>' &&
					n >= 10; /* read by the shortcut */
			}
		}
	}
	CHECK(bad == 0 && fast > 0);
}

/* Do two readings of a tag give the same token? */
static int same_token(const struct htok_token *a, const struct htok_token *b)
{
	return a->type == b->type && a->tag == b->tag && a->p == b->p && a->n == b->n &&
	       a->name8 == b->name8 && (a->type != HTOK_START || a->raw8 == b->raw8) &&
	       a->hash == b->hash && a->self_closing == b->self_closing &&
	       a->n_attrs == b->n_attrs && a->attr_kinds == b->attr_kinds;
}

/*
 * The second tag of @page read twice: on from its first tag (where the
 * tokenizer's shortcuts have seen that one) and by a fresh tokenizer from
 * there.  @return 1 if the first is a start tag and both readings give the
 * same token, attributes and end; *@primed is the position after the
 * first tag, for the caller to see what it primed.
 */
static int second_tag_agrees(const char *page, size_t n, struct htok_pos *primed)
{
	struct htok_pos a, b;
	struct htok_token ta = {0}, tb = {0};
	struct htok_attr aa[HTOK_MAX_ATTRS], ab[HTOK_MAX_ATTRS];
	ta.attrs = aa, tb.attrs = ab;
	htok_pos_init(&a, page, n);
	if (htok_scan(&a, &ta, 1, NULL) != HTOK_START)
		return 0;
	*primed = a;
	ta.n_attrs = 0;
	htok_pos_init(&b, a.p, (size_t)(page + n - a.p));
	htok_scan(&a, &ta, 1, NULL);
	htok_scan(&b, &tb, 1, NULL);
	int same = same_token(&ta, &tb) && a.p == b.p;
	for (int i = 0; same && i < ta.n_attrs; i++)
		same = aa[i].kind == ab[i].kind && aa[i].value == ab[i].value &&
		       aa[i].value_len == ab[i].value_len;
	return same;
}

/*
 * A start tag whose name is spelled as an earlier start tag's (read by
 * one compare against htok_pos.seen) is the token the plain reading
 * gives: names of every length and case, known or not, with attributes
 * or not, ended by any byte, near the end of the page or not.
 */
static void test_seen_start_name(void)
{
	static const char *const names[] = {"span", "SPAN", "Span", "b", "B", "bb", "spa", "spanx",
		"section", "abcdefg", "fieldset", "sub", "s", "li", "LI", "code"};
	static const char *const tails[] = {">", " >", "x>", "/>", " class=y>", "\x01>", "\v>",
		"\f>", "-x>", ""};
	const size_t nn = sizeof(names) / sizeof(names[0]), nt = sizeof(tails) / sizeof(tails[0]);
	int bad = 0, fast = 0;
	for (size_t s = 0; s < nn; s++)
		for (size_t e = 0; e < nn; e++)
			for (size_t k = 0; k < nt; k++)
				for (int pad = 0; pad < 2; pad++) {
					char page[128];
					const int n = snprintf(page, sizeof(page), "<%s><%s%s%s", names[s],
							       names[e], tails[k],
							       pad ? " and some text after the tag" : "");
					struct htok_pos first = {0};
					bad += !second_tag_agrees(page, (size_t)n, &first);
					const int primed =
						first.seen[(unsigned char)names[s][0] & 31].len != 0;
					fast += primed && !strcmp(names[s], names[e]) && pad;
				}
	CHECK(bad == 0 && fast > 0);
}

/*
 * An attribute name spelled as an earlier one of the same first byte
 * (read by one compare against htok_pos.seen_attr) gives the token the
 * plain reading gives: names of every length and case, read by
 * html_text or not, ended by any byte.
 */
static void test_seen_attr_name(void)
{
	static const char *const names[] = {"class", "CLASS", "Class", "id", "ID", "i", "href",
		"hrefx", "hre", "=x", "role", "aria-hidden", "title", "data-x", "style", "hidden", "h"};
	static const char *const tails[] = {"=v>", "='v w'>", " = v>", ">", "/>", " >", "\x01=v>",
		"-y=v>", "\v=v>", " id=w>"};
	const size_t nn = sizeof(names) / sizeof(names[0]), nt = sizeof(tails) / sizeof(tails[0]);
	int bad = 0, fast = 0;
	for (size_t s = 0; s < nn; s++)
		for (size_t e = 0; e < nn; e++)
			for (size_t k = 0; k < nt; k++) {
				char page[160];
				const int n = snprintf(page, sizeof(page),
						       "<a %s=v><a %s%s and some text after the tag",
						       names[s], names[e], tails[k]);
				struct htok_pos first = {0};
				bad += !second_tag_agrees(page, (size_t)n, &first);
				const int primed =
					first.seen_attr[(unsigned char)names[s][0] & 31].len != 0;
				fast += primed && !strcmp(names[s], names[e]);
			}
	CHECK(bad == 0 && fast > 0);
}

/*
 * The tokenizer's shortcuts keep its rules: a tag whose name ends at '>'
 * skips the attribute loop, an end tag is read without the other markup
 * tests, names end at white space but not at other control bytes, and
 * only the attributes html_text reads are kept, from the first
 * HTOK_MAX_ATTRS as before.
 */
static void test_tag_shortcuts(void)
{
	static const struct {
		const char *in;
		enum htok_type type;
		enum htag tag;
		int self_closing, n_attrs;
		const char *next; /* text right after the tag */
	} cases[] = {
		{"</a>x", HTOK_END, HTAG_A, 0, 0, "x"},
		{"</A\t>x", HTOK_END, HTAG_A, 0, 0, "x"},
		{"</a title=\"b>c\">x", HTOK_END, HTAG_A, 0, 0, "x"},
		{"</a/>x", HTOK_END, HTAG_A, 1, 0, "x"},
		{"<br/>x", HTOK_START, HTAG_BR, 1, 0, "x"},
		{"<a href=x/>x", HTOK_START, HTAG_A, 0, 1, "x"},
		{"<a b=/>x", HTOK_START, HTAG_A, 0, 0, "x"},
		{"<p\x01>x", HTOK_START, HTAG_UNKNOWN, 0, 0, "x"},
		{"<p\f>x", HTOK_START, HTAG_P, 0, 0, "x"},
		{"<div\vclass=a>x", HTOK_START, HTAG_UNKNOWN, 0, 0, "x"},
		{"<div class = 'a>b' id=c>x", HTOK_START, HTAG_DIV, 0, 2, "x"},
		{"<div =\"a>x", HTOK_START, HTAG_DIV, 0, 0, "x"},
		{"<div title=\"t\" rel=r CLASS=k data-x=\"y\" Role=main>x", HTOK_START, HTAG_DIV, 0, 2, "x"},
		{"<div a b c d e f g h i j k l m n o class=in16>x", HTOK_START, HTAG_DIV, 0, 1, "x"},
		{"<div a b c d e f g h i j k l m n o p class=in17>x", HTOK_START, HTAG_DIV, 0, 0, "x"},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		for (int pad = 0; pad < 2; pad++) { /* at the end of the buffer, or with 40 bytes after */
			char buf[128];
			const int n = snprintf(buf, sizeof(buf), "%s%s", cases[k].in,
					       pad ? "........................................" : "");
			struct htok t;
			struct htok_token tok;
			htok_init(&t, buf, (size_t)n);
			const int ok = htok_next(&t, &tok) == cases[k].type && tok.tag == cases[k].tag &&
				       tok.self_closing == cases[k].self_closing &&
				       tok.n_attrs == cases[k].n_attrs &&
				       htok_next(&t, &tok) == HTOK_TEXT && tok.n >= 1 && tok.p[0] == 'x';
			CHECK(ok);
			if (!ok)
				printf("  tag shortcut case %zu (pad %d): %s\n", k, pad, cases[k].in);
		}
	}
}

/* The block measure spelled out byte by byte, for ASCII text and the
 * sign U+00A9: words, non-space bytes, sentence end, legal line. */
static void ref_measure(const char *s, size_t n, struct hblock *b)
{
	uint32_t words10 = 0, spaces = 0;
	int sentence = 0, in_word = 0;
	for (size_t i = 0; i < n;) {
		/* one character; a stray or cut-short byte counts as what it holds */
		const unsigned char c = (unsigned char)s[i++];
		const int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
		uint32_t cp = more ? c & (0x3Fu >> more) : c;
		for (int k = 0; k < more && i < n && ((unsigned char)s[i] & 0xC0) == 0x80; k++)
			cp = cp << 6 | ((unsigned char)s[i++] & 0x3Fu);
		const int cjk = (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
				(cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
				(cp >= 0x20000 && cp <= 0x2FFFF);
		if (cp == ' ')
			spaces++;
		else if (cjk)
			words10 += 6;
		else
			words10 += in_word ? 0 : 10;
		in_word = cp != ' ' && !cjk;
		sentence |= cp == '.' || cp == '!' || cp == '?' || cp == 0x3002 || cp == 0xFF01 ||
			    cp == 0xFF1F || cp == 0x2026;
	}
	char low[256];
	assert(n < sizeof(low));
	for (size_t i = 0; i < n; i++)
		low[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
	low[n] = 0;
	const int legal = strstr(low, "copyright") || strstr(low, "all rights reserved") ||
			  strstr(low, "\xC2\xA9") || strstr(low, "\xE7\x89\x88\xE6\x9D\x83\xE6\x89\x80\xE6\x9C\x89") ||
			  strstr(low, "\xE7\x89\x88\xE6\xAC\x8A\xE6\x89\x80\xE6\x9C\x89");
	b->words10 = words10;
	b->ns_bytes = (uint32_t)n - spaces;
	b->flags = (uint8_t)((sentence ? HB_SENTENCE : 0) |
			     (legal && words10 < 1000 ? HB_COPYRIGHT : 0));
}

/* Blocks of 1..200 bytes (ASCII measured 64 bytes at once, group after
 * group, from a group with a non-ASCII byte on by 16-byte chunks, a chunk
 * with a non-ASCII byte by its ASCII prefix and then character by
 * character) measure as ref_measure() says, whatever bytes follow them. */
static void test_measure_reference(void)
{
	static const char *const pieces[] = {" ", "a", "g", "H", "gh", ".", "!", "?", "x y",
		"copyright", "All Rights Reserved", "\xC2\xA9", "right", "GH", "a", "bc ", "defg",
		"\xE4\xB8\xAD", "\xE2\x80\x99", "\xE3\x80\x82", "\xC3\xA9", "\x80", "\xE4",
		"\xE7\x89\x88\xE6\x9D\x83\xE6\x89\x80\xE6\x9C\x89", "\xF0\xA0\x80\x80",
		/* cut short after two bytes; U+4DBF, U+4DC0 (the end of CJK
		 * extension A, a hexagram), U+304B (kana), U+FF1F, U+2026 */
		"\xE4\xB8", "\xE4\xB6\xBF", "\xE4\xB7\x80", "\xE3\x81\x8B", "\xEF\xBC\x9F", "\xE2\x80\xA6",
		/* the ends of the Han range the four-at-a-time test reads
		 * (U+4E00, U+9FFF; U+4DFF, U+A000 outside it), U+7248 alone,
		 * and runs of four and five Han characters */
		"\xE4\xB8\x80", "\xE9\xBF\xBF", "\xE4\xB7\xBF", "\xEA\x80\x80", "\xE7\x89\x88",
		"\xE4\xB8\xAD\xE6\x96\x87\xE5\xAD\x97\xE7\xAC\xA6",
		"\xE7\x89\x88\xE4\xB8\xAD\xE6\x96\x87\xE5\xAD\x97\xE9\xBF\xBF"};
	uint64_t st = test_seed(12);
	int bad = 0;
	for (int it = 0; it < 50000; it++) {
		char s[256 + HBLOCK_SLACK];
		const size_t want = 1 + test_rand(&st) % 200;
		const int ascii = it & 1; /* half of them: groups of ASCII only */
		size_t n = 0;
		while (n < want) {
			const char *const p = pieces[test_rand(&st) % (sizeof(pieces) / sizeof(pieces[0]))];
			const size_t l = strlen(p);
			if (n + l > 210)
				break;
			if (ascii && (unsigned char)p[0] >= 0x80)
				continue;
			memcpy(s + n, p, l);
			n += l;
		}
		for (size_t i = n; i < sizeof(s); i++)
			s[i] = (char)("g h.\xC2"[test_rand(&st) % 5]);
		struct hblock got = {0}, ref = {0};
		got.len = (uint32_t)n;
		hblock_measure(&got, s);
		ref_measure(s, n, &ref);
		if (got.words10 != ref.words10 || got.ns_bytes != ref.ns_bytes || got.flags != ref.flags)
			bad++;
	}
	CHECK(bad == 0);
	/* Every byte at every place of a short and a long block: only '.',
	 * '!' and '?' of the ASCII bytes end a sentence (the marks are
	 * looked up by the low half of a byte). */
	bad = 0;
	for (size_t len = 20; len <= 140; len += 60) {
		for (unsigned c = 1; c < 256; c++) {
			for (size_t at = 0; at < len; at++) {
				char s[140 + HBLOCK_SLACK];
				memset(s, 'a', sizeof(s));
				s[len / 2 + 1] = ' ';
				s[at] = (char)c;
				struct hblock got = {0}, ref = {0};
				got.len = (uint32_t)len;
				hblock_measure(&got, s);
				ref_measure(s, len, &ref);
				bad += got.words10 != ref.words10 || got.ns_bytes != ref.ns_bytes ||
				       got.flags != ref.flags;
			}
		}
	}
	CHECK(bad == 0);
	/* A legal line's words at every place of a block of three groups,
	 * across the groups' edges too ("g" last in one, "h" first in the
	 * next). */
	bad = 0;
	static const char *const marks[] = {"Copyright", "all rights reserved", "rights"};
	for (size_t k = 0; k < sizeof(marks) / sizeof(marks[0]); k++) {
		const size_t l = strlen(marks[k]);
		for (size_t at = 0; at + l <= 150; at++) {
			char s[150 + HBLOCK_SLACK];
			memset(s, 'a', sizeof(s));
			memcpy(s + at, marks[k], l);
			struct hblock got = {0}, ref = {0};
			got.len = 150;
			hblock_measure(&got, s);
			ref_measure(s, 150, &ref);
			bad += got.words10 != ref.words10 || got.flags != ref.flags;
		}
	}
	CHECK(bad == 0);
}

/* html_collapse() as its header says, byte by byte: blanks, U+00A0 and
 * references that decode to white space owe one space, written before the
 * next other byte if there is text before it. */
static size_t ref_collapse(char *out, const char *s, size_t n, int has_text, int *pending, int decode)
{
	size_t o = 0, i = 0;
	while (i < n) {
		const unsigned char c = (unsigned char)s[i];
		char d[HTML_ENTITY_MAX_UTF8];
		size_t nd = 1, used = 1;
		d[0] = (char)c;
		if (c == '&' && decode && (used = html_entity_decode(s + i, n - i, d, &nd)) == 0)
			used = nd = 1, d[0] = '&';
		const int blank = c <= ' ' || (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] == 0xA0) ||
				  (c == '&' && nd == 1 && (unsigned char)d[0] <= ' ') ||
				  (c == '&' && nd == 2 && (unsigned char)d[0] == 0xC2 && (unsigned char)d[1] == 0xA0);
		if (blank) {
			*pending = 1;
			i += c == 0xC2 ? 2 : used;
			continue;
		}
		if (*pending && (has_text || o))
			out[o++] = ' ';
		*pending = 0;
		memcpy(out + o, d, nd);
		o += nd;
		i += used;
	}
	return o;
}

/* Long runs of words and single spaces, where html_collapse() copies 16
 * bytes at a time and a space may end a chunk, and references, where it
 * reads the five common ones by compares, collapse as the byte-by-byte
 * reference (with html_entity_decode()'s table) says, wherever the text
 * starts and ends: cut short, a common name is read by the table. */
static void test_collapse_reference(void)
{
	static const char *const atoms[] = {"a", "bc", "defghij", " ", " ", " ", "  ", "\n",
					    "&amp;", "&nbsp;", "\xC2\xA0", "\xE4\xB8\xAD", "&", ".\t",
					    "&lt;", "&gt;", "&quot;", "&lt", "&amp", "&quo", "&nbsp", "&gt",
					    "&nb", "&l", "&#160;", "&copy;", "t;", "p;", "&quot", "\t", "\r",
					    "\x1f", "\n", "\n"};
	uint64_t st = test_seed(29);
	int bad = 0;
	for (int it = 0; it < 30000; it++) {
		char in[400], out[HTML_COLLAPSE_MAX(400) + HTML_COLLAPSE_SLACK], want[HTML_COLLAPSE_MAX(400)];
		size_t n = 0;
		const int words = (int)(test_rand(&st) % 60);
		for (int k = 0; k < words && n < 300; k++) {
			const char *a = atoms[test_rand(&st) % (sizeof(atoms) / sizeof(atoms[0]))];
			memcpy(in + n, a, strlen(a));
			n += strlen(a);
		}
		memset(in + n, it & 8 ? ';' : 'q', sizeof(in) - n); /* readable, not the text's */
		int p1 = (int)(it & 1), p2 = p1;
		const int has = (int)(it >> 1 & 1), dec = (int)(it >> 2 & 1);
		const size_t l1 = html_collapse(out, in, n, sizeof(in), has, &p1, dec);
		const size_t l2 = ref_collapse(want, in, n, has, &p2, dec);
		if (l1 != l2 || memcmp(out, want, l1) || p1 != p2)
			bad++;
	}
	CHECK(bad == 0);
}

/* html_collapse() must not depend on what lies past its text (it may read
 * up to @avail), and the block measure not on the slack after it. */
static void test_vector_tails(void)
{
	static const char alphabet[] = "ab .!?&;#\t\n\xC2\xA0\xE4\xB8\xAD<x";
	uint64_t st = test_seed(11);
	char in[96], junk_in[96 + 32], out1[200], out2[200];
	int bad = 0;
	for (int it = 0; it < 20000; it++) {
		const size_t n = test_rand(&st) % 80;
		for (size_t i = 0; i < n; i++)
			in[i] = alphabet[test_rand(&st) % (sizeof(alphabet) - 1)];
		memcpy(junk_in, in, n);
		for (size_t i = n; i < sizeof(junk_in); i++)
			junk_in[i] = alphabet[test_rand(&st) % (sizeof(alphabet) - 1)];
		int p1 = (int)(it & 1), p2 = p1;
		const int has = (int)(it >> 1 & 1), dec = (int)(it >> 2 & 1);
		const size_t l1 = html_collapse(out1, in, n, n, has, &p1, dec);
		const size_t l2 = html_collapse(out2, junk_in, n, sizeof(junk_in), has, &p2, dec);
		if (l1 != l2 || memcmp(out1, out2, l1) || p1 != p2)
			bad++;
		/* measure the collapsed text with zero and with junk slack */
		char z[200 + HBLOCK_SLACK] = {0}, j[200 + HBLOCK_SLACK];
		memcpy(z, out1, l1);
		memcpy(j, out1, l1);
		for (size_t i = l1; i < sizeof(j); i++)
			j[i] = alphabet[test_rand(&st) % (sizeof(alphabet) - 1)];
		struct hblock bz = {0}, bj = {0};
		bz.len = bj.len = (uint32_t)l1;
		hblock_measure(&bz, z);
		hblock_measure(&bj, j);
		if (bz.words10 != bj.words10 || bz.ns_bytes != bj.ns_bytes || bz.flags != bj.flags ||
		    hblock_words10(z, l1) != bz.words10)
			bad++;
	}
	CHECK(bad == 0);
	/* known measures: 3 words, a sentence; CJK counts 0.6 per character */
	struct hblock b = {0};
	char s[64 + HBLOCK_SLACK] = "one two three.";
	b.len = 14;
	hblock_measure(&b, s);
	CHECK(b.words10 == 30 && b.ns_bytes == 12 && (b.flags & HB_SENTENCE));
	memcpy(s, "\xE4\xB8\xAD\xE6\x96\x87 word", 11);
	CHECK(hblock_words10(s, 11) == 22);
	memcpy(s, "a sixteen byte s and a longer tail (c) copyright", 48);
	b = (struct hblock){0};
	b.len = 48;
	hblock_measure(&b, s);
	CHECK(b.flags & HB_COPYRIGHT);
	/* every marker, also split over 16-byte chunks */
	static const char *const legal[] = {"\xC2\xA9 2024 Example", "x ALL RIGHTS RESERVED",
		"Copyright 2020 (one piece)", "\xE7\x89\x88\xE6\x9D\x83\xE6\x89\x80\xE6\x9C\x89 x",
		"\xE7\x89\x88\xE6\xAC\x8A\xE6\x89\x80\xE6\x9C\x89", "fifteen bytes! copyright"};
	for (size_t k = 0; k < sizeof(legal) / sizeof(legal[0]); k++) {
		for (size_t pad = 0; pad < 20; pad++) {
			char t[80 + HBLOCK_SLACK] = {0};
			memset(t, 'a', pad);
			t[pad] = ' ';
			const size_t l = pad + 1 + strlen(legal[k]);
			memcpy(t + pad + 1, legal[k], strlen(legal[k]));
			b = (struct hblock){0};
			b.len = (uint32_t)l;
			hblock_measure(&b, t);
			CHECK(b.flags & HB_COPYRIGHT);
		}
	}
	memcpy(s, "a right of way through the night", 32);
	b = (struct hblock){0};
	b.len = 32;
	hblock_measure(&b, s);
	CHECK(!(b.flags & HB_COPYRIGHT));
}

static void test_deep_nesting(void)
{
	static const char *const open[] = {"<div>", "<span>", "<a>", "<li>", "<table>", "<b><i>", "<x-y>"};
	const size_t levels = 100000;
	for (size_t k = 0; k < sizeof(open) / sizeof(open[0]); k++) {
		const size_t ol = strlen(open[k]);
		const size_t cap = levels * ol + sizeof(FILL1) + 64;
		char *const page = malloc(cap);
		size_t n = 0;
		for (size_t i = 0; i < levels; i++, n += ol)
			memcpy(page + n, open[k], ol);
		memcpy(page + n, FILL1, sizeof(FILL1) - 1);
		n += sizeof(FILL1) - 1;
		const clock_t t0 = clock();
		CHECK(html_text_extract(H, page, n) == 0);
		const double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
		CHECK(secs < 5.0);
		/* <a> nesting is a link list; the others keep the paragraph. */
		if (k != 2)
			CHECK(contains(html_text_main(H, NULL), "first filler"));
		free(page);
	}
	/* Many unmatched end tags after deep nesting stay linear. */
	const size_t cap = levels * 12 + 16;
	char *const page = malloc(cap);
	size_t n = 0;
	for (size_t i = 0; i < levels; i++, n += 5)
		memcpy(page + n, "<div>", 5);
	memcpy(page + n, "<b>", 3);
	n += 3;
	for (size_t i = 0; i < levels; i++, n += 5)
		memcpy(page + n, "<div>", 5);
	const clock_t t0 = clock();
	CHECK(html_text_extract(H, page, n) == 0);
	CHECK((double)(clock() - t0) / CLOCKS_PER_SEC < 5.0);
	free(page);
}

/*
 * The block list: the content blocks joined by '\n' are the main text;
 * every text outside the never-content elements is in some block (the
 * share links and the soft-dropped comments too, flagged), the nav's and
 * the script's in none.
 */
static void test_block_list(void)
{
	CHECK(html_text_extract(H, template_b, strlen(template_b)) == 0);
	size_t ml, n = html_text_n_blocks(H), at = 0, texts = 0;
	const char *const m = html_text_main(H, &ml);
	int soft_comment = 0, heading = 0, banner = 0;
	for (size_t i = 0; i < n; i++) {
		const struct html_text_block b = html_text_block_at(H, i);
		if (!b.len)
			continue;
		texts++;
		CHECK(memchr(b.text, '\n', b.len) == NULL);
		if (b.flags & HTB_CONTENT) {
			CHECK(at + b.len <= ml && !memcmp(m + at, b.text, b.len));
			at += b.len;
			if (at < ml) {
				CHECK(m[at] == '\n');
				at++;
			}
		}
		soft_comment |= (b.flags & HTB_SOFT) && b.len > 20 && !memcmp(b.text, "Great news", 10);
		heading |= (b.flags & HTB_HEADING) && (b.flags & HTB_CONTENT);
		banner |= !(b.flags & HTB_CONTENT) && strstr(b.text, "your daily dose") != NULL;
	}
	CHECK(at == ml && ml > 0);
	CHECK(texts >= 6);
	CHECK(soft_comment && heading && banner);
	CHECK(html_text_extract(H, template_a, strlen(template_a)) == 0);
	n = html_text_n_blocks(H);
	for (size_t i = 0; i < n; i++) {
		const struct html_text_block b = html_text_block_at(H, i);
		CHECK(!b.len || (!memmem(b.text, b.len, "Sport", 5) && !memmem(b.text, b.len, "ads", 3)));
	}
}

/* ---- the tree builder without its shortcuts ---- */

/*
 * html_text.c again, built with HTML_TEXT_REFERENCE (no plain start-tag
 * path, every "is any <x> open?" answered by a search) and its public
 * functions renamed, to compare with the real one.
 */
struct html_text *ref_text_new(void);
void ref_text_free(struct html_text *h);
int ref_text_extract(struct html_text *h, const char *html, size_t len);
const char *ref_text_title(const struct html_text *h, size_t *len);
const char *ref_text_main(struct html_text *h, size_t *len);
int ref_text_fallback(const struct html_text *h);
#define HTML_TEXT_REFERENCE
#define html_text_new ref_text_new
#define html_text_free ref_text_free
#define html_text_extract ref_text_extract
#define html_text_title ref_text_title
#define html_text_main ref_text_main
#define html_text_n_blocks ref_text_n_blocks
#define html_text_block_at ref_text_block_at
size_t ref_text_n_blocks(const struct html_text *h);
struct html_text_block ref_text_block_at(const struct html_text *h, size_t i);
#define html_text_fallback ref_text_fallback
#include "../common/html/html_text.c"
#undef html_text_n_blocks
#undef html_text_block_at
#undef html_text_new
#undef html_text_free
#undef html_text_extract
#undef html_text_title
#undef html_text_main
#undef html_text_fallback

/* Do both builds give @page the same title, main text and result? */
static int same_as_reference(struct html_text *ref, const char *page, size_t n)
{
	size_t ml, tl, rml, rtl;
	const int r = html_text_extract(H, page, n), rr = ref_text_extract(ref, page, n);
	const char *const m = html_text_main(H, &ml), *const t = html_text_title(H, &tl);
	const char *const rm = ref_text_main(ref, &rml), *const rt = ref_text_title(ref, &rtl);
	return r == rr && ml == rml && tl == rtl && !memcmp(m, rm, ml) && !memcmp(t, rt, tl);
}

/*
 * The shortcuts of the tree builder (a plain start tag only pushes; open
 * bits spare the searches of end tags and implicit closes) give the text
 * of the whole way: pages made of the tags that take them and of those
 * that do not, in and out of head and svg, closed, unclosed and stray.
 */
static void test_shortcuts_reference(void)
{
	static const char *const pieces[] = {"<span>", "</span>", "<span class=sidebar>", "<em>",
		"</em>", "<code>", "</code>", "<pre>", "</pre>", "<x-y>", "</x-y>", "<x-y/>", "<q-r>",
		"</q-r>", "<b/>", "<p>", "</p>", "<a href=x>", "<a>", "</a>", "<li>", "</li>", "<ul>",
		"</ul>", "<ol>", "<dl>", "<dt>", "<dd>", "</dl>", "<table>", "<tr>", "<td>", "</td>",
		"<th>", "</tr>", "</table>", "<tbody>", "<caption>", "<h1>", "</h1>", "<h3>", "</h3>",
		"<div>", "</div>", "<div class=nav>", "<head>", "</head>", "<title>t</title>",
		"<meta>", "<link>", "<body>", "<svg>", "</svg>", "<math>", "<nav>", "</nav>", "<main>",
		"<form>", "</form>", "<br>", "<img>", "<span role=main>", "<span hidden>",
		"<blockquote>", "</blockquote>", "<a-very-long-name>", "</a-very-long-name>",
		"Some words. ", "text ", "more text here, ", "\n", "&amp; "};
	const size_t np = sizeof(pieces) / sizeof(pieces[0]);
	struct html_text *const ref = ref_text_new();
	CHECK(ref != NULL);
	if (!ref)
		return;
	static const char *const fixed[] = {
		"<head><span>in head</span><title>x</title></head><p>after",
		"<p>one<svg><span/><p>drawn</p><x-y/>text</svg>two</p>",
		"<p>para<span>inline<div>block</div>after",
		"<ul><li>a<li>b<ul><li>c</li><li>d</ul><li>e</ul>",
		"<table><tr><td>1<td>2<tr><th>3</table>",
		"<a href=x>one<a href=y>two<td><a href=z>three",
		"<h1>one<h2>two</h2><h3><span>three<h4>four",
		"<div><b><i>x</span></x-y></li></p>y</div>",
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!same_as_reference(ref, fixed[i], strlen(fixed[i])) && bad++ < 3)
			printf("  shortcut page differs: %s\n", fixed[i]);
	uint64_t st = test_seed(31);
	char buf[4096];
	for (int it = 0; it < 3000; it++) {
		const size_t n = random_page(&st, pieces, np, buf, sizeof(buf), 0);
		char *const copy = malloc(n ? n : 1);
		memcpy(copy, buf, n);
		if (!same_as_reference(ref, copy, n) && bad++ < 3)
			printf("  shortcut page differs: %.*s\n", (int)n, copy);
		free(copy);
	}
	CHECK(bad == 0);
	ref_text_free(ref);
}

/* Do both builds of @page give the same text, cut into the same blocks
 * with the same flags and link words?  (The reference's struct
 * html_text, included above, is the real one's.) */
static int same_blocks_as_reference(struct html_text *ref, const char *page, size_t n)
{
	if (!same_as_reference(ref, page, n))
		return 0;
	if (H->text.len != ref->text.len || memcmp(H->text.p, ref->text.p, H->text.len) ||
	    H->n_blocks != ref->n_blocks)
		return 0;
	for (size_t i = 0; i < H->n_blocks; i++) {
		const struct hblock *const a = &H->blocks[i], *const b = &ref->blocks[i];
		if (a->off != b->off || a->len != b->len || a->flags != b->flags ||
		    a->link_words10 != b->link_words10)
			return 0;
	}
	return 1;
}

/*
 * Short text takes a 16-byte path (up to 16 bytes, 16 readable), a
 * 32-byte one (up to 32 bytes, 32 readable) or the general one, which
 * the reference build takes for all: the same text, blocks and link
 * words from texts of 0..40 bytes of words, blanks, references, U+00A0,
 * non-ASCII and control bytes, in and out of links, ending anywhere
 * from 0 to 40 bytes before the page's end (in an allocation of its own
 * size, so that the sanitizers see a read past it).
 */
static void test_short_text_reference(void)
{
	static const char *const atoms[] = {"a", "bc", "defgh", "ijklmnopqrs", " ", " ", "  ", "\n",
		"\n    ", "\t", "\r\n", "&amp;", "&nbsp;", "&", "\xC2\xA0", "\xC2", "\xC3\xA9",
		"\xE4\xB8\xAD", "\x01", ".", "x y", "Word. ", "x\ny", "\f", "one\ttwo"};
	static const char *const tags[] = {"<span>", "</span>", "<a href=x>", "</a>", "<b>",
		"</b>", "<br>", "<p>", "</p>", "<li>", "<a name=y>", "<h2>", "</h2>"};
	const size_t na = sizeof(atoms) / sizeof(atoms[0]), nt = sizeof(tags) / sizeof(tags[0]);
	struct html_text *const ref = ref_text_new();
	CHECK(ref != NULL);
	if (!ref)
		return;
	uint64_t st = test_seed(37);
	int bad = 0;
	for (int it = 0; it < 20000; it++) {
		char buf[1024];
		size_t n = (size_t)snprintf(buf, sizeof(buf), "%s%s<p>", FILL1, FILL2);
		const int pieces = 1 + (int)(test_rand(&st) % 12);
		for (int k = 0; k < pieces; k++) {
			const char *const tag = tags[test_rand(&st) % nt];
			memcpy(buf + n, tag, strlen(tag));
			n += strlen(tag);
			const size_t want = test_rand(&st) % 41;
			const size_t start = n;
			while (n - start < want) {
				const char *const a = atoms[test_rand(&st) % na];
				const size_t l = strlen(a) < want - (n - start) ? strlen(a) : want - (n - start);
				memcpy(buf + n, a, l);
				n += l;
			}
		}
		if (test_rand(&st) % 2) { /* else the text runs to the end */
			memcpy(buf + n, "</p>", 4);
			n += 4;
		}
		char *const page = malloc(n);
		memcpy(page, buf, n);
		if (!same_blocks_as_reference(ref, page, n) && bad++ < 3)
			printf("  short text differs: %.*s\n", (int)n, page);
		free(page);
	}
	CHECK(bad == 0);
	ref_text_free(ref);
}

/* Throughput on a synthetic 8 MB site: printed, not asserted (sanitizers). */
static void test_throughput(void)
{
	const size_t reps = (size_t)8 << 20;
	const size_t la = strlen(template_a), lb = strlen(template_b);
	size_t bytes = 0;
	const clock_t t0 = clock();
	while (bytes < reps) {
		CHECK(html_text_extract(H, template_a, la) == 0);
		CHECK(html_text_extract(H, template_b, lb) == 0);
		bytes += la + lb;
	}
	const double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	printf("throughput: %.1f MB/s (%zu bytes of HTML in %.3f s)\n", bytes / 1e6 / (secs > 0 ? secs : 1e-9),
	       bytes, secs);
}

int main(void)
{
	H = html_text_new();
	CHECK(H != NULL);
	if (!H)
		return test_finish("test_html_text");
	test_same_article_two_templates();
	test_boilerplate_dropped();
	test_two_articles_one_template();
	test_block_list();
	test_cjk();
	test_link_density_and_main();
	test_block_rules();
	test_soft_fallback();
	test_soft_against_main();
	test_pointer_blocks();
	test_pointer_rows();
	test_rows_in_main();
	test_comments_in_article();
	test_control_links();
	test_links_in_pre();
	test_chrome_words();
	test_entities();
	test_malformed();
	test_truncation();
	test_random();
	test_tag_names();
	test_tag_shortcuts();
	test_vector_tails();
	test_collapse_reference();
	test_measure_reference();
	test_text_pieces();
	test_link_words();
	test_end_tags();
	test_end_of_top();
	test_seen_start_name();
	test_seen_attr_name();
	test_deep_nesting();
	test_shortcuts_reference();
	test_short_text_reference();
	test_throughput();
	html_text_free(H);
	html_text_free(NULL);
	return test_finish("test_html_text");
}
