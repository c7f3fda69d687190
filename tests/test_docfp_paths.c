/*
 * test_docfp_paths.c - docfp.c's own path for the default's words
 * against its general one.
 *
 * The default fingerprint (minhash of word 3-shingles, no single words)
 * takes runs of word tokens through a path of its own; docfp.c is built
 * a second time here with DOCFP_GENERAL_ONLY (its functions renamed
 * twin_*), where every word goes through the general word_feature().
 * The default's ASCII lines skip the tokens altogether
 * (minhash_ascii_line(), asciiwords.h), and so do those whose other
 * characters are separators read as they stand.
 * The default's shingle hash (shingle3_fold(), the twin's
 * shingle3_xxh3()) must be XXH3 of the three words' bytes.
 * Both must give the same 64 bits, flags, feature count and normalised
 * length on random texts: ASCII words (mixed case, digits, past 64
 * bytes), Latin with accents, Greek, Han, kana, Hangul, CJK and ASCII
 * punctuation, Latin-1 signs, box drawing, a soft hyphen, full-width
 * letters, a combining mark, invalid bytes, controls, empty lines, lines
 * of any length, under the default and with no short-text cut-off.
 */
#define DOCFP_GENERAL_ONLY
#define docfp_config_check twin_docfp_config_check
#define docfp_config_string twin_docfp_config_string
#define docfp_config_hash twin_docfp_config_hash
#define docfp_ctx_new twin_docfp_ctx_new
#define docfp_ctx_free twin_docfp_ctx_free
#define docfp_text twin_docfp_text
#define docfp_last_norm_len twin_docfp_last_norm_len
#define docfp_last_features twin_docfp_last_features
#include "../common/fingerprint/docfp.c"
#undef docfp_config_check
#undef docfp_config_string
#undef docfp_config_hash
#undef docfp_ctx_new
#undef docfp_ctx_free
#undef docfp_text
#undef docfp_last_norm_len
#undef docfp_last_features
#undef DOCFP_GENERAL_ONLY

#include "testutil.h"

struct docfp_ctx *docfp_ctx_new(const struct docfp_config *c);
void docfp_ctx_free(struct docfp_ctx *ctx);
int docfp_text(struct docfp_ctx *ctx, const char *text, size_t len, uint64_t *fp,
	       uint32_t *flags);
size_t docfp_last_norm_len(const struct docfp_ctx *ctx);
size_t docfp_last_features(const struct docfp_ctx *ctx);

static const char *const pieces[] = {
	" ", " ", " ", "  ", "\n", ", ", ". ", "-", "'", "\t",
	"\xC3\xA9", "Stra\xC3\x9F\x65", "\xCE\xA3\xCE\xAF\xCF\x83\xCF\x85\xCF\x86\xCE\xBF\xCF\x82",
	"\xE4\xB8\xAD\xE6\x96\x87", "\xE6\x96\x87", "\xE3\x81\xB2\xE3\x82\x89",
	"\xEA\xB0\x80\xEB\x82\x98", "\xE3\x80\x82", "\xEF\xBC\x8C", "\xEF\xBC\xA1\xEF\xBC\xA2",
	"e\xCC\x81", "\xFF", "\xE2\x80\x94", "\xF0\xA0\x80\x80",
	"\xC2\xB6", "\xC2\xA0", "\xE2\x80\x99", "\xE2\x94\x80", "\xC2\xAD", "\r", "\x01", "\n\n",
	"------------------------------------",
	"Supercalifragilisticexpialidocious09",
};

/* What the default's plain lines hold besides words: ASCII and the
 * separators read as they stand. */
static const char *const plain[] = {
	" ", " ", ", ", ". ", "\n", "\xC2\xB6", /* ASCII up to here */ "\xE2\x80\x99", "\xE2\x94\x80", "\t", "(",
	"------------------------------------",
	"Supercalifragilisticexpialidocious09",
};

/* A random text of @max bytes at most into @out: mostly ASCII words;
 * every other one without a character that needs NFKC, and of those
 * every other one all ASCII. */
static size_t random_text(uint64_t *st, char *out, size_t max)
{
	const size_t want = (size_t)(test_rand(st) % max);
	size_t n = 0;
	while (n + 40 < want) {
		const uint64_t r = test_rand(st);
		if (r % 3) {
			const int len = 1 + (int)(r >> 8) % 14;
			for (int k = 0; k < len; k++) {
				const uint64_t c = test_rand(st) % 40;
				out[n++] = c < 26 ? (char)('a' + c) : c < 34 ? (char)('A' + c % 26)
									: (char)('0' + c % 10);
			}
			continue;
		}
		const size_t n_plain = want % 4 == 1 ? 5 : sizeof plain / sizeof *plain;
		const char *const p = want % 2 ? plain[(r >> 8) % n_plain]
					       : pieces[(r >> 8) % (sizeof pieces / sizeof *pieces)];
		for (size_t k = 0; p[k]; k++)
			out[n++] = p[k];
	}
	return n;
}

static void compare(const struct docfp_config *c, int texts, uint64_t *st)
{
	struct docfp_ctx *const lib = docfp_ctx_new(c), *const twin = twin_docfp_ctx_new(c);
	CHECK(lib && twin);
	static char text[6000];
	int bad = 0;
	for (int it = 0; lib && twin && it < texts; it++) {
		const size_t n = random_text(st, text, it % 10 ? 600 : sizeof text);
		uint64_t a = 0, b = 0;
		uint32_t fa = 0, fb = 0;
		const int ra = docfp_text(lib, text, n, &a, &fa);
		const int rb = twin_docfp_text(twin, text, n, &b, &fb);
		if ((ra != rb || a != b || fa != fb ||
		     docfp_last_features(lib) != twin_docfp_last_features(twin) ||
		     docfp_last_norm_len(lib) != twin_docfp_last_norm_len(twin)) && bad++ < 3)
			fprintf(stderr, "text %d (%zu bytes): %016llx, general path %016llx\n", it, n,
				(unsigned long long)a, (unsigned long long)b);
	}
	CHECK(bad == 0);
	docfp_ctx_free(lib);
	twin_docfp_ctx_free(twin);
}

/* The default's shingle hash without the bytes in memory is XXH3 of them:
 * random words, and words of few set bits or all set (carries in the sums). */
static void shingle_hashes(uint64_t *st)
{
	static const uint64_t edge[] = {0, 1, ~0ull, 1ull << 63, 0x8000000000000001ull,
					XXH_PRIME64_1, DOCFP_SEED, ~DOCFP_SEED};
	const size_t ne = sizeof edge / sizeof edge[0];
	int bad = 0;
	for (int it = 0; it < 200000; it++) {
		uint64_t w[3];
		for (int k = 0; k < 3; k++)
			w[k] = it % 4 ? test_rand(st) : edge[test_rand(st) % ne];
		bad += shingle3_fold(w[0], w[1], w[2]) != shingle3_xxh3(w[0], w[1], w[2]);
	}
	CHECK(bad == 0);
}

int main(void)
{
	uint64_t st = test_seed(18);
	shingle_hashes(&st);
	struct docfp_config c = DOCFP_CONFIG_DEFAULT;
	compare(&c, 4000, &st);
	c.min_text = 0;
	compare(&c, 4000, &st);
	return test_finish("test_docfp_paths");
}
