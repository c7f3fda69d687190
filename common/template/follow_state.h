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
#include "template/followtmp.h"
#include "template/learn.h"
#include "template/tplfp.h"

struct follow_opts;
struct follow_stats;
struct fp_record;

#define NONE UINT32_MAX
#define CHUNK_PAGES 2048 /* pages read back at a time */

/* A page not done yet: where it is, where its slot is. */
struct ref {
	uint64_t off, slot;
	uint32_t len, next;
};

struct hstate {
	uint64_t host; /* 0: empty slot */
	uint32_t count, head, tail;
	uint32_t final;
};

/* A host's learnt template, its hashes in the arena. */
struct learnt {
	uint64_t host, at;
	uint32_t groups, n;
};

/* Pages in memory being worked on. */
struct pages {
	struct doc_record *doc;
	uint64_t *off, *slot;
	uint32_t *len;
	struct tplfp_result *res;
	size_t *hoff;  /* each page's hashes in @hash */
	uint32_t *nh;  /* and how many: blocks not template */
	uint32_t *nc;  /* then core keys its frame met (tplnow.h) */
	uint64_t *hash;
	uint8_t *buf;  /* pages read back */
	size_t n, cap, hash_cap, buf_cap;
};

struct fl {
	const struct follow_opts *o;
	struct follow_stats *st;
	const char *name;
	int docs_fd, wait;
	uint64_t size;      /* bytes of the copy known to be there */
	struct hstate *hs;
	size_t hs_mask, hs_n;
	struct ref *ref;
	size_t n_ref, cap_ref;
	uint32_t free_ref;
	struct blockset now; /* templates final so far */
	struct learnt *lt;
	size_t n_lt, cap_lt;
	uint64_t *lhash;
	size_t n_lhash, cap_lhash;
	struct fslots slots;
	struct fcheck check;
	struct tplfp_worker *w;
	struct tpl_learner *learner;
	uint64_t feature_config;
	int have_config;
	uint64_t *due; /* hosts final after this batch */
	size_t n_due, cap_due;
	struct pages pg;
};

int fl_pages_reserve(struct pages *p, size_t n);

void fl_pages_free(struct pages *p);

/* Read back and decode the @n references at @r into @f->pg.
 * @return 0 or -1 (logged). */
int fl_read_back(struct fl *f, const struct ref *r, size_t n);

/* Do pages [0, n) of @f->pg against @set; with @keep, note the keys
 * that would make a block template that is not (for the check file: a
 * template learnt later may hold them): its hash, and a pointer's quoted
 * key too (learn.h); then the core keys in @set of its template blocks,
 * which a host learnt later may share (tplnow.h).  A block gives two
 * keys at most.
 * @return 0 or -1 (out of memory, logged). */
int fl_do_pages(struct fl *f, const struct blockset *set, int keep, const uint8_t *skip,
		const struct tplfp_result *was);

/* Page @i's check record (followtmp.h). */
int fl_check_write(struct fl *f, size_t i);

/* Do the pages read back into @f->pg against @set (@was: as in
 * fl_do_pages()); write their slots, and with @keep their check records.
 * @return 0 or -1. */
int fl_do_loaded(struct fl *f, const struct blockset *set, int keep,
		 const struct tplfp_result *was);

/* Do the @n references at @r against @set, in chunks: fl_do_loaded(); with
 * @redo they were done before (fslots_result()).  @return 0 or -1. */
int fl_do_refs(struct fl *f, const struct ref *r, size_t n, const struct blockset *set,
	       int keep, int redo);

/* Give @h's chain back to the free list. */
void fl_chain_free(struct fl *f, struct hstate *h);

/* Learn host @h from the first pages of its chain (read back into
 * @f->pg, all @n of them): record the template.  @return 0 or -1. */
int fl_learn_host(struct fl *f, struct hstate *h, size_t n);

/* @h's chain as an array (in *@v, grown).  @return its length, or -1. */
long fl_chain_list(struct fl *f, const struct hstate *h, struct ref **v, size_t *cap);

/* Everything after the last page came.  @return 0 or -1. */
/* @emit is a follow_emit_fn, spelled out: this header does not include
 * follow.h, whose module includes this one. */
int fl_finish(struct fl *f, int (*emit)(void *ctx, const struct fp_record *r, int choice),
	      void *ctx);

#endif
