/*
 * docfp.h - document fingerprints: 64 bits of a document's text whose
 * Hamming distance measures how much two texts differ.
 *
 * A document's main text is normalised and tokenised (textnorm.h) and
 * turned into features (below).  Two methods make 64 bits of them:
 *
 *  - minhash (the default, @method = DOCFP_MINHASH; minhash.h): 1-bit
 *    minwise hashing of the set of distinct features by one permutation
 *    with optimal densification (Li & Koenig 2010; Li, Owen & Zhang 2012;
 *    Shrivastava 2017).  Two
 *    texts agree on each bit's underlying minimum with probability J, the
 *    Jaccard similarity of their feature sets, and by chance otherwise,
 *    so the expected distance is 32 (1 - J), linear in J.
 *  - simhash (@method = DOCFP_SIMHASH; simhash.h): Charikar's SimHash of
 *    weighted features: each feature's hash votes +weight on the bits
 *    where it has a 1 and -weight where it has a 0; bit i is 1 iff the
 *    sum for bit i is > 0.  The expected distance is 64 theta / pi, theta
 *    the angle between the two weighted vectors.
 *
 * Why minhash: what decides a near-duplicate is the share of text in
 * common (the evaluation's truth is the Jaccard of word 3-shingles, J >=
 * 0.8).  SimHash's angle changes little near J = 1, so at a small k it
 * cannot tell J = 0.85 from J = 0.65 through the noise of 64 random bits;
 * the linear 32 (1 - J) can.  Minhash of the truth's own features (word
 * 3-shingles, CJK character trigrams) puts J = 0.8 at 6.4 bits on average,
 * hence the default k = 6.  bench/fpquality.sh measures it against
 * SimHash set-ups and minhash of bigrams; the figures, with their
 * commits, are in docs/BENCHMARKS.md.
 *
 * Features (all hashed with XXH3-64, seed DOCFP_SEED):
 *  - Words: shingles of @shingle consecutive TN_WORD tokens (default 3,
 *    as the evaluation's truth; 1 = single words, which do not see word
 *    order).  Shingles run across line ends (the text is one sequence,
 *    so a moved paragraph changes the shingles at its edges).  A text
 *    with fewer words than @shingle gives one shingle of all of them.  A shingle's hash is XXH3 of the little-endian array of
 *    its words' hashes, so it never depends on the host.
 *  - CJK runs (scripts without spaces): character n-grams of @cjk_ngram
 *    characters inside each run (default 3, as the truth's character
 *    3-grams; 2, bigrams, the usual segmentation-free choice for Chinese
 *    since most words are two characters, is what SimHash uses); a run
 *    shorter than that is one feature.  Words and CJK
 *    n-grams are separate sequences: a shingle never spans a CJK run.
 *  - Units beside shingles (@unit_weight > 0, with @shingle > 1 or
 *    @cjk_ngram != @cjk_unit): single words and CJK n-grams of @cjk_unit
 *    characters are added as well, at @unit_weight / DOCFP_WEIGHT_ONE of
 *    the weight of a shingle (minhash: that share of them, chosen by their
 *    hash, the same in every document).  Shingles see word order, units soften the
 *    effect of one edited word (it breaks n shingles but one unit).
 *  - Boundaries (@boundary_weight > 0): the last token of a line and the
 *    first of the next, as one feature of that weight.
 *
 * Weights (SimHash only; minhash counts each distinct feature once):
 *  - Line weight: one occurrence on a line of L normalised bytes counts
 *    min(1, (L/@line_full)^2), default 160 (extract writes one text block per line); short
 *    lines beside long paragraphs are where leftover boilerplate lives.
 *  - Weight (@tf_log = 1): 1 + ln(tf), tf = weighted occurrences of the
 *    feature (below 1, the weight is tf itself); @tf_log = 0: min(1, tf),
 *    in fixed point (DOCFP_WEIGHT_ONE = weight 1.0).  Damping keeps a
 *    word repeated 50 times in a list from outvoting the rest of the text;
 *    integer sums make the result exact and identical on every compiler,
 *    vector width and thread count.  There is no IDF: it would make a
 *    fingerprint depend on the rest of the corpus, and fingerprints of
 *    different nights must stay comparable.
 *
 * Short texts: if the normalised text is shorter than @min_text bytes the
 * fingerprint is XXH3-64 of the normalised text instead, and the
 * FP_SHORT_TEXT flag (docrec.h) is set.  Below a few dozen features one
 * changed word moves many bits (with either method), so near-duplicate
 * search would be noise; an exact-text hash lets such pages still match when their
 * normalised text is identical (distance 0).  Unrelated 64-bit values are
 * about 32 bits apart, so they do not come near anything by accident.
 * The default of 200 bytes is ~30 English words or ~65 Chinese characters.
 *
 * A fingerprint depends only on the text and the configuration; the
 * configuration (with TEXTNORM_VERSION and DOCFP_VERSION) is summarised
 * by docfp_config_hash(), which goes into the feature_config field of
 * every fingerprint file, so fingerprints made differently are never
 * compared by mistake.
 */
