/*
 * html_scan.h - the HTML tokenizer's scanner, all static inline:
 * htok_scan() reads the next token at a struct htok_pos.
 *
 * html_text's loop reads ~5,000 tokens per page; with the scanner behind
 * a call, each token paid for saving and restoring the registers of both
 * loops and for passing the token through memory.  Inline, the tree
 * builder (html_text.c) and the scanner compile into one loop;
 * htok_next() (html_tokenizer.h) is the same code behind a call.  The
 * tables it reads are in html_scan.c.
 *
 * The WHATWG tokenizer states that decide which bytes are text: data, tag
 * open, tag name, attribute name/value (quoted and unquoted), comment
 * (ended by "-->" or "--!>"), bogus comment (also "<![CDATA[" in HTML
 * content), CDATA sections in foreign content (htok_foreign(), which
 * the tree builder sets), RCDATA and RAWTEXT (title, textarea; style,
 * xmp, iframe, noembed, noframes, noscript), script data with its escape
 * states, and plaintext.  tests/html_diff.py compares the visible text
 * with html5lib's.
 * Character references are left to the caller, which decodes them while
 * it copies text anyway.  Every scan is a memchr()/memmem() or a loop
 * bounded by t->end, so malformed input can only end a token early; a
 * token starting more than HTOK_FAR bytes before t->end makes its
 * fixed-size reads without bounds tests, as none reaches that far.
 */
#ifndef NDD_HTML_SCAN_H
#define NDD_HTML_SCAN_H

#include "html/html_token.h"
#include "util/bytes.h"
#include "util/simd16.h"

#include <assert.h>
#include <string.h>

/* 16 bytes, the name inline: a lookup compares it as one vector. */
struct htok_tag_info {
	char name[12]; /* NUL-padded */
	uint8_t len;
	uint8_t tag;   /* enum htag */
	uint16_t props;
};

extern const struct htok_tag_info htok_tags[HTAG_COUNT]; /* by element */

#define MAX_KNOWN_NAME 10 /* blockquote, figcaption */

/*
 * Tag names are found by a perfect hash of their length and first 8 bytes
 * (lower-cased, zero-padded, read as a little-endian integer): one
 * multiply, one load of a 16-byte slot that holds the whole key, and two
 * compares, instead of a bisection of string compares (the lookup runs
 * for every tag of every page).  htok_tag_slots and htok_tags[] are made
 * from one list (HTAG_TABLE in html_scan.c; test_html_text looks up
 * every name htag_name() gives).  The multiplier was found by trying random odd numbers until the 121 names
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

/* A slot: the name's key (first 8 bytes, then bytes 8..9), length, element. */
struct htok_tag_slot {
	uint64_t key;
	uint16_t rest;
	uint8_t len; /* 0: empty */
	uint8_t tag;
};

extern const struct htok_tag_slot htok_tag_slots[1u << TAG_SLOT_BITS];

/* Byte classes, for the loops that scan names and values. */
enum {
	C_WS = 1,        /* HTML white space */
	C_NAME_END = 2,  /* ends a tag name: white space, '/', '>' */
	C_ATTR_END = 4,  /* ends an attribute name: white space, '/', '>', '=' */
	C_VALUE_END = 8, /* ends an unquoted value: white space, '>' */
	C_ALPHA = 16,    /* an ASCII letter */
	C_OPENS = 32,    /* after '<', opens markup: a letter, '/', '!', '?' */
};
#define C_BLANK (C_WS | C_NAME_END | C_ATTR_END | C_VALUE_END)

extern const uint8_t htok_cclass[256];
/* The bytes 0..7 and 8..15 of a name of n <= 16 bytes. */
extern const uint64_t htok_name_mask[17][2];

/*
 * A token with more than HTOK_FAR bytes from its start to the end has
 * every fixed-size piece it may read there (the byte after '<', "</" and
 * 8 bytes of name, 16 bytes of name and the byte after them, the first
 * attribute's 32, 64 bytes of text and the byte after a '<' in them: 66
 * bytes at most): htok_scan() reads such tokens by the same code with
 * those bounds tests folded away (@far), and only the last HTOK_FAR
 * bytes by the careful code.  test_html_tokenizer's far reading test
 * fails under ASan below 65.
 */
#define HTOK_FAR 80

/* Is t->p more than HTOK_FAR bytes before t->end?  As integers: one add
 * and a compare, where p + HTOK_FAR as a pointer could point past the
 * input (undefined), and end - p costs a copy and a subtraction. */
static inline __attribute__((always_inline)) int far_from_end(const struct htok_pos *t)
{
	return (uintptr_t)t->p + HTOK_FAR < (uintptr_t)t->end;
}

