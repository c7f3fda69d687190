/*
 * webdoc.c - see webdoc.h.
 */
#include "html/webdoc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <xxhash.h>
#if defined(__x86_64__)
#include <xxh_x86dispatch.h>
#endif

#include "input/charset.h"
#include "html/html_text.h"
#include "input/http.h"
#include "util/grow.h"

struct webdoc {
	struct http_decoder *http;
	struct html_text *html;
	char *u8; /* the page converted to UTF-8, when it is not UTF-8 already */
	size_t u8_cap;
	char *all;    /* the record's all_text */
	size_t all_cap;
	uint8_t *blk; /* the record's blocks */
	size_t blk_cap;
	char *main; /* the record's main text, when its content blocks are not adjacent */
	size_t main_cap;
};

_Static_assert((int)DB_CONTENT == (int)HTB_CONTENT && (int)DB_SOFT == (int)HTB_SOFT &&
		       (int)DB_MAIN == (int)HTB_MAIN && (int)DB_HEADING == (int)HTB_HEADING &&
		       (int)DB_FORM == (int)HTB_FORM && (int)DB_POINTER == (int)HTB_POINTER,
	       "a block's flags are stored as html_text gives them");

struct webdoc *webdoc_new(void)
{
	struct webdoc *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->http = http_decoder_new();
	w->html = html_text_new();
	if (!w->http || !w->html) {
		webdoc_free(w);
		return NULL;
	}
	return w;
}

void webdoc_free(struct webdoc *w)
{
	if (!w)
		return;
	http_decoder_free(w->http);
	html_text_free(w->html);
	free(w->u8);
	free(w->all);
	free(w->blk);
	free(w->main);
	free(w);
}

/* Length of the longest prefix of @s no longer than @max that does not
 * end inside a UTF-8 sequence. */
static size_t utf8_cut(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return n;
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	return max;
}

static int generic_type(const char *t)
{
	while (*t == ' ')
		t++;
	return !*t || !strncasecmp(t, "application/octet-stream", 24) ||
	       !strncasecmp(t, "unknown", 7) || !strncasecmp(t, "application/unknown", 19);
}

/* The crawler's payload identification, then the declared type, then a
 * look at the first bytes: a type that says nothing is no evidence. */
static int is_html(const char *ptype, const char *ct, const uint8_t *body, size_t n)
{
	if (ptype && !generic_type(ptype))
		return http_type_is_html(ptype);
	if (ct && !generic_type(ct))
		return http_type_is_html(ct);
	return http_sniff_html(body, n);
}

/*
 * XXH3-64 of a page's bytes.  Debian's libxxhash picks the widest vector
 * code the CPU has (AVX2 here) only through its _dispatch entry points;
 * XXH3_64bits() itself is its SSE2 code.  Same hash either way.
 */
static uint64_t page_hash(const void *p, size_t n)
{
#if defined(__x86_64__)
	return XXH3_64bits_dispatch(p, n);
#else
	return XXH3_64bits(p, n);
#endif
}

/*
 * d->all_text, d->blocks and d->text from the page's blocks (marks, which
 * hold no text, left out), up to @max_text bytes of all_text and
 * WEBDOC_MAX_BLOCKS blocks: a block that would pass the first is cut to
 * fit (at a UTF-8 boundary) and ends the list, as does the block past the
 * second.  The main text is made from the blocks as a reader of the record
 * makes it (docrec_text()), so it is cut where all_text is.
 * @return 0, or -1 if memory ran out.
 */
