/*
 * test_textnorm.c - UTF-8 decoding, folding, classes and tokenisation.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "fingerprint/textnorm.h"
#include "util/utf8.h"

#include <stdlib.h>
#include <utf8proc.h>

static struct textnorm g_tn;

/* Normalise @in and compare the text with @want. */
static int norm_is(const char *in, const char *want)
{
	if (textnorm_run(&g_tn, in, strlen(in)))
		return 0;
	if (strcmp(g_tn.text, want)) {
		fprintf(stderr, "normalised '%s' -> '%s', want '%s'\n", in, g_tn.text, want);
		return 0;
	}
	return 1;
}

/* Token @k as a string, into @buf. */
static const char *tok(size_t k, char *buf, size_t n)
{
	const struct textnorm_token *t = &g_tn.tok[k];
	snprintf(buf, n, "%.*s", (int)t->len, g_tn.text + t->off);
	return buf;
}

static void test_decode(void)
{
	static const struct {
		const char *in;
		int n;
		uint32_t cp;
	} v[] = {
		{"A", 1, 'A'},
		{"\xC3\xA9", 2, 0xE9},
		{"\xE4\xB8\xAD", 3, 0x4E2D},
		{"\xF0\x9F\x98\x80", 4, 0x1F600},
		{"\xC0\x80", 1, TN_INVALID},         /* overlong NUL */
		{"\xE0\x80\xAF", 1, TN_INVALID},     /* overlong '/' */
		{"\xED\xA0\x80", 1, TN_INVALID},     /* surrogate */
		{"\xF4\x90\x80\x80", 1, TN_INVALID}, /* above U+10FFFF */
		{"\xF5\x80\x80\x80", 1, TN_INVALID},
		{"\x80", 1, TN_INVALID},             /* lone continuation */
		{"\xE4\xB8", 1, TN_INVALID},         /* truncated */
		{"\xE4\x41\x41", 1, TN_INVALID},     /* bad continuation */
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		const uint8_t *p = (const uint8_t *)v[i].in;
		uint32_t cp;
		const int n = textnorm_decode(p, p + strlen(v[i].in), &cp);
		CHECK(n == v[i].n);
		CHECK_EQ_U64(cp, v[i].cp);
	}
}

static void test_fold(void)
{
	CHECK_EQ_U64(textnorm_fold('Q'), 'q');
	CHECK_EQ_U64(textnorm_fold(0xC9), 0xE9);    /* É -> é */
	CHECK_EQ_U64(textnorm_fold(0xDE), 0xFE);    /* Þ -> þ */
	CHECK_EQ_U64(textnorm_fold(0xD7), 0xD7);    /* × is no letter */
	CHECK_EQ_U64(textnorm_fold(0x100), 0x101);  /* Ā -> ā */
	CHECK_EQ_U64(textnorm_fold(0x141), 0x142);  /* Ł -> ł */
	CHECK_EQ_U64(textnorm_fold(0x160), 0x161);  /* Š -> š */
	CHECK_EQ_U64(textnorm_fold(0x17D), 0x17E);  /* Ž -> ž */
	CHECK_EQ_U64(textnorm_fold(0x178), 0xFF);   /* Ÿ -> ÿ */
	CHECK_EQ_U64(textnorm_fold(0x130), 'i');    /* İ -> i */
	CHECK_EQ_U64(textnorm_fold(0x3A3), 0x3C3);  /* Σ -> σ */
	CHECK_EQ_U64(textnorm_fold(0x3C2), 0x3C3);  /* ς -> σ */
	CHECK_EQ_U64(textnorm_fold(0x386), 0x3AC);  /* Ά -> ά */
	CHECK_EQ_U64(textnorm_fold(0x38F), 0x3CE);  /* Ώ -> ώ */
	CHECK_EQ_U64(textnorm_fold(0x414), 0x434);  /* Д -> д */
	CHECK_EQ_U64(textnorm_fold(0x401), 0x451);  /* Ё -> ё */
	CHECK_EQ_U64(textnorm_fold(0x462), 0x463);  /* Ѣ -> ѣ */
	CHECK_EQ_U64(textnorm_fold(0x4C1), 0x4C2);  /* Ӂ -> ӂ */
	CHECK_EQ_U64(textnorm_fold(0xFF21), 'a');   /* Ａ -> a */
	CHECK_EQ_U64(textnorm_fold(0xFF11), '1');   /* １ -> 1 */
	CHECK_EQ_U64(textnorm_fold(0xFF0C), ',');   /* ， -> , */
	CHECK_EQ_U64(textnorm_fold(0x4E2D), 0x4E2D);
}

