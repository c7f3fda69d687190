/*
 * warc.c - see warc.h.
 *
 * Three layers, bottom up:
 *
 *   input   raw file bytes in r->in (refilled with fread; for gzip the
 *           bytes of the current member are kept while they fit, so a
 *           corrupt member can be rescanned from its second byte)
 *   stream  the bytes of WARC text in the window r->win: copied from the
 *           input (plain) or inflated member by member (gzip).  need(n)
 *           makes n bytes available past win_pos; for gzip it crosses a
 *           member boundary only when told to, because a per-record member
 *           must hold the whole record
 *   record  find "WARC/" at a line start, read the header up to the empty
 *           line, fold it into r->hbuf, check Content-Length and the
 *           CRLF CRLF that ends the record
 *
 * A WARC record:
 *
 *   WARC/1.1\r\n
 *   WARC-Type: response\r\n
 *   Content-Length: 1234\r\n
 *   \r\n
 *   <1234 bytes of block>\r\n
 *   \r\n
 *
 * While a record is parsed, win_pos stays at its first byte and every
 * position is relative to it; need() may move the window's contents but
 * never changes what win_pos points at.
 */
#include "warc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <zlib.h>

#include "log.h"

#define IN_CHUNK (256u << 10)
#define WIN_SLACK (64u << 10)
#define MAX_HEADER (256u << 10) /* a WARC header bigger than this is broken */

enum { NEED_BROKEN = -1, NEED_FATAL = -2 };
enum { REC_END = 0, REC_OK = 1, REC_SKIP = 2, REC_FATAL = -1 };

struct warc_reader {
	FILE *fp;
	const char *name;
	size_t max_record;
	size_t win_limit;  /* largest window: header + max record + slack */
	int64_t file_size; /* plain regular files only, else -1 */
	int detected, gzip, in_eof, failed;

	uint8_t *in;     /* raw input */
	size_t in_pos, in_len;
	uint64_t in_off; /* file offset of in[0] */

	z_stream zs;
	int zs_ready;
	int member_active;  /* inflating a member whose end is not reached */
	int gz_resync;      /* scanning after a corrupt member: stay quiet */
	uint64_t mem_c_start, mem_c_end, mem_u_start;

	uint8_t *win;
	size_t win_pos, win_len, win_cap;
	uint64_t win_u_off; /* stream offset of win[0] */

	int resyncing;      /* the next garbage run follows a counted fault */
	int warned_multi;
	int seen_multi;     /* a member held more than one record */
	int per_member;     /* the record being read must fill its gzip member */

	char *hbuf;
	size_t hbuf_cap;
	struct warc_header *hdrs;
	size_t hdr_cap;
	struct warc_stats st;
};

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

/* ---- input layer ---- */

/* Refill r->in.  Keeps the current member's bytes when they fit in half the
 * buffer (for rescanning after corruption).  @return bytes read, -1 on a
 * read error. */
static long in_fill(struct warc_reader *r)
{
	size_t keep = r->in_pos;
	if (r->gzip && r->mem_c_start >= r->in_off &&
	    r->mem_c_start - r->in_off < keep &&
	    r->in_len - (r->mem_c_start - r->in_off) < IN_CHUNK / 2)
		keep = (size_t)(r->mem_c_start - r->in_off);
	memmove(r->in, r->in + keep, r->in_len - keep);
	r->in_len -= keep;
	r->in_pos -= keep;
	r->in_off += keep;
	if (r->in_eof)
		return 0;
	size_t n = fread(r->in + r->in_len, 1, IN_CHUNK - r->in_len, r->fp);
	if (n == 0) {
		if (ferror(r->fp)) {
			log_error("%s: read error at offset %llu: %s", r->name,
				  (unsigned long long)(r->in_off + r->in_len), strerror(errno));
			return -1;
		}
		r->in_eof = 1;
	}
	r->in_len += n;
	r->st.bytes_in += n;
	return (long)n;
}

static uint64_t in_tell(const struct warc_reader *r)
{
	return r->in_off + r->in_pos;
}

static int is_blank(uint8_t c)
{
	return c == '\r' || c == '\n' || c == ' ' || c == '\t' || c == 0;
}

