/*
 * test_html_posts.c - the posts of a thread (html_posts.h).
 *
 * What must hold: in a run of sibling elements of one shape whose body
 * holds content, every post's body becomes content however short, and
 * the line before the run (the thread's title) too; each other line is
 * content in every post or in none, as in most of them; rows that point
 * to other pages, a run with no content, a single post and a lone
 * paragraph are left alone; on any input a block only becomes content
 * or, from content, BAD.  A post made of two sibling elements in turn
 * (a row of text, a row of controls) is a run too.  First on
 * blocks made by hand (gap_depth gives the elements), then through
 * html_text on a thread in div and in table markup.
 */
#include "html/html_blocks.h"
#include "html/html_posts.h"
#include "html/html_runs.h"
#include "ref_html_runs.h"
#include "testhtml.h"
#include "testutil.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct hblock blk(uint32_t words, uint32_t links, uint8_t cls, uint16_t gap)
{
	struct hblock b;
	memset(&b, 0, sizeof(b));
	b.words10 = words * 10;
	b.link_words10 = links * 10;
	b.ns_bytes = words * 6;
	b.cls = cls;
	b.gap_depth = gap;
	return b;
}

/* A title (depth 5 with the posts' parent), then @n posts under one
 * element of depth 6: a name and a date (short lines of the post's
 * profile cell, depth 9), then the text (depth 8); the first text is
 * GOOD, the others short.  @return the blocks made. */
static size_t thread_rows(struct hblock *b, size_t n, int controls)
{
	size_t k = 0;
	b[k++] = blk(4, 4, HB_BAD, 0);
	b[k++] = blk(6, 0, HB_SHORT, 3);
	for (size_t p = 0; p < n; p++) {
		b[k++] = blk(1, 0, HB_SHORT, p ? 6 : 5);
		b[k++] = blk(3, 0, HB_SHORT, 9);
		b[k++] = blk(p ? 8 : 45, 0, p ? HB_SHORT : HB_GOOD, 8);
		if (controls) { /* thread2()'s row of controls after each post */
			b[k++] = blk(1, 1, HB_BAD, 6);
			b[k++] = blk(2, 2, HB_BAD, 8);
		}
	}
	b[k++] = blk(5, 5, HB_BAD, 2);
	return k;
}

static size_t thread(struct hblock *b, size_t n)
{
	return thread_rows(b, n, 0);
}

static void test_thread(void)
{
	struct hblock b[32];
	const size_t n = thread(b, 4);
	CHECK_EQ_U64(hblocks_posts(b, n), 5);
	CHECK(b[1].cls == HB_GOOD); /* the title */
	for (size_t p = 0; p < 4; p++) {
		CHECK(b[4 + 3 * p].cls == HB_GOOD);
		CHECK(b[2 + 3 * p].cls == HB_SHORT && b[3 + 3 * p].cls == HB_SHORT);
	}
	CHECK(b[0].cls == HB_BAD && b[n - 1].cls == HB_BAD);
	/* The same with a mark (a dropped <header>) opening each post. */
	struct hblock f[32], m[40];
	const size_t nf = thread(f, 4);
	size_t k = 0;
	for (size_t i = 0; i < nf; i++) {
		if (i >= 2 && i < nf - 1 && (i - 2) % 3 == 0) {
			m[k] = blk(0, 0, 5, 0);
			m[k++].flags = HB_MARK;
		}
		m[k++] = f[i];
	}
	CHECK_EQ_U64(hblocks_posts(m, k), 5);
	CHECK(m[5].cls == HB_GOOD && m[k - 2].cls == HB_GOOD);
}

/* The run finder alone: the thread's posts are one run of three blocks
 * each (marks not counted), reported once; with pointers breaking, a
 * post holding a pointer ends it. */
struct seen {
	size_t runs;
	struct hrun last;
};

static void note(struct hblock *b, const struct hrun *r, void *ctx)
{
	struct seen *const s = ctx;
	(void)b;
	s->runs++;
	s->last = *r;
}

