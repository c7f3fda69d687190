/*
 * ndf_writer.c - the streaming writer of NDF sections: blocks, the footer,
 * and on a seekable output the header's totals (see ndf.h).
 */
#define _FILE_OFFSET_BITS 64
#include "format/ndf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "format/ndf_wire.h"
#include "util/bytes.h"
#include "util/log.h"

struct ndf_writer {
	FILE *fp;
	char *name;
	struct ndf_header h;
	int seekable;
	off_t start;
	uint64_t pos; /* bytes written since the section start */
	uint64_t count;
	uint32_t crc;
	struct ndf_index_entry *index;
	uint64_t n_blocks, cap_blocks;
};

static int w_write(struct ndf_writer *w, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, w->fp) != n) {
		log_error("cannot write '%s': %s", w->name, strerror(errno));
		return NDF_ERR_IO;
	}
	w->pos += n;
	return 0;
}

struct ndf_writer *ndf_writer_open(FILE *fp, const char *name, const struct ndf_header *h)
{
	struct ndf_writer *w = calloc(1, sizeof *w);
	uint8_t hdr[NDF_HEADER_SIZE];

	if (!w || !(w->name = strdup(name))) {
		log_error("out of memory opening '%s'", name);
		free(w);
		return NULL;
	}
	w->fp = fp;
	w->h = *h;
	w->h.version = NDF_VERSION;
	w->h.record_count = 0;
	w->h.payload_crc = 0;
	w->h.section_size = 0;
	w->start = ftello(fp);
	w->seekable = w->start >= 0 && fseeko(fp, w->start, SEEK_SET) == 0;
	w->h.flags = (h->flags & ~NDF_FLAGS_KNOWN) | NDF_FLAG_STREAMED;
	ndf_header_encode(&w->h, hdr);
	if (w_write(w, hdr, sizeof hdr)) {
		ndf_writer_abort(w);
		return NULL;
	}
	return w;
}

uint64_t ndf_writer_count(const struct ndf_writer *w)
{
	return w->count;
}

uint64_t ndf_writer_size(const struct ndf_writer *w)
{
	return w->pos + 4 + w->n_blocks * INDEX_ENTRY_SIZE + TAIL_SIZE;
}

static int add_index(struct ndf_writer *w, uint64_t first_key)
{
	if (w->n_blocks == w->cap_blocks) {
		uint64_t cap = w->cap_blocks ? 2 * w->cap_blocks : 64;
		void *p = realloc(w->index, cap * sizeof *w->index);
		if (!p) {
			log_error("out of memory writing '%s'", w->name);
			return NDF_ERR_NOMEM;
		}
		w->index = p;
		w->cap_blocks = cap;
	}
	struct ndf_index_entry *e = &w->index[w->n_blocks++];
	e->offset = w->pos;
	e->first_record = w->count;
	e->first_key = first_key;
	return 0;
}

int ndf_write_block(struct ndf_writer *w, uint32_t n_records, uint32_t codec,
		    uint64_t first_key, const void *payload, size_t len)
{
	uint8_t bh[NDF_BLOCK_HEADER], tail[4];
	int err;

	if (len > NDF_MAX_BLOCK || n_records == END_MARKER) {
		log_error("'%s': block of %zu bytes exceeds the format's limit", w->name, len);
		return NDF_ERR_FORMAT;
	}
	if ((err = add_index(w, first_key)))
		return err;
	ndf_block_header(bh, n_records, (uint32_t)len, codec);
	uint32_t c = ndf_block_crc(bh, payload, len);
	put_le32(tail, c);
	/* The payload CRC leaves out the blocks' own CRCs: a CRC over data
	 * followed by its CRC is a constant, which would make it blind.  It
	 * is combined from the block's CRC rather than computed again. */
	w->crc = (uint32_t)crc32_combine(w->crc, c, (z_off_t)(sizeof bh + len));
	if ((err = w_write(w, bh, sizeof bh)) || (err = w_write(w, payload, len)) ||
	    (err = w_write(w, tail, 4)))
		return err;
	w->count += n_records;
	return 0;
}

static int write_footer(struct ndf_writer *w)
{
	size_t n = 4 + (size_t)w->n_blocks * INDEX_ENTRY_SIZE + TAIL_SIZE;
	uint8_t *f = malloc(n), *p = f;
	if (!f) {
		log_error("out of memory writing '%s'", w->name);
		return NDF_ERR_NOMEM;
	}
	p = out_u32(p, END_MARKER);
	for (uint64_t i = 0; i < w->n_blocks; i++) {
		p = out_u64(p, w->index[i].offset);
		p = out_u64(p, w->index[i].first_record);
		p = out_u64(p, w->index[i].first_key);
	}
	p = out_u64(p, w->n_blocks);
	p = out_u64(p, w->count);
	p = out_u32(p, w->crc);
	p = out_u64(p, w->pos + n);
	p = out_u32(p, ndf_crc(0, f, (size_t)(p - f)));
	memcpy(p, ndf_end_magic, 8);
	int err = w_write(w, f, n);
	free(f);
	return err;
}

/* On a seekable output the header gets the real totals, so a reader can
 * size its buffers and skip sections without reading the footer first. */
static int patch_header(struct ndf_writer *w)
{
	uint8_t hdr[NDF_HEADER_SIZE];
	w->h.flags &= ~NDF_FLAG_STREAMED;
	w->h.record_count = w->count;
	w->h.payload_crc = w->crc;
	w->h.section_size = w->pos;
	ndf_header_encode(&w->h, hdr);
	if (fseeko(w->fp, w->start, SEEK_SET) || fwrite(hdr, 1, sizeof hdr, w->fp) != sizeof hdr ||
	    fseeko(w->fp, w->start + (off_t)w->pos, SEEK_SET)) {
		log_error("cannot write '%s': %s", w->name, strerror(errno));
		return NDF_ERR_IO;
	}
	return 0;
}

int ndf_writer_finish(struct ndf_writer *w)
{
	int err = write_footer(w);
	if (!err && w->seekable)
		err = patch_header(w);
	if (!err && fflush(w->fp)) {
		log_error("cannot write '%s': %s", w->name, strerror(errno));
		err = NDF_ERR_IO;
	}
	ndf_writer_abort(w);
	return err;
}

void ndf_writer_abort(struct ndf_writer *w)
{
	if (!w)
		return;
	free(w->index);
	free(w->name);
	free(w);
}
