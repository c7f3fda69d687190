/*
 * follow.h - learn each host's template and fingerprint the pages with
 * one read of the documents as they come (ndd-fingerprint
 * --learn-templates; docs/TEMPLATES.md, "Learning while fingerprinting").
 *
 * A host is learnt from its `sample` pages of smallest URL hash
 * (hostlearn.h), known only once the input has ended, and a page's text
 * is decided against every host's template, so no page is done before
 * the end.  While the documents come each page leaves a reference (where
 * it is in the stream, its sample key, its host's chain); at the end each
 * host's candidates (the pages ndd-template would keep, of key up to the
 * sample-th smallest of them) are read back, by reference into a copy of
 * the documents, and learnt with tpl_learn_pages() as ndd-template
 * learns them; the templates are written, loaded as ndd-fingerprint
 * --templates loads them, and every page is read back in input order
 * and done.  So the templates file and the fingerprints are the bytes
 * ndd-template and ndd-fingerprint --templates write, for any thread
 * count and whatever the order of the documents within a host.
 *
 * Memory: 24 bytes per page, 16 per host (in a table at most half full),
 * the templates (as --templates loads them) and the pages being worked
 * on (CHUNK_PAGES, or one host's candidates).  No temporary files.
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
};

struct follow_stats {
	/* as ndd-template counts them */
	uint64_t docs, no_host, sampled, capped_blocks, hosts;
	uint64_t learnt, learnt_blocks, previous_hosts;
	/* pages read back to learn from: at most sample per host, more on ties */
	uint64_t candidates;
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
