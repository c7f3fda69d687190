/*
 * asciiwords.h - textnorm.h's rules for ASCII text, 16 bytes at a time:
 * the text folded, a bitmap of its word bytes, and one of its bytes of
 * 0x80 and above.
 *
 * On ASCII text textnorm_run() does little: no NFKC (ASCII is its own
 * form), a word is a run of [0-9A-Za-z] folded to lower case, anything
 * else separates.  Its tokens are then exactly the runs of set bits of
 * the word bitmap, their bytes those of the folded copy at the same
 * places, and its normalised text those words joined by one space: so a
 * caller that needs only the words (docfp.c's default features) can take
 * them from here without token records.  So is a stretch whose other
 * characters are separators read as they stand (textnorm_ascii_seps()).
 * test_asciiwords holds the two to the same words on random lines.
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
 * word byte i, and bit i of @other (as many words) for each byte of 0x80
 * and above; every bit from @n on is clear.  Those bytes are copied and
 * marked as no word's: right for the separators of textnorm_ascii_seps()
 * in a stretch without other characters, and for nothing else.
 * @return 0 if the bytes are all ASCII, 1 if not.
 */
int asciiwords_scan(const char *in, size_t n, char *out, uint64_t *bits, uint64_t *other);

/** @return the first bit set at or after @from in the bitmap @bits of
 * @n bytes, or @n if there is none. */
static inline size_t asciiwords_first(const uint64_t *bits, size_t from, size_t n)
{
	const size_t n_words = (n + 63) / 64;
	size_t w = from / 64;
	if (w >= n_words)
		return n;
	uint64_t x = bits[w] & (~0ull << (from % 64));
	while (!x) {
		if (++w >= n_words)
			return n;
		x = bits[w];
	}
	return w * 64 + (size_t)__builtin_ctzll(x);
}

/** @return the bits set in [@from, @to) of the bitmap @bits: the word
 * bytes there. */
static inline size_t asciiwords_count(const uint64_t *bits, size_t from, size_t to)
{
	if (from >= to)
		return 0;
	const size_t a = from / 64, b = (to - 1) / 64;
	const uint64_t first = ~0ull << (from % 64), last = ~0ull >> (63 - (to - 1) % 64);
	if (a == b)
		return (size_t)__builtin_popcountll(bits[a] & first & last);
	size_t n = (size_t)__builtin_popcountll(bits[a] & first) +
		   (size_t)__builtin_popcountll(bits[b] & last);
	for (size_t w = a + 1; w < b; w++)
		n += (size_t)__builtin_popcountll(bits[w]);
	return n;
}

/* A walk over the words of a bitmap of asciiwords_scan(). */
struct asciiwords_iter {
	const uint64_t *bits;
	size_t w, n_words; /* the bitmap word at hand, and how many hold bytes */
	uint64_t x;        /* its bits not yet walked */
};

/**
 * Start a walk over the words of the @n bytes whose bitmap is @bits,
 * from byte @from (at a word's start or between words), to the end.
 */
static inline struct asciiwords_iter asciiwords_iter(const uint64_t *bits, size_t n, size_t from)
{
	const struct asciiwords_iter it = {bits, from / 64, (n + 63) / 64,
					   bits[from / 64] & (~0ull << (from % 64))};
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
	/* ones up to the word's end; from x alone, not through s, so the next
	 * word's x does not wait for the count of zeros */
	const uint64_t filled = x | (x - 1);
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
