/*
 * teein.h - an input that keeps a copy of every byte read from it.
 *
 * What a shell pipe 'ndd-extract | tee FILE | ndd-template -' does, in the
 * reading process: the bytes go into FILE (published atomically, outfile.h)
 * as they are read, without a tee process copying them once more through
 * a second pipe.
 */
#ifndef NDD_TEEIN_H
#define NDD_TEEIN_H

#include <stdint.h>
#include <stdio.h>

struct teein;

/**
 * Wrap @in (left open; the caller closes it after teein_finish()) in a
 * FILE whose reads also append to a copy, published as @copy_path; or,
 * while it holds at most @mem_max bytes, as @mem_path, a file in memory
 * (a tmpfs: spillout.h; NULL or 0, on disk).  @return the handle, or
 * NULL (logged); the FILE is teein_file().
 */
struct teein *teein_open(FILE *in, const char *copy_path, const char *mem_path,
			 uint64_t mem_max);

/** The FILE to read from. */
FILE *teein_file(struct teein *t);

/**
 * Read what the reader left unread, to the end of the input, so that the
 * copy is the whole input whatever the reader made of it; then publish
 * the copy.  Frees @t.  @return 0, or -1 (logged, nothing published: a
 * write error, or a read error of the input).
 */
int teein_finish(struct teein *t);

#endif
