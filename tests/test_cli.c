/*
 * test_cli.c - atomic outputs: the final name appears only on commit, an
 * abort or a SIGTERM leaves nothing behind; option parsing helpers.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "log.h"
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

	snprintf(path, sizeof path, "%s/no/such/dir/x", dir);
	CHECK(outfile_open(&o, path) == -1);
	CHECK(cli_parse_size("--x", "4K") == 4096);
	CHECK(cli_parse_size("--x", "3G") == 3ull << 30);
	CHECK(cli_parse_int("--x", "17", 0, 20) == 17);
	rmdir(dir);
	return test_finish("test_cli");
}
