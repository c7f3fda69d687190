/*
 * test_template.c - the template pass: hosts, learning (template blocks
 * repeat over distinct pages; near-duplicate pages of one host count
 * once, so their shared paragraphs stay content), the main-text decision
 * (template out, fallback to all non-template text, nothing left),
 * template records and the templates file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "format/docrec.h"
#include "format/ndf.h"
#include "format/tplrec.h"
#include "template/blockset.h"
#include "template/decide.h"
#include "template/host.h"
#include "template/hostlearn.h"
#include "template/learn.h"
#include "template/pagesig.h"
#include "template/tplset.h"
#include "testutil.h"

static uint64_t key(const char *url)
{
	return host_key(url, strlen(url));
}

static void test_host(void)
{
	char name[64];
	CHECK(key("http://www.Example.COM/a") == key("https://example.com:8443/b?c"));
	CHECK(key("http://user:pw@www.example.com./x") == key("http://example.com"));
	CHECK(key("http://blog.example.com/") != key("http://example.com/"));
	CHECK(key("http://www.com/") != key("http://com/"));
	CHECK(key("http://[::1]:80/") == key("http://[::1]/"));
	CHECK(key("pages/a.html") == 0 && key("http:///x") == 0 && key("") == 0);
	CHECK(key("1ttp://example.com/") != 0);
	CHECK(key("ht tp://example.com/") == 0);
	CHECK(host_name("HTTP://WWW.Example.com:80/", 26, name, sizeof name) == 11 &&
	      !strcmp(name, "example.com"));
	CHECK(host_name("http://www.example.com/", 23, name, 5) == 4 && !strcmp(name, "exam"));
}

/* Page @i's blocks: the template's, then its own. */
static const uint64_t T1 = 0x1000, T2 = 0x2000, T3 = 0x3000;

static int has(const uint64_t *h, size_t n, uint64_t x)
{
	for (size_t i = 0; i < n; i++)
		if (h[i] == x)
			return 1;
	return 0;
}

/* The keys of @h (@n) that are not core keys (learn.h), in order, into
 * @out; @return how many. */
static size_t plain_keys(const uint64_t *h, size_t n, uint64_t *out)
{
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (!has(h, n, tpl_core_hash(h[i])))
			out[u++] = h[i];
	return u;
}

static void test_learn(void)
{
	const struct tpl_params p = TPL_PARAMS_DEFAULT;
	struct tpl_learner *l = tpl_learner_new();
	CHECK(l != NULL);
	if (!l)
		return;
	/* Five different articles in one chrome: T1, T2 on all, T3 on two. */
	uint64_t blocks[5][5];
	struct tpl_page pages[8];
	for (int i = 0; i < 5; i++) {
		blocks[i][0] = T1;
		blocks[i][1] = 0x100 + (uint64_t)i;
		blocks[i][2] = T2;
		blocks[i][3] = i < 2 ? T3 : 0x200 + (uint64_t)i;
		blocks[i][4] = T1; /* repeated on the page: counts once */
		pages[i] = (struct tpl_page){XXH3_64bits(&i, sizeof i), 5, blocks[i], NULL, NULL};
	}
	const uint64_t *h;
	size_t n;
	uint32_t g;
	CHECK(tpl_learn(l, pages, 5, &p, &h, &n, &g) == 0);
	uint64_t pk[8];
	/* T1 and T2, on every page, are core as well */
	CHECK(g == 5 && n == 4 && plain_keys(h, n, pk) == 2 && pk[0] == T1 && pk[1] == T2 &&
	      has(h, n, tpl_core_key(T1)) && has(h, n, tpl_core_key(T2)));
	/* Two distinct pages are too few. */
	CHECK(tpl_learn(l, pages, 2, &p, &h, &n, &g) == 0 && g == 2 && n == 0);
	CHECK(tpl_learn(l, pages, 0, &p, &h, &n, &g) == 0 && g == 0 && n == 0);

	/*
	 * The same article at three URLs of the host (signatures a few bits
	 * apart) beside two other articles: its paragraphs are on three
	 * pages, but on one distinct page, so they stay content; the chrome
	 * (T1, on all five) is template.
	 */
	const uint64_t sig = 0x0123456789abcdefull;
	uint64_t dup[3][4], other[2][3];
	for (int i = 0; i < 3; i++) {
		dup[i][0] = T1;
		dup[i][1] = 0xA1;
		dup[i][2] = 0xA2;
		dup[i][3] = 0xA3 + (uint64_t)i; /* an edited paragraph */
		pages[i] = (struct tpl_page){sig ^ (uint64_t)(i ? 0x7 << (i * 4) : 0), 4, dup[i], NULL, NULL};
	}
	for (int i = 0; i < 2; i++) {
		other[i][0] = T1;
		other[i][1] = 0xB0 + (uint64_t)i;
		other[i][2] = 0xC0 + (uint64_t)i;
		pages[3 + i] = (struct tpl_page){~sig ^ (0xffffull << (16 * i)), 3, other[i], NULL, NULL};
	}
	CHECK(tpl_learn(l, pages, 5, &p, &h, &n, &g) == 0);
	CHECK(g == 3 && n == 2 && plain_keys(h, n, pk) == 1 && pk[0] == T1);
	CHECK(!has(h, n, 0xA1) && !has(h, n, 0xA2));
	/* Counted as five pages (near_bits 0), they would have been template:
	 * the test can fail. */
	struct tpl_params p0 = p;
	p0.near_bits = 0;
	CHECK(tpl_learn(l, pages, 5, &p0, &h, &n, &g) == 0 && g == 5 && has(h, n, 0xA1));
	/* A host whose pages are all copies of one page learns nothing. */
	for (int i = 0; i < 5; i++)
		pages[i] = (struct tpl_page){sig, 4, dup[i % 3], NULL, NULL};
	CHECK(tpl_learn(l, pages, 5, &p, &h, &n, &g) == 0 && g == 1 && n == 0);
	/* The share: with 300 distinct pages T = 3, with share 2 % T = 6. */
	static uint64_t many[300][2];
	static struct tpl_page mp[300];
	for (int i = 0; i < 300; i++) {
		many[i][0] = i < 5 ? T3 : 0x10000 + (uint64_t)i;
		many[i][1] = T1;
		mp[i] = (struct tpl_page){XXH3_64bits(&i, sizeof i), 2, many[i], NULL, NULL};
	}
	CHECK(tpl_learn(l, mp, 300, &p, &h, &n, &g) == 0 && g == 300 && n == 3 && has(h, n, T3) &&
	      !has(h, n, tpl_core_key(T3)) && has(h, n, tpl_core_key(T1)));
	struct tpl_params p2 = p;
	p2.share_pct = 2;
	CHECK(tpl_learn(l, mp, 300, &p2, &h, &n, &g) == 0 && n == 2 && plain_keys(h, n, pk) == 1 &&
	      pk[0] == T1);
	tpl_learner_free(l);
	tpl_learner_free(NULL);
}

