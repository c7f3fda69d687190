/*
 * test_codec.c - unit tests of the prefix/Huffman block codec (codec.h).
 *
 * Round trips over block sizes, key patterns, index widths and codes
 * built from ordinary and degenerate histograms; the serialized code;
 * and hostile input: garbage, truncated, extended and bit-flipped
 * payloads, which must fail cleanly (the suite also runs under ASan,
 * and every buffer is malloc'ed to its exact size so that an overread
 * of even one byte is caught).  Seeded: TEST_SEED=N replays a run.
 */
#include "tables/codec.h"
#include "testutil.h"

#include <string.h>

static uint64_t rng;

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* n sorted random keys; @spread < 64 keeps them in a window of 2^spread
 * so that neighbours share long prefixes (and equal keys occur). */
static uint64_t *random_keys(size_t n, unsigned spread)
{
	uint64_t *k = malloc(n * sizeof *k);
	const uint64_t base = test_rand(&rng);
	for (size_t i = 0; i < n; i++) {
		const uint64_t r = test_rand(&rng);
		k[i] = spread >= 64 ? r : (base & ~((1ull << spread) - 1)) | (r >> (64 - spread));
	}
	qsort(k, n, sizeof *k, cmp_u64);
	return k;
}

static uint32_t *random_idx(size_t n, unsigned bits)
{
	uint32_t *x = malloc(n * sizeof *x + 1);
	for (size_t i = 0; i < n; i++)
		x[i] = bits ? (uint32_t)(test_rand(&rng) >> (64 - bits)) : 0;
	return x;
}

/* Encode into an exact-size buffer; @return it (caller frees), *len set. */
static uint8_t *encode(const struct codec *c, const uint64_t *keys, const uint32_t *idx,
		       size_t n, unsigned bits, size_t *len)
{
	const size_t bound = codec_block_bound(n, bits);
	uint8_t *tmp = malloc(bound + 1);
	*len = codec_encode_block(c, keys, idx, n, bits, tmp);
	CHECK(*len <= bound);
	/* the counting encoder: the same bytes, and the block's transitions
	 * counted as codec_histogram() counts them (added to what is there) */
	uint64_t got[CODEC_SYMBOLS], want[CODEC_SYMBOLS] = {0};
	for (unsigned s = 0; s < CODEC_SYMBOLS; s++)
		got[s] = s;
	uint8_t *again = malloc(bound + 1);
	CHECK(codec_encode_block_counted(c, keys, idx, n, bits, again, got) == *len);
	CHECK(*len == 0 || memcmp(tmp, again, *len) == 0);
	codec_histogram(keys, n, want);
	for (unsigned s = 0; s < CODEC_SYMBOLS; s++)
		CHECK_EQ_U64(got[s], want[s] + s);
	free(again);
	uint8_t *out = malloc(*len + 1);
	memcpy(out, tmp, *len);
	free(tmp);
	return out;
}

/* Encode, decode (with and without indices), compare. */
static void round_trip(const struct codec *c, const uint64_t *keys, const uint32_t *idx,
		       size_t n, unsigned bits)
{
	size_t len;
	uint8_t *p = encode(c, keys, idx, n, bits, &len);
	uint64_t *k = malloc(n * sizeof *k + 1);
	uint32_t *x = malloc(n * sizeof *x + 1);

	CHECK(codec_decode_block(c, p, len, n, bits, k, x) == 0);
	CHECK(n == 0 || memcmp(k, keys, n * sizeof *k) == 0);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_U64(x[i], idx ? idx[i] : 0);
	memset(k, 0, n * sizeof *k);
	CHECK(codec_decode_block(c, p, len, n, bits, k, NULL) == 0);
	CHECK(n == 0 || memcmp(k, keys, n * sizeof *k) == 0);
	free(p);
	free(k);
	free(x);
}

static void build_from(struct codec *c, const uint64_t *keys, size_t n)
{
	uint64_t hist[CODEC_SYMBOLS] = { 0 };
	codec_histogram(keys, n, hist);
	CHECK(codec_build(c, hist) == 0);
}

static const unsigned widths[] = { 0, 1, 17, 32 };

