/*
 * html_tokenizer.c - the tokenizer behind html_text.
 *
 * A simplified form of the WHATWG tokenizer states that matter when only
 * the text is wanted: data, tag open, tag name, attribute name/value
 * (quoted and unquoted), comment, bogus comment, CDATA and raw text.
 * Character references are left to the caller, which decodes them while
 * it copies text anyway.  Every scan is a memchr()/memmem() or a loop
 * bounded by t->end, so malformed input can only end a token early.
 */
#include "html_tokenizer.h"

#include <string.h>

struct tag_info {
	const char *name;
	enum htag tag;
	unsigned props;
};

/*
 * Sorted by name; enum htag lists the same names in the same order after
 * HTAG_UNKNOWN, so tags[id - 1] describes element id.
 */
static const struct tag_info tags[] = {
	{"a", HTAG_A, HP_LINK},
	{"abbr", HTAG_ABBR, 0},
	{"address", HTAG_ADDRESS, HP_BLOCK | HP_CLOSES_P},
	{"applet", HTAG_APPLET, HP_DROP},
	{"area", HTAG_AREA, HP_VOID},
	{"article", HTAG_ARTICLE, HP_BLOCK | HP_CLOSES_P | HP_MAIN},
	{"aside", HTAG_ASIDE, HP_BLOCK | HP_BOILER | HP_CLOSES_P},
	{"audio", HTAG_AUDIO, HP_DROP},
	{"b", HTAG_B, 0},
	{"base", HTAG_BASE, HP_HEAD_OK | HP_VOID},
	{"bdi", HTAG_BDI, 0},
	{"bdo", HTAG_BDO, 0},
	{"big", HTAG_BIG, 0},
	{"blockquote", HTAG_BLOCKQUOTE, HP_BLOCK | HP_CLOSES_P},
	{"body", HTAG_BODY, HP_BLOCK},
	{"br", HTAG_BR, HP_BLOCK | HP_VOID},
	{"button", HTAG_BUTTON, HP_DROP},
	{"canvas", HTAG_CANVAS, HP_DROP},
	{"caption", HTAG_CAPTION, HP_BLOCK},
	{"center", HTAG_CENTER, HP_BLOCK | HP_CLOSES_P},
	{"cite", HTAG_CITE, 0},
	{"code", HTAG_CODE, 0},
	{"col", HTAG_COL, HP_VOID},
	{"data", HTAG_DATA, 0},
	{"datalist", HTAG_DATALIST, HP_DROP},
	{"dd", HTAG_DD, HP_BLOCK | HP_CLOSES_P},
	{"del", HTAG_DEL, 0},
	{"details", HTAG_DETAILS, HP_BLOCK | HP_CLOSES_P},
	{"dfn", HTAG_DFN, 0},
	{"dialog", HTAG_DIALOG, HP_BLOCK | HP_CLOSES_P},
	{"dir", HTAG_DIR, HP_BLOCK | HP_CLOSES_P},
	{"div", HTAG_DIV, HP_BLOCK | HP_CLOSES_P},
	{"dl", HTAG_DL, HP_BLOCK | HP_CLOSES_P},
	{"dt", HTAG_DT, HP_BLOCK | HP_CLOSES_P},
	{"em", HTAG_EM, 0},
	{"embed", HTAG_EMBED, HP_VOID},
	{"fieldset", HTAG_FIELDSET, HP_BLOCK | HP_CLOSES_P},
	{"figcaption", HTAG_FIGCAPTION, HP_BLOCK | HP_CLOSES_P},
	{"figure", HTAG_FIGURE, HP_BLOCK | HP_CLOSES_P},
	{"font", HTAG_FONT, 0},
	{"footer", HTAG_FOOTER, HP_BLOCK | HP_BOILER | HP_CLOSES_P},
	{"form", HTAG_FORM, HP_BLOCK | HP_CLOSES_P | HP_FORM},
	{"frame", HTAG_FRAME, HP_BLOCK},
	{"frameset", HTAG_FRAMESET, HP_BLOCK | HP_DROP},
	{"h1", HTAG_H1, HP_BLOCK | HP_CLOSES_P | HP_HEADING},
	{"h2", HTAG_H2, HP_BLOCK | HP_CLOSES_P | HP_HEADING},
	{"h3", HTAG_H3, HP_BLOCK | HP_CLOSES_P | HP_HEADING},
	{"h4", HTAG_H4, HP_BLOCK | HP_CLOSES_P | HP_HEADING},
	{"h5", HTAG_H5, HP_BLOCK | HP_CLOSES_P | HP_HEADING},
	{"h6", HTAG_H6, HP_BLOCK | HP_CLOSES_P | HP_HEADING},
	{"head", HTAG_HEAD, HP_DROP | HP_HEAD_OK},
	{"header", HTAG_HEADER, HP_BLOCK | HP_BOILER | HP_CLOSES_P},
	{"hgroup", HTAG_HGROUP, HP_BLOCK | HP_CLOSES_P},
	{"hr", HTAG_HR, HP_BLOCK | HP_CLOSES_P | HP_VOID},
	{"html", HTAG_HTML, HP_BLOCK},
	{"i", HTAG_I, 0},
	{"iframe", HTAG_IFRAME, HP_DROP | HP_RAW},
	{"img", HTAG_IMG, HP_VOID},
	{"input", HTAG_INPUT, HP_VOID},
	{"ins", HTAG_INS, 0},
	{"kbd", HTAG_KBD, 0},
	{"keygen", HTAG_KEYGEN, HP_VOID},
	{"label", HTAG_LABEL, 0},
	{"legend", HTAG_LEGEND, HP_BLOCK},
	{"li", HTAG_LI, HP_BLOCK | HP_CLOSES_P},
	{"link", HTAG_LINK, HP_HEAD_OK | HP_VOID},
	{"main", HTAG_MAIN, HP_BLOCK | HP_CLOSES_P | HP_MAIN},
	{"map", HTAG_MAP, HP_DROP},
	{"mark", HTAG_MARK, 0},
	{"math", HTAG_MATH, HP_DROP | HP_FOREIGN},
	{"menu", HTAG_MENU, HP_BLOCK | HP_BOILER | HP_CLOSES_P},
	{"meta", HTAG_META, HP_HEAD_OK | HP_VOID},
	{"nav", HTAG_NAV, HP_BLOCK | HP_BOILER | HP_CLOSES_P},
	{"nobr", HTAG_NOBR, 0},
	{"noembed", HTAG_NOEMBED, HP_DROP | HP_RAW},
	{"noframes", HTAG_NOFRAMES, HP_BLOCK | HP_DROP | HP_RAW},
	{"noscript", HTAG_NOSCRIPT, HP_DROP | HP_HEAD_OK | HP_RAW},
	{"object", HTAG_OBJECT, HP_DROP},
	{"ol", HTAG_OL, HP_BLOCK | HP_CLOSES_P},
	{"optgroup", HTAG_OPTGROUP, HP_BLOCK},
	{"option", HTAG_OPTION, HP_BLOCK},
	{"p", HTAG_P, HP_BLOCK | HP_CLOSES_P},
	{"param", HTAG_PARAM, HP_VOID},
	{"picture", HTAG_PICTURE, 0},
	{"plaintext", HTAG_PLAINTEXT, HP_BLOCK | HP_RAW},
	{"pre", HTAG_PRE, HP_BLOCK | HP_CLOSES_P},
	{"q", HTAG_Q, 0},
	{"s", HTAG_S, 0},
	{"samp", HTAG_SAMP, 0},
	{"script", HTAG_SCRIPT, HP_DROP | HP_HEAD_OK | HP_RAW},
	{"section", HTAG_SECTION, HP_BLOCK | HP_CLOSES_P},
	{"select", HTAG_SELECT, HP_DROP},
	{"small", HTAG_SMALL, 0},
	{"source", HTAG_SOURCE, HP_VOID},
	{"span", HTAG_SPAN, 0},
	{"strike", HTAG_STRIKE, 0},
	{"strong", HTAG_STRONG, 0},
	{"style", HTAG_STYLE, HP_DROP | HP_HEAD_OK | HP_RAW},
	{"sub", HTAG_SUB, 0},
	{"summary", HTAG_SUMMARY, HP_BLOCK | HP_CLOSES_P},
	{"sup", HTAG_SUP, 0},
	{"svg", HTAG_SVG, HP_DROP | HP_FOREIGN},
	{"table", HTAG_TABLE, HP_BLOCK | HP_CLOSES_P},
	{"tbody", HTAG_TBODY, HP_BLOCK},
	{"td", HTAG_TD, HP_BLOCK},
	{"template", HTAG_TEMPLATE, HP_DROP | HP_HEAD_OK},
	{"textarea", HTAG_TEXTAREA, HP_DROP | HP_RAW},
	{"tfoot", HTAG_TFOOT, HP_BLOCK},
	{"th", HTAG_TH, HP_BLOCK},
	{"thead", HTAG_THEAD, HP_BLOCK},
	{"time", HTAG_TIME, 0},
	{"title", HTAG_TITLE, HP_BLOCK | HP_HEAD_OK | HP_RAW},
	{"tr", HTAG_TR, HP_BLOCK},
	{"track", HTAG_TRACK, HP_VOID},
	{"tt", HTAG_TT, 0},
	{"u", HTAG_U, 0},
	{"ul", HTAG_UL, HP_BLOCK | HP_CLOSES_P},
	{"var", HTAG_VAR, 0},
	{"video", HTAG_VIDEO, HP_DROP},
	{"wbr", HTAG_WBR, HP_VOID},
	{"xmp", HTAG_XMP, HP_BLOCK | HP_RAW},
};

