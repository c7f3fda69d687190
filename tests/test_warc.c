/*
 * test_warc.c - the WARC reader on inputs built in memory: plain and
 * gzip layouts, offsets, header quirks, and every kind of broken input
 * (the good records around a broken one must all come out).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "util/log.h"
#include "testutil.h"
#include "input/warc.h"

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void buf_add(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void buf_str(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* A response record; @cl_delta makes Content-Length lie. */
static void add_record(struct buf *b, const char *uri, const char *body, int cl_delta)
{
	char hdr[512];
	snprintf(hdr, sizeof hdr,
		 "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n"
		 "WARC-Date: 2024-01-02T03:04:05.123456Z\r\n"
		 "Content-Length: %d\r\n\r\n",
		 uri, (int)strlen(body) + cl_delta);
	buf_str(b, hdr);
	buf_str(b, body);
	buf_str(b, "\r\n\r\n");
}

/* Append @n bytes at @p to @out as one gzip member. */
static void add_gzip(struct buf *out, const void *p, size_t n)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	CHECK(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	unsigned char *tmp = malloc(deflateBound(&zs, n) + 32);
	zs.next_in = (unsigned char *)p;
	zs.avail_in = (uInt)n;
	zs.next_out = tmp;
	zs.avail_out = (uInt)(deflateBound(&zs, n) + 32);
	CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END);
	buf_add(out, tmp, zs.total_out);
	deflateEnd(&zs);
	free(tmp);
}

/* One record as its own gzip member; returns the member's offset. */
static size_t add_gz_record(struct buf *out, const char *uri, const char *body, int cl_delta)
{
	struct buf one = {0};
	const size_t off = out->n;
	add_record(&one, uri, body, cl_delta);
	add_gzip(out, one.p, one.n);
	free(one.p);
	return off;
}

#define MAXR 16
struct result {
	int n;
	char uri[MAXR][64];
	char body[MAXR][64];
	uint64_t off[MAXR], len[MAXR];
	uint32_t flags[MAXR];
	enum warc_type type[MAXR];
	struct warc_stats st;
	int rc;
};

static void read_all(const struct buf *b, size_t max_record, struct result *res)
{
	memset(res, 0, sizeof *res);
	FILE *fp = b->n ? fmemopen(b->p, b->n, "rb") : tmpfile();
	struct warc_reader *r = warc_open(fp, "mem.warc", max_record);
	struct warc_record rec;
	int rc;
	while ((rc = warc_next(r, &rec)) == 1) {
		if (res->n < MAXR) {
			size_t ul = 0;
			const char *u = warc_target_uri(&rec, &ul);
			snprintf(res->uri[res->n], 64, "%.*s", u ? (int)ul : 0, u ? u : "");
			snprintf(res->body[res->n], 64, "%.*s", (int)rec.block_len, (const char *)rec.block);
			res->off[res->n] = rec.offset;
			res->len[res->n] = rec.length;
			res->flags[res->n] = rec.flags;
			res->type[res->n] = rec.type;
		}
		res->n++;
	}
	res->rc = rc;
	res->st = warc_reader_stats(r);
	warc_close(r);
	fclose(fp);
}

