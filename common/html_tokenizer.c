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
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* 16 bytes, the name inline: a lookup compares it as one vector. */
struct tag_info {
	char name[12]; /* NUL-padded */
	uint8_t len;
	uint8_t tag;   /* enum htag */
	uint16_t props;
};

#define T(name, tag, props) {name, sizeof(name) - 1, tag, props}

static const struct tag_info tags[] = {
	T("a", HTAG_A, HP_LINK),
	T("abbr", HTAG_ABBR, 0),
	T("address", HTAG_ADDRESS, HP_BLOCK | HP_CLOSES_P),
	T("applet", HTAG_APPLET, HP_DROP),
	T("area", HTAG_AREA, HP_VOID),
	T("article", HTAG_ARTICLE, HP_BLOCK | HP_CLOSES_P | HP_MAIN | HP_NO_SOFT),
	T("aside", HTAG_ASIDE, HP_BLOCK | HP_BOILER | HP_CLOSES_P),
	T("audio", HTAG_AUDIO, HP_DROP),
	T("b", HTAG_B, 0),
	T("base", HTAG_BASE, HP_HEAD_OK | HP_VOID),
	T("bdi", HTAG_BDI, 0),
	T("bdo", HTAG_BDO, 0),
	T("big", HTAG_BIG, 0),
	T("blockquote", HTAG_BLOCKQUOTE, HP_BLOCK | HP_CLOSES_P),
	T("body", HTAG_BODY, HP_BLOCK | HP_NO_SOFT),
	T("br", HTAG_BR, HP_BLOCK | HP_VOID),
	T("button", HTAG_BUTTON, HP_DROP),
	T("canvas", HTAG_CANVAS, HP_DROP),
	T("caption", HTAG_CAPTION, HP_BLOCK),
	T("center", HTAG_CENTER, HP_BLOCK | HP_CLOSES_P),
	T("cite", HTAG_CITE, 0),
	T("code", HTAG_CODE, HP_NO_SOFT),
	T("col", HTAG_COL, HP_VOID),
	T("data", HTAG_DATA, 0),
	T("datalist", HTAG_DATALIST, HP_DROP),
	T("dd", HTAG_DD, HP_BLOCK | HP_CLOSES_P),
	T("del", HTAG_DEL, 0),
	T("details", HTAG_DETAILS, HP_BLOCK | HP_CLOSES_P),
	T("dfn", HTAG_DFN, 0),
	T("dialog", HTAG_DIALOG, HP_BLOCK | HP_CLOSES_P),
	T("dir", HTAG_DIR, HP_BLOCK | HP_CLOSES_P),
	T("div", HTAG_DIV, HP_BLOCK | HP_CLOSES_P),
	T("dl", HTAG_DL, HP_BLOCK | HP_CLOSES_P),
	T("dt", HTAG_DT, HP_BLOCK | HP_CLOSES_P),
	T("em", HTAG_EM, 0),
	T("embed", HTAG_EMBED, HP_VOID),
	T("fieldset", HTAG_FIELDSET, HP_BLOCK | HP_CLOSES_P),
	T("figcaption", HTAG_FIGCAPTION, HP_BLOCK | HP_CLOSES_P),
	T("figure", HTAG_FIGURE, HP_BLOCK | HP_CLOSES_P),
	T("font", HTAG_FONT, 0),
	T("footer", HTAG_FOOTER, HP_BLOCK | HP_BOILER | HP_CLOSES_P),
	T("form", HTAG_FORM, HP_BLOCK | HP_CLOSES_P | HP_FORM),
	T("frame", HTAG_FRAME, HP_BLOCK),
	T("frameset", HTAG_FRAMESET, HP_BLOCK | HP_DROP),
	T("h1", HTAG_H1, HP_BLOCK | HP_CLOSES_P | HP_HEADING),
	T("h2", HTAG_H2, HP_BLOCK | HP_CLOSES_P | HP_HEADING),
	T("h3", HTAG_H3, HP_BLOCK | HP_CLOSES_P | HP_HEADING),
	T("h4", HTAG_H4, HP_BLOCK | HP_CLOSES_P | HP_HEADING),
	T("h5", HTAG_H5, HP_BLOCK | HP_CLOSES_P | HP_HEADING),
	T("h6", HTAG_H6, HP_BLOCK | HP_CLOSES_P | HP_HEADING),
	T("head", HTAG_HEAD, HP_DROP | HP_HEAD_OK),
	T("header", HTAG_HEADER, HP_BLOCK | HP_BOILER | HP_CLOSES_P),
	T("hgroup", HTAG_HGROUP, HP_BLOCK | HP_CLOSES_P),
	T("hr", HTAG_HR, HP_BLOCK | HP_CLOSES_P | HP_VOID),
	T("html", HTAG_HTML, HP_BLOCK | HP_NO_SOFT),
	T("i", HTAG_I, 0),
	T("iframe", HTAG_IFRAME, HP_DROP | HP_RAW),
	T("img", HTAG_IMG, HP_VOID),
	T("input", HTAG_INPUT, HP_VOID),
	T("ins", HTAG_INS, 0),
	T("kbd", HTAG_KBD, 0),
	T("keygen", HTAG_KEYGEN, HP_VOID),
	T("label", HTAG_LABEL, 0),
	T("legend", HTAG_LEGEND, HP_BLOCK),
	T("li", HTAG_LI, HP_BLOCK | HP_CLOSES_P),
	T("link", HTAG_LINK, HP_HEAD_OK | HP_VOID),
	T("main", HTAG_MAIN, HP_BLOCK | HP_CLOSES_P | HP_MAIN | HP_NO_SOFT),
	T("map", HTAG_MAP, HP_DROP),
	T("mark", HTAG_MARK, 0),
	T("math", HTAG_MATH, HP_DROP | HP_FOREIGN),
	T("menu", HTAG_MENU, HP_BLOCK | HP_BOILER | HP_CLOSES_P),
	T("meta", HTAG_META, HP_HEAD_OK | HP_VOID),
	T("nav", HTAG_NAV, HP_BLOCK | HP_BOILER | HP_CLOSES_P),
	T("nobr", HTAG_NOBR, 0),
	T("noembed", HTAG_NOEMBED, HP_DROP | HP_RAW),
	T("noframes", HTAG_NOFRAMES, HP_BLOCK | HP_DROP | HP_RAW),
	T("noscript", HTAG_NOSCRIPT, HP_DROP | HP_HEAD_OK | HP_RAW),
	T("object", HTAG_OBJECT, HP_DROP),
	T("ol", HTAG_OL, HP_BLOCK | HP_CLOSES_P),
	T("optgroup", HTAG_OPTGROUP, HP_BLOCK),
	T("option", HTAG_OPTION, HP_BLOCK),
	T("p", HTAG_P, HP_BLOCK | HP_CLOSES_P),
	T("param", HTAG_PARAM, HP_VOID),
	T("picture", HTAG_PICTURE, 0),
	T("plaintext", HTAG_PLAINTEXT, HP_BLOCK | HP_RAW),
	T("pre", HTAG_PRE, HP_BLOCK | HP_CLOSES_P | HP_NO_SOFT),
	T("q", HTAG_Q, 0),
	T("s", HTAG_S, 0),
	T("samp", HTAG_SAMP, 0),
	T("script", HTAG_SCRIPT, HP_DROP | HP_HEAD_OK | HP_RAW),
	T("section", HTAG_SECTION, HP_BLOCK | HP_CLOSES_P),
	T("select", HTAG_SELECT, HP_DROP),
	T("small", HTAG_SMALL, 0),
	T("source", HTAG_SOURCE, HP_VOID),
	T("span", HTAG_SPAN, 0),
	T("strike", HTAG_STRIKE, 0),
	T("strong", HTAG_STRONG, 0),
	T("style", HTAG_STYLE, HP_DROP | HP_HEAD_OK | HP_RAW),
	T("sub", HTAG_SUB, 0),
	T("summary", HTAG_SUMMARY, HP_BLOCK | HP_CLOSES_P),
	T("sup", HTAG_SUP, 0),
	T("svg", HTAG_SVG, HP_DROP | HP_FOREIGN),
	T("table", HTAG_TABLE, HP_BLOCK | HP_CLOSES_P),
	T("tbody", HTAG_TBODY, HP_BLOCK),
	T("td", HTAG_TD, HP_BLOCK),
	T("template", HTAG_TEMPLATE, HP_DROP | HP_HEAD_OK),
	T("textarea", HTAG_TEXTAREA, HP_DROP | HP_RAW),
	T("tfoot", HTAG_TFOOT, HP_BLOCK),
	T("th", HTAG_TH, HP_BLOCK),
	T("thead", HTAG_THEAD, HP_BLOCK),
	T("time", HTAG_TIME, 0),
	T("title", HTAG_TITLE, HP_BLOCK | HP_HEAD_OK | HP_RAW),
	T("tr", HTAG_TR, HP_BLOCK),
	T("track", HTAG_TRACK, HP_VOID),
	T("tt", HTAG_TT, 0),
	T("u", HTAG_U, 0),
	T("ul", HTAG_UL, HP_BLOCK | HP_CLOSES_P),
	T("var", HTAG_VAR, 0),
	T("video", HTAG_VIDEO, HP_DROP),
	T("wbr", HTAG_WBR, HP_VOID),
	T("xmp", HTAG_XMP, HP_BLOCK | HP_RAW),
};

