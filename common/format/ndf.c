/*
 * ndf.c - writer and reader of NDF sections (see ndf.h, docs/FORMATS.md).
 *
 *   +--------------------------------------------------------------+
 *   | header: magic, version, header_size, kind, flags, counts,    |
 *   |         parameters, perm[64], header CRC-32  (168 bytes)     |
 *   +--------------------------------------------------------------+
 *   | block: u32 n_records | u32 len | u32 codec | payload | crc   |  *
 *   +--------------------------------------------------------------+
 *   | u32 0xffffffff (end of blocks)                               |
 *   | index: n_blocks x { u64 offset, u64 first_record, u64 key }  |
 *   | tail:  u64 n_blocks, u64 record_count, u32 payload_crc,      |
 *   |        u64 section_size, u32 footer_crc, 8-byte end magic    |
 *   +--------------------------------------------------------------+
 *
 * The reader trusts nothing: every length is bounded before it is used,
 * every block's CRC is checked before its payload is handed out, and the
 * footer must agree with what was actually read (count, CRC, size, index)
 * so truncation anywhere, even at a block boundary, is caught.
 */
#define _FILE_OFFSET_BITS 64
#include "format/ndf.h"

#include "util/mapguard.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <libdeflate.h>
#include <zlib.h>

#include "util/bytes.h"
#include "util/log.h"

static const uint8_t ndf_magic[8] = {0x89, 'N', 'D', 'F', '\r', '\n', 0x1a, '\n'};
static const uint8_t ndf_end_magic[8] = {'N', 'D', 'F', 'E', 'N', 'D', 0x89, '\n'};

#define END_MARKER 0xffffffffu
#define TAIL_SIZE 40
#define INDEX_ENTRY_SIZE 24
#define MAX_HEADER_SIZE 4096

const char *ndf_strerror(int err)
{
	switch (err) {
	case NDF_OK: return "no error";
	case NDF_ERR_IO: return "I/O error";
	case NDF_ERR_MAGIC: return "not an NDF file (bad magic)";
	case NDF_ERR_VERSION: return "unsupported format version";
	case NDF_ERR_CHECKSUM: return "checksum mismatch";
	case NDF_ERR_TRUNCATED: return "truncated";
	case NDF_ERR_FORMAT: return "malformed";
	case NDF_ERR_NOMEM: return "out of memory";
	case NDF_ERR_PARAMS: return "incompatible parameters";
	}
	return "unknown error";
}

const char *ndf_kind_name(uint32_t kind)
{
	switch (kind) {
	case NDF_KIND_DOCS: return "documents";
	case NDF_KIND_FPS: return "fingerprints";
	case NDF_KIND_TABLE: return "sorted table";
	case NDF_KIND_CTABLE: return "compressed table";
	case NDF_KIND_TEMPLATES: return "templates";
	}
	return "unknown";
}

void ndf_block_free(struct ndf_block *b)
{
	if (!b->mapped)
		free(b->data);
	b->mapped = 0;
	b->data = NULL;
	b->len = b->cap = 0;
}

/* CRC-32 (the zlib/gzip polynomial, same values as zlib's crc32()), via
 * libdeflate, which computes it faster (docs/DEPENDENCIES.md): every byte
 * of every file between stages goes through it twice. */
static uint32_t crc(uint32_t c, const void *p, size_t n)
{
	return libdeflate_crc32(c, p, n);
}

