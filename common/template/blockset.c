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

/* Put @h (not 0, not present) into the slots of @s. */
static void put(struct blockset *s, uint64_t h)
{
	size_t i = (size_t)((h * 0x9E3779B97F4A7C15ull) >> 32) & s->mask;
	while (s->slot[i])
		i = (i + 1) & s->mask;
	s->slot[i] = h;
}

int blockset_add(struct blockset *s, uint64_t h)
{
	if (!s->slot) { /* blockset_has() probes the slots of a set with any hash */
		s->slot = calloc(16, sizeof *s->slot);
		if (!s->slot)
			return -1;
		s->mask = 15;
	}
	if (blockset_has(s, h))
		return 0;
	if (!h) {
		s->has_zero = 1;
		s->n++;
		return 0;
	}
	const size_t slots = s->mask + 1;
	if (2 * (s->n + 1) > slots) {
		const size_t grown = 2 * slots;
		if (grown > SIZE_MAX / 4 / sizeof *s->slot)
			return -1;
		struct blockset g = {calloc(grown, sizeof *s->slot), grown - 1, s->n, s->has_zero};
		if (!g.slot)
			return -1;
		for (size_t i = 0; i < slots; i++)
			if (s->slot[i])
				put(&g, s->slot[i]);
		free(s->slot);
		*s = g;
	}
	put(s, h);
	s->n++;
	return 0;
}

/* The slot @h is put in when no other hash is in its way. */
static size_t home(const struct blockset *s, uint64_t h)
{
	return (size_t)((h * 0x9E3779B97F4A7C15ull) >> 32) & s->mask;
}

void blockset_remove(struct blockset *s, uint64_t h)
{
	if (!blockset_has(s, h))
		return;
	s->n--;
	if (!h) {
		s->has_zero = 0;
		return;
	}
	size_t gap = home(s, h);
	while (s->slot[gap] != h)
		gap = (gap + 1) & s->mask;
	for (size_t j = (gap + 1) & s->mask; s->slot[j]; j = (j + 1) & s->mask) {
		/* a hash may fill the gap when the gap lies on its probe path:
		 * cyclically between its home and where it is */
		const size_t k = home(s, s->slot[j]);
		if (((j - k) & s->mask) >= ((j - gap) & s->mask)) {
			s->slot[gap] = s->slot[j];
			gap = j;
		}
	}
	s->slot[gap] = 0;
}

void blockset_free(struct blockset *s)
{
	free(s->slot);
	memset(s, 0, sizeof *s);
}
