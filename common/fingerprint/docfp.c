/*
 * docfp.c - features of a document's text, and the two ways of making 64
 * bits of them: minwise hashing (minhash.h) and SimHash (simhash.h); the
 * methods and choices are in docfp.h.
 *
 * Per document, one pass over its lines:
 *
 *   line --textnorm_run--> tokens --hash--> feature hashes --+
 *                                                            |
 *   minhash: bin = top 6 bits, keep the minimum of the rest <-+
 *            --> densify empty bins --> one bit per bin --> fp
 *   SimHash: tf table --> (hash, tf) distinct --weight--> 64 counters --> fp
 *
 * The default's ASCII text skips the tokens: its words are found in a
 * bitmap of the whole text and hashed as they are found; in a text with
 * other characters, so are the lines whose others are separators that
 * need no NFKC (minhash_ascii_words(), asciiwords.h).
 *
 * Minhash needs no table: a minimum ignores repeats, so each occurrence
 * goes straight into its bin.  The SimHash tf table is open addressing
 * keyed by the feature hash itself (already uniform), entries in the
 * slots, with the used slots listed in insertion order: they drive
 * accumulation and then clear exactly their slots, so a document costs
 * in proportion to its size, and the table is reused without
 * reallocating once it is big enough.  Accumulation takes the distinct
 * features in batches (simhash_batch_kernel(): 16-bit lanes, AVX2 when
 * the CPU has it).
 */
#include "fingerprint/docfp.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* Header-only XXH3: most features are a few bytes long, where the call
 * into the shared library costs as much as the hash itself. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "fingerprint/asciiwords.h"
#include "util/bytes.h"
#include "format/docrec.h"
#include "util/grow.h"
#include "util/log.h"
#include "fingerprint/minhash.h"
#include "fingerprint/simhash.h"
#include "fingerprint/textnorm.h"

/* tests/test_docfp_paths.c builds this file a second time with
 * DOCFP_GENERAL_ONLY, every word through word_feature(), to hold the
 * default's own path for words to the same features. */
#ifdef DOCFP_GENERAL_ONLY
#define WORDS3_PATH 0
#else
#define WORDS3_PATH 1
#endif

/* Weights of fixed-point counts below this, precomputed: line weights make
 * most counts fractional, and a log() per feature is dear.
 * Larger counts use log(), with the same rounding. */
#define WTAB_SIZE (32 * DOCFP_WEIGHT_ONE)

/* Line weights of lines shorter than this, precomputed: saves a division
 * and an lround() per line, which Chinese text has many of. */
#define LWTAB_SIZE 1024

/*
 * Open addressing with the entries in the slots themselves (one cache
 * line touched per lookup, no indirection), and the used slots listed in
 * insertion order: they drive accumulation and then clear exactly their
 * slots.  scale = 0 marks an empty slot (an entry's scale is >= 1).
 */
struct tf_entry {
	uint64_t key;   /* feature hash */
	uint32_t count; /* fixed-point occurrences */
	uint32_t scale; /* weight factor of its kind; 0: empty slot */
};

struct tf_table {
	struct tf_entry *slot;
	uint32_t *pos;   /* per entry, in insertion order: its slot */
	size_t n_used;
	size_t mask;     /* slots in use for this document - 1 */
	size_t cap;      /* slots allocated (all empty between documents) */
};

struct docfp_ctx {
	struct docfp_config cfg;
	struct textnorm tn;
	struct tf_table tf;
	struct simhash_acc acc;
	simhash_batch_fn *batch; /* simhash_acc_add_batch's kernel for this CPU */
	uint16_t wtab[WTAB_SIZE];
	uint8_t lwtab[LWTAB_SIZE]; /* line_weight() of lengths below LWTAB_SIZE */
	size_t last_features;
	size_t feat_per_kb; /* distinct features per KiB of the last long text */
	size_t norm_len;  /* normalised bytes of the last document */
	uint32_t line_w;  /* weight of one occurrence on the current line */
	uint64_t ring[DOCFP_MAX_SHINGLE]; /* hashes of the last words */
	size_t words;     /* words of the document so far */
	uint64_t last_tok; /* hash of the last token of the previous line, 0: none */
	struct minhash mh;
	char *fold;       /* the text folded (asciiwords.h) */
	uint64_t *bits;   /* its word bytes */
	uint64_t *other;  /* its bytes of 0x80 and above */
	size_t fold_cap, bits_cap, other_cap;
};

