/*
 * crawl_input.h - one input of ndd-extract as a sequence of members: a
 * WARC file is one member; an archive (tar, tar.gz/tgz and other
 * compressed tars, zip) is one member per entry that holds a WARC
 * (.warc, .warc.gz) or a loose HTML page (.html, .htm).
 *
 * What an input is comes from its first bytes, never from its name alone:
 * "PK\3\4" is a zip; "ustar" at offset 257 a tar; a gzip stream whose
 * first inflated bytes are a tar header a tar.gz; bzip2, xz and zstd
 * streams are handed to libarchive; anything else is read as WARC (plain
 * or gzip; the WARC reader judges).  Inside an archive, an entry named
 * NAME.html or NAME.htm is a page; one named NAME.warc or NAME.warc.gz, or whose bytes
 * start as WARC (plain or gzip), is a WARC; other entries (images,
 * nested archives, directories) are passed over and counted; a nested
 * archive with a warning, since its pages are lost to the night.
 *
 * Names.  A member of an archive is called "ARCHIVE!PATH" (ARCHIVE the
 * input path as given, PATH the entry's path inside it): that is the
 * warc_file of its documents, and record offsets are offsets within the
 * entry's bytes (as `tar -xO` or `unzip -p` gives them).
 *
 * Inputs need not be seekable (pipes work), except that a zip read from
 * a pipe is read in libarchive's streaming mode, which cannot read every
 * zip (entries stored with a data descriptor).
 */
#ifndef NDD_CRAWL_INPUT_H
#define NDD_CRAWL_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum crawl_kind {
	CRAWL_WARC, /* a WARC stream: read it with warc_open_read(crawl_input_read, ...) */
	CRAWL_HTML, /* a loose page: read it with crawl_input_slurp() */
};

struct crawl_member {
	enum crawl_kind kind;
	const char *name;   /* input path, or "ARCHIVE!PATH" */
	const char *path;   /* PATH inside the archive, or NULL for a plain input */
	int64_t size;       /* bytes, or -1 if unknown */
	int64_t mtime;      /* archive entries: modification time (Unix seconds), else -1 */
	int from_archive;
};

/* Counters of archive entries; bad ones are lost input (exit status 1). */
struct crawl_input_stats {
	uint64_t archives;       /* inputs that were archives */
	uint64_t members_used;   /* entries read as WARC or HTML */
	uint64_t members_other;  /* entries passed over: not WARC, not HTML */
	uint64_t members_nested; /* of those, archives inside the archive (not read; warned) */
	uint64_t bad_archive;    /* archive damage: unreadable header or entry data */
};

struct crawl_input;

/**
 * Start reading @fp (the caller keeps it and closes it after
 * crawl_input_close()).  @name: the path as given, for names and messages.
 * @return the input, or NULL on OOM or a read error (logged).
 */
struct crawl_input *crawl_input_open(FILE *fp, const char *name)
	__attribute__((warn_unused_result));

/**
 * Go to the next member (what is left of the current one is skipped).
 * @m is valid until the next call.
 * @return 1 for a member, 0 at the end, -1 on a fatal error (logged).
 * Archive damage is logged, counted, and ends the archive (0).
 */
int crawl_input_next(struct crawl_input *in, struct crawl_member *m)
	__attribute__((warn_unused_result));

/**
 * Read up to @n bytes of the current member (a warc_read_fn: @ctx is the
 * struct crawl_input).  Damage inside an archive entry is logged, counted,
 * and reads as the end of the member.  @return bytes, 0 at the end, -1 on
 * a read error (errno set).
 */
long crawl_input_read(void *ctx, void *buf, size_t n);

/**
 * Read the whole current member into *@buf (grown with realloc, *@cap its
 * size; the caller frees it), at most @max bytes: *@len gets the length.
 * @return 0, 1 if the member is bigger than @max (nothing kept), -1 on a
 * read error or OOM (logged).
 */
int crawl_input_slurp(struct crawl_input *in, size_t max, uint8_t **buf, size_t *len,
		      size_t *cap) __attribute__((warn_unused_result));

/** 1 if the input is an archive. */
int crawl_input_is_archive(const struct crawl_input *in);

/** Counters so far. */
const struct crawl_input_stats *crawl_input_stats(const struct crawl_input *in);

/** Free @in (NULL is a no-op); does not close the FILE. */
void crawl_input_close(struct crawl_input *in);

#endif
