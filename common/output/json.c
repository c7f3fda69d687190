/*
 * json.c - see json.h.
 */
#include "output/json.h"

#include "util/utf8.h"

#include <string.h>

int json_put_string(FILE *fp, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	putc('"', fp);
	for (size_t i = 0; i < n;) {
		const unsigned char c = p[i];
		const size_t len = utf8_seq_len(p + i, n - i);
		if (!len) {
			fputs("\\ufffd", fp);
			i++;
		} else if (c == '"' || c == '\\') {
			putc('\\', fp);
			putc(c, fp);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;
			if (named)
				fputs(named, fp);
			else
				fprintf(fp, "\\u%04x", c);
			i++;
		} else {
			fwrite(p + i, 1, len, fp);
			i += len;
		}
	}
	putc('"', fp);
	return ferror(fp) ? -1 : 0;
}

int json_put_cstr(FILE *fp, const char *s)
{
	return json_put_string(fp, s, strlen(s));
}
