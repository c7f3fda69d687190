/*
 * memhint.h - tell the kernel how big arrays will be used.
 *
 * The self-join's last phases (provenance of the paired documents, the
 * pair graph, the CSV) read arrays of hundreds of MB to GB at random, and
 * the sort's top radix level writes to thousands of places in GB-sized
 * arrays at once.  With 4 KB pages nearly every such access also misses
 * the TLB; asking for transparent huge pages on those arrays (2 MB pages)
 * removes most of that.
 * Only a hint: where THP is off ("never") or memory is short the kernel
 * ignores it, and nothing changes but speed.
 */
#ifndef NDD_MEMHINT_H
#define NDD_MEMHINT_H

#include <stddef.h>

/** Ask for huge pages on the 2 MB-aligned interior of [p, p + n) when it
 * is large enough to matter (256 MB: the kernel zeroes and compacts 2 MB at
 * a time, which costs more than it saves in TLB misses on smaller
 * arrays); call after each (re)allocation. */
void mem_hint_huge_pages(void *p, size_t n);

/** malloc(@n) (at least one byte) with the hint above; NULL on failure. */
void *mem_alloc_huge(size_t n);

/**
 * Keep freed memory in the process for the next allocations, instead of
 * handing every large block back to the kernel (glibc maps blocks of 32 MB
 * or more on their own and unmaps them on free()).  For a program whose
 * phases free GB-sized arrays and then allocate others: memory taken anew
 * from the kernel is cleared page by page on first touch, and on a virtual
 * machine that returns freed pages to its host that clearing is slower
 * than the work done with the memory.  The price: the peak stays allocated
 * until exit.  A no-op outside glibc.  Blocks allocated before the call
 * are still handed back when freed.
 */
void mem_keep_freed(void);

/*
 * Fault memory in ahead of need, on a background thread at the lowest
 * priority, so that the clearing of fresh pages (the kernel's, and on a
 * VM whose host took them back, the host's) is
 * done while the cores have nothing better to do: while a stage waits for
 * its input.  The caller allocates the block (with mem_keep_freed() in
 * effect), starts this, and frees the block once mem_prefault_stop()
 * returned; its later allocations then find the pages ready.
 */
struct mem_prefault;

/** Start touching every page of [p, p + n).  NULL if no thread could be
 * started (then nothing happens: the pages are faulted on first use). */
struct mem_prefault *mem_prefault_start(void *p, size_t n);

/** Stop where it got to and join; the part not reached, if huge pages
 * were asked for on the block, is given back to small pages.
 * @return the bytes touched.  NULL is fine (returns 0). */
size_t mem_prefault_stop(struct mem_prefault *f);

#endif