static void test_class(void)
{
	CHECK(textnorm_class('a') == TN_WORD);
	CHECK(textnorm_class('7') == TN_WORD);
	CHECK(textnorm_class('-') == TN_SEP);
	CHECK(textnorm_class(0x07) == TN_SEP);
	CHECK(textnorm_class(0x85) == TN_SEP);   /* C1 control */
	CHECK(textnorm_class(0xA0) == TN_SEP);   /* no-break space */
	CHECK(textnorm_class(0xAD) == TN_IGNORE); /* soft hyphen */
	CHECK(textnorm_class(0xE9) == TN_WORD);
	CHECK(textnorm_class(0x3000) == TN_SEP);
	CHECK(textnorm_class(0x3002) == TN_SEP); /* 。 */
	CHECK(textnorm_class(0x4E2D) == TN_CJK);
	CHECK(textnorm_class(0x3400) == TN_CJK);
	CHECK(textnorm_class(0x3042) == TN_CJK); /* あ */
	CHECK(textnorm_class(0x30AB) == TN_CJK); /* カ */
	CHECK(textnorm_class(0xD55C) == TN_CJK); /* 한 */
	CHECK(textnorm_class(0x0E01) == TN_CJK); /* Thai ko kai */
	CHECK(textnorm_class(0x20AC) == TN_SEP); /* € */
	CHECK(textnorm_class(0x1F600) == TN_SEP);
	CHECK(textnorm_class(0x0627) == TN_WORD); /* Arabic alef */
	CHECK(textnorm_class(0x0301) == TN_WORD); /* combining acute */
	CHECK(textnorm_class(0xFFFE) == TN_SEP);
	CHECK(textnorm_class(TN_INVALID) == TN_SEP);
}

static void test_normalise(void)
{
	CHECK(norm_is("Hello,  WORLD!", "hello world"));
	CHECK(norm_is("  \t\r\n ", ""));
	CHECK(norm_is("", ""));
	CHECK(norm_is("ＡＢＣ，１２３", "abc 123"));
	CHECK(norm_is("\xC3\x89lan \xD0\x94\xD0\x9E\xD0\x9C", "\xC3\xA9lan \xD0\xB4\xD0\xBE\xD0\xBC"));
	CHECK(norm_is("\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3", "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x83"));
	CHECK(norm_is("ab\xFF" "cd", "ab cd"));
	CHECK(norm_is("hy\xC2\xADphen", "hyphen"));
	CHECK(norm_is("v2.3.1 costs $19.99", "v2 3 1 costs 19 99"));
	CHECK(norm_is("中\xE3\x80\x80文", "中 文"));
	CHECK(norm_is("iPhone手机", "iphone手机"));
	/* Mixed scripts in one word run stay one word; full-width digits join it. */
	CHECK(norm_is("Straße２０２４ ΣΟΦΙΑ", "strasse2024 σοφια"));
	CHECK(norm_is("a\x01" "b\x7f", "a b"));
}

/* Is @cp its own NFKC_Casefold (by the library, not by textnorm)? */
static int nfkc_is_self(uint32_t cp)
{
	uint8_t in[8];
	const utf8proc_ssize_t n = utf8proc_encode_char((utf8proc_int32_t)cp, in);
	in[n] = 0;
	uint8_t *const out = utf8proc_NFKC_Casefold(in);
	const int same = out && !strcmp((const char *)out, (const char *)in);
	free(out);
	return same;
}

/* Is @cp's NFKC_Casefold a separator, then separators or marks (U+2017:
 * a space and U+0333)? */
static int nfkc_is_sep(uint32_t cp)
{
	uint8_t in[8];
	const utf8proc_ssize_t n = utf8proc_encode_char((utf8proc_int32_t)cp, in);
	in[n] = 0;
	uint8_t *const out = utf8proc_NFKC_Casefold(in);
	int ok = out && *out, first = 1;
	for (const uint8_t *p = out, *end = out + (out ? strlen((const char *)out) : 0); ok && p < end;) {
		uint32_t c;
		p += textnorm_decode(p, end, &c);
		const utf8proc_category_t cat = utf8proc_category((utf8proc_int32_t)c);
		ok = textnorm_class(textnorm_fold(c)) == TN_SEP ||
		     (!first && (cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_ME));
		first = 0;
	}
	free(out);
	return ok;
}