#undef T
#define N_TAGS (sizeof(tags) / sizeof(tags[0]))
#define MAX_KNOWN_NAME 10 /* blockquote, figcaption */

_Static_assert(N_TAGS == HTAG_COUNT - 1, "tag table and enum htag disagree");
_Static_assert(HTAG_COUNT < 256 && sizeof(struct tag_info) == 16, "tag_info is 16 bytes");

/*
 * Tag names are found by a perfect hash of their length and first 8 bytes
 * (lower-cased, zero-padded, read as a little-endian integer): one
 * multiply, one load of a 16-byte slot that holds the whole key, and two
 * compares, instead of a bisection of string compares (the lookup runs
 * for every tag of every page).  tag_slots must list the names of tags[]
 * (test_html_text checks every one through htag_name()).  The
 * multiplier was found by trying random odd numbers until the 121 names
 * fell into distinct slots; a new name that collides makes the compiler
 * complain of an overridden initializer (-Woverride-init, in -Wextra;
 * clang: -Winitializer-overrides), and another multiplier must be found.
 */
#define TAG_SLOT_BITS 10
#define TAG_HASH(key, len) \
	((((key) ^ ((uint64_t)(len) << 3)) * 0x7a87d309cdb7fd11ull) >> (64 - TAG_SLOT_BITS))