static void test_plain_quirks(void)
{
	struct buf b = {0};
	add_record(&b, "<http://a.example/>", "alpha", 0);
	const size_t off2 = b.n;
	/* WARC/1.0, bare LF, lower-case names, a continuation line */
	buf_str(&b, "WARC/1.0\nwarc-type: resource\nwarc-target-uri: http://b.example/\n"
		    "X-Long: part one\n\tpart two\ncontent-length: 4\n\nbeta\n\n");
	const size_t off3 = b.n;
	add_record(&b, "http://c.example/", "gamma", 0);
	struct result res;
	read_all(&b, 0, &res);
	CHECK(res.rc == 0);
	CHECK_EQ_U64(res.n, 3);
	CHECK(!strcmp(res.uri[0], "http://a.example/"));
	CHECK(!strcmp(res.uri[1], "http://b.example/"));
	CHECK(!strcmp(res.body[0], "alpha") && !strcmp(res.body[1], "beta"));
	CHECK(res.type[0] == WARC_RESPONSE && res.type[1] == WARC_RESOURCE);
	CHECK_EQ_U64(res.off[0], 0);
	CHECK_EQ_U64(res.off[1], off2);
	CHECK_EQ_U64(res.len[1], off3 - off2);
	CHECK_EQ_U64(res.off[2], off3);
	CHECK_EQ_U64(res.len[2], b.n - off3);
	CHECK_EQ_U64(warc_stats_skipped(&res.st), 0);

	/* the folded header and the date survive */
	FILE *fp = fmemopen(b.p, b.n, "rb");
	struct warc_reader *r = warc_open(fp, "mem", 0);
	struct warc_record rec;
	CHECK(warc_next(r, &rec) == 1);
	CHECK(!strcmp(rec.version, "WARC/1.1"));
	CHECK(!strcmp(warc_header_get(&rec, "warc-date"), "2024-01-02T03:04:05.123456Z"));
	CHECK(warc_next(r, &rec) == 1);
	CHECK(!strcmp(rec.version, "WARC/1.0"));
	CHECK(!strcmp(warc_header_get(&rec, "X-LONG"), "part one part two"));
	CHECK(warc_header_get(&rec, "WARC-Date") == NULL);
	warc_close(r);
	fclose(fp);
	free(b.p);
}

static void test_gzip_offsets(void)
{
	struct buf b = {0};
	size_t off[3];
	off[0] = add_gz_record(&b, "http://a/", "alpha", 0);
	off[1] = add_gz_record(&b, "http://b/", "beta", 0);
	off[2] = add_gz_record(&b, "http://c/", "gamma", 0);
	struct result res;
	read_all(&b, 0, &res);
	CHECK_EQ_U64(res.n, 3);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ_U64(res.off[i], off[i]);
		CHECK_EQ_U64(res.len[i], (i < 2 ? off[i + 1] : b.n) - off[i]);
		CHECK(res.flags[i] == 0);
	}
	CHECK(!strcmp(res.body[2], "gamma"));
	CHECK_EQ_U64(warc_stats_skipped(&res.st), 0);
	CHECK_EQ_U64(res.st.bytes_in, b.n);
	free(b.p);
}

static void test_gzip_corrupt_member(void)
{
	struct buf b = {0};
	char body[2048];
	for (size_t i = 0; i < sizeof body - 1; i++)
		body[i] = "lorem ipsum dolor sit amet "[i % 27] + (char)(i % 7 == 0);
	body[sizeof body - 1] = 0;
	size_t off[5];
	for (int i = 0; i < 5; i++)
		off[i] = add_gz_record(&b, "http://x/", i == 1 ? body : "ok", 0);
	memset(b.p + off[1] + 40, 0xA5, 16); /* inside member 1's deflate data */
	struct result res;
	read_all(&b, 0, &res);
	CHECK_EQ_U64(res.n, 4);
	CHECK_EQ_U64(res.st.corrupt_gzip, 1);
	CHECK_EQ_U64(res.st.garbage, 0);
	CHECK_EQ_U64(res.off[1], off[2]);
	CHECK_EQ_U64(res.off[3], off[4]);
	free(b.p);
}

static void test_garbage(void)
{
	struct buf b = {0};
	add_record(&b, "http://a/", "alpha", 0);
	buf_str(&b, "some junk\nthat is not WARC\n");
	add_record(&b, "http://b/", "beta", 0);
	struct result res;
	read_all(&b, 0, &res);
	CHECK_EQ_U64(res.n, 2);
	CHECK_EQ_U64(res.st.garbage, 1);
	CHECK(!strcmp(res.body[1], "beta"));

	/* garbage between gzip members, and before the first */
	struct buf g = {0};
	add_gz_record(&g, "http://a/", "alpha", 0);
	buf_str(&g, "JUNKJUNKJUNKJUNK");
	const size_t off = add_gz_record(&g, "http://b/", "beta", 0);
	read_all(&g, 0, &res);
	CHECK_EQ_U64(res.n, 2);
	CHECK_EQ_U64(res.st.garbage, 1);
	CHECK_EQ_U64(res.off[1], off);
	free(b.p);
	free(g.p);
}

