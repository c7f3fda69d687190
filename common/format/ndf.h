/*
 * ndf.h - the NDF container: the one binary file format between stages.
 *
 * Every file (or pipe) a stage writes is a sequence of one or more NDF
 * sections.  A section is
 *
 *   header (168 bytes) | block* | end marker + footer (index, totals, magic)
 *
 * The header carries the magic, version, kind of records, the parameters
 * that make records comparable (simhash bits, feature configuration,
 * table design) and, when the output is seekable, the record count and
 * CRC-32 of the payload.  On a pipe those two cannot be patched in after
 * the fact, so the header says NDF_FLAG_STREAMED and the footer, which
 * is always written, carries them.  The full layout is specified, field
 * by field, in docs/FORMATS.md; keep the two in step.
 *
 * Blocks are bounded (NDF_MAX_BLOCK bytes), length-prefixed and carry
 * their own CRC-32, so a reader can verify and decode blocks
 * independently and in parallel.  The footer holds an index of every
 * block (file offset, first record number, first key), so a reader with
 * a seekable file can find a key's block without reading the others.
 *
 * Errors are reported through log_error() naming the file, the byte
 * offset and the fault; functions return a negative enum ndf_err.
 */
#ifndef NDD_NDF_H
#define NDD_NDF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NDF_VERSION 1
#define NDF_HEADER_SIZE 168
#define NDF_MAX_BLOCK (64u << 20) /* largest block payload a reader accepts */
#define NDF_BLOCK_HEADER 12       /* u32 n_records, u32 payload_len, u32 codec */

enum ndf_kind {
	NDF_KIND_DOCS = 1,   /* extract -> fingerprint: documents with text */
	NDF_KIND_FPS = 2,    /* fingerprint -> permute-and-sort / self-join catalog */
	NDF_KIND_TABLE = 3,  /* one sorted permuted table, raw records */
	NDF_KIND_CTABLE = 4, /* one sorted permuted table, block-compressed */
	NDF_KIND_TEMPLATES = 5, /* template -> fingerprint: each host's template blocks */
};

/* Header flags.  Bits 0-15 are reserved: a reader rejects a set bit it
 * does not know.  Bits 16-31 are unused: written 0, ignored on read. */
enum {
	NDF_FLAG_STREAMED = 1u << 0, /* count/crc/size only in the footer */
	NDF_FLAGS_KNOWN = NDF_FLAG_STREAMED,
	NDF_FLAGS_RESERVED = 0xffffu,
};

/* Block codecs (the u32 codec field of a block). */
enum {
	NDF_CODEC_RAW = 0,     /* records as specified for the kind */
	/* 1 is reserved: no writer uses it, readers refuse it as unknown */
	NDF_CODEC_PREFIX = 2,  /* CTABLE: prefix/Huffman codec (codec.h) */
	NDF_CODEC_CODE = 3,    /* CTABLE: the section's Huffman code (first block) */
	NDF_CODEC_DEFLATE = 4, /* FPS: the codec-0 payload, DEFLATE-compressed (ndf_deflate.h) */
};

enum ndf_err {
	NDF_OK = 0,
	NDF_ERR_IO = -1,
	NDF_ERR_MAGIC = -2,
	NDF_ERR_VERSION = -3,
	NDF_ERR_CHECKSUM = -4,
	NDF_ERR_TRUNCATED = -5,
	NDF_ERR_FORMAT = -6,
	NDF_ERR_NOMEM = -7,
	NDF_ERR_PARAMS = -8, /* well-formed, but not what the caller needs */
};

/** Human-readable name of an ndf_err. */
const char *ndf_strerror(int err);

/*
 * What the header says about the records.  Fields that do not apply to a
 * kind are 0.  perm[i] is the source bit (0 = least significant) of the
 * fingerprint that lands in bit i of the permuted key, counted from the
 * most significant: perm[0] is the source of the key's top bit.
 */
struct ndf_header {
	uint32_t version;
	uint32_t kind;
	uint32_t flags;
	uint64_t record_count;
	uint32_t payload_crc;
	uint32_t simhash_bits;   /* f: 64 */
	uint64_t feature_config; /* hash of the fingerprint configuration */
	uint64_t dataset_id;     /* tables: payload CRC+count of the FPS file they index */
	uint64_t section_size;   /* bytes of the whole section; 0 if streamed */
	uint32_t k;              /* Hamming radius the design was built for */
	uint32_t design_code;    /* see design.h */
	uint32_t n_tables;
	uint32_t table_index;
	uint32_t lead_bits;      /* leading permuted bits that define a run */
	uint32_t codec_param;    /* kind-specific, see docs/FORMATS.md */
	uint64_t aux;            /* kind-specific, see docs/FORMATS.md */
	uint8_t perm[64];
};

