/*
 * memhint.c - see memhint.h.
 */
#include "memhint.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define HUGE_PAGE ((uintptr_t)2 << 20)
#define WORTH_IT ((size_t)256 << 20)

void mem_hint_huge_pages(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	if (!p || n < WORTH_IT)
		return;
	uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void *mem_alloc_huge(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p)
		mem_hint_huge_pages(p, n);
	return p;
}

void mem_keep_freed(void)
{
#ifdef __GLIBC__
	/* every block from the heap, which is then never trimmed */
	(void)mallopt(M_MMAP_MAX, 0);
	(void)mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}
