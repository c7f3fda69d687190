/*
 * test_ndf.c - the NDF container: round trips (seekable and streamed
 * through a pipe), and refusal of every single-byte corruption (blocks
 * checked as read, or later by ndf_block_check(); read through the FILE
 * or in place from a mapping), every truncation, a wrong magic, a future
 * version and a reserved flag; sections found from the end of a file by
 * their tails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>
#include <zlib.h>

#include "util/bytes.h"
#include "util/log.h"
#include "format/ndf.h"
#include "testutil.h"

static struct ndf_header sample_header(void)
{
	struct ndf_header h;
	memset(&h, 0, sizeof h);
	h.kind = NDF_KIND_FPS;
	h.simhash_bits = 64;
	h.feature_config = 0x1234567890abcdefull;
	h.k = 3;
	for (int i = 0; i < 64; i++)
		h.perm[i] = (uint8_t)(63 - i);
	return h;
}

/* Write three sections' worth of blocks into @fp: sizes 0, 1 and 1000. */
static void write_section(FILE *fp, unsigned n_blocks)
{
	struct ndf_header h = sample_header();
	struct ndf_writer *w = ndf_writer_open(fp, "test", &h);
	CHECK(w != NULL);
	for (unsigned b = 0; b < n_blocks; b++) {
		uint8_t buf[1000];
		size_t len = (b * 337u) % sizeof buf;
		for (size_t i = 0; i < len; i++)
			buf[i] = (uint8_t)(i * 7 + b);
		CHECK(ndf_write_block(w, b + 1, NDF_CODEC_RAW, 100 + b, buf, len) == 0);
	}
	CHECK(ndf_writer_count(w) == (uint64_t)n_blocks * (n_blocks + 1) / 2);
	CHECK(ndf_writer_finish(w) == 0);
}

/* Read blocks as the catalog does: unchecked, then ndf_block_check();
 * and from a mapping of a real file (ndf_reader_map()). */
static int g_unchecked, g_mapped;

static int next_block(struct ndf_reader *r, struct ndf_block *b)
{
	if (!g_unchecked)
		return ndf_read_block(r, b);
	int rc = ndf_read_block_unchecked(r, b);
	if (rc > 0 && ndf_block_check(b, "test"))
		return NDF_ERR_CHECKSUM;
	return rc;
}

/* Read every section of @fp; return the number of sections, or -1. */
static int read_all(FILE *fp, uint64_t *records)
{
	int sections = 0, err;
	struct ndf_block b = {0};
	*records = 0;
	for (;;) {
		struct ndf_reader *r = ndf_reader_open(fp, "test", &err);
		if (!r) {
			ndf_block_free(&b);
			return err ? -1 : sections;
		}
		if (g_mapped && ndf_reader_map(r))
			err = -103;
		const struct ndf_header *h = ndf_reader_header(r);
		if (h->kind != NDF_KIND_FPS || h->feature_config != 0x1234567890abcdefull ||
		    h->perm[0] != 63)
			err = -100;
		int rc;
		uint64_t blocks = 0;
		while (!err && (rc = next_block(r, &b)) > 0) {
			size_t want = (blocks * 337u) % 1000;
			if (b.len != want || b.n_records != blocks + 1 ||
			    (b.len && b.data[b.len - 1] != (uint8_t)((b.len - 1) * 7 + blocks)))
				err = -101;
			*records += b.n_records;
			blocks++;
		}
		if (!err && rc < 0)
			err = rc;
		if (!err) {
			uint64_t nb;
			const struct ndf_index_entry *ix = ndf_reader_index(r, &nb);
			if (nb != blocks || (nb && ix[nb - 1].first_key != 100 + nb - 1))
				err = -102;
		}
		ndf_reader_close(r);
		if (err) {
			ndf_block_free(&b);
			return -1;
		}
		sections++;
	}
}