/* Start at [s, s+n) (@s may be NULL if @n is 0). */
static inline void htok_pos_init(struct htok_pos *t, const char *s, size_t n)
{
	t->p = s ? s : "";
	t->end = t->p + (s ? n : 0);
	t->raw_tag = HTAG_UNKNOWN;
	t->raw_end = t->end;
	t->foreign = 0;
	t->foreign_word = NULL;
	t->foreign_bit = 0;
	for (size_t i = 0; i < sizeof t->seen / sizeof t->seen[0]; i++)
		t->seen[i] = t->seen_attr[i] = (struct htok_seen){~0ull, 0, 0, 0, 0};
}

/* The HP_* properties of @tag (0 for HTAG_UNKNOWN): one load, for every
 * start tag. */
static inline unsigned htok_props(enum htag tag)
{
	assert(tag < HTAG_COUNT);
	return htok_tags[tag].props;
}

/* The HTOK_FOREIGN_* bits of the current node: told (htok_set_foreign()),
 * or read where the tree builder keeps them (htok_pos.foreign_word). */
static inline unsigned htok_foreign(const struct htok_pos *t)
{
	return t->foreign | (t->foreign_word && (*t->foreign_word & t->foreign_bit) ? HTOK_FOREIGN : 0u);
}

static inline int is_ws(int c)
{
	return htok_cclass[(unsigned char)c] & C_WS;
}

static inline int is_alpha(int c)
{
	return htok_cclass[(unsigned char)c] & C_ALPHA; /* one load: it runs for every '<' */
}

static inline int to_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* @v with ASCII upper case made lower. */
static inline v16 lower_v(v16 v)
{
	const v16 upper = v16_le(v16_sub(v, v16_splat('A')), v16_splat(25));
	return v16_add(v, v16_and(upper, v16_splat(0x20)));
}

/* The 16 bytes at @p as lower_v() makes them. */
static inline v16 lower16(const char *p)
{
	return lower_v(v16_load(p));
}

/* name_key() of a name of @n bytes whose first 16 bytes, lower-cased,
 * are @low. */
static inline __attribute__((always_inline)) uint64_t name_key16(v16 low, size_t n,
								   uint64_t *rest)
{
	/* Names of every length come in turn: masks, not branches. */
	const size_t k = n < 16 ? n : 16;
	*rest = v16_hi64(low) & htok_name_mask[k][1];
	return v16_lo64(low) & htok_name_mask[k][0];
}

/*
 * Bytes 0..7 of the name [s, s+n) lower-cased and zero-padded past @n, as
 * a little-endian integer; *rest gets bytes 8..15 the same way.  @avail
 * bytes are readable at @s.
 */
