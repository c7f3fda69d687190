/*
 * followtmp.h - the two temporary files of learning while fingerprinting
 * (follow.h), unlinked as soon as they are made:
 *
 *   slots: every page's fingerprint record in input order, a page not
 *     done yet as a placeholder of its size (the size depends only on its
 *     strings), written over when it is done; copied out in order at the
 *     end.  A slot is u32 bytes of the record (little-endian), u8 the
 *     choice (enum tpl_choice), the record (docrec.h, fprec_encode()).
 *   check: per page done early, u64 stream offset, u64 slot, u32 record
 *     length, u32 n, u32 n_core, then the low 32 bits of the n keys of
 *     its blocks that were not template then, and of the n_core core
 *     keys its frame met (tplnow.h) (native byte order: the file lives
 *     and dies with the process).
 */
#ifndef NDD_TEMPLATE_FOLLOWTMP_H
#define NDD_TEMPLATE_FOLLOWTMP_H

#include <stdint.h>
#include <stdio.h>

#include "format/docrec.h"
#include "template/blockset.h"
#include "template/tplfp.h"

struct fslots {
	FILE *fp;
	uint64_t len;    /* bytes appended */
	const char *dir; /* for messages */
	uint8_t *buf;
	size_t cap;
};

/** Create the slots file in @dir.  @return 0, or -1 (logged). */
int fslots_open(struct fslots *s, const char *dir) __attribute__((warn_unused_result));

/** Append the slot of @r (@choice); *@at gets its offset.  @return 0 or -1. */
int fslots_append(struct fslots *s, const struct fp_record *r, int choice, uint64_t *at)
	__attribute__((warn_unused_result));

/** Flush what was appended (before fslots_put() or fslots_result()).
 * @return 0 or -1 (logged). */
int fslots_flush(struct fslots *s) __attribute__((warn_unused_result));

/** Write the slot at @at over with @r (of the placeholder's strings).
 * @return 0 or -1 (logged). */
int fslots_put(struct fslots *s, uint64_t at, const struct fp_record *r, int choice)
	__attribute__((warn_unused_result));

/** The results of the record in the slot at @at into *@was (fp,
 * text_hash, text_len, flags, choice).  @return 0 or -1 (logged). */
int fslots_result(const struct fslots *s, uint64_t at, struct tplfp_result *was)
	__attribute__((warn_unused_result));

/* Called with each slot's record in order; non-zero stops. */
typedef int (*fslots_fn)(void *ctx, const struct fp_record *r, int choice);

/** Every slot in order to @fn.  @return 0, -1 (logged) or what @fn returned. */
int fslots_emit(struct fslots *s, fslots_fn fn, void *ctx) __attribute__((warn_unused_result));

/** Close and free (a zeroed one is fine). */
void fslots_close(struct fslots *s);

struct fcheck {
	FILE *fp;
	const char *dir;
};

/** Create the check file in @dir.  @return 0, or -1 (logged). */
int fcheck_open(struct fcheck *c, const char *dir) __attribute__((warn_unused_result));

/** The check record of a page: @n keys of blocks not template, then
 * @n_core core keys, at @hash (their low 32 bits kept).
 * @return 0 or -1 (logged). */
int fcheck_add(struct fcheck *c, uint64_t off, uint64_t slot, uint32_t len, const uint64_t *hash,
	       uint32_t n, uint32_t n_core) __attribute__((warn_unused_result));

/* Called for a page to do again; non-zero stops. */
typedef int (*fcheck_fn)(void *ctx, uint64_t off, uint64_t slot, uint32_t len);

/**
 * Call @fn, in the order they were added, for the pages any of whose
 * kept keys of blocks @low holds, or of whose core keys @low_core holds
 * (low 32 bits of keys).  @return 0, -1 (logged) or what @fn returned.
 */
int fcheck_scan(struct fcheck *c, const struct blockset *low, const struct blockset *low_core,
		fcheck_fn fn, void *ctx) __attribute__((warn_unused_result));

/** Close (a zeroed one is fine). */
void fcheck_close(struct fcheck *c);

#endif
