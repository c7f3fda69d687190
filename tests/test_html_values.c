/*
 * test_html_values.c - a record's fields among the content
 * (html_values.h).
 *
 * What must hold: one post on forum markups of three kinds (the profile
 * in a cell of no class word beside the text; the profile in a header
 * marked as chrome and the date above the text; several posts in a row)
 * comes out with the post's text and none of its handle, "Joined", post
 * count or date.  An article's
 * dateline above its paragraphs, a table of values and a page of nothing
 * but a date keep them.
 */
#include "html/html_values.h"
#include "testhtml.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#define TITLE "Harbour wall repairs"
#define POST "The harbour wall was repaired over the winter, and the fish market opens again."
#define REPLY "Good to hear it, the boats were moored at the old quay all winter long."

static const char *page(const char *body)
{
	static char html[4096];
	snprintf(html, sizeof(html),
		 "<html><head><title>" TITLE " - Coast Forum</title></head><body><div id=menu>"
		 "<a href=/a>Home</a> <a href=/b>Forums</a></div>%s<div id=foot>"
		 "<a href=/c>Contact</a></div></body></html>", body);
	return main_of(html);
}

static int no_fields(const char *m)
{
	return !contains(m, "jsmith_4207") && !contains(m, "Joined") && !contains(m, "Posts") &&
	       !contains(m, "2019") && !contains(m, "2024");
}

static void test_posts(void)
{
	/* the profile in a cell beside the post, the title in a cell above */
	const char *m = page("<div id=posts><table><tr><td>" TITLE "</td></tr></table>"
			     "<table><tr><td><b>jsmith_4207</b><br>Joined: March 4, 2019<br>Posts: 838</td>"
			     "<td><div>" POST "</div></td></tr></table></div>");
	CHECK(contains(m, POST) && contains(m, TITLE) && no_fields(m));
	/* the profile in a marked header, the date above the text */
	m = page("<div class=PostStream><h2>" TITLE "</h2><article><header class=Post-header>"
		 "<b>jsmith_4207</b><br>Joined: March 4, 2019<br>Posts: 838</header><div class=Post-body>"
		 "<div>May 2, 2024</div><div>" POST "</div></div></article></div>");
	CHECK(contains(m, POST) && no_fields(m));
	/* two posts in a row, each with its profile cell */
	m = page("<h1>" TITLE "</h1><div id=posts>"
		 "<table><tr><td><b>jsmith_4207</b><br>Joined: March 4, 2019</td><td>" POST "</td></tr></table>"
		 "<table><tr><td><b>ann_k2024</b><br>Posts: 12</td><td>" REPLY "</td></tr></table></div>");
	CHECK(contains(m, POST) && contains(m, REPLY) && no_fields(m) && !contains(m, "ann_k"));
}

static void test_not_fields(void)
{
	/* an article's dateline: the element of both is the whole article */
	const char *m = page("<article><h1>" TITLE "</h1><p>May 2, 2024</p><p>" POST "</p><p>" REPLY
			     "</p><p>" POST "</p></article>");
	CHECK(contains(m, "May 2, 2024"));
	/* a table of values before prose */
	m = page("<main><h1>" TITLE "</h1><p>" POST "</p><table><tr><td>nested_scopes</td><td>2.1.0b1</td>"
		 "</tr><tr><td>generators</td><td>2.2.0a1</td></tr></table><p>" REPLY "</p></main>");
	CHECK(contains(m, "2.1.0b1") && contains(m, "2.2.0a1"));
	/* nothing but values: never the page's content to nothing */
	m = page("<main><p>May 2, 2024</p></main>");
	CHECK(contains(m, "May 2, 2024"));
}

int main(void)
{
	H = html_text_new();
	if (!H)
		return 1;
	test_posts();
	test_not_fields();
	html_text_free(H);
	return test_finish("test_html_values");
}
