/*
 * log.c - see log.h.  stderr is unbuffered, so each message is formatted
 * into one buffer and written with a single call: lines from OpenMP
 * threads then do not interleave mid-line.
 */
#define _POSIX_C_SOURCE 200809L
#include "util/log.h"

#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static const char *g_program = "ndd";
static int g_level = LOG_INFO;

void log_init(const char *program)
{
	const char *slash = strrchr(program, '/');
	g_program = slash ? slash + 1 : program;
}

const char *log_program(void)
{
	return g_program;
}

void log_set_level(int level)
{
	g_level = level;
}

int log_get_level(void)
{
	return g_level;
}

void log_msg(int level, const char *func, const char *fmt, ...)
{
	static const char *const names[] = {"error", "warning", "info", "debug"};
	char buf[2048];
	int n;
	va_list ap;

	if (g_level == LOG_SILENT || (level > g_level && level != LOG_ERROR))
		return;
	if (level == LOG_DEBUG)
		n = snprintf(buf, sizeof buf, "%s: debug [%s]: ", g_program, func);
	else if (level == LOG_INFO)
		n = snprintf(buf, sizeof buf, "%s: ", g_program);
	else
		n = snprintf(buf, sizeof buf, "%s: %s: ", g_program, names[level]);
	if (n < 0 || (size_t)n >= sizeof buf)
		n = 0;
	va_start(ap, fmt);
	int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		m = 0;
	size_t len = (size_t)n + (size_t)m;
	if (len > sizeof buf - 2)
		len = sizeof buf - 2;
	buf[len++] = '\n';
	fflush(stdout);
	fwrite(buf, 1, len, stderr);
}

double log_wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double log_cpu(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

long log_peak_rss_kb(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ru.ru_maxrss;
}

long log_minor_faults(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ru.ru_minflt;
}

void progress_start(struct progress *p, const char *what, uint64_t total_bytes)
{
	memset(p, 0, sizeof *p);
	p->enabled = isatty(STDERR_FILENO) && g_level >= LOG_INFO;
	p->start = p->last = log_wall();
	p->total_bytes = total_bytes;
	p->what = what;
}

void progress_update(struct progress *p, uint64_t items, uint64_t bytes)
{
	if (!p->enabled)
		return;
	double now = log_wall();
	if (now - p->last < 0.25)
		return;
	p->last = now;
	double el = now - p->start;
	double mbs = el > 0 ? (double)bytes / el / 1e6 : 0;
	char eta[32] = "";
	if (p->total_bytes && bytes && bytes < p->total_bytes)
		snprintf(eta, sizeof eta, ", ETA %.0fs",
			 el * (double)(p->total_bytes - bytes) / (double)bytes);
	fprintf(stderr, "\r%s: %llu %s, %.1f MB, %.1f MB/s%s\033[K", g_program,
		(unsigned long long)items, p->what, (double)bytes / 1e6, mbs, eta);
}

void progress_end(struct progress *p)
{
	if (p->enabled)
		fputs("\r\033[K", stderr);
	p->enabled = 0;
}