static void test_runs(void)
{
	struct hblock b[32];
	const size_t n = thread(b, 4);
	struct seen s = {0, {0, 0, 0}};
	hblocks_runs(b, n, 1, note, &s);
	CHECK_EQ_U64(s.runs, 1);
	CHECK(s.last.start == 2 && s.last.len == 3 && s.last.count == 4);
	b[8].pointer = HB_PTR_LINE; /* the third post's name */
	s.runs = 0;
	hblocks_runs(b, n, 1, note, &s);
	CHECK_EQ_U64(s.runs, 1);
	CHECK(s.last.start == 2 && s.last.count == 2);
	s.runs = 0;
	hblocks_runs(b, n, 0, note, &s);
	CHECK(s.runs == 1 && s.last.count == 4);
}

/* A post in two sibling elements, one after the other (a table's row
 * with the profile and the text, then a row of controls: "Top", "Quote"):
 * the children alternate between two shapes, so the run has period 2 and
 * a post is the pair, five blocks lined up by position. */
static size_t thread2(struct hblock *b, size_t n)
{
	return thread_rows(b, n, 1);
}

static void test_periodic(void)
{
	struct hblock b[40];
	size_t n = thread2(b, 4);
	struct seen s = {0, {0, 0, 0}};
	hblocks_runs(b, n, 1, note, &s);
	CHECK(s.runs == 1 && s.last.start == 2 && s.last.len == 5 && s.last.count == 4);
	CHECK_EQ_U64(hblocks_posts(b, n), 5);
	CHECK(b[1].cls == HB_GOOD);
	for (size_t p = 0; p < 4; p++)
		CHECK(b[4 + 5 * p].cls == HB_GOOD && b[5 + 5 * p].cls == HB_BAD);
	/* A post of one row and a lone line between posts: a child of one
	 * block has no shape, so nothing repeats. */
	n = thread2(b, 4);
	for (size_t p = 0; p < 4; p++)
		b[6 + 5 * p].gap_depth = 9; /* "Quote" joins "Top": one block's child */
	struct hblock m[40];
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (i < 6 || (i - 6) % 5)
			m[k++] = b[i];
	s.runs = 0;
	hblocks_runs(m, k, 1, note, &s);
	CHECK_EQ_U64(s.runs, 0);
	/* Two groups, then more of the second shape: a run of period 1
	 * follows, from the child after the groups (no block in two runs). */
	k = 0;
	m[k++] = blk(6, 0, HB_SHORT, 0);
	for (size_t c = 0; c < 6; c++) {
		m[k++] = blk(2, 0, HB_SHORT, c ? 6 : 5);
		if (c == 0 || c == 2)
			m[k++] = blk(2, 0, HB_SHORT, 9);
		m[k++] = blk(5, 0, HB_SHORT, 8);
	}
	s.runs = 0;
	hblocks_runs(m, k, 1, note, &s);
	CHECK(s.runs == 2 && s.last.start == 11 && s.last.len == 2 && s.last.count == 2);
	/* Posts of one element each still make a run of period 1, not 2. */
	n = thread(b, 4);
	s.runs = 0;
	hblocks_runs(b, n, 1, note, &s);
	CHECK(s.runs == 1 && s.last.len == 3 && s.last.count == 4);
}

/* Posts alike: a line other than the body (a date) is content in every
 * post when it was in half of them or more, else in none. */
static void test_alike(void)
{
	struct hblock b[32];
	size_t n = thread(b, 3);
	b[3].cls = HB_GOOD; /* the date of the first two posts */
	b[6].cls = HB_GOOD;
	hblocks_posts(b, n);
	CHECK(b[3].cls == HB_GOOD && b[6].cls == HB_GOOD && b[9].cls == HB_GOOD);
	CHECK(b[2].cls == HB_SHORT && b[5].cls == HB_SHORT && b[8].cls == HB_SHORT);
	n = thread(b, 3);
	b[9].cls = HB_GOOD; /* the last post's only */
	hblocks_posts(b, n);
	CHECK(b[3].cls == HB_SHORT && b[6].cls == HB_SHORT && b[9].cls == HB_BAD);
}