static void test_wrong_length(void)
{
	struct buf b = {0};
	add_record(&b, "http://a/", "alpha", 0);
	add_record(&b, "http://short/", "0123456789", -3);
	add_record(&b, "http://b/", "beta", 0);
	add_record(&b, "http://long/", "0123456789", +40); /* swallows part of the next */
	add_record(&b, "http://c/", "gamma", 0);
	struct result res;
	read_all(&b, 0, &res);
	CHECK_EQ_U64(res.n, 3);
	CHECK_EQ_U64(res.st.bad_length, 2);
	CHECK_EQ_U64(res.st.garbage, 0);
	CHECK(!strcmp(res.body[1], "beta") && !strcmp(res.body[2], "gamma"));

	struct buf g = {0};
	add_gz_record(&g, "http://a/", "alpha", 0);
	add_gz_record(&g, "http://long/", "0123456789", +1000);
	add_gz_record(&g, "http://short/", "0123456789", -2);
	add_gz_record(&g, "http://b/", "beta", 0);
	read_all(&g, 0, &res);
	CHECK_EQ_U64(res.n, 2);
	CHECK_EQ_U64(res.st.bad_length, 2);
	CHECK(!strcmp(res.body[1], "beta"));

	/* a broken per-record member whose block holds a "WARC/" line: the
	 * rest of the member is dropped, not read as a record */
	struct buf e = {0};
	add_gz_record(&e, "http://a/", "alpha", 0);
	add_gz_record(&e, "http://e/", "x\r\nWARC/1.0\r\nContent-Length: 1\r\n\r\nz\r\n\r\n", -30);
	add_gz_record(&e, "http://b/", "beta", 0);
	read_all(&e, 0, &res);
	CHECK_EQ_U64(res.n, 2);
	CHECK_EQ_U64(res.st.bad_length, 1);
	CHECK(res.flags[0] == 0 && res.flags[1] == 0);
	free(e.p);
	free(b.p);
	free(g.p);
}

static void test_truncated_and_headers(void)
{
	struct buf b = {0};
	add_record(&b, "http://a/", "alpha", 0);
	add_record(&b, "http://b/", "a longer body that will be cut", 0);
	b.n -= 12;
	struct result res;
	read_all(&b, 0, &res);
	CHECK_EQ_U64(res.n, 1);
	CHECK_EQ_U64(res.st.truncated, 1);

	struct buf g = {0};
	add_gz_record(&g, "http://a/", "alpha", 0);
	add_gz_record(&g, "http://b/", "beta", 0);
	g.n -= 5;
	read_all(&g, 0, &res);
	/* the cut took the trailer only: the record inflated whole is kept,
	 * and the member is counted as truncated */
	CHECK_EQ_U64(res.n, 2);
	CHECK(!strcmp(res.body[1], "beta"));
	CHECK_EQ_U64(res.st.truncated, 1);
	g.n -= 40; /* now into the record's deflate data: lost */
	read_all(&g, 0, &res);
	CHECK_EQ_U64(res.n, 1);
	CHECK_EQ_U64(res.st.truncated, 1);
	CHECK_EQ_U64(warc_stats_skipped(&res.st), 1);

	struct buf h = {0};
	buf_str(&h, "WARC/1.1\r\nWARC-Type: response\r\n\r\nno length\r\n\r\n");
	add_record(&h, "http://a/", "alpha", 0);
	read_all(&h, 0, &res);
	CHECK_EQ_U64(res.n, 1);
	CHECK_EQ_U64(res.st.bad_header, 1);
	free(b.p);
	free(g.p);
	free(h.p);
}

