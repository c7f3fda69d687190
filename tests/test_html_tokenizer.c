/*
 * test_html_tokenizer.c - the tokenizer's shortcuts against its plain
 * reading.
 *
 * Each shortcut of html_scan.h must give what the plain
 * byte-by-byte reading gives, on inputs that reach both: the same tokens
 * are read with the shortcut's conditions met (a remembered name, room
 * before the end) and not met (a fresh tokenizer, the input's end close
 * by), at every length.  Raw text, which the scan meets only where its
 * loop ends, is checked token by token.  Inputs sit in buffers of their
 * exact size, so the sanitizer build catches a read past the end.
 */
#include "html/html_tokenizer.h"
#include "html/html_scan.h"
#include "testutil.h"

#include <string.h>

/* What read_attrs() leaves in a token, and where it stops. */
struct attrs_result {
	const char *end; /* NULL: the input ended inside the tag */
	struct htok_attr attrs[HTOK_MAX_ATTRS];
	int n_attrs, self_closing;
	unsigned attr_kinds;
};

/* The same @n attributes, where they lie? */
static int same_attr_list(const struct htok_attr *a, const struct htok_attr *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i].value != b[i].value || a[i].value_len != b[i].value_len || a[i].kind != b[i].kind)
			return 0;
	return 1;
}

static int same_attrs(const struct attrs_result *a, const struct attrs_result *b)
{
	if (a->end != b->end || a->n_attrs != b->n_attrs || a->attr_kinds != b->attr_kinds ||
	    a->self_closing != b->self_closing)
		return 0;
	return same_attr_list(a->attrs, b->attrs, a->n_attrs);
}

/* The attributes at [p, end) read by read_attrs() (@plain 0) or by
 * its plain reading alone (@plain 1), with the attribute names of @names. */
static void read_with(const char *p, const char *end, struct htok_seen *names, int plain,
		      struct attrs_result *r)
{
	struct htok_token tok = {0};
	tok.attrs = r->attrs;
	r->end = read_attrs(p, end, &tok, names, 0, plain);
	r->n_attrs = tok.n_attrs;
	r->self_closing = tok.self_closing;
	r->attr_kinds = tok.attr_kinds;
}

/* One attribute section of @k random attributes, from the pieces that
 * make the shortcut's edge cases, into @out (NUL-terminated). */
static void random_attrs(uint64_t *st, int k, char *out, size_t cap)
{
	static const char *const blanks[] = {" ", " ", " ", "  ", "\n", "\t ", " \f", "", "/", " /"};
	static const char *const names[] = {"class", "CLASS", "Class", "id", "ID", "href", "hReF",
		"role", "style", "hidden", "aria-hidden", "title", "data-x", "x", "c", "clas",
		"classy", "abcdefg", "abcdefgh", "abcdefghijklmnop", "=x", "i\x01", "h-", "itemprop",
		"ITEMprop", "itempro"};
	static const char *const eqs[] = {"=", "=", "=", "=", " = ", "= ", " =", "", "=\n"};
	static const char *const values[] = {"\"pre\"", "\"reference internal\"", "'a b'", "\"\"",
		"''", "\"a>b\"", "'x\"y'", "\"x'y\"", "unquoted", "u/", "\"a/>b\"",
		"\"https://docs.example.org/en/latest/library/functions.html#len\"",
		"\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789\""};
	static const char *const ends[] = {">", ">", "/>", " >", " />", "", "\"", " /x>", "\n>"};
#define PICK(a) a[test_rand(st) % (sizeof(a) / sizeof(a[0]))]
	size_t n = 0;
	out[0] = 0;
	for (int i = 0; i < k; i++) {
		n += (size_t)snprintf(out + n, cap - n, "%s%s", PICK(blanks), PICK(names));
		if (test_rand(st) % 8)
			n += (size_t)snprintf(out + n, cap - n, "%s%s", PICK(eqs), PICK(values));
	}
	n += (size_t)snprintf(out + n, cap - n, "%s", PICK(ends));
	if (test_rand(st) % 2)
		snprintf(out + n, cap - n, "%.*s", (int)(test_rand(st) % 48),
			 "text after the tag, and more text after that one");
#undef PICK
}

