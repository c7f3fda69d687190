/*
 * warc.c - the WARC record reader (see warc.h), over the byte stream of
 * warc_stream.h; header folding is in warc_header.c.
 *
 * A record: find "WARC/" at a line start, read the header up to the empty
 * line, fold it, check Content-Length and the CRLF CRLF that ends it:
 *
 *   WARC/1.1\r\n
 *   WARC-Type: response\r\n
 *   Content-Length: 1234\r\n
 *   \r\n
 *   <1234 bytes of block>\r\n
 *   \r\n
 */
#include "input/warc.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"

#define WARC_MAX_HEADER (256u << 10) /* a WARC header bigger than this is broken */
#define WARC_LOSSES_LISTED 3 /* broken records in a row warned one by one; the rest summed up */

/*
 * While a record is parsed the stream's cursor stays at its first byte
 * and every position is relative to it.
 */
struct warc_reader {
	struct warc_stream s;
	size_t max_record;
	int failed;
	int warned_multi;
	int seen_multi;     /* a member held more than one record */
	int per_member;     /* the record being read must fill its gzip member */
	struct warc_hdrbuf hb;
	struct warc_stats st; /* the record layer's counts; the stream keeps its own */
	uint64_t run_lost;    /* records lost since the last one returned */
};

enum { REC_END = 0, REC_OK = 1, REC_SKIP = 2, REC_FATAL = -1 };

uint64_t warc_stats_skipped(const struct warc_stats *s)
{
	return s->garbage + s->bad_header + s->bad_length + s->huge +
	       s->truncated + s->corrupt_gzip;
}

void warc_stats_add(struct warc_stats *a, const struct warc_stats *b)
{
	a->records += b->records;
	a->bytes_in += b->bytes_in;
	a->garbage += b->garbage;
	a->bad_header += b->bad_header;
	a->bad_length += b->bad_length;
	a->huge += b->huge;
	a->truncated += b->truncated;
	a->corrupt_gzip += b->corrupt_gzip;
}

/* ---- record layer ---- */

const char *warc_header_get(const struct warc_record *rec, const char *name)
{
	return warc_header_find(rec->headers, rec->n_headers, name);
}

const char *warc_target_uri(const struct warc_record *rec, size_t *len)
{
	const struct warc_header *f =
		warc_header_field(rec->headers, rec->n_headers, "WARC-Target-URI");
	if (!f)
		return NULL;
	const char *v = f->value;
	size_t n = f->value_len; /* a NUL in it is kept: the caller escapes it */
	if (n >= 2 && v[0] == '<' && v[n - 1] == '>') {
		v++;
		n -= 2;
	}
	*len = n;
	return v;
}

/*
 * Length of the header at the cursor up to and including its empty line.
 * @return the length, 0 if there is none within WARC_MAX_HEADER or before
 * the stream ends (*ended set then) or a "WARC/" line comes first (*next
 * set to its offset), or a negative stream fault.
 */
static long header_end(struct warc_reader *r, int cross, int *ended, size_t *next)
{
	size_t scanned = 0;
	*ended = 0;
	for (;;) {
		const size_t a = warc_stream_avail(&r->s);
		const size_t len = warc_header_end(warc_stream_cur(&r->s),
						   a < WARC_MAX_HEADER ? a : WARC_MAX_HEADER,
						   &scanned, next);
		if (len || *next)
			return (long)len;
		if (a >= WARC_MAX_HEADER)
			return 0;
		const size_t want = a + 4096 < WARC_MAX_HEADER ? a + 4096 : WARC_MAX_HEADER;
		int rc = warc_stream_need(&r->s, want, cross);
		if (rc < 0)
			return rc;
		if (rc == 0 && warc_stream_avail(&r->s) == a) {
			*ended = 1;
			return 0;
		}
	}
}