static void test_whole_file_gzip(void)
{
	struct buf plain = {0}, g = {0};
	size_t off[3];
	const char *names[3] = {"alpha", "beta", "gamma"};
	for (int i = 0; i < 3; i++) {
		off[i] = plain.n;
		add_record(&plain, "http://a/", names[i], 0);
	}
	add_gzip(&g, plain.p, plain.n);
	struct result res;
	read_all(&g, 0, &res);
	CHECK_EQ_U64(res.n, 3);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ_U64(res.off[i], off[i]);
		CHECK(res.flags[i] == WARC_REC_OFFSET_UNCOMPRESSED);
		CHECK(!strcmp(res.body[i], names[i]));
	}
	CHECK_EQ_U64(warc_stats_skipped(&res.st), 0);
	free(plain.p);
	free(g.p);
}

static void test_huge(void)
{
	char big[600];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = 0;
	struct buf b = {0}, g = {0};
	add_record(&b, "http://a/", "alpha", 0);
	add_record(&b, "http://big/", big, 0);
	add_record(&b, "http://b/", "beta", 0);
	struct result res;
	read_all(&b, 100, &res);
	CHECK_EQ_U64(res.n, 2);
	CHECK_EQ_U64(res.st.huge, 1);
	CHECK_EQ_U64(warc_stats_skipped(&res.st), 1);
	add_gz_record(&g, "http://a/", "alpha", 0);
	add_gz_record(&g, "http://big/", big, 0);
	add_gz_record(&g, "http://b/", "beta", 0);
	read_all(&g, 100, &res);
	CHECK_EQ_U64(res.n, 2);
	CHECK_EQ_U64(res.st.huge, 1);
	CHECK(!strcmp(res.body[1], "beta"));
	free(b.p);
	free(g.p);
}

static void test_empty(void)
{
	struct buf b = {0};
	struct result res;
	read_all(&b, 0, &res);
	CHECK(res.rc == 0 && res.n == 0);
	CHECK_EQ_U64(warc_stats_skipped(&res.st), 0);
	buf_str(&b, "\r\n\r\n");
	read_all(&b, 0, &res);
	CHECK(res.rc == 0 && res.n == 0);
	CHECK_EQ_U64(warc_stats_skipped(&res.st), 0);
	free(b.p);
}

/* Random damage to valid files: the reader must end cleanly, never read
 * more records than were written, and never crash (run under ASan). */
static void test_random_damage(void)
{
	uint64_t seed = test_seed(20240601), st = seed;
	struct buf plain = {0}, g = {0};
	for (int i = 0; i < 12; i++) {
		char body[200];
		snprintf(body, sizeof body, "<html><body>page %d %llu</body></html>", i,
			 (unsigned long long)test_rand(&st));
		add_record(&plain, "http://r/", body, 0);
		add_gz_record(&g, "http://r/", body, 0);
	}
	for (int round = 0; round < 400; round++) {
		const struct buf *src = round & 1 ? &g : &plain;
		struct buf d = {0};
		buf_add(&d, src->p, src->n);
		const int hits = 1 + (int)(test_rand(&st) % 8);
		for (int k = 0; k < hits; k++)
			d.p[test_rand(&st) % d.n] = (unsigned char)test_rand(&st);
		if (test_rand(&st) % 4 == 0)
			d.n = (size_t)(test_rand(&st) % d.n);
		struct result res;
		read_all(&d, 4096, &res);
		CHECK(res.rc == 0);
		CHECK(res.n <= 12);
		free(d.p);
	}
	free(plain.p);
	free(g.p);
}

/* Members the one-call inflater takes only on a second try, or never:
 * one too big for the read buffer (8 MiB of random letters, ~5 MiB
 * gzipped), one that inflates past its first output space (6 MiB of one
 * letter).  With an 8 MiB record limit zlib streams both (the second
 * inflates past half the largest window); with 16 MiB libdeflate takes
 * the second with more space.  The small records around them go the fast
 * way. */
