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
	/* Set by ndd-fingerprint --templates (never in a documents file): */
	DOC_FALLBACK_TEXT = 1u << 5, /* nothing confidently content: all non-template text */
	DOC_NO_CONTENT = 1u << 6,    /* no text outside the template: fingerprint of the payload */
};

/*
 * Record layout of NDF_KIND_DOCS, in the section header's aux field.  A
 * reader refuses other layouts: 1 (aux 0) had no blocks, 2 stored the
 * main text beside all_text and 13-byte blocks with their hashes, 3 had
 * five block flags (no DB_POINTER).
 */
#define DOCREC_VERSION 4

struct ndf_header;

/** Whether @h (a section of @name) holds documents of DOCREC_VERSION;
 * if not (another kind, another layout), logs why and @return -1. */
int docrec_check_header(const struct ndf_header *h, const char *name);

/*
 * A text block of a page (html_text.h cut it): what the template pass
 * and the main text need.  On disk a block is one unsigned LEB128 varint,
 * len << DB_FLAG_BITS | flags (1 to DOCBLOCK_MAX_SIZE bytes); block i's
 * text is the i-th '\n'-separated piece of the record's all_text, and its
 * hash is computed from that text when the blocks are decoded
 * (docrec_blocks()), not stored.
 */
#define DOCBLOCK_MAX_SIZE 5
#define DB_FLAG_BITS 6
enum {
	DB_CONTENT = 1 << 0, /* the page model kept it: part of the main text */
	DB_SOFT = 1 << 1,    /* inside a class/id/role-marked chrome element */
	DB_MAIN = 1 << 2,    /* inside <main>, <article> or role=main */
	DB_HEADING = 1 << 3, /* inside h1..h6 */
	DB_FORM = 1 << 4,    /* inside a <form> */
	DB_POINTER = 1 << 5,   /* a link with text beside it: a row pointing elsewhere */
	DB_KNOWN = 0x3f,     /* every bit of the DB_FLAG_BITS */
};
/* A block's text is at most this long (the varint stays within 32 bits). */
#define DOCBLOCK_MAX_LEN ((1u << (32 - DB_FLAG_BITS)) - 1)
struct doc_block {
	uint64_t hash; /* XXH3-64 (seed 0) of the block's text */
	uint32_t off;  /* where its text starts in all_text */
	uint32_t len;  /* bytes of text, > 0 */
	uint8_t flags; /* DB_* */
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
	/* Main content, UTF-8, whitespace normalised: its content blocks
	 * '\n'-joined.  Set by the extractor (webdoc.h); not stored, so
	 * docrec_decode() leaves it empty: docrec_text() makes it. */
	struct str text;
	struct str all_text;   /* every block's text in document order, '\n'-joined */
	struct str blocks;     /* the blocks of all_text, encoded (docblock_encode()) */
	uint32_t n_blocks;     /* blocks in @blocks */
};

/** Blocks in @d. */
static inline uint32_t docrec_n_blocks(const struct doc_record *d)
{
	return d->n_blocks;
}

/** Write a block of @len bytes of text (1..DOCBLOCK_MAX_LEN) and @flags
 * (DB_*) at @out (DOCBLOCK_MAX_SIZE bytes room).  @return the byte after it.
 * Inline: ndd-extract writes one for every block of every page. */
