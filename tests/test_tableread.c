/*
 * test_tableread.c - the table reader, whole and streamed: round trips
 * of raw tables (with and without a leading code block) and compressed
 * ones, in batches of one block to many, on 1 to 5 threads, to a
 * consumer that leaves random amounts untaken; and the faults: a block
 * that does not decode and a flipped byte in the middle, records out of
 * order inside a block, at a block edge and at a batch edge, the first of
 * two faults reported whatever the thread count, a misplaced code block.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"
#include "tables/tableread.h"
#include "testtable.h"
#include "testutil.h"

static const int thread_counts[] = {1, 2, 5};

/* Sorted keys with runs of copies, indices below n. */
static void make_table(uint64_t *keys, uint32_t *idx, size_t n, uint64_t *rng)
{
	for (size_t i = 0; i < n; i++) {
		keys[i] = i && test_rand(rng) % 4 == 0 ? keys[i - 1]
						       : (i ? keys[i - 1] : 0) + test_rand(rng) % 1000000;
		idx[i] = (uint32_t)(test_rand(rng) % n);
	}
}

static FILE *table_file(const uint64_t *keys, const uint32_t *idx, size_t n,
			enum test_table_form form, size_t per_block, long short_block)
{
	struct design d;
	CHECK(design_make(&d, 3, 4) == 0);
	FILE *fp = tmpfile();
	CHECK(fp && test_write_table_short(fp, &d, 1, keys, idx, n, form, per_block,
					   short_block) == 0);
	design_free(&d);
	rewind(fp);
	return fp;
}

/* A consumer that checks it is given what it left, then the next records
 * of the table, and takes a random number of them. */
struct taker {
	const uint64_t *keys;
	const uint32_t *idx;
	size_t n, done, calls;
	uint64_t rng;
	int bad;
};

static int take_some(void *ctx, const uint64_t *keys, const uint32_t *idx, size_t n, int last,
		     size_t *taken)
{
	struct taker *t = ctx;
	t->calls++;
	if (t->done + n > t->n || (n && (memcmp(keys, t->keys + t->done, n * sizeof *keys) ||
					 memcmp(idx, t->idx + t->done, n * sizeof *idx))))
		t->bad = 1;
	*taken = last ? n : n ? (size_t)(test_rand(&t->rng) % (n + 1)) : 0;
	t->done += *taken;
	return 0;
}

static void round_trip(const uint64_t *keys, const uint32_t *idx, size_t n,
		       enum test_table_form form, size_t batch, struct table_arrays *ta)
{
	for (int whole = 0; whole < 2; whole++) {
		FILE *fp = table_file(keys, idx, n, form, 16 + n % 300, -1);
		int err;
		struct ndf_reader *r = ndf_reader_open(fp, "test table", &err);
		CHECK(r != NULL);
		if (!r)
			return;
		tableread_batch_records(batch);
		if (whole) {
			CHECK(tableread_section(r, ta) == 0);
			CHECK(ta->n == n && (!n || (!memcmp(ta->keys, keys, n * sizeof *keys) &&
						    !memcmp(ta->idx, idx, n * sizeof *idx))));
		} else {
			struct taker t = {keys, idx, n, 0, 0, batch, 0};
			const struct tableread_consumer c = {take_some, &t};
			uint64_t records = 0;
			CHECK(tableread_stream(r, ta, &c, &records) == 0);
			CHECK_EQ_U64(records, n);
			CHECK(!t.bad && t.done == n);
			/* a batch of one block: a call per block at least */
			CHECK(batch != 1 || t.calls >= n / (16 + n % 300));
		}
		tableread_batch_records(0);
		ndf_reader_close(r);
		fclose(fp);
	}
}