static void header_encode(const struct ndf_header *h, uint8_t *out)
{
	memset(out, 0, NDF_HEADER_SIZE);
	memcpy(out, ndf_magic, 8);
	put_le32(out + 8, NDF_VERSION);
	put_le32(out + 12, NDF_HEADER_SIZE);
	put_le32(out + 16, h->kind);
	put_le32(out + 20, h->flags);
	put_le64(out + 24, h->record_count);
	put_le32(out + 32, h->payload_crc);
	put_le32(out + 36, h->simhash_bits);
	put_le64(out + 40, h->feature_config);
	put_le64(out + 48, h->dataset_id);
	put_le64(out + 56, h->section_size);
	put_le32(out + 64, h->k);
	put_le32(out + 68, h->design_code);
	put_le32(out + 72, h->n_tables);
	put_le32(out + 76, h->table_index);
	put_le32(out + 80, h->lead_bits);
	put_le32(out + 84, h->codec_param);
	put_le64(out + 88, h->aux);
	memcpy(out + 96, h->perm, 64);
	/* bytes 160..163 reserved (0) */
	put_le32(out + NDF_HEADER_SIZE - 4, crc(0, out, NDF_HEADER_SIZE - 4));
}

static void header_decode(const uint8_t *in, struct ndf_header *h)
{
	h->version = get_le32(in + 8);
	h->kind = get_le32(in + 16);
	h->flags = get_le32(in + 20);
	h->record_count = get_le64(in + 24);
	h->payload_crc = get_le32(in + 32);
	h->simhash_bits = get_le32(in + 36);
	h->feature_config = get_le64(in + 40);
	h->dataset_id = get_le64(in + 48);
	h->section_size = get_le64(in + 56);
	h->k = get_le32(in + 64);
	h->design_code = get_le32(in + 68);
	h->n_tables = get_le32(in + 72);
	h->table_index = get_le32(in + 76);
	h->lead_bits = get_le32(in + 80);
	h->codec_param = get_le32(in + 84);
	h->aux = get_le64(in + 88);
	memcpy(h->perm, in + 96, 64);
}

/* ------------------------------------------------------------------ */
/* writer                                                             */

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
	header_encode(&w->h, hdr);
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

static void block_header(uint8_t bh[NDF_BLOCK_HEADER], uint32_t n_records, uint32_t len,
			 uint32_t codec)
{
	put_le32(bh, n_records);
	put_le32(bh + 4, len);
	put_le32(bh + 8, codec);
}

