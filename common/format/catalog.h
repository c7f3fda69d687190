/*
 * catalog.h - reading fingerprint files (NDF_KIND_FPS) as one catalog.
 *
 * permute-and-sort and self-join both see the fingerprints of a night as
 * one sequence: every FPS section of every input, in order.  A record's
 * position in that sequence is its document index, the number the tables
 * store.  The dataset id (a hash of every section's verified record count
 * and payload CRC) ties tables to the exact catalog they were built from,
 * so self-join refuses a catalog that does not match its tables.
 */
#ifndef NDD_CATALOG_H
#define NDD_CATALOG_H

#include <stddef.h>
#include <stdint.h>

#include "format/docrec.h"

struct catalog_info {
	uint64_t n_records;
	uint64_t feature_config;
	uint64_t dataset_id;
	uint32_t simhash_bits;
	uint32_t n_sections;
};

/*
 * A catalog is read in batches of blocks: the blocks of a batch are read
 * in order by one thread, then checked (their checksums) and decoded by
 * all threads while the next batch is read, so the one thread only
 * reads.  Documents are many and their records are
 * independent, so a night's catalog is decoded at the speed of the cores,
 * not of one.
 */
struct catalog_visitor {
	/* Called by one thread, in order, before records [first, first + n)
	 * are visited and after every earlier record was (grow arrays here).
	 * May be NULL.  Return 0 to go on, non-zero to stop with that value. */
	int (*batch)(void *ctx, uint64_t first, uint64_t n);
	/* Called per record, from any thread, for different records at once;
	 * strings in @r live only during the call.  Return 0 to go on,
	 * non-zero to stop (after the batch) with that value. */
	int (*record)(void *ctx, uint64_t idx, const struct fp_record *r);
	void *ctx;
	size_t batch_bytes; /* payload bytes read per batch; 0: a default */
	/* May be NULL.  Called per record, from any thread, before it is
	 * decoded: 0 skips it (its shape is still checked, not its fields),
	 * so a visitor of a few documents does not decode them all. */
	int (*want)(void *ctx, uint64_t idx);
};

/**
 * Read every FPS section of @paths[0..n) ("-" = stdin; all sections of a
 * file in turn) and visit each record.  Sections must agree on
 * feature_config and simhash_bits.
 * @return 0, a negative ndf_err (logged with the file and offset), or
 * the non-zero value a callback returned.
 */
int catalog_scan(const char *const *paths, int n, const struct catalog_visitor *v,
		 struct catalog_info *info) __attribute__((warn_unused_result));

struct ndf_header;

/** The dataset id after one more section of header @h (its verified
 * record count and payload CRC), from @id (0 before the first). */
uint64_t catalog_dataset_next(uint64_t id, const struct ndf_header *h);

/**
 * Every fingerprint of the catalog @paths[0..n), in order, into a new
 * array *@out of *@count entries (the caller frees it).
 * @return 0, or non-zero (logged) with *@out NULL.
 */
int catalog_simhashes(const char *const *paths, int n, uint64_t **out, size_t *count,
		      struct catalog_info *info) __attribute__((warn_unused_result));

#endif