static void test_round_trips(uint64_t *rng)
{
	static const size_t sizes[] = {0, 1, 17, 1000, 30000};
	static const size_t batches[] = {1, 37, 5000, 0};
	struct table_arrays ta = {0}; /* reused, as the stages do */
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		const size_t n = sizes[s];
		uint64_t *keys = malloc((n + 1) * sizeof *keys);
		uint32_t *idx = malloc((n + 1) * sizeof *idx);
		make_table(keys, idx, n, rng);
		for (int form = TEST_RAW; form <= TEST_PREFIX; form++)
			for (size_t b = 0; b < sizeof batches / sizeof *batches; b++) {
				test_set_threads(thread_counts[(s + b) % 3]);
				round_trip(keys, idx, n, (enum test_table_form)form, batches[b], &ta);
			}
		free(keys);
		free(idx);
	}
	table_arrays_free(&ta);
}

/* Read the table in @fp streamed (taking everything offered) with
 * @threads threads and batches of @batch records; @return its result,
 * with the error message in @msg. */
static int read_faulty(FILE *fp, int threads, size_t batch, char *msg, size_t msg_size)
{
	rewind(fp);
	fflush(stderr);
	FILE *err_fp = tmpfile();
	const int saved = dup(2);
	dup2(fileno(err_fp), 2);
	log_set_level(LOG_ERROR);
	test_set_threads(threads);
	tableread_batch_records(batch);
	int err, rc = -100;
	struct ndf_reader *r = ndf_reader_open(fp, "test table", &err);
	if (r) {
		struct table_arrays ta = {0};
		uint64_t records;
		rc = tableread_stream(r, &ta, NULL, &records);
		table_arrays_free(&ta);
	}
	ndf_reader_close(r);
	tableread_batch_records(0);
	log_set_level(LOG_SILENT);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(err_fp);
	const size_t len = fread(msg, 1, msg_size - 1, err_fp);
	msg[len] = 0;
	fclose(err_fp);
	return rc;
}

/* Offset of data block @b of the section in @fp (block 0 is the first
 * after a code block). */
static uint64_t block_offset(FILE *fp, uint64_t b)
{
	rewind(fp);
	int err;
	struct ndf_reader *r = ndf_reader_open(fp, "test table", &err);
	struct ndf_block blk = {0};
	uint64_t off = 0;
	for (uint64_t i = 0; r && ndf_read_block(r, &blk) > 0;)
		if (blk.codec != NDF_CODEC_CODE && i++ == b) {
			off = blk.offset;
			break;
		}
	ndf_block_free(&blk);
	ndf_reader_close(r);
	return off;
}

/* The fault in @fp is reported as @rc with "offset @offset" and @what,
 * the same on any thread count and batch size. */
static void expect_fault(FILE *fp, int rc, uint64_t offset, const char *what)
{
	char want[64], msg[1024];
	snprintf(want, sizeof want, "'test table': offset %llu: ", (unsigned long long)offset);
	for (size_t i = 0; i < sizeof thread_counts / sizeof *thread_counts; i++)
		for (size_t batch = 1; batch < 100000; batch *= 40) {
			const int got = read_faulty(fp, thread_counts[i], batch, msg, sizeof msg);
			CHECK(got == rc);
			CHECK(strstr(msg, want) != NULL);
			CHECK(strstr(msg, what) != NULL);
			if (got != rc || !strstr(msg, want) || !strstr(msg, what))
				fprintf(stderr, "expected %s...%s, got %d: %s", want, what, got, msg);
		}
}

