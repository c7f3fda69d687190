/*
 * test_memhint.c - the background prefault touches pages from the start
 * of its block up to where it reports having got, stops when asked, and
 * never touches past the block's end.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/memhint.h"
#include "testutil.h"

/* Every page the prefault says it reached holds the 0 it wrote there; the
 * byte after the block is untouched. */
static void check_run(size_t n, int wait_ms)
{
	unsigned char *p = malloc(n + 1);
	CHECK(p != NULL);
	if (!p)
		return;
	memset(p, 0xa5, n + 1);
	struct mem_prefault *f = mem_prefault_start(p, n);
	CHECK(f != NULL);
	if (wait_ms) {
		struct timespec ts = {wait_ms / 1000, (long)(wait_ms % 1000) * 1000000L};
		nanosleep(&ts, NULL);
	}
	size_t done = mem_prefault_stop(f);
	CHECK(done <= n);
	int touched = 1;
	for (size_t i = 0; i < done; i += 4096)
		touched &= p[i] == 0;
	CHECK(touched);
	CHECK(p[n] == 0xa5);
	free(p);
}

/* Whether the mapping holding @addr has @flag among its VmFlags (-1:
 * not found, as where /proc is missing). */
static int vm_flag(const void *addr, const char *flag)
{
	FILE *fp = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, found = -1;
	while (fp && found < 0 && fgets(line, sizeof line, fp)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
		else if (in && !strncmp(line, "VmFlags:", 8))
			found = strstr(line, flag) != NULL;
	}
	if (fp)
		fclose(fp);
	return found;
}

/* A large block (huge pages asked for) stopped at once: the part not
 * reached is given back to small pages, where the kernel has the flags. */
static void check_unhint(void)
{
	const size_t n = (size_t)512 << 20;
	unsigned char *p = malloc(n);
	CHECK(p != NULL);
	if (!p)
		return;
	struct mem_prefault *f = mem_prefault_start(p, n);
	const size_t done = mem_prefault_stop(f);
	const unsigned char *tail = p + n - ((size_t)4 << 20);
	const int nh = vm_flag(tail, " nh"), hg = vm_flag(tail, " hg");
	/* checked where smaps shows the flags (no THP: neither is set) and
	 * the thread stopped short of the tail (it is all but certain to) */
	if (done < n - ((size_t)8 << 20) && nh >= 0 && (nh || hg))
		CHECK(nh == 1 && hg == 0);
	free(p);
}

int main(void)
{
	CHECK(mem_prefault_stop(NULL) == 0);
	CHECK(mem_prefault_start(NULL, 4096) == NULL);
	check_run(1, 0);
	check_run(4096 * 3 + 17, 50);
	check_run((size_t)64 << 20, 0);   /* stopped early, most likely */
	check_run((size_t)8 << 20, 2000); /* done long before the stop */
	check_unhint();
	return test_finish("test_memhint");
}
