/*
 * teein.c - see teein.h.
 */
#include "util/teein.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/infile.h"
#include "util/log.h"
#include "util/spillout.h"

/* Reads from a 1 MB pipe (infile_widen_pipe) take what it holds at once. */
#define TEEIN_BUF (1u << 20)

struct teein {
	int fd;
	FILE *fp;
	char *buf; /* where teein_finish() drains to */
	struct spillout copy;
	int failed; /* a write of the copy failed: reads report an error */
	int read_error;
};

static ssize_t teein_read(void *cookie, char *p, size_t n)
{
	struct teein *t = cookie;
	if (t->failed)
		return -1;
	ssize_t got;
	do
		got = read(t->fd, p, n);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		t->read_error = errno;
		return -1;
	}
	if (got > 0) {
		if (spillout_write(&t->copy, p, (size_t)got)) {
			t->failed = 1;
			errno = EIO;
			return -1;
		}
	}
	return got;
}

struct teein *teein_open(FILE *in, const char *copy_path, const char *mem_path,
			 uint64_t mem_max)
{
	struct teein *t = calloc(1, sizeof *t);
	if (!t || !(t->buf = malloc(TEEIN_BUF))) {
		free(t);
		log_error("out of memory");
		return NULL;
	}
	t->fd = fileno(in);
	infile_widen_pipe(in);
	/* scratch, like tee's file: the disk takes it when the kernel sees
	 * fit, not while the next stage waits */
	if (spillout_open(&t->copy, mem_path, mem_max, copy_path, 1)) {
		free(t->buf);
		free(t);
		return NULL;
	}
	static const cookie_io_functions_t io = {.read = teein_read};
	t->fp = fopencookie(t, "rb", io);
	if (!t->fp || setvbuf(t->fp, NULL, _IOFBF, TEEIN_BUF)) {
		log_error("cannot read through a copy: %s", strerror(errno));
		if (t->fp)
			fclose(t->fp);
		spillout_abort(&t->copy);
		free(t->buf);
		free(t);
		return NULL;
	}
	return t;
}

FILE *teein_file(struct teein *t)
{
	return t->fp;
}

int teein_finish(struct teein *t)
{
	/* the bytes already in the FILE's buffer were copied when read; a
	 * short fread is the end of the input or an error, both noted */
	while (!t->failed && !t->read_error && fread_unlocked(t->buf, 1, TEEIN_BUF, t->fp) > 0)
		;
	int rc = 0;
	if (t->read_error) {
		log_error("cannot read standard input: %s", strerror(t->read_error));
		rc = -1;
	}
	if (t->failed)
		rc = -1; /* spillout_write logged it */
	fclose(t->fp);
	if (rc)
		spillout_abort(&t->copy);
	else
		rc = spillout_commit(&t->copy);
	free(t->buf);
	free(t);
	return rc;
}
