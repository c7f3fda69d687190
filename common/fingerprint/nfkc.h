/*
 * nfkc.h - Unicode NFKC with full case folding (libutf8proc), the first
 * step of textnorm_run().
 *
 * The same words reach pages composed (NFC: "é" is U+00E9) or decomposed
 * (NFD: "e" U+0301), with compatibility forms (ligatures "ﬁ", full-width
 * "Ａ", superscripts) and in any case; this makes one spelling of them.
 * ASCII is left as it is (it is its own NFKC form; textnorm folds its case
 * by table), so that only the stretches around non-ASCII bytes go through
 * the library: NFKC never joins a character with an ASCII one after it,
 * so a stretch runs from the ASCII byte before a non-ASCII byte (which a
 * combining mark may compose with: "e" U+0301, "=" U+0338) to the next
 * ASCII byte.  Invalid UTF-8 bytes are copied unchanged (textnorm reads
 * each as a separator), and never joined with their neighbours.
 */
#ifndef NDD_NFKC_H
#define NDD_NFKC_H

#include <stddef.h>
#include <stdint.h>

/* Buffers, grown on demand and reused; zero-initialise, free with nfkc_free(). */
struct nfkc {
	char *out;    /* the normalised text (not NUL-terminated) */
	size_t len;   /* its bytes */
	size_t cap;
	int32_t *cps; /* one stretch's code points, for the library */
	size_t cps_cap;
	uint64_t *own; /* per code point of the BMP: is it its own form */
};

/**
 * NFKC_Casefold of [in, in+n) into nf->out / nf->len (previous content
 * replaced).  @return 0, or -1 if memory ran out or the library failed
 * (nf->len is then 0).
 */
int nfkc_casefold(struct nfkc *nf, const char *in, size_t n) __attribute__((warn_unused_result));

/** Free the buffers of @nf and zero it.  Safe on a zeroed struct. */
void nfkc_free(struct nfkc *nf);

#endif