static inline __attribute__((always_inline)) uint64_t name_key(const char *s, size_t n, size_t avail,
								 uint64_t *rest)
{
	uint64_t lo = 0, hi = 0;
	if (avail >= 16)
		return name_key16(lower16(s), n, rest);
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
static inline enum htag tag_find(uint64_t key, uint16_t rest, size_t len)
{
	const struct htok_tag_slot *const e = &htok_tag_slots[TAG_HASH(key, len)];
	return e->len == len && e->key == key && e->rest == rest ? (enum htag)e->tag : HTAG_UNKNOWN;
}

/* The element named [s, s+len) (any case; len >= 1), or HTAG_UNKNOWN;
 * @avail bytes are readable at @s. */
static inline enum htag tag_lookup(const char *s, size_t len, size_t avail)
{
	if (len > MAX_KNOWN_NAME)
		return HTAG_UNKNOWN;
	uint64_t rest;
	const uint64_t key = name_key(s, len, avail, &rest);
	return tag_find(key, (uint16_t)rest, len);
}

/* A '<' at @p opens markup (tag, end tag, comment, doctype, PI)? */
static inline int opens_markup(const char *p, const char *end)
{
	if (end - p < 2)
		return 0;
	const int c = (unsigned char)p[1];
	return htok_cclass[(unsigned char)c] & C_OPENS;
}

/* Skip to just after the first occurrence of @pat, or to EOF. */
static inline const char *skip_past(const char *p, const char *end, const char *pat)
{
	const size_t m = strlen(pat);
	const char *const q = memmem(p, (size_t)(end - p), pat, m);
	return q ? q + m : end;
}

/* The end of a comment whose text starts at @p: after the first "-->" or
 * "--!>", or EOF. */
static inline const char *comment_end(const char *p, const char *end)
{
	for (;;) {
		const char *const q = memmem(p, (size_t)(end - p), "--", 2);
		if (!q)
			return end;
		if (end - q >= 3 && q[2] == '>')
			return q + 3;
		if (end - q >= 4 && q[2] == '!' && q[3] == '>')
			return q + 4;
		p = q + 1; /* "--->": the next '-' may start the end */
	}
}

/*
 * <!...>: a comment, a DOCTYPE or a bogus comment, as the WHATWG
 * tokenizer's markup declaration open state reads them; @p at '<'.
 * Returns the next position.  A comment ends at "-->" or "--!>" ("<!-->"
 * and "<!--->" are empty comments); anything else, "<![CDATA[" in HTML
 * content included, runs to the first '>' (a DOCTYPE's quoted strings
 * too end there).  CDATA sections of foreign content are read by
 * htok_scan() as text.
 */
static inline const char *skip_bang(const char *p, const char *end)
{
	const size_t n = (size_t)(end - p);
	if (n >= 4 && p[2] == '-' && p[3] == '-') {
		if (n >= 5 && p[4] == '>') /* <!--> */
			return p + 5;
		if (n >= 6 && p[4] == '-' && p[5] == '>') /* <!---> */
			return p + 6;
		return comment_end(p + 4, end);
	}
	const char *const gt = memchr(p + 2, '>', n - 2);
	return gt ? gt + 1 : end;
}

/*
 * Bit i set where byte i of @v ends a name: HTML white space, '/', '>'
 * and, if @eq, '='.  Exact, by two nibble lookups: a byte is taken when
 * the bits its low nibble selects and those its high nibble selects
 * share one (1: \t \n \f \r, high nibble 0; 2: ' ' '/', 2; 4: '>', 3;
 * 8: '=', 3).  Exact, the first set bit is the answer, with no candidate
 * loop (a load per candidate, and a mispredicted exit on every name).
 */
static inline __attribute__((always_inline)) unsigned delim16(v16 v, int eq)
{
	const v16 lo_tab = v16_bytes(2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1 | 8, 4, 2);
	const v16 hi_tab = v16_bytes(1, 0, 2, eq ? 4 | 8 : 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	const v16 lo = v16_lookup(lo_tab, v16_and(v, v16_splat(0x0F)));
	const v16 hi = v16_lookup(hi_tab, v16_high_nibbles(v));
	return ~v16_mask(v16_eq(v16_and(lo, hi), v16_zero())) & 0xFFFFu;
}

/* The index of the first byte of class @cls (C_NAME_END, or C_ATTR_END
 * which adds '=') among the 16 bytes @v, those of @skip (a bit mask)
 * aside, or -1. */
static inline __attribute__((always_inline)) int delim_index(v16 v, unsigned cls, unsigned skip)
{
	const unsigned m = delim16(v, cls == C_ATTR_END) & ~skip;
	return m ? __builtin_ctz(m) : -1;
}

/*
 * The first byte at or after @p of class @cls (C_NAME_END, or C_ATTR_END
 * which adds '='), or @end.  Names are short and of every length, so a
 * byte loop mispredicts its exit; 16 bytes are tested at once instead.
 */
static inline __attribute__((always_inline)) const char *scan_to(const char *p, const char *end,
								  unsigned cls)
{
	while (end - p >= 16) {
		const int i = delim_index(v16_load(p), cls, 0);
		if (i >= 0)
			return p + i;
		p += 16;
	}
	while (p < end && !(htok_cclass[(unsigned char)*p] & cls))
		p++;
	return p;
}

/* A bit for each of the 16 bytes at @p equal to the byte in every lane of @cv. */
static inline unsigned eq_mask16(const char *p, v16 cv)
{
	return v16_mask(v16_eq(v16_load(p), cv));
}

/* The first byte @c in [p, end), or NULL.  Text between tags and
 * attribute values are short (a URL is some 40 bytes): up to 64 bytes are
 * tested inline, 16 at a time, before memchr() is called. */
static inline const char *find_byte(const char *p, const char *end, char c)
{
	const v16 cv = v16_splat((uint8_t)c);
	unsigned m;
	if (end - p >= 64) { /* nearly always: one bounds test for the four */
		for (int k = 0; k < 4; k++, p += 16)
			if ((m = eq_mask16(p, cv)) != 0)
				return p + __builtin_ctz(m);
		return memchr(p, c, (size_t)(end - p));
	}
	for (; end - p >= 16; p += 16)
		if ((m = eq_mask16(p, cv)) != 0)
			return p + __builtin_ctz(m);
	return memchr(p, c, (size_t)(end - p));
}

/* FNV-1a of the lower-cased name [p, end): tells unknown elements apart. */
static inline uint32_t name_hash(const char *p, const char *end)
{
	uint32_t h = 2166136261u;
	while (p < end)
		h = (h ^ (uint32_t)to_lower((unsigned char)*p++)) * 16777619u;
	return h;
}

/* The element named [s, s+len) (len >= 1; @avail bytes readable at @s),
 * and in *hash, for an unknown one, the hash that tells it apart. */
static inline enum htag name_tag(const char *s, size_t len, size_t avail, uint32_t *hash)
{
	const enum htag tag = tag_lookup(s, len, avail);
	*hash = tag == HTAG_UNKNOWN ? name_hash(s, s + len) : 0;
	return tag;
}

/* A name of up to 7 bytes whose name_key() is @key as one integer, its
 * length in the top byte; 0 for a longer one. */
static inline uint64_t short_name(uint64_t key, size_t len)
{
	return len <= 7 ? key | (uint64_t)len << 56 : 0;
}

/*
 * Read a tag name at *pp (its first byte is a letter) into tok->tag and,
 * for unknown elements, tok->hash; tok->name8 gets short_name() (or 0).
 * If not @resolve, tok->tag is left HTAG_UNKNOWN and the name is in
 * tok->p/n for name_tag(): html_text matches most end tags to the open
 * element by tok->name8 alone.  Nearly every name ends within 16 bytes:
 * one load finds its end and makes its key.  If @far (17 bytes readable
 * at *pp), returns 0 for a name of 16 bytes or more, left unread: the
 * byte after it may be the input's end, which only the careful reading
 * tests for.  Otherwise returns 1.
 */
static inline __attribute__((always_inline)) int read_name(const char **pp, const char *end,
							   struct htok_token *tok, int resolve,
							   struct htok_seen *seen, int far)
{
	const char *const start = *pp;
	tok->p = start;
	tok->name8 = 0;
	tok->raw8 = '>';
	if (far || end - start >= 16) {
		const v16 v = v16_load(start);
		const int i = delim_index(v, C_NAME_END, 0);
		if (far && i < 0)
			return 0;
		if (i >= 0) {
			enum htag tag = HTAG_UNKNOWN;
			*pp = start + i;
			tok->n = (size_t)i;
			if (i <= MAX_KNOWN_NAME) {
				uint64_t rest;
				const uint64_t key = name_key16(lower_v(v), (size_t)i, &rest);
				tok->name8 = short_name(key, (size_t)i);
				if (i <= 7)
					tok->raw8 = (v16_lo64(v) & htok_name_mask[i][0]) |
						    (uint64_t)'>' << 8 * i;
				if (!resolve)
					return 1;
				tag = tag_find(key, (uint16_t)rest, (size_t)i);
				if (seen && i <= 7 && tag != HTAG_UNKNOWN && !(htok_props(tag) & HP_RAW))
					*seen = (struct htok_seen){tok->raw8, htok_name_mask[i][0],
								   tok->name8, (uint8_t)i, (uint8_t)tag};
			} else if (!resolve) {
				return 1;
			}
			tok->tag = tag;
			tok->hash = tag == HTAG_UNKNOWN ? name_hash(start, start + i) : 0;
			return 1;
		}
	}
	const char *const p = scan_to(start, end, C_NAME_END);
	*pp = p;
	tok->n = (size_t)(p - start);
	if (resolve)
		tok->tag = name_tag(start, tok->n, (size_t)(end - start), &tok->hash);
	return !far || tok->n < 16;
}

/*
 * Is the name at *@pp (a start tag's; 16 bytes readable) spelled as @e's,
 * up to a byte that ends a name?  Then it is read into @tok, as
 * read_name() would read it: most start tags repeat a name written the
 * same way before (<a, <span, <li, <code), and one load and compare
 * stands for the name's scan, lower-casing and lookup.
 */
static inline __attribute__((always_inline)) int seen_name(const char **pp, const struct htok_seen *e,
							   struct htok_token *tok)
{
	const char *const s = *pp;
	const unsigned len = e->len; /* 0..7 */
	const uint64_t x = get_le64((const uint8_t *)s);
	/* none yet: mask and len 0, and s[0] is a letter */
	if (((x ^ e->raw) & e->mask) || !(htok_cclass[(unsigned char)s[len]] & C_NAME_END))
		return 0;
	tok->p = s;
	tok->n = len;
	tok->tag = (enum htag)e->tag;
	tok->name8 = e->name8;
	tok->raw8 = e->raw;
	*pp = s + len;
	return 1;
}

/* One attribute value after '='; NULL if a quote runs to EOF. */
static inline const char *read_value(const char *p, const char *end, struct htok_attr *a)
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
	while (p < end && !(htok_cclass[(unsigned char)*p] & C_VALUE_END))
		p++;
	a->value_len = (uint32_t)(p - a->value);
	return p;
}

static inline const char *skip_ws(const char *p, const char *end)
{
	while (p < end && is_ws((unsigned char)*p))
		p++;
	return p;
}

/* Can an attribute name of @n bytes be one html_text reads? */
static inline int attr_len_known(size_t n)
{
	return n == 2 || (n >= 4 && n <= 6) || n == 8 || n == 11;
}

/* The attributes html_text reads, told apart once here: by length, then
 * the lower-cased name (name_key()) as integers. */
static inline enum hattr attr_kind_of(uint64_t key, uint64_t rest, size_t n)
{
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
	case 8: return key == PACK8('i', 't', 'e', 'm', 'p', 'r', 'o', 'p') ? HATTR_ITEMPROP : HATTR_OTHER;
	default:
		return key == PACK8('a', 'r', 'i', 'a', '-', 'h', 'i', 'd') &&
				       rest == PACK8('d', 'e', 'n', 0, 0, 0, 0, 0)
			       ? HATTR_ARIA_HIDDEN
			       : HATTR_OTHER;
	}
}

