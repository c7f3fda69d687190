/*
 * warc_stream.c - the byte stream under the WARC reader (see warc_stream.h).
 *
 * The window is filled by copying (plain input) or by inflating the
 * current gzip member; warc_stream_need(n) crosses a member boundary only
 * when told to, because a per-record member must hold the whole record.
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
#include "input/warc_stream.h"

#include <errno.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

#define WARC_IN_CHUNK (4u << 20)
#define WARC_IN_FIRST (64u << 10) /* first buffer of an input of unknown size */
#define WARC_WIN_SLACK (64u << 10)

/** The window was written up to @end (its pages there are touched). */
static void win_wrote(struct warc_stream *s, size_t end)
{
	if (end > s->win_high)
		s->win_high = end;
}

int warc_any_nonblank(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!warc_is_blank(p[i]))
			return 1;
	return 0;
}

/* ---- input layer ---- */

/* An input of unknown size starts in a small buffer, which doubles up to
 * WARC_IN_CHUNK each time a read fills it: a small input (an archive
 * member, a page piped in) then costs one small allocation, and a big one
 * reaches the large reads in a few steps.  Growing is optional: without
 * memory the buffer stays as it is. */
static void in_grow(struct warc_stream *s)
{
	if (!s->in_filled || s->in_cap >= WARC_IN_CHUNK)
		return;
	const size_t cap = s->in_cap * 2 < WARC_IN_CHUNK ? s->in_cap * 2 : WARC_IN_CHUNK;
	uint8_t *in = realloc(s->in, cap);
	if (!in)
		return;
	s->in = in;
	s->in_cap = cap;
	s->in_filled = 0;
}

/* Refill s->in.  Keeps the current member's bytes when they fit in half the
 * buffer (for rescanning after corruption), and always keeps half the
 * buffer or more for the read.  @return bytes read, -1 on a
 * read error. */
static long in_fill(struct warc_stream *s)
{
	size_t keep = s->in_pos;
	if (s->gzip && s->mem_c_start >= s->in_off &&
	    s->mem_c_start - s->in_off < keep &&
	    s->in_len - (s->mem_c_start - s->in_off) < s->in_cap / 2)
		keep = (size_t)(s->mem_c_start - s->in_off);
	/* Compacting moves the kept bytes, so it waits until the room after
	 * them is short: a source that hands out small pieces (libarchive's
	 * blocks) would otherwise move a member's bytes once per piece. */
	if (s->in_cap - s->in_len < s->in_cap / 2) {
		memmove(s->in, s->in + keep, s->in_len - keep);
		s->in_len -= keep;
		s->in_pos -= keep;
		s->in_off += keep;
	}
	if (s->in_eof)
		return 0;
	in_grow(s);
	const size_t want = s->in_cap - s->in_len;
	const long n = s->read(s->read_ctx, s->in + s->in_len, want);
	if (n < 0) {
		log_error("%s: read error at offset %llu: %s", s->name,
			  (unsigned long long)(s->in_off + s->in_len), strerror(errno));
		return -1;
	}
	if (n == 0)
		s->in_eof = 1;
	s->in_filled = (size_t)n == want;
	s->in_len += (size_t)n;
	s->st.bytes_in += (uint64_t)n;
	return n;
}

static uint64_t in_tell(const struct warc_stream *s)
{
	return s->in_off + s->in_pos;
}

/* A plausible gzip member header: magic, deflate, no reserved flag bits,
 * a known XFL and OS.  The extra checks make false hits inside deflate
 * data, when rescanning after corruption, about 9000 times rarer. */
int warc_gzip_header_at(const uint8_t *p)
{
	return p[0] == 0x1f && p[1] == 0x8b && p[2] == 8 && (p[3] & 0xe0) == 0 &&
	       (p[8] == 0 || p[8] == 2 || p[8] == 4) && (p[9] <= 13 || p[9] == 255);
}

static void count_garbage(struct warc_stream *s, uint64_t off, uint64_t n, const char *unit)
{
	if (s->quiet || s->gz_resync)
		return;
	s->st.garbage++;
	log_warn("%s: skipped %llu bytes of garbage at %s offset %llu", s->name,
		 (unsigned long long)n, unit, (unsigned long long)off);
}

/* A plain record's version line at in[i] (10 bytes readable): at a line
 * start, or where the scan began. */
static int plain_record_at(const struct warc_stream *s, size_t i, size_t start)
{
	return s->in[i] == 'W' && !memcmp(s->in + i, "WARC/", 5) &&
	       (i == start || s->in[i - 1] == '\n');
}

/* Position s->in at the next gzip member, or at a plain record (a file of
 * gzip members then plain records, as `cat a.warc.gz b.warc` makes it).
 * @return 1 member found, 2 plain record found, 0 end of input, -1 read
 * error. */
