/*
 * test_charset.c - charset sniffing and conversion to UTF-8.
 *
 * Known byte vectors for each legacy charset, the precedence of BOM,
 * header and <meta>, U+FFFD for undecodable bytes, and a seeded random
 * test that the output is always valid, NUL-terminated UTF-8.
 */
#include "input/charset.h"
#include "util/utf8.h"
#include "testutil.h"

#include <iconv.h>
#include <stdint.h>
#include <string.h>

static char *buf;
static size_t len, cap;
static int lossy;

/* Convert and compare to @want (UTF-8); @want_lossy: expected flag. */
static int conv_is(const char *in, size_t n, const char *ct, const char *want, int want_lossy)
{
	if (charset_to_utf8(in, n, ct, &buf, &len, &cap, &lossy) != 0)
		return 0;
	const int ok = len == strlen(want) && !memcmp(buf, want, len) && buf[len] == 0 &&
		       lossy == want_lossy;
	if (!ok)
		fprintf(stderr, "  got '%.*s' (lossy=%d), want '%s'\n", (int)len, buf, lossy, want);
	return ok;
}

#define CONV(in, ct, want, l) conv_is(in, sizeof(in) - 1, ct, want, l)

static void test_utf8(void)
{
	CHECK(CONV("<p>h\xC3\xA9llo \xE4\xB8\xAD\xE6\x96\x87</p>", NULL, "<p>h\xC3\xA9llo \xE4\xB8\xAD\xE6\x96\x87</p>", 0));
	CHECK(CONV("plain ascii", NULL, "plain ascii", 0));
	CHECK(CONV("", NULL, "", 0));
	CHECK(conv_is(NULL, 0, NULL, "", 0));
	CHECK(!strcmp(charset_detect("\xE4\xB8\xAD", 3, NULL), "UTF-8"));
	/* Emoji (4-byte) survives. */
	CHECK(CONV("\xF0\x9F\x98\x80", "text/html; charset=utf-8", "\xF0\x9F\x98\x80", 0));
}

static void test_invalid_utf8(void)
{
	/* Declared UTF-8, with a stray byte, an overlong and a surrogate. */
	CHECK(CONV("a\xFF" "b", "text/html; charset=UTF-8", "a\xEF\xBF\xBD" "b", 1));
	CHECK(CONV("\xC0\xAF", "text/html;charset=utf-8", "\xEF\xBF\xBD\xEF\xBF\xBD", 1));
	CHECK(CONV("\xED\xA0\x80", "text/html;charset=utf-8",
		   "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", 1));
	/* Truncated sequence at the end. */
	CHECK(CONV("ok\xE4\xB8", "text/html; charset=utf-8", "ok\xEF\xBF\xBD\xEF\xBF\xBD", 1));
}

static void test_1252(void)
{
	/* No declaration and not UTF-8: windows-1252, 0x93 = U+201C. */
	CHECK(CONV("\x93quoted\x94 caf\xE9", NULL, "\xE2\x80\x9Cquoted\xE2\x80\x9D caf\xC3\xA9", 0));
	/* iso-8859-1 and us-ascii labels mean windows-1252 too. */
	CHECK(CONV("\x80", "text/html; charset=ISO-8859-1", "\xE2\x82\xAC", 0));
	CHECK(CONV("\x85", "text/html; charset=\"us-ascii\"", "\xE2\x80\xA6", 0));
	CHECK(CONV("\x81", "text/html; charset=latin1", "\xC2\x81", 0));
}

