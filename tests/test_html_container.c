/*
 * test_html_container.c - the article's container (html_container.h).
 *
 * What must hold: content in a second text-rich part of the page (a side
 * column's story, a box of linked teasers) goes; content cut into parts
 * of a kind (the steps of a how-to), a short prose section beside the
 * article and a heading or paragraph beside it stay; nothing is ever
 * made content; a page nested too deep is left alone; it decides as the
 * plain version of it did (ref_html_container.h) on random pages; a list
 * of summaries with "Read more" links is not the article where the page
 * has lines of its own, and is the content of a page of nothing else.  First
 * on blocks made by hand (gap_depth gives the elements), then through
 * html_text.
 */
#include "html/html_blocks.h"
#include "html/html_container.h"
#include "ref_html_container.h"
#include "testhtml.h"
#include "testutil.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A classified block: @words words, @links of them in links, GOOD or not,
 * sharing an element of depth @gap with the block before. */
static struct hblock blk(uint32_t words, uint32_t links, int good, uint16_t gap)
{
	struct hblock b;
	memset(&b, 0, sizeof(b));
	b.words10 = words * 10;
	b.link_words10 = links * 10;
	b.ns_bytes = words * 6;
	b.flags = HB_SENTENCE;
	b.cls = good ? HB_GOOD : HB_BAD;
	b.gap_depth = gap;
	return b;
}

static void test_side_column_story(void)
{
	/* An article of four paragraphs (an element of depth 6 under one of
	 * depth 5), then a menu and a side column (under depth 2) with a
	 * story of its own: one GOOD paragraph of 60 words. */
	struct hblock b[] = {
		blk(5, 5, 0, 0),  blk(80, 0, 1, 3), blk(90, 2, 1, 6), blk(70, 0, 1, 6),
		blk(60, 0, 1, 6), blk(6, 6, 0, 2),  blk(6, 6, 0, 4),  blk(60, 0, 1, 5),
	};
	CHECK_EQ_U64(hblocks_container(b, 8), 4);
	CHECK(b[1].cls == HB_GOOD && b[4].cls == HB_GOOD && b[7].cls != HB_GOOD);
	CHECK(b[0].cls != HB_GOOD && b[5].cls != HB_GOOD);
}

static void test_parts_of_a_kind(void)
{
	/* Four steps of a how-to, each a caption and a paragraph in its own
	 * element (depth 5) under the article (depth 4): the top is one step,
	 * the others are as big, so the article is the top and all stay. */
	struct hblock b[] = {
		blk(3, 3, 0, 0),  blk(3, 0, 0, 4),  blk(60, 0, 1, 7), blk(3, 0, 0, 4),
		blk(50, 0, 1, 7), blk(3, 0, 0, 4),  blk(70, 0, 1, 7), blk(3, 0, 0, 4),
		blk(55, 0, 1, 7), blk(8, 8, 0, 1),
	};
	CHECK_EQ_U64(hblocks_container(b, 10), 4);
	CHECK(b[2].cls == HB_GOOD && b[4].cls == HB_GOOD && b[6].cls == HB_GOOD &&
	      b[8].cls == HB_GOOD);
}

static void test_siblings(void)
{
	/* Under one parent (depth 3): a short prose section (heading and one
	 * paragraph, no links), the article (depth 4: three paragraphs), a
	 * box of linked teasers (headline links and summaries), a lone
	 * paragraph and a lone link line. */
	struct hblock b[] = {
		blk(3, 0, 1, 0),   blk(20, 0, 1, 5),  /* short section */
		blk(100, 0, 1, 3), blk(120, 0, 1, 4), blk(110, 0, 1, 4), /* article */
		blk(6, 6, 0, 3),   blk(18, 0, 1, 5),  blk(6, 6, 0, 5), blk(18, 0, 1, 5), /* teasers */
		blk(6, 6, 0, 5),   blk(18, 0, 1, 5),
		blk(30, 0, 1, 3), /* a paragraph */
	};
	b[0].flags |= HB_HEADING;
	b[0].gap_depth = 3; /* the section: blocks 0-1, depth 5 inside */
	b[0].cls = HB_GOOD;
	struct hblock page[13];
	page[0] = blk(4, 4, 0, 0);
	memcpy(page + 1, b, sizeof(b));
	CHECK_EQ_U64(hblocks_container(page, 13), 6);
	CHECK(page[1].cls == HB_GOOD && page[2].cls == HB_GOOD); /* the short section */
	CHECK(page[3].cls == HB_GOOD && page[5].cls == HB_GOOD); /* the article */
	CHECK(page[7].cls != HB_GOOD && page[9].cls != HB_GOOD && page[11].cls != HB_GOOD);
	CHECK(page[12].cls == HB_GOOD); /* the paragraph */
}

