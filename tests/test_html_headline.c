/*
 * test_html_headline.c - the page's own headline (html_headline.h).
 *
 * What must hold: a short line right before the content that opens the
 * page's <title> is content (a forum thread's title in a table cell);
 * the same line under another <title>, a line that only starts like it
 * ("Harbour" of "Harbour wall repairs"), a linked line and a line that
 * is not right before the content (dropped chrome between passed over,
 * unless the line is a heading) are not.  A heading outside declared
 * main content right before it (a thread's title above posts that are
 * each an <article>) is the headline too, and so is a title above the
 * first post's profile and date lines when they are left out of the
 * content as a record's fields (values, util/valueline.h).
 */
#include "html/html_blocks.h"
#include "html/html_headline.h"
#include "testhtml.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

/* A one-post SMF-like thread: the title in a cell outside the post's
 * table, the profile cell, the post. */
static const char *thread(const char *title, const char *line)
{
	static char page[4096];
	snprintf(page, sizeof(page),
		 "<html><head><title>%s</title></head><body><div id=menu><a href=/a>Home</a> "
		 "<a href=/b>Forums</a></div><div id=posts><td class=titlebg>%s</td><div class=body>"
		 "<table class=p><tr><td class=w1><b>jo.smith</b><br>Posts: 12</td><td class=w2>"
		 "The harbour wall was repaired over the winter, and the fish market that flooded in "
		 "November opens again in the spring, once the floor has dried out and the council "
		 "has checked the new drains.</td></tr></table></div></div></body></html>",
		 title, line);
	return main_of(page);
}

static void test_pages(void)
{
	CHECK(contains(thread("Harbour wall repairs - Coast Forum", "Harbour wall repairs"),
		       "Harbour wall repairs\n"));
	CHECK(contains(thread("Harbour wall repairs", "Harbour wall repairs"), "Harbour wall repairs\n"));
	CHECK(!contains(thread("Coast Forum", "Harbour wall repairs"), "Harbour wall repairs"));
	CHECK(!contains(thread("Harbour wall repairs - Coast Forum", "Harbour wall"), "Harbour wall\n"));
	CHECK(!contains(thread("Harbour wall repairs - Coast Forum", "<a href=/t>Harbour wall repairs</a>"),
			"Harbour wall repairs"));
	CHECK(contains(thread("Coast Forum", "Harbour wall repairs"), "The harbour wall was repaired"));
	/* Posts that are each an <article> (declared main content) under a
	 * heading outside them: the heading is the headline; under another
	 * <title>, or with an author box between, it is not. */
	static const char *const posts =
		"<html><head><title>%s</title></head><body><h1>Harbour wall repairs</h1>%s"
		"<article><div class=u><b>jo.smith</b></div><div class=m>The harbour wall was repaired "
		"over the winter, and the fish market that flooded in November opens again.</div></article>"
		"<article><div class=u><b>ann_k</b></div><div class=m>Good to hear it.</div></article>"
		"</body></html>";
	char page[1024];
	snprintf(page, sizeof(page), posts, "Harbour wall repairs | Coast Forum", "");
	CHECK(contains(main_of(page), "Harbour wall repairs\n"));
	snprintf(page, sizeof(page), posts, "Coast Forum", "");
	CHECK(!contains(main_of(page), "Harbour wall repairs"));
	snprintf(page, sizeof(page), posts, "Harbour wall repairs | Coast Forum",
		 "<div class=author-box><b>Jo Smith</b> writes about the coast</div>");
	CHECK(!contains(main_of(page), "Harbour wall repairs"));
	/* The first post's profile and date lines between the title and
	 * the post, in cells of no class word (phpBB 2, vBulletin): a
	 * record's fields, passed over; a heading too.  A line of words
	 * there (a byline) is not. */
	static const char *const cells =
		"<html><head><title>Harbour wall repairs - Coast Forum</title></head><body>"
		"<div id=topic>%s<table><tr><td><b>jsmith_4207</b><br>Joined: March 4, 2019<br>"
		"Posts: 838</td><td><table><tr><td>May 2, 2024</td></tr><tr><td>The harbour wall was "
		"repaired over the winter, and the fish market that flooded in November opens again."
		"</td></tr></table></td></tr></table></div></body></html>";
	snprintf(page, sizeof(page), cells, "<div>Harbour wall repairs</div>");
	CHECK(contains(main_of(page), "Harbour wall repairs\n"));
	snprintf(page, sizeof(page), cells, "<h2>Harbour wall repairs</h2>");
	CHECK(contains(main_of(page), "Harbour wall repairs\n"));
	snprintf(page, sizeof(page), cells, "<div>Harbour wall repairs</div><div>Posted by the editor</div>");
	CHECK(!contains(main_of(page), "Harbour wall repairs"));
}

