/*
 * infile.h - inputs named on a command line: "-" is standard input.
 */
#ifndef NDD_INFILE_H
#define NDD_INFILE_H

#include <stdio.h>

/**
 * Open an input for reading: "-" or NULL is stdin.  @return the FILE, or
 * NULL after logging "cannot open 'x': reason".  Close with infile_close().
 */
FILE *infile_open(const char *path) __attribute__((warn_unused_result));

/** Close an input opened by infile_open() (stdin is left open; NULL is fine). */
void infile_close(FILE *fp);

/**
 * Give a pipe a 1 MB buffer instead of the default 64 KB, so that two
 * stages streaming hundreds of MB through it do not take turns every
 * 64 KB.  Inputs and outputs (outfile.h) both call it; anything that is
 * not a pipe, and a refusal, are left alone.
 */
void infile_widen_pipe(FILE *fp);

#endif