static void test_marks_and_limits(void)
{
	/* A mark (chrome dropped inside the article) does not cut it. */
	struct hblock b[] = {blk(5, 5, 0, 0),  blk(80, 0, 1, 3), blk(90, 0, 1, 4),
			     blk(0, 0, 0, 0),  blk(70, 0, 1, 4), blk(60, 0, 1, 4)};
	b[3].flags = HB_MARK;
	b[3].cls = 5;
	CHECK_EQ_U64(hblocks_container(b, 6), 4);
	/* Deeper than 256 distinct levels: left as it was. */
	enum { N = 600 };
	struct hblock *d = calloc(N, sizeof(*d));
	CHECK(d != NULL);
	if (!d)
		return;
	for (size_t i = 0; i < N; i++)
		d[i] = blk(i % 7 ? 40 : 3, 0, i % 7 != 0, (uint16_t)(i < 300 ? i : 900 - i));
	size_t before = 0;
	for (size_t i = 0; i < N; i++)
		before += d[i].cls == HB_GOOD;
	CHECK_EQ_U64(hblocks_container(d, N), before);
	free(d);
	CHECK_EQ_U64(hblocks_container(NULL, 0), 0);
}

/* Random pages: content is only ever taken away, and the top's content
 * (some GOOD block) stays when there was any with weight. */
static void test_random(void)
{
	uint64_t r = 88172645463325252ull;
	struct hblock b[64], was[64];
	for (int round = 0; round < 20000; round++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		const size_t n = 1 + r % 64;
		int any = 0;
		for (size_t i = 0; i < n; i++) {
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			const uint32_t words = (uint32_t)(r >> 8) % 90, links = (r >> 20 & 1) ? words / 2 : 0;
			b[i] = blk(words, links, (r >> 24 & 3) != 0, (uint16_t)(i ? (r >> 32) % 9 : 0));
			if ((r >> 40 & 15) == 0)
				b[i].flags = HB_MARK, b[i].cls = 5, b[i].words10 = 0, b[i].link_words10 = 0;
			any |= b[i].cls == HB_GOOD && b[i].words10 > b[i].link_words10;
		}
		memcpy(was, b, n * sizeof(*b));
		const size_t good = hblocks_container(b, n);
		size_t counted = 0;
		for (size_t i = 0; i < n; i++) {
			CHECK(b[i].cls == was[i].cls || (was[i].cls == HB_GOOD && b[i].cls == HB_BAD));
			counted += b[i].cls == HB_GOOD;
		}
		CHECK_EQ_U64(good, counted);
		if (any)
			CHECK(good > 0);
	}
}

static uint64_t xorshift(uint64_t *r)
{
	*r ^= *r << 13, *r ^= *r >> 7, *r ^= *r << 17;
	return *r;
}

/*
 * A random page shaped like real ones: a walk that goes a few levels
 * deeper or back up, or stays (a section's paragraphs, which find_top()
 * sums), now and then a long jump (past CONTAINER_MAX_OPEN levels, to the
 * limit), marks alone and in runs longer than the 16 that a holder looks
 * past, content blocks with and without links.
 */