/*
 * Learning by role: a thread's title and first line (Q1, Q2) are its own
 * text (the page model's content) on its page and pointers in "recent
 * topics" on four others; the chrome (T1) is on all, and a link list
 * (T2) is a pointer everywhere.
 * Counted by hash alone Q1 and Q2 were template on five pages and lost
 * from the thread; by role they are quoted: template only as pointers.
 */
static void test_learn_roles(void)
{
	const struct tpl_params p = TPL_PARAMS_DEFAULT;
	struct tpl_learner *l = tpl_learner_new();
	CHECK(l != NULL);
	if (!l)
		return;
	const uint64_t Q1 = 0x51, Q2 = 0x52;
	uint64_t body[5][5 + 2]; /* 5 hashes, their pointer and content bitmaps */
	struct tpl_page pages[5];
	for (int i = 0; i < 5; i++) {
		body[i][0] = T1;
		body[i][1] = Q1;
		body[i][2] = Q2;
		body[i][3] = T2;
		body[i][4] = 0x100 + (uint64_t)i;
		/* page 0 is the thread: Q1, Q2 its own content; elsewhere pointers */
		body[i][5] = (i ? 0x6u : 0) | 0x8u;
		body[i][6] = 0x16u;
		pages[i] = (struct tpl_page){XXH3_64bits(&i, sizeof i), 5, body[i], body[i] + 5,
					     body[i] + 6};
	}
	const uint64_t *h;
	size_t n;
	uint32_t g;
	CHECK(tpl_learn(l, pages, 5, &p, &h, &n, &g) == 0 && g == 5);
	/* T1, chrome on every page, is core too; quoted blocks never are */
	CHECK(n == 5 && has(h, n, T1) && has(h, n, tpl_core_key(T1)) &&
	      has(h, n, tpl_quoted_key(T2)) && !has(h, n, T2) && !has(h, n, tpl_core_key(T2)));
	CHECK(has(h, n, tpl_quoted_key(Q1)) && has(h, n, tpl_quoted_key(Q2)));
	CHECK(!has(h, n, Q1) && !has(h, n, Q2));
	for (size_t k = 1; k < n; k++)
		CHECK(h[k - 1] < h[k]);
	/* Met once in the chrome (not a pointer, not content), Q2 is chrome. */
	body[0][6] = 0x12u;
	CHECK(tpl_learn(l, pages, 5, &p, &h, &n, &g) == 0 && has(h, n, Q2) &&
	      !has(h, n, tpl_quoted_key(Q2)) && has(h, n, tpl_quoted_key(Q1)));
	/* Its own text on three distinct pages is the host's chrome. */
	for (int i = 0; i < 3; i++)
		body[i][5] = 0x8u;
	CHECK(tpl_learn(l, pages, 5, &p, &h, &n, &g) == 0 && has(h, n, Q1) &&
	      !has(h, n, tpl_quoted_key(Q1)));
	/* A pointer on two pages and content on one: T in neither role. */
	for (int i = 0; i < 5; i++)
		body[i][5] = (i == 1 || i == 2 ? 0x2u : 0) | 0x8u;
	body[0][6] = 0x16u;
	for (int i = 3; i < 5; i++)
		body[i][1] = 0x300 + (uint64_t)i;
	CHECK(tpl_learn(l, pages, 5, &p, &h, &n, &g) == 0 && !has(h, n, Q1) &&
	      !has(h, n, tpl_quoted_key(Q1)));
	for (int i = 3; i < 5; i++)
		body[i][1] = Q1;
	/* Without role bits every block counts as not a pointer, as before. */
	for (int i = 0; i < 5; i++)
		pages[i].pointer = pages[i].content = NULL;
	CHECK(tpl_learn(l, pages, 5, &p, &h, &n, &g) == 0 && n == 8 && has(h, n, Q1) &&
	      has(h, n, T2) && has(h, n, tpl_core_key(Q1)));
	tpl_learner_free(l);
}