/*
 * Read an attribute name at @p (its first byte is none of white space,
 * '/', '>'; it may be '='); *kind gets what it is.  Returns its end.  As
 * for tag names, one load of 16 bytes nearly always suffices.  A name of
 * up to 7 bytes followed by '=' is remembered in @seen, with the '=',
 * for read_attrs().
 */
static inline __attribute__((always_inline)) const char *read_attr_name(const char *p, const char *end,
									enum hattr *kind,
									struct htok_seen *seen)
{
	*kind = HATTR_OTHER;
	if (end - p >= 16) {
		const v16 v = v16_load(p);
		const int i = delim_index(v, C_ATTR_END, 1u); /* a name may start with '=' */
		if (i < 0)
			return scan_to(p + 16, end, C_ATTR_END); /* too long to be known */
		if (attr_len_known((size_t)i)) {
			uint64_t rest;
			const uint64_t key = name_key16(lower_v(v), (size_t)i, &rest);
			*kind = attr_kind_of(key, rest, (size_t)i);
		}
		if (i <= 7 && p[i] == '=') {
			const uint64_t x = v16_lo64(v);
			const uint64_t mask = htok_name_mask[i + 1][0];
			seen[(unsigned char)*p & 31] =
				(struct htok_seen){x & mask, mask, 0, (uint8_t)i, (uint8_t)*kind};
		}
		return p + i;
	}
	const char *const q = scan_to(p + 1, end, C_ATTR_END);
	const size_t n = (size_t)(q - p);
	if (attr_len_known(n)) {
		uint64_t rest;
		const uint64_t key = name_key(p, n, (size_t)(end - p), &rest);
		*kind = attr_kind_of(key, rest, n);
	}
	return q;
}

