/*
 * fuzz_report.c - libFuzzer target: what ndd-report reads and writes.
 * The first byte picks the mode:
 *   0  the rest is a JSON document (stats.json): parsed, members looked up;
 *   1  the rest is CSV (clusters.csv, documents.csv): read record by record;
 *   2  the rest is data for the page (a title, a URL): escaped, and the
 *      result must be safe text (valid UTF-8, no markup character, no
 *      control but tab and newline), else the target aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/csv_read.h"
#include "output/html.h"
#include "output/json_read.h"

#include "fuzz.h"

static void walk(const struct json_value *v, int depth)
{
	if (depth > 70)
		abort(); /* the reader allows 64 */
	if (v->type == JSON_ARRAY || v->type == JSON_OBJECT)
		for (size_t i = 0; i < v->len; i++)
			walk(&v->items[i], depth + 1);
	if (v->type == JSON_STRING && v->str[v->len] != '\0')
		abort();
}

static void check_safe(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned cp;
		const size_t len = html_utf8_next((const unsigned char *)s + i, n - i, &cp);
		if (!len || cp == '<' || cp == '>' || cp == '"' || cp == '\'' ||
		    (cp < 0x20 && cp != '\t' && cp != '\n') || (cp >= 0x7F && cp <= 0x9F))
			abort();
		i += len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	if (size < 1)
		return 0;
	const char *p = (const char *)data + 1;
	const size_t n = size - 1;
	if (data[0] == 0) {
		struct json_value *v = json_parse(p, n);
		if (v) {
			walk(v, 0);
			fuzz_sink((uint64_t)json_int(json_get(v, "k"), 0));
			fuzz_sink((uint64_t)(uintptr_t)json_string(json_get(v, "night"), NULL));
		}
		json_free(v);
	} else if (data[0] == 1) {
		FILE *fp = n ? fmemopen((void *)p, n, "rb") : NULL;
		struct csv_record r = {0};
		if (!fp)
			return 0;
		while (csv_read_record(fp, &r) == 1)
			for (size_t i = 0; i < r.n_fields; i++)
				if (csv_field_at(&r, i)[csv_field_len(&r, i)] != '\0')
					abort();
		csv_record_free(&r);
		fclose(fp);
	} else {
		struct html_buf h = {0};
		html_text_cut(&h, p, n, data[0] == 2 ? (size_t)-1 : data[0]);
		if (h.p)
			check_safe(h.p, h.len);
		html_buf_free(&h);
	}
	return 0;
}
