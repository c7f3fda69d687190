/*
 * json_read.h - a small JSON reader, for the statistics files the stages
 * write (stats.json): parse a document into a tree and look members up,
 * or only check that a buffer is JSON (so a stage's statistics can be
 * embedded in a bigger document without breaking it).
 *
 * RFC 8259 strictly: UTF-8 text (bytes that are not UTF-8 are refused, in
 * strings too), nesting at most 64 deep.
 * Strings are decoded (escapes, \u surrogate pairs) to UTF-8 and
 * NUL-terminated; a \u0000 ends up inside the string's @len bytes.
 */
#ifndef NDD_OUTPUT_JSON_READ_H
#define NDD_OUTPUT_JSON_READ_H

#include <stddef.h>

enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY,
		 JSON_OBJECT };

struct json_value {
	enum json_type type;
	double num;               /* JSON_NUMBER */
	char *str;                /* JSON_STRING: @len bytes (+ NUL) */
	size_t len;               /* string bytes, or array/object members */
	struct json_value *items; /* array and object members, @len of them */
	char **keys;              /* object member names (NUL-terminated), @len */
};

/**
 * Parse @p (@n bytes), exactly one JSON value with white space around.
 * @return the tree (free with json_free()), or NULL if the bytes are not
 * JSON or memory ran out (not logged: the caller names the file).
 */
struct json_value *json_parse(const char *p, size_t n);

/**
 * @return 1 if @p (@n bytes) is exactly one JSON value (white space around
 * it allowed), else 0 (also when memory ran out for its tree).
 */
int json_check(const char *p, size_t n);

/** Free a tree of json_parse() (NULL is a no-op). */
void json_free(struct json_value *v);

/** Member @key of object @v, or NULL (also when @v is NULL or no object). */
const struct json_value *json_get(const struct json_value *v, const char *key);

/** The number @v holds, or @dflt when it is NULL or not a number. */
double json_number(const struct json_value *v, double dflt);

/**
 * The number @v holds as an integer (its fraction dropped), or @dflt when
 * @v is NULL, not a number, or outside [-2^53, 2^53] (where a double is
 * no longer exact, and a cast would be undefined further out).
 */
long long json_int(const struct json_value *v, long long dflt);

/** The string @v holds, or @dflt when it is NULL or not a string. */
const char *json_string(const struct json_value *v, const char *dflt);

#endif
