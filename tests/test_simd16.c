/*
 * test_simd16.c - the 16-byte operations of util/simd16.h, both bodies.
 *
 * Every v16_* (the SSE body in an x86-64 build, else the scalar twin)
 * and its scalar twin v16s_* are run on the same random bytes (drawn
 * mostly from those the scanners look for: blanks, '<', '&', letters
 * of either case, bytes with the top bit set) and compared with what
 * the operation's comment says, byte by byte, written out here.
 * tests/test_scalar_twin.c compares the modules built over the twin.
 */
#include "util/simd16.h"
#include "testutil.h"

#include <string.h>

#define ROUNDS 20000

/* A byte, mostly one of those the scanners look for. */
static uint8_t some_byte(uint64_t *st)
{
	static const uint8_t hot[] = {' ', '\t', '\n', '\r', '\f', 0, '<', '>', '/', '=', '&', '"',
		'\'', ',', '.', '!', '?', 'A', 'Z', 'a', 'z', 'g', 'G', 'h', '@', '[', '`', '{',
		0x7F, 0x80, 0xA0, 0xC2, 0xE7, 0xFF, 0x0F, 0x10, 0x1F, 0x20};
	const uint64_t r = test_rand(st);
	return r & 1 ? hot[(r >> 8) % sizeof(hot)] : (uint8_t)(r >> 16);
}

static void some_bytes(uint64_t *st, uint8_t b[16])
{
	for (int i = 0; i < 16; i++)
		b[i] = some_byte(st);
}

/* The bytes of @v and of its twin @w equal @want? */
static int same3(v16 v, v16s w, const uint8_t want[16])
{
	uint8_t a[16], b[16];
	v16_store(a, v);
	v16s_store(b, w);
	return !memcmp(a, want, 16) && !memcmp(b, want, 16);
}

/* Load, store, splat, bytes, from64, lo64, hi64, mask: moving bytes. */
static void test_moves(uint64_t *st)
{
	int bad = 0;
	for (int r = 0; r < ROUNDS; r++) {
		uint8_t x[16], want[16];
		some_bytes(st, x);
		const v16 v = v16_load(x);
		const v16s w = v16s_load(x);
		bad += !same3(v, w, x);
		uint64_t lo = 0, hi = 0;
		unsigned m = 0;
		for (int i = 0; i < 8; i++) {
			lo |= (uint64_t)x[i] << 8 * i;
			hi |= (uint64_t)x[i + 8] << 8 * i;
		}
		for (int i = 0; i < 16; i++)
			m |= (unsigned)(x[i] >> 7) << i;
		bad += v16_lo64(v) != lo || v16s_lo64(w) != lo;
		bad += v16_hi64(v) != hi || v16s_hi64(w) != hi;
		bad += v16_mask(v) != m || v16s_mask(w) != m;
		bad += !same3(v16_from64(lo, hi), v16s_from64(lo, hi), x);
		bad += !same3(v16_bytes(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9],
					x[10], x[11], x[12], x[13], x[14], x[15]),
			      v16s_bytes(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9],
					 x[10], x[11], x[12], x[13], x[14], x[15]),
			      x);
		memset(want, x[0], 16);
		bad += !same3(v16_splat(x[0]), v16s_splat(x[0]), want);
	}
	const uint8_t zero[16] = {0};
	bad += !same3(v16_zero(), v16s_splat(0), zero);
	CHECK(bad == 0);
}

/* The operations of two vectors, and the one-vector ones, byte by byte. */
static void test_ops(uint64_t *st)
{
	int bad = 0;
	for (int r = 0; r < ROUNDS; r++) {
		uint8_t x[16], y[16], want[16];
		some_bytes(st, x);
		some_bytes(st, y);
		if (r & 1) /* equal bytes are rare at random: make some */
			for (int i = 0; i < 16; i += 3)
				y[i] = x[i];
		const v16 a = v16_load(x), b = v16_load(y);
		const v16s c = v16s_load(x), d = v16s_load(y);
#define OP(name, expr)                                        \
	do {                                                  \
		for (int i = 0; i < 16; i++)                  \
			want[i] = (uint8_t)(expr);            \
		bad += !same3(v16_##name(a, b), v16s_##name(c, d), want); \
	} while (0)
		OP(eq, x[i] == y[i] ? 0xFF : 0);
		OP(le, x[i] <= y[i] ? 0xFF : 0);
		OP(max, x[i] > y[i] ? x[i] : y[i]);
		OP(and, x[i] & y[i]);
		OP(or, x[i] | y[i]);
		OP(andnot, x[i] & ~y[i]);
		OP(add, x[i] + y[i]);
		OP(sub, x[i] - y[i]);
		OP(lookup, y[i] & 0x80 ? 0 : x[y[i] & 15]);
#undef OP
		for (int i = 0; i < 8; i++)
			want[2 * i] = x[i], want[2 * i + 1] = y[i];
		bad += !same3(v16_zip_lo(a, b), v16s_zip_lo(c, d), want);
		for (int i = 0; i < 16; i++)
			want[i] = x[i] >> 4;
		bad += !same3(v16_high_nibbles(a), v16s_high_nibbles(c), want);
	}
	CHECK(bad == 0);
}

static void test_count(void)
{
	int bad = 0;
	for (unsigned m = 0; m < 1u << 16; m++) {
		unsigned n = 0;
		for (unsigned k = m; k; k >>= 1)
			n += k & 1;
		bad += mask16_count(m) != n;
	}
	CHECK(bad == 0);
}

int main(void)
{
	uint64_t st = test_seed(16);
	printf("simd16: %s body against the scalar twin\n", NDD_SIMD16_SSE ? "SSE" : "scalar");
	test_moves(&st);
	test_ops(&st);
	test_count();
	return test_finish("test_simd16");
}