static void test_faults(uint64_t *rng)
{
	const size_t n = 5000, per_block = 64;
	uint64_t *keys = malloc(n * sizeof *keys);
	uint32_t *idx = malloc(n * sizeof *idx);
	make_table(keys, idx, n, rng);
	for (size_t i = 1; i < n; i++) /* distinct keys: any swap is a disorder */
		keys[i] = keys[i - 1] + 1 + test_rand(rng) % 1000;

	/* a block in the middle that does not decode, raw and compressed */
	for (int form = TEST_RAW; form <= TEST_PREFIX; form++) {
		FILE *fp = table_file(keys, idx, n, (enum test_table_form)form, per_block, 40);
		expect_fault(fp, NDF_ERR_FORMAT, block_offset(fp, 40), "does not decode");
		fclose(fp);
	}
	/* a byte flipped in the middle: the container's checksum */
	FILE *fp = table_file(keys, idx, n, TEST_PREFIX, per_block, -1);
	const uint64_t off = block_offset(fp, 40), at = off + NDF_BLOCK_HEADER + 5;
	fseek(fp, (long)at, SEEK_SET);
	const int c = fgetc(fp);
	fseek(fp, (long)at, SEEK_SET);
	fputc(c ^ 0x10, fp);
	fflush(fp);
	expect_fault(fp, NDF_ERR_CHECKSUM, off, "checksum");
	fclose(fp);

	/* out of order: inside block 10, at the edge of blocks 20/21, at
	 * the edge of blocks 39/40 in compressed blocks (each block is
	 * sorted, the table is not) */
	static const size_t swap_at[] = {10 * 64 + 7, 21 * 64 - 1, 40 * 64 - 1};
	for (size_t s = 0; s < 3; s++) {
		const size_t p = swap_at[s];
		uint64_t x = keys[p];
		keys[p] = keys[p + 1];
		keys[p + 1] = x;
		char what[64];
		snprintf(what, sizeof what, "record %zu of table 1 is out of order", p + 1);
		fp = table_file(keys, idx, n, s == 2 ? TEST_PREFIX : TEST_RAW, per_block, -1);
		expect_fault(fp, NDF_ERR_FORMAT, block_offset(fp, (p + 1) / per_block), what);
		fclose(fp);
		/* and a block that does not decode after it: the first fault wins */
		fp = table_file(keys, idx, n, TEST_RAW, per_block, (long)((p + 1) / per_block + 1));
		expect_fault(fp, NDF_ERR_FORMAT, block_offset(fp, (p + 1) / per_block), what);
		fclose(fp);
		x = keys[p];
		keys[p] = keys[p + 1];
		keys[p + 1] = x;
	}
	/* the decode fault first, then disorder in the next block */
	keys[31 * 64 + 3] = 0;
	fp = table_file(keys, idx, n, TEST_RAW, per_block, 30);
	expect_fault(fp, NDF_ERR_FORMAT, block_offset(fp, 30), "does not decode");
	fclose(fp);
	free(keys);
	free(idx);
}

/* A code block after a data block, and two code blocks: refused. */
static void test_code_block(void)
{
	struct design d;
	CHECK(design_make(&d, 3, 4) == 0);
	uint8_t raw[TABLE_RAW_RECORD], code_bytes[64];
	uint64_t hist[CODEC_SYMBOLS] = {0};
	struct codec code;
	CHECK(codec_build(&code, hist) == 0);
	codec_serialize(&code, code_bytes);
	tablefile_put_raw(raw, 5, 0);
	for (int twice = 0; twice < 2; twice++) {
		struct ndf_header h;
		tablefile_header(&h, NDF_KIND_TABLE, &d, 0, 1, 2);
		FILE *fp = tmpfile();
		struct ndf_writer *w = ndf_writer_open(fp, "test table", &h);
		CHECK(w != NULL);
		if (twice)
			CHECK(ndf_write_block(w, 0, NDF_CODEC_CODE, 0, code_bytes,
					      codec_serialized_size()) == 0);
		else
			CHECK(ndf_write_block(w, 1, NDF_CODEC_RAW, 5, raw, sizeof raw) == 0);
		CHECK(ndf_write_block(w, 0, NDF_CODEC_CODE, 0, code_bytes, codec_serialized_size()) ==
		      0);
		CHECK(ndf_write_block(w, 1, NDF_CODEC_RAW, 5, raw, sizeof raw) == 0);
		CHECK(ndf_writer_finish(w) == 0);
		char msg[1024];
		CHECK(read_faulty(fp, 2, 0, msg, sizeof msg) == NDF_ERR_FORMAT);
		CHECK(strstr(msg, "misplaced code block") != NULL);
		fclose(fp);
	}
	design_free(&d);
}

int main(void)
{
	uint64_t rng = test_seed(20261122);
	log_set_level(LOG_SILENT);
	test_round_trips(&rng);
	test_faults(&rng);
	test_code_block();
	return test_finish("test_tableread");
}
