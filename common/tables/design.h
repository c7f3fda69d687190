/*
 * design.h - pigeonhole table designs for finding all fingerprint pairs
 * within Hamming distance k (Manku, Jain, Das Sarma 2007, section 3).
 *
 * The f = 64 bits are cut into r contiguous blocks.  Two fingerprints
 * that differ in at most k bits differ in at most k blocks, so at least
 * r - k blocks agree.  One table per choice of r - k "leading" blocks
 * (C(r, k) tables): its permutation moves those blocks to the top of the
 * key, so the pair has equal top bits (lead_bits of them) in that table
 * and is found by comparing only records with equal top bits (a "run").
 *
 * Nested designs (the paper's 16 tables = 4 x 4 for k = 3): the leading
 * blocks of a first split into r1 blocks are chosen as above; the bits
 * left (the k blocks not chosen, which hold all of the at most k
 * differences) are split again into r2 blocks, of which r2 - k more lead.
 * C(r1, k) * C(r2, k) tables, longer runs of leading bits for the same
 * number of tables than a flat design can reach.
 *
 * design_code identifies a design for a given k and is stored in every
 * table's header: code = r for flat designs, r1 | r2 << 8 for nested ones
 * (printed "r1xr2").  Codes are stable: the same (k, code) always gives
 * the same tables in the same order.
 */
#ifndef NDD_DESIGN_H
#define NDD_DESIGN_H

#include <stddef.h>
#include <stdint.h>

#define DESIGN_MAX_K 16
#define DESIGN_MAX_TABLES 4096

/* How one contiguous block of source bits moves into the key. */
struct design_move {
	uint8_t src_shift; /* block = (fp >> src_shift) & mask */
	uint8_t dst_shift; /* key |= block << dst_shift */
	uint8_t width;
};

struct design_table {
	uint8_t perm[64];   /* key bit i (from the top) <- fingerprint bit perm[i] */
	uint32_t lead_bits; /* bits of the leading blocks */
	uint64_t lead_mask; /* those bits, in fingerprint bit positions */
	uint32_t n_moves;
	struct design_move moves[64];
};

struct design {
	uint32_t k;
	uint32_t code;      /* r, or r1 | r2 << 8 for a nested design */
	uint32_t n_blocks;  /* r, or r1 of a nested design */
	uint32_t n_blocks2; /* r2 of a nested design, else 0 */
	uint32_t n_tables;
	uint8_t block_width[64]; /* block 0 holds the top bits of the fingerprint */
	struct design_table *tables;
};

/**
 * Build design @code for radius @k (0..16): flat, r blocks with
 * k < r <= 64; nested, r1 | r2 << 8 with k < r1, k < r2 and at least r2
 * bits left after the first level.
 * @return 0, or -1 if (k, code) is not a valid design or it would need
 * more than DESIGN_MAX_TABLES tables (logged).  Free with design_free().
 */
int design_make(struct design *d, uint32_t k, uint32_t code);

/** Parse "R" or "R1xR2" into a design code; @return 0 or -1. */
int design_parse(const char *s, uint32_t *code);

/** Write the design's name ("5" or "4x4") into @buf of @n bytes. */
void design_name(uint32_t code, char *buf, size_t n);

/*
 * The second pigeonhole inside long runs (join.c): the keys of a run agree
 * on their leading bits, so a pair's at most k differences lie in the
 * bits below; cut those into k + 1 sub-blocks and the pair agrees on one.
 * Sub-block 0 is the highest.  A run of at least design_split_run() keys
 * (never fewer than DESIGN_SPLIT_RUN) is searched sub-block by sub-block
 * instead of all pairs, if every sub-block is at least
 * DESIGN_SPLIT_MIN_WIDTH bits wide.
 */
#define DESIGN_SPLIT_RUN 64
#define DESIGN_SPLIT_MIN_WIDTH 4
/* Buckets per key when a sub-block is hashed (and the most buckets). */
#define DESIGN_SPLIT_LOAD 4
#define DESIGN_SPLIT_MAX_BITS 16

struct design_split {
	uint32_t parts;
	uint8_t shift[DESIGN_MAX_K + 1], width[DESIGN_MAX_K + 1];
	uint64_t mask[DESIGN_MAX_K + 1]; /* the sub-block's bits, in key position */
};

/** Sub-blocks for runs of @lead_bits at radius @k; @return 0 if runs of
 * such a table cannot be split (too few bits left). */
