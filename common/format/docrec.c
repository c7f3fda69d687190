/*
 * docrec.c - encode/decode of document and fingerprint records.
 * Layouts are in docs/FORMATS.md; decoding never trusts a length.
 */
#include "format/docrec.h"

#include <string.h>

#include "format/ndf.h"
#include "util/bytes.h"
#include "util/log.h"

int docrec_check_header(const struct ndf_header *h, const char *name)
{
	if (h->aux == DOCREC_VERSION)
		return 0;
	log_error("%s: documents of record layout %llu, this program reads layout %d: "
		  "extract them again with this version of ndd-extract",
		  name, (unsigned long long)(h->aux ? h->aux : 1), DOCREC_VERSION);
	return -1;
}

struct doc_block docrec_block(const struct doc_record *d, uint32_t i)
{
	const uint8_t *p = (const uint8_t *)d->blocks.p + (size_t)i * DOCBLOCK_SIZE;
	return (struct doc_block){get_le64(p), get_le32(p + 8), p[12]};
}

uint8_t *docblock_encode(uint8_t *out, const struct doc_block *b)
{
	out = out_u64(out, b->hash);
	out = out_u32(out, b->len);
	*out++ = b->flags;
	return out;
}

/* Whether the blocks of @d cut its all_text exactly into pieces of text
 * joined by '\n' (an empty all_text has no blocks). */
static int blocks_valid(const struct doc_record *d)
{
	const uint32_t n = docrec_n_blocks(d);
	const uint8_t *const t = (const uint8_t *)d->all_text.p;
	uint64_t at = 0;
	if (d->blocks.n % DOCBLOCK_SIZE)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct doc_block b = docrec_block(d, i);
		if (b.len == 0 || (b.flags & ~DB_KNOWN) || at + b.len > d->all_text.n)
			return 0;
		at += b.len;
		if (i + 1 < n) {
			if (at >= d->all_text.n || t[at] != '\n')
				return 0;
			at++;
		}
	}
	return at == d->all_text.n;
}
size_t docrec_size(const struct doc_record *d)
{
	return 5 * 8 + 2 * 4 + 8 * 4 + (size_t)d->url.n + d->warc_file.n +
	       d->record_id.n + d->date.n + d->title.n + d->text.n + d->all_text.n + d->blocks.n;
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
	p = out_str(p, d->text.p, d->text.n);
	p = out_str(p, d->all_text.p, d->all_text.n);
	p = out_u32(p, docrec_n_blocks(d));
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
	    cur_slice(&c, &d->text) || cur_slice(&c, &d->all_text))
		return -1;
	uint32_t n_blocks;
	if (cur_u32(&c, &n_blocks) || n_blocks > UINT32_MAX / DOCBLOCK_SIZE ||
	    cur_need(&c, (size_t)n_blocks * DOCBLOCK_SIZE))
		return -1;
	d->blocks = (struct str){(const char *)c.next, n_blocks * DOCBLOCK_SIZE};
	c.next += d->blocks.n;
	if (!blocks_valid(d))
		return -1;
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
	    cur_u64(&c, &r->text_hash) || cur_u32(&c, &r->text_len) ||
	    cur_u32(&c, &r->flags) || cur_slice(&c, &r->url) ||
	    cur_slice(&c, &r->warc_file) || cur_slice(&c, &r->record_id) ||
	    cur_slice(&c, &r->date))
		return -1;
	*in = c.next;
	return 0;
}
