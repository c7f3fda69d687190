/*
 * tplwrite.h - the templates file (NDF_KIND_TEMPLATES) written host by
 * host in ascending host order, merged with an earlier night's file
 * (--previous): a host learnt tonight from too few distinct pages keeps
 * its earlier template, a night older, and earlier hosts not seen
 * tonight are carried for TPL_MAX_AGE nights.  The bytes depend only on
 * the hosts given and the earlier file, so ndd-template and the ranks of
 * ndd-mpi (rank 0 writing every rank's hosts in turn) write the same.
 */
#ifndef NDD_TEMPLATE_TPLWRITE_H
#define NDD_TEMPLATE_TPLWRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "template/tplset.h"
#include "util/outfile.h"

/* Nights an earlier template is carried. */
#define TPL_MAX_AGE 30

struct tpl_writer;

struct tpl_write_stats {
	uint64_t learnt, learnt_blocks, previous_hosts;
};

/**
 * Open @path ("-": standard output; published by tpl_writer_finish())
 * for templates of documents of @feature_config, merged with @prev (may
 * be NULL; must outlive the writer); @min_pages as tpl_params.
 * @return the writer, or NULL (logged).
 */
struct tpl_writer *tpl_writer_open(const char *path, uint64_t feature_config,
				   const struct tplset *prev, uint32_t min_pages);

/** Tonight's @host (ascending from call to call): its distinct pages
 * @groups and its template's @n hashes.  @return 0 or -1 (logged). */
int tpl_writer_host(struct tpl_writer *w, uint64_t host, uint32_t groups,
		    const uint64_t *hashes, size_t n);

/** Write the earlier hosts left, finish and publish the file, free @w;
 * @st gets the counts.  @return 0 or -1 (logged; nothing published). */
int tpl_writer_finish(struct tpl_writer *w, struct tpl_write_stats *st);

/**
 * tpl_writer_finish(), but the file is written and flushed, not
 * published: *@held gets it (its tmp_path readable), for the caller to
 * outfile_commit() or outfile_abort().  @return 0 or -1 (logged).
 */
int tpl_writer_finish_held(struct tpl_writer *w, struct tpl_write_stats *st,
			   struct outfile *held);

/* What ndd-template's --stats reports (ndd-fingerprint --learn-templates
 * reports the same). */
struct tpl_run_stats {
	uint64_t docs, no_host, sampled, capped_blocks, hosts, learnt, learnt_blocks;
	uint64_t previous_hosts, spilled_bytes;
};

/** Write @st as ndd-template's one-line JSON object to @fp. */
void tpl_stats_print(FILE *fp, const struct tpl_run_stats *st);

/** Free @w and drop its output (NULL is a no-op). */
void tpl_writer_abort(struct tpl_writer *w);

#endif
