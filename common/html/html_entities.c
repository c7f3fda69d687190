/*
 * html_entities.c - character references to UTF-8.
 *
 * The named table is sorted by byte order of the names and searched by
 * bisection, so a lookup costs ~9 short compares.  Names are matched case
 * sensitively, as HTML requires (&Eacute; is not &eacute;).
 */
#include "html/html_entities.h"
#include "util/simd16.h"
#include "util/utf8.h"

#include <string.h>

struct entity {
	const char *name;
	uint32_t cp;
	uint8_t legacy; /* also recognised without ';' */
};

/* Sorted by strcmp() order of name: entity_lookup() bisects it. */
static const struct entity entities[] = {
	{"AElig", 198, 1}, {"AMP", 38, 1}, {"Aacute", 193, 1}, {"Acirc", 194, 1},
	{"Agrave", 192, 1}, {"Alpha", 913, 0}, {"Aring", 197, 1}, {"Atilde", 195, 1},
	{"Auml", 196, 1}, {"Beta", 914, 0}, {"COPY", 169, 1}, {"Ccedil", 199, 1},
	{"Chi", 935, 0}, {"Dagger", 8225, 0}, {"Delta", 916, 0}, {"ETH", 208, 1},
	{"Eacute", 201, 1}, {"Ecirc", 202, 1}, {"Egrave", 200, 1}, {"Epsilon", 917, 0},
	{"Eta", 919, 0}, {"Euml", 203, 1}, {"GT", 62, 1}, {"Gamma", 915, 0}, {"Hat", 94, 0},
	{"Iacute", 205, 1}, {"Icirc", 206, 1}, {"Igrave", 204, 1}, {"Iota", 921, 0},
	{"Iuml", 207, 1}, {"Kappa", 922, 0}, {"LT", 60, 1}, {"Lambda", 923, 0}, {"Mu", 924, 0},
	{"NewLine", 10, 0}, {"Ntilde", 209, 1}, {"Nu", 925, 0}, {"OElig", 338, 0},
	{"Oacute", 211, 1}, {"Ocirc", 212, 1}, {"Ograve", 210, 1}, {"Omega", 937, 0},
	{"Omicron", 927, 0}, {"Oslash", 216, 1}, {"Otilde", 213, 1}, {"Ouml", 214, 1},
	{"Phi", 934, 0}, {"Pi", 928, 0}, {"Prime", 8243, 0}, {"Psi", 936, 0}, {"QUOT", 34, 1},
	{"REG", 174, 1}, {"Rho", 929, 0}, {"Scaron", 352, 0}, {"Sigma", 931, 0},
	{"THORN", 222, 1}, {"TRADE", 8482, 0}, {"Tab", 9, 0}, {"Tau", 932, 0},
	{"Theta", 920, 0}, {"Uacute", 218, 1}, {"Ucirc", 219, 1}, {"Ugrave", 217, 1},
	{"Upsilon", 933, 0}, {"Uuml", 220, 1}, {"Xi", 926, 0}, {"Yacute", 221, 1},
	{"Yuml", 376, 0}, {"Zeta", 918, 0}, {"aacute", 225, 1}, {"acirc", 226, 1},
	{"acute", 180, 1}, {"aelig", 230, 1}, {"agrave", 224, 1}, {"alefsym", 8501, 0},
	{"alpha", 945, 0}, {"amp", 38, 1}, {"and", 8743, 0}, {"ang", 8736, 0},
	{"angle", 8736, 0}, {"apos", 39, 0}, {"aring", 229, 1}, {"ast", 42, 0},
	{"asymp", 8776, 0}, {"atilde", 227, 1}, {"auml", 228, 1}, {"bdquo", 8222, 0},
	{"beta", 946, 0}, {"brvbar", 166, 1}, {"bsol", 92, 0}, {"bull", 8226, 0},
	{"bullet", 8226, 0}, {"cap", 8745, 0}, {"ccedil", 231, 1}, {"cedil", 184, 1},
	{"cent", 162, 1}, {"centerdot", 183, 0}, {"check", 10003, 0}, {"chi", 967, 0},
	{"circ", 710, 0}, {"clubs", 9827, 0}, {"colon", 58, 0}, {"comma", 44, 0},
	{"commat", 64, 0}, {"cong", 8773, 0}, {"copy", 169, 1}, {"copysr", 8471, 0},
	{"crarr", 8629, 0}, {"cross", 10007, 0}, {"cup", 8746, 0}, {"curren", 164, 1},
	{"dArr", 8659, 0}, {"dagger", 8224, 0}, {"darr", 8595, 0}, {"dash", 8208, 0},
	{"deg", 176, 1}, {"delta", 948, 0}, {"diams", 9830, 0}, {"divide", 247, 1},
	{"dollar", 36, 0}, {"eacute", 233, 1}, {"ecirc", 234, 1}, {"egrave", 232, 1},
	{"ell", 8467, 0}, {"empty", 8709, 0}, {"emsp", 8195, 0}, {"ensp", 8194, 0},
	{"epsilon", 949, 0}, {"equals", 61, 0}, {"equiv", 8801, 0}, {"eta", 951, 0},
	{"eth", 240, 1}, {"euml", 235, 1}, {"euro", 8364, 0}, {"excl", 33, 0},
	{"exist", 8707, 0}, {"female", 9792, 0}, {"flat", 9837, 0}, {"fnof", 402, 0},
	{"forall", 8704, 0}, {"frac12", 189, 1}, {"frac14", 188, 1}, {"frac34", 190, 1},
	{"frasl", 8260, 0}, {"gamma", 947, 0}, {"ge", 8805, 0}, {"grave", 96, 0}, {"gt", 62, 1},
	{"hArr", 8660, 0}, {"hairsp", 8202, 0}, {"half", 189, 0}, {"harr", 8596, 0},
	{"hbar", 8463, 0}, {"hearts", 9829, 0}, {"hellip", 8230, 0}, {"horbar", 8213, 0},
	{"hyphen", 8208, 0}, {"iacute", 237, 1}, {"icirc", 238, 1}, {"iexcl", 161, 1},
	{"igrave", 236, 1}, {"image", 8465, 0}, {"infin", 8734, 0}, {"int", 8747, 0},
	{"iota", 953, 0}, {"iquest", 191, 1}, {"isin", 8712, 0}, {"iuml", 239, 1},
	{"kappa", 954, 0}, {"lArr", 8656, 0}, {"lambda", 955, 0}, {"lang", 10216, 0},
	{"laquo", 171, 1}, {"larr", 8592, 0}, {"larrow", 8592, 0}, {"lbrace", 123, 0},
	{"lbrack", 91, 0}, {"lceil", 8968, 0}, {"lcub", 123, 0}, {"ldquo", 8220, 0},
	{"ldquor", 8222, 0}, {"le", 8804, 0}, {"leftarrow", 8592, 0}, {"lfloor", 8970, 0},
	{"lowast", 8727, 0}, {"lowbar", 95, 0}, {"loz", 9674, 0}, {"lpar", 40, 0},
	{"lrm", 8206, 0}, {"lsaquo", 8249, 0}, {"lsqb", 91, 0}, {"lsquo", 8216, 0},
	{"lsquor", 8218, 0}, {"lt", 60, 1}, {"macr", 175, 1}, {"male", 9794, 0},
	{"mdash", 8212, 0}, {"micro", 181, 1}, {"middot", 183, 1}, {"minus", 8722, 0},
	{"mldr", 8230, 0}, {"mu", 956, 0}, {"nabla", 8711, 0}, {"natural", 9838, 0},
	{"nbhy", 8209, 0}, {"nbsp", 160, 1}, {"ndash", 8211, 0}, {"ne", 8800, 0},
	{"ni", 8715, 0}, {"nldr", 8229, 0}, {"not", 172, 1}, {"notin", 8713, 0},
	{"nsub", 8836, 0}, {"ntilde", 241, 1}, {"nu", 957, 0}, {"num", 35, 0},
	{"numsp", 8199, 0}, {"oacute", 243, 1}, {"ocirc", 244, 1}, {"oelig", 339, 0},
	{"ograve", 242, 1}, {"ohm", 937, 0}, {"oline", 8254, 0}, {"omega", 969, 0},
	{"omicron", 959, 0}, {"oplus", 8853, 0}, {"or", 8744, 0}, {"ordf", 170, 1},
	{"ordm", 186, 1}, {"oslash", 248, 1}, {"otilde", 245, 1}, {"otimes", 8855, 0},
	{"ouml", 246, 1}, {"para", 182, 1}, {"part", 8706, 0}, {"percnt", 37, 0},
	{"period", 46, 0}, {"permil", 8240, 0}, {"perp", 8869, 0}, {"phi", 966, 0},
	{"phone", 9742, 0}, {"pi", 960, 0}, {"piv", 982, 0}, {"planck", 8463, 0},
	{"plus", 43, 0}, {"plusmn", 177, 1}, {"pm", 177, 0}, {"pound", 163, 1},
	{"prime", 8242, 0}, {"prod", 8719, 0}, {"prop", 8733, 0}, {"psi", 968, 0},
	{"puncsp", 8200, 0}, {"quest", 63, 0}, {"quot", 34, 1}, {"rArr", 8658, 0},
	{"radic", 8730, 0}, {"rang", 10217, 0}, {"raquo", 187, 1}, {"rarr", 8594, 0},
	{"rarrow", 8594, 0}, {"rbrace", 125, 0}, {"rbrack", 93, 0}, {"rceil", 8969, 0},
	{"rcub", 125, 0}, {"rdquo", 8221, 0}, {"rdquor", 8221, 0}, {"real", 8476, 0},
	{"reg", 174, 1}, {"rfloor", 8971, 0}, {"rho", 961, 0}, {"rightarrow", 8594, 0},
	{"rlm", 8207, 0}, {"rpar", 41, 0}, {"rsaquo", 8250, 0}, {"rsqb", 93, 0},
	{"rsquo", 8217, 0}, {"rsquor", 8217, 0}, {"sbquo", 8218, 0}, {"scaron", 353, 0},
	{"sdot", 8901, 0}, {"sect", 167, 1}, {"semi", 59, 0}, {"sharp", 9839, 0},
	{"shy", 173, 1}, {"sigma", 963, 0}, {"sigmaf", 962, 0}, {"sim", 8764, 0},
	{"sol", 47, 0}, {"spades", 9824, 0}, {"star", 9734, 0}, {"starf", 9733, 0},
	{"sub", 8834, 0}, {"sube", 8838, 0}, {"sum", 8721, 0}, {"sup", 8835, 0},
	{"sup1", 185, 1}, {"sup2", 178, 1}, {"sup3", 179, 1}, {"supe", 8839, 0},
	{"szlig", 223, 1}, {"tau", 964, 0}, {"there4", 8756, 0}, {"theta", 952, 0},
	{"thetasym", 977, 0}, {"thinsp", 8201, 0}, {"thorn", 254, 1}, {"tilde", 732, 0},
	{"times", 215, 1}, {"trade", 8482, 0}, {"uArr", 8657, 0}, {"uacute", 250, 1},
	{"uarr", 8593, 0}, {"ucirc", 251, 1}, {"ugrave", 249, 1}, {"uml", 168, 1},
	{"upsih", 978, 0}, {"upsilon", 965, 0}, {"uuml", 252, 1}, {"verbar", 124, 0},
	{"vert", 124, 0}, {"weierp", 8472, 0}, {"xi", 958, 0}, {"yacute", 253, 1},
	{"yen", 165, 1}, {"yuml", 255, 1}, {"zeta", 950, 0}, {"zwj", 8205, 0},
	{"zwnj", 8204, 0},
};