static void test_left_alone(void)
{
	struct hblock b[32], was[32];
	/* One post: no run. */
	size_t n = thread(b, 1);
	memcpy(was, b, sizeof(b));
	CHECK_EQ_U64(hblocks_posts(b, n), 1);
	CHECK(memcmp(b, was, n * sizeof(*b)) == 0);
	/* No content in the run (the classifier found none there). */
	n = thread(b, 3);
	b[4].cls = HB_SHORT;
	memcpy(was, b, sizeof(b));
	CHECK_EQ_U64(hblocks_posts(b, n), 0);
	CHECK(memcmp(b, was, n * sizeof(*b)) == 0);
	/* Rows pointing elsewhere: a linked title and its summary, in turn. */
	n = thread(b, 3);
	for (size_t p = 0; p < 3; p++)
		b[2 + 3 * p].pointer = HB_PTR_ENTRY;
	memcpy(was, b, sizeof(b));
	hblocks_posts(b, n);
	CHECK(memcmp(b, was, n * sizeof(*b)) == 0);
	/* Bodies that are links through and through stay out. */
	n = thread(b, 3);
	b[7].link_words10 = b[7].words10;
	hblocks_posts(b, n);
	CHECK(b[7].cls == HB_SHORT && b[10].cls == HB_GOOD);
	/* Paragraphs one after another: children of one block, no run. */
	struct hblock p[6];
	for (size_t i = 0; i < 6; i++)
		p[i] = blk(i % 2 ? 50 : 5, 0, i % 2 ? HB_GOOD : HB_SHORT, i ? 4 : 0);
	memcpy(was, p, sizeof(p));
	CHECK_EQ_U64(hblocks_posts(p, 6), 3);
	CHECK(memcmp(p, was, sizeof(p)) == 0);
	CHECK_EQ_U64(hblocks_posts(NULL, 0), 0);
}

/* Random blocks: a block only becomes content or stops being it, the count is right,
 * and pages deeper than POSTS_MAX_DEPTH or of 100,000 blocks are read
 * through. */
static void test_random(void)
{
	uint64_t r = 0x9e3779b97f4a7c15ull;
	struct hblock b[96], was[96];
	for (int round = 0; round < 20000; round++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		const size_t n = 1 + r % 96;
		for (size_t i = 0; i < n; i++) {
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			b[i] = blk((uint32_t)(r >> 8) % 60, (r >> 20 & 3) ? 0 : (uint32_t)(r >> 8) % 20,
				   (uint8_t)((r >> 24) % 6), (uint16_t)(i ? (r >> 32) % 7 : 0));
			if ((r >> 40 & 15) == 0)
				b[i].flags = HB_MARK, b[i].cls = 5, b[i].words10 = 0, b[i].link_words10 = 0;
			b[i].pointer = (r >> 44 & 15) == 0;
		}
		memcpy(was, b, n * sizeof(*b));
		const size_t good = hblocks_posts(b, n);
		size_t counted = 0;
		for (size_t i = 0; i < n; i++) {
			CHECK(b[i].cls == was[i].cls || (b[i].cls == HB_GOOD && was[i].cls < HB_GOOD) ||
			      (was[i].cls == HB_GOOD && b[i].cls == HB_BAD));
			counted += b[i].cls == HB_GOOD;
		}
		CHECK_EQ_U64(good, counted);
	}
	enum { N = 100000 };
	struct hblock *d = calloc(N, sizeof(*d));
	CHECK(d != NULL);
	if (!d)
		return;
	for (size_t i = 0; i < N; i++) /* 700 levels down and back, then posts */
		d[i] = blk(i % 3 == 2 ? 30 : 2, 0, i % 3 == 2 ? HB_GOOD : HB_SHORT,
			   (uint16_t)(i < 700 ? i : i < 1400 ? 1400 - i : i % 3 ? 9 : 6));
	size_t good = hblocks_posts(d, N);
	CHECK(good >= N / 3 - 1);
	free(d);
}

