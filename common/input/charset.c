/*
 * charset.c - charset sniffing and conversion of HTML payloads to UTF-8.
 *
 * UTF-8 (validate + copy) and windows-1252 (a 32-entry table for
 * 0x80..0x9F, the rest is Latin-1) are decoded here: together they are
 * most of the web, and glibc's CP1252 rejects the five bytes WHATWG maps
 * to C1 controls.  Every other charset goes through a per-call iconv
 * descriptor, so the module keeps no state and is safe in any thread.
 * Undecodable bytes become U+FFFD one byte at a time, as the contract
 * asks; iconv's EILSEQ and EINVAL are both handled that way.
 */
#include "input/charset.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <uchardet/uchardet.h>

#include "util/bytes.h"
#include "util/simd16.h"
#include "util/utf8.h"

enum enc {
	ENC_UTF8, ENC_1252, ENC_UTF16LE, ENC_UTF16BE, ENC_GB18030, ENC_BIG5,
	ENC_SJIS, ENC_EUCJP, ENC_ISO2022JP, ENC_EUCKR, ENC_1250, ENC_1251,
	ENC_1253, ENC_1254, ENC_1255, ENC_1256, ENC_1257, ENC_1258, ENC_874,
	ENC_KOI8R, ENC_KOI8U, ENC_IBM866, ENC_MAC, ENC_8859_2, ENC_8859_3,
	ENC_8859_4, ENC_8859_5, ENC_8859_6, ENC_8859_7, ENC_8859_8,
	ENC_8859_10, ENC_8859_13, ENC_8859_14, ENC_8859_15, ENC_8859_16,
	ENC_NONE = -1
};

/* Canonical (WHATWG) name and the glibc iconv name of each encoding. */
static const struct {
	const char *name, *iconv;
} enc_info[] = {
	[ENC_UTF8] = {"UTF-8", NULL},
	[ENC_1252] = {"windows-1252", NULL},
	[ENC_UTF16LE] = {"UTF-16LE", "UTF-16LE"},
	[ENC_UTF16BE] = {"UTF-16BE", "UTF-16BE"},
	[ENC_GB18030] = {"GB18030", "GB18030"},
	[ENC_BIG5] = {"Big5", "BIG5-HKSCS"},
	[ENC_SJIS] = {"Shift_JIS", "WINDOWS-31J"},
	[ENC_EUCJP] = {"EUC-JP", "EUC-JP"},
	[ENC_ISO2022JP] = {"ISO-2022-JP", "ISO-2022-JP"},
	[ENC_EUCKR] = {"EUC-KR", "CP949"},
	[ENC_1250] = {"windows-1250", "CP1250"},
	[ENC_1251] = {"windows-1251", "CP1251"},
	[ENC_1253] = {"windows-1253", "CP1253"},
	[ENC_1254] = {"windows-1254", "CP1254"},
	[ENC_1255] = {"windows-1255", "CP1255"},
	[ENC_1256] = {"windows-1256", "CP1256"},
	[ENC_1257] = {"windows-1257", "CP1257"},
	[ENC_1258] = {"windows-1258", "CP1258"},
	[ENC_874] = {"windows-874", "CP874"},
	[ENC_KOI8R] = {"KOI8-R", "KOI8-R"},
	[ENC_KOI8U] = {"KOI8-U", "KOI8-U"},
	[ENC_IBM866] = {"IBM866", "IBM866"},
	[ENC_MAC] = {"macintosh", "MACINTOSH"},
	[ENC_8859_2] = {"ISO-8859-2", "ISO-8859-2"},
	[ENC_8859_3] = {"ISO-8859-3", "ISO-8859-3"},
	[ENC_8859_4] = {"ISO-8859-4", "ISO-8859-4"},
	[ENC_8859_5] = {"ISO-8859-5", "ISO-8859-5"},
	[ENC_8859_6] = {"ISO-8859-6", "ISO-8859-6"},
	[ENC_8859_7] = {"ISO-8859-7", "ISO-8859-7"},
	[ENC_8859_8] = {"ISO-8859-8", "ISO-8859-8"},
	[ENC_8859_10] = {"ISO-8859-10", "ISO-8859-10"},
	[ENC_8859_13] = {"ISO-8859-13", "ISO-8859-13"},
	[ENC_8859_14] = {"ISO-8859-14", "ISO-8859-14"},
	[ENC_8859_15] = {"ISO-8859-15", "ISO-8859-15"},
	[ENC_8859_16] = {"ISO-8859-16", "ISO-8859-16"},
};

