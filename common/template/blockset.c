/*
 * blockset.c - see blockset.h.
 */
#include "template/blockset.h"

#include <stdlib.h>
#include <string.h>

int blockset_build(struct blockset *s, const uint64_t *v, size_t n)
{
	memset(s, 0, sizeof *s);
	if (!n)
		return 0;
	size_t slots = 16;
	while (slots < 2 * n) {
		if (slots > SIZE_MAX / 4 / sizeof *s->slot)
			return -1;
		slots *= 2;
	}
	s->slot = calloc(slots, sizeof *s->slot);
	if (!s->slot)
		return -1;
	s->mask = slots - 1;
	for (size_t k = 0; k < n; k++) {
		const uint64_t h = v[k];
		if (!h) {
			s->n += !s->has_zero;
			s->has_zero = 1;
			continue;
		}
		size_t i = (size_t)((h * 0x9E3779B97F4A7C15ull) >> 32) & s->mask;
		while (s->slot[i] && s->slot[i] != h)
			i = (i + 1) & s->mask;
		if (!s->slot[i]) {
			s->slot[i] = h;
			s->n++;
		}
	}
	return 0;
}

void blockset_free(struct blockset *s)
{
	free(s->slot);
	memset(s, 0, sizeof *s);
}
