/*
 * names0.c - see names0.h.
 */
#include "util/names0.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

int names0_read(const char *path, char ***names)
{
	*names = NULL;
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!fp) {
		log_error("cannot open the list '%s': %s", path, strerror(errno));
		return -1;
	}
	size_t len = 0, cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap);
	while (buf && (got = fread(buf + len, 1, cap - len - 1, fp)) > 0) {
		len += got;
		if (len + 1 == cap) {
			char *g = realloc(buf, cap *= 2);
			if (!g)
				free(buf);
			buf = g;
		}
	}
	const int bad = !buf || ferror(fp);
	if (fp != stdin)
		fclose(fp);
	if (bad) {
		log_error("cannot read the list '%s': %s", path, buf ? "read error" : "out of memory");
		free(buf);
		return -1;
	}
	if (len && buf[len - 1] != '\0')
		buf[len++] = '\0';
	for (size_t i = 0; i < len; i++)
		n += buf[i] == '\0';
	/* the buffer rides in the slot after the NULL, for names0_free() */
	char **v = n < INT_MAX ? malloc((n + 2) * sizeof *v) : NULL;
	if (!v) {
		log_error("the list '%s': too many names", path);
		free(buf);
		return -1;
	}
	n = 0;
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
		if (buf[i])
			v[n++] = buf + i;
	v[n] = NULL;
	v[n + 1] = buf;
	*names = v;
	return (int)n;
}

void names0_free(char **names)
{
	if (!names)
		return;
	size_t n = 0;
	while (names[n])
		n++;
	free(names[n + 1]);
	free(names);
}
