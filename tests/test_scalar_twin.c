/*
 * test_scalar_twin.c - the modules that scan 16 bytes at a time, built
 * a second time over util/simd16.h's scalar twin, against the library.
 *
 * This file defines NDD_SIMD_SCALAR and includes the modules' sources
 * with their public functions renamed twin_*; the library linked in is
 * built as usual (SSE on x86-64).  Both must read every input alike:
 * tokens, text, blocks and their measures, decoded entities.  Inputs are
 * random (from pieces that reach the scanners' cases, at every length,
 * each in an allocation of its own size so that the sanitizers see a
 * read past it) and real pages: the .html files of tests/data/maintext/ and any
 * HTML files given as arguments; the same bytes as charset input, and
 * CSV fields and lines of values (util/valueline.h).  Built without SSE (ARCH= elsewhere), both sides are the
 * twin and the test compares it with itself.  A public function added
 * to one of these modules needs a twin_ name here too (or the link
 * fails on a duplicate definition).
 */
#define NDD_SIMD_SCALAR /* first: every include below gets the twin */

#include "html/html_blocks.h"
#include "html/html_entities.h"
#include "html/html_text.h"
#include "html/html_tokenizer.h"
#include "input/charset.h"
#include "output/csv.h"
#include "util/valueline.h"
#include "testutil.h"

#include <dirent.h>
#include <string.h>

struct html_text *twin_text_new(void);
void twin_text_free(struct html_text *h);
int twin_text_extract(struct html_text *h, const char *html, size_t len);
const char *twin_text_title(const struct html_text *h, size_t *len);
const char *twin_text_main(struct html_text *h, size_t *len);
int twin_text_fallback(const struct html_text *h);
size_t twin_text_n_blocks(const struct html_text *h);
struct html_text_block twin_text_block_at(const struct html_text *h, size_t i);
uint32_t twin_hblock_words10(const char *s, size_t n);
void twin_hblock_measure(struct hblock *b, const char *s);
size_t twin_hblocks_classify(struct hblock *b, size_t n, int *fallback);
void twin_hblocks_mark_pointers(struct hblock *b, size_t n);
size_t twin_entity_decode(const char *s, size_t n, char *out, size_t *olen);
size_t twin_entity_decode_in(const char *s, size_t n, int in_attr, char *out, size_t *olen);
size_t twin_collapse(char *out, const char *s, size_t n, size_t avail, int has_text, int *pending,
		     int decode);
void twin_htok_init(struct htok *t, const char *s, size_t n);
enum htok_type twin_htok_next(struct htok *t, struct htok_token *tok);
void twin_htok_set_foreign(struct htok *t, unsigned foreign);
const char *twin_htag_name(enum htag tag);
int twin_charset_to_utf8(const char *data, size_t len, const char *content_type, char **out,
			 size_t *out_len, size_t *out_cap, int *lossy);
int twin_charset_utf8_view(const char *data, size_t len, const char *content_type,
			   const char **res, size_t *res_len, char **out, size_t *out_cap,
			   int *lossy);
const char *twin_charset_detect(const char *data, size_t len, const char *content_type);
void twin_csv_init(struct csv_writer *w, struct outfile *out);
int twin_csv_flush(struct csv_writer *w);
int twin_csv_close(struct csv_writer *w);
int twin_csv_reserve_slow(struct csv_writer *w, size_t n);
int twin_csv_needs_quotes(const char *s, size_t len);
char *twin_csv_put_quoted(char *p, const char *s, size_t len);
void twin_csv_quoted(struct csv_writer *w, const char *s, size_t len);
enum valueline_kind twin_valueline_kind(const char *s, size_t n);
size_t twin_valueline_runs(size_t n, valueline_kind_fn kind, valueline_judge_fn judge,
			  valueline_drop_fn drop, void *ctx);
size_t twin_valueline_fields(size_t n, valueline_kind_fn kind, valueline_drop_fn drop, void *ctx);

