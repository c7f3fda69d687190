/*
 * follow_state.h - the state of learning while fingerprinting (follow.h),
 * shared by its parts: the stream and the hosts (follow.c), the pages read
 * back and done (follow_pages.c), and what is done after the last page
 * came (follow_end.c).  Private to them.
 */
#ifndef NDD_TEMPLATE_FOLLOW_STATE_H
#define NDD_TEMPLATE_FOLLOW_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "template/blockset.h"
#include "template/learn.h"
#include "template/tplfp.h"

struct follow_opts;
struct follow_stats;

#define NONE UINT32_MAX
#define CHUNK_PAGES 2048 /* pages read back at a time */

/* A page: where it is in the stream, its sample key (tpl_sample_key(),
 * also a check that the page read back is the one that came) and the
 * next page of its host (NONE: none, or no host).  24 bytes; f->ref
 * holds them in input order. */
struct ref {
	uint64_t off, key;
	uint32_t len, next;
};

/* A host: its pages' chain through f->ref, in input order. */
struct hstate {
	uint64_t host; /* 0: empty slot */
	uint32_t head, tail;
};

/* A host's learnt template, its hashes in the arena. */
struct learnt {
	uint64_t host, at;
	uint32_t groups, n;
};

/* Pages read back, in memory while they are worked on. */
struct pages {
	struct doc_record *doc;
	struct tplfp_result *res;
	size_t *at;   /* each page's learning record in the caller's buffer */
	uint8_t *buf; /* the bytes read back */
	size_t n, cap, buf_cap;
};

struct fl {
	const struct follow_opts *o;
	struct follow_stats *st;
	const char *name;
	int docs_fd;
	struct hstate *hs;
	size_t hs_mask, hs_n;
	struct ref *ref;
	size_t n_ref, cap_ref;
	struct learnt *lt;
	size_t n_lt, cap_lt;
	uint64_t *lhash;
	size_t n_lhash, cap_lhash;
	struct tplfp_worker *w;
	struct tpl_learner *learner;
	uint64_t feature_config;
	int have_config;
	struct pages pg;
};

void fl_pages_free(struct pages *p);

/* Read back and decode the @n references at @r into @f->pg (a run of
 * pages close together in one read).  @return 0 or -1 (logged). */
int fl_read_back(struct fl *f, const struct ref *r, size_t n);

/* Do the pages in @f->pg against @set into f->pg.res, in parallel.
 * @return 0 or -1 (out of memory, logged). */
int fl_do_pages(struct fl *f, const struct blockset *set);

/* Append the learning records (hostlearn.h) of the pages in @f->pg, of
 * hosts @host, to *@rec (*@len bytes, *@cap allocated), in parallel.
 * @return 0 or -1 (out of memory, logged). */
int fl_page_records(struct fl *f, const uint64_t *host, uint8_t **rec, size_t *len,
		    size_t *cap);

/* Everything after the last page came.  @return 0 or -1. */
/* @emit is a follow_emit_fn, spelled out: this header does not include
 * follow.h, whose module includes this one. */
int fl_finish(struct fl *f, int (*emit)(void *ctx, const struct fp_record *r, int choice),
	      void *ctx);

#endif