#define N_TAGS (sizeof(tags) / sizeof(tags[0]))
#define MAX_TAG_NAME 15 /* longer names are unknown elements */

_Static_assert(N_TAGS == HTAG_COUNT - 1, "tag table and enum htag disagree");

static int is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static int is_alpha(int c)
{
	return (unsigned)((c | 0x20) - 'a') < 26;
}

static int to_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

unsigned htag_props(enum htag tag)
{
	return tag > HTAG_UNKNOWN && tag < HTAG_COUNT ? tags[tag - 1].props : 0;
}

int htok_attr_is(const struct htok_attr *a, const char *lower_name)
{
	for (uint32_t i = 0; i < a->name_len; i++)
		if (to_lower((unsigned char)a->name[i]) != lower_name[i])
			return 0;
	return lower_name[a->name_len] == 0;
}

/* strcmp() for names of a few bytes, without the call. */
static int name_cmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static enum htag tag_lookup(const char *name)
{
	size_t lo = 0, hi = N_TAGS;
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		const int c = name_cmp(tags[mid].name, name);
		if (c == 0)
			return tags[mid].tag;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return HTAG_UNKNOWN;
}

void htok_init(struct htok *t, const char *s, size_t n)
{
	t->p = s ? s : "";
	t->end = t->p + (s ? n : 0);
	t->raw_tag = HTAG_UNKNOWN;
}

