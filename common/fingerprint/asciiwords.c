/*
 * asciiwords.c - see asciiwords.h.
 *
 * Each 16 bytes: fold, class and store in a few vector operations (a
 * byte is a letter when (b | 0x20) - 'a' is at most 25 unsigned, a
 * digit when b - '0' is at most 9), and their 16 word bits go into the
 * bitmap, and the bits of their bytes of 0x80 and above (movemask's own)
 * into another: no branch on them in the loop.  Whole bitmap words
 * first, four vectors each, stored at once (no shift by a running
 * position, no test for a word's end), then the tail's vectors.
 */
#include "fingerprint/asciiwords.h"

#include <string.h>

#include "util/simd16.h"

/* Fold @v into @out; @return the mask of its word bytes. */
static inline unsigned fold16(v16 v, char *out)
{
	const v16 letter = v16_le(v16_sub(v16_or(v, v16_splat(0x20)), v16_splat('a')),
				  v16_splat(25));
	const v16 digit = v16_le(v16_sub(v, v16_splat('0')), v16_splat(9));
	v16_store(out, v16_or(v, v16_and(letter, v16_splat(0x20))));
	return v16_mask(v16_or(letter, digit));
}

int asciiwords_scan(const char *in, size_t n, char *out, uint64_t *bits, uint64_t *other)
{
	uint64_t acc = 0, high = 0, any = 0;
	size_t i = 0;
	for (; i + 64 <= n; i += 64) {
		const v16 v0 = v16_load(in + i), v1 = v16_load(in + i + 16),
			  v2 = v16_load(in + i + 32), v3 = v16_load(in + i + 48);
		bits[i / 64] = (uint64_t)fold16(v0, out + i) |
			       (uint64_t)fold16(v1, out + i + 16) << 16 |
			       (uint64_t)fold16(v2, out + i + 32) << 32 |
			       (uint64_t)fold16(v3, out + i + 48) << 48;
		const uint64_t h = (uint64_t)v16_mask(v0) | (uint64_t)v16_mask(v1) << 16 |
				   (uint64_t)v16_mask(v2) << 32 | (uint64_t)v16_mask(v3) << 48;
		other[i / 64] = h;
		any |= h;
	}
	for (; i + 16 <= n; i += 16) {
		const v16 v = v16_load(in + i);
		acc |= (uint64_t)fold16(v, out + i) << (i % 64);
		high |= (uint64_t)v16_mask(v) << (i % 64);
	}
	if (i < n && n >= 16) {
		/* the tail: the last 16 bytes again, their bits from i on */
		const v16 v = v16_load(in + n - 16);
		const unsigned shift = (unsigned)(i + 16 - n);
		acc |= (uint64_t)(fold16(v, out + n - 16) >> shift) << (i % 64);
		high |= (uint64_t)(v16_mask(v) >> shift) << (i % 64);
	} else if (i < n) {
		/* a short text, padded with NULs: separators, and ASCII */
		char pad[16] = {0};
		memcpy(pad, in, n);
		const v16 v = v16_load(pad);
		acc = fold16(v, out);
		high = v16_mask(v);
	}
	bits[i / 64] = acc;
	other[i / 64] = high;
	bits[i / 64 + 1] = 0;
	other[i / 64 + 1] = 0;
	return (any | high) != 0;
}