static void test_pages(void)
{
	/* div markup: the profile cell is chrome by its class (author), the
	 * short posts are promoted by the long one's side. */
	const char *m = main_of(
		"<html><body><div id=posts><div class=thead>Harbour wall repairs</div><div class=body>"
		"<div class=post><div class=post_author><b>jo.smith</b><br>Joined: May 2019</div>"
		"<div class=post_content><div class=post_body>The harbour wall was repaired over the "
		"winter, and the fish market that flooded in November opens again in the spring, "
		"once the floor has dried out and the council has checked the new drains.</div></div></div>"
		"<div class=post><div class=post_author><b>ann_k</b><br>Joined: June 2020</div>"
		"<div class=post_content><div class=post_body>Good to hear it.</div></div></div>"
		"<div class=post><div class=post_author><b>pete</b><br>Joined: July 2021</div>"
		"<div class=post_content><div class=post_body>Will the boats come back?</div></div></div>"
		"</div></div><div class=menu><a href=/a>Home</a> <a href=/b>Forums</a></div></body></html>");
	CHECK(contains(m, "Harbour wall repairs\nThe harbour wall"));
	CHECK(contains(m, "Good to hear it.") && contains(m, "Will the boats come back?"));
	CHECK(!contains(m, "Joined") && !contains(m, "Forums"));
	/* Table markup: each post a table, its profile in a cell of no class
	 * word, the title a cell of the layout table. */
	m = main_of(
		"<html><body><table><tr><td class=titlebg>Harbour wall repairs</td></tr><tr><td>"
		"<table class=p><tr><td class=w1><b>jo.smith</b><br>Posts: 12</td><td class=w2>"
		"The harbour wall was repaired over the winter, and the fish market that flooded in "
		"November opens again in the spring, once the floor has dried out and the council "
		"has checked the new drains.</td></tr></table>"
		"<table class=p><tr><td class=w1><b>ann_k</b><br>Posts: 3</td><td class=w2>"
		"Good to hear it.</td></tr></table>"
		"<table class=p><tr><td class=w1><b>pete</b><br>Posts: 40</td><td class=w2>"
		"Will the boats come back?</td></tr></table>"
		"</td></tr></table></body></html>");
	CHECK(contains(m, "Good to hear it.") && contains(m, "Will the boats come back?"));
	CHECK(contains(m, "The harbour wall was repaired"));
	/* Each post two rows of one table: the profile and the text, then
	 * the controls; every post's text is content, the controls are not. */
	m = main_of(
		"<html><body><table class=t><tr><th>Author</th><th>Message</th></tr>"
		"<tr><td><b>jo.smith</b><br>Posts: 12</td><td>The harbour wall was repaired over the "
		"winter, and the fish market that flooded in November opens again in the spring, once "
		"the floor has dried out and the council has checked the new drains.</td></tr>"
		"<tr><td><a href=#top>Top</a></td><td><a href=/q?p=1>Quote</a> <a href=/pm?u=1>Message</a></td></tr>"
		"<tr><td><b>ann_k</b><br>Posts: 3</td><td>Good to hear it.</td></tr>"
		"<tr><td><a href=#top>Top</a></td><td><a href=/q?p=2>Quote</a> <a href=/pm?u=2>Message</a></td></tr>"
		"<tr><td><b>pete</b><br>Posts: 40</td><td>Will the boats come back?</td></tr>"
		"<tr><td><a href=#top>Top</a></td><td><a href=/q?p=3>Quote</a> <a href=/pm?u=3>Message</a></td></tr>"
		"</table><div class=menu><a href=/a>Home</a> <a href=/b>Forums</a></div></body></html>");
	CHECK(contains(m, "The harbour wall was repaired"));
	CHECK(contains(m, "Good to hear it.") && contains(m, "Will the boats come back?"));
	CHECK(!contains(m, "Quote") && !contains(m, "Forums"));
}

