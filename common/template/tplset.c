/*
 * tplset.c - see tplset.h.
 */
#include "template/tplset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/ndf.h"
#include "format/tplrec.h"
#include "template/learn.h"
#include "util/grow.h"
#include "util/sorted64.h"
#include "util/log.h"

/* The records of one block.  @return 0, or -1 (logged). */
static int load_block(struct tplset *s, const struct ndf_block *b, const char *path,
		      size_t cap[5])
{
	const uint8_t *p = b->data, *const end = b->data + b->len;
	for (uint32_t i = 0; i < b->n_records; i++) {
		struct tpl_record r;
		if (tplrec_decode(&p, end, &r)) {
			log_error("%s: block at offset %llu: record %u is malformed", path,
				  (unsigned long long)b->offset, i);
			return -1;
		}
		if (s->n_hosts && r.host <= s->host[s->n_hosts - 1]) {
			log_error("%s: block at offset %llu: hosts out of order", path,
				  (unsigned long long)b->offset);
			return -1;
		}
		if (array_grow((void **)&s->host, &cap[0], s->n_hosts + 1, sizeof *s->host) ||
		    array_grow((void **)&s->start, &cap[1], s->n_hosts + 2, sizeof *s->start) ||
		    array_grow((void **)&s->pages, &cap[3], s->n_hosts + 1, sizeof *s->pages) ||
		    array_grow((void **)&s->age, &cap[4], s->n_hosts + 1, sizeof *s->age) ||
		    array_grow((void **)&s->hash, &cap[2], s->n_hash + r.n, sizeof *s->hash)) {
			log_error("%s: out of memory", path);
			return -1;
		}
		s->host[s->n_hosts] = r.host;
		s->pages[s->n_hosts] = r.pages;
		s->age[s->n_hosts] = r.age;
		s->start[s->n_hosts] = s->n_hash;
		for (uint32_t k = 0; k < r.n; k++)
			s->hash[s->n_hash++] = tplrec_hash(&r, k);
		s->n_hosts++;
		s->start[s->n_hosts] = s->n_hash;
	}
	if (p != end) {
		log_error("%s: block at offset %llu: bytes after the last record", path,
			  (unsigned long long)b->offset);
		return -1;
	}
	return 0;
}

/*
 * Of the @n distinct keys @any (ascending; @times[i] hosts hold key i),
 * the core keys whose block two hosts or more hold (learn.h,
 * tpl_core_key()) go out of @any: a frame keeps to the chrome one host
 * alone holds.  @return the keys left in @any, or (size_t)-1 if memory
 * ran out.
 */
static size_t drop_shared_core(uint64_t *any, const uint32_t *times, size_t n)
{
	uint64_t *shared = NULL;
	size_t n_shared = 0, cap = 0;
	for (size_t i = 0; i < n; i++) {
		const uint64_t h = tpl_core_hash(any[i]);
		const size_t at = u64_find(any, n, h);
		if (at == n) /* not a core key */
			continue;
		const size_t q = u64_find(any, n, tpl_quoted_key(h));
		if (times[at] + (q < n ? times[q] : 0) < 2)
			continue;
		if (array_grow((void **)&shared, &cap, n_shared + 1, sizeof *shared)) {
			free(shared);
			return (size_t)-1;
		}
		shared[n_shared++] = any[i];
	}
	size_t u = 0, d = 0;
	for (size_t i = 0; i < n; i++) {
		if (d < n_shared && any[i] == shared[d])
			d++;
		else
			any[u++] = any[i];
	}
	free(shared);
	return u;
}

/* s->any and s->any_set from s->hash.  @return 0 or -1 (out of memory). */
static int build_any(struct tplset *s)
{
	uint32_t *times = calloc(s->n_hash, sizeof *times);
	s->any = malloc(s->n_hash * sizeof *s->any);
	int rc = times && s->any ? 0 : -1;
	if (!rc) {
		memcpy(s->any, s->hash, s->n_hash * sizeof *s->any);
		qsort(s->any, s->n_hash, sizeof *s->any, u64_cmp);
		for (size_t i = 0; i < s->n_hash; i++) {
			if (!s->n_any || s->any[i] != s->any[s->n_any - 1])
				s->any[s->n_any++] = s->any[i];
			times[s->n_any - 1]++;
		}
		const size_t left = drop_shared_core(s->any, times, s->n_any);
		rc = left == (size_t)-1 ? -1 : 0;
		if (!rc)
			s->n_any = left;
	}
	free(times);
	if (!rc)
		rc = blockset_build(&s->any_set, s->any, s->n_any);
	return rc;
}

const uint64_t *tplset_any(const struct tplset *s, size_t *n)
{
	*n = s->n_any;
	return s->any;
}

int tplset_load(struct tplset *s, const char *path)
{
	memset(s, 0, sizeof *s);
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		log_error("cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	size_t cap[5] = {0, 0, 0, 0, 0}; /* of host, start, hash, pages, age */
	struct ndf_block b = {0};
	int rc = 0, err;
	struct ndf_reader *r;
	while (!rc && (r = ndf_reader_open(fp, path, &err))) {
		rc = tplrec_check_header(ndf_reader_header(r), path);
		int got;
		while (!rc && (got = ndf_read_raw_block(r, &b)) != 0) {
			if (got < 0) {
				rc = -1;
				break;
			}
			rc = load_block(s, &b, path, cap);
		}
		ndf_reader_close(r);
	}
	if (!rc && err < 0)
		rc = -1;
	ndf_block_free(&b);
	fclose(fp);
	if (!rc && s->n_hash && build_any(s)) {
		log_error("%s: out of memory", path);
		rc = -1;
	}
	if (rc)
		tplset_free(s);
	return rc;
}

void tplset_free(struct tplset *s)
{
	free(s->host);
	free(s->start);
	free(s->hash);
	free(s->pages);
	free(s->age);
	free(s->any);
	blockset_free(&s->any_set);
	memset(s, 0, sizeof *s);
}

const struct blockset *tplset_any_set(const struct tplset *s)
{
	return &s->any_set;
}

const uint64_t *tplset_find(const struct tplset *s, uint64_t host, size_t *n)
{
	size_t lo = 0, hi = s->n_hosts;
	*n = 0;
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		if (s->host[mid] < host)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->n_hosts || s->host[lo] != host)
		return NULL;
	*n = s->start[lo + 1] - s->start[lo];
	return s->hash + s->start[lo];
}
