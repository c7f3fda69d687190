/*
 * pagestore.c - see pagestore.h.
 */
#include "template/pagestore.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"

int tpl_pagestore_init(struct tpl_pagestore *s, size_t limit, const char *tmpdir)
{
	memset(s, 0, sizeof *s);
	s->limit = limit;
	s->tmpdir = tmpdir;
	s->buf = malloc(limit ? limit : 1);
	if (!s->buf)
		log_error("out of memory for %zu bytes of pages", limit);
	return s->buf ? 0 : -1;
}

static FILE *part_file(struct tpl_pagestore *s, unsigned p)
{
	if (s->part[p])
		return s->part[p];
	size_t n = strlen(s->tmpdir) + 32;
	char *path = malloc(n);
	if (!path) {
		log_error("out of memory");
		return NULL;
	}
	snprintf(path, n, "%s/ndd-template.XXXXXX", s->tmpdir);
	const int fd = mkstemp(path);
	if (fd < 0) {
		log_error("cannot create a spill file in '%s': %s", s->tmpdir, strerror(errno));
		free(path);
		return NULL;
	}
	unlink(path);
	free(path);
	s->part[p] = fdopen(fd, "w+b");
	if (!s->part[p]) {
		log_error("cannot open a spill file in '%s': %s", s->tmpdir, strerror(errno));
		close(fd);
	}
	return s->part[p];
}

int tpl_pagestore_spill(struct tpl_pagestore *s)
{
	for (size_t at = 0; at < s->len;) {
		const struct tpl_page_head *h = (const struct tpl_page_head *)(s->buf + at);
		const size_t size = tpl_page_size(h->n);
		FILE *f = part_file(s, tpl_store_part(h->host));
		if (!f)
			return -1;
		if (fwrite(h, 1, size, f) != size) {
			log_error("cannot write a spill file in '%s': %s", s->tmpdir, strerror(errno));
			return -1;
		}
		s->spilled_bytes += size;
		at += size;
	}
	s->len = 0;
	s->spilled = 1;
	return 0;
}

int tpl_pagestore_add(struct tpl_pagestore *s, const struct tpl_page_head *h,
		      const uint64_t *body)
{
	const size_t size = tpl_page_size(h->n);
	if (s->len + size > s->limit && s->len && tpl_pagestore_spill(s))
		return -1;
	if (s->len + size > s->limit) { /* one page bigger than the store: never, by the caps */
		uint8_t *b = realloc(s->buf, s->len + size);
		if (!b) {
			log_error("out of memory for a page of %llu blocks", (unsigned long long)h->n);
			return -1;
		}
		s->buf = b;
		s->limit = s->len + size;
	}
	memcpy(s->buf + s->len, h, sizeof *h);
	memcpy(s->buf + s->len + sizeof *h, body, tpl_page_words(h->n) * 8);
	s->len += size;
	return 0;
}

int64_t tpl_pagestore_part_bytes(struct tpl_pagestore *s, unsigned p)
{
	FILE *f = s->part[p];
	if (!f)
		return 0;
	if (fflush(f) || fseeko(f, 0, SEEK_END)) {
		log_error("cannot read back a spill file: %s", strerror(errno));
		return -1;
	}
	const off_t size = ftello(f);
	if (size < 0)
		log_error("cannot read back a spill file: %s", strerror(errno));
	return size < 0 ? -1 : (int64_t)size;
}

int tpl_pagestore_read_part(struct tpl_pagestore *s, unsigned p, uint8_t **buf, size_t *len,
			    size_t *cap)
{
	const int64_t size = tpl_pagestore_part_bytes(s, p);
	if (size <= 0)
		return (int)size;
	if (*len + (size_t)size > *cap) {
		uint8_t *b = realloc(*buf, *len + (size_t)size);
		if (!b) {
			log_error("out of memory for %lld bytes of spilled pages", (long long)size);
			return -1;
		}
		*buf = b;
		*cap = *len + (size_t)size;
	}
	if (fseeko(s->part[p], 0, SEEK_SET) ||
	    fread(*buf + *len, 1, (size_t)size, s->part[p]) != (size_t)size) {
		log_error("cannot read back a spill file: %s", strerror(errno));
		return -1;
	}
	*len += (size_t)size;
	return 0;
}

void tpl_pagestore_free(struct tpl_pagestore *s)
{
	for (unsigned p = 0; p < TPL_STORE_PARTS; p++)
		if (s->part[p])
			fclose(s->part[p]);
	free(s->buf);
	memset(s, 0, sizeof *s);
}
