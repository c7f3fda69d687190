/*
 * http.c - see http.h.
 *
 *   HTTP/1.1 200 OK\r\n                status line: version, code, reason
 *   Content-Type: text/html\r\n        headers, up to an empty line
 *   Transfer-Encoding: chunked\r\n
 *   \r\n
 *   1a;ext\r\n <26 bytes> \r\n ... 0\r\n\r\n     chunked body
 *
 * Decoding steps write into two buffers of the decoder in turn (chunked
 * into one, inflate from it into the other), so a body is decoded with
 * no allocation once the buffers have grown to the usual page size.
 *
 * A gzip body lies whole in memory and its trailer says how big it
 * inflates (ISIZE), so it is inflated in one call by libdeflate, about
 * twice as fast as zlib; zlib takes anything libdeflate refuses (a cut or
 * damaged body, a trailer that lies, deflate and zlib wrappers) and keeps
 * whatever part of it inflates.  Brotli ("br") goes through libbrotli's
 * streaming decoder, with the same rules for a cut or damaged body.
 */
#include "input/http.h"

#include <brotli/decode.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#define CT_MAX 256
#define CS_MAX 64
#define MAX_CODINGS 4

struct dbuf {
	uint8_t *p;
	size_t len, cap;
};

struct http_decoder {
	struct dbuf buf[2];
	struct libdeflate_decompressor *ld; /* gzip fast path, or NULL */
	char content_type[CT_MAX];
	char charset[CS_MAX];
};

/* What the headers ask for. */
struct http_meta {
	int chunked;
	int n_codings;
	char codings[MAX_CODINGS][16];
};

struct http_decoder *http_decoder_new(void)
{
	struct http_decoder *d = calloc(1, sizeof *d);
	if (d)
		d->ld = libdeflate_alloc_decompressor(); /* NULL: zlib does it all */
	return d;
}

void http_decoder_free(struct http_decoder *d)
{
	if (!d)
		return;
	free(d->buf[0].p);
	free(d->buf[1].p);
	if (d->ld)
		libdeflate_free_decompressor(d->ld);
	free(d);
}

const char *http_strerror(int err)
{
	switch (err) {
	case HTTP_OK: return "ok";
	case HTTP_ERR_FORMAT: return "no HTTP status line";
	case HTTP_ERR_ENCODING: return "unsupported Content-Encoding";
	case HTTP_ERR_DECODE: return "body does not decode";
	case HTTP_ERR_NOMEM: return "out of memory";
	}
	return "unknown error";
}