static int any_nonblank(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_blank(p[i]))
			return 1;
	return 0;
}

/* A plausible gzip member header: magic, deflate, no reserved flag bits,
 * a known XFL and OS.  The extra checks make false hits inside deflate
 * data, when rescanning after corruption, about 9000 times rarer. */
static int gz_header_at(const uint8_t *p)
{
	return p[0] == 0x1f && p[1] == 0x8b && p[2] == 8 && (p[3] & 0xe0) == 0 &&
	       (p[8] == 0 || p[8] == 2 || p[8] == 4) && (p[9] <= 13 || p[9] == 255);
}

static void count_garbage(struct warc_reader *r, uint64_t off, uint64_t n, const char *unit)
{
	if (r->resyncing || r->gz_resync)
		return;
	r->st.garbage++;
	log_warn("%s: skipped %llu bytes of garbage at %s offset %llu", r->name,
		 (unsigned long long)n, unit, (unsigned long long)off);
}

/* Position r->in at the next gzip member.  @return 1 found, 0 end of input,
 * -1 read error. */
static int gz_find_member(struct warc_reader *r)
{
	const uint64_t start = in_tell(r);
	int junk = 0;
	for (;;) {
		if (r->in_len - r->in_pos < 10) {
			long n = in_fill(r);
			if (n < 0)
				return -1;
			if (n == 0 && r->in_len - r->in_pos < 10)
				break;
			continue;
		}
		size_t i = r->in_pos, last = r->in_len - 10;
		while (i <= last && !gz_header_at(r->in + i))
			i++;
		junk |= any_nonblank(r->in + r->in_pos, i - r->in_pos);
		r->in_pos = i;
		if (i <= last)
			break;
	}
	if (r->in_len - r->in_pos < 10) {
		junk |= any_nonblank(r->in + r->in_pos, r->in_len - r->in_pos);
		r->in_pos = r->in_len;
	}
	if (junk)
		count_garbage(r, start, in_tell(r) - start, "compressed");
	return r->in_pos < r->in_len;
}

static void win_drop(struct warc_reader *r)
{
	r->win_u_off += r->win_len;
	r->win_pos = r->win_len = 0;
}

/* Make room for up to @extra bytes past win_len, moving or growing the
 * window but never past win_limit; at least one byte is guaranteed. */
static int win_reserve(struct warc_reader *r, size_t extra)
{
	if (r->win_pos > 0 && r->win_len + extra > r->win_cap) {
		memmove(r->win, r->win + r->win_pos, r->win_len - r->win_pos);
		r->win_u_off += r->win_pos;
		r->win_len -= r->win_pos;
		r->win_pos = 0;
	}
	if (r->win_len + extra <= r->win_cap)
		return 0;
	size_t cap = r->win_cap * 2;
	if (cap < r->win_len + extra)
		cap = r->win_len + extra;
	if (cap > r->win_limit)
		cap = r->win_limit;
	if (cap <= r->win_len) { /* need() never asks past win_limit */
		log_error("%s: record window full", r->name);
		return -1;
	}
	uint8_t *w = realloc(r->win, cap);
	if (!w) {
		log_error("%s: out of memory for a %zu-byte record window", r->name, cap);
		return -1;
	}
	r->win = w;
	r->win_cap = cap;
	return 0;
}

/* A member failed: count it (unless already rescanning), drop the window
 * and rescan from the member's second byte if it is still buffered. */
static void gz_broken(struct warc_reader *r, int truncated, const char *why)
{
	if (truncated) {
		r->st.truncated++;
		log_warn("%s: gzip member at offset %llu is truncated; record lost",
			 r->name, (unsigned long long)r->mem_c_start);
	} else if (!r->gz_resync) {
		r->st.corrupt_gzip++;
		log_warn("%s: corrupt gzip member at offset %llu (%s); record lost",
			 r->name, (unsigned long long)r->mem_c_start, why ? why : "bad data");
	}
	r->gz_resync = 1;
	r->member_active = 0;
	win_drop(r);
	if (!truncated && r->mem_c_start + 1 >= r->in_off &&
	    r->mem_c_start + 1 <= r->in_off + r->in_len)
		r->in_pos = (size_t)(r->mem_c_start + 1 - r->in_off);
}

