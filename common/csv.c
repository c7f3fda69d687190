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

void csv_u64(FILE *fp, uint64_t v)
{
	char buf[24];
	size_t i = sizeof buf;
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite(buf + i, 1, sizeof buf - i, fp);
}

void csv_hex64(FILE *fp, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char buf[16];
	for (int i = 15; i >= 0; i--) {
		buf[i] = digits[v & 15];
		v >>= 4;
	}
	fwrite(buf, 1, sizeof buf, fp);
}