/* A document of @n blocks: texts @t, flags @f; hashes from the text. */
struct testdoc {
	struct doc_record d;
	char all[4096];
	uint8_t raw[16 * DOCBLOCK_MAX_SIZE];
	char text[4096];
};

static void make_doc(struct testdoc *x, int n, const char *const *t, const uint8_t *f)
{
	size_t len = 0, tl = 0;
	uint8_t *r;
	memset(x, 0, sizeof *x);
	r = x->raw;
	for (int i = 0; i < n; i++) {
		const size_t k = strlen(t[i]);
		if (len)
			x->all[len++] = '\n';
		memcpy(x->all + len, t[i], k);
		len += k;
		r = docblock_encode(r, (uint32_t)k, f[i]);
		if (f[i] & DB_CONTENT) {
			if (tl)
				x->text[tl++] = '\n';
			memcpy(x->text + tl, t[i], k);
			tl += k;
		}
	}
	x->d.all_text = (struct str){x->all, (uint32_t)len};
	x->d.blocks = (struct str){(const char *)x->raw, (uint32_t)(r - x->raw)};
	x->d.n_blocks = (uint32_t)n;
	x->d.text = (struct str){x->text, (uint32_t)tl};
}

static int text_is(struct str s, const char *want)
{
	return s.n == strlen(want) && !memcmp(s.p, want, s.n);
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The set against a binary search of the same hashes: random hashes,
 * repeats, 0, and hashes that share their low 32 bits (the slot comes
 * from a multiply, so they must not all collide). */
static void test_blockset(void)
{
	enum { N = 5000 };
	static uint64_t v[N], sorted[N];
	uint64_t x = 88172645463325252ull;
	for (int i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v[i] = i % 10 == 0 ? (uint64_t)i << 32 : i % 7 == 0 ? v[i / 2] : x;
	}
	v[N - 1] = 0;
	struct blockset s;
	CHECK(blockset_build(&s, v, N) == 0);
	memcpy(sorted, v, sizeof v);
	qsort(sorted, N, sizeof *sorted, cmp_u64);
	size_t distinct = 0;
	for (int i = 0; i < N; i++)
		distinct += !i || sorted[i] != sorted[i - 1];
	CHECK(s.n == distinct && s.has_zero && blockset_has(&s, 0));
	int bad = 0;
	for (int i = 0; i < 4 * N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		const uint64_t h = i < N ? v[i] : i < 2 * N ? (uint64_t)i << 32 : x;
		const int want = bsearch(&h, sorted, N, sizeof *sorted, cmp_u64) != NULL;
		bad += blockset_has(&s, h) != want;
	}
	CHECK(bad == 0);
	blockset_free(&s);
	CHECK(!blockset_has(&s, 1) && !blockset_has(&s, 0));
	CHECK(blockset_build(&s, v + 1, 1) == 0 && !s.has_zero && blockset_has(&s, v[1]) &&
	      !blockset_has(&s, 0));
	blockset_free(&s);
}

static void test_decide(void)
{
	static const char *const t[] = {
		"Home News Sport",                          /* 0 template, links */
		"The site's shared subtitle under every headline.", /* 1 template, the page model's pick */
		"First paragraph of the article, which the page model missed because it sits in an odd container.",
		"Second paragraph of the article, just as long and just as missed by the page model here.",
		"Advertisement",                            /* 4 template */
		"Copyright the site",                       /* 5 template */
	};
	uint64_t tpl[4];
	const int ti[4] = {0, 1, 4, 5};
	for (int i = 0; i < 4; i++)
		tpl[i] = XXH3_64bits(t[ti[i]], strlen(t[ti[i]]));
	struct blockset set;
	CHECK(blockset_build(&set, tpl, 4) == 0);
	struct tpl_buf buf = {0};
	struct str text;
	struct testdoc x;

	/* The page model kept only the shared subtitle: all non-template text. */
	const uint8_t f1[] = {0, DB_CONTENT, 0, DB_SOFT, 0, 0};
	make_doc(&x, 6, t, f1);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
	CHECK(text_is(text, "First paragraph of the article, which the page model missed because it "
			    "sits in an odd container.\nSecond paragraph of the article, just as long "
			    "and just as missed by the page model here."));
	/* Without templates, or when no content block is template: the page's. */
	CHECK(tpl_decide(&x.d, NULL, &buf, &text) == TPL_PAGE && text_is(text, t[1]));
	const uint8_t f2[] = {0, 0, DB_CONTENT, DB_CONTENT, 0, 0};
	make_doc(&x, 6, t, f2);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_PAGE && text.n == x.d.text.n &&
	      !memcmp(text.p, x.d.text.p, text.n));
	/* The article with an "Advertisement" inside: taken out, nothing else. */
	const uint8_t f3[] = {0, 0, DB_CONTENT, DB_CONTENT, DB_CONTENT, 0};
	make_doc(&x, 6, t, f3);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_CONTENT);
	CHECK(text.n == strlen(t[2]) + 1 + strlen(t[3]) && text.p[strlen(t[2])] == '\n');
	/* Even when the page has much more non-content text than the article:
	 * a small removal never switches to all the text. */
	static const char *const t4[] = {
		"Advertisement", "A short article of a dozen words or so, kept by the page model.",
		"A long list of links to other stories of the site that changes from page to page "
		"and is much longer than the article itself, many times longer in fact, as link "
		"lists on news sites often are, with titles and dates and more titles and dates."};
	const uint8_t f4[] = {DB_CONTENT, DB_CONTENT, 0};
	make_doc(&x, 3, t4, f4);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_CONTENT && text_is(text, t4[1]));
	/* Nothing outside the template. */
	static const char *const t5[] = {"Home News Sport", "Advertisement"};
	const uint8_t f5[] = {0, DB_CONTENT};
	make_doc(&x, 2, t5, f5);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_NONE && text.n == 0);
	/* An empty set is no template. */
	struct blockset none;
	CHECK(blockset_build(&none, tpl, 0) == 0);
	CHECK(tpl_decide(&x.d, &none, &buf, &text) == TPL_PAGE && text.n == x.d.text.n);
	blockset_free(&none);
	blockset_free(&set);
	tpl_buf_free(&buf);
}