static size_t file_image(uint8_t **out, int streamed)
{
	char path[] = "/tmp/test_ndf_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *fp;
	if (streamed) {
		char cmd[128];
		snprintf(cmd, sizeof cmd, "cat > %s", path);
		fp = popen(cmd, "w");
	} else {
		fp = fopen(path, "w+b");
	}
	write_section(fp, 0);
	write_section(fp, 1);
	write_section(fp, 7);
	if (streamed)
		pclose(fp);
	else
		fclose(fp);
	fp = fopen(path, "rb");
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	rewind(fp);
	*out = malloc((size_t)n);
	CHECK(fread(*out, 1, (size_t)n, fp) == (size_t)n);
	fclose(fp);
	close(fd);
	unlink(path);
	return (size_t)n;
}

static int read_image(const uint8_t *img, size_t n, uint64_t *records)
{
	FILE *fp;
	char path[] = "/tmp/test_ndf_map_XXXXXX";
	if (g_mapped) { /* a mapping needs a file */
		int fd = mkstemp(path);
		CHECK(fd >= 0 && write(fd, img, n) == (ssize_t)n);
		close(fd);
		fp = fopen(path, "rb");
	} else {
		fp = fmemopen((void *)img, n, "rb");
	}
	int s = read_all(fp, records);
	fclose(fp);
	if (g_mapped)
		unlink(path);
	return s;
}

static void test_round_trip(int streamed)
{
	uint8_t *img;
	uint64_t records;
	size_t n = file_image(&img, streamed);
	CHECK(read_image(img, n, &records) == 3);
	CHECK_EQ_U64(records, 0 + 1 + 28);
	uint32_t flags = get_le32(img + 20);
	CHECK((flags & NDF_FLAG_STREAMED) == (streamed ? NDF_FLAG_STREAMED : 0));
	free(img);
}

/* Any byte flipped anywhere must make the reader refuse the file. */
static void test_every_flip(int streamed)
{
	uint8_t *img;
	uint64_t records;
	size_t n = file_image(&img, streamed);
	int accepted = 0;
	for (size_t i = 0; i < n; i++) {
		img[i] ^= 0x20;
		if (read_image(img, n, &records) == 3)
			accepted++, fprintf(stderr, "flip at %zu accepted\n", i);
		img[i] ^= 0x20;
	}
	CHECK(accepted == 0);
	free(img);
}

/* Every truncation short of the whole must be refused (a cut that falls
 * exactly between sections reads as fewer sections, also caught). */
static void test_every_truncation(void)
{
	uint8_t *img;
	uint64_t records;
	size_t n = file_image(&img, 0);
	int accepted = 0;
	for (size_t len = 0; len < n; len++)
		if (read_image(img, len, &records) == 3)
			accepted++;
	CHECK(accepted == 0);
	free(img);
}

static void test_header_faults(void)
{
	uint8_t *img;
	size_t n = file_image(&img, 0);
	FILE *fp;
	int err;

	img[1] = 'X'; /* wrong magic */
	fp = fmemopen(img, n, "rb");
	CHECK(ndf_reader_open(fp, "magic", &err) == NULL && err == NDF_ERR_MAGIC);
	fclose(fp);
	img[1] = 'N';

	put_le32(img + 8, NDF_VERSION + 1); /* a future version */
	fp = fmemopen(img, n, "rb");
	CHECK(ndf_reader_open(fp, "version", &err) == NULL && err == NDF_ERR_VERSION);
	fclose(fp);
	put_le32(img + 8, NDF_VERSION);

	uint8_t saved[4];
	memcpy(saved, img + NDF_HEADER_SIZE - 4, 4);
	put_le32(img + 20, get_le32(img + 20) | 0x8); /* a reserved flag, valid CRC */
	put_le32(img + NDF_HEADER_SIZE - 4, (uint32_t)crc32(0, img, NDF_HEADER_SIZE - 4));
	fp = fmemopen(img, n, "rb");
	CHECK(ndf_reader_open(fp, "flags", &err) == NULL && err == NDF_ERR_FORMAT);
	fclose(fp);
	put_le32(img + 20, get_le32(img + 20) & ~0x8u);
	memcpy(img + NDF_HEADER_SIZE - 4, saved, 4);

	fp = fmemopen(img, 0 + 1, "rb"); /* one byte: truncated header */
	CHECK(ndf_reader_open(fp, "short", &err) == NULL && err == NDF_ERR_TRUNCATED);
	fclose(fp);
	free(img);
}

