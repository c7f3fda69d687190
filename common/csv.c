/*
 * csv.c - see csv.h.
 */
#include "csv.h"

#include <string.h>

void csv_field(FILE *fp, const char *s, size_t len)
{
	int quote = 0;
	for (size_t i = 0; i < len && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
	if (!quote) {
		fwrite(s, 1, len, fp);
		return;
	}
	putc('"', fp);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"')
			putc('"', fp);
		putc(s[i], fp);
	}
	putc('"', fp);
}
