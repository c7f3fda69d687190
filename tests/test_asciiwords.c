/*
 * test_asciiwords.c - asciiwords.h's words of a line against
 * textnorm_run()'s tokens, on both of its bodies.
 *
 * asciiwords.c is built a second time here over util/simd16.h's scalar
 * twin (NDD_SIMD_SCALAR, renamed twin_asciiwords_scan); the library's is
 * SSE on x86-64.  On random lines of ASCII (every class, words and
 * separator runs across 16- and 64-byte edges, long words), with the
 * separators textnorm reads as they stand and, sometimes, a character
 * that is none of them: wherever asciiwords_scan() says ASCII or
 * textnorm_ascii_seps() accepts the line, the words must be textnorm's
 * tokens (all TN_WORD), byte for byte, and the normalised length theirs;
 * textnorm_ascii_seps() must refuse a line with any other character; the
 * bitmap of bytes of 0x80 and above must be theirs, and asciiwords_first()
 * find the first of them from every place; asciiwords_count() must count
 * the word bytes of stretches of every length and place.
 * Lines sit at the end of an allocation of their own size, so the
 * sanitizers see a read past them.
 */
#define NDD_SIMD_SCALAR
#define asciiwords_scan twin_asciiwords_scan
#include "../common/fingerprint/asciiwords.c"
#undef asciiwords_scan
#undef NDD_SIMD_SCALAR

#include <stdlib.h>
#include <string.h>

#include "fingerprint/textnorm.h"
#include "testutil.h"

int asciiwords_scan(const char *in, size_t n, char *out, uint64_t *bits, uint64_t *other);

typedef int scan_fn(const char *in, size_t n, char *out, uint64_t *bits, uint64_t *other);

static const char *const seps[] = {
	"\xC2\xA0", "\xC2\xB6", "\xC2\xA9", "\xC2\xB7", "\xC2\xBB", "\xE2\x80\x99",
	"\xE2\x80\x9C", "\xE2\x80\x94", "\xE2\x80\xA6", "\xE2\x94\x80", "\xE2\x95\xBF",
	"\xE3\x80\x82", "\xEF\xBC\x8C", "\xE2\x86\x92", "\xE2\x96\xBA", "\xE2\x9C\x93",
	"\xF0\x9F\x98\x80", "\xF0\x9F\x9A\x80",
};
/* none of them a separator read as it stands */
static const char *const others[] = {
	"\xC3\xA9", "\xCC\x81", "\xE4\xB8\xAD", "\xEF\xBC\xA1", "\xFF", "\xC2\xAD",
	"\xC2\x41", /* a lead byte and no continuation */
	"\xE2\x91\xA0", "\xF0\x9F\x84\x80", "\xEF\xB8\x8F",
};

/* A random line of at most @max bytes into @out. */
static size_t random_line(uint64_t *st, char *out, size_t max, int other)
{
	static const char ascii[] = "abcdXYZ0189 @[`{/:.-_\x7f\t\r\x01,'\"AzZa";
	const size_t want = (size_t)(test_rand(st) % max);
	size_t n = 0;
	while (n + 8 < want) {
		const uint64_t r = test_rand(st);
		if (r % 11 == 0) {
			const char *p = other && r % 7 == 0
						? others[(r >> 8) % (sizeof others / sizeof *others)]
						: seps[(r >> 8) % (sizeof seps / sizeof *seps)];
			memcpy(out + n, p, strlen(p));
			n += strlen(p);
			continue;
		}
		/* runs of one kind, some past 64 bytes */
		const size_t len = r % 13 == 0 ? 1 + (r >> 16) % 90 : 1 + (r >> 16) % 9;
		const int word = (r >> 32) & 1;
		for (size_t k = 0; k < len && n + 8 < want; k++) {
			const uint64_t c = test_rand(st);
			out[n++] = word ? "abcXYZ09qQ"[c % 10] : ascii[c % (sizeof ascii - 1)];
		}
	}
	return n;
}

/* Is @other the bitmap of @in's bytes of 0x80 and above, clear past
 * them, @ascii right, and asciiwords_first() of every place so? */
