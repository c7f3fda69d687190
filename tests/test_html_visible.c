/*
 * test_html_visible.c - the visible text of a page, as the tokenizer
 * (html_tokenizer.h) and the character references (html_entities.h) make
 * it, for the differential test against html5lib (tests/html_diff.py).
 *
 * Visible text: every text token in document order, character
 * references decoded (not in raw text), but the content of script,
 * style, xmp, iframe, noembed, noframes and noscript (scripting on);
 * that of title and textarea counts (decoded), as does plaintext and
 * CDATA sections in svg/math (not decoded); a newline right after
 * <pre>, <listing> or <textarea> is dropped; then runs of bytes <= ' '
 * and U+00A0 become one space, trimmed (html_collapse()).  Just enough
 * of the tree builder is here to tell the tokenizer when it is in
 * foreign content (svg, math, their HTML integration points, the HTML
 * tags that break out of them).  It is rough (HTML end tags do not close
 * foreign content here, no implied end tags): enough that >= 99.9% of the generated
 * pages agree with html5lib, where the tokenizer is what is tested.
 *
 *   test_html_visible                 built-in cases (make test)
 *   test_html_visible --visible FILE  FILE: records "<bytes>\n<page>";
 *                                     one line of visible text each
 */
#include "html/html_entities.h"
#include "html/html_tokenizer.h"
#include "testutil.h"

#include <string.h>

/* An element open in foreign content, or an HTML one inside it. */
struct frame {
	char name[24]; /* lower case, cut */
	int kind;      /* 0: HTML, 1: foreign, 2: foreign, an HTML integration point */
	int svg;       /* foreign: in the SVG namespace (else MathML) */
};

struct vis {
	struct frame stack[256];
	int depth;
	char *out;
	size_t len, cap;
	int pending;
	int skip_newline; /* the last token opened pre, listing or textarea */
};

static void name_of(const struct htok_token *tok, char *name, size_t cap)
{
	size_t i = 0;
	for (; i < tok->n && i + 1 < cap; i++) {
		const char c = tok->p[i];
		name[i] = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
	}
	name[i] = 0;
}

static int in_list(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return 1;
	return 0;
}

/* Start tags that close foreign content (WHATWG "in foreign content"). */
static const char *const breakout[] = {"b", "big", "blockquote", "body", "br", "center", "code",
	"dd", "div", "dl", "dt", "em", "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr",
	"i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small",
	"span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var", NULL};
static const char *const svg_points[] = {"foreignobject", "desc", "title", NULL};
static const char *const math_points[] = {"mi", "mo", "mn", "ms", "mtext", NULL};
static const char *const hidden[] = {"script", "style", "xmp", "iframe", "noembed", "noframes",
	"noscript", NULL};
static const char *const voids[] = {"area", "base", "br", "col", "embed", "hr", "img", "input",
	"link", "meta", "param", "source", "track", "wbr", "keygen", NULL};

static void push(struct vis *v, const char *name, int kind, int svg)
{
	if (v->depth == (int)(sizeof v->stack / sizeof v->stack[0]))
		return;
	snprintf(v->stack[v->depth].name, sizeof v->stack[0].name, "%s", name);
	v->stack[v->depth].svg = svg;
	v->stack[v->depth++].kind = kind;
}

static void start_tag(struct vis *v, const struct htok_token *tok)
{
	char name[24];
	name_of(tok, name, sizeof name);
	int top = v->depth ? v->stack[v->depth - 1].kind : 0;
	if (top == 1 && in_list(name, breakout)) {
		while (v->depth && v->stack[v->depth - 1].kind == 1)
			v->depth--;
		top = v->depth ? v->stack[v->depth - 1].kind : 0;
	}
	if (top == 1) { /* a foreign element, in its parent's namespace */
		if (!tok->self_closing) {
			const int svg = v->stack[v->depth - 1].svg;
			const int point = in_list(name, svg ? svg_points : math_points);
			push(v, name, point ? 2 : 1, svg);
		}
		return;
	}
	if (!strcmp(name, "svg") || !strcmp(name, "math")) {
		if (!tok->self_closing)
			push(v, name, 1, name[0] == 's');
		return;
	}
	v->skip_newline = !strcmp(name, "pre") || !strcmp(name, "listing") || !strcmp(name, "textarea");
	if (v->depth && !in_list(name, voids))
		push(v, name, 0, 0);
}

/* An end tag closes the innermost open element of its name inside
 * foreign content (HTML elements outside it are not tracked). */
static void end_tag(struct vis *v, const struct htok_token *tok)
{
	char name[24];
	name_of(tok, name, sizeof name);
	for (int i = v->depth - 1; i >= 0; i--) {
		if (!strcmp(v->stack[i].name, name)) {
			v->depth = i;
			return;
		}
		if (v->stack[i].kind == 0 && i < v->depth - 1)
			break;
	}
}

