/*
 * spillout.h - an output kept in memory while it is small enough, on disk
 * past that.
 *
 * The bytes go to a file on a tmpfs (memory) while it holds at most a
 * budget and the tmpfs takes them; the first write past either moves what
 * it holds to the disk file and goes on there.  Either file is published
 * atomically (outfile.h) at commit, and only one of the two names exists
 * then: the caller looks for the memory one to know which.  Whatever the
 * memory part's fate (a budget too small, a full or missing tmpfs), the
 * output is whole: only the disk file's own errors fail it.
 */
#ifndef NDD_SPILLOUT_H
#define NDD_SPILLOUT_H

#include <stddef.h>
#include <stdint.h>

#include "util/outfile.h"

struct spillout {
	struct outfile mem;  /* open while the bytes are in memory */
	struct outfile disk; /* open after the move */
	int in_mem;
	uint64_t held;   /* bytes in the memory file */
	uint64_t budget; /* most bytes the memory file may hold */
	char *disk_path;
	int scratch; /* outfile.h's: commit neither syncs nor starts writeback */
};

/**
 * Open an output published as @disk_path, or as @mem_path while it holds
 * at most @budget bytes.  @mem_path NULL or @budget 0: on disk from the
 * start; a memory file that cannot be created is no error either (logged
 * at info level).  @scratch as in struct outfile.  @return 0, or -1
 * (logged: @disk_path could not be opened when it was needed).
 */
int spillout_open(struct spillout *s, const char *mem_path, uint64_t budget,
		  const char *disk_path, int scratch);

/** Append @n bytes.  @return 0, or -1 (logged: the disk file failed). */
int spillout_write(struct spillout *s, const void *p, size_t n);

/** Publish the one file that holds the bytes.  @return 0, or -1 (logged). */
int spillout_commit(struct spillout *s);

/** Remove whatever was written.  Safe to call twice. */
void spillout_abort(struct spillout *s);

#endif
