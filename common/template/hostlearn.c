/*
 * hostlearn.c - see hostlearn.h.
 */
#include "template/hostlearn.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "template/pagesig.h"
#include "util/grow.h"
#include "util/log.h"

uint64_t tpl_sample_key(const struct doc_record *d)
{
	return XXH3_64bits(d->url.p, d->url.n);
}

long tpl_page_blocks(const struct doc_record *d, struct doc_block **blk, size_t *cap,
		     uint64_t *sig, uint64_t *body)
{
	if (array_grow((void **)blk, cap, d->n_blocks, sizeof **blk))
		return -1;
	docrec_blocks(d, *blk);
	*sig = page_signature(*blk, d->n_blocks);
	const uint32_t nb = d->n_blocks < TPL_MAX_PAGE_BLOCKS ? d->n_blocks : TPL_MAX_PAGE_BLOCKS;
	uint64_t *const ptr = body + nb, *const con = ptr + tpl_page_bitmap(nb);
	memset(ptr, 0, 2 * tpl_page_bitmap(nb) * 8);
	for (uint32_t k = 0; k < nb; k++) {
		const unsigned f = (*blk)[k].flags;
		body[k] = (*blk)[k].hash;
		ptr[k / 64] |= (uint64_t)!!(f & DB_POINTER) << (k % 64);
		con[k / 64] |= (uint64_t)!!(f & DB_CONTENT) << (k % 64);
	}
	return nb;
}

static struct tpl_page tpl_page_of(const struct tpl_page_head *h)
{
	const uint64_t *const body = (const uint64_t *)(h + 1);
	const uint64_t *const ptr = body + h->n;
	return (struct tpl_page){h->sig, (uint32_t)h->n, body, ptr, ptr + tpl_page_bitmap(h->n)};
}

/* Host, key, then signature and blocks: two records of one URL (a page
 * fetched twice) still come in one order, whatever the input's. */
static int by_host_key(const void *a, const void *b)
{
	const struct tpl_page_head *x = *(const struct tpl_page_head *const *)a;
	const struct tpl_page_head *y = *(const struct tpl_page_head *const *)b;
	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	if (x->sig != y->sig)
		return x->sig < y->sig ? -1 : 1;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return memcmp(x + 1, y + 1, tpl_page_words(x->n) * 8);
}

int tpl_learn_pages(struct tpl_learner *l, const uint8_t *buf, size_t len, uint32_t sample,
		    const struct tpl_params *p, tpl_host_fn fn, void *ctx,
		    struct tpl_learn_counts *count)
{
	size_t n = 0, cap = 1024;
	const struct tpl_page_head **v = malloc(cap * sizeof *v);
	struct tpl_page *pages = malloc((size_t)sample * sizeof *pages);
	int rc = v && pages ? 0 : -1;
	for (size_t at = 0; !rc && at < len; n++) {
		if (n == cap) {
			const struct tpl_page_head **g = realloc(v, (cap *= 2) * sizeof *v);
			if (!g) {
				rc = -1;
				break;
			}
			v = g;
		}
		v[n] = (const struct tpl_page_head *)(buf + at);
		at += tpl_page_size(v[n]->n);
	}
	if (rc) {
		log_error("out of memory learning the templates");
		free(v);
		free(pages);
		return -1;
	}
	qsort(v, n, sizeof *v, by_host_key);
	for (size_t i = 0; i < n && !rc;) {
		size_t j = i;
		while (j < n && v[j]->host == v[i]->host)
			j++;
		const size_t m = j - i < sample ? j - i : sample;
		for (size_t k = 0; k < m; k++) {
			pages[k] = tpl_page_of(v[i + k]);
			if (count)
				count->capped += v[i + k]->n == TPL_MAX_PAGE_BLOCKS;
		}
		const uint64_t *h;
		size_t nh;
		uint32_t groups;
		rc = tpl_learn(l, pages, m, p, &h, &nh, &groups);
		if (rc)
			log_error("out of memory learning a template");
		else
			rc = fn(ctx, v[i]->host, groups, h, nh);
		if (count) {
			count->hosts++;
			count->pages += m;
		}
		i = j;
	}
	free(v);
	free(pages);
	return rc;
}
