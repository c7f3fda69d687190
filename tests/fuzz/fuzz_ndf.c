/*
 * fuzz_ndf.c - libFuzzer target: the NDF container and the records of
 * every section kind.  The first byte picks the mode:
 *   0  the input is a file of NDF sections, read as the stages read them
 *      (documents, fingerprints, templates, raw and compressed tables);
 *   1  the input is a block payload of a kind, wrapped in a valid section
 *      (so its CRCs pass) and decoded: the record decoders behind the CRC
 *      (fingerprints also as a codec-4 payload: the inflate behind it);
 *   2  the input is a compressed-table code and block, decoded directly.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/docrec.h"
#include "format/ndf.h"
#include "format/ndf_deflate.h"
#include "format/tplrec.h"
#include "tables/codec.h"
#include "tables/tableread.h"

#include "fuzz.h"

/* Decode every record of @b as @kind. */
static uint64_t decode_block(uint32_t kind, const struct ndf_block *b)
{
	const uint8_t *p = b->data, *end = b->data + b->len;
	uint64_t sum = 0;
	if (kind == NDF_KIND_FPS) { /* codec 0 or 4, as the catalog reads them */
		static struct ndf_unpacked u;
		size_t n;
		if (ndf_block_payload(b, "fuzz", &u, &p, &n))
			return 0;
		end = p + n;
	}
	for (uint32_t i = 0; i < b->n_records && p < end; i++) {
		int rc = -1;
		if (kind == NDF_KIND_DOCS) {
			struct doc_record d;
			rc = docrec_decode(&p, end, &d);
			if (!rc) {
				static struct doc_block *blk;
				static size_t blk_cap;
				static char *tb;
				static size_t tb_cap;
				const uint32_t nb = docrec_n_blocks(&d);
				if (nb > blk_cap) {
					free(blk);
					blk_cap = nb;
					blk = malloc(nb * sizeof *blk);
				}
				if (blk) {
					docrec_blocks(&d, blk);
					for (uint32_t k = 0; k < nb; k++)
						sum += blk[k].len;
				} else {
					blk_cap = 0;
				}
				struct str text;
				if (!docrec_text(&d, &tb, &tb_cap, &text) && text.n)
					sum += (uint8_t)text.p[text.n - 1];
			}
		} else if (kind == NDF_KIND_FPS) {
			struct fp_record f;
			rc = fprec_decode(&p, end, &f);
			if (!rc)
				sum += f.simhash + f.url.n;
		} else if (kind == NDF_KIND_TEMPLATES) {
			struct tpl_record t;
			rc = tplrec_decode(&p, end, &t);
			for (uint32_t k = 0; !rc && k < t.n; k++)
				sum += tplrec_hash(&t, k);
		}
		if (rc)
			break;
	}
	return sum;
}

static uint64_t read_file(FILE *fp)
{
	uint64_t sum = 0;
	struct ndf_block b = {0};
	struct table_arrays ta = {0};
	for (int sections = 0; sections < 16; sections++) {
		int err = 0;
		struct ndf_reader *r = ndf_reader_open(fp, "fuzz", &err);
		if (!r)
			break;
		const struct ndf_header *h = ndf_reader_header(r);
		int rc;
		if (h->kind == NDF_KIND_TABLE || h->kind == NDF_KIND_CTABLE) {
			rc = tableread_section(r, &ta);
			if (rc == 0 && ta.n)
				sum += ta.keys[ta.n - 1] + ta.idx[0];
		} else {
			const uint32_t kind = h->kind;
			while ((rc = ndf_read_block(r, &b)) == 1)
				sum += decode_block(kind, &b);
		}
		ndf_reader_close(r);
		if (rc < 0)
			break;
	}
	ndf_block_free(&b);
	table_arrays_free(&ta);
	return sum;
}

/* Mode 1: the payload in a section of the kind the next byte picks. */
static uint64_t wrapped(const uint8_t *data, size_t size)
{
	if (size < 5)
		return 0;
	static const uint32_t kinds[] = {NDF_KIND_DOCS, NDF_KIND_FPS, NDF_KIND_TEMPLATES};
	struct ndf_header h = {0};
	h.kind = kinds[data[0] % 3];
	h.simhash_bits = 64;
	h.aux = h.kind == NDF_KIND_DOCS ? DOCREC_VERSION : h.kind == NDF_KIND_TEMPLATES ? TPLREC_VERSION : 0;
	const uint32_t n = (uint32_t)data[1] | (uint32_t)data[2] << 8;
	char *mem = NULL;
	size_t mlen = 0;
	FILE *w = open_memstream(&mem, &mlen);
	if (!w)
		return 0;
	struct ndf_writer *nw = ndf_writer_open(w, "fuzz", &h);
	/* fingerprints also as codec 4: the payload is then the u32 length
	 * and the DEFLATE stream */
	const uint32_t codec = h.kind == NDF_KIND_FPS && data[0] / 3 % 2 ? NDF_CODEC_DEFLATE
									: NDF_CODEC_RAW;
	int ok = nw && !ndf_write_block(nw, n, codec, 0, data + 3, size - 3);
	ok = nw && !ndf_writer_finish(nw) && ok;
	fclose(w);
	uint64_t sum = 0;
	if (ok) {
		FILE *fp = fmemopen(mem, mlen, "rb");
		if (fp) {
			sum = read_file(fp);
			fclose(fp);
		}
	}
	free(mem);
	return sum;
}

/* Mode 2: a code, then records of the compressed-table codec. */
static uint64_t ctable(const uint8_t *data, size_t size)
{
	const size_t cs = codec_serialized_size();
	if (size < cs + 3)
		return 0;
	struct codec c;
	if (codec_parse(&c, data, size))
		return 0;
	const size_t n = (size_t)data[cs] | (size_t)data[cs + 1] << 8;
	const unsigned idx_bits = data[cs + 2] % 33;
	uint64_t *keys = malloc((n + 1) * sizeof *keys);
	uint32_t *idx = malloc((n + 1) * sizeof *idx);
	uint64_t sum = 0;
	if (keys && idx && !codec_decode_block(&c, data + cs + 3, size - cs - 3, n, idx_bits, keys, idx))
		sum = n ? keys[n - 1] + idx[n - 1] : 0;
	free(keys);
	free(idx);
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	if (size < 1)
		return 0;
	uint64_t sum = 0;
	switch (data[0] % 3) {
	case 0: {
		FILE *fp = size > 1 ? fmemopen((void *)(uintptr_t)(data + 1), size - 1, "rb") : NULL;
		if (fp) {
			sum = read_file(fp);
			fclose(fp);
		}
		break;
	}
	case 1:
		sum = wrapped(data + 1, size - 1);
		break;
	default:
		sum = ctable(data + 1, size - 1);
		break;
	}
	fuzz_sink(sum);
	return 0;
}
