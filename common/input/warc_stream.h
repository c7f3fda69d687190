/*
 * warc_stream.h - the byte stream under the WARC record reader (warc.h).
 *
 * Raw bytes come in through a read callback; the stream hands out the
 * text they hold in a window: copied from a plain file, or inflated from
 * gzip, one member at a time.  It knows gzip members, whole-file gzip
 * (a member holding many records is simply a long member), plain files
 * and offsets, and nothing of records: the reader on top says how many
 * bytes it needs and whether they may come from the next gzip member.
 *
 *   input   raw bytes in s->in, refilled through the callback; for gzip
 *           the bytes of the current member are kept while they fit, so
 *           a corrupt member can be rescanned from its second byte
 *   window  s->win[win_pos, win_len): text not yet consumed.  The caller
 *           reads it in place and consumes it with warc_stream_skip();
 *           warc_stream_need() may move the window's contents but never
 *           changes what the cursor (win_pos) points at
 *
 * Damage in the stream (garbage between gzip members, a corrupt or
 * truncated member) is counted in s->st and logged with the file name
 * and offset; the rest of the member is then dropped (what inflated
 * before the damage stays in the window) and the stream goes on at the
 * next one.
 *
 * Every field is written by the functions declared here only; callers
 * read them.
 */
#ifndef NDD_WARC_STREAM_H
#define NDD_WARC_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

/* Stream faults returned by warc_stream_need() and friends (0 = not
 * available). */
enum { WARC_STREAM_BROKEN = -1, WARC_STREAM_FATAL = -2 };

/*
 * A byte source: read up to @n bytes into @buf.  @return bytes read, 0 at
 * the end, or -1 on an error (errno set).
 */
typedef long (*warc_read_fn)(void *ctx, void *buf, size_t n);

/* What the stream skipped or lost. */
struct warc_stream_stats {
	uint64_t bytes_in;     /* bytes read from the source */
	uint64_t garbage;      /* runs of bytes between gzip members that are not one */
	uint64_t truncated;    /* gzip member cut short by the end of the input */
	uint64_t corrupt_gzip; /* gzip member that does not inflate */
};

struct libdeflate_decompressor;

struct warc_stream {
	warc_read_fn read;
	void *read_ctx;
	const char *name;  /* for messages */
	size_t win_limit;  /* largest window */
	int64_t file_size; /* plain input of known size, else -1 */
	int detected, gzip, in_eof;

	uint8_t *in;     /* raw input */
	size_t in_pos, in_len, in_cap;
	int in_filled;   /* the last read filled the buffer: it may grow */
	uint64_t in_off; /* input offset of in[0] */

	z_stream zs;
	int zs_ready;
	struct libdeflate_decompressor *ld; /* whole-member fast path, or NULL */
	int member_active;  /* inflating a member whose end is not reached */
	int gz_resync;      /* scanning after a corrupt member: stay quiet */
	int quiet;          /* the next garbage run belongs to a fault counted above */
	int member_lost;    /* the current member broke: a record cut short in it is
			       counted by the stream already */
	uint64_t mem_c_start, mem_c_end; /* compressed range of the current member */
	uint64_t mem_u_start;            /* stream offset where it starts */

	uint8_t *win;
	size_t win_pos, win_len, win_cap;
	size_t win_high;    /* win[0, win_high) may have been written since win came in */
	uint64_t win_u_off; /* stream offset of win[0] */

	struct warc_stream_stats st;
};

/**
 * Set up @s over @read(@ctx, ...).  @name is used in messages; @max_need
 * is the most the caller will ask warc_stream_need() for; @size is the
 * source's size if known, else -1.  @return 0, or -1 on OOM (not
 * logged).  Either way warc_stream_free() may be called.
 */
int warc_stream_init(struct warc_stream *s, warc_read_fn read, void *ctx, const char *name,
		     size_t max_need, int64_t size) __attribute__((warn_unused_result));

/** Free the stream's buffers and inflaters (@s itself is the caller's). */
void warc_stream_free(struct warc_stream *s);

/**
 * Look at the first bytes: gzip or not; set up the inflaters.  Done once,
 * before anything else is asked.  @return 0 or -1 (logged).
 */
int warc_stream_detect(struct warc_stream *s);

/**
 * Start the next gzip member (skipping garbage before it, counted).  A
 * plain record's "WARC/" line met first switches the stream to plain
 * input from there (s->gzip becomes 0), once the window holds no unread
 * bytes: until then it is the end of the gzip part.
 * @return 1 started (or switched), 0 end of input (or of the gzip part),
 * WARC_STREAM_FATAL.
 */
int warc_stream_begin_member(struct warc_stream *s);

/**
 * Make @n bytes available at the cursor.  @cross: for gzip, go on into
 * the next member when this one ends.  @return 1 ok, 0 not possible (end
 * of input, or end of member without @cross, or @n above the window's
 * limit), WARC_STREAM_BROKEN (the rest of the member was lost: the
 * window keeps what inflated before the damage), WARC_STREAM_FATAL (read error or OOM, logged).
 */
int warc_stream_need(struct warc_stream *s, size_t n, int cross);

/**
 * Read on as gzip from the cursor (plain input that goes on with gzip
 * members: a plain WARC and a .warc.gz in one file).  Nothing at the
 * cursor is lost.  @return 1, or WARC_STREAM_FATAL (logged).
 */
int warc_stream_to_gzip(struct warc_stream *s);

/** 1 if the 10 bytes at @p look like a gzip member header. */
int warc_gzip_header_at(const uint8_t *p);

/** Throw away @n bytes of the stream.  @return as warc_stream_need(). */
int warc_stream_discard(struct warc_stream *s, uint64_t n, int cross);

/** Forget the window's contents (they were consumed or are lost). */
void warc_stream_drop(struct warc_stream *s);

/**
 * Say whether the next run of garbage between gzip members is part of a
 * fault the caller has counted already (@on = 1) or is counted on its own.
 */
void warc_stream_set_quiet(struct warc_stream *s, int on);

/** Describe the position at the cursor for a message. */
void warc_stream_where(const struct warc_stream *s, char *buf, size_t size);

/**
 * Give the caller the window's buffer and take @*buf (@*cap bytes; NULL
 * and 0 are fine) in its place.  Possible only between gzip members with
 * the window consumed.  @return 1 swapped (*written: how far into the old
 * buffer the stream may have written while it held it), or 0 (nothing
 * changed).
 */
int warc_stream_swap_window(struct warc_stream *s, uint8_t **buf, size_t *cap, size_t *written);

/** Bytes of the window at the cursor. */
static inline size_t warc_stream_avail(const struct warc_stream *s)
{
	return s->win_len - s->win_pos;
}

/** The bytes at the cursor (warc_stream_avail() of them). */
static inline const uint8_t *warc_stream_cur(const struct warc_stream *s)
{
	return s->win + s->win_pos;
}

/** Stream offset of the cursor: inflated for gzip. */
static inline uint64_t warc_stream_tell(const struct warc_stream *s)
{
	return s->win_u_off + s->win_pos;
}

/** Consume @n bytes at the cursor (at most warc_stream_avail()). */
static inline void warc_stream_skip(struct warc_stream *s, size_t n)
{
	s->win_pos += n;
}

/** CR, LF, space, tab and NUL: what may pad records and gzip members. */
static inline int warc_is_blank(uint8_t c)
{
	return c == '\r' || c == '\n' || c == ' ' || c == '\t' || c == 0;
}

/** 1 if any of the @n bytes at @p is not blank. */
int warc_any_nonblank(const uint8_t *p, size_t n);

#endif
