/*
 * ndf_section.c - random access to one NDF section of a seekable file: its
 * footer's index found from the header or from the section's end, then any
 * block by number (see ndf.h).
 */
#define _FILE_OFFSET_BITS 64
#include "format/ndf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/ndf_wire.h"
#include "util/bytes.h"
#include "util/log.h"

struct ndf_section {
	struct ndf_reader r; /* header, name, index; pos unused */
	uint64_t start;
};

static int sec_fault(struct ndf_section *s, int err, uint64_t at, const char *what)
{
	return ndf_fault(&s->r, err, at, what);
}

static int sec_pread(struct ndf_section *s, uint64_t at, void *p, size_t n, const char *what)
{
	if (fseeko(s->r.fp, (off_t)(s->start + at), SEEK_SET) ||
	    fread(p, 1, n, s->r.fp) != n) {
		if (ferror(s->r.fp)) {
			log_error("cannot read '%s': %s", s->r.name, strerror(errno));
			return NDF_ERR_IO;
		}
		return sec_fault(s, NDF_ERR_TRUNCATED, at, what);
	}
	return 0;
}

/* The footer is found from the header's section size, then checked as the
 * sequential reader checks it, but against the header's totals. */
static int sec_footer(struct ndf_section *s)
{
	const struct ndf_header *h = &s->r.h;
	uint8_t tail[TAIL_SIZE];
	if (h->section_size < NDF_HEADER_SIZE + 4 + TAIL_SIZE)
		return sec_fault(s, NDF_ERR_FORMAT, 56, "impossible section size");
	int err = sec_pread(s, h->section_size - TAIL_SIZE, tail, TAIL_SIZE,
			    "file ends before the section's footer");
	if (err)
		return err;
	uint64_t nb = get_le64(tail);
	if (nb > (h->section_size - NDF_HEADER_SIZE) / INDEX_ENTRY_SIZE)
		return sec_fault(s, NDF_ERR_FORMAT, h->section_size - TAIL_SIZE, "impossible block count");
	size_t n = 4 + (size_t)nb * INDEX_ENTRY_SIZE + TAIL_SIZE;
	uint8_t *f = malloc(n);
	if (!f)
		return NDF_ERR_NOMEM;
	uint64_t at = h->section_size - n;
	err = sec_pread(s, at, f, n, "file ends inside the footer");
	const uint8_t *t = f + n - TAIL_SIZE;
	if (!err && (get_le32(f) != END_MARKER || memcmp(t + 32, ndf_end_magic, 8)))
		err = sec_fault(s, NDF_ERR_FORMAT, at, "no footer where the header says");
	if (!err && get_le32(t + 28) != ndf_crc(0, f, n - 12))
		err = sec_fault(s, NDF_ERR_CHECKSUM, at, "footer checksum does not match");
	if (!err && (get_le64(t + 8) != h->record_count || get_le32(t + 16) != h->payload_crc ||
		     get_le64(t + 20) != h->section_size))
		err = sec_fault(s, NDF_ERR_FORMAT, at, "footer totals disagree with the header");
	if (!err && !(s->r.index = malloc((nb + 1) * sizeof *s->r.index)))
		err = NDF_ERR_NOMEM;
	for (uint64_t i = 0; !err && i < nb; i++) {
		const uint8_t *e = f + 4 + i * INDEX_ENTRY_SIZE;
		s->r.index[i].offset = get_le64(e);
		s->r.index[i].first_record = get_le64(e + 8);
		s->r.index[i].first_key = get_le64(e + 16);
		if (s->r.index[i].offset < NDF_HEADER_SIZE || s->r.index[i].offset >= at)
			err = sec_fault(s, NDF_ERR_FORMAT, at, "block index points outside the blocks");
	}
	s->r.n_blocks = nb;
	free(f);
	return err;
}

/* A section of @fp (@name) before anything is read, or NULL. */
static struct ndf_section *sec_new(FILE *fp, const char *name)
{
	struct ndf_section *s = calloc(1, sizeof *s);
	if (!s || !(s->r.name = strdup(name))) {
		free(s);
		return NULL;
	}
	s->r.fp = fp;
	return s;
}

/* The end of an open: the footer read and *@out set, or @err with the
 * section closed. */
static int sec_opened(struct ndf_section *s, int err, struct ndf_section **out)
{
	if (!err)
		err = sec_footer(s);
	if (err) {
		ndf_section_close(s);
		return err;
	}
	*out = s;
	return 0;
}