/* Composed (NFC) and decomposed (NFD) accents, compatibility forms and
 * full case folding give one text. */
static void test_nfkc(void)
{
	/* "Élève à Noël, déjà ça" in NFD: E/e + U+0301/U+0300/U+0308, c + U+0327 */
	CHECK(norm_is("E\xCC\x81le\xCC\x80ve a\xCC\x80 Noe\xCC\x88l, de\xCC\x81ja\xCC\x80 c\xCC\xA7" "a",
		      "\xC3\xA9l\xC3\xA8ve \xC3\xA0 no\xC3\xABl d\xC3\xA9j\xC3\xA0 \xC3\xA7" "a"));
	CHECK(norm_is("\xC3\x89l\xC3\xA8ve \xC3\xA0 No\xC3\xABl, d\xC3\xA9j\xC3\xA0 \xC3\xA7" "a",
		      "\xC3\xA9l\xC3\xA8ve \xC3\xA0 no\xC3\xABl d\xC3\xA9j\xC3\xA0 \xC3\xA7" "a"));
	CHECK(norm_is("\xEF\xAC\x81nance \xE2\x91\xA0 5\xE3\x8E\x8F", "finance 1 5kg")); /* ﬁ ① ㎏ */
	CHECK(norm_is("STRASSE Stra\xC3\x9F" "e", "strasse strasse"));
	CHECK(norm_is("\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB", "\xED\x95\x9C")); /* Hangul jamo: 한 */
	/* A mark after an invalid byte or a space composes with nothing. */
	CHECK(norm_is("e\xFF\xCC\x81x", "e x"));
	CHECK(norm_is("a \xCC\x81" "b", "a b"));
	CHECK(norm_is("=\xCC\xB8", "")); /* U+2260 ≠: a symbol */
}

/*
 * nfkc_casefold() copies ASCII and the stretches that are their own form,
 * and gives the rest to the library by stretches: on random strings of
 * composed and decomposed letters, marks, Han, kana and voicing marks,
 * Hangul syllables and jamo, compatibility forms, upper case of several
 * scripts and ASCII between them, it must give what the library gives
 * for the whole string (ASCII case aside: textnorm folds that itself).
 */
static void test_nfkc_stretches(void)
{
	static const char *const atoms[] = {"a", "E", "=", " ", ".", "Z9", "\xC3\xA9", "\xC3\x89",
		"\xCC\x81", "\xCC\xA7", "\xCC\xB8", "\xE4\xB8\xAD", "\xE3\x81\x8B", "\xE3\x82\x99",
		"\xE3\x82\x9B", "\xED\x95\x9C", "\xE1\x84\x92", "\xE1\x85\xA1", "\xE1\x86\xAB",
		"\xEA\xB0\x80", "\xEF\xAC\x81", "\xEF\xBC\xA1", "\xCE\xA3", "\xCF\x82", "\xD0\x94",
		"\xC3\x9F", "\xE2\x84\xAB", "\xEF\xA4\x80", "\xD9\x84", "\xD9\x8E", "\xE0\xA4\x95",
		"\xE0\xA4\xBC", "\xE2\x80\xA6", "\xC2\xA0", "\xE1\xBA\xA0", "\xCC\xA3\xCC\x82",
		"\xE0\xAD\x87", "\xE0\xAC\xBE", "\xCC\x96", "\xD6\xB0",
		/* full-width ',' '!' 'Z' 'a' '~' (made ASCII without the library
		 * when alone, not before a mark), half-width ka and voicing mark,
		 * U+1D400 (bold A) and U+20000 (Han, past the BMP's table), U+2019 */
		"\xEF\xBC\x8C", "\xEF\xBC\x81", "\xEF\xBC\xBA", "\xEF\xBD\x81",
		"\xEF\xBD\x9E", "\xEF\xBD\xB6", "\xEF\xBE\x9E", "\xF0\x9D\x90\x80",
		"\xF0\xA0\x80\x80", "\xE2\x80\x99"};
	uint64_t st = test_seed(5);
	struct nfkc nf = {0};
	int bad = 0;
	for (int it = 0; it < 20000; it++) {
		char in[256];
		size_t n = 0;
		const int k = (int)(test_rand(&st) % 24);
		for (int i = 0; i < k; i++) {
			const char *a = atoms[test_rand(&st) % (sizeof atoms / sizeof atoms[0])];
			memcpy(in + n, a, strlen(a));
			n += strlen(a);
		}
		in[n] = 0;
		uint8_t *const want = utf8proc_NFKC_Casefold((const uint8_t *)in);
		if (!want || nfkc_casefold(&nf, in, n)) {
			bad++;
			free(want);
			continue;
		}
		for (size_t i = 0; i < nf.len; i++)
			if (nf.out[i] >= 'A' && nf.out[i] <= 'Z')
				nf.out[i] = (char)(nf.out[i] + 32);
		if (nf.len != strlen((const char *)want) || memcmp(nf.out, want, nf.len)) {
			if (bad++ < 3)
				fprintf(stderr, "nfkc of '%s': '%.*s', library '%s'\n", in, (int)nf.len, nf.out, want);
		}
		free(want);
	}
	CHECK(bad == 0);
	nfkc_free(&nf);
}

