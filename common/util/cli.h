/*
 * cli.h - what every stage's main() shares: exit codes, the common
 * options, thread count, allocation that exits, the closing summary.
 *
 * For stages only: these functions exit on a usage error or when memory
 * runs out, which library code (the rest of common/) never does.
 *
 * Exit codes are fixed by the design contract:
 *   0  success
 *   1  finished, but some input was skipped (counted and reported)
 *   2  failed; nothing final was written
 */
#ifndef NDD_CLI_H
#define NDD_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EXIT_OK 0
#define EXIT_SKIPPED 1
#define EXIT_FAILED 2

#define NDD_VERSION_STRING "0.1.0"

/*
 * Long options every stage accepts; splice into a getopt_long table.
 * Short forms: -t N, -o FILE, -v, -q, -h.  CLI_OPT_VERSION is the value
 * getopt_long returns for --version.
 */
enum { CLI_OPT_VERSION = 0x1000, CLI_OPT_STAGE_BASE = 0x1100 };
#define CLI_COMMON_LONGOPTS                                   \
	{"threads", required_argument, NULL, 't'},            \
	{"output", required_argument, NULL, 'o'},             \
	{"verbose", no_argument, NULL, 'v'},                  \
	{"quiet", no_argument, NULL, 'q'},                    \
	{"help", no_argument, NULL, 'h'},                     \
	{"version", no_argument, NULL, CLI_OPT_VERSION}
#define CLI_COMMON_SHORTOPTS "t:o:vqh"
#define CLI_COMMON_HELP                                                              \
	"  -t, --threads N    worker threads (default: all cores)\n"                 \
	"  -o, --output FILE  output file (default: standard output)\n"              \
	"  -v, --verbose      more messages; -q, --quiet: errors only\n"             \
	"  -h, --help         this help, then exit 0\n"                              \
	"      --version      version, then exit 0\n"                                \
	"Exit status: 0 success, 1 some input skipped, 2 failed (usage errors too).\n"

struct cli_common {
	int threads;
	const char *output; /* NULL or "-" = stdout */
};

/**
 * Handle one common option @c (as returned by getopt_long) with @arg.
 * Exits for -h (calling @usage(stdout, 0)) and --version.  @return 1 if
 * @c was a common option, 0 if not.  A bad value is a usage error (exit 2).
 */
int cli_common_option(struct cli_common *cc, int c, const char *arg,
		      void (*usage)(FILE *, int));

/**
 * Apply defaults (threads = all cores), set OpenMP's thread count, and
 * cli_die_with_parent().
 */
void cli_common_finish(struct cli_common *cc);

/**
 * With NDD_PARENT_PID=PID in the environment (run_pipeline.sh sets it for
 * each stage it starts), die of SIGTERM when the parent process dies,
 * even by kill -9 (Linux's parent-death signal); at once if PID is no
 * longer the parent.  Without it, nothing.
 */
void cli_die_with_parent(void);

/** Parse a non-negative integer option in [lo, hi] or exit 2 with a message. */
long long cli_parse_int(const char *opt, const char *arg, long long lo, long long hi);

/** Parse a size with optional K/M/G suffix (powers of 1024) or exit 2. */
unsigned long long cli_parse_size(const char *opt, const char *arg);

/* Allocation that never returns NULL: prints the size and exits 2. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/**
 * Print the closing summary line, always, at any verbosity but quiet:
 * "<prog>: <summary>; 1.23 s wall, 2.01 s CPU, 45 MB peak RSS".
 */
void cli_summary(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
