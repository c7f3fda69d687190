/*
 * steps.h - the steps of ndd-mpi, each run by every rank of the job
 * (docs/MPI.md).  Each takes its arguments after the step's name and
 * returns an exit status (0, 1 = input skipped, 2 = failed) that is the
 * same on every rank.
 */
#ifndef NDD_MPI_STEPS_H
#define NDD_MPI_STEPS_H

/* extract WORK [ndd-extract options] {--files0-from LIST | -- FILE...}: the
 * files (LIST: NUL-ended names, util/names0.h), split over the
 * ranks by size in order, extracted into WORK/docs.R.ndf by rank R. */
int step_extract(int argc, char **argv);

/* template WORK OUT.ndf [options]: each host's template learnt on the
 * rank its host key falls to, from the pages of WORK/docs.R.ndf moved
 * there (template.c); rank 0 writes OUT.ndf. */
int step_template(int argc, char **argv);

/* fingerprint WORK [ndd-fingerprint options]: WORK/docs.R.ndf into
 * WORK/fps.R.ndf on rank R, then rank 0 joins those into one
 * WORK/fingerprints.ndf. */
int step_fingerprint(int argc, char **argv);

/* tables [options] FPS...: the tables of the catalog built and joined
 * with each table's key range split over the ranks (tables.c). */
int step_tables(int argc, char **argv);

#endif
