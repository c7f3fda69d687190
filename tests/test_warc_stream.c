/*
 * test_warc_stream.c - the byte stream under the WARC reader on its own:
 * plain bytes arriving a few at a time, gzip members and their offsets,
 * member boundaries crossed only when asked, and damage between and
 * inside members, the input buffer of a source of unknown size (test_warc.c
 * tests the records on top).
 */
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "testutil.h"
#include "input/warc_stream.h"

/* A source in memory that hands out at most @step bytes per read. */
struct src {
	const uint8_t *p;
	size_t n, pos, step;
};

static long src_read(void *ctx, void *buf, size_t n)
{
	struct src *s = ctx;
	size_t k = s->n - s->pos;
	if (k > n)
		k = n;
	if (k > s->step)
		k = s->step;
	memcpy(buf, s->p + s->pos, k);
	s->pos += k;
	return (long)k;
}

struct bytes {
	uint8_t p[4096];
	size_t n;
};

static void put(struct bytes *b, const void *p, size_t n)
{
	CHECK(b->n + n <= sizeof b->p);
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

/* Append @text as one gzip member; @return the member's compressed size. */
static size_t put_member(struct bytes *b, const char *text)
{
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
	const size_t n = libdeflate_gzip_compress(c, text, strlen(text), b->p + b->n,
						  sizeof b->p - b->n);
	libdeflate_free_compressor(c);
	CHECK(n > 0);
	b->n += n;
	return n;
}

static void open_stream(struct warc_stream *s, struct src *src, const struct bytes *b,
			size_t step)
{
	*src = (struct src){.p = b->p, .n = b->n, .step = step};
	CHECK(warc_stream_init(s, src_read, src, "mem", 1000, (int64_t)b->n) == 0);
	CHECK(warc_stream_detect(s) == 0);
}

static int at(const struct warc_stream *s, const char *text)
{
	const size_t n = strlen(text);
	return warc_stream_avail(s) >= n && !memcmp(warc_stream_cur(s), text, n);
}

static void test_plain(void)
{
	static const char text[] = "WARC/1.1\r\nno gzip here, read seven bytes at a time\r\n";
	struct bytes b = {.n = 0};
	put(&b, text, strlen(text));
	struct warc_stream s;
	struct src src;
	open_stream(&s, &src, &b, 7);
	CHECK(!s.gzip);
	CHECK_EQ_U64(s.file_size, b.n);
	CHECK(warc_stream_need(&s, 20, 0) == 1);
	CHECK(at(&s, "WARC/1.1\r\nno gzip he"));
	warc_stream_skip(&s, 10);
	CHECK_EQ_U64(warc_stream_tell(&s), 10);
	CHECK(warc_stream_need(&s, 30, 0) == 1); /* the cursor is kept, not the window */
	CHECK(at(&s, "no gzip here, read seven bytes"));
	CHECK(warc_stream_discard(&s, 14, 0) == 1);
	CHECK(at(&s, "read seven"));
	CHECK(warc_stream_need(&s, b.n, 0) == 0); /* past the end: what there is */
	CHECK_EQ_U64(warc_stream_avail(&s), b.n - 24);
	CHECK(warc_stream_need(&s, 5000, 0) == 0); /* above the window's limit */
	CHECK_EQ_U64(s.st.bytes_in, b.n);
	uint8_t *spare = NULL;
	size_t cap = 0, written = 0;
	CHECK(!warc_stream_swap_window(&s, &spare, &cap, &written)); /* gzip only */
	warc_stream_free(&s);
}

static void test_members(void)
{
	struct bytes b = {.n = 0};
	const size_t m1 = put_member(&b, "first member\r\n");
	put_member(&b, "second\r\n");
	struct warc_stream s;
	struct src src;
	open_stream(&s, &src, &b, 5);
	CHECK(s.gzip);
	CHECK(s.file_size == -1); /* the inflated size is not known */
	CHECK(warc_stream_begin_member(&s) == 1);
	CHECK_EQ_U64(s.mem_c_start, 0);
	CHECK(warc_stream_need(&s, 14, 0) == 1);
	CHECK(at(&s, "first member\r\n"));
	CHECK(warc_stream_need(&s, 15, 0) == 0); /* the member ends there */
	CHECK(!s.member_active);
	CHECK_EQ_U64(s.mem_c_end, m1);
	CHECK(warc_stream_need(&s, 15, 1) == 1); /* crossing into the next */
	CHECK(at(&s, "first member\r\ns"));
	CHECK_EQ_U64(s.mem_c_start, m1);
	CHECK_EQ_U64(s.mem_u_start, 14);
	CHECK(warc_stream_discard(&s, 22, 1) == 1);
	CHECK_EQ_U64(warc_stream_tell(&s), 22);
	CHECK(warc_stream_need(&s, 1, 1) == 0);
	CHECK(warc_stream_begin_member(&s) == 0);
	CHECK_EQ_U64(s.mem_c_end, b.n);

	uint8_t *spare = malloc(64);
	size_t cap = 64, written = 0;
	CHECK(warc_stream_swap_window(&s, &spare, &cap, &written) == 1);
	CHECK(written >= 22);
	CHECK(s.win != NULL && s.win_cap == 64);
	free(spare);
	CHECK_EQ_U64(s.st.garbage + s.st.truncated + s.st.corrupt_gzip, 0);
	warc_stream_free(&s);
}

/* Garbage between members is one counted run, unless the caller has
 * counted it already (quiet). */
static void test_garbage(int quiet)
{
	struct bytes b = {.n = 0};
	put_member(&b, "one\r\n");
	put(&b, "junk junk", 9);
	const size_t m2 = b.n;
	put_member(&b, "two\r\n");
	struct warc_stream s;
	struct src src;
	open_stream(&s, &src, &b, 4096);
	CHECK(warc_stream_begin_member(&s) == 1);
	CHECK(warc_stream_discard(&s, 5, 0) == 1);
	warc_stream_set_quiet(&s, quiet);
	CHECK(warc_stream_begin_member(&s) == 1);
	CHECK_EQ_U64(s.mem_c_start, m2);
	CHECK(warc_stream_need(&s, 5, 0) == 1);
	CHECK(at(&s, "two\r\n"));
	CHECK_EQ_U64(s.st.garbage, quiet ? 0 : 1);
	warc_stream_free(&s);
}

/* A corrupt member is lost, counted, and the next one is found; a member
 * cut short by the end of the input is counted as truncated.  What
 * inflated before the damage stays in the window for the caller to judge. */
static void test_damage(void)
{
	struct bytes b = {.n = 0};
	const size_t m1 = put_member(&b, "a member whose deflate data is broken\r\n");
	b.p[m1 / 2] ^= 0xff;
	put_member(&b, "intact\r\n");
	const size_t m3 = put_member(&b, "cut short at the end of the file\r\n");
	b.n -= m3 / 2;
	struct warc_stream s;
	struct src src;
	open_stream(&s, &src, &b, 4096);
	CHECK(warc_stream_begin_member(&s) == 1);
	CHECK(warc_stream_need(&s, 40, 0) == WARC_STREAM_BROKEN);
	CHECK(warc_stream_avail(&s) < 40);
	CHECK(s.member_lost);
	CHECK_EQ_U64(s.st.corrupt_gzip, 1);
	warc_stream_drop(&s);
	CHECK(warc_stream_need(&s, 8, 1) == 1);
	CHECK(at(&s, "intact\r\n"));
	CHECK_EQ_U64(s.mem_c_start, m1);
	CHECK(warc_stream_discard(&s, 8, 0) == 1);
	CHECK(warc_stream_need(&s, 30, 1) == WARC_STREAM_BROKEN);
	CHECK_EQ_U64(s.st.truncated, 1);
	CHECK(warc_stream_avail(&s) < 30);
	warc_stream_drop(&s);
	CHECK(warc_stream_begin_member(&s) == 0);
	CHECK_EQ_U64(s.st.corrupt_gzip, 1);
	warc_stream_free(&s);
}

/* A source of unknown size: its buffer starts small and grows while the
 * reads fill it, up to 4 MiB; reads that never fill it keep it small.  In
 * both cases every byte comes out in order. */
static void test_unknown_size(void)
{
	const size_t n = 5u << 20;
	uint8_t *big = malloc(n);
	CHECK(big != NULL);
	for (size_t i = 0; i < n; i++)
		big[i] = (uint8_t)('a' + i % 23);
	memcpy(big, "WARC/1.0", 8);
	static const size_t steps[] = {SIZE_MAX, 3001};
	for (size_t k = 0; k < 2; k++) {
		struct src src = {.p = big, .n = n, .step = steps[k]};
		struct warc_stream s;
		CHECK(warc_stream_init(&s, src_read, &src, "pipe", 1u << 20, -1) == 0);
		CHECK_EQ_U64(s.in_cap, 64u << 10);
		CHECK(warc_stream_detect(&s) == 0);
		size_t off = 0, bad = 0;
		while (off < n) {
			CHECK(warc_stream_need(&s, 1, 0) == 1);
			const size_t a = warc_stream_avail(&s);
			bad += memcmp(warc_stream_cur(&s), big + off, a) != 0;
			warc_stream_skip(&s, a);
			off += a;
		}
		CHECK(bad == 0);
		CHECK(warc_stream_need(&s, 1, 0) == 0);
		CHECK_EQ_U64(warc_stream_tell(&s), n);
		CHECK_EQ_U64(s.in_cap, k == 0 ? 4u << 20 : 64u << 10);
		warc_stream_free(&s);
	}
	free(big);
}

int main(void)
{
	log_set_level(LOG_SILENT);
	test_plain();
	test_members();
	test_garbage(0);
	test_garbage(1);
	test_damage();
	test_unknown_size();
	return test_finish("test_warc_stream");
}
