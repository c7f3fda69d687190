/*
 * fptext.h - the text form of fingerprints computed elsewhere, which
 * ndd-fingerprint --import-text reads (docs/FORMATS.md, "Text
 * interchange"): one fingerprint a line, 16 hex digits (either case),
 * optionally followed by ",KEY"; the key is any bytes but LF and stands in
 * for the document's URL.  A CR before the LF is dropped; blank lines are
 * skipped.
 */
#ifndef NDD_FPTEXT_H
#define NDD_FPTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "format/docrec.h"

/* The longest line taken (16 digits, ',' and the key; the CR and LF not
 * counted).  A longer line is skipped as bad without being held in
 * memory, so a file with no newline cannot exhaust it. */
#define FPTEXT_MAX_LINE (1u << 20)

/**
 * Parse one line (@len bytes at @line, without its LF; a trailing CR is
 * ignored).  On success *@fp is the fingerprint and *@key points into
 * @line (length 0 when there is none).
 * @return 1 parsed, 0 blank (nothing on the line), -1 not a fingerprint
 * line.  Nothing is logged.
 */
int fptext_parse_line(const char *line, size_t len, uint64_t *fp, struct str *key)
	__attribute__((warn_unused_result));

struct fptext_reader;

/**
 * Read lines from @in (not closed by fptext_close(); @name is used in
 * messages and must outlive the reader).
 * @return the reader, or NULL on OOM (logged).
 */
struct fptext_reader *fptext_open(FILE *in, const char *name);

/**
 * The next fingerprint.  Bad lines are warned ("NAME:LINE: ...") and
 * counted (fptext_bad()), then skipped; blank lines are skipped silently.
 * *@key points into the reader's buffer and stays valid until the next call.
 * @return 1 a fingerprint, 0 end of input, -1 read error (logged).
 */
int fptext_next(struct fptext_reader *r, uint64_t *fp, struct str *key)
	__attribute__((warn_unused_result));

/** Bad lines skipped so far. */
uint64_t fptext_bad(const struct fptext_reader *r);

/** Free @r (NULL is a no-op); the FILE stays open. */
void fptext_close(struct fptext_reader *r);

#endif
