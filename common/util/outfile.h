/*
 * outfile.h - output files published atomically.
 *
 * Data goes to "<path>.tmp.<pid>", which outfile_commit() flushes, fsyncs
 * and renames onto <path> (with NDD_NO_FSYNC=1 in the environment it
 * only starts the writeback: the caller syncs what it keeps).  A failed run, or one killed by SIGINT, SIGTERM
 * or SIGHUP, removes the temporary file, so a reader never sees a
 * half-written output.  "-" or NULL means stdout (no rename); an existing
 * path that is not a regular file (/dev/null, a FIFO) is written in place.
 */
#ifndef NDD_OUTFILE_H
#define NDD_OUTFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct outfile {
	FILE *fp;
	char *path;     /* final name, NULL for stdout */
	char *tmp_path; /* NULL for stdout */
	const char *display; /* name for messages */
	int direct;     /* a device or FIFO, written in place */
	uint64_t synced; /* bytes handed to writeback by outfile_writeback() */
	struct bulk_writer *bulk; /* outfile_open_bulk() on a regular file */
	int scratch;    /* set by the caller: commit neither syncs nor starts writeback */
};

/** Open @path for writing as above.  @return 0, or -1 (logged). */
int outfile_open(struct outfile *o, const char *path);

/**
 * outfile_open() for an output of GBs that nobody reads back soon (the
 * cluster CSV): a regular file is then written past the page cache
 * (bulkwrite.h), and every byte must go through outfile_write(), never
 * through o->fp.
 */
int outfile_open_bulk(struct outfile *o, const char *path);

/** Append @n bytes.  @return 0, or -1 (logged). */
int outfile_write(struct outfile *o, const void *p, size_t n);

/**
 * Start the disk writing what has been written so far (a regular file,
 * every 64 MB or so), so that outfile_commit()'s fsync finds little left
 * to wait for: writers of GB-sized outputs call it as they go.  Only a
 * hint; errors show at commit.
 */
void outfile_writeback(struct outfile *o);

/**
 * Flush, fsync, close, rename.  With o->scratch set, no fsync and no
 * writeback: an intermediate that the same run reads back from the page
 * cache, whose loss a crash makes the run's resume check see.
 * @return 0, or -1 (logged; temp removed).
 */
int outfile_commit(struct outfile *o);

/** Close and remove the temporary file.  Safe to call twice. */
void outfile_abort(struct outfile *o);

#endif