/*
 * utf8_get() (nfkc_casefold()'s decoder) against the library's
 * utf8proc_iterate(), whose validity it replaces: every sequence of one
 * to three bytes, and four-byte ones around each lead byte's limits.
 */
static void test_utf8_get(void)
{
	int bad = 0, valid = 0;
	uint8_t b[4];
	for (uint32_t x = 0; x < 1u << 24; x++) {
		const size_t n = x < 1u << 8 ? 1 : x < 1u << 16 ? 2 : 3;
		for (size_t i = 0; i < n; i++)
			b[i] = (uint8_t)(x >> (8 * (n - 1 - i)));
		if (n > 1 && b[0] == 0)
			continue;
		uint32_t cp = 0;
		utf8proc_int32_t want;
		const size_t k = utf8_get(b, n, &cp);
		const utf8proc_ssize_t w = utf8proc_iterate(b, (utf8proc_ssize_t)n, &want);
		valid += k == n;
		if ((w > 0 ? (size_t)w : 0) != k || (k && cp != (uint32_t)want))
			bad++;
	}
	static const uint8_t c1[] = {0x80, 0x8F, 0x90, 0xBF, 0xC0, 0x7F};
	for (uint32_t lead = 0xF0; lead <= 0xF5; lead++)
		for (size_t i = 0; i < sizeof c1; i++)
			for (uint32_t r = 0x70; r <= 0xC0; r += 0x10) {
				b[0] = (uint8_t)lead;
				b[1] = c1[i];
				b[2] = (uint8_t)r;
				b[3] = 0x85;
				uint32_t cp = 0;
				utf8proc_int32_t want;
				const size_t k = utf8_get(b, 4, &cp);
				const utf8proc_ssize_t w = utf8proc_iterate(b, 4, &want);
				if ((w > 0 ? (size_t)w : 0) != k || (k && cp != (uint32_t)want))
					bad++;
			}
	CHECK(bad == 0);
	CHECK(valid == 128 + 1920 + 61440); /* ASCII, U+0080..U+07FF, U+0800..U+FFFF less surrogates */
}

static void test_cjk_tokens(void)
{
	char b[64];
	const char *s = "iPhone手机 价格：5999元";
	CHECK(textnorm_run(&g_tn, s, strlen(s)) == 0);
	CHECK(!strcmp(g_tn.text, "iphone手机 价格 5999元"));
	CHECK(g_tn.n_tok == 7);
	CHECK(g_tn.n_cjk == 5);
	if (g_tn.n_tok != 7)
		return;
	static const char *const want[] = {"iphone", "手", "机", "价", "格", "5999", "元"};
	static const uint32_t kinds[] = {TN_WORD, TN_CJK, TN_CJK | TN_JOINED, TN_CJK,
					 TN_CJK | TN_JOINED, TN_WORD, TN_CJK};
	for (size_t k = 0; k < 7; k++) {
		CHECK(!strcmp(tok(k, b, sizeof b), want[k]));
		CHECK_EQ_U64(g_tn.tok[k].kind, kinds[k]);
	}
	/* A long Han run is never one token. */
	s = "我们今天去北京天安门广场看升旗仪式";
	CHECK(textnorm_run(&g_tn, s, strlen(s)) == 0);
	CHECK(g_tn.n_tok == 17);
	s = "สวัสดีครับ 안녕하세요 カタカナ";
	CHECK(textnorm_run(&g_tn, s, strlen(s)) == 0);
	CHECK(g_tn.n_tok == 10 + 5 + 4);
	CHECK(g_tn.tok[10].kind == TN_CJK); /* a space starts a new run */
}

