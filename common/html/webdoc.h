/*
 * webdoc.h - one crawled page to one document: the per-record work of
 * ndd-extract, run in parallel (one context per thread).
 *
 *   WARC block --HTTP--> status, headers, body (de-chunked, inflated)
 *              --type--> HTML?  (WARC-Identified-Payload-Type, then the
 *                         HTTP Content-Type, then a look at the bytes)
 *              --charset--> UTF-8 (charset.h)
 *              --html_text--> title and main text
 *              --> payload and text hashes (XXH3-64)
 *
 * Nothing here logs: the outcome says what became of the record and the
 * caller, who knows the file and offset, reports it.
 */
#ifndef NDD_WEBDOC_H
#define NDD_WEBDOC_H

#include <stddef.h>
#include <stdint.h>

#include "format/docrec.h"

#define WEBDOC_MAX_TITLE 4096 /* bytes of title kept (cut at a UTF-8 boundary) */
/* Blocks recorded of one page (the template pass's input): past this the
 * rest of the page's blocks are left out of all_text and blocks, and
 * DOC_TEXT_TRUNCATED is set.  With the text caps this keeps a record
 * inside one NDF block. */
#define WEBDOC_MAX_BLOCKS (1u << 18)
#define WEBDOC_MAX_ALL_TEXT (24u << 20)

enum webdoc_outcome {
	WEBDOC_OK = 0,
	WEBDOC_NON_HTML,    /* filtered: not HTML, or not HTTP */
	WEBDOC_NON_2XX,     /* filtered */
	WEBDOC_UNSUPPORTED, /* filtered: a Content-Encoding we cannot decode (br...) */
	WEBDOC_BAD_HTTP,    /* bad input: no HTTP status line */
	WEBDOC_UNDECODABLE, /* bad input: body does not de-chunk or inflate */
	WEBDOC_NOMEM,
};

/* What webdoc_extract() reads; the strings may be NULL. */
struct webdoc_in {
	const uint8_t *block; /* WARC content block, or a loose HTML file */
	size_t len;
	int http;             /* block is an HTTP response (a WARC response record) */
	const char *ptype;    /* WARC-Identified-Payload-Type */
	const char *ctype;    /* the record's Content-Type (HTTP block: application/http...) */
	size_t max_body;      /* cap on the decoded HTTP body */
	size_t max_text;      /* cap on all_text, and so on the main text (DOC_TEXT_TRUNCATED past it) */
};

/* Per-thread decoders and buffers, reused from page to page. */
struct webdoc;

/** @return a context, or NULL on OOM.  Free with webdoc_free(). */
struct webdoc *webdoc_new(void);

/** Free @w (NULL is a no-op). */
void webdoc_free(struct webdoc *w);

/**
 * Turn @in into the content fields of @d: http_status, payload_hash,
 * text_hash, title, text, all_text and blocks (every block html_text cut,
 * docrec.h), and the flags DOC_TRUNCATED (HTTP body cut
 * or partial), DOC_TEXT_TRUNCATED, DOC_CHARSET_LOSSY and DOC_FALLBACK_TEXT
 * (html_text_fallback(): the main text is all the page's text but its
 * frame, as no block was confidently content), or-ed into
 * d->flags.  Other fields of @d are left alone.  The strings point
 * into @w: valid until the next call with @w.
 * @return WEBDOC_OK, or why no document came out (then only http_status
 * may have been set).
 */
enum webdoc_outcome webdoc_extract(struct webdoc *w, const struct webdoc_in *in,
				   struct doc_record *d);

#endif