static inline uint8_t *docblock_encode(uint8_t *out, uint32_t len, unsigned flags)
{
	uint32_t v = len << DB_FLAG_BITS | (flags & DB_KNOWN);
	while (v >= 0x80) {
		*out++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*out++ = (uint8_t)v;
	return out;
}

/**
 * Decode the blocks of @d (a record docrec_decode() accepted, or one
 * whose blocks and all_text agree) into @out[0 .. n_blocks), hashes
 * included.
 */
void docrec_blocks(const struct doc_record *d, struct doc_block *out);

/** docrec_blocks(), but the blocks with any of the flags @skip (DB_*)
 * get hash 0: a reader that needs the hashes of only some blocks does
 * not hash the text of the others. */
void docrec_blocks_unhashed(const struct doc_record *d, struct doc_block *out, unsigned skip);

/**
 * The main text of @d: its DB_CONTENT blocks in order, '\n'-joined.  A
 * single run of adjacent content blocks is a slice of all_text; otherwise
 * the text is joined in *@buf (*@cap bytes, grown as needed: the caller
 * frees it).  *@text gets it, valid while @d's bytes and *@buf are.
 * @return 0, or -1 if memory ran out.
 */
int docrec_text(const struct doc_record *d, char **buf, size_t *cap, struct str *text);

/** Bytes docrec_encode() will write for @d (d->text is not written). */
size_t docrec_size(const struct doc_record *d);

/** Encode @d at @out (docrec_size(d) bytes available). @return bytes written. */
size_t docrec_encode(const struct doc_record *d, uint8_t *out);

/**
 * Decode one record from *@in (not past @end), advancing *@in; d->text
 * is left empty (docrec_text()).
 * @return 0, or -1 if the bytes do not hold a whole, well-formed record
 * (its blocks too: shortest varints, lengths > 0 that cut all_text exactly).
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
	/* The page's frame, the blocks outside its main text (its template
	 * and chrome), as 64 bits of minwise hashing of their hashes: pages on
	 * one template lie a few bits apart (template/frame.h); 0 for no
	 * block outside the text.  Meaningless under FP_NO_FRAME. */
	uint64_t frame;
	uint32_t text_len;  /* bytes of main text */
	uint32_t flags;     /* DOC_*, plus FP_* below */
	struct str url;
	struct str warc_file;
	struct str record_id; /* WARC-Record-ID, with its angle brackets; may be empty */
	struct str date;      /* WARC-Date as written; may be empty */
};

/*
 * Record layout of NDF_KIND_FPS, in the section header's aux field.  The
 * writers write FPREC_VERSION; the catalog readers also read the layouts
 * an earlier night's index may hold (fprec_layout_readable()): 2, without
 * the frame, and 0, without the frame, record_id and date.  Such records
 * decode with FP_NO_FRAME set and the missing strings empty, so a night
 * kept before an upgrade is still looked up and clustered.
 */
#define FPREC_VERSION 3

/*
 * The writers of NDF_KIND_FPS write their blocks with codec 4
 * (ndf_deflate.h) at this libdeflate level: a night's fingerprints are
 * kept in the index of nights, and their strings (URL, WARC file, record
 * id, date) are most of a record.  The realcrawl's 76,654 records: 243
 * bytes a page raw, 73 at level 1, 72.5 at 6 (docs/FORMATS.md).
 */
#define FPREC_DEFLATE_LEVEL 1

enum {
	FP_SHORT_TEXT = 1u << 16, /* below the minimum length: exact-text matches only */
	FP_NO_FRAME = 1u << 17,   /* no frame known (--import-text): frame is 0 */
};

/* The fixed fields before a record's four strings (fprec_skip() steps
 * over them). */
#define FPREC_FIXED_SIZE (6 * 8 + 2 * 4)
/* The encoded size of a record with empty strings: no block of N records
 * can be shorter than N times this. */
#define FPREC_MIN_SIZE (FPREC_FIXED_SIZE + 4 * 4)

size_t fprec_size(const struct fp_record *r);
size_t fprec_encode(const struct fp_record *r, uint8_t *out);
int fprec_decode(const uint8_t **in, const uint8_t *end, struct fp_record *r);
/** Step *@in over one record (not past @end) without decoding it: the
 * same checks of its shape as fprec_decode().  @return 0 or -1. */
int fprec_skip(const uint8_t **in, const uint8_t *end);

/** Whether a catalog reader takes records of layout @aux (0, 2 or 3). */
int fprec_layout_readable(uint64_t aux);
/** The encoded size of a record of layout @layout with empty strings. */
size_t fprec_min_size(unsigned layout);
/** fprec_decode() and fprec_skip() for a readable @layout. */
int fprec_decode_layout(const uint8_t **in, const uint8_t *end, struct fp_record *r,
			unsigned layout);
int fprec_skip_layout(const uint8_t **in, const uint8_t *end, unsigned layout);

#endif