#define html_text_new twin_text_new
#define html_text_free twin_text_free
#define html_text_extract twin_text_extract
#define html_text_title twin_text_title
#define html_text_main twin_text_main
#define html_text_fallback twin_text_fallback
#define html_text_n_blocks twin_text_n_blocks
#define html_text_block_at twin_text_block_at
#define hblock_words10 twin_hblock_words10
#define hblock_measure twin_hblock_measure
#define hblocks_classify twin_hblocks_classify
#define hblocks_mark_pointers twin_hblocks_mark_pointers
#define html_entity_decode twin_entity_decode
#define html_entity_decode_in twin_entity_decode_in
#define html_collapse twin_collapse
#define htok_init twin_htok_init
#define htok_next twin_htok_next
#define htok_set_foreign twin_htok_set_foreign
#define htag_name twin_htag_name
#define charset_to_utf8 twin_charset_to_utf8
#define charset_utf8_view twin_charset_utf8_view
#define charset_detect twin_charset_detect
#define csv_init twin_csv_init
#define csv_flush twin_csv_flush
#define csv_close twin_csv_close
#define csv_reserve_slow twin_csv_reserve_slow
#define csv_needs_quotes twin_csv_needs_quotes
#define csv_put_quoted twin_csv_put_quoted
#define csv_quoted twin_csv_quoted
#define csv_digit_pairs twin_csv_digit_pairs
#define csv_pow10 twin_csv_pow10
/* function-like: enum valueline_kind keeps its name */
#define valueline_kind(s, n) twin_valueline_kind(s, n)
#define valueline_runs(n, k, j, d, c) twin_valueline_runs(n, k, j, d, c)
#define valueline_fields(n, k, d, c) twin_valueline_fields(n, k, d, c)
#include "../common/html/html_blocks.c"
#include "../common/html/html_entities.c"
#include "../common/html/html_text.c"
#include "../common/html/html_tokenizer.c"
#include "../common/input/charset.c"
#include "../common/util/valueline.c"
#define special16 csv_special16 /* static names html_entities.c and html_text.c have too */
#define load64 csv_load64
#include "../common/output/csv.c"
#undef special16
#undef load64
#undef valueline_kind
#undef valueline_runs
#undef valueline_fields
#undef html_text_new
#undef html_text_free
#undef html_text_extract
#undef html_text_title
#undef html_text_main
#undef html_text_fallback
#undef html_text_n_blocks
#undef html_text_block_at
#undef hblock_words10
#undef hblock_measure
#undef hblocks_classify
#undef hblocks_mark_pointers
#undef html_entity_decode
#undef html_entity_decode_in
#undef html_collapse
#undef htok_init
#undef htok_next
#undef htok_set_foreign
#undef htag_name
#undef charset_to_utf8
#undef charset_utf8_view
#undef charset_detect
#undef csv_init
#undef csv_flush
#undef csv_close
#undef csv_reserve_slow
#undef csv_needs_quotes
#undef csv_put_quoted
#undef csv_quoted
#undef csv_digit_pairs
#undef csv_pow10

_Static_assert(!NDD_SIMD16_SSE, "this file's modules are built over the scalar twin");

/* A copy of [s, s+n) in an allocation of its own size (never NULL). */
static char *exact_copy(const char *s, size_t n)
{
	char *const p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	memcpy(p, s, n);
	return p;
}

/* Do both tokenizers cut [s, s+n) into the same tokens? */
static int same_tokens(const char *s, size_t n)
{
	struct htok a, b;
	struct htok_token x, y;
	htok_init(&a, s, n);
	twin_htok_init(&b, s, n);
	for (;;) {
		const enum htok_type tx = htok_next(&a, &x), ty = twin_htok_next(&b, &y);
		if (tx == HTOK_EOF || ty == HTOK_EOF) /* which sets no more than the type */
			return tx == ty;
		if (tx != ty || x.tag != y.tag || x.p != y.p || x.n != y.n || x.hash != y.hash ||
		    x.self_closing != y.self_closing || x.raw != y.raw || x.n_attrs != y.n_attrs ||
		    x.attr_kinds != y.attr_kinds)
			return 0;
		if (tx != HTOK_TEXT && x.name8 != y.name8)
			return 0;
		/* a value of 0 bytes may be each build's own "" */
		for (int i = 0; i < x.n_attrs; i++)
			if (x.attrs[i].value_len != y.attrs[i].value_len ||
			    (x.attrs[i].value_len && x.attrs[i].value != y.attrs[i].value) ||
			    x.attrs[i].kind != y.attrs[i].kind)
				return 0;
	}
}

static int same_block(const struct hblock *a, const struct hblock *b)
{
	return a->off == b->off && a->len == b->len && a->ns_bytes == b->ns_bytes &&
	       a->link_words10 == b->link_words10 && a->words10 == b->words10 &&
	       a->flags == b->flags && a->cls == b->cls && a->gap_depth == b->gap_depth;
}

/* Do both extractors give [s, s+n) the same title, text, blocks, main? */
static int same_text(struct html_text *a, struct html_text *b, const char *s, size_t n)
{
	size_t ml, tl, bml, btl;
	if (html_text_extract(a, s, n) != twin_text_extract(b, s, n))
		return 0;
	const char *const m = html_text_main(a, &ml), *const t = html_text_title(a, &tl);
	const char *const bm = twin_text_main(b, &bml), *const bt = twin_text_title(b, &btl);
	if (ml != bml || tl != btl || memcmp(m, bm, ml) || memcmp(t, bt, tl) ||
	    html_text_fallback(a) != twin_text_fallback(b))
		return 0;
	if (a->text.len != b->text.len || memcmp(a->text.p, b->text.p, a->text.len) ||
	    a->n_blocks != b->n_blocks)
		return 0;
	for (size_t i = 0; i < a->n_blocks; i++)
		if (!same_block(&a->blocks[i], &b->blocks[i]))
			return 0;
	return 1;
}

