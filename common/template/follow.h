/*
 * follow.h - learn each host's template and fingerprint the pages in one
 * pass over the documents, each page as soon as its host's template is
 * final (ndd-fingerprint --learn-templates; docs/TEMPLATES.md, "Learning
 * while fingerprinting").
 *
 * A host is learnt from its first `sample` pages (as ndd-template does),
 * so its template is final when its sample-th page has come: its pages
 * that came before are read back then (by reference into a copy of the
 * documents, never held in memory) and fingerprinted, and its later pages
 * as they come.  A page's text is decided against every host's template
 * (decide.h), of which only those final so far are known when the page
 * is fingerprinted; which of its blocks that set held is kept (a
 * temporary file), and once every template is final the pages whose
 * blocks meet a template learnt later are done again, and those whose
 * frame met a core key that a host learnt later shares (tplnow.h).  Hosts that never
 * reach `sample` pages are learnt, and their pages done, at the end.  So
 * the templates file and the fingerprints are the bytes ndd-template and
 * ndd-fingerprint --templates write, in input order, for any thread
 * count.
 *
 * Memory: 24 bytes per page of a host not yet final, 24 per host (in a
 * table at most half full), the
 * templates (as --templates loads them) and the pages being worked on;
 * disk: the fingerprint records (a temporary file the output is copied
 * from in order) and 4 bytes per block of each page done early that was
 * not template then or was a core block of its frame.
 */
#ifndef NDD_TEMPLATE_FOLLOW_H
#define NDD_TEMPLATE_FOLLOW_H

#include <stdint.h>
#include <stdio.h>

#include "fingerprint/docfp.h"
#include "format/docrec.h"
#include "template/learn.h"

struct follow_opts {
	const struct docfp_config *cfg;
	int threads;
	uint32_t sample;        /* pages of a host learnt from (ndd-template --sample) */
	struct tpl_params tp;
	const char *previous;   /* an earlier night's templates, or NULL */
	const char *templates;  /* tonight's templates, written here (a file) */
	const char *docs;       /* the copy of the input being written (tee) to read
				   pages back from; NULL: the input, a regular file */
	const char *tmpdir;     /* for the temporary files */
};

struct follow_stats {
	/* as ndd-template counts them */
	uint64_t docs, no_host, sampled, capped_blocks, hosts;
	uint64_t learnt, learnt_blocks, previous_hosts;
	/* how the pages were done */
	uint64_t early;   /* as they came, their host final */
	uint64_t at_host; /* read back when their host became final */
	uint64_t at_end;  /* read back at the end: hosts of fewer than sample pages */
	uint64_t redone;  /* done again: a template learnt later held a block */
	uint64_t bytes_in, sections;
};

/* Called for each page's record in input order; non-zero stops. */
typedef int (*follow_emit_fn)(void *ctx, const struct fp_record *r, int choice);

/**
 * Read the DOCS sections of @in (@name in messages), write the templates
 * and call @emit for every page in input order.  @return 0, or -1
 * (logged; the templates file is not published).
 */
int follow_run(const struct follow_opts *o, FILE *in, const char *name, follow_emit_fn emit,
	       void *ctx, struct follow_stats *st) __attribute__((warn_unused_result));

#endif
