/*
 * test_docfp.c - configuration hashing and the properties both methods
 * must have: identical text -> identical
 * fingerprint, a small edit -> a small distance, unrelated texts -> about
 * 32 bits apart; word order irrelevant for SimHash of unigrams; minhash
 * distance tracking 32 (1 - J).
 *
 * `test_docfp --write-docs FILE [CODEC]` instead writes a synthetic DOCS
 * stream (two sections, several blocks, English, Chinese, short and
 * near-duplicate texts) for tests/t_fingerprint.sh, which needs input that
 * does not depend on the extract stage.  CODEC (default 0, raw) is put in
 * every block's codec field, to see a reader refuse one it does not know.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "format/docrec.h"
#include "format/ndf.h"
#include "fingerprint/docfp.h"
#include "fingerprint/simhash.h"
#include "testutil.h"

#define VOCAB 3000
#define MAXW 400

static char g_vocab[VOCAB][12];
static uint64_t g_rng;

static void make_vocab(void)
{
	for (int i = 0; i < VOCAB; i++) {
		const int len = 3 + (int)(test_rand(&g_rng) % 7);
		for (int k = 0; k < len; k++)
			g_vocab[i][k] = (char)('a' + test_rand(&g_rng) % 26);
		g_vocab[i][len] = '\0';
	}
}

/* Join words @w[0..n) with spaces into @out. */
static size_t join(const int *w, int n, char *out)
{
	size_t o = 0;
	for (int i = 0; i < n; i++) {
		if (i)
			out[o++] = ' ';
		const size_t l = strlen(g_vocab[w[i]]);
		memcpy(out + o, g_vocab[w[i]], l);
		o += l;
	}
	out[o] = '\0';
	return o;
}

static void random_words(int *w, int n)
{
	for (int i = 0; i < n; i++)
		w[i] = (int)(test_rand(&g_rng) % VOCAB);
}

/* SimHash of weighted single words and CJK bigrams (--method simhash). */
static struct docfp_config simhash_words(void)
{
	struct docfp_config c = DOCFP_CONFIG_DEFAULT;
	c.method = DOCFP_SIMHASH;
	c.shingle = 1;
	c.cjk_ngram = 2;
	return c;
}

static uint64_t fp_of(struct docfp_ctx *ctx, const char *s, size_t n, uint32_t *flags)
{
	uint64_t fp = 0;
	uint32_t f = 0;
	CHECK(docfp_text(ctx, s, n, &fp, &f) == 0);
	if (flags)
		*flags = f;
	return fp;
}

static void test_config(void)
{
	struct docfp_config c = DOCFP_CONFIG_DEFAULT, d = c;
	char buf[256];
	CHECK(docfp_config_check(&c) == 0);
	CHECK(docfp_config_string(&c, buf, sizeof buf) > 0);
	CHECK(strstr(buf, "shingle=3") && strstr(buf, "cjk_ngram=3") && strstr(buf, "textnorm/") &&
	      strstr(buf, "method=minhash1"));
	CHECK_EQ_U64(docfp_config_hash(&c), docfp_config_hash(&d));
	d.method = DOCFP_SIMHASH;
	CHECK(docfp_config_hash(&c) != docfp_config_hash(&d));
	d = c;
	d.shingle = 2;
	CHECK(docfp_config_hash(&c) != docfp_config_hash(&d));
	d = c;
	d.min_text = 100;
	CHECK(docfp_config_hash(&c) != docfp_config_hash(&d));
	d = c;
	d.cjk_ngram = 2;
	CHECK(docfp_config_hash(&c) != docfp_config_hash(&d));
	d.shingle = 0;
	CHECK(docfp_config_check(&d) == -1);
	CHECK(docfp_ctx_new(&d) == NULL);
	d.shingle = 1;
	d.cjk_ngram = 9;
	CHECK(docfp_config_check(&d) == -1);
	/* Every weighting option is part of the hash, and checked. */
	int *const opt[] = {&d.line_full, &d.tf_log, &d.unit_weight, &d.cjk_unit,
			    &d.boundary_weight, &d.method};
	const int good[] = {80, 0, 32, 3, 32, 0};
	const int bad[] = {-1, 2, DOCFP_WEIGHT_ONE + 1, 0, 2 * DOCFP_WEIGHT_ONE + 1, 2};
	for (int i = 0; i < 6; i++) {
		d = c;
		*opt[i] = good[i];
		CHECK(docfp_config_check(&d) == 0);
		CHECK(docfp_config_hash(&c) != docfp_config_hash(&d));
		*opt[i] = bad[i];
		CHECK(docfp_config_check(&d) == -1);
	}
}