static void random_page(struct hblock *b, size_t n, uint64_t *r)
{
	uint32_t depth = 0;
	for (size_t i = 0; i < n; i++) {
		const uint64_t x = xorshift(r);
		switch (x % 8) {
		case 0: case 1: depth += 1 + (uint32_t)(x >> 8) % 4; break;
		case 2: depth -= depth ? 1 + (uint32_t)(x >> 8) % depth : 0; break;
		case 3: if ((x >> 12) % 64 == 0) depth += 200 + (uint32_t)(x >> 20) % 100; break;
		default: break;
		}
		if (depth > UINT16_MAX)
			depth = UINT16_MAX;
		const uint32_t words = (uint32_t)(x >> 24) % 90;
		const uint32_t links = (x >> 34 & 3) == 0 ? words / 2 : (x >> 34 & 3) == 1 ? words : 0;
		const int good = (x >> 36 & 3) != 0;
		b[i] = blk(words, links, good, (uint16_t)(i ? depth : 0));
		b[i].flags = (uint8_t)((x >> 40 & 7) == 0 ? HB_HEADING : HB_SENTENCE);
		if ((x >> 44 & 7) == 0)
			b[i].cls = (uint8_t)((x >> 48) % 6); /* SHORT, HIDDEN, chrome... */
		const size_t marks = (x >> 52 & 31) == 0 ? 1 + (x >> 57) % 24 : 0;
		for (size_t m = 0; m < marks && i + 1 < n; m++) {
			b[++i] = blk(0, 0, 0, (uint16_t)depth);
			b[i].flags = HB_MARK, b[i].cls = 5;
		}
	}
}

/* The container decides as it did before find_top() summed the weights
 * of blocks with one holder: the same content left, block by block. */
static void test_as_reference(void)
{
	enum { MAX = 600 };
	uint64_t r = 0x9E3779B97F4A7C15ull;
	struct hblock *b = calloc(MAX, sizeof(*b)), *ref = calloc(MAX, sizeof(*ref));
	CHECK(b != NULL && ref != NULL);
	for (int round = 0; b && ref && round < 20000; round++) {
		const size_t n = 1 + xorshift(&r) % (round % 10 ? 80 : MAX);
		random_page(b, n, &r);
		memcpy(ref, b, n * sizeof(*b));
		const size_t good = hblocks_container(b, n), ref_good = ref_hblocks_container(ref, n);
		CHECK_EQ_U64(good, ref_good);
		size_t differ = 0;
		for (size_t i = 0; i < n; i++)
			differ += b[i].cls != ref[i].cls;
		CHECK_EQ_U64(differ, 0);
	}
	free(b);
	free(ref);
}

static void test_pages(void)
{
	/* A news page: the article and a line of tools in one element, then
	 * a "latest" column with a story of its own. */
	const char *m = main_of(
		"<html><body><div class=page><div class=wrap><div class=story>"
		"<h1>The harbour reopens</h1>"
		"<p>The harbour reopened on Monday after a winter of repairs to the old sea wall, "
		"and the first boats came in with the morning tide, watched by a crowd on the pier.</p>"
		"<p>Work on the wall began in November, when a storm broke through its northern end "
		"and flooded the fish market; the council paid for the repairs from its reserve.</p>"
		"<p>The harbour master said that the new wall would stand for fifty years, and that "
		"the market would open again in the spring, once its floor had dried out.</p>"
		"<p>Fishermen who had moved their boats to the next town for the winter said they "
		"were glad to be back, though the repairs had cost them a season of trade.</p>"
		"</div><div class=tools>Print this page</div></div>"
		"<div class=latest><div class=feed><div class=item><h3>Latest</h3>"
		"<p>A new bakery opens on the high street this week, run by two sisters who "
		"trained in the city and came home to start a business of their own.</p>"
		"</div></div></div></div></body></html>");
	CHECK(contains(m, "The harbour reopened on Monday"));
	CHECK(contains(m, "glad to be back"));
	CHECK(!contains(m, "bakery"));
}

/* A row of a list of methods: a title, a one-line summary and
 * its link on to the page that documents it. */
