/*
 * http.h - the HTTP response inside a WARC response record's block.
 *
 * Parsing is lenient the way crawled data needs: a status line with an
 * empty reason phrase or in lower case ("http/1.1 200"), LF-only line
 * ends, a space before a header's colon.  The body is then decoded:
 * "Transfer-Encoding: chunked" is de-chunked and "Content-Encoding: gzip,
 * x-gzip, deflate or br" decoded, up to a size cap.
 *
 * Only the real Transfer-Encoding and Content-Encoding headers trigger
 * decoding.  Common Crawl stores bodies already decoded and renames the
 * original headers to X-Crawler-Transfer-Encoding and
 * X-Crawler-Content-Encoding, which are therefore left alone.  Some other
 * writers store a decoded body under an unchanged Content-Encoding header;
 * a body that does not inflate at all but starts with '<' is then taken
 * as it is (HTTP_BODY_UNDECODED).
 *
 * Functions here do not log: faults are per record, and the caller knows
 * the file and offset to name in its warning.
 */
#ifndef NDD_HTTP_H
#define NDD_HTTP_H

#include <stddef.h>
#include <stdint.h>

enum http_err {
	HTTP_OK = 0,
	HTTP_ERR_FORMAT = -1,   /* no HTTP status line */
	HTTP_ERR_ENCODING = -2, /* a Content-Encoding we cannot decode (zstd, compress...) */
	HTTP_ERR_DECODE = -3,   /* the body does not de-chunk or inflate at all */
	HTTP_ERR_NOMEM = -4,
};

/* Body flags. */
enum {
	HTTP_BODY_TRUNCATED = 1u << 0, /* cut at the size cap */
	HTTP_BODY_PARTIAL = 1u << 1,   /* decoding failed part way; the decoded part is kept */
	HTTP_BODY_UNDECODED = 1u << 2, /* Content-Encoding named but body stored decoded */
	HTTP_BODY_BADCHUNK = 1u << 3,  /* a malformed chunk-size line (also PARTIAL) */
};

struct http_response {
	int status;               /* 100..999 */
	const char *content_type; /* Content-Type value (NUL-terminated), or NULL */
	const char *charset;      /* its charset= parameter, unquoted, or NULL */
	const uint8_t *body;      /* decoded body */
	size_t body_len;
	uint32_t flags;           /* HTTP_BODY_* */
};

/* Reusable decoding buffers; one per thread. */
struct http_decoder;

/** @return a decoder, or NULL on OOM.  Free with http_decoder_free(). */
struct http_decoder *http_decoder_new(void);

/** Free @d and its buffers (NULL is a no-op). */
void http_decoder_free(struct http_decoder *d);

/**
 * Parse the HTTP response in @block (@len bytes) and decode its body to at
 * most @max_body bytes.  The strings and body in @out point into @block or
 * into @d's buffers: valid until the next call with @d or until @block
 * goes away.
 * @return HTTP_OK or a negative enum http_err (then only @out->status and
 * the header fields may be set).
 */
int http_parse_response(struct http_decoder *d, const uint8_t *block, size_t len,
			size_t max_body, struct http_response *out)
	__attribute__((warn_unused_result));

/** Name of an enum http_err, for messages and statistics. */
const char *http_strerror(int err);

/**
 * 1 if the media type of a Content-Type value (parameters ignored, any
 * case) is text/html or application/xhtml+xml; NULL gives 0.
 */
int http_type_is_html(const char *content_type);

/**
 * 1 if the first bytes of @p look like HTML: "<!doctype html", "<html",
 * "<head" or "<body" (any case) somewhere in the first KiB.
 */
int http_sniff_html(const uint8_t *p, size_t n);

#endif
