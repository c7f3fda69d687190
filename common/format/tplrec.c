/*
 * tplrec.c - encode/decode of template records (tplrec.h).
 */
#include "format/tplrec.h"

#include "format/ndf.h"
#include "util/bytes.h"
#include "util/log.h"

size_t tplrec_encode(const struct tpl_record *r, const uint64_t *hashes, uint8_t *out)
{
	uint8_t *p = out;
	p = out_u64(p, r->host);
	p = out_u32(p, r->pages);
	p = out_u32(p, r->age);
	p = out_u32(p, r->n);
	for (uint32_t i = 0; i < r->n; i++)
		p = out_u64(p, hashes[i]);
	return (size_t)(p - out);
}

uint64_t tplrec_hash(const struct tpl_record *r, uint32_t i)
{
	return get_le64(r->hashes + (size_t)i * 8);
}

int tplrec_decode(const uint8_t **in, const uint8_t *end, struct tpl_record *r)
{
	struct cursor c = {*in, end};
	if (cur_u64(&c, &r->host) || cur_u32(&c, &r->pages) || cur_u32(&c, &r->age) ||
	    cur_u32(&c, &r->n) || r->n > TPLREC_MAX_BLOCKS || cur_need(&c, (size_t)r->n * 8))
		return -1;
	r->hashes = c.next;
	for (uint32_t i = 1; i < r->n; i++)
		if (tplrec_hash(r, i - 1) >= tplrec_hash(r, i))
			return -1;
	*in = c.next + (size_t)r->n * 8;
	return 0;
}

int tplrec_check_header(const struct ndf_header *h, const char *name)
{
	if (h->kind != NDF_KIND_TEMPLATES) {
		log_error("%s: expected templates (ndd-template output), found %s", name,
			  ndf_kind_name(h->kind));
		return -1;
	}
	if (h->aux < TPLREC_OLDEST || h->aux > TPLREC_VERSION) {
		log_error("%s: templates of record layout %llu, this program reads layouts %d to %d",
			  name, (unsigned long long)h->aux, TPLREC_OLDEST, TPLREC_VERSION);
		return -1;
	}
	return 0;
}