/* Up to 8 bytes as a little-endian integer: a name as name_key() reads it. */
#define PACK8(a, b, c, d, e, f, g, h)                                                          \
	((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 | (uint64_t)(d) << 24 |        \
	 (uint64_t)(e) << 32 | (uint64_t)(f) << 40 | (uint64_t)(g) << 48 | (uint64_t)(h) << 56)
#define TAG_SLOT(len, a, b, c, d, e, f, g, h) TAG_HASH(PACK8(a, b, c, d, e, f, g, h), len)

/* A slot: the name's key (first 8 bytes, then bytes 8..9), length, element. */
struct tag_slot {
	uint64_t key;
	uint16_t rest;
	uint8_t len; /* 0: empty */
	uint8_t tag;
};

#define TAG(len, a, b, c, d, e, f, g, h, i, j, tag)                                         \
	[TAG_SLOT(len, a, b, c, d, e, f, g, h)] = {PACK8(a, b, c, d, e, f, g, h),               \
						   (uint16_t)((i) | (j) << 8), len, tag}

/* The whole entry in one 16-byte slot: a lookup is one load. */
static const struct tag_slot tag_slots[1u << TAG_SLOT_BITS] = {
	TAG(1, 'a', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_A),
	TAG(4, 'a', 'b', 'b', 'r', 0, 0, 0, 0, 0, 0, HTAG_ABBR),
	TAG(7, 'a', 'd', 'd', 'r', 'e', 's', 's', 0, 0, 0, HTAG_ADDRESS),
	TAG(6, 'a', 'p', 'p', 'l', 'e', 't', 0, 0, 0, 0, HTAG_APPLET),
	TAG(4, 'a', 'r', 'e', 'a', 0, 0, 0, 0, 0, 0, HTAG_AREA),
	TAG(7, 'a', 'r', 't', 'i', 'c', 'l', 'e', 0, 0, 0, HTAG_ARTICLE),
	TAG(5, 'a', 's', 'i', 'd', 'e', 0, 0, 0, 0, 0, HTAG_ASIDE),
	TAG(5, 'a', 'u', 'd', 'i', 'o', 0, 0, 0, 0, 0, HTAG_AUDIO),
	TAG(1, 'b', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_B),
	TAG(4, 'b', 'a', 's', 'e', 0, 0, 0, 0, 0, 0, HTAG_BASE),
	TAG(3, 'b', 'd', 'i', 0, 0, 0, 0, 0, 0, 0, HTAG_BDI),
	TAG(3, 'b', 'd', 'o', 0, 0, 0, 0, 0, 0, 0, HTAG_BDO),
	TAG(3, 'b', 'i', 'g', 0, 0, 0, 0, 0, 0, 0, HTAG_BIG),
	TAG(10, 'b', 'l', 'o', 'c', 'k', 'q', 'u', 'o', 't', 'e', HTAG_BLOCKQUOTE),
	TAG(4, 'b', 'o', 'd', 'y', 0, 0, 0, 0, 0, 0, HTAG_BODY),
	TAG(2, 'b', 'r', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_BR),
	TAG(6, 'b', 'u', 't', 't', 'o', 'n', 0, 0, 0, 0, HTAG_BUTTON),
	TAG(6, 'c', 'a', 'n', 'v', 'a', 's', 0, 0, 0, 0, HTAG_CANVAS),
	TAG(7, 'c', 'a', 'p', 't', 'i', 'o', 'n', 0, 0, 0, HTAG_CAPTION),
	TAG(6, 'c', 'e', 'n', 't', 'e', 'r', 0, 0, 0, 0, HTAG_CENTER),
	TAG(4, 'c', 'i', 't', 'e', 0, 0, 0, 0, 0, 0, HTAG_CITE),
	TAG(4, 'c', 'o', 'd', 'e', 0, 0, 0, 0, 0, 0, HTAG_CODE),
	TAG(3, 'c', 'o', 'l', 0, 0, 0, 0, 0, 0, 0, HTAG_COL),
	TAG(4, 'd', 'a', 't', 'a', 0, 0, 0, 0, 0, 0, HTAG_DATA),
	TAG(8, 'd', 'a', 't', 'a', 'l', 'i', 's', 't', 0, 0, HTAG_DATALIST),
	TAG(2, 'd', 'd', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_DD),
	TAG(3, 'd', 'e', 'l', 0, 0, 0, 0, 0, 0, 0, HTAG_DEL),
	TAG(7, 'd', 'e', 't', 'a', 'i', 'l', 's', 0, 0, 0, HTAG_DETAILS),
	TAG(3, 'd', 'f', 'n', 0, 0, 0, 0, 0, 0, 0, HTAG_DFN),
	TAG(6, 'd', 'i', 'a', 'l', 'o', 'g', 0, 0, 0, 0, HTAG_DIALOG),
	TAG(3, 'd', 'i', 'r', 0, 0, 0, 0, 0, 0, 0, HTAG_DIR),
	TAG(3, 'd', 'i', 'v', 0, 0, 0, 0, 0, 0, 0, HTAG_DIV),
	TAG(2, 'd', 'l', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_DL),
	TAG(2, 'd', 't', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_DT),
	TAG(2, 'e', 'm', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_EM),
	TAG(5, 'e', 'm', 'b', 'e', 'd', 0, 0, 0, 0, 0, HTAG_EMBED),
	TAG(8, 'f', 'i', 'e', 'l', 'd', 's', 'e', 't', 0, 0, HTAG_FIELDSET),
	TAG(10, 'f', 'i', 'g', 'c', 'a', 'p', 't', 'i', 'o', 'n', HTAG_FIGCAPTION),
	TAG(6, 'f', 'i', 'g', 'u', 'r', 'e', 0, 0, 0, 0, HTAG_FIGURE),
	TAG(4, 'f', 'o', 'n', 't', 0, 0, 0, 0, 0, 0, HTAG_FONT),
	TAG(6, 'f', 'o', 'o', 't', 'e', 'r', 0, 0, 0, 0, HTAG_FOOTER),
	TAG(4, 'f', 'o', 'r', 'm', 0, 0, 0, 0, 0, 0, HTAG_FORM),
	TAG(5, 'f', 'r', 'a', 'm', 'e', 0, 0, 0, 0, 0, HTAG_FRAME),
	TAG(8, 'f', 'r', 'a', 'm', 'e', 's', 'e', 't', 0, 0, HTAG_FRAMESET),
	TAG(2, 'h', '1', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_H1),
	TAG(2, 'h', '2', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_H2),
	TAG(2, 'h', '3', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_H3),
	TAG(2, 'h', '4', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_H4),
	TAG(2, 'h', '5', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_H5),
	TAG(2, 'h', '6', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_H6),
	TAG(4, 'h', 'e', 'a', 'd', 0, 0, 0, 0, 0, 0, HTAG_HEAD),
	TAG(6, 'h', 'e', 'a', 'd', 'e', 'r', 0, 0, 0, 0, HTAG_HEADER),
	TAG(6, 'h', 'g', 'r', 'o', 'u', 'p', 0, 0, 0, 0, HTAG_HGROUP),
	TAG(2, 'h', 'r', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_HR),
	TAG(4, 'h', 't', 'm', 'l', 0, 0, 0, 0, 0, 0, HTAG_HTML),
	TAG(1, 'i', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_I),
	TAG(6, 'i', 'f', 'r', 'a', 'm', 'e', 0, 0, 0, 0, HTAG_IFRAME),
	TAG(3, 'i', 'm', 'g', 0, 0, 0, 0, 0, 0, 0, HTAG_IMG),
	TAG(5, 'i', 'n', 'p', 'u', 't', 0, 0, 0, 0, 0, HTAG_INPUT),
	TAG(3, 'i', 'n', 's', 0, 0, 0, 0, 0, 0, 0, HTAG_INS),
	TAG(3, 'k', 'b', 'd', 0, 0, 0, 0, 0, 0, 0, HTAG_KBD),
	TAG(6, 'k', 'e', 'y', 'g', 'e', 'n', 0, 0, 0, 0, HTAG_KEYGEN),
	TAG(5, 'l', 'a', 'b', 'e', 'l', 0, 0, 0, 0, 0, HTAG_LABEL),
	TAG(6, 'l', 'e', 'g', 'e', 'n', 'd', 0, 0, 0, 0, HTAG_LEGEND),
	TAG(2, 'l', 'i', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_LI),
	TAG(4, 'l', 'i', 'n', 'k', 0, 0, 0, 0, 0, 0, HTAG_LINK),
	TAG(4, 'm', 'a', 'i', 'n', 0, 0, 0, 0, 0, 0, HTAG_MAIN),
	TAG(3, 'm', 'a', 'p', 0, 0, 0, 0, 0, 0, 0, HTAG_MAP),
	TAG(4, 'm', 'a', 'r', 'k', 0, 0, 0, 0, 0, 0, HTAG_MARK),
	TAG(4, 'm', 'a', 't', 'h', 0, 0, 0, 0, 0, 0, HTAG_MATH),
	TAG(4, 'm', 'e', 'n', 'u', 0, 0, 0, 0, 0, 0, HTAG_MENU),
	TAG(4, 'm', 'e', 't', 'a', 0, 0, 0, 0, 0, 0, HTAG_META),
	TAG(3, 'n', 'a', 'v', 0, 0, 0, 0, 0, 0, 0, HTAG_NAV),
	TAG(4, 'n', 'o', 'b', 'r', 0, 0, 0, 0, 0, 0, HTAG_NOBR),
	TAG(7, 'n', 'o', 'e', 'm', 'b', 'e', 'd', 0, 0, 0, HTAG_NOEMBED),
	TAG(8, 'n', 'o', 'f', 'r', 'a', 'm', 'e', 's', 0, 0, HTAG_NOFRAMES),
	TAG(8, 'n', 'o', 's', 'c', 'r', 'i', 'p', 't', 0, 0, HTAG_NOSCRIPT),
	TAG(6, 'o', 'b', 'j', 'e', 'c', 't', 0, 0, 0, 0, HTAG_OBJECT),
	TAG(2, 'o', 'l', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_OL),
	TAG(8, 'o', 'p', 't', 'g', 'r', 'o', 'u', 'p', 0, 0, HTAG_OPTGROUP),
	TAG(6, 'o', 'p', 't', 'i', 'o', 'n', 0, 0, 0, 0, HTAG_OPTION),
	TAG(1, 'p', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_P),
	TAG(5, 'p', 'a', 'r', 'a', 'm', 0, 0, 0, 0, 0, HTAG_PARAM),
	TAG(7, 'p', 'i', 'c', 't', 'u', 'r', 'e', 0, 0, 0, HTAG_PICTURE),
	TAG(9, 'p', 'l', 'a', 'i', 'n', 't', 'e', 'x', 't', 0, HTAG_PLAINTEXT),
	TAG(3, 'p', 'r', 'e', 0, 0, 0, 0, 0, 0, 0, HTAG_PRE),
	TAG(1, 'q', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_Q),
	TAG(1, 's', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_S),
	TAG(4, 's', 'a', 'm', 'p', 0, 0, 0, 0, 0, 0, HTAG_SAMP),
	TAG(6, 's', 'c', 'r', 'i', 'p', 't', 0, 0, 0, 0, HTAG_SCRIPT),
	TAG(7, 's', 'e', 'c', 't', 'i', 'o', 'n', 0, 0, 0, HTAG_SECTION),
	TAG(6, 's', 'e', 'l', 'e', 'c', 't', 0, 0, 0, 0, HTAG_SELECT),
	TAG(5, 's', 'm', 'a', 'l', 'l', 0, 0, 0, 0, 0, HTAG_SMALL),
	TAG(6, 's', 'o', 'u', 'r', 'c', 'e', 0, 0, 0, 0, HTAG_SOURCE),
	TAG(4, 's', 'p', 'a', 'n', 0, 0, 0, 0, 0, 0, HTAG_SPAN),
	TAG(6, 's', 't', 'r', 'i', 'k', 'e', 0, 0, 0, 0, HTAG_STRIKE),
	TAG(6, 's', 't', 'r', 'o', 'n', 'g', 0, 0, 0, 0, HTAG_STRONG),
	TAG(5, 's', 't', 'y', 'l', 'e', 0, 0, 0, 0, 0, HTAG_STYLE),
	TAG(3, 's', 'u', 'b', 0, 0, 0, 0, 0, 0, 0, HTAG_SUB),
	TAG(7, 's', 'u', 'm', 'm', 'a', 'r', 'y', 0, 0, 0, HTAG_SUMMARY),
	TAG(3, 's', 'u', 'p', 0, 0, 0, 0, 0, 0, 0, HTAG_SUP),
	TAG(3, 's', 'v', 'g', 0, 0, 0, 0, 0, 0, 0, HTAG_SVG),
	TAG(5, 't', 'a', 'b', 'l', 'e', 0, 0, 0, 0, 0, HTAG_TABLE),
	TAG(5, 't', 'b', 'o', 'd', 'y', 0, 0, 0, 0, 0, HTAG_TBODY),
	TAG(2, 't', 'd', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_TD),
	TAG(8, 't', 'e', 'm', 'p', 'l', 'a', 't', 'e', 0, 0, HTAG_TEMPLATE),
	TAG(8, 't', 'e', 'x', 't', 'a', 'r', 'e', 'a', 0, 0, HTAG_TEXTAREA),
	TAG(5, 't', 'f', 'o', 'o', 't', 0, 0, 0, 0, 0, HTAG_TFOOT),
	TAG(2, 't', 'h', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_TH),
	TAG(5, 't', 'h', 'e', 'a', 'd', 0, 0, 0, 0, 0, HTAG_THEAD),
	TAG(4, 't', 'i', 'm', 'e', 0, 0, 0, 0, 0, 0, HTAG_TIME),
	TAG(5, 't', 'i', 't', 'l', 'e', 0, 0, 0, 0, 0, HTAG_TITLE),
	TAG(2, 't', 'r', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_TR),
	TAG(5, 't', 'r', 'a', 'c', 'k', 0, 0, 0, 0, 0, HTAG_TRACK),
	TAG(2, 't', 't', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_TT),
	TAG(1, 'u', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_U),
	TAG(2, 'u', 'l', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_UL),
	TAG(3, 'v', 'a', 'r', 0, 0, 0, 0, 0, 0, 0, HTAG_VAR),
	TAG(5, 'v', 'i', 'd', 'e', 'o', 0, 0, 0, 0, 0, HTAG_VIDEO),
	TAG(3, 'w', 'b', 'r', 0, 0, 0, 0, 0, 0, 0, HTAG_WBR),
	TAG(3, 'x', 'm', 'p', 0, 0, 0, 0, 0, 0, 0, HTAG_XMP),
};
#undef TAG

/* Byte classes, for the loops that scan names and values. */
enum {
	C_WS = 1,        /* HTML white space */
	C_NAME_END = 2,  /* ends a tag name: white space, '/', '>' */
	C_ATTR_END = 4,  /* ends an attribute name: white space, '/', '>', '=' */
	C_VALUE_END = 8, /* ends an unquoted value: white space, '>' */
};
#define C_BLANK (C_WS | C_NAME_END | C_ATTR_END | C_VALUE_END)

static const uint8_t cclass[256] = {
	[' '] = C_BLANK, ['\t'] = C_BLANK, ['\n'] = C_BLANK, ['\r'] = C_BLANK, ['\f'] = C_BLANK,
	['/'] = C_NAME_END | C_ATTR_END,
	['>'] = C_NAME_END | C_ATTR_END | C_VALUE_END,
	['='] = C_ATTR_END,
};

static int is_ws(int c)
{
	return cclass[(unsigned char)c] & C_WS;
}

static int is_alpha(int c)
{
	return (unsigned)((c | 0x20) - 'a') < 26;
}

static int to_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

const char *htag_name(enum htag tag)
{
	return tag > HTAG_UNKNOWN && tag < HTAG_COUNT ? tags[tag - 1].name : "";
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

#ifdef __SSE2__
#define M8(n) ((1ull << (8 * (n))) - 1) /* n < 8 */
/* The bytes 0..7 and 8..15 of a name of n <= 16 bytes. */
static const uint64_t name_mask[17][2] = {
	{M8(0), 0}, {M8(1), 0}, {M8(2), 0}, {M8(3), 0}, {M8(4), 0}, {M8(5), 0},
	{M8(6), 0}, {M8(7), 0}, {~0ull, 0}, {~0ull, M8(1)}, {~0ull, M8(2)}, {~0ull, M8(3)},
	{~0ull, M8(4)}, {~0ull, M8(5)}, {~0ull, M8(6)}, {~0ull, M8(7)}, {~0ull, ~0ull},
};
#undef M8

/* The 16 bytes at @p with ASCII upper case made lower. */
static __m128i lower16(const char *p)
{
	const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	const __m128i off = _mm_sub_epi8(v, _mm_set1_epi8('A'));
	const __m128i upper = _mm_cmpeq_epi8(_mm_min_epu8(off, _mm_set1_epi8(25)), off);
	return _mm_add_epi8(v, _mm_and_si128(upper, _mm_set1_epi8(0x20)));
}
#endif

/*
 * Bytes 0..7 of the name [s, s+n) lower-cased and zero-padded past @n, as
 * a little-endian integer; *rest gets bytes 8..15 the same way.  @avail
 * bytes are readable at @s.
 */
static inline __attribute__((always_inline)) uint64_t name_key(const char *s, size_t n, size_t avail,
								 uint64_t *rest)
{
	uint64_t lo = 0, hi = 0;
#ifdef __SSE2__
	if (avail >= 16) {
		const __m128i low = lower16(s);
		/* Names of every length come in turn: masks, not branches. */
		const size_t k = n < 16 ? n : 16;
		lo = (uint64_t)_mm_cvtsi128_si64(low) & name_mask[k][0];
		hi = (uint64_t)_mm_cvtsi128_si64(_mm_srli_si128(low, 8)) & name_mask[k][1];
		*rest = hi;
		return lo;
	}
#else
	(void)avail;
#endif
	for (size_t i = 0; i < n && i < 16; i++) {
		const uint64_t c = (uint64_t)to_lower((unsigned char)s[i]);
		if (i < 8)
			lo |= c << (8 * i);
		else
			hi |= c << (8 * (i - 8));
	}
	*rest = hi;
	return lo;
}

/* The element whose lower-cased name of @len bytes has bytes 0..7 @key and
 * bytes 8..9 @rest (zero-padded), or HTAG_UNKNOWN. */
static enum htag tag_find(uint64_t key, uint16_t rest, size_t len)
{
	const struct tag_slot *const e = &tag_slots[TAG_HASH(key, len)];
	return e->len == len && e->key == key && e->rest == rest ? (enum htag)e->tag : HTAG_UNKNOWN;
}

/* The element named [s, s+len) (any case; len >= 1), or HTAG_UNKNOWN;
 * @avail bytes are readable at @s. */
static enum htag tag_lookup(const char *s, size_t len, size_t avail)
{
	if (len > MAX_KNOWN_NAME)
		return HTAG_UNKNOWN;
	uint64_t rest;
	const uint64_t key = name_key(s, len, avail, &rest);
	return tag_find(key, (uint16_t)rest, len);
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

#ifdef __SSE2__
/*
 * Bit i set where byte i of @v may end a name: a byte <= ' ', '/', '>'
 * and, if @eq, '='.  "<= ' '" takes HTML white space in two operations
 * where the exact set took six; the control bytes it takes too are name
 * bytes, which first_delim() weeds out (they are rare: one more test).
 */
static inline __attribute__((always_inline)) unsigned delim16(__m128i v, int eq)
{
	const __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(' ')), v);
	__m128i hit = _mm_or_si128(low, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')),
						      _mm_cmpeq_epi8(v, _mm_set1_epi8('>'))));
	if (eq)
		hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8('=')));
	return (unsigned)_mm_movemask_epi8(hit);
}

