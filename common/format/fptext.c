/*
 * fptext.c - fingerprints as text lines (see fptext.h).
 *
 * Lines are gathered byte by byte into a buffer that grows up to
 * FPTEXT_MAX_LINE and no further: getline() would hold a line of any
 * length, and a hostile or broken file (a multi-GB line with no LF) would
 * then cost its size in memory.  Lines are short (17 bytes plus a URL), so
 * the per-byte loop is not what an import waits on.
 */
#include "format/fptext.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

#define FP_DIGITS 16

struct fptext_reader {
	FILE *in;
	const char *name;
	char *buf;
	size_t cap;
	uint64_t lineno, bad;
};

static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int fptext_parse_line(const char *line, size_t len, uint64_t *fp, struct str *key)
{
	if (len && line[len - 1] == '\r')
		len--;
	if (len == 0)
		return 0;
	if (len < FP_DIGITS || (len > FP_DIGITS && line[FP_DIGITS] != ',') ||
	    len > FPTEXT_MAX_LINE)
		return -1;
	uint64_t v = 0;
	for (int i = 0; i < FP_DIGITS; i++) {
		const int h = hex_value((unsigned char)line[i]);
		if (h < 0)
			return -1;
		v = v << 4 | (uint64_t)h;
	}
	*fp = v;
	key->p = len > FP_DIGITS ? line + FP_DIGITS + 1 : "";
	key->n = len > FP_DIGITS ? (uint32_t)(len - FP_DIGITS - 1) : 0;
	return 1;
}

struct fptext_reader *fptext_open(FILE *in, const char *name)
{
	struct fptext_reader *r = calloc(1, sizeof *r);
	if (r) {
		r->cap = 4096;
		r->buf = malloc(r->cap);
	}
	if (!r || !r->buf) {
		log_error("%s: out of memory", name);
		free(r);
		return NULL;
	}
	r->in = in;
	r->name = name;
	return r;
}

/* Append @c to the line; past FPTEXT_MAX_LINE + 1 bytes (a longest line
 * and its CR) the line is too long and only counted.  @return 0, or -1 on
 * OOM (logged). */
static int put_byte(struct fptext_reader *r, size_t *len, int c)
{
	if (*len >= FPTEXT_MAX_LINE + 2) {
		(*len)++;
		return 0;
	}
	if (*len == r->cap) {
		const size_t cap = r->cap * 2 < FPTEXT_MAX_LINE + 2 ? r->cap * 2 : FPTEXT_MAX_LINE + 2;
		char *b = realloc(r->buf, cap);
		if (!b) {
			log_error("%s: out of memory for a %zu-byte line", r->name, cap);
			return -1;
		}
		r->buf = b;
		r->cap = cap;
	}
	r->buf[(*len)++] = (char)c;
	return 0;
}

/* The next line into r->buf (without its LF).  @return 1 a line (*@len
 * bytes; more than FPTEXT_MAX_LINE + 1 means it was too long and only
 * partly kept), 0 end of input, -1 read error or OOM (logged). */
static int read_line(struct fptext_reader *r, size_t *len)
{
	int c;
	*len = 0;
	while ((c = getc_unlocked(r->in)) != EOF && c != '\n')
		if (put_byte(r, len, c))
			return -1;
	if (ferror(r->in)) {
		log_error("cannot read '%s': %s", r->name, strerror(errno));
		return -1;
	}
	if (c == EOF && *len == 0)
		return 0;
	r->lineno++;
	return 1;
}

int fptext_next(struct fptext_reader *r, uint64_t *fp, struct str *key)
{
	for (;;) {
		size_t len;
		const int rc = read_line(r, &len);
		if (rc <= 0)
			return rc;
		const int p = len > FPTEXT_MAX_LINE + 1 ? -1 : fptext_parse_line(r->buf, len, fp, key);
		if (p == 1)
			return 1;
		if (p < 0) {
			log_warn("%s:%llu: not a fingerprint line (16 hex digits [,key], "
				 "at most %u bytes); skipped",
				 r->name, (unsigned long long)r->lineno, FPTEXT_MAX_LINE);
			r->bad++;
		}
	}
}

uint64_t fptext_bad(const struct fptext_reader *r)
{
	return r->bad;
}

void fptext_close(struct fptext_reader *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r);
}