/* The attributes of a tag as they are read: where they go, how many
 * were read, how many and which kinds were kept (htok_token's n_attrs,
 * attr_kinds), "/>".  In locals, not in the token, while they change. */
struct attr_acc {
	struct htok_attr *attrs;
	int seen, n;
	unsigned kinds;
	int self_closing;
};

/* Keep an attribute of kind @kind if it is among the first
 * HTOK_MAX_ATTRS and html_text reads it. */
static inline __attribute__((always_inline)) void keep_attr(struct attr_acc *acc, const char *value,
							    size_t value_len, enum hattr kind)
{
	if (acc->seen++ < HTOK_MAX_ATTRS && kind != HATTR_OTHER) {
		acc->attrs[acc->n++] = (struct htok_attr){value, (uint32_t)value_len, kind};
		acc->kinds |= HATTR_BIT(kind);
	}
}

/*
 * The attributes of a tag from @p (after its name, a value, or a name),
 * up to and past its '>', byte by byte.  Returns the position after the
 * tag, or NULL if the input ends inside the tag (a browser drops such a
 * tag, and so do we).  Of the first HTOK_MAX_ATTRS attributes, those
 * html_text reads (kind != HATTR_OTHER) are stored: most are not (title,
 * src, rel...), and storing them cost more than telling them apart.
 */
static inline __attribute__((always_inline)) const char *attrs_plain(const char *p, const char *end,
								      struct attr_acc *acc,
								      struct htok_seen *names)
{
	for (;;) {
		p = skip_ws(p, end);
		if (p >= end)
			return NULL;
		if (*p == '>')
			return p + 1;
		if (*p == '/') {
			if (++p < end && *p == '>') {
				acc->self_closing = 1;
				return p + 1;
			}
			continue;
		}
		struct htok_attr a = {"", 0, HATTR_OTHER};
		enum hattr kind;
		p = read_attr_name(p, end, &kind, names);
		if (p < end && *p != '=') /* name="value" is the rule, name = value rare */
			p = skip_ws(p, end);
		if (p < end && *p == '=') {
			p = read_value(skip_ws(p + 1, end), end, &a);
			if (!p)
				return NULL;
		}
		keep_attr(acc, a.value, a.value_len, kind);
	}
}

/*
 * The attributes of a tag, as attrs_plain() reads them.  Nearly every
 * attribute is written ` name="value"` (one space, a name, '=', a quote)
 * with a name written so before (class, href, id...): then one compare
 * against htok_pos.seen_attr finds the name, '=' and the name's kind,
 * and the value is the run up to the closing quote (mostly within the
 * next 16 bytes).  At anything else (other blanks, '/', a value without
 * quotes, a name not yet seen, the page's last 32 bytes) attrs_plain()
 * goes on from where it stands, up to the tag's end.  @far: 32 bytes are
 * known readable at @p.
 */
