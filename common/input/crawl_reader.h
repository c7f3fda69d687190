/*
 * crawl_reader.h - every record of a list of inputs, in order: the read
 * side of ndd-extract.
 *
 * Each input is a WARC file or an archive (crawl_input.h); its records
 * come out one by one with a document id DOC_ID(file_base + input
 * position, ordinal in that input), so the same file gets the same ids
 * wherever it is processed.  A loose HTML page of an archive comes out as
 * a resource record: URL = its path in the archive, date = its
 * modification time, offset 0, length = its size, DOC_FROM_ARCHIVE.
 *
 * Records of every type are returned (the caller counts what it skips);
 * broken ones are skipped and counted here.  An input that holds no
 * record at all is reported (log_error, naming it) and counted in
 * empty_inputs; reading goes on with the next input.
 */
#ifndef NDD_CRAWL_READER_H
#define NDD_CRAWL_READER_H

#include <stddef.h>
#include <stdint.h>

#include "input/crawl_input.h"
#include "input/warc.h"

/* One record.  Everything points into the reader: valid until the next
 * call to crawl_reader_next() or crawl_reader_close().  The strings taken
 * from the input (file, url, record_id, date) are valid UTF-8 without
 * control bytes: other bytes are %XX-escaped (safe_text.h). */
struct crawl_record {
	enum warc_type type;   /* a loose page is WARC_RESOURCE */
	uint64_t doc_id;
	const char *file;      /* input path as given, or "ARCHIVE!PATH" */
	const char *url;       /* WARC-Target-URI without <>, url_len bytes (not NUL-terminated) */
	size_t url_len;
	const char *record_id; /* WARC-Record-ID, or NULL */
	const char *date;      /* WARC-Date (a page: its mtime), or NULL */
	const char *ptype;     /* WARC-Identified-Payload-Type (a page: "text/html"), or NULL */
	const char *ctype;     /* the record's Content-Type, or NULL */
	const uint8_t *block;  /* content block (a page: the file) */
	size_t block_len;
	uint64_t offset;       /* see warc.h; within the member for archives */
	uint64_t length;
	uint32_t doc_flags;    /* DOC_TRUNCATED (WARC-Truncated), DOC_OFFSET_UNCOMPRESSED,
				* DOC_FROM_ARCHIVE */
};

struct crawl_reader_stats {
	uint64_t inputs;        /* inputs opened */
	uint64_t empty_inputs;  /* inputs without a single record */
	uint64_t empty_members; /* WARC entries of archives without a single record (warned) */
	uint64_t records;       /* records returned (pages included) */
	uint64_t pages;         /* loose HTML pages from archives */
	uint64_t bytes_in;      /* bytes read (of WARC data; pages not included) */
	struct warc_stats warc; /* of finished members; a page above the limit counts as huge */
	struct crawl_input_stats arc;
};

struct crawl_reader;

/**
 * Read @n_paths inputs ("-" = standard input), the first numbered
 * @file_base.  @max_record: largest WARC block or page accepted (0 = WARC_DEFAULT_MAX_RECORD).
 * @return a reader, or NULL on OOM (logged).  Free with crawl_reader_close().
 */
struct crawl_reader *crawl_reader_open(char *const *paths, int n_paths, uint64_t file_base,
				       size_t max_record) __attribute__((warn_unused_result));

/**
 * The next record of the inputs.
 * @return 1 for a record, 0 when every input is read, -1 on a fatal
 * error (an input that cannot be opened or read, OOM; logged).
 */
int crawl_reader_next(struct crawl_reader *cr, struct crawl_record *out)
	__attribute__((warn_unused_result));

/**
 * Take the buffer holding the block of the record crawl_reader_next()
 * just returned, giving @*buf (@*cap bytes, or NULL) in exchange: the
 * block then stays valid, without a copy, until the caller frees *buf;
 * *written says how far into it the reader wrote (warc_swap_window()).
 * @return 1 swapped, 0 not possible (warc_swap_window(); nothing changed).
 */
int crawl_reader_swap_block(struct crawl_reader *cr, uint8_t **buf, size_t *cap,
			    size_t *written);

/** Counters so far (bytes_in includes the member being read). */
void crawl_reader_get_stats(const struct crawl_reader *cr, struct crawl_reader_stats *out);

/** Add @b's counters to @a (the readers of several inputs, summed). */
void crawl_reader_stats_add(struct crawl_reader_stats *a, const struct crawl_reader_stats *b);

/** Free @cr, closing what is open (NULL is a no-op). */
void crawl_reader_close(struct crawl_reader *cr);

#endif
