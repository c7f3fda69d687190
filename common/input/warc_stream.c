/*
 * warc_stream.c - the WARC reader's lower layers (see warc_internal.h).
 *
 *   input   raw bytes in r->in, refilled through the read callback; for
 *           gzip the bytes of the current member are kept while they fit,
 *           so a corrupt member can be rescanned from its second byte
 *   stream  the WARC text in the window r->win: copied from the input
 *           (plain) or inflated member by member (gzip).  warc_need(n)
 *           makes n bytes available past win_pos; for gzip it crosses a
 *           member boundary only when told to, because a per-record
 *           member must hold the whole record
 *
 * Two inflaters.  A per-record member (the norm: tens of KiB) that lies
 * whole in the input buffer is inflated in one call by libdeflate, which
 * is about twice as fast as zlib here (bench/extract.sh measures both).
 * libdeflate cannot stream, so anything else goes to zlib: a member that
 * does not fit the buffer or inflates past half the largest window
 * (whole-file gzip), and every member libdeflate rejects, which zlib re-reads
 * from its start so that truncation, corruption and resynchronisation
 * are judged by one decoder only.
 */
#include "input/warc_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifndef NDD_NO_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "util/log.h"

int warc_any_nonblank(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!warc_is_blank(p[i]))
			return 1;
	return 0;
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
	    r->in_len - (r->mem_c_start - r->in_off) < WARC_IN_CHUNK / 2)
		keep = (size_t)(r->mem_c_start - r->in_off);
	memmove(r->in, r->in + keep, r->in_len - keep);
	r->in_len -= keep;
	r->in_pos -= keep;
	r->in_off += keep;
	if (r->in_eof)
		return 0;
	const long n = r->read(r->read_ctx, r->in + r->in_len, WARC_IN_CHUNK - r->in_len);
	if (n < 0) {
		log_error("%s: read error at offset %llu: %s", r->name,
			  (unsigned long long)(r->in_off + r->in_len), strerror(errno));
		return -1;
	}
	if (n == 0)
		r->in_eof = 1;
	r->in_len += (size_t)n;
	r->st.bytes_in += (uint64_t)n;
	return n;
}

static uint64_t in_tell(const struct warc_reader *r)
{
	return r->in_off + r->in_pos;
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
		junk |= warc_any_nonblank(r->in + r->in_pos, i - r->in_pos);
		r->in_pos = i;
		if (i <= last)
			break;
	}
	if (r->in_len - r->in_pos < 10) {
		junk |= warc_any_nonblank(r->in + r->in_pos, r->in_len - r->in_pos);
		r->in_pos = r->in_len;
	}
	if (junk)
		count_garbage(r, start, in_tell(r) - start, "compressed");
	return r->in_pos < r->in_len;
}

void warc_win_drop(struct warc_reader *r)
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
	if (cap <= r->win_len) { /* warc_need() never asks past win_limit */
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
	warc_win_drop(r);
	if (!truncated && r->mem_c_start + 1 >= r->in_off &&
	    r->mem_c_start + 1 <= r->in_off + r->in_len)
		r->in_pos = (size_t)(r->mem_c_start + 1 - r->in_off);
}

static void member_done(struct warc_reader *r)
{
	r->member_active = 0;
	r->gz_resync = 0;
	r->mem_c_end = in_tell(r);
}

/*
 * The one-call path: inflate the member at in_pos whole if it lies in the
 * buffered input.  It is offered half the largest window at once: that
 * is address space, not memory (the pages are touched only as far as the
 * output goes), where offering 4 MiB first and four times more on
 * failure inflated the first 4 MiB of every bigger member twice (on the
 * bench crawl 2 members in 6,557, but 4% of the inflated bytes).
 * @return 1 done, 0 not done (nothing consumed: zlib takes over),
 * NEED_FATAL.
 */
static int gz_fast_member(struct warc_reader *r)
{
#ifndef NDD_NO_LIBDEFLATE
	if (!r->ld)
		return 0;
	/* members up to a quarter of the buffer are always whole in it, and
	 * a refill moves at most that quarter to the front */
	if (!r->in_eof && r->in_len - r->in_pos < WARC_IN_CHUNK / 4) {
		if (in_fill(r) < 0)
			return NEED_FATAL;
	}
	size_t used = 0, out = 0;
	if (win_reserve(r, r->win_limit / 2))
		return NEED_FATAL;
	if (libdeflate_gzip_decompress_ex(r->ld, r->in + r->in_pos, r->in_len - r->in_pos,
					  r->win + r->win_len, r->win_cap - r->win_len, &used,
					  &out) != LIBDEFLATE_SUCCESS) {
		/* a member too big for the room may have been written to its end */
		warc_win_wrote(r, r->win_cap);
		return 0;
	}
	r->in_pos += used;
	r->win_len += out;
	warc_win_wrote(r, r->win_len);
	member_done(r);
	return 1;
#else
	(void)r;
	return 0;
#endif
}