static inline __attribute__((always_inline)) const char *attrs_fast(const char *p, const char *end,
								     struct attr_acc *acc,
								     struct htok_seen *names, int far)
{
	if (!far && end - p < 32)
		return attrs_plain(p, end, acc, names);
	do {
		if (*p == '>')
			return p + 1;
		const char *const s = p + 1;
		const struct htok_seen *const e = &names[(unsigned char)*s & 31];
		const unsigned len = e->len;
		const uint64_t x = get_le64((const uint8_t *)s);
		/* "name=": the name's bytes hold no blank, '/', '>' (read_attr_name()) */
		if (*p != ' ' || (x & e->mask) != e->raw || (s[len + 1] != '"' && s[len + 1] != '\''))
			break;
		const char *const value = s + len + 2; /* 16 bytes readable: p + 10 + 16 < end */
		const unsigned m = eq_mask16(value, v16_splat((uint8_t)s[len + 1]));
		const char *const q = m ? value + __builtin_ctz(m) : find_byte(value + 16, end, s[len + 1]);
		if (!q)
			return NULL;
		keep_attr(acc, value, (size_t)(q - value), (enum hattr)e->tag);
		p = q + 1;
	} while (end - p >= 32);
	return attrs_plain(p, end, acc, names);
}

/* The attributes of a tag into @tok: by attrs_fast(), or if @plain (for
 * the tests' comparison) by attrs_plain() alone; the same either way. */
static inline __attribute__((always_inline)) const char *read_attrs(const char *p, const char *end,
								     struct htok_token *tok,
								     struct htok_seen *names, int far,
								     int plain)
{
	struct attr_acc acc = {tok->attrs, 0, 0, 0, 0};
	p = plain ? attrs_plain(p, end, &acc, names) : attrs_fast(p, end, &acc, names, far);
	tok->n_attrs = acc.n;
	tok->attr_kinds = acc.kinds;
	tok->self_closing = acc.self_closing;
	return p;
}

/* The raw text of @tag comes next (read_raw()): the scan's end is put
 * where it starts, so that htok_scan() tests for it only where its loop
 * ends, not before every token. */
static inline void raw_next(struct htok_pos *t, enum htag tag)
{
	t->raw_tag = tag;
	t->raw_end = t->end;
	t->end = t->p;
}

/*
 * A start or end tag; @p after "<" or "</".  Returns 1 if a token was
 * made, 0 if not.  @resolve: see read_name(); a start tag's is always
 * resolved.  @far: the tag starts more than HTOK_FAR bytes before the
 * end; then -1 (t untouched) for a name too long to read so, which the
 * careful reading reads again.
 */
static inline __attribute__((always_inline)) int read_tag(struct htok_pos *t, struct htok_token *tok,
							  const char *p, int is_end, int resolve, int far)
{
	struct htok_seen *const seen = is_end ? NULL : &t->seen[(unsigned char)*p & 31];
	int named = 0; /* by read_name(): it may be a raw-text element's (seen_name(): never) */
	if (!seen || (!far && t->end - p < 16) || !seen_name(&p, seen, tok)) {
		if (!read_name(&p, t->end, tok, resolve || !is_end, seen, far))
			return -1;
		named = 1;
	}
	if ((far || p < t->end) && *p == '>') { /* no attributes: every end tag, many start tags */
		p++;
		if (!is_end) {
			tok->n_attrs = 0;
			tok->attr_kinds = 0;
			tok->self_closing = 0;
		}
	} else
		p = read_attrs(p, t->end, tok, t->seen_attr, far, 0);
	if (!p) {
		t->p = t->end;
		return 0;
	}
	t->p = p;
	tok->type = is_end ? HTOK_END : HTOK_START;
	if (is_end)
		tok->n_attrs = 0, tok->attr_kinds = 0;
	else if (named && (htok_props(tok->tag) & HP_RAW) && !(htok_foreign(t) & HTOK_FOREIGN_NO_RAW))
		raw_next(t, tok->tag);
	return 1;
}

/* Markup at t->p that is neither a start nor an end tag ("<!", "<?",
 * "</" not followed by a letter): skipped, it makes no token. */
static inline void skip_markup(struct htok_pos *t)
{
	const char *const p = t->p, *const end = t->end;
	if (p[1] == '!') {
		t->p = skip_bang(p, end);
		return;
	}

	/* "</>", "</ junk>", "<?pi ...>": bogus comments up to '>'. */
	const char *const gt = memchr(p + 1, '>', (size_t)(end - p - 1));
	t->p = gt ? gt + 1 : end;
}

/* A CDATA section of foreign content at t->p: its content, up to "]]>"
 * or EOF, is text, read as raw text is (no character references). */
static inline void read_cdata(struct htok_pos *t, struct htok_token *tok)
{
	const char *const from = t->p + 9;
	const char *const q = memmem(from, (size_t)(t->end - from), "]]>", 3);
	tok->type = HTOK_TEXT;
	tok->raw = 1;
	tok->tag = HTAG_UNKNOWN;
	tok->p = from;
	tok->n = (size_t)((q ? q : t->end) - from);
	t->p = q ? q + 3 : t->end;
}

/* Does "</name" followed by a delimiter start at @p?  ("</name" at EOF
 * is text: the WHATWG tokenizer emits it so.) */
static inline int is_end_tag_of(const char *p, const char *end, const char *name, size_t m)
{
	if ((size_t)(end - p) < m + 3 || p[1] != '/')
		return 0;
	for (size_t i = 0; i < m; i++)
		if (to_lower((unsigned char)p[2 + i]) != name[i])
			return 0;
	const char *const q = p + 2 + m;
	return is_ws((unsigned char)*q) || *q == '/' || *q == '>';
}

