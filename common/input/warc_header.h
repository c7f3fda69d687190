/*
 * warc_header.h - the header block of a WARC record: finding its end,
 * folding it into name/value pairs, and reading the fields the reader
 * needs (WARC-Type, Content-Length).
 *
 *   WARC/1.1\r\n                     version line
 *   WARC-Type: response\r\n          name ':' value
 *   X-Long: part one\r\n
 *   \tpart two\r\n                   continuation: joins the value above
 *   Content-Length: 1234\r\n
 *   \r\n                             empty line: end of the header
 *
 * Names are matched case-insensitively; lines may end in bare LF; spaces
 * around names and values are trimmed; lines without a colon are ignored.
 * Nothing here reads input or logs: the caller owns the bytes and knows
 * the file and offset to name in a warning.
 */
#ifndef NDD_WARC_HEADER_H
#define NDD_WARC_HEADER_H

#include <stddef.h>
#include <stdint.h>

enum warc_type {
	WARC_OTHER = 0, /* a type this reader does not know */
	WARC_WARCINFO,
	WARC_RESPONSE,
	WARC_RESOURCE,
	WARC_REQUEST,
	WARC_METADATA,
	WARC_REVISIT,
	WARC_CONVERSION,
	WARC_CONTINUATION,
};

/* One header field; both strings NUL-terminated, continuation lines folded. */
struct warc_header {
	const char *name;
	const char *value;
	size_t name_len; /* strlen(name): a lookup compares lengths first */
	size_t value_len; /* bytes of value: more than strlen(value) if it holds a NUL */
};

/*
 * Storage for one folded header, reused from record to record.  Zero it
 * before first use; free with warc_hdrbuf_free().
 */
struct warc_hdrbuf {
	char *text;                /* NUL-separated version, names and values */
	size_t text_cap;
	struct warc_header *hdrs;
	size_t hdr_cap;
	const char *version;       /* "WARC/1.1", in text */
	size_t n_hdrs;
};

/**
 * Look for the end of a header that starts at @p: the first empty line.
 * A line starting "WARC/" before it is the version line of the next
 * record (no field name has a '/'): the header is then broken, and the
 * search stops there, so a run of bare version lines is read in time
 * linear in its length.
 * @scanned carries the position reached by an earlier call on a shorter
 * prefix of the same bytes (start at 0), so growing input is scanned once.
 * @return the header's length including its empty line, or 0 if the
 * first @n bytes do not hold it; then *next is the offset of the line
 * starting "WARC/" that interrupts it, or 0 if there is none.
 */
size_t warc_header_end(const uint8_t *p, size_t n, size_t *scanned, size_t *next);

/**
 * Fold the @len-byte header at @p (as measured by warc_header_end()) into
 * @hb.  The result points into @hb and stays valid until the next parse.
 * @return 0, or -1 on OOM (not logged).
 */
int warc_header_parse(struct warc_hdrbuf *hb, const char *p, size_t len)
	__attribute__((warn_unused_result));

/** Free @hb's storage (it can then be reused as if zeroed). */
void warc_hdrbuf_free(struct warc_hdrbuf *hb);

/**
 * Value of header @name (case-insensitive) among @n headers at @h, or
 * NULL.  The first occurrence wins.
 */
const char *warc_header_find(const struct warc_header *h, size_t n, const char *name);

/** As warc_header_find(), the whole field (its value's length too), or NULL. */
const struct warc_header *warc_header_field(const struct warc_header *h, size_t n,
					    const char *name);

/** A Content-Length value as plain decimal; -1 if NULL, empty or malformed. */
int64_t warc_content_length(const char *value);

/** Type of a WARC-Type value (case-insensitive); WARC_OTHER if unknown. */
enum warc_type warc_type_from_name(const char *name);

#endif
