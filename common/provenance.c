/*
 * provenance.c - see provenance.h.
 */
#include "provenance.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "memhint.h"
#include "numbering.h"

int prov_init(struct provenance *p, size_t n_docs)
{
	memset(p, 0, sizeof *p);
	p->n_docs = n_docs;
	p->slot = malloc((n_docs + 1) * sizeof *p->slot);
	mem_hint_huge_pages(p->slot, (n_docs + 1) * sizeof *p->slot);
	if (!p->slot) {
		log_error("out of memory for %zu documents", n_docs);
		return -1;
	}
	memset(p->slot, 0xff, (n_docs + 1) * sizeof *p->slot);
	return 0;
}

void prov_mark(struct provenance *p, uint32_t idx)
{
	/* numbered by prov_load() (numbering.h); threads marking one document
	 * store the same value */
	if (idx < p->n_docs)
		__atomic_store_n(&p->slot[idx], 0, __ATOMIC_RELAXED);
}

static uint64_t keep_str(struct provenance *p, struct str s)
{
	if (p->arena_len + s.n > p->arena_cap) {
		size_t cap = 2 * (p->arena_len + s.n) + 4096;
		char *a = realloc(p->arena, cap);
		if (!a) {
			p->oom = 1;
			return 0;
		}
		p->arena = a;
		p->arena_cap = cap;
		mem_hint_huge_pages(a, cap);
	}
	memcpy(p->arena + p->arena_len, s.p, s.n);
	p->arena_len += s.n;
	return p->arena_len - s.n;
}

static int note(void *ctx, uint64_t idx, const struct fp_record *r)
{
	struct provenance *p = ctx;
	if (idx >= p->n_docs || p->slot[idx] == UINT32_MAX)
		return 0;
	struct prov_doc *d = &p->doc[p->slot[idx]];
	d->simhash = r->simhash;
	d->payload_hash = r->payload_hash;
	d->text_hash = r->text_hash;
	d->warc_offset = r->warc_offset;
	d->doc_id = r->doc_id;
	d->flags = r->flags;
	d->text_len = r->text_len;
	d->url = keep_str(p, r->url);
	d->url_len = r->url.n;
	/* the records of one WARC file come together: keep its name once */
	if (p->n_loaded && r->warc_file.n == p->last_file_len &&
	    !memcmp(p->arena + p->last_file, r->warc_file.p, r->warc_file.n))
		d->warc_file = p->last_file;
	else
		d->warc_file = p->last_file = keep_str(p, r->warc_file);
	p->last_file_len = r->warc_file.n;
	p->n_loaded++;
	d->warc_file_len = r->warc_file.n;
	if (p->oom) {
		log_error("out of memory keeping the provenance of %zu documents", p->n);
		return -1;
	}
	return 0;
}

int prov_load(struct provenance *p, const char *const *paths, int n, struct catalog_info *info)
{
	/* slots in document order: the catalog pass then fills them in order */
	p->n = numbering_assign(p->slot, p->n_docs);
	p->doc = calloc(p->n + 1, sizeof *p->doc);
	mem_hint_huge_pages(p->doc, (p->n + 1) * sizeof *p->doc);
	if (!p->doc) {
		log_error("out of memory for %zu documents", p->n);
		return -1;
	}
	return catalog_scan(paths, n, note, p, info);
}

void prov_write_location(struct csv_writer *w, const struct provenance *p,
			 const struct prov_doc *d)
{
	csv_field(w, prov_str(p, d->url), d->url_len);
	csv_sep(w);
	csv_field(w, prov_str(p, d->warc_file), d->warc_file_len);
	csv_sep(w);
	csv_u64(w, d->warc_offset);
	csv_sep(w);
	csv_hex64(w, d->simhash);
}

void prov_free(struct provenance *p)
{
	free(p->slot);
	free(p->doc);
	free(p->arena);
	memset(p, 0, sizeof *p);
}
