/*
 * rank.c - see rank.h.
 */
#include "rank.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

int mpi_rank, mpi_size;

int mpi_agree(int status, const char *what)
{
	int *all = malloc((size_t)mpi_size * sizeof *all);
	if (!all) {
		log_error("rank %d: out of memory", mpi_rank);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	int rc = MPI_Allgather(&status, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS) {
		free(all);
		mpi_fail(rc, what);
		return 2;
	}
	int worst = 0;
	for (int r = 0; r < mpi_size; r++) {
		const int s = all[r] < 0 || all[r] > 2 ? 2 : all[r];
		if (s == 2 && mpi_rank == 0)
			log_error("%s failed on rank %d of %d (status %d)", what, r, mpi_size, all[r]);
		worst = s > worst ? s : worst;
	}
	free(all);
	return worst;
}

int mpi_fail(int rc, const char *what)
{
	char msg[MPI_MAX_ERROR_STRING];
	int len = 0;
	if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
		len = 0;
	msg[len] = 0;
	log_error("rank %d: %s: MPI error: %s", mpi_rank, what, len ? msg : "(unknown)");
	return -1;
}

int mpi_fault_point(const char *where)
{
	const char *f = getenv("NDD_MPI_FAULT");
	char what[16] = "";
	char at[64] = "";
	int rank = -1;
	if (!f || sscanf(f, "%63[^:]:%d:%15s", at, &rank, what) != 3 || strcmp(at, where) ||
	    rank != mpi_rank)
		return 0;
	if (!strcmp(what, "kill"))
		raise(SIGKILL);
	log_error("rank %d: a fault injected at '%s' (NDD_MPI_FAULT)", mpi_rank, where);
	return -1;
}
