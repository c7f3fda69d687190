/*
 * codec.c - prefix/Huffman block codec for sorted fingerprint tables.
 *
 * Format and API: codec.h.  Three parts:
 *
 *  1. Code construction: Huffman lengths by the two-queue method over
 *     the frequency-sorted symbols, then a length limit of 15 bits by
 *     clamping and repairing the Kraft sum (lengthen the least frequent
 *     codes just below the limit, then give any slack back to the most
 *     frequent ones).  Lengths then define the canonical code, which is
 *     all that is stored.
 *
 *  2. Encoding: a 64-bit MSB-first bit writer, one pass per stream.
 *
 *  3. Decoding, in three passes over the block:
 *       codes:    a refilled 64-bit bit buffer (refill branch-free, three
 *                 codes per refill since 3 x 15 <= 56), one table lookup
 *                 per code; the symbols are parked in keys[] as scratch.
 *                 This pass is the only serial chain: lookup -> shift.
 *       suffixes: the suffix stream's start is now known, and each
 *                 suffix's position is a running sum, so the unaligned
 *                 loads are independent of each other; the key is then
 *                 rebuilt with two table masks, no branch on n.
 *       indices:  a fixed-width unpack.
 *     Every load of 8 bytes is preceded by a check that the 8 bytes lie
 *     inside the payload; near the end a byte-wise reader takes over
 *     that treats bytes past the end as zeros, and the lengths are
 *     checked against the payload size once the code pass knows them.
 */
#include "tables/codec.h"

#include <assert.h>
#include <string.h>

#define ONE_LEN (1u << CODEC_MAX_LEN) /* Kraft sum of a complete code */

static inline void store_be64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, 8);
}

static inline uint64_t load_be64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* ---- 1. code construction ---- */

/* Sort the used symbols by ascending frequency (ties by symbol, so the
 * result does not depend on the sort's stability). */
static unsigned sort_used(const uint64_t *f, unsigned nsym, uint8_t *ord)
{
	unsigned m = 0;
	for (unsigned s = 0; s < nsym; s++) {
		if (!f[s])
			continue;
		unsigned k = m++;
		while (k > 0 && f[ord[k - 1]] > f[s]) {
			ord[k] = ord[k - 1];
			k--;
		}
		ord[k] = (uint8_t)s;
	}
	return m;
}

/* Unlimited Huffman code lengths of the m >= 2 symbols in ord[] (ascending
 * frequency): leaves and merged nodes are both produced in ascending
 * weight order, so the two smallest are always at the queue heads. */
static void huffman_depths(const uint64_t *f, const uint8_t *ord, unsigned m, uint8_t *len)
{
	uint64_t w[2 * CODEC_SYMBOLS];
	unsigned parent[2 * CODEC_SYMBOLS], depth[2 * CODEC_SYMBOLS];
	unsigned leaf = 0, node = m;

	for (unsigned i = 0; i < m; i++)
		w[i] = f[ord[i]];
	for (unsigned k = m; k < 2 * m - 1; k++) {
		unsigned pick[2];
		for (int j = 0; j < 2; j++) {
			if (leaf < m && (node >= k || w[leaf] <= w[node]))
				pick[j] = leaf++;
			else
				pick[j] = node++;
		}
		w[k] = w[pick[0]] + w[pick[1]];
		parent[pick[0]] = parent[pick[1]] = k;
	}
	depth[2 * m - 2] = 0;
	for (unsigned k = 2 * m - 2; k-- > 0;)
		depth[k] = depth[parent[k]] + 1;
	for (unsigned i = 0; i < m; i++)
		len[ord[i]] = (uint8_t)depth[i];
}

/* Clamp to CODEC_MAX_LEN and repair the Kraft sum, counted in units of
 * 2^-CODEC_MAX_LEN.  Lengthening the longest code below the limit costs
 * the least code space per step; among equals, the least frequent one
 * (ord[] ascending) loses the least.  Then slack from overshooting is
 * given back to the most frequent symbols. */
