/*
 * catalog.c - see catalog.h.
 */
#include "format/catalog.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "util/bytes.h"
#include "util/infile.h"
#include "util/log.h"
#include "format/ndf.h"
#include "format/ndf_deflate.h"

/* Payload bytes per batch by default: a few blocks (a block of
 * fingerprint records is ~1 MB), small enough for both batches to stay in
 * the last-level cache between the read and the decode. */
#define BATCH_BYTES (4u << 20)
#define BATCH_MAX_BLOCKS 256

/* One batch of blocks as read; two of them alternate. */
struct batch {
	struct ndf_block blk[BATCH_MAX_BLOCKS];
	size_t n;
};

struct scan {
	const struct catalog_visitor *v;
	struct catalog_info *info;
	struct batch set[2];
	int stop; /* first non-zero result of a record callback or decoding */
	unsigned layout; /* the record layout of the section being read */
};

static int check_params(struct scan *s, const struct ndf_reader *r)
{
	const struct ndf_header *h = ndf_reader_header(r);
	if (h->kind != NDF_KIND_FPS) {
		log_error("'%s': holds %s, expected fingerprints", ndf_reader_name(r),
			  ndf_kind_name(h->kind));
		return NDF_ERR_PARAMS;
	}
	if (!fprec_layout_readable(h->aux)) {
		log_error("'%s': fingerprints of record layout %llu, this program reads layouts 0, 2 "
			  "and %d: fingerprint them again with this version of ndd-fingerprint",
			  ndf_reader_name(r), (unsigned long long)h->aux, FPREC_VERSION);
		return NDF_ERR_PARAMS;
	}
	s->layout = (unsigned)h->aux;
	if (s->info->n_sections == 0) {
		s->info->feature_config = h->feature_config;
		s->info->simhash_bits = h->simhash_bits;
	} else if (h->feature_config != s->info->feature_config ||
		   h->simhash_bits != s->info->simhash_bits) {
		log_error("'%s': fingerprints made with another configuration "
			  "(feature config %016llx, expected %016llx); they cannot be joined",
			  ndf_reader_name(r), (unsigned long long)h->feature_config,
			  (unsigned long long)s->info->feature_config);
		return NDF_ERR_PARAMS;
	}
	return 0;
}

