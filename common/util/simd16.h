/*
 * simd16.h - the 16-byte scans' few operations, on x86 and elsewhere.
 *
 * The scanners (tag names, text runs, blanks, CSV fields, ASCII runs)
 * test 16 bytes at once: compare them to a byte or a table, make a mask
 * of one bit a byte, find its first bit.  A v16 holds the 16 bytes, and
 * the v16_* functions below are all those scanners use.  Each has two
 * bodies: SSE2 intrinsics on x86-64 (v16_lookup() also needs SSSE3, as
 * the default build's x86-64-v2 has; without it that one operation takes
 * the twin), and the scalar twin, portable C over 16 bytes, on other CPUs
 * or wherever NDD_SIMD_SCALAR is defined.  Both give the same bits for
 * the same bytes.
 *
 * The scalar twin is defined in every build (as v16s and v16s_*), so
 * that tests/test_simd16.c can compare the two bodies in one program,
 * and compile the modules over them a second time with the twin.
 *
 * Masks are unsigned ints with bit i for byte i (v16_mask()).  Bytes
 * are compared as unsigned.
 */
#ifndef NDD_SIMD16_H
#define NDD_SIMD16_H

#include <stdint.h>
#include <string.h>

#if !defined(NDD_SIMD_SCALAR) && defined(__SSE2__) && defined(__x86_64__)
#define NDD_SIMD16_SSE 1
#include <emmintrin.h>
#ifdef __SSSE3__
#include <tmmintrin.h>
#endif
#else
#define NDD_SIMD16_SSE 0
#endif

/* ---- the scalar twin ---- */

/* 16 bytes, in memory order. */
typedef struct {
	uint8_t b[16];
} v16s;

/* The 16 bytes at @p (any alignment). */
static inline v16s v16s_load(const void *p)
{
	v16s r;
	memcpy(r.b, p, 16);
	return r;
}

/* Write @v's 16 bytes at @p (any alignment). */
static inline void v16s_store(void *p, v16s v)
{
	memcpy(p, v.b, 16);
}

/* @c in every byte. */
static inline v16s v16s_splat(uint8_t c)
{
	v16s r;
	memset(r.b, c, 16);
	return r;
}

/* The bytes b0..b15, in that order (a constant table). */
static inline v16s v16s_bytes(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3, uint8_t b4,
			      uint8_t b5, uint8_t b6, uint8_t b7, uint8_t b8, uint8_t b9,
			      uint8_t b10, uint8_t b11, uint8_t b12, uint8_t b13, uint8_t b14,
			      uint8_t b15)
{
	return (v16s){{b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15}};
}

/* Bytes 0..7 the little-endian @lo, bytes 8..15 the little-endian @hi. */
static inline v16s v16s_from64(uint64_t lo, uint64_t hi)
{
	v16s r;
	for (int i = 0; i < 8; i++) {
		r.b[i] = (uint8_t)(lo >> 8 * i);
		r.b[i + 8] = (uint8_t)(hi >> 8 * i);
	}
	return r;
}

/* Bytes 0..7 (v16s_lo64()) or 8..15 (v16s_hi64()) as a little-endian integer. */
static inline uint64_t v16s_lo64(v16s v)
{
	uint64_t x = 0;
	for (int i = 0; i < 8; i++)
		x |= (uint64_t)v.b[i] << 8 * i;
	return x;
}

static inline uint64_t v16s_hi64(v16s v)
{
	uint64_t x = 0;
	for (int i = 0; i < 8; i++)
		x |= (uint64_t)v.b[i + 8] << 8 * i;
	return x;
}

/* 0xFF where the bytes of @a and @b are equal, else 0. */
static inline v16s v16s_eq(v16s a, v16s b)
{
	for (int i = 0; i < 16; i++)
		a.b[i] = a.b[i] == b.b[i] ? 0xFF : 0;
	return a;
}

/* 0xFF where the byte of @a is <= that of @b (unsigned), else 0. */
static inline v16s v16s_le(v16s a, v16s b)
{
	for (int i = 0; i < 16; i++)
		a.b[i] = a.b[i] <= b.b[i] ? 0xFF : 0;
	return a;
}

/* The larger of the bytes of @a and @b (unsigned). */
static inline v16s v16s_max(v16s a, v16s b)
{
	for (int i = 0; i < 16; i++)
		a.b[i] = a.b[i] > b.b[i] ? a.b[i] : b.b[i];
	return a;
}

static inline v16s v16s_and(v16s a, v16s b)
{
	for (int i = 0; i < 16; i++)
		a.b[i] &= b.b[i];
	return a;
}

static inline v16s v16s_or(v16s a, v16s b)
{
	for (int i = 0; i < 16; i++)
		a.b[i] |= b.b[i];
	return a;
}

/* @a and not @b, bitwise. */
static inline v16s v16s_andnot(v16s a, v16s b)
{
	for (int i = 0; i < 16; i++)
		a.b[i] &= (uint8_t)~b.b[i];
	return a;
}

/* Byte by byte, modulo 256. */
static inline v16s v16s_add(v16s a, v16s b)
{
	for (int i = 0; i < 16; i++)
		a.b[i] = (uint8_t)(a.b[i] + b.b[i]);
	return a;
}

static inline v16s v16s_sub(v16s a, v16s b)
{
	for (int i = 0; i < 16; i++)
		a.b[i] = (uint8_t)(a.b[i] - b.b[i]);
	return a;
}

/* Each byte's high half, 0..15. */
static inline v16s v16s_high_nibbles(v16s v)
{
	for (int i = 0; i < 16; i++)
		v.b[i] >>= 4;
	return v;
}

