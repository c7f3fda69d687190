/*
 * pagestore.h - the sampled page records (hostlearn.h) of a learning
 * step, held in memory up to a limit and past it spilled to 256 temporary
 * files by the host key's top 8 bits.  Learning needs all of a host's
 * pages at once, and a host lies in one partition, so a learner that
 * takes the partitions one at a time needs about 1/256 of the spill in
 * memory (ndd-template -m; ndd-mpi template -m, whose ranks exchange the
 * partitions a few at a time).  The files are unlinked at once: they go
 * with the process however it ends.
 */
#ifndef NDD_TEMPLATE_PAGESTORE_H
#define NDD_TEMPLATE_PAGESTORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "template/hostlearn.h"

#define TPL_STORE_PARTS 256

struct tpl_pagestore {
	uint8_t *buf; /* the records in memory, one after another */
	size_t len, limit;
	FILE *part[TPL_STORE_PARTS];
	int spilled;
	uint64_t spilled_bytes;
	const char *tmpdir;
};

/** The partition of @host. */
static inline unsigned tpl_store_part(uint64_t host)
{
	return (unsigned)(host >> 56);
}

/** An empty store of @limit bytes in memory, spilling into @tmpdir
 * (which must outlive the store).  @return 0, or -1 if memory ran out
 * (logged; the store is then empty and may be freed). */
int tpl_pagestore_init(struct tpl_pagestore *s, size_t limit, const char *tmpdir)
	__attribute__((warn_unused_result));

/** Add a page: @h and its body (tpl_page_words(h->n) words).  When the
 * memory is full, every page held goes to its partition first.
 * @return 0, or -1 if a spill file could not be written (logged). */
int tpl_pagestore_add(struct tpl_pagestore *s, const struct tpl_page_head *h,
		      const uint64_t *body);

/** Move every page in memory to its partition.  @return 0 or -1 (logged). */
int tpl_pagestore_spill(struct tpl_pagestore *s);

/** Bytes of partition @p on disk (0 if it has none), or -1 (logged). */
int64_t tpl_pagestore_part_bytes(struct tpl_pagestore *s, unsigned p);

/** Append partition @p's records to *@buf (*@len bytes used, *@cap
 * allocated, grown as needed).  @return 0 or -1 (logged). */
int tpl_pagestore_read_part(struct tpl_pagestore *s, unsigned p, uint8_t **buf, size_t *len,
			    size_t *cap);

/** Close the partitions and free the memory. */
void tpl_pagestore_free(struct tpl_pagestore *s);

#endif