/* Random bytes: never crash, stay in bounds, emit valid UTF-8 only. */
static void test_garbage(void)
{
	uint64_t st = test_seed(20261121);
	char buf[512];
	for (int round = 0; round < 3000; round++) {
		const size_t n = test_rand(&st) % sizeof buf;
		for (size_t i = 0; i < n; i++) {
			const uint64_t r = test_rand(&st);
			static const char pick[] = "aZ \xE4\xB8\xAD\xC3\x89\xF0";
			buf[i] = r & 1 ? (char)(r >> 8) : pick[(r >> 8) % 9];
		}
		if (textnorm_run(&g_tn, buf, n)) {
			CHECK(0);
			return;
		}
		CHECK(g_tn.len <= n);
		const uint8_t *p = (const uint8_t *)g_tn.text, *end = p + g_tn.len;
		while (p < end) {
			uint32_t cp;
			p += textnorm_decode(p, end, &cp);
			if (cp == TN_INVALID) {
				CHECK(0);
				break;
			}
		}
		for (size_t k = 0; k < g_tn.n_tok; k++)
			CHECK(g_tn.tok[k].len > 0 && g_tn.tok[k].off + g_tn.tok[k].len <= g_tn.len);
	}
}

/*
 * Text of ASCII, Han and CJK punctuation is tokenised as it stands, not
 * put in NFKC first: on random strings of those and of what sends a line
 * to NFKC after all (full-width letters, marks, accents, kana, U+4DFF
 * next to Han, invalid bytes), the text and tokens must be those of the
 * string's NFKC_Casefold form, as when every line went through it.
 */
static void test_raw_path(void)
{
	static const char *const atoms[] = {
		/* arrows, shapes, symbols, dingbats, pictographs: read as they stand */
		"\xE2\x86\x92", "\xE2\x87\x92", "\xE2\x8C\x98", "\xE2\x96\xA0", "\xE2\x96\xBA",
		"\xE2\x98\x85", "\xE2\x9C\x93", "\xE2\x9E\xBF", "\xE2\xAC\x86", "\xF0\x9F\x98\x80",
		"\xF0\x9F\x9A\x80", "\xF0\x9F\x82\xA1", "\xF0\x9F\x8F\xBB", "\xE2\x86\x9A",
		"ab", "Zq9", " ", ", ", ".", "\t", "\xE4\xB8\xAD",
		"\xE4\xB8\x80", "\xE9\xBF\xBF", "\xE6\x96\x87", "\xE3\x80\x80", "\xE3\x80\x81",
		"\xE3\x80\x82", "\xE3\x80\x8C", "\xEF\xBC\x8C", "\xEF\xBC\x81", "\xEF\xBC\x9F",
		"\xE2\x80\xA6", "\xE2\x80\xA4", "\xE2\x80\x94", "\xE2\x80\x9C", "\xC2\xA0",
		"\xC2\xB6", "\xC2\xA9", "\xC2\xBB", "\xC2\xB7", "\xC2\xA7", "\xC2\xAB",
		"\xC2\xAE", "\xE2\x94\x80", "\xE2\x95\xBF", "\xC3\xA9", "\xC3\x89",
		"\xC3\x80", "\xC3\xBF", "\xC3\x9E", "\xEF\xBC\xA1", "\xC3\x9F", "\xC3\x97",
		"\xC3\xB7", "\xC2\xAA", "\xC2\xB2",
		"\xEF\xBC\x91", "\xCC\x81", "\xC3\xBC", "\xC3\x9C", "\xE3\x81\x8B", "\xE4\xB7\xBF",
		"\xEF\xA4\x80", "\xFF", "\xE4\xB8", "\xE1\x84\x92", "\xC2\xAD", "\xC2",
		/* beside them: what NFKC changes (U+2329, circled 1, enclosed "0.",
		 * enclosed ideographs, TM), what composes with or follows them (U+0338,
		 * VS16, ZWJ), and cut or broken sequences of their lead bytes */
		"\xE2\x8C\xA9", "\xE2\x91\xA0", "\xF0\x9F\x84\x80", "\xF0\x9F\x88\x80",
		"\xE2\x84\xA2", "\xCC\xB8", "\xEF\xB8\x8F", "\xE2\x80\x8D", "\xF0\x9F\x98",
		"\xF0\x9F", "\xE2\x86", "\xF0\x9F\x98\x28", "\xF0\x8F\x98\x80", "\xE2\x28\x92"};
	uint64_t st = test_seed(31);
	struct textnorm ref = {0};
	struct nfkc nf = {0};
	int bad = 0;
	for (int it = 0; it < 30000; it++) {
		char in[400];
		size_t n = 0;
		/* half the strings only of what is read as it stands */
		const size_t na = sizeof atoms / sizeof atoms[0], pick = it % 2 ? na : 50;
		for (int k = (int)(test_rand(&st) % 40); k > 0; k--) {
			const char *a = atoms[test_rand(&st) % pick];
			memcpy(in + n, a, strlen(a));
			n += strlen(a);
		}
		if (textnorm_run(&g_tn, in, n) || nfkc_casefold(&nf, in, n) ||
		    textnorm_run(&ref, nf.out, nf.len)) {
			bad++;
			continue;
		}
		int same = g_tn.len == ref.len && !memcmp(g_tn.text, ref.text, ref.len) &&
			   g_tn.n_tok == ref.n_tok && g_tn.n_cjk == ref.n_cjk;
		for (size_t k = 0; same && k < ref.n_tok; k++)
			same = g_tn.tok[k].off == ref.tok[k].off && g_tn.tok[k].len == ref.tok[k].len &&
			       g_tn.tok[k].kind == ref.tok[k].kind;
		if (!same && bad++ < 3)
			fprintf(stderr, "'%.*s': '%s', through NFKC '%s'\n", (int)n, in, g_tn.text, ref.text);
	}
	CHECK(bad == 0);
	textnorm_free(&ref);
	nfkc_free(&nf);
}