static void test_big_members(void)
{
	const size_t big = 8u << 20, flat = 6u << 20;
	char *body = malloc(big + 1), *same = malloc(flat + 1);
	uint64_t st = 42;
	for (size_t i = 0; i < big; i++)
		body[i] = (char)('a' + test_rand(&st) % 26);
	body[big] = 0;
	memset(same, 'q', flat);
	same[flat] = 0;
	struct buf g = {0};
	size_t off[4];
	off[0] = add_gz_record(&g, "http://a/", "alpha", 0);
	off[1] = add_gz_record(&g, "http://big/", body, 0);
	off[2] = add_gz_record(&g, "http://flat/", same, 0);
	off[3] = add_gz_record(&g, "http://b/", "beta", 0);
	for (int limit = 8; limit <= 16; limit += 8) {
		struct result res;
		read_all(&g, (size_t)limit << 20, &res);
		CHECK_EQ_U64(res.n, 4);
		CHECK_EQ_U64(warc_stats_skipped(&res.st), 0);
		for (int i = 1; i < 3; i++) {
			CHECK_EQ_U64(res.off[i], off[i]);
			CHECK_EQ_U64(res.len[i], off[i + 1] - off[i]);
		}
		CHECK(!strncmp(res.body[1], body, 63));
		CHECK(!strncmp(res.body[2], same, 63));
		CHECK(!strcmp(res.body[3], "beta"));
	}
	free(body);
	free(same);
	free(g.p);
}

/*
 * warc_swap_window(): records of their own gzip members leave with their
 * buffer and stay readable after the reader has moved on; a record of a
 * member that holds more (whole-file gzip) and a plain WARC's are refused
 * until nothing follows them.
 */
static void test_swap_window(void)
{
	struct buf g = {0}, plain = {0};
	const char *names[5] = {"alpha", "beta", "gamma", "delta", "omega"};
	add_gz_record(&g, "http://a/", names[0], 0);
	add_gz_record(&g, "http://b/", names[1], 0);
	for (int i = 2; i < 4; i++) /* one member holding two records */
		add_record(&plain, "http://c/", names[i], 0);
	add_gzip(&g, plain.p, plain.n);
	add_gz_record(&g, "http://d/", names[4], 0);
	FILE *fp = fmemopen(g.p, g.n, "rb");
	struct warc_reader *r = warc_open(fp, "mem.warc.gz", 0);
	struct warc_record rec;
	uint8_t *kept[5] = {0}, *spare = NULL;
	const uint8_t *block[5] = {0};
	size_t cap = 0, written[5] = {0};
	int n = 0, swaps = 0;
	while (n < 5 && warc_next(r, &rec) == 1) {
		CHECK_EQ_U64(rec.block_len, strlen(names[n]));
		block[n] = rec.block;
		if (warc_swap_window(r, &spare, &cap, &written[n])) {
			kept[n] = spare; /* the record's buffer is ours now */
			spare = NULL;
			cap = 0;
			swaps++;
		} else {
			CHECK(n == 2); /* gamma: delta follows in its member */
		}
		n++;
	}
	CHECK(warc_next(r, &rec) == 0);
	CHECK_EQ_U64(n, 5);
	CHECK_EQ_U64(swaps, 4);
	for (int i = 0; i < 5; i++)
		if (kept[i])
			CHECK(!memcmp(block[i], names[i], strlen(names[i])));
	/* how far each buffer was written: its whole member, so delta's
	 * counts gamma's record too, not its own block's few bytes */
	CHECK_EQ_U64(written[3], plain.n);
	static const char *const uris[5] = {"http://a/", "http://b/", "", "", "http://d/"};
	for (int i = 0; i < 5; i += i == 1 ? 3 : 1) {
		struct buf one = {0};
		add_record(&one, uris[i], names[i], 0);
		CHECK_EQ_U64(written[i], one.n);
		free(one.p);
	}
	for (int i = 0; i < 5; i++)
		free(kept[i]);
	warc_close(r);
	fclose(fp);
	/* plain input: the window holds what follows */
	fp = fmemopen(plain.p, plain.n, "rb");
	r = warc_open(fp, "mem.warc", 0);
	CHECK(warc_next(r, &rec) == 1);
	CHECK(!warc_swap_window(r, &spare, &cap, &written[0]));
	warc_close(r);
	fclose(fp);
	free(plain.p);
	free(g.p);
}