static int gz_find_member(struct warc_stream *s)
{
	const uint64_t start = in_tell(s);
	int junk = 0, plain = 0;
	for (;;) {
		if (s->in_len - s->in_pos < 10) {
			long n = in_fill(s);
			if (n < 0)
				return -1;
			if (n == 0 && s->in_len - s->in_pos < 10)
				break;
			continue;
		}
		size_t i = s->in_pos, last = s->in_len - 10;
		const size_t first = s->in_off + i == start ? i : SIZE_MAX;
		while (i <= last && !warc_gzip_header_at(s->in + i) &&
		       !(s->in[i] == 'W' && !s->gz_resync && plain_record_at(s, i, first)))
			i++;
		junk |= warc_any_nonblank(s->in + s->in_pos, i - s->in_pos);
		s->in_pos = i;
		if (i <= last) {
			plain = !warc_gzip_header_at(s->in + i);
			break;
		}
	}
	if (s->in_len - s->in_pos < 10) {
		junk |= warc_any_nonblank(s->in + s->in_pos, s->in_len - s->in_pos);
		s->in_pos = s->in_len;
	}
	if (junk)
		count_garbage(s, start, in_tell(s) - start, "compressed");
	if (plain)
		return 2;
	return s->in_pos < s->in_len;
}

void warc_stream_drop(struct warc_stream *s)
{
	s->win_u_off += s->win_len;
	s->win_pos = s->win_len = 0;
}

/* Make room for up to @extra bytes past win_len, moving or growing the
 * window but never past win_limit; at least one byte is guaranteed. */
static int win_reserve(struct warc_stream *s, size_t extra)
{
	if (s->win_pos > 0 && s->win_len + extra > s->win_cap) {
		memmove(s->win, s->win + s->win_pos, s->win_len - s->win_pos);
		s->win_u_off += s->win_pos;
		s->win_len -= s->win_pos;
		s->win_pos = 0;
	}
	if (s->win_len + extra <= s->win_cap)
		return 0;
	size_t cap = s->win_cap * 2;
	if (cap < s->win_len + extra)
		cap = s->win_len + extra;
	if (cap > s->win_limit)
		cap = s->win_limit;
	if (cap <= s->win_len) { /* warc_stream_need() never asks past win_limit */
		log_error("%s: record window full", s->name);
		return -1;
	}
	uint8_t *w = realloc(s->win, cap);
	if (!w) {
		log_error("%s: out of memory for a %zu-byte record window", s->name, cap);
		return -1;
	}
	s->win = w;
	s->win_cap = cap;
	return 0;
}

/* A member failed: count it (unless already rescanning) and rescan from
 * the member's second byte if it is still buffered.  What inflated
 * before the damage stays in the window: the records wholly in it are
 * sound (zcat gives them too), and in a whole-file gzip they are all the
 * records before the damage. */
static void gz_broken(struct warc_stream *s, int truncated, const char *why)
{
	if (truncated) {
		s->st.truncated++;
		log_warn("%s: gzip member at offset %llu is truncated; the record cut short is lost",
			 s->name, (unsigned long long)s->mem_c_start);
	} else if (!s->gz_resync) {
		s->st.corrupt_gzip++;
		log_warn("%s: corrupt gzip member at offset %llu (%s) near inflated offset %llu; "
			 "the rest of the member is lost", s->name,
			 (unsigned long long)s->mem_c_start, why ? why : "bad data",
			 (unsigned long long)(s->win_u_off + s->win_len));
	}
	s->gz_resync = 1;
	s->member_active = 0;
	s->member_lost = 1;
	if (!truncated && s->mem_c_start + 1 >= s->in_off &&
	    s->mem_c_start + 1 <= s->in_off + s->in_len)
		s->in_pos = (size_t)(s->mem_c_start + 1 - s->in_off);
}

static void member_done(struct warc_stream *s)
{
	s->member_active = 0;
	s->gz_resync = 0;
	s->mem_c_end = in_tell(s);
}

/*
 * The one-call path: inflate the member at in_pos whole if it lies in the
 * buffered input.  It is offered half the largest window at once: that
 * is address space, not memory (the pages are touched only as far as the
 * output goes), and a member is never inflated twice, as it would be if
 * a smaller window were offered first and a larger one on failure.
 * @return 1 done, 0 not done (nothing consumed: zlib takes over),
 * WARC_STREAM_FATAL.
 */