static void limit_lengths(const uint8_t *ord, unsigned m, uint8_t *len)
{
	uint32_t kraft = 0;
	for (unsigned i = 0; i < m; i++) {
		if (len[ord[i]] > CODEC_MAX_LEN)
			len[ord[i]] = CODEC_MAX_LEN;
		kraft += ONE_LEN >> len[ord[i]];
	}
	while (kraft > ONE_LEN) {
		int best = -1;
		for (unsigned i = 0; i < m; i++)
			if (len[ord[i]] < CODEC_MAX_LEN && (best < 0 || len[ord[i]] > len[best]))
				best = ord[i];
		assert(best >= 0); /* all at the limit means kraft <= 65 units */
		len[best]++;
		kraft -= ONE_LEN >> len[best];
	}
	for (unsigned i = m; i-- > 0;) {
		const unsigned s = ord[i];
		while (len[s] > 1 && kraft + (ONE_LEN >> len[s]) <= ONE_LEN) {
			kraft += ONE_LEN >> len[s];
			len[s]--;
		}
	}
}

/* Length-limited Huffman lengths; 0 for unused symbols.  A lone used
 * symbol gets a 1-bit code (a 0-bit code could not be decoded as a
 * bit-stream position change), no used symbol gives no codes. */
static void huffman_lengths(const uint64_t *f, unsigned nsym, uint8_t *len)
{
	uint8_t ord[CODEC_SYMBOLS];
	const unsigned m = sort_used(f, nsym, ord);

	memset(len, 0, nsym);
	if (m == 1)
		len[ord[0]] = 1;
	if (m < 2)
		return;
	huffman_depths(f, ord, m, len);
	limit_lengths(ord, m, len);
}

/* Canonical codes from c->len (all 1..15, checked by the caller):
 * shorter codes first, equal lengths in symbol order. */
static int assign_codes(struct codec *c)
{
	uint32_t kraft = 0, code = 0;
	unsigned idx = 0;

	memset(c->count, 0, sizeof c->count);
	for (unsigned s = 0; s < CODEC_SYMBOLS; s++) {
		assert(c->len[s] >= 1 && c->len[s] <= CODEC_MAX_LEN);
		c->count[c->len[s]]++;
		kraft += ONE_LEN >> c->len[s];
	}
	if (kraft > ONE_LEN)
		return -1; /* over-subscribed: not a prefix code */
	c->first[0] = 0;
	c->index[0] = 0;
	for (unsigned l = 1; l <= CODEC_MAX_LEN; l++) {
		code = (code + c->count[l - 1]) << 1;
		c->first[l] = (uint16_t)code;
		c->index[l] = (uint8_t)idx;
		idx += c->count[l];
	}
	uint16_t next[CODEC_MAX_LEN + 1];
	memcpy(next, c->first, sizeof next);
	for (unsigned s = 0; s < CODEC_SYMBOLS; s++) {
		const unsigned l = c->len[s];
		c->sorted[c->index[l] + (next[l] - c->first[l])] = (uint8_t)s;
		c->code[s] = next[l]++;
	}
	return 0;
}

/* Canonical decode of one code from the next 15 bits @v, used for codes
 * the primary table does not resolve and to fill that table.
 * @return a one-symbol table entry, or 0 if no code matches. */
static uint32_t decode_slow(const struct codec *c, unsigned v)
{
	for (unsigned l = 1; l <= CODEC_MAX_LEN; l++) {
		const unsigned d = (v >> (CODEC_MAX_LEN - l)) - c->first[l];
		if (d < c->count[l]) {
			const unsigned s = c->sorted[c->index[l] + d];
			return (uint32_t)c->suf[s] << 24 | s << 8 | 1u << 6 | l;
		}
	}
	return 0;
}

/* Pairs halve the serial lookups of the code pass: with random keys
 * most codes are 2-4 bits, so two usually fit in the 11-bit window. */
