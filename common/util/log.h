/*
 * log.h - leveled logging, progress lines and run summaries on stderr.
 *
 * Library code reports through log_error()/log_warn(); it never prints to
 * stdout (stdout carries binary data in pipes) and never exits.  Messages
 * are prefixed with the program name set by log_init(), so a message from
 * a pipe of five stages still says which stage spoke.
 */
#ifndef NDD_LOG_H
#define NDD_LOG_H

#include <stdint.h>
#include <stdio.h>

enum log_level {
	LOG_SILENT = -2, /* nothing at all (tests of error paths) */
	LOG_QUIET = -1, /* errors are still printed, nothing else */
	LOG_ERROR = 0,
	LOG_WARN = 1,
	LOG_INFO = 2,
	LOG_DEBUG = 3,
};

/** Set the program name used as prefix (e.g. "ndd-extract"). */
void log_init(const char *program);

/** Program name given to log_init(), or "ndd". */
const char *log_program(void);

void log_set_level(int level);
int log_get_level(void);

/**
 * Print one message at @level.  Errors and warnings read
 * "prog: error: message"; debug messages also carry @func.
 */
void log_msg(int level, const char *func, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define log_error(...) log_msg(LOG_ERROR, __func__, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN, __func__, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __func__, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __func__, __VA_ARGS__)

/** Seconds since an arbitrary fixed point (monotonic clock). */
double log_wall(void);

/** Process CPU seconds (user + system, all threads). */
double log_cpu(void);

/** Peak resident set size of this process in KiB (0 if unknown). */
long log_peak_rss_kb(void);

/** Page faults that gave this process fresh memory so far (each one a page
 * the kernel had to clear, which on a VM can cost more than the work). */
long log_minor_faults(void);

/*
 * Progress: a self-overwriting line on stderr, shown only when stderr is a
 * terminal and the level is at least INFO, at most a few times a second.
 * @total_bytes may be 0 when unknown (then no ETA is shown).
 */
struct progress {
	int enabled;
	double start, last;
	uint64_t total_bytes;
	const char *what; /* "records", "documents", ... */
};

void progress_start(struct progress *p, const char *what, uint64_t total_bytes);
void progress_update(struct progress *p, uint64_t items, uint64_t bytes);
/** Erase the progress line, if one was drawn. */
void progress_end(struct progress *p);

#endif
