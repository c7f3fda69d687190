/*
 * threads.h - the OpenMP thread count and number, also when the build has
 * no OpenMP (make OPENMP=), where everything runs on one thread.
 */
#ifndef NDD_THREADS_H
#define NDD_THREADS_H

#ifdef _OPENMP
#include <omp.h>
#endif

/** Threads a parallel region will get (the -t option, see cli.h). */
static inline int threads_max(void)
{
#ifdef _OPENMP
	return omp_get_max_threads();
#else
	return 1;
#endif
}

/** Threads in the current team (1 outside a parallel region). */
static inline int threads_team(void)
{
#ifdef _OPENMP
	return omp_get_num_threads();
#else
	return 1;
#endif
}

/** This thread's number inside a parallel region, from 0. */
static inline int threads_id(void)
{
#ifdef _OPENMP
	return omp_get_thread_num();
#else
	return 0;
#endif
}

#endif
