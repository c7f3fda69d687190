/*
 * docjson.h - a document record as one line of JSON, for operators who
 * need to see what extract kept (ndd-extract --json) and for tests:
 *
 *   {"id":N,"url":"...","warc_file":"...","warc_offset":N,"warc_length":N,
 *    "record_id":"...","date":"...","status":N,"flags":N,"title":"...",
 *    "text":"..."}\n
 *
 * Strings are escaped per RFC 8259 (quote, backslash, \n, other controls
 * as \u00XX); a byte that is not part of valid UTF-8 (URLs can hold any)
 * becomes \ufffd, so the line is always valid UTF-8 JSON.
 */
#ifndef NDD_DOCJSON_H
#define NDD_DOCJSON_H

#include <stddef.h>

#include "format/docrec.h"

/** Exact bytes docjson_encode() writes for @d, newline included. */
size_t docjson_size(const struct doc_record *d);

/** Write @d as a JSON line at @out (docjson_size(d) bytes). @return bytes written. */
size_t docjson_encode(const struct doc_record *d, char *out);

#endif
