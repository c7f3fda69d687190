/*
 * cli.c - see cli.h.
 */
#include "util/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <signal.h>
#include <sys/prctl.h>
#endif

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
	cli_die_with_parent();
}

void cli_die_with_parent(void)
{
#ifdef __linux__
	const char *e = getenv("NDD_PARENT_PID");
	if (!e || !*e)
		return;
	const long parent = strtol(e, NULL, 10);
	/* armed after the parent forked us: it may have died in between */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) == 0 && getppid() != (pid_t)parent)
		raise(SIGTERM);
#endif
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
