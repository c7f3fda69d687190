/*
 * bitrank.c - see bitrank.h.
 */
#include "util/bitrank.h"

#include <stdlib.h>

int bitrank_init(struct bitrank *b, size_t n)
{
	b->words = n / 64 + 1;
	b->bit = calloc(b->words, sizeof *b->bit);
	b->rank = malloc(b->words * sizeof *b->rank);
	if (b->bit && b->rank)
		return 0;
	bitrank_free(b);
	return -1;
}

void bitrank_free(struct bitrank *b)
{
	free(b->bit);
	free(b->rank);
	b->bit = NULL;
	b->rank = NULL;
	b->words = 0;
}

size_t bitrank_finish(struct bitrank *b)
{
	size_t sum = 0;
	for (size_t w = 0; w < b->words; w++) {
		b->rank[w] = (uint32_t)sum;
		sum += (size_t)__builtin_popcountll(b->bit[w]);
	}
	return sum;
}
