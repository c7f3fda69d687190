/*
 * asciiwords.c - see asciiwords.h.
 *
 * Each 16 bytes: fold, class and store in a few vector operations (a
 * byte is a letter when (b | 0x20) - 'a' is at most 25 unsigned, a
 * digit when b - '0' is at most 9), and their 16 word bits go into the
 * bitmap.  A byte of 0x80 or more is looked for once, at the end, over
 * the OR of every load, not tested 16 bytes at a time: most lines have
 * none.
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

int asciiwords_scan(const char *in, size_t n, char *out, uint64_t *bits)
{
	v16 any = v16_zero();
	uint64_t acc = 0;
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		const v16 v = v16_load(in + i);
		any = v16_or(any, v);
		acc |= (uint64_t)fold16(v, out + i) << (i % 64);
		if (i % 64 == 48) {
			bits[i / 64] = acc;
			acc = 0;
		}
	}
	if (i < n && n >= 16) {
		/* the tail: the last 16 bytes again, their bits from i on */
		const v16 v = v16_load(in + n - 16);
		any = v16_or(any, v);
		acc |= (uint64_t)(fold16(v, out + n - 16) >> (i + 16 - n)) << (i % 64);
	} else if (i < n) {
		/* a short line, padded with NULs: separators, and ASCII */
		char pad[16] = {0};
		memcpy(pad, in, n);
		const v16 v = v16_load(pad);
		any = v16_or(any, v);
		acc = fold16(v, out);
	}
	bits[i / 64] = acc;
	bits[i / 64 + 1] = 0;
	return v16_mask(any) ? 1 : 0;
}
