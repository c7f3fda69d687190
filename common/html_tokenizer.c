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
#include "html_tokenizer_internal.h"

#define T(name, tag, props) {name, sizeof(name) - 1, tag, props}

const struct htok_tag_info htok_tags[] = {
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

#define N_TAGS (sizeof(htok_tags) / sizeof(htok_tags[0]))

_Static_assert(N_TAGS == HTAG_COUNT - 1, "tag table and enum htag disagree");
_Static_assert(HTAG_COUNT < 256 && sizeof(struct htok_tag_info) == 16, "tag_info is 16 bytes");

#define TAG_SLOT(len, a, b, c, d, e, f, g, h) TAG_HASH(PACK8(a, b, c, d, e, f, g, h), len)

#define TAG(len, a, b, c, d, e, f, g, h, i, j, tag)                                         \
	[TAG_SLOT(len, a, b, c, d, e, f, g, h)] = {PACK8(a, b, c, d, e, f, g, h),               \
						   (uint16_t)((i) | (j) << 8), len, tag}

/* The whole entry in one 16-byte slot: a lookup is one load. */
const struct htok_tag_slot htok_tag_slots[1u << TAG_SLOT_BITS] = {
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

const uint8_t htok_cclass[256] = {
	[' '] = C_BLANK, ['\t'] = C_BLANK, ['\n'] = C_BLANK, ['\r'] = C_BLANK, ['\f'] = C_BLANK,
	['/'] = C_NAME_END | C_ATTR_END,
	['>'] = C_NAME_END | C_ATTR_END | C_VALUE_END,
	['='] = C_ATTR_END,
};

#ifdef __SSE2__
#define M8(n) ((1ull << (8 * (n))) - 1) /* n < 8 */
const uint64_t htok_name_mask[17][2] = {
	{M8(0), 0}, {M8(1), 0}, {M8(2), 0}, {M8(3), 0}, {M8(4), 0}, {M8(5), 0},
	{M8(6), 0}, {M8(7), 0}, {~0ull, 0}, {~0ull, M8(1)}, {~0ull, M8(2)}, {~0ull, M8(3)},
	{~0ull, M8(4)}, {~0ull, M8(5)}, {~0ull, M8(6)}, {~0ull, M8(7)}, {~0ull, ~0ull},
};
#undef M8
#endif

const char *htag_name(enum htag tag)
{
	return tag > HTAG_UNKNOWN && tag < HTAG_COUNT ? htok_tags[tag - 1].name : "";
}

unsigned htag_props(enum htag tag)
{
	return tag > HTAG_UNKNOWN && tag < HTAG_COUNT ? htok_tags[tag - 1].props : 0;
}

int htok_attr_is(const struct htok_attr *a, const char *lower_name)
{
	for (uint32_t i = 0; i < a->name_len; i++)
		if (to_lower((unsigned char)a->name[i]) != lower_name[i])
			return 0;
	return lower_name[a->name_len] == 0;
}

void htok_init(struct htok *t, const char *s, size_t n)
{
	t->p = s ? s : "";
	t->end = t->p + (s ? n : 0);
	t->raw_tag = HTAG_UNKNOWN;
}

enum htok_type htok_next(struct htok *t, struct htok_token *tok)
{
	return htok_scan(t, tok);
}