/* WHATWG labels (lower case).  Searched linearly: at most twice per page. */
static const struct {
	const char *label;
	enum enc enc;
} labels[] = {
	{"utf-8", ENC_UTF8}, {"utf8", ENC_UTF8}, {"unicode-1-1-utf-8", ENC_UTF8},
	{"unicode11utf8", ENC_UTF8}, {"unicode20utf8", ENC_UTF8},
	{"x-unicode20utf8", ENC_UTF8},
	{"windows-1252", ENC_1252}, {"iso-8859-1", ENC_1252}, {"latin1", ENC_1252},
	{"us-ascii", ENC_1252}, {"ascii", ENC_1252}, {"ansi_x3.4-1968", ENC_1252},
	{"cp1252", ENC_1252}, {"cp819", ENC_1252}, {"csisolatin1", ENC_1252},
	{"ibm819", ENC_1252}, {"iso-ir-100", ENC_1252}, {"iso8859-1", ENC_1252},
	{"iso88591", ENC_1252}, {"iso_8859-1", ENC_1252}, {"iso_8859-1:1987", ENC_1252},
	{"l1", ENC_1252}, {"x-cp1252", ENC_1252},
	{"utf-16", ENC_UTF16LE}, {"utf-16le", ENC_UTF16LE}, {"utf-16be", ENC_UTF16BE},
	{"gb18030", ENC_GB18030}, {"gbk", ENC_GB18030}, {"gb2312", ENC_GB18030},
	{"x-gbk", ENC_GB18030}, {"chinese", ENC_GB18030}, {"csgb2312", ENC_GB18030},
	{"csiso58gb231280", ENC_GB18030}, {"gb_2312", ENC_GB18030},
	{"gb_2312-80", ENC_GB18030}, {"iso-ir-58", ENC_GB18030},
	{"big5", ENC_BIG5}, {"big5-hkscs", ENC_BIG5}, {"cn-big5", ENC_BIG5},
	{"csbig5", ENC_BIG5}, {"x-x-big5", ENC_BIG5},
	{"shift_jis", ENC_SJIS}, {"shift-jis", ENC_SJIS}, {"sjis", ENC_SJIS},
	{"x-sjis", ENC_SJIS}, {"ms932", ENC_SJIS}, {"ms_kanji", ENC_SJIS},
	{"windows-31j", ENC_SJIS}, {"csshiftjis", ENC_SJIS},
	{"euc-jp", ENC_EUCJP}, {"x-euc-jp", ENC_EUCJP},
	{"cseucpkdfmtjapanese", ENC_EUCJP},
	{"iso-2022-jp", ENC_ISO2022JP}, {"csiso2022jp", ENC_ISO2022JP},
	{"euc-kr", ENC_EUCKR}, {"cseuckr", ENC_EUCKR}, {"csksc56011987", ENC_EUCKR},
	{"iso-ir-149", ENC_EUCKR}, {"korean", ENC_EUCKR}, {"ks_c_5601-1987", ENC_EUCKR},
	{"ks_c_5601-1989", ENC_EUCKR}, {"ksc5601", ENC_EUCKR}, {"ksc_5601", ENC_EUCKR},
	{"windows-949", ENC_EUCKR},
	{"windows-1250", ENC_1250}, {"cp1250", ENC_1250}, {"x-cp1250", ENC_1250},
	{"windows-1251", ENC_1251}, {"cp1251", ENC_1251}, {"x-cp1251", ENC_1251},
	{"windows-1253", ENC_1253}, {"cp1253", ENC_1253}, {"x-cp1253", ENC_1253},
	{"windows-1254", ENC_1254}, {"cp1254", ENC_1254}, {"x-cp1254", ENC_1254},
	{"iso-8859-9", ENC_1254}, {"latin5", ENC_1254}, {"l5", ENC_1254},
	{"iso8859-9", ENC_1254}, {"iso88599", ENC_1254}, {"iso_8859-9", ENC_1254},
	{"windows-1255", ENC_1255}, {"cp1255", ENC_1255}, {"x-cp1255", ENC_1255},
	{"windows-1256", ENC_1256}, {"cp1256", ENC_1256}, {"x-cp1256", ENC_1256},
	{"windows-1257", ENC_1257}, {"cp1257", ENC_1257}, {"x-cp1257", ENC_1257},
	{"windows-1258", ENC_1258}, {"cp1258", ENC_1258}, {"x-cp1258", ENC_1258},
	{"windows-874", ENC_874}, {"dos-874", ENC_874}, {"tis-620", ENC_874},
	{"iso-8859-11", ENC_874}, {"iso8859-11", ENC_874}, {"iso885911", ENC_874},
	{"koi8-r", ENC_KOI8R}, {"koi8_r", ENC_KOI8R}, {"koi8", ENC_KOI8R},
	{"koi", ENC_KOI8R}, {"cskoi8r", ENC_KOI8R},
	{"koi8-u", ENC_KOI8U}, {"koi8-ru", ENC_KOI8U},
	{"ibm866", ENC_IBM866}, {"cp866", ENC_IBM866}, {"866", ENC_IBM866},
	{"csibm866", ENC_IBM866},
	{"macintosh", ENC_MAC}, {"mac", ENC_MAC}, {"x-mac-roman", ENC_MAC},
	{"csmacintosh", ENC_MAC},
	{"iso-8859-2", ENC_8859_2}, {"iso8859-2", ENC_8859_2}, {"latin2", ENC_8859_2},
	{"l2", ENC_8859_2}, {"iso_8859-2", ENC_8859_2}, {"csisolatin2", ENC_8859_2},
	{"iso-8859-3", ENC_8859_3}, {"latin3", ENC_8859_3},
	{"iso-8859-4", ENC_8859_4}, {"latin4", ENC_8859_4},
	{"iso-8859-5", ENC_8859_5}, {"cyrillic", ENC_8859_5}, {"iso8859-5", ENC_8859_5},
	{"iso-8859-6", ENC_8859_6}, {"arabic", ENC_8859_6},
	{"iso-8859-7", ENC_8859_7}, {"greek", ENC_8859_7}, {"iso8859-7", ENC_8859_7},
	{"iso-8859-8", ENC_8859_8}, {"hebrew", ENC_8859_8}, {"iso-8859-8-i", ENC_8859_8},
	{"iso-8859-10", ENC_8859_10}, {"latin6", ENC_8859_10},
	{"iso-8859-13", ENC_8859_13}, {"iso-8859-14", ENC_8859_14},
	{"iso-8859-15", ENC_8859_15}, {"latin9", ENC_8859_15}, {"iso8859-15", ENC_8859_15},
	{"l9", ENC_8859_15}, {"iso-8859-16", ENC_8859_16},
};