/* Fold the header at the cursor and fill @rec's header fields. */
static int parse_header(struct warc_reader *r, size_t hlen, struct warc_record *rec)
{
	if (warc_header_parse(&r->hb, (const char *)warc_stream_cur(&r->s), hlen)) {
		log_error("%s: out of memory for a %zu-byte header", r->s.name, hlen);
		return -1;
	}
	rec->version = r->hb.version;
	rec->headers = r->hb.hdrs;
	rec->n_headers = r->hb.n_hdrs;
	return 0;
}

static size_t eol_len(const uint8_t *p)
{
	return p[0] == '\n' ? 1 : (p[0] == '\r' && p[1] == '\n') ? 2 : 0;
}

/* Bytes of the end-of-record marker at @p (CRLF CRLF, tolerating bare LF);
 * 4 bytes must be readable. */
static size_t terminator(const uint8_t *p)
{
	const size_t a = eol_len(p);
	const size_t b = a ? eol_len(p + a) : 0;
	return b ? a + b : 0;
}

static int stream_fault(int rc)
{
	return rc == WARC_STREAM_FATAL ? REC_FATAL : REC_SKIP;
}

/* Say how many broken records in a row went unlisted, if any. */
static void end_loss_run(struct warc_reader *r)
{
	if (r->run_lost > WARC_LOSSES_LISTED) {
		char at[128];
		warc_stream_where(&r->s, at, sizeof at);
		log_warn("%s: %llu more broken records in a row skipped, up to %s", r->s.name,
			 (unsigned long long)(r->run_lost - WARC_LOSSES_LISTED), at);
	}
	r->run_lost = 0;
}

/* A broken record: count it, say why (the first few of a run of them: a
 * run can be millions of bare version lines), and resynchronise @skip
 * bytes on (after its header, where a record may hide if Content-Length
 * lied). */
static int lose(struct warc_reader *r, uint64_t *counter, size_t skip, const char *what)
{
	char at[128];
	warc_stream_where(&r->s, at, sizeof at);
	if (!r->s.member_lost) { /* else the stream counted and said it */
		(*counter)++;
		if (++r->run_lost <= WARC_LOSSES_LISTED)
			log_warn("%s: record at %s skipped: %s", r->s.name, at, what);
	}
	if (r->per_member) {
		/* the member held this record only: what is left of it is not
		 * a record, even where a line in the block starts "WARC/" */
		warc_stream_drop(&r->s);
		const int rc = warc_stream_discard(&r->s, UINT64_MAX, 0);
		return rc < 0 ? stream_fault(rc) : REC_SKIP;
	}
	assert(skip <= warc_stream_avail(&r->s));
	warc_stream_skip(&r->s, skip);
	warc_stream_set_quiet(&r->s, 1);
	return REC_SKIP;
}

/* Skip a block above the size limit without holding it; the record's end
 * marker is then skipped as blank space before the next record. */
static int skip_huge(struct warc_reader *r, size_t hlen, uint64_t cl, int cross)
{
	char msg[128];
	const uint64_t rec_u = warc_stream_tell(&r->s);
	if (r->s.file_size >= 0 && rec_u + hlen + cl > (uint64_t)r->s.file_size) {
		snprintf(msg, sizeof msg, "Content-Length %llu runs past the end of the file",
			 (unsigned long long)cl);
		return lose(r, &r->st.bad_length, hlen, msg);
	}
	snprintf(msg, sizeof msg, "block of %llu bytes is above the limit of %zu",
		 (unsigned long long)cl, r->max_record);
	lose(r, &r->st.huge, hlen, msg);
	warc_stream_set_quiet(&r->s, 0);
	const int rc = warc_stream_discard(&r->s, cl, cross);
	return rc < 0 ? stream_fault(rc) : REC_SKIP;
}

/* 1 if only blank bytes follow the first @len bytes up to the end of the
 * gzip member (*extra of them), 0 if more data follows, or a fault. */
static int member_ends_at(struct warc_reader *r, size_t len, size_t *extra)
{
	size_t i = len;
	for (;;) {
		const int rc = warc_stream_need(&r->s, i + 1, 0);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			*extra = i - len;
			return 1;
		}
		if (!warc_is_blank(warc_stream_cur(&r->s)[i]))
			return 0;
		i++;
	}
}