static void test_identical_and_edit(struct docfp_ctx *ctx, struct docfp_ctx *ctx2)
{
	static int w[MAXW];
	static char a[MAXW * 12], b[MAXW * 12];
	double sum = 0;
	for (int round = 0; round < 20; round++) {
		random_words(w, 300);
		const size_t na = join(w, 300, a);
		const uint64_t fa = fp_of(ctx, a, na, NULL);
		CHECK_EQ_U64(fa, fp_of(ctx2, a, na, NULL)); /* other context */
		CHECK_EQ_U64(fa, fp_of(ctx, a, na, NULL));  /* warm context */
		w[test_rand(&g_rng) % 300] = (int)(test_rand(&g_rng) % VOCAB);
		const size_t nb = join(w, 300, b);
		const int d = hamming64(fa, fp_of(ctx, b, nb, NULL));
		CHECK(d < 8);
		sum += d;
	}
	printf("one word of 300 changed: mean distance %.2f\n", sum / 20);
}

static void test_unrelated(struct docfp_ctx *ctx)
{
	static int w[MAXW];
	static char a[MAXW * 12];
	double sum = 0;
	const int pairs = 16;
	for (int round = 0; round < pairs; round++) {
		random_words(w, 300);
		uint64_t f1 = fp_of(ctx, a, join(w, 300, a), NULL);
		random_words(w, 300);
		uint64_t f2 = fp_of(ctx, a, join(w, 300, a), NULL);
		sum += hamming64(f1, f2);
	}
	printf("unrelated texts: mean distance %.2f\n", sum / pairs);
	CHECK(sum / pairs >= 20 && sum / pairs <= 44);
}

static void test_order(struct docfp_ctx *ctx)
{
	static int w[MAXW];
	static char a[MAXW * 12];
	struct docfp_config c = simhash_words();
	c.shingle = 2;
	struct docfp_ctx *ctx2 = docfp_ctx_new(&c);
	CHECK(ctx2 != NULL);
	random_words(w, 300);
	const size_t n1 = join(w, 300, a);
	const uint64_t f1 = fp_of(ctx, a, n1, NULL), g1 = fp_of(ctx2, a, n1, NULL);
	/* Single words beside the shingles, equal weight: order still counts,
	 * but the unchanged half of the features holds bits in place. */
	c.unit_weight = DOCFP_WEIGHT_ONE;
	struct docfp_ctx *ctx3 = docfp_ctx_new(&c);
	CHECK(ctx3 != NULL);
	const uint64_t h1 = fp_of(ctx3, a, n1, NULL);
	for (int i = 299; i > 0; i--) { /* Fisher-Yates */
		const int j = (int)(test_rand(&g_rng) % (uint64_t)(i + 1)), t = w[i];
		w[i] = w[j];
		w[j] = t;
	}
	const size_t n2 = join(w, 300, a);
	CHECK_EQ_U64(f1, fp_of(ctx, a, n2, NULL));
	const int d = hamming64(g1, fp_of(ctx2, a, n2, NULL));
	printf("shuffled, shingle=2: distance %d\n", d);
	CHECK(d > 8);
	const int d3 = hamming64(h1, fp_of(ctx3, a, n2, NULL));
	printf("shuffled, shingle=2 + words: distance %d\n", d3);
	CHECK(d3 > 0 && d3 < 32);
	docfp_ctx_free(ctx3);
	docfp_ctx_free(ctx2);
}

/*
 * Pinned: the default word 3-shingles of texts of one to six words over
 * lines, with no short-text cut-off, so that texts of fewer words than a
 * shingle (one shingle of them all) and the first shingles take the
 * same words as before the ring of the last words was kept without
 * divisions (values of main at a40c330).
 */