/* Does "<script" followed by a delimiter start at @p (any case)? */
static inline int is_script_start(const char *p, const char *end)
{
	static const char name[] = "script";
	if (end - p < 8)
		return 0;
	for (size_t i = 0; i < 6; i++)
		if (to_lower((unsigned char)p[1 + i]) != name[i])
			return 0;
	return is_ws((unsigned char)p[7]) || p[7] == '/' || p[7] == '>';
}

/*
 * Where script data from @p ends: the '<' of its "</script" end tag, or
 * @end.  The WHATWG script data states: after "<!--" the script is
 * escaped, and there a "<script" starts a double-escaped part in which
 * "</script" only ends that part, so that
 * <script><!-- document.write("<script>x</script>"); --></script>
 * is one script; "-->" ends either kind of escape.  Scripts without
 * "<!--" are read by memchr() from '<' to '<'.
 */
static inline const char *script_end(const char *p, const char *end)
{
	const char *q = p;
	for (;;) {
		for (;; q++) { /* script data */
			q = memchr(q, '<', (size_t)(end - q));
			if (!q)
				return end;
			if (is_end_tag_of(q, end, "script", 6))
				return q;
			if (end - q >= 4 && q[1] == '!' && q[2] == '-' && q[3] == '-')
				break;
		}
		/* escaped, or double escaped (dbl); "<!--" leaves two dashes seen */
		int dashes = 2, dbl = 0;
		for (q += 4;; q++) {
			if (q >= end)
				return end;
			const char c = *q;
			if (c == '-') {
				dashes++;
				continue;
			}
			if (c == '>' && dashes >= 2) /* "-->": back to script data */
				break;
			dashes = 0;
			if (c != '<')
				continue;
			if (!dbl && is_end_tag_of(q, end, "script", 6))
				return q;
			if (!dbl && is_script_start(q, end)) {
				dbl = 1;
				q += 6; /* the delimiter is read in the new state */
			} else if (dbl && is_end_tag_of(q, end, "script", 6)) {
				dbl = 0;
				q += 7;
			}
		}
		q++;
	}
}