static void note_multi(struct warc_reader *r)
{
	r->seen_multi = 1;
	if (r->warned_multi)
		return;
	r->warned_multi = 1;
	log_warn("%s: gzip member at offset %llu holds more than one record "
		 "(whole-file gzip?); record offsets are offsets in the inflated stream",
		 r->s.name, (unsigned long long)r->s.mem_c_start);
}

/* Hand out the record at the cursor: @len bytes of which @hlen header. */
static int accept(struct warc_reader *r, struct warc_record *rec, size_t len,
		  size_t hlen, size_t cl, int aligned)
{
	rec->flags = 0;
	rec->offset = warc_stream_tell(&r->s);
	rec->length = len;
	if (r->s.gzip) {
		size_t extra = 0;
		const int rc = aligned ? member_ends_at(r, len, &extra) : 0;
		if (rc < 0)
			return stream_fault(rc);
		if (rc == 1) {
			rec->offset = r->s.mem_c_start;
			rec->length = r->s.mem_c_end - r->s.mem_c_start;
			len += extra;
		} else {
			rec->flags |= WARC_REC_OFFSET_UNCOMPRESSED;
			note_multi(r);
		}
	}
	rec->type = warc_type_from_name(warc_header_get(rec, "WARC-Type"));
	rec->block = warc_stream_cur(&r->s) + hlen;
	rec->block_len = cl;
	end_loss_run(r);
	warc_stream_skip(&r->s, len);
	r->st.records++;
	warc_stream_set_quiet(&r->s, 0);
	return REC_OK;
}

/*
 * The block of a record ends @total bytes on but without its CRLF CRLF:
 * if the next record's "WARC/" follows (after one line end, if any), the
 * record is sound and only its end marker is missing.  @return the bytes
 * to the next record (SIZE_MAX for none), or 0 if no record follows.
 */
static size_t next_record_at(struct warc_reader *r, size_t total, int cross)
{
	if (warc_stream_need(&r->s, total + 7, cross) != 1)
		return 0;
	const uint8_t *p = warc_stream_cur(&r->s) + total;
	const size_t e = eol_len(p);
	if (memcmp(p + e, "WARC/", 5))
		return 0;
	char at[128];
	warc_stream_where(&r->s, at, sizeof at);
	log_warn("%s: record at %s has no CRLF CRLF after its block; kept", r->s.name, at);
	return e ? e : SIZE_MAX;
}

/* The header and block of the record whose "WARC/" is at the cursor. */
static int read_body(struct warc_reader *r, struct warc_record *rec, int aligned, int cross)
{
	const uint64_t mem = r->s.mem_c_start;
	char msg[128];
	int ended;
	size_t next;
	const long hlen = header_end(r, cross, &ended, &next);
	if (hlen < 0)
		return stream_fault((int)hlen);
	if (hlen == 0 && next)
		return lose(r, &r->st.bad_header, next, "the next record starts inside the WARC header");
	if (hlen == 0)
		return ended ? lose(r, &r->st.truncated, 1, "input ends inside the WARC header")
			     : lose(r, &r->st.bad_header, 1, "no end of the WARC header within 256 KiB");
	if (parse_header(r, (size_t)hlen, rec))
		return REC_FATAL;
	const int64_t cl = warc_content_length(warc_header_get(rec, "Content-Length"));
	if (cl < 0)
		return lose(r, &r->st.bad_header, 1, "missing or invalid Content-Length");
	if ((uint64_t)cl > r->max_record)
		return skip_huge(r, (size_t)hlen, (uint64_t)cl, cross);
	const size_t total = (size_t)hlen + (size_t)cl;
	const int rc = warc_stream_need(&r->s, total + 4, cross);
	if (rc < 0)
		return stream_fault(rc);
	size_t term;
	const size_t avail = warc_stream_avail(&r->s);
	const uint8_t *end = warc_stream_cur(&r->s) + total;
	if (rc == 1) {
		term = terminator(end);
		if (!term)
			term = next_record_at(r, total, cross);
		if (!term) {
			snprintf(msg, sizeof msg, "Content-Length %lld does not end at a record boundary",
				 (long long)cl);
			return lose(r, &r->st.bad_length, (size_t)hlen, msg);
		}
	} else if (avail >= total && !warc_any_nonblank(end, avail - total)) {
		term = avail - total; /* end marker cut short by the end of data */
	} else {
		const int member = r->s.gzip && !cross;
		snprintf(msg, sizeof msg, "Content-Length %lld runs past the end of the %s",
			 (long long)cl, member ? "gzip member" : "input");
		return lose(r, member ? &r->st.bad_length : &r->st.truncated, (size_t)hlen, msg);
	}
	if (term == SIZE_MAX)
		term = 0;
	return accept(r, rec, total + term, (size_t)hlen, (size_t)cl,
		      aligned && mem == r->s.mem_c_start);
}

