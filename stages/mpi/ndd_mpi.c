/*
 * ndd-mpi - the pipeline's heavy stages on the ranks of an MPI job
 * (docs/MPI.md; run_pipeline.sh --mpi N runs them in turn).
 *
 * Before the step, --status FILE: rank 0 writes the step's status there
 * (0, 1 = some input skipped, 2) and every rank exits 0 unless the step
 * failed (mpirun reports any non-zero exit as a failed job).
 *
 *   mpirun -np P ndd-mpi extract WORK [ndd-extract options] {--files0-from LIST | -- FILE...}
 *   mpirun -np P ndd-mpi template WORK OUT.ndf [ndd-template options]
 *   mpirun -np P ndd-mpi fingerprint WORK OUT.ndf [ndd-fingerprint options]
 *   mpirun -np P ndd-mpi tables -k K [--raw F] [--pairs F] [--stats F] FPS...
 *
 * Every rank runs the same step; a step's outcome is agreed on by all
 * ranks (rank.h), so a rank whose step fails makes every rank exit 2,
 * after rank 0 named it.  A rank that dies outright, or a stage that
 * exits from deep inside, ends the job through mpirun, which names the
 * rank; this process's own exit before the end of its step is reported
 * too (on_exit()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "util/log.h"
#include "rank.h"
#include "steps.h"

static const char *current_step = "start-up";
static int finished;

/* A stage program called exit() (its usage or fatal errors): say which
 * rank, and let mpirun take the job down. */
static void exit_report(int status, void *arg)
{
	(void)arg;
	if (!finished)
		fprintf(stderr, "ndd-mpi: error: rank %d of %d left during '%s' with status %d\n",
			mpi_rank, mpi_size, current_step, status);
}

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: mpirun -np P ndd-mpi [--status FILE] STEP ARGS...\n"
		    "Steps (each run by every rank; see docs/MPI.md):\n"
		    "  extract WORK [ndd-extract options] {--files0-from LIST | -- FILE...}\n"
		    "  template WORK OUT.ndf [ndd-template options]\n"
		    "  fingerprint WORK OUT.ndf [ndd-fingerprint options]\n"
		    "  tables -k K [--raw FILE] [--pairs FILE] [--stats FILE] FPS...\n");
}

int main(int argc, char **argv)
{
	int provided;
	if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		fprintf(stderr, "ndd-mpi: error: MPI_Init_thread failed\n");
		return EXIT_FAILED;
	}
	/* failed MPI calls return their error here, to be named with the rank */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
	on_exit(exit_report, NULL);
	log_init("ndd-mpi");
	int status = EXIT_FAILED;
	const char *status_file = NULL;
	if (argc >= 3 && !strcmp(argv[1], "--status")) {
		status_file = argv[2];
		argv[2] = argv[0];
		argv += 2;
		argc -= 2;
	}
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		if (mpi_rank == 0)
			usage(argc < 2 ? stderr : stdout);
		status = argc < 2 ? EXIT_FAILED : EXIT_OK;
	} else {
		current_step = argv[1];
		if (!strcmp(argv[1], "extract"))
			status = step_extract(argc - 1, argv + 1);
		else if (!strcmp(argv[1], "template"))
			status = step_template(argc - 1, argv + 1);
		else if (!strcmp(argv[1], "fingerprint"))
			status = step_fingerprint(argc - 1, argv + 1);
		else if (!strcmp(argv[1], "tables"))
			status = step_tables(argc - 1, argv + 1);
		else if (mpi_rank == 0)
			log_error("unknown step '%s'", argv[1]), usage(stderr);
	}
	if (status_file && mpi_rank == 0) {
		FILE *f = fopen(status_file, "w");
		if (!f || fprintf(f, "%d\n", status) < 0 || fclose(f)) {
			log_error("cannot write '%s'", status_file);
			status = EXIT_FAILED;
		}
	}
	finished = 1;
	MPI_Finalize();
	return status_file && status == EXIT_SKIPPED ? EXIT_OK : status;
}
