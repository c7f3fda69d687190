/*
 * hostlearn.h - from documents to the pages a host's template is learnt
 * from, and from those pages to each host's template (learn.h), the
 * same whether one process holds every page (ndd-template) or each rank
 * of an MPI job holds its hosts' pages (ndd-mpi template).
 *
 * A sampled page is a record: struct tpl_page_head, then its body: its
 * n block hashes, the bitmap of which of them are pointers (bit k of
 * word k / 64: block k had DB_POINTER) and the bitmap of which are the
 * page model's content (DB_CONTENT), all u64 in native order; records
 * lie one after another in a buffer.  The learner counts a block's
 * repeats by its role (learn.h), so the record carries it.
 *
 * The sample.  A host is learnt from its `sample` pages of smallest key
 * (seq: tpl_sample_key(), a hash of the URL; ties by signature, then by
 * the blocks): a uniform sample of the host, whatever the documents'
 * order.  Its first pages in crawl order would be one section of the
 * site when the crawl follows its structure, and the other sections'
 * chrome would never be learnt (docs/TEMPLATES.md).  A reader keeps a
 * page while tpl_sample_take() says it may be among them, so where the
 * records were gathered, in what order, and how many more of a host's
 * pages they hold, does not change what is learnt.
 */
#ifndef NDD_TEMPLATE_HOSTLEARN_H
#define NDD_TEMPLATE_HOSTLEARN_H

#include <stddef.h>
#include <stdint.h>

#include "format/docrec.h"
#include "template/learn.h"

/* Block hashes kept of one page. */
#define TPL_MAX_PAGE_BLOCKS 4096

struct tpl_page_head {
	uint64_t host, seq, sig;
	uint64_t n;
};

/** The key a page is sampled by: XXH3-64 of @d's URL. */
uint64_t tpl_sample_key(const struct doc_record *d);

/**
 * Whether a page of key @key, the @seen-th of its host so far (from 1),
 * may be among its host's @sample of smallest key: its key lies below
 * K / seen of the key space, K = 2 x sample + 64.  The first K pages of
 * a host are all kept, then about K / seen of them, so a host of N pages
 * keeps about K x (1 + ln(N / K)), and never more than a host of K.  A
 * page of the N's smallest sample keys is refused only if fewer than
 * sample of the N keys lie below K / N, a chance below 1e-13 for any
 * sample and 1e-32 for 200 (Chernoff); a @seen counted low (a count
 * started again, a rank's own pages) keeps more, never fewer.
 */
static inline int tpl_sample_take(uint64_t key, uint64_t seen, uint32_t sample)
{
	return (uint64_t)(((unsigned __int128)key * seen) >> 64) < 2 * (uint64_t)sample + 64;
}

/** Count a page of key @key on its host's *@seen (saturating) and say
 * whether it is kept: tpl_sample_take() as every reader counts. */
static inline int tpl_sample_next(uint32_t *seen, uint64_t key, uint32_t sample)
{
	*seen += *seen < UINT32_MAX;
	return tpl_sample_take(key, *seen, sample);
}

/** u64 words of a bitmap of @n blocks. */
static inline size_t tpl_page_bitmap(uint64_t n)
{
	return (size_t)((n + 63) / 64);
}

/** u64 words of the body of a page of @n blocks: hashes and bitmaps. */
static inline size_t tpl_page_words(uint64_t n)
{
	return (size_t)n + 2 * tpl_page_bitmap(n);
}

/** Bytes of the record of a page of @n block hashes. */
static inline size_t tpl_page_size(uint64_t n)
{
	return sizeof(struct tpl_page_head) + tpl_page_words(n) * 8;
}

/**
 * The signature (pagesig.h) of @d's blocks into *@sig and the body of its
 * record at @body (room for tpl_page_words(TPL_MAX_PAGE_BLOCKS)): the
 * hashes of its first n = min(blocks, TPL_MAX_PAGE_BLOCKS) blocks, then
 * their pointer and content bitmaps.  *@blk (*@cap entries) is scratch, grown as
 * needed.  Repeats are kept: learning counts a block once per page and
 * role anyway.  @return n, or -1 if memory ran out.
 */
long tpl_page_blocks(const struct doc_record *d, struct doc_block **blk, size_t *cap,
		     uint64_t *sig, uint64_t *body);

/* Called per host in ascending host order: its distinct pages G and its
 * template's @n hashes (ascending; n may be 0).  Non-zero stops. */
typedef int (*tpl_host_fn)(void *ctx, uint64_t host, uint32_t groups, const uint64_t *hashes,
			   size_t n);

/**
 * Learn every host of the page records in @buf (@len bytes; whole
 * records, any order) from its @sample pages of smallest key, with @p, and
 * call @fn for each in ascending host order.  @n, if not NULL, gets
 * the hosts seen, the pages learnt from and those of them at the block
 * cap added.
 * @return 0, -1 if memory ran out (logged), or what @fn returned.
 */
struct tpl_learn_counts {
	uint64_t hosts, pages, capped; /* capped: pages learnt from of TPL_MAX_PAGE_BLOCKS */
};
int tpl_learn_pages(struct tpl_learner *l, const uint8_t *buf, size_t len, uint32_t sample,
		    const struct tpl_params *p, tpl_host_fn fn, void *ctx,
		    struct tpl_learn_counts *n);

#endif