static void test_shingle3_pinned(void)
{
	struct docfp_config c = DOCFP_CONFIG_DEFAULT;
	c.min_text = 0;
	struct docfp_ctx *ctx = docfp_ctx_new(&c);
	CHECK(ctx != NULL);
	if (!ctx)
		return;
	static const char *const text[] = {"alpha", "alpha beta", "Alpha\nbeta gamma",
					    "alpha beta gamma delta", "one two\nthree four five\nsix"};
	static const uint64_t want[] = {0x1cd59720e8be57d1ull, 0x7406560feeb171bfull,
					0x0295c8dd11328b61ull, 0xc291c6d735da8b0dull,
					0xb2ec9960928530d8ull};
	for (size_t i = 0; i < 5; i++)
		CHECK_EQ_U64(fp_of(ctx, text[i], strlen(text[i]), NULL), want[i]);
	docfp_ctx_free(ctx);
}

/* Word shingles run across line ends: n words on any lines give n - 1
 * bigrams; CJK n-grams stay inside a run. */
static void test_shingle_lines(void)
{
	struct docfp_config c = simhash_words();
	c.shingle = 2;
	c.min_text = 0;
	struct docfp_ctx *ctx2 = docfp_ctx_new(&c);
	CHECK(ctx2 != NULL);
	uint64_t fp;
	const char *one = "alpha beta gamma delta", *two = "alpha beta\ngamma\n\ndelta";
	CHECK(docfp_text(ctx2, one, strlen(one), &fp, NULL) == 0);
	CHECK(docfp_last_features(ctx2) == 3);
	CHECK(docfp_text(ctx2, two, strlen(two), &fp, NULL) == 0);
	CHECK(docfp_last_features(ctx2) == 3);
	const char *lone = "alpha";
	CHECK(docfp_text(ctx2, lone, strlen(lone), &fp, NULL) == 0);
	CHECK(docfp_last_features(ctx2) == 1);
	docfp_ctx_free(ctx2);
}

/* UTF-8 of a random common Han character. */
static size_t put_han(char *out)
{
	const uint32_t cp = 0x4E00 + (uint32_t)(test_rand(&g_rng) % 2500);
	out[0] = (char)(0xE0 | cp >> 12);
	out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
	out[2] = (char)(0x80 | (cp & 0x3F));
	return 3;
}

static void test_cjk(struct docfp_ctx *ctx, int must_differ)
{
	static char a[4096], b[4096];
	size_t n = 0;
	for (int i = 0; i < 600; i++) {
		n += put_han(a + n);
		if (i % 20 == 19)
			n += (size_t)sprintf(a + n, "\xE3\x80\x82"); /* 。 */
	}
	memcpy(b, a, n);
	put_han(b + 3 * 300 + 3 * 15); /* change one character of 600 */
	const uint64_t fa = fp_of(ctx, a, n, NULL), fb = fp_of(ctx, b, n, NULL);
	printf("one Han character of 600 changed: distance %d\n", hamming64(fa, fb));
	CHECK(fa != fb || !must_differ); /* minhash: 1% changed, often no bit */
	CHECK(hamming64(fa, fb) < 8);
	const char *s1 = "ＡＢＣ１２３ 全角 Text", *s2 = "abc123 全角 text";
	CHECK_EQ_U64(fp_of(ctx, s1, strlen(s1), NULL), fp_of(ctx, s2, strlen(s2), NULL));
}

/*
 * A fixed text of mixed scripts (Han with repeats, kana, Hangul, a
 * 4-byte Han character, Latin words, lines of many lengths) under several
 * configurations: the values below were made by the code before the
 * faster SimHash path (16-bit lanes, in-slot tf table, one-pass CJK
 * runs), which must not change any fingerprint.  The last one is the
 * default, minhash of word 3-shingles and CJK trigrams.
 */
