/*
 * memhint.c - see memhint.h.
 */
#include "util/memhint.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define HUGE_PAGE ((uintptr_t)2 << 20)
#define WORTH_IT ((size_t)256 << 20)

/* madvise(@advice) on the whole 2 MB pages inside [p, p + n). */
static void advise_huge(const volatile void *p, size_t n, int advice)
{
	const uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	const uintptr_t hi = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, advice);
}

void mem_hint_huge_pages(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	if (p && n >= WORTH_IT)
		advise_huge(p, n, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void *mem_alloc_huge(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p)
		mem_hint_huge_pages(p, n);
	return p;
}

void mem_keep_freed(void)
{
#ifdef __GLIBC__
	/* every block from the heap, which is then never trimmed */
	(void)mallopt(M_MMAP_MAX, 0);
	(void)mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

struct mem_prefault {
	pthread_t thread;
	volatile char *p;
	size_t n;
	size_t done; /* bytes touched, written by the thread */
	int stop;    /* set by mem_prefault_stop() */
};

static void *prefault_run(void *arg)
{
	struct mem_prefault *f = arg;
	/* a thread's own nice value (Linux): only idle time is used */
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
	const size_t page = 4096;
	size_t i = 0;
	for (; i < f->n; i += page) {
		if ((i & ((1u << 21) - 1)) == 0 && __atomic_load_n(&f->stop, __ATOMIC_RELAXED))
			break;
		f->p[i] = 0;
	}
	__atomic_store_n(&f->done, i < f->n ? i : f->n, __ATOMIC_RELEASE);
	return NULL;
}

struct mem_prefault *mem_prefault_start(void *p, size_t n)
{
	struct mem_prefault *f = calloc(1, sizeof *f);
	if (!f || !p)
		goto fail;
	f->p = p;
	f->n = n;
	mem_hint_huge_pages(p, n);
	if (pthread_create(&f->thread, NULL, prefault_run, f))
		goto fail;
	return f;
fail:
	free(f);
	return NULL;
}

size_t mem_prefault_stop(struct mem_prefault *f)
{
	if (!f)
		return 0;
	__atomic_store_n(&f->stop, 1, __ATOMIC_RELAXED);
	pthread_join(f->thread, NULL);
	size_t done = __atomic_load_n(&f->done, __ATOMIC_ACQUIRE);
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
	/* What the thread did not reach goes back to small pages: a huge page
	 * first touched in the foreground costs more than its TLB misses
	 * save (on a VM a fresh 2 MB page is often one the host took back),
	 * and the arrays that want huge pages ask again
	 * (mem_hint_huge_pages()). */
	if (done < f->n && f->n >= WORTH_IT) /* huge pages were asked for */
		advise_huge(f->p + done, f->n - done, MADV_NOHUGEPAGE);
#endif
	free(f);
	return done;
}