/* A good record, 6 MB of bare "WARC/1.0" lines (each starts a record
 * whose header never ends), a good record: both good records come out,
 * in time linear in the input (it was quadratic: half an hour). */
static void test_version_line_flood(void)
{
	struct buf b = {0};
	add_record(&b, "http://a/", "first", 0);
	for (int i = 0; i < 600000; i++)
		buf_str(&b, "WARC/1.0\r\n");
	add_record(&b, "http://b/", "second", 0);
	const double t0 = (double)clock() / CLOCKS_PER_SEC;
	struct result res;
	read_all(&b, 0, &res);
	const double secs = (double)clock() / CLOCKS_PER_SEC - t0;
	printf("6 MB of WARC/1.0 lines: %.3f s\n", secs);
	CHECK_EQ_U64(res.n, 2);
	CHECK(!strcmp(res.body[0], "first"));
	CHECK(!strcmp(res.body[1], "second"));
	CHECK(secs < 3.0); /* under 1 s unsanitized; ASan is slower */
	free(b.p);
}

/* A record whose block is not followed by CRLF CRLF: it is kept (its
 * Content-Length is right), and so is the record right after it. */
static void test_missing_terminator(void)
{
	struct buf b = {0};
	add_record(&b, "http://a/", "one", 0);
	b.n -= 4; /* drop the CRLF CRLF */
	add_record(&b, "http://b/", "two", 0);
	add_record(&b, "http://c/", "three", 0);
	struct result res;
	read_all(&b, 0, &res);
	CHECK_EQ_U64(res.n, 3);
	CHECK(!strcmp(res.body[0], "one"));
	CHECK(!strcmp(res.body[1], "two"));
	CHECK(!strcmp(res.body[2], "three"));
	/* the same at the end of a block that ends in a newline */
	struct buf c = {0};
	add_record(&c, "http://a/", "one\n", 0);
	c.n -= 4;
	add_record(&c, "http://b/", "two", 0);
	read_all(&c, 0, &res);
	CHECK_EQ_U64(res.n, 2);
	CHECK(!strcmp(res.body[1], "two"));
	free(b.p);
	free(c.p);
}

/* Plain records followed by gzip members in one file, and the reverse
 * (cat a.warc b.warc.gz): every record of both parts is read. */
static void test_plain_and_gzip_mixed(void)
{
	struct buf b = {0};
	add_record(&b, "http://a/", "p1", 0);
	add_record(&b, "http://a/", "p2", 0);
	const size_t g1 = add_gz_record(&b, "http://b/", "g1", 0);
	add_gz_record(&b, "http://b/", "g2", 0);
	struct result res;
	read_all(&b, 0, &res);
	CHECK_EQ_U64(res.n, 4);
	CHECK(!strcmp(res.body[0], "p1") && !strcmp(res.body[1], "p2"));
	CHECK(!strcmp(res.body[2], "g1") && !strcmp(res.body[3], "g2"));
	CHECK_EQ_U64(res.off[2], g1);
	CHECK_EQ_U64(warc_stats_skipped(&res.st), 0);

	struct buf c = {0};
	add_gz_record(&c, "http://b/", "g1", 0);
	add_gz_record(&c, "http://b/", "g2", 0);
	const size_t p1 = c.n;
	add_record(&c, "http://a/", "p1", 0);
	add_record(&c, "http://a/", "p2", 0);
	add_gz_record(&c, "http://b/", "g3", 0);
	read_all(&c, 0, &res);
	CHECK_EQ_U64(res.n, 5);
	CHECK(!strcmp(res.body[2], "p1") && !strcmp(res.body[3], "p2"));
	CHECK(!strcmp(res.body[4], "g3"));
	CHECK_EQ_U64(res.off[2], p1);
	CHECK_EQ_U64(warc_stats_skipped(&res.st), 0);
	free(b.p);
	free(c.p);
}