static size_t mixed_text(char *out)
{
	static const char *const pieces[] = {
		"\xE4\xB8\xAD\xE6\x96\x87", /* 中文 */
		"\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA", /* ひらがな */
		"\xEA\xB0\x80\xEB\x82\x98", /* 가나 */
		"\xF0\xA0\x80\x80", /* U+20000 */
		" word Zeta 42 ", "\xE3\x80\x82", /* 。 */
	};
	size_t n = 0;
	uint32_t x = 12345;
	for (int line = 0; line < 60; line++) {
		const int chars = 1 + (line * 37) % 120;
		for (int i = 0; i < chars; i++) {
			x = x * 1103515245u + 12345u;
			const uint32_t r = x >> 16;
			if (r % 9 == 0) {
				const char *s = pieces[r / 9 % 6];
				memcpy(out + n, s, strlen(s));
				n += strlen(s);
				continue;
			}
			/* 40 Han characters only, so bigrams repeat (tf > 1). */
			const uint32_t cp = 0x4E00 + r % 40 * 97;
			out[n++] = (char)(0xE0 | cp >> 12);
			out[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
			out[n++] = (char)(0x80 | (cp & 0x3F));
		}
		out[n++] = '\n';
	}
	return n;
}

#define GOLDEN_MIXED_DEFAULT 0x4a0b00079d207169ull

/*
 * The same French text composed (NFC) and decomposed (NFD, as some Mac
 * editors save it) fingerprints identically: textnorm puts both in NFKC.
 * The NFD copy is made here by hand, from the accents the text uses.
 */
static void test_nfc_nfd(struct docfp_ctx *ctx)
{
	static const char *const nfc =
		"Le ministère de l'Économie a présenté mercredi un projet de réforme "
		"fiscale très attendu. Selon le député, les créations d'entreprises "
		"ont progressé de façon régulière depuis l'été dernier, même si la "
		"crise énergétique pèse encore sur les ménages. Où en est la dépense "
		"publique ? Le gouvernement prévoit une baisse légère des impôts dès "
		"l'année prochaine, ainsi qu'une aide aux collectivités d'outre-mer. "
		"Noël approche et les élèves, déjà en congé, ont reçu leurs bulletins.";
	/* the composed letters and their decomposed spellings */
	static const char *const map[][2] = {
		{"\xC3\xA8", "e\xCC\x80"}, {"\xC3\x89", "E\xCC\x81"}, {"\xC3\xA9", "e\xCC\x81"},
		{"\xC3\xA7", "c\xCC\xA7"}, {"\xC3\xAA", "e\xCC\x82"}, {"\xC3\xB9", "u\xCC\x80"},
		{"\xC3\xA0", "a\xCC\x80"}, {"\xC3\xAB", "e\xCC\x88"}, {"\xC3\xB4", "o\xCC\x82"},
	};
	char nfd[2048];
	size_t o = 0, mapped = 0;
	for (const char *p = nfc; *p;) {
		size_t k = 0;
		while (k < sizeof map / sizeof map[0] && strncmp(p, map[k][0], 2))
			k++;
		if (k < sizeof map / sizeof map[0]) {
			memcpy(nfd + o, map[k][1], 3);
			o += 3, p += 2, mapped++;
		} else {
			nfd[o++] = *p++;
		}
	}
	CHECK(mapped == 36 && o == strlen(nfc) + mapped);
	CHECK_EQ_U64(fp_of(ctx, nfd, o, NULL), fp_of(ctx, nfc, strlen(nfc), NULL));
}

static void test_golden_mixed(void)
{
	static char text[60 * 120 * 16];
	const size_t n = mixed_text(text);
	static const uint64_t golden[7] = {0x43af83737fd4a864ull, 0x41af83737fd49864ull,
					   0xaf23f819688eb96dull, 0x43ad83737df48864ull,
					   0xdb0f5e99b924d5edull, 0x43af83f37fc4a864ull,
					   GOLDEN_MIXED_DEFAULT};
	for (int simd = 0; simd < 2; simd++) {
		simhash_acc_use_simd(simd);
		for (int v = 0; v < 7; v++) {
			const struct docfp_config dflt = DOCFP_CONFIG_DEFAULT;
			struct docfp_config c = v == 6 ? dflt : simhash_words();
			if (v == 1)
				c.unit_weight = 32, c.cjk_unit = 1; /* units beside bigrams */
			if (v == 2)
				c.cjk_ngram = 3, c.boundary_weight = 96;
			if (v == 3)
				c.tf_log = 0, c.line_full = 0;
			if (v == 4)
				c.method = DOCFP_MINHASH, c.shingle = 2;
			if (v == 5)
				c.shingle = 3, c.unit_weight = 16;
			struct docfp_ctx *ctx = docfp_ctx_new(&c);
			CHECK(ctx != NULL);
			if (!ctx)
				continue;
			const uint64_t fp = fp_of(ctx, text, n, NULL);
			if (simd)
				printf("mixed-script golden %d: %016llx\n", v, (unsigned long long)fp);
			CHECK_EQ_U64(fp, golden[v]);
			docfp_ctx_free(ctx);
		}
	}
	simhash_acc_use_simd(1);
}

static void test_short(struct docfp_ctx *ctx)
{
	uint32_t flags;
	const char *s = "Hello, World!", *t = "hello   world";
	const uint64_t f = fp_of(ctx, s, strlen(s), &flags);
	CHECK(flags & FP_SHORT_TEXT);
	CHECK_EQ_U64(f, XXH3_64bits_withSeed("hello world", 11, DOCFP_SEED));
	CHECK_EQ_U64(f, fp_of(ctx, t, strlen(t), NULL));
	CHECK_EQ_U64(docfp_last_norm_len(ctx), 11);
	fp_of(ctx, "", 0, &flags);
	CHECK(flags & FP_SHORT_TEXT);
	static char a[MAXW * 12];
	static int w[MAXW];
	random_words(w, 100);
	const size_t n = join(w, 100, a);
	flags = FP_SHORT_TEXT | DOC_TRUNCATED;
	uint64_t fp;
	CHECK(docfp_text(ctx, a, n, &fp, &flags) == 0);
	CHECK(flags == DOC_TRUNCATED);
	CHECK(docfp_last_features(ctx) > 50);
}

/* A large document grows the tf table; the next small one must not care. */
static void test_reuse(struct docfp_ctx *ctx, const struct docfp_config *c)
{
	struct docfp_ctx *fresh = docfp_ctx_new(c);
	const size_t big = 60000 * 8;
	char *a = malloc(big);
	size_t n = 0;
	for (int i = 0; i < 60000; i++)
		n += (size_t)sprintf(a + n, "w%d ", i);
	fp_of(ctx, a, n, NULL);
	CHECK(docfp_last_features(ctx) == 60000);
	static int w[MAXW];
	random_words(w, 300);
	n = join(w, 300, a);
	CHECK_EQ_U64(fp_of(ctx, a, n, NULL), fp_of(fresh, a, n, NULL));
	free(a);
	docfp_ctx_free(fresh);
	docfp_ctx_free(NULL);
}

/*
 * Pinned values: any change to normalisation, features or weights shows
 * up here, and must come with a TEXTNORM_VERSION/DOCFP_VERSION bump.
 * The configurations that were the defaults before (SimHash of single
 * words; minhash of bigrams, once --method minhash) kept their hashes and
 * fingerprints when other defaults were chosen; TEXTNORM_VERSION 2 (NFKC)
 * changed every configuration hash, and none of these fingerprints.
 */
#define GOLDEN_DEFAULT_CONFIG 0xb5c58e2566678a8full
#define GOLDEN_DEFAULT_FP 0x57a2873d28bdcba7ull

static void test_golden(struct docfp_ctx *ctx, struct docfp_ctx *sim)
{
	const char *s = "The quick brown fox jumps over the lazy dog. 敏捷的棕色狐狸跳过了懒狗。"
			"Съешь же ещё этих мягких французских булок, да выпей чаю. "
			"Ζαφείρι δέξου πάγκαλο, βαθῶν ψυχῆς τὸ σῆμα. 1234567890";
	uint32_t flags;
	const uint64_t fp = fp_of(ctx, s, strlen(s), &flags);
	CHECK(!(flags & FP_SHORT_TEXT));
	const struct docfp_config c = DOCFP_CONFIG_DEFAULT, w = simhash_words();
	struct docfp_config m = w;
	m.method = DOCFP_MINHASH; /* minhash of bigrams */
	m.shingle = 2;
	printf("golden: %016llx config %016llx\n", (unsigned long long)fp,
	       (unsigned long long)docfp_config_hash(&c));
	CHECK_EQ_U64(fp, GOLDEN_DEFAULT_FP);
	CHECK_EQ_U64(docfp_config_hash(&c), GOLDEN_DEFAULT_CONFIG);
	CHECK_EQ_U64(docfp_config_hash(&w), 0x8e21aa85189de375ull);
	CHECK_EQ_U64(docfp_config_hash(&m), 0x6947cd56fb66cda0ull);
	CHECK_EQ_U64(fp_of(sim, s, strlen(s), NULL), 0x3dcbc6ab8e713fdbull);
	struct docfp_ctx *mh2 = docfp_ctx_new(&m);
	CHECK(mh2 != NULL);
	if (mh2)
		CHECK_EQ_U64(fp_of(mh2, s, strlen(s), NULL), 0x317001bf5bf59f21ull);
	docfp_ctx_free(mh2);
}

/*
 * Minwise hashing: the expected distance is 32 (1 - J).  Texts of 400
 * distinct words with the last m replaced share the shingles of @sh words
 * that lie in the first 400 - m; the mean distance over rounds must track
 * 32 (1 - J), and a short text (empty bins filled from others) must be as
 * stable.
 */
static void test_minhash(struct docfp_ctx *ctx, struct docfp_ctx *ctx2, int sh)
{
	static char a[MAXW * 12];
	const int n = 400, m = 40, rounds = 24;
	double sum = 0;
	for (int r = 0; r < rounds; r++) {
		size_t len = 0;
		for (int i = 0; i < n; i++)
			len += (size_t)sprintf(a + len, "r%dw%d ", r, i);
		const uint64_t fa = fp_of(ctx, a, len, NULL);
		len = 0;
		for (int i = 0; i < n; i++)
			len += (size_t)sprintf(a + len, i < n - m ? "r%dw%d " : "r%dx%d ", r, i);
		sum += hamming64(fa, fp_of(ctx, a, len, NULL));
	}
	/* n - sh + 1 shingles each; the first n - m - sh + 1 shared. */
	const double shared = n - m - sh + 1, j = shared / (2.0 * (n - sh + 1) - shared);
	printf("minhash: J %.3f, mean distance %.2f, expected %.2f\n", j, sum / rounds,
	       32 * (1 - j));
	CHECK(sum / rounds > 32 * (1 - j) - 2.5 && sum / rounds < 32 * (1 - j) + 2.5);
	const char *s = "A page of forty words is enough to pass the minimum length of text, "
			"but it leaves most of the sixty four bins empty, so they are filled "
			"from the bins that are not, in an order fixed by the bin alone.";
	const uint64_t f = fp_of(ctx, s, strlen(s), NULL);
	CHECK_EQ_U64(f, fp_of(ctx2, s, strlen(s), NULL));
	CHECK(popcount64(f) > 10 && popcount64(f) < 54);
	/* One distinct feature: 63 bins borrow from one, and still every bit
	 * is its own draw, so two such pages are far apart. */
	char one[400], other[400];
	size_t n1 = 0, n2 = 0;
	for (int i = 0; i < 60; i++) {
		n1 += (size_t)sprintf(one + n1, "spam ");
		n2 += (size_t)sprintf(other + n2, "eggs ");
	}
	const uint64_t g1 = fp_of(ctx, one, n1, NULL), g2 = fp_of(ctx, other, n2, NULL);
	CHECK_EQ_U64(g1, fp_of(ctx2, one, n1, NULL));
	printf("minhash: one feature each, distance %d\n", hamming64(g1, g2));
	CHECK(hamming64(g1, g2) > 16);
}

/* One synthetic document's text into @out: English, Chinese or short. */
static size_t synth_text(uint64_t i, char *out)
{
	static int w[MAXW];
	if (i % 7 == 3)
		return (size_t)sprintf(out, "Short page %llu.", (unsigned long long)(i % 3));
	if (i % 5 == 1) {
		size_t n = 0;
		for (int k = 0; k < 150; k++)
			n += put_han(out + n);
		return n;
	}
	static uint64_t prev_state;
	if (i % 11 == 0) /* the last English page again, one word changed */
		g_rng = prev_state;
	prev_state = g_rng;
	random_words(w, 200);
	if (i % 11 == 0)
		w[0] = 7;
	return join(w, 200, out);
}

static uint32_t g_codec = NDF_CODEC_RAW;

static int write_block(struct ndf_writer *nw, uint8_t *buf, size_t *len, uint32_t *n,
		       uint64_t first)
{
	int rc = *n ? ndf_write_block(nw, *n, g_codec, first, buf, *len) : 0;
	*len = 0;
	*n = 0;
	return rc;
}

static int write_section(FILE *fp, const char *path, uint32_t file_no, int docs)
{
	struct ndf_header h = {.version = NDF_VERSION, .kind = NDF_KIND_DOCS,
				 .aux = DOCREC_VERSION};
	struct ndf_writer *nw = ndf_writer_open(fp, path, &h);
	static uint8_t buf[1 << 20];
	static char text[MAXW * 12];
	size_t len = 0;
	uint32_t n = 0;
	uint64_t first = 0;
	int rc = nw ? 0 : -1;
	for (int i = 0; i < docs && !rc; i++) {
		const size_t tl = synth_text((uint64_t)i, text);
		char url[64];
		uint8_t blk[DOCBLOCK_MAX_SIZE];
		snprintf(url, sizeof url, "http://example.com/%u/%d", file_no, i);
		/* the text is one content block (the texts have no '\n') */
		const uint32_t bl = (uint32_t)(docblock_encode(blk, (uint32_t)tl, DB_CONTENT) - blk);
		const struct doc_record d = {
			.doc_id = DOC_ID(file_no, i), .warc_offset = (uint64_t)i * 1000,
			.text_hash = XXH3_64bits(text, tl), .http_status = 200,
			.url = {url, (uint32_t)strlen(url)}, .warc_file = {"synthetic.warc", 14},
			.text = {text, (uint32_t)tl}, .all_text = {text, (uint32_t)tl},
			.blocks = {(const char *)blk, bl}, .n_blocks = 1,
		};
		if (len + docrec_size(&d) > 64 * 1024)
			rc = write_block(nw, buf, &len, &n, first);
		if (!n)
			first = d.doc_id;
		len += docrec_encode(&d, buf + len);
		n++;
	}
	if (!rc)
		rc = write_block(nw, buf, &len, &n, first);
	return rc || !nw ? (ndf_writer_abort(nw), -1) : ndf_writer_finish(nw);
}

static int write_docs(const char *path)
{
	FILE *fp = fopen(path, "wb");
	g_rng = 7;
	make_vocab();
	int rc = !fp || write_section(fp, path, 1, 1500) || write_section(fp, path, 2, 700);
	if (fp && fclose(fp))
		rc = 1;
	return rc;
}

int main(int argc, char **argv)
{
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "--write-docs")) {
		if (argc == 4)
			g_codec = (uint32_t)strtoul(argv[3], NULL, 10);
		return write_docs(argv[2]);
	}
	g_rng = test_seed(42);
	make_vocab();
	/* ctx: SimHash of weighted single words (--method simhash); mh: the
	 * default, minhash of word 3-shingles and CJK trigrams; mb: minhash of
	 * bigrams. */
	struct docfp_config c = simhash_words(), d = DOCFP_CONFIG_DEFAULT, e = c;
	e.method = DOCFP_MINHASH;
	e.shingle = 2;
	struct docfp_ctx *ctx = docfp_ctx_new(&c), *ctx2 = docfp_ctx_new(&c);
	struct docfp_ctx *mh = docfp_ctx_new(&d), *mh2 = docfp_ctx_new(&d);
	struct docfp_ctx *mb = docfp_ctx_new(&e), *mb2 = docfp_ctx_new(&e);
	CHECK(ctx && ctx2 && mh && mh2 && mb && mb2);
	if (!ctx || !ctx2 || !mh || !mh2 || !mb || !mb2)
		return test_finish("test_docfp");
	test_config();
	test_identical_and_edit(ctx, ctx2);
	test_identical_and_edit(mh, mh2);
	test_identical_and_edit(mb, mb2);
	test_unrelated(ctx);
	test_unrelated(mh);
	test_unrelated(mb);
	test_order(ctx);
	test_shingle_lines();
	test_shingle3_pinned();
	test_cjk(ctx, 1);
	test_cjk(mh, 0);
	test_cjk(mb, 0);
	test_golden_mixed();
	test_nfc_nfd(ctx);
	test_nfc_nfd(mh);
	test_nfc_nfd(mb);
	test_short(ctx);
	test_short(mh);
	test_reuse(ctx, &c);
	test_minhash(mh, mh2, 3);
	test_minhash(mb, mb2, 2);
	test_golden(mh, ctx);
	docfp_ctx_free(ctx);
	docfp_ctx_free(ctx2);
	docfp_ctx_free(mh);
	docfp_ctx_free(mh2);
	docfp_ctx_free(mb);
	docfp_ctx_free(mb2);
	return test_finish("test_docfp");
}
