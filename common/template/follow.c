/*
 * follow.c - see follow.h: the hosts, their learning and the stream of
 * pages; the pages read back and done are follow_pages.c, the end
 * follow_end.c.
 *
 *   read a batch of blocks --> each page: its host final?  yes: done now
 *        (in parallel) against the templates final so far; no: a
 *        reference (stream offset, length, slot) on its host's chain
 *   --> every page's record appended to the slot file in input order
 *        (a page not done yet: a placeholder of the same size)
 *   --> a host whose sample-th page came: read its chain back, learn it,
 *        do its pages, write their slots (pwrite)
 *   at the end: learn the hosts left, write the templates, load them as
 *   ndd-fingerprint --templates does; redo the pages whose blocks meet a
 *   template learnt after them (the check file); do the hosts left;
 *   emit the slot file in order.
 *
 * A page's result depends only on which of its blocks are template
 * (tplfp.h) and which core keys its frame met, and a template once
 * learnt is kept, so the check file keeps, per page done early, the low
 * 32 bits of the hashes of its blocks the set it was done against did
 * not hold, and of the core keys it held, which a host learnt later may
 * share (tplnow.h).
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
#include "template/tplnow.h"
#include "util/grow.h"
#include "util/log.h"

#define BLOCKS_PER_THREAD 4

/* ---- hosts ---- */

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
			size_t k = (size_t)((f->hs[i].host * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
			while (g[k].host)
				k = (k + 1) & (cap - 1);
			g[k] = f->hs[i];
		}
		free(f->hs);
		f->hs = g;
		f->hs_mask = cap - 1;
	}
	size_t k = (size_t)((host * 0x9E3779B97F4A7C15ull) >> 32) & f->hs_mask;
	while (f->hs[k].host && f->hs[k].host != host)
		k = (k + 1) & f->hs_mask;
	if (!f->hs[k].host) {
		f->hs[k] = (struct hstate){host, 0, NONE, NONE, 0};
		f->hs_n++;
	}
	return &f->hs[k];
}

/* Append a reference to @h's chain.  @return 0 or -1. */
static int chain_add(struct fl *f, struct hstate *h, uint64_t off, uint32_t len, uint64_t slot)
{
	uint32_t i = f->free_ref;
	if (i != NONE) {
		f->free_ref = f->ref[i].next;
	} else {
		if (f->n_ref >= NONE ||
		    array_grow((void **)&f->ref, &f->cap_ref, f->n_ref + 1, sizeof *f->ref))
			return -1;
		i = (uint32_t)f->n_ref++;
	}
	f->ref[i] = (struct ref){off, slot, len, NONE};
	if (h->tail != NONE)
		f->ref[h->tail].next = i;
	else
		h->head = i;
	h->tail = i;
	return 0;
}

/* Give @h's chain back to the free list. */
void fl_chain_free(struct fl *f, struct hstate *h)
{
	if (h->head == NONE)
		return;
	f->ref[h->tail].next = f->free_ref;
	f->free_ref = h->head;
	h->head = h->tail = NONE;
}

/* ---- learning ---- */

/* Learn host @h from the first pages of its chain (read back into
 * @f->pg, all @n of them): record the template.  @return 0 or -1. */
int fl_learn_host(struct fl *f, struct hstate *h, size_t n)
{
	struct pages *p = &f->pg;
	const size_t m = n < f->o->sample ? n : f->o->sample;
	struct tpl_page *tp = malloc((m ? m : 1) * sizeof *tp);
	size_t nh = 0;
	for (size_t i = 0; i < m; i++) {
		p->hoff[i] = nh;
		const uint32_t nb = p->doc[i].n_blocks;
		f->st->capped_blocks += nb > TPL_MAX_PAGE_BLOCKS;
		nh += tpl_page_words(nb < TPL_MAX_PAGE_BLOCKS ? nb : TPL_MAX_PAGE_BLOCKS);
	}
	if (!tp || array_grow((void **)&p->hash, &p->hash_cap, nh, sizeof *p->hash)) {
		free(tp);
		log_error("out of memory");
		return -1;
	}
	for (size_t i = 0; i < m; i++) {
		struct tplfp_worker *w = &f->w[0];
		const long got = tpl_page_blocks(&p->doc[i], &w->text.blk, &w->text.blk_cap,
						 &tp[i].sig, p->hash + p->hoff[i]);
		if (got < 0) {
			free(tp);
			log_error("out of memory");
			return -1;
		}
		tp[i].n = (uint32_t)got;
		tp[i].blocks = p->hash + p->hoff[i];
		tp[i].pointer = tp[i].blocks + got;
		tp[i].content = tp[i].pointer + tpl_page_bitmap((uint64_t)got);
	}
	const uint64_t *hashes;
	size_t nhash;
	uint32_t groups;
	int rc = tpl_learn(f->learner, tp, m, &f->o->tp, &hashes, &nhash, &groups);
	free(tp);
	if (!rc && (array_grow((void **)&f->lt, &f->cap_lt, f->n_lt + 1, sizeof *f->lt) ||
		    array_grow((void **)&f->lhash, &f->cap_lhash, f->n_lhash + nhash, 8)))
		rc = -1;
	if (rc) {
		log_error("out of memory learning a template");
		return -1;
	}
	f->lt[f->n_lt++] = (struct learnt){h->host, f->n_lhash, groups, (uint32_t)nhash};
	if (nhash)
		memcpy(f->lhash + f->n_lhash, hashes, nhash * 8);
	f->n_lhash += nhash;
	f->st->sampled += m;
	f->st->hosts++;
	if (tplnow_add(&f->now, hashes, nhash)) {
		log_error("out of memory");
		return -1;
	}
	return 0;
}