/* windows-1252 0x80..0x9F; WHATWG maps the five holes to C1 controls. */
static const uint16_t cp1252_hi[32] = {
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

#define META_WINDOW 4096

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Map a label (any case, surrounding blanks/quotes allowed) to an encoding. */
static enum enc label_lookup(const char *s, size_t n)
{
	char buf[40];
	while (n && (is_space((unsigned char)*s) || *s == '"' || *s == '\'')) {
		s++;
		n--;
	}
	while (n && (is_space((unsigned char)s[n - 1]) || s[n - 1] == '"' || s[n - 1] == '\''))
		n--;
	if (n == 0 || n >= sizeof(buf))
		return ENC_NONE;
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)lower((unsigned char)s[i]);
	buf[n] = 0;
	/* the first letter rules out most labels without a call: under a
	 * fuzzer's comparison hooks each strcmp is costly */
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (labels[i].label[0] == buf[0] && !strcmp(buf, labels[i].label))
			return labels[i].enc;
	return ENC_NONE;
}

/* Case-insensitive search of @needle (lower case) in [s, s+n). */
static const char *find_ci(const char *s, size_t n, const char *needle)
{
	const size_t m = strlen(needle);
	for (size_t i = 0; i + m <= n; i++) {
		size_t j = 0;
		while (j < m && lower((unsigned char)s[i + j]) == needle[j])
			j++;
		if (j == m)
			return s + i;
	}
	return NULL;
}

