/*
 * bulkwrite.c - see bulkwrite.h.
 */
#include "util/bulkwrite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"

/* Direct I/O wants the buffer, the file offset and the length aligned to
 * the device's logical block (512 or 4096 bytes); 4096 serves both. */
#define ALIGN 4096u
/* Big enough that a write is mostly the device's time, not the call's. */
#define STAGE ((size_t)8 << 20)

struct bulk_writer {
	int fd;
	int direct;          /* O_DIRECT still set on fd */
	const char *display;
	unsigned char *buf;  /* STAGE bytes, ALIGN-aligned */
	size_t len;          /* staged */
	uint64_t off;        /* file offset of buf[0] */
};

struct bulk_writer *bulk_open(const char *path, const char *display)
{
#ifdef O_DIRECT
	int fd = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct bulk_writer *b = calloc(1, sizeof *b);
	void *buf = NULL;
	if (!b || posix_memalign(&buf, ALIGN, STAGE)) {
		free(b);
		close(fd);
		return NULL;
	}
	b->fd = fd;
	b->direct = 1;
	b->display = display;
	b->buf = buf;
	return b;
#else
	(void)path;
	(void)display;
	return NULL;
#endif
}

/* Some filesystems accept O_DIRECT at open and refuse the write itself:
 * then the rest goes through the cache, as it would have anyway. */
static int drop_direct(struct bulk_writer *b)
{
	int fl = fcntl(b->fd, F_GETFL);
	b->direct = 0;
	return fl < 0 ? -1 : fcntl(b->fd, F_SETFL, fl & ~O_DIRECT);
}

static int put(struct bulk_writer *b, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = pwrite(b->fd, p, n, (off_t)b->off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EINVAL && b->direct && !drop_direct(b))
			continue;
		if (w <= 0) {
			log_error("cannot write '%s' at offset %llu: %s", b->display,
				  (unsigned long long)b->off, w < 0 ? strerror(errno) : "no space");
			return -1;
		}
		p += w;
		n -= (size_t)w;
		b->off += (uint64_t)w;
	}
	return 0;
}

int bulk_write(struct bulk_writer *b, const void *p, size_t n)
{
	const unsigned char *s = p;
	while (n) {
		size_t m = STAGE - b->len < n ? STAGE - b->len : n;
		memcpy(b->buf + b->len, s, m);
		b->len += m;
		s += m;
		n -= m;
		if (b->len == STAGE) {
			/* a short direct write would leave the offset unaligned: put()
			 * only returns once all of it is written, or fails */
			if (put(b, b->buf, STAGE))
				return -1;
			b->len = 0;
		}
	}
	return 0;
}

int bulk_finish(struct bulk_writer *b)
{
	const size_t whole = b->len & ~(size_t)(ALIGN - 1);
	int rc = put(b, b->buf, whole);
	if (!rc && b->len > whole) {
		if (b->direct && drop_direct(b)) {
			log_error("cannot write '%s': %s", b->display, strerror(errno));
			rc = -1;
		} else {
			rc = put(b, b->buf + whole, b->len - whole);
		}
	}
	if (close(b->fd) && !rc) {
		log_error("cannot write '%s': %s", b->display, strerror(errno));
		rc = -1;
	}
	b->fd = -1;
	bulk_abort(b);
	return rc;
}

void bulk_abort(struct bulk_writer *b)
{
	if (!b)
		return;
	if (b->fd >= 0)
		close(b->fd);
	free(b->buf);
	free(b);
}