static void set_stop(struct scan *s, int rc)
{
	int none = 0;
	__atomic_compare_exchange_n(&s->stop, &none, rc, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* The records of block @b, codec 0, at [@p, @end). */
static void visit_records(struct scan *s, const char *name, const struct ndf_block *b,
			  uint64_t first, const uint8_t *p, const uint8_t *end)
{
	for (uint32_t i = 0; i < b->n_records; i++) {
		struct fp_record rec;
		const int skip = s->v->want && !s->v->want(s->v->ctx, first + i);
		if (skip ? fprec_skip_layout(&p, end, s->layout)
			 : fprec_decode_layout(&p, end, &rec, s->layout)) {
			log_error("'%s': offset %llu: malformed fingerprint record %u of the block",
				  name, (unsigned long long)b->offset, i);
			set_stop(s, NDF_ERR_FORMAT);
			return;
		}
		if (skip)
			continue;
		int rc = s->v->record(s->v->ctx, first + i, &rec);
		if (rc) {
			set_stop(s, rc);
			return;
		}
	}
	if (p != end) {
		log_error("'%s': offset %llu: block has bytes after its last record", name,
			  (unsigned long long)b->offset);
		set_stop(s, NDF_ERR_FORMAT);
	}
}

/* Decode one block; @first is the document index of its first record. */
static void visit_block(struct scan *s, const char *name, const struct ndf_block *b,
			uint64_t first)
{
	struct ndf_unpacked u = {NULL, 0, NULL};
	const uint8_t *p;
	size_t n;
	int bad = ndf_block_check(b, name);
	if (!bad)
		bad = ndf_block_payload(b, name, &u, &p, &n);
	if (bad)
		set_stop(s, bad);
	else
		visit_records(s, name, b, first, p, p + n);
	ndf_unpacked_free(&u);
}

/* Read the next blocks of @r into @bt, up to the batch size; @return 1 if
 * the section goes on, 0 at its end (verified), or a negative ndf_err. */
static int read_batch(struct scan *s, struct ndf_reader *r, struct batch *bt)
{
	size_t want = BATCH_BYTES;
	if (s->v->batch_bytes && s->v->batch_bytes < want)
		want = s->v->batch_bytes;
	size_t bytes = 0;
	int rc = 1;
	for (bt->n = 0; bt->n < BATCH_MAX_BLOCKS && bytes < want; bt->n++) {
		struct ndf_block *b = &bt->blk[bt->n];
		rc = ndf_read_block_unchecked(r, b);
		if (rc <= 0)
			break;
		/* The record count is used (to size arrays) before the block's
		 * checksum is tested: a count its bytes cannot hold is refused
		 * here, as damage if the checksum says so. */
		const size_t raw = ndf_block_raw_len(b);
		if (b->n_records > raw / fprec_min_size(s->layout)) {
			int bad = ndf_block_check(b, ndf_reader_name(r));
			if (!bad)
				log_error("'%s': offset %llu: block of %zu bytes claims %u records",
					  ndf_reader_name(r), (unsigned long long)b->offset,
					  raw, b->n_records);
			return bad ? bad : NDF_ERR_FORMAT;
		}
		bytes += b->len;
	}
	return rc;
}

/*
 * One section: batch i is read while the tasks decoding batch i - 1 run;
 * the taskwait before batch i's own tasks makes every record before it
 * visited (the batch callback's promise) and frees the other buffer set.
 */
static int scan_section(struct scan *s, struct ndf_reader *r)
{
	const char *name = ndf_reader_name(r);
	int rc = 0;
#pragma omp parallel
#pragma omp single
	{
		for (int h = 0, more = 1; more && !rc; h ^= 1) {
			struct batch *bt = &s->set[h];
			int got = read_batch(s, r, bt);
			more = got > 0;
#pragma omp taskwait
			if (bt->n) /* the blocks before this batch are decoded */
				ndf_reader_release(r, bt->blk[0].offset);
			if (got < 0)
				rc = got;
			else if (__atomic_load_n(&s->stop, __ATOMIC_RELAXED))
				rc = s->stop;
			uint64_t n = 0;
			for (size_t b = 0; b < bt->n; b++)
				n += bt->blk[b].n_records;
			if (!rc && n && s->v->batch)
				rc = s->v->batch(s->v->ctx, s->info->n_records, n);
			for (size_t b = 0; !rc && b < bt->n; b++) {
				const struct ndf_block *blk = &bt->blk[b];
				const uint64_t first = s->info->n_records;
#pragma omp task firstprivate(blk, first)
				visit_block(s, name, blk, first);
				s->info->n_records += blk->n_records;
			}
		}
#pragma omp taskwait
	}
	return rc ? rc : s->stop;
}

uint64_t catalog_dataset_next(uint64_t id, const struct ndf_header *h)
{
	uint8_t buf[20];
	put_le64(buf, id);
	put_le64(buf + 8, h->record_count);
	put_le32(buf + 16, h->payload_crc);
	return XXH3_64bits(buf, sizeof buf);
}

static int scan_file(struct scan *s, FILE *fp, const char *name)
{
	for (int sections = 0;; sections++) {
		int err, rc;
		struct ndf_reader *r = ndf_reader_open(fp, name, &err);
		if (!r) {
			if (!err && sections == 0) {
				log_error("'%s': empty input, no fingerprints", name);
				return NDF_ERR_TRUNCATED;
			}
			return err;
		}
		rc = check_params(s, r);
		if (!rc) {
			(void)ndf_reader_map(r); /* or read through the FILE */
			rc = scan_section(s, r);
		}
		if (!rc) {
			s->info->dataset_id =
				catalog_dataset_next(s->info->dataset_id, ndf_reader_header(r));
			s->info->n_sections++;
		}
		ndf_reader_close(r);
		if (rc)
			return rc;
	}
}

int catalog_scan(const char *const *paths, int n, const struct catalog_visitor *v,
		 struct catalog_info *info)
{
	struct scan *s = calloc(1, sizeof *s);
	if (!s) {
		log_error("out of memory for the catalog's read batches (%zu bytes)", sizeof *s);
		return NDF_ERR_NOMEM;
	}
	int rc = 0;
	s->v = v;
	s->info = info;
	memset(info, 0, sizeof *info);
	for (int i = 0; i < n && !rc; i++) {
		const char *name = strcmp(paths[i], "-") ? paths[i] : "(standard input)";
		FILE *fp = infile_open(paths[i]);
		if (!fp) {
			rc = NDF_ERR_IO;
			break;
		}
		rc = scan_file(s, fp, name);
		infile_close(fp);
	}
	for (int h = 0; h < 2; h++)
		for (size_t b = 0; b < BATCH_MAX_BLOCKS; b++)
			ndf_block_free(&s->set[h].blk[b]);
	free(s);
	return rc;
}

struct fp_array {
	uint64_t *v;
	size_t cap;
};

static int grow_simhashes(void *ctx, uint64_t first, uint64_t n)
{
	struct fp_array *a = ctx;
	if (first + n <= a->cap)
		return 0;
	size_t cap = a->cap ? 2 * a->cap : 4096;
	while (cap < first + n)
		cap *= 2;
	uint64_t *v = realloc(a->v, cap * sizeof *v);
	if (!v) {
		log_error("out of memory for %zu fingerprints", cap);
		return NDF_ERR_NOMEM;
	}
	a->v = v;
	a->cap = cap;
	return 0;
}

static int take_simhash(void *ctx, uint64_t idx, const struct fp_record *r)
{
	((struct fp_array *)ctx)->v[idx] = r->simhash;
	return 0;
}

int catalog_simhashes(const char *const *paths, int n, uint64_t **out, size_t *count,
		      struct catalog_info *info)
{
	struct fp_array a = {0};
	const struct catalog_visitor v = {.batch = grow_simhashes, .record = take_simhash, .ctx = &a};
	int rc = catalog_scan(paths, n, &v, info);
	if (rc) {
		free(a.v);
		a.v = NULL;
	}
	*out = a.v;
	*count = rc ? 0 : info->n_records;
	return rc;
}