/*
 * The label after "charset" in a Content-Type value or a meta content
 * attribute: skip blanks and '=', take an optionally quoted token.
 */
static enum enc charset_param(const char *s, size_t n)
{
	const char *p = find_ci(s, n, "charset");
	if (!p)
		return ENC_NONE;
	const char *end = s + n;
	p += 7;
	while (p < end && is_space((unsigned char)*p))
		p++;
	if (p >= end || *p != '=')
		return ENC_NONE;
	p++;
	while (p < end && is_space((unsigned char)*p))
		p++;
	char quote = 0;
	if (p < end && (*p == '"' || *p == '\''))
		quote = *p++;
	const char *v = p;
	while (p < end && *p != ';' && *p != quote && (quote || !is_space((unsigned char)*p)))
		p++;
	return label_lookup(v, (size_t)(p - v));
}

/*
 * One attribute of a meta tag: name in [*nb,*ne), value in [*vb,*ve).
 * Returns 0 at the end of the tag.  Values may be quoted and hold '>'.
 */
static int meta_attr(const char **pp, const char *end, const char **nb,
		     const char **ne, const char **vb, const char **ve)
{
	const char *p = *pp;
	while (p < end && (is_space((unsigned char)*p) || *p == '/'))
		p++;
	if (p >= end || *p == '>')
		return 0;
	*nb = p;
	while (p < end && !is_space((unsigned char)*p) && *p != '=' && *p != '>' && *p != '/')
		p++;
	*ne = p;
	*vb = *ve = p;
	while (p < end && is_space((unsigned char)*p))
		p++;
	if (p < end && *p == '=') {
		p++;
		while (p < end && is_space((unsigned char)*p))
			p++;
		if (p < end && (*p == '"' || *p == '\'')) {
			const char q = *p++;
			*vb = p;
			while (p < end && *p != q)
				p++;
			*ve = p;
			if (p < end)
				p++;
		} else {
			*vb = p;
			while (p < end && !is_space((unsigned char)*p) && *p != '>')
				p++;
			*ve = p;
		}
	}
	*pp = p;
	return 1;
}

