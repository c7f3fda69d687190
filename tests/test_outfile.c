/*
 * test_outfile.c - atomic outputs: the final name appears only on commit,
 * an abort or a SIGTERM leaves nothing behind; bulk (direct I/O) outputs
 * hold exactly the bytes written, whatever the sizes of the pieces and
 * whether or not the filesystem takes O_DIRECT.  And inputs (infile.h):
 * "-" is stdin, a missing file is an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/infile.h"
#include "util/log.h"
#include "util/outfile.h"
#include "testutil.h"

static int exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

static int dir_entries(const char *dir)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "ls -A %s | wc -l", dir);
	FILE *fp = popen(cmd, "r");
	int n = -1;
	if (fp && fscanf(fp, "%d", &n) != 1)
		n = -1;
	if (fp)
		pclose(fp);
	return n;
}

/* Pieces around the 4 KB alignment and the 8 MB staging buffer. */
static const size_t piece[] = {1, 4095, 4097, 4096, (8u << 20) + 3, 0, 77, (8u << 20) - 4200,
			       12288, 5, 3u << 20};

/* @total bytes in pieces[0..n) through a bulk outfile in @dir, read back. */
static void check_bulk(const char *dir, size_t n, int commit)
{
	char path[160];
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += piece[i];
	unsigned char *data = malloc(total + 1), *back = malloc(total + 1);
	uint64_t st = 42 + n;
	for (size_t i = 0; i < total; i++)
		data[i] = (unsigned char)test_rand(&st);
	snprintf(path, sizeof path, "%s/bulk.csv", dir);
	struct outfile o;
	CHECK(outfile_open_bulk(&o, path) == 0);
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		CHECK(outfile_write(&o, data + at, piece[i]) == 0);
		at += piece[i];
	}
	if (!commit) {
		outfile_abort(&o);
		CHECK(dir_entries(dir) == 0);
	} else {
		CHECK(outfile_commit(&o) == 0);
		FILE *fp = fopen(path, "rb");
		CHECK(fp && fread(back, 1, total + 1, fp) == total);
		CHECK(total == 0 || memcmp(data, back, total) == 0);
		if (fp)
			fclose(fp);
		unlink(path);
	}
	free(data);
	free(back);
}

static void test_bulk(const char *base)
{
	char dir[128];
	snprintf(dir, sizeof dir, "%s/test_bulk_XXXXXX", base);
	if (!mkdtemp(dir))
		return; /* no such filesystem here */
	const size_t all = sizeof piece / sizeof piece[0];
	for (size_t n = 0; n <= all; n++)
		check_bulk(dir, n, 1);
	check_bulk(dir, all, 0);
	rmdir(dir);
}

int main(void)
{
	char dir[] = "/tmp/test_cli_XXXXXX", path[128];
	struct outfile o;
	log_set_level(LOG_SILENT);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/out.csv", dir);

	CHECK(outfile_open(&o, path) == 0);
	fputs("hello\n", o.fp);
	CHECK(!exists(path) && exists(o.tmp_path));
	CHECK(outfile_commit(&o) == 0);
	CHECK(exists(path) && dir_entries(dir) == 1);
	unlink(path);

	CHECK(outfile_open(&o, path) == 0);
	fputs("half", o.fp);
	outfile_abort(&o);
	outfile_abort(&o); /* twice is harmless */
	CHECK(dir_entries(dir) == 0);

	/* Killed while writing: the temporary file is removed. */
	pid_t pid = fork();
	if (pid == 0) {
		struct outfile k;
		if (outfile_open(&k, path))
			_exit(3);
		fputs("partial", k.fp);
		fflush(k.fp);
		raise(SIGTERM);
		_exit(4);
	}
	int status;
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	CHECK(dir_entries(dir) == 0);

	/* A device is written in place, never replaced by a regular file. */
	CHECK(outfile_open(&o, "/dev/null") == 0);
	fputs("discarded", o.fp);
	CHECK(outfile_commit(&o) == 0);
	struct stat st;
	CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));

	test_bulk("/tmp");     /* a disk filesystem: O_DIRECT */
	test_bulk("/dev/shm"); /* tmpfs refuses O_DIRECT: buffered */

	/* NDD_NO_FSYNC: the same file, renamed into place, its writeback
	 * only started. */
	setenv("NDD_NO_FSYNC", "1", 1);
	CHECK(outfile_open(&o, path) == 0);
	fputs("deferred\n", o.fp);
	CHECK(outfile_commit(&o) == 0);
	CHECK(exists(path) && dir_entries(dir) == 1 && stat(path, &st) == 0 && st.st_size == 9);
	unlink(path);
	unsetenv("NDD_NO_FSYNC");

	snprintf(path, sizeof path, "%s/no/such/dir/x", dir);
	CHECK(outfile_open(&o, path) == -1);
	CHECK(infile_open(path) == NULL);
	CHECK(infile_open("-") == stdin && infile_open(NULL) == stdin);
	infile_close(stdin); /* left open */
	CHECK(fcntl(STDIN_FILENO, F_GETFD) != -1 || errno != EBADF);
	rmdir(dir);
	return test_finish("test_outfile");
}
