/*
 * rank.h - what every part of ndd-mpi shares: the job's size and this
 * process's rank, the rule that a step succeeds only if it succeeded on
 * every rank, and the renamed main() of the stage programs ndd-mpi runs
 * in-process (the Makefile compiles stages/X.c again with
 * -Dmain=ndd_X_main for it).
 */
#ifndef NDD_MPI_RANK_H
#define NDD_MPI_RANK_H
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

/* This process in MPI_COMM_WORLD: set once by main(). */
extern int mpi_rank, mpi_size;

/**
 * Collective: every rank gives its status of step @what (0 = done,
 * 1 = done with input skipped, anything else failed).  Rank 0 names each
 * rank that failed and its status.  @return the worst status over the
 * ranks, the same on every rank.
 */
int mpi_agree(int status, const char *what);

/** Log a failed MPI call @rc of step @what on this rank; @return -1. */
int mpi_fail(int rc, const char *what);

/**
 * A point where the tests (tests/t_mpi.sh) make a rank fail: with
 * NDD_MPI_FAULT=WHERE:RANK:kill this rank dies there (SIGKILL), with
 * ...:fail @return non-zero (the caller fails its step).  @return 0 else.
 */
int mpi_fault_point(const char *where);

/** The [lo, hi) share of @n items that rank @r of @p takes. */
static inline void mpi_share(uint64_t n, int r, int p, uint64_t *lo, uint64_t *hi)
{
	*lo = n * (uint64_t)r / (uint64_t)p;
	*hi = n * (uint64_t)(r + 1) / (uint64_t)p;
}

/* The stage programs' main(), renamed (see above). */
int ndd_extract_main(int argc, char **argv);
int ndd_fingerprint_main(int argc, char **argv);

#endif