/* The content of raw-text element t->raw_tag, up to its end tag or EOF. */
static inline void read_raw(struct htok_pos *t, struct htok_token *tok)
{
	t->end = t->raw_end;
	const char *const name = htok_tags[t->raw_tag].name;
	const size_t m = htok_tags[t->raw_tag].len;
	const char *q = t->p;
	if (t->raw_tag == HTAG_SCRIPT) {
		q = script_end(q, t->end);
	} else if (t->raw_tag != HTAG_PLAINTEXT) {
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

/*
 * The '<' that ends a text at *pp, if it is the first '<' in the 64
 * bytes there and opens markup (65 bytes readable); else NULL, and *pp
 * where the careful search goes on.  Most text runs end so.
 */
static inline __attribute__((always_inline)) const char *text_end64(const char **pp)
{
	const char *const p = *pp;
	const char *q;
	/* four tests written out: a loop's counter cost as much as a test */
	const v16 cv = v16_splat('<');
	unsigned m;
	if ((m = eq_mask16(p, cv)) != 0)
		q = p + __builtin_ctz(m);
	else if ((m = eq_mask16(p + 16, cv)) != 0)
		q = p + 16 + __builtin_ctz(m);
	else if ((m = eq_mask16(p + 32, cv)) != 0)
		q = p + 32 + __builtin_ctz(m);
	else if ((m = eq_mask16(p + 48, cv)) != 0)
		q = p + 48 + __builtin_ctz(m);
	else
		q = NULL;
	if (q && (htok_cclass[(unsigned char)q[1]] & C_OPENS))
		return q;
	*pp = q ? q + 1 : p + 64;
	return NULL;
}

/* Text from t->p up to the next '<' that opens markup.  @far: more than
 * HTOK_FAR bytes are readable at t->p. */
static inline __attribute__((always_inline)) void read_text(struct htok_pos *t, struct htok_token *tok,
							    int far)
{
	const char *from = t->p + 1;
	const char *q = far ? text_end64(&from) : NULL;
	if (!q) {
		q = from;
		while ((q = find_byte(q, t->end, '<')) != NULL && !opens_markup(q, t->end))
			q++;
		if (!q)
			q = t->end;
	}
	tok->type = HTOK_TEXT;
	tok->raw = 0;
	tok->p = t->p;
	tok->n = (size_t)(q - t->p);
	t->p = q;
}

/* An htok_open that no end tag matches (an empty stack's top). */
static inline struct htok_open htok_open_none(void)
{
	return (struct htok_open){0, '>'};
}

/*
 * Is the end tag at @p ("</" and a letter; 10 bytes readable) that of
 * @top, spelled as its start tag was and without attributes?  Then it is
 * read into @tok, as read_tag() would read it unresolved.  Most end tags
 * close the innermost element so: one load and compare for what took a
 * name scan, a lower-casing and a key.  A name of 8 bytes or more has
 * raw8 '>', which never meets the letter after "</".
 */
static inline __attribute__((always_inline)) int end_of_top(struct htok_pos *t,
							    struct htok_token *tok, const char *p,
							    const struct htok_open *top)
{
	const unsigned len = (unsigned)(top->name8 >> 56); /* 0..7 */
	const uint64_t x = get_le64((const uint8_t *)p + 2);
	if ((x & ~0ull >> (56 - 8 * len)) != top->raw8)
		return 0;
	tok->type = HTOK_END;
	tok->p = p + 2;
	tok->n = len;
	tok->name8 = top->name8;
	t->p = p + 3 + len;
	return 1;
}

/*
 * One step of htok_scan() at t->p (< t->end): 1 if it made a token, 0 if
 * it skipped markup.  @far: far_from_end(t), so the bounds tests of
 * HTOK_FAR's reads are left out; then -1 (nothing read) for a token that
 * only the careful reading may read.
 */
static inline __attribute__((always_inline)) int scan_step(struct htok_pos *t, struct htok_token *tok,
							   int resolve_end,
							   const struct htok_open *const *top, int far)
{
	const char *const p = t->p;
	if (*p == '<' && (far || p + 1 < t->end)) {
		const int c = (unsigned char)p[1];
		if (is_alpha(c)) /* the common case first: a start tag */
			return read_tag(t, tok, p + 1, 0, 1, far);
		if (c == '/' && (far || t->end - p >= 3) && is_alpha((unsigned char)p[2])) {
			if (top && (far || t->end - p >= 10) && end_of_top(t, tok, p, *top))
				return 1;
			return read_tag(t, tok, p + 2, 1, resolve_end, far); /* an end tag */
		}
		if (c == '!' && (htok_foreign(t) & HTOK_FOREIGN_CDATA) && t->end - p >= 9 &&
		    !memcmp(p + 2, "[CDATA[", 7)) {
			read_cdata(t, tok);
			return 1;
		}
		/* "</" at EOF is text */
		if ((c == '/' && (far || t->end - p > 2)) || c == '!' || c == '?') {
			skip_markup(t);
			return 0;
		}
	}
	read_text(t, tok, far);
	return 1;
}

/*
 * The fields of a token that a token of some type leaves as they were:
 * htok_next() clears them before each token, so that every field is
 * defined (tag HTAG_UNKNOWN, hash 0...).  html_text reads only those a
 * token's type gives, and leaves them: six stores at each of millions of
 * tokens, where a text token sets one of them and a tag without
 * attributes three.
 */
static inline void htok_token_clear(struct htok_token *tok)
{
	tok->tag = HTAG_UNKNOWN;
	tok->raw = 0;
	tok->self_closing = 0;
	tok->n_attrs = 0;
	tok->attr_kinds = 0;
	tok->hash = 0;
}

/*
 * htok_scan(), and with @use_far 0 its careful reading alone (for tests:
 * the two must read the same tokens).
 */
static inline __attribute__((always_inline)) enum htok_type htok_scan_with(
	struct htok_pos *t, struct htok_token *tok, int resolve_end,
	const struct htok_open *const *top, int use_far)
{
	for (;;) {
		if (use_far && far_from_end(t)) {
			const int r = scan_step(t, tok, resolve_end, top, 1);
			if (r > 0)
				return tok->type;
			if (r == 0)
				continue;
		} else if (t->p >= t->end) {
			break;
		}
		if (scan_step(t, tok, resolve_end, top, 0))
			return tok->type;
	}
	if (t->raw_tag != HTAG_UNKNOWN) {
		read_raw(t, tok);
		return HTOK_TEXT;
	}
	tok->type = HTOK_EOF;
	return HTOK_EOF;
}

/*
 * The next token (htok_next()).  If not @resolve_end, an end tag's
 * element is left for the caller to find (tok->tag is HTAG_UNKNOWN, the
 * name in tok->p/n, tok->name8 set: see read_name()).  @top, if not
 * NULL, points to the innermost open element (end_of_top()), or to
 * htok_open_none(): read only at an end tag, where the caller's stack
 * would cost a load and a test at every token.  Tokens that start more
 * than HTOK_FAR bytes before the end are read without bounds tests.
 * Sets the fields of @tok its type has: a TEXT token's type, p, n, raw
 * and, if raw, tag; a START token's all but raw (hash only for an
 * unknown element); an END token's type, p, n, name8 (tag and hash if
 * @resolve_end).  The others keep what they held: see
 * htok_token_clear().
 */
static inline __attribute__((always_inline)) enum htok_type htok_scan(struct htok_pos *t,
								       struct htok_token *tok,
								       int resolve_end,
								       const struct htok_open *const *top)
{
	return htok_scan_with(t, tok, resolve_end, top, 1);
}

#endif