/*
 * A gzip member of two records whose second runs past the member's end,
 * then plain records (found by the fuzz_archive campaign): reading on for
 * the second record reached the plain part, which dropped the window
 * under the record's header, and the reader then skipped that header's
 * length past the window's end (win_pos > win_len: UBSan's pointer
 * overflow).  The cut record is lost, counted; the plain ones are read.
 */
static void test_member_runs_into_plain(void)
{
	struct buf two = {0}, b = {0};
	add_record(&two, "http://g/", "g1", 0);
	add_record(&two, "http://g/", "g2", 500);
	add_gzip(&b, two.p, two.n);
	const size_t p1 = b.n;
	add_record(&b, "http://p/", "p1", 0);
	add_record(&b, "http://p/", "p2", 0);
	struct result res;
	read_all(&b, 0, &res);
	CHECK_EQ_U64(res.n, 3);
	CHECK(!strcmp(res.body[0], "g1"));
	CHECK(!strcmp(res.body[1], "p1") && !strcmp(res.body[2], "p2"));
	CHECK_EQ_U64(res.off[1], p1);
	CHECK_EQ_U64(warc_stats_skipped(&res.st), 1);
	free(two.p);
	free(b.p);
}

/* Whole-file gzip damaged part way: every record before the damage is
 * kept (it was: none, "corrupt gzip member at offset 0"). */
static void test_whole_file_gzip_damage(void)
{
	struct buf plain = {0}, g = {0};
	char body[64];
	uint64_t state = 17;
	for (int i = 0; i < 400; i++) {
		/* bodies that do not compress to nothing, so the damage lands
		 * among records, not in one long back-reference */
		snprintf(body, sizeof body, "rec%d %016llx", i, (unsigned long long)test_rand(&state));
		add_record(&plain, "http://a/", body, 0);
	}
	add_gzip(&g, plain.p, plain.n);
	for (size_t k = g.n / 2; k < g.n / 2 + 8; k++)
		g.p[k] ^= 0x5a;
	struct result res;
	read_all(&g, 0, &res);
	printf("whole-file gzip damaged at 50%%: %d of 400 records\n", res.n);
	CHECK(res.n >= 150);
	CHECK(res.n < 400);
	CHECK_EQ_U64(res.st.corrupt_gzip, 1);
	CHECK(!strncmp(res.body[0], "rec0 ", 5));
	free(plain.p);
	free(g.p);
}

/* A NUL in WARC-Target-URI is not a silent cut: the URI keeps its length. */
static void test_uri_with_nul(void)
{
	struct buf b = {0};
	buf_str(&b, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a/x");
	buf_add(&b, "\0y", 2);
	buf_str(&b, "\r\nContent-Length: 2\r\n\r\nab\r\n\r\n");
	FILE *fp = fmemopen(b.p, b.n, "rb");
	struct warc_reader *r = warc_open(fp, "mem.warc", 0);
	struct warc_record rec;
	CHECK(warc_next(r, &rec) == 1);
	size_t ul = 0;
	const char *u = warc_target_uri(&rec, &ul);
	CHECK(u && ul == 12 && !memcmp(u, "http://a/x\0y", 12));
	warc_close(r);
	fclose(fp);
	free(b.p);
}

int main(void)
{
	log_init("test_warc");
	log_set_level(getenv("TEST_VERBOSE") ? LOG_DEBUG : LOG_ERROR);
	test_plain_quirks();
	test_gzip_offsets();
	test_gzip_corrupt_member();
	test_garbage();
	test_wrong_length();
	test_truncated_and_headers();
	test_whole_file_gzip();
	test_huge();
	test_empty();
	test_random_damage();
	test_big_members();
	test_swap_window();
	test_version_line_flood();
	test_missing_terminator();
	test_plain_and_gzip_mixed();
	test_member_runs_into_plain();
	test_whole_file_gzip_damage();
	test_uri_with_nul();
	return test_finish("test_warc");
}