/* A thread with a short post beside a list of recent topics: the page
 * model kept the forum's board index (template).  The fallback leaves
 * out the rows pointing to other threads when the page has text of its
 * own; an index whose content is such rows keeps them. */
static void test_decide_pointers(void)
{
	static const char *const t[] = {
		"Board index: News, Help, Off topic",       /* 0 template, the page model's pick */
		"How do I reset the router?",
		"Unplug it for ten seconds, then hold the button.",
		"Printer offline again by anna 12 replies 2024-05-01", /* 3..4 pointers */
		"Best budget laptop by tom 40 replies 2024-04-30",
	};
	uint64_t tpl[1] = {XXH3_64bits(t[0], strlen(t[0]))};
	struct blockset set;
	CHECK(blockset_build(&set, tpl, 1) == 0);
	struct tpl_buf buf = {0};
	struct str text;
	struct testdoc x;
	const uint8_t f[] = {DB_CONTENT, DB_HEADING, 0, DB_POINTER, DB_POINTER};
	make_doc(&x, 5, t, f);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
	CHECK(text_is(text, "How do I reset the router?\nUnplug it for ten seconds, then hold the button."));
	/* A page whose own text is under TPL_OWN_MIN bytes: its rows are its content. */
	static const char *const t2[] = {"Board index: News, Help, Off topic", "Page 2",
					 "Printer offline again by anna 12 replies 2024-05-01",
					 "Best budget laptop by tom 40 replies 2024-04-30"};
	const uint8_t f2[] = {DB_CONTENT, 0, DB_POINTER, DB_POINTER};
	make_doc(&x, 4, t2, f2);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
	CHECK(text_is(text, "Page 2\nPrinter offline again by anna 12 replies 2024-05-01\n"
			    "Best budget laptop by tom 40 replies 2024-04-30"));
	/* A post's profile lines before its text are left out of the
	 * fallback as the page model leaves them out of content
	 * (html/html_values.h); alone, they are the page's text. */
	static const char *const t4[] = {"Board index: News, Help, Off topic", "xlake.7150",
					 "Joined: March 23, 2022", "posts: 838",
					 "Unplug it for ten seconds, then hold the button."};
	const uint8_t f4[] = {DB_CONTENT, 0, 0, 0, 0};
	make_doc(&x, 5, t4, f4);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
	CHECK(text_is(text, "Unplug it for ten seconds, then hold the button."));
	make_doc(&x, 4, t4, f4);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
	CHECK(text_is(text, "xlake.7150\nJoined: March 23, 2022\nposts: 838"));
	/* Pointers count only in the fallback: content keeps them. */
	const uint8_t f3[] = {0, DB_CONTENT | DB_HEADING, DB_CONTENT, DB_CONTENT | DB_POINTER, 0};
	make_doc(&x, 5, t, f3);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_PAGE);
	blockset_free(&set);
	tpl_buf_free(&buf);
}