static int dbuf_reserve(struct dbuf *b, size_t need)
{
	if (need <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap * 2 : 64 << 10;
	while (cap < need)
		cap *= 2;
	uint8_t *p = realloc(b->p, cap);
	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

/* ---- status line and headers ---- */

/* End of the line starting at @p (pointer to its '\n' or to @end), and
 * the line's text end without a CR in *text_end. */
static const uint8_t *line_end(const uint8_t *p, const uint8_t *end, const uint8_t **text_end)
{
	const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
	const uint8_t *e = nl ? nl : end;
	*text_end = e > p && e[-1] == '\r' ? e - 1 : e;
	return e;
}

/* "HTTP/x.y NNN reason": @return the code, or -1. */
static int parse_status(const uint8_t *p, const uint8_t *e)
{
	if (e - p < 5 || strncasecmp((const char *)p, "HTTP/", 5))
		return -1;
	p += 5;
	while (p < e && *p != ' ' && *p != '\t')
		p++;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (e - p < 3)
		return -1;
	int code = 0;
	for (int i = 0; i < 3; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		code = code * 10 + (p[i] - '0');
	}
	if ((e - p > 3 && p[3] != ' ' && p[3] != '\t') || code < 100)
		return -1;
	return code;
}

static void trim(const uint8_t **s, const uint8_t **e)
{
	while (*s < *e && (**s == ' ' || **s == '\t'))
		(*s)++;
	while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
		(*e)--;
}

static int name_is(const uint8_t *n, const uint8_t *ne, const char *want)
{
	const size_t len = strlen(want);
	return (size_t)(ne - n) == len && !strncasecmp((const char *)n, want, len);
}

/* Copy a value into @dst (@cap bytes), NUL-terminated, cut if longer. */
static void copy_value(char *dst, size_t cap, const uint8_t *s, const uint8_t *e)
{
	size_t n = (size_t)(e - s) < cap - 1 ? (size_t)(e - s) : cap - 1;
	memcpy(dst, s, n);
	dst[n] = 0;
}

/* Split a Content-Encoding list ("gzip, deflate") into meta->codings. */
static void add_codings(struct http_meta *m, const uint8_t *s, const uint8_t *e)
{
	while (s < e) {
		const uint8_t *comma = memchr(s, ',', (size_t)(e - s));
		const uint8_t *te = comma ? comma : e, *ts = s;
		trim(&ts, &te);
		if (te > ts && m->n_codings < MAX_CODINGS)
			copy_value(m->codings[m->n_codings++], 16, ts, te);
		s = comma ? comma + 1 : e;
	}
}

/* The charset= parameter of the Content-Type in d->content_type. */
static const char *find_charset(struct http_decoder *d)
{
	const char *p = d->content_type;
	while ((p = strchr(p, ';')) != NULL) {
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncasecmp(p, "charset", 7))
			continue;
		p += 7;
		while (*p == ' ')
			p++;
		if (*p != '=')
			continue;
		p++;
		while (*p == ' ' || *p == '"' || *p == '\'')
			p++;
		size_t n = strcspn(p, "\"'; \t");
		if (n == 0 || n >= CS_MAX)
			return NULL;
		memcpy(d->charset, p, n);
		d->charset[n] = 0;
		return d->charset;
	}
	return NULL;
}

static void header_line(struct http_decoder *d, struct http_meta *m, struct http_response *out,
			const uint8_t *p, const uint8_t *e)
{
	const uint8_t *colon = memchr(p, ':', (size_t)(e - p));
	if (!colon || *p == ' ' || *p == '\t')
		return; /* not a header, or an obsolete continuation line */
	const uint8_t *ns = p, *ne = colon, *vs = colon + 1, *ve = e;
	trim(&ns, &ne);
	trim(&vs, &ve);
	if (name_is(ns, ne, "Content-Type") && !out->content_type) {
		copy_value(d->content_type, CT_MAX, vs, ve);
		out->content_type = d->content_type;
		out->charset = find_charset(d);
	} else if (name_is(ns, ne, "Transfer-Encoding")) {
		for (const uint8_t *q = vs; q + 7 <= ve; q++)
			if (!strncasecmp((const char *)q, "chunked", 7))
				m->chunked = 1;
	} else if (name_is(ns, ne, "Content-Encoding")) {
		add_codings(m, vs, ve);
	}
}

/* Parse status line and headers; @return the body's offset or -1. */
static long parse_head(struct http_decoder *d, const uint8_t *block, size_t len,
		       struct http_meta *m, struct http_response *out)
{
	const uint8_t *p = block, *end = block + len, *te;
	while (p < end && (*p == '\r' || *p == '\n' || *p == ' '))
		p++;
	const uint8_t *e = line_end(p, end, &te);
	out->status = parse_status(p, te);
	if (out->status < 0)
		return -1;
	for (p = e < end ? e + 1 : end; p < end; p = e + 1) {
		e = line_end(p, end, &te);
		if (te == p) /* the empty line */
			return (long)(e < end ? e + 1 - block : e - block);
		header_line(d, m, out, p, te);
		if (e == end)
			break;
	}
	return (long)len; /* headers run to the end: no body */
}

/* ---- body decoding ---- */

static int hexval(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* A de-chunked body: its first piece is used where it lies, in the
 * record, and only a second piece has both copied into the buffer.  Most
 * chunked bodies are one chunk. */
struct body_out {
	struct dbuf *buf;
	const uint8_t *view; /* the one piece so far, view_len bytes, or NULL */
	size_t view_len;
	int pieces;
};

static size_t body_len(const struct body_out *o)
{
	return o->view ? o->view_len : o->buf->len;
}

/* Append up to @n bytes to @o without passing @cap.  @return 0, -2 OOM. */
static int append_capped(struct body_out *o, const uint8_t *p, size_t n, size_t cap,
			 uint32_t *flags)
{
	if (n > cap - body_len(o)) {
		n = cap - body_len(o);
		*flags |= HTTP_BODY_TRUNCATED;
	}
	if (o->pieces++ == 0) {
		o->view = p;
		o->view_len = n;
		return 0;
	}
	struct dbuf *const b = o->buf;
	if (dbuf_reserve(b, body_len(o) + n))
		return -2;
	if (o->view) {
		memcpy(b->p, o->view, o->view_len);
		b->len = o->view_len;
		o->view = NULL;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

/* The chunk-size line at @p ("1a;ext\r\n"): @return the size, *data set
 * to the chunk's first byte, or -1 if it is not one. */
static int64_t size_line(const uint8_t *p, const uint8_t *end, const uint8_t **data)
{
	uint64_t size = 0;
	int digits = 0;
	while (p < end && hexval(*p) >= 0 && digits < 12)
		size = size * 16 + (uint64_t)hexval(*p++), digits++;
	const int sep_ok = p < end && *p && strchr("; \t\r\n", *p);
	const uint8_t *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
	if (!digits || !sep_ok || !nl)
		return -1;
	*data = nl + 1;
	return (int64_t)size;
}

/* 1 if a whole chunk starts at @p: its size line, its data, a line end
 * and the next size line (or it is the last chunk, size 0). */
static int sound_chunk_at(const uint8_t *p, const uint8_t *end)
{
	const uint8_t *d;
	const int64_t size = size_line(p, end, &d);
	if (size <= 0)
		return size == 0;
	if ((uint64_t)(end - d) <= (uint64_t)size)
		return 0;
	const uint8_t *q = d + size;
	if (*q == '\r')
		q++;
	return q < end && *q == '\n' && size_line(q + 1, end, &d) >= 0;
}

/* After a malformed size line whose chunk data starts at @p: the next
 * line where a sound chunk starts, or NULL; *data_end gets the end of
 * the damaged chunk's data (its line end left out). */
static const uint8_t *next_sound_chunk(const uint8_t *p, const uint8_t *end,
				       const uint8_t **data_end)
{
	for (const uint8_t *q = p; q < end && (q = memchr(q, '\n', (size_t)(end - q))); q++) {
		if (sound_chunk_at(q + 1, end)) {
			*data_end = q > p && q[-1] == '\r' ? q - 1 : q;
			return q + 1;
		}
	}
	return NULL;
}

/* 1 if the body starts as markup, not as a chunk-size line. */
static int starts_markup(const uint8_t *p, const uint8_t *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p < end && *p == '<';
}

/*
 * De-chunk @n bytes at @p into @out (at most @cap bytes; a body of one
 * piece is left in place, see struct body_out).  A cut chunk
 * stream keeps what came before it (HTTP_BODY_PARTIAL).  A malformed size
 * line ("zz", "-10") is flagged (HTTP_BODY_BADCHUNK) and its chunk's data
 * kept up to the next sound chunk; with none, the rest is dropped, so no
 * size line ever lands in the body.
 * @return 0, -1 if the body starts as markup instead of a size line (it
 * is then not really chunked), -2 on OOM.
 */
static int dechunk(const uint8_t *p, size_t n, struct body_out *out, size_t cap, uint32_t *flags)
{
	const uint8_t *end = p + n;
	out->buf->len = 0;
	out->view = NULL;
	out->pieces = 0;
	for (int first = 1;; first = 0) {
		const uint8_t *data;
		const int64_t size = size_line(p, end, &data);
		if (size < 0) {
			if (first && starts_markup(p, end))
				return -1;
			const uint8_t *nl = memchr(p, '\n', (size_t)(end - p)), *data_end, *next;
			if (p == end || !nl) {
				*flags |= HTTP_BODY_PARTIAL; /* cut at or in a size line */
				return 0;
			}
			*flags |= HTTP_BODY_PARTIAL | HTTP_BODY_BADCHUNK;
			next = next_sound_chunk(nl + 1, end, &data_end);
			if (!next)
				return 0;
			if (append_capped(out, nl + 1, (size_t)(data_end - (nl + 1)), cap, flags))
				return -2;
			if (*flags & HTTP_BODY_TRUNCATED)
				return 0;
			p = next;
			continue;
		}
		p = data;
		if (size == 0)
			return 0; /* last chunk; trailers are ignored */
		size_t take = (uint64_t)size > (uint64_t)(end - p) ? (size_t)(end - p) : (size_t)size;
		if (append_capped(out, p, take, cap, flags))
			return -2;
		if (take < (uint64_t)size) {
			*flags |= HTTP_BODY_PARTIAL;
			return 0;
		}
		if (*flags & HTTP_BODY_TRUNCATED)
			return 0;
		p += take;
		if (p < end && *p == '\r')
			p++;
		if (p < end && *p == '\n')
			p++;
	}
}

/* One inflate step's output space: what the buffer has, never past @cap. */
static int out_space(struct dbuf *out, size_t cap, z_stream *zs)
{
	if (out->len == out->cap && dbuf_reserve(out, out->len + 1))
		return -1;
	size_t room = out->cap - out->len;
	if (room > cap - out->len)
		room = cap - out->len;
	if (room > (1u << 30))
		room = 1u << 30;
	zs->next_out = out->p + out->len;
	zs->avail_out = (uInt)room;
	return 0;
}

/*
 * Inflate @n bytes at @p into @out, at most @cap bytes; @wbits as for
 * inflateInit2().  A stream that breaks part way keeps what inflated.
 * @return 0, -1 if nothing inflates, -2 on OOM.
 */
static int inflate_body(const uint8_t *p, size_t n, int wbits, struct dbuf *out,
			size_t cap, uint32_t *flags)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (inflateInit2(&zs, wbits) != Z_OK)
		return -2;
	out->len = 0;
	zs.next_in = (uint8_t *)(uintptr_t)p; /* zlib's API is not const */
	int rc = Z_OK;
	while (out->len < cap) {
		if (zs.avail_in == 0 && n > 0) {
			zs.avail_in = n > (1u << 30) ? 1u << 30 : (uInt)n;
			n -= zs.avail_in;
		}
		if (out_space(out, cap, &zs)) {
			rc = Z_MEM_ERROR;
			break;
		}
		rc = inflate(&zs, Z_NO_FLUSH);
		out->len = (size_t)(zs.next_out - out->p);
		if (rc != Z_OK && !(rc == Z_BUF_ERROR && zs.avail_out == 0))
			break;
	}
	inflateEnd(&zs);
	if (rc == Z_MEM_ERROR)
		return -2;
	if (out->len == cap && rc != Z_STREAM_END)
		*flags |= HTTP_BODY_TRUNCATED;
	else if (rc != Z_STREAM_END) {
		if (out->len == 0)
			return -1;
		*flags |= HTTP_BODY_PARTIAL;
	}
	return 0;
}

/*
 * One-call gzip inflate into @out, sized by the trailer's ISIZE.  A
 * trailer bigger than @cap or than deflate's best ratio (1032:1) allows
 * is not believed.  @return 0 done, -1 not done (zlib's turn), -2 OOM.
 */
static int gunzip_whole(struct libdeflate_decompressor *ld, const uint8_t *p, size_t n,
			struct dbuf *out, size_t cap)
{
	if (!ld || n < 18 || p[0] != 0x1f || p[1] != 0x8b)
		return -1;
	const size_t isize = (size_t)p[n - 4] | (size_t)p[n - 3] << 8 |
			     (size_t)p[n - 2] << 16 | (size_t)p[n - 1] << 24;
	if (isize == 0 || isize > cap || isize / 1032 > n)
		return -1;
	if (dbuf_reserve(out, isize))
		return -2;
	size_t used = 0, got = 0;
	if (libdeflate_gzip_decompress_ex(ld, p, n, out->p, isize, &used, &got) != LIBDEFLATE_SUCCESS)
		return -1;
	out->len = got;
	return 0;
}

/*
 * Brotli-decode @n bytes at @p into @out, at most @cap bytes, streaming
 * (a brotli stream does not say how big it decodes).  A stream that
 * breaks or is cut part way keeps what decoded.
 * @return 0, -1 if nothing decodes, -2 on OOM.
 */
static int unbrotli(const uint8_t *p, size_t n, struct dbuf *out, size_t cap, uint32_t *flags)
{
	BrotliDecoderState *st = BrotliDecoderCreateInstance(NULL, NULL, NULL);
	if (!st)
		return -2;
	out->len = 0;
	size_t avail_in = n;
	const uint8_t *next_in = p;
	BrotliDecoderResult rc = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT;
	while (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT && out->len < cap) {
		if (out->len == out->cap && dbuf_reserve(out, out->len + 1)) {
			BrotliDecoderDestroyInstance(st);
			return -2;
		}
		size_t room = out->cap - out->len;
		if (room > cap - out->len)
			room = cap - out->len;
		uint8_t *next_out = out->p + out->len;
		rc = BrotliDecoderDecompressStream(st, &avail_in, &next_in, &room, &next_out, NULL);
		out->len = (size_t)(next_out - out->p);
	}
	BrotliDecoderDestroyInstance(st);
	if (rc == BROTLI_DECODER_RESULT_SUCCESS)
		return 0;
	if (out->len == cap && rc == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
		*flags |= HTTP_BODY_TRUNCATED;
		return 0;
	}
	if (out->len == 0)
		return -1;
	*flags |= HTTP_BODY_PARTIAL; /* an error, or the input ended first */
	return 0;
}

/* A body under a Content-Encoding header that is plainly not encoded. */
static int looks_decoded(const uint8_t *p, size_t n)
{
	size_t i = n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3) ? 3 : 0;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	return i < n && p[i] == '<';
}

/* Undo one content coding: @*body/@*n are replaced by the decoded bytes. */
static int decode_one(struct libdeflate_decompressor *ld, const char *coding, struct dbuf *ob,
		      const uint8_t **body, size_t *n, size_t cap, uint32_t *flags)
{
	const int is_deflate = !strcasecmp(coding, "deflate"), is_br = !strcasecmp(coding, "br");
	if (!is_deflate && !is_br && strcasecmp(coding, "gzip") && strcasecmp(coding, "x-gzip"))
		return HTTP_ERR_ENCODING;
	int rc;
	if (is_br) {
		rc = unbrotli(*body, *n, ob, cap, flags);
	} else {
		/* 47 = 15 + 32: zlib or gzip wrapper, detected; servers mix
		 * them up, and some send "deflate" as a raw deflate stream. */
		rc = gunzip_whole(ld, *body, *n, ob, cap);
		if (rc == -1)
			rc = inflate_body(*body, *n, 47, ob, cap, flags);
		if (rc == -1 && is_deflate)
			rc = inflate_body(*body, *n, -15, ob, cap, flags);
	}
	if (rc == -2)
		return HTTP_ERR_NOMEM;
	if (rc == -1) {
		if (!looks_decoded(*body, *n))
			return HTTP_ERR_DECODE;
		*flags |= HTTP_BODY_UNDECODED;
		return 1;
	}
	*body = ob->p;
	*n = ob->len;
	return 0;
}

int http_parse_response(struct http_decoder *d, const uint8_t *block, size_t len,
			size_t max_body, struct http_response *out)
{
	struct http_meta m;
	memset(&m, 0, sizeof m);
	memset(out, 0, sizeof *out);
	const long off = parse_head(d, block, len, &m, out);
	if (off < 0)
		return HTTP_ERR_FORMAT;
	const uint8_t *body = block + off;
	size_t n = len - (size_t)off;
	int which = 0;
	if (m.chunked) {
		struct body_out o = {.buf = &d->buf[0]};
		const int rc = dechunk(body, n, &o, max_body, &out->flags);
		if (rc == -2)
			return HTTP_ERR_NOMEM;
		if (rc == 0) {
			body = o.view ? o.view : d->buf[0].p;
			n = body_len(&o);
			which = !o.view; /* the next decoding must not write where it reads */
		}
	}
	for (int i = m.n_codings - 1; i >= 0; i--) {
		if (!strcasecmp(m.codings[i], "identity"))
			continue;
		const int rc = decode_one(d->ld, m.codings[i], &d->buf[which], &body, &n,
					 max_body, &out->flags);
		if (rc < 0)
			return rc;
		if (rc > 0)
			break;
		which ^= 1;
	}
	if (n > max_body) {
		n = max_body;
		out->flags |= HTTP_BODY_TRUNCATED;
	}
	out->body = body ? body : (const uint8_t *)"";
	out->body_len = n;
	return HTTP_OK;
}

/* ---- content type ---- */

int http_type_is_html(const char *ct)
{
	if (!ct)
		return 0;
	while (*ct == ' ' || *ct == '\t')
		ct++;
	const size_t n = strcspn(ct, "; \t");
	return (n == 9 && !strncasecmp(ct, "text/html", 9)) ||
	       (n == 21 && !strncasecmp(ct, "application/xhtml+xml", 21));
}

static int starts_with_ci(const uint8_t *p, size_t n, const char *s)
{
	const size_t k = strlen(s);
	return n >= k && !strncasecmp((const char *)p, s, k);
}

int http_sniff_html(const uint8_t *p, size_t n)
{
	static const char *const tags[] = {"<!doctype html", "<html", "<head", "<body"};
	if (n > 1024)
		n = 1024;
	size_t i = n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3) ? 3 : 0;
	for (; i < n; i++) {
		if (p[i] != '<')
			continue;
		for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++)
			if (starts_with_ci(p + i, n - i, tags[t]))
				return 1;
	}
	return 0;
}
