/*
 * docrec.c - encode/decode of document and fingerprint records.
 * Layouts are in docs/FORMATS.md; decoding never trusts a length.
 */
#include "format/docrec.h"

#include <string.h>
/* inlined: blocks are a few dozen bytes, where a call into the library
 * costs as much as the hash */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "format/ndf.h"
#include "util/bytes.h"
#include "util/grow.h"
#include "util/log.h"

int docrec_check_header(const struct ndf_header *h, const char *name)
{
	if (h->kind != NDF_KIND_DOCS) {
		log_error("%s: expected documents (ndd-extract output), found %s", name,
			  ndf_kind_name(h->kind));
		return -1;
	}
	if (h->aux == DOCREC_VERSION)
		return 0;
	log_error("%s: documents of record layout %llu, this program reads layout %d: "
		  "extract them again with this version of ndd-extract",
		  name, (unsigned long long)(h->aux ? h->aux : 1), DOCREC_VERSION);
	return -1;
}

/* One block's varint from [*p, end): the shortest form of a value below
 * 2^32.  @return 0 and advances *p, or -1. */
static inline int block_varint(const uint8_t **p, const uint8_t *end, uint32_t *v)
{
	const uint8_t *q = *p;
	/* two bytes first: blocks of 2 to 255 bytes, most of them (a second
	 * byte of 0 would not be the shortest form) */
	if (end - q >= 2 && (q[0] & 0x80) && (uint8_t)(q[1] - 1) < 0x7f) {
		*v = (uint32_t)(q[0] & 0x7f) | (uint32_t)q[1] << 7;
		*p = q + 2;
		return 0;
	}
	if (q < end && *q < 0x80) {
		*v = *q;
		*p = q + 1;
		return 0;
	}
	uint32_t x = 0;
	for (unsigned shift = 0; shift < 35; shift += 7) {
		if (q == end)
			return -1;
		const uint8_t c = *q++;
		if (shift == 28 && c > 0x0f)
			return -1; /* past 32 bits */
		x |= (uint32_t)(c & 0x7f) << shift;
		if (c < 0x80) {
			if (!c && shift)
				return -1; /* not the shortest form */
			*v = x;
			*p = q;
			return 0;
		}
	}
	return -1;
}

/* Step over @n blocks at *@p (not past @end), checking that they cut an
 * all_text of @text_len bytes exactly into pieces joined by '\n' (@t: its
 * bytes; an empty all_text has no blocks).  @return 0 and advances *@p,
 * or -1. */
static int blocks_check(const uint8_t **p, const uint8_t *end, uint32_t n, const uint8_t *t,
			uint32_t text_len)
{
	if (!n)
		return text_len ? -1 : 0;
	const uint8_t *q = *p;
	uint64_t at = 0;
	/* one test of the end for each block but the last (stop < text_len
	 * also makes t[stop] a byte of all_text), none of the count */
	for (uint32_t left = n;;) {
		uint32_t v;
		if (block_varint(&q, end, &v) || v < (1u << DB_FLAG_BITS))
			return -1; /* no varint, or a block of no text */
		const uint64_t stop = at + (v >> DB_FLAG_BITS);
		if (--left == 0) {
			if (stop != text_len)
				return -1;
			break;
		}
		if (stop >= text_len || t[stop] != '\n')
			return -1;
		at = stop + 1;
	}
	*p = q;
	return 0;
}

void docrec_blocks_unhashed(const struct doc_record *d, struct doc_block *out, unsigned skip)
{
	const uint8_t *p = (const uint8_t *)d->blocks.p, *const end = p + d->blocks.n;
	uint32_t at = 0;
	for (uint32_t i = 0; i < d->n_blocks; i++) {
		uint32_t v = 0;
		(void)block_varint(&p, end, &v); /* checked when decoded */
		const uint32_t len = v >> DB_FLAG_BITS;
		const uint64_t h = v & skip ? 0 : XXH3_64bits(d->all_text.p + at, len);
		out[i] = (struct doc_block){h, at, len, (uint8_t)(v & DB_KNOWN)};
		at += len + 1;
	}
}