static int gz_fast_member(struct warc_stream *s)
{
	if (!s->ld)
		return 0;
	/* members up to a quarter of the buffer are always whole in it, and
	 * a refill moves at most that quarter to the front */
	if (!s->in_eof && s->in_len - s->in_pos < s->in_cap / 4) {
		if (in_fill(s) < 0)
			return WARC_STREAM_FATAL;
	}
	size_t used = 0, out = 0;
	if (win_reserve(s, s->win_limit / 2))
		return WARC_STREAM_FATAL;
	if (libdeflate_gzip_decompress_ex(s->ld, s->in + s->in_pos, s->in_len - s->in_pos,
					  s->win + s->win_len, s->win_cap - s->win_len, &used,
					  &out) != LIBDEFLATE_SUCCESS) {
		/* a member too big for the room may have been written to its end */
		win_wrote(s, s->win_cap);
		return 0;
	}
	s->in_pos += used;
	s->win_len += out;
	win_wrote(s, s->win_len);
	member_done(s);
	return 1;
}

int warc_stream_begin_member(struct warc_stream *s)
{
	const int rc = gz_find_member(s);
	if (rc <= 0)
		return rc < 0 ? WARC_STREAM_FATAL : 0;
	if (rc == 2) {
		/* A record still being read (a caller crossing members for it)
		 * ends with the gzip part: the switch waits until its bytes are
		 * consumed, so the window never shrinks under a caller. */
		if (warc_stream_avail(s))
			return 0;
		/* plain records from here on: stream offsets are file offsets */
		warc_stream_drop(s);
		s->gzip = 0;
		s->member_active = 0;
		s->win_u_off = in_tell(s);
		return 1;
	}
	s->mem_c_start = in_tell(s);
	s->mem_u_start = s->win_u_off + s->win_len;
	s->member_lost = 0;
	const int fast = gz_fast_member(s);
	if (fast)
		return fast < 0 ? WARC_STREAM_FATAL : 1;
	if (inflateReset(&s->zs) != Z_OK)
		return WARC_STREAM_FATAL;
	s->member_active = 1;
	return 1;
}

/* Inflate more of the current member into the window.  @return 1 progress
 * or member end, WARC_STREAM_BROKEN, WARC_STREAM_FATAL. */
static int gz_inflate_some(struct warc_stream *s)
{
	if (s->in_pos == s->in_len && in_fill(s) < 0)
		return WARC_STREAM_FATAL;
	if (win_reserve(s, WARC_WIN_SLACK))
		return WARC_STREAM_FATAL;
	const size_t in0 = s->in_pos, out0 = s->win_len;
	s->zs.next_in = s->in + s->in_pos;
	s->zs.avail_in = (uInt)(s->in_len - s->in_pos);
	s->zs.next_out = s->win + s->win_len;
	s->zs.avail_out = (uInt)(s->win_cap - s->win_len);
	const int zrc = inflate(&s->zs, Z_NO_FLUSH);
	s->in_pos = (size_t)(s->zs.next_in - s->in);
	s->win_len = (size_t)(s->zs.next_out - s->win);
	win_wrote(s, s->win_len);
	if (zrc == Z_STREAM_END) {
		member_done(s);
		return 1;
	}
	if (zrc == Z_OK || zrc == Z_BUF_ERROR) {
		/* No progress with all input used means the file ended inside
		 * the member (zlib may still hold output, hence the check). */
		if (s->in_eof && s->in_pos == s->in_len && in0 == s->in_pos &&
		    out0 == s->win_len) {
			gz_broken(s, 1, NULL);
			return WARC_STREAM_BROKEN;
		}
		return 1;
	}
	if (zrc == Z_MEM_ERROR) {
		log_error("%s: out of memory in inflate", s->name);
		return WARC_STREAM_FATAL;
	}
	gz_broken(s, 0, s->zs.msg);
	return WARC_STREAM_BROKEN;
}

static int plain_read_some(struct warc_stream *s)
{
	if (s->in_pos == s->in_len) {
		long n = in_fill(s);
		if (n < 0)
			return WARC_STREAM_FATAL;
		if (n == 0)
			return 0;
	}
	size_t n = s->in_len - s->in_pos;
	if (win_reserve(s, n))
		return WARC_STREAM_FATAL;
	if (n > s->win_cap - s->win_len)
		n = s->win_cap - s->win_len;
	memcpy(s->win + s->win_len, s->in + s->in_pos, n);
	s->win_len += n;
	win_wrote(s, s->win_len);
	s->in_pos += n;
	return 1;
}