static int name_is(const char *b, const char *e, const char *name)
{
	const size_t n = strlen(name);
	if ((size_t)(e - b) != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (lower((unsigned char)b[i]) != name[i])
			return 0;
	return 1;
}

/* Parse the attributes of one <meta ...>; @p points after "<meta". */
static enum enc meta_tag(const char *p, const char *end)
{
	const char *nb, *ne, *vb, *ve;
	enum enc content_enc = ENC_NONE;
	int http_equiv = 0;
	while (meta_attr(&p, end, &nb, &ne, &vb, &ve)) {
		if (name_is(nb, ne, "charset")) {
			const enum enc e = label_lookup(vb, (size_t)(ve - vb));
			if (e != ENC_NONE)
				return e;
		} else if (name_is(nb, ne, "http-equiv")) {
			http_equiv |= name_is(vb, ve, "content-type");
		} else if (name_is(nb, ne, "content")) {
			content_enc = charset_param(vb, (size_t)(ve - vb));
		}
	}
	return http_equiv ? content_enc : ENC_NONE;
}

/* The WHATWG prescan, simplified: <meta> tags outside comments in 4 KiB. */
static enum enc meta_prescan(const char *s, size_t n)
{
	const char *p = s, *const end = s + (n < META_WINDOW ? n : META_WINDOW);
	while ((p = memchr(p, '<', (size_t)(end - p))) != NULL) {
		if (end - p >= 4 && !memcmp(p, "<!--", 4)) {
			const char *c = find_ci(p + 4, (size_t)(end - p - 4), "-->");
			if (!c)
				break;
			p = c + 3;
			continue;
		}
		if (end - p >= 6 && lower((unsigned char)p[1]) == 'm' && name_is(p + 1, p + 5, "meta") &&
		    (is_space((unsigned char)p[5]) || p[5] == '/')) {
			const enum enc e = meta_tag(p + 5, end);
			/* A page cannot be UTF-16 if its ASCII meta was readable. */
			if (e == ENC_UTF16LE || e == ENC_UTF16BE)
				return ENC_UTF8;
			if (e != ENC_NONE)
				return e;
		}
		p++;
	}
	return ENC_NONE;
}

/* Length of the ASCII prefix of [p, p+n): 64 bytes at a time while a
 * page is plain ASCII (most of a page between two non-ASCII
 * characters), then 8, the first non-ASCII byte of those 8 found from
 * their high bits (a text with a quote or an accent every few words
 * ends most runs there), and the last few bytes one by one. */
static size_t ascii_len(const uint8_t *p, size_t n)
{
	const uint64_t high = 0x8080808080808080ull;
	size_t i = 0;
	for (; i + 64 <= n; i += 64) {
		const uint8_t *const q = p + i;
		const v16 v = v16_or(v16_or(v16_load(q), v16_load(q + 16)),
				     v16_or(v16_load(q + 32), v16_load(q + 48)));
		if (v16_mask(v))
			break;
	}
	for (; i + 8 <= n; i += 8) {
		const uint64_t a = get_le64(p + i) & high;
		if (a)
			return i + (size_t)__builtin_ctzll(a) / 8;
	}
	while (i < n && p[i] < 0x80)
		i++;
	return i;
}

/*
 * UTF-8 validation 16 bytes at a time, by the lookup method of Keiser and
 * Lemire ("Validating UTF-8 in less than one instruction per byte",
 * 2021): each byte and the one before it index three 16-entry tables by
 * their halves; the three entries have a bit in common exactly where the
 * pair is one of the ways UTF-8 goes wrong (a lead byte cut short, a
 * stray continuation byte, an overlong form, a surrogate, past U+10FFFF).
 * A continuation byte is right after another only as the third or fourth
 * byte of a sequence, which the bytes two and three before say.  Chinese
 * and Japanese pages, three bytes a character, were checked a character
 * at a time at some ten instructions each.  The same rule as
 * utf8_seq_len(): test_charset compares the two.
 */
enum {
	U8_TOO_SHORT = 1 << 0,  /* a lead byte not followed by a continuation */
	U8_TOO_LONG = 1 << 1,   /* a continuation after ASCII */
	U8_OVERLONG_3 = 1 << 2, /* E0 80..9F */
	U8_TOO_LARGE = 1 << 3,  /* F4 90..BF, F5.. */
	U8_SURROGATE = 1 << 4,  /* ED A0..BF */
	U8_OVERLONG_2 = 1 << 5, /* C0, C1 */
	U8_TOO_LARGE_1000 = 1 << 6, /* F5..FF 80..8F */
	U8_OVERLONG_4 = 1 << 6, /* F0 80..8F */
	U8_TWO_CONTS = 1 << 7,  /* a continuation after another: right if third or fourth */
	U8_CARRY = U8_TOO_SHORT | U8_TOO_LONG | U8_TWO_CONTS,
};

/* Are the 16 bytes at @q valid after the 3 before them (q[-3..-1])?  A
 * sequence that runs on past q[15] is checked with the next 16. */
static int utf8_block_ok(const uint8_t *q)
{
	const v16 in = v16_load(q), p1 = v16_load(q - 1);
	const v16 by_p1_high = v16_lookup(
		v16_bytes(U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG,
			  U8_TOO_LONG, U8_TOO_LONG, U8_TOO_LONG, U8_TWO_CONTS, U8_TWO_CONTS,
			  U8_TWO_CONTS, U8_TWO_CONTS, U8_TOO_SHORT | U8_OVERLONG_2, U8_TOO_SHORT,
			  U8_TOO_SHORT | U8_OVERLONG_3 | U8_SURROGATE,
			  U8_TOO_SHORT | U8_TOO_LARGE | U8_TOO_LARGE_1000 | U8_OVERLONG_4),
		v16_high_nibbles(p1));
	const uint8_t large = U8_CARRY | U8_TOO_LARGE | U8_TOO_LARGE_1000;
	const v16 by_p1_low = v16_lookup(
		v16_bytes(U8_CARRY | U8_OVERLONG_3 | U8_OVERLONG_2 | U8_OVERLONG_4,
			  U8_CARRY | U8_OVERLONG_2, U8_CARRY, U8_CARRY, U8_CARRY | U8_TOO_LARGE, large,
			  large, large, large, large, large, large, large, large | U8_SURROGATE, large,
			  large),
		v16_and(p1, v16_splat(0x0F)));
	const uint8_t cont = U8_TOO_LONG | U8_OVERLONG_2 | U8_TWO_CONTS;
	const v16 by_in_high = v16_lookup(
		v16_bytes(U8_TOO_SHORT, U8_TOO_SHORT, U8_TOO_SHORT, U8_TOO_SHORT, U8_TOO_SHORT,
			  U8_TOO_SHORT, U8_TOO_SHORT, U8_TOO_SHORT,
			  cont | U8_OVERLONG_3 | U8_TOO_LARGE_1000 | U8_OVERLONG_4,
			  cont | U8_OVERLONG_3 | U8_TOO_LARGE, cont | U8_SURROGATE | U8_TOO_LARGE,
			  cont | U8_SURROGATE | U8_TOO_LARGE, U8_TOO_SHORT, U8_TOO_SHORT, U8_TOO_SHORT,
			  U8_TOO_SHORT),
		v16_high_nibbles(in));
	const v16 found = v16_and(v16_and(by_p1_high, by_p1_low), by_in_high);
	/* 0x80 where the byte must be a third or fourth: two after E0..FF,
	 * three after F0..FF */
	const v16 third = v16_or(v16_le(v16_splat(0xE0), v16_load(q - 2)),
				 v16_le(v16_splat(0xF0), v16_load(q - 3)));
	return v16_mask(v16_eq(found, v16_and(third, v16_splat(0x80)))) == 0xFFFFu;
}

/* Whether [p, p+n) is valid UTF-8.  Runs of ASCII after ASCII are
 * skipped; the first and last blocks are checked from a copy with zeros
 * around, so that a sequence cut short by the end fails as one cut short
 * by an ASCII byte. */
static int is_utf8(const uint8_t *p, size_t n)
{
	size_t i = ascii_len(p, n);
	uint8_t buf[3 + 16];
	while (i <= n) {
		if (i >= 3 && n - i >= 16) {
			if (!v16_mask(v16_or(v16_load(p + i - 3), v16_load(p + i)))) {
				i += 16;
				i += ascii_len(p + i, n - i);
				continue;
			}
			if (!utf8_block_ok(p + i))
				return 0;
			i += 16;
			continue;
		}
		for (size_t k = 0; k < sizeof buf; k++)
			buf[k] = i + k >= 3 && i + k - 3 < n ? p[i + k - 3] : 0;
		if (!utf8_block_ok(buf + 3))
			return 0;
		i += 16;
	}
	return 1;
}

/* Fewer bytes that are not UTF-8 than this are too few to name a charset
 * by (and a declared UTF-8 page with a few stray bytes stays UTF-8). */
#define GUESS_MIN_BAD 16
/* Bytes the detector is given, from the first that is not ASCII: it
 * costs some 1,600 instructions a byte, and 4 KiB of text name the
 * charset of every test page (test_charset). */
#define GUESS_SAMPLE (4u << 10)

/* In the first GUESS_SAMPLE bytes of @p: bytes that are not part of valid
 * UTF-8 (*bad) and valid multi-byte sequences (*good). */
static void utf8_tally(const uint8_t *p, size_t n, size_t *bad, size_t *good)
{
	*bad = *good = 0;
	if (n > GUESS_SAMPLE)
		n = GUESS_SAMPLE;
	for (size_t i = 0; i < n;) {
		if (p[i] < 0x80) {
			i += ascii_len(p + i, n - i);
			continue;
		}
		const size_t l = utf8_seq_len(p + i, n - i);
		*good += l != 0;
		*bad += l == 0;
		i += l ? l : 1;
	}
}

/*
 * The charset libuchardet finds in @p (a page whose bytes are not UTF-8),
 * as one of ours, or ENC_NONE: too few telling bytes, no answer, or one
 * we do not decode.  A detector object per call keeps the module free of
 * state; only pages that are not UTF-8 and say nothing true pay for it.
 */
static enum enc guess(const uint8_t *p, size_t n)
{
	size_t bad, good;
	utf8_tally(p, n, &bad, &good);
	if (bad < GUESS_MIN_BAD)
		return ENC_NONE;
	uchardet_t u = uchardet_new();
	if (!u)
		return ENC_NONE;
	/* the markup before the text tells nothing: start at the first
	 * byte that is not ASCII, with the word it is in */
	size_t at = ascii_len(p, n);
	for (size_t back = 0; at > 0 && back < 64 && p[at - 1] != ' ' && p[at - 1] != '>'; back++)
		at--;
	p += at;
	n -= at;
	enum enc e = ENC_NONE;
	if (uchardet_handle_data(u, (const char *)p, n < GUESS_SAMPLE ? n : GUESS_SAMPLE) == 0) {
		uchardet_data_end(u);
		const char *name = uchardet_get_charset(u);
		e = name && *name ? label_lookup(name, strlen(name)) : ENC_NONE;
	}
	uchardet_delete(u);
	return e == ENC_UTF8 ? ENC_NONE : e;
}

/* The encoding of @data; *@skip = bytes of BOM; *@valid = 1 if @data was
 * found valid UTF-8 on the way (then the caller need not check it). */
static enum enc detect(const char *data, size_t len, const char *ct, size_t *skip, int *valid)
{
	const uint8_t *u = (const uint8_t *)data;
	*skip = 0;
	*valid = 0;
	if (len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
		*skip = 3;
		return ENC_UTF8;
	}
	if (len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF))) {
		*skip = 2;
		return u[0] == 0xFF ? ENC_UTF16LE : ENC_UTF16BE;
	}
	enum enc e = ct ? charset_param(ct, strlen(ct)) : ENC_NONE;
	if (e == ENC_NONE && len)
		e = meta_prescan(data, len);
	if (e == ENC_NONE || e == ENC_UTF8) {
		/* no label, or UTF-8 said of bytes that may not be: a page of
		 * mostly invalid UTF-8 is in the charset the detector names */
		*valid = is_utf8(u, len);
		if (*valid)
			return ENC_UTF8;
		const enum enc g = guess(u, len);
		if (g != ENC_NONE) {
			size_t bad, good;
			utf8_tally(u, len, &bad, &good);
			if (e == ENC_NONE || bad > good)
				return g;
		}
		return e == ENC_NONE ? ENC_1252 : ENC_UTF8;
	}
	return e;
}