/* A quoted block (learn.h) is template where it is a pointer and the
 * page's own text where it is not; a chrome block is template anywhere. */
static void test_decide_quoted(void)
{
	static const char *const t[] = {
		"Help forum: questions and answers about routers", /* chrome */
		"How do I reset the router?",                      /* quoted */
		"Unplug it for ten seconds, then hold the reset button for five.",
	};
	uint64_t tpl[2] = {XXH3_64bits(t[0], strlen(t[0])),
			   tpl_quoted_key(XXH3_64bits(t[1], strlen(t[1])))};
	qsort(tpl, 2, sizeof *tpl, cmp_u64);
	struct blockset set;
	CHECK(blockset_build(&set, tpl, 2) == 0);
	struct tpl_buf buf = {0};
	struct str text;
	struct testdoc x;
	/* its own page: the title stays */
	const uint8_t own[] = {DB_CONTENT, DB_CONTENT, DB_CONTENT};
	make_doc(&x, 3, t, own);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_CONTENT);
	CHECK(text_is(text, "How do I reset the router?\n"
			    "Unplug it for ten seconds, then hold the reset button for five."));
	/* as a pointer (a row of recent topics on another page): template */
	const uint8_t row[] = {DB_CONTENT, DB_CONTENT | DB_POINTER, DB_CONTENT};
	make_doc(&x, 3, t, row);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_CONTENT);
	CHECK(text_is(text, "Unplug it for ten seconds, then hold the reset button for five."));
	/* the chrome's pointer form is template too */
	const uint8_t chrome[] = {DB_CONTENT | DB_POINTER, DB_CONTENT, DB_CONTENT};
	make_doc(&x, 3, t, chrome);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_CONTENT);
	CHECK(text_is(text, "How do I reset the router?\n"
			    "Unplug it for ten seconds, then hold the reset button for five."));
	blockset_free(&set);
	tpl_buf_free(&buf);
}

/* A short page whose headline and line are quoted by teasers on enough
 * pages of its site to be template: the page keeps them, as a copy of it
 * with the same title does; a site name heading every page does not. */