static void test_random_sizes(void)
{
	static const size_t sizes[] = { 1, 2, 3, 64, 1000 };
	static const unsigned spreads[] = { 64, 40, 12 };
	struct codec c;

	for (size_t si = 0; si < 3; si++)
		for (size_t ni = 0; ni < sizeof sizes / sizeof *sizes; ni++) {
			const size_t n = sizes[ni];
			uint64_t *k = random_keys(n, spreads[si]);
			build_from(&c, k, n);
			for (size_t w = 0; w < 4; w++) {
				uint32_t *x = random_idx(n, widths[w]);
				round_trip(&c, k, x, n, widths[w]);
				free(x);
			}
			round_trip(&c, k, NULL, n, 9);
			free(k);
		}
}

/* Patterns: all equal (n = 64), last-bit steps (n = 63, no suffix bits),
 * 0 -> UINT64_MAX (n = 0, a 63-bit suffix: the long read path). */
static void test_patterns(void)
{
	enum { N = 300 };
	uint64_t k[N];
	uint32_t x[N];
	struct codec c;

	for (size_t i = 0; i < N; i++) {
		k[i] = 0x0123456789abcdefull;
		x[i] = (uint32_t)i;
	}
	build_from(&c, k, N);
	round_trip(&c, k, x, N, 9);
	for (size_t i = 0; i < N; i++)
		k[i] = 0xfedcba9876543210ull + (i / 2) * 0x100 + (i & 1);
	round_trip(&c, k, x, N, 17);
	build_from(&c, k, N);
	round_trip(&c, k, x, N, 32);
	const uint64_t ext[] = { 0, 0, 1, UINT64_MAX >> 1, 1ull << 63, UINT64_MAX - 1, UINT64_MAX,
				 UINT64_MAX };
	round_trip(&c, ext, NULL, 8, 0);
	round_trip(&c, ext + 1, NULL, 1, 0);
	const uint64_t two[] = { 0, UINT64_MAX };
	round_trip(&c, two, NULL, 2, 32);
	build_from(&c, ext, 8);
	round_trip(&c, ext, x, 8, 3);
	round_trip(&c, k, NULL, 0, 5); /* empty block: 0 bytes */
	CHECK(codec_block_bound(0, 5) == 0);
}

static void test_histogram(void)
{
	const uint64_t k[] = { 5, 5, 6, 1ull << 63, UINT64_MAX };
	uint64_t hist[CODEC_SYMBOLS] = { 0 };
	hist[64] = 10;
	codec_histogram(k, 5, hist);
	CHECK_EQ_U64(hist[64], 11); /* adds to what is there */
	CHECK_EQ_U64(hist[62], 1); /* 5 ^ 6 = 3: 62 leading zeros */
	CHECK_EQ_U64(hist[0], 1);
	CHECK_EQ_U64(hist[1], 1);
	CHECK_EQ_U64(codec_symbol(5, 6), 62);
	CHECK_EQ_U64(codec_symbol(7, 7), 64);
	CHECK_EQ_U64(codec_symbol(6, 7), 63);
}

/* Kraft sum of the serialized lengths, in units of 2^-15; checks every
 * length is 1..15. */
static uint32_t kraft(const struct codec *c)
{
	uint8_t ser[64];
	uint32_t sum = 0;
	codec_serialize(c, ser);
	for (unsigned s = 0; s < CODEC_SYMBOLS; s++) {
		const unsigned l = (s & 1) ? ser[s / 2] >> 4 : ser[s / 2] & 15;
		CHECK(l >= 1 && l <= CODEC_MAX_LEN);
		sum += (1u << CODEC_MAX_LEN) >> l;
	}
	return sum;
}

static void check_code_works(const struct codec *c)
{
	uint64_t *k = random_keys(500, 30);
	CHECK(kraft(c) <= 1u << CODEC_MAX_LEN);
	round_trip(c, k, NULL, 500, 0);
	free(k);
	k = random_keys(50, 64);
	round_trip(c, k, NULL, 50, 3);
	free(k);
}

