/*
 * test_crawl.c - inputs of ndd-extract (crawl_input, crawl_reader): tar,
 * tar.gz, zip of WARCs and of loose HTML pages, built here with
 * libarchive's write API; detection by magic bytes whatever the name;
 * member names, offsets and flags; entries passed over; a damaged
 * archive; a plain WARC and an input without any record.
 *
 *   test_crawl             run the tests
 *   test_crawl --write DIR write the fixture archives into DIR (for
 *                          tests/t_extract.sh, so no tar or zip tool is
 *                          needed): crawl.tar, crawl.tgz, crawl.zip,
 *                          misnamed.warc (a tar)
 */
#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "input/crawl_reader.h"
#include "format/docrec.h"
#include "util/log.h"
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

/* A response record with an HTML page holding @text. */
static void add_record(struct buf *b, const char *uri, const char *text)
{
	char http[512], hdr[512];
	const int hn = snprintf(http, sizeof http,
				"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
				"<html><head><title>%s</title></head><body><p>%s, a page with "
				"enough words in it to count as the main content.</p></body></html>",
				text, text);
	const int n = snprintf(hdr, sizeof hdr,
			       "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n"
			       "WARC-Date: 2024-01-02T03:04:05.5Z\r\n"
			       "Content-Type: application/http; msgtype=response\r\n"
			       "Content-Length: %d\r\n\r\n", uri, hn);
	buf_add(b, hdr, (size_t)n);
	buf_add(b, http, (size_t)hn);
	buf_add(b, "\r\n\r\n", 4);
}

static void add_gzip(struct buf *out, const void *p, size_t n)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	CHECK(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	const size_t cap = deflateBound(&zs, n) + 32;
	unsigned char *tmp = malloc(cap);
	zs.next_in = (unsigned char *)p;
	zs.avail_in = (uInt)n;
	zs.next_out = tmp;
	zs.avail_out = (uInt)cap;
	CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END);
	buf_add(out, tmp, zs.total_out);
	deflateEnd(&zs);
	free(tmp);
}

static void add_gz_record(struct buf *out, const char *uri, const char *text, size_t *off)
{
	struct buf one = {0};
	add_record(&one, uri, text);
	*off = out->n;
	add_gzip(out, one.p, one.n);
	free(one.p);
}

enum fmt { FMT_TAR, FMT_TGZ, FMT_ZIP };

/* Offsets of the gzip members in crawl/a.warc.gz, for the checks. */
static size_t gz_off[2];

static void add_entry(struct archive *a, const char *path, const void *p, size_t n)
{
	struct archive_entry *e = archive_entry_new();
	archive_entry_set_pathname(e, path);
	archive_entry_set_size(e, (la_int64_t)n);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_mtime(e, 1700000000, 0);
	/* a name that is not UTF-8 is written as it is, with a warning */
	CHECK(archive_write_header(a, e) >= ARCHIVE_WARN);
	CHECK(archive_write_data(a, p, n) == (la_ssize_t)n);
	archive_entry_free(e);
}

/* The fixture: two WARCs, a WARC without an extension, two pages, a PNG. */
static void write_archive(const char *path, enum fmt fmt)
{
	struct buf gz = {0}, plain = {0}, noext = {0};
	add_gz_record(&gz, "http://a.example/1", "First zipped page", &gz_off[0]);
	add_gz_record(&gz, "http://a.example/2", "Second zipped page", &gz_off[1]);
	add_record(&plain, "http://b.example/", "Plain page in a plain WARC");
	add_record(&noext, "http://c.example/", "A WARC entry without extension");
	static const char page[] = "<html><head><title>Loose</title></head><body><article><p>"
				   "A loose page of the archive with its own main text.</p>"
				   "</article></body></html>";
	struct archive *a = archive_write_new();
	if (fmt == FMT_ZIP) {
		archive_write_set_format_zip(a);
	} else {
		archive_write_set_format_pax_restricted(a);
		if (fmt == FMT_TGZ)
			archive_write_add_filter_gzip(a);
	}
	CHECK(archive_write_open_filename(a, path) == ARCHIVE_OK);
	add_entry(a, "crawl/a.warc.gz", gz.p, gz.n);
	add_entry(a, "crawl/b.warc", plain.p, plain.n);
	add_entry(a, "img/logo.png", "\x89PNG\r\n\x1a\n", 8);
	add_entry(a, "pages/index.html", page, sizeof page - 1);
	add_entry(a, "pages/sub/x.HTM", page, sizeof page - 1);
	add_entry(a, "crawl/segment", noext.p, noext.n);
	CHECK(archive_write_close(a) == ARCHIVE_OK);
	archive_write_free(a);
	free(gz.p);
	free(plain.p);
	free(noext.p);
}

