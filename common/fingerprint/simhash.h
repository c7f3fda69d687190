/*
 * simhash.h - 64-bit fingerprints of document text whose Hamming distance
 * measures how much two texts differ.
 *
 * A document's main text is normalised and tokenised (textnorm.h) and
 * turned into features (below).  Two methods make 64 bits of them:
 *
 *  - minhash (the default, @method = 1): 1-bit minwise hashing of the set
 *    of distinct features by one permutation with optimal densification
 *    (Li & Koenig 2010; Li, Owen & Zhang 2012; Shrivastava 2017).  Two
 *    texts agree on each bit's underlying minimum with probability J, the
 *    Jaccard similarity of their feature sets, and by chance otherwise,
 *    so the expected distance is 32 (1 - J), linear in J.
 *  - simhash (@method = 0): Charikar's SimHash of weighted features: each
 *    feature's hash votes +weight on the bits where it has a 1 and -weight
 *    where it has a 0; bit i is 1 iff the sum for bit i is > 0.  The
 *    expected distance is 64 theta / pi, theta the angle between the two
 *    weighted vectors.
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
 * Features (all hashed with XXH3-64, seed SIMHASH_SEED):
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
 *    characters are added as well, at @unit_weight / SIMHASH_WEIGHT_ONE of
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
 *    in fixed point (SIMHASH_WEIGHT_ONE = weight 1.0).  Damping keeps a
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
 * configuration (with TEXTNORM_VERSION and SIMHASH_VERSION) is summarised
 * by simhash_config_hash(), which goes into the feature_config field of
 * every fingerprint file, so fingerprints made differently are never
 * compared by mistake.
 */
#ifndef NDD_SIMHASH_H
#define NDD_SIMHASH_H

#include <stddef.h>
#include <stdint.h>

/* Bump when the feature or weighting scheme changes. */
#define SIMHASH_VERSION 4 /* 4: minhash; unit and boundary features */
#define SIMHASH_SEED 0x6e64642d73696d31ull /* "ndd-sim1" */
#define SIMHASH_WEIGHT_ONE 64             /* fixed-point weight 1.0 */

#define SIMHASH_MAX_SHINGLE 8
#define SIMHASH_MAX_CJK_NGRAM 4

struct simhash_config {
	int shingle;     /* words per shingle, 1..SIMHASH_MAX_SHINGLE (default 3;
			  * ndd-fingerprint --method simhash makes it 1) */
	int cjk_ngram;   /* CJK characters per n-gram, 1..SIMHASH_MAX_CJK_NGRAM (3;
			  * ndd-fingerprint --method simhash makes it 2) */
	size_t min_text; /* normalised bytes below which FP_SHORT_TEXT (200) */
	int line_full;   /* line length of full weight; 0: no line weights (160) */
	int tf_log;      /* 1: weight 1+ln(tf); 0: every distinct feature weighs 1 (1) */
	int unit_weight; /* weight (of SIMHASH_WEIGHT_ONE) of single words and CJK
			  * units added beside the shingles; 0: none */
	int cjk_unit;    /* CJK characters per unit feature (2) */
	int boundary_weight; /* weight (of SIMHASH_WEIGHT_ONE) of the feature where
			      * two lines meet, 0..2*SIMHASH_WEIGHT_ONE; 0: none */
	int method;      /* 1: 1-bit minwise hashing of the feature set (the
			  * default); 0: SimHash of weighted features */
};

#define SIMHASH_CONFIG_DEFAULT {3, 3, 200, 160, 1, 0, 2, 0, 1}

/** @return 0 if every field of @c is in range, else -1 (logged). */
int simhash_config_check(const struct simhash_config *c)
	__attribute__((warn_unused_result));

/**
 * Write the canonical text of @c (every option, TEXTNORM_VERSION and
 * SIMHASH_VERSION, in a fixed order) into @buf of @n bytes, NUL-terminated.
 * @return the length snprintf reports.
 */
int simhash_config_string(const struct simhash_config *c, char *buf, size_t n);

/** XXH3-64 of simhash_config_string(): the file header's feature_config. */
uint64_t simhash_config_hash(const struct simhash_config *c);

