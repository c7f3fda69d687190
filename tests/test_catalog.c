/*
 * test_catalog.c - the catalog is read in batches decoded by all threads:
 * every record is visited once, under its document index, after the batch
 * callback made room for it, whatever the batch size and thread count,
 * across blocks, sections and files; a damaged block stops the scan with
 * an error instead of losing records silently.
 */
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/catalog.h"
#include "util/log.h"
#include "format/ndf.h"
#include "format/ndf_deflate.h"
#include "testutil.h"

#define FILES 2
#define SECTIONS 2
#define BLOCKS 9
#define PER_BLOCK 37
#define TOTAL (FILES * SECTIONS * BLOCKS * PER_BLOCK)


static uint64_t fp_of(uint64_t idx)
{
	return idx * 0x9e3779b97f4a7c15ull ^ 0x5555;
}

/* How write_file() writes its blocks. */
enum { RAW, DEFLATE, DEFLATE_LONG };

/* A block's payload as @mode writes it: codec 4, and with DEFLATE_LONG
 * the raw length in front one byte too long. */
static void write_payload(struct ndf_writer *w, uint64_t key, const uint8_t *buf, size_t used,
			  int mode)
{
	if (mode == RAW) {
		CHECK(ndf_write_block(w, PER_BLOCK, NDF_CODEC_RAW, key, buf, used) == 0);
		return;
	}
	struct libdeflate_compressor *z = libdeflate_alloc_compressor(1);
	uint8_t *out = NULL;
	size_t cap = 0, len = 0;
	CHECK(z && ndf_deflate_payload(z, buf, used, &out, &cap, &len) == 0);
	CHECK(len < used); /* the URLs repeat: it compresses */
	if (mode == DEFLATE_LONG)
		out[0]++;
	CHECK(ndf_write_block(w, PER_BLOCK, NDF_CODEC_DEFLATE, key, out, len) == 0);
	libdeflate_free_compressor(z);
	free(out);
}

/* File @f: SECTIONS sections of BLOCKS blocks; records numbered from
 * @base; every record's URL says its number.  @mode: the blocks' codec
 * (DEFLATE_LONG: the last block of the last section only). */
static void write_file(FILE *fp, uint64_t base, int mode)
{
	for (int s = 0; s < SECTIONS; s++) {
		struct ndf_header h = {0};
		h.kind = NDF_KIND_FPS;
		h.aux = FPREC_VERSION;
		h.simhash_bits = 64;
		h.feature_config = 0x7465737463617400ull;
		struct ndf_writer *w = ndf_writer_open(fp, "catalog", &h);
		CHECK(w != NULL);
		for (int b = 0; b < BLOCKS; b++) {
			uint8_t buf[PER_BLOCK * 128];
			size_t used = 0;
			for (int i = 0; i < PER_BLOCK; i++) {
				char url[32];
				struct fp_record r = {0};
				r.simhash = fp_of(base);
				r.doc_id = base;
				snprintf(url, sizeof url, "u%llu", (unsigned long long)base);
				r.url = (struct str){url, (uint32_t)strlen(url)};
				r.warc_file = (struct str){"w", 1};
				used += fprec_encode(&r, buf + used);
				base++;
			}
			const int last = s == SECTIONS - 1 && b == BLOCKS - 1;
			write_payload(w, base, buf, used,
				      mode == DEFLATE_LONG && !last ? DEFLATE : mode);
		}
		CHECK(ndf_writer_finish(w) == 0);
	}
}

struct seen {
	uint64_t *fp;
	unsigned char *hits;
	uint64_t next; /* where the next batch must start */
	size_t cap;    /* room made so far */
	int order_ok, url_ok;
	int skip_mod; /* non-zero: records whose index is 1 modulo this are not wanted */
};

static int on_want(void *ctx, uint64_t idx)
{
	const struct seen *s = ctx;
	return idx % (uint64_t)s->skip_mod != 1;
}

static int on_batch(void *ctx, uint64_t first, uint64_t n)
{
	struct seen *s = ctx;
	if (first != s->next)
		s->order_ok = 0;
	/* every record before this batch was visited already */
	for (uint64_t i = 0; i < first && i < TOTAL; i++)
		if (!s->hits[i])
			s->order_ok = 0;
	s->next = first + n;
	s->cap = first + n;
	return 0;
}

static int on_record(void *ctx, uint64_t idx, const struct fp_record *r)
{
	struct seen *s = ctx;
	char want[32];
	if (idx >= s->cap || idx >= TOTAL)
		return -7;
	snprintf(want, sizeof want, "u%llu", (unsigned long long)idx);
	if (r->url.n != strlen(want) || memcmp(r->url.p, want, r->url.n))
		__atomic_store_n(&s->url_ok, 0, __ATOMIC_RELAXED);
	s->fp[idx] = r->simhash;
	__atomic_add_fetch(&s->hits[idx], 1, __ATOMIC_RELAXED);
	return 0;
}

static int scan(const char *const *paths, size_t batch_bytes, struct seen *s,
		struct catalog_info *info)
{
	memset(s->fp, 0, TOTAL * sizeof *s->fp);
	memset(s->hits, 0, TOTAL);
	s->next = s->cap = 0;
	s->order_ok = s->url_ok = 1;
	const struct catalog_visitor v = {.batch = on_batch,
					  .record = on_record,
					  .ctx = s,
					  .batch_bytes = batch_bytes,
					  .want = s->skip_mod ? on_want : NULL};
	return catalog_scan(paths, FILES, &v, info);
}

