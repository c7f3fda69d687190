/*
 * fuzz_fptext.c - libFuzzer target: the --import-text reader (fptext.h)
 * over a whole input as a file, and each line parsed again on its own;
 * the two must agree, and a key must lie inside its line.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "format/fptext.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	if (size == 0)
		return 0;
	FILE *in = fmemopen((void *)(uintptr_t)data, size, "rb");
	if (!in)
		return 0;
	struct fptext_reader *r = fptext_open(in, "fuzz");
	uint64_t fp, sum = 0, n = 0;
	struct str key;
	while (r && fptext_next(r, &fp, &key) == 1) {
		sum += fp + key.n + (key.n ? (uint8_t)key.p[key.n - 1] : 0);
		n++;
	}
	/* the same lines one by one: as many good ones, the same sum */
	uint64_t sum2 = 0, n2 = 0, bad2 = 0;
	for (size_t i = 0; i < size;) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		const size_t len = nl ? (size_t)(nl - data) - i : size - i;
		const int rc = fptext_parse_line((const char *)data + i, len, &fp, &key);
		if (rc == 1) {
			if (key.n && ((const uint8_t *)key.p < data + i ||
				      (const uint8_t *)key.p + key.n > data + i + len))
				__builtin_trap();
			sum2 += fp + key.n + (key.n ? (uint8_t)key.p[key.n - 1] : 0);
			n2++;
		} else if (rc < 0) {
			bad2++;
		}
		i += len + 1;
	}
	if (r && (n != n2 || sum != sum2 || fptext_bad(r) != bad2))
		__builtin_trap();
	fuzz_sink(sum);
	fptext_close(r);
	fclose(in);
	return 0;
}
