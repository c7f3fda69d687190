/*
 * outfile.c - see outfile.h.  The signal handler only unlinks paths
 * recorded before it can run, which is async-signal-safe.
 */
#define _POSIX_C_SOURCE 200809L
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/bulkwrite.h"
#include "util/infile.h"
#include "util/log.h"

#define MAX_TMP 16
static char *volatile g_tmp_paths[MAX_TMP];

static void on_signal(int sig)
{
	for (int i = 0; i < MAX_TMP; i++)
		if (g_tmp_paths[i])
			unlink(g_tmp_paths[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void register_tmp(char *path)
{
	static int installed;
	if (!installed) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		installed = 1;
	}
	for (int i = 0; i < MAX_TMP; i++)
		if (!g_tmp_paths[i]) {
			g_tmp_paths[i] = path;
			return;
		}
}

static void unregister_tmp(const char *path)
{
	for (int i = 0; i < MAX_TMP; i++)
		if (g_tmp_paths[i] == path)
			g_tmp_paths[i] = NULL;
}

int outfile_open(struct outfile *o, const char *path)
{
	memset(o, 0, sizeof *o);
	if (!path || !strcmp(path, "-")) {
		o->fp = stdout;
		o->display = "(standard output)";
		infile_widen_pipe(stdout);
		return 0;
	}
	/* A device or FIFO (-o /dev/null, -o /dev/stdout, a named pipe) is
	 * written in place: renaming a temporary file onto it would replace
	 * the device node with a regular file. */
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		o->fp = fopen(path, "wb");
		o->display = path;
		if (!o->fp) {
			log_error("cannot open '%s': %s", path, strerror(errno));
			return -1;
		}
		o->direct = 1;
		infile_widen_pipe(o->fp);
		return 0;
	}
	const size_t n = strlen(path) + 32;
	o->path = strdup(path);
	o->tmp_path = malloc(n);
	if (!o->path || !o->tmp_path) {
		log_error("cannot open '%s': out of memory", path);
		free(o->path);
		free(o->tmp_path);
		o->path = o->tmp_path = NULL;
		return -1;
	}
	snprintf(o->tmp_path, n, "%s.tmp.%ld", path, (long)getpid());
	o->display = o->path;
	register_tmp(o->tmp_path);
	o->fp = fopen(o->tmp_path, "wb");
	if (!o->fp) {
		log_error("cannot create '%s': %s", o->tmp_path, strerror(errno));
		outfile_abort(o);
		return -1;
	}
	return 0;
}

int outfile_open_bulk(struct outfile *o, const char *path)
{
	if (outfile_open(o, path))
		return -1;
	if (o->tmp_path)
		o->bulk = bulk_open(o->tmp_path, o->display);
	return 0;
}

int outfile_write(struct outfile *o, const void *p, size_t n)
{
	if (o->bulk)
		return bulk_write(o->bulk, p, n);
	if (fwrite_unlocked(p, 1, n, o->fp) == n)
		return 0;
	log_error("cannot write '%s': %s", o->display, strerror(errno));
	return -1;
}

#define WRITEBACK_STEP ((uint64_t)64 << 20)

void outfile_writeback(struct outfile *o)
{
	if (!o->fp || !o->tmp_path || o->bulk)
		return;
	off_t end = ftello(o->fp); /* includes what stdio still buffers */
	if (end < 0 || (uint64_t)end < o->synced + WRITEBACK_STEP || fflush(o->fp))
		return;
	(void)sync_file_range(fileno(o->fp), (off_t)o->synced, end - (off_t)o->synced,
			      SYNC_FILE_RANGE_WRITE);
	o->synced = (uint64_t)end;
}

/* NDD_NO_FSYNC set and not "0": the caller makes durable what it keeps
 * (run_pipeline.sh syncs the outputs it publishes, once), so a commit
 * only starts the file's writeback instead of waiting for the disk. */
static int fsync_deferred(void)
{
	const char *e = getenv("NDD_NO_FSYNC");
	return e && *e && strcmp(e, "0");
}

static int make_durable(int fd)
{
	if (fsync_deferred()) {
		(void)sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
		return 0;
	}
	return fsync(fd) && errno != EINVAL ? -1 : 0;
}

int outfile_commit(struct outfile *o)
{
	if (!o->fp)
		return -1;
	int bad = fflush(o->fp) != 0 || ferror(o->fp);
	if (o->bulk) {
		bad |= bulk_finish(o->bulk) != 0;
		o->bulk = NULL;
	}
	if (o->direct) {
		bad |= fclose(o->fp) != 0;
		o->direct = 0;
	}
	if (!o->path) {
		o->fp = NULL;
		if (bad)
			log_error("error writing to standard output: %s", strerror(errno));
		return bad ? -1 : 0;
	}
	if (!bad && !o->scratch && make_durable(fileno(o->fp)))
		bad = 1;
	if (fclose(o->fp))
		bad = 1;
	o->fp = NULL;
	if (!bad && rename(o->tmp_path, o->path))
		bad = 1;
	if (bad) {
		log_error("cannot write '%s': %s", o->path, strerror(errno));
		outfile_abort(o);
		return -1;
	}
	unregister_tmp(o->tmp_path);
	free(o->tmp_path);
	free(o->path);
	o->tmp_path = o->path = NULL;
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->fp && o->fp != stdout)
		fclose(o->fp);
	bulk_abort(o->bulk);
	o->bulk = NULL;
	o->direct = 0;
	o->fp = NULL;
	if (o->tmp_path) {
		unlink(o->tmp_path);
		unregister_tmp(o->tmp_path);
	}
	free(o->tmp_path);
	free(o->path);
	o->tmp_path = o->path = NULL;
}
