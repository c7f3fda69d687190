/*
 * nfkc.c - NFKC_Casefold of UTF-8 text by libutf8proc, ASCII copied.
 */
#include "fingerprint/nfkc.h"

#include "util/bytes.h"

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

int nfkc_has_non_ascii(const char *s, size_t n)
{
	return find_high(s, 0, n, 0x80) < n;
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
 * Append the NFKC_Casefold of the non-ASCII bytes [s, end); @lead: the
 * ASCII byte before them is the last byte of the output (a combining mark
 * may compose with it).  Code points of own_form() and invalid bytes are
 * copied; each run of other code points goes to the library with the
 * code point before it, which it may compose with.
 */
static int put_stretch(struct nfkc *nf, const char *s, const char *end, int lead)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s, *const e = (const utf8proc_uint8_t *)end;
	const utf8proc_uint8_t *base = lead ? p - 1 : NULL; /* the last own_form() code point */
	size_t base_out = lead ? nf->len - 1 : 0;            /* where it is in the output */
	while (p < e) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate(p, e - p, &cp);
		if (k <= 0) { /* invalid: copied, a separator for textnorm */
			nf->out[nf->len++] = (char)*p++;
			base = NULL;
			continue;
		}
		if (own_form(cp)) {
			base = p;
			base_out = nf->len;
			memcpy(nf->out + nf->len, p, (size_t)k);
			nf->len += (size_t)k;
			p += k;
			continue;
		}
		const utf8proc_uint8_t *q = p + k;
		while (q < e && (k = utf8proc_iterate(q, e - q, &cp)) > 0 && !own_form(cp))
			q += k;
		const utf8proc_uint8_t *const from = base ? base : p;
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
		if (put_stretch(nf, in + j, in + e, j > i) || reserve_out(nf, n - e)) {
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
	memset(nf, 0, sizeof *nf);
}