const char *charset_detect(const char *data, size_t len, const char *content_type)
{
	size_t skip;
	int valid;
	return enc_info[detect(data, len, content_type, &skip, &valid)].name;
}

/* ---- output buffer ---- */

struct obuf {
	char **buf;
	size_t *cap;
	size_t len;
};

/* Make room for @extra more bytes plus the final NUL. */
static int ob_reserve(struct obuf *o, size_t extra)
{
	if (o->len + extra + 1 <= *o->cap)
		return 0;
	size_t cap = *o->cap ? *o->cap : 256;
	while (cap < o->len + extra + 1) {
		if (cap > SIZE_MAX / 2)
			return -1;
		cap *= 2;
	}
	char *const p = realloc(*o->buf, cap);
	if (!p)
		return -1;
	*o->buf = p;
	*o->cap = cap;
	return 0;
}

static void ob_put_cp(struct obuf *o, uint32_t cp)
{
	o->len += utf8_put(*o->buf + o->len, cp);
}

/* ---- decoders ---- */

/* Copy valid sequences, U+FFFD per invalid byte.  Worst case 3x growth. */
static int dec_utf8(struct obuf *o, const uint8_t *p, size_t n, int *lossy)
{
	if (n > SIZE_MAX / 3 || ob_reserve(o, n * 3))
		return -1;
	size_t i = 0;
	while (i < n) {
		const size_t run = i + ascii_len(p + i, n - i);
		memcpy(*o->buf + o->len, p + i, run - i);
		o->len += run - i;
		i = run;
		if (i >= n)
			break;
		const size_t l = utf8_seq_len(p + i, n - i);
		if (l) {
			memcpy(*o->buf + o->len, p + i, l);
			o->len += l;
			i += l;
		} else {
			ob_put_cp(o, 0xFFFD);
			*lossy = 1;
			i++;
		}
	}
	return 0;
}

