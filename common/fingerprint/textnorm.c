/*
 * textnorm.c - UTF-8 decoding, case folding, classification and
 * tokenisation; the rules are in textnorm.h.
 *
 * Speed matters (the fingerprint stage aims at 150 MB/s of text per
 * core), so the common cases are short paths: ASCII goes through one
 * 128-entry table, a whole ASCII word is copied in a tight loop, and Han
 * characters are recognised before the general range search.  Everything
 * else is decided by small per-script folding rules and one sorted table
 * of ranges, instead of the full Unicode database: the aim is stable,
 * good-enough tokens for near-duplicate detection, not linguistics.
 */
#include "fingerprint/textnorm.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "util/utf8.h"

#include <utf8proc.h>

/* ASCII: folded letter or digit, or 0 for a separator. */
static const char ascii_map[128] = {
	['0'] = '0', ['1'] = '1', ['2'] = '2', ['3'] = '3', ['4'] = '4',
	['5'] = '5', ['6'] = '6', ['7'] = '7', ['8'] = '8', ['9'] = '9',
	['A'] = 'a', ['B'] = 'b', ['C'] = 'c', ['D'] = 'd', ['E'] = 'e',
	['F'] = 'f', ['G'] = 'g', ['H'] = 'h', ['I'] = 'i', ['J'] = 'j',
	['K'] = 'k', ['L'] = 'l', ['M'] = 'm', ['N'] = 'n', ['O'] = 'o',
	['P'] = 'p', ['Q'] = 'q', ['R'] = 'r', ['S'] = 's', ['T'] = 't',
	['U'] = 'u', ['V'] = 'v', ['W'] = 'w', ['X'] = 'x', ['Y'] = 'y',
	['Z'] = 'z',
	['a'] = 'a', ['b'] = 'b', ['c'] = 'c', ['d'] = 'd', ['e'] = 'e',
	['f'] = 'f', ['g'] = 'g', ['h'] = 'h', ['i'] = 'i', ['j'] = 'j',
	['k'] = 'k', ['l'] = 'l', ['m'] = 'm', ['n'] = 'n', ['o'] = 'o',
	['p'] = 'p', ['q'] = 'q', ['r'] = 'r', ['s'] = 's', ['t'] = 't',
	['u'] = 'u', ['v'] = 'v', ['w'] = 'w', ['x'] = 'x', ['y'] = 'y',
	['z'] = 'z',
};

/* ---- decoding ---- */

static int is_cont(uint8_t b)
{
	return (b & 0xC0) == 0x80;
}

int textnorm_decode(const uint8_t *p, const uint8_t *end, uint32_t *cp)
{
	assert(p < end);
	const size_t len = utf8_get(p, (size_t)(end - p), cp);
	if (len)
		return (int)len;
	*cp = TN_INVALID;
	return 1;
}

/* ---- case folding ---- */

/*
 * Every mapping below keeps or shortens the UTF-8 length of the code
 * point, which is what lets textnorm_run() write in place of the input's
 * size without checking.
 */