static void add_text(struct vis *v, const char *s, size_t n, int decode)
{
	if (v->skip_newline && n && s[0] == '\n')
		s++, n--;
	else if (v->skip_newline && n >= 2 && s[0] == '\r' && s[1] == '\n')
		s += 2, n -= 2;
	else if (v->skip_newline && n && s[0] == '\r')
		s++, n--;
	v->skip_newline = 0;
	const size_t need = v->len + HTML_COLLAPSE_MAX(n) + HTML_COLLAPSE_SLACK;
	if (need > v->cap) {
		v->cap = need * 2;
		v->out = realloc(v->out, v->cap);
		if (!v->out)
			abort();
	}
	v->len += html_collapse(v->out + v->len, s, n, n, v->len > 0, &v->pending, decode);
}

/* The visible text of [s, s+n) into v->out / v->len. */
static void visible(struct vis *v, const char *s, size_t n)
{
	struct htok t;
	struct htok_token tok;
	v->depth = 0;
	v->len = 0;
	v->pending = 0;
	v->skip_newline = 0;
	htok_init(&t, s, n);
	while (htok_next(&t, &tok) != HTOK_EOF) {
		if (tok.type == HTOK_TEXT) {
			const char *const tag = htag_name(tok.tag);
			if (tok.raw && in_list(tag, hidden))
				v->skip_newline = 0;
			else
				add_text(v, tok.p, tok.n, !tok.raw || !strcmp(tag, "title") || !strcmp(tag, "textarea"));
		} else {
			if (tok.type == HTOK_START)
				start_tag(v, &tok);
			else
				end_tag(v, &tok), v->skip_newline = 0;
			const int top = v->depth ? v->stack[v->depth - 1].kind : 0;
			htok_set_foreign(&t, top == 1 ? HTOK_FOREIGN : top == 2 ? HTOK_FOREIGN_CDATA : 0);
		}
	}
}

static int visible_is(const char *html, const char *want)
{
	struct vis v = {0};
	visible(&v, html, strlen(html));
	const int ok = v.len == strlen(want) && !memcmp(v.out, want, v.len);
	if (!ok)
		fprintf(stderr, "visible text of '%s': '%.*s', want '%s'\n", html, (int)v.len, v.out, want);
	free(v.out);
	return ok;
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 2;
	struct vis v = {0};
	size_t n;
	while (fscanf(f, "%zu", &n) == 1 && fgetc(f) == '\n') {
		char *const page = malloc(n ? n : 1);
		if (!page || fread(page, 1, n, f) != n)
			return 2;
		visible(&v, page, n);
		fwrite(v.out ? v.out : "", 1, v.len, stdout);
		putchar('\n');
		free(page);
	}
	free(v.out);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--visible"))
		return run_file(argv[2]);
	/* issue 17's cases */
	CHECK(visible_is("a<script><!--document.write(\"<script>x</script>\");//--></script>b", "ab"));
	CHECK(visible_is("a<!-- x --!>b", "ab"));
	CHECK(visible_is("a<![CDATA[ x > y ]]>b", "a y ]]>b"));
	CHECK(visible_is("&bigstar;&NonBreakingSpace;&Amacr;", "\xE2\x98\x85 \xC4\x80"));
	/* foreign content: CDATA is text, script is no raw text, <p> breaks out */
	CHECK(visible_is("<svg><![CDATA[a<b>&amp;]]></svg>", "a<b>&amp;"));
	CHECK(visible_is("<svg><script>1<b>2</b>&lt;</script></svg>", "12<"));
	CHECK(visible_is("<svg><desc><script>no</script><![CDATA[x]]></desc></svg>", "x"));
	CHECK(visible_is("<svg><g><p><script>no</script><![CDATA[y>z", "z"));
	CHECK(visible_is("<math><mi><style>no</style></mi><style>yes</style></math>", "yes"));
	/* raw text and RCDATA */
	CHECK(visible_is("<title>a&amp;<b>b</title><textarea>\nc&lt;</textarea>", "a&<b>bc<"));
	CHECK(visible_is("<xmp>&amp;<b></xmp><noscript><p>n</p></noscript><plaintext>&amp;</plaintext>",
			 "&amp;</plaintext>"));
	CHECK(visible_is("<pre>\nx</pre><pre>\n\ny</pre>", "x y"));
	CHECK(visible_is("a</", "a</"));
	CHECK(visible_is("a</>b</ x>c<?pi>d<!x>e<!DOCTYPE a \"b>c\">f", "abcdec\">f"));
	return test_finish("test_html_visible");
}