/* The payload CRC must depend on the payload (a CRC over data followed
 * by its own CRC is constant, and once was). */
static void test_payload_crc_sees_content(void)
{
	uint32_t crcs[2];
	for (int v = 0; v < 2; v++) {
		FILE *fp = tmpfile();
		struct ndf_header h = sample_header();
		struct ndf_writer *w = ndf_writer_open(fp, "crc", &h);
		uint8_t payload[16] = {0};
		payload[3] = (uint8_t)v;
		CHECK(ndf_write_block(w, 1, NDF_CODEC_RAW, 0, payload, sizeof payload) == 0);
		CHECK(ndf_writer_finish(w) == 0);
		rewind(fp);
		struct ndf_header got;
		CHECK(ndf_verify_section(fp, "crc", &got) == 0);
		crcs[v] = got.payload_crc;
		fclose(fp);
	}
	CHECK(crcs[0] != crcs[1]);
}

/* Walk the sections of @img back from byte @end by their tails; their
 * record counts go to @counts (last section first).  @return the number
 * of sections, or -1 at the first fault. */
static int walk_from_end(const uint8_t *img, size_t end, uint64_t *counts, int max)
{
	FILE *fp = fmemopen((void *)img, end ? end : 1, "rb");
	struct ndf_block b = {0};
	int n = 0;
	CHECK(fp != NULL);
	for (uint64_t at = end; at > 0 && n < max;) {
		struct ndf_section *s;
		if (ndf_section_open_end(fp, "test", at, &s)) {
			n = -1;
			break;
		}
		const struct ndf_header *h = ndf_section_header(s);
		uint64_t nb, records = 0;
		ndf_section_index(s, &nb);
		for (uint64_t i = 0; i < nb; i++) {
			CHECK(ndf_section_read_block(s, i, &b) == 0);
			CHECK(b.n_records == i + 1);
			records += b.n_records;
		}
		CHECK_EQ_U64(records, h->record_count);
		CHECK(ndf_section_end(s) == at);
		counts[n++] = h->record_count;
		at -= h->section_size;
		ndf_section_close(s);
	}
	ndf_block_free(&b);
	fclose(fp);
	return n;
}

/* ndf_section_open_end(): the sections found from the end of the file,
 * streamed or not, and a file cut anywhere but between two sections
 * refused. */
static void test_open_from_end(int streamed)
{
	uint8_t *img;
	uint64_t counts[8];
	size_t n = file_image(&img, streamed);
	CHECK(walk_from_end(img, n, counts, 8) == 3);
	CHECK_EQ_U64(counts[0], 28);
	CHECK_EQ_U64(counts[1], 1);
	CHECK_EQ_U64(counts[2], 0);
	uint8_t *one = malloc(n);
	CHECK(one != NULL);
	memcpy(one, img, n);
	size_t cut_ok = 0;
	for (size_t end = 1; end < n; end++) {
		const int got = walk_from_end(img, end, counts, 8);
		if (got > 0)
			cut_ok++;
		else
			CHECK(got == -1);
	}
	CHECK_EQ_U64(cut_ok, 2); /* after the first and the second section */
	for (size_t at = n - 40; at < n - 12; at++) { /* the tail's fields */
		one[at] ^= 0x20;
		CHECK(walk_from_end(one, n, counts, 8) == -1);
		one[at] ^= 0x20;
	}
	free(one);
	free(img);
}

int main(void)
{
	log_set_level(LOG_SILENT);
	test_round_trip(0);
	test_round_trip(1);
	test_every_flip(0);
	test_every_flip(1);
	g_unchecked = 1;
	test_round_trip(0);
	test_every_flip(0);
	test_every_flip(1);
	g_mapped = 1;
	test_round_trip(0);
	test_round_trip(1);
	test_every_flip(0);
	g_unchecked = 0;
	test_every_flip(1);
	test_every_truncation();
	g_mapped = 0;
	test_every_truncation();
	test_header_faults();
	test_payload_crc_sees_content();
	test_open_from_end(0);
	test_open_from_end(1);
	return test_finish("test_ndf");
}
