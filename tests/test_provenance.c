/*
 * test_provenance.c - the filter of pairs by slot (prov_slots_allowed(),
 * which reads a byte per document and the records only when it must)
 * gives prov_pair_allowed()'s answer for every kind of text, payload and
 * distance, and that answer is the documented rule.  prov_load() fills
 * every marked document's slot from the catalog, and refuses a catalog
 * that ends before a marked document (its slot would be left unwritten),
 * with each page's frame.  prov_match() gives seed 004's four types by the
 * documented rule, at the edges of its thresholds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/ndf.h"
#include "output/provenance.h"
#include "testutil.h"

static void fill(struct provenance *p, uint32_t slot, int has_text, int short_text,
		 uint64_t payload)
{
	struct prov_doc *d = &p->doc[slot];
	memset(d, 0, sizeof *d);
	d->text = (uint8_t)((has_text ? PROV_HAS_TEXT : 0) | (short_text ? PROV_SHORT_TEXT : 0));
	d->payload_hash = payload;
	p->text[slot] = d->text;
}

static void test_slots_allowed(void)
{
	struct prov_doc doc[2];
	uint8_t text[2];
	struct provenance p;
	memset(&p, 0, sizeof p);
	p.doc = doc;
	p.text = text;
	p.n = 2;
	int allowed = 0, refused = 0;
	for (int kind = 0; kind < 16; kind++) /* has_text and short_text of both */
		for (int same_payload = 0; same_payload < 2; same_payload++)
			for (uint32_t d = 0; d < 4; d++) {
				fill(&p, 0, kind & 1, kind >> 1 & 1, 7);
				fill(&p, 1, kind >> 2 & 1, kind >> 3 & 1, same_payload ? 7 : 8);
				const int want = prov_pair_allowed(&doc[0], &doc[1], d);
				/* the rule as documented, spelled out */
				const int ha = kind & 1, sa = kind >> 1 & 1, hb = kind >> 2 & 1,
					  sb = kind >> 3 & 1;
				CHECK(want == ((same_payload && d == 0) ||
					       (ha && hb && sa == sb && (!sa || d == 0))));
				CHECK(prov_slots_allowed(&p, 0, 1, d) == want);
				CHECK(prov_slots_allowed(&p, 1, 0, d) == want);
				allowed += want;
				refused += !want;
			}
	CHECK(allowed > 0 && refused > 0); /* both answers were asked for */
}

/* Two pages whose payloads, texts, fingerprints and frames differ as
 * told; @*_bits: bits set in the XOR of the fingerprints and frames. */
static enum prov_match match_of(int same_payload, int same_text, int fp_bits, int frame_bits,
				int no_frame)
{
	struct prov_doc a, b;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.payload_hash = 1;
	b.payload_hash = same_payload ? 1 : 2;
	a.text_hash = 3;
	b.text_hash = same_text ? 3 : 4;
	a.text = b.text = PROV_HAS_TEXT;
	b.text |= no_frame ? PROV_NO_FRAME : 0;
	a.simhash = 0x5555555555555555ull;
	b.simhash = a.simhash ^ (fp_bits ? ~0ull >> (64 - fp_bits) : 0);
	const uint64_t fa = 0x0123456789abcdefull;
	const uint64_t fb = fa ^ (frame_bits ? ~0ull << (64 - frame_bits) : 0);
	const enum prov_match m = prov_match(&a, fa, &b, fb);
	CHECK(prov_match(&b, fb, &a, fa) == m); /* a pair's type, either way round */
	return m;
}

static void test_match_types(void)
{
	const int S = PROV_SAME_FRAME_BITS, C = PROV_SAME_CONTENT_BITS;
	/* the same bytes: exact whatever else the records say */
	CHECK(match_of(1, 0, 6, 40, 1) == PROV_EXACT);
	/* the same template (frames within S bits) */
	CHECK(match_of(0, 1, 0, 0, 0) == PROV_EXACT);
	CHECK(match_of(0, 1, 0, S, 0) == PROV_EXACT);
	CHECK(match_of(0, 0, 1, 0, 0) == PROV_SAME_LAYOUT); /* one bit of text is an edit */
	CHECK(match_of(0, 0, 6, S, 0) == PROV_SAME_LAYOUT);
	/* another template: past S bits, or a frame not known */
	CHECK(match_of(0, 1, 0, S + 1, 0) == PROV_SAME_CONTENT);
	CHECK(match_of(0, 1, 5, 0, 1) == PROV_SAME_CONTENT);
	CHECK(match_of(0, 0, C, S + 1, 0) == PROV_SAME_CONTENT);
	CHECK(match_of(0, 0, C + 1, S + 1, 0) == PROV_PARTIAL);
	CHECK(match_of(0, 0, C + 1, 0, 1) == PROV_PARTIAL);
	CHECK(!strcmp(prov_match_name(PROV_EXACT), "exact") &&
	      !strcmp(prov_match_name(PROV_SAME_CONTENT), "same-content") &&
	      !strcmp(prov_match_name(PROV_SAME_LAYOUT), "same-layout") &&
	      !strcmp(prov_match_name(PROV_PARTIAL), "partial"));
}

