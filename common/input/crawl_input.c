/*
 * crawl_input.c - see crawl_input.h.
 *
 * The first 4 KiB of the input are read ahead to tell an archive from a
 * WARC.  They are then served again to whoever reads the input: the WARC
 * reader through crawl_input_read(), or libarchive through its read
 * callback; a regular file is rewound instead, so libarchive may seek in
 * it (a zip's central directory is at the end).  Entries whose name says
 * nothing are sniffed the same way, from their first 512 bytes.
 */
#include "input/crawl_input.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <zlib.h>

#include "util/log.h"

#define PEEK 4096
#define MEMBER_PEEK 512
#define ARCHIVE_BUF (256u << 10)

struct crawl_input {
	FILE *fp;
	const char *name;
	int64_t file_size; /* regular file, else -1 */
	uint8_t peek[PEEK];
	size_t peek_len, peek_pos;

	struct archive *a; /* NULL for a plain WARC input */
	uint8_t *abuf;
	int plain_done;    /* the plain input's one member was handed out */
	int ended;         /* archive over (end or damage) */

	char *mname;       /* "ARCHIVE!PATH" */
	size_t mname_cap;
	uint8_t mpeek[MEMBER_PEEK];
	size_t mpeek_len, mpeek_pos;
	int member_eof;
	struct crawl_input_stats st;
};

/* ---- raw input: the read-ahead bytes, then the FILE ---- */

static long raw_read(struct crawl_input *in, void *buf, size_t n)
{
	if (in->peek_pos < in->peek_len) {
		size_t k = in->peek_len - in->peek_pos;
		if (k > n)
			k = n;
		memcpy(buf, in->peek + in->peek_pos, k);
		in->peek_pos += k;
		return (long)k;
	}
	const size_t got = fread(buf, 1, n, in->fp);
	return got == 0 && ferror(in->fp) ? -1 : (long)got;
}

/* Up to @outn bytes of the gzip stream at @p inflated into @out.
 * @return bytes inflated (fewer on damage or short input). */
static size_t gunzip_prefix(const uint8_t *p, size_t n, uint8_t *out, size_t outn)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (inflateInit2(&zs, 31) != Z_OK)
		return 0;
	zs.next_in = (uint8_t *)p;
	zs.avail_in = (uInt)n;
	zs.next_out = out;
	zs.avail_out = (uInt)outn;
	(void)inflate(&zs, Z_SYNC_FLUSH);
	const size_t got = outn - zs.avail_out;
	inflateEnd(&zs);
	return got;
}

static int is_gzip(const uint8_t *p, size_t n)
{
	return n >= 3 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8;
}

static int is_tar(const uint8_t *p, size_t n)
{
	return n >= 262 && !memcmp(p + 257, "ustar", 5);
}

/* An archive libarchive should read, judged from the first bytes. */
static int sniff_archive(const uint8_t *p, size_t n)
{
	static const uint8_t xz[6] = {0xfd, '7', 'z', 'X', 'Z', 0}, zst[4] = {0x28, 0xb5, 0x2f, 0xfd};
	if (n >= 4 && p[0] == 'P' && p[1] == 'K' && ((p[2] == 3 && p[3] == 4) || (p[2] == 5 && p[3] == 6)))
		return 1;
	if (is_tar(p, n))
		return 1;
	if ((n >= 3 && !memcmp(p, "BZh", 3)) || (n >= 6 && !memcmp(p, xz, 6)) ||
	    (n >= 4 && !memcmp(p, zst, 4)))
		return 1;
	if (is_gzip(p, n)) {
		uint8_t head[512];
		return is_tar(head, gunzip_prefix(p, n, head, sizeof head));
	}
	return 0;
}

/* Bytes that start a WARC, plain or gzip. */
static int sniff_warc(const uint8_t *p, size_t n)
{
	if (n >= 5 && !memcmp(p, "WARC/", 5))
		return 1;
	uint8_t head[8];
	return is_gzip(p, n) && gunzip_prefix(p, n, head, 5) == 5 && !memcmp(head, "WARC/", 5);
}

/* ---- libarchive callbacks ---- */

static la_ssize_t ar_read(struct archive *a, void *ctx, const void **buf)
{
	struct crawl_input *in = ctx;
	const long n = raw_read(in, in->abuf, ARCHIVE_BUF);
	if (n < 0) {
		archive_set_error(a, errno, "read error");
		return -1;
	}
	*buf = in->abuf;
	return n;
}

