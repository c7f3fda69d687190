/*
 * testtable.h - write a table section as the stages do, for the tests of
 * the table reader and the streamed join: raw (optionally after a code
 * block, as a raw table may start) or compressed, in blocks of a chosen
 * size, so that blocks and batches fall anywhere in the runs.
 */
#ifndef NDD_TESTTABLE_H
#define NDD_TESTTABLE_H

#include <stdlib.h>

#include "tables/codec.h"
#include "format/ndf.h"
#include "tables/tablefile.h"
#include "tables/tableread.h"

enum test_table_form {
	TEST_RAW,      /* raw blocks */
	TEST_RAW_CODE, /* a code block, then raw blocks */
	TEST_PREFIX,   /* a code block, then prefix-coded blocks */
};

/* Table @t of @d holding @keys/@idx[0..n) into @fp, @per_block records
 * per block; data block number @short_block (if not -1) is written one
 * byte short (a block whose checksum is right but that does not decode).
 * @return 0, or -1. */
static inline int test_write_table_short(FILE *fp, const struct design *d, uint32_t t,
					 const uint64_t *keys, const uint32_t *idx, size_t n,
					 enum test_table_form form, size_t per_block,
					 long short_block)
{
	struct ndf_header h;
	const unsigned idx_bits = tableread_idx_bits(n);
	tablefile_header(&h, form == TEST_PREFIX ? NDF_KIND_CTABLE : NDF_KIND_TABLE, d, t,
			 0x5eed, 42);
	h.codec_param = form == TEST_PREFIX ? idx_bits : 0;
	h.aux = form == TEST_PREFIX ? per_block : 0;
	struct ndf_writer *w = ndf_writer_open(fp, "test table", &h);
	if (!w)
		return -1;
	uint64_t hist[CODEC_SYMBOLS] = {0};
	struct codec code;
	uint8_t code_bytes[64];
	/* block by block: a test may want blocks sorted inside but not
	 * across their edges (a raw table's code block is never used) */
	for (size_t first = 0; form == TEST_PREFIX && first < n; first += per_block)
		codec_histogram(keys + first, n - first < per_block ? n - first : per_block, hist);
	int err = codec_build(&code, hist);
	codec_serialize(&code, code_bytes);
	if (!err && form != TEST_RAW)
		err = ndf_write_block(w, 0, NDF_CODEC_CODE, 0, code_bytes, codec_serialized_size());
	uint8_t *buf = malloc(per_block * TABLE_RAW_RECORD + codec_block_bound(per_block, 32));
	for (size_t first = 0; !err && buf && first < n; first += per_block) {
		const size_t m = n - first < per_block ? n - first : per_block;
		size_t len = m * TABLE_RAW_RECORD;
		if (form == TEST_PREFIX)
			len = codec_encode_block(&code, keys + first, idx + first, m, idx_bits, buf);
		else
			for (size_t i = 0; i < m; i++)
				tablefile_put_raw(buf + i * TABLE_RAW_RECORD, keys[first + i],
						  idx[first + i]);
		if ((long)(first / per_block) == short_block)
			len--;
		err = ndf_write_block(w, (uint32_t)m,
				      form == TEST_PREFIX ? NDF_CODEC_PREFIX : NDF_CODEC_RAW,
				      keys[first], buf, len);
	}
	free(buf);
	if (err || !buf) {
		ndf_writer_abort(w);
		return -1;
	}
	return ndf_writer_finish(w) ? -1 : 0;
}

/* The same, every block whole. */
static inline int test_write_table(FILE *fp, const struct design *d, uint32_t t,
				   const uint64_t *keys, const uint32_t *idx, size_t n,
				   enum test_table_form form, size_t per_block)
{
	return test_write_table_short(fp, d, t, keys, idx, n, form, per_block, -1);
}

#endif