int main(void)
{
	char path[FILES][64];
	const char *paths[FILES];
	for (int f = 0; f < FILES; f++) {
		snprintf(path[f], sizeof path[f], "/tmp/ndd-test-catalog-%d-%d.ndf", (int)getpid(), f);
		paths[f] = path[f];
		FILE *fp = fopen(path[f], "wb");
		CHECK(fp != NULL);
		write_file(fp, (uint64_t)f * SECTIONS * BLOCKS * PER_BLOCK, RAW);
		fclose(fp);
	}
	struct seen s = {malloc(TOTAL * sizeof *s.fp), malloc(TOTAL), 0, 0, 1, 1, 0};
	struct catalog_info info, first_info = {0};
	/* a block per batch, a few, and all of a section in one */
	const size_t sizes[] = {1, 3000, 0};
	const int threads[] = {1, 2, 5};
	for (size_t b = 0; b < sizeof sizes / sizeof *sizes; b++)
		for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
			test_set_threads(threads[t]);
			CHECK(scan(paths, sizes[b], &s, &info) == 0);
			CHECK(info.n_records == TOTAL && info.n_sections == FILES * SECTIONS);
			CHECK(s.order_ok && s.url_ok && s.next == TOTAL);
			int all_once = 1;
			for (uint64_t i = 0; i < TOTAL; i++)
				all_once &= s.hits[i] == 1 && s.fp[i] == fp_of(i);
			CHECK(all_once);
			if (b == 0 && t == 0)
				first_info = info;
			CHECK(info.dataset_id == first_info.dataset_id);
		}

	/* the same records compressed: the same visits, in every batch size
	 * and thread count (another dataset: the payloads' CRCs differ) */
	for (int f = 0; f < FILES; f++) {
		FILE *fp = fopen(path[f], "wb");
		CHECK(fp != NULL);
		write_file(fp, (uint64_t)f * SECTIONS * BLOCKS * PER_BLOCK, DEFLATE);
		fclose(fp);
	}
	for (size_t b = 0; b < sizeof sizes / sizeof *sizes; b++)
		for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
			test_set_threads(threads[t]);
			CHECK(scan(paths, sizes[b], &s, &info) == 0);
			CHECK(info.n_records == TOTAL && s.order_ok && s.url_ok && s.next == TOTAL);
			int all_once = 1;
			for (uint64_t i = 0; i < TOTAL; i++)
				all_once &= s.hits[i] == 1 && s.fp[i] == fp_of(i);
			CHECK(all_once);
			CHECK(info.dataset_id != first_info.dataset_id);
		}
	/* a compressed block whose stream does not give the length it says
	 * (its checksum right): refused, what came before it visited */
	FILE *fp = fopen(path[1], "wb");
	CHECK(fp != NULL);
	write_file(fp, (uint64_t)SECTIONS * BLOCKS * PER_BLOCK, DEFLATE_LONG);
	fclose(fp);
	log_set_level(LOG_SILENT);
	test_set_threads(2);
	CHECK(scan(paths, 1, &s, &info) == NDF_ERR_FORMAT);
	int before_whole = 1;
	for (uint64_t i = 0; i < TOTAL - PER_BLOCK; i++)
		before_whole &= s.hits[i] == 1;
	CHECK(before_whole);
	log_set_level(LOG_INFO);
	for (int f = 0; f < FILES; f++) {
		fp = fopen(path[f], "wb");
		CHECK(fp != NULL);
		write_file(fp, (uint64_t)f * SECTIONS * BLOCKS * PER_BLOCK, RAW);
		fclose(fp);
	}

	/* records not wanted are passed over, the others visited as ever */
	s.skip_mod = 3;
	test_set_threads(2);
	CHECK(scan(paths, 3000, &s, &info) == 0 && info.n_records == TOTAL);
	int wanted_once = 1;
	for (uint64_t i = 0; i < TOTAL; i++)
		wanted_once &= i % 3 == 1 ? s.hits[i] == 0 : s.hits[i] == 1 && s.fp[i] == fp_of(i);
	CHECK(wanted_once && s.url_ok);
	CHECK(info.dataset_id == first_info.dataset_id);
	s.skip_mod = 0;

	/* a byte of the second file's payload flipped: the scan fails, naming
	 * the damage (logged), and does not report success */
	fp = fopen(path[1], "r+b");
	CHECK(fp != NULL);
	CHECK(fseek(fp, 600, SEEK_SET) == 0);
	int c = fgetc(fp);
	CHECK(fseek(fp, 600, SEEK_SET) == 0);
	fputc(c ^ 0x20, fp);
	fclose(fp);
	log_set_level(LOG_SILENT);
	test_set_threads(2);
	CHECK(scan(paths, 1, &s, &info) < 0);
	int first_file_whole = 1;
	for (uint64_t i = 0; i < TOTAL / FILES; i++)
		first_file_whole &= s.hits[i] == 1;
	CHECK(first_file_whole); /* what came before the damage was read */

	/* A block's record count damaged upwards: the count is read before
	 * the block's checksum is tested (that runs on the decoding threads),
	 * so it must be refused as damage, not used to size the arrays. */
	fp = fopen(path[1], "wb");
	CHECK(fp != NULL);
	write_file(fp, (uint64_t)SECTIONS * BLOCKS * PER_BLOCK, RAW);
	CHECK(fseek(fp, NDF_HEADER_SIZE + 3, SEEK_SET) == 0); /* top byte of n_records */
	fputc(0x40, fp);
	fclose(fp);
	s.cap = 0;
	int rc = scan(paths, 1, &s, &info);
	CHECK(rc == NDF_ERR_CHECKSUM);
	CHECK(s.next <= TOTAL);

	for (int f = 0; f < FILES; f++)
		remove(path[f]);
	free(s.fp);
	free(s.hits);
	return test_finish("test_catalog");
}
