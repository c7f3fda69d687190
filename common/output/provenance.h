/*
 * provenance.h - what the CSV says of a document (URL, WARC file, offset,
 * fingerprint, hashes, flags), loaded from the catalog for just the
 * documents that were paired: a night has millions of pages and only the
 * duplicates need their provenance in memory.
 *
 * Use: prov_init(n_docs), prov_mark() each needed document index, one
 * prov_load() pass over the catalog, then prov_get()/prov_at().
 */
#ifndef NDD_PROVENANCE_H
#define NDD_PROVENANCE_H

#include <stddef.h>
#include <stdint.h>

#include "util/bitrank.h"
#include "format/catalog.h"

/*
 * One cache line, aligned to one: the filter and the CSV reach documents
 * scattered over the night, and a record that straddled two lines would
 * cost two misses where one was prefetched.  Only what those readers use is
 * kept: of the flags, whether the text is short, and of its length,
 * whether there is any.
 */
struct prov_doc {
	uint64_t simhash, payload_hash, text_hash, warc_offset;
	uint64_t doc_id;             /* its document index in the catalog */
	const char *url, *warc_file; /* in the loading thread's arena; the
					url is followed by the record id and
					date: prov_record_id(), prov_date() */
	uint32_t url_len;
	uint16_t warc_file_len;      /* a path: PATH_MAX is 4096 */
	uint8_t text;                /* PROV_HAS_TEXT | PROV_SHORT_TEXT, and
					PROV_NO_FRAME */
};
_Static_assert(sizeof(struct prov_doc) == 64, "a provenance record is one cache line");

/* The u16 LE length at @p and the bytes after it. */
static inline struct str prov_str16_(const char *p)
{
	const uint8_t *u = (const uint8_t *)p;
	return (struct str){p + 2, (uint32_t)(u[0] | u[1] << 8)};
}

/** @d's WARC-Record-ID (empty if it had none); lives as long as @d. */
static inline struct str prov_record_id(const struct prov_doc *d)
{
	return prov_str16_(d->url + d->url_len);
}

/** @d's WARC-Date as written (empty if it had none). */
static inline struct str prov_date(const struct prov_doc *d)
{
	const struct str id = prov_record_id(d);
	return prov_str16_(id.p + id.n);
}

struct prov_arena; /* one per loading thread: see provenance.c */

struct provenance {
	struct bitrank needed; /* the documents asked for; a slot is a rank */
	size_t n_docs;
	struct prov_doc *doc;
	uint8_t *text;   /* per slot: its prov_doc's text bits, what the
			    filter of pairs reads (a byte in cache, where the
			    record is a miss) */
	uint64_t *frame; /* per slot: the page's frame sketch (fp_record),
			    beside the records, which are one cache line */
	size_t n;        /* slots */
	struct prov_arena *arena;
	int n_arenas;
};

/** Prepare for documents 0..@n_docs-1.  @return 0, or -1 on OOM (logged). */
int prov_init(struct provenance *p, size_t n_docs) __attribute__((warn_unused_result));

/** Ask for document @idx (< n_docs); call before prov_load(). */
void prov_mark(struct provenance *p, uint32_t idx);

/**
 * Make the slots of the marked documents (after the last prov_mark()):
 * prov_load() does it if the caller did not, and a caller that calls it
 * first can allocate after the provenance's arrays.
 * @return 0, or -1 on OOM (logged).
 */
int prov_prepare(struct provenance *p) __attribute__((warn_unused_result));

/**
 * One pass over the catalog @paths[0..n) filling the marked documents.
 * @return 0, or non-zero (logged); *@info describes the catalog.
 */
int prov_load(struct provenance *p, const char *const *paths, int n, struct catalog_info *info)
	__attribute__((warn_unused_result));

/** Whether document @idx was marked. */
static inline int prov_needed(const struct provenance *p, uint64_t idx)
{
	return idx < p->n_docs && bitrank_test(&p->needed, idx);
}

/** Slot of marked document @idx, after prov_load(): slots number the
 * marked documents in document order, so they sort as the documents do. */
static inline uint32_t prov_slot(const struct provenance *p, uint32_t idx)
{
	return bitrank_rank(&p->needed, idx);
}

/** Start loading what prov_slot(@p, @idx) reads. */
static inline void prov_prefetch_slot(const struct provenance *p, uint32_t idx)
{
	bitrank_prefetch(&p->needed, idx);
}

/** Marked document @idx, after prov_load(). */
static inline const struct prov_doc *prov_get(const struct provenance *p, uint32_t idx)
{
	return &p->doc[prov_slot(p, idx)];
}

/** The document in slot @s. */
static inline const struct prov_doc *prov_at(const struct provenance *p, uint32_t s)
{
	return &p->doc[s];
}