int warc_gz_begin_member(struct warc_reader *r)
{
	const int rc = gz_find_member(r);
	if (rc <= 0)
		return rc < 0 ? NEED_FATAL : 0;
	r->mem_c_start = in_tell(r);
	r->mem_u_start = r->win_u_off + r->win_len;
	const int fast = gz_fast_member(r);
	if (fast)
		return fast < 0 ? NEED_FATAL : 1;
	if (inflateReset(&r->zs) != Z_OK)
		return NEED_FATAL;
	r->member_active = 1;
	return 1;
}

/* Inflate more of the current member into the window.  @return 1 progress
 * or member end, NEED_BROKEN, NEED_FATAL. */
static int gz_inflate_some(struct warc_reader *r)
{
	if (r->in_pos == r->in_len && in_fill(r) < 0)
		return NEED_FATAL;
	if (win_reserve(r, WARC_WIN_SLACK))
		return NEED_FATAL;
	const size_t in0 = r->in_pos, out0 = r->win_len;
	r->zs.next_in = r->in + r->in_pos;
	r->zs.avail_in = (uInt)(r->in_len - r->in_pos);
	r->zs.next_out = r->win + r->win_len;
	r->zs.avail_out = (uInt)(r->win_cap - r->win_len);
	const int zrc = inflate(&r->zs, Z_NO_FLUSH);
	r->in_pos = (size_t)(r->zs.next_in - r->in);
	r->win_len = (size_t)(r->zs.next_out - r->win);
	warc_win_wrote(r, r->win_len);
	if (zrc == Z_STREAM_END) {
		member_done(r);
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
	warc_win_wrote(r, r->win_len);
	r->in_pos += n;
	return 1;
}

int warc_stream_detect(struct warc_reader *r)
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
#ifndef NDD_NO_LIBDEFLATE
	r->ld = libdeflate_alloc_decompressor(); /* NULL: zlib does it all */
#endif
	return 0;
}

void warc_stream_free(struct warc_reader *r)
{
	if (r->zs_ready)
		inflateEnd(&r->zs);
#ifndef NDD_NO_LIBDEFLATE
	if (r->ld)
		libdeflate_free_decompressor(r->ld);
#endif
	free(r->in);
	free(r->win);
}

/* ---- stream layer ---- */

int warc_need(struct warc_reader *r, size_t n, int cross)
{
	if (n > r->win_limit)
		return 0;
	while (warc_avail(r) < n) {
		int rc;
		if (!r->gzip)
			rc = plain_read_some(r);
		else if (r->member_active)
			rc = gz_inflate_some(r);
		else if (cross)
			rc = warc_gz_begin_member(r);
		else
			rc = 0;
		if (rc <= 0)
			return rc;
	}
	return 1;
}

int warc_discard(struct warc_reader *r, uint64_t n, int cross)
{
	while (n > 0) {
		size_t a = warc_avail(r);
		if (a == 0) {
			int rc = warc_need(r, 1, cross);
			if (rc <= 0)
				return rc;
			continue;
		}
		size_t k = a < n ? a : (size_t)n;
		r->win_pos += k;
		n -= k;
		if (r->win_pos == r->win_len)
			warc_win_drop(r);
	}
	return 1;
}

void warc_where(const struct warc_reader *r, char *buf, size_t size)
{
	const uint64_t u = r->win_u_off + r->win_pos;
	if (r->gzip)
		snprintf(buf, size, "gzip member at offset %llu (inflated offset %llu)",
			 (unsigned long long)r->mem_c_start, (unsigned long long)u);
	else
		snprintf(buf, size, "offset %llu", (unsigned long long)u);
}

/* For gzip the scan stays inside the current member (a member boundary is
 * a record boundary); at its end the window is dropped. */
int warc_resync(struct warc_reader *r, int cross)
{
	char at[128];
	warc_where(r, at, sizeof at);
	uint64_t skipped = 0;
	int junk = 0, rc;
	for (;;) {
		const uint8_t *base = r->win + r->win_pos;
		const uint8_t *hit = memmem(base, warc_avail(r), "\nWARC/", 6);
		size_t k = hit ? (size_t)(hit - base) + 1 : (warc_avail(r) > 5 ? warc_avail(r) - 5 : 0);
		junk |= warc_any_nonblank(base, k);
		skipped += k;
		r->win_pos += k;
		if (hit)
			break;
		rc = warc_need(r, warc_avail(r) + 4096, cross);
		if (rc == 0 && warc_avail(r) > 5)
			continue; /* a partial read: scan it */
		if (rc == NEED_FATAL)
			return rc;
		if (rc <= 0) {
			junk |= warc_any_nonblank(r->win + r->win_pos, warc_avail(r));
			skipped += warc_avail(r);
			warc_win_drop(r);
			break;
		}
	}
	if (junk && !r->resyncing) {
		r->st.garbage++;
		log_warn("%s: skipped %llu bytes of garbage at %s", r->name,
			 (unsigned long long)skipped, at);
	}
	r->resyncing = 0;
	return warc_avail(r) > 0;
}
