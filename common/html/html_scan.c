/*
 * html_scan.c - the tables html_scan.h's inline scanner reads: the known
 * elements by element and by hash slot, the byte classes, the name masks.
 */
#include "html/html_scan.h"

/*
 * Every known element, once: the bytes of its name (zero-padded to 10),
 * their count, the element and its properties.  Both tables below are
 * made from this list: the one by element (htag_name(), htok_props())
 * and the hash slots the tokenizer looks names up in.
 */
#define HTAG_TABLE(X) \
	X(1, 'a', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_A, HP_LINK)                                           \
	X(4, 'a', 'b', 'b', 'r', 0, 0, 0, 0, 0, 0, HTAG_ABBR, 0)                                        \
	X(7, 'a', 'd', 'd', 'r', 'e', 's', 's', 0, 0, 0, HTAG_ADDRESS, HP_BLOCK | HP_CLOSES_P)          \
	X(6, 'a', 'p', 'p', 'l', 'e', 't', 0, 0, 0, 0, HTAG_APPLET, HP_DROP)                            \
	X(4, 'a', 'r', 'e', 'a', 0, 0, 0, 0, 0, 0, HTAG_AREA, HP_VOID)                                  \
	X(7, 'a', 'r', 't', 'i', 'c', 'l', 'e', 0, 0, 0, HTAG_ARTICLE, HP_BLOCK | HP_CLOSES_P | HP_MAIN | HP_NO_SOFT) \
	X(5, 'a', 's', 'i', 'd', 'e', 0, 0, 0, 0, 0, HTAG_ASIDE, HP_BLOCK | HP_BOILER | HP_CLOSES_P)    \
	X(5, 'a', 'u', 'd', 'i', 'o', 0, 0, 0, 0, 0, HTAG_AUDIO, HP_DROP)                               \
	X(1, 'b', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_B, 0)                                                 \
	X(4, 'b', 'a', 's', 'e', 0, 0, 0, 0, 0, 0, HTAG_BASE, HP_HEAD_OK | HP_VOID)                     \
	X(3, 'b', 'd', 'i', 0, 0, 0, 0, 0, 0, 0, HTAG_BDI, 0)                                           \
	X(3, 'b', 'd', 'o', 0, 0, 0, 0, 0, 0, 0, HTAG_BDO, 0)                                           \
	X(3, 'b', 'i', 'g', 0, 0, 0, 0, 0, 0, 0, HTAG_BIG, 0)                                           \
	X(10, 'b', 'l', 'o', 'c', 'k', 'q', 'u', 'o', 't', 'e', HTAG_BLOCKQUOTE, HP_BLOCK | HP_CLOSES_P) \
	X(4, 'b', 'o', 'd', 'y', 0, 0, 0, 0, 0, 0, HTAG_BODY, HP_BLOCK | HP_NO_SOFT)                    \
	X(2, 'b', 'r', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_BR, HP_BLOCK | HP_VOID)                             \
	X(6, 'b', 'u', 't', 't', 'o', 'n', 0, 0, 0, 0, HTAG_BUTTON, HP_DROP)                            \
	X(6, 'c', 'a', 'n', 'v', 'a', 's', 0, 0, 0, 0, HTAG_CANVAS, HP_DROP)                            \
	X(7, 'c', 'a', 'p', 't', 'i', 'o', 'n', 0, 0, 0, HTAG_CAPTION, HP_BLOCK)                        \
	X(6, 'c', 'e', 'n', 't', 'e', 'r', 0, 0, 0, 0, HTAG_CENTER, HP_BLOCK | HP_CLOSES_P)             \
	X(4, 'c', 'i', 't', 'e', 0, 0, 0, 0, 0, 0, HTAG_CITE, 0)                                        \
	X(4, 'c', 'o', 'd', 'e', 0, 0, 0, 0, 0, 0, HTAG_CODE, HP_NO_SOFT)                               \
	X(3, 'c', 'o', 'l', 0, 0, 0, 0, 0, 0, 0, HTAG_COL, HP_VOID)                                     \
	X(4, 'd', 'a', 't', 'a', 0, 0, 0, 0, 0, 0, HTAG_DATA, 0)                                        \
	X(8, 'd', 'a', 't', 'a', 'l', 'i', 's', 't', 0, 0, HTAG_DATALIST, HP_DROP)                      \
	X(2, 'd', 'd', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_DD, HP_BLOCK | HP_CLOSES_P)                         \
	X(3, 'd', 'e', 'l', 0, 0, 0, 0, 0, 0, 0, HTAG_DEL, 0)                                           \
	X(7, 'd', 'e', 't', 'a', 'i', 'l', 's', 0, 0, 0, HTAG_DETAILS, HP_BLOCK | HP_CLOSES_P)          \
	X(3, 'd', 'f', 'n', 0, 0, 0, 0, 0, 0, 0, HTAG_DFN, 0)                                           \
	X(6, 'd', 'i', 'a', 'l', 'o', 'g', 0, 0, 0, 0, HTAG_DIALOG, HP_BLOCK | HP_CLOSES_P)             \
	X(3, 'd', 'i', 'r', 0, 0, 0, 0, 0, 0, 0, HTAG_DIR, HP_BLOCK | HP_CLOSES_P)                      \
	X(3, 'd', 'i', 'v', 0, 0, 0, 0, 0, 0, 0, HTAG_DIV, HP_BLOCK | HP_CLOSES_P)                      \
	X(2, 'd', 'l', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_DL, HP_BLOCK | HP_CLOSES_P)                         \
	X(2, 'd', 't', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_DT, HP_BLOCK | HP_CLOSES_P)                         \
	X(2, 'e', 'm', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_EM, 0)                                              \
	X(5, 'e', 'm', 'b', 'e', 'd', 0, 0, 0, 0, 0, HTAG_EMBED, HP_VOID)                               \
	X(8, 'f', 'i', 'e', 'l', 'd', 's', 'e', 't', 0, 0, HTAG_FIELDSET, HP_BLOCK | HP_CLOSES_P)       \
	X(10, 'f', 'i', 'g', 'c', 'a', 'p', 't', 'i', 'o', 'n', HTAG_FIGCAPTION, HP_BLOCK | HP_CLOSES_P) \
	X(6, 'f', 'i', 'g', 'u', 'r', 'e', 0, 0, 0, 0, HTAG_FIGURE, HP_BLOCK | HP_CLOSES_P)             \
	X(4, 'f', 'o', 'n', 't', 0, 0, 0, 0, 0, 0, HTAG_FONT, 0)                                        \
	X(6, 'f', 'o', 'o', 't', 'e', 'r', 0, 0, 0, 0, HTAG_FOOTER, HP_BLOCK | HP_BOILER | HP_CLOSES_P) \
	X(4, 'f', 'o', 'r', 'm', 0, 0, 0, 0, 0, 0, HTAG_FORM, HP_BLOCK | HP_CLOSES_P | HP_FORM)         \
	X(5, 'f', 'r', 'a', 'm', 'e', 0, 0, 0, 0, 0, HTAG_FRAME, HP_BLOCK)                              \
	X(8, 'f', 'r', 'a', 'm', 'e', 's', 'e', 't', 0, 0, HTAG_FRAMESET, HP_BLOCK | HP_DROP)           \
	X(2, 'h', '1', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_H1, HP_BLOCK | HP_CLOSES_P | HP_HEADING)            \
	X(2, 'h', '2', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_H2, HP_BLOCK | HP_CLOSES_P | HP_HEADING)            \
	X(2, 'h', '3', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_H3, HP_BLOCK | HP_CLOSES_P | HP_HEADING)            \
	X(2, 'h', '4', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_H4, HP_BLOCK | HP_CLOSES_P | HP_HEADING)            \
	X(2, 'h', '5', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_H5, HP_BLOCK | HP_CLOSES_P | HP_HEADING)            \
	X(2, 'h', '6', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_H6, HP_BLOCK | HP_CLOSES_P | HP_HEADING)            \
	X(4, 'h', 'e', 'a', 'd', 0, 0, 0, 0, 0, 0, HTAG_HEAD, HP_DROP | HP_HEAD_OK)                     \
	X(6, 'h', 'e', 'a', 'd', 'e', 'r', 0, 0, 0, 0, HTAG_HEADER, HP_BLOCK | HP_BOILER | HP_CLOSES_P) \
	X(6, 'h', 'g', 'r', 'o', 'u', 'p', 0, 0, 0, 0, HTAG_HGROUP, HP_BLOCK | HP_CLOSES_P)             \
	X(2, 'h', 'r', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_HR, HP_BLOCK | HP_CLOSES_P | HP_VOID)               \
	X(4, 'h', 't', 'm', 'l', 0, 0, 0, 0, 0, 0, HTAG_HTML, HP_BLOCK | HP_NO_SOFT)                    \
	X(1, 'i', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_I, 0)                                                 \
	X(6, 'i', 'f', 'r', 'a', 'm', 'e', 0, 0, 0, 0, HTAG_IFRAME, HP_DROP | HP_RAW)                   \
	X(3, 'i', 'm', 'g', 0, 0, 0, 0, 0, 0, 0, HTAG_IMG, HP_VOID)                                     \
	X(5, 'i', 'n', 'p', 'u', 't', 0, 0, 0, 0, 0, HTAG_INPUT, HP_VOID)                               \
	X(3, 'i', 'n', 's', 0, 0, 0, 0, 0, 0, 0, HTAG_INS, 0)                                           \
	X(3, 'k', 'b', 'd', 0, 0, 0, 0, 0, 0, 0, HTAG_KBD, 0)                                           \
	X(6, 'k', 'e', 'y', 'g', 'e', 'n', 0, 0, 0, 0, HTAG_KEYGEN, HP_VOID)                            \
	X(5, 'l', 'a', 'b', 'e', 'l', 0, 0, 0, 0, 0, HTAG_LABEL, 0)                                     \
	X(6, 'l', 'e', 'g', 'e', 'n', 'd', 0, 0, 0, 0, HTAG_LEGEND, HP_BLOCK)                           \
	X(2, 'l', 'i', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_LI, HP_BLOCK | HP_CLOSES_P)                         \
	X(4, 'l', 'i', 'n', 'k', 0, 0, 0, 0, 0, 0, HTAG_LINK, HP_HEAD_OK | HP_VOID)                     \
	X(4, 'm', 'a', 'i', 'n', 0, 0, 0, 0, 0, 0, HTAG_MAIN, HP_BLOCK | HP_CLOSES_P | HP_MAIN | HP_NO_SOFT) \
	X(3, 'm', 'a', 'p', 0, 0, 0, 0, 0, 0, 0, HTAG_MAP, HP_DROP)                                     \
	X(4, 'm', 'a', 'r', 'k', 0, 0, 0, 0, 0, 0, HTAG_MARK, 0)                                        \
	X(4, 'm', 'a', 't', 'h', 0, 0, 0, 0, 0, 0, HTAG_MATH, HP_DROP | HP_FOREIGN)                     \
	X(4, 'm', 'e', 'n', 'u', 0, 0, 0, 0, 0, 0, HTAG_MENU, HP_BLOCK | HP_BOILER | HP_CLOSES_P)       \
	X(4, 'm', 'e', 't', 'a', 0, 0, 0, 0, 0, 0, HTAG_META, HP_HEAD_OK | HP_VOID)                     \
	X(3, 'n', 'a', 'v', 0, 0, 0, 0, 0, 0, 0, HTAG_NAV, HP_BLOCK | HP_BOILER | HP_CLOSES_P)          \
	X(4, 'n', 'o', 'b', 'r', 0, 0, 0, 0, 0, 0, HTAG_NOBR, 0)                                        \
	X(7, 'n', 'o', 'e', 'm', 'b', 'e', 'd', 0, 0, 0, HTAG_NOEMBED, HP_DROP | HP_RAW)                \
	X(8, 'n', 'o', 'f', 'r', 'a', 'm', 'e', 's', 0, 0, HTAG_NOFRAMES, HP_BLOCK | HP_DROP | HP_RAW)  \
	X(8, 'n', 'o', 's', 'c', 'r', 'i', 'p', 't', 0, 0, HTAG_NOSCRIPT, HP_DROP | HP_HEAD_OK | HP_RAW) \
	X(6, 'o', 'b', 'j', 'e', 'c', 't', 0, 0, 0, 0, HTAG_OBJECT, HP_DROP)                            \
	X(2, 'o', 'l', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_OL, HP_BLOCK | HP_CLOSES_P)                         \
	X(8, 'o', 'p', 't', 'g', 'r', 'o', 'u', 'p', 0, 0, HTAG_OPTGROUP, HP_BLOCK)                     \
	X(6, 'o', 'p', 't', 'i', 'o', 'n', 0, 0, 0, 0, HTAG_OPTION, HP_BLOCK)                           \
	X(1, 'p', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_P, HP_BLOCK | HP_CLOSES_P)                            \
	X(5, 'p', 'a', 'r', 'a', 'm', 0, 0, 0, 0, 0, HTAG_PARAM, HP_VOID)                               \
	X(7, 'p', 'i', 'c', 't', 'u', 'r', 'e', 0, 0, 0, HTAG_PICTURE, 0)                               \
	X(9, 'p', 'l', 'a', 'i', 'n', 't', 'e', 'x', 't', 0, HTAG_PLAINTEXT, HP_BLOCK | HP_RAW)         \
	X(3, 'p', 'r', 'e', 0, 0, 0, 0, 0, 0, 0, HTAG_PRE, HP_BLOCK | HP_CLOSES_P | HP_NO_SOFT)         \
	X(1, 'q', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_Q, 0)                                                 \
	X(1, 's', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_S, 0)                                                 \
	X(4, 's', 'a', 'm', 'p', 0, 0, 0, 0, 0, 0, HTAG_SAMP, 0)                                        \
	X(6, 's', 'c', 'r', 'i', 'p', 't', 0, 0, 0, 0, HTAG_SCRIPT, HP_DROP | HP_HEAD_OK | HP_RAW)      \
	X(7, 's', 'e', 'c', 't', 'i', 'o', 'n', 0, 0, 0, HTAG_SECTION, HP_BLOCK | HP_CLOSES_P)          \
	X(6, 's', 'e', 'l', 'e', 'c', 't', 0, 0, 0, 0, HTAG_SELECT, HP_DROP)                            \
	X(5, 's', 'm', 'a', 'l', 'l', 0, 0, 0, 0, 0, HTAG_SMALL, 0)                                     \
	X(6, 's', 'o', 'u', 'r', 'c', 'e', 0, 0, 0, 0, HTAG_SOURCE, HP_VOID)                            \
	X(4, 's', 'p', 'a', 'n', 0, 0, 0, 0, 0, 0, HTAG_SPAN, 0)                                        \
	X(6, 's', 't', 'r', 'i', 'k', 'e', 0, 0, 0, 0, HTAG_STRIKE, 0)                                  \
	X(6, 's', 't', 'r', 'o', 'n', 'g', 0, 0, 0, 0, HTAG_STRONG, 0)                                  \
	X(5, 's', 't', 'y', 'l', 'e', 0, 0, 0, 0, 0, HTAG_STYLE, HP_DROP | HP_HEAD_OK | HP_RAW)         \
	X(3, 's', 'u', 'b', 0, 0, 0, 0, 0, 0, 0, HTAG_SUB, 0)                                           \
	X(7, 's', 'u', 'm', 'm', 'a', 'r', 'y', 0, 0, 0, HTAG_SUMMARY, HP_BLOCK | HP_CLOSES_P)          \
	X(3, 's', 'u', 'p', 0, 0, 0, 0, 0, 0, 0, HTAG_SUP, 0)                                           \
	X(3, 's', 'v', 'g', 0, 0, 0, 0, 0, 0, 0, HTAG_SVG, HP_DROP | HP_FOREIGN)                        \
	X(5, 't', 'a', 'b', 'l', 'e', 0, 0, 0, 0, 0, HTAG_TABLE, HP_BLOCK | HP_CLOSES_P)                \
	X(5, 't', 'b', 'o', 'd', 'y', 0, 0, 0, 0, 0, HTAG_TBODY, HP_BLOCK)                              \
	X(2, 't', 'd', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_TD, HP_BLOCK)                                       \
	X(8, 't', 'e', 'm', 'p', 'l', 'a', 't', 'e', 0, 0, HTAG_TEMPLATE, HP_DROP | HP_HEAD_OK)         \
	X(8, 't', 'e', 'x', 't', 'a', 'r', 'e', 'a', 0, 0, HTAG_TEXTAREA, HP_DROP | HP_RAW)             \
	X(5, 't', 'f', 'o', 'o', 't', 0, 0, 0, 0, 0, HTAG_TFOOT, HP_BLOCK)                              \
	X(2, 't', 'h', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_TH, HP_BLOCK)                                       \
	X(5, 't', 'h', 'e', 'a', 'd', 0, 0, 0, 0, 0, HTAG_THEAD, HP_BLOCK)                              \
	X(4, 't', 'i', 'm', 'e', 0, 0, 0, 0, 0, 0, HTAG_TIME, 0)                                        \
	X(5, 't', 'i', 't', 'l', 'e', 0, 0, 0, 0, 0, HTAG_TITLE, HP_BLOCK | HP_HEAD_OK | HP_RAW)        \
	X(2, 't', 'r', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_TR, HP_BLOCK)                                       \
	X(5, 't', 'r', 'a', 'c', 'k', 0, 0, 0, 0, 0, HTAG_TRACK, HP_VOID)                               \
	X(2, 't', 't', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_TT, 0)                                              \
	X(1, 'u', 0, 0, 0, 0, 0, 0, 0, 0, 0, HTAG_U, 0)                                                 \
	X(2, 'u', 'l', 0, 0, 0, 0, 0, 0, 0, 0, HTAG_UL, HP_BLOCK | HP_CLOSES_P)                         \
	X(3, 'v', 'a', 'r', 0, 0, 0, 0, 0, 0, 0, HTAG_VAR, 0)                                           \
	X(5, 'v', 'i', 'd', 'e', 'o', 0, 0, 0, 0, 0, HTAG_VIDEO, HP_DROP)                               \
	X(3, 'w', 'b', 'r', 0, 0, 0, 0, 0, 0, 0, HTAG_WBR, HP_VOID)                                     \
	X(3, 'x', 'm', 'p', 0, 0, 0, 0, 0, 0, 0, HTAG_XMP, HP_BLOCK | HP_RAW)