/*
 * Line weight.  Extract puts each text block (paragraph, heading, list
 * item) on its own line.  Boilerplate that survives extraction is mostly
 * short lines next to long paragraphs: bylines, datelines, tool links
 * ("print | close"), a site's welcome bar.  Two copies of an article under
 * different templates differ in exactly those, so one occurrence on a line
 * of L normalised bytes weighs min(1, (L / line_full)^2) (struct
 * docfp_config's line_full, 160 bytes by default).  SimHash only
 * compares weights with each other, so a page made only of short lines is
 * fingerprinted as before; the weighting only shifts the vote towards the
 * long lines where a page has both.
 */
/* ---- configuration ---- */

int docfp_config_check(const struct docfp_config *c)
{
	if (c->shingle < 1 || c->shingle > DOCFP_MAX_SHINGLE) {
		log_error("word shingle size %d out of range 1..%d", c->shingle,
			  DOCFP_MAX_SHINGLE);
		return -1;
	}
	if (c->cjk_unit < 1 || c->cjk_unit > DOCFP_MAX_CJK_NGRAM ||
	    c->unit_weight < 0 || c->unit_weight > DOCFP_WEIGHT_ONE || c->line_full < 0 ||
	    c->line_full > 100000 || (c->tf_log != 0 && c->tf_log != 1) ||
	    c->boundary_weight < 0 || c->boundary_weight > 2 * DOCFP_WEIGHT_ONE ||
	    (c->method != DOCFP_SIMHASH && c->method != DOCFP_MINHASH)) {
		log_error("unit/line/tf options out of range");
		return -1;
	}
	if (c->cjk_ngram < 1 || c->cjk_ngram > DOCFP_MAX_CJK_NGRAM) {
		log_error("CJK n-gram size %d out of range 1..%d", c->cjk_ngram,
			  DOCFP_MAX_CJK_NGRAM);
		return -1;
	}
	return 0;
}

/* The text begins "simhash/": a new name there would change every
 * configuration's hash, and fingerprints kept from earlier nights would
 * no longer be comparable with tonight's. */
int docfp_config_string(const struct docfp_config *c, char *buf, size_t n)
{
	return snprintf(buf, n,
			"simhash/%d textnorm/%d f=64 hash=xxh3-64 seed=%016llx "
			"weight=%s line=(len/%d)^2 scale=%d shingle=%d cjk_ngram=%d min_text=%zu "
			"units=%d/%d cjk_unit=%d boundary=%d/%d method=%s",
			DOCFP_VERSION, TEXTNORM_VERSION, (unsigned long long)DOCFP_SEED,
			c->tf_log ? "1+ln(tf)" : "1", c->line_full, DOCFP_WEIGHT_ONE, c->shingle,
			c->cjk_ngram, c->min_text, c->unit_weight, DOCFP_WEIGHT_ONE, c->cjk_unit,
			c->boundary_weight, DOCFP_WEIGHT_ONE,
			c->method == DOCFP_MINHASH ? "minhash1" : "simhash");
}

uint64_t docfp_config_hash(const struct docfp_config *c)
{
	char buf[256];
	int n = docfp_config_string(c, buf, sizeof buf);
	assert(n > 0 && (size_t)n < sizeof buf);
	return XXH3_64bits(buf, (size_t)n);
}

/* ---- term-frequency table ---- */

#define TF_MIN_SLOTS 1024

static int tf_alloc(struct tf_table *t, size_t slots)
{
	t->slot = calloc(slots, sizeof *t->slot);
	t->pos = malloc(slots / 2 * sizeof *t->pos); /* load stays <= 1/2 */
	t->mask = slots - 1;
	t->cap = slots;
	t->n_used = 0;
	return t->slot && t->pos ? 0 : -1;
}

static void tf_free(struct tf_table *t)
{
	free(t->slot);
	free(t->pos);
	memset(t, 0, sizeof *t);
}

/*
 * Use a part of the table sized for a text of @len bytes, at most 1/8 full
 * if it has as many distinct features per byte as the last text had
 * (@per_kb per KiB): Chinese has about 5 times as many as English.  One
 * big page grows the table for good, and the small pages after it must
 * not spread their few features over megabytes, one cache miss per lookup;
 * a table too full mispredicts on collisions.  The size never changes a
 * fingerprint.
 */
static int tf_begin(struct tf_table *t, size_t len, size_t per_kb)
{
	const size_t want = len / 128 * per_kb; /* 8 * len * per_kb / 1024 */
	size_t slots = TF_MIN_SLOTS;
	while (slots < want && slots < ((size_t)1 << 31))
		slots *= 2;
	assert(t->n_used == 0);
	if (slots > t->cap) {
		tf_free(t);
		return tf_alloc(t, slots);
	}
	t->mask = slots - 1;
	return 0;
}