/* Do both collapse and decode [s, s+n) alike, and measure it alike? */
static int same_collapse(const char *s, size_t n)
{
	char *const x = malloc(HTML_COLLAPSE_MAX(n) + HTML_COLLAPSE_SLACK + HBLOCK_SLACK);
	char *const y = malloc(HTML_COLLAPSE_MAX(n) + HTML_COLLAPSE_SLACK + HBLOCK_SLACK);
	int ok = x && y;
	for (int decode = 0; ok && decode < 2; decode++) {
		for (int has_text = 0; ok && has_text < 2; has_text++) {
			int pa = 0, pb = 0;
			const size_t a = html_collapse(x, s, n, n, has_text, &pa, decode);
			const size_t b = twin_collapse(y, s, n, n, has_text, &pb, decode);
			ok = a == b && pa == pb && !memcmp(x, y, a);
			if (!ok)
				break;
			memset(x + a, 0, HBLOCK_SLACK);
			memcpy(y + b, x + a, HBLOCK_SLACK);
			struct hblock ba = {.len = (uint32_t)a}, bb = {.len = (uint32_t)b};
			hblock_measure(&ba, x);
			twin_hblock_measure(&bb, y);
			ok = same_block(&ba, &bb) && hblock_words10(x, a) == twin_hblock_words10(y, b);
		}
	}
	size_t la = 0, lb = 0;
	if (ok) {
		const size_t ra = html_entity_decode(s, n, x, &la);
		const size_t rb = twin_entity_decode(s, n, y, &lb);
		ok = ra == rb && la == lb && !memcmp(x, y, la);
	}
	free(x);
	free(y);
	return ok;
}

/* Do both charset decoders make the same UTF-8 of [s, s+n), declared
 * UTF-8 (the ASCII runs are copied 64 bytes at a time) and sniffed? */
static int same_charset(const char *s, size_t n)
{
	static const char *const types[] = {"text/html; charset=utf-8", NULL};
	int ok = 1;
	for (int k = 0; ok && k < 2; k++) {
		char *a = NULL, *b = NULL;
		size_t la = 0, lb = 0, ca = 0, cb = 0;
		int lossa = 0, lossb = 0;
		const char *ra = NULL, *rb = NULL;
		ok = charset_to_utf8(s, n, types[k], &a, &la, &ca, &lossa) ==
			     twin_charset_to_utf8(s, n, types[k], &b, &lb, &cb, &lossb) &&
		     la == lb && lossa == lossb && (!la || !memcmp(a, b, la));
		ok = ok && charset_utf8_view(s, n, types[k], &ra, &la, &a, &ca, &lossa) ==
				   twin_charset_utf8_view(s, n, types[k], &rb, &lb, &b, &cb, &lossb) &&
		     la == lb && lossa == lossb && (!la || !memcmp(ra, rb, la));
		ok = ok && !strcmp(charset_detect(s, n, types[k]), twin_charset_detect(s, n, types[k]));
		free(a);
		free(b);
	}
	return ok;
}

/* Do both read every prefix of [s, s+n) as the same kind of line? */
static int same_valueline(const char *s, size_t n)
{
	for (size_t l = 0; l <= n && l <= 100; l++)
		if ((valueline_kind)(s, l) != twin_valueline_kind(s, l))
			return 0;
	return 1;
}

/* Do both CSV writers quote [s, s+n) alike (every prefix, and as the
 * byte-by-byte rule says)? */
static int same_csv(const char *s, size_t n)
{
	for (size_t l = 0; l <= n && l <= 80; l++) {
		int want = 0;
		for (size_t i = 0; i < l; i++)
			want |= s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
		if (csv_needs_quotes(s, l) != want || twin_csv_needs_quotes(s, l) != want)
			return 0;
	}
	return 1;
}

