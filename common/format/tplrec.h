/*
 * tplrec.h - the records of NDF_KIND_TEMPLATES (ndd-template ->
 * ndd-fingerprint --templates, and a later night's ndd-template
 * --previous): for one host, the hashes of the text blocks that are its
 * template.  Layout: docs/FORMATS.md.
 */
#ifndef NDD_TPLREC_H
#define NDD_TPLREC_H

#include <stddef.h>
#include <stdint.h>

struct ndf_header;

/* Record layout, in the section header's aux field.  3: a hash is a
 * template's key (a quoted block's tagged, a core block's mixed as well:
 * template/learn.h); 2 is read as 3 without core keys (a page's frame is
 * then all its template blocks, as it was); 1 (before templates were
 * learnt by role) is read as 2, its hashes all chrome, which is what they
 * meant; readers refuse others. */
#define TPLREC_VERSION 3
#define TPLREC_OLDEST 1

/* Most blocks one host's record may hold (a reader refuses more). */
#define TPLREC_MAX_BLOCKS (1u << 22)

struct tpl_record {
	uint64_t host;        /* host_key() of the host (template/host.h) */
	uint32_t pages;       /* distinct pages (near-duplicates counted once) learnt from */
	uint32_t age;         /* nights since it was learnt: 0 tonight */
	uint32_t n;           /* block hashes */
	const uint8_t *hashes; /* n x u64 LE keys, strictly ascending (points into the block) */
};

/** Bytes tplrec_encode() writes for @n hashes. */
static inline size_t tplrec_size(uint32_t n)
{
	return 8 + 3 * 4 + (size_t)n * 8;
}

/** Encode @r, its hashes from @hashes (@r->n, ascending), at @out.
 * @return bytes written. */
size_t tplrec_encode(const struct tpl_record *r, const uint64_t *hashes, uint8_t *out);

/**
 * Decode one record from *@in (not past @end), advancing *@in.
 * @return 0, or -1 if the bytes are not a whole record with at most
 * TPLREC_MAX_BLOCKS hashes in strictly ascending order.
 */
int tplrec_decode(const uint8_t **in, const uint8_t *end, struct tpl_record *r);

/** Hash @i (< r->n) of @r. */
uint64_t tplrec_hash(const struct tpl_record *r, uint32_t i);

/** Whether @h heads a TEMPLATES section of a layout from TPLREC_OLDEST to
 * TPLREC_VERSION (else logged, naming @name).  @return 0 or -1. */
int tplrec_check_header(const struct ndf_header *h, const char *name);

#endif