#ifndef NDD_DOCFP_H
#define NDD_DOCFP_H

#include <stddef.h>
#include <stdint.h>

/* Bump when the feature or weighting scheme changes. */
#define DOCFP_VERSION 4 /* 4: minhash; unit and boundary features */
#define DOCFP_SEED 0x6e64642d73696d31ull /* "ndd-sim1" */
#define DOCFP_WEIGHT_ONE 64               /* fixed-point weight 1.0 */

#define DOCFP_MAX_SHINGLE 8
#define DOCFP_MAX_CJK_NGRAM 4

struct docfp_config {
	int shingle;     /* words per shingle, 1..DOCFP_MAX_SHINGLE (default 3;
			  * ndd-fingerprint --method simhash makes it 1) */
	int cjk_ngram;   /* CJK characters per n-gram, 1..DOCFP_MAX_CJK_NGRAM (3;
			  * ndd-fingerprint --method simhash makes it 2) */
	size_t min_text; /* normalised bytes below which FP_SHORT_TEXT (200) */
	int line_full;   /* line length of full weight; 0: no line weights (160) */
	int tf_log;      /* 1: weight 1+ln(tf); 0: every distinct feature weighs 1 (1) */
	int unit_weight; /* weight (of DOCFP_WEIGHT_ONE) of single words and CJK
			  * units added beside the shingles; 0: none */
	int cjk_unit;    /* CJK characters per unit feature (2) */
	int boundary_weight; /* weight (of DOCFP_WEIGHT_ONE) of the feature where
			      * two lines meet, 0..2*DOCFP_WEIGHT_ONE; 0: none */
	int method;      /* DOCFP_MINHASH (the default) or DOCFP_SIMHASH */
};

/* The methods; their numbers are part of the configuration's text. */
enum {
	DOCFP_SIMHASH = 0, /* SimHash of weighted features */
	DOCFP_MINHASH = 1, /* 1-bit minwise hashing of the feature set */
};

#define DOCFP_CONFIG_DEFAULT                                                          \
	{                                                                             \
		.shingle = 3, .cjk_ngram = 3, .min_text = 200, .line_full = 160,      \
		.tf_log = 1, .unit_weight = 0, .cjk_unit = 2, .boundary_weight = 0,   \
		.method = DOCFP_MINHASH,                                              \
	}

/** @return 0 if every field of @c is in range, else -1 (logged). */
int docfp_config_check(const struct docfp_config *c)
	__attribute__((warn_unused_result));

/**
 * Write the canonical text of @c (every option, TEXTNORM_VERSION and
 * DOCFP_VERSION, in a fixed order) into @buf of @n bytes, NUL-terminated.
 * @return the length snprintf reports.
 */
int docfp_config_string(const struct docfp_config *c, char *buf, size_t n);

/** XXH3-64 of docfp_config_string(): the file header's feature_config. */
uint64_t docfp_config_hash(const struct docfp_config *c);

/* ---- whole documents ---- */

struct docfp_ctx;

/**
 * A per-thread context: normalisation buffers, the term-frequency table
 * and the accumulator, all reused from one document to the next (no
 * allocation per document once warm).  @return NULL if @c is invalid or
 * memory ran out (logged).  Free with docfp_ctx_free().
 */
struct docfp_ctx *docfp_ctx_new(const struct docfp_config *c)
	__attribute__((warn_unused_result));

/** Free @ctx.  NULL is a no-op. */
void docfp_ctx_free(struct docfp_ctx *ctx);

/**
 * Fingerprint @len bytes of UTF-8 @text (invalid bytes are tolerated).
 * Sets *@fp; sets FP_SHORT_TEXT in *@flags when the text is short (see
 * above) and clears it otherwise, other bits untouched.  @flags may be
 * NULL.  @return 0, or -1 if memory ran out (logged; *@fp undefined).
 */
int docfp_text(struct docfp_ctx *ctx, const char *text, size_t len, uint64_t *fp,
	       uint32_t *flags) __attribute__((warn_unused_result));

/** Bytes of normalised text of the last docfp_text() call. */
size_t docfp_last_norm_len(const struct docfp_ctx *ctx);

/** Distinct features of the last docfp_text() call (0 if short). */
size_t docfp_last_features(const struct docfp_ctx *ctx);

#endif