#define N_ENTITIES (sizeof(entities) / sizeof(entities[0]))
#define MAX_NAME 10  /* longest name in the table */
#define MAX_LEGACY 6 /* longest legacy name */

/* windows-1252 meaning of &#128; .. &#159;, as browsers read them. */
static const uint16_t c1_1252[32] = {
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

/* Exact lookup of the name [s, s+n); NULL if unknown. */
/* The references most pages are full of, found by two compares each
 * before the bisection: entries equal to the table's. */
static const struct entity *common_entity(const char *s, size_t n)
{
	static const struct entity amp = {"amp", 38, 1}, lt = {"lt", 60, 1}, gt = {"gt", 62, 1},
				   quot = {"quot", 34, 1}, nbsp = {"nbsp", 160, 1};
	if (n == 2 && s[1] == 't')
		return s[0] == 'l' ? &lt : s[0] == 'g' ? &gt : NULL;
	if (n == 3 && !memcmp(s, "amp", 3))
		return &amp;
	if (n == 4 && !memcmp(s, "quot", 4))
		return &quot;
	if (n == 4 && !memcmp(s, "nbsp", 4))
		return &nbsp;
	return NULL;
}

static const struct entity *entity_lookup(const char *s, size_t n)
{
	const struct entity *const e = common_entity(s, n);
	if (e)
		return e;
	size_t lo = 0, hi = N_ENTITIES;
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		const char *const name = entities[mid].name;
		int c = 0;
		for (size_t i = 0; i < n && c == 0; i++) /* strncmp() without the call */
			c = (unsigned char)name[i] - (unsigned char)s[i];
		if (c == 0)
			c = name[n] ? 1 : 0; /* the table name is longer */
		if (c == 0)
			return &entities[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int is_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int hex_val(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* &#DDD; or &#xHHH; at s ("&#" already checked).  The ';' is optional. */
static size_t decode_numeric(const char *s, size_t n, char *out, size_t *olen)
{
	size_t i = 2;
	const int hex = i < n && (s[i] == 'x' || s[i] == 'X');
	const unsigned base = hex ? 16 : 10;
	i += (size_t)hex;
	const size_t digits_at = i;
	uint32_t cp = 0;
	for (; i < n; i++) {
		const int d = hex ? hex_val((unsigned char)s[i]) : (s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : -1);
		if (d < 0)
			break;
		if (cp <= 0x10FFFF) /* saturate: any longer number is invalid anyway */
			cp = cp * base + (uint32_t)d;
	}
	if (i == digits_at)
		return 0;
	if (i < n && s[i] == ';')
		i++;
	if (cp == 0)
		cp = 0xFFFD;
	else if (cp >= 0x80 && cp < 0xA0)
		cp = c1_1252[cp - 0x80];
	*olen = utf8_put(out, cp);
	return i;
}

size_t html_entity_decode(const char *s, size_t n, char *out, size_t *olen)
{
	*olen = 0;
	if (n < 2)
		return 0;
	if (s[1] == '#')
		return decode_numeric(s, n, out, olen);
	size_t run = 1;
	while (run < n && run <= MAX_NAME + 1 && is_alnum((unsigned char)s[run]))
		run++;
	const size_t name_len = run - 1;
	if (name_len == 0 || name_len > MAX_NAME)
		goto legacy;
	if (run < n && s[run] == ';') {
		const struct entity *const e = entity_lookup(s + 1, name_len);
		if (e) {
			*olen = utf8_put(out, e->cp);
			return run + 1;
		}
	}
legacy:
	/* Without ';': the longest legacy name that prefixes the run. */
	for (size_t l = name_len < MAX_LEGACY ? name_len : MAX_LEGACY; l >= 2; l--) {
		const struct entity *const e = entity_lookup(s + 1, l);
		if (e && e->legacy) {
			*olen = utf8_put(out, e->cp);
			return 1 + l;
		}
	}
	return 0;
}

static int is_blank(unsigned char c)
{
	return c <= ' '; /* controls and NUL are read as blanks too */
}

/* A decoded reference that is itself white space (&nbsp; &#10; &Tab;)? */
static int decoded_blank(const char *d, size_t nd)
{
	return (nd == 1 && is_blank((unsigned char)d[0])) ||
	       (nd == 2 && (unsigned char)d[0] == 0xC2 && (unsigned char)d[1] == 0xA0);
}

/* Bit i set where byte i of @v is blank, '&' or 0xC2. */
static unsigned special16(v16 v)
{
	return v16_mask(v16_or(v16_le(v, v16_splat(' ')),
			       v16_or(v16_eq(v, v16_splat('&')), v16_eq(v, v16_splat(0xC2)))));
}

/*
 * Copy the leading run of plain bytes of [s, s+n) to @out 16 bytes at a
 * time while 17 are readable (@avail); @return the bytes of the run
 * copied, all of it unless the readable bytes ran short.  Plain is any
 * byte but blanks, '&' and 0xC2, and also a single ' ' between two plain
 * bytes of the text: collapsing would write it back unchanged, and
 * stopping at every space between words would make the run as short as a
 * word.  Whole chunks are stored, also past the run's end: html_collapse()'s
 * output never runs ahead of its input by more than the one pending
 * space, and HTML_COLLAPSE_SLACK covers the rest.
 */
static size_t plain_run16(const char *s, size_t n, size_t avail, char *out, int *whole)
{
	size_t i = 0;
	*whole = 0;
	while (i < n && i + 17 <= avail) {
		const v16 v = v16_load(s + i);
		v16_store(out + i, v);
		const unsigned sp = v16_mask(v16_eq(v, v16_splat(' ')));
		const unsigned spec = special16(v);
		const size_t left = n - i;
		unsigned m;
		if (left > 16) {
			/* a space is plain if the byte after it is; a space
			 * that ends the chunk is left to the next one, which
			 * starts with it */
			m = spec & ~(sp & ~(spec >> 1));
			if (!m) {
				i += 16 - (sp >> 15);
				continue;
			}
		} else {
			/* the text ends here: a space that ends it is owed, not
			 * written; shifts of a 64-bit ~0 by at most 32 */
			unsigned next = special16(v16_load(s + i + 1));
			next |= (unsigned)(~0ull << (left - 1));
			m = spec & ~(sp & ~next);
			m |= (unsigned)(~0ull << left) & 0xFFFFu;
		}
		if (m) {
			*whole = 1;
			return i + (size_t)__builtin_ctz(m);
		}
		i += 16;
	}
	*whole = i >= n;
	return i < n ? i : n;
}

/*
 * &amp; &lt; &gt; &quot; &nbsp; (most of the references pages hold) at @s,
 * @n bytes left, by a few byte compares; html_entity_decode() reads them
 * (and any other reference) by its name scan and table lookup, to the
 * same end.  @return the bytes used, 0 if @s starts none of them.
 */
static size_t common_ref(const char *s, size_t n, char *out, size_t *nb)
{
	if (n < 4)
		return 0;
	switch (s[1]) {
	case 'a':
		if (n < 5 || memcmp(s + 2, "mp;", 3))
			return 0;
		out[0] = '&';
		*nb = 1;
		return 5;
	case 'l':
	case 'g':
		if (s[2] != 't' || s[3] != ';')
			return 0;
		out[0] = s[1] == 'l' ? '<' : '>';
		*nb = 1;
		return 4;
	case 'q':
		if (n < 6 || memcmp(s + 2, "uot;", 4))
			return 0;
		out[0] = '"';
		*nb = 1;
		return 6;
	case 'n':
		if (n < 6 || memcmp(s + 2, "bsp;", 4))
			return 0;
		out[0] = (char)0xC2;
		out[1] = (char)0xA0;
		*nb = 2;
		return 6;
	default:
		return 0;
	}
}

size_t html_collapse(char *out, const char *s, size_t n, size_t avail, int has_text, int *pending,
		     int decode)
{
	char *const out0 = out;
	const char *const s0 = s, *const end = s + n;
	int owed = *pending, after_text = has_text; /* in locals: *pending is written once */
	while (s < end) {
		const unsigned char c = (unsigned char)*s;
		if (c > ' ' && c != '&' && c != 0xC2) {
			/* Fast path: a run of plain bytes, most of any text. */
			if (owed && after_text)
				*out++ = ' ';
			owed = 0;
			after_text = 1;
			int whole;
			const size_t fast = plain_run16(s, (size_t)(end - s), avail - (size_t)(s - s0), out, &whole);
			s += fast;
			out += fast;
			if (!whole)
				while (s < end && (unsigned char)*s > ' ' && *s != '&' && (unsigned char)*s != 0xC2)
					*out++ = *s++;
			continue;
		}
		char tmp[HTML_ENTITY_MAX_UTF8];
		const char *bytes = s;
		size_t used = 1, nb = 1;
		if (is_blank(c) || (c == 0xC2 && end - s > 1 && (unsigned char)s[1] == 0xA0)) {
			owed = 1;
			s += c == 0xC2 ? 2 : 1;
			continue;
		}
		if (c == '&' && decode &&
		    ((used = common_ref(s, (size_t)(end - s), tmp, &nb)) > 0 ||
		     (used = html_entity_decode(s, (size_t)(end - s), tmp, &nb)) > 0)) {
			bytes = tmp;
			if (decoded_blank(tmp, nb)) {
				owed = 1;
				s += used;
				continue;
			}
		} else {
			used = nb = 1;
		}
		if (owed && after_text)
			*out++ = ' ';
		owed = 0;
		after_text = 1;
		for (size_t k = 0; k < nb; k++) /* a byte or one character: no call */
			out[k] = bytes[k];
		out += nb;
		s += used;
	}
	*pending = owed;
	return (size_t)(out - out0);
}