/* The slot of @h: where it is, or the empty slot where it goes. */
static size_t tf_slot(const struct tf_table *t, uint64_t h)
{
	size_t i = (size_t)(h ^ h >> 32) & t->mask;
	while (t->slot[i].scale && t->slot[i].key != h)
		i = (i + 1) & t->mask;
	return i;
}

/* Double the table; entries keep their insertion order. */
static int tf_grow(struct tf_table *t)
{
	struct tf_table n;
	const size_t slots = 2 * (t->mask + 1);
	if (tf_alloc(&n, slots > t->cap ? slots : t->cap)) {
		tf_free(&n);
		return -1;
	}
	n.mask = slots - 1;
	for (size_t k = 0; k < t->n_used; k++) {
		const struct tf_entry *e = &t->slot[t->pos[k]];
		const size_t i = tf_slot(&n, e->key);
		n.slot[i] = *e;
		n.pos[k] = (uint32_t)i;
	}
	n.n_used = t->n_used;
	tf_free(t);
	*t = n;
	return 0;
}

/* Counts are in fixed point (DOCFP_WEIGHT_ONE = one occurrence on a
 * full-length line); @w is the current line's weight, @scale the weight
 * factor of the feature's kind. */
static inline __attribute__((always_inline)) int tf_add(struct tf_table *t, uint64_t h, uint32_t w, uint32_t scale)
{
	if (__builtin_expect(t->n_used >= (t->mask + 1) / 2, 0) && tf_grow(t))
		return -1;
	size_t i = (size_t)(h ^ h >> 32) & t->mask;
	/* Another key there: one rarely taken branch, not two unpredictable
	 * ones (empty? same key?), which compilers make of a && or &. */
	const uint64_t clash = (t->slot[i].key ^ h) & (0 - (uint64_t)(t->slot[i].scale != 0));
	if (__builtin_expect(clash != 0, 0))
		i = tf_slot(t, h);
	/*
	 * The slot is empty or holds @h.  Which one is as unpredictable as the
	 * text, so both are one branch-free update: a new entry starts from
	 * zero and is listed (pos[] always has room for one more).
	 */
	struct tf_entry *const e = &t->slot[i];
	const uint32_t fresh = e->scale == 0, keep = fresh - 1u;
	e->key = h;
	e->count = (e->count & keep) + w;
	e->scale = (e->scale & keep) | (scale & ~keep);
	t->pos[t->n_used] = (uint32_t)i;
	t->n_used += fresh;
	return 0;
}

static void tf_clear(struct tf_table *t)
{
	for (size_t k = 0; k < t->n_used; k++)
		t->slot[t->pos[k]].scale = 0;
	t->n_used = 0;
}

/* ---- features ---- */

/* 1 + ln(tf) for tf >= 1, and tf itself below 1 (continuous at 1): a word
 * seen once on a short line counts as much as that line is worth. */
static uint32_t weight_formula(uint64_t count)
{
	const uint64_t one = DOCFP_WEIGHT_ONE;
	if (count <= one)
		return (uint32_t)(count ? count : 1);
	double w = (double)one * (1.0 + log((double)count / (double)one));
	return w > SIMHASH_MAX_WEIGHT ? SIMHASH_MAX_WEIGHT : (uint32_t)lround(w);
}

static uint32_t weight_of(const struct docfp_ctx *ctx, uint64_t count)
{
	if (count < WTAB_SIZE)
		return ctx->wtab[count];
	return weight_formula(count);
}

static uint32_t line_weight(size_t len, int full)
{
	if (len >= (size_t)full)
		return DOCFP_WEIGHT_ONE;
	const double r = (double)len / full;
	const uint32_t w = (uint32_t)lround(DOCFP_WEIGHT_ONE * r * r);
	return w ? w : 1;
}

/* One occurrence of feature @h: counted for SimHash, or straight into the
 * minimum of its bin for minwise hashing (which ignores weights). */
static inline __attribute__((always_inline)) int feature_add(struct docfp_ctx *ctx, uint64_t h, uint32_t w, uint32_t scale)
{
	if (ctx->cfg.method == DOCFP_MINHASH) {
		/* A kind of feature of weight below 1 is sampled: kept where 16
		 * bits of its hash fall below the weight, the same in every
		 * document, so it counts in the Jaccard as a weight would. */
		if (scale < DOCFP_WEIGHT_ONE &&
		    ((h >> 32) & 0xffff) >= scale * (65536 / DOCFP_WEIGHT_ONE))
			return 0;
		minhash_add(&ctx->mh, h);
		return 0;
	}
	return tf_add(&ctx->tf, h, w, scale);
}

