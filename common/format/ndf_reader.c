/*
 * ndf_reader.c - the streaming reader of NDF sections, in place on a
 * mapped file or through the FILE (see ndf.h).
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
#include <zlib.h>

#include "format/ndf_wire.h"
#include "util/bytes.h"
#include "util/log.h"

int ndf_fault(const struct ndf_reader *r, int err, uint64_t at, const char *what)
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
			return ndf_fault(r, NDF_ERR_TRUNCATED, r->pos + map_left(r), what);
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
		return ndf_fault(r, NDF_ERR_TRUNCATED, r->pos + got, what);
	}
	r->pos += n;
	return 0;
}

static int check_header(struct ndf_reader *r, const uint8_t *hdr, uint32_t hsize)
{
	if (get_le32(hdr + hsize - 4) != ndf_crc(0, hdr, hsize - 4))
		return ndf_fault(r, NDF_ERR_CHECKSUM, 0, "header checksum does not match");
	ndf_header_decode(hdr, &r->h);
	if (r->h.flags & NDF_FLAGS_RESERVED & ~NDF_FLAGS_KNOWN)
		return ndf_fault(r, NDF_ERR_FORMAT, 20, "reserved header flag set");
	if (r->h.kind < NDF_KIND_DOCS || r->h.kind > NDF_KIND_TEMPLATES)
		return ndf_fault(r, NDF_ERR_FORMAT, 16, "unknown kind of records");
	if (r->h.simhash_bits > 64 || r->h.lead_bits > 64)
		return ndf_fault(r, NDF_ERR_FORMAT, 36, "parameter out of range");
	return 0;
}

int ndf_read_header(struct ndf_reader *r)
{
	uint8_t fixed[16], *hdr;
	size_t got = fread(fixed, 1, sizeof fixed, r->fp);
	int err;

	if (got == 0 && !ferror(r->fp))
		return 1; /* clean end of input: no further section */
	if (got != sizeof fixed)
		return ferror(r->fp) ? NDF_ERR_IO
				     : ndf_fault(r, NDF_ERR_TRUNCATED, got, "file ends inside the header");
	if (memcmp(fixed, ndf_magic, 8))
		return ndf_fault(r, NDF_ERR_MAGIC, 0, "this is not a file written by these tools");
	uint32_t version = get_le32(fixed + 8), hsize = get_le32(fixed + 12);
	if (version != NDF_VERSION) {
		char msg[96];
		snprintf(msg, sizeof msg, "version %u; this reader knows version %u",
			 version, NDF_VERSION);
		return ndf_fault(r, NDF_ERR_VERSION, 8, msg);
	}
	if (hsize < NDF_HEADER_SIZE || hsize > MAX_HEADER_SIZE)
		return ndf_fault(r, NDF_ERR_FORMAT, 12, "impossible header size");
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
	int e = ndf_read_header(r);
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
		return ndf_fault(r, NDF_ERR_FORMAT, at + n - 8, "bad end-of-section magic");
	if (get_le32(t + 28) != ndf_crc(0, f, n - 12))
		return ndf_fault(r, NDF_ERR_CHECKSUM, at, "footer checksum does not match");
	if (get_le64(t) != r->n_blocks || get_le64(t + 8) != r->count)
		return ndf_fault(r, NDF_ERR_FORMAT, at, "footer counts disagree with the blocks read");
	if (get_le32(t + 16) != r->crc)
		return ndf_fault(r, NDF_ERR_CHECKSUM, at, "payload checksum does not match");
	if (get_le64(t + 20) != r->pos)
		return ndf_fault(r, NDF_ERR_FORMAT, at, "footer section size disagrees");
	if (!(r->h.flags & NDF_FLAG_STREAMED) &&
	    (r->h.record_count != r->count || r->h.payload_crc != r->crc ||
	     r->h.section_size != r->pos))
		return ndf_fault(r, NDF_ERR_CHECKSUM, 24, "header totals disagree with the payload");
	for (uint64_t i = 0; i < r->n_blocks; i++) {
		const uint8_t *e = f + 4 + i * INDEX_ENTRY_SIZE;
		if (get_le64(e) != r->index[i].offset || get_le64(e + 8) != r->index[i].first_record)
			return ndf_fault(r, NDF_ERR_FORMAT, at, "block index disagrees with the blocks");
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
		return ndf_fault(r, NDF_ERR_FORMAT, at, "too many blocks");
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
		err = ndf_fault(r, NDF_ERR_IO, r->pos, "cannot seek past the section");
	return err;
}

int ndf_block_grow(struct ndf_block *b, size_t n)
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
		return ndf_fault(r, NDF_ERR_FORMAT, at, "block larger than the format allows");
	if (remember_block(r, at))
		return NDF_ERR_NOMEM;
	if (r->map && map_left(r) >= len) {
		ndf_block_free(b); /* a buffer of ours is not needed any more */
		b->data = (uint8_t *)r->map + r->base + r->pos;
		b->mapped = 1;
		r->pos += len;
	} else if (ndf_block_grow(b, len ? len : 1)) {
		return NDF_ERR_NOMEM;
	} else if ((err = r_read(r, b->data, len, "file ends inside a block"))) {
		return err;
	}
	if ((err = r_read(r, tail, 4, "file ends inside a block")))
		return err;
	const uint32_t c = get_le32(tail);
	if (check && ndf_block_crc(bh, b->data, len) != c)
		return ndf_fault(r, NDF_ERR_CHECKSUM, at, "block checksum does not match");
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
	ndf_block_header(bh, b->n_records, (uint32_t)b->len, b->codec);
	if (ndf_block_crc(bh, b->data, b->len) == b->crc)
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