/* @h's chain as an array (in *@v, grown).  @return its length, or -1. */
long fl_chain_list(struct fl *f, const struct hstate *h, struct ref **v, size_t *cap)
{
	size_t n = 0;
	for (uint32_t i = h->head; i != NONE; i = f->ref[i].next) {
		if (array_grow((void **)v, cap, n + 1, sizeof **v))
			return -1;
		(*v)[n++] = f->ref[i];
	}
	return (long)n;
}

/* Host @h's sample is complete: learn it, do its pages so far. */
static int host_final(struct fl *f, struct hstate *h)
{
	struct ref *v = NULL;
	size_t cap = 0;
	const long n = fl_chain_list(f, h, &v, &cap);
	int rc = n < 0 ? -1 : 0;
	/* a sample is at most 1000 pages (and the batch's pages after it):
	 * learnt from, and done, in one read-back */
	if (!rc)
		rc = fl_read_back(f, v, (size_t)n) || fl_learn_host(f, h, (size_t)n) ||
		     fl_do_loaded(f, &f->now, 1, NULL) ? -1 : 0;
	f->st->at_host += (uint64_t)(n > 0 ? n : 0);
	free(v);
	h->final = 1;
	fl_chain_free(f, h);
	return rc;
}

/* ---- the stream ---- */

struct batch {
	struct ndf_block *blk;
	size_t n_blk, max_blk;
};

/* Decode the batch's pages into @f->pg, stream offsets from @base;
 * note each page's host.  @return 0 or -1 (logged). */
static int decode_batch(struct fl *f, const struct batch *b, uint64_t base, uint8_t **pending,
			size_t *pcap)
{
	struct pages *p = &f->pg;
	size_t n = 0;
	for (size_t k = 0; k < b->n_blk; k++)
		n += b->blk[k].n_records;
	if (fl_pages_reserve(p, n) || array_grow((void **)pending, pcap, n, 1)) {
		log_error("out of memory");
		return -1;
	}
	n = 0;
	for (size_t k = 0; k < b->n_blk; k++) {
		const struct ndf_block *blk = &b->blk[k];
		const uint8_t *q = blk->data, *const end = blk->data + blk->len;
		for (uint32_t i = 0; i < blk->n_records; i++, n++) {
			const uint8_t *const at = q;
			if (docrec_decode(&q, end, &p->doc[n])) {
				log_error("%s: block at offset %llu: record %u is malformed", f->name,
					  (unsigned long long)blk->offset, i);
				return -1;
			}
			p->off[n] = base + blk->offset + NDF_BLOCK_HEADER + (uint64_t)(at - blk->data);
			p->len[n] = (uint32_t)(q - at);
		}
		if (q != end) {
			log_error("%s: block at offset %llu: bytes after the last record", f->name,
				  (unsigned long long)blk->offset);
			return -1;
		}
	}
	p->n = n;
	return 0;
}

/* Sort the batch's pages: done now (@pending[i] 0), or later, their
 * host not final yet (@key[i] the host; hosts whose sample completes
 * go to f->due). */
static int classify(struct fl *f, uint8_t *pending, uint64_t *key)
{
	struct pages *p = &f->pg;
	f->n_due = 0;
	for (size_t i = 0; i < p->n; i++) {
		const uint64_t host = host_key(p->doc[i].url.p, p->doc[i].url.n);
		f->st->docs++;
		pending[i] = 0;
		key[i] = host;
		if (!host) {
			f->st->no_host++;
			continue;
		}
		struct hstate *h = host_get(f, host);
		if (!h) {
			log_error("out of memory");
			return -1;
		}
		if (h->final)
			continue;
		pending[i] = 1;
		if (++h->count == f->o->sample) {
			if (array_grow((void **)&f->due, &f->cap_due, f->n_due + 1, sizeof *f->due)) {
				log_error("out of memory");
				return -1;
			}
			f->due[f->n_due++] = host;
		}
	}
	return 0;
}