#define RECORDS 1000

/* A catalog of RECORDS fingerprints in blocks of 100; record i's URL is
 * "u<i>", its offset 7 * i. */
static void write_catalog(const char *path)
{
	FILE *fp = fopen(path, "wb");
	CHECK(fp != NULL);
	struct ndf_header h = {0};
	h.kind = NDF_KIND_FPS;
	h.aux = FPREC_VERSION;
	h.simhash_bits = 64;
	struct ndf_writer *w = ndf_writer_open(fp, "catalog", &h);
	CHECK(w != NULL);
	static uint8_t buf[100 * 128];
	for (uint64_t i = 0; i < RECORDS; i += 100) {
		size_t used = 0;
		for (uint64_t j = i; j < i + 100; j++) {
			char url[32], rid[32];
			struct fp_record r = {0};
			r.simhash = j * 0x9e3779b97f4a7c15ull;
			r.warc_offset = 7 * j;
			r.text_len = (uint32_t)(j % 3);
			r.frame = ~j;
			r.flags = j % 11 ? 0 : FP_NO_FRAME;
			snprintf(url, sizeof url, "u%llu", (unsigned long long)j);
			r.url = (struct str){url, (uint32_t)strlen(url)};
			r.warc_file = (struct str){"w.warc", 6};
			snprintf(rid, sizeof rid, "<urn:%llu>", (unsigned long long)j);
			r.record_id = (struct str){rid, (uint32_t)(j % 5 ? strlen(rid) : 0)};
			r.date = (struct str){"2026-11-26T00:00:00Z", (uint32_t)(j % 7 ? 20 : 0)};
			used += fprec_encode(&r, buf + used);
		}
		CHECK(ndf_write_block(w, 100, NDF_CODEC_RAW, i, buf, used) == 0);
	}
	CHECK(ndf_writer_finish(w) == 0);
	CHECK(fclose(fp) == 0);
}

static void test_load(void)
{
	char path[] = "/tmp/test_provenance_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	write_catalog(path);
	const char *paths[1] = {path};
	struct catalog_info info;
	struct provenance p;
	/* every 3rd document and the last one: all slots filled */
	CHECK(prov_init(&p, RECORDS) == 0);
	for (uint32_t i = 0; i < RECORDS; i += 3)
		prov_mark(&p, i);
	prov_mark(&p, RECORDS - 1);
	CHECK(prov_load(&p, paths, 1, &info) == 0);
	CHECK_EQ_U64(info.n_records, RECORDS);
	int ok = 1;
	for (uint32_t i = 0; i < RECORDS; i++) {
		if (!prov_needed(&p, i))
			continue;
		const struct prov_doc *d = prov_get(&p, i);
		char url[32], rid[32];
		snprintf(url, sizeof url, "u%u", i);
		snprintf(rid, sizeof rid, "<urn:%u>", i);
		const struct str id = prov_record_id(d), date = prov_date(d);
		ok &= id.n == (i % 5 ? strlen(rid) : 0) && !memcmp(id.p, rid, id.n) &&
		      date.n == (i % 7 ? 20u : 0u) && !memcmp(date.p, "2026-11-26T00:00:00Z", date.n) &&
		      d->doc_id == i;
		ok &= d->url_len == strlen(url) && !memcmp(d->url, url, d->url_len) &&
		      d->warc_offset == 7ull * i && d->simhash == i * 0x9e3779b97f4a7c15ull &&
		      d->warc_file_len == 6 && !memcmp(d->warc_file, "w.warc", 6) &&
		      d->text == ((i % 3 ? PROV_HAS_TEXT : 0) | (i % 11 ? 0 : PROV_NO_FRAME)) &&
		      p.text[prov_slot(&p, i)] == d->text && prov_frame(&p, d) == ~(uint64_t)i;
	}
	CHECK(ok);
	prov_free(&p);
	/* tables that name a document past the catalog's end: refused */
	CHECK(prov_init(&p, RECORDS + 10) == 0);
	prov_mark(&p, 5);
	prov_mark(&p, RECORDS + 2);
	CHECK(prov_load(&p, paths, 1, &info) != 0);
	prov_free(&p);
	close(fd);
	unlink(path);
}

int main(void)
{
	test_slots_allowed();
	test_match_types();
	test_load();
	return test_finish("test_provenance");
}