/** One block index entry, as stored in the footer. */
struct ndf_index_entry {
	uint64_t offset;       /* of the block header, from the section start */
	uint64_t first_record; /* record number of the block's first record */
	uint64_t first_key;    /* kind-specific sort key of its first record */
};

/** A block as read: the reader owns nothing here, the caller does. */
struct ndf_block {
	uint32_t n_records;
	uint32_t codec;
	uint64_t first_record;
	uint64_t offset; /* of the block header, from the section start */
	uint8_t *data;   /* payload, @len bytes valid, @cap allocated */
	size_t len, cap;
	uint32_t crc;    /* the block's stored checksum */
	int unchecked;   /* read by ndf_read_block_unchecked(), not yet checked */
	int mapped;      /* @data lies in the reader's mapping (ndf_reader_map()):
			    valid until the reader is closed, not ours to free */
};

/** Free a block's buffer (safe on a zeroed block). */
void ndf_block_free(struct ndf_block *b);

/* ---- writing ---- */

struct ndf_writer;

/**
 * Start a section on @fp (already open, positioned at the section start).
 * @name is used in messages.  The header's flags, record_count,
 * payload_crc and section_size are computed by the writer; the other
 * fields are taken from @h.  If @fp is not seekable the section is
 * written in streamed form.
 * @return a writer, or NULL after logging the error.
 */
struct ndf_writer *ndf_writer_open(FILE *fp, const char *name, const struct ndf_header *h)
	__attribute__((warn_unused_result));

/**
 * Append one block of @n_records records, @len bytes of @payload encoded
 * with @codec.  @first_key goes into the footer index.
 * @return 0, or a negative ndf_err (logged).
 */
int ndf_write_block(struct ndf_writer *w, uint32_t n_records, uint32_t codec,
		    uint64_t first_key, const void *payload, size_t len)
	__attribute__((warn_unused_result));

/**
 * Write the footer, patch the header when seekable, flush, and free @w.
 * Does not close the FILE.  @return 0, or a negative ndf_err (logged);
 * @w is freed either way.
 */
int ndf_writer_finish(struct ndf_writer *w) __attribute__((warn_unused_result));

/** Free @w without finishing the section (after an error). NULL is a no-op. */
void ndf_writer_abort(struct ndf_writer *w);

/** Records written so far. */
uint64_t ndf_writer_count(const struct ndf_writer *w);

/** Bytes the section will have once finished with the blocks so far. */
uint64_t ndf_writer_size(const struct ndf_writer *w);

/* ---- reading ---- */

struct ndf_reader;

/**
 * Read and validate a section header from @fp.  Returns NULL with *err
 * set: NDF_OK (0) means clean end of input before any header byte (no
 * further section); a negative ndf_err means a bad or truncated header,
 * already logged with @name and the offset.
 */
struct ndf_reader *ndf_reader_open(FILE *fp, const char *name, int *err)
	__attribute__((warn_unused_result));

/** The validated header; after ndf_read_block() returned 0, its
 * record_count, payload_crc and section_size hold the verified totals
 * even for a streamed section. */
const struct ndf_header *ndf_reader_header(const struct ndf_reader *r);

/** The file name given to ndf_reader_open(). */
const char *ndf_reader_name(const struct ndf_reader *r);

/**
 * Read the next block into @b (its buffer is grown as needed and reused).
 * @return 1 for a block, 0 at the end of the section (footer read and
 * every total and checksum verified), negative ndf_err on a fault
 * (logged; the section cannot be trusted any further).
 */
int ndf_read_block(struct ndf_reader *r, struct ndf_block *b)
	__attribute__((warn_unused_result));

/**
 * ndf_read_block() for readers of records as the section's kind specifies
 * them: a block of any other codec is refused (logged, NDF_ERR_PARAMS).
 */
int ndf_read_raw_block(struct ndf_reader *r, struct ndf_block *b)
	__attribute__((warn_unused_result));

/**
 * Up to @max blocks by ndf_read_raw_block() into @blk[0..]: the batch a
 * stage decodes on its threads.  Adds the bytes read (block headers
 * included) to *@bytes_in.  @return blocks read (0 at the end of the
 * section), or -1 (logged).
 */
