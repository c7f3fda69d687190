/*
 * follow_pages.c - learning while fingerprinting (follow.h): pages read
 * back from the copy of the documents, and pages done against a set of
 * templates, their slots and check records written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "template/follow.h"
#include "template/follow_state.h"
#include "util/grow.h"
#include "util/log.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#define WAIT_LIMIT 60000 /* ms a copy may lag behind the input */

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

int fl_pages_reserve(struct pages *p, size_t n)
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

void fl_pages_free(struct pages *p)
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
int fl_read_back(struct fl *f, const struct ref *r, size_t n)
{
	struct pages *p = &f->pg;
	size_t bytes = 0;
	for (size_t i = 0; i < n; i++)
		bytes += r[i].len;
	if (fl_pages_reserve(p, n) || array_grow((void **)&p->buf, &p->buf_cap, bytes, 1)) {
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
int fl_do_pages(struct fl *f, const struct blockset *set, int keep, const uint8_t *skip,
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
int fl_check_write(struct fl *f, size_t i)
{
	const struct pages *p = &f->pg;
	return fcheck_add(&f->check, p->off[i], p->slot[i], p->len[i], p->hash + p->hoff[i],
			  p->nh[i], p->nc[i]);
}

/* Do the pages read back into @f->pg against @set (@was: as in
 * fl_do_pages()); write their slots, and with @keep their check records.
 * @return 0 or -1. */
int fl_do_loaded(struct fl *f, const struct blockset *set, int keep,
		 const struct tplfp_result *was)
{
	int rc = fl_do_pages(f, set, keep, NULL, was);
	for (size_t i = 0; i < f->pg.n && !rc; i++)
		rc = slot_write(f, i) || (keep && fl_check_write(f, i)) ? -1 : 0;
	return rc;
}

/* Do the @n references at @r against @set, in chunks: fl_do_loaded(); with
 * @redo they were done before (fslots_result()).  @return 0 or -1. */
int fl_do_refs(struct fl *f, const struct ref *r, size_t n, const struct blockset *set,
	       int keep, int redo)
{
	struct tplfp_result *was = redo ? malloc(CHUNK_PAGES * sizeof *was) : NULL;
	int rc = redo && !was ? -1 : 0;
	for (size_t at = 0; at < n && !rc; at += CHUNK_PAGES) {
		const size_t m = n - at < CHUNK_PAGES ? n - at : CHUNK_PAGES;
		rc = fl_read_back(f, r + at, m);
		for (size_t i = 0; i < m && redo && !rc; i++)
			rc = fslots_result(&f->slots, f->pg.slot[i], &was[i]);
		if (!rc)
			rc = fl_do_loaded(f, set, keep, was);
	}
	free(was);
	return rc;
}