/* Random pages and texts from pieces that reach the scanners' cases. */
static void test_random(struct html_text *a, struct html_text *b)
{
	static const char *const pieces[] = {"<", ">", "</", "/>", "&", ";", "#", "\"", "'", "=",
		" ", "  ", "\n", "\t", "\r\n", "\f", "<!--", "-->", "<!", "<?", "]]>", "<![CDATA[",
		"<p>", "</p>", "<P>", "<div class=nav>", "<DIV CLASS='x'>", "</div>", "<script>",
		"</script>", "<a href=\"x\">", "<a href='y' id=z>", "</a>", "<svg>", "<title>",
		"</title>", "&amp;", "&AMP;", "&nbsp;", "&#x41;", "&#65;", "&#", "<main>", "<br/>",
		"text ", "Words. More words! ", "copyright ", "All Rights Reserved", "\xC2\xA9",
		"\xE7\x89\x88\xE6\x9D\x83", "\xE4\xB8\xAD", "\xC2\xA0", "\xC3\xA9", "\xFF", "\x01",
		"<li>", "<td>", "<head>", "<body>", "<form>", "<nav>", "</nav>", "<h1>", "</h1>",
		"<span role=main hidden aria-hidden=true style=x>", "<x-long-element-name>",
		"<blockquote>", "</blockquote>", "<textarea>", "</textarea>", "<code>", "ghost "};
	const size_t np = sizeof(pieces) / sizeof(pieces[0]);
	uint64_t st = test_seed(41);
	int bad_tok = 0, bad_text = 0, bad_coll = 0, bad_cs = 0, bad_csv = 0, bad_vl = 0;
	char buf[2048];
	for (int it = 0; it < 6000; it++) {
		const size_t target = test_rand(&st) % (it < 1000 ? 100 : sizeof(buf));
		size_t n = 0;
		while (n < target) {
			const uint64_t r = test_rand(&st);
			if (r % 8 == 0) {
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
		char *const page = exact_copy(buf, n);
		if (!same_tokens(page, n) && bad_tok++ < 3)
			printf("  tokens differ: %.*s\n", (int)n, page);
		if (!same_text(a, b, page, n) && bad_text++ < 3)
			printf("  text differs: %.*s\n", (int)n, page);
		if (!same_collapse(page, n) && bad_coll++ < 3)
			printf("  collapse differs: %.*s\n", (int)n, page);
		if (!same_charset(page, n) && bad_cs++ < 3)
			printf("  charset differs: %.*s\n", (int)n, page);
		if (!same_valueline(page, n) && bad_vl++ < 3)
			printf("  line kind differs: %.*s\n", (int)n, page);
		if (!same_csv(page, n) && bad_csv++ < 3)
			printf("  csv differs: %.*s\n", (int)n, page);
		free(page);
	}
	CHECK(bad_tok == 0);
	CHECK(bad_text == 0);
	CHECK(bad_coll == 0);
	CHECK(bad_cs == 0);
	CHECK(bad_csv == 0);
	CHECK(bad_vl == 0);
}

/* The file at @path compared both ways; -1 if it cannot be read. */
static int same_page_file(struct html_text *a, struct html_text *b, const char *path)
{
	FILE *const f = fopen(path, "rb");
	if (!f)
		return -1;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			char *const nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
		}
		const size_t r = fread(buf + n, 1, cap - n, f);
		if (!r)
			break;
		n += r;
	}
	fclose(f);
	char *const page = exact_copy(buf ? buf : "", n);
	free(buf);
	const int same = same_tokens(page, n) && same_text(a, b, page, n) &&
			 same_collapse(page, n) && same_charset(page, n);
	if (!same)
		printf("  differs: %s\n", path);
	free(page);
	return same;
}

/* Real pages: tests/data/maintext/ (at $TOP, or here) and the arguments. */
static void test_pages(struct html_text *a, struct html_text *b, int argc, char **argv)
{
	const char *const top = getenv("TOP") ? getenv("TOP") : ".";
	char dir[4096], path[8192];
	snprintf(dir, sizeof dir, "%s/tests/data/maintext", top);
	int pages = 0, bad = 0;
	DIR *const d = opendir(dir);
	CHECK(d != NULL);
	for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
		const size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 5, ".html"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		pages++;
		bad += same_page_file(a, b, path) != 1;
	}
	if (d)
		closedir(d);
	for (int i = 1; i < argc; i++, pages++)
		bad += same_page_file(a, b, argv[i]) != 1;
	printf("%d real pages, %d differ\n", pages, bad);
	CHECK(pages >= 20);
	CHECK(bad == 0);
}

/* csv_put_hex64() over the twin writes what printf's %016llx does. */
static void test_hex64(void)
{
	uint64_t st = test_seed(43);
	int bad = 0;
	for (int i = 0; i < 10000; i++) {
		const uint64_t v = i < 16 ? (uint64_t)1 << (4 * i) : test_rand(&st);
		char got[CSV_HEX64_BOUND + 1] = {0}, want[32];
		snprintf(want, sizeof want, "%016llx", (unsigned long long)v);
		bad += csv_put_hex64(got, v) != got + 16 || memcmp(got, want, 16);
	}
	CHECK(bad == 0);
}

int main(int argc, char **argv)
{
	struct html_text *const a = html_text_new(), *const b = twin_text_new();
	CHECK(a && b);
	if (!a || !b)
		return test_finish("test_scalar_twin");
	test_random(a, b);
	test_hex64();
	test_pages(a, b, argc, argv);
	html_text_free(a);
	twin_text_free(b);
	return test_finish("test_scalar_twin");
}