static uint64_t hash_bytes(const char *p, size_t n)
{
	return XXH3_64bits_withSeed(p, n, DOCFP_SEED);
}

/* XXH3 of the 24 bytes of word hashes @a, @b, @c, little-endian, oldest
 * first: the default's shingle. */
static inline uint64_t shingle3_xxh3(uint64_t a, uint64_t b, uint64_t c)
{
	uint8_t buf[24];
	put_le64(buf, a);
	put_le64(buf + 8, b);
	put_le64(buf + 16, c);
	return XXH3_64bits_withSeed(buf, 24, DOCFP_SEED);
}

/* 64 bits of the 128-bit product of @a and @b, high xor low. */
static inline uint64_t mul_fold(uint64_t a, uint64_t b)
{
	const unsigned __int128 p = (unsigned __int128)a * b;
	return (uint64_t)p ^ (uint64_t)(p >> 64);
}

/*
 * The same value as shingle3_xxh3(), from the three words as they are:
 * XXH3 of 17..32 bytes is the avalanche of len * PRIME64_1 plus the
 * folded products of its first 16 bytes and of its last 16, each keyed
 * by 16 bytes of the secret and the seed; here the last 16 are b and c,
 * no bytes go through memory, and the products stay in registers (GCC
 * spilled XXH3's 128-bit pair to the stack and read it back, on the
 * path from a word's hash to its bin).  test_docfp_paths holds the two
 * equal on random words.
 */
static inline uint64_t shingle3_fold(uint64_t a, uint64_t b, uint64_t c)
{
	const uint64_t acc = 24 * XXH_PRIME64_1 +
			     mul_fold(a ^ (XXH_readLE64(XXH3_kSecret) + DOCFP_SEED),
				      b ^ (XXH_readLE64(XXH3_kSecret + 8) - DOCFP_SEED)) +
			     mul_fold(b ^ (XXH_readLE64(XXH3_kSecret + 16) + DOCFP_SEED),
				      c ^ (XXH_readLE64(XXH3_kSecret + 24) - DOCFP_SEED));
	return XXH3_avalanche(acc);
}

/* The hash of the shingle of word hashes @a, @b, @c, oldest first: the
 * default's, shared by word_feature() and minhash_words3(). */
static inline uint64_t shingle3_hash(uint64_t a, uint64_t b, uint64_t c)
{
	return WORDS3_PATH ? shingle3_fold(a, b, c) : shingle3_xxh3(a, b, c);
}

/* Hash of @n word hashes, oldest first, starting at ring[start]. */
static uint64_t shingle_hash(const uint64_t *ring, int n, int start, int size)
{
	uint8_t buf[8 * DOCFP_MAX_SHINGLE];
	for (int k = 0; k < n; k++)
		put_le64(buf + 8 * k, ring[(start + k) % size]);
	return XXH3_64bits_withSeed(buf, 8 * (size_t)n, DOCFP_SEED);
}

/*
 * Word shingles run across line ends: the text is one sequence, so moving
 * a paragraph changes the shingles at its two edges, and the fingerprint
 * sees order as the Jaccard truth of the evaluation does.  A shingle
 * weighs what the line it ends on weighs.
 */
/* The features that word @t ends: the word, its shingle, or both.
 * Flattened: the compiler kept the word's XXH3 (of a length known only
 * here) out of line, a call per word. */
static __attribute__((flatten)) int word_feature(struct docfp_ctx *ctx, const struct textnorm_token *t)
{
	const int n = ctx->cfg.shingle;
	const uint64_t h = hash_bytes(ctx->tn.text + t->off, t->len);
	uint64_t *const ring = ctx->ring;
	if (n == 1)
		return feature_add(ctx, h, ctx->line_w, DOCFP_WEIGHT_ONE);
	const uint32_t uw = (uint32_t)ctx->cfg.unit_weight;
	if (uw && feature_add(ctx, h, ctx->line_w, uw))
		return -1;
	const size_t words = ctx->words++;
	if (n == 2) { /* the common case, without the ring's divisions */
		const uint64_t prev = ring[(words + 1) & 1];
		ring[words & 1] = h;
		if (words < 1)
			return 0;
		uint8_t buf[16];
		put_le64(buf, prev);
		put_le64(buf + 8, h);
		return feature_add(ctx, XXH3_64bits_withSeed(buf, 16, DOCFP_SEED), ctx->line_w,
				   DOCFP_WEIGHT_ONE);
	}
	if (n == 3) {
		/* The default, without the ring's divisions: ring[0] and ring[1]
		 * hold the two words before this one (the first two words in
		 * order, as short_shingle() reads them, until there are three). */
		if (words < 2) {
			ring[words] = h;
			return 0;
		}
		const uint64_t sh = shingle3_hash(ring[0], ring[1], h);
		ring[0] = ring[1];
		ring[1] = h;
		return feature_add(ctx, sh, ctx->line_w, DOCFP_WEIGHT_ONE);
	}
	ring[words % (size_t)n] = h;
	if (words + 1 < (size_t)n)
		return 0;
	return feature_add(ctx, shingle_hash(ring, n, (int)((words + 1) % (size_t)n), n),
			   ctx->line_w, DOCFP_WEIGHT_ONE);
}