/* A '<' at @p opens markup (tag, end tag, comment, doctype, PI)? */
static int opens_markup(const char *p, const char *end)
{
	if (end - p < 2)
		return 0;
	const int c = (unsigned char)p[1];
	return is_alpha(c) || c == '/' || c == '!' || c == '?';
}

/* Skip to just after the first occurrence of @pat, or to EOF. */
static const char *skip_past(const char *p, const char *end, const char *pat)
{
	const size_t m = strlen(pat);
	const char *const q = memmem(p, (size_t)(end - p), pat, m);
	return q ? q + m : end;
}

/* <!...>: comment, CDATA or doctype; @p at '<'.  Returns the next position. */
static const char *skip_bang(const char *p, const char *end)
{
	const size_t n = (size_t)(end - p);
	if (n >= 4 && p[2] == '-' && p[3] == '-') {
		if (n >= 5 && p[4] == '>') /* <!--> */
			return p + 5;
		if (n >= 6 && p[4] == '-' && p[5] == '>') /* <!---> */
			return p + 6;
		return skip_past(p + 4, end, "-->");
	}
	if (n >= 9 && !memcmp(p + 2, "[CDATA[", 7))
		return skip_past(p + 9, end, "]]>");
	const char *const gt = memchr(p + 2, '>', n - 2);
	return gt ? gt + 1 : end;
}

