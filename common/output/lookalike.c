/*
 * lookalike.c - the keys of lookalike.h.  Titles and openings are short
 * (a few hundred bytes) and only the largest clusters' members are keyed:
 * plain string scans suffice.
 */
#include "output/lookalike.h"

#include <stdlib.h>
#include <string.h>

char *lookalike_title_key(const char *t)
{
	static const char *const seps[] = {" | ", " - ", " -- ", " \xE2\x80\x94 ", " \xE2\x80\x93 ",
					   " :: ", " \xC2\xB7 ", "_", " : "};
	const size_t n = strlen(t);
	size_t cut = n;
	for (size_t i = 0; i < sizeof seps / sizeof seps[0]; i++) {
		const char *last = NULL;
		for (const char *p = strstr(t, seps[i]); p; p = strstr(p + 1, seps[i]))
			last = p;
		if (last && (size_t)(last - t) * 2 >= n && (size_t)(last - t) < cut)
			cut = (size_t)(last - t);
	}
	char *k = malloc(cut + 1);
	if (!k)
		return NULL;
	for (size_t i = 0; i < cut; i++)
		k[i] = (char)(t[i] >= 'A' && t[i] <= 'Z' ? t[i] + 32 : t[i]);
	k[cut] = '\0';
	return k;
}

char *lookalike_opening_key(const char *o)
{
	const char *p = o, *end = o;
	for (int w = 0; *p && w < LOOKALIKE_KEY_WORDS; w++) {
		p += strcspn(p, " ");
		end = p;
		p += *p == ' ';
	}
	return strndup(o, (size_t)(end - o));
}

static int space(char c)
{
	return c == ' ' || c == '\n' || c == '\t';
}

char *lookalike_opening(const char *text, size_t n, size_t max_words)
{
	char *o = malloc(n + 1), *w = o;
	size_t words = 0;
	if (!o)
		return NULL;
	for (size_t i = 0; i < n && words < max_words;) {
		while (i < n && space(text[i]))
			i++;
		if (i == n)
			break;
		if (w > o)
			*w++ = ' ';
		while (i < n && !space(text[i]))
			*w++ = text[i++];
		words++;
	}
	*w = '\0';
	return o;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

uint64_t lookalike_distinct(const char **s, size_t n)
{
	uint64_t d = 0;
	if (n > 1)
		qsort(s, n, sizeof *s, by_str);
	for (size_t i = 0; i < n; i++)
		d += i == 0 || strcmp(s[i], s[i - 1]);
	return d;
}