#define INFO(len, a, b, c, d, e, f, g, h, i, j, tag, props)                                    \
	[tag] = {{a, b, c, d, e, f, g, h, i, j}, len, tag, props},

/* [HTAG_UNKNOWN] is all zero: no name, no properties. */
const struct htok_tag_info htok_tags[HTAG_COUNT] = {HTAG_TABLE(INFO)};

#undef INFO

#define ONE(...) +1
_Static_assert(0 HTAG_TABLE(ONE) == HTAG_COUNT - 1, "tag table and enum htag disagree");
#undef ONE
_Static_assert(HTAG_COUNT < 256 && sizeof(struct htok_tag_info) == 16, "tag_info is 16 bytes");

#define TAG_SLOT(len, a, b, c, d, e, f, g, h) TAG_HASH(PACK8(a, b, c, d, e, f, g, h), len)

#define SLOT(len, a, b, c, d, e, f, g, h, i, j, tag, props)                                    \
	[TAG_SLOT(len, a, b, c, d, e, f, g, h)] = {PACK8(a, b, c, d, e, f, g, h),               \
						   (uint16_t)((i) | (j) << 8), len, tag},

/* The whole entry in one 16-byte slot: a lookup is one load. */
const struct htok_tag_slot htok_tag_slots[1u << TAG_SLOT_BITS] = {HTAG_TABLE(SLOT)};