static void test_degenerate_histograms(void)
{
	uint64_t h[CODEC_SYMBOLS] = { 0 };
	struct codec c;

	CHECK(codec_build(&c, h) == 0); /* empty: 63 codes of 6 bits, 2 of 7 */
	CHECK_EQ_U64(kraft(&c), 1u << CODEC_MAX_LEN);
	check_code_works(&c);
	h[40] = 1000000; /* one symbol used */
	CHECK(codec_build(&c, h) == 0);
	CHECK(c.len[40] == 1);
	check_code_works(&c);
	h[64] = 1; /* two */
	CHECK(codec_build(&c, h) == 0);
	check_code_works(&c);
	for (unsigned s = 0; s < CODEC_SYMBOLS; s++) /* Fibonacci-like: limit active */
		h[s] = s < 62 ? 1ull << s : UINT64_MAX - s;
	CHECK(codec_build(&c, h) == 0);
	CHECK_EQ_U64(kraft(&c), 1u << CODEC_MAX_LEN);
	check_code_works(&c);
	for (unsigned s = 0; s < CODEC_SYMBOLS; s++) /* sums would overflow */
		h[s] = UINT64_MAX;
	CHECK(codec_build(&c, h) == 0);
	check_code_works(&c);
}

static void test_serialize(void)
{
	uint64_t *k = random_keys(2000, 64);
	struct codec c, d;
	uint8_t ser[40], ser2[40];

	build_from(&c, k, 2000);
	CHECK(codec_serialized_size() == 33);
	codec_serialize(&c, ser);
	CHECK(codec_parse(&d, ser, 33) == 0);
	CHECK(memcmp(c.len, d.len, sizeof c.len) == 0);
	CHECK(memcmp(c.code, d.code, sizeof c.code) == 0);
	codec_serialize(&d, ser2);
	CHECK(memcmp(ser, ser2, 33) == 0);
	round_trip(&d, k, NULL, 2000, 0);
	CHECK(codec_parse(&d, ser, 32) == -1); /* short */
	ser2[32] |= 0x10;
	CHECK(codec_parse(&d, ser2, 33) == -1); /* reserved nibble */
	memcpy(ser2, ser, 33);
	ser2[3] &= 0xf0;
	CHECK(codec_parse(&d, ser2, 33) == -1); /* a symbol without a code */
	memset(ser2, 0x11, 33);
	ser2[32] = 1;
	CHECK(codec_parse(&d, ser2, 33) == -1); /* 65 codes of 1 bit */
	memcpy(ser2, ser, 33);
	for (unsigned b = 0; b < 33 && kraft(&c) == 1u << CODEC_MAX_LEN; b++)
		if ((ser2[b] & 15) > 1) { /* shorten one code of a complete code */
			ser2[b]--;
			CHECK(codec_parse(&d, ser2, 33) == -1);
			break;
		}
	free(k);
}

/* An incomplete code (all lengths 15): accepted, encodes anything with
 * the longest codes (the bound must hold), and unused words fail. */
static void test_incomplete_code(void)
{
	uint8_t ser[33];
	struct codec c;
	memset(ser, 0xff, sizeof ser);
	ser[32] = 0x0f;
	CHECK(codec_parse(&c, ser, sizeof ser) == 0);
	check_code_works(&c);
	const uint64_t k[] = { 0, UINT64_MAX };
	round_trip(&c, k, NULL, 2, 32);
	uint8_t p[8 + 2 + 1] = { 0 };
	uint64_t out[2];
	p[8] = 0xff; /* code word 1111111111111110 is not in the code */
	p[9] = 0xfe;
	CHECK(codec_decode_block(&c, p, sizeof p, 2, 0, out, NULL) == -1);
}

/* Decode @len bytes copied into an exact-size buffer. */
static int decode_copy(const struct codec *c, const uint8_t *src, size_t len, size_t n,
		       unsigned bits, uint64_t *k, uint32_t *x)
{
	uint8_t *p = malloc(len + 1);
	if (len)
		memcpy(p, src, len);
	const int rc = codec_decode_block(c, p, len, n, bits, k, x);
	free(p);
	return rc;
}

