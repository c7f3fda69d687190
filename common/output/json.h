/*
 * json.h - JSON strings that are always valid.
 *
 * Paths and URLs are bytes, not text: a name may hold a newline, a tab, a
 * quote or bytes that are not UTF-8.  json_put_string() escapes every
 * control character and quote, and writes each byte of an invalid UTF-8
 * sequence as U+FFFD, so its output always parses (RFC 8259; json_read.h
 * reads it back).
 */
#ifndef NDD_OUTPUT_JSON_H
#define NDD_OUTPUT_JSON_H

#include <stddef.h>
#include <stdio.h>

/**
 * Write @s (@n bytes) to @fp as a quoted JSON string.
 * @return 0, or -1 on a write error.
 */
int json_put_string(FILE *fp, const char *s, size_t n);

/** json_put_string() of a NUL-terminated @s. */
int json_put_cstr(FILE *fp, const char *s);

#endif
