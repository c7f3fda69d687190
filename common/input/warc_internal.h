/*
 * warc_internal.h - the WARC reader's state, shared by its two files:
 * warc_stream.c (input and stream layers: raw bytes in, WARC text out,
 * member by member for gzip) and warc.c (record layer and public API).
 * Not for use outside the reader.
 *
 * While a record is parsed, win_pos stays at its first byte and every
 * position is relative to it; warc_need() may move the window's contents
 * but never changes what win_pos points at.
 */
#ifndef NDD_WARC_INTERNAL_H
#define NDD_WARC_INTERNAL_H

#include <zlib.h>

#include "input/warc.h"

#define WARC_IN_CHUNK (4u << 20)
#define WARC_WIN_SLACK (64u << 10)
#define WARC_MAX_HEADER (256u << 10) /* a WARC header bigger than this is broken */

/* Stream faults returned by warc_need() and friends (0 = not available). */
enum { NEED_BROKEN = -1, NEED_FATAL = -2 };

struct libdeflate_decompressor;

struct warc_reader {
	warc_read_fn read;
	void *read_ctx;
	const char *name;
	size_t max_record;
	size_t win_limit;  /* largest window: header + max record + slack */
	int64_t file_size; /* plain input of known size, else -1 */
	int detected, gzip, in_eof, failed;

	uint8_t *in;     /* raw input */
	size_t in_pos, in_len;
	uint64_t in_off; /* input offset of in[0] */

	z_stream zs;
	int zs_ready;
	struct libdeflate_decompressor *ld; /* whole-member fast path, or NULL */
	int member_active;  /* inflating a member whose end is not reached */
	int gz_resync;      /* scanning after a corrupt member: stay quiet */
	uint64_t mem_c_start, mem_c_end, mem_u_start;

	uint8_t *win;
	size_t win_pos, win_len, win_cap;
	size_t win_high;    /* win[0, win_high) may have been written since win came in */
	uint64_t win_u_off; /* stream offset of win[0] */

	int resyncing;      /* the next garbage run follows a counted fault */
	int warned_multi;
	int seen_multi;     /* a member held more than one record */
	int per_member;     /* the record being read must fill its gzip member */

	struct warc_hdrbuf hb;
	struct warc_stats st;
};

/** The window was written up to @end (its pages there are touched). */
static inline void warc_win_wrote(struct warc_reader *r, size_t end)
{
	if (end > r->win_high)
		r->win_high = end;
}

/** Bytes of stream available at win_pos. */
static inline size_t warc_avail(const struct warc_reader *r)
{
	return r->win_len - r->win_pos;
}

static inline int warc_is_blank(uint8_t c)
{
	return c == '\r' || c == '\n' || c == ' ' || c == '\t' || c == 0;
}

/** 1 if any of the @n bytes at @p is not blank. */
int warc_any_nonblank(const uint8_t *p, size_t n);

/** Look at the first bytes: gzip or not; set up the inflaters. @return 0 or -1. */
int warc_stream_detect(struct warc_reader *r);

/** Free the stream layer's buffers and inflaters. */
void warc_stream_free(struct warc_reader *r);

/**
 * Start the next gzip member (skipping garbage before it, counted).
 * @return 1 started, 0 end of input, NEED_FATAL.
 */
int warc_gz_begin_member(struct warc_reader *r);

/**
 * Make @n bytes available at win_pos.  @cross: for gzip, go on into the
 * next member when this one ends.  @return 1 ok, 0 not possible (end of
 * input, or end of member without @cross), NEED_BROKEN, NEED_FATAL.
 */
int warc_need(struct warc_reader *r, size_t n, int cross);

/** Throw away @n bytes of the stream.  @return as warc_need(). */
int warc_discard(struct warc_reader *r, uint64_t n, int cross);

/** Forget the window's contents (they were consumed or are lost). */
void warc_win_drop(struct warc_reader *r);

/** Describe the position at win_pos for a message. */
void warc_where(const struct warc_reader *r, char *buf, size_t size);

/**
 * Skip bytes up to the next line that starts with "WARC/" (counting a
 * run of garbage once).  @return 1 found, 0 not in this member or input,
 * negative on a stream fault.
 */
int warc_resync(struct warc_reader *r, int cross);

#endif
