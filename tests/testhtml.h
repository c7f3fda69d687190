/*
 * testhtml.h - what the HTML tests share: one extractor and its main
 * text for a page given as a string.
 */
#ifndef NDD_TESTHTML_H
#define NDD_TESTHTML_H

#include <string.h>

#include "html/html_text.h"

static struct html_text *H; /* made by the test's main() */

/* The main text of @html, or "<OOM>". */
static const char *main_of(const char *html)
{
	if (html_text_extract(H, html, strlen(html)) != 0)
		return "<OOM>";
	return html_text_main(H, NULL);
}

static int contains(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

#endif