/* The default's features for word hash @h: its 3-shingle with the two
 * words before (*@w0, *@w1; the first two words of the text in order,
 * as short_shingle() reads them, until there are three). */
static inline __attribute__((always_inline)) void words3_add(struct minhash *m, uint64_t *w0,
							    uint64_t *w1, size_t *words, uint64_t h)
{
	if (__builtin_expect(*words < 2, 0)) {
		if ((*words)++)
			*w1 = h;
		else
			*w0 = h;
		return;
	}
	++*words;
	minhash_put(m, shingle3_hash(*w0, *w1, h));
	*w0 = *w1;
	*w1 = h;
}

/* The end of a run of words3_add(): the document has @words words now,
 * and a shingle was put in the bins for each from the third on. */
static inline void words3_count(struct docfp_ctx *ctx, size_t words)
{
	const size_t before = ctx->words;
	ctx->mh.n += (words > 2 ? words - 2 : 0) - (before > 2 ? before - 2 : 0);
	ctx->words = words;
}

/*
 * The default's words (minhash, 3-shingles, no single words): the run of
 * word tokens from @k, each word's hash and its shingle's straight into
 * the bins, with the two words before in locals, without
 * word_feature()'s call and tests of the configuration per word.  The
 * same features in the same order.  @return the token after the run.
 */
static __attribute__((flatten)) size_t minhash_words3(struct docfp_ctx *ctx, size_t k)
{
	const struct textnorm *const tn = &ctx->tn;
	const struct textnorm_token *const t = tn->tok;
	const size_t n_tok = tn->n_tok;
	uint64_t w0 = ctx->ring[0], w1 = ctx->ring[1];
	size_t words = ctx->words;
	for (; k < n_tok && (t[k].kind & TN_KIND_MASK) == TN_WORD; k++)
		words3_add(&ctx->mh, &w0, &w1, &words,
			   hash_bytes(tn->text + t[k].off, t[k].len));
	words3_count(ctx, words);
	ctx->ring[0] = w0;
	ctx->ring[1] = w1;
	return k;
}

/*
 * The default's features of the bytes [@from, @to) of a text of @n bytes
 * whose bitmap asciiwords_scan() made in ctx->bits, its folded copy in
 * ctx->fold: lines that are ASCII but for separators read as they stand
 * (textnorm_ascii_seps()).  Such text's tokens are the words of the
 * bitmap, folded alike, all TN_WORD,
 * so token_features() would take them all through minhash_words3(), in
 * this order: the same features, without textnorm_run().  No word
 * straddles a line's end ('\n' is no word byte).  @return the normalised
 * length of the stretch, its words joined by one space: textnorm_run()'s
 * of a line, and of lines joined as line_features() joins them.
 */
static __attribute__((flatten)) size_t minhash_ascii_words(struct docfp_ctx *ctx, size_t from,
							   size_t to, size_t n)
{
	const char *const fold = ctx->fold;
	struct asciiwords_iter it = asciiwords_iter(ctx->bits, n, from);
	uint64_t w0 = ctx->ring[0], w1 = ctx->ring[1];
	size_t words = ctx->words, at, wlen;
	while (asciiwords_next(&it, &at, &wlen) && at < to)
		words3_add(&ctx->mh, &w0, &w1, &words, hash_bytes(fold + at, wlen));
	const size_t count = words - ctx->words;
	words3_count(ctx, words);
	ctx->ring[0] = w0;
	ctx->ring[1] = w1;
	/* the words' bytes: no word crosses @from or @to (line ends) */
	return count ? asciiwords_count(ctx->bits, from, to) + count - 1 : 0;
}

/* A text with fewer words than a shingle: one shingle of all of them. */
static int short_shingle(struct docfp_ctx *ctx)
{
	const int n = ctx->cfg.shingle;
	if (n > 1 && ctx->words > 0 && ctx->words < (size_t)n)
		return feature_add(ctx, shingle_hash(ctx->ring, (int)ctx->words, 0, n), ctx->line_w,
			      DOCFP_WEIGHT_ONE);
	return 0;
}

