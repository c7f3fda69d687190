/*
 * provenance.c - see provenance.h.
 */
#include "output/provenance.h"

#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/memhint.h"
#include "util/threads.h"

int prov_init(struct provenance *p, size_t n_docs)
{
	memset(p, 0, sizeof *p);
	p->n_docs = n_docs;
	if (bitrank_init(&p->needed, n_docs)) {
		log_error("out of memory for %zu documents", n_docs);
		return -1;
	}
	return 0;
}

void prov_mark(struct provenance *p, uint32_t idx)
{
	if (idx < p->n_docs)
		bitrank_set(&p->needed, idx);
}

/*
 * Strings are copied into the arena of the thread that decodes their
 * record (the catalog is decoded by all threads at once): chunks that
 * never move, so a prov_doc can point into them.
 */
#define ARENA_CHUNK (32u << 20)

struct arena_chunk {
	struct arena_chunk *prev;
	size_t len, cap;
	char data[];
};

struct prov_arena {
	struct arena_chunk *top;
	const char *last_file; /* the records of one WARC file come together: */
	uint32_t last_file_len; /* its name is kept once per run of them */
	int oom;
	char pad[64]; /* threads' arenas on separate cache lines */
};

/* @n bytes in @a's arena, or NULL (a->oom set). */
static char *arena_room(struct prov_arena *a, size_t n)
{
	struct arena_chunk *c = a->top;
	if (!c || c->len + n > c->cap) {
		size_t cap = n > ARENA_CHUNK ? n : ARENA_CHUNK;
		struct arena_chunk *nc = malloc(sizeof *nc + cap);
		if (!nc) {
			a->oom = 1;
			return NULL;
		}
		mem_hint_huge_pages(nc, sizeof *nc + cap);
		nc->prev = c;
		nc->len = 0;
		nc->cap = cap;
		a->top = c = nc;
	}
	char *p = c->data + c->len;
	c->len += n;
	return p;
}

static const char *keep_str(struct prov_arena *a, struct str s)
{
	char *p = arena_room(a, s.n);
	if (!p)
		return "";
	memcpy(p, s.p, s.n);
	return p;
}

/* The URL, then record id and date, each a u16 LE length and its bytes
 * (provenance.h's prov_record_id(), prov_date()).  A longer id or date
 * than 64 KiB is no id a reader could use: it is cut there. */
static const char *keep_url(struct prov_arena *a, const struct fp_record *r)
{
	const uint16_t nr = r->record_id.n > UINT16_MAX ? UINT16_MAX : (uint16_t)r->record_id.n;
	const uint16_t nd = r->date.n > UINT16_MAX ? UINT16_MAX : (uint16_t)r->date.n;
	char *const kept = arena_room(a, (size_t)r->url.n + 4 + nr + nd);
	char *p = kept;
	if (!p)
		return "";
	if (r->url.n)
		memcpy(p, r->url.p, r->url.n);
	p += r->url.n;
	*p++ = (char)(nr & 0xff);
	*p++ = (char)(nr >> 8);
	if (nr)
		memcpy(p, r->record_id.p, nr);
	p += nr;
	*p++ = (char)(nd & 0xff);
	*p++ = (char)(nd >> 8);
	if (nd)
		memcpy(p, r->date.p, nd);
	return kept;
}

static int wanted(void *ctx, uint64_t idx)
{
	return prov_needed(ctx, idx);
}

static int note(void *ctx, uint64_t idx, const struct fp_record *r)
{
	struct provenance *p = ctx;
	struct prov_arena *a = &p->arena[threads_id()];
	const uint32_t slot = prov_slot(p, (uint32_t)idx);
	struct prov_doc *d = &p->doc[slot];
	d->simhash = r->simhash;
	d->payload_hash = r->payload_hash;
	d->text_hash = r->text_hash;
	d->warc_offset = r->warc_offset;
	d->doc_id = idx;
	d->text = (uint8_t)((r->text_len != 0 ? PROV_HAS_TEXT : 0) |
			    (r->flags & FP_SHORT_TEXT ? PROV_SHORT_TEXT : 0) |
			    (r->flags & FP_NO_FRAME ? PROV_NO_FRAME : 0));
	p->text[slot] = d->text;
	p->frame[slot] = r->frame;
	if (r->warc_file.n > UINT16_MAX) {
		log_error("document %llu: WARC file name of %u bytes: longer than any path",
			  (unsigned long long)idx, r->warc_file.n);
		return -1;
	}
	d->url = keep_url(a, r);
	d->url_len = r->url.n;
	if (a->last_file && r->warc_file.n == a->last_file_len &&
	    !memcmp(a->last_file, r->warc_file.p, r->warc_file.n))
		d->warc_file = a->last_file;
	else
		d->warc_file = a->last_file = keep_str(a, r->warc_file);
	a->last_file_len = r->warc_file.n;
	d->warc_file_len = (uint16_t)r->warc_file.n;
	if (a->oom) {
		log_error("out of memory keeping the provenance of %zu documents", p->n);
		return -1;
	}
	return 0;
}

int prov_prepare(struct provenance *p)
{
	/* slots in document order: the catalog pass then fills them in order */
	p->n = bitrank_finish(&p->needed);
	const size_t bytes = (p->n + 1) * sizeof *p->doc;
	/* Not cleared: the catalog pass fills every slot (prov_load() refuses
	 * a catalog that ends before a marked document), and its threads then
	 * fault the fresh pages in side by side, where one thread clearing
	 * them would be serial.  The spare record past the end is cleared. */
	p->doc = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
	if (p->doc) {
		mem_hint_huge_pages(p->doc, bytes);
		memset(&p->doc[p->n], 0, sizeof *p->doc);
	}
	p->text = calloc(p->n + 1, 1);
	p->frame = calloc(p->n + 1, sizeof *p->frame);
	p->n_arenas = threads_max();
	p->arena = calloc((size_t)p->n_arenas, sizeof *p->arena);
	if (!p->doc || !p->text || !p->frame || !p->arena) {
		log_error("out of memory for %zu documents", p->n);
		return -1;
	}
	return 0;
}

/* One past the highest marked document (0 if none). */
static uint64_t marked_end(const struct provenance *p)
{
	for (size_t w = p->needed.words; w-- > 0;)
		if (p->needed.bit[w])
			return (uint64_t)w * 64 + 64 - (uint64_t)__builtin_clzll(p->needed.bit[w]);
	return 0;
}

int prov_load(struct provenance *p, const char *const *paths, int n, struct catalog_info *info)
{
	if (!p->doc && prov_prepare(p))
		return -1;
	const struct catalog_visitor v = {.record = note, .ctx = p, .want = wanted};
	int rc = catalog_scan(paths, n, &v, info);
	const uint64_t end = rc ? 0 : marked_end(p);
	if (!rc && info->n_records < end) {
		/* slots past the catalog's end were never filled (nor cleared) */
		log_error("the catalog has %llu records; document %llu was asked for",
			  (unsigned long long)info->n_records, (unsigned long long)end - 1);
		rc = -1;
	}
	return rc;
}

void prov_free(struct provenance *p)
{
	bitrank_free(&p->needed);
	free(p->doc);
	free(p->text);
	free(p->frame);
	for (int t = 0; t < p->n_arenas; t++)
		for (struct arena_chunk *c = p->arena[t].top, *prev; c; c = prev) {
			prev = c->prev;
			free(c);
		}
	free(p->arena);
	memset(p, 0, sizeof *p);
}
