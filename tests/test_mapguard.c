/*
 * test_mapguard.c - a mapped file that fails under the reader ends the run
 * with an error naming the file and exit status 2, not a crash: a raw
 * mapping registered with mapguard_add(), and an NDF catalog read in
 * place (ndf_reader_map()) whose file is cut short while it is read.  A
 * SIGBUS outside any registered mapping (or after mapguard_remove())
 * keeps its default action.  Each case runs in a child process.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/log.h"
#include "util/mapguard.h"
#include "format/ndf.h"
#include "testutil.h"

#define PAGE 4096

static char g_dir[] = "/tmp/test_mapguard.XXXXXX";

/* A file of @pages pages of @name in g_dir, opened read-write. */
static int make_file(const char *name, size_t pages, char *path, size_t cap)
{
	snprintf(path, cap, "%s/%s", g_dir, name);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	CHECK(ftruncate(fd, (off_t)(pages * PAGE)) == 0);
	return fd;
}

/* Run @fn in a child with stderr sent to @err_path; @return its wait status. */
static int in_child(void (*fn)(void), const char *err_path)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(99);
		fn();
		_exit(0); /* the fault did not happen */
	}
	int status = -1;
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	return status;
}

/* The first KB of the file at @path, NUL-terminated, into @buf. */
static const char *slurp(const char *path, char buf[static 1024])
{
	size_t n = 0;
	FILE *fp = fopen(path, "r");
	if (fp) {
		n = fread(buf, 1, 1023, fp);
		fclose(fp);
	}
	buf[n] = '\0';
	return buf;
}

static int file_has(const char *path, const char *needle)
{
	char buf[1024];
	return strstr(slurp(path, buf), needle) != NULL;
}

/* The number after @prefix in the file at @path, or 0. */
static unsigned long offset_in(const char *path, const char *prefix)
{
	char buf[1024];
	const char *p = strstr(slurp(path, buf), prefix);
	return p ? strtoul(p + strlen(prefix), NULL, 10) : 0;
}

/* Map a new file of @pages pages named @name (watched if @watch); its
 * descriptor goes to *@fd.  Exits 98 if that fails. */
static volatile const char *map_new(const char *name, size_t pages, int watch, int *fd)
{
	char path[256];
	*fd = make_file(name, pages, path, sizeof path);
	const void *p = mmap(NULL, pages * PAGE, PROT_READ, MAP_SHARED, *fd, 0);
	if (p == MAP_FAILED || (watch && mapguard_add(p, pages * PAGE, path)))
		_exit(98);
	return p;
}

/* Cut the file of @fd to @len bytes, then read @p[@at], past the end. */
static void cut_and_touch(int fd, size_t len, volatile const char *p, size_t at)
{
	if (ftruncate(fd, (off_t)len))
		_exit(97);
	(void)p[at];
}

/* Map three pages, watch them, cut the file to one, touch the third. */
static void raw_cut_short(void)
{
	int fd;
	volatile const char *p = map_new("raw.bin", 3, 1, &fd);
	cut_and_touch(fd, PAGE, p, 2 * PAGE + 5);
}

/* The same, watching only another mapping: the fault is not ours. */
static void raw_unwatched(void)
{
	int fd, fo;
	volatile const char *p = map_new("plain.bin", 3, 0, &fd);
	(void)map_new("other.bin", 1, 1, &fo);
	cut_and_touch(fd, PAGE, p, 2 * PAGE);
}

/* Watched, then no longer watched. */
static void raw_removed(void)
{
	int fd;
	volatile const char *p = map_new("removed.bin", 2, 1, &fd);
	mapguard_remove((const void *)p);
	cut_and_touch(fd, 0, p, PAGE);
}

/* An NDF section of 400 blocks of 1000 bytes read in place; the file is
 * cut to ten pages after the header has been read.  (Cut inside a page,
 * the rest of that page reads as zeros: a checksum error, as it should.) */
static void ndf_cut_short(void)
{
	char path[256];
	snprintf(path, sizeof path, "%s/catalog.ndf", g_dir);
	FILE *fp = fopen(path, "w+b");
	struct ndf_header h;
	memset(&h, 0, sizeof h);
	h.kind = NDF_KIND_FPS;
	h.simhash_bits = 64;
	struct ndf_writer *w = fp ? ndf_writer_open(fp, path, &h) : NULL;
	uint8_t buf[1000];
	memset(buf, 0x5a, sizeof buf);
	for (unsigned b = 0; w && b < 400; b++)
		if (ndf_write_block(w, 1, NDF_CODEC_RAW, b, buf, sizeof buf))
			_exit(96);
	if (!w || ndf_writer_finish(w) || fflush(fp) || fseek(fp, 0, SEEK_SET))
		_exit(95);
	int err;
	struct ndf_reader *r = ndf_reader_open(fp, path, &err);
	if (!r || ndf_reader_map(r))
		_exit(94);
	if (ftruncate(fileno(fp), 10 * PAGE))
		_exit(93);
	struct ndf_block b = {0};
	while (ndf_read_block(r, &b) > 0)
		;
}

int main(void)
{
	log_init("test_mapguard");
	CHECK(mkdtemp(g_dir) != NULL);
	char err[300];
	snprintf(err, sizeof err, "%s/stderr", g_dir);

	int st = in_child(raw_cut_short, err);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	CHECK(file_has(err, "test_mapguard: error: '/tmp/test_mapguard."));
	CHECK(file_has(err, "raw.bin': offset 8197: the mapped file could not be read"));

	st = in_child(raw_unwatched, err);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS);

	st = in_child(raw_removed, err);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS);

	st = in_child(ndf_cut_short, err);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	/* the first missing byte the reader touches: in the first page gone */
	const unsigned long at = offset_in(err, "catalog.ndf': offset ");
	CHECK(at >= 10 * PAGE && at < 11 * PAGE);
	CHECK(file_has(err, ": the mapped file could not be read"));

	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
	CHECK(system(cmd) == 0);
	return test_finish("test_mapguard");
}