static int dec_1252(struct obuf *o, const uint8_t *p, size_t n)
{
	if (n > SIZE_MAX / 3 || ob_reserve(o, n * 3))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const uint8_t c = p[i];
		ob_put_cp(o, c >= 0x80 && c < 0xA0 ? cp1252_hi[c - 0x80] : c);
	}
	return 0;
}

/* Run iconv over the input; on a bad or truncated sequence emit U+FFFD, skip a byte. */
static int iconv_loop(iconv_t cd, struct obuf *o, const uint8_t *p, size_t n, int *lossy)
{
	char *in = (char *)(uintptr_t)p;
	size_t inleft = n;
	/* Legacy CJK text is 2 bytes per char in, 3 out: start at 2x. */
	if (n > SIZE_MAX / 2 || ob_reserve(o, n * 2 + 16))
		return -1;
	for (;;) {
		char *outp = *o->buf + o->len;
		size_t outleft = *o->cap - o->len - 1;
		const size_t r = iconv(cd, inleft ? &in : NULL, inleft ? &inleft : NULL, &outp, &outleft);
		o->len = (size_t)(outp - *o->buf);
		if (r != (size_t)-1) {
			if (!inleft)
				return 0; /* the NULL call flushed shift state */
			continue;
		}
		if (errno == E2BIG) {
			if (ob_reserve(o, *o->cap))
				return -1;
		} else if (inleft) { /* EILSEQ, EINVAL */
			if (ob_reserve(o, 3))
				return -1;
			ob_put_cp(o, 0xFFFD);
			*lossy = 1;
			in++;
			inleft--;
			iconv(cd, NULL, NULL, NULL, NULL); /* reset shift state */
		} else {
			return 0;
		}
	}
}

