/*
 * inflate_floor.c - the floor for ndd-extract: inflate a .warc.gz member
 * by member and throw the output away, with zlib (streaming, as the WARC
 * reader falls back to) and with libdeflate (one call per member, as the
 * reader's fast path does).  Nothing else: no WARC parsing, no copying.
 *
 * A third line, "bodies", is libdeflate's again plus what ndd-extract
 * must inflate on top of the members: each response's HTTP body decoded
 * as it decodes it (http_parse_response(): de-chunked, a gzip, deflate
 * or br Content-Encoding undone); its out_MB is the decoded bodies.  A
 * crawl whose servers sent gzip inflates those pages twice, and the
 * members' floor does not count the second time.
 *
 *   inflate_floor [-r ROUNDS] FILE.warc.gz
 *
 * The file is mapped; its pages are touched once before timing so both
 * inflaters see it in memory.  Each inflater runs ROUNDS times (default
 * 3) and the best CPU time is reported, with compressed and inflated
 * MB/s: one line per inflater, "name seconds members in_MB out_MB".
 */
#include <fcntl.h>
#include <libdeflate.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "input/http.h"

#define OUT_CAP (64u << 20)

struct result {
	double secs;
	uint64_t members, out_bytes;
};

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* zlib, member by member, through a 256 KiB output buffer. */
static int run_zlib(const uint8_t *p, size_t n, uint8_t *out, struct result *res)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (inflateInit2(&zs, 31) != Z_OK)
		return -1;
	size_t pos = 0;
	while (pos < n) {
		inflateReset(&zs);
		zs.next_in = (uint8_t *)p + pos;
		zs.avail_in = (uInt)(n - pos > UINT32_MAX ? UINT32_MAX : n - pos);
		int rc;
		do {
			zs.next_out = out;
			zs.avail_out = 256u << 10;
			rc = inflate(&zs, Z_NO_FLUSH);
			res->out_bytes += (256u << 10) - zs.avail_out;
		} while (rc == Z_OK);
		if (rc != Z_STREAM_END) {
			fprintf(stderr, "inflate_floor: zlib: bad member at %zu\n", pos);
			inflateEnd(&zs);
			return -1;
		}
		pos = (size_t)(zs.next_in - p);
		res->members++;
	}
	inflateEnd(&zs);
	return 0;
}

/* libdeflate, one call per member. */
static int run_libdeflate(const uint8_t *p, size_t n, uint8_t *out, struct result *res)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	if (!d)
		return -1;
	size_t pos = 0;
	while (pos < n) {
		size_t used = 0, got = 0;
		if (libdeflate_gzip_decompress_ex(d, p + pos, n - pos, out, OUT_CAP, &used, &got)) {
			fprintf(stderr, "inflate_floor: libdeflate: bad member at %zu\n", pos);
			libdeflate_free_decompressor(d);
			return -1;
		}
		pos += used;
		res->out_bytes += got;
		res->members++;
	}
	libdeflate_free_decompressor(d);
	return 0;
}

/* The block of the WARC record at @rec (@n bytes), by its Content-Length;
 * NULL if there is none. */
static const uint8_t *record_block(const uint8_t *rec, size_t n, size_t *len)
{
	const uint8_t *end = memmem(rec, n, "\r\n\r\n", 4);
	const uint8_t *cl = end ? memmem(rec, (size_t)(end - rec), "\r\nContent-Length:", 17) : NULL;
	if (!cl)
		return NULL;
	const size_t off = (size_t)(end + 4 - rec);
	const unsigned long long v = strtoull((const char *)cl + 17, NULL, 10);
	if (v > n - off)
		return NULL;
	*len = (size_t)v;
	return end + 4;
}

/* libdeflate per member, then the record's HTTP body decoded. */
static int run_bodies(const uint8_t *p, size_t n, uint8_t *out, struct result *res)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	struct http_decoder *hd = http_decoder_new();
	if (!d || !hd)
		return -1;
	size_t pos = 0;
	while (pos < n) {
		size_t used = 0, got = 0, blen = 0;
		if (libdeflate_gzip_decompress_ex(d, p + pos, n - pos, out, OUT_CAP, &used, &got)) {
			fprintf(stderr, "inflate_floor: libdeflate: bad member at %zu\n", pos);
			return -1;
		}
		pos += used;
		res->members++;
		const uint8_t *block = record_block(out, got, &blen);
		struct http_response r;
		if (block && blen >= 5 && !memcmp(block, "HTTP/", 5) &&
		    http_parse_response(hd, block, blen, OUT_CAP, &r) == HTTP_OK)
			res->out_bytes += r.body_len;
	}
	http_decoder_free(hd);
	libdeflate_free_decompressor(d);
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = 3, opt, bad = 0;
	while ((opt = getopt(argc, argv, "r:")) != -1) {
		if (opt == 'r')
			rounds = atoi(optarg);
		else
			bad = 1;
	}
	if (bad || optind + 1 != argc || rounds < 1) {
		fprintf(stderr, "usage: inflate_floor [-r ROUNDS] FILE\n");
		return 2;
	}
	const int fd = open(argv[optind], O_RDONLY);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) || sb.st_size == 0) {
		perror(argv[optind]);
		return 2;
	}
	const size_t n = (size_t)sb.st_size;
	const uint8_t *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
	uint8_t *out = malloc(OUT_CAP);
	if (p == MAP_FAILED || !out) {
		perror("inflate_floor");
		return 2;
	}
	unsigned sum = 0;
	for (size_t i = 0; i < n; i += 4096)
		sum += p[i];
	static const struct {
		const char *name;
		int (*run)(const uint8_t *, size_t, uint8_t *, struct result *);
	} inflaters[] = {{"zlib", run_zlib}, {"libdeflate", run_libdeflate}, {"bodies", run_bodies}};
	for (size_t k = 0; k < sizeof inflaters / sizeof inflaters[0]; k++) {
		struct result best = {0};
		for (int r = 0; r < rounds; r++) {
			struct result res = {0};
			const double t0 = cpu_now();
			if (inflaters[k].run(p, n, out, &res))
				return 1;
			res.secs = cpu_now() - t0;
			if (r == 0 || res.secs < best.secs)
				best = res;
		}
		printf("%s %.3f %llu %.1f %.1f\n", inflaters[k].name, best.secs,
		       (unsigned long long)best.members, (double)n / 1e6, (double)best.out_bytes / 1e6);
	}
	fprintf(stderr, "inflate_floor: page sum %u\n", sum & 0xff); /* keeps the touch loop */
	munmap((void *)p, n);
	free(out);
	close(fd);
	return 0;
}