/* Does read_attrs() take its shortcut for the first attribute at @s
 * (@n bytes), with the names of @names: one space, a name remembered
 * with its '=', a quote, 32 bytes before the end? */
static int takes_shortcut(const char *s, size_t n, const struct htok_seen *names)
{
	if (n < 32 || s[0] != ' ')
		return 0;
	const struct htok_seen *const e = &names[(unsigned char)s[1] & 31];
	const char *const name = (const char *)&e->raw; /* little-endian */
	return e->mask && !memcmp(s + 1, name, e->len + 1u) && name[e->len] == '=' &&
	       (s[2 + e->len] == '"' || s[2 + e->len] == '\'');
}

/*
 * read_attrs() against its plain reading: random attribute sections cut
 * at every length, read with the names remembered from every section
 * before (the shortcut's condition) and with none.
 */
static void test_attrs_shortcut(void)
{
	uint64_t st = test_seed(31);
	struct htok_pos remembered, fresh;
	htok_pos_init(&remembered, NULL, 0);
	int bad = 0;
	long fast = 0, slow = 0;
	for (int round = 0; round < 20000; round++) {
		char text[1024];
		random_attrs(&st, 1 + (int)(test_rand(&st) % 5), text, sizeof(text));
		const size_t len = strlen(text);
		for (size_t n = 0; n <= len; n++) {
			char *const buf = malloc(n ? n : 1);
			if (!buf)
				abort();
			memcpy(buf, text, n);
			struct attrs_result a, b;
			const int shape = takes_shortcut(buf, n, remembered.seen_attr);
			htok_pos_init(&fresh, NULL, 0);
			read_with(buf, buf + n, remembered.seen_attr, 0, &a);
			read_with(buf, buf + n, fresh.seen_attr, 1, &b);
			if (!same_attrs(&a, &b)) {
				if (bad++ < 5)
					printf("  attrs differ: \"%.*s\"\n", (int)n, buf);
			}
			fast += shape;
			slow += !shape;
			free(buf);
		}
	}
	CHECK(bad == 0);
	printf("attribute sections: %ld through the shortcut, %ld not\n", fast, slow);
	CHECK(fast > 1000 && slow > 1000);
}

/* The tokens of @in, each as "type:tag:text|" (type S, E, T, R for raw
 * text), into @out. */
static void tokens_of(const char *in, size_t n, char *out, size_t cap)
{
	struct htok t;
	struct htok_token tok;
	size_t len = 0;
	out[0] = 0;
	htok_init(&t, in, n);
	for (int k = 0; k < 64 && len < cap; k++) {
		const enum htok_type y = htok_next(&t, &tok);
		if (y == HTOK_EOF)
			break;
		const char c = y == HTOK_START ? 'S' : y == HTOK_END ? 'E' : tok.raw ? 'R' : 'T';
		len += (size_t)snprintf(out + len, cap - len, "%c:%s:%.*s|", c,
					y == HTOK_TEXT && !tok.raw ? "" : htag_name(tok.tag), (int)tok.n,
					tok.p);
	}
	CHECK(htok_next(&t, &tok) == HTOK_EOF && htok_next(&t, &tok) == HTOK_EOF);
}

/*
 * Raw text comes after its start tag wherever that tag stands: before
 * other tags, at the input's very end, cut short, or empty (htok_scan()
 * meets it only where its loop ends).
 */