static void fill_decode_table(struct codec *c)
{
	const unsigned tb = CODEC_TABLE_BITS, pad = CODEC_MAX_LEN - CODEC_TABLE_BITS;
	for (unsigned w = 0; w < (1u << tb); w++) {
		const uint32_t e1 = decode_slow(c, w << pad);
		const unsigned l1 = e1 & 63;
		c->dec[w] = l1 <= tb ? e1 : 0;
		if (!e1 || l1 >= tb)
			continue;
		const uint32_t e2 = decode_slow(c, ((w << l1) & ((1u << tb) - 1)) << pad);
		const unsigned l2 = e2 & 63;
		if (!e2 || l1 + l2 > tb)
			continue;
		c->dec[w] = ((e1 >> 24) + (e2 >> 24)) << 24 | (e2 & 0x7f00) << 8 |
			    (e1 & 0x7f00) | 2u << 6 | (l1 + l2);
	}
}

/* Per-symbol masks that let the decoder rebuild a key without a branch
 * on n (in particular none for n == 64, where shifts by 64 would be UB). */
static void fill_symbol_masks(struct codec *c)
{
	for (unsigned s = 0; s < CODEC_SYMBOLS; s++) {
		if (s == 64) {
			c->keep[s] = UINT64_MAX;
			c->top[s] = 0;
			c->suf[s] = 0;
		} else {
			c->keep[s] = s ? ~(UINT64_MAX >> s) : 0;
			c->top[s] = 1ull << (63 - s);
			c->suf[s] = (uint8_t)(63 - s);
		}
	}
}

static int setup_tables(struct codec *c)
{
	if (assign_codes(c))
		return -1;
	fill_symbol_masks(c); /* before the table: entries carry suf[] */
	fill_decode_table(c);
	return 0;
}

void codec_histogram(const uint64_t *keys, size_t n, uint64_t hist[CODEC_SYMBOLS])
{
	for (size_t i = 1; i < n; i++) {
		assert(keys[i - 1] <= keys[i]);
		hist[codec_symbol(keys[i - 1], keys[i])]++;
	}
}

int codec_build(struct codec *c, const uint64_t hist[CODEC_SYMBOLS])
{
	uint64_t f[CODEC_SYMBOLS], max = 0;
	unsigned shift = 0;

	for (unsigned s = 0; s < CODEC_SYMBOLS; s++)
		max = hist[s] > max ? hist[s] : max;
	/* 40-bit counts keep the Huffman node sums far from overflow */
	while ((max >> shift) >= (1ull << 40))
		shift++;
	for (unsigned s = 0; s < CODEC_SYMBOLS; s++)
		f[s] = (hist[s] >> shift) + 1;
	huffman_lengths(f, CODEC_SYMBOLS, c->len);
	return setup_tables(c);
}

size_t codec_serialized_size(void)
{
	return (CODEC_SYMBOLS + 1) / 2;
}

void codec_serialize(const struct codec *c, uint8_t *out)
{
	for (unsigned s = 0; s < CODEC_SYMBOLS; s += 2) {
		const unsigned hi = s + 1 < CODEC_SYMBOLS ? c->len[s + 1] : 0;
		out[s / 2] = (uint8_t)(c->len[s] | hi << 4);
	}
}

int codec_parse(struct codec *c, const uint8_t *in, size_t len)
{
	if (len < codec_serialized_size())
		return -1;
	for (unsigned s = 0; s < CODEC_SYMBOLS; s++) {
		c->len[s] = (uint8_t)((s & 1) ? in[s / 2] >> 4 : in[s / 2] & 15);
		if (!c->len[s])
			return -1;
	}
	if (in[CODEC_SYMBOLS / 2] >> 4)
		return -1; /* reserved nibble */
	return setup_tables(c);
}

/* ---- 2. encoding ---- */

/* MSB-first writer: acc holds cnt (< 8 between calls) pending bits in
 * its low end; bits above them are stale and never written out. */
struct bitout {
	uint8_t *p;
	uint64_t acc;
	unsigned cnt;
};

/*
 * Fewer than 8 bits are pending on entry (cnt < 8), so up to 56 new ones
 * fit.  All pending bits are stored with one 8-byte big-endian store and
 * the pointer advances over the whole bytes; the bytes past them are
 * scratch that the next store overwrites.  That store may reach 8 bytes
 * past the encoded data, which codec_block_bound() leaves room for.
 */