static uint32_t block_crc(const uint8_t bh[NDF_BLOCK_HEADER], const uint8_t *data, size_t len)
{
	return crc(crc(0, bh, NDF_BLOCK_HEADER), data, len);
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
	block_header(bh, n_records, (uint32_t)len, codec);
	uint32_t c = block_crc(bh, payload, len);
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
	p = out_u32(p, crc(0, f, (size_t)(p - f)));
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
	header_encode(&w->h, hdr);
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

/* ------------------------------------------------------------------ */
/* reader                                                             */

struct ndf_reader {
	FILE *fp;
	char *name;
	struct ndf_header h;
	uint64_t pos;   /* bytes consumed since the section start */
	uint64_t count; /* records in the blocks read so far */
	uint32_t crc;
	int done;
	struct ndf_index_entry *index;
	uint64_t n_blocks, cap_blocks;
	/* ndf_reader_map(): the whole file, read in place from there on */
	const uint8_t *map;
	uint64_t map_len;
	uint64_t base;     /* file offset of the section start */
	uint64_t released; /* section offset below which pages were dropped */
};

static int fault(const struct ndf_reader *r, int err, uint64_t at, const char *what)
{
	log_error("'%s': offset %llu: %s: %s", r->name, (unsigned long long)at,
		  ndf_strerror(err), what);
	return err;
}

/* Bytes of the mapped file from the reader's position on. */
static uint64_t map_left(const struct ndf_reader *r)
{
	const uint64_t at = r->base + r->pos;
	return at < r->map_len ? r->map_len - at : 0;
}

/* Read exactly @n bytes; a short read is truncation, or an I/O error. */
static int r_read(struct ndf_reader *r, void *p, size_t n, const char *what)
{
	if (r->map) {
		if (map_left(r) < n)
			return fault(r, NDF_ERR_TRUNCATED, r->pos + map_left(r), what);
		memcpy(p, r->map + r->base + r->pos, n);
		r->pos += n;
		return 0;
	}
	size_t got = fread(p, 1, n, r->fp);
	if (got != n) {
		if (ferror(r->fp)) {
			log_error("cannot read '%s': %s", r->name, strerror(errno));
			return NDF_ERR_IO;
		}
		return fault(r, NDF_ERR_TRUNCATED, r->pos + got, what);
	}
	r->pos += n;
	return 0;
}

static int check_header(struct ndf_reader *r, const uint8_t *hdr, uint32_t hsize)
{
	if (get_le32(hdr + hsize - 4) != crc(0, hdr, hsize - 4))
		return fault(r, NDF_ERR_CHECKSUM, 0, "header checksum does not match");
	header_decode(hdr, &r->h);
	if (r->h.flags & NDF_FLAGS_RESERVED & ~NDF_FLAGS_KNOWN)
		return fault(r, NDF_ERR_FORMAT, 20, "reserved header flag set");
	if (r->h.kind < NDF_KIND_DOCS || r->h.kind > NDF_KIND_TEMPLATES)
		return fault(r, NDF_ERR_FORMAT, 16, "unknown kind of records");
	if (r->h.simhash_bits > 64 || r->h.lead_bits > 64)
		return fault(r, NDF_ERR_FORMAT, 36, "parameter out of range");
	return 0;
}

static int read_header(struct ndf_reader *r)
{
	uint8_t fixed[16], *hdr;
	size_t got = fread(fixed, 1, sizeof fixed, r->fp);
	int err;

	if (got == 0 && !ferror(r->fp))
		return 1; /* clean end of input: no further section */
	if (got != sizeof fixed)
		return ferror(r->fp) ? NDF_ERR_IO
				     : fault(r, NDF_ERR_TRUNCATED, got, "file ends inside the header");
	if (memcmp(fixed, ndf_magic, 8))
		return fault(r, NDF_ERR_MAGIC, 0, "this is not a file written by these tools");
	uint32_t version = get_le32(fixed + 8), hsize = get_le32(fixed + 12);
	if (version != NDF_VERSION) {
		char msg[96];
		snprintf(msg, sizeof msg, "version %u; this reader knows version %u",
			 version, NDF_VERSION);
		return fault(r, NDF_ERR_VERSION, 8, msg);
	}
	if (hsize < NDF_HEADER_SIZE || hsize > MAX_HEADER_SIZE)
		return fault(r, NDF_ERR_FORMAT, 12, "impossible header size");
	if (!(hdr = malloc(hsize)))
		return NDF_ERR_NOMEM;
	memcpy(hdr, fixed, sizeof fixed);
	r->pos = sizeof fixed;
	err = r_read(r, hdr + sizeof fixed, hsize - sizeof fixed, "file ends inside the header");
	if (!err)
		err = check_header(r, hdr, hsize);
	free(hdr);
	return err;
}

struct ndf_reader *ndf_reader_open(FILE *fp, const char *name, int *err)
{
	struct ndf_reader *r = calloc(1, sizeof *r);
	*err = NDF_ERR_NOMEM;
	if (!r || !(r->name = strdup(name))) {
		log_error("out of memory opening '%s'", name);
		free(r);
		return NULL;
	}
	r->fp = fp;
	int e = read_header(r);
	if (e) {
		*err = e > 0 ? NDF_OK : e;
		ndf_reader_close(r);
		return NULL;
	}
	*err = NDF_OK;
	return r;
}

const struct ndf_header *ndf_reader_header(const struct ndf_reader *r)
{
	return &r->h;
}

const char *ndf_reader_name(const struct ndf_reader *r)
{
	return r->name;
}

static int remember_block(struct ndf_reader *r, uint64_t offset)
{
	if (r->n_blocks == r->cap_blocks) {
		uint64_t cap = r->cap_blocks ? 2 * r->cap_blocks : 64;
		void *p = realloc(r->index, cap * sizeof *r->index);
		if (!p)
			return NDF_ERR_NOMEM;
		r->index = p;
		r->cap_blocks = cap;
	}
	r->index[r->n_blocks].offset = offset;
	r->index[r->n_blocks].first_record = r->count;
	r->index[r->n_blocks++].first_key = 0;
	return 0;
}

/* The footer must describe exactly the blocks that were read. */
static int check_tail(struct ndf_reader *r, const uint8_t *f, size_t n, uint64_t at)
{
	const uint8_t *t = f + n - TAIL_SIZE;
	if (memcmp(t + 32, ndf_end_magic, 8))
		return fault(r, NDF_ERR_FORMAT, at + n - 8, "bad end-of-section magic");
	if (get_le32(t + 28) != crc(0, f, n - 12))
		return fault(r, NDF_ERR_CHECKSUM, at, "footer checksum does not match");
	if (get_le64(t) != r->n_blocks || get_le64(t + 8) != r->count)
		return fault(r, NDF_ERR_FORMAT, at, "footer counts disagree with the blocks read");
	if (get_le32(t + 16) != r->crc)
		return fault(r, NDF_ERR_CHECKSUM, at, "payload checksum does not match");
	if (get_le64(t + 20) != r->pos)
		return fault(r, NDF_ERR_FORMAT, at, "footer section size disagrees");
	if (!(r->h.flags & NDF_FLAG_STREAMED) &&
	    (r->h.record_count != r->count || r->h.payload_crc != r->crc ||
	     r->h.section_size != r->pos))
		return fault(r, NDF_ERR_CHECKSUM, 24, "header totals disagree with the payload");
	for (uint64_t i = 0; i < r->n_blocks; i++) {
		const uint8_t *e = f + 4 + i * INDEX_ENTRY_SIZE;
		if (get_le64(e) != r->index[i].offset || get_le64(e + 8) != r->index[i].first_record)
			return fault(r, NDF_ERR_FORMAT, at, "block index disagrees with the blocks");
		r->index[i].first_key = get_le64(e + 16);
	}
	/* Verified: a streamed section's header now gets its real totals. */
	r->h.record_count = r->count;
	r->h.payload_crc = r->crc;
	r->h.section_size = r->pos;
	return 0;
}

static int read_footer(struct ndf_reader *r, uint64_t at)
{
	if (r->n_blocks > (SIZE_MAX - 64) / INDEX_ENTRY_SIZE)
		return fault(r, NDF_ERR_FORMAT, at, "too many blocks");
	size_t n = 4 + (size_t)r->n_blocks * INDEX_ENTRY_SIZE + TAIL_SIZE;
	uint8_t *f = malloc(n);
	if (!f)
		return NDF_ERR_NOMEM;
	put_le32(f, END_MARKER);
	int err = r_read(r, f + 4, n - 4, "file ends inside the footer");
	if (!err)
		err = check_tail(r, f, n, at);
	free(f);
	if (!err)
		r->done = 1;
	/* the FILE goes on where the section ends: the next reader starts there */
	if (!err && r->map && fseeko(r->fp, (off_t)(r->base + r->pos), SEEK_SET))
		err = fault(r, NDF_ERR_IO, r->pos, "cannot seek past the section");
	return err;
}

static int grow(struct ndf_block *b, size_t n)
{
	if (b->mapped) { /* the data was the reader's, not ours */
		b->data = NULL;
		b->mapped = 0;
	}
	if (b->cap >= n)
		return 0;
	void *p = realloc(b->data, n);
	if (!p)
		return NDF_ERR_NOMEM;
	b->data = p;
	b->cap = n;
	return 0;
}

static int read_block(struct ndf_reader *r, struct ndf_block *b, int check)
{
	uint8_t bh[NDF_BLOCK_HEADER], tail[4];
	uint64_t at = r->pos;
	int err;

	if (r->done)
		return 0;
	if ((err = r_read(r, bh, 4, "file ends before the end of the section")))
		return err;
	if (get_le32(bh) == END_MARKER)
		return read_footer(r, at);
	if ((err = r_read(r, bh + 4, 8, "file ends inside a block header")))
		return err;
	uint32_t len = get_le32(bh + 4);
	if (len > NDF_MAX_BLOCK)
		return fault(r, NDF_ERR_FORMAT, at, "block larger than the format allows");
	if (remember_block(r, at))
		return NDF_ERR_NOMEM;
	if (r->map && map_left(r) >= len) {
		ndf_block_free(b); /* a buffer of ours is not needed any more */
		b->data = (uint8_t *)r->map + r->base + r->pos;
		b->mapped = 1;
		r->pos += len;
	} else if (grow(b, len ? len : 1)) {
		return NDF_ERR_NOMEM;
	} else if ((err = r_read(r, b->data, len, "file ends inside a block"))) {
		return err;
	}
	if ((err = r_read(r, tail, 4, "file ends inside a block")))
		return err;
	const uint32_t c = get_le32(tail);
	if (check && block_crc(bh, b->data, len) != c)
		return fault(r, NDF_ERR_CHECKSUM, at, "block checksum does not match");
	r->crc = (uint32_t)crc32_combine(r->crc, c, (z_off_t)(sizeof bh + len));
	b->crc = c;
	b->unchecked = !check;
	b->n_records = get_le32(bh);
	b->codec = get_le32(bh + 8);
	b->first_record = r->count;
	b->offset = at;
	b->len = len;
	r->count += b->n_records;
	return 1;
}

int ndf_read_block(struct ndf_reader *r, struct ndf_block *b)
{
	return read_block(r, b, 1);
}

int ndf_read_block_unchecked(struct ndf_reader *r, struct ndf_block *b)
{
	return read_block(r, b, 0);
}

int ndf_read_raw_block(struct ndf_reader *r, struct ndf_block *b)
{
	const int rc = read_block(r, b, 1);
	if (rc <= 0 || b->codec == NDF_CODEC_RAW)
		return rc;
	log_error("%s: block at offset %llu has unknown codec %u", r->name,
		  (unsigned long long)b->offset, b->codec);
	return NDF_ERR_PARAMS;
}

long ndf_read_raw_blocks(struct ndf_reader *r, struct ndf_block *blk, size_t max,
			 uint64_t *bytes_in)
{
	size_t n = 0;
	while (n < max) {
		const int rc = ndf_read_raw_block(r, &blk[n]);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		*bytes_in += blk[n].len + NDF_BLOCK_HEADER;
		n++;
	}
	return (long)n;
}

int ndf_block_check(const struct ndf_block *b, const char *name)
{
	uint8_t bh[NDF_BLOCK_HEADER];
	if (!b->unchecked)
		return 0;
	block_header(bh, b->n_records, (uint32_t)b->len, b->codec);
	if (block_crc(bh, b->data, b->len) == b->crc)
		return 0;
	log_error("'%s': offset %llu: %s: block checksum does not match", name,
		  (unsigned long long)b->offset, ndf_strerror(NDF_ERR_CHECKSUM));
	return NDF_ERR_CHECKSUM;
}

const struct ndf_index_entry *ndf_reader_index(const struct ndf_reader *r, uint64_t *n_blocks)
{
	*n_blocks = r->done ? r->n_blocks : 0;
	return r->done ? r->index : NULL;
}

int ndf_reader_map(struct ndf_reader *r)
{
	struct stat st;
	const int fd = fileno(r->fp);
	const off_t at = ftello(r->fp);
	if (r->map || r->n_blocks || fd < 0 || at < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size <= at)
		return -1;
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	(void)madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
	/* a failed page is then an error naming the file, not a bare crash */
	(void)mapguard_add(p, (size_t)st.st_size, r->name);
	r->map = p;
	r->map_len = (uint64_t)st.st_size;
	r->base = (uint64_t)at - r->pos; /* the header was read through the FILE */
	r->released = 0;
	return 0;
}

void ndf_reader_release(struct ndf_reader *r, uint64_t upto)
{
	const uint64_t page = 4096;
	if (!r->map)
		return;
	uint64_t lo = (r->base + r->released + page - 1) & ~(page - 1);
	uint64_t hi = (r->base + upto) & ~(page - 1);
	if (hi > lo)
		(void)madvise((void *)(r->map + lo), hi - lo, MADV_DONTNEED);
	if (upto > r->released)
		r->released = upto;
}

void ndf_reader_close(struct ndf_reader *r)
{
	if (!r)
		return;
	if (r->map) {
		mapguard_remove(r->map);
		munmap((void *)r->map, r->map_len);
	}
	free(r->index);
	free(r->name);
	free(r);
}

int ndf_verify_section(FILE *fp, const char *name, struct ndf_header *out)
{
	int err;
	struct ndf_reader *r = ndf_reader_open(fp, name, &err);
	struct ndf_block b = {0};
	if (!r) {
		if (!err)
			log_error("'%s': offset 0: %s: empty input, no section", name,
				  ndf_strerror(NDF_ERR_TRUNCATED));
		return err ? err : NDF_ERR_TRUNCATED;
	}
	while ((err = ndf_read_block(r, &b)) > 0)
		;
	if (!err && out)
		*out = r->h;
	ndf_block_free(&b);
	ndf_reader_close(r);
	return err;
}

/* ------------------------------------------------------------------ */
/* random access                                                      */

struct ndf_section {
	struct ndf_reader r; /* header, name, index; pos unused */
	uint64_t start;
};

static int sec_fault(struct ndf_section *s, int err, uint64_t at, const char *what)
{
	return fault(&s->r, err, at, what);
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
	if (!err && get_le32(t + 28) != crc(0, f, n - 12))
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

int ndf_section_open(FILE *fp, const char *name, uint64_t offset, struct ndf_section **out)
{
	struct ndf_section *s = calloc(1, sizeof *s);
	*out = NULL;
	if (!s || !(s->r.name = strdup(name))) {
		free(s);
		return NDF_ERR_NOMEM;
	}
	s->r.fp = fp;
	s->start = offset;
	int err = fseeko(fp, (off_t)offset, SEEK_SET) ? NDF_ERR_IO : read_header(&s->r);
	if (err > 0)
		err = sec_fault(s, NDF_ERR_TRUNCATED, 0, "no section at this offset");
	if (!err && (s->r.h.flags & NDF_FLAG_STREAMED))
		err = sec_fault(s, NDF_ERR_PARAMS, 20,
				"written to a pipe: its size is unknown, it cannot be read by index");
	if (!err)
		err = sec_footer(s);
	if (err) {
		ndf_section_close(s);
		return err;
	}
	*out = s;
	return 0;
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
	struct ndf_section *s = calloc(1, sizeof *s);
	uint8_t tail[TAIL_SIZE];
	*out = NULL;
	if (!s || !(s->r.name = strdup(name))) {
		free(s);
		return NDF_ERR_NOMEM;
	}
	s->r.fp = fp;
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
		err = fseeko(fp, (off_t)s->start, SEEK_SET) ? NDF_ERR_IO : read_header(&s->r);
	}
	if (err > 0)
		err = sec_fault(s, NDF_ERR_TRUNCATED, 0, "no section header where the tail says");
	if (!err)
		err = sec_tail_totals(s, tail, size);
	if (!err)
		err = sec_footer(s);
	if (err) {
		ndf_section_close(s);
		return err;
	}
	*out = s;
	return 0;
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
	if (grow(b, len ? len : 1))
		return NDF_ERR_NOMEM;
	if (fread(b->data, 1, len, s->r.fp) != len || fread(tail, 1, 4, s->r.fp) != 4)
		return sec_fault(s, NDF_ERR_TRUNCATED, e->offset, "file ends inside a block");
	if (get_le32(tail) != block_crc(bh, b->data, len))
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