/* Read a tag name at *pp: lower-cased into @buf (or "" if too long), hashed. */
static enum htag read_name(const char **pp, const char *end, uint32_t *hash)
{
	char buf[MAX_TAG_NAME + 1];
	const char *p = *pp;
	size_t len = 0;
	uint32_t h = 2166136261u;
	while (p < end && !is_ws((unsigned char)*p) && *p != '/' && *p != '>') {
		const int c = to_lower((unsigned char)*p++);
		h = (h ^ (uint32_t)c) * 16777619u;
		if (len < sizeof(buf))
			buf[len] = (char)c;
		len++;
	}
	*pp = p;
	*hash = h;
	if (len > MAX_TAG_NAME)
		return HTAG_UNKNOWN;
	buf[len] = 0;
	return tag_lookup(buf);
}

/* One attribute value after '='; NULL if a quote runs to EOF. */
static const char *read_value(const char *p, const char *end, struct htok_attr *a)
{
	if (p < end && (*p == '"' || *p == '\'')) {
		const char *const q = memchr(p + 1, *p, (size_t)(end - p - 1));
		if (!q)
			return NULL;
		a->value = p + 1;
		a->value_len = (uint32_t)(q - p - 1);
		return q + 1;
	}
	a->value = p;
	while (p < end && !is_ws((unsigned char)*p) && *p != '>')
		p++;
	a->value_len = (uint32_t)(p - a->value);
	return p;
}

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && is_ws((unsigned char)*p))
		p++;
	return p;
}

/*
 * The attributes of a tag, up to and past its '>'.  Returns the position
 * after the tag, or NULL if the input ends inside the tag (a browser drops
 * such a tag, and so do we).
 */
static const char *read_attrs(const char *p, const char *end, struct htok_token *tok)
{
	for (;;) {
		p = skip_ws(p, end);
		if (p >= end)
			return NULL;
		if (*p == '>')
			return p + 1;
		if (*p == '/') {
			if (++p < end && *p == '>') {
				tok->self_closing = 1;
				return p + 1;
			}
			continue;
		}
		struct htok_attr a = {p, "", 0, 0};
		p++; /* a name may start with '=' */
		while (p < end && !is_ws((unsigned char)*p) && *p != '/' && *p != '>' && *p != '=')
			p++;
		a.name_len = (uint32_t)(p - a.name);
		p = skip_ws(p, end);
		if (p < end && *p == '=') {
			p = read_value(skip_ws(p + 1, end), end, &a);
			if (!p)
				return NULL;
		}
		if (tok->n_attrs < HTOK_MAX_ATTRS)
			tok->attrs[tok->n_attrs++] = a;
	}
}

/* A start or end tag; @p after "<" or "</".  Returns 1 if a token was made. */
static int read_tag(struct htok *t, struct htok_token *tok, const char *p, int is_end)
{
	tok->tag = read_name(&p, t->end, &tok->hash);
	p = read_attrs(p, t->end, tok);
	if (!p) {
		t->p = t->end;
		return 0;
	}
	t->p = p;
	tok->type = is_end ? HTOK_END : HTOK_START;
	if (is_end)
		tok->n_attrs = 0;
	else if (htag_props(tok->tag) & HP_RAW)
		t->raw_tag = tok->tag;
	return 1;
}

