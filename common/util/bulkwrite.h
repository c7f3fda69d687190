/*
 * bulkwrite.h - write a large output file past the page cache (O_DIRECT).
 *
 * The cluster CSV of a night is GBs, written once and fsynced before it
 * is renamed into place.  Through the page cache every byte is first
 * copied into freshly allocated cache pages, and on a VM whose host takes
 * back free memory (a balloon) the first touch of those pages costs more
 * than the write itself (docs/BENCHMARKS.md).  Since the fsync makes
 * the caller wait for the disk anyway, skipping the cache costs nothing.
 *
 * Bytes are staged in an aligned buffer and written in aligned pieces;
 * the unaligned tail goes through an ordinary descriptor at the end.  A
 * filesystem that refuses O_DIRECT (tmpfs) makes bulk_open() return NULL,
 * and the caller writes its usual way.
 */
#ifndef NDD_BULKWRITE_H
#define NDD_BULKWRITE_H

#include <stddef.h>

struct bulk_writer;

/**
 * Open @path (an existing, empty regular file the caller created) a
 * second time for direct writes from offset 0.  @display names it in
 * messages.  @return the writer, or NULL if direct I/O is not possible
 * there (not an error: nothing is logged).
 */
struct bulk_writer *bulk_open(const char *path, const char *display);

/** Append @n bytes.  @return 0, or -1 (logged with the file and offset). */
int bulk_write(struct bulk_writer *b, const void *p, size_t n);

/**
 * Write what is staged (the tail without O_DIRECT) and close.  The data
 * is then in the file but not yet durable: the caller fsyncs.
 * @return 0, or -1 (logged).  @b is freed either way.
 */
int bulk_finish(struct bulk_writer *b);

/** Close and free without writing what is staged.  NULL is fine. */
void bulk_abort(struct bulk_writer *b);

#endif
