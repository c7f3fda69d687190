/*
 * spill.h - sorted runs on temporary files and their k-way merge, for
 * sorting tables larger than the memory budget (the way samtools sort
 * spills sorted chunks and heap-merges them).
 *
 * Temporary files are created in a directory of the caller's choice and
 * unlinked at once, so a crash or a kill leaves nothing behind.  Records
 * are written in the raw table layout (tablefile_put_raw()).
 */
#ifndef NDD_SPILL_H
#define NDD_SPILL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tables/keysort.h"

/**
 * Create an anonymous temporary file in @dir (NULL: $TMPDIR or /tmp).
 * @return the stream, or NULL (logged).  fclose() frees it for good.
 */
FILE *spill_tmpfile(const char *dir);

/** The directory spill_tmpfile(@dir) writes to, for messages. */
const char *spill_dir(const char *dir);

struct spill_runs;

/** A set of runs in @dir.  @return NULL on error (logged). */
struct spill_runs *spill_runs_new(const char *dir);

/**
 * Write @recs[0..n), sorted by (key, idx), as one run.
 * @return 0, or -1 (logged: the disk is full, say).
 */
int spill_runs_add(struct spill_runs *s, const struct table_rec *recs, size_t n)
	__attribute__((warn_unused_result));

/** Runs written so far. */
size_t spill_runs_count(const struct spill_runs *s);

/**
 * Merge every run in (key, idx) order and hand the records to @emit in
 * batches of at most @batch records (@emit returns 0 to go on).  Each
 * call merges the runs from their start, so a caller may merge twice
 * (permute-sort: once to count, once to write).  Uses about 64 KiB of
 * buffer per run.  @return 0, -1 on an I/O error
 * (logged), or what @emit returned.
 */
int spill_runs_merge(struct spill_runs *s, size_t batch,
		     int (*emit)(void *ctx, const struct table_rec *recs, size_t n), void *ctx)
	__attribute__((warn_unused_result));

/** Close and free every run.  NULL is a no-op. */
void spill_runs_free(struct spill_runs *s);

#endif
