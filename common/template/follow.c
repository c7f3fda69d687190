/*
 * follow.c - see follow.h: the hosts and the stream of pages; the pages
 * read back and done are follow_pages.c, the end follow_end.c.
 *
 *   read a block --> each page: its host (host.h), its sample key
 *        (hostlearn.h), a reference (stream offset, length, key) on its
 *        host's chain
 *   at the end: each host's candidates read back and learnt, the
 *   templates written and loaded, every page read back in input order,
 *   done and emitted (follow_end.c).
 *
 * Nothing is decided while the documents come: a host's sample is its
 * pages of smallest key, known only at the end, and a page is decided
 * against every host's template (tplset_any_set()), so even a page of
 * no host waits for the last one learnt.
 */
#include "template/follow.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/ndf.h"
#include "template/follow_state.h"
#include "template/host.h"
#include "template/hostlearn.h"
#include "util/grow.h"
#include "util/log.h"

/* ---- hosts ---- */

static size_t host_slot(uint64_t host, size_t mask)
{
	return (size_t)((host * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

static struct hstate *host_get(struct fl *f, uint64_t host)
{
	if (2 * (f->hs_n + 1) > f->hs_mask + 1) {
		const size_t cap = 2 * (f->hs_mask + 1);
		struct hstate *g = calloc(cap, sizeof *g);
		if (!g)
			return NULL;
		for (size_t i = 0; i <= f->hs_mask; i++) {
			if (!f->hs[i].host)
				continue;
			size_t k = host_slot(f->hs[i].host, cap - 1);
			while (g[k].host)
				k = (k + 1) & (cap - 1);
			g[k] = f->hs[i];
		}
		free(f->hs);
		f->hs = g;
		f->hs_mask = cap - 1;
	}
	size_t k = host_slot(host, f->hs_mask);
	while (f->hs[k].host && f->hs[k].host != host)
		k = (k + 1) & f->hs_mask;
	if (!f->hs[k].host) {
		f->hs[k] = (struct hstate){host, NONE, NONE};
		f->hs_n++;
	}
	return &f->hs[k];
}

/* Append a page's reference, on @h's chain if @h.  @return 0 or -1. */
static int ref_add(struct fl *f, struct hstate *h, uint64_t off, uint32_t len, uint64_t key)
{
	if (f->n_ref >= NONE ||
	    array_grow((void **)&f->ref, &f->cap_ref, f->n_ref + 1, sizeof *f->ref))
		return -1;
	const uint32_t i = (uint32_t)f->n_ref++;
	f->ref[i] = (struct ref){off, key, len, NONE};
	if (!h)
		return 0;
	if (h->tail != NONE)
		f->ref[h->tail].next = i;
	else
		h->head = i;
	h->tail = i;
	return 0;
}

/* ---- the stream ---- */

/* The pages of one block, which starts at stream offset @base +
 * b->offset.  @return 0 or -1 (logged). */
static int take_block(struct fl *f, const struct ndf_block *b, uint64_t base)
{
	const uint8_t *q = b->data, *const end = b->data + b->len;
	for (uint32_t i = 0; i < b->n_records; i++) {
		const uint8_t *const at = q;
		struct doc_record d;
		if (docrec_decode(&q, end, &d)) {
			log_error("%s: block at offset %llu: record %u is malformed", f->name,
				  (unsigned long long)b->offset, i);
			return -1;
		}
		const uint64_t host = host_key(d.url.p, d.url.n);
		const uint64_t key = tpl_sample_key(&d);
		struct hstate *h = NULL;
		f->st->docs++;
		if (!host) {
			f->st->no_host++;
		} else if (!(h = host_get(f, host))) {
			log_error("out of memory");
			return -1;
		}
		if (ref_add(f, h, base + b->offset + NDF_BLOCK_HEADER + (uint64_t)(at - b->data),
			    (uint32_t)(q - at), key)) {
			log_error("out of memory: %zu pages", f->n_ref);
			return -1;
		}
	}
	if (q != end) {
		log_error("%s: block at offset %llu: bytes after the last record", f->name,
			  (unsigned long long)b->offset);
		return -1;
	}
	return 0;
}

/* One DOCS section starting at stream offset @base.  @return 0 or -1. */
static int run_section(struct fl *f, struct ndf_reader *r, uint64_t base, struct ndf_block *b)
{
	int got, rc = 0;
	while (!rc && (got = ndf_read_raw_block(r, b)) != 0) {
		if (got < 0)
			return -1;
		f->st->bytes_in += NDF_BLOCK_HEADER + b->len;
		rc = take_block(f, b, base);
	}
	return rc;
}

/* Open what reads pages back.  @return 0 or -1. */
static int open_docs(struct fl *f, FILE *in)
{
	struct stat sb;
	if (f->o->docs)
		return 0; /* opened at the end, once the copy is whole */
	if (fstat(fileno(in), &sb) || !S_ISREG(sb.st_mode)) {
		log_error("%s: learning templates reads pages back: give the documents as a "
			  "file, or name their copy with --docs", f->name);
		return -1;
	}
	f->docs_fd = fileno(in);
	return 0;
}

static void fl_free(struct fl *f, FILE *in)
{
	for (int t = 0; t < f->o->threads; t++) {
		docfp_ctx_free(f->w[t].ctx);
		tplfp_worker_free(&f->w[t]);
	}
	free(f->w);
	free(f->hs);
	free(f->ref);
	free(f->lt);
	free(f->lhash);
	fl_pages_free(&f->pg);
	tpl_learner_free(f->learner);
	if (f->docs_fd >= 0 && f->docs_fd != fileno(in))
		close(f->docs_fd);
}

int follow_run(const struct follow_opts *o, FILE *in, const char *name, follow_emit_fn emit,
	       void *ctx, struct follow_stats *st)
{
	struct fl f = {.o = o, .st = st, .name = name, .docs_fd = -1};
	memset(st, 0, sizeof *st);
	f.hs = calloc(1024, sizeof *f.hs);
	f.hs_mask = 1023;
	f.w = calloc((size_t)o->threads, sizeof *f.w);
	f.learner = tpl_learner_new();
	int rc = f.hs && f.w && f.learner ? 0 : -1;
	for (int t = 0; t < o->threads && !rc; t++)
		rc = (f.w[t].ctx = docfp_ctx_new(o->cfg)) ? 0 : -1;
	if (rc)
		log_error("out of memory");
	if (!rc)
		rc = open_docs(&f, in);
	struct ndf_block b = {0};
	uint64_t base = 0;
	struct ndf_reader *r;
	int err = 0;
	while (!rc && (r = ndf_reader_open(in, name, &err))) {
		const struct ndf_header *h = ndf_reader_header(r);
		st->sections++;
		rc = docrec_check_header(h, name);
		if (!rc && !f.have_config) {
			f.feature_config = h->feature_config;
			f.have_config = 1;
		}
		if (!rc)
			rc = run_section(&f, r, base, &b);
		base += ndf_reader_header(r)->section_size;
		ndf_reader_close(r);
	}
	if (!rc && err < 0)
		rc = -1;
	if (!rc && !st->sections) {
		log_error("%s: no documents section: the input is empty", name);
		rc = -1;
	}
	ndf_block_free(&b);
	if (!rc)
		rc = fl_finish(&f, emit, ctx);
	fl_free(&f, in);
	return rc;
}