/* @return 1 started, 0 end of input, NEED_FATAL. */
static int gz_begin_member(struct warc_reader *r)
{
	const int rc = gz_find_member(r);
	if (rc <= 0)
		return rc < 0 ? NEED_FATAL : 0;
	if (inflateReset(&r->zs) != Z_OK)
		return NEED_FATAL;
	r->mem_c_start = in_tell(r);
	r->mem_u_start = r->win_u_off + r->win_len;
	r->member_active = 1;
	return 1;
}

/* Inflate more of the current member into the window.  @return 1 progress
 * or member end, NEED_BROKEN, NEED_FATAL. */
static int gz_inflate_some(struct warc_reader *r)
{
	if (r->in_pos == r->in_len && in_fill(r) < 0)
		return NEED_FATAL;
	if (win_reserve(r, WIN_SLACK))
		return NEED_FATAL;
	const size_t in0 = r->in_pos, out0 = r->win_len;
	r->zs.next_in = r->in + r->in_pos;
	r->zs.avail_in = (uInt)(r->in_len - r->in_pos);
	r->zs.next_out = r->win + r->win_len;
	r->zs.avail_out = (uInt)(r->win_cap - r->win_len);
	const int zrc = inflate(&r->zs, Z_NO_FLUSH);
	r->in_pos = (size_t)(r->zs.next_in - r->in);
	r->win_len = (size_t)(r->zs.next_out - r->win);
	if (zrc == Z_STREAM_END) {
		r->member_active = 0;
		r->gz_resync = 0;
		r->mem_c_end = in_tell(r);
		return 1;
	}
	if (zrc == Z_OK || zrc == Z_BUF_ERROR) {
		/* No progress with all input used means the file ended inside
		 * the member (zlib may still hold output, hence the check). */
		if (r->in_eof && r->in_pos == r->in_len && in0 == r->in_pos &&
		    out0 == r->win_len) {
			gz_broken(r, 1, NULL);
			return NEED_BROKEN;
		}
		return 1;
	}
	if (zrc == Z_MEM_ERROR) {
		log_error("%s: out of memory in inflate", r->name);
		return NEED_FATAL;
	}
	gz_broken(r, 0, r->zs.msg);
	return NEED_BROKEN;
}

static int plain_read_some(struct warc_reader *r)
{
	if (r->in_pos == r->in_len) {
		long n = in_fill(r);
		if (n < 0)
			return NEED_FATAL;
		if (n == 0)
			return 0;
	}
	size_t n = r->in_len - r->in_pos;
	if (win_reserve(r, n))
		return NEED_FATAL;
	if (n > r->win_cap - r->win_len)
		n = r->win_cap - r->win_len;
	memcpy(r->win + r->win_len, r->in + r->in_pos, n);
	r->win_len += n;
	r->in_pos += n;
	return 1;
}

static size_t avail(const struct warc_reader *r)
{
	return r->win_len - r->win_pos;
}

/* ---- stream layer ---- */

/*
 * Make @n bytes available at win_pos.  @cross: for gzip, go on into the
 * next member when this one ends.  @return 1 ok, 0 not possible (end of
 * input, or end of member without @cross), NEED_BROKEN, NEED_FATAL.
 */
static int need(struct warc_reader *r, size_t n, int cross)
{
	if (n > r->win_limit)
		return 0;
	while (avail(r) < n) {
		int rc;
		if (!r->gzip)
			rc = plain_read_some(r);
		else if (r->member_active)
			rc = gz_inflate_some(r);
		else if (cross)
			rc = gz_begin_member(r);
		else
			rc = 0;
		if (rc <= 0)
			return rc;
	}
	return 1;
}

/* Throw away @n bytes of the stream (a huge record's block). */
static int discard(struct warc_reader *r, uint64_t n, int cross)
{
	while (n > 0) {
		size_t a = avail(r);
		if (a == 0) {
			int rc = need(r, 1, cross);
			if (rc <= 0)
				return rc;
			continue;
		}
		size_t k = a < n ? a : (size_t)n;
		r->win_pos += k;
		n -= k;
		if (r->win_pos == r->win_len)
			win_drop(r);
	}
	return 1;
}

