/*
 * lookalike.h - telling copies of one page from different pages that only
 * look alike (a shared notice, a template the main-content pass kept).
 *
 * Copies of a page share its title and the first words of its text;
 * different pages do not.  Titles are compared without the site's name
 * that many sites append ("Story | Site", "Story - Site", "Story_Site"),
 * so a story copied to several sites counts once; openings by their
 * first LOOKALIKE_KEY_WORDS words, where near-duplicates rarely differ.
 */
#ifndef NDD_OUTPUT_LOOKALIKE_H
#define NDD_OUTPUT_LOOKALIKE_H

#include <stddef.h>
#include <stdint.h>

#define LOOKALIKE_KEY_WORDS 12

/**
 * The comparable part of title @t (NUL-terminated): a last segment after
 * a separator (" | ", " - ", " -- ", " — ", " – ", " :: ", " · ", " : ",
 * "_") cut off when what is before it is at least as long, then ASCII
 * lower-cased.  @return a new string (the caller frees it), or NULL if
 * memory ran out.
 */
char *lookalike_title_key(const char *t);

/**
 * The first LOOKALIKE_KEY_WORDS space-separated words of @opening.
 * @return a new string (the caller frees it), or NULL if memory ran out.
 */
char *lookalike_opening_key(const char *opening);

/**
 * The first @max_words words of @text (@n bytes; words are separated by
 * spaces, tabs and newlines), one space between them.  @return a new
 * NUL-terminated string (the caller frees it), or NULL if memory ran out.
 */
char *lookalike_opening(const char *text, size_t n, size_t max_words);

/** How many different strings @s[0..@n) holds (sorts @s in place). */
uint64_t lookalike_distinct(const char **s, size_t n);

#endif
