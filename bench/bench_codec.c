/*
 * bench_codec.c - size and speed of the prefix/Huffman block codec.
 *
 *   build/bench/bench_codec [-s seed] [N ...]      (default N = 1M 10M)
 *
 * For each N: N random 64-bit keys from a seeded splitmix64 (a permuted
 * sorted table of random fingerprints is itself random, so this is the
 * right model), each with its document index; sort; histogram over the
 * whole table; build the code; then for blocks of about 256 B, 1 KiB,
 * 4 KiB and 16 KiB of payload: encode, verify, and time decoding.
 *
 * Size is reported as key bits per key (payload minus the idx array,
 * plus the 33-byte code, over N) against the information bound the
 * issue states, 2 + 64 - log2 N, and against the exact entropy of a
 * sorted set, log2 C(2^64, N) / N ~= 64 - log2 N + log2 e.  Speed is
 * decoded keys per second on one thread, keys only (idx = NULL) and
 * keys plus indices, decoding every block into one reused buffer, as a
 * query does; the best of 15 passes over the table.
 */
#include "tables/codec.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct rec {
	uint64_t key;
	uint32_t idx;
};

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Thread CPU time, not wall time: the benchmark shares its 2 cores with
 * builds, and time spent descheduled is not the codec's. */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "bench_codec: out of memory (%zu bytes)\n", n);
		exit(2);
	}
	return p;
}

static int cmp_rec(const void *a, const void *b)
{
	const uint64_t x = ((const struct rec *)a)->key, y = ((const struct rec *)b)->key;
	return (x > y) - (x < y);
}

static unsigned bits_for(uint64_t max)
{
	unsigned b = 0;
	while (b < 32 && (max >> b))
		b++;
	return b;
}

/* The table under test, split into columns as a writer would hold it. */
struct table {
	size_t n;
	unsigned idx_bits;
	uint64_t *keys;
	uint32_t *idx;
};

static void make_table(struct table *t, size_t n, uint64_t seed)
{
	struct rec *r = xmalloc(n * sizeof *r);
	for (size_t i = 0; i < n; i++) {
		r[i].key = splitmix64(&seed);
		r[i].idx = (uint32_t)i;
	}
	qsort(r, n, sizeof *r, cmp_rec);
	t->n = n;
	t->idx_bits = bits_for(n - 1);
	t->keys = xmalloc(n * sizeof *t->keys);
	t->idx = xmalloc(n * sizeof *t->idx);
	for (size_t i = 0; i < n; i++) {
		t->keys[i] = r[i].key;
		t->idx[i] = r[i].idx;
	}
	free(r);
}

/* An encoded table: block b holds records b*per .. and starts at off[b]. */
struct encoded {
	size_t per, nblocks, bytes;
	size_t *off;
	uint8_t *data;
	double enc_s;
};

static void encode_table(const struct codec *c, const struct table *t, size_t per,
			 struct encoded *e)
{
	e->per = per;
	e->nblocks = (t->n + per - 1) / per;
	e->off = xmalloc((e->nblocks + 1) * sizeof *e->off);
	e->data = xmalloc(e->nblocks * codec_block_bound(per, t->idx_bits));
	size_t pos = 0;
	const double t0 = now();
	for (size_t b = 0; b < e->nblocks; b++) {
		const size_t first = b * per, cnt = t->n - first < per ? t->n - first : per;
		e->off[b] = pos;
		pos += codec_encode_block(c, t->keys + first, t->idx + first, cnt, t->idx_bits,
					  e->data + pos);
	}
	e->enc_s = now() - t0;
	e->off[e->nblocks] = pos;
	e->bytes = pos;
}

static size_t block_len(const struct encoded *e, const struct table *t, size_t b)
{
	const size_t first = b * e->per;
	return t->n - first < e->per ? t->n - first : e->per;
}

/* Decode every block once; @return 0 if all match the table. */
static int verify(const struct codec *c, const struct table *t, const struct encoded *e)
{
	uint64_t *k = xmalloc(e->per * sizeof *k);
	uint32_t *x = xmalloc(e->per * sizeof *x);
	int bad = 0;
	for (size_t b = 0; b < e->nblocks && !bad; b++) {
		const size_t cnt = block_len(e, t, b), first = b * e->per;
		if (codec_decode_block(c, e->data + e->off[b], e->off[b + 1] - e->off[b], cnt,
				       t->idx_bits, k, x) ||
		    memcmp(k, t->keys + first, cnt * sizeof *k) ||
		    memcmp(x, t->idx + first, cnt * sizeof *x))
			bad = 1;
	}
	free(k);
	free(x);
	return bad ? -1 : 0;
}

