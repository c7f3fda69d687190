/*
 * learn.h - which text blocks are one host's template.
 *
 * Input: a sample of the host's pages, each as a page signature (of its
 * whole text, template and all: pagesig.h), its blocks' hashes
 * (docrec.h), which of them are pointers (DB_POINTER: a link with text
 * beside it, a row that points to another page) and which the page
 * model's content (DB_CONTENT).  A block is template when it occurs on
 * at least T distinct pages:
 *
 *   T = max(min_pages, ceil(min_share x G)),
 *
 * - on T of them not as a pointer (a menu, a footer line, a shared
 *   subtitle the page model took as content), or met on any of them
 *   neither as a pointer nor as the page model's content (in the chrome:
 *   as by hash alone): the host's chrome, template wherever it occurs;
 * - else on T of them as a pointer (a thread's title and first line in
 *   every page's "recent topics", an article's summary in teasers), and
 *   otherwise only the page model's content: the page's own text quoted
 *   by others, template only where it is a pointer, so that its own
 *   page, where it is no pointer, keeps it.  Its key in the template is
 *   tpl_quoted_key() of its hash;
 * - else (a pointer on some, content on others, T in neither role): not
 *   template.
 *
 * G the host's distinct pages.  "Distinct" is what keeps true duplicates:
 * the same article at two URLs of one host (a print view, a session
 * parameter, a revision) repeats its paragraphs too, and must not make
 * them template.  Pages whose signatures lie within near_bits of each
 * other are near-duplicates as whole pages, and are joined (transitively)
 * into one group that counts once, both in a block's count and in G.
 * Pages of one template with different articles differ in the article,
 * so they stay apart; a host whose pages are all near-duplicates of each
 * other has G = 1 and learns nothing.  A host with G < min_pages learns
 * nothing either: its pages keep the page model's text.
 *
 * Cost: O(n^2) signature compares and one hash-table pass over the
 * pages' blocks for n sampled pages; the caller bounds n (ndd-template
 * --sample).
 */
#ifndef NDD_TEMPLATE_LEARN_H
#define NDD_TEMPLATE_LEARN_H

#include <stddef.h>
#include <stdint.h>

struct tpl_params {
	uint32_t min_pages; /* T's floor, and the fewest distinct pages to learn from (3) */
	uint32_t share_pct; /* T's share of the distinct pages, percent (1) */
	int near_bits;      /* signatures this close are one page (8) */
};
#define TPL_PARAMS_DEFAULT {3, 1, 8}

/* A quoted block's key in a template: its hash tagged, so that one sorted
 * set of u64 holds both kinds (templates.ndf layout 2, docs/FORMATS.md). */
#define TPL_QUOTED_TAG 0x5107edc0ffee5a17ull
static inline uint64_t tpl_quoted_key(uint64_t hash)
{
	return hash ^ TPL_QUOTED_TAG;
}

/*
 * A chrome block on at least half of a host's distinct pages is also its
 * template's core: the frame (frame.h) keeps to those, so that the
 * teasers and quoted stories each page draws do not enter it.  Its core
 * key, beside its chrome key (templates layout 3), is its hash mixed one
 * way (not an involution like the quoted tag), so that tpl_core_hash()
 * can tell a core key from a hash.
 *
 * A core key counts only while one host alone holds its block, as chrome
 * or quoted (its hash or tpl_quoted_key() of it): chrome that a theme
 * gives every site of it ("Home", "Log in", the theme's footer) does not
 * tell one site's pages from another's.  The templates loaded drop the
 * others (tplset.h).
 */
#define TPL_CORE_TAG 0xc0e5a3e1b7d94f21ull
#define TPL_CORE_MUL 0x9e3779b97f4a7c15ull
#define TPL_CORE_INV 0xf1de83e19937733dull /* TPL_CORE_MUL^-1 mod 2^64 */
static inline uint64_t tpl_core_key(uint64_t hash)
{
	return (hash ^ TPL_CORE_TAG) * TPL_CORE_MUL;
}
static inline uint64_t tpl_core_hash(uint64_t key)
{
	return (key * TPL_CORE_INV) ^ TPL_CORE_TAG;
}

/* One sampled page. */
struct tpl_page {
	uint64_t sig;           /* fingerprint of all its text */
	uint32_t n;             /* block hashes */
	const uint64_t *blocks; /* its blocks' hashes, any order, repeats allowed */
	const uint64_t *pointer; /* bit k of word k / 64: block k is a pointer (NULL: none is) */
	const uint64_t *content; /* the same: block k is the page model's content (NULL: all are) */
};

/* Most pages tpl_learn() takes of one host (--sample is at most 1000). */
#define TPL_LEARN_MAX_PAGES 1023

/* Buffers reused from host to host. */
struct tpl_learner;

/** @return a learner, or NULL if memory ran out. */
struct tpl_learner *tpl_learner_new(void);

/** Free @l (NULL is a no-op). */
void tpl_learner_free(struct tpl_learner *l);

/**
 * Learn the template of one host from its @n pages @pages.  *@hashes gets
 * the template's keys (a chrome block's hash, a quoted block's
 * tpl_quoted_key()), strictly ascending (owned by @l, valid
 * until the next call), *@n_hashes their number and *@groups the
 * distinct pages G.  @return 0, or -1 if memory ran out or @n is over
 * TPL_LEARN_MAX_PAGES.
 */
int tpl_learn(struct tpl_learner *l, const struct tpl_page *pages, size_t n,
	      const struct tpl_params *p, const uint64_t **hashes, size_t *n_hashes,
	      uint32_t *groups);

#endif
