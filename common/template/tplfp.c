/*
 * tplfp.c - see tplfp.h.
 */
#include "template/tplfp.h"

#include <xxhash.h>

#include "template/frame.h"

int tplfp_page(const struct doc_record *d, const struct blockset *tpl, struct tplfp_worker *w,
	       struct tplfp_result *r)
{
	struct str text;
	r->flags = d->flags;
	r->fp = 0;
	r->frame = 0;
	const int choice = tpl_decide(d, tpl, &w->text, &text);
	if (choice < 0)
		return -1;
	if (w->ctx) { /* not under --dry-run */
		if (!w->frame_ready) {
			frame_init(&w->frame);
			w->frame_ready = 1;
		}
		r->frame = frame_sketch(&w->frame, tpl, w->text.blk, d->n_blocks, choice);
	}
	r->choice = (uint8_t)choice;
	r->text_len = text.n;
	r->text_hash = choice == TPL_PAGE ? d->text_hash : XXH3_64bits(text.p, text.n);
	if (choice == TPL_FALLBACK)
		r->flags |= DOC_FALLBACK_TEXT;
	if (choice == TPL_NONE) {
		r->flags |= DOC_NO_CONTENT | FP_SHORT_TEXT;
		r->fp = d->payload_hash;
		return 0;
	}
	if (!w->ctx)
		return 0;
	return docfp_text(w->ctx, text.p, text.n, &r->fp, &r->flags) != 0 ? -1 : 0;
}

void tplfp_worker_free(struct tplfp_worker *w)
{
	tpl_buf_free(&w->text);
}

struct fp_record tplfp_record(const struct doc_record *d, const struct tplfp_result *r)
{
	const struct fp_record f = {
		.simhash = r->fp,
		.doc_id = d->doc_id,
		.warc_offset = d->warc_offset,
		.payload_hash = d->payload_hash,
		.text_hash = r->text_hash,
		.frame = r->frame,
		.text_len = r->text_len,
		.flags = r->flags,
		.url = d->url,
		.warc_file = d->warc_file,
		.record_id = d->record_id,
		.date = d->date,
	};
	return f;
}
