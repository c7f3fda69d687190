/*
 * html_token.h - what the HTML tokenizer reads: the elements it knows
 * (enum htag, their HP_* properties), the tokens it makes (struct
 * htok_token) and the position of a scan (struct htok_pos).
 *
 * Shared by the callable tokenizer (html_tokenizer.h) and the inline
 * scanner behind it (html_scan.h), so that neither includes the other.
 */
#ifndef NDD_HTML_TOKEN_H
#define NDD_HTML_TOKEN_H

#include <stddef.h>
#include <stdint.h>

/* Known elements; HTAG_UNKNOWN for every other name. */
enum htag {
	HTAG_UNKNOWN, HTAG_A, HTAG_ABBR, HTAG_ADDRESS, HTAG_APPLET, HTAG_AREA,
	HTAG_ARTICLE, HTAG_ASIDE, HTAG_AUDIO, HTAG_B, HTAG_BASE, HTAG_BDI, HTAG_BDO,
	HTAG_BIG, HTAG_BLOCKQUOTE, HTAG_BODY, HTAG_BR, HTAG_BUTTON, HTAG_CANVAS,
	HTAG_CAPTION, HTAG_CENTER, HTAG_CITE, HTAG_CODE, HTAG_COL, HTAG_DATA,
	HTAG_DATALIST, HTAG_DD, HTAG_DEL, HTAG_DETAILS, HTAG_DFN, HTAG_DIALOG,
	HTAG_DIR, HTAG_DIV, HTAG_DL, HTAG_DT, HTAG_EM, HTAG_EMBED, HTAG_FIELDSET,
	HTAG_FIGCAPTION, HTAG_FIGURE, HTAG_FONT, HTAG_FOOTER, HTAG_FORM, HTAG_FRAME,
	HTAG_FRAMESET, HTAG_H1, HTAG_H2, HTAG_H3, HTAG_H4, HTAG_H5, HTAG_H6,
	HTAG_HEAD, HTAG_HEADER, HTAG_HGROUP, HTAG_HR, HTAG_HTML, HTAG_I, HTAG_IFRAME,
	HTAG_IMG, HTAG_INPUT, HTAG_INS, HTAG_KBD, HTAG_KEYGEN, HTAG_LABEL,
	HTAG_LEGEND, HTAG_LI, HTAG_LINK, HTAG_MAIN, HTAG_MAP, HTAG_MARK, HTAG_MATH,
	HTAG_MENU, HTAG_META, HTAG_NAV, HTAG_NOBR, HTAG_NOEMBED, HTAG_NOFRAMES,
	HTAG_NOSCRIPT, HTAG_OBJECT, HTAG_OL, HTAG_OPTGROUP, HTAG_OPTION, HTAG_P,
	HTAG_PARAM, HTAG_PICTURE, HTAG_PLAINTEXT, HTAG_PRE, HTAG_Q, HTAG_S, HTAG_SAMP,
	HTAG_SCRIPT, HTAG_SECTION, HTAG_SELECT, HTAG_SMALL, HTAG_SOURCE, HTAG_SPAN,
	HTAG_STRIKE, HTAG_STRONG, HTAG_STYLE, HTAG_SUB, HTAG_SUMMARY, HTAG_SUP,
	HTAG_SVG, HTAG_TABLE, HTAG_TBODY, HTAG_TD, HTAG_TEMPLATE, HTAG_TEXTAREA,
	HTAG_TFOOT, HTAG_TH, HTAG_THEAD, HTAG_TIME, HTAG_TITLE, HTAG_TR, HTAG_TRACK,
	HTAG_TT, HTAG_U, HTAG_UL, HTAG_VAR, HTAG_VIDEO, HTAG_WBR, HTAG_XMP, HTAG_COUNT
};

/* Properties of an element (htok_props() in html_scan.h). */
enum {
	HP_BLOCK = 1 << 0,    /* starts/ends a text block */
	HP_VOID = 1 << 1,     /* has no end tag */
	HP_DROP = 1 << 2,     /* content is never text (script, svg, head...) */
	HP_BOILER = 1 << 3,   /* page chrome by its tag (nav, header, footer, aside, menu) */
	HP_FORM = 1 << 4,     /* a form: chrome, unless it wraps the whole page */
	HP_RAW = 1 << 5,      /* raw text: content runs to the matching end tag */
	HP_MAIN = 1 << 6,     /* article, main */
	HP_LINK = 1 << 7,     /* a */
	HP_HEADING = 1 << 8,  /* h1..h6 */
	HP_CLOSES_P = 1 << 9, /* its start tag closes an open <p> */
	HP_HEAD_OK = 1 << 10, /* may appear in <head> without closing it */
	HP_FOREIGN = 1 << 11, /* svg, math: "/>" closes elements inside */
	HP_NO_SOFT = 1 << 12, /* html, body, main, article, pre, code: never dropped by a class */
};

