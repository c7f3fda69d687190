/*
 * follow.c - see follow.h.
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

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "format/ndf.h"
#include "template/blockset.h"
#include "template/followtmp.h"
#include "template/host.h"
#include "template/hostlearn.h"
#include "template/tplfp.h"
#include "template/tplnow.h"
#include "template/tplset.h"
#include "template/tplwrite.h"
#include "util/grow.h"
#include "util/log.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#define NONE UINT32_MAX
#define BLOCKS_PER_THREAD 4
#define CHUNK_PAGES 2048 /* pages read back at a time */
#define WAIT_LIMIT 60000 /* ms a copy may lag behind the input */

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
static void chain_free(struct fl *f, struct hstate *h)
{
	if (h->head == NONE)
		return;
	f->ref[h->tail].next = f->free_ref;
	f->free_ref = h->head;
	h->head = h->tail = NONE;
}

/* ---- reading pages back ---- */

static int open_copy(struct fl *f)
{
	if (f->docs_fd >= 0)
		return 0;
	f->docs_fd = open(f->o->docs, O_RDONLY);
	if (f->docs_fd < 0) {
		log_error("cannot open '%s': %s", f->o->docs, strerror(errno));
		return -1;
	}
	return 0;
}

static int pread_all(int fd, uint8_t *buf, size_t len, uint64_t off)
{
	while (len) {
		const ssize_t r = pread(fd, buf, len, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			log_error("cannot read the documents back: %s",
				  r < 0 ? strerror(errno) : "the file shrank");
			return -1;
		}
		buf += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

/* Wait until the copy holds the bytes before @end (a copy being
 * written lags behind what came through the pipe).  @return 0 or -1. */
static int wait_for(struct fl *f, uint64_t end)
{
	int waited = 0;
	if (open_copy(f))
		return -1;
	while (end > f->size) {
		struct stat sb;
		if (fstat(f->docs_fd, &sb)) {
			log_error("cannot read the documents back: %s", strerror(errno));
			return -1;
		}
		if ((uint64_t)sb.st_size >= end) {
			f->size = (uint64_t)sb.st_size;
			break;
		}
		if (!f->wait || waited++ >= WAIT_LIMIT) {
			log_error("the documents to read back end before byte %llu: not a copy "
				  "of the input?", (unsigned long long)end);
			return -1;
		}
		const struct timespec ms = {0, 1000000};
		nanosleep(&ms, NULL);
	}
	return 0;
}

static int pages_reserve(struct pages *p, size_t n)
{
	if (n <= p->cap)
		return 0;
	/* the arrays grow together: array_grow() gives each the same capacity */
	void **const arr[] = {(void **)&p->doc, (void **)&p->off,  (void **)&p->slot,
			      (void **)&p->len, (void **)&p->res,  (void **)&p->hoff,
			      (void **)&p->nh,  (void **)&p->nc};
	const size_t size[] = {sizeof *p->doc, sizeof *p->off, sizeof *p->slot, sizeof *p->len,
			       sizeof *p->res, sizeof *p->hoff, sizeof *p->nh, sizeof *p->nc};
	size_t c = p->cap;
	for (size_t i = 0; i < sizeof arr / sizeof arr[0]; i++) {
		c = p->cap;
		if (array_grow(arr[i], &c, n, size[i]))
			return -1;
	}
	p->cap = c;
	return 0;
}

static void pages_free(struct pages *p)
{
	free(p->doc);
	free(p->off);
	free(p->slot);
	free(p->len);
	free(p->res);
	free(p->hoff);
	free(p->nh);
	free(p->nc);
	free(p->buf);
	free(p->hash);
}

/* Read back and decode the @n references at @r into @f->pg.
 * @return 0 or -1 (logged). */
static int read_back(struct fl *f, const struct ref *r, size_t n)
{
	struct pages *p = &f->pg;
	size_t bytes = 0;
	for (size_t i = 0; i < n; i++)
		bytes += r[i].len;
	if (pages_reserve(p, n) || array_grow((void **)&p->buf, &p->buf_cap, bytes, 1)) {
		log_error("out of memory");
		return -1;
	}
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		if (wait_for(f, r[i].off + r[i].len) ||
		    pread_all(f->docs_fd, p->buf + at, r[i].len, r[i].off))
			return -1;
		const uint8_t *q = p->buf + at, *const end = q + r[i].len;
		at += r[i].len;
		if (docrec_decode(&q, end, &p->doc[i]) || q != end) {
			log_error("the page read back at byte %llu is not the one read: not a copy of "
				  "the input?", (unsigned long long)r[i].off);
			return -1;
		}
		p->off[i] = r[i].off;
		p->slot[i] = r[i].slot;
		p->len[i] = r[i].len;
	}
	p->n = n;
	return 0;
}

/* ---- doing pages ---- */

/* Do pages [0, n) of @f->pg against @set; with @keep, note the keys
 * that would make a block template that is not (for the check file: a
 * template learnt later may hold them): its hash, and a pointer's quoted
 * key too (learn.h); then the core keys in @set of its template blocks,
 * which a host learnt later may share (tplnow.h).  A block gives two
 * keys at most.
 * @return 0 or -1 (out of memory, logged). */
static int do_pages(struct fl *f, const struct blockset *set, int keep, const uint8_t *skip,
		    const struct tplfp_result *was)
{
	struct pages *p = &f->pg;
	const long n = (long)p->n;
	if (keep) {
		size_t nh = 0;
		for (long i = 0; i < n; i++) {
			p->hoff[i] = nh;
			nh += skip && skip[i] ? 0 : 2 * (size_t)p->doc[i].n_blocks;
		}
		if (array_grow((void **)&p->hash, &p->hash_cap, nh, sizeof *p->hash)) {
			log_error("out of memory");
			return -1;
		}
	}
	int failed = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 8) num_threads(f->o->threads) \
	if (f->o->threads > 1) reduction(| : failed)
#endif
	for (long i = 0; i < n; i++) {
		int tid = 0;
#ifdef _OPENMP
		tid = omp_get_thread_num();
#endif
		if ((skip && skip[i]) || failed)
			continue;
		struct tplfp_worker *w = &f->w[tid];
		const struct doc_record *d = &p->doc[i];
		if (tplfp_page(d, set, w, was ? &was[i] : NULL, &p->res[i])) {
			failed = 1;
			continue;
		}
		if (!keep)
			continue;
		if (!set || !set->n) /* decided without hashing the content blocks */
			docrec_blocks(d, w->text.blk);
		uint64_t *const kept = p->hash + p->hoff[i];
		uint32_t m = 0, c = 0;
		for (uint32_t k = 0; k < d->n_blocks; k++) {
			const struct doc_block *const b = &w->text.blk[k];
			if (tpl_is_template(set, b))
				continue;
			kept[m++] = b->hash;
			if (b->flags & DB_POINTER)
				kept[m++] = tpl_quoted_key(b->hash);
		}
		for (uint32_t k = 0; k < d->n_blocks; k++) {
			const struct doc_block *const b = &w->text.blk[k];
			if ((b->flags & TPL_MARK) && blockset_has(set, tpl_core_key(b->hash)))
				kept[m + c++] = tpl_core_key(b->hash);
		}
		p->nh[i] = m;
		p->nc[i] = c;
	}
	if (failed)
		log_error("out of memory fingerprinting a page");
	return failed ? -1 : 0;
}