/* Features of the CJK run of tokens [a, b): @n-grams, or the whole short run. */
static int cjk_run(struct docfp_ctx *ctx, size_t a, size_t b, size_t n, uint32_t scale)
{
	const struct textnorm *tn = &ctx->tn;
	const size_t last = b - a < n ? a : b - n;
	const size_t span = b - a < n ? b - a : n;
	for (size_t i = a; i <= last; i++) {
		const struct textnorm_token *first = &tn->tok[i], *end = &tn->tok[i + span - 1];
		const size_t len = end->off + end->len - first->off;
		const char *const p = tn->text + first->off;
		/* Two Han characters (the common case): a constant length lets the
		 * compiler inline XXH3's 4..8-byte path; the same hash. */
		const uint64_t h = len == 6 ? XXH3_64bits_withSeed(p, 6, DOCFP_SEED) : hash_bytes(p, len);
		if (feature_add(ctx, h, ctx->line_w, scale))
			return -1;
	}
	return 0;
}

/*
 * The common cases of cjk_run(), bigrams or trigrams (@n, a constant at
 * each call) without units, for the run that starts at token @k: the
 * n-grams are hashed while the run is walked, one pass instead of two,
 * and n Han characters at the constant length 3n, which lets the compiler
 * inline XXH3's short path (the same hash).  A run shorter than n is one
 * feature.  @return the token after the run, or SIZE_MAX if memory ran
 * out.
 */
static inline __attribute__((always_inline)) size_t cjk_ngram_run(struct docfp_ctx *ctx,
								    size_t k, const size_t n)
{
	const struct textnorm *tn = &ctx->tn;
	const struct textnorm_token *const t = tn->tok;
	const uint32_t w = ctx->line_w;
	size_t i = k;
	for (; i + n - 1 < tn->n_tok && (t[i + 1].kind & TN_JOINED) &&
	       (n < 3 || (t[i + 2].kind & TN_JOINED));
	     i++) {
		const size_t len = t[i + n - 1].off + t[i + n - 1].len - t[i].off;
		const char *const p = tn->text + t[i].off;
		const uint64_t h = len == 3 * n ? XXH3_64bits_withSeed(p, 3 * n, DOCFP_SEED)
					       : hash_bytes(p, len);
		if (feature_add(ctx, h, w, DOCFP_WEIGHT_ONE))
			return SIZE_MAX;
	}
	size_t e = i + 1;
	while (e < tn->n_tok && (t[e].kind & TN_JOINED))
		e++;
	if (i == k && feature_add(ctx, hash_bytes(tn->text + t[k].off,
						  t[e - 1].off + t[e - 1].len - t[k].off),
				  w, DOCFP_WEIGHT_ONE))
		return SIZE_MAX;
	return e;
}

/*
 * The features of the current line, in one walk over its tokens: words
 * one by one, CJK runs (TN_JOINED chains) as a whole.
 */
static int token_features(struct docfp_ctx *ctx)
{
	const struct textnorm *tn = &ctx->tn;
	const size_t n = (size_t)ctx->cfg.cjk_ngram, u = (size_t)ctx->cfg.cjk_unit;
	const uint32_t uw = (uint32_t)ctx->cfg.unit_weight;
	const int words3 = WORDS3_PATH && ctx->cfg.method == DOCFP_MINHASH &&
			   ctx->cfg.shingle == 3 && !uw;
	size_t k = 0;
	while (k < tn->n_tok) {
		if ((tn->tok[k].kind & TN_KIND_MASK) == TN_WORD) {
			if (words3) {
				k = minhash_words3(ctx, k);
				continue;
			}
			if (word_feature(ctx, &tn->tok[k++]))
				return -1;
			continue;
		}
		if ((n == 2 || n == 3) && !(uw && u != n)) {
			k = n == 2 ? cjk_ngram_run(ctx, k, 2) : cjk_ngram_run(ctx, k, 3);
			if (k == SIZE_MAX)
				return -1;
			continue;
		}
		size_t e = k + 1;
		while (e < tn->n_tok && (tn->tok[e].kind & TN_JOINED))
			e++;
		if (cjk_run(ctx, k, e, n, DOCFP_WEIGHT_ONE))
			return -1;
		if (uw && u != n && cjk_run(ctx, k, e, u, uw))
			return -1;
		k = e;
	}
	return 0;
}

