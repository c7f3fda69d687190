/*
 * table_variant - rewrite the raw table sections of an ndd-permute-sort
 * output into the variants the tests feed to ndd-compress:
 *
 *   table_variant --strip-code IN OUT   no code block and aux 0 (tables as
 *                                       permute-sort wrote them before they
 *                                       carried their code)
 *   table_variant --swap-codes IN OUT   each table gets the next one's code
 *                                       block: a valid code, not its own
 *   table_variant --bad-code IN OUT     each code block says length 0 for
 *                                       symbol 0, which no code may
 *   table_variant --idx-past-end IN OUT every document index raised by the
 *                                       record count: still sorted, naming
 *                                       no document of the catalog
 *   table_variant --disorder IN OUT     records 2 and 3 of each table's first
 *                                       raw block swapped: keys out of order
 *   table_variant --disorder-edge IN OUT the last record of each table's first
 *                                       raw block swapped with the first of
 *                                       its second: out of order at the edge
 *
 * Every rewritten section is well-formed (checksums, index), so only the
 * table stages' own checks can refuse it.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "util/cli.h"
#include "util/log.h"
#include "format/ndf.h"
#include "util/outfile.h"
#include "tables/tablefile.h"

enum mode { STRIP, SWAP, BAD, PAST_END, DISORDER, DISORDER_EDGE };

struct section {
	struct ndf_header h;
	struct ndf_block *blk;
	size_t n;
};

static void free_sections(struct section *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++) {
		for (size_t j = 0; j <= s[i].n; j++)
			ndf_block_free(&s[i].blk[j]);
		free(s[i].blk);
	}
	free(s);
}

/* Every section of @path, blocks and all (test inputs are small). */
static struct section *load(const char *path, size_t *n_sec)
{
	FILE *fp = fopen(path, "rb");
	struct section *s = NULL;
	size_t n = 0;
	int err = 0;
	struct ndf_reader *r;
	if (!fp) {
		log_error("cannot open '%s'", path);
		return NULL;
	}
	while ((r = ndf_reader_open(fp, path, &err))) {
		s = xrealloc(s, (n + 1) * sizeof *s);
		struct section *cur = &s[n++];
		memset(cur, 0, sizeof *cur);
		for (;;) {
			cur->blk = xrealloc(cur->blk, (cur->n + 1) * sizeof *cur->blk);
			memset(&cur->blk[cur->n], 0, sizeof *cur->blk);
			err = ndf_read_block(r, &cur->blk[cur->n]);
			if (err <= 0)
				break;
			cur->n++;
		}
		cur->h = *ndf_reader_header(r);
		ndf_reader_close(r);
		if (err)
			break;
	}
	fclose(fp);
	*n_sec = n;
	if (err) {
		free_sections(s, n);
		return NULL;
	}
	return s;
}

static int is_code(const struct section *s)
{
	return s->n && s->blk[0].codec == NDF_CODEC_CODE;
}

static void swap_raw(uint8_t *a, uint8_t *b)
{
	uint8_t t[TABLE_RAW_RECORD];
	memcpy(t, a, sizeof t);
	memcpy(a, b, sizeof t);
	memcpy(b, t, sizeof t);
}

/* Keys out of order inside the first raw block, or (@edge) across its
 * edge with the second. */
static void disorder(struct section *s, int edge)
{
	struct ndf_block *raw[2];
	int n = 0;
	for (size_t i = 0; i < s->n && n < 2; i++)
		if (s->blk[i].codec == NDF_CODEC_RAW && s->blk[i].n_records >= 4)
			raw[n++] = &s->blk[i];
	if (n > 0 && !edge)
		swap_raw(raw[0]->data + 2 * TABLE_RAW_RECORD, raw[0]->data + 3 * TABLE_RAW_RECORD);
	if (n > 1 && edge)
		swap_raw(raw[0]->data + (size_t)(raw[0]->n_records - 1) * TABLE_RAW_RECORD,
			 raw[1]->data);
}

static int write_section(struct outfile *out, struct section *s, enum mode m,
			 const struct ndf_block *other_code)
{
	struct ndf_header h = s->h;
	size_t i = 0;
	if (m == DISORDER || m == DISORDER_EDGE)
		disorder(s, m == DISORDER_EDGE);
	if (m == STRIP) {
		h.aux = 0;
		i = is_code(s);
	}
	struct ndf_writer *w = ndf_writer_open(out->fp, out->display, &h);
	int err = !w;
	for (; i < s->n && !err; i++) {
		const struct ndf_block *b = &s->blk[i];
		const uint64_t first_key = b->n_records && b->len >= 8 ? get_le64(b->data) : 0;
		if (i == 0 && is_code(s) && m == SWAP)
			b = other_code;
		if (i == 0 && is_code(s) && m == BAD)
			s->blk[0].data[0] &= 0xf0;
		if (m == PAST_END && b->codec == NDF_CODEC_RAW) {
			const uint64_t n = h.record_count ? h.record_count : h.aux;
			for (uint32_t j = 0; j < b->n_records; j++) {
				uint64_t key;
				uint32_t idx;
				tablefile_get_raw(b->data + (size_t)j * TABLE_RAW_RECORD, &key, &idx);
				tablefile_put_raw(b->data + (size_t)j * TABLE_RAW_RECORD, key,
						  (uint32_t)(idx + n));
			}
		}
		err = ndf_write_block(w, b->n_records, b->codec, first_key, b->data, b->len);
	}
	if (err) {
		ndf_writer_abort(w);
		return -1;
	}
	return ndf_writer_finish(w);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"strip-code", no_argument, NULL, 's'},
		{"swap-codes", no_argument, NULL, 'w'},
		{"bad-code", no_argument, NULL, 'b'},
		{"idx-past-end", no_argument, NULL, 'p'},
		{"disorder", no_argument, NULL, 'd'},
		{"disorder-edge", no_argument, NULL, 'e'},
		{NULL, 0, NULL, 0},
	};
	int m = -1, c;
	log_init("table_variant");
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's': m = STRIP; break;
		case 'w': m = SWAP; break;
		case 'b': m = BAD; break;
		case 'p': m = PAST_END; break;
		case 'd': m = DISORDER; break;
		case 'e': m = DISORDER_EDGE; break;
		default: m = -1; optind = argc; break;
		}
	}
	if (m < 0 || optind + 2 != argc) {
		fprintf(stderr, "usage: table_variant --strip-code|--swap-codes|--bad-code|--idx-past-end|--disorder|--disorder-edge IN OUT\n");
		return EXIT_FAILED;
	}
	size_t n = 0;
	struct section *s = load(argv[optind], &n);
	struct outfile out;
	int err = !s || outfile_open(&out, argv[optind + 1]);
	if (err) {
		free_sections(s, n);
		return EXIT_FAILED;
	}
	for (size_t i = 0; i < n && !err; i++)
		err = write_section(&out, &s[i], (enum mode)m, &s[(i + 1) % n].blk[0]);
	free_sections(s, n);
	if (err || outfile_commit(&out)) {
		outfile_abort(&out);
		return EXIT_FAILED;
	}
	return EXIT_OK;
}
