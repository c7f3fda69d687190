/*
 * design.c - see design.h.  Tables are the (r - k)-subsets of the r
 * blocks in lexicographic order; the key holds the leading blocks first,
 * then the others, each block keeping its internal bit order, so a
 * permutation is a handful of shift-and-mask moves, not 64 bit moves.
 */
#include "design.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

/* Cost of one record in one table (permute, sort, compress, scan),
 * in units of one popcount comparison.  Measured roughly; see README. */
#define COST_PER_RECORD 16.0

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

/* Blocks as even as possible, larger ones first: 64 = 13+13+13+13+12. */
static void split_blocks(struct design *d)
{
	uint32_t base = 64 / d->n_blocks, extra = 64 % d->n_blocks;
	for (uint32_t b = 0; b < d->n_blocks; b++)
		d->block_width[b] = (uint8_t)(base + (b < extra));
}

/* Bit offset (from the top) of block b in the fingerprint. */
static uint32_t block_top(const struct design *d, uint32_t b)
{
	uint32_t top = 0;
	for (uint32_t i = 0; i < b; i++)
		top += d->block_width[i];
	return top;
}

static void fill_table(const struct design *d, struct design_table *t, const uint8_t *lead)
{
	uint32_t order[64], n = 0, key_top = 0;
	for (uint32_t b = 0; b < d->n_blocks; b++)
		if (lead[b])
			order[n++] = b;
	for (uint32_t b = 0; b < d->n_blocks; b++)
		if (!lead[b])
			order[n++] = b;
	memset(t, 0, sizeof *t);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t b = order[i], w = d->block_width[b], src_top = block_top(d, b);
		struct design_move *m = &t->moves[t->n_moves++];
		m->width = (uint8_t)w;
		m->src_shift = (uint8_t)(64 - src_top - w);
		m->dst_shift = (uint8_t)(64 - key_top - w);
		for (uint32_t j = 0; j < w; j++)
			t->perm[key_top + j] = (uint8_t)(63 - (src_top + j));
		if (lead[b]) {
			t->lead_bits += w;
			uint64_t mask = w == 64 ? ~0ull : ((1ull << w) - 1);
			t->lead_mask |= mask << m->src_shift;
		}
		key_top += w;
	}
}

/* Advance @lead to the next (r-k)-subset in lexicographic order of the
 * chosen block numbers; @return 0 after the last one. */
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

int design_make(struct design *d, uint32_t k, uint32_t code)
{
	memset(d, 0, sizeof *d);
	if (k > DESIGN_MAX_K || code <= k || code > 64) {
		log_error("no table design %u for k = %u (need k < blocks <= 64, k <= %d)",
			  code, k, DESIGN_MAX_K);
		return -1;
	}
	uint64_t n_tables = binomial(code, k);
	if (n_tables > DESIGN_MAX_TABLES) {
		log_error("table design %u for k = %u needs %llu tables (limit %d)", code, k,
			  (unsigned long long)n_tables, DESIGN_MAX_TABLES);
		return -1;
	}
	d->k = k;
	d->code = d->n_blocks = code;
	d->n_tables = (uint32_t)n_tables;
	split_blocks(d);
	d->tables = calloc(n_tables, sizeof *d->tables);
	if (!d->tables) {
		log_error("out of memory building table design");
		return -1;
	}
	uint8_t lead[64] = {0};
	uint32_t m = code - k;
	memset(lead, 1, m);
	for (uint32_t t = 0; t < d->n_tables; t++) {
		fill_table(d, &d->tables[t], lead);
		next_subset(lead, code, m);
	}
	return 0;
}

static double lead_bits_of(uint32_t k, uint32_t r)
{
	/* The leading blocks of the first table are the widest ones. */
	return floor(64.0 * (r - k) / r);
}

double design_comparisons(const struct design *d, uint64_t n)
{
	double c = 0;
	for (uint32_t t = 0; t < d->n_tables; t++)
		c += (double)n / ldexp(1.0, (int)d->tables[t].lead_bits);
	return c;
}

uint32_t design_choose(uint32_t k, uint64_t n)
{
	uint32_t best = k + 1;
	double best_cost = INFINITY;
	if (k == 0)
		return 1;
	for (uint32_t r = k + 1; r <= 64; r++) {
		uint64_t tables = binomial(r, k);
		if (tables > DESIGN_MAX_TABLES)
			break;
		double runs = (double)n / ldexp(1.0, (int)lead_bits_of(k, r));
		double cost = (double)tables * (COST_PER_RECORD + runs);
		if (cost < best_cost) {
			best_cost = cost;
			best = r;
		}
	}
	return best;
}

void design_free(struct design *d)
{
	free(d->tables);
	d->tables = NULL;
}