/* Bytes 0..7 of @a and @b interleaved: a0 b0 a1 b1 ... a7 b7. */
static inline v16s v16s_zip_lo(v16s a, v16s b)
{
	v16s r;
	for (int i = 0; i < 8; i++) {
		r.b[2 * i] = a.b[i];
		r.b[2 * i + 1] = b.b[i];
	}
	return r;
}

/* Byte i: @table's byte @idx.b[i] & 15, or 0 where @idx.b[i] >= 0x80
 * (SSSE3's pshufb). */
static inline v16s v16s_lookup(v16s table, v16s idx)
{
	v16s r;
	for (int i = 0; i < 16; i++)
		r.b[i] = idx.b[i] & 0x80 ? 0 : table.b[idx.b[i] & 15];
	return r;
}

/* Bit i set where byte i has its top bit set. */
static inline unsigned v16s_mask(v16s v)
{
	unsigned m = 0;
	for (int i = 0; i < 16; i++)
		m |= (unsigned)(v.b[i] >> 7) << i;
	return m;
}

/* ---- the v16 the scanners use ---- */

#if NDD_SIMD16_SSE
typedef __m128i v16;

static inline v16 v16_load(const void *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

static inline void v16_store(void *p, v16 v)
{
	_mm_storeu_si128((__m128i *)p, v);
}

static inline v16 v16_splat(uint8_t c)
{
	return _mm_set1_epi8((char)c);
}

static inline v16 v16_bytes(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3, uint8_t b4,
			    uint8_t b5, uint8_t b6, uint8_t b7, uint8_t b8, uint8_t b9,
			    uint8_t b10, uint8_t b11, uint8_t b12, uint8_t b13, uint8_t b14,
			    uint8_t b15)
{
	return _mm_setr_epi8((char)b0, (char)b1, (char)b2, (char)b3, (char)b4, (char)b5,
			     (char)b6, (char)b7, (char)b8, (char)b9, (char)b10, (char)b11,
			     (char)b12, (char)b13, (char)b14, (char)b15);
}

static inline v16 v16_from64(uint64_t lo, uint64_t hi)
{
	return _mm_set_epi64x((long long)hi, (long long)lo);
}

static inline uint64_t v16_lo64(v16 v)
{
	return (uint64_t)_mm_cvtsi128_si64(v);
}

static inline uint64_t v16_hi64(v16 v)
{
	return (uint64_t)_mm_cvtsi128_si64(_mm_srli_si128(v, 8));
}

static inline v16 v16_eq(v16 a, v16 b)
{
	return _mm_cmpeq_epi8(a, b);
}

static inline v16 v16_le(v16 a, v16 b)
{
	return _mm_cmpeq_epi8(_mm_min_epu8(a, b), a);
}

static inline v16 v16_max(v16 a, v16 b)
{
	return _mm_max_epu8(a, b);
}

static inline v16 v16_and(v16 a, v16 b)
{
	return _mm_and_si128(a, b);
}

static inline v16 v16_or(v16 a, v16 b)
{
	return _mm_or_si128(a, b);
}

static inline v16 v16_andnot(v16 a, v16 b)
{
	return _mm_andnot_si128(b, a);
}

static inline v16 v16_add(v16 a, v16 b)
{
	return _mm_add_epi8(a, b);
}

static inline v16 v16_sub(v16 a, v16 b)
{
	return _mm_sub_epi8(a, b);
}

static inline v16 v16_high_nibbles(v16 v)
{
	return _mm_and_si128(_mm_srli_epi16(v, 4), _mm_set1_epi8(0x0F));
}

static inline v16 v16_zip_lo(v16 a, v16 b)
{
	return _mm_unpacklo_epi8(a, b);
}

/* Every x86-64 has SSE2; pshufb needs SSSE3 (x86-64-v2), and a build
 * for the oldest x86-64 (ARCH=) takes the twin for this one operation
 * rather than for all of them. */
static inline v16 v16_lookup(v16 table, v16 idx)
{
#ifdef __SSSE3__
	return _mm_shuffle_epi8(table, idx);
#else
	v16s t, i;
	_mm_storeu_si128((__m128i *)t.b, table);
	_mm_storeu_si128((__m128i *)i.b, idx);
	const v16s r = v16s_lookup(t, i);
	return _mm_loadu_si128((const __m128i *)r.b);
#endif
}

static inline unsigned v16_mask(v16 v)
{
	return (unsigned)_mm_movemask_epi8(v);
}
#else
typedef v16s v16;
#define v16_load v16s_load
#define v16_store v16s_store
#define v16_splat v16s_splat
#define v16_bytes v16s_bytes
#define v16_from64 v16s_from64
#define v16_lo64 v16s_lo64
#define v16_hi64 v16s_hi64
#define v16_eq v16s_eq
#define v16_le v16s_le
#define v16_max v16s_max
#define v16_and v16s_and
#define v16_or v16s_or
#define v16_andnot v16s_andnot
#define v16_add v16s_add
#define v16_sub v16s_sub
#define v16_high_nibbles v16s_high_nibbles
#define v16_zip_lo v16s_zip_lo
#define v16_lookup v16s_lookup
#define v16_mask v16s_mask
#endif

/* ---- on both ---- */

/* All zero. */
static inline v16 v16_zero(void)
{
	return v16_splat(0);
}

/* The bits of a 16-bit mask @m set, counted (with a popcnt instruction
 * where the build has one, else without the call to libgcc that
 * __builtin_popcount() makes there). */
static inline unsigned mask16_count(unsigned m)
{
#ifdef __POPCNT__
	return (unsigned)__builtin_popcount(m);
#else
	m = m - ((m >> 1) & 0x5555u);
	m = (m & 0x3333u) + ((m >> 2) & 0x3333u);
	m = (m + (m >> 4)) & 0x0F0Fu;
	return (m + (m >> 8)) & 0x1Fu;
#endif
}

#endif
