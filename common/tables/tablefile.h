/*
 * tablefile.h - what permute-and-sort, compress and self-join share about
 * table sections: the header of table t of a design, the raw record
 * layout (u64 key, u32 idx: 12 bytes), and the check that a sequence of
 * table sections is one complete design built from one catalog.
 */
#ifndef NDD_TABLEFILE_H
#define NDD_TABLEFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/bytes.h"
#include "tables/design.h"
#include "format/ndf.h"

#define TABLE_RAW_RECORD 12
#define TABLE_RAW_BLOCK_RECORDS 65536

/** Fill @h for table @t of @d (kind, k, design, perm, lead bits). */
void tablefile_header(struct ndf_header *h, uint32_t kind, const struct design *d,
		      uint32_t t, uint64_t feature_config, uint64_t dataset_id);

/**
 * Check that @h (a table section of @name) belongs to the design and
 * dataset of @first (the first table section read) and is table @expect.
 * @return 0, or NDF_ERR_PARAMS (logged).
 */
int tablefile_check(const struct ndf_header *h, const char *name,
		    const struct ndf_header *first, uint32_t expect);

/**
 * Rebuild the design a table header names and check its permutation.
 * @return 0, or NDF_ERR_PARAMS (logged).
 */
int tablefile_design(const struct ndf_header *h, const char *name, struct design *d);

/**
 * Table sections go through pipes between the table stages, as blocks of
 * 786 KB (raw) or ~8 KB (compressed).  Through stdio's default buffer of a
 * pipe (4 KB) a compressed block takes two write() and two read() calls,
 * each waking the other side: at 64M fingerprints a million system calls.
 * Where @fp is a pipe, give it a 1 MB buffer (the pipe's own size, see
 * cli.c); call before the first read or write, for at most two streams
 * of a process.  Else nothing changes.  Not for raw tables: stdio reads
 * and writes their blocks (786 KB) in place, and through a buffer as
 * large it would copy them all.
 */
void tablefile_pipe_buffer(FILE *fp);

/* One raw record (u64 key, u32 idx, little-endian: TABLE_RAW_RECORD bytes);
 * sorted tables and permute-sort's spilled runs both use this layout. */
static inline void tablefile_put_raw(uint8_t *p, uint64_t key, uint32_t idx)
{
	put_le64(p, key);
	put_le32(p + 8, idx);
}

static inline void tablefile_get_raw(const uint8_t *p, uint64_t *key, uint32_t *idx)
{
	*key = get_le64(p);
	*idx = get_le32(p + 8);
}

/**
 * Decode @n raw records from @p into @keys/@idx, checking them on the way
 * (the check costs next to nothing in the same pass): *@max_idx is the
 * largest index; @return non-zero if a key is below its predecessor.
 */
int tablefile_decode_raw(const uint8_t *p, size_t n, uint64_t *keys, uint32_t *idx,
			 uint32_t *max_idx);

#endif
