/*
 * html_tokenizer.h - a forgiving, allocation-free HTML tokenizer.
 *
 * It cuts a byte buffer into text runs, start tags and end tags, the way
 * a browser's tokenizer would for the purposes of text extraction:
 * comments (also unterminated at EOF), <!doctype>, bogus comments
 * (<![CDATA[ in HTML content, <?pi>) are skipped; a '<' that starts no
 * tag is text; quoted attribute values may hold '>'; the content of
 * raw-text elements (script with its escape states, style, textarea,
 * title, iframe, noscript, xmp...) is returned as one undecoded text
 * token up to the matching end tag (or EOF); in foreign content
 * (htok_set_foreign()) CDATA sections are raw text tokens.
 *
 * Tokens point into the input buffer; the tokenizer never allocates and
 * never reads outside [s, s+n).  Tag names are matched case-insensitively
 * against a table of the HTML elements the extractor cares about.
 */
#ifndef NDD_HTML_TOKENIZER_H
#define NDD_HTML_TOKENIZER_H

#include "html/html_token.h"

#include <stddef.h>

/* A tokenizer: where it is, and where a start tag's attributes go. */
struct htok {
	struct htok_pos pos;
	struct htok_attr attrs[HTOK_MAX_ATTRS]; /* where tok->attrs points */
};

/** Start tokenizing [s, s+n).  @s may be NULL if @n is 0. */
void htok_init(struct htok *t, const char *s, size_t n);

/**
 * Read the next token into @tok (whose pointers point into the input).
 * @return tok->type; HTOK_EOF at the end, then again on every call.
 */
enum htok_type htok_next(struct htok *t, struct htok_token *tok);

/**
 * Tell the tokenizer what the current node is (HTOK_FOREIGN_* bits, 0 for
 * an HTML element: the default), before the next htok_next().
 */
void htok_set_foreign(struct htok *t, unsigned foreign);

/** The lower-case name of @tag ("" for HTAG_UNKNOWN), a static string. */
const char *htag_name(enum htag tag);

#endif