static inline void put_bits(struct bitout *b, uint64_t v, unsigned nbits)
{
	assert(nbits <= 56 && (nbits == 0 ? v == 0 : v >> (nbits - 1) >> 1 == 0) && b->cnt < 8);
	/* no branch on whether a byte is complete: codes of 1..15 bits make
	 * it a coin toss, and a mispredicted branch costs more than a store */
	b->acc = b->acc << (nbits & 63) | v;
	b->cnt += nbits;
	store_be64(b->p, b->acc << (63 - b->cnt) << 1);
	b->p += b->cnt >> 3;
	b->cnt &= 7;
}

static inline void put_bits64(struct bitout *b, uint64_t v, unsigned nbits)
{
	if (nbits > 56) {
		put_bits(b, v >> 32, nbits - 32);
		v &= UINT32_MAX;
		nbits = 32;
	}
	put_bits(b, v, nbits);
}

static inline void flush_bits(struct bitout *b)
{
	if (b->cnt)
		*b->p++ = (uint8_t)(b->acc << (8 - b->cnt));
	b->cnt = 0;
}

static size_t idx_array_bytes(size_t n, unsigned idx_bits)
{
	return (n * idx_bits + 7) / 8;
}

/* Worst-case sizes of the three streams of a block of n keys (each padded
 * to bytes), and the slack a writer's 8-byte stores need past its data. */
static size_t code_max(size_t n)
{
	return ((n - 1) * CODEC_MAX_LEN + 7) / 8;
}

static size_t suffix_max(size_t n)
{
	return ((n - 1) * 63 + 7) / 8;
}

#define STORE_SLACK 8

size_t codec_block_bound(size_t n, unsigned idx_bits)
{
	assert(idx_bits <= CODEC_MAX_IDX_BITS);
	if (!n)
		return 0;
	return 8 + code_max(n) + STORE_SLACK + suffix_max(n) + STORE_SLACK +
	       idx_array_bytes(n, idx_bits) + STORE_SLACK;
}

/*
 * The three streams are written side by side by three writers, each in its
 * own worst-case area of @out: their dependency chains (pending bits and
 * position) are independent, so the CPU overlaps them, where one writer
 * after another would wait on each other's every update.  The suffix and
 * index streams are then moved down to close the gaps.  @count is a
 * constant where this is inlined: the plain encoder has no test for it in
 * its loop.
 */
static inline __attribute__((always_inline)) size_t
encode_block(const struct codec *c, const uint64_t *keys, const uint32_t *idx, size_t n,
	     unsigned idx_bits, uint8_t *out, uint64_t *hist, int count)
{
	assert(idx_bits <= CODEC_MAX_IDX_BITS);
	if (!n)
		return 0;
	uint8_t *const c0 = out + 8, *const s0 = c0 + code_max(n) + STORE_SLACK;
	uint8_t *const i0 = s0 + suffix_max(n) + STORE_SLACK;
	struct bitout bc = {c0, 0, 0}, bs = {s0, 0, 0}, bi = {i0, 0, 0};
	const uint32_t mask = (uint32_t)((1ull << idx_bits) - 1);

	for (int k = 0; k < 8; k++)
		out[k] = (uint8_t)(keys[0] >> (56 - 8 * k));
	assert(!idx || (idx[0] & ~mask) == 0);
	put_bits(&bi, idx ? idx[0] & mask : 0, idx_bits);
	for (size_t i = 1; i < n; i++) {
		assert(keys[i - 1] <= keys[i]);
		const unsigned s = codec_symbol(keys[i - 1], keys[i]);
		if (count)
			hist[s]++;
		put_bits(&bc, c->code[s], c->len[s]);
		put_bits64(&bs, keys[i] & ~(c->keep[s] | c->top[s]), c->suf[s]);
		assert(!idx || (idx[i] & ~mask) == 0);
		put_bits(&bi, idx ? idx[i] & mask : 0, idx_bits);
	}
	flush_bits(&bc);
	flush_bits(&bs);
	flush_bits(&bi);
	const size_t cl = (size_t)(bc.p - c0), sl = (size_t)(bs.p - s0), il = (size_t)(bi.p - i0);
	memmove(c0 + cl, s0, sl);
	memmove(c0 + cl + sl, i0, il);
	return 8 + cl + sl + il;
}