static void test_cjk(void)
{
	/* 中文 in GBK, under each of its labels. */
	CHECK(CONV("\xD6\xD0\xCE\xC4", "text/html; charset=gbk", "\xE4\xB8\xAD\xE6\x96\x87", 0));
	CHECK(CONV("\xD6\xD0\xCE\xC4", "text/html; charset=GB2312", "\xE4\xB8\xAD\xE6\x96\x87", 0));
	CHECK(CONV("\xD6\xD0\xCE\xC4", "text/html; charset=x-gbk", "\xE4\xB8\xAD\xE6\x96\x87", 0));
	/* 中文 in Big5. */
	CHECK(CONV("\xA4\xA4\xA4\xE5", "text/html; charset=big5", "\xE4\xB8\xAD\xE6\x96\x87", 0));
	/* 日本 in Shift_JIS (sjis label) and EUC-JP. */
	CHECK(CONV("\x93\xFA\x96\x7B", "text/html; charset=sjis", "\xE6\x97\xA5\xE6\x9C\xAC", 0));
	CHECK(CONV("\x93\xFA\x96\x7B", "text/html; charset=Shift_JIS", "\xE6\x97\xA5\xE6\x9C\xAC", 0));
	CHECK(CONV("\xC6\xFC\xCB\xDC", "text/html; charset=euc-jp", "\xE6\x97\xA5\xE6\x9C\xAC", 0));
	/* 한국 in EUC-KR. */
	CHECK(CONV("\xC7\xD1\xB1\xB9", "text/html; charset=euc-kr", "\xED\x95\x9C\xEA\xB5\xAD", 0));
	/* A truncated GBK pair at the end: one U+FFFD, no crash. */
	CHECK(CONV("\xD6\xD0\xCE", "text/html; charset=gbk", "\xE4\xB8\xAD\xEF\xBF\xBD", 1));
}

static void test_cyrillic(void)
{
	/* Привет in windows-1251 and KOI8-R. */
	const char *want = "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82";
	CHECK(CONV("\xCF\xF0\xE8\xE2\xE5\xF2", "text/html; charset=windows-1251", want, 0));
	CHECK(CONV("\xF0\xD2\xC9\xD7\xC5\xD4", "text/html; charset=koi8-r", want, 0));
}

