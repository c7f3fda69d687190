#include "util/grow.h"

#include <stdint.h>
#include <stdlib.h>

int array_grow(void **arr, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 64;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -1;
		c *= 2;
	}
	if (size && c > SIZE_MAX / size)
		return -1;
	void *const q = realloc(*arr, c * size);
	if (!q)
		return -1;
	*arr = q;
	*cap = c;
	return 0;
}