static uint32_t feature_weight(const struct docfp_ctx *ctx, uint32_t count, uint32_t scale)
{
	uint32_t w = ctx->cfg.tf_log ? weight_of(ctx, count)
				     : (count < DOCFP_WEIGHT_ONE ? count : DOCFP_WEIGHT_ONE);
	w = (uint32_t)(((uint64_t)w * scale + DOCFP_WEIGHT_ONE / 2) / DOCFP_WEIGHT_ONE);
	return w ? w : 1;
}

/* The distinct features with their weights, in batches that stay in L1. */
static uint64_t accumulate(struct docfp_ctx *ctx)
{
	const struct tf_table *t = &ctx->tf;
	uint64_t key[256];
	uint16_t w[256];
	uint64_t total = 0; /* a local: a sum in ctx would be a chain through memory */
	simhash_acc_reset(&ctx->acc);
	for (size_t k0 = 0; k0 < t->n_used; k0 += 256) {
		const size_t n = t->n_used - k0 < 256 ? t->n_used - k0 : 256;
		for (size_t r = 0; r < n; r++) {
			const struct tf_entry *e = &t->slot[t->pos[k0 + r]];
			key[r] = e->key;
			w[r] = (uint16_t)feature_weight(ctx, e->count, e->scale);
			total += w[r];
		}
		ctx->batch(ctx->acc.sum, key, w, n);
	}
	ctx->acc.total = total;
	return simhash_acc_final(&ctx->acc);
}

/* ---- contexts ---- */

struct docfp_ctx *docfp_ctx_new(const struct docfp_config *c)
{
	if (docfp_config_check(c))
		return NULL;
	struct docfp_ctx *ctx = calloc(1, sizeof *ctx);
	if (!ctx || tf_alloc(&ctx->tf, TF_MIN_SLOTS)) {
		log_error("out of memory");
		docfp_ctx_free(ctx);
		return NULL;
	}
	ctx->cfg = *c;
	ctx->feat_per_kb = 256;
	ctx->batch = simhash_batch_kernel();
	for (uint32_t n = 0; n < WTAB_SIZE; n++)
		ctx->wtab[n] = (uint16_t)weight_formula(n);
	for (size_t n = 0; n < LWTAB_SIZE; n++)
		ctx->lwtab[n] = (uint8_t)line_weight(n, c->line_full);
	minhash_init(&ctx->mh, DOCFP_SEED);
	return ctx;
}

void docfp_ctx_free(struct docfp_ctx *ctx)
{
	if (!ctx)
		return;
	textnorm_free(&ctx->tn);
	tf_free(&ctx->tf);
	free(ctx->fold);
	free(ctx->bits);
	free(ctx->other);
	free(ctx);
}

/*
 * Where two lines meet: the last token of the previous line and the first
 * of this one, as one feature of fixed weight.  Single words do not see
 * order; these see exactly what moving a block changes, as the shingles
 * spanning its edges do.
 */
static int boundary_feature(struct docfp_ctx *ctx)
{
	const struct textnorm *tn = &ctx->tn;
	const struct textnorm_token *f = &tn->tok[0], *l = &tn->tok[tn->n_tok - 1];
	const uint64_t first = hash_bytes(tn->text + f->off, f->len);
	const uint64_t prev = ctx->last_tok;
	ctx->last_tok = hash_bytes(tn->text + l->off, l->len);
	if (!prev)
		return 0;
	uint8_t buf[16];
	put_le64(buf, prev);
	put_le64(buf + 8, first);
	return feature_add(ctx, XXH3_64bits_withSeed(buf, 16, DOCFP_SEED + 1), DOCFP_WEIGHT_ONE,
		      (uint32_t)ctx->cfg.boundary_weight);
}

/* Add a line's (or stretch's) normalised length @n to *@norm: the
 * nonempty ones are joined by one space. */
static void add_norm(size_t *norm, size_t n)
{
	*norm += n && *norm ? n + 1 : n;
}

/* The features of the line of @n bytes at @p, through its tokens. */
static int text_line(struct docfp_ctx *ctx, const char *p, size_t n, size_t *norm)
{
	if (textnorm_run(&ctx->tn, p, n))
		return -1;
	if (!ctx->tn.len)
		return 0;
	add_norm(norm, ctx->tn.len);
	if (ctx->cfg.method == DOCFP_SIMHASH) /* minhash has no weights */
		ctx->line_w = ctx->tn.len < LWTAB_SIZE ? ctx->lwtab[ctx->tn.len]
						       : line_weight(ctx->tn.len, ctx->cfg.line_full);
	if (ctx->cfg.boundary_weight && boundary_feature(ctx))
		return -1;
	return token_features(ctx);
}

