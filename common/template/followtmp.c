/*
 * followtmp.c - see followtmp.h.
 */
#include "template/followtmp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/grow.h"
#include "util/log.h"

static FILE *temp_file(const char *dir)
{
	const size_t n = strlen(dir) + 32;
	char *path = malloc(n);
	if (!path)
		return NULL;
	snprintf(path, n, "%s/ndd-follow.XXXXXX", dir);
	const int fd = mkstemp(path);
	FILE *fp = NULL;
	if (fd >= 0) {
		unlink(path); /* gone with the process, however it ends */
		fp = fdopen(fd, "w+b");
		if (!fp)
			close(fd);
	}
	if (!fp)
		log_error("cannot create a temporary file in '%s': %s", dir, strerror(errno));
	free(path);
	return fp;
}

static int write_error(const char *dir)
{
	log_error("cannot write a temporary file in '%s': %s", dir, strerror(errno));
	return -1;
}

/* ---- slots ---- */

int fslots_open(struct fslots *s, const char *dir)
{
	memset(s, 0, sizeof *s);
	s->dir = dir;
	s->fp = temp_file(dir);
	return s->fp ? 0 : -1;
}

/* The slot of @r in s->buf.  @return its size, or 0 if memory ran out. */
static size_t encode(struct fslots *s, const struct fp_record *r, int choice)
{
	const size_t need = 5 + fprec_size(r);
	if (array_grow((void **)&s->buf, &s->cap, need, 1)) {
		log_error("out of memory");
		return 0;
	}
	const size_t n = fprec_encode(r, s->buf + 5);
	for (int k = 0; k < 4; k++)
		s->buf[k] = (uint8_t)(n >> (8 * k));
	s->buf[4] = (uint8_t)choice;
	return n + 5;
}

int fslots_append(struct fslots *s, const struct fp_record *r, int choice, uint64_t *at)
{
	const size_t n = encode(s, r, choice);
	if (!n)
		return -1;
	if (fwrite(s->buf, 1, n, s->fp) != n)
		return write_error(s->dir);
	*at = s->len;
	s->len += n;
	return 0;
}

int fslots_flush(struct fslots *s)
{
	return fflush(s->fp) ? write_error(s->dir) : 0;
}

int fslots_put(struct fslots *s, uint64_t at, const struct fp_record *r, int choice)
{
	const size_t n = encode(s, r, choice);
	if (!n)
		return -1;
	if (pwrite(fileno(s->fp), s->buf, n, (off_t)at) != (ssize_t)n)
		return write_error(s->dir);
	return 0;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int k = 7; k >= 0; k--)
		v = v << 8 | p[k];
	return v;
}

int fslots_result(const struct fslots *s, uint64_t at, struct tplfp_result *was)
{
	uint8_t b[5 + FPREC_FIXED_SIZE]; /* the fixed fields: fprec_encode()'s order */
	if (pread(fileno(s->fp), b, sizeof b, (off_t)at) != (ssize_t)sizeof b) {
		log_error("cannot read a temporary file back in '%s'", s->dir);
		return -1;
	}
	was->choice = b[4];
	was->fp = get64(b + 5);
	was->text_hash = get64(b + 5 + 32);
	was->text_len = (uint32_t)get64(b + 5 + 48);
	was->flags = (uint32_t)(get64(b + 5 + 48) >> 32);
	return 0;
}

int fslots_emit(struct fslots *s, fslots_fn fn, void *ctx)
{
	if (!s->len)
		return 0;
	if (fslots_flush(s))
		return -1;
	uint8_t *m = mmap(NULL, s->len, PROT_READ, MAP_PRIVATE, fileno(s->fp), 0);
	if (m == MAP_FAILED) {
		log_error("cannot map a temporary file in '%s': %s", s->dir, strerror(errno));
		return -1;
	}
	madvise(m, s->len, MADV_SEQUENTIAL);
	int rc = 0;
	for (uint64_t at = 0; at < s->len && !rc;) {
		const uint32_t n = (uint32_t)m[at] | (uint32_t)m[at + 1] << 8 |
				   (uint32_t)m[at + 2] << 16 | (uint32_t)m[at + 3] << 24;
		const uint8_t *q = m + at + 5;
		struct fp_record r;
		if (at + 5 + n > s->len || fprec_decode(&q, m + at + 5 + n, &r)) {
			log_error("a temporary file in '%s' is damaged", s->dir);
			rc = -1;
			break;
		}
		rc = fn(ctx, &r, m[at + 4]);
		at += 5 + (uint64_t)n;
	}
	munmap(m, s->len);
	return rc;
}

void fslots_close(struct fslots *s)
{
	if (s->fp)
		fclose(s->fp);
	free(s->buf);
	memset(s, 0, sizeof *s);
}

/* ---- check ---- */

int fcheck_open(struct fcheck *c, const char *dir)
{
	c->dir = dir;
	c->fp = temp_file(dir);
	return c->fp ? 0 : -1;
}

/*
 * A block whose low bits alone match a template's has its page done
 * again for nothing: about one page in 70 at 50,000 template blocks and
 * 50 blocks a page.
 */
int fcheck_add(struct fcheck *c, uint64_t off, uint64_t slot, uint32_t len, const uint64_t *hash,
	       uint32_t n, uint32_t n_core)
{
	uint32_t rec[7 + 64];
	memcpy(rec, &off, 8);
	memcpy(rec + 2, &slot, 8);
	rec[4] = len;
	rec[5] = n;
	rec[6] = n_core;
	size_t k = 7;
	for (uint32_t i = 0; i < n + n_core; i++) {
		rec[k++] = (uint32_t)hash[i];
		if (k == sizeof rec / sizeof *rec) {
			if (fwrite(rec, 4, k, c->fp) != k)
				return write_error(c->dir);
			k = 0;
		}
	}
	if (k && fwrite(rec, 4, k, c->fp) != k)
		return write_error(c->dir);
	return 0;
}

/* Whether one of the @n at @h is in @low. */
static int any_in(const uint32_t *h, size_t n, const struct blockset *low)
{
	for (size_t k = 0; k < n; k++)
		if (blockset_has(low, h[k]))
			return 1;
	return 0;
}

int fcheck_scan(struct fcheck *c, const struct blockset *low, const struct blockset *low_core,
		fcheck_fn fn, void *ctx)
{
	uint32_t *h = NULL, head[7];
	size_t cap = 0;
	int bad = fflush(c->fp) || fseeko(c->fp, 0, SEEK_SET), rc = 0;
	while (!bad && !rc && fread(head, 4, 7, c->fp) == 7) {
		const size_t n = (size_t)head[5] + head[6];
		if (n && (array_grow((void **)&h, &cap, n, 4) || fread(h, 4, n, c->fp) != n)) {
			bad = 1;
			break;
		}
		if (!any_in(h, head[5], low) && !any_in(h + head[5], head[6], low_core))
			continue;
		uint64_t off, slot;
		memcpy(&off, head, 8);
		memcpy(&slot, head + 2, 8);
		rc = fn(ctx, off, slot, head[4]);
	}
	if (bad || ferror(c->fp)) {
		log_error("cannot read a temporary file back in '%s'", c->dir);
		rc = -1;
	}
	free(h);
	return rc;
}

void fcheck_close(struct fcheck *c)
{
	if (c->fp)
		fclose(c->fp);
	memset(c, 0, sizeof *c);
}