#define MAXR 16
struct got {
	int n;
	char file[MAXR][128], url[MAXR][64];
	uint64_t off[MAXR], id[MAXR];
	uint32_t flags[MAXR];
	int rc;
	struct crawl_reader_stats st;
};

static void read_all(char *path, struct got *g)
{
	memset(g, 0, sizeof *g);
	char *paths[1] = {path};
	struct crawl_reader *cr = crawl_reader_open(paths, 1, 7, 0);
	struct crawl_record rec;
	while ((g->rc = crawl_reader_next(cr, &rec)) == 1) {
		if (g->n < MAXR) {
			snprintf(g->file[g->n], 128, "%s", rec.file);
			snprintf(g->url[g->n], 64, "%.*s", (int)rec.url_len, rec.url);
			g->off[g->n] = rec.offset;
			g->id[g->n] = rec.doc_id;
			g->flags[g->n] = rec.doc_flags;
		}
		g->n++;
	}
	crawl_reader_get_stats(cr, &g->st);
	crawl_reader_close(cr);
}

static void check_archive(char *path)
{
	struct got g;
	char want[160];
	read_all(path, &g);
	CHECK(g.rc == 0);
	CHECK_EQ_U64(g.n, 6);
	CHECK_EQ_U64(g.st.arc.archives, 1);
	CHECK_EQ_U64(g.st.arc.members_used, 5);
	CHECK_EQ_U64(g.st.arc.members_other, 1);
	CHECK_EQ_U64(g.st.pages, 2);
	CHECK_EQ_U64(g.st.arc.bad_archive, 0);
	snprintf(want, sizeof want, "%s!crawl/a.warc.gz", path);
	CHECK(!strcmp(g.file[0], want) && !strcmp(g.file[1], want));
	CHECK(!strcmp(g.url[1], "http://a.example/2"));
	CHECK_EQ_U64(g.off[0], gz_off[0]); /* offsets within the member */
	CHECK_EQ_U64(g.off[1], gz_off[1]);
	CHECK(!strcmp(g.url[2], "http://b.example/"));
	CHECK(!strcmp(g.url[3], "pages/index.html"));
	CHECK(!strcmp(g.url[4], "pages/sub/x.HTM"));
	CHECK(!strcmp(g.url[5], "http://c.example/"));
	for (int i = 0; i < 6 && i < g.n; i++) {
		CHECK(g.flags[i] == DOC_FROM_ARCHIVE);
		CHECK_EQ_U64(g.id[i], DOC_ID(7, i));
	}
}

static void test_archives(const char *dir)
{
	static const char *names[] = {"crawl.tar", "crawl.tgz", "crawl.zip"};
	char path[512];
	for (int f = 0; f < 3; f++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[f]);
		write_archive(path, (enum fmt)f);
		check_archive(path);
	}
	/* the magic decides, not the name */
	snprintf(path, sizeof path, "%s/misnamed.warc", dir);
	write_archive(path, FMT_TAR);
	check_archive(path);
}

static void test_damaged(const char *dir)
{
	char path[512], cut[512];
	snprintf(path, sizeof path, "%s/damaged.tgz", dir);
	snprintf(cut, sizeof cut, "%s/cut.tgz", dir);
	write_archive(path, FMT_TGZ);
	FILE *in = fopen(path, "rb"), *out = fopen(cut, "wb");
	unsigned char b[1 << 16];
	const size_t n = fread(b, 1, sizeof b, in);
	fwrite(b, 1, n * 2 / 3, out); /* the gzip stream ends mid-archive */
	fclose(in);
	fclose(out);
	struct got g;
	read_all(cut, &g);
	CHECK(g.rc == 0);
	CHECK(g.n < 6);
	CHECK(g.st.arc.bad_archive + g.st.warc.truncated >= 1);
	remove(path);
	remove(cut);
}

static void test_plain_and_empty(const char *dir)
{
	char path[512];
	struct buf b = {0};
	add_record(&b, "http://p.example/", "plain");
	snprintf(path, sizeof path, "%s/plain.warc", dir);
	FILE *fp = fopen(path, "wb");
	fwrite(b.p, 1, b.n, fp);
	fclose(fp);
	struct got g;
	read_all(path, &g);
	CHECK_EQ_U64(g.n, 1);
	CHECK(!strcmp(g.file[0], path));
	CHECK(g.flags[0] == 0);
	CHECK_EQ_U64(g.st.arc.archives, 0);
	fp = fopen(path, "wb");
	fputs("not a WARC at all\n", fp);
	fclose(fp);
	read_all(path, &g);
	CHECK(g.rc == 0 && g.n == 0);
	CHECK_EQ_U64(g.st.empty_inputs, 1);
	remove(path);
	free(b.p);
}


