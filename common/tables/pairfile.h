/*
 * pairfile.h - the pairs of a self-join found elsewhere, in a file.
 *
 * The MPI build (docs/MPI.md) joins each table's key ranges on many ranks
 * and gathers the pairs to rank 0, which writes them here; ndd-self-join
 * --found-pairs then takes them instead of joining the tables itself and
 * clusters and writes them exactly as it would its own (the clusters do
 * not depend on the order of the pairs).
 *
 * Layout, little-endian: the 8-byte magic "NDDPAIR1"; u32 k, u32 design
 * code, u32 tables, u32 reserved; u64 records, u64 comparisons, u64
 * dataset id, u64 pair count; then per pair u32 a, u32 b, u32 distance;
 * last a u64 XXH3 of every byte before it.
 */
#ifndef NDD_PAIRFILE_H
#define NDD_PAIRFILE_H
#include <stdint.h>
#include <stdio.h>

#include "tables/join.h"

struct pairfile_info {
	uint32_t k;           /* the tables' radius */
	uint32_t design_code; /* design.h */
	uint32_t n_tables;
	uint64_t records;     /* fingerprints in each table */
	uint64_t comparisons; /* popcounts the join did, over all its parts */
	uint64_t dataset_id;  /* of the catalog the tables were built from */
	uint64_t n_pairs;
};

/* A pair file being written. */
struct pairfile_writer {
	FILE *fp;
	const char *name;
	void *xxh;     /* the running checksum (an XXH3 state) */
	uint64_t left; /* pairs still to come */
};

/**
 * Start writing to @fp (open for writing; @name for messages): the header
 * of @info, whose n_pairs pairs must then all be given to
 * pairfile_write().  @return 0, or -1 (logged).
 */
int pairfile_begin(struct pairfile_writer *w, FILE *fp, const char *name,
		   const struct pairfile_info *info);

/** Append @n pairs; @return 0, or -1 (logged; call pairfile_abort()). */
int pairfile_write(struct pairfile_writer *w, const struct pair *p, size_t n);

/** Write the checksum after the last pair; @return 0, or -1 (logged). */
int pairfile_end(struct pairfile_writer *w);

/** Free the writer after an error. */
void pairfile_abort(struct pairfile_writer *w);

/**
 * Read the pair file @path into @pv (appended) and @info, checking its
 * magic, length and checksum and that every pair has a < b < records and
 * a distance within k.  @return 0, or -1 (logged).
 */
int pairfile_read(const char *path, struct pair_vec *pv, struct pairfile_info *info);

#endif