/* ---- the 64-counter accumulator, for callers with their own features ---- */

/*
 * Sums are kept as "weight where the bit is 1" (S1) plus the total weight
 * W; the signed counter of bit i is S1[i] - (W - S1[i]) = 2*S1[i] - W.
 * Adding a feature is then a masked add per bit with no branch, which
 * compilers turn into vector code (see simhash_acc_add).  32-bit lanes
 * are drained into 64-bit sums often enough that they cannot overflow.
 *
 * Most features of a page occur once (weight 1.0), so those take a faster
 * path: simhash_acc_add_one() counts them bit-sliced, in 4 bit-planes
 * (a 4-bit counter per bit position, 15 features at most), with a few
 * 64-bit logic operations per feature; the planes are added to the lanes
 * every 15 features, 4 masked adds instead of 15.
 */
struct simhash_acc {
	uint32_t lane[64];
	uint64_t sum[64];
	uint64_t total;
	uint32_t pending;  /* lane adds since the last drain */
	uint32_t n_plane;  /* features in plane[] */
	uint64_t plane[4]; /* bit-sliced counts of weight-1.0 features */
};

void simhash_acc_reset(struct simhash_acc *a);

/** Add feature hash @h with weight @w (0 < @w <= SIMHASH_MAX_WEIGHT). */
void simhash_acc_add(struct simhash_acc *a, uint64_t h, uint32_t w);

/** Add feature hash @h with weight SIMHASH_WEIGHT_ONE; same result, faster. */
void simhash_acc_add_one(struct simhash_acc *a, uint64_t h);

#define SIMHASH_MAX_WEIGHT 4096u

/**
 * Add @n features, hashes @h[] with weights @w[] (each 1..SIMHASH_MAX_WEIGHT):
 * the same sums as simhash_acc_add() of each, faster for many (16-bit
 * lanes in vector registers; AVX2 when the CPU has it, chosen at run time).
 */
void simhash_acc_add_batch(struct simhash_acc *a, const uint64_t *h, const uint16_t *w, size_t n);

/** For tests: 0 makes simhash_acc_add_batch() and simhash_text() use the
 *  portable code even where AVX2 is available; 1 (the default) undoes it.
 *  Not thread-safe: call before any hashing starts. */
void simhash_acc_use_simd(int enable);

/** The fingerprint: bit i set iff counter i > 0.  No features: 0. */
uint64_t simhash_acc_final(struct simhash_acc *a);

/* ---- whole documents ---- */

struct simhash_ctx;

/**
 * A per-thread context: normalisation buffers, the term-frequency table
 * and the accumulator, all reused from one document to the next (no
 * allocation per document once warm).  @return NULL if @c is invalid or
 * memory ran out (logged).  Free with simhash_ctx_free().
 */
struct simhash_ctx *simhash_ctx_new(const struct simhash_config *c)
	__attribute__((warn_unused_result));

/** Free @ctx.  NULL is a no-op. */
void simhash_ctx_free(struct simhash_ctx *ctx);

/**
 * Fingerprint @len bytes of UTF-8 @text (invalid bytes are tolerated).
 * Sets *@fp; sets FP_SHORT_TEXT in *@flags when the text is short (see
 * above) and clears it otherwise, other bits untouched.  @flags may be
 * NULL.  @return 0, or -1 if memory ran out (logged; *@fp undefined).
 */
int simhash_text(struct simhash_ctx *ctx, const char *text, size_t len, uint64_t *fp,
		 uint32_t *flags) __attribute__((warn_unused_result));

/** Bytes of normalised text of the last simhash_text() call. */
size_t simhash_last_norm_len(const struct simhash_ctx *ctx);

/** Distinct features of the last simhash_text() call (0 if short). */
size_t simhash_last_features(const struct simhash_ctx *ctx);

/* ---- bit helpers ---- */

static inline int popcount64(uint64_t x)
{
	return __builtin_popcountll(x);
}

/** Hamming distance: bits in which @a and @b differ (0..64). */
static inline int hamming64(uint64_t a, uint64_t b)
{
	return popcount64(a ^ b);
}

#endif