size_t codec_encode_block(const struct codec *c, const uint64_t *keys, const uint32_t *idx,
			  size_t n, unsigned idx_bits, uint8_t *out)
{
	return encode_block(c, keys, idx, n, idx_bits, out, NULL, 0);
}

size_t codec_encode_block_counted(const struct codec *c, const uint64_t *keys,
				  const uint32_t *idx, size_t n, unsigned idx_bits, uint8_t *out,
				  uint64_t hist[CODEC_SYMBOLS])
{
	return encode_block(c, keys, idx, n, idx_bits, out, hist, 1);
}

/* ---- 3. decoding ---- */

/* Byte-wise read of @nbits (<= 64) bits at bit @bit of in[0..end);
 * bytes past the end read as 0.  The slow path of every reader. */
static uint64_t read_bits_safe(const uint8_t *in, size_t end, size_t bit, unsigned nbits)
{
	uint64_t v = 0;
	while (nbits) {
		const unsigned off = bit & 7;
		const unsigned take = nbits < 8 - off ? nbits : 8 - off;
		const unsigned x = (bit >> 3) < end ? in[bit >> 3] : 0;
		v = v << take | ((x >> (8 - off - take)) & ((1u << take) - 1));
		bit += take;
		nbits -= take;
	}
	return v;
}

/* MSB-first reader for the code stream: the top cnt bits of buf are the
 * stream bits [8 * pos - cnt, 8 * pos); the bits below them are either
 * the stream's next bits or 0, so OR-ing a reload over them is safe. */
struct bitin {
	const uint8_t *in;
	size_t pos, end;
	uint64_t buf;
	unsigned cnt;
};

/* Leaves cnt >= 56. */
static inline void refill(struct bitin *b)
{
	if (b->pos + 8 <= b->end) {
		b->buf |= load_be64(b->in + b->pos) >> b->cnt;
		b->pos += (63 - b->cnt) >> 3;
		b->cnt |= 56;
		return;
	}
	while (b->cnt <= 56) {
		const uint64_t x = b->pos < b->end ? b->in[b->pos] : 0;
		b->buf |= x << (56 - b->cnt);
		b->pos++;
		b->cnt += 8;
	}
}

/* One table lookup: one or two codes (needs cnt >= 15), symbols to
 * out[0] and out[1] (both written: the caller leaves room), their
 * suffix bits added to *total.  @return symbols decoded, -1 if invalid. */
static inline int decode_pair(const struct codec *c, struct bitin *b, uint64_t *out,
			      size_t *total)
{
	uint32_t e = c->dec[b->buf >> (64 - CODEC_TABLE_BITS)];
	if (__builtin_expect(!(e & 63), 0)) {
		e = decode_slow(c, (unsigned)(b->buf >> (64 - CODEC_MAX_LEN)));
		if (!e)
			return -1;
	}
	b->buf <<= e & 63;
	b->cnt -= e & 63;
	out[0] = (e >> 8) & 127;
	out[1] = (e >> 16) & 127;
	*total += e >> 24;
	return (int)(e >> 6 & 3);
}

/* Pass 1: the n-1 codes from byte 8 on, symbols into keys[1..n-1].
 * Bytes past @end read as 0, so the stream may seem to run past it; the
 * caller checks *endbit, where the codes ended (bit offset in the
 * payload), and *sufbits, the total length the symbols announce for
 * the suffixes.  @return 0, or -1 on an invalid code. */
static int decode_codes(const struct codec *c, const uint8_t *in, size_t end, size_t n,
			uint64_t *keys, size_t *endbit, size_t *sufbits)
{
	struct bitin b = { in, 8, end, 0, 0 };
	size_t total = 0, i = 1;

	while (i + 1 < n) {
		refill(&b); /* 3 lookups x 15 bits <= 56 */
		for (int k = 0; k < 3 && i + 1 < n; k++) {
			const int got = decode_pair(c, &b, keys + i, &total);
			if (got < 0)
				return -1;
			i += (size_t)got;
		}
	}
	if (i < n) { /* a last lone code: use only the first of a pair */
		refill(&b);
		uint32_t e = c->dec[b.buf >> (64 - CODEC_TABLE_BITS)];
		if (!(e & 63))
			e = decode_slow(c, (unsigned)(b.buf >> (64 - CODEC_MAX_LEN)));
		if (!e)
			return -1;
		const unsigned s = (e >> 8) & 127;
		b.cnt -= c->len[s];
		keys[i] = s;
		total += c->suf[s];
	}
	*sufbits = total;
	*endbit = b.pos * 8 - b.cnt;
	return 0;
}