static struct hblock blk(uint32_t words, uint8_t cls, size_t off, uint32_t len)
{
	struct hblock b;
	memset(&b, 0, sizeof(b));
	b.words10 = words * 10;
	b.cls = cls;
	b.off = off;
	b.len = len;
	return b;
}

static void test_blocks(void)
{
	static const char text[] = "Harbour wall repairsPosted by joThe harbour wall was repaired.";
	const char *title = "Harbour wall repairs | Coast";
	/* the headline, a byline between it and the content: not right before */
	struct hblock b[3] = {blk(3, HB_SHORT, 0, 20), blk(3, HB_SHORT, 20, 12), blk(5, HB_GOOD, 32, 30)};
	hblocks_headline(b, 3, text, title, strlen(title));
	CHECK(b[0].cls == HB_SHORT && b[1].cls == HB_SHORT);
	/* a mark between the headline and the content is passed over */
	b[1] = blk(0, 5, 0, 0);
	b[1].flags = HB_MARK;
	hblocks_headline(b, 3, text, title, strlen(title));
	CHECK(b[0].cls == HB_GOOD);
	/* dropped chrome between (an author cell) is passed over too, but
	 * not to a heading: that is the heading rule's */
	b[1] = blk(3, 5, 20, 12);
	b[0].cls = HB_SHORT;
	hblocks_headline(b, 3, text, title, strlen(title));
	CHECK(b[0].cls == HB_GOOD);
	b[0].cls = HB_SHORT;
	b[0].flags = HB_HEADING;
	hblocks_headline(b, 3, text, title, strlen(title));
	CHECK(b[0].cls == HB_SHORT);
	b[1].flags = HB_MARK;
	hblocks_headline(b, 3, text, title, strlen(title));
	CHECK(b[0].cls == HB_GOOD);
	/* chrome, or no content at all: nothing */
	b[0] = blk(3, HB_SHORT, 0, 20);
	b[0].flags = HB_SOFT;
	hblocks_headline(b, 3, text, title, strlen(title));
	CHECK(b[0].cls == HB_SHORT);
	b[0].flags = 0;
	b[2].cls = HB_BAD;
	hblocks_headline(b, 3, text, title, strlen(title));
	CHECK(b[0].cls == HB_SHORT);
	/* a value left out of the content (a post's date) is passed over,
	 * to a heading too; a line of words is not */
	static const char dated[] = "Harbour wall repairs2 May 2024The harbour wall was repaired.";
	b[0] = blk(3, HB_SHORT, 0, 20);
	b[0].flags = HB_HEADING;
	b[1] = blk(3, HB_SHORT, 20, 10);
	b[2] = blk(5, HB_GOOD, 30, 30);
	hblocks_headline(b, 3, dated, title, strlen(title));
	CHECK(b[0].cls == HB_GOOD);
	static const char posted[] = "Harbour wall repairsPosted by joeThe harbour wall was repaired.";
	b[0].cls = HB_SHORT;
	hblocks_headline(b, 3, posted, title, strlen(title));
	CHECK(b[0].cls == HB_SHORT);
	hblocks_headline(NULL, 0, text, title, strlen(title));
}

int main(void)
{
	H = html_text_new();
	CHECK(H != NULL);
	if (!H)
		return test_finish("test_html_headline");
	test_pages();
	test_blocks();
	html_text_free(H);
	return test_finish("test_html_headline");
}