#undef SLOT
#undef TAG_SLOT
#undef HTAG_TABLE

#define L(c) [c] = C_ALPHA | C_OPENS, [(c) - 'a' + 'A'] = C_ALPHA | C_OPENS
const uint8_t htok_cclass[256] = {
	[' '] = C_BLANK, ['\t'] = C_BLANK, ['\n'] = C_BLANK, ['\r'] = C_BLANK, ['\f'] = C_BLANK,
	['/'] = C_NAME_END | C_ATTR_END | C_OPENS, ['!'] = C_OPENS, ['?'] = C_OPENS,
	L('a'), L('b'), L('c'), L('d'), L('e'), L('f'), L('g'), L('h'), L('i'), L('j'), L('k'), L('l'),
	L('m'), L('n'), L('o'), L('p'), L('q'), L('r'), L('s'), L('t'), L('u'), L('v'), L('w'), L('x'),
	L('y'), L('z'),
	['>'] = C_NAME_END | C_ATTR_END | C_VALUE_END,
	['='] = C_ATTR_END,
};
#undef L

#define M8(n) ((1ull << (8 * (n))) - 1) /* n < 8 */
const uint64_t htok_name_mask[17][2] = {
	{M8(0), 0}, {M8(1), 0}, {M8(2), 0}, {M8(3), 0}, {M8(4), 0}, {M8(5), 0},
	{M8(6), 0}, {M8(7), 0}, {~0ull, 0}, {~0ull, M8(1)}, {~0ull, M8(2)}, {~0ull, M8(3)},
	{~0ull, M8(4)}, {~0ull, M8(5)}, {~0ull, M8(6)}, {~0ull, M8(7)}, {~0ull, ~0ull},
};
#undef M8
