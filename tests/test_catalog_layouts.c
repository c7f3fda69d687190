/*
 * test_catalog_layouts.c - a night kept before an upgrade is still read:
 * the catalog reader takes fingerprint records of layouts 0 and 2 beside
 * the current one, section by section, with the fields they lack filled
 * in (no frame, empty record_id and date), and refuses a layout it does
 * not know instead of misreading it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/catalog.h"
#include "format/docrec.h"
#include "format/ndf.h"
#include "util/bytes.h"
#include "util/log.h"
#include "testutil.h"

#define PER_BLOCK 50
#define BLOCKS 3
#define PER_SECTION (PER_BLOCK * BLOCKS)
/* the file's sections: current layout, layout 2, layout 0 */
static const unsigned layouts[] = {FPREC_VERSION, 2, 0};
#define SECTIONS (sizeof layouts / sizeof *layouts)
#define TOTAL (SECTIONS * PER_SECTION)

static uint8_t *put_str(uint8_t *p, const char *s)
{
	const uint32_t n = (uint32_t)strlen(s);
	put_le32(p, n);
	memcpy(p + 4, s, n);
	return p + 4 + n;
}

/* Record @i as the writer of @layout wrote it.  The last block of each
 * section has empty strings: records of the smallest size an old layout
 * allows, more to a block than the current layout could hold. */
static size_t encode_old(uint8_t *out, unsigned layout, uint64_t i, int empty)
{
	char url[32] = "", id[32] = "", date[32] = "";
	if (!empty) {
		snprintf(url, sizeof url, "u%llu", (unsigned long long)i);
		snprintf(id, sizeof id, "<r%llu>", (unsigned long long)i);
		snprintf(date, sizeof date, "2026-11-%02d", (int)(i % 28) + 1);
	}
	uint8_t *p = out;
	const uint64_t fixed[] = {i * 0x9e3779b97f4a7c15ull, i, i * 100, i ^ 7, i ^ 9};
	for (size_t k = 0; k < 5; k++, p += 8)
		put_le64(p, fixed[k]);
	if (layout == FPREC_VERSION) {
		put_le64(p, i | 1); /* the frame */
		p += 8;
	}
	put_le32(p, (uint32_t)i);
	put_le32(p + 4, (uint32_t)(i % 3 == 0 ? FP_SHORT_TEXT : 0));
	p += 8;
	p = put_str(p, url);
	p = put_str(p, empty ? "" : "w.warc.gz");
	if (layout != 0) {
		p = put_str(p, id);
		p = put_str(p, date);
	}
	return (size_t)(p - out);
}

static void write_section(FILE *fp, unsigned layout, uint64_t base)
{
	struct ndf_header h = {0};
	h.kind = NDF_KIND_FPS;
	h.aux = layout;
	h.simhash_bits = 64;
	h.feature_config = 0x6c61796f75747300ull;
	struct ndf_writer *w = ndf_writer_open(fp, "layouts", &h);
	CHECK(w != NULL);
	for (int b = 0; b < BLOCKS; b++) {
		uint8_t buf[PER_BLOCK * 160];
		size_t used = 0;
		for (int i = 0; i < PER_BLOCK; i++, base++)
			used += encode_old(buf + used, layout, base, b == BLOCKS - 1);
		CHECK(ndf_write_block(w, PER_BLOCK, NDF_CODEC_RAW, base, buf, used) == 0);
	}
	CHECK(ndf_writer_finish(w) == 0);
}

struct seen {
	unsigned char hits[TOTAL];
	int fields_ok;
};

static int on_record(void *ctx, uint64_t idx, const struct fp_record *r)
{
	struct seen *s = ctx;
	if (idx >= TOTAL)
		return -7;
	const unsigned layout = layouts[idx / PER_SECTION];
	const int empty = idx % PER_SECTION >= PER_SECTION - PER_BLOCK;
	char url[32] = "", id[32] = "";
	if (!empty) {
		snprintf(url, sizeof url, "u%llu", (unsigned long long)idx);
		if (layout != 0)
			snprintf(id, sizeof id, "<r%llu>", (unsigned long long)idx);
	}
	const uint32_t flags = (idx % 3 == 0 ? FP_SHORT_TEXT : 0) |
			       (layout == FPREC_VERSION ? 0 : FP_NO_FRAME);
	const int ok = r->simhash == idx * 0x9e3779b97f4a7c15ull && r->doc_id == idx &&
		       r->warc_offset == idx * 100 && r->payload_hash == (idx ^ 7) &&
		       r->text_hash == (idx ^ 9) && r->text_len == (uint32_t)idx &&
		       r->flags == flags && r->frame == (layout == FPREC_VERSION ? (idx | 1) : 0) &&
		       r->url.n == strlen(url) && !memcmp(r->url.p, url, r->url.n) &&
		       r->record_id.n == strlen(id) && !memcmp(r->record_id.p, id, r->record_id.n) &&
		       (layout != 0 || r->date.n == 0);
	if (!ok)
		__atomic_store_n(&s->fields_ok, 0, __ATOMIC_RELAXED);
	__atomic_add_fetch(&s->hits[idx], 1, __ATOMIC_RELAXED);
	return 0;
}

int main(void)
{
	char path[64];
	snprintf(path, sizeof path, "/tmp/ndd-test-layouts-%d.ndf", (int)getpid());
	const char *paths[] = {path};
	FILE *fp = fopen(path, "wb");
	CHECK(fp != NULL);
	for (size_t s = 0; s < SECTIONS; s++)
		write_section(fp, layouts[s], s * PER_SECTION);
	fclose(fp);

	const int threads[] = {1, 2};
	for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
		struct seen *s = calloc(1, sizeof *s);
		CHECK(s != NULL);
		s->fields_ok = 1;
		test_set_threads(threads[t]);
		struct catalog_info info;
		const struct catalog_visitor v = {.record = on_record, .ctx = s, .batch_bytes = 1};
		CHECK(catalog_scan(paths, 1, &v, &info) == 0);
		CHECK(info.n_records == TOTAL && info.n_sections == SECTIONS);
		int all_once = 1;
		for (size_t i = 0; i < TOTAL; i++)
			all_once &= s->hits[i] == 1;
		CHECK(all_once);
		CHECK(s->fields_ok);
		free(s);
	}

	/* a layout no writer ever wrote (1) is refused, not guessed at */
	fp = fopen(path, "wb");
	CHECK(fp != NULL);
	write_section(fp, 1, 0);
	fclose(fp);
	log_set_level(LOG_SILENT);
	struct seen *s = calloc(1, sizeof *s);
	CHECK(s != NULL);
	struct catalog_info info;
	const struct catalog_visitor v = {.record = on_record, .ctx = s};
	CHECK(catalog_scan(paths, 1, &v, &info) == NDF_ERR_PARAMS);
	free(s);

	remove(path);
	return test_finish("test_catalog_layouts");
}
