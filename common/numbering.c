/*
 * numbering.c - see numbering.h.
 */
#include "numbering.h"

enum { SLICES = 256 };

size_t numbering_assign(uint32_t *v, size_t n)
{
	size_t base[SLICES + 1] = {0};
#pragma omp parallel for schedule(static)
	for (size_t s = 0; s < SLICES; s++) {
		size_t c = 0;
		for (size_t i = n * s / SLICES; i < n * (s + 1) / SLICES; i++)
			c += v[i] != NUMBERING_UNMARKED;
		base[s + 1] = c;
	}
	for (size_t s = 0; s < SLICES; s++)
		base[s + 1] += base[s];
#pragma omp parallel for schedule(static)
	for (size_t s = 0; s < SLICES; s++) {
		uint32_t id = (uint32_t)base[s];
		for (size_t i = n * s / SLICES; i < n * (s + 1) / SLICES; i++)
			if (v[i] != NUMBERING_UNMARKED)
				v[i] = id++;
	}
	return base[SLICES];
}
