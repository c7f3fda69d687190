/*
 * codec.h - the prefix/Huffman block codec of compressed tables
 * (NDF_CODEC_PREFIX, Manku, Jain and Das Sarma, WWW 2007, section 4).
 *
 * A table is a sorted run of records (key: 64-bit permuted fingerprint,
 * non-decreasing, duplicates allowed; idx: 32-bit document index).
 * Adjacent sorted keys share a long common prefix, so each key after
 * the first of a block is stored as
 *
 *     h(n)  then the 63 - n bits after the first differing bit
 *
 * where n = clz64(prev ^ cur) (0..63), or n = 64 when cur == prev (no
 * bits follow).  The differing bit itself is always 1 in cur, because
 * the keys ascend, so it is implicit.  h() is a canonical Huffman code
 * over the 65 values of n, built from the whole table's histogram and
 * stored once per table (codec_serialize); the blocks only refer to it.
 *
 * Block payload layout (a bit stream, most significant bit first; each
 * part starts on a byte boundary and is padded with 0 bits to one):
 *
 *   +------------------+-----------------+-------------------+-------------+
 *   | first key        | code stream     | suffix stream     | idx array   |
 *   | 8 bytes, MSB     | h(n_1)..h(n_m)  | 63-n_i bits each  | n x idx_bits|
 *   | first (BE)       | m = n_records-1 |                   |             |
 *   +------------------+-----------------+-------------------+-------------+
 *
 * Codes and suffixes are kept in two streams so that the decoder's
 * serial dependency is only the Huffman decode (a few cycles per key);
 * the suffix reads then run with no dependency between them.  The idx
 * array comes last, fixed width, so a reader can locate it from the
 * payload length alone and skip it when it only needs keys.
 *
 * Serialized code (codec_serialize): 33 bytes holding 65 code lengths
 * of 4 bits: byte i has symbol 2i in its low nibble and symbol 2i+1 in
 * its high nibble; the high nibble of byte 32 is reserved (0).  Every
 * length is 1..CODEC_MAX_LEN, lengths alone define the canonical code.
 *
 * Thread safety: a struct codec is read-only after codec_build() or
 * codec_parse(), so any number of threads may encode and decode with
 * one codec at once.  Nothing here allocates, logs or exits.
 */
#ifndef NDD_CODEC_H
#define NDD_CODEC_H

#include <stddef.h>
#include <stdint.h>

#define CODEC_SYMBOLS 65   /* n = 0..63 shared bits, 64 = equal keys */
#define CODEC_MAX_LEN 15   /* longest Huffman code, bits */
#define CODEC_TABLE_BITS 11 /* bits resolved by the primary decode table */
#define CODEC_MAX_IDX_BITS 32

/*
 * A Huffman code with its encode and decode tables.  Fixed size (about
 * 7.5 KiB), no allocation: declare one on the stack or inside your own
 * struct.  Fields are private to codec.c.
 */
struct codec {
	uint8_t len[CODEC_SYMBOLS];   /* code length per symbol, 1..15 */
	uint16_t code[CODEC_SYMBOLS]; /* canonical code, right-aligned */
	/* primary decode table, index = the next 11 bits.  It resolves one
	 * code, or two when both fit in the 11 bits.  Entry: bits 0-5 bits
	 * used (0 = code longer than 11 bits or invalid: slow path), 6-7
	 * number of symbols, 8-14 first symbol, 16-22 second symbol, 24-31
	 * suffix bits of the symbols together */
	uint32_t dec[1u << CODEC_TABLE_BITS];
	/* canonical decode of long codes: codes of length l are
	 * first[l] .. first[l] + count[l] - 1, symbols sorted[index[l]..] */
	uint16_t first[CODEC_MAX_LEN + 1];
	uint16_t count[CODEC_MAX_LEN + 1];
	uint8_t index[CODEC_MAX_LEN + 1];
	uint8_t sorted[CODEC_SYMBOLS];
	/* per symbol n: bits kept from the previous key, the implicit 1 bit,
	 * and the number of suffix bits (so the decoder needs no branches) */
	uint64_t keep[CODEC_SYMBOLS];
	uint64_t top[CODEC_SYMBOLS];
	uint8_t suf[CODEC_SYMBOLS];
};

/**
 * The symbol of one transition: clz64(prev ^ cur), or 64 if equal.
 */