/* Markup at t->p (opens_markup() is true).  Returns 1 if a token was made. */
static int read_markup(struct htok *t, struct htok_token *tok)
{
	const char *const p = t->p, *const end = t->end;
	const int c = (unsigned char)p[1];
	if (is_alpha(c))
		return read_tag(t, tok, p + 1, 0);
	if (c == '!') {
		t->p = skip_bang(p, end);
		return 0;
	}
	if (c == '/' && p + 2 < end && is_alpha((unsigned char)p[2]))
		return read_tag(t, tok, p + 2, 1);
	/* "</>", "</ junk>", "<?pi ...>": bogus comments up to '>'. */
	const char *const gt = memchr(p + 1, '>', (size_t)(end - p - 1));
	t->p = gt ? gt + 1 : end;
	return 0;
}

/* Does "</name" followed by a delimiter (or EOF) start at @p? */
static int is_end_tag_of(const char *p, const char *end, const char *name)
{
	const size_t m = strlen(name);
	if ((size_t)(end - p) < m + 2 || p[1] != '/')
		return 0;
	for (size_t i = 0; i < m; i++)
		if (to_lower((unsigned char)p[2 + i]) != name[i])
			return 0;
	const char *const q = p + 2 + m;
	return q == end || is_ws((unsigned char)*q) || *q == '/' || *q == '>';
}

/* The content of raw-text element t->raw_tag, up to its end tag or EOF. */
static void read_raw(struct htok *t, struct htok_token *tok)
{
	const char *const name = tags[t->raw_tag - 1].name;
	const char *q = t->p;
	if (t->raw_tag != HTAG_PLAINTEXT) {
		while ((q = memchr(q, '<', (size_t)(t->end - q))) != NULL && !is_end_tag_of(q, t->end, name))
			q++;
	}
	if (!q || t->raw_tag == HTAG_PLAINTEXT)
		q = t->end;
	tok->type = HTOK_TEXT;
	tok->raw = 1;
	tok->tag = t->raw_tag;
	tok->p = t->p;
	tok->n = (size_t)(q - t->p);
	t->p = q;
	t->raw_tag = HTAG_UNKNOWN;
}

/* Text from t->p up to the next '<' that opens markup. */
static void read_text(struct htok *t, struct htok_token *tok)
{
	const char *q = t->p + 1;
	while ((q = memchr(q, '<', (size_t)(t->end - q))) != NULL && !opens_markup(q, t->end))
		q++;
	if (!q)
		q = t->end;
	tok->type = HTOK_TEXT;
	tok->p = t->p;
	tok->n = (size_t)(q - t->p);
	t->p = q;
}

enum htok_type htok_next(struct htok *t, struct htok_token *tok)
{
	tok->tag = HTAG_UNKNOWN;
	tok->raw = 0;
	tok->self_closing = 0;
	tok->n_attrs = 0;
	tok->hash = 0;
	if (t->raw_tag != HTAG_UNKNOWN) {
		read_raw(t, tok);
		return HTOK_TEXT;
	}
	while (t->p < t->end) {
		if (*t->p != '<' || !opens_markup(t->p, t->end)) {
			read_text(t, tok);
			return HTOK_TEXT;
		}
		if (read_markup(t, tok))
			return tok->type;
	}
	tok->type = HTOK_EOF;
	return HTOK_EOF;
}

/* ---- class and id words ---- */