enum htok_type {
	HTOK_EOF = 0,
	HTOK_TEXT,  /* p/n: text, character references not decoded */
	HTOK_START, /* a start tag: tag, hash, attrs, self_closing */
	HTOK_END,   /* an end tag: tag, hash */
};

#define HTOK_MAX_ATTRS 16

/* The attributes html_text reads, recognised by the tokenizer (any case). */
enum hattr {
	HATTR_OTHER, HATTR_CLASS, HATTR_ID, HATTR_ROLE, HATTR_HIDDEN, HATTR_ARIA_HIDDEN,
	HATTR_STYLE, HATTR_HREF, HATTR_ITEMPROP
};

/* Only the value is kept: the kind says which name it had. */
struct htok_attr {
	const char *value;
	uint32_t value_len;
	uint32_t kind; /* enum hattr */
};

/* The bit of an attribute kind in htok_token.attr_kinds. */
#define HATTR_BIT(kind) (1u << (kind))

struct htok_token {
	enum htok_type type;
	enum htag tag;
	int self_closing;  /* the start tag ended with "/>" */
	int raw;           /* TEXT: content of raw-text element @tag */
	uint32_t hash;     /* hash of the lower-cased tag name (unknown tags; else 0) */
	uint64_t name8;    /* START/END: a name of up to 7 bytes, lower-cased, and its
			    * length as one integer (equal only for equal names); 0 if
			    * longer (html_text_extract() matches end tags by it) */
	uint64_t raw8;     /* START: the bytes of a name of up to 7 bytes as written,
			    * then '>' (htok_open.raw8); '>' alone for a longer name */
	const char *p;     /* TEXT: the bytes; START, END: the name */
	size_t n;
	int n_attrs;       /* START: those of the first HTOK_MAX_ATTRS attributes
			    * whose kind is not HATTR_OTHER, in order */
	unsigned attr_kinds; /* START: HATTR_BIT() of each of them, or-ed */
	struct htok_attr *attrs; /* htok_next() points it into struct htok */
};

/*
 * The innermost open element, as htok_scan() may be told of it: an end
 * tag that spells its name exactly as the start tag did, with no
 * attributes ("</span>"), is then read by one compare of 8 bytes.
 */
struct htok_open {
	uint64_t name8; /* htok_token.name8 of its start tag */
	uint64_t raw8;  /* htok_token.raw8 of its start tag */
};

/* A known element's name of up to 7 bytes as last written in a start
 * tag (not a raw-text element's: those take read_name(), which alone
 * tests for raw text), for the start tags after it that spell it alike
 * (htok_scan()):
 * raw is then its htok_token.raw8, of which mask covers the name; or an
 * attribute's name and the '=' after it (raw and mask cover len + 1
 * bytes), for the attributes after it. */
struct htok_seen {
	uint64_t raw;   /* the bytes, zero-padded; ~0: none yet */
	uint64_t mask;  /* ~0ull >> the bits past those compared (0: none yet) */
	uint64_t name8; /* htok_token.name8 */
	uint8_t len;
	uint8_t tag;    /* enum htag */
};

/*
 * What the tree builder tells the tokenizer of the current node (the
 * WHATWG tokenizer asks it the same): in svg or math content a CDATA
 * section is text (in HTML it is a bogus comment, up to the first '>'),
 * and a start tag of script, style, title... opens an ordinary element,
 * no raw text; in an HTML integration point of foreign content
 * (foreignObject, mtext...) only the first holds.
 */
enum {
	HTOK_FOREIGN_CDATA = 1, /* the current node is not an HTML element */
	HTOK_FOREIGN_NO_RAW = 2, /* start tags are read as foreign content's */
	HTOK_FOREIGN = HTOK_FOREIGN_CDATA | HTOK_FOREIGN_NO_RAW,
};

/* Where a scan is (html_text keeps one of its own: with no array
 * beside them, these stay in registers). */
struct htok_pos {
	const char *p, *end;
	enum htag raw_tag; /* != HTAG_UNKNOWN: next comes the raw text of this element,
			    * and @end is where it starts (the input's end is in @raw_end) */
	const char *raw_end;
	unsigned foreign;  /* HTOK_FOREIGN_* bits, as the tree builder sets them */
	/* Or HTOK_FOREIGN while *foreign_word & foreign_bit (foreign_word not
	 * NULL): the tree builder's own flags, read where the scanner needs
	 * them (at "<!" and a raw-text element's start tag, a token in
	 * hundreds) instead of copied into @foreign after every tag. */
	const uint64_t *foreign_word;
	uint64_t foreign_bit;
	struct htok_seen seen[32]; /* by the name's first byte & 31 */
	struct htok_seen seen_attr[32]; /* the same for attribute names; tag: enum hattr */
};

#endif