/* Skip CR, LF, spaces and NULs between records (within a gzip member). */
static int skip_blanks(struct warc_reader *r)
{
	for (;;) {
		const int rc = warc_stream_need(&r->s, 1, !r->s.gzip);
		if (rc <= 0)
			return rc;
		const uint8_t *const b = warc_stream_cur(&r->s), *p = b;
		const uint8_t *const e = b + warc_stream_avail(&r->s);
		while (p < e && warc_is_blank(*p))
			p++;
		warc_stream_skip(&r->s, (size_t)(p - b));
		if (p < e)
			return 1;
		warc_stream_drop(&r->s);
	}
}

/* The first gzip member header in the @n bytes at @p whose 10 bytes lie
 * in them, or NULL. */
static const uint8_t *gzip_member_in(const uint8_t *p, size_t n)
{
	for (const uint8_t *q = p; n >= 10 && (q = memchr(q, 0x1f, (size_t)(p + n - 9 - q)));
	     q++)
		if (warc_gzip_header_at(q))
			return q;
	return NULL;
}

/*
 * Skip to the next line that starts with "WARC/" (plain input: or to a
 * gzip member), counting a run of
 * garbage once (not at all if it follows a fault just counted).  For gzip
 * the scan stays inside the current member (a member boundary is a record
 * boundary); at its end the window is dropped.  @return 1 found, 0 not in
 * this member or input, or a stream fault.
 */
static int resync(struct warc_reader *r, int cross)
{
	char at[128];
	warc_stream_where(&r->s, at, sizeof at);
	uint64_t skipped = 0;
	int junk = 0, rc;
	for (;;) {
		const uint8_t *base = warc_stream_cur(&r->s);
		const size_t a = warc_stream_avail(&r->s);
		const uint8_t *hit = memmem(base, a, "\nWARC/", 6);
		size_t k = hit ? (size_t)(hit - base) + 1 : (a > 5 ? a - 5 : 0);
		if (!r->s.gzip) {
			/* gzip members may follow plain records in one file */
			const uint8_t *gz = gzip_member_in(base, hit ? k + 9 : a);
			if (gz) {
				hit = gz;
				k = (size_t)(gz - base);
			}
		}
		junk |= warc_any_nonblank(base, k);
		skipped += k;
		warc_stream_skip(&r->s, k);
		if (hit)
			break;
		rc = warc_stream_need(&r->s, warc_stream_avail(&r->s) + 4096, cross);
		if (rc == 0 && warc_stream_avail(&r->s) > 5)
			continue; /* a partial read: scan it */
		if (rc == WARC_STREAM_FATAL)
			return rc;
		if (rc <= 0) {
			junk |= warc_any_nonblank(warc_stream_cur(&r->s), warc_stream_avail(&r->s));
			skipped += warc_stream_avail(&r->s);
			warc_stream_drop(&r->s);
			break;
		}
	}
	if (junk && !r->s.quiet) {
		r->st.garbage++;
		log_warn("%s: skipped %llu bytes of garbage at %s", r->s.name,
			 (unsigned long long)skipped, at);
	}
	warc_stream_set_quiet(&r->s, 0);
	return warc_stream_avail(&r->s) > 0;
}

