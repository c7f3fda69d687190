/*
 * catalog_share.h - one share of a fingerprint catalog, read by index.
 *
 * The ranks of an MPI job each take a contiguous share of the catalog's
 * records (document indices).  Reading the whole catalog to keep 1/P of
 * it costs every rank the reading of all of it; the block index in each
 * section's footer (ndf.h) gives every block's first record, so a rank
 * reads the section headers and footers, then only the blocks holding
 * its share.  The totals (records, dataset id) come from the headers,
 * which ndf_section_open() checks against the footers; the payload CRC
 * of the blocks not read is not checked here (ndd-self-join reads the
 * whole catalog and checks it).
 */
#ifndef NDD_CATALOG_SHARE_H
#define NDD_CATALOG_SHARE_H

#include <stdint.h>

#include "format/catalog.h"

/* catalog_share()'s answer when an input cannot be read by index. */
#define CATALOG_NOT_INDEXED 1

struct catalog_share {
	uint64_t lo, hi; /* the share: records [lo, hi) */
	uint64_t *fp;    /* their fingerprints (hi - lo), the caller frees it */
	uint64_t blocks_read, bytes_read;
};

/**
 * Share @part of @parts of the catalog @paths[0..n): records
 * [N part / parts, N (part + 1) / parts) of its N.  *@info as
 * catalog_scan() gives it.
 * @return 0; CATALOG_NOT_INDEXED (nothing logged) if an input is
 * standard input or holds a section written to a pipe (read it with
 * catalog_scan()); or a negative ndf_err (logged).
 */
int catalog_share(const char *const *paths, int n, uint64_t part, uint64_t parts,
		  struct catalog_share *out, struct catalog_info *info)
	__attribute__((warn_unused_result));

#endif