static int make_blocks(struct webdoc *w, size_t max_text, struct doc_record *d)
{
	const size_t n = html_text_n_blocks(w->html);
	size_t len = 0, k = 0, bl = 0;
	if (max_text > WEBDOC_MAX_ALL_TEXT)
		max_text = WEBDOC_MAX_ALL_TEXT;
	for (size_t i = 0; i < n; i++) {
		struct html_text_block b = html_text_block_at(w->html, i);
		if (!b.len)
			continue;
		size_t need = len + (len > 0) + b.len;
		const int last = need > max_text || k == WEBDOC_MAX_BLOCKS;
		if (last) {
			d->flags |= DOC_TEXT_TRUNCATED;
			/* the block that does not fit is cut to the room left */
			const size_t room = max_text - len - (len > 0);
			if (k == WEBDOC_MAX_BLOCKS || len + (len > 0) >= max_text ||
			    !(b.len = utf8_cut(b.text, b.len, room)))
				break;
			need = len + (len > 0) + b.len;
		}
		/* the calls only when the room runs out: once a page or less */
		if ((need > w->all_cap && array_grow((void **)&w->all, &w->all_cap, need, 1)) ||
		    (bl + DOCBLOCK_MAX_SIZE > w->blk_cap &&
		     array_grow((void **)&w->blk, &w->blk_cap, bl + DOCBLOCK_MAX_SIZE, 1)))
			return -1;
		if (len)
			w->all[len++] = '\n';
		memcpy(w->all + len, b.text, b.len);
		len += b.len;
		bl = (size_t)(docblock_encode(w->blk + bl, (uint32_t)b.len, b.flags) - w->blk);
		k++;
		if (last)
			break;
	}
	d->all_text = (struct str){w->all, (uint32_t)len};
	d->blocks = (struct str){(const char *)w->blk, (uint32_t)bl};
	d->n_blocks = (uint32_t)k;
	return docrec_text(d, &w->main, &w->main_cap, &d->text);
}

static enum webdoc_outcome make_doc(struct webdoc *w, const struct webdoc_in *in,
				    const uint8_t *body, size_t n, const char *ct,
				    struct doc_record *d)
{
	int lossy = 0;
	size_t tl, u8_len;
	const char *u8;
	if (charset_utf8_view((const char *)body, n, ct, &u8, &u8_len, &w->u8, &w->u8_cap, &lossy) ||
	    html_text_extract(w->html, u8, u8_len))
		return WEBDOC_NOMEM;
	if (lossy)
		d->flags |= DOC_CHARSET_LOSSY;
	if (html_text_fallback(w->html))
		d->flags |= DOC_FALLBACK_TEXT; /* the page model found nothing confidently content */
	const char *title = html_text_title(w->html, &tl);
	tl = utf8_cut(title, tl, WEBDOC_MAX_TITLE);
	d->title = (struct str){title, (uint32_t)tl};
	if (make_blocks(w, in->max_text, d))
		return WEBDOC_NOMEM;
	d->payload_hash = page_hash(body, n);
	d->text_hash = page_hash(d->text.p, d->text.n);
	return WEBDOC_OK;
}

static enum webdoc_outcome http_outcome(int rc)
{
	switch (rc) {
	case HTTP_ERR_NOMEM: return WEBDOC_NOMEM;
	case HTTP_ERR_FORMAT: return WEBDOC_BAD_HTTP;
	case HTTP_ERR_ENCODING: return WEBDOC_UNSUPPORTED;
	default: return WEBDOC_UNDECODABLE;
	}
}

enum webdoc_outcome webdoc_extract(struct webdoc *w, const struct webdoc_in *in,
				   struct doc_record *d)
{
	const uint8_t *body = in->block;
	size_t n = in->len;
	const char *ct = in->ctype;
	if (in->http) {
		const char *t = ct ? ct + strspn(ct, " ") : NULL;
		if (t && strncasecmp(t, "application/http", 16))
			return WEBDOC_NON_HTML; /* dns:, ftp: and the like */
		struct http_response resp;
		const int rc = http_parse_response(w->http, body, n, in->max_body, &resp);
		if (rc < 0)
			return http_outcome(rc);
		d->http_status = (uint32_t)resp.status;
		if (resp.status < 200 || resp.status > 299)
			return WEBDOC_NON_2XX;
		if (resp.flags & (HTTP_BODY_TRUNCATED | HTTP_BODY_PARTIAL))
			d->flags |= DOC_TRUNCATED;
		body = resp.body;
		n = resp.body_len;
		ct = resp.content_type;
	}
	if (!is_html(in->ptype, ct, body, n))
		return WEBDOC_NON_HTML;
	return make_doc(w, in, body, n, ct, d);
}
