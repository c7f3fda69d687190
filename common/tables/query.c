/*
 * query.c - see query.h.
 */
#include "tables/query.h"

#include <stdlib.h>
#include <string.h>

#include "tables/codec.h"
#include "tables/keysort.h"
#include "tables/tablefile.h"
#include "util/log.h"

size_t query_find_block(const struct ndf_index_entry *ix, size_t lo, size_t hi, uint64_t key)
{
	/* Invariant: entries before l are below key; entries from h on are not. */
	size_t l = lo, h = hi;
	while (h - l > 8) {
		const uint64_t a = ix[l].first_key, b = ix[h - 1].first_key;
		size_t g;
		if (key <= a)
			return l - 1;
		if (key > b)
			return h - 1;
		g = l + (size_t)((unsigned __int128)(key - a) * (h - 1 - l) / (b - a));
		if (g <= l)
			g = l + 1;
		if (g >= h - 1)
			g = h - 2;
		if (ix[g].first_key < key)
			l = g + 1; /* g is below: the answer is g or later */
		else
			h = g;
		/* Fall back to halving when the guess made little progress. */
		size_t mid = l + (h - l) / 2;
		if (h - l > 8 && ix[mid].first_key < key)
			l = mid + 1;
		else if (h - l > 8)
			h = mid;
	}
	while (l < h && ix[l].first_key < key)
		l++;
	return l - 1;
}

struct qctx {
	struct ndf_section *sec;
	const struct ndf_index_entry *ix;
	uint64_t nb;
	struct codec code;
	unsigned idx_bits;
	struct ndf_block blk;
	uint64_t *keys;
	uint32_t *idx;
	size_t cap;
	uint64_t cached;   /* block decoded in keys/idx, or UINT64_MAX */
	size_t n_cached;
};

static int load_code(struct qctx *c)
{
	int err = ndf_section_read_block(c->sec, 0, &c->blk);
	if (!err && (c->blk.codec != NDF_CODEC_CODE || codec_parse(&c->code, c->blk.data, c->blk.len))) {
		log_error("compressed table %u has no valid code block",
			  ndf_section_header(c->sec)->table_index);
		err = NDF_ERR_FORMAT;
	}
	return err;
}

static int decode(struct qctx *c, uint64_t b)
{
	if (c->cached == b)
		return 0;
	int err = ndf_section_read_block(c->sec, b, &c->blk);
	if (err)
		return err;
	size_t n = c->blk.n_records;
	if (n > c->cap) {
		uint64_t *k = realloc(c->keys, n * sizeof *k);
		if (k)
			c->keys = k;
		uint32_t *i = realloc(c->idx, n * sizeof *i);
		if (i)
			c->idx = i;
		if (!k || !i)
			return NDF_ERR_NOMEM;
		c->cap = n;
	}
	if (c->blk.codec != NDF_CODEC_PREFIX ||
	    codec_decode_block(&c->code, c->blk.data, c->blk.len, n, c->idx_bits, c->keys, c->idx)) {
		log_error("table block %llu does not decode", (unsigned long long)b);
		return NDF_ERR_FORMAT;
	}
	c->cached = b;
	c->n_cached = n;
	return 0;
}

static inline uint64_t lead_of(uint64_t key, uint32_t lead)
{
	return lead ? key >> (64 - lead) : 0;
}

/* Compare the queries [qi, qj) (one run, leading bits L) with the stored
 * records of the blocks that can hold L. */
static int query_run(struct qctx *c, const struct design *d, uint32_t t, const uint64_t *qk,
		     const uint32_t *qx, size_t n, struct pair_vec *out, struct query_stats *st)
{
	const uint32_t lead = d->tables[t].lead_bits;
	const uint64_t L = lead_of(qk[0], lead);
	const uint64_t lo = lead ? L << (64 - lead) : 0;
	size_t start = query_find_block(c->ix, 1, c->nb, lo);
	if (start < 1)
		start = 1;
	for (size_t b = start; b < c->nb; b++) {
		if (b > start && lead_of(c->ix[b].first_key, lead) > L)
			break;
		int err = decode(c, b);
		if (err)
			return err;
		st->blocks_read++;
		for (size_t r = 0; r < c->n_cached; r++) {
			if (lead_of(c->keys[r], lead) != L)
				continue;
			for (size_t q = 0; q < n; q++) {
				const uint64_t x = qk[q] ^ c->keys[r];
				const uint32_t dist = (uint32_t)__builtin_popcountll(x);
				st->comparisons++;
				if (dist <= d->k &&
				    (t == 0 || design_first_table(d, t, design_unpermute(&d->tables[t], x))) &&
				    pair_vec_push(out, qx[q], c->idx[r], dist))
					return NDF_ERR_NOMEM;
			}
		}
		if (c->n_cached && lead_of(c->keys[c->n_cached - 1], lead) > L)
			break;
	}
	return 0;
}