/* Write page @i's record into its slot.  @return 0 or -1. */
static int slot_write(struct fl *f, size_t i)
{
	const struct pages *p = &f->pg;
	const struct fp_record r = tplfp_record(&p->doc[i], &p->res[i]);
	return fslots_put(&f->slots, p->slot[i], &r, p->res[i].choice);
}

/* Page @i's check record (followtmp.h). */
static int check_write(struct fl *f, size_t i)
{
	const struct pages *p = &f->pg;
	return fcheck_add(&f->check, p->off[i], p->slot[i], p->len[i], p->hash + p->hoff[i],
			  p->nh[i], p->nc[i]);
}

/* Do the pages read back into @f->pg against @set (@was: as in
 * do_pages()); write their slots, and with @keep their check records.
 * @return 0 or -1. */
static int do_loaded(struct fl *f, const struct blockset *set, int keep,
		     const struct tplfp_result *was)
{
	int rc = do_pages(f, set, keep, NULL, was);
	for (size_t i = 0; i < f->pg.n && !rc; i++)
		rc = slot_write(f, i) || (keep && check_write(f, i)) ? -1 : 0;
	return rc;
}

/* Do the @n references at @r against @set, in chunks: do_loaded(); with
 * @redo they were done before (fslots_result()).  @return 0 or -1. */
