/*
 * safe_text.h - strings from the input made safe for the outputs.
 *
 * URLs, record ids, dates and archive entry names come from the crawl as
 * bytes; the outputs (documents, CSV, JSON) promise valid UTF-8.  Each
 * byte that is not part of a valid UTF-8 sequence, and each control byte
 * (below 0x20, and 0x7f), NUL included, is written as %XX (upper-case
 * hex), as a URL would percent-encode it; everything else is kept as it
 * is.  Text that needs no escaping (nearly all of it) is not copied.
 */
#ifndef NDD_SAFE_TEXT_H
#define NDD_SAFE_TEXT_H

#include <stddef.h>

/** Bytes at @s up to which (of @n) nothing needs escaping: @n if none does. */
size_t safe_text_clean_prefix(const char *s, size_t n);

/**
 * @s (@n bytes) escaped as above into *@buf (grown with realloc, *@cap
 * its size; the caller frees it), NUL-terminated.  @return the escaped
 * text (@s itself if nothing needs escaping: then not NUL-terminated, and
 * *@out_len is @n), or NULL if memory ran out.
 */
const char *safe_text(const char *s, size_t n, char **buf, size_t *cap, size_t *out_len);

#endif
