/*
 * test_report_html - the writers of report.html: escaping of hostile
 * bytes (html.h), the page's structure with hostile data in every string
 * of the model (report_html.h), the bar charts (svg_chart.h), and the
 * readers ndd-report uses (json_read.h, csv_read.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/csv_read.h"
#include "output/hostshare.h"
#include "output/html.h"
#include "output/json_read.h"
#include "output/lookalike.h"
#include "output/report_html.h"
#include "output/svg_chart.h"
#include "testutil.h"

static char *escaped(const char *s, size_t n)
{
	static struct html_buf h;
	html_buf_free(&h);
	html_text(&h, s, n);
	return h.p ? h.p : (char *)"";
}

static void test_escape_vectors(void)
{
	CHECK(!strcmp(escaped("<script>alert(\"x\")</script>&'", 29),
		      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"));
	/* invalid UTF-8: each byte of a bad sequence is one U+FFFD */
	CHECK(!strcmp(escaped("a\xff\xfe" "b", 4), "a\xEF\xBF\xBD\xEF\xBF\xBD" "b"));
	CHECK(!strcmp(escaped("\xc0\xaf", 2), "\xEF\xBF\xBD\xEF\xBF\xBD"));          /* overlong */
	CHECK(!strcmp(escaped("\xed\xa0\x80", 3), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD")); /* surrogate */
	CHECK(!strcmp(escaped("\xf4\x90\x80\x80", 4),
		      "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD")); /* past U+10FFFF */
	CHECK(!strcmp(escaped("x\xe2\x82", 3), "x\xEF\xBF\xBD\xEF\xBF\xBD"));        /* cut short */
	/* controls (NUL included), DEL and C1 controls; tab and newline stay */
	CHECK(!strcmp(escaped("a\0b\x01\x7f\xc2\x85\t\n", 9),
		      "a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\t\n"));
	/* valid text passes as it is */
	const char *ok = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xe4\xb8\xad\xe6\x96\x87";
	CHECK(!strcmp(escaped(ok, strlen(ok)), ok));
	/* cut after 3 characters, an ellipsis added; none when it all fits */
	struct html_buf h = {0};
	html_text_cut(&h, "\xc3\xa9<cd", 5, 3);
	CHECK(h.p && !strcmp(h.p, "\xc3\xa9&lt;c\xE2\x80\xA6"));
	html_buf_free(&h);
	html_text_cut(&h, "abc", 3, 3);
	CHECK(h.p && !strcmp(h.p, "abc"));
	html_buf_free(&h);
}

/* @s is valid UTF-8 with no markup character, control or bad reference. */
static int safe_text(const char *s, size_t n)
{
	static const char *const refs[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
	for (size_t i = 0; i < n;) {
		unsigned cp;
		const size_t len = html_utf8_next((const unsigned char *)s + i, n - i, &cp);
		if (!len || cp == '<' || cp == '>' || cp == '"' || cp == '\'' ||
		    (cp < 0x20 && cp != '\t' && cp != '\n') || (cp >= 0x7F && cp <= 0x9F))
			return 0;
		if (cp == '&') {
			int known = 0;
			for (size_t r = 0; r < 5; r++)
				known |= !strncmp(s + i, refs[r], strlen(refs[r]));
			if (!known)
				return 0;
		}
		i += len;
	}
	return 1;
}

static void test_escape_random(void)
{
	uint64_t st = test_seed(16);
	char in[64];
	int bad = 0;
	for (int t = 0; t < 20000; t++) {
		const size_t n = (size_t)(test_rand(&st) % sizeof in);
		for (size_t i = 0; i < n; i++) {
			const uint64_t r = test_rand(&st);
			/* markup characters and UTF-8 lead/continuation bytes often */
			static const char pick[] = "<>&\"' \xc3\xa9\xe2\x82\xac\xf0\x9f\x80\xed\xa0";
			in[i] = (char)(r & 1 ? pick[(r >> 8) % (sizeof pick - 1)] : (char)(r >> 16));
		}
		const char *out = escaped(in, n);
		bad += !safe_text(out, strlen(out));
	}
	CHECK(bad == 0);
}

/* ---- the page: hostile data in every string, structure checked ---- */

static const char *const allowed[] = {
	"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "div", "b", "span",
	"table", "tr", "th", "td", "details", "summary", "figure", "figcaption", "svg", "line",
	"text", "rect", "i", "em", NULL};

/* Tags of @s are all allowed, closed in order (void and self-closed aside);
 * no attribute holds a quote of the data.  @return 0 if well-formed. */
static int check_structure(const char *s)
{
	const char *stack[64];
	int depth = 0;
	for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
		if (!strncmp(p, "<!DOCTYPE html>", 15))
			continue;
		const int close = p[1] == '/';
		const char *name = p + 1 + close;
		const size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789");
		int ok = 0;
		for (int i = 0; allowed[i]; i++)
			ok |= strlen(allowed[i]) == n && !strncmp(allowed[i], name, n);
		if (!ok) {
			fprintf(stderr, "unexpected tag at: %.40s\n", p);
			return -1;
		}
		const char *gt = strchr(p, '>');
		if (!gt)
			return -1;
		if (close) {
			if (!depth || strlen(stack[depth - 1]) != n || strncmp(stack[depth - 1], name, n)) {
				fprintf(stderr, "unbalanced at: %.40s\n", p);
				return -1;
			}
			depth--;
		} else if (gt[-1] != '/' && strncmp(name, "meta", 4)) {
			if (depth == 64)
				return -1;
			for (int i = 0; allowed[i]; i++)
				if (strlen(allowed[i]) == n && !strncmp(allowed[i], name, n))
					stack[depth++] = allowed[i];
		}
		/* inside a tag, quotes come in pairs (attribute values) */
		int q = 0;
		for (const char *c = p; c < gt; c++)
			q += *c == '"';
		if (q % 2) {
			fprintf(stderr, "odd quotes in: %.60s\n", p);
			return -1;
		}
	}
	return depth ? -1 : 0;
}

#define EVIL "\"'><script>alert(1)</script><img src=x onerror=alert(2)>\xff\xfe]]></svg>&amp"

static void test_page(void)
{
	struct report_member m[41];
	char titles[41][32], opens[41][48];
	for (int i = 0; i < 41; i++) {
		snprintf(titles[i], sizeof titles[i], "Page %d <i>", i);
		snprintf(opens[i], sizeof opens[i], "Opening %d of a page", i);
		m[i] = (struct report_member){i ? "http://x.example/" EVIL : EVIL, i ? titles[i] : EVIL,
					      i ? opens[i] : EVIL, (unsigned)(i % 7), i == 0};
	}
	struct report_cluster cl[2] = {
		{41, 41, 41, 41, 1, 6, m, 41},
		{7, 2, 1, 1, 2, 0, m, 2},
	};
	cl[1].distinct_titles = 2; /* two members: too few to judge */
	struct chart_bar sizes[2] = {{EVIL, 5}, {"3", 1}};
	struct report_count reasons[1] = {{EVIL, 3}};
	struct report_host hosts[1] = {{EVIL, 10, 4, 1}};
	struct report_night nights[2] = {{EVIL, 100, 3, 9, 0}, {"2026-11-27", 120, -1, 12, 1}};
	struct report r = {
		.night = EVIL, .started = EVIL, .method = EVIL, .k = 6, .exit_status = 1,
		.pages = 120, .skipped = 3, .clusters = 2, .clustered = 43, .dropped = 12,
		.dropped_earlier = 1, .size_hist = sizes, .n_size_hist = 2, .dist_hist = sizes,
		.n_dist_hist = 2, .matches = reasons, .n_matches = 1, .skipped_by = reasons,
		.n_skipped_by = 1, .filtered_by = reasons, .n_filtered_by = 1, .top = cl, .n_top = 2,
		.hosts = hosts, .n_hosts = 1, .hosts_total = 1, .nights = nights, .n_nights = 2,
	};
	struct html_buf h = {0};
	report_html_write(&h, &r);
	CHECK(html_buf_ok(&h) && h.p);
	if (!h.p)
		return;
	CHECK(check_structure(h.p) == 0);
	CHECK(!strstr(h.p, "<script") && !strstr(h.p, "<img") && !strstr(h.p, "]]>"));
	CHECK(!strstr(h.p, "\xff") && safe_text("", 0));
	CHECK(strstr(h.p, "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL);
	CHECK(strstr(h.p, "Page 40 &lt;i&gt;") != NULL);
	/* three charts (sizes, distances, nights), and the suspect cluster marked once */
	int svgs = 0, marks = 0;
	for (const char *p = h.p; (p = strstr(p, "<svg")); p++)
		svgs++;
	for (const char *p = h.p; (p = strstr(p, "class=\"badge\"")); p++)
		marks++;
	CHECK(svgs == 3);
	CHECK(marks == 1);
	CHECK(report_cluster_suspect(&cl[0]) && !report_cluster_suspect(&cl[1]));
	struct report_cluster copies = {9, 41, 1, 2, 30, 3, m, 41};
	CHECK(!report_cluster_suspect(&copies));
	/* no external resource: nothing is fetched from a URL */
	CHECK(!strstr(h.p, "src=\"") && !strstr(h.p, "href=\"") && !strstr(h.p, "url(") &&
	      !strstr(h.p, "@import"));
	html_buf_free(&h);

	/* an empty night: no cluster, nothing else known */
	struct report e = {.k = -1, .exit_status = -1, .pages = -1, .skipped = -1, .clusters = 0,
			   .clustered = 0, .dropped = -1, .dropped_earlier = -1};
	report_html_write(&h, &e);
	CHECK(h.p && check_structure(h.p) == 0 && strstr(h.p, "no data") && strstr(h.p, "No cluster"));
	html_buf_free(&h);
}

static void test_chart(void)
{
	CHECK(svg_nice_max(0) == 4 && svg_nice_max(1) == 4 && svg_nice_max(4) == 4);
	CHECK( svg_nice_max(4.5) == 5 && svg_nice_max(41) == 50 && svg_nice_max(100) == 100 && svg_nice_max(101) == 200);
	struct chart_bar b[40];
	for (int i = 0; i < 40; i++)
		b[i] = (struct chart_bar){"x", i};
	struct html_buf h = {0};
	svg_bar_chart(&h, "t", b, 40, "x", "y");
	int rects = 0;
	for (const char *p = h.p; (p = strstr(p, "<rect")); p++)
		rects++;
	CHECK(rects == 40 && check_structure(h.p) == 0);
	html_buf_free(&h);
	b[3].value = -1; /* not known: no bar, "n/a" */
	svg_bar_chart(&h, "t", b, 5, "x", "y");
	rects = 0;
	for (const char *p = h.p; (p = strstr(p, "<rect")); p++)
		rects++;
	CHECK(rects == 4 && strstr(h.p, ">n/a</text>") && check_structure(h.p) == 0);
	html_buf_free(&h);
}

/* ---- readers ---- */

static void test_json(void)
{
	const char *doc = "{\"k\": 6, \"night\": \"a\\\"b\\u00e9\\ud83d\\ude00\", \"extract\": "
			  "{\"skipped\": {\"total\": 3, \"truncated\": 2}}, \"l\": [1, -2.5e1, true, null]}";
	struct json_value *v = json_parse(doc, strlen(doc));
	CHECK(v != NULL);
	CHECK(json_number(json_get(v, "k"), -1) == 6);
	CHECK(!strcmp(json_string(json_get(v, "night"), ""), "a\"b\xc3\xa9\xf0\x9f\x98\x80"));
	CHECK(json_number(json_get(json_get(json_get(v, "extract"), "skipped"), "truncated"), 0) == 2);
	const struct json_value *l = json_get(v, "l");
	CHECK(l && l->type == JSON_ARRAY && l->len == 4 && l->items[1].num == -25 &&
	      l->items[2].type == JSON_TRUE && l->items[3].type == JSON_NULL);
	CHECK(json_get(v, "nothing") == NULL && json_get(NULL, "k") == NULL);
	CHECK(json_int(json_get(v, "k"), -1) == 6 && json_int(json_get(v, "night"), -1) == -1);
	json_free(v);
	v = json_parse("[1e300, -1e300, 9007199254740992, 2.9]", 38);
	CHECK(v && json_int(&v->items[0], -1) == -1 && json_int(&v->items[1], -1) == -1 &&
	      json_int(&v->items[2], -1) == 9007199254740992LL && json_int(&v->items[3], -1) == 2);
	json_free(v);
	static const char *const bad[] = {"", "{", "[1,]", "{\"a\" 1}", "\"\\ud800\"", "01",
					  "1 2", "\"a\nb\"", "[1e]", "tru", "{\"a\":1,}", "\"\\x\""};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		v = json_parse(bad[i], strlen(bad[i]));
		CHECK(v == NULL);
		json_free(v);
	}
	char deep[200];
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	CHECK(json_parse(deep, 130) == NULL);
	v = json_parse(deep + 1, 128);
	CHECK(v != NULL);
	json_free(v);
}

static void test_csv(void)
{
	static const char text[] = "a,b,c\r\n1,\"x,y\",\"he said \"\"hi\"\"\"\r\n"
				   "2,\"two\nlines\",\r\n3,,last";
	FILE *fp = fmemopen((void *)text, sizeof text - 1, "rb");
	struct csv_record r = {0};
	CHECK(csv_read_record(fp, &r) == 1 && r.n_fields == 3 && csv_column(&r, "c") == 2);
	CHECK(csv_column(&r, "d") == -1);
	CHECK(csv_read_record(fp, &r) == 1 && !strcmp(csv_field_at(&r, 1), "x,y") &&
	      !strcmp(csv_field_at(&r, 2), "he said \"hi\""));
	CHECK(csv_read_record(fp, &r) == 1 && !strcmp(csv_field_at(&r, 1), "two\nlines") &&
	      r.n_fields == 3 && csv_field_len(&r, 2) == 0);
	CHECK(csv_read_record(fp, &r) == 1 && !strcmp(csv_field_at(&r, 2), "last") &&
	      !strcmp(csv_field_at(&r, 9), ""));
	CHECK(csv_read_record(fp, &r) == 0);
	fclose(fp);
	static const char *const bad[] = {"a\"b\n", "\"ab\n", "\"a\"b\n", "a\rb\n"};
	for (size_t i = 0; i < 4; i++) {
		fp = fmemopen((void *)bad[i], strlen(bad[i]), "rb");
		CHECK(csv_read_record(fp, &r) == -1);
		fclose(fp);
	}
	csv_record_free(&r);
}

/* The reader as it was, a getc() per byte: the reference the line reader
 * must agree with (records, fields, their bytes and every error). */
struct ref_rec {
	char buf[512];
	size_t len, start[256], flen[256], n;
};

static int ref_quoted(FILE *fp, struct ref_rec *r)
{
	for (;;) {
		int ch = getc(fp);
		if (ch == EOF)
			return -2;
		if (ch == '"' && (ch = getc(fp)) != '"')
			return ch;
		r->buf[r->len++] = (char)ch;
	}
}

static int ref_read(FILE *fp, struct ref_rec *r)
{
	r->len = r->n = 0;
	int ch = getc(fp);
	if (ch == EOF)
		return 0;
	for (;;) {
		const size_t start = r->len;
		if (ch == '"') {
			if ((ch = ref_quoted(fp, r)) < -1)
				return -1;
		} else {
			while (ch != EOF && ch != ',' && ch != '\n' && ch != '\r') {
				if (ch == '"')
					return -1;
				r->buf[r->len++] = (char)ch;
				ch = getc(fp);
			}
		}
		r->start[r->n] = start;
		r->flen[r->n++] = r->len - start;
		r->buf[r->len++] = 0;
		if (ch == ',') {
			ch = getc(fp);
			continue;
		}
		if (ch == '\r' && (ch = getc(fp)) != '\n')
			return -1;
		return ch == '\n' || ch == EOF ? 1 : -1;
	}
}

/* Random inputs of commas, quotes, CR, LF, NUL and letters (half of them
 * with fields longer than the reader's 16-byte steps): the same records
 * and errors as the reference, record by record to the end. */
static void test_csv_vs_reference(void)
{
	static const char alphabet[] = {'a', 'b', 'c', 'd', 'e', ',', ',', ',', '"', '"', '\n', '\n', '\r', '\0'};
	uint64_t st = test_seed(1127);
	struct csv_record r = {0};
	struct ref_rec want;
	int wrong = 0, records = 0, errors = 0;
	for (int it = 0; it < 20000; it++) {
		char in[120];
		const size_t n = 1 + test_rand(&st) % (sizeof in - 1);
		for (size_t k = 0; k < n; k++) /* every other input: long plain fields */
			in[k] = it % 2 && test_rand(&st) % 24 ? 'f' : alphabet[test_rand(&st) % sizeof alphabet];
		FILE *a = fmemopen(in, n, "rb"), *b = fmemopen(in, n, "rb");
		for (;;) {
			const int x = csv_read_record(a, &r), y = ref_read(b, &want);
			if (x != y) {
				wrong++;
				break;
			}
			if (x != 1) {
				errors += x < 0;
				break;
			}
			records++;
			int same = r.n_fields == want.n;
			for (size_t f = 0; same && f < want.n; f++)
				same = csv_field_len(&r, f) == want.flen[f] &&
				       !memcmp(csv_field_at(&r, f), want.buf + want.start[f], want.flen[f] + 1);
			if (!same) {
				wrong++;
				break;
			}
		}
		fclose(a);
		fclose(b);
	}
	csv_record_free(&r);
	CHECK(wrong == 0 && records > 15000 && errors > 1000);
}

static int key_is(char *k, const char *want)
{
	const int ok = k && !strcmp(k, want);
	if (!ok)
		fprintf(stderr, "key '%s', want '%s'\n", k ? k : "(null)", want);
	free(k);
	return ok;
}

static void test_lookalike(void)
{
	/* a site's name after the last separator goes; a title that is mostly
	 * its last segment keeps it */
	CHECK(key_is(lookalike_title_key("Bakers Bet on Grain | The Daily Planet"), "bakers bet on grain"));
	CHECK(key_is(lookalike_title_key("Bakers Bet on Grain -- Metro Wire"), "bakers bet on grain"));
	CHECK(key_is(lookalike_title_key("\xe5\x9e\x83\xe5\x9c\xbe\xe5\x88\x86\xe7\xb1\xbb_\xe5\x8d\x8e"),
		     "\xe5\x9e\x83\xe5\x9c\xbe\xe5\x88\x86\xe7\xb1\xbb"));
	CHECK(key_is(lookalike_title_key("Culture 1 - Rare Factory"), "culture 1 - rare factory"));
	CHECK(key_is(lookalike_title_key("A - B - C Long Story Here"), "a - b - c long story here"));
	CHECK(key_is(lookalike_title_key(""), ""));
	CHECK(key_is(lookalike_opening_key("a b c d e f g h i j k l m n"), "a b c d e f g h i j k l"));
	CHECK(key_is(lookalike_opening_key("one two"), "one two"));
	CHECK(key_is(lookalike_opening(" one\ntwo\t three  four ", 24, 3), "one two three"));
	const char *s[] = {"b", "a", "b", "", "a"};
	CHECK(lookalike_distinct(s, 5) == 3 && lookalike_distinct(s, 0) == 0);
}

static void test_hosts(void)
{
	static const char *const cases[][2] = {
		{"http://Example.COM/a/b", "example.com"},
		{"https://user:pw@www.x.org:8080/?q", "www.x.org"},
		{"http://[::1]:80/x", "[::1]:80"},
		{"http://h.example?q=1", "h.example"},
		{"h.example/path", "h.example"},
		{"http://a/\"><script>", "a"},
		{"http://a:1@b:2@C.d:3/x@y:z", "c.d"},
		{"http://u:p@[::1]:80/", "[::1]:80"},
		{"ftp://h.example#f:1", "h.example"},
		{"http://h.example:8080", "h.example"},
		{"", ""},
	};
	char host[64];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		hostshare_url_host(cases[i][0], host, sizeof host);
		CHECK(!strcmp(host, cases[i][1]));
	}
	hostshare_url_host("http://abcdefgh/", host, 4);
	CHECK(!strcmp(host, "abc"));
	struct host_table t = {0};
	int fails = 0;
	for (int i = 0; i < 3000; i++) { /* grows past its first 1024 slots */
		char url[64];
		snprintf(url, sizeof url, "http://h%d.example/p%d", i % 1500, i);
		fails += hostshare_add(&t, url, i % 3 == 0, i % 9 == 0);
	}
	fails += hostshare_add(&t, "http://H7.EXAMPLE:81/x", 1, 0);
	CHECK(fails == 0 && t.n == 1500 && t.pages == 3001 && t.dropped == 1001 && t.dropped_earlier == 334);
	const size_t n = hostshare_sort(&t);
	CHECK(n == 1500);
	/* h0: pages 0 and 1500, both dropped (i % 3 == 0); h7 dropped in 1 of 3 */
	CHECK(!strcmp(t.slot[0].host, "h0.example") && t.slot[0].pages == 2 && t.slot[0].dropped == 2);
	for (size_t i = 1; i < n; i++)
		CHECK(t.slot[i - 1].dropped >= t.slot[i].dropped);
	hostshare_free(&t);
	CHECK(t.slot == NULL && t.n == 0);
}

int main(void)
{
	test_lookalike();
	test_hosts();
	test_escape_vectors();
	test_escape_random();
	test_page();
	test_chart();
	test_json();
	test_csv();
	test_csv_vs_reference();
	return test_finish("test_report_html");
}