static void test_raw_text(void)
{
	static const struct {
		const char *in, *tokens;
	} cases[] = {
		{"<title>T</title>x", "S:title:title|R:title:T|E:title:title|T::x|"},
		{"<script>", "S:script:script|R:script:|"},
		{"<script>a<b", "S:script:script|R:script:a<b|"},
		{"<p><style>s</style><style>", "S:p:p|S:style:style|R:style:s|E:style:style|"
					       "S:style:style|R:style:|"},
		{"<plaintext>a</plaintext>b", "S:plaintext:plaintext|R:plaintext:a</plaintext>b|"},
		{"<TEXTAREA a=\">\">a<b>c</textarea >d", "S:textarea:TEXTAREA|R:textarea:a<b>c|"
							  "E:textarea:textarea|T::d|"},
		{"<xmp>1</xmp><xmp>2</xmpx></xmp>", "S:xmp:xmp|R:xmp:1|E:xmp:xmp|S:xmp:xmp|"
						   "R:xmp:2</xmpx>|E:xmp:xmp|"},
		{"<script", ""},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char got[512];
		const size_t n = strlen(cases[k].in);
		char *const buf = malloc(n);
		if (!buf)
			abort();
		memcpy(buf, cases[k].in, n);
		tokens_of(buf, n, got, sizeof(got));
		CHECK(!strcmp(got, cases[k].tokens));
		if (strcmp(got, cases[k].tokens))
			printf("  raw text case %zu: %s\n", k, got);
		free(buf);
	}
}

/* One random page of @k pieces into @out (NUL-terminated): tags the
 * shortcuts take and tags they leave, text short and long, markup. */
static void random_page(uint64_t *st, int k, char *out, size_t cap)
{
	static const char *const pieces[] = {"<div>", "<div class=\"a b\">", "<DIV>", "<span>",
		"<a href=\"https://docs.example.org/en/latest/library/functions.html\">", "</a>",
		"<p id='x' class=\"y\">", "<li>", "</li>", "</div>", "</span>", "</p>", "</DIV>",
		"</div >", "</span x>", "<br/>", "<img src=x alt=\"\" />", "<custom-element-name-long>",
		"</custom-element-name-long>", "<abcdefghijklmnopqrstu>", "<blockquote>", "</blockquote>",
		"<script>var a = 1 < 2;</script>", "<style>p{}</style >", "<title>T</title>",
		"<textarea>a<b</textarea>", "<!-- c -->", "<!---->", "<!doctype html>", "<?x?>", "</>",
		"< p>", "a < b", "x", "text ", " \n ", "&amp; more text, ",
		"0123456789 0123456789 0123456789 0123456789 0123456789 0123456789 0123456789 ",
		"<", "</", "<a", "<div class=", "\"", "'", "<![CDATA[x]]>", "<svg><path/></svg>",
		"<li class=\"item\" role=\"main\" hidden aria-hidden=\"true\" style='s'>"};
	size_t n = 0;
	out[0] = 0;
	for (int i = 0; i < k && n < cap; i++) {
		if (test_rand(st) % 4 == 0) { /* text of any length up to a '<' */
			const int len = (int)(test_rand(st) % 100);
			n += (size_t)snprintf(out + n, cap - n, "%.*s<", len,
					      "abcdefghijklmnopqrstuvwxyz abcdefghijklmnopqrstuvwxyz "
					      "abcdefghijklmnopqrstuvwxyz abcdefghijklmnopqrstuvwxyz");
			continue;
		}
		n += (size_t)snprintf(out + n, cap - n, "%s",
				      pieces[test_rand(st) % (sizeof(pieces) / sizeof(pieces[0]))]);
	}
}

/* Are two tokens the same, as html_text reads them? */
static int same_token(const struct htok_token *a, const struct htok_token *b)
{
	if (a->type != b->type || a->tag != b->tag || a->p != b->p || a->n != b->n ||
	    a->raw != b->raw || a->hash != b->hash)
		return 0;
	if (a->type == HTOK_TEXT || a->type == HTOK_EOF)
		return 1;
	if (a->name8 != b->name8 || (a->type == HTOK_START && a->raw8 != b->raw8))
		return 0;
	if (a->type == HTOK_END)
		return 1;
	if (a->self_closing != b->self_closing || a->n_attrs != b->n_attrs ||
	    a->attr_kinds != b->attr_kinds)
		return 0;
	return same_attr_list(a->attrs, b->attrs, a->n_attrs);
}