#define METHOD_ROW(name, summary)                                                         \
	"<div class=row><h4 id=\"" name "\">fn " name "</h4>"                             \
	"<div class=doc><p>" summary " <a href=\"../mill/trait.Crank.html#" name "\">Read more</a>" \
	"</p></div></div>"
#define METHOD_ROWS                                                                      \
	METHOD_ROW("turn", "Turns the crank once, in the direction the mill was built for.")    \
	METHOD_ROW("stop", "Stops the crank where it stands, whatever the wind does.")         \
	METHOD_ROW("oil", "Oils the crank's bearings with the oil kept in the shed.")          \
	METHOD_ROW("count", "Counts the turns made since the mill was last cleaned out.")      \
	METHOD_ROW("rest", "Lets the crank rest for an hour after a long day of work.")        \
	METHOD_ROW("check", "Checks the crank for cracks before the harvest comes in.")

static void test_teaser_lists(void)
{
	/* A type's page: its own few lines, then the long list of a trait's
	 * methods, each a title and a summary with "Read more" (the same on
	 * every type that has the trait).  The list is the largest text of
	 * the page; it is not its article. */
	const char *m = main_of("<html><body><main><h1>Struct mill::Widget</h1>"
				"<pre>pub struct Widget { /* private fields */ }</pre>"
				"<div class=docblock><p>A widget that holds the crank of the old mill "
				"and turns it once a day.</p></div>"
				"<h2>Trait Implementations</h2><div class=impl>" METHOD_ROWS
				"</div></main></body></html>");
	CHECK(contains(m, "holds the crank of the old mill"));
	CHECK(!contains(m, "Turns the crank once"));
	CHECK(!contains(m, "Read more"));
	/* The same list alone, the trait's index of its methods: it is the
	 * page's content. */
	m = main_of("<html><body><main><h1>Methods</h1><div class=impl>" METHOD_ROWS
		    "</div></main></body></html>");
	CHECK(contains(m, "Turns the crank once"));
	CHECK(contains(m, "Checks the crank for cracks"));
	/* Paragraphs that end on a link without a sentence before it are
	 * the article's ("see the guide."), not summaries. */
	m = main_of("<html><body><div class=story>"
		    "<p>The mill was built in 1820 by the miller's grandfather, and for the "
		    "history of its sails see <a href=\"/guide\">the guide</a>.</p>"
		    "<p>Its crank was replaced twice in the last century, after storms broke it; "
		    "for the storms see <a href=\"/storms\">the records</a>.</p>"
		    "<p>The village still grinds its flour there in the autumn, as the old deeds "
		    "ask; the deeds are kept in <a href=\"/archive\">the archive</a>.</p>"
		    "</div><div class=side><p>Our shop sells flour, bread and postcards of the "
		    "mill every day of the week but Monday.</p></div></body></html>");
	CHECK(contains(m, "The mill was built in 1820"));
	CHECK(contains(m, "The village still grinds its flour"));
	/* Nor are paragraphs that each end on a link on, one after another
	 * with no title between them: rows have a title each. */
	m = main_of("<html><body><div class=story><h1>The mill</h1>"
		    "<p>The mill was built in 1820 by the miller's grandfather. "
		    "<a href=\"/history\">The history</a></p>"
		    "<p>Its crank was replaced twice in the last century, after storms. "
		    "<a href=\"/storms\">The storms</a></p>"
		    "<p>The village still grinds its flour there in the autumn. "
		    "<a href=\"/deeds\">The deeds</a></p>"
		    "</div><div class=side><p>Our shop sells flour, bread and postcards of the "
		    "mill every day of the week but Monday.</p></div></body></html>");
	CHECK(contains(m, "The mill was built in 1820"));
	CHECK(contains(m, "The village still grinds its flour"));
}

int main(void)
{
	H = html_text_new();
	CHECK(H != NULL);
	if (!H)
		return test_finish("test_html_container");
	test_side_column_story();
	test_parts_of_a_kind();
	test_siblings();
	test_marks_and_limits();
	test_random();
	test_as_reference();
	test_pages();
	test_teaser_lists();
	html_text_free(H);
	return test_finish("test_html_container");
}
