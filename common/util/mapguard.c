/*
 * mapguard.c - see mapguard.h.
 *
 * The handler may run on any thread at any moment, so it only reads
 * slots published with release stores and writes with write(2); a slot's
 * name is a copy, so it outlives whatever the caller freed.
 */
#define _POSIX_C_SOURCE 200809L
#include "util/mapguard.h"

#include "util/log.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* A process maps a few fingerprint files at once (one per catalog). */
#define MAPGUARD_SLOTS 32
#define MAPGUARD_NAME 240

struct slot {
	_Atomic uintptr_t start; /* 0: free */
	size_t len;
	char name[MAPGUARD_NAME];
};

static struct slot g_slot[MAPGUARD_SLOTS];
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_installed;

static size_t put_str(char *out, size_t at, size_t cap, const char *s)
{
	while (*s && at < cap)
		out[at++] = *s++;
	return at;
}

static size_t put_u64(char *out, size_t at, size_t cap, uint64_t v)
{
	char digits[20];
	int n = 0;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0 && at < cap)
		out[at++] = digits[--n];
	return at;
}

static void on_sigbus(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	const uintptr_t a = (uintptr_t)info->si_addr;
	for (int i = 0; i < MAPGUARD_SLOTS; i++) {
		const uintptr_t s = atomic_load_explicit(&g_slot[i].start, memory_order_acquire);
		if (!s || a < s || a - s >= g_slot[i].len)
			continue;
		char msg[512];
		const size_t cap = sizeof msg - 1;
		size_t n = put_str(msg, 0, cap, log_program());
		n = put_str(msg, n, cap, ": error: '");
		n = put_str(msg, n, cap, g_slot[i].name);
		n = put_str(msg, n, cap, "': offset ");
		n = put_u64(msg, n, cap, (uint64_t)(a - s));
		n = put_str(msg, n, cap,
			    ": the mapped file could not be read (an I/O error, or the file "
			    "shrank while it was read)");
		msg[n++] = '\n';
		ssize_t w = write(STDERR_FILENO, msg, n);
		(void)w;
		_exit(2);
	}
	/* not ours: the default action, as if no handler had been set */
	signal(sig, SIG_DFL);
	raise(sig);
}

static int install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGBUS, &sa, NULL);
}

int mapguard_add(const void *p, size_t len, const char *name)
{
	int rc = -1;
	if (!p || !len)
		return -1;
	if (!name)
		name = "";
	pthread_mutex_lock(&g_lock);
	if (!g_installed && install() == 0)
		g_installed = 1;
	for (int i = 0; g_installed && i < MAPGUARD_SLOTS; i++) {
		struct slot *s = &g_slot[i];
		if (atomic_load_explicit(&s->start, memory_order_relaxed))
			continue;
		s->len = len;
		const size_t n = strlen(name);
		const size_t keep = n < MAPGUARD_NAME - 1 ? n : MAPGUARD_NAME - 1;
		memcpy(s->name, name, keep);
		s->name[keep] = '\0';
		atomic_store_explicit(&s->start, (uintptr_t)p, memory_order_release);
		rc = 0;
		break;
	}
	pthread_mutex_unlock(&g_lock);
	return rc;
}

void mapguard_remove(const void *p)
{
	pthread_mutex_lock(&g_lock);
	for (int i = 0; i < MAPGUARD_SLOTS; i++)
		if (atomic_load_explicit(&g_slot[i].start, memory_order_relaxed) == (uintptr_t)p) {
			atomic_store_explicit(&g_slot[i].start, 0, memory_order_release);
			break;
		}
	pthread_mutex_unlock(&g_lock);
}
