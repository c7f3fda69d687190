/*
 * follow_pages.c - learning while fingerprinting (follow.h): pages read
 * back from the copy of the documents, their learning records made, and
 * pages done against the templates.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "template/follow.h"
#include "template/follow_state.h"
#include "template/hostlearn.h"
#include "util/grow.h"
#include "util/log.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* Pages this close are read in one pread (the gap read and dropped):
 * pages in input order are apart by a block header at most. */
#define RUN_GAP 4096

/* ---- reading pages back ---- */

/* Open the copy (--docs): only at the end, when the input has ended and
 * so has the copy: tee writes each piece to its files before it reads
 * the next, and the pipe ends when tee does.  @return 0 or -1. */
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
				  r < 0 ? strerror(errno) : "they end early: not a copy of the input?");
			return -1;
		}
		buf += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

static int pages_reserve(struct pages *p, size_t n)
{
	if (n <= p->cap)
		return 0;
	/* the arrays grow together: array_grow() gives each the same capacity */
	size_t c = p->cap;
	if (array_grow((void **)&p->doc, &c, n, sizeof *p->doc))
		return -1;
	c = p->cap;
	if (array_grow((void **)&p->res, &c, n, sizeof *p->res))
		return -1;
	c = p->cap;
	if (array_grow((void **)&p->at, &c, n, sizeof *p->at))
		return -1;
	p->cap = c;
	return 0;
}

void fl_pages_free(struct pages *p)
{
	free(p->doc);
	free(p->res);
	free(p->at);
	free(p->buf);
}

/* The end of the run of pages close together from @r[0]: its count. */
static size_t run_end(const struct ref *r, size_t n)
{
	size_t j = 1;
	while (j < n && r[j].off >= r[j - 1].off + r[j - 1].len &&
	       r[j].off - (r[j - 1].off + r[j - 1].len) <= RUN_GAP)
		j++;
	return j;
}

int fl_read_back(struct fl *f, const struct ref *r, size_t n)
{
	struct pages *p = &f->pg;
	size_t bytes = 0;
	for (size_t i = 0; i < n;) {
		const size_t j = i + run_end(r + i, n - i);
		bytes += (size_t)(r[j - 1].off + r[j - 1].len - r[i].off);
		i = j;
	}
	if (pages_reserve(p, n) || array_grow((void **)&p->buf, &p->buf_cap, bytes, 1)) {
		log_error("out of memory");
		return -1;
	}
	if (f->o->docs && open_copy(f))
		return -1;
	size_t at = 0;
	for (size_t i = 0; i < n;) {
		const size_t j = i + run_end(r + i, n - i);
		const uint64_t start = r[i].off;
		const size_t span = (size_t)(r[j - 1].off + r[j - 1].len - start);
		if (pread_all(f->docs_fd, p->buf + at, span, start))
			return -1;
		for (; i < j; i++) {
			const uint8_t *q = p->buf + at + (r[i].off - start), *const end = q + r[i].len;
			if (docrec_decode(&q, end, &p->doc[i]) || q != end ||
			    tpl_sample_key(&p->doc[i]) != r[i].key) {
				log_error("the page read back at byte %llu is not the one read: not a "
					  "copy of the input?", (unsigned long long)r[i].off);
				return -1;
			}
		}
		at += span;
	}
	p->n = n;
	return 0;
}

/* ---- learning records and pages done, in parallel ---- */

static int thread_id(void)
{
#ifdef _OPENMP
	return omp_get_thread_num();
#else
	return 0;
#endif
}

int fl_page_records(struct fl *f, const uint64_t *host, uint8_t **rec, size_t *len,
		    size_t *cap)
{
	struct pages *p = &f->pg;
	const long n = (long)p->n;
	size_t end = *len;
	for (long i = 0; i < n; i++) {
		p->at[i] = end;
		const uint32_t nb = p->doc[i].n_blocks;
		end += tpl_page_size(nb < TPL_MAX_PAGE_BLOCKS ? nb : TPL_MAX_PAGE_BLOCKS);
	}
	if (array_grow((void **)rec, cap, end, 1)) {
		log_error("out of memory");
		return -1;
	}
	uint8_t *const buf = *rec;
	int failed = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 8) num_threads(f->o->threads) \
	if (f->o->threads > 1) reduction(| : failed)
#endif
	for (long i = 0; i < n; i++) {
		if (failed)
			continue;
		struct tplfp_worker *w = &f->w[thread_id()];
		struct tpl_page_head *h = (struct tpl_page_head *)(buf + p->at[i]);
		uint64_t sig;
		const long nb = tpl_page_blocks(&p->doc[i], &w->text.blk, &w->text.blk_cap, &sig,
						(uint64_t *)(h + 1));
		if (nb < 0)
			failed = 1;
		else
			*h = (struct tpl_page_head){host[i], tpl_sample_key(&p->doc[i]), sig,
						    (uint64_t)nb};
	}
	if (failed) {
		log_error("out of memory for the blocks of a page");
		return -1;
	}
	*len = end;
	return 0;
}

int fl_do_pages(struct fl *f, const struct blockset *set)
{
	struct pages *p = &f->pg;
	const long n = (long)p->n;
	int failed = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 8) num_threads(f->o->threads) \
	if (f->o->threads > 1) reduction(| : failed)
#endif
	for (long i = 0; i < n; i++)
		if (!failed && tplfp_page(&p->doc[i], set, &f->w[thread_id()], &p->res[i]))
			failed = 1;
	if (failed)
		log_error("out of memory fingerprinting a page");
	return failed ? -1 : 0;
}