static uint32_t fold_latin(uint32_t c)
{
	if (c >= 0xC0 && c <= 0xDE && c != 0xD7)
		return c + 32;
	if (c == 0xB5)
		return 0x3BC; /* micro sign -> Greek mu, as Unicode folds it */
	if (c < 0x100)
		return c;
	/* Latin Extended-A: upper/lower pairs, parity flips at 0x139 and 0x179. */
	if (c == 0x130)
		return 'i';
	if (c == 0x178)
		return 0xFF;
	if (c == 0x17F)
		return 's';
	if ((c <= 0x137 || (c >= 0x14A && c <= 0x177)) && !(c & 1))
		return c + 1;
	if (((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) && (c & 1))
		return c + 1;
	return c;
}

static uint32_t fold_greek(uint32_t c)
{
	if ((c >= 0x391 && c <= 0x3A1) || (c >= 0x3A3 && c <= 0x3AB))
		return c + 32;
	if (c == 0x3C2)
		return 0x3C3; /* final sigma: same letter as sigma */
	if (c == 0x386)
		return 0x3AC;
	if (c >= 0x388 && c <= 0x38A)
		return c + 37;
	if (c == 0x38C)
		return 0x3CC;
	if (c == 0x38E || c == 0x38F)
		return c + 63;
	if (c == 0x3CF)
		return 0x3D7;
	if (((c >= 0x370 && c <= 0x373) || (c >= 0x3D8 && c <= 0x3EF)) && !(c & 1))
		return c + 1;
	if (c == 0x376)
		return 0x377;
	return c;
}

static uint32_t fold_cyrillic(uint32_t c)
{
	if (c <= 0x40F)
		return c + 80;
	if (c <= 0x42F)
		return c + 32;
	if (c == 0x4C0)
		return 0x4CF;
	if (c >= 0x4C1 && c <= 0x4CE)
		return (c & 1) ? c + 1 : c;
	if (((c >= 0x460 && c <= 0x481) || (c >= 0x48A && c <= 0x4BF) ||
	     (c >= 0x4D0 && c <= 0x52F)) && !(c & 1))
		return c + 1;
	return c;
}

uint32_t textnorm_fold(uint32_t cp)
{
	if (cp < 0x80)
		return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
	if (cp < 0x180)
		return fold_latin(cp);
	if (cp >= 0x370 && cp < 0x400)
		return fold_greek(cp);
	if (cp >= 0x400 && cp < 0x530)
		return fold_cyrillic(cp);
	if (cp >= 0xFF01 && cp <= 0xFF5E)
		return textnorm_fold(cp - 0xFEE0); /* full-width ASCII */
	return cp;
}

/* ---- classification ---- */

/*
 * Code points from U+0250 up that are not TN_WORD, sorted.  Anything not
 * listed is a word character: new letters of spaced scripts then work
 * without a table change, and the cost of a missed symbol is only one
 * odd token.
 */
static const struct range {
	uint32_t lo, hi;
	uint8_t cls;
} ranges[] = {
	{0x0375, 0x0375, TN_SEP},   {0x037E, 0x037E, TN_SEP},
	{0x0384, 0x0385, TN_SEP},   {0x0387, 0x0387, TN_SEP},
	{0x03F6, 0x03F6, TN_SEP},   {0x0482, 0x0482, TN_SEP},
	{0x055A, 0x055F, TN_SEP},   {0x0589, 0x058A, TN_SEP},
	{0x05BE, 0x05BE, TN_SEP},   {0x05C0, 0x05C0, TN_SEP},
	{0x05C3, 0x05C3, TN_SEP},   {0x05C6, 0x05C6, TN_SEP},
	{0x05F3, 0x05F4, TN_SEP},   {0x0600, 0x060F, TN_SEP},
	{0x061B, 0x061F, TN_SEP},   {0x066A, 0x066D, TN_SEP},
	{0x06D4, 0x06D4, TN_SEP},   {0x0964, 0x0965, TN_SEP},
	{0x0E00, 0x0E3E, TN_CJK},   {0x0E3F, 0x0E3F, TN_SEP}, /* Thai, baht */
	{0x0E40, 0x0E4E, TN_CJK},   {0x0E4F, 0x0E4F, TN_SEP},
	{0x0E50, 0x0E59, TN_CJK},   {0x0E5A, 0x0E5B, TN_SEP},
	{0x0E80, 0x0EFF, TN_CJK},   /* Lao */
	{0x1000, 0x1049, TN_CJK},   {0x104A, 0x104F, TN_SEP}, /* Myanmar */
	{0x1050, 0x109F, TN_CJK},   {0x1100, 0x11FF, TN_CJK}, /* Hangul jamo */
	{0x1780, 0x17D3, TN_CJK},   {0x17D4, 0x17DA, TN_SEP}, /* Khmer */
	{0x17DB, 0x17FF, TN_CJK},   {0x2000, 0x200A, TN_SEP},
	{0x200B, 0x200B, TN_SEP},   /* zero-width space: a word break in Thai */
	{0x200C, 0x200D, TN_IGNORE}, {0x200E, 0x205F, TN_SEP},
	{0x2060, 0x2064, TN_IGNORE}, {0x2065, 0x2BFF, TN_SEP},
	{0x2E00, 0x2E7F, TN_SEP},   {0x2E80, 0x2FDF, TN_CJK}, /* radicals */
	{0x2FE0, 0x3004, TN_SEP},   {0x3005, 0x3007, TN_CJK},
	{0x3008, 0x3020, TN_SEP},   {0x3021, 0x302F, TN_CJK},
	{0x3030, 0x3030, TN_SEP},   {0x3031, 0x3035, TN_CJK},
	{0x3036, 0x3037, TN_SEP},   {0x3038, 0x303C, TN_CJK},
	{0x303D, 0x303F, TN_SEP},   {0x3040, 0x309F, TN_CJK}, /* Hiragana */
	{0x30A0, 0x30A0, TN_SEP},   {0x30A1, 0x30FA, TN_CJK}, /* Katakana */
	{0x30FB, 0x30FB, TN_SEP},   {0x30FC, 0x31FF, TN_CJK},
	{0x3200, 0x33FF, TN_SEP},   {0x3400, 0x4DBF, TN_CJK},
	{0x4DC0, 0x4DFF, TN_SEP},   {0x4E00, 0xA4CF, TN_CJK}, /* Han, Yi */
	{0xAC00, 0xD7FF, TN_CJK},   /* Hangul syllables */
	{0xD800, 0xF8FF, TN_SEP},   /* surrogates, private use */
	{0xF900, 0xFAFF, TN_CJK},   {0xFE00, 0xFE0F, TN_IGNORE},
	{0xFE10, 0xFE1F, TN_SEP},   {0xFE30, 0xFE6F, TN_SEP},
	{0xFEFF, 0xFEFF, TN_IGNORE}, {0xFF00, 0xFF65, TN_SEP},
	{0xFF66, 0xFFDC, TN_CJK},   /* half-width Katakana, Hangul */
	{0xFFDD, 0xFFFF, TN_SEP},   {0x1D000, 0x1D24F, TN_SEP},
	{0x1F000, 0x1FBFF, TN_SEP}, /* emoji and other pictographs */
	{0x20000, 0x3FFFF, TN_CJK}, /* Han extensions B.. */
	{0xE0000, 0xE00FF, TN_IGNORE}, {0xE0100, 0xE01EF, TN_IGNORE},
	{0xF0000, 0x10FFFF, TN_SEP},
};

static enum textnorm_class class_latin1(uint32_t cp)
{
	if (cp < 0xC0)
		return (cp == 0xAA || cp == 0xBA) ? TN_WORD : cp == 0xAD ? TN_IGNORE : TN_SEP;
	return (cp == 0xD7 || cp == 0xF7) ? TN_SEP : TN_WORD;
}

enum textnorm_class textnorm_class(uint32_t cp)
{
	if (cp < 0x80)
		return ascii_map[cp] ? TN_WORD : TN_SEP;
	if (cp < 0x100)
		return class_latin1(cp);
	if (cp < 0x375)
		return TN_WORD;
	if (cp >= 0x4E00 && cp <= 0x9FFF)
		return TN_CJK;
	if (cp > 0x10FFFF || (cp & 0xFFFE) == 0xFFFE)
		return TN_SEP; /* TN_INVALID, non-characters */
	size_t lo = 0, hi = sizeof ranges / sizeof ranges[0];
	while (lo < hi) {
		const size_t mid = (lo + hi) / 2;
		if (cp < ranges[mid].lo)
			hi = mid;
		else if (cp > ranges[mid].hi)
			lo = mid + 1;
		else
			return (enum textnorm_class)ranges[mid].cls;
	}
	return TN_WORD;
}

/* ---- tokenisation ---- */

static int reserve_text(struct textnorm *tn, size_t n)
{
	if (n <= tn->cap)
		return 0;
	size_t cap = tn->cap ? tn->cap : 4096;
	while (cap < n)
		cap *= 2;
	char *p = realloc(tn->text, cap);
	if (!p)
		return -1;
	tn->text = p;
	tn->cap = cap;
	return 0;
}

/* Room for @n tokens in all. */
static int reserve_tokens(struct textnorm *tn, size_t n)
{
	if (n <= tn->tok_cap)
		return 0;
	size_t cap = tn->tok_cap ? 2 * tn->tok_cap : 1024;
	while (cap < n)
		cap *= 2;
	struct textnorm_token *t = realloc(tn->tok, cap * sizeof *t);
	if (!t)
		return -1;
	tn->tok = t;
	tn->tok_cap = cap;
	return 0;
}

static inline int push_token(struct textnorm *tn, size_t off, uint32_t kind)
{
	if (tn->n_tok == tn->tok_cap && reserve_tokens(tn, tn->n_tok + 1))
		return -1;
	struct textnorm_token *t = &tn->tok[tn->n_tok++];
	t->off = (uint32_t)off;
	t->len = 0;
	t->kind = kind;
	return 0;
}

/*
 * The state of one pass: output position, whether a word token is open,
 * whether the last kept character was CJK with nothing between, and
 * whether separators were seen since the last token.
 */
struct pass {
	size_t o;
	int in_word, prev_cjk, pending_sep;
};

static void close_word(struct textnorm *tn, struct pass *s)
{
	if (s->in_word)
		tn->tok[tn->n_tok - 1].len = (uint32_t)(s->o - tn->tok[tn->n_tok - 1].off);
	s->in_word = 0;
}

static inline int start_token(struct textnorm *tn, struct pass *s, uint32_t kind)
{
	if (s->pending_sep)
		tn->text[s->o++] = ' ';
	s->pending_sep = 0;
	return push_token(tn, s->o, kind);
}

/* Is @cp a combining mark (general category M*)? */
static int is_mark(uint32_t cp)
{
	const utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
	return c == UTF8PROC_CATEGORY_MN || c == UTF8PROC_CATEGORY_MC || c == UTF8PROC_CATEGORY_ME;
}

/* One non-ASCII code point (already decoded and folded) of class @cls. */
static int add_char(struct textnorm *tn, struct pass *s, uint32_t cp,
		    enum textnorm_class cls)
{
	switch (cls) {
	case TN_IGNORE:
		return 0;
	case TN_SEP:
		close_word(tn, s);
		s->pending_sep = s->o > 0;
		s->prev_cjk = 0;
		return 0;
	case TN_WORD:
		if (!s->in_word) {
			/* A combining mark with no letter before it (NFKC makes
			 * U+2017 a space and U+0333) is dropped, not a word. */
			if (cp >= 0x300 && is_mark(cp))
				return 0;
			if (start_token(tn, s, TN_WORD))
				return -1;
			s->in_word = 1;
		}
		s->prev_cjk = 0;
		s->o += utf8_put(tn->text + s->o, cp);
		return 0;
	case TN_CJK:
		close_word(tn, s);
		if (start_token(tn, s, TN_CJK | (s->prev_cjk ? TN_JOINED : 0)))
			return -1;
		s->o += utf8_put(tn->text + s->o, cp);
		tn->tok[tn->n_tok - 1].len = (uint32_t)(s->o - tn->tok[tn->n_tok - 1].off);
		tn->n_cjk++;
		s->prev_cjk = 1;
		return 0;
	}
	return 0;
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* High bit of each byte of @x (all bytes < 0x80) that lies in [lo, hi]:
 * adding 0x80 - lo sets it from lo up, adding 0x7F - hi from above hi,
 * and no byte carries into the next. */
static uint64_t swar_in(uint64_t x, unsigned lo, unsigned hi)
{
	return (x + (0x80 - lo) * ONES) & ~(x + (0x7F - hi) * ONES) & HIGHS;
}

/*
 * A run of ASCII word characters, copied folded: 8 bytes at a time (the
 * classes of 8 bytes from a few 64-bit operations, the word's end from a
 * count of trailing zeros), so a word costs one loop branch, not one per
 * letter.  The output may be written up to 8 bytes ahead: reserve_text()
 * keeps that slack.
 */
static const uint8_t *ascii_word(struct textnorm *tn, struct pass *s,
				 const uint8_t *p, const uint8_t *end)
{
	char *out = tn->text + s->o;
	char c;
	while (end - p >= 8) {
		const uint64_t x = get_le64(p);
		const uint64_t ascii = ~x & HIGHS;
		const uint64_t x7 = x & ~HIGHS;
		const uint64_t letter = swar_in(x7 | 0x20 * ONES, 'a', 'z') & ascii;
		const uint64_t word = (letter | swar_in(x7, '0', '9')) & ascii;
		put_le64((uint8_t *)out, x | (letter >> 2)); /* 0x80 >> 2 = 0x20 */
		if (word == HIGHS) {
			out += 8;
			p += 8;
			continue;
		}
		const unsigned n = (unsigned)__builtin_ctzll(~word & HIGHS) / 8;
		out += n;
		p += n;
		s->o = (size_t)(out - tn->text);
		return p;
	}
	while (p < end && *p < 0x80 && (c = ascii_map[*p]) != 0) {
		*out++ = c;
		p++;
	}
	s->o = (size_t)(out - tn->text);
	return p;
}

/* U+4E00..U+9FFF (lead bytes E4..E9, from U+4000): Han, the bulk of Chinese text. */
static int is_han(const uint8_t *p, const uint8_t *end)
{
	return *p >= 0xE4 && *p <= 0xE9 && end - p >= 3 && is_cont(p[1]) && is_cont(p[2]) &&
	       (*p > 0xE4 || p[1] >= 0xB8);
}

/*
 * The punctuation Chinese and Japanese text is full of, without decoding,
 * folding and classing (a range search): U+2010..U+2027 (dashes, quotes,
 * ellipsis), U+3000..U+3004 and U+3008..U+3020 (ideographic space, comma,
 * full stop, brackets), full-width ASCII punctuation, and the box drawing
 * of U+2500..U+257F (text-mode tables).  All are TN_SEP by the tables
 * above; test_textnorm checks the two agree.
 */
static int is_cjk_punct(const uint8_t *p, const uint8_t *end)
{
	if (end - p < 3 || !is_cont(p[2]))
		return 0;
	const uint32_t b1 = p[1], b2 = p[2];
	switch (p[0]) {
	case 0xE2:
		return (b1 == 0x80 && b2 >= 0x90 && b2 <= 0xA7) || b1 == 0x94 || b1 == 0x95;
	case 0xE3:
		return b1 == 0x80 && (b2 <= 0x84 || (b2 >= 0x88 && b2 <= 0xA0));
	case 0xEF: {
		const uint32_t cp = 0xF000 | (b1 & 0x3F) << 6 | (b2 & 0x3F);
		return (b1 == 0xBC || b1 == 0xBD) && cp >= 0xFF01 && cp <= 0xFF5E &&
		       !ascii_map[cp - 0xFEE0];
	}
	}
	return 0;
}

/*
 * The signs of Latin-1 that Western pages sprinkle their text with: a
 * no-break space (NFKC makes it a space), the section, copyright,
 * registered and pilcrow signs, guillemets and the middle dot (each its
 * own NFKC form), all TN_SEP.  None composes with a character beside
 * it, so, like is_cjk_punct()'s, they tokenise as they stand.
 */
static int is_latin1_sign(const uint8_t *p, const uint8_t *end)
{
	if (end - p < 2 || p[0] != 0xC2)
		return 0;
	switch (p[1]) {
	case 0xA0: case 0xA7: case 0xA9: case 0xAB: case 0xAE: case 0xB6: case 0xB7: case 0xBB:
		return 1;
	}
	return 0;
}

/*
 * The letters of Latin-1, U+00C0..U+00FF but for the signs U+00D7 and
 * U+00F7 and for U+00DF (NFKC_Casefold makes it "ss"): each is its own
 * NFKC form, its case folded to one letter as textnorm_fold() folds it,
 * and composes with nothing before it; a combining mark after it is no
 * character the raw pass knows, and sends the line to NFKC.  French,
 * German and Spanish lines are mostly ASCII and these.
 */
static int is_latin1_letter(const uint8_t *p, const uint8_t *end)
{
	return end - p >= 2 && p[0] == 0xC3 && p[1] >= 0x80 && p[1] <= 0xBF && p[1] != 0x97 &&
	       p[1] != 0x9F && p[1] != 0xB7;
}

/*
 * Arrows (U+2190..U+21FF), technical signs (U+2300..U+23FF but for the
 * angle brackets U+2329 and U+232A, which NFKC makes U+3008 and U+3009),
 * block elements, geometric shapes, symbols and dingbats (U+2580..U+27BF),
 * more arrows and symbols (U+2B00..U+2BFF), and the pictographs of
 * U+1F000..U+1F0FF and U+1F300..U+1FAFF (emoji): bullets and icons of
 * menus, lists and buttons.  Each is its own NFKC_Casefold form, a
 * starter, and TN_SEP, so it tokenises as it stands, as is_cjk_punct()'s
 * do; a mark, variation selector or joiner after one is no character the
 * raw pass knows, and sends the line to NFKC.  Left out: the enclosed
 * letters and digits around them (U+2460..U+24FF, U+1F100..U+1F2FF,
 * NFKC makes them letters and digits), the letterlike signs
 * (U+2100..U+214F: "TM", "No").  test_textnorm checks every code point
 * of these against the library.
 */
static size_t symbol_len(const uint8_t *p, const uint8_t *end)
{
	if (p[0] == 0xE2) {
		if (end - p < 3 || !is_cont(p[1]) || !is_cont(p[2]))
			return 0;
		const uint32_t cp = 0x2000 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
		return (cp >= 0x2190 && cp <= 0x21FF) ||
		       (cp >= 0x2300 && cp <= 0x23FF && cp != 0x2329 && cp != 0x232A) ||
		       (cp >= 0x2580 && cp <= 0x27BF) || (cp >= 0x2B00 && cp <= 0x2BFF)
			       ? 3
			       : 0;
	}
	if (p[0] != 0xF0 || end - p < 4 || p[1] != 0x9F || !is_cont(p[2]) || !is_cont(p[3]))
		return 0;
	const uint32_t cp = 0x1F000 | (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
	return cp <= 0x1F0FF || (cp >= 0x1F300 && cp <= 0x1FAFF) ? 4 : 0;
}

size_t textnorm_sep_len(const uint8_t *p, const uint8_t *end)
{
	if (is_latin1_sign(p, end))
		return 2;
	if (is_cjk_punct(p, end))
		return 3;
	return symbol_len(p, end);
}

int textnorm_ascii_seps(const char *in, size_t n)
{
	const uint8_t *p = (const uint8_t *)in, *const end = p + n;
	while (p < end) {
		if (end - p >= 8 && !(get_le64(p) & 0x8080808080808080ull)) {
			p += 8;
			continue;
		}
		if (*p < 0x80) {
			p++;
			continue;
		}
		const size_t l = textnorm_sep_len(p, end);
		if (!l)
			return 0;
		p += l;
	}
	return 1;
}

/*
 * A run of Han characters: what add_char() does for each, without the
 * decoding, folding and classing (they need none), with room for the
 * longest possible run made once, and the loop state in locals (stores
 * through char * could alias the struct fields, forcing a reload of each
 * per character).
 */
static int han_run(struct textnorm *tn, struct pass *s, const uint8_t **pp,
		   const uint8_t *end)
{
	const uint8_t *p = *pp;
	close_word(tn, s);
	if (s->pending_sep)
		tn->text[s->o++] = ' ';
	s->pending_sep = 0;
	if (reserve_tokens(tn, tn->n_tok + (size_t)(end - p) / 3))
		return -1;
	struct textnorm_token *const tok = tn->tok;
	char *const text = tn->text;
	size_t n = tn->n_tok, o = s->o;
	const size_t n0 = n;
	uint32_t kind = TN_CJK | (s->prev_cjk ? TN_JOINED : 0);
	do {
		tok[n].off = (uint32_t)o;
		tok[n].len = 3;
		tok[n].kind = kind;
		kind = TN_CJK | TN_JOINED;
		n++;
		memcpy(text + o, p, 3);
		o += 3;
		p += 3;
	} while (p < end && is_han(p, end));
	tn->n_cjk += n - n0;
	tn->n_tok = n;
	s->o = o;
	s->prev_cjk = 1;
	*pp = p;
	return 0;
}

/* textnorm_run()'s pass asks for the NFKC form first. */
#define NEEDS_NFKC 1

/*
 * One pass over [in, in+len) into @tn.  @raw: the text was not put in
 * NFKC.  Text of ASCII, Han and the punctuation textnorm_sep_len() knows is
 * read as it stands: Han characters and ASCII are their own NFKC form
 * (case aside, which the pass folds), none composes with what is before
 * or after it, and what NFKC makes of that punctuation (U+3000 a space,
 * U+2026 "...", full-width ',' ',') and of textnorm_sep_len()'s other
 * separators is a separator as the punctuation is; Latin-1's letters are
 * decoded and folded, their NFKC_Casefold form (is_latin1_letter()).
 * So such text tokenises as its NFKC form does, without the copy; a raw
 * pass stops at any other non-ASCII byte (NEEDS_NFKC), for the caller to
 * start again on the NFKC form.  Most Chinese lines are made of nothing
 * else, and ASCII lines never see a non-ASCII byte.
 */
static int run_pass(struct textnorm *tn, const char *in, size_t len, int raw)
{
	tn->len = 0;
	tn->n_tok = 0;
	tn->n_cjk = 0;
	if (len > UINT32_MAX - 1)
		len = UINT32_MAX - 1;
	if (reserve_text(tn, len + 9)) /* NUL, and ascii_word()'s slack */
		return -1;
	struct pass s = {0, 0, 0, 0};
	const uint8_t *p = (const uint8_t *)in, *const end = p + len;
	while (p < end) {
		if (*p < 0x80 && ascii_map[*p]) {
			if (!s.in_word && (start_token(tn, &s, TN_WORD)))
				return -1;
			s.in_word = 1;
			s.prev_cjk = 0;
			p = ascii_word(tn, &s, p, end);
			continue;
		}
		if (*p < 0x80) {
			/* ASCII separators (spaces, punctuation): a third of English
			 * text, so they skip decoding and the class lookup. */
			close_word(tn, &s);
			s.pending_sep = s.o > 0;
			s.prev_cjk = 0;
			while (++p < end && *p < 0x80 && !ascii_map[*p])
				;
			continue;
		}
		if (is_han(p, end)) {
			if (han_run(tn, &s, &p, end))
				return -1;
			continue;
		}
		const size_t sep = textnorm_sep_len(p, end);
		if (sep) { /* as add_char() does for TN_SEP */
			close_word(tn, &s);
			s.pending_sep = s.o > 0;
			s.prev_cjk = 0;
			p += sep;
			continue;
		}
		if (raw && !is_latin1_letter(p, end))
			return NEEDS_NFKC;
		uint32_t cp;
		p += textnorm_decode(p, end, &cp);
		if (cp != TN_INVALID)
			cp = textnorm_fold(cp);
		if (add_char(tn, &s, cp, textnorm_class(cp)))
			return -1;
		/* Never longer than the input consumed: see fold_latin(). */
		assert(s.o <= (size_t)(p - (const uint8_t *)in));
	}
	close_word(tn, &s);
	tn->text[s.o] = '\0';
	tn->len = s.o;
	return 0;
}

int textnorm_run(struct textnorm *tn, const char *in, size_t len)
{
	/* (a text cut at 4 GiB is cut in its NFKC form, as it always was) */
	const int rc = len <= UINT32_MAX - 1 ? run_pass(tn, in, len, 1) : NEEDS_NFKC;
	if (rc != NEEDS_NFKC)
		return rc;
	if (nfkc_casefold(&tn->nf, in, len)) {
		tn->len = 0;
		tn->n_tok = 0;
		tn->n_cjk = 0;
		return -1;
	}
	return run_pass(tn, tn->nf.out, tn->nf.len, 0);
}

void textnorm_free(struct textnorm *tn)
{
	free(tn->text);
	free(tn->tok);
	nfkc_free(&tn->nf);
	memset(tn, 0, sizeof *tn);
}