static la_int64_t ar_seek(struct archive *a, void *ctx, la_int64_t off, int whence)
{
	struct crawl_input *in = ctx;
	(void)a;
	if (fseeko(in->fp, (off_t)off, whence))
		return ARCHIVE_FATAL;
	return (la_int64_t)ftello(in->fp);
}

static la_int64_t ar_skip(struct archive *a, void *ctx, la_int64_t n)
{
	struct crawl_input *in = ctx;
	(void)a;
	return fseeko(in->fp, (off_t)n, SEEK_CUR) ? 0 : n;
}

static int archive_start(struct crawl_input *in)
{
	in->abuf = malloc(ARCHIVE_BUF);
	in->a = archive_read_new();
	if (!in->abuf || !in->a) {
		log_error("%s: out of memory", in->name);
		return -1;
	}
	archive_read_support_filter_all(in->a);
	archive_read_support_format_tar(in->a);
	archive_read_support_format_zip(in->a);
	archive_read_set_callback_data(in->a, in);
	archive_read_set_read_callback(in->a, ar_read);
	if (in->file_size >= 0 && fseeko(in->fp, 0, SEEK_SET) == 0) {
		in->peek_len = in->peek_pos = 0; /* read it again from the file */
		archive_read_set_seek_callback(in->a, ar_seek);
		archive_read_set_skip_callback(in->a, ar_skip);
	}
	in->st.archives = 1;
	if (archive_read_open1(in->a) != ARCHIVE_OK) {
		/* damaged input, not a failure of the run: counted, and the
		 * archive reads as empty */
		in->st.bad_archive++;
		in->ended = 1;
		log_warn("%s: cannot read the archive: %s", in->name, archive_error_string(in->a));
	}
	return 0;
}

struct crawl_input *crawl_input_open(FILE *fp, const char *name)
{
	struct crawl_input *in = calloc(1, sizeof *in);
	if (!in) {
		log_error("%s: out of memory", name);
		return NULL;
	}
	in->fp = fp;
	in->name = name;
	in->file_size = -1;
	struct stat sb;
	if (fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && ftello(fp) == 0)
		in->file_size = sb.st_size;
	while (in->peek_len < PEEK) {
		const size_t got = fread(in->peek + in->peek_len, 1, PEEK - in->peek_len, fp);
		if (got == 0)
			break;
		in->peek_len += got;
	}
	if (ferror(fp)) {
		log_error("cannot read '%s': %s", name, strerror(errno));
		goto fail;
	}
	if (sniff_archive(in->peek, in->peek_len) && archive_start(in))
		goto fail;
	return in;
fail:
	crawl_input_close(in);
	return NULL;
}

/* ---- members ---- */

static int ends_with(const char *s, const char *suffix)
{
	const size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcasecmp(s + n - k, suffix);
}

static void damaged(struct crawl_input *in, const char *what)
{
	in->st.bad_archive++;
	log_warn("%s: damaged archive (%s): %s; the rest of it is lost", in->name, what,
		 archive_error_string(in->a) ? archive_error_string(in->a) : "unknown error");
}

/* Read the entry's first bytes into mpeek. */
static void member_peek(struct crawl_input *in)
{
	while (in->mpeek_len < MEMBER_PEEK) {
		const la_ssize_t n = archive_read_data(in->a, in->mpeek + in->mpeek_len,
						       MEMBER_PEEK - in->mpeek_len);
		if (n <= 0) {
			if (n < 0) {
				damaged(in, "entry data");
				in->ended = 1;
			}
			in->member_eof = 1;
			break;
		}
		in->mpeek_len += (size_t)n;
	}
}

/* What entry @path is: 1 WARC or HTML (kind in *@kind), 0 pass over it. */
static int classify(struct crawl_input *in, const char *path, enum crawl_kind *kind)
{
	if (ends_with(path, ".html") || ends_with(path, ".htm")) {
		*kind = CRAWL_HTML;
		return 1;
	}
	*kind = CRAWL_WARC;
	if (ends_with(path, ".warc") || ends_with(path, ".warc.gz"))
		return 1;
	member_peek(in);
	return sniff_warc(in->mpeek, in->mpeek_len);
}

