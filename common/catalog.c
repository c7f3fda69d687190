/*
 * catalog.c - see catalog.h.
 */
#include "catalog.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "bytes.h"
#include "cli.h"
#include "log.h"
#include "ndf.h"

struct scan {
	catalog_fn fn;
	void *ctx;
	struct catalog_info *info;
	struct ndf_block blk;
};

static int check_params(struct scan *s, const struct ndf_reader *r)
{
	const struct ndf_header *h = ndf_reader_header(r);
	if (h->kind != NDF_KIND_FPS) {
		log_error("'%s': holds %s, expected fingerprints", ndf_reader_name(r),
			  ndf_kind_name(h->kind));
		return NDF_ERR_PARAMS;
	}
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

static int scan_block(struct scan *s, const struct ndf_reader *r)
{
	const uint8_t *p = s->blk.data, *end = p + s->blk.len;
	if (s->blk.codec != NDF_CODEC_RAW) {
		log_error("'%s': offset %llu: unknown codec %u for fingerprints",
			  ndf_reader_name(r), (unsigned long long)s->blk.offset, s->blk.codec);
		return NDF_ERR_FORMAT;
	}
	for (uint32_t i = 0; i < s->blk.n_records; i++) {
		struct fp_record rec;
		if (fprec_decode(&p, end, &rec)) {
			log_error("'%s': offset %llu: malformed fingerprint record %u of the block",
				  ndf_reader_name(r), (unsigned long long)s->blk.offset, i);
			return NDF_ERR_FORMAT;
		}
		int rc = s->fn(s->ctx, s->info->n_records++, &rec);
		if (rc)
			return rc;
	}
	if (p != end) {
		log_error("'%s': offset %llu: block has bytes after its last record",
			  ndf_reader_name(r), (unsigned long long)s->blk.offset);
		return NDF_ERR_FORMAT;
	}
	return 0;
}

static void mix_dataset(struct catalog_info *info, const struct ndf_header *h)
{
	uint8_t buf[20];
	put_le64(buf, info->dataset_id);
	put_le64(buf + 8, h->record_count);
	put_le32(buf + 16, h->payload_crc);
	info->dataset_id = XXH3_64bits(buf, sizeof buf);
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
		while (!rc && (rc = ndf_read_block(r, &s->blk)) > 0)
			rc = scan_block(s, r);
		if (!rc) {
			mix_dataset(s->info, ndf_reader_header(r));
			s->info->n_sections++;
		}
		ndf_reader_close(r);
		if (rc)
			return rc;
	}
}

int catalog_scan(const char *const *paths, int n, catalog_fn fn, void *ctx,
		 struct catalog_info *info)
{
	struct scan s = {fn, ctx, info, {0}};
	int rc = 0;
	memset(info, 0, sizeof *info);
	for (int i = 0; i < n && !rc; i++) {
		const char *name = strcmp(paths[i], "-") ? paths[i] : "(standard input)";
		FILE *fp = cli_open_input(paths[i]);
		if (!fp) {
			rc = NDF_ERR_IO;
			break;
		}
		rc = scan_file(&s, fp, name);
		cli_close_input(fp);
	}
	ndf_block_free(&s.blk);
	return rc;
}

struct fp_array {
	uint64_t *v;
	size_t n, cap;
};

static int take_simhash(void *ctx, uint64_t idx, const struct fp_record *r)
{
	struct fp_array *a = ctx;
	(void)idx;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 4096;
		uint64_t *v = realloc(a->v, cap * sizeof *v);
		if (!v) {
			log_error("out of memory for %zu fingerprints", cap);
			return NDF_ERR_NOMEM;
		}
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = r->simhash;
	return 0;
}

int catalog_simhashes(const char *const *paths, int n, uint64_t **out, size_t *count,
		      struct catalog_info *info)
{
	struct fp_array a = {0};
	int rc = catalog_scan(paths, n, take_simhash, &a, info);
	if (rc) {
		free(a.v);
		a.v = NULL;
		a.n = 0;
	}
	*out = a.v;
	*count = a.n;
	return rc;
}