static int do_refs(struct fl *f, const struct ref *r, size_t n, const struct blockset *set,
		   int keep, int redo)
{
	struct tplfp_result *was = redo ? malloc(CHUNK_PAGES * sizeof *was) : NULL;
	int rc = redo && !was ? -1 : 0;
	for (size_t at = 0; at < n && !rc; at += CHUNK_PAGES) {
		const size_t m = n - at < CHUNK_PAGES ? n - at : CHUNK_PAGES;
		rc = read_back(f, r + at, m);
		for (size_t i = 0; i < m && redo && !rc; i++)
			rc = fslots_result(&f->slots, f->pg.slot[i], &was[i]);
		if (!rc)
			rc = do_loaded(f, set, keep, was);
	}
	free(was);
	return rc;
}

/* ---- learning ---- */

/* Learn host @h from the first pages of its chain (read back into
 * @f->pg, all @n of them): record the template.  @return 0 or -1. */
static int learn_host(struct fl *f, struct hstate *h, size_t n)
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
static long chain_list(struct fl *f, const struct hstate *h, struct ref **v, size_t *cap)
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
	const long n = chain_list(f, h, &v, &cap);
	int rc = n < 0 ? -1 : 0;
	/* a sample is at most 1000 pages (and the batch's pages after it):
	 * learnt from, and done, in one read-back */
	if (!rc)
		rc = read_back(f, v, (size_t)n) || learn_host(f, h, (size_t)n) ||
		     do_loaded(f, &f->now, 1, NULL) ? -1 : 0;
	f->st->at_host += (uint64_t)(n > 0 ? n : 0);
	free(v);
	h->final = 1;
	chain_free(f, h);
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
	if (pages_reserve(p, n) || array_grow((void **)pending, pcap, n, 1)) {
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
			if (check_write(f, i))
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
			rc = classify(f, pending, key) || do_pages(f, &f->now, 1, pending, NULL) ||
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

/* ---- the end ---- */

/* Learn the hosts that never reached `sample` pages. */
static int learn_rest(struct fl *f, struct ref **v, size_t *cap)
{
	for (size_t k = 0; k <= f->hs_mask; k++) {
		struct hstate *h = &f->hs[k];
		if (!h->host || h->final)
			continue;
		const long n = chain_list(f, h, v, cap);
		if (n < 0 || read_back(f, *v, (size_t)n) || learn_host(f, h, (size_t)n))
			return -1;
	}
	return 0;
}

/* Do the pages of the hosts learnt last, against every template. */
static int do_rest(struct fl *f, const struct blockset *all, struct ref **v, size_t *cap)
{
	for (size_t k = 0; k <= f->hs_mask; k++) {
		struct hstate *h = &f->hs[k];
		if (!h->host || h->final)
			continue;
		const long n = chain_list(f, h, v, cap);
		if (n < 0 || do_refs(f, *v, (size_t)n, all, 0, 0))
			return -1;
		f->st->at_end += (uint64_t)n;
		h->final = 1;
		chain_free(f, h);
	}
	return 0;
}

static int by_host(const void *a, const void *b)
{
	const uint64_t x = ((const struct learnt *)a)->host, y = ((const struct learnt *)b)->host;
	return (x > y) - (x < y);
}

/* Every host's template in ascending host order, merged with --previous,
 * as ndd-template writes them, into @held, not yet published (a run that
 * fails after leaves no templates).  @return 0 or -1. */
static int write_templates(struct fl *f, struct outfile *held)
{
	struct tplset prev = {0};
	if (f->o->previous && tplset_load(&prev, f->o->previous))
		return -1;
	qsort(f->lt, f->n_lt, sizeof *f->lt, by_host);
	struct tpl_writer *w = tpl_writer_open(f->o->templates, f->feature_config,
					       f->o->previous ? &prev : NULL, f->o->tp.min_pages);
	int rc = w ? 0 : -1;
	for (size_t i = 0; i < f->n_lt && !rc; i++)
		rc = tpl_writer_host(w, f->lt[i].host, f->lt[i].groups, f->lhash + f->lt[i].at,
				     f->lt[i].n);
	if (!rc) {
		struct tpl_write_stats ws;
		rc = tpl_writer_finish_held(w, &ws, held);
		f->st->learnt = ws.learnt;
		f->st->learnt_blocks = ws.learnt_blocks;
		f->st->previous_hosts = ws.previous_hosts;
	} else {
		tpl_writer_abort(w);
	}
	tplset_free(&prev);
	return rc;
}

/* The low 32 bits of the @n keys @h, as a set. */
static int low_set(const uint64_t *h, size_t n, struct blockset *low)
{
	uint64_t *v = malloc((n ? n : 1) * sizeof *v);
	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		v[i] = (uint32_t)h[i];
	const int rc = blockset_build(low, v, n);
	free(v);
	return rc;
}

struct redo {
	struct ref *v;
	size_t n, cap;
};

static int redo_add(void *ctx, uint64_t off, uint64_t slot, uint32_t len)
{
	struct redo *r = ctx;
	if (array_grow((void **)&r->v, &r->cap, r->n + 1, sizeof *r->v)) {
		log_error("out of memory");
		return -1;
	}
	r->v[r->n++] = (struct ref){off, slot, len, NONE};
	return 0;
}

/* Redo the pages done early that hold a block of a template learnt
 * after them, or whose frame met a core key another host shares.
 * @return 0 or -1. */
static int recheck(struct fl *f, const struct tplset *all)
{
	struct blockset low = {0}, low_core = {0};
	struct redo r = {NULL, 0, 0};
	size_t n, n_core;
	const uint64_t *const keys = tplset_any(all, &n);
	const uint64_t *const shared = tplset_shared_core(all, &n_core);
	int rc = low_set(keys, n, &low) || low_set(shared, n_core, &low_core) ? -1 : 0;
	if (rc)
		log_error("out of memory");
	if (!rc)
		rc = fcheck_scan(&f->check, &low, &low_core, redo_add, &r);
	blockset_free(&low);
	blockset_free(&low_core);
	f->st->redone = r.n;
	if (!rc)
		rc = do_refs(f, r.v, r.n, tplset_any_set(all), 0, 1);
	free(r.v);
	return rc;
}

/* Everything after the last page came.  @return 0 or -1. */
static int finish(struct fl *f, follow_emit_fn emit, void *ctx)
{
	struct ref *v = NULL;
	size_t cap = 0;
	struct tplset all = {0};
	struct outfile held = {0};
	const double c0 = log_cpu();
	int rc = learn_rest(f, &v, &cap) || write_templates(f, &held) ? -1 : 0;
	/* the templates as ndd-fingerprint --templates loads them */
	if (!rc)
		rc = tplset_load(&all, held.tmp_path ? held.tmp_path : held.display);
	const double c1 = log_cpu();
	if (!rc)
		rc = recheck(f, &all);
	const double c2 = log_cpu();
	if (!rc)
		rc = do_rest(f, tplset_any_set(&all), &v, &cap);
	const double c3 = log_cpu();
	if (!rc)
		rc = fslots_emit(&f->slots, emit, ctx);
	log_debug("CPU s: stream %.3f, learn the rest and write %.3f, recheck and redo %.3f, "
		  "the rest %.3f, emit %.3f", c0, c1 - c0, c2 - c1, c3 - c2, log_cpu() - c3);
	if (!rc)
		rc = outfile_commit(&held);
	else if (held.fp)
		outfile_abort(&held);
	tplset_free(&all);
	free(v);
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
	pages_free(&f->pg);
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
		rc = finish(&f, emit, ctx);
	for (size_t k = 0; k < b.max_blk && b.blk; k++)
		ndf_block_free(&b.blk[k]);
	free(b.blk);
	fl_free(&f, in);
	return rc;
}