static void test_deterministic(void)
{
	const char *s = "Ünïcödé ＴＥＸＴ, 中文文本 and Кириллица 42";
	CHECK(textnorm_run(&g_tn, s, strlen(s)) == 0);
	char first[256];
	snprintf(first, sizeof first, "%s", g_tn.text);
	const size_t n_tok = g_tn.n_tok;
	struct textnorm other = {0};
	CHECK(textnorm_run(&other, s, strlen(s)) == 0);
	CHECK(!strcmp(first, other.text) && other.n_tok == n_tok);
	CHECK(!strcmp(first, "ünïcödé text 中文文本 and кириллица 42"));
	textnorm_free(&other);
	textnorm_free(&other); /* twice is harmless */
}

/*
 * ASCII words are scanned 8 bytes at a time: compare with a byte-by-byte
 * reference on random ASCII (every class, every alignment and length,
 * words across 8-byte boundaries, texts ending mid-word), with a multi-
 * byte character sometimes in the way.
 */
static void test_ascii_words(void)
{
	static const char alphabet[] = "abcXYZ09 @[`{/:.-_\x7f\t\nAzZa";
	uint64_t rng = test_seed(7);
	char in[64], want[128];
	for (int round = 0; round < 20000; round++) {
		const size_t n = (size_t)(test_rand(&rng) % 40);
		for (size_t i = 0; i < n; i++)
			in[i] = alphabet[test_rand(&rng) % (sizeof alphabet - 1)];
		if (n > 4 && round % 5 == 0)
			memcpy(in + test_rand(&rng) % (n - 2), "\xc3\xa9", 2); /* e acute */
		in[n] = '\0';
		/* Reference: lower-case letters and digits form words, one space
		 * between words, none at the ends; é is a letter too. */
		size_t o = 0;
		int sep = 0;
		for (size_t i = 0; i < n; i++) {
			const unsigned char c = (unsigned char)in[i];
			const int word = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
					 (c >= 'A' && c <= 'Z') || c >= 0x80;
			if (!word) {
				sep = o > 0;
				continue;
			}
			if (sep)
				want[o++] = ' ';
			sep = 0;
			want[o++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
		}
		want[o] = '\0';
		CHECK(norm_is(in, want));
	}
}

/*
 * Every code point textnorm_sep_len() takes as it stands, of any block:
 * its own NFKC_Casefold form by the library (or U+00A0, a space), a
 * starter (nothing before it composes with it), TN_SEP, and read as one
 * separator between a letter and a Han character; so tokenising it
 * before or after NFKC gives the same.  Its cut sequences are not taken.
 */
static void test_symbols(void)
{
	size_t taken = 0;
	for (uint32_t cp = 0x80; cp <= 0x10FFFF; cp++) {
		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		uint8_t in[8];
		const size_t n = (size_t)utf8proc_encode_char((utf8proc_int32_t)cp, in);
		const size_t len = textnorm_sep_len(in, in + n);
		if (!len)
			continue;
		taken++;
		CHECK(len == n);
		if (!nfkc_is_self(cp) && !nfkc_is_sep(cp)) {
			fprintf(stderr, "U+%04X: NFKC makes it other than separators\n", (unsigned)cp);
			CHECK(0);
		}
		CHECK(utf8proc_get_property((utf8proc_int32_t)cp)->combining_class == 0);
		CHECK(textnorm_class(textnorm_fold(cp)) == TN_SEP);
		for (size_t cut = 1; cut < n; cut++)
			CHECK(textnorm_sep_len(in, in + cut) == 0);
		char line[16] = "b";
		memcpy(line + 1, in, n);
		memcpy(line + 1 + n, "\xE4\xB8\xAD", 4);
		if (!norm_is(line, "b \xE4\xB8\xAD")) {
			fprintf(stderr, "U+%04X not a separator\n", (unsigned)cp);
			CHECK(0);
		}
	}
	/* the arrows, shapes, dingbats and pictographs among them */
	CHECK(taken > 3000);
}

/*
 * CJK punctuation takes a short path in textnorm_run(); it must agree with
 * the classes: every separator of these blocks, between a Han character
 * and a letter, leaves "中 a", ignorable ones "中a", the rest no space.
 */
static void test_punct_path(void)
{
	static const uint32_t blocks[][2] = {{0x2000, 0x206F}, {0x2500, 0x257F}, {0x3000, 0x30FF},
					     {0xFF00, 0xFFEF}};
	for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
		for (uint32_t cp = blocks[b][0]; cp <= blocks[b][1]; cp++) {
			char in[16] = "\xE4\xB8\xAD"; /* 中 */
			in[3] = (char)(0xE0 | cp >> 12);
			in[4] = (char)(0x80 | (cp >> 6 & 0x3F));
			in[5] = (char)(0x80 | (cp & 0x3F));
			in[6] = 'a';
			if (!nfkc_is_self(cp)) /* NFKC first makes it other characters */
				continue;
			const enum textnorm_class c = textnorm_class(textnorm_fold(cp));
			if (c == TN_SEP)
				CHECK(norm_is(in, "\xE4\xB8\xAD a") && g_tn.n_tok == 2);
			else if (c == TN_IGNORE)
				CHECK(norm_is(in, "\xE4\xB8\xAD" "a") && g_tn.n_tok == 2);
			else /* a letter or CJK character: no separator */
				CHECK(textnorm_run(&g_tn, in, 7) == 0 && !strchr(g_tn.text, ' '));
		}
	}
	/* Latin-1's signs read as they stand are their own NFKC form, or
	 * (U+00A0) a space, and separators either way. */
	for (uint32_t cp = 0xA0; cp < 0xC0; cp++) {
		const uint8_t sign[2] = {0xC2, (uint8_t)cp};
		if (!textnorm_sep_len(sign, sign + 2))
			continue;
		CHECK(cp == 0xA0 || (nfkc_is_self(cp) && textnorm_class(cp) == TN_SEP));
		char in[8] = {'b', (char)0xC2, (char)cp, 'a', 0};
		CHECK(norm_is(in, "b a") && g_tn.n_tok == 2);
	}
	CHECK(textnorm_sep_len((const uint8_t *)"\xC2\xAD", (const uint8_t *)"\xC2\xAD" + 2) == 0);
	test_symbols();
	/* Cut short at the end of the input: invalid bytes, separators. */
	CHECK(norm_is("a\xEF\xBC", "a"));
	CHECK(norm_is("a\xE3\x80", "a"));
}

int main(void)
{
	test_decode();
	test_fold();
	test_class();
	test_normalise();
	test_nfkc();
	test_nfkc_stretches();
	test_utf8_get();
	test_cjk_tokens();
	test_punct_path();
	test_garbage();
	test_deterministic();
	test_raw_path();
	test_ascii_words();
	textnorm_free(&g_tn);
	return test_finish("test_textnorm");
}
