/*
 * warc.h - a streaming WARC record reader over zlib.
 *
 * Reads WARC/1.0 and WARC/1.1 from a FILE: plain .warc, .warc.gz with one
 * gzip member per record (the normal layout), and a .warc.gz compressed
 * as one gzip stream ("whole-file gzip"), detected because a gzip member
 * holds more than one record.  The input does not need to be seekable.
 *
 * Offsets.  For per-record gzip, a record's offset is the compressed
 * offset of its gzip member and its length the member's compressed size,
 * so `dd skip=OFF count=LEN | zcat` fetches it.  For plain files they are
 * the byte range of the record.  For a record that does not sit alone in
 * its member, the offset is in the inflated stream (what `zcat | dd`
 * sees) and the record carries WARC_REC_OFFSET_UNCOMPRESSED; the reader
 * warns once per file.
 *
 * Input.  From a FILE (warc_open) or from any byte source through a read
 * callback (warc_open_read), such as a member of a tar or zip archive;
 * offsets are then offsets within that source.
 *
 * Robustness.  A broken record (garbage before it, bad header, wrong
 * Content-Length, corrupt or truncated gzip member, size above the limit)
 * costs that record only: the reader resynchronises on the next gzip
 * member (scanning for 1f 8b 08) or the next line starting with "WARC/",
 * counts the skip by reason in struct warc_stats and logs a warning with
 * the file name, byte offset and fault (the first few of a run of broken
 * records, then their number).  A header is cut short by a line starting
 * "WARC/", so resynchronising is linear in the input.  A record whose
 * block is followed by the next record's "WARC/" instead of CRLF CRLF is
 * kept.  Plain records and gzip members may follow each other in one
 * file (cat a.warc b.warc.gz).  A damaged gzip member keeps the records
 * that inflated before the damage (in a whole-file gzip: every record up
 * to it).  No input makes it crash or hang; memory is bounded by the
 * record size limit.
 *
 * Buffers are reused: a record returned by warc_next() (its headers and
 * block) is valid until the next call to warc_next() or warc_close().
 */
#ifndef NDD_WARC_H
#define NDD_WARC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "input/warc_header.h"
#include "input/warc_stream.h"

#define WARC_DEFAULT_MAX_RECORD (64u << 20)

/* Record flags. */
enum {
	WARC_REC_OFFSET_UNCOMPRESSED = 1u << 0, /* offset/length are in the inflated stream */
};

struct warc_record {
	enum warc_type type;
	uint32_t flags;            /* WARC_REC_* */
	uint64_t offset;           /* record start, see "Offsets" above */
	uint64_t length;           /* bytes of the record (or of its gzip member) */
	const char *version;       /* "WARC/1.1" */
	const struct warc_header *headers;
	size_t n_headers;
	const uint8_t *block;      /* content block, block_len bytes */
	size_t block_len;
};

/* Why records were skipped.  Each count is one lost record (or one run of
 * garbage bytes between records). */
struct warc_stats {
	uint64_t records;        /* well-formed records returned */
	uint64_t bytes_in;       /* bytes read from the file */
	uint64_t garbage;        /* runs of bytes that are not a record */
	uint64_t bad_header;     /* unparsable header, missing Content-Length */
	uint64_t bad_length;     /* Content-Length does not match the data */
	uint64_t huge;           /* above the size limit */
	uint64_t truncated;      /* input ended inside a record or member */
	uint64_t corrupt_gzip;   /* gzip member that does not inflate */
};

/** Total of the skip counters (everything but records and bytes_in). */
uint64_t warc_stats_skipped(const struct warc_stats *s);

/** Add @b's counters to @a. */
void warc_stats_add(struct warc_stats *a, const struct warc_stats *b);

struct warc_reader;

/**
 * Start reading @fp (positioned at the start of the WARC data; the caller
 * keeps ownership and closes it).  @name is used in messages.
 * @max_record: largest content block accepted (0 = WARC_DEFAULT_MAX_RECORD);
 * bigger records are skipped and counted as huge.
 * @return a reader, or NULL on OOM (logged).  Free with warc_close().
 */
struct warc_reader *warc_open(FILE *fp, const char *name, size_t max_record)
	__attribute__((warn_unused_result));

/**
 * As warc_open(), reading through @read(@ctx, ...) (warc_stream.h).  @size: bytes the
 * source holds if known, else -1 (used only to tell a lying
 * Content-Length from a huge record).  @ctx must outlive the reader.
 */
struct warc_reader *warc_open_read(warc_read_fn read, void *ctx, const char *name,
				   size_t max_record, int64_t size)
	__attribute__((warn_unused_result));

/**
 * Read the next well-formed record into @rec.
 * @return 1 for a record, 0 at the end of the input, -1 on a fatal error
 * (read error or OOM, logged).  Broken records are skipped, not returned.
 */
int warc_next(struct warc_reader *r, struct warc_record *rec)
	__attribute__((warn_unused_result));

/**
 * Give the caller the buffer that holds the record warc_next() just
 * returned, and take @*buf (@*cap bytes; NULL and 0 are fine) in its
 * place, so that a record can outlive the next call without a copy.
 * Possible only when nothing past the record is buffered: a record that
 * filled its gzip member (the norm).  @return 1 swapped (*buf and *cap
 * are now the old buffer, which the record's block points into; the
 * caller frees it; *written is how far into it the reader may have
 * written while it held it, records before this one of the same member
 * and a failed whole-member inflate included: its pages touched, which
 * a caller keeping buffers for reuse must weigh, not the block's length),
 * or 0 (nothing changed: copy the block).
 */
int warc_swap_window(struct warc_reader *r, uint8_t **buf, size_t *cap, size_t *written);

/** Counters so far. */
struct warc_stats warc_reader_stats(const struct warc_reader *r);

/** 1 if the input is gzip-compressed. */
int warc_reader_is_gzip(const struct warc_reader *r);

/** Free @r (NULL is a no-op).  Does not close the FILE. */
void warc_close(struct warc_reader *r);

/**
 * Value of header @name (case-insensitive) of @rec, or NULL if absent.
 * The first occurrence wins.
 */
const char *warc_header_get(const struct warc_record *rec, const char *name);

/**
 * WARC-Target-URI without the <angle brackets> some WARC/1.0 writers put
 * around it, as a slice into the header storage: *len bytes at the
 * returned pointer (NUL and bytes that are not UTF-8 included), or NULL
 * if absent.
 */
const char *warc_target_uri(const struct warc_record *rec, size_t *len);

#endif