/* Decode the whole table once; @return seconds. */
static double decode_all(const struct codec *c, const struct table *t, const struct encoded *e,
			 uint64_t *k, uint32_t *x)
{
	uint64_t sink = 0;
	const double t0 = now();
	for (size_t b = 0; b < e->nblocks; b++) {
		const size_t cnt = block_len(e, t, b);
		if (codec_decode_block(c, e->data + e->off[b], e->off[b + 1] - e->off[b], cnt,
				       t->idx_bits, k, x))
			abort();
		sink += k[cnt - 1];
	}
	const double el = now() - t0;
	if (sink == 42) /* keep the decode from being optimised away */
		printf(" ");
	return el;
}

/* Best of 15 timed passes over the table (the machine is shared: the
 * best pass is the one least disturbed); @return keys/s. */
static double time_decode(const struct codec *c, const struct table *t,
			  const struct encoded *e, int with_idx)
{
	uint64_t *k = xmalloc(e->per * sizeof *k);
	uint32_t *x = xmalloc(e->per * sizeof *x);
	double best = 1e30;
	for (int trial = 0; trial < 15; trial++) {
		const double el = decode_all(c, t, e, k, with_idx ? x : NULL);
		best = el < best ? el : best;
	}
	free(k);
	free(x);
	return (double)t->n / best;
}

static int run_block_size(const struct codec *c, const struct table *t, size_t payload)
{
	const double bound = 2.0 + 64.0 - log2((double)t->n);
	size_t per = (size_t)((double)payload * 8 / (bound + t->idx_bits));
	struct encoded e;

	per = per ? per : 1;
	encode_table(c, t, per, &e);
	if (verify(c, t, &e)) {
		printf("  block %6zu B: VERIFY FAILED\n", payload);
		return -1;
	}
	size_t idx_bytes = 0;
	for (size_t b = 0; b < e.nblocks; b++)
		idx_bytes += (block_len(&e, t, b) * t->idx_bits + 7) / 8;
	const double key_bits = (double)(e.bytes - idx_bytes + codec_serialized_size()) * 8 /
				(double)t->n;
	const double dk = time_decode(c, t, &e, 0), dki = time_decode(c, t, &e, 1);
	printf("  block %6zu B (%5zu rec, avg %7.1f B): %6.3f bits/key = %5.1f%% of bound,"
	       " decode %6.1f Mkeys/s keys, %6.1f with idx, encode %6.1f\n",
	       payload, per, (double)e.bytes / (double)e.nblocks, key_bits,
	       100.0 * key_bits / bound, dk / 1e6, dki / 1e6, (double)t->n / e.enc_s / 1e6);
	free(e.off);
	free(e.data);
	return 0;
}

static int run(size_t n, uint64_t seed)
{
	static const size_t payloads[] = { 256, 1024, 4096, 16384 };
	struct table t;
	struct codec c;
	uint64_t hist[CODEC_SYMBOLS] = { 0 };
	int rc = 0;

	make_table(&t, n, seed);
	codec_histogram(t.keys, n, hist);
	if (codec_build(&c, hist))
		return -1;
	const double lg = log2((double)n);
	printf("N = %zu (idx_bits %u): bound 2 + 64 - log2 N = %.3f bits/key,"
	       " entropy ~ %.3f bits/key\n",
	       n, t.idx_bits, 66.0 - lg, 64.0 - lg + log2(exp(1.0)));
	for (size_t i = 0; i < sizeof payloads / sizeof *payloads; i++)
		rc |= run_block_size(&c, &t, payloads[i]);
	free(t.keys);
	free(t.idx);
	return rc;
}

int main(int argc, char **argv)
{
	uint64_t seed = 20070508;
	size_t ns[16] = { 1000000, 10000000 }, nn = 2;
	int i = 1, rc = 0;

	if (argc > 2 && !strcmp(argv[1], "-s")) {
		seed = strtoull(argv[2], NULL, 10);
		i = 3;
	}
	if (i < argc)
		nn = 0;
	for (; i < argc && nn < 16; i++)
		ns[nn++] = (size_t)strtoull(argv[i], NULL, 10);
	printf("Seed = %" PRIu64 "\n", seed);
	for (size_t k = 0; k < nn; k++)
		if (ns[k] >= 2)
			rc |= run(ns[k], seed + k);
	return rc ? 1 : 0;
}
