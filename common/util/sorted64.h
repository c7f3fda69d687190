/*
 * sorted64.h - arrays of u64 kept in ascending order: the qsort()
 * comparator and the lookups the template sets make of such arrays.
 */
#ifndef NDD_UTIL_SORTED64_H
#define NDD_UTIL_SORTED64_H

#include <stddef.h>
#include <stdint.h>

/** qsort()/bsearch() comparator of two uint64_t, ascending. */
int u64_cmp(const void *a, const void *b);

/** Index of @key in the @n ascending @v, or @n if it is not there. */
size_t u64_find(const uint64_t *v, size_t n, uint64_t key);

/** Whether the @n ascending @v hold @key. */
static inline int u64_has(const uint64_t *v, size_t n, uint64_t key)
{
	return u64_find(v, n, key) < n;
}

#endif
