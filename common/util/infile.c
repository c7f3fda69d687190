/*
 * infile.c - see infile.h.
 */
#include "util/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "util/log.h"

/*
 * Stages stream hundreds of MB through pipes.  A pipe holds 64 KB by
 * default, so the writer and the reader take turns every 64 KB; 1 MB (the
 * usual unprivileged limit) lets each run on.  Failing is harmless.
 */
void infile_widen_pipe(FILE *fp)
{
	struct stat st;
	if (fp && fstat(fileno(fp), &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fileno(fp), F_SETPIPE_SZ, 1 << 20);
}

FILE *infile_open(const char *path)
{
	FILE *fp = !path || !strcmp(path, "-") ? stdin : fopen(path, "rb");
	if (!fp)
		log_error("cannot open '%s': %s", path, strerror(errno));
	infile_widen_pipe(fp);
	return fp;
}

void infile_close(FILE *fp)
{
	if (fp && fp != stdin)
		fclose(fp);
}