static int set_name(struct crawl_input *in, const char *path)
{
	const size_t need = strlen(in->name) + strlen(path) + 2;
	if (need > in->mname_cap) {
		char *p = realloc(in->mname, need);
		if (!p) {
			log_error("%s: out of memory", in->name);
			return -1;
		}
		in->mname = p;
		in->mname_cap = need;
	}
	snprintf(in->mname, need, "%s!%s", in->name, path);
	return 0;
}

static int next_entry(struct crawl_input *in, struct crawl_member *m)
{
	struct archive_entry *e;
	while (!in->ended) {
		in->mpeek_len = in->mpeek_pos = 0;
		in->member_eof = 0;
		const int rc = archive_read_next_header(in->a, &e);
		if (rc == ARCHIVE_EOF)
			break;
		if (rc == ARCHIVE_FATAL) {
			damaged(in, "entry header");
			break;
		}
		if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
			damaged(in, "entry header");
			continue; /* ARCHIVE_RETRY / FAILED: this entry only */
		}
		const char *path = archive_entry_pathname(e);
		if (archive_entry_filetype(e) != AE_IFREG || !path)
			continue;
		if (!classify(in, path, &m->kind)) {
			in->st.members_other++;
			member_peek(in);
			if (sniff_archive(in->mpeek, in->mpeek_len)) {
				in->st.members_nested++;
				log_warn("%s!%s: an archive inside the archive is not read; "
					 "unpack it to give its WARCs to ndd-extract", in->name, path);
			} else {
				log_debug("%s!%s: neither WARC nor HTML; passed over", in->name, path);
			}
			continue;
		}
		if (set_name(in, path))
			return -1;
		in->st.members_used++;
		m->name = in->mname;
		m->path = path;
		m->size = archive_entry_size_is_set(e) ? (int64_t)archive_entry_size(e) : -1;
		m->mtime = archive_entry_mtime_is_set(e) ? (int64_t)archive_entry_mtime(e) : -1;
		m->from_archive = 1;
		return 1;
	}
	in->ended = 1;
	return 0;
}

int crawl_input_next(struct crawl_input *in, struct crawl_member *m)
{
	memset(m, 0, sizeof *m);
	if (in->a)
		return next_entry(in, m);
	if (in->plain_done)
		return 0;
	in->plain_done = 1;
	m->kind = CRAWL_WARC;
	m->name = in->name;
	m->size = in->file_size;
	m->mtime = -1;
	return 1;
}

long crawl_input_read(void *ctx, void *buf, size_t n)
{
	struct crawl_input *in = ctx;
	if (!in->a)
		return raw_read(in, buf, n);
	if (in->mpeek_pos < in->mpeek_len) {
		size_t k = in->mpeek_len - in->mpeek_pos;
		if (k > n)
			k = n;
		memcpy(buf, in->mpeek + in->mpeek_pos, k);
		in->mpeek_pos += k;
		return (long)k;
	}
	if (in->member_eof)
		return 0;
	const la_ssize_t got = archive_read_data(in->a, buf, n);
	if (got < 0) {
		damaged(in, "entry data");
		in->ended = 1;
	}
	if (got <= 0)
		in->member_eof = 1;
	return got > 0 ? (long)got : 0;
}

int crawl_input_slurp(struct crawl_input *in, size_t max, uint8_t **buf, size_t *len,
		      size_t *cap)
{
	*len = 0;
	for (;;) {
		if (*cap - *len < 65536) {
			const size_t ncap = *cap ? *cap * 2 : 65536;
			uint8_t *p = realloc(*buf, ncap);
			if (!p) {
				log_error("%s: out of memory", in->name);
				return -1;
			}
			*buf = p;
			*cap = ncap;
		}
		const long n = crawl_input_read(in, *buf + *len, *cap - *len);
		if (n < 0) {
			log_error("cannot read '%s': %s", in->name, strerror(errno));
			return -1;
		}
		if (n == 0)
			return 0;
		*len += (size_t)n;
		if (*len > max) {
			*len = 0;
			return 1;
		}
	}
}

int crawl_input_is_archive(const struct crawl_input *in)
{
	return in->a != NULL;
}

const struct crawl_input_stats *crawl_input_stats(const struct crawl_input *in)
{
	return &in->st;
}

void crawl_input_close(struct crawl_input *in)
{
	if (!in)
		return;
	if (in->a)
		archive_read_free(in->a);
	free(in->abuf);
	free(in->mname);
	free(in);
}