static void test_decide_headline(void)
{
	static const char *const t[] = {
		"We use cookies to improve your experience on this website.", /* template */
		"Our Officer Plans Two Fields",                               /* quoted */
		"In 1953, several museums welcomed the culture in Eastwood.", /* quoted */
		"Home About Contact",                                          /* template */
	};
	uint64_t tpl[4];
	for (int i = 0; i < 4; i++)
		tpl[i] = XXH3_64bits(t[i], strlen(t[i]));
	struct blockset set;
	CHECK(blockset_build(&set, tpl, 4) == 0);
	struct tpl_buf buf = {0};
	struct str text;
	struct testdoc x;
	const uint8_t f[] = {DB_CONTENT | DB_SOFT, DB_HEADING | DB_MAIN, DB_MAIN, 0};
	make_doc(&x, 4, t, f);
	/* no title, or one the heading does not open: nothing is left */
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_NONE);
	x.d.title = (struct str){"Southern Fund | Our Officer Plans Two Fields", 44};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_NONE);
	x.d.title = (struct str){"Our Officer Plans Two Fields in Eastwood - Southern Fund", 56};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_NONE);
	/* the headline before a separator and the site's (shorter) name */
	x.d.title = (struct str){"Our Officer Plans Two Fields - Southern Fund", 44};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
	CHECK(text_is(text, "Our Officer Plans Two Fields\n"
			    "In 1953, several museums welcomed the culture in Eastwood."));
	x.d.title = (struct str){"Our Officer Plans Two Fields \xe2\x80\x94 Fund", 36};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
	x.d.title = (struct str){"Our Officer Plans Two Fields", 28};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
	/* unspaced separators: a bar or an underscore; a hyphen after a word
	 * is the headline's own ("Fields-ish") */
	x.d.title = (struct str){"Our Officer Plans Two Fields|Southern Fund", 42};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
	x.d.title = (struct str){"Our Officer Plans Two Fields_Southern Fund", 42};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
	x.d.title = (struct str){"Our Officer Plans Two Fields\xef\xbd\x9c" "Fund", 35};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
	x.d.title = (struct str){"Our Officer Plans Two Fields-ish News", 37};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_NONE);
	x.d.title = (struct str){"Our Officer Plans Two Fieldsmen", 31};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_NONE);
	/* "Site - Page": the site's name heading is longer than what follows */
	x.d.title = (struct str){"Our Officer Plans Two Fields - Home", 35};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
	x.d.title = (struct str){"Our Officer Plans Two Fields - A Much Longer Page Title Here", 60};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_NONE);
	/* a heading alone, its next block not template (or chrome): no run */
	x.d.title = (struct str){"Our Officer Plans Two Fields - Southern Fund", 44};
	const uint8_t f2[] = {DB_CONTENT | DB_SOFT, DB_HEADING, DB_SOFT, 0};
	make_doc(&x, 4, t, f2);
	x.d.title = (struct str){"Our Officer Plans Two Fields - Southern Fund", 44};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_NONE);
	blockset_free(&set);
	tpl_buf_free(&buf);
}

/* A Chinese page's title: "标题_站名", no spaces around the separator. */
static void test_decide_headline_cjk(void)
{
	static const char *const t[] = {
		"本网站使用Cookie来改善您的浏览体验。",           /* template */
		"我们的官员计划在东木镇修建两块新田地",           /* quoted */
		"一九五三年，几家博物馆在东木镇欢迎了这种文化。", /* quoted */
		"首页 关于 联系",                                 /* template */
	};
	uint64_t tpl[4];
	for (int i = 0; i < 4; i++)
		tpl[i] = XXH3_64bits(t[i], strlen(t[i]));
	struct blockset set;
	CHECK(blockset_build(&set, tpl, 4) == 0);
	struct tpl_buf buf = {0};
	struct str text;
	struct testdoc x;
	const uint8_t f[] = {DB_CONTENT | DB_SOFT, DB_HEADING | DB_MAIN, DB_MAIN, 0};
	make_doc(&x, 4, t, f);
	static const char *const titles[] = {
		"我们的官员计划在东木镇修建两块新田地_南方基金",
		"我们的官员计划在东木镇修建两块新田地|南方基金",
		"我们的官员计划在东木镇修建两块新田地\xe2\x80\x94南方基金",
		"我们的官员计划在东木镇修建两块新田地－南方基金",
	};
	for (size_t i = 0; i < sizeof titles / sizeof *titles; i++) {
		x.d.title = (struct str){titles[i], (uint32_t)strlen(titles[i])};
		CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK);
		CHECK(text.n == strlen(t[1]) + 1 + strlen(t[2]) && !memcmp(text.p, t[1], strlen(t[1])));
	}
	/* the site's name first: not the page's headline */
	x.d.title = (struct str){"南方基金_我们的官员计划在东木镇修建两块新田地", 0};
	x.d.title.n = (uint32_t)strlen(x.d.title.p);
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_NONE);
	blockset_free(&set);
	tpl_buf_free(&buf);
}

/* An index page whose rows the site's other pages quote (template): its
 * own headline alone is not content, or two sites' "Science 4" pages
 * would match by it. */