static void where(const struct warc_reader *r, char *buf, size_t size)
{
	const uint64_t u = r->win_u_off + r->win_pos;
	if (r->gzip)
		snprintf(buf, size, "gzip member at offset %llu (inflated offset %llu)",
			 (unsigned long long)r->mem_c_start, (unsigned long long)u);
	else
		snprintf(buf, size, "offset %llu", (unsigned long long)u);
}

/*
 * Skip bytes up to the next line that starts with "WARC/".  For gzip the
 * scan stays inside the current member (a member boundary is a record
 * boundary); at its end the window is dropped.  @return 1 found, 0 not
 * in this member or input, negative on a stream fault.
 */
static int resync(struct warc_reader *r, int cross)
{
	char at[128];
	where(r, at, sizeof at);
	uint64_t skipped = 0;
	int junk = 0, rc;
	for (;;) {
		const uint8_t *base = r->win + r->win_pos;
		const uint8_t *hit = memmem(base, avail(r), "\nWARC/", 6);
		size_t k = hit ? (size_t)(hit - base) + 1 : (avail(r) > 5 ? avail(r) - 5 : 0);
		junk |= any_nonblank(base, k);
		skipped += k;
		r->win_pos += k;
		if (hit)
			break;
		rc = need(r, avail(r) + 4096, cross);
		if (rc == 0 && avail(r) > 5)
			continue; /* a partial read: scan it */
		if (rc == NEED_FATAL)
			return rc;
		if (rc <= 0) {
			junk |= any_nonblank(r->win + r->win_pos, avail(r));
			skipped += avail(r);
			win_drop(r);
			break;
		}
	}
	if (junk && !r->resyncing) {
		r->st.garbage++;
		log_warn("%s: skipped %llu bytes of garbage at %s", r->name,
			 (unsigned long long)skipped, at);
	}
	r->resyncing = 0;
	return avail(r) > 0;
}

/* ---- record layer ---- */

static const struct {
	const char *name;
	enum warc_type type;
} type_names[] = {
	{"warcinfo", WARC_WARCINFO}, {"response", WARC_RESPONSE},
	{"resource", WARC_RESOURCE}, {"request", WARC_REQUEST},
	{"metadata", WARC_METADATA}, {"revisit", WARC_REVISIT},
	{"conversion", WARC_CONVERSION}, {"continuation", WARC_CONTINUATION},
};

enum warc_type warc_type_from_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof type_names / sizeof type_names[0]; i++)
		if (!strcasecmp(name, type_names[i].name))
			return type_names[i].type;
	return WARC_OTHER;
}

const char *warc_header_get(const struct warc_record *rec, const char *name)
{
	for (size_t i = 0; i < rec->n_headers; i++)
		if (!strcasecmp(rec->headers[i].name, name))
			return rec->headers[i].value;
	return NULL;
}

const char *warc_target_uri(const struct warc_record *rec, size_t *len)
{
	const char *v = warc_header_get(rec, "WARC-Target-URI");
	if (!v)
		return NULL;
	size_t n = strlen(v);
	if (n >= 2 && v[0] == '<' && v[n - 1] == '>') {
		v++;
		n -= 2;
	}
	*len = n;
	return v;
}

/*
 * Length of the header at win_pos up to and including its empty line.
 * @return the length, 0 if there is none within MAX_HEADER or before the
 * stream ends (*ended set then), or a negative stream fault.
 */
static long header_end(struct warc_reader *r, int cross, int *ended)
{
	size_t i = 0;
	*ended = 0;
	for (;;) {
		const uint8_t *p = r->win + r->win_pos;
		const size_t a = avail(r);
		for (; i + 2 < a; i++) {
			if (p[i] != '\n')
				continue;
			if (p[i + 1] == '\n')
				return (long)(i + 2);
			if (p[i + 1] == '\r' && p[i + 2] == '\n')
				return (long)(i + 3);
		}
		if (a >= MAX_HEADER)
			return 0;
		int rc = need(r, a + 4096 < MAX_HEADER ? a + 4096 : MAX_HEADER, cross);
		if (rc < 0)
			return rc;
		if (rc == 0 && avail(r) == a) {
			*ended = 1;
			return 0;
		}
	}
}

