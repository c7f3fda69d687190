/*
 * docrec.c - encode/decode of document and fingerprint records.
 * Layouts are in docs/FORMATS.md; decoding never trusts a length.
 */
#include "format/docrec.h"

#include "util/bytes.h"

size_t docrec_size(const struct doc_record *d)
{
	return 5 * 8 + 2 * 4 + 6 * 4 + (size_t)d->url.n + d->warc_file.n +
	       d->record_id.n + d->date.n + d->title.n + d->text.n;
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
	    cur_slice(&c, &d->text))
		return -1;
	*in = c.next;
	return 0;
}

size_t fprec_size(const struct fp_record *r)
{
	return FPREC_MIN_SIZE + (size_t)r->url.n + r->warc_file.n;
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
	return (size_t)(p - out);
}

int fprec_skip(const uint8_t **in, const uint8_t *end)
{
	struct cursor c = {*in, end};
	struct str url, file;
	if (cur_need(&c, FPREC_FIXED_SIZE))
		return -1;
	c.next += FPREC_FIXED_SIZE;
	if (cur_slice(&c, &url) || cur_slice(&c, &file))
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
	    cur_slice(&c, &r->warc_file))
		return -1;
	*in = c.next;
	return 0;
}