/* Append every page's slot in input order (a placeholder for a page not
 * done: its reference goes on its host's chain), and the check records
 * of the pages done.  @return 0 or -1. */
static int append_slots(struct fl *f, const uint8_t *pending, const uint64_t *key)
{
	struct pages *p = &f->pg;
	for (size_t i = 0; i < p->n; i++) {
		static const struct tplfp_result none = {0, 0, 0, 0, 0, 0};
		const struct tplfp_result *res = pending[i] ? &none : &p->res[i];
		const struct fp_record r = tplfp_record(&p->doc[i], res);
		if (fslots_append(&f->slots, &r, res->choice, &p->slot[i]))
			return -1;
		if (pending[i]) {
			struct hstate *h = host_get(f, key[i]);
			if (!h || chain_add(f, h, p->off[i], p->len[i], p->slot[i])) {
				log_error("out of memory");
				return -1;
			}
		} else {
			f->st->early++;
			if (fl_check_write(f, i))
				return -1;
		}
	}
	return fslots_flush(&f->slots);
}

static long read_batch(struct ndf_reader *r, struct batch *b, struct follow_stats *st)
{
	const long got = ndf_read_raw_blocks(r, b->blk, b->max_blk, &st->bytes_in);
	b->n_blk = got > 0 ? (size_t)got : 0;
	return got;
}

/* One DOCS section starting at stream offset @base.  @return 0 or -1. */
static int run_section(struct fl *f, struct ndf_reader *r, uint64_t base, struct batch *b)
{
	uint8_t *pending = NULL;
	uint64_t *key = NULL;
	size_t pcap = 0, kcap = 0;
	long got;
	int rc = 0;
	while (!rc && (got = read_batch(r, b, f->st)) > 0) {
		rc = decode_batch(f, b, base, &pending, &pcap);
		if (!rc && array_grow((void **)&key, &kcap, f->pg.n, sizeof *key))
			rc = -1;
		if (!rc)
			rc = classify(f, pending, key) || fl_do_pages(f, &f->now, 1, pending, NULL) ||
			     append_slots(f, pending, key) ? -1 : 0;
		for (size_t k = 0; k < f->n_due && !rc; k++)
			rc = host_final(f, host_get(f, f->due[k]));
	}
	if (got < 0)
		rc = -1;
	free(pending);
	free(key);
	return rc;
}

/* Open what reads pages back.  @return 0 or -1. */
static int open_docs(struct fl *f, FILE *in)
{
	struct stat sb;
	if (f->o->docs) {
		/* opened once a page has come through the copy's writer (tee),
		 * which opens, and truncates, its files before it reads */
		f->wait = 1;
		return 0;
	}
	if (fstat(fileno(in), &sb) || !S_ISREG(sb.st_mode)) {
		log_error("%s: learning templates reads pages back: give the documents as a "
			  "file, or name their copy with --docs", f->name);
		return -1;
	}
	f->docs_fd = fileno(in);
	f->size = (uint64_t)sb.st_size;
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
	free(f->due);
	blockset_free(&f->now);
	fl_pages_free(&f->pg);
	tpl_learner_free(f->learner);
	fslots_close(&f->slots);
	fcheck_close(&f->check);
	if (f->docs_fd >= 0 && f->docs_fd != fileno(in))
		close(f->docs_fd);
}

int follow_run(const struct follow_opts *o, FILE *in, const char *name, follow_emit_fn emit,
	       void *ctx, struct follow_stats *st)
{
	struct fl f = {.o = o, .st = st, .name = name, .docs_fd = -1, .free_ref = NONE};
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
	if (!rc && (fslots_open(&f.slots, o->tmpdir) || fcheck_open(&f.check, o->tmpdir)))
		rc = -1;
	struct batch b = {NULL, 0, (size_t)o->threads * BLOCKS_PER_THREAD};
	b.blk = calloc(b.max_blk, sizeof *b.blk);
	if (!b.blk)
		rc = -1;
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
	/* the input has ended, so has its copy: tee writes each piece to its
	 * files before it reads the next, and the pipe ends when tee does */
	f.wait = 0;
	if (!rc)
		rc = fl_finish(&f, emit, ctx);
	for (size_t k = 0; k < b.max_blk && b.blk; k++)
		ndf_block_free(&b.blk[k]);
	free(b.blk);
	fl_free(&f, in);
	return rc;
}
