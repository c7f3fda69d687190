/*
 * design.c - see design.h.  Tables are the (r - k)-subsets of the r
 * blocks in lexicographic order (for nested designs, each level-1 subset
 * followed by every level-2 subset of the bits it leaves).  A table is
 * first written as its key order, the list of fingerprint bits from the
 * key's top; runs of consecutive bits in that list become shift-and-mask
 * moves, so a permutation costs a handful of operations, not 64 bit moves.
 */
#include "tables/design.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* Cost of one record in one table (permute, sort, pipe, code, decode), in
 * units of one popcount comparison of the AVX2 run scan (join.c): the
 * CPU time of the three stages per record and table over that of one
 * comparison (docs/DESIGN-NOTES.md, "The cost model").  Without AVX2 a
 * comparison costs more, and this overrates few-table designs. */
#define COST_PER_RECORD 128.0
/* The same in memory (memjoin.h): permute, group the runs, no coding or
 * pipe; from the CPU time of two designs at one N (docs/BENCHMARKS.md). */
#define MEMJOIN_COST_PER_RECORD 45.0

static uint64_t binomial(uint32_t n, uint32_t k)
{
	uint64_t c = 1;
	if (k > n)
		return 0;
	for (uint32_t i = 1; i <= k; i++) {
		c = c * (n - k + i) / i;
		if (c > (1ull << 40))
			return 1ull << 40;
	}
	return c;
}

/* Split @n bits into @r parts as even as possible, larger ones first:
 * 64 = 13+13+13+13+12. */
static void split(uint32_t n, uint32_t r, uint8_t *width)
{
	for (uint32_t b = 0; b < r; b++)
		width[b] = (uint8_t)(n / r + (b < n % r));
}

/* Moves from perm[]: runs of consecutive source bits become one move. */
static void derive_moves(struct design_table *t)
{
	t->n_moves = 0;
	for (uint32_t i = 0; i < 64;) {
		uint32_t j = i + 1;
		while (j < 64 && t->perm[j] + 1 == t->perm[j - 1])
			j++;
		struct design_move *m = &t->moves[t->n_moves++];
		m->width = (uint8_t)(j - i);
		m->src_shift = t->perm[j - 1];
		m->dst_shift = (uint8_t)(64 - j);
		i = j;
	}
}

/*
 * Table @t from its key order: @order[0..64) are fingerprint bit numbers
 * counted from the top (0 = most significant), leading bits first.  With
 * @leads_only (the cost model's candidates, which need nothing else) only
 * its leading bit count is set.
 */
static void fill_table(struct design_table *t, const uint8_t *order, uint32_t lead_bits,
		       int leads_only)
{
	memset(t, 0, sizeof *t);
	t->lead_bits = lead_bits;
	if (leads_only)
		return;
	for (uint32_t i = 0; i < 64; i++) {
		t->perm[i] = (uint8_t)(63 - order[i]);
		if (i < lead_bits)
			t->lead_mask |= 1ull << t->perm[i];
	}
	derive_moves(t);
}

/* Advance @lead (flags per block) to the next @m-subset of @r blocks in
 * lexicographic order of block numbers; @return 0 after the last one. */
static int next_subset(uint8_t *lead, uint32_t r, uint32_t m)
{
	uint32_t idx[64], n = 0;
	for (uint32_t b = 0; b < r; b++)
		if (lead[b])
			idx[n++] = b;
	int i = (int)m - 1;
	while (i >= 0 && idx[i] == r - m + (uint32_t)i)
		i--;
	if (i < 0)
		return 0;
	idx[i]++;
	for (uint32_t j = (uint32_t)i + 1; j < m; j++)
		idx[j] = idx[j - 1] + 1;
	memset(lead, 0, r);
	for (uint32_t j = 0; j < m; j++)
		lead[idx[j]] = 1;
	return 1;
}

/* The bits of @bits[0..n) (top-counted bit numbers, in order) cut into @r
 * blocks; append the chosen blocks' bits to @out (at *@len), and the
 * others to @rest (at *@rlen). */
static void take_blocks(const uint8_t *bits, uint32_t n, uint32_t r, const uint8_t *lead,
			uint8_t *out, uint32_t *len, uint8_t *rest, uint32_t *rlen)
{
	uint8_t width[64];
	split(n, r, width);
	for (uint32_t b = 0, at = 0; b < r; at += width[b], b++)
		for (uint32_t j = 0; j < width[b]; j++) {
			if (lead[b])
				out[(*len)++] = bits[at + j];
			else
				rest[(*rlen)++] = bits[at + j];
		}
}

static int valid_code(uint32_t k, uint32_t code)
{
	uint32_t r1 = code & 0xff, r2 = code >> 8;
	if (k > DESIGN_MAX_K || r1 <= k || r1 > 64 || r2 > 64)
		return 0;
	if (r2 == 0)
		return 1;
	/* Level 2 splits the bits of the k blocks left by level 1. */
	uint8_t width[64];
	split(64, r1, width);
	uint32_t left = 0;
	for (uint32_t b = r1 - k; b < r1; b++)
		left += width[b];
	return r2 > k && r2 <= left;
}