static int read_record(struct warc_reader *r, struct warc_record *rec)
{
	if (r->s.gzip && warc_stream_avail(&r->s) == 0 && !r->s.member_active) {
		const int rc = warc_stream_begin_member(&r->s);
		if (rc <= 0)
			return rc < 0 ? REC_FATAL : REC_END;
	}
	int rc = skip_blanks(r);
	if (rc < 0)
		return stream_fault(rc);
	if (rc == 0)
		return r->s.gzip ? REC_SKIP : REC_END;
	if (!r->s.gzip && warc_stream_need(&r->s, 10, 1) == 1 &&
	    warc_gzip_header_at(warc_stream_cur(&r->s))) {
		/* plain records, then gzip members (cat a.warc b.warc.gz) */
		rc = warc_stream_to_gzip(&r->s);
		return rc < 0 ? stream_fault(rc) : REC_SKIP;
	}
	const int aligned = r->s.gzip && warc_stream_tell(&r->s) == r->s.mem_u_start;
	const int cross = !r->s.gzip || !aligned || r->seen_multi;
	r->per_member = r->s.gzip && !cross;
	rc = warc_stream_need(&r->s, 5, cross);
	if (rc < 0)
		return stream_fault(rc);
	if (rc == 0 || memcmp(warc_stream_cur(&r->s), "WARC/", 5)) {
		rc = resync(r, cross);
		return rc < 0 ? stream_fault(rc) : REC_SKIP;
	}
	return read_body(r, rec, aligned, cross);
}

int warc_next(struct warc_reader *r, struct warc_record *rec)
{
	if (r->failed || (!r->s.detected && warc_stream_detect(&r->s)))
		return r->failed = 1, -1;
	for (;;) {
		const int rc = read_record(r, rec);
		if (rc == REC_OK)
			return 1;
		if (rc == REC_END) {
			end_loss_run(r);
			return 0;
		}
		if (rc == REC_FATAL) {
			r->failed = 1;
			return -1;
		}
	}
}

struct warc_reader *warc_open_read(warc_read_fn read, void *ctx, const char *name,
				   size_t max_record, int64_t size)
{
	struct warc_reader *r = calloc(1, sizeof *r);
	max_record = max_record ? max_record : WARC_DEFAULT_MAX_RECORD;
	if (!r || warc_stream_init(&r->s, read, ctx, name, WARC_MAX_HEADER + max_record + 16,
				   size)) {
		log_error("%s: out of memory", name);
		if (r)
			warc_stream_free(&r->s);
		free(r);
		return NULL;
	}
	r->max_record = max_record;
	return r;
}

static long file_read(void *ctx, void *buf, size_t n)
{
	FILE *fp = ctx;
	const size_t got = fread(buf, 1, n, fp);
	return got == 0 && ferror(fp) ? -1 : (long)got;
}

struct warc_reader *warc_open(FILE *fp, const char *name, size_t max_record)
{
	int64_t size = -1;
	struct stat sb;
	if (fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && ftello(fp) == 0)
		size = sb.st_size;
	return warc_open_read(file_read, fp, name, max_record, size);
}

int warc_swap_window(struct warc_reader *r, uint8_t **buf, size_t *cap, size_t *written)
{
	return warc_stream_swap_window(&r->s, buf, cap, written);
}

struct warc_stats warc_reader_stats(const struct warc_reader *r)
{
	struct warc_stats st = r->st;
	st.bytes_in = r->s.st.bytes_in;
	st.garbage += r->s.st.garbage;
	st.truncated += r->s.st.truncated;
	st.corrupt_gzip += r->s.st.corrupt_gzip;
	return st;
}

int warc_reader_is_gzip(const struct warc_reader *r)
{
	return r->s.gzip;
}

void warc_close(struct warc_reader *r)
{
	if (!r)
		return;
	warc_stream_free(&r->s);
	warc_hdrbuf_free(&r->hb);
	free(r);
}