static void test_truncated_and_flipped(void)
{
	enum { N = 150 };
	uint64_t *keys = random_keys(N, 64), k[N + 1];
	uint32_t *idx = random_idx(N, 17), x[N + 1];
	struct codec c;
	size_t len;

	build_from(&c, keys, N);
	uint8_t *p = encode(&c, keys, idx, N, 17, &len);
	for (size_t l = 0; l < len; l++)
		CHECK(decode_copy(&c, p, l, N, 17, k, x) == -1);
	uint8_t *longer = calloc(len + 1, 1);
	memcpy(longer, p, len);
	CHECK(decode_copy(&c, longer, len + 1, N, 17, k, x) == -1);
	CHECK(decode_copy(&c, p, len, N + 1, 17, k, x) == -1);
	CHECK(decode_copy(&c, p, len, N, 18, k, x) == -1);
	CHECK(decode_copy(&c, p, len, N, 33, k, x) == -1);
	CHECK(decode_copy(&c, p, len, SIZE_MAX / 2, 17, k, x) == -1);
	CHECK(decode_copy(&c, p, len, 0, 17, k, x) == -1);
	int failed = 0, changed = 0;
	for (size_t bit = 0; bit < len * 8; bit++) {
		p[bit / 8] ^= (uint8_t)(0x80 >> (bit % 8));
		const int rc = decode_copy(&c, p, len, N, 17, k, x);
		p[bit / 8] ^= (uint8_t)(0x80 >> (bit % 8));
		if (rc)
			failed++;
		else if (memcmp(k, keys, N * sizeof *k) || memcmp(x, idx, N * sizeof *x))
			changed++;
	}
	/* the encoding is unique: no flip may go unnoticed */
	CHECK_EQ_U64(failed + changed, len * 8);
	printf("flips: %d rejected, %d decoded to other records\n", failed, changed);
	free(longer);
	free(p);
	free(keys);
	free(idx);
}

/* Random bytes, random lengths, random n: -1 or 0, never a crash. */
static void test_garbage(void)
{
	uint64_t *keys = random_keys(400, 64);
	struct codec c;
	uint64_t k[400];
	uint32_t x[400];
	uint8_t buf[600];
	int ok = 0;

	build_from(&c, keys, 400);
	for (int round = 0; round < 20000; round++) {
		const size_t len = test_rand(&rng) % sizeof buf;
		const size_t n = test_rand(&rng) % 400;
		const unsigned bits = (unsigned)(test_rand(&rng) % 34);
		for (size_t i = 0; i < len; i++)
			buf[i] = (uint8_t)test_rand(&rng);
		const int rc = decode_copy(&c, buf, len, n, bits, k, x);
		CHECK(rc == 0 || rc == -1);
		ok += rc == 0;
	}
	printf("garbage: %d of 20000 decoded\n", ok);
	free(keys);
}

/* Valid blocks with a random run of bytes overwritten: these get past
 * the length checks and exercise the decoding passes themselves. */
static void test_mutated(void)
{
	enum { N = 120 };
	struct codec c;
	uint64_t k[N];
	uint32_t x[N];
	int ok = 0;

	for (int round = 0; round < 3000; round++) {
		const size_t n = 1 + test_rand(&rng) % N;
		const unsigned bits = (unsigned)(test_rand(&rng) % 33);
		uint64_t *keys = random_keys(n, 8 + (unsigned)(test_rand(&rng) % 57));
		uint32_t *idx = random_idx(n, bits);
		size_t len;
		build_from(&c, keys, n);
		uint8_t *p = encode(&c, keys, idx, n, bits, &len);
		const size_t at = test_rand(&rng) % len;
		const size_t run = 1 + test_rand(&rng) % (len - at);
		for (size_t i = at; i < at + run; i++)
			p[i] = (uint8_t)test_rand(&rng);
		const int rc = codec_decode_block(&c, p, len, n, bits, k, x);
		CHECK(rc == 0 || rc == -1);
		ok += rc == 0;
		free(p);
		free(keys);
		free(idx);
	}
	printf("mutated: %d of 3000 decoded\n", ok);
}

int main(void)
{
	rng = test_seed(20070508);
	test_histogram();
	test_random_sizes();
	test_patterns();
	test_degenerate_histograms();
	test_serialize();
	test_incomplete_code();
	test_truncated_and_flipped();
	test_garbage();
	test_mutated();
	return test_finish("test_codec");
}
