/*
 * cli.c - see cli.h.  The signal handler only unlinks paths recorded
 * before it can run, which is async-signal-safe.
 */
#define _POSIX_C_SOURCE 200809L
#include "util/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/bulkwrite.h"
#include "util/log.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static double g_start_wall;

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		log_error("out of memory allocating %zu bytes", n);
		exit(EXIT_FAILED);
	}
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) {
		log_error("out of memory allocating %zu x %zu bytes", n, size);
		exit(EXIT_FAILED);
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		log_error("out of memory allocating %zu bytes", n);
		exit(EXIT_FAILED);
	}
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

long long cli_parse_int(const char *opt, const char *arg, long long lo, long long hi)
{
	char *end;
	errno = 0;
	long long v = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi) {
		log_error("invalid value '%s' for %s (expected an integer %lld..%lld)",
			  arg, opt, lo, hi);
		exit(EXIT_FAILED);
	}
	return v;
}

unsigned long long cli_parse_size(const char *opt, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	unsigned shift = 0;
	if (*end == 'k' || *end == 'K')
		shift = 10;
	else if (*end == 'm' || *end == 'M')
		shift = 20;
	else if (*end == 'g' || *end == 'G')
		shift = 30;
	if (shift)
		end++;
	if (errno || end == arg || *end || arg[0] == '-' || (v << shift) >> shift != v) {
		log_error("invalid size '%s' for %s (expected e.g. 512M, 4G)", arg, opt);
		exit(EXIT_FAILED);
	}
	return v << shift;
}

int cli_common_option(struct cli_common *cc, int c, const char *arg,
		      void (*usage)(FILE *, int))
{
	if (!g_start_wall)
		g_start_wall = log_wall();
	switch (c) {
	case 't':
		cc->threads = (int)cli_parse_int("--threads", arg, 1, 1024);
		return 1;
	case 'o':
		cc->output = arg;
		return 1;
	case 'v':
		log_set_level(log_get_level() + 1);
		return 1;
	case 'q':
		log_set_level(LOG_QUIET);
		return 1;
	case 'h':
		usage(stdout, EXIT_OK);
		return 1;
	case CLI_OPT_VERSION:
		printf("%s %s\n", log_program(), NDD_VERSION_STRING);
		exit(EXIT_OK);
	}
	return 0;
}

void cli_common_finish(struct cli_common *cc)
{
	if (!g_start_wall)
		g_start_wall = log_wall();
	if (cc->threads <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		cc->threads = n > 0 ? (int)n : 1;
	}
#ifdef _OPENMP
	omp_set_num_threads(cc->threads);
#endif
}

/* ---- atomic outputs ---- */

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

/*
 * Stages stream hundreds of MB through pipes.  A pipe holds 64 KB by
 * default, so the writer and the reader take turns every 64 KB; 1 MB (the
 * usual unprivileged limit) lets each run on.  Failing is harmless.
 */
static void widen_pipe(FILE *fp)
{
	struct stat st;
	if (fp && fstat(fileno(fp), &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fileno(fp), F_SETPIPE_SZ, 1 << 20);
}

int outfile_open(struct outfile *o, const char *path)
{
	memset(o, 0, sizeof *o);
	if (!path || !strcmp(path, "-")) {
		o->fp = stdout;
		o->display = "(standard output)";
		widen_pipe(stdout);
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
		widen_pipe(o->fp);
		return 0;
	}
	size_t n = strlen(path) + 32;
	o->path = xstrdup(path);
	o->tmp_path = xmalloc(n);
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
	if (!bad && fsync(fileno(o->fp)) && errno != EINVAL)
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

FILE *cli_open_input(const char *path)
{
	FILE *fp = !path || !strcmp(path, "-") ? stdin : fopen(path, "rb");
	if (!fp)
		log_error("cannot open '%s': %s", path, strerror(errno));
	widen_pipe(fp);
	return fp;
}

void cli_close_input(FILE *fp)
{
	if (fp && fp != stdin)
		fclose(fp);
}

void cli_summary(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	if (log_get_level() < LOG_ERROR)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "%s: %s; %.2f s wall, %.2f s CPU, %.1f MB peak RSS\n",
		log_program(), buf, log_wall() - g_start_wall, log_cpu(),
		(double)log_peak_rss_kb() / 1024.0);
}