/*
 * The default's features of the whole text (@len bytes at @text): its
 * words found at once in a bitmap of it, and the stretches between the
 * lines that have other characters than ASCII and separators read as
 * they stand taken through minhash_ascii_words(), those lines alone
 * through their tokens.  Most texts have no such line, most of the rest
 * a few.  @return 0, or -1 if memory ran out.
 */
static int ascii_text(struct docfp_ctx *ctx, const char *text, size_t len, size_t *norm)
{
	if (array_grow((void **)&ctx->fold, &ctx->fold_cap, ASCIIWORDS_OUT(len), 1) ||
	    array_grow((void **)&ctx->bits, &ctx->bits_cap, ASCIIWORDS_BITS(len),
		       sizeof *ctx->bits) ||
	    array_grow((void **)&ctx->other, &ctx->other_cap, ASCIIWORDS_BITS(len),
		       sizeof *ctx->other))
		return -1;
	size_t at = 0, from = 0, high;
	if (!asciiwords_scan(text, len, ctx->fold, ctx->bits, ctx->other))
		from = len;
	/* the line of each byte of 0x80 and above: in the stretch, or alone */
	while ((high = asciiwords_first(ctx->other, from, len)) < len) {
		const char *const nl = memrchr(text, '\n', high), *const eol =
			memchr(text + high, '\n', len - high);
		const size_t start = nl ? (size_t)(nl - text) + 1 : 0;
		from = eol ? (size_t)(eol - text) : len;
		if (textnorm_ascii_seps(text + start, from - start))
			continue;
		add_norm(norm, minhash_ascii_words(ctx, at, start, len));
		if (text_line(ctx, text + start, from - start, norm))
			return -1;
		at = from;
	}
	add_norm(norm, minhash_ascii_words(ctx, at, len, len));
	return 0;
}

/* Features of every line, each weighted by its line's length; @return the
 * normalised length of the whole text (lines joined by one space). */
static int line_features(struct docfp_ctx *ctx, const char *text, size_t len, size_t *norm)
{
	const char *p = text, *const end = text + len;
	*norm = 0;
	ctx->words = 0;
	ctx->last_tok = 0;
	minhash_reset(&ctx->mh);
	if (ctx->cfg.method == DOCFP_SIMHASH && tf_begin(&ctx->tf, len, ctx->feat_per_kb))
		return -1;
	/* the default's ASCII words need no tokens (minhash_ascii_words()) */
	if (WORDS3_PATH && ctx->cfg.method == DOCFP_MINHASH && ctx->cfg.shingle == 3 &&
	    !ctx->cfg.unit_weight && !ctx->cfg.boundary_weight && len <= UINT32_MAX - 1)
		return ascii_text(ctx, text, len, norm) ? -1 : short_shingle(ctx);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		if (text_line(ctx, p, (size_t)(eol - p), norm))
			return -1;
		p = eol + 1;
	}
	return short_shingle(ctx);
}

int docfp_text(struct docfp_ctx *ctx, const char *text, size_t len, uint64_t *fp,
		 uint32_t *flags)
{
	ctx->last_features = 0;
	if (line_features(ctx, text, len, &ctx->norm_len)) {
		tf_clear(&ctx->tf);
		log_error("out of memory fingerprinting %zu bytes of text", len);
		return -1;
	}
	const int is_short = ctx->norm_len < ctx->cfg.min_text;
	if (flags)
		*flags = is_short ? *flags | FP_SHORT_TEXT : *flags & ~(uint32_t)FP_SHORT_TEXT;
	if (is_short) {
		tf_clear(&ctx->tf);
		if (textnorm_run(&ctx->tn, text, len)) {
			log_error("out of memory normalising %zu bytes of text", len);
			return -1;
		}
		*fp = hash_bytes(ctx->tn.text, ctx->tn.len);
		return 0;
	}
	const int minhash = ctx->cfg.method == DOCFP_MINHASH;
	ctx->last_features = minhash ? ctx->mh.n : ctx->tf.n_used;
	if (len >= 4096) /* for the next tf_begin() */
		ctx->feat_per_kb = ctx->tf.n_used * 1024 / len + 1;
	*fp = minhash ? minhash_bits(&ctx->mh) : accumulate(ctx);
	tf_clear(&ctx->tf);
	return 0;
}

size_t docfp_last_norm_len(const struct docfp_ctx *ctx)
{
	return ctx->norm_len;
}

size_t docfp_last_features(const struct docfp_ctx *ctx)
{
	return ctx->last_features;
}
