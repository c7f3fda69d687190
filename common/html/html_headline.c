/*
 * html_headline.c - the page's own headline before its content
 * (html_headline.h).
 */
#include "html/html_headline.h"

#include <string.h>

#include "util/valueline.h"

/* A separator between a headline and the site's name in a <title>:
 * - | : and the dashes, middle dot and guillemet of UTF-8. */
static int separator(const unsigned char *p, size_t left)
{
	static const char *const wide[] = {"\xE2\x80\x93", "\xE2\x80\x94", "\xC2\xB7", "\xC2\xBB"};
	if (left && (*p == '-' || *p == '|' || *p == ':'))
		return 1;
	for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
		if (left >= strlen(wide[i]) && !memcmp(p, wide[i], strlen(wide[i])))
			return 1;
	return 0;
}

/* Does the <title> open with the @n bytes at @s, whole or before a
 * separator ("Title - Site")? */
static int opens_title(const char *s, size_t n, const char *title, size_t title_len)
{
	if (n < HEADLINE_MIN_BYTES || n > title_len || memcmp(s, title, n))
		return 0;
	return n == title_len ||
	       (title[n] == ' ' && separator((const unsigned char *)title + n + 1, title_len - n - 1));
}

/* A heading left out only for lying outside declared main content that
 * holds the text (a thread's title above posts that are each an
 * <article>), with nothing but marks between it and the content. */
static int outside_main(const struct hblock *t, int chrome)
{
	return t->cls == HB_HIDDEN && (t->flags & HB_HEADING) && !chrome && !(t->flags & HB_SOFT);
}

/* A line of a record's fields left out of the content (a post's handle,
 * "Joined", post count and date in cells of no class word), which a
 * forum's markup may set between the thread's title and its first post. */
static int field_line(const struct hblock *t, const char *text)
{
	return t->cls < HB_GOOD && !(t->flags & HB_HEADING) && !(t->pointer & HB_PTR_ANY) &&
	       valueline_kind(text + t->off, t->len) == VL_VALUE;
}

void hblocks_headline(struct hblock *b, size_t n, const char *text, const char *title, size_t title_len)
{
	size_t first = 0;
	while (first < n && b[first].cls != HB_GOOD)
		first++;
	size_t j = first;
	int chrome = 0; /* dropped chrome (not only marks) between it and the content */
	while (j > 0 && first - j < HEADLINE_PAST) {
		const struct hblock *const p = &b[j - 1];
		if (field_line(p, text))
			;
		else if ((p->flags & HB_MARK) || (p->cls > HB_GOOD && !outside_main(p, chrome)))
			chrome |= !(p->flags & HB_MARK);
		else
			break;
		j--;
	}
	if (first == n || j == 0)
		return;
	struct hblock *const t = &b[j - 1];
	if ((t->cls > HB_GOOD && !outside_main(t, chrome)) || (t->pointer & HB_PTR_ANY) || t->words10 > HEADLINE_MAX_WORDS10 ||
	    (chrome && (t->flags & HB_HEADING)) ||
	    (uint64_t)t->link_words10 * 3 > t->words10 || (t->flags & (HB_SOFT | HB_FORM | HB_COPYRIGHT)))
		return;
	if (opens_title(text + t->off, t->len, title, title_len))
		t->cls = HB_GOOD;
}