int warc_stream_init(struct warc_stream *s, warc_read_fn read, void *ctx, const char *name,
		     size_t max_need, int64_t size)
{
	memset(s, 0, sizeof *s);
	/* a small input gets a small buffer: one allocation of its size */
	s->in_cap = size < 0 ? WARC_IN_FIRST : WARC_IN_CHUNK;
	if (size >= 0 && (uint64_t)size + 64 < s->in_cap)
		s->in_cap = (size_t)size + 64 < WARC_IN_FIRST ? WARC_IN_FIRST : (size_t)size + 64;
	s->in = malloc(s->in_cap);
	if (!s->in)
		return -1;
	s->read = read;
	s->read_ctx = ctx;
	s->name = name;
	s->win_limit = max_need + WARC_WIN_SLACK;
	s->file_size = size;
	return 0;
}

int warc_stream_detect(struct warc_stream *s)
{
	s->detected = 1;
	while (s->in_len < 2) {
		const long n = in_fill(s);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
	}
	s->gzip = s->in_len >= 2 && s->in[0] == 0x1f && s->in[1] == 0x8b;
	if (!s->gzip)
		return 0;
	s->gzip = 0;
	return warc_stream_to_gzip(s) < 0 ? -1 : 0;
}

int warc_stream_to_gzip(struct warc_stream *s)
{
	/* the window's unread bytes go back in front of the unread input */
	const size_t k = warc_stream_avail(s), rest = s->in_len - s->in_pos;
	if (k + rest + 4096 > s->in_cap) {
		const size_t cap = k + rest + (64u << 10);
		uint8_t *in = malloc(cap);
		if (!in) {
			log_error("%s: out of memory", s->name);
			return WARC_STREAM_FATAL;
		}
		memcpy(in + k, s->in + s->in_pos, rest);
		free(s->in);
		s->in = in;
		s->in_cap = cap;
	} else {
		memmove(s->in + k, s->in + s->in_pos, rest);
	}
	if (k)
		memcpy(s->in, warc_stream_cur(s), k);
	s->in_off = warc_stream_tell(s);
	s->in_pos = 0;
	s->in_len = k + rest;
	warc_stream_drop(s);
	s->gzip = 1;
	s->file_size = -1;
	if (!s->zs_ready) {
		if (inflateInit2(&s->zs, 31) != Z_OK) {
			log_error("%s: cannot initialise zlib", s->name);
			return WARC_STREAM_FATAL;
		}
		s->zs_ready = 1;
		s->ld = libdeflate_alloc_decompressor();
	}
	return 1;
}

void warc_stream_free(struct warc_stream *s)
{
	if (s->zs_ready)
		inflateEnd(&s->zs);
	if (s->ld)
		libdeflate_free_decompressor(s->ld);
	free(s->in);
	free(s->win);
}

/* ---- stream layer ---- */

int warc_stream_need(struct warc_stream *s, size_t n, int cross)
{
	if (n > s->win_limit)
		return 0;
	while (warc_stream_avail(s) < n) {
		int rc;
		if (!s->gzip)
			rc = plain_read_some(s);
		else if (s->member_active)
			rc = gz_inflate_some(s);
		else if (cross)
			rc = warc_stream_begin_member(s);
		else
			rc = 0;
		if (rc <= 0)
			return rc;
	}
	return 1;
}

int warc_stream_discard(struct warc_stream *s, uint64_t n, int cross)
{
	while (n > 0) {
		size_t a = warc_stream_avail(s);
		if (a == 0) {
			int rc = warc_stream_need(s, 1, cross);
			if (rc <= 0)
				return rc;
			continue;
		}
		size_t k = a < n ? a : (size_t)n;
		s->win_pos += k;
		n -= k;
		if (s->win_pos == s->win_len)
			warc_stream_drop(s);
	}
	return 1;
}

void warc_stream_where(const struct warc_stream *s, char *buf, size_t size)
{
	const uint64_t u = s->win_u_off + s->win_pos;
	if (s->gzip)
		snprintf(buf, size, "gzip member at offset %llu (inflated offset %llu)",
			 (unsigned long long)s->mem_c_start, (unsigned long long)u);
	else
		snprintf(buf, size, "offset %llu", (unsigned long long)u);
}

void warc_stream_set_quiet(struct warc_stream *s, int on)
{
	s->quiet = on;
}

int warc_stream_swap_window(struct warc_stream *s, uint8_t **buf, size_t *cap, size_t *written)
{
	/* Only a finished member whose window is consumed: the bytes of the
	 * next record must not leave with this one. */
	if (!s->gzip || s->member_active || warc_stream_avail(s) != 0 || !s->win)
		return 0;
	uint8_t *const old = s->win;
	const size_t old_cap = s->win_cap;
	*written = s->win_high > s->win_len ? s->win_high : s->win_len;
	warc_stream_drop(s);
	s->win = *buf;
	s->win_cap = *buf ? *cap : 0;
	s->win_high = 0; /* what the new buffer held before is its giver's to know */
	*buf = old;
	*cap = old_cap;
	return 1;
}
