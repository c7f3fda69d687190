/*
 * fuzz_archive.c - libFuzzer target: an input of ndd-extract as
 * crawl_input.h reads it (tar, tar.gz, zip, bzip2/xz/zstd through
 * libarchive, or WARC), each member read to its end as a WARC or a page,
 * as ndd-extract does.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "input/crawl_input.h"
#include "input/warc.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	if (size == 0)
		return 0;
	FILE *fp = fmemopen((void *)(uintptr_t)data, size, "rb");
	if (!fp)
		return 0;
	struct crawl_input *in = crawl_input_open(fp, "fuzz");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	uint64_t sum = 0;
	struct crawl_member m;
	for (int members = 0; in && members < 1000 && crawl_input_next(in, &m) == 1; members++) {
		if (m.kind == CRAWL_HTML) {
			if (crawl_input_slurp(in, 1 << 20, &buf, &len, &cap) == 0 && len)
				sum += buf[len - 1];
			continue;
		}
		/* a 1 MiB record limit, not ndd-extract's 64 MiB: the same
		 * paths, reached with small inputs, and each member's window
		 * (half the largest) is not a 32 MiB allocation */
		struct warc_reader *r = warc_open_read(crawl_input_read, in, m.name, 1u << 20, m.size);
		struct warc_record rec;
		while (r && warc_next(r, &rec) == 1)
			sum += rec.block_len ? rec.block[rec.block_len - 1] : 0;
		warc_close(r);
	}
	fuzz_sink(sum);
	free(buf);
	crawl_input_close(in);
	fclose(fp);
	return 0;
}
