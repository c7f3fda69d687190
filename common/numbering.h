/*
 * numbering.h - give the marked entries of a large array consecutive
 * numbers in index order, on all threads.
 *
 * The self-join does this three times over arrays of up to a night's
 * documents (the documents in pairs, the roots of the pair graph's
 * components, the catalog slots to fill).  The array is cut into fixed
 * slices, each slice counts its marked entries, the counts become each
 * slice's first number, and the slices number themselves: the numbers do
 * not depend on the thread count.
 */
#ifndef NDD_NUMBERING_H
#define NDD_NUMBERING_H

#include <stddef.h>
#include <stdint.h>

/** Entry value that means "not marked": it is left as it is. */
#define NUMBERING_UNMARKED UINT32_MAX

/**
 * Replace every entry of @v[0..n) that is not NUMBERING_UNMARKED by its
 * rank among them (0, 1, 2, ... in index order).
 * @return the number of marked entries.
 */
size_t numbering_assign(uint32_t *v, size_t n);

#endif
