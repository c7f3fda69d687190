/*
 * docrec.h - the records of NDF_KIND_DOCS (extract -> fingerprint) and
 * NDF_KIND_FPS (fingerprint -> permute-and-sort, and the catalog that
 * self-join reads to write the CSV).
 *
 * Both are variable-length records packed back to back in a block's
 * payload; strings are u32 length + bytes (UTF-8, not NUL-terminated on
 * disk).  Decoded strings point into the block buffer, so a decoded
 * record lives as long as that buffer.  Layouts: docs/FORMATS.md.
 */
#ifndef NDD_DOCREC_H
#define NDD_DOCREC_H

#include <stddef.h>
#include <stdint.h>

/* A string slice; not NUL-terminated. */
struct str {
	const char *p;
	uint32_t n;
};

/* Document flags (u32). */
enum {
	DOC_TRUNCATED = 1u << 0,      /* WARC-Truncated, or cut at --max-record */
	DOC_TEXT_TRUNCATED = 1u << 1, /* main text cut at --max-text */
	DOC_CHARSET_LOSSY = 1u << 2,  /* some bytes could not be decoded */
	DOC_FROM_ARCHIVE = 1u << 3,   /* came out of a tar/zip, offsets are in the member */
	DOC_OFFSET_UNCOMPRESSED = 1u << 4, /* whole-file gzip: offset is in the inflated stream */
};

/*
 * Document ids are globally unique across shards: the input file's
 * number (given on the command line, plus --file-base) in the top 24 bits
 * and the record's ordinal in that file in the low 40.
 */
#define DOC_ID(file_no, rec_no) (((uint64_t)(file_no) << 40) | ((uint64_t)(rec_no) & ((1ull << 40) - 1)))
#define DOC_ID_FILE(id) ((uint32_t)((id) >> 40))
#define DOC_ID_REC(id) ((id) & ((1ull << 40) - 1))

struct doc_record {
	uint64_t doc_id;
	uint64_t warc_offset;  /* record start (gzip member start for .warc.gz) */
	uint64_t warc_length;  /* bytes of the record (of its gzip member) */
	uint64_t payload_hash; /* XXH3-64 of the HTTP body after de-chunking/decoding */
	uint64_t text_hash;    /* XXH3-64 of the main text below */
	uint32_t flags;        /* DOC_* */
	uint32_t http_status;
	struct str url;
	struct str warc_file;  /* path as given on the command line */
	struct str record_id;  /* WARC-Record-ID, with its angle brackets */
	struct str date;       /* WARC-Date as written */
	struct str title;
	struct str text;       /* main content, UTF-8, whitespace normalised */
};

/** Bytes docrec_encode() will write for @d. */
size_t docrec_size(const struct doc_record *d);

/** Encode @d at @out (docrec_size(d) bytes available). @return bytes written. */
size_t docrec_encode(const struct doc_record *d, uint8_t *out);

/**
 * Decode one record from *@in (not past @end), advancing *@in.
 * @return 0, or -1 if the bytes do not hold a whole, well-formed record.
 */
int docrec_decode(const uint8_t **in, const uint8_t *end, struct doc_record *d);

/*
 * A fingerprint record: what later stages need of a document.  The
 * provenance strings travel with it so that self-join can write the CSV
 * from this file alone (the "catalog").
 */
struct fp_record {
	uint64_t simhash;
	uint64_t doc_id;
	uint64_t warc_offset;
	uint64_t payload_hash;
	uint64_t text_hash;
	uint32_t text_len;  /* bytes of main text */
	uint32_t flags;     /* DOC_*, plus FP_* below */
	struct str url;
	struct str warc_file;
};

enum {
	FP_SHORT_TEXT = 1u << 16, /* below the minimum length: exact-text matches only */
};

/* The fixed fields before a record's two strings (fprec_skip() steps
 * over them). */
#define FPREC_FIXED_SIZE (5 * 8 + 2 * 4)
/* The encoded size of a record with empty strings: no block of N records
 * can be shorter than N times this. */
#define FPREC_MIN_SIZE (FPREC_FIXED_SIZE + 2 * 4)

size_t fprec_size(const struct fp_record *r);
size_t fprec_encode(const struct fp_record *r, uint8_t *out);
int fprec_decode(const uint8_t **in, const uint8_t *end, struct fp_record *r);
/** Step *@in over one record (not past @end) without decoding it: the
 * same checks of its shape as fprec_decode().  @return 0 or -1. */
int fprec_skip(const uint8_t **in, const uint8_t *end);

#endif
