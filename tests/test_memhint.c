/*
 * test_memhint.c - the background prefault touches pages from the start
 * of its block up to where it reports having got, stops when asked, and
 * never touches past the block's end.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "memhint.h"
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

int main(void)
{
	CHECK(mem_prefault_stop(NULL) == 0);
	CHECK(mem_prefault_start(NULL, 4096) == NULL);
	check_run(1, 0);
	check_run(4096 * 3 + 17, 50);
	check_run((size_t)64 << 20, 0);   /* stopped early, most likely */
	check_run((size_t)8 << 20, 2000); /* done long before the stop */
	return test_finish("test_memhint");
}