/* The runs reported, in order, as a list to compare. */
struct reports {
	size_t n;
	struct hrun r[512];
};

static void report(struct hblock *b, const struct hrun *r, void *ctx)
{
	struct reports *const s = ctx;
	(void)b;
	if (s->n < sizeof(s->r) / sizeof(s->r[0]))
		s->r[s->n] = *r;
	s->n++;
}

static uint64_t next(uint64_t *r)
{
	*r ^= *r << 13, *r ^= *r >> 7, *r ^= *r << 17;
	return *r;
}

/*
 * A random page of records that repeat: a record is a few blocks whose
 * gaps below its element's depth are drawn once and then written again
 * and again (sometimes with a block changed, a mark put in, a pointer, a
 * heading), between single blocks, long children and jumps of depth.
 */
static size_t record_page(struct hblock *b, size_t cap, uint64_t *r)
{
	size_t k = 0;
	uint16_t depth = 1;
	while (k < cap) {
		const uint64_t x = next(r);
		depth = (uint16_t)(x % 5 == 0 ? 1 + (x >> 8) % 12 : depth);
		const size_t len = 1 + (x >> 16) % 5, reps = 1 + (x >> 20) % 7;
		uint16_t rel[5];
		for (size_t j = 0; j < len; j++)
			rel[j] = (uint16_t)(1 + (x >> (24 + 3 * j)) % 3);
		for (size_t rep = 0; rep < reps && k < cap; rep++)
			for (size_t j = 0; j < len && k < cap; j++) {
				const uint64_t y = next(r);
				b[k] = blk(1 + y % 9, (y >> 8 & 7) == 0 ? 2 : 0, HB_SHORT,
					   (uint16_t)(j ? depth + rel[j] : depth));
				if (!k)
					b[k].gap_depth = 0;
				if ((y >> 12 & 31) == 0)
					b[k].gap_depth = (uint16_t)(depth + 1 + (y >> 20) % 4);
				if ((y >> 17 & 15) == 0)
					b[k].flags |= HB_HEADING;
				if ((y >> 21 & 31) == 0)
					b[k].pointer = HB_PTR_LINE;
				if ((y >> 26 & 31) == 0)
					b[k].flags = HB_MARK;
				k++;
			}
		if ((x >> 40 & 15) == 0) /* a long child: one element of many blocks */
			for (size_t j = 0; j < 60 && k < cap; j++, k++)
				b[k] = blk(3, 0, HB_SHORT, (uint16_t)(depth + 1 + (j ? 1 : 0)));
	}
	return k;
}

/* The run finder reports the runs the plain one did (ref_html_runs.h),
 * in the same order, with and without pointers breaking them. */
static void test_runs_as_reference(void)
{
	enum { MAX = 400 };
	static struct hblock b[MAX];
	static struct reports got, want;
	uint64_t r = 0x2545F4914F6CDD1Dull;
	size_t reported = 0;
	for (int round = 0; round < 20000; round++) {
		const size_t n = record_page(b, 1 + next(&r) % MAX, &r);
		for (int pb = 0; pb < 2; pb++) {
			got.n = want.n = 0;
			hblocks_runs(b, n, pb, report, &got);
			ref_hblocks_runs(b, n, pb, report, &want);
			CHECK_EQ_U64(got.n, want.n);
			const size_t m = got.n < want.n ? got.n : want.n;
			CHECK(!memcmp(got.r, want.r, (m < 512 ? m : 512) * sizeof(got.r[0])));
			reported += got.n;
		}
	}
	CHECK(reported > 20000); /* runs were found to compare */
}

int main(void)
{
	H = html_text_new();
	CHECK(H != NULL);
	if (!H)
		return test_finish("test_html_posts");
	test_runs();
	test_runs_as_reference();
	test_thread();
	test_periodic();
	test_alike();
	test_left_alone();
	test_random();
	test_pages();
	html_text_free(H);
	return test_finish("test_html_posts");
}
