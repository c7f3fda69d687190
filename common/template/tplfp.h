/*
 * tplfp.h - one page's fingerprint fields once its main text is decided
 * against a set of template blocks (decide.h): the text, its
 * fingerprint (docfp.h) and the page's frame (frame.h).  What
 * ndd-fingerprint computes per page, with --templates or learning them
 * (follow.h).
 *
 */
#ifndef NDD_TEMPLATE_TPLFP_H
#define NDD_TEMPLATE_TPLFP_H

#include <stdint.h>

#include "fingerprint/docfp.h"
#include "fingerprint/minhash.h"
#include "format/docrec.h"
#include "template/blockset.h"
#include "template/decide.h"

/* Per-thread state, reused from page to page; zeroed to start. */
struct tplfp_worker {
	struct docfp_ctx *ctx; /* the caller's; NULL: decide only (--dry-run) */
	struct tpl_buf text;   /* after tplfp_page(): the page's blocks, marked */
	struct minhash frame;
	int frame_ready;
};

/* What a page gets. */
struct tplfp_result {
	uint64_t fp, text_hash, frame;
	uint32_t flags, text_len;
	uint8_t choice; /* enum tpl_choice */
};

/**
 * Decide @d's text against @tpl (NULL or empty: none) and fingerprint
 * it into *@r.  A page with nothing outside the template gets its
 * payload's hash, flagged short, and no text: the join then pairs it
 * only with a byte-identical page (provenance.h).  Afterwards
 * @w->text.blk holds @d's blocks, the template's marked TPL_MARK.
 * @return 0, or -1 if memory ran out.
 */
int tplfp_page(const struct doc_record *d, const struct blockset *tpl, struct tplfp_worker *w,
	       struct tplfp_result *r)
	__attribute__((warn_unused_result));

/** Free what @w holds but its ctx. */
void tplfp_worker_free(struct tplfp_worker *w);

/** The fingerprint record of @d with its result @r. */
struct fp_record tplfp_record(const struct doc_record *d, const struct tplfp_result *r);

#endif