void docrec_blocks(const struct doc_record *d, struct doc_block *out)
{
	docrec_blocks_unhashed(d, out, 0);
}

int docrec_text(const struct doc_record *d, char **buf, size_t *cap, struct str *text)
{
	const uint8_t *p = (const uint8_t *)d->blocks.p, *const end = p + d->blocks.n;
	const char *const all = d->all_text.p;
	uint32_t at = 0, first = 0, last = 0, runs = 0, prev = 0;
	/* one pass to see whether the content is one run of adjacent blocks */
	for (uint32_t i = 0; i < d->n_blocks; i++) {
		uint32_t v = 0;
		(void)block_varint(&p, end, &v);
		const uint32_t len = v >> DB_FLAG_BITS;
		if (v & DB_CONTENT) {
			if (!prev && ++runs == 1)
				first = at;
			if (runs == 1)
				last = at + len;
		}
		prev = v & DB_CONTENT;
		at += len + 1;
	}
	if (runs <= 1) {
		*text = runs ? (struct str){all + first, last - first} : (struct str){"", 0};
		return 0;
	}
	if (array_grow((void **)buf, cap, (size_t)d->all_text.n + 1, 1))
		return -1;
	char *const o = *buf;
	size_t n = 0;
	p = (const uint8_t *)d->blocks.p;
	at = 0;
	for (uint32_t i = 0; i < d->n_blocks; i++) {
		uint32_t v = 0;
		(void)block_varint(&p, end, &v);
		const uint32_t len = v >> DB_FLAG_BITS;
		if (v & DB_CONTENT) {
			if (n)
				o[n++] = '\n';
			memcpy(o + n, all + at, len);
			n += len;
		}
		at += len + 1;
	}
	o[n] = 0;
	*text = (struct str){o, (uint32_t)n};
	return 0;
}

size_t docrec_size(const struct doc_record *d)
{
	return 5 * 8 + 2 * 4 + 7 * 4 + (size_t)d->url.n + d->warc_file.n +
	       d->record_id.n + d->date.n + d->title.n + d->all_text.n + d->blocks.n;
}

size_t docrec_encode(const struct doc_record *d, uint8_t *out)
{
	uint8_t *p = out;
	p = out_u64(p, d->doc_id);
	p = out_u64(p, d->warc_offset);
	p = out_u64(p, d->warc_length);
	p = out_u64(p, d->payload_hash);
	p = out_u64(p, d->text_hash);
	p = out_u32(p, d->flags);
	p = out_u32(p, d->http_status);
	p = out_str(p, d->url.p, d->url.n);
	p = out_str(p, d->warc_file.p, d->warc_file.n);
	p = out_str(p, d->record_id.p, d->record_id.n);
	p = out_str(p, d->date.p, d->date.n);
	p = out_str(p, d->title.p, d->title.n);
	p = out_str(p, d->all_text.p, d->all_text.n);
	p = out_u32(p, d->n_blocks);
	if (d->blocks.n)
		memcpy(p, d->blocks.p, d->blocks.n);
	p += d->blocks.n;
	return (size_t)(p - out);
}

static int cur_slice(struct cursor *c, struct str *s)
{
	return cur_str(c, &s->p, &s->n);
}

int docrec_decode(const uint8_t **in, const uint8_t *end, struct doc_record *d)
{
	struct cursor c = {*in, end};
	if (cur_u64(&c, &d->doc_id) || cur_u64(&c, &d->warc_offset) ||
	    cur_u64(&c, &d->warc_length) || cur_u64(&c, &d->payload_hash) ||
	    cur_u64(&c, &d->text_hash) || cur_u32(&c, &d->flags) ||
	    cur_u32(&c, &d->http_status) || cur_slice(&c, &d->url) ||
	    cur_slice(&c, &d->warc_file) || cur_slice(&c, &d->record_id) ||
	    cur_slice(&c, &d->date) || cur_slice(&c, &d->title) ||
	    cur_slice(&c, &d->all_text) || cur_u32(&c, &d->n_blocks))
		return -1;
	const uint8_t *const b = c.next;
	if (blocks_check(&c.next, c.end, d->n_blocks, (const uint8_t *)d->all_text.p,
			 d->all_text.n))
		return -1;
	d->blocks = (struct str){(const char *)b, (uint32_t)(c.next - b)};
	d->text = (struct str){"", 0};
	*in = c.next;
	return 0;
}