long ndf_read_raw_blocks(struct ndf_reader *r, struct ndf_block *blk, size_t max,
			 uint64_t *bytes_in) __attribute__((warn_unused_result));

/**
 * ndf_read_block() without the block's own checksum test, which the
 * caller then runs with ndf_block_check() on another thread: a reader that
 * hands blocks to decoding threads keeps for itself only the read.  The
 * section's payload checksum is chained from the stored block checksums,
 * so the footer test still holds every block to its place; a block whose
 * bytes were damaged is caught only by ndf_block_check(), which must pass
 * before the block is used.
 */
int ndf_read_block_unchecked(struct ndf_reader *r, struct ndf_block *b)
	__attribute__((warn_unused_result));

/**
 * The checksum test ndf_read_block_unchecked() left out (a no-op for a
 * block read by ndf_read_block()).  @return 0, or NDF_ERR_CHECKSUM logged
 * with @name and the block's offset in the section.
 */
int ndf_block_check(const struct ndf_block *b, const char *name)
	__attribute__((warn_unused_result));

/**
 * Read the rest of the section in place from a mapping of the file
 * instead of copying it through the FILE (a regular file only; call right
 * after ndf_reader_open()).  Blocks then point into the mapping; the FILE
 * is positioned after the section once its footer is read.  A catalog is
 * GBs read once: a copy would be most of the reading thread's time.  The
 * file must not shrink while it is read (as with any mapping, that, or a
 * disk error, is a SIGBUS: mapguard.h makes it an error naming the file
 * and exit status 2).  @return 0, or -1 when the file cannot be mapped (nothing
 * changes: reading goes on through the FILE).
 */
int ndf_reader_map(struct ndf_reader *r);

/**
 * The caller is done with every block before section offset @upto: drop
 * the mapping's pages below it, so that what a mapped read has passed does
 * not count in the process's memory.  A no-op when not mapped.
 */
void ndf_reader_release(struct ndf_reader *r, uint64_t upto);

/** The footer's block index; valid after ndf_read_block() returned 0. */
const struct ndf_index_entry *ndf_reader_index(const struct ndf_reader *r, uint64_t *n_blocks);

/** Free @r.  Does not close the FILE.  NULL is a no-op. */
void ndf_reader_close(struct ndf_reader *r);

/**
 * Read a whole section and verify it (used by --check and tests).
 * @return 0, or a negative ndf_err (logged).
 */
int ndf_verify_section(FILE *fp, const char *name, struct ndf_header *out)
	__attribute__((warn_unused_result));

/* ---- random access (seekable files written with known sizes) ---- */

struct ndf_section;

/**
 * Open the section at byte @offset of the seekable @fp: read and check its
 * header, then its footer (magic, footer CRC, totals against the header)
 * and block index, without reading the blocks.  The section must not be
 * STREAMED (its size must be in the header).
 * @return 0 and *@out, or a negative ndf_err (logged with @name).
 */
int ndf_section_open(FILE *fp, const char *name, uint64_t offset, struct ndf_section **out)
	__attribute__((warn_unused_result));

/**
 * ndf_section_open() for the section that ends at byte @end of the
 * seekable @fp, found from its tail (the last 40 bytes): STREAMED sections
 * too, whose headers do not know their size.  Its header's totals are then
 * the tail's.  Walking back from the end of a file, each section's start
 * (ndf_section_end() less its section_size) is where the one before ends.
 * @return 0 and *@out, or a negative ndf_err (logged with @name).
 */
int ndf_section_open_end(FILE *fp, const char *name, uint64_t end, struct ndf_section **out)
	__attribute__((warn_unused_result));

const struct ndf_header *ndf_section_header(const struct ndf_section *s);

/** The block index: *@n entries. */
const struct ndf_index_entry *ndf_section_index(const struct ndf_section *s, uint64_t *n);

/** Offset of the byte after the section (where a next section starts). */
uint64_t ndf_section_end(const struct ndf_section *s);

/**
 * Read block @i into @b (buffer grown and reused) and check its CRC and
 * that it is where the index says.  @return 0, or a negative ndf_err.
 */
int ndf_section_read_block(struct ndf_section *s, uint64_t i, struct ndf_block *b)
	__attribute__((warn_unused_result));

/** NULL is a no-op. */
void ndf_section_close(struct ndf_section *s);

/** Name of a kind, e.g. "documents". */
const char *ndf_kind_name(uint32_t kind);

#endif