/* Whole words (after splitting on -, _, blanks and camelCase) of page chrome. */
static const struct word {
	const char *w;
	size_t n;
} boiler_words[] = { /* sorted: word_in() bisects */
#define W(s) {s, sizeof(s) - 1}
	W("ad"), W("ads"), W("adsense"), W("adslot"), W("adv"), W("advert"), W("advertisement"),
	W("advertising"), W("adverts"), W("banner"), W("breadcrumb"), W("breadcrumbs"), W("byline"),
	W("comment"), W("comments"), W("consent"), W("cookie"), W("cookies"), W("copyright"),
	W("disqus"), W("follow"), W("footer"), W("gdpr"), W("header"), W("hidden"),
	W("masthead"), W("menu"), W("menubar"), W("menus"), W("modal"), W("nav"), W("navbar"),
	W("navi"), W("navigation"), W("newsletter"), W("outbrain"), W("pager"), W("pagination"),
	W("popup"), W("promo"), W("related"), W("rss"), W("share"), W("sharethis"),
	W("sharing"), W("sidebar"), W("sidenav"), W("signup"), W("skiplink"), W("social"),
	W("sponsor"), W("sponsored"), W("sponsors"), W("submenu"), W("subscribe"),
	W("subscription"), W("taboola"), W("tagcloud"), W("toolbar"), W("topbar"), W("widget"),
	W("widgets"),
}, modifier_words[] = {
	/* A word after these describes the page, not this element: "has-sidebar". */
	W("has"), W("no"), W("with"), W("without"),
#undef W
};

/* Compare word [w, w+n) with @e in strcmp() order. */
static int word_cmp(const char *w, size_t n, const struct word *e)
{
	const int c = memcmp(w, e->w, n < e->n ? n : e->n);
	return c ? c : (n > e->n) - (n < e->n);
}

/* Bisection: this runs for every class and id word of a page. */
static int word_in(const char *w, size_t n, const struct word *list, size_t count)
{
	size_t lo = 0, hi = count;
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		const int c = word_cmp(w, n, &list[mid]);
		if (c == 0)
			return 1;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

/* Does one class word (blank-free, e.g. "top-ad_slot", "mainNav") name chrome? */
static int class_word_is_boiler(const char *s, size_t n)
{
	/* WordPress puts taxonomy slugs in classes: "category-social", "tag-ads". */
	if ((n > 9 && !strncmp(s, "category-", 9)) || (n > 4 && !strncmp(s, "tag-", 4)))
		return 0;
	char w[24], pair[48];
	size_t wl = 0, pl = 0;
	int skip_next = 0;
	const size_t nb = sizeof(boiler_words) / sizeof(boiler_words[0]);
	for (size_t i = 0; i <= n; i++) {
		const int c = i < n ? (unsigned char)s[i] : 0;
		const int upper = c >= 'A' && c <= 'Z';
		const int alnum = upper || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		const int camel = upper && i > 0 && s[i - 1] >= 'a' && s[i - 1] <= 'z';
		if ((!alnum || camel) && wl) {
			if (wl < sizeof(w)) {
				if (!skip_next && word_in(w, wl, boiler_words, nb))
					return 1;
				/* A compound split in two: "top-bar", "side_bar", "navBar". */
				if (!skip_next && pl && pl + wl <= sizeof(w)) {
					memcpy(pair + pl, w, wl);
					if (word_in(pair, pl + wl, boiler_words, nb))
						return 1;
				}
				skip_next = word_in(w, wl, modifier_words, sizeof(modifier_words) / sizeof(modifier_words[0]));
				memcpy(pair, w, wl);
				pl = wl;
			} else {
				pl = 0;
			}
			wl = 0;
		}
		if (alnum) {
			if (wl < sizeof(w))
				w[wl] = (char)(upper ? c + 32 : c);
			wl++;
		}
	}
	return 0;
}

int htok_value_has_chrome_word(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		while (i < n && is_ws((unsigned char)s[i]))
			i++;
		const size_t start = i;
		while (i < n && !is_ws((unsigned char)s[i]))
			i++;
		if (i > start && class_word_is_boiler(s + start, i - start))
			return 1;
	}
	return 0;
}