static void test_decide_headline_only(void)
{
	static const char *const t[] = {
		"Science 4",
		"Another City Approves Their Province",
		"One Tradition Builds That Public Resident",
		"This Report Paints Another Family",
	};
	uint64_t tpl[3];
	for (int i = 0; i < 3; i++)
		tpl[i] = XXH3_64bits(t[i + 1], strlen(t[i + 1]));
	struct blockset set;
	CHECK(blockset_build(&set, tpl, 3) == 0);
	struct tpl_buf buf = {0};
	struct str text;
	struct testdoc x;
	const uint8_t f[] = {DB_HEADING, DB_CONTENT, DB_CONTENT, DB_CONTENT};
	make_doc(&x, 4, t, f);
	x.d.title = (struct str){"Science 4 - Bright Harbour", 26};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_NONE && text.n == 0);
	x.d.title = (struct str){"Science 4", 9};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_NONE && text.n == 0);
	/* a heading that is not the title's: the page's text, as before */
	x.d.title = (struct str){"Bright Harbour - Sections", 25};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) == TPL_FALLBACK && text_is(text, "Science 4"));
	/* the headline and a line of its own: content */
	static const char *const t2[] = {"Science 4", "Another City Approves Their Province",
					  "Our science desk's picks of the week, chosen by the editors."};
	const uint8_t f2[] = {DB_HEADING | DB_CONTENT, DB_CONTENT, DB_CONTENT};
	make_doc(&x, 3, t2, f2);
	x.d.title = (struct str){"Science 4 - Bright Harbour", 26};
	CHECK(tpl_decide(&x.d, &set, &buf, &text) != TPL_NONE &&
	      text_is(text, "Science 4\nOur science desk's picks of the week, chosen by the editors."));
	blockset_free(&set);
	tpl_buf_free(&buf);
}

/* The signature of @x's blocks. */
static uint64_t sig(const struct testdoc *x)
{
	struct doc_block b[16];
	docrec_blocks(&x->d, b);
	return page_signature(b, x->d.n_blocks);
}

/* A page and its copy have one signature; the same template with another
 * article lies far past learn.h's 8 bits; one changed paragraph of eight
 * stays near. */
static void test_signature(void)
{
	static char para[8][200], other[8][200];
	const char *a[12], *b[12];
	uint8_t f[12];
	static const char *const chrome[4] = {"Home", "Subscribe to our newsletter", "Share",
					      "Copyright the site"};
	for (int i = 0; i < 8; i++) {
		snprintf(para[i], sizeof para[i], "Paragraph %d of the first article, long enough to "
			 "weigh as two features of the signature, with words of its own %d.", i, i * 31);
		snprintf(other[i], sizeof other[i], "Paragraph %d of another article on the same "
			 "site, of the same length but different words entirely, number %d.", i, i * 17);
	}
	for (int i = 0; i < 12; i++) {
		a[i] = i < 2 ? chrome[i] : i < 10 ? para[i - 2] : chrome[i - 8];
		b[i] = i < 2 ? chrome[i] : i < 10 ? other[i - 2] : chrome[i - 8];
		f[i] = i >= 2 && i < 10 ? DB_CONTENT : 0;
	}
	struct testdoc x, y;
	make_doc(&x, 12, a, f);
	const uint64_t sa = sig(&x);
	make_doc(&y, 12, a, f);
	CHECK(sig(&y) == sa);
	make_doc(&y, 12, b, f);
	CHECK(__builtin_popcountll(sig(&y) ^ sa) > 12);
	char edited[200];
	snprintf(edited, sizeof edited, "%s", para[3]);
	edited[0] = 'p';
	a[5] = edited;
	make_doc(&y, 12, a, f);
	CHECK(__builtin_popcountll(sig(&y) ^ sa) <= 8);
	CHECK(page_signature(NULL, 0) == 0);
}

