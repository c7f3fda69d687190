/*
 * test_http.c - HTTP response parsing and body decoding: lenient status
 * lines and headers, chunked, gzip and deflate bodies, the Common Crawl
 * X-Crawler-* headers, size caps and damaged encodings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <brotli/encode.h>

#include "input/http.h"
#include "testutil.h"

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

/* Compress with deflateInit2 windowBits @wbits: 31 gzip, 15 zlib, -15 raw. */
static void add_deflated(struct buf *out, const char *s, int wbits)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	CHECK(deflateInit2(&zs, 6, Z_DEFLATED, wbits, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	const size_t n = strlen(s), bound = deflateBound(&zs, n) + 32;
	unsigned char *tmp = malloc(bound);
	zs.next_in = (unsigned char *)(uintptr_t)s;
	zs.avail_in = (uInt)n;
	zs.next_out = tmp;
	zs.avail_out = (uInt)bound;
	CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END);
	buf_add(out, tmp, zs.total_out);
	deflateEnd(&zs);
	free(tmp);
}

static int body_is(const struct http_response *r, const char *s)
{
	return r->body_len == strlen(s) && !memcmp(r->body, s, r->body_len);
}

static int parse(struct http_decoder *d, const struct buf *b, size_t cap, struct http_response *r)
{
	return http_parse_response(d, b->p, b->n, cap, r);
}

static const char *page = "<html><head><title>T</title></head><body>hello world</body></html>";

static void test_lenient_head(struct http_decoder *d)
{
	struct http_response r;
	struct buf b = {0};
	buf_str(&b, "http/1.1 200\nContent-Type : text/html; charset=\"ISO-8859-1\"\n\nbody");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(r.status == 200);
	CHECK(r.content_type && !strcmp(r.content_type, "text/html; charset=\"ISO-8859-1\""));
	CHECK(r.charset && !strcmp(r.charset, "ISO-8859-1"));
	CHECK(body_is(&r, "body"));
	CHECK(http_type_is_html(r.content_type));

	b.n = 0;
	buf_str(&b, "HTTP/1.0 404 Not Found\r\n\r\n");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(r.status == 404 && r.body_len == 0 && r.content_type == NULL);

	b.n = 0;
	buf_str(&b, "HTTP/2 301 \r\nLocation: /x\r\n"); /* no empty line: no body */
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(r.status == 301 && r.body_len == 0);

	b.n = 0;
	buf_str(&b, "GET / HTTP/1.1\r\n\r\n");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_ERR_FORMAT);
	b.n = 0;
	buf_str(&b, "HTTP/1.1 2x0 OK\r\n\r\n");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_ERR_FORMAT);
	CHECK(parse(d, &(struct buf){(unsigned char *)"", 0, 0}, 10, &r) == HTTP_ERR_FORMAT);
	free(b.p);
}

