/*
 * nfkc.c - NFKC_Casefold of UTF-8 text by libutf8proc, ASCII copied.
 */
#include "fingerprint/nfkc.h"

#include "util/bytes.h"
#include "util/utf8.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

/* Decompose (compatibility forms too) with full case folding, then compose. */
#define NFKC_CF (UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_CASEFOLD | UTF8PROC_COMPOSE)

/* The first byte at or after @i in [s, s+n) whose high bit is @high (0x80
 * or 0), or n: 8 bytes a step. */
static size_t find_high(const char *s, size_t i, size_t n, uint64_t high)
{
	const uint64_t flip = high ? 0 : ~0ull;
	for (; i + 8 <= n; i += 8) {
		const uint64_t m = (get_le64((const uint8_t *)s + i) ^ flip) & 0x8080808080808080ull;
		if (m)
			return i + (size_t)__builtin_ctzll(m) / 8;
	}
	while (i < n && ((unsigned char)s[i] & 0x80) != high)
		i++;
	return i;
}

/* Room for @extra more bytes of output. */
static int reserve_out(struct nfkc *nf, size_t extra)
{
	if (extra > SIZE_MAX / 4 - nf->len)
		return -1;
	const size_t need = nf->len + extra;
	if (need <= nf->cap)
		return 0;
	size_t cap = nf->cap ? nf->cap : 4096;
	while (cap < need)
		cap *= 2;
	char *const p = realloc(nf->out, cap);
	if (!p)
		return -1;
	nf->out = p;
	nf->cap = cap;
	return 0;
}

/* Room for @n code points in nf->cps. */
static int reserve_cps(struct nfkc *nf, size_t n)
{
	if (n <= nf->cps_cap)
		return 0;
	if (n > SIZE_MAX / 8)
		return -1;
	size_t cap = nf->cps_cap ? nf->cps_cap : 1024;
	while (cap < n)
		cap *= 2;
	int32_t *const p = realloc(nf->cps, cap * sizeof *p);
	if (!p)
		return -1;
	nf->cps = p;
	nf->cps_cap = cap;
	return 0;
}

