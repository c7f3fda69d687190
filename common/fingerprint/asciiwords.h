/*
 * asciiwords.h - textnorm.h's rules for a line of ASCII, 16 bytes at a
 * time: the line folded, and a bitmap of its word bytes.
 *
 * On ASCII text textnorm_run() does little: no NFKC (ASCII is its own
 * form), a word is a run of [0-9A-Za-z] folded to lower case, anything
 * else separates.  Its tokens are then exactly the runs of set bits of
 * the bitmap below, their bytes those of the folded copy at the same
 * places, and its normalised text those words joined by one space: so a
 * caller that needs only the words (docfp.c's default features) can take
 * them from here without token records.  So is a line whose other
 * characters are separators read as they stand (textnorm_ascii_seps()).
 * test_textnorm holds the two to the same words on random lines.
 */
#ifndef NDD_ASCIIWORDS_H
#define NDD_ASCIIWORDS_H

#include <stddef.h>
#include <stdint.h>

/* Room asciiwords_scan() needs: @out bytes and @bits words for @n bytes. */
#define ASCIIWORDS_OUT(n) ((n) + 16)
#define ASCIIWORDS_BITS(n) ((n) / 64 + 2)

/**
 * Write the @n bytes at @in folded to @out (room for ASCIIWORDS_OUT(n)
 * bytes; bytes past @n are scratch) and set bit i of @bits
 * (ASCIIWORDS_BITS(n) words; bit i is word i / 64's bit i % 64) for each
 * word byte i, every bit from @n on clear.  Bytes of 0x80 and above are
 * copied and marked as no word's: right for the separators of
 * textnorm_ascii_seps(), and for nothing else.
 * @return 0 if the bytes are all ASCII, 1 if not.
 */
int asciiwords_scan(const char *in, size_t n, char *out, uint64_t *bits);

/* A walk over the words of a bitmap of asciiwords_scan(). */
struct asciiwords_iter {
	const uint64_t *bits;
	size_t w, n_words; /* the bitmap word at hand, and how many hold bytes */
	uint64_t x;        /* its bits not yet walked */
};

/** Start a walk over the words of the @n bytes whose bitmap is @bits. */
static inline struct asciiwords_iter asciiwords_iter(const uint64_t *bits, size_t n)
{
	const struct asciiwords_iter it = {bits, 0, (n + 63) / 64, bits[0]};
	return it;
}

/**
 * The next word: @return 1 with *@pos its first byte and *@len its
 * length, or 0 when there is none left.
 */
static inline int asciiwords_next(struct asciiwords_iter *it, size_t *pos, size_t *len)
{
	uint64_t x = it->x;
	while (!x) {
		if (++it->w >= it->n_words)
			return 0;
		x = it->bits[it->w];
	}
	const unsigned s = (unsigned)__builtin_ctzll(x);
	const uint64_t filled = x | ((1ull << s) - 1); /* ones up to the word's end */
	*pos = it->w * 64 + s;
	if (~filled) { /* it ends in this bitmap word, as most do */
		*len = (size_t)__builtin_ctzll(~filled) - s;
		it->x = x & (filled + 1);
		return 1;
	}
	/* it goes on: bits[n_words] is clear, so it ends by then */
	uint64_t y;
	do
		y = ~it->bits[++it->w];
	while (!y);
	const unsigned e = (unsigned)__builtin_ctzll(y);
	*len = it->w * 64 + e - *pos;
	it->x = it->bits[it->w] & (~0ull << e);
	return 1;
}

#endif