static uint64_t tables_of(uint32_t k, uint32_t code)
{
	uint32_t r2 = code >> 8;
	return binomial(code & 0xff, k) * (r2 ? binomial(r2, k) : 1);
}

/* Level-2 tables under one level-1 choice. */
static void fill_level2(struct design *d, uint32_t *t, const uint8_t *head, uint32_t hlen,
			const uint8_t *rest, uint32_t rlen, int leads_only)
{
	uint32_t r2 = d->n_blocks2, k = d->k, m2 = r2 - k;
	uint8_t lead2[64] = {0};
	memset(lead2, 1, m2);
	do {
		uint8_t order[64], tail[64];
		uint32_t len = hlen, tlen = 0;
		memcpy(order, head, hlen);
		take_blocks(rest, rlen, r2, lead2, order, &len, tail, &tlen);
		uint32_t lead_bits = len;
		memcpy(order + len, tail, tlen);
		fill_table(&d->tables[(*t)++], order, lead_bits, leads_only);
	} while (next_subset(lead2, r2, m2));
}

static int make(struct design *d, uint32_t k, uint32_t code, int leads_only)
{
	memset(d, 0, sizeof *d);
	char name[16];
	design_name(code, name, sizeof name);
	if (!valid_code(k, code)) {
		log_error("no table design %s for k = %u", name, k);
		return -1;
	}
	uint64_t n_tables = tables_of(k, code);
	if (n_tables > DESIGN_MAX_TABLES) {
		log_error("table design %s for k = %u needs %llu tables (limit %d)", name, k,
			  (unsigned long long)n_tables, DESIGN_MAX_TABLES);
		return -1;
	}
	d->k = k;
	d->code = code;
	d->n_blocks = code & 0xff;
	d->n_blocks2 = code >> 8;
	d->n_tables = (uint32_t)n_tables;
	split(64, d->n_blocks, d->block_width);
	if (!(d->tables = calloc(n_tables, sizeof *d->tables))) {
		log_error("out of memory building table design");
		return -1;
	}
	uint8_t all[64], lead[64] = {0};
	for (uint32_t i = 0; i < 64; i++)
		all[i] = (uint8_t)i;
	const uint32_t m = d->n_blocks - k;
	memset(lead, 1, m);
	uint32_t t = 0;
	do {
		uint8_t order[64], rest[64];
		uint32_t len = 0, rlen = 0;
		take_blocks(all, 64, d->n_blocks, lead, order, &len, rest, &rlen);
		if (d->n_blocks2) {
			fill_level2(d, &t, order, len, rest, rlen, leads_only);
		} else {
			memcpy(order + len, rest, rlen);
			fill_table(&d->tables[t++], order, len, leads_only);
		}
	} while (next_subset(lead, d->n_blocks, m));
	return 0;
}

int design_make(struct design *d, uint32_t k, uint32_t code)
{
	return make(d, k, code, 0);
}

int design_parse(const char *s, uint32_t *code)
{
	char *end;
	unsigned long r1 = strtoul(s, &end, 10), r2 = 0;
	if (end == s || r1 == 0 || r1 > 64)
		return -1;
	if (*end == 'x' || *end == 'X') {
		const char *p = end + 1;
		r2 = strtoul(p, &end, 10);
		if (end == p || r2 == 0 || r2 > 64)
			return -1;
	}
	if (*end)
		return -1;
	*code = (uint32_t)(r1 | r2 << 8);
	return 0;
}

void design_name(uint32_t code, char *buf, size_t n)
{
	if (code >> 8)
		snprintf(buf, n, "%ux%u", code & 0xff, code >> 8);
	else
		snprintf(buf, n, "%u", code);
}

int design_split_init(struct design_split *ss, uint32_t lead_bits, uint32_t k)
{
	const uint32_t rem = 64 - lead_bits, parts = k + 1;
	if (k > DESIGN_MAX_K || rem < parts * DESIGN_SPLIT_MIN_WIDTH)
		return 0;
	ss->parts = parts;
	split(rem, parts, ss->width);
	uint32_t top = rem;
	for (uint32_t s = 0; s < parts; s++) {
		top -= ss->width[s];
		ss->shift[s] = (uint8_t)top;
		ss->mask[s] = ((1ull << ss->width[s]) - 1) << top;
	}
	return 1;
}

/* Cost of one hashing of one key in the sub-block search, in comparisons
 * of the all-pairs scan, found as COST_PER_RECORD was. */
#define SPLIT_COST_PER_KEY 17.0
/* Cost of one comparison met in a bucket's chain: a dependent load and
 * scalar tests, where the all-pairs scan compares four keys at a time.
 * Priced as all-pairs comparisons, they would make the model choose
 * designs with few tables whose buckets are long. */
#define SPLIT_COST_PER_CMP 8.0