static const char *trim(const char *s, const char *e, const char **end)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	*end = e;
	return s;
}

/* Append [s, e) and a NUL at *o. */
static char *put(char *o, const char *s, const char *e)
{
	memcpy(o, s, (size_t)(e - s));
	o += e - s;
	*o++ = 0;
	return o;
}

/* Room for the folded copy of a @hlen-byte header: never longer than the
 * original (each line's CR/LF or colon becomes the NUL). */
static int header_reserve(struct warc_reader *r, size_t hlen)
{
	size_t lines = 2;
	for (size_t i = 0; i < hlen; i++)
		lines += r->win[r->win_pos + i] == '\n';
	if (r->hbuf_cap < hlen + 16) {
		char *b = realloc(r->hbuf, hlen + 16);
		if (!b)
			return -1;
		r->hbuf = b;
		r->hbuf_cap = hlen + 16;
	}
	if (r->hdr_cap < lines) {
		struct warc_header *h = realloc(r->hdrs, lines * sizeof *h);
		if (!h)
			return -1;
		r->hdrs = h;
		r->hdr_cap = lines;
	}
	return 0;
}

/* Fold the header at win_pos into hbuf/hdrs and fill @rec's header fields.
 * Lines without a colon are ignored; continuation lines (leading space or
 * tab) join the previous value with one space. */
static int parse_header(struct warc_reader *r, size_t hlen, struct warc_record *rec)
{
	if (header_reserve(r, hlen)) {
		log_error("%s: out of memory for a %zu-byte header", r->name, hlen);
		return -1;
	}
	const char *p = (const char *)r->win + r->win_pos, *end = p + hlen, *e;
	char *o = r->hbuf;
	size_t nh = 0;
	for (int first = 1; p < end; first = 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *s;
		if (first) {
			rec->version = o;
			o = put(o, p, eol > p && eol[-1] == '\r' ? eol - 1 : eol);
		} else if ((*p == ' ' || *p == '\t') && nh > 0) {
			s = trim(p, eol, &e);
			if (s < e) {
				o[-1] = ' ';
				o = put(o, s, e);
			}
		} else {
			const char *colon = memchr(p, ':', (size_t)(eol - p));
			if (colon) {
				r->hdrs[nh].name = o;
				s = trim(p, colon, &e);
				o = put(o, s, e);
				r->hdrs[nh].value = o;
				s = trim(colon + 1, eol, &e);
				o = put(o, s, e);
				nh++;
			}
		}
		p = eol + 1;
	}
	rec->headers = r->hdrs;
	rec->n_headers = nh;
	return 0;
}

