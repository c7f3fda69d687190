/*
 * gen_host_docs.c - a documents stream (NDF kind 1) of N pages of one
 * host, for measuring ndd-template on a host far past any real one
 * (issue 15: "a host of 10M pages").  Each page has the host's template
 * (a menu, a cookie line, a footer: the same blocks on every page) and
 * two paragraphs of its own.
 *
 *   gen_host_docs N > docs.ndf      (or | ndd-template -o t.ndf -)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "format/docrec.h"
#include "format/ndf.h"

#define BLOCK_BYTES (1u << 20)

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_host_docs N > docs.ndf\n");
		return 2;
	}
	const unsigned long long n = strtoull(argv[1], NULL, 10);
	struct ndf_header h = {.version = NDF_VERSION, .kind = NDF_KIND_DOCS,
				 .aux = DOCREC_VERSION};
	struct ndf_writer *w = ndf_writer_open(stdout, "(standard output)", &h);
	uint8_t *buf = malloc(BLOCK_BYTES + 4096);
	if (!w || !buf)
		return 1;
	static const char *const tpl[3] = {"Home Products Support Blog Contact",
					   "We use cookies to improve your experience.",
					   "Copyright 2026 Example Inc. All rights reserved."};
	size_t len = 0;
	uint32_t recs = 0;
	uint64_t first = 0;
	for (unsigned long long i = 0; i < n; i++) {
		char url[64], all[512];
		uint8_t raw[5 * DOCBLOCK_MAX_SIZE], *r = raw;
		snprintf(url, sizeof url, "http://big.example/page/%llu", i);
		const int a = snprintf(all, sizeof all, "%s\n%s\nArticle number %llu begins here, "
				       "with words of its own.\nIts second paragraph, %llu, ends "
				       "it.\n%s", tpl[0], tpl[1], i, i * 7919, tpl[2]);
		const char *s = all;
		for (int k = 0; k < 5; k++) {
			const char *e = strchr(s, '\n');
			const size_t bl = e ? (size_t)(e - s) : strlen(s);
			r = docblock_encode(r, (uint32_t)bl, k == 2 || k == 3 ? DB_CONTENT : 0);
			s += bl + 1;
		}
		struct doc_record d = {
			.doc_id = DOC_ID(1, i), .warc_offset = i * 2000, .warc_length = 1500,
			.payload_hash = XXH3_64bits(all, (size_t)a), .http_status = 200,
			.url = {url, (uint32_t)strlen(url)}, .warc_file = {"big.warc.gz", 11},
			.all_text = {all, (uint32_t)a}, .blocks = {(const char *)raw, (uint32_t)(r - raw)},
			.n_blocks = 5,
		};
		struct str text;
		char *tb = NULL;
		size_t cap = 0;
		if (docrec_text(&d, &tb, &cap, &text))
			return 1;
		d.text_hash = XXH3_64bits(text.p, text.n);
		free(tb);
		if (len + docrec_size(&d) > BLOCK_BYTES) {
			if (ndf_write_block(w, recs, NDF_CODEC_RAW, first, buf, len))
				return 1;
			len = 0;
			recs = 0;
		}
		if (!recs)
			first = d.doc_id;
		len += docrec_encode(&d, buf + len);
		recs++;
	}
	if (recs && ndf_write_block(w, recs, NDF_CODEC_RAW, first, buf, len))
		return 1;
	free(buf);
	return ndf_writer_finish(w) ? 1 : 0;
}
