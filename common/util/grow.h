/*
 * grow.h - growing a heap array by doubling.
 *
 * Many modules keep arrays whose final size is known only at the end
 * (per-host tables, page lists).  One helper grows them, with the size
 * arithmetic checked once, instead of a copy in each module.
 */
#ifndef NDD_GROW_H
#define NDD_GROW_H

#include <stddef.h>

/**
 * Make the array *@arr of items of @size bytes hold at least @need items:
 * if *@cap is smaller, reallocate to the first power-of-two multiple of 64
 * items that fits and update *@arr and *@cap.
 * @return 0, or -1 if memory ran out or the size overflows (then *@arr and
 * *@cap are unchanged and still owned by the caller).
 */
int array_grow(void **arr, size_t *cap, size_t need, size_t size)
	__attribute__((warn_unused_result));

#endif