static void test_meta(void)
{
	CHECK(CONV("<html><head><meta charset=\"gb2312\"></head>\xD6\xD0",
		   NULL, "<html><head><meta charset=\"gb2312\"></head>\xE4\xB8\xAD", 0));
	CHECK(CONV("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">\xCF",
		   NULL, "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">\xD0\x9F", 0));
	/* A meta inside a comment does not count. */
	CHECK(CONV("<!-- <meta charset=gbk> -->\xD6\xD0", NULL,
		   "<!-- <meta charset=gbk> -->\xC3\x96\xC3\x90", 0));
	/* Meta declaring UTF-16 means UTF-8. */
	CHECK(!strcmp(charset_detect("<meta charset=utf-16>", 21, NULL), "UTF-8"));
	/* The header wins over the meta. */
	CHECK(CONV("<meta charset=windows-1251>\xD6\xD0", "text/html; charset=gbk",
		   "<meta charset=windows-1251>\xE4\xB8\xAD", 0));
	/* An unknown header label is ignored: the meta decides. */
	CHECK(CONV("<meta charset=windows-1251>\xCF", "text/html; charset=bogus-42",
		   "<meta charset=windows-1251>\xD0\x9F", 0));
	/* A meta after the first 4 KiB is not seen. */
	char big[5000];
	memset(big, ' ', sizeof(big));
	memcpy(big + 4500, "<meta charset=gbk>", 18);
	CHECK(!strcmp(charset_detect(big, sizeof(big), NULL), "UTF-8"));
}

static void test_bom(void)
{
	/* The BOM beats the header and is not copied. */
	CHECK(CONV("\xEF\xBB\xBFhi", "text/html; charset=gbk", "hi", 0));
	CHECK(CONV("\xFF\xFEh\0i\0", NULL, "hi", 0));
	CHECK(CONV("\xFE\xFF\0h\0i", "text/html; charset=windows-1252", "hi", 0));
	CHECK(CONV("\xFF\xFE\x2D\x4E", NULL, "\xE4\xB8\xAD", 0));
	/* An odd trailing byte of UTF-16 becomes U+FFFD. */
	CHECK(CONV("\xFF\xFEh\0i", NULL, "h\xEF\xBF\xBD", 1));
}

/* The result must be valid UTF-8 whatever the input. */
static int valid_utf8(const unsigned char *p, size_t n)
{
	size_t i = 0;
	while (i < n) {
		size_t l = p[i] < 0x80 ? 1 : p[i] >= 0xC2 && p[i] < 0xE0 ? 2 : p[i] >= 0xE0 && p[i] < 0xF0 ? 3 : p[i] >= 0xF0 && p[i] < 0xF5 ? 4 : 0;
		if (!l || i + l > n)
			return 0;
		for (size_t j = 1; j < l; j++)
			if ((p[i + j] & 0xC0) != 0x80)
				return 0;
		i += l;
	}
	return 1;
}

static void test_random(void)
{
	static const char *const cts[] = {NULL, "text/html; charset=utf-8", "text/html; charset=gbk",
		"text/html; charset=big5", "text/html; charset=shift_jis", "text/html; charset=euc-jp",
		"text/html; charset=iso-2022-jp", "text/html; charset=euc-kr", "text/html; charset=utf-16be",
		"text/html; charset=koi8-r", "text/html; charset=", "charset", "text/html; charset=\""};
	uint64_t st = test_seed(20240601);
	char in[600];
	int bad = 0;
	for (int it = 0; it < 3000; it++) {
		const size_t n = test_rand(&st) % sizeof(in);
		for (size_t i = 0; i < n; i++)
			in[i] = (char)test_rand(&st);
		const char *ct = cts[it % (sizeof(cts) / sizeof(cts[0]))];
		if (charset_to_utf8(in, n, ct, &buf, &len, &cap, &lossy) != 0 ||
		    !valid_utf8((const unsigned char *)buf, len) || buf[len] != 0)
			bad++;
	}
	CHECK(bad == 0);
}

/* One non-ASCII character at any place of a long ASCII page, in any of
 * the scan's strides (64, 16, 1 bytes): found, and judged. */
static void test_ascii_strides(void)
{
	char page[300];
	int wrong = 0;
	for (size_t at = 0; at + 2 <= sizeof(page); at++) {
		memset(page, 'a', sizeof(page));
		page[at] = (char)0xC3; /* U+00E9 */
		page[at + 1] = (char)0xA9;
		wrong += strcmp(charset_detect(page, sizeof(page), NULL), "UTF-8") != 0;
		page[at + 1] = 'a'; /* a lead byte alone: not UTF-8 */
		wrong += strcmp(charset_detect(page, sizeof(page), NULL), "windows-1252") != 0;
	}
	CHECK(wrong == 0);
}

/* charset_utf8_view(): UTF-8 as it stands is not copied; anything else is
 * what charset_to_utf8() makes of it, and random bytes agree with it. */
static void test_view(void)
{
	static const char u8[] = "<p>h\xC3\xA9llo, long enough to pass sixteen bytes \xE4\xB8\xAD</p>";
	const char *res;
	size_t n;
	CHECK(charset_utf8_view(u8, sizeof(u8) - 1, NULL, &res, &n, &buf, &cap, &lossy) == 0);
	CHECK(res == u8 && n == sizeof(u8) - 1 && !lossy);
	CHECK(charset_utf8_view(u8, sizeof(u8) - 1, "text/html; charset=utf-8", &res, &n, &buf, &cap, &lossy) == 0);
	CHECK(res == u8);
	static const char bom[] = "\xEF\xBB\xBF" "abc";
	CHECK(charset_utf8_view(bom, 6, NULL, &res, &n, &buf, &cap, &lossy) == 0);
	CHECK(res == buf && n == 3 && !memcmp(res, "abc", 3));
	static const char latin[] = "caf\xE9 au lait, a long enough line of windows-1252";
	CHECK(charset_utf8_view(latin, sizeof(latin) - 1, NULL, &res, &n, &buf, &cap, &lossy) == 0);
	CHECK(res == buf && n == sizeof(latin) && !memcmp(res, "caf\xC3\xA9", 5));
	static const char bad[] = "valid ascii then a stray \x80 byte";
	CHECK(charset_utf8_view(bad, sizeof(bad) - 1, "text/html; charset=utf-8", &res, &n, &buf, &cap, &lossy) == 0);
	CHECK(res == buf && lossy);
	CHECK(charset_utf8_view(NULL, 0, NULL, &res, &n, &buf, &cap, &lossy) == 0 && n == 0 && !*res);

	uint64_t st = test_seed(20251121);
	char in[100];
	char *ref = NULL;
	size_t ref_len, ref_cap = 0;
	int ref_lossy, diff = 0;
	for (int it = 0; it < 3000; it++) {
		const size_t k = test_rand(&st) % sizeof(in);
		for (size_t i = 0; i < k; i++) /* mostly ASCII, some UTF-8 lead and trail bytes */
			in[i] = (char)(test_rand(&st) % 8 ? 'a' + test_rand(&st) % 26 : 0x80 + test_rand(&st) % 0x70);
		if (charset_to_utf8(in, k, NULL, &ref, &ref_len, &ref_cap, &ref_lossy) != 0 ||
		    charset_utf8_view(in, k, NULL, &res, &n, &buf, &cap, &lossy) != 0 || n != ref_len ||
		    memcmp(res, ref, n) || lossy != ref_lossy)
			diff++;
	}
	free(ref);
	CHECK(diff == 0);
}

/* Strict UTF-8: no overlong form, no surrogate, nothing above U+10FFFF. */
static int strict_utf8(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n;) {
		const unsigned c = p[i];
		const size_t l = c < 0x80 ? 1 : c < 0xC0 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : 0;
		if (!l || i + l > n)
			return 0;
		uint32_t cp = l == 1 ? c : c & (0x7Fu >> l);
		for (size_t j = 1; j < l; j++) {
			if ((p[i + j] & 0xC0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i + j] & 0x3Fu);
		}
		static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
		if (cp < least[l] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
			return 0;
		i += l;
	}
	return 1;
}

/* A page said to be UTF-8 is used as it stands exactly when it is strict
 * UTF-8: ASCII runs of every length (the scan's strides) between
 * sequences of every lead byte, well-formed or broken in one byte. */
static void test_validity(void)
{
	uint64_t st = test_seed(20261127);
	unsigned char in[400];
	const char *res;
	size_t n;
	int wrong = 0, valid = 0;
	for (int it = 0; it < 20000; it++) {
		size_t k = 0;
		while (k + 80 < sizeof(in)) {
			for (size_t a = test_rand(&st) % 70; a; a--)
				in[k++] = (unsigned char)('a' + test_rand(&st) % 26);
			/* a random code point, encoded, or a random lead byte and trail */
			const uint32_t cp = (uint32_t)(test_rand(&st) % 4 == 0 ? 0x80 + test_rand(&st) % 0x780
						       : test_rand(&st) % 2 ? 0x800 + test_rand(&st) % 0xF800
						       : 0x10000 + test_rand(&st) % 0x100000);
			k += utf8_put((char *)in + k, cp);
			if (test_rand(&st) % 16 == 0)
				in[k - 1 - test_rand(&st) % 2] = (unsigned char)(0x80 + test_rand(&st) % 0x80);
			if (test_rand(&st) % 8 == 0) {
				in[k++] = (unsigned char)(0xC0 + test_rand(&st) % 0x40);
				for (size_t t = test_rand(&st) % 4; t; t--)
					in[k++] = (unsigned char)(0x80 + test_rand(&st) % 0x40);
			}
		}
		k -= test_rand(&st) % 3; /* maybe cut inside the last sequence */
		const int want = strict_utf8(in, k);
		valid += want;
		if (charset_utf8_view((const char *)in, k, "text/html; charset=utf-8", &res, &n, &buf, &cap,
				      &lossy) != 0 ||
		    (res == (const char *)in) != want)
			wrong++;
	}
	CHECK(wrong == 0 && valid > 1000 && valid < 19000);
}

/*
 * The same without ASCII between (Chinese, Japanese): every pair of
 * bytes, at each place of a 16-byte block and around its edges, among
 * Han characters, and at the end of the text; then random strings of
 * code points of every length, one byte of them sometimes changed.
 */
static void test_validity_dense(void)
{
	unsigned char in[64];
	const char *res;
	size_t n;
	int wrong = 0, valid = 0;
	static const size_t at[] = {0, 1, 2, 13, 14, 15, 16, 17, 30, 47, 62};
	for (size_t a = 0; a < sizeof(at) / sizeof(at[0]); a++) {
		for (uint32_t x = 0; x < 0x10000; x++) {
			for (size_t i = 0; i + 3 <= sizeof(in); i += 3)
				memcpy(in + i, "\xE4\xB8\xAD", 3);
			in[63] = 'a';
			in[at[a]] = (unsigned char)(x >> 8);
			in[at[a] + 1] = (unsigned char)x;
			const size_t k = at[a] == 62 ? 64 - (x & 1) : 64;
			const int want = strict_utf8(in, k);
			valid += want;
			if (charset_utf8_view((const char *)in, k, "text/html; charset=utf-8", &res, &n,
					      &buf, &cap, &lossy) != 0 ||
			    (res == (const char *)in) != want)
				wrong++;
		}
	}
	CHECK(wrong == 0 && valid > 1000);
	uint64_t st = test_seed(20261128);
	int rwrong = 0;
	for (int it = 0; it < 20000; it++) {
		char s[200];
		size_t k = 0;
		const size_t want_len = test_rand(&st) % 150;
		while (k < want_len) {
			const uint32_t r = (uint32_t)test_rand(&st) % 8;
			const uint32_t cp = r == 0 ? 0x20 + (uint32_t)test_rand(&st) % 0x60
					    : r < 3 ? 0x80 + (uint32_t)test_rand(&st) % 0x780
					    : r < 7 ? 0x800 + (uint32_t)test_rand(&st) % 0xF800
						    : 0x10000 + (uint32_t)test_rand(&st) % 0x100000;
			k += utf8_put(s + k, cp);
		}
		if (k && test_rand(&st) % 2)
			s[test_rand(&st) % k] = (char)test_rand(&st);
		const int want = strict_utf8((const unsigned char *)s, k);
		if (charset_utf8_view(s, k, "text/html; charset=utf-8", &res, &n, &buf, &cap, &lossy) != 0 ||
		    (k && (res == s) != want))
			rwrong++;
	}
	CHECK(rwrong == 0);
}

/* @utf8 converted to @enc by iconv into @out (@cap bytes): its length. */
static size_t encode_as(const char *enc, const char *utf8, char *out, size_t size)
{
	iconv_t cd = iconv_open(enc, "UTF-8");
	CHECK(cd != (iconv_t)-1);
	if (cd == (iconv_t)-1)
		return 0;
	char *in = (char *)(uintptr_t)utf8, *o = out;
	size_t il = strlen(utf8), ol = size;
	CHECK(iconv(cd, &in, &il, &o, &ol) != (size_t)-1);
	iconv_close(cd);
	return size - ol;
}

/* Pages in a legacy charset that declare none (or declare UTF-8, which
 * their bytes contradict) come out right: the detector (libuchardet)
 * names the charset.  Each was windows-1252 mojibake before. */
static void test_undeclared(void)
{
	static const char ru[] =
		"<html><body><p>Москва - столица России, крупнейший по численности населения "
		"город страны. Город расположен на реке Москве в центре Восточно-Европейской "
		"равнины. Здесь находятся органы государственной власти, многие научные и "
		"учебные заведения, музеи и театры. История города насчитывает более восьми "
		"веков.</p></body></html>";
	static const char ja[] =
		"<html><body><p>東京都は日本の首都であり、世界でも有数の大都市です。多くの企業の"
		"本社や大学、美術館、劇場が集まっています。江戸時代には江戸と呼ばれ、徳川幕府の"
		"政治の中心でした。現在は約千四百万人が住んでいます。</p></body></html>";
	static const char zh[] =
		"<html><body><p>北京是中华人民共和国的首都，也是全国的政治、文化和国际交往中心。"
		"北京有着三千多年的建城史，拥有众多的名胜古迹，例如故宫、长城和天坛。每年都有"
		"大量的游客来到这里参观和学习。</p></body></html>";
	static const struct {
		const char *enc, *text, *name;
	} pages[] = {
		{"WINDOWS-1251", ru, "windows-1251"}, {"KOI8-R", ru, "KOI8-R"},
		{"SHIFT_JIS", ja, "Shift_JIS"}, {"GBK", zh, "GB18030"},
	};
	char page[2048];
	for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
		const size_t n = encode_as(pages[i].enc, pages[i].text, page, sizeof page);
		CHECK(conv_is(page, n, NULL, pages[i].text, 0));
		CHECK(conv_is(page, n, "text/html", pages[i].text, 0));
		/* declared UTF-8, and plainly not: the bytes win */
		CHECK(conv_is(page, n, "text/html; charset=utf-8", pages[i].text, 0));
		const char *got = charset_detect(page, n, NULL);
		if (strcmp(got, pages[i].name))
			fprintf(stderr, "  %s detected as %s\n", pages[i].enc, got);
		CHECK(!strcmp(got, pages[i].name));
	}
	/* a few stray bytes in a declared UTF-8 page stay U+FFFD */
	CHECK(CONV("<p>caf\xC3\xA9 \xFF ok</p>", "text/html; charset=utf-8",
		   "<p>caf\xC3\xA9 \xEF\xBF\xBD ok</p>", 1));
}

int main(void)
{
	test_view();
	test_ascii_strides();
	test_utf8();
	test_invalid_utf8();
	test_validity();
	test_validity_dense();
	test_1252();
	test_cjk();
	test_cyrillic();
	test_meta();
	test_bom();
	test_random();
	test_undeclared();
	free(buf);
	return test_finish("test_charset");
}