int design_split_init(struct design_split *ss, uint32_t lead_bits, uint32_t k);

/** The shortest run of a table with @lead_bits leading bits at radius @k
 * that the cost model (design_choose()) expects to search faster by
 * sub-blocks than by all pairs; SIZE_MAX if none is. */
size_t design_split_run(uint32_t lead_bits, uint32_t k);

/** Hash bits used for a run of @n keys (about DESIGN_SPLIT_LOAD buckets
 * per key, at most DESIGN_SPLIT_MAX_BITS). */
static inline unsigned design_split_bits(size_t n)
{
	unsigned bits = 2;
	while (bits < DESIGN_SPLIT_MAX_BITS && ((size_t)1 << bits) < DESIGN_SPLIT_LOAD * n)
		bits++;
	return bits;
}

/**
 * Choose the design for @n fingerprints at radius @k by the cost model:
 * per table, a fixed cost per record for permuting, sorting, coding and
 * reading (popcount comparisons' worth, measured), plus the expected cost
 * of its runs per record: all pairs, or the sub-block search for runs
 * long enough to split; flat and nested designs compete.
 * @return the design code.
 */
uint32_t design_choose(uint32_t k, uint64_t n);

/** design_choose() for tables built and joined in memory (memjoin.h),
 * where a record costs a table its sort and nothing more. */
uint32_t design_choose_memjoin(uint32_t k, uint64_t n);

/** Expected comparisons per fingerprint, summed over the tables (runs of
 * DESIGN_SPLIT_RUN keys or more split as join.c does). */
double design_comparisons(const struct design *d, uint64_t n);

void design_free(struct design *d);

/** Permute fingerprint @fp into table @t's key. */
static inline uint64_t design_permute(const struct design_table *t, uint64_t fp)
{
	uint64_t key = 0;
	for (uint32_t i = 0; i < t->n_moves; i++) {
		const struct design_move *m = &t->moves[i];
		uint64_t mask = m->width == 64 ? ~0ull : (1ull << m->width) - 1;
		key |= ((fp >> m->src_shift) & mask) << m->dst_shift;
	}
	return key;
}

/*
 * The same permutation by table lookup: a bit permutation maps each byte
 * of the fingerprint independently, so eight lookups and ORs do it with
 * no loop over the design's moves (the sort permutes every fingerprint
 * once per table: this is on its hot path).  16 KB per table.
 */
struct design_lut {
	uint64_t byte[8][256];
};

/** Fill @lut for table @t. */
void design_lut_build(const struct design_table *t, struct design_lut *lut);

static inline uint64_t design_lut_permute(const struct design_lut *lut, uint64_t fp)
{
	return lut->byte[0][fp & 0xff] | lut->byte[1][(fp >> 8) & 0xff] |
	       lut->byte[2][(fp >> 16) & 0xff] | lut->byte[3][(fp >> 24) & 0xff] |
	       lut->byte[4][(fp >> 32) & 0xff] | lut->byte[5][(fp >> 40) & 0xff] |
	       lut->byte[6][(fp >> 48) & 0xff] | lut->byte[7][fp >> 56];
}

/**
 * Fill @lut to turn table @from's keys into table @to's (a table number,
 * or -1 for the fingerprints themselves): both are bit permutations, so
 * the composition is one too, and an array of keys can be permuted in
 * place from one table to the next with no second array.
 */
void design_lut_between(const struct design *d, int from, int to, struct design_lut *lut);

/** Undo design_permute(). */
static inline uint64_t design_unpermute(const struct design_table *t, uint64_t key)
{
	uint64_t fp = 0;
	for (uint32_t i = 0; i < t->n_moves; i++) {
		const struct design_move *m = &t->moves[i];
		uint64_t mask = m->width == 64 ? ~0ull : (1ull << m->width) - 1;
		fp |= ((key >> m->dst_shift) & mask) << m->src_shift;
	}
	return fp;
}

/**
 * The deduplication rule: a pair within k agrees on the leading blocks of
 * possibly several tables; it is reported only by the first of them.
 * @return 1 if table @t is the first table where fingerprints whose XOR
 * is @x agree on all leading bits.
 */
static inline int design_first_table(const struct design *d, uint32_t t, uint64_t x)
{
	for (uint32_t i = 0; i < t; i++)
		if (!(x & d->tables[i].lead_mask))
			return 0;
	return 1;
}

#endif