static int ok_other(const char *in, size_t n, const uint64_t *other, int ascii)
{
	int any = 0;
	for (size_t i = 0; i < 64 * ASCIIWORDS_BITS(n); i++) {
		const int bit = other[i / 64] >> (i % 64) & 1;
		const int want = i < n && (unsigned char)in[i] >= 0x80;
		if (bit != want)
			return 0;
		any |= want;
	}
	if (any == ascii)
		return 0;
	size_t next = n;
	for (size_t from = n + 1; from-- > 0;) {
		if (from < n && (unsigned char)in[from] >= 0x80)
			next = from;
		if (asciiwords_first(other, from, n) != next)
			return 0;
	}
	return 1;
}

/* Do @scan's words of @in agree with textnorm_run()'s tokens?  Only when
 * the line is one it takes; @return 1 if so (or not taken). */
static int agrees(scan_fn *scan, struct textnorm *tn, const char *in, size_t n)
{
	char *const out = malloc(ASCIIWORDS_OUT(n));
	uint64_t *const bits = malloc(ASCIIWORDS_BITS(n) * sizeof *bits);
	uint64_t *const other = malloc(ASCIIWORDS_BITS(n) * sizeof *other);
	if (!out || !bits || !other) {
		free(out);
		free(bits);
		free(other);
		return 0;
	}
	const int ascii = !scan(in, n, out, bits, other);
	/* the bytes of 0x80 and above, and any of them in a stretch */
	int high = ok_other(in, n, other, ascii);
	/* the word bytes of stretches of every length and place */
	for (size_t from = 0; from <= n; from += 1 + from / 3)
		for (size_t to = from; to <= n; to += 1 + (to - from) / 2) {
			size_t want = 0;
			for (size_t i = from; i < to; i++)
				want += bits[i / 64] >> (i % 64) & 1;
			high &= asciiwords_count(bits, from, to) == want;
		}
	int ok = textnorm_run(tn, in, n) == 0;
	const int taken = ok && (ascii || textnorm_ascii_seps(in, n));
	size_t at, len, k = 0, bytes = 0;
	struct asciiwords_iter it = asciiwords_iter(bits, n, 0);
	while (taken && ok && asciiwords_next(&it, &at, &len)) {
		ok = k < tn->n_tok && tn->tok[k].kind == TN_WORD && tn->tok[k].len == len &&
		     !memcmp(tn->text + tn->tok[k].off, out + at, len);
		bytes += len;
		k++;
	}
	if (taken && ok)
		ok = k == tn->n_tok && tn->len == (k ? bytes + k - 1 : 0);
	free(out);
	free(bits);
	free(other);
	return ok && high;
}

/* Does a line with a character of others[] ever pass as separators only? */
static int refused(const char *in, size_t n)
{
	for (size_t k = 0; k < sizeof others / sizeof *others; k++) {
		const size_t m = strlen(others[k]);
		for (size_t i = 0; i + m <= n; i++)
			if (!memcmp(in + i, others[k], m))
				return !textnorm_ascii_seps(in, n);
	}
	return 1;
}

int main(void)
{
	uint64_t st = test_seed(23);
	struct textnorm tn = {0};
	int bad = 0;
	for (int it = 0; it < 40000; it++) {
		char buf[600];
		const size_t len = random_line(&st, buf, it % 8 ? 120 : sizeof buf, it % 3 == 0);
		char *const line = malloc(len ? len : 1);
		memcpy(line, buf, len);
		const int ok = agrees(asciiwords_scan, &tn, line, len) &&
			       agrees(twin_asciiwords_scan, &tn, line, len) && refused(line, len);
		if (!ok && bad++ < 3)
			fprintf(stderr, "line %d (%zu bytes) read otherwise: '%.*s'\n", it, len,
				(int)len, line);
		free(line);
	}
	CHECK(bad == 0);
	/* the edges: nothing, only separators, one word filling 64 bytes */
	char w64[64];
	memset(w64, 'Q', sizeof w64);
	CHECK(agrees(asciiwords_scan, &tn, "", 0) && agrees(asciiwords_scan, &tn, "  ,. ", 5));
	CHECK(agrees(asciiwords_scan, &tn, w64, 64) && agrees(twin_asciiwords_scan, &tn, w64, 64));
	CHECK(agrees(asciiwords_scan, &tn, w64, 63) && agrees(asciiwords_scan, &tn, w64, 16));
	textnorm_free(&tn);
	return test_finish("test_asciiwords");
}