size_t fprec_size(const struct fp_record *r)
{
	return FPREC_MIN_SIZE + (size_t)r->url.n + r->warc_file.n + r->record_id.n + r->date.n;
}

size_t fprec_encode(const struct fp_record *r, uint8_t *out)
{
	uint8_t *p = out;
	p = out_u64(p, r->simhash);
	p = out_u64(p, r->doc_id);
	p = out_u64(p, r->warc_offset);
	p = out_u64(p, r->payload_hash);
	p = out_u64(p, r->text_hash);
	p = out_u64(p, r->frame);
	p = out_u32(p, r->text_len);
	p = out_u32(p, r->flags);
	p = out_str(p, r->url.p, r->url.n);
	p = out_str(p, r->warc_file.p, r->warc_file.n);
	p = out_str(p, r->record_id.p, r->record_id.n);
	p = out_str(p, r->date.p, r->date.n);
	return (size_t)(p - out);
}

int fprec_skip(const uint8_t **in, const uint8_t *end)
{
	struct cursor c = {*in, end};
	struct str s;
	if (cur_need(&c, FPREC_FIXED_SIZE))
		return -1;
	c.next += FPREC_FIXED_SIZE;
	for (int i = 0; i < 4; i++)
		if (cur_slice(&c, &s))
			return -1;
	*in = c.next;
	return 0;
}

int fprec_decode(const uint8_t **in, const uint8_t *end, struct fp_record *r)
{
	struct cursor c = {*in, end};
	if (cur_u64(&c, &r->simhash) || cur_u64(&c, &r->doc_id) ||
	    cur_u64(&c, &r->warc_offset) || cur_u64(&c, &r->payload_hash) ||
	    cur_u64(&c, &r->text_hash) || cur_u64(&c, &r->frame) || cur_u32(&c, &r->text_len) ||
	    cur_u32(&c, &r->flags) || cur_slice(&c, &r->url) ||
	    cur_slice(&c, &r->warc_file) || cur_slice(&c, &r->record_id) ||
	    cur_slice(&c, &r->date))
		return -1;
	*in = c.next;
	return 0;
}

int fprec_layout_readable(uint64_t aux)
{
	return aux == 0 || aux == 2 || aux == FPREC_VERSION;
}

/* Layout 2 lacks the frame (8 bytes), layout 0 also the last two strings. */
size_t fprec_min_size(unsigned layout)
{
	if (layout == FPREC_VERSION)
		return FPREC_MIN_SIZE;
	return FPREC_MIN_SIZE - 8 - (layout == 0 ? 2 * 4 : 0);
}

int fprec_decode_layout(const uint8_t **in, const uint8_t *end, struct fp_record *r,
			unsigned layout)
{
	if (layout == FPREC_VERSION)
		return fprec_decode(in, end, r);
	struct cursor c = {*in, end};
	if (cur_u64(&c, &r->simhash) || cur_u64(&c, &r->doc_id) ||
	    cur_u64(&c, &r->warc_offset) || cur_u64(&c, &r->payload_hash) ||
	    cur_u64(&c, &r->text_hash) || cur_u32(&c, &r->text_len) ||
	    cur_u32(&c, &r->flags) || cur_slice(&c, &r->url) || cur_slice(&c, &r->warc_file))
		return -1;
	r->record_id = r->date = (struct str){"", 0};
	if (layout != 0 && (cur_slice(&c, &r->record_id) || cur_slice(&c, &r->date)))
		return -1;
	r->frame = 0;
	r->flags |= FP_NO_FRAME;
	*in = c.next;
	return 0;
}

int fprec_skip_layout(const uint8_t **in, const uint8_t *end, unsigned layout)
{
	if (layout == FPREC_VERSION)
		return fprec_skip(in, end);
	struct fp_record r;
	return fprec_decode_layout(in, end, &r, layout);
}