int query_table(struct ndf_section *sec, const struct design *d, uint32_t t,
		const uint64_t *qkeys, const uint32_t *qidx, size_t nq, struct pair_vec *out,
		struct query_stats *st)
{
	struct qctx c;
	memset(&c, 0, sizeof c);
	c.sec = sec;
	c.ix = ndf_section_index(sec, &c.nb);
	c.idx_bits = ndf_section_header(sec)->codec_param;
	c.cached = UINT64_MAX;
	int err = c.nb ? load_code(&c) : 0;
	const uint32_t lead = d->tables[t].lead_bits;
	for (size_t i = 0; !err && i < nq && c.nb > 1;) {
		size_t j = i + 1;
		while (j < nq && lead_of(qkeys[j], lead) == lead_of(qkeys[i], lead))
			j++;
		err = query_run(&c, d, t, qkeys + i, qidx + i, j - i, out, st);
		i = j;
	}
	ndf_block_free(&c.blk);
	free(c.keys);
	free(c.idx);
	return err;
}

/* The queries @q permuted for table @t and sorted, then looked up in @sec. */
static int query_one(struct ndf_section *sec, const struct design *d, uint32_t t,
		     const uint64_t *q, size_t n, struct pair_vec *out, struct query_stats *st)
{
	struct table_rec *rec = malloc((n + 1) * sizeof *rec), *tmp = malloc((n + 1) * sizeof *tmp);
	uint64_t *keys = malloc((n + 1) * sizeof *keys);
	uint32_t *idx = malloc((n + 1) * sizeof *idx);
	int rc = -1;
	if (!rec || !tmp || !keys || !idx) {
		log_error("out of memory for %zu queries", n);
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		rec[i].key = design_permute(&d->tables[t], q[i]);
		rec[i].idx = i;
	}
	keysort(rec, tmp, n);
	for (size_t i = 0; i < n; i++) {
		keys[i] = rec[i].key;
		idx[i] = (uint32_t)rec[i].idx;
	}
	rc = query_table(sec, d, t, keys, idx, n, out, st) ? -1 : 0;
done:
	free(rec);
	free(tmp);
	free(keys);
	free(idx);
	return rc;
}

static int query_check(const struct ndf_header *h, const char *name, uint32_t t,
		       uint64_t feature_config, struct ndf_header *first, struct design *d)
{
	if (h->kind != NDF_KIND_CTABLE) {
		log_error("'%s': holds %s, expected compressed tables", name, ndf_kind_name(h->kind));
		return -1;
	}
	if (t == 0) {
		*first = *h;
		if (tablefile_design(h, name, d))
			return -1;
		if (h->feature_config != feature_config) {
			log_error("'%s': tables of fingerprints made with another configuration "
				  "(%016llx) than the queries (%016llx); they cannot be compared",
				  name, (unsigned long long)h->feature_config,
				  (unsigned long long)feature_config);
			return -1;
		}
	}
	return tablefile_check(h, name, first, t) ? -1 : 0;
}

int query_file(const char *path, const uint64_t *q, size_t n, uint64_t feature_config,
	       struct pair_vec *out, struct query_stats *st, struct ndf_header *first,
	       struct design *d)
{
	FILE *fp = fopen(path, "rb");
	uint64_t off = 0;
	int rc = 0;
	if (!fp) {
		log_error("cannot open '%s': %m", path);
		return -1;
	}
	if (n >= UINT32_MAX) {
		log_error("too many queries for one run (%zu)", n);
		fclose(fp);
		return -1;
	}
	memset(first, 0, sizeof *first);
	for (uint32_t t = 0; !rc && (t == 0 || t < first->n_tables); t++) {
		struct ndf_section *sec;
		rc = ndf_section_open(fp, path, off, &sec) ? -1 : 0;
		if (!rc)
			rc = query_check(ndf_section_header(sec), path, t, feature_config, first, d);
		if (!rc)
			rc = query_one(sec, d, t, q, n, out, st);
		if (!rc)
			off = ndf_section_end(sec);
		ndf_section_close(sec);
	}
	fclose(fp);
	return rc;
}