/*
 * Expected comparisons per record of one table with @lead leading bits
 * (@m = n / 2^lead keys per run on average); *@cost adds their cost and
 * the hashing work where runs are split.  All pairs: (m - 1) / 2 at unit
 * cost.  Split: the keys met in sub-block 0 (neighbours with equal top
 * bits) and in each hashed one, at SPLIT_COST_PER_CMP each, and the
 * hashing.  The cheaper one is what join.c does (design_split_run()).
 */
static double run_comparisons(uint32_t lead, uint32_t k, double m, double *cost)
{
	struct design_split ss;
	const double all = m > 1 ? (m - 1) / 2 : 0;
	if (m < DESIGN_SPLIT_RUN || !design_split_init(&ss, lead, k)) {
		*cost += all;
		return all;
	}
	const unsigned bits = design_split_bits((size_t)m);
	double c = m / 2 / ldexp(1.0, ss.width[0]);
	for (uint32_t s = 1; s < ss.parts; s++)
		c += m / 2 / ldexp(1.0, (int)(bits < ss.width[s] ? bits : ss.width[s]));
	const double split_cost = SPLIT_COST_PER_CMP * c + SPLIT_COST_PER_KEY * (ss.parts - 1);
	if (split_cost >= all) {
		*cost += all;
		return all;
	}
	*cost += split_cost;
	return c;
}

size_t design_split_run(uint32_t lead_bits, uint32_t k)
{
	struct design_split ss;
	if (!design_split_init(&ss, lead_bits, k))
		return SIZE_MAX;
	/* the split's cost per key grows more slowly than all pairs' (m / 2)
	 * wherever it ever wins, so the first run length that wins is the
	 * threshold; steps of 1/32 are close enough for a cost estimate */
	for (size_t m = DESIGN_SPLIT_RUN; m <= ((size_t)1 << 24); m += m / 32) {
		double cost = 0;
		run_comparisons(lead_bits, k, (double)m, &cost);
		if (cost < (double)(m - 1) / 2)
			return m;
	}
	return SIZE_MAX;
}

/* The runs of every table of @d for @n fingerprints: expected comparisons
 * per fingerprint, and in *@cost their cost (see run_comparisons()). */
static double runs_of(const struct design *d, uint64_t n, double *cost)
{
	double c = 0;
	for (uint32_t t = 0; t < d->n_tables; t++)
		c += run_comparisons(d->tables[t].lead_bits, d->k,
				     (double)n / ldexp(1.0, (int)d->tables[t].lead_bits), cost);
	return c;
}

double design_comparisons(const struct design *d, uint64_t n)
{
	double cost = 0;
	return runs_of(d, n, &cost);
}

static double cost_of(uint32_t k, uint32_t code, uint64_t n, double per_record)
{
	struct design d;
	int level = log_get_level();
	log_set_level(LOG_SILENT); /* candidates that do not exist are normal here */
	int bad = make(&d, k, code, 1); /* the cost needs only the leading bits */
	log_set_level(level);
	if (bad)
		return INFINITY;
	double cost = (double)d.n_tables * per_record;
	runs_of(&d, n, &cost);
	design_free(&d);
	return cost;
}

static uint32_t choose(uint32_t k, uint64_t n, double per_record)
{
	uint32_t best = k + 1;
	double best_cost = INFINITY;
	for (uint32_t r1 = k + 1; r1 <= 64; r1++) {
		if (binomial(r1, k) > DESIGN_MAX_TABLES)
			break;
		for (uint32_t r2 = 0; r2 <= 64; r2 = r2 ? r2 + 1 : k + 1) {
			uint32_t code = r1 | r2 << 8;
			if (tables_of(k, code) > DESIGN_MAX_TABLES)
				break;
			double c = cost_of(k, code, n, per_record);
			if (c < best_cost) {
				char name[32];
				design_name(code, name, sizeof name);
				log_debug("design %s: cost %.4g per fingerprint", name, c);
				best_cost = c;
				best = code;
			}
		}
	}
	return best;
}

uint32_t design_choose(uint32_t k, uint64_t n)
{
	return choose(k, n, COST_PER_RECORD);
}

uint32_t design_choose_memjoin(uint32_t k, uint64_t n)
{
	return choose(k, n, MEMJOIN_COST_PER_RECORD);
}

void design_free(struct design *d)
{
	free(d->tables);
	d->tables = NULL;
}

void design_lut_build(const struct design_table *t, struct design_lut *lut)
{
	for (unsigned b = 0; b < 8; b++)
		for (unsigned v = 0; v < 256; v++)
			lut->byte[b][v] = design_permute(t, (uint64_t)v << (8 * b));
}

void design_lut_between(const struct design *d, int from, int to, struct design_lut *lut)
{
	for (unsigned b = 0; b < 8; b++)
		for (unsigned v = 0; v < 256; v++) {
			uint64_t fp = (uint64_t)v << (8 * b);
			if (from >= 0)
				fp = design_unpermute(&d->tables[from], fp);
			lut->byte[b][v] = to >= 0 ? design_permute(&d->tables[to], fp) : fp;
		}
}
