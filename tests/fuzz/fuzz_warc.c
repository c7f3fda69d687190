/*
 * fuzz_warc.c - libFuzzer target: the WARC record reader (warc.h) over an
 * input of any size, plain or gzip, read in pieces whose sizes come from
 * the input's last byte, so that refill boundaries move too.  The input
 * buffer is sized to the input when its size is given (first byte & 2),
 * and starts small and grows otherwise, as for a pipe.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "input/warc.h"
#include "util/log.h"

#include "fuzz.h"

struct src {
	const uint8_t *p;
	size_t n, pos, step;
};

static long src_read(void *ctx, void *buf, size_t n)
{
	struct src *s = ctx;
	size_t k = s->n - s->pos;
	if (k > n)
		k = n;
	if (k > s->step)
		k = s->step;
	memcpy(buf, s->p + s->pos, k);
	s->pos += k;
	return (long)k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	/* last byte 0 (the seeds): reads as large as asked, as from a file;
	 * 1..8: pieces of that many bytes; else multiples of 997 */
	const size_t last = size ? data[size - 1] : 0;
	const size_t step = last == 0 ? SIZE_MAX : last <= 8 ? last : last * 997;
	struct src s = {data, size, 0, step};
	/* a small record limit reaches the "huge" path with small inputs; the
	 * default (64 MiB) would cost a 32 MiB window allocation per input */
	const size_t max_record = size && (data[0] & 1) ? 4096 : 1u << 20;
	struct warc_reader *r = warc_open_read(src_read, &s, "fuzz", max_record,
					       size && (data[0] & 2) ? (int64_t)size : -1);
	if (!r)
		return 0;
	struct warc_record rec;
	uint64_t sum = 0;
	while (warc_next(r, &rec) == 1) {
		/* touch what the reader hands out, so ASan checks its bounds */
		for (size_t i = 0; i < rec.n_headers; i++)
			sum += strlen(rec.headers[i].name) + strlen(rec.headers[i].value);
		if (rec.block_len)
			sum += rec.block[0] + rec.block[rec.block_len - 1];
		size_t ul;
		const char *u = warc_target_uri(&rec, &ul);
		if (u && ul)
			sum += (uint8_t)u[ul - 1];
	}
	fuzz_sink(sum);
	warc_close(r);
	return 0;
}