static void test_records_and_file(void)
{
	const uint64_t h[3] = {5, 9, 1ull << 63};
	struct tpl_record r = {key("http://a.example/"), 7, 2, 3, NULL}, e;
	uint8_t buf[64];
	const size_t n = tplrec_encode(&r, h, buf);
	CHECK(n == tplrec_size(3));
	const uint8_t *p = buf;
	CHECK(tplrec_decode(&p, buf + n, &e) == 0 && p == buf + n);
	CHECK(e.host == r.host && e.pages == 7 && e.age == 2 && e.n == 3);
	CHECK(tplrec_hash(&e, 0) == 5 && tplrec_hash(&e, 2) == 1ull << 63);
	for (size_t cut = 0; cut < n; cut++) {
		p = buf;
		CHECK(tplrec_decode(&p, buf + cut, &e) == -1);
	}
	const uint64_t bad[3] = {5, 5, 9}; /* not strictly ascending */
	tplrec_encode(&r, bad, buf);
	p = buf;
	CHECK(tplrec_decode(&p, buf + n, &e) == -1);

	/* A file of two hosts, loaded, looked up; hosts out of order refused. */
	char path[] = "/tmp/test_template.XXXXXX";
	const int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	/* order 0, 1: this layout (1: hosts out of order); 2: layout 1, read
	 * as it is (its hashes all chrome); 3, 4: layout 0 and the next, refused */
	static const uint64_t layout[] = {TPLREC_VERSION, TPLREC_VERSION, 1, 0, TPLREC_VERSION + 1};
	for (int order = 0; order < 5; order++) {
		FILE *fp = fopen(path, "wb");
		struct ndf_header hd = {.version = NDF_VERSION, .kind = NDF_KIND_TEMPLATES,
					.aux = layout[order]};
		struct ndf_writer *w = ndf_writer_open(fp, path, &hd);
		uint8_t blk[128];
		struct tpl_record a = {100, 3, 0, 2, NULL}, b = {200, 4, 1, 1, NULL};
		const uint64_t ha[2] = {1, 9}, hb[1] = {4};
		const int swap = order == 1;
		size_t len = swap ? tplrec_encode(&b, hb, blk) : tplrec_encode(&a, ha, blk);
		len += swap ? tplrec_encode(&a, ha, blk + len) : tplrec_encode(&b, hb, blk + len);
		CHECK(w && ndf_write_block(w, 2, NDF_CODEC_RAW, swap ? 200 : 100, blk, len) == 0);
		CHECK(ndf_writer_finish(w) == 0);
		fclose(fp);
		struct tplset s;
		const int rc = tplset_load(&s, path);
		CHECK(rc == (order == 0 || order == 2 ? 0 : -1));
		if (rc)
			continue;
		size_t k;
		const uint64_t *t = tplset_find(&s, 100, &k);
		CHECK(t && k == 2 && t[0] == 1 && t[1] == 9);
		CHECK(tplset_find(&s, 150, &k) == NULL && k == 0);
		t = tplset_find(&s, 200, &k);
		CHECK(t && k == 1 && t[0] == 4 && s.age[1] == 1 && s.pages[1] == 4);
		t = tplset_any(&s, &k);
		CHECK(k == 3 && t[0] == 1 && t[1] == 4 && t[2] == 9);
		const struct blockset *set = tplset_any_set(&s);
		CHECK(blockset_has(set, 4) && blockset_has(set, 9) && !blockset_has(set, 5) &&
		      !blockset_has(NULL, 4) && set->n == 3);
		tplset_free(&s);
	}
	struct tplset s;
	CHECK(tplset_load(&s, "/nonexistent/templates.ndf") == -1);
	unlink(path);
}

/* Stream @n keys in the order @k gives through tpl_sample_take(): how
 * many are kept, and whether the @s smallest all are. */
static size_t sample_stream(const uint64_t *k, size_t n, uint32_t s, uint64_t below, int *all_small)
{
	size_t kept = 0, small = 0;
	for (size_t i = 0; i < n; i++) {
		if (!tpl_sample_take(k[i], i + 1, s))
			continue;
		kept++;
		small += k[i] <= below;
	}
	*all_small = small == s;
	return kept;
}

/* A host's sample is its pages of smallest key in any order: the reader
 * keeps every one of them, and about K (1 + ln(N / K)) pages in all when
 * the order is unrelated to the key (K = 2 s + 64). */
static void test_sample(void)
{
	enum { N = 50000 };
	uint64_t *k = malloc(N * sizeof *k), *sorted = malloc(N * sizeof *k);
	for (uint32_t s = 1; s <= 1000; s *= 10) {
		for (size_t i = 0; i < N; i++)
			k[i] = XXH3_64bits_withSeed(&i, sizeof i, s);
		memcpy(sorted, k, N * sizeof *k);
		qsort(sorted, N, sizeof *sorted, cmp_u64);
		const uint64_t below = sorted[s - 1];
		const double K = 2.0 * s + 64, expect = K * (1 + log(N / K));
		int all;
		const size_t kept = sample_stream(k, N, s, below, &all);
		CHECK(all);
		CHECK(kept > expect * 0.8 && kept < expect * 1.2);
		CHECK(sample_stream(sorted, N, s, below, &all) >= (size_t)K && all);
		for (size_t i = 0; i < N / 2; i++) { /* descending */
			const uint64_t t = sorted[i];
			sorted[i] = sorted[N - 1 - i];
			sorted[N - 1 - i] = t;
		}
		CHECK(sample_stream(sorted, N, s, below, &all) >= (size_t)K && all);
		CHECK(sample_stream(k, (size_t)K, s, UINT64_MAX, &all) == (size_t)K);
	}
	free(k);
	free(sorted);
}

int main(void)
{
	test_host();
	test_learn();
	test_learn_roles();
	test_blockset();
	test_decide();
	test_decide_pointers();
	test_decide_quoted();
	test_decide_headline();
	test_decide_headline_cjk();
	test_decide_headline_only();
	test_signature();
	test_records_and_file();
	test_sample();
	return test_finish("test_template");
}