/* Content-Length as a plain decimal; -1 if absent or malformed. */
static int64_t content_length(const struct warc_record *rec)
{
	const char *v = warc_header_get(rec, "Content-Length");
	if (!v || !*v)
		return -1;
	int64_t n = 0;
	for (; *v; v++) {
		if (*v < '0' || *v > '9' || n > (INT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (*v - '0');
	}
	return n;
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
	return rc == NEED_FATAL ? REC_FATAL : REC_SKIP;
}

/* A broken record: count it, say why, and resynchronise @skip bytes on
 * (after its header, where a record may hide if Content-Length lied). */
static int lose(struct warc_reader *r, uint64_t *counter, size_t skip, const char *what)
{
	char at[128];
	where(r, at, sizeof at);
	(*counter)++;
	log_warn("%s: record at %s skipped: %s", r->name, at, what);
	if (r->per_member) {
		/* the member held this record only: what is left of it is not
		 * a record, even where a line in the block starts "WARC/" */
		win_drop(r);
		const int rc = discard(r, UINT64_MAX, 0);
		return rc < 0 ? stream_fault(rc) : REC_SKIP;
	}
	r->win_pos += skip;
	r->resyncing = 1;
	return REC_SKIP;
}

/* Skip a block above the size limit without holding it; the record's end
 * marker is then skipped as blank space before the next record. */
static int skip_huge(struct warc_reader *r, size_t hlen, uint64_t cl, int cross)
{
	char msg[128];
	const uint64_t rec_u = r->win_u_off + r->win_pos;
	if (r->file_size >= 0 && rec_u + hlen + cl > (uint64_t)r->file_size) {
		snprintf(msg, sizeof msg, "Content-Length %llu runs past the end of the file",
			 (unsigned long long)cl);
		return lose(r, &r->st.bad_length, hlen, msg);
	}
	snprintf(msg, sizeof msg, "block of %llu bytes is above the limit of %zu",
		 (unsigned long long)cl, r->max_record);
	lose(r, &r->st.huge, hlen, msg);
	r->resyncing = 0;
	const int rc = discard(r, cl, cross);
	return rc < 0 ? stream_fault(rc) : REC_SKIP;
}

/* 1 if only blank bytes follow the first @len bytes up to the end of the
 * gzip member (*extra of them), 0 if more data follows, or a fault. */
static int member_ends_at(struct warc_reader *r, size_t len, size_t *extra)
{
	size_t i = len;
	for (;;) {
		const int rc = need(r, i + 1, 0);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			*extra = i - len;
			return 1;
		}
		if (!is_blank(r->win[r->win_pos + i]))
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
		 r->name, (unsigned long long)r->mem_c_start);
}

/* Hand out the record at win_pos: @len bytes of which @hlen header. */
static int accept(struct warc_reader *r, struct warc_record *rec, size_t len,
		  size_t hlen, size_t cl, int aligned)
{
	rec->flags = 0;
	rec->offset = r->win_u_off + r->win_pos;
	rec->length = len;
	if (r->gzip) {
		size_t extra = 0;
		const int rc = aligned ? member_ends_at(r, len, &extra) : 0;
		if (rc < 0)
			return stream_fault(rc);
		if (rc == 1) {
			rec->offset = r->mem_c_start;
			rec->length = r->mem_c_end - r->mem_c_start;
			len += extra;
		} else {
			rec->flags |= WARC_REC_OFFSET_UNCOMPRESSED;
			note_multi(r);
		}
	}
	rec->type = warc_type_from_name(warc_header_get(rec, "WARC-Type"));
	rec->block = r->win + r->win_pos + hlen;
	rec->block_len = cl;
	r->win_pos += len;
	r->st.records++;
	r->resyncing = 0;
	return REC_OK;
}

/* The header and block of the record whose "WARC/" is at win_pos. */
static int read_body(struct warc_reader *r, struct warc_record *rec, int aligned, int cross)
{
	const uint64_t mem = r->mem_c_start;
	char msg[128];
	int ended;
	const long hlen = header_end(r, cross, &ended);
	if (hlen < 0)
		return stream_fault((int)hlen);
	if (hlen == 0)
		return ended ? lose(r, &r->st.truncated, 1, "input ends inside the WARC header")
			     : lose(r, &r->st.bad_header, 1, "no end of the WARC header within 256 KiB");
	if (parse_header(r, (size_t)hlen, rec))
		return REC_FATAL;
	const int64_t cl = content_length(rec);
	if (cl < 0)
		return lose(r, &r->st.bad_header, 1, "missing or invalid Content-Length");
	if ((uint64_t)cl > r->max_record)
		return skip_huge(r, (size_t)hlen, (uint64_t)cl, cross);
	const size_t total = (size_t)hlen + (size_t)cl;
	const int rc = need(r, total + 4, cross);
	if (rc < 0)
		return stream_fault(rc);
	size_t term;
	const uint8_t *end = r->win + r->win_pos + total;
	if (rc == 1) {
		term = terminator(end);
		if (!term) {
			snprintf(msg, sizeof msg, "Content-Length %lld does not end at a record boundary",
				 (long long)cl);
			return lose(r, &r->st.bad_length, (size_t)hlen, msg);
		}
	} else if (avail(r) >= total && !any_nonblank(end, avail(r) - total)) {
		term = avail(r) - total; /* end marker cut short by the end of data */
	} else {
		const int member = r->gzip && !cross;
		snprintf(msg, sizeof msg, "Content-Length %lld runs past the end of the %s",
			 (long long)cl, member ? "gzip member" : "input");
		return lose(r, member ? &r->st.bad_length : &r->st.truncated, (size_t)hlen, msg);
	}
	return accept(r, rec, total + term, (size_t)hlen, (size_t)cl,
		      aligned && mem == r->mem_c_start);
}

/* Skip CR, LF, spaces and NULs between records (within a gzip member). */
static int skip_blanks(struct warc_reader *r)
{
	for (;;) {
		const int rc = need(r, 1, !r->gzip);
		if (rc <= 0)
			return rc;
		const uint8_t *p = r->win + r->win_pos, *e = r->win + r->win_len;
		while (p < e && is_blank(*p))
			p++;
		r->win_pos = (size_t)(p - r->win);
		if (p < e)
			return 1;
		win_drop(r);
	}
}

static int read_record(struct warc_reader *r, struct warc_record *rec)
{
	if (r->gzip && avail(r) == 0 && !r->member_active) {
		const int rc = gz_begin_member(r);
		if (rc <= 0)
			return rc < 0 ? REC_FATAL : REC_END;
	}
	int rc = skip_blanks(r);
	if (rc < 0)
		return stream_fault(rc);
	if (rc == 0)
		return r->gzip ? REC_SKIP : REC_END;
	const int aligned = r->gzip && r->win_u_off + r->win_pos == r->mem_u_start;
	const int cross = !r->gzip || !aligned || r->seen_multi;
	r->per_member = r->gzip && !cross;
	rc = need(r, 5, cross);
	if (rc < 0)
		return stream_fault(rc);
	if (rc == 0 || memcmp(r->win + r->win_pos, "WARC/", 5)) {
		rc = resync(r, cross);
		return rc < 0 ? stream_fault(rc) : REC_SKIP;
	}
	return read_body(r, rec, aligned, cross);
}

static int detect(struct warc_reader *r)
{
	r->detected = 1;
	while (r->in_len < 2) {
		const long n = in_fill(r);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
	}
	r->gzip = r->in_len >= 2 && r->in[0] == 0x1f && r->in[1] == 0x8b;
	if (!r->gzip)
		return 0;
	r->file_size = -1;
	if (inflateInit2(&r->zs, 31) != Z_OK) {
		log_error("%s: cannot initialise zlib", r->name);
		return -1;
	}
	r->zs_ready = 1;
	return 0;
}

int warc_next(struct warc_reader *r, struct warc_record *rec)
{
	if (r->failed || (!r->detected && detect(r)))
		return r->failed = 1, -1;
	for (;;) {
		const int rc = read_record(r, rec);
		if (rc == REC_OK)
			return 1;
		if (rc == REC_END)
			return 0;
		if (rc == REC_FATAL) {
			r->failed = 1;
			return -1;
		}
	}
}

struct warc_reader *warc_open(FILE *fp, const char *name, size_t max_record)
{
	struct warc_reader *r = calloc(1, sizeof *r);
	if (r)
		r->in = malloc(IN_CHUNK);
	if (!r || !r->in) {
		log_error("%s: out of memory", name);
		free(r);
		return NULL;
	}
	r->fp = fp;
	r->name = name;
	r->max_record = max_record ? max_record : WARC_DEFAULT_MAX_RECORD;
	r->win_limit = MAX_HEADER + r->max_record + WIN_SLACK + 16;
	r->file_size = -1;
	struct stat sb;
	if (fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && ftello(fp) == 0)
		r->file_size = sb.st_size;
	return r;
}

const struct warc_stats *warc_reader_stats(const struct warc_reader *r)
{
	return &r->st;
}

int warc_reader_is_gzip(const struct warc_reader *r)
{
	return r->gzip;
}

void warc_close(struct warc_reader *r)
{
	if (!r)
		return;
	if (r->zs_ready)
		inflateEnd(&r->zs);
	free(r->in);
	free(r->win);
	free(r->hbuf);
	free(r->hdrs);
	free(r);
}
