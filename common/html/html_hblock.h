/*
 * html_hblock.h - a text block of a page, as html_text cuts it and the
 * classifier (html_blocks.h), the run finder (html_runs.h), the container
 * and the posts read it (internal to html_text).  A record of its own so
 * that the modules which walk the blocks need not include one another.
 */
#ifndef NDD_HTML_HBLOCK_H
#define NDD_HTML_HBLOCK_H

#include <stddef.h>
#include <stdint.h>

/* Flags of a block (set by html_text, except HB_SENTENCE/HB_COPYRIGHT). */
enum {
	HB_SOFT = 1 << 0,      /* inside a class/id/role-marked element: chrome unless nothing else */
	HB_FORM = 1 << 1,      /* inside a <form> */
	HB_MAIN = 1 << 2,      /* inside <main>, <article> or role=main */
	HB_HEADING = 1 << 3,   /* inside h1..h6 */
	HB_SENTENCE = 1 << 4,  /* has sentence-ending punctuation */
	HB_COPYRIGHT = 1 << 5, /* a short legal line */
	HB_MARK = 1 << 6,      /* no text: here chrome was dropped */
	HB_NEVER = 1 << 7,     /* with HB_SOFT: its class names what is never content (an ad, a
				* cookie banner, a newsletter box): not let back in at any tier */
};

enum { HB_PTR_LINE = 1, HB_PTR_ENTRY = 2, HB_PTR_ROW = 4, HB_PTR_MORE = 8 };
/*
 * HB_PTR_MORE, set by html_text and kept by hblocks_mark_pointers(): the
 * block ends in a short link to another page after a sentence of its own
 * (a summary and its "Read more").  Alone it makes no pointer: a block
 * points elsewhere if pointer & HB_PTR_ANY; html_container reads it
 * (teaser lists, html_container.h).
 */
#define HB_PTR_ANY (HB_PTR_LINE | HB_PTR_ENTRY | HB_PTR_ROW)

/* Classes, in order of merit. */
enum hb_cls { HB_BAD, HB_SHORT, HB_NEARGOOD, HB_GOOD, HB_HIDDEN };

struct hblock {
	size_t off;         /* in the caller's text buffer */
	uint32_t len;       /* bytes */
	uint32_t ns_bytes;  /* non-space bytes */
	uint32_t link_words10; /* words x 10 inside <a href> */
	uint32_t words10;   /* words x 10 */
	uint8_t flags, cls;
	uint8_t ctx;        /* scratch of the classifier */
	uint8_t pointer;    /* HB_PTR_*: hblocks_classify(): part of an entry that points to another page */
	/*
	 * How many elements stayed open from the end of the block before
	 * this one to the end of this one (0 for the first block): the
	 * depth of the innermost element holding both.  Over a range of
	 * blocks the least of these is the depth of the element holding
	 * them all, which tells the content's own container from the
	 * template around it (capped at UINT16_MAX).
	 */
	uint16_t gap_depth;
	/* html_container's scratch: the depth of the element that holds a
	 * content block and a neighbour, worked out once a page (in the
	 * record's padding: it stays 32 bytes) */
	uint16_t holder;
};

#endif