/* Write @n bytes at @p to @path. */
static void write_file(const char *path, const void *p, size_t n)
{
	FILE *fp = fopen(path, "wb");
	CHECK(fp != NULL);
	if (!fp)
		return;
	fwrite(p, 1, n, fp);
	fclose(fp);
}

/* Bytes that are not UTF-8 (and NUL, and control bytes) in a URI, a
 * record id or an archive entry's name come out %XX-escaped: every
 * output is valid UTF-8, and a NUL no longer cuts the URI. */
static void test_bad_bytes(const char *dir)
{
	char path[512], want[600];
	struct buf b = {0};
	add_record(&b, "http://x.example/\xff\xfe/caf\xc3\xa9", "Bad bytes");
	struct buf one = {0};
	add_record(&one, "http://x.example/aXb", "NUL inside");
	char *q = memmem(one.p, one.n, "/aXb", 4);
	q[2] = 0;
	buf_add(&b, one.p, one.n);
	snprintf(path, sizeof path, "%s/bad.warc", dir);
	write_file(path, b.p, b.n);
	struct got g;
	read_all(path, &g);
	CHECK_EQ_U64(g.n, 2);
	CHECK(!strcmp(g.url[0], "http://x.example/%FF%FE/caf\xc3\xa9"));
	CHECK(!strcmp(g.url[1], "http://x.example/a%00b"));
	remove(path);

	/* an entry's name: the document's file and a loose page's URL */
	static const char page[] = "<html><body><p>page</p></body></html>";
	snprintf(path, sizeof path, "%s/bad.tar", dir);
	struct archive *a = archive_write_new();
	archive_write_set_format_pax_restricted(a);
	CHECK(archive_write_open_filename(a, path) == ARCHIVE_OK);
	add_entry(a, "p\x80q.html", page, sizeof page - 1);
	CHECK(archive_write_close(a) == ARCHIVE_OK);
	archive_write_free(a);
	read_all(path, &g);
	CHECK_EQ_U64(g.n, 1);
	CHECK(!strcmp(g.url[0], "p%80q.html"));
	snprintf(want, sizeof want, "%s!p%%80q.html", path);
	CHECK(!strcmp(g.file[0], want));
	remove(path);
	free(b.p);
	free(one.p);
}

/* An archive inside the archive, and a WARC entry without a single
 * record, are counted (and warned), not passed over silently. */
static void test_nested_and_empty(const char *dir)
{
	char inner[512], path[512];
	snprintf(inner, sizeof inner, "%s/inner.tar", dir);
	write_archive(inner, FMT_TAR);
	FILE *fp = fopen(inner, "rb");
	static unsigned char tarb[1 << 16];
	const size_t tn = fp ? fread(tarb, 1, sizeof tarb, fp) : 0;
	if (fp)
		fclose(fp);
	struct buf w = {0};
	add_record(&w, "http://n.example/", "Next to the nested archive");
	snprintf(path, sizeof path, "%s/outer.tar", dir);
	struct archive *a = archive_write_new();
	archive_write_set_format_pax_restricted(a);
	CHECK(archive_write_open_filename(a, path) == ARCHIVE_OK);
	add_entry(a, "inner.tar", tarb, tn);
	add_entry(a, "empty.warc", "not records\n", 12);
	add_entry(a, "good.warc", w.p, w.n);
	CHECK(archive_write_close(a) == ARCHIVE_OK);
	archive_write_free(a);
	struct got g;
	read_all(path, &g);
	CHECK_EQ_U64(g.n, 1);
	CHECK_EQ_U64(g.st.arc.members_nested, 1);
	CHECK_EQ_U64(g.st.empty_members, 1);
	remove(inner);
	remove(path);
	free(w.p);
}

int main(int argc, char **argv)
{
	log_init("test_crawl");
	log_set_level(getenv("TEST_VERBOSE") ? LOG_DEBUG : LOG_SILENT);
	if (argc == 3 && !strcmp(argv[1], "--write")) {
		static const char *names[] = {"crawl.tar", "crawl.tgz", "crawl.zip"};
		char path[512];
		for (int f = 0; f < 3; f++) {
			snprintf(path, sizeof path, "%s/%s", argv[2], names[f]);
			write_archive(path, (enum fmt)f);
		}
		snprintf(path, sizeof path, "%s/misnamed.warc", argv[2]);
		write_archive(path, FMT_TAR);
		return test_finish("test_crawl --write");
	}
	char dir[] = "/tmp/test_crawl.XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_archives(dir);
	test_damaged(dir);
	test_plain_and_empty(dir);
	test_bad_bytes(dir);
	test_nested_and_empty(dir);
	static const char *names[] = {"crawl.tar", "crawl.tgz", "crawl.zip", "misnamed.warc"};
	char path[600];
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		remove(path);
	}
	rmdir(dir);
	return test_finish("test_crawl");
}