/* A tokenizer as html_text drives it: the open elements' htok_open, for
 * end_of_top(). */
struct scan_run {
	struct htok_pos pos;
	struct htok_token tok;
	struct htok_attr attrs[HTOK_MAX_ATTRS];
	struct htok_open stack[64], none;
	const struct htok_open *top;
	int depth;
};

static void run_init(struct scan_run *r, const char *s, size_t n)
{
	htok_pos_init(&r->pos, s, n);
	r->tok.attrs = r->attrs;
	r->none = htok_open_none();
	r->top = &r->none;
	r->depth = 0;
}

/* The next token, by htok_scan() (@use_far) or its careful reading alone;
 * with @stack, end tags are left unresolved and matched to the open
 * elements as html_text does. */
static enum htok_type run_next(struct scan_run *r, int use_far, int stack)
{
	htok_token_clear(&r->tok);
	const enum htok_type y = htok_scan_with(&r->pos, &r->tok, !stack, stack ? &r->top : NULL,
						 use_far);
	if (!stack)
		return y;
	if (y == HTOK_START && r->depth < 64 && !(htok_props(r->tok.tag) & HP_VOID))
		r->stack[r->depth++] = (struct htok_open){r->tok.name8, r->tok.raw8};
	else if (y == HTOK_END && r->depth && r->tok.name8 == r->stack[r->depth - 1].name8)
		r->depth--;
	r->top = r->depth ? &r->stack[r->depth - 1] : &r->none;
	return y;
}

/* The tokens of [buf, buf+n) read both ways; how many the far reading
 * took (started HTOK_FAR bytes or more before the end) into *far. */
static int same_tokens(const char *buf, size_t n, int stack, long *far)
{
	static struct scan_run a, b;
	run_init(&a, buf, n);
	run_init(&b, buf, n);
	for (int k = 0; k < 100000; k++) {
		*far += far_from_end(&a.pos);
		const enum htok_type y = run_next(&a, 1, stack);
		/* b remembers no names: no seen_name() or attrs_fast() shortcut */
		for (size_t i = 0; i < sizeof b.pos.seen / sizeof b.pos.seen[0]; i++)
			b.pos.seen[i] = b.pos.seen_attr[i] = (struct htok_seen){~0ull, 0, 0, 0, 0};
		run_next(&b, 0, stack);
		if (!same_token(&a.tok, &b.tok) || a.pos.p != b.pos.p)
			return 0;
		if (y == HTOK_EOF)
			return 1;
	}
	return 0;
}

/*
 * htok_scan() against its careful reading alone: random pages cut at
 * every length near their end (where the far reading hands over), each
 * in a buffer of its exact size.
 */
static void test_far_reading(void)
{
	uint64_t st = test_seed(47);
	int bad = 0;
	long far = 0, pages = 0;
	for (int round = 0; round < 3000; round++) {
		static char text[8192];
		random_page(&st, 1 + (int)(test_rand(&st) % 60), text, sizeof(text));
		const size_t len = strlen(text);
		for (size_t n = len > 2 * HTOK_FAR ? len - 2 * HTOK_FAR : 0; n <= len; n++) {
			char *const buf = malloc(n ? n : 1);
			if (!buf)
				abort();
			memcpy(buf, text, n);
			for (int stack = 0; stack < 2; stack++)
				if (!same_tokens(buf, n, stack, &far) && bad++ < 5)
					printf("  tokens differ (stack %d): \"%.*s\"\n", stack, (int)n, buf);
			pages++;
			free(buf);
		}
	}
	CHECK(bad == 0);
	printf("far reading: %ld pages, %ld tokens read far\n", pages, far);
	CHECK(far > 100000);
}

int main(void)
{
	test_attrs_shortcut();
	test_raw_text();
	test_far_reading();
	return test_finish("test_html_tokenizer");
}