enum { PROV_HAS_TEXT = 1, PROV_SHORT_TEXT = 2, PROV_NO_FRAME = 4 };

/*
 * Whether two documents' texts (PROV_* bits @ta, @tb), @d bits apart,
 * let them be reported as duplicates.  Pages without main text match
 * nothing by text: that extraction found no content says nothing about
 * the pages being copies.  Short texts carry an exact-text fingerprint
 * and match only identical short texts.
 */
static inline int prov_texts_allow(uint8_t ta, uint8_t tb, uint32_t d)
{
	ta &= PROV_HAS_TEXT | PROV_SHORT_TEXT;
	tb &= PROV_HAS_TEXT | PROV_SHORT_TEXT;
	return ta == tb && (ta & PROV_HAS_TEXT) && (!(ta & PROV_SHORT_TEXT) || d == 0);
}

/**
 * May documents @a and @b, @d bits apart, be reported as duplicates?
 * Byte-identical payloads always may (an exact copy is a copy whatever its
 * text); otherwise prov_texts_allow() decides.
 */
static inline int prov_pair_allowed(const struct prov_doc *a, const struct prov_doc *b,
				    uint32_t d)
{
	return (d == 0 && a->payload_hash == b->payload_hash) || prov_texts_allow(a->text, b->text, d);
}

/**
 * prov_pair_allowed() of the documents in slots @sa and @sb, reading
 * their records only when their texts do not decide it (rare: pairs of
 * pages without text, or of short texts).
 */
static inline int prov_slots_allowed(const struct provenance *p, uint32_t sa, uint32_t sb,
				     uint32_t d)
{
	return prov_texts_allow(p->text[sa], p->text[sb], d) ||
	       (d == 0 && p->doc[sa].payload_hash == p->doc[sb].payload_hash);
}

/** The frame sketch of @d, a document of @p (template/frame.h). */
static inline uint64_t prov_frame(const struct provenance *p, const struct prov_doc *d)
{
	return p->frame[d - p->doc];
}

/*
 * Seed 004's four duplicate types, for the match column of the CSVs
 * (README, docs/MAIN-CONTENT.md "Duplicate types"):
 *
 *   exact         完全重复  the same payload bytes, or the same main text
 *                           on the same template;
 *   same-content  内容重复  the same content on another template: the same
 *                           main text, or fingerprints within
 *                           PROV_SAME_CONTENT_BITS;
 *   same-layout   布局重复  partly the same content, same template;
 *   partial       部分重复  partly the same content, another template.
 *
 * Same template: frame sketches within PROV_SAME_FRAME_BITS (pages with
 * no frame share the empty one); a page without a frame known (imported)
 * is on no template of another's.  Within one template the main text is
 * cut by the same rules on both pages, so any difference of text is a
 * difference of content; across templates the same article picks up
 * another site's caption or teaser, hence the slack.
 */
enum prov_match { PROV_EXACT, PROV_SAME_CONTENT, PROV_SAME_LAYOUT, PROV_PARTIAL };

/* Frames sharing about half their blocks or more (32 (1 - J) bits). */
#define PROV_SAME_FRAME_BITS 16
/* Texts sharing about 90% of their shingles or more (README's k = 3). */
#define PROV_SAME_CONTENT_BITS 3

/** The type of the pair @a, @b (symmetric), whose frame sketches are
 * @fa and @fb. */
static inline enum prov_match prov_match(const struct prov_doc *a, uint64_t fa,
					 const struct prov_doc *b, uint64_t fb)
{
	if (a->payload_hash == b->payload_hash)
		return PROV_EXACT;
	const int same_text = a->text_hash == b->text_hash;
	const int same_frame = !((a->text | b->text) & PROV_NO_FRAME) &&
			       __builtin_popcountll(fa ^ fb) <= PROV_SAME_FRAME_BITS;
	if (same_frame)
		return same_text ? PROV_EXACT : PROV_SAME_LAYOUT;
	if (same_text || __builtin_popcountll(a->simhash ^ b->simhash) <= PROV_SAME_CONTENT_BITS)
		return PROV_SAME_CONTENT;
	return PROV_PARTIAL;
}

/** The match column's value of @m: "exact", "same-content",
 * "same-layout" or "partial". */
static inline const char *prov_match_name(enum prov_match m)
{
	static const char *const name[] = {"exact", "same-content", "same-layout", "partial"};
	return name[m];
}

/** prov_match_name() of @a of @pa and @b of @pb. */
static inline const char *prov_match_kind(const struct provenance *pa, const struct prov_doc *a,
					  const struct provenance *pb, const struct prov_doc *b)
{
	return prov_match_name(prov_match(a, prov_frame(pa, a), b, prov_frame(pb, b)));
}

/** Free everything; the struct may be zeroed or initialised. */
void prov_free(struct provenance *p);

#endif