/* The index of the first candidate of @m (delim16() of the bytes at @p)
 * that is a byte of class @cls, or -1. */
static inline __attribute__((always_inline)) int first_delim(const char *p, unsigned m, unsigned cls)
{
	for (; m; m &= m - 1) {
		const int i = __builtin_ctz(m);
		if (cclass[(unsigned char)p[i]] & cls)
			return i;
	}
	return -1;
}
#endif

/*
 * The first byte at or after @p of class @cls (C_NAME_END, or C_ATTR_END
 * which adds '='), or @end.  Names are short and of every length, so a
 * byte loop mispredicts its exit; 16 bytes are tested at once instead.
 */
static inline __attribute__((always_inline)) const char *scan_to(const char *p, const char *end,
								  unsigned cls)
{
#ifdef __SSE2__
	while (end - p >= 16) {
		const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		const int i = first_delim(p, delim16(v, cls == C_ATTR_END), cls);
		if (i >= 0)
			return p + i;
		p += 16;
	}
#endif
	while (p < end && !(cclass[(unsigned char)*p] & cls))
		p++;
	return p;
}

/* The first byte @c in [p, end), or NULL.  Text between tags and
 * attribute values are short: the first 16 bytes are tested inline before
 * memchr() is called. */
static const char *find_byte(const char *p, const char *end, char c)
{
#ifdef __SSE2__
	if (end - p >= 16) {
		const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		const unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)));
		if (m)
			return p + __builtin_ctz(m);
		p += 16;
	}