static inline unsigned codec_symbol(uint64_t prev, uint64_t cur)
{
	const uint64_t x = prev ^ cur;
	return x ? (unsigned)__builtin_clzll(x) : 64u;
}

/**
 * Add the symbols of the transitions keys[i-1] -> keys[i], 1 <= i < n,
 * to @hist (which the caller zeroes once, then may feed several runs).
 * Call it once over the whole sorted table rather than per block: the
 * transitions that become first keys of blocks are then counted too,
 * which skews the histogram by one count per block, a negligible cost,
 * and the caller needs no knowledge of the block boundaries.
 * @keys must be non-decreasing.
 */
void codec_histogram(const uint64_t *keys, size_t n, uint64_t hist[CODEC_SYMBOLS]);

/**
 * Build a length-limited (CODEC_MAX_LEN) canonical Huffman code for
 * @hist into @c.  Every symbol gets a code, including those with count
 * 0: each count is first scaled into 40 bits and then incremented by 1.
 * So encoding never fails, whatever keys are later given to it; the
 * price is a few 15-bit codes for unseen symbols, which cost under
 * 0.01 bit per key.  An all-zero histogram gives a near-flat code.
 * @return 0 (the function cannot fail today; -1 is reserved).
 */
int codec_build(struct codec *c, const uint64_t hist[CODEC_SYMBOLS])
	__attribute__((warn_unused_result));

/** Bytes written by codec_serialize() (33). */
size_t codec_serialized_size(void);

/** Write the code lengths of @c to @out (codec_serialized_size() bytes). */
void codec_serialize(const struct codec *c, uint8_t *out);

/**
 * Load a code written by codec_serialize() from @in.  Reads the first
 * codec_serialized_size() bytes; @len is the bytes available.
 * Rejects (returns -1) a short buffer, a length of 0 (every symbol must
 * have a code, so encoding with a parsed code cannot fail either), a
 * non-zero reserved nibble, and an over-subscribed code (Kraft sum
 * above 1).  An incomplete code is accepted; decoding then rejects the
 * unused code words.  On -1, @c is unspecified and must not be used.
 * @return 0 or -1.
 */
int codec_parse(struct codec *c, const uint8_t *in, size_t len)
	__attribute__((warn_unused_result));

/**
 * Worst-case payload bytes of a block of @n records with @idx_bits
 * (0..32) bits per document index: the size of the output buffer to
 * give codec_encode_block().  0 for n == 0.
 */
size_t codec_block_bound(size_t n, unsigned idx_bits);

/**
 * Encode @n records into @out (caller-owned, codec_block_bound(n,
 * idx_bits) bytes).  @keys must be non-decreasing (asserted).  @idx
 * holds n indices of at most @idx_bits bits each (asserted; higher bits
 * are dropped), or is NULL to store all zeros.  Never fails.
 * @return bytes written (0 for n == 0).
 */
size_t codec_encode_block(const struct codec *c, const uint64_t *keys, const uint32_t *idx,
			  size_t n, unsigned idx_bits, uint8_t *out);

/**
 * codec_encode_block(), and the symbols of the block's n - 1 transitions
 * added to @hist as codec_histogram() counts them: an encoder that checks
 * its code against the records it met (compress) then reads each key once.
 */
size_t codec_encode_block_counted(const struct codec *c, const uint64_t *keys,
				  const uint32_t *idx, size_t n, unsigned idx_bits, uint8_t *out,
				  uint64_t hist[CODEC_SYMBOLS]);

/**
 * Decode a block of @n records from @len bytes at @in into the
 * caller-owned @keys (n entries) and @idx (n entries, or NULL to skip
 * the indices; their length is still checked).  @idx_bits must be the
 * value given to the encoder.  Never reads outside in[0..len).
 * Returns -1 if @len is not exactly the size the n records need, if a
 * code word is invalid, if a key does not follow its predecessor in
 * order (its implicit 1 bit is already 1 in the predecessor), if a
 * padding bit is set, or if idx_bits > 32.  So every accepted payload
 * is the one encoding of its records.  The payload carries no checksum:
 * a flipped bit may also decode to other valid records; the container's
 * CRC catches that.  On -1 the contents of @keys
 * and @idx are unspecified (@keys is used as scratch).
 * @return 0 or -1.
 */
int codec_decode_block(const struct codec *c, const uint8_t *in, size_t len, size_t n,
		       unsigned idx_bits, uint64_t *keys, uint32_t *idx)
	__attribute__((warn_unused_result));

#endif