int ndf_section_open(FILE *fp, const char *name, uint64_t offset, struct ndf_section **out)
{
	struct ndf_section *s = sec_new(fp, name);
	*out = NULL;
	if (!s)
		return NDF_ERR_NOMEM;
	s->start = offset;
	int err = fseeko(fp, (off_t)offset, SEEK_SET) ? NDF_ERR_IO : ndf_read_header(&s->r);
	if (err > 0)
		err = sec_fault(s, NDF_ERR_TRUNCATED, 0, "no section at this offset");
	if (!err && (s->r.h.flags & NDF_FLAG_STREAMED))
		err = sec_fault(s, NDF_ERR_PARAMS, 20,
				"written to a pipe: its size is unknown, it cannot be read by index");
	return sec_opened(s, err, out);
}

/* A STREAMED header holds no totals: the tail's stand in for them, and
 * sec_footer() then holds the tail to the footer's checksum. */
static int sec_tail_totals(struct ndf_section *s, const uint8_t *tail, uint64_t size)
{
	struct ndf_header *h = &s->r.h;
	if (!(h->flags & NDF_FLAG_STREAMED))
		return h->section_size == size
			       ? 0
			       : sec_fault(s, NDF_ERR_FORMAT, 56, "header and tail disagree on the size");
	h->record_count = get_le64(tail + 8);
	h->payload_crc = get_le32(tail + 16);
	h->section_size = size;
	return 0;
}

int ndf_section_open_end(FILE *fp, const char *name, uint64_t end, struct ndf_section **out)
{
	struct ndf_section *s = sec_new(fp, name);
	uint8_t tail[TAIL_SIZE];
	*out = NULL;
	if (!s)
		return NDF_ERR_NOMEM;
	int err = end < NDF_HEADER_SIZE + 4 + TAIL_SIZE
			  ? sec_fault(s, NDF_ERR_TRUNCATED, end, "too short for a section")
			  : sec_pread(s, end - TAIL_SIZE, tail, TAIL_SIZE, "file ends inside the tail");
	if (!err && memcmp(tail + 32, ndf_end_magic, 8))
		err = sec_fault(s, NDF_ERR_FORMAT, end - 8, "no end-of-section magic here");
	const uint64_t size = err ? 0 : get_le64(tail + 20);
	if (!err && (size < NDF_HEADER_SIZE + 4 + TAIL_SIZE || size > end))
		err = sec_fault(s, NDF_ERR_FORMAT, end - TAIL_SIZE, "impossible section size in the tail");
	if (!err) {
		s->start = end - size;
		err = fseeko(fp, (off_t)s->start, SEEK_SET) ? NDF_ERR_IO : ndf_read_header(&s->r);
	}
	if (err > 0)
		err = sec_fault(s, NDF_ERR_TRUNCATED, 0, "no section header where the tail says");
	if (!err)
		err = sec_tail_totals(s, tail, size);
	return sec_opened(s, err, out);
}

const struct ndf_header *ndf_section_header(const struct ndf_section *s)
{
	return &s->r.h;
}

const struct ndf_index_entry *ndf_section_index(const struct ndf_section *s, uint64_t *n)
{
	*n = s->r.n_blocks;
	return s->r.index;
}

uint64_t ndf_section_end(const struct ndf_section *s)
{
	return s->start + s->r.h.section_size;
}

int ndf_section_read_block(struct ndf_section *s, uint64_t i, struct ndf_block *b)
{
	uint8_t bh[NDF_BLOCK_HEADER], tail[4];
	if (i >= s->r.n_blocks)
		return NDF_ERR_PARAMS;
	const struct ndf_index_entry *e = &s->r.index[i];
	int err = sec_pread(s, e->offset, bh, sizeof bh, "file ends inside a block header");
	if (err)
		return err;
	uint32_t len = get_le32(bh + 4);
	if (len > NDF_MAX_BLOCK || e->offset + NDF_BLOCK_HEADER + len + 4 > s->r.h.section_size)
		return sec_fault(s, NDF_ERR_FORMAT, e->offset, "block larger than its section");
	if (ndf_block_grow(b, len ? len : 1))
		return NDF_ERR_NOMEM;
	if (fread(b->data, 1, len, s->r.fp) != len || fread(tail, 1, 4, s->r.fp) != 4)
		return sec_fault(s, NDF_ERR_TRUNCATED, e->offset, "file ends inside a block");
	if (get_le32(tail) != ndf_block_crc(bh, b->data, len))
		return sec_fault(s, NDF_ERR_CHECKSUM, e->offset, "block checksum does not match");
	b->n_records = get_le32(bh);
	b->codec = get_le32(bh + 8);
	b->first_record = e->first_record;
	b->offset = e->offset;
	b->len = len;
	b->crc = get_le32(tail);
	b->unchecked = 0;
	return 0;
}

void ndf_section_close(struct ndf_section *s)
{
	if (!s)
		return;
	free(s->r.index);
	free(s->r.name);
	free(s);
}