/* Append the NFKC_Casefold of the valid UTF-8 [s, s+n). */
static int put_valid(struct nfkc *nf, const char *s, size_t n)
{
	utf8proc_ssize_t k;
	for (;;) { /* the library says how many code points it needs */
		k = utf8proc_decompose((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, nf->cps,
				       (utf8proc_ssize_t)nf->cps_cap, NFKC_CF);
		if (k < 0)
			return -1;
		if ((size_t)k <= nf->cps_cap)
			break;
		if (reserve_cps(nf, (size_t)k))
			return -1;
	}
	k = utf8proc_normalize_utf32(nf->cps, k, NFKC_CF);
	if (k < 0 || reserve_out(nf, 4 * (size_t)k))
		return -1;
	for (utf8proc_ssize_t i = 0; i < k; i++)
		nf->len += (size_t)utf8proc_encode_char(nf->cps[i], (utf8proc_uint8_t *)nf->out + nf->len);
	return 0;
}

/*
 * Is @cp its own NFKC_Casefold, and composes with nothing before it (no
 * decomposition, no case folding, combining class 0, never the second of
 * a composition pair, no Hangul jamo)?  Most text of Han, kana, Hangul
 * syllables and lower-case letters of every script is made of such code
 * points, which are copied: one table lookup each instead of the
 * library's four passes.  Such a code point ends what comes before it,
 * for NFKC: nothing composes with it or moves across it.
 */
static int own_form(utf8proc_int32_t cp)
{
	if (cp >= 0x1100 && cp <= 0x11FF)
		return 0;
	const utf8proc_property_t *const pr = utf8proc_get_property(cp);
	return !pr->combining_class && pr->decomp_seqindex == UINT16_MAX &&
	       pr->casefold_seqindex == UINT16_MAX &&
	       (pr->comb_index == UINT16_MAX || pr->comb_index < 0x8000);
}

/*
 * own_form() of every code point of the BMP, one bit each, made once per
 * struct nfkc at its first non-ASCII text (65,536 lookups): a stretch of
 * Chinese or German asks it of every character, and the library's lookup
 * costs several times the bit.
 */
static int own_table(struct nfkc *nf)
{
	if (nf->own)
		return 0;
	nf->own = malloc(0x10000 / 8);
	if (!nf->own)
		return -1;
	for (uint32_t w = 0; w < 0x10000 / 64; w++) {
		uint64_t bits = 0;
		for (uint32_t b = 0; b < 64; b++)
			bits |= (uint64_t)own_form((utf8proc_int32_t)(w * 64 + b)) << b;
		nf->own[w] = bits;
	}
	return 0;
}

static inline int is_own(const struct nfkc *nf, uint32_t cp)
{
	return cp < 0x10000 ? (int)(nf->own[cp >> 6] >> (cp & 63) & 1)
			    : own_form((utf8proc_int32_t)cp);
}

/*
 * Full-width ASCII U+FF01..U+FF5E, Chinese text's commas, full stops and
 * question marks, alone between code points of own_form() (or the ends):
 * NFKC makes it the ASCII character (case folded), which composes with
 * nothing before or after it, so the library is not needed to say so.
 * @return the byte, or 0 if @cp is not one.
 */
static char fullwidth_ascii(uint32_t cp)
{
	if (cp < 0xFF01 || cp > 0xFF5E)
		return 0;
	const char c = (char)(cp - 0xFEE0);
	return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

/*
 * Append the NFKC_Casefold of the non-ASCII bytes [s, end); @lead: the
 * ASCII byte before them is the last byte of the output (a combining mark
 * may compose with it).  Code points of own_form() and invalid bytes are
 * copied; each run of other code points goes to the library with the
 * code point before it, which it may compose with.
 */
static int put_stretch(struct nfkc *nf, const char *s, const char *end, int lead)
{
	const uint8_t *p = (const uint8_t *)s, *const e = (const uint8_t *)end;
	const uint8_t *base = lead ? p - 1 : NULL; /* the last own_form() code point */
	size_t base_out = lead ? nf->len - 1 : 0;  /* where it is in the output */
	while (p < e) {
		/* utf8_get() sets them whenever they are read, but gcc at -O1
		 * (the sanitizer builds) cannot see it: -Wmaybe-uninitialized */
		uint32_t cp = 0, next = 0;
		size_t k = utf8_get(p, (size_t)(e - p), &cp);
		if (!k) { /* invalid: copied, a separator for textnorm */
			nf->out[nf->len++] = (char)*p++;
			base = NULL;
			continue;
		}
		if (is_own(nf, cp)) {
			base = p;
			base_out = nf->len;
			for (size_t i = 0; i < k; i++) /* 2 to 4 bytes: no call */
				nf->out[nf->len + i] = (char)p[i];
			nf->len += k;
			p += k;
			continue;
		}
		const uint8_t *q = p + k;
		while (q < e && (k = utf8_get(q, (size_t)(e - q), &next)) > 0 && !is_own(nf, next))
			q += k;
		const char ascii = q == p + 3 ? fullwidth_ascii(cp) : 0;
		if (ascii) {
			nf->out[nf->len++] = ascii;
			base = NULL;
			p = q;
			continue;
		}
		const uint8_t *const from = base ? base : p;
		if (base)
			nf->len = base_out; /* taken back, to go with the run */
		if (put_valid(nf, (const char *)from, (size_t)(q - from)) ||
		    reserve_out(nf, (size_t)(e - q)))
			return -1;
		base = NULL;
		p = q;
	}
	return 0;
}

int nfkc_casefold(struct nfkc *nf, const char *in, size_t n)
{
	nf->len = 0;
	if (reserve_out(nf, n))
		return -1;
	size_t i = 0;
	while (i < n) {
		const size_t j = find_high(in, i, n, 0x80);
		memcpy(nf->out + nf->len, in + i, j - i);
		nf->len += j - i;
		if (j == n)
			break;
		const size_t e = find_high(in, j, n, 0);
		if (own_table(nf) || put_stretch(nf, in + j, in + e, j > i) || reserve_out(nf, n - e)) {
			nf->len = 0;
			return -1;
		}
		i = e;
	}
	return 0;
}

void nfkc_free(struct nfkc *nf)
{
	free(nf->out);
	free(nf->cps);
	free(nf->own);
	memset(nf, 0, sizeof *nf);
}
