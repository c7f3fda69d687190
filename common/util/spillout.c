/*
 * spillout.c - see spillout.h.
 *
 * The memory file is written with write(2), not through stdio, so that
 * a tmpfs that fills up leaves an exact count of the bytes it holds: the
 * move copies those, and the bytes it refused go after them on disk.
 * The move reads the memory file back rather than keeping a second copy
 * anywhere: until it, the output costs its bytes once.
 */
#define _POSIX_C_SOURCE 200809L
#include "util/spillout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"

#define MOVE_BUF (1u << 20)

static int disk_open(struct spillout *s)
{
	if (outfile_open(&s->disk, s->disk_path))
		return -1;
	s->disk.scratch = s->scratch;
	return 0;
}

int spillout_open(struct spillout *s, const char *mem_path, uint64_t budget,
		  const char *disk_path, int scratch)
{
	memset(s, 0, sizeof *s);
	s->budget = budget;
	s->scratch = scratch;
	if (!(s->disk_path = strdup(disk_path))) {
		log_error("cannot open '%s': out of memory", disk_path);
		return -1;
	}
	if (mem_path && budget > 0) {
		if (outfile_open(&s->mem, mem_path) == 0 && s->mem.tmp_path) {
			s->mem.scratch = 1;
			s->in_mem = 1;
			return 0;
		}
		/* a device, standard output or nothing at all: not memory */
		outfile_abort(&s->mem);
		log_info("'%s' cannot hold the output: writing '%s'", mem_path, disk_path);
	}
	if (disk_open(s)) {
		free(s->disk_path);
		s->disk_path = NULL;
		return -1;
	}
	return 0;
}

/* The bytes held in memory go to the disk file, and the memory file goes. */
static int move_to_disk(struct spillout *s)
{
	log_info("'%s' passed its memory (%llu bytes): moving it to '%s'", s->mem.path,
		 (unsigned long long)s->held, s->disk_path);
	/* outfile.h opened it write-only */
	const int fd = open(s->mem.tmp_path, O_RDONLY | O_CLOEXEC);
	char *buf = malloc(MOVE_BUF);
	int rc = buf && fd >= 0 && !disk_open(s) ? 0 : -1;
	if (!buf)
		log_error("cannot move '%s': out of memory", s->mem.path);
	else if (fd < 0)
		log_error("cannot read back '%s': %s", s->mem.tmp_path, strerror(errno));
	for (uint64_t at = 0; !rc && at < s->held;) {
		const size_t want = s->held - at < MOVE_BUF ? (size_t)(s->held - at) : MOVE_BUF;
		const ssize_t got = pread(fd, buf, want, (off_t)at);
		if (got <= 0) {
			if (got < 0 && errno == EINTR)
				continue;
			log_error("cannot read back '%s': %s", s->mem.tmp_path,
				  got ? strerror(errno) : "cut short");
			rc = -1;
		} else {
			rc = outfile_write(&s->disk, buf, (size_t)got);
			at += (uint64_t)got;
		}
	}
	free(buf);
	if (fd >= 0)
		close(fd);
	outfile_abort(&s->mem);
	s->in_mem = 0;
	return rc;
}

/* Write into the memory file what it takes: @return the bytes written,
 * fewer than @n when the tmpfs is full or failed (the rest then goes to
 * disk: the memory part is never a reason to fail). */
static size_t mem_write(struct spillout *s, const char *p, size_t n)
{
	const int fd = fileno(s->mem.fp);
	size_t done = 0;
	while (done < n) {
		const ssize_t w = write(fd, p + done, n - done);
		if (w > 0) {
			done += (size_t)w;
		} else if (w < 0 && errno == EINTR) {
			continue;
		} else {
			log_info("'%s' takes no more: %s", s->mem.tmp_path,
				 w ? strerror(errno) : "no progress");
			break;
		}
	}
	return done;
}

int spillout_write(struct spillout *s, const void *p, size_t n)
{
	if (s->in_mem && s->held + n <= s->budget) {
		const size_t w = mem_write(s, p, n);
		s->held += w;
		if (w == n)
			return 0;
		p = (const char *)p + w;
		n -= w;
	}
	if (s->in_mem && move_to_disk(s))
		return -1;
	return outfile_write(&s->disk, p, n);
}

int spillout_commit(struct spillout *s)
{
	const int rc = s->in_mem ? outfile_commit(&s->mem) : outfile_commit(&s->disk);
	s->in_mem = 0;
	free(s->disk_path);
	s->disk_path = NULL;
	return rc;
}

void spillout_abort(struct spillout *s)
{
	outfile_abort(&s->mem);
	outfile_abort(&s->disk);
	s->in_mem = 0;
	free(s->disk_path);
	s->disk_path = NULL;
}