static int dec_iconv(struct obuf *o, enum enc e, const uint8_t *p, size_t n, int *lossy)
{
	const iconv_t cd = iconv_open("UTF-8", enc_info[e].iconv);
	if (cd == (iconv_t)-1) {
		/* This glibc lacks the module: keep the document anyway. */
		return is_utf8(p, n) ? dec_utf8(o, p, n, lossy) : dec_1252(o, p, n);
	}
	const int rc = iconv_loop(cd, o, p, n, lossy);
	iconv_close(cd);
	return rc;
}

/* @data[skip..len) in encoding @e, to UTF-8 in *@out. */
static int convert(enum enc e, const char *data, size_t len, size_t skip, char **out,
		   size_t *out_len, size_t *out_cap, int *lossy)
{
	struct obuf o = {out, out_cap, 0};
	const uint8_t *const p = (const uint8_t *)data + skip;
	const size_t n = len - skip;
	int rc;
	*out_len = 0;
	if (e == ENC_UTF8)
		rc = dec_utf8(&o, p, n, lossy);
	else if (e == ENC_1252)
		rc = dec_1252(&o, p, n);
	else
		rc = dec_iconv(&o, e, p, n, lossy);
	if (rc == 0 && ob_reserve(&o, 0) == 0) {
		(*out)[o.len] = 0;
		*out_len = o.len;
		return 0;
	}
	if (*out && *out_cap)
		(*out)[0] = 0;
	return -1;
}

int charset_to_utf8(const char *data, size_t len, const char *content_type,
		    char **out, size_t *out_len, size_t *out_cap, int *lossy)
{
	size_t skip;
	int valid;
	*lossy = 0;
	if (!data) {
		data = "";
		len = 0;
	}
	const enum enc e = detect(data, len, content_type, &skip, &valid);
	return convert(e, data, len, skip, out, out_len, out_cap, lossy);
}

int charset_utf8_view(const char *data, size_t len, const char *content_type, const char **res,
		      size_t *res_len, char **out, size_t *out_cap, int *lossy)
{
	size_t skip;
	*lossy = 0;
	if (!data || !len) {
		*res = "";
		*res_len = 0;
		return 0;
	}
	/* detected and validated once: an unlabelled page's fallback has
	 * checked it already */
	int valid;
	const enum enc e = detect(data, len, content_type, &skip, &valid);
	if (e == ENC_UTF8 && skip == 0 && (valid || is_utf8((const uint8_t *)data, len))) {
		*res = data;
		*res_len = len;
		return 0;
	}
	size_t n;
	if (convert(e, data, len, skip, out, &n, out_cap, lossy))
		return -1;
	*res = *out;
	*res_len = n;
	return 0;
}