/* Pass 2: the suffixes from byte @start, rebuilding keys[1..n-1] from
 * the symbols pass 1 left there.  @return -1 if some key's implicit 1
 * bit was already 1 in its predecessor (the keys would not ascend). */
static int decode_suffixes(const struct codec *c, const uint8_t *in, size_t start, size_t end,
			   size_t n, uint64_t *keys)
{
	uint64_t prev = keys[0], bad = 0;
	size_t bit = start * 8;

	for (size_t i = 1; i < n; i++) {
		const unsigned s = (unsigned)keys[i], r = c->suf[s];
		uint64_t v;
		if (__builtin_expect(r <= 57 && (bit >> 3) + 8 <= end, 1))
			v = ((load_be64(in + (bit >> 3)) << (bit & 7)) >> 1) >> (63 - r);
		else
			v = read_bits_safe(in, end, bit, r);
		bit += r;
		bad |= prev & c->top[s];
		prev = (prev & c->keep[s]) | c->top[s] | v;
		keys[i] = prev;
	}
	return bad ? -1 : 0;
}

/* Pass 3: n fixed-width indices from the array at @p (@len bytes). */
static void decode_idx(const uint8_t *p, size_t len, size_t n, unsigned idx_bits, uint32_t *idx)
{
	size_t bit = 0;

	if (!idx_bits) {
		memset(idx, 0, n * sizeof *idx);
		return;
	}
	/* while bit <= fast, the 8 bytes at bit / 8 are inside the array */
	const size_t fast = len >= 8 ? (len - 8) * 8 : 0;
	size_t i = 0;
	for (; i < n && bit <= fast && len >= 8; i++, bit += idx_bits)
		idx[i] = (uint32_t)((load_be64(p + (bit >> 3)) << (bit & 7)) >> (64 - idx_bits));
	for (; i < n; i++, bit += idx_bits)
		idx[i] = (uint32_t)read_bits_safe(p, len, bit, idx_bits);
}

/* Are any of the padding bits from bit @bit to the end of byte @end of
 * @p set?  The encoder writes them 0; requiring that makes every
 * accepted payload the one encoding of its records, so an altered bit
 * either fails or changes the output. */
static int pad_bits_set(const uint8_t *p, size_t bit, size_t end)
{
	return bit < end * 8 && read_bits_safe(p, end, bit, (unsigned)(end * 8 - bit)) != 0;
}

int codec_decode_block(const struct codec *c, const uint8_t *in, size_t len, size_t n,
		       unsigned idx_bits, uint64_t *keys, uint32_t *idx)
{
	size_t cbits = 0, sufbits = 0;

	if (idx_bits > CODEC_MAX_IDX_BITS || n > SIZE_MAX / 64)
		return -1;
	if (!n)
		return len ? -1 : 0;
	const size_t idx_bytes = idx_array_bytes(n, idx_bits);
	if (len < 8 + idx_bytes)
		return -1;
	const size_t kend = len - idx_bytes;
	/* every code has at least 1 bit: reject a hostile n before looping */
	if ((n - 1) / 8 > kend - 8)
		return -1;
	keys[0] = load_be64(in);
	if (decode_codes(c, in, kend, n, keys, &cbits, &sufbits))
		return -1;
	const size_t cend = (cbits + 7) / 8;
	if (cend > kend || kend - cend != (sufbits + 7) / 8)
		return -1;
	if (pad_bits_set(in, cbits, cend) || pad_bits_set(in, cend * 8 + sufbits, kend) ||
	    pad_bits_set(in + kend, n * idx_bits, idx_bytes))
		return -1;
	if (decode_suffixes(c, in, cend, kend, n, keys))
		return -1;
	if (idx)
		decode_idx(in + kend, idx_bytes, n, idx_bits, idx);
	return 0;
}