static void test_chunked(struct http_decoder *d)
{
	struct http_response r;
	struct buf b = {0};
	buf_str(&b, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		    "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: x\r\n\r\n");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(body_is(&r, "hello world"));
	CHECK(r.flags == 0);

	/* cut inside the second chunk: the decoded part is kept */
	b.n -= 22;
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(body_is(&r, "hello wo"));
	CHECK(r.flags & HTTP_BODY_PARTIAL);

	/* the size cap */
	b.n = 0;
	buf_str(&b, "HTTP/1.1 200 OK\nTransfer-Encoding: CHUNKED\n\n5\nhello\n6\n world\n0\n\n");
	CHECK(parse(d, &b, 7, &r) == HTTP_OK);
	CHECK(body_is(&r, "hello w"));
	CHECK(r.flags & HTTP_BODY_TRUNCATED);

	/* said chunked but is not: the body is taken as it is */
	b.n = 0;
	buf_str(&b, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<html>x</html>");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(body_is(&r, "<html>x</html>"));

	/* a malformed size line ("zz", "-10"): flagged, the chunk data kept up
	 * to the next sound size line, and no size line in the body */
	const char *bad[] = {"zz", "-10", "5x"};
	for (int i = 0; i < 3; i++) {
		b.n = 0;
		buf_str(&b, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
		buf_str(&b, bad[i]);
		buf_str(&b, "\r\n<p>first part</p>\r\nb\r\n<p>more</p>\r\n0\r\n\r\n");
		CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
		CHECK(body_is(&r, "<p>first part</p><p>more</p>"));
		CHECK(r.flags & HTTP_BODY_BADCHUNK);
	}
	/* the same in a later chunk: what came before is kept too */
	b.n = 0;
	buf_str(&b, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		    "5\r\nhello\r\nzz\r\n world\r\n1\r\n!\r\n2\r\n!!\r\n0\r\n\r\n");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(body_is(&r, "hello world!!!"));
	CHECK(r.flags & HTTP_BODY_BADCHUNK);
	/* and with no sound size line after it: the rest is lost, flagged */
	b.n = 0;
	buf_str(&b, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		    "5\r\nhello\r\nzz\r\n world\r\n245\r\ny text");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(body_is(&r, "hello"));
	CHECK(r.flags & HTTP_BODY_BADCHUNK);
	free(b.p);
}

static int in_block(const struct http_response *r, const struct buf *b)
{
	return r->body >= b->p && r->body + r->body_len <= b->p + b->n;
}

/* A body of one chunk is used where it lies; a second chunk has the
 * pieces copied out, in order, whatever the split. */
static void test_chunk_in_place(struct http_decoder *d)
{
	struct http_response r;
	struct buf b = {0};
	buf_str(&b, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nb\r\nhello world\r\n0\r\n\r\n");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(body_is(&r, "hello world") && r.flags == 0 && in_block(&r, &b));
	CHECK(parse(d, &b, 5, &r) == HTTP_OK); /* capped: still in place */
	CHECK(body_is(&r, "hello") && r.flags == HTTP_BODY_TRUNCATED && in_block(&r, &b));
	b.n -= 7; /* no last chunk: the one piece, flagged */
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(body_is(&r, "hello world") && r.flags == HTTP_BODY_PARTIAL && in_block(&r, &b));

	/* gzip in one chunk: inflated from the record into the decoder */
	struct buf z = {0};
	add_deflated(&z, page, 31);
	b.n = 0;
	buf_str(&b, "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n");
	char line[32];
	snprintf(line, sizeof line, "%zx\r\n", z.n);
	buf_str(&b, line);
	buf_add(&b, z.p, z.n);
	buf_str(&b, "\r\n0\r\n\r\n");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(body_is(&r, page) && r.flags == 0 && !in_block(&r, &b));
	free(z.p);

	/* the page cut into 1 to 5 chunks at random places */
	uint64_t st = test_seed(15);
	const size_t len = strlen(page);
	for (int round = 0; round < 500; round++) {
		const int k = 1 + (int)(test_rand(&st) % 5);
		size_t cut[6] = {0};
		for (int i = 1; i < k; i++)
			cut[i] = test_rand(&st) % (len + 1);
		cut[k] = len;
		for (int i = 1; i < k; i++) /* sorted: insertion */
			for (int j = i; j > 1 && cut[j - 1] > cut[j]; j--) {
				const size_t t = cut[j];
				cut[j] = cut[j - 1];
				cut[j - 1] = t;
			}
		b.n = 0;
		buf_str(&b, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
		int pieces = 0;
		for (int i = 0; i < k; i++) {
			if (cut[i + 1] == cut[i])
				continue; /* a size 0 would end the body */
			snprintf(line, sizeof line, "%zx\r\n", cut[i + 1] - cut[i]);
			buf_str(&b, line);
			buf_add(&b, page + cut[i], cut[i + 1] - cut[i]);
			buf_str(&b, "\r\n");
			pieces++;
		}
		buf_str(&b, "0\r\n\r\n");
		CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
		CHECK(body_is(&r, page) && r.flags == 0);
		CHECK(in_block(&r, &b) == (pieces == 1));
	}
	free(b.p);
}

static void test_encodings(struct http_decoder *d)
{
	struct http_response r;
	const int wbits[3] = {31, 15, -15};
	const char *names[3] = {"gzip", "deflate", "deflate"};
	for (int i = 0; i < 3; i++) {
		struct buf b = {0};
		char h[128];
		snprintf(h, sizeof h, "HTTP/1.1 200 OK\r\nContent-Encoding: %s\r\n\r\n", names[i]);
		buf_str(&b, h);
		add_deflated(&b, page, wbits[i]);
		CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
		CHECK(body_is(&r, page));
		CHECK(r.flags == 0);
		/* capped */
		CHECK(parse(d, &b, 10, &r) == HTTP_OK);
		CHECK(r.body_len == 10 && (r.flags & HTTP_BODY_TRUNCATED));
		free(b.p);
	}

	/* chunked and gzip together: de-chunk first, then inflate */
	struct buf z = {0}, b = {0};
	add_deflated(&z, page, 31);
	buf_str(&b, "HTTP/1.1 200 OK\r\nContent-Encoding: x-gzip\r\nTransfer-Encoding: chunked\r\n\r\n");
	const size_t half = z.n / 2;
	char line[32];
	snprintf(line, sizeof line, "%zx\r\n", half);
	buf_str(&b, line);
	buf_add(&b, z.p, half);
	snprintf(line, sizeof line, "\r\n%zX\r\n", z.n - half);
	buf_str(&b, line);
	buf_add(&b, z.p + half, z.n - half);
	buf_str(&b, "\r\n0\r\n\r\n");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(body_is(&r, page));

	/* truncated gzip keeps what inflated */
	b.n = 0;
	buf_str(&b, "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n");
	buf_add(&b, z.p, z.n - 12);
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(r.flags & HTTP_BODY_PARTIAL);
	CHECK(r.body_len > 0 && !memcmp(r.body, page, r.body_len));
	free(z.p);
	free(b.p);
}

static void test_crawler_headers_and_errors(struct http_decoder *d)
{
	struct http_response r;
	struct buf b = {0};
	/* Common Crawl: body stored decoded, original headers renamed */
	buf_str(&b, "HTTP/1.1 200 OK\r\nX-Crawler-Content-Encoding: gzip\r\n"
		    "X-Crawler-Transfer-Encoding: chunked\r\nContent-Length: 66\r\n\r\n");
	buf_str(&b, page);
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(body_is(&r, page));
	CHECK(r.flags == 0);

	/* a decoded body under an unchanged Content-Encoding */
	b.n = 0;
	buf_str(&b, "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n");
	buf_str(&b, page);
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
	CHECK(body_is(&r, page));
	CHECK(r.flags & HTTP_BODY_UNDECODED);

	b.n = 0;
	buf_str(&b, "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n\x1f\x8b\x08garbage");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_ERR_DECODE);
	b.n = 0;
	buf_str(&b, "HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\nxxxx");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_ERR_ENCODING);
	CHECK(r.status == 200);
	CHECK(strcmp(http_strerror(HTTP_ERR_ENCODING), "unknown error") != 0);
	free(b.p);
}

/* Brotli bodies (Content-Encoding: br) are decoded; a cut one keeps what
 * decoded, a capped one is cut at the cap, garbage does not decode. */
static void test_brotli(struct http_decoder *d)
{
	struct http_response r;
	static char big[200000];
	static const char *const words[8] = {"brotli ", "body ", "text ", "<p>", "</p>\n",
					     "lorem ", "ipsum ", "dolor "};
	uint64_t st = 5;
	for (size_t i = 0; i + 8 < sizeof big;) {
		const char *w = words[test_rand(&st) % 8];
		memcpy(big + i, w, strlen(w));
		i += strlen(w);
	}
	const char *texts[2] = {page, big};
	for (int t = 0; t < 2; t++) {
		const size_t n = strlen(texts[t]);
		size_t enc_len = BrotliEncoderMaxCompressedSize(n);
		uint8_t *enc = malloc(enc_len);
		CHECK(BrotliEncoderCompress(5, 22, BROTLI_MODE_TEXT, n, (const uint8_t *)texts[t],
					    &enc_len, enc));
		struct buf b = {0};
		buf_str(&b, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: br\r\n\r\n");
		const size_t head = b.n;
		buf_add(&b, enc, enc_len);
		CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
		CHECK(body_is(&r, texts[t]));
		CHECK(r.flags == 0);
		CHECK(parse(d, &b, 50, &r) == HTTP_OK);
		CHECK(r.body_len == 50 && (r.flags & HTTP_BODY_TRUNCATED));
		CHECK(!memcmp(r.body, texts[t], 50));
		if (t == 1) { /* cut short: the decoded part is kept */
			b.n = head + enc_len / 2;
			CHECK(parse(d, &b, 1 << 20, &r) == HTTP_OK);
			CHECK(r.flags & HTTP_BODY_PARTIAL);
			CHECK(r.body_len > 0 && !memcmp(r.body, texts[t], r.body_len));
		}
		free(enc);
		free(b.p);
	}
	struct buf b = {0};
	buf_str(&b, "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n\xff\xff\xff\xffgarbage");
	CHECK(parse(d, &b, 1 << 20, &r) == HTTP_ERR_DECODE);
	free(b.p);
}

static void test_types(void)
{
	CHECK(http_type_is_html("text/html"));
	CHECK(http_type_is_html(" TEXT/HTML;charset=utf-8"));
	CHECK(http_type_is_html("application/xhtml+xml"));
	CHECK(!http_type_is_html("text/htmlx"));
	CHECK(!http_type_is_html("text/plain"));
	CHECK(!http_type_is_html(NULL));
	const char *yes[] = {"<!DOCTYPE html><p>", "\xef\xbb\xbf  <html>", "<!-- c --><HEAD>", "<body>"};
	for (int i = 0; i < 4; i++)
		CHECK(http_sniff_html((const uint8_t *)yes[i], strlen(yes[i])));
	CHECK(!http_sniff_html((const uint8_t *)"%PDF-1.4", 8));
	CHECK(!http_sniff_html((const uint8_t *)"<htm", 4));
}

/* Random bytes after a valid head never crash the decoders. */
static void test_random(struct http_decoder *d)
{
	uint64_t st = test_seed(77);
	const char *heads[3] = {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
				"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n",
				"HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\nTransfer-Encoding: chunked\r\n\r\n"};
	for (int round = 0; round < 300; round++) {
		struct buf b = {0};
		buf_str(&b, heads[round % 3]);
		if (round % 2)
			add_deflated(&b, page, 31);
		const size_t extra = test_rand(&st) % 64;
		for (size_t i = 0; i < extra; i++) {
			const unsigned char c = (unsigned char)test_rand(&st);
			buf_add(&b, &c, 1);
		}
		for (int k = 0; k < 4; k++)
			b.p[test_rand(&st) % b.n] ^= (unsigned char)test_rand(&st);
		struct http_response r;
		const int rc = parse(d, &b, 4096, &r);
		CHECK(rc <= 0 && rc >= HTTP_ERR_NOMEM);
		if (rc == HTTP_OK)
			CHECK(r.body_len <= 4096);
		free(b.p);
	}
}

int main(void)
{
	struct http_decoder *d = http_decoder_new();
	CHECK(d != NULL);
	test_lenient_head(d);
	test_chunked(d);
	test_chunk_in_place(d);
	test_brotli(d);
	test_encodings(d);
	test_crawler_headers_and_errors(d);
	test_types();
	test_random(d);
	http_decoder_free(d);
	http_decoder_free(NULL);
	return test_finish("test_http");
}
