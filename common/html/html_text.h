/*
 * html_text.h - the title and the main content of an HTML page.
 *
 * Two pages of one site share navigation, ads, footers and copyright
 * lines; only the main content may count when they are compared.  This
 * module turns UTF-8 HTML (see charset.h) into that main content, in one
 * pass over the bytes:
 *
 *   1. tokenize (html_tokenizer.h), track element nesting with browser-like
 *      implicit closes, decode character references (html_entities.h);
 *   2. drop what is never content: script, style, head, svg, iframe...,
 *      the page chrome by tag (nav, header, footer, aside, menu) and, as a
 *      second line, by class/id/role words (sidebar, menu, ad, comments,
 *      share, cookie, breadcrumb...) and forms;
 *   3. cut the rest into blocks at block-level elements and classify each
 *      block as content or boilerplate (html_blocks.h): its length (CJK
 *      characters count as words), link density by words and sentence
 *      punctuation, then its neighbours and the edges left by removed
 *      chrome; content inside <article>/<main>/role=main (or
 *      itemprop=articleBody) is preferred and trusted when there is any;
 *      a page without prose keeps all its text but the chrome, and says
 *      so (html_text_fallback()).
 *
 * Quality on real pages (61 documentation pages of 8 site templates,
 * tests/data/maintext) is measured by bench/mainquality.sh and guarded
 * by tests/t_mainquality.sh.
 *
 * The main text is the content blocks in document order joined by "\n",
 * with whitespace inside a block collapsed to single spaces and &nbsp;
 * read as a space.  An empty main text means the page has no content.
 *
 * A struct html_text is not thread-safe: use one per thread.  Its buffers
 * are reused, so once warm it allocates nothing per document.
 */
#ifndef NDD_HTML_TEXT_H
#define NDD_HTML_TEXT_H

#include <stddef.h>

struct html_text;

/** A new extractor.  @return NULL if memory ran out.  Free with html_text_free(). */
struct html_text *html_text_new(void);

/** Free @h and its buffers.  NULL is a no-op. */
void html_text_free(struct html_text *h);

/**
 * Extract title and main text from @html (UTF-8, @len bytes, need not be
 * NUL-terminated; may be NULL if @len is 0).  Any byte sequence is
 * accepted: malformed markup is read as a browser would, and the function
 * never reads outside [html, html+len) nor recurses.
 * @return 0 on success; -1 if memory ran out (then both results are empty).
 */
int html_text_extract(struct html_text *h, const char *html, size_t len)
	__attribute__((warn_unused_result));

/**
 * The content of the first <title> (outside svg), whitespace collapsed and
 * trimmed, "" if none.  NUL-terminated; *len (if @len is not NULL) gets its
 * length.  Owned by @h and valid until the next html_text_extract() or
 * html_text_free().
 */
const char *html_text_title(const struct html_text *h, size_t *len);

/**
 * Was the main text of the last extracted page a fallback?  1 when no
 * block was confidently content (an index of links, a page of a few
 * words, a table with no prose): the main text is then all the page's
 * text but the chrome html_text drops and legal lines, which may be the
 * site's template as much as the page's own; 0 otherwise (also after a
 * failure).  A caller that knows the site's template can do better.
 */
int html_text_fallback(const struct html_text *h);

/**
 * The main text of the last extracted page (see the top of this file),
 * NUL-terminated, "" if none; *len gets its length.  Owned by @h, valid
 * until the next html_text_extract() or html_text_free().  Joined from
 * the content blocks at the first call after a page (a caller that reads
 * the blocks, as webdoc does, never pays for it); "" if memory runs out.
 */
const char *html_text_main(struct html_text *h, size_t *len);

/*
 * The blocks the last page was cut into, for a caller that decides the
 * main text with more than the page (the site's template, learnt from the
 * crawl: ndd-template).  Every block of text outside the elements that
 * are never content (script, style, head, svg, iframe..., and the chrome
 * dropped by tag: nav, header, footer, aside, menu) is listed, in document
 * order, link text included; the page model's verdict is in its flags.
 */
enum {
	HTB_CONTENT = 1 << 0, /* part of html_text_main() */
	HTB_SOFT = 1 << 1,    /* inside a class/id/role-marked chrome element */
	HTB_MAIN = 1 << 2,    /* inside <main>, <article> or role=main */
	HTB_HEADING = 1 << 3, /* inside h1..h6 */
	HTB_FORM = 1 << 4,    /* inside a <form> */
	HTB_POINTER = 1 << 5,   /* a link with text beside it: a row pointing elsewhere */
};

struct html_text_block {
	const char *text; /* collapsed text (not NUL-terminated), owned by the extractor */
	size_t len;       /* 0: a mark where chrome was dropped (skip it) */
	unsigned flags;   /* HTB_* */
};

/** Blocks of the last extracted page (0 after a failure). */
size_t html_text_n_blocks(const struct html_text *h);

/**
 * Block @i (< html_text_n_blocks()) of the last page, in document order.
 * Valid until the next html_text_extract() or html_text_free().
 */
struct html_text_block html_text_block_at(const struct html_text *h, size_t i);

#endif