#endif
	return memchr(p, c, (size_t)(end - p));
}

/* FNV-1a of the lower-cased name [p, end): tells unknown elements apart. */
static uint32_t name_hash(const char *p, const char *end)
{
	uint32_t h = 2166136261u;
	while (p < end)
		h = (h ^ (uint32_t)to_lower((unsigned char)*p++)) * 16777619u;
	return h;
}

/* Read a tag name at *pp (its first byte is a letter); *hash is set for
 * unknown elements only. */
static enum htag read_name(const char **pp, const char *end, uint32_t *hash)
{
	const char *const start = *pp;
	const char *const p = scan_to(start, end, C_NAME_END);
	*pp = p;
	const enum htag tag = tag_lookup(start, (size_t)(p - start), (size_t)(end - start));
	*hash = tag == HTAG_UNKNOWN ? name_hash(start, p) : 0;
	return tag;
}

/* One attribute value after '='; NULL if a quote runs to EOF. */
static const char *read_value(const char *p, const char *end, struct htok_attr *a)
{
	if (p < end && (*p == '"' || *p == '\'')) {
		const char *const q = find_byte(p + 1, end, *p);
		if (!q)
			return NULL;
		a->value = p + 1;
		a->value_len = (uint32_t)(q - p - 1);
		return q + 1;
	}
	a->value = p;
	while (p < end && !(cclass[(unsigned char)*p] & C_VALUE_END))
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

/* The attributes html_text reads, told apart once here: by length, then
 * the lower-cased name as integers. */
static enum hattr attr_kind(const char *s, uint32_t n, size_t avail)
{
	if (n != 2 && (n < 4 || n > 6) && n != 11)
		return HATTR_OTHER;
	uint64_t rest;
	const uint64_t key = name_key(s, n, avail, &rest);
	switch (n) {
	case 2: return key == PACK8('i', 'd', 0, 0, 0, 0, 0, 0) ? HATTR_ID : HATTR_OTHER;
	case 4:
		if (key == PACK8('h', 'r', 'e', 'f', 0, 0, 0, 0))
			return HATTR_HREF;
		return key == PACK8('r', 'o', 'l', 'e', 0, 0, 0, 0) ? HATTR_ROLE : HATTR_OTHER;
	case 5:
		if (key == PACK8('c', 'l', 'a', 's', 's', 0, 0, 0))
			return HATTR_CLASS;
		return key == PACK8('s', 't', 'y', 'l', 'e', 0, 0, 0) ? HATTR_STYLE : HATTR_OTHER;
	case 6: return key == PACK8('h', 'i', 'd', 'd', 'e', 'n', 0, 0) ? HATTR_HIDDEN : HATTR_OTHER;
	default:
		return key == PACK8('a', 'r', 'i', 'a', '-', 'h', 'i', 'd') &&
				       rest == PACK8('d', 'e', 'n', 0, 0, 0, 0, 0)
			       ? HATTR_ARIA_HIDDEN
			       : HATTR_OTHER;
	}
}

/*
 * The attributes of a tag, up to and past its '>'.  Returns the position
 * after the tag, or NULL if the input ends inside the tag (a browser drops
 * such a tag, and so do we).  Of the first HTOK_MAX_ATTRS attributes,
 * those html_text reads (kind != HATTR_OTHER) are stored: most are not
 * (title, src, rel...), and storing them cost more than telling them apart.
 */
static const char *read_attrs(const char *p, const char *end, struct htok_token *tok)
{
	int seen = 0;
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
		struct htok_attr a = {p, "", 0, 0, HATTR_OTHER};
		p = scan_to(p + 1, end, C_ATTR_END); /* a name may start with '=' */
		a.name_len = (uint32_t)(p - a.name);
		if (p < end && *p != '=') /* name="value" is the rule, name = value rare */
			p = skip_ws(p, end);
		if (p < end && *p == '=') {
			p = read_value(skip_ws(p + 1, end), end, &a);
			if (!p)
				return NULL;
		}
		if (seen++ < HTOK_MAX_ATTRS) {
			a.kind = attr_kind(a.name, a.name_len, (size_t)(end - a.name));
			if (a.kind != HATTR_OTHER)
				tok->attrs[tok->n_attrs++] = a;
		}
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
static int is_end_tag_of(const char *p, const char *end, const char *name, size_t m)
{
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
	const size_t m = tags[t->raw_tag - 1].len;
	const char *q = t->p;
	if (t->raw_tag != HTAG_PLAINTEXT) {
		while ((q = memchr(q, '<', (size_t)(t->end - q))) != NULL && !is_end_tag_of(q, t->end, name, m))
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
	while ((q = find_byte(q, t->end, '<')) != NULL && !opens_markup(q, t->end))
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
		const char *const p = t->p;
		if (*p == '<' && t->end - p >= 2) {
			const int c = (unsigned char)p[1];
			if (is_alpha(c)) { /* the common case first: a start tag */
				if (read_tag(t, tok, p + 1, 0))
					return tok->type;
				continue;
			}
			if (c == '/' || c == '!' || c == '?') {
				if (read_markup(t, tok))
					return tok->type;
				continue;
			}
		}
		read_text(t, tok);
		return HTOK_TEXT;
	}
	tok->type = HTOK_EOF;
	return HTOK_EOF;
}
